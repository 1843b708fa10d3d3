"""Per-group chat options: how the bot reads a group's words, kept apart from the rules the scoring core plays.

- What 明杠 means at this table. It is 直杠 (an exposed kong on a discard) in some places and 蓄杠 (a 碰 extended
  with a self-drawn fourth) in others; the group says which with `设置 明杠 蓄杠`. A group that never set it reads
  明杠 as 直杠. Changing it changes how later lines are read, never what was booked.
- Whether a night's settlement nets in the debts still open among its players from earlier nights (`设置 并账
  开`, the default) or keeps each night separate (`设置 并账 关`).
- The double-entry window (`设置 重复间隔 90`): a record that repeats the table's previous one, from someone else,
  within this many seconds is taken for the same thing typed twice and not booked unless confirmed (0: never); so
  is another win or draw from someone else this soon after a 卡五星 hand ended (that hand told otherwise).
  A group that never set it uses 90 seconds. The booking reads it in the statement that locks its table.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from ledger.db import session_factories, utcnow
from ledger.models import Base

#: the kongs 明杠 may stand for, and what a group that never said reads it as
MINGGANG_KINDS = ("zhigang", "xugang")
MINGGANG_DEFAULT = "zhigang"
#: seconds within which a repeated record from someone else is held back, unless the group set otherwise
DOUBLE_ENTRY_DEFAULT = 90
#: a night's settlement nets in the earlier debts among its players unless the group said `设置 并账 关`
MERGE_DEBTS_DEFAULT = True
#: the longest window a group may set (an hour: longer would hold back genuine repeats of a long night)
DOUBLE_ENTRY_MAX = 3600


class ChatOptions(Base):
    """A group's chat options (one row per group that changed one)."""

    __tablename__ = "chat_options"

    group_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("groups.id"), primary_key=True)
    minggang: Mapped[str] = mapped_column(sa.String(8))
    #: None: the default (`DOUBLE_ENTRY_DEFAULT`)
    double_entry_seconds: Mapped[int | None] = mapped_column(sa.Integer)
    #: None: the default (`MERGE_DEBTS_DEFAULT`): a night's settlement nets in its players' earlier debts
    merge_debts: Mapped[bool | None] = mapped_column(sa.Boolean)
    updated_at: Mapped[datetime]
    updated_by: Mapped[int | None] = mapped_column(sa.BigInteger)

    __table_args__ = (sa.CheckConstraint("minggang IN ('zhigang', 'xugang')", name="minggang"),)


def minggang(engine: Engine, group_id: int) -> str:
    """What 明杠 means in the group: `zhigang` or `xugang`."""
    _writer, reader = session_factories(engine)
    with reader() as session, session.begin():
        found = session.get(ChatOptions, group_id)
        return found.minggang if found is not None else MINGGANG_DEFAULT


def set_minggang(engine: Engine, group_id: int, kind: str, *, by: int | None, now: datetime | None = None) -> None:
    """Say what 明杠 means in the group from now on (setting the same value again changes nothing)."""
    if kind not in MINGGANG_KINDS:
        raise ValueError(f"明杠 is one of {MINGGANG_KINDS}, not {kind!r}")
    writer, _reader = session_factories(engine)
    with writer() as session, session.begin():
        found = session.get(ChatOptions, group_id)
        if found is None:
            session.add(ChatOptions(group_id=group_id, minggang=kind, updated_at=now or utcnow(), updated_by=by))
        elif found.minggang != kind:
            found.minggang, found.updated_at, found.updated_by = kind, now or utcnow(), by


def double_entry_window(seconds: int | None) -> timedelta:
    """The window a stored value stands for (None: the default)."""
    return timedelta(seconds=DOUBLE_ENTRY_DEFAULT if seconds is None else seconds)


def double_entry_seconds(engine: Engine, group_id: int) -> int:
    """The group's double-entry window in seconds (0: no check)."""
    _writer, reader = session_factories(engine)
    with reader() as session, session.begin():
        found = session.get(ChatOptions, group_id)
        return int(double_entry_window(found.double_entry_seconds if found is not None else None).total_seconds())


def set_double_entry(
    engine: Engine, group_id: int, seconds: int, *, by: int | None, now: datetime | None = None
) -> None:
    """Set the group's double-entry window (0 turns the check off)."""
    if not 0 <= seconds <= DOUBLE_ENTRY_MAX:
        raise ValueError(f"the double-entry window is 0–{DOUBLE_ENTRY_MAX} seconds, not {seconds}")
    writer, _reader = session_factories(engine)
    with writer() as session, session.begin():
        found = session.get(ChatOptions, group_id)
        at = now or utcnow()
        if found is None:
            session.add(
                ChatOptions(
                    group_id=group_id,
                    minggang=MINGGANG_DEFAULT,
                    double_entry_seconds=seconds,
                    updated_at=at,
                    updated_by=by,
                )
            )
        elif found.double_entry_seconds != seconds:
            found.double_entry_seconds, found.updated_at, found.updated_by = seconds, at, by


def merges_debts(session: Session, group_id: int) -> bool:
    """Whether the group nets earlier debts into a night's settlement (read in the caller's transaction)."""
    found = session.get(ChatOptions, group_id)
    return MERGE_DEBTS_DEFAULT if found is None or found.merge_debts is None else found.merge_debts


def merge_debts(engine: Engine, group_id: int) -> bool:
    """Whether the group nets earlier debts into a night's settlement."""
    _writer, reader = session_factories(engine)
    with reader() as session, session.begin():
        return merges_debts(session, group_id)


def set_merge_debts(engine: Engine, group_id: int, merge: bool, *, by: int | None, now: datetime | None = None) -> None:
    """Net earlier debts into a night's settlement (True) or keep nights separate (False)."""
    writer, _reader = session_factories(engine)
    with writer() as session, session.begin():
        found = session.get(ChatOptions, group_id)
        at = now or utcnow()
        if found is None:
            session.add(
                ChatOptions(
                    group_id=group_id, minggang=MINGGANG_DEFAULT, merge_debts=merge, updated_at=at, updated_by=by
                )
            )
        elif found.merge_debts != merge:
            found.merge_debts, found.updated_at, found.updated_by = merge, at, by
