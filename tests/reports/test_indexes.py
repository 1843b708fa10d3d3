"""The read side's indexes: their revision adds them and its downgrade takes them away, on both databases, and
the queries of 历史, a night and a month reach their rows through indexes (SQLite's plans; PostgreSQL plans a
table of a few rows with a scan whatever its indexes, so its plans are read at scale by the benchmark)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from alembic.script import ScriptDirectory

from ledger import db
from ledger import models as m
from ledger.history import hand_history
from ledger.scope import month_scope, night_scope
from ledger.service import Ledger
from ledger.stats import group_stats, head_to_head, nightly_net, reading, running_balance
from tests.reports.playing import play

READ_INDEXES = {
    "hands": {"ix_hands_replaces_id"},
    "nights": {"ix_nights_group_id_started_at"},
    "transfers": {"ix_transfers_outside_nights"},
}
_chats = itertools.count(-3_000_001, -1)


def _read_indexes(url: str) -> dict[str, set[str]]:
    engine = db.make_engine(url)
    try:
        inspector = sa.inspect(engine)
        return {
            table: {i["name"] for i in inspector.get_indexes(table)} & names for table, names in READ_INDEXES.items()
        }
    finally:
        engine.dispose()


def test_the_read_indexes_come_with_their_revision_and_go_with_its_downgrade(empty_db_url: str) -> None:
    revision = "0005"
    below = ScriptDirectory.from_config(db.alembic_config(empty_db_url)).get_revision(revision).down_revision
    assert isinstance(below, str)
    none: dict[str, set[str]] = {table: set() for table in READ_INDEXES}
    db.upgrade(empty_db_url, below)
    assert _read_indexes(empty_db_url) == none
    db.upgrade(empty_db_url, revision)
    assert _read_indexes(empty_db_url) == READ_INDEXES
    db.downgrade(empty_db_url, below)
    assert _read_indexes(empty_db_url) == none
    db.upgrade(empty_db_url)
    assert _read_indexes(empty_db_url) == READ_INDEXES


@contextmanager
def _plans(engine: sa.Engine) -> Iterator[list[tuple[str, list[str]]]]:
    """Every SELECT run on `engine` meanwhile, with its query plan (one line per step)."""
    ran: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            ran.append((statement, parameters))

    plans: list[tuple[str, list[str]]] = []
    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        yield plans
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)
    with engine.connect() as connection:
        for statement, parameters in ran:
            steps = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
            plans.append((statement, [row[-1] for row in steps]))


#: a step that reads a whole table, or all of a group's hands or transfers (its history)
WHOLE = re.compile(
    r"SCAN (hands|transfers|nights|game_tables|hand_events|seats)\b"
    r"|SEARCH (hands|transfers) USING (COVERING )?INDEX \w+ \(group_id=\?\)$"
)


def test_history_a_night_and_a_month_read_no_history_whole(sqlite_ledger: Ledger, clock: Any) -> None:
    """No query reads a table whole, nor a group's hands or transfers whole (but for 历史's newest-first walk,
    which stops at its LIMIT): the cost follows the hands shown, not the length of the group's history."""
    played = play(sqlite_ledger, clock, next(_chats), [[("hand", 0, 0), ("hand", 3, 1)], [("hand", 1, 2), ("undo",)]])
    with reading(sqlite_ledger.engine) as session:
        group_id = session.scalars(sa.select(m.Group.id).where(m.Group.chat_id == played.chat_id)).one()
    with _plans(sqlite_ledger.engine) as plans:
        assert sqlite_ledger.history(played.chat_id, 5, include_voided=True)
        with reading(sqlite_ledger.engine) as session:
            assert hand_history(session, played.chat_id, 5)
            for scope in (night_scope(session, played.nights[0]), month_scope(session, group_id, 2026, 1)):
                stats = group_stats(session, scope)
                assert stats.hands
                head_to_head(session, scope, stats.all_wins)
                nightly_net(session, scope)
            running_balance(session, played.nights[0])
    assert len(plans) > 10
    whole = [(statement, step) for statement, steps in plans for step in steps if WHOLE.search(step)]
    assert [(statement, step) for statement, step in whole if " LIMIT " not in statement] == []
