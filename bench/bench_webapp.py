"""Benchmark: how soon a page watching the Mini App's board sees a booking typed in the chat.

    .venv/bin/python bench/bench_webapp.py [--kongs 40] [--interval 0.5] [--db URL]

The Mini App is served over HTTP on 127.0.0.1 (its own thread and event loop, as under `paiju run`); a watcher
long-polls `api/board?since=…` from another thread; the chat types 暗杠 lines through the command layer. For each
kong: the time from the start of the typed booking to the watcher holding a board that shows it ("seen"), against
the booking alone (the same line through the same command layer, "booked") — the baseline, in the same run.
Kongs are typed at random moments of the poller's cycle, so "seen" spreads over booking + 0…interval + one read.
The poll interval bounds what the watcher adds (the board follows the chat within `interval` + one board read).
Also printed: the cost of one board read (the poller's work per look) against one `current_table` call.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.webapp import views
from ledger.service import Ledger
from tests.webapp.served import BOSS, GROUP, A, B, C, Chat, FakeGroup, Served, init_data, start_param

TILES = [f"{rank}{suit}" for suit in "ps" for rank in range(1, 10)] + ["5z", "6z", "7z"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kongs", type=int, default=40)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
    ledger = Ledger.open(url, upgrade=True)
    now = lambda: datetime.now(UTC)  # noqa: E731
    telegram = FakeGroup(admins=[BOSS], statuses={u["id"]: "member" for u in (A, B, C)})
    with Served(ledger, telegram, now, poll_interval=args.interval) as served:
        chat = Chat(served.core, frozenset({BOSS["id"]}))
        for user in (A, B, C):
            chat.say(user, "hi")
        seen_at: dict[int, float] = {}
        stop = threading.Event()
        login = init_data(C, now(), start=start_param())

        def watch() -> None:
            version = ""
            while not stop.is_set():
                status, board = served.call(f"api/board?since={version}", init=login, timeout=60)
                if status != 200:
                    raise SystemExit(f"board: HTTP {status} {board}")
                version = board["version"]
                count = len((board.get("table") or {}).get("events", []))
                seen_at.setdefault(count, time.perf_counter())

        booked, seen = [], []
        players = [A, B, C]
        for start in range(0, args.kongs, 18):  # one table holds 18 kongs of distinct tiles at most here
            chat.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
            seen_at.clear()
            watcher = threading.Thread(target=watch, daemon=True)
            stop.clear()
            watcher.start()
            time.sleep(args.interval * 2)
            for i in range(min(18, args.kongs - start)):
                began = time.perf_counter()
                chat.say(players[i % 3], f"暗杠 {TILES[i]}")
                booked.append(time.perf_counter() - began)
                deadline = time.time() + 10
                while i + 1 not in seen_at and time.time() < deadline:
                    time.sleep(0.002)
                seen.append(seen_at.get(i + 1, float("inf")) - began)
                time.sleep(random.uniform(0, args.interval))  # chat at any moment of the poller's cycle
            stop.set()
            chat.say(A, "荒庄")
            watcher.join(args.interval * 3 + 60)
        reads = []
        for _ in range(50):
            began = time.perf_counter()
            views.board(ledger, GROUP, "zh")
            reads.append(time.perf_counter() - began)
        lookups = []
        for _ in range(50):
            began = time.perf_counter()
            ledger.current_table(GROUP)
            lookups.append(time.perf_counter() - began)
    ledger.close()

    def ms(values: list[float], q: int) -> float:
        return 1000 * (statistics.quantiles(values, n=100, method="inclusive")[q - 1] if q < 100 else max(values))

    print(f"database: {url.split('@')[-1]}; poll interval {args.interval * 1000:.0f} ms; {len(seen)} kongs")
    print(f"booked (baseline): p50 {ms(booked, 50):7.1f} ms  p99 {ms(booked, 99):7.1f} ms")
    print(f"seen by the page:  p50 {ms(seen, 50):7.1f} ms  p99 {ms(seen, 99):7.1f} ms  max {ms(seen, 100):7.1f} ms")
    print(f"seen / booked (p50): {statistics.median(seen) / statistics.median(booked):.1f}x")
    read, lookup = statistics.median(reads), statistics.median(lookups)
    print(f"one board read {1000 * read:.1f} ms = {read / lookup:.1f}x one current_table ({1000 * lookup:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
