"""Durable intake: Telegram updates stored before they are confirmed (inbox_updates), chat leases (inbox_leases).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "inbox_updates",
        sa.Column("id", _ID, nullable=False),
        sa.Column("bot_id", sa.BigInteger(), nullable=False),
        sa.Column("update_id", sa.BigInteger(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbox_updates")),
        sa.UniqueConstraint("bot_id", "update_id", name=op.f("uq_inbox_updates_bot_id_update_id")),
    )
    with op.batch_alter_table("inbox_updates", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_inbox_updates_done_at"), ["done_at"], unique=False)
        batch_op.create_index(
            "ix_inbox_updates_pending",
            ["bot_id", "chat_id", "update_id"],
            unique=False,
            sqlite_where=sa.text("done_at IS NULL"),
            postgresql_where=sa.text("done_at IS NULL"),
        )
    op.create_table(
        "inbox_leases",
        sa.Column("bot_id", sa.BigInteger(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("worker", sa.String(length=100), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("bot_id", "chat_id", name=op.f("pk_inbox_leases")),
    )


def downgrade() -> None:
    op.drop_table("inbox_leases")
    with op.batch_alter_table("inbox_updates", schema=None) as batch_op:
        batch_op.drop_index(
            "ix_inbox_updates_pending",
            sqlite_where=sa.text("done_at IS NULL"),
            postgresql_where=sa.text("done_at IS NULL"),
        )
        batch_op.drop_index(batch_op.f("ix_inbox_updates_done_at"))
    op.drop_table("inbox_updates")
