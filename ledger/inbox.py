"""The durable intake: every Telegram update is stored here before Telegram is told it arrived, then processed.

Two tables. `inbox_updates` holds each update as Telegram sent it, once per (bot, update id), until it is done
(`done_at`); done rows are kept for a day so a redelivery is recognised, then pruned. `inbox_leases` says which
worker process handles a chat's updates: one worker per chat at a time, in update order, so several processes on
one database share the work and never run one chat's updates side by side.

The rules that make it exactly-once:
- an update is stored (committed) before the offset moves past it (polling) or before Telegram gets its 200
  (webhook); a duplicate delivery is ignored by the unique (bot, update id);
- a worker processes a chat's pending rows only while it holds the chat's lease; a lease expires unless its
  holder renews it, so a dead worker's chats pass to the others (at once when the dead worker ran on this host);
- `acknowledge` marks a row done and says whether this call was the first to do so; the bot sends its replies
  only after a first acknowledgement, so a row processed twice (a crash before the mark, a lease that expired
  under a stalled worker) books once (bookings are idempotent by source) and answers at most once.
"""

from __future__ import annotations

import hashlib
import os
import socket
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, mapped_column

from ledger.db import BigIntPK, reader, utcnow
from ledger.models import Base

#: PostgreSQL NOTIFY channel every worker listens on: a worker that stored an update for a chat another worker
#: holds, when it does not know which (`notify_channel` names the holder's own channel when it does)
NOTIFY_CHANNEL = "paiju_inbox"
#: the longest worker name stored in a lease (host:pid:nonce)
MAX_WORKER = 100
#: tries of a write that met a PostgreSQL deadlock (40P01) or serialization failure (40001)
RETRIES = 3
RETRYABLE = frozenset({"40P01", "40001"})

R = TypeVar("R")


class InboxUpdate(Base):
    """One update from Telegram, verbatim; `done_at` is set once it was handled."""

    __tablename__ = "inbox_updates"

    id: Mapped[int] = mapped_column(BigIntPK, primary_key=True)
    bot_id: Mapped[int] = mapped_column(sa.BigInteger)
    update_id: Mapped[int] = mapped_column(sa.BigInteger)
    chat_id: Mapped[int] = mapped_column(sa.BigInteger)  # 0 for an update without a chat
    payload: Mapped[dict[str, Any]]
    received_at: Mapped[datetime]
    done_at: Mapped[datetime | None] = mapped_column(index=True)

    __table_args__ = (
        sa.UniqueConstraint("bot_id", "update_id"),
        sa.Index(
            "ix_inbox_updates_pending",
            "bot_id",
            "chat_id",
            "update_id",
            sqlite_where=sa.text("done_at IS NULL"),
            postgresql_where=sa.text("done_at IS NULL"),
        ),
    )


class InboxLease(Base):
    """Which worker handles a chat's updates, until when (renewed while the worker lives)."""

    __tablename__ = "inbox_leases"

    bot_id: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    chat_id: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    worker: Mapped[str] = mapped_column(sa.String(MAX_WORKER))
    expires_at: Mapped[datetime]


_updates = InboxUpdate.__table__.c
#: the statements every update runs, built once: SQLAlchemy then finds each in its cache by a memoized key, where a
#: statement built anew is assembled and walked for its key at every call (a third of a lane's read, by py-spy)
_PENDING = (
    sa.select(_updates.id, _updates.update_id, _updates.chat_id, _updates.payload, _updates.received_at)
    .where(
        _updates.bot_id == sa.bindparam("bot_id"),
        _updates.chat_id == sa.bindparam("chat_id"),
        _updates.done_at.is_(None),
    )
    .order_by(_updates.update_id)
    .limit(sa.bindparam("limit"))
)
_ACKNOWLEDGE = (
    sa.update(InboxUpdate)
    .where(_updates.id.in_(sa.bindparam("ids", expanding=True)), _updates.done_at.is_(None))
    .values(done_at=sa.bindparam("now"))
    .returning(_updates.id)
)


@dataclass(frozen=True)
class Pending:
    """A stored update waiting to be handled."""

    id: int
    update_id: int
    chat_id: int
    payload: dict[str, Any]
    received_at: datetime


@dataclass(frozen=True)
class Stored:
    """What a store did: how many updates were new, the chats they concern, and which of those this worker holds."""

    new: int
    chats: frozenset[int]
    held: frozenset[int]


@dataclass(frozen=True)
class Backlog:
    """For health checks: updates stored and not yet handled, and when the oldest arrived."""

    pending: int
    oldest: datetime | None


def chat_of(update: Mapping[str, Any]) -> int:
    """The chat an update (a Bot API dict) belongs to; 0 when it has none (such updates share one lane)."""
    for key, value in update.items():
        if key == "update_id" or not isinstance(value, Mapping):
            continue
        chat = value.get("chat")
        if chat is None and isinstance(value.get("message"), Mapping):  # a button press
            chat = value["message"].get("chat")
        if isinstance(chat, Mapping) and isinstance(chat.get("id"), int):
            return int(chat["id"])
        return 0
    return 0


def worker_name() -> str:
    """This process's name in leases: host, pid and a nonce (a restarted process on the same host is a new worker,
    and knows a lease of a dead process there is free)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def notify_channel(worker: str) -> str:
    """The channel only `worker` listens on: a notice sent there wakes the one process that holds the chat, not
    every worker (each woken worker's loop pays for a notice it ignores; with four workers, three of them did)."""
    return f"{NOTIFY_CHANNEL}_{hashlib.blake2b(worker.encode(), digest_size=8).hexdigest()}"


def _dead_here(worker: str) -> bool:
    """True when `worker` ran on this host and its process is gone."""
    parts = worker.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname()[:60] or not parts[1].isdigit():
        return False
    try:
        os.kill(int(parts[1]), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class Inbox:
    """The intake tables of one bot, as seen by one worker. Synchronous: the bot calls it from a worker thread."""

    def __init__(
        self,
        engine: Engine,
        bot_id: int,
        worker: str,
        *,
        lease_seconds: float = 30.0,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        if len(worker) > MAX_WORKER:
            raise ValueError(f"worker name longer than {MAX_WORKER} characters")
        self.engine, self.bot_id, self.worker = engine, bot_id, worker
        self.lease = timedelta(seconds=lease_seconds)
        self._clock = clock
        # Core connections, not ORM sessions: these statements are a few per update and sessions cost more than them
        self._reading_engine = reader(engine)
        self._postgres = engine.dialect.name == "postgresql"
        self._insert = postgresql.insert if self._postgres else sqlite.insert
        #: one statement for every batch, its rows passed as parameters: SQLAlchemy caches it (rows written into a
        #: multi-row VALUES are part of the statement, which then compiles anew at every store)
        self._store_insert = (
            self._insert(InboxUpdate)
            .on_conflict_do_nothing(index_elements=["bot_id", "update_id"])
            .returning(InboxUpdate.id)
        )
        #: lease holders found dead on this host at the last sweep: their leases are free
        self._dead: frozenset[str] = frozenset()

    def _write(self, body: Callable[[sa.Connection, datetime], R]) -> R:
        """Run `body` in one write transaction; a PostgreSQL deadlock or serialization failure is tried again from
        the start (nothing of it stayed)."""
        for attempt in range(RETRIES):
            try:
                with self.engine.begin() as connection:
                    return body(connection, self._clock())
            except sa.exc.DBAPIError as err:
                if getattr(err.orig, "sqlstate", None) not in RETRYABLE or attempt == RETRIES - 1:
                    raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    # -- intake -------------------------------------------------------------------------------------------
    def store(self, updates: Sequence[Mapping[str, Any]], *, claim: bool = True, held: Collection[int] = ()) -> Stored:
        """Store a batch of updates in one transaction (duplicates ignored) and, with `claim`, take the chats they
        concern that nobody else holds (a worker shutting down stores without claiming; `held` are chats the caller
        holds already, which its heartbeat renews). Other holders are woken (PostgreSQL NOTIFY)."""
        if not updates:
            return Stored(0, frozenset(), frozenset())
        rows = {int(u["update_id"]): u for u in updates}  # a batch may repeat an update
        chats = frozenset(chat_of(update) for update in rows.values())
        mine = chats & frozenset(held)

        def body(connection: sa.Connection, now: datetime) -> Stored:
            values = [
                {"bot_id": self.bot_id, "update_id": key, "chat_id": chat_of(u), "payload": dict(u), "received_at": now}
                for key, u in rows.items()
            ]
            new = len(connection.execute(self._store_insert, values).all())
            holders: dict[int, str] = {}
            taken = (mine | self._claim(connection, chats - mine, now, holders)) if claim else frozenset()
            if self._postgres:
                for chat in sorted(chats - taken):
                    channel = notify_channel(holders[chat]) if chat in holders else NOTIFY_CHANNEL
                    connection.execute(sa.select(sa.func.pg_notify(channel, self._notice(chat))))
            return Stored(new, chats, taken)

        return self._write(body)

    def _notice(self, chat_id: int) -> str:
        return f"{self.bot_id}:{chat_id}"

    def parse_notice(self, payload: str) -> int | None:
        """The chat a NOTIFY payload names, when it is about this bot."""
        bot, _, chat = payload.partition(":")
        if bot != str(self.bot_id) or not chat.lstrip("-").isdigit():
            return None
        return int(chat)

    def _claim(
        self, connection: sa.Connection, chats: Iterable[int], now: datetime, holders: dict[int, str] | None = None
    ) -> frozenset[int]:
        """Take the leases of `chats` that are free, expired, held by a dead worker, or already ours. A chat another
        live worker holds is only read, never locked, so storing an update for it waits for nobody; its holder goes
        into `holders` when given."""
        ordered = sorted(set(chats))  # a fixed order: two claims (or a claim and a heartbeat) never deadlock
        if not ordered:
            return frozenset()
        lease = InboxLease.__table__.c
        current = connection.execute(
            sa.select(lease.chat_id, lease.worker, lease.expires_at).where(
                lease.bot_id == self.bot_id, lease.chat_id.in_(ordered)
            )
        ).all()
        busy = {chat: worker for chat, worker, until in current if self._live_other(worker, until, now)}
        if holders is not None:
            holders.update(busy)
        free = (lease.expires_at < now) | (lease.worker == self.worker)
        if self._dead:
            free = free | lease.worker.in_(sorted(self._dead))
        held = set()
        for chat in ordered:
            if chat in busy:
                continue
            claim = (
                self._insert(InboxLease)
                .values(bot_id=self.bot_id, chat_id=chat, worker=self.worker, expires_at=now + self.lease)
                .on_conflict_do_update(
                    index_elements=["bot_id", "chat_id"],
                    set_={"worker": self.worker, "expires_at": now + self.lease},
                    where=free,
                )
                .returning(lease.chat_id)
            )
            if connection.execute(claim).first() is not None:
                held.add(chat)
        return frozenset(held)

    def _live_other(self, worker: str | None, until: datetime | None, now: datetime) -> bool:
        """A lease another living worker holds (not expired, holder not found dead here)."""
        return (
            worker is not None
            and worker != self.worker
            and until is not None
            and until >= now
            and (worker not in self._dead)
        )

    def next_offset(self) -> int | None:
        """The getUpdates offset that confirms every update already stored (None: nothing stored yet)."""
        with self._reading_engine.connect() as connection:
            last = connection.scalar(
                sa.select(sa.func.max(InboxUpdate.update_id)).where(InboxUpdate.bot_id == self.bot_id)
            )
        return None if last is None else int(last) + 1

    # -- processing ---------------------------------------------------------------------------------------
    def pending(self, chat_id: int, limit: int = 50) -> list[Pending]:
        """The chat's stored updates not yet handled, oldest (lowest update id) first."""
        with self._reading_engine.connect() as connection:
            rows = connection.execute(_PENDING, {"bot_id": self.bot_id, "chat_id": chat_id, "limit": limit}).all()
        return [Pending(*row) for row in rows]

    def acknowledge(self, ids: Sequence[int]) -> frozenset[int]:
        """Mark rows done in one transaction; returns those this call marked (a row already done is not)."""
        if not ids:
            return frozenset()

        def body(connection: sa.Connection, now: datetime) -> frozenset[int]:
            return frozenset(connection.execute(_ACKNOWLEDGE, {"ids": sorted(set(ids)), "now": now}).scalars())

        return self._write(body)

    # -- leases -------------------------------------------------------------------------------------------
    def renew(self) -> frozenset[int]:
        """Extend every lease this worker holds; returns the chats it still holds (a lease that expired and was
        taken by another worker is gone)."""
        lease = InboxLease.__table__.c
        mine = (lease.bot_id == self.bot_id) & (lease.worker == self.worker)

        def body(connection: sa.Connection, now: datetime) -> frozenset[int]:
            # lock the rows in chat order first, as claims do, so a heartbeat and a claim never wait in a circle
            connection.execute(sa.select(lease.chat_id).where(mine).order_by(lease.chat_id).with_for_update())
            kept = connection.execute(
                sa.update(InboxLease).where(mine).values(expires_at=now + self.lease).returning(lease.chat_id)
            ).scalars()
            return frozenset(kept)

        return self._write(body)

    def release(self, chat_id: int) -> bool:
        """Give a chat's lease up, unless updates of it are waiting (then the caller keeps handling them)."""
        lease = InboxLease.__table__.c
        waiting = sa.exists().where(
            InboxUpdate.bot_id == self.bot_id, InboxUpdate.chat_id == chat_id, InboxUpdate.done_at.is_(None)
        )
        gone = sa.delete(InboxLease).where(
            lease.bot_id == self.bot_id, lease.chat_id == chat_id, lease.worker == self.worker, ~waiting
        )
        return bool(self._write(lambda connection, _now: _rowcount(connection.execute(gone))))

    def release_all(self) -> None:
        """Give every lease up (a graceful shutdown: the other workers take the chats at once)."""
        lease = InboxLease.__table__.c
        gone = sa.delete(InboxLease).where(lease.bot_id == self.bot_id, lease.worker == self.worker)
        self._write(lambda connection, _now: _rowcount(connection.execute(gone)))

    def sweep(self) -> frozenset[int]:
        """Chats with waiting updates that this worker should handle now: the ones it holds, and the ones nobody
        holds (or whose holder's lease ran out, or died on this host), which it claims. One read when there is
        nothing to take; a write only to claim."""
        now = self._clock()
        lease, update = InboxLease, InboxUpdate
        with self._reading_engine.connect() as connection:
            holders = connection.execute(
                sa.select(update.chat_id, lease.worker, lease.expires_at)
                .select_from(update)
                .outerjoin(lease, (lease.bot_id == update.bot_id) & (lease.chat_id == update.chat_id))
                .where(update.bot_id == self.bot_id, update.done_at.is_(None))
                .distinct()
            ).all()
        others = {worker for _, worker, _ in holders if worker is not None and worker != self.worker}
        self._dead = frozenset(worker for worker in others if _dead_here(worker))
        mine = {chat for chat, worker, _ in holders if worker == self.worker}
        free = {
            chat
            for chat, worker, until in holders
            if worker != self.worker and not self._live_other(worker, until, now)
        }
        if free:
            mine |= self._write(lambda connection, now: self._claim(connection, free, now))
        return frozenset(mine)

    # -- upkeep -------------------------------------------------------------------------------------------
    def prune(self, keep: timedelta) -> int:
        """Delete rows handled more than `keep` ago (kept until then so a redelivered update is recognised)."""

        def body(connection: sa.Connection, now: datetime) -> int:
            old = sa.delete(InboxUpdate).where(InboxUpdate.bot_id == self.bot_id, InboxUpdate.done_at < now - keep)
            return _rowcount(connection.execute(old))

        return self._write(body)

    def backlog(self) -> Backlog:
        with self._reading_engine.connect() as connection:
            count, oldest = connection.execute(
                sa.select(sa.func.count(), sa.func.min(InboxUpdate.received_at)).where(
                    InboxUpdate.bot_id == self.bot_id, InboxUpdate.done_at.is_(None)
                )
            ).one()
        return Backlog(int(count), oldest)


def _rowcount(result: sa.Result[Any]) -> int:
    """Rows an INSERT/UPDATE/DELETE touched (a DML statement's result is a CursorResult)."""
    return max(int(getattr(result, "rowcount", 0)), 0)
