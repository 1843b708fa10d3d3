"""A settlement square only thanks to a debt carried in from an earlier night (设置 并账, on by default) says so:
「无需转账，已两清。」 alone read as if the night itself came out even, and the earlier debt silently vanished."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table

#: night 1: 阿杰 (a) pays 小李 (b) 4元 he does not hand over; night 2: 小李 pays 阿杰 4元 back at the table
NIGHTS = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 点 @a", "a: 结算", "!clock +1d", "a: 开桌 @a @b @c 庄 @a")


@pytest.mark.parametrize(
    ("language", "square"),
    [
        ("zh", "bot: 无需转账：之前没结的账（阿杰 欠 小李 4元）并入后和今晚的输赢相抵，已两清。"),
        (
            "en",
            "bot: Nothing to pay: the earlier debts netted in (阿杰 owed 小李 4元) cancel tonight's results, so "
            "everyone is square.",
        ),
    ],
)
def test_a_night_square_by_a_carried_debt_says_the_debt_did_it(sqlite_url: str, language: str, square: str) -> None:
    table = Table(sqlite_url, f"a: 设置 语言 {language}", *NIGHTS, "a: 胡 清一色 点 @b")
    try:
        posted = table.say("a: 结算")
        assert square in posted, posted
        assert table.ledger.debts(table.chat) == []  # square indeed
    finally:
        table.ledger.close()


def test_a_night_square_on_its_own_says_only_that(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "a: 荒庄")  # a hand played, nobody's money moved
    try:
        assert "bot: 无需转账，已两清。" in table.say("a: 结算")
    finally:
        table.ledger.close()
