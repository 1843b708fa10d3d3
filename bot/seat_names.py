"""A seat's name as players type it: the group rule shapes a 名片 as `名字-身份` (`王建国-成员`), and at the table
people type the person alone (`点 王建国`). The person part (`ledger.accounts.person_part`) stands for the seat when
no other seat reads the same."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

from ledger.accounts import person_part, reads_as


def by_person_part(seats: Iterable[str]) -> Mapping[str, str]:
    """A seat's person part as it reads (`reads_as`) -> the seat, for seats whose name has a role after the person
    (`王建国-成员`) and whose person part is no other seat's name or person part; never one character (`我-成员`,
    `点-成员` would read as a word of a record). Worked out once per table's seats: every message at the table asks."""
    return _by_person_part(tuple(seats))


@lru_cache(maxsize=1024)
def _by_person_part(seats: tuple[str, ...]) -> Mapping[str, str]:
    parts: dict[str, list[str]] = {}
    for seat in seats:
        parts.setdefault(person_part(seat), []).append(seat)
    wholes = {reads_as(seat) for seat in seats}
    return {
        key: named[0]
        for key, named in parts.items()
        if len(key) >= 2 and len(named) == 1 and reads_as(named[0]) != key and key not in wholes
    }


def one_named(names: Iterable[tuple[int, str]], typed: str) -> int | None:
    """The one account among `names` (account id, a name it is shown by: a seat, a line of a settlement) that a
    plain name typed reads as, as a record reads a seat: a whole name, else the person of a `名字-身份` name under
    `by_person_part`'s rules (`老王` for 老王-成员 when no other listed account reads so). None when none or several
    do: the caller asks for the @. Used by payments and questions, so a short name reads alike everywhere."""
    listed = tuple(names)
    key = reads_as(typed)
    whole = {id_ for id_, name in listed if reads_as(name) == key}
    if whole:
        return next(iter(whole)) if len(whole) == 1 else None
    part = {id_ for id_, name in listed if person_part(name) == key and reads_as(name) != key}
    return next(iter(part)) if len(key) >= 2 and len(part) == 1 else None
