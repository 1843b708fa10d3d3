"""No hand, and no hand's events, may need more than four copies of a tile: concealed tiles, melds, the winning
tile and the kongs recorded as events (with their tile) are counted together."""

from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.scoring import score
from ledger.scoring.tiles import BAI, tile_notation

KINDS = [*range(18), BAI, BAI + 1, BAI + 2]


def settle(events, partial=False):
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped"},
        "players": ["A", "B", "C"],
        "events": events,
    }
    return score(request, partial=partial)


def kong(player, tile, kind="angang", **extra):
    return {"type": "gang", "player": player, "kind": kind, "tile": tile, **extra}


def refused(answer):
    assert not answer["ok"], answer
    return answer["error"]["code"]


def test_sixteen_copies_in_melds_no_longer_overflow_a_count():
    four_kongs = [{"kind": "angang", "tile": "1p"}] * 4
    answer = score(
        {
            "game": "kawuxing",
            "hand": {"concealed": "1p", "melds": four_kongs, "win_tile": "1p", "method": "self_draw"},
        }
    )
    assert refused(answer) == "bad_tiles"
    assert "18 张" in answer["error"]["message"]


def test_five_concealed_kongs_of_one_tile_are_refused_already_at_the_second():
    assert refused(settle([*[kong("A", "7z")] * 5, {"type": "draw"}])) == "bad_tiles"
    assert refused(settle([kong("A", "7z"), kong("A", "7z")], partial=True)) == "bad_tiles"
    assert refused(settle([kong("A", "7z"), kong("B", "7z")], partial=True)) == "bad_tiles"
    assert settle([kong("A", "7z"), kong("B", "6z")], partial=True)["ok"]


def test_a_hand_holding_a_tile_another_player_kongd():
    hand = {"concealed": "777z46p789s22s333s", "melds": [], "win_tile": "5p"}
    events = [kong("B", "7z"), {"type": "hu", "winner": "A", "method": "discard", "from": "C", "hand": hand}]
    answer = settle(events)
    assert refused(answer) == "bad_tiles"
    assert "中" in answer["error"]["message"]


def test_a_robbed_kong_is_three_of_its_tile_and_the_winning_tile_the_fourth():
    hand = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
    events = [
        kong("B", "5p", "xugang"),
        {"type": "hu", "winner": "A", "method": "rob_kong", "from": "B", "hand": hand},
    ]
    assert settle(events)["ok"]


def test_the_winners_own_kong_must_be_in_the_hand_given():
    with_kong = {"concealed": "123p46p789s22s", "melds": [{"kind": "angang", "tile": "3s"}], "win_tile": "5p"}
    ok = [kong("A", "3s"), {"type": "hu", "winner": "A", "method": "discard", "from": "C", "hand": with_kong}]
    assert settle(ok)["ok"]
    other = [kong("A", "7z"), {"type": "hu", "winner": "A", "method": "discard", "from": "C", "hand": with_kong}]
    answer = settle(other)
    assert refused(answer) == "inconsistent"
    assert "A 杠了 中" in answer["error"]["message"]


def test_a_ready_hand_at_a_draw_is_counted_with_the_kongs():
    ready = {"B": {"concealed": "777z46p789s22s333s"}}
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped", "chadajiao": True},
        "players": ["A", "B", "C"],
        "events": [kong("A", "7z"), {"type": "draw", "ready": ready}],
    }
    assert refused(score(request)) == "bad_tiles"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from(KINDS)), min_size=1, max_size=8))
def test_kongs_are_accepted_exactly_when_no_tile_is_konged_twice(kongs):
    events = [kong(player, tile_notation(tile)) for player, tile in kongs]
    answer = settle(events, partial=True)
    tiles = [tile for _, tile in kongs]
    assert answer["ok"] == (len(set(tiles)) == len(tiles)), answer
