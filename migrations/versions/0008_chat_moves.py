"""Chat moves and the double-entry window: a chat Telegram gave a new id (a group upgraded to a supergroup) is
recorded, so its group answers to the new id and late updates of the old one still find it; a group's window for
holding back a record that repeats the previous one (`chat_options.double_entry_seconds`, NULL: 90 seconds).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_moves",
        sa.Column("old_chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("new_chat_id", sa.BigInteger(), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=True),
        sa.Column("moved_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_chat_moves_group_id_groups")),
        sa.PrimaryKeyConstraint("old_chat_id", name=op.f("pk_chat_moves")),
    )
    op.create_index(op.f("ix_chat_moves_group_id"), "chat_moves", ["group_id"], unique=False)
    with op.batch_alter_table("chat_options") as batch:
        batch.add_column(sa.Column("double_entry_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_options") as batch:
        batch.drop_column("double_entry_seconds")
    op.drop_index(op.f("ix_chat_moves_group_id"), table_name="chat_moves")
    op.drop_table("chat_moves")
