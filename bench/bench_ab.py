"""In-process A/B of a change on a win's path: the wins of bench_bot.py, through `Application.process_update`
inside their delivery, alternate between variant A and variant B in one process (A B B A …), each followed by the
echo, so a busy machine slows both alike. Prints the medians of CPU (this process, every thread) and wall time per
win of each variant, B against A, and both against the echo.

    .venv/bin/python bench/bench_ab.py VARIANT.py [--wins 1000] [--db URL]

VARIANT.py defines `toggle(on: bool)`, which switches the code under test to variant B (True) or back to A (False)
— typically by swapping a module attribute — and may define `setup(ledger, core)`, called once the table is open.
The end-to-end benchmark's windows, minutes apart, cannot see a few per cent on a shared machine; this can
(a variant that changes nothing reads within ±1 %).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram.ext import Application, MessageHandler, filters

from bench.bench_bot import BOSS, CHAT, PACE, PLAYERS, WINS, Run, _echo
from bench.bench_ledger import postgres_schema
from bot.config import Settings
from bot.core import Bot, ManualClock
from bot.telegram.app import build_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeTelegram, RecordingRequest


def load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("variant", path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def run(variant: Any, wins: int, url: str | None) -> None:
    request = RecordingRequest(FakeTelegram(admins=[BOSS]))
    with tempfile.TemporaryDirectory(prefix="paiju-ab-") as scratch:
        clock = ManualClock()
        drop = None
        if url is not None and url.startswith("postgres"):
            url, drop = postgres_schema(url)
        ledger = Ledger.open(url or f"sqlite:///{Path(scratch) / 'bench.db'}", clock=clock.now)
        core = Bot(ledger, clock=clock)
        app = build_application(
            Settings(), core, "1:BENCH", request=request, get_updates_request=request, rate_limit=False
        )
        echo = Application.builder().token("1:BENCH").request(request).get_updates_request(request).build()
        echo.add_handler(MessageHandler(filters.TEXT, _echo))
        await app.initialize()
        await echo.initialize()
        runner = Run(app, echo, clock, straight=False)
        for player in PLAYERS:
            await runner.feed(app, runner.builder.message(player, "来了"))
        await runner.feed(app, runner.builder.message(PLAYERS[0], "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        if hasattr(variant, "setup"):
            variant.setup(ledger, core)
        for on in (False, True):  # warm both up
            variant.toggle(on)
            await runner.measure(20, 0)
        before = len(ledger.history(CHAT, 100_000))
        times: dict[Any, list[tuple[float, float]]] = {False: [], True: [], "echo": []}
        for i in range(wins):
            on = (i % 2 == 1) != (i // 2 % 2 == 1)  # A B B A: neither variant always goes first
            variant.toggle(on)
            winner, text = WINS[i % len(WINS)]
            data = runner.builder.message(PLAYERS[0], f"胡 @{PLAYERS[winner]['username']} {text.removeprefix('胡 ')}")
            clock.advance(PACE)
            times[on].append(await runner.feed(app, data))
            times["echo"].append(await runner.feed(echo, data))
        booked = len(ledger.history(CHAT, 100_000)) - before
        await app.shutdown()
        await echo.shutdown()
        ledger.close()
        if drop is not None:
            drop()
    if booked != wins:
        raise SystemExit(f"only {booked} of {wins} wins were booked: the A/B measured refusals")

    def median(kind: Any, which: int) -> float:
        return statistics.median(t[which] for t in times[kind]) * 1000

    a_cpu, b_cpu, a_wall, b_wall = median(False, 1), median(True, 1), median(False, 0), median(True, 0)
    echo_cpu = median("echo", 1)
    print(
        f"A {a_cpu:.3f} ms CPU / {a_wall:.3f} ms wall, B {b_cpu:.3f} / {b_wall:.3f} ({wins // 2} wins each): "
        f"B against A {100 * (b_cpu / a_cpu - 1):+.1f} % CPU, {100 * (b_wall / a_wall - 1):+.1f} % wall; "
        f"echo {echo_cpu:.3f} ms CPU: A {a_cpu / echo_cpu:.1f}×, B {b_cpu / echo_cpu:.1f}×"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", help="a module defining toggle(on) (and optionally setup(ledger, core))")
    parser.add_argument("--wins", type=int, default=1000, help="wins measured, half of them each variant")
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file; PostgreSQL: a private schema)")
    args = parser.parse_args()
    asyncio.run(run(load(args.variant), args.wins, args.db))


if __name__ == "__main__":
    main()
