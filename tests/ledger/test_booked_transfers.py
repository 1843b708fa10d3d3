"""A booking's transfers are written in one statement however many rows they are, and each booked transfer
answers with the id of its own row (on SQLite the ids come back unordered and are sorted: `transfers._INSERT`)."""

from __future__ import annotations

import itertools
from typing import Any

import sqlalchemy as sa

from ledger import models as m
from ledger.service import Ledger
from tests.ledger.helpers import CHAT, hu, seat_kawuxing

_SOURCES = itertools.count()


def _src() -> str:
    return f"booked-test:{next(_SOURCES)}"


def _statements(ledger: Ledger, book: Any) -> list[str]:
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    sa.event.listen(ledger.engine, "before_cursor_execute", count)
    try:
        book()
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", count)
    return sent


def test_a_win_two_players_pay_costs_no_statement_more_than_a_win_one_pays(ledger: Ledger) -> None:
    """Before, SQLite wrote a 自摸's two transfers one statement each: 11 statements for a recorded win."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, hu("C", "discard", "A"), source=_src(), by=1000)  # warm: the statements compiled
    one_pays = _statements(ledger, lambda: ledger.record_event(table.id, hu("C", "discard", "A"), source=_src(), by=1))
    two_pay = _statements(ledger, lambda: ledger.record_event(table.id, hu("C", "self_draw"), source=_src(), by=1))
    assert len(two_pay) == len(one_pays)
    assert sum("INSERT INTO transfers" in statement for statement in two_pay) <= 1


def test_each_booked_transfer_is_the_row_with_its_id(ledger: Ledger) -> None:
    """Wins with a cut (抽水): hand money and fees, several rows of two kinds in one booking, each answered with
    the id of the row that holds it."""
    table = seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"cut_fixed": 50}, source=_src(), by=1)
    booked = []
    for winner, method, source in [("C", "self_draw", None), ("A", "discard", "B"), ("B", "self_draw", None)] * 3:
        result = ledger.record_event(table.id, hu(winner, method, source), source=_src(), by=1000)
        assert len(result.booked) >= (3 if method == "self_draw" else 2)
        booked += result.booked
    with ledger.engine.connect() as connection:
        rows = connection.execute(
            sa.select(
                m.Transfer.id, m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount, m.Transfer.kind
            ).where(m.Transfer.id.in_([t.id for t in booked]))
        ).all()
    stored = {row.id: (row.payer_id, row.payee_id, row.amount, row.kind) for row in rows}
    assert {t.id: (t.payer_id, t.payee_id, t.amount, t.kind) for t in booked} == stored
    assert len(stored) == len(booked)
