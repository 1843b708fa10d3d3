"""Chat options: per-group choices of how the bot reads the chat (what 明杠 means).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_options",
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("minggang", sa.String(length=8), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("minggang IN ('zhigang', 'xugang')", name=op.f("ck_chat_options_minggang")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_chat_options_group_id_groups")),
        sa.PrimaryKeyConstraint("group_id", name=op.f("pk_chat_options")),
    )


def downgrade() -> None:
    op.drop_table("chat_options")
