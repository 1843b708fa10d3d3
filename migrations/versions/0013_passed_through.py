"""Debts to and from the group's accounts (the pot 红包池, the house 台费) pass through them: a settlement's lines to
or from an account become debts like players' (`pair_debts`), and right after, whoever owes an account owes the
people it owes instead (`ledger.payments.pass_through`); `settlements.passed` keeps each settlement's passes
(`[[x, y, 分, account id], ...]`) so the debts can be re-derived exactly.

Money of a group account booked while no night is open (a fine in the afternoon, 发红包池 / 付台费 after 结算)
belongs to no night's settlement: the code now settles it at once, as a settlement of its own (`night_id` NULL).
The upgrade writes one for each such live fine and payout of the ledger, replays every settlement in the order
they were booked as the new code would have stored it (the passes only depend on the debts to and from the
accounts, which only settlements move: a payment to or from an account is refused), stores its passes, and
refills `pair_debts` with the debts re-derived from the settlements, their passes and the live payments. The
downgrade deletes the settlements of no night, drops the column and refills `pair_debts` as 0011 defines it
(debts between players only).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 15:30:00
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_members = sa.table(
    "members",
    sa.column("id", sa.BigInteger()),
    sa.column("group_id", sa.BigInteger()),
    sa.column("kind", sa.String()),
    sa.column("linked_to_id", sa.BigInteger()),
)
_settlements = sa.table(
    "settlements",
    sa.column("id", sa.BigInteger()),
    sa.column("group_id", sa.BigInteger()),
    sa.column("night_id", sa.BigInteger()),
    sa.column("payments", sa.JSON()),
    sa.column("balances", sa.JSON()),
    sa.column("carried", sa.JSON()),
    sa.column("passed", sa.JSON()),
    sa.column("exact", sa.Boolean()),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("created_by", sa.BigInteger()),
)
_transfers = sa.table(
    "transfers",
    sa.column("id", sa.BigInteger()),
    sa.column("night_id", sa.BigInteger()),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("created_by", sa.BigInteger()),
    sa.column("group_id", sa.BigInteger()),
    sa.column("payer_id", sa.BigInteger()),
    sa.column("payee_id", sa.BigInteger()),
    sa.column("amount", sa.BigInteger()),
    sa.column("kind", sa.String()),
    sa.column("voided_at", sa.DateTime(timezone=True)),
)
_pair_debts = sa.table(
    "pair_debts",
    sa.column("group_id", sa.BigInteger()),
    sa.column("low_id", sa.BigInteger()),
    sa.column("high_id", sa.BigInteger()),
    sa.column("amount", sa.BigInteger()),
)

_Net = dict[tuple[int, int, int], int]  # (group, low id, high id) -> what low owes high


def upgrade() -> None:
    with op.batch_alter_table("settlements") as batch:
        batch.add_column(sa.Column("passed", sa.JSON(), nullable=True))
    connection = op.get_bind()
    home, pools = _accounts(connection)
    for created_at, group_id, payer, payee, amount, by in connection.execute(
        sa.select(
            _transfers.c.created_at,
            _transfers.c.group_id,
            _transfers.c.payer_id,
            _transfers.c.payee_id,
            _transfers.c.amount,
            _transfers.c.created_by,
        )
        .where(
            _transfers.c.night_id.is_(None),
            _transfers.c.voided_at.is_(None),
            _transfers.c.kind.in_(("fine", "payout")),
        )
        .order_by(_transfers.c.id)
    ).all():  # money of a group account booked while no night was open: settled at once, as the code now does
        line = {"payer_id": payer, "payer": "", "payee_id": payee, "payee": "", "amount": amount}
        connection.execute(
            _settlements.insert().values(
                group_id=group_id,
                night_id=None,
                payments=[line],
                balances={str(payer): -amount, str(payee): amount},
                exact=True,
                created_at=created_at,
                created_by=by,
            )
        )
    net: _Net = {}
    in_order = sa.select(_settlements).order_by(_settlements.c.created_at, _settlements.c.id)
    for row in connection.execute(in_order).all():
        _lines(net, home, row.group_id, row.payments, row.carried, set())
        passed = _pass_through(net, row.group_id, sorted(p for p, group in pools.items() if group == row.group_id))
        if passed:
            connection.execute(_settlements.update().where(_settlements.c.id == row.id).values(passed=passed))
    _refill(connection, with_pools=True)


def downgrade() -> None:
    connection = op.get_bind()
    connection.execute(_settlements.delete().where(_settlements.c.night_id.is_(None)))
    _refill(connection, with_pools=False)
    with op.batch_alter_table("settlements") as batch:
        batch.drop_column("passed")


def _accounts(connection: sa.Connection) -> tuple[dict[int, int], dict[int, int]]:
    """Each account -> the id its money lives under (a linked guest's is its member's); each group account (pot,
    house) -> its group."""
    home: dict[int, int] = {}
    pools: dict[int, int] = {}
    for id_, group_id, kind, linked in connection.execute(sa.select(_members)):
        home[id_] = linked or id_
        if kind in ("pot", "house"):
            pools[id_] = group_id
    return home, pools


def _add(net: _Net, home: Mapping[int, int], group_id: int, debtor: int, creditor: int, amount: int) -> None:
    debtor, creditor = home.get(debtor, debtor), home.get(creditor, creditor)
    if debtor == creditor:
        return
    key, sign = ((debtor, creditor), 1) if debtor < creditor else ((creditor, debtor), -1)
    net[(group_id, *key)] = net.get((group_id, *key), 0) + sign * amount


def _lines(
    net: _Net, home: Mapping[int, int], group_id: int, payments: object, carried: object, leave_out: set[int]
) -> None:
    """A settlement's lines and the debts it netted in, but those to or from `leave_out`."""
    for line in payments or ():  # type: ignore[attr-defined]
        debtor, creditor = int(line["payer_id"]), int(line["payee_id"])
        if debtor not in leave_out and creditor not in leave_out:
            _add(net, home, group_id, debtor, creditor, int(line["amount"]))
    for debtor, creditor, amount in carried or ():  # type: ignore[attr-defined]
        _add(net, home, group_id, int(debtor), int(creditor), -int(amount))


def _pass_through(net: _Net, group_id: int, group_pools: list[int]) -> list[list[int]]:
    """`ledger.payments.pass_through` as of this revision (a migration keeps its own copy: the code may change),
    applied to `net`: the passes, in order."""
    passed: list[list[int]] = []
    while True:
        for pool in group_pools:
            owing: list[tuple[int, int]] = []
            owed: list[tuple[int, int]] = []
            for (group, low, high), amount in net.items():
                if group == group_id and pool in (low, high) and amount:
                    other = high if low == pool else low
                    owes_pool = (amount > 0) == (low == other)
                    (owing if owes_pool else owed).append((abs(amount), other))
            if owing and owed:
                break
        else:
            return passed
        owing.sort(key=lambda t: (-t[0], t[1]))
        owed.sort(key=lambda t: (-t[0], t[1]))
        i = j = 0
        while i < len(owing) and j < len(owed):
            (owes, x), (due, y) = owing[i], owed[j]
            amount = min(owes, due)
            passed.append([x, y, amount, pool])
            for debtor, creditor, delta in ((x, pool, -amount), (pool, y, -amount), (x, y, amount)):
                _add(net, {}, group_id, debtor, creditor, delta)
            owing[i], owed[j] = (owes - amount, x), (due - amount, y)
            i += owes == amount
            j += due == amount


def _refill(connection: sa.Connection, *, with_pools: bool) -> None:
    """`pair_debts` re-derived from the settlements (with the accounts' lines and passes, or without: 0011's
    debts between players) and the live payments."""
    home, pools = _accounts(connection)
    leave_out = set() if with_pools else set(pools)
    net: _Net = {}
    columns = [_settlements.c.group_id, _settlements.c.payments, _settlements.c.carried]
    if with_pools:
        columns.append(_settlements.c.passed)
    for row in connection.execute(sa.select(*columns).order_by(_settlements.c.created_at, _settlements.c.id)):
        _lines(net, home, row.group_id, row.payments, row.carried, leave_out)
        for x, y, amount, pool in (row.passed if with_pools else None) or ():
            for debtor, creditor, delta in ((x, pool, -amount), (pool, y, -amount), (x, y, amount)):
                _add(net, home, row.group_id, int(debtor), int(creditor), int(delta))
    paid = (
        sa.select(_transfers.c.group_id, _transfers.c.payer_id, _transfers.c.payee_id, sa.func.sum(_transfers.c.amount))
        .where(_transfers.c.kind == "payment", _transfers.c.voided_at.is_(None))
        .group_by(_transfers.c.group_id, _transfers.c.payer_id, _transfers.c.payee_id)
    )
    for group_id, creditor, debtor, total in connection.execute(paid):
        _add(net, home, group_id, debtor, creditor, -int(total))
    connection.execute(_pair_debts.delete())
    rows = [
        {"group_id": group_id, "low_id": low, "high_id": high, "amount": amount}
        for (group_id, low, high), amount in sorted(net.items())
        if amount
    ]
    if rows:
        connection.execute(_pair_debts.insert(), rows)
