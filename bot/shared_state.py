"""Which shared state a bot uses for flood counters and admin lists: the ledger's database unless told otherwise.

`paiju run` calls `use(bot, open_shared_state(...))` with its `[redis]` settings before the first update, so
every worker behind one webhook counts in the same place; the Telegram adapter keeps its admin lists in the same
store (`admin_lists(bot)`). The console and tests get the database default.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from bot.core import Bot
from ledger.shared_state import AdminLists, DatabaseState, SharedState

_chosen: WeakKeyDictionary[Bot, SharedState] = WeakKeyDictionary()


def use(bot: Bot, state: SharedState) -> None:
    """Make `bot` keep its shared state in `state` (call before it handles anything)."""
    _chosen[bot] = state


def of(bot: Bot) -> SharedState:
    """The bot's shared state; by default the `shared_state` table of its ledger's database."""
    found = _chosen.get(bot)
    if found is None:
        ledger: Any = bot.service
        found = _chosen[bot] = DatabaseState(ledger.engine)
    return found


def admin_lists(bot: Bot) -> AdminLists:
    return AdminLists(of(bot))
