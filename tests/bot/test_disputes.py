"""The players a record does not pay can dispute it with no admin around (`不同意`, `他没胡`, `不对 他没胡`): a
majority of the table disputing it voids it; one dispute marks it contested and 结算 waits, naming it and how to
resolve it (its recorder's 撤销, an admin, the others disputing too, or the disputer's 算了/「撤回异议」)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import CHAT, Table

MEMBERS = ("!join li 小李-成员", "!join jie 阿杰-成员", "!join evil 黑子-成员", "!join boss 群主", "!admin boss")
LIED = {"黑子-成员": 3200, "小李-成员": -1600, "阿杰-成员": -1600}
HOW = (
    "黑子-成员 或管理员发「撤销」撤掉它；再有 1 人不同意（发 不同意）就作废；"
    "小李-成员 点「撤回异议」或发 算了 就照常算。"
)
CONTESTED = (
    "bot: ⚠️ 小李-成员 不同意第1局的记录：黑子-成员 自摸 双龙七对（黑子-成员 20秒前记的）。这条有争议，结算前要解决："
    + HOW
)
REFUSED = "bot: 还不能结算：第1局的记录 黑子-成员 自摸 双龙七对 有争议（小李-成员 不同意）。" + HOW


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*MEMBERS, "evil: 开桌 @li @jie @evil", "!clock +20s", "evil: 我胡了 双龙七对 自摸", "!clock +20s")
    yield opened
    opened.ledger.close()


def money(table: Table) -> dict[str, int]:
    return {line.name: line.amount for line in table.ledger.balances(CHAT).lines if line.amount}


def test_two_losers_void_a_false_win_and_one_holds_up_结算(table: Table) -> None:
    """The play-tester's night: 不对 他没胡, 不同意 got no reply, and 黑子's 结算 sealed his +32."""
    assert table.say("li: 不对 他没胡") == [CONTESTED, "bot: [按钮] 撤回异议"]
    assert table.say("!clock +20s", "li: 不同意") == ["bot: 你已经不同意这条了（还差 1 人）。"]
    assert table.say("!clock +20s", "evil: 结算") == [REFUSED] and money(table) == LIED
    out = table.say("!clock +20s", "jie: 不同意")
    assert out == [
        "bot: ❌ 小李-成员、阿杰-成员 都不同意，第1局的记录作废了：黑子-成员 自摸 双龙七对。钱已退回。",
        "bot: 现在打第1局，庄家 小李-成员",
        "bot: 记下了（上面那条已经更新）。",
    ]
    assert money(table) == {} and table.ledger.history(CHAT, 10) == []


def test_the_recorders_撤销_resolves_it(table: Table) -> None:
    table.say("li: 他没胡", "!clock +20s", "evil: 撤销", "evil: !press 确认撤销", "!clock +20s")
    assert money(table) == {}
    table.say("evil: 荒庄", "!clock +20s")
    assert table.say("evil: 结算")[1].startswith("bot: 第1晚结算")


def test_the_disputer_may_withdraw_and_结算_goes_ahead(table: Table) -> None:
    table.say("li: 不同意", "!clock +20s")
    assert table.say("li: 算了")[-1] == "bot: 好的，不争了（上面那条已经改成结果）。"
    assert table.say("!clock +20s", "evil: 结算")[1].startswith("bot: 第1晚结算") and money(table) == LIED


def test_an_admin_clears_it_with_撤回异议(table: Table) -> None:
    table.say("li: 不同意", "!clock +20s")
    assert table.say("jie: !press 撤回异议") == ["bot: [提示] 只有不同意的人或管理员能撤回异议。"]
    out = table.say("boss: !press 撤回异议")
    assert out[-1] == "bot: 异议撤回了：第1局的记录（黑子-成员 自摸 双龙七对）照常算数。"


def test_the_winner_the_unseated_and_questions_are_chat(table: Table) -> None:
    assert table.say("evil: 不同意", "!clock +20s", "boss: 他没胡", "!clock +20s", "li: 他没胡吗") == []
    assert table.say("!clock +20s", "li: 不同意 明天再说", "!clock +20s", "evil: 结算")[1].startswith("bot: 第1晚")
