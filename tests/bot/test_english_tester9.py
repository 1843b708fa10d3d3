"""What a play-tester of an English group met: an English tile 卡五星 has not (`concealed kong east wind`) offered
as a guess that dropped it, and a guess that dropped a person or a number."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")


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
