"""Benchmark: a Bot API call through python-telegram-bot over aiohttp (bot/telegram/http.py, what `paiju run` uses)
against PTB's default httpx request, in the same process.

    .venv/bin/python bench/bench_http.py [--calls 2000] [--at-once 1,32] [--rounds 3]

The fake Bot API server (tests/bot/fake_bot_api.py) runs in a child process, so the CPU counted is the client's
alone: `Bot.send_message` with a 300-character Chinese text (a booking's reply), `--calls` of them one after
another and again with `--at-once` of them in flight together (a busy worker replying in many chats). The two
requests take turns for `--rounds` rounds; printed: the median CPU and wall time per call and the ratio httpx /
aiohttp.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from telegram import Bot
from telegram.request import BaseRequest, HTTPXRequest

from bot.telegram.http import AiohttpRequest

TOKEN = "1:BENCH"
CHAT_ID = -1001234567890
TEXT = "胡 卡五星 点 @xiaoli：阿杰 +16，小李 -16。本晚：阿杰 +40，小李 -12，老王 -28。" * 5
SERVE = """
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from tests.bot.fake_bot_api import FakeBotAPIServer

async def main():
    server = FakeBotAPIServer()
    await server.start()
    print(server.base_url, flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def calls(bot: Bot, count: int, at_once: int) -> tuple[float, float]:
    """(CPU, wall) seconds per call of `count` calls, `at_once` in flight."""
    pending = iter(range(count))

    async def sender() -> None:
        for _ in pending:
            await bot.send_message(CHAT_ID, TEXT)

    started, started_cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(sender() for _ in range(at_once)))
    return (time.process_time() - started_cpu) / count, (time.perf_counter() - started) / count


async def run(count: int, concurrency: list[int], rounds: int) -> None:
    root = Path(__file__).resolve().parent.parent
    environment = {**os.environ, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1"}
    os.environ.update(NO_PROXY=environment["NO_PROXY"], no_proxy=environment["no_proxy"])
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(root)], stdout=subprocess.PIPE, env=environment, text=True
    )
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        requests: dict[str, BaseRequest] = {
            "httpx": HTTPXRequest(connection_pool_size=256),
            "aiohttp": AiohttpRequest(connection_pool_size=256),
        }
        bots = {name: Bot(TOKEN, base_url=base_url, request=request) for name, request in requests.items()}
        for bot in bots.values():
            await bot.initialize()
            await calls(bot, 50, 8)  # warm: connections open, code paths loaded
        print(f"Bot.send_message over HTTP to a fake Bot API in another process, {count} calls, this process's CPU")
        for at_once in concurrency:
            taken: dict[str, list[tuple[float, float]]] = {name: [] for name in bots}
            for _ in range(rounds):
                for name, bot in bots.items():
                    taken[name].append(await calls(bot, count, at_once))
            cpu = {name: statistics.median(t[0] for t in times) for name, times in taken.items()}
            wall = {name: statistics.median(t[1] for t in times) for name, times in taken.items()}
            ratio_cpu, ratio_wall = cpu["httpx"] / cpu["aiohttp"], wall["httpx"] / wall["aiohttp"]
            print(
                f"  {at_once:>3} at once: httpx {cpu['httpx'] * 1e6:6.0f} µs CPU / {wall['httpx'] * 1e6:6.0f} µs wall"
                f"   aiohttp {cpu['aiohttp'] * 1e6:6.0f} / {wall['aiohttp'] * 1e6:6.0f}"
                f"   httpx / aiohttp: CPU {ratio_cpu:4.2f}×  wall {ratio_wall:4.2f}×"
            )
        for bot in bots.values():
            await bot.shutdown()
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--at-once", default="1,32", help="calls in flight together, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.calls, [int(n) for n in args.at_once.split(",")], args.rounds))


if __name__ == "__main__":
    main()
