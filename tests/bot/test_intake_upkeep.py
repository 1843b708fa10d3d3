"""The intake's hourly sweep runs the upkeep with the inbox's pruning: button flows left waiting a day are finished
(`bot.upkeep.expire`), once an hour, not at every sweep; a record left waiting so is told to its chat, once."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from bot.telegram.intake import Dispatcher
from bot.upkeep import Upkept, expire
from ledger.service import Ledger
from tests.ledger.helpers import seat_kawuxing

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

    def upkeep() -> Upkept:
        runs.append(ledger.expire_flows())
        return Upkept(runs[-1], ())

    metrics = SimpleNamespace(chats=SimpleNamespace(set_function=lambda _read: None))
    dispatcher = Dispatcher(SimpleNamespace(), _Inbox(), metrics, upkeep=upkeep)  # type: ignore[arg-type]
    try:
        await dispatcher._sweep()
        await dispatcher._sweep()
    finally:
        dispatcher.executor.shutdown()
    assert runs == [1]  # the day-old question, once
    assert [flow.message_id for flow in ledger.open_flows(CHAT)] == [2]


class _TelegramBot:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str, int | None]] = []

    async def send_message(self, chat_id: int, text: str, reply_parameters: Any = None) -> None:
        self.sent.append((chat_id, text, reply_parameters.message_id if reply_parameters else None))


async def test_a_record_left_waiting_a_day_is_told_to_its_chat_once(ledger: Ledger, clock: Any) -> None:
    """A win waiting for its 漂 (a flow holding the hand) expires with a word to its chat; a second upkeep (another
    worker's, or the next hour's) finds nothing more to say."""
    table = seat_kawuxing(ledger)
    win = {"type": "hu", "winner": "A", "method": "self_draw", "hand": {"patterns": ["qingyise"]}}
    state = {"table_id": table.id, "number": 1, "batch": [win], "answers": [], "holds_hand": 1, "message": 77}
    ledger.save_flow(CHAT, 5, 7, "ask", state)
    ledger.save_flow(CHAT, 6, 7, "undo", {"table_id": table.id, "target": "e1"})  # no record: expires unsaid
    clock.advance(hours=25)
    bot = _TelegramBot()
    metrics = SimpleNamespace(chats=SimpleNamespace(set_function=lambda _read: None))
    application = SimpleNamespace(bot=bot)
    dispatcher = Dispatcher(application, _Inbox(), metrics, upkeep=lambda: expire(ledger))  # type: ignore[arg-type]
    other = Dispatcher(application, _Inbox(), metrics, upkeep=lambda: expire(ledger))  # type: ignore[arg-type]
    try:
        await dispatcher._sweep()
        await other._sweep()
    finally:
        dispatcher.executor.shutdown()
        other.executor.shutdown()
    assert bot.sent == [
        (CHAT, "⌛ 第1局那条等回答的记录（A 自摸 清一色）放了一天没人答完，已经作废，没有记账。要记请重新发。", 77)
    ]
    assert ledger.open_flows(CHAT) == []
