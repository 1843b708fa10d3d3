"""Running per-night totals: each account's sum of live transfers booked in a night, moved in place by every
booking, so a reply's night figures are read instead of re-summing the night. Filled from the existing transfers.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "night_totals",
        sa.Column("night_id", sa.BigInteger(), nullable=False),
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_night_totals_member_id_members")),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_night_totals_night_id_nights")),
        sa.PrimaryKeyConstraint("night_id", "member_id", name=op.f("pk_night_totals")),
    )
    # every night's totals from its live transfers: what the payee received minus what the payer paid
    op.execute(
        """
        INSERT INTO night_totals (night_id, member_id, amount)
        SELECT night_id, member_id, SUM(amount) FROM (
            SELECT night_id, payee_id AS member_id, amount FROM transfers
            WHERE night_id IS NOT NULL AND voided_at IS NULL
            UNION ALL
            SELECT night_id, payer_id AS member_id, -amount FROM transfers
            WHERE night_id IS NOT NULL AND voided_at IS NULL
        ) AS moves
        GROUP BY night_id, member_id
        """
    )


def downgrade() -> None:
    op.drop_table("night_totals")
