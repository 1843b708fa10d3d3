"""One unit of work: a transaction per call, idempotent by source, retried when the database lets it down.

Every mutating call of the ledger runs through `Unit.once`: the same source twice books once and the second call
gets the first result back, marked `replayed`. A call whose connection is dropped (a restarted server, a killed
backend, a network blip) or that the database asks to retry (PostgreSQL serialization failure or deadlock, a
locked SQLite file) runs again whole on a fresh connection; the source makes that safe, whatever happened to the
first attempt — an attempt that did commit is found by the retry and answered from the stored result.

Bodies get a `Tx`: the transaction's Core connection (the hot paths use statements built once, at import) and,
for the cold paths that read or write a few ORM objects, a session joined to the same transaction.
"""

from __future__ import annotations

import dataclasses
import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TypeVar, TypeVarTuple, overload

import sqlalchemy as sa
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable
from sqlalchemy.sql.selectable import TypedReturnsRows

from ledger import models as m
from ledger.codec import decode, encode
from ledger.db import COMMIT_SYNC, NO_BEGIN, SQLITE_BEGIN, SYNCED_LATER, reader
from ledger.errors import LedgerError

R = TypeVar("R")
_Ts = TypeVarTuple("_Ts")

#: attempts of one call before its error reaches the caller
ATTEMPTS = 5
#: PostgreSQL states worth a retry: serialization failure, deadlock, the server shutting the session down
RETRY_STATES = frozenset({"40001", "40P01", "57P01", "57P02", "57P03"})
MAX_SOURCE = 200

FIND_OPERATION = sa.select(m.Operation.kind, m.Operation.result).where(m.Operation.source == sa.bindparam("source"))
_RECORD_OPERATION = sa.insert(m.Operation)
#: a column for the first query of a body run with `once(..., checks_source=True)`: the id of the operation that
#: already booked the source (bind `booked_source`), saving the body's transaction a statement of its own
SOURCE_BOOKED = (
    sa.select(m.Operation.id)
    .where(m.Operation.source == sa.bindparam("booked_source"))
    .scalar_subquery()
    .label("source_booked")
)


class _Booked(Exception):
    """A body found its source booked already (see `SOURCE_BOOKED`)."""


#: called with (engine, operation kind) after each booking commits (a replay books nothing and calls nothing)
_listeners: list[Callable[[Engine, str], None]] = []


#: while it holds a function that answers True, writes commit without a disk sync of their own (`synced_later`)
_SYNCED_LATER: ContextVar[Callable[[], bool] | None] = ContextVar("paiju_synced_later", default=None)


@contextmanager
def synced_later(pending: Callable[[], bool]) -> Iterator[None]:
    """While `pending()` is true, the writes made in this context (and in the threads it hands work to with
    `asyncio.to_thread`, which copies it) commit without waiting for the disk: the caller makes a later commit of
    its own durable — syncing the same write-ahead log, these writes with it — before anyone can hear of them,
    and does the work again if a crash or power cut comes first. The bot's inbox is that caller: an update's done
    mark is committed and synced before its reply is sent, and an update without its mark is handled again
    (docs/ledger.md, durability). Outside such a context, and on PostgreSQL, every commit is durable."""
    token = _SYNCED_LATER.set(pending)
    try:
        yield
    finally:
        _SYNCED_LATER.reset(token)


def on_booked(listener: Callable[[Engine, str], None]) -> Callable[[], None]:
    """Have `listener(engine, kind)` called after every booking of any ledger commits (metrics count them);
    returns the function that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener)


class Tx:
    """One transaction as a body sees it: `connection` for Core statements, `session` (made on first use) for
    ORM objects, `now` stamped on every row, and who asked (`by`) with which `source`."""

    def __init__(self, connection: Connection, now: datetime, by: int | None = None, source: str = "") -> None:
        self.connection = connection
        self.now = now
        self.by = by
        self.source = source
        self._session: Session | None = None

    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = Session(bind=self.connection, expire_on_commit=False)
        return self._session

    @overload
    def execute(self, statement: TypedReturnsRows[*_Ts], params: Any = None) -> CursorResult[*_Ts]: ...

    @overload
    def execute(self, statement: Executable, params: Any = None) -> CursorResult[*tuple[Any, ...]]: ...

    def execute(self, statement: Executable, params: Any = None) -> CursorResult[*tuple[Any, ...]]:
        """A Core statement in this transaction (the session's pending changes are written first)."""
        if self._session is not None:
            self._session.flush()
        return self.connection.execute(statement, params)

    def stop_if_booked(self, booked: int | None) -> None:
        """End the body here when its first query found the source booked (`SOURCE_BOOKED`): the call answers
        with the stored result."""
        if booked is not None:
            raise _Booked

    def finish(self) -> None:
        """Write the session's pending changes (the transaction commits after the body)."""
        if self._session is not None:
            self._session.flush()

    def close(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


class Unit:
    """Runs bodies in transactions on one engine; `clock` stamps them (timezone-aware)."""

    def __init__(self, engine: Engine, clock: Callable[[], datetime]) -> None:
        self.engine = engine
        self._reader = reader(engine)
        self._statement = (
            engine.execution_options(**{SQLITE_BEGIN: NO_BEGIN})
            if engine.dialect.name == "sqlite"
            else engine.execution_options(isolation_level="AUTOCOMMIT")
        )
        self._synced_later = engine.execution_options(**{COMMIT_SYNC: SYNCED_LATER})
        self._clock = clock
        #: SQLite writers hold the database's write lock from BEGIN, so the source lookup at the start of a write
        #: is final; PostgreSQL writers run side by side (see `once`)
        self.serialized = engine.dialect.name == "sqlite"

    def now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the ledger's clock must return timezone-aware datetimes")
        return now.astimezone(UTC)

    # -------------------------------------------------------------------------------------------- running
    def _writer(self) -> Engine:
        """The engine a write transaction runs on: without a sync of its own inside `synced_later`."""
        pending = _SYNCED_LATER.get()
        return self._synced_later if pending is not None and pending() else self.engine

    @contextmanager
    def _tx(self, engine: Engine, by: int | None = None, source: str = "") -> Iterator[Tx]:
        with engine.connect() as connection, connection.begin():
            tx = Tx(connection, self.now(), by, source)
            try:
                yield tx
                tx.finish()
            finally:
                tx.close()

    def read(self, body: Callable[[Tx], R], *, one_statement: bool = False) -> R:
        """`body` in a read transaction (never blocks writers), retried on a dropped connection. A body that
        sends `one_statement` runs outside any transaction: a single statement sees one snapshot by itself, and
        no BEGIN/COMMIT saves two round trips on PostgreSQL (every message's first read goes this way)."""
        for attempt in _attempts():
            try:
                with self._tx(self._statement if one_statement else self._reader) as tx:
                    return body(tx)
            except DBAPIError as err:
                if attempt.last or not self._transient(err):
                    raise
                attempt.wait(err)
        raise AssertionError("unreachable")

    def write(self, body: Callable[[Tx], R]) -> R:
        """`body` in a write transaction that is safe to run again (a get-or-create): retried whole when it lost
        a race on a unique key or the database failed it in passing."""
        for attempt in _attempts():
            try:
                with self._tx(self._writer()) as tx:
                    return body(tx)
            except IntegrityError:
                if attempt.last:
                    raise
            except DBAPIError as err:
                if attempt.last or not self._transient(err):
                    raise
                attempt.wait(err)
        raise AssertionError("unreachable")

    def once(
        self,
        source: str,
        kind: str,
        by: int | None,
        result_type: Any,
        body: Callable[[Tx], R],
        *,
        checks_source: bool = False,
    ) -> R:
        """Run `body` in one write transaction unless `source` already ran; then return the stored result, marked
        `replayed`. With `checks_source` the body's first query asks (`SOURCE_BOOKED`, `Tx.stop_if_booked`)
        instead of a lookup of its own.

        The operation row (unique on its source) is written with the result at the end of the body's transaction.
        On SQLite the lookup at the start runs under the write lock, so it is final. On PostgreSQL a concurrent
        duplicate may run its body meanwhile; the bodies that book lock their table (or row) first, so it waits
        for the first to commit, and its own operation row then fails on the unique source: its transaction
        rolls back whole and the first result is read back. A transaction that lost a race on another unique key,
        a dropped connection and a serialization failure or deadlock are retried from the start (nothing of the
        attempt stayed, or the retry finds it committed: each call marks its row, so it knows its own)."""
        if not isinstance(source, str) or not source.strip() or len(source) > MAX_SOURCE:
            raise LedgerError("bad_source", f"来源标识必须是 1–{MAX_SOURCE} 个字符")
        call = uuid.uuid4().hex
        stored = None
        for attempt in _attempts():
            try:
                with self._tx(self._writer(), by, source) as tx:
                    if not checks_source:
                        stored = tx.connection.execute(FIND_OPERATION, {"source": source}).first()
                    if stored is None:
                        result = body(tx)
                        tx.execute(
                            _RECORD_OPERATION,
                            {
                                "source": source,
                                "kind": kind,
                                "result": {"value": encode(result), "call": call},
                                "created_at": tx.now,
                                "created_by": by,
                            },
                        )
                if stored is None:  # committed
                    for listener in list(_listeners):
                        listener(self.engine, kind)
                    return result
                break
            except _Booked:
                stored = self._stored(source)
                assert stored is not None, "a booked operation stays booked"
                break
            except IntegrityError:
                stored = self._stored(source)
                if stored is not None:
                    break
                if attempt.last:
                    raise
            except DBAPIError as err:
                if attempt.last or not self._transient(err):
                    raise
                attempt.wait(err)
            except LedgerError:
                # PostgreSQL: a concurrent duplicate may have changed what this body saw (the hand it would undo
                # is gone); if the source is booked now, its answer is the answer
                stored = None if self.serialized else self._stored(source)
                if stored is None:
                    raise
                break
        assert stored is not None, "the loop ends with the stored operation or an exception"
        if stored.kind != kind:
            raise LedgerError("source_reused", f"来源 {source} 已用于另一种操作（{stored.kind}），未重复记账")
        value: R = decode(result_type, stored.result["value"])
        return value if stored.result.get("call") == call else _replayed(value)

    def _stored(self, source: str) -> Any:
        return self.read(lambda tx: tx.connection.execute(FIND_OPERATION, {"source": source}).first())

    def _transient(self, err: DBAPIError) -> bool:
        """A failure of the connection or of the moment, not of the request: worth one more attempt."""
        if err.connection_invalidated:
            return True
        state = getattr(err.orig, "sqlstate", None) or ""
        if state in RETRY_STATES or state.startswith("08"):  # 08xxx: connection exceptions
            return True
        if not isinstance(err, OperationalError):
            return False
        if self.serialized:  # SQLite: only a lock held past the busy timeout is passing
            return "locked" in str(err.orig) or "busy" in str(err.orig)
        return True  # psycopg's OperationalError: the connection failed (refused, reset, terminated)


def _replayed(value: Any) -> Any:
    """A stored result as a replay: `replayed=True` on it (or on each item of a list of them)."""
    if isinstance(value, list):
        return [_replayed(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and hasattr(value, "replayed"):
        return dataclasses.replace(value, replayed=True)
    return value


class _Attempt:
    def __init__(self, number: int) -> None:
        self.number = number
        self.last = number == ATTEMPTS - 1

    def wait(self, err: DBAPIError) -> None:
        """Back off before the next attempt; a dropped connection is replaced at once."""
        if not err.connection_invalidated:
            time.sleep(random.uniform(0.01, 0.05) * 2**self.number)


def _attempts() -> Iterator[_Attempt]:
    return (_Attempt(number) for number in range(ATTEMPTS))


def get_row(session: Session, model: type[Any], id_: int, what: str, *, lock: bool = False) -> Any:
    """A row by id, fresh from the database; `lock` holds it (SELECT … FOR UPDATE) until the transaction ends."""
    row = session.get(model, id_, with_for_update=lock or None, populate_existing=True)
    if row is None:
        raise LedgerError("not_found", f"找不到这个{what}（{id_}）")
    return row
