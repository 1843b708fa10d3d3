"""What players say around a record that is no part of it: `我胡了` alone says who won (the 胡 buttons start at how),
laughter or the word said again after a record word (`我胡了 哈哈哈`, `荒了 荒了`) reads as the word alone, and a
question about what a record pays (`胡 清一色 自摸 怎么算`) books nothing and asks nothing. The corpus
(tests/bot/corpus.txt) holds more of the lines; these hold the flows it cannot follow."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_player_first import Table, same_as


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize("line", ["b: 我胡了", "b: 我胡了 哈哈哈哈", "b: 我胡啦！"])
def test_my_win_alone_starts_the_buttons_at_how_with_me_as_winner(table: Table, line: str) -> None:
    said = table.say(line)
    assert "bot: 谁胡了？" not in said and "bot: 怎么胡的？" in said and "bot: 小李" in said, said
    said = table.say("b: !press 点炮", "b: !press 老王", "b: !press 七对", "b: !press 预览 ▶", "b: !press ✅ 确认")
    assert any("小李 胡 老王 点的炮：七对" in out for out in said), said
    assert table.booked()[2]["小李"] == 400


def test_a_win_alone_with_no_seat_still_asks_who(table: Table) -> None:
    """An admin not seated says 我胡了: she is no winner, so the buttons ask who won."""
    table.say("!join d 小张", "!admin d")
    assert "bot: 谁胡了？" in table.say("d: 我胡了")


@pytest.mark.parametrize("line", ["b: 又胡了", "b: 又胡了一次", "b: 我又胡了", "b: 又胡啦 哈哈"])
def test_again_a_win_alone_is_the_senders_own_as_my_win_is(table: Table, line: str) -> None:
    """`又胡了` ("won again", the subject left out as players do) once went unanswered: it is the sender's new win,
    the buttons start at how with them as winner, as `我胡了` does; from someone not seated (an admin watching) it
    is said of someone else's win: no reply. A question is chat."""
    table.say("b: 胡 七对 自摸", "!clock +3m")
    said = table.say(line)
    assert "bot: 谁胡了？" not in said and "bot: 怎么胡的？" in said and "bot: 小李" in said, said
    table.say("b: 算了", "!join d 小张", "!admin d")
    assert table.say("d: 又胡了", "b: 又胡了？", "b: 他又胡了", "b: 又来了") == []


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("b: 我又胡了 自摸", "b: 我胡了 自摸"),
        ("b: 又胡了一把 清一色 自摸", "b: 我胡了 清一色 自摸"),
        ("b: 又自摸了 七对", "b: 我自摸了 七对"),
        ("a: 小李 又胡了 七对 点 老王", "a: 小李 胡了 七对 点 老王"),
        ("b: 又暗杠了 3s", "b: 我暗杠了 3s"),
    ],
)
def test_again_in_a_record_is_read_as_nothing(sqlite_url: str, line: str, plain: str) -> None:
    """又 in a record of a new hand (after 我 or the player named first; first, for 我) reads as the record without
    it, books the same and replies the same."""
    tables = [Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 胡 七对 自摸", "!clock +5m") for _ in range(2)]
    try:
        before = tables[0].booked()
        assert tables[0].say(line) == tables[1].say(plain)
        assert tables[0].booked() == tables[1].booked() != before
    finally:
        for opened in tables:
            opened.ledger.close()


def test_laughter_after_a_dealt_in_word_is_the_word_alone(table: Table) -> None:
    assert table.say("c: 我点炮了 哈哈") == table.say("c: 我点炮了")


@pytest.mark.parametrize(
    "line",
    ["胡 清一色 自摸 怎么算", "胡 七对 点 老王 会怎么算", "暗杠 3s 怎么算", "暗杠 算几块", "亮倒 什么意思"],
)
def test_asking_what_a_record_pays_books_nothing_and_says_nothing(table: Table, line: str) -> None:
    before = table.booked()
    assert table.say(f"a: {line}") == []
    assert table.booked() == before


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 我胡了 清一色 哈哈哈", "a: 我胡了 清一色"),
        ("a: 自摸 清一色 哈哈哈", "a: 胡 清一色 自摸"),
        ("a: 胡 七对 点 小李 哈哈", "a: 胡 七对 点 @b"),
        ("a: 胡 七对 点 @b 嘿嘿！", "a: 胡 七对 点 @b"),
        ("a: 胡 七对 点 @b hhh 233", "a: 胡 七对 点 @b"),
    ],
)
def test_laughter_at_the_end_of_a_record_line_is_dropped(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, ("a: 开桌 @a @b @c 庄 @a",), line, plain)
