"""明细: the unsimplified view of a night adds up to the night's balances, pair by pair and item by item."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.service import Ledger, LedgerError
from tests.ledger.helpers import CHAT, gang, hu, seat_kawuxing


def _nets(ledger: Ledger, night_id: int) -> dict[int, int]:
    """Each account's night net as the pairs of 明细 tell it."""
    nets: dict[int, int] = {}
    for pair in ledger.night_details(CHAT, night_id).pairs:
        nets[pair.creditor_id] = nets.get(pair.creditor_id, 0) + pair.net
        nets[pair.debtor_id] = nets.get(pair.debtor_id, 0) - pair.net
    return {member_id: net for member_id, net in nets.items() if net}


def test_each_pair_nets_its_transfers_and_names_the_hands(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="s1", by=1000)  # B, C pay A 2 each
    ledger.record_event(table.id, hu("C", "discard", "A"), source="s2", by=1000)
    night = ledger.current_night(CHAT)
    assert night is not None
    found = ledger.night_details(CHAT, night.id)
    by_names = {(p.debtor, p.creditor): p for p in found.pairs}
    # C paid A 2元 for the kong and won 2元 from A on the 卡五星: the pair cancels out, both items kept
    pair = by_names.get(("A", "C")) or by_names[("C", "A")]
    assert pair.net == 0 == sum(item.amount for item in pair.items)
    assert found.pairs[-1] == pair  # pairs that cancel out come last
    assert {item.reason for item in pair.items} == {"angang", "dianpao"}
    assert all(item.hand_number == 1 for item in pair.items)
    assert by_names[("B", "A")].net == 200
    assert _nets(ledger, night.id) == {
        line.member_id: line.amount for line in ledger.night_balances(night.id).lines if line.amount
    }


def test_undone_transfers_leave_the_details(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "angang"), source="s1", by=1000)
    ledger.undo(table.id, source="u1", by=1000)
    night = ledger.current_night(CHAT)
    assert night is not None
    assert all(pair.net == 0 for pair in ledger.night_details(CHAT, night.id).pairs)
    assert ledger.night_details(CHAT, night.id).pairs == ()  # nothing live is left at all


def test_another_chats_night_is_not_found(ledger: Ledger) -> None:
    seat_kawuxing(ledger)
    night = ledger.current_night(CHAT)
    assert night is not None
    ledger.group(CHAT + 1)
    with pytest.raises(LedgerError):
        ledger.night_details(CHAT + 1, night.id)


_SOURCES = itertools.count()
EVENTS = st.lists(
    st.sampled_from(
        [
            gang("A", "angang"),
            gang("B", "zhigang", "C"),
            gang("C", "xugang"),
            hu("C", "discard", "A"),
            hu("C", "self_draw"),
            hu("C", "discard", "B"),
        ]
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(events=EVENTS, fine=st.integers(0, 500))
def test_pairs_add_up_to_the_night_balances(sqlite_ledger: Ledger, events: list[dict[str, object]], fine: int) -> None:
    """Whatever was booked, each account's pairs sum to its night balance (pot included)."""
    chat = CHAT
    sqlite_ledger.group(chat)
    table = sqlite_ledger.current_table(chat) or seat_kawuxing(sqlite_ledger)
    for event in events:
        with contextlib.suppress(LedgerError):
            sqlite_ledger.record_event(table.id, event, source=f"p:{next(_SOURCES)}", by=1000)
    if fine:
        sqlite_ledger.fine(table.seats[0].member_id, fine, "罚", source=f"f:{next(_SOURCES)}", by=1000)
    night = sqlite_ledger.current_night(chat)
    assert night is not None
    assert _nets(sqlite_ledger, night.id) == {
        line.member_id: line.amount for line in sqlite_ledger.night_balances(night.id).lines if line.amount
    }
