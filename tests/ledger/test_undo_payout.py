"""撤销发红包池 / 撤销付台费: an admin takes back the latest payout of the pot or the house whole — its transfers and
(booked between nights) the settlement it was settled at once with — and the books are exactly as they were before
it; refused, with the reason, when there is none or something was built on it."""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ledger.payments import PAYER_SIDE
from ledger.service import Ledger, LedgerError

from .helpers import hu
from .test_pair_debts import _payout, _steps, assert_pass_through, extra_money, kept_and_derived, pool_night
from .test_unsettle import people_of, run_step, snapshot

_chats = itertools.count(-700_000, -1)


def four(ledger: Ledger, chat: int) -> tuple[list[int], int]:
    """A, B, C, D and the pot's id."""
    ledger.group(chat)
    people = [ledger.member(chat, 4000 + i, name).id for i, name in enumerate("ABCD")]
    pot = next(line.member_id for line in ledger.balances(chat).lines if line.kind == "pot")
    return people, pot


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=_steps, payout=_payout, in_night=st.booleans())
def test_a_payout_taken_back_leaves_the_books_as_they_were_before_it(
    ledger: Ledger, clock: Any, before: list[tuple[Any, ...]], payout: tuple[Any, ...], in_night: bool
) -> None:
    """Any history (settled nights, payments, fines and payouts, 台费 and 抽水, guests linked), then the pot or the
    house paid out between nights or during an open night: taking it back leaves every figure — balances, 未结,
    the kept and re-derived debts, the night's totals — as it was before it, and the accounts pass-through."""
    chat = next(_chats)
    people = people_of(ledger, chat)
    ledger.set_fees(chat, {"night_fee": 300, "cut_percent": 10}, source=f"{chat}:fees", by=1)
    pool_night(ledger, chat, people[:3], f"{chat}:first", fine=1)  # the pot and the house hold something
    for number, step in enumerate(before):
        with contextlib.suppress(LedgerError):
            run_step(ledger, chat, people, step, f"{chat}:{number}")
    clock.advance(seconds=1)
    if in_night:
        table = ledger.open_table(chat, people[:3], source=f"{chat}:open", by=1)
        ledger.record_event(table.id, hu(table.seats[0].name, "self_draw"), source=f"{chat}:w", by=1)
    before_payout = snapshot(ledger, chat)
    try:
        extra_money(ledger, chat, people[:4], payout, f"{chat}:payout", [])
    except LedgerError:
        return  # nothing to pay out: nothing to take back
    pool = payout[1]
    event(f"a payout of the {pool} taken back, {'in a night' if in_night else 'between nights'}")
    undone = ledger.undo_payout(chat, pool, source=f"{chat}:undo", by=1)
    assert undone.settled_at_once is not in_night and all(t.voided for t in undone.transfers)
    assert snapshot(ledger, chat) == before_payout
    assert undone.held == sum(line.amount for line in ledger.balances(chat).lines if line.kind == pool)
    if not in_night:
        kept, _ = kept_and_derived(ledger, chat)
        assert_pass_through(ledger, chat, kept)


def test_a_payout_between_nights_goes_back_with_its_settlement(ledger: Ledger, clock: Any) -> None:
    """B's fine waits for 发红包池; the pot paid out to D between nights passed B's debt on to D. Taken back: B
    owes the pot again, D is owed nothing, the payout's payment buttons expire, and nothing is left to take back."""
    chat = next(_chats)
    (a, b, c, d), pot = four(ledger, chat)
    pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    before = ledger.balances(chat), kept_and_derived(ledger, chat)[0]
    clock.advance(seconds=5)
    ledger.pay_out_pot(chat, [d], source="payout", by=1)
    settled = ledger.latest_settlement(chat)
    assert settled is not None and ledger.payment_lines(chat, settled.id)
    assert kept_and_derived(ledger, chat)[0][(b, d)] == 500
    asked = ledger.payout_to_undo(chat, "pot")
    assert asked.settled_at_once and [(t.payee_id, t.amount) for t in asked.transfers] == [(d, 500)]
    undone = ledger.undo_payout(chat, "pot", source="undo", by=1, expect=asked.transfers[0].id)
    assert undone.held == 500 and not undone.replayed
    assert (ledger.balances(chat), kept_and_derived(ledger, chat)[0]) == before
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived and kept[(b, pot)] == 500
    assert ledger.payment_lines(chat, settled.id) is None
    again = ledger.undo_payout(chat, "pot", source="undo", by=1)  # the same update delivered again
    assert again.replayed and ledger.balances(chat) == before[0]
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="undo 2", by=1)
    assert err.value.code == "no_payout" and "发红包池" in err.value.message
    with pytest.raises(LedgerError) as err:
        ledger.payout_to_undo(chat, "house")  # no 台费 was ever set: no house
    assert err.value.code == "no_payout" and "付台费" in err.value.message


def test_a_payout_in_an_open_night_is_voided_and_its_settled_night_must_be_taken_back_first(
    ledger: Ledger, clock: Any
) -> None:
    chat = next(_chats)
    (a, b, c, d), _ = four(ledger, chat)
    table = ledger.open_table(chat, [a, b, c], source="open", by=1)
    ledger.record_event(table.id, hu("A", "self_draw"), source="w", by=1)
    ledger.fine(b, 500, "罚", source="fine", by=1)
    night = ledger.current_night(chat)
    assert night is not None
    before = ledger.balances(chat), ledger.night_totals(night.id)
    ledger.pay_out_pot(chat, [c, d], source="payout", by=1)
    assert ledger.payout_to_undo(chat, "pot").settled_at_once is False
    ledger.end_night(chat, source="end", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="u1", by=1)
    assert err.value.code == "payout_settled" and "撤销结算" in err.value.message
    ledger.unsettle(chat, source="unsettle", by=1)
    undone = ledger.undo_payout(chat, "pot", source="u2", by=1)
    assert [(t.payee_id, t.amount) for t in undone.transfers] == [(c, 250), (d, 250)]
    totals = {k: v for k, v in ledger.night_totals(night.id).items() if v}
    assert (ledger.balances(chat), totals) == (before[0], {k: v for k, v in before[1].items() if v})
    assert ledger.latest_settlement(chat) is None  # nothing settled: the night is open


def test_what_was_built_on_a_payout_between_nights_keeps_it(ledger: Ledger, clock: Any) -> None:
    """A payment between two people it concerns, the other account paid out between nights since, a later night's
    结算: each keeps it, with the reason; a fine between nights since does not."""
    chat = next(_chats)
    (a, b, c, d), pot = four(ledger, chat)
    ledger.set_fees(chat, {"night_fee": 100}, source="fees", by=1)
    pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    clock.advance(seconds=5)
    ledger.pay_out_pot(chat, [d], source="payout", by=1)
    clock.advance(seconds=5)
    ledger.pay(chat, b, d, 200, side=PAYER_SIDE, source="paid", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="u1", by=1)
    assert err.value.code == "paid_since" and "撤销付款" in err.value.message and "发红包池" in err.value.message
    ledger.void_payment(chat, [b], source="unpay", by=1)
    ledger.pay_out_house(chat, [a], source="house", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="u2", by=1)
    assert err.value.code == "paid_out_since" and "撤销付台费" in err.value.message
    ledger.undo_payout(chat, "house", source="u3", by=1)
    ledger.fine(c, 300, "刷屏", source="fine", by=1)  # between nights: settled at once, no dependency
    before_night = ledger.balances(chat)
    pool_night(ledger, chat, [a, b, c], "n2")
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="u4", by=1)
    assert err.value.code == "settled_since"
    ledger.unsettle(chat, source="unsettle", by=1)
    ledger.undo(ledger.current_table(chat).id, source="undo win", by=1)  # type: ignore[union-attr]
    assert ledger.balances(chat) == before_night
    ledger.undo_payout(chat, "pot", source="u5", by=1)
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived and kept[(b, pot)] == 500 and kept[(c, pot)] == 300 and (b, d) not in kept


def test_a_stale_question_takes_nothing_back(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    (a, b, c, d), _ = four(ledger, chat)
    pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    ledger.pay_out_pot(chat, {d: 200}, source="p1", by=1)
    asked = ledger.payout_to_undo(chat, "pot")
    ledger.pay_out_pot(chat, {c: 100}, source="p2", by=1)
    before = ledger.balances(chat)
    with pytest.raises(LedgerError) as err:
        ledger.undo_payout(chat, "pot", source="u", by=1, expect=asked.transfers[0].id)
    assert err.value.code == "payout_changed" and ledger.balances(chat) == before


def test_a_payout_taken_back_is_no_reason_given_for_keeping_a_settlement(ledger: Ledger, clock: Any) -> None:
    """撤销结算 names what was settled since: a payout taken back is not it (here a fine between nights is)."""
    chat = next(_chats)
    (a, b, c, d), _ = four(ledger, chat)
    pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    ledger.pay_out_pot(chat, [d], source="payout", by=1)
    ledger.undo_payout(chat, "pot", source="undo", by=1)
    ledger.fine(c, 300, "刷屏", source="fine", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u", by=1)
    assert err.value.code == "settled_since" and "罚款" in err.value.message


def test_a_payout_to_a_guest_linked_since_is_taken_back_from_the_member(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    (a, b, c, d), pot = four(ledger, chat)
    guest = ledger.guest(chat, "客").id
    pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    before = ledger.balances(chat).of(d), kept_and_derived(ledger, chat)[0]
    ledger.pay_out_pot(chat, [guest], source="payout", by=1)
    ledger.link_guest(guest, d, source="link", by=1)
    assert kept_and_derived(ledger, chat)[0][(b, d)] == 500
    undone = ledger.undo_payout(chat, "pot", source="undo", by=1)
    assert [t.payee_id for t in undone.transfers] == [d]
    kept, derived = kept_and_derived(ledger, chat)
    assert (ledger.balances(chat).of(d), kept) == before and kept == derived and kept[(b, pot)] == 500
