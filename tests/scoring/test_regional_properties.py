"""Invariants of the regional options (hypothesis): money only changes hands, under every preset and option;
an option leaves alone every hand it has nothing to say about."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.scoring import score
from ledger.scoring.common import ERROR_CODES, ScoringError
from ledger.scoring.kawuxing import OPTIONS, PRESETS, missing_inputs
from tests.scoring.test_kawuxing_properties import PLAYERS, event_lists, request, winning_hands

SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: options of the settlement alone: a single hand's patterns and multiples never depend on them
SETTLEMENT_ONLY = {
    "draw_liangdao_penalty": "each",
    "liangdao_payer_double": True,
    "chadajiao": True,
    "zhigang_money": 3,
    "piao": "fixed",
    "maima": "self_draw",
    "shukan": True,
    "paoqiamoba": True,
}


@st.composite
def rule_sets(draw):
    """A preset and any single options over it (对亮翻番 only with 亮倒输家加倍, as the rules require)."""
    rules = {"preset": draw(st.sampled_from(sorted(PRESETS)))}
    for option in OPTIONS:
        if option.key in ("suits", "big_hands") or not draw(st.booleans()):
            continue
        rules[option.key] = draw(st.sampled_from(option.choices))
    if rules.get("duiliang_double"):
        rules["liangdao_payer_double"] = True
    return rules


def _effective(rules, key, default):
    if key in rules:
        return rules[key]
    return PRESETS[rules["preset"]].overrides.get(key, default)


def _complete(events, rules, draw):
    """The per-hand inputs these rules ask for: 马牌, counts of a named hand, 查大叫's ready hands."""
    declared = set()
    done = []
    for event in events:
        event = dict(event)
        if event["type"] == "liangdao":
            declared.add(event["player"])
        if event["type"] == "hu":
            named = "patterns" in event["hand"]
            if named and _effective(rules, "shukan", False):
                event["kan"] = draw(st.integers(0, 4))
            if named and _effective(rules, "paoqiamoba", False):
                event["qia"], event["ba"] = draw(st.integers(0, 4)), draw(st.integers(0, 6))
            maima = _effective(rules, "maima", "none")
            buys = event["method"] == "self_draw" and (
                maima == "self_draw" or (maima == "liangdao_self_draw" and event["winner"] in declared)
            )
            if buys:
                event["ma"] = draw(st.sampled_from(["1p", "9s", "5z", "7z"]))
        if event["type"] == "draw" and _effective(rules, "chadajiao", False):
            ready = {p: {"patterns": ["kawuxing"]} for p in declared}
            for player in draw(st.sets(st.sampled_from(PLAYERS))):
                ready.setdefault(player, {"concealed": "123p46p789s22s333s"})
            event["ready"] = ready
        done.append(event)
    return done


@SLOW
@given(event_lists(), rule_sets(), st.integers(1, 500), st.data())
def test_transfers_sum_to_zero_under_every_preset_and_option(case, rules, base, data):
    events, open_hand = case
    request_ = {
        "game": "kawuxing",
        "rules": rules,
        "base": base,
        "players": PLAYERS,
        "dealer": "A",
        "events": _complete(events, rules, data.draw),
    }
    if _effective(rules, "piao", "none") in ("chosen", "first_hand"):
        request_["piao"] = {p: data.draw(st.integers(0, 10)) for p in PLAYERS}
    answer = score(request_, partial=open_hand)
    if not answer["ok"]:
        assert answer["error"]["code"] in ERROR_CODES, answer
        return
    assert sum(answer["net"].values()) == 0
    net = dict.fromkeys(PLAYERS, 0)
    for t in answer["transfers"]:
        assert t["amount"] > 0 and t["amount"] % base == 0 and t["from"] != t["to"]
        net[t["from"]] -= t["amount"]
        net[t["to"]] += t["amount"]
    assert net == answer["net"]


@SLOW
@given(winning_hands(), st.sampled_from(sorted(PRESETS)), st.sampled_from(sorted(SETTLEMENT_ONLY)))
def test_settlement_options_never_change_a_hand(hand, preset, option):
    plain = score(request(hand, preset))
    with_option = score(dict(request(hand, preset), rules={"preset": preset, option: SETTLEMENT_ONLY[option]}))
    if option == "liangdao_payer_double" and preset in ("xiaogan", "yingcheng"):
        return  # those presets play it already
    assert with_option == plain


@SLOW
@given(winning_hands(), st.sampled_from(["xiangyang", "uncapped", "shiyan"]))
def test_a_multiplier_option_never_lowers_a_hand_and_leaves_hands_that_cannot_hold_its_pattern(hand, preset):
    plain = score(request(hand, preset))
    cannot = {
        "kawuxing_multiplier": hand["win_tile"] not in ("5p", "5s"),
        "pengpenghu_multiplier": False,
        "gangshang_multiplier": "gangshangkaihua" not in hand["situations"],
        "shouzhuayi_pengpenghu": len(hand["melds"]) != 4,
    }
    for option, value in (
        ("kawuxing_multiplier", 4),
        ("pengpenghu_multiplier", 4),
        ("gangshang_multiplier", 4),
        ("shouzhuayi_pengpenghu", False),
    ):
        changed = score(dict(request(hand, preset), rules={"preset": preset, option: value}))
        if cannot[option]:
            assert changed == plain, option
        elif option == "shouzhuayi_pengpenghu":
            assert changed["multiplier"] * 2 == plain["multiplier"]
        else:
            assert changed["multiplier"] >= plain["multiplier"]
            assert changed["final_multiplier"] >= plain["final_multiplier"]


@SLOW
@given(winning_hands())
def test_full_pindao_never_pays_less_and_half_never_more(hand):
    default = score(request(hand))
    assert (
        score(dict(request(hand), rules={"preset": "uncapped", "pindao": "full"}))["multiplier"]
        >= (default["multiplier"])
    )
    assert (
        score(dict(request(hand), rules={"preset": "uncapped", "pindao": "half"}))["multiplier"]
        <= (default["multiplier"])
    )
    once = score(dict(request(hand), rules={"preset": "uncapped", "hidden_fours": "once"}))
    assert once["multiplier"] <= default["multiplier"]


@SLOW
@given(event_lists(), rule_sets(), st.data())
def test_missing_names_exactly_the_inputs_the_rules_ask_for(case, rules, data):
    """What `missing_inputs` lists for a hand is exactly what these rules make a hand bring (as the test above
    completes it): each player's 漂 where they choose it, each win's 坎/恰/八/马, the draw's ready hands."""
    events, open_hand = case
    completed = _complete(events, rules, data.draw)
    request_ = {"game": "kawuxing", "rules": rules, "players": PLAYERS, "events": events}
    try:
        found = missing_inputs(request_)
    except ScoringError:
        return  # a request the core cannot read (it refuses the same when scoring)
    expected = []
    if not open_hand and _effective(rules, "piao", "none") in ("chosen", "first_hand"):
        expected += [{"input": "piao", "player": p} for p in PLAYERS]
    for i, (before, after) in enumerate(zip(events, completed, strict=True)):
        for key in ("kan", "qia", "ba", "ma"):
            if key in after and key not in before:
                expected.append({"input": key, "player": after["winner"], "event": i})
        if "ready" in after and "ready" not in before:
            expected.append({"input": "ready", "event": i})
    assert found == expected
    assert missing_inputs({**request_, "events": completed, "piao": dict.fromkeys(PLAYERS, 1)}) == []
