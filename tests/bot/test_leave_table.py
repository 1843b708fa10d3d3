"""Anyone may open a table seating others, so a member seated without agreeing can leave it (`退桌`) while they have
taken no part in it: the table ends and every hand booked at it is voided, its money back. One who opened,
recorded or took back anything at it is refused (their game counts); an admin may always. Through the console and
through the real python-telegram-bot path (tests/bot/fake_bot_api.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.fake_bot_api import CHAT as TG_CHAT
from tests.bot.test_recording_fixes import CHAT, Table
from tests.bot.test_telegram import A, B, C, Harness, tg

__all__ = ["tg"]

TOOK_PART = (
    "bot: 没有作废：这桌你开过、记过、撤过牌或赢过钱，算你同意上桌了。"
    "不打了就发「结算」收桌；整桌作废要管理员发「作废这桌」。"
)
MEMBERS = ("!admin boss", "!join a 阿杰-成员", "!join b 小李-成员", "!join c 老王-成员", "!join eve 小红-成员")


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    # 小红 opens a table seating 小李 and 老王, who never agreed, and books two wins against them
    # two wins of one winner 5 min apart: sooner, the second would be asked as the first told again
    opened.say(*MEMBERS, "eve: 开桌 @eve @b @c 庄 @eve", "!clock +3m", "eve: 胡 清一色 自摸", "!clock +5m")
    opened.say("eve: 胡 清一色 自摸", "!clock +20s")
    yield opened
    opened.ledger.close()


def money(table: Table) -> dict[str, int]:
    return {line.name: line.amount for line in table.ledger.balances(CHAT).lines if line.amount}


ASK = (
    "bot: 🚪 小李-成员 要退桌：说没同意上桌。这桌已经记了账，作废会把记下的都撤销，小红-成员 赢的钱也退回。"
    "要作废，@eve 点「同意作废」或发 同意（管理员也可以）；不作废，桌上的人点「不同意」或发 不同意。"
)
ASK_BUTTONS = "bot: [按钮] 同意作废 | 不同意"
BEFORE = {"小红-成员": 1600, "小李-成员": -800, "老王-成员": -800}


def test_a_member_seated_without_agreeing_leaves_and_the_tables_hands_are_voided(table: Table) -> None:
    """With money moved to 小红, 小李's 退桌 is asked; 小红's word voids the table."""
    assert money(table) == BEFORE
    table.say("b: 撤销", "!clock +20s")  # asking is no part taken: nothing was undone
    assert table.say("b: 退桌") == [ASK, ASK_BUTTONS] and money(table) == BEFORE
    out = table.say("eve: !press 同意作废")
    assert out[-1] == (
        "bot: 🚪 小李-成员 退桌：这桌是 小红-成员 开的，小李-成员 没同意上桌。牌桌作废：记下的 2 局都撤销了，"
        "钱已退回。要打请重新开桌。（小红-成员 同意了）"
    )
    assert money(table) == {} and table.ledger.chat(CHAT).table is None
    assert [h.status for h in table.ledger.history(CHAT, 10, include_voided=True)] == ["voided", "voided"]


def test_a_loser_alone_cannot_wipe_the_winners_money(table: Table) -> None:
    """The hole: 小李 (never took part, down 8元) voided 小红's winnings alone. Now neither 小李 nor the other loser
    老王 may agree; only the one up at the table, or an admin."""
    table.say("b: 退桌")
    refused = "你的「同意」不算数：作废这桌要 小红-成员 同意（或管理员），作废退回的是赢家的钱。"
    assert table.say("b: !press 同意作废") == [f"bot: [提示] {refused}"]
    assert table.say("c: !press 同意作废") == [f"bot: [提示] {refused}"]
    assert table.say("!clock +10s", "c: 同意") == [f"bot: {refused}"]  # not theirs to agree to: told whose it is
    assert table.say("b: 同意") == []  # the leaver's own: chat
    assert money(table) == BEFORE and table.ledger.chat(CHAT).table is not None
    assert table.say("boss: 同意")[0].startswith("bot: 🚪 小李-成员 退桌") and money(table) == {}


def test_the_winner_may_refuse_and_the_leaver_may_drop_it(table: Table) -> None:
    table.say("b: 退桌")
    assert table.say("eve: !press 不同意")[-1] == "bot: 没有作废：小李-成员 的退桌没有得到同意，这桌照常。"
    table.say("!clock +20s", "b: 退桌")
    assert table.say("b: 算了")[-1] == "bot: 好的，不退桌了（上面的按钮已经作废）。"
    assert table.say("!clock +10s", "eve: 同意") == [] and money(table) == BEFORE


def test_the_question_tells_the_others_they_may_type_不同意(table: Table) -> None:
    """老王, down too and seated, reads the question: it says he may type 不同意, and his typed word keeps the table
    (said so, with how to dispute the record: 不同意 is also the dispute word)."""
    assert table.say("b: 退桌")[0] == ASK
    assert table.say("!clock +10s", "c: 不同意")[-1] == (
        "bot: 好的，这桌不作废（上面那条已经改成结果）。这个「不同意」答的是退桌；要说记录不对，再发 他没胡。"
    )
    assert money(table) == BEFORE and table.ledger.chat(CHAT).table is not None


def test_a_record_booked_after_the_question_expires_it(table: Table) -> None:
    table.say("b: 退桌", "!clock +5m", "eve: 胡 清一色 自摸", "!clock +10s")
    out = table.say("eve: !press 同意作废")
    assert "这个退桌问题作废了" in out[0] and len(table.ledger.history(CHAT, 10)) == 3


def test_with_no_money_moved_the_leaver_needs_nobody(db_url: str) -> None:
    opened = Table(db_url)
    try:
        opened.say(*MEMBERS, "eve: 开桌 @eve @b @c 庄 @eve", "!clock +3m", "eve: 亮倒", "!clock +20s")
        out = opened.say("b: 退桌")
        assert out == [
            "bot: 🚪 小李-成员 退桌：这桌是 小红-成员 开的，小李-成员 没同意上桌。牌桌作废：记下的 1 局都撤销了，"
            "钱已退回。要打请重新开桌。"
        ]
        assert opened.ledger.chat(CHAT).table is None
    finally:
        opened.ledger.close()


def test_a_win_of_ones_own_is_taking_part(table: Table) -> None:
    """小李's win recorded by 小红 is a hand 小李 played: a sore winner-turned-loser cannot void the night."""
    table.say("!clock +5m", "eve: 胡 @b 清一色 自摸", "!clock +20s")
    assert table.say("b: 退桌") == [TOOK_PART] and len(table.ledger.history(CHAT, 10)) == 3


def test_half_an_hour_after_开桌_only_an_admin_may_void_it(table: Table) -> None:
    """A loser who never recorded could otherwise void a whole night's winnings: past `LEAVE_WITHIN` of 开桌 the seat
    was taken by playing; an admin still may."""
    table.say("!clock +25m")  # 33 minutes since 开桌
    out = table.say("b: 退桌")
    assert out == [
        "bot: 没有作废：开桌超过 30 分钟了，坐着打了这么久，算你同意上桌了。要作废请找管理员（管理员发 作废这桌）。"
    ]
    assert money(table) == {"小红-成员": 1600, "小李-成员": -800, "老王-成员": -800}
    assert table.say("!clock +20s", "boss: 退桌")[0].startswith("bot: 🚪 作废这桌（小红-成员 开的）？")
    assert table.say("boss: !press 作废这桌")[-1].startswith("bot: 🚪 管理员 boss 作废了这桌") and money(table) == {}


def test_one_who_took_part_is_refused_and_an_admin_always_may(table: Table) -> None:
    table.say("!clock +5m", "c: 胡 清一色 自摸", "!clock +20s")  # 老王 recorded: his game too
    refused = TOOK_PART
    assert table.say("c: 退桌") == [refused]
    assert table.say("!clock +20s", "eve: 退桌") == [refused]  # the opener agreed by opening
    assert table.say("!clock +20s", "a: 退桌") == ["bot: 你不在这桌上，不用退桌。"]
    assert table.say("!clock +20s", "b: 退桌了吗") == []  # chat
    assert money(table)  # nothing changed
    out = table.say("!clock +20s", "boss: 退桌", "boss: !press 作废这桌")
    assert out[-1] == (
        "bot: 🚪 管理员 boss 作废了这桌（小红-成员 开的）：记下的 3 局都撤销了，钱已退回。"
        "（要恢复，boss 或管理员发「撤销」。）"
    )
    assert money(table) == {}


async def test_through_telegram_a_seated_victim_leaves_a_table_they_never_agreed_to(tg: Harness) -> None:
    await tg.say(B, "我在")
    await tg.say(C, "我也在")
    await tg.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    await tg.say(A, "胡 清一色 自摸")
    assert tg.balance(B["id"]) == -400
    await tg.say(B, "撤销")  # someone else's record: a question only the recorder or an admin may confirm
    assert "确认撤销" in " ".join(tg.telegram.texts()[-2:])
    await tg.say(B, "退桌")
    assert tg.last_text().startswith("🚪 小李 要退桌") and tg.balance(B["id"]) == -400  # 阿杰 won: asked
    await tg.say(A, "同意")
    assert any(text.startswith("🚪 小李 退桌：这桌是 阿杰 开的") for text in tg.telegram.texts()[-3:])
    assert [tg.balance(user["id"]) for user in (A, B, C)] == [0, 0, 0]
    assert tg.ledger.chat(TG_CHAT["id"]).table is None


def test_agreeing_asked_or_in_english_in_a_chinese_group_is_chat(table: Table) -> None:
    table.say("b: 退桌")
    assert table.say("eve: 同意吗", "!clock +10s", "eve: agree", "!clock +10s", "eve: 同意 明天再说") == []
    assert money(table) == BEFORE
    assert table.say("eve: /agree")[0].startswith("bot: 🚪 小李-成员 退桌") and money(table) == {}
