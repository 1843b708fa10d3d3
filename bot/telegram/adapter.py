"""Translate between python-telegram-bot and the command layer.

Updates become `Incoming` / `CallbackQuery` / `Join`; effects become Bot API calls. The command layer is
synchronous (it talks to the database), so it runs in a worker thread and never blocks the event loop. Effects are
carried out one by one: a reply Telegram refuses is logged and reported to the layer's failure hooks, and whatever
was booked before it stands. Between the two, each handler acknowledges the update (bot/telegram/delivery.py): its
effects go out only if this was the first time the update was handled to the end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime

from telegram import Bot as TelegramBot
from telegram import (
    ChatMember,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    MessageEntity,
    ReplyParameters,
    Update,
    User,
    WebAppInfo,
)
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import Application, ContextTypes

import bot.shared_state as shared_state
from bot.core import (
    AnswerCallback,
    BanMember,
    Bot,
    Button,
    CallbackQuery,
    DeleteMessage,
    Effect,
    Incoming,
    Join,
    Outcome,
    Quoted,
    SendDocument,
    Sender,
    SendPhoto,
    SendText,
    UnbanMember,
)
from bot.grammar import mention_word, spaced_usernames
from bot.telegram.delivery import CURRENT, acknowledge, retry_later
from ledger.shared_state import AdminLists

log = logging.getLogger(__name__)

#: the application's bot_data key holding the command layer
CORE_KEY = "paiju_core"
ADMINS_KEY = "paiju_admins"


def sender_of(user: User) -> Sender:
    return Sender(
        user_id=user.id,
        name=user.full_name,
        username=user.username,
        is_bot=user.is_bot,
        language=user.language_code,
    )


#: how long a worker trusts its own copy of a chat's admin list before reading the shared one again: moderation
#: and the command layer want the list on every message, and a shared read each time is a database round trip
LOCAL_SECONDS = 5.0


class AdminCache:
    """A chat's administrators, fetched with getChatAdministrators at most once per `ttl` seconds per chat.

    Moderation and 设置 check admins on many messages; asking Telegram every time would be slow and rate-limited.
    A chat_member update about an admin drops the chat's entry so promotions take effect at once. With `shared`
    (the bot's shared state) the entries are every worker's: one fetch serves all, one drop reaches all — the
    other workers within `local_seconds`, for which each keeps its own copy in memory (`clock` tells the time)."""

    def __init__(
        self,
        ttl: float = 300.0,
        shared: AdminLists | None = None,
        *,
        local_seconds: float = LOCAL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.shared = shared
        self.local = ttl if shared is None else min(ttl, local_seconds)
        self._clock = clock
        self._entries: dict[int, tuple[float, frozenset[int], int | None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    async def _cached(self, chat_id: int) -> tuple[frozenset[int], int | None] | None:
        entry = self._entries.get(chat_id)
        if entry is not None and self._clock() - entry[0] < self.local:
            return entry[1], entry[2]
        if self.shared is None:
            return None
        found = await asyncio.to_thread(self.shared.get, chat_id)
        if found is not None:
            self._entries[chat_id] = (self._clock(), *found)
        return found

    async def get(self, bot: TelegramBot, chat_id: int, chat_type: str) -> tuple[frozenset[int], int | None]:
        if chat_type == "private":
            return frozenset({chat_id}), chat_id  # in a private chat the user is their own admin
        found = await self._cached(chat_id)
        if found is not None:
            return found
        async with self._locks.setdefault(chat_id, asyncio.Lock()):
            found = await self._cached(chat_id)
            if found is not None:
                return found
            try:
                members = await bot.get_chat_administrators(chat_id)
            except TelegramError as err:
                log.warning("getChatAdministrators failed for chat %s: %s", chat_id, err)
                entry = self._entries.get(chat_id)
                return (entry[1], entry[2]) if entry else (frozenset(), None)
            admins = frozenset(m.user.id for m in members)
            owner = next((m.user.id for m in members if m.status == ChatMember.OWNER), None)
            self._entries[chat_id] = (self._clock(), admins, owner)
            if self.shared is not None:
                await asyncio.to_thread(self.shared.put, chat_id, admins, owner, self.ttl)
            return admins, owner

    def forget(self, chat_id: int) -> None:
        self._entries.pop(chat_id, None)
        if self.shared is not None:
            self.shared.forget(chat_id)


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.now(UTC)
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _text_and_entities(message: Message) -> tuple[str, tuple[MessageEntity, ...], bool]:
    """The message's text (or a media message's caption), its entities, and whether it was the caption."""
    if message.text is not None:
        return message.text, tuple(message.entities or ()), False
    return message.caption or "", tuple(message.caption_entities or ()), True


def mentions_of(message: Message) -> tuple[Sender, ...]:
    """Users the message names with a text mention: picked from Telegram's list, they carry their id."""
    _, entities, _ = _text_and_entities(message)
    return tuple(sender_of(e.user) for e in entities if e.type == MessageEntity.TEXT_MENTION and e.user is not None)


def usernames_of(message: Message) -> tuple[str, ...]:
    """The @usernames Telegram marked as `mention` entities (without the @): the command layer matches each only
    against the username Telegram reported on that member's own messages, never against a display name."""
    text, entities, _ = _text_and_entities(message)
    mentions = [entity for entity in entities if entity.type == MessageEntity.MENTION]
    if not mentions:
        return ()
    utf16 = text.encode("utf-16-le")  # Telegram counts offsets in UTF-16 code units, as PTB's parse_entities does
    said = (utf16[e.offset * 2 : (e.offset + e.length) * 2].decode("utf-16-le") for e in mentions)
    return tuple(dict.fromkeys(name.lstrip("@") for name in said))


def text_with_mentions(message: Message, bot_username: str = "") -> str:
    """The text, each text mention written `@<word>` (their username, else their name as one word: see
    `bot.grammar.mention_word`) and apart from the words around it (Telegram's offset and length say where the
    name ends: `阿杰已转8` picked from the list), so the grammar reads it as a person and the command layer finds
    its user id. An @username typed glued to the words after it is read apart from them too
    (`bot.grammar.spaced_usernames`: `@ajie已转8`, which Telegram marks as no mention)."""
    text, all_entities, _ = _text_and_entities(message)
    entities = [e for e in all_entities if e.type == MessageEntity.TEXT_MENTION and e.user]
    out, cursor = [], 0
    utf16 = text.encode("utf-16-le")
    for entity in sorted(entities, key=lambda e: e.offset):
        if entity.offset < cursor:
            continue  # overlapping entities (not sent by Telegram): the first one stands
        user = entity.user
        assert user is not None
        before = utf16[cursor * 2 : entity.offset * 2].decode("utf-16-le", errors="replace")
        out.append(f"{spaced_usernames(before, bot_username)} @{mention_word(user.username, user.full_name, user.id)} ")
        cursor = entity.offset + entity.length
    out.append(spaced_usernames(utf16[cursor * 2 :].decode("utf-16-le", errors="replace"), bot_username))
    return "".join(out)


def without_own_mention(text: str, bot_username: str) -> str:
    """`text` less a leading `@<bot_username>` (any case) when a space or the end follows it."""
    mention = f"@{bot_username}".casefold()
    start = len(text) - len(text.lstrip())
    head = text[start : start + len(mention)]
    if not bot_username or head.casefold() != mention or text[start + len(mention) :][:1] not in ("", " ", "\n"):
        return text
    return text[start + len(mention) :].lstrip()


def poster_of(message: Message) -> Sender | None:
    """Who a message is from: its user, or the channel a member posted it as ("send as" a channel; the user is
    then Telegram's Channel_Bot). A channel is moderated like a member under its own (negative) chat id; the
    linked channel's automatic forwards and anonymous admins (the group itself) stay with their service user."""
    chat = message.sender_chat
    if chat is not None and chat.type == "channel" and chat.id != message.chat_id and not message.is_automatic_forward:
        return Sender(user_id=chat.id, name=chat.title or str(chat.id), username=chat.username)
    return sender_of(message.from_user) if message.from_user is not None else None


def incoming_of(update: Update, admins: frozenset[int], owner: int | None, bot_username: str = "") -> Incoming | None:
    """A message (new or edited) as the command layer's `Incoming`. Stickers, photos and the like come through
    too, with their caption or an empty text, so message filters (flood rules) count them; no command matches.
    A line that starts by mentioning the bot (`@paiju_bot 余额`, what a group with privacy mode on must write) is
    read without that mention."""
    message = update.edited_message or update.message
    poster = poster_of(message) if message is not None else None
    if message is None or poster is None:
        return None
    chat_id, edited = message.chat_id, update.edited_message is not None
    source = f"tg:{chat_id}:{message.message_id}"
    if edited:  # each edit is its own update: two edits in one second differ, a redelivered one is the same
        source += f":e{update.update_id}"
    reply = message.reply_to_message
    quoted = None
    if reply is not None:
        quoted = Quoted(reply.message_id, sender_of(reply.from_user) if reply.from_user else None, reply.text or "")
    return Incoming(
        chat_id=chat_id,
        message_id=message.message_id,
        sender=poster,
        text=without_own_mention(text_with_mentions(message, bot_username), bot_username),
        date=_utc(message.edit_date if edited else message.date),
        source=source,
        chat_title=message.chat.title or "",
        reply_to=quoted,
        edited=edited,
        admin_ids=admins,
        owner_id=owner,
        mentions=mentions_of(message),
        usernames=usernames_of(message),
        photo_file_id=message.photo[-1].file_id if message.photo else "",
        sticker_id=message.sticker.file_unique_id if message.sticker else "",
    )


def _button(button: Button) -> InlineKeyboardButton:
    """A callback button, or a link: a Mini App (`web_app`, private chats only) or a plain/direct `t.me` link."""
    if button.url:
        if button.web_app:
            return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.url))
        return InlineKeyboardButton(button.label, url=button.url)
    return InlineKeyboardButton(button.label, callback_data=button.data)


def keyboard(rows: tuple[tuple[Button, ...], ...]) -> InlineKeyboardMarkup | None:
    if not rows:
        return None
    return InlineKeyboardMarkup([[_button(b) for b in row] for row in rows])


#: Telegram's limit on one message's text
MAX_MESSAGE = 4096


def split_text(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Cut a text at line ends into pieces Telegram accepts: none longer than `limit`, none blank (Telegram
    refuses an empty message); a single over-long line is cut hard."""
    pieces: list[str] = []
    current: str | None = None
    for line in text.split("\n"):
        while len(line) > limit:
            if current is not None:
                pieces.append(current)
                current = None
            pieces.append(line[:limit])
            line = line[limit:]
        if current is None:
            current = line
        elif len(current) + 1 + len(line) <= limit:
            current += "\n" + line
        else:
            pieces.append(current)
            current = line
    pieces.append(current or "")
    return [piece for piece in pieces if piece.strip()] or [text[:limit]]


class Executor:
    """Carries out effects for one chat; a refused effect is logged and handed to the failure hooks."""

    def __init__(self, core: Bot, bot: TelegramBot, chat_id: int, query_id: str | None = None) -> None:
        self.core, self.bot, self.chat_id, self.query_id = core, bot, chat_id, query_id

    async def run(self, outcome: Outcome, *, depth: int = 0) -> list[Message]:
        sent: list[Message] = []
        for effect in outcome.effects:
            try:
                try:
                    message = await self._one(effect)
                except ChatMigrated as moved:  # the group became a supergroup: say it there
                    log.info("chat %s moved to %s: sending there", self.chat_id, moved.new_chat_id)
                    self.chat_id = moved.new_chat_id
                    message = await self._one(effect)
            except (BadRequest, Forbidden) as err:
                log.warning("chat %s: %s refused: %s", self.chat_id, type(effect).__name__, err)
                if depth == 0:
                    me = sender_of(self.bot.bot)
                    follow = await asyncio.to_thread(
                        self.core.handle_effect_failure, self.chat_id, effect, str(err), me
                    )
                    sent += await self.run(follow, depth=1)
                continue
            if message is not None:
                sent.append(message)
                if isinstance(effect, SendText) and effect.posted_as and effect.edit_message_id is None:
                    await asyncio.to_thread(self.core.handle_posted, self.chat_id, effect.posted_as, message.message_id)
        return sent

    async def _send_text(
        self, text: str, markup: InlineKeyboardMarkup | None = None, reply_to: int | None = None
    ) -> Message:
        """Send a text, as several messages when it is longer than Telegram allows; the buttons go under the
        last piece, the reply under the first. Returns the last message (the one that carries the buttons)."""
        pieces = split_text(text)
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        sent = None
        for index, piece in enumerate(pieces):
            buttons = markup if index == len(pieces) - 1 else None
            first_reply = reply if index == 0 else None
            sent = await self.bot.send_message(self.chat_id, piece, reply_markup=buttons, reply_parameters=first_reply)
        assert sent is not None  # split_text always returns at least one piece
        return sent

    async def _one(self, effect: Effect) -> Message | None:
        if isinstance(effect, SendText):
            markup = keyboard(effect.buttons)
            if effect.edit_message_id is not None:
                try:
                    edited = await self.bot.edit_message_text(
                        effect.text, chat_id=self.chat_id, message_id=effect.edit_message_id, reply_markup=markup
                    )
                except BadRequest as err:
                    if "not modified" in err.message.lower():
                        return None  # it reads so already (a post rewritten that nothing changed): done
                    raise
                return edited if isinstance(edited, Message) else None
            return await self._send_text(effect.text, markup, effect.reply_to)
        if isinstance(effect, SendPhoto):
            markup = keyboard(effect.buttons)
            try:
                if effect.file_id:  # a picture Telegram holds (a member's 收款码): sent again by its id
                    return await self.bot.send_photo(
                        self.chat_id, effect.file_id, caption=effect.caption or None, reply_markup=markup
                    )
                with open(effect.path, "rb") as photo:
                    return await self.bot.send_photo(
                        self.chat_id, photo, caption=effect.caption or None, reply_markup=markup
                    )
            except (BadRequest, OSError) as err:
                if not effect.caption:
                    raise
                # the group may forbid media, or the picture be unreadable: the words must still arrive
                log.warning("chat %s: photo %s not sent (%s); its caption goes as text", self.chat_id, effect.path, err)
                return await self._send_text(effect.caption, markup)
        if isinstance(effect, SendDocument):
            with open(effect.path, "rb") as document:
                return await self.bot.send_document(self.chat_id, document, caption=effect.caption or None)
        if isinstance(effect, DeleteMessage):
            await self.bot.delete_message(self.chat_id, effect.message_id)
        elif isinstance(effect, BanMember) and effect.user_id < 0:  # a channel members posted as
            await self.bot.ban_chat_sender_chat(self.chat_id, effect.user_id)
            if effect.then_unban:
                await self.bot.unban_chat_sender_chat(self.chat_id, effect.user_id)
        elif isinstance(effect, BanMember):
            await self.bot.ban_chat_member(self.chat_id, effect.user_id)
            if effect.then_unban:
                await self.bot.unban_chat_member(self.chat_id, effect.user_id, only_if_banned=True)
        elif isinstance(effect, UnbanMember) and effect.user_id < 0:
            await self.bot.unban_chat_sender_chat(self.chat_id, effect.user_id)
        elif isinstance(effect, UnbanMember):
            await self.bot.unban_chat_member(self.chat_id, effect.user_id, only_if_banned=True)
        elif isinstance(effect, AnswerCallback) and self.query_id is not None:
            await self.bot.answer_callback_query(self.query_id, text=effect.text or None, show_alert=effect.alert)
        return None


# -------------------------------------------------------------------------------------------- PTB callbacks


def _core(context: ContextTypes.DEFAULT_TYPE) -> Bot:
    core: Bot = context.application.bot_data[CORE_KEY]
    return core


def _admins(context: ContextTypes.DEFAULT_TYPE) -> AdminCache:
    cache: AdminCache = context.application.bot_data[ADMINS_KEY]
    return cache


async def on_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A text message or an edit: filters, then the command it starts with."""
    message = update.edited_message or update.message
    if message is None:
        return
    admins, owner = await _admins(context).get(context.bot, message.chat_id, message.chat.type)
    incoming = incoming_of(update, admins, owner, context.bot.username)
    if incoming is None:
        return
    try:
        outcome = await asyncio.to_thread(_core(context).handle_message, incoming)
    except Exception as err:
        if not retry_later(err):
            await _apologise(context, incoming.chat_id, incoming.message_id)
        raise  # the error handler logs it with the update
    if await acknowledge():
        await Executor(_core(context), context.bot, incoming.chat_id).run(outcome)


async def _apologise(context: ContextTypes.DEFAULT_TYPE, chat_id: int, reply_to: int | None) -> None:
    """A bug below the adapter: tell the group (a transaction either committed whole or not at all)."""
    from bot.texts import text

    try:
        group = await asyncio.to_thread(_core(context).group, chat_id)
        lang = group.language if group is not None else "zh"
    except Exception:
        lang = "zh"
    notice = SendText(text(lang, "internal_error"), reply_to=reply_to)
    if await acknowledge():  # handled, badly: said once, not retried
        await Executor(_core(context), context.bot, chat_id).run(Outcome([notice]), depth=1)


async def on_callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None or query.message is None or query.data is None:
        return
    chat = query.message.chat
    admins, owner = await _admins(context).get(context.bot, chat.id, chat.type)
    event = CallbackQuery(
        query_id=query.id,
        chat_id=chat.id,
        message_id=query.message.message_id,
        sender=sender_of(query.from_user),
        data=query.data,
        date=datetime.now(UTC),
        source=f"tg:{chat.id}:cb{query.id}",
        admin_ids=admins,
        owner_id=owner,
    )
    try:
        outcome = await asyncio.to_thread(_core(context).handle_callback, event)
    except Exception as err:
        if not retry_later(err):
            await _apologise(context, chat.id, None)
        raise
    if await acknowledge():
        await Executor(_core(context), context.bot, chat.id, query.id).run(outcome)


def _joins(update: Update) -> Iterable[tuple[int, User, datetime, str, str, bool]]:
    """(chat, user, date, source, title, joined?) for new_chat_members messages and chat_member updates."""
    message = update.message
    if message is not None and message.new_chat_members:
        for user in message.new_chat_members:
            source = f"tg:{message.chat_id}:{message.message_id}:j{user.id}"
            yield message.chat_id, user, _utc(message.date), source, message.chat.title or "", True
    if message is not None and message.left_chat_member is not None:
        user = message.left_chat_member
        source = f"tg:{message.chat_id}:{message.message_id}:l{user.id}"
        yield message.chat_id, user, _utc(message.date), source, message.chat.title or "", False
    changed = update.chat_member
    if changed is not None:
        was, now = changed.difference().get("status", (None, None))
        if was is None:
            return
        inside = {ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER, ChatMember.RESTRICTED}
        user = changed.new_chat_member.user
        source = f"tg:{changed.chat.id}:cm{user.id}:{int(_utc(changed.date).timestamp())}"
        if was not in inside and now in inside:
            yield changed.chat.id, user, _utc(changed.date), source, changed.chat.title or "", True
        elif was in inside and now not in inside:
            yield changed.chat.id, user, _utc(changed.date), source, changed.chat.title or "", False


async def on_member(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Joins and leaves (service messages and chat_member updates); admin changes refresh the admin cache."""
    changed = update.chat_member or update.my_chat_member
    if changed is not None:
        statuses = {changed.old_chat_member.status, changed.new_chat_member.status}
        if statuses & {ChatMember.ADMINISTRATOR, ChatMember.OWNER}:
            _admins(context).forget(changed.chat.id)
    if update.my_chat_member is not None:
        await _introduce(update, context)
        return
    for chat_id, user, date, source, title, joined in _joins(update):
        if user.id == context.bot.id:
            continue
        chat_type = update.effective_chat.type if update.effective_chat else "group"
        admins, owner = await _admins(context).get(context.bot, chat_id, chat_type)
        event = Join(chat_id, sender_of(user), date, source, title, admins, owner)
        handle = _core(context).handle_join if joined else _core(context).handle_leave
        outcome = await asyncio.to_thread(handle, event)
        if await acknowledge():  # several joins in one update: the first acknowledgement decides for all
            await Executor(_core(context), context.bot, chat_id).run(outcome)


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group was upgraded to a supergroup and has a new chat id: Telegram says so in both chats (the old one
    with `migrate_to_chat_id`, the new one with `migrate_from_chat_id`), in either order. The first moves the
    group's ledger to the new id; the other finds it moved (one source for both)."""
    message = update.message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat_id
    else:
        return
    _admins(context).forget(old)
    await asyncio.to_thread(_core(context).handle_migration, old, new, f"tg:{old}:moved")
    await acknowledge()


async def _introduce(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was added to a group: say what it does, in the group's language, with the first command."""
    changed = update.my_chat_member
    assert changed is not None
    inside = {ChatMember.MEMBER, ChatMember.ADMINISTRATOR}
    if changed.old_chat_member.status in inside or changed.new_chat_member.status not in inside:
        return
    core = _core(context)
    group = await asyncio.to_thread(core.group, changed.chat.id, changed.chat.title or "")
    from bot.texts import text

    greeting = SendText(text(group.language if group is not None else "zh", "bot_added"))
    if await acknowledge():
        await Executor(core, context.bot, changed.chat.id).run(Outcome([greeting]))


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log and carry on: the booking (if any) was committed before any reply was attempted."""
    delivery = CURRENT.get()
    if delivery is not None and context.error is not None and delivery.transient_error is context.error:
        log.warning("database unavailable, the update will be tried again: %s", context.error)
        return
    log.error("error while handling an update: %s", context.error, exc_info=context.error)


def install(application: Application, core: Bot, admin_cache_seconds: float) -> None:
    """Register the handlers of the command layer on a PTB application."""
    from telegram.ext import CallbackQueryHandler, ChatMemberHandler, MessageHandler, filters

    application.bot_data[CORE_KEY] = core
    application.bot_data[ADMINS_KEY] = AdminCache(admin_cache_seconds, shared_state.admin_lists(core))
    service = filters.StatusUpdate.NEW_CHAT_MEMBERS | filters.StatusUpdate.LEFT_CHAT_MEMBER
    application.add_handler(MessageHandler(service, on_member))
    application.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    # a text message is no service message (the Bot API sends those without text): asked first, it spares every
    # text the ~45 checks of StatusUpdate.ALL (~25 µs), which still sort the rest (photos, stickers, service messages)
    said = filters.TEXT | ~filters.StatusUpdate.ALL
    application.add_handler(MessageHandler(filters.UpdateType.MESSAGES & said, on_message))
    application.add_handler(CallbackQueryHandler(on_callback))
    application.add_handler(ChatMemberHandler(on_member, ChatMemberHandler.ANY_CHAT_MEMBER))
    application.add_error_handler(on_error)
