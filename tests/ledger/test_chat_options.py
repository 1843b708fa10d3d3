"""Chat options (what 明杠 means in a group): stored per group, defaulting to 直杠, checked by the database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ledger.chat_options import ChatOptions, minggang, set_minggang
from ledger.service import Ledger

from .helpers import CHAT


def test_minggang_is_zhigang_until_the_group_says_otherwise(ledger: Ledger) -> None:
    group = ledger.group(CHAT)
    other = ledger.group(CHAT - 1)
    assert minggang(ledger.engine, group.id) == "zhigang"
    set_minggang(ledger.engine, group.id, "xugang", by=42)
    assert (minggang(ledger.engine, group.id), minggang(ledger.engine, other.id)) == ("xugang", "zhigang")
    set_minggang(ledger.engine, group.id, "zhigang", by=43)
    assert minggang(ledger.engine, group.id) == "zhigang"


def test_setting_the_same_value_again_changes_nothing(ledger: Ledger) -> None:
    group = ledger.group(CHAT)
    first = datetime(2026, 1, 1, tzinfo=UTC)
    set_minggang(ledger.engine, group.id, "xugang", by=1, now=first)
    set_minggang(ledger.engine, group.id, "xugang", by=2, now=datetime(2026, 2, 1, tzinfo=UTC))
    with ledger.engine.connect() as connection:
        row = connection.execute(sa.select(ChatOptions.updated_at, ChatOptions.updated_by)).one()
    assert (row.updated_at.astimezone(UTC), row.updated_by) == (first, 1)


def test_only_the_two_kongs_are_accepted(ledger: Ledger) -> None:
    group = ledger.group(CHAT)
    with pytest.raises(ValueError, match="peng"):
        set_minggang(ledger.engine, group.id, "peng", by=1)
    with pytest.raises(IntegrityError), ledger.engine.begin() as connection:
        connection.execute(
            sa.insert(ChatOptions).values(group_id=group.id, minggang="peng", updated_at=datetime.now(UTC))
        )
    assert minggang(ledger.engine, group.id) == "zhigang"
