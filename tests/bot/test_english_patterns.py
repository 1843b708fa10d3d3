"""The single English words players type for 卡五星's patterns in a win line (`won flush self drawn`, `flush off
tom`, `all triplets`): each reads as the name the bot's replies give it (`one suit (清一色)` is what `flush` books),
so a line told so books what the reply's own name books."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: won flush self drawn", "a: win one suit self-draw"),
        ("a: flush self drawn", "a: win one suit self-draw"),
        ("a: flush off tom", "a: win one suit from @f"),
        ("a: I won flush off Tom", "a: win one suit from @f"),
        ("a: Flush zimo", "a: win one suit self-draw"),
        ("a: won flush and seven pairs self drawn", "a: win one suit seven pairs self-draw"),
        ("a: won all triplets self drawn", "a: win all pungs self-draw"),
        ("a: won small three dragons self drawn", "a: win little three dragons self-draw"),
        ("a: won seven pair self drawn", "a: win seven pairs self-draw"),
    ],
)
def test_an_english_pattern_word_books_as_the_name_the_replies_give(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ENGLISH, line, plain)


@pytest.mark.parametrize("line", ["a: flush!", "a: flush", "a: flush is hard", "a: flush the toilet"])
def test_flush_said_as_chat_stays_chat(sqlite_url: str, line: str) -> None:
    stays_chat(sqlite_url, line)


def stays_chat(sqlite_url: str, line: str) -> None:
    """`line` at an English group's open table gets no reply and books nothing."""
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say(line) == []
        assert table.booked()[1] == []
    finally:
        table.ledger.close()
