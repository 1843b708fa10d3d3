"""The Mini App's web server: the page at `/`, its JSON API under `api/`, on aiohttp.

`make_webapp(...)` builds the application; it runs alone under `paiju web` (this module's `main`) or beside the
bot under `paiju run` (`bot.webapp.telegram`). Every `api/` request carries Telegram's initData in the
`X-Telegram-Init-Data` header and the table's signed start parameter (in initData, or `X-Paiju-Start` when the
page was opened from a private chat's web_app button); without both, valid, it is answered 401 and changes
nothing. A member of the group may look; only a seated player or an admin may record.

Recording runs the line a player would type through the command layer (`bot.core.Bot.handle_message`) as an
`Incoming` from the authenticated user, with the source `web:<chat>:<user>:<request id>`: a retried request
books once, and the group gets the command's reply (headed by who recorded it from the Mini App).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from bot.config import Settings
from bot.core import Bot, DeleteMessage, Effect, Incoming, Outcome, Refusal, Sender, SendText
from bot.texts import pattern_name, text, tile_name
from bot.webapp import lines, views
from bot.webapp.auth import AuthError, InitData, read_start, start_key, validate_init_data
from bot.webapp.preview import preview
from bot.webapp.texts import page_lang, page_texts

if TYPE_CHECKING:
    from ledger.service import Ledger, MemberInfo, TableInfo

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
INIT_HEADER = "X-Telegram-Init-Data"
START_HEADER = "X-Paiju-Start"
#: the largest request body (a tapped hand is a few hundred bytes)
MAX_BODY = 16 * 1024
#: how long a board request waits for a change before answering "no change"
LONG_POLL = 25.0
#: reads of a changed board that may try to agree with the one before (see BoardWatch.look)
CONFIRMING_READS = 5
#: request ids the page makes (crypto.randomUUID without dashes, or any 8-64 such characters)
REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: answers of recent bookings kept per process, so a double tap or a retried request is answered, not re-posted
RECENT = 512
ACTIONS = ("hu", "gang", "liangdao", "draw", "undo", "settle")
#: actions that need an open 卡五星 table (结算 needs only an open night)
TABLE_ACTIONS = ("hu", "gang", "liangdao", "draw", "undo")

#: every tile the picker can show, in tenhou notation (a table shows its two suits and the dragons)
ALL_TILES = (*(f"{rank}{suit}" for suit in "psm" for rank in range(1, 10)), "5z", "6z", "7z")

SendEffects = Callable[[int, Outcome], Awaitable[None]]


class Membership(Protocol):
    """What Telegram says of a chat's people; `paiju web` alone has no Telegram and knows only the ledger."""

    async def admins(self, chat_id: int) -> tuple[frozenset[int], int | None]: ...

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        """True/False as Telegram says, None when it cannot say (the ledger decides then)."""
        ...


class LedgerOnly:
    """Membership without Telegram: no admins, and a member is whoever the ledger has seen in the group."""

    async def admins(self, chat_id: int) -> tuple[frozenset[int], int | None]:
        return frozenset(), None

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        return None


class ApiError(web.HTTPException):
    """An API refusal: JSON `{"error": code, "message": text}` with the given status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status_code = status
        super().__init__(
            text=json.dumps({"error": code, "message": message}, ensure_ascii=False),
            content_type="application/json",
        )


@dataclass(frozen=True)
class Caller:
    """An authenticated request: who, for which group and table, in which language, and their standing."""

    init: InitData
    chat_id: int
    table_id: int
    lang: str
    admin_ids: frozenset[int]
    owner_id: int | None
    member: MemberInfo | None  # the caller's ledger account (None until the bot has seen them)

    @property
    def user_id(self) -> int:
        return self.init.user.user_id

    @property
    def is_admin(self) -> bool:
        return self.user_id in self.admin_ids or self.user_id == self.owner_id

    def seated(self, table: TableInfo | None) -> bool:
        return table is not None and self.member is not None and any(s.member_id == self.member.id for s in table.seats)

    def may_record(self, table: TableInfo | None) -> bool:
        return self.is_admin or self.seated(table)


@dataclass
class _Watched:
    board: dict[str, Any] | None = None
    version: str = ""
    looked_at: float = 0.0  # loop time of the last look
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    watchers: int = 0
    poller: asyncio.Task[None] | None = None


class BoardWatch:
    """The live board: one poller per watched (chat, language) looks at the ledger every `interval` seconds while
    somebody waits, and wakes the waiters when what the board shows changed. Bookings from the chat (this
    process or another) and from the Mini App are all seen the same way, through the database."""

    def __init__(self, compute: Callable[[int, str], dict[str, Any]], interval: float) -> None:
        self._compute = compute
        self._interval = interval
        self._watched: dict[tuple[int, str], _Watched] = {}

    async def look(self, chat_id: int, lang: str) -> _Watched:
        """Read the board now; wake the waiters if it changed.

        The board is read through several ledger calls, each its own transaction (on PostgreSQL even one call's
        statements may see different commits), so a booking committed in between could show half of itself:
        its event without its money. A changed board is therefore read again and published only when two reads
        in a row agree; while bookings keep landing faster than that, the board waits for the next look (a
        first look publishes its last read, and the next look mends it)."""
        entry = self._watched.setdefault((chat_id, lang), _Watched())
        board = await asyncio.to_thread(self._compute, chat_id, lang)
        version = views.version_of(board)
        agreed = version == entry.version
        for _ in range(CONFIRMING_READS):
            if agreed:
                break
            again = await asyncio.to_thread(self._compute, chat_id, lang)
            agreed = again == board
            board, version = again, views.version_of(again)
        entry.looked_at = asyncio.get_running_loop().time()
        if version != entry.version and (agreed or entry.board is None):
            entry.board, entry.version = {**board, "version": version}, version
            entry.changed.set()
            entry.changed = asyncio.Event()
        return entry

    async def wait(self, chat_id: int, lang: str, since: str, timeout: float) -> dict[str, Any]:
        """The board, at once when its version differs from `since`, else when it changes (or after `timeout`)."""
        entry = self._watched.get((chat_id, lang))
        now = asyncio.get_running_loop().time()
        if entry is None or entry.board is None or now - entry.looked_at > self._interval:
            entry = await self.look(chat_id, lang)
        if entry.version == since:
            changed = entry.changed
            entry.watchers += 1
            if entry.poller is None:
                entry.poller = asyncio.create_task(self._poll(chat_id, lang, entry))
            try:
                await asyncio.wait_for(changed.wait(), timeout)
            except TimeoutError:
                pass
            finally:
                entry.watchers -= 1
        assert entry.board is not None
        return entry.board

    async def _poll(self, chat_id: int, lang: str, entry: _Watched) -> None:
        try:
            while entry.watchers > 0:
                await asyncio.sleep(self._interval)
                try:
                    await self.look(chat_id, lang)
                except Exception:  # a database hiccup: the next look tries again
                    log.exception("board of chat %s could not be read", chat_id)
        finally:
            entry.poller = None

    async def poke(self, chat_id: int) -> None:
        """Look again now at every watched language of a chat (after the Mini App booked something)."""
        for chat, lang in list(self._watched):
            if chat == chat_id:
                await self.look(chat, lang)

    def release(self) -> None:
        """Answer every waiting board request now, with the board as it is: a server shutting down waits for its
        requests to finish, and a long poll would hold it up to `LONG_POLL` seconds."""
        for entry in self._watched.values():
            entry.changed.set()

    async def close(self) -> None:
        for entry in self._watched.values():
            if entry.poller is not None:
                entry.poller.cancel()


def _code(refusal: Refusal) -> str:
    """The API's error code of a refusal: its text key without the Mini App's `web_` prefix."""
    return refusal.key.removeprefix("web_")


def synthetic_message_id(source: str) -> int:
    """A message id for a Mini App booking: negative, so it is never a real Telegram message's."""
    digest = hashlib.sha256(source.encode()).digest()
    return -(int.from_bytes(digest[:6], "big") or 1)


def for_group(outcome: Outcome, message_id: int, header: str) -> Outcome:
    """The command's effects as the group gets them: the reply headed by who recorded it from the Mini App, not
    a reply to a message (there is none); nothing aimed at the message that does not exist."""
    effects: list[Effect] = []
    headed = False
    for effect in outcome.effects:
        if isinstance(effect, DeleteMessage) and effect.message_id == message_id:
            continue
        if isinstance(effect, SendText) and effect.reply_to == message_id:
            body = effect.text if headed else f"{header}\n{effect.text}"
            effect = SendText(body, effect.buttons, None, effect.edit_message_id, effect.asks)
            headed = True
        effects.append(effect)
    return Outcome(effects)


class WebApp:
    """The handlers and what they share (the ledger, the command layer, the keys, the live board)."""

    def __init__(
        self,
        ledger: Ledger,
        core: Bot,
        settings: Settings,
        *,
        bot_token: str,
        send_effects: SendEffects,
        membership: Membership | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.ledger, self.core, self.settings = ledger, core, settings.webapp
        self.token, self.start_key = bot_token, start_key(bot_token)
        self.send_effects = send_effects
        self.membership: Membership = membership or LedgerOnly()
        self.clock = clock or (lambda: datetime.now(UTC))
        self.watch = BoardWatch(lambda chat, lang: views.board(self.ledger, chat, lang), self.settings.poll_interval)
        self._recent: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()
        self._busy: dict[str, asyncio.Lock] = {}

    # -- who is asking ---------------------------------------------------------------------------------------
    async def caller(self, request: web.Request) -> Caller:
        shown = page_lang(request.headers.get("Accept-Language"))
        try:
            init = validate_init_data(
                request.headers.get(INIT_HEADER, ""),
                self.token,
                max_age=timedelta(seconds=self.settings.auth_max_age),
                now=self.clock(),
            )
            lang = page_lang(init.user.language)
            chat_id, table_id = read_start(init.start_param or request.headers.get(START_HEADER) or "", self.start_key)
        except AuthError as err:
            raise ApiError(401, err.reason, text(shown, f"web_auth_{err.reason}")) from err
        user_id = init.user.user_id
        owner: int | None
        if chat_id > 0:  # a private chat: its only member is its user, who is their own admin
            if user_id != chat_id:
                raise ApiError(403, "not_member", text(lang, "web_not_member"))
            admins, owner = frozenset({user_id}), user_id
        else:
            admins, owner = await self.membership.admins(chat_id)
        member = await asyncio.to_thread(self._account, chat_id, user_id)
        said = True if chat_id > 0 or user_id in admins else await self.membership.is_member(chat_id, user_id)
        if said is False or (said is None and member is None):
            raise ApiError(403, "not_member", text(lang, "web_not_member"))
        return Caller(init, chat_id, table_id, lang, admins, owner, member)

    def _account(self, chat_id: int, user_id: int) -> MemberInfo | None:
        from ledger.service import LedgerError

        try:
            members = self.ledger.members(chat_id)
        except LedgerError:  # no ledger for this chat yet
            return None
        return next((m for m in members if m.user_id == user_id and m.kind == "member"), None)

    async def body(self, request: web.Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except web.HTTPRequestEntityTooLarge as err:
            raise ApiError(413, "too_big", f"> {MAX_BODY} bytes") from err
        except (ValueError, UnicodeDecodeError) as err:
            raise ApiError(400, "bad_request", "JSON") from err
        if not isinstance(data, dict):
            raise ApiError(400, "bad_request", "JSON")
        return data

    def me(self, caller: Caller, board: Mapping[str, Any], name: str) -> dict[str, Any]:
        """Who the page acts as: `name` as every reply names them (`_shown_name`), their seat, what they may do."""
        table = board.get("table") or {}
        mine = caller.member.id if caller.member is not None else None
        seat = next((s["name"] for s in table.get("seats", []) if s["member_id"] == mine), None)
        return {
            "user_id": caller.user_id,
            "name": name,
            "seat": seat,
            "admin": caller.is_admin,
            "may_record": caller.is_admin or seat is not None,
            "old_link": bool(caller.table_id) and bool(table) and caller.table_id != table.get("id"),
        }

    # -- pages -----------------------------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    async def session(self, request: web.Request) -> web.Response:
        caller = await self.caller(request)
        situations: dict[str, list[dict[str, str]]] = {method: [] for method in ("self_draw", "discard", "rob_kong")}
        for key, method in lines.SITUATION_METHOD.items():
            situations[method].append({"key": key, "name": pattern_name(caller.lang, key)})
        tile_names = {code: tile_name(caller.lang, code).strip() for code in ALL_TILES}
        return web.json_response(
            {
                "lang": caller.lang,
                "texts": page_texts(caller.lang),
                "situations": situations,
                "tile_names": tile_names,
                "chat_id": caller.chat_id,
            }
        )

    async def board(self, request: web.Request) -> web.Response:
        caller = await self.caller(request)
        since = request.query.get("since", "")[:32]
        wait = LONG_POLL if since else 0.0
        board = await self.watch.wait(caller.chat_id, caller.lang, since, wait)
        name = await asyncio.to_thread(self._shown_name, caller)
        return web.json_response({**board, "me": self.me(caller, board, name)})

    async def night(self, request: web.Request) -> web.Response:
        caller = await self.caller(request)
        return web.json_response(await asyncio.to_thread(views.night, self.ledger, caller.chat_id, caller.lang))

    # -- the picker's preview --------------------------------------------------------------------------------
    async def preview(self, request: web.Request) -> web.Response:
        caller = await self.caller(request)
        body = await self.body(request)
        table, members = await asyncio.to_thread(self._table_and_members, caller.chat_id)
        self._check_table(caller, table, body, "hu")
        assert table is not None
        try:
            win = lines.read_win(table, body)
        except Refusal as refusal:
            raise ApiError(422, _code(refusal), text(caller.lang, refusal.key, **refusal.params)) from refusal
        state = await asyncio.to_thread(self.ledger.hand_state, table.id)
        currency = (await asyncio.to_thread(self.ledger.group, caller.chat_id)).currency
        words = lines.seat_tokens(table, members)
        answer = preview(win, table, state.events, state.dealer, words, lang=caller.lang, currency=currency)
        return web.json_response(answer)

    def _shown_name(self, caller: Caller) -> str:
        """The caller as every reply names them (`Ledger.names`: their 名片, 老王#2, a seat's name), never Telegram's
        display name when the ledger names them otherwise; Telegram's name for someone the bot has not seen yet
        (the ledger will know them by it)."""
        if caller.member is None:
            return caller.init.user.name
        return self.ledger.names(caller.chat_id).get(caller.member.id, caller.member.name)

    def _language_and_name(self, chat_id: int, sender: Sender) -> tuple[str, str]:
        """The group's language, and the sender as every reply names them (`Ledger.names`: 老王#2, a seat's name)."""
        member = self.ledger.member(chat_id, sender.user_id, sender.name, sender.username)
        return self.ledger.group(chat_id).language, self.ledger.names(chat_id).get(member.id, member.name)

    def _table_and_members(self, chat_id: int) -> tuple[TableInfo | None, list[MemberInfo]]:
        table = self.ledger.current_table(chat_id)
        return table, (self.ledger.members(chat_id) if table is not None else [])

    def _check_table(self, caller: Caller, table: TableInfo | None, body: Mapping[str, Any], action: str) -> None:
        """Refuse an action the table does not allow: no table, another table than the page showed, not 卡五星."""
        if action not in TABLE_ACTIONS:
            return
        if table is None:
            raise ApiError(409, "no_table", text(caller.lang, "web_no_table"))
        if body.get("table_id") != table.id:
            raise ApiError(409, "table_changed", text(caller.lang, "web_table_changed"))
        if table.game != "kawuxing":
            raise ApiError(409, "not_kawuxing", text(caller.lang, "web_not_kawuxing"))

    # -- recording -------------------------------------------------------------------------------------------
    async def record(self, request: web.Request) -> web.Response:
        caller = await self.caller(request)
        body = await self.body(request)
        request_id, action = body.get("request_id"), body.get("action")
        if not isinstance(request_id, str) or not REQUEST_ID.match(request_id):
            raise ApiError(400, "bad_request", text(caller.lang, "web_bad_request", what="request_id"))
        if action not in ACTIONS:
            raise ApiError(400, "bad_request", text(caller.lang, "web_bad_request", what="action"))
        source = f"web:{caller.chat_id}:{caller.user_id}:{request_id}"
        lock = self._busy.setdefault(source, asyncio.Lock())
        try:
            async with lock:
                if source not in self._recent:
                    self._recent[source] = await self._book(caller, body, str(action), source)
                    while len(self._recent) > RECENT:
                        self._recent.popitem(last=False)
                status, answer = self._recent[source]
        finally:
            if not lock.locked():
                self._busy.pop(source, None)
        return web.json_response(answer, status=status)

    async def _book(
        self, caller: Caller, body: Mapping[str, Any], action: str, source: str
    ) -> tuple[int, dict[str, Any]]:
        table, members = await asyncio.to_thread(self._table_and_members, caller.chat_id)
        self._check_table(caller, table, body, action)
        if not caller.may_record(table):
            raise ApiError(403, "not_seated", text(caller.lang, "web_not_seated"))
        try:
            line = self._line(action, table, members, body)
        except Refusal as refusal:
            return 422, {
                "ok": False,
                "error": _code(refusal),
                "message": text(caller.lang, refusal.key, **refusal.params),
            }
        user = caller.init.user
        sender = Sender(user.user_id, user.name, user.username, user.is_bot, user.language)
        message_id = synthetic_message_id(source)
        incoming = Incoming(
            chat_id=caller.chat_id,
            message_id=message_id,
            sender=sender,
            text=line,
            date=self.core.clock.now(),
            source=source,
            admin_ids=caller.admin_ids,
            owner_id=caller.owner_id,
        )
        outcome = await asyncio.to_thread(self.core.handle_message, incoming)
        reply = "\n".join(e.text for e in outcome.effects if isinstance(e, SendText))
        if outcome.refused:
            log.info("chat %s: Mini App line from %s refused: %s", caller.chat_id, caller.user_id, line)
            return 422, {"ok": False, "error": "refused", "message": reply, "line": line}
        # a question (漂, 买马, 是不是…, 确实又一次) is answered in the group; the page must not say it was booked
        asked = any(isinstance(e, SendText) and e.asks for e in outcome.effects)
        log.info(
            "chat %s: Mini App line from %s %s: %s",
            caller.chat_id,
            caller.user_id,
            "asked" if asked else "booked",
            line,
        )
        group_lang, name = await asyncio.to_thread(self._language_and_name, caller.chat_id, sender)
        header = text(group_lang, "web_booked_by", name=name, line=line)
        try:
            await self.send_effects(caller.chat_id, for_group(outcome, message_id, header))
        except Exception:  # the booking stands; the group's copy of the reply is lost, the page still shows it
            log.exception("chat %s: the reply to a Mini App booking could not be sent", caller.chat_id)
        await self.watch.poke(caller.chat_id)
        return 200, {"ok": True, "asked": asked, "reply": reply, "line": line}

    def _line(self, action: str, table: TableInfo | None, members: list[MemberInfo], body: Mapping[str, Any]) -> str:
        if action in lines.PLAIN_LINES:
            return lines.PLAIN_LINES[action]
        assert table is not None
        words = lines.seat_tokens(table, members)
        if action == "hu":
            return lines.win_line(lines.read_win(table, body), words)
        if action == "gang":
            return lines.kong_line(table, body, words)
        return lines.liangdao_line(table, body, words)

    async def release(self, _app: web.Application) -> None:
        self.watch.release()

    async def close(self, _app: web.Application) -> None:
        await self.watch.close()


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """No caching of answers; scripts only from here and Telegram; nothing else the page may load or be sniffed as."""
    response = await handler(request)
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if "/api/" in request.path:
        response.headers["Cache-Control"] = "no-store"
    return response


WEBAPP_KEY = web.AppKey("paiju_webapp", WebApp)


def make_webapp(
    ledger: Ledger,
    core_bot: Bot,
    settings: Settings,
    *,
    bot_token: str,
    send_effects: SendEffects,
    membership: Membership | None = None,
    clock: Callable[[], datetime] | None = None,
) -> web.Application:
    """The Mini App as an aiohttp application: mount it anywhere (its page and API use relative paths)."""
    state = WebApp(
        ledger, core_bot, settings, bot_token=bot_token, send_effects=send_effects, membership=membership, clock=clock
    )
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers])
    app[WEBAPP_KEY] = state
    app.router.add_get("/", state.index)
    app.router.add_static("/static/", STATIC, show_index=False, follow_symlinks=False)
    app.router.add_get("/api/session", state.session)
    app.router.add_get("/api/board", state.board)
    app.router.add_get("/api/night", state.night)
    app.router.add_post("/api/preview", state.preview)
    app.router.add_post("/api/record", state.record)
    app.on_shutdown.append(state.release)
    app.on_cleanup.append(state.close)
    return app


# ------------------------------------------------------------------------------------------------ paiju web


def main(argv: list[str] | None = None) -> int:
    """`paiju web --db URL --port N`: the Mini App alone against a database, for development. Replies that
    would go to the group are logged instead (there is no Telegram connection)."""
    from bot.config import ConfigError, bot_token, load_settings
    from ledger.db import database_url
    from ledger.service import Ledger

    parser = argparse.ArgumentParser(prog="paiju web", description="Serve the Mini App alone (development).")
    parser.add_argument("--config", help="config file (default: $PAIJU_CONFIG or ./config.toml)")
    parser.add_argument("--db", help="database URL (default: $PAIJU_DB_URL, then [database] url, then ./paiju.db)")
    parser.add_argument("--host", help="address to bind (overrides [webapp] host)")
    parser.add_argument("--port", type=int, help="port to listen on (overrides [webapp] port)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
        token = bot_token()  # initData is signed with it: without it no request could be trusted
    except ConfigError as err:
        print(f"paiju web: {err}")
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    ledger = Ledger.open(database_url(args.db, config=args.config), upgrade=True)

    async def log_effects(chat_id: int, outcome: Outcome) -> None:
        for effect in outcome.effects:
            log.info("chat %s would get: %s", chat_id, effect)

    app = make_webapp(ledger, Bot(ledger), settings, bot_token=token, send_effects=log_effects)
    try:
        web.run_app(app, host=args.host or settings.webapp.host, port=args.port or settings.webapp.port)
    finally:
        ledger.close()
    return 0
