"""Indexes for the read side, so a report reads what it shows instead of the group's whole history: 历史 finds
the hands that replaced the ones it lists, a period finds its nights, and the money booked outside any night
(a fine in the afternoon) is found without reading the rest.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 17:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_hands_replaces_id", "hands", ["replaces_id"])
    op.create_index("ix_nights_group_id_started_at", "nights", ["group_id", "started_at"])
    op.create_index(
        "ix_transfers_outside_nights",
        "transfers",
        ["group_id", "created_at"],
        sqlite_where=sa.text("night_id IS NULL"),
        postgresql_where=sa.text("night_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_transfers_outside_nights", table_name="transfers")
    op.drop_index("ix_nights_group_id_started_at", table_name="nights")
    op.drop_index("ix_hands_replaces_id", table_name="hands")
