"""Table fees and payment QR codes: the house account (`members.kind = 'house'`) that table fees go to, fee
transfers (`transfers.kind = 'fee'`), a group's fee settings (`fee_settings`), and members' 收款码 as Telegram
file ids (`payment_codes`).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_KINDS = {
    "members": ("'member', 'guest', 'pot'", "'member', 'guest', 'pot', 'house'"),
    "transfers": ("'hand', 'fine', 'payout', 'payment'", "'hand', 'fine', 'payout', 'payment', 'fee'"),
}


def _kinds(table: str, allowed: str) -> None:
    with op.batch_alter_table(table) as batch:
        batch.drop_constraint(op.f(f"ck_{table}_kind"), type_="check")
        batch.create_check_constraint(op.f(f"ck_{table}_kind"), f"kind IN ({allowed})")


def upgrade() -> None:
    for table, (_old, new) in _KINDS.items():
        _kinds(table, new)
    op.create_table(
        "fee_settings",
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("night_fee", sa.BigInteger(), nullable=False),
        sa.Column("cut_fixed", sa.BigInteger(), nullable=False),
        sa.Column("cut_percent", sa.SmallInteger(), nullable=False),
        sa.Column("cut_cap", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("night_fee >= 0 AND cut_fixed >= 0", name=op.f("ck_fee_settings_amounts")),
        sa.CheckConstraint("cut_percent >= 0 AND cut_percent <= 100", name=op.f("ck_fee_settings_percent")),
        sa.CheckConstraint("cut_fixed = 0 OR cut_percent = 0", name=op.f("ck_fee_settings_one_cut")),
        sa.CheckConstraint("cut_cap IS NULL OR cut_cap > 0", name=op.f("ck_fee_settings_cap")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_fee_settings_group_id_groups")),
        sa.PrimaryKeyConstraint("group_id", name=op.f("pk_fee_settings")),
    )
    op.create_table(
        "payment_codes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.Column("app", sa.String(length=8), nullable=False),
        sa.Column("file_id", sa.String(length=256), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("app IN ('wechat', 'alipay', 'any')", name=op.f("ck_payment_codes_app")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_payment_codes_member_id_members")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_codes")),
        sa.UniqueConstraint("member_id", "app", name=op.f("uq_payment_codes_member_id_app")),
    )


def downgrade() -> None:
    """Refused while a house account or a fee transfer exists: the older constraints cannot hold them."""
    bind = op.get_bind()
    house = bind.execute(sa.text("SELECT count(*) FROM members WHERE kind = 'house'")).scalar()
    fees = bind.execute(sa.text("SELECT count(*) FROM transfers WHERE kind = 'fee'")).scalar()
    if house or fees:
        raise RuntimeError(f"cannot downgrade below 0010: {house} house accounts and {fees} fee transfers exist")
    op.drop_table("payment_codes")
    op.drop_table("fee_settings")
    for table, (old, _new) in _KINDS.items():
        _kinds(table, old)
