"""A group chat driving the command layer directly, for tests that need more than a transcript: a member's line
and a button press, each with the source Telegram's update would give it."""

from __future__ import annotations

from datetime import datetime

from bot.core import Bot, CallbackQuery, Incoming, Sender, SendText


def say(bot: Bot, sender: Sender, message_id: int, text: str, *, chat: int, now: datetime) -> list[SendText]:
    """`sender` sends `text` as message `message_id`; the texts the bot answers with."""
    incoming = Incoming(chat, message_id, sender, text, now, source=f"t:{chat}:{message_id}")
    return [e for e in bot.handle_message(incoming).effects if isinstance(e, SendText)]


def press(bot: Bot, sender: Sender, data: str, query: str, *, chat: int, now: datetime) -> list[object]:
    """`sender` presses a button carrying `data` under message 500 (callback query id `query`); every effect."""
    callback = CallbackQuery(query, chat, 500, sender, data, now, source=f"t:{chat}:cb{query}")
    return bot.handle_callback(callback).effects
