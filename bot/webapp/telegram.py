"""The Mini App inside `paiju run`: replies go to the group through the running bot, admins and membership come
from Telegram, and the table message links to the app once the bot knows its own username.

`paiju run` mounts `for_application(...)` on the bot's own web server (bot/telegram/server.py) at the path of
`[webapp] public_url`; the sub-application's startup signal attaches the links.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aiohttp import web
from telegram import ChatMember
from telegram.error import TelegramError
from telegram.ext import Application

from bot.config import Settings
from bot.core import Bot, Outcome
from bot.telegram.adapter import ADMINS_KEY, AdminCache, Executor
from bot.webapp.auth import start_key
from bot.webapp.links import MiniAppLinks, attach
from bot.webapp.server import SendEffects, make_webapp

if TYPE_CHECKING:
    from ledger.service import Ledger

#: how long Telegram's answer to "is this user in the group?" is trusted
MEMBER_TTL = 60.0
INSIDE = frozenset({ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER})


class TelegramMembership:
    """Admins from the bot's admin cache; membership from getChatMember (cached for `MEMBER_TTL`)."""

    def __init__(self, application: Application) -> None:
        self.application = application
        self._members: dict[tuple[int, int], tuple[float, bool]] = {}

    async def admins(self, chat_id: int) -> tuple[frozenset[int], int | None]:
        cache: AdminCache = self.application.bot_data[ADMINS_KEY]
        return await cache.get(self.application.bot, chat_id, "private" if chat_id > 0 else "supergroup")

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        known = self._members.get((chat_id, user_id))
        if known is not None and time.monotonic() - known[0] < MEMBER_TTL:
            return known[1]
        try:
            member = await self.application.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return None  # Telegram cannot say: the ledger decides
        restricted_inside = member.status == ChatMember.RESTRICTED and bool(getattr(member, "is_member", False))
        inside = member.status in INSIDE or restricted_inside
        self._members[(chat_id, user_id)] = (time.monotonic(), inside)
        return inside


def effects_sender(application: Application, core: Bot) -> SendEffects:
    """Carry out a Mini App booking's effects in its group, as the adapter does for a typed line."""

    async def send(chat_id: int, outcome: Outcome) -> None:
        await Executor(core, application.bot, chat_id).run(outcome)

    return send


def for_application(
    application: Application,
    core: Bot,
    ledger: Ledger,
    settings: Settings,
    token: str,
) -> web.Application:
    """The Mini App wired to a PTB application; on startup it attaches the table message's link."""
    app = make_webapp(
        ledger,
        core,
        settings,
        bot_token=token,
        send_effects=effects_sender(application, core),
        membership=TelegramMembership(application),
    )

    async def attach_links(_app: web.Application) -> None:
        me = await application.bot.get_me()
        hosted = settings.webapp
        attach(core, MiniAppLinks(start_key(token), hosted.public_url, me.username or "", hosted.short_name))

    app.on_startup.append(attach_links)
    return app
