"""What every game's scoring shares: a transfer of money, the error a request is refused with, and the request
checks of the games without rule options (够级, 碰胡): the fields, the stake, the players' names, the rules."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: Bounds of every request (docs/kawuxing.md, "Bounds"): a stake in 分 (¥10,000), a name, a tile string
MAX_STAKE = 1_000_000
MAX_NAME = 256
MAX_TEXT = 200
#: the longest a value from a request is repeated in a refusal (as the 卡五星 core cuts its own): a request may
#: hold anything, and an answer must not echo a megabyte back
MAX_QUOTED = 300

#: Error codes of the `paiju score` contract (shared/design.md); games may add their own.
ERROR_CODES = frozenset({"bad_tiles", "wrong_count", "not_a_win", "pihu_self_draw_only", "inconsistent", "bad_request"})


@dataclass(frozen=True)
class Reading:
    """A refusal as data, for whoever words it in another language: `key` names the sentence (stable, one per
    sentence of the core) and `args` the values it names, as the request gave them (player names, tile codes
    such as `5p`, pattern and method keys, counts), never in Chinese words."""

    key: str
    args: Mapping[str, Any]


class ScoringError(ValueError):
    """A request the rules refuse. `code` is the contract's error code, `message` says why in Chinese, and
    `reading` is the same refusal as a key and its arguments (`Reading`). Each raise gives the three together:
    `ScoringError("bad_tiles", "fifth_tile", f"…有 {n} 张…", tile="1p", count=n)`."""

    def __init__(self, code: str, key: str, message: str, /, **args: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reading = Reading(key, args)

    def of_winner(self, prefix: str, winner: str) -> ScoringError:
        """The same refusal said of one winner's hand in a hand's events: `prefix` before the message (`第 2 个事件，
        A 的胡牌：`), `winner` added to the arguments."""
        return ScoringError(self.code, self.reading.key, prefix + self.message, **self.reading.args, winner=winner)


@dataclass(frozen=True)
class Transfer:
    """`amount` 分 paid by `payer` to `payee`; `event` is the index of the event that caused it."""

    payer: str
    payee: str
    amount: int
    reason: str
    event: int | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }
        if self.event is not None:
            out["event"] = self.event
        return out


def net_of(players: Iterable[str], transfers: Iterable[Transfer]) -> dict[str, int]:
    """Each player's net result; sums to zero by construction."""
    net = {p: 0 for p in players}
    for t in transfers:
        net[t.payer] = net.get(t.payer, 0) - t.amount
        net[t.payee] = net.get(t.payee, 0) + t.amount
    return net


#: the only preset of a game without rule options (够级, 碰胡)
RULE_PRESETS = frozenset({"standard"})


def quoted(value: object) -> str:
    """A value from a request as a refusal repeats it: its `repr`, cut to `MAX_QUOTED` characters."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 3] + "…"


def shown(values: Iterable[object]) -> list[str]:
    """Field names from a request as a refusal lists them, each cut as `quoted` cuts a value."""
    return [name if len(name) <= MAX_QUOTED else name[: MAX_QUOTED - 3] + "…" for name in map(str, values)]


def check_keys(request: Mapping[str, Any], required: frozenset[str], optional: frozenset[str], game_zh: str) -> None:
    """Every required field is there and no field is unknown (`game_zh` names the game in the message)."""
    missing = sorted(required - set(request))
    if missing:
        raise ScoringError("bad_request", "missing_fields", f"{game_zh}请求缺少 {'、'.join(missing)}", fields=missing)
    unknown = shown(sorted(map(str, set(request) - required - optional)))
    if unknown:
        raise ScoringError(
            "bad_request", "unknown_fields", f"{game_zh}请求里有未知的字段 {'、'.join(unknown)}", fields=unknown
        )


def check_event_count(count: int, most: int, hand_zh: str) -> None:
    """A hand of at most `most` events (卡五星 and 碰胡 bound theirs; more is a malformed request, refused before any
    event is read). `hand_zh` names the hand in the message: `一手{hand_zh}最多 …` (`牌`, `碰胡`)."""
    if count > most:
        raise ScoringError(
            "bad_request",
            "too_many_events",
            f"一手{hand_zh}最多 {most} 个事件，这里有 {count} 个",
            most=most,
            count=count,
        )


def parse_stake(value: object, *, minimum: int) -> int:
    """The money value of one point in 分: an exact integer, never a fraction of a 分, at most `MAX_STAKE`."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ScoringError(
            "bad_request",
            "stake_not_integer",
            f"stake 必须是整数（一分的钱数，单位：分），收到 {quoted(value)}",
            value=quoted(value),
        )
    if isinstance(value, float):
        if not value.is_integer():
            raise ScoringError(
                "bad_request",
                "stake_fraction",
                f"stake {value} 不是整数分：金额只记整数分（2.5 元写 250）",
                value=value,
            )
        value = int(value)
    if value < minimum:
        raise ScoringError(
            "bad_request", "stake_too_small", f"stake 不能小于 {minimum}，收到 {value}", minimum=minimum, value=value
        )
    if value > MAX_STAKE:
        raise ScoringError(
            "bad_request",
            "stake_too_big",
            f"stake 最多 {MAX_STAKE} 分（{MAX_STAKE // 100} 元），收到 {value}",
            most=MAX_STAKE,
            value=value,
        )
    return value


def check_rules(rules: object) -> None:
    """够级 and 碰胡 have no rule options yet: `rules` may be omitted, `{}` or `{"preset": "standard"}`."""
    if rules is None:
        return
    if not isinstance(rules, Mapping):
        raise ScoringError("bad_request", "rules_not_object", "rules 必须是一个 JSON 对象")
    unknown = shown(sorted(map(str, set(rules) - {"preset"})))
    if unknown:
        raise ScoringError(
            "bad_request",
            "no_rule_options",
            f"这个游戏没有规则选项 {'、'.join(unknown)}",
            options=unknown,
        )
    preset = rules.get("preset", "standard")
    if not isinstance(preset, str) or preset not in RULE_PRESETS:
        raise ScoringError(
            "bad_request",
            "unknown_preset",
            f"未知的规则预设 {quoted(preset)}（可选：{'、'.join(sorted(RULE_PRESETS))}）",
            preset=quoted(preset),
            allowed=sorted(RULE_PRESETS),
        )


#: more names than any game seats
MAX_NAMES = 16


def player_names(value: object, field: str) -> list[str]:
    """A JSON list of non-empty player names, each short enough to print and valid Unicode."""
    if not isinstance(value, list) or not all(isinstance(n, str) and n.strip() for n in value):
        raise ScoringError("bad_request", "names_not_list", f"{field} 必须是玩家名字（非空字符串）的列表", field=field)
    if len(value) > MAX_NAMES:
        raise ScoringError(
            "bad_request",
            "too_many_names",
            f"{field} 最多 {MAX_NAMES} 个名字，这里有 {len(value)} 个",
            field=field,
            most=MAX_NAMES,
            count=len(value),
        )
    for name in value:
        check_text(name, f"{field} 里的名字", field)
    return list(value)


def check_text(text: str, what: str, field: str, limit: int = MAX_NAME) -> str:
    """A name or word a request gives and an answer may repeat: bounded, and valid Unicode (no lone surrogate).
    `what` names it in the message, `field` is the request's field it is in."""
    if len(text) > limit:
        raise ScoringError(
            "bad_request",
            "text_too_long",
            f"{what}最长 {limit} 个字符，这里有 {len(text)} 个",
            field=field,
            most=limit,
            count=len(text),
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ScoringError(
            "bad_request", "text_lone_surrogate", f"{what}里有无效的字符（不成对的代理码位）", field=field
        ) from None
    return text
