"""Scoring one winning 卡五星 hand: every reading, the patterns of each, the best one after the cap.

Two kinds of hand: `Hand` (the tiles; every reading is tried) and `DeclaredHand` (the players name the patterns;
only consistency is checked). Both give a `HandResult`. `hand_from_json` reads the contract's `"hand"` object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

from ledger.scoring.common import ScoringError
from ledger.scoring.division import is_seven_pairs, standard_divisions, waits
from ledger.scoring.kawuxing.patterns import (
    EXCLUSIVE,
    IMPLIES,
    KONG_KINDS,
    MELD_KINDS,
    MELD_ZH,
    METHOD_ZH,
    METHODS,
    NEEDS_METHOD,
    ORDER,
    PATTERNS_BY_KEY,
    REPEATABLE,
    REPLACES,
    SEVEN_PAIRS_KEYS,
    SEVEN_PAIRS_NEVER,
    SITUATIONAL,
    SITUATIONS,
    STRUCTURAL,
    Reading,
    Win,
)
from ledger.scoring.kawuxing.rules import CAP_8_SHUANGLONG_16, CAP_NONE, Rules
from ledger.scoring.tiles import (
    NUM_KINDS,
    Tile,
    check_copies,
    check_suits,
    counts_of,
    format_zh,
    parse_tile,
    parse_tiles,
    suit_of,
    tile_notation,
    tile_zh,
)


@dataclass(frozen=True)
class Meld:
    kind: str  # peng | zhigang | xugang | angang
    tile: Tile

    @property
    def size(self) -> int:
        return 3 if self.kind == "peng" else 4


@dataclass(frozen=True)
class Hand:
    """A winning hand by its tiles. `concealed` excludes the winning tile (13 − 3·melds tiles)."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    method: str
    situations: frozenset[str] = frozenset()
    liangdao: bool = False


@dataclass(frozen=True)
class DeclaredHand:
    """A winning hand by its named patterns (no tiles). `liangdao=None`: take it from the pattern list."""

    patterns: tuple[str, ...]
    method: str
    situations: frozenset[str] = frozenset()
    liangdao: bool | None = None
    melds: tuple[Meld, ...] | None = None


@dataclass(frozen=True)
class HandResult:
    """`patterns` are keys, one per instance, in table order; `final_multiplier` is after the cap."""

    patterns: tuple[str, ...]
    multiplier: int
    final_multiplier: int
    waits: tuple[Tile, ...] = field(default=())

    def as_json(self) -> dict[str, Any]:
        return {
            "patterns": [
                {"key": key, "name": PATTERNS_BY_KEY[key].zh, "multiplier": PATTERNS_BY_KEY[key].multiplier}
                for key in self.patterns
            ],
            "multiplier": self.multiplier,
            "final_multiplier": self.final_multiplier,
            "waits": [tile_notation(t) for t in self.waits],
        }


def capped(rules: Rules, multiplier: int, keys: Iterable[str]) -> int:
    """The cap (封顶) of the rules page, applied to one share's final multiple."""
    if rules.cap == CAP_NONE:
        return multiplier
    limit = 16 if rules.cap == CAP_8_SHUANGLONG_16 and "shuanglongqidui" in keys else 8
    return min(multiplier, limit)


def _result(keys: list[str], rules: Rules) -> HandResult:
    keys.sort(key=ORDER.__getitem__)
    multiplier = prod(PATTERNS_BY_KEY[k].multiplier for k in keys)
    return HandResult(tuple(keys), multiplier, capped(rules, multiplier, keys))


def _check_method(method: str, present: Iterable[str]) -> None:
    for key in present:
        needed = NEEDS_METHOD.get(key)
        if needed and method not in needed:
            pattern = PATTERNS_BY_KEY[key]
            allowed = "、".join(METHOD_ZH[m] for m in needed)
            raise ScoringError(
                "inconsistent", f"{pattern.zh}（{key}）只能是{allowed}，这手牌是{METHOD_ZH.get(method, method)}"
            )


def _check_pihu(result: HandResult, method: str, rules: Rules) -> None:
    if rules.pihu_self_draw_only and result.multiplier == 1 and method != "self_draw":
        raise ScoringError(
            "pihu_self_draw_only", f"屁胡（×1）只能自摸，不能{METHOD_ZH[method]}：本局规则「屁胡只能自摸」"
        )


def _check_hand(hand: Hand, rules: Rules) -> None:
    """Everything about the tiles that makes the hand impossible before any reading is tried."""
    if hand.method not in METHODS:
        raise ScoringError("bad_request", f"未知的胡法 {hand.method!r}，可选：{'、'.join(METHODS)}")
    for situation in hand.situations:
        if situation not in SITUATIONS:
            raise ScoringError("bad_request", f"未知的情形 {situation!r}，可选：{'、'.join(SITUATIONS)}")
    check_suits([*hand.concealed, hand.win_tile, *(m.tile for m in hand.melds)], rules.suits)
    if len(hand.melds) > 4:
        raise ScoringError("wrong_count", f"副露最多 4 组，这里有 {len(hand.melds)} 组")
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        hint = "（concealed 不含胡的那张牌）" if len(hand.concealed) == expected + 1 else ""
        raise ScoringError(
            "wrong_count",
            f"有 {len(hand.melds)} 组副露时手牌应为 {expected} 张，这里是 {len(hand.concealed)} 张{hint}",
        )
    counts = list(counts_of([*hand.concealed, hand.win_tile]))
    for meld in hand.melds:
        counts[meld.tile] += meld.size
    check_copies(counts)
    _check_method(hand.method, hand.situations)
    if "gangshangkaihua" in hand.situations and not any(m.kind in KONG_KINDS for m in hand.melds):
        raise ScoringError("inconsistent", "杠上开花要先有自己的杠，这手牌没有杠")
    if hand.method == "rob_kong" and counts[hand.win_tile] > 1:
        raise ScoringError(
            "inconsistent",
            f"抢杠胡：别人加杠的 {tile_zh(hand.win_tile)} 是第四张，胡的人手里不可能还有 {tile_zh(hand.win_tile)}",
        )


def _win_of(hand: Hand) -> tuple[Win, tuple[str, ...]]:
    """The facts every reading shares, and the hidden four-of-a-kinds a 大胡 reading also counts."""
    counts = counts_of([*hand.concealed, hand.win_tile])
    peng_tiles = frozenset(m.tile for m in hand.melds if m.kind == "peng")
    suits = {suit_of(t) for t in hand.concealed} | {suit_of(m.tile) for m in hand.melds} | {suit_of(hand.win_tile)}
    win = Win(
        win_tile=hand.win_tile,
        method=hand.method,
        situations=hand.situations,
        liangdao=hand.liangdao,
        melds=tuple((m.kind, m.tile) for m in hand.melds),
        peng_tiles=peng_tiles,
        held_of_win_tile=counts[hand.win_tile] - 1,
        one_suit=len(suits) == 1 and "z" not in suits,
    )
    # Fine print 4: four concealed → 暗四归一; a 碰 and its fourth in hand → 明四归一. The winning tile's own
    # 四归一 is the ordinary pattern and is not counted again here.
    hidden = ["ansiguiyi" for t in range(NUM_KINDS) if counts[t] == 4 and t != hand.win_tile]
    hidden += ["mingsiguiyi" for t in peng_tiles if counts[t] == 1 and t != hand.win_tile]
    return win, tuple(hidden)


def _reading_keys(reading: Reading, hidden_fours: tuple[str, ...], rules: Rules) -> list[str]:
    keys = [p.key for p in STRUCTURAL if p.applies(reading)]
    if reading.seven_pairs:
        keys = [k for k in keys if k not in SEVEN_PAIRS_NEVER]
    for key in [k for k in keys if k in REPLACES]:
        keys = [k for k in keys if k not in REPLACES[key]]
    if hidden_fours and not reading.seven_pairs and not rules.big_hands.isdisjoint(keys):
        keys += hidden_fours
    keys += [p.key for p in SITUATIONAL if p.applies(reading)]
    return keys


def evaluate(hand: Hand, rules: Rules) -> HandResult:
    """The reading that pays the winner most (capped multiple, then uncapped); `waits` left empty (see `ready`)."""
    _check_hand(hand, rules)
    win, hidden_fours = _win_of(hand)
    counts = counts_of([*hand.concealed, hand.win_tile])
    meld_tiles = tuple(m.tile for m in hand.melds)
    readings = [
        Reading(win, False, 0, pair, (*pungs, *meld_tiles), chows) for pair, pungs, chows in standard_divisions(counts)
    ]
    if not hand.melds and is_seven_pairs(counts):
        readings.append(Reading(win, True, counts.count(4), -1, (), ()))
    if not readings:
        raise ScoringError("not_a_win", f"{_describe(hand)} 不是胡牌：凑不成四组加一对，也不是七对")
    best: HandResult | None = None
    for reading in readings:
        result = _result(_reading_keys(reading, hidden_fours, rules), rules)
        if best is None or (result.final_multiplier, result.multiplier) > (best.final_multiplier, best.multiplier):
            best = result
    assert best is not None
    _check_pihu(best, hand.method, rules)
    return best


def ready(hand: Hand) -> tuple[Tile, ...]:
    """The waits (听牌) of the 13 tiles before the win: tiles that would complete concealed + melds."""
    concealed = counts_of(hand.concealed)
    held = list(concealed)
    for meld in hand.melds:
        held[meld.tile] += meld.size
    return tuple(waits(concealed, len(hand.melds), tuple(held)))


def evaluate_declared(hand: DeclaredHand, rules: Rules) -> HandResult:
    """Patterns named by the players: checked for consistency, multiplied, capped."""
    if hand.method not in METHODS:
        raise ScoringError("bad_request", f"未知的胡法 {hand.method!r}，可选：{'、'.join(METHODS)}")
    keys = list(hand.patterns)
    for key in keys:
        if key not in PATTERNS_BY_KEY:
            raise ScoringError("bad_request", f"未知的番型 {key!r}，可选：{'、'.join(PATTERNS_BY_KEY)}")
        if keys.count(key) > 1 and key not in REPEATABLE:
            raise ScoringError("inconsistent", f"{PATTERNS_BY_KEY[key].zh}（{key}）只能算一次")
    for situation in hand.situations:
        if situation not in SITUATIONS:
            raise ScoringError("bad_request", f"未知的情形 {situation!r}，可选：{'、'.join(SITUATIONS)}")
        if situation not in keys:
            keys.append(situation)
    if hand.method == "rob_kong" and "qiangganghu" not in keys:
        keys.append("qiangganghu")
    if hand.liangdao is False and "liangdao" in keys:
        raise ScoringError("inconsistent", "番型里有亮倒，但这手牌标明没有亮倒")
    if hand.liangdao and "liangdao" not in keys:
        keys.append("liangdao")
    for key, implied in IMPLIES.items():
        if key in keys and implied not in keys:
            keys.append(implied)
    _check_declared(keys, hand, rules)
    result = _result(keys, rules)
    _check_pihu(result, hand.method, rules)
    return result


def _check_declared(keys: Sequence[str], hand: DeclaredHand, rules: Rules) -> None:
    present = set(keys)
    seven = sorted(present & SEVEN_PAIRS_KEYS, key=ORDER.__getitem__)
    if len(seven) > 1:
        raise ScoringError("inconsistent", f"{_zh(seven[1])}已经包含{_zh(seven[0])}，只选一个")
    if seven:
        clash = sorted(present & (SEVEN_PAIRS_NEVER | {"shouzhuayi"}), key=ORDER.__getitem__)
        if clash:
            raise ScoringError("inconsistent", f"{_zh(seven[0])}不能同时是{_zh(clash[0])}")
        if hand.melds:
            raise ScoringError("inconsistent", f"{_zh(seven[0])}必须门清，不能有碰或杠")
    for a, b, why in EXCLUSIVE:
        if a in present and b in present:
            raise ScoringError("inconsistent", f"{_zh(a)}和{_zh(b)}不能同时成立：{why}")
    fours = sum(1 for k in keys if k in REPEATABLE)
    if fours > 1 and rules.big_hands.isdisjoint(present):
        raise ScoringError("inconsistent", "不是大胡时只有胡的那张牌能算四归一，最多一个")
    _check_method(hand.method, present)
    if hand.melds is not None:
        if "gangshangkaihua" in present and not any(m.kind in KONG_KINDS for m in hand.melds):
            raise ScoringError("inconsistent", "杠上开花要先有自己的杠，这手牌没有杠")
        if "shouzhuayi" in present and len(hand.melds) != 4:
            raise ScoringError("inconsistent", f"手抓一要有 4 组副露，这里是 {len(hand.melds)} 组")


def _zh(key: str) -> str:
    return PATTERNS_BY_KEY[key].zh


def _describe(hand: Hand) -> str:
    melds = "".join(f" {MELD_ZH[m.kind]}{tile_zh(m.tile)}" for m in hand.melds)
    return f"{format_zh(hand.concealed)}{melds} 胡 {tile_zh(hand.win_tile)}"


# --- The contract's "hand" object -------------------------------------------------------------------------
_TILE_KEYS = frozenset({"concealed", "melds", "win_tile", "method", "situations", "liangdao"})
_DECLARED_KEYS = frozenset({"patterns", "melds", "method", "situations", "liangdao"})


def _unknown_keys(raw: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = [k for k in raw if k not in allowed]
    if unknown:
        raise ScoringError("bad_request", f"{where}里有不认识的字段 {unknown[0]!r}，可用：{'、'.join(sorted(allowed))}")


def _string_list(raw: object, what: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise ScoringError("bad_request", f"{what} 应是字符串列表")
    return raw


def _melds_from_json(raw: object, rules: Rules) -> tuple[Meld, ...]:
    if not isinstance(raw, list):
        raise ScoringError("bad_request", 'melds 应是列表，例如 [{"kind": "peng", "tile": "3s"}]')
    melds = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, Mapping):
            raise ScoringError("bad_request", f'第 {i} 组副露应是对象 {{"kind": ..., "tile": ...}}')
        _unknown_keys(item, ("kind", "tile"), f"第 {i} 组副露")
        kind = item.get("kind")
        if kind not in MELD_KINDS:
            raise ScoringError("bad_request", f"第 {i} 组副露的 kind {kind!r} 不对，可选：{'、'.join(MELD_KINDS)}")
        if "tile" not in item:
            raise ScoringError("bad_request", f"第 {i} 组副露缺少 tile")
        melds.append(Meld(kind, parse_tile(item["tile"], rules.suits)))
    return tuple(melds)


def hand_from_json(
    raw: object, rules: Rules, *, method: str | None = None, liangdao: bool | None = None
) -> Hand | DeclaredHand:
    """Read a `"hand"` object. In a settlement `method` and `liangdao` come from the events; the hand may repeat
    them, and must then agree (`inconsistent` otherwise)."""
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_request", "hand 应是一个对象")
    declared = "patterns" in raw
    _unknown_keys(raw, _DECLARED_KEYS if declared else _TILE_KEYS, "hand ")
    hand_method = raw.get("method", method)
    if hand_method is None:
        raise ScoringError("bad_request", f"hand 缺少 method（{'、'.join(METHODS)}）")
    if method is not None and hand_method != method:
        raise ScoringError("inconsistent", f"hand.method 是 {hand_method!r}，而胡牌事件的 method 是 {method!r}")
    if hand_method not in METHODS:
        raise ScoringError("bad_request", f"未知的胡法 {hand_method!r}，可选：{'、'.join(METHODS)}")
    situations = frozenset(_string_list(raw.get("situations", []), "situations"))
    flag = raw.get("liangdao")
    if flag is not None and not isinstance(flag, bool):
        raise ScoringError("bad_request", "liangdao 应是 true 或 false")
    if liangdao is not None and flag is not None and flag != liangdao:
        said = "亮倒了" if flag else "没有亮倒"
        happened = "亮倒过" if liangdao else "没有亮倒过"
        raise ScoringError("inconsistent", f"hand.liangdao 说{said}，但事件里这位玩家{happened}")
    if flag is None:
        flag = liangdao
    melds = _melds_from_json(raw["melds"], rules) if "melds" in raw else None
    if declared:
        return DeclaredHand(tuple(_string_list(raw["patterns"], "patterns")), hand_method, situations, flag, melds)
    for key in ("concealed", "win_tile"):
        if key not in raw:
            raise ScoringError("bad_request", f"hand 缺少 {key}（或者改用 patterns 直接报番型）")
    return Hand(
        concealed=tuple(parse_tiles(raw["concealed"], rules.suits)),
        melds=melds or (),
        win_tile=parse_tile(raw["win_tile"], rules.suits),
        method=hand_method,
        situations=situations,
        liangdao=bool(flag),
    )


def score_hand(hand: Hand | DeclaredHand, rules: Rules) -> HandResult:
    """Either kind of hand; a tile hand's result carries its waits."""
    if isinstance(hand, DeclaredHand):
        return evaluate_declared(hand, rules)
    result = evaluate(hand, rules)
    return HandResult(result.patterns, result.multiplier, result.final_multiplier, ready(hand))
