"""The scoring core's refusals carry a reading (a stable key and its arguments) beside the Chinese message, and an
English group's reply is worded from it (`bot.texts.SCORING_ENGLISH`): every key the core can raise has an English
text, each is shown here on a real refusal of the core, and none leaves Chinese for an English group to read (game
terms are glossed in brackets after their English). A Chinese group reads the core's own words, as before."""

from __future__ import annotations

import ast
import functools
import gzip
import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.texts import SCORING_ENGLISH, chat_message, scoring_reason, scoring_refusal
from ledger.hands import refuse_rob_without_kong, refuse_seven_pairs_after_kong
from ledger.scoring import Reading, ScoringError, answer, score
from ledger.scoring.kawuxing import make_rules, missing_inputs, rules_from_request, settle
from ledger.scoring.kawuxing.evaluate import DeclaredHand
from ledger.scoring.kawuxing.settle import Hu
from ledger.service import ScoringRefused

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "ledger" / "scoring"
#: the ledger's own refusals worded as the core's (a record the hand's events contradict, the contract unchanged)
LEDGER_REFUSING = ROOT / "ledger" / "hands.py"
RECORDED = ROOT / "tests" / "scoring" / "data" / "contract_regression.jsonl.gz"


def _raises() -> list[tuple[Path, ast.Call]]:
    return [
        (path, node)
        for path in [*sorted(CORE.rglob("*.py")), LEDGER_REFUSING]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ScoringError"
    ]


def _core_keys() -> dict[str, set[str]]:
    """Every reading key a `ScoringError(code, key, message, ...)` in the scoring core is built with, and its codes."""
    keys: dict[str, set[str]] = {}
    for _, node in _raises():
        code, key = node.args[:2]
        if isinstance(code, ast.Constant) and isinstance(key, ast.Constant):
            keys.setdefault(key.value, set()).add(code.value)
    return keys


def test_every_refusal_in_the_core_is_built_with_its_code_and_key_as_literals() -> None:
    loose = [
        f"{path.relative_to(ROOT)}: {ast.unparse(node.args[1]) if len(node.args) > 1 else '?'}"
        for path, node in _raises()
        if len(node.args) < 3 or not all(isinstance(a, ast.Constant) for a in node.args[:2])
    ]
    # `ScoringError.of_winner`: the same reading, said of one winner's hand
    assert loose == ["ledger/scoring/common.py: self.reading.key"]


def test_a_key_names_one_kind_of_refusal() -> None:
    assert {key: codes for key, codes in _core_keys().items() if len(codes) > 1} == {}
    assert set().union(*_core_keys().values()) == {
        "bad_request",
        "bad_tiles",
        "inconsistent",
        "not_a_win",
        "pihu_self_draw_only",
        "wrong_count",
    }


def test_every_key_the_core_raises_has_an_english_text_and_every_english_text_a_key() -> None:
    keys = set(_core_keys())
    assert sorted(keys - set(SCORING_ENGLISH)) == []
    assert sorted(set(SCORING_ENGLISH) - keys) == []


#: Chinese outside brackets: a gloss after its English word, `(清一色)` or `(屁胡, ×1)`, is allowed
_BRACKETED = re.compile(r"\([^()]*\)")
_HAN = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


_FIELD = re.compile(r"\{\w+\}")


def _english(err: ScoringError) -> str:
    """The refusal an English group reads, checked: no Chinese but the request's own words (names, what was typed)
    and the glosses, every field of the text filled."""
    shown = scoring_refusal("en", err)
    assert shown.startswith("Not recorded: "), shown
    words = _BRACKETED.sub("", shown)
    for value in err.reading.args.values():
        for word in value if isinstance(value, list) else [value]:
            words = words.replace(str(word), "")
    assert not _HAN.search(words), shown
    assert not _FIELD.search(shown) and "None" not in shown, shown
    return shown


def _refusal(request: dict[str, Any] | Callable[[], object]) -> ScoringError:
    with pytest.raises(ScoringError) as raised:
        answer(request) if isinstance(request, dict) else request()
    return raised.value


def _win(method: str, hand: dict[str, Any], source: str | None = None, **more: Any) -> dict[str, Any]:
    return {"type": "hu", "winner": "A", "method": method, "from": source, "hand": hand, **more}


def _kawuxing(*events: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {"game": "kawuxing", "rules": rules, "base": 100, "players": ["A", "B", "C"], "events": list(events)}


def _hand(**hand: Any) -> dict[str, Any]:
    return {"game": "kawuxing", "hand": {"melds": [], "method": "self_draw", **hand}}


def _penghu(*events: dict[str, Any], **more: Any) -> dict[str, Any]:
    request = {"game": "penghu", "stake": 1, "players": ["A", "B", "C", "D"], "dealer": "A", "events": list(events)}
    return {**request, **more}


def _gouji(**more: Any) -> dict[str, Any]:
    seats = ["A", "B", "C", "D", "E", "F"]
    return {"game": "gouji", "stake": 1, "seats": seats, "order": seats, **more}


def _declared(*patterns: str, **more: Any) -> dict[str, Any]:
    return {"patterns": list(patterns), **more}


def _tiles(concealed: str, win: str, melds: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds or [], "win_tile": win}


def _nested(depth: int) -> list[Any]:
    deep: list[Any] = []
    for _ in range(depth):
        deep = [deep]
    return deep


_PENGS = [{"kind": "peng", "tile": t} for t in ("1p", "2p", "3p", "4p", "5p")]
_ROBBED = {"type": "gang", "player": "B", "kind": "xugang", "tile": "5p"}
_DRAW_READY = {"type": "draw", "ready": {"B": {"concealed": "123p456p789p11s28s", "melds": []}}}
_PENG_B = {"type": "peng", "player": "B", "from": "C"}
_CHOSEN = {"piao": "chosen"}
_QINGYISE_WIN = _win("self_draw", _declared("qingyise"))


def _ready(ready: object) -> dict[str, Any]:
    return _kawuxing({"type": "draw", "ready": ready}, chadajiao=True)


def _settle_python(hu: Hu) -> Callable[[], object]:
    """A refusal only a caller of the Python API can meet (the JSON reader checks it first)."""
    return lambda: settle(["A", "B", "C"], [hu], make_rules())


#: a request (or a call) of the scoring core for each reading key the recorded contract requests do not show
REQUESTS: dict[str, dict[str, Any] | Callable[[], object]] = {
    # the ledger's: seven pairs from a winner who konged this hand
    "seven_pairs_after_kong": lambda: refuse_seven_pairs_after_kong(
        "kawuxing",
        [{"type": "gang", "player": "A", "kind": "angang", "tile": "5s"}, _win("self_draw", _declared("qidui"))],
    ),
    # the ledger's: a 抢杠胡 with no kong to rob, or robbing a kong nobody may rob
    "rob_without_kong": lambda: refuse_rob_without_kong("kawuxing", [_win("rob_kong", _declared("kawuxing"), "B")]),
    "rob_kawuxing_tile": lambda: refuse_rob_without_kong(
        "kawuxing",
        [{"type": "gang", "player": "B", "kind": "xugang", "tile": "4s"}, _win("rob_kong", _declared("kawuxing"), "B")],
    ),
    "rob_not_added_kong": lambda: refuse_rob_without_kong(
        "kawuxing",
        [
            {"type": "gang", "player": "B", "kind": "angang", "tile": "5s"},
            _win("rob_kong", _tiles("123p46p789s22s333s", "5p"), "B"),
        ],
    ),
    # the request as a whole
    "too_deep": {"game": _nested(100_000)},
    "missing_fields": {"game": "penghu", "stake": 1, "players": ["A", "B", "C", "D"], "dealer": "A"},
    "unknown_fields": _gouji(extra=1),
    "stake_not_integer": _gouji(stake="1"),
    "stake_fraction": _gouji(stake=2.5),
    "stake_too_small": _penghu(stake=0),
    "stake_too_big": _gouji(stake=10**9),
    "no_rule_options": _penghu(rules={"speed": 1}),
    "names_not_list": _gouji(seats="ABCDEF"),
    "too_many_names": _gouji(seats=[f"P{i}" for i in range(20)]),
    "text_too_long": _kawuxing(_QINGYISE_WIN) | {"players": ["A" * 300, "B", "C"]},
    "text_lone_surrogate": _kawuxing(_QINGYISE_WIN) | {"players": ["A\ud800", "B", "C"]},
    # tiles
    "no_winds": _hand(concealed="1z23p456p789p11s2s", win_tile="2s"),
    "no_such_honor": _hand(concealed="8z23p456p789p11s2s", win_tile="2s"),
    "suit_without_rank": _hand(concealed="p123", win_tile="2s"),
    "rank_without_suit": _hand(concealed="12中", win_tile="2s"),
    "ends_without_suit": _hand(concealed="123", win_tile="2s"),
    "not_one_tile": _hand(concealed="123p456p789p11s2s", win_tile="12s"),
    "tiles_too_long": _hand(concealed="1p" * 150, win_tile="2s"),
    # 卡五星: the request
    "hand_or_events": {"game": "kawuxing", "hand": {}, "events": []},
    "no_events": lambda: missing_inputs({"game": "kawuxing"}),
    "rule_not_list": _kawuxing(_QINGYISE_WIN, suits="ps"),
    "rule_unknown_choice": _kawuxing(_QINGYISE_WIN, suits=["p", "x"]),
    "rule_repeated_choice": _kawuxing(_QINGYISE_WIN, suits=["p", "p"]),
    "rule_key_not_text": lambda: rules_from_request({1: 2}),
    "duiliang_alone": _kawuxing(_QINGYISE_WIN, duiliang_double=True, liangdao_payer_double=False),
    "base_too_big": _kawuxing(_QINGYISE_WIN) | {"base": 10**9},
    "too_many_events": _kawuxing(*[{"type": "liangdao", "player": "A"}] * 100),
    # 卡五星: a hand
    "list_too_long": _hand(patterns=["qingyise"] * 40),
    "meld_without_tile": _hand(patterns=["pengpenghu"], melds=[{"kind": "peng"}]),
    "liangdao_flag_declared": _hand(patterns=["qingyise", "liangdao"], liangdao=False),
    # 卡五星: a hand's events
    "three_winners": _kawuxing(_QINGYISE_WIN, _QINGYISE_WIN, _QINGYISE_WIN),
    "chain_too_long": _kawuxing({"type": "gang", "player": "A", "kind": "angang", "chain": 99}, {"type": "draw"}),
    "liangdao_flag": _settle_python(
        Hu("A", "self_draw", None, DeclaredHand(("qingyise",), "self_draw", liangdao=True))
    ),
    "win_method_differs": _settle_python(Hu("A", "self_draw", None, DeclaredHand(("qingyise",), "discard"))),
    "draw_without_ready": _kawuxing({"type": "draw"}, chadajiao=True),
    "liangdao_ready": _kawuxing({"type": "liangdao", "player": "B"}, {"type": "draw", "ready": {}}, chadajiao=True),
    "ready_not_object": _ready([]),
    "ready_too_many": _ready({"A": {}, "B": {}, "C": {}, "D": {}}),
    "ready_hand_not_object": _ready({"B": 1}),
    "ready_unknown_field": _ready({"B": {"tiles": "1p"}}),
    "ready_patterns_not_list": _ready({"B": {"patterns": "qingyise"}}),
    "ready_without_tiles": _ready({"B": {"melds": []}}),
    "ready_tiles_too_long": _ready({"B": {"concealed": "1p" * 150}}),
    "ready_tile_count": _ready({"B": {"concealed": "123p", "melds": [{"kind": "peng", "tile": "1s"}]}}),
    "piao_not_played": _kawuxing(_QINGYISE_WIN) | {"piao": {"A": 1, "B": 1, "C": 1}},
    "piao_twice": _kawuxing({"type": "piao", "player": "A", "amount": 1}, _QINGYISE_WIN, **_CHOSEN)
    | {"piao": {"A": 1, "B": 1, "C": 1}},
    "piao_missing": _kawuxing({"type": "piao", "player": "A", "amount": 1}, _QINGYISE_WIN, **_CHOSEN),
    "piao_needed": _kawuxing(_QINGYISE_WIN, **_CHOSEN),
    "piao_everyone": _kawuxing(_QINGYISE_WIN, **_CHOSEN) | {"piao": {"A": 1}},
    "piao_amount": _kawuxing(_QINGYISE_WIN, **_CHOSEN) | {"piao": {"A": 1, "B": 1, "C": 99}},
    "count_not_needed": _kawuxing(_win("self_draw", _tiles("123p456p789p11s23s", "4s"), kan=1)),
    "count_needed": _kawuxing(_QINGYISE_WIN, shukan=True),
    "count_range": _kawuxing(_win("self_draw", _declared("qingyise"), kan=99), shukan=True),
    "ma_needed": _kawuxing(_QINGYISE_WIN, maima="self_draw"),
    "ma_not_bought": _kawuxing(_win("discard", _declared("qingyise"), "B", ma="7s"), maima="self_draw"),
    # 够级
    "geming_placed": _gouji(geming=["A"]),
    "geming_shaopai": _gouji(order=["B", "C", "D", "E", "F"], geming=["A"], shaopai_failed=["A"]),
    "shaopai_some_placed": _gouji(order=["C", "D", "E", "F", "A"], shaopai_failed=["A", "B"]),
    "shaopai_order": _gouji(order=["A", "B", "C", "D", "E", "F"], shaopai_failed=["B", "A"]),
    "order_missing": _gouji(order=["A", "B", "C", "D", "E"]),
    "name_twice": _gouji(order=["A", "A", "C", "D", "E", "F"]),
    "not_seated": _gouji(order=["B", "C", "D", "E", "F"], geming=["Z"]),
    # 碰胡
    "penghu_players": _penghu() | {"players": ["A", "B", "C"]},
    "players_repeated": _penghu() | {"players": ["A", "A", "C", "D"]},
    "dealer_not_seated": _penghu(dealer="Z"),
    "penghu_not_over": _penghu(_PENG_B),
    "event_player_not_seated": _penghu({"type": "peng", "player": "Z", "from": "C"}),
    "event_from_not_seated": _penghu({"type": "peng", "player": "B", "from": "Z"}),
    "paoqi_from": _penghu({"type": "paoqi", "player": "B"}),
    "flag_not_bool": _penghu({"type": "sao", "player": "B", "at_deal": "yes"}),
    "not_a_discard": _penghu({"type": "sao", "player": "B", "from": "C"}),
    "fifth_is_wufu": _penghu(*[_PENG_B] * 4, {"type": "baojing", "player": "B"}, _PENG_B),
    "third_sao_is_tishe": _penghu(*[{"type": "sao", "player": "B", "at_deal": True}] * 3),
    "paoqi_hu_from": _penghu(_PENG_B, {"type": "hu", "player": "B", "from": None, "paoqi": True}),
    "dealer_xiaoqidui_sao": _penghu({"type": "xiaoqidui", "player": "A"}),
    # the first wave's English readings, each on the core's real message
    "pihu": _kawuxing(_win("discard", _declared(), "B")),
    "no_win_hand": _kawuxing(_win("self_draw", _tiles("123p456p789p11s23s", "5s"))),
    "tile_count": _kawuxing(_win("self_draw", _tiles("123p456p789p11s", "2s"))),
    "too_many_melds": _kawuxing(_win("self_draw", _declared("pengpenghu", melds=_PENGS))),
    "suit_not_played": _kawuxing(_win("discard", _tiles("123m456p789p11s22s", "2s"), "B")),
    "fifth_tile": _kawuxing(_win("self_draw", _tiles("1111p456p789p111s", "1p"))),
    "gskh": _kawuxing(_win("self_draw", _declared("qingyise", situations=["gangshangkaihua"]))),
    "gsp": _kawuxing(_win("discard", _declared("qingyise", situations=["gangshangpao"]), "B")),
    "method_only": _kawuxing(_win("discard", _declared("qingyise", situations=["haidilao"]), "B")),
    "no_haidipao": _kawuxing(_win("discard", _declared("qingyise", situations=["haidipao"]), "B")),
    "gskh_without_kong": _kawuxing(
        {"type": "gang", "player": "A", "kind": "angang", "tile": "3s"},
        _win("self_draw", _declared("qingyise", "gangshangkaihua", melds=[])),
    ),
    "once": _kawuxing(_win("self_draw", _declared("qingyise", "qingyise"))),
    "includes": _kawuxing(_win("self_draw", _declared("qidui", "longqidui"))),
    "concealed_only": _kawuxing(_win("self_draw", _declared("qidui", melds=_PENGS[:1]))),
    "not_both": _kawuxing(_win("self_draw", _declared("qingyise", "dasanyuan"))),
    "shouzhuayi_alone": _kawuxing(
        _win("self_draw", _declared("shouzhuayi", "pengpenghu")), shouzhuayi_pengpenghu=False
    ),
    "one_four": _kawuxing(_win("self_draw", _declared("qingyise", "ansiguiyi", "ansiguiyi")), pindao="half"),
    "fours_once": _kawuxing(
        _win("self_draw", _declared("qingyise", "ansiguiyi", "ansiguiyi")), pindao="full", hidden_fours="once"
    ),
    "shouzhuayi_melds": _kawuxing(_win("self_draw", _declared("shouzhuayi", melds=_PENGS[:3]))),
    "not_ready": _kawuxing(_DRAW_READY, chadajiao=True),
    "kong_not_in_hand": _kawuxing(
        {"type": "gang", "player": "A", "kind": "angang", "tile": "7z"},
        _win("discard", _tiles("123p46p789s22s", "5p", [{"kind": "angang", "tile": "3s"}]), "C"),
    ),
    "robbed_tile": _kawuxing(_ROBBED, _win("rob_kong", _tiles("123p45p789s22s333s", "6p"), "B")),
    "deal_only": _penghu(_PENG_B, {"type": "xiaoqidui", "player": "C"}),
    "own_discard": _penghu({"type": "peng", "player": "B", "from": "B"}),
    "nothing_to_run": _penghu({"type": "paoqi", "player": "B", "from": "C"}),
    "after_shuang_tishe": _penghu(
        {"type": "tishe", "player": "B", "at_deal": True},
        {"type": "peng", "player": "C", "from": "D"},
        {"type": "tishe", "player": "B", "at_deal": True},  # the second 提蛇 at the deal, told after play began
    ),
    "baojing_twice": _penghu(*[_PENG_B] * 4, {"type": "baojing", "player": "B"}, {"type": "baojing", "player": "B"}),
    "baojing_early": _penghu({"type": "baojing", "player": "B"}),
    "zhongzhuang": _penghu({"type": "hu", "player": "B", "from": None, "zhongzhuang": True}),
    "dealer_dihu": _penghu({"type": "dihu", "player": "A", "from": "B"}),
    "dihu_payer": _penghu({"type": "dihu", "player": "B", "from": "C"}),
    "hand_over": _penghu({"type": "draw"}, _PENG_B),
}

#: what an English group reads for some of them, word for word
WORDED = {
    "ready_tile_count": "B's ready hand with 1 meld holds 10 tiles, not 3.",
    "pihu": "A: a plain win (屁胡, ×1) must be self-drawn, not won on a discard: the group's rule (屁胡只能自摸).",
    "no_win_hand": "A: 123456789p1123s winning on 5s is not a win: it makes neither four sets and a pair nor "
    "seven pairs.",
    "tile_count": "A: with 0 melds a hand holds 13 tiles, not 11.",
    "suit_not_played": "A: 1m: this table plays only dots (p) and bamboo (s), no characters (m).",
    "fifth_tile": "A: 1p is there 5 times; each tile exists only 4 times.",
    "method_only": "A: last tile of the wall (海底捞) can only be won self-drawn; this hand was won on a discard.",
    "seven_pairs_after_kong": "A made a kong this hand: seven pairs (七对) must be fully concealed, no kongs.",
    "includes": "A: seven pairs with a four (龙七对) already includes seven pairs (七对): name one of them.",
    "robbed_tile": "A robbed B's added kong (蓄杠) of 5p, yet the winning tile is 6p.",
    "rob_without_kong": "A robbing a kong (抢杠) robs the added kong (蓄杠) B is making, but no added kong of B's is "
    "recorded just before it. Record “B added kong” first, then this win (the robbed kong pays no kong money); not "
    "robbing a kong, it is a win on a discard: from B.",
    "rob_not_added_kong": "A robbing a kong (抢杠): only an added kong (蓄杠: a fourth tile added to a pong) can be "
    "robbed, and B's latest record is the concealed kong (暗杠). If it was B's added kong, record “B added kong 5p” "
    "first; not robbing a kong, it is a win on a discard: from B.",
    "baojing_early": "the alarm (报警) comes after the fourth pong or sweep (碰/扫); B has 0.",
    "zhongzhuang": "only the dealer A can win with the dealer's bonus (中庄).",
}


@functools.cache
def _recorded_refusals() -> dict[str, ScoringError]:
    """One refusal of each key among the requests the contract's regression test replays (replayed once, by the
    worker that first asks: at import, every test worker paid ~5 s collecting it)."""
    found: dict[str, ScoringError] = {}
    with gzip.open(RECORDED, "rt", encoding="utf-8") as lines:
        for line in lines:
            recorded = json.loads(line)
            if recorded["answer"]["ok"]:
                continue
            try:
                answer(recorded["request"], partial=recorded["partial"])
            except ScoringError as err:
                found.setdefault(err.reading.key, err)
    return found


def test_every_key_is_shown_on_a_real_refusal_of_the_core() -> None:
    assert sorted(set(_core_keys()) - set(_recorded_refusals()) - set(REQUESTS)) == []


@pytest.mark.parametrize("key", sorted(REQUESTS))
def test_each_request_is_refused_with_its_key_and_reads_in_english(key: str) -> None:
    err = _refusal(REQUESTS[key])
    assert err.reading.key == key, (err.code, err.message)
    shown = _english(err)
    if key in WORDED:
        assert shown == "Not recorded: " + WORDED[key]


def test_each_recorded_refusal_reads_in_english() -> None:
    refusals = _recorded_refusals()
    assert refusals
    for err in refusals.values():
        _english(err)


@pytest.mark.parametrize("key", sorted(REQUESTS))
def test_the_json_answer_is_the_chinese_message_without_the_reading(key: str) -> None:
    request = REQUESTS[key]
    if not isinstance(request, dict):
        return
    err = _refusal(request)
    assert score(request) == {"ok": False, "error": {"code": err.code, "message": err.message}}


@pytest.mark.parametrize("key", sorted(REQUESTS))
def test_a_chinese_group_reads_the_cores_own_words(key: str) -> None:
    err = _refusal(REQUESTS[key])
    assert scoring_refusal("zh", err) == "没有记录：" + chat_message(err.message)


def test_a_refusal_said_of_a_winner_names_the_winner_in_both_languages() -> None:
    err = _refusal(REQUESTS["pihu"])
    assert err.message.startswith("第 1 个事件，A 的胡牌：") and err.reading.args["winner"] == "A"
    assert scoring_reason("zh", err) == "A 的胡牌：屁胡（×1）只能自摸，不能点炮：本局规则「屁胡只能自摸」"
    assert scoring_reason("en", err).startswith("A: a plain win (屁胡, ×1)")


def test_a_key_with_no_english_text_yet_says_so_in_english_with_the_cores_words() -> None:
    err = _refusal(REQUESTS["hand_over"])
    unknown = ScoringError(err.code, "not_yet_worded", err.message, **err.reading.args)
    assert scoring_reason("en", unknown) == "the rules refuse this record (这手牌在 这一条 已经结束，后面不能再有事件)."


def test_a_reading_is_plain_data() -> None:
    err = _refusal(REQUESTS["fifth_tile"])
    assert err.reading == Reading("fifth_tile", {"tile": "1p", "count": 5, "winner": "A"})


def test_the_ledgers_refusal_keeps_the_reading_across_processes() -> None:
    err = _refusal(REQUESTS["fifth_tile"])
    refused = pickle.loads(pickle.dumps(ScoringRefused(err.code, err.message, err.reading)))
    assert (refused.code, refused.message, refused.reading) == (err.code, err.message, err.reading)
    assert scoring_refusal("en", refused) == scoring_refusal("en", err)
