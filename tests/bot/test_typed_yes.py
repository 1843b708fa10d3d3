"""撤销's question (「确认撤销」/「不撤销」) answered by its asker's typed yes — `对`, `是的`, `确定`, `嗯` — as the
「确认撤销」 button answers it: the question rewritten to what was taken back, a short reply to the typed line, its
buttons expired, taken back once. Anyone else's yes (an admin's too, as with a typed 算了), a yes asked (`对？`) or
with more words, and a yes whose sender's latest question is of another kind, are chat: nothing undone, no reply.
The asker's yes about someone else's record is refused: that record is its recorder's (or an admin's) to give, and
their typed yes (`对`, `确认撤销`, `撤吧`) confirms it as their press does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_player_first import Table
from tests.bot.test_telegram import BOSS, B, C, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests

#: 老王 自摸, then 小李 wins on 阿杰's discard; 小李 asks to void that finished hand
ASKED = ("a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "!clock +5m", "b: 胡 七对 点 @a", "b: 撤销 上一局")
UNDONE = [
    "bot: 已作废第2局（小李 胡 阿杰 点的炮 七对）。",
    "bot: 阿杰 +4元（本晚 -4元）",
    "bot: 小李 -4元（本晚 -4元）",
    "bot: 老王 0（本晚 +8元）",
    "bot: 现在打第2局，庄家 老王",
    "bot: 好的，撤销了（上面那条已经改成撤销的结果）。",
]


@pytest.fixture
def asked(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url, *ASKED)
    yield table
    table.ledger.close()


def _hands(table: Table) -> int:
    return len(table.ledger.history(table.chat))


@pytest.mark.parametrize("yes", ["对", "是的", "确定", "嗯", "确认撤销", "对！"])
def test_the_askers_typed_yes_takes_back_what_the_question_showed(asked: Table, yes: str) -> None:
    assert _hands(asked) == 2
    assert asked.say(f"b: {yes}") == UNDONE
    assert _hands(asked) == 1
    assert asked.say(f"b: {yes}") == []  # answered: nothing waits any more
    assert _hands(asked) == 1


def test_anyone_elses_yes_or_a_yes_asked_or_said_with_more_is_chat(asked: Table) -> None:
    lines = ("a: 对", "c: 是的", "a: 确定", "b: 对？", "b: 对，就这样")
    lines += ("!clock +10s", "b: 嗯嗯 好的", "b: 是的吗", "b: yes")  # 小李's sixth line within 10 s: a flood
    assert asked.say(*lines) == []  # a is an admin: their typed word answers only a question they asked
    assert _hands(asked) == 2
    assert asked.say("b: 嗯") == UNDONE


def test_a_yes_answers_only_the_askers_latest_question_when_it_is_an_undo(asked: Table) -> None:
    """A 「是不是」 asked of the asker since is their latest question: a yes is not its 「就是这个」, nor the
    undo's."""
    assert asked.say("b: 胡 清一涩 自摸")[-1] == "bot: [按钮] 就是这个 | 不是"
    assert asked.say("b: 对") == []
    assert _hands(asked) == 2 and asked.ledger.hand_state(asked.ledger.current_table(asked.chat).id).events == ()
    asked.say("b: 算了")  # the 「是不是」 dropped: the undo question is the latest again
    assert asked.say("b: 对") == UNDONE


def test_a_yes_about_someone_elses_record_is_theirs_to_give_not_the_askers(sqlite_url: str) -> None:
    """阿杰's kong, 小李's 撤销: 小李's yes would take back 阿杰's money alone, as his press would."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "a: 暗杠 3s", "b: 撤销")
    try:
        assert table.say("b: 确定") == ["bot: 这是 阿杰 记的：撤不撤要 TA 或管理员定（发起的人可以点「不撤销」作罢）。"]
        assert len(table.ledger.hand_state(table.ledger.current_table(table.chat).id).events) == 1
    finally:
        table.ledger.close()


#: 小李's kong, and 老王's 撤销 of it: the question is put to 小李 (or an admin)
PUT_TO_B = ("a: 开桌 @a @b @c 庄 @a", "b: 暗杠 3s", "c: 撤销")
KONG_UNDONE = [
    "bot: 已撤销：第1局 小李 暗杠 三条",
    "bot: 阿杰 +2元（本晚 0）",
    "bot: 小李 -4元（本晚 0）",
    "bot: 老王 +2元（本晚 0）",
    "bot: 第1局接着打，庄家 阿杰",
    "bot: 本局还没有记录。",
    "bot: 好的，撤销了（上面那条已经改成撤销的结果）。",
]


@pytest.mark.parametrize("yes", ["对", "确认撤销", "撤吧"])
def test_the_recorders_typed_yes_confirms_someone_elses_undo_of_their_record(sqlite_url: str, yes: str) -> None:
    """The question asks 小李 (or an admin) to confirm: his typed yes does what his 「确认撤销」 does; the asker's
    is refused, a player the question was not put to is chat."""
    table = Table(sqlite_url, *PUT_TO_B)
    try:
        assert table.say("c: 对") == ["bot: 这是 小李 记的：撤不撤要 TA 或管理员定（发起的人可以点「不撤销」作罢）。"]
        assert table.say("d: 对") == []  # not seated, not an admin
        assert table.say(f"b: {yes}") == KONG_UNDONE
        assert table.ledger.hand_state(table.ledger.current_table(table.chat).id).events == ()
        assert table.say(f"b: {yes}") == []  # answered: nothing waits any more
    finally:
        table.ledger.close()


def test_an_admins_typed_yes_confirms_the_question_put_to_a_recorder(sqlite_url: str) -> None:
    table = Table(sqlite_url, *PUT_TO_B)
    try:
        assert table.say("a: 对") == KONG_UNDONE
    finally:
        table.ledger.close()


def test_the_recorders_yes_answers_their_own_latest_question_first(sqlite_url: str) -> None:
    """小李's own 「是不是」 waits: his 对 is not its 「就是这个」, and not the yes to 老王's 撤销 either."""
    table = Table(sqlite_url, *PUT_TO_B)
    try:
        assert table.say("b: 胡 清一涩 自摸")[-1] == "bot: [按钮] 就是这个 | 不是"
        assert table.say("b: 对") == []
        table.say("b: 算了")
        assert table.say("b: 对") == KONG_UNDONE
    finally:
        table.ledger.close()


def test_yes_in_english_only_where_the_group_reads_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 语言 en", *ASKED)
    try:
        assert table.say("b: yes")[-1] == "bot: OK, undone (the question above now shows what was taken back)."
        assert _hands(table) == 1
    finally:
        table.ledger.close()


async def own_win_asked_by_b(tg: Harness) -> dict[str, Any]:
    """小李's own 自摸 recorded; his 撤销 of it asks (it ended the hand): the question, his to answer."""
    await open_table(tg)
    await tg.say(B, "胡 清一色 自摸")
    assert tg.balance(B["id"]) == 800
    question = await ask(tg, B)
    assert question["text"].startswith("最后一条记录是第1局的结束（你 刚刚记的）：小李 自摸 清一色。")
    return question


async def test_through_telegram_the_question_is_rewritten_and_its_buttons_expire(tg: Harness) -> None:
    question = await own_win_asked_by_b(tg)
    said = len(tg.telegram.calls)
    await tg.say(C, "对")  # another player's yes, and an admin's: chat
    await tg.say(BOSS, "确定")
    assert tg.telegram.calls[said:] == [] and tg.balance(B["id"]) == 800
    typed = await tg.say(B, "对")
    edit, reply = tg.telegram.calls[said:]
    assert edit.method == "editMessageText" and edit.params["message_id"] == question["message_id"]
    assert edit.params["text"].startswith("已撤销：第1局 小李 自摸 清一色") and "reply_markup" not in edit.params
    assert reply.params["text"] == "好的，撤销了（上面那条已经改成撤销的结果）。"
    assert reply.params["reply_parameters"]["message_id"] == typed["message"]["message_id"]
    assert tg.balance(B["id"]) == 0 and not [f for f in tg.ledger.open_flows(CHAT["id"]) if f.kind == "undo"]
    said = len(tg.telegram.calls)
    await tg.feed(typed)  # delivered again: nothing waits, nothing undone twice
    assert tg.telegram.calls[said:] == []
    await tg.feed(tg.updates.press(B, question, buttons(question)["确认撤销"]))  # the old buttons expired
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "这个按钮已经失效了。"
    assert tg.balance(B["id"]) == 0


async def test_a_yes_after_the_button_was_pressed_is_chat(tg: Harness) -> None:
    question = await own_win_asked_by_b(tg)
    await tg.feed(tg.updates.press(B, question, buttons(question)["确认撤销"]))
    assert tg.balance(B["id"]) == 0
    said = len(tg.telegram.calls)
    await tg.say(B, "对")
    assert tg.telegram.calls[said:] == [] and tg.balance(B["id"]) == 0
