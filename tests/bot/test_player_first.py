"""A record told with its player first, as testers typed it through `paiju console`: at a 碰胡 table (`@b 碰 点 @c`),
by a seat's plain name (a guest: `老表 胡了 清一色 点 小李`), and the English orders (`zimo qingyise`). A line read
that way does not start with its command word: it books only when it reads cleanly and is silent otherwise."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot import vocabulary
from bot.console import Console
from bot.core import Bot, ManualClock, load_plugins, registry
from bot.grammar import _VOCABULARY, fold, name_key, split_command, unprompted
from ledger.service import Ledger

CHATS = itertools.count(-1_000_000_000_888, -1)
MEMBERS = ("!join a 阿杰", "!join b 小李", "!join c 老王", "!join d 小张", "!admin a")


class Table:
    """A console over a fresh ledger: `say` feeds script lines and returns what the bot printed for them."""

    def __init__(self, url: str, *setup: str) -> None:
        self.clock = ManualClock()
        self.ledger = Ledger.open(url, clock=self.clock.now)
        self.chat = next(CHATS)  # two tables may share a database
        self.console = Console(Bot(self.ledger, clock=self.clock), self.clock, chat_id=self.chat)
        self.say(*MEMBERS, *setup)

    def say(self, *lines: str) -> list[str]:
        out: list[str] = []
        for line in lines:
            printed = self.console.feed(line)
            assert not [p for p in printed if p.startswith("console:")], printed
            out += printed
        return out

    def booked(self) -> tuple[object, ...]:
        """The open hand's events, the finished hands and the balances."""
        table = self.ledger.current_table(self.chat)
        events = self.ledger.hand_state(table.id).events if table is not None else ()
        finished = self.ledger.history(self.chat)
        hands = [(r.events, sorted((t.payer, t.payee, t.amount) for t in r.transfers)) for r in finished]
        return events, hands, {line.name: line.amount for line in self.ledger.balances(self.chat).lines}


def same_as(url: str, setup: tuple[str, ...], line: str, plain: str) -> None:
    """`line` books what `plain` books, with the same reply."""
    told, typed = Table(url, *setup), Table(url, *setup)
    try:
        assert told.say(line) == typed.say(plain)
        assert told.booked() == typed.booked()
    finally:
        told.ledger.close()
        typed.ledger.close()


def stays_chat(url: str, setup: tuple[str, ...], line: str) -> None:
    """`line` gets no reply and books nothing."""
    table = Table(url, *setup)
    try:
        before = table.booked()
        assert table.say(line) == []
        assert table.booked() == before
    finally:
        table.ledger.close()


@pytest.fixture
def penghu(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url, *PENGHU)
    yield table
    table.ledger.close()


PENGHU = ("a: 设置 游戏 碰胡", "a: 开桌 @a @b 老表 @d 庄 @a")


# --------------------------------------------------------------------------------------- 碰胡, player first


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: @b 碰 点 @d", "a: 碰 @b 点 @d"),
        ("a: @b 碰 摸", "a: 碰 @b 摸"),
        ("d: ＠b 碰，点 @a！", "d: 碰 @b 点 @a"),
        ("a: @b 扫 起手", "a: 扫 @b 起手"),
        ("a: @b 过扫", "a: 过扫 @b"),
        ("a: @b 提蛇", "a: 提蛇 @b"),
        ("a: @b 胡 点 @d", "a: 胡 @b 点 @d"),
        ("a: @b 胡了 自摸", "a: 胡 @b 自摸"),
        ("a: @b 自摸", "a: 胡 @b 自摸"),
        ("b: @a 中庄 自摸", "b: 胡 @a 中庄 自摸"),
        ("a: @d 天胡", "a: 天胡 @d"),
        ("a: @b 地胡", "a: 地胡 @b"),
        ("a: @b 我点炮了", "a: 胡 @b 点 @a"),
        ("a: 老表 碰 点 小李", "a: 碰 老表 点 @b"),
        ("a: 小李 胡 点 老表", "a: 胡 @b 点 老表"),
    ],
)
def test_a_penghu_event_told_with_its_player_first_is_that_event(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, PENGHU, line, plain)


def test_a_penghu_player_first_line_that_cannot_be_booked_stays_unanswered(penghu: Table) -> None:
    before = penghu.booked()
    for line in (
        "a: @b 碰",  # whose tile? asked when typed 碰 @b
        "a: @b 碰 点 @d 哈哈",
        "a: @b 暗杠 3s 不算",
        "a: @b 亮倒",  # nothing but the word: maybe chat
        "a: @b 我胡了 点 @d",  # whose win?
        "a: @b @d 碰",
        "a: 老表 荒庄",  # a draw names nobody
        "a: @b 碰 点 @b",  # one's own discard
    ):
        assert penghu.say(line) == [], line
    assert penghu.booked() == before
    assert penghu.say("a: 碰 @b") != []  # the same words with the command first get their answer


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("a: 暗杠 3s", "这桌打的是碰胡，没有暗杠（那是卡五星的记法）"),
        ("a: @b 暗杠 3s", "这桌打的是碰胡，没有暗杠（那是卡五星的记法）"),
        ("a: 老表 暗杠 三条", "这桌打的是碰胡，没有暗杠（那是卡五星的记法）"),
        ("a: 亮倒", "这桌打的是碰胡，没有亮倒（那是卡五星的记法）"),
        ("a: 胡 清一色 点 @d", "碰胡的胡不分番型，「清一色」不用写"),
        ("a: @b 胡了 清一色 点 @d", "碰胡的胡不分番型，「清一色」不用写"),
        ("a: 老表 胡 杠上开花", "碰胡的胡不分番型，「杠上开花」不用写"),
    ],
)
def test_a_kawuxing_record_at_a_penghu_table_is_refused_in_penghu_s_words(penghu: Table, line: str, said: str) -> None:
    before = penghu.booked()
    out = penghu.say(line)
    assert len(out) == 1 and said in out[0], out
    assert penghu.booked() == before


def test_a_penghu_win_told_player_first_again_after_someone_recorded_it_is_told_it_was_held_back(
    penghu: Table,
) -> None:
    penghu.say("d: 胡 @b 点 @d")
    before = penghu.booked()
    out = penghu.say("a: @b 胡 点 @d")  # the same win from someone else: a double entry, told (a record, not talk)
    assert out[1:] == ["bot: [按钮] 确实又一次 | 不用了"] and "没有再记" in out[0]
    assert penghu.booked() == before


# ------------------------------------------------------------------------------------ a seat's plain name first

KAWUXING = ("a: 开桌 @a @b 老表 庄 @a",)


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 老表 胡了 清一色 点 小李", "a: 胡 老表 清一色 点 @b"),
        ("a: 老表 自摸 七对", "a: 胡 老表 七对 自摸"),
        ("b: 老表 暗杠 3s", "b: 杠 老表 暗 3s"),
        ("a: 老表 亮倒", "a: 亮倒 老表"),
        ("a: 小李 胡 卡五星 点 老表", "a: 胡 @b 卡五星 点 老表"),
        ("a: 老表 胡了 清一色 点 @b", "a: 胡 老表 清一色 点 @b"),
        ("a:   老表　胡 七对 自摸", "a: 胡 老表 七对 自摸"),
        ("a: 老表 清一色 自摸", "a: 胡 老表 清一色 自摸"),  # a win told by its patterns, its player first
        ("a: 老表 清一色 自摸 哈哈", "a: 胡 老表 清一色 自摸"),  # laughter after it dropped, as after 胡's line
        ("b: @a 七对 点 老表", "b: 胡 @a 七对 点 老表"),
        ("a: 小李 海底捞 自摸 碰碰胡", "a: 胡 @b 海底捞 碰碰胡 自摸"),
    ],
)
def test_a_record_told_with_a_seat_s_name_first_is_that_player_s(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, KAWUXING, line, plain)


@pytest.mark.parametrize(
    "line",
    [
        "a: 老表 胡说八道",
        "a: 老表 胡了吗",
        "a: 老表 胡了 哈哈",  # a guess would be asked: never about a line that may be chat
        "a: 老表，胡了 清一色 点 小李",  # the name is not the first word alone
        "a: 老表胡了清一色点小李",
        "a: 老表哥 胡了 清一色 点 小李",  # not a seat
        "a: 老王 胡了 清一色 点 小李",  # a member who is not seated
        "a: 老表 我胡了 清一色 自摸",
        "a: 老表 自摸",  # 屁胡 or patterns left out: asked only when typed 自摸 老表
        "a: 老表 胡 清一色 点 老表",
        "a: 老表 碰 点 小李",  # no 碰 at a 卡五星 table
        "a: 你好 胡了 清一色 自摸",
        "a: 老表 清一色",  # no way it was won
        "a: 老表 清一色 自摸？",
        "a: 老表 清一色 点 老表",
        "a: @b @c 清一色 自摸",  # which one won?
        "a: 老表 「清一色 自摸」",
    ],
)
def test_a_line_that_only_looks_like_one_stays_chat(sqlite_url: str, line: str) -> None:
    stays_chat(sqlite_url, KAWUXING, line)


def test_no_name_starts_a_record_without_an_open_table(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b 老表 庄 @a", "a: 胡 清一色 自摸", "a: 结算")
    try:
        assert table.say("a: 老表 胡了 清一色 点 小李") == []
    finally:
        table.ledger.close()


def test_a_name_first_is_read_only_for_the_open_table_s_seats() -> None:
    load_plugins()
    line = "老表 胡了 清一色 点 小李"
    assert split_command(line, registry, "kawuxing") is None
    found = split_command(line, registry, "kawuxing", ["阿杰", "小李", "老表"])
    assert found is not None and found[1:] == ("胡了", "老表 清一色 点 小李")
    assert unprompted(line, found[1])
    assert split_command("ＬａｏＢｉａｏ 胡了 清一色 自摸", registry, "kawuxing", ["laobiao"]) is not None
    assert split_command("老表 碰 点 小李", registry, "penghu", ["小李", "老表"]) is not None
    assert not unprompted("胡 老表 清一色 点 小李", "胡")
    assert not unprompted("/hu 老表 清一色", "hu")


# ----------------------------------------------------------------------------------------------- English groups

ENGLISH = ("a: 设置 语言 en", "a: 开桌 @a @b @c 庄 @a")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: zimo qingyise", "a: qingyise zimo"),
        ("a: ZIMO qidui qingyise", "a: qidui qingyise zimo"),
        ("a: tsumo qingyise", "a: qingyise zimo"),
        ("b: zimo 清一色", "b: 胡 清一色 自摸"),
        ("a: Tsumo, qingyise!", "a: qingyise zimo"),
        ("a: self qingyise", "a: qingyise zimo"),
        ("a: hu zimo qingyise", "a: qingyise zimo"),
        ("a: @b zimo qingyise", "a: 胡 @b 清一色 自摸"),
    ],
)
def test_an_english_group_tells_the_way_before_the_patterns(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


@pytest.mark.parametrize(
    "line", ["a: zimo is hard", "a: zimo qingyise?", "a: zimo lol qingyise", "a: zimo @b", "a: @b zimo", "a: zimo zimo"]
)
def test_a_line_starting_with_zimo_that_names_no_pattern_or_more_than_a_win_stays_chat(
    sqlite_url: str, line: str
) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say(line) == []
        assert not any(table.booked()[2].values())
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["zimo", "Zimo!", "tsumo"])
def test_zimo_alone_is_asked_about_as_zimo_in_chinese_is(sqlite_url: str, line: str) -> None:
    """`zimo` alone, as `自摸` alone: a 屁胡, or were the patterns left out? Asked; a seated player's tap books it."""
    table = Table(sqlite_url, *ENGLISH)
    try:
        out = table.say(f"a: {line}")
        word = fold(line).strip("!")
        assert out == [
            f"bot: “{word}” names no pattern (name them if any, e.g. win one suit self-draw). "
            "Did you mean: win plain win self-draw?",
            "bot: [按钮] Yes, book it | No",
        ]
        assert not any(table.booked()[2].values())
        table.say("b: !press Yes, book it")
        assert {name: amount for name, amount in table.booked()[2].items() if amount} == {
            "阿杰": 200,
            "小李": -100,
            "老王": -100,
        }
    finally:
        table.ledger.close()


def test_zimo_before_the_patterns_right_after_someone_recorded_a_win_is_cheering(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        table.say("b: qingyise zimo")
        before = table.booked()
        assert table.say("a: zimo qingyise") == []
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_an_english_question_words_the_one_who_dealt_in_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        out = table.say("a: 我点炮了 @b 清一涩")
        assert out[0] == "bot: Could not read “清一涩”. Did you mean: win @b one suit from me?", out
        table.say("b: !press Yes, book it")
        assert {name: amount for name, amount in table.booked()[2].items() if amount} == {"阿杰": -400, "小李": 400}
        assert table.say("a: 胡 七对 点 @c 运气好")[0].endswith("Did you mean: win seven pairs from @c?")
    finally:
        table.ledger.close()


def test_a_chinese_question_keeps_its_words(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    try:
        assert table.say("a: 我点炮了 @b 清一涩")[0] == "bot: 没看懂「清一涩」。是不是：胡 @b 清一色 点 我？"
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------ the invariant, at large

load_plugins()
#: first characters a line may start with and be read some other way (a command word, a pattern, a tile, a count)
OTHER_STARTS = frozenset(fold(word)[0] for word in registry.words()) | frozenset(s[0] for s in _VOCABULARY)
NAME = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=4).filter(
    lambda name: fold(name)[0] not in OTHER_STARTS and fold(name)[0].isalpha()
)


@given(NAME, NAME, st.sampled_from(["胡了 清一色 点 @b", "暗杠 3s", "亮倒", "自摸 七对"]))
def test_only_a_name_at_the_open_table_starts_a_record(seat: str, other: str, record: str) -> None:
    assume(name_key(seat) != name_key(other) and fold(seat) != fold(other))  # 亙 reads as 亘: one name
    found = split_command(f"{seat} {record}", registry, "kawuxing", ["阿杰", seat])
    assert found is not None and found[2].split()[0] == seat
    assert unprompted(f"{seat} {record}", found[1])
    assert split_command(f"{other} {record}", registry, "kawuxing", ["阿杰", seat]) is None
    # glued to its record word alone (`老王暗杠 3s`) as typed apart; glued to the whole record, chat — except a name
    # glued to 自摸, read however the rest is written (`小李自摸七对`), and to a kong and its tile (`老王暗杠3s`)
    assert split_command(f"{seat}{record}", registry, "kawuxing", ["阿杰", seat]) == found
    assert split_command(f"{other}{record}", registry, "kawuxing", ["阿杰", seat]) is None
    whole = split_command(f"{seat}{record.replace(' ', '')}", registry, "kawuxing", ["阿杰", seat])
    if record == "暗杠 3s":
        assert whole == found
    elif not record.startswith(vocabulary.SEAT_GLUED_WORD):
        assert whole is None or " " not in record
    elif vocabulary.SEAT_GLUED_WORD not in seat + other:
        assert whole is not None and whole[2].split()[0] == seat  # `小李自摸七对`: `小李 自摸七对`
