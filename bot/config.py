"""Settings for `paiju run` (and the console's default database), read from a TOML file.

Looked up in order: `--config PATH`, `$PAIJU_CONFIG`, `./config.toml`; absent keys keep their defaults.
`config.example.toml` documents every key. The bot token is never read from here: only from the environment
variable `TELEGRAM_BOT_TOKEN`, so it never lands in a file that gets committed or logged.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

TOKEN_ENV = "TELEGRAM_BOT_TOKEN"
CONFIG_ENV = "PAIJU_CONFIG"


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message says which key and why."""


@dataclass(frozen=True)
class WebhookSettings:
    url: str = ""  # public HTTPS URL Telegram posts to, e.g. https://bot.example.org/paiju
    listen: str = "127.0.0.1"  # address the built-in web server binds (behind a reverse proxy)
    port: int = 8443
    path: str = "paiju"  # URL path the web server serves (the last part of `url`)
    secret_token: str = ""  # sent by Telegram in X-Telegram-Bot-Api-Secret-Token; requests without it are refused


@dataclass(frozen=True)
class TelegramSettings:
    base_url: str = ""  # a local Bot API server, e.g. http://127.0.0.1:8081/bot ; empty: api.telegram.org
    poll_timeout: int = 30  # long-polling timeout in seconds
    admin_cache_seconds: int = 300  # how long the list of a chat's admins is trusted before asking again
    drop_pending_updates: bool = False  # on start, skip updates that arrived while the bot was down
    set_commands: bool = True  # publish the Latin command names to Telegram's menu on start
    webhook: WebhookSettings = field(default_factory=WebhookSettings)


@dataclass(frozen=True)
class RedisSettings:
    url: str = ""  # e.g. redis://127.0.0.1:6379/0 ; empty: flood counters and admin lists live in the database
    prefix: str = "paiju:"  # prepended to every key, so several bots can share one Redis


@dataclass(frozen=True)
class WebappSettings:
    """The Mini App (bot/webapp): served by `paiju run` beside the bot when `public_url` is set."""

    host: str = "127.0.0.1"  # address the Mini App's web server binds (behind a reverse proxy that adds TLS)
    port: int = 8080
    public_url: str = ""  # the HTTPS address the proxy serves it at, e.g. https://paiju.example.org/app/
    short_name: str = ""  # the app's short name registered with @BotFather (/newapp): t.me/<bot>/<short_name>
    auth_max_age: int = 86400  # seconds a Telegram login (initData's auth_date) stays valid
    poll_interval: float = 0.5  # seconds between looks at a watched table (the board follows the chat this fast)


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite:///paiju.db"
    log_level: str = "INFO"
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    redis: RedisSettings = field(default_factory=RedisSettings)
    webapp: WebappSettings = field(default_factory=WebappSettings)


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
    chosen = path or os.environ.get(CONFIG_ENV) or ("config.toml" if Path("config.toml").exists() else None)
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
        flat["log_level"] = raw["log"].get("level", Settings.log_level)
    for section in ("telegram", "redis", "webapp"):
        if section in raw:
            flat[section] = raw[section]
    unknown = set(raw) - {"database", "log", "telegram", "redis", "webapp"}
    if unknown:
        known = "database, log, telegram, redis, webapp"
        raise ConfigError(f"{chosen}: unknown section [{sorted(unknown)[0]}] (known: {known})")
    settings: Settings = _build(Settings, flat, str(chosen))
    return settings


def bot_token() -> str:
    """The token from the environment; a clear error (never the token) when it is missing."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise ConfigError(f"set the bot token in the environment variable {TOKEN_ENV} (never in config.toml)")
    return token
