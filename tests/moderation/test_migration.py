"""Migration 0002 (moderation) on both databases: over a populated 0001 ledger, down and up again."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from ledger.db import downgrade, make_engine, upgrade
from ledger.schema import metadata
from ledger.service import Ledger

MODERATION_TABLES = {"moderation_settings", "moderation_actions", "moderation_rules_texts", "moderation_reminders"}


def test_0002_upgrades_a_0001_ledger_and_matches_the_models(empty_db_url: str) -> None:
    upgrade(empty_db_url, "0001")
    engine = make_engine(empty_db_url)
    try:
        assert not MODERATION_TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(empty_db_url, "0002")
        assert set(sa.inspect(engine).get_table_names()) >= MODERATION_TABLES
        with engine.connect() as connection:  # later revisions add tables of their own: compare these
            differences = compare_metadata(MigrationContext.configure(connection), metadata)
            assert [d for d in differences if _table_of(d) in MODERATION_TABLES or _table_of(d) is None] == []
        with Ledger.open(empty_db_url, upgrade=False) as ledger:
            ledger.member(-1, 7, "bob")  # the ledger works on the upgraded schema
        downgrade(empty_db_url, "0001")
        names = set(sa.inspect(engine).get_table_names())
        assert not MODERATION_TABLES & names and {"members", "transfers"} <= names
        upgrade(empty_db_url, "head")
    finally:
        engine.dispose()


def _table_of(difference: object) -> str | None:
    """The table an Alembic difference concerns (None when it cannot tell)."""
    first = difference[0] if isinstance(difference, list) else difference
    for part in first if isinstance(first, tuple) else ():
        name = getattr(part, "name", None) if isinstance(part, sa.Table) else getattr(part, "table", None)
        if isinstance(name, str):
            return name
        if name is not None and isinstance(getattr(name, "name", None), str):
            return str(name.name)
    return None
