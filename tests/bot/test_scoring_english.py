"""The scoring core's refusals in an English group: every error code the core raises has an English text in the
bot's tables, and a message no English reading knows still says its kind in English (the transcript
`scoring_english.txt` shows the readings on the core's real messages)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from bot.texts import SCORING_READINGS, TEXTS, chat_message, scoring_reading, scoring_refusal, text
from ledger.scoring import score

CORE = Path(__file__).resolve().parents[2] / "ledger" / "scoring"


def _core_codes() -> set[str]:
    """Every literal error code a `ScoringError(...)` in the scoring core is raised with."""
    codes = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ScoringError" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
    return codes


def test_the_core_raises_the_codes_the_bot_knows() -> None:
    assert _core_codes() == {
        "bad_request",
        "bad_tiles",
        "inconsistent",
        "not_a_win",
        "pihu_self_draw_only",
        "wrong_count",
    }


@pytest.mark.parametrize("code", sorted(_core_codes()))
def test_every_code_reads_in_english(code: str) -> None:
    assert f"scoring_en_{code}" in TEXTS
    shown = scoring_refusal("en", code, "一句还没有英文读法的话")
    assert shown.startswith("Not recorded: ") and shown.split("(")[0].isascii()
    assert "(一句还没有英文读法的话)" in shown  # the core's specifics, quoted, where no reading puts them in English


@pytest.mark.parametrize("code", sorted(SCORING_READINGS))
def test_a_chinese_group_reads_the_cores_own_words(code: str) -> None:
    assert scoring_refusal("zh", code, "第 2 个事件，甲 的胡牌：一句话") == "没有记录：甲 的胡牌：一句话"


def test_an_english_reading_takes_the_names_and_tiles_it_finds() -> None:
    message = "第 1 个事件，老王 的胡牌：屁胡（×1）只能自摸，不能抢杠胡：本局规则「屁胡只能自摸」"
    assert scoring_refusal("en", "pihu_self_draw_only", message) == (
        "Not recorded: 老王: a 屁胡 (×1) must be self-drawn, not won by robbing a kong: "
        "the group's rule 「屁胡只能自摸」."
    )


def _win(method: str, hand: dict[str, Any], source: str | None = None) -> dict[str, Any]:
    return {"type": "hu", "winner": "A", "method": method, "from": source, "hand": hand}


def _kawuxing(*events: dict[str, Any], **rules: Any) -> dict[str, Any]:
    return {"game": "kawuxing", "rules": rules, "base": 100, "players": ["A", "B", "C"], "events": list(events)}


def _penghu(*events: dict[str, Any]) -> dict[str, Any]:
    return {"game": "penghu", "stake": 1, "players": ["A", "B", "C", "D"], "dealer": "A", "events": list(events)}


def _declared(*patterns: str, **more: Any) -> dict[str, Any]:
    return {"patterns": list(patterns), **more}


def _tiles(concealed: str, win: str, melds: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds or [], "win_tile": win}


_PENGS = [{"kind": "peng", "tile": t} for t in ("1p", "2p", "3p", "4p", "5p")]
_ROBBED = {"type": "gang", "player": "B", "kind": "xugang", "tile": "5p"}
_DRAW_READY = {"type": "draw", "ready": {"B": {"concealed": "123p456p789p11s28s", "melds": []}}}

#: a request of the scoring core for each English reading: the reading must read the core's real message
REQUESTS = {
    "scoring_en_pihu": _kawuxing(_win("discard", _declared(), "B")),
    "scoring_en_no_win_hand": _kawuxing(_win("self_draw", _tiles("123p456p789p11s23s", "5s"))),
    "scoring_en_tile_count": _kawuxing(_win("self_draw", _tiles("123p456p789p11s", "2s"))),
    "scoring_en_too_many_melds": _kawuxing(_win("self_draw", _declared("pengpenghu", melds=_PENGS))),
    "scoring_en_suit_not_played": _kawuxing(_win("discard", _tiles("123m456p789p11s22s", "2s"), "B")),
    "scoring_en_fifth_tile": _kawuxing(_win("self_draw", _tiles("1111p456p789p111s", "1p"))),
    "scoring_en_gskh": _kawuxing(_win("self_draw", _declared("qingyise", situations=["gangshangkaihua"]))),
    "scoring_en_gsp": _kawuxing(_win("discard", _declared("qingyise", situations=["gangshangpao"]), "B")),
    "scoring_en_method_only": _kawuxing(_win("discard", _declared("qingyise", situations=["haidilao"]), "B")),
    "scoring_en_no_haidipao": _kawuxing(_win("discard", _declared("qingyise", situations=["haidipao"]), "B")),
    "scoring_en_gskh_no_kong": _kawuxing(
        {"type": "gang", "player": "A", "kind": "angang", "tile": "3s"},
        _win("self_draw", _declared("qingyise", "gangshangkaihua", melds=[])),
    ),
    "scoring_en_once": _kawuxing(_win("self_draw", _declared("qingyise", "qingyise"))),
    "scoring_en_includes": _kawuxing(_win("self_draw", _declared("qidui", "longqidui"))),
    "scoring_en_concealed_only": _kawuxing(_win("self_draw", _declared("qidui", melds=_PENGS[:1]))),
    "scoring_en_not_both": _kawuxing(_win("self_draw", _declared("qingyise", "dasanyuan"))),
    "scoring_en_shouzhuayi_alone": _kawuxing(
        _win("self_draw", _declared("shouzhuayi", "pengpenghu")), shouzhuayi_pengpenghu=False
    ),
    "scoring_en_one_four": _kawuxing(_win("self_draw", _declared("qingyise", "ansiguiyi", "ansiguiyi")), pindao="half"),
    "scoring_en_fours_once": _kawuxing(
        _win("self_draw", _declared("qingyise", "ansiguiyi", "ansiguiyi")), pindao="full", hidden_fours="once"
    ),
    "scoring_en_shouzhuayi_melds": _kawuxing(_win("self_draw", _declared("shouzhuayi", melds=_PENGS[:3]))),
    "scoring_en_not_ready": _kawuxing(_DRAW_READY, chadajiao=True),
    "scoring_en_kong_not_in_hand": _kawuxing(
        {"type": "gang", "player": "A", "kind": "angang", "tile": "7z"},
        _win("discard", _tiles("123p46p789s22s", "5p", [{"kind": "angang", "tile": "3s"}]), "C"),
    ),
    "scoring_en_robbed_tile": _kawuxing(_ROBBED, _win("rob_kong", _tiles("123p45p789s22s333s", "6p"), "B")),
    "scoring_en_deal_only": _penghu({"type": "peng", "player": "B", "from": "C"}, {"type": "xiaoqidui", "player": "C"}),
    "scoring_en_own_discard": _penghu({"type": "peng", "player": "B", "from": "B"}),
    "scoring_en_nothing_to_run": _penghu({"type": "paoqi", "player": "B", "from": "C"}),
    "scoring_en_after_shuang_tishe": _penghu(
        {"type": "tishe", "player": "B", "at_deal": True},
        {"type": "peng", "player": "C", "from": "D"},
        {"type": "tishe", "player": "B", "at_deal": True},  # the second 提蛇 at the deal, told after play began
    ),
    "scoring_en_baojing_twice": _penghu(
        *[{"type": "peng", "player": "B", "from": "C"}] * 4,
        {"type": "baojing", "player": "B"},
        {"type": "baojing", "player": "B"},
    ),
    "scoring_en_baojing_early": _penghu({"type": "baojing", "player": "B"}),
    "scoring_en_zhongzhuang": _penghu({"type": "hu", "player": "B", "from": None, "zhongzhuang": True}),
    "scoring_en_dealer_dihu": _penghu({"type": "dihu", "player": "A", "from": "B"}),
    "scoring_en_dihu_payer": _penghu({"type": "dihu", "player": "B", "from": "C"}),
    "scoring_en_hand_over": _penghu({"type": "draw"}, {"type": "peng", "player": "B", "from": "C"}),
}


def test_every_english_reading_has_a_request_that_shows_it() -> None:
    readings = {key for patterns in SCORING_READINGS.values() for _, key in patterns}
    assert readings == set(REQUESTS)


@pytest.mark.parametrize("key", sorted(REQUESTS))
def test_each_english_reading_reads_the_cores_real_message(key: str) -> None:
    answer = score(REQUESTS[key])
    assert not answer["ok"]
    error = answer["error"]
    found = scoring_reading(error["code"], chat_message(error["message"]))
    assert found is not None and found[0] == key, error
    text("en", key, **found[1])  # every argument the English text names is there
    for name in ("hand", "tile", "win", "method", "allowed", "used", "suit"):  # tiles and ways of winning in English
        assert found[1].get(name, "").isascii(), found[1]
