"""Lines English speakers type at an English group's table that a play-tester found unanswered (the player
believed them booked): a win told the English way (`I won seven pairs off tom`, `ben won seven pairs self drawn`,
`7 pairs zimo`), `I'm ready`, `I konged 9p from ben`, payments (`I paid @ben 4`, `received 4 from @tom`, `tom paid me
4`), the night's questions (`standings`, `who do I pay`) and `undo that`. Each books what its plain form books, with
the same reply; a win without its way is asked about, as `我胡了 七对` is; English chat stays chat."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.grammar import english_payment, read
from tests.bot.test_player_first import Table, same_as
from tests.conftest import _copy_sqlite

#: 阿杰 (a, admin), Amy (e) and Tom (f) at an English table
ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")


def _meaning(line: str) -> list[tuple[str, str]]:
    seats = {"tom": "Tom", "amy": "Amy", "me": "阿杰"}
    return [(word.kind, word.value) for word in read(line, lambda typed: seats.get(typed.lower()))]


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: I won seven pairs off tom", "a: 胡 七对 点 @f"),
        ("a: I won seven pairs off @f", "a: 胡 七对 点 @f"),
        ("a: I won kawuxing off tom", "a: 胡 卡五星 点 @f"),
        ("a: won off tom kawuxing", "a: 胡 卡五星 点 @f"),
        ("a: I won seven pairs, tom discarded", "a: 胡 七对 点 @f"),
        ("a: I won seven pairs, Amy dealt in", "a: 胡 七对 点 @e"),
        ("a: I won seven pairs on tom's discard", "a: 胡 七对 点 @f"),
        ("a: I won seven pairs from Tom’s discard", "a: 胡 七对 点 @f"),
        ("a: I won seven pairs on a discard from tom", "a: 胡 七对 点 @f"),
        ("a: amy won seven pairs self drawn", "a: 胡 @e 七对 自摸"),
        ("a: Amy won seven pairs self drawn", "a: 胡 @e 七对 自摸"),
        ("a: @e won seven pairs self drawn", "a: 胡 @e 七对 自摸"),
        ("f: Amy won seven pairs from me", "f: 胡 @e 七对 点 @f"),
        ("a: I won seven pairs and one suit self drawn", "a: 胡 七对 清一色 自摸"),
        ("a: I won seven pairs + one suit self drawn", "a: 胡 七对 清一色 自摸"),
        ("a: I won 7 pairs self drawn", "a: 胡 七对 自摸"),
        ("a: 7 pairs zimo", "a: 胡 七对 自摸"),
        ("a: I won seven pairs selfdrawn", "a: 胡 七对 自摸"),
        ("a: I won seven pairs by self draw", "a: 胡 七对 自摸"),
        ("a: I won with seven pairs self drawn", "a: 胡 七对 自摸"),
        ("a: Won! seven pairs, self drawn", "a: 胡 七对 自摸"),
        ("a: I self drew seven pairs", "a: 胡 七对 自摸"),
        ("a: I won a plain hand self drawn", "a: 胡 屁胡 自摸"),
        ("a: I won pure one suit self drawn", "a: 胡 清一色 自摸"),
        ("a: I won full flush self drawn", "a: 胡 清一色 自摸"),
        ("a: I'm ready", "a: 亮倒"),
        ("a: I’m ready", "a: 亮倒"),
        ("a: I konged 9p from tom", "a: 直杠 9p 点 @f"),
    ],
)
def test_an_english_win_kong_or_ready_books_as_its_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


@pytest.mark.parametrize("line", ["a: I won seven pairs", "a: won seven pairs", "a: I won kawuxing and one suit"])
def test_an_english_win_without_its_way_is_asked_how_as_chinese_is(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        asked = table.say(line)
        assert asked and asked[0].startswith("bot: How did 阿杰 win? Add self-drawn, from @someone"), asked
        assert table.booked() == before
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: Tom dealt in, I won seven pairs", "a: 胡 七对 点 @f"),
        ("a: tom discarded, I won seven pairs", "a: 胡 七对 点 @f"),
        ("a: @f fed me, I just won 7 pairs", "a: 胡 七对 点 @f"),
        ("a: Tom dealt it in. I won seven pairs", "a: 胡 七对 点 @f"),
        ("a: tom dealt in to amy, seven pairs", "a: 胡 @e 七对 点 @f"),
        ("f: Amy dealt into @a seven pairs", "f: 胡 @a 七对 点 @e"),
        ("a: tom discarded, I won plain win", "a: 胡 屁胡 点 @f"),
    ],
)
def test_an_english_win_told_discarder_first_books_as_its_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    """As `小李点炮 我胡了 七对` is `我胡了 七对 点 小李` (a plain win on a discard: the group's refusal)."""
    same_as(sqlite_url, ENGLISH, line, plain)


def test_a_plain_win_told_discarder_first_is_refused_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        refused = table.say("a: tom discarded, I won plain win")
        assert refused and "a plain win (屁胡, ×1) must be self-drawn" in refused[0], refused
        assert table.booked() == before
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    "line",
    [
        "a: I won the raffle",
        "a: Tom dealt in, nice",
        "a: tom discarded his 3s, I won",
        "a: tom fed the cat, I won seven pairs",
        "a: won the game lol",
        "a: won",
        "a: I'm ready to go",
        "a: I’m ready!",
        "a: seven pairs are hard",
        "a: full flush is rare",
    ],
)
def test_english_chat_like_those_lines_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.booked()
        assert table.say(line) == [] and table.booked() == before
    finally:
        table.ledger.close()


def test_english_said_in_more_words_reads_as_the_words_it_means() -> None:
    assert _meaning("seven pairs on tom's discard") == _meaning("七对 点 tom")
    assert _meaning("kawuxing, amy dealt in") == _meaning("卡五星 amy 点炮")
    assert _meaning("7pairs + Full Flush by self draw") == _meaning("七对 清一色 自摸")
    assert _meaning("with a plain hand") == _meaning("屁胡")


# ------------------------------------------------------------------------------------------ after the settlement


@pytest.fixture
def apart_url(_sqlite_template: Path, tmp_path: Path) -> str:
    """A second database: a night's numbers and the settlement post's example (`or type: received @f`, which reads
    the payments of the database's other chats too) differ between two chats of one database."""
    apart = tmp_path / "apart"
    apart.mkdir()
    return _copy_sqlite(_sqlite_template, apart)


def _same_apart(url: str, other_url: str, setup: tuple[str, ...], line: str, plain: str) -> None:
    """`same_as`, each table in a database of its own."""
    told, typed = Table(url, *setup), Table(other_url, *setup)
    try:
        assert told.say(line) == typed.say(plain)
        assert told.booked() == typed.booked()
    finally:
        told.ledger.close()
        typed.ledger.close()


#: Amy won 8: 阿杰 and Tom owe her 4 each, settled
SETTLED = (*ENGLISH, "e: I won seven pairs self drawn", "!clock +3m", "a: settle")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("f: I paid @e 4", "f: paid @e 4"),
        ("f: just paid amy 4", "f: paid amy 4"),
        ("f: paid @e $4", "f: paid @e 4"),
        ("f: paid @e 4 bucks", "f: paid @e 4"),
        ("f: paid @e 4 yuan", "f: paid @e 4"),
        ("f: paid 4 to @e", "f: paid @e 4"),
        ("e: received 4 from @f", "e: received @f 4"),
        ("e: received from tom 4", "e: received tom 4"),
        ("e: got @f 4", "e: received @f 4"),
        ("e: tom paid me 4", "e: received tom 4"),
        ("e: @f paid me 4", "e: received @f 4"),
    ],
)
def test_an_english_payment_books_as_its_plain_form(sqlite_url: str, apart_url: str, line: str, plain: str) -> None:
    _same_apart(sqlite_url, apart_url, SETTLED, line, plain)


@pytest.mark.parametrize("line", ["e: got home", "e: got", "e: tom paid me a visit", "e: got it, thanks"])
def test_english_chat_after_the_settlement_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *SETTLED)
    try:
        before = table.booked()
        assert table.say(line) == [] and table.booked() == before
    finally:
        table.ledger.close()


def test_english_payment_words_read_as_a_payment_reads_them() -> None:
    assert english_payment(["4", "from", "@tom"]) == ["@tom", "4"]
    assert english_payment(["@ben", "$4"]) == ["@ben", "4"]
    assert english_payment(["@ben", "4", "bucks"]) == ["@ben", "4"]
    assert english_payment(["@ben", "4yuan"]) == ["@ben", "4"]
    assert english_payment(["@老王", "8", "块"]) == ["@老王", "8", "块"]


#: payment words with no Latin letter and no `$`: as a Chinese group types them
_CHINESE_WORDS = st.lists(
    st.text(alphabet="@付收到转给小李老王块元角分了0123456789.", min_size=1, max_size=6), max_size=5
)


@given(_CHINESE_WORDS)
def test_english_payment_leaves_words_without_english_as_typed(words: list[str]) -> None:
    assert english_payment(words) == words


# ------------------------------------------------------------------------------------------ questions and undo


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("f: who do I pay", "f: who do i owe"),
        ("f: standings", "f: score"),
        ("f: scores", "f: score"),
        ("f: what's the score", "f: score"),
        ("f: balances", "f: score"),
        ("f: how am I doing", "f: my balance"),
        ("a: let's settle", "a: settle"),
        ("a: ok settle up", "a: settle"),
    ],
)
def test_an_english_question_or_settle_answers_as_its_plain_form(
    sqlite_url: str, apart_url: str, line: str, plain: str
) -> None:
    _same_apart(sqlite_url, apart_url, (*ENGLISH, "e: I won seven pairs self drawn", "!clock +3m"), line, plain)


@pytest.mark.parametrize("line", ["a: undo that", "a: undo pls", "a: undo last", "a: Undo it please"])
def test_undo_with_a_word_after_it_takes_back_the_latest_record(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, (*ENGLISH, "a: concealed kong 3s"), line, "a: undo")


def test_undo_last_hand_still_voids_the_hand_last_finished(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "e: I won seven pairs self drawn", "!clock +3m", "a: concealed kong 3s")
    try:
        asked = table.say("a: undo last hand")
        assert asked and "hand 1" in asked[0], asked
    finally:
        table.ledger.close()
