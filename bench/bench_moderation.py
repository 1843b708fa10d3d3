"""Benchmark: 5,000 chat messages from 50 members in one simulated minute through the moderation path.

    .venv/bin/python bench/bench_moderation.py [--messages 5000] [--members 50] [--seed 7] [--repeat 2]

The stream is generated from a seed: 40 members chat at a calm pace with a small vocabulary (so the same text
comes three times in a row now and then), 10 send in bursts; about one message in 150 carries a link. Each run
gets a fresh SQLite ledger and a simulated clock. In the same process, alternating, best of `--repeat`:
- baseline: the same messages through the command layer with the moderation filter taken out of its registry
  (what the bot costs anyway: the group lookup and the command grammar per message);
- moderation: the full path (content checks, flood counting, offences booked: warnings, fines into the pot,
  removals), once per place the flood counters can live: one process's memory (what a lone process needed
  before workers shared them), the ledger's database (the default) and Redis (when it answers).
Prints the time per message of each and the ratios. Then checks the result against an independent brute-force
recount (`expected_offences`): every offence recorded exactly once, every fine booked in the ledger, the pot
holding exactly the fines. The load test (tests/moderation/test_load.py) runs the same checks.
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.shared_state as shared
from bot.core import Bot, Incoming, ManualClock, Quoted, Registry, Sender, load_plugins, registry
from bot.moderation._state import state
from ledger.moderation import RuleSettings
from ledger.service import Ledger
from ledger.shared_state import DatabaseState, MemoryState, RedisState, SharedState

CHAT = -1009999
START = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
WORDS = ("好", "来了", "等等", "三缺一", "今晚几点", "哈哈", "我先走了", "在吗")
LINKS = ("看看abc.com吧", "进群t.me/+spam快来", "优惠www.example.cn领取")
BOT = Sender(2, "paiju", username="paiju_bot", is_bot=True)


#: commands every member is refused with no table open (`撤销`: no table; `设置`: admins only): they change
#: nothing, so they count toward flooding, a repeat only within the window of the member's previous line
REFUSED = ("撤销", "设置 底金 5")


@dataclass(frozen=True)
class Message:
    member: int
    at: datetime
    text: str
    reply: bool = False  # sent as a reply to the bot's message: counted like any line

    @property
    def command(self) -> bool:
        return self.text in REFUSED


def stream(messages: int = 5000, members: int = 50, seed: int = 7, *, shapes: bool = False) -> list[Message]:
    """`messages` messages from `members` members within one minute, in time order (ties keep member order).
    With `shapes`, a fifth of the lines are replies to the bot and a tenth refused commands (`REFUSED`)."""
    rng = random.Random(seed)
    loud = set(range(members // 5))
    weights = [8.0 if m in loud else 1.0 for m in range(members)]
    out = []
    for _ in range(messages):
        member = rng.choices(range(members), weights)[0]
        at = START + timedelta(milliseconds=rng.randrange(60_000))
        text = rng.choice(LINKS) if rng.random() < 1 / 150 else rng.choice(WORDS[: 3 if member in loud else 8])
        reply = False
        if shapes:
            reply = rng.random() < 1 / 5
            text = rng.choice(REFUSED) if rng.random() < 1 / 10 else text
        out.append(Message(member, at, text, reply))
    out.sort(key=lambda message: message.at)
    return out


def expected_offences(messages: list[Message], rules: RuleSettings | None = None) -> dict[int, int]:
    """Offences per member, recounted by brute force over each member's whole history (not the detector).

    A link is always an offence; otherwise a message is an offence when it starts a flooding run: more than
    `flood_max_messages` of the member's messages in (t - window, t], or the `repeat_count`-th identical text in
    a row, where the previous message was not flooding; a new run counts only the messages after the member's
    last flooding one. A refused command (`REFUSED`) is the same text again only when the one before it came within
    the window; a reply to the bot is a line like any other. A removal (the 2nd offence on) starts the member
    afresh.
    """
    rules = rules or RuleSettings()
    window = timedelta(seconds=rules.flood_window_seconds)
    history: dict[int, list[Message]] = {}
    flooding_before: dict[int, bool] = {}
    burst_end: dict[int, datetime] = {}
    offences: dict[int, int] = {}
    for message in messages:
        mine = history.setdefault(message.member, [])
        mine.append(message)
        since = None if flooding_before.get(message.member, False) else burst_end.get(message.member)
        in_window = sum(
            1
            for earlier in mine
            if message.at - window < earlier.at <= message.at and (since is None or earlier.at > since)
        )
        run, later = 0, None
        for earlier in reversed(mine):
            if earlier.text != message.text:
                break
            if later is not None and later.command and later.at - earlier.at >= window:
                break  # a command asked again a while later is no repeat
            run, later = run + 1, earlier
        flooding = in_window > rules.flood_max_messages or run >= rules.repeat_count
        starts = flooding and not flooding_before.get(message.member, False)
        flooding_before[message.member] = flooding
        if flooding:
            burst_end[message.member] = message.at
        has_link = message.text in LINKS
        if has_link or starts:
            offences[message.member] = offences.get(message.member, 0) + 1
            if offences[message.member] >= 2:  # removed: the detector forgets the member
                history[message.member] = []
                flooding_before[message.member] = False
                burst_end.pop(message.member, None)
    return offences


def sender(member: int) -> Sender:
    return Sender(10_000 + member, f"成员{member}-牌友", username=f"m{member}")


def run(bot: Bot, messages: list[Message], clock: ManualClock) -> tuple[float, float, int]:
    """Feed every message to the bot: (total seconds, seconds spent on messages the bot answered, how many)."""
    answered_seconds, answered = 0.0, 0
    started = time.perf_counter()
    for number, message in enumerate(messages, 1):
        clock.set(message.at)
        before = time.perf_counter()
        outcome = bot.handle_message(
            Incoming(
                chat_id=CHAT,
                message_id=number,
                sender=sender(message.member),
                text=message.text,
                date=message.at,
                source=f"bench:{number}",
                reply_to=Quoted(1, BOT, "👋") if message.reply else None,
                admin_ids=frozenset({1}),
            )
        )
        if outcome.effects:
            answered_seconds += time.perf_counter() - before
            answered += 1
    return time.perf_counter() - started, answered_seconds, answered


def without_moderation() -> Registry:
    """The bot's registry with the moderation filter and hooks taken out (commands unchanged)."""
    load_plugins()
    bare = copy.copy(registry)
    bare.filters = [f for f in registry.filters if f.name != "moderation"]
    bare.join_hooks = [h for h in registry.join_hooks if not h.__module__.startswith("bot.moderation")]
    return bare


def check(ledger: Ledger, bot: Bot, messages: list[Message]) -> dict[str, int]:
    """Compare what was booked with the brute-force recount; raises AssertionError on any difference."""
    expected = expected_offences(messages)
    service = state(bot).service
    warnings = service.actions(CHAT, kinds=("warning",))
    fines = service.actions(CHAT, kinds=("fine",))
    removals = service.actions(CHAT, kinds=("removal",))
    got: dict[int, int] = {}
    for warning in warnings:
        got[warning.user_id - 10_000] = got.get(warning.user_id - 10_000, 0) + 1
    assert got == expected, f"offences per member differ: got {got}, expected {expected}"
    assert len({w.message_id for w in warnings}) == len(warnings), "a message was punished twice"
    assert len(fines) == len(expected), "one fine per offending member (their first offence)"
    assert len(removals) == sum(n - 1 for n in expected.values())
    balances = ledger.balances(CHAT)
    assert balances.pot == sum(f.amount or 0 for f in fines) == 500 * len(fines), "a fine is missing in the pot"
    assert sum(line.amount for line in balances.lines) == 0
    return {"offences": len(warnings), "fines": len(fines), "removals": len(removals)}


STATES = ("memory", "database", "redis")


def shared_state_of(kind: str, ledger: Ledger, redis_url: str) -> SharedState:
    if kind == "memory":
        return MemoryState()
    if kind == "redis":
        return RedisState(redis_url, prefix=f"paiju-bench:{os.getpid()}:{time.monotonic_ns()}:")
    return DatabaseState(ledger.engine)


def measure(
    messages: list[Message], directory: Path, *, state: str | None, redis_url: str = ""
) -> tuple[tuple[float, float, int], dict[str, int] | None]:
    """One run: the baseline (`state` None) or the moderation path with flood counters in `state`."""
    clock = ManualClock(START)
    name = f"{state or 'baseline'}.db"
    ledger = Ledger.open(f"sqlite:///{directory / name}", clock=clock.now)
    store = None
    try:
        if state is None:
            return run(Bot(ledger, clock=clock, reg=without_moderation()), messages, clock), None
        bot = Bot(ledger, clock=clock)
        store = shared_state_of(state, ledger, redis_url)
        shared.use(bot, store)
        timing = run(bot, messages, clock)
        return timing, check(ledger, bot, messages)
    finally:
        if store is not None:
            store.close()
        ledger.close()


def redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each path (best kept)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="Redis for the redis run ('' skips it)")
    args = parser.parse_args(argv)
    messages = stream(args.messages, args.members, args.seed)
    states = [s for s in STATES if s != "redis" or (args.redis and redis_answers(args.redis))]
    base = float("inf")
    best: dict[str, tuple[float, float, int]] = {}
    counts: dict[str, dict[str, int] | None] = {}
    for _ in range(args.repeat):  # alternate the paths; keep each one's best run
        with tempfile.TemporaryDirectory(prefix="paiju-bench-") as scratch:
            base = min(base, measure(messages, Path(scratch), state=None)[0][0])
            for state in states:
                timing, counts[state] = measure(messages, Path(scratch), state=state, redis_url=args.redis)
                if state not in best or timing[0] < best[state][0]:
                    best[state] = timing
    n = len(messages)
    print(f"{n} messages from {args.members} members in one simulated minute (seed {args.seed})")
    print(f"baseline (command path, no moderation): {base / n * 1e3:7.3f} ms/message")
    for state in states:
        total, acted_seconds, acted = best[state]
        quiet = (total - acted_seconds) / (n - acted)
        print(f"moderation, flood counters in {state + ':':9} {total / n * 1e3:7.3f} ms/message  ({total / base:.2f}x)")
        print(
            f"  messages breaking no rule ({n - acted}):    {quiet * 1e3:7.3f} ms/message  ({quiet / (base / n):.2f}x)"
        )
        print(f"  messages punished ({acted}):             {acted_seconds / max(acted, 1) * 1e3:7.3f} ms/message")
        print(f"  booked exactly as recounted: {counts[state]}")
    if "memory" in best:
        for state in states[1:]:
            print(f"shared {state} / per-process memory: {best[state][0] / best['memory'][0]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
