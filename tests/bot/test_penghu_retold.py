"""碰胡: a play told twice is booked once.

Someone else's line repeating a 碰胡 play (碰, 扫, 过扫, 跑起, 提蛇) of the open hand within the group's double-entry
window — the same player and kind, for 碰/跑起 the same discarder — is held back with the double-entry question
whatever was recorded in between (another player's 扫), as a kong is (`_repeated_play`): it was booked twice when
a record came between. A 报警 can be called once, so one told again later is refused by the rules, not asked about.
Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.booking import PENGHU_RESEND, QISHOU_SAO_RESEND
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
    assert table.say("c: 报警 @b") == [
        "bot: 没有记录：阿四 已经报过警了（一局报一次）。第五次碰/扫记：阿四 五福 摸 或 阿四 五福 点 @丙"
    ]
    assert table.balances() == booked


# ------------------------------------------------------------------------ another ending, and 起手提蛇 sent twice

OTHER_END = (
    "这条和它不一样，多半说的是同一局，没有记。那条记错了，阿四 或管理员发「改成 …」改；"
    "真是新的一局，点「是新的一局」。"
)


def test_another_ending_right_after_a_hand_ended_is_that_hand_told_otherwise(table: Table) -> None:
    """Play-test: 阿四's 自摸, then 老表's 胡 on 阿四's discard 20 s later and 小刚's 荒庄 20 s after that, were booked
    as 第2局 and 第3局: a 碰胡 hand takes minutes, as a 卡五星 one does. Each is held back, asked as one hand told
    two ways; 「是新的一局」 books it."""
    table.say("b: 碰 点 老表", "!clock +3m", "b: 胡 自摸", "!clock +20s")
    booked = table.balances()
    assert table.say("c: 胡 点 @b") == [
        f"bot: 阿四 20秒前记的：第1局 阿四 胡（每人出）。{OTHER_END}",
        "bot: [按钮] 是新的一局 | 不用了",
    ]
    table.say("!clock +20s")
    assert table.say("d: 荒庄")[0] == f"bot: 阿四 40秒前记的：第1局 阿四 胡（每人出）。{OTHER_END}"
    assert table.balances() == booked and table.hands() == 1
    out = table.say("c: 是新的一局")  # 老表's own answer to his question (「是新的一局」 typed)
    assert out[0] == "bot: 第2局 老表 胡，点 阿四（一人出）" and out[-1].startswith("bot: 好的，记成新的一局")
    assert table.hands() == 2


def test_an_ending_past_the_window_or_after_the_next_hands_play_is_booked(table: Table) -> None:
    table.say("b: 胡 自摸", "!clock +91s")
    assert table.say("c: 胡 点 @b")[0] == "bot: 第2局 老表 胡，点 阿四（一人出）"
    table.say("!clock +6m", "b: 胡 自摸", "!clock +5s", "c: 碰 点 @d", "!clock +5s")
    assert table.say("d: 荒庄")[0] == "bot: 第4局 荒庄"  # 老表's 碰 began the next hand


def test_the_same_ending_told_again_is_held_back_for_three_windows(table: Table) -> None:
    """Exactly alike, by anyone (its own recorder too), for 4½ minutes, as a 卡五星 win is."""
    table.say("b: 胡 自摸", "!clock +2m")
    assert table.say("b: 胡 自摸")[0].startswith("bot: 你 2分钟前记的：第1局 阿四 胡（每人出）。胡的人和它一样")
    table.say("b: 不用了", "!clock +3m")
    assert table.say("b: 胡 自摸")[0] == "bot: 第2局 阿四 胡（每人出）"


@pytest.mark.parametrize("again", ["c: 起手提蛇", "c: 提蛇 起手", "a: 老表 提蛇 起手"])
def test_a_deal_time_tishe_sent_twice_is_asked_not_won(table: Table, again: str) -> None:
    """Play-test: `起手提蛇` sent twice in one second booked the two-提蛇 win (+120 for 老表). The second within
    `PENGHU_RESEND` (someone else's within the window) is asked; 「确实又一次」 books it, and the hand ends as the
    rules say."""
    table.say("c: 起手提蛇")
    booked = table.balances()
    out = table.say(again)
    assert out[0].endswith(f"记的：第1局 老表 提蛇（起手）。{QUESTION}") and out[1].endswith("确实又一次 | 不用了")
    assert table.balances() == booked and table.hands() == 0
    assert table.say(f"{again.split(':')[0]}: !press 确实又一次")[1] == "bot: 第1局 老表 提蛇（起手）"
    assert table.hands() == 1 and table.balances()["老表"] == 3 * 40 * 100


def test_a_deal_time_tishe_typed_again_later_is_the_two_tishe_win(table: Table) -> None:
    table.say("c: 起手提蛇", f"!clock +{int(PENGHU_RESEND.total_seconds()) + 1}s")
    assert table.say("c: 起手提蛇")[0] == "bot: 第1局 老表 提蛇（起手）"
    assert table.hands() == 1 and table.balances()["老表"] == 3 * 40 * 100


def test_deal_time_sao_sent_again_is_still_lian_sao(table: Table) -> None:
    """One player's deal-time 扫 one after another are 连扫 (4 each), typed again past a double tap's time (within
    it, the line sent twice is asked about: tests/bot/test_penghu_as_typed.py)."""
    table.say("c: 扫 起手", f"!clock +{int(QISHOU_SAO_RESEND.total_seconds()) + 1}s")
    assert table.say("c: 扫 起手")[0] == "bot: 第1局 记下：老表 扫（起手）"
    assert table.balances()["老表"] == 3 * 4 * 100


@pytest.mark.parametrize(
    ("deal", "played", "told"), [("c: 起手扫", "c: 扫", "老表 扫"), ("c: 起手提蛇", "c: 提蛇", "老表 提蛇")]
)
def test_the_senders_play_after_their_deal_time_one_is_booked(table: Table, deal: str, played: str, told: str) -> None:
    """`c: 扫` 10 s after `c: 起手扫` was held back as the line sent twice: a deal-time 扫 is laid down at the deal, a
    扫 in play drawn later, two events (the scoring prices them apart), and a resend is the same line. Booked."""
    table.say(deal, f"!clock +{int(PENGHU_RESEND.total_seconds())}s")
    booked = table.balances()["老表"]
    assert table.say(played)[0] == f"bot: 第1局 记下：{told}"
    assert table.balances()["老表"] > booked


def test_someone_elses_play_after_a_deal_time_one_is_still_asked(table: Table) -> None:
    """Told by someone else within the window it may be the deal-time one told without 起手: asked, as before."""
    table.say("c: 起手扫", "!clock +10s")
    assert table.say("a: 老表 扫")[0] == f"bot: 老表 10秒前记的：第1局 老表 扫（起手）。{QUESTION}"
