"""Benchmark: recorded wins per second through the Telegram path, against a no-op echo through the same path.

    .venv/bin/python bench/bench_bot.py [--wins 300] [--db URL]

Both workloads build real `Update` objects (`Update.de_json`) and feed them to `Application.process_update`;
the Bot API is a `BaseRequest` that answers in-process (tests/bot/fake_bot_api.py), so no network time is counted.
- wins: `胡 123p46p789s22s333s 5p 点 @xiaoli`-style messages through the whole bot — message filters (moderation),
  grammar, tiles parsed, the hand scored by the 卡五星 core, booked in the ledger (SQLite file, WAL, one
  transaction, idempotency row), the reply rendered with every player's night balance and sent;
- echo: the same updates through an Application whose only handler sends the text back (the PTB floor).
Printed: updates/s for each, their ratio, and p50/p99 latency per update.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram import Update
from telegram.ext import Application, ContextTypes, MessageHandler, filters

from bot.config import Settings
from bot.core import Bot, ManualClock
from bot.telegram.app import build_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeTelegram, RecordingRequest, Updates, user

PLAYERS = [user(501, "阿杰", "ajie"), user(502, "小李", "xiaoli"), user(503, "老王", "laowang")]
BOSS = user(500, "群主", "boss")
#: (winner index, text): every one a finished, valid hand, so each message books a new hand
WINS = [
    (0, "胡 123p46p789s22s333s 5p 点 @xiaoli"),
    (1, "胡 1122334456677p 5p 自摸"),
    (2, "胡 2245556p123s999s 5p 点 @ajie"),
    (0, "胡 清一色 七对 自摸"),
    (1, "胡 777z666z55z123p99s 5z 自摸"),
    (2, "胡 卡五星 点 @xiaoli"),
]


async def _measure(app: Application, updates: list[dict[str, Any]], clock: ManualClock | None) -> list[float]:  # type: ignore[type-arg]
    latencies = []
    for number, data in enumerate(updates, 1):
        update = Update.de_json({"update_id": number, **data}, app.bot)
        if clock is not None:
            clock.advance(timedelta(minutes=2))  # a table's pace, so flood rules stay quiet
        started = time.perf_counter()
        await app.process_update(update)
        latencies.append(time.perf_counter() - started)
    return latencies


async def _echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message is not None and update.effective_message.text is not None:
        await context.bot.send_message(update.effective_message.chat_id, update.effective_message.text)


def _report(name: str, latencies: list[float]) -> float:
    rate = len(latencies) / sum(latencies)
    cuts = statistics.quantiles(latencies, n=100)
    print(f"{name:<34} {rate:9.1f} updates/s   p50 {cuts[49] * 1000:7.2f} ms   p99 {cuts[98] * 1000:7.2f} ms")
    return rate


async def run(wins: int, url: str | None) -> None:
    telegram = FakeTelegram(admins=[BOSS])
    request = RecordingRequest(telegram)
    builder = Updates()
    with tempfile.TemporaryDirectory(prefix="paiju-bench-") as scratch:
        clock = ManualClock()
        ledger = Ledger.open(url or f"sqlite:///{Path(scratch) / 'bench.db'}", clock=clock.now)
        app = build_application(
            Settings(),
            Bot(ledger, clock=clock),
            "1:BENCH",
            request=request,
            get_updates_request=request,
            rate_limit=False,
        )
        echo = Application.builder().token("1:BENCH").request(request).get_updates_request(request).build()
        echo.add_handler(MessageHandler(filters.TEXT, _echo))
        await app.initialize()
        await echo.initialize()
        setup = [builder.message(p, "来了") for p in PLAYERS]
        setup.append(builder.message(PLAYERS[0], "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        await _measure(app, setup, clock)
        records = [builder.message(PLAYERS[WINS[i % len(WINS)][0]], WINS[i % len(WINS)][1]) for i in range(wins)]
        before = len(ledger.history(-1001234567890, 1000))
        booked = await _measure(app, records, clock)
        echoed = await _measure(echo, records, None)
        hands = len(ledger.history(-1001234567890, 1000)) - before
        await app.shutdown()
        await echo.shutdown()
        ledger.close()
    if hands != wins:
        raise SystemExit(f"only {hands} of {wins} wins were booked: the benchmark measured refusals")
    print(f"{wins} recorded wins ({len(WINS)} kinds: tiles and named patterns, discards and self-draws), SQLite WAL")
    win_rate = _report("recorded wins (parse+score+book)", booked)
    echo_rate = _report("no-op echo (same path)", echoed)
    print(f"ratio echo/wins: {echo_rate / win_rate:.1f}× — a recorded win costs {1000 / win_rate:.2f} ms end to end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wins", type=int, default=300)
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    asyncio.run(run(args.wins, args.db))


if __name__ == "__main__":
    main()
