"""Invariants of 卡五星 scoring over random hands and random event lists (hypothesis)."""

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ledger.scoring import score
from ledger.scoring.common import ERROR_CODES
from ledger.scoring.kawuxing import PATTERNS_BY_KEY
from ledger.scoring.tiles import BAI, NUM_KINDS, tile_notation

KINDS = [*range(18), BAI, BAI + 1, BAI + 2]  # 筒, 条, 中发白 (the default suits)
SLOW = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@st.composite
def winning_hands(draw):
    """A random winning hand: declared melds, concealed sets and a pair (or seven pairs), a winning tile."""
    counts = [0] * NUM_KINDS
    melds = []
    if draw(st.integers(0, 5)) == 0:
        for t in draw(st.lists(st.sampled_from(KINDS), min_size=7, max_size=7)):
            counts[t] += 2
    else:
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["peng", "peng", "zhigang", "xugang", "angang"]))
            melds.append((kind, draw(st.sampled_from(KINDS))))
        for _ in range(4 - len(melds)):
            if draw(st.booleans()):
                start = draw(st.sampled_from([t for t in range(18) if t % 9 <= 6]))
                for t in (start, start + 1, start + 2):
                    counts[t] += 1
            else:
                counts[draw(st.sampled_from(KINDS))] += 3
        counts[draw(st.sampled_from(KINDS))] += 2
    total = list(counts)
    for kind, t in melds:
        total[t] += 3 if kind == "peng" else 4
    assume(max(total) <= 4)
    win = draw(st.sampled_from([t for t in range(NUM_KINDS) if counts[t]]))
    counts[win] -= 1
    concealed = [t for t in range(NUM_KINDS) for _ in range(counts[t])]
    has_kong = any(kind != "peng" for kind, _ in melds)
    situations = draw(st.sets(st.sampled_from(["haidilao", "gangshangkaihua"] if has_kong else ["haidilao"])))
    return {
        "concealed": concealed,
        "melds": [{"kind": kind, "tile": tile_notation(t)} for kind, t in melds],
        "win_tile": tile_notation(win),
        "method": "self_draw",
        "situations": sorted(situations),
        "liangdao": draw(st.booleans()),
    }


def request(hand, preset="uncapped", order=None):
    tiles = list(hand["concealed"])
    if order is not None:
        order.shuffle(tiles)
    body = dict(hand, concealed="".join(tile_notation(t) for t in tiles))
    return {"game": "kawuxing", "rules": {"preset": preset}, "hand": body}


@SLOW
@given(winning_hands(), st.randoms(use_true_random=False))
def test_tile_order_never_changes_a_result(hand, rnd):
    assert score(request(hand)) == score(request(hand, order=rnd))


@SLOW
@given(winning_hands())
def test_capped_never_exceeds_uncapped(hand):
    uncapped = score(request(hand))
    assert uncapped["ok"], uncapped
    assert uncapped["final_multiplier"] == uncapped["multiplier"]
    for preset in ("xiangyang", "shiyan"):
        capped = score(request(hand, preset))
        assert capped["final_multiplier"] <= min(capped["multiplier"], uncapped["final_multiplier"])
        assert capped["final_multiplier"] <= 16


@SLOW
@given(winning_hands(), st.sampled_from(["uncapped", "xiangyang", "shiyan"]))
def test_declared_patterns_score_like_the_tiles(hand, preset):
    by_tiles = score(request(hand, preset))
    keys = [p["key"] for p in by_tiles["patterns"]]
    declared = {
        "game": "kawuxing",
        "rules": {"preset": preset},
        "hand": {"patterns": keys, "melds": hand["melds"], "method": "self_draw", "liangdao": hand["liangdao"]},
    }
    by_patterns = score(declared)
    assert by_patterns["ok"], (keys, by_patterns)
    assert by_patterns["patterns"] == by_tiles["patterns"]
    assert (by_patterns["multiplier"], by_patterns["final_multiplier"]) == (
        by_tiles["multiplier"],
        by_tiles["final_multiplier"],
    )


@SLOW
@given(winning_hands())
def test_reported_waits_complete_the_hand_and_no_other_tile_does(hand):
    answer = score(request(hand))
    for tile in KINDS:
        other = score(request(dict(hand, win_tile=tile_notation(tile))))
        if tile_notation(tile) in answer["waits"]:
            assert other["ok"], other
        else:
            assert other["error"]["code"] in ("not_a_win", "bad_tiles"), other


def test_the_multiplier_is_the_product_of_the_listed_patterns():
    answer = score(
        request(
            {
                "concealed": [0, 1, 2, 3, 5, 15, 16, 17, 10, 10, 11, 11, 11],
                "melds": [],
                "win_tile": "5p",
                "method": "self_draw",
                "liangdao": True,
            }
        )
    )
    product = 1
    for p in answer["patterns"]:
        assert PATTERNS_BY_KEY[p["key"]].multiplier == p["multiplier"]
        product *= p["multiplier"]
    assert product == answer["multiplier"] == 4


PLAYERS = ["A", "B", "C"]
HANDS = [
    {"patterns": []},
    {"patterns": ["kawuxing"]},
    {"patterns": ["qingyise", "qidui"]},
    {"patterns": ["shuanglongqidui"]},
    {"patterns": ["pengpenghu", "shouzhuayi"]},
    {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"},
]


@st.composite
def event_lists(draw):
    events = []
    previous = None
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            events.append({"type": "liangdao", "player": draw(st.sampled_from(PLAYERS))})
            continue
        kind = draw(st.sampled_from(["angang", "xugang", "zhigang"]))
        player = draw(st.sampled_from(PLAYERS))
        chain = 1
        if previous is not None and draw(st.booleans()):
            chain = previous["chain"] + 1
            if kind != "zhigang":
                player = previous["player"]
        gang = {"type": "gang", "player": player, "kind": kind, "chain": chain}
        if kind == "zhigang":
            options = [p for p in PLAYERS if p != player]
            gang["from"] = (
                previous["player"] if chain > 1 and previous["player"] != player else draw(st.sampled_from(options))
            )
        events.append(gang)
        previous = gang
    ending = draw(st.sampled_from(["draw", "self_draw", "discard", "double", "rob_kong", "open"]))
    winner = draw(st.sampled_from(PLAYERS))
    others = [p for p in PLAYERS if p != winner]
    hand = dict(draw(st.sampled_from(HANDS)))
    if ending == "draw":
        events.append({"type": "draw"})
    elif ending == "self_draw":
        events.append({"type": "hu", "winner": winner, "method": "self_draw", "from": None, "hand": hand})
    elif ending in ("discard", "rob_kong"):
        events.append({"type": "hu", "winner": winner, "method": ending, "from": others[0], "hand": hand})
    elif ending == "double":
        for w in others:
            events.append({"type": "hu", "winner": w, "method": "discard", "from": winner, "hand": hand})
    return events, ending == "open"


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(event_lists(), st.sampled_from(["first", "each", "none"]), st.integers(1, 500))
def test_transfers_sum_to_zero_and_never_raise(case, penalty, base):
    events, open_hand = case
    answer = score(
        {
            "game": "kawuxing",
            "rules": {"preset": "xiangyang", "draw_liangdao_penalty": penalty},
            "base": base,
            "players": PLAYERS,
            "dealer": "A",
            "events": events,
        },
        partial=open_hand,
    )
    if not answer["ok"]:
        assert answer["error"]["code"] in ERROR_CODES
        return
    assert sum(answer["net"].values()) == 0
    assert set(answer["net"]) == set(PLAYERS)
    net = dict.fromkeys(PLAYERS, 0)
    for t in answer["transfers"]:
        assert t["amount"] > 0 and t["amount"] % base == 0 and t["from"] != t["to"]
        assert events[t["event"]]["type"] in ("gang", "hu", "draw")
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    assert net == answer["net"]


def test_random_seeded_shuffles_of_chinese_input_agree():
    rnd = random.Random(7)
    words = ["一筒", "二筒", "三筒", "四筒", "六筒", "七条", "八条", "九条", "二条", "二条", "三条", "三条", "三条"]
    base = score(
        {
            "game": "kawuxing",
            "rules": {"preset": "uncapped"},
            "hand": {"concealed": "".join(words), "win_tile": "5饼", "method": "discard"},
        }
    )
    for _ in range(10):
        rnd.shuffle(words)
        again = score(
            {
                "game": "kawuxing",
                "rules": {"preset": "uncapped"},
                "hand": {"concealed": " ".join(words), "win_tile": "五筒", "method": "discard"},
            }
        )
        assert again == base


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
VALID_REQUESTS = [
    {
        "game": "kawuxing",
        "rules": {"preset": "uncapped", "cap": "8"},
        "hand": {
            "concealed": "123p46p789s22s",
            "melds": [{"kind": "angang", "tile": "3s"}],
            "win_tile": "5p",
            "method": "self_draw",
            "situations": ["gangshangkaihua"],
            "liangdao": False,
        },
    },
    {
        "game": "kawuxing",
        "base": 100,
        "players": ["A", "B", "C"],
        "dealer": "A",
        "events": [
            {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1},
            {"type": "liangdao", "player": "C"},
            {"type": "hu", "winner": "C", "method": "discard", "from": "A", "hand": {"patterns": ["qidui"]}},
        ],
    },
]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, (*prefix, i))


@settings(max_examples=400)
@given(st.sampled_from(VALID_REQUESTS), st.data(), JSON_VALUES)
def test_any_field_replaced_by_any_json_answers_without_raising(base, data, junk):
    import copy

    request = copy.deepcopy(base)
    path = data.draw(st.sampled_from([p for p in _paths(request) if p]))
    target = request
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    answer = score(request)
    assert isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert answer["error"]["code"] in ERROR_CODES and answer["error"]["message"]
