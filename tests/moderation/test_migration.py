"""Migrations 0002 (moderation) and 0003 (shared state) on both databases: over a populated ledger, down and up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.orm import Session

from ledger import models as m
from ledger.accounts import DEFAULT_GROUP
from ledger.db import downgrade, make_engine, upgrade
from ledger.schema import metadata
from ledger.service import Ledger

MODERATION_TABLES = {"moderation_settings", "moderation_actions", "moderation_rules_texts", "moderation_reminders"}


def _differences(engine: sa.Engine) -> list[object]:
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), metadata))


def _add_member(url: str) -> None:
    """A group with member bob, written as the ledger writes them: groups and members have not changed since 0001,
    while the ledger of today also reads tables of later revisions (a moved chat) when it creates a group."""
    now = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    engine = make_engine(url)
    try:
        with Session(engine) as session, session.begin():
            group = m.Group(
                chat_id=-1, title="", game="kawuxing", rules={"preset": "xiangyang"}, created_at=now, updated_at=now
            )
            for key, value in DEFAULT_GROUP.items():
                setattr(group, key, value)
            session.add(group)
            session.flush()
            session.add(
                m.Member(group_id=group.id, kind="member", user_id=7, display_name="bob", balance=0, created_at=now)
            )
    finally:
        engine.dispose()


def _moderation_only(obj: Any, _name: str | None, type_: str, _reflected: bool, _compare_to: Any) -> bool:
    return (obj if type_ == "table" else obj.table).name in MODERATION_TABLES


def test_0002_upgrades_a_0001_ledger_and_matches_the_models(empty_db_url: str) -> None:
    upgrade(empty_db_url, "0001")
    engine = make_engine(empty_db_url)
    try:
        assert not MODERATION_TABLES & set(sa.inspect(engine).get_table_names())
        upgrade(empty_db_url, "0002")
        assert set(sa.inspect(engine).get_table_names()) >= MODERATION_TABLES
        with engine.connect() as connection:  # its own tables (later revisions change others)
            context = MigrationContext.configure(connection, opts={"include_object": _moderation_only})
            assert compare_metadata(context, metadata) == []
        _add_member(empty_db_url)  # a ledger's rows on the upgraded schema
        downgrade(empty_db_url, "0001")
        names = set(sa.inspect(engine).get_table_names())
        assert not MODERATION_TABLES & names and {"members", "transfers"} <= names
        upgrade(empty_db_url, "head")
    finally:
        engine.dispose()


def test_0003_adds_the_shared_state_table_and_removes_it_again(empty_db_url: str) -> None:
    upgrade(empty_db_url, "0002")
    _add_member(empty_db_url)
    engine = make_engine(empty_db_url)
    try:
        upgrade(empty_db_url, "0003")
        assert "shared_state" in sa.inspect(engine).get_table_names()
        assert [index["name"] for index in sa.inspect(engine).get_indexes("shared_state")] == [
            "ix_shared_state_expires_at"
        ]
        downgrade(empty_db_url, "0002")
        names = set(sa.inspect(engine).get_table_names())
        assert "shared_state" not in names and names >= MODERATION_TABLES
        upgrade(empty_db_url, "head")
        assert _differences(engine) == []
        with Ledger.open(empty_db_url, upgrade=False) as ledger:
            assert [m.display_name for m in ledger.members(-1) if m.kind == "member"] == ["bob"]  # data kept
    finally:
        engine.dispose()
