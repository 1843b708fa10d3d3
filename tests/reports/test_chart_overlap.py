"""Players whose running balances are identical — a 够级 team's three members, who each get their 对头's money every
round — are each drawn so that every one shows: the same values (the chart reads true), each later copy shifted a
little along the hands, dashed and with its own marker. They were drawn exactly on top of each other, so only the
last of a team showed."""

from __future__ import annotations

from typing import Any

from bot.reports.chart import PLAYER_GID, ChartLabels, balance_figure, player_lines
from bot.reports.night import night_post
from ledger.events import GoujiRound
from ledger.service import Ledger

LABELS = ChartLabels("第1晚 走势", "局数", "累计（元）")


def drawn_lines(fig: Any) -> dict[str, Any]:
    return {
        line.get_gid()[len(PLAYER_GID) :]: line
        for ax in fig.axes
        for line in ax.get_lines()
        if (line.get_gid() or "").startswith(PLAYER_GID)
    }


def look(line: Any) -> tuple[Any, ...]:
    """What tells a line from another on the picture: where its points sit, its dashes and its marker."""
    return (tuple(line.get_xdata()), line.get_linestyle(), line.get_marker())


def assert_all_show(fig: Any, series: dict[str, list[int]]) -> None:
    lines = drawn_lines(fig)
    assert set(lines) == set(series)
    assert player_lines(fig) == {name: [v / 100 for v in values] for name, values in series.items()}
    for values in {tuple(values) for values in series.values()}:  # the players drawn along the same values
        alike = [look(lines[name]) for name, drawn in series.items() if tuple(drawn) == values]
        assert len(set(alike)) == len(alike), alike  # each drawn apart from the others


def test_identical_series_are_each_drawn_apart() -> None:
    series = {"甲": [0, 400, 800], "乙": [0, -400, -800], "丙": [0, 400, 800], "丁": [0, -400, -800]}
    assert_all_show(balance_figure(series, LABELS, "元"), series)


def test_a_series_unlike_the_others_keeps_its_place() -> None:
    fig = balance_figure({"甲": [0, 100, 300], "乙": [0, -100, -300]}, LABELS, "元")
    assert [tuple(line.get_xdata()) for line in drawn_lines(fig).values()] == [(0, 1, 2), (0, 1, 2)]


def test_a_gouji_nights_teammates_all_show_on_its_chart(ledger: Ledger) -> None:
    chat = -3_100_001
    ledger.group(chat)
    ledger.update_group(chat, game="gouji", base=100, source=f"{chat}:cfg", by=1)
    seats = ["阿一", "阿二", "阿三", "阿四", "阿五", "阿六"]
    ids = [ledger.member(chat, 10 + i, name).id for i, name in enumerate(seats)]
    table = ledger.open_table(chat, ids, source=f"{chat}:open", by=1)
    for step, order in enumerate(["阿一 阿三 阿五 阿二 阿四 阿六", "阿二 阿一 阿四 阿三 阿六 阿五"]):
        ledger.record_event(table.id, GoujiRound(tuple(order.split()), (), ()), source=f"{chat}:{step}", by=10)
    post = night_post(ledger, table.night_id)
    series = {name: list(values) for name, values in post.series.items()}
    assert series["阿一"] == series["阿三"] == series["阿五"] != series["阿二"]  # teammates: one line each
    assert_all_show(post.figure, series)
