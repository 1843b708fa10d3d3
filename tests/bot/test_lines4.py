"""Lines players type that the bot once refused or misread: amounts in Chinese numerals (`付 老王 五块`, `罚款 十块
@c`, `设置 底金 五块`), a 收到 with thanks after it (`收到 老王 20块，谢谢`), the discarder told as `炮是老王放的`, and
the pattern names `清大对`, `大对子`, `豪七`. Each reads exactly as the line players already could type."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amounts import AmountError, parse_amount
from tests.bot.test_player_first import Table, same_as

#: 老王 (c) and 小李 (b) each win on 阿杰's (a) discard: 阿杰 owes each 4元
OWES_TWO = ("a: 开桌 @a @b @c 庄 @a", "b: 胡 七对 点 @a", "!clock +3m", "c: 胡 七对 点 @a", "a: 结算")
OPEN = ("a: 开桌 @a @b @c 庄 @a",)

_DIGITS = "零一二三四五六七八九"


def _chinese(number: int) -> str:
    """`number` (below 10**8) in Chinese numerals written out in full (`一千零五`, `十五`): what must read back."""
    if number < 10_000:
        return _below_ten_thousand(number, leading=True) or "零"
    high, low = divmod(number, 10_000)
    said = _below_ten_thousand(high, leading=True) + "万"
    if low:
        said += ("零" if low < 1000 else "") + _below_ten_thousand(low, leading=False)
    return said


def _below_ten_thousand(number: int, *, leading: bool) -> str:
    said, zero = "", False
    for power, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = number // power % 10
        if not digit:
            zero = zero or bool(said)
            continue
        if zero:
            said += "零"
            zero = False
        said += ("" if unit == "十" and digit == 1 and not said and leading else _DIGITS[digit]) + unit
    return said


@given(st.integers(min_value=0, max_value=10**8 - 1), st.sampled_from(["", "块", "元", "块钱", "分", "毛"]))
def test_an_amount_in_chinese_numerals_reads_as_the_same_in_digits(number: int, unit: str) -> None:
    assert parse_amount(_chinese(number) + unit) == parse_amount(f"{number}{unit}")


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=1, max_value=9))
def test_a_digit_after_a_unit_in_chinese_reads_as_in_digits(yuan: int, jiao: int) -> None:
    assert parse_amount(f"{_chinese(yuan)}块{_chinese(jiao)}") == parse_amount(f"{yuan}块{jiao}")
    assert parse_amount(f"{_chinese(yuan)}元{_chinese(jiao)}角") == parse_amount(f"{yuan}元{jiao}角")


@pytest.mark.parametrize(
    ("typed", "fen"),
    [
        ("五块", 500),
        ("两块", 200),
        ("十块", 1000),
        ("二十", 2000),
        ("一百五", 15000),  # as people say it: 一百五十
        ("三千二", 320000),
        ("两万五", 2500000),
        ("三块五", 350),
        ("3块5", 350),
        ("一块五毛", 150),
        ("两毛五", 25),
        ("一千零五", 100500),
        ("十万零五", 10000500),
        ("五百万", 500000000),
        ("五块整", 500),
    ],
)
def test_chinese_numerals_read_as_people_say_them(typed: str, fen: int) -> None:
    assert parse_amount(typed) == fen


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("五五", "amount_why_digits"),
        ("一二三", "amount_why_digits"),
        ("一百零", "amount_why_digits"),
        ("一千五十", "amount_why_digits"),  # 零 left out: 一千零五十 or 一千五
        ("百", "amount_why_digits"),
        ("十十", "amount_why_digits"),
        ("万万", "amount_why_digits"),
        ("一块五十", "amount_why_ambiguous"),  # as 1块50 is
    ],
)
def test_numerals_that_name_no_number_as_people_say_one_are_refused(typed: str, why: str) -> None:
    with pytest.raises(AmountError) as refused:
        parse_amount(typed)
    assert refused.value.why == why


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 付 老王 五块", "a: 付 老王 5块"),
        ("a: 转老王五块", "a: 转老王5块"),
        ("a: 付 @c 三块五", "a: 付 @c 3块5"),
        ("a: 付 @c 两块", "a: 付 @c 2块"),
        ("a: @c 付了两块", "a: @c 付了2块"),
        ("c: 收到 @a 两块五", "c: 收到 @a 2.5"),
    ],
)
def test_a_payment_in_chinese_numerals_books_as_in_digits(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OWES_TWO, line, plain)


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 罚款 十块 @c", "a: 罚款 10块 @c"),
        ("a: 罚款 @c 一百五", "a: 罚款 @c 150"),
        ("a: 设置 底金 五块", "a: 设置 底金 5块"),
        ("a: 设置 底金 两毛五", "a: 设置 底金 0.25"),
    ],
)
def test_a_fine_or_a_setting_in_chinese_numerals_is_as_in_digits(sqlite_url: str, line: str, plain: str) -> None:
    told, typed = Table(sqlite_url), Table(sqlite_url)
    try:
        numbered = [re.sub(r"#\d+", "#", said) for said in told.say(line)]  # fines are numbered across the database
        assert numbered == [re.sub(r"#\d+", "#", said) for said in typed.say(plain)]
        assert told.booked() == typed.booked()
    finally:
        told.ledger.close()
        typed.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [("a: 付 @c 五百万", "a: 付 @c 5000000"), ("a: 罚款 五百万 @c", "a: 罚款 5000000 @c")],
)
def test_too_large_in_chinese_numerals_is_refused_as_in_digits(sqlite_url: str, line: str, plain: str) -> None:
    told, typed = Table(sqlite_url, *OWES_TWO), Table(sqlite_url, *OWES_TWO)
    try:
        refused = told.say(line)
        assert refused == [r.replace("5000000", "五百万") for r in typed.say(plain)]
        assert "太多了" in refused[0] and told.booked() == typed.booked()
    finally:
        told.ledger.close()
        typed.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 收到 阿杰 4块，谢谢", "c: 收到 阿杰 4块"),
        ("c: 收到了 @a 4 谢谢", "c: 收到 @a 4"),
        ("c: 收到 阿杰 4块了 谢谢啦", "c: 收到 阿杰 4块"),
        ("c: 收到阿杰的4块", "c: 收到 阿杰 4块"),
        ("c: 收到阿杰的四块", "c: 收到 阿杰 4块"),
    ],
)
def test_thanks_after_a_whole_received_line_is_said_not_read(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OWES_TWO, line, plain)


def test_thanks_after_a_received_line_without_its_amount_stays_as_before(sqlite_url: str) -> None:
    table = Table(sqlite_url, *OWES_TWO)
    try:
        assert table.say("c: 收到，谢谢", "c: 收到 阿杰 4块 你看看")[-1].startswith("bot: 这样写：")
        assert table.say("c: 收到小张的4块") == []  # nobody of the settlement: chat, nothing booked
        assert sum(d.amount for d in table.ledger.debts(table.chat)) == 800
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    "line", ["c: 胡 七对 炮是阿杰放的", "c: 胡 七对 阿杰放的炮", "c: 胡 七对 是阿杰放的炮", "c: 胡 七对 炮是 阿杰 放的"]
)
def test_the_discarder_told_around_the_name_is_the_discarder(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, OPEN, line, "c: 胡 七对 点 阿杰")


def test_a_lead_with_no_discarder_after_it_is_not_understood(sqlite_url: str) -> None:
    table = Table(sqlite_url, *OPEN)
    try:
        assert "「是」" in table.say("c: 胡 七对 是 自摸")[0]
        assert table.booked()[1] == []
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 胡 清大对 自摸", "c: 胡 清碰 自摸"),
        ("c: 胡 清大对子 自摸", "c: 胡 清碰 自摸"),
        ("c: 胡 大对子 点 @a", "c: 胡 碰碰胡 点 @a"),
        ("c: 胡 大对 点 @a", "c: 胡 碰碰胡 点 @a"),
        ("c: 胡 豪七 自摸", "c: 胡 龙七对 自摸"),
        ("c: 胡 豪华七对 自摸", "c: 胡 龙七对 自摸"),
        ("c: 胡 清豪七 自摸", "c: 胡 清龙七对 自摸"),
    ],
)
def test_pattern_names_players_use_read_as_the_pattern(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OPEN, line, plain)


def test_a_mistyped_pattern_is_still_asked_as_the_pattern_it_looks_like(sqlite_url: str) -> None:
    table = Table(sqlite_url, *OPEN)
    try:
        assert table.say("c: 胡 七队 点 @a")[0] == "bot: 没看懂「七队」。是不是：胡 七对 点 @a？"  # never 豪七 (龙七对)
    finally:
        table.ledger.close()
