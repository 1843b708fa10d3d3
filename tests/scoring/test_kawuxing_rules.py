"""Rules objects: presets, per-option overrides, the values each option accepts, and the typed API."""

import pytest

from ledger.scoring.common import ScoringError
from ledger.scoring.kawuxing import (
    OPTIONS,
    PATTERNS,
    PRESETS,
    DeclaredHand,
    Draw,
    Gang,
    Hand,
    Hu,
    Liangdao,
    Meld,
    evaluate,
    evaluate_declared,
    make_rules,
    ready,
    settle,
)
from ledger.scoring.kawuxing.rules import rules_from_request
from ledger.scoring.tiles import parse_tile, parse_tiles


def test_the_first_wave_presets_are_unchanged_and_the_regional_ones_change_only_what_they_name():
    defaults = make_rules().as_json()
    assert {k: v for k, v in defaults.items() if k != "preset"} == {
        option.key: (list(option.default) if isinstance(option.default, tuple) else option.default)
        for option in OPTIONS
    }
    for key, preset in PRESETS.items():
        effective = make_rules(key).as_json()
        changed = {k for k in effective if k != "preset" and effective[k] != defaults[k]}
        assert changed == {k for k, v in preset.overrides.items() if v != defaults[k]}, key
        assert preset.sources, key
    assert {key: make_rules(key).cap for key in ("xiangyang", "suizhou", "zaoyang", "shiyan", "uncapped")} == {
        "xiangyang": "8_shuanglong_16",
        "suizhou": "8_shuanglong_16",
        "zaoyang": "8_shuanglong_16",
        "shiyan": "8",
        "uncapped": "none",
    }
    for key in ("xiangyang", "suizhou", "zaoyang"):
        assert not PRESETS[key].overrides
    assert PRESETS["shiyan"].overrides == {"cap": "8"} and PRESETS["uncapped"].overrides == {"cap": "none"}


def test_overrides_and_their_validation():
    rules = rules_from_request({"preset": "shiyan", "suits": ["s", "m"], "cap": 8, "draw_liangdao_penalty": "each"})
    assert (rules.suits, rules.cap, rules.draw_liangdao_penalty) == (("s", "m"), "8", "each")
    for bad in (
        {"suits": ["p", "p"]},
        {"suits": ["p", "s", "m"]},
        {"suits": "ps"},
        {"pihu_self_draw_only": 1},
        {"big_hands": ["pengpenghu"]},
        {"preset": 3},
        {"preset": "xiangyang", "caps": "8"},
    ):
        with pytest.raises(ScoringError) as err:
            rules_from_request(bad)
        assert err.value.code == "bad_request"


def test_every_option_has_chinese_for_display():
    for option in OPTIONS:
        assert option.zh and option.description
        assert set(option.choice_zh) == set(option.choices)
    assert all(p.zh and p.en and p.multiplier in (2, 4, 8, 16) for p in PATTERNS)


def test_typed_api_round_trip():
    rules = make_rules("uncapped")
    hand = Hand(tuple(parse_tiles("123p46p789s22s")), (Meld("angang", parse_tile("3s")),), parse_tile("5p"), "discard")
    assert evaluate(hand, rules).patterns == ("kawuxing",)
    assert ready(hand) == (parse_tile("5p"),)
    assert evaluate_declared(DeclaredHand(("qingyise", "qidui"), "self_draw"), rules).multiplier == 16
    settlement = settle(["A", "B", "C"], [Gang("A", "angang"), Hu("A", "discard", "C", hand)], rules, dealer="B")
    assert settlement.net == {"A": 6, "B": -2, "C": -4}
    assert settlement.next_dealer == "A"


def test_typed_settle_checks_the_liangdao_flag_of_a_tile_hand():
    rules = make_rules("uncapped")
    hand = Hand(tuple(parse_tiles("123p46p789s22s333s")), (), parse_tile("5p"), "discard")
    with pytest.raises(ScoringError) as err:
        settle(["A", "B", "C"], [Liangdao("A"), Hu("A", "discard", "C", hand)], rules)
    assert err.value.code == "inconsistent"
    declared = DeclaredHand(("kawuxing",), "discard")
    paid = settle(["A", "B", "C"], [Liangdao("A"), Hu("A", "discard", "C", declared)], rules)
    assert [(t.payer, t.amount, t.reason) for t in paid.transfers] == [("C", 8, "baohu")]
    assert settle(["A", "B", "C"], [Draw()], rules).next_dealer is None


def test_equal_rules_are_one_object_so_what_is_learnt_about_them_is_shared():
    assert make_rules("xiaogan") is make_rules("xiaogan", shukan=True)
    assert make_rules("xiaogan") is not make_rules("xiaogan", shukan=False)
    assert make_rules("xiangyang") is rules_from_request(None) is rules_from_request({"preset": "xiangyang"})
