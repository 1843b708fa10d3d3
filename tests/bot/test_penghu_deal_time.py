"""碰胡: a deal-time 扫/提蛇 (`扫 起手`, 连扫 at the deal) once a play is recorded is refused, saying why and what to
type: deal-time 扫 are laid on the table before the first discard ("起手扫牌必须放在桌上，一开始就必须放在桌上"), so
one told after a 碰 is a 扫 drawn in play (`扫`) or a slip. It was booked at the deal-time price and netting.
Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.bot.test_penghu_retold import Table, table

__all__ = ["table"]  # the fixture, as the retelling tests seat the table


@pytest.mark.parametrize("line", ["a: 扫 起手", "b: 提蛇 起手", "c: 阿四 扫 起手"])
def test_a_deal_time_play_after_play_began_is_refused(table: Table, line: str) -> None:
    table.say("b: 碰 点 老表", "!clock +2m")
    booked = table.balances()
    out = table.say(line)
    assert len(out) == 1, out
    assert out[0].startswith("bot: 没有记录：这一局已经开打了（记了 阿四 碰，点 老表（一人出））。")
    assert out[0].endswith("不写「起手」。")
    assert table.balances() == booked


def test_deal_time_plays_before_play_began_are_booked_and_chained(table: Table) -> None:
    """Deal-time 扫 and 提蛇 of several players, 连扫 too, before the first play: all booked; the first play after."""
    table.say("a: 扫 起手", "!clock +20s", "a: 扫 起手", "!clock +20s", "c: 提蛇 起手", "!clock +20s")
    assert table.say("b: 扫 起手")[0] == "bot: 第1局 记下：阿四 扫（起手）"
    table.say("!clock +20s")
    assert table.say("d: 碰 点 红姐")[0] == "bot: 第1局 记下：小刚 碰，点 红姐（一人出）"
    table.say("!clock +20s")
    assert table.say("d: 扫 起手")[0].startswith("bot: 没有记录：这一局已经开打了")
