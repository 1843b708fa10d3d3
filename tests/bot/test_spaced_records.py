"""A record said as players type it on a phone, with spaces where the glued word has none: 我 apart from its word
(`我 扫了`, `我 提蛇`, `我 胡了 自摸`), 了 apart from it (`扫 了`, `碰 了 点 小张`, `老王 扫 了`), and 碰胡's 中庄 said
done and in the first person (`我中庄 自摸`, `中庄了 点 老王`, `@a 中庄了 自摸`). Each was silent (or refused the 了)
while the glued or plain form booked: each now books exactly what the plain form books, with the same reply; a
plain form that asks or refuses is asked or refused alike (`我 碰`, `我 报警`)."""

from __future__ import annotations

import pytest

from bot import vocabulary
from bot.core import load_plugins, registry
from bot.grammar import split_command, unprompted
from tests.bot.test_gamelines import PENGHU
from tests.bot.test_player_first import Table

KAWUXING = ("a: 开桌 @a @b @c 庄 @a",)


def answered_alike(url: str, setup: tuple[str, ...], line: str, plain: str) -> list[str]:
    """`line` gets the reply `plain` gets — a reply, not a pair of silences — and books what it books."""
    told, typed = Table(url, *setup), Table(url, *setup)
    try:
        out = told.say(line)
        assert out, line
        assert out == typed.say(plain)
        assert told.booked() == typed.booked()
        return out
    finally:
        told.ledger.close()
        typed.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 我 扫了", "c: 扫了"),
        ("c: 我 扫", "c: 扫"),
        ("c: 我　扫了", "c: 扫了"),  # the full-width space
        ("c: 扫 了", "c: 扫了"),
        ("c: 扫 啦", "c: 扫了"),
        ("c: 我 扫 了", "c: 扫了"),
        ("c: 我 提蛇", "c: 提蛇"),
        ("c: 提蛇 了", "c: 提蛇"),
        ("c: 我 过扫", "c: 过扫"),
        ("c: 我 起手 扫", "c: 扫 起手"),
        ("c: 我 起手扫", "c: 扫 起手"),
        ("c: 我 碰了 小张的", "c: 碰 小张的"),
        ("c: 我 碰 点 小张", "c: 碰 点 小张"),
        ("c: 碰 了 点 小张", "c: 碰 点 小张"),
        ("c: 我 碰 了 摸的", "c: 碰 摸"),
        ("c: 我 跑起 点 小张", "c: 跑起 点 小张"),
        ("b: 老王 扫 了", "b: @c 扫"),
        ("b: 老王 碰 了 点 小张", "b: @c 碰 点 小张"),
        ("c: 我 扫了 哈哈", "c: 扫"),
        ("c: 扫了 哈哈哈", "c: 扫"),
        ("c: 碰 点 小张 哈哈", "c: 碰 点 小张"),
        ("c: 我 碰", "c: 碰"),  # asked where the tile came from, as 碰 is
        ("c: 碰 了", "c: 碰"),
        ("c: 我 碰 了", "c: 碰"),
        ("c: 我 报警", "c: 报警"),  # refused by the rules, as 报警 is
        ("c: 我 胡 点 小张", "c: 胡 点 小张"),
        ("c: 又扫了", "c: 扫"),  # a new 扫 said with 又 (again), as `又胡了` is 我胡了
        ("c: 我又碰了 小张的", "c: 碰 小张的"),
        ("b: 老王 又过扫了", "b: @c 过扫"),
        ("c: 我 自摸", "c: 胡 自摸"),
    ],
)
def test_a_penghu_record_typed_with_spaces_is_its_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    answered_alike(sqlite_url, PENGHU, line, plain)


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 我中庄 自摸", "a: 中庄 自摸"),
        ("a: 我中庄了 自摸", "a: 中庄 自摸"),
        ("a: 中庄了 自摸", "a: 中庄 自摸"),
        ("a: 中庄啦 点 老王", "a: 中庄 点 老王"),
        ("a: 我 中庄 点 老王", "a: 中庄 点 老王"),
        ("a: 中庄 了 自摸", "a: 中庄 自摸"),
        ("a: 我中庄了 点 老王 跑起", "a: 中庄 点 老王 跑起"),
        ("a: 我中庄", "a: 中庄"),  # asked where the tile came from, as 中庄 is
        ("a: 我中庄了", "a: 中庄"),
        ("b: @a 中庄了 自摸", "b: @a 中庄 自摸"),
        ("b: 阿杰 中庄了 自摸", "b: @a 中庄 自摸"),
        ("b: 阿杰中庄了 点 老王", "b: @a 中庄 点 老王"),
        ("c: 我中庄 自摸", "c: 中庄 自摸"),  # only the dealer: refused alike
    ],
)
def test_zhongzhuang_said_done_or_in_the_first_person_is_the_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    answered_alike(sqlite_url, PENGHU, line, plain)


def test_zhongzhuang_in_the_first_person_books_the_dealers_win(sqlite_url: str) -> None:
    table = Table(sqlite_url, *PENGHU)
    try:
        assert table.say("a: 我中庄了 自摸")[0] == "bot: 第1局 阿杰 胡（每人出），中庄"
        events = table.booked()[1][0][0]  # the finished hand's events
        assert list(events) == [{"type": "hu", "player": "阿杰", "from": None, "zhongzhuang": True}]
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("b: 我 胡了 自摸", "b: 我胡了 自摸"),
        ("b: 胡 了 自摸", "b: 胡了 自摸"),
        ("b: 我 暗杠 3s", "b: 我暗杠 3s"),
        ("b: 我 亮倒", "b: 亮倒"),
        ("b: 我 点炮了 @c", "b: 我点炮了 @c"),
    ],
)
def test_a_kawuxing_record_typed_with_spaces_is_its_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    answered_alike(sqlite_url, KAWUXING, line, plain)


@pytest.mark.parametrize(
    "line",
    [
        "c: 我 扫地去了",
        "c: 我 碰到老王了",
        "c: 我 扫了？",
        "b: @c 我 扫了",  # whose? a first-person word after someone named
        "c: 我 荒庄",  # no first-person draw
        "c: 扫 了吗",
        "b: @c 碰 点 @d 哈哈",  # told of someone, laughing: maybe chat, as before
    ],
)
def test_the_same_words_as_chat_stay_unanswered(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *PENGHU)
    try:
        before = table.booked()
        assert table.say(line) == [], line
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_every_first_person_word_typed_apart_from_its_me_is_that_word() -> None:
    """Every record word glued to 我 (`vocabulary.FIRST_PERSON_WORDS`), of whichever game has it, reads the same with
    a space after 我, and is as prompted as the glued one (a refusal of it is said)."""
    load_plugins()
    seen = 0
    for game in ("kawuxing", "penghu", "gouji"):
        for word in sorted(vocabulary.FIRST_PERSON_WORDS):
            command = registry.lookup(word, game)
            if command is None or not word.startswith("我"):
                continue
            seen += 1
            for gap in (" ", "  ", "\u3000"):
                line = f"我{gap}{word[1:]} 小张的"
                assert split_command(line, registry, game, ["小张"]) == (command, word, "小张的"), (game, line)
                assert unprompted(line, word, command) == unprompted(f"{word} 小张的", word, command), line
    assert seen > 40


def test_the_english_question_of_a_win_without_its_tile_reads(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 语言 en", *PENGHU)
    try:
        assert table.say("a: 我中庄") == [
            "bot: Whose tile was that win (胡)? Write from @someone (one pays); a tile from the wall: self-drawn (each "
            "pays)."
        ]
    finally:
        table.ledger.close()
