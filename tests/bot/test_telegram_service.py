"""`paiju run` as a service: the token never shown (the real CLI against a Bot API that refuses it or cannot be
reached), a forged webhook post moving no money, chats handled side by side but each in order, a dropped database
connection retried in silence, `/healthz`, `/metrics`, and JSON logs naming the chat and update."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import aiohttp
import pytest
import sqlalchemy as sa

from bot.config import ServerSettings, Settings, TelegramSettings, WebappSettings, WebhookSettings
from bot.telegram.adapter import CORE_KEY
from bot.telegram.app import Service, StartError
from tests.bot.conftest import BOSS
from tests.bot.fake_bot_api import BOT_USER, CHAT, FakeBotAPIServer, FakeTelegram, Updates, until, user
from tests.bot.processes import SECRET, TOKEN, BotProcess, environment, free_port, write_config

A = user(501, "阿杰", "ajie")
B = user(502, "小李", "xiaoli")
C = user(503, "老王", "laowang")
OTHER = {"id": -1009876543210, "type": "supergroup", "title": "周六够级"}
SECRET_PART = TOKEN.split(":")[1]


def settings_for(server: FakeBotAPIServer, **telegram: Any) -> Settings:
    hook = WebhookSettings(url="https://bot.example.org/paiju", secret_token=SECRET)
    return Settings(
        telegram=TelegramSettings(
            base_url=server.base_url, poll_timeout=1, rate_limit=False, set_commands=False, webhook=hook, **telegram
        ),
        server=ServerSettings(port=0),
    )


@pytest.fixture
async def polling(server: FakeBotAPIServer, db_url: str) -> AsyncIterator[Service]:
    service = Service(settings_for(server), TOKEN, db_url)
    await service.start()
    yield service
    await service.stop()


def balances_in(telegram: FakeTelegram, chat: dict[str, Any]) -> list[dict[str, Any]]:
    """The bot's answers to 余额 in a chat (name-card reminders and the like left out)."""
    return [p for p in telegram.sent() if int(p["chat_id"]) == chat["id"] and "账上" in p["text"]]


# ------------------------------------------------------------------------------------------------ the token


def run_cli(tmp_path: Path, base_url: str, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    config = write_config(tmp_path / "config.toml", base_url=base_url)
    database = f"sqlite:///{tmp_path / 'x.db'}"
    return subprocess.run(
        [sys.executable, "-m", "paiju", "run", "--config", str(config), "--db", database, *extra],
        env=environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


async def test_a_refused_token_is_one_sentence_and_never_printed(server: FakeBotAPIServer, tmp_path: Path) -> None:
    server.telegram.unauthorized = True
    done = await asyncio.to_thread(run_cli, tmp_path, server.base_url)
    assert done.returncode == 2
    assert done.stdout.strip().splitlines() == [
        f"paiju run: the Bot API at {server.base_url} refused the bot token: check TELEGRAM_BOT_TOKEN "
        "(as @BotFather gave it) and [telegram] base_url"
    ]
    assert SECRET_PART not in done.stdout + done.stderr and "Traceback" not in done.stderr


async def test_a_wrong_base_url_is_one_sentence_and_never_prints_the_token(
    server: FakeBotAPIServer, tmp_path: Path
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/bot"
    unreachable = await asyncio.to_thread(run_cli, tmp_path, closed)
    assert unreachable.returncode == 2
    assert unreachable.stdout.startswith(f"paiju run: cannot reach the Bot API at {closed} (")
    wrong_path = await asyncio.to_thread(run_cli, tmp_path, f"http://127.0.0.1:{server.port}/nothing-here/bot")
    assert wrong_path.returncode == 2 and "refused the bot token" in wrong_path.stdout
    for done in (unreachable, wrong_path):
        assert len(done.stdout.strip().splitlines()) == 1
        assert SECRET_PART not in done.stdout + done.stderr and "Traceback" not in done.stderr
        # the database's one line on a first start, not every migration's docstring; no "stopping …" of a service
        # that never started; no HTTP session left open
        for noise in ("Running upgrade", "stopping", "Unclosed client session"):
            assert noise not in done.stderr, done.stderr
    assert "database upgraded from empty to" in unreachable.stderr


async def test_a_port_in_use_is_one_sentence(server: FakeBotAPIServer, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = await asyncio.to_thread(run_cli, tmp_path, server.base_url, "--port", str(port))
    assert done.returncode == 2
    assert done.stdout.startswith(f"paiju run: cannot listen on 127.0.0.1:{port} (") and "--port" in done.stdout


async def test_a_token_revoked_while_running_ends_the_process_with_the_same_sentence(
    server: FakeBotAPIServer, sqlite_url: str, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "config.toml", base_url=server.base_url)
    bot = BotProcess(config, sqlite_url, tmp_path / "bot.log").start()
    await until(lambda: "ready (long polling)" in bot.output(), "the bot to start", 60)
    server.telegram.unauthorized = True
    assert bot.process is not None
    assert await asyncio.to_thread(bot.process.wait, 60) == 2
    assert "refused the bot token" in bot.output() and SECRET_PART not in bot.output()


# ------------------------------------------------------------------------------------------------ webhook


async def test_a_forged_webhook_post_claiming_the_owner_moves_no_money(server: FakeBotAPIServer, db_url: str) -> None:
    """Today a POST without the secret, from the owner's id, booked a 100元 fine. Now: 403, nothing stored."""
    service = Service(settings_for(server), TOKEN, db_url, webhook=True)
    await service.start()
    assert service.server is not None
    url = f"http://127.0.0.1:{service.server.port}/paiju"
    updates = Updates()
    try:
        async with aiohttp.ClientSession() as session:
            post = session.post
            for number, (sender, text) in enumerate([(B, "来了"), (BOSS, "来了")], 1):
                headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
                async with post(url, json={"update_id": number, **updates.message(sender, text)}, headers=headers):
                    pass
            inbox = service.dispatcher.inbox if service.dispatcher else None
            assert inbox is not None
            await until(lambda: inbox.backlog().pending == 0, "both to be seen")
            forged = {"update_id": 10, **updates.message(BOSS, "罚款 @xiaoli 100 刷屏")}
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "guess"}):
                async with post(url, json=forged, headers=headers) as answer:
                    assert answer.status == 403
            await asyncio.sleep(1.0)
            member = service.ledger.find_member(CHAT["id"], "xiaoli")
            assert member is not None and service.ledger.balances(CHAT["id"]).of(member.id) == 0
            assert not [t for t in server.telegram.texts() if "罚款" in t or "100" in t]
            genuine = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            async with post(url, json={**forged, "update_id": 11}, headers=genuine) as answer:
                assert answer.status == 200  # the same from Telegram itself: the owner's fine stands
            await until(lambda: service.ledger.balances(CHAT["id"]).of(member.id) == -10_000, "the genuine fine")
    finally:
        await service.stop()


# ------------------------------------------------------------------------------------------------ concurrency


async def test_a_slow_chat_holds_up_no_other_and_each_chat_stays_in_order(
    server: FakeBotAPIServer, polling: Service
) -> None:
    slow, quick = Updates(), Updates(OTHER)
    server.telegram.chat_delay[CHAT["id"]] = 1.5  # every call about the slow chat takes 1.5 s
    sent = [server.push(slow.message(person, "余额"))["message"]["message_id"] for person in (A, B, C)]
    await asyncio.sleep(0.3)
    server.push(quick.message(A, "余额"))
    await until(lambda: bool(balances_in(server.telegram, OTHER)), "the quick chat's reply", 10)
    assert len(balances_in(server.telegram, CHAT)) < 3  # answered while the slow chat still works through its own
    await until(lambda: len(balances_in(server.telegram, CHAT)) == 3, "the slow chat's replies", 30)
    answered = [p["reply_parameters"]["message_id"] for p in balances_in(server.telegram, CHAT)]
    assert answered == sent  # one chat's updates in the order they came


async def test_a_dropped_database_connection_is_retried_without_a_word_to_the_group(
    server: FakeBotAPIServer, polling: Service
) -> None:
    core = polling.application.bot_data[CORE_KEY]
    original, calls = core.handle_message, []

    def flaky(incoming: Any) -> Any:
        calls.append(incoming.source)
        if len(calls) == 1:
            raise sa.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection unexpectedly"))
        return original(incoming)

    core.handle_message = flaky
    server.push(Updates().message(A, "余额"))
    await until(lambda: any("账上" in t for t in server.telegram.texts()), "the reply after the retry", 20)
    await asyncio.sleep(0.5)
    texts = server.telegram.texts()
    assert len(calls) == 2 and calls[0] == calls[1]  # the same update, tried again
    assert len([t for t in texts if "账上" in t]) == 1 and not [t for t in texts if "出了点问题" in t]
    assert b'paiju_updates_total{outcome="retried",type="message"} 1.0' in polling.metrics.exposition()


async def test_a_booking_is_made_durable_by_its_updates_done_mark_before_the_reply_leaves(
    server: FakeBotAPIServer, polling: Service
) -> None:
    """A win booked through the inbox commits without a disk sync of its own; the update's done mark, committed
    after it and synced (the same write-ahead log), makes both durable before the reply is sent. An update whose
    mark a power cut took is still stored, and is handled again. (PostgreSQL flushes every commit; the order holds.)"""
    engine = polling.ledger.engine
    sqlite = engine.dialect.name == "sqlite"
    log: list[tuple[str, str]] = []

    def note(connection: sa.Connection, _cursor: Any, statement: str, *_args: Any) -> None:
        kinds = connection.info.setdefault("test_writes", set())
        if "INSERT INTO inbox_updates" in statement:
            kinds.add("stored")
        elif statement.startswith("UPDATE inbox_updates SET done_at"):
            kinds.add("done")
        elif "INSERT INTO transfers" in statement:
            kinds.add("booked")

    def committed(connection: sa.Connection) -> None:
        level = str(connection.exec_driver_sql("PRAGMA synchronous").scalar()) if sqlite else "flushed"
        log.extend((kind, level) for kind in sorted(connection.info.pop("test_writes", ())))

    def called(call: Any) -> None:
        if call.method == "sendMessage":
            log.append(("reply", "记下" if "记下" in call.params["text"] else ""))

    updates = Updates()
    for person in (A, B, C):
        server.push(updates.message(person, "来了"))
    server.push(updates.message(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
    await until(lambda: any("开桌" in t or "座位" in t for t in server.telegram.texts()), "the table", 20)
    sa.event.listen(engine, "before_cursor_execute", note)
    sa.event.listen(engine, "commit", committed)
    server.telegram.on_call = called
    try:
        server.push(updates.message(B, "胡 清一色 自摸"))
        await until(lambda: ("reply", "记下") in log, "the win's reply", 20)
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
        sa.event.remove(engine, "commit", committed)
        server.telegram.on_call = None
    full, normal = ("2", "1") if sqlite else ("flushed", "flushed")  # SQLite's numbers for FULL and NORMAL
    assert log == [("stored", full), ("booked", normal), ("done", full), ("reply", "记下")]


# ------------------------------------------------------------------------------------------------ operations


async def test_healthz_and_metrics_report_what_happened(server: FakeBotAPIServer, polling: Service) -> None:
    updates = Updates()
    for person in (A, B, C):
        server.push(updates.message(person, "来了"))
    server.push(updates.message(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
    server.push(updates.message(A, "胡 清一色 自摸"))
    server.push(updates.message(B, "胡 点 @xiaoli"))  # 点炮 from oneself: refused
    server.push(updates.message(C, "看看 abc.com 吧"))  # a link: warning and fine
    await until(lambda: len(server.telegram.sent()) >= 4 and bool(server.telegram.sent("deleteMessage")), "all", 20)
    assert polling.server is not None
    base = f"http://127.0.0.1:{polling.server.port}"
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{base}/healthz") as answer:
            health = await answer.json()
            assert answer.status == 200
        async with session.get(f"{base}/metrics") as answer:
            metrics = await answer.text()
            assert answer.headers["Content-Type"].startswith("text/plain")
    assert health["database"] == "ok" and health["mode"] == "long polling" and health["pending_updates"] == 0
    assert health["last_update_handled_at"] is not None and health["chats_held"] == 1
    assert 'paiju_updates_total{outcome="handled",type="message"} 7.0' in metrics
    assert 'paiju_bookings_total{kind="record"} 1.0' in metrics and 'paiju_bookings_total{kind="open_table"}' in metrics
    assert "paiju_refusals_total{reason=" in metrics
    assert 'paiju_moderation_actions_total{kind="warning",rule="link"} 1.0' in metrics
    assert 'paiju_update_latency_seconds_count{type="message"} 7.0' in metrics
    assert "paiju_inbox_pending 0.0" in metrics


async def test_healthz_answers_503_when_the_database_is_unreachable(polling: Service) -> None:
    assert polling.dispatcher is not None and polling.server is not None

    def down() -> Any:
        raise sa.exc.OperationalError("SELECT", {}, Exception("connection refused"))

    polling.dispatcher.inbox.backlog = down  # type: ignore[method-assign]
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{polling.server.port}/healthz") as answer,
    ):
        assert answer.status == 503
        assert (await answer.json())["database"] == "unreachable: OperationalError"


async def test_json_logs_name_the_chat_and_update_and_never_the_token(
    server: FakeBotAPIServer, sqlite_url: str, tmp_path: Path
) -> None:
    server.telegram.refuse["sendMessage"] = "Bad Request: not enough rights to send text messages to the chat"
    config = write_config(tmp_path / "config.toml", base_url=server.base_url, log_format="json")
    bot = BotProcess(config, sqlite_url, tmp_path / "bot.log").start()
    try:
        pushed = server.push(Updates().message(A, "余额"))
        await until(lambda: "refused" in bot.output(), "the refused reply to be logged", 60)
    finally:
        assert await bot.terminate() == 0
    entries = [json.loads(line) for line in bot.output().splitlines()]  # every line is one JSON object
    refused = next(e for e in entries if "refused" in e["message"])
    assert refused["level"] == "WARNING" and refused["chat_id"] == CHAT["id"]
    assert refused["update_id"] == pushed["update_id"] and refused["worker"].count(":") == 2
    assert SECRET_PART not in bot.output()


async def test_the_mini_app_is_served_at_its_public_path_and_table_messages_link_to_it(
    server: FakeBotAPIServer, db_url: str
) -> None:
    settings = replace(
        settings_for(server), webapp=WebappSettings(public_url="https://paiju.example.org/app/", short_name="table")
    )
    service = Service(settings, TOKEN, db_url)
    await service.start()
    try:
        assert service.server is not None
        base = f"http://127.0.0.1:{service.server.port}"
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/app/") as answer:
                assert answer.status == 200 and "telegram-web-app.js" in await answer.text()
            async with session.get(f"{base}/app/api/session") as answer:
                assert answer.status == 401  # no initData: refused, nothing booked
            async with session.get(f"{base}/healthz") as answer:
                assert answer.status == 200  # the bot's own routes are still there
        updates = Updates()
        for person in (A, B, C):
            server.push(updates.message(person, "来了"))
        server.push(updates.message(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie"))
        await until(lambda: any("开桌了" in p["text"] for p in server.telegram.sent()), "the table", 20)
        opened = next(p for p in server.telegram.sent() if "开桌了" in p["text"])
        links = [b["url"] for row in opened["reply_markup"]["inline_keyboard"] for b in row if "url" in b]
        assert [urlparse(link).path for link in links] == [f"/{BOT_USER['username']}/table"]
    finally:
        await service.stop()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as session, session.get(f"{base}/app/"):
            pass


async def test_a_mini_app_without_a_path_of_its_own_stops_the_start_with_one_sentence(
    server: FakeBotAPIServer, db_url: str
) -> None:
    settings = replace(settings_for(server), webapp=WebappSettings(public_url="https://paiju.example.org/"))
    service = Service(settings, TOKEN, db_url)
    try:
        with pytest.raises(StartError, match="needs a path of its own"):
            await service.start()
    finally:
        await service.stop()
