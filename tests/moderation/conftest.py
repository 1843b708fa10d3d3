"""A migrated ledger on SQLite and, where PAIJU_TEST_POSTGRES_URL is set, on PostgreSQL (a schema per test)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core import ManualClock
from ledger.db import make_engine
from ledger.service import Ledger

POSTGRES_URL = os.environ.get("PAIJU_TEST_POSTGRES_URL")
DATABASES = ["sqlite", *(["postgres"] if POSTGRES_URL else [])]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'paiju.db'}"
        return
    assert POSTGRES_URL is not None
    schema = f"mod_{uuid.uuid4().hex[:12]}"
    admin = make_engine(POSTGRES_URL)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


@pytest.fixture
def ledger(db_url: str, clock: ManualClock) -> Iterator[Ledger]:
    opened = Ledger.open(db_url, clock=clock.now)
    try:
        yield opened
    finally:
        opened.close()
