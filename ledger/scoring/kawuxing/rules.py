"""The rules object of one 卡五星 table: a preset plus per-option overrides, validated, with Chinese descriptions.

Every option is one `Option` row (key, Chinese name, description, allowed values, default); presets only name
the options they change, and each names the sources it was established from. `rules_from_request` is the one
place a `{"preset": ..., option: value}` mapping is read. docs/regional-rules.md explains every option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ledger.scoring.common import ScoringError, quoted
from ledger.scoring.tiles import SUIT_LETTERS, SUIT_ZH

CAP_8_SHUANGLONG_16 = "8_shuanglong_16"
CAP_8 = "8"
CAP_NONE = "none"

#: Patterns a group may count as 大胡 for the hidden four-of-a-kind rule (rules page, fine print 4). 碰碰胡 and
#: 手抓一 are left out: an all-pungs hand cannot hold a four it has not declared.
BIG_HAND_CHOICES = ("qingyise", "dasanyuan", "xiaosanyuan")
#: 漂 a player may put on a hand, in base stakes (the sources offer 1, 2, 3 and 5)
PIAO_RANGE = tuple(range(0, 11))
#: `piao` values under which the players tell their own 漂: 每局选漂 (each hand), 首局定漂 (at the table's first
#: hand, kept for the table: the ledger carries it to the later hands, the core scores each hand's values alike)
PIAO_CHOSEN = frozenset({"chosen", "first_hand"})
_YES_NO = {True: "是", False: "否"}


@dataclass(frozen=True)
class Option:
    key: str
    zh: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()
    choice_zh: Mapping[Any, str] = field(default_factory=dict)
    #: per value: what the players must tell the bot for each hand under it (no entry: nothing), and in English
    asks: Mapping[Any, str] = field(default_factory=dict)
    asks_en: Mapping[Any, str] = field(default_factory=dict)


OPTIONS: tuple[Option, ...] = (
    Option(
        "suits",
        "花色",
        "用哪两门序数牌（另加中发白）：p 筒、s 条、m 万，任选两门",
        ("p", "s"),
        choices=SUIT_LETTERS,
        choice_zh=SUIT_ZH,
    ),
    Option(
        "cap",
        "封顶",
        "一份的最终倍数上限（亮倒、杠上开花等都计在内）",
        CAP_8_SHUANGLONG_16,
        choices=(CAP_8_SHUANGLONG_16, CAP_8, CAP_NONE),
        choice_zh={CAP_8_SHUANGLONG_16: "8 倍封顶，双龙七对 16 倍", CAP_8: "8 倍满和", CAP_NONE: "不封顶"},
    ),
    Option(
        "pihu_self_draw_only",
        "屁胡只能自摸",
        "最终倍数（封顶前）为 1 倍的屁胡只能自摸，不能逮炮",
        True,
        choices=(True, False),
        choice_zh=_YES_NO,
    ),
    Option(
        "draw_liangdao_penalty",
        "荒庄亮倒赔付",
        "荒庄时亮倒的玩家赔多少",
        "first",
        choices=("first", "each", "none"),
        choice_zh={
            "first": "第一个亮倒的赔其他两家各 1 倍底金",
            "each": "每个亮倒的赔每个没亮倒的 1 倍底金（三家都亮倒则都不赔）",
            "none": "不赔",
        },
    ),
    Option(
        "big_hands",
        "大胡",
        "这些番型算大胡：大胡时手里没杠的四张（四归）也算四归一",
        ("qingyise", "dasanyuan", "xiaosanyuan"),
        choices=BIG_HAND_CHOICES,
        choice_zh={"qingyise": "清一色", "dasanyuan": "大三元", "xiaosanyuan": "小三元"},
    ),
    Option(
        "pindao",
        "频道",
        "手上没杠的四张（暗四归、碰了又摸到的第四张）什么时候也算四归一：大胡时（屁胡只算胡的那张）、"
        "全频道（任何胡牌都算）、半频道（只算胡的那张）",
        "big_hands",
        choices=("big_hands", "full", "half"),
        choice_zh={"big_hands": "大胡才算", "full": "全频道", "half": "半频道"},
    ),
    Option(
        "hidden_fours",
        "四归计数",
        "一手牌里有几个四归一时：每个都算，或明四归、暗四归各最多算一次",
        "each",
        choices=("each", "once"),
        choice_zh={"each": "每个都算", "once": "各算一次"},
    ),
    Option(
        "shouzhuayi_pengpenghu",
        "手抓一带碰碰胡",
        "手抓一（×4）是否再乘碰碰胡（×2）",
        True,
        choices=(True, False),
        choice_zh={True: "是（共 ×8）", False: "否（只算手抓一 ×4）"},
    ),
    Option(
        "kawuxing_multiplier",
        "卡五星番数",
        "卡五星算几倍",
        2,
        choices=(2, 4),
        choice_zh={2: "×2", 4: "×4"},
    ),
    Option(
        "pengpenghu_multiplier",
        "碰碰胡番数",
        "碰碰胡算几倍",
        2,
        choices=(2, 4),
        choice_zh={2: "×2", 4: "×4"},
    ),
    Option(
        "gangshang_multiplier",
        "杠上花番数",
        "杠上开花、杠上炮算几倍",
        2,
        choices=(2, 4),
        choice_zh={2: "×2", 4: "×4"},
    ),
    Option(
        "haidipao",
        "海底炮",
        "胡最后一张打出的牌（第 84 张）×2",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
    ),
    Option(
        "liangdao_payer_double",
        "亮倒输家加倍",
        "亮倒了却输的玩家（赢家没亮倒）给这家的钱翻倍",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
    ),
    Option(
        "duiliang_double",
        "对亮翻番",
        "赢家和给钱的玩家都亮倒时，这份再翻倍（要先开「亮倒输家加倍」）",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
    ),
    Option(
        "chadajiao",
        "查大叫",
        "荒庄时没听牌的赔听牌的（按听牌者能胡的最大牌），亮倒的赔听牌没亮倒的",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
        asks={True: "荒庄时报每个听牌玩家的手牌"},
        asks_en={True: "at a draw, every ready player's hand"},
    ),
    Option(
        "zhigang_money",
        "直杠喜钱",
        "直杠由点杠者一家出几倍底金",
        2,
        choices=(2, 3),
        choice_zh={2: "2 倍", 3: "3 倍"},
    ),
    Option(
        "piao",
        "漂",
        "每份胡牌钱（和查大叫）另加赢家和给钱者两人的漂（底金的倍数）：定漂是全桌一样（见「漂数」），"
        "选漂是每人每局自己报，首局定漂是每人开桌第一局报、整桌不变",
        "none",
        choices=("none", "fixed", "chosen", "first_hand"),
        choice_zh={"none": "不漂", "fixed": "定漂", "chosen": "选漂", "first_hand": "首局定漂"},
        asks={"chosen": "每人这局漂几", "first_hand": "每人开桌第一局漂几（整桌不变）"},
        asks_en={"chosen": "each player's 漂 this hand", "first_hand": "each player's 漂 at the table's first hand"},
    ),
    Option(
        "piao_amount",
        "漂数",
        "定漂时每人漂几倍底金",
        1,
        choices=PIAO_RANGE[1:],
        choice_zh={n: f"{n} 倍" for n in PIAO_RANGE[1:]},
    ),
    Option(
        "maima",
        "买马",
        "自摸后翻一张马牌：序数牌按点数、中发白按 10，每家另付这么多倍底金",
        "none",
        choices=("none", "self_draw", "liangdao_self_draw"),
        choice_zh={"none": "不买马", "self_draw": "自摸买马", "liangdao_self_draw": "亮倒自摸买马"},
        asks={"self_draw": "自摸时翻出的马牌", "liangdao_self_draw": "亮倒自摸时翻出的马牌"},
        asks_en={
            "self_draw": "the horse tile of a self-draw",
            "liangdao_self_draw": "the horse tile of a 亮倒 self-draw",
        },
    ),
    Option(
        "shukan",
        "数坎",
        "胡牌时手里每个暗刻（别人点炮凑成的不算）和每个杠，每家另付 1 倍底金",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
        asks={True: "报番型（不报牌）时的坎数"},
        asks_en={True: "the 坎 count of a win given by its patterns"},
    ),
    Option(
        "paoqiamoba",
        "跑恰摸八",
        "胡牌每家另付：跑 1；自摸再 1；每个暗刻和杠 1（恰）；一门牌（含字牌）8 张起每多一张 1（八）",
        False,
        choices=(False, True),
        choice_zh=_YES_NO,
        asks={True: "报番型（不报牌）时的恰数和八数"},
        asks_en={True: "恰 and 八 of a win given by its patterns"},
    ),
)
OPTIONS_BY_KEY = {option.key: option for option in OPTIONS}


@dataclass(frozen=True)
class Preset:
    key: str
    zh: str
    description: str
    overrides: Mapping[str, Any]
    #: where the bundle was established (docs/regional-rules.md quotes each)
    sources: tuple[str, ...] = ()
    en: str = ""


_SEED_CAPS = "卡五星规则原文（种子 000、002）：随州、襄阳、枣阳 8 倍封顶、双龙七对 16 倍；十堰 8 倍满和"
_ROOM_UI = "湖北卡五星开房界面 createKwxRoomUi（孝感、襄阳、十堰、随州、宜城、应城各自的选项）"
_YINGCHENG = "开源 Go 牌类服务器 github.com/open-source/game/chess.git，包 YingChengKwx（应城卡五星）"
_XIUXIU = "开源 Java 服务器 com.xiuxiu.app.server.room.normal.mahjong.kwx（KWXMahjongRoom）"

PRESETS: dict[str, Preset] = {
    "xiangyang": Preset(
        "xiangyang", "襄阳", "襄阳：8 倍封顶，双龙七对 16 倍", {}, (_SEED_CAPS,), "cap x8, 双龙七对 x16"
    ),
    "suizhou": Preset(
        "suizhou", "随州", "随州：与襄阳同（8 倍封顶，双龙七对 16 倍）", {}, (_SEED_CAPS,), "as xiangyang"
    ),
    "zaoyang": Preset(
        "zaoyang", "枣阳", "枣阳：与襄阳同（8 倍封顶，双龙七对 16 倍）", {}, (_SEED_CAPS,), "as xiangyang"
    ),
    "shiyan": Preset("shiyan", "十堰", "十堰：8 倍即满和", {"cap": CAP_8}, (_SEED_CAPS,), "cap x8"),
    "xiaogan": Preset(
        "xiaogan",
        "孝感",
        "孝感：8 倍封顶，数坎，亮倒输家加倍",
        {"cap": CAP_8, "shukan": True, "liangdao_payer_double": True},
        (_ROOM_UI, _XIUXIU),
        "cap x8, 数坎, a declared loser pays double",
    ),
    "yingcheng": Preset(
        "yingcheng",
        "应城",
        "应城：8 倍封顶，手抓一不带碰碰胡，海底炮，亮倒输家加倍，荒庄查大叫（不罚亮倒）",
        {
            "cap": CAP_8,
            "shouzhuayi_pengpenghu": False,
            "haidipao": True,
            "liangdao_payer_double": True,
            "chadajiao": True,
            "draw_liangdao_penalty": "none",
        },
        (_YINGCHENG,),
        "cap x8, 手抓一 alone, 海底炮, a declared loser pays double, 查大叫 on a draw",
    ),
    "uncapped": Preset(
        "uncapped", "不封顶", "云梦等（规则原文未设封顶）：不封顶", {"cap": CAP_NONE}, (_SEED_CAPS,), "no cap"
    ),
}
DEFAULT_PRESET = "xiangyang"


@dataclass(frozen=True)
class Rules:
    """One table's rules; build it with `make_rules` (or `rules_from_request`) so every value is checked."""

    preset: str = DEFAULT_PRESET
    suits: tuple[str, ...] = ("p", "s")
    cap: str = CAP_8_SHUANGLONG_16
    pihu_self_draw_only: bool = True
    draw_liangdao_penalty: str = "first"
    big_hands: frozenset[str] = frozenset(BIG_HAND_CHOICES)
    pindao: str = "big_hands"
    hidden_fours: str = "each"
    shouzhuayi_pengpenghu: bool = True
    kawuxing_multiplier: int = 2
    pengpenghu_multiplier: int = 2
    gangshang_multiplier: int = 2
    haidipao: bool = False
    liangdao_payer_double: bool = False
    duiliang_double: bool = False
    chadajiao: bool = False
    zhigang_money: int = 2
    piao: str = "none"
    piao_amount: int = 1
    maima: str = "none"
    shukan: bool = False
    paoqiamoba: bool = False
    #: the evaluator's memo of what each combination of reading facts is worth under these rules (not a rule)
    worth_cache: dict[int, Any] = field(default_factory=dict, compare=False, repr=False)
    #: the packed slot of the suit these rules leave out (derived from `suits`)
    excluded_slot: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        excluded = next(i for i, s in enumerate(SUIT_LETTERS) if s not in self.suits)
        object.__setattr__(self, "excluded_slot", excluded)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if not f.compare:
                continue
            value = getattr(self, f.name)
            if f.name == "suits":
                value = list(value)
            elif f.name == "big_hands":
                value = [k for k in BIG_HAND_CHOICES if k in value]
            out[f.name] = value
        return out


def _checked(option: Option, value: Any) -> Any:
    """The option's value in its stored form, or `bad_request` saying what is allowed."""
    choices = [str(c) for c in option.choices]
    allowed = "、".join(choices)
    if option.key in ("suits", "big_hands"):
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ScoringError(
                "bad_request",
                "rule_not_list",
                f"规则 {option.key}（{option.zh}）应是列表，可选：{allowed}",
                option=option.key,
                allowed=choices,
            )
        unknown = [v for v in value if v not in option.choices]
        if unknown:
            raise ScoringError(
                "bad_request",
                "rule_unknown_choice",
                f"规则 {option.key}（{option.zh}）不认识 {unknown[0]!r}，可选：{allowed}",
                option=option.key,
                value=repr(unknown[0]),
                allowed=choices,
            )
        if len(set(value)) != len(value):
            raise ScoringError(
                "bad_request", "rule_repeated_choice", f"规则 {option.key}（{option.zh}）有重复的值", option=option.key
            )
        if option.key == "suits":
            if len(value) != 2:
                raise ScoringError("bad_request", "rule_two_suits", '规则 suits（花色）要正好两门，例如 ["p", "s"]')
            return tuple(sorted(value, key=SUIT_LETTERS.index))
        return frozenset(value)
    if option.key == "cap" and value == 8 and not isinstance(value, bool):
        value = CAP_8
    if type(value) is not type(option.default) or value not in option.choices:
        raise ScoringError(
            "bad_request",
            "rule_bad_value",
            f"规则 {option.key}（{option.zh}）不能是 {quoted(value)}，可选：{allowed}",
            option=option.key,
            value=quoted(value),
            allowed=choices,
        )
    return value



def make_rules(preset: str = DEFAULT_PRESET, **overrides: Any) -> Rules:
    """A preset with single options overridden; unknown preset or option, or a contradiction → `bad_request`.

    Equal rules come back as one object, so what the evaluator learns about a table's rules (`worth_cache`)
    serves every request made under them."""
    if preset not in PRESETS:
        raise ScoringError(
            "bad_request",
            "unknown_preset",
            f"未知的规则预设 {quoted(preset)}，可选：{'、'.join(PRESETS)}",
            preset=quoted(preset),
            allowed=list(PRESETS),
        )
    values = dict(_preset_values(preset))
    for key, value in overrides.items():
        if key not in OPTIONS_BY_KEY:
            allowed = "、".join(OPTIONS_BY_KEY)
            raise ScoringError(
                "bad_request",
                "unknown_rule",
                f"未知的规则选项 {quoted(key)}，可选：preset、{allowed}",
                option=quoted(key),
                allowed=["preset", *OPTIONS_BY_KEY],
            )
        values[key] = _checked(OPTIONS_BY_KEY[key], value)
    if values["duiliang_double"] and not values["liangdao_payer_double"]:
        raise ScoringError(
            "bad_request",
            "duiliang_alone",
            "对亮翻番（duiliang_double）要和亮倒输家加倍（liangdao_payer_double）一起开",
        )
    rules = Rules(preset=preset, **values)
    known = _CANONICAL.get(rules)
    if known is None:
        if len(_CANONICAL) >= _MAX_CANONICAL:  # a stream of ever-different rules cannot grow it without bound
            _CANONICAL.clear()
        _CANONICAL[rules] = known = rules
    return known


_PRESET_VALUES: dict[str, dict[str, Any]] = {}
_CANONICAL: dict[Rules, Rules] = {}
_MAX_CANONICAL = 256


def _preset_values(preset: str) -> dict[str, Any]:
    """Every option's value under a preset, checked once."""
    found = _PRESET_VALUES.get(preset)
    if found is None:
        found = {option.key: _checked(option, option.default) for option in OPTIONS}
        found.update({k: _checked(OPTIONS_BY_KEY[k], v) for k, v in PRESETS[preset].overrides.items()})
        _PRESET_VALUES[preset] = found
    return found


def rules_from_request(raw: object) -> Rules:
    """The request's `"rules"` (absent means the default preset)."""
    if raw is None:
        return make_rules()
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_request", "rules_not_object", 'rules 应是一个对象，例如 {"preset": "xiangyang"}')
    overrides = dict(raw)
    preset = overrides.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset, str):
        raise ScoringError(
            "bad_request",
            "preset_not_text",
            f"rules.preset 应是字符串，可选：{'、'.join(PRESETS)}",
            allowed=list(PRESETS),
        )
    if not all(isinstance(key, str) for key in overrides):
        raise ScoringError("bad_request", "rule_key_not_text", "rules 的键必须是字符串")
    return make_rules(preset, **overrides)
