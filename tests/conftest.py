"""Shared database fixtures for every test suite (ledger, bot, moderation, reports).

Fixtures
- `db_url`: the URL of a clean database migrated to head, parametrized over `sqlite` and `postgresql`, so a test
  that uses it (or `ledger`) runs once per database. SQLite: a copy of a template file migrated once per session
  (fast), in memory-backed storage (/dev/shm) where the machine has it, deleted after the test: a commit there
  costs no fsync (on a busy disk a quarter of a booking's time), and no test checks what a disk adds.
  PostgreSQL: one schema per test session, migrated once, every table emptied before each test.
  The PostgreSQL run reads `PAIJU_TEST_POSTGRES_URL` (`.ci/run` sets it) and is skipped, with the reason shown
  by `pytest -ra`, when the variable is unset or the server does not answer.
- `sqlite_url`: the same as `db_url` on SQLite only (for suites that need one database, e.g. transcripts).
- `new_sqlite_url`: makes another such SQLite database at each call (a test that plays on several, or one per
  property example). Opening a new file with `Ledger.open` instead would run every migration again (~0.5 s).
- `ledger` / `sqlite_ledger`: a `ledger.service.Ledger` on `db_url` / `sqlite_url`, driven by `clock`.
- `clock`: a settable clock (timezone-aware UTC), 2026-01-10 20:00 in Hubei (12:00 UTC) to start;
  `clock.advance(minutes=5)`, `clock.set(datetime)`. The ledger stamps every row with it.
- `empty_db_url`: an empty, unmigrated database (parametrized like `db_url`) for migration tests.
- `postgres_url`: the raw PostgreSQL URL (skips when unavailable), for tests that make their own schemas.

The head revision is read from the migration scripts once per test process (`_head_revision_once`): `Ledger.open`
still compares every database's revision with it, but parsing the scripts cost ~12 ms of CPU (0.1 s on a busy
machine) at each of the suite's thousands of opens.

A PostgreSQL schema is private to one pytest process, so suites (and pytest-xdist workers) may run at the same
time on one server.

Hypothesis: under CI (`CI` set, as `.ci/run` runs) the property tests are derandomized, so a run on a clean
checkout is repeatable; locally every run draws new examples and keeps the failures it finds in `.hypothesis/`.
"""

from __future__ import annotations

import functools
import itertools
import os
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import settings

from ledger import db as ledger_db
from ledger import maintenance as ledger_maintenance
from ledger import service as ledger_service
from ledger.db import make_engine, normalize_url, upgrade
from ledger.service import Ledger

# no deadline on any example: speed is the benchmarks' (bench/), and a busy machine must not fail a property
settings.register_profile("local", deadline=None)
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")

POSTGRES_ENV = "PAIJU_TEST_POSTGRES_URL"
DATABASES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgresql),
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgresql: runs against PostgreSQL (needs PAIJU_TEST_POSTGRES_URL)")


class Clock:
    """A clock tests move by hand; callable like the ledger's `clock` argument."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, now: datetime) -> datetime:
        if now.tzinfo is None:
            raise ValueError("use a timezone-aware datetime")
        self.now = now.astimezone(UTC)
        return self.now


def schema_url(url: str, schema: str) -> str:
    """`url` with every connection's search_path set to `schema`."""
    parsed = sa.engine.make_url(normalize_url(url)).update_query_dict({"options": f"-csearch_path={schema}"})
    return parsed.render_as_string(hide_password=False)


@pytest.fixture(scope="session", autouse=True)
def _head_revision_once() -> Iterator[None]:
    """`head_revision` parsed once: the scripts do not change while the tests run (every module that calls it)."""
    once = functools.cache(ledger_db.head_revision)
    with pytest.MonkeyPatch.context() as patch:
        for module in (ledger_db, ledger_service, ledger_maintenance):
            patch.setattr(module, "head_revision", once)
        yield


# ------------------------------------------------------------------------------------------ PostgreSQL


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"PostgreSQL tests skipped: {POSTGRES_ENV} is not set")
    engine = make_engine(url, connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as err:
        pytest.skip(f"PostgreSQL tests skipped: {POSTGRES_ENV} does not answer ({str(err).splitlines()[0]})")
    finally:
        engine.dispose()
    return url


class PostgresSchemas:
    """Creates private schemas on the test server and drops them at the end of the session."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.names: list[str] = []

    def create(self) -> str:
        name = f"paiju_t{os.getpid()}_{secrets.token_hex(4)}"
        with self.engine.begin() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{name}"')
        self.names.append(name)
        return schema_url(self.url, name)

    def drop_all(self) -> None:
        with self.engine.begin() as connection:
            for name in self.names:
                connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        self.engine.dispose()


@pytest.fixture(scope="session")
def postgres_schemas(postgres_url: str) -> Iterator[PostgresSchemas]:
    schemas = PostgresSchemas(postgres_url)
    yield schemas
    schemas.drop_all()


@pytest.fixture(scope="session")
def _postgres_migrated(postgres_schemas: PostgresSchemas) -> Iterator[tuple[str, sa.Engine, str]]:
    """(url, engine, statements emptying every table) of this session's migrated schema."""
    from ledger.schema import metadata

    url = postgres_schemas.create()
    upgrade(url)
    # DELETE children before parents: on a handful of rows it is ~20× faster than TRUNCATE (ids keep counting)
    deletes = "; ".join(f'DELETE FROM "{table.name}"' for table in reversed(metadata.sorted_tables))
    engine = make_engine(url)
    yield url, engine, deletes
    engine.dispose()


def _clean_postgres(migrated: tuple[str, sa.Engine, str]) -> str:
    url, engine, deletes = migrated
    with engine.begin() as connection:
        connection.exec_driver_sql(deletes)
    return url


# ---------------------------------------------------------------------------------------------- SQLite


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "ledger.db"
    upgrade(str(path))
    return path


@pytest.fixture(scope="session")
def _sqlite_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    shm = Path("/dev/shm")
    if not shm.is_dir():
        yield tmp_path_factory.mktemp("sqlite")
        return
    root = Path(tempfile.mkdtemp(prefix="paiju-tests-", dir=shm))
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def _sqlite_folder(_sqlite_root: Path) -> Iterator[Path]:
    """The test's own folder for its SQLite copies, removed after it (memory is not a disk to fill)."""
    folder = Path(tempfile.mkdtemp(dir=_sqlite_root))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _copy_sqlite(template: Path, directory: Path, name: str = "ledger.db") -> str:
    path = directory / name
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


# -------------------------------------------------------------------------------------------- fixtures


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        template = request.getfixturevalue("_sqlite_template")
        return _copy_sqlite(template, request.getfixturevalue("_sqlite_folder"))
    return _clean_postgres(request.getfixturevalue("_postgres_migrated"))


@pytest.fixture
def sqlite_url(_sqlite_template: Path, _sqlite_folder: Path) -> str:
    return _copy_sqlite(_sqlite_template, _sqlite_folder)


@pytest.fixture
def new_sqlite_url(_sqlite_template: Path, _sqlite_folder: Path) -> Callable[[], str]:
    numbers = itertools.count(1)
    return lambda: _copy_sqlite(_sqlite_template, _sqlite_folder, f"ledger-{next(numbers)}.db")


@pytest.fixture(params=DATABASES)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.db'}"
    schemas: PostgresSchemas = request.getfixturevalue("postgres_schemas")
    return schemas.create()


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 1, 10, 12, 0, tzinfo=UTC))


@pytest.fixture
def ledger(db_url: str, clock: Clock) -> Iterator[Ledger]:
    service = Ledger.open(db_url, upgrade=False, clock=clock)
    yield service
    service.close()


@pytest.fixture
def sqlite_ledger(sqlite_url: str, clock: Clock) -> Iterator[Ledger]:
    service = Ledger.open(sqlite_url, upgrade=False, clock=clock)
    yield service
    service.close()
