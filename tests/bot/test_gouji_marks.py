"""够级: a void round (two or more 革命) is said to be void wherever it is shown — 历史, 撤销's question, 牌桌 — as its
reply says it (「作废，不计分（…）」), where those showed 「革命：…」 as if the round had been played; and a round's
marks typed without the round (`革命 @e @f`, `我革命`, `烧牌 @e`), which were silent, are answered with what is
missing and the line to send, nothing booked."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.bot.test_gamelines import GOUJI
from tests.bot.test_player_first import Table

VOID = "作废，不计分（阿五、阿六 革命：两人以上革命的局不算）"
VOID_EN = "void, nothing scores (阿五, 阿六 declared revolution (革命): a round with two or more is void)"


@pytest.mark.parametrize(("setup", "void"), [((), VOID), (("a: 设置 语言 en",), VOID_EN)])
def test_a_void_round_is_said_void_in_history_and_undo(sqlite_url: str, setup: tuple[str, ...], void: str) -> None:
    table = Table(sqlite_url, *setup, *GOUJI)
    try:
        table.say("a: 名次 革命 @e @f")
        table.clock.advance(timedelta(minutes=1))
        shown = table.say("a: 历史 1")[1]
        assert shown.startswith(f"bot: {'Hand 1:' if setup else '第1局'} {void} "), shown
        table.clock.advance(timedelta(minutes=1))
        asked = table.say("a: 撤销")[0]
        assert void in asked and "革命：阿五" not in asked and "(sat out)" not in asked, asked
    finally:
        table.ledger.close()


def test_a_played_round_with_one_geming_is_shown_as_before(sqlite_url: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        table.say("a: 名次 @a @b @c @d @e 革命 @f")
        table.clock.advance(timedelta(minutes=1))
        shown = table.say("a: 历史 1")[1]
        assert shown.startswith("bot: 第1局 出完：阿杰、小李、老王、小张、阿五，革命：阿六 ｜ "), shown
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (
            "a: 革命 @e @f",
            "bot: 没有记：革命要写在「名次」后面。两人以上革命，这一局作废、不计分；阿五、阿六 都革命了的话，"
            "发：名次 革命 阿五 阿六",
        ),
        (
            "a: 革命 @e",
            "bot: 没有记：革命要写在一局的名次里，还差其余五人的名次。按出完的顺序写（头科在前），"
            "革命的写在「革命」后面：名次 @甲 @丁 @丙 @己 @乙 革命 阿五",
        ),
        (
            "e: 我革命了",
            "bot: 没有记：革命要写在一局的名次里，还差其余五人的名次。按出完的顺序写（头科在前），"
            "革命的写在「革命」后面：名次 @甲 @丁 @丙 @己 @乙 革命 阿五",
        ),
        (
            "e: 我 革命",
            "bot: 没有记：革命要写在一局的名次里，还差其余五人的名次。按出完的顺序写（头科在前），"
            "革命的写在「革命」后面：名次 @甲 @丁 @丙 @己 @乙 革命 阿五",
        ),
        (
            "a: 革命",
            "bot: 没有记：革命要写在一局的名次里，写上是谁：名次 @甲 @丁 @丙 @己 @乙 革命 @某人（其余五人按出完的顺序，"
            "头科在前）；两人以上革命，这一局作废：名次 革命 @某人 @某人",
        ),
        (
            "a: 烧牌 @e",
            "bot: 没有记：烧牌失败要写在一局的名次里：先按出完的顺序写出完的人，烧牌失败的按失败先后写在「烧牌」后面："
            "名次 @甲 @丁 @丙 @己 烧牌 阿五",
        ),
    ],
)
def test_a_mark_typed_without_its_round_says_what_is_missing(sqlite_url: str, line: str, said: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        before = table.booked()
        assert table.say(line) == [said]
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_the_line_it_gives_for_two_geming_books_the_void_round(sqlite_url: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        sent = table.say("a: 革命 @e @f")[0].rsplit("发：", 1)[1]
        table.clock.advance(timedelta(seconds=30))
        assert table.say(f"a: {sent}")[0] == f"bot: 第1局 够级：{VOID}"
    finally:
        table.ledger.close()


def test_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 语言 en", *GOUJI)
    try:
        assert table.say("a: 革命 @e @f") == [
            "bot: Not recorded: revolution (革命) goes in a round's line. Two or more revolutions void the round "
            "(not scored); if 阿五, 阿六 all declared revolution, send: order revolution 阿五 阿六"
        ]
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: 革命 尚未成功", "a: 我革命了 哈哈哈 厉害吧", "a: @e 革命", "a: 烧牌 好难"])
def test_the_words_in_chat_stay_unanswered(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        before = table.booked()
        assert table.say(line) == [], line
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_the_match_score_is_answered_when_asked(sqlite_url: str) -> None:
    """`比分` was silent: the score every round's reply ends with is asked between rounds too."""
    table = Table(sqlite_url, *GOUJI)
    try:
        assert table.say("b: 比分") == ["bot: 比分：阿杰、老王、阿五 0 ｜ 小李、小张、阿六 0"]
        booked = table.say("b: 名次 @a @b @c @d @e @f")
        table.clock.advance(timedelta(minutes=1))
        assert table.say("d: 比分多少？") == [booked[-1]] == ["bot: 比分：阿杰、老王、阿五 2 ｜ 小李、小张、阿六 0"]
        assert table.say("d: 比分 好难看") == []
    finally:
        table.ledger.close()
