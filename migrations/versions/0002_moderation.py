"""Moderation (群规则): per-group settings, warnings/fines/removals, rules-text history, one-time reminders.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "moderation_reminders",
        sa.Column("id", _ID, nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_moderation_reminders_group_id_groups")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_reminders")),
        sa.UniqueConstraint("group_id", "user_id", "kind", name=op.f("uq_moderation_reminders_group_id_user_id_kind")),
    )
    op.create_table(
        "moderation_rules_texts",
        sa.Column("id", _ID, nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("edited_by", sa.BigInteger(), nullable=True),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_moderation_rules_texts_group_id_groups")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_rules_texts")),
        sa.UniqueConstraint("source", name=op.f("uq_moderation_rules_texts_source")),
    )
    with op.batch_alter_table("moderation_rules_texts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_moderation_rules_texts_group_id"), ["group_id"], unique=False)

    op.create_table(
        "moderation_settings",
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("overrides", sa.JSON(), nullable=False),
        sa.Column("rights_notice_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_moderation_settings_group_id_groups")),
        sa.PrimaryKeyConstraint("group_id", name=op.f("pk_moderation_settings")),
    )
    op.create_table(
        "moderation_actions",
        sa.Column("id", _ID, nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("rule", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("transfer_id", sa.BigInteger(), nullable=True),
        sa.Column("issued_by", sa.BigInteger(), nullable=True),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_by", sa.BigInteger(), nullable=True),
        sa.Column("cancel_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint(
            "(kind = 'fine') = (amount IS NOT NULL)", name=op.f("ck_moderation_actions_amount_iff_fine")
        ),
        sa.CheckConstraint("kind IN ('warning', 'fine', 'removal', 'ban')", name=op.f("ck_moderation_actions_kind")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_moderation_actions_group_id_groups")),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_moderation_actions_member_id_members")),
        sa.ForeignKeyConstraint(
            ["transfer_id"], ["transfers.id"], name=op.f("fk_moderation_actions_transfer_id_transfers")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_moderation_actions")),
        sa.UniqueConstraint("source", "kind", name=op.f("uq_moderation_actions_source_kind")),
    )
    with op.batch_alter_table("moderation_actions", schema=None) as batch_op:
        batch_op.create_index("ix_moderation_actions_group_id_user_id", ["group_id", "user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_moderation_actions_member_id"), ["member_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("moderation_actions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_moderation_actions_member_id"))
        batch_op.drop_index("ix_moderation_actions_group_id_user_id")

    op.drop_table("moderation_actions")
    op.drop_table("moderation_settings")
    with op.batch_alter_table("moderation_rules_texts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_moderation_rules_texts_group_id"))

    op.drop_table("moderation_rules_texts")
    op.drop_table("moderation_reminders")
