"""Benchmark: a monthly report of a group that played for a year (50,000 hands), on SQLite.

    python bench/bench_reports.py [--hands 50000] [--month 2025-06] [--db URL of an empty database]

The year is bulk-generated (rows written directly with the shapes the ledger service writes: real scoring
answers from `ledger.scoring.score`, one night per day, kong money booked with its hand), since booking 50,000
hands one by one through the service measures the service, not the reports. Then, in the same process:
- baseline: one plain `SUM(amount) GROUP BY payee` over the month's live transfers (the cheapest query that
  touches the same rows);
- the monthly report: `group_stats` (every member's hands, wins, rates, multipliers, patterns, kong money, fines,
  net) + `head_to_head`, and the month's leaderboard page rendered to PNG.
Prints each time (best of 3) and its ratio to the baseline. The goal: the report under 2 s.
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa

from ledger import models as m
from ledger.db import make_engine, session_factories, upgrade
from ledger.scoring import score
from ledger.stats import group_stats, head_to_head, month_scope

PLAYERS = ("A", "B", "C")
BASE = 100
RULES = {"preset": "xiangyang"}

#: hands of the 卡五星 rules' worked examples, played as whole hands (events), scored once and reused
TEMPLATES: list[list[dict[str, Any]]] = [
    [
        {
            "type": "hu",
            "winner": "A",
            "method": "discard",
            "from": "C",
            "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p"},
        }
    ],
    [
        {"type": "gang", "player": "A", "kind": "angang", "chain": 1},
        {
            "type": "hu",
            "winner": "A",
            "method": "self_draw",
            "hand": {"concealed": "4556p123s789s", "melds": [{"kind": "angang", "tile": "7z"}], "win_tile": "5p"},
        },
    ],
    [
        {
            "type": "hu",
            "winner": "B",
            "method": "discard",
            "from": "A",
            "hand": {"concealed": "2245556p123s999s", "win_tile": "5p"},
        }
    ],
    [{"type": "hu", "winner": "C", "method": "self_draw", "hand": {"concealed": "1122334456677p", "win_tile": "5p"}}],
    [
        {
            "type": "hu",
            "winner": "B",
            "method": "self_draw",
            "hand": {"concealed": "777z666z55z123p99s", "win_tile": "5z"},
        }
    ],
    [{"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1}, {"type": "draw"}],
    [
        {
            "type": "hu",
            "winner": "A",
            "method": "self_draw",
            "hand": {"concealed": "123p456p789s234s5s", "win_tile": "5s"},
        }
    ],
    [
        {"type": "liangdao", "player": "C"},
        {
            "type": "hu",
            "winner": "C",
            "method": "discard",
            "from": "B",
            "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p", "liangdao": True},
        },
    ],
    [
        {
            "type": "hu",
            "winner": "A",
            "method": "discard",
            "from": "B",
            "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p"},
        },
        {
            "type": "hu",
            "winner": "C",
            "method": "discard",
            "from": "B",
            "hand": {"concealed": "2245556p123s999s", "win_tile": "5p"},
        },
    ],
]


def scored_templates() -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    out = []
    for events in TEMPLATES:
        request = {
            "game": "kawuxing",
            "rules": RULES,
            "base": BASE,
            "players": list(PLAYERS),
            "dealer": "A",
            "events": events,
        }
        answer = score(request)
        if not answer.get("ok"):
            raise SystemExit(f"template refused by the scoring core: {answer}")
        out.append((events, answer))
    return out


def generate(url: str, hands: int, seed: int = 7) -> tuple[int, date]:
    """Write a group that played `hands` hands over one year (one night a day); returns (group id, first day)."""
    rng = random.Random(seed)
    templates = scored_templates()
    engine = make_engine(url)
    first_day = date(2025, 1, 1)
    now = datetime(2025, 1, 1, tzinfo=UTC)
    per_night = max(1, -(-hands // 365))
    with engine.begin() as conn:
        group_id = conn.execute(
            sa.insert(m.Group)
            .values(
                chat_id=-100_123,
                title="bench",
                game="kawuxing",
                rules=RULES,
                base=BASE,
                currency="元",
                language="zh",
                cutoff_hour=6,
                timezone="Asia/Shanghai",
                created_at=now,
                updated_at=now,
                updated_by=None,
            )
            .returning(m.Group.id)
        ).scalar_one()
        member_ids = {}
        for index, name in enumerate(("张三", "李四", "王五")):
            member_ids[PLAYERS[index]] = conn.execute(
                sa.insert(m.Member)
                .values(
                    group_id=group_id,
                    kind=m.MEMBER,
                    user_id=1000 + index,
                    display_name=name,
                    created_at=now,
                )
                .returning(m.Member.id)
            ).scalar_one()
        pot_id = conn.execute(
            sa.insert(m.Member)
            .values(
                group_id=group_id,
                kind=m.POT,
                user_id=None,
                display_name="红包池",
                created_at=now,
            )
            .returning(m.Member.id)
        ).scalar_one()
        next_ids = {"night": 1, "table": 1, "hand": 1, "event": 1}
        rows: dict[type[m.Base], list[dict[str, Any]]] = {
            table: [] for table in (m.Night, m.GameTable, m.Seat, m.Hand, m.HandEvent, m.Transfer)
        }
        nights, tables, seats = rows[m.Night], rows[m.GameTable], rows[m.Seat]
        hand_rows, event_rows, transfers = rows[m.Hand], rows[m.HandEvent], rows[m.Transfer]
        written = 0
        for day_index in itertools.count():
            if written >= hands:
                break
            day = first_day + timedelta(days=day_index)
            start = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)  # 20:00 in Shanghai
            night_id, table_id = next_ids["night"], next_ids["table"]
            next_ids["night"] += 1
            next_ids["table"] += 1
            count = min(per_night, hands - written)
            end = start + timedelta(minutes=3 * count + 1)
            nights.append(
                {
                    "id": night_id,
                    "group_id": group_id,
                    "night_date": day,
                    "started_at": start,
                    "ended_at": end,
                    "ended_by": None,
                }
            )
            tables.append(
                {
                    "id": table_id,
                    "group_id": group_id,
                    "night_id": night_id,
                    "game": "kawuxing",
                    "rules": RULES,
                    "base": BASE,
                    "dealer": "A",
                    "hand_number": count + 1,
                    "started_at": start,
                    "started_by": None,
                    "ended_at": end,
                    "ended_by": None,
                }
            )
            seats.extend(
                {"table_id": table_id, "position": i, "name": p, "member_id": member_ids[p]}
                for i, p in enumerate(PLAYERS)
            )
            for number in range(1, count + 1):
                events, answer = templates[rng.randrange(len(templates))]
                rename = dict(zip(PLAYERS, rng.sample(PLAYERS, 3), strict=True))
                at = start + timedelta(minutes=3 * number)
                hand_id = next_ids["hand"]
                next_ids["hand"] += 1
                hand_rows.append(
                    {
                        "id": hand_id,
                        "group_id": group_id,
                        "table_id": table_id,
                        "number": number,
                        "dealer": "A",
                        "status": m.CLOSED,
                        "answer": _renamed(answer, rename),
                        "created_at": at,
                        "closed_at": at,
                    }
                )
                event_ids = []
                for event in events:
                    event_ids.append(next_ids["event"])
                    event_rows.append(
                        {
                            "id": next_ids["event"],
                            "hand_id": hand_id,
                            "payload": _renamed(event, rename),
                            "source": f"bench:{hand_id}",
                            "created_at": at,
                        }
                    )
                    next_ids["event"] += 1
                for t in answer["transfers"]:
                    transfers.append(
                        {
                            "group_id": group_id,
                            "payer_id": member_ids[rename[t["from"]]],
                            "payee_id": member_ids[rename[t["to"]]],
                            "amount": t["amount"],
                            "reason": t["reason"],
                            "kind": m.HAND,
                            "table_id": table_id,
                            "hand_id": hand_id,
                            "event_id": event_ids[t["event"]],
                            "source": f"bench:{hand_id}",
                            "created_at": at,
                        }
                    )
                written += 1
            if day_index % 30 == 0:  # a flooding fine now and then
                transfers.append(
                    {
                        "group_id": group_id,
                        "payer_id": member_ids[rng.choice(PLAYERS)],
                        "payee_id": pot_id,
                        "amount": 500,
                        "reason": "刷屏",
                        "kind": m.FINE,
                        "table_id": None,
                        "hand_id": None,
                        "event_id": None,
                        "source": f"bench:fine:{day_index}",
                        "created_at": start + timedelta(minutes=1),
                    }
                )
        for table, table_rows in rows.items():  # parents before children
            for chunk in range(0, len(table_rows), 5000):
                conn.execute(sa.insert(table), table_rows[chunk : chunk + 5000])
        balances: dict[int, int] = {}
        for t in transfers:
            balances[t["payer_id"]] = balances.get(t["payer_id"], 0) - t["amount"]
            balances[t["payee_id"]] = balances.get(t["payee_id"], 0) + t["amount"]
        for member_id, balance in balances.items():
            conn.execute(sa.update(m.Member).where(m.Member.id == member_id).values(balance=balance))
    engine.dispose()
    return group_id, first_day


#: keys whose value is a seat name in scoring events and answers
NAME_KEYS = frozenset({"winner", "from", "to", "player", "dealer", "next_dealer"})


def _renamed(value: Any, rename: dict[str, str]) -> Any:
    """A scoring answer or event with the seat names permuted (who won varies from hand to hand)."""
    if isinstance(value, list):
        return [_renamed(item, rename) for item in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key in NAME_KEYS and isinstance(item, str):
            out[key] = rename.get(item, item)
        elif key == "net":
            out[key] = {rename.get(name, name): amount for name, amount in item.items()}
        elif key == "hand":
            out[key] = item  # tiles, no names
        else:
            out[key] = _renamed(item, rename)
    return out


def best_of(runs: int, func: Callable[[], object]) -> tuple[float, float]:
    """The best (wall, CPU) seconds of `runs` calls. On a busy machine wall time includes waiting for a core;
    the CPU time of this process is what the report itself costs."""
    wall = cpu = float("inf")
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        func()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="paiju-bench-"))
    try:
        return run(workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run(workdir: Path) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--db", help="SQLAlchemy URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--month", default="2025-06")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{workdir / 'bench.db'}"
    upgrade(url)
    started = time.perf_counter()
    group_id, _ = generate(url, args.hands)
    print(f"generated {args.hands} hands in {time.perf_counter() - started:.1f} s ({url})")

    engine = make_engine(url)
    _, reader = session_factories(engine)
    year, month = (int(part) for part in args.month.split("-"))
    with reader() as session:
        scope = month_scope(session, group_id, year, month)

        def baseline() -> object:
            return session.execute(
                sa.select(m.Transfer.payee_id, sa.func.sum(m.Transfer.amount))
                .where(
                    m.Transfer.group_id == group_id,
                    m.Transfer.voided_at.is_(None),
                    m.Transfer.created_at >= scope.since,
                    m.Transfer.created_at < scope.until,
                )
                .group_by(m.Transfer.payee_id)
            ).all()

        def report() -> object:
            stats = group_stats(session, scope)
            return stats, head_to_head(session, scope, stats.all_wins)

        def report_with_picture() -> object:
            from bot.reports.stats import leaderboard_page

            return leaderboard_page(session, scope, "zh", "元", workdir / "month.png")

        stats = group_stats(session, scope)
        print(f"month {args.month}: {stats.hands} hands, {stats.wins} wins, {len(stats.members)} members")
        base_time = best_of(3, baseline)
        report_time = best_of(3, report)
        picture_time = best_of(3, report_with_picture)
    engine.dispose()
    print(f"{'':<48} {'wall':>9} {'CPU':>9}   ratio to baseline (wall)")
    rows = (
        ("baseline  plain SUM over the month's transfers", base_time),
        ("report    group_stats + head_to_head", report_time),
        ("report    + leaderboard page PNG (the command)", picture_time),
    )
    for label, (wall, cpu) in rows:
        print(f"{label:<48} {wall * 1000:7.1f}ms {cpu * 1000:7.1f}ms   {wall / base_time[0]:.1f}x")
    verdict = "OK" if picture_time[0] < 2.0 else "TOO SLOW"
    print(f"goal: monthly report under 2 s on SQLite -> {verdict}")
    return 0 if picture_time[0] < 2.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
