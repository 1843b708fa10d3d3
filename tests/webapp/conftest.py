"""Fixtures of the Mini App's tests: a group with three seated players and a watcher, served over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.service import Ledger
from tests.webapp.served import BOSS, GROUP, A, B, C, Chat, D, FakeGroup, Served


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
def telegram() -> FakeGroup:
    members = {user["id"]: "member" for user in (A, B, C, D)}
    return FakeGroup(admins=[BOSS], statuses=members)


@pytest.fixture
def served(ledger: Ledger, telegram: FakeGroup, clock: object) -> Iterator[Served]:
    with Served(ledger, telegram, clock) as server:
        yield server


@pytest.fixture
def chat(served: Served) -> Chat:
    """The group after everyone said hello and 阿杰 opened a table (阿杰 deals)."""
    chat = Chat(served.core, frozenset({BOSS["id"]}))
    for user in (A, B, C, D):
        chat.say(user, "晚上好")
    assert "开桌了" in chat.texts(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    return chat


@pytest.fixture
def table_id(ledger: Ledger, chat: Chat) -> int:
    table = ledger.current_table(GROUP)
    assert table is not None
    return table.id
