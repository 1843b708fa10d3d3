"""Updates in through the inbox (ledger/inbox.py), out to python-telegram-bot one chat at a time.

`Dispatcher` is the one way an update reaches the handlers in `paiju run`:
- `receive` stores updates (a webhook's, in group commits: one transaction for the posts that arrive while the
  previous one commits) and `receive_batch` a getUpdates batch; both return once the updates are durable;
- each chat this worker holds a lease on has a *lane*, a task that hands the chat's stored updates, oldest first,
  to `Application.process_update`, one at a time. Lanes of different chats run side by side, at most
  `concurrent_updates` updates at once; the booking work runs in threads, off the event loop;
- handlers acknowledge an update before replying (bot/telegram/delivery.py); acknowledgements are group-committed
  too, and synced: the bookings made before an update's acknowledgement commit without a sync of their own
  (`ledger.unit.synced_later`), so a booked update costs two disk syncs (stored; done), not three;
- an update whose handler met a database error it may not meet again (a dropped connection) is tried again
  with a growing pause, up to `MAX_TRIES` times, and the group hears nothing until it is handled;
- a heartbeat renews this worker's leases; a sweep claims chats whose updates nobody is handling (a worker died,
  or a wake-up was missed) and, hourly, prunes old rows and runs the upkeep (`bot.upkeep.expire`: flows left
  waiting a day finish, a record's chat is told); on PostgreSQL a listener (LISTEN/NOTIFY) wakes a lane the
  moment another worker stored an update for it.

`Poller` is the long-polling intake: it stores each batch before asking for the next, which is what tells
Telegram the batch arrived.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, Generic, TypeVar

from telegram import ReplyParameters, Update
from telegram.error import InvalidToken, RetryAfter, TelegramError
from telegram.ext import Application

from bot.telegram.delivery import Delivery, delivering
from bot.telegram.logs import handling
from bot.telegram.metrics import Metrics
from bot.upkeep import Notice, Upkept
from ledger.db import utcnow
from ledger.inbox import NOTIFY_CHANNEL, Inbox, Pending, Stored, notify_channel

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

#: tries of an update that meets transient database errors, before the group is told something went wrong
MAX_TRIES = 5
#: seconds between sweeps for unhandled updates (other workers' leftovers; wake-ups a listener missed)
SWEEP_SECONDS = 1.0
#: how often done rows older than the keep time are pruned
PRUNE_EVERY = timedelta(hours=1)
#: pending rows a lane reads at a time
LANE_BATCH = 50


class GroupCommit(Generic[T, R]):
    """Items submitted while a flush runs go together in the next one: one transaction for many callers.

    `flush(items)` runs in a thread and returns one result per item (in order)."""

    def __init__(self, flush: Callable[[list[T]], Sequence[R]]) -> None:
        self._flush = flush
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._running: asyncio.Task[None] | None = None

    async def submit(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._running is None:
            self._running = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    results = await asyncio.to_thread(self._flush, [item for item, _ in batch])
                except Exception as err:  # every caller of this flush learns it failed
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(err)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
        finally:
            self._running = None


def update_type(payload: Mapping[str, Any]) -> str:
    """The Bot API's name of what an update carries (message, callback_query …)."""
    return next((key for key in payload if key != "update_id"), "unknown")


def threads(concurrent_updates: int) -> int:
    """Threads of a worker's pool: one per update handled at once, and six for the intake's own work (storing,
    claiming, acknowledging, heartbeat, sweep) and the admin lists. Each may hold a database connection."""
    return concurrent_updates + 6


class Dispatcher:
    """Stores updates, and hands the stored updates of the chats this worker holds to the PTB application."""

    def __init__(
        self,
        application: Application,
        inbox: Inbox,
        metrics: Metrics,
        *,
        concurrent_updates: int = 8,
        keep: timedelta = timedelta(hours=24),
        sweep_seconds: float = SWEEP_SECONDS,
        upkeep: Callable[[], Upkept] | None = None,
    ) -> None:
        self.application, self.inbox, self.metrics = application, inbox, metrics
        self.upkeep = upkeep  # the ledger's own pruning (flows left waiting), run with the inbox's
        self.keep, self.sweep_seconds = keep, sweep_seconds
        self.held: frozenset[int] = frozenset()  # replaced, never changed in place: threads read it
        self.last_handled: float | None = None  # time.time() of the last update handled
        self._slots = asyncio.Semaphore(concurrent_updates)
        self._lanes: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._tries: dict[int, int] = {}
        self._stores: GroupCommit[Mapping[str, Any], Stored] = GroupCommit(self._store_flush)
        self._acks: GroupCommit[int, bool] = GroupCommit(self._ack_flush)
        self._background: list[asyncio.Task[None]] = []
        self._stopping = False
        self._pruned: float | None = None
        self._listener_stop = threading.Event()
        self.executor = ThreadPoolExecutor(max_workers=threads(concurrent_updates), thread_name_prefix="paiju")
        metrics.chats.set_function(lambda: float(len(self.held)))

    # -- lifecycle ----------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Take up what is waiting (a previous run's leftovers) and start the heartbeat, sweep and listener."""
        asyncio.get_running_loop().set_default_executor(self.executor)
        self._background = [
            asyncio.create_task(self._every(self.inbox.lease.total_seconds() / 3, self._heartbeat), name="heartbeat"),
            asyncio.create_task(self._every(self.sweep_seconds, self._sweep), name="sweep"),
        ]
        if self.inbox.engine.dialect.name == "postgresql":
            loop = asyncio.get_running_loop()
            listener = threading.Thread(target=self._listen, args=(loop,), name="paiju-listen", daemon=True)
            listener.start()

    async def stop(self, timeout: float = 30.0) -> None:
        """Finish the updates being handled (not the ones waiting: they stay stored), then give the leases up so
        other workers take the chats at once."""
        self._stopping = True
        self._listener_stop.set()
        for event in self._wake.values():
            event.set()
        lanes = list(self._lanes.values())
        if lanes:
            _, late = await asyncio.wait(lanes, timeout=timeout)
            for lane in late:
                lane.cancel()
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        try:
            await asyncio.to_thread(self.inbox.release_all)
        except Exception as err:  # the leases run out on their own
            log.warning("could not release the chat leases: %s", err)
        self.held = frozenset()

    # -- intake -------------------------------------------------------------------------------------------
    async def receive(self, update: Mapping[str, Any]) -> None:
        """Store one update (a webhook post); returns once it is committed."""
        stored = await self._stores.submit(update)
        self._take(stored)

    async def receive_batch(self, updates: Sequence[Mapping[str, Any]]) -> None:
        """Store a getUpdates batch in one transaction."""
        held = self.held
        self._take(await asyncio.to_thread(self.inbox.store, updates, claim=not self._stopping, held=held))

    def _store_flush(self, updates: list[Mapping[str, Any]]) -> list[Stored]:
        # stopping: stored for the other workers; chats held here are renewed by the heartbeat, not re-claimed
        stored = self.inbox.store(updates, claim=not self._stopping, held=self.held)
        return [stored] * len(updates)

    def _take(self, stored: Stored) -> None:
        self.held |= stored.held
        for chat in stored.chats & self.held:
            self.wake(chat)

    def wake(self, chat_id: int) -> None:
        """New work for a chat this worker holds: start its lane, or tell the running one."""
        if self._stopping or chat_id not in self.held:
            return
        self._wake.setdefault(chat_id, asyncio.Event()).set()
        if chat_id not in self._lanes:
            self._lanes[chat_id] = asyncio.create_task(self._lane(chat_id), name=f"lane {chat_id}")

    # -- lanes --------------------------------------------------------------------------------------------
    async def _lane(self, chat_id: int) -> None:
        """Handle the chat's updates in order while this worker holds it; give it up after a quiet lease period."""
        wake = self._wake[chat_id]
        pause = 0.0
        try:
            while not self._stopping and chat_id in self.held:
                wake.clear()
                try:
                    rows: list[Pending] | None = await asyncio.to_thread(self.inbox.pending, chat_id, LANE_BATCH)
                except Exception as err:  # the database is unreachable: keep the lease, look again later
                    log.warning("chat %s: the inbox is unavailable (%s)", chat_id, err)
                    rows = None
                if rows == []:
                    if await self._quiet(chat_id, wake):
                        return
                    continue
                if rows and await self._handle_all(chat_id, rows):
                    pause = 0.0
                    # every update stored since the read set `wake`: unless it did, or the read was cut short,
                    # there is nothing to read now
                    if len(rows) < LANE_BATCH and not wake.is_set() and await self._quiet(chat_id, wake):
                        return
                    continue
                pause = min(max(pause * 2, 0.5), 8.0)
                await asyncio.sleep(pause)
        finally:
            self._lanes.pop(chat_id, None)

    async def _handle_all(self, chat_id: int, rows: list[Pending]) -> bool:
        """Handle rows in order; False when one must be tried again later (the rest wait behind it)."""
        for row in rows:
            if self._stopping or chat_id not in self.held:
                return True
            if not await self._handle(row):
                return False
        return True

    async def _quiet(self, chat_id: int, wake: asyncio.Event) -> bool:
        """Wait for new work; after a lease period without any, give the chat up. True when the lane ends."""
        try:
            await asyncio.wait_for(wake.wait(), self.inbox.lease.total_seconds())
            return False
        except TimeoutError:
            if self._stopping:
                return True
            try:
                released = await asyncio.to_thread(self.inbox.release, chat_id)
            except Exception as err:
                log.warning("chat %s: could not give the lease up (%s)", chat_id, err)
                return False
            if released:
                self.held = self.held - {chat_id}
                self._wake.pop(chat_id, None)
            return released

    async def _handle(self, row: Pending) -> bool:
        """Hand one stored update to the application. False: a transient error; it stays stored for a retry."""
        tries = self._tries.get(row.id, 0) + 1
        kind = update_type(row.payload)

        async def mark() -> bool:
            first = await self._acks.submit(row.id)
            if first:
                self.metrics.latency.labels(kind).observe(max(0.0, (utcnow() - row.received_at).total_seconds()))
            return first

        delivery = Delivery(row.update_id, row.chat_id, mark, final_attempt=tries >= MAX_TRIES)
        started = time.perf_counter()
        async with self._slots:
            try:
                with handling(row.chat_id, row.update_id), delivering(delivery):
                    update = Update.de_json(row.payload, self.application.bot)
                    await self.application.process_update(update)
            except Exception:
                log.exception("update %s could not be read; skipped", row.update_id)
        if delivery.transient_error is not None and not delivery.acknowledged:
            self._tries[row.id] = tries
            self.metrics.updates.labels(kind, "retried").inc()
            return False
        self._tries.pop(row.id, None)
        first = await delivery.acknowledge()  # an update no handler took is done too
        self.metrics.handling.labels(kind).observe(time.perf_counter() - started)
        self.metrics.updates.labels(kind, "handled" if first else "duplicate").inc()
        self.last_handled = time.time()
        return True

    def _ack_flush(self, row_ids: list[int]) -> list[bool]:
        first = self.inbox.acknowledge(row_ids)
        return [row_id in first for row_id in row_ids]

    # -- background ---------------------------------------------------------------------------------------
    async def _every(self, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await job()
            except Exception as err:
                log.warning("%s failed: %s", job.__name__.strip("_"), err)
            await asyncio.sleep(seconds)

    async def _heartbeat(self) -> None:
        before = self.held
        kept = await asyncio.to_thread(self.inbox.renew)
        for chat in before - kept:  # expired and taken by another worker while this one stalled
            log.warning("chat %s: lease lost to another worker", chat)
            self.held = self.held - {chat}
            self._wake.get(chat, asyncio.Event()).set()

    async def _sweep(self) -> None:
        waiting = await asyncio.to_thread(self.inbox.sweep)  # held here, with updates waiting
        self.held |= waiting
        for chat in waiting:
            self.wake(chat)
        now = time.monotonic()
        if self._pruned is None or now - self._pruned > PRUNE_EVERY.total_seconds():
            self._pruned = now
            pruned = await asyncio.to_thread(self.inbox.prune, self.keep)
            if pruned:
                log.info("pruned %s handled updates older than %s", pruned, self.keep)
            if self.upkeep is not None:
                upkept = await asyncio.to_thread(self.upkeep)
                if upkept.expired:
                    log.info("expired %s button flows left waiting", upkept.expired)
                for notice in upkept.notices:  # a record left waiting a day: its chat told, once
                    await self._tell(notice)

    async def _tell(self, notice: Notice) -> None:
        """Post what the upkeep says by itself, under the question's message when it is still there."""
        reply = ReplyParameters(notice.reply_to, allow_sending_without_reply=True) if notice.reply_to else None
        try:
            await self.application.bot.send_message(notice.chat_id, notice.text, reply_parameters=reply)
        except TelegramError as err:
            log.warning("chat %s: the upkeep's notice was not sent: %s", notice.chat_id, err)

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        """PostgreSQL only, in a thread: wake a lane when another worker stored an update for a chat held here."""
        while not self._listener_stop.is_set():
            try:
                raw = self.inbox.engine.raw_connection()
                connection: Any = raw.driver_connection
                raw.detach()  # a connection of its own, outside the pool, for as long as it listens
                connection.rollback()  # a ping at checkout may have begun a transaction; LISTEN wants autocommit
                connection.autocommit = True
                connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                connection.execute(f"LISTEN {notify_channel(self.inbox.worker)}")
                try:
                    while not self._listener_stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            chat = self.inbox.parse_notice(note.payload)
                            if chat is not None:
                                loop.call_soon_threadsafe(self.wake, chat)
                finally:
                    connection.close()
            except Exception as err:
                if self._listener_stop.is_set():
                    return
                log.warning("the inbox listener lost its connection (%s); the sweep covers until it is back", err)
                self._listener_stop.wait(2.0)


class Poller:
    """Long polling: store each batch, then ask for the next with an offset past it (which confirms it)."""

    def __init__(
        self,
        application: Application,
        dispatcher: Dispatcher,
        *,
        timeout: int,
        allowed_updates: Sequence[str],
        drop_pending_updates: bool,
    ) -> None:
        self.application, self.dispatcher = application, dispatcher
        self.timeout, self.allowed_updates, self.drop = timeout, list(allowed_updates), drop_pending_updates

    async def run(self, stop: asyncio.Event) -> None:
        """Poll until `stop` is set. A refused token ends it (raises InvalidToken); network trouble is retried."""
        bot = self.application.bot
        await bot.delete_webhook(drop_pending_updates=self.drop)  # getUpdates works only without a webhook
        offset = await asyncio.to_thread(self.dispatcher.inbox.next_offset)
        pause = 0.0
        while not stop.is_set():
            fetch = asyncio.ensure_future(
                bot.get_updates(offset=offset, timeout=self.timeout, allowed_updates=self.allowed_updates)
            )
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait({fetch, stopped}, return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not fetch.done():  # stopping: this poll's updates stay unconfirmed; Telegram keeps them
                fetch.cancel()
                await asyncio.gather(fetch, return_exceptions=True)
                break
            try:
                updates = fetch.result()
            except InvalidToken:
                raise
            except RetryAfter as err:
                await asyncio.sleep(_seconds(err.retry_after))
                continue
            except TelegramError as err:
                pause = min(max(pause * 2, 1.0), 30.0)
                log.warning("getUpdates failed (%s); trying again in %.0f s", err, pause)
                await asyncio.sleep(pause)
                continue
            pause = 0.0
            if not updates:
                continue
            batch = [update.to_dict() for update in updates]
            while True:  # the batch must be stored before the offset moves past it
                try:
                    await self.dispatcher.receive_batch(batch)
                    break
                except Exception as err:
                    log.warning("could not store %s updates (%s); trying again", len(batch), err)
                    await asyncio.sleep(1.0)
            offset = max(update.update_id for update in updates) + 1


def _seconds(value: float | timedelta) -> float:
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
