"""Lines players and admins type that the bot once ignored or misread: the admins' fine said short (`罚 @小李 5`) or
with the member first (`@小李 罚款 5`), a setting's name glued (`设置底金2`), a table opened or a night settled as it
is said (`开桌了 @小李 @老王`, `结算了`), a tile 卡五星 has not (`暗杠 东风`) and a fifth kong by one player. The corpus
(tests/bot/corpus.txt) holds the lines themselves; these tests hold what the corpus cannot say: who gets no answer,
the English replies and where the grammar draws the line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core import load_plugins, registry
from bot.grammar import split_command, unprompted
from tests.bot.test_player_first import Table


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    yield opened
    opened.ledger.close()


@pytest.fixture
def english(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "a: 设置 语言 en", "a: 开桌 @a @b @c 庄 @a")
    yield opened
    opened.ledger.close()


# --------------------------------------------------------------------------------------------------- the grammar


@pytest.mark.parametrize(
    ("line", "word", "args"),
    [
        ("罚 @小李 5", "罚", "@小李 5"),
        ("罚 @小李 5块 刷屏", "罚", "@小李 5块 刷屏"),
        ("罚@小李 2.5元", "罚", "@小李 2.5元"),
        ("@小李 罚款 5", "罚款", "@小李 5"),
        ("@小李 罚款5块 迟到", "罚款", "@小李 5块 迟到"),
        ("@小李 罚红包 5", "罚红包", "@小李 5"),
        ("@b fine 5", "fine", "@b 5"),
        ("设置底金2", "设置", "底金2"),
        ("设置底金 2", "设置", "底金 2"),
        ("設置封頂不封頂", "设置", "封頂不封頂"),
        ("设定日切6", "设定", "日切6"),
    ],
)
def test_a_short_fine_a_member_first_fine_and_a_glued_setting_are_read(line: str, word: str, args: str) -> None:
    load_plugins()
    found = split_command(line, registry, "kawuxing")
    assert found is not None and found[1:] == (word, args)


@pytest.mark.parametrize(
    "line",
    [
        *("罚酒三杯", "罚 酒", "罚 @小李", "罚 @小李 喝酒", "罚 @老王 3杯", "罚 5 @小李", "罚 @小李 5吗"),
        *("@小李 罚款", "@小李 罚款 喝酒", "@小李 罚款 5？", "老王 罚款 5"),
        *("setbase2", "setup", "settings 2"),
        *("设置好了", "设置一下", "设置里面", "设置底金", "设置底金2吗", "设置 底金2吗"),
    ],
)
def test_what_only_looks_like_them_stays_chat(line: str) -> None:
    load_plugins()
    assert split_command(line, registry, "kawuxing", ["阿杰", "小李", "老王"]) is None


def test_a_line_glued_to_设置_acts_only_when_it_reads_cleanly() -> None:
    load_plugins()
    config = registry.lookup("设置")
    assert unprompted("设置底金2", "设置", config)
    assert not unprompted("设置 底金2", "设置", config)
    assert not unprompted("设置 底金 2", "设置", config)
    assert not unprompted("/config 底金2", "config", config)
    assert not unprompted("罚 @小李 5", "罚", registry.lookup("罚"))
    assert unprompted("@小李 罚款 5", "罚款", registry.lookup("罚款"))


# --------------------------------------------------------------------------------------------------- who hears

ADMIN = "!admin a"


def test_a_member_gets_the_admins_refusal_to_罚_and_to_设置_typed_apart_but_no_answer_to_what_may_be_chat(
    table: Table,
) -> None:
    table.say(ADMIN)
    assert table.say("b: 罚 @c 5") == ["bot: 只有群管理员可以这样做。"]
    assert table.say("b: 设置 底金2") == ["bot: 只有群管理员可以这样做。"]
    assert table.say("b: @c 罚款 5", "b: 设置底金2", "b: 设置规则好麻烦") == []
    assert table.ledger.group(table.chat).base == 100


def test_an_admins_glued_setting_books_when_it_reads_and_says_nothing_when_it_does_not(table: Table) -> None:
    table.say(ADMIN)
    assert table.say("a: 设置规则好麻烦", "a: 设置底金abc") == []
    assert table.ledger.group(table.chat).base == 100
    assert any("底金 2元" in line for line in table.say("a: 设置底金2"))
    assert table.ledger.group(table.chat).base == 200
    # typed apart after 设置 the line is the command's, and a bad value is answered with why
    assert any("1,000" in line for line in table.say("a: 设置 底金1,000"))
    assert table.ledger.group(table.chat).base == 200


def test_a_fine_said_short_or_member_first_is_the_fine(table: Table) -> None:
    table.say(ADMIN)
    assert table.say("a: 罚 @b 5块 刷屏") == ["bot: 💰 小李 被罚发红包 5元（刷屏），已记入红包池。记录 #1"]
    assert table.say("a: @b 罚款 2.5 迟到") == ["bot: 💰 小李 被罚发红包 2.5元（迟到），已记入红包池。记录 #2"]
    assert table.ledger.balances(table.chat).pot == 750


# ------------------------------------------------------------------------------------------ 开桌了, 结算了


def test_开桌了_opens_only_with_every_seat_mentioned(table: Table) -> None:
    assert table.say("a: 开桌了", "a: 开桌啦", "a: 开桌了 快来 来人", "a: 开局了吗") == []
    opened = table.say("a: 开桌了 @b @c 庄 @b")
    assert opened[:3] == [
        "bot: 开桌了：卡五星，襄阳规则（8 倍封顶，双龙七对 16 倍），底金 1元",
        "bot: 座位：阿杰、小李、老王",
        "bot: 第1局，庄家 小李（指定）",
    ]


def test_结算了_settles_and_after_the_settlement_is_chat(table: Table) -> None:
    table.say("c: 胡 清一色 自摸")
    assert table.say("a: 结算了吗", "a: 结算了没") == []
    assert table.say("d: 结算了") == ["bot: 只有这桌的玩家和群管理员可以结算。"]
    assert any("结算" in line for line in table.say("b: 结算了"))
    assert table.say("a: 结算了", "c: 结算啦") == []
    assert table.say("a: 结算")[0].startswith("bot: 今晚")  # 结算 itself still says the night is settled


# ---------------------------------------------------------------------------------------- tiles and kongs


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("a: 暗杠 东风", "卡五星没有「东风」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。"),
        ("a: 暗杠 1z", "卡五星没有「1z」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。"),
        (
            "a: 胡 清一色 自摸 南",
            "卡五星没有「南」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。",
        ),
        ("a: 暗杠 0p", "「0p」不是一张牌：数牌是 1 到 9，字牌只有 白 发 中（5z 6z 7z）。"),
    ],
)
def test_a_tile_卡五星_has_not_is_refused_with_why_and_no_guess(table: Table, line: str, reply: str) -> None:
    before = table.booked()
    assert table.say(line) == [f"bot: {reply}"]
    assert table.booked() == before


def test_a_wind_in_english(english: Table) -> None:
    assert english.say("a: concealed kong 东风") == [
        "bot: 卡五星 has no tile “东风”: no winds, only 1–9 of the table's two suits and 白 发 中 (5z 6z 7z)."
    ]


def test_a_fifth_kong_by_one_player_books_nothing_and_says_why(table: Table, english: Table) -> None:
    for chat in (table, english):
        chat.say("a: 暗杠 1s", "a: 蓄杠 2s", "a: 直杠 3s 点 @b", "a: 暗杠")
    before = table.booked()
    assert table.say("a: 暗杠 5s") == [
        "bot: 没有记录：阿杰 这局已经杠了 4 次：一个人一局最多 4 个杠（14 张牌，杠算三张，最多四组加一对）。"
    ]
    assert table.booked() == before
    assert english.say("a: 暗杠 5s") == [
        "bot: Not recorded: 阿杰 has made 4 kongs this hand already: one player makes at most 4 (14 tiles, a kong "
        "counted as three: four sets and a pair)."
    ]
    assert table.say("b: 暗杠 5s")[0] == "bot: 第1局 记下：小李 暗杠 五条"  # another player's kongs are theirs
    assert table.say("c: 暗杠 1s")[0].startswith("bot: 没有记录：一条（1s）有 8 张")  # a tile konged twice
