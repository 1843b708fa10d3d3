"""Settling one whole 卡五星 hand: kong money (喜钱) as it happens, the win(s) or the draw, the next dealer.

Events come in table order: `Gang`, `Liangdao`, `Piao` (a player's 漂 for the hand, where the players choose it),
then one or two `Hu` (一炮双响, same discarder) or a `Draw`.
Every transfer names the event that caused it, so a ledger can book kong money the moment a kong is recorded
(`partial=True` accepts a hand that has not ended yet).

Reasons (stable keys): `angang`, `xugang`, `zhigang` (kong money); `zimo`, `dianpao`, `qiangganghu`, `baohu`
(the win); `liangdao_penalty` (亮倒 on a drawn hand); and, only where the table plays them, `chadajiao` (查大叫 on
a drawn hand) and the side stakes `piao` (漂), `maima` (买马), `shukan` (数坎), `paoqiamoba` (跑恰摸八).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ledger.scoring.common import (
    MAX_STAKE,
    ScoringError,
    Transfer,
    check_event_count,
    check_text,
    net_of,
    quoted,
)
from ledger.scoring.kawuxing.evaluate import (
    DeclaredHand,
    Hand,
    HandResult,
    Meld,
    capped,
    evaluate,
    evaluate_declared,
    hand_from_json,
    held_counts,
    melds_from_json,
    waits_of,
)
from ledger.scoring.kawuxing.patterns import KONG_KINDS, METHOD_ZH, METHODS
from ledger.scoring.kawuxing.rules import PIAO_CHOSEN, PIAO_RANGE, Rules
from ledger.scoring.kawuxing.stakes import PaoQiaMoBa, ma_points, paoqiamoba, shukan
from ledger.scoring.tiles import NUM_KINDS, Tile, check_copies, parse_tile, parse_tiles, tile_notation, tile_zh

#: Kong money per payer, in base stakes, and who pays: everyone else, or the discarder alone (直杠, whose amount
#: is the rules' `zhigang_money`).
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
    "chadajiao": "查大叫",
    "piao": "漂",
    "maima": "买马",
    "shukan": "数坎",
    "paoqiamoba": "跑恰摸八",
}
#: A hand holds at most 12 kongs (and a 杠上杠 chain is no longer), 3 亮倒 and two wins: longer lists are malformed.
MAX_EVENTS = 64
MAX_CHAIN = 12
#: the most a declared count can be: 坎 and 恰 count sets (a hand holds four), 八 the tiles past seven in one suit
#: (four kongs and a pair of it: 18 tiles)
MAX_COUNTS = {"kan": 4, "qia": 4, "ba": 11}


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
class Piao:
    """漂: the stake a player puts on this hand (选漂 / 首局定漂), told as it happens like a 亮倒; a later one of the
    same player replaces the earlier (a correction). The same as the request's top-level `piao`, one player at a
    time."""

    player: str
    amount: int


@dataclass(frozen=True)
class Hu:
    """A win. `source` is the discarder (or the robbed player); None on a self-draw.

    Where the table plays them: `ma` the horse tile drawn (买马); `kan`, `qia`, `ba` the 数坎 and 跑恰摸八
    counts of a hand given by its patterns (a hand given by its tiles has them counted)."""

    winner: str
    method: str
    source: str | None
    hand: Hand | DeclaredHand
    ma: Tile | None = None
    kan: int | None = None
    qia: int | None = None
    ba: int | None = None


@dataclass(frozen=True)
class ReadyHand:
    """A ready hand (听牌) at a draw: 13 − 3·melds concealed tiles and the melds."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()


@dataclass(frozen=True)
class Draw:
    """荒庄: the wall ran out and nobody won. With 查大叫, `ready` holds the hand of every player who was ready
    (听牌): their tiles, or the patterns of the best hand they waited on; the others were not ready."""

    ready: Mapping[str, ReadyHand | DeclaredHand] | None = None


Event = Gang | Liangdao | Piao | Hu | Draw


@dataclass(frozen=True)
class Stakes:
    """A win's side stakes, in base stakes per payer (`None`: the table does not play it)."""

    kan: int | None = None
    ma: tuple[Tile, int] | None = None
    pqmb: PaoQiaMoBa | None = None

    @property
    def points(self) -> int:
        return (self.kan or 0) + (self.ma[1] if self.ma else 0) + (self.pqmb.points if self.pqmb else 0)


@dataclass(frozen=True)
class WinResult:
    winner: str
    source: str | None
    method: str
    result: HandResult
    baohu: bool
    #: each payer's multiple when 亮倒 makes it differ from `result.final_multiplier`
    payers: Mapping[str, int] = field(default_factory=dict)
    stakes: Stakes = Stakes()

    def as_json(self) -> dict[str, Any]:
        scored = self.result.as_json()
        out: dict[str, Any] = {
            "winner": self.winner,
            "from": self.source,
            "method": self.method,
            "patterns": scored["patterns"],
            "multiplier": self.result.multiplier,
            "final_multiplier": self.result.final_multiplier,
            "baohu": self.baohu,
        }
        if self.payers:
            out["payer_multipliers"] = dict(self.payers)
        if self.stakes.kan is not None:
            out["kan"] = self.stakes.kan
        if self.stakes.ma is not None:
            out["ma"] = {"tile": tile_notation(self.stakes.ma[0]), "points": self.stakes.ma[1]}
        if self.stakes.pqmb is not None:
            out["paoqiamoba"] = self.stakes.pqmb._asdict()
        return out


@dataclass(frozen=True)
class ReadyResult:
    """A ready player's best hand at a draw (查大叫)."""

    player: str
    result: HandResult

    def as_json(self) -> dict[str, Any]:
        return self.result.as_json()


@dataclass(frozen=True)
class Settlement:
    transfers: tuple[Transfer, ...]
    net: dict[str, int]
    next_dealer: str | None
    hands: tuple[WinResult, ...]
    #: 查大叫 only: each ready player's best hand
    ready: tuple[ReadyResult, ...] | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "transfers": [t.as_json() for t in self.transfers],
            "net": self.net,
            "next_dealer": self.next_dealer,
            "hands": [h.as_json() for h in self.hands],
        }
        if self.ready is not None:
            out["ready"] = {r.player: r.as_json() for r in self.ready}
        return out


def _seated(name: object, players: Sequence[str], what: str) -> str:
    if not isinstance(name, str) or name not in players:
        raise ScoringError(
            "bad_request",
            "not_at_table",
            f"{what} {quoted(name)} 不在这桌（{'、'.join(players)}）",
            who=quoted(name),
            players=list(players),
        )
    return name


def _check_table(players: Sequence[str], dealer: str | None, base: int) -> None:
    if len(players) != 3 or len(set(players)) != 3 or not all(isinstance(p, str) and p for p in players):
        got = quoted(list(players))
        raise ScoringError(
            "bad_request",
            "kawuxing_players",
            f"卡五星是三个人打：players 要正好三个不同的名字，收到 {got}",
            players=got,
        )
    for name in players:
        check_text(name, "玩家名字", "players")
    if dealer is not None:
        _seated(dealer, players, "庄家")
    if isinstance(base, bool) or not isinstance(base, int) or base <= 0:
        raise ScoringError(
            "bad_request", "base_not_positive", f"底金 base 应是正整数（分），收到 {quoted(base)}", value=quoted(base)
        )
    if base > MAX_STAKE:
        raise ScoringError(
            "bad_request",
            "base_too_big",
            f"底金 base 最多 {MAX_STAKE} 分（{MAX_STAKE // 100} 元），收到 {base}",
            most=MAX_STAKE,
            value=base,
        )


def _unknown_method(where: str, method: object) -> ScoringError:
    """A win by no method of `METHODS`, refused alike when the JSON is read (`_hu_from_json`) and when a Python
    caller's `Hu` is checked (`_check_hu`); `where` names the event (`第 3 个事件`)."""
    return ScoringError(
        "bad_request",
        "unknown_method",
        f"{where}：未知的胡法 {quoted(method)}，可选：{'、'.join(METHODS)}",
        method=quoted(method),
        allowed=list(METHODS),
    )


def _check_order(events: Sequence[Event], partial: bool) -> int | None:
    """Index of the first terminal event (None if the hand goes on); the terminal events close the list."""
    check_event_count(len(events), MAX_EVENTS, "牌")
    end = next((i for i, e in enumerate(events) if isinstance(e, Hu | Draw)), None)
    if end is None:
        if not partial:
            raise ScoringError("bad_request", "kawuxing_not_over", "事件列表要以胡牌（hu）或荒庄（draw）结束")
        return None
    tail = events[end:]
    if isinstance(tail[0], Draw):
        if len(tail) > 1:
            raise ScoringError("inconsistent", "after_draw", f"第 {end + 1} 个事件荒庄之后不能再有事件")
        return end
    if not all(isinstance(e, Hu) for e in tail):
        raise ScoringError("inconsistent", "after_win", f"第 {end + 1} 个事件胡牌之后只能再有一炮双响的另一家胡")
    if len(tail) > 2:
        raise ScoringError("inconsistent", "three_winners", "卡五星三个人打，一手最多两家胡（一炮双响）")
    return end


def _check_gang(i: int, gang: Gang, players: Sequence[str], previous: Gang | None) -> None:
    _seated(gang.player, players, f"第 {i + 1} 个事件（杠）的玩家")
    if gang.kind not in KONG_KINDS:
        raise ScoringError(
            "bad_request",
            "unknown_kong_kind",
            f"第 {i + 1} 个事件：杠的 kind {quoted(gang.kind)} 不对，可选：{'、'.join(KONG_KINDS)}",
            kind=quoted(gang.kind),
            allowed=list(KONG_KINDS),
        )
    if gang.kind == "zhigang":
        _seated(gang.source, players, f"第 {i + 1} 个事件（直杠）的点杠者 from")
        if gang.source == gang.player:
            raise ScoringError(
                "inconsistent",
                "zhigang_own_discard",
                f"第 {i + 1} 个事件：直杠杠的是别人打出的牌，from 不能是 {gang.player} 自己",
                who=gang.player,
            )
    elif gang.source is not None:
        raise ScoringError(
            "inconsistent",
            "drawn_kong_from",
            f"第 {i + 1} 个事件：{KONG_ZH[gang.kind]}是自己摸的牌，不能有 from",
            kind=gang.kind,
            who=gang.player,
        )
    if isinstance(gang.chain, bool) or not isinstance(gang.chain, int) or gang.chain < 1:
        raise ScoringError(
            "bad_request",
            "chain_not_positive",
            f"第 {i + 1} 个事件：chain 应是正整数（杠上杠的第几杠），收到 {quoted(gang.chain)}",
            value=quoted(gang.chain),
        )
    if gang.chain > MAX_CHAIN:
        raise ScoringError(
            "bad_request",
            "chain_too_long",
            f"第 {i + 1} 个事件：杠上杠最多连 {MAX_CHAIN} 杠，收到 chain {gang.chain}",
            most=MAX_CHAIN,
            value=gang.chain,
        )
    if gang.chain == 1:
        return
    if previous is None or previous.chain != gang.chain - 1:
        raise ScoringError(
            "inconsistent",
            "chain_gap",
            f"第 {i + 1} 个事件是杠上杠的第 {gang.chain} 杠，但前一个杠不是第 {gang.chain - 1} 杠",
            chain=gang.chain,
        )
    # 杠上杠: the kong'd discard came from the previous kong's maker, or the same player kongs again.
    follows = gang.source == previous.player if gang.kind == "zhigang" else gang.player == previous.player
    if not follows:
        raise ScoringError(
            "inconsistent",
            "chain_not_following",
            f"第 {i + 1} 个事件：杠上杠要杠 {previous.player} 杠后打出的牌，或由 {previous.player} 自己接着杠",
            who=gang.player,
            previous=previous.player,
        )


def _check_hu(i: int, hu: Hu, players: Sequence[str], last_gang: Gang | None, declared: set[str]) -> None:
    who = _seated(hu.winner, players, f"第 {i + 1} 个事件（胡）的赢家")
    if hu.method not in METHODS:
        raise _unknown_method(f"第 {i + 1} 个事件", hu.method)
    if hu.method == "self_draw":
        if hu.source is not None:
            raise ScoringError("inconsistent", "self_draw_from", f"{who} 自摸，不能有点炮者 from", who=who)
    else:
        _seated(hu.source, players, f"{who} {METHOD_ZH[hu.method]}的点炮者 from")
        if hu.source == who:
            raise ScoringError(
                "inconsistent", "own_discard_win", f"{who} 不能胡自己打出的牌（from 是赢家自己）", who=who
            )
    situations = hu.hand.situations | set(getattr(hu.hand, "patterns", ()))
    if "gangshangkaihua" in situations and (last_gang is None or last_gang.player != who):
        raise ScoringError("inconsistent", "gskh", f"{who} 杠上开花，但之前最近的杠不是 {who} 开的", who=who)
    if "gangshangpao" in situations and hu.source is not None and (last_gang is None or last_gang.player != hu.source):
        raise ScoringError(
            "inconsistent", "gsp", f"{who} 杠上炮，但之前最近的杠不是点炮的 {hu.source} 开的", who=who, source=hu.source
        )
    liangdao = who in declared
    if hu.hand.liangdao is not None and hu.hand.liangdao != liangdao:
        happened = "亮倒过" if liangdao else "没有亮倒过"
        raise ScoringError(
            "inconsistent",
            "liangdao_flag",
            f"{who} 的手牌 liangdao 标记和事件不符：事件里 {who} {happened}",
            who=who,
            happened=liangdao,
        )


def _kong_transfers(i: int, gang: Gang, players: Sequence[str], rules: Rules, base: int) -> list[Transfer]:
    money = rules.zhigang_money if gang.kind == "zhigang" else KONG_MONEY[gang.kind]
    amount = money * base * 2 ** (gang.chain - 1)
    payers = [gang.source] if gang.source is not None else [p for p in players if p != gang.player]
    return [Transfer(p, gang.player, amount, gang.kind, i) for p in payers if p is not None]


def payer_factor(rules: Rules, payer: str, winner: str, declared: Iterable[str]) -> int:
    """亮倒输家加倍 / 对亮翻番: a payer who had declared 亮倒 pays double — unless the winner had too, where only
    对亮翻番 doubles it again."""
    if not rules.liangdao_payer_double or payer not in declared:
        return 1
    return 2 if winner not in declared or rules.duiliang_double else 1


def _share(rules: Rules, result: HandResult, factor: int) -> int:
    if factor == 1:
        return result.final_multiplier
    return capped(rules, result.multiplier * factor, result.patterns)


def _win_transfers(
    i: int, win: WinResult, players: Sequence[str], base: int, piao: Mapping[str, int]
) -> list[Transfer]:
    """The win's money, then its side stakes, each payer in seat order; 包胡 is one payer paying both shares."""
    others = [p for p in players if p != win.winner]
    shares = {p: win.payers.get(p, win.result.final_multiplier) * base for p in others}
    if win.baohu:
        assert win.source is not None
        payments = [(win.source, sum(shares.values()), "baohu", others)]
    elif win.source is None:
        payments = [(p, shares[p], "zimo", [p]) for p in others]
    else:
        payments = [(win.source, shares[win.source], WIN_REASON[win.method], [win.source])]
    transfers = [Transfer(payer, win.winner, amount, reason, i) for payer, amount, reason, _ in payments]
    stakes = win.stakes
    for payer, _, _, on_behalf_of in payments:
        side = (
            ("piao", sum(piao.get(p, 0) + piao.get(win.winner, 0) for p in on_behalf_of)),
            ("maima", stakes.ma[1] * len(on_behalf_of) if stakes.ma else 0),
            ("shukan", (stakes.kan or 0) * len(on_behalf_of)),
            ("paoqiamoba", stakes.pqmb.points * len(on_behalf_of) if stakes.pqmb else 0),
        )
        transfers += [Transfer(payer, win.winner, points * base, reason, i) for reason, points in side if points]
    return transfers


def _draw_transfers(
    i: int,
    draw: Draw,
    declared: list[str],
    players: Sequence[str],
    rules: Rules,
    base: int,
    piao: Mapping[str, int],
) -> tuple[list[Transfer], tuple[ReadyResult, ...] | None]:
    transfers: list[Transfer] = []
    penalty = rules.draw_liangdao_penalty
    if penalty == "first" and declared:
        first = declared[0]
        transfers += [Transfer(first, p, base, "liangdao_penalty", i) for p in players if p != first]
    elif penalty == "each":
        clean = [p for p in players if p not in declared]
        transfers += [Transfer(d, p, base, "liangdao_penalty", i) for d in declared for p in clean]
    if not rules.chadajiao:
        return transfers, None
    best = _ready_hands(draw, declared, players, rules)
    for payer in players:
        for payee in players:
            if payee == payer or payee not in best:
                continue
            owes = payer not in best or (payer in declared and payee not in declared)
            if not owes:
                continue
            result = best[payee].result
            amount = _share(rules, result, payer_factor(rules, payer, payee, declared)) * base
            transfers.append(Transfer(payer, payee, amount, "chadajiao", i))
            stake = piao.get(payer, 0) + piao.get(payee, 0)
            if stake:
                transfers.append(Transfer(payer, payee, stake * base, "piao", i))
    return transfers, tuple(best[p] for p in players if p in best)


def _ready_hands(draw: Draw, declared: list[str], players: Sequence[str], rules: Rules) -> dict[str, ReadyResult]:
    """查大叫: each ready player's best hand (the biggest win among their waits, capped, as a self-draw)."""
    if draw.ready is None:
        raise ScoringError(
            "bad_request",
            "draw_without_ready",
            "本局规则荒庄查大叫：draw 事件要有 ready（听牌玩家的手牌；没人听牌写 {}）",
        )
    best: dict[str, ReadyResult] = {}
    for player, hand in draw.ready.items():
        _seated(player, players, "听牌的玩家")
        liangdao = player in declared
        if isinstance(hand, DeclaredHand):
            result = evaluate_declared(replace(hand, method="self_draw", liangdao=liangdao), rules)
        else:
            result = _best_wait(player, hand, liangdao, rules)
        best[player] = ReadyResult(player, result)
    missing = [p for p in declared if p not in best]
    if missing:
        raise ScoringError(
            "bad_request",
            "liangdao_ready",
            f"{missing[0]} 亮倒了，一定听牌：查大叫要报 {missing[0]} 的手牌（ready）",
            who=missing[0],
        )
    return best


def _best_wait(player: str, hand: ReadyHand, liangdao: bool, rules: Rules) -> HandResult:
    """The biggest self-drawn win among the hand's waits (ties: the first wait)."""
    waits = waits_of(hand.concealed, hand.melds)
    if not waits:
        raise ScoringError(
            "inconsistent", "not_ready", f"{player} 报的手牌没有听牌：查大叫只报听牌玩家的牌", who=player
        )
    results = [
        evaluate(Hand(hand.concealed, hand.melds, tile, "self_draw", liangdao=liangdao), rules) for tile in waits
    ]
    best = max(results, key=lambda r: (r.final_multiplier, r.multiplier))
    return best._replace(waits=waits)


def settle(
    players: Sequence[str],
    events: Sequence[Event],
    rules: Rules,
    *,
    base: int = 1,
    dealer: str | None = None,
    partial: bool = False,
    piao: Mapping[str, int] | None = None,
) -> Settlement:
    """All transfers of one hand; with `partial=True` a hand still in play gives the kong money owed so far.

    `piao`: each player's 漂 for this hand, where the table chooses it per hand (rules `piao` "chosen")."""
    _check_table(players, dealer, base)
    end = _check_order(events, partial)
    stakes = _piao(rules, players, piao, events, needed=end is not None)
    transfers: list[Transfer] = []
    declared: list[str] = []
    last_gang: Gang | None = None
    wins: list[WinResult] = []
    ready_results: tuple[ReadyResult, ...] | None = None
    for i, event in enumerate(events):
        if isinstance(event, Gang):
            _check_gang(i, event, players, last_gang)
            last_gang = event
            if _is_robbed(i, event, events):
                _check_robbed_tile(event, events[i + 1 :])
                continue  # 抢杠胡: the robbed kong is never made and pays nothing
            transfers += _kong_transfers(i, event, players, rules, base)
        elif isinstance(event, Liangdao):
            who = _seated(event.player, players, f"第 {i + 1} 个事件（亮倒）的玩家")
            if who in declared:
                raise ScoringError("inconsistent", "liangdao_twice", f"第 {i + 1} 个事件：{who} 已经亮倒过了", who=who)
            declared.append(who)
        elif isinstance(event, Piao):
            pass  # checked with the hand's other 漂 (`_piao`)
        elif isinstance(event, Hu):
            _check_hu(i, event, players, last_gang, set(declared))
            wins.append(_score_win(i, event, rules, players, declared))
            transfers += _win_transfers(i, wins[-1], players, base, stakes)
        else:
            draw_transfers, ready_results = _draw_transfers(i, event, declared, players, rules, base, stakes)
            transfers += draw_transfers
    _check_copies(players, events)
    if len(wins) == 2:
        first, second = wins
        same_tile = first.source == second.source and first.method == second.method
        if first.winner == second.winner or first.source is None or not same_tile:
            raise ScoringError(
                "inconsistent", "double_win", "一炮双响要两个不同的赢家用同一种胡法胡同一个人的同一张牌（from 相同）"
            )
    if end is None:
        next_dealer = None
    elif len(wins) == 2:
        next_dealer = wins[0].source
    elif wins:
        next_dealer = wins[0].winner
    else:
        next_dealer = dealer
    return Settlement(tuple(transfers), net_of(players, transfers), next_dealer, tuple(wins), ready_results)


def _piao(
    rules: Rules, players: Sequence[str], piao: Mapping[str, int] | None, events: Sequence[Event], *, needed: bool
) -> dict[str, int]:
    """Each player's 漂 for the hand, in base stakes (none where the table does not play 漂): the request's
    `piao`, or the hand's `Piao` events (never both)."""
    told = [(i, e) for i, e in enumerate(events) if isinstance(e, Piao)]
    if rules.piao not in PIAO_CHOSEN and (piao is not None or told):
        what = f"本局定漂（每人 {rules.piao_amount}），不用每局报漂" if rules.piao == "fixed" else "本局规则不漂"
        raise ScoringError(
            "bad_request", "piao_not_played", f"{what}：请求里不能有 piao", piao=rules.piao, amount=rules.piao_amount
        )
    if rules.piao == "fixed":
        return dict.fromkeys(players, rules.piao_amount)
    if rules.piao == "none":
        return {}
    if told:
        if piao is not None:
            raise ScoringError(
                "bad_request", "piao_twice", "漂要么在 piao 里一起报，要么用 piao 事件逐个报，不能两样都有"
            )
        chosen: dict[str, int] = {}
        for i, event in told:
            _seated(event.player, players, f"第 {i + 1} 个事件（漂）的玩家")
            chosen[event.player] = _piao_amount(event.player, event.amount)
        missing = [p for p in players if p not in chosen]
        if missing and needed:
            raise ScoringError(
                "bad_request",
                "piao_missing",
                f"本局选漂：{'、'.join(missing)} 还没报这局漂几（piao 事件）",
                names=missing,
            )
        return chosen
    if piao is None:
        if needed:
            raise ScoringError(
                "bad_request", "piao_needed", '本局选漂：要报每人这局漂几（piao，例如 {"A": 1, "B": 0, "C": 2}）'
            )
        return {}
    if not isinstance(piao, Mapping) or set(piao) != set(players):
        raise ScoringError(
            "bad_request",
            "piao_everyone",
            f"piao 要给这桌每个人（{'、'.join(players)}）一个漂数",
            players=list(players),
        )
    return {name: _piao_amount(name, amount) for name, amount in piao.items()}


def _piao_amount(name: str, amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount not in PIAO_RANGE:
        raise ScoringError(
            "bad_request",
            "piao_amount",
            f"{name} 的漂 {quoted(amount)} 不对：漂是 {PIAO_RANGE[0]} 到 {PIAO_RANGE[-1]} 的整数",
            who=name,
            value=quoted(amount),
            least=PIAO_RANGE[0],
            most=PIAO_RANGE[-1],
        )
    return amount


def _check_copies(players: Sequence[str], events: Sequence[Event]) -> None:
    """No tile more than four times: all the kongs recorded with a tile (four copies each; a robbed 蓄杠 is its
    碰's three), and each hand given together with the other players' kongs. (Two winners' hands are not added up:
    a 一炮双响 is often recorded with one hand for both.)"""
    kongs: dict[str, list[int]] = {p: [0] * NUM_KINDS for p in players}
    hands: list[tuple[str, Hand | ReadyHand]] = [
        (e.winner, e.hand) for e in events if isinstance(e, Hu) and isinstance(e.hand, Hand)
    ]
    for event in events:
        if isinstance(event, Draw) and event.ready:
            hands += [(p, h) for p, h in event.ready.items() if isinstance(h, ReadyHand)]
    shown = {player for player, _ in hands}
    for i, event in enumerate(events):
        if isinstance(event, Gang) and event.tile is not None and event.player in kongs:
            if event.player in shown:
                _check_gang_in_hand(i, event, events)
            kongs[event.player][event.tile] += 3 if _is_robbed(i, event, events) else 4
    public = [sum(column) for column in zip(*kongs.values(), strict=True)]
    check_copies(public)
    for player, hand in hands:
        counts = held_counts(hand) if isinstance(hand, Hand) else _ready_counts(hand)
        others = [total - own for total, own in zip(public, kongs[player], strict=True)]
        check_copies([a + b for a, b in zip(counts, others, strict=True)])


def _ready_counts(hand: ReadyHand) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in hand.concealed:
        counts[tile] += 1
    for meld in hand.melds:
        counts[meld.tile] += meld.size
    return counts


def _check_gang_in_hand(i: int, gang: Gang, events: Sequence[Event]) -> None:
    """A kong recorded for a player whose tiles are given is one of that hand's kongs."""
    for event in events:
        hand: Hand | ReadyHand | DeclaredHand | None = None
        if isinstance(event, Hu) and event.winner == gang.player:
            hand = event.hand
        if isinstance(event, Draw) and event.ready:
            hand = event.ready.get(gang.player, hand)
        if isinstance(hand, Hand | ReadyHand) and not any(
            m.tile == gang.tile and m.kind in KONG_KINDS for m in hand.melds
        ):
            assert gang.tile is not None
            raise ScoringError(
                "inconsistent",
                "kong_not_in_hand",
                f"第 {i + 1} 个事件：{gang.player} 杠了 {tile_zh(gang.tile)}，但 {gang.player} 的手牌里没有这个杠",
                who=gang.player,
                tile=tile_notation(gang.tile),
            )


def _is_robbed(i: int, gang: Gang, events: Sequence[Event]) -> bool:
    """A 蓄杠 recorded right before a 抢杠胡 on that player is the kong that was robbed. A 漂 told between them is
    a stake, not a play (a 抢杠胡 whose 漂 were asked for is booked with them before it)."""
    after = next((e for e in events[i + 1 :] if not isinstance(e, Piao)), None)
    return (
        gang.kind == "xugang" and isinstance(after, Hu) and after.method == "rob_kong" and after.source == gang.player
    )


def _check_robbed_tile(gang: Gang, after: Sequence[Event]) -> None:
    """A robbed 蓄杠's tile, when recorded, is the winning tile of the 抢杠胡."""
    for hu in after:
        if gang.tile is not None and isinstance(hu, Hu) and isinstance(hu.hand, Hand) and hu.hand.win_tile != gang.tile:
            raise ScoringError(
                "inconsistent",
                "robbed_tile",
                f"{hu.winner} 抢的是 {gang.player} 加杠的 {tile_zh(gang.tile)}，胡的牌却是 {tile_zh(hu.hand.win_tile)}",
                who=hu.winner,
                kong=gang.player,
                tile=tile_notation(gang.tile),
                win_tile=tile_notation(hu.hand.win_tile),
            )


def _score_win(i: int, hu: Hu, rules: Rules, players: Sequence[str], declared: list[str]) -> WinResult:
    hand = hu.hand
    liangdao = hu.winner in declared
    if hand.method != hu.method:
        raise ScoringError(
            "inconsistent",
            "win_method_differs",
            f"{hu.winner} 的手牌 method 是 {hand.method}，胡牌事件是 {hu.method}",
            who=hu.winner,
            hand_method=hand.method,
            method=hu.method,
        )
    if isinstance(hand, DeclaredHand) and hand.liangdao is None:
        hand = replace(hand, liangdao=liangdao)
    try:
        result = evaluate_declared(hand, rules) if isinstance(hand, DeclaredHand) else evaluate(hand, rules)
        stakes = _stakes(hu, hand, rules, liangdao)
    except ScoringError as err:
        raise err.of_winner(f"第 {i + 1} 个事件，{hu.winner} 的胡牌：", hu.winner) from err
    baohu = liangdao and hu.method != "self_draw"
    payers = {}
    for payer in players:
        if payer != hu.winner:
            factor = payer_factor(rules, payer, hu.winner, declared)
            if factor != 1:
                payers[payer] = _share(rules, result, factor)
    return WinResult(hu.winner, hu.source, hu.method, result, baohu, payers, stakes)


def _stakes(hu: Hu, hand: Hand | DeclaredHand, rules: Rules, liangdao: bool) -> Stakes:
    """The win's side stakes under these rules; counts a declared hand must bring, a tile hand must not."""
    tiles = isinstance(hand, Hand)
    for key, value, played in (("kan", hu.kan, rules.shukan), ("qia", hu.qia, rules.paoqiamoba)):
        if value is not None and (tiles or not played):
            why = "由手牌算出" if tiles and played else "本局规则不算"
            raise ScoringError(
                "bad_request", "count_not_needed", f"{key} 不用报：{why}", input=key, counted=tiles and played
            )
    if hu.ba is not None and (tiles or not rules.paoqiamoba):
        why = "由手牌算出" if tiles and rules.paoqiamoba else "本局规则不算"
        raise ScoringError(
            "bad_request", "count_not_needed", f"ba 不用报：{why}", input="ba", counted=tiles and rules.paoqiamoba
        )
    kan = None
    if rules.shukan:
        kan = shukan(hand) if isinstance(hand, Hand) else _declared_count(hu.kan, "kan", "数坎的坎数")
    pqmb = None
    if rules.paoqiamoba:
        if isinstance(hand, Hand):
            pqmb = paoqiamoba(hand)
        else:
            qia = _declared_count(hu.qia, "qia", "跑恰摸八的恰数")
            ba = _declared_count(hu.ba, "ba", "跑恰摸八的八数")
            pqmb = PaoQiaMoBa(1, qia, 1 if hu.method == "self_draw" else 0, ba)
    buys = buys_ma(rules, hu.method, liangdao=liangdao)
    if buys and hu.ma is None:
        raise ScoringError("bad_request", "ma_needed", '本局买马：这手自摸要报翻出的马牌 ma（例如 "7s"）')
    if not buys and hu.ma is not None:
        raise ScoringError("bad_request", "ma_not_bought", "这手不买马（本局规则或胡法不买），不能报 ma")
    ma = (hu.ma, ma_points(hu.ma)) if hu.ma is not None else None
    return Stakes(kan, ma, pqmb)


def buys_ma(rules: Rules, method: str, *, liangdao: bool) -> bool:
    """买马: a self-draw buys a horse (自摸买马), or only a declared player's (亮倒自摸买马)."""
    return method == "self_draw" and (rules.maima == "self_draw" or (rules.maima == "liangdao_self_draw" and liangdao))


@dataclass(frozen=True)
class Missing:
    """An input a finished hand lacks under the table's rules (what docs/regional-rules.md lists as "asks"):
    `piao` of a player, `kan` / `qia` / `ba` / `ma` of the win `event` (its `player` the winner), or the `ready`
    hands of the draw `event`."""

    input: str
    player: str | None = None
    event: int | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"input": self.input}
        if self.player is not None:
            out["player"] = self.player
        if self.event is not None:
            out["event"] = self.event
        return out


def missing(
    players: Sequence[str], events: Sequence[Event], rules: Rules, piao: Mapping[str, int] | None = None
) -> tuple[Missing, ...]:
    """What the players must still tell before a hand ending with these events can be scored, in the order a
    chat asks it: each player's 漂, then each win's 坎, 恰 and 八 (a hand given by patterns), 马; the draw's ready
    hands (查大叫). Nothing for a hand still in play; the events are not otherwise checked (`settle` does)."""
    if not any(isinstance(e, Hu | Draw) for e in events):
        return ()
    out: list[Missing] = []
    if rules.piao in PIAO_CHOSEN and piao is None:
        told = {e.player for e in events if isinstance(e, Piao)}
        out += [Missing("piao", p) for p in players if p not in told]
    declared: set[str] = set()
    for i, event in enumerate(events):
        if isinstance(event, Liangdao):
            declared.add(event.player)
        elif isinstance(event, Hu):
            if isinstance(event.hand, DeclaredHand):  # a hand given by its tiles has its counts counted
                asked = [("kan", event.kan, rules.shukan), ("qia", event.qia, rules.paoqiamoba)]
                asked.append(("ba", event.ba, rules.paoqiamoba))
                out += [Missing(key, event.winner, i) for key, value, played in asked if played and value is None]
            if event.ma is None and buys_ma(rules, event.method, liangdao=event.winner in declared):
                out.append(Missing("ma", event.winner, i))
        elif isinstance(event, Draw) and rules.chadajiao and event.ready is None:
            out.append(Missing("ready", None, i))
    return tuple(out)


def _declared_count(value: int | None, key: str, what: str) -> int:
    if value is None:
        raise ScoringError("bad_request", "count_needed", f"报番型（不报牌）的胡要报{what} {key}", input=key)
    most = MAX_COUNTS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise ScoringError(
            "bad_request",
            "count_range",
            f"{key}（{what}）应是 0 到 {most} 的整数，收到 {quoted(value)}",
            input=key,
            most=most,
            value=quoted(value),
        )
    return value


# --- The contract's settle request ------------------------------------------------------------------------
_EVENT_KEYS = {
    "gang": frozenset({"type", "player", "kind", "from", "chain", "tile"}),
    "liangdao": frozenset({"type", "player"}),
    "piao": frozenset({"type", "player", "amount"}),
    "hu": frozenset({"type", "winner", "method", "from", "hand", "ma", "kan", "qia", "ba"}),
    "draw": frozenset({"type", "ready"}),
}
_REQUIRED = {
    "gang": ("player", "kind"),
    "liangdao": ("player",),
    "piao": ("player", "amount"),
    "hu": ("winner", "method", "hand"),
    "draw": (),
}
_READY_KEYS = frozenset({"concealed", "melds", "patterns"})


def events_from_json(raw: object, rules: Rules) -> list[Event]:
    """Read the `"events"` list; each hu's hand learns its 亮倒 flag from the 亮倒 events before it."""
    if not isinstance(raw, list):
        raise ScoringError("bad_request", "events_not_list", "events 应是列表")
    check_event_count(len(raw), MAX_EVENTS, "牌")
    events: list[Event] = []
    declared: set[str] = set()
    for i, item in enumerate(raw):
        where = f"第 {i + 1} 个事件"
        if not isinstance(item, Mapping):
            raise ScoringError("bad_request", "event_not_object", f"{where}应是对象", index=i)
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in _EVENT_KEYS:
            raise ScoringError(
                "bad_request",
                "unknown_event",
                f"{where}的 type {quoted(kind)} 不对，可选：{'、'.join(_EVENT_KEYS)}",
                index=i,
                kind=quoted(kind),
                allowed=list(_EVENT_KEYS),
            )
        unknown = [k for k in item if k not in _EVENT_KEYS[kind]]
        if unknown:
            allowed = "、".join(sorted(_EVENT_KEYS[kind]))
            field_ = quoted(unknown[0])
            raise ScoringError(
                "bad_request",
                "event_unknown_fields",
                f"{where}（{kind}）里有不认识的字段 {field_}，可用：{allowed}",
                index=i,
                event=kind,
                fields=[field_],
            )
        for key in _REQUIRED[kind]:
            if key not in item:
                raise ScoringError(
                    "bad_request", "event_missing_field", f"{where}（{kind}）缺少 {key}", index=i, event=kind, field=key
                )
        for key in ("player", "winner", "from"):
            if item.get(key) is not None and not isinstance(item[key], str):
                raise ScoringError(
                    "bad_request",
                    "event_name_not_text",
                    f"{where}（{kind}）的 {key} 应是玩家名字（字符串）",
                    index=i,
                    event=kind,
                    field=key,
                )
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
        elif kind == "piao":
            events.append(Piao(item["player"], item["amount"]))
        elif kind == "hu":
            events.append(_hu_from_json(where, item, rules, declared))
        else:
            events.append(Draw(_ready_from_json(item["ready"], rules) if "ready" in item else None))
    return events


def _hu_from_json(where: str, item: Mapping[str, Any], rules: Rules, declared: set[str]) -> Hu:
    method = item["method"]
    if method not in METHODS:
        raise _unknown_method(where, method)
    try:
        hand = hand_from_json(item["hand"], rules, method=method, liangdao=item["winner"] in declared)
        ma = parse_tile(item["ma"], rules.suits) if item.get("ma") is not None else None
    except ScoringError as err:
        raise err.of_winner(f"{where}，{item['winner']} 的胡牌：", item["winner"]) from err
    counts = {key: item.get(key) for key in ("kan", "qia", "ba")}
    return Hu(item["winner"], method, item.get("from"), hand, ma, **counts)


def _ready_from_json(raw: object, rules: Rules) -> dict[str, ReadyHand | DeclaredHand]:
    """查大叫's ready hands: `{player: {"concealed", "melds"} or {"patterns", "melds"}}`."""
    if not isinstance(raw, Mapping):
        raise ScoringError(
            "bad_request",
            "ready_not_object",
            'ready 应是对象：{"玩家": {"concealed": "...", "melds": [...]}}，没人听牌写 {}',
        )
    if len(raw) > 3:
        raise ScoringError("bad_request", "ready_too_many", "ready 最多三个玩家")
    hands: dict[str, ReadyHand | DeclaredHand] = {}
    for player, body in raw.items():
        if not isinstance(body, Mapping):
            raise ScoringError(
                "bad_request",
                "ready_hand_not_object",
                f"ready 里 {quoted(player)} 的手牌应是对象",
                who=player,
            )
        unknown = [k for k in body if k not in _READY_KEYS]
        if unknown:
            field_ = quoted(unknown[0])
            raise ScoringError(
                "bad_request",
                "ready_unknown_field",
                f"ready 里有不认识的字段 {field_}，可用：concealed、melds、patterns",
                field=field_,
                allowed=sorted(_READY_KEYS),
            )
        melds = melds_from_json(body.get("melds", []), rules)
        if "patterns" in body:
            patterns = body["patterns"]
            if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns) or len(patterns) > 32:
                raise ScoringError(
                    "bad_request", "ready_patterns_not_list", "ready 的 patterns 应是番型名（字符串）的列表"
                )
            hands[player] = DeclaredHand(tuple(patterns), "self_draw", melds=melds)
            continue
        if "concealed" not in body:
            raise ScoringError(
                "bad_request",
                "ready_without_tiles",
                f"ready 里 {quoted(player)} 要有 concealed（听牌的手牌）或 patterns",
                who=player,
            )
        concealed = body["concealed"]
        if isinstance(concealed, str) and len(concealed) > 200:
            raise ScoringError(
                "bad_tiles", "ready_tiles_too_long", "concealed 太长：一手牌写不了这么长", field="concealed"
            )
        tiles = tuple(parse_tiles(concealed, rules.suits))
        expected = 13 - 3 * len(melds)
        if len(tiles) != expected:
            raise ScoringError(
                "wrong_count",
                "ready_tile_count",
                f"{player} 听牌的手牌有 {len(melds)} 组副露时应为 {expected} 张，这里是 {len(tiles)} 张",
                who=player,
                melds=len(melds),
                expected=expected,
                count=len(tiles),
            )
        hands[player] = ReadyHand(tiles, melds)
    return hands


def settle_from_json(request: Mapping[str, Any], rules: Rules, partial: bool) -> dict[str, Any]:
    players = _players(request)
    dealer = request.get("dealer")
    base = request.get("base", 1)
    events = events_from_json(request.get("events"), rules)
    settlement = settle(players, events, rules, base=base, dealer=dealer, partial=partial, piao=request.get("piao"))
    return {"ok": True, **settlement.as_json()}


def missing_from_json(request: Mapping[str, Any], rules: Rules) -> list[dict[str, Any]]:
    """`missing` of a settle request: `[{"input": "kan", "player": "A", "event": 2}, …]`."""
    events = events_from_json(request.get("events"), rules)
    return [m.as_json() for m in missing(_players(request), events, rules, request.get("piao"))]


def _players(request: Mapping[str, Any]) -> list[str]:
    players = request.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ScoringError("bad_request", "players_not_list", "players 应是三个玩家名字的列表")
    return players
