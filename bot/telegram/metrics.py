"""Prometheus metrics of one `paiju run` process, served at `/metrics` (prometheus-client's text format).

Counted where they happen: updates by the dispatcher, refusals by the command layer's observer, bookings when the
ledger commits them (`ledger.unit.on_booked`), moderation actions from the rows committed (an SQLAlchemy session
hook): a rolled-back transaction counts nothing, a replayed booking writes no row and counts nothing. The intake
backlog is read from the database at each scrape. Each process has its own registry; scrape every worker.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest
from sqlalchemy import event
from sqlalchemy.orm import Session

from ledger.inbox import Backlog
from ledger.models import Operation
from ledger.moderation_models import ModerationAction
from ledger.unit import on_booked

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: seconds: from a few milliseconds (a reply) to a minute (a backlog)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_TALLY = "paiju_metrics_tally"


class Metrics:
    """The process's counters and histograms, and the hooks that feed them."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.updates = Counter(
            "paiju_updates", "Telegram updates handled, by type and outcome", ["type", "outcome"], registry=r
        )
        self.bookings = Counter(
            "paiju_bookings",
            "ledger operations committed (bookings, corrections, settings), by kind",
            ["kind"],
            registry=r,
        )
        self.refusals = Counter("paiju_refusals", "requests refused with a reply, by reason", ["reason"], registry=r)
        self.moderation = Counter(
            "paiju_moderation_actions",
            "warnings, fines, removals and bans recorded, by kind and rule",
            ["kind", "rule"],
            registry=r,
        )
        self.latency = Histogram(
            "paiju_update_latency_seconds",
            "from an update stored to its replies starting",
            ["type"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.handling = Histogram(
            "paiju_update_handling_seconds",
            "one update's handling: parsing, scoring, booking and replies",
            ["type"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.pending = Gauge("paiju_inbox_pending", "updates stored and not yet handled (all workers)", registry=r)
        self.oldest = Gauge(
            "paiju_inbox_oldest_pending_seconds", "age of the oldest update not yet handled", registry=r
        )
        self.chats = Gauge("paiju_chats_held", "chats whose updates this worker handles now", registry=r)
        self._backlog: Callable[[], Backlog] | None = None
        self._engine: sa.Engine | None = None

    def observe(self, event_name: str, detail: str) -> None:
        """The command layer's observer (`bot.core.Bot.observe`)."""
        if event_name == "refusal":
            self.refusals.labels(detail[:64]).inc()

    def watch_backlog(self, read: Callable[[], Backlog], now: Callable[[], Any]) -> None:
        """Read the intake backlog at each scrape."""

        def pending() -> float:
            return float(read().pending)

        def oldest() -> float:
            found = read().oldest
            return 0.0 if found is None else max(0.0, (now() - found).total_seconds())

        self.pending.set_function(pending)
        self.oldest.set_function(oldest)

    def watch_ledger(self, engine: sa.Engine) -> None:
        """Count the bookings the ledger commits on `engine` and the moderation actions committed through its
        sessions."""
        self._engine = engine
        _WATCHED.append(self)
        self._stop_counting = on_booked(self._booked)

    def unwatch(self) -> None:
        if self in _WATCHED:
            _WATCHED.remove(self)
            self._stop_counting()

    def _booked(self, engine: sa.Engine, kind: str) -> None:
        if engine is self._engine:
            self.bookings.labels(kind).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)

    def _committed(self, tally: Tally[tuple[str, ...]]) -> None:
        for key, count in tally.items():
            if key[0] == "booking":
                self.bookings.labels(key[1]).inc(count)
            else:
                self.moderation.labels(key[1], key[2]).inc(count)


_WATCHED: list[Metrics] = []


@event.listens_for(Session, "after_flush")
def _tally_new_rows(session: Session, _context: Any) -> None:
    if not _WATCHED:
        return
    tally: Tally[tuple[str, ...]] = session.info.setdefault(_TALLY, Tally())
    for row in session.new:
        if isinstance(row, Operation):
            tally[("booking", row.kind)] += 1
        elif isinstance(row, ModerationAction):
            tally[("moderation", row.kind, row.rule)] += 1


@event.listens_for(Session, "after_commit")
def _count_committed(session: Session) -> None:
    tally = session.info.pop(_TALLY, None)
    if not tally:
        return
    for metrics in _WATCHED:
        if session.bind is metrics._engine:
            metrics._committed(tally)


@event.listens_for(Session, "after_rollback")
def _forget_rolled_back(session: Session) -> None:
    session.info.pop(_TALLY, None)
