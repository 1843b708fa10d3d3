"""Payments and money questions as players typed them in a play-test after 结算 that the bot once ignored or
misread (the corpus, tests/bot/corpus.txt, holds the lines themselves): these tests hold what it cannot say — the
replies in full, English, what a held-back repeat quotes, and that what is refused or chat books nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_player_first import Table

#: 老王 and 小李 each win on 阿杰's discard: 阿杰 owes 小李 4元 and 老王 4元
OWES_TWO = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 七对 点 @a", "!clock +3m", "c: 胡 七对 点 @a", "a: 结算")


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, *OWES_TWO)
    yield opened
    opened.ledger.close()


@pytest.fixture
def english(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "!admin a", "a: 设置 语言 en", *OWES_TWO)
    yield opened
    opened.ledger.close()


def _owed(table: Table, debtor: str, creditor: str) -> int:
    return sum(d.amount for d in table.ledger.debts(table.chat) if (d.debtor, d.creditor) == (debtor, creditor))


def test_a_repeat_is_held_back_quoting_the_payment_booked_not_the_new_line(table: Table) -> None:
    table.say("a: 付 @c 1💰")
    assert table.say("a: 已转 @c 1块 👌") == [
        "bot: 刚才（0 秒前）已经记过一笔 阿杰 → 老王 1元。这条（已转 @c 1块 👌）是同样的一笔，像是发了两次，没有再记。"
        "真的是另一笔，点「再记一笔」。",
        "bot: [按钮] 再记一笔 | 不用了",
    ]
    assert _owed(table, "阿杰", "老王") == 300


def test_paid_alone_owing_several_names_them_and_books_nothing(table: Table, english: Table) -> None:
    for line in ("a: 已转", "a: 转完了", "a: 已付清"):
        assert table.say(line) == [
            "bot: 没有记账：要写明付给谁。阿杰 欠 小李 4元、阿杰 欠 老王 4元。"
            "这样写：已转 @b（付清这一笔），或 付 @b 金额。"
        ], line
    assert table.say("b: 已转") == ["bot: 你现在没有要付的账，没有记。发「谁还没付」看还没付清的每一笔。"]
    assert english.say("a: 已转") == [
        "bot: Not booked: say whom you paid. 阿杰 owes 小李 4元; 阿杰 owes 老王 4元. Write: paid @b (all of it), or "
        "paid @b AMOUNT."
    ]
    assert _owed(table, "阿杰", "小李") == _owed(table, "阿杰", "老王") == 400
    table.say("a: 付 @b 4")  # now 阿杰 owes 老王 alone: 已转 is to him
    assert table.say("a: 已转")[0] == "bot: 记下付款：阿杰 → 老王 4元（阿杰 说已付，等 老王 点「收到」确认）"
    assert _owed(table, "阿杰", "老王") == 0


def test_a_红包_to_someone_owed_nothing_is_a_gift_and_red_packet_words_alone_are_chat(table: Table) -> None:
    assert table.say("b: 红包发了 @c", "b: 发了个红包给 @a", "a: 红包发了", "a: 转你了") == []
    assert table.ledger.debts(table.chat) and _owed(table, "阿杰", "小李") == 400
    assert (
        table.say("a: @b 红包发你了 2块")[0] == "bot: 记下付款：阿杰 → 小李 2元（阿杰 说已付，等 小李 点「收到」确认）"
    )


def test_all_received_confirms_one_payer_and_lists_several(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算", "a: 付 @c 4", "b: 已转 @c")
    try:
        assert table.say("c: 都收到了") == [
            "bot: @a、@b 都说已付，在等你确认；没有记。请一笔一笔确认：点「收到」，或写 收到 @a。"
        ]
        table.say("c: 收到 @a")
        assert table.say("c: 都收到了")[0] == "bot: 已确认：小李 → 老王 4元 ✓（双方都说了，只记一笔）"
        assert table.say("c: 都收到了") == []  # nothing waits any more: chat
    finally:
        table.ledger.close()


def test_the_amount_first_in_chinese_numerals_is_refused_with_how_to_write_it(table: Table) -> None:
    assert table.say("a: 余下三块已转 @c", "a: @c 付了五块", "a: 付 @c 一元") == [
        "bot: 「三块」不是金额：请用数字写，如 5、2.5。",
        "bot: 「五块」不是金额：请用数字写，如 5、2.5。",
        "bot: 「一元」不是金额：请用数字写，如 5、2.5。",
    ]
    assert _owed(table, "阿杰", "老王") == 400
    assert table.say("a: @c 1块已转")[0] == "bot: 记下付款：阿杰 → 老王 1元（阿杰 说已付，等 老王 点「收到」确认）"
    assert (
        table.say("a: @c 剩下的3块也转了")[0] == "bot: 记下付款：阿杰 → 老王 3元（阿杰 说已付，等 老王 点「收到」确认）"
    )
    assert _owed(table, "阿杰", "老王") == 0


def test_what_one_owes_one_person_is_asked_by_their_name(table: Table, english: Table) -> None:
    assert table.say("a: 我欠小李多少") == [
        "bot: 余额（本晚 ｜ 总输赢 ｜ 未结）：",
        "bot: 阿杰　-8元 ｜ -8元 ｜ -8元",
        "bot: 还没付清：阿杰 欠 小李 4元",
    ]
    assert table.say("b: 老王欠我多少") == [
        "bot: 余额（本晚 ｜ 总输赢 ｜ 未结）：",
        "bot: 小李　+4元 ｜ +4元 ｜ +4元",
        "bot: 你和 老王 之间没有没付清的账。",
    ]
    assert english.say("b: 老王欠我多少")[-1].endswith("Nothing is open between you and 老王.")
    assert table.say("a: 我欠王哥多少") == []  # nobody of that name: chat


def test_english_money_words(english: Table) -> None:
    assert english.say("a: how much did I lose")[0].startswith("bot: Balances (tonight")
    assert (
        english.say("a: sent @b")[0]
        == "bot: Payment booked: 阿杰 → 小李 4元 (阿杰 says paid; 小李 confirms with “received”)"
    )
    assert english.say("b: got it @a thx")[0] == "bot: Confirmed: 阿杰 → 小李 4元 ✓ (both sides said so; booked once)"
