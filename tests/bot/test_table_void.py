"""Voiding a table with hands booked at it is never one word: an admin's `退桌`/`作废这桌` asks with a button that names
the hands and the money going back, and `撤销` (the voider's or an admin's) restores it exactly. A seated player who
played says `退桌` to stop, never to void; `我没上桌` from someone not seated is chat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bot.test_recording_fixes import CHAT, Table

MEMBERS = ("!join wang 老王-成员", "!join li 小李-成员", "!join jie 阿杰-成员", "!join boss 群主")
NIGHT = ("wang: 开桌 @wang @li @jie 庄 @wang", "li: 胡 清一色 自摸", "!clock +5m", "jie: 胡 七对 点 @wang")
ASK = (
    "bot: 🚪 作废这桌（老王-成员 开的）？记下的 2 局都会撤销，12元 输赢全部退回。确定就点「作废这桌」（管理员），"
    "不作废点「不作废」。作废后发「撤销」可以恢复。"
)


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*MEMBERS, "!admin wang", "!admin boss", *NIGHT, "!clock +5m")
    yield opened
    opened.ledger.close()


def money(table: Table) -> dict[str, int]:
    return {line.name: line.amount for line in table.ledger.balances(CHAT).lines if line.amount}


BEFORE = {"小李-成员": 800, "老王-成员": -800}


def test_a_seated_admin_who_played_says_退桌_to_stop_never_to_void(table: Table) -> None:
    """The play-tester's night: 老王 (an admin who opened and played) said 退桌 and every hand was undone."""
    out = table.say("wang: 退桌")
    assert out == [
        "bot: 没有作废：这桌你开过、记过、撤过牌或赢过钱，算你同意上桌了。不打了就发「结算」收桌；"
        "整桌作废要管理员发「作废这桌」。"
    ]
    assert money(table) == BEFORE and table.ledger.chat(CHAT).table is not None


def test_an_admin_not_seated_saying_我没上桌_is_chat(table: Table) -> None:
    assert table.say("boss: 我没上桌", "!clock +20s", "boss: 我没同意上桌") == []
    assert money(table) == BEFORE and table.ledger.chat(CHAT).table is not None


def test_an_admins_void_is_asked_and_undone_exactly(table: Table) -> None:
    assert table.say("boss: 退桌") == [ASK, "bot: [按钮] 作废这桌 | 不作废"]
    assert money(table) == BEFORE
    assert table.say("li: !press 作废这桌") == ["bot: [提示] 整桌作废要管理员确认。不打了就发「结算」收桌。"]
    out = table.say("boss: !press 作废这桌")
    assert out[-1] == (
        "bot: 🚪 管理员 群主 作废了这桌（老王-成员 开的）：记下的 2 局都撤销了，钱已退回。"
        "（要恢复，群主 或管理员发「撤销」。）"
    )
    assert money(table) == {} and table.ledger.chat(CHAT).table is None
    assert table.say("!clock +20s", "li: 撤销") == ["bot: 这桌是 群主 作废的：只有 TA 或管理员能撤销作废。"]
    assert table.say("!clock +20s", "boss: 撤销") == [
        "bot: ↩️ 撤销了作废：这桌（老王-成员 开的）恢复了，记下的 2 局照旧算数，12元 输赢记回去了。"
    ]
    assert money(table) == BEFORE
    out = table.say("!clock +5m", "wang: 胡 碰碰胡 自摸")
    assert out[0] == "bot: 第3局 记下：" and len(table.ledger.history(CHAT, 10)) == 3


def test_作废这桌_is_an_admins_and_不作废_keeps_it(table: Table) -> None:
    assert table.say("li: 作废这桌") == ["bot: 整桌作废要管理员确认。不打了就发「结算」收桌。"]
    assert table.say("!clock +20s", "wang: 作废这桌")[0] == ASK
    assert table.say("wang: !press 不作废")[-1] == "bot: 没有作废：这桌照常。"
    assert money(table) == BEFORE


LINES = ("li: 胡 清一色 自摸", "jie: 胡 七对 点 @wang", "wang: 暗杠 5s", "li: 亮倒", "jie: 荒庄")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(played=st.lists(st.sampled_from(LINES), min_size=1, max_size=6))
def test_a_void_then_its_undo_restores_every_balance(sqlite_url: str, played: list[str]) -> None:
    table = Table(sqlite_url)
    try:
        table.say(*MEMBERS, "!admin boss", "wang: 开桌 @wang @li @jie 庄 @wang")
        for line in played:
            table.say("!clock +5m", line)
        before = money(table), table.ledger.balances(CHAT), table.ledger.history(CHAT, 50, include_voided=True)
        table.say("!clock +20s", "boss: 作废这桌", "boss: !press 作废这桌")
        table.say("!clock +20s", "boss: 撤销")
        after = money(table), table.ledger.balances(CHAT), table.ledger.history(CHAT, 50, include_voided=True)
        assert after == before and table.ledger.chat(CHAT).table is not None
    finally:
        table.ledger.close()
