"""The Mini App as tests meet it: served on 127.0.0.1 from a thread of its own, wired to a python-telegram-bot
application whose requests the fake Bot API answers in-process, and a client that signs initData as Telegram
does. Tests talk to it over real HTTP (urllib, or a browser), and the players type in the chat through the same
command layer the Telegram adapter uses."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from aiohttp import web

from bot.config import Settings, WebappSettings
from bot.core import Bot, Incoming, Outcome, Sender
from bot.telegram.app import build_application
from bot.webapp.auth import sign_init_data, sign_start, start_key
from bot.webapp.server import INIT_HEADER, START_HEADER
from bot.webapp.telegram import for_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT, FakeTelegram, RecordingRequest

TOKEN = "424242:WEBAPP-TEST-TOKEN"
GROUP = int(CHAT["id"])
BOSS = {"id": 500, "is_bot": False, "first_name": "群主", "username": "boss", "language_code": "zh-hans"}
A = {"id": 501, "is_bot": False, "first_name": "阿杰", "username": "ajie", "language_code": "zh-hans"}
B = {"id": 502, "is_bot": False, "first_name": "小李", "username": "xiaoli", "language_code": "zh-hans"}
C = {"id": 503, "is_bot": False, "first_name": "老王", "username": "laowang", "language_code": "zh-hans"}
D = {
    "id": 504,
    "is_bot": False,
    "first_name": "路人",
    "username": "luren",
    "language_code": "en",
}  # a member who is not seated
STRANGER = {"id": 999, "is_bot": False, "first_name": "Mallory", "username": "mallory", "language_code": "en"}


@dataclass
class FakeGroup(FakeTelegram):
    """The fake Bot API with getChatMember: `statuses` maps user id -> status ("member", "left" …)."""

    statuses: dict[int, str] = field(default_factory=dict)

    def answer(self, method: str, params: Any) -> tuple[int, dict[str, Any]]:
        if method != "getChatMember":
            return super().answer(method, params)
        user_id = int(params["user_id"])
        result = {
            "status": self.statuses.get(user_id, "left"),
            "user": {"id": user_id, "is_bot": False, "first_name": "?"},
        }
        return 200, {"ok": True, "result": result}


def init_data(user: dict[str, Any], now: datetime, *, start: str | None = None, token: str = TOKEN) -> str:
    """initData for `user` as Telegram signs it (a direct link passes the start parameter inside)."""
    fields = {"auth_date": str(int(now.timestamp())), "user": json.dumps(user, ensure_ascii=False)}
    fields["query_id"] = "AAHdF6IQAAAAAN0XohDhrOrc"
    if start is not None:
        fields["start_param"] = start
    return sign_init_data(fields, token)


def start_param(chat_id: int = GROUP, table_id: int = 0, token: str = TOKEN) -> str:
    return sign_start(chat_id, table_id, start_key(token))


class CallClock:
    """The ledger's test clock (a callable) as the command layer's `Clock`."""

    def __init__(self, clock: Any) -> None:
        self._clock = clock

    def now(self) -> datetime:
        now: datetime = self._clock()
        return now


class Chat:
    """Players typing in the group, through the command layer exactly as the Telegram adapter hands it lines."""

    def __init__(self, core: Bot, admins: frozenset[int], chat_id: int = GROUP) -> None:
        self.core, self.admins, self.chat_id = core, admins, chat_id
        self._ids = itertools.count(1)

    def say(self, user: dict[str, Any], text: str) -> Outcome:
        message_id = next(self._ids)
        sender = Sender(user["id"], user["first_name"], user.get("username"), language=user.get("language_code"))
        incoming = Incoming(
            chat_id=self.chat_id,
            message_id=message_id,
            sender=sender,
            text=text,
            date=self.core.clock.now(),
            source=f"tg:{self.chat_id}:{message_id}",
            admin_ids=self.admins,
            owner_id=min(self.admins) if self.admins else None,
        )
        return self.core.handle_message(incoming)

    def texts(self, user: dict[str, Any], text: str) -> str:
        return "\n".join(getattr(e, "text", "") for e in self.say(user, text).effects)


class Served:
    """The Mini App on 127.0.0.1:<port>, run by its own event loop in a thread (as `paiju run` runs it)."""

    def __init__(self, ledger: Ledger, telegram: FakeGroup, clock: Any, *, poll_interval: float = 0.1) -> None:
        self.ledger, self.telegram = ledger, telegram
        settings = Settings(
            webapp=WebappSettings(public_url="https://paiju.test/app/", short_name="table", poll_interval=poll_interval)
        )
        self.core = Bot(ledger, clock=CallClock(clock))
        self.application = build_application(
            settings, self.core, TOKEN, request=RecordingRequest(telegram), rate_limit=False
        )
        self.app = for_application(self.application, self.core, ledger, settings, TOKEN)
        from bot.webapp.server import WEBAPP_KEY

        self.app[WEBAPP_KEY].clock = clock
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._runner: web.AppRunner | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        await self.application.initialize()
        self._runner = web.AppRunner(self.app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    def __enter__(self) -> Served:
        self._thread.start()
        self._ready.wait(30)
        return self

    def __exit__(self, *_exc: object) -> None:
        async def stop() -> None:
            assert self._runner is not None
            await self._runner.cleanup()
            await self.application.shutdown()

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def call(
        self,
        path: str,
        *,
        init: str | None = None,
        start: str | None = None,
        body: dict[str, Any] | None = None,
        timeout: float = 30,
    ) -> tuple[int, Any]:
        """(status, decoded JSON) of one request; a GET without a body, a POST with one."""
        headers = {"Content-Type": "application/json"}
        if init is not None:
            headers[INIT_HEADER] = init
        if start is not None:
            headers[START_HEADER] = start
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")
