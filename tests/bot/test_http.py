"""The Bot API over aiohttp (bot/telegram/http.py), driven by python-telegram-bot's own `Bot` against the fake
Bot API server over real HTTP: what PTB gets back (messages, errors, timeouts) must be what httpx gave it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, InvalidToken, NetworkError, TimedOut

from bot.config import Settings, TelegramSettings
from bot.core import Bot as CoreBot
from bot.telegram.app import build_application
from bot.telegram.http import AiohttpRequest
from ledger.service import Ledger
from tests.bot.fake_bot_api import FakeBotAPIServer, FakeTelegram, Upload

TOKEN = "123456:HTTPTEST"
CHAT_ID = -1001234567890


@pytest.fixture
async def server() -> AsyncIterator[FakeBotAPIServer]:
    fake = FakeBotAPIServer(FakeTelegram())
    await fake.start()
    yield fake
    await fake.stop()


async def _bot(server: FakeBotAPIServer, request: AiohttpRequest | None = None) -> Bot:
    bot = Bot(TOKEN, base_url=server.base_url, request=request or AiohttpRequest())
    await bot.initialize()
    return bot


async def test_a_message_with_a_keyboard_arrives_as_sent_and_comes_back_parsed(server: FakeBotAPIServer) -> None:
    bot = await _bot(server)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("已付 ✅", callback_data="pay:1")]])
    try:
        message = await bot.send_message(CHAT_ID, "胡 卡五星 点 @xiaoli\n阿杰 +8", reply_markup=keyboard)
    finally:
        await bot.shutdown()
    (sent,) = server.telegram.sent()
    assert sent["chat_id"] == CHAT_ID and sent["text"] == "胡 卡五星 点 @xiaoli\n阿杰 +8"
    assert sent["reply_markup"]["inline_keyboard"][0][0] == {"text": "已付 ✅", "callback_data": "pay:1"}
    assert message.chat_id == CHAT_ID and message.text == "胡 卡五星 点 @xiaoli\n阿杰 +8"
    assert message.message_id == server.telegram.calls[-1].result["message_id"]


async def test_an_upload_arrives_whole_with_its_name_and_caption(server: FakeBotAPIServer) -> None:
    chart = bytes(range(256)) * 40  # binary, every byte value
    bot = await _bot(server)
    try:
        await bot.send_photo(CHAT_ID, chart, caption="本月战报", filename="月报.png")
    finally:
        await bot.shutdown()
    (sent,) = server.telegram.sent("sendPhoto")
    assert sent["photo"] == Upload("月报.png", chart)
    assert sent["caption"] == "本月战报"


async def test_telegram_errors_reach_ptb_as_its_own_exceptions(server: FakeBotAPIServer) -> None:
    bot = await _bot(server)
    try:
        server.telegram.refuse["sendMessage"] = "Bad Request: message text is empty"
        with pytest.raises(BadRequest, match="Message text is empty"):
            await bot.send_message(CHAT_ID, "x")
        server.telegram.unauthorized = True
        with pytest.raises(InvalidToken):
            await bot.get_me()
    finally:
        await bot.shutdown()


async def test_a_slow_answer_times_out_and_the_next_request_still_works(server: FakeBotAPIServer) -> None:
    bot = await _bot(server, AiohttpRequest(read_timeout=0.2))
    try:
        server.telegram.delay["sendMessage"] = 1.0
        with pytest.raises(TimedOut):
            await bot.send_message(CHAT_ID, "慢")
        with pytest.raises(TimedOut):  # a longer timeout for one call is honoured too
            await bot.send_message(CHAT_ID, "慢", read_timeout=0.3)
        server.telegram.delay.clear()
        assert (await bot.send_message(CHAT_ID, "快")).text == "快"
    finally:
        await bot.shutdown()


async def test_a_full_pool_times_out_without_sending(server: FakeBotAPIServer) -> None:
    """One connection, held by a slow call: the second call waits `pool_timeout` and is never sent (getMe is
    `Bot.initialize`'s)."""
    bot = await _bot(server, AiohttpRequest(connection_pool_size=1, pool_timeout=0.1, connect_timeout=0.1))
    try:
        server.telegram.delay["sendMessage"] = 0.8
        slow = asyncio.create_task(bot.send_message(CHAT_ID, "占着"))
        await asyncio.sleep(0.2)
        with pytest.raises(TimedOut):
            await bot.get_chat_administrators(CHAT_ID)
        assert (await slow).text == "占着"
    finally:
        await bot.shutdown()
    assert [call.method for call in server.telegram.calls] == ["getMe", "sendMessage"]


async def test_an_unreachable_bot_api_is_a_network_error() -> None:
    listener = await asyncio.start_server(lambda *_: None, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    listener.close()
    await listener.wait_closed()  # nothing listens on the port now
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:
            await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe")
        assert not isinstance(raised.value, TimedOut)
    finally:
        await request.shutdown()


async def test_requests_need_initialize_and_survive_a_restart(server: FakeBotAPIServer) -> None:
    request = AiohttpRequest()
    url = f"{server.base_url}{TOKEN}/getMe"
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(url, "POST")
    for _ in range(2):  # initialize → shutdown → initialize, as PTB does on a restart
        async with request:
            assert (await request.post(url))["is_bot"] is True
    with pytest.raises(NetworkError, match="not initialized"):  # PTB's wrapping of the same error
        await request.post(url)
    with pytest.raises(ValueError):
        AiohttpRequest(connection_pool_size=0)


async def test_the_proxy_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """HTTPS_PROXY/HTTP_PROXY are honoured, as httpx honours them (a bot hosted behind a proxy keeps working)."""
    seen: list[bytes] = []

    async def proxy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await reader.readline())
        while (await reader.readline()).strip():
            pass
        body = b'{"ok":true,"result":true}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
        writer.write(body)
        await writer.drain()
        writer.close()

    listener = await asyncio.start_server(proxy, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{port}")
    request = AiohttpRequest()
    try:
        async with request:
            assert await request.post(f"http://api.telegram.invalid/bot{TOKEN}/close") is True
    finally:
        listener.close()
        await listener.wait_closed()
    assert seen == [f"POST http://api.telegram.invalid/bot{TOKEN}/close HTTP/1.1\r\n".encode()]


async def test_paiju_run_talks_to_the_bot_api_through_it(server: FakeBotAPIServer, ledger: Ledger) -> None:
    """The application `paiju run` builds sends over aiohttp: a reply reaches the fake server over HTTP."""
    settings = Settings(telegram=TelegramSettings(base_url=server.base_url))
    app = build_application(settings, CoreBot(ledger), TOKEN, rate_limit=False)
    assert isinstance(app.bot.request, AiohttpRequest)
    await app.initialize()
    try:
        await app.bot.send_message(CHAT_ID, "开桌了")
    finally:
        await app.shutdown()
    assert [sent["text"] for sent in server.telegram.sent()] == ["开桌了"]
