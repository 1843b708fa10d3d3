"""Load: 5,000 messages from 50 members in one simulated minute through the moderation path. Every offence is
detected exactly once and every booking lands (counts checked against an independent brute-force recount).
Timing is the benchmark's business (bench/bench_moderation.py), not this test's."""

from __future__ import annotations

import importlib.util
import sys
from datetime import timedelta
from pathlib import Path
from types import ModuleType

from bot.core import Bot, ManualClock
from ledger.service import Ledger

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_moderation.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_moderation", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_moderation", module)
    spec.loader.exec_module(module)
    return module


def test_five_thousand_messages_every_offence_once_no_booking_lost(sqlite_url: str) -> None:
    bench = _bench()
    messages = bench.stream(5000, 50, seed=7)
    assert len(messages) == 5000 and len({m.member for m in messages}) == 50
    assert messages[-1].at - messages[0].at < timedelta(minutes=1)
    clock = ManualClock(bench.START)
    ledger = Ledger.open(sqlite_url, upgrade=False, clock=clock.now)
    try:
        bot = Bot(ledger, clock=clock)
        bench.run(bot, messages, clock)
        counts = bench.check(ledger, bot, messages)  # raises on any difference from the recount
    finally:
        ledger.close()
    expected = bench.expected_offences(messages)
    assert counts["offences"] == sum(expected.values()) > 50  # the stream really exercises the ladder
    assert counts["fines"] == len(expected) and counts["removals"] > 0


def test_the_recount_agrees_with_a_small_hand_made_stream() -> None:
    """The oracle itself: six quick messages are one offence, a link another (removal), then a fresh start."""
    bench = _bench()
    start, second = bench.START, timedelta(seconds=1)
    quick = [bench.Message(1, start + i * second, f"m{i}") for i in range(8)]
    link = [bench.Message(1, start + 9 * second, bench.LINKS[0])]
    later = [bench.Message(1, start + (60 + i) * second, "x") for i in range(3)]
    assert bench.expected_offences(quick) == {1: 1}
    assert bench.expected_offences(quick + link) == {1: 2}
    assert bench.expected_offences(quick + link + later) == {1: 3}


def test_replies_to_the_bot_and_refused_commands_are_counted_as_the_recount_says(sqlite_url: str) -> None:
    """A flood is a flood whatever its shape: a fifth of the lines replies to the bot, a tenth commands refused
    (`撤销` with no table, `设置` from a member), every offence still once, as the brute-force recount has it."""
    bench = _bench()
    messages = bench.stream(2000, 30, seed=11, shapes=True)
    assert sum(m.reply for m in messages) > 300 and sum(m.command for m in messages) > 150
    clock = ManualClock(bench.START)
    ledger = Ledger.open(sqlite_url, upgrade=False, clock=clock.now)
    try:
        bot = Bot(ledger, clock=clock)
        bench.run(bot, messages, clock)
        counts = bench.check(ledger, bot, messages)
    finally:
        ledger.close()
    assert counts["offences"] == sum(bench.expected_offences(messages).values()) > 30


def test_the_recount_reads_a_refused_command_again_a_while_later_as_no_repeat() -> None:
    bench = _bench()
    start, second = bench.START, timedelta(seconds=1)
    slow = [bench.Message(1, start + i * 11 * second, "撤销") for i in range(3)]
    quick = [bench.Message(1, start + (40 + i) * second, "撤销") for i in range(3)]
    chat = [bench.Message(2, start + i * 11 * second, "哈哈") for i in range(3)]
    assert bench.expected_offences(slow) == {}
    assert bench.expected_offences(slow + quick) == {1: 1}
    assert bench.expected_offences(chat) == {2: 1}  # chat repeats however slowly
