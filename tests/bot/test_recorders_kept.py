"""A correction rebooks its hand (the old hand voided, a new one with the other records kept in place): every record
keeps its own recorder and time through it. Stamping the corrector on the hand's earlier records made them theirs:
after the corrected win was undone, its corrector's 撤销 took back another player's kong without asking anyone,
and 改 called that kong "你 刚刚记的". On SQLite and PostgreSQL (the scripted case), SQLite (the property)."""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import user_id_of
from ledger import models as m
from tests.bot.test_recording_fixes import CHAT, Table

PLAYERS = ("!join ajie 阿杰", "!join xiaoli 小李", "!join laowang 老王", "!join boss 老板", "!admin boss")
OPEN = "ajie: 开桌 @xiaoli @laowang 我坐庄"
ASKS_LAOWANG = "bot: 这是 @laowang 记的：要 TA 或管理员点「确认撤销」才撤（不撤就点「不撤销」）。"


def test_undoing_a_corrected_win_leaves_the_kong_before_it_its_recorders(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*PLAYERS, OPEN, "laowang: 暗杠 4s", "ajie: 胡 清一色 自摸", "!clock +30s")
        table.say("ajie: 改成 碰碰胡", "ajie: !press 改成这样", "ajie: 撤销", "ajie: !press 确认撤销")
        before = table.balances()
        out = table.say("!clock +30s", "ajie: 撤销")
        assert out[:2] == ["bot: 最后一条记录是 老王 60秒前记的：第1局 老王 暗杠 四条。确定撤销吗？", ASKS_LAOWANG]
        assert table.say("ajie: !press 确认撤销")[-1].startswith("bot: [提示] 这是 老王 记的")
        assert table.balances() == before  # 老王's kong stands until 老王 (or an admin) says so
        table.say("ajie: !press 不撤销")
        out = table.say("ajie: 改成 清一色 自摸")
        assert out == [
            "bot: 「改」不会改别人记的账：最后一条（第1局 老王 暗杠 四条）是 老王 记的，请 TA 发「改成 …」或编辑原来"
            "那条消息；管理员也可以改（写明是谁：改成 @某人 …）。"
        ]
        table.say("laowang: 撤销")  # 老王's own kong in the hand in progress: taken back at once
        assert table.balances() == {"阿杰": 0, "小李": 0, "老王": 0, "老板": 0}
    finally:
        table.ledger.close()


def test_an_admins_correction_leaves_the_win_its_recorders(db_url: str) -> None:
    """The corrected record itself stays its recorder's: the admin who corrected it is not made its recorder."""
    table = Table(db_url)
    try:
        table.say(*PLAYERS, OPEN, "xiaoli: 暗杠 4s", "ajie: 胡 清一色 自摸", "!clock +30s")
        table.say("boss: 改成 @ajie 碰碰胡 自摸", "boss: !press 改成这样", "!clock +30s")
        assert table.say("ajie: 撤销")[0] == (
            "bot: 最后一条记录是第1局的结束（你 30秒前记的）：阿杰 自摸 碰碰胡。撤销后第1局重新打开，"
            "之前记的杠和亮倒都保留。确定吗？"
        )
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------ the property

SEATED = ("ajie", "xiaoli", "laowang")
PEOPLE = (*SEATED, "boss")
TILES = ("1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "1p", "2p", "3p")
CORRECTIONS = ("改成 碰碰胡", "改成 清一色", "改成 七对", "改成 卡五星")

step = st.one_of(
    st.tuples(st.just("kong"), st.sampled_from(SEATED)),
    st.tuples(st.just("win"), st.sampled_from(SEATED)),
    st.tuples(st.just("correct"), st.sampled_from(PEOPLE)),
    st.tuples(st.just("undo"), st.sampled_from(PEOPLE)),
)


def _live_recorders(table: Table) -> list[tuple[str, int | None]]:
    """(source, recorder) of every live event of a live hand."""
    query = (
        sa.select(m.HandEvent.source, m.HandEvent.created_by)
        .join(m.Hand, m.Hand.id == m.HandEvent.hand_id)
        .where(m.HandEvent.voided_at.is_(None), m.Hand.status != m.VOIDED)
    )
    with table.ledger.engine.connect() as connection:
        return [(row.source, row.created_by) for row in connection.execute(query)]


def _typed_by(table: Table, source: str) -> int:
    """Who typed the message `source` records (an edit or correction of it, `<source>:e…`, names it too)."""
    posted = table.console.posted[int(source.split(":")[2])]
    assert posted.sender is not None
    return posted.sender.user_id


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(step, min_size=3, max_size=14))
def test_recorders_never_change_and_only_the_recorder_or_an_admin_undoes(
    new_sqlite_url: Callable[[], str], steps: list[tuple[str, str]]
) -> None:
    """Whatever kongs, wins, corrections and 撤销 come in whatever order: every live record's recorder is whoever
    typed it, and a 撤销 takes a record back only when its recorder or an admin said so — at once only the
    recorder's own record in the hand in progress."""
    table = Table(new_sqlite_url())
    tiles = iter(TILES)
    try:
        table.say(*PLAYERS, OPEN)
        for number, (what, who) in enumerate(steps):
            table.say("!clock +2m")
            if what == "kong":
                table.say(f"{who}: 暗杠 {next(tiles, '9p')}")
            elif what == "win":
                table.say(f"{who}: 胡 清一色 自摸")
            elif what == "correct":
                asked = table.say(f"{who}: {CORRECTIONS[number % len(CORRECTIONS)]}")
                if any(line.startswith("bot: [按钮] 改成这样") for line in asked):
                    table.say(f"{who}: !press 改成这样")
            else:
                latest = table.ledger.latest_record(table.ledger.current_table(CHAT).id)
                before = table.balances(), len(_live_recorders(table))
                out = table.say(f"{who}: 撤销")
                asked = any(line.startswith("bot: [按钮] 确认撤销") for line in out)
                if asked:
                    out += table.say(f"{who}: !press 确认撤销")
                    if out[-1].startswith("bot: [提示] 这是"):  # someone else's: the asker drops the question
                        table.say(f"{who}: !press 不撤销")
                if latest is not None and (table.balances(), len(_live_recorders(table))) != before:
                    assert user_id_of(who) == latest.recorded_by or who == "boss", (who, out)
                    assert asked or user_id_of(who) == latest.recorded_by, out
            for source, recorder in _live_recorders(table):
                assert recorder == _typed_by(table, source), (source, steps[: number + 1])
    finally:
        table.ledger.close()
