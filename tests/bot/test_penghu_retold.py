"""碰胡: a play told twice is booked once.

Someone else's line repeating a 碰胡 play (碰, 扫, 过扫, 跑起, 提蛇) of the open hand within the group's double-entry
window — the same player and kind, for 碰/跑起 the same discarder — is held back with the double-entry question
whatever was recorded in between (another player's 扫), as a kong is (`_repeated_play`): it was booked twice when
a record came between. A 报警 can be called once, so one told again later is refused by the rules, not asked about.
Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.booking import PENGHU_RESEND
from tests.bot.test_recording_fixes import Table

SEATS = (
    "!admin boss",
    "!join a 红姐",
    "!join b 阿四",
    "!join c 老表",
    "!join d 小刚",
    "boss: 设置 游戏 碰胡",
    "a: 开桌 @a @b @c @d 庄 @a",
    "!clock +3m",
)
QUESTION = "这条和它一样，像是重复了，没有再记。要是真的又来了一次，点「确实又一次」。"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*SEATS)
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize(
    ("first", "again", "told"),
    [
        ("b: 碰 点 老表", "c: 阿四 碰 点 老表", "阿四 碰，点 老表（一人出）"),
        ("b: 扫", "a: 阿四 扫", "阿四 扫"),
        ("b: 过扫", "c: @b 过扫", "阿四 过扫"),
        ("b: 提蛇", "d: 阿四 提蛇", "阿四 提蛇"),
    ],
)
def test_someone_elses_retelling_with_a_record_between_is_held_back(
    table: Table, first: str, again: str, told: str
) -> None:
    """小刚's 扫 came between 阿四's play and 老表's retelling of it: the retelling was booked a second time."""
    table.say(first, "!clock +5s", "d: 扫", "!clock +5s")
    booked = table.balances()
    out = table.say(again)
    assert out == [f"bot: 阿四 10秒前记的：第1局 {told}。{QUESTION}", "bot: [按钮] 确实又一次 | 不用了"]
    assert table.balances() == booked
    # 「确实又一次」 books a real second one: the record it repeats is not the latest, and that does not expire it
    assert table.say(f"{again.split(':')[0]}: !press 确实又一次")[:2] == [
        "bot: [提示] 记好了",
        f"bot: 第1局 记下：{told}",
    ]
    assert table.balances() != booked


def test_a_retelling_past_the_window_or_another_discarder_is_booked(table: Table) -> None:
    table.say("b: 碰 点 老表", "!clock +5s", "d: 扫", "!clock +5s")
    assert table.say("c: 阿四 碰 点 红姐")[0] == "bot: 第1局 记下：阿四 碰，点 红姐（一人出）"  # another discard
    table.say("!clock +91s")
    assert table.say("c: 阿四 碰 点 老表")[0] == "bot: 第1局 记下：阿四 碰，点 老表（一人出）"


def test_the_senders_own_play_again_with_a_record_between(table: Table) -> None:
    """Sent twice at once (a double tap) it is asked about, whatever came between; a while later it is a second one
    (a player may 碰 the same discarder twice)."""
    table.say("b: 碰 点 老表", "!clock +2s", "d: 扫", "!clock +2s")
    assert table.say("b: 碰 点 老表")[0] == f"bot: 你 4秒前记的：第1局 阿四 碰，点 老表（一人出）。{QUESTION}"
    table.say("b: 不用了", f"!clock +{int(PENGHU_RESEND.total_seconds())}s")
    assert table.say("b: 碰 点 老表")[0] == "bot: 第1局 记下：阿四 碰，点 老表（一人出）"


def test_someone_elses_deal_time_sao_told_again_after_another_is_held_back(table: Table) -> None:
    """Two 扫 起手 of one player are 连扫 (4 each); 红姐's one told again by 阿四 after 阿四's own is not."""
    table.say("a: 扫 起手", "!clock +3s", "b: 扫 起手", "!clock +3s")
    out = table.say("b: 红姐 扫 起手")
    assert out[0] == f"bot: 红姐 6秒前记的：第1局 红姐 扫（起手）。{QUESTION}"
    table.say("b: 不用了", "!clock +3s")
    assert table.say("a: 扫 起手")[0] == "bot: 第1局 记下：红姐 扫（起手）"  # 红姐's own: 连扫二次


def test_a_baojing_told_again_later_is_refused_by_the_rules(table: Table) -> None:
    """报警 is called once a hand: told again after another record it is no second one to ask about."""
    table.say("b: 碰 点 老表", "b: 碰 点 红姐", "!clock +20s", "b: 碰 点 小刚", "b: 扫", "!clock +20s", "b: 报警")
    table.say("!clock +5s", "d: 扫", "!clock +5s")
    booked = table.balances()
    assert table.say("c: 报警 @b") == ["bot: 没有记录：阿四 已经报过警了"]
    assert table.balances() == booked
