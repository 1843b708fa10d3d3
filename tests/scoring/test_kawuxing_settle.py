"""Settling a whole 卡五星 hand: the rules page's hand-level examples, kong money, 包胡, 一炮双响, draws."""

import pytest

from ledger.scoring import score

EXAMPLE_1 = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
EXAMPLE_1_AFTER_ANGANG = {"concealed": "123p46p789s22s", "melds": [{"kind": "angang", "tile": "3s"}], "win_tile": "5p"}


def settle(events, preset="uncapped", partial=False, base=1, dealer="A", **rules):
    request = {
        "game": "kawuxing",
        "rules": {"preset": preset, **rules},
        "base": base,
        "players": ["A", "B", "C"],
        "dealer": dealer,
        "events": events,
    }
    return score(request, partial=partial)


def hu(winner, method, source, hand, **extra):
    return {"type": "hu", "winner": winner, "method": method, "from": source, "hand": hand, **extra}


def flows(answer):
    assert answer["ok"], answer
    return [(t["from"], t["to"], t["amount"], t["reason"], t["event"]) for t in answer["transfers"]]


def test_angang_then_kawuxing_on_a_discard():
    answer = settle(
        [{"type": "gang", "player": "A", "kind": "angang"}, hu("A", "discard", "C", EXAMPLE_1_AFTER_ANGANG)]
    )
    assert flows(answer) == [
        ("B", "A", 2, "angang", 0),
        ("C", "A", 2, "angang", 0),
        ("C", "A", 2, "dianpao", 1),
    ]
    assert answer["net"] == {"A": 6, "B": -2, "C": -4}
    assert answer["next_dealer"] == "A"
    assert answer["hands"] == [
        {
            "winner": "A",
            "from": "C",
            "method": "discard",
            "patterns": [{"key": "kawuxing", "name": "卡五星", "multiplier": 2}],
            "multiplier": 2,
            "final_multiplier": 2,
            "baohu": False,
        }
    ]


def test_liangdao_winner_on_a_discard_is_baohu():
    answer = settle([{"type": "liangdao", "player": "A"}, hu("A", "discard", "C", EXAMPLE_1)])
    assert flows(answer) == [("C", "A", 8, "baohu", 1)]
    assert answer["hands"][0]["baohu"] is True
    assert [p["key"] for p in answer["hands"][0]["patterns"]] == ["kawuxing", "liangdao"]


def test_kong_on_kong_then_draw():
    answer = settle(
        [
            {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1},
            {"type": "gang", "player": "C", "kind": "zhigang", "from": "B", "chain": 2},
            {"type": "draw"},
        ]
    )
    assert flows(answer) == [("A", "B", 2, "zhigang", 0), ("B", "C", 4, "zhigang", 1)]
    assert answer["net"] == {"A": -2, "B": -2, "C": 4}
    assert answer["next_dealer"] == "A"  # 荒庄不下庄


@pytest.mark.parametrize(
    ("penalty", "expected"),
    [
        ("first", [("A", "B", 1), ("A", "C", 1)]),
        ("each", [("A", "B", 1), ("C", "B", 1)]),
        ("none", []),
    ],
)
def test_draw_with_two_liangdao(penalty, expected):
    events = [{"type": "liangdao", "player": "A"}, {"type": "liangdao", "player": "C"}, {"type": "draw"}]
    answer = settle(events, draw_liangdao_penalty=penalty)
    assert [(f, t, a) for f, t, a, reason, event in flows(answer)] == expected
    assert all(reason == "liangdao_penalty" and event == 2 for *_, reason, event in flows(answer))


def test_draw_when_all_three_declared_each_nobody_pays():
    events = [{"type": "liangdao", "player": p} for p in "ABC"] + [{"type": "draw"}]
    assert flows(settle(events, draw_liangdao_penalty="each")) == []


def test_draw_without_liangdao_pays_nothing():
    assert flows(settle([{"type": "draw"}])) == []


def test_self_draw_each_other_player_pays_and_base_scales():
    hand = {"concealed": "4556p123s789s777z", "melds": [], "win_tile": "5p"}
    answer = settle([hu("B", "self_draw", None, hand)], base=100)
    assert flows(answer) == [("A", "B", 200, "zimo", 0), ("C", "B", 200, "zimo", 0)]
    assert answer["next_dealer"] == "B"


def test_xugang_pays_one_base_each_and_kong_money_is_not_doubled_by_liangdao():
    answer = settle(
        [
            {"type": "liangdao", "player": "C"},
            {"type": "gang", "player": "C", "kind": "xugang"},
            hu(
                "C",
                "self_draw",
                None,
                {"concealed": "4556p123s789s", "melds": [{"kind": "xugang", "tile": "7z"}], "win_tile": "5p"},
            ),
        ]
    )
    assert flows(answer) == [
        ("A", "C", 1, "xugang", 1),
        ("B", "C", 1, "xugang", 1),
        ("A", "C", 4, "zimo", 2),
        ("B", "C", 4, "zimo", 2),
    ]


def test_three_kong_chain_doubles_each_time():
    answer = settle(
        [
            {"type": "gang", "player": "A", "kind": "angang", "chain": 1},
            {"type": "gang", "player": "A", "kind": "xugang", "chain": 2},
            {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 3},
            {"type": "draw"},
        ]
    )
    assert flows(answer) == [
        ("B", "A", 2, "angang", 0),
        ("C", "A", 2, "angang", 0),
        ("B", "A", 2, "xugang", 1),
        ("C", "A", 2, "xugang", 1),
        ("A", "B", 8, "zhigang", 2),
    ]


def test_one_discard_two_winners():
    hand_b = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
    hand_c = {"concealed": "4556p123s789s777z", "melds": [], "win_tile": "5p"}
    answer = settle([hu("B", "discard", "A", hand_b), hu("C", "discard", "A", hand_c)])
    assert flows(answer) == [("A", "B", 2, "dianpao", 0), ("A", "C", 2, "dianpao", 1)]
    assert answer["next_dealer"] == "A"
    assert [h["winner"] for h in answer["hands"]] == ["B", "C"]


def test_one_discard_two_winners_is_refused_whole_if_one_hand_is():
    good = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
    pihu = {"concealed": "123p456p789s234s5s", "melds": [], "win_tile": "5s"}
    answer = settle([hu("B", "discard", "A", good), hu("C", "discard", "A", pihu)])
    assert answer["error"]["code"] == "pihu_self_draw_only"
    assert "C" in answer["error"]["message"]


def test_two_winners_need_the_same_discarder():
    hand = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
    answer = settle([hu("B", "discard", "A", hand), hu("C", "discard", "B", hand)])
    assert answer["error"]["code"] == "inconsistent"


def test_two_winners_of_one_tile_win_the_same_way():
    hand = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}
    answer = settle([hu("B", "discard", "A", hand), hu("C", "rob_kong", "A", hand)])
    assert answer["error"]["code"] == "inconsistent"


def test_rob_kong_is_paid_by_the_robbed_player_and_the_kong_pays_nothing():
    answer = settle(
        [
            {"type": "gang", "player": "B", "kind": "xugang", "tile": "5p"},
            hu("A", "rob_kong", "B", EXAMPLE_1),
        ]
    )
    assert flows(answer) == [("B", "A", 4, "qiangganghu", 1)]


def test_a_piao_told_between_the_added_kong_and_its_rob_leaves_the_kong_robbed():
    """The ledger books a 抢杠胡's asked 漂 just before it: a 漂 is a stake, not a play, so the kong stays robbed."""
    kong = {"type": "gang", "player": "B", "kind": "xugang", "tile": "5p"}
    piao = [{"type": "piao", "player": p, "amount": n} for p, n in (("A", 1), ("B", 0), ("C", 2))]
    answer = settle([kong, *piao, hu("A", "rob_kong", "B", EXAMPLE_1)], piao="chosen")
    assert [f for f in flows(answer) if f[3] != "piao"] == [("B", "A", 4, "qiangganghu", 4)]


def test_rob_kong_of_another_tile_is_inconsistent():
    answer = settle(
        [{"type": "gang", "player": "B", "kind": "xugang", "tile": "6p"}, hu("A", "rob_kong", "B", EXAMPLE_1)]
    )
    assert answer["error"]["code"] == "inconsistent"


def test_liangdao_rob_kong_is_baohu():
    answer = settle([{"type": "liangdao", "player": "A"}, hu("A", "rob_kong", "B", EXAMPLE_1)])
    assert flows(answer) == [("B", "A", 16, "baohu", 1)]


def test_liangdao_self_draw_is_an_ordinary_self_draw_doubled():
    answer = settle([{"type": "liangdao", "player": "A"}, hu("A", "self_draw", None, EXAMPLE_1)])
    assert flows(answer) == [("B", "A", 4, "zimo", 1), ("C", "A", 4, "zimo", 1)]


def test_gangshangkaihua_and_gangshangpao_need_the_right_kong_before():
    kaihua = dict(EXAMPLE_1_AFTER_ANGANG, situations=["gangshangkaihua"])
    ok = settle([{"type": "gang", "player": "A", "kind": "angang"}, hu("A", "self_draw", None, kaihua)])
    assert flows(ok)[-1] == ("C", "A", 4, "zimo", 1)
    wrong = settle([{"type": "gang", "player": "B", "kind": "angang"}, hu("A", "self_draw", None, kaihua)])
    assert wrong["error"]["code"] == "inconsistent"
    pao = dict(EXAMPLE_1, situations=["gangshangpao"])
    ok = settle([{"type": "gang", "player": "C", "kind": "angang"}, hu("A", "discard", "C", pao)])
    assert flows(ok)[-1] == ("C", "A", 4, "dianpao", 1)
    nokong = settle([hu("A", "discard", "C", pao)])
    assert nokong["error"]["code"] == "inconsistent"


def test_gangshangpao_after_a_chain_doubles_once():
    pao = dict(EXAMPLE_1, situations=["gangshangpao"])
    answer = settle(
        [
            {"type": "gang", "player": "B", "kind": "zhigang", "from": "C", "chain": 1},
            {"type": "gang", "player": "C", "kind": "zhigang", "from": "B", "chain": 2},
            hu("A", "discard", "C", pao),
        ]
    )
    assert flows(answer)[-1] == ("C", "A", 4, "dianpao", 2)


def test_liangdao_flag_must_agree_with_the_events():
    declared_but_flag_false = settle(
        [{"type": "liangdao", "player": "A"}, hu("A", "discard", "C", dict(EXAMPLE_1, liangdao=False))]
    )
    assert declared_but_flag_false["error"]["code"] == "inconsistent"
    flag_without_event = settle([hu("A", "discard", "C", dict(EXAMPLE_1, liangdao=True))])
    assert flag_without_event["error"]["code"] == "inconsistent"


def test_declared_patterns_in_a_settlement():
    answer = settle([{"type": "liangdao", "player": "B"}, hu("B", "discard", "A", {"patterns": ["qingyise", "qidui"]})])
    assert flows(answer) == [("A", "B", 64, "baohu", 1)]
    capped = settle(
        [{"type": "liangdao", "player": "B"}, hu("B", "discard", "A", {"patterns": ["qingyise", "qidui"]})],
        preset="xiangyang",
    )
    assert flows(capped) == [("A", "B", 16, "baohu", 1)]


def test_partial_gives_kong_money_so_far():
    answer = settle(
        [{"type": "gang", "player": "B", "kind": "zhigang", "from": "A"}, {"type": "liangdao", "player": "C"}],
        partial=True,
    )
    assert flows(answer) == [("A", "B", 2, "zhigang", 0)]
    assert answer["next_dealer"] is None
    assert answer["hands"] == []
    assert settle([], partial=True)["transfers"] == []


def test_unfinished_hand_without_partial_is_refused():
    answer = settle([{"type": "gang", "player": "B", "kind": "angang"}])
    assert answer["error"]["code"] == "bad_request"


@pytest.mark.parametrize(
    ("events", "code"),
    [
        ([hu("A", "discard", "A", EXAMPLE_1)], "inconsistent"),
        ([hu("A", "self_draw", "B", EXAMPLE_1)], "inconsistent"),
        ([hu("D", "discard", "A", EXAMPLE_1)], "bad_request"),
        ([hu("A", "discard", None, EXAMPLE_1)], "bad_request"),
        ([{"type": "gang", "player": "A", "kind": "zhigang"}, {"type": "draw"}], "bad_request"),
        ([{"type": "gang", "player": "A", "kind": "zhigang", "from": "A"}, {"type": "draw"}], "inconsistent"),
        ([{"type": "gang", "player": "A", "kind": "angang", "from": "B"}, {"type": "draw"}], "inconsistent"),
        ([{"type": "gang", "player": "A", "kind": "angang", "chain": 2}, {"type": "draw"}], "inconsistent"),
        ([{"type": "gang", "player": "A", "kind": "angang", "chain": 0}, {"type": "draw"}], "bad_request"),
        ([{"type": "gang", "player": "A", "kind": "ming"}, {"type": "draw"}], "bad_request"),
        ([{"type": "liangdao", "player": "A"}, {"type": "liangdao", "player": "A"}, {"type": "draw"}], "inconsistent"),
        ([{"type": "draw"}, {"type": "draw"}], "inconsistent"),
        ([{"type": "draw"}, {"type": "liangdao", "player": "A"}], "inconsistent"),
        ([hu("A", "self_draw", None, EXAMPLE_1), {"type": "gang", "player": "A", "kind": "angang"}], "inconsistent"),
        ([{"type": "peng", "player": "A"}], "bad_request"),
        ([{"type": "draw", "note": "x"}], "bad_request"),
        ([{"type": "liangdao"}, {"type": "draw"}], "bad_request"),
        ([hu("A", "discard", "C", {"concealed": "123p46p789s22s333s", "win_tile": "9p"})], "not_a_win"),
        ([hu("A", "discard", "C", dict(EXAMPLE_1, method="self_draw"))], "inconsistent"),
        ([hu("A", "discard", "C", {"patterns": ["qidui", "pengpenghu"]})], "inconsistent"),
        ("draw", "bad_request"),
    ],
)
def test_impossible_event_lists_are_refused(events, code):
    answer = settle(events)
    assert answer["ok"] is False
    assert answer["error"]["code"] == code, answer


@pytest.mark.parametrize(
    "request_",
    [
        {"game": "kawuxing", "players": ["A", "B"], "events": [{"type": "draw"}]},
        {"game": "kawuxing", "players": ["A", "B", "B"], "events": [{"type": "draw"}]},
        {"game": "kawuxing", "players": ["A", "B", "C"], "dealer": "D", "events": [{"type": "draw"}]},
        {"game": "kawuxing", "players": ["A", "B", "C"], "base": 0, "events": [{"type": "draw"}]},
        {"game": "kawuxing", "players": ["A", "B", "C"], "base": 1.5, "events": [{"type": "draw"}]},
        {"game": "kawuxing", "players": ["A", "B", "C"], "events": [{"type": "draw"}], "stake": 1},
        {"game": "kawuxing", "players": "ABC", "events": [{"type": "draw"}]},
    ],
)
def test_bad_tables_are_bad_requests(request_):
    answer = score(request_)
    assert answer["error"]["code"] == "bad_request", answer
