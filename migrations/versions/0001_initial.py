"""Initial schema: groups, members, nights, tables, seats, hands, events, transfers, operations, flows.

Money and ids are BIGINT (INTEGER rowid aliases for SQLite primary keys); timestamps are timezone-aware.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 11:46:00.313470
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "flows",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_flows")),
        sa.UniqueConstraint("chat_id", "message_id", name=op.f("uq_flows_chat_id_message_id")),
    )
    op.create_table(
        "groups",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("base", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=16), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("cutoff_hour", sa.SmallInteger(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("base > 0", name=op.f("ck_groups_base_positive")),
        sa.CheckConstraint("cutoff_hour >= 0 AND cutoff_hour < 24", name=op.f("ck_groups_cutoff_hour_range")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_groups")),
        sa.UniqueConstraint("chat_id", name=op.f("uq_groups_chat_id")),
    )
    op.create_table(
        "operations",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operations")),
        sa.UniqueConstraint("source", name=op.f("uq_operations_source")),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("display_name", sa.String(length=255), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("alias", sa.String(length=64), nullable=True),
        sa.Column("balance", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("linked_to_id", sa.BigInteger(), nullable=True),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("linked_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("(kind = 'member') = (user_id IS NOT NULL)", name=op.f("ck_members_user_id_iff_member")),
        sa.CheckConstraint("kind IN ('member', 'guest', 'pot')", name=op.f("ck_members_kind")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_members_group_id_groups")),
        sa.ForeignKeyConstraint(["linked_to_id"], ["members.id"], name=op.f("fk_members_linked_to_id_members")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_members")),
        sa.UniqueConstraint("group_id", "user_id", name=op.f("uq_members_group_id_user_id")),
    )
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.create_index("ix_members_group_id_kind", ["group_id", "kind"], unique=False)

    op.create_table(
        "nights",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("night_date", sa.Date(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_nights_group_id_groups")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nights")),
    )
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_nights_group_id"), ["group_id"], unique=False)
        batch_op.create_index(
            "uq_nights_one_open_per_group",
            ["group_id"],
            unique=True,
            sqlite_where=sa.text("ended_at IS NULL"),
            postgresql_where=sa.text("ended_at IS NULL"),
        )

    op.create_table(
        "setting_changes",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("changed_by", sa.BigInteger(), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_setting_changes_group_id_groups")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_setting_changes")),
    )
    with op.batch_alter_table("setting_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_setting_changes_group_id"), ["group_id"], unique=False)

    op.create_table(
        "game_tables",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("night_id", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("base", sa.BigInteger(), nullable=False),
        sa.Column("dealer", sa.String(length=64), nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_game_tables_group_id_groups")),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_game_tables_night_id_nights")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_tables")),
    )
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_tables_group_id"), ["group_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_game_tables_night_id"), ["night_id"], unique=False)
        batch_op.create_index(
            "uq_game_tables_one_open_per_group",
            ["group_id"],
            unique=True,
            sqlite_where=sa.text("ended_at IS NULL"),
            postgresql_where=sa.text("ended_at IS NULL"),
        )

    op.create_table(
        "settlements",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("night_id", sa.BigInteger(), nullable=True),
        sa.Column("payments", sa.JSON(), nullable=False),
        sa.Column("balances", sa.JSON(), nullable=False),
        sa.Column("exact", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_settlements_group_id_groups")),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_settlements_night_id_nights")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_settlements")),
    )
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_settlements_group_id"), ["group_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_settlements_night_id"), ["night_id"], unique=False)

    op.create_table(
        "hands",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("table_id", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("voided_by", sa.BigInteger(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.Column("replaces_id", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("status IN ('open', 'closed', 'voided')", name=op.f("ck_hands_status")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_hands_group_id_groups")),
        sa.ForeignKeyConstraint(["replaces_id"], ["hands.id"], name=op.f("fk_hands_replaces_id_hands")),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], name=op.f("fk_hands_table_id_game_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
    )
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index("ix_hands_group_id_id", ["group_id", "id"], unique=False)
        batch_op.create_index("ix_hands_table_id_status", ["table_id", "status"], unique=False)
        batch_op.create_index(
            "uq_hands_one_open_per_table",
            ["table_id"],
            unique=True,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        )

    op.create_table(
        "seats",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("table_id", sa.BigInteger(), nullable=False),
        sa.Column("position", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], name=op.f("fk_seats_member_id_members")),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], name=op.f("fk_seats_table_id_game_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("table_id", "name", name=op.f("uq_seats_table_id_name")),
        sa.UniqueConstraint("table_id", "position", name=op.f("uq_seats_table_id_position")),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_member_id"), ["member_id"], unique=False)

    op.create_table(
        "hand_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("hand_id", sa.BigInteger(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("voided_by", sa.BigInteger(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_hand_events_hand_id_hands")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_events")),
    )
    with op.batch_alter_table("hand_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hand_events_hand_id"), ["hand_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_hand_events_source"), ["source"], unique=False)

    op.create_table(
        "transfers",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("group_id", sa.BigInteger(), nullable=False),
        sa.Column("payer_id", sa.BigInteger(), nullable=False),
        sa.Column("payee_id", sa.BigInteger(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("night_id", sa.BigInteger(), nullable=True),
        sa.Column("table_id", sa.BigInteger(), nullable=True),
        sa.Column("hand_id", sa.BigInteger(), nullable=True),
        sa.Column("event_id", sa.BigInteger(), nullable=True),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("voided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("voided_by", sa.BigInteger(), nullable=True),
        sa.Column("void_reason", sa.String(length=500), nullable=True),
        sa.CheckConstraint("kind IN ('hand', 'fine', 'payout')", name=op.f("ck_transfers_kind")),
        sa.CheckConstraint("amount > 0", name=op.f("ck_transfers_amount_positive")),
        sa.CheckConstraint("payer_id <> payee_id", name=op.f("ck_transfers_not_to_self")),
        sa.ForeignKeyConstraint(["event_id"], ["hand_events.id"], name=op.f("fk_transfers_event_id_hand_events")),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], name=op.f("fk_transfers_group_id_groups")),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_transfers_hand_id_hands")),
        sa.ForeignKeyConstraint(["payee_id"], ["members.id"], name=op.f("fk_transfers_payee_id_members")),
        sa.ForeignKeyConstraint(["payer_id"], ["members.id"], name=op.f("fk_transfers_payer_id_members")),
        sa.ForeignKeyConstraint(["night_id"], ["nights.id"], name=op.f("fk_transfers_night_id_nights")),
        sa.ForeignKeyConstraint(["table_id"], ["game_tables.id"], name=op.f("fk_transfers_table_id_game_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transfers")),
    )
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_transfers_event_id"), ["event_id"], unique=False)
        batch_op.create_index("ix_transfers_group_id_created_at", ["group_id", "created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_hand_id"), ["hand_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_payee_id"), ["payee_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_payer_id"), ["payer_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_night_id"), ["night_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_transfers_table_id"), ["table_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("transfers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_transfers_table_id"))
        batch_op.drop_index(batch_op.f("ix_transfers_night_id"))
        batch_op.drop_index(batch_op.f("ix_transfers_payer_id"))
        batch_op.drop_index(batch_op.f("ix_transfers_payee_id"))
        batch_op.drop_index(batch_op.f("ix_transfers_hand_id"))
        batch_op.drop_index("ix_transfers_group_id_created_at")
        batch_op.drop_index(batch_op.f("ix_transfers_event_id"))

    op.drop_table("transfers")
    with op.batch_alter_table("hand_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hand_events_source"))
        batch_op.drop_index(batch_op.f("ix_hand_events_hand_id"))

    op.drop_table("hand_events")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_member_id"))

    op.drop_table("seats")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_hands_one_open_per_table",
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        )
        batch_op.drop_index("ix_hands_table_id_status")
        batch_op.drop_index("ix_hands_group_id_id")

    op.drop_table("hands")
    with op.batch_alter_table("settlements", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_settlements_night_id"))
        batch_op.drop_index(batch_op.f("ix_settlements_group_id"))

    op.drop_table("settlements")
    with op.batch_alter_table("game_tables", schema=None) as batch_op:
        batch_op.drop_index("uq_game_tables_one_open_per_group")
        batch_op.drop_index(batch_op.f("ix_game_tables_night_id"))
        batch_op.drop_index(batch_op.f("ix_game_tables_group_id"))

    op.drop_table("game_tables")
    with op.batch_alter_table("setting_changes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_setting_changes_group_id"))

    op.drop_table("setting_changes")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_index("uq_nights_one_open_per_group")
        batch_op.drop_index(batch_op.f("ix_nights_group_id"))

    op.drop_table("nights")
    with op.batch_alter_table("members", schema=None) as batch_op:
        batch_op.drop_index("ix_members_group_id_kind")

    op.drop_table("members")
    op.drop_table("operations")
    op.drop_table("groups")
    op.drop_table("flows")
