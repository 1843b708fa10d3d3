"""Several `paiju run --webhook` workers on one database, fed round-robin as a reverse proxy would: the work is
shared, each chat's updates are booked in the order sent, and when one worker is killed (kill -9) mid-stream the
others take its chats over — nothing lost, nothing booked or answered twice. Two workers on SQLite and
PostgreSQL, four on PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeBotAPIServer, FakeTelegram, Updates, until, user
from tests.bot.processes import SECRET, BotProcess, free_port, write_config

PLAYERS = (user(501, "阿杰", "ajie"), user(502, "小李", "xiaoli"), user(503, "老王", "laowang"))
CHATS = [{"id": -1001000000000 - n, "type": "supergroup", "title": f"第{n}桌"} for n in range(6)]
WINS = 9
RECORDED = re.compile(r"第(\d+)局 记下")


def nights() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(chat, update) for every chat's night, interleaved as the groups play at the same time."""
    scripts = []
    for chat in CHATS:
        updates = Updates(chat)
        script = [updates.message(person, "今晚打牌") for person in PLAYERS]
        script.append(updates.message(PLAYERS[0], "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        # each win typed by 阿杰: wins by others seconds apart from several people would be asked about
        script += [updates.message(PLAYERS[0], f"胡 @{PLAYERS[i % 3]['username']} 清一色 自摸") for i in range(WINS)]
        scripts.append([(chat, update) for update in script])
    return [step for round_ in itertools.zip_longest(*scripts) for step in round_ if step is not None]


def recorded(telegram: FakeTelegram) -> Counter[tuple[int, int]]:
    """(chat, hand number) of every 'recorded' reply, with how often it was sent."""
    found: Counter[tuple[int, int]] = Counter()
    for params in telegram.sent():
        match = RECORDED.search(str(params["text"]))
        if match:
            found[(int(params["chat_id"]), int(match.group(1)))] += 1
    return found


async def run_workers(server: FakeBotAPIServer, db_url: str, tmp_path: Path, count: int) -> None:
    ports = [free_port() for _ in range(count)]
    workers = []
    for index, port in enumerate(ports):
        config = write_config(
            tmp_path / f"worker{index}.toml",
            base_url=server.base_url,
            port=port,
            webhook_url="https://bot.example.org/paiju",
            lease_seconds=5,
        )
        workers.append(BotProcess(config, db_url, tmp_path / f"worker{index}.log", webhook=True, port=port).start())
    server.telegram.delay["sendMessage"] = 0.05  # replies take a while, so chats overlap
    steps = nights()
    alive = list(workers)
    try:
        async with aiohttp.ClientSession() as session:
            for worker in workers:
                await until(lambda w=worker: "ready (webhook)" in w.output(), "every worker to start", 90)
            for number, (_, update) in enumerate(steps, 1):
                if number == len(steps) // 2:
                    await alive.pop(0).kill()  # mid-stream, with updates of its chats stored and unhandled
                worker = alive[number % len(alive)]  # round-robin, as the reverse proxy does
                headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
                async with session.post(
                    f"{worker.url}/paiju", json={"update_id": number, **update}, headers=headers
                ) as answer:
                    assert answer.status == 200
                await asyncio.sleep(0.01)
            expected = len(CHATS) * WINS
            await until(lambda: len(recorded(server.telegram)) >= expected - 8, "every win to be answered", 120)
            await asyncio.sleep(1.5)  # a late duplicate would show now
            handled = []
            for worker in alive:
                async with session.get(f"{worker.url}/metrics") as answer:
                    text = await answer.text()
                handled.append(
                    sum(
                        float(line.split()[-1])
                        for line in text.splitlines()
                        if line.startswith("paiju_updates_total{") and 'outcome="handled"' in line
                    )
                )
    finally:
        for worker in alive:
            assert await worker.terminate() == 0
    assert all(count > 0 for count in handled), handled  # every surviving worker took a share
    replies = recorded(server.telegram)
    assert [key for key, sent in replies.items() if sent > 1] == []  # nothing answered twice
    assert len(replies) >= len(CHATS) * WINS - 8  # at most the killed worker's updates in hand lost their reply
    ledger = Ledger.open(db_url, upgrade=False)
    try:
        for chat in CHATS:
            hands = sorted(ledger.history(chat["id"], 100), key=lambda hand: hand.number)
            winners = [[e.get("winner") for e in hand.events if e["type"] == "hu"] for hand in hands]
            assert winners == [[PLAYERS[i % 3]["first_name"]] for i in range(WINS)], chat  # once each, in order
            assert sum(ledger.balances(chat["id"]).of(m.id) for m in ledger.members(chat["id"])) == 0
    finally:
        ledger.close()
    logs = "".join(worker.output() for worker in workers)
    assert "Traceback" not in logs and "E2E-TOKEN" not in logs


async def test_two_workers_share_the_chats_and_survive_one_killed(
    server: FakeBotAPIServer, db_url: str, tmp_path: Path
) -> None:
    await run_workers(server, db_url, tmp_path, 2)


@pytest.mark.postgresql
async def test_four_workers_on_postgresql_share_the_chats_and_survive_one_killed(
    server: FakeBotAPIServer, postgres_schemas: Any, tmp_path: Path
) -> None:
    from ledger.db import upgrade

    url = postgres_schemas.create()
    upgrade(url)
    await run_workers(server, url, tmp_path, 4)
