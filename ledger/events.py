"""Typed hand events: what the command layer builds and the ledger books.

Each event becomes the scoring contract's JSON (`paiju score`'s `events`, seat names as players), which is also
what `hand_events.payload` stores; `from_payload` reads a stored payload back (rows written before these types
existed included). 卡五星: `Kong`, `Liangdao`, `Piao` (漂), `Win` (with its `WinHand`), `Draw` (with 查大叫's
`ReadyHand`s); 够级: `GoujiRound` (a whole round); 碰胡: `PenghuPlay` for every event but the draw, which is `Draw`
as in 卡五星. The inputs regional rules ask for (漂, 买马, 数坎, 跑恰摸八, 查大叫) are fields that stay out of the
payload when unset, so every payload written before them reads back as it was.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ledger.errors import LedgerError
from ledger.records import Payload

KongKind = Literal["angang", "xugang", "zhigang"]
WinMethod = Literal["self_draw", "discard", "rob_kong"]
PenghuKind = Literal["peng", "sao", "guosao", "paoqi", "tishe", "baojing", "wufu", "hu", "tianhu", "dihu", "xiaoqidui"]
KONG_KINDS: dict[str, KongKind] = {"angang": "angang", "xugang": "xugang", "zhigang": "zhigang"}
WIN_METHODS: dict[str, WinMethod] = {"self_draw": "self_draw", "discard": "discard", "rob_kong": "rob_kong"}
PENGHU_KINDS: dict[str, PenghuKind] = {
    "peng": "peng",
    "sao": "sao",
    "guosao": "guosao",
    "paoqi": "paoqi",
    "tishe": "tishe",
    "baojing": "baojing",
    "wufu": "wufu",
    "hu": "hu",
    "tianhu": "tianhu",
    "dihu": "dihu",
    "xiaoqidui": "xiaoqidui",
}
#: most kongs one player makes in a 卡五星 hand: 14 tiles, a kong counted as three, hold four sets and a pair. The
#: scoring core's `paiju score` keeps answering more (its contract); the ledger books no fifth
MAX_KONGS = 4
#: 碰胡 events whose payload names the discarder (`from`, null when each pays)
PENGHU_PAID_BY_ONE = frozenset({"peng", "paoqi", "wufu", "hu"})


@dataclass(frozen=True)
class Kong:
    """杠: concealed (暗杠), added (蓄杠) or exposed (直杠, paid by `discarder`). `chained` (杠上杠) continues the
    chain of the kong recorded just before it in the hand: the ledger numbers it when it books."""

    player: str
    kind: KongKind
    discarder: str | None = None
    tile: str | None = None
    chained: bool = False


@dataclass(frozen=True)
class Liangdao:
    """亮倒: the player lays their hand open (their win then doubles; once per hand)."""

    player: str


@dataclass(frozen=True)
class Piao:
    """漂: the stake `player` puts on this hand, in base stakes (0–10), where the players choose it (选漂, 首局定漂);
    a later one of the same player replaces it."""

    player: str
    amount: int


@dataclass(frozen=True)
class Meld:
    """A meld shown in a winning hand: 碰 (`peng`), 暗杠/直杠/蓄杠 (`angang`/`zhigang`/`xugang`) of `tile`."""

    kind: str
    tile: str


@dataclass(frozen=True)
class WinHand:
    """The winner's hand: the tiles (`concealed` without the winning tile, then `win_tile`), or the declared
    `patterns` (an empty tuple is 屁胡) when no tiles were typed; situational `situations` (杠上开花 …)."""

    concealed: str | None = None
    win_tile: str | None = None
    melds: tuple[Meld, ...] = ()
    patterns: tuple[str, ...] | None = None
    situations: tuple[str, ...] = ()


@dataclass(frozen=True)
class Win:
    """胡: `winner` by self-draw, on `discarder`'s discard, or robbing `discarder`'s kong. Where the rules ask:
    `ma` the horse tile of a 买马 self-draw; `kan` (数坎), `qia` and `ba` (跑恰摸八) of a hand given by patterns."""

    winner: str
    method: WinMethod
    hand: WinHand
    discarder: str | None = None
    ma: str | None = None
    kan: int | None = None
    qia: int | None = None
    ba: int | None = None


@dataclass(frozen=True)
class ReadyHand:
    """A ready (听牌) player's hand at a draw, for 查大叫: the 13 − 3·melds `concealed` tiles and the melds, or the
    `patterns` of the best hand they waited on."""

    concealed: str | None = None
    melds: tuple[Meld, ...] = ()
    patterns: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Draw:
    """荒庄 (卡五星, 碰胡): nobody won. With 查大叫, `ready` pairs every ready player with their hand (empty: nobody
    was ready; None: not told)."""

    ready: tuple[tuple[str, ReadyHand], ...] | None = None


@dataclass(frozen=True)
class GoujiRound:
    """A 够级 round: the finishing order (头科 first), 革命 players, failed burns (烧牌失败) in order."""

    order: tuple[str, ...]
    geming: tuple[str, ...] = ()
    shaopai_failed: tuple[str, ...] = ()


@dataclass(frozen=True)
class PenghuPlay:
    """A 碰胡 event other than the draw: 碰, 扫, 过扫, 跑起, 提蛇, 报警, 五福, 胡, 天胡, 地胡, 小七对. `discarder`
    pays alone where the event allows it (碰/跑起/五福/胡; None: each pays); `at_deal` marks a deal-time 扫/提蛇."""

    kind: PenghuKind
    player: str
    discarder: str | None = None
    at_deal: bool = False
    zhongzhuang: bool = False
    paoqi: bool = False


Event = Kong | Liangdao | Piao | Win | Draw | GoujiRound | PenghuPlay


def payload(event: Event | Mapping[str, Any], before: Sequence[Mapping[str, Any]] = ()) -> Payload:
    """The scoring contract's JSON of an event recorded after the hand's events `before`. A mapping is taken as
    that JSON already (checked only for its `type`: the scoring core judges the rest)."""
    if isinstance(event, Mapping):
        if not isinstance(event.get("type"), str):
            raise LedgerError("bad_event", f"事件必须是带 type 的对象，收到 {dict(event)!r}")
        plain: Payload = json.loads(json.dumps(dict(event)))  # as it will be stored: plain JSON
        return plain
    if isinstance(event, Kong):
        made = sum(e.get("type") == "gang" and e.get("player") == event.player for e in before)
        if made >= MAX_KONGS:
            raise LedgerError(
                "kongs_too_many",
                f"{event.player} 这局已经杠了 {made} 次：一个人一局最多 {MAX_KONGS} 个杠"
                "（14 张牌，杠算三张，最多四组加一对）",
                f"{event.player} has made {made} kongs this hand already: one player makes at most {MAX_KONGS} "
                "(14 tiles, a kong counted as three: four sets and a pair)",
            )
        chain = 1
        if event.chained:
            last = before[-1] if before else None
            if last is None or last.get("type") != "gang":
                raise LedgerError("chain_without_kong", "杠上杠要紧接在一个杠后面记")
            chain = int(last.get("chain", 1)) + 1
        out: Payload = {"type": "gang", "player": event.player, "kind": event.kind, "chain": chain}
        if event.discarder is not None:
            out["from"] = event.discarder
        if event.tile is not None:
            out["tile"] = event.tile
        return out
    if isinstance(event, Liangdao):
        if any(e.get("type") == "liangdao" and e.get("player") == event.player for e in before):
            raise LedgerError("liangdao_twice", f"{event.player} 这局已经亮倒过了")
        return {"type": "liangdao", "player": event.player}
    if isinstance(event, Piao):
        return {"type": "piao", "player": event.player, "amount": event.amount}
    if isinstance(event, Win):
        out = {"type": "hu", "winner": event.winner, "method": event.method, "hand": _hand(event.hand)}
        if event.discarder is not None:
            out["from"] = event.discarder
        for key in ("ma", "kan", "qia", "ba"):
            if getattr(event, key) is not None:
                out[key] = getattr(event, key)
        return out
    if isinstance(event, Draw):
        if event.ready is None:
            return {"type": "draw"}
        return {"type": "draw", "ready": {player: _ready(hand) for player, hand in event.ready}}
    if isinstance(event, GoujiRound):
        return {
            "type": "round",
            "order": list(event.order),
            "geming": list(event.geming),
            "shaopai_failed": list(event.shaopai_failed),
        }
    if isinstance(event, PenghuPlay):
        out = {"type": event.kind, "player": event.player}
        if event.kind in PENGHU_PAID_BY_ONE:
            out["from"] = event.discarder
        for flag in ("at_deal", "zhongzhuang", "paoqi"):
            if getattr(event, flag):
                out[flag] = True
        return out
    raise LedgerError("bad_event", f"事件必须是带 type 的对象，收到 {event!r}")


def payloads(events: Sequence[Event | Mapping[str, Any]], before: Sequence[Mapping[str, Any]] = ()) -> list[Payload]:
    """The JSON of events recorded together after `before` (each one sees those ahead of it in the batch)."""
    if isinstance(events, Mapping) or not events:
        raise LedgerError("bad_event", "至少要记一个事件")
    out: list[Payload] = []
    for event in events:
        out.append(payload(event, [*before, *out]))
    return out


def _hand(hand: WinHand) -> Payload:
    out: Payload = {"situations": list(hand.situations)}
    if hand.concealed is not None:
        out.update(concealed=hand.concealed, win_tile=hand.win_tile, melds=[_meld(m) for m in hand.melds])
        return out
    out["patterns"] = list(hand.patterns or ())
    if hand.melds:
        out["melds"] = [_meld(m) for m in hand.melds]
    return out


def _ready(hand: ReadyHand) -> Payload:
    out: Payload = {"patterns": list(hand.patterns)} if hand.patterns is not None else {"concealed": hand.concealed}
    if hand.melds:
        out["melds"] = [_meld(m) for m in hand.melds]
    return out


def _meld(meld: Meld) -> dict[str, str]:
    return {"kind": meld.kind, "tile": meld.tile}


def _melds(raw: Any) -> tuple[Meld, ...]:
    return tuple(Meld(str(m["kind"]), str(m["tile"])) for m in raw or ())


def from_payload(game: str, data: Mapping[str, Any]) -> Event:
    """A stored event as its type (the inverse of `payload`; a 杠上杠 comes back `chained`)."""
    kind = data.get("type")
    if game == "gouji":
        return GoujiRound(
            tuple(data.get("order") or ()), tuple(data.get("geming") or ()), tuple(data.get("shaopai_failed") or ())
        )
    if kind == "draw":
        if game != "kawuxing" or data.get("ready") is None:
            return Draw()
        ready = tuple(
            (str(player), ReadyHand(hand.get("concealed"), _melds(hand.get("melds")), _patterns(hand)))
            for player, hand in data["ready"].items()
        )
        return Draw(ready)
    if game == "penghu":
        return PenghuPlay(
            kind=data["type"],
            player=data["player"],
            discarder=data.get("from"),
            at_deal=bool(data.get("at_deal")),
            zhongzhuang=bool(data.get("zhongzhuang")),
            paoqi=bool(data.get("paoqi")),
        )
    if kind == "gang":
        return Kong(data["player"], data["kind"], data.get("from"), data.get("tile"), int(data.get("chain", 1)) > 1)
    if kind == "liangdao":
        return Liangdao(data["player"])
    if kind == "piao":
        return Piao(data["player"], data["amount"])
    if kind == "hu":
        raw = data.get("hand") or {}
        melds = _melds(raw.get("melds"))
        hand = WinHand(
            raw.get("concealed"), raw.get("win_tile"), melds, _patterns(raw), tuple(raw.get("situations") or ())
        )
        inputs = {key: data[key] for key in ("ma", "kan", "qia", "ba") if data.get(key) is not None}
        return Win(data["winner"], data["method"], hand, data.get("from"), **inputs)
    raise ValueError(f"not a {game} event: {dict(data)!r}")


#: the fields of a stored event (and of a scoring answer's `hands`) that name a seat, and those that list seats
_PLAYER_FIELDS = ("player", "winner", "from")
_PLAYER_LISTS = ("order", "geming", "shaopai_failed")


def renamed(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A stored event of any game (or an answer's hand) with the seats it names renamed through `names` (seat name
    → another name, seats not in it kept): how a hand of a table since ended reads in the names shown today."""
    out = dict(data)
    for key in _PLAYER_FIELDS:
        if isinstance(out.get(key), str):
            out[key] = names.get(out[key], out[key])
    for key in _PLAYER_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [names.get(player, player) for player in out[key]]
    if isinstance(out.get("ready"), Mapping):
        out["ready"] = {names.get(player, player): hand for player, hand in out["ready"].items()}
    return out


#: 碰胡 events that end a hand with someone's win (the draw ends it too: keyed as every game's draw)
PENGHU_WINS = frozenset({"hu", "tianhu", "dihu", "xiaoqidui", "wufu"})
#: 碰胡 events paid on the spot, the hand going on: one told again by someone else a moment later is that one
PENGHU_PLAYS = frozenset({"peng", "sao", "guosao", "paoqi", "tishe", "baojing"})


def _play_key(kind: str, player: Any, discarder: Any) -> tuple[Any, ...]:
    """A 碰胡 play's key: its kind and player, and whose discard paid for it (碰, 跑起; a deal-time mark aside)."""
    return (kind, player, discarder) if kind in PENGHU_PAID_BY_ONE else (kind, player)


def _repeat_key(event: Event | Mapping[str, Any]) -> tuple[tuple[Any, ...], str | None] | None:
    """What identifies a record when the same thing is typed twice, and its tile (a tile typed on one side only
    still matches): a kong, a 亮倒, a win by its winner alone (a hand takes longer than the window, so the same
    winner again is the same win told differently, whatever the way or the discarder), a draw, a 够级 round by
    its finishing order, a 碰胡 play (碰, 扫 …) by its kind, player and discarder; None for a 漂."""
    if not isinstance(event, Mapping):
        if isinstance(event, Kong):
            return ("gang", event.player, event.kind, event.discarder), event.tile
        if isinstance(event, Liangdao):
            return ("liangdao", event.player), None
        if isinstance(event, Win):
            return ("hu", event.winner), None
        if isinstance(event, PenghuPlay):
            if event.kind in PENGHU_PLAYS:
                return _play_key(event.kind, event.player, event.discarder), None
            return (("hu", event.player), None) if event.kind in PENGHU_WINS else None
        if isinstance(event, GoujiRound):
            return ("round", event.order), None
        if isinstance(event, Draw):
            return ("draw",), None
        return None
    kind = event.get("type")
    if kind == "gang":
        return ("gang", event.get("player"), event.get("kind"), event.get("from")), event.get("tile")
    if kind == "liangdao":
        return ("liangdao", event.get("player")), None
    if kind == "hu" and "winner" in event:  # 卡五星's
        return ("hu", event.get("winner")), None
    if kind in PENGHU_WINS:
        return ("hu", event.get("player")), None
    if kind in PENGHU_PLAYS:
        return _play_key(kind, event.get("player"), event.get("from")), None
    if kind == "round":
        return ("round", tuple(event.get("order") or ())), None
    if kind == "draw":
        return ("draw",), None
    return None


def repeats(new: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when `new` records what `previous` (one earlier record) did: the same kong (player, kind, discarder,
    tile), the same player's 亮倒, the same winners (the way of winning, discarder, patterns and tiles aside: two
    people rarely describe one win alike), a draw after a draw, a 够级 round with the same finishing order, or the
    same 碰胡 play (碰 of the same discard, 扫, 提蛇 … of the same player)."""
    mine = [_repeat_key(event) for event in new]
    theirs = [_repeat_key(event) for event in previous]
    if not mine or len(mine) != len(theirs) or None in mine or None in theirs:
        return False
    left = sorted((key for key in mine if key is not None), key=repr)
    right = sorted((key for key in theirs if key is not None), key=repr)
    return all(
        a_key == b_key and (a_tile is None or b_tile is None or a_tile == b_tile)
        for (a_key, a_tile), (b_key, b_tile) in zip(left, right, strict=True)
    )


def includes_paoqi(new: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when `new` is one 碰胡 跑起胡 (or 跑起中庄) and `previous` (an earlier record of its hand) the same
    player's 跑起 off the same discarder: the win's 24 (36) already holds that 跑起's 12 — one event on one card —
    so booking both pays the 跑起 twice."""
    data = [payload(event) if isinstance(event, PenghuPlay) else event for event in new]
    if len(data) != 1 or len(previous) != 1 or not isinstance(data[0], Mapping):
        return False
    win, play = data[0], previous[0]
    return (
        win.get("type") in PENGHU_WINS
        and bool(win.get("paoqi"))
        and play.get("type") == "paoqi"
        and (play.get("player"), play.get("from")) == (win.get("player"), win.get("from"))
    )


def retells_round(new: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when `new` is the 够级 round `previous` recorded, read exactly alike: the same finishing order, the same
    革命 players and the same failed burns in the same order (`repeats` asks the order only)."""

    def told(events: Sequence[Event | Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        data = [payload(event) if isinstance(event, GoujiRound) else event for event in events]
        return [
            (tuple(d.get("order") or ()), tuple(sorted(d.get("geming") or ())), tuple(d.get("shaopai_failed") or ()))
            for d in data
            if isinstance(d, Mapping) and d.get("type") == "round"
        ]

    mine = told(new)
    return len(mine) == len(new) == len(previous) == 1 and mine == told(previous)


def ends_hand(events: Sequence[Event | Mapping[str, Any]]) -> bool:
    """True when `events` end a 卡五星 or 碰胡 hand: its win (or a 一炮双响's wins) or a draw, nothing else."""
    return bool(events) and all(_ending_key(event) is not None for event in events)


def retells(new: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when `new` ends a 卡五星 hand exactly as `previous` (an earlier record) ended one: the same winners,
    each the same way, from the same discarder, with the same patterns, situations and tiles (what a regional rule
    asks after it, 马 or 坎, aside) — or a draw after a draw; a 碰胡 hand likewise: the same win (胡, 天胡 …) of the
    same player, from the same discarder, with the same 中庄/跑起. Stricter than `repeats`: a line that says it tells
    the hand just recorded (`刚才 …`) is that hand only when it reads alike."""
    mine = [_ending_key(event) for event in new]
    theirs = [_ending_key(event) for event in previous]
    if not mine or None in mine or None in theirs:
        return False
    return sorted(mine, key=repr) == sorted(theirs, key=repr)


def widens(new: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """True when one of two 卡五星 endings is a 一炮双响 and the other a single win of one of its winners off the same
    discarder (`一炮双响 阿杰 七对 小李 清一色 点 老王` after `小李 胡 清一色 点 老王`, or the other way round): the
    same hand with its other winner told or left out, not a hand of its own."""
    mine = [_ending_key(event) for event in new]
    theirs = [_ending_key(event) for event in previous]
    if None in mine or None in theirs or sorted((len(mine), len(theirs))) != [1, 2]:
        return False
    single, double = (mine, theirs) if len(mine) == 1 else (theirs, mine)
    wins = [key for key in (*single, *double) if key is not None and key[0] == "hu"]
    if len(wins) != 3 or wins[0][3] is None:
        return False
    won, *both = wins
    return any(win[1] == won[1] and win[3] == won[3] for win in both)


def _ending_key(event: Event | Mapping[str, Any]) -> tuple[Any, ...] | None:
    """What a 卡五星 or 碰胡 hand's ending says, in an order-free form; None for anything else."""
    data = payload(event) if isinstance(event, Win | Draw | PenghuPlay) else event
    if not isinstance(data, Mapping):
        return None
    if data.get("type") == "draw":
        return ("draw",)
    if data.get("type") in PENGHU_WINS and "player" in data:  # 碰胡's: who, whose discard, 中庄/跑起
        flags = tuple(bool(data.get(flag)) for flag in ("zhongzhuang", "paoqi"))
        return (data["type"], data["player"], data.get("from"), flags)
    if data.get("type") != "hu" or "winner" not in data:
        return None
    hand = data.get("hand") or {}
    melds = tuple(sorted((meld.get("kind"), meld.get("tile")) for meld in hand.get("melds") or ()))
    patterns, situations = tuple(sorted(hand.get("patterns") or ())), tuple(sorted(hand.get("situations") or ()))
    tiles = (hand.get("concealed"), hand.get("win_tile"), melds)
    return ("hu", data["winner"], data.get("method"), data.get("from"), patterns, situations, tiles)


def _patterns(raw: Mapping[str, Any]) -> tuple[str, ...] | None:
    return tuple(raw["patterns"]) if "patterns" in raw else None
