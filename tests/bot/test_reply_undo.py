"""撤销 replying to the message that recorded a hand, through the Telegram adapter: at a table that has ended since
(开桌 seated another) an admin voids that hand whole after a confirmation; a player is refused; the same update or
press delivered twice acts once; a reply in another chat reaches nothing; a reply to the bot's message is plain
撤销."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_bot_api import CHAT, Updates, user
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg

__all__ = ["tg"]  # the fixture, from the Telegram tests

D = user(504, "大刘", "daliu")
OTHER_CHAT = {"id": -1009999999999, "type": "supergroup", "title": "别的群"}


def buttons(sent: dict[str, Any]) -> list[str]:
    return [b["callback_data"] for row in sent["reply_markup"]["inline_keyboard"] for b in row]


def balances(tg: Harness) -> dict[int, int]:
    return {line.member_id: line.amount for line in tg.ledger.balances(CHAT["id"]).lines}


async def reply(tg: Harness, sender: dict[str, Any], text: str, to: dict[str, Any]) -> dict[str, Any]:
    return await tg.feed(tg.updates.message(sender, text, reply_to=to["message"]))


async def test_an_admin_voids_a_hand_of_a_table_that_has_ended_by_replying_to_its_message(
    tg: Harness, clock: Any
) -> None:
    await open_table(tg)
    kong = await tg.say(B, "暗杠 3s")
    await tg.say(B, "胡 清一色 自摸")
    clock.advance(minutes=3)
    await tg.say(A, "胡 七对 自摸")
    await tg.say(D, "我来了")
    await tg.say(BOSS, "开桌 @ajie @xiaoli @daliu 庄 @ajie")
    await tg.say(D, "胡 七对 自摸")
    before = balances(tg)
    assert [tg.balance(u["id"]) for u in (A, B, C, D)] == [-200, 400, -1000, 800]
    await reply(tg, B, "撤销", kong)  # the recorder, no admin: the table has ended
    assert tg.last_text().startswith("没有撤销：你回复的那条消息记的第1局在已经结束的那一桌上")
    asking = await reply(tg, BOSS, "撤销", kong)
    question = tg.telegram.sent()[-1]
    assert question["text"].startswith("撤销第1局：") and "（阿杰、小李、老王）" in question["text"]
    assert "小李 暗杠 三条；小李 自摸 清一色" in question["text"]
    assert question["reply_parameters"]["message_id"] == asking["message"]["message_id"]
    asked = len(tg.telegram.sent())
    await tg.feed(asking)  # Telegram delivers the reply again: no second question
    assert len(tg.telegram.sent()) == asked
    message = {"message_id": 888101, "text": question["text"]}
    await tg.feed(tg.updates.press(B, message, buttons(question)[0]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "只有群管理员可以这样做。"
    assert balances(tg) == before
    press = await tg.feed(tg.updates.press(BOSS, message, buttons(question)[0]))
    done = tg.telegram.sent("editMessageText")[-1]["text"]
    assert done.splitlines()[1:] == ["阿杰 +6元（本晚 +4元）", "小李 -12元（本晚 -8元）", "老王 +6元（本晚 -4元）"]
    after = balances(tg)
    said = len(tg.telegram.texts())
    await tg.feed(press)  # the press delivered again
    await tg.feed(tg.updates.press(BOSS, message, buttons(question)[0]))  # pressed again
    await tg.feed(asking)  # the reply delivered again, after its question was answered
    assert balances(tg) == after and len(tg.telegram.texts()) == said
    # 小李's kong and win taken back; 大刘's hand at the open table untouched
    assert [tg.balance(u["id"]) for u in (A, B, C, D)] == [400, -800, -400, 800]
    await reply(tg, BOSS, "撤销", kong)
    assert tg.last_text() == "没有撤销：你回复的那条消息记的已经撤销或作废了。"


async def test_a_reply_in_another_chat_or_to_the_bots_message(tg: Harness) -> None:
    await open_table(tg)
    win = await tg.say(C, "胡 清一色 自摸")
    before = balances(tg)
    elsewhere = Updates(OTHER_CHAT)
    quoted = {**win["message"], "chat": OTHER_CHAT}  # the same message id, in another group
    await tg.feed(elsewhere.message(BOSS, "撤销", reply_to=quoted))
    assert tg.last_text().startswith("没有撤销：你回复的那条消息没有记下牌局。")
    assert balances(tg) == before
    bot_message = {
        "message_id": 888201,
        "date": win["message"]["date"],
        "chat": CHAT,
        "from": {"id": 123456, "is_bot": True, "first_name": "paiju", "username": "paiju_bot"},
        "text": "第1局 记下：",
    }
    await tg.feed(tg.updates.message(C, "撤销", reply_to=bot_message))  # plain 撤销: C's own latest record
    assert tg.last_text().startswith("最后一条记录是第1局的结束")  # reopening a finished hand asks first
    question = tg.telegram.calls[-1].result
    await tg.feed(tg.updates.message(C, "撤销", reply_to=win["message"]))
    # the reply names that same record: C's question about it is pointed to, not asked twice
    pointer = tg.telegram.sent()[-1]
    assert pointer["text"].startswith("上面已经在问了：第1局 老王 自摸 清一色。")
    assert pointer["reply_parameters"]["message_id"] == question["message_id"]
    assert balances(tg) == before


async def test_a_hand_edited_after_the_question_is_not_voided(tg: Harness) -> None:
    await tg.say(BOSS, "开桌 @boss @xiaoli @laowang 庄 @boss")
    win = await tg.say(BOSS, "胡 七对 自摸")
    await tg.say(BOSS, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    await reply(tg, BOSS, "撤销", win)
    question = tg.telegram.sent()[-1]
    await tg.feed(tg.updates.edit(win, "胡 清一色 自摸"))  # the admin corrects the hand instead
    edited = balances(tg)
    await tg.feed(tg.updates.press(BOSS, {"message_id": 888301, "text": question["text"]}, buttons(question)[0]))
    refused = "没有撤销：问你之后第1局改过了。要撤销，请再回复那条消息发「撤销」。"
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == refused
    assert tg.telegram.sent("editMessageText")[-1]["text"] == refused
    assert balances(tg) == edited and tg.balance(BOSS["id"]) == 800
