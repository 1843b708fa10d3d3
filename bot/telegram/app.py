"""`paiju run`: the Telegram bot. Long polling by default; `--webhook` for production behind a reverse proxy.

    TELEGRAM_BOT_TOKEN=123:ABC paiju run [--config config.toml] [--db URL] [--webhook] [--port 8443]

Every update goes through the inbox (bot/telegram/intake.py): stored before Telegram is told it arrived, handled
once, one chat at a time in order, many chats at once. Any number of `paiju run --webhook` processes on one
PostgreSQL database share the work. The bot's web server (bot/telegram/server.py) receives the webhook and serves
`/healthz` and `/metrics`. SIGTERM or SIGINT finishes the updates being handled, then exits.

The token comes only from the environment and is cut out of every log line and error (bot/telegram/logs.py); a
refused token or an unreachable Bot API ends the start with one sentence.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import logging
import signal
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import sqlalchemy as sa
from aiohttp import web
from telegram import BotCommand, LinkPreviewOptions, Update
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults
from telegram.request import BaseRequest

import bot.shared_state as shared_state
from bot.config import ConfigError, Settings, bot_token, load_settings
from bot.core import Bot, SystemClock
from bot.telegram import logs
from bot.telegram.adapter import CORE_KEY, install
from bot.telegram.http import AiohttpRequest
from bot.telegram.intake import Dispatcher, Poller, threads
from bot.telegram.metrics import Metrics
from bot.telegram.server import Webhook, WebServer
from bot.upkeep import expire
from ledger.db import database_url, normalize_url, utcnow
from ledger.inbox import Inbox, worker_name
from ledger.shared_state import open_shared_state

if TYPE_CHECKING:
    from ledger.service import Ledger

log = logging.getLogger("paiju")

#: every update kind the bot acts on (chat_member must be asked for explicitly)
ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.EDITED_MESSAGE,
    Update.CALLBACK_QUERY,
    Update.CHAT_MEMBER,
    Update.MY_CHAT_MEMBER,
]
TELEGRAM_API = "https://api.telegram.org/bot"


class StartError(Exception):
    """`paiju run` cannot start; the message is one sentence for the operator (never the token)."""


def build_application(
    settings: Settings,
    core: Bot,
    token: str,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limit: bool | None = None,
) -> Application:
    """The PTB application with the command layer installed, talking to the Bot API over aiohttp (bot/telegram/
    http.py); tests may pass their own `request` (no network). Updates reach it through the dispatcher
    (`Application.process_update`), not PTB's own updater."""
    builder: ApplicationBuilder = (
        Application.builder()
        .token(token)
        .defaults(Defaults(tzinfo=UTC, link_preview_options=LinkPreviewOptions(is_disabled=True)))
    )
    if settings.telegram.base_url:
        builder = builder.base_url(settings.telegram.base_url)
    if settings.telegram.rate_limit if rate_limit is None else rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=3))
    builder = builder.request(request or AiohttpRequest())
    builder = builder.get_updates_request(get_updates_request or AiohttpRequest(connection_pool_size=1))
    application = builder.build()
    install(application, core, settings.telegram.admin_cache_seconds)
    return application


async def publish_commands(application: Application) -> None:
    """Telegram's command menu: each command's Latin name with its Chinese help (English for English clients)."""
    core: Bot = application.bot_data[CORE_KEY]
    try:
        for lang in ("zh", "en"):
            commands = [BotCommand(name, description or name) for name, description in core.registry.menu(lang)]
            await application.bot.set_my_commands(commands[:100], language_code=None if lang == "zh" else "en")
    except TelegramError as err:
        log.warning("could not publish the command menu: %s", err)


def webhook_secret(settings: Settings, token: str) -> str:
    """The configured secret, or one derived from the token: every worker derives the same, nobody without the
    token can, and it fits Telegram's alphabet."""
    configured = settings.telegram.webhook.secret_token
    return configured or hmac.new(token.encode(), b"paiju webhook secret", hashlib.sha256).hexdigest()


class Service:
    """One `paiju run` process: the ledger, the PTB application, the inbox dispatcher, the intake (polling or a
    webhook) and the web server; `start`, then `stop` (which finishes the updates in hand)."""

    def __init__(
        self,
        settings: Settings,
        token: str,
        database_url: str,
        *,
        webhook: bool = False,
        mounts: Sequence[tuple[str, web.Application]] = (),
    ) -> None:
        self.settings, self.token, self.database_url, self.webhook = settings, token, database_url, webhook
        self.mounts = mounts
        self.metrics = Metrics()
        self.worker = worker_name()
        self.server: WebServer | None = None
        self.dispatcher: Dispatcher | None = None
        self._stop = asyncio.Event()
        self._intake: asyncio.Task[None] | None = None
        self._closers: list[Any] = []

    @property
    def base_url(self) -> str:
        return self.settings.telegram.base_url or TELEGRAM_API

    async def start(self) -> None:
        from ledger.service import Ledger

        telegram = self.settings.telegram
        try:
            ledger = await asyncio.to_thread(
                Ledger.open, self.database_url, upgrade=True, connections=threads(telegram.concurrent_updates) + 1
            )
        except sa.exc.OperationalError as err:
            shown = sa.engine.make_url(normalize_url(self.database_url)).render_as_string(hide_password=True)
            raise StartError(f"cannot open the database {shown}: {str(err.orig).strip().splitlines()[0]}") from err
        self._closers.append(ledger.close)
        self.ledger = ledger
        self.metrics.watch_ledger(ledger.engine)
        self._closers.append(self.metrics.unwatch)
        core = Bot(ledger, clock=SystemClock())
        core.observe = self.metrics.observe
        redis = self.settings.redis  # flood counters and admin lists every worker shares
        shared_state.use(core, open_shared_state(ledger.engine, redis_url=redis.url, redis_prefix=redis.prefix))
        self.application = application = build_application(self.settings, core, self.token)
        mounts = [*self.mounts, *self._mini_app(application, core, ledger)]
        try:
            await application.initialize()  # getMe: the token and the address are checked here
        except (InvalidToken, NetworkError) as err:
            await application.bot.shutdown()  # the HTTP sessions getMe opened (PTB shuts only what initialized)
            if isinstance(err, InvalidToken):
                raise StartError(self._refused()) from err
            raise StartError(self._unreachable(err)) from err
        self._closers.append(application.shutdown)
        inbox = Inbox(ledger.engine, application.bot.id, self.worker, lease_seconds=telegram.lease_seconds)
        self.dispatcher = Dispatcher(
            application,
            inbox,
            self.metrics,
            concurrent_updates=telegram.concurrent_updates,
            keep=timedelta(hours=telegram.keep_updates_hours),
            upkeep=lambda: expire(ledger),
        )
        self.metrics.watch_backlog(inbox.backlog, utcnow)
        secret = webhook_secret(self.settings, self.token) if self.webhook else ""
        if self.settings.server.enabled:
            hook = Webhook(telegram.webhook.path, secret, self.dispatcher.receive) if self.webhook else None
            self.server = WebServer(
                listen=self.settings.server.listen,
                port=self.settings.server.port,
                metrics=self.metrics,
                health=self.health,
                webhook=hook,
                mounts=mounts,
            )
            self._closers.append(self.server.stop)
            try:
                await self.server.start()
            except OSError as err:
                where = f"{self.settings.server.listen}:{self.settings.server.port}"
                raise StartError(f"cannot listen on {where} ({err.strerror or err}): check [server] or --port") from err
        await application.start()
        self._closers.append(application.stop)
        if telegram.set_commands:
            await publish_commands(application)
        await self.dispatcher.start()
        self._closers.append(self.dispatcher.stop)
        log.info("worker %s of bot @%s ready (%s)", self.worker, application.bot.username, self._mode())
        if self.webhook:
            if not telegram.webhook.secret_token:
                log.info("webhook secret derived from the bot token (set [telegram.webhook] secret_token to choose)")
            await application.bot.set_webhook(
                telegram.webhook.url,
                secret_token=secret,
                allowed_updates=ALLOWED_UPDATES,
                drop_pending_updates=telegram.drop_pending_updates,
                max_connections=telegram.webhook.max_connections,
            )
        else:
            poller = Poller(
                application,
                self.dispatcher,
                timeout=telegram.poll_timeout,
                allowed_updates=ALLOWED_UPDATES,
                drop_pending_updates=telegram.drop_pending_updates,
            )
            self._intake = asyncio.create_task(poller.run(self._stop), name="poller")

    def _mini_app(self, application: Application, core: Bot, ledger: Ledger) -> list[tuple[str, web.Application]]:
        """The Mini App (bot/webapp) mounted at its public URL's path on this server, when `[webapp] public_url`
        is set."""
        public_url = self.settings.webapp.public_url
        if not public_url:
            return []
        prefix = urlparse(public_url).path.rstrip("/")
        if not self.settings.server.enabled:
            raise StartError("the Mini App ([webapp] public_url) is served by the bot's web server: enable [server]")
        if not prefix or prefix.strip("/") in {"healthz", "metrics", self.settings.telegram.webhook.path}:
            raise StartError(f"[webapp] public_url needs a path of its own, such as /app/ (got {public_url!r})")
        from bot.webapp.telegram import for_application

        return [(prefix + "/", for_application(application, core, ledger, self.settings, self.token))]

    def _mode(self) -> str:
        return "webhook" if self.webhook else "long polling"

    def _refused(self) -> str:
        address = " and [telegram] base_url" if self.settings.telegram.base_url else ""
        return (
            f"the Bot API at {self.base_url} refused the bot token: check TELEGRAM_BOT_TOKEN (as @BotFather gave it)"
            + address
        )

    def _unreachable(self, err: Exception) -> str:
        """Why getMe failed to connect, pointing where the fault can be: the configured address when one is set,
        else this machine's way to Telegram (its network or DNS, or the proxy it must use)."""
        where = f"cannot reach the Bot API at {self.base_url} ({err})"
        if self.settings.telegram.base_url:
            return f"{where}: check [telegram] base_url"
        return f"{where}: check this machine's network and DNS, or set HTTPS_PROXY if Telegram is reached via a proxy"

    async def wait(self) -> None:
        """Until `request_stop` (a signal) or the intake ends; a refused token while running is a StartError."""
        waiting = asyncio.ensure_future(self._stop.wait())
        watched: set[asyncio.Future[Any]] = {waiting} | ({self._intake} if self._intake else set())
        await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if self._intake is not None and self._intake.done() and not self._intake.cancelled():
            error = self._intake.exception()
            if isinstance(error, InvalidToken):
                raise StartError(self._refused()) from error
            if error is not None:
                raise error

    def request_stop(self) -> None:
        self._stop.set()

    async def stop(self) -> None:
        """Stop taking updates, finish the ones being handled, release the chats, close everything."""
        self._stop.set()
        if self._intake is not None:
            await asyncio.gather(self._intake, return_exceptions=True)
        while self._closers:
            close = self._closers.pop()
            try:
                result = close()
                if asyncio.iscoroutine(result):
                    await result
            except Exception as err:  # keep closing the rest
                log.warning("while stopping: %s", err)

    async def health(self) -> tuple[bool, dict[str, Any]]:
        """Database reachable, updates waiting, last update handled: for a load balancer or a monitor."""
        dispatcher = self.dispatcher
        assert dispatcher is not None
        body: dict[str, Any] = {"worker": self.worker, "mode": self._mode(), "chats_held": len(dispatcher.held)}
        last = dispatcher.last_handled
        body["last_update_handled_at"] = None if last is None else datetime.fromtimestamp(last, UTC).isoformat()
        body["seconds_since_last_update"] = None if last is None else round(time.time() - last, 3)
        try:
            backlog = await asyncio.wait_for(asyncio.to_thread(dispatcher.inbox.backlog), 5.0)
        except Exception as err:
            body["database"] = f"unreachable: {type(err).__name__}"
            return False, body
        body["database"] = "ok"
        body["pending_updates"] = backlog.pending
        oldest = None if backlog.oldest is None else (utcnow() - backlog.oldest).total_seconds()
        body["oldest_pending_seconds"] = None if oldest is None else round(max(oldest, 0.0), 3)
        return True, body


async def serve(service: Service) -> None:
    """Run until SIGTERM/SIGINT, then stop gracefully."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, service.request_stop)
    try:
        await service.start()
        await service.wait()
    finally:
        if service.dispatcher is not None:  # a start that failed before it had updates says its one sentence only
            log.info("stopping: finishing the updates in hand")
        await service.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju run", description="Run the Telegram bot.")
    parser.add_argument("--config", help="config file (default: $PAIJU_CONFIG or ./config.toml)")
    parser.add_argument("--db", help="database URL (default: $PAIJU_DB_URL, then [database] url, then ./paiju.db)")
    parser.add_argument("--webhook", action="store_true", help="receive updates by webhook ([telegram.webhook])")
    parser.add_argument("--port", type=int, help="the web server's port (overrides [server] port): one per worker")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
        token = bot_token()
    except ConfigError as err:
        print(f"paiju run: {err}")
        return 2
    if args.port is not None:
        if not 0 <= args.port <= 65_535:
            print(f"paiju run: --port must be between 0 and 65535, got {args.port}")
            return 2
        settings = replace(settings, server=replace(settings.server, port=args.port))
    if args.webhook and not settings.telegram.webhook.url:
        print("paiju run: --webhook needs [telegram.webhook] url in the config")
        return 2
    if args.webhook and not settings.server.enabled:
        print("paiju run: --webhook needs the web server ([server] enabled = true)")
        return 2
    service = Service(settings, token, database_url(args.db, config=args.config), webhook=args.webhook)
    secrets = [token, webhook_secret(settings, token)]
    redact = logs.configure(settings.log_level, settings.log_format, secrets, service.worker)
    try:
        asyncio.run(serve(service))
    except StartError as err:
        print(f"paiju run: {redact(str(err))}")
        return 2
    except Exception as err:  # logged whole, with the token cut out; the process says why it ended
        log.critical("paiju run stopped: %s", err, exc_info=err)
        return 1
    return 0
