"""What English-speaking players typed through a 卡五星 night, a 够级 round and a 碰胡 hand and got no reply, bare
Chinese, or a Chinese line to send back for: laughter after a record (`concealed kong 3s lmao`), whose turn it is
and who is up (`whose turn to deal?`, `who's up?`), what one person owes the sender (`how much does Tom owe me?`),
够级's revolution (革命) and failed burns (烧牌) said without their round, English places (`last`, `1st @a`), and a
base stake (底金) refused."""

from __future__ import annotations

import re

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from tests.bot.test_english_patterns import ENGLISH
from tests.bot.test_gouji_places import said
from tests.bot.test_player_first import Table, same_as

#: Chinese left in an English reply once every gloss in parentheses and the currency (元) are taken out
GLOSSED = re.compile(r"\([^()]*\)|元")
CJK = re.compile(r"[\u4e00-\u9fff]")


def bare_chinese(lines: list[str]) -> list[str]:
    return [line for line in lines if CJK.search(GLOSSED.sub("", line)) and not line.startswith("bot: [按钮]")]


# ------------------------------------------------------------------------------------------------ laughter


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("e: concealed kong 3s lmao", "e: concealed kong 3s"),
        ("e: concealed kong 3s hahaha", "e: concealed kong 3s"),
        ("e: concealed kong 3s lolol", "e: concealed kong 3s"),
        ("e: concealed kong 3s LOL 😂", "e: concealed kong 3s"),
        ("e: added kong 4p hehe", "e: added kong 4p"),
        ("e: win one suit self-draw lol", "e: win one suit self-draw"),
        ("e: win one suit from @f haha", "e: win one suit from @f"),
    ],
)
def test_english_laughter_after_a_record_is_dropped_as_haha_is(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


def test_chinese_laughter_after_an_english_record_is_dropped_too(sqlite_url: str) -> None:
    same_as(sqlite_url, ENGLISH, "e: concealed kong 3s 哈哈哈", "e: concealed kong 3s")


# ------------------------------------------------------------------------------------------------ questions


@pytest.mark.parametrize(
    "line", ["a: whose turn to deal?", "a: whose turn is it", "a: who's next?", "a: Who’s next", "a: who deals next"]
)
def test_whose_turn_asked_in_english_shows_the_table_and_its_dealer(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, ENGLISH, line, "a: table")


@pytest.mark.parametrize("line", ["a: who's up?", "a: whos up", "a: who is ahead?", "a: who's down?"])
def test_who_is_up_asked_in_english_gives_the_standings(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, (*ENGLISH, "e: concealed kong 3s"), line, "a: who's winning?")


SETTLED = (*ENGLISH, "a: win one suit self-draw", "a: settle")


@pytest.mark.parametrize(
    "line",
    [
        "a: how much does Tom owe me?",
        "a: how much does tom owe me",
        "a: What does @f owe me?",
        "a: how much does tom still owe me",
    ],
)
def test_what_one_player_owes_the_sender_asked_in_english(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, SETTLED, line, "a: Tom欠我多少")
    table = Table(sqlite_url, *SETTLED)
    try:
        assert table.say(line)[-1] == "bot: Not paid yet: Tom owes 阿杰 4元"
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: how much does he owe me?", "a: how much does the bank owe me"])
def test_owed_by_nobody_at_the_table_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *SETTLED)
    try:
        assert table.say(line) == []
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------------ 够级

PLAYERS = ("a Tom", "b Ben", "c Cat", "d Dan", "e Eve", "f Fay")


@pytest.fixture
def gouji(bot: tuple[Bot, ManualClock]) -> Console:
    """An English group's 够级 table of six: Tom (a, an admin), Ben, Cat, Dan, Eve, Fay."""
    console = Console(*bot)
    for line in ("!admin a", *(f"!join {who}" for who in PLAYERS), "a: 设置 游戏 够级", "a: 设置 语言 en"):
        console.feed(line)
    console.feed("a: open @a @b @c @d @e @f")
    return console


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (
            "a: revolution @e",
            "bot: Not recorded: revolution (革命) goes in a round's line, and the other five players' order is "
            "missing. Name them in the order they went out (1st first), revolution after revolution: order @a @d "
            "@c @f @b revolution Eve",
        ),
        (
            "a: revolution @e @f",
            "bot: Not recorded: revolution (革命) goes in a round's line. Two or more revolutions void the round "
            "(not scored); if Eve, Fay all declared revolution, send: order revolution Eve Fay",
        ),
        (
            "a: 革命 @e @f",
            "bot: Not recorded: revolution (革命) goes in a round's line. Two or more revolutions void the round "
            "(not scored); if Eve, Fay all declared revolution, send: order revolution Eve Fay",
        ),
        (
            "a: failed burn @e",
            "bot: Not recorded: failed burns (烧牌) go in a round's line: those who went out in order, then the "
            "failed burns after failed burn in the order they failed: order @a @d @c @f failed burn Eve",
        ),
        (
            "a: 烧牌 @e",
            "bot: Not recorded: failed burns (烧牌) go in a round's line: those who went out in order, then the "
            "failed burns after failed burn in the order they failed: order @a @d @c @f failed burn Eve",
        ),
    ],
)
def test_a_mark_without_its_round_is_answered_in_english_with_the_english_line(
    gouji: Console, line: str, reply: str
) -> None:
    assert said(gouji, line) == [reply]


@pytest.mark.parametrize("line", ["a: revolution", "a: revolution!", "a: burn it", "a: revolution @e tonight"])
def test_the_english_mark_words_alone_or_with_talk_stay_chat(gouji: Console, line: str) -> None:
    assert said(gouji, line) == []


def test_the_line_a_refusal_gives_books_the_round(gouji: Console) -> None:
    assert said(gouji, "a: order revolution Eve Fay")[0] == (
        "bot: Hand 1 (Gouji 够级): void, nothing scores (Eve, Fay declared revolution (革命): a round with two or more "
        "is void)"
    )
    gouji.feed("!clock +5m")
    burnt = said(gouji, "b: order @a @d @c @f failed burn @e @b")
    assert burnt[:2] == [
        "bot: Hand 2 (Gouji 够级): 1st Tom, 2nd Dan, 3rd Cat, 4th Fay, 5th Ben, 6th Eve",
        "bot: Failed burns (烧牌失败): Eve, Ben",
    ]


@pytest.mark.parametrize(
    "line", ["a: order 1st @b 2nd @a @c @d @e @f", "a: order first ben second tom cat dan eve fay"]
)
def test_places_typed_in_english_before_their_names(gouji: Console, line: str) -> None:
    assert said(gouji, line)[0] == "bot: Hand 1 (Gouji 够级): 1st Ben, 2nd Tom, 3rd Cat, 4th Dan, 5th Eve, 6th Fay"


@pytest.mark.parametrize(("line", "who"), [("a: I'm last", "Tom"), ("a: me last", "Tom"), ("a: ben last", "Ben")])
def test_last_said_in_english_is_the_last_place(gouji: Console, line: str, who: str) -> None:
    assert said(gouji, line)[1] == f"bot: Places: 6th {who} (said by {'them' if who == 'Tom' else 'Tom'})"


def test_last_alone_goes_into_waiting_buttons_and_is_chat_without_them(gouji: Console) -> None:
    assert said(gouji, "c: last") == []
    said(gouji, "a: I'm 1st")
    assert said(gouji, "c: last")[-1] == "bot: Added to the place buttons above: Cat 6th."


def test_the_round_buttons_speak_english(gouji: Console) -> None:
    shown = said(gouji, "a: order")
    assert "bot: [按钮] Revolution… | Failed burn…" in shown
    assert bare_chinese(said(gouji, "a: !press Revolution…")) == []


@pytest.mark.parametrize(
    "line", ["a: 串三户", "a: tribute", "a: 进贡", "a: order @a @b @c @d @e @f @a", "a: order @a @b @c", "a: order 1st"]
)
def test_gouji_refusals_in_english_leave_no_bare_chinese(gouji: Console, line: str) -> None:
    replies = said(gouji, line)
    assert replies and bare_chinese(replies) == []


# ------------------------------------------------------------------------------------------------ 底金


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("a: 设置 底金 0", "bot: base stake (底金) cannot be “0”; allowed: > 0"),
        ("a: config base 0", "bot: base stake cannot be “0”; allowed: > 0"),
        ("a: config base abc", "bot: base stake cannot be “abc”: write an amount like 2 or 0.5"),
        ("a: 设置 底金 abc", "bot: base stake (底金) cannot be “abc”: write an amount like 2 or 0.5"),
        (
            "a: config game mahjong",
            "bot: game cannot be “mahjong”; allowed: kawuxing (卡五星), gouji (够级), penghu (碰胡)",
        ),
    ],
)
def test_a_setting_refused_in_english_names_it_in_english(sqlite_url: str, line: str, reply: str) -> None:
    table = Table(sqlite_url, "a: 设置 语言 en")
    try:
        assert table.say(line) == [reply]
    finally:
        table.ledger.close()


def test_a_setting_refused_in_chinese_stays_as_typed(sqlite_url: str) -> None:
    table = Table(sqlite_url)
    try:
        assert table.say("a: 设置 底金 0") == ["bot: 底金 不能设成「0」，可选：> 0"]
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------------------ 碰胡

PENGHU = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: 设置 游戏 碰胡", "a: open @a @b @e @f dealer me")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("e: I swept haha", "e: I swept"),
        ("e: I swept lmao", "e: I swept"),
        ("e: I ponged tom's tile lol", "e: I ponged tom's tile"),
    ],
)
def test_laughter_after_an_english_penghu_record_told_done(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, PENGHU, line, plain)


@pytest.mark.parametrize("line", ["e: 跑起 from @f", "e: 过扫", "e: 提蛇", "e: 报警", "e: sweep at the deal"])
def test_penghu_replies_in_english_gloss_their_chinese_words(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *PENGHU, "f: pong from @e")
    try:
        replies = table.say(line)
        typed_back = "过扫 [|]|跑起 from|提蛇 at|At four: "  # the Chinese words a reply gives to be typed
        shown = [re.sub("阿杰|小李", "", r) for r in replies if not re.search(typed_back, r)]
        assert replies and bare_chinese(shown) == []
    finally:
        table.ledger.close()
