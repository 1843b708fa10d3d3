"""A button under a table that has ended since says why it does nothing: the flows of a table are finished when it
ends (结算, 开桌 over it), and a press then answers 「那一晚已经结算了…」 or 「牌桌已经换了…」 rather than a bare
「这个按钮已经失效了。」; nothing is booked, and the asker's typed 算了 finds nothing waiting. On SQLite and
PostgreSQL."""

from __future__ import annotations

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, A, B, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests


def alert(tg: Harness) -> str:
    text: str = tg.telegram.sent("answerCallbackQuery")[-1]["text"]
    return text


async def test_a_question_and_a_flow_of_a_settled_night_say_so(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 自摸")
    question = await ask(tg, B, "撤销 第1局")
    flow = await ask(tg, A, "胡")  # a 胡 told by tapping, left half-way
    await tg.say(A, "结算")
    assert tg.ledger.open_flows(CHAT["id"]) == []
    await tg.feed(tg.updates.press(B, question, buttons(question)["确认撤销"]))
    assert alert(tg) == "那一晚已经结算了，这个按钮失效了。"
    await tg.feed(tg.updates.press(A, flow, next(iter(buttons(flow).values()))))
    assert alert(tg) == "那一晚已经结算了，这个按钮失效了。"
    said = len(tg.telegram.calls)
    await tg.say(B, "算了")  # nothing of B's waits: chat
    assert tg.telegram.calls[said:] == [] and tg.balance(A["id"]) == 800


async def test_a_question_of_a_table_replaced_the_same_night_says_the_table_changed(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 自摸")
    question = await ask(tg, B, "撤销 第1局")
    await tg.say(BOSS, "开桌 @ajie @xiaoli @laowang 庄 @xiaoli")
    await tg.feed(tg.updates.press(B, question, buttons(question)["确认撤销"]))
    assert alert(tg) == "牌桌已经换了，这个按钮失效了。" and tg.balance(A["id"]) == 800
