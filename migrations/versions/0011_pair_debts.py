"""Open debts as running totals: `pair_debts` holds, per group and pair of players, what the one owes the other
(what the stored settlements told them to pay, less the debts later settlements netted in, less the live payments
between them), so a payment, 未结 and 开桌's list of open debts read it instead of re-deriving it from every
settlement. The upgrade fills it from an existing ledger; the downgrade drops it (nothing else depends on it).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 03:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
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
    sa.column("payments", sa.JSON()),
    sa.column("carried", sa.JSON()),
)
_transfers = sa.table(
    "transfers",
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


def upgrade() -> None:
    op.create_table(
        "pair_debts",
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("low_id", sa.BigInteger(), nullable=False),
        sa.Column("high_id", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("low_id < high_id", name=op.f("ck_pair_debts_ordered")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_pair_debts_group_id_groups")),
        sa.ForeignKeyConstraint(["high_id"], ["members.id"], name=op.f("fk_pair_debts_high_id_members")),
        sa.ForeignKeyConstraint(["low_id"], ["members.id"], name=op.f("fk_pair_debts_low_id_members")),
        sa.PrimaryKeyConstraint("group_id", "low_id", "high_id", name=op.f("pk_pair_debts")),
    )
    connection = op.get_bind()
    rows = [
        {"group_id": group_id, "low_id": low, "high_id": high, "amount": amount}
        for (group_id, low, high), amount in sorted(_derived(connection).items())
        if amount
    ]
    if rows:
        connection.execute(_pair_debts.insert(), rows)


def _derived(connection: sa.Connection) -> dict[tuple[int, int, int], int]:
    """Every group's open debts re-derived from its settlements and payments (as `ledger.payments` did before
    this revision): (group, low id, high id) -> what low owes high."""
    home: dict[int, int] = {}
    group_accounts: set[int] = set()
    for id_, _group, kind, linked in connection.execute(sa.select(_members)):
        home[id_] = linked or id_
        if kind in ("pot", "house"):
            group_accounts.add(id_)
    net: dict[tuple[int, int, int], int] = {}

    def add(group_id: int, debtor: int, creditor: int, amount: int) -> None:
        debtor, creditor = home.get(debtor, debtor), home.get(creditor, creditor)
        if debtor == creditor or debtor in group_accounts or creditor in group_accounts:
            return
        key, sign = ((debtor, creditor), 1) if debtor < creditor else ((creditor, debtor), -1)
        net[(group_id, *key)] = net.get((group_id, *key), 0) + sign * amount

    for _id, group_id, payments, carried in connection.execute(sa.select(_settlements).order_by(_settlements.c.id)):
        for line in payments or ():
            add(group_id, int(line["payer_id"]), int(line["payee_id"]), int(line["amount"]))
        for debtor, creditor, amount in carried or ():
            add(group_id, int(debtor), int(creditor), -int(amount))
    paid = (
        sa.select(_transfers.c.group_id, _transfers.c.payer_id, _transfers.c.payee_id, sa.func.sum(_transfers.c.amount))
        .where(_transfers.c.kind == "payment", _transfers.c.voided_at.is_(None))
        .group_by(_transfers.c.group_id, _transfers.c.payer_id, _transfers.c.payee_id)
    )
    for group_id, creditor, debtor, total in connection.execute(paid):
        add(group_id, debtor, creditor, -int(total))
    return net


def downgrade() -> None:
    op.drop_table("pair_debts")
