"""A payment records the line of a settlement it settles (`payment_lines`: the transfer, the settlement and the
line's index in its post), so a pair with lines in several settlements shows each payment on its own line, and an
index of each group's settlements by id (`ix_settlements_group_id_id`: the latest ones, read at each payment,
without sorting the group's whole history). The payments booked before have no row: they are read as paying the
pair's oldest lines settled before them. The downgrade drops both (nothing else depends on them; the payments and
every debt stay as they are).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 22:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "payment_lines",
        sa.Column("transfer_id", sa.BigInteger(), nullable=False),
        sa.Column("settlement_id", sa.BigInteger(), nullable=False),
        sa.Column("line_index", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["settlement_id"], ["settlements.id"], name=op.f("fk_payment_lines_settlement_id_settlements")
        ),
        sa.ForeignKeyConstraint(["transfer_id"], ["transfers.id"], name=op.f("fk_payment_lines_transfer_id_transfers")),
        sa.PrimaryKeyConstraint("transfer_id", name=op.f("pk_payment_lines")),
    )
    op.create_index("ix_settlements_group_id_id", "settlements", ["group_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_settlements_group_id_id", table_name="settlements")
    op.drop_table("payment_lines")
