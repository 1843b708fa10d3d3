"""Open debts as running totals (`pair_debts`, migration 0011): moved with every settlement, payment, payment
undo and guest link in the same transaction, and always what re-deriving them from every settlement gives."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import db
from ledger import payments as ledger_payments
from ledger.chat_options import set_merge_debts
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger, LedgerError

from .helpers import hu

_chats = itertools.count(-800_000, -1)
PLAYERS = "ABCD"


def kept_and_derived(ledger: Ledger, chat: int) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """The running totals and the debts re-derived from every settlement and payment, in one read."""
    group_id = ledger.group(chat).id

    def body(tx: Any) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
        return ledger_payments.pair_debts(tx, group_id), ledger_payments.derived_pair_debts(tx, group_id)

    return ledger._unit.read(body)


def settle_night(ledger: Ledger, chat: int, seats: list[int], wins: list[tuple[int, int]], tag: str) -> None:
    """A night at `seats` (three member ids): each win (winner seat, loser seat; the same: 自摸), then 结算."""
    table = ledger.open_table(chat, seats, source=f"{tag}:open", by=1)
    names = [seat.name for seat in table.seats]
    for number, (winner, loser) in enumerate(wins):
        event = hu(names[winner], "self_draw") if winner == loser else hu(names[winner], "discard", names[loser])
        ledger.record_event(table.id, event, source=f"{tag}:w{number}", by=1)
    ledger.end_night(chat, source=f"{tag}:end", by=1)


_seat = st.integers(0, 2)
_steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("night"),
            st.permutations(range(5)).map(lambda order: order[:3]),  # three of A, B, C, D and the guest
            st.lists(st.tuples(_seat, _seat), min_size=1, max_size=3),
        ),
        st.tuples(st.just("pay"), st.integers(0, 5), st.integers(1, 100), st.sampled_from([PAYER_SIDE, PAYEE_SIDE])),
        st.tuples(st.just("confirm"), st.integers(0, 5)),
        st.tuples(st.just("unpay"), st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4))),
        st.tuples(st.just("merge"), st.booleans()),
        st.tuples(st.just("link"), st.integers(0, 3)),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_steps)
def test_the_running_totals_always_equal_the_debts_re_derived_from_every_settlement(
    ledger: Ledger, steps: list[tuple[Any, ...]]
) -> None:
    """After any sequence of settled nights (with and without 并账), payments (whole, partial, by either side),
    confirmations, undos and a guest linked to a member, the kept per-pair totals are exactly the re-derived
    debts; refused steps change nothing."""
    chat = next(_chats)
    ledger.group(chat)
    people = [ledger.member(chat, 2000 + i, name).id for i, name in enumerate(PLAYERS)]
    people.append(ledger.guest(chat, "客").id)
    for number, step in enumerate(steps):
        tag = f"{chat}:{number}"
        kind = step[0]
        try:
            if kind == "night":
                settle_night(ledger, chat, [people[i] for i in step[1]], step[2], tag)
            elif kind == "pay":
                debts = ledger.debts(chat)
                if debts:
                    debt = debts[step[1] % len(debts)]
                    amount = max(1, debt.amount * step[2] // 100)
                    ledger.pay(chat, debt.debtor_id, debt.creditor_id, amount, side=step[3], source=tag, by=1)
            elif kind == "confirm":
                debts = ledger.debts(chat)
                if debts:
                    debt = debts[step[1] % len(debts)]
                    ledger.pay(chat, debt.debtor_id, debt.creditor_id, side=PAYEE_SIDE, source=tag, by=1)
            elif kind == "unpay":
                parties = [people[step[1]]] + ([people[step[2]]] if step[2] is not None else [])
                ledger.void_payment(chat, parties, source=tag, by=1)
            elif kind == "merge":
                set_merge_debts(ledger.engine, ledger.group(chat).id, step[1], by=1)
            else:
                ledger.link_guest(people[4], people[step[1]], source=tag, by=1)
        except LedgerError:
            pass  # refused (nothing owed, nothing to undo, played together, already linked): nothing moved
        kept, derived = kept_and_derived(ledger, chat)
        assert kept == derived, f"after step {number} {step}"
        assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)} == kept


def test_a_payment_and_its_undo_move_the_pair_and_a_refused_one_moves_nothing(ledger: Ledger) -> None:
    chat = next(_chats)
    ledger.group(chat)
    people = [ledger.member(chat, 3000 + i, name).id for i, name in enumerate("ABC")]
    settle_night(ledger, chat, people, [(2, 0)], "n")
    (debt,) = ledger.debts(chat)
    kept, _ = kept_and_derived(ledger, chat)
    assert kept == {(debt.debtor_id, debt.creditor_id): debt.amount}
    ledger.pay(chat, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="p", by=1)
    assert kept_and_derived(ledger, chat)[0] == {(debt.debtor_id, debt.creditor_id): debt.amount - 100}
    with pytest.raises(LedgerError):
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, debt.amount, side=PAYER_SIDE, source="q", by=1)
    assert kept_and_derived(ledger, chat)[0] == {(debt.debtor_id, debt.creditor_id): debt.amount - 100}
    ledger.void_payment(chat, [debt.debtor_id], source="u", by=1)
    assert kept_and_derived(ledger, chat) == ({(debt.debtor_id, debt.creditor_id): debt.amount},) * 2


def test_0011_fills_the_running_totals_from_an_existing_ledger_and_downgrades(empty_db_url: str, clock) -> None:
    """A ledger with settled nights, netted debts and payments, taken down to 0010 and up again: 0011 fills
    `pair_debts` with exactly the debts re-derived from its settlements and payments; its downgrade drops it."""
    db.upgrade(empty_db_url)
    ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
    chat = -4242
    try:
        ledger.group(chat)
        people = [ledger.member(chat, 4000 + i, name).id for i, name in enumerate("ABCD")]
        settle_night(ledger, chat, people[:3], [(2, 0), (1, 1)], "n1")
        settle_night(ledger, chat, people[1:], [(0, 2)], "n2")
        debt = ledger.debts(chat)[0]
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, 50, side=PAYER_SIDE, source="p1", by=1)
        settle_night(ledger, chat, people[:3], [(0, 1)], "n3")
        expected, derived = kept_and_derived(ledger, chat)
        assert expected == derived and expected
    finally:
        ledger.close()
    for _ in range(2):
        db.downgrade(empty_db_url, "0010")
        engine = db.make_engine(empty_db_url)
        try:
            assert "pair_debts" not in set(sa.inspect(engine).get_table_names())
        finally:
            engine.dispose()
        db.upgrade(empty_db_url, "0011")
        ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
        try:
            assert kept_and_derived(ledger, chat) == (expected, expected)
            assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)} == expected
        finally:
            ledger.close()


def test_a_guest_linked_to_a_member_hands_the_member_its_debts(ledger: Ledger) -> None:
    chat = next(_chats)
    ledger.group(chat)
    a, b, d = (ledger.member(chat, 5000 + i, name).id for i, name in enumerate("ABD"))
    guest = ledger.guest(chat, "客").id
    settle_night(ledger, chat, [a, b, guest], [(2, 2)], "n")  # the guest wins by self-draw: A and B owe it
    before = kept_and_derived(ledger, chat)[0]
    assert any(guest in pair for pair in before)
    ledger.link_guest(guest, d, source="link", by=1)
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived == {tuple(d if x == guest else x for x in pair): v for pair, v in before.items()}
