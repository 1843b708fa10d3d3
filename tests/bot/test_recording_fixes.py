"""Recording hands as testers played them through `paiju console`: each test is a short script whose replies and
balances show a defect they found stays fixed (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.commands._recording import FLOW_PATTERNS, tap_pattern
from bot.console import Console
from bot.core import Bot, CallbackQuery, ManualClock, Refusal
from bot.grammar import MAX_FOURS, parse_win
from ledger.scoring.kawuxing.patterns import REPEATABLE
from ledger.service import Ledger

CHAT = -1_000_000_000_777
OPEN = "a: 开桌 @a @b @c 庄 @a"


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))


class Table:
    """A console over a fresh ledger: `say` feeds script lines and returns what the bot printed for them."""

    def __init__(self, url: str) -> None:
        self.clock = ManualClock()
        self.ledger = Ledger.open(url, clock=self.clock.now)
        self.console = Console(Bot(self.ledger, clock=self.clock), self.clock, chat_id=CHAT)

    def say(self, *lines: str) -> list[str]:
        out: list[str] = []
        for line in lines:
            printed = self.console.feed(line)
            assert not [p for p in printed if p.startswith("console:")], printed
            out += printed
        return out

    def button(self, label: str) -> tuple[int, str]:
        """(message, data) of the newest button labelled `label`: pressed later, it is a stale keyboard's."""
        for posted in sorted(self.console.posted.values(), key=lambda p: p.message_id, reverse=True):
            if label in posted.buttons:
                return posted.message_id, posted.buttons[label]
        raise AssertionError(f"no button {label!r}")

    def press_stale(self, name: str, button: tuple[int, str]) -> list[str]:
        """`name` presses a button as an old keyboard still shows it."""
        message, data = button
        query = CallbackQuery(
            f"stale{data}", CHAT, message, self.console.sender(name), data, self.clock.now(), source=f"stale:{data}"
        )
        return self.console._render(self.console.bot.handle_callback(query))

    def balances(self) -> dict[str, int]:
        return {line.name: line.amount for line in self.ledger.balances(CHAT).lines if line.kind != "pot"}

    def hands(self) -> int:
        return len(self.ledger.history(CHAT, 50))


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(OPEN)
    yield opened
    opened.ledger.close()


# ------------------------------------------------------------------------------ 自摸 @b names no pattern either


@pytest.mark.parametrize("line", ["a: 自摸 @b", "b: 我自摸了 @b", "a: 自摸了 @b"])
def test_a_self_draw_for_someone_naming_no_pattern_is_asked_like_a_bare_one(table: Table, line: str) -> None:
    out = table.say(line)
    assert any("没写番型" in o and "是不是：胡 @b 屁胡 自摸？" in o for o in out), out
    assert table.hands() == 0 and not any(table.balances().values())
    table.say(f"{line.split(':')[0]}: !press 就是这个")  # the tap books the 屁胡 for b
    assert table.balances() == {"a": -100, "b": 200, "c": -100}


def test_a_self_draw_with_a_pattern_or_said_plain_books_at_once(table: Table) -> None:
    table.say("a: 自摸 @b 清一色")
    assert table.balances() == {"a": -400, "b": 800, "c": -400}
    table.say("a: 胡 @c 屁胡 自摸")
    assert table.hands() == 2


def test_my_self_draw_naming_someone_else_is_still_refused(table: Table) -> None:
    out = table.say("a: 我自摸了 @b")
    assert any("说的是你自己胡了" in o for o in out) and table.hands() == 0


# ------------------------------------------------------------------------- 买马: no fifth copy after any kong


def test_a_horse_tile_four_copies_of_which_another_player_konged_is_refused(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say("!admin a", "a: 设置 买马 自摸买马", OPEN, "b: 暗杠 7s")
        before = table.balances()
        out = table.say("a: 胡 清一色 自摸 买马 7s")
        assert out == ["bot: 马牌「七条」不对：b 杠了四张七条，翻不出第五张。"]
        out = table.say("a: 胡 清一色 自摸")  # asked, then answered with that tile: refused, the question stays
        assert any("翻出的马牌" in o for o in out)
        assert table.say("a: 买马 7s") == ["bot: 马牌「七条」不对：b 杠了四张七条，翻不出第五张。"]
        assert table.balances() == before
        table.say("a: 买马 7p")
        assert table.hands() == 1
        table.say("c: 蓄杠 9p")  # hand 2: c's added kong; the winner's typed hand shows none of it
        out = table.say("b: 胡 123s456s789s11s23s 4s 自摸 买马 9p")
        assert out == ["bot: 马牌「九筒」不对：c 杠了四张九筒，翻不出第五张。"]
    finally:
        table.ledger.close()


# ------------------------------------------------------------------ 「就是这个」 on a double entry: held back, once


def test_accepting_a_reading_that_repeats_the_previous_win_only_holds_it_back(table: Table) -> None:
    table.say("b: 胡 清一色 自摸")
    booked = table.balances()
    table.say("a: 胡 @b 清一涩 自摸")
    out = table.say("a: !press 就是这个")
    assert not any("记好了" in line for line in out), out
    assert out[0].startswith("bot: b 刚刚记的：第1局 b 自摸 清一色") and "确实又一次" in out[1]
    assert table.balances() == booked and table.hands() == 1
    out = table.say("a: !press 确实又一次")
    assert "bot: [提示] 记好了" in out and table.hands() == 2


# ------------------------------------------------------- the 胡 flow: counts a seven-pairs hand cannot hold


XIAOGAN = ("!admin a", "a: 设置 预设 孝感", OPEN)


def _flow_to_patterns(table: Table) -> None:
    table.say("a: 胡", "a: !press a", "a: !press 自摸")


def test_a_count_told_for_other_patterns_is_asked_again_for_a_seven_pairs_hand(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*XIAOGAN)
        _flow_to_patterns(table)
        table.say("a: !press 清一色", "a: !press 预览", "a: !press 3", "a: !press ◀ 返回", "a: !press 清一色")
        out = table.say("a: !press 七对", "a: !press 预览")
        assert not any("数坎" in line for line in out), out  # a 七对 holds no 坎: not the 3 told for 清一色
        table.say("a: !press ◀ 返回", "a: !press 七对")
        out = table.say("a: !press 双龙七对", "a: !press 预览")
        assert "bot: [按钮] 2 | 3" in out  # asked again, with what a 双龙七对 can hold
        table.say("a: !press 3", "a: !press 确认")
        assert table.balances() == {"a": 2200, "b": -1100, "c": -1100}  # 孝感 caps at ×8, then 3 坎
    finally:
        table.ledger.close()


def test_a_stale_count_button_a_seven_pairs_hand_cannot_hold_books_nothing(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*XIAOGAN)
        _flow_to_patterns(table)
        table.say("a: !press 清一色", "a: !press 预览")
        four = table.button("4")  # the 坎 buttons of a 清一色: 0–4
        table.say("a: !press ◀ 返回", "a: !press 清一色", "a: !press 双龙七对", "a: !press 预览")
        out = table.press_stale("b", four)
        assert out == ["bot: [提示] 双龙七对的坎数不可能是 4：七对只有四张一样的才算（双龙七对是 2–3）。"], out
        assert table.hands() == 0
        table.say("a: !press 2", "a: !press 确认")  # the question still stands, with what the hand can hold
        assert table.balances() == {"a": 2000, "b": -1000, "c": -1000}
    finally:
        table.ledger.close()


def test_the_win_flow_refuses_a_horse_tile_a_kong_holds_all_four_of(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say("!admin a", "a: 设置 买马 自摸买马", OPEN, "b: 暗杠 7s")
        _flow_to_patterns(table)
        table.say("a: !press 清一色", "a: !press 预览")
        assert table.say("a: !press 7条") == ["bot: [提示] 马牌「七条」不对：b 杠了四张七条，翻不出第五张。"]
        table.say("a: !press 中")
        assert any("买马 中" in line for line in table.say("a: !press 确认")) and table.hands() == 1
    finally:
        table.ledger.close()


# ----------------------------------------------------------------- the 胡 flow: a 四归一 picked more than once


def test_the_win_flow_counts_a_four_again_at_each_tap_up_to_a_hands_three(table: Table) -> None:
    _flow_to_patterns(table)
    table.say("a: !press 清一色", "a: !press 暗四归一")
    out = table.say("a: !press 暗四归一")
    assert "bot: [按钮] 明四归一 | ✓暗四归一×2" in out and "清一色×4、暗四归一×4、暗四归一×4" in out[1]
    table.say("a: !press 明四归一")  # the third four
    table.say("a: !press 明四归一")  # off again
    assert "bot: [按钮] 明四归一 | ✓暗四归一×3" in table.say("a: !press 暗四归一×2")
    assert table.say("a: !press 明四归一") == ["bot: [提示] 四归一最多 3 个：一手牌最多有 3 个四张。"]
    table.say("a: !press 暗四归一×3")  # a fourth would not fit: off
    table.say("a: !press 暗四归一", "a: !press 暗四归一", "a: !press 预览")
    out = table.say("a: !press 确认")
    assert "bot: a 自摸：清一色×4、暗四归一×4、暗四归一×4 → ×8（封顶前 ×64）" in out
    assert table.balances() == {"a": 1600, "b": -800, "c": -800}


# ---------------------------------------------------------------- 预览 of a 抢杠胡: the refund with its amounts


def test_the_preview_of_a_robbed_kong_shows_the_refund_the_booking_makes(table: Table) -> None:
    table.say("b: 蓄杠 5s")  # a and c pay b 1元 each, until a robs it
    table.say("a: 胡", "a: !press a", "a: !press 抢杠", "a: !press b", "a: !press 卡五星")
    preview = table.say("a: !press 预览")
    assert preview[preview.index("bot: b 的蓄杠被抢，杠钱退回") + 1 :][:3] == [
        "bot: b → a 4元",
        "bot: b → a 1元（杠钱退回）",
        "bot: b → c 1元（杠钱退回）",
    ]
    before = table.balances()
    table.say("a: !press 确认")
    after = table.balances()
    change = {name: after[name] - before[name] for name in after}
    assert change == {"a": 400 + 100, "b": -400 - 200, "c": 100}  # what the preview listed, to the 分


# ----------------------------------------------------- a button of a hand a 撤销 took back says it was taken back

TAKEN_BACK = "这一局的记录已经撤销（现在打的是第1局），这个按钮作废（没有记账）。"


def test_buttons_of_a_hand_an_undo_took_back_say_so_and_book_nothing(table: Table) -> None:
    table.say("a: 胡 清一色 自摸")
    table.say("b: 胡")  # hand 2's button flow
    table.say("c: 胡 清一涩 自摸")  # and a question asked in hand 2 (before the flow holds it: then refused)
    table.say("b: !press b")
    table.say("a: 撤销", "a: !press 确认撤销")
    booked = table.balances()
    assert table.say("b: !press 自摸") == [f"bot: [提示] {TAKEN_BACK}", f"bot: {TAKEN_BACK}"]
    assert table.say("c: !press 就是这个") == [f"bot: [提示] {TAKEN_BACK}", f"bot: {TAKEN_BACK}"]
    assert table.balances() == booked and table.hands() == 0


def test_a_button_of_a_hand_recorded_another_way_still_says_it_was_recorded(table: Table) -> None:
    table.say("b: 胡")
    table.say("a: 胡 清一色 自摸")
    out = table.say("b: !press b")
    assert out == [
        "bot: [提示] 第1局已经记完了，这个按钮作废（没有记账）。",
        "bot: 第1局已经记完了，这个按钮作废（没有记账）。",
    ]


def test_a_question_of_a_hand_an_undo_took_back_says_so(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*XIAOGAN, "a: 胡 清一色 自摸 坎1", "!clock +3m", "b: 胡 清一色 自摸")  # hand 2's win: asked its 坎
        table.say("a: 撤销 第1局", "a: !press 确认撤销")  # plain 撤销 would drop the waiting win itself
        out = table.say("b: !press 2")
        assert out[0] == "bot: [提示] 这一局的记录已经撤销（现在打的是第1局），这个问题作废（没有记账）。", out
        assert table.hands() == 0
    finally:
        table.ledger.close()


@given(st.lists(st.sampled_from(FLOW_PATTERNS), max_size=40))
def test_pattern_taps_never_hold_more_than_a_hand_can(taps: list[str]) -> None:
    """Whatever the taps, the flow's patterns are ones the grammar would read: each pattern once, a 四归一 as often
    as tapped on, and never more fours than a hand holds; a 四归一 tapped past that is refused, nothing changed."""
    chosen: list[str] = []
    for pattern in taps:
        before = list(chosen)
        try:
            tap_pattern(chosen, pattern)
        except Refusal:
            assert chosen == before and pattern in REPEATABLE
        assert sum(p in REPEATABLE for p in chosen) <= MAX_FOURS
        assert all(chosen.count(p) == 1 for p in chosen if p not in REPEATABLE)
    if chosen:
        assert parse_win(" ".join(chosen) + " 自摸", "a", lambda token: None)[0].patterns == chosen


# ------------------------------------------------------------------- 碰胡: the reply to an edit of an earlier hand


def test_a_penghu_edit_of_an_earlier_hand_says_it_was_edited_and_the_hand_the_table_is_at(db_url: str) -> None:
    """As 卡五星's: the edited 胡 of hand 1 is said to be booked again, and the reply ends with the hand the table
    plays now (第3局), never a 下一局 the table is past."""
    table = Table(db_url)
    try:
        table.say("!admin a", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a", "a: 碰 点 @b", "a: 胡 点 @c")
        table.say("b: 碰 点 @c", "b: 胡 点 @d")
        out = table.say("a: !edit 5 胡 点 @d")
        assert out[0] == "bot: 第1局 按改后的消息重记：a 胡，点 d（一人出）"
        assert out[-1] == "bot: 现在打第3局，庄家 b"
    finally:
        table.ledger.close()


def test_an_edit_of_a_record_is_read_as_its_table_s_game_after_another_game_s_table_opened(db_url: str) -> None:
    """A 够级 round edited (by an admin) after a 碰胡 table opened is read as 够级's 名次 and booked again at its own
    table, not left standing with advice to 撤销 a hand of the 碰胡 table."""
    table = Table(db_url)
    try:
        table.say("!admin a", "a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f", "a: 名次 a b c d e f")
        table.say("a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a")
        out = table.say("a: !edit 4 名次 b a c d e f")
        assert out[0] == "bot: 第1局 按改后的消息重记（原记录作废）：头科 b、二科 a、三科 c、四科 d、二落 e、大落 f"
        assert table.ledger.history(CHAT, 1)[0].events[0]["order"] == ["b", "a", "c", "d", "e", "f"]
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("first", "again", "there"),
    [
        ("b: 暗杠 3s", "b: 暗杠3条", "b 暗杠 三条"),  # the same kong sent twice, spelled another way
        ("c: 直杠 9p 点 @b", "c: 直杠 9p 点 @b", "c 直杠 九筒（点杠 b）"),
        ("b: 暗杠 3s", "c: 暗杠 3s", "b 暗杠 三条"),  # someone else's tile typed wrong
    ],
)
def test_a_kong_of_a_tile_konged_already_this_hand_names_that_kong(
    table: Table, first: str, again: str, there: str
) -> None:
    """Not 「三条（3s）有 8 张，每种牌只有 4 张」, which reads as a typo in a hand nobody typed: the kong already
    there, and what to do. Nothing booked."""
    table.say(first)
    before = table.balances()
    assert table.say(again)[-1:] == [  # after a newcomer's greeting, when the line is their first
        f"bot: 这一局已经记了 {there}：同一张牌只能杠一次。发重了就不用再记；牌写错了就写对的那张。"
    ]
    assert table.balances() == before


def test_a_table_short_of_players_shows_one_at_a_seat(db_url: str) -> None:
    """The example 开桌 has as many @ as the game seats (碰胡 4, 够级 6), not always three."""
    opened = Table(db_url)
    try:
        opened.say("!admin a", "a: 设置 游戏 碰胡")
        assert opened.say("a: 开桌 @a @b @c")[-1] == (
            "bot: 碰胡一桌要 4 个人，现在只有 3 个：开桌 @甲 @乙 @丙 @丁（客人直接写名字）"
        )
        opened.say("a: 设置 游戏 够级")
        assert "开桌 @甲 @乙 @丙 @丁 @戊 @己" in opened.say("a: 开桌 @a @b")[-1]
    finally:
        opened.ledger.close()
