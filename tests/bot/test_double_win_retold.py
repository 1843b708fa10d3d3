"""A 一炮双响 told after one of its winners' single win was booked (the other winner left out), past the 90 s window
but within the hand's span (`booking.EXACT_RETELLING` windows, 4½ minutes at 90 s): once booked as a new hand, the
winner charged twice. Held back as that hand told otherwise (「是新的一局」, and 改成 for the record's owner), from
anyone — and so is one of its winners' single win after a 一炮双响. Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.events import widens
from tests.bot.test_dupes2 import NEW_HAND_BUTTONS, OTHER, SPAN, Table

SINGLE = "xiaoli: 胡 七对 点 @wangge"
DOUBLE = "一炮双响 @xiaoli 七对 @ajie 清一色 点 @wangge"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize("sender", ["ajie", "xiaoli", "wangge"])
def test_a_double_win_after_one_of_its_wins_is_that_hand_told_otherwise(table: Table, sender: str) -> None:
    table.say(SINGLE, "!clock +2m")
    booked = table.booked()
    out = table.say(f"{sender}: {DOUBLE}")
    by = "你" if sender == "xiaoli" else "小李"
    told = f"bot: {by} 2分钟前记的：第1局 小李 胡 王哥 点的炮 七对。{OTHER.format(owner=by)}"
    offered = ["bot: 同一张点炮两家都胡了，点「一炮双响」，这两个胡记成同一局。", "bot: [按钮] 一炮双响"]
    assert out == [told, *offered, NEW_HAND_BUTTONS]  # 「一炮双响」 books it as that hand: test_double_win_told_twice
    assert table.booked() == booked  # the winner is not charged twice
    out = table.say(f"{sender}: 是新的一局")  # a real second hand costs one word (or press)
    assert out[0] == "bot: 第2局 记下：" and table.booked()[1] == 2


def test_the_owner_adds_the_second_winner_with_a_correction(table: Table) -> None:
    table.say(SINGLE, "!clock +2m", f"ajie: {DOUBLE}", "ajie: 不用了", "!clock +10s")
    asked = table.say(f"xiaoli: 改成 {DOUBLE}")
    assert any("改成「小李 胡 王哥 点的炮 七对；阿杰 胡 王哥 点的炮 清一色」？" in said for said in asked), asked
    table.say("xiaoli: 改成这样")
    balances, hands, _ = table.booked()
    assert hands == 1 and balances["小李"] == 400 and balances["阿杰"] == 400 and balances["王哥"] == -800


def test_a_single_win_after_a_double_win_it_is_part_of_is_held_back(table: Table) -> None:
    table.say(f"wangge: {DOUBLE}", "!clock +2m")
    booked = table.booked()
    out = table.say("ajie: 胡 清一色 点 @wangge")
    assert out[-1] == NEW_HAND_BUTTONS and "多半说的是同一局" in out[0]
    assert table.booked() == booked


@pytest.mark.parametrize(
    "line",
    [
        "ajie: 一炮双响 @xiaoli 七对 @wangge 清一色 点 @ajie",  # another discarder
        "xiaoli: 一炮双响 @ajie 七对 @wangge 清一色 点 @xiaoli",  # neither winner won before
    ],
)
def test_a_double_win_of_another_hand_is_booked(table: Table, line: str) -> None:
    table.say(SINGLE, "!clock +2m")
    assert table.say(line)[0] == "bot: 第2局 记下："


def test_a_double_win_after_the_span_is_a_new_hand(table: Table) -> None:
    table.say(SINGLE, f"!clock +{SPAN + 1}s")
    assert table.say(f"ajie: {DOUBLE}")[0] == "bot: 第2局 记下："


PLAYERS = ("a", "b", "c")


def _win(winner: str, discarder: str) -> dict[str, object]:
    return {"type": "hu", "winner": winner, "method": "discard", "from": discarder, "hand": {"patterns": ["qidui"]}}


@given(st.permutations(PLAYERS), st.permutations(PLAYERS), st.integers(0, 1))
def test_widening_is_symmetric_and_needs_a_shared_winner_off_one_discarder(
    one: list[str], two: list[str], which: int
) -> None:
    single = [_win(one[0], one[2])]
    double = [_win(two[0], two[2]), _win(two[1], two[2])]
    assert widens(single, double) == widens(double, single)
    assert widens(single, double) == (one[2] == two[2] and one[0] in two[:2])
    assert not widens(single, single) and not widens(double, double)
    assert not widens(single, [{"type": "draw"}, _win(two[which], two[2])])
