"""Double entries a play-tester found booked twice (money charged twice), and held-back lines that got no answer.

- The sender's own exact retelling of the hand just ended (the same winners, way, discarder, patterns; nothing
  recorded since) is held back as long as anyone's (`booking.EXACT_RETELLING` windows: 4½ minutes at 90 s), not
  only within the window: 阿杰's `胡 清一色 自摸` retyped 110 s later was booked as 第2局.
- The same winner told again by someone else with other patterns within those windows is that hand told otherwise
  (a 卡五星 hand — shuffle, deal, a wall played down — takes longer): asked with 「是新的一局」 and 改成, not booked;
  so is someone else's telling of the same player's kong without its tile.
- A held-back line typed as a record (a player named first: `@ajie 暗杠 7z`, the sender's own line again) is told
  it was held back and why; only a line that may be talk — someone else's record echoed by its patterns naming
  nobody — stays unanswered.

Through the console, on SQLite and PostgreSQL; the property over any line told twice by anyone on SQLite."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.booking import EXACT_RETELLING
from ledger.service import Ledger

CHATS = itertools.count(-1_000_000_002_000, -1)
HEADER = ("!join wangge 王哥", "!join xiaoli 小李", "!join ajie 阿杰", "wangge: 开桌 @xiaoli @ajie 我坐庄")
WINDOW = 90
#: the span a hand's ending told again is held back for (4½ minutes at the default window)
SPAN = WINDOW * EXACT_RETELLING

SAME = "这条和它一样，像是重复了，没有再记。要是真的又来了一次，点「确实又一次」。"
SAME_WIN = "胡的人和它一样，多半是同一手又记了一次，没有再记。要是真的又胡了一次，点「确实又一次」。"
OTHER = (
    "这条和它不一样，多半说的是同一局，没有记。那条记错了，{owner} 或管理员发「改成 …」改；"
    "真是新的一局，点「是新的一局」。"
)
REPEAT_BUTTONS = "bot: [按钮] 确实又一次 | 不用了"
NEW_HAND_BUTTONS = "bot: [按钮] 是新的一局 | 不用了"


class Table:
    """The play-tester's table: 王哥 (dealer), 小李, 阿杰, three minutes after it opened."""

    def __init__(self, url: str) -> None:
        self.clock = ManualClock()
        self.ledger = Ledger.open(url, clock=self.clock.now)
        self.chat = next(CHATS)  # the property's tables share one database
        self.console = Console(Bot(self.ledger, clock=self.clock), self.clock, chat_id=self.chat)
        self.say(*HEADER, "!clock +3m")

    def say(self, *lines: str) -> list[str]:
        out: list[str] = []
        for line in lines:
            printed = self.console.feed(line)
            assert not [p for p in printed if p.startswith("console:")], printed
            out += printed
        return out

    def booked(self) -> tuple[dict[str, int], int, int]:
        """Every balance, the finished hands and the open hand's events: what a second booking would move."""
        balances = {line.name: line.amount for line in self.ledger.balances(self.chat).lines}
        table = self.ledger.current_table(self.chat)
        assert table is not None
        return balances, len(self.ledger.history(self.chat, 50)), len(self.ledger.hand_state(table.id).events)


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    yield opened
    opened.ledger.close()


# ------------------------------------------------------------- 1. the sender's own exact retelling, past the window


def test_the_winners_own_line_retyped_after_the_window_is_held_back_and_asked(table: Table) -> None:
    """The tester's script: 小李's telling of 阿杰's win is held back (and told so), then 阿杰's own line again 110 s
    after it was booked — once 第2局, charged again."""
    table.say("ajie: 胡 清一色 自摸", "!clock +100s")
    booked = table.booked()
    out = table.say("xiaoli: @ajie 胡 清一色 自摸")
    assert out == [f"bot: 阿杰 100秒前记的：第1局 阿杰 自摸 清一色。{SAME_WIN}", REPEAT_BUTTONS]
    table.say("!clock +10s")
    out = table.say("ajie: 胡 清一色 自摸")
    assert out == [f"bot: 你 110秒前记的：第1局 阿杰 自摸 清一色。{SAME_WIN}", REPEAT_BUTTONS]
    assert table.booked() == booked
    out = table.say("ajie: 确实又一次")  # a real second identical hand costs one word (or press)
    assert (out[0], out[-1]) == ("bot: 第2局 记下：", "bot: 好的，又记了一次（上面那条已经改成记下的结果）。")
    assert table.booked()[1] == 2


def test_a_double_win_retyped_by_its_recorder_three_minutes_later_is_held_back(table: Table) -> None:
    table.say("wangge: 胡 @xiaoli 七对 @ajie 清一色 点 @wangge", "!clock +3m")
    booked = table.booked()
    out = table.say("wangge: 一炮双响 @xiaoli 七对 @ajie 清一色 点 @wangge")
    assert out[0].startswith("bot: 你 3分钟前记的：第1局 小李 胡 王哥 点的炮 七对") and out[0].endswith(SAME_WIN)
    assert out[1:] == [REPEAT_BUTTONS] and table.booked() == booked


def test_a_win_told_by_its_patterns_sent_twice_by_its_winner_is_held_back_and_told(table: Table) -> None:
    """`七对 点 @wangge` is read without its command word, yet the sender's own line again is no talk: answered."""
    table.say("xiaoli: 七对 点 @wangge", "!clock +100s")
    booked = table.booked()
    out = table.say("xiaoli: 七对 点 @wangge")
    assert out == [f"bot: 你 100秒前记的：第1局 小李 胡 王哥 点的炮 七对。{SAME_WIN}", REPEAT_BUTTONS]
    assert table.booked() == booked


def test_the_own_retelling_after_the_span_or_with_the_check_off_is_a_new_hand(table: Table) -> None:
    table.say("ajie: 胡 清一色 自摸", f"!clock +{SPAN + 1}s")
    assert table.say("ajie: 胡 清一色 自摸")[0] == "bot: 第2局 记下："
    table.say("!admin wangge", "wangge: 设置 重复间隔 0", "!clock +20s")
    assert table.say("ajie: 胡 清一色 自摸")[0] == "bot: 第3局 记下："


def test_the_span_follows_the_groups_window(table: Table) -> None:
    table.say("!admin wangge", "wangge: 设置 重复间隔 20", "ajie: 胡 清一色 自摸")
    table.say(f"!clock +{20 * EXACT_RETELLING - 1}s")
    assert table.say("ajie: 胡 清一色 自摸")[0].startswith("bot: 你 59秒前记的")
    table.say("ajie: 不用了", "!clock +2s")
    assert table.say("ajie: 胡 清一色 自摸")[0] == "bot: 第2局 记下："


# ------------------------------------------------------- 2. the same winner (or kong) told by someone else, later


def test_the_same_winner_told_otherwise_by_someone_else_two_minutes_later_is_asked(table: Table) -> None:
    table.say("ajie: 自摸 清一色", "!clock +2m")
    booked = table.booked()
    out = table.say("xiaoli: @ajie 自摸 清一色七对")
    assert out == [f"bot: 阿杰 2分钟前记的：第1局 阿杰 自摸 清一色。{OTHER.format(owner='阿杰')}", NEW_HAND_BUTTONS]
    assert table.booked() == booked
    out = table.say("xiaoli: 是新的一局")
    assert (out[0], out[-1]) == ("bot: 第2局 记下：", "bot: 好的，记成新的一局（上面那条已经改成记下的结果）。")


def test_the_recorder_fixes_the_first_telling_with_gai_cheng_instead(table: Table) -> None:
    table.say("ajie: 自摸 清一色", "!clock +2m", "xiaoli: @ajie 自摸 清一色七对", "!clock +10s")
    out = table.say("ajie: 改成 自摸 清一色 七对")
    assert any("七对" in line for line in out)
    assert table.booked()[1] == 1


@pytest.mark.parametrize("line", ["xiaoli: @ajie 自摸 清一色七对", "wangge: 胡 @ajie 七对 点 @xiaoli"])
def test_the_same_winner_from_someone_else_after_the_span_is_a_new_hand(table: Table, line: str) -> None:
    table.say("ajie: 自摸 清一色", f"!clock +{SPAN + 1}s")
    assert table.say(line)[0] == "bot: 第2局 记下："


def test_the_same_winners_own_other_win_after_the_window_is_taken_as_meant(table: Table) -> None:
    """They know what they recorded: a second win of their own is a new hand (a wrong one is fixed with 改成)."""
    table.say("ajie: 自摸 清一色", f"!clock +{WINDOW + 1}s")
    assert table.say("ajie: 自摸 七对")[0] == "bot: 第2局 记下："


def test_a_kong_told_again_without_its_tile_by_someone_else_is_held_back(table: Table) -> None:
    table.say("ajie: 暗杠 红中", "!clock +2m")
    booked = table.booked()
    out = table.say("wangge: 阿杰暗杠了")
    assert out == [f"bot: 阿杰 2分钟前记的：第1局 阿杰 暗杠 中。{SAME}", REPEAT_BUTTONS]
    assert table.booked() == booked
    assert table.say("wangge: 确实又一次")[0] == "bot: 第1局 记下：阿杰 暗杠"
    assert table.booked()[2] == 2


def test_a_bare_kong_told_by_someone_else_after_the_span_is_a_second_kong(table: Table) -> None:
    table.say("ajie: 暗杠", f"!clock +{SPAN + 1}s")
    assert table.say("wangge: 杠 @ajie 暗 红中")[0] == "bot: 第1局 记下：阿杰 暗杠 中"
    assert table.booked()[2] == 2


def test_a_kong_of_another_tile_is_a_second_kong_whenever(table: Table) -> None:
    table.say("ajie: 暗杠 红中", "!clock +2m")
    assert table.say("wangge: 杠 @ajie 暗 发财")[0] == "bot: 第1局 记下：阿杰 暗杠 发"


# ------------------------------------------------------------------------- 3. held back: told, unless it is talk


def test_a_kong_told_player_first_and_held_back_is_told_so(table: Table) -> None:
    table.say("ajie: 暗杠 红中", "!clock +1m")
    booked = table.booked()
    out = table.say("xiaoli: @ajie 暗杠 7z")
    assert out == [f"bot: 阿杰 60秒前记的：第1局 阿杰 暗杠 中。{SAME}", REPEAT_BUTTONS]
    assert table.booked() == booked


def test_a_kong_told_player_first_sent_twice_by_its_sender_is_told_it_is_there(table: Table) -> None:
    """The same tile konged twice is refused by the tile, also to a line read without its command word."""
    table.say("xiaoli: @ajie 暗杠 7z", "!clock +1s")
    booked = table.booked()
    out = table.say("xiaoli: @ajie 暗杠 7z")
    assert out == ["bot: 这一局已经记了 阿杰 暗杠 中：同一张牌只能杠一次。发重了就不用再记；牌写错了就写对的那张。"]
    assert table.booked() == booked


def test_a_seat_named_first_held_back_is_told_so(table: Table) -> None:
    table.say("ajie: 胡 清一色 自摸", "!clock +30s")
    out = table.say("xiaoli: 阿杰 胡 清一色 自摸")
    assert out == [f"bot: 阿杰 30秒前记的：第1局 阿杰 自摸 清一色。{SAME_WIN}", REPEAT_BUTTONS]


def test_someone_elses_record_echoed_by_its_patterns_naming_nobody_stays_talk(table: Table) -> None:
    """小李 saying her own `清一色 自摸` after 阿杰 recorded it for her may be cheering her hand: no answer, nothing
    booked (typed with 胡 it is asked)."""
    table.say("ajie: 胡 @xiaoli 清一色 自摸", "!clock +150s")
    booked = table.booked()
    assert table.say("xiaoli: 清一色 自摸") == []
    out = table.say("xiaoli: 胡 清一色 自摸")  # told with its command word: a record, answered
    assert out == [f"bot: 阿杰 2分钟前记的：第1局 小李 自摸 清一色。{SAME_WIN}", REPEAT_BUTTONS]
    assert table.booked() == booked


# ------------------------------------------------------------------------------------------------- the property

#: (line, its player or winner when the line names them, or None for a line in the first person: its sender's)
LINES = [
    ("胡 @ajie 清一色 自摸", "ajie"),
    ("@ajie 胡 清一色 自摸", "ajie"),
    ("@ajie 清一色 自摸", "ajie"),
    ("胡 @xiaoli 七对 点 @wangge", "xiaoli"),
    ("@xiaoli 七对 点 @wangge", "xiaoli"),
    ("胡 @xiaoli 七对 @ajie 清一色 点 @wangge", "xiaoli"),
    ("一炮双响 @xiaoli 七对 @ajie 清一色 点 @wangge", "xiaoli"),
    ("荒庄", "wangge"),
    ("暗杠 @ajie 红中", "ajie"),
    ("@ajie 暗杠 7z", "ajie"),
    ("杠 @xiaoli 明 3s 点 @wangge", "xiaoli"),
    ("@ajie 暗杠", "ajie"),
    ("胡 清一色 自摸", None),
    ("七对 点 @wangge", None),
    ("我胡了 卡五星 点 @wangge", None),
    ("暗杠 红中", None),
]
#: the lines that end a hand
ENDINGS = [(line, about) for line, about in LINES if "杠" not in line]
PEOPLE = ("wangge", "xiaoli", "ajie")


@st.composite
def told_twice(draw: st.DrawFn, lines: list[tuple[str, str | None]], most: int) -> tuple[str, str, str, int]:
    """One of `lines`, who tells it first and who again (anyone: the same person too, but a line in the first
    person only from a player it can be about, where it says the same thing), and how many seconds apart, at most
    `most`."""
    line, about = draw(st.sampled_from(lines))
    first = draw(st.sampled_from(PEOPLE)) if about is not None else draw(st.sampled_from(("xiaoli", "ajie")))
    second = draw(st.sampled_from(PEOPLE)) if about is not None else first
    if line == "@ajie 暗杠" and second == first:
        # one player's bare kong told again by its own sender after `KONG_RESEND` is booked: two concealed kongs
        # in one hand are real, and nothing tells them apart (documented; tests/bot/test_kong_repeats.py)
        second = next(person for person in PEOPLE if person != first)
    return line, first, second, draw(st.integers(min_value=1, max_value=most))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(told_twice(LINES, WINDOW))
def test_any_line_told_twice_by_anyone_within_the_window_books_once(
    sqlite_url: str, case: tuple[str, str, str, int]
) -> None:
    line, first, second, gap = case
    table = Table(sqlite_url)
    try:
        assert table.say(f"{first}: {line}")[0].startswith("bot: 第1局 记下")
        booked = table.booked()
        out = table.say(f"!clock +{gap}s", f"{second}: {line}")
        assert table.booked() == booked, out
        assert out and "记下" not in out[0], out  # told, never silently dropped
    finally:
        table.ledger.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(told_twice(ENDINGS, SPAN))
def test_any_hands_ending_told_twice_by_anyone_within_the_span_books_once(
    sqlite_url: str, case: tuple[str, str, str, int]
) -> None:
    """A hand's ending (a win, a 一炮双响, a 荒庄) told again exactly, by anyone, is held back for the whole span
    (a kong's repeat is the window's, and its tile's, to tell apart)."""
    line, first, second, gap = case
    table = Table(sqlite_url)
    try:
        table.say(f"{first}: {line}")
        booked = table.booked()
        out = table.say(f"!clock +{gap}s", f"{second}: {line}")
        assert table.booked() == booked and out, out
    finally:
        table.ledger.close()
