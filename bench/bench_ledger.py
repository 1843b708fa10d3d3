"""Benchmark: the ledger's bookings per second, balance queries at 10k/100k/1M transfers, settlement time.

    .venv/bin/python bench/bench_ledger.py [--sizes 10000,100000,1000000] [--bookings 300] [--postgres URL]

Each number is printed next to a baseline measured in the same process, and their ratio:
- bookings/s: fines and kong events through `Ledger` (operation row, idempotency check, transfer, running
  totals, stored result, one transaction each) against a bare one-row INSERT per transaction on the same engine;
- a whole 卡五星 win (`record_hand`: tiles scored, hand closed, dealer moved, every running total kept, the
  idempotency row, one transaction) against inserting the same rows with bare SQLAlchemy Core in one transaction
  (the hand with its answer, the event, the transfers, the night totals, the operation row with its result);
  median wall and CPU per call, the two interleaved, and the statements each sends;
- per operation (median ms, wall and CPU): `fine`, `record_event` (a kong), `record_events` (a 卡五星 win that
  closes the hand), `night_balances`, `current_table`, against the same bare INSERT transaction;
- all-time balances of every member of a group holding N transfers: `Ledger.balances` (running totals kept in
  the booking's transaction) against the naive query, SUM over the group's live transfers. The transfers are
  bulk-loaded (executemany on SQLite, COPY on PostgreSQL) and the running totals set from them;
- settlement of 15 and 30 players: the exact subset programme (greedy beyond its limit) against plain greedy
  matching, with the number of payments each needs.
PostgreSQL runs when `--postgres` or PAIJU_TEST_POSTGRES_URL names a server (in a private schema, dropped after).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa

from ledger import db
from ledger import models as m
from ledger.codec import encode
from ledger.events import Meld, Win, WinHand
from ledger.service import Ledger
from ledger.settlement import EXACT_LIMIT, _greedy, settle
from ledger.transfers import _ADD_TO_NIGHT

CHAT = -1001
MEMBERS = 12


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds of `repeat` calls."""
    return timed_cpu(fn, repeat)[0]


def timed_cpu(fn: Callable[[], object], repeat: int, after: Callable[[], object] | None = None) -> tuple[float, float]:
    """Median wall and median CPU seconds of `repeat` calls (CPU: this process only, so the share of a loaded
    machine's cores it got does not count). `after` runs untimed after each call."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpus.append(time.process_time() - start_cpu)
        walls.append(time.perf_counter() - start)
        if after is not None:
            after()
    return statistics.median(walls), statistics.median(cpus)


def row(label: str, value: str, baseline: str, ratio: float) -> None:
    print(f"  {label:<44} {value:>14}   baseline {baseline:>14}   ratio {ratio:8.3g}")


# ------------------------------------------------------------------------------------------- databases


def sqlite_url(directory: str, name: str) -> str:
    return f"sqlite:///{Path(directory) / name}"


def postgres_schema(url: str) -> tuple[str, Callable[[], None]]:
    """A private schema on the server and a function that drops it."""
    name = f"paiju_bench_{secrets.token_hex(4)}"
    admin = db.make_engine(url)
    with admin.begin() as connection:
        connection.exec_driver_sql(f'CREATE SCHEMA "{name}"')
    parsed = sa.engine.make_url(db.normalize_url(url)).update_query_dict({"options": f"-csearch_path={name}"})

    def drop() -> None:
        with admin.begin() as connection:
            connection.exec_driver_sql(f'DROP SCHEMA "{name}" CASCADE')
        admin.dispose()

    return parsed.render_as_string(hide_password=False), drop


def fresh_ledger(url: str) -> tuple[Ledger, list[int], int]:
    ledger = Ledger.open(url)
    ledger.group(CHAT)
    ids = [ledger.member(CHAT, 10_000 + i, f"P{i}").id for i in range(MEMBERS)]
    table = ledger.open_table(CHAT, ids[:3], source="bench:open", by=None)
    return ledger, ids, table.id


# -------------------------------------------------------------------------------------------- bookings


def bench_bookings(name: str, url: str, count: int) -> None:
    ledger, ids, table_id = fresh_ledger(url)
    group_id = ledger.group(CHAT).id
    now = datetime.now(UTC)

    def fines() -> None:
        for i in range(count):
            ledger.fine(ids[i % MEMBERS], 100, "bench", source=f"bench:fine:{i}", by=None)

    def kongs() -> None:  # a kong booked, then undone: two scored, idempotent operations
        for i in range(count // 2):
            ledger.record_event(
                table_id, {"type": "gang", "player": "P1", "kind": "angang"}, source=f"bench:kong:{i}", by=None
            )
            ledger.undo(table_id, source=f"bench:undo:{i}", by=None)

    insert = sa.insert(m.Transfer)

    def bare_inserts() -> None:
        for i in range(count):
            with ledger.engine.begin() as connection:
                connection.execute(
                    insert,
                    {
                        "group_id": group_id,
                        "payer_id": ids[i % MEMBERS],
                        "payee_id": ids[(i + 1) % MEMBERS],
                        "amount": 100,
                        "reason": "baseline",
                        "kind": m.FINE,
                        "source": f"bench:bare:{i}",
                        "created_at": now,
                    },
                )

    base = timed(bare_inserts, 1)
    fine_time = timed(fines, 1)
    kong_time = timed(kongs, 1)
    print(f"{name}: bookings ({count} each)")
    row("fines booked per second", f"{count / fine_time:,.0f}/s", f"{count / base:,.0f}/s", fine_time / base)
    row(
        "kong events recorded+undone per second",
        f"{count / kong_time:,.0f}/s",
        f"{count / base:,.0f}/s",
        kong_time / base,
    )
    ledger.close()


# ------------------------------------------------------------------------------------------- a whole win

#: a self-drawn 卡五星 win typed with its tiles: the hand is evaluated, scored and closed in one booking
WIN = Win("P1", "self_draw", WinHand("123p46p789s22s", "5p", (Meld("peng", "3s"),)))


def bench_win(name: str, url: str, count: int) -> None:
    """A whole win through the ledger against the bare Core insert of the rows it writes, interleaved."""
    moment = datetime(2026, 1, 10, 12, tzinfo=UTC)  # a fixed evening: no 日切 passes during the run
    ledger = Ledger.open(url, clock=lambda: moment)
    chat = CHAT - 1
    ledger.group(chat)
    ids = [ledger.member(chat, 20_000 + i, f"P{i}").id for i in range(3)]
    table = ledger.open_table(chat, ids, source="bench:win:open", by=None)
    sample = ledger.record_hand(table.id, [WIN], source="bench:win:sample", by=None)
    calls = iter(range(10**9))
    rows = {
        "hand": sa.insert(m.Hand).returning(m.Hand.id),
        "event": sa.insert(m.HandEvent).returning(m.HandEvent.id),
        "transfers": sa.insert(m.Transfer),
        "totals": _ADD_TO_NIGHT[ledger.engine.dialect.name],
        "operation": sa.insert(m.Operation),
    }
    result = {"value": encode(sample), "call": "0" * 32}

    def bare() -> None:
        i = next(calls)
        source = f"bench:bare-win:{i}"
        with ledger.engine.begin() as connection:
            hand = connection.execute(
                rows["hand"],
                {
                    "group_id": table.group_id,
                    "table_id": table.id,
                    "number": i,
                    "dealer": "P0",
                    "status": m.CLOSED,
                    "answer": sample.answer,
                    "created_at": moment,
                    "closed_at": moment,
                },
            ).scalar_one()
            event = connection.execute(
                rows["event"], {"hand_id": hand, "payload": sample.events[0], "source": source, "created_at": moment}
            ).scalar_one()
            connection.execute(
                rows["transfers"],
                [
                    {
                        "group_id": table.group_id,
                        "payer_id": t.payer_id,
                        "payee_id": t.payee_id,
                        "amount": t.amount,
                        "reason": t.reason,
                        "kind": m.HAND,
                        "night_id": table.night_id,
                        "table_id": table.id,
                        "hand_id": hand,
                        "event_id": event,
                        "source": source,
                        "created_at": moment,
                    }
                    for t in sample.booked
                ],
            )
            connection.execute(
                rows["totals"], [{"night_id": table.night_id, "member_id": i, "amount": 0} for i in sorted(ids)]
            ).all()
            connection.execute(
                rows["operation"], {"source": source, "kind": "record", "result": result, "created_at": moment}
            )

    def book() -> None:
        ledger.record_hand(table.id, [WIN], source=f"bench:win:{next(calls)}", by=None)

    statements = {"bare": 0, "ledger": 0}
    counting = ["ledger"]

    @sa.event.listens_for(ledger.engine, "before_cursor_execute")
    def _count(*_args: object) -> None:
        statements[counting[0]] += 1

    for label, work in (("ledger", book), ("bare", bare)):
        counting[0] = label
        work()
    sa.event.remove(ledger.engine, "before_cursor_execute", _count)
    for _ in range(20):  # warm up both
        book()
        bare()
    print(f"{name}: a whole 卡五星 win (median of {count}, interleaved; wall / CPU of this process)")
    times: dict[str, tuple[list[float], list[float]]] = {"bare": ([], []), "ledger": ([], [])}
    for _ in range(count):
        for label, work in (("bare", bare), ("ledger", book)):
            start, start_cpu = time.perf_counter(), time.process_time()
            work()
            times[label][1].append(time.process_time() - start_cpu)
            times[label][0].append(time.perf_counter() - start)
    (bare_wall, bare_cpu), (win_wall, win_cpu) = (
        (statistics.median(times[label][0]), statistics.median(times[label][1])) for label in ("bare", "ledger")
    )
    print(f"  statements per call: ledger {statements['ledger']}, bare insert {statements['bare']} (BEGIN/COMMIT too)")
    row("record_hand (win) — wall", f"{win_wall * 1000:.2f} ms", f"{bare_wall * 1000:.2f} ms", win_wall / bare_wall)
    row("record_hand (win) — CPU", f"{win_cpu * 1000:.2f} ms", f"{bare_cpu * 1000:.2f} ms", win_cpu / bare_cpu)
    ledger.close()


# ------------------------------------------------------------------------------------------ per operation

#: C waits on 5p for 卡五星 (4-6 筒 around the 5): 123p 46p 789s 22s + 碰 3s
KAWUXING_HAND = {"concealed": "123p46p789s22s", "melds": [{"kind": "peng", "tile": "3s"}], "win_tile": "5p"}


def bench_operations(name: str, url: str, count: int) -> None:
    """Median wall/CPU milliseconds of single calls the bot makes, next to a bare one-row INSERT transaction."""
    ledger, ids, table_id = fresh_ledger(url)
    group_id = ledger.group(CHAT).id
    night_id = ledger.table(table_id).night_id
    calls = iter(range(10**9))
    insert = sa.insert(m.Transfer)
    now = datetime.now(UTC)

    def bare_insert() -> None:
        with ledger.engine.begin() as connection:
            i = next(calls)
            connection.execute(
                insert,
                {
                    "group_id": group_id,
                    "payer_id": ids[i % MEMBERS],
                    "payee_id": ids[(i + 1) % MEMBERS],
                    "amount": 100,
                    "reason": "baseline",
                    "kind": m.FINE,
                    "source": f"bench:op-bare:{i}",
                    "created_at": now,
                },
            )

    def fine() -> None:
        i = next(calls)
        ledger.fine(ids[i % MEMBERS], 100, "bench", source=f"bench:op-fine:{i}", by=None)

    def kong() -> None:  # undone (untimed) after each call, so the hand never holds more than one kong
        event = {"type": "gang", "player": "P1", "kind": "angang"}
        ledger.record_event(table_id, event, source=f"bench:op-kong:{next(calls)}", by=None)

    def undo() -> None:
        ledger.undo(table_id, source=f"bench:op-undo:{next(calls)}", by=None)

    def win() -> None:  # closes the hand: the next call starts a new one
        event = {"type": "hu", "winner": "P2", "method": "self_draw", "hand": KAWUXING_HAND}
        ledger.record_events(table_id, [event], source=f"bench:op-win:{next(calls)}", by=None)

    operations: list[tuple[str, Callable[[], object], Callable[[], object] | None]] = [
        ("fine", fine, None),
        ("record_event (kong)", kong, undo),
        ("record_events (卡五星 win, closes the hand)", win, None),
        ("night_balances", lambda: ledger.night_balances(night_id), None),
        ("current_table", lambda: ledger.current_table(CHAT), None),
    ]
    for _, operation, after in operations:  # warm up (and give the night something to add up)
        timed_cpu(operation, 5, after)
    base_wall, base_cpu = timed_cpu(bare_insert, count)
    print(f"{name}: per operation (median of {count}; wall / CPU of this process)")
    for label, operation, after in operations:
        wall, cpu = timed_cpu(operation, count, after)
        row(
            label,
            f"{wall * 1000:.2f} / {cpu * 1000:.2f} ms",
            f"{base_wall * 1000:.2f} / {base_cpu * 1000:.2f} ms",
            wall / base_wall,
        )
    ledger.close()


# -------------------------------------------------------------------------------------------- balances


def bulk_load(ledger: Ledger, ids: list[int], total: int, rng: random.Random) -> None:
    """Append transfers until the group holds `total`, then set the running totals from the live ones."""
    engine = ledger.engine
    group_id = ledger.group(CHAT).id
    with engine.connect() as connection:
        have = connection.execute(
            sa.select(sa.func.count()).select_from(m.Transfer).where(m.Transfer.group_id == group_id)
        ).scalar_one()
    start = datetime(2024, 1, 1, tzinfo=UTC)
    batch = 50_000
    for offset in range(have, total, batch):
        rows = []
        for i in range(offset, min(total, offset + batch)):
            payer, payee = rng.sample(ids, 2)
            created = start + timedelta(seconds=i * 30)
            voided = created if i % 50 == 0 else None  # some voided rows, which balances must ignore
            rows.append((group_id, payer, payee, rng.randint(1, 2000), "bulk", m.HAND, f"bulk:{i}", created, voided))
        _insert_rows(engine, rows)
    with engine.begin() as connection:
        for member_id in ids:
            connection.execute(sa.update(m.Member).where(m.Member.id == member_id).values(balance=0))
        for column, sign in ((m.Transfer.payer_id, -1), (m.Transfer.payee_id, 1)):
            sums = connection.execute(
                sa.select(column, sa.func.sum(m.Transfer.amount))
                .where(m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None))
                .group_by(column)
            ).all()
            for member_id, amount in sums:
                connection.execute(
                    sa.update(m.Member)
                    .where(m.Member.id == member_id)
                    .values(balance=m.Member.balance + sign * int(amount))
                )


def _insert_rows(engine: sa.Engine, rows: list[tuple[object, ...]]) -> None:
    columns = "group_id, payer_id, payee_id, amount, reason, kind, source, created_at, voided_at"
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
            with cursor.copy(f"COPY transfers ({columns}) FROM STDIN") as copy:
                for item in rows:
                    copy.write_row(item)
        return
    plain = [
        (*item[:7], item[7].replace(tzinfo=None), item[8].replace(tzinfo=None) if item[8] else None)  # type: ignore[union-attr]
        for item in rows
    ]
    with engine.begin() as connection:
        connection.exec_driver_sql(f"INSERT INTO transfers ({columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", plain)


def naive_balances(engine: sa.Engine, group_id: int) -> dict[int, int]:
    """The baseline: every member's balance as a SUM over the group's live transfers."""
    totals: dict[int, int] = {}
    live = sa.and_(m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None))
    with engine.connect() as connection:
        for column, sign in ((m.Transfer.payer_id, -1), (m.Transfer.payee_id, 1)):
            for member_id, amount in connection.execute(
                sa.select(column, sa.func.sum(m.Transfer.amount)).where(live).group_by(column)
            ):
                totals[member_id] = totals.get(member_id, 0) + sign * int(amount)
    return totals


def bench_balances(name: str, url: str, sizes: list[int]) -> None:
    ledger, ids, _ = fresh_ledger(url)
    group_id = ledger.group(CHAT).id
    rng = random.Random(7)
    print(f"{name}: all-time balances of {MEMBERS} members (median)")
    for size in sizes:
        load_start = time.perf_counter()
        bulk_load(ledger, ids, size, rng)
        loaded = time.perf_counter() - load_start
        fast = {line.member_id: line.amount for line in ledger.balances(CHAT).lines if line.amount}
        naive = {member_id: amount for member_id, amount in naive_balances(ledger.engine, group_id).items() if amount}
        assert fast == naive, "running totals disagree with the live transfers"
        service = timed(lambda: ledger.balances(CHAT), 200)
        baseline = timed(lambda: naive_balances(ledger.engine, group_id), 5 if size >= 1_000_000 else 20)
        row(
            f"{size:>9,} transfers (loaded in {loaded:.1f}s)",
            f"{service * 1000:.2f} ms",
            f"{baseline * 1000:.1f} ms",
            service / baseline,
        )
    ledger.close()


# ------------------------------------------------------------------------------------------ settlement


def bench_settlement() -> None:
    rng = random.Random(11)
    print(f"settlement (exact up to {EXACT_LIMIT} non-zero balances after pairing opposites, greedy beyond)")
    for players in (15, 30):
        amounts = [rng.randint(-500, 500) * 10 for _ in range(players - 1)]
        amounts.append(-sum(amounts))
        balances = {f"p{i}": a for i, a in enumerate(amounts)}
        payments, exact = settle(balances)
        greedy = _greedy(list(balances.items()))
        spent = timed(lambda b=balances: settle(b), 5)
        baseline = timed(lambda b=balances: _greedy(list(b.items())), 5)
        label = f"{players} players: {len(payments)} payments ({'exact' if exact else 'greedy'}; greedy {len(greedy)})"
        row(label, f"{spent * 1000:.1f} ms", f"{baseline * 1000:.3f} ms", spent / baseline)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="transfer counts for the balance query")
    parser.add_argument("--bookings", type=int, default=300, help="bookings timed per kind")
    parser.add_argument("--operations", type=int, default=100, help="calls timed per operation")
    parser.add_argument("--wins", type=int, default=300, help="wins timed (and as many bare inserts)")
    parser.add_argument(
        "--only", choices=["win", "bookings", "operations", "balances", "settlement"], help="one section"
    )
    parser.add_argument("--postgres", default=os.environ.get("PAIJU_TEST_POSTGRES_URL"), help="PostgreSQL URL")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    with tempfile.TemporaryDirectory() as directory:
        targets: list[tuple[str, str, Callable[[], None] | None]] = [
            ("SQLite", sqlite_url(directory, "bookings.db"), None)
        ]
        if args.postgres:
            url, drop = postgres_schema(args.postgres)
            targets.append(("PostgreSQL", url, drop))
        for name, url, _ in targets:  # operations reuse the bookings' table (empty hand after its kong + undo)
            if args.only in (None, "win"):
                bench_win(name, url, args.wins)
            if args.only in (None, "bookings"):
                bench_bookings(name, url, args.bookings)
            if args.only in (None, "operations"):
                bench_operations(name, url, args.operations)
        if args.only in (None, "balances"):
            bench_balances("SQLite", sqlite_url(directory, "balances.db"), sizes)
        if args.postgres and args.only in (None, "balances"):
            url, drop = postgres_schema(args.postgres)
            try:
                bench_balances("PostgreSQL", url, sizes)
            finally:
                drop()
        for _, _, drop_schema in targets:
            if drop_schema is not None:
                drop_schema()
    if args.only in (None, "settlement"):
        bench_settlement()
    return 0


if __name__ == "__main__":
    sys.exit(main())
