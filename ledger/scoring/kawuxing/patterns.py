"""The 卡五星 patterns (番): one small definition each, and the rules page's exceptions as data beside them.

A pattern asks one question of a reading (one way the hand decomposes, with how it was won), put to it as
`facts`: an int of the bits below, which the evaluator sets once per reading. The evaluator enumerates readings
and never names a pattern itself; `pattern_table` turns the facts of a reading into its patterns under one
table's rules, once for every combination of facts that ever occurs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

METHODS = ("self_draw", "discard", "rob_kong")
METHOD_ZH = {"self_draw": "自摸", "discard": "点炮", "rob_kong": "抢杠胡"}
SITUATIONS = ("gangshangkaihua", "gangshangpao", "haidilao", "haidipao")
#: also read in `situations`: 抢杠胡 (it follows from method `rob_kong`; named with another method it is refused)
ACCEPTED_SITUATIONS = (*SITUATIONS, "qiangganghu")
MELD_KINDS = ("peng", "zhigang", "xugang", "angang")
MELD_ZH = {"peng": "碰", "zhigang": "直杠", "xugang": "蓄杠", "angang": "暗杠"}
KONG_KINDS = ("zhigang", "xugang", "angang")

# --- Facts of a reading ------------------------------------------------------------------------------------
#: a concealed sequence (chow) in the reading
CHOW = 1 << 0
#: every tile, melds included, of one suit
ONE_SUIT = 1 << 1
#: pungs or kongs of all three dragons
DRAGONS_3 = 1 << 2
#: pungs or kongs of two dragons, the third the pair
DRAGONS_2_PAIR = 1 << 3
#: the winning tile is a 5 in the middle of a concealed 4-5-6 of the reading
KAWUXING = 1 << 4
#: the winning tile is the tile of one of the winner's own 碰
MING = 1 << 5
#: the winner held three copies of the winning tile concealed
AN = 1 << 6
#: four declared melds
FOUR_MELDS = 1 << 7
#: a seven-pairs reading, with one or with two four-of-a-kinds among the pairs
SEVEN = 1 << 8
SEVEN_FOUR = 1 << 9
SEVEN_FOURS = 1 << 10
#: how the hand was won
GANGSHANGKAIHUA = 1 << 11
GANGSHANGPAO = 1 << 12
ROB_KONG = 1 << 13
HAIDILAO = 1 << 14
HAIDIPAO = 1 << 15
LIANGDAO = 1 << 16
#: the situations' bits by their request keys
SITUATION_FACTS = {
    "gangshangkaihua": GANGSHANGKAIHUA,
    "gangshangpao": GANGSHANGPAO,
    "qiangganghu": ROB_KONG,
    "haidilao": HAIDILAO,
    "haidipao": HAIDIPAO,
}


@dataclass(frozen=True)
class Pattern:
    key: str
    zh: str
    en: str
    #: the multiplier the rules page gives; some tables raise it (see `multiplier_option`)
    multiplier: int
    #: `applies(facts)`
    applies: Callable[[int], bool]
    situational: bool = False
    #: the rules option that sets this pattern's multiplier, if any
    multiplier_option: str | None = None


def _has(bit: int) -> Callable[[int], bool]:
    return lambda facts: bool(facts & bit)


PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "pengpenghu",
        "碰碰胡",
        "all pungs",
        2,
        lambda facts: not facts & (CHOW | SEVEN),
        multiplier_option="pengpenghu_multiplier",
    ),
    Pattern("qingyise", "清一色", "one suit", 4, _has(ONE_SUIT)),
    Pattern("qidui", "七对", "seven pairs", 4, _has(SEVEN)),
    Pattern("longqidui", "龙七对", "seven pairs with a four", 8, _has(SEVEN_FOUR)),
    Pattern("shuanglongqidui", "双龙七对", "seven pairs with two fours", 16, _has(SEVEN_FOURS)),
    Pattern("dasanyuan", "大三元", "big three dragons", 8, _has(DRAGONS_3)),
    Pattern("xiaosanyuan", "小三元", "little three dragons", 4, _has(DRAGONS_2_PAIR)),
    Pattern("kawuxing", "卡五星", "closed five", 2, _has(KAWUXING), multiplier_option="kawuxing_multiplier"),
    Pattern("mingsiguiyi", "明四归一", "fourth tile of an own pung", 2, _has(MING)),
    Pattern("ansiguiyi", "暗四归一", "fourth tile to a concealed three", 4, _has(AN)),
    Pattern("shouzhuayi", "手抓一", "single wait after four melds", 4, _has(FOUR_MELDS)),
    Pattern(
        "gangshangkaihua",
        "杠上开花",
        "win on a kong's replacement",
        2,
        _has(GANGSHANGKAIHUA),
        situational=True,
        multiplier_option="gangshang_multiplier",
    ),
    Pattern(
        "gangshangpao",
        "杠上炮",
        "win on the discard after a kong",
        2,
        _has(GANGSHANGPAO),
        situational=True,
        multiplier_option="gangshang_multiplier",
    ),
    Pattern("qiangganghu", "抢杠胡", "robbing a kong", 2, _has(ROB_KONG), situational=True),
    Pattern("haidilao", "海底捞", "last tile of the wall", 2, _has(HAIDILAO), situational=True),
    Pattern("haidipao", "海底炮", "win on the last discard", 2, _has(HAIDIPAO), situational=True),
    Pattern("liangdao", "亮倒", "declared ready hand", 2, _has(LIANGDAO), situational=True),
)
PATTERNS_BY_KEY = {p.key: p for p in PATTERNS}
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
#: Fine print 5: 手抓一 is always also 碰碰胡 (no chows in this game); option `shouzhuayi_pengpenghu` says whether
#: the two multiply (×8) or 手抓一 stands alone (×4).
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
    ("haidilao", "haidipao", "海底捞是自摸最后一张，海底炮是胡最后打出的一张"),
)
#: Situations that exist only for some ways of winning.
NEEDS_METHOD: dict[str, tuple[str, ...]] = {
    "gangshangkaihua": ("self_draw",),
    "haidilao": ("self_draw",),
    "gangshangpao": ("discard",),
    "haidipao": ("discard",),
    "qiangganghu": ("rob_kong",),
}
#: Patterns that may be listed more than once (each hidden four-of-a-kind of a 大胡 is its own 四归一).
REPEATABLE = frozenset({"mingsiguiyi", "ansiguiyi"})
SITUATIONAL_KEYS = frozenset(p.key for p in PATTERNS if p.situational)
