"""A group upgraded to a supergroup gets a new chat id: its whole ledger moves there in one transaction, once."""

from __future__ import annotations

import pytest

from ledger.chat_options import double_entry_seconds, set_double_entry
from ledger.service import Ledger, LedgerError

from .helpers import gang, seat_kawuxing

OLD = -4_001
NEW = -1_001_234_000_001


def test_everything_of_the_group_moves_to_the_new_id_once(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger, OLD)
    ledger.update_group(OLD, base=200, source="m:set", by=1)
    set_double_entry(ledger.engine, table.group_id, 30, by=1)
    ledger.record_event(table.id, gang("A", "angang"), source="m:1", by=1)
    fined = ledger.fine(table.seats[1].member_id, 500, "刷屏", source="m:2", by=None)
    ledger.save_flow(OLD, 77, 1001, "hu", {"table_id": table.id, "step": "who"})
    before = ledger.balances(OLD)

    moved = ledger.move_chat(OLD, NEW, source="tg:move:1", by=None)
    assert moved is not None and moved.chat_id == NEW and moved.id == table.group_id and moved.base == 200
    view = ledger.chat(NEW)
    assert view.table is not None and view.table.id == table.id
    assert ledger.balances(NEW) == before and ledger.balances(NEW).pot == fined.amount
    assert ledger.find_member(NEW, "B") is not None
    assert ledger.load_flow(NEW, 77) is not None and ledger.load_flow(OLD, 77) is None
    assert double_entry_seconds(ledger.engine, moved.id) == 30
    # announced again from the other chat, and replayed: nothing more happens
    assert ledger.move_chat(OLD, NEW, source="tg:move:2", by=None) == moved
    assert ledger.move_chat(OLD, NEW, source="tg:move:1", by=None) == moved
    assert ledger.balances(NEW) == before


def test_an_update_of_the_old_chat_still_in_flight_reaches_the_group_at_its_new_id(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger, OLD)
    ledger.move_chat(OLD, NEW, source="tg:move", by=None)
    view = ledger.chat(OLD)  # a message typed in the old group just before the upgrade, handled after it
    assert view.group.chat_id == NEW and view.table is not None and view.table.id == table.id
    assert ledger.member(OLD, 1000, "A").group_id == table.group_id
    assert ledger.group(OLD).id == table.group_id


def test_a_new_chat_seen_first_keeps_nothing_but_the_moved_group(ledger: Ledger) -> None:
    """The new chat's lane may handle its announcement first, after reading the chat created an empty group."""
    table = seat_kawuxing(ledger, OLD)
    ledger.chat(NEW)  # first sight of the new chat: an empty group with its pot
    ledger.member(NEW, 1000, "A")
    moved = ledger.move_chat(OLD, NEW, source="tg:move", by=None)
    assert moved is not None and moved.id == table.group_id
    assert ledger.group(NEW).id == table.group_id
    assert len([m for m in ledger.members(NEW) if m.kind == "pot"]) == 1


def test_a_new_chat_with_a_ledger_of_its_own_is_never_merged(ledger: Ledger) -> None:
    seat_kawuxing(ledger, OLD)
    other = ledger.member(NEW, 5, "Z")
    ledger.fine(other.id, 100, "刷屏", source="n:1", by=None)
    with pytest.raises(LedgerError) as taken:
        ledger.move_chat(OLD, NEW, source="tg:move", by=None)
    assert taken.value.code == "chat_taken"
    assert ledger.group(OLD).chat_id == OLD and ledger.balances(NEW).pot == 100


def test_moving_a_chat_the_ledger_never_saw_only_remembers_the_move(ledger: Ledger) -> None:
    assert ledger.move_chat(OLD, NEW, source="tg:move", by=None) is None
    assert ledger.group(NEW).chat_id == NEW
