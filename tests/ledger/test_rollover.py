"""The 日切 hour closes a night even while its table stays open: the next hand opens a new night, same seats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from ledger import models as m
from ledger.events import Draw, Kong, Win, WinHand
from ledger.service import Ledger, LedgerError

from .helpers import CHAT, KAWUXING_HAND, seat_kawuxing

SHANGHAI = timedelta(hours=8)


def local(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment in January 2026, Asia/Shanghai wall time (the group's default zone), as UTC."""
    return datetime(2026, 1, day, hour, minute, tzinfo=UTC) - SHANGHAI


def test_the_first_hand_after_the_cutoff_opens_a_new_night_at_the_same_seats(ledger: Ledger, clock) -> None:
    clock.set(local(10, 20))
    table = seat_kawuxing(ledger)
    first = ledger.record_hand(table.id, [Win("B", "self_draw", WinHand(patterns=("qingyise",)))], source="r:1", by=1)
    assert first.new_night is None and first.next_dealer == "B"
    clock.set(local(11, 5, 59))  # 05:59: still last night
    assert ledger.record_hand(table.id, [Draw()], source="r:2", by=1).new_night is None
    clock.set(local(11, 6, 1))
    kong = ledger.record_event(table.id, Kong("C", "angang"), source="r:3", by=1)

    assert kong.new_night is not None and str(kong.new_night.night_date) == "2026-01-11"
    new = ledger.current_table(CHAT)
    assert new is not None and new.id == kong.table_id != table.id
    assert new.night_id == kong.new_night.id != table.night_id
    assert [(s.name, s.member_id) for s in new.seats] == [(s.name, s.member_id) for s in table.seats]
    assert (new.rules, new.base, new.game) == (table.rules, table.base, table.game)
    assert (kong.number, kong.dealer, new.hand_number) == (1, "B", 1)  # the dealer the draw left; numbers from 1
    old = ledger.table(table.id)
    assert old.ended_at is not None
    assert ledger.current_night(CHAT).id == new.night_id
    # last night closed with its settlement stored, as 结算 would; tonight holds only the new kong
    with ledger.engine.connect() as connection:
        stored = connection.execute(
            sa.select(m.SettlementRecord.night_id).where(m.SettlementRecord.night_id == table.night_id)
        ).all()
    assert len(stored) == 1
    assert ledger.night_totals(new.night_id) == {s.member_id: (400 if s.name == "C" else -200) for s in table.seats}
    assert sum(ledger.night_balances(table.night_id).of(s.member_id) for s in table.seats) == 0


def test_a_hand_in_progress_at_the_cutoff_finishes_in_its_own_night(ledger: Ledger, clock) -> None:
    clock.set(local(10, 23))
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, Kong("A", "angang"), source="p:1", by=1)
    clock.set(local(11, 7))
    hu = {"type": "hu", "winner": "C", "method": "self_draw", "hand": KAWUXING_HAND}
    win = ledger.record_event(table.id, hu, source="p:2", by=1)
    assert win.finished and win.new_night is None and win.table_id == table.id
    assert ledger.current_table(CHAT).id == table.id  # still open: the next hand is the one that rolls over
    undone = ledger.undo(table.id, source="p:3", by=1)
    assert undone.what == "reopened"  # before the next hand, last night's last hand can still be taken back
    again = ledger.record_event(table.id, hu, source="p:4", by=1)  # and it finishes in its own night
    assert again.finished and again.new_night is None and again.table_id == table.id
    nxt = ledger.record_event(table.id, Kong("B", "angang"), source="p:5", by=1)
    assert nxt.new_night is not None and nxt.table_id != table.id


def test_a_refused_first_hand_after_the_cutoff_leaves_last_night_as_it_was(ledger: Ledger, clock) -> None:
    clock.set(local(10, 21))
    table = seat_kawuxing(ledger)
    clock.set(local(11, 8))
    with pytest.raises(LedgerError):
        ledger.record_hand(table.id, [Kong("A", "angang")], source="x:1", by=1)  # not a whole hand: refused
    assert ledger.current_table(CHAT).id == table.id
    assert ledger.current_night(CHAT).id == table.night_id


def test_a_replayed_rollover_books_nothing_more(ledger: Ledger, clock) -> None:
    clock.set(local(10, 21))
    table = seat_kawuxing(ledger)
    clock.set(local(12, 21))
    first = ledger.record_event(table.id, Kong("A", "angang"), source="y:1", by=1)
    again = ledger.record_event(table.id, Kong("A", "angang"), source="y:1", by=1)
    assert again == first and again.replayed and not first.replayed
    assert str(again.new_night.night_date) == "2026-01-12"
    with ledger.engine.connect() as connection:
        nights = connection.execute(sa.select(sa.func.count()).select_from(m.Night)).scalar_one()
    assert nights == 2


def test_fines_between_nights_belong_to_the_night_open_when_booked(ledger: Ledger, clock) -> None:
    clock.set(local(10, 21))
    table = seat_kawuxing(ledger)
    a = table.seats[0].member_id
    clock.set(local(11, 7))  # past the cut-off, no hand yet: last night is still the open one
    fine = ledger.fine(a, 100, "刷屏", source="f:1", by=None)
    assert ledger.night_totals(table.night_id)[a] == -100
    kong = ledger.record_event(table.id, Kong("B", "angang"), source="f:2", by=1)
    assert ledger.night_totals(kong.new_night.id)[a] == -200
    with pytest.raises(LedgerError) as closed:  # the night it was booked in is settled (rolled over): closed
        ledger.cancel_fine(fine.id, source="f:3", by=1)
    assert closed.value.code == "fine_night_closed"
    assert ledger.night_totals(table.night_id)[a] == -100  # the fine stays with the night it was booked in
    b = table.seats[1].member_id
    ledger.fine(b, 300, "广告", source="f:4", by=None)
    ledger.pay_out_pot(CHAT, [a], source="f:5", by=1)
    tonight = ledger.night_totals(kong.new_night.id)
    assert (tonight[a], tonight[b]) == (-200 + 400, 400 - 300)  # the pot paid out both fines
    assert ledger.balances(CHAT).of(a) == -100 - 200 + 400
