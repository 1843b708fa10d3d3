"""An English group types back the names the bot's replies give 卡五星's words — `seven pairs (七对)`, `a self-draw`,
`concealed kong (暗杠)`, `7z = red dragon` — and each reads as the Chinese word it glosses, whatever its case,
hyphens and spaces (`Seven-Pairs`, `self drawn`). A 「Did you mean」 whose guess leaves a word out names it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.commands._money_texts import REASON_EN
from bot.grammar import GrammarError, closest_reading, english_names, left_out, parse_win, read
from bot.texts import describe_event, kong_name, pattern_name, text
from bot.vocabulary import DRAGON_NAMES_EN, KONG_NAMES_EN, METHOD_NAMES_EN
from ledger.scoring.kawuxing.patterns import KONG_KINDS, PATTERNS
from tests.bot.test_player_first import Table, same_as

ENGLISH = ("!admin a", "a: 设置 语言 en", "a: 开桌 @a @b @c 庄 @a")
#: a name and the Chinese it glosses, as the replies write them: `seven pairs (七对)`, `self-draw (自摸)`
_GLOSSED = re.compile(r"^(?P<english>[a-z' -]+) \((?P<chinese>[\u4e00-\u9fff]+)\)$")


def _meaning(line: str) -> list[tuple[str, str]]:
    return [(word.kind, word.value) for word in read(line)]


def _glossed(shown: str) -> tuple[str, str]:
    match = _GLOSSED.match(shown)
    assert match is not None, shown
    return match["english"], match["chinese"]


def _printed_glosses() -> Iterator[str]:
    """Every `english (中文)` the replies print for a 卡五星 pattern, situation, kong or way of winning."""
    for pattern in PATTERNS:
        yield pattern_name("en", pattern.key)
    for kind in KONG_KINDS:
        yield kong_name("en", kind)
    for reason in ("angang", "xugang", "zhigang", "zimo", "dianpao", "qiangganghu"):
        yield REASON_EN[reason]


@pytest.mark.parametrize("shown", sorted(set(_printed_glosses())))
def test_every_english_name_the_bot_prints_reads_as_the_word_it_glosses(shown: str) -> None:
    english, chinese = _glossed(shown)
    assert _meaning(english) == _meaning(chinese) != [("unknown", english)]


def test_the_names_printed_without_a_gloss_read_back() -> None:
    self_draw = describe_event("en", {"type": "hu", "winner": "a", "method": "self_draw"})
    assert self_draw == "a self-draw" and _meaning("self-draw") == _meaning("自摸")
    for method, name in METHOD_NAMES_EN.items():  # a refusal's `won self-drawn`, `on a discard`
        assert _meaning(name) == [("method", method)]
    colours = "/".join(DRAGON_NAMES_EN[tile] for tile in sorted(DRAGON_NAMES_EN))
    assert f"5z/6z/7z = {colours} dragon" in text("en", "help_tail")
    for tile, colour in DRAGON_NAMES_EN.items():
        assert _meaning(f"{colour} dragon") == [("tiles", tile)]
    assert _meaning("pong 3s") == _meaning("碰 3s")
    assert _meaning("plain win") == _meaning("屁胡")
    assert set(KONG_NAMES_EN) == set(KONG_KINDS)


def test_every_name_in_the_table_means_a_word_of_the_vocabulary() -> None:
    assert all(kind != "unknown" for kind, _value in english_names().values())


@pytest.mark.parametrize(
    ("typed", "chinese"),
    [
        ("Seven Pairs", "七对"),
        ("seven-pairs", "七对"),
        ("SEVEN-PAIRS", "七对"),
        ("self-draw", "自摸"),
        ("self draw", "自摸"),
        ("self drawn", "自摸"),
        ("Self-Drawn", "自摸"),
        ("seven pairs with a four", "龙七对"),
        ("seven pairs with two fours", "双龙七对"),
        ("win on a kong's replacement", "杠上开花"),
        ("win on a kong’s replacement", "杠上开花"),
        ("red dragon", "红中"),
        ("Concealed Kong", "暗杠"),
        ("robbing a kong", "抢杠"),
    ],
)
def test_an_english_name_reads_whatever_its_case_hyphens_and_spaces(typed: str, chinese: str) -> None:
    assert _meaning(typed) == _meaning(chinese)


def test_the_longest_name_wins_and_names_sit_among_other_words() -> None:
    assert _meaning("one suit seven pairs with a four self drawn") == _meaning("清一色 龙七对 自摸")
    win = parse_win("seven pairs from @b", "a", {"@b": "b"}.get)
    assert [(w.winner, w.patterns, w.method, w.discarder) for w in win] == [("a", ["qidui"], "discard", "b")]


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: win seven pairs self-draw", "a: 胡 七对 自摸"),
        ("a: seven pairs zimo", "a: 胡 七对 自摸"),
        ("a: I won! seven pairs self drawn", "a: 胡 七对 自摸"),
        ("b: i won one suit from @c", "b: 胡 清一色 点 @c"),
        ("a: concealed kong red dragon", "a: 暗杠 7z"),
    ],
)
def test_an_english_group_types_the_names_back(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


@pytest.mark.parametrize("line", ["a: I won the raffle", "a: seven pairs are hard", "a: one suit is nice"])
def test_english_chat_that_starts_like_a_record_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        assert table.say(line) == [] and table.booked() == before
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------------- what a guess leaves out


def test_a_guess_that_leaves_words_out_names_every_one_of_them(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        out = table.say("a: win sevn pairs self-draw")
        assert out[0] == "bot: Could not read “sevn pairs”: left out. Did you mean: win self-draw?", out
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_a_chinese_guess_names_what_it_leaves_out_and_a_correction_stays_as_it_was(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    try:
        assert table.say("a: 暗杠 3s 好运")[0] == "bot: 没看懂「好运」，不算在内。是不是：暗杠 3s？"
        assert table.say("b: 胡 清一涩 自摸")[0] == "bot: 没看懂「清一涩」。是不是：胡 清一色 自摸？"
        both = "bot: 没看懂「清一涩」。没看懂「haha」，不算在内。是不是：胡 清一色 自摸？"
        assert table.say("c: 胡 清一涩 haha 自摸")[0] == both
    finally:
        table.ledger.close()


def test_left_out_names_the_words_the_closest_reading_drops_and_none_it_corrects() -> None:
    with pytest.raises(GrammarError) as err:
        parse_win("清一涩 sevn pairs 自摸", "a", {}.get)
    assert left_out(err.value.reading) == ["sevn", "pairs"]
    assert [w.canonical() for w in closest_reading(err.value.reading) or []] == ["清一色", "自摸"]
