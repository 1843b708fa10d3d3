"""Durable intake against real `paiju run` processes: kill -9 with a backlog of fetched updates (polling) or of
accepted webhook posts, restart, and every update is handled exactly once — booked once, answered at most once,
none lost. SIGTERM finishes the update in hand. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import sqlalchemy as sa

from ledger.db import make_engine
from ledger.inbox import InboxUpdate
from ledger.service import HandRecord, Ledger
from tests.bot.fake_bot_api import CHAT, FakeBotAPIServer, FakeTelegram, Updates, until, user
from tests.bot.processes import SECRET, BotProcess, free_port, write_config

A = user(501, "阿杰", "ajie")
B = user(502, "小李", "xiaoli")
C = user(503, "老王", "laowang")
PLAYERS = (A, B, C)
WINS = 24
RECORDED = re.compile(r"第(\d+)局 记下")


def night() -> list[tuple[dict[str, Any], str]]:
    """Three members speak, a table opens, then WINS self-drawn wins by each player in turn, all typed by 阿杰 (wins
    by others seconds apart from several people would be asked about as one hand told two ways)."""
    script = [(person, "今晚打牌") for person in PLAYERS]
    script.append((A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
    script += [(A, f"胡 @{PLAYERS[i % 3]['username']} 清一色 自摸") for i in range(WINS)]
    return script


def recorded(telegram: FakeTelegram) -> list[int]:
    """Hand numbers of the bot's 'recorded' replies, in the order sent."""
    return [int(m.group(1)) for text in telegram.texts() for m in [RECORDED.search(text)] if m]


def check_ledger(db_url: str) -> None:
    """Every win booked once, by the right player, in the order sent; every stored update done."""
    ledger = Ledger.open(db_url, upgrade=False)
    try:
        hands = ledger.history(CHAT["id"], 100)
        assert len(hands) == WINS
        winners = [[e.get("winner") for e in h.events if e["type"] == "hu"] for h in sorted(hands, key=_number)]
        assert winners == [[PLAYERS[i % 3]["first_name"]] for i in range(WINS)]  # in the order sent
        assert sum(ledger.balances(CHAT["id"]).of(m.id) for m in ledger.members(CHAT["id"])) == 0
    finally:
        ledger.close()
    engine = make_engine(db_url)
    try:
        with engine.connect() as connection:
            left = connection.scalar(sa.select(sa.func.count()).where(InboxUpdate.done_at.is_(None)))
    finally:
        engine.dispose()
    assert left == 0


def _number(hand: HandRecord) -> int:
    return hand.number


def check_replies(telegram: FakeTelegram, *, kills: int) -> None:
    """No reply twice; at most one reply per kill lost (the one being sent when the process died)."""
    numbers = recorded(telegram)
    assert [n for n, seen in Counter(numbers).items() if seen > 1] == []
    assert len(numbers) >= WINS - kills, numbers


async def test_kill_9_while_polling_with_a_backlog_loses_and_repeats_nothing(
    server: FakeBotAPIServer, db_url: str, tmp_path: Path
) -> None:
    """The slow Bot API leaves most fetched updates waiting when the process dies; today's polling confirmed them
    to Telegram on the next getUpdates and lost them."""
    updates = Updates()
    for sender, text in night():
        server.push(updates.message(sender, text))
    server.telegram.delay["sendMessage"] = 0.2  # replies are slow: a backlog builds up
    config = write_config(tmp_path / "config.toml", base_url=server.base_url)
    first = BotProcess(config, db_url, tmp_path / "bot1.log").start()
    try:
        await until(lambda: len(recorded(server.telegram)) >= 6, "the first wins to be answered", 60)
        assert set(server.telegram.fetched) == {u["update_id"] for u in server.telegram.updates}  # all fetched
    finally:
        await first.kill()
    answered_before = len(recorded(server.telegram))
    assert answered_before < WINS  # the kill left a backlog
    server.telegram.delay.clear()
    second = BotProcess(config, db_url, tmp_path / "bot2.log").start()
    try:
        await until(lambda: len(set(recorded(server.telegram))) >= WINS - 1, "the rest to be answered", 60)
        await asyncio.sleep(1.0)  # a duplicate answer would arrive now
    finally:
        assert await second.terminate() == 0
    check_ledger(db_url)
    check_replies(server.telegram, kills=1)
    logs = first.output() + second.output()
    assert "Traceback" not in logs and "E2E-TOKEN" not in logs


async def test_kill_9_after_webhook_posts_were_accepted_loses_and_repeats_nothing(
    server: FakeBotAPIServer, db_url: str, tmp_path: Path
) -> None:
    """A 200 answer means stored: what the killed worker accepted, the restarted one handles."""
    port = free_port()
    config = write_config(
        tmp_path / "config.toml", base_url=server.base_url, port=port, webhook_url="https://bot.example.org/paiju"
    )
    worker = BotProcess(config, db_url, tmp_path / "bot1.log", webhook=True, port=port).start()
    server.telegram.delay["sendMessage"] = 0.2
    updates = Updates()
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    async with aiohttp.ClientSession() as session:
        await until(lambda: bool(server.telegram.sent("setWebhook")), "the worker to register its webhook", 60)
        for number, (sender, text) in enumerate(night(), 1):
            async with session.post(
                f"{worker.url}/paiju", json={"update_id": number, **updates.message(sender, text)}, headers=headers
            ) as answer:
                assert answer.status == 200
    try:
        await until(lambda: len(recorded(server.telegram)) >= 6, "the first wins to be answered", 60)
    finally:
        await worker.kill()
    assert len(recorded(server.telegram)) < WINS
    server.telegram.delay.clear()
    again = BotProcess(config, db_url, tmp_path / "bot2.log", webhook=True, port=port).start()
    try:
        await until(lambda: len(set(recorded(server.telegram))) >= WINS - 1, "the rest to be answered", 60)
        await asyncio.sleep(1.0)
    finally:
        assert await again.terminate() == 0
    check_ledger(db_url)
    check_replies(server.telegram, kills=1)


async def test_sigterm_finishes_the_update_in_hand_and_leaves_the_rest_stored(
    server: FakeBotAPIServer, sqlite_url: str, tmp_path: Path
) -> None:
    updates = Updates()
    for sender, text in night():
        server.push(updates.message(sender, text))
    server.telegram.delay["sendMessage"] = 0.5
    config = write_config(tmp_path / "config.toml", base_url=server.base_url)
    first = BotProcess(config, sqlite_url, tmp_path / "bot1.log").start()
    await until(lambda: len(recorded(server.telegram)) >= 2, "the first wins to be answered", 60)
    in_flight = len(server.telegram.sent())
    assert await first.terminate() == 0  # waits for the reply being sent (0.5 s), then exits cleanly
    answered = recorded(server.telegram)
    assert len(server.telegram.sent()) >= in_flight and answered == list(range(1, len(answered) + 1))
    assert "stopping: finishing the updates in hand" in first.output()
    server.telegram.delay.clear()
    second = BotProcess(config, sqlite_url, tmp_path / "bot2.log").start()
    try:
        await until(lambda: len(recorded(server.telegram)) >= WINS, "the rest to be answered", 60)
        await asyncio.sleep(1.0)
    finally:
        assert await second.terminate() == 0
    check_ledger(sqlite_url)
    check_replies(server.telegram, kills=0)  # a graceful stop loses no reply either
