"""A reply's 撤销: the hand a message recorded in is found by the message's source, at the open table or one that
has ended since, and voided whole. On SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import event as event_label
from hypothesis import strategies as st

from ledger.service import Ledger, LedgerError

from .helpers import CHAT, gang, hu, seat_kawuxing
from .test_properties import check_books

_chats = itertools.count(-800_000, -1)


def nonzero(amounts: dict[int, int]) -> dict[int, int]:
    return {member: amount for member, amount in amounts.items() if amount}


def less(amounts: dict[int, int], part: dict[int, int]) -> dict[int, int]:
    """Each account's amount without its part (the accounts left at zero left out)."""
    return nonzero({member: amounts.get(member, 0) - part.get(member, 0) for member in {*amounts, *part}})


def money(ledger: Ledger, chat: int) -> dict[int, int]:
    return {line.member_id: line.amount for line in ledger.balances(chat).lines if line.amount}


def test_a_hand_of_a_table_that_has_ended_is_found_by_any_message_that_recorded_in_it(ledger: Ledger) -> None:
    first = seat_kawuxing(ledger)
    ledger.record_event(first.id, gang("B", "angang"), source="tg:1:1", by=2)
    ledger.record_event(first.id, hu("C", "self_draw"), source="tg:1:2:e0", by=3)  # a flow the message asked for
    ledger.record_event(first.id, hu("A", "self_draw"), source="tg:1:3", by=1)
    ledger.replace_hand("tg:1:3", [hu("A", "discard", "B")], source="tg:1:3:e7", by=1)  # edited since
    second = seat_kawuxing(ledger, names=("A", "B", "D"))
    assert ledger.table(first.id).ended_at is not None
    kong, win = ledger.message_hand("tg:1:1"), ledger.message_hand("tg:1:2")
    assert kong is not None and win is not None and kong.hand_id == win.hand_id
    assert kong.table.id == first.id and kong.number == 1 and kong.finished
    assert [e["type"] for e in kong.events] == ["gang", "hu"] and len(kong.event_ids) == 1
    edited = ledger.message_hand("tg:1:3")
    assert edited is not None and edited.number == 2 and edited.events[0]["from"] == "B"
    assert ledger.message_hand("tg:1:4") is None  # recorded nothing
    assert ledger.message_hand("tg:2:1") is None  # the same message id in another chat
    assert second.id != first.id


def test_voiding_the_found_hand_then_finds_it_taken_back(ledger: Ledger) -> None:
    first = seat_kawuxing(ledger)
    ledger.record_event(first.id, gang("B", "angang"), source="tg:1:1", by=2)
    ledger.record_event(first.id, hu("C", "self_draw"), source="tg:1:2", by=3)
    seat_kawuxing(ledger, names=("A", "B", "D"))
    found = ledger.message_hand("tg:1:1")
    assert found is not None
    voided = ledger.void_hand(found.hand_id, source="tg:1:9:undo", by=1, table_id=first.id)
    again = ledger.void_hand(found.hand_id, source="tg:1:9:undo", by=1, table_id=first.id)  # a redelivered press
    assert voided.what == "hand" and again.replayed and again.voided == voided.voided
    assert money(ledger, CHAT) == {}
    for source in ("tg:1:1", "tg:1:2"):
        with pytest.raises(LedgerError) as refused:
            ledger.message_hand(source)
        assert refused.value.code == "record_taken_back"


def test_a_hand_of_a_settled_night_is_refused_by_name(ledger: Ledger) -> None:
    first = seat_kawuxing(ledger)
    won = ledger.record_event(first.id, hu("C", "self_draw"), source="tg:1:1", by=3)
    ledger.end_night(CHAT, source="tg:1:2", by=1)
    before = money(ledger, CHAT)
    for attempt in (
        lambda: ledger.message_hand("tg:1:1"),
        lambda: ledger.void_hand(won.hand_id, source="tg:1:3", by=1),
    ):
        with pytest.raises(LedgerError) as refused:
            attempt()
        assert refused.value.code == "hand_night_settled"
        assert "第1局" in refused.value.message and "先撤销结算" in refused.value.message
        assert "hand 1" in refused.value.english
    assert money(ledger, CHAT) == before


player = st.sampled_from(("A", "B", "C"))
two_players = st.permutations(("A", "B", "C")).map(lambda seats: (seats[0], seats[1]))  # one pays the other
kong = st.one_of(st.tuples(st.just("angang"), player), two_players.map(lambda pair: ("zhigang", *pair)))
ending = st.one_of(
    st.tuples(st.just("self_draw"), player),
    two_players.map(lambda pair: ("discard", *pair)),
    st.tuples(st.just("draw")),
)
hand = st.tuples(st.lists(kong, max_size=2), ending)


def _event(spec: tuple[str, ...]) -> dict[str, Any]:
    if spec[0] in {"angang", "zhigang"}:
        return gang(spec[1], spec[0], spec[2] if spec[0] == "zhigang" else None)
    if spec[0] == "draw":
        return {"type": "draw"}
    return hu(spec[1], spec[0], spec[2] if spec[0] == "discard" else None)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(hand, min_size=1, max_size=4), st.data())
def test_voiding_any_hand_of_an_ended_table_restores_the_books_as_if_it_was_never_booked(
    ledger: Ledger, hands: list[tuple[list[tuple[str, ...]], tuple[str, ...]]], data: st.DataObject
) -> None:
    """Every hand's money is measured as it is booked; voiding any one of them through a message that recorded
    in it, after 开桌 seated another table, takes back exactly that: all-time balances (未结), the night's totals
    and the ended table's money lose the hand's part, the open table keeps its own, and the books balance."""
    chat = next(_chats)
    table = seat_kawuxing(ledger, chat)
    parts: list[dict[int, int]] = []  # each hand's money, as booked
    sources: list[list[str]] = []  # the messages that recorded in each hand
    step = itertools.count(1)
    for kongs, end in hands:
        before, booked = money(ledger, chat), []
        for spec in [*kongs, end]:
            source = f"tg:{chat}:{next(step)}"
            try:
                result = ledger.record_event(table.id, _event(spec), source=source, by=1)
            except LedgerError as refused:  # a record the rules refuse changes nothing
                event_label(f"refused: {refused.code}")
                continue
            booked.append(source)
        assume(booked and result.finished)
        after = money(ledger, chat)
        parts.append({k: after.get(k, 0) - before.get(k, 0) for k in {*before, *after}})
        sources.append(booked)
    second = seat_kawuxing(ledger, chat, names=("A", "B", "D"))
    ledger.record_event(second.id, hu("D", "self_draw"), source=f"tg:{chat}:{next(step)}", by=1)
    pick = data.draw(st.integers(0, len(parts) - 1), label="hand")
    message = data.draw(st.sampled_from(sources[pick]), label="message")
    found = ledger.message_hand(message)
    assert found is not None and found.table.id == table.id and found.number == pick + 1
    night = ledger.table(table.id).night_id
    all_before, night_before = money(ledger, chat), ledger.night_totals(night)
    ended_before = {line.member_id: line.amount for line in ledger.table_balances(table.id).lines}
    open_before = ledger.table_balances(second.id)
    ledger.void_hand(found.hand_id, source=f"tg:{chat}:undo", by=1, table_id=table.id)
    part = parts[pick]
    assert money(ledger, chat) == less(all_before, part)
    assert nonzero(ledger.night_totals(night)) == less(night_before, part)
    assert nonzero({line.member_id: line.amount for line in ledger.table_balances(table.id).lines}) == less(
        ended_before, part
    )
    assert ledger.table_balances(second.id) == open_before
    check_books(ledger, chat)
