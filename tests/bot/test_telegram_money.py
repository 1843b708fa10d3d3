# ruff: noqa: F811  (the tests take the `tg` fixture imported from test_telegram under its own name)
"""明细, 收款码 and table fees through the Telegram adapter (the Bot API faked at the HTTP boundary): a photo's
file id is kept and sent again by id, only its owner removes it, buttons under the settlement, admins only for
fees, a redelivered update books once."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, OUTSIDER, A, B, C, Harness, open_table, tg  # noqa: F401  (the fixture)

FILE_ID = "AgACAgQAAxkBAAIBbWZ-qr-xiaoli"


def _member_id(tg: Harness, user_id: int) -> int:
    return next(m.id for m in tg.ledger.members(CHAT["id"]) if m.user_id == user_id)


def _buttons(message: dict[str, Any]) -> list[tuple[str, str]]:
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [(button["text"], button["callback_data"]) for row in rows for button in row]


async def test_a_photo_captioned_shoukuanma_registers_its_senders_code_and_settlement_shows_it(tg: Harness) -> None:
    await tg.feed(tg.updates.photo(C, "AgACAgQ-no-caption"))  # a photo without the caption: nothing at all
    assert tg.ledger.payment_codes(CHAT["id"], [_member_id(tg, 503)]) == {}
    await tg.feed(tg.updates.photo(B, FILE_ID, "收款码 微信"))
    assert "已登记 小李 的微信收款码" in tg.last_text()
    xiaoli = _member_id(tg, 502)
    assert tg.ledger.payment_codes(CHAT["id"], [xiaoli]) == {xiaoli: [("wechat", FILE_ID)]}

    await open_table(tg)
    await tg.say(B, "胡 清一色 自摸")
    await tg.say(A, "结算")
    post = tg.telegram.sent("sendPhoto")[-1]
    buttons = dict(_buttons(post))
    posted = [call.result for call in tg.telegram.calls if call.method == "sendPhoto"][-1]
    assert "明细" in buttons and buttons["小李的收款码"] == f"qr:{xiaoli}"

    await tg.feed(tg.updates.press(OUTSIDER, posted, f"qr:{xiaoli}"))  # anyone may look at a code
    shown = tg.telegram.sent("sendPhoto")[-1]
    assert shown["photo"] == FILE_ID and "小李 的微信收款码" in shown["caption"]

    await tg.feed(tg.updates.press(C, posted, buttons["明细"]))
    assert "不合并" in tg.last_text() and "最少转账" in tg.last_text()


async def test_only_the_owner_removes_a_code(tg: Harness) -> None:
    await tg.feed(tg.updates.photo(B, FILE_ID, "收款码"))
    xiaoli = _member_id(tg, 502)
    await tg.say(A, "删除收款码 @xiaoli")
    assert "只能删除自己的收款码" in tg.last_text()
    await tg.say(BOSS, "删除收款码 @xiaoli")  # an admin neither
    assert xiaoli in tg.ledger.payment_codes(CHAT["id"], [xiaoli])
    removal = await tg.say(B, "删除收款码")
    await tg.feed(removal)  # redelivered: removed once, the same answer
    assert tg.ledger.payment_codes(CHAT["id"], [xiaoli]) == {}
    assert "已删除 小李 的收款码（1张）" in tg.last_text()


async def test_a_forged_code_button_expires(tg: Harness) -> None:
    await tg.feed(tg.updates.photo(B, FILE_ID, "收款码"))
    await tg.feed(tg.updates.press(A, {"message_id": 1}, "qr:999999"))
    answered = tg.telegram.sent("answerCallbackQuery")[-1]
    assert answered.get("show_alert") and not tg.telegram.sent("sendPhoto")


async def test_fees_are_for_admins_and_a_redelivered_payout_books_once(tg: Harness) -> None:
    await tg.say(A, "设置 抽水 10%")
    assert "管理员" in tg.last_text()
    await tg.say(BOSS, "设置 抽水 10%")
    await open_table(tg)
    await tg.say(B, "胡 清一色 自摸")  # A and C pay 4元 each: 0.8元 of the 8元 win goes to the house
    assert "抽水：小李 0.8元" in tg.last_text()
    assert tg.balance(502) == 720
    house = next(line for line in tg.ledger.balances(CHAT["id"]).lines if line.kind == "house")
    assert house.amount == 80
    await tg.say(A, "付台费 @ajie")
    assert "管理员" in tg.last_text()
    payout = await tg.say(BOSS, "付台费 @ajie")
    await tg.feed(payout)  # Telegram redelivers it
    assert tg.balance(501) == -400 + 80
    assert sum(line.amount for line in tg.ledger.balances(CHAT["id"]).lines) == 0
