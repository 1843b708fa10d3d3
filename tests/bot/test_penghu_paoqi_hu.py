"""碰胡: a 跑起胡 after its player's 跑起 off the same discarder is held back, not booked on top of it.

A 跑起胡 is one event on one card: its 24 points already hold the 跑起's 12 (docs/games.md §5). 小李's `我跑起 阿杰的`
then `胡 点 @ajie 跑起` booked 12 + 24 = 36 from 阿杰 without a word. Now the 跑起胡 is held back with the double-entry
question, whoever recorded either and however long after: 改成 on the 跑起 makes it the 跑起胡 (24 in all); only
「确实又一次」 (a 跑起胡 on another card) books 36. Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_glued_lines9 import PENGHU
from tests.bot.test_recording_fixes import Table

SEATS = (*PENGHU, "xiaoli: 我碰 阿杰的", "!clock +30s")  # 底金 1元, the default
INCLUDED = "跑起胡的钱已经含了这次跑起（跑起胡 24 分里就有跑起的 12 分），没有记。"
FIX = (
    "是同一张牌：你 或管理员发「改成 @小李 胡 点 @阿杰 跑起」把那条跑起改成跑起胡；"
    "真是另一张牌跑起胡，点「确实又一次」。"
)


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*SEATS)
    yield opened
    opened.ledger.close()


def _paid(table: Table) -> int:
    """What 阿杰 has paid, in points (底金 1元: 100 分 a point)."""
    return -table.balances()["阿杰"] // 100


def test_a_paoqi_hu_after_the_paoqi_is_held_and_gai_cheng_makes_it_24(table: Table) -> None:
    table.say("xiaoli: 我跑起 阿杰的", "!clock +30s")
    assert _paid(table) == 3 + 12
    out = table.say("xiaoli: 胡 点 @ajie 跑起")
    assert out == [
        f"bot: 你 30秒前记的：第1局 小李 跑起，点 阿杰（一人出）。{INCLUDED}{FIX}",
        "bot: [按钮] 确实又一次 | 不用了",
    ]
    assert _paid(table) == 3 + 12
    table.say("xiaoli: 改成 @小李 胡 点 @阿杰 跑起", "xiaoli: !press 改成这样")
    assert _paid(table) == 3 + 24  # the 碰, and the 跑起胡 with its 跑起 in it
    assert table.hands() == 1


def test_only_que_shi_you_yi_ci_books_it_on_top(table: Table) -> None:
    table.say("xiaoli: 我跑起 阿杰的", "!clock +30s", "xiaoli: 胡 点 @ajie 跑起")
    table.say("xiaoli: !press 确实又一次")
    assert _paid(table) == 3 + 12 + 24


def test_someone_elses_paoqi_hu_much_later_is_held_too(db_url: str) -> None:
    """Another recorder, past every double-entry window: still that 跑起's card. Its recorder is named for 改成, and
    the fix line keeps the 中庄 told (小李 deals here: a non-dealer's 中庄 is refused as it is read)."""
    table = Table(db_url)
    dealt_by_xiaoli = "ajie: 开桌 @dapeng @laowang @xiaoli 庄 @xiaoli"
    table.say(*(dealt_by_xiaoli if line.startswith("ajie: 开桌") else line for line in SEATS))
    table.say("xiaoli: 我跑起 阿杰的", "!clock +10m")
    out = table.say("dapeng: @xiaoli 胡 点 @ajie 跑起 中庄")
    assert out[0].startswith("bot: 小李 ") and INCLUDED in out[0]
    assert "小李 或管理员发「改成 @小李 胡 点 @阿杰 跑起 中庄」" in out[0]
    assert _paid(table) == 3 + 12
    table.ledger.close()


def test_a_paoqi_not_the_latest_record_says_to_undo_back_to_it(table: Table) -> None:
    table.say("xiaoli: 我跑起 阿杰的", "!clock +5s", "laowang: 扫", "!clock +5s")
    out = table.say("xiaoli: 胡 点 @ajie 跑起")
    assert "改成 改不到它：「撤销」（一次撤最后一条）撤掉那条跑起和它后面记的" in out[0]
    assert _paid(table) == 3 + 12 + 2  # 老王's 扫: 2 from each


@pytest.mark.parametrize(
    "line",
    ["xiaoli: 胡 点 @dapeng 跑起", "xiaoli: 胡 点 @ajie"],  # another discarder; a plain 胡 (no 跑起 in it)
)
def test_another_discarder_or_a_plain_hu_is_booked(table: Table, line: str) -> None:
    table.say("xiaoli: 我碰 大鹏的", "xiaoli: 我跑起 阿杰的", "!clock +30s")
    assert table.say(line)[0].startswith("bot: 第1局 小李 胡")


def test_english_group_is_asked_in_english(table: Table) -> None:
    table.say("ajie: 设置 语言 en", "xiaoli: 我跑起 阿杰的", "!clock +30s")
    out = table.say("xiaoli: 胡 点 @ajie 跑起")
    assert "A 跑起胡 already includes that 跑起" in out[0]
    assert "“change to @小李 win from @阿杰 跑起”" in out[0]
    table.say("xiaoli: change to @小李 win from @阿杰 跑起", "xiaoli: !press Correct it")
    assert _paid(table) == 3 + 24
