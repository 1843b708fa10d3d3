"""A seat's name as players type it: the group rule shapes a 名片 as `名字-身份` (`王建国-成员`), and at the table
people type the person alone (`点 王建国`). The person part stands for the seat when no other seat reads the same."""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.grammar import name_key

#: what separates the person from the role in a name card shaped as the group rule asks (`名字-身份`)
_ROLE = re.compile(r"\s*[-－—–]\s*")


def person_part(name: str) -> str:
    """The person a name in the group rule's shape names (`王建国-成员`: 王建国); the name itself otherwise."""
    return _ROLE.split(name.strip(), maxsplit=1)[0].strip()


def by_person_part(seats: Iterable[str]) -> dict[str, str]:
    """name key of a seat's person part -> the seat, for seats whose name has a role after the person (`王建国-成员`)
    and whose person part is no other seat's name or person part; never one character (`我-成员`, `点-成员` would
    read as a word of a record)."""
    seats = list(seats)
    parts: dict[str, list[str]] = {}
    for seat in seats:
        parts.setdefault(name_key(person_part(seat)), []).append(seat)
    wholes = {name_key(seat) for seat in seats}
    return {
        key: named[0]
        for key, named in parts.items()
        if len(key) >= 2 and len(named) == 1 and name_key(named[0]) != key and key not in wholes
    }
