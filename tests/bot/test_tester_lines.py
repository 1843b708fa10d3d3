"""Record lines a play-tester typed that the bot got wrong: compound pattern names (`清七对`), lines it met with
silence (`胡了胡了 …`, money said with a win, `平胡 自摸`, `碰了又杠`, `亮了`), 点炮 told by name (`老王点的`,
`点炮的是老王`, `老王的炮`) and seats named by the person part of their 名片 (`王建国` for `王建国-成员`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.grammar import read
from bot.seat_names import by_person_part
from bot.vocabulary import PATTERN_COMPOUNDS
from ledger.accounts import person_part, reads_as
from tests.bot.test_recording_fixes import OPEN, Table, table

__all__ = ["table"]  # the fixture: a console with 开桌 sent


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))


# ----------------------------------------------------------------------- 1. compound pattern names (清七对, 清碰)


@pytest.mark.parametrize(
    ("line", "net"),
    [
        ("a: 胡 清七对 自摸", 1600),  # 清一色×七对 = ×16, capped ×8: each pays 8
        ("a: 清七对 自摸", 1600),  # without 胡 too
        ("a: 胡清七对自摸", 1600),
        ("a: 胡 清碰 自摸", 1600),  # 清一色×碰碰胡 = ×8
        ("a: 清碰 自摸", 1600),
        ("a: 胡 清对 自摸", 1600),
        ("a: 胡 清龙七对 自摸", 1600),  # ×32, capped ×8
        ("a: 胡 清双龙七对 自摸", 3200),  # a 双龙七对 reading caps at ×16
    ],
)
def test_a_compound_pattern_name_books_both_its_patterns(table: Table, line: str, net: int) -> None:
    out = table.say(line)
    assert table.hands() == 1, out
    assert table.balances() == {"a": net, "b": -net // 2, "c": -net // 2}
    assert any("清一色×4" in o for o in out)


@pytest.mark.parametrize("compound", sorted(PATTERN_COMPOUNDS))
def test_every_compound_reads_as_its_patterns(compound: str) -> None:
    assert [w.value for w in read(f"{compound} 自摸") if w.kind == "pattern"] == list(PATTERN_COMPOUNDS[compound])


@pytest.mark.parametrize("line", ["a: 胡 清一条龙 自摸", "a: 胡 清幺九 自摸"])
def test_a_pattern_name_not_read_is_never_dropped_by_a_suggestion(table: Table, line: str) -> None:
    out = table.say(line)
    assert not any("是不是" in o for o in out), out
    assert any("看不懂" in o for o in out)
    assert table.hands() == 0


def test_a_typo_in_a_pattern_name_is_still_suggested(table: Table) -> None:
    assert any("是不是：胡 清一色 自摸？" in o for o in table.say("a: 胡 清一涩 自摸"))


# ------------------------------------------------------------------------------------------ 2. silent lines


@pytest.mark.parametrize(
    ("line", "balances"),
    [
        ("a: 胡了胡了！卡五星 c放的炮", {"a": 200, "b": 0, "c": -200}),
        ("a: 胡了胡了 七对 自摸", {"a": 800, "b": -400, "c": -400}),
        ("a: c点炮 我胡七对", {"a": 400, "b": 0, "c": -400}),
        ("a: 我胡七对 @c 放的", {"a": 400, "b": 0, "c": -400}),
        ("a: 平胡 自摸", {"a": 200, "b": -100, "c": -100}),
        ("a: 鸡胡 自摸", {"a": 200, "b": -100, "c": -100}),
        ("a: 小胡 自摸", {"a": 200, "b": -100, "c": -100}),
        ("a: 胡 鸡胡 自摸", {"a": 200, "b": -100, "c": -100}),  # as 胡 平胡 自摸
        # what a chat shows as nothing is no part of the words: a direction override before 胡 (was silent), a
        # pasted control character inside (was 「没看懂「七对」」, quoting what looked right)
        # cheering after the record (were asked 「没看懂「gg」」), 7对 for 七对 as 卡5星 for 卡五星
        ("a: 胡 七对 自摸 gg", {"a": 800, "b": -400, "c": -400}),
        ("a: 胡 七对 自摸 nice", {"a": 800, "b": -400, "c": -400}),
        ("a: 胡 七对 自摸 666", {"a": 800, "b": -400, "c": -400}),
        ("a: 胡 7对 自摸", {"a": 800, "b": -400, "c": -400}),
        # the win word again after the patterns, laughter or `ok` before the record (were silent)
        ("a: 清一色自摸 胡了", {"a": 800, "b": -400, "c": -400}),
        ("a: 清一色 自摸 胡了", {"a": 800, "b": -400, "c": -400}),
        ("a: 哈哈 我自摸了 七对！！", {"a": 800, "b": -400, "c": -400}),
        ("a: ok 胡 七对 自摸", {"a": 800, "b": -400, "c": -400}),
        ("a: \u202e胡 七对 自摸", {"a": 800, "b": -400, "c": -400}),
        ("a: 胡 七对\x07 自摸", {"a": 800, "b": -400, "c": -400}),
        ("a: 胡 七\u200b对 自摸", {"a": 800, "b": -400, "c": -400}),
    ],
)
def test_lines_once_met_with_silence_book(table: Table, line: str, balances: dict[str, int]) -> None:
    out = table.say(line)
    assert out and table.balances() == balances, out


@pytest.mark.parametrize(
    ("line", "amount", "asked"),
    [
        ("a: 七对 自摸 4块一家", "4块一家", "胡 七对 自摸"),
        ("a: 清一色自摸！每人8块", "每人8块", "胡 清一色自摸"),
        ("a: b自摸 七对 8块", "8块", "胡 b 七对 自摸"),
        ("a: 胡 七对 自摸 4块一家", "4块一家", "胡 七对 自摸"),
        # in Chinese numerals, as the amount is said aloud (were silent: read as chat, the hand never booked)
        ("a: 七对 自摸 四块一家", "四块一家", "胡 七对 自摸"),
        ("a: 清一色自摸 每人八块", "每人八块", "胡 清一色自摸"),
        ("a: 胡 七对 自摸 两块五一家", "两块五一家", "胡 七对 自摸"),
        ("a: b自摸 七对 十块", "十块", "胡 b 七对 自摸"),
    ],
)
def test_money_said_with_a_win_is_asked_about_never_silent(table: Table, line: str, amount: str, asked: str) -> None:
    out = table.say(line)
    assert any(f"「{amount}」不算在内" in o and f"是不是：{asked}？" in o for o in out), out
    assert table.hands() == 0
    table.say("a: !press 就是这个")
    assert table.hands() == 1


def test_money_said_cheering_a_win_just_recorded_asks_nothing(table: Table) -> None:
    table.say("b: 胡 清一色 自摸")
    assert table.say("a: 清一色自摸！每人8块") == []
    assert table.hands() == 1


@pytest.mark.parametrize("line", ["a: 碰了又杠 4s", "a: 我碰了又杠 4s"])
def test_a_pung_konged_later_is_an_added_kong(table: Table, line: str) -> None:
    out = table.say(line)
    assert any("蓄杠 四条" in o for o in out)
    assert table.balances() == {"a": 200, "b": -100, "c": -100}


@pytest.mark.parametrize("line", ["b: 亮了", "b: 我亮", "b: 我亮了", "b: 我也亮倒", "b: 我也亮了"])
def test_liangdao_said_short_is_a_liangdao(table: Table, line: str) -> None:
    out = table.say(line)
    assert any("b 亮倒" in o for o in out), out


# ---------------------------------------------------------------------------------- 3. 点炮 told by name


def test_a_discarder_named_before_dian_de_in_a_kong(table: Table) -> None:
    out = table.say("a: 直杠 9筒 c点的")
    assert any("点杠 c" in o for o in out), out
    assert table.balances() == {"a": 200, "b": 0, "c": -200}


@pytest.mark.parametrize("line", ["a: 我胡了 七对 点炮的是c", "a: 胡了 七对 c的炮", "a: 七对 c的炮"])
def test_the_discarder_said_in_a_sentence(table: Table, line: str) -> None:
    out = table.say(line)
    assert table.balances() == {"a": 400, "b": 0, "c": -400}, out


# ------------------------------------------------------------------------- 4. a seat by its person part


def test_a_seat_is_reachable_by_the_person_part_of_its_name(db_url: str) -> None:
    t = Table(db_url)
    try:
        t.say("!join w 王建国-成员", "!join l 李四-成员", "a: 开桌 @a @w @l 庄 @a")
        out = t.say("a: 胡 清一色 点 王建国")
        assert any("王建国-成员 点的炮" in o for o in out), out
        out = t.say("!clock +5m", "a: 直杠 4s 李四点的", "a: 杠 王建国 暗 5s")
        assert any("点杠 李四-成员" in o for o in out) and any("王建国-成员 暗杠 五条" in o for o in out), out
    finally:
        t.ledger.close()


def test_a_person_part_two_seats_share_names_neither() -> None:
    assert by_person_part(["王建国-成员", "王建国-管理", "李四-成员"]) == {"李四": "李四-成员"}
    assert by_person_part(["小李", "小李-成员"]) == {}  # 小李 is a seat's whole name
    assert by_person_part(["我-成员", "王-成员", "李四-成员"]) == {"李四": "李四-成员"}  # one character: a word


@settings(max_examples=200)
@given(st.lists(st.text(alphabet="王李张-成员管 ", min_size=1, max_size=8), max_size=4))
def test_a_person_part_names_one_seat_and_never_another_seats_whole_name(seats: list[str]) -> None:
    found = by_person_part(seats)
    for key, seat in found.items():
        assert seat in seats and person_part(seat) == key and len(key) >= 2
        assert sum(person_part(s) == key for s in seats) == 1
        assert all(reads_as(s) != key for s in seats)


# --------------------------------------------------------------------------- 5. the night before, asked the next day


def test_last_night_asked_the_next_day_is_answered_from_its_reports(table: Table) -> None:
    assert table.say("a: 昨晚谁赢了") == ["bot: 昨晚还没有记录。"]
    table.say("a: 胡 清一色 自摸", "!clock +5m", "b: 胡 七对 点 c", "a: 结算", "!clock +14h")
    out = table.say("a: 昨晚谁赢了")
    assert out[0].startswith("bot: 📊 本群 · 第1晚") and any(o.startswith("bot: a +8元") for o in out), out
    assert table.say("a: 昨天谁赢了？")[0].startswith("bot: 📊 本群 · 第1晚")
    out = [o for o in table.say("c: 我昨晚输了多少") if "欢迎" not in o]
    assert out[0].startswith("bot: 📊 c · 第1晚") and any("净 -8元" in o for o in out), out
    assert any(o.startswith("bot: 第1晚结算") for o in table.say("a: 昨晚战报"))
    # a new night under way: 昨晚 is still the night before it, 战报 alone tonight's
    table.say(OPEN, "a: 胡 七对 自摸")
    assert any(o.startswith("bot: 第1晚结算") for o in table.say("a: 昨晚战报"))
    assert table.say("a: 昨晚谁输得最多")[0].startswith("bot: 📊 本群 · 第1晚")
    assert not any(o.startswith("bot: 第1晚") for o in table.say("a: 战报"))
