"""The table message's Mini App button: a signed link to the table, known once the Mini App is configured.

`paiju run` attaches a `MiniAppLinks` to its command layer when `[webapp]` has a public URL and a short name;
without one (the console, a bot without the Mini App) the table message has no such button. In a group the
button is a t.me direct link (Telegram opens Mini Apps from web_app buttons only in private chats); in a private
chat it is a web_app button on the page itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode
from weakref import WeakKeyDictionary

from bot.core import Bot, Button, Context
from bot.webapp import texts as _texts  # noqa: F401  (registers btn_mini_app)
from bot.webapp.auth import sign_start

#: the page's own query parameter carrying the start parameter (a web_app button's URL cannot use `startapp`)
START_QUERY = "start"


@dataclass(frozen=True)
class MiniAppLinks:
    key: bytes  # the start-parameter key (`auth.start_key(token)`)
    public_url: str  # where the page is served, e.g. https://paiju.example.org/app/
    bot_username: str
    short_name: str

    def start_param(self, chat_id: int, table_id: int) -> str:
        return sign_start(chat_id, table_id, self.key)

    def url(self, chat_id: int, table_id: int) -> str | None:
        """The address a player taps: the t.me direct link in a group (None without a registered short name),
        the page itself in a private chat."""
        param = self.start_param(chat_id, table_id)
        if chat_id > 0:  # private chats have positive ids, groups negative
            return f"{self.public_url}?{urlencode({START_QUERY: param})}"
        if not (self.short_name and self.bot_username):
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?{urlencode({'startapp': param})}"


_attached: WeakKeyDictionary[Bot, MiniAppLinks] = WeakKeyDictionary()


def attach(core: Bot, links: MiniAppLinks) -> None:
    _attached[core] = links


def mini_app_button(ctx: Context, table_id: int) -> Button | None:
    """The button opening this table in the Mini App, or None when the bot has no Mini App."""
    links = _attached.get(ctx.bot)
    if links is None:
        return None
    url = links.url(ctx.chat_id, table_id)
    if url is None:
        return None
    # the callback data is only what an adapter that cannot show link buttons falls back to (a harmless press)
    return Button(ctx.t("btn_mini_app"), "app:open", url=url, web_app=ctx.chat_id > 0)
