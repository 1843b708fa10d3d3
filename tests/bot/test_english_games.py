"""碰胡 and 够级 recorded in English (play-test: an English group could not record 碰胡 at all — `pong from @ben`,
`win self-draw`, `draw` got no reply while the replies said "Tom pong (碰)"): each English line books what its Chinese
line books, with the same reply; `order @a …` is 名次. A 够级 table's opening and its hands' results both say "Hand";
a drawn hand says "kong money stands" only when the hand had a kong."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as

PENGHU_EN = ("a: 设置 语言 en", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a")
GOUJI_EN = (
    "!join e 阿五",
    "!join f 阿六",
    "a: 设置 语言 en",
    "a: 设置 游戏 够级",
    "a: 开桌 @a @b @c @d @e @f",
)


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("b: pong from @c", "b: 碰 点 @c"),
        ("b: Pong from c", "b: 碰 点 @c"),
        ("b: pong self drawn", "b: 碰 摸"),
        ("b: pong self-drawn", "b: 碰 摸"),
        ("b: pong from the wall", "b: 碰 摸"),
        ("b: pong @d from @c", "b: 碰 @d 点 @c"),
        ("b: sweep", "b: 扫"),
        ("b: sweep at the deal", "b: 扫 起手"),
        ("b: win self-draw", "b: 胡 自摸"),
        ("b: win self drawn", "b: 胡 自摸"),
        ("b: win from @c", "b: 胡 点 @c"),
        ("b: I won self drawn", "b: 胡 自摸"),
        ("b: I won from @c", "b: 胡 点 @c"),
        ("b: won from @c", "b: 胡 点 @c"),
        ("b: draw", "b: 荒庄"),
        ("b: 跑起 from @c", "b: 跑起 点 @c"),
        ("b: 提蛇 at the deal", "b: 提蛇 起手"),
    ],
)
def test_penghu_in_english_books_what_the_chinese_line_books(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, PENGHU_EN, line, plain)


def test_penghu_in_english_is_answered(sqlite_url: str) -> None:
    table = Table(sqlite_url, *PENGHU_EN)
    try:
        assert table.say("b: pong from @c")[0] == "bot: Hand 1 recorded: 小李 pong (碰), from 老王 (one pays)"
        assert table.say("b: sweep")[0] == "bot: Hand 1 recorded: 小李 sweep (扫)"
        assert table.say("b: pong") == [
            "bot: Whose tile was that pong (碰)? Write from @someone (one pays); a tile from the wall: self-drawn "
            "(each pays)."
        ]
        assert table.say("!clock +10s", "b: win self-draw")[0] == "bot: Hand 1: 小李 wins (胡) (each pays)"
    finally:
        table.ledger.close()


def test_penghu_english_at_a_chinese_table_is_answered_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a")
    try:
        assert table.say("b: pong from @c")[0] == "bot: Hand 1 recorded: 小李 pong (碰), from 老王 (one pays)"
    finally:
        table.ledger.close()


@pytest.mark.parametrize("word", ["order", "ranking", "Order"])
def test_gouji_order_in_english_is_a_round(sqlite_url: str, word: str) -> None:
    same_as(sqlite_url, GOUJI_EN, f"a: {word} @a @b @c @d @e @f", "a: 名次 @a @b @c @d @e @f")


def test_gouji_order_read_whole_is_answered_and_other_words_are_chat(sqlite_url: str) -> None:
    table = Table(sqlite_url, *GOUJI_EN)
    try:
        assert table.say("a: order @a @b @c @d @e") == [
            "bot: 阿六 missing: name all six (revolution (革命) players after revolution, failed burns (烧牌) after "
            "failed burn)."
        ]
        assert table.say("!clock +10s", "a: order pizza for everyone") == []
        assert table.ledger.history(table.chat) == []
    finally:
        table.ledger.close()


def test_gouji_opening_and_results_both_say_hand(sqlite_url: str) -> None:
    table = Table(sqlite_url, *GOUJI_EN[:-1])
    try:
        opened = table.say(GOUJI_EN[-1])
        assert "bot: Hand 1" in opened, opened
        assert table.say("a: order @a @b @c @d @e @f")[0].startswith("bot: Hand 1 (Gouji 够级): 1st 阿杰, 2nd 小李")
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("setup", "drawn"),
    [
        (("a: 设置 语言 en",), "bot: Drawn hand"),
        (("a: 设置 语言 en", "a: concealed kong 3s"), "bot: Drawn hand: kong money stands"),
        ((), "bot: 荒庄"),
        (("a: 暗杠 3s",), "bot: 荒庄：杠钱照算"),
    ],
)
def test_a_drawn_hand_speaks_of_kong_money_only_with_kongs(sqlite_url: str, setup: tuple[str, ...], drawn: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", *setup)
    try:
        said = table.say("a: 荒庄")
        assert said[1] == drawn, said
    finally:
        table.ledger.close()
