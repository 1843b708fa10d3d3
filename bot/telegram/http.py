"""The Bot API over aiohttp: python-telegram-bot's request interface (`BaseRequest`) on the HTTP client of the
web server the bot already runs.

PTB's default, httpx, took 2.5× the CPU of this class per `send_message` one call at a time and 7× with 32 calls in
flight (bench/bench_http.py), and a busy worker sends at least one call per booking (the reply). Everything above the
HTTP exchange — building the parameters, reading Telegram's answer, raising `BadRequest`, `RetryAfter` … — stays
PTB's own: this class only moves bytes, like `HTTPXRequest`.

Parameters go as a JSON body (Telegram takes it; a form would percent-encode every Chinese character), uploads as
multipart. Proxies come from the environment (`HTTPS_PROXY`, `NO_PROXY`), as with httpx, looked up once per host:
aiohttp's own `trust_env` also reads ~/.netrc in a thread at every request. Timeouts map onto aiohttp's:
`connect_timeout` bounds opening a connection, `pool_timeout` + `connect_timeout` waiting for one from the pool,
`read_timeout` each read; aiohttp has no write timeout, so an upload (a report chart) is bounded as a whole by the
sum of the four, with `media_write_timeout` as its write part.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

_JSON = {"Content-Type": "application/json"}


class AiohttpRequest(BaseRequest):
    """One connection pool to the Bot API (`connection_pool_size` connections at most); the defaults are those
    `Application.builder()` gives its own requests (no `write_timeout`: only an upload's is used, see above)."""

    def __init__(
        self,
        *,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self._pool_size = connection_pool_size
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], str | None] = {}

    @property
    def read_timeout(self) -> float | None:
        return self._read_timeout

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size), headers={"User-Agent": self.USER_AGENT}
            )
            self._proxies = {}

    async def shutdown(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data is not None and request_data.contains_files
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool_timeout if isinstance(pool_timeout, DefaultValue) else pool_timeout
        write = self._media_write_timeout if isinstance(write_timeout, DefaultValue) else write_timeout
        timeout = aiohttp.ClientTimeout(
            total=_sum(pool, connect, write, read) if files else None,
            connect=_sum(pool, connect),
            sock_connect=connect,
            sock_read=read,
        )
        try:
            async with session.request(
                method, url, proxy=self._proxy(url), timeout=timeout, **_body(request_data)
            ) as response:
                return response.status, await response.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err

    def _proxy(self, url: str) -> str | None:
        """The environment's proxy for the URL's scheme, unless NO_PROXY exempts its host."""
        parts = urlsplit(url)
        key = (parts.scheme, parts.hostname or "")
        if key not in self._proxies:
            bypass = urllib.request.proxy_bypass(key[1])  # on Linux: NO_PROXY
            self._proxies[key] = None if bypass else urllib.request.getproxies_environment().get(key[0])
        return self._proxies[key]


def _body(request_data: RequestData | None) -> dict[str, Any]:
    """The request's body as `ClientSession.request` arguments: the parameters as JSON, or a multipart form with
    the files of an upload."""
    if request_data is None:
        return {}
    if not request_data.contains_files:
        return {"data": json.dumps(request_data.parameters).encode(), "headers": _JSON}
    form = aiohttp.FormData(request_data.json_parameters, quote_fields=False)  # 月报.png as UTF-8, as httpx sends it
    for name, (filename, content, content_type) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=content_type)
    return {"data": form}


def _sum(*timeouts: float | None) -> float | None:
    """Seconds of several steps together; unbounded when any step is."""
    total = 0.0
    for timeout in timeouts:
        if timeout is None:
            return None
        total += timeout
    return total
