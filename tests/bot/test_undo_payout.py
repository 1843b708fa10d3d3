"""撤销发红包池 / 撤销付台费 through the Telegram adapter: admins only, after a confirmation; nothing to take back
says so; the same update delivered twice (the command or the press) takes back once."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, A, C, Harness, open_table, tg

__all__ = ["tg"]  # the fixture, from the Telegram tests


def pot(tg: Harness) -> int:
    return tg.ledger.balances(CHAT["id"]).pot


def buttons(sent: dict[str, Any]) -> list[str]:
    return [b["callback_data"] for row in sent["reply_markup"]["inline_keyboard"] for b in row]


async def test_an_admin_takes_back_the_latest_pot_payout_once(tg: Harness) -> None:
    await tg.say(A, "撤销发红包池")
    assert tg.last_text() == "只有群管理员可以这样做。"
    await tg.say(BOSS, "撤销发红包池")
    assert tg.last_text() == "没有撤销：还没有可以撤销的发红包池。"
    await tg.say(BOSS, "罚款 @laowang 5 刷屏")  # between nights: settled at once, 老王 owes the pot
    await tg.say(BOSS, "发红包池 @xiaoli")  # 老王 now owes 小李
    assert tg.balance(502) == 500 and pot(tg) == 0
    debts = {(d.debtor_id, d.creditor_id): d.amount for d in tg.ledger.debts(CHAT["id"])}
    assert sorted(debts.values()) == [500]
    asking = await tg.say(BOSS, "撤销发红包池")
    question = tg.telegram.sent()[-1]
    assert question["text"].startswith("撤销最近一次发红包池？\n红包池 → 小李 5元\n")
    asked = len(tg.telegram.sent())
    await tg.feed(asking)  # Telegram delivers the command again: no second question
    assert len(tg.telegram.sent()) == asked
    data = buttons(question)
    message = {"message_id": 888001, "text": question["text"]}
    await tg.feed(tg.updates.press(A, message, data[0]))  # a member's press takes nothing back
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "只有群管理员可以这样做。"
    assert tg.balance(502) == 500
    press = await tg.feed(tg.updates.press(BOSS, message, data[0]))
    done = tg.telegram.sent("editMessageText")[-1]["text"]
    assert done.startswith("已撤销发红包池，钱回到红包池：\n小李 -5元\n") and done.endswith("红包池余额 5元")
    assert tg.balance(502) == 0 and tg.balance(503) == -500 and pot(tg) == 500
    await tg.feed(press)  # the press delivered again
    await tg.feed(tg.updates.press(BOSS, message, data[0]))  # pressed again
    assert tg.balance(502) == 0 and pot(tg) == 500
    pot_id = next(line.member_id for line in tg.ledger.balances(CHAT["id"]).lines if line.kind == "pot")
    assert [(d.creditor_id, d.amount) for d in tg.ledger.debts(CHAT["id"])] == [(pot_id, 500)]  # owed to the pot again
    await tg.say(BOSS, "撤销发红包池")
    assert tg.last_text() == "没有撤销：还没有可以撤销的发红包池。"


async def test_a_house_payout_of_an_open_night_is_taken_back_and_keep_keeps_it(tg: Harness) -> None:
    await tg.say(BOSS, "设置 台费 1")
    await open_table(tg)
    await tg.say(A, "胡 清一色 自摸")
    await tg.say(A, "结算")  # 台费 3元 booked
    await open_table(tg)
    await tg.say(BOSS, "付台费 @boss 2")
    assert tg.ledger.balances(CHAT["id"]).house == 100
    await tg.say(BOSS, "撤销付台费")
    question = tg.telegram.sent()[-1]
    assert question["text"].startswith("撤销最近一次付台费？\n台费 → 群主 2元\n")
    message = {"message_id": 888002, "text": question["text"]}
    await tg.feed(tg.updates.press(BOSS, message, buttons(question)[1]))  # 不撤销
    assert tg.telegram.sent("editMessageText")[-1]["text"] == "好的，付台费没有撤销。"
    assert tg.ledger.balances(CHAT["id"]).house == 100
    await tg.say(BOSS, "撤销付台费")
    question = tg.telegram.sent()[-1]
    await tg.feed(tg.updates.press(BOSS, {"message_id": 888003, "text": question["text"]}, buttons(question)[0]))
    assert tg.telegram.sent("editMessageText")[-1]["text"].endswith("台费账户：+3元")
    assert tg.ledger.balances(CHAT["id"]).house == 300
    await tg.say(C, "撤销付台费 现在")
    assert tg.last_text() == "只有群管理员可以这样做。"
    await tg.say(BOSS, "撤销付台费 现在")
    assert tg.last_text() == "撤销付台费 后面不用写别的。"
