"""Per-group chat options: how the bot reads a group's words, kept apart from the rules the scoring core plays.

One option so far: what 明杠 means at this table. It is 直杠 (an exposed kong on a discard) in some places and
蓄杠 (a 碰 extended with a self-drawn fourth) in others; the group says which with `设置 明杠 蓄杠`. A group that
never set it reads 明杠 as 直杠. Changing it changes how later lines are read, never what was booked.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db import session_factories, utcnow
from ledger.models import Base

#: the kongs 明杠 may stand for, and what a group that never said reads it as
MINGGANG_KINDS = ("zhigang", "xugang")
MINGGANG_DEFAULT = "zhigang"


class ChatOptions(Base):
    """A group's chat options (one row per group that changed one)."""

    __tablename__ = "chat_options"

    group_id: Mapped[int] = mapped_column(sa.BigInteger, sa.ForeignKey("groups.id"), primary_key=True)
    minggang: Mapped[str] = mapped_column(sa.String(8))
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
