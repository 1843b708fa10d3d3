"""The ledger's tables as typed SQLAlchemy 2 models. Alembic (migrations/) is the only way they reach a database.

Money is BigInteger 分; ids and Telegram ids are 64-bit; timestamps are `UTCDateTime`. Nothing here is ever
deleted by the service: corrections set `voided_at`/`voided_by`/`void_reason`.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, ClassVar

import sqlalchemy as sa
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import operators

from ledger.db import BigIntPK, UTCDateTime

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: account kinds: a Telegram member, a guest seated by name, the group's pot (红包池), the house (台费: the
#: table fees players pay, created when an admin first sets a fee)
MEMBER, GUEST, POT, HOUSE = "member", "guest", "pot", "house"
#: the group's own accounts (红包池 and the house of 台费): paid out by admins, never a player's debt or credit
GROUP_ACCOUNTS = (POT, HOUSE)
#: the accounts that are nobody: no seat, no 名片, paid out by admins
POOLS = frozenset({POT, HOUSE})
#: hand status
OPEN, CLOSED, VOIDED = "open", "closed", "voided"
#: transfer kinds; a payment is cash handed over after a settlement (from the creditor to the debtor in ledger
#: terms: it raises the debtor's balance and lowers the creditor's, so balances are what is owed now); FEE: a table
#: fee (台费 per player per night, 抽水 cut of a win) to the house
HAND, FINE, PAYOUT, PAYMENT, FEE = "hand", "fine", "payout", "payment", "fee"


def constant(value: str) -> sa.ColumnElement[str]:
    """`value` (a status or kind) written into the SQL rather than bound (see `WrittenConstants`)."""
    if not value.isidentifier():
        raise ValueError(f"not a status or kind: {value!r}")
    return sa.literal_column(f"'{value}'", sa.String())


class WrittenConstants(sa.String):
    """A status or kind column (`hands.status`, `transfers.kind`), compared with the statuses and kinds written into
    the SQL, not bound: SQLite tells whether a partial index applies (`status = 'open'`, `kind = 'payment'`) by
    comparing the WHERE clause with the index's, and a bound value there has it prepare the statement again at
    every run (the read of a finished hand took 29 µs so, 5 µs with the status written in). Only the comparison
    changes: the column is a VARCHAR like any `String`."""

    class comparator_factory(sa.String.Comparator[str]):
        def operate(self, op: Any, *other: Any, **kwargs: Any) -> Any:
            if op in (operators.eq, operators.ne) and isinstance(other[0], str) and other[0].isidentifier():
                other = (constant(other[0]), *other[1:])
            elif op in (operators.in_op, operators.not_in_op) and _identifiers(other[0]):
                other = ([constant(value) for value in other[0]], *other[1:])
            return super().operate(op, *other, **kwargs)


def _identifiers(values: Any) -> bool:
    return isinstance(values, list | tuple | set | frozenset) and all(
        isinstance(value, str) and value.isidentifier() for value in values
    )


class Base(DeclarativeBase):
    """Every model of the project (moderation's too) derives from this, so Alembic sees one metadata."""

    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: sa.JSON(),
        list[Any]: sa.JSON(),
    }


def fk(target: str, *, nullable: bool = False, index: bool = True) -> Any:
    """A 64-bit foreign key column (ON DELETE RESTRICT: the ledger never deletes)."""
    return mapped_column(sa.BigInteger, sa.ForeignKey(target), nullable=nullable, index=index)


class Group(Base):
    """A chat and its settings (rules are data: `{"preset": ..., **overrides}`)."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    chat_id: Mapped[int] = mapped_column(sa.BigInteger, unique=True)
    title: Mapped[str] = mapped_column(sa.String(255), default="")
    game: Mapped[str] = mapped_column(sa.String(16))
    rules: Mapped[dict[str, Any]]
    base: Mapped[int] = mapped_column(sa.BigInteger)
    currency: Mapped[str] = mapped_column(sa.String(16))
    language: Mapped[str] = mapped_column(sa.String(8))
    cutoff_hour: Mapped[int] = mapped_column(sa.SmallInteger)
    timezone: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    updated_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (
        sa.CheckConstraint("base > 0", name="base_positive"),
        sa.CheckConstraint("cutoff_hour >= 0 AND cutoff_hour < 24", name="cutoff_hour_range"),
    )


class ChatMove(Base):
    """A chat Telegram gave a new id (a group upgraded to a supergroup): the group moved from `old_chat_id` to
    `new_chat_id`. Kept so that updates of the old chat still in flight reach the group at its new id, and so
    that the move, announced in both chats, happens once."""

    __tablename__ = "chat_moves"

    old_chat_id: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True, autoincrement=False)
    new_chat_id: Mapped[int] = mapped_column(sa.BigInteger)
    group_id: Mapped[int | None] = fk("groups.id", nullable=True)
    moved_at: Mapped[datetime]


class SettingChange(Base):
    """Who changed which group settings, when (old and new values)."""

    __tablename__ = "setting_changes"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id")
    changes: Mapped[dict[str, Any]]
    changed_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    changed_at: Mapped[datetime]
    source: Mapped[str] = mapped_column(sa.String(200))


class Member(Base):
    """An account: a Telegram member, a guest, or the pot. `balance` is the running total of live transfers."""

    __tablename__ = "members"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id", index=False)
    kind: Mapped[str] = mapped_column(sa.String(8))
    user_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    display_name: Mapped[str] = mapped_column(sa.String(255))
    username: Mapped[str | None] = mapped_column(sa.String(64))
    alias: Mapped[str | None] = mapped_column(sa.String(64))
    balance: Mapped[int] = mapped_column(sa.BigInteger, default=0, server_default=sa.text("0"))
    linked_to_id: Mapped[int | None] = fk("members.id", nullable=True, index=False)
    linked_at: Mapped[datetime | None]
    linked_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    created_at: Mapped[datetime]

    __table_args__ = (
        sa.UniqueConstraint("group_id", "user_id"),
        sa.Index("ix_members_group_id_kind", "group_id", "kind"),
        sa.CheckConstraint("kind IN ('member', 'guest', 'pot', 'house')", name="kind"),
        sa.CheckConstraint("(kind = 'member') = (user_id IS NOT NULL)", name="user_id_iff_member"),
    )

    @property
    def name(self) -> str:
        return self.alias or self.display_name


class Night(Base):
    """One evening's play (a session); `night_date` is the local date before the 日切 cut-off."""

    __tablename__ = "nights"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id")
    night_date: Mapped[date] = mapped_column(sa.Date)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    ended_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (
        sa.Index("ix_nights_group_id_started_at", "group_id", "started_at"),
        sa.Index(
            "uq_nights_one_open_per_group",
            "group_id",
            unique=True,
            sqlite_where=sa.text("ended_at IS NULL"),
            postgresql_where=sa.text("ended_at IS NULL"),
        ),
    )


class GameTable(Base):
    """A table within a night: game, dealer, next hand number, and the rules/base snapshot it plays under."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id")
    night_id: Mapped[int] = fk("nights.id")
    game: Mapped[str] = mapped_column(sa.String(16))
    rules: Mapped[dict[str, Any]]
    base: Mapped[int] = mapped_column(sa.BigInteger)
    dealer: Mapped[str | None] = mapped_column(sa.String(64))
    hand_number: Mapped[int] = mapped_column(sa.Integer, default=1)
    started_at: Mapped[datetime]
    started_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    ended_at: Mapped[datetime | None]
    ended_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (
        sa.Index(
            "uq_game_tables_one_open_per_group",
            "group_id",
            unique=True,
            sqlite_where=sa.text("ended_at IS NULL"),
            postgresql_where=sa.text("ended_at IS NULL"),
        ),
    )


class Seat(Base):
    """A seat at a table in play order; `name` is the player key of scoring events (unique per table)."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    table_id: Mapped[int] = fk("game_tables.id", index=False)
    position: Mapped[int] = mapped_column(sa.SmallInteger)
    name: Mapped[str] = mapped_column(sa.String(64))
    member_id: Mapped[int] = fk("members.id")

    __table_args__ = (sa.UniqueConstraint("table_id", "position"), sa.UniqueConstraint("table_id", "name"))


class Hand(Base):
    """One hand (or 够级 round). At most one open hand per table (a partial unique index enforces it)."""

    __tablename__ = "hands"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id", index=False)
    table_id: Mapped[int] = fk("game_tables.id", index=False)
    number: Mapped[int] = mapped_column(sa.Integer)
    dealer: Mapped[str | None] = mapped_column(sa.String(64))
    status: Mapped[str] = mapped_column(WrittenConstants(8))
    answer: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]
    voided_at: Mapped[datetime | None]
    voided_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    void_reason: Mapped[str | None] = mapped_column(sa.String(500))
    replaces_id: Mapped[int | None] = fk("hands.id", nullable=True, index=False)

    __table_args__ = (
        sa.CheckConstraint("status IN ('open', 'closed', 'voided')", name="status"),
        sa.Index("ix_hands_group_id_id", "group_id", "id"),
        sa.Index("ix_hands_table_id_status", "table_id", "status"),
        sa.Index("ix_hands_table_id_number", "table_id", "number"),  # the previous hand, by number (0012)
        sa.Index("ix_hands_group_id_table_id_number", "group_id", "table_id", "number", "id"),  # 历史 (0018)
        sa.Index("ix_hands_replaces_id", "replaces_id"),
        sa.Index(
            "uq_hands_one_open_per_table",
            "table_id",
            unique=True,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        ),
    )


class HandEvent(Base):
    """One event of a hand as recorded (the scoring contract's event, seat names as players)."""

    __tablename__ = "hand_events"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    hand_id: Mapped[int] = fk("hands.id")
    payload: Mapped[dict[str, Any]]
    source: Mapped[str] = mapped_column(sa.String(200), index=True)
    created_at: Mapped[datetime]
    created_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    voided_at: Mapped[datetime | None]
    voided_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    void_reason: Mapped[str | None] = mapped_column(sa.String(500))


class Transfer(Base):
    """Money from one account to another. Live while `voided_at` is NULL; the running totals follow."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id", index=False)
    payer_id: Mapped[int] = fk("members.id")
    payee_id: Mapped[int] = fk("members.id")
    amount: Mapped[int] = mapped_column(sa.BigInteger)
    reason: Mapped[str] = mapped_column(sa.String(200))
    kind: Mapped[str] = mapped_column(WrittenConstants(8))
    night_id: Mapped[int | None] = fk("nights.id", nullable=True)  # the night open when it was booked
    table_id: Mapped[int | None] = fk("game_tables.id", nullable=True)
    hand_id: Mapped[int | None] = fk("hands.id", nullable=True)
    event_id: Mapped[int | None] = fk("hand_events.id", nullable=True)
    source: Mapped[str] = mapped_column(sa.String(200))
    created_at: Mapped[datetime]
    created_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    voided_at: Mapped[datetime | None]
    voided_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    void_reason: Mapped[str | None] = mapped_column(sa.String(500))
    #: a payment the other side (or an admin) confirmed: who, when
    confirmed_at: Mapped[datetime | None]
    confirmed_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (
        sa.CheckConstraint("amount > 0", name="amount_positive"),
        sa.CheckConstraint("payer_id <> payee_id", name="not_to_self"),
        sa.CheckConstraint("kind IN ('hand', 'fine', 'payout', 'payment', 'fee')", name="kind"),
        sa.Index("ix_transfers_group_id_created_at", "group_id", "created_at"),
        sa.Index(
            "ix_transfers_outside_nights",
            "group_id",
            "created_at",
            sqlite_where=sa.text("night_id IS NULL"),
            postgresql_where=sa.text("night_id IS NULL"),
        ),
        sa.Index(
            "ix_transfers_payments",
            "group_id",
            sqlite_where=sa.text("kind = 'payment'"),
            postgresql_where=sa.text("kind = 'payment'"),
        ),
    )


class NightTotal(Base):
    """An account's running total for one night: the sum of its live transfers booked in that night, moved in
    place by the transaction that books or voids one (so a reply's night figures are read, never re-summed)."""

    __tablename__ = "night_totals"

    night_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("nights.id"), primary_key=True)
    member_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("members.id"), primary_key=True)
    amount: Mapped[int] = mapped_column(sa.BigInteger)


class PairDebt(Base):
    """The open debt between two players of a group, kept as a running total (`ledger.payments`): `amount` 分
    that `low_id` owes `high_id` (negative: `high_id` owes `low_id`), for account ids `low_id < high_id` (a linked
    guest's under its member's). Moved in the same transaction as a settlement (+ its lines between players, − the
    earlier debts it netted in), a payment (−) and a payment's undo (+), so open debts are read, never re-derived."""

    __tablename__ = "pair_debts"

    group_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("groups.id"), primary_key=True)
    low_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("members.id"), primary_key=True)
    high_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("members.id"), primary_key=True)
    amount: Mapped[int] = mapped_column(sa.BigInteger)

    __table_args__ = (sa.CheckConstraint("low_id < high_id", name="ordered"),)


class PaymentLine(Base):
    """The line of a stored settlement a payment settles (`ledger.payments`, migration 0016): the line a 「已付」/
    「收到」 press was under, or for a typed 付 / 收到 the pair's oldest open line when it was booked. A payment
    booked before 0016 has none. Never changed: voiding the payment (撤销付款) reopens the line it settled."""

    __tablename__ = "payment_lines"

    transfer_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("transfers.id"), primary_key=True)
    settlement_id: Mapped[int] = fk("settlements.id", index=False)
    #: the line's place in the post: the settlement's payments, then the debts it passed on (`settlements.passed`)
    line_index: Mapped[int] = mapped_column(sa.Integer)


class Operation(Base):
    """One mutating call, keyed by its source: the unique constraint is what makes a retry book nothing twice."""

    __tablename__ = "operations"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    source: Mapped[str] = mapped_column(sa.String(200), unique=True)
    kind: Mapped[str] = mapped_column(sa.String(32))
    result: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    created_by: Mapped[int | None] = mapped_column(sa.BigInteger)


class FeeSettings(Base):
    """A group's table fees (台费/抽水): a fixed `night_fee` each player pays the house per night, and/or a cut of
    each win, `cut_fixed` 分 or `cut_percent` % of the winner's gain, at most `cut_cap` 分 (NULL: no cap).
    0 / NULL: no such fee. Read when a fee is booked; a change never rewrites what was booked."""

    __tablename__ = "fee_settings"

    group_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("groups.id"), primary_key=True)
    night_fee: Mapped[int] = mapped_column(sa.BigInteger, default=0)
    cut_fixed: Mapped[int] = mapped_column(sa.BigInteger, default=0)
    cut_percent: Mapped[int] = mapped_column(sa.SmallInteger, default=0)
    cut_cap: Mapped[int | None] = mapped_column(sa.BigInteger)
    updated_at: Mapped[datetime]
    updated_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (
        sa.CheckConstraint("night_fee >= 0 AND cut_fixed >= 0", name="amounts"),
        sa.CheckConstraint("cut_percent >= 0 AND cut_percent <= 100", name="percent"),
        sa.CheckConstraint("cut_fixed = 0 OR cut_percent = 0", name="one_cut"),
        sa.CheckConstraint("cut_cap IS NULL OR cut_cap > 0", name="cap"),
    )


class PaymentCode(Base):
    """A member's 收款码 (payment QR picture) for one app: Telegram's file id of the photo, never the picture.
    Removed by its owner (the row is deleted: it is the member's, not the ledger's)."""

    __tablename__ = "payment_codes"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    member_id: Mapped[int] = fk("members.id", index=False)
    app: Mapped[str] = mapped_column(sa.String(8))
    file_id: Mapped[str] = mapped_column(sa.String(256))
    created_at: Mapped[datetime]

    __table_args__ = (
        sa.UniqueConstraint("member_id", "app"),
        sa.CheckConstraint("app IN ('wechat', 'alipay', 'any')", name="app"),
    )


class SettlementRecord(Base):
    """A posted settlement (closing a night): the payments as JSON, for the record. Live while `voided_at` is NULL:
    an admin may take back the group's latest (撤销结算, `ledger.tables.unsettle`), which moves its debts back and
    opens its night again; the row stays, marked with who/when/why."""

    __tablename__ = "settlements"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    group_id: Mapped[int] = fk("groups.id")
    night_id: Mapped[int | None] = fk("nights.id", nullable=True)
    payments: Mapped[list[Any]]
    balances: Mapped[dict[str, Any]]
    #: debts of earlier nights netted into this one, `[[debtor id, creditor id, 分], ...]` (None: none)
    carried: Mapped[list[Any] | None]
    #: debts passed through the group's accounts right after (`payments.pass_through`): `[[x, y, 分, account id],
    #: ...]`, x owed the account and the account owed y, x owes y instead (None: none)
    passed: Mapped[list[Any] | None]
    exact: Mapped[bool] = mapped_column(sa.Boolean)
    created_at: Mapped[datetime]
    created_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    #: the chat message its payments post was sent as (a typed payment rewrites it); None: not known
    post_message_id: Mapped[int | None] = mapped_column(sa.BigInteger)
    #: the table its 结算 ended (opened again when the settlement is taken back); None: no table was open
    table_id: Mapped[int | None] = fk("game_tables.id", nullable=True, index=False)
    voided_at: Mapped[datetime | None]
    voided_by: Mapped[int | None] = mapped_column(sa.BigInteger)
    void_reason: Mapped[str | None] = mapped_column(sa.String(500))

    #: a group's latest settlements, newest first, read without sorting its whole history (`payments._player_lines`)
    __table_args__ = (sa.Index("ix_settlements_group_id_id", "group_id", "id"),)


class FlowState(Base):
    """State of one inline-keyboard flow, keyed by the bot message that carries the keyboard."""

    __tablename__ = "flows"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    chat_id: Mapped[int] = mapped_column(sa.BigInteger)
    message_id: Mapped[int] = mapped_column(sa.BigInteger)
    user_id: Mapped[int] = mapped_column(sa.BigInteger)
    kind: Mapped[str] = mapped_column(sa.String(32))
    state: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        sa.UniqueConstraint("chat_id", "message_id"),
        # the flows still waiting of a chat's member (`ChatView.waiting`, read at every message)
        sa.Index(
            "ix_flows_waiting",
            "chat_id",
            "user_id",
            sqlite_where=sa.text("finished_at IS NULL"),
            postgresql_where=sa.text("finished_at IS NULL"),
        ),
    )
