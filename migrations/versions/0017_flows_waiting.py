"""An index of the button flows still waiting, by chat and the member who started them (`ix_flows_waiting`, partial:
finished flows are left out), so the read every message starts with counts the sender's waiting questions without
scanning the chat's whole history of flows (`ChatView.waiting`: a record from whoever asked 撤销 waits for their
answer). The downgrade drops it; nothing else depends on it.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 19:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_flows_waiting",
        "flows",
        ["chat_id", "user_id"],
        sqlite_where=sa.text("finished_at IS NULL"),
        postgresql_where=sa.text("finished_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_flows_waiting", table_name="flows")
