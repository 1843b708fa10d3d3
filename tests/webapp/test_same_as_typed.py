"""A hand entered by taps books exactly what the same hand typed in the chat books (hypothesis).

Two groups sit the same three players. In one, the winner types the hand the way the README shows (their own
message, @usernames, tiles in notation); in the other, the same hand is tapped into the Mini App's API (tiles in
any order, seats by name). Both go through the command layer; the transfers booked — or the refusal — must be
the same, hand after hand, at tables that stay in step.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from ledger.scoring.tiles import format_notation, parse_tile
from ledger.service import Ledger
from tests.conftest import Clock
from tests.webapp.served import A, B, C, Chat, Served, init_data
from tests.webapp.test_api import WIN

TYPED, TAPPED = -1001111111111, -1002222222222
PLAYERS = (A, B, C)
SUITED = [f"{rank}{suit}" for suit in "ps" for rank in range(1, 10)]
DRAGONS = ["5z", "6z", "7z"]
MELD_WORDS = {"peng": "碰", "angang": "暗杠", "zhigang": "直杠", "xugang": "蓄杠"}


@st.composite
def winning_hands(draw: st.DrawFn) -> dict[str, Any]:
    """A complete hand: four sets and a pair (some sets shown as melds) or seven pairs; a winner, how, from whom."""
    if draw(st.integers(0, 5)) == 0:
        pairs = draw(st.lists(st.sampled_from(SUITED + DRAGONS), min_size=6, max_size=6))
        tiles = [t for t in pairs for _ in range(2)]
        tiles += [pairs[0]] * 2 if draw(st.booleans()) else [draw(st.sampled_from(SUITED))] * 2
        sets: list[list[str]] = []
        concealed_sets = [tiles]
    else:
        sets = []
        for _ in range(4):
            if draw(st.booleans()):
                suit, start = draw(st.sampled_from("ps")), draw(st.integers(1, 7))
                sets.append([f"{start + i}{suit}" for i in range(3)])
            else:
                sets.append([draw(st.sampled_from(SUITED + DRAGONS))] * 3)
        pair = draw(st.sampled_from(SUITED + DRAGONS))
        concealed_sets = [*sets, [pair, pair]]
    everything = [t for s in concealed_sets for t in s]
    assume(all(everything.count(t) <= 4 for t in everything))  # no fifth copy of a tile
    melds: list[tuple[str, str]] = []
    for group in list(concealed_sets[:-1] if sets else []):
        if group[0] == group[1] == group[2] and len(melds) < 2 and draw(st.booleans()):
            kind = draw(st.sampled_from(["peng", "angang", "zhigang", "xugang"]))
            if kind != "peng" and everything.count(group[0]) > 3:
                kind = "peng"
            melds.append((kind, group[0]))
            concealed_sets.remove(group)
    concealed = [t for s in concealed_sets for t in s]
    win_tile = draw(st.sampled_from(concealed))
    concealed.remove(win_tile)
    winner = draw(st.integers(0, 2))
    method = draw(st.sampled_from(["self_draw", "discard"]))
    discarder = draw(st.sampled_from([i for i in range(3) if i != winner])) if method == "discard" else None
    order = draw(st.permutations(concealed))
    return {
        "winner": winner,
        "concealed": list(order),
        "melds": melds,
        "win": win_tile,
        "method": method,
        "from": discarder,
    }


def typed_line(hand: dict[str, Any]) -> str:
    melds = " ".join(f"{MELD_WORDS[kind]}{tile}" for kind, tile in hand["melds"])
    concealed = format_notation(parse_tile(t) for t in hand["concealed"])
    how = "自摸" if hand["method"] == "self_draw" else f"点 @{PLAYERS[hand['from']]['username']}"
    return " ".join(part for part in ("胡", concealed, melds, hand["win"], how) if part)


def last_hand(ledger: Ledger, chat_id: int) -> tuple[int, list[tuple[str, str, int, str]]]:
    history = ledger.history(chat_id, 1)
    if not history:
        return 0, []
    hand = history[0]
    return hand.hand_id, sorted((t.payer, t.payee, t.amount, t.reason) for t in hand.transfers)


@pytest.fixture
def two_groups(served: Served) -> tuple[Chat, Chat]:
    typed, tapped = Chat(served.core, frozenset(), TYPED), Chat(served.core, frozenset(), TAPPED)
    for chat in (typed, tapped):
        for user in PLAYERS:
            chat.say(user, "来了")
        assert "开桌了" in chat.texts(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    return typed, tapped


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hand=winning_hands())
def test_tapped_and_typed_hands_book_the_same(
    served: Served, ledger: Ledger, clock: Clock, two_groups: tuple[Chat, Chat], hand: dict[str, Any]
) -> None:
    clock.advance(seconds=300)  # a hand takes minutes: the winner's next one is no double-send of the last
    typed, _ = two_groups
    winner = PLAYERS[hand["winner"]]
    before_typed, before_tapped = last_hand(ledger, TYPED)[0], last_hand(ledger, TAPPED)[0]
    typed_reply = typed.texts(winner, typed_line(hand))

    table = ledger.current_table(TAPPED)
    assert table is not None
    seat = lambda index: table.seats[index].name  # noqa: E731
    body = {
        **WIN,
        "winner": seat(hand["winner"]),
        "concealed": hand["concealed"],
        "melds": [{"kind": kind, "tile": tile} for kind, tile in hand["melds"]],
        "win_tile": hand["win"],
        "method": hand["method"],
        "from": seat(hand["from"]) if hand["from"] is not None else None,
        "table_id": table.id,
        "request_id": uuid.uuid4().hex,  # a new tap each example (the same id would be answered from the first)
    }
    login = init_data(winner, ledger.now(), start=_start(TAPPED))
    status, answer = served.call("api/record", init=login, body=body)

    typed_id, typed_transfers = last_hand(ledger, TYPED)
    tapped_id, tapped_transfers = last_hand(ledger, TAPPED)
    booked_typed, booked_tapped = typed_id != before_typed, tapped_id != before_tapped
    assert booked_typed == booked_tapped == (status == 200), (typed_reply, answer)
    assert typed_transfers == tapped_transfers
    event("booked" if booked_typed else "refused by both")
    if not booked_typed:
        assert answer["message"].split("：", 1)[-1] in typed_reply  # the same refusal, in the same words


def _start(chat_id: int) -> str:
    from tests.webapp.served import start_param

    return start_param(chat_id)
