"""Every number a report shows, as queries over the ledger (one source of truth for charts, posts and exports).

What counts (the readings the reports document in docs/reports.md):
- A hand counts when it is closed and not voided; it was *played* by every member seated at its table.
- A 够级 hand is a round: no win, no draw; it counts among `rounds`, and its 头科 (first out) among the 头科's
  `firsts`. Win and 点炮 rates are over the other games' hands (`MemberStats.hands_with_wins`).
- A win (胡) is a live `hu` event of such a hand; 一炮双响 is two wins. 自摸 is a win with method `self_draw`;
  a 点炮 given is a hand won on the member's discard or robbed kong (`from` the member): one 一炮双响 is one
  点炮 (one discard, as its name says) and two wins.
- Multipliers come from the scoring answer stored with the hand (`final_multiplier`, after the cap); the
  biggest hand is the win with the largest capped multiple, then the most money received for it.
- Pattern frequency: in how many of the member's wins each pattern appeared (two hidden fours in one hand is
  one hand with 暗四归一).
- Money is live transfers only (voided rows never count), integer 分. `play` is the play result, what a
  leaderboard ranks: the hands' money (wins, kong money, 亮倒, regional stakes; kind `hand`); `kong_money` is
  the net of kong transfers (喜钱); `fines` what the member paid into the pot (红包池) in fines, `fees` what
  they paid the house (台费, 抽水), `received` what the pot or the house paid out to them (发红包池, 付台费).
  `net` is every live transfer (play, fines, fees, payouts: the money a settlement squares).
- Scope: a night, a period of nights or all time, by `ledger.scope`'s membership rule (the night's own
  hands and money; a period's nights whole).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ledger.accounts import names
from ledger.db import session_factories
from ledger.models import (
    CLOSED,
    FEE,
    FINE,
    GROUP_ACCOUNTS,
    HAND,
    OPEN,
    PAYMENT,
    PAYOUT,
    POT,
    GameTable,
    Hand,
    HandEvent,
    Member,
    Night,
    Seat,
    Transfer,
)
from ledger.scope import Rows, Scope, rows_of
from ledger.scoring import gouji

#: transfer reasons that are kong money (喜钱), as the scoring core names the kong kinds
KONG_REASONS = frozenset({"angang", "xugang", "zhigang"})
#: event types that end a hand with a win (卡五星/碰胡 `hu`; 碰胡's special wins too)
WIN_EVENTS = frozenset({"hu", "tianhu", "dihu"})
#: the game whose hands are rounds (no win, no draw), and the place its stats count (头科, first out)
GOUJI = "gouji"
FIRST = gouji.PLACE_NAMES[0]


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A read-only session over the ledger's engine (`Ledger.engine`): one consistent snapshot per report."""
    with session_factories(engine)[1]() as session, session.begin():
        yield session


# ------------------------------------------------------------------------------------------ result types


@dataclass(frozen=True)
class Win:
    """One win as the reports see it."""

    hand_id: int
    table_id: int
    number: int
    winner_id: int
    method: str  # self_draw | discard | rob_kong
    from_id: int | None  # who dealt in (点炮), None for a self-draw
    multiplier: int  # before the cap
    final_multiplier: int  # after the cap
    patterns: tuple[tuple[str, str], ...]  # (key, Chinese name), one entry per instance
    won: int  # 分 the winner received for the win itself (kong money excluded)
    closed_at: datetime
    game: str = "kawuxing"
    kind: str = "hu"  # the win event's type (碰胡's 天胡 `tianhu`, 地胡 `dihu`)


@dataclass
class MemberStats:
    """One member over a scope."""

    member_id: int
    name: str
    hands_played: int = 0
    rounds: int = 0  # of `hands_played`, 够级 rounds (no win, no 点炮)
    firsts: int = 0  # 够级 rounds where the member was 头科 (first out)
    places: Counter[str] = field(default_factory=Counter)  # 够级 rounds by the place the member took (头科 … 大落)
    duitou: frozenset[int] = frozenset()  # the members who sat across from them (对头) at a 够级 table
    wins: int = 0
    self_draws: int = 0
    discards_given: int = 0  # 点炮
    multiplier_total: int = 0  # sum of the capped multiples of the wins (for the average)
    largest_multiplier: int = 0
    biggest: Win | None = None
    patterns: Counter[str] = field(default_factory=Counter)
    kong_money: int = 0  # net 喜钱
    fines: int = 0  # paid into the pot
    fees: int = 0  # table fees (台费, 抽水) paid to the house, net of any refunded
    received: int = 0  # paid out to the member by the pot or the house (发红包池, 付台费)
    play: int = 0  # the play result: the hands' money (wins, kongs, 亮倒, regional stakes)
    net: int = 0  # every transfer: play, fines, fees, payouts

    @property
    def played(self) -> bool:
        """Sat at a finished hand or won or lost money at one (what a leaderboard lists)."""
        return bool(self.hands_played or self.play)

    @property
    def hands_with_wins(self) -> int:
        """The hands played of games that are won (胡): all but the 够级 rounds."""
        return self.hands_played - self.rounds

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands_with_wins if self.hands_with_wins else 0.0

    @property
    def first_rate(self) -> float:
        """Share of the 够级 rounds played where the member was 头科."""
        return self.firsts / self.rounds if self.rounds else 0.0

    @property
    def self_draw_rate(self) -> float:
        """Share of the wins that were self-drawn (自摸率)."""
        return self.self_draws / self.wins if self.wins else 0.0

    @property
    def discard_rate(self) -> float:
        """点炮 given per hand played (点炮率)."""
        return self.discards_given / self.hands_with_wins if self.hands_with_wins else 0.0

    @property
    def average_multiplier(self) -> float:
        return self.multiplier_total / self.wins if self.wins else 0.0


@dataclass(frozen=True)
class GroupStats:
    """A scope's totals and every member's line (the pot's net in `pot`)."""

    scope: Scope
    hands: int
    draws: int  # 荒庄
    wins: int
    self_draws: int
    patterns: Counter[str]
    pattern_names: dict[str, str]  # key -> Chinese name, as the scoring answers named them
    kong_money: int  # total 喜钱 paid
    fines: int  # total fines paid into the pot
    pot: int  # the pot's net over the scope
    members: tuple[MemberStats, ...]  # everyone who played or paid/received in the scope, best play result first
    biggest: Win | None
    all_wins: tuple[Win, ...]
    house: int = 0  # the house account's net over the scope (table fees)
    rounds: int = 0  # of `hands`, 够级 rounds (neither won nor drawn)

    def member(self, member_id: int) -> MemberStats | None:
        return next((m for m in self.members if m.member_id == member_id), None)


@dataclass(frozen=True)
class HeadToHead:
    """Who wins from whom: `wins[(a, b)]` wins of a that b paid for; `net[(a, b)]` money a took from b, net."""

    names: dict[int, str]
    wins: dict[tuple[int, int], int]
    net: dict[tuple[int, int], int]


@dataclass(frozen=True)
class RunningBalance:
    """A night hand by hand: `series[member_id]` starts at 0 and has one value after each hand."""

    hands: tuple[int, ...]  # hand numbers in order (a table's numbering restarts at 1)
    names: dict[int, str]
    series: dict[int, list[int]]


# -------------------------------------------------------------------------------------------- queries


def _closed_hands(scoped: Rows) -> list[sa.ColumnElement[bool]]:
    return [scoped.hands, Hand.status == CLOSED]


def _live_transfers(scoped: Rows) -> list[sa.ColumnElement[bool]]:
    """Live transfers in the scope, payments left out: statistics are what was won and lost (总输赢)."""
    return [scoped.transfers, Transfer.voided_at.is_(None), Transfer.kind != PAYMENT]


def _names(session: Session, member_ids: Iterable[int]) -> dict[int, str]:
    ids = set(member_ids)
    if not ids:
        return {}
    group_id = session.scalar(sa.select(Member.group_id).where(Member.id.in_(ids)).limit(1))
    shown = names(session, group_id) if group_id is not None else {}  # distinct in the group, as every view names
    return {member_id: shown[member_id] for member_id in ids if member_id in shown}


def _seat_members(session: Session, table_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """table id -> seat name -> member id, in play order."""
    ids = set(table_ids)
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    if ids:
        rows = session.execute(
            sa.select(Seat.table_id, Seat.name, Seat.member_id)
            .where(Seat.table_id.in_(ids))
            .order_by(Seat.table_id, Seat.position)
        )
        for row in rows:
            seats[row.table_id][row.name] = row.member_id
    return seats


def _win_amounts(session: Session, scoped: Rows) -> dict[tuple[int, int], int]:
    """(hand id, payee id) -> 分 received in the hand's non-kong transfers (the win's own payment), for the
    scope's closed hands, in one grouped query."""
    rows = session.execute(
        sa.select(Transfer.hand_id, Transfer.payee_id, sa.func.sum(Transfer.amount))
        .join(Hand, Hand.id == Transfer.hand_id)
        .where(*_live_transfers(scoped), Hand.status == CLOSED, Transfer.reason.not_in(KONG_REASONS))
        .group_by(Transfer.hand_id, Transfer.payee_id)
    )
    return {(hand_id, payee_id): int(total) for hand_id, payee_id, total in rows if hand_id is not None}


def _chunks(ids: Sequence[int], size: int = 900) -> Iterable[Sequence[int]]:
    """Parameter lists small enough for SQLite's bound-variable limit."""
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


@dataclass(frozen=True)
class _Scan:
    """The scope's closed hands read once: how many, how many were drawn (荒庄), and every win; of the 够级 rounds
    (neither), how many each member played and was 头科 in."""

    hands: int
    draws: int
    wins: list[Win]
    round_count: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    firsts: Counter[int] = field(default_factory=Counter)
    placed: Counter[tuple[int, str]] = field(default_factory=Counter)  # (member, place) -> 够级 rounds
    duitou: dict[int, set[int]] = field(default_factory=dict)  # member -> 对头 at the scope's 够级 tables


def _scan(session: Session, scoped: Rows) -> _Scan:
    """Read the wins from the scoring answers stored with the hands (their `hands` entries carry winner, method,
    discarder, patterns and multiples); only a hand whose answer has no such entries (够级, 碰胡) has its live
    win events read instead. Only the `hands` part of an answer is fetched: decoding JSON is most of the cost."""
    entries_json = sa.type_coerce(Hand.answer["hands"], sa.Text).label("entries")
    places_json = sa.type_coerce(Hand.answer["places"], sa.Text).label("places")
    hands = session.execute(
        sa.select(Hand.id, Hand.table_id, Hand.number, entries_json, places_json, Hand.closed_at, GameTable.game)
        .join(GameTable, GameTable.id == Hand.table_id)
        .where(*_closed_hands(scoped))
        .order_by(Hand.closed_at, Hand.id)
    ).all()
    if not hands:
        return _Scan(0, 0, [])
    answers = _decode_all([row.entries for row in hands])
    seats = _seat_members(session, {row.table_id for row in hands})
    received = _win_amounts(session, scoped)
    events = _win_events(session, [row.id for row, parsed in zip(hands, answers, strict=True) if parsed is None])
    found: list[Win] = []
    draws = 0
    round_count = 0
    rounds: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    placed: Counter[tuple[int, str]] = Counter()
    duitou: dict[int, set[int]] = defaultdict(set)
    for hand, parsed in zip(hands, answers, strict=True):
        seat = seats[hand.table_id]
        if hand.game == GOUJI:
            round_count += 1
            rounds.update(seat.values())
            places = _decoded(hand.places)
            firsts.update(seat[name] for name, place in places.items() if place == FIRST and name in seat)
            placed.update((seat[name], str(place)) for name, place in places.items() if name in seat)
            if len(seat) == gouji.SEAT_COUNT:  # seats in play order: each one's 对头 three places on
                for name, member_id in seat.items():
                    duitou[member_id].add(seat[gouji.duitou(list(seat), name)])
            continue
        entries = parsed if parsed is not None else events.get(hand.id, [])
        draws += not entries
        for entry in entries:
            winner = entry.get("winner") or entry.get("player")
            if winner not in seat:
                continue
            discarder = entry.get("from")
            found.append(
                Win(
                    hand_id=hand.id,
                    table_id=hand.table_id,
                    number=hand.number,
                    winner_id=seat[winner],
                    method=str(entry.get("method") or ("discard" if discarder else "self_draw")),
                    from_id=seat.get(discarder) if discarder else None,
                    multiplier=int(entry.get("multiplier", 1)),
                    final_multiplier=int(entry.get("final_multiplier", entry.get("multiplier", 1))),
                    patterns=tuple(
                        (str(p["key"]), str(p.get("name") or p["key"]))
                        for p in entry.get("patterns", ())
                        if isinstance(p, Mapping)
                    ),
                    won=received.get((hand.id, seat[winner]), 0),
                    closed_at=hand.closed_at,
                    game=hand.game,
                    kind=str(entry.get("type") or "hu"),
                )
            )
    return _Scan(len(hands), draws, found, round_count, rounds, firsts, placed, duitou)


def _decoded(value: Any) -> dict[str, Any]:
    """A JSON object as fetched (text from SQLite, decoded from psycopg); {} for anything else."""
    parsed = json.loads(value) if isinstance(value, str) else value
    return parsed if isinstance(parsed, dict) else {}


def _decode_all(values: Sequence[Any]) -> list[list[Mapping[str, Any]] | None]:
    """JSON arrays as fetched: SQLite hands back text, decoded here in one `json.loads` call (a call per row
    costs more than the parsing); psycopg hands back decoded values. Anything but a list becomes None."""
    texts = [value for value in values if isinstance(value, str)]
    decoded = iter(json.loads("[" + ",".join(texts) + "]")) if texts else iter(())
    out = []
    for value in values:
        parsed = next(decoded) if isinstance(value, str) else value
        out.append(parsed if isinstance(parsed, list) else None)
    return out


def _win_events(session: Session, hand_ids: Sequence[int]) -> dict[int, list[Mapping[str, Any]]]:
    """hand id -> its live win events, for hands whose stored answer names no winners."""
    events: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for chunk in _chunks(hand_ids):
        rows = session.execute(
            sa.select(HandEvent.hand_id, HandEvent.payload)
            .where(HandEvent.hand_id.in_(chunk), HandEvent.voided_at.is_(None))
            .order_by(HandEvent.id)
        )
        for hand_id, payload in rows:
            if payload.get("type") in WIN_EVENTS:
                events[hand_id].append(payload)
    return events


def wins(session: Session, scope: Scope) -> list[Win]:
    """Every win of the scope's closed hands, in the order the hands closed."""
    return _scan(session, rows_of(session, scope)).wins


def _bigger(candidate: Win, current: Win | None) -> bool:
    if current is None:
        return True
    return (candidate.final_multiplier, candidate.won) > (current.final_multiplier, current.won)


def group_stats(session: Session, scope: Scope) -> GroupStats:
    """Every member's numbers over the scope, and the scope's totals."""
    scoped = rows_of(session, scope)
    members: dict[int, MemberStats] = {}

    def line(member_id: int) -> MemberStats:
        if member_id not in members:
            members[member_id] = MemberStats(member_id, "")
        return members[member_id]

    played = session.execute(
        sa.select(Seat.member_id, sa.func.count(Hand.id))
        .select_from(Hand)
        .join(Seat, Seat.table_id == Hand.table_id)
        .where(*_closed_hands(scoped))
        .group_by(Seat.member_id)
    )
    for member_id, count in played:
        line(member_id).hands_played = int(count)
    scan = _scan(session, scoped)
    for member_id, count in scan.rounds.items():
        line(member_id).rounds = count
        line(member_id).firsts = scan.firsts[member_id]
        line(member_id).duitou = frozenset(scan.duitou.get(member_id, ()))
    for (member_id, place), count in scan.placed.items():
        line(member_id).places[place] = count
    all_wins = scan.wins
    pattern_totals: Counter[str] = Counter()
    pattern_names: dict[str, str] = {}
    biggest: Win | None = None
    fed: set[tuple[int, int]] = set()  # (hand, discarder): a 一炮双响's discard is one 点炮
    for win in all_wins:
        stats = line(win.winner_id)
        stats.wins += 1
        stats.self_draws += win.method == "self_draw"
        stats.multiplier_total += win.final_multiplier
        stats.largest_multiplier = max(stats.largest_multiplier, win.final_multiplier)
        if _bigger(win, stats.biggest):
            stats.biggest = win
        if _bigger(win, biggest):
            biggest = win
        keys = {key for key, _ in win.patterns}
        stats.patterns.update(keys)
        pattern_totals.update(keys)
        pattern_names.update(win.patterns)
        if win.from_id is not None and (win.hand_id, win.from_id) not in fed:
            fed.add((win.hand_id, win.from_id))
            line(win.from_id).discards_given += 1

    kong_total = fines_total = pot = 0
    money = session.execute(
        sa.select(
            Transfer.payer_id,
            Transfer.payee_id,
            Transfer.kind,
            Transfer.reason.in_(KONG_REASONS).label("kong"),
            sa.func.sum(Transfer.amount),
        )
        .where(*_live_transfers(scoped))
        .group_by(Transfer.payer_id, Transfer.payee_id, Transfer.kind, sa.literal_column("kong"))
    )
    pools: dict[int, str] = {
        member_id: kind
        for member_id, kind in session.execute(
            sa.select(Member.id, Member.kind).where(Member.group_id == scope.group_id, Member.kind.in_(GROUP_ACCOUNTS))
        )
    }
    pot_ids = {member_id for member_id, kind in pools.items() if kind == POT}
    house = 0
    for payer_id, payee_id, kind, kong, total in money:
        amount = int(total)
        if kind == FEE and payer_id not in pools:
            line(payer_id).fees += amount
        if kind == PAYOUT and payer_id in pools and payee_id not in pools:
            line(payee_id).received += amount
        for member_id, signed in ((payer_id, -amount), (payee_id, amount)):
            if member_id in pot_ids:
                pot += signed
                continue
            if member_id in pools:
                house += signed
                continue
            stats = line(member_id)
            stats.net += signed
            if kind == HAND:
                stats.play += signed
                if kong:
                    stats.kong_money += signed
        if kind == HAND and kong:
            kong_total += amount
        if kind == FINE:
            fines_total += amount
            if payer_id not in pot_ids:
                line(payer_id).fines += amount

    names = _names(session, members)
    for member_id, stats in members.items():
        stats.name = names.get(member_id, str(member_id))
    ordered = sorted(members.values(), key=lambda m: (-m.play, -m.wins, m.name, m.member_id))
    return GroupStats(
        scope=scope,
        hands=scan.hands,
        draws=scan.draws,
        wins=len(all_wins),
        self_draws=sum(win.method == "self_draw" for win in all_wins),
        patterns=pattern_totals,
        pattern_names=pattern_names,
        kong_money=kong_total,
        fines=fines_total,
        pot=pot,
        members=tuple(ordered),
        biggest=biggest,
        all_wins=tuple(all_wins),
        house=house,
        rounds=scan.round_count,
    )


def member_stats(session: Session, scope: Scope, member_id: int) -> MemberStats:
    """One member's line (an empty one when they neither played nor paid in the scope)."""
    found = group_stats(session, scope).member(member_id)
    if found is not None:
        return found
    return MemberStats(member_id, _names(session, [member_id]).get(member_id, str(member_id)))


def ranked(stats: GroupStats) -> list[MemberStats]:
    """The leaderboard of computed stats: players ranked by their play result, then wins (fines, fees and payouts
    are no play: who only paid a fine, or only received a payout, is not ranked)."""
    return [m for m in stats.members if m.played]


def leaderboard(session: Session, scope: Scope) -> list[MemberStats]:
    return ranked(group_stats(session, scope))


def head_to_head(session: Session, scope: Scope, scope_wins: Sequence[Win] | None = None) -> HeadToHead:
    """Who wins from whom: wins counted per payer (a self-draw is a win from each who paid), and the net money
    of the hand transfers between each pair (kong money included: it is won at the same table). Pass the
    scope's wins when already read (`GroupStats.all_wins`) to read them once."""
    win_counts: dict[tuple[int, int], int] = defaultdict(int)
    members: set[int] = set()
    payers_by_hand: dict[tuple[int, int], set[int]] = defaultdict(set)
    scoped = rows_of(session, scope)
    hand_transfers = sa.and_(*_live_transfers(scoped), Transfer.kind == HAND)
    for hand_id, payer_id, payee_id in session.execute(
        sa.select(Transfer.hand_id, Transfer.payer_id, Transfer.payee_id)
        .where(hand_transfers, Transfer.reason.not_in(KONG_REASONS))
        .distinct()
    ):
        if hand_id is not None:
            payers_by_hand[(hand_id, payee_id)].add(payer_id)
    for win in _scan(session, scoped).wins if scope_wins is None else scope_wins:
        for payer_id in payers_by_hand.get((win.hand_id, win.winner_id), set()):
            win_counts[(win.winner_id, payer_id)] += 1
            members.update((win.winner_id, payer_id))
    net: dict[tuple[int, int], int] = defaultdict(int)
    for payer_id, payee_id, total in session.execute(
        sa.select(Transfer.payer_id, Transfer.payee_id, sa.func.sum(Transfer.amount))
        .where(hand_transfers)
        .group_by(Transfer.payer_id, Transfer.payee_id)
    ):
        net[(payee_id, payer_id)] += int(total)
        net[(payer_id, payee_id)] -= int(total)
        members.update((payer_id, payee_id))
    return HeadToHead(_names(session, members), dict(win_counts), {k: v for k, v in net.items() if v})


def running_balance(session: Session, night_id: int) -> RunningBalance:
    """Each player's balance over a night, hand by hand, from the live transfers of its hands (kong money of
    a hand still open counts as a last point). Fines are not hands: they are in the night's net, not here."""
    hands = session.execute(
        sa.select(Hand.id, Hand.number, Hand.status)
        .join(GameTable, GameTable.id == Hand.table_id)
        .where(GameTable.night_id == night_id, Hand.status.in_((CLOSED, OPEN)))
        .order_by(Hand.status != CLOSED, Hand.closed_at, Hand.id)
    ).all()
    players = set(
        session.scalars(
            sa.select(Seat.member_id)
            .join(GameTable, GameTable.id == Seat.table_id)
            .where(GameTable.night_id == night_id)
        )
    )
    deltas: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for hand_id, payer_id, payee_id, amount in session.execute(
        sa.select(Transfer.hand_id, Transfer.payer_id, Transfer.payee_id, Transfer.amount).where(
            Transfer.night_id == night_id, Transfer.voided_at.is_(None), Transfer.kind == HAND
        )
    ):
        if hand_id is None:
            continue
        deltas[hand_id][payer_id] -= amount
        deltas[hand_id][payee_id] += amount
        players.update((payer_id, payee_id))
    series = {member_id: [0] for member_id in players}
    numbers: list[int] = []
    for hand in hands:
        if hand.status == OPEN and hand.id not in deltas:
            continue  # the next hand, nothing booked yet
        numbers.append(hand.number)
        for member_id, values in series.items():
            values.append(values[-1] + deltas[hand.id].get(member_id, 0))
    return RunningBalance(tuple(numbers), _names(session, players), series)


def nightly_net(session: Session, scope: Scope) -> tuple[list[date], dict[int, list[int]], dict[int, str]]:
    """Each member's running total night by night over the scope (hand money only): the nights' dates, and per
    member a series starting at 0 with one value after each night."""
    per_night: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for night_id, payer_id, payee_id, total in session.execute(
        sa.select(Transfer.night_id, Transfer.payer_id, Transfer.payee_id, sa.func.sum(Transfer.amount))
        .where(*_live_transfers(rows_of(session, scope)), Transfer.kind == HAND)
        .group_by(Transfer.night_id, Transfer.payer_id, Transfer.payee_id)
    ):
        if night_id is not None:  # hand money is always booked for its table's night
            per_night[night_id][payer_id] -= int(total)
            per_night[night_id][payee_id] += int(total)
    nights = session.execute(
        sa.select(Night.id, Night.night_date).where(Night.id.in_(per_night)).order_by(Night.night_date, Night.id)
    ).all()
    members = {member_id for changes in per_night.values() for member_id in changes}
    series = {member_id: [0] for member_id in members}
    for night_id, _ in nights:
        for member_id, values in series.items():
            values.append(values[-1] + per_night[night_id].get(member_id, 0))
    return [night_date for _, night_date in nights], series, _names(session, members)
