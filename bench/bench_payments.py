"""Benchmark: a payment (付/收到/「已付」) against a fine, as a group's stored settlements grow.

    .venv/bin/python bench/bench_payments.py [--nights 10,1000,10000] [--calls 60] [--postgres URL]

A payment reads the group's open debts (every stored settlement's lines, what later nights netted in, and the live
payments per pair) under the group's lock before it books; a fine books without reading anything. Each size
prints the median wall and CPU time of `Ledger.pay` (a payment booked, then taken back with `void_payment`, so the
debt stays), of `Ledger.debts` alone, and of `Ledger.fine` on the same database, and their ratio. Settlements are
bulk-inserted (as many nights, each with three payments among six players).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_ledger import postgres_schema, row, sqlite_url, timed_cpu

from ledger import models as m
from ledger.payments import PAYER_SIDE
from ledger.service import Ledger

CHAT = -2002
PLAYERS = 6


def bench(name: str, url: str, nights: int, calls: int) -> None:
    ledger = Ledger.open(url)
    try:
        group_id = ledger.group(CHAT).id
        ids = [ledger.member(CHAT, 20_000 + i, f"P{i}").id for i in range(PLAYERS)]
        now = datetime.now(UTC)
        lines = [{"payer_id": ids[k], "payee_id": ids[k + 3], "amount": 100 * (k + 1)} for k in range(3)]
        rows = [
            {
                "group_id": group_id,
                "night_id": None,
                "payments": [dict(line, payer="", payee="") for line in lines],
                "balances": {},
                "carried": None,
                "exact": True,
                "created_at": now,
                "created_by": None,
            }
            for _ in range(nights)
        ]
        with ledger.engine.begin() as connection:
            connection.execute(m.SettlementRecord.__table__.insert(), rows)
        debtor, creditor = lines[0]["payer_id"], lines[0]["payee_id"]
        counter = iter(range(10**9))

        def pay() -> None:
            ledger.pay(CHAT, debtor, creditor, 100, side=PAYER_SIDE, source=f"b:pay:{next(counter)}", by=1)

        def undo() -> None:
            ledger.void_payment(CHAT, [debtor, creditor], source=f"b:void:{next(counter)}", by=1)

        def fine() -> None:
            ledger.fine(debtor, 100, "bench", source=f"b:fine:{next(counter)}", by=1)

        paid = timed_cpu(pay, calls, after=undo)
        read = timed_cpu(lambda: ledger.debts(CHAT), calls)
        fined = timed_cpu(fine, calls)
        print(f"{name}: {nights:,} stored settlements (median of {calls}; wall / CPU of this process)")
        base = f"{fined[0] * 1000:.2f} / {fined[1] * 1000:.2f} ms"
        for label, (wall, cpu) in (("pay (debts read, payment booked)", paid), ("debts (read only)", read)):
            row(label, f"{wall * 1000:.2f} / {cpu * 1000:.2f} ms", base, wall / fined[0])
    finally:
        ledger.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", default="10,1000,10000", help="stored settlements of the group")
    parser.add_argument("--calls", type=int, default=60, help="calls timed per operation")
    parser.add_argument("--postgres", default=os.environ.get("PAIJU_TEST_POSTGRES_URL"), help="PostgreSQL URL")
    args = parser.parse_args()
    sizes = [int(size) for size in args.nights.split(",")]
    with tempfile.TemporaryDirectory() as directory:
        for size in sizes:
            bench("SQLite", sqlite_url(directory, f"pay-{size}.db"), size, args.calls)
    if args.postgres:
        for size in sizes:
            url, drop = postgres_schema(args.postgres)
            try:
                bench("PostgreSQL", url, size, args.calls)
            finally:
                drop()


if __name__ == "__main__":
    main()
