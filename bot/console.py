"""`paiju console`: the bot without Telegram — chat lines in on stdin, the bot's replies out on stdout.

The same command layer as the Telegram bot over a local database (default: ./paiju.db). Script lines:

    name: text             member `name` sends `text` to the group (`alice: 胡 123p46p789s22s333s 5p 点 @bob`)
    name: [photo ID] text  member `name` sends a photo Telegram holds as file id ID, `text` its caption
                           (`alice: [photo AgACAgQ1] 收款码 微信`)
    name: !press LABEL     member `name` presses the newest button labelled LABEL (`bob: !press 自摸`)
    name: !edit [N] text   member `name` edits their message of script line N (default: their last message);
                           an edited record re-records the hand (the old version voided)
    name: !reply N text    member `name` sends `text` as a reply to the message of script line N (`!reply 5 撤销`);
                           `!reply bot text` replies to the bot's newest message
    !join name [display]   a member joins (join hooks run); `display` is the name the chat shows
    !leave name            a member leaves
    !admin name            make `name` an administrator of the group
    !clock +10s            advance the simulated clock (s, m, h, d); it never moves on its own
    !upkeep                run the hourly upkeep now (flows left waiting a day expire; a record's chat is told)
    # comment              ignored (and not echoed)

Replies print as `bot: …`, one line per line of text; buttons as `bot: [按钮] A | B | C` (one line per row), a
picture as `bot: [photo] path` (one sent again by its file id as `bot: [photo id] ID`), a file as
`bot: [file] path` (each followed by its caption's lines).
Deterministic: a fixed start clock, ids derived from names.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from bot.core import (
    AnswerCallback,
    BanMember,
    Bot,
    CallbackQuery,
    DeleteMessage,
    Effect,
    Incoming,
    Join,
    ManualClock,
    Outcome,
    Quoted,
    SendDocument,
    Sender,
    SendPhoto,
    SendText,
    UnbanMember,
)
from bot.grammar import spaced_usernames

#: the console's group
CONSOLE_CHAT_ID = -1000000000001
#: bot messages are numbered from here so they never collide with script line numbers
BOT_MESSAGE_BASE = 1_000_000
_PHOTO = re.compile(r"^\[photo\s+([^\]\s]+)\]")
_CLOCK = re.compile(r"^\+?(\d+)\s*([smhd])$")
_MENTION = re.compile(r"@([^\s@,，。:：;；!！?？()（）]+)")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def user_id_of(name: str) -> int:
    """A stable positive 48-bit id for a console name (Telegram ids fit in 52 bits)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:6], "big") or 1


@dataclass
class _Posted:
    """A message the console has seen, for replies, edits and button presses."""

    message_id: int
    sender: Sender | None
    text: str
    buttons: dict[str, str] = field(default_factory=dict)  # label -> callback data


class Console:
    """One simulated group chat driving a `Bot`; `feed(line)` returns the printed transcript lines."""

    def __init__(self, bot: Bot, clock: ManualClock, chat_id: int = CONSOLE_CHAT_ID) -> None:
        self.bot = bot
        self.clock = clock
        self.chat_id = chat_id
        self.session = uuid.uuid4().hex[:8]  # sources stay unique across runs on one database file
        self.members: dict[str, Sender] = {}
        self.admins: set[int] = set()
        self.posted: dict[int, _Posted] = {}
        self.line_number = 0
        self._next_bot_message = BOT_MESSAGE_BASE

    # -- members ---------------------------------------------------------------------------------------
    def sender(self, name: str) -> Sender:
        if name not in self.members:
            self.members[name] = Sender(user_id_of(name), name, username=name)
        return self.members[name]

    def _mentions(self, text: str) -> tuple[Sender, ...]:
        """The members an `@name` points at, as Telegram's text mentions would. A name the console has not seen
        but the ledger knows (someone's 名片, a guest) is left to the ledger, as `@username` is in Telegram:
        taking it for a new member would seat a stranger under another member's alias."""
        found: list[Sender] = []
        for name in _MENTION.findall(text):
            if name not in self.members and self._ledger_knows(name):
                continue
            sender = self.sender(name)
            if sender not in found:
                found.append(sender)
        return tuple(found)

    def _ledger_knows(self, name: str) -> bool:
        from ledger.service import LedgerError

        try:
            return self.bot.service.find_member(self.chat_id, name) is not None
        except LedgerError:  # the group has no ledger yet
            return False

    # -- lines -----------------------------------------------------------------------------------------
    def feed(self, line: str) -> list[str]:
        self.line_number += 1
        line = line.rstrip("\r\n")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            return []
        if stripped.startswith("!"):
            return self._directive(stripped)
        name, sep, text = stripped.partition(":")
        if not sep or not name.strip():
            return [f"console: cannot read line {self.line_number}: expected `name: text` or a `!` directive"]
        name, text = name.strip(), text.strip()
        if text.startswith("!press"):
            return self._press(name, text[len("!press") :].strip())
        if text.startswith("!edit"):
            return self._edit(name, text[len("!edit") :].strip())
        if text.startswith("!reply"):
            return self._reply(name, text[len("!reply") :].strip())
        return self._message(name, text, self.line_number)

    def _directive(self, line: str) -> list[str]:
        parts = line[1:].split(maxsplit=2)
        verb = parts[0] if parts else ""
        if verb == "join" and len(parts) >= 2:
            name = parts[1]
            display = " ".join(parts[2:]) or name
            self.members[name] = Sender(user_id_of(name), display, username=name)
            return self._render(self.bot.handle_join(self._join_event(name)))
        if verb == "leave" and len(parts) >= 2:
            outcome = self.bot.handle_leave(self._join_event(parts[1]))
            self.members.pop(parts[1], None)
            return self._render(outcome)
        if verb == "admin" and len(parts) >= 2:
            self.admins.add(self.sender(parts[1]).user_id)
            return []
        if verb == "clock" and len(parts) >= 2:
            match = _CLOCK.match("".join(parts[1:]).strip())
            if match:
                self.clock.advance(timedelta(**{_UNITS[match[2]]: int(match[1])}))
                return []
        if verb == "upkeep":  # the hourly upkeep, now: flows left waiting a day expire, a record's chat told
            from bot.upkeep import expire

            upkept = expire(self.bot.service)
            return [f"bot: {said}" for n in upkept.notices if n.chat_id == self.chat_id for said in n.text.splitlines()]
        return [f"console: cannot read line {self.line_number}: {line}"]

    def _join_event(self, name: str) -> Join:
        return Join(
            chat_id=self.chat_id,
            member=self.sender(name),
            date=self.clock.now(),
            source=f"console:{self.session}:{self.line_number}",
            chat_title="console",
            admin_ids=frozenset(self.admins),
        )

    def _incoming(
        self, name: str, text: str, message_id: int, *, edited: bool, source: str, reply_to: Quoted | None = None
    ) -> Incoming:
        sender = self.sender(name)
        photo = _PHOTO.match(text)
        file_id = ""
        if photo is not None:  # `[photo FILEID] caption`: a photo Telegram holds as FILEID, with its caption
            file_id, text = photo[1], text[photo.end() :].strip()
        text = spaced_usernames(text)  # as the Telegram adapter reads `@c已转4`
        return Incoming(
            chat_id=self.chat_id,
            message_id=message_id,
            sender=sender,
            text=text,
            date=self.clock.now(),
            source=source,
            chat_title="console",
            reply_to=reply_to,
            edited=edited,
            admin_ids=frozenset(self.admins),
            mentions=self._mentions(text),
            photo_file_id=file_id,
        )

    def _message(self, name: str, text: str, message_id: int, reply_to: Quoted | None = None) -> list[str]:
        source = f"console:{self.session}:{message_id}"
        incoming = self._incoming(name, text, message_id, edited=False, source=source, reply_to=reply_to)
        self.posted[message_id] = _Posted(message_id, incoming.sender, text)
        return self._render(self.bot.handle_message(incoming))

    def _reply(self, name: str, rest: str) -> list[str]:
        """`!reply N text` sends `text` replying to the message of script line N; `!reply bot text` to the bot's
        newest message."""
        number, _, text = rest.partition(" ")
        if number == "bot" and self._next_bot_message > BOT_MESSAGE_BASE:
            number = str(self._next_bot_message)
        if not number.isdigit() or int(number) not in self.posted:
            return [f"console: line {self.line_number}: !reply: no message on line {number}"]
        quoted = self.posted[int(number)]
        replying = Quoted(quoted.message_id, quoted.sender, quoted.text)
        return self._message(name, text.strip(), self.line_number, replying)

    def _edit(self, name: str, rest: str) -> list[str]:
        """`!edit N text` edits the message of script line N; `!edit text` the member's last message."""
        number, _, text = rest.partition(" ")
        if not number.isdigit():
            own = [p for p in self.posted.values() if p.sender is not None and p.sender.username == name]
            if not own:
                return [f"console: line {self.line_number}: {name} has no message to edit"]
            number, text = str(max(p.message_id for p in own)), rest
        if int(number) not in self.posted:
            return [f"console: line {self.line_number}: !edit: no message on line {number}"]
        original = self.posted[int(number)]
        if original.sender is None or original.sender.username != name:
            return [f"console: line {self.line_number}: {name} can only edit their own messages"]
        original.text = text.strip()
        source = f"console:{self.session}:{original.message_id}:e{self.line_number}"
        incoming = self._incoming(name, original.text, original.message_id, edited=True, source=source)
        return self._render(self.bot.handle_message(incoming))

    def _press(self, name: str, label: str) -> list[str]:
        """Press the newest button labelled `label`; a toggle's ✓ and an arrow or tick may be left out."""
        wanted = _plain(label)
        for posted in sorted(self.posted.values(), key=lambda p: p.message_id, reverse=True):
            found = label if label in posted.buttons else None
            found = found or next((b for b in posted.buttons if _plain(b) == wanted), None)
            if found is not None:
                query = CallbackQuery(
                    query_id=str(self.line_number),
                    chat_id=self.chat_id,
                    message_id=posted.message_id,
                    sender=self.sender(name),
                    data=posted.buttons[found],
                    date=self.clock.now(),
                    source=f"console:{self.session}:{self.line_number}",
                    admin_ids=frozenset(self.admins),
                )
                return self._render(self.bot.handle_callback(query))
        return [f"console: line {self.line_number}: no button labelled {label!r}"]

    # -- effects ---------------------------------------------------------------------------------------
    def _render(self, outcome: Outcome) -> list[str]:
        lines: list[str] = []
        for effect in outcome.effects:
            lines.extend(self._effect(effect))
        return lines

    def _effect(self, effect: Effect) -> Iterator[str]:
        if isinstance(effect, SendText):
            if effect.edit_message_id is not None and effect.edit_message_id in self.posted:
                posted = self.posted[effect.edit_message_id]
                posted.text, posted.buttons = effect.text, {}
            else:
                self._next_bot_message += 1
                posted = _Posted(self._next_bot_message, None, effect.text)
                self.posted[posted.message_id] = posted
                if effect.posted_as:
                    self.bot.handle_posted(self.chat_id, effect.posted_as, posted.message_id)
            for row in effect.buttons:
                posted.buttons.update({button.label: button.data for button in row})
            yield from (f"bot: {line}" for line in effect.text.split("\n"))
            for row in effect.buttons:
                yield "bot: [按钮] " + " | ".join(button.label for button in row)
        elif isinstance(effect, SendPhoto):
            self._next_bot_message += 1
            posted = _Posted(self._next_bot_message, None, effect.caption)
            self.posted[posted.message_id] = posted
            for row in effect.buttons:
                posted.buttons.update({button.label: button.data for button in row})
            yield f"bot: [photo] {effect.path}" if effect.path else f"bot: [photo id] {effect.file_id}"
            yield from (f"bot: {line}" for line in effect.caption.split("\n") if effect.caption)
            for row in effect.buttons:
                yield "bot: [按钮] " + " | ".join(button.label for button in row)
        elif isinstance(effect, SendDocument):
            yield f"bot: [file] {effect.path}"
            yield from (f"bot: {line}" for line in effect.caption.split("\n") if effect.caption)
        elif isinstance(effect, AnswerCallback):
            if effect.text:
                yield f"bot: [提示] {effect.text}"
        elif isinstance(effect, DeleteMessage):
            yield f"bot: [删除消息] {self._describe(effect.message_id)}"
        elif isinstance(effect, BanMember):
            kind = "移出" if effect.then_unban else "封禁"
            yield f"bot: [{kind}] {self._name_of(effect.user_id)}"
        elif isinstance(effect, UnbanMember):
            yield f"bot: [解封] {self._name_of(effect.user_id)}"

    def _describe(self, message_id: int) -> str:
        posted = self.posted.get(message_id)
        if posted is None or posted.sender is None:
            return f"#{message_id}"
        return f"#{message_id} {posted.sender.username}: {posted.text}"

    def _name_of(self, user_id: int) -> str:
        return next((name for name, s in self.members.items() if s.user_id == user_id), str(user_id))


def _plain(label: str) -> str:
    return label.strip("✓✅▶◀ ").lower()


def run_script(lines: Iterable[str], bot: Bot, clock: ManualClock, out: TextIO, *, echo: bool = False) -> None:
    """Feed the lines, printing the bot's replies; with `echo` each line first, as typed (comments and blank
    lines included), so the output is a transcript: the script's lines with the replies interleaved."""
    console = Console(bot, clock)
    for line in lines:
        if echo:
            out.write(line.rstrip("\r\n") + "\n")
        for printed in console.feed(line):
            out.write(printed + "\n")
        out.flush()


def demo_script() -> list[str]:
    return resources.files("bot").joinpath("demo.txt").read_text(encoding="utf-8").splitlines()


def database_url() -> str:
    from ledger.db import database_url as configured

    return configured()


def open_bot(url: str, clock: ManualClock) -> tuple[Bot, Any]:
    """A bot over the ledger at `url` (upgraded to the newest schema), on the simulated clock."""
    from ledger.service import Ledger

    ledger = Ledger.open(url, clock=clock.now)
    return Bot(ledger, clock=clock), ledger


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju console", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db",
        help="SQLAlchemy URL or SQLite file (default: $PAIJU_DB_URL, the config file's [database] url, ./paiju.db; "
        "--demo: a fresh temporary file)",
    )
    parser.add_argument("--demo", action="store_true", help="play the bundled demo night (bot/demo.txt)")
    parser.add_argument(
        "--echo",
        action="store_true",
        help="print each input line before its replies: the output is a transcript (script and replies interleaved)",
    )
    args = parser.parse_args(argv)
    clock = ManualClock()
    with tempfile.TemporaryDirectory(prefix="paiju-demo-") as scratch:
        url = args.db or (f"sqlite:///{Path(scratch) / 'demo.db'}" if args.demo else database_url())
        bot, ledger = open_bot(url, clock)
        try:
            if args.demo:
                script = demo_script()
                console = Console(bot, clock)
                for line in script:
                    if line.strip() and not line.startswith("#"):
                        sys.stdout.write(f"{line}\n")
                    for printed in console.feed(line):
                        sys.stdout.write(printed + "\n")
            else:
                run_script(sys.stdin, bot, clock, sys.stdout, echo=args.echo)
        finally:
            ledger.close()
    return 0
