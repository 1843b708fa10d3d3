"""A correction naming a finished hand other than the latest (`改 第1局 …`, `改成 第1局 …`, `第1局 改成 …`,
`第1局改成 …`) corrects that hand: the same question naming 第1局, the same permission rules (its recorder or an
admin), and 「改成这样」 re-scores it in place. Found by a play-test: the admin's lines were silent, and the
recorder's dropped 第1局 and answered about 第2局. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table, table

__all__ = ["table"]  # the fixture: a 卡五星 table of a (admin), b, c opened by a


@pytest.fixture
def two_hands(table: Table) -> Iterator[Table]:
    """Hand 1: c wins 七对 off b (b -4元); hand 2: b's 碰碰胡 self-drawn."""
    table.say("!admin a", "c: 胡 七对 点 @b", "!clock +3m", "b: 胡 碰碰胡 自摸", "!clock +3m")
    assert table.balances() == {"a": -200, "b": 0, "c": 200}
    yield table


@pytest.mark.parametrize(
    "line",
    [
        "c: 改 第1局 七对 点 @a",
        "c: 改成 第1局 七对 点 @a",
        "c: 第1局改成 七对 点 @a",
        "c: 第一局 改成 七对 点 @a",
        "c: 不对 第1局 七对 点 @a",
        "a: 改 第1局 @c 胡 七对 点 @a",
        "a: 第1局 改成 @c 胡 七对 点 @a",
    ],
)
def test_a_correction_naming_an_older_hand_asks_about_that_hand_and_rescores_it(two_hands: Table, line: str) -> None:
    asked = two_hands.say(line)
    assert any(
        "把第1局的「c 胡 b 点的炮 七对」" in said and "改成「c 胡 a 点的炮 七对」？" in said for said in asked
    ), asked
    assert two_hands.balances() == {"a": -200, "b": 0, "c": 200}  # asked first: nothing changed yet
    done = two_hands.say(f"{line.split(':')[0]}: !press 改成这样")
    assert any("第1局 已改正" in said for said in done), done
    assert two_hands.balances() == {"a": -600, "b": 400, "c": 200} and two_hands.hands() == 2


def test_someone_else_naming_an_older_hand_is_told_whose_record_that_hand_is(two_hands: Table) -> None:
    told = two_hands.say("b: 第1局改成 七对 点 @a")
    assert any("第1局（c 胡 b 点的炮 七对）是 c 记的" in said for said in told), told
    assert two_hands.balances() == {"a": -200, "b": 0, "c": 200}


def test_a_hand_not_finished_is_refused_by_number(two_hands: Table) -> None:
    assert two_hands.say("c: 改成 第5局 自摸") == ["bot: 这张牌桌没有打完的第5局。"]


def test_the_question_expires_once_that_hand_is_corrected_otherwise(two_hands: Table) -> None:
    two_hands.say("c: 改成 第1局 自摸")
    two_hands.say("a: 改成 第1局 @c 胡 七对 点 @a", "a: !press 改成这样")
    stale = two_hands.say("c: 对")
    assert any("第1局那条记录已经变了" in said for said in stale), stale
    assert two_hands.balances() == {"a": -600, "b": 400, "c": 200}


def test_an_english_group_is_asked_in_english(two_hands: Table) -> None:
    two_hands.say("a: 设置 语言 en")
    asked = two_hands.say("c: change to hand 1 seven pairs off @a")
    assert any("Replace hand 1's" in said for said in asked), asked
