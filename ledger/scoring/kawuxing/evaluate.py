"""Scoring one winning 卡五星 hand: every reading, the patterns of each, the best one after the cap.

Two kinds of hand: `Hand` (the tiles; every reading is tried) and `DeclaredHand` (the players name the patterns;
only consistency is checked). Both give a `HandResult`. `hand_from_json` reads the contract's `"hand"` object.

The hot path (`evaluate`) packs the hand into one int, reads every decomposition from the per-suit tables of
`division`, sums up each reading in a few bits (`patterns` facts) and looks the worth of those bits up in the
table's `worth` cache: a reading costs a dict lookup, and the patterns are still defined in one place. Waits
(`ready`) are not part of it: they come from their own tables, only where they are used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, NamedTuple, NoReturn

from ledger.scoring.common import MAX_TEXT, ScoringError
from ledger.scoring.division import (
    ALL_EVEN,
    FOURS_BITS,
    HAND_UNIT,
    OVERFULL,
    SETS_AND_PAIR,
    SHIFT,
    SLOT,
    SLOT_TABLES,
    Packed,
    count_in,
    entries,
    pack_tiles,
    waits,
)
from ledger.scoring.kawuxing.patterns import (
    ACCEPTED_SITUATIONS,
    AN,
    CHOW,
    DRAGONS_2_PAIR,
    DRAGONS_3,
    EXCLUSIVE,
    FOUR_MELDS,
    IMPLIES,
    KAWUXING,
    KONG_KINDS,
    LIANGDAO,
    MELD_KINDS,
    MELD_ZH,
    METHOD_ZH,
    METHODS,
    MING,
    NEEDS_METHOD,
    ONE_SUIT,
    ORDER,
    PATTERNS,
    PATTERNS_BY_KEY,
    REPEATABLE,
    REPLACES,
    ROB_KONG,
    SEVEN,
    SEVEN_FOUR,
    SEVEN_FOURS,
    SEVEN_PAIRS_KEYS,
    SEVEN_PAIRS_NEVER,
    SITUATION_FACTS,
    SITUATIONS,
)
from ledger.scoring.kawuxing.rules import CAP_8_SHUANGLONG_16, CAP_NONE, Rules
from ledger.scoring.tiles import (
    BAI,
    NUM_KINDS,
    SUIT_OFFSET,
    Tile,
    check_copies,
    check_suits,
    format_notation,
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
    """`patterns` are keys, one per instance, in table order, `values` their multipliers under the table's rules;
    `final_multiplier` is after the cap; `waits` are filled by `score_hand` only."""

    patterns: tuple[str, ...]
    multiplier: int
    final_multiplier: int
    waits: tuple[Tile, ...] = ()
    values: tuple[int, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "patterns": [
                {"key": key, "name": PATTERNS_BY_KEY[key].zh, "multiplier": value}
                for key, value in zip(self.patterns, self.values, strict=True)
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


def pattern_value(rules: Rules, key: str) -> int:
    """A pattern's multiplier under these rules (卡五星, 碰碰胡, 杠上开花/杠上炮 may be ×4)."""
    pattern = PATTERNS_BY_KEY[key]
    option = pattern.multiplier_option
    value: int = getattr(rules, option) if option else pattern.multiplier
    return value


def _result(keys: list[str], rules: Rules) -> HandResult:
    keys.sort(key=ORDER.__getitem__)
    values = tuple(pattern_value(rules, k) for k in keys)
    multiplier = prod(values)
    return HandResult(tuple(keys), multiplier, capped(rules, multiplier, keys), (), values)


# --- What one reading is worth ------------------------------------------------------------------------------
def _worth(rules: Rules, key: int) -> HandResult:
    """Cold path: the patterns of a reading's facts (with the hand's hidden fours in the high bits) under these
    rules, the exceptions applied; cached in `rules.worth_cache` under `key`."""
    facts, hidden_an, hidden_ming = key & _FACT_BITS, key >> _AN_SHIFT & 15, key >> _MING_SHIFT & 15
    keys = [p.key for p in PATTERNS if p.applies(facts)]
    if facts & SEVEN:
        keys = [k for k in keys if k not in SEVEN_PAIRS_NEVER]
        for bigger in [k for k in keys if k in REPLACES]:
            keys = [k for k in keys if k not in REPLACES[bigger]]
    elif rules.pindao == "full" or (rules.pindao == "big_hands" and not rules.big_hands.isdisjoint(keys)):
        # Fine print 4 (and 全频道): four concealed, or a 碰 with its fourth in hand, each count as 四归一.
        keys += ["ansiguiyi"] * hidden_an + ["mingsiguiyi"] * hidden_ming
    if rules.hidden_fours == "once":
        for four in REPEATABLE:
            while keys.count(four) > 1:
                keys.remove(four)
    if not rules.shouzhuayi_pengpenghu and "shouzhuayi" in keys:
        keys.remove("pengpenghu")
    worth = _result(keys, rules)
    rules.worth_cache[key] = worth
    return worth


_FACT_BITS = (1 << 20) - 1
_SLOT_MASK = (1 << 36) - 1
_AN_SHIFT, _MING_SHIFT = 20, 24
_FIVES = frozenset(SUIT_OFFSET[s] + 4 for s in SUIT_OFFSET)
_METHOD_FACTS = {"self_draw": 0, "discard": 0, "rob_kong": ROB_KONG}
#: one byte per tile: enough room to count every copy a hand and its melds hold, and a carry check for a fifth
_WIDE_UNIT = tuple(1 << (8 * t) for t in range(NUM_KINDS))
_FIFTH = sum(0x7B << (8 * t) for t in range(NUM_KINDS))  # a byte of 5 or more reaches bit 7 with this added
_BYTE_HIGH = sum(0x80 << (8 * t) for t in range(NUM_KINDS))


def _check_method(method: str, present: Iterable[str]) -> None:
    for key in present:
        needed = NEEDS_METHOD.get(key)
        if needed and method not in needed:
            pattern = PATTERNS_BY_KEY[key]
            allowed = "、".join(METHOD_ZH[m] for m in needed)
            raise ScoringError(
                "inconsistent",
                "method_only",
                f"{pattern.zh}（{key}）只能是{allowed}，这手牌是{METHOD_ZH.get(method, method)}",
                pattern=key,
                methods=list(needed),
                method=method,
            )


def _unknown_situation(situation: object) -> ScoringError:
    return ScoringError(
        "bad_request",
        "unknown_situation",
        f"未知的情形 {situation!r}，可选：{'、'.join(SITUATIONS)}",
        situation=repr(situation),
        allowed=list(SITUATIONS),
    )


def _no_haidipao() -> ScoringError:
    return ScoringError("inconsistent", "no_haidipao", "本局规则没有海底炮（haidipao）：胡最后一张打出的牌不加番")


def _gskh_without_kong() -> ScoringError:
    return ScoringError("inconsistent", "gskh_without_kong", "杠上开花要先有自己的杠，这手牌没有杠")


def unknown_method(method: object) -> ScoringError:
    """A method of winning the contract does not have (`self_draw`, `discard`, `rob_kong`)."""
    return ScoringError(
        "bad_request",
        "unknown_method",
        f"未知的胡法 {method!r}，可选：{'、'.join(METHODS)}",
        method=repr(method),
        allowed=list(METHODS),
    )


def too_many_melds(count: int) -> ScoringError:
    return ScoringError("wrong_count", "too_many_melds", f"副露最多 4 组，这里有 {count} 组", melds=count)


def _refuse_pihu(method: str) -> NoReturn:
    raise ScoringError(
        "pihu_self_draw_only",
        "pihu",
        f"屁胡（×1）只能自摸，不能{METHOD_ZH[method]}：本局规则「屁胡只能自摸」",
        method=method,
    )


def _situation_facts(hand: Hand, rules: Rules) -> int:
    """How the hand was won, as facts; every situation checked against the method and the rules."""
    facts = 0
    for situation in hand.situations:
        if situation not in ACCEPTED_SITUATIONS:
            raise _unknown_situation(situation)
        if situation == "haidilao" and hand.method == "discard" and rules.haidipao:
            situation = "haidipao"  # the last tile, won on a discard: 海底炮 where the table plays it
        if situation == "haidipao" and not rules.haidipao:
            raise _no_haidipao()
        _check_method(hand.method, (situation,))
        facts |= SITUATION_FACTS[situation]
    if facts & SITUATION_FACTS["gangshangkaihua"] and not any(m.kind in KONG_KINDS for m in hand.melds):
        raise _gskh_without_kong()
    return facts


def _hand_facts(hand: Hand, rules: Rules, packed: Packed) -> int:
    """The facts every reading of the hand shares: how it was won (checked), its suits, dragons and melds."""
    win = hand.win_tile
    melds = hand.melds
    facts = _METHOD_FACTS[hand.method]
    if hand.situations:
        facts |= _situation_facts(hand, rules)
    if hand.liangdao:
        facts |= LIANGDAO
    p, s, m, z = packed
    held_win = ((packed[SLOT[win]] >> SHIFT[win]) & 15) - 1
    if held_win == 3:
        facts |= AN
    one_suit = not z and (p != 0) + (s != 0) + (m != 0) == 1
    dragon_pungs, dragon_pair = _DRAGONS.get(z) or _dragons(z)
    if melds:
        if len(melds) == 4:
            facts |= FOUR_MELDS
        suit = 0 if p else 1 if s else 2
        for meld in melds:
            if SLOT[meld.tile] != suit:
                one_suit = False
            if meld.tile >= BAI:
                dragon_pungs += 1
            if meld.kind == "peng" and meld.tile == win:
                facts |= MING
    if one_suit:
        facts |= ONE_SUIT
    if dragon_pungs == 3:
        facts |= DRAGONS_3
    elif dragon_pungs == 2 and dragon_pair:
        facts |= DRAGONS_2_PAIR
    return facts


#: the dragon slot's key -> (concealed dragon pungs, whether a dragon pair is there)
_DRAGONS: dict[int, tuple[int, bool]] = {}


def _dragons(z: int) -> tuple[int, bool]:
    counts = (z & 15, z >> 4 & 15, z >> 8 & 15)
    _DRAGONS[z] = found = (counts.count(3), 2 in counts)
    return found


def _pack_checked(hand: Hand, rules: Rules) -> tuple[int, Packed]:
    """The concealed part with the winning tile, as one int and packed; counts, suits and copies checked."""
    if hand.method not in _METHOD_FACTS:
        raise unknown_method(hand.method)
    melds = hand.melds
    if len(melds) > 4:
        raise too_many_melds(len(melds))
    expected = 13 - 3 * len(melds)
    if len(hand.concealed) != expected:
        hint = "（concealed 不含胡的那张牌）" if len(hand.concealed) == expected + 1 else ""
        raise ScoringError(
            "wrong_count",
            "tile_count",
            f"有 {len(melds)} 组副露时手牌应为 {expected} 张，这里是 {len(hand.concealed)} 张{hint}",
            melds=len(melds),
            expected=expected,
            count=len(hand.concealed),
            with_win_tile=bool(hint),
        )
    whole = sum(map(HAND_UNIT.__getitem__, hand.concealed)) + HAND_UNIT[hand.win_tile]
    packed = (whole & _SLOT_MASK, whole >> 36 & _SLOT_MASK, whole >> 72 & _SLOT_MASK, whole >> 108)
    excluded = rules.excluded_slot
    if packed[excluded] or (melds and any(SLOT[m.tile] == excluded for m in melds)):
        check_suits([*hand.concealed, hand.win_tile, *(m.tile for m in melds)], rules.suits)
    if melds:
        check_held(hand)
    if hand.method == "rob_kong" and count_in(packed, hand.win_tile) > 1:
        tile = tile_zh(hand.win_tile)
        raise ScoringError(
            "inconsistent",
            "robbed_fifth",
            f"抢杠胡：别人加杠的 {tile} 是第四张，胡的人手里不可能还有 {tile}",
            tile=tile_notation(hand.win_tile),
        )
    return whole, packed


def held_counts(hand: Hand) -> list[int]:
    """Every copy of each tile the winner holds: concealed, the winning tile and the melds."""
    counts = [0] * NUM_KINDS
    for tile in hand.concealed:
        counts[tile] += 1
    counts[hand.win_tile] += 1
    for meld in hand.melds:
        counts[meld.tile] += meld.size
    return counts


def check_held(hand: Hand) -> None:
    """No tile more than four times in the winner's concealed tiles, winning tile and melds together."""
    wide = sum(map(_WIDE_UNIT.__getitem__, hand.concealed)) + _WIDE_UNIT[hand.win_tile]
    for meld in hand.melds:
        wide += _WIDE_UNIT[meld.tile] * meld.size
    if (wide + _FIFTH) & _BYTE_HIGH:
        check_copies(held_counts(hand))


def evaluate(hand: Hand, rules: Rules) -> HandResult:
    """The reading that pays the winner most (capped multiple, then uncapped); `waits` left empty (see `ready`)."""
    return _evaluate(hand, rules)[0]


def _evaluate(hand: Hand, rules: Rules) -> tuple[HandResult, Packed]:
    """`evaluate`, and the packed concealed part with the winning tile it read."""
    whole, packed = _pack_checked(hand, rules)
    try:  # `division.entries`, inlined: this is the hot path
        tables = SLOT_TABLES
        ea, eb, ec, ed = tables[0][packed[0]], tables[1][packed[1]], tables[2][packed[2]], tables[3][packed[3]]
    except KeyError:
        ea, eb, ec, ed = entries(packed)
    sa, sb, sc, sd = ea[0], eb[0], ec[0], ed[0]
    if (sa | sb | sc | sd) & OVERFULL:  # a fifth copy in the concealed part (with melds `_pack_checked` counted)
        check_copies(held_counts(hand))
    standard = (sa & 3) * (sb & 3) * (sc & 3) * (sd & 3) == SETS_AND_PAIR
    seven_pairs = not hand.melds and sa & sb & sc & sd & ALL_EVEN
    if not standard and not seven_pairs:
        raise ScoringError(
            "not_a_win",
            "no_win_hand",
            f"{_describe(hand)} 不是胡牌：凑不成四组加一对，也不是七对",
            concealed=format_notation(hand.concealed),
            meld_tiles=[[m.kind, tile_notation(m.tile)] for m in hand.melds],
            win_tile=tile_notation(hand.win_tile),
        )
    facts = _hand_facts(hand, rules, packed)
    fours = (whole & FOURS_BITS).bit_count()
    hidden = 0
    if fours:
        hidden = (fours - (facts & AN != 0)) << _AN_SHIFT
    win = hand.win_tile
    if hand.melds:
        pengs = sum(1 for m in hand.melds if m.kind == "peng" and m.tile != win and count_in(packed, m.tile) == 1)
        hidden += pengs << _MING_SHIFT
    table = rules.worth_cache
    best: HandResult | None = None
    if standard:
        # Only the chows tell the readings apart (dragons have one decomposition, melds are the same in each);
        # the winning tile's slot says whether its 5 sits in a 4-5-6.
        base = facts | hidden
        five = win in _FIVES
        da, db, dc = ea[1], eb[1], ec[1]
        if len(da) + len(db) + len(dc) == 3:
            chow_sets: Iterable[tuple[Tile, ...]] = ((da[0][2] + db[0][2] + dc[0][2]),)
        else:
            chow_sets = [x[2] + y[2] + z[2] for x in da for y in db for z in dc]
        for chows in chow_sets:
            key = base
            if chows:
                key |= CHOW
                if five and win - 1 in chows:
                    key |= KAWUXING
            worth = table.get(key) or _worth(rules, key)
            if best is None or worth[2] > best[2] or (worth[2] == best[2] and worth[1] > best[1]):
                best = worth
    if seven_pairs:
        key = facts | SEVEN | (SEVEN_FOUR if fours else 0) | (SEVEN_FOURS if fours >= 2 else 0)
        worth = table.get(key) or _worth(rules, key)
        if best is None or worth[2] > best[2] or (worth[2] == best[2] and worth[1] > best[1]):
            best = worth
    assert best is not None
    if best[1] == 1 and hand.method != "self_draw" and rules.pihu_self_draw_only:
        _refuse_pihu(hand.method)
    return best, packed


def ready(hand: Hand) -> tuple[Tile, ...]:
    """The waits (听牌) of the 13 tiles before the win: tiles that would complete concealed + melds."""
    return waits_of(hand.concealed, hand.melds)


def waits_of(concealed: Sequence[Tile], melds: Sequence[Meld], packed: Packed | None = None) -> tuple[Tile, ...]:
    """The waits of 13 − 3·melds concealed tiles beside these melds (`packed`: the concealed tiles, if at hand)."""
    if packed is None:
        packed = pack_tiles(concealed)
    held = packed
    if melds:
        held = pack_tiles([*concealed, *(m.tile for m in melds for _ in range(m.size))])
    return tuple(waits(packed, len(melds), held))


def evaluate_declared(hand: DeclaredHand, rules: Rules) -> HandResult:
    """Patterns named by the players: checked for consistency, multiplied, capped."""
    if hand.method not in METHODS:
        raise unknown_method(hand.method)
    keys = list(hand.patterns)
    for key in keys:
        if key not in PATTERNS_BY_KEY:
            raise ScoringError(
                "bad_request",
                "unknown_pattern",
                f"未知的番型 {key!r}，可选：{'、'.join(PATTERNS_BY_KEY)}",
                pattern=repr(key),
                allowed=list(PATTERNS_BY_KEY),
            )
        if keys.count(key) > 1 and key not in REPEATABLE:
            raise ScoringError("inconsistent", "once", f"{PATTERNS_BY_KEY[key].zh}（{key}）只能算一次", pattern=key)
    for situation in hand.situations:
        if situation not in ACCEPTED_SITUATIONS:
            raise _unknown_situation(situation)
        if situation == "haidilao" and hand.method == "discard" and rules.haidipao:
            situation = "haidipao"
        if situation not in keys:
            keys.append(situation)
    if hand.method == "rob_kong" and "qiangganghu" not in keys:
        keys.append("qiangganghu")
    if hand.liangdao is False and "liangdao" in keys:
        raise ScoringError("inconsistent", "liangdao_flag_declared", "番型里有亮倒，但这手牌标明没有亮倒")
    if hand.liangdao and "liangdao" not in keys:
        keys.append("liangdao")
    for key, implied in IMPLIES.items():
        if key in keys and implied not in keys and rules.shouzhuayi_pengpenghu:
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
        raise ScoringError(
            "inconsistent",
            "includes",
            f"{_zh(seven[1])}已经包含{_zh(seven[0])}，只选一个",
            pattern=seven[1],
            included=seven[0],
        )
    if seven:
        clash = sorted(present & (SEVEN_PAIRS_NEVER | {"shouzhuayi"}), key=ORDER.__getitem__)
        if clash:
            raise ScoringError(
                "inconsistent",
                "not_both",
                f"{_zh(seven[0])}不能同时是{_zh(clash[0])}",
                pattern=seven[0],
                other=clash[0],
            )
        if hand.melds:
            raise ScoringError(
                "inconsistent", "concealed_only", f"{_zh(seven[0])}必须门清，不能有碰或杠", pattern=seven[0]
            )
    for a, b, why in EXCLUSIVE:
        if a in present and b in present:
            raise ScoringError("inconsistent", "not_both", f"{_zh(a)}和{_zh(b)}不能同时成立：{why}", pattern=a, other=b)
    if "haidipao" in present and not rules.haidipao:
        raise _no_haidipao()
    if not rules.shouzhuayi_pengpenghu and {"shouzhuayi", "pengpenghu"} <= present:
        raise ScoringError("inconsistent", "shouzhuayi_alone", "本局规则手抓一不另算碰碰胡：手抓一只报 shouzhuayi")
    fours = sum(1 for k in keys if k in REPEATABLE)
    if fours > 1:
        if rules.pindao == "half":
            raise ScoringError("inconsistent", "one_four", "半频道只有胡的那张牌能算四归一，最多一个", pindao="half")
        if rules.pindao == "big_hands" and rules.big_hands.isdisjoint(present):
            raise ScoringError(
                "inconsistent", "one_four", "不是大胡时只有胡的那张牌能算四归一，最多一个", pindao="big_hands"
            )
        if rules.hidden_fours == "once" and any(keys.count(k) > 1 for k in REPEATABLE):
            raise ScoringError("inconsistent", "fours_once", "本局规则明四归、暗四归各最多算一次")
    _check_method(hand.method, present)
    if hand.melds is not None:
        if "gangshangkaihua" in present and not any(m.kind in KONG_KINDS for m in hand.melds):
            raise _gskh_without_kong()
        if "shouzhuayi" in present and len(hand.melds) != 4:
            raise ScoringError(
                "inconsistent",
                "shouzhuayi_melds",
                f"手抓一要有 4 组副露，这里是 {len(hand.melds)} 组",
                melds=len(hand.melds),
            )


def _zh(key: str) -> str:
    return PATTERNS_BY_KEY[key].zh


def _describe(hand: Hand) -> str:
    melds = "".join(f" {MELD_ZH[m.kind]}{tile_zh(m.tile)}" for m in hand.melds)
    return f"{format_zh(hand.concealed)}{melds} 胡 {tile_zh(hand.win_tile)}"


# --- The contract's "hand" object -------------------------------------------------------------------------
_TILE_KEYS = frozenset({"concealed", "melds", "win_tile", "method", "situations", "liangdao"})
_DECLARED_KEYS = frozenset({"patterns", "melds", "method", "situations", "liangdao"})
#: more entries than a hand can have are a malformed request, whatever they hold
_MAX_LIST = 32


def _unknown_keys(raw: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = [k for k in raw if k not in allowed]
    if unknown:
        raise ScoringError(
            "bad_request",
            "hand_unknown_field",
            f"{where}里有不认识的字段 {unknown[0]!r}，可用：{'、'.join(sorted(allowed))}",
            field=repr(unknown[0]),
            allowed=sorted(allowed),
        )


def _string_list(raw: object, what: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise ScoringError("bad_request", "not_string_list", f"{what} 应是字符串列表", field=what)
    if len(raw) > _MAX_LIST:
        raise ScoringError(
            "bad_request",
            "list_too_long",
            f"{what} 最多 {_MAX_LIST} 项，这里有 {len(raw)} 项",
            field=what,
            most=_MAX_LIST,
            count=len(raw),
        )
    return raw


def _tiles_text(raw: Any, what: str) -> Any:
    """A tile string no longer than a hand could be written (the parser refuses anything else it is)."""
    if isinstance(raw, str) and len(raw) > MAX_TEXT:
        raise ScoringError(
            "bad_tiles",
            "tiles_too_long",
            f"{what} 太长（{len(raw)} 个字符，最多 {MAX_TEXT}）：一手牌写不了这么长",
            field=what,
            most=MAX_TEXT,
            count=len(raw),
        )
    return raw


def melds_from_json(raw: object, rules: Rules) -> tuple[Meld, ...]:
    if not isinstance(raw, list):
        raise ScoringError("bad_request", "melds_not_list", 'melds 应是列表，例如 [{"kind": "peng", "tile": "3s"}]')
    if len(raw) > 4:
        raise too_many_melds(len(raw))
    melds = []
    for i, item in enumerate(raw, 1):
        if not isinstance(item, Mapping):
            raise ScoringError(
                "bad_request", "meld_not_object", f'第 {i} 组副露应是对象 {{"kind": ..., "tile": ...}}', meld=i
            )
        _unknown_keys(item, ("kind", "tile"), f"第 {i} 组副露")
        kind = item.get("kind")
        if kind not in MELD_KINDS:
            raise ScoringError(
                "bad_request",
                "unknown_meld_kind",
                f"第 {i} 组副露的 kind {kind!r} 不对，可选：{'、'.join(MELD_KINDS)}",
                meld=i,
                kind=repr(kind),
                allowed=list(MELD_KINDS),
            )
        if "tile" not in item:
            raise ScoringError("bad_request", "meld_without_tile", f"第 {i} 组副露缺少 tile", meld=i)
        melds.append(Meld(kind, parse_tile(_tiles_text(item["tile"], "tile"), rules.suits)))
    return tuple(melds)


def hand_from_json(
    raw: object, rules: Rules, *, method: str | None = None, liangdao: bool | None = None
) -> Hand | DeclaredHand:
    """Read a `"hand"` object. In a settlement `method` and `liangdao` come from the events; the hand may repeat
    them, and must then agree (`inconsistent` otherwise)."""
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_request", "hand_not_object", "hand 应是一个对象")
    declared = "patterns" in raw
    _unknown_keys(raw, _DECLARED_KEYS if declared else _TILE_KEYS, "hand ")
    hand_method = raw.get("method", method)
    if hand_method is None:
        raise ScoringError(
            "bad_request", "hand_without_method", f"hand 缺少 method（{'、'.join(METHODS)}）", allowed=list(METHODS)
        )
    if method is not None and hand_method != method:
        raise ScoringError(
            "inconsistent",
            "hand_method_differs",
            f"hand.method 是 {hand_method!r}，而胡牌事件的 method 是 {method!r}",
            hand_method=repr(hand_method),
            method=method,
        )
    if hand_method not in METHODS:
        raise unknown_method(hand_method)
    situations = frozenset(_string_list(raw.get("situations", []), "situations"))
    flag = raw.get("liangdao")
    if flag is not None and not isinstance(flag, bool):
        raise ScoringError("bad_request", "liangdao_not_bool", "liangdao 应是 true 或 false")
    if liangdao is not None and flag is not None and flag != liangdao:
        said = "亮倒了" if flag else "没有亮倒"
        happened = "亮倒过" if liangdao else "没有亮倒过"
        raise ScoringError(
            "inconsistent",
            "hand_liangdao_differs",
            f"hand.liangdao 说{said}，但事件里这位玩家{happened}",
            said=flag,
            happened=liangdao,
        )
    if flag is None:
        flag = liangdao
    melds = melds_from_json(raw["melds"], rules) if "melds" in raw else None
    if declared:
        return DeclaredHand(tuple(_string_list(raw["patterns"], "patterns")), hand_method, situations, flag, melds)
    for key in ("concealed", "win_tile"):
        if key not in raw:
            raise ScoringError(
                "bad_request", "hand_without_tiles", f"hand 缺少 {key}（或者改用 patterns 直接报番型）", field=key
            )
    return Hand(
        concealed=tuple(parse_tiles(_tiles_text(raw["concealed"], "concealed"), rules.suits)),
        melds=melds or (),
        win_tile=parse_tile(_tiles_text(raw["win_tile"], "win_tile"), rules.suits),
        method=hand_method,
        situations=situations,
        liangdao=bool(flag),
    )


def score_hand(hand: Hand | DeclaredHand, rules: Rules) -> HandResult:
    """Either kind of hand; a tile hand's result carries its waits."""
    if isinstance(hand, DeclaredHand):
        return evaluate_declared(hand, rules)
    result, packed = _evaluate(hand, rules)
    win = hand.win_tile
    concealed = list(packed)
    concealed[SLOT[win]] -= 1 << SHIFT[win]
    waits_ = waits_of(hand.concealed, hand.melds, (concealed[0], concealed[1], concealed[2], concealed[3]))
    return HandResult(result[0], result[1], result[2], waits_, result[4])
