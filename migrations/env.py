"""Alembic environment: one metadata (ledger.schema), batch mode and foreign keys off on SQLite.

SQLite batch migrations rebuild a table by copy-and-rename; with foreign keys on, dropping the old parent table
would silently delete (or fail on) child rows. So migrations run with `PRAGMA foreign_keys=OFF` and finish with
`PRAGMA foreign_key_check`, which must come back empty or the migration fails before it commits.
"""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from sqlalchemy import Connection

from ledger.db import UTCDateTime, make_engine
from ledger.schema import metadata

config = context.config
#: PostgreSQL advisory lock key held while migrating (any constant unique to this project)
MIGRATION_LOCK_KEY = 7_211_409_031


def _render_item(type_: str, obj: Any, autogen_context: Any) -> str | Literal[False]:
    """Render the project's column types as plain SQLAlchemy ones, so migrations never import app code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _configure(connection: Connection | None = None, url: str | None = None) -> None:
    is_sqlite = (connection.dialect.name if connection is not None else str(url)).startswith("sqlite")
    context.configure(
        connection=connection,
        url=url,
        target_metadata=metadata,
        render_as_batch=is_sqlite,
        compare_type=True,
        compare_server_default=True,
        literal_binds=connection is None,
        render_item=_render_item,
    )


def _check_foreign_keys(connection: Connection) -> None:
    if connection.dialect.name != "sqlite":
        return
    problems = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if problems:
        raise RuntimeError(f"migration left rows that break foreign keys: {problems[:10]}")


def run_migrations_offline() -> None:
    _configure(url=config.get_main_option("sqlalchemy.url"))
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url, "sqlalchemy.url is not set (use ledger.db.alembic_config)"
    engine = make_engine(url, foreign_keys=False)
    try:
        with engine.connect() as connection:
            _configure(connection)
            with context.begin_transaction():
                if connection.dialect.name == "postgresql":
                    # several bot processes starting at once: one migrates, the others wait and find it done
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK_KEY})")
                context.run_migrations()
                _check_foreign_keys(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
