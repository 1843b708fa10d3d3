"""Tile notation: both spellings in, both out, and every way a typed tile can be wrong."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.scoring.common import ScoringError
from ledger.scoring.tiles import (
    NUM_KINDS,
    format_notation,
    format_zh,
    parse_tile,
    parse_tiles,
    tile_notation,
    tile_zh,
)


def test_tenhou_notation_reads_suits_and_dragons():
    assert format_zh(parse_tiles("123p46p789s22s333s")) == "一二三四六筒 二二三三三七八九条"
    assert [tile_zh(t) for t in parse_tiles("567z")] == ["白", "发", "中"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5筒", "5p"),
        ("五筒", "5p"),
        ("5饼", "5p"),
        ("5条", "5s"),
        ("5索", "5s"),
        ("五束", "5s"),
        ("三万", "3m"),
        ("中", "7z"),
        ("红中", "7z"),
        ("发", "6z"),
        ("發", "6z"),
        ("白", "5z"),
        ("白板", "5z"),
        ("５ｐ", "5p"),
    ],
)
def test_chinese_names_of_one_tile(text, expected):
    assert tile_notation(parse_tile(text)) == expected


def test_a_run_of_numerals_shares_its_suit_in_both_spellings():
    assert parse_tiles("一二三筒") == parse_tiles("123p") == parse_tiles("1p2p3p") == parse_tiles("1筒 2筒、3筒")
    assert format_notation(parse_tiles("四五六条 中中 5z")) == "456s577z"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("0p", "红五"),
        ("1z", "风"),
        ("8z", "字牌"),
        ("12x", "「x」"),
        ("46", "缺少花色"),
        ("p", "缺少点数"),
        ("五中", "缺少花色"),
        ("11111p", "5 张"),
        ("东", "不是牌"),
    ],
)
def test_bad_tiles_name_what_is_wrong(text, fragment):
    with pytest.raises(ScoringError) as err:
        parse_tiles(text)
    assert err.value.code == "bad_tiles"
    assert fragment in err.value.message


def test_a_suit_the_rules_exclude_is_refused():
    assert parse_tiles("123m", suits=("p", "m"))
    with pytest.raises(ScoringError) as err:
        parse_tiles("123m", suits=("p", "s"))
    assert err.value.code == "bad_tiles" and "万" in err.value.message


def test_one_tile_means_one():
    with pytest.raises(ScoringError) as err:
        parse_tile("5p5p")
    assert err.value.code == "bad_tiles"


def test_a_non_string_is_a_bad_request():
    with pytest.raises(ScoringError) as err:
        parse_tiles(55)  # type: ignore[arg-type]
    assert err.value.code == "bad_request"


tile_lists = st.lists(st.integers(0, NUM_KINDS - 1), max_size=14).filter(lambda ts: all(ts.count(t) <= 4 for t in ts))


@given(tile_lists)
def test_notation_round_trips(tiles):
    assert parse_tiles(format_notation(tiles)) == sorted(tiles)


@given(tile_lists)
def test_chinese_round_trips(tiles):
    assert parse_tiles(format_zh(tiles)) == sorted(tiles)


@given(st.integers(0, NUM_KINDS - 1))
def test_single_tile_names_round_trip(tile):
    assert parse_tile(tile_notation(tile)) == tile
    assert parse_tile(tile_zh(tile)) == tile
