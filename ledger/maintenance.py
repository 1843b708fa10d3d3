"""Moving and saving a ledger: `copy_ledger` (one database to another, e.g. SQLite → PostgreSQL, verified) and
`backup_sqlite` (SQLite's online backup API).

The copy keeps every id, so what points at a row (a fine's record, a transfer's hand, an operation's stored
answer) still points at it afterwards; it therefore goes into an empty database, or — when told to — into one
whose ids do not overlap what is copied (checked first: nothing is written if they do). It runs in ONE
transaction on the target: it lands whole or not at all. Afterwards every copied group's balances are read back
from both databases (the running totals, and a re-sum of the live transfers on the target) and every table's row
count compared; any difference is an error.

The short-lived shared state (flood counters, admin lists) is not copied: it rebuilds itself.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ledger.db import current_revision, head_revision, make_engine, normalize_url, upgrade

#: tables whose rows are not worth moving (they expire by themselves)
NOT_COPIED = frozenset({"shared_state"})
#: rows per INSERT batch
BATCH = 2000


class CopyError(Exception):
    """The copy was refused or did not verify; the message says why (and nothing was written, or it was rolled
    back, except for a verification failure, which names the difference)."""


@dataclass(frozen=True)
class CopyReport:
    rows: dict[str, int]  # table -> rows copied
    groups: dict[int, int]  # chat id -> accounts whose balance was verified
    skipped: tuple[str, ...]  # tables left out (not tied to a group, or short-lived)


def _metadata() -> sa.MetaData:
    from ledger.schema import metadata

    return metadata


def _selection(table: sa.Table, chat_id: int | None, memo: dict[str, Any]) -> Any:
    """The WHERE clause choosing `table`'s rows of the group of `chat_id` (True for every row without a chat),
    or None when the table's rows belong to no group. Followed from `groups` along foreign keys."""
    if chat_id is None:
        return sa.true()
    if table.name in memo:
        return memo[table.name]
    memo[table.name] = None  # a cycle back to this table chooses nothing through it
    if table.name == "groups":
        found: Any = table.c.chat_id == chat_id
    elif "group_id" in table.c:
        groups = _metadata().tables["groups"]
        found = table.c.group_id.in_(sa.select(groups.c.id).where(groups.c.chat_id == chat_id))
    elif "chat_id" in table.c:
        found = table.c.chat_id == chat_id
    elif table.name == "operations":
        found = table.c.source.startswith(f"tg:{chat_id}:", autoescape=True)  # the chat's own messages
    else:
        found = None
        for key in table.foreign_keys:
            parent = key.column.table
            if parent is table:
                continue
            chosen = _selection(parent, chat_id, memo)
            if chosen is not None and not key.parent.nullable:
                found = key.parent.in_(sa.select(key.column).where(chosen))
                break
    memo[table.name] = found
    return found


def _tables(chat_id: int | None) -> tuple[list[tuple[sa.Table, Any]], list[str]]:
    """(table, selection) in dependency order, and the names of the tables left out."""
    memo: dict[str, Any] = {}
    chosen, skipped = [], []
    for table in _metadata().sorted_tables:
        selection = None if table.name in NOT_COPIED else _selection(table, chat_id, memo)
        if selection is None:
            skipped.append(table.name)
        else:
            chosen.append((table, selection))
    return chosen, skipped


def _groups(tables: list[tuple[sa.Table, Any]]) -> tuple[sa.Table, Any]:
    return next((table, chosen) for table, chosen in tables if table.name == "groups")


def _self_references(table: sa.Table) -> list[sa.Column[Any]]:
    """Columns pointing into their own table (a guest linked to a member, a hand replacing a hand): written
    after every row is in, since a row may point at a later one."""
    return [key.parent for key in table.foreign_keys if key.column.table is table]


def _rows(source: Connection, table: sa.Table, selection: Any) -> Iterator[list[dict[str, Any]]]:
    primary = list(table.primary_key.columns)
    query = sa.select(table).where(selection).order_by(*primary)
    result = source.execution_options(stream_results=True, yield_per=BATCH).execute(query)
    for partition in result.mappings().partitions(BATCH):
        yield [dict(row) for row in partition]


def _count(connection: Connection, table: sa.Table, selection: Any) -> int:
    return int(connection.scalar(sa.select(sa.func.count()).select_from(table).where(selection)) or 0)


def _is_empty(target: Engine) -> bool:
    with target.connect() as connection:
        for table, _ in _tables(None)[0]:
            if connection.scalar(sa.select(sa.literal(1)).select_from(table).limit(1)) is not None:
                return False
    return True


def _overlaps(source: Connection, target: Connection, tables: list[tuple[sa.Table, Any]]) -> list[str]:
    """Tables where a primary key to copy is already taken in the target: '<table>: N ids'."""
    clashes = []
    for table, selection in tables:
        primary = list(table.primary_key.columns)
        if len(primary) != 1:
            continue
        column = primary[0]
        taken = 0
        for batch in source.execute(sa.select(column).where(selection).order_by(column)).scalars().partitions(BATCH):
            taken += int(target.scalar(sa.select(sa.func.count()).where(column.in_(list(batch)))) or 0)
        if taken:
            clashes.append(f"{table.name}: {taken}")
    return clashes


def _reset_sequences(target: Connection, tables: list[tuple[sa.Table, Any]]) -> None:
    """PostgreSQL: move each id sequence past the copied ids (SQLite continues from the largest rowid itself)."""
    if target.dialect.name != "postgresql":
        return
    for table, _ in tables:
        primary = list(table.primary_key.columns)
        if len(primary) != 1 or not primary[0].autoincrement or not isinstance(primary[0].type, sa.Integer):
            continue
        column = primary[0].name
        sequence = target.scalar(sa.text("SELECT pg_get_serial_sequence(:t, :c)"), {"t": table.name, "c": column})
        if sequence is not None:
            target.execute(
                sa.text(f"SELECT setval(:s, GREATEST((SELECT MAX({column}) FROM {table.name}), 1))"),
                {"s": sequence},
            )


def copy_ledger(from_url: str, to_url: str, *, chat_id: int | None = None, force: bool = False) -> CopyReport:
    """Copy every group's ledger (or the group of `chat_id`) from `from_url` to `to_url`, then verify it.

    The source must be at the newest schema (`paiju db upgrade` it first); the target is upgraded to it. A target
    that already holds data is refused unless `force`, and even then when an id to copy is taken there."""
    source_engine, target_engine = make_engine(from_url), make_engine(to_url)
    try:
        if normalize_url(from_url) == normalize_url(to_url):
            raise CopyError("the source and the target are the same database")
        if current_revision(source_engine) != head_revision():
            raise CopyError(
                f"the source is at revision {current_revision(source_engine) or 'none'}, not {head_revision()}: "
                "run `paiju db upgrade --db SOURCE` first"
            )
        upgrade(to_url)
        was_empty = _is_empty(target_engine)
        if not force and not was_empty:
            raise CopyError("the target already holds a ledger; give --force to copy into it (ids must not overlap)")
        tables, skipped = _tables(chat_id)
        with source_engine.connect() as source:
            if chat_id is not None and _count(source, *_groups(tables)) == 0:
                raise CopyError(f"the source has no group for chat {chat_id}")
            with target_engine.begin() as target:
                if force:
                    clashes = _overlaps(source, target, tables)
                    if clashes:
                        raise CopyError(
                            "ids already used in the target (the copy keeps ids, so two ledgers whose ids overlap "
                            f"cannot be merged): {', '.join(clashes)}. Nothing was written."
                        )
                copied = _copy_rows(source, target, tables)
                _reset_sequences(target, tables)
        groups = _verify(source_engine, target_engine, tables, copied, exact=was_empty or chat_id is not None)
        return CopyReport(copied, groups, tuple(skipped))
    finally:
        source_engine.dispose()
        target_engine.dispose()


def _copy_rows(source: Connection, target: Connection, tables: list[tuple[sa.Table, Any]]) -> dict[str, int]:
    copied: dict[str, int] = {}
    for table, selection in tables:
        later = _self_references(table)
        pointers: list[dict[str, Any]] = []
        copied[table.name] = 0
        for batch in _rows(source, table, selection):
            for row in batch:
                if any(row[column.name] is not None for column in later):
                    pointers.append({"_id": row["id"], **{column.name: row[column.name] for column in later}})
                    row.update({column.name: None for column in later})
            target.execute(table.insert(), batch)
            copied[table.name] += len(batch)
        if pointers:
            target.execute(
                table.update()
                .where(table.c.id == sa.bindparam("_id"))
                .values({column.name: sa.bindparam(column.name) for column in later}),
                pointers,
            )
    return copied


def _verify(
    source_engine: Engine,
    target_engine: Engine,
    tables: list[tuple[sa.Table, Any]],
    copied: dict[str, int],
    *,
    exact: bool,
) -> dict[int, int]:
    """Row counts (the target's too when it held nothing else: `exact`), then each group's balances: equal on both
    sides, the target's running totals equal to a re-sum of its live transfers, and its open debts per pair equal to
    their re-derivation from its settlements and payments."""
    from ledger.service import Ledger

    with source_engine.connect() as source, target_engine.connect() as target:
        for table, selection in tables:
            expected = _count(source, table, selection)
            found = _count(target, table, selection) if exact else expected
            if not expected == found == copied[table.name]:
                raise CopyError(
                    f"verification failed: {table.name} has {expected} rows in the source, {found} in the target, "
                    f"{copied[table.name]} copied"
                )
        groups, chosen = _groups(tables)
        chats = list(target.scalars(sa.select(groups.c.chat_id).where(chosen).order_by(groups.c.chat_id)))
    before, after = Ledger(source_engine), Ledger(target_engine)
    verified = {}
    for chat in chats:
        was, now = before.balances(chat), after.balances(chat)
        resummed = after.period_balances(chat, None, None)
        if was != now:
            raise CopyError(f"verification failed: the balances of chat {chat} differ after the copy")
        # the re-sum leaves payments out: it is each account's result, the running total less its payments
        nonzero = {line.member_id: line.result for line in now.lines if line.result}
        if nonzero != {line.member_id: line.amount for line in resummed.lines if line.amount}:
            raise CopyError(f"verification failed: chat {chat}'s running totals differ from its transfers")
        if not after.debts_agree(chat):
            raise CopyError(f"verification failed: chat {chat}'s open debts differ from its settlements and payments")
        verified[chat] = len(now.lines)
    return verified


# ------------------------------------------------------------------------------------------------------ backup


def backup_sqlite(url: str, out: str | Path) -> Path:
    """A consistent copy of a live SQLite ledger at `out` (SQLite's online backup API: writers carry on), checked
    with `PRAGMA integrity_check`. Restoring is copying the file back in place while the bot is stopped."""
    engine = make_engine(url)
    try:
        if engine.dialect.name != "sqlite":
            raise CopyError(
                "paiju db backup is for SQLite; back up PostgreSQL with pg_dump, e.g. "
                "pg_dump --format=custom --file=paiju.dump DBNAME (restore: pg_restore --dbname=DBNAME paiju.dump)"
            )
        database = engine.url.database
        if not database or not Path(database).exists():
            raise CopyError(f"no SQLite database at {database!r}")
    finally:
        engine.dispose()
    target = Path(out)
    if target.exists():
        raise CopyError(f"{target} already exists; choose a new file")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    finally:
        copy.close()
        source.close()
    if verdict != "ok":
        target.unlink(missing_ok=True)
        raise CopyError(f"the backup failed its integrity check: {verdict}")
    return target
