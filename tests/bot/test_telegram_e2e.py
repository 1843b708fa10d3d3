"""End to end: `paiju run`'s service (inbox, dispatcher, PTB application, web server) long-polls a local fake Bot
API server (aiohttp on 127.0.0.1, reached through `base_url`) through a whole night; two `paiju run` processes share
one database and one group's updates; the webhook refuses posts without its secret. Asserts both what the bot sent
and the ledger's balances. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.config import ServerSettings, Settings, TelegramSettings, WebhookSettings
from bot.telegram.app import ALLOWED_UPDATES, Service, webhook_secret
from ledger.service import Ledger, LedgerError
from tests.bot.fake_bot_api import CHAT, FakeBotAPIServer, Updates, Upload, until, user

A = user(501, "阿杰", "ajie")
B = user(502, "小李", "xiaoli")
C = user(503, "老王", "laowang")
TOKEN = "424242:E2E-TOKEN"


@pytest.fixture(autouse=True)
def _report_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))  # the settle post's picture


class Chat:
    """Pushes updates to the fake server and waits until the polling bot has answered each (by content, since
    other plugins such as moderation may add messages of their own)."""

    def __init__(self, server: FakeBotAPIServer, ledger: Ledger) -> None:
        self.server, self.telegram, self.updates, self.ledger = server, server.telegram, Updates(), ledger

    async def send(self, update: dict[str, Any], expect: str, method: str = "sendMessage") -> dict[str, Any]:
        before = len(self.telegram.calls)

        def answered() -> bool:
            return any(
                c.method == method and expect in str(c.params.get("text", c.params.get("caption")))
                for c in self.telegram.calls[before:]
            )

        pushed = self.server.push(update)
        await until(answered, f"a {method} containing {expect!r} (last sent: {self.telegram.texts()[-2:]})")
        return pushed

    async def say(self, sender: dict[str, Any], text: str, expect: str) -> dict[str, Any]:
        return await self.send(self.updates.message(sender, text), expect)

    async def chatter(self, sender: dict[str, Any], text: str) -> None:
        """A plain message: wait until the bot has seen its sender (they become findable by @username)."""
        self.server.push(self.updates.message(sender, text))

        def known() -> bool:
            try:
                return self.ledger.find_member(CHAT["id"], sender["username"]) is not None
            except LedgerError:  # the group itself is not there yet
                return False

        await until(known, "the bot to see the member")

    def last(self, method: str = "sendMessage") -> Any:
        return [c for c in self.telegram.calls if c.method == method][-1]


def balances(ledger: Ledger) -> dict[int, int]:
    total = ledger.balances(CHAT["id"])
    members = {person["id"]: ledger.find_member(CHAT["id"], person["username"]) for person in (A, B, C)}
    return {user_id: total.of(member.id) for user_id, member in members.items() if member is not None}


async def test_a_whole_night_through_long_polling(server: FakeBotAPIServer, db_url: str) -> None:
    settings = Settings(
        telegram=TelegramSettings(base_url=server.base_url, poll_timeout=1, rate_limit=False),
        server=ServerSettings(port=0),
    )
    service = Service(settings, TOKEN, db_url)
    await service.start()
    ledger = service.ledger
    chat = Chat(server, ledger)
    try:
        for person in (A, B, C):
            await chat.chatter(person, "今晚打牌")
        await chat.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie", "开桌了")
        kong = await chat.say(B, "直杠 9p 点 @ajie", "直杠")
        redelivered = {**kong}
        redelivered.pop("update_id")
        await chat.send(redelivered, "直杠")  # the same message arriving again: answered, not booked twice
        await chat.say(C, "直杠 点 @xiaoli 杠上杠", "杠上杠第2杠")
        await chat.say(A, "亮倒", "已亮倒")
        # 小李 types 阿杰's win, and then confirms their own: one recorder, two hands in a row (another claim of a hand
        # just ended from someone else would be asked about, and real time does not pass a hand's minutes here)
        await chat.say(B, "胡 @ajie 123p46p789s22s333s 5p 点 @xiaoli", "包胡")
        assert balances(ledger) == {501: 600, 502: -1000, 503: 400}

        await chat.say(B, "胡", "谁胡了")  # the button flow
        flow = chat.last()
        message = {"message_id": flow.result["message_id"], "text": flow.params["text"]}
        key = flow.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"].split(":")[1]
        steps = [("w.1", "怎么胡"), ("m.s", "有哪些番"), ("p.2", "清一色"), ("v", "确认后记账"), ("ok", "下一局")]
        for action, expect in steps:  # 小李, 自摸, 清一色, preview, confirm
            await chat.send(chat.updates.press(B, message, f"hu:{key}:{action}"), expect, "editMessageText")
        assert "小李 自摸：清一色×4" in chat.last("editMessageText").params["text"]
        assert balances(ledger) == {501: 200, 502: -200, 503: 0}

        await chat.say(C, "亮倒", "已亮倒")
        await chat.say(A, "荒庄", "老王 赔 阿杰 1元、小李 1元")
        assert balances(ledger) == {501: 300, 502: -100, 503: -200}
        await chat.say(A, "撤销", "撤销后第3局重新打开")  # a finished hand: asked first
        question = chat.last()
        message = {"message_id": question.result["message_id"], "text": question.params["text"]}
        confirm = question.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        await chat.send(chat.updates.press(A, message, confirm), "已撤销：第3局 荒庄", "editMessageText")
        assert "本局已记：老王 亮倒" in chat.last("editMessageText").params["text"]  # the 荒庄 went, the 亮倒 stays
        assert balances(ledger) == {501: 200, 502: -200, 503: 0}

        won = await chat.say(C, "胡 清一色 点 @ajie", "清一色×4、亮倒×2")
        assert balances(ledger) == {501: -1400, 502: -200, 503: 1600}
        await chat.send(chat.updates.edit(won, "胡 清一色 七对 自摸"), "重记")
        assert balances(ledger) == {501: -600, 502: -1000, 503: 1600}

        await chat.send(chat.updates.message(A, "结算"), "转账", "sendPhoto")
        posted = chat.last("sendPhoto").params
        assert isinstance(posted["photo"], Upload) and posted["photo"].content[:4] == b"\x89PNG"
        assert "最少转账（2笔）" in posted["caption"]
        assert "阿杰 → 老王 6元" in posted["caption"] and "小李 → 老王 10元" in posted["caption"]
        assert sum(balances(ledger).values()) == 0
    finally:
        await service.stop()
    assert not [c for c in server.telegram.calls if "TOKEN" in str(c.params)]


def _config(tmp_path: Path, base_url: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(
        f'[telegram]\nbase_url = "{base_url}"\npoll_timeout = 1\nadmin_cache_seconds = 60\nrate_limit = false\n'
        "[server]\nport = 0\n",
        encoding="utf-8",
    )
    return path


async def test_two_bot_processes_on_one_database_lose_and_duplicate_nothing(
    server: FakeBotAPIServer, db_url: str, tmp_path: Path
) -> None:
    """Both processes poll the same updates (each sees every one) and race to store them in one database: every
    message is booked exactly once and answered exactly once (the inbox hands each update to one of them)."""
    config = _config(tmp_path, server.base_url)
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": TOKEN, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1"}
    updates = Updates()
    script = [(person, "今晚打牌") for person in (A, B, C)]
    script += [(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")]
    for _ in range(4):
        # 阿杰 records both wins: one recorder, two hands in a row (another claim of a hand just ended from someone
        # else would be asked about, and real time does not pass a hand's minutes here)
        script += [
            (B, "暗杠"),
            (C, "蓄杠"),
            (A, "直杠 点 @laowang"),
            (A, "胡 清一色 自摸"),
            (A, "胡 @xiaoli 七对 点 @laowang"),
        ]
    for sender, text in script:
        server.push(updates.message(sender, text))
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "paiju", "run", "--config", str(config), "--db", db_url],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / f"bot{i}.log", "w"),  # noqa: SIM115 - closed with the process
        )
        for i in range(2)
    ]
    try:
        recordings = len([t for _, t in script if t.startswith(("胡", "暗杠", "蓄杠", "直杠"))])

        def recorded_replies() -> int:
            return len([text for text in server.telegram.texts() if "记下" in text])

        await until(lambda: recorded_replies() >= recordings, "an answer to every record", 120)
        await asyncio.sleep(2.0)  # time enough for a second answer, were one coming
    finally:
        for process in processes:
            process.send_signal(signal.SIGINT)
        for process in processes:  # waited for off the event loop: the fake server must answer their last poll
            await asyncio.to_thread(process.wait, 30)
    logs = "".join((tmp_path / f"bot{i}.log").read_text() for i in range(2))
    assert "Traceback" not in logs, logs
    assert TOKEN not in logs and TOKEN.split(":")[1] not in logs
    assert recorded_replies() == recordings
    ledger = Ledger.open(db_url, upgrade=False)
    try:
        history = ledger.history(CHAT["id"], 50)
        assert len(history) == 8  # 4 rounds × 2 wins, each booked once
        # per round: 暗杠 B +400 (A, C −200); 蓄杠 C +200 (A, B −100); 直杠 A +200 from C;
        # 清一色 自摸 A +800 (B, C −400); 七对 点 C → B +400
        per_round = {501: -200 - 100 + 200 + 800, 502: 400 - 100 - 400 + 400, 503: -200 + 200 - 200 - 400 - 400}
        assert balances(ledger) == {k: 4 * v for k, v in per_round.items()}
    finally:
        ledger.close()


async def test_webhook_mode_registers_the_url_and_refuses_requests_without_the_secret(
    server: FakeBotAPIServer, sqlite_url: str
) -> None:
    import aiohttp

    hook = WebhookSettings(url="https://bot.example.org/paiju", secret_token="s3cret")
    settings = Settings(
        telegram=TelegramSettings(base_url=server.base_url, webhook=hook, rate_limit=False),
        server=ServerSettings(port=0),
    )
    service = Service(settings, TOKEN, sqlite_url, webhook=True)
    await service.start()
    update = Updates().message(A, "余额")
    try:
        registered = server.telegram.sent("setWebhook")[-1]
        assert registered["url"] == "https://bot.example.org/paiju" and registered["secret_token"] == "s3cret"
        assert set(ALLOWED_UPDATES) <= set(registered["allowed_updates"])
        assert service.server is not None
        url = f"http://127.0.0.1:{service.server.port}/paiju"
        async with aiohttp.ClientSession() as session:
            async with session.post(url, json={"update_id": 1, **update}) as refused:
                assert refused.status == 403
            wrong = {"X-Telegram-Bot-Api-Secret-Token": "s3cres"}
            async with session.post(url, json={"update_id": 2, **update}, headers=wrong) as refused:
                assert refused.status == 403
            headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            async with session.post(url, data=b"{not json", headers=headers) as malformed:
                assert malformed.status == 400
            async with session.post(url, json={"update_id": 3, **update}, headers=headers) as accepted:
                assert accepted.status == 200
        await until(lambda: any("账上还没有" in t for t in server.telegram.texts()), "the reply to 余额")
        assert len([t for t in server.telegram.texts() if "账上还没有" in t]) == 1  # the refused posts: nothing
    finally:
        await service.stop()


def test_without_a_configured_secret_every_worker_derives_the_same_one_from_the_token() -> None:
    settings = Settings(telegram=TelegramSettings(webhook=WebhookSettings(url="https://h/paiju")))
    secret = webhook_secret(settings, TOKEN)
    assert secret == webhook_secret(settings, TOKEN) and len(secret) == 64 and secret.isalnum()
    assert secret != webhook_secret(settings, "424242:OTHER-TOKEN") and TOKEN.split(":")[1] not in secret
