"""Benchmark: many groups playing at once against 1, 2 and 4 `paiju run --webhook` workers on PostgreSQL.

    .venv/bin/python bench/bench_load.py [--groups 200] [--paced 60] [--saturate 60] [--workers 1,2,4] [--db URL]
        [--concurrent-updates 8] [--rounds 1]

For each worker count, in a fresh PostgreSQL schema, with a local fake Bot API (tests/bot/fake_bot_api.py) in this
process and the workers as real processes fed round-robin, as a reverse proxy would:
- setup: every group's three players speak, one opens a table;
- paced (the brief's load): each table records an event every 2–5 s (wins by turns, concealed and exposed kongs),
  and one group in ten has a member flood the chat (seven messages in about a second and a half) once;
- saturated (capacity): each table sends its next event as soon as the previous one was answered.
Printed per worker count: bookings per second and p50/p99 reply latency in each phase, CPU seconds per booking of
the workers, PostgreSQL and this process (and the time the hypervisor stole), each worker's share of the workers'
CPU and the chats it holds at the end; the PostgreSQL sessions opened and transactions committed per booking
(every kind: bookings, stored updates, acknowledgements, moderation, leases); then the scaling ratios 2/1 and 4/2
of saturated bookings per second (measured in this one run; with `--rounds N` the worker counts run in turn N
times and the ratios are of the medians, each round's shown too).
Checked against the ledger after each run (any failure is printed and the exit code is 1): every recorded event
booked exactly once (operations by source), each table's wins in the order sent, every flood punished exactly once
(one warning and one fine per burst), no reply sent twice.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import sqlalchemy as sa

from ledger.db import make_engine, upgrade
from tests.bot.fake_bot_api import FakeBotAPIServer, FakeTelegram, user
from tests.bot.processes import SECRET, BotProcess, free_port, write_config
from tests.conftest import PostgresSchemas

BOSS = user(500, "群主", "boss")
DEFAULT_DB = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
HEADERS = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
FLOOD_MESSAGES = 7


@dataclass
class Table:
    """One group: three players, the events it sent, and the replies it waits for."""

    index: int
    chat: dict[str, Any]
    players: list[dict[str, Any]]
    message_ids: Any = field(default_factory=lambda: itertools.count(1))
    turn: int = 0
    recorded: list[int] = field(default_factory=list)  # message ids of recording events sent
    winners: list[str] = field(default_factory=list)  # winners' names in the order their wins were sent
    flooder: dict[str, Any] | None = None

    def message(self, sender: dict[str, Any], text: str) -> dict[str, Any]:
        return {
            "message": {
                "message_id": next(self.message_ids),
                "date": int(time.time()),
                "chat": self.chat,
                "from": sender,
                "text": text,
            }
        }

    def next_event(self) -> tuple[dict[str, Any], str, str | None]:
        """(sender, text, winner or None): wins by turns, with kongs between."""
        self.turn += 1
        a, b, c = (self.players[(self.turn + k) % 3] for k in range(3))
        kind = self.turn % 4
        if kind == 1:
            return a, "暗杠", None
        if kind == 2:
            return b, f"直杠 点 @{c['username']}", None
        # one player types every win, naming its winner: wins by others seconds apart from several people would be
        # held back as one hand told two ways, not booked
        recorder = self.players[0]
        if kind == 3:
            return recorder, f"胡 @{a['username']} 清一色 自摸", a["first_name"]
        return recorder, f"胡 @{c['username']} 七对 点 @{b['username']}", c["first_name"]


class Load:
    """Posts updates round-robin to the workers and times each reply (the fake Bot API tells it of each call)."""

    def __init__(self, fake: FakeBotAPIServer, workers: list[BotProcess]) -> None:
        self.fake, self.workers = fake, workers
        self.update_ids = itertools.count(1)
        self.session: aiohttp.ClientSession | None = None
        self.waiting: dict[tuple[int, int], tuple[float, asyncio.Future[float]]] = {}
        self.replies: Counter[tuple[int, int]] = Counter()
        self.loop = asyncio.get_running_loop()
        fake.telegram.on_call = self._on_call

    def _on_call(self, call: Any) -> None:
        reply = call.params.get("reply_parameters")
        if call.method != "sendMessage" or not isinstance(reply, dict):
            return
        key = (int(call.params["chat_id"]), int(reply["message_id"]))
        self.replies[key] += 1
        found = self.waiting.pop(key, None)
        if found is not None and not found[1].done():
            found[1].set_result(call.at - found[0])

    async def post(self, update: dict[str, Any], *, expect_reply: bool) -> asyncio.Future[float] | None:
        assert self.session is not None
        number = next(self.update_ids)
        worker = self.workers[number % len(self.workers)]
        future: asyncio.Future[float] | None = None
        if expect_reply:
            future = self.loop.create_future()
            key = (update["message"]["chat"]["id"], update["message"]["message_id"])
            self.waiting[key] = (time.monotonic(), future)
        async with self.session.post(f"{worker.url}/paiju", json={"update_id": number, **update}, headers=HEADERS) as r:
            if r.status != 200:
                raise RuntimeError(f"worker answered {r.status}")
        return future


async def _reply(future: asyncio.Future[float] | None, timeout: float = 60.0) -> float | None:
    if future is None:
        return None
    try:
        return await asyncio.wait_for(future, timeout)
    except TimeoutError:
        return None


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    booked: int = 0
    latencies: list[float] = field(default_factory=list)
    unanswered: int = 0

    def line(self) -> str:
        rate = self.booked / self.seconds if self.seconds else 0.0
        p50, p99 = percentile(self.latencies, 50), percentile(self.latencies, 99)
        return (
            f"{self.name:<9} {self.booked:>6} bookings in {self.seconds:5.1f} s = {rate:6.1f}/s, "
            f"reply p50 {p50 * 1000:6.0f} ms, p99 {p99 * 1000:6.0f} ms, unanswered {self.unanswered}"
        )


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1)))]


async def record(load: Load, table: Table, phase: Phase) -> float | None:
    sender, text, winner = table.next_event()
    update = table.message(sender, text)
    table.recorded.append(update["message"]["message_id"])
    if winner is not None:
        table.winners.append(winner)
    latency = await _reply(await load.post(update, expect_reply=True))
    if latency is None:
        phase.unanswered += 1
    else:
        phase.latencies.append(latency)
        phase.booked += 1
    return latency


async def paced(load: Load, tables: list[Table], seconds: float, rng: random.Random) -> Phase:
    phase = Phase("paced")
    deadline = time.monotonic() + seconds
    flooding = {t.index for t in tables if t.index % 10 == 0}

    async def play(table: Table) -> None:
        await asyncio.sleep(rng.uniform(0, 5))
        flood_at = time.monotonic() + rng.uniform(5, max(6, seconds - 10)) if table.index in flooding else None
        pending: list[asyncio.Task[Any]] = []
        while time.monotonic() < deadline:
            pending.append(asyncio.create_task(record(load, table, phase)))
            if flood_at is not None and time.monotonic() >= flood_at:
                flood_at = None
                pending.append(asyncio.create_task(flood(load, table)))
            await asyncio.sleep(rng.uniform(2, 5))
        await asyncio.gather(*pending)

    started = time.monotonic()
    await asyncio.gather(*(play(table) for table in tables))
    phase.seconds = time.monotonic() - started
    return phase


async def flood(load: Load, table: Table) -> None:
    """A member posts seven chat messages within about 1.5 s: one offence (a warning and a fine)."""
    table.flooder = table.players[2]
    for n in range(FLOOD_MESSAGES):
        await load.post(table.message(table.players[2], f"哈哈哈{n}"), expect_reply=False)
        await asyncio.sleep(0.2)


async def saturated(load: Load, tables: list[Table], seconds: float) -> Phase:
    phase = Phase("saturated")
    deadline = time.monotonic() + seconds

    async def play(table: Table) -> None:
        while time.monotonic() < deadline:
            await record(load, table, phase)

    started = time.monotonic()
    await asyncio.gather(*(play(table) for table in tables))
    phase.seconds = time.monotonic() - started
    return phase


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process on this machine (other users' included: read it as a bound)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().startswith("postgres"):
                    total += cpu_seconds(int(entry.name))
            except OSError:
                continue
    return total


def cpu_now(processes: list[BotProcess]) -> tuple[list[float], tuple[float, float, float, float]]:
    """Each worker's CPU seconds so far, and (PostgreSQL, this process: load generator and fake Bot API, the whole
    machine, stolen). The machine's figure counts processes that came and went too (a PostgreSQL backend per new
    connection); stolen is the time the hypervisor gave this machine's cores to others (a VM's noisy neighbours)."""
    each = [cpu_seconds(p.process.pid) for p in processes if p.process]
    busy = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]  # cpu  user nice system idle iowait … steal
    ticks = os.sysconf("SC_CLK_TCK")
    machine = (sum(int(n) for n in busy[:8]) - int(busy[3]) - int(busy[4]) - int(busy[7])) / ticks
    return each, (postgres_cpu(), time.process_time(), machine, int(busy[7]) / ticks)


def database_rows(url: str, query: str) -> list[Any]:
    """The rows of one query, on a connection of its own (closed after)."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as connection:
            return list(connection.exec_driver_sql(query).all())
    finally:
        engine.dispose()


def chats_held(url: str) -> list[int]:
    """How many chats each worker holds a lease on, most first."""
    rows = database_rows(url, "SELECT count(*) FROM inbox_leases GROUP BY worker ORDER BY count(*) DESC")
    return [int(n) for (n,) in rows]


def postgres_counters(url: str) -> tuple[int, int]:
    """(sessions opened, transactions committed) on the database so far, by every client (the statistics
    collector's figures, flushed at most once a second: read them over a phase of many seconds)."""
    query = "SELECT sessions, xact_commit FROM pg_stat_database WHERE datname = current_database()"
    ((sessions, commits),) = database_rows(url, query)
    return int(sessions), int(commits)


def verify(url: str, tables: list[Table], load: Load) -> list[str]:
    """What the ledger and the fake Bot API say against what was sent."""
    problems = []
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            sources = Counter(connection.scalars(sa.text("SELECT source FROM operations WHERE kind = 'record'")).all())
            winners: dict[int, list[str]] = {}
            rows = connection.execute(
                sa.text(
                    "SELECT g.chat_id, e.payload FROM hand_events e JOIN hands h ON h.id = e.hand_id "
                    "JOIN game_tables t ON t.id = h.table_id JOIN groups g ON g.id = t.group_id "
                    "WHERE e.voided_at IS NULL ORDER BY h.id, e.id"
                )
            ).all()
            for chat_id, data in rows:
                if data.get("type") == "hu":
                    winners.setdefault(chat_id, []).append(data.get("winner"))
            offences = connection.execute(
                sa.text("SELECT user_id, group_id, kind FROM moderation_actions WHERE rule IN ('flood', 'repeat')")
            ).all()
    finally:
        engine.dispose()
    for table in tables:
        sent = {f"tg:{table.chat['id']}:{m}" for m in table.recorded}
        booked = {s for s in sources if s.startswith(f"tg:{table.chat['id']}:")}
        if sent != booked:
            problems.append(f"table {table.index}: {len(sent - booked)} lost, {len(booked - sent)} unexpected")
        if winners.get(table.chat["id"], []) != table.winners:
            problems.append(f"table {table.index}: wins out of order")
    if any(count > 1 for count in sources.values()):
        problems.append("an operation booked twice")
    flooders = [t for t in tables if t.flooder is not None]
    kinds = Counter(kind for _, _, kind in offences)
    if kinds["warning"] != len(flooders) or kinds["fine"] != len(flooders) or len(offences) != 2 * len(flooders):
        problems.append(f"floods: {len(flooders)} bursts, offences recorded {dict(kinds)}")
    doubled = [key for key, count in load.replies.items() if count > 1]
    if doubled:
        problems.append(f"{len(doubled)} replies sent twice")
    return problems


async def run(workers: int, args: argparse.Namespace, schemas: PostgresSchemas, rng: random.Random) -> dict[str, Any]:
    url = schemas.create()
    upgrade(url)
    fake = FakeBotAPIServer(FakeTelegram(admins=[BOSS]))
    await fake.start()
    folder = Path(tempfile.mkdtemp(prefix="paiju-load-"))
    processes = []
    for index in range(workers):
        port = free_port()
        config = write_config(
            folder / f"worker{index}.toml",
            base_url=fake.base_url,
            port=port,
            webhook_url="https://bot.example.org/paiju",
            log_level="WARNING",
            concurrent_updates=args.concurrent_updates,
        )
        processes.append(BotProcess(config, url, folder / f"worker{index}.log", webhook=True, port=port).start())
    load = Load(fake, processes)
    tables = [
        Table(
            n,
            {"id": -1005000000000 - n, "type": "supergroup", "title": f"桌{n}"},
            [user(10_000 + 3 * n + k, name, f"p{n}_{k}") for k, name in enumerate(("东", "南", "西"))],
        )
        for n in range(args.groups)
    ]
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64)) as load.session:
            await _ready(processes, fake)
            await asyncio.gather(*(_setup(load, table) for table in tables))
            (each_before, cpu_before), counters_before = cpu_now(processes), postgres_counters(url)
            phases = [await paced(load, tables, args.paced, rng)]
            phases.append(await saturated(load, tables, args.saturate))
            each_after, cpu_after = cpu_now(processes)
            each = [after - before for after, before in zip(each_after, each_before, strict=True)]
            cpu = [sum(each), *(after - before for after, before in zip(cpu_after, cpu_before, strict=True))]
            sessions, commits = (a - b for a, b in zip(postgres_counters(url), counters_before, strict=True))
            held = chats_held(url)
            await asyncio.sleep(2.0)  # late or repeated replies show up now
    finally:
        for process in processes:
            await process.terminate()
        await fake.stop()
    problems = verify(url, tables, load)
    booked = sum(phase.booked for phase in phases)
    per_booking = [seconds / max(booked, 1) for seconds in cpu]
    return {
        "workers": workers,
        "phases": phases,
        "cpu_per_booking": per_booking,
        "worker_cpu_share": [seconds / max(sum(each), 1e-9) for seconds in each],
        "chats_held": held,
        "sessions": sessions,
        "commits_per_booking": commits / max(booked, 1),
        "problems": problems,
    }


async def _ready(processes: list[BotProcess], fake: FakeBotAPIServer) -> None:
    deadline = time.monotonic() + 120
    while len(fake.telegram.sent("setWebhook")) < len(processes):
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not start: " + " | ".join(p.output()[-500:] for p in processes))
        await asyncio.sleep(0.1)


async def _setup(load: Load, table: Table) -> None:
    for player in table.players:
        await load.post(table.message(player, "今晚打牌"), expect_reply=False)
    names = " ".join(f"@{p['username']}" for p in table.players)
    opened = await load.post(
        table.message(table.players[0], f"开桌 {names} 庄 @{table.players[0]['username']}"), expect_reply=True
    )
    if await _reply(opened, 120) is None:
        raise RuntimeError(f"table {table.index} did not open")


def print_scaling(results: list[dict[str, Any]], rounds: int) -> None:
    """The scaling ratios 2/1 and 4/2 of saturated bookings per second; over several rounds, of the medians (and
    each round's own, for the spread: this machine's speed drifts by a fifth within minutes)."""
    rates: dict[int, list[float]] = {}
    for result in results:
        rates.setdefault(result["workers"], []).append(result["phases"][1].booked / result["phases"][1].seconds)
    median = {count: statistics.median(values) for count, values in rates.items()}
    pairs = [(2, 1), (4, 2)]
    shown = [f"{a} / {b} = {median[a] / median[b]:.2f}×" for a, b in pairs if a in median and b in median]
    if not shown:
        return
    what = f"medians of {rounds} rounds" if rounds > 1 else "saturated bookings/s"
    print(f"\nscaling ({what}): " + ", ".join(shown))
    if rounds > 1:
        print(
            "  saturated bookings/s by round: "
            + "; ".join(f"{c}: " + ", ".join(f"{v:.1f}" for v in rates[c]) for c in rates)
        )
        for a, b in pairs:
            if a in rates and b in rates:
                each = ", ".join(f"{x / y:.2f}×" for x, y in zip(rates[a], rates[b], strict=True))
                print(f"  {a} / {b} in each round: {each}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--paced", type=float, default=60.0, help="seconds of the paced phase")
    parser.add_argument("--saturate", type=float, default=60.0, help="seconds of the saturated phase")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--db", default=os.environ.get("PAIJU_TEST_POSTGRES_URL", DEFAULT_DB))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--concurrent-updates", type=int, default=8, help="each worker's `concurrent_updates` (the default: 8)"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="run the worker counts in turn this many times; ratios of the medians"
    )
    args = parser.parse_args()
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    schemas = PostgresSchemas(args.db)
    rng = random.Random(args.seed)
    results = []
    counts = [int(n) for n in args.workers.split(",")]
    try:
        for round_number, count in itertools.product(range(1, args.rounds + 1), counts):
            result = asyncio.run(run(count, args, schemas, rng))
            results.append(result)
            label = f" (round {round_number} of {args.rounds})" if args.rounds > 1 else ""
            print(f"\n{count} worker(s), {args.groups} groups × 3 players{label}:")
            for phase in result["phases"]:
                print("  " + phase.line())
            workers_cpu, postgres, generator, machine, stolen = (
                seconds * 1000 for seconds in result["cpu_per_booking"]
            )
            print(
                f"  CPU per booking: workers {workers_cpu:.1f} ms, PostgreSQL {postgres:.1f} ms (all its users), "
                f"load generator + fake Bot API {generator:.1f} ms; the whole machine {machine:.1f} ms "
                f"(and {stolen:.1f} ms stolen by the hypervisor)"
            )
            shares = " / ".join(f"{share:.0%}" for share in result["worker_cpu_share"])
            held = " / ".join(str(n) for n in result["chats_held"])
            print(f"  each worker's share of the workers' CPU: {shares}; chats held: {held}")
            print(
                f"  PostgreSQL during the phases: {result['sessions']} sessions opened, "
                f"{result['commits_per_booking']:.1f} transactions committed per booking"
            )
            print("  checks: " + ("; ".join(result["problems"]) or "0 lost, 0 duplicated, order kept, floods once"))
    finally:
        schemas.drop_all()
    print_scaling(results, args.rounds)
    print(f"(machine: {os.cpu_count()} cores; the fake Bot API, this load and PostgreSQL share them with the workers)")
    return 1 if any(r["problems"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
