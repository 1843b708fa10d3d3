"""够级 in English: the 名次 buttons' typed answers, in the words their English labels use (`1st` … `6th`).

In a Chinese group a player types their place (`我头科`, `小张 二科`) and it goes into the round's buttons (or starts
them); an English group's `I'm 1st`, `Ben 2nd` got no answer. They are the same answers now, read where the group
reads English: `I'm 1st` (`I am 1st`, `me 1st`, `1st me`, `I was 1st`), `Ben 2nd` (`@b 2nd`, `Ben is 2nd`,
`2nd Ben`); in a Chinese group such a line stays chat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger
from tests.bot.test_gouji_places import rows, said

PLAYERS = ("a Tom", "b Ben", "c Cat", "d Dan", "e Eve", "f Fay")
SETUP = (
    "!admin a",
    *(f"!join {who}" for who in PLAYERS),
    "a: 设置 游戏 够级",
    "a: 设置 语言 en",
    "a: open @a @b @c @d @e @f",
)


@pytest.fixture
def console(sqlite_url: str) -> Iterator[Console]:
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        for line in SETUP:
            console.feed(line)
        yield console
    finally:
        ledger.close()


@pytest.mark.parametrize(
    ("line", "place", "next_out"),
    [
        ("c: I'm 1st", "1st", 2),
        ("c: im 1st", "1st", 2),
        ("c: I am 1st", "1st", 2),
        ("c: me 1st", "1st", 2),
        ("c: 1st me", "1st", 2),
        ("c: I was 1st!", "1st", 2),
        ("c: I'm 2nd", "2nd", 1),
        ("c: I'm 6th", "6th", 1),
    ],
)
def test_ones_own_place_starts_the_buttons_with_them_there(
    console: Console, line: str, place: str, next_out: int
) -> None:
    assert said(console, line)[:3] == [
        "bot: Record hand 1: tap the players in the order they went out",
        f"bot: Places: {place} Cat (said by them)",
        f"bot: Who went out next (number {next_out})?",
    ]


@pytest.mark.parametrize("line", ["a: Ben 2nd", "a: @b 2nd", "a: ben is 2nd", "a: 2nd Ben", "a: 2nd is @b"])
def test_a_place_told_by_name_goes_into_the_waiting_buttons(console: Console, line: str) -> None:
    said(console, "c: I'm 1st")
    added = said(console, line)
    assert added[1] == "bot: Places: 1st Cat (said by them), 2nd Ben (said by Tom)"
    assert added[-1] == "bot: Added to the place buttons above: Ben 2nd."


def test_a_round_filled_by_typed_english_places(console: Console) -> None:
    for line in ("c: I'm 1st", "b: me 2nd", "f: I was 6th", "a: Eve 3rd", "a: 4th Tom"):
        said(console, line)
    assert console.feed("a: !press Confirm")[1] == (
        "bot: Hand 1 (Gouji 够级): 1st Cat, 2nd Ben, 3rd Eve, 4th Tom, 5th Dan, 6th Fay"
    )


@pytest.mark.parametrize("line", ["c: I'm 1st in line", "c: me 1st?", "c: I'm 7th", "a: Bob 2nd", "c: 1st"])
def test_other_lines_stay_chat(console: Console, line: str) -> None:
    before = rows(console)
    assert said(console, line) == []
    assert rows(console) == before


def test_in_a_chinese_group_it_stays_chat(console: Console) -> None:
    said(console, "a: 设置 语言 zh")
    before = rows(console)
    assert said(console, "c: I'm 1st") == [] and said(console, "a: Ben 2nd") == []
    assert rows(console) == before


def test_help_names_the_place_told_by_name(console: Console) -> None:
    """`gouji_place`'s help said only the first person (`我头科`); `小张 头科` (`Ben 2nd`) fills the buttons too."""
    assert "Ben 2nd" in said(console, "a: help 我头科")[0] and "I'm 1st" in said(console, "a: help 我头科")[0]
    said(console, "a: 设置 语言 zh")
    assert "小张 头科" in said(console, "a: 帮助 我头科")[0]
