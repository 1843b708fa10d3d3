"""Benchmark: a payment (付/收到/「已付」) before and after open debts were kept as running totals, as a group's
stored settlements grow, against a fine.

    .venv/bin/python bench/bench_payments.py [--nights 10,10000] [--calls 60] [--postgres URL]

A payment reads the group's open debts under the group's lock before it books; a fine books without reading
anything. "Before" is the code before migration 0011 run in the same process on the same database: the debts
re-derived from every stored settlement's lines, what later nights netted in and the live payments per pair
(`payments.derived_pair_debts`, the function `pair_debts` was), and no running total written. "After" reads the
per-pair running totals (`pair_debts`) and moves one of them with the payment. Each size prints the median wall
and CPU time of `Ledger.pay` (a payment booked, then taken back with `void_payment`, so the debt stays) and of
`Ledger.debts` alone, before and after, with the after/before ratio, and a fine on the same database. Settlements
are bulk-inserted (as many nights, each with three payments among six players) with their running totals.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_ledger import postgres_schema, row, sqlite_url, timed_cpu

from ledger import models as m
from ledger import payments
from ledger.payments import PAYER_SIDE
from ledger.service import Ledger

CHAT = -2002
PLAYERS = 6


@contextmanager
def code(when: str) -> Iterator[None]:
    """The ledger "after", or "before" (as before 0011: debts re-derived on every read, no running total moved)."""
    if when == "after":
        yield
        return
    kept, move = payments.pair_debts, payments.move_debts
    payments.pair_debts = payments.derived_pair_debts  # type: ignore[assignment]
    payments.move_debts = lambda *_args: None  # type: ignore[assignment]
    try:
        yield
    finally:
        payments.pair_debts, payments.move_debts = kept, move  # type: ignore[assignment]


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
            for line in lines:  # the running totals those settlements would have moved (as 0011 fills them)
                low, high = sorted((line["payer_id"], line["payee_id"]))
                sign = 1 if low == line["payer_id"] else -1
                connection.execute(
                    m.PairDebt.__table__.insert(),
                    {"group_id": group_id, "low_id": low, "high_id": high, "amount": sign * line["amount"] * nights},
                )
        debtor, creditor = lines[0]["payer_id"], lines[0]["payee_id"]
        counter = iter(range(10**9))

        def pay() -> None:
            ledger.pay(CHAT, debtor, creditor, 100, side=PAYER_SIDE, source=f"b:pay:{next(counter)}", by=1)

        def undo() -> None:
            ledger.void_payment(CHAT, [debtor, creditor], source=f"b:void:{next(counter)}", by=1)

        def fine() -> None:
            ledger.fine(debtor, 100, "bench", source=f"b:fine:{next(counter)}", by=1)

        measured = {}
        for when in ("before", "after"):
            with code(when):
                assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(CHAT)} == {
                    (line["payer_id"], line["payee_id"]): line["amount"] * nights for line in lines
                }
                measured[when] = timed_cpu(pay, calls, after=undo), timed_cpu(lambda: ledger.debts(CHAT), calls)
        fined = timed_cpu(fine, calls)
        print(f"{name}: {nights:,} stored settlements (median of {calls}; wall / CPU of this process)")
        for index, label in enumerate(("pay (debts read, payment booked)", "debts (read only)")):
            (was_wall, was_cpu), (now_wall, now_cpu) = measured["before"][index], measured["after"][index]
            row(f"{label}, before", f"{was_wall * 1000:.2f} / {was_cpu * 1000:.2f} ms", "", 1.0)
            row(
                f"{label}, after",
                f"{now_wall * 1000:.2f} / {now_cpu * 1000:.2f} ms",
                f"{was_wall * 1000:.2f} ms",
                now_wall / was_wall,
            )
            print(f"  {'':<44} CPU ratio after/before {now_cpu / was_cpu:.3g}")
        row("fine", f"{fined[0] * 1000:.2f} / {fined[1] * 1000:.2f} ms", "", 1.0)
    finally:
        ledger.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", default="10,10000", help="stored settlements of the group")
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
