"""Who is asking, and for which table: Telegram's signed `initData` and the project's signed start parameter.

initData is validated exactly as Telegram's Mini App documentation says: the secret key is HMAC-SHA256 of the
bot token with the key "WebAppData"; the data-check-string is every received field but `hash`, sorted by key,
as `key=value` lines joined by "\\n"; the hash is the hex HMAC-SHA256 of that string with the secret key. An
`auth_date` older than the configured age is refused, so a leaked page cannot be replayed for ever.

The start parameter (`startapp=` of the t.me link) names a group and a table. Telegram passes it through
untouched and tells nothing of the group a direct link was opened in, so the project signs it with a key derived
from the bot token (a different label than Telegram's): nobody can forge a parameter for another group.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl, urlencode

#: the constant Telegram derives the initData secret with
WEB_APP_DATA = b"WebAppData"
#: the label the start-parameter key is derived with (never equal to Telegram's, so neither key gives the other)
START_LABEL = b"paiju-startapp"
#: the longest initData accepted (Telegram's are well under 1 KiB; a bound keeps parsing cheap)
MAX_INIT_DATA = 4096
#: clock skew tolerated for an auth_date in the future
SKEW = timedelta(seconds=60)
_START = re.compile(r"^(-?\d{1,19})_(\d{1,19})_([A-Za-z0-9_-]{16})$")
_HASH = re.compile(r"^[0-9a-f]{64}$")


class AuthError(Exception):
    """initData or a start parameter that cannot be trusted; `reason` is a stable code (the API answers 401)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class WebUser:
    """The Telegram user initData names (the same fields the bot gets with a message)."""

    user_id: int
    first_name: str
    last_name: str = ""
    username: str | None = None
    language: str | None = None
    is_bot: bool = False

    @property
    def name(self) -> str:
        """First and last name, as python-telegram-bot's `User.full_name` (the name the ledger shows)."""
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass(frozen=True)
class InitData:
    user: WebUser
    auth_date: datetime
    start_param: str | None
    chat_type: str | None


def init_data_secret(token: str) -> bytes:
    return hmac.new(WEB_APP_DATA, token.encode(), hashlib.sha256).digest()


def data_check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{key}={value}" for key, value in sorted(fields.items()) if key != "hash")


def sign_init_data(fields: Mapping[str, str], token: str) -> str:
    """initData as Telegram would send it for these fields (development links and tests build theirs so)."""
    digest = hmac.new(init_data_secret(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def validate_init_data(raw: str, token: str, *, max_age: timedelta, now: datetime) -> InitData:
    """The user and start parameter of a genuine, fresh initData; `AuthError` for anything else."""
    if not raw:
        raise AuthError("missing")
    if len(raw) > MAX_INIT_DATA:
        raise AuthError("malformed")
    try:
        pairs = parse_qsl(raw, keep_blank_values=True, strict_parsing=True)
    except ValueError as err:
        raise AuthError("malformed") from err
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError("malformed")  # a repeated key: which one was signed?
    received = fields.get("hash", "")
    if not _HASH.match(received):
        raise AuthError("bad_hash")
    expected = hmac.new(init_data_secret(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, received):
        raise AuthError("bad_hash")
    try:
        auth_date = datetime.fromtimestamp(int(fields.get("auth_date", "")), UTC)
    except (ValueError, OverflowError, OSError) as err:
        raise AuthError("malformed") from err
    if now - auth_date > max_age:
        raise AuthError("stale")
    if auth_date - now > SKEW:
        raise AuthError("malformed")
    return InitData(_user(fields.get("user")), auth_date, fields.get("start_param") or None, fields.get("chat_type"))


def _user(raw: str | None) -> WebUser:
    if not raw:
        raise AuthError("no_user")
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise AuthError("malformed") from err
    if not isinstance(data, dict):
        raise AuthError("no_user")
    user_id, first = data.get("id"), data.get("first_name")
    if (
        not isinstance(user_id, int)
        or isinstance(user_id, bool)
        or not 0 < user_id < 2**63
        or not isinstance(first, str)
    ):
        raise AuthError("no_user")
    last, username, language = data.get("last_name"), data.get("username"), data.get("language_code")
    return WebUser(
        user_id=user_id,
        first_name=first,
        last_name=last if isinstance(last, str) else "",
        username=username if isinstance(username, str) and username else None,
        language=language if isinstance(language, str) else None,
        is_bot=data.get("is_bot") is True,
    )


# ---------------------------------------------------------------------------------------------- start parameter


def start_key(token: str) -> bytes:
    return hmac.new(START_LABEL, token.encode(), hashlib.sha256).digest()


def _mac(key: bytes, body: str) -> str:
    digest = hmac.new(key, body.encode(), hashlib.sha256).digest()[:12]
    return base64.urlsafe_b64encode(digest).decode()


def sign_start(chat_id: int, table_id: int, key: bytes) -> str:
    """`<chat>_<table>_<mac>`: at most 57 characters of A-Z a-z 0-9 _ - (what a t.me start parameter allows)."""
    body = f"{chat_id}_{table_id}"
    return f"{body}_{_mac(key, body)}"


def read_start(param: str, key: bytes) -> tuple[int, int]:
    """(chat id, table id) of a genuine start parameter; `AuthError("bad_start")` otherwise."""
    found = _START.match(param or "")
    if found is None:
        raise AuthError("bad_start")
    body = f"{found[1]}_{found[2]}"
    if not hmac.compare_digest(_mac(key, body), found[3]):
        raise AuthError("bad_start")
    return int(found[1]), int(found[2])
