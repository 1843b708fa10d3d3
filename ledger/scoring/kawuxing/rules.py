"""The rules object of one 卡五星 table: a preset plus per-option overrides, validated, with Chinese descriptions.

Every option is one `Option` row (key, Chinese name, description, allowed values, default); presets only name
the options they change. `rules_from_request` is the one place a `{"preset": ..., option: value}` mapping is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.scoring.common import ScoringError
from ledger.scoring.tiles import SUIT_LETTERS, SUIT_ZH

CAP_8_SHUANGLONG_16 = "8_shuanglong_16"
CAP_8 = "8"
CAP_NONE = "none"

#: Patterns a group may count as 大胡 for the hidden four-of-a-kind rule (rules page, fine print 4). 碰碰胡 and
#: 手抓一 are left out: an all-pungs hand cannot hold a four it has not declared.
BIG_HAND_CHOICES = ("qingyise", "dasanyuan", "xiaosanyuan")


@dataclass(frozen=True)
class Option:
    key: str
    zh: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()
    choice_zh: Mapping[Any, str] = field(default_factory=dict)


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
        choice_zh={True: "是", False: "否"},
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
        choice_zh={
            "qingyise": "清一色",
            "dasanyuan": "大三元",
            "xiaosanyuan": "小三元",
        },
    ),
)
OPTIONS_BY_KEY = {option.key: option for option in OPTIONS}


@dataclass(frozen=True)
class Preset:
    key: str
    zh: str
    description: str
    overrides: Mapping[str, Any]


PRESETS: dict[str, Preset] = {
    "xiangyang": Preset("xiangyang", "襄阳", "襄阳、随州、枣阳：8 倍封顶，双龙七对 16 倍", {}),
    "shiyan": Preset("shiyan", "十堰", "十堰：8 倍即满和", {"cap": CAP_8}),
    "uncapped": Preset("uncapped", "不封顶", "云梦等（规则原文未设封顶）：不封顶", {"cap": CAP_NONE}),
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
    big_hands: frozenset[str] = frozenset({"qingyise", "dasanyuan", "xiaosanyuan"})

    def as_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "suits": list(self.suits),
            "cap": self.cap,
            "pihu_self_draw_only": self.pihu_self_draw_only,
            "draw_liangdao_penalty": self.draw_liangdao_penalty,
            "big_hands": [k for k in BIG_HAND_CHOICES if k in self.big_hands],
        }


def _checked(option: Option, value: Any) -> Any:
    """The option's value in its stored form, or `bad_request` saying what is allowed."""
    allowed = "、".join(str(c) for c in option.choices)
    if option.key in ("suits", "big_hands"):
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ScoringError("bad_request", f"规则 {option.key}（{option.zh}）应是列表，可选：{allowed}")
        unknown = [v for v in value if v not in option.choices]
        if unknown:
            raise ScoringError("bad_request", f"规则 {option.key}（{option.zh}）不认识 {unknown[0]!r}，可选：{allowed}")
        if len(set(value)) != len(value):
            raise ScoringError("bad_request", f"规则 {option.key}（{option.zh}）有重复的值")
        if option.key == "suits":
            if len(value) != 2:
                raise ScoringError("bad_request", '规则 suits（花色）要正好两门，例如 ["p", "s"]')
            return tuple(sorted(value, key=SUIT_LETTERS.index))
        return frozenset(value)
    if option.key == "cap" and value == 8 and not isinstance(value, bool):
        value = CAP_8
    if isinstance(value, bool) != isinstance(option.default, bool) or value not in option.choices:
        raise ScoringError("bad_request", f"规则 {option.key}（{option.zh}）不能是 {value!r}，可选：{allowed}")
    return value


def make_rules(preset: str = DEFAULT_PRESET, **overrides: Any) -> Rules:
    """A preset with single options overridden; unknown preset or option → `bad_request`."""
    if preset not in PRESETS:
        raise ScoringError("bad_request", f"未知的规则预设 {preset!r}，可选：{'、'.join(PRESETS)}")
    values = {option.key: _checked(option, option.default) for option in OPTIONS}
    for source in (PRESETS[preset].overrides, overrides):
        for key, value in source.items():
            if key not in OPTIONS_BY_KEY:
                raise ScoringError("bad_request", f"未知的规则选项 {key!r}，可选：preset、{'、'.join(OPTIONS_BY_KEY)}")
            values[key] = _checked(OPTIONS_BY_KEY[key], value)
    return Rules(preset=preset, **values)


def rules_from_request(raw: object) -> Rules:
    """The request's `"rules"` (absent means the default preset)."""
    if raw is None:
        return make_rules()
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_request", 'rules 应是一个对象，例如 {"preset": "xiangyang"}')
    overrides = dict(raw)
    preset = overrides.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset, str):
        raise ScoringError("bad_request", f"rules.preset 应是字符串，可选：{'、'.join(PRESETS)}")
    if not all(isinstance(key, str) for key in overrides):
        raise ScoringError("bad_request", "rules 的键必须是字符串")
    return make_rules(preset, **overrides)
