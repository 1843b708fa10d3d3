"""What an English-speaking player typed through an evening in the console and got no reply, or Chinese, for: a
draw told as the reply names it (`drawn hand`, `nobody won`), who deals (`who's the dealer?`), the situations'
names after the win word (`win on a kong's replacement …`), and the 「是不是」 question, which shows its line in the
English the group reads back."""

from __future__ import annotations

import re

import pytest

from tests.bot.test_english_patterns import stays_chat
from tests.bot.test_player_first import Table, same_as

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize(
    "line", ["a: drawn", "a: Drawn hand", "a: nobody won", "a: no winner", "a: draw game", "a: drawn hand lol"]
)
def test_a_draw_told_in_english_books_as_draw(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, ENGLISH, line, "a: draw")


@pytest.mark.parametrize("line", ["a: no winner!", "a: drawn out", "a: nobody won?", "a: drawn hand lol?"])
def test_draw_words_said_with_more_stay_chat(sqlite_url: str, line: str) -> None:
    stays_chat(sqlite_url, line)


@pytest.mark.parametrize(
    "line", ["a: who's the dealer?", "a: Who is the dealer", "a: what hand are we on?", "a: which hand"]
)
def test_who_deals_asked_in_english_shows_the_table(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, ENGLISH, line, "a: table")


@pytest.mark.parametrize(
    ("setup", "line", "plain"),
    [
        (("e: concealed kong 3s",), "e: win on a kong's replacement one suit self-draw", "e: 胡 杠上开花 清一色 自摸"),
        (("e: exposed kong 3s from @f",), "e: win on a kong's replacement self drawn", "e: 胡 杠上开花 自摸"),
        (("f: concealed kong 3s",), "a: win on the discard after a kong one suit from @f", "a: 胡 杠上炮 清一色 点 @f"),
    ],
)
def test_a_situation_named_after_the_win_word_reads_as_its_name(
    sqlite_url: str, setup: tuple[str, ...], line: str, plain: str
) -> None:
    """The replies name 杠上开花 `win on a kong's replacement`: typed after `win`, the name less its `win`."""
    same_as(sqlite_url, (*ENGLISH, *setup, "!clock +3m"), line, plain)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("a: win sevn pairs self-draw", "Did you mean: win self-draw?"),
        ("a: tsumo", "Did you mean: win plain win self-draw?"),
        ("a: win seven pairs from @e oops", "Did you mean: win seven pairs from @e?"),
        ("a: win one suit self-draw x", "Did you mean: win one suit self-draw?"),
        ("a: 我点炮了 @e 清一涩", "Did you mean: win @e one suit from me?"),
    ],
)
def test_did_you_mean_shows_english_that_reads_back_as_the_tap_books(sqlite_url: str, line: str, shown: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        asked = table.say(line)
        assert asked[0].endswith(shown), asked
        assert not CJK.search(asked[0].split("Did you mean:")[1]), asked  # the typed word quoted may be Chinese
    finally:
        table.ledger.close()
    typed = shown.removeprefix("Did you mean: ").removesuffix("?")
    tapped, told = Table(sqlite_url, *ENGLISH, line), Table(sqlite_url, *ENGLISH)
    try:
        tapped.say("a: Yes, book it")
        told.say(f"a: {typed}")
        assert tapped.booked() == told.booked()
        assert tapped.booked()[1], "nothing booked"
    finally:
        tapped.ledger.close()
        told.ledger.close()


@pytest.mark.parametrize("line", ["a: kong 4s", "a: tsumo"])
def test_english_asks_name_no_chinese_words(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        said = [s for s in table.say(line) if not s.startswith("bot: [按钮]")]
        assert said and not any(CJK.search(s) for s in said), said
    finally:
        table.ledger.close()


SETTLED = (*ENGLISH, "a: win seven pairs self-draw", "!clock +3m", "a: settle", "!clock +1m")


@pytest.mark.parametrize("line", ["e: paid up", "e: all paid", "e: I paid up", "e: paid in full"])
def test_paid_said_alone_in_english_pays_the_one_person_owed(sqlite_url: str, line: str) -> None:
    """As `已转` alone: all the sender owes the one person they owe."""
    same_as(sqlite_url, SETTLED, line, "e: paid @a")


@pytest.mark.parametrize("line", ["a: received all", "a: All received", "a: got it all", "a: got them all"])
def test_everything_received_in_english_is_as_dou_shoudao(sqlite_url: str, line: str) -> None:
    """As `都收到了`: the payments waiting for the sender's word confirmed (one payer here)."""
    said, plain = Table(sqlite_url, *SETTLED, "e: paid @a"), Table(sqlite_url, *SETTLED, "e: paid @a")
    try:
        assert said.say(line) == plain.say("a: 都收到了")
        assert said.ledger.waiting_payments(said.chat) == []
    finally:
        said.ledger.close()
        plain.ledger.close()


@pytest.mark.parametrize("line", ["e: all paid?", "a: received all?"])  # `paid up lol`: the payment, laughed
def test_those_words_asked_or_said_with_more_are_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *SETTLED, "f: paid @a")
    try:
        assert table.say(line) == []
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: close table", "a: Close the table", "a: end table"])
def test_close_table_in_english_says_how_as_guanzhuo_does(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, ENGLISH, line, "a: 关桌")
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say(line)[0].startswith("bot: To close the table, send settle")
    finally:
        table.ledger.close()
