"""The engines: SQLite writers queue on a `<database>-writer` file lock where the OS has flock (and give up with
a clear error when another process holds it too long), the ledger still books (on SQLite's own busy handler)
where it has not, e.g. on Windows; PostgreSQL engines replace dropped pooled connections; a statement built once is
found compiled without its description being hashed again."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

import ledger.db
from ledger.db import WRITER_LOCK_SUFFIX, StatementCache, WriterLockTimeout, make_engine
from ledger.service import Ledger

from .helpers import CHAT


def _book_a_fine(path: Path) -> Ledger:
    books = Ledger.open(f"sqlite:///{path}")
    member = books.member(CHAT, 1, "甲")
    books.fine(member.id, 500, "刷屏", source="test:fine:1", by=None)
    return books


def test_writers_queue_on_a_lock_file_beside_the_database(tmp_path: Path) -> None:
    books = _book_a_fine(tmp_path / "paiju.db")
    assert (tmp_path / f"paiju.db{WRITER_LOCK_SUFFIX}").exists()
    assert books.balances(CHAT).pot == 500
    books.close()


def test_without_flock_the_ledger_books_on_sqlites_busy_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger.db, "fcntl", None)
    books = _book_a_fine(tmp_path / "paiju.db")
    assert not (tmp_path / f"paiju.db{WRITER_LOCK_SUFFIX}").exists()
    assert books.balances(CHAT).pot == 500
    books.close()


# --------------------------------------------------------------------------------- the writer lock's timeout

_HOLDER = """
import sys, time
import sqlalchemy as sa
from ledger.service import Ledger
books = Ledger.open(sys.argv[1], upgrade=False)
member = books.member({chat}, 2, "乙")
with books.engine.begin() as connection:  # a write transaction that never ends: the process is "frozen" in it
    connection.execute(sa.text("UPDATE members SET balance = balance WHERE id = :id"), {{"id": member.id}})
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _hold_the_writer_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    """A second process inside a write transaction (writer lock and SQLite's write lock held) for `seconds`."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER.format(chat=CHAT), f"sqlite:///{path}", str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    return holder


def test_a_writer_gives_up_on_a_frozen_process_with_a_clear_error_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "paiju.db"
    _book_a_fine(path).close()
    monkeypatch.setattr(ledger.db, "SQLITE_WRITER_LOCK_TIMEOUT_S", 1.0)
    holder = _hold_the_writer_lock(path, 600)
    books = Ledger.open(f"sqlite:///{path}", upgrade=False)
    try:
        member = books.member(CHAT, 1, "甲")  # a read: readers never wait for writers
        started = time.monotonic()
        with pytest.raises(WriterLockTimeout) as refused:
            books.fine(member.id, 300, "刷屏", source="test:fine:2", by=None)
        waited = time.monotonic() - started
        assert 1.0 <= waited < 5.0
        assert f"pid {holder.pid}" in str(refused.value) and "frozen" in str(refused.value)
        assert books.balances(CHAT).pot == 500  # nothing of the refused fine was written
        holder.kill()  # the kernel drops a dead process's lock: the next writer gets in
        holder.wait()
        books.fine(member.id, 300, "刷屏", source="test:fine:2", by=None)
        assert books.balances(CHAT).pot == 800
    finally:
        holder.kill()
        holder.wait()
        books.close()


def test_a_waiting_writer_gets_in_as_soon_as_the_holder_commits(tmp_path: Path) -> None:
    path = tmp_path / "paiju.db"
    _book_a_fine(path).close()
    holder = _hold_the_writer_lock(path, 0.5)
    books = Ledger.open(f"sqlite:///{path}", upgrade=False)
    try:
        member = books.member(CHAT, 1, "甲")
        started = time.monotonic()
        books.fine(member.id, 300, "刷屏", source="test:fine:3", by=None)  # waits for the holder, then books
        assert time.monotonic() - started < 10
        assert books.balances(CHAT).pot == 800
    finally:
        holder.wait(timeout=30)
        books.close()


def test_server_databases_replace_a_dropped_pooled_connection(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pooled connection that sat idle is checked before use: one the server killed meanwhile is replaced, not
    handed to the next booking; one taken again at once is not checked (no round trip)."""
    engine = make_engine(postgres_url)
    admin = make_engine(postgres_url)
    pings: list[object] = []
    ping = engine.dialect.do_ping
    monkeypatch.setattr(engine.dialect, "do_ping", lambda connection: pings.append(connection) or ping(connection))
    try:
        with engine.connect() as connection:
            pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
        with engine.connect() as connection:  # taken again at once: used as it is
            assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one() == pid
        assert pings == []
        with admin.begin() as connection:
            connection.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
        monkeypatch.setattr(ledger.db, "PING_AFTER_IDLE_S", 0.0)  # as if it had sat in the pool for a while
        with engine.connect() as connection:  # the pool's only connection is dead: the check replaces it
            assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one() != pid
        assert len(pings) == 1
    finally:
        engine.dispose()
        admin.dispose()


class _Counted:
    """A part of a statement's cache key that counts how often it is hashed."""

    def __init__(self) -> None:
        self.hashed = 0

    def __hash__(self) -> int:
        self.hashed += 1
        return 1

    def __eq__(self, other: object) -> bool:
        return self is other


class _Marked(sa.types.TypeDecorator[int]):
    """An integer whose type carries `mark` into the cache key of every statement that binds one."""

    impl = sa.Integer
    cache_ok = True

    def __init__(self, mark: _Counted) -> None:
        super().__init__()
        self.mark = mark


def test_a_statement_built_once_is_found_compiled_without_hashing_its_description_again(db_url: str) -> None:
    """The ledger's statements are built once at import: SQLAlchemy hashed each one's whole description (a nested
    tuple; the booking's table read took as long to hash as SQLite took to run it) at every execution."""
    mark = _Counted()
    statement = sa.select(sa.bindparam("x", type_=_Marked(mark)))
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            for value in range(20):
                assert connection.execute(statement, {"x": value}).scalar_one() == value
    finally:
        engine.dispose()
    assert mark.hashed <= 3  # looked up and stored when compiled; then found by the key's identity


def test_the_statement_cache_stays_bounded_for_statements_built_per_call() -> None:
    cache = StatementCache(capacity=50)
    dialect = object()
    for number in range(StatementCache.FRONT * 3):
        key = (dialect, ("select", number), ("x",), False, False)
        cache[key] = number
        assert cache.get(key) == number
        assert cache.get((dialect, ("select", number), ("x",), False, False)) == number  # an equal key, built anew
    assert len(cache) <= 75  # SQLAlchemy's LRU cache trims itself back to 50 once half as many again
    assert len(cache._front) <= StatementCache.FRONT
    assert cache.get((dialect, ("select", -1), ("x",), False, False)) is None
