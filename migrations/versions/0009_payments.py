"""Payments: cash handed over after a settlement, booked as transfers of their own kind (`payment`) with who
confirmed them and when; the debts a settlement netted in from earlier nights (`settlements.carried`); a group's
choice to keep nights separate (`chat_options.merge_debts`, NULL: net earlier debts in).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_KINDS = "kind IN ('hand', 'fine', 'payout')"
NEW_KINDS = "kind IN ('hand', 'fine', 'payout', 'payment')"


def upgrade() -> None:
    with op.batch_alter_table("transfers") as batch:
        batch.drop_constraint(op.f("ck_transfers_kind"), type_="check")
        batch.create_check_constraint("kind", NEW_KINDS)
        batch.add_column(sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("confirmed_by", sa.BigInteger(), nullable=True))
    # a group's payments (未结 against 总输赢, the open debts) are read without scanning its other transfers
    op.create_index(
        "ix_transfers_payments",
        "transfers",
        ["group_id"],
        sqlite_where=sa.text("kind = 'payment'"),
        postgresql_where=sa.text("kind = 'payment'"),
    )
    with op.batch_alter_table("settlements") as batch:
        batch.add_column(sa.Column("carried", sa.JSON(), nullable=True))
    with op.batch_alter_table("chat_options") as batch:
        batch.add_column(sa.Column("merge_debts", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_options") as batch:
        batch.drop_column("merge_debts")
    with op.batch_alter_table("settlements") as batch:
        batch.drop_column("carried")
    # a payment has no older kind to become: its money goes back out of the running balances and the rows go
    # (payments are never booked in a night, so no night total holds one)
    op.execute(
        """
        UPDATE members SET balance = balance
            - (SELECT COALESCE(SUM(amount), 0) FROM transfers
               WHERE kind = 'payment' AND voided_at IS NULL AND payee_id = members.id)
            + (SELECT COALESCE(SUM(amount), 0) FROM transfers
               WHERE kind = 'payment' AND voided_at IS NULL AND payer_id = members.id)
        """
    )
    op.execute("DELETE FROM transfers WHERE kind = 'payment'")
    op.drop_index("ix_transfers_payments", table_name="transfers")
    with op.batch_alter_table("transfers") as batch:
        batch.drop_column("confirmed_by")
        batch.drop_column("confirmed_at")
        batch.drop_constraint(op.f("ck_transfers_kind"), type_="check")
        batch.create_check_constraint("kind", OLD_KINDS)
