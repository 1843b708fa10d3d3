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
            "bot: 阿杰 说已付 4元、小李 说已付 4元，都在等你确认。没写收到谁的，没有记：收到谁的就写 收到 @a、收到 @b，"
            "或点付款帖里那一笔的「收到」。"
        ]
        table.say("c: 收到 @a")
        assert table.say("c: 都收到了")[0] == "bot: 已确认：小李 → 老王 4元 ✓（双方都说了，只记一笔）"
        assert table.say("c: 都收到了") == []  # nothing waits any more: chat
    finally:
        table.ledger.close()


def test_the_amount_first_in_chinese_numerals_reads_as_in_digits(table: Table) -> None:
    assert table.say("a: 余下五五块已转 @c") == ["bot: 「五五块」不是金额：请用数字写，如 5、2.5。"]
    assert table.say("a: 余下三块已转 @c")[0] == "bot: 记下付款：阿杰 → 老王 3元（阿杰 说已付，等 老王 点「收到」确认）"
    assert _owed(table, "阿杰", "老王") == 100
    assert (
        table.say("a: @c 剩下的1块也转了")[0] == "bot: 记下付款：阿杰 → 老王 1元（阿杰 说已付，等 老王 点「收到」确认）"
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


def test_a_payment_with_someone_owed_nothing_is_said_so_from_the_senders_side(table: Table, english: Table) -> None:
    """`@c 1块已转` from b, who owes 老王 nothing, once went unanswered (a line not starting with its payment word
    is silent when refused): it is a payment however it starts, so the reply says so, with what the sender does
    owe or is owed; nothing is booked."""
    assert table.say("b: @c 1块已转", "b: @c 已转 2", "c: 收到 @b 4", "b: @c 收到 4") == [
        "bot: 你现在不欠 老王 钱，没有记。你没有要付的账。",
        "bot: 你现在不欠 老王 钱，没有记。你没有要付的账。",
        "bot: 小李 现在不欠你钱，没有记。还欠你的：阿杰 4元。",
        "bot: 老王 现在不欠你钱，没有记。还欠你的：阿杰 4元。",
    ]
    table.say("!join e 小王")
    assert table.say("e: 收到 @a 4") == ["bot: 阿杰 现在不欠你钱，没有记。没有人欠你钱。"]
    assert table.say("c: @b 1块已转") == ["bot: 你现在不欠 小李 钱，没有记。你没有要付的账。"]
    table.say("a: 付 @b 4")  # paid up: 阿杰 owes 老王 alone
    assert table.say("a: @b 1块已转") == ["bot: 你现在不欠 小李 钱，没有记。你还欠：老王 4元。"]
    assert table.say("a: @c 10块已转") == ["bot: 阿杰 只欠 老王 4元，没有记。付清写 已转 @c。"]
    assert table.say("b: @c 收到", "b: 转给 @c") == []  # an acknowledgement, a forward: chat
    assert _owed(table, "阿杰", "老王") == 400 and _owed(table, "阿杰", "小李") == 0
    assert english.say("b: @c 1块已转") == ["bot: You owe 老王 nothing now; nothing booked. You owe nobody."]
    assert english.say("c: 收到 @b 4") == ["bot: 小李 owes you nothing now; nothing booked. Still owing you: 阿杰 4元."]


def test_转给_that_missed_a_debt_is_answered_as_付_is(table: Table, english: Table) -> None:
    """`转给 @c 10块了` and `转给 @b 4块了` (to someone the sender owes nothing while owing others: WeChat money sent
    to the wrong person) went unanswered, 转给 being also how things are forwarded: they are answered as `付 @c 10`
    is; and so is it from someone who owes nobody (`转给 @c 4`, `转给 @c 4块`: once chat), as `@c 1块已转` is.
    Only `转给 @c` with no amount may be a forward: chat. Nothing is booked."""
    assert table.say("a: 转给 @c 10块了") == ["bot: 阿杰 只欠 老王 4元，没有记。付清写 已转 @c。"]
    owe_nobody = ["bot: 你现在不欠 老王 钱，没有记。你没有要付的账。"]
    assert table.say("b: 转给 @c 4块了") == table.say("b: 转给 @c 4") == table.say("b: 转给 @c 4块") == owe_nobody
    assert table.say("b: @c 1块已转") == owe_nobody
    table.say("!clock +10s")  # 小李's sixth refused line within 10 s would be a flood
    assert table.say("b: 转给 @c", "b: 转给 @c 看看") == []
    table.say("a: 付 @b 4")  # now 阿杰 owes 老王 alone
    assert table.say("a: 转给 @b 4块了") == ["bot: 你现在不欠 小李 钱，没有记。你还欠：老王 4元。"]
    assert _owed(table, "阿杰", "老王") == 400 and _owed(table, "阿杰", "小李") == 0
    assert english.say("a: 转给 @c 10块了") == ["bot: 阿杰 owes 老王 only 4元; nothing booked. To pay it all: paid @c."]
    assert english.say("b: 转给 @c 4") == ["bot: You owe 老王 nothing now; nothing booked. You owe nobody."]


def test_a_payment_before_any_settlement_says_tonight_is_not_settled(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸")
    try:
        assert table.say("a: @c 1块已转", "a: 转给 @c 4", "c: 收到 @a 4") == [
            "bot: 你现在不欠 老王 钱，没有记。今晚（2026-01-10）还没结算（老王 +8元，阿杰 -4元，小李 -4元）："
            "打完发 结算 算出谁给谁多少。",
            "bot: 你现在不欠 老王 钱，没有记。今晚（2026-01-10）还没结算（老王 +8元，阿杰 -4元，小李 -4元）："
            "打完发 结算 算出谁给谁多少。",
            "bot: 阿杰 现在不欠你钱，没有记。今晚（2026-01-10）还没结算（老王 +8元，阿杰 -4元，小李 -4元）："
            "打完发 结算 算出谁给谁多少。",
        ]
        assert table.ledger.debts(table.chat) == []
    finally:
        table.ledger.close()


def test_paid_to_you_with_a_plain_name_after_it_reads_the_name_as_every_payment_does(sqlite_url: str) -> None:
    """`转你了 小李` (as `转了 小李`): a player of the settlement's lines by the name its post lists (here one who is
    owed nothing), any other member's label with nothing open with the sender answered so at once (nothing moves),
    a guest's name is the guest; other words after it stay chat."""
    table = Table(sqlite_url, "a: 开桌 @a @b 老表 庄 @a", "a: 老表 胡了 清一色 自摸", "a: 结算")
    try:
        owed_nothing = "bot: 你现在不欠 小李 钱，没有记。你还欠：老表 4元。"
        assert table.say("a: 转你了 小李") == table.say("a: 转了 小李") == [owed_nothing]
        assert table.say("a: 转你了 老王") == ["bot: 你现在不欠 老王 钱，没有记。你还欠：老表 4元。"]
        assert table.say("a: 转你了 哈哈", "a: 转你了 8", "a: 转你了 老表吗") == []
        assert _owed(table, "阿杰", "老表") == 400
        assert table.say("a: 转你了 老表")[0] == (  # a guest cannot confirm: it stands on 阿杰's word
            "bot: 记下付款：阿杰 → 老表 4元（老表 没有群账号，确认不了：按 阿杰 说的算；记错了 阿杰 发 撤销付款）"
        )
        assert _owed(table, "阿杰", "老表") == 0 and _owed(table, "小李", "老表") == 400
    finally:
        table.ledger.close()


def _waiting(table: Table) -> list[str | None]:
    """Whose word each line of the latest settlement waits for (已付: the payee's 收到 is awaited)."""
    settlement = table.ledger.latest_settlement(table.chat)
    assert settlement is not None and settlement.id is not None
    return [state.waiting for state in table.ledger.payment_lines(table.chat, settlement.id) or []]


def test_received_naming_nobody_confirms_the_one_payment_told_to_the_sender(sqlite_url: str) -> None:
    for line in ("c: 收到", "c: 收到了", "c: 收到 收到"):
        table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算")
        try:
            assert table.say(line) == [  # nothing waits for 老王's word, still owed: said so, nothing booked
                "bot: 没有等你确认的付款（还没有人说已付给你）。还欠你的：小李 4元、阿杰 4元。"
                "收到了谁的钱就写：收到 @b 4元"
            ]
            table.say("a: 付 @c 4")
            assert table.say("b: 收到", "a: 收到") == []  # told to 老王: nobody else confirms it
            assert _waiting(table) == ["已付", None]
            assert table.say(line)[0] == "bot: 已确认：阿杰 → 老王 4元 ✓（双方都说了，只记一笔）", line
            assert _waiting(table) == [None, None]
            table.say("b: 已转 @c")
            assert table.say(line)[0] == "bot: 已确认：小李 → 老王 4元 ✓（双方都说了，只记一笔）", line
        finally:
            table.ledger.close()


def test_received_naming_nobody_with_several_payers_waiting_lists_them(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算", "a: 付 @c 4", "b: 已转 @c")
    try:
        assert table.say("c: 收到") == [
            "bot: 阿杰 说已付 4元、小李 说已付 4元，都在等你确认。没写收到谁的，没有记：收到谁的就写 收到 @a、收到 @b，"
            "或点付款帖里那一笔的「收到」。"
        ]
        assert _waiting(table) == ["已付", "已付"]
    finally:
        table.ledger.close()


def test_received_with_thanks_from_a_payee_with_several_waiting_lists_each_then_confirms_the_one_left(
    sqlite_url: str,
) -> None:
    """`收到，谢谢` with two payers waiting names each with what they told and the line that confirms each; once
    one is confirmed, a bare `收到` (and `收到，谢谢`) confirms the one left."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算", "a: 付 @c 3", "b: 已转 @c")
    try:
        assert table.say("c: 收到，谢谢") == [
            "bot: 阿杰 说已付 3元、小李 说已付 4元，都在等你确认。没写收到谁的，没有记：收到谁的就写 收到 @a、收到 @b，"
            "或点付款帖里那一笔的「收到」。"
        ]
        assert _waiting(table) == ["已付", "已付"]
        table.say("!clock +20s", "c: 收到 @b", "!clock +20s")
        assert table.say("c: 收到，谢谢")[0] == "bot: 已确认：阿杰 → 老王 3元 ✓（双方都说了，只记一笔）"
        assert _waiting(table) == [None, None]
        assert table.say("!clock +20s", "c: 收到") == [  # nothing waits any more; 阿杰 still owes 1元
            "bot: 没有等你确认的付款（还没有人说已付给你）。还欠你的：阿杰 1元。收到了谁的钱就写：收到 @a 1元"
        ]
    finally:
        table.ledger.close()


def test_a_player_of_the_settlement_is_named_without_the_at(table: Table) -> None:
    """阿杰 owes 小李 and 老王 4元 each: their names as the 结算 post lists them name them in a payment."""
    booked = "bot: 记下付款：阿杰 → 老王 1元（阿杰 说已付，等 老王 点「收到」确认）"
    for line in ("a: 付 老王 1", "a: 付老王1", "a: 已转老王1块", "a: 转了1块给老王"):
        assert table.say(line)[0] == booked, line
        table.say("!clock +2m")  # past the repeat window
    assert table.say("c: 收到阿杰的了")[0] == "bot: 已确认：阿杰 → 老王 4 笔共 4元 ✓（双方都说了，每笔只记一次）"
    assert table.say("b: 收到 阿杰 1块")[0] == "bot: 记下付款：阿杰 → 小李 1元（小李 说收到，等 阿杰 点「已付」确认）"
    assert _owed(table, "阿杰", "老王") == 0 and _owed(table, "阿杰", "小李") == 300


def test_a_members_name_off_the_settlement_owing_nothing_says_so_at_once(sqlite_url: str) -> None:
    """A member off the settlement with nothing open with the sender: what stands, not a retype that books nothing."""
    table = Table(sqlite_url, *OWES_TWO)
    try:
        assert table.say("a: 付 小张 1") == ["bot: 你现在不欠 小张 钱，没有记。你还欠：小李 4元、老王 4元。"]
        assert table.say("a: 付小张1", "a: 转了1块给小张", "a: 收到小张的了") == []  # glued: chat
        assert _owed(table, "阿杰", "老王") == _owed(table, "阿杰", "小李") == 400
    finally:
        table.ledger.close()


def test_the_pot_is_never_suggested_nor_paid_by_a_typed_payment(sqlite_url: str) -> None:
    """小李 owes 红包池 a fine and 老王 a win: 已转 alone pays 老王, the one person owed (the pot is paid by its
    payout, nobody's choice), and the pot's line is refused with what settles it."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "c: 胡 七对 点 @b", "a: 罚款 @b 5 迟到", "a: 结算")
    refused = (
        "bot: 没有记：欠红包池、台费的钱不直接付给它们；等管理员 发红包池 / 付台费 给谁，就改付给谁（付款帖会写）。"
    )
    try:
        assert table.say("b: 已转 红包池", "b: 付 红包池 1", "b: 付 台费 1") == [refused] * 3
        assert table.say("b: 已转")[0] == "bot: 记下付款：小李 → 老王 4元（小李 说已付，等 老王 点「收到」确认）"
        assert table.say("b: 已转") == [refused]
        assert _owed(table, "小李", "红包池") == 500
    finally:
        table.ledger.close()


def test_a_payment_waiting_for_the_other_side_is_square_once_confirmed(table: Table, english: Table) -> None:
    assert table.say("a: 已转 @c")[:2] == [
        "bot: 记下付款：阿杰 → 老王 4元（阿杰 说已付，等 老王 点「收到」确认）",
        "bot: 等 老王 确认后，阿杰 和 老王 就两清了",
    ]
    assert table.say("c: 收到 @a")[:2] == [
        "bot: 已确认：阿杰 → 老王 4元 ✓（双方都说了，只记一笔）",
        "bot: 阿杰 和 老王 两清了",
    ]
    assert table.say("b: 收到 @a 4")[:2] == [
        "bot: 记下付款：阿杰 → 小李 4元（小李 说收到，等 阿杰 点「已付」确认）",
        "bot: 等 阿杰 确认后，阿杰 和 小李 就两清了",
    ]
    assert english.say("a: paid @c")[1] == "bot: 阿杰 and 老王 are square once 老王 confirms"
