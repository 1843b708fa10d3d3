"""Names spelled with another script's look-alike letters (a Cyrillic а or о, a Greek Ο or ν in a Latin name) read
as the name they look like (`reads_as`): the later account is numbered (`Tom#2`), a 名片 cannot take them, and no
two accounts ever show names that read alike."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.accounts import _LOOK_ALIKES, reads_as
from ledger.service import Ledger, LedgerError

from .helpers import CHAT

_chats = itertools.count(-710_000, -1)
#: each Latin letter -> the Cyrillic and Greek letters drawn like it
_DISGUISES: dict[str, list[str]] = {}
for _source, _latin in _LOOK_ALIKES.items():
    _DISGUISES.setdefault(chr(_latin), []).append(chr(_source))


def test_cyrillic_and_greek_look_alikes_read_as_the_latin_name() -> None:
    assert reads_as("Тоm") == reads_as("Tom") == reads_as("ΤΟΜ")  # Cyrillic Т о; Greek Τ Ο Μ
    assert reads_as("Wаng") == reads_as("wang") == reads_as("Wαng")  # Cyrillic а; Greek α
    assert reads_as("Tоm") != reads_as("Tim")
    assert reads_as("老王") != reads_as("Tom") and reads_as("Иван") != reads_as("NBah")  # Cyrillic И is no N


def test_a_look_alike_name_is_numbered_and_cannot_be_taken_as_a_name_card(ledger: Ledger) -> None:
    tom = ledger.member(CHAT, 1, "Tom")
    cyrillic = ledger.member(CHAT, 2, "Тоm")  # Cyrillic Т and о
    greek = ledger.member(CHAT, 3, "Τοm")  # Greek Τ and ο
    other = ledger.member(CHAT, 4, "Jerry")
    shown = ledger.names(CHAT)
    assert [shown[m.id] for m in (tom, cyrillic, greek)] == ["Tom", "Тоm#2", "Τοm#3"]
    with pytest.raises(LedgerError) as err:
        ledger.set_alias(other.id, "Tоm", source="a:1", by=4)  # Cyrillic о
    assert err.value.code in {"alias_taken", "alias_shown"}


@st.composite
def disguised(draw: st.DrawFn, name: str) -> str:
    """`name` with some of its letters swapped for a look-alike of another script."""
    return "".join(draw(st.sampled_from([c, *_DISGUISES.get(c, [])])) if c in _DISGUISES else c for c in name)


BASES = ("Tom", "Wang", "Alex", "Kate", "Oscar", "Mike", "Pony")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(BASES).flatmap(disguised), min_size=2, max_size=6))
def test_every_accounts_shown_name_is_distinct_across_scripts(ledger: Ledger, names: list[str]) -> None:
    chat = next(_chats)
    people = [ledger.member(chat, n + 1, name) for n, name in enumerate(names)]
    shown = ledger.names(chat)
    assert len({reads_as(shown[p.id]) for p in people}) == len(people)
    for person, name in zip(people, names, strict=True):
        base = next(b for b in BASES if reads_as(b) == reads_as(name))  # a disguise reads as its base
        assert reads_as(shown[person.id]).startswith(reads_as(base))
