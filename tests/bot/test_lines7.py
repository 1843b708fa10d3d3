"""Lines players typed that the bot ignored or misread: a 够级 place told by a player's name (`小张 头科`, `大鹏头科`)
goes into the 名次 buttons as `我头科` does; 碰胡's `庄家中庄 自摸` is the dealer's 中庄, `扫 扫` one 扫; 够级's
`串三户了` is answered with how a round is recorded; settings take small Chinese numerals (`设置 日切 五点`); and
`ok` under a question asked in English is answered in English."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.bot.test_english_questions import ASKED
from tests.bot.test_recording_fixes import Table

GOUJI = (
    "!admin a",
    *(f"!join {who}" for who in ("a 阿一", "b 阿二", "c 阿三", "d 阿四", "e 小张", "f 大鹏")),
    "a: 设置 游戏 够级",
    "a: 开桌 @a @b @c @d @e @f",
    "!clock +1m",
)
PENGHU = (
    "!admin boss",
    *(f"!join {who}" for who in ("a 红姐", "b 阿四", "c 老表", "d 小刚")),
    "boss: 设置 游戏 碰胡",
    "a: 开桌 @a @b @c @d 庄 @a",
    "!clock +3m",
)


@pytest.fixture
def gouji(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say(*GOUJI)
    yield table
    table.ledger.close()


@pytest.fixture
def penghu(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say(*PENGHU)
    yield table
    table.ledger.close()


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("e: 小张 头科", "头科 小张（自己说的）"),
        ("f: 大鹏头科", "头科 大鹏（自己说的）"),
        ("a: 大鹏头科", "头科 大鹏（阿一说的）"),
        ("a: 小张 是头科了", "头科 小张（阿一说的）"),
        ("a: @f 头科", "头科 大鹏（阿一说的）"),
        ("a: 头科 小张", "头科 小张（阿一说的）"),
    ],
)
def test_a_place_told_by_name_starts_the_buttons(gouji: Table, line: str, shown: str) -> None:
    reply = gouji.say(line)
    assert reply[:3] == ["bot: 记名次（第1局）：按出完的顺序点人", f"bot: 名次：{shown}", "bot: 谁是第 2 个出完的？"]


def test_places_told_by_name_fill_the_waiting_buttons(gouji: Table) -> None:
    gouji.say("c: 我头科", "!clock +1m")
    joined = gouji.say("a: 大鹏二科")
    assert joined[1] == "bot: 名次：头科 阿三（自己说的）、二科 大鹏（阿一说的）"
    assert joined[-1] == "bot: 记到上面的名次按钮里了：大鹏 二科。"
    assert gouji.say("!clock +1m", "b: 大鹏 三科") == [
        "bot: 上面的名次按钮里已经有 大鹏 了，没有改。不对就点「↩ 撤一个」或「取消」重来。"
    ]
    assert gouji.say("!clock +1m", "e: 阿二 二科") == [
        "bot: 上面的名次按钮里 二科 已经是 大鹏，没有改。不对就点「↩ 撤一个」或「取消」重来。"
    ]
    gouji.say("!clock +1m", "e: 小张 末游", "!clock +1m")
    for tapped in ("阿二", "阿一"):  # 阿四, the one left, is 二落 without a tap
        gouji.say(f"a: !press {tapped}")
    booked = gouji.say("a: !press 确认")
    assert "bot: 第1局 够级：头科 阿三、二科 大鹏、三科 阿二、四科 阿一、二落 阿四、大落 小张" in booked


@pytest.mark.parametrize(
    "line", ["a: 小张 头科 厉害", "a: 小张头科吗", "a: 老王 头科", "a: 小张 头科？", "a: 头科 小张 阿二"]
)
def test_the_same_words_as_chat_stay_chat(gouji: Table, line: str) -> None:
    assert gouji.say(line) == []


def test_chuansanhu_alone_says_how_a_round_is_recorded(gouji: Table) -> None:
    told = gouji.say("c: 串三户了")
    assert told == [
        "bot: 串三户不用单独记：发这一局的名次（头科在前），是串三户会自己算、翻倍："
        "名次 @甲 @丁 @丙 @己 @乙 @戊（只发「名次」出按钮）"
    ]
    assert gouji.say("!clock +1m", "c: 串三户 太爽了", "c: 串三户？") == []
    assert gouji.hands() == 0


def test_the_dealer_named_by_role_before_zhongzhuang(penghu: Table) -> None:
    assert penghu.say("c: 庄家中庄 自摸")[0] == "bot: 第1局 红姐 胡（每人出），中庄"
    penghu.say("!clock +6m")
    assert penghu.say("b: 庄家 中庄了 点 @c")[0] == "bot: 第2局 红姐 胡，点 老表（一人出），中庄"


def test_a_sweep_said_twice_is_one(penghu: Table) -> None:
    assert penghu.say("b: 扫 扫")[0] == "bot: 第1局 记下：阿四 扫"
    assert penghu.say("!clock +1m", "c: 扫了 扫了")[0] == "bot: 第1局 记下：老表 扫"


@pytest.mark.parametrize(
    ("numerals", "digits"),
    [
        ("设置 日切 五点", "设置 日切 5点"),
        ("设置 日切 十二", "设置 日切 12"),
        ("群管设置 刷屏条数 八", "群管设置 刷屏条数 8"),
        ("群管设置 警告有效期 两", "群管设置 警告有效期 2"),
        ("设置 重复间隔 九十", "设置 重复间隔 90"),
        ("设置 重复间隔 一百二十秒", "设置 重复间隔 120秒"),
    ],
)
def test_settings_read_small_chinese_numerals(new_sqlite_url: Callable[[], str], numerals: str, digits: str) -> None:
    said = []
    for line in (numerals, digits):  # each on a fresh ledger: the same change, told alike
        table = Table(new_sqlite_url())
        said.append(table.say("!admin boss", "!join boss 老板", f"boss: {line}"))
        table.ledger.close()
    assert said[0] == said[1]
    assert not any("不能设成" in line or "用法" in line for line in said[0]), said[0]


def test_a_numeral_out_of_range_is_refused_as_typed(sqlite_url: str) -> None:
    table = Table(sqlite_url)
    assert table.say("!admin boss", "!join boss 老板", "boss: 设置 日切 二十五点") == [
        "bot: 日切 不能设成「二十五点」，可选：0-23"
    ]
    table.ledger.close()


@pytest.mark.parametrize("answer", ["ok", "OK", "yes"])
def test_ok_under_an_english_question_is_answered_in_english(sqlite_url: str, answer: str) -> None:
    table = Table(sqlite_url)
    table.say("!admin mike", *ASKED)
    said = table.say(f"mike: {answer}")
    assert "bot: Undone: hand 1, Mike self-draw one suit (清一色). Hand 1 is open again." in said, said
    assert not [
        line
        for line in said
        if any("\u4e00" <= char <= "\u9fff" for char in line.replace("清一色", "").replace("元", ""))
    ]
    table.ledger.close()
