"""What the ledger must know about each game to drive the scoring core: seats, ending events, requests.

Rules themselves stay in `ledger.scoring`; this module only shapes a hand's recorded events into the
`paiju score` request and reads the answer back (which transfers each event caused, who deals next).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.scoring import ScoringError
from ledger.scoring.kawuxing.patterns import SEVEN_PAIRS_KEYS
from ledger.scoring.tiles import parse_tile, tile_zh

#: seats per game: 卡五星 3, 够级 6, 碰胡 4
SEATS = {"kawuxing": 3, "gouji": 6, "penghu": 4}
GAMES = tuple(SEATS)
#: event types that end a hand. 卡五星: a win (one or two `hu`, 一炮双响) or a draw (荒庄); 够级: each round is
#: one event; 碰胡: any win (胡, 天胡, 地胡, 小七对 at the deal, 五福) or a draw (its answer's `finished` also
#: tells, e.g. a second 提蛇 at the deal)
TERMINAL = {
    "kawuxing": frozenset({"hu", "draw"}),
    "gouji": frozenset({"round"}),
    "penghu": frozenset({"hu", "tianhu", "dihu", "xiaoqidui", "wufu", "draw"}),
}
DEFAULT_RULES: dict[str, dict[str, Any]] = {"kawuxing": {"preset": "xiangyang"}, "gouji": {}, "penghu": {}}

#: (payer, payee, amount, reason): money owed, as the scoring core names it
Owed = tuple[str, str, int, str]


def build_request(
    game: str,
    rules: Mapping[str, Any],
    base: int,
    players: Sequence[str],
    dealer: str | None,
    events: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The `paiju score` request for a hand so far, from the table's snapshot and the live events."""
    request: dict[str, Any] = {"game": game}
    if rules:
        request["rules"] = dict(rules)
    if game == "gouji":
        # a 够级 round is one event carrying the result: order, geming, shaopai_failed
        round_ = dict(events[0]) if events else {}
        round_.pop("type", None)
        request.update(round_)
        request.update({"stake": base, "seats": list(players)})
        return request
    request["base" if game == "kawuxing" else "stake"] = base
    request.update({"players": list(players), "dealer": dealer, "events": [dict(e) for e in events]})
    return request


def refuse_seven_pairs_after_kong(game: str, events: Sequence[Mapping[str, Any]]) -> None:
    """A 卡五星 seven-pairs win (七对, 龙七对, 双龙七对) told by its patterns, from a player who konged in the same
    hand, is refused: seven pairs are fourteen concealed tiles. The scoring core answers such a request as it always
    has (the `paiju score` contract is frozen: tests outside the project rely on it); the ledger does not book it."""
    if game != "kawuxing":
        return
    konged: dict[str, Mapping[str, Any]] = {}
    for event in events:
        if event.get("type") == "gang" and isinstance(event.get("player"), str):
            konged.setdefault(event["player"], event)
        hand = event.get("hand")
        if event.get("type") != "hu" or event.get("winner") not in konged or not isinstance(hand, Mapping):
            continue
        if SEVEN_PAIRS_KEYS.isdisjoint(hand.get("patterns") or ()):
            continue
        who, tile = event["winner"], konged[event["winner"]].get("tile")
        named = f"（{tile_zh(parse_tile(tile))}）" if isinstance(tile, str) else ""
        raise ScoringError(
            "inconsistent", "seven_pairs_after_kong", f"{who} 这局杠过{named}，七对要门清：不能有杠", who=who
        )


#: the kinds of kong as a refusal names them
_KONG_ZH = {"angang": "暗杠", "zhigang": "直杠", "xugang": "蓄杠"}


def refuse_unbookable(game: str, events: Sequence[Mapping[str, Any]], fresh: range) -> None:
    """What the ledger refuses of a hand the scoring core would score, `fresh` being the events told now: checked
    as they are booked, and as a record is told, before it is asked its 漂/马 (a 抢杠胡 with no kong is refused
    then, not after everyone answered)."""
    refuse_seven_pairs_after_kong(game, events)
    refuse_rob_without_kong(game, events, fresh)


def refuse_rob_without_kong(game: str, events: Sequence[Mapping[str, Any]], fresh: range | None = None) -> None:
    """A 卡五星 抢杠胡 (`rob_kong`) among the events at `fresh` (default: all) is booked only right after the
    robbed player's 蓄杠 — the kong being made, which the win robs and which therefore pays nothing. Robbed with no
    kong recorded (the ledger would book ×2 抢杠胡 on a kong nobody made, and nothing to refund), or after a kong no
    rule lets anyone rob (an 暗杠, a 直杠), it is refused, naming the kong to record first. The scoring core accepts
    a 抢杠胡 without its kong (the `paiju score` contract is frozen: tests outside the project rely on it); the
    ledger does not book it."""
    if game != "kawuxing":
        return
    for i in fresh if fresh is not None else range(len(events)):
        event = events[i]
        if event.get("type") != "hu" or event.get("method") != "rob_kong":
            continue
        first = i
        # a 一炮双响's other win robbed it too; a 漂 between is a stake, not a play (the asked 漂 go before the win)
        while first > 0 and events[first - 1].get("type") in ("hu", "piao"):
            first -= 1
        before = events[first - 1] if first > 0 else {}
        who, kong = event.get("winner"), event.get("from")
        hand = event.get("hand")
        tile = _typed(hand.get("win_tile") if isinstance(hand, Mapping) else None)
        if before.get("type") == "gang" and before.get("player") == kong:
            if before.get("kind") == "xugang":
                _refuse_kawuxing_off_robbed_tile(event, before)
                continue
            kind = str(before.get("kind"))
            raise ScoringError(
                "inconsistent",
                "rob_not_added_kong",
                f"{who} 抢杠：只有蓄杠（碰了再补第四张）能抢，{kong} 刚记的是{_KONG_ZH.get(kind, '杠')}，不能抢。"
                f"抢的是 {kong} 的蓄杠就先记「{kong} 蓄杠{tile}」；不是抢杠就写 点 {kong}",
                who=who,
                kong=kong,
                kind=kind,
                tile=tile,
            )
        raise ScoringError(
            "inconsistent",
            "rob_without_kong",
            f"{who} 抢杠：抢的是 {kong} 正在补的蓄杠，可 {kong} 的蓄杠没有记在这之前。"
            f"先记「{kong} 蓄杠{tile}」再记这个胡（被抢的蓄杠不收杠钱）；不是抢杠就写 点 {kong}",
            who=who,
            kong=kong,
            tile=tile,
        )


def _refuse_kawuxing_off_robbed_tile(win: Mapping[str, Any], kong: Mapping[str, Any]) -> None:
    """A 抢杠胡 wins on the robbed kong's tile: told by its patterns, 卡五星 (a 5 taken between its 4 and 6) needs that
    tile to be a 5 of a suit — `胡 抢杠 @小李 卡五星` after `蓄杠 4s` was booked ×4. A hand told by its tiles is checked
    by the scoring core (`robbed_tile`)."""
    hand, tile = win.get("hand"), kong.get("tile")
    patterns = hand.get("patterns") if isinstance(hand, Mapping) else None
    if not isinstance(tile, str) or not isinstance(patterns, list) or "kawuxing" not in patterns:
        return
    if len(tile) == 2 and tile[0] == "5" and tile[1] in "mps":
        return
    who, robbed = win.get("winner"), kong.get("player")
    raise ScoringError(
        "inconsistent",
        "rob_kawuxing_tile",
        f"{who} 抢杠：抢的是 {robbed} 蓄杠的 {tile}，就胡这张；卡五星 要胡四六中间的五，不是卡五星",
        who=who,
        kong=robbed,
        tile=tile,
    )


def _typed(tile: Any) -> str:
    """A tile as a line names it after its word (` 5p`), or nothing."""
    return f" {tile}" if isinstance(tile, str) and tile else ""


def is_terminal(game: str, event: Mapping[str, Any]) -> bool:
    return event.get("type") in TERMINAL[game]


def misplaced_terminal(game: str, events: Sequence[Mapping[str, Any]]) -> bool:
    """True when an ending event is followed by a non-ending one (only a 一炮双响's second `hu` may follow)."""
    ended = False
    for event in events:
        if ended and not is_terminal(game, event):
            return True
        ended = ended or is_terminal(game, event)
    return False


def owed_by_event(answer: Mapping[str, Any], event_count: int) -> dict[int, list[Owed]]:
    """The answer's transfers grouped by the index of the event that caused them (sorted, for comparison).

    A transfer without `"event"` (a 够级 round's answer) belongs to the last event."""
    grouped: dict[int, list[Owed]] = {i: [] for i in range(event_count)}
    for transfer in answer.get("transfers", []):
        index = transfer.get("event", event_count - 1)
        if not isinstance(index, int) or not 0 <= index < event_count:
            raise ValueError(f"transfer names event {index!r} of a hand with {event_count} events")
        grouped[index].append((transfer["from"], transfer["to"], int(transfer["amount"]), str(transfer["reason"])))
    for owed in grouped.values():
        owed.sort()
    return grouped


def winners(game: str, events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Who won the hand: 卡五星 `hu.winner`, 碰胡 the winning event's `player`, 够级 the 头科."""
    if game == "gouji":
        order = events[0].get("order", []) if events else []
        return [order[0]] if order else []
    key = "winner" if game == "kawuxing" else "player"
    return [str(e[key]) for e in events if is_terminal(game, e) and e.get("type") != "draw" and e.get(key)]


def next_dealer(
    game: str, answer: Mapping[str, Any], events: Sequence[Mapping[str, Any]], dealer: str | None
) -> str | None:
    """The dealer of the next hand: the answer's `next_dealer`; without one, 碰胡's winner deals (中庄 means the
    dealer won again), and otherwise the dealer stays."""
    if game == "gouji":
        return None
    if answer.get("next_dealer"):
        return str(answer["next_dealer"])
    if game == "penghu":
        won = winners(game, events)
        if won:
            return won[0]
    return dealer


def liangdao(events: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """Players who declared 亮倒, in order."""
    return tuple(str(e["player"]) for e in events if e.get("type") == "liangdao" and e.get("player"))
