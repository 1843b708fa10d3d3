"""Benchmark: the read commands (历史, 统计 a month, 战报, 排行) on a small ledger and on a big one, in one run.

    .venv/bin/python bench/bench_reports.py [--sizes 1000,450000] [--postgres URL] [--cache DIR] [--fresh]

What a read command costs should depend on what it shows (five hands, a month, a night), not on how much
history the database holds. So the same group plays the same month in every database — 25 nights of 40 hands
of real 卡五星 (the rules' worked examples, scored by `ledger.scoring.score`), with kong money, 亮倒, edits
(a voided hand and the hand that replaced it) and fines — and each bigger database adds history around it:
half of the extra hands are the group's own earlier nights, half are other groups playing the same evenings.

Each command is sent through the command layer as a player types it (`bot.core.Bot.handle_message`: moderation
filters, grammar, the handler, its ledger queries and, for 战报 and 排行, the picture), best of 9, wall and CPU,
the sizes taking turns.
Printed per command: the time at each size and the ratio of the biggest to the smallest (the goal: ≤ 1.5×).
The replies at every size are compared: they must be the same text (the night's ordinal 第N晚 and 统计's all-time
未结 line aside), so the sizes measured the same work.

The databases are written with bulk Core inserts (rows shaped as the ledger service writes them) and, for
SQLite, kept in `--cache` (default `~/.cache/paiju-bench`) so a second run starts at once; a cached file is
upgraded to the newest schema before it is used. `--postgres URL` (or PAIJU_TEST_POSTGRES_URL) runs the same on
PostgreSQL, each size in a private schema dropped at the end (`--keep-postgres`: kept, by size, for the next run).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa

from bot.core import Bot, Incoming, ManualClock, Outcome, SendDocument, Sender, SendPhoto, SendText
from bot.reports.files import REPORT_DIR_ENV
from ledger import models as m
from ledger.db import head_revision, make_engine, upgrade
from ledger.scoring import score
from ledger.service import Ledger

#: bump when the generated rows change, so a cached database is rebuilt
GENERATOR_VERSION = 3
SEATS = ("A", "B", "C")  # as the templates name them
#: the players of every group, as their seats and display names (the service seats a member under their name)
NAMES = ("张三", "李四", "王五")
BASE = 100
RULES = {"preset": "xiangyang"}
HANDS_PER_NIGHT = 40
#: the measured group's month: nights 2025-06-01 … 2025-06-25, asked about late on the 25th
MONTH_FIRST, LAST_NIGHT = date(2025, 6, 1), date(2025, 6, 25)
MEASURED_CHAT = -100_123
ASKED_AT = datetime(2025, 6, 25, 15, 30, tzinfo=UTC)  # 23:30 in Shanghai, after that night's 结算
EDIT_EVERY = 40  # one hand in this many is typed again (an edit: voided, replaced)
COMMANDS = (
    ("历史", "历史 (last 5 hands)"),
    ("统计", "统计 (this month)"),
    ("战报", "战报 (the night)"),
    ("排行", "排行 (this month)"),
)

#: hands of the 卡五星 rules' worked examples, as whole hands (events), scored once and reused
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


@dataclass(frozen=True)
class Played:
    """One template hand with its seats permuted: the events and the scoring answer as the ledger stores them."""

    events: list[dict[str, Any]]
    answer: dict[str, Any]


def played_hands() -> list[Played]:
    """Every template under every seat permutation, scored once by the real scoring core."""
    out = []
    permutations = [dict(zip(SEATS, order, strict=True)) for order in _permutations(NAMES)]
    for events in TEMPLATES:
        request = {"game": "kawuxing", "rules": RULES, "base": BASE, "players": list(SEATS), "dealer": "A"}
        answer = score({**request, "events": events})
        if not answer.get("ok"):
            raise SystemExit(f"template refused by the scoring core: {answer}")
        out.extend(Played(_renamed(events, rename), _renamed(answer, rename)) for rename in permutations)
    return out


def _permutations(items: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    if len(items) <= 1:
        yield items
        return
    for index, first in enumerate(items):
        for rest in _permutations(items[:index] + items[index + 1 :]):
            yield (first, *rest)


# ------------------------------------------------------------------------------------------- generation


@dataclass(frozen=True)
class Plan:
    """Who plays which night: the measured group's month always, history around it by size."""

    nights: list[tuple[date, int]]  # (night date, group index), in the order they are written (ids follow time)
    groups: int

    @classmethod
    def for_size(cls, hands: int) -> Plan:
        month = (LAST_NIGHT - MONTH_FIRST).days + 1
        extra_nights = max(0, hands // HANDS_PER_NIGHT - month)
        own_earlier = extra_nights // 2
        others = extra_nights - own_earlier
        nights = [(LAST_NIGHT - timedelta(days=k), 0) for k in range(month + own_earlier)]
        other_groups = -(-others // 365) if others else 0  # each other group plays up to a year of evenings
        for index in range(others):
            nights.append((LAST_NIGHT - timedelta(days=index // other_groups), 1 + index % other_groups))
        nights.sort()
        return cls(nights, 1 + other_groups)


class Writer:
    """Bulk Core inserts in batches, ids assigned here so rows can point at each other before they are written."""

    TABLES = (m.Night, m.GameTable, m.Seat, m.Hand, m.HandEvent, m.Transfer)

    def __init__(self, connection: sa.Connection) -> None:
        self.connection = connection
        self.rows: dict[type[m.Base], list[dict[str, Any]]] = {table: [] for table in self.TABLES}
        self.next_id: dict[type[m.Base], int] = dict.fromkeys(self.TABLES, 1)

    def add(self, table: type[m.Base], **row: Any) -> int:
        row.setdefault("id", self.next_id[table])
        self.next_id[table] = row["id"] + 1
        self.rows[table].append(row)
        return int(row["id"])

    def flush(self, at_least: int = 0) -> None:
        if sum(len(rows) for rows in self.rows.values()) < at_least:
            return
        for table in self.TABLES:  # parents before children
            rows = self.rows[table]
            for start in range(0, len(rows), 5000):
                self.connection.execute(sa.insert(table), rows[start : start + 5000])
            rows.clear()


def generate(url: str, hands: int) -> None:
    """Write the plan's groups, members, nights, tables, hands, events and transfers into a migrated database."""
    plan = Plan.for_size(hands)
    played = played_hands()
    engine = make_engine(url)
    created = datetime(2010, 1, 1, tzinfo=UTC)
    with engine.begin() as connection:
        writer = Writer(connection)
        members: list[dict[str, int]] = []
        for index in range(plan.groups):
            chat = MEASURED_CHAT if index == 0 else MEASURED_CHAT - index
            group_id = connection.execute(
                sa.insert(m.Group)
                .values(
                    chat_id=chat,
                    title=f"bench {index}",
                    game="kawuxing",
                    rules=RULES,
                    base=BASE,
                    currency="元",
                    language="zh",
                    cutoff_hour=6,
                    timezone="Asia/Shanghai",
                    created_at=created,
                    updated_at=created,
                )
                .returning(m.Group.id)
            ).scalar_one()
            accounts = {"group": group_id}
            for position, name in enumerate(NAMES):
                accounts[name] = connection.execute(
                    sa.insert(m.Member)
                    .values(
                        group_id=group_id,
                        kind=m.MEMBER,
                        user_id=1000 * (index + 1) + position,
                        display_name=name,
                        created_at=created,
                    )
                    .returning(m.Member.id)
                ).scalar_one()
            accounts["pot"] = connection.execute(
                sa.insert(m.Member)
                .values(group_id=group_id, kind=m.POT, display_name="红包池", created_at=created)
                .returning(m.Member.id)
            ).scalar_one()
            members.append(accounts)
        balances: dict[int, int] = {}
        for night_date, group_index in plan.nights:
            _night(writer, members[group_index], night_date, played, balances)
            writer.flush(at_least=50_000)
        writer.flush()
        for member_id, balance in balances.items():
            connection.execute(sa.update(m.Member).where(m.Member.id == member_id).values(balance=balance))
    engine.dispose()


def _night(
    writer: Writer, accounts: dict[str, int], night_date: date, played: list[Played], balances: dict[int, int]
) -> None:
    """One evening of one group: 40 hands at one table from 20:00, settled; a fine now and then, in the night or
    in the afternoon (no night open). Seeded by group and date, so the measured month is the same at every size."""
    rng = random.Random(f"{accounts['group']}:{night_date.isoformat()}")
    group_id = accounts["group"]
    start = datetime(night_date.year, night_date.month, night_date.day, 12, tzinfo=UTC)  # 20:00 in Shanghai
    end = start + timedelta(minutes=3 * HANDS_PER_NIGHT + 1)
    night_id = writer.add(m.Night, group_id=group_id, night_date=night_date, started_at=start, ended_at=end)
    table_id = writer.add(
        m.GameTable,
        group_id=group_id,
        night_id=night_id,
        game="kawuxing",
        rules=RULES,
        base=BASE,
        dealer=NAMES[0],
        hand_number=HANDS_PER_NIGHT + 1,
        started_at=start,
        ended_at=end,
    )
    for position, name in enumerate(NAMES):
        writer.add(m.Seat, table_id=table_id, position=position, name=name, member_id=accounts[name])

    def transfer(payer: int, payee: int, amount: int, reason: str, kind: str, at: datetime, **where: Any) -> None:
        live = where.pop("voided_at", None) is None
        where = {"night_id": None, "table_id": None, "hand_id": None, "event_id": None, **where}
        writer.add(
            m.Transfer,
            group_id=group_id,
            payer_id=payer,
            payee_id=payee,
            amount=amount,
            reason=reason,
            kind=kind,
            source=f"bench:{group_id}:{at.isoformat()}:{reason}",
            created_at=at,
            voided_at=None if live else at,
            **where,
        )
        if live:
            balances[payer] = balances.get(payer, 0) - amount
            balances[payee] = balances.get(payee, 0) + amount

    def hand(number: int, at: datetime, choice: Played, *, voided: bool = False, replaces: int | None = None) -> int:
        hand_id = writer.add(
            m.Hand,
            group_id=group_id,
            table_id=table_id,
            number=number,
            dealer=NAMES[0],
            status=m.VOIDED if voided else m.CLOSED,
            answer=choice.answer,
            created_at=at,
            closed_at=at,
            voided_at=at if voided else None,
            void_reason="修改" if voided else None,
            replaces_id=replaces,
        )
        event_ids = [
            writer.add(
                m.HandEvent,
                hand_id=hand_id,
                payload=event,
                source=f"bench:{group_id}:{hand_id}",
                created_at=at,
                voided_at=None,
            )
            for event in choice.events
        ]
        for owed in choice.answer["transfers"]:
            transfer(
                accounts[owed["from"]],
                accounts[owed["to"]],
                owed["amount"],
                owed["reason"],
                m.HAND,
                at,
                night_id=night_id,
                table_id=table_id,
                hand_id=hand_id,
                event_id=event_ids[owed["event"]],
                voided_at=at if voided else None,
            )
        return hand_id

    for number in range(1, HANDS_PER_NIGHT + 1):
        at = start + timedelta(minutes=3 * number)
        choice = played[rng.randrange(len(played))]
        if rng.randrange(EDIT_EVERY) == 0:  # typed wrong, then edited: the first hand voided, a new one replaces it
            first = hand(number, at, played[rng.randrange(len(played))], voided=True)
            hand(number, at + timedelta(seconds=30), choice, replaces=first)
        else:
            hand(number, at, choice)
    if rng.randrange(10) == 0:  # a flood fine during the night
        transfer(
            accounts[rng.choice(NAMES)],
            accounts["pot"],
            500,
            "刷屏",
            m.FINE,
            start + timedelta(minutes=7),
            night_id=night_id,
        )
    if rng.randrange(10) == 0:  # and one in the afternoon, when no night is open
        transfer(accounts[rng.choice(NAMES)], accounts["pot"], 500, "广告", m.FINE, start - timedelta(hours=6))


# ------------------------------------------------------------------------------------------- databases


def sqlite_database(hands: int, cache: Path, fresh: bool) -> str:
    """A SQLite file holding `hands` hands: taken from the cache, else generated into it."""
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"reports-{hands}-v{GENERATOR_VERSION}.db"
    url = f"sqlite:///{path}"
    if fresh or not path.exists():
        partial = path.with_suffix(".partial")
        for leftover in cache.glob(f"{partial.name}*"):
            leftover.unlink()
        started = time.perf_counter()
        upgrade(f"sqlite:///{partial}")
        generate(f"sqlite:///{partial}", hands)
        with closing(sqlite3.connect(partial)) as connection:  # statistics, and one file (no WAL) to rename
            connection.execute("ANALYZE")
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        partial.replace(path)
        print(f"  generated {hands:,} hands in {time.perf_counter() - started:.0f} s -> {path}")
    upgrade(url)  # a file cached before a newer migration gets it now
    return url


def postgres_database(server: str, hands: int, keep: bool, fresh: bool) -> tuple[str, Callable[[], None]]:
    """A schema holding `hands` hands, and a function to call when done: a private schema dropped then, or with
    `keep` one named by size and generator version, kept for the next run (upgraded to the newest schema)."""
    schema = f"paiju_bench_{hands}_v{GENERATOR_VERSION}" if keep else f"paiju_bench_{secrets.token_hex(4)}"
    admin = make_engine(server)
    with admin.begin() as connection:
        if fresh:
            connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        exists = connection.execute(
            sa.text("SELECT 1 FROM information_schema.tables WHERE table_schema = :schema AND table_name = :table"),
            {"schema": schema, "table": "alembic_version"},
        ).first()
        connection.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    parsed = sa.engine.make_url(server).update_query_dict({"options": f"-csearch_path={schema}"})
    url = parsed.render_as_string(hide_password=False)
    if not exists:
        started = time.perf_counter()
        upgrade(url)
        generate(url, hands)
        engine = make_engine(url)
        with engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
        engine.dispose()
        print(f"  generated {hands:,} hands in {time.perf_counter() - started:.0f} s (PostgreSQL schema {schema})")
    upgrade(url)

    def done() -> None:
        if not keep:
            with admin.begin() as connection:
                connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()

    return url, done


# ------------------------------------------------------------------------------------------- measuring

ASKER = Sender(1000, "张三", "zhangsan")


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float
    reply: str


class Asker:
    """A member of the measured group typing into the chat of one database, through the command layer."""

    def __init__(self, url: str) -> None:
        self.clock = ManualClock(ASKED_AT)
        self.ledger = Ledger.open(url, clock=self.clock.now)
        self.bot = Bot(self.ledger, clock=self.clock)
        self.message_ids = iter(range(1, 1_000_000))
        self.ask("来了")  # the first message of a member gets the group's one-time name-card reminder

    def ask(self, text: str) -> Outcome:
        self.clock.advance(timedelta(seconds=30))  # a person's pace: nothing here is a flood
        number = next(self.message_ids)
        incoming = Incoming(MEASURED_CHAT, number, ASKER, text, self.clock.now(), f"bench:{number}")
        return self.bot.handle_message(incoming)


def measure(urls: dict[int, str], runs: int, *, explain: bool = False) -> dict[int, dict[str, Timing]]:
    """Each read command on each database, best of `runs` after one untimed warm-up; the sizes take turns, so
    a busy moment of a shared machine falls on both alike. `explain` prints the plan of every query each
    command runs on the biggest database."""
    askers = {size: Asker(url) for size, url in urls.items()}
    timings: dict[int, dict[str, Timing]] = {size: {} for size in urls}
    try:
        for word, label in COMMANDS:
            replies = {}
            for size, asker in askers.items():
                with _statements(asker.ledger.engine) as ran:
                    replies[size] = _reply_text(asker.ask(word))
                if explain and size == max(askers):
                    _explain(asker.ledger.engine, label, ran)
            best = {size: (float("inf"), float("inf")) for size in askers}
            for _ in range(runs):
                for size, asker in askers.items():
                    start, start_cpu = time.perf_counter(), time.process_time()
                    asker.ask(word)
                    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
                    best[size] = (min(best[size][0], wall), min(best[size][1], cpu))
            for size in askers:
                timings[size][word] = Timing(*best[size], replies[size])
    finally:
        for asker in askers.values():
            asker.ledger.close()
    return timings


@contextmanager
def _statements(engine: sa.Engine) -> Iterator[list[tuple[str, Any]]]:
    """The SELECT statements run on `engine` meanwhile, with their parameters."""
    ran: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            ran.append((statement, parameters))

    sa.event.listen(engine, "before_cursor_execute", seen)
    try:
        yield ran
    finally:
        sa.event.remove(engine, "before_cursor_execute", seen)


def _explain(engine: sa.Engine, label: str, ran: list[tuple[str, Any]]) -> None:
    """Each statement once, and the plan the database chose for it."""
    prefix = "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN "
    print(f"\n  == {label}: {len(ran)} queries")
    shown = set()
    with engine.connect() as connection:
        for statement, parameters in ran:
            if statement in shown:
                continue
            shown.add(statement)
            print("  -- " + " ".join(statement.split())[:300])
            for row in connection.exec_driver_sql(prefix + statement, parameters):
                print("     " + str(row[-1]))


def _reply_text(outcome: Outcome) -> str:
    """What the chat sees, pictures by their caption (the file name differs by size: its ids)."""
    parts = []
    for effect in outcome.effects:
        if isinstance(effect, SendText):
            parts.append(effect.text)
        elif isinstance(effect, SendPhoto | SendDocument):
            if not Path(effect.path).is_file():
                raise SystemExit(f"the reply names a picture that was not written: {effect.path}")
            parts.append(effect.caption)
    return "\n".join(parts)


#: what the replies may differ in by size: the night's ordinal (第N晚, counted from the group's first night), and
#: 统计's 未结 line — what each member owes now, over all of the group's history, which the bigger ledger holds
#: more of (read from the running totals: the same work at every size)
_BY_SIZE = ((re.compile(r"第\d+晚"), "第N晚"), (re.compile(r"(未结（付款之后现在还差）：).*"), r"\1…"))


def _same_work(replies: dict[int, str]) -> bool:
    """The replies agree at every size, but for what `_BY_SIZE` names."""
    normalized = set()
    for text in replies.values():
        for pattern, stand_in in _BY_SIZE:
            text = pattern.sub(stand_in, text)
        normalized.add(text)
    return len(normalized) == 1


def report(title: str, results: dict[int, dict[str, Timing]]) -> bool:
    sizes = sorted(results)
    small, big = sizes[0], sizes[-1]
    print(f"\n{title}: best of the runs, wall (CPU of this process); ratio = {big:,} hands / {small:,} hands")
    header = "".join(f"{f'{size:,} hands':>24}" for size in sizes)
    print(f"  {'command':<22}{header}{'ratio wall':>12}{'CPU':>7}")
    ok = True
    for word, label in COMMANDS:
        cells = "".join(
            f"{f'{results[s][word].wall * 1000:.1f} ms ({results[s][word].cpu * 1000:.1f})':>24}" for s in sizes
        )
        wall = results[big][word].wall / results[small][word].wall
        cpu = results[big][word].cpu / results[small][word].cpu
        same = _same_work({s: results[s][word].reply for s in sizes})
        ok = ok and same and wall <= 1.5
        print(
            f"  {label:<22}{cells}{wall:11.2f}×{cpu:6.2f}×" + ("" if same else "   REPLIES DIFFER: not the same work")
        )
    print(f"  goal: every read command at {big:,} hands within 1.5× of {small:,} (wall) -> {'OK' if ok else 'NOT MET'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,450000", help="hands in each database, comma-separated")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "paiju-bench")
    parser.add_argument("--fresh", action="store_true", help="regenerate the cached databases")
    parser.add_argument("--postgres", default=os.environ.get("PAIJU_TEST_POSTGRES_URL"), help="also on this server")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--keep-postgres", action="store_true", help="keep the PostgreSQL schemas for the next run")
    parser.add_argument("--explain", action="store_true", help="print each query's plan at the biggest size")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    month = f"{MONTH_FIRST} … {LAST_NIGHT}"
    print(f"schema {head_revision()}; {HANDS_PER_NIGHT} hands a night; the measured group's month: {month}")
    with tempfile.TemporaryDirectory(prefix="paiju-bench-") as pictures:
        os.environ[REPORT_DIR_ENV] = pictures  # where the commands draw, removed at the end
        ok = True
        if not args.no_sqlite:
            urls = {size: sqlite_database(size, args.cache, args.fresh) for size in sizes}
            ok = report("SQLite", measure(urls, args.runs, explain=args.explain)) and ok
        if args.postgres:
            made = [postgres_database(args.postgres, size, args.keep_postgres, args.fresh) for size in sizes]
            try:
                urls = {size: url for size, (url, _) in zip(sizes, made, strict=True)}
                ok = report("PostgreSQL", measure(urls, args.runs, explain=args.explain)) and ok
            finally:
                for _, done in made:
                    done()
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
