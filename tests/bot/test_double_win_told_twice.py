"""A 一炮双响 told the usual way: each winner types their own win on the one discard, seconds apart. The second is
held back as the hand told otherwise (as any other ending of the hand just ended is) and offered as what it most
likely is — 「一炮双响」 — beside 「是新的一局」; pressed or typed by its winner, the hand just ended is booked again
with both wins, its number kept (it was booked as a second hand, or left to an admin to retype both). On SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

#: a deals; b wins on c's discard (七对 ×4: c pays 4), then a says they won on it too (卡五星 ×2: c pays 2 more)
FIRST = "b: 胡 七对 点 @c"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say("a: 开桌 @a @b @c 庄 @a", "!clock +3m", FIRST, "!clock +15s")
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize("second", ["a: 胡 卡五星 点 @c", "a: 我也胡了 卡五星 点 @c"])
def test_the_second_winner_is_offered_a_double_win_and_pressing_it_books_both_in_one_hand(
    table: Table, second: str
) -> None:
    out = table.say(second)
    assert any("点「一炮双响」" in line for line in out), out
    assert table.hands() == 1 and table.balances() == {"a": 0, "b": 400, "c": -400}
    out = table.say("a: !press 一炮双响")
    assert any("第1局 改记成一炮双响（原记录作废）" in line for line in out), out
    assert table.hands() == 1  # one hand, both wins: never a second hand
    assert table.balances() == {"a": 200, "b": 400, "c": -600}


def test_typing_it_answers_as_the_button(table: Table) -> None:
    table.say("a: 胡 卡五星 点 @c", "!clock +5s")
    out = table.say("a: 一炮双响")
    assert "bot: 好的，记成一炮双响（上面那条已经改成记下的结果）。" in out, out
    assert table.hands() == 1 and table.balances() == {"a": 200, "b": 400, "c": -600}


def test_someone_else_neither_presses_nor_types_it(table: Table) -> None:
    table.say("a: 胡 卡五星 点 @c", "!clock +5s")
    said = table.say("c: 一炮双响")  # the discarder's words are chat: only the held win's typer answers
    assert not any("一炮双响" in line for line in said), said
    out = table.say("c: !press 一炮双响")
    assert not any("改记成一炮双响" in line for line in out), out
    assert table.balances() == {"a": 0, "b": 400, "c": -400}


@pytest.mark.parametrize(
    "second",
    [
        "a: 胡 卡五星 点 @b",  # another discarder: two hands, not one discard
        "a: 胡 清一色 自摸",  # a self-draw is no 一炮双响
    ],
)
def test_only_a_win_on_the_same_discard_by_another_winner_is_offered_it(table: Table, second: str) -> None:
    out = table.say(second)
    assert any("是新的一局" in line for line in out), out
    assert not any("一炮双响" in line for line in out), out


def test_it_expires_once_the_hand_just_ended_changed(table: Table) -> None:
    table.say("a: 胡 卡五星 点 @c", "!clock +5s", "b: 撤销", "b: !press 确认撤销", "!clock +5s")
    out = table.say("a: !press 一炮双响")
    assert not any("改记成一炮双响" in line for line in out), out
    assert table.balances() == {"a": 0, "b": 0, "c": 0}


@pytest.mark.parametrize("whole", ["a: 胡 @b 七对 @a 卡五星 点 @c", "c: 一炮双响 @a 卡五星 @b 七对 点 @c"])
def test_the_whole_double_win_told_after_one_of_its_wins_is_offered_too(table: Table, whole: str) -> None:
    """The 一炮双响 told whole after b's single win (held back as that hand: the discarder paid twice when booked as
    a second hand) is offered 「一炮双响」 as well: pressed, the hand is the two wins as told, once."""
    out = table.say(whole)
    assert any("点「一炮双响」" in line for line in out), out
    typer = whole.split(":")[0]
    out = table.say(f"{typer}: !press 一炮双响")
    assert any("第1局 改记成一炮双响（原记录作废）" in line for line in out), out
    assert table.hands() == 1 and table.balances() == {"a": 200, "b": 400, "c": -600}
