"""Two processes recording into one database at once lose nothing and duplicate nothing.

Both processes get the same sources (in opposite orders, so they collide all the time) plus some of their own:
fines, kongs into the one open hand of a table, and new members. Afterwards every source is booked exactly
once, each process got the same answer for a shared source, and the books balance.

The processes start recording together at a barrier both reach once their ledger is open (a spawned process
can take seconds to import on a loaded machine, so a start time on the clock would not line them up).
"""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from ledger import models as m
from ledger.service import Ledger

from .helpers import CHAT, gang, seat_kawuxing

SHARED_FINES = 30
SHARED_KONGS = 8
OWN_FINES = 10


def table_time() -> datetime:
    """The workers' clock: the evening the test's table was opened (the `clock` fixture's start), so no 日切
    passes between its opening and the workers' bookings."""
    return datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


def work(url: str, worker: int, member_ids: list[int], table_id: int, start: Any) -> dict[str, Any]:
    """One process: record the shared sources (worker 1 backwards) and its own; return what each call answered."""
    ledger = Ledger.open(url, upgrade=False, clock=table_time)
    ledger.members(CHAT)  # connected and warmed up before the start
    answers: dict[str, Any] = {}
    shared = [("fine", i) for i in range(SHARED_FINES)] + [("kong", i) for i in range(SHARED_KONGS)]
    shared.sort(key=lambda item: item[1])
    if worker == 1:
        shared.reverse()
    start.wait(timeout=120)
    for index, (kind, i) in enumerate(shared):
        if kind == "fine":
            source = f"c:fine:{i}"
            answers[source] = ledger.fine(member_ids[i % 3], 100 + i, "并发", source=source, by=worker).id
        else:
            source = f"c:kong:{i}"
            result = ledger.record_event(table_id, gang("ABC"[i % 3], "angang"), source=source, by=worker)
            answers[source] = sorted(t.id for t in result.booked)
        if index % 4 == 0:  # interleave work only this process does
            own = f"c:own:{worker}:{index}"
            answers[own] = ledger.fine(member_ids[index % 3], 7, "自己的", source=own, by=worker).id
            ledger.member(CHAT, 90_000 + worker * 1000 + index, f"w{worker}-{index}")
    ledger.close()
    return answers


def test_two_processes_recording_at_once_lose_and_duplicate_nothing(ledger: Ledger, db_url: str) -> None:
    table = seat_kawuxing(ledger)
    member_ids = [seat.member_id for seat in table.seats]
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(2) as pool:
        start = manager.Barrier(2)
        runs = [pool.apply_async(work, (db_url, worker, member_ids, table.id, start)) for worker in (0, 1)]
        first, second = (run.get(timeout=300) for run in runs)

    shared = {source for source in first if not source.startswith("c:own")}
    assert shared == {source for source in second if not source.startswith("c:own")}
    for source in shared:  # a repeated source answers with the first booking
        assert first[source] == second[source], source

    with ledger.engine.connect() as connection:
        sources = connection.execute(sa.select(m.Operation.source).where(m.Operation.source.like("c:%"))).scalars()
        booked = sorted(sources)
        fine_sources = connection.execute(
            sa.select(m.Transfer.source).where(m.Transfer.kind == m.FINE, m.Transfer.voided_at.is_(None))
        ).scalars()
        fines = sorted(fine_sources)
        events = connection.execute(
            sa.select(m.HandEvent.source).where(m.HandEvent.voided_at.is_(None)).order_by(m.HandEvent.id)
        ).scalars()
        event_sources = list(events)
        creators = {
            source: creator
            for source, creator in connection.execute(
                sa.select(m.Operation.source, m.Operation.created_by).where(m.Operation.source.in_(shared))
            )
        }
    own = {source for answers in (first, second) for source in answers if source.startswith("c:own")}
    assert set(creators.values()) == {0, 1}  # they really ran at once: each booked part of the shared work
    assert booked == sorted(shared | own)  # every operation once
    assert fines == sorted(s for s in shared | own if "fine" in s or "own" in s)  # one transfer per fine source
    assert sorted(event_sources) == sorted(f"c:kong:{i}" for i in range(SHARED_KONGS))  # each kong once

    state = ledger.hand_state(table.id)
    assert len(state.events) == SHARED_KONGS
    expected_pot = sum(100 + i for i in range(SHARED_FINES)) + 7 * len(own)
    balances = ledger.balances(CHAT)
    assert balances.pot == expected_pot
    assert sum(line.amount for line in balances.lines) == 0
    assert len([member for member in ledger.members(CHAT) if member.kind == "member"]) == 3 + len(own)
    # kong money: each angang pays 2·b from each of the two others (b = 100)
    kong_money = sum(t.amount for t in state.transfers)
    assert kong_money == SHARED_KONGS * 2 * 200
