"""Moderation tables (群规则): per-group settings, warnings/fines/removals, the rules text's history, reminders,
and the short-lived state shared by every bot process.

Like the rest of the ledger nothing is deleted: a cancelled warning or fine keeps its row with who/when/why.
A fine's money is a ledger transfer (member → pot, `transfers.kind = 'fine'`); the action row points at it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db import BigIntPK
from ledger.models import Base, fk

#: action kinds: a warning is one offence on the penalty ladder; the others are penalties
WARNING, FINE, REMOVAL, BAN = "warning", "fine", "removal", "ban"


class ModerationSettings(Base):
    """A group's moderation settings as overrides of the seed defaults, and the one-time 'missing rights' flag."""

    __tablename__ = "moderation_settings"

    group_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("groups.id"), primary_key=True)
    overrides: Mapped[dict[str, Any]]
    rights_notice_at: Mapped[datetime | None]  # when the bot said it lacks delete/ban rights (said once)
    updated_at: Mapped[datetime]
    updated_by: Mapped[int | None] = mapped_column(sa.BigInteger)


class ModerationAction(Base):
    """One warning, fine, removal or ban, with its reason, who issued it (NULL: the bot) and the message."""

    __tablename__ = "moderation_actions"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id", index=False)
    member_id: Mapped[int] = fk("members.id")
    user_id: Mapped[int] = mapped_column(sa.BigInteger)
    kind: Mapped[str] = mapped_column(sa.String(8))
    rule: Mapped[str] = mapped_column(sa.String(16))  # flood | repeat | link | invite | ad_keyword | manual
    reason: Mapped[str] = mapped_column(sa.String(500))
    message_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    amount: Mapped[int | None] = mapped_column(sa.BigInteger)  # 分, fines only
    transfer_id: Mapped[int | None] = fk("transfers.id", nullable=True, index=False)
    issued_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    source: Mapped[str] = mapped_column(sa.String(200))
    created_at: Mapped[datetime]
    cancelled_at: Mapped[datetime | None]
    cancelled_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    cancel_reason: Mapped[str | None] = mapped_column(sa.String(500))

    __table_args__ = (
        sa.UniqueConstraint("source", "kind"),
        sa.Index("ix_moderation_actions_group_id_user_id", "group_id", "user_id"),
        sa.CheckConstraint("kind IN ('warning', 'fine', 'removal', 'ban')", name="kind"),
        sa.CheckConstraint("(kind = 'fine') = (amount IS NOT NULL)", name="amount_iff_fine"),
    )


class RulesText(Base):
    """One version of the group's rules text (群公告/群规则); the newest is current, every edit is kept."""

    __tablename__ = "moderation_rules_texts"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id")
    text: Mapped[str] = mapped_column(sa.Text)
    edited_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    source: Mapped[str] = mapped_column(sa.String(200), unique=True)
    created_at: Mapped[datetime]


class Reminder(Base):
    """A one-time notice already given to a member (kind `namecard`: the name-card reminder), or a mark on one
    (kind `left`: they left the group, until they join again)."""

    __tablename__ = "moderation_reminders"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id", index=False)
    user_id: Mapped[int] = mapped_column(sa.BigInteger)
    kind: Mapped[str] = mapped_column(sa.String(16))
    created_at: Mapped[datetime]

    __table_args__ = (sa.UniqueConstraint("group_id", "user_id", "kind"),)


class SharedStateEntry(Base):
    """One entry of the state every bot process shares (`ledger.shared_state`): a flood counter, a chat's admin
    list. Short-lived: an entry past `expires_at` counts as absent and is swept; nothing here is a record."""

    __tablename__ = "shared_state"

    key: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    value: Mapped[Any] = mapped_column(sa.JSON)
    expires_at: Mapped[datetime] = mapped_column(index=True)
