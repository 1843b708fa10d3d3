"""Transfers and the running totals that follow them, written with statements built once.

Every movement of money is a transfer row; voiding one marks it (who, when, why) and never deletes it. Two
running totals move in the same transaction, in place: each account's all-time balance (`members.balance`) and
each account's total for the night the transfer was booked in (`night_totals`). A booking collects what it moves
in a `Movement` and applies it once, in id order (no lock-order deadlocks between concurrent bookings).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ledger import models as m
from ledger.errors import LedgerError
from ledger.records import NightTotal, TransferInfo
from ledger.unit import Tx


@dataclass(frozen=True)
class Live:
    """A live transfer as a booking reads it back (to compare, or to void)."""

    id: int
    payer_id: int
    payee_id: int
    amount: int
    reason: str
    kind: str
    night_id: int | None
    hand_id: int | None
    event_id: int | None
    created_at: datetime


class Movement:
    """What one transaction moves: per account (all-time balances) and per night and account (night totals)."""

    def __init__(self) -> None:
        self.accounts: dict[int, int] = {}
        self.nights: dict[int, dict[int, int]] = {}

    def move(self, payer: int, payee: int, amount: int, night_id: int | None) -> None:
        for member, delta in ((payer, -amount), (payee, amount)):
            self.accounts[member] = self.accounts.get(member, 0) + delta
            if night_id is not None:
                night = self.nights.setdefault(night_id, {})
                night[member] = night.get(member, 0) + delta

    def take_back(self, transfer: Live) -> None:
        self.move(transfer.payee_id, transfer.payer_id, transfer.amount, transfer.night_id)


#: the transfers' ids in the order of their rows. SQLite: one statement for any number of rows, its ids sorted —
#: SQLAlchemy cannot order SQLite's RETURNING by itself and would send a statement per row (a 自摸 win's two
#: payers cost the booking an eleventh statement); a statement's rows take ascending rowids in the order of their
#: VALUES, so the ids sorted are the rows' ids in order. PostgreSQL: ordered by SQLAlchemy (its sentinel).
_INSERT = {
    "sqlite": sa.insert(m.Transfer).returning(m.Transfer.id),
    "postgresql": sa.insert(m.Transfer).returning(m.Transfer.id, sort_by_parameter_order=True),
}
_VOID = (
    sa.update(m.Transfer)
    .where(m.Transfer.id.in_(sa.bindparam("ids", expanding=True)), m.Transfer.voided_at.is_(None))
    .values(voided_at=sa.bindparam("at"), voided_by=sa.bindparam("who"), void_reason=sa.bindparam("why"))
)
#: moves one running total; executed for several members at once (one executemany, one pipeline on psycopg)
_ADD_TO_BALANCE = (
    sa.update(m.Member)
    .where(m.Member.id == sa.bindparam("member"))
    .values(balance=m.Member.balance + sa.bindparam("delta"))
)


def _night_upsert(insert: Any) -> Any:
    statement = insert(m.NightTotal)
    return statement.on_conflict_do_update(
        index_elements=[m.NightTotal.night_id, m.NightTotal.member_id],
        set_={"amount": m.NightTotal.amount + statement.excluded.amount},
    ).returning(m.NightTotal.member_id, m.NightTotal.amount)


#: adds to a night's running totals, creating rows as needed, and answers the new totals
_ADD_TO_NIGHT = {"sqlite": _night_upsert(sqlite.insert), "postgresql": _night_upsert(postgresql.insert)}


def _pairs(first: str, second: str, name: str) -> Any:
    """PostgreSQL: two bound arrays as a table `name(first, second)`, for a statement of any number of rows."""
    arrays = (
        sa.bindparam(key, type_=postgresql.ARRAY(sa.BigInteger)) for key in (f"{name}_{first}", f"{name}_{second}")
    )
    return sa.func.unnest(*arrays).table_valued(first, second).render_derived(name)


def _all_totals_at_once() -> Any:
    """PostgreSQL: every running total a booking moves in one statement (one round trip): the accounts'
    balances as a CTE of the night's upsert, which answers the night's new totals."""
    balance = _pairs("member_id", "delta", "d")
    balances = (
        sa.update(m.Member).where(m.Member.id == balance.c.member_id).values(balance=m.Member.balance + balance.c.delta)
    )
    night = _pairs("member_id", "amount", "n")
    rows = sa.select(sa.bindparam("night", type_=sa.BigInteger), night.c.member_id, night.c.amount)
    statement = postgresql.insert(m.NightTotal).from_select(["night_id", "member_id", "amount"], rows)
    upsert = statement.on_conflict_do_update(
        index_elements=[m.NightTotal.night_id, m.NightTotal.member_id],
        set_={"amount": m.NightTotal.amount + statement.excluded.amount},
    ).returning(m.NightTotal.member_id, m.NightTotal.amount)
    return upsert.add_cte(balances.cte("balances"))


_ALL_TOTALS_AT_ONCE = _all_totals_at_once()

#: the columns a booking's transfers differ in (one bound array each); the others are one value for all of them
_PER_ROW = {
    "payer_id": sa.BigInteger,
    "payee_id": sa.BigInteger,
    "amount": sa.BigInteger,
    "reason": sa.String,
    "event_id": sa.BigInteger,
}
_SHARED = ("group_id", "kind", "night_id", "table_id", "hand_id", "source", "created_at", "created_by")


def insert_with_totals(opened: Any = None) -> Any:
    """PostgreSQL: a booking's transfers inserted and every running total moved, in one statement (one round
    trip). Answers one row: the new transfers' ids (ascending, which is their order: the rows are inserted in
    the order of the arrays and take ids from one sequence) and the night's new totals. With `opened` (a CTE
    inserting a hand's first event, answering `hand_id` and `id`) the transfers are that event's, and the row
    also answers the hand's and the event's ids: a hand opened and paid in one round trip."""
    per_row = [key for key in _PER_ROW if opened is None or key != "event_id"]
    arrays: list[Any] = [sa.bindparam(f"t_{key}", type_=postgresql.ARRAY(_PER_ROW[key])) for key in per_row]
    rows = sa.func.unnest(*arrays).table_valued(*per_row, with_ordinality="ordinal").render_derived("t")
    columns: dict[str, Any] = {key: rows.c[key] for key in per_row}
    columns |= {
        key: sa.bindparam(f"t_{key}", type_=m.Transfer.__table__.c[key].type)
        for key in _SHARED
        if opened is None or key != "hand_id"
    }
    values = sa.select(*columns.values())
    if opened is not None:
        columns |= {"hand_id": opened.c.hand_id, "event_id": opened.c.id}
        values = sa.select(*columns.values()).select_from(rows.join(opened, sa.true()))
    booked = (
        postgresql.insert(m.Transfer)
        .from_select(list(columns), values.order_by(rows.c.ordinal))
        .returning(m.Transfer.id)
        .cte("booked")
    )
    totals = _ALL_TOTALS_AT_ONCE.cte("totals")

    def ordered(column: Any, by: Any, name: str) -> Any:
        return sa.select(sa.func.array_agg(postgresql.aggregate_order_by(column, by))).scalar_subquery().label(name)

    answers = [
        ordered(booked.c.id, booked.c.id, "ids"),
        ordered(totals.c.member_id, totals.c.member_id, "members"),
        ordered(totals.c.amount, totals.c.member_id, "amounts"),
    ]
    if opened is not None:
        answers += [sa.select(opened.c[key]).scalar_subquery().label(f"opened_{key}") for key in ("hand_id", "id")]
    return sa.select(*answers)


_INSERT_WITH_TOTALS = insert_with_totals()


def new_row(
    tx: Tx,
    group_id: int,
    payer_id: int,
    payee_id: int,
    amount: int,
    reason: str,
    kind: str,
    *,
    night_id: int | None,
    table_id: int | None = None,
    hand_id: int | None = None,
    event_id: int | None = None,
) -> dict[str, Any]:
    """The values of a transfer to insert (every transfer row has the same keys, for one executemany)."""
    if amount <= 0 or payer_id == payee_id:
        raise LedgerError("bad_transfer", f"无效的款项：{amount} 分（{reason}）")
    return {
        "group_id": group_id,
        "payer_id": payer_id,
        "payee_id": payee_id,
        "amount": amount,
        "reason": reason[:200],
        "kind": kind,
        "night_id": night_id,
        "table_id": table_id,
        "hand_id": hand_id,
        "event_id": event_id,
        "source": tx.source,
        "created_at": tx.now,
        "created_by": tx.by,
    }


def insert(tx: Tx, rows: Sequence[dict[str, Any]], movement: Movement) -> list[int]:
    """Write transfers (one statement) and note what they move; returns their ids in order."""
    if not rows:
        return []
    dialect = tx.connection.dialect.name
    params = rows[0] if len(rows) == 1 else list(rows)  # one row: no executemany
    ids = list(tx.execute(_INSERT[dialect], params).scalars())
    if dialect == "sqlite":
        ids.sort()
    for row in rows:
        movement.move(row["payer_id"], row["payee_id"], row["amount"], row["night_id"])
    return ids


def in_one_statement(tx: Tx, rows: Sequence[dict[str, Any]], movement: Movement, night_id: int) -> bool:
    """Whether `insert_with_totals` can book `rows`: PostgreSQL, rows that share everything but who pays whom how
    much for which event, and money (with whatever `movement` already holds) that stays in `night_id`."""
    return (
        tx.connection.dialect.name == "postgresql"
        and all(row[key] == rows[0][key] for row in rows for key in _SHARED)
        and not set(movement.nights) - {night_id}
        and all(row["night_id"] == night_id for row in rows[:1])
    )


def insert_and_apply(
    tx: Tx, rows: Sequence[dict[str, Any]], movement: Movement, *, night_id: int, members: Iterable[int]
) -> tuple[list[int], tuple[NightTotal, ...]]:
    """`insert` then `apply` (reporting `members`' totals in `night_id`), in one statement where it can be."""
    if not rows or not in_one_statement(tx, rows, movement, night_id):
        ids = insert(tx, rows, movement)
        return ids, apply(tx, movement, night_id=night_id, members=members)
    found = tx.execute(_INSERT_WITH_TOTALS, _one_statement_params(rows, movement, night_id, members)).one()
    return list(found.ids), _reported(found, members)


def open_and_apply(
    tx: Tx,
    statement: Any,
    params: dict[str, Any],
    rows: Sequence[dict[str, Any]],
    movement: Movement,
    *,
    night_id: int,
    members: Iterable[int],
) -> tuple[int, int, list[int], tuple[NightTotal, ...]]:
    """Run `statement` (an `insert_with_totals(opened)`) with the opening's `params`: (hand id, event id, the
    transfers' ids, the reported night totals). The rows' `hand_id` and `event_id` are set to the new ids."""
    found = tx.execute(statement, params | _one_statement_params(rows, movement, night_id, members)).one()
    for row in rows:
        row["hand_id"], row["event_id"] = found.opened_hand_id, found.opened_id
    return found.opened_hand_id, found.opened_id, list(found.ids or ()), _reported(found, members)


def _one_statement_params(
    rows: Sequence[dict[str, Any]], movement: Movement, night_id: int, members: Iterable[int]
) -> dict[str, Any]:
    """The parameters of `insert_with_totals` (noting in `movement` what the rows move)."""
    for row in rows:
        movement.move(row["payer_id"], row["payee_id"], row["amount"], row["night_id"])
    deltas = movement.nights.get(night_id, {})
    report = set(members)
    changes = [(member, delta) for member, delta in sorted(movement.accounts.items()) if delta]
    listed = sorted(member for member in set(deltas) | report if deltas.get(member, 0) or member in report)
    first = rows[0] if rows else {}
    return (
        {f"t_{key}": [row[key] for row in rows] for key in _PER_ROW}
        | {f"t_{key}": first.get(key) for key in _SHARED}
        | {
            "d_member_id": [member for member, _ in changes],
            "d_delta": [delta for _, delta in changes],
            "night": night_id,
            "n_member_id": listed,
            "n_amount": [deltas.get(member, 0) for member in listed],
        }
    )


def _reported(found: Any, members: Iterable[int]) -> tuple[NightTotal, ...]:
    report = set(members)
    totals = zip(found.members or (), found.amounts or (), strict=True)
    return tuple(NightTotal(member, amount) for member, amount in totals if member in report)


def void(tx: Tx, transfers: Sequence[Live], reason: str, movement: Movement) -> None:
    """Mark live transfers voided (one statement) and note that their money goes back."""
    if not transfers:
        return
    tx.execute(_VOID, {"ids": [t.id for t in transfers], "at": tx.now, "who": tx.by, "why": reason[:500]})
    for transfer in transfers:
        movement.take_back(transfer)


def apply(
    tx: Tx, movement: Movement, *, night_id: int | None = None, members: Iterable[int] = ()
) -> tuple[NightTotal, ...]:
    """Move the running totals by what this transaction moved. Returns the night totals of `members` in
    `night_id` afterwards (read from the statement that moved them: under concurrent bookings they are exact)."""
    wanted = set(members) if night_id is not None else set()
    nights = dict(movement.nights)
    if wanted:
        nights.setdefault(night_id, {})  # type: ignore[arg-type]  # night_id is set when members are wanted
    changes = [(member, delta) for member, delta in sorted(movement.accounts.items()) if delta]
    if tx.connection.dialect.name == "postgresql" and len(nights) == 1:
        return _apply_at_once(tx, changes, *next(iter(nights.items())), wanted)
    if changes:
        tx.execute(_ADD_TO_BALANCE, [{"member": member, "delta": delta} for member, delta in changes])
    totals: dict[int, int] = {}
    upsert = _ADD_TO_NIGHT[tx.connection.dialect.name]
    for night, deltas in sorted(nights.items()):
        report = wanted if night == night_id else set()
        rows = [
            {"night_id": night, "member_id": member, "amount": deltas.get(member, 0)}
            for member in sorted(set(deltas) | report)
            if deltas.get(member, 0) or member in report
        ]
        if not rows:
            continue
        for member, amount in tx.execute(upsert, rows):
            if member in report:
                totals[member] = amount
    return tuple(NightTotal(member, totals[member]) for member in sorted(totals))


def _apply_at_once(
    tx: Tx, changes: list[tuple[int, int]], night: int, deltas: dict[int, int], report: set[int]
) -> tuple[NightTotal, ...]:
    members = sorted(member for member in set(deltas) | report if deltas.get(member, 0) or member in report)
    params = {
        "d_member_id": [member for member, _ in changes],
        "d_delta": [delta for _, delta in changes],
        "night": night,
        "n_member_id": members,
        "n_amount": [deltas.get(member, 0) for member in members],
    }
    totals = {member: amount for member, amount in tx.execute(_ALL_TOTALS_AT_ONCE, params) if member in report}
    return tuple(NightTotal(member, totals[member]) for member in sorted(totals))


LIVE_COLUMNS = (
    m.Transfer.id,
    m.Transfer.payer_id,
    m.Transfer.payee_id,
    m.Transfer.amount,
    m.Transfer.reason,
    m.Transfer.kind,
    m.Transfer.night_id,
    m.Transfer.hand_id,
    m.Transfer.event_id,
    m.Transfer.created_at,
)
_LIVE_OF_HAND = (
    sa.select(*LIVE_COLUMNS)
    .where(m.Transfer.hand_id == sa.bindparam("hand_id"), m.Transfer.voided_at.is_(None))
    .order_by(m.Transfer.id)
)


def live_of_hand(tx: Tx, hand_id: int) -> list[Live]:
    return [live(row) for row in tx.execute(_LIVE_OF_HAND, {"hand_id": hand_id})]


def live(row: Any, prefix: str = "") -> Live:
    """A `Live` from a row holding `LIVE_COLUMNS` (labelled with `prefix`)."""
    return Live(*(getattr(row, prefix + column.key) for column in LIVE_COLUMNS))


def info(
    transfer: Live | Any,
    names: Mapping[int, str],
    index_of: Mapping[int, int] | None = None,
    *,
    voided: bool = False,
) -> TransferInfo:
    """A transfer (a `Live`, a row or a `Transfer` object) as the record the ledger answers with; `index_of` maps
    event ids to their index among the hand's live events."""
    event_id = transfer.event_id
    return TransferInfo(
        id=transfer.id,
        payer_id=transfer.payer_id,
        payer=names.get(transfer.payer_id, "?"),
        payee_id=transfer.payee_id,
        payee=names.get(transfer.payee_id, "?"),
        amount=transfer.amount,
        reason=transfer.reason,
        kind=transfer.kind,
        hand_id=transfer.hand_id,
        event_index=(index_of or {}).get(event_id) if event_id is not None else None,
        created_at=transfer.created_at,
        voided=voided or getattr(transfer, "voided_at", None) is not None,
    )


def booked_info(
    ids: Sequence[int], rows: Sequence[dict[str, Any]], names: Mapping[int, str], index_of: Mapping[int, int]
) -> tuple[TransferInfo, ...]:
    """The records of transfers this transaction just inserted (from the values it wrote: nothing re-read)."""
    return tuple(info(_live(id_, row), names, index_of) for id_, row in zip(ids, rows, strict=True))


def _live(id_: int, row: Mapping[str, Any]) -> Live:
    return Live(
        id_,
        row["payer_id"],
        row["payee_id"],
        row["amount"],
        row["reason"],
        row["kind"],
        row["night_id"],
        row["hand_id"],
        row["event_id"],
        row["created_at"],
    )
