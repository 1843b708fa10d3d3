"""A settlement can be taken back (撤销结算): `settlements` records which table its 结算 ended (`table_id`, to open
it again) and, once taken back, who did so, when and why (`voided_at`, `voided_by`, `void_reason`: corrections
void, never delete). The upgrade fills `table_id` of each night's settlement with the table the close ended: the
night's last table, when it ended at the moment the night did (a table ended by 开桌 before the night closed is
left out: NULL, nothing to reopen). The downgrade deletes the settlements taken back (their debts were moved back
when they were, so the books stay as the code before reads them) and drops the columns.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 19:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_settlements = sa.table(
    "settlements",
    sa.column("id", sa.BigInteger()),
    sa.column("night_id", sa.BigInteger()),
    sa.column("table_id", sa.BigInteger()),
    sa.column("voided_at", sa.DateTime(timezone=True)),
)
_nights = sa.table("nights", sa.column("id", sa.BigInteger()), sa.column("ended_at", sa.DateTime(timezone=True)))
_tables = sa.table(
    "game_tables",
    sa.column("id", sa.BigInteger()),
    sa.column("night_id", sa.BigInteger()),
    sa.column("ended_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    with op.batch_alter_table("settlements") as batch:
        batch.add_column(sa.Column("table_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("voided_by", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("void_reason", sa.String(length=500), nullable=True))
        batch.create_foreign_key(op.f("fk_settlements_table_id_game_tables"), "game_tables", ["table_id"], ["id"])
    connection = op.get_bind()
    inner = _tables.alias("inner")
    last_table = sa.select(sa.func.max(inner.c.id)).where(inner.c.night_id == _nights.c.id).scalar_subquery()
    rows = connection.execute(
        sa.select(_settlements.c.id, _tables.c.id)
        .join(_nights, _nights.c.id == _settlements.c.night_id)
        .join(_tables, sa.and_(_tables.c.id == last_table, _tables.c.ended_at == _nights.c.ended_at))
    ).all()
    for settlement_id, table_id in rows:
        connection.execute(_settlements.update().where(_settlements.c.id == settlement_id).values(table_id=table_id))


def downgrade() -> None:
    connection = op.get_bind()
    connection.execute(_settlements.delete().where(_settlements.c.voided_at.is_not(None)))
    with op.batch_alter_table("settlements") as batch:
        batch.drop_constraint(op.f("fk_settlements_table_id_game_tables"), type_="foreignkey")
        batch.drop_column("void_reason")
        batch.drop_column("voided_by")
        batch.drop_column("voided_at")
        batch.drop_column("table_id")
