"""`付 8` (an amount, nobody named): the one person the sender owes is paid, as `已转 8` pays them, and the reply
names them; owing several people the reply lists whom and how to write it with the amount, nothing booked; owing
nobody it says so. Never the bare usage line. The pot or the house owed besides is nobody to pay (payouts do)."""

from __future__ import annotations

from tests.bot.test_player_first import Table

#: 阿杰 (a) wins 4元 off 小李 (b) and 老王 (c): both owe 阿杰 alone
ONE = ("a: 开桌 @a @b @c 庄 @a", "a: 胡 清一色 自摸", "!clock +3m", "a: 结算", "!clock +1m")
#: then 老王 wins too: 小李 owes 阿杰 and 老王
TWO = ("a: 开桌 @a @b @c 庄 @a", "a: 胡 清一色 自摸", "!clock +6m", "c: 胡 清一色 自摸", "!clock +3m", "a: 结算")


def test_an_amount_alone_pays_the_one_person_owed(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ONE)
    try:
        said = table.say("b: 付 3")
        assert said[:2] == [
            "bot: 记下付款：小李 → 阿杰 3元（小李 说已付，等 阿杰 点「收到」确认）",
            "bot: 小李 还欠 阿杰 1元",
        ]
        table.say("!clock +20s")
        assert table.say("c: 付 1 块")[0].startswith("bot: 记下付款：老王 → 阿杰 1元")
        table.say("!clock +20s")
        assert table.say("c: 付 8") == ["bot: 老王 只欠 阿杰 3元，没有记。付清写 已转 @a。"]
    finally:
        table.ledger.close()


def test_an_amount_alone_owing_several_asks_whom(sqlite_url: str) -> None:
    table = Table(sqlite_url, *TWO)
    try:
        owed = table.ledger.debts(table.chat)
        said = table.say("!clock +1m", "b: 付 4")
        assert said == [
            "bot: 没有记账：你欠的不止一个人，要写明付给谁。小李 欠 老王 4元、小李 欠 阿杰 4元。这样写：付 @c 4元。"
        ], said
        assert table.say("!clock +20s", "a: 付 4") == [
            "bot: 你现在没有要付的账，没有记。发「谁还没付」看还没付清的每一笔。"
        ]
        assert table.ledger.debts(table.chat) == owed  # nothing booked
    finally:
        table.ledger.close()


def test_an_amount_alone_pays_the_one_person_owed_beside_the_pot(sqlite_url: str) -> None:
    """小李 owes 阿杰 a win and 红包池 a fine: `付 3` is 阿杰's (the pot waits for 发红包池), not 「不止一个人」."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "a: 胡 清一色 自摸", "!clock +3m", "a: 罚款 @b 5 迟到")
    try:
        table.say("a: 结算", "!clock +1m")
        assert table.say("b: 付 3")[:2] == [
            "bot: 记下付款：小李 → 阿杰 3元（小李 说已付，等 阿杰 点「收到」确认）",
            "bot: 小李 还欠 阿杰 1元",
        ]
        assert _owed_pot(table) == 500  # the fine is still owed, to the pot
    finally:
        table.ledger.close()


def _owed_pot(table: Table) -> int:
    return sum(d.amount for d in table.ledger.debts(table.chat) if d.debtor == "小李" and d.creditor == "红包池")
