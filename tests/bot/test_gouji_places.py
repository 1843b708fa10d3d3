"""够级: a player's own place said in the first person (`我头科`) starts the 名次 buttons with them there, or goes
into the round's buttons already waiting; a place or a player placed already is refused, nothing changed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

PLAYERS = ("a 阿一", "b 阿二", "c 阿三", "d 阿四", "e 阿五", "f 阿六")
SETUP = ("!admin a", *(f"!join {who}" for who in PLAYERS), "a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f")


@pytest.fixture
def console(sqlite_url: str) -> Iterator[Console]:
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        for line in SETUP:
            console.feed(line)
        yield console
    finally:
        ledger.close()


def said(console: Console, line: str) -> list[str]:
    """What a line gets, a minute after the one before (no flood)."""
    console.feed("!clock +1m")
    return console.feed(line)


def rows(console: Console) -> dict[str, int]:
    with console.bot.service.engine.connect() as connection:
        return {
            name: connection.execute(sa.text(f"SELECT count(*) FROM {name}")).scalar_one()
            for name in ("flows", "hands", "hand_events", "transfers")
        }


@pytest.mark.parametrize(
    ("line", "place", "next_out"),
    [
        ("c: 我头科", "头科", 2),
        ("c: 我是头科", "头科", 2),
        ("c: 头科 我", "头科", 2),
        ("c: 头科是我", "头科", 2),
        ("c: 我 二科", "二科", 1),
        ("c: 我是二科了", "二科", 1),
        ("c: 我末游", "大落", 1),
        ("c: 我二落", "二落", 1),
    ],
)
def test_ones_own_place_starts_the_buttons_with_them_there(
    console: Console, line: str, place: str, next_out: int
) -> None:
    reply = said(console, line)
    assert reply[:3] == [
        "bot: 记名次（第1局）：按出完的顺序点人",
        f"bot: 名次：{place} 阿三（自己说的）",
        f"bot: 谁是第 {next_out} 个出完的？",
    ]
    assert "阿三" not in "".join(line for line in reply if line.startswith("bot: [按钮]"))  # placed: no button


@pytest.mark.parametrize(
    "line", ["c: 我头科吗", "c: 我头科？", "c: 我是头科吧", "c: 我头科 厉害吧", "c: 头科是我的", "c: 我七科", "c: 头科"]
)
def test_the_same_words_as_chat_get_no_answer(console: Console, line: str) -> None:
    before = rows(console)
    assert said(console, line) == []
    assert rows(console) == before


def test_places_said_one_after_another_fill_one_round(console: Console) -> None:
    said(console, "c: 我头科")
    joined = said(console, "b: 我是二科")
    assert joined[1] == "bot: 名次：头科 阿三（自己说的）、二科 阿二（自己说的）"
    assert joined[-1] == "bot: 记到上面的名次按钮里了：阿二 二科。"
    said(console, "f: 我末游")
    for tapped in ("阿五", "阿一", "阿四"):
        console.feed(f"a: !press {tapped}")
    booked = console.feed("a: !press 确认")
    assert "bot: 第1局 够级：头科 阿三、二科 阿二、三科 阿五、四科 阿一、二落 阿四、大落 阿六" in booked
    assert rows(console)["flows"] == 1  # one round, one set of buttons


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("d: 头科 我", "bot: 上面的名次按钮里 头科 已经是 阿三，没有改。不对就点「↩ 撤一个」或「取消」重来。"),
        ("d: 我二科", "bot: 上面的名次按钮里 二科 已经是 阿五，没有改。不对就点「↩ 撤一个」或「取消」重来。"),
        ("c: 我三科", "bot: 上面的名次按钮里已经有你了（阿三），没有改。不对就点「↩ 撤一个」或「取消」重来。"),
        ("e: 我四科", "bot: 上面的名次按钮里已经有你了（阿五），没有改。不对就点「↩ 撤一个」或「取消」重来。"),
    ],
)
def test_a_place_or_a_player_placed_already_is_refused(console: Console, line: str, told: str) -> None:
    said(console, "c: 我头科")
    console.feed("a: !press 阿五")  # 二科, tapped
    before = rows(console), console.bot.service.open_flows()[0].state
    assert said(console, line) == [told]
    assert (rows(console), console.bot.service.open_flows()[0].state) == before


def test_at_another_game_it_is_chat(console: Console) -> None:
    said(console, "a: 设置 游戏 卡五星")
    said(console, "a: 开桌 @a @b @c")
    assert said(console, "c: 我头科") == []
