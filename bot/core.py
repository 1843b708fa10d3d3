"""The command layer both adapters share: a chat event in, a list of effects out.

Synchronous and free of Telegram: the console and the Telegram adapter translate their input into these
types, call the layer, and execute the effects it returns. Anything tested through the console is therefore
what a Telegram group gets.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ledger.service import GroupInfo, Ledger, TableInfo

log = logging.getLogger(__name__)


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
    corrected: bool = False  # with `edited`: no message was edited, a player's 改成 replaces what one recorded
    admin_ids: frozenset[int] = frozenset()  # the chat's administrators (owner included), as the adapter caches them
    owner_id: int | None = None
    mentions: tuple[Sender, ...] = ()  # users named by a text mention (Telegram gave their id), written `@<word>`
    usernames: tuple[str, ...] = ()  # the @usernames Telegram marked as `mention` entities (without the @)
    photo_file_id: str = ""  # a photo's file id (its largest size) when the message is a photo; `text` is its caption
    sticker_id: str = ""  # a sticker's file_unique_id (the same sticker has the same one, whoever sends it)

    @property
    def original_source(self) -> str:
        """The source of the message as first sent (an edit's source without its `:e<edit>` suffix)."""
        return original_source(self.source)

    @property
    def replied_source(self) -> str | None:
        """The source the message this one replies to had as first sent (what it recorded is found by it: a reply's
        撤销), None when it replies to nothing. The chat is this message's: a reply never reaches another chat."""
        if self.reply_to is None:
            return None
        return f"{self.original_source.rsplit(':', 1)[0]}:{self.reply_to.message_id}"


def original_source(source: str) -> str:
    """A record's source as its message first sent it (an edit's or a button's `:e<n>` dropped)."""
    head, sep, tail = source.rpartition(":e")
    return head if sep and tail.isdigit() else source


@dataclass(frozen=True)
class Button:
    label: str
    data: str  # callback data, at most 64 bytes
    url: str = ""  # a link button instead: opens this address (a t.me Mini App link in a group)
    web_app: bool = False  # with `url`: open the address as a Mini App (Telegram allows that in private chats)


@dataclass(frozen=True)
class SendText:
    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    reply_to: int | None = None
    edit_message_id: int | None = None  # edit this bot message instead of sending a new one
    asks: bool = False  # a question whose answer books the record: nothing is booked yet
    #: `prefix:key`: the adapter tells the message it was sent as (`Bot.handle_posted`), to be edited later
    posted_as: str = ""


@dataclass(frozen=True)
class SendPhoto:
    """A picture: a file the bot made (`path`), or one Telegram already holds, sent again by its `file_id` (a
    member's 收款码). `buttons` go under it."""

    path: str = ""
    caption: str = ""
    buttons: tuple[tuple[Button, ...], ...] = ()
    file_id: str = ""


@dataclass(frozen=True)
class SendDocument:
    """A file for the group to download (an export); Telegram sends it with sendDocument."""

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


@dataclass(frozen=True)
class AnswerCallback:
    """The small notice shown to whoever pressed a button (an alert box when `alert`)."""

    text: str = ""
    alert: bool = False


Effect = SendText | SendPhoto | SendDocument | DeleteMessage | BanMember | UnbanMember | AnswerCallback


@dataclass
class Outcome:
    """What the layer wants done, in order. A message filter sets `stop` to end processing of the message."""

    effects: list[Effect] = field(default_factory=list)
    stop: bool = False
    refused: bool = False  # the command was refused (its reply says why) and booked nothing
    heard: bool = False  # a refusal said even to a line read without its command word (`Refusal.heard`)


@dataclass(frozen=True)
class CallbackQuery:
    """A press on an inline button under a bot message."""

    query_id: str
    chat_id: int
    message_id: int  # the bot message carrying the buttons
    sender: Sender
    data: str
    date: datetime
    source: str  # "tg:<chat>:cb<query id>" or "console:<line>"
    admin_ids: frozenset[int] = frozenset()
    owner_id: int | None = None


@dataclass(frozen=True)
class Join:
    """A member joined (or left, for `handle_leave`) the group."""

    chat_id: int
    member: Sender
    date: datetime
    source: str
    chat_title: str = ""
    admin_ids: frozenset[int] = frozenset()
    owner_id: int | None = None


# --------------------------------------------------------------------------------------------------------------
# Clock: handlers never read the wall clock themselves, so the console can script time (`!clock +10s`).


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to: deterministic transcripts and tests."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 10, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        self._now += delta

    def set(self, moment: datetime) -> None:
        self._now = moment


# --------------------------------------------------------------------------------------------------------------
# Handler context and refusals


class Quiet(Exception):
    """Raised by a handler that has nothing to say and booked nothing (an edit that changed nothing, a question
    already asked for this very update): no reply at all."""


class Refusal(Exception):
    """Raised by a handler to refuse with a player-facing text (a key of `bot.texts`); nothing is booked."""

    #: said even to a line read without its command word (`Context.unprompted`), which a refusal otherwise leaves
    #: unanswered: set where every word of the line is a record's, so it cannot be chat (`@乙 暗杠 3s` at a 碰胡 table)
    heard = False

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass
class Context:
    """What a handler gets: the ledger, the chat's group and open table (read once, before any handler runs),
    the event, the chat's language and the clock.

    Exactly one of `incoming`, `callback`, `join` is set. `word` is the command word that matched (e.g. "暗杠"),
    `args` the rest of the text after it. `table` is the chat's open table as it was when the event arrived; a
    booking checks it is still open. `game` is the game commands are read for: the open table's (a table keeps
    the game it was opened with when the group changes its own), else the group's.
    """

    bot: Bot
    service: Ledger
    chat_id: int
    sender: Sender
    source: str
    lang: str
    clock: Clock
    group: GroupInfo
    game: str = "kawuxing"
    table: TableInfo | None = None
    incoming: Incoming | None = None
    callback: CallbackQuery | None = None
    join: Join | None = None
    command: Command | None = None
    word: str = ""
    args: str = ""
    admin_ids: frozenset[int] = frozenset()
    owner_id: int | None = None
    #: a record confirmed as a genuine repeat (「确实又一次」): booked without the double-entry check
    repeat: bool = False
    #: a win confirmed as the other win of the hand just ended on the same discard (「一炮双响」): booked into it
    double_win: bool = False
    #: 漂 a correction tells of the hand just ended (`改成 漂 @丙 2`, `老王没漂`): booked with its win, after what
    #: the hand was told (`regional.prepare`), as (player, amount)
    piao_told: tuple[tuple[str, int], ...] = ()
    #: read from a line that does not start with its command word (`grammar.unprompted`: `清一色 自摸`, `@乙 胡了 …`):
    #: booked when it reads cleanly, otherwise silent — no refusal, question or suggestion answers what may be chat
    unprompted: bool = False
    #: a record told after the fact (`grammar.recalls`: `阿杰 刚才 自摸 清一色`, `刚才那把我自摸 …`): it tells the hand
    #: just recorded, when that one ended a hand (the double-entry check)
    recap: bool = False
    #: how many button flows the sender started in this chat were still waiting when the event arrived (questions of
    #: theirs, `ChatView.waiting`): none, and nothing of theirs needs looking up
    waiting: int = 0
    #: how many 胡/杠 told by taps (anyone's) were still waiting in this chat (`ChatView.tapping`): none, and no
    #: record needs looking up whether one of them holds its hand
    tapping: int = 0
    #: the line answered a question the bot asked (`bot.commands.questions`: its flow finished): never flooding
    answered: bool = False
    #: effects a handler queued to go out after its own reply (the night the 日切 hour closed: its settlement post)
    follow: list[Effect] = field(default_factory=list)
    #: `said()`'s reading of the message, by the game it was read in
    _said: dict[str, tuple[Command, str, str] | None] = field(default_factory=dict, init=False, repr=False)

    def now(self) -> datetime:
        return self.clock.now()

    @property
    def seat_names(self) -> list[str]:
        """The names at the chat's open table (none without one): a record may start with one (`老王 碰 点 @小李`);
        a seat's person part too (`王建国` for `王建国-成员`, `bot.seat_names`)."""
        from bot.seat_names import by_person_part

        if self.table is None:
            return []
        return [*self.table.players, *by_person_part(self.table.players)]

    def said(self) -> tuple[Command, str, str] | None:
        """The command the message starts with, the word that named it and its arguments (`grammar.split_command`
        in `game`, with the open table's seats); None for no command, no message, or a record or payment said in jest
        (`grammar.in_jest`: `胡了胡了 开玩笑的`). Read once per game: moderation
        asks before the dispatcher does, and an edit is read again in the game it recorded at."""
        from bot.grammar import in_jest, split_command

        if self.incoming is None:
            return None
        if self.game not in self._said:
            text = self.incoming.text
            said = split_command(text, self.bot.registry, self.game, self.seat_names)
            self._said[self.game] = None if said is not None and in_jest(text, said[0].key) else said
        return self._said[self.game]

    @property
    def is_admin(self) -> bool:
        return self.sender.user_id in self.admin_ids or self.sender.user_id == self.owner_id

    def t(self, key: str, /, **params: object) -> str:
        """The text `key` in the chat's language."""
        from bot.texts import text

        return text(self.lang, key, **params)

    @property
    def message_id(self) -> int | None:
        """The triggering message (what a reply answers); None for a button press or a join."""
        return self.incoming.message_id if self.incoming else None

    def reply(self, key: str, /, **params: object) -> SendText:
        """A reply to the triggering message, in the chat's language."""
        return SendText(self.t(key, **params), reply_to=self.message_id)


HandlerResult = Outcome | Sequence[Effect] | Effect | None
Handler = Callable[[Context], HandlerResult]
PostedHook = Callable[["Ledger", int, str, int, bool], None]


def _as_outcome(result: HandlerResult) -> Outcome:
    if result is None:
        return Outcome()
    if isinstance(result, Outcome):
        return result
    if isinstance(result, Sequence):
        return Outcome(list(result))
    return Outcome([result])


# --------------------------------------------------------------------------------------------------------------
# Registry: where every module (ours, moderation, reports, 够级/碰胡) plugs in without editing this file.


@dataclass(frozen=True)
class Command:
    """One chat command. `names` are Latin (Telegram's menu, typed with a slash); `aliases` are words typed
    without a slash (Chinese first: 开桌, 胡, 杠 …), matched at the start of a message."""

    key: str
    names: tuple[str, ...]
    aliases: tuple[str, ...]
    handler: Handler
    help_zh: str
    help_en: str
    admin_only: bool = False
    in_menu: bool = True  # listed in Telegram's command menu (setMyCommands)
    games: tuple[str, ...] = ()  # only for tables of these games; empty = every game
    on_edit: bool = False  # an edited message runs it again (recording commands re-record); else edits are ignored
    #: what its word may be typed glued to, read as its arguments (`设置底金2`): whether the folded text after the
    #: word starts so; such a line acts only when it reads cleanly (`bot.grammar.unprompted`)
    glued: Callable[[str], bool] | None = None

    def help(self, lang: str) -> str:
        return self.help_en if lang == "en" and self.help_en else self.help_zh


@dataclass(frozen=True)
class _Filter:
    name: str
    priority: int
    func: Callable[[Context], Outcome | None]


class Registry:
    """Commands, callback prefixes, message filters and join/leave hooks.

    Modules register at import time with the decorators of the module-level `registry`; `Bot` imports every
    module of the plugin packages (`PLUGIN_PACKAGES`) before it handles anything.
    """

    def __init__(self) -> None:
        self.commands: dict[str, Command] = {}
        self.conflicts: list[str] = []  # registrations left out because they clashed with an earlier one
        self._words: dict[str, list[Command]] = {}  # lowercased Latin name or alias -> commands (one per game)
        self.callbacks: dict[str, Callable[[Context], HandlerResult]] = {}
        self.filters: list[_Filter] = []
        self.join_hooks: list[Callable[[Context], HandlerResult]] = []
        self.leave_hooks: list[Callable[[Context], HandlerResult]] = []
        self.failure_hooks: list[Callable[[Context, Effect, str], HandlerResult]] = []
        self.edit_hooks: list[Callable[[Context], HandlerResult]] = []
        self.posted_hooks: dict[str, PostedHook] = {}
        self.command_hooks: list[Callable[[Context, Outcome], Outcome]] = []

    def add_command(self, command: Command) -> Command:
        """Register a command. Two commands may share a word only for different games (卡五星's 胡, 碰胡's 胡).

        A clash is a bug in a plugin, but it must not take the whole bot down: the later command is left out,
        logged, and listed in `conflicts` (a test asserts the list is empty)."""
        clash = None
        if command.key in self.commands:
            clash = f"command {command.key!r} registered twice"
        for word in (*command.names, *command.aliases):
            for other in self._words.get(word.lower(), []):
                if not command.games or not other.games or set(command.games) & set(other.games):
                    clash = clash or f"command word {word!r} of {command.key!r} already belongs to {other.key!r}"
        if clash is not None:
            log.error("%s: left out", clash)
            self.conflicts.append(clash)
            return command
        for word in (*command.names, *command.aliases):
            self._words.setdefault(word.lower(), []).append(command)
        self.commands[command.key] = command
        return command

    def command(
        self,
        key: str,
        *,
        names: Iterable[str] = (),
        aliases: Iterable[str] = (),
        help_zh: str = "",
        help_en: str = "",
        admin_only: bool = False,
        in_menu: bool = True,
        games: Iterable[str] = (),
        on_edit: bool = False,
        glued: Callable[[str], bool] | None = None,
    ) -> Callable[[Handler], Handler]:
        """Decorator: `@registry.command("balance", names=["balance"], aliases=["余额"], help_zh=…, help_en=…)`."""

        def register(handler: Handler) -> Handler:
            self.add_command(
                Command(
                    key=key,
                    names=tuple(names) or (key,),
                    aliases=tuple(aliases),
                    handler=handler,
                    help_zh=help_zh,
                    help_en=help_en,
                    admin_only=admin_only,
                    in_menu=in_menu,
                    games=tuple(games),
                    on_edit=on_edit,
                    glued=glued,
                )
            )
            return handler

        return register

    def callback(self, prefix: str) -> Callable[[Handler], Handler]:
        """Decorator: button presses whose data starts with `prefix` + ":" go to the handler."""

        def register(handler: Handler) -> Handler:
            if prefix in self.callbacks:
                raise ValueError(f"callback prefix {prefix!r} registered twice")
            if ":" in prefix:
                raise ValueError("a callback prefix may not contain ':'")
            self.callbacks[prefix] = handler
            return handler

        return register

    def message_filter(
        self, name: str, priority: int = 0
    ) -> Callable[[Callable[[Context], Outcome | None]], Callable[[Context], Outcome | None]]:
        """Decorator: runs on every group message before commands, lowest priority first.

        Return None to pass, or an Outcome whose effects are executed; `Outcome(stop=True)` ends processing
        (the message is not treated as a command).
        """

        def register(func: Callable[[Context], Outcome | None]) -> Callable[[Context], Outcome | None]:
            self.filters.append(_Filter(name, priority, func))
            self.filters.sort(key=lambda f: f.priority)
            return func

        return register

    def after_command(self, func: Callable[[Context, Outcome], Outcome]) -> Callable[[Context, Outcome], Outcome]:
        """Decorator: runs after a message's command with the command's outcome (`refused`: it booked nothing) and
        returns the outcome to send instead (moderation counts a refused line toward flooding, and answers a line
        of a punished burst with nothing)."""
        self.command_hooks.append(func)
        return func

    def on_join(self, func: Handler) -> Handler:
        self.join_hooks.append(func)
        return func

    def on_unread_edit(self, func: Handler) -> Handler:
        """Decorator: an edited message no recording command reads again (chat now, or another command)."""
        self.edit_hooks.append(func)
        return func

    def on_leave(self, func: Handler) -> Handler:
        self.leave_hooks.append(func)
        return func

    def on_posted(self, prefix: str) -> Callable[[PostedHook], PostedHook]:
        """Decorator: a text sent with `posted_as` = `prefix:key` was sent as a message; the hook gets the ledger,
        the chat, the key, the message's id (kept, to edit that message when a typed line changes it) and whether
        it was asked in English in a group that is not (`ENGLISH_PRESS`)."""

        def register(func: PostedHook) -> PostedHook:
            self.posted_hooks[prefix] = func
            return func

        return register

    def on_effect_failed(
        self, func: Callable[[Context, Effect, str], HandlerResult]
    ) -> Callable[[Context, Effect, str], HandlerResult]:
        """Decorator: the adapter could not carry out an effect (e.g. no right to delete or ban); the hook gets
        the effect and the API's error text and may answer with effects of its own (say so once, in the group)."""
        self.failure_hooks.append(func)
        return func

    def lookup(self, word: str, game: str | None = None) -> Command | None:
        """The command a word names in a chat playing `game` (a game-specific one before a general one)."""
        candidates = self._words.get(word.lower(), [])
        specific = [c for c in candidates if game in c.games]
        general = [c for c in candidates if not c.games]
        found = specific or general
        return found[0] if found else None

    def words(self) -> Collection[str]:
        return self._words.keys()

    def menu(self, lang: str = "zh") -> list[tuple[str, str]]:
        """(name, description) pairs for Telegram's command menu: each command's first Latin name."""
        return [(c.names[0], c.help(lang).split("\n")[0][:256]) for c in self.commands.values() if c.in_menu]


#: The registry every module registers into.
registry = Registry()

#: Packages whose every module is imported (and so registers) before the bot handles anything. Packages that do
#: not exist yet are skipped, so moderation/reports/games plug in by adding files, never by editing this one.
PLUGIN_PACKAGES = ("bot.commands", "bot.moderation", "bot.reports", "bot.games")


def load_plugins(packages: Iterable[str] = PLUGIN_PACKAGES) -> None:
    for package_name in packages:
        try:
            package = importlib.import_module(package_name)
        except ModuleNotFoundError as err:
            if err.name and package_name.startswith(err.name):
                continue  # the package does not exist (yet)
            raise
        for info in pkgutil.walk_packages(getattr(package, "__path__", []), prefix=package_name + "."):
            if info.name.rsplit(".", 1)[-1].startswith("_") or ".tests" in info.name or info.name.endswith(".cli"):
                continue
            importlib.import_module(info.name)


# --------------------------------------------------------------------------------------------------------------
# The dispatcher


class Bot:
    """Turns chat events into effects. One instance per process; stateless between events (state is in the
    ledger), so two processes over one database behave as one."""

    def __init__(self, service: Ledger, clock: Clock | None = None, reg: Registry | None = None) -> None:
        self.service = service  # None only in tests of the dispatcher's routing
        self.clock: Clock = clock or SystemClock()
        self.registry = reg or registry
        self._known: set[tuple[int, int, str, str | None]] = set()  # members already written to the ledger
        #: told of what an operator counts, as observe(event, detail): ("refusal", text key or error code)
        self.observe: Callable[[str, str], None] = lambda event, detail: None
        if reg is None:
            load_plugins()

    def group(self, chat_id: int, title: str = "") -> GroupInfo | None:
        """The chat's group settings from the ledger (created on first sight); None without a ledger."""
        return None if self.service is None else self.service.group(chat_id, title=title)

    def _context(
        self,
        chat_id: int,
        sender: Sender,
        source: str,
        admin_ids: frozenset[int],
        owner_id: int | None,
        title: str = "",
        **event: Any,
    ) -> Context:
        if self.service is None:  # routing tests: no ledger behind the dispatcher
            group, table, waiting, tapping = _offline_group(chat_id), None, 0, 0
        else:  # one read: the group (created on first sight), its open table and the sender's flows waiting
            view = self.service.chat(chat_id, title=title, user_id=sender.user_id)
            group, table, waiting, tapping = view.group, view.table, view.waiting, view.tapping
            chat_id = group.chat_id  # an update of a chat that moved to a new id (a supergroup) acts there
        return Context(
            bot=self,
            service=self.service,
            chat_id=chat_id,
            sender=sender,
            source=source,
            lang=group.language,
            game=table.game if table is not None else group.game,
            group=group,
            table=table,
            clock=self.clock,
            admin_ids=admin_ids,
            owner_id=owner_id,
            waiting=waiting,
            tapping=tapping,
            **event,
        )

    def _remember(self, chat_id: int, sender: Sender) -> None:
        """Keep the ledger's member row current (name, @username) so a later `@username` finds them; written
        once per process for each distinct (chat, user, name, username)."""
        key = (chat_id, sender.user_id, sender.name, sender.username)
        if self.service is None or sender.is_bot or key in self._known:
            return
        self.service.member(chat_id, sender.user_id, sender.name, sender.username)
        self._known.add(key)

    def _run(self, ctx: Context, handler: Callable[[Context], HandlerResult]) -> Outcome:
        """Run one handler; a Refusal becomes its text, any ledger/scoring refusal its message; then what the
        handler queued to follow its reply (`Context.follow`)."""
        outcome = self._refusing(ctx, handler)
        outcome.effects.extend(ctx.follow)  # what the handler booked stands, whatever it said afterwards
        ctx.follow = []
        return outcome

    def _refusing(self, ctx: Context, handler: Callable[[Context], HandlerResult]) -> Outcome:
        from bot.texts import refusal_text
        from ledger.errors import ScoringRefused

        try:
            return _as_outcome(handler(ctx))
        except Quiet:
            return Outcome()
        except Refusal as refusal:
            self.observe("refusal", refusal.key)
            reply_to = ctx.message_id
            message = ctx.t(refusal.key, **refusal.params)
            if ctx.callback is not None:
                return Outcome([AnswerCallback(message, alert=True)], refused=True)
            return Outcome([SendText(message, reply_to=reply_to)], refused=True, heard=refusal.heard)
        except Exception as err:
            message_or_none = refusal_text(ctx.lang, err)
            if message_or_none is None:
                raise
            self.observe("refusal", str(getattr(err, "code", type(err).__name__)))
            if ctx.callback is not None:
                return Outcome([AnswerCallback(message_or_none, alert=True)], refused=True)
            # the scoring core refuses only a record read whole (`@老王 胡 点 @小李` under 屁胡只能自摸): no chat
            heard = isinstance(err, ScoringRefused)
            return Outcome([SendText(message_or_none, reply_to=ctx.message_id)], refused=True, heard=heard)

    # -- events --------------------------------------------------------------------------------------------
    def handle_message(self, incoming: Incoming) -> Outcome:
        """Filters first (moderation), then the command the text starts with, if any."""
        from bot.grammar import plainly_meant, recalls, unprompted, written_in_english
        from bot.vocabulary import RECORD_COMMANDS

        ctx = self._context(
            incoming.chat_id,
            incoming.sender,
            incoming.source,
            incoming.admin_ids,
            incoming.owner_id,
            title=incoming.chat_title,
            incoming=incoming,
        )
        self._remember(incoming.chat_id, incoming.sender)
        outcome = Outcome()
        if not incoming.edited:
            for flt in self.registry.filters:
                result = flt.func(ctx)
                if result is None:
                    continue
                outcome.effects.extend(result.effects)
                if result.stop:
                    return outcome
        if incoming.edited:
            ctx.game = self._recorded_game(incoming) or ctx.game
        found = ctx.said()
        if incoming.edited and (found is None or not found[0].on_edit):
            for hook in self.registry.edit_hooks:
                outcome.effects.extend(self._run(ctx, hook).effects)
            return outcome
        if found is None:
            return outcome
        command, word, args = found
        ctx.command, ctx.word, ctx.args = command, word, args
        if ctx.lang != "en" and written_in_english(incoming.text, ctx.seat_names):
            ctx.lang = "en"  # answered in the line's language: an English speaker at a Chinese table reads English
        ctx.unprompted = unprompted(incoming.text, word, command)
        ctx.recap = command.key in RECORD_COMMANDS and recalls(incoming.text, ctx.seat_names)
        if command.admin_only and not ctx.is_admin:
            if ctx.unprompted and not plainly_meant(command, args, word):
                answer = Outcome(refused=True, heard=False)  # `设置规则好麻烦` from a member: maybe chat, not answered
            else:
                answer = Outcome([ctx.reply("admin_only")], refused=True, heard=True)
        else:
            answer = self._run(ctx, command.handler)
            if ctx.unprompted and answer.refused and not answer.heard:
                answer = Outcome(refused=True)  # a refused line that did not start with a command word may be chat
        for after in self.registry.command_hooks:
            answer = after(ctx, answer)
        outcome.effects.extend(_pressed_in(ctx, answer.effects))
        outcome.refused = answer.refused and (answer.heard or not ctx.unprompted)
        return outcome

    def _recorded_game(self, incoming: Incoming) -> str | None:
        """The game of the table an edited message recorded at, whose words the edit is read in (a 够级 round edited
        after a 碰胡 table opened is still a 名次); None when it recorded nothing live, or its night is settled
        (the command refuses that edit)."""
        from ledger.service import LedgerError

        if self.service is None:
            return None
        try:
            table = self.service.recorded_table(incoming.original_source)
        except LedgerError:
            return None
        return table.game if table is not None else None

    def handle_callback(self, query: CallbackQuery) -> Outcome:
        """A button press: routed by the data's prefix (before the first ':'). Always answers the query."""
        english = query.data.endswith(ENGLISH_PRESS)
        if english:
            query = replace(query, data=query.data.removesuffix(ENGLISH_PRESS))
        ctx = self._context(query.chat_id, query.sender, query.source, query.admin_ids, query.owner_id, callback=query)
        if english:
            ctx.lang = "en"
        prefix = query.data.split(":", 1)[0]
        handler = self.registry.callbacks.get(prefix) if _plausible(query.data) else None
        if handler is None:
            return Outcome([AnswerCallback(ctx.t("button_expired"), alert=True)])
        outcome = self._run(ctx, handler)
        outcome.effects = _pressed_in(ctx, outcome.effects)
        if not any(isinstance(e, AnswerCallback) for e in outcome.effects):
            outcome.effects.insert(0, AnswerCallback())
        return outcome

    def handle_join(self, join: Join) -> Outcome:
        ctx = self._context(
            join.chat_id, join.member, join.source, join.admin_ids, join.owner_id, title=join.chat_title, join=join
        )
        self._remember(ctx.chat_id, join.member)  # a member is known from joining, not from speaking first
        outcome = Outcome()
        for hook in self.registry.join_hooks:
            outcome.effects.extend(self._run(ctx, hook).effects)
        return outcome

    def handle_posted(self, chat_id: int, posted_as: str, message_id: int) -> None:
        """Called by an adapter once a text with `posted_as` was sent: the message it was sent as."""
        prefix, _, key = posted_as.partition(":")
        hook = self.registry.posted_hooks.get(prefix)
        if hook is not None and self.service is not None:
            hook(self.service, chat_id, key.removesuffix(ENGLISH_PRESS), message_id, key.endswith(ENGLISH_PRESS))

    def handle_effect_failure(self, chat_id: int, effect: Effect, error: str, bot_user: Sender) -> Outcome:
        """Called by an adapter when Telegram refused an effect; the booking that caused it stands."""
        ctx = self._context(chat_id, bot_user, f"failure:{chat_id}", frozenset(), None)
        outcome = Outcome()
        for hook in self.registry.failure_hooks:

            def call(c: Context, hook: Callable[[Context, Effect, str], HandlerResult] = hook) -> HandlerResult:
                return hook(c, effect, error)

            outcome.effects.extend(self._run(ctx, call).effects)
        return outcome

    def handle_migration(self, old_chat_id: int, new_chat_id: int, source: str) -> Outcome:
        """Telegram gave a chat a new id (a group upgraded to a supergroup; announced in both chats, in either
        order): the group's whole ledger answers to the new id from now on. Says nothing."""
        from ledger.service import LedgerError

        try:
            self.service.move_chat(old_chat_id, new_chat_id, source=source, by=None)
        except LedgerError as err:  # the new chat holds a ledger of its own: never merged, an operator decides
            log.error("chat %s moved to %s, but its ledger was not moved: %s", old_chat_id, new_chat_id, err.message)
        self._known = {key for key in self._known if key[0] != old_chat_id}
        return Outcome()

    def handle_leave(self, leave: Join) -> Outcome:
        ctx = self._context(leave.chat_id, leave.member, leave.source, leave.admin_ids, leave.owner_id, join=leave)
        outcome = Outcome()
        for hook in self.registry.leave_hooks:
            outcome.effects.extend(self._run(ctx, hook).effects)
        return outcome


#: Telegram's limit on a button's data; ours are short ASCII
MAX_BUTTON_DATA = 64


#: the end of a button's data under a question asked in English in a Chinese group: its press is answered in
#: English too (`Bot.handle_callback` takes it off before routing)
ENGLISH_PRESS = "~en"


def _pressed_in(ctx: Context, effects: list[Effect]) -> list[Effect]:
    """`effects` with the buttons of every text marked `ENGLISH_PRESS` when `ctx` answers in English in a group
    that is not (a line written in English, or a press under such a line's question), and so is the `posted_as` of
    a question sent so (its flow keeps that it was asked in English: its asker's English answer words answer it);
    unchanged otherwise."""
    if ctx.lang == ctx.group.language:
        return effects

    def marked(button: Button) -> Button:
        data = button.data + ENGLISH_PRESS
        return button if button.url or len(data.encode()) > MAX_BUTTON_DATA else replace(button, data=data)

    def in_english(effect: Effect) -> Effect:
        if isinstance(effect, SendText) and effect.posted_as:
            effect = replace(effect, posted_as=effect.posted_as + ENGLISH_PRESS)
        if isinstance(effect, SendText | SendPhoto) and effect.buttons:
            effect = replace(effect, buttons=tuple(tuple(marked(b) for b in row) for row in effect.buttons))
        return effect

    return [in_english(e) for e in effects]


def _plausible(data: str) -> bool:
    """Button data one of our buttons could carry: printable ASCII within Telegram's 64 bytes. Anything else is
    forged (or from another bot) and expires without reaching a handler."""
    return data.isascii() and data.isprintable() and 0 < len(data) <= MAX_BUTTON_DATA


def _offline_group(chat_id: int) -> GroupInfo:
    """The settings a chat has before the ledger knows it, for a dispatcher run without a ledger."""
    from ledger.accounts import DEFAULT_GROUP
    from ledger.service import GroupInfo

    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return GroupInfo(0, chat_id, "", "kawuxing", {}, updated_at=epoch, updated_by=None, **DEFAULT_GROUP)
