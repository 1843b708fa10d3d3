"""The 卡五星 patterns (番): one small definition each, and the rules page's exceptions as data beside them.

A structural pattern asks one `Reading` (one way the hand decomposes); a situational one (杠上开花, 亮倒 …) asks
only how the hand was won. The evaluator enumerates readings and never names a pattern itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ledger.scoring.tiles import DRAGONS, SUIT_OFFSET, Tile

METHODS = ("self_draw", "discard", "rob_kong")
METHOD_ZH = {"self_draw": "自摸", "discard": "点炮", "rob_kong": "抢杠胡"}
SITUATIONS = ("gangshangkaihua", "gangshangpao", "haidilao")
#: also read in `situations`: 抢杠胡 (it follows from method `rob_kong`; named with another method it is refused)
ACCEPTED_SITUATIONS = (*SITUATIONS, "qiangganghu")
MELD_KINDS = ("peng", "zhigang", "xugang", "angang")
MELD_ZH = {"peng": "碰", "zhigang": "直杠", "xugang": "蓄杠", "angang": "暗杠"}
KONG_KINDS = ("zhigang", "xugang", "angang")
_FIVES = frozenset(SUIT_OFFSET[s] + 4 for s in SUIT_OFFSET)


class Reading(NamedTuple):
    """One way a winning hand decomposes, with what every reading of the hand shares in front.

    A flat NamedTuple: it is built once per reading on the hot path. `pungs` holds concealed pungs and every
    declared meld's tile; a seven-pairs reading has no pungs, chows or pair (-1).
    """

    win_tile: Tile
    method: str
    situations: frozenset[str]
    liangdao: bool
    melds: tuple[tuple[str, Tile], ...]
    #: the winner's own 碰 tiles
    peng_tiles: tuple[Tile, ...]
    #: copies of the winning tile among the concealed tiles before the win
    held_of_win_tile: int
    one_suit: bool
    seven_pairs: bool
    #: four-of-a-kinds among the seven pairs (龙); 0 in a standard reading
    fours: int
    pair: Tile
    pungs: tuple[Tile, ...]
    chows: tuple[Tile, ...]


@dataclass(frozen=True)
class Pattern:
    key: str
    zh: str
    en: str
    multiplier: int
    #: `applies(reading)`; situational patterns read only `reading.win`
    applies: Callable[[Reading], bool]
    situational: bool = False


_DRAGON_SET = frozenset(DRAGONS)


def _dragon_pungs(r: Reading) -> int:
    return len(_DRAGON_SET.intersection(r.pungs))


PATTERNS: tuple[Pattern, ...] = (
    Pattern("pengpenghu", "碰碰胡", "all pungs", 2, lambda r: not r.chows),
    Pattern("qingyise", "清一色", "one suit", 4, lambda r: r.one_suit),
    Pattern("qidui", "七对", "seven pairs", 4, lambda r: r.seven_pairs),
    Pattern("longqidui", "龙七对", "seven pairs with a four", 8, lambda r: r.fours >= 1),
    Pattern("shuanglongqidui", "双龙七对", "seven pairs with two fours", 16, lambda r: r.fours >= 2),
    Pattern("dasanyuan", "大三元", "big three dragons", 8, lambda r: _DRAGON_SET.issubset(r.pungs)),
    Pattern(
        "xiaosanyuan", "小三元", "little three dragons", 4, lambda r: r.pair in _DRAGON_SET and _dragon_pungs(r) == 2
    ),
    Pattern(
        "kawuxing",
        "卡五星",
        "closed five",
        2,
        lambda r: r.win_tile in _FIVES and r.win_tile - 1 in r.chows,
    ),
    Pattern("mingsiguiyi", "明四归一", "fourth tile of an own pung", 2, lambda r: r.win_tile in r.peng_tiles),
    Pattern("ansiguiyi", "暗四归一", "fourth tile to a concealed three", 4, lambda r: r.held_of_win_tile == 3),
    Pattern("shouzhuayi", "手抓一", "single wait after four melds", 4, lambda r: len(r.melds) == 4),
    Pattern(
        "gangshangkaihua",
        "杠上开花",
        "win on a kong's replacement",
        2,
        lambda r: "gangshangkaihua" in r.situations,
        situational=True,
    ),
    Pattern(
        "gangshangpao",
        "杠上炮",
        "win on the discard after a kong",
        2,
        lambda r: "gangshangpao" in r.situations,
        situational=True,
    ),
    Pattern("qiangganghu", "抢杠胡", "robbing a kong", 2, lambda r: r.method == "rob_kong", situational=True),
    Pattern("haidilao", "海底捞", "last tile of the wall", 2, lambda r: "haidilao" in r.situations, True),
    Pattern("liangdao", "亮倒", "declared ready hand", 2, lambda r: r.liangdao, situational=True),
)
PATTERNS_BY_KEY = {p.key: p for p in PATTERNS}
MULTIPLIER = {p.key: p.multiplier for p in PATTERNS}
STRUCTURAL = tuple(p for p in PATTERNS if not p.situational)
SITUATIONAL = tuple(p for p in PATTERNS if p.situational)
#: position in the table, the order answers list patterns in
ORDER = {p.key: i for i, p in enumerate(PATTERNS)}

# --- The exceptions of the rules page, as data -------------------------------------------------------------
#: A bigger seven-pairs pattern replaces the smaller ones (龙七对 replaces 七对; 双龙七对 both).
REPLACES: dict[str, frozenset[str]] = {
    "longqidui": frozenset({"qidui"}),
    "shuanglongqidui": frozenset({"qidui", "longqidui"}),
}
#: Fine print 2: a seven-pairs reading never counts these (大三元/小三元 need pungs). Fine print 1 (龙七对 and
#: 双龙七对 never count 暗四归一) follows from it: 龙 exists only in seven-pairs readings.
SEVEN_PAIRS_NEVER = frozenset({"kawuxing", "pengpenghu", "mingsiguiyi", "ansiguiyi", "dasanyuan", "xiaosanyuan"})
SEVEN_PAIRS_KEYS = frozenset({"qidui", "longqidui", "shuanglongqidui"})
#: What each kind of reading is asked: a standard reading never holds seven pairs, and a seven-pairs reading is
#: never asked what fine print 2 excludes.
STANDARD_CHECKS = tuple(p for p in STRUCTURAL if p.key not in SEVEN_PAIRS_KEYS)
SEVEN_PAIRS_CHECKS = tuple(p for p in STRUCTURAL if p.key not in SEVEN_PAIRS_NEVER)
#: Fine print 5: 手抓一 is always also 碰碰胡 (no chows in this game).
IMPLIES: dict[str, str] = {"shouzhuayi": "pengpenghu"}
#: Patterns no single reading can hold together (checked in declared-pattern mode; tile mode cannot produce them).
EXCLUSIVE: tuple[tuple[str, str, str], ...] = (
    ("dasanyuan", "xiaosanyuan", "大三元的第三门是刻子，小三元的是将，不能同时成立"),
    ("qingyise", "dasanyuan", "清一色没有字牌，不能有三元"),
    ("qingyise", "xiaosanyuan", "清一色没有字牌，不能有三元"),
    ("pengpenghu", "kawuxing", "卡五星要有 4-5-6 顺子，碰碰胡没有顺子"),
    ("shouzhuayi", "kawuxing", "手抓一手里只有一对，没有 4-5-6 顺子"),
    ("shouzhuayi", "mingsiguiyi", "手抓一胡的是单钓的那张，不是碰过的牌"),
    ("shouzhuayi", "ansiguiyi", "手抓一手里只剩一张，不可能有三张"),
    ("gangshangkaihua", "gangshangpao", "杠上开花是自摸，杠上炮是点炮"),
)
#: Situations that exist only for some ways of winning.
NEEDS_METHOD: dict[str, tuple[str, ...]] = {
    "gangshangkaihua": ("self_draw",),
    "haidilao": ("self_draw",),
    "gangshangpao": ("discard",),
    "qiangganghu": ("rob_kong",),
}
#: Patterns that may be listed more than once (each hidden four-of-a-kind of a 大胡 is its own 四归一).
REPEATABLE = frozenset({"mingsiguiyi", "ansiguiyi"})
