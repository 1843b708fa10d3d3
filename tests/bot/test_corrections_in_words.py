"""Corrections said in words, as a play-test typed them (each was silent): the discarder named wrong (`不对 我没点炮
是老王点的`: 改成 点 老王), the hand just played named before owning up (`刚才那把记错了，是自摸`), what it was not
before 改成 (`刚才那把不是七对，改成 清一色`), and a win told by its discarder with the winner's 胡了 after their
name (`老王点炮 阿杰胡了 七对`: 阿杰's win off 老王, as `我点炮了 @小李 清一色` reads). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table, table

__all__ = ["table"]  # the fixture: a 卡五星 table of a (admin), b, c opened by a


@pytest.fixture
def won(table: Table) -> Iterator[Table]:
    """c's 七对 off b (b -4元)."""
    table.say("!admin a", "c: 胡 七对 点 @b", "!clock +20s")
    assert table.balances() == {"a": 0, "b": -400, "c": 400}
    yield table


def test_the_discarder_said_wrong_asks_the_recorder_as_a_correction_of_the_discarder(won: Table) -> None:
    asked = won.say("c: 不对 b没点炮 是a点的")
    assert any("改成「c 胡 a 点的炮 七对」？" in said for said in asked), asked
    won.say("c: !press 改成这样")
    assert won.balances() == {"a": -400, "b": 0, "c": 400}


def test_the_discarder_said_wrong_by_the_one_named_tells_whose_record_it_is(won: Table) -> None:
    told = won.say("b: 不对 我没点炮 是a点的")
    assert any("是 c 记的" in said for said in told), told
    assert won.balances() == {"a": 0, "b": -400, "c": 400}


@pytest.mark.parametrize(
    ("line", "becomes"),
    [("c: 刚才那把记错了，是自摸", "c 自摸 七对"), ("c: 刚才那把不是七对，改成 清一色", "c 胡 b 点的炮 清一色")],
)
def test_the_hand_just_played_named_before_owning_up_asks(won: Table, line: str, becomes: str) -> None:
    asked = won.say(line)
    assert any(f"改成「{becomes}」？" in said for said in asked), asked


@pytest.mark.parametrize("line", ["b: 刚才那把不对", "b: 刚才那把不是我点的吗"])  # `…记错了` alone is 记错了: 撤销
def test_the_hand_just_played_named_before_a_bare_mistake_is_chat(won: Table, line: str) -> None:
    assert [said for said in won.say(line) if "欢迎" not in said] == []  # b's first line gets the group's welcome


@pytest.mark.parametrize("line", ["a: a点炮 c胡了 七对", "a: a点炮 c 胡了 七对", "b: a点炮 c胡了 七对"])
def test_a_win_told_by_its_discarder_with_the_winners_word_after_their_name(table: Table, line: str) -> None:
    booked = table.say(line)
    assert any("c 胡 a 点的炮：七对" in said for said in booked), booked
    assert table.balances() == {"a": -400, "b": 0, "c": 400}
