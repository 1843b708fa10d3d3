"""碰胡 (Peng Hu, a 字牌 game): every event of a hand is paid the moment it happens (shared/rules/penghu.md).

A hand is a list of events in table order. Each event is priced at stake 1 from the rules table and multiplied by
the stake (the money value of one point, in 分). "每人出" (each pays): the three others each pay the amount;
"个人出" (one pays): the player whose own discard gave the event (`from`) pays three times that.

Two things are not per event and are settled incrementally so that the transfers of a prefix of the events are
always a prefix of the transfers of the whole hand (the ledger books each event's money when it is told of it):
- 起手扫 netting: deal-time 扫 are netted among all players who hold one; each deal-time 扫 event emits the
  difference between the netted settlement after it and the one before (possibly money given back). A deal-time
  扫/提蛇 recorded after play began is still settled this way; it cannot re-price events already recorded.
- a hand won at the deal (天胡, 小七对, a second 提蛇 at the deal) voids every deal-time 扫 and 提蛇: the winning
  event first gives all deal-time money back, then pays the win.
The readings chosen where the seed is unclear are written down in docs/games.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ledger.scoring.common import (
    ScoringError,
    Transfer,
    check_event_count,
    check_keys,
    check_rules,
    net_of,
    parse_stake,
    player_names,
    quoted,
    shown,
)

PLAYER_COUNT = 4
#: more events than one hand of 80 cards can hold are a malformed request
MAX_EVENTS = 200

#: 个人出 is three times 每人出 (the discarder pays for all three).
ONE_PAYS_FACTOR = 3

#: Each-pays amounts at stake 1, by the player's running 碰/扫 count after the event (碰和扫一起累积).
PENG_EACH = {1: 1, 2: 1, 3: 5, 4: 5}  # 碰; 3rd 三碰, 4th 四清
SAO_EACH = {1: 2, 2: 2, 3: 6, 4: 6}  # 扫 and 过扫
MAX_COUNT_BEFORE_WUFU = 4
QISHOU_SAO_MAX = 2  # a third 扫 at the deal is a 提蛇 ("连扫三次（提蛇）")

WIN_EACH = 4  # 胡; plus the tier bonus
ZHONGZHUANG_EACH = 8  # 中庄; plus the tier bonus
TISHE_EACH = 10
WUFU_EACH = 40
SHUANG_TISHE_EACH = 40  # two 提蛇 at the deal
TIANHU_EACH = 10
XIAOQIDUI_EACH = 40
PAOQI_ONE = 12
PAOQI_HU_ONE = 24
PAOQI_ZHONGZHUANG_ONE = 36
DIHU_DEALER = 24

#: Fields each event type may carry besides `type` and `player` (`from` is allowed, as null, on every type).
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "peng": frozenset({"from"}),
    "sao": frozenset({"at_deal"}),
    "guosao": frozenset(),
    "paoqi": frozenset({"from"}),
    "tishe": frozenset({"at_deal"}),
    "baojing": frozenset(),
    "wufu": frozenset({"from"}),
    "hu": frozenset({"from", "zhongzhuang", "paoqi"}),
    "tianhu": frozenset(),
    "dihu": frozenset({"from"}),
    "xiaoqidui": frozenset(),
    "draw": frozenset(),
}
#: Event types that happen only at the deal, before the first discard is played on.
DEAL_ONLY = frozenset({"tianhu", "dihu", "xiaoqidui"})
TERMINAL_HINT = "hu、wufu、tianhu、dihu、xiaoqidui、起手第二个提蛇，或 draw（荒庄）"

#: Every reason a transfer of this game carries, by the name players call it (明细 shows these, never the key).
REASON_ZH = {
    "peng": "碰",
    "sao": "扫",
    "guosao": "过扫",
    "paoqi": "跑起",
    "tishe": "提蛇",
    "wufu": "五福",
    "hu": "胡",
    "zhongzhuang": "中庄",
    "paoqi_hu": "跑起胡",
    "paoqi_zhongzhuang": "跑起中庄",
    "tianhu": "天胡",
    "dihu": "地胡",
    "xiaoqidui": "小七对",
    "shuang_tishe": "起手双提蛇",
    "qishou_sao": "起手扫",
    "qishou_sao_netting": "起手扫抵扣",
    "qishou_tishe": "起手提蛇",
    "qishou_void": "起手扫/提蛇退回",
}
#: Reasons of deal-time money, which a hand won at the deal gives back.
DEAL_REASONS = frozenset({"qishou_sao", "qishou_sao_netting", "qishou_tishe"})

REQUIRED_KEYS = frozenset({"game", "stake", "players", "dealer", "events"})
OPTIONAL_KEYS = frozenset({"rules"})


@dataclass(frozen=True)
class Event:
    """One parsed event; `source` is the JSON `from`: whose own discard pays alone (None: each pays)."""

    index: int
    kind: str
    player: str | None
    source: str | None = None
    at_deal: bool = False
    zhongzhuang: bool = False
    paoqi: bool = False

    @property
    def label(self) -> str:
        return f"events[{self.index}]（{self.kind}）"


@dataclass
class Seat:
    """A player's running state in the hand."""

    peng: int = 0
    sao: int = 0  # 扫 and 过扫, deal-time ones included
    last_each: int = 0  # each-pays amount of the latest 碰/扫: the bonus a win adds (4+1, 4+5, 4+2, 4+6)
    qishou_sao: int = 0
    qishou_tishe: int = 0
    baojing: bool = False

    @property
    def count(self) -> int:
        return self.peng + self.sao


@dataclass
class Hand:
    """Replays events in order, emitting the transfers each one causes."""

    players: list[str]
    dealer: str
    stake: int
    seats: dict[str, Seat] = field(init=False)
    transfers: list[Transfer] = field(default_factory=list)
    in_deal: bool = True  # no play event yet: 天胡, 地胡 and 小七对 are still possible
    finished_at: int | None = None
    winner: str | None = None
    #: signed net per canonical pair (a, b), a before b in `players`: > 0 means a has paid b so far
    qishou_sao_flows: dict[tuple[str, str], int] = field(default_factory=dict)
    deal_money: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seats = {p: Seat() for p in self.players}

    # -- money ---------------------------------------------------------------------------------------------
    def pay(self, payer: str, payee: str, units: int, reason: str, event: Event) -> None:
        if units <= 0:
            return
        self.transfers.append(Transfer(payer, payee, units * self.stake, reason, event=event.index))
        if reason in DEAL_REASONS:
            _add_flow(self.deal_money, self.players, payer, payee, units)

    def charge(self, event: Event, each: int, reason: str) -> None:
        """每人出 `each` from the three others, or 个人出 3 × `each` from the discarder."""
        assert event.player is not None
        if event.source is None:
            for other in self.players:
                if other != event.player:
                    self.pay(other, event.player, each, reason, event)
        else:
            self.pay(event.source, event.player, each * ONE_PAYS_FACTOR, reason, event)

    def each_pays(self, event: Event, each: int, reason: str) -> None:
        self.charge(Event(event.index, event.kind, event.player), each, reason)

    # -- replay --------------------------------------------------------------------------------------------
    def play(self, event: Event) -> None:
        if self.finished_at is not None:
            raise ScoringError(
                "inconsistent",
                "hand_over",
                f"{event.label}：这手牌在 events[{self.finished_at}] 已经结束，后面不能再有事件",
                event=event.kind,
            )
        if event.kind in DEAL_ONLY and not self.in_deal:
            raise ScoringError(
                "inconsistent",
                "deal_only",
                f"{event.label}：这种胡只能在起手时，出牌之后的事件已经记了",
                event=event.kind,
            )
        if not (event.at_deal or event.kind in DEAL_ONLY):
            self.in_deal = False
        if event.source is not None and event.source == event.player:
            raise ScoringError(
                "inconsistent",
                "own_discard",
                f"{event.label}：{event.player} 不能从自己打出的牌得钱",
                event=event.kind,
                who=event.player,
            )
        if event.kind != "draw":
            assert event.player is not None
            if event.source is not None and event.kind not in {"peng", "wufu", "paoqi", "hu", "dihu"}:
                raise ScoringError(
                    "inconsistent",
                    "not_a_discard",
                    f"{event.label}：这个事件不是别人打出的牌，from 只能是 null",
                    event=event.kind,
                )
        HANDLERS[event.kind](self, event, self.seats.get(event.player or "", Seat()))

    def finish(self, event: Event, winner: str | None) -> None:
        self.finished_at = event.index
        self.winner = winner

    def _count_up(self, event: Event, seat: Seat, *, table: dict[int, int], is_peng: bool) -> int:
        if seat.baojing:
            raise ScoringError(
                "inconsistent",
                "fifth_is_wufu",
                f"{event.label}：{event.player} 已报警，第五次碰/扫就是五福，请记 wufu",
                event=event.kind,
                who=event.player,
            )
        if seat.count >= MAX_COUNT_BEFORE_WUFU:
            raise ScoringError(
                "inconsistent",
                "fifth_needs_baojing",
                f"{event.label}：{event.player} 已有 4 次碰/扫，第五次只能报警后作为五福（wufu）",
                event=event.kind,
                who=event.player,
            )
        if is_peng:
            seat.peng += 1
        else:
            seat.sao += 1
        seat.last_each = table[seat.count]
        return seat.last_each

    def _peng(self, event: Event, seat: Seat) -> None:
        self.charge(event, self._count_up(event, seat, table=PENG_EACH, is_peng=True), "peng")

    def _sao(self, event: Event, seat: Seat) -> None:
        if not event.at_deal:
            self.each_pays(event, self._count_up(event, seat, table=SAO_EACH, is_peng=False), "sao")
            return
        if seat.qishou_sao >= QISHOU_SAO_MAX:
            raise ScoringError(
                "inconsistent",
                "third_sao_is_tishe",
                f"{event.label}：起手连扫三次算提蛇，请记 tishe（at_deal: true）",
                event=event.kind,
                who=event.player,
            )
        self._count_up(event, seat, table=SAO_EACH, is_peng=False)
        seat.qishou_sao += 1
        self._settle_qishou_sao(event)

    def _guosao(self, event: Event, seat: Seat) -> None:
        self.each_pays(event, self._count_up(event, seat, table=SAO_EACH, is_peng=False), "guosao")

    def _paoqi(self, event: Event, seat: Seat) -> None:
        if seat.count == 0:
            raise _nothing_to_run(event)
        assert event.source is not None
        self.pay(event.source, event.player or "", PAOQI_ONE, "paoqi", event)

    def _tishe(self, event: Event, seat: Seat) -> None:
        if not event.at_deal:
            self.each_pays(event, TISHE_EACH, "tishe")
            return
        seat.qishou_tishe += 1
        if seat.qishou_tishe == 2:  # two 提蛇 at the deal: an automatic win, deal-time 扫/提蛇 void
            if not self.in_deal:
                raise ScoringError(
                    "inconsistent",
                    "after_shuang_tishe",
                    f"{event.label}：起手两个提蛇当时就胡了，后面不会再有出牌的事件",
                    event=event.kind,
                    who=event.player,
                )
            self._void_deal_money(event)
            self.each_pays(event, SHUANG_TISHE_EACH, "shuang_tishe")
            self.finish(event, event.player)
        else:
            self.each_pays(event, TISHE_EACH, "qishou_tishe")

    def _baojing(self, event: Event, seat: Seat) -> None:
        if seat.baojing:
            raise ScoringError(
                "inconsistent",
                "baojing_twice",
                f"{event.label}：{event.player} 已经报过警了",
                event=event.kind,
                who=event.player,
            )
        if seat.count != MAX_COUNT_BEFORE_WUFU:
            raise ScoringError(
                "inconsistent",
                "baojing_early",
                f"{event.label}：报警要在第四次碰/扫之后，{event.player} 现在是 {seat.count} 次",
                event=event.kind,
                who=event.player,
                count=seat.count,
            )
        seat.baojing = True

    def _wufu(self, event: Event, seat: Seat) -> None:
        if not seat.baojing:
            raise ScoringError(
                "inconsistent",
                "wufu_without_baojing",
                f"{event.label}：{event.player} 没有报警，五福不算（第四次碰/扫后先记 baojing）",
                event=event.kind,
                who=event.player,
            )
        self.charge(event, WUFU_EACH, "wufu")
        self.finish(event, event.player)

    def _hu(self, event: Event, seat: Seat) -> None:
        if event.zhongzhuang and event.player != self.dealer:
            raise ScoringError(
                "inconsistent",
                "zhongzhuang",
                f"{event.label}：只有庄家 {self.dealer} 才能中庄",
                event=event.kind,
                who=event.player,
                dealer=self.dealer,
            )
        if event.paoqi:
            if event.source is None:
                raise ScoringError(
                    "inconsistent",
                    "paoqi_hu_from",
                    f"{event.label}：跑起胡 是别人打出的牌跑起，from 不能是 null",
                    event=event.kind,
                    who=event.player,
                )
            if seat.count == 0:
                raise _nothing_to_run(event)
            amount, reason = (
                (PAOQI_ZHONGZHUANG_ONE, "paoqi_zhongzhuang") if event.zhongzhuang else (PAOQI_HU_ONE, "paoqi_hu")
            )
            self.pay(event.source, event.player or "", amount, reason, event)
        else:
            base, reason = (ZHONGZHUANG_EACH, "zhongzhuang") if event.zhongzhuang else (WIN_EACH, "hu")
            self.charge(event, base + seat.last_each, reason)
        self.finish(event, event.player)

    def _tianhu(self, event: Event, seat: Seat) -> None:
        self._void_deal_money(event)
        self.each_pays(event, TIANHU_EACH, "tianhu")
        self.finish(event, event.player)

    def _dihu(self, event: Event, seat: Seat) -> None:
        if event.player == self.dealer:
            raise ScoringError(
                "inconsistent",
                "dealer_dihu",
                f"{event.label}：地胡是胡庄家 {self.dealer} 打出的第一张牌，庄家自己不能地胡",
                event=event.kind,
                dealer=self.dealer,
            )
        if event.source not in (None, self.dealer):
            raise ScoringError(
                "inconsistent",
                "dihu_payer",
                f"{event.label}：地胡由庄家 {self.dealer} 一人出，from 只能是庄家",
                event=event.kind,
                who=event.player,
                dealer=self.dealer,
            )
        self.pay(self.dealer, event.player or "", DIHU_DEALER, "dihu", event)
        self.finish(event, event.player)

    def _xiaoqidui(self, event: Event, seat: Seat) -> None:
        if event.player == self.dealer and seat.qishou_sao == 0:
            raise ScoringError(
                "inconsistent",
                "dealer_xiaoqidui_sao",
                f"{event.label}：庄家的小七对必须带一个扫（先记起手 sao）",
                event=event.kind,
                dealer=self.dealer,
            )
        self._void_deal_money(event)
        self.each_pays(event, XIAOQIDUI_EACH, "xiaoqidui")
        self.finish(event, event.player)

    def _draw(self, event: Event, seat: Seat) -> None:
        self.finish(event, None)

    # -- the deal ------------------------------------------------------------------------------------------
    def _settle_qishou_sao(self, event: Event) -> None:
        """Emit the change in the netted deal-time 扫 settlement caused by this event."""
        amounts = {p: s.qishou_sao * SAO_EACH[1] for p, s in self.seats.items()}
        new = qishou_sao_settlement(self.players, amounts)
        for pair in _pairs(self.players):
            delta = new.get(pair, 0) - self.qishou_sao_flows.get(pair, 0)
            if not delta:
                continue
            reason = "qishou_sao" if delta * new.get(pair, 0) > 0 else "qishou_sao_netting"
            payer, payee = pair if delta > 0 else pair[::-1]
            self.pay(payer, payee, abs(delta), reason, event)
        self.qishou_sao_flows = new

    def _void_deal_money(self, event: Event) -> None:
        """A hand won at the deal: every deal-time 扫/提蛇 payment goes back."""
        refunds = dict(self.deal_money)
        for (a, b), flow in refunds.items():
            if flow:
                payer, payee = (b, a) if flow > 0 else (a, b)
                self.pay(payer, payee, abs(flow), "qishou_void", event)
        self.qishou_sao_flows = {}
        self.deal_money = {}


#: One handler per event type; each checks the event can happen now, pays it and updates the seat.
HANDLERS: dict[str, Callable[[Hand, Event, Seat], None]] = {
    "peng": Hand._peng,
    "sao": Hand._sao,
    "guosao": Hand._guosao,
    "paoqi": Hand._paoqi,
    "tishe": Hand._tishe,
    "baojing": Hand._baojing,
    "wufu": Hand._wufu,
    "hu": Hand._hu,
    "tianhu": Hand._tianhu,
    "dihu": Hand._dihu,
    "xiaoqidui": Hand._xiaoqidui,
    "draw": Hand._draw,
}


def _nothing_to_run(event: Event) -> ScoringError:
    """跑起 (alone or with a 胡) from a seat with no 碰 or 扫 yet: nothing to run from."""
    return ScoringError(
        "inconsistent",
        "nothing_to_run",
        f"{event.label}：{event.player} 没有碰或扫，无从跑起",
        event=event.kind,
        who=event.player,
    )


def qishou_sao_settlement(players: list[str], amounts: Mapping[str, int]) -> dict[tuple[str, str], int]:
    """The deal-time 扫 settlement at stake 1 as signed flows per canonical pair (see `Hand.qishou_sao_flows`).

    `amounts[p]` is what each other player would pay p if p were the only holder (2 per deal-time 扫). Holders
    never pay: each player without a deal-time 扫 pays each holder h `amounts[h]`, plus, for every other holder g
    holding less, the difference amounts[h] − amounts[g] shared equally among the players without. This gives the
    rules page's cases: two holders → the other two pay each 2; three → the one without pays each 2; three, one
    holding two → the one without pays that one 8 and the others 2; four → nobody pays.
    """
    holders = [p for p in players if amounts[p] > 0]
    payers = [p for p in players if amounts[p] == 0]
    flows: dict[tuple[str, str], int] = {}
    if not payers:
        return flows
    for holder in holders:
        shifted = sum(amounts[holder] - amounts[g] for g in holders if amounts[g] < amounts[holder])
        # amounts are multiples of 2 and two or more holders leave at most two payers: the share is exact
        share = shifted // len(payers)
        for payer in payers:
            _add_flow(flows, players, payer, holder, amounts[holder] + share)
    return flows


def _pairs(players: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]


def _add_flow(flows: dict[tuple[str, str], int], players: list[str], payer: str, payee: str, units: int) -> None:
    if players.index(payer) < players.index(payee):
        flows[(payer, payee)] = flows.get((payer, payee), 0) + units
    else:
        flows[(payee, payer)] = flows.get((payee, payer), 0) - units


def answer(request: Mapping[str, Any], partial: bool = False) -> dict[str, Any]:
    """Score one 碰胡 hand; with `partial=True` an unfinished hand is accepted and its money so far returned."""
    check_keys(request, REQUIRED_KEYS, OPTIONAL_KEYS, "碰胡")
    check_rules(request.get("rules"))
    stake = parse_stake(request["stake"], minimum=1)
    players = player_names(request["players"], "players")
    if len(players) != PLAYER_COUNT:
        raise ScoringError(
            "bad_request",
            "penghu_players",
            f"碰胡需要 {PLAYER_COUNT} 个玩家，players 里有 {len(players)} 个",
            needed=PLAYER_COUNT,
            count=len(players),
        )
    if len(set(players)) != len(players):
        raise ScoringError("bad_request", "players_repeated", "players 里有重复的名字")
    dealer = request["dealer"]
    if dealer not in players:
        raise ScoringError(
            "bad_request", "dealer_not_seated", f"庄家 {quoted(dealer)} 不在 players 里", dealer=quoted(dealer)
        )
    raw_events = request["events"]
    if not isinstance(raw_events, list):
        raise ScoringError("bad_request", "events_not_list", "events 必须是事件的列表")
    check_event_count(len(raw_events), MAX_EVENTS, "碰胡")

    hand = Hand(list(players), dealer, stake)
    for index, raw in enumerate(raw_events):
        hand.play(parse_event(index, raw, players))
    finished = hand.finished_at is not None
    if not finished and not partial:
        raise ScoringError("inconsistent", "penghu_not_over", f"这手牌还没有结束：最后一个事件应是 {TERMINAL_HINT}")
    out: dict[str, Any] = {
        "ok": True,
        "transfers": [t.as_json() for t in hand.transfers],
        "net": net_of(players, hand.transfers),
        "counts": {p: {"peng": s.peng, "sao": s.sao} for p, s in hand.seats.items()},
        "baojing": [p for p, s in hand.seats.items() if s.baojing],
        "finished": finished,
    }
    if finished:
        out["winner"] = hand.winner
        out["next_dealer"] = hand.winner or dealer
    return out


def parse_event(index: int, raw: object, players: list[str]) -> Event:
    """Check one event's shape (bad_request); the hand's replay checks whether it can happen (inconsistent)."""
    where = f"events[{index}]"
    if not isinstance(raw, Mapping):
        raise ScoringError("bad_request", "event_not_object", f"{where} 必须是一个 JSON 对象", index=index)
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        raise ScoringError(
            "bad_request",
            "unknown_event",
            f"{where}：未知的事件类型 {quoted(kind)}（可选：{'、'.join(EVENT_FIELDS)}）",
            index=index,
            kind=quoted(kind),
            allowed=list(EVENT_FIELDS),
        )
    allowed = EVENT_FIELDS[kind] | {"type"} | (set() if kind == "draw" else {"player", "from"})
    unknown = shown(sorted(map(str, set(raw) - allowed)))
    if unknown:
        raise ScoringError(
            "bad_request",
            "event_unknown_fields",
            f"{where}（{kind}）里有不认识的字段 {'、'.join(unknown)}",
            index=index,
            event=kind,
            fields=unknown,
        )
    player = raw.get("player")
    if kind != "draw" and player not in players:
        raise ScoringError(
            "bad_request",
            "event_player_not_seated",
            f"{where}（{kind}）：player {quoted(player)} 不在 players 里",
            index=index,
            event=kind,
            who=quoted(player),
        )
    source = raw.get("from")
    if source is not None and source not in players:
        raise ScoringError(
            "bad_request",
            "event_from_not_seated",
            f"{where}（{kind}）：from {quoted(source)} 不在 players 里",
            index=index,
            event=kind,
            who=quoted(source),
        )
    if kind == "paoqi" and source is None:
        raise ScoringError(
            "bad_request", "paoqi_from", f"{where}（paoqi）：跑起由打出那张牌的人一人出，要写 from", index=index
        )
    flags = {}
    for flag in ("at_deal", "zhongzhuang", "paoqi"):
        value = raw.get(flag, False)
        if not isinstance(value, bool):
            raise ScoringError(
                "bad_request",
                "flag_not_bool",
                f"{where}（{kind}）：{flag} 必须是 true 或 false",
                index=index,
                event=kind,
                flag=flag,
            )
        flags[flag] = value
    return Event(index, kind, player, source, **flags)
