"""Fixtures of the Telegram tests: the fake Bot API server over HTTP, and no proxy for its local address."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

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
