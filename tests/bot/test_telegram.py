"""The Telegram adapter without a network: updates built with `Update.de_json` go through
`Application.process_update`; the Bot talks to a `BaseRequest` that records calls (tests/bot/fake_bot_api.py).
Runs on SQLite and PostgreSQL (the `ledger` fixture)."""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from telegram import Update
from telegram.ext import Application

from bot.config import Settings
from bot.core import Bot, Button, Outcome, SendText
from bot.telegram.adapter import CORE_KEY, MAX_MESSAGE, Executor, split_text
from bot.telegram.app import ALLOWED_UPDATES, build_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT, FakeTelegram, RecordingRequest, Updates, Upload, user

A = user(501, "阿杰", "ajie")
B = user(502, "小李", "xiaoli")
C = user(503, "老王", "laowang")
OUTSIDER = user(599, "路人", "luren")
BOSS = user(500, "群主", "boss")


class _Clock:
    def __init__(self, ledger_clock: Any) -> None:
        self._clock = ledger_clock

    def now(self) -> datetime:
        result: datetime = self._clock()
        return result


class Harness:
    def __init__(self, app: Application, telegram: FakeTelegram, ledger: Ledger) -> None:  # type: ignore[type-arg]
        self.app, self.telegram, self.ledger = app, telegram, ledger
        self.updates = Updates()
        self._update_ids = iter(range(1, 10_000))

    async def feed(self, update: dict[str, Any]) -> dict[str, Any]:
        if "update_id" not in update:
            update = {"update_id": next(self._update_ids), **update}
        await self.app.process_update(Update.de_json(update, self.app.bot))
        return update

    async def say(self, sender: dict[str, Any], text: str) -> dict[str, Any]:
        return await self.feed(self.updates.message(sender, text))

    def balance(self, user_id: int) -> int:
        account = next(m for m in self.ledger.members(CHAT["id"]) if m.user_id == user_id)
        return self.ledger.balances(CHAT["id"]).of(account.id)

    def last_text(self) -> str:
        return self.telegram.texts()[-1]


@pytest.fixture
async def tg(ledger: Ledger, clock: Any) -> AsyncIterator[Harness]:
    telegram = FakeTelegram(admins=[BOSS])
    core = Bot(ledger, clock=_Clock(clock))
    request = RecordingRequest(telegram)
    app = build_application(
        Settings(), core, "123456:TESTTOKEN", request=request, get_updates_request=request, rate_limit=False
    )
    await app.initialize()
    harness = Harness(app, telegram, ledger)
    for person in (A, B, C):  # everyone has spoken once, so @username resolves
        await harness.say(person, "来了")
    yield harness
    await harness.app.shutdown()  # the app a test may have replaced (a restart)


async def open_table(tg: Harness) -> None:
    await tg.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    assert "开桌了" in tg.last_text()


async def test_a_win_typed_in_chat_is_scored_booked_and_answered(tg: Harness) -> None:
    await open_table(tg)
    opened = tg.telegram.sent()[-1]
    assert [b["callback_data"] for b in opened["reply_markup"]["inline_keyboard"][0]] == ["hu:new", "gang:new"]
    await tg.say(A, "胡 123p46p789s22s333s 5p 点 @xiaoli")
    reply = tg.telegram.sent()[-1]
    assert "卡五星×2" in reply["text"] and "阿杰 +2元" in reply["text"]
    assert reply["reply_parameters"]["message_id"] > 0  # answers the message it read
    assert tg.balance(501) == 200 and tg.balance(502) == -200 and tg.balance(503) == 0


async def test_a_line_that_starts_by_mentioning_the_bot_is_read_without_it(tg: Harness) -> None:
    """A group with privacy mode on shows the bot only lines that mention it: `@paiju_bot 胡 …` must book."""
    await open_table(tg)
    await tg.say(A, "@Paiju_Bot 胡 123p46p789s22s333s 5p 点 @xiaoli")
    assert "卡五星×2" in tg.last_text()
    assert tg.balance(501) == 200 and tg.balance(502) == -200
    await tg.say(B, "@paiju_bot余额")  # glued to a word: not the bot's mention, chat
    assert "卡五星×2" in tg.last_text()


async def test_the_same_update_delivered_twice_books_once(tg: Harness) -> None:
    await open_table(tg)
    update = await tg.say(B, "暗杠 3s")
    await tg.feed(update)  # Telegram redelivers after a timeout
    assert tg.balance(502) == 400 and tg.balance(501) == -200 and tg.balance(503) == -200


async def test_an_edited_message_re_records_its_hand(tg: Harness) -> None:
    await open_table(tg)
    original = await tg.say(A, "胡 清一色 点 @xiaoli")
    assert tg.balance(501) == 400
    await tg.feed(tg.updates.edit(original, "胡 清一色 七对 点 @laowang"))
    assert "按改后的消息重记" in tg.last_text()
    assert tg.balance(501) == 800 and tg.balance(502) == 0 and tg.balance(503) == -800
    history = tg.ledger.history(CHAT["id"], 10, include_voided=True)
    assert [h.status for h in history].count("voided") == 1


async def test_a_failed_reply_does_not_undo_the_booking(tg: Harness, caplog: pytest.LogCaptureFixture) -> None:
    await open_table(tg)
    tg.telegram.refuse["sendMessage"] = "Bad Request: not enough rights to send text messages to the chat"
    with caplog.at_level(logging.WARNING):
        await tg.say(C, "胡 清一色 自摸")
    assert tg.balance(503) == 800  # booked although the reply failed
    assert "refused" in caplog.text


async def test_button_flow_only_seated_players_and_admins_may_press(tg: Harness) -> None:
    await open_table(tg)
    await tg.say(B, "胡")
    flow_message = tg.telegram.calls[-1]
    assert flow_message.method == "sendMessage"
    message = {"message_id": 777001, "text": flow_message.params["text"]}
    data = [b["callback_data"] for row in flow_message.params["reply_markup"]["inline_keyboard"] for b in row]
    await tg.feed(tg.updates.press(OUTSIDER, message, data[1]))
    answer = tg.telegram.sent("answerCallbackQuery")[-1]
    assert answer["show_alert"] is True and "只有这桌的玩家" in answer["text"]
    key = data[1].split(":")[1]
    for action in ("w.1", "m.s", "p.2", "v"):  # 小李, 自摸, 清一色, preview
        await tg.feed(tg.updates.press(B, message, f"hu:{key}:{action}"))
    preview = tg.telegram.sent("editMessageText")[-1]
    assert preview["message_id"] == 777001 and "确认后记账" in preview["text"]
    await tg.feed(tg.updates.press(BOSS, message, f"hu:{key}:ok"))  # an admin who is not seated may confirm
    assert tg.balance(502) == 800
    await tg.feed(tg.updates.press(B, message, f"hu:{key}:ok"))  # a double press books nothing more
    assert tg.balance(502) == 800
    assert "失效" in tg.telegram.sent("answerCallbackQuery")[-1]["text"]


async def test_admins_are_fetched_once_and_cached(tg: Harness) -> None:
    await tg.say(A, "设置 底金 2")
    assert "管理员" in tg.last_text()
    await tg.say(BOSS, "设置 底金 2")
    assert "已修改" in tg.last_text()
    await tg.say(BOSS, "规则")
    assert len(tg.telegram.sent("getChatAdministrators")) == 1


async def test_a_text_mention_without_username_seats_that_member(tg: Harness) -> None:
    nameless = user(504, "阿芳")
    await tg.say(nameless, "我也来")
    update = tg.updates.message(A, "开桌 @ajie @xiaoli 阿芳")
    update["message"]["entities"] = [
        {"type": "mention", "offset": 3, "length": 5},
        {"type": "mention", "offset": 9, "length": 7},
        {"type": "text_mention", "offset": 17, "length": 2, "user": nameless},
    ]
    await tg.feed(update)
    assert "座位：阿杰、小李、阿芳" in tg.last_text()
    table = tg.ledger.current_table(CHAT["id"])
    assert table is not None
    fang = next(m for m in tg.ledger.members(CHAT["id"]) if m.user_id == 504)
    assert fang.id in {seat.member_id for seat in table.seats} and fang.kind == "member"


async def test_an_unknown_username_is_refused_not_guessed(tg: Harness) -> None:
    await tg.say(A, "开桌 @ajie @xiaoli @nobody_here")
    assert "还不认识 @nobody_here" in tg.last_text()
    assert tg.ledger.current_table(CHAT["id"]) is None


async def test_join_runs_join_hooks_and_is_answered(tg: Harness) -> None:
    before = len(tg.telegram.calls)
    await tg.feed(tg.updates.join(user(505, "新人")))
    assert len(tg.telegram.calls) >= before  # hooks may greet; nothing crashes on a service message


def test_allowed_updates_include_members_edits_and_buttons() -> None:
    assert {"chat_member", "my_chat_member", "edited_message", "callback_query", "message"} <= set(ALLOWED_UPDATES)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_token_is_cut_from_log_lines_and_tracebacks(fmt: str) -> None:
    """Message, arguments and traceback alike; the token's secret half on its own too."""
    from bot.telegram.logs import JsonFormatter, Redactor, TextFormatter

    redact = Redactor(["123456:SECRETSECRET", "hooksecret"])
    formatter = JsonFormatter(redact) if fmt == "json" else TextFormatter(redact)
    try:
        raise RuntimeError("The token `123456:SECRETSECRET` was rejected; url /botSECRETSECRET/getMe")
    except RuntimeError as err:
        error = err
    record = logging.LogRecord(
        "httpx",
        logging.ERROR,
        "x",
        1,
        "POST %s with %s",
        ("https://h/bot123456:SECRETSECRET/getMe", "hooksecret"),
        (RuntimeError, error, error.__traceback__),
    )
    line = formatter.format(record)
    assert "SECRET" not in line and "hooksecret" not in line
    assert line.count("<redacted>") >= 4 and "rejected" in line
    if fmt == "json":
        entry = json.loads(line)
        assert entry["level"] == "ERROR" and "Traceback" in entry["exc"]


async def test_being_added_to_a_group_introduces_the_bot(tg: Harness) -> None:
    change = {
        "chat": CHAT,
        "from": BOSS,
        "date": 1768046400,
        "old_chat_member": {"status": "left", "user": {"id": 4242, "is_bot": True, "first_name": "牌局"}},
        "new_chat_member": {"status": "member", "user": {"id": 4242, "is_bot": True, "first_name": "牌局"}},
    }
    await tg.feed({"my_chat_member": change})
    assert "开桌 @甲 @乙 @丙" in tg.last_text()


async def test_opening_by_reply_seats_the_quoted_member(tg: Harness) -> None:
    quoted = (await tg.say(B, "我也打"))["message"]
    await tg.feed(tg.updates.message(A, "开桌 @laowang", reply_to=quoted))
    assert "座位：阿杰、老王、小李" in tg.last_text()


async def test_a_sticker_reaches_the_filters_but_is_no_command(tg: Harness) -> None:
    update = tg.updates.message(A, "")
    del update["message"]["text"]
    update["message"]["sticker"] = {
        "file_id": "s1",
        "file_unique_id": "u1",
        "type": "regular",
        "width": 512,
        "height": 512,
        "is_animated": False,
        "is_video": False,
    }
    seen: list[str] = []
    from bot.core import registry

    @registry.message_filter("test_spy", priority=99)
    def spy(ctx: Any) -> None:
        seen.append(ctx.incoming.text)

    try:
        before = len(tg.telegram.calls)
        await tg.feed(update)
    finally:
        registry.filters[:] = [f for f in registry.filters if f.name != "test_spy"]
    assert seen == [""] and len(tg.telegram.calls) == before


async def test_a_flow_survives_a_restart(tg: Harness, clock: Any) -> None:
    """The flow's state is in the database: a new process (a new Bot and Application) finishes it."""
    await open_table(tg)
    await tg.say(C, "杠")
    flow = tg.telegram.calls[-1].params
    key = flow["reply_markup"]["inline_keyboard"][0][0]["callback_data"].split(":")[1]
    message = {"message_id": 777002, "text": flow["text"]}
    await tg.feed(tg.updates.press(C, message, f"gang:{key}:w.2"))
    await tg.app.shutdown()
    request = RecordingRequest(tg.telegram)
    restarted = build_application(
        Settings(), Bot(tg.ledger, clock=_Clock(clock)), "123456:TESTTOKEN", request=request, rate_limit=False
    )
    await restarted.initialize()
    tg.app = restarted
    for action in ("k.a", "ok"):  # 暗杠, confirm
        await tg.feed(tg.updates.press(C, message, f"gang:{key}:{action}"))
    assert "老王 暗杠" in tg.last_text()
    assert tg.balance(503) == 400


async def test_a_bug_below_the_adapter_is_logged_and_the_group_told(
    tg: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(chat_id: int, *, title: str = "", user_id: int | None = None) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(tg.ledger, "chat", broken)  # the read every message starts with
    with caplog.at_level(logging.ERROR):
        await tg.say(A, "胡 清一色 自摸")
    assert "出了点问题" in tg.last_text()
    assert "database on fire" in caplog.text


@given(st.lists(st.text(alphabet="胡杠ab \n", max_size=50), max_size=40), st.integers(min_value=5, max_value=60))
def test_long_texts_are_split_at_line_ends_and_nothing_is_lost(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    pieces = split_text(text, limit)
    assert all(len(piece) <= limit for piece in pieces)
    if text.strip():
        assert all(piece.strip() for piece in pieces)  # Telegram refuses blank messages
    assert "".join("".join(pieces).split()) == "".join(text.split())  # every visible character, in order
    if all(len(line) <= limit for line in text.split("\n")):  # nothing cut mid-line: whole lines, in order
        kept = [line for piece in pieces for line in piece.split("\n") if line.strip()]
        assert kept == [line for line in text.split("\n") if line.strip()]


@pytest.fixture
def report_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "reports"
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(folder))
    return folder


async def test_settle_posts_the_night_as_a_photo_with_the_transfers_as_caption(tg: Harness, report_dir: Path) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 点 @xiaoli")
    await tg.say(A, "结算")
    photo = tg.telegram.sent("sendPhoto")[-1]
    assert isinstance(photo["photo"], Upload) and photo["photo"].content[:8] == b"\x89PNG\r\n\x1a\n"
    assert "最少转账（1笔）" in photo["caption"] and "小李 → 阿杰 4元" in photo["caption"]
    assert tg.ledger.current_night(CHAT["id"]) is None  # the night is closed


async def test_a_photo_telegram_refuses_still_delivers_its_words(
    tg: Harness, report_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 点 @xiaoli")
    tg.telegram.refuse["sendPhoto"] = "Bad Request: not enough rights to send photos to the chat"
    with caplog.at_level(logging.WARNING):
        await tg.say(A, "结算")
    assert tg.telegram.sent("sendPhoto")  # it was tried
    words = [message["text"] for message in tg.telegram.sent("sendMessage")]
    assert any("小李 → 阿杰 4元" in text and "第1晚结算" in text for text in words)
    assert "its caption goes as text" in caplog.text


async def test_export_sends_the_file_as_a_document(tg: Harness, report_dir: Path) -> None:
    await open_table(tg)
    await tg.say(A, "胡 清一色 点 @xiaoli")
    await tg.say(B, "导出 今晚 csv")
    document = tg.telegram.sent("sendDocument")[-1]
    upload = document["document"]
    assert isinstance(upload, Upload) and upload.filename is not None and upload.filename.endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(upload.content.decode("utf-8"))))
    assert [(row["from"], row["to"], row["amount"]) for row in rows] == [("小李", "阿杰", "400")]
    assert document["caption"].startswith("已导出 第1晚")


async def test_a_text_longer_than_telegram_allows_goes_as_several_messages(tg: Harness) -> None:
    """The reply answers the first piece, the buttons sit under the last; nothing is lost."""
    lines = [f"第{n}行 " + "胡" * 40 for n in range(200)]  # about 9,000 characters
    buttons = ((Button("胡", "hu:new"),),)
    before = len(tg.telegram.sent())
    executor = Executor(tg.app.bot_data[CORE_KEY], tg.app.bot, CHAT["id"])
    await executor.run(Outcome([SendText("\n".join(lines), buttons=buttons, reply_to=7)]))
    pieces = tg.telegram.sent()[before:]
    assert len(pieces) == 3 and all(len(piece["text"]) <= MAX_MESSAGE for piece in pieces)
    assert [line for piece in pieces for line in piece["text"].split("\n")] == lines
    assert pieces[0]["reply_parameters"]["message_id"] == 7 and "reply_parameters" not in pieces[-1]
    assert "reply_markup" in pieces[-1] and all("reply_markup" not in piece for piece in pieces[:-1])
