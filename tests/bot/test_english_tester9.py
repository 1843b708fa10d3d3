"""What a play-tester of an English group met: an English tile 卡五星 has not (`concealed kong east wind`) offered
as a guess that dropped it, and a guess that dropped a person or a number."""

from __future__ import annotations

import re

import pytest

from tests.bot.test_player_first import Table, same_as

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        ("f: concealed kong east wind", "has no tile “east wind”"),
        ("f: concealed kong North", "has no tile “North”"),
        ("f: concealed kong 1z", "has no tile “1z”"),
        ("f: added kong west winds", "has no tile “west winds”"),
        ("f: exposed kong south wind from @e", "has no tile “south wind”"),
        ("f: win seven pairs self-draw east wind", "has no tile “east wind”"),
        ("f: concealed kong sevn east wind", "“sevn”"),
        ("f: win seven pairs self-draw buy horse east wind", "“east wind” is no Ka Wu Xing"),
        ("f: concealed kong flower", "“flower” is not a tile"),
        ("f: concealed kong red", "“red” is not a tile"),
        ("f: concealed kong 3s 老王", "“老王”"),  # a member not seated: no guess without him
        ("f: concealed kong 3", "“3”"),  # a number: no guess without it
        ("f: win seven pairs self-draw 5", "“5”"),  # nor one reading it as a pattern (卡五星)
    ],
)
def test_a_word_naming_something_is_refused_never_left_out_of_a_guess(sqlite_url: str, line: str, quoted: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        said = table.say(line)
        assert quoted in said[0] and "Did you mean" not in said[0], said
        assert not [s for s in said if s.startswith("[按钮]")], said
        assert table.say("f: Yes, book it") == [] and table.booked() == before
    finally:
        table.ledger.close()


def test_a_wind_is_refused_in_english_words() -> None:
    """The refusal names the dragons as an English group reads them, the game by its English name."""
    from bot.texts import TEXTS

    assert "white, green and red dragons" in TEXTS["tile_wind"]["en"]
    assert "白" not in TEXTS["tile_wind"]["en"] and "白" not in TEXTS["tile_not_a_tile"]["en"]


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("f: concealed kong 3 dots", "f: concealed kong 3p"),
        ("f: concealed kong Three Bamboo", "f: concealed kong 3s"),
        ("f: concealed kong 3 characters", "f: concealed kong 3m"),
    ],
)
def test_a_tile_named_in_english_reads_as_its_notation(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


# ------------------------------------------------------------------------------------- lines that went unanswered

GOUJI_EN = ("!join e 阿五", "!join f 阿六", "a: 设置 语言 en", "a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f")
PENGHU_EN = ("a: 设置 语言 en", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a")
SETTLED = (*ENGLISH, "e: win seven pairs from @f", "!clock +3m", "a: settle", "!clock +1m")


@pytest.mark.parametrize(
    ("setup", "line", "plain"),
    [
        (GOUJI_EN, "a: ranking @b @c @d @e @f revolution @a", "a: 名次 @b @c @d @e @f 革命 @a"),
        (PENGHU_EN, "b: I ponged c's tile", "b: 碰 点 @c"),
        (PENGHU_EN, "b: I ponged c’s discard", "b: 碰 点 @c"),
        (PENGHU_EN, "b: I swept", "b: 扫"),
        (PENGHU_EN, "b: I won off @c", "b: 胡 点 @c"),
        (PENGHU_EN, "b: pong off @c", "b: 碰 点 @c"),
        (PENGHU_EN, "b: pong off the wall", "b: 碰 摸"),
        (ENGLISH, "e: I won kawuxing from tom", "e: win closed five from @f"),
        (ENGLISH, "e: I won kawuxing from tom with a pong of 3s", "e: win closed five from @f pong 3s"),
        (ENGLISH, "f: I dealt in to amy, kawuxing", "f: 我点炮了 @e 卡五星"),
        (ENGLISH, "f: I dealt into @e seven pairs", "f: 我点炮了 @e 七对"),
        (SETTLED, "f: who still owes money?", "f: who owes"),
        (SETTLED, "f: what are the rules", "f: rules"),
        (SETTLED, "e: my stats", "e: stats me"),
        (SETTLED, "e: what did I win tonight", "e: how much did i win"),
    ],
)
def test_english_said_as_players_say_it_books_or_answers_as_its_command(
    sqlite_url: str, setup: tuple[str, ...], line: str, plain: str
) -> None:
    same_as(sqlite_url, setup, line, plain)


@pytest.mark.parametrize(
    ("setup", "line"),
    [(PENGHU_EN, "b: I swept the floor"), (ENGLISH, "f: I fed the cat"), (SETTLED, "e: my stats are bad")],
)
def test_those_words_said_of_other_things_stay_chat(sqlite_url: str, setup: tuple[str, ...], line: str) -> None:
    table = Table(sqlite_url, *setup)
    try:
        before = table.booked()
        assert table.say(line) == [] and table.booked() == before
    finally:
        table.ledger.close()


# ---------------------------------------------------------------------------------------- English in the replies


def test_a_ready_reply_names_it_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say("f: ready")[:2] == [
            "bot: Hand 1 recorded: Tom declares ready (亮倒)",
            "bot: Ready (亮倒) declared: Tom",
        ]
    finally:
        table.ledger.close()


def test_unsettle_refused_over_a_payment_names_the_english_commands(sqlite_url: str) -> None:
    table = Table(sqlite_url, *SETTLED, "f: paid @e", "!clock +1m")
    try:
        assert table.say("a: unsettle") == [
            "bot: Not taken back: payments recorded since count on this settlement: Tom paid Amy 4元. Take them back "
            "first (unpay), then unsettle."
        ]
    finally:
        table.ledger.close()


def test_leave_table_lists_the_winners_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "e: win seven pairs self-draw", "!clock +3m", "a: win seven pairs self-draw")
    try:
        asked = table.say("!clock +3m", "f: leave table")[0]
        assert "阿杰 and Amy's winnings too" in asked and "@a or @e presses “Agree”" in asked, asked
        assert asked.endswith("to keep it, anyone seated presses “Don't agree” or types disagree."), asked
        assert "、" not in asked
    finally:
        table.ledger.close()


@pytest.mark.parametrize(("line", "told"), [("f: paid @e all", "paid @e"), ("f: 付 @e 全部", "付 @e")])
def test_all_as_an_amount_says_the_line_without_one_pays_it_all(sqlite_url: str, line: str, told: str) -> None:
    table = Table(sqlite_url, *SETTLED)
    try:
        before = table.booked()
        word = line.split()[-1]
        assert table.say(line) == [f"bot: “{word}” is not an amount: leave it out, {told} is the whole of it."]
        assert table.booked() == before
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------ an evening, swept

#: an English evening at a 卡五星 table, from opening to paying, with the mistakes players make
EVENING = (
    "a: help",
    "a: help money",
    "a: rules",
    "f: concealed kong 3s",
    "e: exposed kong 9p from @f",
    "f: ready",
    "f: ready",
    "a: concealed kong east wind",
    "a: concealed kong 8z",
    "a: win seven pairs self-draw buy horse east wind",
    "f: win seven pairs from @e",
    "a: undo",
    "a: Undo it",
    "a: table",
    "e: win sevn pairs self-draw",
    "e: No",
    "e: win one suit self-draw",
    "a: draw",
    "a: balance",
    "a: settle",
    "f: paid @e all",
    "f: paid @e",
    "a: unsettle",
    "e: received @f",
    "a: who owes",
    "e: my stats",
    "a: history",
    "a: open @e @f dealer me",
    "e: win seven pairs self-draw",
    "a: win seven pairs self-draw",
    "f: leave table",
    "f: Agree",
    "e: Agree",
)
#: what an English reply may show in Chinese: a term's gloss in parentheses (`one suit (清一色)`), the seats' names,
#: and the group's money (元, and 角/分 as an amount may be typed)
GLOSS = re.compile(r"\([^()]*\)")
NAMES = ("阿杰", "小李", "老王", "小张")


def test_an_english_evening_replies_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        chinese = []
        for line in EVENING:
            for said in table.say("!clock +2m", line):
                shown = GLOSS.sub("", said.removeprefix("bot: [按钮]").removeprefix("bot: [提示]"))
                for allowed in (*NAMES, "元", "5角", "50分"):
                    shown = shown.replace(allowed, "")
                if CJK.search(shown):
                    chinese.append(said)
        assert chinese == []
    finally:
        table.ledger.close()


# ---------------------------------------------------------------------------------------- 碰胡's words, glossed

#: an English 碰胡 table of Amy (dealer), Ben, Cat and Dan
PENGHU_NAMED = (
    *(f"!join {user} {name}" for user, name in (("e", "Amy"), ("f", "Ben"), ("g", "Cat"), ("h", "Dan"))),
    "a: 设置 语言 en",
    "a: 设置 游戏 碰胡",
    "a: open @e @f @g @h dealer @e",
)
#: a Chinese word shown bare, without the English gloss that follows it in parentheses (`four of a kind (提蛇)`)
BARE_CHINESE = re.compile(r"[\u4e00-\u9fff]+(?![\u4e00-\u9fff]|\s*\()")


@pytest.mark.parametrize(
    ("lines", "shown"),
    [
        (("f: 提蛇 at the deal",), "bot: Hand 1 recorded: Ben four of a kind (提蛇), at the deal"),
        (("g: pong from @e", "g: 跑起 from @e"), "bot: Hand 1 recorded: Cat run-up (跑起), from Amy (one pays)"),
        (("f: 过扫",), "bot: Hand 1 recorded: Ben passed sweep (过扫)"),
        (
            ("e: pong from @g", "e: win from @g 中庄 跑起"),
            "bot: Hand 1: Amy wins (胡), from Cat (one pays), the dealer's repeat win (中庄), run-up win (跑起胡)",
        ),
        (
            ("f: pong from @h", "f: sweep", "f: pong from @g", "f: sweep", "f: 报警", "f: 五福 from @h"),
            "bot: Hand 1: Ben five-fortune win (五福), from Dan (one pays)",
        ),
    ],
)
def test_an_english_penghu_reply_glosses_each_chinese_word(sqlite_url: str, lines: tuple[str, ...], shown: str) -> None:
    """As `报警 (alarm)`: the Chinese word kept (players type it) and its English after it, never a bare term."""
    table = Table(sqlite_url, *PENGHU_NAMED)
    try:
        replies = [said for line in lines for said in table.say("!clock +1m", line)]
        assert shown in replies, replies
        records = [said for said in replies if said.startswith("bot: Hand 1") or "called:" in said]
        assert [said for said in records if BARE_CHINESE.search(GLOSS.sub("()", said))] == []
    finally:
        table.ledger.close()


def test_english_penghu_help_glosses_its_chinese_words(sqlite_url: str) -> None:
    table = Table(sqlite_url, *PENGHU_NAMED)
    try:
        assert "bot: pong from @c | sweep | 跑起 from @c (a run-up) — recorded as they happen" in table.say("e: help")
        shown = "\n".join(table.say("e: help record"))
        glosses = ("four of a kind (提蛇)", "a five-fortune win (五福)", "the alarm (报警)", "中庄 self-drawn (")
        for glossed in glosses:
            assert glossed in shown
    finally:
        table.ledger.close()
