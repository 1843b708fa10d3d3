"""The payments post under 结算 nets two lines of its own between the same two people the other way, as 最少转账
does: 阿杰 lost 4元 to 小李 and 小李 was fined 4元 that the pot paid 阿杰 — nobody hands anyone anything, and the
post says so once (「阿杰 ⇄ 小李 4元（两人互欠，相抵，谁也不用付） ✓」), never 「阿杰 → 小李 4元（与反向的欠账相抵
4元） ✓」 and 「小李 → 阿杰 4元（经红包池转来）（与反向的欠账相抵 4元） ✓」 both. Unequal, the smaller line is left out
and the larger shows what was set against it."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table


def _post(said: list[str]) -> list[str]:
    start = next(i for i, line in enumerate(said) if line.startswith("bot: 付款"))
    return said[start:]


@pytest.mark.parametrize(
    ("fine", "expected", "buttons"),
    [
        (
            "4",
            ["bot: 阿杰 ⇄ 小李 4元（两人互欠，相抵，谁也不用付） ✓"],
            ["bot: [按钮] 老王→小李 已付 | 老王→小李 收到"],
        ),
        (
            "6",
            ["bot: 小李 → 阿杰 6元（经红包池转来）（与反向的欠账相抵 4元，还差 2元）"],
            ["bot: [按钮] 老王→小李 已付 | 老王→小李 收到", "bot: [按钮] 小李→阿杰 已付 | 小李→阿杰 收到"],
        ),
    ],
    ids=["equal", "unequal"],
)
def test_lines_each_way_are_netted_as_fewest_transfers_nets_them(
    sqlite_url: str, fine: str, expected: list[str], buttons: list[str]
) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "!clock +3m", "b: 胡 清一色 自摸", "!clock +1m")
    try:
        table.say(f"a: 罚款 @b {fine} 迟到", "!clock +10s", f"a: 发红包池 @a {fine}", "!clock +5m")
        post = _post(table.say("a: 结算"))
        between = [line for line in post if ("阿杰" in line and "小李" in line and "→" in line) or "⇄" in line]
        assert [line for line in between if not line.startswith("bot: [按钮]")] == expected, post
        assert [line for line in post if line.startswith("bot: [按钮]")] == buttons, post
    finally:
        table.ledger.close()
