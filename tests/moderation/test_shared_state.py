"""State every bot process shares (flood counters, admin lists): the store on the database (SQLite, PostgreSQL)
and on Redis, and two `Bot` workers that each see part of one member's flood and punish it exactly once."""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import pytest
import sqlalchemy as sa

import bot.shared_state as shared
from bot.core import BanMember, Bot, Incoming, ManualClock, Sender, SendText
from bot.moderation.detectors import FloodDetector, FloodRules
from ledger.db import make_engine
from ledger.moderation import Moderation
from ledger.service import Ledger
from ledger.shared_state import AdminLists, DatabaseState, MemoryState, RedisState, SharedState
from tests.conftest import _clean_postgres

REDIS_URL = os.environ.get("PAIJU_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CHAT = -100777
ADMIN = Sender(1, "群主-老大", username="owner")
SPAMMER = Sender(42, "小明-成员", username="bob")
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql), "redis"]


class Time:
    """A settable wall clock for the database backend's expiry."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix no other test run uses; its keys are deleted afterwards. Skips when Redis does not answer."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as err:
        pytest.skip(f"Redis tests skipped: {REDIS_URL} does not answer ({err})")
    prefix = f"paiju-test:{os.getpid()}:{secrets.token_hex(4)}:"
    yield prefix
    keys = list(client.scan_iter(match=prefix + "*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> tuple[str, str]:
    """(kind, database URL): the database the test's ledger uses, and which store it shares state in (Redis
    beside a SQLite ledger)."""
    kind = str(request.param)
    if kind == "postgresql":
        return kind, _clean_postgres(request.getfixturevalue("_postgres_migrated"))
    if kind == "redis":
        request.getfixturevalue("redis_prefix")
    return kind, str(request.getfixturevalue("sqlite_url"))


def _store(kind: str, url: str, request: pytest.FixtureRequest, clock: Time | None = None) -> SharedState:
    if kind == "redis":
        return RedisState(REDIS_URL, prefix=request.getfixturevalue("redis_prefix"))
    engine = make_engine(url)
    request.addfinalizer(engine.dispose)
    return DatabaseState(engine, clock=clock)


# ------------------------------------------------------------------------------------------- the store itself


def test_get_put_delete_and_claim(backend: tuple[str, str], request: pytest.FixtureRequest) -> None:
    store = _store(*backend, request)
    try:
        assert store.get("k:1") is None
        store.put("k:1", {"admins": [1, 2], "owner": 1}, 60)
        assert store.get("k:1") == {"admins": [1, 2], "owner": 1}
        store.delete("k:1")
        assert store.get("k:1") is None
        assert store.claim("notice:1", 60) is True
        assert store.claim("notice:1", 60) is False
        assert store.update("n", lambda old: ((old or 0) + 1, (old or 0) + 1), 60) == 1
        assert store.update("n", lambda old: (None, old), 60) == 1  # None deletes
        assert store.get("n") is None
        with pytest.raises(ValueError, match="ASCII"):
            store.put("键", 1, 60)
    finally:
        store.close()


def test_updates_from_many_threads_are_atomic(backend: tuple[str, str], request: pytest.FixtureRequest) -> None:
    """8 threads, each its own store (as 8 workers would have), add 1 twenty-five times: the sum is exact."""
    kind, url = backend
    stores = [_store(kind, url, request) for _ in range(8)]
    errors: list[BaseException] = []

    def add(store: SharedState) -> None:
        try:
            for _ in range(25):
                store.update("counter", lambda old: ((old or 0) + 1, None), 60)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=add, args=(s,)) for s in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert errors == []
        assert stores[0].get("counter") == 200
    finally:
        for store in stores:
            store.close()


def test_database_entries_expire_and_are_swept(db_url: str) -> None:
    time = Time()
    engine = make_engine(db_url)
    store = DatabaseState(engine, clock=time)
    try:
        store.put("old", 1, 10)
        store.put("new", 2, 100)
        assert store.claim("once", 10) and not store.claim("once", 10)
        time.now += timedelta(seconds=11)
        assert store.get("old") is None and store.get("new") == 2
        assert store.claim("once", 10)  # an expired claim can be claimed again
        assert store.update("old", lambda value: (5, value), 10) is None  # an expired value reads as absent
        time.now += timedelta(seconds=11)
        assert store.sweep() == 2  # "old" and "once" again expired; "new" lives on
        with engine.connect() as connection:
            keys = connection.execute(sa.text("SELECT key FROM shared_state")).scalars().all()
        assert keys == ["new"]
    finally:
        store.close()
        engine.dispose()


def test_redis_entries_expire_by_themselves(redis_prefix: str) -> None:
    import time

    store = RedisState(REDIS_URL, prefix=redis_prefix)
    try:
        store.put("short", 1, 0.05)
        assert store.get("short") == 1
        time.sleep(0.2)
        assert store.get("short") is None
    finally:
        store.close()


def test_memory_entries_expire() -> None:
    now = [0.0]
    store = MemoryState(clock=lambda: now[0])
    store.put("k", [1], 5)
    assert store.get("k") == [1]
    now[0] = 6
    assert store.get("k") is None


def test_admin_lists_are_shared_and_forgotten_for_everyone(
    backend: tuple[str, str], request: pytest.FixtureRequest
) -> None:
    kind, url = backend
    first, second = AdminLists(_store(kind, url, request)), AdminLists(_store(kind, url, request))
    assert first.get(CHAT) is None
    first.put(CHAT, frozenset({1, 2}), 1, 300)
    assert second.get(CHAT) == (frozenset({1, 2}), 1)
    second.forget(CHAT)  # a worker saw a promotion: every worker asks Telegram again
    assert first.get(CHAT) is None
    first.state.close()
    second.state.close()


def test_a_flood_detector_per_worker_counts_one_member_together(
    backend: tuple[str, str], request: pytest.FixtureRequest
) -> None:
    kind, url = backend
    workers = [FloodDetector(_store(kind, url, request)) for _ in range(2)]
    start = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    rules = FloodRules(max_messages=5, window_seconds=10, repeat_count=0)
    verdicts = [workers[i % 2].observe(CHAT, 42, f"m{i}", rules, start + timedelta(seconds=i)) for i in range(8)]
    assert [v.offence for v in verdicts] == [False] * 5 + [True, False, False]
    workers[0].forget(CHAT, 42)
    assert not workers[1].observe(CHAT, 42, "again", rules, start + timedelta(seconds=9)).offence
    for worker in workers:
        worker.state.close()


# ---------------------------------------------------------------------------------- two Bot workers, one flood


class Workers:
    """Two `Bot` instances with their own `Ledger` over one database, sharing state as `paiju run` would."""

    def __init__(self, kind: str, url: str, request: pytest.FixtureRequest) -> None:
        self.clock = ManualClock()
        self.ledgers = [Ledger.open(url, upgrade=False, clock=self.clock.now) for _ in range(2)]
        self.bots = [Bot(ledger, clock=self.clock) for ledger in self.ledgers]
        self.stores = [_store(kind, url, request) for _ in self.bots]
        for bot, store in zip(self.bots, self.stores, strict=True):
            shared.use(bot, store)
        self.ids = count(1)

    def say(self, worker: int, sender: Sender, text: str, at: datetime) -> list[Any]:
        message_id = next(self.ids)
        incoming = Incoming(
            chat_id=CHAT,
            message_id=message_id,
            sender=sender,
            text=text,
            date=at,
            source=f"tg:{CHAT}:{message_id}",
            admin_ids=frozenset({ADMIN.user_id}),
            owner_id=ADMIN.user_id,
        )
        return list(self.bots[worker].handle_message(incoming).effects)

    def actions(self, kind: str) -> list[Any]:
        return Moderation(self.ledgers[0], self.ledgers[0].engine).actions(CHAT, kinds=(kind,))

    def close(self) -> None:
        for store in self.stores:
            store.close()
        for ledger in self.ledgers:
            ledger.close()


@pytest.fixture
def workers(backend: tuple[str, str], request: pytest.FixtureRequest) -> Iterator[Workers]:
    found = Workers(*backend, request)
    yield found
    found.close()


def _texts(effects: list[Any]) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, SendText))


def test_a_flood_split_between_two_workers_is_punished_exactly_once(workers: Workers) -> None:
    start = workers.clock.now()
    said = [workers.say(i % 2, SPAMMER, f"刷屏{i}", start + timedelta(seconds=i)) for i in range(9)]
    announced = [i for i, effects in enumerate(said) if "第 1 次违规" in _texts(effects)]
    assert announced == [5]  # the sixth message in ten seconds, seen by the second worker
    assert len(workers.actions("warning")) == 1 and len(workers.actions("fine")) == 1
    assert workers.ledgers[1].balances(CHAT).pot == 500
    later = start + timedelta(minutes=5)  # a calm message ends the burst; the next burst is the second offence
    workers.say(1, SPAMMER, "好的", later)
    second = [workers.say(i % 2, SPAMMER, f"又刷{i}", later + timedelta(seconds=1 + i)) for i in range(6)]
    removals = [e for effects in second for e in effects if isinstance(e, BanMember)]
    assert removals == [BanMember(SPAMMER.user_id, then_unban=True)]
    assert len(workers.actions("warning")) == 2 and len(workers.actions("removal")) == 1


def test_the_same_text_three_times_across_two_workers_is_one_offence(workers: Workers) -> None:
    start = workers.clock.now()
    for i in range(4):
        workers.say(i % 2, SPAMMER, "加我好友", start + timedelta(minutes=i))
    warnings = workers.actions("warning")
    assert len(warnings) == 1 and warnings[0].rule == "repeat"


def test_two_workers_handling_one_flood_at_the_same_time_punish_it_once(workers: Workers) -> None:
    """The workers run in parallel threads: each takes every other message of a 16-message burst."""
    start = workers.clock.now()
    errors: list[BaseException] = []

    def work(worker: int) -> None:
        try:
            for i in range(worker, 16, 2):
                workers.say(worker, SPAMMER, f"快{i}", start + timedelta(milliseconds=300 * i))
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(w,)) for w in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(workers.actions("warning")) == 1 and len(workers.actions("fine")) == 1
    assert workers.ledgers[0].balances(CHAT).pot == 500


def test_without_shared_state_each_worker_would_miss_the_flood(sqlite_url: str) -> None:
    """What the shared store fixes: two workers each counting in their own memory see three messages each."""
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, upgrade=False, clock=clock.now)
    bots = [Bot(ledger, clock=clock) for _ in range(2)]
    for bot in bots:
        shared.use(bot, MemoryState())
    start = clock.now()
    for i in range(8):
        incoming = Incoming(CHAT, i + 1, SPAMMER, f"刷屏{i}", start + timedelta(seconds=i), f"tg:{CHAT}:{i + 1}")
        bots[i % 2].handle_message(incoming)
    assert Moderation(ledger, ledger.engine).actions(CHAT) == []
    ledger.close()


def test_one_time_notices_are_given_once_whichever_worker_meets_the_case(workers: Workers) -> None:
    """The missing-rights notice and the name-card reminder are ledger rows: one worker says them, never both."""
    from bot.moderation.filter import rights_notice

    assert len(rights_notice(workers.bots[0], CHAT)) == 1
    assert rights_notice(workers.bots[1], CHAT) == []
    newcomer = Sender(77, "newbie")
    start = workers.clock.now()
    first = _texts(workers.say(1, newcomer, "大家好", start))
    second = _texts(workers.say(0, newcomer, "在吗", start + timedelta(minutes=1)))
    assert "名字-身份" in first and "名字-身份" not in second
