"""Shared state: flood counters and cached admin lists every bot process sees (table `shared_state`).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "shared_state",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_shared_state")),
    )
    with op.batch_alter_table("shared_state", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_shared_state_expires_at"), ["expires_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("shared_state", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_shared_state_expires_at"))
    op.drop_table("shared_state")
