"""`paiju run`: the Telegram bot. Long polling by default; `--webhook` for production behind a reverse proxy.

    TELEGRAM_BOT_TOKEN=123:ABC paiju run [--config config.toml] [--db URL] [--webhook]

The token comes only from the environment and is never logged (httpx's request log, which prints URLs with the
token in them, is silenced). The database is upgraded to the newest schema on start.
"""

from __future__ import annotations

import argparse
import logging
from datetime import UTC
from typing import Any

from telegram import BotCommand, LinkPreviewOptions, Update
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults
from telegram.request import BaseRequest

from bot.config import ConfigError, Settings, bot_token, load_settings
from bot.core import Bot, SystemClock
from bot.telegram.adapter import install

log = logging.getLogger("paiju")

#: every update kind the bot acts on (chat_member must be asked for explicitly)
ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.EDITED_MESSAGE,
    Update.CALLBACK_QUERY,
    Update.CHAT_MEMBER,
    Update.MY_CHAT_MEMBER,
]


class _RedactToken(logging.Filter):
    """Belt and braces: any log record that would print the token prints `<token>` instead."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and self.token in record.getMessage():
            record.msg = record.getMessage().replace(self.token, "<token>")
            record.args = ()
        return True


def build_application(
    settings: Settings,
    core: Bot,
    token: str,
    *,
    request: BaseRequest | None = None,
    get_updates_request: BaseRequest | None = None,
    rate_limit: bool = True,
) -> Application:
    """The PTB application with the command layer installed; tests pass their own `request` (no network)."""
    builder: ApplicationBuilder = (
        Application.builder()
        .token(token)
        .defaults(Defaults(tzinfo=UTC, link_preview_options=LinkPreviewOptions(is_disabled=True)))
    )
    if settings.telegram.base_url:
        builder = builder.base_url(settings.telegram.base_url)
    if rate_limit:
        builder = builder.rate_limiter(AIORateLimiter(max_retries=3))
    if request is not None:
        builder = builder.request(request)
    if get_updates_request is not None:
        builder = builder.get_updates_request(get_updates_request)
    if settings.telegram.set_commands:
        builder = builder.post_init(_publish_commands)
    application = builder.build()
    install(application, core, settings.telegram.admin_cache_seconds)
    return application


async def _publish_commands(application: Application) -> None:
    """Telegram's command menu: each command's Latin name with its Chinese help (English for English clients)."""
    from telegram.error import TelegramError

    from bot.core import Bot as Core
    from bot.telegram.adapter import CORE_KEY

    core: Core = application.bot_data[CORE_KEY]
    try:
        for lang in ("zh", "en"):
            commands = [BotCommand(name, description or name) for name, description in core.registry.menu(lang)]
            await application.bot.set_my_commands(commands[:100], language_code=None if lang == "zh" else "en")
    except TelegramError as err:
        log.warning("could not publish the command menu: %s", err)


def webhook_options(settings: Settings) -> dict[str, Any]:
    """Arguments of run_webhook/start_webhook: where to listen, the public URL Telegram is told, the secret."""
    hook = settings.telegram.webhook
    return {
        "listen": hook.listen,
        "port": hook.port,
        "url_path": hook.path,
        "webhook_url": hook.url,
        "secret_token": hook.secret_token or None,
        "allowed_updates": ALLOWED_UPDATES,
        "drop_pending_updates": settings.telegram.drop_pending_updates,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju run", description="Run the Telegram bot.")
    parser.add_argument("--config", help="config file (default: $PAIJU_CONFIG or ./config.toml)")
    parser.add_argument("--db", help="database URL (overrides [database] url)")
    parser.add_argument("--webhook", action="store_true", help="receive updates by webhook ([telegram.webhook])")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
        token = bot_token()
    except ConfigError as err:
        print(f"paiju run: {err}")
        return 2
    if args.webhook and not settings.telegram.webhook.url:
        print("paiju run: --webhook needs [telegram.webhook] url in the config")
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its INFO lines carry the token in the URL
    for handler in logging.getLogger().handlers:
        handler.addFilter(_RedactToken(token))

    import bot.shared_state as shared_state
    from ledger.service import Ledger
    from ledger.shared_state import open_shared_state

    url = args.db or settings.database_url
    ledger = Ledger.open(url, upgrade=True)  # an empty or old database is migrated to the newest schema
    log.info("database ready (%s)", url.split("@")[-1])
    core = Bot(ledger, clock=SystemClock())
    redis = settings.redis
    shared_state.use(core, open_shared_state(ledger.engine, redis_url=redis.url, redis_prefix=redis.prefix))
    application = build_application(settings, core, token)
    if settings.webapp.public_url:  # the Mini App (bot/webapp), served beside the bot on [webapp] host:port
        from bot.webapp.telegram import serve_beside

        serve_beside(application, core, ledger, settings, token)
    telegram = settings.telegram
    try:
        if args.webhook:
            application.run_webhook(**webhook_options(settings))
        else:
            application.run_polling(
                timeout=telegram.poll_timeout,
                allowed_updates=ALLOWED_UPDATES,
                drop_pending_updates=telegram.drop_pending_updates,
            )
    finally:
        ledger.close()
    return 0
