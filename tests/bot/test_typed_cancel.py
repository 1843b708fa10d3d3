"""Every question the bot asks someone for themselves takes their typed `算了` (`不撤销`, `取消`, `不用了`) as its
「不撤销」/「不用了」 button: a double entry held back (「确实又一次」), 撤销结算, 撤销发红包池. Through the Telegram
adapter: the question is rewritten with its buttons gone, the line gets a short reply, the old buttons expire and
nothing is booked; anyone else's word is chat. 「确实又一次」 is its sender's (or an admin's) to press. On SQLite and
PostgreSQL."""

from __future__ import annotations

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests

EXPIRED = "这个按钮已经失效了。"
NOT_YOURS = "只有记这一条的人或管理员能决定要不要再记一次。"


def waiting(tg: Harness, kind: str) -> list[int]:
    """Who has a question of `kind` waiting (their Telegram ids)."""
    return [flow.user_id for flow in tg.ledger.open_flows(CHAT["id"]) if flow.kind == kind]


async def test_a_double_entry_is_its_senders_to_confirm_or_drop_by_typing(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "暗杠")
    question = await ask(tg, C, "杠 @ajie 暗")  # the same kong, from 老王: held back
    assert question["text"].startswith("阿杰 刚刚记的：第1局 阿杰 暗杠。") and waiting(tg, "dup") == [C["id"]]
    for label in ("确实又一次", "不用了"):  # another seated player (whose money it is too) decides nothing
        await tg.feed(tg.updates.press(B, question, buttons(question)[label]))
        alert = tg.telegram.sent("answerCallbackQuery")[-1]
        assert alert["text"] == NOT_YOURS and alert["show_alert"] is True
    said = len(tg.telegram.calls)
    await tg.say(B, "不用了")  # and their word is chat
    await tg.say(A, "算了")
    assert tg.telegram.calls[said:] == [] and waiting(tg, "dup") == [C["id"]] and tg.balance(A["id"]) == 400
    typed = await tg.say(C, "不用了")
    edit, reply = tg.telegram.calls[said:]
    assert edit.method == "editMessageText" and edit.params["message_id"] == question["message_id"]
    assert edit.params["text"] == "已取消，没有记账。" and "reply_markup" not in edit.params
    assert reply.params["text"] == "好的，没有再记（上面问的已经作废）。"
    assert reply.params["reply_parameters"]["message_id"] == typed["message"]["message_id"]
    await tg.feed(tg.updates.press(C, question, buttons(question)["确实又一次"]))  # its buttons expired
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == EXPIRED
    assert waiting(tg, "dup") == [] and tg.balance(A["id"]) == 400
    # held back again: an admin may confirm it for its sender, once
    again = await ask(tg, C, "杠 @ajie 暗")
    await tg.feed(tg.updates.press(BOSS, again, buttons(again)["确实又一次"]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "记好了", tg.telegram.texts()[-3:]
    assert tg.balance(A["id"]) == 800 and waiting(tg, "dup") == []


async def test_an_admins_unsettle_question_is_dropped_by_their_typed_word(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "暗杠 7z")
    await tg.say(A, "荒庄")
    await tg.say(A, "结算")
    question = await ask(tg, BOSS, "撤销结算")
    said = len(tg.telegram.calls)
    await tg.say(A, "算了")  # a player's word: chat
    assert tg.telegram.calls[said:] == [] and waiting(tg, "unsettle") == [BOSS["id"]]
    await tg.say(BOSS, "算了")
    assert [c.params["text"] for c in tg.telegram.calls[said:]] == [
        "好的，结算没有撤销。",
        "好的，没有撤销（上面问的已经作废）。",
    ]
    assert tg.telegram.calls[said].params["message_id"] == question["message_id"]
    await tg.feed(tg.updates.press(BOSS, question, buttons(question)["确认撤销结算"]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == EXPIRED
    assert tg.ledger.current_night(CHAT["id"]) is None  # still settled


async def test_a_payout_question_is_dropped_by_typing_and_a_second_word_is_chat(tg: Harness) -> None:
    await tg.say(BOSS, "罚款 @xiaoli 5 刷屏")
    await tg.say(BOSS, "发红包池 @laowang")
    question = await ask(tg, BOSS, "撤销发红包池")
    said = len(tg.telegram.calls)
    await tg.say(BOSS, "不撤销")
    await tg.say(BOSS, "不撤销")  # nothing waits any more: chat
    assert [c.params["text"] for c in tg.telegram.calls[said:]] == [
        "好的，发红包池没有撤销。",
        "好的，没有撤销（上面问的已经作废）。",
    ]
    await tg.feed(tg.updates.press(BOSS, question, buttons(question)["确认撤销发红包池"]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == EXPIRED
    assert tg.balance(C["id"]) == 500
