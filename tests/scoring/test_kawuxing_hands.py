"""One winning 卡五星 hand through the contract: the rules page's worked examples and its every fine print."""

import pytest

from ledger.scoring import score


def hand(concealed, win, method, melds=(), preset="uncapped", **extra):
    request = {
        "game": "kawuxing",
        "rules": {"preset": preset},
        "hand": {
            "concealed": concealed,
            "melds": [{"kind": k, "tile": t} for k, t in melds],
            "win_tile": win,
            "method": method,
            **extra,
        },
    }
    return score(request)


def keys(answer):
    assert answer["ok"], answer
    return sorted(p["key"] for p in answer["patterns"])


# The rules page's table: (#, concealed, melds, win, method, pattern keys, ×, capped under xiangyang)
WORKED = [
    (1, "123p46p789s22s333s", (), "5p", "discard", ["kawuxing"], 2, 2),
    (2, "4556p123s789s777z", (), "5p", "self_draw", ["kawuxing"], 2, 2),
    (3, "2245556p123s999s", (), "5p", "discard", ["ansiguiyi", "kawuxing"], 8, 8),
    (4, "1122334456677p", (), "5p", "self_draw", ["qidui", "qingyise"], 16, 8),
    (6, "111p2222p334455s", (), "1p", "self_draw", ["shuanglongqidui"], 16, 16),
    (7, "777z666z55z123p99s", (), "5z", "self_draw", ["dasanyuan"], 8, 8),
    (8, "12s456p789p99s", (("peng", "3s"),), "3s", "self_draw", ["mingsiguiyi"], 2, 2),
    (
        9,
        "3s",
        (("peng", "2p"), ("peng", "5s"), ("zhigang", "9p"), ("peng", "7z")),
        "3s",
        "discard",
        ["pengpenghu", "shouzhuayi"],
        8,
        8,
    ),
    (10, "1111p2p567p999p88p", (), "3p", "self_draw", ["ansiguiyi", "qingyise"], 16, 8),
    (11, "123p456p789s234s5s", (), "5s", "self_draw", [], 1, 1),
]


@pytest.mark.parametrize(("number", "concealed", "melds", "win", "method", "patterns", "times", "capped"), WORKED)
def test_worked_example(number, concealed, melds, win, method, patterns, times, capped):
    uncapped = hand(concealed, win, method, melds)
    assert keys(uncapped) == patterns
    assert uncapped["multiplier"] == uncapped["final_multiplier"] == times
    assert hand(concealed, win, method, melds, preset="xiangyang")["final_multiplier"] == capped


def test_example_5_either_reading_pays_32():
    answer = hand("1122334455566p", "5p", "self_draw")
    assert answer["multiplier"] == 32
    assert keys(answer) in (["longqidui", "qingyise"], ["ansiguiyi", "kawuxing", "qingyise"])
    assert hand("1122334455566p", "5p", "self_draw", preset="xiangyang")["final_multiplier"] == 8


def test_example_12_pihu_on_a_discard_is_refused():
    answer = hand("123p456p789s234s5s", "5s", "discard")
    assert answer["error"]["code"] == "pihu_self_draw_only"
    assert "屁胡" in answer["error"]["message"]


def test_pihu_on_a_discard_is_allowed_when_the_option_is_off():
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped", "pihu_self_draw_only": False},
        "hand": {"concealed": "123p456p789s234s5s", "melds": [], "win_tile": "5s", "method": "discard"},
    }
    assert score(request)["final_multiplier"] == 1


def test_answer_shape_is_exactly_the_contract():
    answer = hand("123p46p789s22s333s", "5p", "discard")
    assert answer == {
        "ok": True,
        "patterns": [{"key": "kawuxing", "name": "卡五星", "multiplier": 2}],
        "multiplier": 2,
        "final_multiplier": 2,
        "waits": ["5p"],
    }


def test_waits_are_the_thirteen_tiles_before_the_win_sorted():
    assert hand("1122334456677p", "5p", "self_draw")["waits"] == ["5p", "8p"]
    assert hand("111p2222p334455s", "1p", "self_draw")["waits"] == ["1p", "3p"]


def test_shuanglong_cap_picks_the_seven_pairs_reading():
    answer = hand("4444566777788p", "5p", "self_draw", preset="xiangyang")
    assert keys(answer) == ["qingyise", "shuanglongqidui"]
    assert (answer["multiplier"], answer["final_multiplier"]) == (64, 16)


def test_shiyan_caps_everything_at_eight():
    assert hand("111p2222p334455s", "1p", "self_draw", preset="shiyan")["final_multiplier"] == 8


@pytest.mark.parametrize(
    ("concealed", "win"),
    [
        ("4556p123s789s777z", "5p"),  # 4556
        ("4688p123s789s777z", "5p"),  # 4688
        ("2245667p123s999s", "5p"),  # 2245667
        ("2245556p123s999s", "5p"),  # 2245556
    ],
)
def test_kawuxing_seed_examples(concealed, win):
    assert "kawuxing" in keys(hand(concealed, win, "self_draw"))


def test_kawuxing_is_not_an_edge_five_of_a_three_four_five():
    # 345p with the 5 at the edge and no 4-5-6 reading
    assert "kawuxing" not in keys(hand("34p111s234s789s99s", "5p", "self_draw"))


def test_kawuxing_is_not_a_five_that_pairs():
    assert "kawuxing" not in keys(hand("123p5p123s789s777z", "5p", "self_draw"))


def test_kawuxing_needs_the_fives_suit():
    # 4-5-6 of 筒 but the winning 5 is a 条
    assert "kawuxing" not in keys(hand("123p456p789s234s5s", "5s", "self_draw"))


def test_kawuxing_and_pengpenghu_are_two_readings_not_one():
    answer = hand("444p55p666p123s99s", "5p", "self_draw")
    assert not {"kawuxing", "pengpenghu"} <= set(keys(answer))
    assert answer["multiplier"] == 2


def test_ansiguiyi_counts_on_a_discard():
    assert keys(hand("555p46p123s789s99s", "5p", "discard")) == ["ansiguiyi", "kawuxing"]


def test_pihu_hidden_four_that_is_not_the_winning_tile_does_not_count():
    # 1111p held, win 9s: no big-hand pattern, so only the winning tile could make 四归一
    assert keys(hand("1111p23p456s789s9s", "9s", "self_draw")) == []


def test_big_hand_counts_each_hidden_four_on_its_own():
    # 清一色 with 1111p and 9999p concealed, winning 2p: 111-123-789-999-55, two hidden fours
    answer = hand("11113789999p55p", "2p", "self_draw")
    assert keys(answer) == ["ansiguiyi", "ansiguiyi", "qingyise"]
    assert answer["multiplier"] == 64


def test_big_hand_peng_plus_fourth_in_hand_is_mingsiguiyi():
    answer = hand("345p678p99p45p", "6p", "self_draw", melds=(("peng", "3p"),))
    assert keys(answer) == ["mingsiguiyi", "qingyise"]
    assert answer["multiplier"] == 8


def test_winning_tile_four_is_not_counted_twice_in_a_big_hand():
    assert keys(hand("555p46p123p789p99p", "5p", "self_draw")) == ["ansiguiyi", "kawuxing", "qingyise"]


def test_big_hands_option_changes_what_counts_as_big():
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped", "big_hands": ["dasanyuan", "xiaosanyuan"]},
        "hand": {"concealed": "1111p2p567p999p88p", "melds": [], "win_tile": "3p", "method": "self_draw"},
    }
    answer = score(request)
    assert sorted(p["key"] for p in answer["patterns"]) == ["qingyise"]


def test_dragons_xiaosanyuan_and_seven_pairs_never_count_pung_patterns():
    assert "xiaosanyuan" in keys(hand("555z666z7z123p999s", "7z", "self_draw"))
    seven = keys(hand("5566z77z1122p33s4s", "4s", "self_draw"))
    assert seven == ["qidui"]


def test_longqidui_has_no_ansiguiyi():
    answer = hand("555p1122p3344s66s", "5p", "self_draw")
    assert "longqidui" in keys(answer) or "ansiguiyi" in keys(answer)
    assert not {"longqidui", "ansiguiyi"} <= set(keys(answer))


def test_situations_liangdao_and_rob_kong_are_entries():
    answer = hand("123p46p789s22s333s", "5p", "self_draw", situations=["haidilao"], liangdao=True)
    assert keys(answer) == ["haidilao", "kawuxing", "liangdao"]
    assert answer["multiplier"] == 8
    robbed = hand("123p46p789s22s333s", "5p", "rob_kong")
    assert keys(robbed) == ["kawuxing", "qiangganghu"]
    assert hand("123p46p789s22s333s", "5p", "rob_kong", situations=["qiangganghu"]) == robbed


def test_gangshangkaihua_needs_an_own_kong_and_a_self_draw():
    ok = hand("123p46p789s22s", "5p", "self_draw", melds=(("angang", "3s"),), situations=["gangshangkaihua"])
    assert keys(ok) == ["gangshangkaihua", "kawuxing"]
    no_kong = hand("123p46p789s22s333s", "5p", "self_draw", situations=["gangshangkaihua"])
    assert no_kong["error"]["code"] == "inconsistent"
    discard = hand("123p46p789s22s", "5p", "discard", melds=(("angang", "3s"),), situations=["gangshangkaihua"])
    assert discard["error"]["code"] == "inconsistent"


@pytest.mark.parametrize(
    ("method", "situation"),
    [
        ("discard", "haidilao"),
        ("self_draw", "gangshangpao"),
        ("rob_kong", "gangshangpao"),
        ("self_draw", "qiangganghu"),
        ("discard", "qiangganghu"),
    ],
)
def test_situations_that_cannot_happen_with_that_method(method, situation):
    answer = hand("123p46p789s22s333s", "5p", method, situations=[situation])
    assert answer["error"]["code"] == "inconsistent"


def test_robbed_kong_tile_the_winner_holds_is_inconsistent():
    answer = hand("123p456p789s55s66s", "5s", "rob_kong")
    assert answer["error"]["code"] == "inconsistent"


def test_cap_counts_liangdao_and_situations():
    answer = hand("1122334456677p", "5p", "self_draw", preset="xiangyang", liangdao=True)
    assert (answer["multiplier"], answer["final_multiplier"]) == (32, 8)


@pytest.mark.parametrize(
    ("concealed", "win", "melds", "code"),
    [
        ("123p46p789s22s333s5p", "5p", (), "wrong_count"),
        ("123p46p789s22s33s", "5p", (), "wrong_count"),
        ("123p46p789s22s333s", "9p", (), "not_a_win"),
        ("123p46p789s22s333s", "0p", (), "bad_tiles"),
        ("123m46p789s22s333s", "5p", (), "bad_tiles"),
        ("1111p46p789s22s33s", "1p", (), "bad_tiles"),
        ("46p789s22s", "5p", (("peng", "2s"), ("peng", "2s")), "bad_tiles"),
        ("12x", "5p", (), "bad_tiles"),
    ],
)
def test_impossible_hands_get_the_right_code(concealed, win, melds, code):
    answer = hand(concealed, win, "discard", melds)
    assert answer["ok"] is False
    assert answer["error"]["code"] == code
    assert answer["error"]["message"]


@pytest.mark.parametrize(
    "request_",
    [
        {"game": "kawuxing", "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p"}},
        {"game": "kawuxing", "hand": {"concealed": "1", "win_tile": "5p", "method": "discard", "colour": 1}},
        {"game": "kawuxing", "hand": "123p", "extra": 1},
        {"game": "kawuxing", "hand": {"concealed": 123, "win_tile": "5p", "method": "discard"}},
        {"game": "kawuxing", "rules": {"preset": "wuhan"}, "hand": {}},
        {"game": "kawuxing", "rules": {"cap": "16"}, "hand": {}},
        {"game": "kawuxing", "rules": {"fan": 1}, "hand": {}},
        {"game": "kawuxing", "rules": {"suits": ["p"]}, "hand": {}},
        {"game": "kawuxing", "rules": [], "hand": {}},
        {"game": "kawuxing"},
        {"game": "kawuxing", "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p", "method": "tsumo"}},
        {
            "game": "kawuxing",
            "hand": {
                "concealed": "123p46p789s22s333s",
                "win_tile": "5p",
                "method": "discard",
                "melds": [{"kind": "chi", "tile": "1p"}],
            },
        },
        {
            "game": "kawuxing",
            "hand": {
                "concealed": "123p46p789s22s333s",
                "win_tile": "5p",
                "method": "discard",
                "situations": ["tianhu"],
            },
        },
        {
            "game": "kawuxing",
            "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p", "method": "discard", "liangdao": "yes"},
        },
    ],
)
def test_malformed_requests_are_bad_requests(request_):
    answer = score(request_)
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad_request", answer


def test_rules_option_suits_lets_wan_in():
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped", "suits": ["m", "s"]},
        "hand": {"concealed": "123m46m789s22s333s", "melds": [], "win_tile": "5m", "method": "discard"},
    }
    assert score(request)["final_multiplier"] == 2


def test_chinese_tiles_are_accepted_in_a_hand():
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped"},
        "hand": {"concealed": "一二三筒 四六筒 七八九条 二二条 三三三条", "win_tile": "五筒", "method": "discard"},
    }
    assert score(request)["final_multiplier"] == 2
