"""Benchmark: what the durable intake adds to an update, against the same update fed straight to the application.

    .venv/bin/python bench/bench_intake.py [--wins 100] [--postgres URL]

In one process, on a SQLite file and (when a URL is given or PAIJU_TEST_POSTGRES_URL is set) on PostgreSQL, the same
recorded wins (parsed, scored, booked, answered through an in-process fake Bot API) go
- direct: to `Application.process_update`, one after another (no inbox: what `paiju run` did before);
- one by one: through the inbox as webhook posts arrive in a quiet group — stored (one commit), handed to the
  chat's lane, acknowledged (one commit) — each waited for before the next;
- as a batch: a getUpdates batch of 50 stored in one transaction, then handled.
Three interleaved rounds; the fastest of each mode counts. Printed: wall and CPU ms per update (this process: the
bot and the in-process Bot API), their ratios to direct, the transactions that wrote per update, and how many of
those were durable (an fsync on SQLite, a WAL flush on PostgreSQL; on SQLite a booking made before its update's
acknowledgement needs none of its own: the acknowledgement's sync covers it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa
from telegram import Update

from bot.config import Settings
from bot.core import Bot
from bot.telegram.app import build_application
from bot.telegram.intake import Dispatcher
from bot.telegram.metrics import Metrics
from ledger.db import upgrade
from ledger.inbox import Inbox
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeTelegram, RecordingRequest, Updates, user
from tests.conftest import PostgresSchemas

PLAYERS = [user(501, "阿杰", "ajie"), user(502, "小李", "xiaoli"), user(503, "老王", "laowang")]
BOSS = user(500, "群主", "boss")
WINS = ["胡 清一色 自摸", "胡 七对 点 @ajie", "胡 碰碰胡 自摸"]


class Commits:
    """Counts the transactions through an engine that wrote something, and of those the durable ones (an fsync
    each on SQLite, a WAL flush on PostgreSQL): on SQLite a booking made before its update's acknowledgement
    commits without a sync of its own (`ledger.unit.synced_later`)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.count = self.durable = 0
        self._sqlite = engine.dialect.name == "sqlite"
        sa.event.listen(engine, "before_cursor_execute", self._statement)
        sa.event.listen(engine, "commit", self._commit)

    def _statement(self, connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip()[:6].upper() in {"INSERT", "UPDATE", "DELETE"}:
            connection.info["paiju_bench_wrote"] = True

    def _commit(self, connection: Any) -> None:
        if connection.info.pop("paiju_bench_wrote", False):
            self.count += 1
            if not self._sqlite or self._synchronous(connection) >= 2:  # FULL, EXTRA
                self.durable += 1

    @staticmethod
    def _synchronous(connection: Any) -> int:
        """The commit's SQLite sync level, asked on the driver (inside the measured time: no SQLAlchemy round)."""
        cursor = connection.connection.dbapi_connection.cursor()
        try:
            return int(cursor.execute("PRAGMA synchronous").fetchone()[0])
        finally:
            cursor.close()


class Replies:
    """Wakes a waiter when the fake Bot API has received `n` calls (no polling: it would cost CPU of its own)."""

    def __init__(self, telegram: FakeTelegram) -> None:
        self.count, self._target, self._event = 0, 0, asyncio.Event()
        telegram.on_call = self._one

    def _one(self, _call: Any) -> None:
        self.count += 1
        if self.count >= self._target:
            self._event.set()

    async def wait(self, more: int, since: int) -> None:
        self._target = since + more
        if self.count < self._target:
            self._event.clear()
            await self._event.wait()


async def measure(url: str, wins: int) -> dict[str, tuple[float, float, float, float]]:
    """{mode: (wall ms per update, CPU ms per update, writing commits per update, durable ones per update)}."""
    ledger = Ledger.open(url, upgrade=False)
    telegram = FakeTelegram(admins=[BOSS])
    request = RecordingRequest(telegram)
    app = build_application(
        Settings(), Bot(ledger), "1:BENCH", request=request, get_updates_request=request, rate_limit=False
    )
    await app.initialize()
    updates, ids = Updates(), iter(range(1, 1_000_000))

    def next_win(n: int) -> dict[str, Any]:
        # 阿杰 types every win, naming its winner: one recorder's hands in a row (wins by others at once from
        # several people would be held back as one hand told two ways, not booked)
        said = f"胡 @{PLAYERS[n % 3]['username']} {WINS[n % 3].removeprefix('胡 ')}"
        return {"update_id": next(ids), **updates.message(PLAYERS[0], said)}

    setup = [updates.message(person, "来了") for person in PLAYERS]
    setup.append(updates.message(PLAYERS[0], "开桌 @ajie @xiaoli @laowang"))
    for data in setup:
        await app.process_update(Update.de_json({"update_id": next(ids), **data}, app.bot))
    for n in range(20):  # warm-up: caches, connections, the first hands of the night
        await app.process_update(Update.de_json(next_win(n), app.bot))
    commits, replies = Commits(ledger.engine), Replies(telegram)
    dispatcher = Dispatcher(app, Inbox(ledger.engine, app.bot.id, "bench:1:x"), Metrics())
    await dispatcher.start()

    async def direct(n: int) -> None:
        await app.process_update(Update.de_json(next_win(n), app.bot))

    async def one_by_one(n: int) -> None:
        sent = replies.count
        await dispatcher.receive(next_win(n))
        await replies.wait(1, sent)  # each win is answered with one message

    async def batch(n: int) -> None:
        if n % 50 == 0:
            sent = replies.count
            await dispatcher.receive_batch([next_win(k) for k in range(n, n + 50)])
            await replies.wait(50, sent)

    modes = {"direct": direct, "one by one": one_by_one, "batch of 50": batch}
    best: dict[str, tuple[float, float, float, float]] = {}
    try:
        for _ in range(3):  # interleaved rounds; the fastest round of each counts (the machine may be busy)
            for mode, step in modes.items():
                before, synced = commits.count, commits.durable
                started, cpu = time.perf_counter(), time.process_time()
                for n in range(wins):
                    await step(n)
                elapsed = (time.perf_counter() - started) * 1000 / wins
                used = (time.process_time() - cpu) * 1000 / wins
                if mode not in best or elapsed < best[mode][0]:
                    best[mode] = (elapsed, used, (commits.count - before) / wins, (commits.durable - synced) / wins)
    finally:
        await dispatcher.stop()
        await app.shutdown()
        ledger.close()
    return best


def report(name: str, results: dict[str, tuple[float, float, float, float]]) -> None:
    direct, direct_cpu = results["direct"][:2]
    print(f"\n{name}:")
    for mode, (ms, cpu, commits, durable) in results.items():
        print(
            f"  {mode:<12} {ms:6.2f} ms/update ({ms / direct:4.2f}× direct), CPU {cpu:6.2f} ms "
            f"({cpu / direct_cpu:4.2f}×), {commits:4.2f} commits/update, {durable:4.2f} durable"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wins", type=int, default=100, help="per mode and round (a multiple of 50)")
    parser.add_argument("--postgres", default=os.environ.get("PAIJU_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        upgrade(url)
        report(
            "SQLite (synchronous=FULL, except a booking whose update's acknowledgement syncs it)",
            asyncio.run(measure(url, args.wins)),
        )
    if args.postgres:
        schemas = PostgresSchemas(args.postgres)
        try:
            url = schemas.create()
            upgrade(url)
            report("PostgreSQL", asyncio.run(measure(url, args.wins)))
        finally:
            schemas.drop_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
