"""An index of a group's hands in the order they were played (`ix_hands_group_id_table_id_number`: group, table,
number, id), so 历史 lists an edited earlier hand in its place — ordered by table and hand number, not by id, which
a re-recorded hand gets anew — and still walks the group's hands newest first and stops at its limit, whatever the
length of the history. The downgrade drops it; nothing else depends on it.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06 04:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_hands_group_id_table_id_number", "hands", ["group_id", "table_id", "number", "id"])


def downgrade() -> None:
    op.drop_index("ix_hands_group_id_table_id_number", table_name="hands")
