"""Corrections at a table: 撤销 takes back exactly one record, double entries are held back, a settled night stays
as it was, an edit that changes nothing changes nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.booking import EXACT_RETELLING, KONG_RESEND
from ledger.chat_options import set_double_entry
from ledger.events import (
    Draw,
    GoujiRound,
    Kong,
    Liangdao,
    PenghuPlay,
    Win,
    WinHand,
    ends_hand,
    payloads,
    repeats,
    retells,
)
from ledger.service import DuplicateRecord, Ledger, LedgerError

from .helpers import CHAT, KAWUXING_HAND, gang, hu, seat_kawuxing

QINGYISE = WinHand(patterns=("qingyise",))


_chats = itertools.count(-700_000, -2)


def seat_money(ledger: Ledger, table: Any) -> list[int]:
    balances = ledger.balances(CHAT)
    return [balances.of(seat.member_id) for seat in table.seats]


def test_undoing_a_win_reopens_the_hand_with_its_kongs_and_liangdao(ledger: Ledger) -> None:
    """暗杠 7z, 蓄杠 4s, 亮倒, 胡 清一色 自摸, 撤销: only the win goes; typed again, the win pays with 亮倒."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Kong("A", "angang", tile="7z"), source="c:1", by=1)
    ledger.record_event(table.id, Kong("B", "xugang", tile="4s"), source="c:2", by=2)
    ledger.record_event(table.id, Liangdao("C"), source="c:3", by=3)
    won = ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="c:4", by=3)
    assert won.finished
    with_win = seat_money(ledger, table)
    undone = ledger.undo(table.id, source="c:5", by=3)
    assert undone.what == "reopened" and undone.number == 1 and undone.hand_number == 1
    assert [e["type"] for e in undone.remaining] == ["gang", "gang", "liangdao"]
    assert seat_money(ledger, table) == [400 - 100, -200 + 200, -200 - 100]  # the two kongs' money only
    again = ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="c:6", by=3)
    assert again.number == 1 and "liangdao" in [p["key"] for p in again.answer["hands"][0]["patterns"]]
    assert seat_money(ledger, table) == with_win


def test_undoing_a_draw_keeps_its_liangdao(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Liangdao("B"), source="d:1", by=1)
    ledger.record_event(table.id, Draw(), source="d:2", by=1)
    undone = ledger.undo(table.id, source="d:3", by=1)
    assert undone.what == "reopened" and [e["type"] for e in undone.remaining] == ["liangdao"]
    assert ledger.hand_state(table.id).liangdao == ("B",)
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)


def test_a_double_win_is_one_record(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="w:1", by=1)
    ledger.record_events(table.id, [hu("B", "discard", "A"), hu("C", "discard", "A")], source="w:2", by=1)
    record = ledger.latest_record(table.id)
    assert record is not None and record.finished and [e["winner"] for e in record.events] == ["B", "C"]
    undone = ledger.undo(table.id, source="w:3", by=1, expect=record.event_ids[-1])
    assert undone.what == "reopened" and [e["type"] for e in undone.events] == ["hu", "hu"]
    assert [e["type"] for e in ledger.hand_state(table.id).events] == ["gang"]


def test_undo_after_a_kong_of_the_next_hand_reaches_back_only_when_asked_again(ledger: Ledger) -> None:
    """胡, 暗杠, 撤销, 撤销: the first takes the kong, the second the win (the caller confirms that one)."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, hu("C", "self_draw"), source="n:1", by=1)
    ledger.record_event(table.id, gang("B", "angang"), source="n:2", by=2)
    first = ledger.undo(table.id, source="n:3", by=2)
    assert first.what == "event" and first.hand_number == 2
    record = ledger.latest_record(table.id)
    assert record is not None and record.finished and record.hand_number == 1 and record.recorded_by == 1
    second = ledger.undo(table.id, source="n:4", by=2, expect=record.event_ids[-1])
    assert second.what == "reopened" and second.hand_number == 1 and second.dealer == "A"
    assert ledger.current_table(CHAT).hand_number == 1
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)


def test_an_undo_confirmed_for_a_record_no_longer_latest_is_refused(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="x:1", by=1)
    shown = ledger.latest_record(table.id)
    assert shown is not None
    ledger.record_event(table.id, gang("B", "angang"), source="x:2", by=2)
    with pytest.raises(LedgerError) as changed:
        ledger.undo(table.id, source="x:3", by=1, expect=shown.event_ids[-1])
    assert changed.value.code == "record_changed"
    assert len(ledger.hand_state(table.id).events) == 2


def test_undo_of_a_hand_by_number_and_the_latest_finished_hand_after_an_edit(ledger: Ledger) -> None:
    """An edit of an earlier hand makes a newer row for it: the latest finished hand is still the last played."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, hu("C", "self_draw"), source="tg:1:1", by=1)
    ledger.record_event(table.id, hu("C", "discard", "A"), source="tg:1:2", by=1)
    ledger.replace_hand("tg:1:1", [hu("C", "discard", "B")], source="tg:1:1:e5", by=1)
    latest = ledger.latest_record(table.id)
    assert latest is not None and latest.hand_number == 2 and latest.source == "tg:1:2"
    first = ledger.finished_hand(table.id, 1)
    assert first is not None and first.events[0]["from"] == "B"
    assert ledger.finished_hand(table.id, 7) is None
    voided = ledger.void_hand(first.hand_id, source="tg:1:3", by=1, table_id=table.id)
    assert voided.what == "hand" and voided.number == 1 and voided.hand_number == 3


def test_a_settled_night_refuses_undo_void_and_edit(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    won = ledger.record_event(table.id, hu("C", "self_draw"), source="tg:1:1", by=1)
    ledger.end_night(CHAT, source="tg:1:2", by=1)
    before = ledger.balances(CHAT)
    for attempt, code in (
        (lambda: ledger.undo(table.id, source="s:1", by=1), "night_closed"),
        (lambda: ledger.void_hand(won.hand_id, source="s:2", by=1), "hand_night_settled"),
        (lambda: ledger.replace_hand("tg:1:1", [hu("C", "discard", "B")], source="tg:1:1:e9", by=1), "night_closed"),
    ):
        with pytest.raises(LedgerError) as refused:
            attempt()
        assert refused.value.code == code
    assert ledger.balances(CHAT) == before


def test_an_edit_that_changes_nothing_is_refused_as_unchanged(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="tg:1:5", by=1)
    ledger.record_event(table.id, Kong("A", "angang", chained=True), source="tg:1:6", by=1)
    with pytest.raises(LedgerError) as same:
        ledger.replace_hand("tg:1:6", [Kong("A", "angang", chained=True)], source="tg:1:6:e1", by=1)
    assert same.value.code == "unchanged"
    edited = ledger.replace_hand("tg:1:6", [Kong("A", "angang", tile="3s", chained=True)], source="tg:1:6:e2", by=1)
    assert edited.events[-1]["chain"] == 2 and edited.events[-1]["tile"] == "3s"


# ------------------------------------------------------------------------------------------ double entries


def test_the_same_kong_from_someone_else_within_the_window_is_held_back(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    ledger.member(CHAT, 7, "记账的")
    ledger.record_event(table.id, Kong("A", "angang", tile="6z"), source="k:1", by=7, check_repeat=True)
    clock.advance(seconds=5)
    with pytest.raises(DuplicateRecord) as dup:
        ledger.record_event(table.id, Kong("A", "angang", tile="6z"), source="k:2", by=8, check_repeat=True)
    previous = dup.value.previous
    assert previous.recorded_by == 7 and previous.recorded_by_name == "记账的" and previous.events[0]["tile"] == "6z"
    assert len(ledger.hand_state(table.id).events) == 1
    # a tile named on one side only is still the same kong; a different tile is another kong
    with pytest.raises(DuplicateRecord):
        ledger.record_event(table.id, Kong("A", "angang"), source="k:3", by=8, check_repeat=True)
    ledger.record_event(table.id, Kong("A", "angang", tile="3s"), source="k:4", by=8, check_repeat=True)
    assert len(ledger.hand_state(table.id).events) == 2


def test_a_repeat_is_booked_by_the_same_person_after_the_window_or_when_confirmed(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="r:1", by=1, check_repeat=True)
    with pytest.raises(DuplicateRecord):  # the same person at once: the message sent twice (KONG_RESEND)
        ledger.record_event(table.id, gang("A", "angang"), source="r:1b", by=1, check_repeat=True)
    clock.advance(seconds=KONG_RESEND.total_seconds() + 1)
    ledger.record_event(table.id, gang("A", "angang"), source="r:2", by=1, check_repeat=True)  # same person, later
    clock.advance(seconds=90 * EXACT_RETELLING + 1)  # no tile to tell two apart: someone else's for three windows
    ledger.record_event(table.id, gang("A", "angang"), source="r:3", by=2, check_repeat=True)  # window passed
    ledger.record_event(table.id, gang("A", "angang"), source="r:4", by=3)  # confirmed: no check
    assert len(ledger.hand_state(table.id).events) == 4


def test_the_same_win_twice_is_held_back_and_the_window_is_the_groups(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="h:1", by=1, check_repeat=True)
    clock.advance(seconds=3)
    with pytest.raises(DuplicateRecord) as dup:
        ledger.record_event(
            table.id, Win("C", "self_draw", WinHand(patterns=())), source="h:2", by=2, check_repeat=True
        )
    assert dup.value.previous.finished and dup.value.previous.hand_number == 1
    assert ledger.current_table(CHAT).hand_number == 2
    set_double_entry(ledger.engine, table.group_id, 0, by=1)  # the group turned the check off
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="h:3", by=2, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 3


def test_the_same_win_exactly_from_someone_else_is_held_back_for_three_windows(ledger: Ledger, clock) -> None:
    """Play-test: 小李 telling 阿杰's win exactly as 阿杰 had, 100 s later (past the 90 s window), booked it twice. An
    exact retelling by someone else with nothing recorded since is held back for three windows, and so is the same
    winner told otherwise; from its own recorder told otherwise, after a kong of the next hand, or later, it is a
    new hand."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="x:1", by=1, check_repeat=True)
    clock.advance(seconds=100)
    with pytest.raises(DuplicateRecord) as dup:
        ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="x:2", by=2, check_repeat=True)
    assert not dup.value.differs and dup.value.previous.hand_number == 1
    clock.advance(seconds=160)  # 260 s: still within 3 × 90 s
    with pytest.raises(DuplicateRecord):
        ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="x:3", by=2, check_repeat=True)
    # the same winner told otherwise (another way) by someone else: that hand told otherwise, for as long
    with pytest.raises(DuplicateRecord) as dup:
        ledger.record_event(table.id, Win("C", "discard", QINGYISE, "A"), source="x:4", by=2, check_repeat=True)
    assert dup.value.differs
    # by its own recorder past the window: taken as meant, a new hand
    ledger.record_event(table.id, Win("C", "discard", QINGYISE, "A"), source="x:4b", by=1, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 3
    clock.advance(seconds=100)
    ledger.record_event(table.id, Kong("B", "angang"), source="x:5", by=3, check_repeat=True)  # the next hand's
    ledger.record_event(table.id, Win("C", "discard", QINGYISE, "A"), source="x:6", by=1, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 4
    clock.advance(seconds=271)
    ledger.record_event(table.id, Win("C", "discard", QINGYISE, "A"), source="x:7", by=2, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 5


def test_the_same_winner_told_another_way_is_held_back(ledger: Ledger, clock) -> None:
    """A hand takes longer than the window: the same winner again from someone else is that win told otherwise
    (`differs`), whatever discarder or way they tell; another winner from its own recorder, or after the window, is
    another hand."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Win("A", "discard", QINGYISE, "C"), source="w:1", by=1, check_repeat=True)
    for step, told in enumerate((Win("A", "discard", QINGYISE, "B"), Win("A", "self_draw", QINGYISE))):
        clock.advance(seconds=10)
        with pytest.raises(DuplicateRecord) as dup:
            ledger.record_event(table.id, told, source=f"w:{step + 2}", by=2 + step, check_repeat=True)
        assert dup.value.previous.events[0]["from"] == "C" and dup.value.differs
    ledger.record_event(table.id, Win("B", "self_draw", QINGYISE), source="w:4", by=1, check_repeat=True)
    clock.advance(seconds=91)
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="w:5", by=2, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 4


def test_another_ending_from_someone_else_right_after_a_hand_is_held_back(ledger: Ledger, clock) -> None:
    """A 卡五星 hand takes minutes: another win or a draw from someone else within the window of a hand's end is
    most likely that hand told otherwise (`differs`), a 一炮双响 against one of its winners too; a kong after it
    is the next hand's, and the group's 0 turns the check off."""
    table = seat_kawuxing(ledger)
    ledger.member(CHAT, 7, "记账的")
    ledger.record_event(table.id, Win("A", "self_draw", QINGYISE), source="o:1", by=7, check_repeat=True)
    clock.advance(seconds=20)
    told = (
        [Win("B", "discard", WinHand(patterns=("pengpenghu",)), "C")],
        [Draw()],
        [Win("A", "discard", QINGYISE, "C"), Win("B", "discard", QINGYISE, "C")],
    )
    for step, events in enumerate(told):
        with pytest.raises(DuplicateRecord) as dup:
            ledger.record_events(table.id, events, source=f"o:{step + 2}", by=8, check_repeat=True)
        previous = dup.value.previous
        assert dup.value.differs and previous.recorded_by_name == "记账的" and previous.hand_number == 1
    ledger.record_event(table.id, Kong("B", "angang"), source="o:5", by=8, check_repeat=True)  # hand 2's
    ledger.record_event(table.id, Draw(), source="o:6", by=8, check_repeat=True)  # ends hand 2: a kong came first
    with pytest.raises(DuplicateRecord) as after_draw:
        ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="o:7", by=7, check_repeat=True)
    assert after_draw.value.differs and after_draw.value.previous.hand_number == 2
    set_double_entry(ledger.engine, table.group_id, 0, by=1)
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="o:8", by=7, check_repeat=True)
    assert ledger.current_table(CHAT).hand_number == 4


def test_a_recap_is_the_hand_just_ended_whenever_and_by_whomever_it_comes(ledger: Ledger, clock) -> None:
    """A line that says it tells the hand just recorded (`recap`: `刚才 …`) naming its winner is that hand long
    after the window: the same record when it reads exactly alike, another telling of it otherwise — from its own
    recorder too; another winner's recap then is a hand of its own. Once the next hand has a record, a recap ends
    that one as any win does."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Win("A", "discard", QINGYISE, "C"), source="r:1", by=7, check_repeat=True)
    clock.advance(minutes=10)
    for step, (win, by, differs) in enumerate(
        (
            (Win("A", "discard", QINGYISE, "C"), 8, False),
            (Win("A", "discard", QINGYISE, "C"), 7, False),
            (Win("A", "self_draw", QINGYISE), 8, True),  # the same winner, told otherwise
            (Win("A", "discard", WinHand(patterns=("qidui",)), "C"), 7, True),
        )
    ):
        with pytest.raises(DuplicateRecord) as dup:
            ledger.record_events(table.id, [win], source=f"r:{step + 2}", by=by, check_repeat=True, recap=True)
        assert dup.value.differs is differs, win
    with pytest.raises(DuplicateRecord):  # the bot asks the rules' questions only past this check
        ledger.refuse_repeat(table.id, [Win("A", "self_draw", QINGYISE)], by=8, recap=True)
    ledger.refuse_repeat(table.id, [Win("B", "self_draw", QINGYISE)], by=8, recap=True)  # another winner: a new hand
    ledger.record_events(table.id, [Win("A", "discard", QINGYISE, "C")], source="r:8", by=8, recap=True)  # confirmed
    ledger.record_event(table.id, Kong("B", "angang"), source="r:9", by=8, check_repeat=True)
    clock.advance(minutes=10)
    ledger.record_events(
        table.id, [Win("A", "discard", QINGYISE, "C")], source="r:10", by=8, check_repeat=True, recap=True
    )
    assert ledger.current_table(CHAT).hand_number == 4


_WINS = st.lists(
    st.builds(
        lambda winner, method, patterns: (
            Win(winner, method, WinHand(patterns=tuple(patterns)), None)
            if method == "self_draw"
            else Win(winner, method, WinHand(patterns=tuple(patterns)), "C")
        ),
        st.sampled_from("AB"),
        st.sampled_from(["self_draw", "discard"]),
        st.lists(st.sampled_from(["qingyise", "qidui", "pengpenghu", "kawuxing"]), max_size=3),
    ),
    min_size=1,
    max_size=2,
    unique_by=lambda win: win.winner,
)


@settings(max_examples=40, deadline=None)
@given(_WINS, st.randoms())
def test_a_hand_told_exactly_alike_is_retold_in_any_order_and_one_word_more_is_not(wins: list[Win], rng: Any) -> None:
    """`retells` reads a 一炮双响 in any order and any order of patterns; what it retells `repeats` too (the same
    winners); another pattern makes it another telling of the same winners."""
    stored = payloads(wins)
    told = [
        Win(w.winner, w.method, WinHand(patterns=tuple(rng.sample(w.hand.patterns, len(w.hand.patterns)))), w.discarder)
        for w in rng.sample(wins, len(wins))
    ]
    assert retells(told, stored) and repeats(told, stored)
    first = told[0]
    more = Win(first.winner, first.method, WinHand(patterns=(*first.hand.patterns, "haidilao")), first.discarder)
    assert not retells([more, *told[1:]], stored) and repeats([more, *told[1:]], stored)
    assert ends_hand(told) and not ends_hand([*told, Kong("A", "angang")])


def test_a_gouji_round_and_a_penghu_win_or_draw_are_checked_for_double_entries(ledger: Ledger, clock) -> None:
    """够级: the same finishing order (marks aside), and after the window a round of its own; 碰胡: the same
    winner, whatever the way, another ending within the window, or a draw after a draw; a 碰 told again by someone
    else too."""
    gouji_chat, penghu_chat = -401, -402
    for chat, game, seats in ((gouji_chat, "gouji", "ABCDEF"), (penghu_chat, "penghu", "ABCD")):
        ledger.group(chat)
        ledger.update_group(chat, game=game, base=100, source=f"{chat}:cfg", by=1)
        ids = [ledger.member(chat, 10 + i, name).id for i, name in enumerate(seats)]
        ledger.open_table(chat, ids, source=f"{chat}:open", by=1)
    gouji_table = ledger.current_table(gouji_chat)
    ledger.record_event(gouji_table.id, GoujiRound(tuple("ACEBDF")), source="g:1", by=1, check_repeat=True)
    with pytest.raises(DuplicateRecord):
        ledger.record_event(gouji_table.id, GoujiRound(tuple("ACEBDF")), source="g:2", by=2, check_repeat=True)
    clock.advance(seconds=91)  # within the window, another order from someone else is that round told otherwise
    ledger.record_event(gouji_table.id, GoujiRound(tuple("BDFACE")), source="g:3", by=2, check_repeat=True)
    assert ledger.current_table(gouji_chat).hand_number == 3
    table = ledger.current_table(penghu_chat)
    ledger.record_event(table.id, PenghuPlay("hu", "B"), source="p:1", by=1, check_repeat=True)
    with pytest.raises(DuplicateRecord):
        ledger.record_event(table.id, PenghuPlay("hu", "B", "A"), source="p:2", by=2, check_repeat=True)
    with pytest.raises(DuplicateRecord) as told_otherwise:  # another ending right after: that hand told otherwise
        ledger.record_event(table.id, Draw(), source="p:3", by=2, check_repeat=True)
    assert told_otherwise.value.differs
    clock.advance(seconds=91)
    ledger.record_event(table.id, Draw(), source="p:3", by=2, check_repeat=True)
    with pytest.raises(DuplicateRecord):
        ledger.record_event(table.id, Draw(), source="p:4", by=3, check_repeat=True)
    ledger.record_event(table.id, PenghuPlay("peng", "B"), source="p:5", by=1, check_repeat=True)
    with pytest.raises(DuplicateRecord):
        ledger.record_event(table.id, PenghuPlay("peng", "B"), source="p:6", by=2, check_repeat=True)
    ledger.record_event(table.id, PenghuPlay("peng", "B"), source="p:7", by=2)  # confirmed: 确实又一次
    assert len(ledger.hand_state(table.id).events) == 2


def _seat_penghu(ledger: Ledger, chat: int) -> Any:
    ledger.group(chat)
    ledger.update_group(chat, game="penghu", base=100, source=f"{chat}:cfg", by=1)
    ids = [ledger.member(chat, 10 + i, name).id for i, name in enumerate("ABCD")]
    return ledger.open_table(chat, ids, source=f"{chat}:open", by=1)


def _seat_gouji(ledger: Ledger, chat: int) -> Any:
    ledger.group(chat)
    ledger.update_group(chat, game="gouji", base=100, source=f"{chat}:cfg", by=1)
    ids = [ledger.member(chat, 10 + i, name).id for i, name in enumerate("ABCDEF")]
    return ledger.open_table(chat, ids, source=f"{chat}:open", by=1)


def test_a_penghu_play_told_again_is_held_back_and_a_real_second_one_is_booked(ledger: Ledger, clock) -> None:
    """Play-test: 阿四's 碰 told again by 小刚 5 s later was booked twice (and the duplicate moved 阿四 to the 三碰
    rate); so were 扫 and 提蛇, and the same sender's 碰 sent twice at once. Someone else's same 碰, 扫 or 提蛇
    within the window is held back, and so is the sender's own within `PENGHU_RESEND`; the same sender later, a
    deal-time 扫 of theirs at once (连扫二次), another discarder or someone else after the window are booked."""
    table = _seat_penghu(ledger, -411)
    plays = (PenghuPlay("peng", "B", "C"), PenghuPlay("sao", "B"), PenghuPlay("tishe", "D"))
    for step, play in enumerate(plays):
        ledger.record_event(table.id, play, source=f"t:{step}", by=11, check_repeat=True)
        clock.advance(seconds=5)
        with pytest.raises(DuplicateRecord) as dup:
            ledger.record_event(table.id, play, source=f"t:{step}:again", by=13, check_repeat=True)
        assert not dup.value.differs and dup.value.previous.recorded_by == 11
        clock.advance(seconds=30)
    assert len(ledger.hand_state(table.id).events) == 3
    ledger.record_event(table.id, PenghuPlay("peng", "A", "C"), source="s:1", by=12, check_repeat=True)
    clock.advance(seconds=2)
    with pytest.raises(DuplicateRecord):  # the same line sent twice
        ledger.record_event(table.id, PenghuPlay("peng", "A", "C"), source="s:2", by=12, check_repeat=True)
    clock.advance(seconds=20)  # a moment later, from its own sender: a second 碰 of the same discard
    ledger.record_event(table.id, PenghuPlay("peng", "A", "C"), source="s:3", by=12, check_repeat=True)
    ledger.record_event(table.id, PenghuPlay("peng", "A", "D"), source="s:4", by=13, check_repeat=True)
    clock.advance(seconds=91)
    ledger.record_event(table.id, PenghuPlay("peng", "A", "D"), source="s:5", by=14, check_repeat=True)
    state = ledger.hand_state(table.id)
    assert len(state.events) == 7
    fresh = _seat_penghu(ledger, -413)  # at the deal one player's 扫 twice, a few seconds apart, is 连扫二次
    ledger.record_event(fresh.id, PenghuPlay("sao", "A", at_deal=True), source="d:1", by=10, check_repeat=True)
    clock.advance(seconds=4)  # within a second or two it is the same line sent twice (`QISHOU_SAO_RESEND`)
    ledger.record_event(fresh.id, PenghuPlay("sao", "A", at_deal=True), source="d:2", by=10, check_repeat=True)
    assert len(ledger.hand_state(fresh.id).events) == 2


_PLAYS = st.lists(
    st.tuples(
        st.builds(
            PenghuPlay,
            kind=st.sampled_from(["peng", "sao", "guosao", "tishe", "paoqi"]),
            player=st.sampled_from("ABCD"),
            discarder=st.sampled_from("ABCD"),
            at_deal=st.booleans(),
        ),
        st.sampled_from([10, 11, 12, 13]),  # who tells it
        st.sampled_from([1, 2, 3]),  # who tells it again: the teller plus this, round the table
        st.integers(min_value=0, max_value=8),  # seconds later
    ),
    min_size=1,
    max_size=8,
)


def _as_told(play: PenghuPlay) -> PenghuPlay:
    """A drawn play as the chat can tell it: 碰 of someone else's discard or from the wall (`discarder` None when
    drawn as the player's own), 跑起 of someone else's, 扫 and 提蛇 maybe at the deal, 过扫 neither."""
    if play.kind == "peng":
        return PenghuPlay("peng", play.player, None if play.discarder == play.player else play.discarder)
    if play.kind == "paoqi":
        seats = "ABCD"
        return PenghuPlay("paoqi", play.player, seats[(seats.index(play.player) + 1) % 4])
    return PenghuPlay(play.kind, play.player, at_deal=play.at_deal and play.kind != "guosao")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_PLAYS)
def test_a_penghu_play_told_twice_by_two_players_books_once(ledger: Ledger, clock, plays: list[Any]) -> None:
    """Each 碰胡 play told by one player and again by another within seconds books once: the table's money is what
    the plays told once book at a table of another group (a play the scoring refuses is left out of both; one that
    repeats the play before it from another teller is a real second one, booked with 确实又一次)."""
    chat = next(_chats)
    table, clean = _seat_penghu(ledger, chat), _seat_penghu(ledger, chat - 1)
    for step, (drawn, teller, turn, later) in enumerate(plays):
        play = _as_told(drawn)
        try:
            ledger.record_event(clean.id, play, source=f"c:{chat}:{step}", by=10)
        except LedgerError:
            continue
        try:
            ledger.record_event(table.id, play, source=f"p:{chat}:{step}", by=teller, check_repeat=True)
        except DuplicateRecord:  # the same play as the one before it, from another teller: the question's yes
            ledger.record_event(table.id, play, source=f"p:{chat}:{step}:yes", by=teller)
        clock.advance(seconds=later)
        echo = 10 + (teller - 10 + turn) % 4
        with pytest.raises(DuplicateRecord):
            ledger.record_event(table.id, play, source=f"e:{chat}:{step}", by=echo, check_repeat=True)
        clock.advance(seconds=30)
    played, typed = ledger.balances(chat), ledger.balances(chat - 1)
    assert [played.of(s.member_id) for s in table.seats] == [typed.of(s.member_id) for s in clean.seats]


def test_a_gouji_round_told_otherwise_or_again_minutes_later_is_held_back(ledger: Ledger, clock) -> None:
    """Play-test: 大刘's round told by 老李 20 s later with two places swapped was booked as 第2局, and the same
    round told again by another player 2–3 minutes later was booked again. A round takes minutes: another order
    from someone else within the window is that round told otherwise (`differs`: 是新的一局, or 改成 名次 …), and
    the round told exactly alike by someone else is that round for `EXACT_RETELLING` windows; its own recorder's
    next round, or someone else's after the window, is a round of its own."""
    table = _seat_gouji(ledger, -421)
    ledger.record_event(table.id, GoujiRound(tuple("ABCDEF")), source="g:1", by=10, check_repeat=True)
    clock.advance(seconds=20)
    for step, told in enumerate((GoujiRound(tuple("ACBDEF")), GoujiRound(tuple("ABCDEF"), (), ("B",)))):
        with pytest.raises(DuplicateRecord) as dup:
            ledger.record_event(table.id, told, source=f"g:o{step}", by=13, check_repeat=True)
        assert dup.value.differs and dup.value.previous.recorded_by == 10 and dup.value.previous.hand_number == 1
    clock.advance(seconds=130)  # 150 s: past the window, within three
    with pytest.raises(DuplicateRecord) as again:
        ledger.record_event(table.id, GoujiRound(tuple("ABCDEF")), source="g:2", by=12, check_repeat=True)
    assert not again.value.differs
    ledger.record_event(table.id, GoujiRound(tuple("ACBDEF")), source="g:3", by=12, check_repeat=True)
    clock.advance(seconds=20)  # its own recorder's next round a moment later stands
    ledger.record_event(table.id, GoujiRound(tuple("FEDCBA")), source="g:4", by=12, check_repeat=True)
    clock.advance(seconds=271)
    ledger.record_event(table.id, GoujiRound(tuple("FEDCBA")), source="g:5", by=13, check_repeat=True)
    assert ledger.current_table(-421).hand_number == 5


def test_the_double_entry_check_costs_the_booking_no_statement(ledger: Ledger, clock) -> None:
    """The record a new one is compared with (here the previous hand's ending) comes with the booking's read of
    its table: a checked win sends as many statements as an unchecked one."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Win("C", "self_draw", QINGYISE), source="s:1", by=1, check_repeat=True)
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    sa.event.listen(ledger.engine, "before_cursor_execute", count)
    try:
        clock.advance(seconds=3)  # its own recorder, within the window: checked, and not a repeat
        ledger.record_event(table.id, Win("A", "self_draw", QINGYISE), source="s:2", by=1, check_repeat=True)
        checked = len(sent)
        clock.advance(seconds=3)
        ledger.record_event(table.id, Win("B", "self_draw", QINGYISE), source="s:3", by=3)
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", count)
    assert ledger.current_table(CHAT).hand_number == 4
    assert checked == len(sent) - checked


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(
            st.tuples(st.just("kong"), st.sampled_from("ABC"), st.sampled_from(["angang", "xugang"])),
            st.tuples(st.just("liangdao"), st.sampled_from("ABC")),
            st.tuples(st.just("win"), st.sampled_from("ABC")),
            st.tuples(st.just("draw")),
            st.tuples(st.just("undo")),
        ),
        min_size=1,
        max_size=10,
    )
)
def test_any_records_and_undos_leave_the_money_of_the_records_still_live(
    ledger: Ledger, operations: list[tuple[Any, ...]]
) -> None:
    """Play records and undos at one table; then book only the records still live, cleanly, at a fresh table of
    another group: every seat ends with the same money."""
    chat = next(_chats)
    table = seat_kawuxing(ledger, chat)
    live: list[Any] = []
    for step, op in enumerate(operations):
        try:
            if op[0] == "undo":
                ledger.undo(table.id, source=f"u:{chat}:{step}", by=1)
                live.pop()
                continue
            event: Any
            if op[0] == "kong":
                event = Kong(op[1], op[2])
            elif op[0] == "liangdao":
                event = Liangdao(op[1])
            elif op[0] == "win":
                event = {"type": "hu", "winner": op[1], "method": "self_draw", "hand": KAWUXING_HAND}
            else:
                event = Draw()
            ledger.record_event(table.id, event, source=f"u:{chat}:{step}", by=1)
            live.append(event)
        except LedgerError:
            continue
    clean_chat = chat - 1
    clean = seat_kawuxing(ledger, clean_chat)
    for step, event in enumerate(live):
        ledger.record_event(clean.id, event, source=f"u:{clean_chat}:{step}", by=1)
    played = ledger.balances(chat)
    typed = ledger.balances(clean_chat)
    assert [played.of(s.member_id) for s in table.seats] == [typed.of(s.member_id) for s in clean.seats]
