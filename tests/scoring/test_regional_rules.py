"""Regional 卡五星 options and presets, each from its source's own numbers (docs/regional-rules.md names them).

Sources: the Python `MKawuxingOneResult` (its own asserts: 全频道/半频道, 跑恰摸八, 明牌输, the 清一色海底捞 table
[-16, 24, -8]); the Go `YingChengKwx` package (应城: 手抓一 without 碰碰胡, 海底炮, ×4 options, 漂/马/坎 added to each
payment, 数坎, 赔庄); the Java `KWXMahjongRoom` (对亮对番, 查大叫); the JavaScript kawuxing-server (直杠 3, 查叫).
"""

import pytest

from ledger.scoring import score

EXAMPLE_1 = {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p"}  # 卡五星 on a 5p
EXAMPLE_2 = {"concealed": "4556p123s789s777z", "melds": [], "win_tile": "5p"}  # 卡五星, self-drawn
EXAMPLE_9 = {
    "concealed": "3s",
    "melds": [
        {"kind": "peng", "tile": "2p"},
        {"kind": "peng", "tile": "5s"},
        {"kind": "zhigang", "tile": "9p"},
        {"kind": "peng", "tile": "7z"},
    ],
    "win_tile": "3s",
}


def hand(body, method, preset="uncapped", **rules):
    return score({"game": "kawuxing", "rules": {"preset": preset, **rules}, "hand": {**body, "method": method}})


def keys(answer):
    assert answer["ok"], answer
    return [p["key"] for p in answer["patterns"]]


def settle(events, preset="uncapped", base=1, stakes=None, partial=False, **rules):
    """`stakes`: the request's per-hand 漂 (the rules option `piao` says whether and how the table plays 漂)."""
    request = {
        "game": "kawuxing",
        "rules": {"preset": preset, **rules},
        "base": base,
        "players": ["A", "B", "C"],
        "dealer": "A",
        "events": events,
    }
    if stakes is not None:
        request["piao"] = stakes
    return score(request, partial=partial)


def hu(winner, method, source, body, **extra):
    return {"type": "hu", "winner": winner, "method": method, "from": source, "hand": body, **extra}


def flows(answer):
    assert answer["ok"], answer
    return [(t["from"], t["to"], t["amount"], t["reason"]) for t in answer["transfers"]]


def code(answer):
    assert not answer["ok"], answer
    return answer["error"]["code"]


# --- 海底炮 -----------------------------------------------------------------------------------------------
def test_haidipao_doubles_a_win_on_the_last_discard_where_the_table_plays_it():
    last = {**EXAMPLE_1, "situations": ["haidipao"]}
    answer = hand(last, "discard", haidipao=True)
    assert keys(answer) == ["kawuxing", "haidipao"]
    assert answer["multiplier"] == 4
    # 海底 named the usual way on a discard is read as 海底炮 there
    assert keys(hand({**EXAMPLE_1, "situations": ["haidilao"]}, "discard", haidipao=True)) == ["kawuxing", "haidipao"]
    assert hand(last, "discard", preset="yingcheng")["final_multiplier"] == 4


def test_haidipao_is_refused_where_the_table_does_not_play_it_and_never_on_a_self_draw():
    assert code(hand({**EXAMPLE_1, "situations": ["haidipao"]}, "discard")) == "inconsistent"
    assert code(hand({**EXAMPLE_1, "situations": ["haidilao"]}, "discard")) == "inconsistent"
    assert code(hand({**EXAMPLE_2, "situations": ["haidipao"]}, "self_draw", haidipao=True)) == "inconsistent"
    declared = {"patterns": ["kawuxing", "haidipao"]}
    assert hand(declared, "discard", haidipao=True)["multiplier"] == 4
    assert code(hand(declared, "discard")) == "inconsistent"


# --- 手抓一 and 碰碰胡 --------------------------------------------------------------------------------------
def test_shouzhuayi_stands_alone_in_yingcheng():
    assert keys(hand(EXAMPLE_9, "discard")) == ["pengpenghu", "shouzhuayi"]
    assert hand(EXAMPLE_9, "discard")["multiplier"] == 8
    alone = hand(EXAMPLE_9, "discard", preset="yingcheng")
    assert keys(alone) == ["shouzhuayi"] and alone["multiplier"] == 4
    assert hand({"patterns": ["shouzhuayi"]}, "discard", preset="yingcheng")["multiplier"] == 4
    assert code(hand({"patterns": ["shouzhuayi", "pengpenghu"]}, "discard", preset="yingcheng")) == "inconsistent"


# --- ×4 options --------------------------------------------------------------------------------------------
def test_kawuxing_pengpenghu_and_gangshang_may_be_worth_four():
    assert hand(EXAMPLE_1, "discard", kawuxing_multiplier=4)["multiplier"] == 4
    pengs = {"concealed": "111p222s333s4s777z", "melds": [], "win_tile": "4s"}
    assert keys(hand(pengs, "self_draw")) == ["pengpenghu"]
    four = hand(pengs, "self_draw", pengpenghu_multiplier=4)
    assert four["multiplier"] == 4 and four["patterns"] == [{"key": "pengpenghu", "name": "碰碰胡", "multiplier": 4}]
    after_kong = {
        "concealed": "123p46p789s22s",
        "melds": [{"kind": "angang", "tile": "3s"}],
        "win_tile": "5p",
        "situations": ["gangshangkaihua"],
    }
    assert hand(after_kong, "self_draw")["multiplier"] == 4
    assert hand(after_kong, "self_draw", gangshang_multiplier=4)["multiplier"] == 8
    assert code(hand(EXAMPLE_1, "discard", kawuxing_multiplier=3)) == "bad_request"


# --- 四归一: 频道 and counting -------------------------------------------------------------------------------
def test_full_pindao_counts_a_hidden_four_in_any_hand_and_half_pindao_only_the_winning_tile():
    # the Python server's asserts: with 全频道 a hand holding 5p ×4 is 暗四归 whatever it wins on; with 半频道 not
    an = {"concealed": "4p5555p6p123s789s1s", "melds": [], "win_tile": "1s"}
    assert keys(hand(an, "self_draw")) == []  # 屁胡: not a big hand, and the win is not the fourth 5p
    assert keys(hand(an, "self_draw", pindao="full")) == ["ansiguiyi"]
    assert keys(hand(an, "self_draw", pindao="half")) == []
    # a 碰 of 5p with the fourth 5p in hand, winning on 4p: 明四归 with 全频道 only
    ming = {"concealed": "56p111s55s789s", "melds": [{"kind": "peng", "tile": "5p"}], "win_tile": "4p"}
    assert keys(hand(ming, "self_draw")) == []
    assert keys(hand(ming, "self_draw", pindao="full")) == ["mingsiguiyi"]
    # 半频道 drops the hidden four even of a big hand (the rules page's example 10)
    big = {"concealed": "1111p2p567p999p88p", "melds": [], "win_tile": "3p"}
    assert keys(hand(big, "self_draw")) == ["qingyise", "ansiguiyi"]
    assert keys(hand(big, "self_draw", pindao="half")) == ["qingyise"]


def test_hidden_fours_counted_once():
    two_fours = {"concealed": "1111p2222p33p789p", "melds": [], "win_tile": "3p"}
    each = hand(two_fours, "self_draw")
    assert keys(each) == ["qingyise", "ansiguiyi", "ansiguiyi"] and each["multiplier"] == 64
    once = hand(two_fours, "self_draw", hidden_fours="once")
    assert keys(once) == ["qingyise", "ansiguiyi"] and once["multiplier"] == 16
    assert code(hand({"patterns": ["qingyise", "ansiguiyi", "ansiguiyi"]}, "self_draw", hidden_fours="once")) == (
        "inconsistent"
    )


# --- 亮倒 doubles what a loser pays -------------------------------------------------------------------------
QINGYISE_HAIDI = {"concealed": "23p456p567p789p99p", "melds": [], "win_tile": "1p", "situations": ["haidilao"]}


def test_a_declared_loser_pays_double_the_python_servers_table():
    # 清一色 × 海底捞 = 8 each; A had declared 亮倒 and loses: A pays 16 — the server's scores [-16, 24, -8]
    events = [{"type": "liangdao", "player": "A"}, hu("B", "self_draw", None, QINGYISE_HAIDI)]
    answer = settle(events, liangdao_payer_double=True)
    assert flows(answer) == [("A", "B", 16, "zimo"), ("C", "B", 8, "zimo")]
    assert answer["net"] == {"A": -16, "B": 24, "C": -8}
    assert answer["hands"][0]["payer_multipliers"] == {"A": 16}
    assert flows(settle(events)) == [("A", "B", 8, "zimo"), ("C", "B", 8, "zimo")]
    # the cap applies after the doubling (应城 caps 牌型分 × 番 at 封顶); 孝感 adds the 坎 of 999p on top
    capped = flows(settle(events, preset="xiaogan"))
    assert capped == [("A", "B", 8, "zimo"), ("C", "B", 8, "zimo"), ("A", "B", 1, "shukan"), ("C", "B", 1, "shukan")]


def test_a_declared_discarder_pays_double():
    events = [{"type": "liangdao", "player": "C"}, hu("A", "discard", "C", EXAMPLE_1)]
    assert flows(settle(events, preset="yingcheng")) == [("C", "A", 4, "dianpao")]


def test_duiliang_doubles_again_when_both_had_declared():
    events = [
        {"type": "liangdao", "player": "A"},
        {"type": "liangdao", "player": "B"},
        hu("A", "self_draw", None, EXAMPLE_2),
    ]
    # 卡五星 × 亮倒 = 4 for each payer; with 对亮翻番 B, who had declared too, pays ×2 again
    assert flows(settle(events, liangdao_payer_double=True)) == [("B", "A", 4, "zimo"), ("C", "A", 4, "zimo")]
    both = settle(events, liangdao_payer_double=True, duiliang_double=True)
    assert flows(both) == [("B", "A", 8, "zimo"), ("C", "A", 4, "zimo")]
    assert code(settle(events, duiliang_double=True)) == "bad_request"


# --- 直杠 paid 3 ------------------------------------------------------------------------------------------
def test_zhigang_paid_three_by_the_discarder():
    events = [
        {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1},
        {"type": "gang", "player": "C", "kind": "zhigang", "from": "B", "chain": 2},
        {"type": "draw"},
    ]
    assert flows(settle(events, zhigang_money=3, draw_liangdao_penalty="none")) == [
        ("A", "B", 3, "zhigang"),
        ("B", "C", 6, "zhigang"),
    ]
    assert flows(settle(events))[:2] == [("A", "B", 2, "zhigang"), ("B", "C", 4, "zhigang")]


# --- 漂, 买马, 数坎, 跑恰摸八: added to each payment ----------------------------------------------------------
def test_fixed_piao_adds_both_players_stakes_to_every_payment():
    # 应城: each payer pays (牌型分 + 漂(winner) + 漂(payer) + 马 + 坎) × 底分
    answer = settle([hu("A", "self_draw", None, EXAMPLE_2)], base=100, piao="fixed", piao_amount=2)
    assert flows(answer) == [
        ("B", "A", 200, "zimo"),
        ("C", "A", 200, "zimo"),
        ("B", "A", 400, "piao"),
        ("C", "A", 400, "piao"),
    ]
    assert code(settle([hu("A", "self_draw", None, EXAMPLE_2)], stakes={"A": 1, "B": 1, "C": 1}, piao="fixed")) == (
        "bad_request"
    )


def test_chosen_piao_is_reported_per_hand():
    stakes = {"A": 1, "B": 0, "C": 2}
    answer = settle([hu("A", "discard", "C", EXAMPLE_1)], base=100, stakes=stakes, piao="chosen")
    assert flows(answer) == [("C", "A", 200, "dianpao"), ("C", "A", 300, "piao")]
    # 一炮双响: the discarder pays each winner's 漂 and his own twice
    two = settle([hu("A", "discard", "C", EXAMPLE_1), hu("B", "discard", "C", EXAMPLE_1)], stakes=stakes, piao="chosen")
    assert [t for t in flows(two) if t[3] == "piao"] == [("C", "A", 3, "piao"), ("C", "B", 2, "piao")]
    assert code(settle([hu("A", "discard", "C", EXAMPLE_1)], piao="chosen")) == "bad_request"
    too_much = {"A": 1, "B": 0, "C": 11}
    assert code(settle([hu("A", "discard", "C", EXAMPLE_1)], stakes=too_much, piao="chosen")) == "bad_request"
    assert code(settle([hu("A", "discard", "C", EXAMPLE_1)], stakes=stakes)) == "bad_request"
    # kong money is booked as it happens, before anyone knows the hand's end
    kong = settle([{"type": "gang", "player": "A", "kind": "angang"}], partial=True, piao="chosen")
    assert flows(kong) == [("B", "A", 2, "angang"), ("C", "A", 2, "angang")]


def piao(player, amount):
    return {"type": "piao", "player": player, "amount": amount}


def test_piao_told_as_events_scores_as_the_requests_piao():
    # each player tells their 漂 as the hand goes (a chat records them one message at a time)
    stakes = {"A": 1, "B": 0, "C": 2}
    whole = settle([hu("A", "discard", "C", EXAMPLE_1)], base=100, stakes=stakes, piao="chosen")
    told = [piao(p, n) for p, n in stakes.items()]
    one_by_one = settle([*told, hu("A", "discard", "C", EXAMPLE_1)], base=100, piao="chosen")
    shift = len(told)
    assert flows(one_by_one) == flows(whole)
    assert [t["event"] - shift for t in one_by_one["transfers"]] == [t["event"] for t in whole["transfers"]]
    # 首局定漂 scores a hand's 漂 the same way (the ledger carries the first hand's choice to the later ones)
    assert flows(settle([*told, hu("A", "discard", "C", EXAMPLE_1)], base=100, piao="first_hand")) == flows(whole)
    # a later 漂 of the same player replaces the earlier; a 漂 may come after a kong
    corrected = [piao("C", 5), {"type": "gang", "player": "B", "kind": "angang"}, *told]
    assert flows(settle([*corrected, hu("A", "discard", "C", EXAMPLE_1)], base=100, piao="chosen"))[2:] == flows(whole)
    # a 漂 event is no money of its own: a hand in play books none for it
    assert flows(settle(told[:1], partial=True, piao="chosen")) == []


def test_piao_events_are_refused_where_the_players_do_not_choose_it():
    told = [piao(p, 1) for p in "ABC"]
    end = hu("A", "discard", "C", EXAMPLE_1)
    assert code(settle([*told, end], piao="fixed")) == "bad_request"
    assert code(settle([*told, end])) == "bad_request"
    assert code(settle([*told, end], stakes={"A": 1, "B": 1, "C": 1}, piao="chosen")) == "bad_request"
    assert code(settle([*told[:2], end], piao="chosen")) == "bad_request"  # C never said
    assert code(settle([*told[:2], piao("C", 11), end], piao="chosen")) == "bad_request"
    assert code(settle([*told[:2], piao("D", 1), end], piao="chosen")) == "bad_request"
    assert code(settle([*told, end, piao("A", 2)], piao="chosen")) == "inconsistent"  # after the end


def test_missing_lists_what_the_players_must_still_tell():
    from ledger.scoring.kawuxing import missing_inputs

    def missing(events, **rules):
        request = {"game": "kawuxing", "rules": {"preset": "uncapped", **rules}, "players": ["A", "B", "C"]}
        return missing_inputs({**request, "events": events})

    named = hu("A", "self_draw", None, {"patterns": ["qingyise"]})
    rules = {"piao": "chosen", "maima": "self_draw", "shukan": True, "paoqiamoba": True}
    assert missing([piao("B", 1), named], **rules) == [
        {"input": "piao", "player": "A"},
        {"input": "piao", "player": "C"},
        {"input": "kan", "player": "A", "event": 1},
        {"input": "qia", "player": "A", "event": 1},
        {"input": "ba", "player": "A", "event": 1},
        {"input": "ma", "player": "A", "event": 1},
    ]
    # tiles are counted (no 坎, 恰, 八 asked); 马 only on a self-draw, and with 亮倒自摸买马 a declared one
    tiles = hu("A", "self_draw", None, EXAMPLE_2)
    assert missing([tiles], shukan=True, paoqiamoba=True, maima="self_draw") == [
        {"input": "ma", "player": "A", "event": 0}
    ]
    assert missing([tiles], maima="liangdao_self_draw") == []
    assert missing([{"type": "liangdao", "player": "A"}, tiles], maima="liangdao_self_draw") == [
        {"input": "ma", "player": "A", "event": 1}
    ]
    assert missing([hu("A", "discard", "C", EXAMPLE_1)], maima="self_draw") == []
    # 查大叫 asks for the ready hands of a draw; a hand still in play asks nothing yet
    assert missing([{"type": "draw"}], chadajiao=True) == [{"input": "ready", "event": 0}]
    assert missing([{"type": "draw", "ready": {}}], chadajiao=True) == []
    assert missing([{"type": "gang", "player": "A", "kind": "angang"}], **rules) == []
    # what it lists is all that is missing: the complete hand scores
    complete = [piao("A", 0), piao("B", 1), piao("C", 2), {**named, "kan": 1, "qia": 1, "ba": 0, "ma": "5z"}]
    assert missing(complete, **rules) == []
    assert settle(complete, **rules)["ok"]


def test_maima_pays_the_horse_tiles_rank_or_ten_for_a_dragon():
    for ma, points in (("7z", 10), ("6s", 6), ("1p", 1)):
        answer = settle([hu("A", "self_draw", None, EXAMPLE_2, ma=ma)], maima="self_draw")
        paid = [t for t in flows(answer) if t[3] == "maima"]
        assert paid == [("B", "A", points, "maima"), ("C", "A", points, "maima")]
        assert answer["hands"][0]["ma"] == {"tile": ma, "points": points}
    assert code(settle([hu("A", "self_draw", None, EXAMPLE_2)], maima="self_draw")) == "bad_request"
    # only a self-draw buys, and with 亮倒自摸买马 only a declared one
    assert code(settle([hu("A", "discard", "C", EXAMPLE_1, ma="7z")], maima="self_draw")) == "bad_request"
    assert code(settle([hu("A", "self_draw", None, EXAMPLE_2, ma="7z")], maima="liangdao_self_draw")) == "bad_request"
    declared = settle(
        [{"type": "liangdao", "player": "A"}, hu("A", "self_draw", None, EXAMPLE_2, ma="3p")],
        maima="liangdao_self_draw",
    )
    assert [t for t in flows(declared) if t[3] == "maima"] == [("B", "A", 3, "maima"), ("C", "A", 3, "maima")]


def test_shukan_counts_concealed_triplets_and_kongs_but_not_one_a_discard_completed():
    # 应城: 数坎 counts the kongs and the triplets in hand; a triplet the discarded winning tile made is no 坎
    with_kong = {"concealed": "777z46p789s22s", "melds": [{"kind": "angang", "tile": "3s"}], "win_tile": "5p"}
    events = [{"type": "gang", "player": "A", "kind": "angang", "tile": "3s"}, hu("A", "discard", "C", with_kong)]
    answer = settle(events, shukan=True)
    assert flows(answer)[2:] == [("C", "A", 2, "dianpao"), ("C", "A", 2, "shukan")]
    assert answer["hands"][0]["kan"] == 2
    pung = {"concealed": "777z22s456p789s11s", "melds": [], "win_tile": "2s"}
    on_discard = settle([hu("A", "discard", "C", pung)], shukan=True, pihu_self_draw_only=False)
    assert on_discard["hands"][0]["kan"] == 1  # 777z; the 222s the discard completed is not a 坎
    self_drawn = settle([hu("A", "self_draw", None, pung)], shukan=True)
    assert self_drawn["hands"][0]["kan"] == 2
    # a hand named by its patterns brings its count; a tile hand must not
    named = settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, kan=3)], shukan=True)
    assert flows(named) == [("C", "A", 2, "dianpao"), ("C", "A", 3, "shukan")]
    assert code(settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]})], shukan=True)) == "bad_request"
    assert code(settle([hu("A", "discard", "C", EXAMPLE_1, kan=1)], shukan=True)) == "bad_request"
    assert code(settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, kan=1)])) == "bad_request"


def test_paoqiamoba_adds_pao_qia_mo_and_ba():
    # 跑 1 (won), 摸 1 (self-drawn), 恰 2 (the 暗杠 1p and 5p held four times), 八 3 (ten 筒): 7 per payer
    body = {"concealed": "4p555p6p789s11s", "melds": [{"kind": "angang", "tile": "1p"}], "win_tile": "5p"}
    events = [{"type": "gang", "player": "A", "kind": "angang", "tile": "1p"}, hu("A", "self_draw", None, body)]
    answer = settle(events, paoqiamoba=True)
    assert answer["hands"][0]["paoqiamoba"] == {"pao": 1, "qia": 2, "mo": 1, "ba": 3}
    paid = [t for t in flows(answer) if t[3] == "paoqiamoba"]
    assert paid == [("B", "A", 7, "paoqiamoba"), ("C", "A", 7, "paoqiamoba")]
    # on a discard: no 摸; a named hand brings 恰 and 八
    named = settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, qia=1, ba=0)], paoqiamoba=True)
    assert [t for t in flows(named) if t[3] == "paoqiamoba"] == [("C", "A", 2, "paoqiamoba")]
    assert code(settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, qia=1)], paoqiamoba=True)) == "bad_request"
    # a hand holds four sets (坎, 恰 ≤ 4) and one suit at most 18 tiles (八 ≤ 11)
    most = settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, qia=4, ba=11)], paoqiamoba=True)
    assert [t for t in flows(most) if t[3] == "paoqiamoba"] == [("C", "A", 16, "paoqiamoba")]
    for counts in ({"qia": 5, "ba": 0}, {"qia": 0, "ba": 12}):
        named = hu("A", "discard", "C", {"patterns": ["kawuxing"]}, **counts)
        assert code(settle([named], paoqiamoba=True)) == "bad_request"
    assert code(settle([hu("A", "discard", "C", {"patterns": ["kawuxing"]}, kan=5)], shukan=True)) == "bad_request"


def test_baohu_pays_both_would_be_payers_side_stakes():
    events = [{"type": "liangdao", "player": "A"}, hu("A", "discard", "C", EXAMPLE_1)]
    answer = settle(events, piao="fixed", piao_amount=1, shukan=True)
    # 卡五星 × 亮倒 = 4, twice: 8; 漂 (1 + 1) for each of B and C; 坎: 333s, twice
    assert flows(answer) == [("C", "A", 8, "baohu"), ("C", "A", 4, "piao"), ("C", "A", 2, "shukan")]


# --- 查大叫 at a draw --------------------------------------------------------------------------------------
READY_A = {"concealed": "123p46p789s22s333s"}  # waits on 5p: 卡五星
READY_B = {"concealed": "123p456p789s234s5s"}  # waits on 2s and 5s: 屁胡


def test_chadajiao_not_ready_pays_the_ready_and_a_declared_player_pays_the_ready_undeclared():
    events = [{"type": "liangdao", "player": "A"}, {"type": "draw", "ready": {"A": READY_A, "B": READY_B}}]
    answer = settle(events, chadajiao=True, draw_liangdao_penalty="none")
    # C is not ready: pays A's best (卡五星 × 亮倒 = 4) and B's (屁胡, 1); A (declared) pays B, who did not declare
    assert flows(answer) == [("A", "B", 1, "chadajiao"), ("C", "A", 4, "chadajiao"), ("C", "B", 1, "chadajiao")]
    assert answer["ready"]["A"]["final_multiplier"] == 4 and answer["ready"]["A"]["waits"] == ["5p"]
    assert [p["key"] for p in answer["ready"]["A"]["patterns"]] == ["kawuxing", "liangdao"]
    assert answer["next_dealer"] == "A"
    # 应城: the declared A pays double, and the 亮倒 penalty is not charged
    yingcheng = settle(events, preset="yingcheng")
    assert flows(yingcheng) == [("A", "B", 2, "chadajiao"), ("C", "A", 4, "chadajiao"), ("C", "B", 1, "chadajiao")]


def test_chadajiao_needs_the_ready_hands_and_they_must_be_ready():
    assert code(settle([{"type": "draw"}], chadajiao=True)) == "bad_request"
    assert flows(settle([{"type": "draw", "ready": {}}], chadajiao=True)) == []
    declared_missing = [{"type": "liangdao", "player": "A"}, {"type": "draw", "ready": {"B": READY_B}}]
    assert code(settle(declared_missing, chadajiao=True)) == "bad_request"
    not_ready = {"concealed": "19p19s1p9p5z6z7z2p3p4p5p"}
    assert code(settle([{"type": "draw", "ready": {"B": not_ready}}], chadajiao=True)) == "inconsistent"
    named = settle([{"type": "draw", "ready": {"B": {"patterns": ["qingyise"]}}}], chadajiao=True)
    assert flows(named) == [("A", "B", 4, "chadajiao"), ("C", "B", 4, "chadajiao")]


# --- presets ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "cap"), [("xiangyang", 16), ("suizhou", 16), ("zaoyang", 16), ("shiyan", 8), ("xiaogan", 8)]
)
def test_shuanglong_cap_by_region(preset, cap):
    shuanglong = {"concealed": "111p2222p334455s", "melds": [], "win_tile": "1p"}
    assert hand(shuanglong, "self_draw", preset=preset)["final_multiplier"] == cap


def test_xiaogan_counts_kan_and_doubles_a_declared_loser():
    events = [{"type": "liangdao", "player": "C"}, hu("A", "discard", "C", EXAMPLE_1)]
    assert flows(settle(events, preset="xiaogan")) == [("C", "A", 4, "dianpao"), ("C", "A", 1, "shukan")]


def test_single_options_override_a_preset():
    assert hand(EXAMPLE_9, "discard", preset="yingcheng", shouzhuayi_pengpenghu=True)["multiplier"] == 8
    shuanglong = {"concealed": "111p2222p334455s", "melds": [], "win_tile": "1p"}
    assert hand(shuanglong, "self_draw", preset="xiaogan", cap="none")["final_multiplier"] == 16
