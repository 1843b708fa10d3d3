"""A fake Telegram Bot API for tests: the same answers in-process (`RecordingRequest`, a PTB `BaseRequest`) and
over HTTP (`FakeBotAPIServer`, aiohttp on 127.0.0.1 for a real `Application` to poll via `base_url`).

It records every call with its parameters (an uploaded file as an `Upload`), hands out message ids, serves
queued updates to getUpdates (long polling, per-offset like Telegram), and can be told to refuse a method (to test
error handling) or to answer slowly (`delay` per method, `chat_delay` per chat: a backlog, as Telegram's rate limits
make one). It remembers which updates getUpdates handed out (`fetched`), so a test can check each was handled.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from telegram.request import BaseRequest, RequestData

BOT_USER = {"id": 4242, "is_bot": True, "first_name": "牌局", "username": "paiju_bot"}
CHAT = {"id": -1001234567890, "type": "supergroup", "title": "周五卡五星"}
START = int(datetime(2026, 1, 10, 12, 0, tzinfo=UTC).timestamp())


def user(user_id: int, first_name: str, username: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name, "language_code": "zh-hans"}
    if username:
        out["username"] = username
    return out


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    result: Any = None
    at: float = field(default_factory=time.monotonic)  # when it arrived (benchmarks time replies with it)


@dataclass
class FakeTelegram:
    """The state both transports share."""

    admins: list[dict[str, Any]] = field(default_factory=list)  # users who administer the chat; the first owns it
    calls: list[Call] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    refuse: dict[str, str] = field(default_factory=dict)  # method -> error description (answered as 400)
    delay: dict[str, float] = field(default_factory=dict)  # method -> seconds before the answer (HTTP only)
    unauthorized: bool = False  # answer every call 401, as Telegram does for a revoked token
    chat_delay: dict[int, float] = field(default_factory=dict)  # chat id -> extra seconds for calls about it
    fetched: list[int] = field(default_factory=list)  # update ids getUpdates handed out, in order, repeats included
    on_call: Callable[[Call], None] | None = None  # told of every call as it arrives
    migrated: dict[int, int] = field(default_factory=dict)  # chat id -> the supergroup it became (calls refused)
    _ids: itertools.count = field(default_factory=lambda: itertools.count(900_001))  # type: ignore[type-arg]
    #: (chat id, message id) -> the text and buttons a message shows now: an edit to exactly that is refused
    _shown: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue an update (its update_id assigned unless given: a redelivery keeps the original id)."""
        with self._lock:
            if "update_id" not in update:
                update = {"update_id": len(self.updates) + 1, **update}
            self.updates.append(update)
        return update

    def sent(self, method: str = "sendMessage") -> list[dict[str, Any]]:
        return [c.params for c in self.calls if c.method == method]

    def texts(self) -> list[str]:
        """Every text the bot sent or edited, in order."""
        return [str(c.params["text"]) for c in self.calls if c.method in {"sendMessage", "editMessageText"}]

    def answer(self, method: str, params: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
        """(HTTP status, Bot API JSON) for one call."""
        call = Call(method, dict(params))
        if method != "getUpdates":
            with self._lock:
                self.calls.append(call)
            if self.on_call is not None:
                self.on_call(call)
        if self.unauthorized:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        if method in self.refuse:
            return 400, {"ok": False, "error_code": 400, "description": self.refuse[method]}
        moved_to = self.migrated.get(_int(params.get("chat_id")))
        if moved_to is not None:  # as Telegram answers a call about a group that became a supergroup
            description = "Bad Request: group chat was upgraded to a supergroup chat"
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": description,
                "parameters": {"migrate_to_chat_id": moved_to},
            }
        result: Any = True
        if method == "getMe":
            result = BOT_USER
        elif method in {"sendMessage", "sendPhoto", "sendDocument"}:
            result = {
                "message_id": next(self._ids),
                "date": START,
                "chat": {**CHAT, "id": int(params["chat_id"])},
                "from": BOT_USER,
                "text": params.get("text", ""),
            }
        elif method == "editMessageText":
            shown = (str(params["text"]), str(params.get("reply_markup") or ""))
            if self._shown.get((_int(params["chat_id"]), int(params["message_id"]))) == shown:
                return 400, {"ok": False, "error_code": 400, "description": NOT_MODIFIED}
            result = {
                "message_id": int(params["message_id"]),
                "date": START,
                "edit_date": START + 1,
                "chat": {**CHAT, "id": int(params["chat_id"])},
                "from": BOT_USER,
                "text": params["text"],
            }
        elif method == "getChatAdministrators":
            result = [
                {"status": "creator" if i == 0 else "administrator", "user": u, "is_anonymous": False}
                | ({} if i == 0 else _ADMIN_RIGHTS)
                for i, u in enumerate(self.admins)
            ]
        elif method == "getUpdates":
            offset = int(params.get("offset") or 0)
            result = [u for u in list(self.updates) if u["update_id"] >= offset][: int(params.get("limit") or 100)]
            with self._lock:
                self.fetched += [u["update_id"] for u in result]
        if method in {"sendMessage", "editMessageText"}:
            key = (_int(params["chat_id"]), int(result["message_id"]))
            self._shown[key] = (str(params.get("text", "")), str(params.get("reply_markup") or ""))
        call.result = result
        return 200, {"ok": True, "result": result}


#: Telegram's answer to an edit that changes nothing
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)

_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "can_manage_chat": True,
    "can_change_info": True,
    "can_delete_messages": True,
    "can_invite_users": True,
    "can_restrict_members": True,
    "can_pin_messages": True,
    "can_promote_members": False,
    "can_manage_video_chats": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
}


@dataclass(frozen=True)
class Upload:
    """A file the bot uploaded (sendPhoto's photo, sendDocument's document)."""

    filename: str | None
    content: bytes


def _decode(params: Mapping[str, Any]) -> dict[str, Any]:
    """Form values arrive as strings; JSON-encoded ones (reply_markup, allowed_updates …) are decoded, uploaded
    files become `Upload`s."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, web.FileField):
            out[key] = Upload(value.filename, value.file.read())
            continue
        if value in ("true", "false"):
            out[key] = value == "true"
            continue
        if isinstance(value, str) and value[:1] in "[{":
            try:
                out[key] = json.loads(value)
                continue
            except json.JSONDecodeError:
                pass
        out[key] = value
    return out


class RecordingRequest(BaseRequest):
    """A PTB request object that never touches the network: it answers from a `FakeTelegram`."""

    def __init__(self, telegram: FakeTelegram) -> None:
        self.telegram = telegram

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        params: dict[str, Any] = dict(request_data.parameters) if request_data is not None else {}
        if request_data is not None and request_data.contains_files:
            for name, (filename, content, *_) in request_data.multipart_data.items():
                params[name] = Upload(filename, content if isinstance(content, bytes) else content.read())
        status, body = self.telegram.answer(url.rsplit("/", 1)[-1], params)
        return status, json.dumps(body).encode()


class FakeBotAPIServer:
    """The fake over HTTP: `base_url` goes to `Application.builder().base_url(...)` (NO_PROXY must cover it)."""

    def __init__(self, telegram: FakeTelegram | None = None) -> None:
        self.telegram = telegram or FakeTelegram()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._new_update = asyncio.Event()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        pushed = self.telegram.push(update)
        self._new_update.set()
        return pushed

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.content_type == "application/json":
            params = await request.json()
        else:
            params = _decode(dict(await request.post()))
        pause = self.telegram.delay.get(method, 0.0) + self.telegram.chat_delay.get(_int(params.get("chat_id")), 0.0)
        if pause:
            await asyncio.sleep(pause)
        if method == "getUpdates":
            timeout = min(float(params.get("timeout") or 0), 2.0)
            offset = int(params.get("offset") or 0)
            deadline = asyncio.get_running_loop().time() + timeout
            while not [u for u in self.telegram.updates if u["update_id"] >= offset]:
                remaining = deadline - asyncio.get_running_loop().time()
                if remaining <= 0:
                    break
                self._new_update.clear()
                try:
                    await asyncio.wait_for(self._new_update.wait(), remaining)
                except TimeoutError:
                    break
        status, body = self.telegram.answer(method, params)
        return web.json_response(body, status=status)


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


# ----------------------------------------------------------------------------------------------- update builders


class Updates:
    """Builds Bot API update dicts for one chat, with message ids and dates that move forward."""

    def __init__(self, chat: Mapping[str, Any] = CHAT) -> None:
        self.chat = dict(chat)
        self._message_ids = itertools.count(101)
        self.clock = START

    def _next(self, sender: Mapping[str, Any], **content: Any) -> dict[str, Any]:
        """The next message of the chat from `sender`, 30 s after the last, with `content` (text, photo …)."""
        self.clock += 30
        return {
            "message_id": next(self._message_ids),
            "date": self.clock,
            "chat": self.chat,
            "from": dict(sender),
            **content,
        }

    def message(self, sender: Mapping[str, Any], text: str, *, reply_to: dict[str, Any] | None = None) -> dict:  # type: ignore[type-arg]
        message = self._next(sender, text=text)
        mentions = mention_entities(text)
        if mentions:
            message["entities"] = mentions
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return {"message": message}

    def photo(self, sender: Mapping[str, Any], file_id: str, caption: str = "") -> dict:  # type: ignore[type-arg]
        """A photo (two sizes, as Telegram sends them; the largest last) with an optional caption."""
        sizes = [
            {"file_id": f"{file_id}-small", "file_unique_id": "s1", "width": 90, "height": 90},
            {"file_id": file_id, "file_unique_id": "s2", "width": 800, "height": 800},
        ]
        message = self._next(sender, photo=sizes)
        if caption:
            message["caption"] = caption
        return {"message": message}

    def sticker(self, sender: Mapping[str, Any], file_unique_id: str) -> dict:  # type: ignore[type-arg]
        """A sticker as Telegram sends it: no text; its file_id differs per delivery, its file_unique_id does not."""
        message = self._next(sender)
        message["sticker"] = {
            "file_id": f"CAACAgIAAx-{file_unique_id}-{self.clock}",
            "file_unique_id": file_unique_id,
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": "😂",
        }
        return {"message": message}

    def edit(self, original: Mapping[str, Any], text: str) -> dict:  # type: ignore[type-arg]
        self.clock += 30
        message = dict(original["message"])
        message.update(text=text, edit_date=self.clock)
        message.pop("entities", None)
        mentions = mention_entities(text)
        if mentions:
            message["entities"] = mentions
        return {"edited_message": message}

    def press(self, sender: Mapping[str, Any], bot_message: Mapping[str, Any], data: str) -> dict:  # type: ignore[type-arg]
        self.clock += 5
        return {
            "callback_query": {
                "id": f"cq{self.clock}",
                "from": dict(sender),
                "chat_instance": "ci1",
                "data": data,
                "message": {
                    "message_id": int(bot_message["message_id"]),
                    "date": START,
                    "chat": self.chat,
                    "from": BOT_USER,
                    "text": bot_message.get("text", ""),
                },
            }
        }

    def migration(self, sender: Mapping[str, Any], supergroup: Mapping[str, Any]) -> tuple[dict, dict]:  # type: ignore[type-arg]
        """The two service messages of a group upgraded to `supergroup`: the old chat's (`migrate_to_chat_id`)
        and the new chat's first (`migrate_from_chat_id`)."""
        self.clock += 5
        old = {
            "message": {
                "message_id": next(self._message_ids),
                "date": self.clock,
                "chat": self.chat,
                "from": dict(sender),
                "migrate_to_chat_id": supergroup["id"],
            }
        }
        new = {
            "message": {
                "message_id": 1,
                "date": self.clock,
                "chat": dict(supergroup),
                "from": dict(sender),
                "migrate_from_chat_id": self.chat["id"],
            }
        }
        return old, new

    def join(self, member: Mapping[str, Any]) -> dict:  # type: ignore[type-arg]
        self.clock += 30
        return {
            "message": {
                "message_id": next(self._message_ids),
                "date": self.clock,
                "chat": self.chat,
                "from": dict(member),
                "new_chat_members": [dict(member)],
            }
        }


def mention_entities(text: str) -> list[dict[str, Any]]:
    """The `mention` entities Telegram marks in a text: each space-separated `@username` (Latin letters, digits and
    `_`; `@老王` is no username, so Telegram marks nothing there)."""
    return [
        {"type": "mention", "offset": _utf16_offset(text, i), "length": _utf16_len(word)}
        for i, word in _words_with_at(text)
    ]


def _words_with_at(text: str) -> list[tuple[int, str]]:
    out, index = [], 0
    for word in text.split(" "):
        if _USERNAME.fullmatch(word):
            out.append((index, word))
        index += len(word) + 1
    return out


_USERNAME = re.compile(r"@[A-Za-z0-9_]+")


def _utf16_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-16-le")) // 2


def _utf16_len(word: str) -> int:
    return len(word.encode("utf-16-le")) // 2


async def until(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait (polling the event loop) until `condition()` holds; fail naming `what` after `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)
