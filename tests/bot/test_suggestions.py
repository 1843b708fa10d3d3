"""A suggested reading books only on 「就是这个」, once however often it is pressed, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from bot.core import Bot, ManualClock, Sender
from ledger.service import Ledger
from tests.bot.chat import press, say

CHAT = -1009988776655
A, B, C = (Sender(1000 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
STRANGER = Sender(2000, "luren", username="luren")
NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)
_say = partial(say, chat=CHAT, now=NOW)
_press = partial(press, chat=CHAT, now=NOW)


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
