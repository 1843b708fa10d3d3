"""Short-lived state every bot process shares: flood counters, cached admin lists.

Several workers behind one webhook each see part of a group's messages; counting a member's messages in each
worker's memory would let a flood split between them go unnoticed. So the counters live in one place that every
worker reads and changes atomically: the ledger's own database (table `shared_state`, the default, nothing more
to run) or Redis (when `[redis] url` is configured). Both backends offer the same small interface:

- `update(key, change, ttl)`: read the value, compute the new one, write it back, as one atomic step (a row
  lock on the database, WATCH/MULTI on Redis), so two workers never both see "the 5th message";
- `get`, `put`, `delete`, and `claim` (true for the first caller only, until the entry expires).

Every entry expires by itself `ttl` seconds after its last write (Redis deletes it; the database ignores it and a
writer sweeps expired rows now and then). Values are small JSON documents. Nothing here is money: durable
decisions (offences, fines, one-time reminders) stay in the ledger's tables.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError

from ledger.db import make_engine, reader, session_factories
from ledger.moderation_models import SharedStateEntry

log = logging.getLogger(__name__)

R = TypeVar("R")
#: `change` gets the current value (None when absent or expired) and returns (new value or None to delete, result)
Change = Callable[[Any], tuple[Any, R]]

#: attempts of one atomic update that lost a race (a concurrent insert of the same key, a deadlock, a WATCH)
ATTEMPTS = 20
#: attempts of one Redis update (optimistic: WATCH, read, MULTI/EXEC; retried when another worker wrote first)
REDIS_ATTEMPTS = 100
#: PostgreSQL deadlock / serialization failure: the transaction is simply run again
_RETRYABLE = frozenset({"40P01", "40001"})
#: the database backend sweeps expired rows on every this-many-th write of a process
SWEEP_EVERY = 500
#: longest key (the table's primary key column)
MAX_KEY = 200


class SharedState(ABC):
    """One small key-value interface over the database or Redis; keys are ASCII strings like `flood:<chat>:<user>`."""

    @abstractmethod
    def update(self, key: str, change: Change[R], ttl: float) -> R:
        """Atomically replace the value of `key` by what `change` makes of it; the entry lives `ttl` seconds."""

    @abstractmethod
    def get(self, key: str) -> Any:
        """The value, or None when absent or expired."""

    @abstractmethod
    def delete(self, key: str) -> None: ...

    def put(self, key: str, value: Any, ttl: float) -> None:
        self.update(key, lambda _old: (value, None), ttl)

    def claim(self, key: str, ttl: float) -> bool:
        """True for the first caller only (in any process) until the claim expires: a notice said once."""
        return self.update(key, lambda old: (True, old is None), ttl)

    def close(self) -> None:  # noqa: B027 - only the backends that own connections have something to close
        """Release connections (the database backend's engine, the Redis pool)."""


class MemoryState(SharedState):
    """One process's memory: for a single process that shares nothing (the pure detectors' tests, a library
    user without a database). Values go through JSON like the other backends', so they behave the same."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def update(self, key: str, change: Change[R], ttl: float) -> R:
        _check_key(key)
        with self._lock:
            new, result = change(self.get(key))
            if new is None:
                self._entries.pop(key, None)
            else:
                self._entries[key] = (self._clock() + ttl, json.dumps(new))
            return result

    def get(self, key: str) -> Any:
        entry = self._entries.get(key)
        return json.loads(entry[1]) if entry is not None and entry[0] > self._clock() else None

    def delete(self, key: str) -> None:
        self._entries.pop(key, None)


_entry = SharedStateEntry.__table__.c
_GET = sa.select(_entry.value, _entry.expires_at).where(_entry.key == sa.bindparam("key"))


class DatabaseState(SharedState):
    """The `shared_state` table of the ledger's database.

    On SQLite the state gets its own engine with `synchronous=NORMAL`: a counter lost to a power cut costs
    nothing, and skipping the fsync keeps a chat message from costing a disk flush. Writes still queue on the
    database's writer lock like any other transaction."""

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        if engine.dialect.name == "sqlite":
            url = engine.url.render_as_string(hide_password=False)
            engine = make_engine(url, synchronous="NORMAL")
            self._own_engine: Engine | None = engine
        else:
            self._own_engine = None
        self._writer = session_factories(engine)[0]
        self._reading_engine = reader(engine)
        self._clock = clock or (lambda: datetime.now(UTC))
        self._writes = 0

    def update(self, key: str, change: Change[R], ttl: float) -> R:
        _check_key(key)
        for attempt in range(ATTEMPTS):
            try:
                with self._writer.begin() as session:
                    now = self._clock()
                    row = session.get(SharedStateEntry, key, with_for_update=True)
                    current = row.value if row is not None and row.expires_at > now else None
                    new, result = change(current)
                    if new is None:
                        if row is not None:
                            session.delete(row)
                    elif row is None:
                        session.add(SharedStateEntry(key=key, value=new, expires_at=now + timedelta(seconds=ttl)))
                    else:
                        row.value, row.expires_at = new, now + timedelta(seconds=ttl)
                self._sweep_now_and_then()
                return result
            except IntegrityError:
                if attempt == ATTEMPTS - 1:  # another worker inserted the key first: run again, updating it
                    raise
            except DBAPIError as err:
                if getattr(err.orig, "sqlstate", None) not in _RETRYABLE or attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def get(self, key: str) -> Any:
        # a Core read built once, not an ORM session: admin lists are read at every update
        with self._reading_engine.connect() as connection:
            row = connection.execute(_GET, {"key": key}).first()
        return row.value if row is not None and row.expires_at > self._clock() else None

    def delete(self, key: str) -> None:
        with self._writer.begin() as session:
            session.execute(sa.delete(SharedStateEntry).where(SharedStateEntry.key == key))

    def sweep(self) -> int:
        """Delete every expired entry; the number deleted."""
        with self._writer.begin() as session:
            done = session.execute(sa.delete(SharedStateEntry).where(SharedStateEntry.expires_at <= self._clock()))
            return int(getattr(done, "rowcount", 0) or 0)

    def _sweep_now_and_then(self) -> None:
        self._writes += 1
        if self._writes % SWEEP_EVERY == 0:
            try:
                self.sweep()
            except DBAPIError as err:  # a sweep is housekeeping: never the reason a message fails
                log.warning("could not sweep expired shared state: %s", err)

    def close(self) -> None:
        if self._own_engine is not None:
            self._own_engine.dispose()


class RedisState(SharedState):
    """Redis, for workers that already run one: every key gets `prefix` (several bots may share a server)."""

    def __init__(self, url: str, *, prefix: str = "paiju:") -> None:
        import redis

        self._redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        self._watch_error = redis.WatchError
        self.prefix = prefix

    def update(self, key: str, change: Change[R], ttl: float) -> R:
        _check_key(key)
        name = self.prefix + key
        with self._redis.pipeline() as pipe:
            for _attempt in range(REDIS_ATTEMPTS):
                try:
                    pipe.watch(name)
                    raw = pipe.get(name)
                    new, result = change(None if raw is None else json.loads(raw))
                    pipe.multi()
                    if new is None:
                        pipe.delete(name)
                    else:
                        pipe.set(name, json.dumps(new, separators=(",", ":")), px=max(1, round(ttl * 1000)))
                    pipe.execute()
                    return result
                except self._watch_error:
                    # another worker changed the key between our read and our write: read again, after a short
                    # random pause so that workers contending for one key do not keep colliding
                    time.sleep(random.uniform(0, min(0.05, 0.001 * 2**_attempt)))
                finally:
                    pipe.reset()
        raise RuntimeError(f"shared state {key!r}: {REDIS_ATTEMPTS} workers in a row changed it first")

    def get(self, key: str) -> Any:
        raw = self._redis.get(self.prefix + key)
        return None if raw is None else json.loads(raw)

    def delete(self, key: str) -> None:
        self._redis.delete(self.prefix + key)

    def close(self) -> None:
        self._redis.close()


def _check_key(key: str) -> None:
    if not key or len(key) > MAX_KEY or not key.isascii():
        raise ValueError(f"shared state keys are 1–{MAX_KEY} ASCII characters, got {key!r}")


def open_shared_state(
    engine: Engine, *, redis_url: str = "", redis_prefix: str = "paiju:", clock: Callable[[], datetime] | None = None
) -> SharedState:
    """Redis when a URL is configured, else the ledger's database (`engine`)."""
    if redis_url:
        return RedisState(redis_url, prefix=redis_prefix)
    return DatabaseState(engine, clock=clock)


# ------------------------------------------------------------------------------------------------ admin lists


class AdminLists:
    """Each chat's administrators (and owner) as fetched from Telegram, shared by every worker.

    The Telegram adapter asks getChatAdministrators at most once per `ttl` per chat across all workers, and a
    worker that sees an admin change drops the chat's entry for all of them."""

    def __init__(self, state: SharedState) -> None:
        self.state = state

    @staticmethod
    def _key(chat_id: int) -> str:
        return f"admins:{chat_id}"

    def get(self, chat_id: int) -> tuple[frozenset[int], int | None] | None:
        value = self.state.get(self._key(chat_id))
        if not isinstance(value, dict):
            return None
        return frozenset(int(x) for x in value.get("admins", ())), value.get("owner")

    def put(self, chat_id: int, admins: frozenset[int], owner: int | None, ttl: float) -> None:
        self.state.put(self._key(chat_id), {"admins": sorted(admins), "owner": owner}, ttl)

    def forget(self, chat_id: int) -> None:
        self.state.delete(self._key(chat_id))
