"""Property tests: whatever sequence of bookings and voids, the books balance.

Each example plays random operations (kongs, wins, draws, undos, fines, cancellations, payouts) through the
real service and scoring core on a fresh group, then checks after every step that
- each account's running balance equals the sum of its live transfers (read straight from the table),
- the group's balances, pot included, sum to zero,
- the settlement's payments bring every balance to zero,
- an undo (which takes back exactly one record, the table's latest) restores the table's balances to what they
  were before that record was booked.
"""

from __future__ import annotations

import itertools
from typing import Any

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import event as event_label
from hypothesis import strategies as st

from ledger import models as m
from ledger.service import Ledger, LedgerError

from .helpers import gang, hu

PLAYERS = ("A", "B", "C")
_chats = itertools.count(-500_000, -1)

player = st.sampled_from(PLAYERS)
operation = st.one_of(
    st.tuples(st.just("kong"), player, st.sampled_from(["angang", "xugang", "zhigang"]), player),
    st.tuples(st.just("liangdao"), player),
    st.tuples(st.just("win"), player, st.sampled_from(["discard", "self_draw"]), player),
    st.tuples(st.just("draw")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("fine"), st.integers(0, 3), st.integers(1, 900)),
    st.tuples(st.just("cancel_fine"), st.integers(0, 5)),
    st.tuples(st.just("payout"), st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True)),
)


def live_sums(ledger: Ledger, group_id: int) -> dict[int, int]:
    """Each account's balance recomputed from the live transfer rows, independently of the service."""
    sums: dict[int, int] = {}
    with ledger.engine.connect() as connection:
        rows = connection.execute(
            sa.select(m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount).where(
                m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None)
            )
        )
        for payer, payee, amount in rows:
            sums[payer] = sums.get(payer, 0) - amount
            sums[payee] = sums.get(payee, 0) + amount
    return sums


def check_books(ledger: Ledger, chat: int) -> None:
    balances = ledger.balances(chat)
    group_id = ledger.group(chat).id
    recomputed = live_sums(ledger, group_id)
    assert {line.member_id: line.amount for line in balances.lines if line.amount} == {
        k: v for k, v in recomputed.items() if v
    }
    assert sum(line.amount for line in balances.lines) == 0
    settlement = ledger.settle_period(chat, None, None)
    remaining = {line.member_id: line.amount for line in settlement.balances.lines}
    assert remaining == {k: v for k, v in recomputed.items() if k in remaining}
    for payment in settlement.payments:
        assert payment.amount > 0
        remaining[payment.payer_id] += payment.amount
        remaining[payment.payee_id] -= payment.amount
    assert not any(remaining.values())


def table_money(ledger: Ledger, table_id: int) -> dict[int, int]:
    return {line.member_id: line.amount for line in ledger.table_balances(table_id).lines if line.amount}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=1, max_size=12))
def test_books_always_balance_after_any_bookings_and_voids(ledger: Ledger, operations: list[tuple[Any, ...]]) -> None:
    chat = next(_chats)
    ledger.group(chat)
    ids = [ledger.member(chat, 70_000 + i, name).id for i, name in enumerate(PLAYERS)]
    table = ledger.open_table(chat, ids, source=f"p:{chat}:open", by=1)
    everyone = [*ids, ledger.guest(chat, "客").id]
    before_record: list[dict[int, int]] = []  # table money before each live record, oldest first
    fines: list[int] = []
    for step, op in enumerate(operations):
        source = f"p:{chat}:{step}"
        money_before = table_money(ledger, table.id)
        try:
            if op[0] in {"kong", "liangdao", "win", "draw"}:
                if op[0] == "kong":
                    event = gang(op[1], op[2], op[3] if op[2] == "zhigang" else None)
                elif op[0] == "liangdao":
                    event = {"type": "liangdao", "player": op[1]}
                elif op[0] == "win":
                    event = hu(op[1], op[2], op[3] if op[2] == "discard" else None)
                else:
                    event = {"type": "draw"}
                result = ledger.record_event(table.id, event, source=source, by=1)
                event_label(f"{op[0]} booked{' (hand finished)' if result.finished else ''}")
                before_record.append(money_before)
            elif op[0] == "undo":
                undone = ledger.undo(table.id, source=source, by=1)
                event_label(f"undo {undone.what}")
                assert table_money(ledger, table.id) == before_record.pop()
            elif op[0] == "fine":
                fines.append(ledger.fine(everyone[op[1]], op[2], "罚", source=source, by=None).id)
            elif op[0] == "cancel_fine" and op[1] < len(fines):
                fine_id = fines.pop(op[1])
                pot_before = ledger.balances(chat).pot
                cancelled = ledger.cancel_fine(fine_id, source=source, by=1)
                assert ledger.balances(chat).pot == pot_before - cancelled.amount
            elif op[0] == "payout":
                ledger.pay_out_pot(chat, [everyone[i] for i in op[1]], source=source, by=1)
        except LedgerError as refused:  # a refusal (scoring's too) changes nothing
            event_label(f"refused: {refused.code}")
            assert refused.code and refused.message
            assert table_money(ledger, table.id) == money_before
        check_books(ledger, chat)
