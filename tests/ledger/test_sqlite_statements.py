"""SQLite prepares a statement once and the driver keeps it, unless a bound value is compared with a column that a
partial index's WHERE names (`hands.status = 'open'`, `transfers.kind = 'payment'`): to tell whether the index
applies, SQLite then prepares the statement again at every run (a finished hand's read took 29 µs so, 5 µs with
the status written into the SQL). The two columns' type writes statuses and kinds into the SQL
(`models.WrittenConstants`);
this watches every statement of two nights — bookings, undo, a fine, 撤销's and a hand's records, balances,
settlement, a payment, 历史, a member's record and the reports — for a bound one."""

from __future__ import annotations

import itertools
import re
from typing import Any

import sqlalchemy as sa

from ledger import models as m
from ledger.payments import PAYER_SIDE
from ledger.scope import month_scope, night_scope
from ledger.service import Ledger
from ledger.stats import group_stats, head_to_head, nightly_net, reading, running_balance
from tests.reports.playing import play

_chats = itertools.count(-3_100_001, -1)


def _partial_index_constants() -> dict[str, set[str]]:
    """Table -> the columns its partial indexes compare with a constant (`status = 'open'`)."""
    found: dict[str, set[str]] = {}
    for table in m.Base.metadata.tables.values():
        for index in table.indexes:
            where = index.dialect_options["sqlite"]["where"]
            if where is not None:
                found.setdefault(table.name, set()).update(re.findall(r"(\w+)\s*=\s*'", str(where)))
    return {table: columns for table, columns in found.items() if columns}


def test_the_partial_indexes_compare_the_columns_this_test_watches() -> None:
    assert _partial_index_constants() == {"hands": {"status"}, "transfers": {"kind"}}


def _bound_comparisons(statement: str) -> list[str]:
    """The places in `statement` where a watched column (of its table or an alias `hands_1` of it) is compared
    with a bound value (`= ?`, or `IN (?)`, which SQLite reads as `=` when it holds one value)."""
    return [
        found.group(0)
        for table, columns in _partial_index_constants().items()
        for column in columns
        for found in re.finditer(rf"\b{table}(?:_\d+)?\.{column}\s*(?:=|IN\s*\()\s*\?", statement)
    ]


def test_the_watch_sees_a_bound_status_and_passes_a_written_one() -> None:
    assert _bound_comparisons("SELECT 1 FROM hands AS hands_1 WHERE hands_1.status = ? AND x = ?") == [
        "hands_1.status = ?"
    ]
    assert _bound_comparisons("SELECT 1 FROM transfers WHERE transfers.kind IN (?, ?)") == ["transfers.kind IN (?"]
    assert _bound_comparisons("SELECT 1 FROM hands WHERE hands.status = 'closed' AND hands.number = ?") == []


def test_no_statement_of_a_night_binds_a_value_a_partial_index_compares(sqlite_ledger: Ledger, clock: Any) -> None:
    ledger = sqlite_ledger
    ran: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        ran.append(statement)

    sa.event.listen(ledger.engine, "before_cursor_execute", seen)
    try:
        chat_id = next(_chats)
        played = play(
            ledger,
            clock,
            chat_id,
            [[("hand", 0, 0), ("hand", 1, 1), ("undo",), ("fine", 1, 500)], [("hand", 3, 2), ("hand", 8, 3)]],
        )
        table = ledger.open_table(chat_id, list(played.member_ids.values()), source=f"t:{chat_id}:open", by=None)
        ledger.record_events(table.id, [{"type": "draw"}], source=f"t:{chat_id}:draw", by=None, check_repeat=True)
        assert ledger.latest_record(table.id) is not None
        assert ledger.finished_hand(table.id, 1) is not None
        night = played.nights[0]
        assert ledger.night_balances(night).lines
        assert ledger.settle_night(night).payments
        pools = {line.member_id for line in ledger.balances(chat_id).lines if line.kind in m.GROUP_ACCOUNTS}
        debt = next(d for d in ledger.debts(chat_id) if pools.isdisjoint((d.debtor_id, d.creditor_id)))
        ledger.pay(chat_id, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source=f"t:{chat_id}:pay", by=None)
        assert ledger.history(chat_id, 5, include_voided=True)
        ledger.member_record(played.member_ids[table.players[0]])
        ledger.night_details(chat_id, night)
        with reading(ledger.engine) as session:
            group_id = session.scalars(sa.select(m.Group.id).where(m.Group.chat_id == chat_id)).one()
            for scope in (night_scope(session, night), month_scope(session, group_id, 2026, 1)):
                stats = group_stats(session, scope)
                head_to_head(session, scope, stats.all_wins)
                nightly_net(session, scope)
            running_balance(session, night)
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", seen)
    assert len(ran) > 50
    assert [(found, statement) for statement in ran for found in _bound_comparisons(statement)] == []
