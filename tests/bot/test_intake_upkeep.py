"""The intake's hourly sweep runs the ledger's upkeep with the inbox's pruning: button flows left waiting a day
are finished (`Ledger.expire_flows`), once an hour, not at every sweep."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from bot.telegram.intake import Dispatcher
from ledger.service import Ledger

CHAT = -1001234567890


class _Inbox:
    """What the sweep asks of the inbox: nothing waiting, nothing to prune."""

    def sweep(self) -> frozenset[int]:
        return frozenset()

    def prune(self, keep: timedelta) -> int:
        return 0


async def test_the_hourly_sweep_expires_flows_left_waiting(ledger: Ledger, clock: Any) -> None:
    ledger.group(CHAT)
    ledger.save_flow(CHAT, 1, 7, "unsettle", {"settlement_id": 1})
    clock.advance(hours=25)
    ledger.save_flow(CHAT, 2, 7, "dpay", {})
    runs: list[int] = []

    def upkeep() -> int:
        runs.append(ledger.expire_flows())
        return runs[-1]

    metrics = SimpleNamespace(chats=SimpleNamespace(set_function=lambda _read: None))
    dispatcher = Dispatcher(SimpleNamespace(), _Inbox(), metrics, upkeep=upkeep)  # type: ignore[arg-type]
    try:
        await dispatcher._sweep()
        await dispatcher._sweep()
    finally:
        dispatcher.executor.shutdown()
    assert runs == [1]  # the day-old question, once
    assert [flow.message_id for flow in ledger.open_flows(CHAT)] == [2]
