"""Chat grammar: which command a message starts with, and the words of its arguments.

Two ways to call a command: a slash and a Latin name (`/hu@paiju_bot …`, Telegram's menu) or a registered word
without a slash at the very start of the message (`胡 …`, `开桌 …`, `undo`). A word only counts when what follows
it is not another Chinese character, so ordinary chat ("胡说八道", "杠精") is never taken for a command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core import Command, Registry

_SPACES = " \t\n\r\u3000"


def is_cjk(char: str) -> bool:
    """A Chinese character (CJK unified ideographs and their extension A, compatibility ideographs)."""
    code = ord(char)
    return 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF


def split_command(text: str, registry: Registry, game: str | None = None) -> tuple[Command, str, str] | None:
    """(command, the word that named it, the rest of the text) or None when the text is no command."""
    stripped = text.strip(_SPACES)
    if not stripped:
        return None
    if stripped[0] in "/／":
        head, _, rest = _split_first(stripped[1:])
        name = head.split("@", 1)[0]
        command = registry.lookup(name, game)
        return (command, name, rest.strip(_SPACES)) if command else None
    for word in sorted(registry.words(), key=len, reverse=True):
        if not stripped.lower().startswith(word):
            continue
        after = stripped[len(word) :]
        if after and (is_cjk(after[0]) if is_cjk(word[-1]) else after[0] not in _SPACES):
            continue
        command = registry.lookup(word, game)
        if command is not None:
            return command, stripped[: len(word)], after.strip(_SPACES)
    return None


def _split_first(text: str) -> tuple[str, str, str]:
    for index, char in enumerate(text):
        if char in _SPACES:
            return text[:index], char, text[index + 1 :]
    return text, "", ""


def words(text: str) -> list[str]:
    """Arguments split on any whitespace (ASCII or the full-width space Chinese keyboards type)."""
    return text.replace("\u3000", " ").split()
