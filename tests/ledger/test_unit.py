"""One booking, one transaction: a replay is told apart, and a booking survives the database letting it down.

Connection drops are real on PostgreSQL: `pg_terminate_backend` kills this ledger's pooled connections between
bookings, in the middle of a booking's transaction and just before its COMMIT. On SQLite (no server to kill) a
locked database and an answer lost after the commit are simulated at the same points. Whatever happens,
every booking is made exactly once: nothing lost, nothing doubled.
"""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from ledger import models as m
from ledger import unit as unit_module
from ledger.db import make_engine
from ledger.events import Kong, Win, WinHand
from ledger.service import Ledger

from .helpers import CHAT, seat_kawuxing

WIN = Win("B", "self_draw", WinHand(patterns=("qingyise",)))


def test_a_replay_is_marked_and_equals_the_first_answer(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    first = ledger.record_hand(table.id, [WIN], source="tg:1:5", by=1)
    again = ledger.record_hand(table.id, [WIN], source="tg:1:5", by=1)
    assert not first.replayed and again.replayed and again == first
    undo = ledger.undo(table.id, source="tg:1:6", by=1)
    assert not undo.replayed and ledger.undo(table.id, source="tg:1:6", by=1).replayed
    a = table.seats[0].member_id
    fine = ledger.fine(a, 100, "x", source="tg:1:7", by=None)
    assert ledger.fine(a, 100, "x", source="tg:1:7", by=None).replayed and not fine.replayed
    paid = ledger.pay_out_pot(CHAT, [a], source="tg:1:8", by=1)
    assert [t.replayed for t in paid] == [False]
    assert [t.replayed for t in ledger.pay_out_pot(CHAT, [a], source="tg:1:8", by=1)] == [True]
    assert ledger.open_table(CHAT, [s.member_id for s in table.seats], source=f"test:{CHAT}:open:A-B-C", by=1).replayed


def _hands(ledger: Ledger) -> int:
    with ledger.engine.connect() as connection:
        return connection.execute(
            sa.select(sa.func.count()).select_from(m.Hand).where(m.Hand.status == m.CLOSED)
        ).scalar_one()


def _book_wins(ledger: Ledger, table_id: int, count: int, prefix: str) -> None:
    for i in range(count):
        result = ledger.record_hand(table_id, [WIN], source=f"{prefix}:{i}", by=1)
        assert result.finished and not result.replayed


def _assert_books(ledger: Ledger, table_id: int, wins: int) -> None:
    """`wins` 清一色 self-draws by B (each: A and C pay 4 × 100 to B), booked once each, totals in step."""
    table = ledger.table(table_id)
    a, b, c = (seat.member_id for seat in table.seats)
    assert _hands(ledger) == wins
    balances = ledger.balances(CHAT)
    assert (balances.of(a), balances.of(b), balances.of(c)) == (-400 * wins, 800 * wins, -400 * wins)
    totals = {member: amount for member, amount in ledger.night_totals(table.night_id).items() if amount}
    assert totals == ({a: -400 * wins, b: 800 * wins, c: -400 * wins} if wins else {})


# ------------------------------------------------------------------------------------ simulated (any database)


def test_an_answer_lost_after_the_commit_is_found_and_not_booked_again(ledger: Ledger, monkeypatch) -> None:
    """The commit went through but the connection died before the client heard: the retry finds the booking it
    made itself (not a replay) and books nothing more."""
    table = seat_kawuxing(ledger)
    original = unit_module.Unit._tx
    failures = [1]

    @contextmanager
    def flaky(self: unit_module.Unit, engine: Any, by: Any = None, source: str = "") -> Iterator[unit_module.Tx]:
        with original(self, engine, by, source) as tx:
            yield tx
        if source and failures:  # committed; now the line drops
            failures.pop()
            raise sa.exc.OperationalError(
                "COMMIT", {}, Exception("server closed the connection"), connection_invalidated=True
            )

    monkeypatch.setattr(unit_module.Unit, "_tx", flaky)
    result = ledger.record_hand(table.id, [WIN], source="lost:1", by=1)
    assert result.finished and not result.replayed and not failures
    _assert_books(ledger, table.id, 1)


def test_a_locked_sqlite_database_is_waited_out_and_booked_once(sqlite_ledger: Ledger) -> None:
    ledger = sqlite_ledger
    table = seat_kawuxing(ledger)
    failures = [1, 1]

    def locked(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("INSERT INTO transfers") and failures:
            failures.pop()
            raise sa.exc.OperationalError(statement, {}, sqlite3.OperationalError("database is locked"))

    sa.event.listen(ledger.engine, "before_cursor_execute", locked)
    try:
        _book_wins(ledger, table.id, 3, "locked")
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", locked)
    assert not failures
    _assert_books(ledger, table.id, 3)


def test_a_refusal_is_not_retried(sqlite_ledger: Ledger) -> None:
    """A constraint the booking itself breaks is a bug or a refusal, not a passing failure: raised at once."""
    ledger = sqlite_ledger
    table = seat_kawuxing(ledger)
    calls = []

    def broken(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("INSERT INTO transfers"):
            calls.append(1)
            raise sa.exc.DataError(statement, {}, sqlite3.DataError("value out of range"))

    sa.event.listen(ledger.engine, "before_cursor_execute", broken)
    try:
        with pytest.raises(sa.exc.DataError):
            ledger.record_hand(table.id, [WIN], source="bad:1", by=1)
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", broken)
    assert calls == [1]
    _assert_books(ledger, table.id, 0)


def test_writes_inside_synced_later_skip_their_own_sync_until_the_caller_has_synced(ledger: Ledger) -> None:
    """The bot's inbox syncs an update's done mark before anything is said, so the bookings made for the update
    until then need no sync of their own: inside `synced_later`, while it says so, a SQLite write commits as
    NORMAL (in a thread the context was handed to as well); before and after, on the same pooled connection, as
    FULL. PostgreSQL ignores it: every commit there waits for its flush."""
    table = seat_kawuxing(ledger)
    sqlite = ledger.engine.dialect.name == "sqlite"
    at_commit: list[str] = []

    def level(connection: sa.Connection) -> None:
        asked = "PRAGMA synchronous" if sqlite else "SHOW synchronous_commit"
        at_commit.append(str(connection.exec_driver_sql(asked).scalar()))

    def win(n: int) -> None:
        assert not ledger.record_hand(table.id, [WIN], source=f"sync:{n}", by=1).replayed

    pending = True
    sa.event.listen(ledger.engine, "commit", level)
    try:
        win(1)
        with unit_module.synced_later(lambda: pending):
            win(2)
            asyncio.run(asyncio.to_thread(win, 3))
            pending = False  # the caller's own synced commit was made: what follows must be durable by itself
            win(4)
        win(5)
    finally:
        sa.event.remove(ledger.engine, "commit", level)
    full, normal = "2", "1"  # SQLite's numbers for FULL and NORMAL
    assert at_commit == ([full, normal, normal, full, full] if sqlite else ["on"] * 5)
    _assert_books(ledger, table.id, 5)


# ------------------------------------------------------------------------------- real drops on PostgreSQL


@pytest.fixture
def killable(db_url: str, clock) -> Iterator[tuple[Ledger, sa.Engine, str]]:
    """A ledger whose connections carry a unique application name, and an admin engine to kill them with."""
    if not db_url.startswith("postgresql"):
        pytest.skip("pg_terminate_backend is PostgreSQL's (SQLite has no connection to drop)")
    name = f"paiju-kill-{secrets.token_hex(6)}"
    url = sa.engine.make_url(db_url).update_query_dict({"application_name": name}).render_as_string(False)
    ledger = Ledger.open(url, upgrade=False, clock=clock)
    admin = make_engine(db_url)
    yield ledger, admin, name
    ledger.close()
    admin.dispose()


def _kill(admin: sa.Engine, name: str) -> int:
    with admin.begin() as connection:
        return len(
            connection.execute(
                sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :name"),
                {"name": name},
            ).all()
        )


def test_connections_killed_between_bookings_lose_and_double_nothing(killable) -> None:
    ledger, admin, name = killable
    table = seat_kawuxing(ledger)
    killed = 0
    for i in range(12):
        killed += _kill(admin, name)  # every pooled connection of this ledger, idle between bookings
        _book_wins(ledger, table.id, 1, f"between:{i}")
        ledger.record_event(table.id, Kong("A", "angang"), source=f"between:kong:{i}", by=1)
        killed += _kill(admin, name)
        ledger.undo(table.id, source=f"between:undo:{i}", by=1)
    assert killed >= 12
    _assert_books(ledger, table.id, 12)


@pytest.mark.parametrize("where", ["INSERT INTO transfers", "INSERT INTO operations", "commit"])
def test_a_connection_killed_inside_the_booking_is_retried_once_and_booked_once(killable, where: str) -> None:
    """Killed mid-transaction (before the statement that holds `where`, or just before COMMIT): the server rolls
    the attempt back, the retry books it."""
    ledger, admin, _ = killable
    table = seat_kawuxing(ledger)
    kills: list[int] = []

    def kill_own_backend(conn: Any, *args: Any) -> None:
        statement = args[1] if len(args) > 1 else "commit"
        if not kills and where in str(statement):
            pid = conn.connection.driver_connection.info.backend_pid
            with admin.begin() as connection:
                connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            kills.append(pid)

    event = "commit" if where == "commit" else "before_cursor_execute"
    sa.event.listen(ledger.engine, event, kill_own_backend)
    try:
        _book_wins(ledger, table.id, 3, f"inside:{where}")
    finally:
        sa.event.remove(ledger.engine, event, kill_own_backend)
    assert len(kills) == 1
    _assert_books(ledger, table.id, 3)
