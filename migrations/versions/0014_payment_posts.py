"""The message each settlement's payments post was sent as (`settlements.post_message_id`): a typed 付 / 收到 /
撤销付款 rewrites that post in place, as a 「已付」/「收到」 press under it does. NULL for the settlements posted
before (their posts are rewritten by a press only) and for those whose post was never sent.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 19:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("settlements") as batch:
        batch.add_column(sa.Column("post_message_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("settlements") as batch:
        batch.drop_column("post_message_id")
