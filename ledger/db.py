"""Engines, sessions and column types shared by the ledger and its migrations.

SQLite (the default) runs in WAL mode with a busy timeout and foreign keys on; write transactions start with
`BEGIN IMMEDIATE` so two processes never deadlock upgrading a read lock, and queue for a file lock first so
neither starves the other (see `_configure_sqlite`). PostgreSQL goes through the same code: the URL is the only
change.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Iterator, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

try:
    import fcntl
except ImportError:  # Windows: no flock; writers rely on SQLite's own busy handler alone
    fcntl = None  # type: ignore[assignment]
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import Session, sessionmaker

from ledger.errors import DatabaseUrlError

DEFAULT_URL = "sqlite:///paiju.db"
#: environment variable naming the database when `--db` is not given
DB_ENV = "PAIJU_DB_URL"
#: environment variable naming the config file when `--config` is not given (else ./config.toml when present)
CONFIG_ENV = "PAIJU_CONFIG"
#: milliseconds a SQLite writer waits for another process's transaction before giving up
SQLITE_BUSY_TIMEOUT_MS = 30_000
#: seconds a SQLite writer waits in the writer queue before giving up with `WriterLockTimeout` (a process frozen
#: mid-transaction would otherwise block every other writer forever)
SQLITE_WRITER_LOCK_TIMEOUT_S = 30.0
#: execution option naming how a SQLite transaction begins ("IMMEDIATE" for writers, "DEFERRED" for readers,
#: `NO_BEGIN` for a single statement, which is a transaction of its own)
SQLITE_BEGIN = "paiju_sqlite_begin"
NO_BEGIN = "none"
#: SQLite's synchronous setting: FULL syncs the WAL at every commit, so a booking the bot has confirmed survives a
#: power cut or OS crash (NORMAL is corruption-safe in WAL mode but may roll the last commits back)
SQLITE_SYNCHRONOUS = "FULL"
#: execution option of a write transaction whose durability a later synced commit provides (`SYNCED_LATER`): on
#: SQLite it commits without a sync of its own (the next FULL commit syncs the shared WAL, this one's frames with
#: it; a power cut before then rolls both back); PostgreSQL ignores it (its flush at a commit cost nothing
#: measurable here, and a per-transaction setting would cost a round trip)
COMMIT_SYNC = "paiju_commit_sync"
SYNCED_LATER = "later"
_SYNCHRONOUS_NOW = "paiju_synchronous"
#: seconds a server connection may sit in the pool before it is checked at its next use (`_ping_when_idle`)
PING_AFTER_IDLE_S = 2.0
_IDLE_SINCE = "paiju_idle_since"
#: connections a pool opens past its size for a burst (closed again when returned)
POOL_OVERFLOW = 4
#: suffix of the file next to a SQLite database that writers queue on (`paiju.db-writer`)
WRITER_LOCK_SUFFIX = "-writer"
#: key in a pooled connection's `info` holding the descriptor of the writer lock it holds
_WRITER_LOCK_FD = "paiju_writer_lock_fd"


class WriterLockTimeout(TimeoutError):
    """Another process held the SQLite writer lock for longer than the timeout; nothing was written."""


class UTCDateTime(sa.types.TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on both databases.

    PostgreSQL keeps `timestamptz`; SQLite stores the UTC wall time (its DATETIME has no offset), so values are
    converted to UTC on the way in and marked UTC on the way out. Naive datetimes are refused: they are bugs.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: the ledger stores timezone-aware UTC only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: 64-bit ids: BIGINT on PostgreSQL, INTEGER (the 64-bit rowid alias, so it autoincrements) on SQLite
BigIntPK = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


def config_file(given: str | Path | None = None) -> Path | None:
    """The config file: `given` (`--config`), else `$PAIJU_CONFIG`, else ./config.toml when present."""
    chosen = given or os.environ.get(CONFIG_ENV) or ("config.toml" if Path("config.toml").exists() else None)
    return Path(chosen) if chosen else None


def database_url(given: str | None = None, *, config: str | Path | None = None) -> str:
    """The database every subcommand uses, in this order: `--db` (`given`), `$PAIJU_DB_URL`, the config file's
    `[database] url`, `./paiju.db`."""
    if given:
        return given
    if os.environ.get(DB_ENV):
        return os.environ[DB_ENV]
    path = config_file(config)
    if path is not None:
        try:
            import tomllib

            configured = tomllib.loads(path.read_text(encoding="utf-8")).get("database", {}).get("url")
        except (OSError, ValueError) as err:
            raise DatabaseUrlError(f"{path}: {err}") from err
        if configured:
            return str(configured)
    return DEFAULT_URL


def existing(url: str) -> str:
    """`url`, refused when it names a SQLite file that does not exist (a command that only reads never creates an
    empty database for a mistyped path)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:" and not Path(path).exists():
            raise DatabaseUrlError(f"no database at {path} (create one with `paiju db upgrade --db {path}`)")
    return url


def normalize_url(url: str) -> str:
    """Accept a bare file path as a SQLite database, and plain `postgresql://` as psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser()}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(
    url: str,
    *,
    foreign_keys: bool = True,
    synchronous: str | None = None,
    writer_lock_timeout: float | None = None,
    connections: int | None = None,
    **kwargs: Any,
) -> Engine:
    """An engine configured for the ledger. `foreign_keys=False` is for SQLite batch migrations only;
    `synchronous` overrides `SQLITE_SYNCHRONOUS` (short-lived state that may be lost on a power cut);
    `writer_lock_timeout` overrides `SQLITE_WRITER_LOCK_TIMEOUT_S`.

    `connections`: how many threads use the engine at once. The pool keeps that many connections open: a pool
    smaller than its users opens a connection for each checkout past its size and closes it again on return —
    on PostgreSQL a new server process each time, which under load cost more CPU than the bookings themselves.

    Server databases check a pooled connection that sat idle (`_ping_when_idle`): a connection the server or a
    proxy dropped while idle is replaced instead of failing the next booking."""
    url = normalize_url(url)
    is_sqlite = url.startswith("sqlite")
    if connections is not None:
        kwargs.setdefault("pool_size", connections)
        kwargs.setdefault("max_overflow", POOL_OVERFLOW)
    if is_sqlite:
        kwargs.setdefault("connect_args", {}).setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
    try:
        engine = sa.create_engine(url, **kwargs)
    except ModuleNotFoundError as err:
        if url.startswith("postgresql"):
            raise DatabaseUrlError(
                "PostgreSQL needs its driver: install paiju with the postgres extra (pip install 'paiju[postgres]')"
            ) from err
        raise
    except sa.exc.NoSuchModuleError as err:
        raise DatabaseUrlError(
            f"not a database URL paiju knows (SQLite or PostgreSQL): {url.split('://')[0]}://"
        ) from err
    except sa.exc.ArgumentError as err:
        raise DatabaseUrlError(f"not a database URL: {err}") from err
    engine.update_execution_options(compiled_cache=StatementCache())
    if not is_sqlite:
        _ping_when_idle(engine)
    if is_sqlite:
        _configure_sqlite(
            engine,
            foreign_keys=foreign_keys,
            synchronous=synchronous or SQLITE_SYNCHRONOUS,
            lock_timeout=SQLITE_WRITER_LOCK_TIMEOUT_S if writer_lock_timeout is None else writer_lock_timeout,
        )
    return engine


class StatementCache(MutableMapping[Any, Any]):
    """SQLAlchemy's compiled-statement cache, looked up by the identity of a statement's cache key first.

    SQLAlchemy finds the compiled form of a statement by its cache key: a nested tuple describing the whole
    statement, memoized on the statement object but hashed anew at every execution (tuples keep no hash). The
    ledger's hot statements are built once at import, so they bring the same key object every time — and hashing
    the booking's table read cost about as much as SQLite takes to run it (tens of µs; the chat read's, half
    that). Here a key object seen before is found by its `id` in a small front table (the entry holds the key
    itself, so the id cannot be reused while it is there, and the whole key is compared: identical parts compare
    at once); any other key goes to SQLAlchemy's own LRU cache as before. The front table is emptied when full
    (statements built per call bring new key objects), so it stays bounded."""

    FRONT = 256

    def __init__(self, capacity: int = 500) -> None:
        self._cache: MutableMapping[Any, Any] = sa.util.LRUCache(capacity)
        self._front: dict[Any, tuple[Any, Any]] = {}

    @staticmethod
    def _identity(key: Any) -> Any:
        """SQLAlchemy's key is (dialect, the statement's cache key, the parameters' names, two flags): the first two
        by identity, the rest (short, cheap to hash) by value; None for any other key."""
        return (id(key[0]), id(key[1]), key[2:]) if type(key) is tuple and len(key) > 2 else None

    def get(self, key: Any, default: Any = None) -> Any:
        identity = self._identity(key)
        known = self._front.get(identity) if identity is not None else None
        if known is not None and known[0] == key:
            return known[1]
        found = self._cache.get(key)
        if found is None:
            return default
        self._remember(identity, key, found)
        return found

    def _remember(self, identity: Any, key: Any, compiled: Any) -> None:
        if identity is None:
            return
        if len(self._front) >= self.FRONT:
            self._front.clear()
        self._front[identity] = (key, compiled)

    def __getitem__(self, key: Any) -> Any:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __setitem__(self, key: Any, compiled: Any) -> None:
        self._cache[key] = compiled
        self._remember(self._identity(key), key, compiled)

    def __delitem__(self, key: Any) -> None:
        self._front.pop(self._identity(key), None)
        del self._cache[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cache)

    def __len__(self) -> int:
        return len(self._cache)


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection before use when it sat in the pool for `PING_AFTER_IDLE_S` or more (one round
    trip); a dead one is replaced (the pool tries again). Why not `pool_pre_ping` (a ping at every checkout): a
    busy worker takes a connection a dozen times per update, and those pings were most of its round trips. A
    connection that dies while in steady use fails its next statement instead: the ledger runs that call again
    on a fresh connection (`Unit`), and the pool replaces every connection older than the failure."""

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)
        if since is None or time.monotonic() - since < PING_AFTER_IDLE_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as err:
            raise sa.exc.DisconnectionError(f"a pooled connection was dead: {err}") from err


def _configure_sqlite(engine: Engine, *, foreign_keys: bool, synchronous: str, lock_timeout: float) -> None:
    """WAL, busy timeout, foreign keys, synchronous; take transaction control from pysqlite so BEGIN is ours; and
    make writers of one database file (in any process or thread) take turns.

    SQLite's busy handler polls: a writer that finds the database locked sleeps 1, 2, 5 … then 100 ms between
    tries, and gets in only if a try lands between two of the other writer's transactions. A process booking in a
    loop (a bot answering a burst of updates) leaves gaps of well under a millisecond, so the other one could wait
    for seconds — under CPU load long enough to reach the busy timeout ("database is locked"). So a write
    transaction first takes an exclusive `flock` on `<database>-writer`: a blocked writer sleeps in the kernel
    and is woken the moment the holder lets go, before the holder can come back for its next transaction.
    The lock is released when the transaction ends (just before COMMIT/ROLLBACK is sent; a writer woken that
    instant waits a millisecond in BEGIN IMMEDIATE, which SQLite's busy handler covers). A writer waits at most
    `lock_timeout` seconds, then raises `WriterLockTimeout` naming the process that holds the lock."""
    database = engine.url.database
    is_memory = database in (None, "", ":memory:") or str(database).startswith("file::memory:")
    lock_path = None if is_memory or fcntl is None else f"{database}{WRITER_LOCK_SUFFIX}"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.isolation_level = None  # pysqlite would otherwise BEGIN lazily, after our reads
        cursor = dbapi_connection.cursor()
        if not is_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()
        record.info[_SYNCHRONOUS_NOW] = synchronous

    #: a write whose sync comes later commits as NORMAL does (unless the engine asked for less than that)
    later = "NORMAL" if synchronous.upper() in ("FULL", "EXTRA") else synchronous

    @event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        options = connection.get_execution_options()
        mode = options.get(SQLITE_BEGIN, "IMMEDIATE")
        if mode == NO_BEGIN:
            return
        if mode == "IMMEDIATE":
            wanted = later if options.get(COMMIT_SYNC) == SYNCED_LATER else synchronous
            if connection.info.get(_SYNCHRONOUS_NOW) != wanted:  # set outside the transaction, kept until changed
                # a setting of the connection, made on the driver as at connect (not a statement of the transaction)
                dbapi_connection = connection.connection.dbapi_connection
                assert dbapi_connection is not None, "a connection being begun is open"
                dbapi_connection.cursor().execute(f"PRAGMA synchronous={wanted}")
                connection.info[_SYNCHRONOUS_NOW] = wanted
            if lock_path is not None:
                _take_writer_lock(connection.info, lock_path, lock_timeout)
        try:
            connection.exec_driver_sql(f"BEGIN {mode}")
        except BaseException:
            _release_writer_lock(connection.info)
            raise

    @event.listens_for(engine, "commit")
    @event.listens_for(engine, "rollback")
    def _on_end(connection: sa.Connection) -> None:
        _release_writer_lock(connection.info)

    @event.listens_for(engine.pool, "checkin")
    @event.listens_for(engine.pool, "invalidate")
    def _on_return(_dbapi_connection: Any, record: Any, *_exc: Any) -> None:
        if record is not None:  # a connection dropped mid-transaction must not keep the others waiting
            _release_writer_lock(record.info)


def _take_writer_lock(info: dict[Any, Any], lock_path: str, timeout: float) -> None:
    """Block until this transaction holds the database's writer lock, at most `timeout` seconds (a fresh
    descriptor per transaction, so two threads of one process exclude each other too; the kernel drops it if
    the process dies). The holder writes its pid into the file, so a writer that gives up can say who blocks it."""
    if _WRITER_LOCK_FD in info:  # already held by this connection's transaction
        return
    assert fcntl is not None  # lock_path is None without it
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        fd = _wait_for_writer_lock(lock_path, timeout)
    except BaseException:
        os.close(fd)
        raise
    with contextlib.suppress(OSError):  # the pid is a courtesy for the error message; the lock is what counts
        os.pwrite(fd, f"{os.getpid():<12}".encode(), 0)
    info[_WRITER_LOCK_FD] = fd


def _wait_for_writer_lock(lock_path: str, timeout: float) -> int:
    """The descriptor holding the writer lock, waited for in the kernel by a helper thread (so the holder's
    release wakes us at once, as a plain blocking flock would) while this thread gives up after `timeout`.

    A helper that gets the lock after we gave up releases it straight away; one whose holder never lets go stays
    blocked until that process dies (it is a daemon thread and holds nothing)."""
    assert fcntl is not None
    handoff: queue.Queue[int | BaseException] = queue.Queue(maxsize=1)
    guard = threading.Lock()
    abandoned = False

    def wait() -> None:
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            handoff.put(err)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException as err:  # pragma: no cover - flock on an open file only fails on a broken system
            os.close(fd)
            handoff.put(err)
            return
        with guard:
            if abandoned:
                os.close(fd)
            else:
                handoff.put(fd)

    threading.Thread(target=wait, name="sqlite-writer-wait", daemon=True).start()
    try:
        got = handoff.get(timeout=timeout)
    except BaseException as err:  # the timeout, or an interrupt while waiting
        with guard:
            abandoned = True
            late = None if handoff.empty() else handoff.get_nowait()
        if isinstance(late, int):
            if isinstance(err, queue.Empty):
                return late  # the lock arrived just as the wait ended
            os.close(late)
        if not isinstance(err, queue.Empty):
            raise
        raise WriterLockTimeout(
            f"the SQLite database is being written by another process ({_holder(lock_path)}) for more than "
            f"{timeout:g} s; it may be frozen mid-transaction. Nothing was written. Find or stop that process "
            f"(the lock file is {lock_path})"
        ) from None
    if isinstance(got, BaseException):
        raise got
    return got


def _holder(lock_path: str) -> str:
    """Who holds the writer lock, as its holder wrote it ("pid 1234"), or "pid unknown"."""
    try:
        with open(lock_path, encoding="ascii", errors="replace") as file:
            pid = file.read(12).strip()
    except OSError:
        pid = ""
    return f"pid {pid}" if pid.isdigit() else "pid unknown"


def _release_writer_lock(info: dict[Any, Any]) -> None:
    fd = info.pop(_WRITER_LOCK_FD, None)
    if fd is not None:
        os.close(fd)  # closing the only descriptor of the open file releases the flock


def reader(engine: Engine) -> Engine:
    """`engine` for reading only. SQLite: a transaction begun deferred, which never blocks writers. PostgreSQL:
    no transaction (autocommit) — under READ COMMITTED every statement takes its own snapshot either way, and a
    read transaction would end in a ROLLBACK, which makes psycopg forget every statement it has prepared on the
    connection (so the costly plans of the booking's statements were made again on every call)."""
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{SQLITE_BEGIN: "DEFERRED"})
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def session_factories(engine: Engine) -> tuple[sessionmaker[Session], sessionmaker[Session]]:
    """(writer, reader) session factories. On SQLite a writer takes the write lock at BEGIN (no lock upgrade
    races between processes); a reader never blocks writers (`reader`)."""
    writer = sessionmaker(engine, expire_on_commit=False)
    return writer, sessionmaker(reader(engine), expire_on_commit=False)


def alembic_config(url: str) -> Any:
    """An Alembic `Config` for the project's migrations at `url` (no alembic.ini needed)."""
    from alembic.config import Config

    import migrations

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Run the migrations up to `revision`."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)


def current_revision(engine: Engine) -> str | None:
    """The database's Alembic revision, None when it was never migrated."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
