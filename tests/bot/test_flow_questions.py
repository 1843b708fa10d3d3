"""The questions a button flow asks, answered the way the typed ones are: a 胡/杠 flow's confirmation held back as a
double entry is its asker's (or an admin's) to confirm with 「确实又一次」, as the question a typed line gets; the
asker's typed 算了 drops a 胡/杠 flow or a 「是不是」 suggestion as its 「取消」/「不是」 does (anyone else's is chat);
and a flow the 结算 expired stays expired when 撤销结算 opens the night again, its buttons saying so. Through the
Telegram adapter, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests

EXPIRED = "这个按钮已经失效了。"
NOT_YOURS = "只有记这一条的人或管理员能决定要不要再记一次。"
CANCELLED = "已取消，没有记账。"
CANCELLED_TYPED = "好的，不记了（上面的按钮已经作废）。"
REOPENED = "结算时这个还没答完，按钮已经作废了，撤销结算也不会恢复（这次什么也没做）。还要的话请重新发。"


def shown(tg: Harness, message: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """What a bot message shows now (its latest send or edit): the text and the buttons, label -> data."""
    for call in reversed(tg.telegram.calls):
        if call.method == "editMessageText" and call.params["message_id"] == message["message_id"]:
            return call.params["text"], buttons(call.params) if "reply_markup" in call.params else {}
        if call.method == "sendMessage" and call.result["message_id"] == message["message_id"]:
            return call.params["text"], buttons(call.params)
    raise AssertionError(f"no message {message['message_id']}")


async def tap(tg: Harness, sender: dict[str, Any], message: dict[str, Any], label: str) -> dict[str, Any]:
    """`sender` presses the button labelled `label` the message shows now: the answer to the press."""
    await tg.feed(tg.updates.press(sender, message, shown(tg, message)[1][label]))
    answer: dict[str, Any] = {"text": "", **tg.telegram.sent("answerCallbackQuery")[-1]}
    return answer


async def press_data(tg: Harness, sender: dict[str, Any], message: dict[str, Any], data: str) -> str:
    await tg.feed(tg.updates.press(sender, message, data))
    text: str = tg.telegram.sent("answerCallbackQuery")[-1].get("text", "")
    return text


def waiting(tg: Harness) -> list[tuple[str, int]]:
    return [(flow.kind, flow.user_id) for flow in tg.ledger.open_flows(CHAT["id"])]


async def held_kong_flow(tg: Harness) -> dict[str, Any]:
    """小李 records 阿杰's 暗杠; 阿杰, not seeing it, taps the same kong on the 杠 buttons and confirms: held back."""
    await open_table(tg)
    await tg.say(B, "暗杠 @ajie")
    assert tg.balance(A["id"]) == 400
    flow = await ask(tg, A, "杠")
    await tap(tg, A, flow, "阿杰")
    await tap(tg, A, flow, "暗杠")
    assert (await tap(tg, A, flow, "✅ 确认"))["text"] == ""
    text, keys = shown(tg, flow)
    assert text.startswith("小李 刚刚记的：第1局 阿杰 暗杠。") and set(keys) == {"确实又一次", "取消"}
    assert tg.balance(A["id"]) == 400
    return flow


async def test_a_kong_flow_held_back_as_a_double_entry_is_its_askers_to_confirm(tg: Harness) -> None:
    flow = await held_kong_flow(tg)
    for sender in (C, B):  # a seated player, even the one who typed the first: refused, nothing booked
        for label in ("确实又一次", "取消"):
            answer = await tap(tg, sender, flow, label)
            assert answer["text"] == NOT_YOURS and answer["show_alert"] is True
    assert tg.balance(A["id"]) == 400 and waiting(tg) == [("gang", A["id"])]
    again = shown(tg, flow)[1]["确实又一次"]
    assert (await tap(tg, A, flow, "确实又一次"))["text"] == "记好了"
    assert tg.balance(A["id"]) == 800 and waiting(tg) == []
    assert shown(tg, flow)[0].startswith("第1局 记下：阿杰 暗杠")
    assert await press_data(tg, A, flow, again) == EXPIRED and tg.balance(A["id"]) == 800


async def test_an_admin_may_confirm_a_held_back_flow_for_its_asker_once(tg: Harness) -> None:
    flow = await held_kong_flow(tg)
    again = shown(tg, flow)[1]["确实又一次"]
    assert (await tap(tg, BOSS, flow, "确实又一次"))["text"] == "记好了"
    assert await press_data(tg, A, flow, again) == EXPIRED  # a double press books once
    assert tg.balance(A["id"]) == 800


async def test_repeat_data_on_a_flow_not_held_back_books_nothing(tg: Harness) -> None:
    """「确实又一次」 answers only a flow held back: forged onto a preview, it cannot skip the double-entry check."""
    await open_table(tg)
    await tg.say(B, "暗杠 @ajie")
    flow = await ask(tg, C, "杠")
    await tap(tg, C, flow, "阿杰")
    await tap(tg, C, flow, "暗杠")
    confirm = shown(tg, flow)[1]["✅ 确认"]
    assert await press_data(tg, C, flow, confirm.replace(":ok", ":rep")) == EXPIRED
    assert tg.balance(A["id"]) == 400 and waiting(tg) == [("gang", C["id"])]


async def test_a_win_flow_held_back_is_dropped_by_its_askers_typed_word(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(B, "胡 @ajie 清一色 自摸")  # hand 1, booked by 小李
    flow = await ask(tg, A, "胡")  # hand 2: 阿杰 taps the same win
    for label in ("阿杰", "自摸", "清一色", "预览 ▶", "✅ 确认"):
        await tap(tg, A, flow, label)
    assert shown(tg, flow)[0].startswith("小李 刚刚记的：第1局 阿杰 自摸 清一色。")
    assert (await tap(tg, C, flow, "确实又一次"))["text"] == NOT_YOURS
    again = shown(tg, flow)[1]["确实又一次"]
    said = len(tg.telegram.calls)
    await tg.say(C, "算了")  # not C's question: chat
    assert tg.telegram.calls[said:] == [] and waiting(tg) == [("hu", A["id"])]
    typed = await tg.say(A, "算了")
    edit, reply = tg.telegram.calls[said:]
    assert edit.method == "editMessageText" and edit.params["message_id"] == flow["message_id"]
    assert edit.params["text"] == CANCELLED and "reply_markup" not in edit.params
    assert reply.params["text"] == CANCELLED_TYPED
    assert reply.params["reply_parameters"]["message_id"] == typed["message"]["message_id"]
    assert await press_data(tg, A, flow, again) == EXPIRED  # its buttons expired
    assert tg.balance(A["id"]) == 800 and len(tg.ledger.history(CHAT["id"], 10)) == 1


async def test_typed_cancel_drops_the_askers_latest_flow_or_suggestion_only(tg: Harness) -> None:
    await open_table(tg)
    # a 胡 left half-way, its winner not chosen yet (once chosen it holds the hand: a guess beside it is refused)
    flow = await ask(tg, A, "胡")
    suggestion = await ask(tg, A, "胡 清一涩 自摸")  # 是不是：…
    assert "是不是：" in suggestion["text"]
    said = len(tg.telegram.calls)
    for other in (B, C):
        await tg.say(other, "算了")
    assert tg.telegram.calls[said:] == [] and waiting(tg) == [("hu", A["id"]), ("suggest", A["id"])]
    await tg.say(A, "取消")  # the latest: the suggestion
    edit, reply = tg.telegram.calls[said:]
    assert edit.params["message_id"] == suggestion["message_id"] and edit.params["text"] == CANCELLED
    assert reply.params["text"] == CANCELLED_TYPED and waiting(tg) == [("hu", A["id"])]
    assert await press_data(tg, A, suggestion, buttons(suggestion)["就是这个"]) == EXPIRED
    said = len(tg.telegram.calls)
    await tg.say(A, "不用了")  # then the 胡 flow
    edit, reply = tg.telegram.calls[said:]
    assert edit.params["message_id"] == flow["message_id"] and edit.params["text"] == CANCELLED
    assert reply.params["text"] == CANCELLED_TYPED and waiting(tg) == []
    assert await press_data(tg, A, flow, buttons(flow)["小李"]) == EXPIRED
    said = len(tg.telegram.calls)
    await tg.say(A, "算了")  # nothing waits: chat
    assert tg.telegram.calls[said:] == [] and tg.ledger.history(CHAT["id"], 10) == []


async def test_buttons_the_settlement_expired_stay_expired_after_it_is_undone(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 自摸")
    question = await ask(tg, B, "撤销 第1局")  # waiting when the night is settled
    flow = await ask(tg, A, "胡")  # nobody chosen yet: it holds nothing, and the settlement ends it
    await tg.say(A, "结算")
    undo = await ask(tg, BOSS, "撤销结算")
    assert (await tap(tg, BOSS, undo, "确认撤销结算"))["text"] != EXPIRED
    assert tg.ledger.current_night(CHAT["id"]) is not None  # the night is open again, its table too
    for sender, message, label in ((B, question, "确认撤销"), (A, flow, "小李"), (BOSS, question, "确认撤销")):
        answer = await tap(tg, sender, message, label)
        assert answer["text"] == REOPENED and answer["show_alert"] is True
    assert tg.balance(A["id"]) == 800 and len(tg.ledger.history(CHAT["id"], 10)) == 1  # nothing undone
    said = len(tg.telegram.calls)
    await tg.say(B, "算了")  # nothing of B's waits
    assert tg.telegram.calls[said:] == []
    await tg.say(A, "胡 @xiaoli 清一色 自摸")  # the reopened table records as before
    assert len(tg.ledger.history(CHAT["id"], 10)) == 2


async def test_a_question_the_rules_ask_is_dropped_by_its_askers_typed_word(tg: Harness) -> None:
    await tg.say(BOSS, "设置 预设 孝感")  # 数坎: a win told by its patterns is asked its 坎
    await open_table(tg)
    question = await ask(tg, A, "胡 清一色 自摸")
    assert "几坎" in question["text"] and waiting(tg) == [("ask", A["id"])]
    said = len(tg.telegram.calls)
    await tg.say(B, "算了")  # not B's record: chat (B may still answer it: any seated player may)
    assert tg.telegram.calls[said:] == []
    await tg.say(A, "算了")
    edit, reply = tg.telegram.calls[said:]
    assert edit.params["message_id"] == question["message_id"] and edit.params["text"] == CANCELLED
    assert reply.params["text"] == CANCELLED_TYPED and waiting(tg) == []
    assert await press_data(tg, B, question, buttons(question)["2"]) == EXPIRED
    assert tg.ledger.history(CHAT["id"], 10) == []


async def test_typed_cancel_passes_over_a_flow_of_a_hand_recorded_since(tg: Harness, clock: Any) -> None:
    """A 胡 left half-way whose hand was recorded another way books nothing any more: 算了 answers the asker's
    question still live, not that flow."""
    await open_table(tg)
    await tg.say(B, "胡 清一色 自摸")
    question = await ask(tg, A, "撤销 第1局")
    flow = await ask(tg, A, "胡")  # hand 2, left half-way
    clock.advance(minutes=3)
    await tg.say(C, "荒庄")  # hand 2 recorded another way
    said = len(tg.telegram.calls)
    await tg.say(A, "算了")
    assert [c.params["text"] for c in tg.telegram.calls[said:]] == [
        "好的，没有撤销。",
        "好的，没有撤销（上面问的已经作废）。",
    ]
    assert tg.telegram.calls[said].params["message_id"] == question["message_id"]
    assert await press_data(tg, A, flow, buttons(flow)["阿杰"]) == "第2局已经记完了，这个按钮作废（没有记账）。"
    said = len(tg.telegram.calls)
    await tg.say(A, "算了")  # nothing live waits
    assert tg.telegram.calls[said:] == [] and tg.balance(B["id"]) == 800
