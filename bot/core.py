"""The command layer both adapters share: a chat event in, a list of effects out.

Synchronous and free of Telegram: the console and the Telegram adapter translate their input into these
types, call the layer, and execute the effects it returns. Anything tested through the console is therefore
what a Telegram group gets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Sender:
    """Who sent a message. `user_id` is Telegram's 64-bit id (the console derives a stable one from the name)."""

    user_id: int
    name: str  # display name as the chat shows it (first + last name, or the console name)
    username: str | None = None
    is_bot: bool = False
    language: str | None = None  # the client's language code, e.g. "en"


@dataclass(frozen=True)
class Quoted:
    """The message a message replies to."""

    message_id: int
    sender: Sender | None
    text: str = ""


@dataclass(frozen=True)
class Incoming:
    """One text message (new or edited) in a group."""

    chat_id: int
    message_id: int
    sender: Sender
    text: str
    date: datetime  # timezone-aware UTC
    source: str  # idempotency key: "tg:<chat>:<message>[:e<edit_ts>]" or "console:<line>"
    chat_title: str = ""
    reply_to: Quoted | None = None
    edited: bool = False  # an edit of an earlier message: re-record what it recorded
    admin_ids: frozenset[int] = frozenset()  # the chat's administrators (owner included), as the adapter caches them
    owner_id: int | None = None
    mentions: tuple[Sender, ...] = ()  # users mentioned by text_mention/@username the adapter could resolve


@dataclass(frozen=True)
class Button:
    label: str
    data: str  # callback data, at most 64 bytes


@dataclass(frozen=True)
class SendText:
    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    reply_to: int | None = None
    edit_message_id: int | None = None  # edit this bot message instead of sending a new one


@dataclass(frozen=True)
class SendPhoto:
    path: str
    caption: str = ""


@dataclass(frozen=True)
class DeleteMessage:
    message_id: int


@dataclass(frozen=True)
class BanMember:
    user_id: int
    then_unban: bool = True  # ban-then-unban removes but lets them be invited back; False: a lasting ban


@dataclass(frozen=True)
class UnbanMember:
    user_id: int


Effect = SendText | SendPhoto | DeleteMessage | BanMember | UnbanMember


@dataclass
class Outcome:
    """What the layer wants done, in order."""

    effects: list[Effect] = field(default_factory=list)
