"""撤销's question (「确认撤销」/「不撤销」) about someone else's record is the asker's to drop and the record's
recorder's (or an admin's) to confirm: through the Telegram adapter, the asker's typed `算了` (`不撤销`, `取消`,
`不用了`; `cancel`/`no` in an English group) answers it as 「不撤销」 does; their 撤销 asked again points to it
instead of asking twice; another player's press is refused and their typed words are chat; the asker's own
「确认撤销」 is refused (a loser cannot take back the winner's record alone); an update or a press delivered twice
never acts twice. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import AnswerCallback, Bot, CallbackQuery, Incoming, ManualClock, Sender, SendText
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg

__all__ = ["tg"]  # the fixture, from the Telegram tests

NOT_YOURS = "这是 阿杰 记的：撤不撤要 TA 或管理员定（发起的人可以点「不撤销」作罢）。"
ASKS_RECORDER = "\n这是 @ajie 记的：要 TA 或管理员点「确认撤销」才撤（不撤就点「不撤销」）。"
KEPT = "好的，没有撤销。"
KEPT_TYPED = "好的，没有撤销（上面问的已经作废）。"


def buttons(question: dict[str, Any]) -> dict[str, str]:
    """A question's buttons: label -> data."""
    return {b["text"]: b["callback_data"] for row in question["reply_markup"]["inline_keyboard"] for b in row}


async def ask(tg: Harness, sender: dict[str, Any], text: str = "撤销") -> dict[str, Any]:
    """`sender` sends `text` and the bot asks: the question as sent (its message id included)."""
    calls = len(tg.telegram.calls)
    await tg.say(sender, text)
    sent = [c for c in tg.telegram.calls[calls:] if c.method == "sendMessage"]
    assert len(sent) == 1 and "reply_markup" in sent[0].params, [c.params for c in sent]
    return {**sent[0].params, "message_id": sent[0].result["message_id"]}


def open_questions(tg: Harness) -> list[Any]:
    return [flow for flow in tg.ledger.open_flows(CHAT["id"]) if flow.kind == "undo"]


async def kong_asked_by_b(tg: Harness) -> dict[str, Any]:
    """阿杰's kong recorded; 小李's 撤销 of it asks (someone else's record)."""
    await open_table(tg)
    await tg.say(A, "暗杠 7z")
    assert tg.balance(A["id"]) == 400
    question = await ask(tg, B)
    assert question["text"] == "最后一条记录是 阿杰 刚刚记的：第1局 阿杰 暗杠 中。确定撤销吗？" + ASKS_RECORDER
    return question


@pytest.mark.parametrize("word", ["算了", "不撤销", "取消", "不用了", "算了！"])
async def test_the_askers_typed_word_answers_the_question_as_keep_it_does(tg: Harness, word: str) -> None:
    question = await kong_asked_by_b(tg)
    said = len(tg.telegram.calls)
    await tg.say(C, word)  # another player's word: chat, the question waits
    await tg.say(B, "no")  # English, in a Chinese group: chat
    await tg.say(B, "算了，继续打")  # more than the word: chat
    assert tg.telegram.calls[said:] == [] and len(open_questions(tg)) == 1
    typed = await tg.say(B, word)
    edit, reply = tg.telegram.calls[said:]
    assert edit.method == "editMessageText" and edit.params["message_id"] == question["message_id"]
    assert edit.params["text"] == KEPT and "reply_markup" not in edit.params  # its buttons gone, as a press does
    assert reply.method == "sendMessage" and reply.params["text"] == KEPT_TYPED
    assert reply.params["reply_parameters"]["message_id"] == typed["message"]["message_id"]
    assert open_questions(tg) == [] and tg.balance(A["id"]) == 400
    said = len(tg.telegram.calls)
    await tg.feed(typed)  # the same update delivered again: nothing waits, nothing said
    await tg.say(B, word)  # and typed again: chat
    assert tg.telegram.calls[said:] == []
    await tg.feed(tg.updates.press(B, question, buttons(question)["确认撤销"]))  # the old buttons expired
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "这个按钮已经失效了。"
    assert tg.balance(A["id"]) == 400


async def test_with_no_question_waiting_the_words_are_chat(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(A, "暗杠 7z")
    said = len(tg.telegram.calls)
    for word in ("算了", "不撤销", "取消", "不用了", "/cancel"):
        await tg.say(B, word)
        await tg.say(A, word)  # the recorder too
    assert tg.telegram.calls[said:] == []
    assert tg.balance(A["id"]) == 400


async def test_an_english_group_keeps_it_with_cancel_or_no(tg: Harness) -> None:
    await tg.say(BOSS, "/config language en")
    await tg.say(A, "/open @ajie @xiaoli @laowang 庄 @ajie")
    await tg.say(A, "暗杠 7z")
    for word in ("no", "cancel", "算了"):
        question = await ask(tg, B, "undo")
        assert question["text"].startswith("The latest record was recorded by 阿杰 just now")
        await tg.say(C, word)
        assert len(open_questions(tg)) == 1
        await tg.say(B, word)
        assert tg.telegram.texts()[-2:] == ["OK, nothing undone.", "OK, nothing undone (the question above is closed)."]
        assert open_questions(tg) == [] and tg.balance(A["id"]) == 400


async def test_asking_again_points_to_the_question_and_asks_nothing_twice(tg: Harness) -> None:
    question = await kong_asked_by_b(tg)
    for again in ("撤销", "撤回", "undo"):
        asking = await tg.say(B, again)
        pointer = tg.telegram.sent()[-1]
        assert pointer["text"] == (
            "上面已经在问了：第1局 阿杰 暗杠 中。请点那条消息下面的「确认撤销」或「不撤销」"
            "（不撤了也可以直接发「算了」）。"
            if again != "undo"
            else "Already asked above: hand 1, 阿杰 concealed kong (暗杠) red dragon. Press “确认撤销” or “不撤销” "
            "under it (or type cancel)."  # the hand named in the reply's language, the buttons as they read
        )
        assert pointer["reply_parameters"]["message_id"] == question["message_id"]  # it answers the question
        assert "reply_markup" not in pointer and len(open_questions(tg)) == 1
    said = len(tg.telegram.sent())
    await tg.feed(asking)  # delivered again: pointed to again, nothing stored
    assert len(tg.telegram.sent()) == said + 1 and len(open_questions(tg)) == 1
    # another player's 撤销 of the same record asks their own question: B's is not theirs to answer
    theirs = await ask(tg, C)
    assert theirs["text"] == question["text"] and len(open_questions(tg)) == 2
    # C's own record waits for C's answer (both would count: `_common.refuse_while_undo_asked`)
    await tg.say(C, "暗杠 3s")
    assert tg.last_text().startswith("没有记：你要撤销的 第1局 阿杰 暗杠 中 还在等 阿杰 或管理员确认")
    # the table moved on (A has no question): B's 撤销 is of another record now, and asks about it
    await tg.say(A, "暗杠 3s")
    other = await ask(tg, B)
    assert other["text"] == "最后一条记录是 阿杰 刚刚记的：第1局 阿杰 暗杠 三条。确定撤销吗？" + ASKS_RECORDER
    # B's 算了 answers B's latest question (the one just asked), none of C's; delivered again it answers nothing
    # more; B's next 算了 answers the older one
    typed = await tg.say(B, "算了")
    edits = {e["message_id"]: e["text"] for e in tg.telegram.sent("editMessageText")}
    assert edits == {other["message_id"]: KEPT}
    assert sorted(flow.user_id for flow in open_questions(tg)) == sorted([B["id"], C["id"]])
    said = len(tg.telegram.calls)
    await tg.feed(typed)
    assert tg.telegram.calls[said:] == [] and len(open_questions(tg)) == 2
    await tg.say(B, "算了")
    edits = {e["message_id"]: e["text"] for e in tg.telegram.sent("editMessageText")}
    assert edits == {question["message_id"]: KEPT, other["message_id"]: KEPT}
    assert [flow.user_id for flow in open_questions(tg)] == [C["id"]]
    # the whole hand asked about twice: pointed to as well
    await tg.say(A, "胡 清一色 自摸")
    hand = await ask(tg, B, "撤销 第1局")
    await tg.say(B, "撤销第一局")
    assert tg.telegram.sent()[-1]["reply_parameters"]["message_id"] == hand["message_id"]
    whole = "上面已经在问了：第1局 阿杰 暗杠 中；阿杰 暗杠 三条；阿杰 自摸 清一色。"  # every record the hand holds
    assert tg.last_text().startswith(whole)
    # a plain 撤销 of its latest record is a question about the same hand: pointed to, not a second question
    # with buttons of its own (play-test: `撤销上一局` then `撤回` left two questions that would undo differently)
    await tg.say(B, "撤回")
    assert tg.last_text().startswith(whole)
    assert tg.telegram.sent()[-1]["reply_parameters"]["message_id"] == hand["message_id"]


async def test_the_recorder_or_an_admin_confirms_and_the_asker_may_only_drop_it(tg: Harness) -> None:
    question = await kong_asked_by_b(tg)
    for who, label in ((C, "不撤销"), (C, "确认撤销"), (B, "确认撤销")):  # an alert, nothing changes
        await tg.feed(tg.updates.press(who, question, buttons(question)[label]))
        alert = tg.telegram.sent("answerCallbackQuery")[-1]
        assert alert["text"] == NOT_YOURS and alert["show_alert"] is True
    assert tg.telegram.sent("editMessageText") == [] and len(open_questions(tg)) == 1
    assert tg.balance(A["id"]) == 400
    await tg.feed(tg.updates.press(BOSS, question, buttons(question)["不撤销"]))  # an admin answers anyone's
    assert tg.telegram.sent("editMessageText")[-1]["text"] == KEPT and open_questions(tg) == []
    question = await ask(tg, B)  # asked anew: the earlier one is answered
    await tg.feed(tg.updates.press(B, question, buttons(question)["不撤销"]))  # the asker drops it
    assert tg.telegram.sent("editMessageText")[-1]["text"] == KEPT and open_questions(tg) == []
    question = await ask(tg, B)
    press = await tg.feed(tg.updates.press(A, question, buttons(question)["确认撤销"]))  # the recorder gives it up
    assert tg.telegram.sent("editMessageText")[-1]["text"].startswith("已撤销：第1局 阿杰 暗杠 中")
    assert tg.balance(A["id"]) == 0
    said = len(tg.telegram.texts())
    await tg.feed(press)  # the press delivered twice
    await tg.feed(tg.updates.press(A, question, buttons(question)["确认撤销"]))  # pressed again
    await tg.feed(tg.updates.press(B, question, buttons(question)["不撤销"]))
    await tg.say(B, "算了")
    assert len(tg.telegram.texts()) == said and tg.balance(A["id"]) == 0


async def test_an_admins_question_about_a_table_that_has_ended_is_theirs_the_same_way(tg: Harness) -> None:
    """撤销 replying to a hand of a table that has ended asks an admin: asked again it points to its question, and
    the admin's 算了 closes it, a player's is chat."""
    await open_table(tg)
    win = await tg.say(B, "胡 清一色 自摸")
    await tg.say(BOSS, "开桌 @ajie @xiaoli @laowang 庄 @xiaoli")
    before = tg.balance(B["id"])
    question = await ask_replying(tg, win)
    await tg.feed(tg.updates.message(BOSS, "撤销", reply_to=win["message"]))
    pointer = tg.telegram.sent()[-1]
    assert pointer["text"].startswith("上面已经在问了：第1局 小李 自摸 清一色。")
    assert pointer["reply_parameters"]["message_id"] == question["message_id"]
    said = len(tg.telegram.calls)
    await tg.say(A, "算了")  # a player's 算了: chat
    assert tg.telegram.calls[said:] == []
    await tg.say(BOSS, "算了")
    assert [c.params["text"] for c in tg.telegram.calls[said:]] == [KEPT, KEPT_TYPED]
    assert tg.telegram.calls[said].params["message_id"] == question["message_id"]
    await tg.feed(tg.updates.press(BOSS, question, buttons(question)["确认撤销"]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "这个按钮已经失效了。"
    assert tg.balance(B["id"]) == before


async def ask_replying(tg: Harness, recorded: dict[str, Any]) -> dict[str, Any]:
    """The group's admin replies 撤销 to a record's message and the bot asks: the question as sent."""
    calls = len(tg.telegram.calls)
    await tg.feed(tg.updates.message(BOSS, "撤销", reply_to=recorded["message"]))
    (sent,) = [c for c in tg.telegram.calls[calls:] if c.method == "sendMessage"]
    assert sent.params["text"].startswith("撤销第1局：")
    return {**sent.params, "message_id": sent.result["message_id"]}


# ---------------------------------------------------------------------------------------------- any order of acts

NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)
ASKER, OTHER, RECORDER = (Sender(7000 + i, name, username=name) for i, name in enumerate(["xiaoli", "laowang", "ajie"]))
ADMIN = Sender(7009, "boss", username="boss")
CHATS = count(-1007700000000, -1)
#: what may happen while the question waits: a press (by whom, which button), a typed line, 撤销 again, or the
#: previous update delivered again
ACTS = st.sampled_from(
    [
        ("press", ASKER, "ok"),
        ("press", ASKER, "keep"),
        ("press", OTHER, "ok"),
        ("press", OTHER, "keep"),
        ("press", ADMIN, "ok"),
        ("press", ADMIN, "keep"),
        ("press", RECORDER, "ok"),
        ("press", RECORDER, "keep"),
        ("type", ASKER, "算了"),
        ("type", ASKER, "今天手气不错"),
        ("type", OTHER, "算了"),
        ("type", OTHER, "不撤销"),
        ("type", ASKER, "撤销"),
        ("again", None, ""),
    ]
)


class Group:
    """A chat driven through the command layer, as an adapter would: every update with its own source, and the
    message a question was posted as told back (`Bot.handle_posted`)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger, self.bot, self.chat = ledger, Bot(ledger, clock=ManualClock(NOW)), next(CHATS)
        self.ids = count(1)
        self.last: Incoming | CallbackQuery | None = None

    def feed(self, update: Incoming | CallbackQuery) -> list[object]:
        self.last = update
        if isinstance(update, Incoming):
            effects = self.bot.handle_message(update).effects
        else:
            effects = self.bot.handle_callback(update).effects
        for effect in effects:
            if isinstance(effect, SendText) and effect.posted_as:
                self.bot.handle_posted(self.chat, effect.posted_as, 90_000 + next(self.ids))
        return effects

    def say(self, sender: Sender, text: str) -> list[object]:
        number = next(self.ids)
        admins = frozenset({ADMIN.user_id})
        source = f"t:{self.chat}:{number}"
        return self.feed(Incoming(self.chat, number, sender, text, NOW, source=source, admin_ids=admins))

    def press(self, sender: Sender, data: str, message_id: int) -> list[object]:
        query = f"q{next(self.ids)}"
        source = f"t:{self.chat}:cb{query}"
        admins = frozenset({ADMIN.user_id})
        return self.feed(CallbackQuery(query, self.chat, message_id, sender, data, NOW, source, admin_ids=admins))

    def waiting(self) -> list[Any]:
        return [f for f in self.ledger.open_flows(self.chat) if f.kind == "undo" and f.user_id == ASKER.user_id]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(acts=st.lists(ACTS, max_size=7))
def test_whatever_happens_the_record_is_taken_back_once_and_only_by_whom_may(
    ledger: Ledger, acts: list[tuple[str, Sender | None, str]]
) -> None:
    """A model of the question about someone else's record: open until the asker drops it (「不撤销」, 算了), or
    the recorder or an admin answers it; taken back at most once, and only by the recorder's or an admin's
    「确认撤销」; the asker never has two questions waiting."""
    group = Group(ledger)
    for person in (RECORDER, ASKER, OTHER):
        group.say(person, "你好")
    group.say(RECORDER, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    group.say(RECORDER, "暗杠 7z")
    (question,) = [e for e in group.say(ASKER, "撤销") if isinstance(e, SendText)]
    data = {button.data.rsplit(":", 1)[1]: button.data for button in question.buttons[0]}
    message = int(group.waiting()[0].state["message"])
    is_open, undone = True, False
    for kind, who, what in acts:
        if kind == "press":
            assert who is not None
            effects = group.press(who, data[what], message)
            refused = who == OTHER or (who == ASKER and what == "ok")
            if refused and is_open:
                assert effects == [AnswerCallback(NOT_YOURS.replace("阿杰", "ajie"), alert=True)]
            elif is_open:
                is_open, undone = False, what == "ok"
        elif kind == "type":
            assert who is not None
            group.say(who, what)
            if who == ASKER and what == "算了":
                is_open = False
        elif group.last is not None:
            group.feed(group.last)
        assert len(group.waiting()) <= 1
        first = ledger.load_flow(group.chat, question.reply_to or 0)
        assert first is not None and (first.finished_at is None) == is_open, acts
    recorder = next(m for m in ledger.members(group.chat) if m.user_id == RECORDER.user_id)
    assert ledger.balances(group.chat).of(recorder.id) == (0 if undone else 400), acts
