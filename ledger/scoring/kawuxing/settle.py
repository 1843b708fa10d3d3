"""Settling one whole 卡五星 hand: kong money (喜钱) as it happens, the win(s) or the draw, the next dealer.

Events come in table order: `Gang`, `Liangdao`, then one or two `Hu` (一炮双响, same discarder) or a `Draw`.
Every transfer names the event that caused it, so a ledger can book kong money the moment a kong is recorded
(`partial=True` accepts a hand that has not ended yet).

Reasons (stable keys): `angang`, `xugang`, `zhigang` (kong money); `zimo`, `dianpao`, `qiangganghu`, `baohu`
(the win); `liangdao_penalty` (亮倒 on a drawn hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ledger.scoring.common import ScoringError, Transfer, net_of
from ledger.scoring.kawuxing.evaluate import DeclaredHand, Hand, HandResult, hand_from_json, score_hand
from ledger.scoring.kawuxing.patterns import KONG_KINDS, METHOD_ZH, METHODS
from ledger.scoring.kawuxing.rules import Rules
from ledger.scoring.tiles import Tile, parse_tile, tile_zh

#: Kong money per payer, in base stakes, and who pays: everyone else, or the discarder alone (直杠).
KONG_MONEY = {"angang": 2, "xugang": 1, "zhigang": 2}
KONG_ZH = {"angang": "暗杠", "xugang": "蓄杠", "zhigang": "直杠"}
WIN_REASON = {"self_draw": "zimo", "discard": "dianpao", "rob_kong": "qiangganghu"}
REASON_ZH = {
    "angang": "暗杠",
    "xugang": "蓄杠",
    "zhigang": "直杠",
    "zimo": "自摸",
    "dianpao": "点炮",
    "qiangganghu": "抢杠胡",
    "baohu": "包胡",
    "liangdao_penalty": "荒庄亮倒赔付",
}


@dataclass(frozen=True)
class Gang:
    """A kong. `source` is the discarder of a 直杠; `chain` is k for the k-th kong of a 杠上杠 chain."""

    player: str
    kind: str
    source: str | None = None
    chain: int = 1
    tile: Tile | None = None


@dataclass(frozen=True)
class Liangdao:
    player: str


@dataclass(frozen=True)
class Hu:
    """A win. `source` is the discarder (or the robbed player); None on a self-draw."""

    winner: str
    method: str
    source: str | None
    hand: Hand | DeclaredHand


@dataclass(frozen=True)
class Draw:
    """荒庄: the wall ran out and nobody won."""


Event = Gang | Liangdao | Hu | Draw


@dataclass(frozen=True)
class WinResult:
    winner: str
    source: str | None
    method: str
    result: HandResult
    baohu: bool

    def as_json(self) -> dict[str, Any]:
        scored = self.result.as_json()
        return {
            "winner": self.winner,
            "from": self.source,
            "method": self.method,
            "patterns": scored["patterns"],
            "multiplier": self.result.multiplier,
            "final_multiplier": self.result.final_multiplier,
            "baohu": self.baohu,
        }


@dataclass(frozen=True)
class Settlement:
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    next_dealer: str | None
    hands: tuple[WinResult, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "transfers": [t.as_json() for t in self.transfers],
            "net": self.net,
            "next_dealer": self.next_dealer,
            "hands": [h.as_json() for h in self.hands],
        }


def _seated(name: object, players: Sequence[str], what: str) -> str:
    if not isinstance(name, str) or name not in players:
        raise ScoringError("bad_request", f"{what} {name!r} 不在这桌（{'、'.join(players)}）")
    return name


def _check_table(players: Sequence[str], dealer: str | None, base: int) -> None:
    if len(players) != 3 or len(set(players)) != 3 or not all(isinstance(p, str) and p for p in players):
        raise ScoringError("bad_request", f"卡五星是三个人打：players 要正好三个不同的名字，收到 {list(players)!r}")
    if dealer is not None:
        _seated(dealer, players, "庄家")
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise ScoringError("bad_request", f"底金 base 应是正整数（分），收到 {base!r}")


def _check_order(events: Sequence[Event], partial: bool) -> int | None:
    """Index of the first terminal event (None if the hand goes on); the terminal events close the list."""
    end = next((i for i, e in enumerate(events) if isinstance(e, Hu | Draw)), None)
    if end is None:
        if not partial:
            raise ScoringError("bad_request", "事件列表要以胡牌（hu）或荒庄（draw）结束")
        return None
    tail = events[end:]
    if isinstance(tail[0], Draw):
        if len(tail) > 1:
            raise ScoringError("inconsistent", f"第 {end + 1} 个事件荒庄之后不能再有事件")
        return end
    if not all(isinstance(e, Hu) for e in tail):
        raise ScoringError("inconsistent", f"第 {end + 1} 个事件胡牌之后只能再有一炮双响的另一家胡")
    if len(tail) > 2:
        raise ScoringError("inconsistent", "卡五星三个人打，一手最多两家胡（一炮双响）")
    return end


def _check_gang(i: int, gang: Gang, players: Sequence[str], previous: Gang | None) -> None:
    _seated(gang.player, players, f"第 {i + 1} 个事件（杠）的玩家")
    if gang.kind not in KONG_KINDS:
        raise ScoringError(
            "bad_request", f"第 {i + 1} 个事件：杠的 kind {gang.kind!r} 不对，可选：{'、'.join(KONG_KINDS)}"
        )
    if gang.kind == "zhigang":
        _seated(gang.source, players, f"第 {i + 1} 个事件（直杠）的点杠者 from")
        if gang.source == gang.player:
            raise ScoringError(
                "inconsistent", f"第 {i + 1} 个事件：直杠杠的是别人打出的牌，from 不能是 {gang.player} 自己"
            )
    elif gang.source is not None:
        raise ScoringError("inconsistent", f"第 {i + 1} 个事件：{KONG_ZH[gang.kind]}是自己摸的牌，不能有 from")
    if isinstance(gang.chain, bool) or not isinstance(gang.chain, int) or gang.chain < 1:
        raise ScoringError("bad_request", f"第 {i + 1} 个事件：chain 应是正整数（杠上杠的第几杠），收到 {gang.chain!r}")
    if gang.chain == 1:
        return
    if previous is None or previous.chain != gang.chain - 1:
        raise ScoringError(
            "inconsistent", f"第 {i + 1} 个事件是杠上杠的第 {gang.chain} 杠，但前一个杠不是第 {gang.chain - 1} 杠"
        )
    # 杠上杠: the kong'd discard came from the previous kong's maker, or the same player kongs again.
    follows = gang.source == previous.player if gang.kind == "zhigang" else gang.player == previous.player
    if not follows:
        raise ScoringError(
            "inconsistent",
            f"第 {i + 1} 个事件：杠上杠要杠 {previous.player} 杠后打出的牌，或由 {previous.player} 自己接着杠",
        )


def _check_hu(i: int, hu: Hu, players: Sequence[str], last_gang: Gang | None, declared: set[str]) -> None:
    who = _seated(hu.winner, players, f"第 {i + 1} 个事件（胡）的赢家")
    if hu.method not in METHODS:
        raise ScoringError("bad_request", f"第 {i + 1} 个事件：未知的胡法 {hu.method!r}，可选：{'、'.join(METHODS)}")
    if hu.method == "self_draw":
        if hu.source is not None:
            raise ScoringError("inconsistent", f"{who} 自摸，不能有点炮者 from")
    else:
        _seated(hu.source, players, f"{who} {METHOD_ZH[hu.method]}的点炮者 from")
        if hu.source == who:
            raise ScoringError("inconsistent", f"{who} 不能胡自己打出的牌（from 是赢家自己）")
    situations = hu.hand.situations | set(getattr(hu.hand, "patterns", ()))
    if "gangshangkaihua" in situations and (last_gang is None or last_gang.player != who):
        raise ScoringError("inconsistent", f"{who} 杠上开花，但之前最近的杠不是 {who} 开的")
    if "gangshangpao" in situations and hu.source is not None and (last_gang is None or last_gang.player != hu.source):
        raise ScoringError("inconsistent", f"{who} 杠上炮，但之前最近的杠不是点炮的 {hu.source} 开的")
    liangdao = who in declared
    if hu.hand.liangdao is not None and hu.hand.liangdao != liangdao:
        happened = "亮倒过" if liangdao else "没有亮倒过"
        raise ScoringError("inconsistent", f"{who} 的手牌 liangdao 标记和事件不符：事件里 {who} {happened}")


def _kong_transfers(i: int, gang: Gang, players: Sequence[str], base: int) -> list[Transfer]:
    amount = KONG_MONEY[gang.kind] * base * 2 ** (gang.chain - 1)
    payers = [gang.source] if gang.source is not None else [p for p in players if p != gang.player]
    return [Transfer(p, gang.player, amount, gang.kind, i) for p in payers if p is not None]


def _win_transfers(i: int, win: WinResult, players: Sequence[str], base: int) -> list[Transfer]:
    share = win.result.final_multiplier * base
    if win.baohu:
        assert win.source is not None
        return [Transfer(win.source, win.winner, 2 * share, "baohu", i)]
    if win.source is None:
        return [Transfer(p, win.winner, share, "zimo", i) for p in players if p != win.winner]
    return [Transfer(win.source, win.winner, share, WIN_REASON[win.method], i)]


def _draw_transfers(i: int, declared: list[str], players: Sequence[str], rules: Rules, base: int) -> list[Transfer]:
    penalty = rules.draw_liangdao_penalty
    if penalty == "first" and declared:
        first = declared[0]
        return [Transfer(first, p, base, "liangdao_penalty", i) for p in players if p != first]
    if penalty == "each":
        clean = [p for p in players if p not in declared]
        return [Transfer(d, p, base, "liangdao_penalty", i) for d in declared for p in clean]
    return []


def settle(
    players: Sequence[str],
    events: Sequence[Event],
    rules: Rules,
    *,
    base: int = 1,
    dealer: str | None = None,
    partial: bool = False,
) -> Settlement:
    """All transfers of one hand; with `partial=True` a hand still in play gives the kong money owed so far."""
    _check_table(players, dealer, base)
    end = _check_order(events, partial)
    transfers: list[Transfer] = []
    declared: list[str] = []
    last_gang: Gang | None = None
    wins: list[WinResult] = []
    for i, event in enumerate(events):
        if isinstance(event, Gang):
            _check_gang(i, event, players, last_gang)
            last_gang = event
            if _is_robbed(i, event, events):
                _check_robbed_tile(event, events[i + 1 :])
                continue  # 抢杠胡: the robbed kong is never made and pays nothing
            transfers += _kong_transfers(i, event, players, base)
        elif isinstance(event, Liangdao):
            who = _seated(event.player, players, f"第 {i + 1} 个事件（亮倒）的玩家")
            if who in declared:
                raise ScoringError("inconsistent", f"第 {i + 1} 个事件：{who} 已经亮倒过了")
            declared.append(who)
        elif isinstance(event, Hu):
            _check_hu(i, event, players, last_gang, set(declared))
            wins.append(_score_win(i, event, rules, event.winner in declared))
            transfers += _win_transfers(i, wins[-1], players, base)
        else:
            transfers += _draw_transfers(i, declared, players, rules, base)
    if len(wins) == 2:
        first, second = wins
        same_tile = first.source == second.source and first.method == second.method
        if first.winner == second.winner or first.source is None or not same_tile:
            raise ScoringError("inconsistent", "一炮双响要两个不同的赢家用同一种胡法胡同一个人的同一张牌（from 相同）")
    if end is None:
        next_dealer = None
    elif len(wins) == 2:
        next_dealer = wins[0].source
    elif wins:
        next_dealer = wins[0].winner
    else:
        next_dealer = dealer
    return Settlement(tuple(transfers), net_of(players, transfers), next_dealer, tuple(wins))


def _is_robbed(i: int, gang: Gang, events: Sequence[Event]) -> bool:
    """A 蓄杠 recorded right before a 抢杠胡 on that player is the kong that was robbed."""
    after = events[i + 1] if i + 1 < len(events) else None
    return (
        gang.kind == "xugang" and isinstance(after, Hu) and after.method == "rob_kong" and after.source == gang.player
    )


def _check_robbed_tile(gang: Gang, after: Sequence[Event]) -> None:
    """A robbed 蓄杠's tile, when recorded, is the winning tile of the 抢杠胡."""
    for hu in after:
        if gang.tile is not None and isinstance(hu, Hu) and isinstance(hu.hand, Hand) and hu.hand.win_tile != gang.tile:
            raise ScoringError(
                "inconsistent",
                f"{hu.winner} 抢的是 {gang.player} 加杠的 {tile_zh(gang.tile)}，胡的牌却是 {tile_zh(hu.hand.win_tile)}",
            )


def _score_win(i: int, hu: Hu, rules: Rules, liangdao: bool) -> WinResult:
    hand = hu.hand
    if hand.method != hu.method:
        raise ScoringError("inconsistent", f"{hu.winner} 的手牌 method 是 {hand.method}，胡牌事件是 {hu.method}")
    if isinstance(hand, DeclaredHand) and hand.liangdao is None:
        hand = replace(hand, liangdao=liangdao)
    try:
        result = score_hand(hand, rules)
    except ScoringError as err:
        raise ScoringError(err.code, f"第 {i + 1} 个事件，{hu.winner} 的胡牌：{err.message}") from err
    baohu = liangdao and hu.method != "self_draw"
    return WinResult(hu.winner, hu.source, hu.method, result, baohu)


# --- The contract's settle request ------------------------------------------------------------------------
_EVENT_KEYS = {
    "gang": frozenset({"type", "player", "kind", "from", "chain", "tile"}),
    "liangdao": frozenset({"type", "player"}),
    "hu": frozenset({"type", "winner", "method", "from", "hand"}),
    "draw": frozenset({"type"}),
}
_REQUIRED = {"gang": ("player", "kind"), "liangdao": ("player",), "hu": ("winner", "method", "hand"), "draw": ()}


def events_from_json(raw: object, rules: Rules) -> list[Event]:
    """Read the `"events"` list; each hu's hand learns its 亮倒 flag from the 亮倒 events before it."""
    if not isinstance(raw, list):
        raise ScoringError("bad_request", "events 应是列表")
    events: list[Event] = []
    declared: set[str] = set()
    for i, item in enumerate(raw):
        where = f"第 {i + 1} 个事件"
        if not isinstance(item, Mapping):
            raise ScoringError("bad_request", f"{where}应是对象")
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in _EVENT_KEYS:
            raise ScoringError("bad_request", f"{where}的 type {kind!r} 不对，可选：{'、'.join(_EVENT_KEYS)}")
        unknown = [k for k in item if k not in _EVENT_KEYS[kind]]
        if unknown:
            allowed = "、".join(sorted(_EVENT_KEYS[kind]))
            raise ScoringError("bad_request", f"{where}（{kind}）里有不认识的字段 {unknown[0]!r}，可用：{allowed}")
        for key in _REQUIRED[kind]:
            if key not in item:
                raise ScoringError("bad_request", f"{where}（{kind}）缺少 {key}")
        for key in ("player", "winner", "from"):
            if item.get(key) is not None and not isinstance(item[key], str):
                raise ScoringError("bad_request", f"{where}（{kind}）的 {key} 应是玩家名字（字符串）")
        if kind == "gang":
            tile = item.get("tile")
            events.append(
                Gang(
                    item["player"],
                    item["kind"],
                    item.get("from"),
                    item.get("chain", 1),
                    None if tile is None else parse_tile(tile, rules.suits),
                )
            )
        elif kind == "liangdao":
            declared.add(item["player"])
            events.append(Liangdao(item["player"]))
        elif kind == "hu":
            method = item["method"]
            if method not in METHODS:
                raise ScoringError("bad_request", f"{where}：未知的胡法 {method!r}，可选：{'、'.join(METHODS)}")
            try:
                hand = hand_from_json(item["hand"], rules, method=method, liangdao=item["winner"] in declared)
            except ScoringError as err:
                raise ScoringError(err.code, f"{where}，{item['winner']} 的胡牌：{err.message}") from err
            events.append(Hu(item["winner"], method, item.get("from"), hand))
        else:
            events.append(Draw())
    return events


def settle_from_json(request: Mapping[str, Any], rules: Rules, partial: bool) -> dict[str, Any]:
    players = request.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScoringError("bad_request", "players 应是三个玩家名字的列表")
    dealer = request.get("dealer")
    base = request.get("base", 1)
    events = events_from_json(request.get("events"), rules)
    settlement = settle(players, events, rules, base=base, dealer=dealer, partial=partial)
    return {"ok": True, **settlement.as_json()}
