"""Telegram's edge cases at the table, through the real python-telegram-bot (`Application.process_update`) and the
fake Bot API (tests/bot/fake_bot_api.py): redelivered updates, edits (unchanged, in the same second, of a button
flow's message, after the night was settled), typed lines from outside the table, and a group upgraded to a
supergroup. On SQLite and PostgreSQL (the `ledger` fixture)."""

from __future__ import annotations

from typing import Any

from bot.telegram.adapter import CORE_KEY
from tests.bot.fake_bot_api import CHAT, Updates, user
from tests.bot.test_telegram import BOSS, OUTSIDER, A, B, C, Harness, open_table, tg

__all__ = ["tg"]  # the fixture, shared with tests/bot/test_telegram.py

D = user(504, "阿东", "adong")
OLD_GROUP = {"id": -4_001_234, "type": "group", "title": "周五卡五星"}
SUPERGROUP = {"id": -1_009_876_543_210, "type": "supergroup", "title": "周五卡五星"}


def texts_since(tg: Harness, start: int) -> list[str]:
    return [
        str(call.params.get("text", ""))
        for call in tg.telegram.calls[start:]
        if call.method in {"sendMessage", "editMessageText"}
    ]


def balances(tg: Harness, chat: int = CHAT["id"]) -> dict[int, int]:
    total = tg.ledger.balances(chat)
    return {m.user_id: total.of(m.id) for m in tg.ledger.members(chat) if m.user_id in {501, 502, 503}}


async def test_a_redelivered_update_posts_no_second_recorded_reply(tg: Harness) -> None:
    await open_table(tg)
    kong = await tg.say(B, "暗杠 3s")
    win = await tg.say(A, "胡 清一色 自摸")
    booked = balances(tg)
    start = len(tg.telegram.calls)
    await tg.feed(kong)  # Telegram delivers both again, with their own update ids
    await tg.feed(win)
    again = texts_since(tg, start)
    assert balances(tg) == booked == {501: 600, 502: 0, 503: -600}
    assert not [text for text in again if "记下" in text]
    assert again == [
        "已记过：第1局 小李 暗杠 三条（同一条消息只记一次）。",
        "已记过：第1局 阿杰 自摸 清一色（同一条消息只记一次）。",
    ]


async def test_a_redelivered_undo_or_question_posts_nothing_new(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(B, "暗杠 3s")
    undo = await tg.say(A, "撤销")  # someone else's record: a question
    assert "确定撤销吗" in tg.last_text()
    start = len(tg.telegram.calls)
    await tg.feed(undo)
    assert texts_since(tg, start) == []  # the question is not asked twice
    mine = await tg.say(B, "撤销")  # B's own record in the hand in progress: undone at once
    assert tg.last_text().startswith("已撤销：第1局 小李 暗杠 三条")
    start = len(tg.telegram.calls)
    await tg.feed(mine)
    assert texts_since(tg, start) == ["这条撤销已经做过了，没有再撤。"]
    assert balances(tg) == {501: 0, 502: 0, 503: 0}


async def test_an_edit_that_changes_nothing_changes_nothing_and_says_nothing(tg: Harness) -> None:
    await open_table(tg)
    original = await tg.say(A, "胡 清一色 点 @xiaoli")
    booked = balances(tg)
    start = len(tg.telegram.calls)
    await tg.feed(tg.updates.edit(original, "胡 清一色 点 @xiaoli"))
    await tg.feed(tg.updates.edit(original, "胡  清一色，点@xiaoli"))  # the same record, typed differently
    assert texts_since(tg, start) == []
    assert balances(tg) == booked
    assert [h.status for h in tg.ledger.history(CHAT["id"], 10, include_voided=True)] == ["closed"]


async def test_two_edits_in_the_same_second_are_both_read_and_a_redelivered_edit_once(tg: Harness) -> None:
    await open_table(tg)
    original = await tg.say(A, "胡 清一色 点 @xiaoli")
    first = tg.updates.edit(original, "胡 清一色 点 @laowang")
    second: dict[str, Any] = {"edited_message": {**first["edited_message"], "text": "胡 七对 自摸"}}
    assert first["edited_message"]["edit_date"] == second["edited_message"]["edit_date"]
    await tg.feed(first)
    assert balances(tg) == {501: 400, 502: 0, 503: -400}
    second = await tg.feed(second)
    assert balances(tg) == {501: 800, 502: -400, 503: -400}
    start = len(tg.telegram.calls)
    await tg.feed(second)  # the same edit delivered again
    assert balances(tg) == {501: 800, 502: -400, 503: -400}
    assert not [text for text in texts_since(tg, start) if "重记" in text]


async def test_editing_the_message_that_started_a_button_flow_never_books_twice(tg: Harness) -> None:
    await open_table(tg)
    asked = await tg.say(B, "胡")
    flow = tg.telegram.sent()[-1]
    message = {"message_id": 1, "text": flow["text"]}
    key = flow["reply_markup"]["inline_keyboard"][0][0]["callback_data"].split(":")[1]
    for action in ("w.1", "m.s", "p.2", "v", "ok"):  # 小李, 自摸, 清一色, preview, confirm
        await tg.feed(tg.updates.press(B, message, f"hu:{key}:{action}"))
    assert balances(tg) == {501: -400, 502: 800, 503: -400}
    await tg.feed(tg.updates.edit(asked, "胡 清一色 七对 自摸"))  # the typed `胡` edited into the whole win
    assert "按改后的消息重记" in tg.last_text()
    assert balances(tg) == {501: -800, 502: 1600, 503: -800}  # replaced, not added
    assert [h.status for h in tg.ledger.history(CHAT["id"], 10, include_voided=True)] == ["closed", "voided"]


async def test_a_settled_night_refuses_an_edit_with_a_clear_reply(tg: Harness) -> None:
    await open_table(tg)
    won = await tg.say(A, "胡 清一色 点 @xiaoli")
    await tg.say(A, "结算")
    settled = balances(tg)
    await tg.feed(tg.updates.edit(won, "胡 清一色 七对 点 @xiaoli"))
    assert tg.last_text() == "这一晚已经结算封存，记录不能再改。"
    assert balances(tg) == settled


async def test_typed_records_settling_and_reopening_belong_to_the_table(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(OUTSIDER, "来了")
    for line in ("胡 清一色 自摸 @ajie", "暗杠 3s @xiaoli", "结算", "开桌 @luren @xiaoli @laowang"):
        await tg.say(OUTSIDER, line)
        assert tg.last_text().startswith("只有这桌的玩家和群管理员可以")
    assert balances(tg) == {501: 0, 502: 0, 503: 0}
    assert tg.ledger.current_table(CHAT["id"]) is not None and tg.ledger.current_night(CHAT["id"]) is not None
    assert [p.user_id for p in tg.ledger.members(CHAT["id"]) if p.user_id] == [501, 502, 503, 599]


async def test_a_group_upgraded_to_a_supergroup_keeps_its_ledger_in_either_order(tg: Harness) -> None:
    old, new = Updates(OLD_GROUP), Updates(SUPERGROUP)
    for person in (A, B, C):
        await tg.feed(old.message(person, "来了"))
    await tg.feed(old.message(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
    await tg.feed(old.message(B, "暗杠 3s"))
    await tg.feed(old.message(C, "设置 底金 2"))  # not an admin: refused, nothing changes
    before = balances(tg, OLD_GROUP["id"])
    group = tg.ledger.group(OLD_GROUP["id"])
    from_old, from_new = old.migration(A, SUPERGROUP)
    await tg.feed(from_new)  # the new chat's lane may come first
    await tg.feed(from_old)
    await tg.feed(from_new)  # and either may arrive twice
    assert tg.ledger.group(SUPERGROUP["id"]).id == group.id
    assert balances(tg, SUPERGROUP["id"]) == before == {501: -200, 502: 400, 503: -200}
    start = len(tg.telegram.calls)
    await tg.feed(new.message(A, "胡 清一色 自摸"))  # the open table goes on in the supergroup
    assert "第1局 记下" in tg.last_text() and tg.telegram.calls[-1].params["chat_id"] == SUPERGROUP["id"]
    assert balances(tg, SUPERGROUP["id"]) == {501: 600, 502: 0, 503: -600}
    assert not [c for c in tg.telegram.calls[start:] if c.params.get("chat_id") == OLD_GROUP["id"]]
    # a line typed in the old group just before the upgrade, handled after it: booked in the moved group, its
    # reply sent to the supergroup (Telegram refuses the old chat, naming the new one)
    tg.telegram.migrated[OLD_GROUP["id"]] = SUPERGROUP["id"]
    await tg.feed(old.message(C, "暗杠 7z"))
    assert tg.telegram.calls[-1].params["chat_id"] == SUPERGROUP["id"] and "记下" in tg.last_text()
    assert balances(tg, SUPERGROUP["id"]) == {501: 400, 502: -200, 503: -200}
    assert tg.app.bot_data[CORE_KEY].service.current_table(OLD_GROUP["id"]) is None  # no second ledger there


async def test_a_redelivered_penghu_record_is_answered_once(tg: Harness) -> None:
    await tg.say(D, "来了")
    await tg.say(BOSS, "设置 游戏 碰胡")
    await tg.say(A, "开桌 @ajie @xiaoli @laowang @adong 庄 @ajie")
    peng = await tg.say(B, "碰 点 @laowang")
    booked = balances(tg)
    start = len(tg.telegram.calls)
    await tg.feed(peng)
    assert texts_since(tg, start) == ["已记过：第1局 小李 碰，点 老王（一人出）（同一条消息只记一次）。"]
    assert balances(tg) == booked
