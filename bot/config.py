"""Settings for `paiju run` (its `[database] url` is every subcommand's, after `--db` and `$PAIJU_DB_URL`: see
`ledger.db.database_url`), read from a TOML file.

Looked up in order: `--config PATH`, `$PAIJU_CONFIG`, `./config.toml`; absent keys keep their defaults.
`config.example.toml` documents every key. The bot token is never read from here: only from the environment
variable `TELEGRAM_BOT_TOKEN`, so it never lands in a file that gets committed or logged.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from ledger.db import CONFIG_ENV, config_file

TOKEN_ENV = "TELEGRAM_BOT_TOKEN"
__all__ = ["CONFIG_ENV", "ConfigError", "Settings", "bot_token", "load_settings"]


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says which key and why."""


@dataclass(frozen=True)
class WebhookSettings:
    url: str = ""  # public HTTPS URL Telegram posts to, e.g. https://bot.example.org/paiju
    path: str = "paiju"  # URL path on the bot's web server that receives the posts (the last part of `url`)
    secret_token: str = ""  # Telegram sends it in X-Telegram-Bot-Api-Secret-Token; empty: derived from the token
    max_connections: int = 40  # parallel connections Telegram may open to deliver updates (1-100)


@dataclass(frozen=True)
class TelegramSettings:
    base_url: str = ""  # a local Bot API server, e.g. http://127.0.0.1:8081/bot ; empty: api.telegram.org
    poll_timeout: int = 30  # long-polling timeout in seconds
    admin_cache_seconds: int = 300  # how long the list of a chat's admins is trusted before asking again
    drop_pending_updates: bool = False  # on start, skip updates that arrived while the bot was down
    set_commands: bool = True  # publish the Latin command names to Telegram's menu on start
    rate_limit: bool = True  # pace replies within Telegram's limits (AIORateLimiter)
    concurrent_updates: int = 8  # updates of different chats handled at once in one process
    lease_seconds: int = 30  # a worker that stops renewing its chats loses them to the others after this long
    keep_updates_hours: int = 24  # handled updates stay stored this long, to recognise a redelivery
    webhook: WebhookSettings = field(default_factory=WebhookSettings)


@dataclass(frozen=True)
class RedisSettings:
    url: str = ""  # e.g. redis://127.0.0.1:6379/0 ; empty: flood counters and admin lists live in the database
    prefix: str = "paiju:"  # prepended to every key, so several bots can share one Redis


@dataclass(frozen=True)
class WebappSettings:
    """The Mini App (bot/webapp): `paiju run` serves it on its web server ([server]) at the path of `public_url`
    when that is set; `paiju web` serves it alone on `host`:`port` for development."""

    host: str = "127.0.0.1"  # where `paiju web` listens (development)
    port: int = 8080
    public_url: str = ""  # the HTTPS address the proxy serves it at, e.g. https://paiju.example.org/app/
    short_name: str = ""  # the app's short name registered with @BotFather (/newapp): t.me/<bot>/<short_name>
    auth_max_age: int = 86400  # seconds a Telegram login (initData's auth_date) stays valid
    poll_interval: float = 0.5  # seconds between looks at a watched table (the board follows the chat this fast)


@dataclass(frozen=True)
class ServerSettings:
    enabled: bool = True  # the bot's web server: the webhook, /healthz and /metrics (needed for --webhook)
    listen: str = "127.0.0.1"  # address it binds (behind a reverse proxy)
    port: int = 8443


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite:///paiju.db"
    log_level: str = "INFO"
    log_format: str = "text"  # text, or json: one object a line with chat_id and update_id
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    redis: RedisSettings = field(default_factory=RedisSettings)
    webapp: WebappSettings = field(default_factory=WebappSettings)
    server: ServerSettings = field(default_factory=ServerSettings)


#: what Telegram accepts as a webhook secret
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
WEBHOOK_PATH = re.compile(r"[A-Za-z0-9_.~-]+(/[A-Za-z0-9_.~-]+)*")
#: paths of the web server that the webhook may not take
RESERVED_PATHS = frozenset({"healthz", "metrics"})
#: (section.key, lowest, highest) for every bounded number
_BOUNDS = (
    ("telegram.poll_timeout", 0, 600),
    ("telegram.admin_cache_seconds", 0, 86_400),
    ("telegram.concurrent_updates", 1, 256),
    ("telegram.lease_seconds", 3, 3600),
    ("telegram.keep_updates_hours", 1, 24 * 30),
    ("telegram.webhook.max_connections", 1, 100),
    ("server.port", 0, 65_535),
)


def _build(cls: Any, raw: dict[str, Any], where: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in known:
            raise ConfigError(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
        spec = known[key]
        default = spec.default if spec.default_factory is MISSING else spec.default_factory()
        if hasattr(default, "__dataclass_fields__"):
            if not isinstance(value, dict):
                raise ConfigError(f"{where}.{key} must be a table")
            values[key] = _build(type(default), value, f"{where}.{key}")
        elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            values[key] = float(value)  # `poll_interval = 1` means 1.0
        elif isinstance(default, bool) != isinstance(value, bool) or not isinstance(value, type(default)):
            raise ConfigError(f"{where}.{key} must be {type(default).__name__}, got {value!r}")
        else:
            values[key] = value
    return cls(**values)


def load_settings(path: str | Path | None = None) -> Settings:
    """Settings from `path` (or `$PAIJU_CONFIG`, or ./config.toml when present), else the defaults."""
    chosen = config_file(path)
    if chosen is None:
        return Settings()
    try:
        raw = tomllib.loads(Path(chosen).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{chosen}: {err}") from err
    flat: dict[str, Any] = {}
    if "database" in raw:
        flat["database_url"] = raw["database"].get("url", Settings.database_url)
        if set(raw["database"]) - {"url"}:
            raise ConfigError(f"{chosen}: [database] only has `url`")
    if "log" in raw:
        if set(raw["log"]) - {"level", "format"}:
            raise ConfigError(f"{chosen}: [log] has `level` and `format`")
        flat["log_level"] = raw["log"].get("level", Settings.log_level)
        flat["log_format"] = raw["log"].get("format", Settings.log_format)
    for section in ("telegram", "server", "redis", "webapp"):
        if section in raw:
            flat[section] = raw[section]
    unknown = set(raw) - {"database", "log", "telegram", "server", "redis", "webapp"}
    if unknown:
        known = "database, log, telegram, server, redis, webapp"
        raise ConfigError(f"{chosen}: unknown section [{sorted(unknown)[0]}] (known: {known})")
    settings: Settings = _build(Settings, flat, str(chosen))
    _check(settings, str(chosen))
    return settings


def _check(settings: Settings, where: str) -> None:
    """Values a type check lets through but the bot cannot use."""
    for dotted, low, high in _BOUNDS:
        value: Any = settings
        for part in dotted.split("."):
            value = getattr(value, part)
        if not low <= value <= high:
            raise ConfigError(f"{where}: {dotted} must be between {low} and {high}, got {value}")
    hook = settings.telegram.webhook
    if hook.secret_token and not SECRET_TOKEN.fullmatch(hook.secret_token):
        raise ConfigError(f"{where}: telegram.webhook.secret_token may only have A-Z a-z 0-9 _ - (1-256 characters)")
    parts = hook.path.split("/")
    if not WEBHOOK_PATH.fullmatch(hook.path) or parts[0] in RESERVED_PATHS or any(not p.strip(".") for p in parts):
        raise ConfigError(f"{where}: telegram.webhook.path must be a URL path other than healthz and metrics")
    if settings.log_format not in ("text", "json"):
        raise ConfigError(f"{where}: log.format must be text or json, got {settings.log_format!r}")


def bot_token() -> str:
    """The token from the environment; a clear error (never the token) when it is missing."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise ConfigError(f"set the bot token in the environment variable {TOKEN_ENV} (never in config.toml)")
    return token
