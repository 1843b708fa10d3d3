"""卡五星 (Ka Wu Xing) scoring: one winning hand, or one whole hand's settlement, as the `paiju score` contract.

Typed API (for the ledger and the bot): `PATTERNS`, `PRESETS`, `OPTIONS`, `make_rules`, `Hand`, `Meld`,
`DeclaredHand`, `evaluate`, `evaluate_declared`, `ready`, `score_hand`, the events `Gang`, `Liangdao`, `Piao`,
`Hu`, `Draw` (with `ReadyHand` for 查大叫), `settle`, and `missing` (what the players must still tell). JSON API:
`answer(request, partial=False)`, `missing_inputs(request)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.scoring.common import ScoringError
from ledger.scoring.kawuxing.evaluate import (
    DeclaredHand,
    Hand,
    HandResult,
    Meld,
    evaluate,
    evaluate_declared,
    hand_from_json,
    ready,
    score_hand,
)
from ledger.scoring.kawuxing.patterns import METHODS, PATTERNS, PATTERNS_BY_KEY, SITUATIONS, Pattern
from ledger.scoring.kawuxing.rules import OPTIONS, PRESETS, Option, Preset, Rules, make_rules, rules_from_request
from ledger.scoring.kawuxing.settle import (
    REASON_ZH,
    Draw,
    Event,
    Gang,
    Hu,
    Liangdao,
    Missing,
    Piao,
    ReadyHand,
    Settlement,
    WinResult,
    missing,
    missing_from_json,
    settle,
    settle_from_json,
)

_HAND_REQUEST_KEYS = frozenset({"game", "rules", "hand"})
_SETTLE_REQUEST_KEYS = frozenset({"game", "rules", "base", "players", "dealer", "events", "piao"})


def answer(request: Mapping[str, Any], partial: bool = False) -> dict[str, Any]:
    """Answer one `paiju score` request for 卡五星: a `"hand"` to evaluate or `"events"` to settle.

    Raises `ScoringError` for every refusal (`ledger.scoring.score` turns it into `{"ok": false, ...}`).
    """
    if "hand" in request and "events" in request:
        raise ScoringError("bad_request", "hand_or_events", "一个请求只能有 hand（算一手牌）或 events（结算一局）之一")
    if "hand" in request:
        allowed = _HAND_REQUEST_KEYS
    elif "events" in request:
        allowed = _SETTLE_REQUEST_KEYS
    else:
        raise ScoringError("bad_request", "no_hand_or_events", "卡五星请求要有 hand（算一手牌）或 events（结算一局）")
    unknown = [k for k in request if k not in allowed]
    if unknown:
        raise ScoringError(
            "bad_request",
            "request_unknown_field",
            f"请求里有不认识的字段 {unknown[0]!r}，可用：{'、'.join(sorted(allowed))}",
            field=repr(unknown[0]),
            allowed=sorted(allowed),
        )
    rules = rules_from_request(request.get("rules"))
    if "hand" in request:
        return {"ok": True, **score_hand(hand_from_json(request["hand"], rules), rules).as_json()}
    return settle_from_json(request, rules, partial)


def missing_inputs(request: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The inputs a settle request's hand still lacks under its rules before it can be scored (the chat asks for
    them): `[{"input": "piao" | "kan" | "qia" | "ba" | "ma" | "ready", "player"?, "event"?}]`, `[]` for a hand
    still in play or a complete one. Raises `ScoringError` for a request it cannot read."""
    if "events" not in request:
        raise ScoringError("bad_request", "no_events", "要有 events（一局的事件）")
    return missing_from_json(request, rules_from_request(request.get("rules")))


__all__ = [
    "METHODS",
    "OPTIONS",
    "PATTERNS",
    "PATTERNS_BY_KEY",
    "PRESETS",
    "REASON_ZH",
    "SITUATIONS",
    "DeclaredHand",
    "Draw",
    "Event",
    "Gang",
    "Hand",
    "HandResult",
    "Hu",
    "Liangdao",
    "Meld",
    "Missing",
    "Option",
    "Pattern",
    "Piao",
    "Preset",
    "ReadyHand",
    "Rules",
    "Settlement",
    "WinResult",
    "answer",
    "evaluate",
    "evaluate_declared",
    "make_rules",
    "missing",
    "missing_inputs",
    "ready",
    "score_hand",
    "settle",
]
