"""A suggested reading books only on 「就是这个」, once however often it is pressed, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core import Bot, CallbackQuery, Incoming, ManualClock, Sender, SendText
from ledger.service import Ledger

CHAT = -1009988776655
A, B, C = (Sender(1000 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
STRANGER = Sender(2000, "luren", username="luren")
NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)


def _say(bot: Bot, sender: Sender, message_id: int, text: str) -> list[SendText]:
    incoming = Incoming(CHAT, message_id, sender, text, NOW, source=f"t:{CHAT}:{message_id}")
    return [e for e in bot.handle_message(incoming).effects if isinstance(e, SendText)]


def _press(bot: Bot, sender: Sender, data: str, query: str) -> list[object]:
    press = CallbackQuery(query, CHAT, 500, sender, data, NOW, source=f"t:{CHAT}:cb{query}")
    return bot.handle_callback(press).effects


def test_a_suggestion_books_once_on_a_tap_by_a_seated_player(ledger: Ledger) -> None:
    clock = ManualClock(NOW)
    bot = Bot(ledger, clock=clock)
    for number, sender in enumerate((A, B, C), start=1):
        _say(bot, sender, number, "你好")
    _say(bot, A, 10, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    [question] = _say(bot, A, 11, "胡 清一涩 自摸")
    [[yes, no]] = question.buttons
    assert (yes.data, no.data) == ("sg:11:ok", "sg:11:x") and "胡 清一色 自摸" in question.text
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)  # asked, not booked
    refused = _press(bot, STRANGER, yes.data, "q1")
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)
    assert any(getattr(e, "alert", False) for e in refused)
    _press(bot, B, yes.data, "q2")
    _press(bot, C, yes.data, "q3")  # a second tap, by someone else: the question is answered already
    balances = {line.name: line.amount for line in ledger.balances(CHAT).lines}
    assert (balances["ajie"], balances["xiaoli"], balances["laowang"]) == (800, -400, -400)
    assert len(ledger.history(CHAT, 10)) == 1
