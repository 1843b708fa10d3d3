"""The update being handled, as the handlers see it: its commit point, and whether to retry instead of apologising.

The dispatcher (bot/telegram/intake.py) hands an update to `Application.process_update` inside `delivering`. A
handler computes its outcome (bookings committed by the ledger), then calls `acknowledge()` before it sends
anything: the update is marked done, and only the first acknowledgement sends. So an update handled twice (a crash
after its booking, before its mark) books once and replies at most once. The mark is a synced commit, so the
bookings before it skip their own sync (`ledger.unit.synced_later`): the mark's makes them durable too, and a
power cut before it leaves the update stored, to be handled again. Without a dispatcher (tests feeding
`process_update` directly) `acknowledge()` is always true and every booking syncs by itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

import sqlalchemy as sa

from ledger.unit import synced_later


@dataclass
class Delivery:
    """One inbox row being handled. `mark` commits its done mark and says whether it was the first."""

    update_id: int
    chat_id: int
    mark: Callable[[], Awaitable[bool]]
    final_attempt: bool = True  # False: a transient database error is retried later instead of apologised for
    transient_error: BaseException | None = None
    _first: bool | None = field(default=None, repr=False)

    async def acknowledge(self) -> bool:
        if self._first is None:
            self._first = await self.mark()
        return self._first

    @property
    def acknowledged(self) -> bool:
        return self._first is not None


CURRENT: ContextVar[Delivery | None] = ContextVar("paiju_delivery", default=None)


@contextmanager
def delivering(delivery: Delivery) -> Iterator[None]:
    """Handle an update as `delivery`: `acknowledge()` marks it, and until then its bookings leave their disk sync
    to that mark (committed after them, synced, before anything is said)."""
    token = CURRENT.set(delivery)
    try:
        with synced_later(lambda: not delivery.acknowledged):
            yield
    finally:
        CURRENT.reset(token)


async def acknowledge() -> bool:
    """Mark the current update handled; True when this handler should carry out its effects."""
    delivery = CURRENT.get()
    return True if delivery is None else await delivery.acknowledge()


def transient(error: BaseException) -> bool:
    """A database error that a later try may not meet: a dropped or refused connection, a lock wait that ran out."""
    if isinstance(error, sa.exc.DBAPIError) and error.connection_invalidated:
        return True
    return isinstance(error, sa.exc.OperationalError | sa.exc.InterfaceError | sa.exc.TimeoutError)


def retry_later(error: BaseException) -> bool:
    """True when the dispatcher will run the update again: say nothing to the group now."""
    delivery = CURRENT.get()
    if delivery is None or delivery.final_attempt or delivery.acknowledged or not transient(error):
        return False
    delivery.transient_error = error
    return True
