"""Nights played through the real ledger service with real 卡五星 scoring: what the report tests read back.

`play(ledger, clock, chat_id, plan)` seats three members, records each step of the plan (a whole hand, an undo
of the last hand, a fine) and returns what was recorded, so tests can compute the expected numbers on their own.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from ledger.scoring import score
from ledger.service import Ledger, TableInfo

PLAYERS = ("A", "B", "C")


def hu(winner: str, method: str, concealed: str, win_tile: str, **extra: Any) -> dict[str, Any]:
    """A `hu` event; `discarder` (extra `from_`) for a win on a discard; hand extras (melds, liangdao) pass on."""
    event: dict[str, Any] = {"type": "hu", "winner": winner, "method": method}
    if "from_" in extra:
        event["from"] = extra.pop("from_")
    event["hand"] = {"concealed": concealed, "win_tile": win_tile, **extra}
    return event


#: whole 卡五星 hands (the rules page's worked examples), written with seats A/B/C
HANDS: tuple[tuple[dict[str, Any], ...], ...] = (
    (hu("A", "discard", "123p46p789s22s333s", "5p", from_="C"),),
    (
        {"type": "gang", "player": "A", "kind": "angang", "chain": 1},
        hu("A", "self_draw", "4556p123s789s", "5p", melds=[{"kind": "angang", "tile": "7z"}]),
    ),
    (hu("B", "discard", "2245556p123s999s", "5p", from_="A"),),
    (hu("C", "self_draw", "1122334456677p", "5p"),),
    (hu("B", "self_draw", "777z666z55z123p99s", "5z"),),
    ({"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1}, {"type": "draw"}),
    (
        {"type": "gang", "player": "C", "kind": "xugang", "chain": 1},
        hu("A", "self_draw", "123p456p789s234s5s", "5s"),
    ),
    (
        {"type": "liangdao", "player": "C"},
        hu("C", "discard", "123p46p789s22s333s", "5p", from_="B", liangdao=True),
    ),
    (
        hu("A", "discard", "123p46p789s22s333s", "5p", from_="B"),
        hu("C", "discard", "2245556p123s999s", "5p", from_="B"),
    ),
    ({"type": "draw"},),
)

NAME_KEYS = frozenset({"winner", "from", "player"})


def seated(events: Sequence[dict[str, Any]], seats: Sequence[str]) -> list[dict[str, Any]]:
    """A template's events with A/B/C replaced by the table's seat names (a permutation picks who is who)."""
    rename = dict(zip(PLAYERS, seats, strict=True))
    return [{k: rename[v] if k in NAME_KEYS and isinstance(v, str) else v for k, v in e.items()} for e in events]


#: one step of a night: ("hand", template index, seat permutation index), ("undo",), ("fine", seat, 分)
Step = tuple[Any, ...]

steps = st.one_of(
    st.tuples(st.just("hand"), st.integers(0, len(HANDS) - 1), st.integers(0, 5)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("fine"), st.integers(0, 2), st.sampled_from([100, 500, 2000])),
)
nights = st.lists(st.lists(steps, min_size=1, max_size=8), min_size=1, max_size=3)


@dataclass
class Played:
    """What was recorded and is still live: hands (seat events and the scoring answer), fines, the members."""

    chat_id: int
    member_ids: dict[str, int]  # seat name -> member id
    nights: list[int] = field(default_factory=list)
    hands: list[tuple[int, list[dict[str, Any]], dict[str, Any]]] = field(default_factory=list)  # night, events, answer
    fines: list[tuple[int, int]] = field(default_factory=list)  # member id, 分


_sources = itertools.count(1)


def play(ledger: Ledger, clock: Any, chat_id: int, plan: Sequence[Sequence[Step]], names: Sequence[str] = ()) -> Played:
    """Record `plan` (one list of steps per night, a day apart) for a new group and return what is live."""
    ledger.group(chat_id, title="测试群")
    people = names or ("张三", "李四", "王五")
    members = [ledger.member(chat_id, chat_id * 10 + i, name) for i, name in enumerate(people)]

    def source() -> str:
        return f"test:{chat_id}:{next(_sources)}"

    table: TableInfo | None = None
    played: Played | None = None
    for night_steps in plan:
        table = ledger.open_table(chat_id, [m.id for m in members], source=source(), by=None)
        seat_ids = {seat.name: seat.member_id for seat in table.seats}
        if played is None:
            played = Played(chat_id, seat_ids)
        night = ledger.current_night(chat_id)
        assert night is not None
        played.nights.append(night.id)
        live: list[tuple[int, list[dict[str, Any]], dict[str, Any]]] = []
        fine_ids: list[int] = []
        for step in night_steps:
            clock.advance(minutes=4)
            if step[0] == "hand":
                order = list(itertools.permutations(table.players))[step[2]]
                events = seated(HANDS[step[1]], order)
                result = ledger.record_hand(table.id, events, source=source(), by=None)
                live.append((night.id, events, result.answer))
            elif step[0] == "undo":
                if live:
                    ledger.undo(table.id, source=source(), by=None)
                    live.pop()
            elif step[0] == "cancel_fine":  # the night's latest fine, taken back before the night is settled
                ledger.cancel_fine(fine_ids.pop(), source=source(), by=None)
            else:
                member_id = members[step[1]].id
                fine_ids.append(ledger.fine(member_id, step[2], "刷屏", source=source(), by=None).id)
                played.fines.append((member_id, step[2]))
        played.hands.extend(live)
        clock.advance(minutes=10)
        ledger.end_night(chat_id, source=source(), by=None)
        clock.advance(days=1)
    assert played is not None
    return played


def expected_answer(events: Sequence[dict[str, Any]], seats: Sequence[str]) -> dict[str, Any]:
    """The scoring core's own answer for a hand, asked directly (not through the ledger)."""
    return score(
        {
            "game": "kawuxing",
            "rules": {"preset": "xiangyang"},
            "base": 100,
            "players": list(seats),
            "dealer": seats[0],
            "events": list(events),
        }
    )
