"""统计's 未结 counts a payment its payer told as open until the payee's word, as 余额, 未结 and 谁还没付 do (`-4元
（4元待确认）`), in both languages: the group's line and a member's card say what 余额 says."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table

PAID = ("a: 开桌 @b @c 庄 @a", "a: 胡 七对 自摸", "!clock +3m", "a: 结算", "!clock +1m", "b: 付 @a 4", "!clock +20s")


def _owed(said: list[str], name: str) -> str:
    """What 余额's line for `name` says of 未结 (its last column)."""
    line = next(s for s in said if s.startswith(f"bot: {name}　"))
    return line.rsplit(" ｜ ", 1)[1]


@pytest.mark.parametrize(
    ("setup", "group_line", "card_line"),
    [
        (
            PAID,
            "bot: 未结（付款之后现在还差）：阿杰 +8元（4元待确认），小李 -4元（4元待确认），老王 -4元",
            "bot: 总输赢 -4元｜未结（付款之后现在还差）：-4元（4元待确认）",
        ),
        (
            (*PAID, "a: 设置 语言 en"),
            "bot: Owed now (未结): 阿杰 +8元 (4元 awaiting confirmation), 小李 -4元 (4元 awaiting confirmation), "
            "老王 -4元",
            "bot: All-time result (总输赢) -4元 | owed now (未结) -4元 (4元 awaiting confirmation)",
        ),
    ],
    ids=["zh", "en"],
)
def test_stats_owed_counts_a_payment_told_by_its_payer_as_open(
    sqlite_url: str, setup: tuple[str, ...], group_line: str, card_line: str
) -> None:
    table = Table(sqlite_url, *setup)
    try:
        assert group_line in table.say("b: 统计"), group_line
        assert card_line in table.say("!clock +20s", "b: 统计 @b")
        table.say("a: 设置 语言 zh", "!clock +20s")
        balance = table.say("b: 余额")
        assert _owed(balance, "小李") == "-4元（4元待确认）"
        assert _owed(balance, "阿杰") == "+8元（4元待确认）"
    finally:
        table.ledger.close()


def test_stats_owed_after_the_payee_confirms_is_settled(sqlite_url: str) -> None:
    """Once 阿杰 says 收到, the payment is paid: 小李 owes nothing and leaves the 未结 line."""
    table = Table(sqlite_url, *PAID, "a: 收到 @b", "!clock +20s")
    try:
        assert "bot: 未结（付款之后现在还差）：阿杰 +4元，老王 -4元" in table.say("b: 统计")
    finally:
        table.ledger.close()
