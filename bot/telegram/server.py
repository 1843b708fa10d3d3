"""The bot's own web server (aiohttp): Telegram's webhook posts, `/healthz`, `/metrics`, and room for more.

One server per `paiju run` process, in polling mode too (for health checks and metrics; `[server] enabled = false`
turns it off there). Other parts of the project mount their own aiohttp sub-applications next to the bot's routes
with `mounts=[(prefix, app)]` (a Mini App at `/app/`, say); the bot's routes are registered first.

A webhook post is answered 200 only after the update is stored in the inbox, so an update Telegram was told
arrived survives a crash; a post without the right secret header is refused (403) and stored nowhere. While the
process shuts down, posts are still stored (for the other workers, or the next start) until the server closes.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.telegram.metrics import CONTENT_TYPE, Metrics

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: the largest update body accepted (Telegram's updates are a few kilobytes)
MAX_BODY = 1 << 20
#: the largest update id accepted (Telegram's are far below; bounds what a stored row can hold)
MAX_UPDATE_ID = 2**62


@dataclass(frozen=True)
class Webhook:
    """Where Telegram posts, the secret it must send, and what stores an accepted update."""

    path: str
    secret: str
    receive: Callable[[Mapping[str, Any]], Awaitable[None]]


def valid_update(payload: object) -> bool:
    """A Bot API update: an object with a positive integer update_id and at most one other field."""
    if not isinstance(payload, dict):
        return False
    update_id = payload.get("update_id")
    return type(update_id) is int and 0 <= update_id < MAX_UPDATE_ID and len(payload) <= 2


class WebServer:
    """The aiohttp application and its site; `start`/`stop` (stop lets posts in progress finish)."""

    def __init__(
        self,
        *,
        listen: str,
        port: int,
        metrics: Metrics,
        health: Callable[[], Awaitable[tuple[bool, dict[str, Any]]]],
        webhook: Webhook | None = None,
        mounts: Sequence[tuple[str, web.Application]] = (),
    ) -> None:
        self.listen, self.port = listen, port
        self.metrics, self.health, self.webhook = metrics, health, webhook
        self.app = web.Application(client_max_size=MAX_BODY)
        self.app.router.add_get("/healthz", self._healthz)
        self.app.router.add_get("/metrics", self._metrics)
        if webhook is not None:
            self.app.router.add_post(f"/{webhook.path}", self._post)
        for prefix, sub in mounts:
            self.app.add_subapp(prefix, sub)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=30.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.listen, self.port)
        await site.start()
        if self.port == 0:  # an ephemeral port: say which one it got
            sockets = getattr(site._server, "sockets", None) or ()
            if sockets:
                self.port = sockets[0].getsockname()[1]
        log.info("web server on http://%s:%s (%s)", self.listen, self.port, self._routes())

    def _routes(self) -> str:
        paths = ["/healthz", "/metrics"] + ([f"/{self.webhook.path} (webhook)"] if self.webhook else [])
        return ", ".join(paths)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _post(self, request: web.Request) -> web.Response:
        hook = self.webhook
        assert hook is not None  # the route exists only with a webhook
        given = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), hook.secret.encode()):
            log.warning("refused a webhook post from %s: wrong or missing secret token", request.remote)
            return web.Response(status=403, text="forbidden")
        try:
            payload = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            return web.Response(status=400, text="not JSON")
        if not valid_update(payload):
            return web.Response(status=400, text="not an update")
        try:
            await hook.receive(payload)
        except Exception:
            log.exception("could not store update %s; Telegram will deliver it again", payload["update_id"])
            return web.Response(status=500, text="not stored")
        return web.Response(status=200)

    async def _healthz(self, _request: web.Request) -> web.Response:
        healthy, body = await self.health()
        return web.json_response(body, status=200 if healthy else 503)

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = await asyncio.to_thread(self.metrics.exposition)  # the backlog gauges read the database
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
