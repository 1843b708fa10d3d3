"""The intake tables (ledger/inbox.py): stored once, claimed by one worker, acknowledged once, released only when
idle, taken over when a holder's lease runs out or its process died. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.db import make_engine
from ledger.inbox import Inbox, chat_of, notify_channel
from tests.conftest import Clock

BOT = 4242
CHAT_A, CHAT_B = -1001, -1002


def message(update_id: int, chat_id: int, text: str = "胡") -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {"message_id": update_id, "date": 0, "chat": {"id": chat_id, "type": "group"}, "text": text},
    }


def inboxes(db_url: str, clock: Clock, *workers: str, lease: float = 30.0) -> list[Inbox]:
    engine = make_engine(db_url)
    return [Inbox(engine, BOT, worker, lease_seconds=lease, clock=clock) for worker in workers]


def test_the_chat_of_every_kind_of_update() -> None:
    assert chat_of(message(1, CHAT_A)) == CHAT_A
    press = {"update_id": 2, "callback_query": {"id": "q", "message": {"chat": {"id": CHAT_B}}, "data": "x"}}
    assert chat_of(press) == CHAT_B
    assert chat_of({"update_id": 3, "chat_member": {"chat": {"id": CHAT_A}}}) == CHAT_A
    assert chat_of({"update_id": 4, "inline_query": {"id": "i", "query": "x"}}) == 0


def test_an_update_is_stored_once_and_its_chat_claimed_by_the_first_worker(db_url: str, clock: Clock) -> None:
    one, two = inboxes(db_url, clock, "one", "two")
    stored = one.store([message(1, CHAT_A), message(2, CHAT_B), message(1, CHAT_A)])
    assert stored.new == 2 and stored.held == {CHAT_A, CHAT_B} and stored.chats == {CHAT_A, CHAT_B}
    again = two.store([message(1, CHAT_A), message(3, CHAT_A)])  # a redelivery and a new one
    assert again.new == 1 and again.held == frozenset()  # CHAT_A belongs to `one`
    assert [p.update_id for p in one.pending(CHAT_A)] == [1, 3]
    assert one.next_offset() == 4


def test_acknowledging_is_first_once(db_url: str, clock: Clock) -> None:
    one, two = inboxes(db_url, clock, "one", "two")
    one.store([message(1, CHAT_A), message(2, CHAT_A)])
    first, second = (p.id for p in one.pending(CHAT_A))
    assert one.acknowledge([first]) == {first}
    assert two.acknowledge([first, second]) == {second}  # `first` was done already
    assert one.acknowledge([first, second]) == frozenset()
    assert one.pending(CHAT_A) == [] and one.backlog().pending == 0


def test_a_chat_is_released_only_when_nothing_waits(db_url: str, clock: Clock) -> None:
    one, two = inboxes(db_url, clock, "one", "two")
    one.store([message(1, CHAT_A)])
    assert not one.release(CHAT_A)  # update 1 waits
    one.acknowledge([p.id for p in one.pending(CHAT_A)])
    assert one.release(CHAT_A)
    assert two.store([message(2, CHAT_A)]).held == {CHAT_A}  # free again: the next storer takes it


def test_a_lease_that_ran_out_passes_to_the_sweeping_worker(db_url: str, clock: Clock) -> None:
    one, two = inboxes(db_url, clock, "one", "two", lease=30)
    one.store([message(1, CHAT_A)])
    assert two.sweep() == frozenset()  # held, and `one` renews in time
    clock.advance(seconds=20)
    assert one.renew() == {CHAT_A}
    clock.advance(seconds=20)
    assert two.sweep() == frozenset()  # renewed 20 s ago: still held
    clock.advance(seconds=11)
    assert two.sweep() == {CHAT_A}  # `one` stopped renewing: `two` takes the chat and its waiting update
    assert one.renew() == frozenset()  # and `one` learns it lost it
    assert one.sweep() == frozenset()


def test_a_dead_process_on_this_host_loses_its_chats_at_once(db_url: str, clock: Clock) -> None:
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    dead = f"{socket.gethostname()[:60]}:{int(finished.stdout)}:deadbeef"
    alive = f"{socket.gethostname()[:60]}:{os.getpid()}:cafecafe"
    elsewhere = f"other-host:{int(finished.stdout)}:0"
    gone, living, remote, me = inboxes(db_url, clock, dead, alive, elsewhere, "me")
    gone.store([message(1, CHAT_A)])
    living.store([message(2, CHAT_B)])
    remote.store([message(3, -1003)])
    assert me.sweep() == {CHAT_A}  # the living one and the one on another host keep theirs until they expire


def test_prune_deletes_only_updates_handled_long_enough_ago(db_url: str, clock: Clock) -> None:
    (one,) = inboxes(db_url, clock, "one")
    one.store([message(1, CHAT_A), message(2, CHAT_A), message(3, CHAT_A)])
    rows = one.pending(CHAT_A)
    one.acknowledge([rows[0].id])
    clock.advance(hours=2)
    one.acknowledge([rows[1].id])
    assert one.prune(timedelta(hours=1)) == 1
    assert one.store([message(2, CHAT_A)]).new == 0  # the recent one still recognises a redelivery
    assert [p.update_id for p in one.pending(CHAT_A)] == [3]


updates_st = st.lists(
    st.tuples(st.integers(1, 40), st.sampled_from([CHAT_A, CHAT_B, -1003]), st.sampled_from([0, 1, 2])),
    min_size=1,
    max_size=30,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deliveries=updates_st, order=st.randoms(use_true_random=False))
def test_whatever_the_deliveries_each_update_is_stored_once_held_by_one_and_done_once(
    sqlite_url: str, clock: Clock, deliveries: list[tuple[int, int, int]], order: Any
) -> None:
    """Three workers store overlapping, repeated deliveries (an update id always names the same chat); then
    every update is pending exactly once, each chat is held by exactly one worker, and acknowledging from all
    workers in any order makes each update done exactly once."""
    engine = make_engine(sqlite_url)
    with engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM inbox_updates")
        connection.exec_driver_sql("DELETE FROM inbox_leases")
    workers = [Inbox(engine, BOT, name, clock=clock) for name in ("w0", "w1", "w2")]
    chats = {}
    for update_id, chat, worker in deliveries:
        chat = chats.setdefault(update_id, chat)
        workers[worker].store([message(update_id, chat)])
    holders = {chat: [w.worker for w in workers if chat in w.sweep()] for chat in set(chats.values())}
    assert all(len(names) == 1 for names in holders.values()), holders
    pending = [p for chat in set(chats.values()) for p in workers[0].pending(chat)]
    assert sorted(p.update_id for p in pending) == sorted(chats)
    attempts = [(w, p.id) for w in workers for p in pending]
    order.shuffle(attempts)
    firsts = [row for worker, row in attempts if worker.acknowledge([row])]
    assert sorted(firsts) == sorted(p.id for p in pending)
    engine.dispose()


def test_a_stored_update_wakes_only_the_worker_that_holds_its_chat(db_url: str, clock: Clock) -> None:
    """PostgreSQL: the notice goes to the holder's own channel, so the other workers' loops are not woken."""
    if not db_url.startswith("postgresql"):
        pytest.skip("NOTIFY is PostgreSQL's (on SQLite one process wakes its lanes in memory)")
    import psycopg

    one, two, three = inboxes(db_url, clock, "one", "two", "three")
    one.store([message(1, CHAT_A)])  # `one` holds CHAT_A
    raw = make_engine(db_url).url.set(drivername="postgresql").render_as_string(hide_password=False)
    listeners = {}
    for inbox in (one, three):
        listener = psycopg.connect(raw, autocommit=True)
        listener.execute(f"LISTEN {notify_channel(inbox.worker)}")
        listeners[inbox.worker] = listener
    try:
        stored = two.store([message(2, CHAT_A)])
        assert stored.held == frozenset()
        heard = {worker: [n.payload for n in c.notifies(timeout=0.5, stop_after=1)] for worker, c in listeners.items()}
    finally:
        for listener in listeners.values():
            listener.close()
    assert heard == {"one": [f"{BOT}:{CHAT_A}"], "three": []}
    assert one.parse_notice(heard["one"][0]) == CHAT_A
