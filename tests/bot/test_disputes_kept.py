"""A dispute is not lost on the way: 开桌 over a contested record is refused (a new table would leave the record to
admins alone and the dispute to nothing), a table void undone by 撤销 brings back the questions that waited at it,
`我也不同意` / `我们都不同意` count the sender's dispute (only theirs, and the reply says so when the line claims
others), and the 撤销 question about a contested record names the dispute."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_disputes import CONTESTED, HOW, LIED, MEMBERS, money
from tests.bot.test_recording_fixes import CHAT, Table

WITHDRAW = "bot: [按钮] 撤回异议"
ONLY_YOURS = "bot: 只算了你自己的不同意：别人不同意要自己发「不同意」（不能替别人表态）。"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*MEMBERS, "evil: 开桌 @li @jie @evil", "!clock +20s", "evil: 我胡了 双龙七对 自摸", "!clock +20s")
    yield opened
    opened.ledger.close()


def contests(table: Table) -> list[list[int]]:
    return [flow.state["disputers"] for flow in table.ledger.open_flows(CHAT, kinds=("dispute",))]


def test_开桌_over_a_contested_record_is_refused_and_the_dispute_holds(table: Table) -> None:
    """The play-test: 黑子 opened a new table over 小李's dispute, which vanished with his +32 sealed."""
    table.say("li: 不同意", "!clock +20s")
    before = table.ledger.current_table(CHAT)
    out = table.say("evil: 开桌 @li @jie @evil")
    assert out == [
        "bot: 还不能开新桌：第1局的记录 黑子-成员 自摸 双龙七对 有争议（小李-成员 不同意），"
        "开了新桌就只有管理员能撤它了。" + HOW
    ]
    assert table.ledger.current_table(CHAT) == before and len(contests(table)) == 1
    out = table.say("!clock +20s", "jie: 不同意")  # the dispute still counts: the second voids it
    assert out[0].startswith("bot: ❌ 小李-成员、阿杰-成员 都不同意") and money(table) == {}
    assert table.say("!clock +20s", "evil: 开桌 @li @jie @evil")[0].startswith("bot: 上一桌")  # resolved: opens


def test_开桌_after_the_dispute_is_withdrawn_opens(table: Table) -> None:
    table.say("li: 不同意", "!clock +20s", "li: 算了", "!clock +20s")
    opened = table.say("evil: 开桌 @li @jie @evil")
    assert opened[0] == "bot: 上一桌（小李-成员、阿杰-成员、黑子-成员）到此结束，记下的 1 局都算数。"
    assert money(table) == LIED


def test_我也不同意_counts_the_senders_dispute(table: Table) -> None:
    assert table.say("li: 我也不同意") == [CONTESTED, WITHDRAW]
    assert table.say("!clock +20s", "li: 我也不同意") == ["bot: 你已经不同意这条了（还差 1 人）。"]
    out = table.say("!clock +20s", "jie: 我不同意")
    assert out[0].startswith("bot: ❌ 小李-成员、阿杰-成员 都不同意") and money(table) == {}


@pytest.mark.parametrize("line", ["我们两个都不同意", "我们都不同意", "我俩都不同意", "大家都不同意"])
def test_a_dispute_said_for_others_counts_the_senders_alone_and_says_so(table: Table, line: str) -> None:
    assert table.say(f"li: {line}") == [CONTESTED, WITHDRAW, ONLY_YOURS]
    assert contests(table) == [[table.console.sender("li").user_id]]  # 阿杰 disputed nothing
    assert money(table) == LIED


def test_said_for_others_by_the_winner_or_someone_not_seated_is_chat(table: Table) -> None:
    assert table.say("evil: 我们都不同意", "boss: 我也不同意", "li: 我们都不同意吗") == []
    assert contests(table) == []


def test_the_撤销_question_about_a_contested_record_names_the_dispute(table: Table) -> None:
    table.say("li: 不同意", "!clock +20s")
    out = table.say("jie: 撤销")
    assert out[1] == "bot: ⚠️ 这条有争议：小李-成员 不同意。撤销了它，争议也就解决了。"
    assert table.say("!clock +20s", "evil: 撤销")[1] == out[1]  # the recorder's own question says it too


def test_the_撤销_question_about_an_undisputed_record_says_nothing_of_one(table: Table) -> None:
    assert not any("争议" in line for line in table.say("jie: 撤销"))


def test_undoing_a_void_brings_back_the_questions_that_waited(table: Table) -> None:
    """作废这桌 with a dispute and an undo question waiting, then 撤销: both wait again, buttons live."""
    table.say("li: 不同意", "!clock +20s", "jie: 撤销", "!clock +20s", "boss: 作废这桌", "boss: !press 作废这桌")
    assert contests(table) == [] and money(table) == {}
    out = table.say("!clock +20s", "boss: 撤销")
    assert out[-1] == "bot: 作废时还在等回答的 2 个问题也恢复了：上面的按钮照常能点。"
    assert money(table) == LIED and len(contests(table)) == 1
    assert table.say("!clock +20s", "evil: 结算")[0].startswith("bot: 还不能结算：第1局的记录")
    out = table.say("evil: !press 确认撤销")  # the recorder confirms 阿杰's undo question, as before the void
    assert out[0] == "bot: 已撤销：第1局 黑子-成员 自摸 双龙七对。第1局重新打开。" and money(table) == {}


def test_undoing_a_void_with_no_question_waiting_says_nothing_of_questions(table: Table) -> None:
    table.say("boss: 作废这桌", "boss: !press 作废这桌", "!clock +20s")
    out = table.say("boss: 撤销")
    assert out[0].startswith("bot: ↩️ 撤销了作废") and not any("问题" in line for line in out)
    assert table.ledger.open_flows(CHAT) == []  # the void's own question stays answered


def test_in_english(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*MEMBERS, "boss: 设置 语言 en", "evil: 开桌 @li @jie @evil", "!clock +20s")
        table.say("evil: 我胡了 双龙七对 自摸")
        out = table.say("!clock +20s", "li: we both disagree")
        assert out[0].startswith("bot: ⚠️ 小李-成员 disputes hand 1's record") and out[-1] == (
            "bot: Only your own dispute is counted: the others must each send disagree themselves (nobody disputes "
            "for another)."
        )
        assert table.say("evil: open @li @jie @evil")[0].startswith("bot: Can't open a new table yet: hand 1's record")
        out = table.say("jie: undo")
        assert out[1] == "bot: ⚠️ It is contested: disputed by 小李-成员. Undoing it resolves the dispute."
        table.say("boss: void table", "boss: !press Void table", "!clock +20s")
        out = table.say("boss: undo")
        back = "bot: The 2 question(s) waiting when it was voided are back too: their buttons above work again."
        assert out[-1] == back
    finally:
        table.ledger.close()


def test_english_words_in_a_chinese_group_are_chat(table: Table) -> None:
    assert table.say("li: we both disagree", "li: i disagree too") == [] and contests(table) == []
