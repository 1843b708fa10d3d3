"""Engines, sessions and column types shared by the ledger and its migrations.

SQLite (the default) runs in WAL mode with a busy timeout and foreign keys on; write transactions start with
`BEGIN IMMEDIATE` so two processes never deadlock upgrading a read lock. PostgreSQL goes through the same code:
the URL is the only change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_URL = "sqlite:///paiju.db"
#: milliseconds a SQLite writer waits for another process's transaction before giving up
SQLITE_BUSY_TIMEOUT_MS = 30_000
#: execution option naming how a SQLite transaction begins ("IMMEDIATE" for writers, "DEFERRED" for readers)
SQLITE_BEGIN = "paiju_sqlite_begin"


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


def normalize_url(url: str) -> str:
    """Accept a bare file path as a SQLite database, and plain `postgresql://` as psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser()}"
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, *, foreign_keys: bool = True, **kwargs: Any) -> Engine:
    """An engine configured for the ledger. `foreign_keys=False` is for SQLite batch migrations only."""
    url = normalize_url(url)
    is_sqlite = url.startswith("sqlite")
    if is_sqlite:
        kwargs.setdefault("connect_args", {}).setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
    engine = sa.create_engine(url, **kwargs)
    if is_sqlite:
        _configure_sqlite(engine, foreign_keys=foreign_keys)
    return engine


def _configure_sqlite(engine: Engine, *, foreign_keys: bool) -> None:
    """WAL, busy timeout, foreign keys; and take transaction control from pysqlite so BEGIN is ours."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # pysqlite would otherwise BEGIN lazily, after our reads
        cursor = dbapi_connection.cursor()
        is_memory = engine.url.database in (None, "", ":memory:")
        if not is_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: sa.Connection) -> None:
        mode = connection.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE")
        connection.exec_driver_sql(f"BEGIN {mode}")


def session_factories(engine: Engine) -> tuple[sessionmaker[Session], sessionmaker[Session]]:
    """(writer, reader) session factories. On SQLite a writer takes the write lock at BEGIN (no lock upgrade
    races between processes); a reader begins deferred and never blocks writers."""
    reader_engine = engine.execution_options(**{SQLITE_BEGIN: "DEFERRED"})
    writer = sessionmaker(engine, expire_on_commit=False)
    reader = sessionmaker(reader_engine, expire_on_commit=False)
    return writer, reader


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
