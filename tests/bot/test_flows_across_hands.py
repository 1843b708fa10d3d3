"""Button flows and 「就是这个」 belong to the hand they were asked in; flows stored before they kept their hand
(no `hand` in their state) still book where they are pressed. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from bot.core import AnswerCallback, Bot, ManualClock, Sender, SendText
from ledger.service import Ledger
from tests.bot.chat import press, say

CHAT = -1009988776611
A, B, C = (Sender(1000 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)
_say = partial(say, chat=CHAT, now=NOW)
_press = partial(press, chat=CHAT, now=NOW)


def _seated(ledger: Ledger) -> Bot:
    bot = Bot(ledger, clock=ManualClock(NOW))
    for number, sender in enumerate((A, B, C), start=1):
        _say(bot, sender, number, "你好")
    _say(bot, A, 10, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    return bot


def test_a_flow_stored_without_its_hand_still_books(ledger: Ledger) -> None:
    bot = _seated(ledger)
    _say(bot, B, 11, "胡")
    flow = ledger.load_flow(CHAT, 11)
    assert flow is not None and flow.state["hand"] == 1
    legacy = {k: v for k, v in flow.state.items() if k != "hand"}
    legacy |= {"who": "xiaoli", "method": "self_draw", "patterns": ["qingyise"], "step": "preview"}
    ledger.save_flow(CHAT, 11, B.user_id, "hu", legacy)
    _press(bot, B, "hu:11:ok", "q1")
    [hand] = ledger.history(CHAT, 10)
    assert hand.number == 1
    balances = {line.name: line.amount for line in ledger.balances(CHAT).lines}
    assert (balances["ajie"], balances["xiaoli"], balances["laowang"]) == (-400, 800, -400)


def test_a_suggestion_tapped_after_its_hand_was_recorded_books_nothing(ledger: Ledger) -> None:
    bot = _seated(ledger)
    [question] = _say(bot, B, 11, "胡 清一涩 自摸")
    _say(bot, A, 12, "胡 卡五星 点 @laowang")
    effects = _press(bot, B, question.buttons[0][0].data, "q1")
    gone = "第1局已经记完了，这个按钮作废（没有记账）。"
    assert effects == [AnswerCallback(gone, alert=True), SendText(gone, edit_message_id=500)]
    assert len(ledger.history(CHAT, 10)) == 1
    assert ledger.hand_state(ledger.current_table(CHAT).id).number == 2  # type: ignore[union-attr]
    flow = ledger.load_flow(CHAT, 11)
    assert flow is not None and flow.finished_at is not None
