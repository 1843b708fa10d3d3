"""Benchmark: what table fees cost a booking — a whole 卡五星 win booked with a 10% cut (抽水) against the same win
in a group without fees, interleaved in one process, median CPU per win and the statements each sends; and 明细 of
a night of N hands against the night's balances (`night_balances`, the settlement's own read).

    .venv/bin/python bench/bench_fees.py [--wins 200] [--hands 300] [--postgres URL]
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqlalchemy as sa
from bench_ledger import postgres_schema

from ledger.service import Ledger

WIN = {"type": "hu", "winner": "C", "method": "self_draw", "hand": {"patterns": ["qingyise"]}}
KONG = {"type": "gang", "player": "A", "kind": "angang"}


def _group(ledger: Ledger, chat: int, fees: bool) -> int:
    ledger.group(chat)
    ids = [ledger.member(chat, chat * 10 - i, name).id for i, name in enumerate("ABC")]
    if fees:
        ledger.set_fees(chat, {"cut_percent": 10, "cut_cap": 500}, source=f"fees:{chat}", by=1)
    return ledger.open_table(chat, ids, source=f"open:{chat}", by=1).id


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def _statements(ledger: Ledger, fn: Callable[[], object]) -> int:
    count = [0]

    def seen(*_args: object) -> None:
        count[0] += 1

    sa.event.listen(ledger.engine, "before_cursor_execute", seen)
    try:
        fn()
    finally:
        sa.event.remove(ledger.engine, "before_cursor_execute", seen)
    return count[0]


def run(url: str, wins: int, hands: int) -> None:
    ledger = Ledger.open(url)
    try:
        plain, with_fees = _group(ledger, -2001, False), _group(ledger, -2002, True)
        tag = secrets.token_hex(3)
        n = iter(range(10**9))

        def win(table: int) -> Callable[[], object]:
            return lambda: ledger.record_event(table, WIN, source=f"w:{tag}:{next(n)}", by=1)

        win(plain)(), win(with_fees)()  # warm up
        cpu_plain, cpu_fees = [], []
        for _ in range(wins):
            cpu_plain.append(_cpu(win(plain)))
            cpu_fees.append(_cpu(win(with_fees)))
        a, b = statistics.median(cpu_plain) * 1000, statistics.median(cpu_fees) * 1000
        s_plain, s_fees = _statements(ledger, win(plain)), _statements(ledger, win(with_fees))
        print(f"  a win, no fees:     {a:.2f} ms CPU, {s_plain} statements")
        print(f"  a win, 10% cut:     {b:.2f} ms CPU, {s_fees} statements   ratio {b / a:.2f}")

        night = ledger.current_night(-2002)
        assert night is not None
        for _ in range(hands):
            ledger.record_event(with_fees, KONG, source=f"k:{tag}:{next(n)}", by=1)
            win(with_fees)()
        details = statistics.median(_cpu(lambda: ledger.night_details(-2002, night.id)) for _ in range(15)) * 1000
        balances = statistics.median(_cpu(lambda: ledger.night_balances(night.id)) for _ in range(15)) * 1000
        print(
            f"  明细 of a night of {2 * hands + wins + 2} hands: {details:.2f} ms CPU; night_balances "
            f"{balances:.2f} ms   ratio {details / balances:.2f}"
        )
    finally:
        ledger.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wins", type=int, default=200)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--postgres", default=os.environ.get("PAIJU_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print("SQLite:")
        run(f"sqlite:///{folder}/bench.db", args.wins, args.hands)
    if args.postgres:
        url, drop = postgres_schema(args.postgres)
        try:
            print("PostgreSQL:")
            run(url, args.wins, args.hands)
        finally:
            drop()


if __name__ == "__main__":
    main()
