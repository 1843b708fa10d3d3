"""The one reader of typed amounts (`bot.amounts`): every unit and decimal reads the same way wherever money is
typed, a displayed amount reads back as itself, and what cannot be read is refused with the reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.amounts import AmountError, looks_like_amount, parse_amount
from bot.texts import money

#: currency labels a group may set (`设置 货币 …`): each reads back as 元
LABELS = ["", "元", "块", "RMB", "刀", "块钱"]


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(LABELS))
def test_an_amount_as_the_bot_shows_it_reads_back_as_itself(amount: int, currency: str) -> None:
    assert parse_amount(money(amount, currency), currency) == amount


@given(st.integers(min_value=0, max_value=10**6), st.integers(0, 9), st.integers(0, 9))
def test_units_combined_read_as_their_sum(yuan: int, jiao: int, fen: int) -> None:
    total = yuan * 100 + jiao * 10 + fen
    assert parse_amount(f"{yuan}元{jiao}角{fen}分") == total
    assert parse_amount(f"{yuan}块{jiao}毛{fen}") == total
    assert parse_amount(f"{yuan * 100 + jiao * 10 + fen}分") == total
    assert parse_amount(f"{yuan}.{jiao}{fen}") == total


@pytest.mark.parametrize(
    ("typed", "fen"),
    [
        ("50分", 50),
        ("5毛", 50),
        ("5角", 50),
        ("0.5", 50),
        ("0.5元", 50),
        ("2块5", 250),
        ("2元5角", 250),
        ("1毛5", 15),
        ("2.5角", 25),
        ("11块钱", 1100),
        ("¥20", 2000),
        ("￥20", 2000),
        ("２０元", 2000),
        ("2.50", 250),
        ("0", 0),
        ("4元整", 400),
        ("20块整", 2000),
        ("五", 500),  # Chinese numerals: as the same number in digits (tests/bot/test_lines4.py)
        ("十元", 1000),
        ("一块五", 150),
        ("三块五毛", 350),
        ("两毛五", 25),
        ("一块5", 150),
    ],
)
def test_every_unit_reads(typed: str, fen: int) -> None:
    assert parse_amount(typed) == fen


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("-5", "amount_why_negative"),
        ("五五", "amount_why_digits"),  # numerals that name no number as people say one
        ("一块五十", "amount_why_ambiguous"),  # as 1块50
        ("0.5分", "amount_why_fraction"),
        ("2.555", "amount_why_fraction"),
        ("1.25角", "amount_why_fraction"),
        ("1,000", "amount_why_comma"),
        ("2块50", "amount_why_ambiguous"),
        ("5分2元", "amount_why_order"),
        ("2元3元", "amount_why_order"),
        ("2元15角", "amount_why_order"),
        ("1.5元5角", "amount_why_order"),
        ("5分3", "amount_why_order"),
        ("1e3", "amount_why_form"),
        ("¥5元", "amount_why_form"),
        ("$5", "amount_why_form"),
        ("8欢乐豆", "amount_why_unit"),
        ("5杯", "amount_why_unit"),
        ("2.5rmb", "amount_why_unit"),
        ("5元钱", "amount_why_form"),  # a unit, then more: not a word in the unit's place
    ],
)
def test_what_cannot_be_read_is_refused_with_the_reason(typed: str, why: str) -> None:
    with pytest.raises(AmountError) as refused:
        parse_amount(typed)
    assert refused.value.why == why


def test_a_word_not_meant_as_an_amount_is_no_amount() -> None:
    assert [parse_amount(w) for w in ["迟到", "", "@bob", "元"]] == [None] * 4
    assert not looks_like_amount("迟到三次")
    assert not looks_like_amount("一元复始")


def test_the_groups_currency_label_is_a_unit_of_that_group_only() -> None:
    assert parse_amount("3RMB", "RMB") == 300
    with pytest.raises(AmountError):
        parse_amount("3RMB")
    assert parse_amount("50分", "分") == 50  # a label that is itself a unit keeps the unit's meaning


def test_a_unit_that_is_not_the_groups_money_is_named_with_the_groups_own() -> None:
    with pytest.raises(AmountError) as refused:
        parse_amount("8欢乐豆")
    assert refused.value.params == {"unit": "欢乐豆", "currency": "元"}
    with pytest.raises(AmountError) as refused:
        parse_amount("8欢乐豆", "豆")
    assert refused.value.params == {"unit": "欢乐豆", "currency": "豆"}
    assert parse_amount("8欢乐豆", "欢乐豆") == 800
