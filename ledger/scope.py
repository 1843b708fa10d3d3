"""What a report or an export covers, and which rows of the ledger belong to it. One rule for both:

- A night holds its tables' hands (whatever their status, an edit made days later included: the replacing hand
  sits at the same table) and the transfers booked for it (`transfers.night_id`: its hands' money, and fines and
  pot payouts booked while it was open). This is the ledger's own night (`night_balances`, the settlement).
- A period [since, until) holds the nights that started in it, whole, and the money booked in it while no night
  was open (a fine in the afternoon). A night that runs past the period's end, or a hand edited after it, stays
  with its night: nothing is split between two periods, and nothing is missed because it was booked at the
  very moment a window closed.
- All time holds every row of the group.

The conditions are written so each scope is read through an index (nights by group and start, tables by
night, hands by table, transfers by night), so a night or a month costs the same however long the group's
history is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger.models import CLOSED, GameTable, Group, Hand, Night, Transfer


@dataclass(frozen=True)
class Scope:
    """One night (`night_id`), or the nights started in the UTC interval [since, until) (either end open)."""

    group_id: int
    night_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    label: str = ""  # what a title shows: "2026-01", "2026-01-10", "all"


def local_day_start(day: date, group: Group) -> datetime:
    """The UTC moment a group's night `day` begins: its 日切 hour that local day."""
    return datetime.combine(day, time(group.cutoff_hour), ZoneInfo(group.timezone)).astimezone(UTC)


def night_date_of(moment: datetime, group: Group) -> date:
    """The night a moment belongs to: local date, minus one day before the 日切 hour."""
    local = moment.astimezone(ZoneInfo(group.timezone))
    return (local - timedelta(hours=group.cutoff_hour)).date()


def month_scope(session: Session, group_id: int, year: int, month: int) -> Scope:
    """A calendar month of nights: those started from the 1st's 日切 hour to the next month's."""
    group = session.get_one(Group, group_id)
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return Scope(
        group_id,
        since=local_day_start(first, group),
        until=local_day_start(following, group),
        label=f"{year:04d}-{month:02d}",
    )


def week_scope(session: Session, group_id: int, now: datetime) -> Scope:
    """This week of nights, Monday to now (the ISO week of tonight's night date)."""
    group = session.get_one(Group, group_id)
    today = night_date_of(now, group)
    monday = today - timedelta(days=today.weekday())
    return Scope(
        group_id, since=local_day_start(monday, group), until=None, label=f"{monday.isoformat()}–{today.isoformat()}"
    )


def all_time_scope(group_id: int) -> Scope:
    return Scope(group_id, label="all")


def night_scope(session: Session, night_id: int) -> Scope:
    night = session.get_one(Night, night_id)
    return Scope(night.group_id, night_id=night.id, label=night.night_date.isoformat())


def latest_night(session: Session, group_id: int, *, played: bool = False) -> Night | None:
    """The open night, else the most recently started one (what 'this night' means after settling). `played`: the
    open night only once a hand of it has finished — a night just opened (开桌 after the 日切 hour) leaves the one
    before it as 'this night'."""
    open_night = session.scalars(sa.select(Night).where(Night.group_id == group_id, Night.ended_at.is_(None))).first()
    if open_night is not None and (not played or _has_finished_hand(session, open_night.id)):
        return open_night
    latest = sa.select(Night).where(Night.group_id == group_id).order_by(Night.started_at.desc(), Night.id.desc())
    if open_night is not None:
        latest = latest.where(Night.id != open_night.id)
    return session.scalars(latest.limit(1)).first() or open_night


def night_before(session: Session, group_id: int, day: date) -> Night | None:
    """The latest night of the group dated before `day` (its `night_date`): 'last night' asked on `day`."""
    before = sa.select(Night).where(Night.group_id == group_id, Night.night_date < day)
    return session.scalars(before.order_by(Night.started_at.desc(), Night.id.desc()).limit(1)).first()


def _has_finished_hand(session: Session, night_id: int) -> bool:
    finished = (
        sa.select(Hand.id)
        .join(GameTable, GameTable.id == Hand.table_id)
        .where(GameTable.night_id == night_id, Hand.status == CLOSED)
        .limit(1)
    )
    return session.scalar(finished) is not None


def night_number(session: Session, night: Night) -> int:
    """The night's ordinal in its group (第N晚), counting from the group's first night."""
    return (
        session.scalar(
            sa.select(sa.func.count()).select_from(Night).where(Night.group_id == night.group_id, Night.id <= night.id)
        )
        or 0
    )


def night_by_number(session: Session, group_id: int, number: int) -> Night | None:
    """The group's `number`-th night (第N晚, from 1), or None."""
    if number < 1:
        return None
    return session.scalars(
        sa.select(Night).where(Night.group_id == group_id).order_by(Night.id).offset(number - 1).limit(1)
    ).first()


# ------------------------------------------------------------------------------------------ membership


def _during(column: sa.orm.InstrumentedAttribute[datetime], scope: Scope) -> list[sa.ColumnElement[bool]]:
    conditions = []
    if scope.since is not None:
        conditions.append(column >= scope.since)
    if scope.until is not None:
        conditions.append(column < scope.until)
    return conditions


@dataclass(frozen=True)
class Rows:
    """Which hands (any status) and transfers (live or voided) belong to a scope, as conditions to query with."""

    hands: sa.ColumnElement[bool]
    transfers: sa.ColumnElement[bool]


def rows_of(session: Session, scope: Scope) -> Rows:
    """A night: the hands at its tables and the transfers booked for it. A period: the same for each night that
    started in it (looked up once and written into the conditions as a list: PostgreSQL plans no index search
    for a subquery under OR), and the money booked in it while no night was open. All time: the group's rows."""
    if scope.night_id is not None:
        tables = sa.select(GameTable.id).where(GameTable.night_id == scope.night_id)
        return Rows(Hand.table_id.in_(tables), Transfer.night_id == scope.night_id)
    if scope.since is None and scope.until is None:
        return Rows(Hand.group_id == scope.group_id, Transfer.group_id == scope.group_id)
    nights = list(
        session.scalars(sa.select(Night.id).where(Night.group_id == scope.group_id, *_during(Night.started_at, scope)))
    )
    tables = sa.select(GameTable.id).where(GameTable.night_id.in_(nights))
    outside_nights = sa.and_(
        Transfer.night_id.is_(None), Transfer.group_id == scope.group_id, *_during(Transfer.created_at, scope)
    )
    return Rows(Hand.table_id.in_(tables), sa.or_(Transfer.night_id.in_(nights), outside_nights))
