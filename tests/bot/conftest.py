"""Fixtures of the bot tests: the fake Bot API server over HTTP, no proxy for its local address, and a bot on a
manual clock over its own SQLite ledger."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.core import Bot, ManualClock
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeBotAPIServer, FakeTelegram, user

#: the chat's owner in the fake Bot API's getChatAdministrators
BOSS = user(500, "群主", "boss")


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
async def server() -> AsyncIterator[FakeBotAPIServer]:
    """A fake Bot API on 127.0.0.1 whose chat is owned by BOSS."""
    fake = FakeBotAPIServer(FakeTelegram(admins=[BOSS]))
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
def bot(sqlite_url: str) -> Iterator[tuple[Bot, ManualClock]]:
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    try:
        yield Bot(ledger, clock=clock), clock
    finally:
        ledger.close()
