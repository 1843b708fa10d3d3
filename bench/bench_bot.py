"""Benchmark: a recorded win through the Telegram path, against a no-op echo through the same path, at the first
hands of an open table and again after thousands of hands at that table.

    .venv/bin/python bench/bench_bot.py [--wins 300] [--fill 10000] [--db URL] [--profile 25] [--straight]

Both workloads build real `Update` objects (`Update.de_json`) and feed them to `Application.process_update` as
`paiju run`'s dispatcher does, inside the update's delivery (`bot.telegram.delivery.delivering`): a booking then
leaves its disk sync to the update's done mark, which every update pays alike, echo or win, after its handler has
decided what to say (bench_intake.py measures it; here the mark is free). `--straight` feeds them without a
delivery, as tests do: every booking syncs by itself.
The Bot API is a `BaseRequest` that answers in-process (tests/bot/fake_bot_api.py), so no network time is counted.
- wins: `胡 123p46p789s22s333s 5p 点 @xiaoli`-style messages through the whole bot — message filters (moderation),
  grammar, tiles parsed, the hand scored by the 卡五星 core, booked in the ledger (a SQLite file in WAL mode, or
  with `--db` PostgreSQL in a private schema dropped at the end: the chat read in one statement outside any
  transaction, then one write transaction), the reply rendered with every player's night total and sent;
- echo: the same updates through an Application whose only handler sends the text back (the PTB floor).
The two are interleaved (a win, then an echo), so a busy machine slows both alike. Printed for the first `--wins`
hands of the table and again after `--fill` more hands were booked at it (one night, one table: the simulated
clock moves 2 s a message, so no 日切 passes): median wall and CPU time (this process, every thread) per update,
and the ratios win / echo. The transactions and statements of one win (the most any of its kinds sends) are
counted on every engine (the ledger's and the shared state's). `--profile N` adds a cProfile of the first hands'
wins, both threads (the event loop's `process_update` and the command layer's worker thread), the N costliest
functions by cumulative time.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa
from telegram import Update
from telegram.ext import Application, ContextTypes, MessageHandler, filters

from bench.bench_ledger import postgres_schema
from bot.config import Settings
from bot.core import Bot, ManualClock
from bot.telegram.app import build_application
from bot.telegram.delivery import Delivery, delivering
from ledger.db import NO_BEGIN, SQLITE_BEGIN
from ledger.events import Meld, Win, WinHand
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeTelegram, RecordingRequest, Updates, user

PLAYERS = [user(501, "阿杰", "ajie"), user(502, "小李", "xiaoli"), user(503, "老王", "laowang")]
BOSS = user(500, "群主", "boss")
CHAT = -1001234567890
#: (winner index, text): every one a finished, valid hand, so each message books a new hand
WINS = [
    (0, "胡 123p46p789s22s333s 5p 点 @xiaoli"),
    (1, "胡 1122334456677p 5p 自摸"),
    (2, "胡 2245556p123s999s 5p 点 @ajie"),
    (0, "胡 清一色 七对 自摸"),
    (1, "胡 777z666z55z123p99s 5z 自摸"),
    (2, "胡 卡五星 点 @xiaoli"),
]
#: the simulated time between two messages: a brisk table, and 10,000 hands stay within one night
PACE = timedelta(seconds=2)
#: between the fill and the second measure: longer than the claims hold-back (the measured wins would otherwise be held
#: as the fill's last hand told another way whenever their winners meet)
PAUSE = timedelta(minutes=10)


async def _echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message is not None and update.effective_message.text is not None:
        await context.bot.send_message(update.effective_message.chat_id, update.effective_message.text)


class Run:
    """Both applications over one fake Bot API, fed updates with increasing ids (each inside a delivery unless
    `straight`); `profile` (when set) is enabled around each win, in the event loop and in the command layer's
    thread alike."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        echo: Application,  # type: ignore[type-arg]
        clock: ManualClock,
        *,
        straight: bool,
    ) -> None:
        self.app, self.echo, self.clock, self.straight = app, echo, clock, straight
        self.builder = Updates()
        self.update_id = 0
        self.profile: cProfile.Profile | None = None

    async def feed(self, app: Application, data: dict[str, Any]) -> tuple[float, float]:  # type: ignore[type-arg]
        """(wall, CPU) seconds of one update through `app`."""
        self.update_id += 1
        update = Update.de_json({"update_id": self.update_id, **data}, app.bot)
        started, started_cpu = time.perf_counter(), time.process_time()
        if self.straight:
            await app.process_update(update)
        else:
            with delivering(Delivery(self.update_id, CHAT, _marked)):
                await app.process_update(update)
        return time.perf_counter() - started, time.process_time() - started_cpu

    async def measure(self, count: int, offset: int) -> dict[str, list[tuple[float, float]]]:
        """`count` wins, each followed by the same text through the echo application."""
        out: dict[str, list[tuple[float, float]]] = {"win": [], "echo": []}
        for i in range(offset, offset + count):
            winner, text = WINS[i % len(WINS)]
            # 阿杰 types every win, naming its winner: one recorder's hands in a row (wins by others two seconds
            # apart from several people would be held back as one hand told two ways, not booked)
            said = f"胡 @{PLAYERS[winner]['username']} {text.removeprefix('胡 ')}"
            data = self.builder.message(PLAYERS[0], said)
            self.clock.advance(PACE)
            if self.profile is not None:
                self.profile.enable()
            out["win"].append(await self.feed(self.app, data))
            if self.profile is not None:
                self.profile.disable()
            out["echo"].append(await self.feed(self.echo, data))
        return out


async def _marked() -> bool:
    """The done mark, left out of the measurement (the first mark: the handler sends its reply)."""
    return True


def fill(ledger: Ledger, clock: ManualClock, hands: int) -> None:
    """Book `hands` more wins at the chat's open table straight through the ledger (the same rows the bot writes),
    recorded by 阿杰 as the measured wins are: someone else's hand end just before them would hold them back as one
    hand told two ways."""
    table = ledger.current_table(CHAT)
    assert table is not None
    players = table.players
    for i in range(hands):
        clock.advance(PACE)
        hand = WinHand(patterns=("qingyise",)) if i % 2 else WinHand("123p46p789s22s", "5p", (Meld("peng", "3s"),))
        win = Win(players[i % 3], "self_draw", hand)
        ledger.record_hand(table.id, [win], source=f"bench:fill:{i}", by=PLAYERS[0]["id"])  # 阿杰, as measured


def report(label: str, times: dict[str, list[tuple[float, float]]]) -> None:
    wall = {kind: statistics.median(t[0] for t in times[kind]) for kind in times}
    cpu = {kind: statistics.median(t[1] for t in times[kind]) for kind in times}
    print(
        f"  {label:<26} win {wall['win'] * 1000:6.2f} ms wall / {cpu['win'] * 1000:5.2f} ms CPU   "
        f"echo {wall['echo'] * 1000:5.2f} / {cpu['echo'] * 1000:5.2f} ms   "
        f"ratio wall {wall['win'] / wall['echo']:5.1f}×  CPU {cpu['win'] / cpu['echo']:5.1f}×"
    )


def profiled(core: Bot, run: Run) -> None:
    """Have the command layer's thread profile into `run.profile` while a win is measured (a cProfile profile
    records the thread that enables it, so the worker thread enables the same one around its own work)."""
    handle = core.handle_message

    def handle_message(incoming: Any) -> Any:
        if run.profile is None:
            return handle(incoming)
        run.profile.enable()
        try:
            return handle(incoming)
        finally:
            run.profile.disable()

    core.handle_message = handle_message  # type: ignore[method-assign]


async def run(wins: int, hands: int, url: str | None, profile: int, straight: bool) -> None:
    telegram = FakeTelegram(admins=[BOSS])
    request = RecordingRequest(telegram)
    with tempfile.TemporaryDirectory(prefix="paiju-bench-") as scratch:
        clock = ManualClock()
        drop = None
        if url is not None and url.startswith("postgres"):  # a private schema, dropped at the end
            url, drop = postgres_schema(url)
        ledger = Ledger.open(url or f"sqlite:///{Path(scratch) / 'bench.db'}", clock=clock.now)
        core = Bot(ledger, clock=clock)
        app = build_application(
            Settings(),
            core,
            "1:BENCH",
            request=request,
            get_updates_request=request,
            rate_limit=False,
        )
        echo = Application.builder().token("1:BENCH").request(request).get_updates_request(request).build()
        echo.add_handler(MessageHandler(filters.TEXT, _echo))
        await app.initialize()
        await echo.initialize()
        runner = Run(app, echo, clock, straight=straight)
        profiled(core, runner)
        for player in PLAYERS:
            await runner.feed(app, runner.builder.message(player, "来了"))
        await runner.feed(app, runner.builder.message(PLAYERS[0], "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        statements = [0, 0]

        @sa.event.listens_for(sa.Engine, "begin")
        def _begin(connection: sa.Connection) -> None:
            options = connection.get_execution_options()
            if options.get("isolation_level") != "AUTOCOMMIT" and options.get(SQLITE_BEGIN) != NO_BEGIN:
                statements[0] += 1  # a transaction the database sees (a lone statement outside one is not)

        @sa.event.listens_for(sa.Engine, "before_cursor_execute")
        def _statement(*_args: object) -> None:
            statements[1] += 1

        per_win = (0, 0)
        for kind in range(len(WINS)):  # warm up, and count each kind of win's transactions and statements: the most
            statements[:] = [0, 0]
            await runner.measure(1, kind)
            per_win = (max(per_win[0], statements[0]), max(per_win[1], statements[1]))
        sa.event.remove(sa.Engine, "begin", _begin)
        sa.event.remove(sa.Engine, "before_cursor_execute", _statement)
        before = len(ledger.history(CHAT, 100_000))
        runner.profile = cProfile.Profile() if profile else None
        first = await runner.measure(wins, 1)
        taken, runner.profile = runner.profile, None
        booked = len(ledger.history(CHAT, 100_000)) - before
        fill(ledger, clock, hands)
        clock.advance(PAUSE)
        if ledger.engine.dialect.name == "postgresql":
            # the fill books hands faster than autovacuum re-analyzes: give the planner what it would know by then
            with ledger.engine.begin() as connection:
                connection.exec_driver_sql("ANALYZE")
        before = len(ledger.history(CHAT, 100_000))
        last = await runner.measure(wins, 1 + wins)
        booked = min(booked, len(ledger.history(CHAT, 100_000)) - before)
        table = ledger.current_table(CHAT)
        await app.shutdown()
        await echo.shutdown()
        ledger.close()
        if drop is not None:
            drop()
    if booked != wins or table is None:
        raise SystemExit(f"only {booked} of {wins} wins were booked: the benchmark measured refusals")
    where = "PostgreSQL" if url is not None and url.startswith("postgres") else "SQLite WAL"
    how = "straight, every booking synced by itself" if straight else "inside its delivery, as paiju run hands it"
    print(f"a recorded win through process_update vs a no-op echo ({len(WINS)} kinds of win, {where}; {how})")
    print(
        f"  one win: at most {per_win[0]} transaction(s), {per_win[1]} statements (of its {len(WINS)} kinds; "
        "SQLite's BEGIN among them)"
    )
    report(f"hands 1–{wins}", first)
    report(f"hands {table.hand_number - wins}–{table.hand_number - 1}", last)
    if taken is not None:
        print(f"profile of hands 1–{wins} (both threads; cumulative seconds over {wins} wins):")
        pstats.Stats(taken, stream=sys.stdout).sort_stats("cumulative").print_stats(profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wins", type=int, default=300, help="wins measured at each end")
    parser.add_argument("--fill", type=int, default=10_000, help="hands booked at the table between the two ends")
    parser.add_argument("--db", help="database URL (default: a temporary SQLite file; PostgreSQL: a private schema)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    parser.add_argument("--straight", action="store_true", help="no delivery: each booking syncs by itself")
    args = parser.parse_args()
    asyncio.run(run(args.wins, args.fill, args.db, args.profile, args.straight))


if __name__ == "__main__":
    main()
