"""Scoring one winning 卡五星 hand: every reading, the patterns of each, the best one after the cap.

Two kinds of hand: `Hand` (the tiles; every reading is tried) and `DeclaredHand` (the players name the patterns;
only consistency is checked). Both give a `HandResult`. `hand_from_json` reads the contract's `"hand"` object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, NamedTuple, NoReturn

from ledger.scoring.common import ScoringError
from ledger.scoring.division import (
    SHIFT,
    SLOT,
    UNIT,
    Packed,
    count_in,
    is_overfull,
    pack_tiles,
    read,
    unpack,
    waits,
)
from ledger.scoring.kawuxing.patterns import (
    ACCEPTED_SITUATIONS,
    EXCLUSIVE,
    IMPLIES,
    KONG_KINDS,
    MELD_KINDS,
    MELD_ZH,
    METHOD_ZH,
    METHODS,
    MULTIPLIER,
    NEEDS_METHOD,
    ORDER,
    PATTERNS_BY_KEY,
    REPEATABLE,
    REPLACES,
    SEVEN_PAIRS_CHECKS,
    SEVEN_PAIRS_KEYS,
    SEVEN_PAIRS_NEVER,
    SITUATIONAL,
    SITUATIONS,
    STANDARD_CHECKS,
    Reading,
)
from ledger.scoring.kawuxing.rules import CAP_8_SHUANGLONG_16, CAP_NONE, Rules
from ledger.scoring.tiles import (
    NUM_KINDS,
    SUIT_LETTERS,
    Tile,
    check_copies,
    check_suits,
    format_zh,
    parse_tile,
    parse_tiles,
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


class HandResult(NamedTuple):
    """`patterns` are keys, one per instance, in table order; `final_multiplier` is after the cap."""

    patterns: tuple[str, ...]
    multiplier: int
    final_multiplier: int
    waits: tuple[Tile, ...] = ()

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


def _refuse_pihu(method: str) -> NoReturn:
    raise ScoringError("pihu_self_draw_only", f"屁胡（×1）只能自摸，不能{METHOD_ZH[method]}：本局规则「屁胡只能自摸」")


def _check_hand(hand: Hand, rules: Rules) -> Packed:
    """Everything about the tiles that makes the hand impossible before any reading is tried.

    Returns the packed concealed part with the winning tile (what the readings are made of).
    """
    if hand.method not in METHODS:
        raise ScoringError("bad_request", f"未知的胡法 {hand.method!r}，可选：{'、'.join(METHODS)}")
    for situation in hand.situations:
        if situation not in ACCEPTED_SITUATIONS:
            raise ScoringError("bad_request", f"未知的情形 {situation!r}，可选：{'、'.join(SITUATIONS)}")
    melds = hand.melds
    if len(melds) > 4:
        raise ScoringError("wrong_count", f"副露最多 4 组，这里有 {len(melds)} 组")
    expected = 13 - 3 * len(melds)
    if len(hand.concealed) != expected:
        hint = "（concealed 不含胡的那张牌）" if len(hand.concealed) == expected + 1 else ""
        raise ScoringError(
            "wrong_count", f"有 {len(melds)} 组副露时手牌应为 {expected} 张，这里是 {len(hand.concealed)} 张{hint}"
        )
    keys = [0, 0, 0, 0]
    for tile in hand.concealed:
        keys[SLOT[tile]] += UNIT[tile]
    keys[SLOT[hand.win_tile]] += UNIT[hand.win_tile]
    packed: Packed = (keys[0], keys[1], keys[2], keys[3])
    excluded = _EXCLUDED_SLOT[rules.suits]
    if packed[excluded] or (melds and any(SLOT[m.tile] == excluded for m in melds)):
        check_suits([*hand.concealed, hand.win_tile, *(m.tile for m in melds)], rules.suits)
    held = packed
    if melds:
        for meld in melds:
            keys[SLOT[meld.tile]] += UNIT[meld.tile] * meld.size
        held = (keys[0], keys[1], keys[2], keys[3])
        if is_overfull(held):
            check_copies(unpack(held))
    if hand.situations:
        _check_method(hand.method, hand.situations)
        if "gangshangkaihua" in hand.situations and not any(m.kind in KONG_KINDS for m in melds):
            raise ScoringError("inconsistent", "杠上开花要先有自己的杠，这手牌没有杠")
    if hand.method == "rob_kong" and count_in(held, hand.win_tile) > 1:
        raise ScoringError(
            "inconsistent",
            f"抢杠胡：别人加杠的 {tile_zh(hand.win_tile)} 是第四张，胡的人手里不可能还有 {tile_zh(hand.win_tile)}",
        )
    return packed


#: the rules' two suits -> the slot of the third, excluded suit
_EXCLUDED_SLOT: dict[tuple[str, ...], int] = {
    (a, b): next(i for i, s in enumerate(SUIT_LETTERS) if s not in (a, b))
    for a in SUIT_LETTERS
    for b in SUIT_LETTERS
    if a != b
}


def _shared(hand: Hand, packed: Packed) -> tuple[Any, ...]:
    """The front of every `Reading` of this hand: what the readings share."""
    win_tile = hand.win_tile
    melds = hand.melds
    used = (packed[0] != 0) + (packed[1] != 0) + (packed[2] != 0)
    one_suit = not packed[3] and used == 1
    if melds:
        suit = 0 if packed[0] else 1 if packed[1] else 2
        one_suit = one_suit and all(SLOT[m.tile] == suit for m in melds)
        meld_facts = tuple((m.kind, m.tile) for m in melds)
        pengs = tuple(m.tile for m in melds if m.kind == "peng")
    else:
        meld_facts = pengs = ()
    held = ((packed[SLOT[win_tile]] >> SHIFT[win_tile]) & 15) - 1
    return (win_tile, hand.method, hand.situations, hand.liangdao, meld_facts, pengs, held, one_suit)


def _hidden_fours(hand: Hand, packed: Packed) -> list[str]:
    """Fine print 4: in a 大胡, four concealed → 暗四归一 and a 碰 with its fourth in hand → 明四归一, each on its
    own. The winning tile's own 四归一 is the ordinary pattern and is not counted again here."""
    win_tile = hand.win_tile
    counts = unpack(packed)
    hidden = ["ansiguiyi" for t in range(NUM_KINDS) if counts[t] == 4 and t != win_tile]
    hidden += ["mingsiguiyi" for m in hand.melds if m.kind == "peng" and counts[m.tile] == 1 and m.tile != win_tile]
    return hidden


def _structural_keys(reading: Reading, hand: Hand, packed: Packed, rules: Rules) -> list[str]:
    """The structural patterns of one reading, exceptions applied, in table order."""
    if reading.seven_pairs:
        keys = [p.key for p in SEVEN_PAIRS_CHECKS if p.applies(reading)]
        for key in [k for k in keys if k in REPLACES]:
            keys = [k for k in keys if k not in REPLACES[key]]
        return keys
    keys = [p.key for p in STANDARD_CHECKS if p.applies(reading)]
    if keys and not rules.big_hands.isdisjoint(keys):
        hidden = _hidden_fours(hand, packed)
        if hidden:
            keys += hidden
            keys.sort(key=ORDER.__getitem__)
    return keys


def evaluate(hand: Hand, rules: Rules) -> HandResult:
    """The reading that pays the winner most (capped multiple, then uncapped); `waits` left empty (see `ready`)."""
    packed = _check_hand(hand, rules)
    divisions, seven_pairs, overfull = read(packed, len(hand.melds))
    if overfull:  # without melds; with melds `_check_hand` counted them in
        check_copies(unpack(packed))
    shared = _shared(hand, packed)
    make = tuple.__new__  # Reading._make without its Python-level length check: the fields are ours
    if hand.melds:
        meld_tiles = tuple(m.tile for m in hand.melds)
        readings = [
            make(Reading, (*shared, False, 0, pair, pungs + meld_tiles, chows)) for pair, pungs, chows in divisions
        ]
    else:
        if len(divisions) == 1:  # the usual case, without a comprehension's frame
            readings = [make(Reading, (*shared, False, 0, *divisions[0]))]
        else:
            readings = [make(Reading, (*shared, False, 0, pair, pungs, chows)) for pair, pungs, chows in divisions]
        if seven_pairs:
            readings.append(make(Reading, (*shared, True, unpack(packed).count(4), -1, (), ())))
    if not readings:
        raise ScoringError("not_a_win", f"{_describe(hand)} 不是胡牌：凑不成四组加一对，也不是七对")
    # situational patterns read only how the hand was won: the same for every reading (and none, usually)
    situational = []
    if hand.situations or hand.liangdao or hand.method == "rob_kong":
        situational = [p.key for p in SITUATIONAL if p.applies(readings[0])]
    best_final = best_multiplier = 0
    best_keys: list[str] = []
    for reading in readings:
        keys = _structural_keys(reading, hand, packed, rules)
        if situational:
            keys += situational
        multiplier = prod(map(MULTIPLIER.__getitem__, keys))
        final = multiplier if multiplier <= 8 else capped(rules, multiplier, keys)
        if final > best_final or (final == best_final and multiplier > best_multiplier):
            best_final, best_multiplier, best_keys = final, multiplier, keys
    if best_multiplier == 1 and hand.method != "self_draw" and rules.pihu_self_draw_only:
        _refuse_pihu(hand.method)
    return tuple.__new__(HandResult, (tuple(best_keys), best_multiplier, best_final, ()))


def ready(hand: Hand) -> tuple[Tile, ...]:
    """The waits (听牌) of the 13 tiles before the win: tiles that would complete concealed + melds."""
    concealed = pack_tiles(hand.concealed)
    held = pack_tiles([*hand.concealed, *(m.tile for m in hand.melds for _ in range(m.size))])
    return tuple(waits(concealed, len(hand.melds), held))


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
        if situation not in ACCEPTED_SITUATIONS:
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
    if result.multiplier == 1 and hand.method != "self_draw" and rules.pihu_self_draw_only:
        _refuse_pihu(hand.method)
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
