"""Payments through the Telegram adapter (Telegram faked at the HTTP boundary, on SQLite and PostgreSQL): the
「已付」/「收到」 buttons under the 结算 post, the typed 付/收到/撤销付款, who may press, and nothing booked twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.fake_bot_api import CHAT, Updates
from tests.bot.test_telegram import BOSS, OUTSIDER, A, B, C, Harness, open_table, report_dir, tg

__all__ = ["report_dir", "tg"]  # fixtures used by name

#: 小李 (B) discards 清一色 to 阿杰 (A): B owes A 4元
LINE = "小李→阿杰"


async def settled(tg: Harness) -> tuple[dict[str, Any], dict[str, str]]:
    """A night where 小李 owes 阿杰 4元, settled: the payments message and its buttons by label."""
    await open_table(tg)
    await tg.say(A, "胡 清一色 点 @xiaoli")
    await tg.say(A, "结算")
    post = tg.telegram.sent()[-1]
    assert "小李 → 阿杰 4元" in post["text"]
    buttons = {b["text"]: b["callback_data"] for row in post["reply_markup"]["inline_keyboard"] for b in row}
    assert set(buttons) == {f"{LINE} 已付", f"{LINE} 收到"}
    (post_id,) = [c.result["message_id"] for c in tg.telegram.calls if c.params is post]
    return {"message_id": post_id, "text": post["text"]}, buttons


def payments(tg: Harness) -> list[Any]:
    """Every payment transfer booked in the chat (voided ones too)."""
    return [t for t in tg.ledger.member_record(member_id(tg, 502)).recent if t.kind == "payment"]


def member_id(tg: Harness, user_id: int) -> int:
    return next(m.id for m in tg.ledger.members(CHAT["id"]) if m.user_id == user_id)


def alerts(tg: Harness) -> list[str]:
    return [a.get("text", "") for a in tg.telegram.sent("answerCallbackQuery")]


async def test_a_button_pressed_by_someone_else_is_refused_and_books_nothing(tg: Harness, report_dir: Path) -> None:
    message, buttons = await settled(tg)
    await tg.feed(tg.updates.press(C, message, buttons[f"{LINE} 已付"]))  # 老王 is neither payer nor payee
    await tg.feed(tg.updates.press(A, message, buttons[f"{LINE} 已付"]))  # 阿杰 is the payee, not the payer
    await tg.feed(tg.updates.press(OUTSIDER, message, buttons[f"{LINE} 收到"]))
    assert sum("只有付款的两个人或管理员" in text for text in alerts(tg)) == 2
    assert sum("「已付」是付款的人点的；收到钱的人点「收到」" in text for text in alerts(tg)) == 1  # which is his
    assert tg.balance(502) == -400 and payments(tg) == []


def post_buttons(edit: dict[str, Any]) -> set[str]:
    return {b["text"] for row in (edit.get("reply_markup") or {}).get("inline_keyboard", []) for b in row}


async def test_paid_then_received_books_once_and_a_double_press_books_nothing(tg: Harness, report_dir: Path) -> None:
    message, buttons = await settled(tg)
    posted = len(tg.telegram.sent())
    await tg.feed(tg.updates.press(B, message, buttons[f"{LINE} 已付"]))
    assert tg.balance(502) == 0 and tg.balance(501) == 0  # booked at once (未结 shows it waiting for 阿杰)
    assert "记下付款" in alerts(tg)[-1]  # the presser's notice says what the press did
    (edit,) = tg.telegram.sent("editMessageText")  # and the post itself shows it, in place
    assert edit["message_id"] == message["message_id"]
    assert "小李 → 阿杰 4元 ✓ 已付清，待 阿杰 确认" in edit["text"]
    assert "未结（还差）：阿杰 +4元（4元待确认），小李 -4元（4元待确认）" in edit["text"]  # open until 阿杰's word
    assert post_buttons(edit) == {f"{LINE} 已付", f"{LINE} 收到"}  # 阿杰's 收到 is still awaited
    await tg.feed(tg.updates.press(B, message, buttons[f"{LINE} 已付"]))  # a double press
    assert "已经记过了" in alerts(tg)[-1]
    await tg.feed(tg.updates.press(A, message, buttons[f"{LINE} 收到"]))  # the payee confirms the same payment
    assert "已确认" in alerts(tg)[-1]
    done = tg.telegram.sent("editMessageText")[-1]
    assert "小李 → 阿杰 4元 ✓ 已付清\n" in done["text"] and "都已付清" in done["text"]
    assert post_buttons(done) == set()  # nothing left to press
    await tg.feed(tg.updates.press(A, message, buttons[f"{LINE} 收到"]))
    assert "已经记过了" in alerts(tg)[-1]
    assert len(tg.telegram.sent()) == posted  # not one new message: the presses answered in the post
    (payment,) = payments(tg)
    assert payment.amount == 400 and tg.balance(502) == 0
    results = {line.member_id: line.result for line in tg.ledger.balances(CHAT["id"]).lines}
    assert results[member_id(tg, 502)] == -400 and results[member_id(tg, 501)] == 400  # 总输赢 unchanged


async def test_typed_payments_rewrite_the_post_in_place_as_a_press_does(tg: Harness, report_dir: Path) -> None:
    """付 / 收到 / 撤销付款 typed reply as before, and the 结算 post is rewritten in place to show where the line
    stands: a payment typed back after a press no longer reads as paid."""
    message, buttons = await settled(tg)
    posted = len(tg.telegram.sent())
    await tg.say(B, "付 @ajie 1")
    assert "还欠 阿杰 3元" in tg.telegram.sent()[-1]["text"]
    edit = tg.telegram.sent("editMessageText")[-1]
    assert edit["message_id"] == message["message_id"]
    assert "小李 → 阿杰 4元（已付 1元，还差 3元），待 阿杰 确认" in edit["text"]
    assert post_buttons(edit) == {f"{LINE} 已付", f"{LINE} 收到"}
    await tg.feed(tg.updates.press(B, message, buttons[f"{LINE} 已付"]))  # the rest
    edit = tg.telegram.sent("editMessageText")[-1]
    assert "小李 → 阿杰 4元 ✓ 已付清，待 阿杰 确认" in edit["text"] and tg.balance(502) == 0
    await tg.say(B, "撤销付款")  # the press's 3元 taken back
    assert "已撤销付款" in tg.telegram.sent()[-1]["text"]
    edit = tg.telegram.sent("editMessageText")[-1]
    assert edit["message_id"] == message["message_id"]
    assert "小李 → 阿杰 4元（已付 1元，还差 3元），待 阿杰 确认" in edit["text"] and "✓" not in edit["text"]
    assert "未结（还差）：阿杰 +4元（1元待确认），小李 -4元（1元待确认）" in edit["text"]
    await tg.say(A, "收到 @xiaoli 1")  # 阿杰 confirms the 1元
    edit = tg.telegram.sent("editMessageText")[-1]
    assert "小李 → 阿杰 4元（已付 1元，还差 3元）\n" in edit["text"]
    assert len(tg.telegram.sent()) == posted + 3  # three replies; the post itself never sent again
    assert len(tg.telegram.sent("editMessageText")) == 4


async def test_a_mention_glued_to_the_words_after_it_is_read_as_the_spaced_one(tg: Harness, report_dir: Path) -> None:
    """`@ajie已转1` (Telegram marks no mention there: the username ends at 已), `给@ajie转了0.5`, and 阿杰 picked
    from the list with `已转1.5` typed right after the name (the entity says where the name ends) each book."""
    await settled(tg)
    await tg.say(B, "@ajie已转1")
    await tg.say(B, "给@ajie转了0.5")
    update = tg.updates.message(B, "阿杰已转1.5")
    update["message"]["entities"] = [{"type": "text_mention", "offset": 0, "length": 2, "user": A}]
    await tg.feed(update)
    assert sorted(p.amount for p in payments(tg)) == [50, 100, 150] and tg.balance(502) == -100
    assert "还欠 阿杰 1元" in tg.telegram.sent()[-1]["text"]


async def test_a_username_run_into_an_amount_is_the_member_known_and_the_amount(tg: Harness, report_dir: Path) -> None:
    """`已转@ajie1块` (Telegram's username runs over the 1: `@ajie1`): nobody is @ajie1 but 阿杰 is @ajie, so it is
    1元 to 阿杰; his `收到@xiaoli1` confirms it. A name nobody has either way stays unknown, nothing booked."""
    await settled(tg)
    await tg.say(B, "已转@ajie1块")
    assert "记下付款：小李 → 阿杰 1元" in tg.telegram.sent()[-1]["text"]
    await tg.say(A, "收到@xiaoli1")
    assert "已确认：小李 → 阿杰 1元" in tg.telegram.sent()[-1]["text"]
    await tg.say(B, "已转@nobody1")
    assert "nobody1" in tg.telegram.sent()[-1]["text"]
    assert [p.amount for p in payments(tg)] == [100] and tg.balance(502) == -300


async def test_the_same_payment_sent_twice_asks_before_booking_again(tg: Harness, report_dir: Path, clock: Any) -> None:
    """`付 @ajie 1` sent twice within seconds (a double-send, each its own message) books once and asks; only its
    sender (or an admin) answers; 「再记一笔」 books the second, once however often it is pressed. Past the
    group's window (`设置 重复间隔`), or with another amount, a payment books as it always did."""
    await settled(tg)
    await tg.say(B, "付 @ajie 1")
    await tg.say(B, "付 @ajie 1")
    question = tg.telegram.sent()[-1]
    assert "已经记过一笔 小李 → 阿杰 1元。这条（付 @ajie 1）" in question["text"] and "再记一笔" in question["text"]
    assert [p.amount for p in payments(tg)] == [100]
    again = {b["text"]: b["callback_data"] for row in question["reply_markup"]["inline_keyboard"] for b in row}
    (question_id,) = [c.result["message_id"] for c in tg.telegram.calls if c.params is question]
    asked = {"message_id": question_id, "text": question["text"]}
    await tg.feed(tg.updates.press(A, asked, again["再记一笔"]))  # 阿杰 is not who sent it
    assert "只有发这条付款的人或管理员" in alerts(tg)[-1] and len(payments(tg)) == 1
    await tg.feed(tg.updates.press(B, asked, again["再记一笔"]))
    await tg.feed(tg.updates.press(B, asked, again["再记一笔"]))  # a double tap
    assert [p.amount for p in payments(tg)] == [100, 100] and tg.balance(502) == -200
    await tg.say(B, "付 @ajie 0.5")  # another amount: booked
    clock.advance(seconds=91)
    await tg.say(B, "付 @ajie 0.5")  # past the window: booked
    assert sorted(p.amount for p in payments(tg)) == [50, 50, 100, 100] and tg.balance(502) == -100


async def test_an_edit_of_a_held_back_payment_replaces_the_line_it_held(tg: Harness, report_dir: Path) -> None:
    """`付 @ajie 1` sent twice, the second held back, then edited to `付 @ajie 2`: the edit books, and the question's
    「再记一笔」 no longer books the old line (the sender took those words back)."""
    await settled(tg)
    await tg.say(B, "付 @ajie 1")
    second = await tg.say(B, "付 @ajie 1")
    question = tg.telegram.sent()[-1]
    again = {b["text"]: b["callback_data"] for row in question["reply_markup"]["inline_keyboard"] for b in row}
    (question_id,) = [c.result["message_id"] for c in tg.telegram.calls if c.params is question]
    await tg.feed(tg.updates.edit(second, "付 @ajie 2"))
    await tg.feed(tg.updates.press(B, {"message_id": question_id, "text": question["text"]}, again["再记一笔"]))
    assert "失效" in alerts(tg)[-1]
    assert sorted(p.amount for p in payments(tg)) == [100, 200] and tg.balance(502) == -100


async def test_a_redelivered_press_or_message_books_once(tg: Harness, report_dir: Path) -> None:
    message, buttons = await settled(tg)
    press = tg.updates.press(A, message, buttons[f"{LINE} 收到"])
    await tg.feed(press)
    await tg.feed(press)  # Telegram delivers the same callback query again
    assert len(payments(tg)) == 1 and tg.balance(502) == 0
    await tg.say(B, "撤销付款")
    assert tg.balance(502) == -400
    update = await tg.say(B, "付 @ajie 1.5")
    await tg.feed(update)  # the same message again
    live = [p for p in payments(tg) if not p.voided]
    assert [p.amount for p in live] == [150] and tg.balance(502) == -250


async def test_an_admin_may_press_for_either_side(tg: Harness, report_dir: Path) -> None:
    message, buttons = await settled(tg)
    await tg.feed(tg.updates.press(BOSS, message, buttons[f"{LINE} 收到"]))
    assert tg.balance(502) == 0 and "记下付款" in alerts(tg)[-1]
    assert "✓ 已付清，待 小李 确认" in tg.telegram.sent("editMessageText")[-1]["text"]


async def test_typed_payments_refuse_too_much_and_unknown_people_with_nothing_changed(
    tg: Harness, report_dir: Path
) -> None:
    await settled(tg)
    await tg.say(B, "付 @ajie 5")
    assert "只欠 阿杰 4元" in tg.last_text()
    await tg.say(A, "付 @xiaoli 1")  # 阿杰 owes nobody
    assert "不欠" in tg.last_text()
    await tg.say(B, "付 @nobody 1")
    await tg.say(B, "付 @ajie 一百")  # Chinese numerals are an amount: 100, more than owed
    assert "只欠 阿杰 4元" in tg.last_text()
    await tg.say(B, "付 @ajie 好多")
    assert "不是金额" in tg.last_text()
    assert tg.balance(502) == -400 and payments(tg) == []


@pytest.mark.parametrize("word", ["收到", "收到！"])
async def test_a_bare_shoudao_is_chat_unless_a_payee_still_owed_says_it(
    tg: Harness, report_dir: Path, word: str
) -> None:
    await settled(tg)
    before = len(tg.telegram.texts())
    await tg.say(B, word)
    assert len(tg.telegram.texts()) == before  # "got it" from someone owed nothing: no reply, nothing booked
    await tg.say(A, word)  # 阿杰 is owed and nothing waits for his word: said so, nothing booked
    assert tg.telegram.texts()[before:] == [
        "没有等你确认的付款（还没有人说已付给你）。还欠你的：小李 4元。收到了谁的钱就写：收到 @xiaoli 4元"
    ]
    assert tg.balance(502) == -400 and payments(tg) == []


# ------------------------------------------------------------------------------------------- the 日切 roll-over

OTHER = {"id": -1009876543210, "type": "supergroup", "title": "周六卡五星"}


def in_chat(tg: Harness, method: str, chat: dict[str, Any], after: int = 0) -> list[dict[str, Any]]:
    """What the bot sent (`method`) to `chat`, from its `after`-th call on."""
    return [
        c.params for c in tg.telegram.calls[after:] if c.method == method and int(c.params["chat_id"]) == chat["id"]
    ]


def night_posts(tg: Harness, chat: dict[str, Any], after: int) -> tuple[str, str, list[str]]:
    """A night's post as the chat got it: the photo's caption, the payments text and its buttons' labels."""
    (photo,) = in_chat(tg, "sendPhoto", chat, after)
    post = in_chat(tg, "sendMessage", chat, after)[-1]
    labels = [b["text"] for row in post["reply_markup"]["inline_keyboard"] for b in row]
    return photo["caption"], post["text"], labels


async def test_the_rijie_roll_over_posts_the_closed_night_exactly_as_jiesuan_would(
    tg: Harness, report_dir: Path, clock: Any
) -> None:
    """Two groups play the same night; the next morning one types 结算, the other leaves the table open and
    records the next hand after 06:00. The second gets the roll-over's reply, then the closed night's report and
    payments with their buttons — the same words and buttons the first got from 结算."""
    other = Updates(OTHER)
    for person in (A, B, C):
        await tg.feed(other.message(person, "来了"))
    for updates in (tg.updates, other):
        await tg.feed(updates.message(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        await tg.feed(updates.message(A, "胡 清一色 点 @xiaoli"))
    clock.advance(hours=12)  # 08:00 in Shanghai: past the 日切 hour
    start = len(tg.telegram.calls)
    await tg.say(A, "结算")
    settled = night_posts(tg, CHAT, start)
    start = len(tg.telegram.calls)
    rolled = await tg.feed(other.message(B, "荒庄"))
    reply = in_chat(tg, "sendMessage", OTHER, start)[0]
    assert reply["text"].startswith("已过日切（6点）：上一晚已结算封存")  # the booking's own reply comes first
    assert night_posts(tg, OTHER, start) == settled
    assert "小李 → 阿杰 4元" in settled[1] and settled[2] == [f"{LINE} 已付", f"{LINE} 收到"]
    # a redelivered update books nothing and posts the night nothing more
    start = len(tg.telegram.calls)
    await tg.feed(rolled)
    assert in_chat(tg, "sendPhoto", OTHER, start) == []
    assert [p["text"][:4] for p in in_chat(tg, "sendMessage", OTHER, start)] == ["已记过："]
    # the buttons under the roll-over's payments post work as 结算's do: booked, and the post rewritten in place
    post = in_chat(tg, "sendMessage", OTHER)[-2]
    buttons = {b["text"]: b["callback_data"] for row in post["reply_markup"]["inline_keyboard"] for b in row}
    await tg.feed(other.press(B, {"message_id": 880002, "text": post["text"]}, buttons[f"{LINE} 已付"]))
    edit = tg.telegram.sent("editMessageText")[-1]
    assert edit["message_id"] == 880002 and "小李 → 阿杰 4元 ✓ 已付清，待 阿杰 确认" in edit["text"]
    owed = {m.user_id: m.id for m in tg.ledger.members(OTHER["id"])}
    assert tg.ledger.balances(OTHER["id"]).of(owed[502]) == 0


async def test_a_roll_over_in_english_posts_the_night_in_english(tg: Harness, report_dir: Path, clock: Any) -> None:
    await tg.say(BOSS, "设置 语言 en")
    await tg.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    await tg.say(A, "胡 清一色 点 @xiaoli")
    clock.advance(hours=12)
    start = len(tg.telegram.calls)
    await tg.say(B, "荒庄")
    texts = [p["text"] for p in in_chat(tg, "sendMessage", CHAT, start)]
    assert texts[0].startswith("Past the 6:00 cut-off")
    caption, payments_text, labels = night_posts(tg, CHAT, start)
    assert "Fewest transfers" in caption and "小李 → 阿杰 4元" in payments_text
    assert labels == [f"{LINE} paid", f"{LINE} received"]


async def test_a_typed_payment_rewrites_the_pairs_later_post_and_an_unchanged_one_is_no_error(
    tg: Harness, report_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Nights kept apart, 小李 owes 阿杰 4元 on each post. 阿杰's `收到 @xiaoli 2` after `付 @ajie 2` changes the first
    post only: the second is sent again as it reads, Telegram answers 「message is not modified」, and that is no
    failure. Then `付 @ajie 4` pays the rest of the first line and 2元 of the second: both posts say so."""
    import logging

    await tg.say(BOSS, "设置 并账 关")
    posts = []
    for _night in range(2):
        await open_table(tg)
        await tg.say(A, "胡 清一色 点 @xiaoli")
        await tg.say(A, "结算")
        posts.append(next(c.result["message_id"] for c in reversed(tg.telegram.calls) if c.method == "sendMessage"))

    def post_now(message_id: int) -> str:
        calls = [
            c for c in tg.telegram.calls if isinstance(c.result, dict) and c.result.get("message_id") == message_id
        ]
        return str(calls[-1].params["text"])

    await tg.say(B, "付 @ajie 2")
    assert "小李 → 阿杰 4元（已付 2元，还差 2元），待 阿杰 确认" in post_now(posts[0]), post_now(posts[0])
    with caplog.at_level(logging.WARNING):
        edits_before = len(tg.telegram.sent("editMessageText"))
        await tg.say(A, "收到 @xiaoli 2")
    assert len(tg.telegram.sent("editMessageText")) == edits_before + 2  # both posts sent, the second unchanged
    assert "refused" not in caplog.text, caplog.text
    await tg.say(B, "付 @ajie 4")
    assert "小李 → 阿杰 4元 ✓ 已付清" in post_now(posts[0]), post_now(posts[0])
    assert "小李 → 阿杰 4元（已付 2元，还差 2元）" in post_now(posts[1]), post_now(posts[1])


async def test_转给_an_username_glued_to_digits_is_asked_and_booked_by_the_senders_tap(
    tg: Harness, report_dir: Path
) -> None:
    """`转给@ajie2` (Telegram marks @ajie2, whom nobody is): 「是不是：转给 @ajie 2？」, nothing booked until 小李's
    「就是这个」, which books 2元 to 阿杰; 阿杰's press first is refused."""
    await settled(tg)
    await tg.say(B, "转给@ajie2")
    question = tg.telegram.sent()[-1]
    assert question["text"] == "群里没有 @ajie2。是不是：转给 @ajie 2？" and payments(tg) == []
    buttons = {b["text"]: b["callback_data"] for row in question["reply_markup"]["inline_keyboard"] for b in row}
    (question_id,) = [c.result["message_id"] for c in tg.telegram.calls if c.params is question]
    await tg.feed(tg.updates.press(A, {"message_id": question_id}, buttons["就是这个"]))
    assert "只有发这条付款的人或管理员可以回答" in alerts(tg)[-1] and payments(tg) == []
    await tg.feed(tg.updates.press(B, {"message_id": question_id}, buttons["就是这个"]))
    assert [p.amount for p in payments(tg)] == [200] and tg.balance(502) == -200
