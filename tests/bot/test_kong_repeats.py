"""A kong told twice is booked once. Someone else's line repeating a kong recorded in the open hand within the
group's double-entry window (the same player, kind and discarder; a tile on one side only, or the same tile) is held
back with the double-entry question — whichever record came in between (a 亮倒, another player's kong). The same
kong from its own sender again within `KONG_RESEND` (a double send on a bad network, a double tap) is asked about
too; later it is booked, as one player may well make two concealed kongs in a hand. Through the console, on SQLite
and PostgreSQL."""

from __future__ import annotations

import pytest

from ledger.booking import EXACT_RETELLING, KONG_RESEND
from tests.bot.test_claims import table
from tests.bot.test_recording_fixes import Table

__all__ = ["table"]  # the fixture, as the claims tests seat the table

QUESTION = "这条和它一样，像是重复了，没有再记。要是真的又来了一次，点「确实又一次」。"


def kongs(table: Table) -> int:
    """How many live kongs the open hand holds (each pays its 2元 to each other player: 阿杰's 暗杠 moves 4元)."""
    return table.balances()["小李"] // 400


@pytest.mark.parametrize("again", ["暗杠", "我暗杠了", "暗杠了"])
def test_a_bare_concealed_kong_sent_twice_by_its_sender_is_asked_not_booked(table: Table, again: str) -> None:
    table.say("b: 暗杠", "!clock +2s")
    booked = table.balances()
    out = table.say(f"b: {again}")
    assert out == [f"bot: 你 刚刚记的：第1局 小李 暗杠。{QUESTION}", "bot: [按钮] 确实又一次 | 不用了"]
    assert table.balances() == booked
    assert table.say("b: !press 确实又一次")[:2] == ["bot: [提示] 记好了", "bot: 第1局 记下：小李 暗杠"]
    assert kongs(table) == 2


def test_the_same_kong_from_its_sender_after_the_resend_interval_is_a_second_kong(table: Table) -> None:
    """Two concealed kongs of one player in a hand are real: the second, told a while later, is booked."""
    table.say("b: 暗杠", f"!clock +{int(KONG_RESEND.total_seconds()) + 1}s")
    assert table.say("b: 暗杠")[0] == "bot: 第1局 记下：小李 暗杠" and kongs(table) == 2


def test_a_tile_on_one_side_is_the_same_kong_and_other_tiles_are_other_kongs(table: Table) -> None:
    table.say("b: 暗杠", "!clock +3s")
    assert table.say("b: 暗杠 3s")[0] == f"bot: 你 3秒前记的：第1局 小李 暗杠。{QUESTION}"
    table.say("b: 不用了")
    table.say("c: 暗杠 5p", "!clock +1s")
    assert table.say("c: 暗杠 3s")[0] == "bot: 第1局 记下：老王 暗杠 三条"  # two tiles: two kongs


def test_someone_elses_repeat_of_an_earlier_kong_in_the_hand_is_held_back(table: Table) -> None:
    """The kong repeated need not be the latest record: 老王's kong and 小李's 亮倒 came in between."""
    table.say("a: 暗杠", "!clock +3s", "c: 暗杠", "!clock +3s", "b: 亮倒", "!clock +3s")
    booked = table.balances()
    out = table.say("b: 杠 @a 暗")
    assert out == [f"bot: 阿杰 9秒前记的：第1局 阿杰 暗杠。{QUESTION}", "bot: [按钮] 确实又一次 | 不用了"]
    assert table.balances() == booked
    # 「确实又一次」 means again: the record it repeats is not the latest, and that is no reason to expire it
    assert table.say("b: !press 确实又一次")[:2] == ["bot: [提示] 记好了", "bot: 第1局 记下：阿杰 暗杠"]
    assert table.balances()["阿杰"] == booked["阿杰"] + 400


def test_someone_elses_repeat_past_the_window_or_with_the_check_off_is_booked(table: Table) -> None:
    """With no tile to tell the two apart someone else's telling is held back for `EXACT_RETELLING` windows."""
    table.say("a: 暗杠", "!clock +3s", "c: 暗杠", f"!clock +{90 * EXACT_RETELLING + 1}s")
    assert table.say("b: 杠 @a 暗")[0] == "bot: 第1局 记下：阿杰 暗杠"
    table.say("boss: 设置 重复间隔 0", "b: 暗杠")
    assert table.say("b: 暗杠")[0] == "bot: 第1局 记下：小李 暗杠"


def test_the_kong_buttons_confirming_an_earlier_kong_again_are_held_back(table: Table) -> None:
    table.say("a: 暗杠", "!clock +3s", "c: 亮倒", "!clock +3s")
    table.say("b: 杠", "b: !press 阿杰", "b: !press 暗杠")
    out = table.say("b: !press 确认")
    assert out == [f"bot: 阿杰 6秒前记的：第1局 阿杰 暗杠。{QUESTION}", "bot: [按钮] 确实又一次 | 取消"]
