"""够级 (Gouji): one round's places, team points and the money between 对头 (shared/rules/gouji.md).

A round is recorded as its result, not its play: the seating (six seats in play order, odd seats one team,
each seat's 对头 three places on), the order players went out, who declared 革命 and who failed a burn
(烧牌失败). Points per place: 头科 +4, 二科 +2, 三科 0, 四科 0, 二落 −2, 大落 −4; a team scores its sum only
when positive ("只记正分，不记负分"), doubled to 12 for 串三户. With a stake, each member of the scoring team
receives that team score × stake from their own 对头.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.scoring.common import ScoringError, Transfer, check_keys, check_rules, net_of, parse_stake, player_names

SEAT_COUNT = 6

#: Places from first to last with their points (seed 第十九条 计分).
PLACES: tuple[tuple[str, int], ...] = (
    ("头科", 4),
    ("二科", 2),
    ("三科", 0),
    ("四科", 0),
    ("二落", -2),
    ("大落", -4),
)
PLACE_POINTS: dict[str, int] = dict(PLACES)
PLACE_NAMES: tuple[str, ...] = tuple(name for name, _ in PLACES)

#: 串三户 doubles the scoring team's 4 + 2 + 0 = 6 to 12.
CHUANSANHU_FACTOR = 2

REQUIRED_KEYS = frozenset({"game", "stake", "seats", "order"})
OPTIONAL_KEYS = frozenset({"geming", "shaopai_failed", "rules"})


def answer(request: Mapping[str, Any], partial: bool = False) -> dict[str, Any]:
    """Score one 够级 round; `partial` has no meaning for a round recorded whole and is ignored."""
    del partial
    check_keys(request, REQUIRED_KEYS, OPTIONAL_KEYS, "够级")
    check_rules(request.get("rules"))
    stake = parse_stake(request["stake"], minimum=0)
    seats = player_names(request["seats"], "seats")
    if len(seats) != SEAT_COUNT:
        raise ScoringError(
            "bad_request",
            "gouji_seats",
            f"够级需要 {SEAT_COUNT} 个座位，seats 里有 {len(seats)} 个",
            needed=SEAT_COUNT,
            count=len(seats),
        )
    _no_duplicates(seats, "seats")
    order = _seated(player_names(request["order"], "order"), seats, "order")
    geming = _seated(player_names(request.get("geming", []), "geming"), seats, "geming")
    failed = _seated(player_names(request.get("shaopai_failed", []), "shaopai_failed"), seats, "shaopai_failed")
    for name in geming:
        if name in order:
            raise ScoringError(
                "bad_request",
                "geming_placed",
                f"{name} 既在 order 里又在 geming 里：革命的人不参加这一局，不能有名次",
                who=name,
            )
        if name in failed:
            raise ScoringError(
                "bad_request", "geming_shaopai", f"{name} 既革命又烧牌失败：革命的人不参加这一局", who=name
            )

    if len(geming) >= 2:
        # Seed 第二十一条: 两个以上革命，该局作废 — the round is void, nothing is scored or paid.
        return {
            "ok": True,
            "void": True,
            "places": {},
            "points": {name: 0 for name in seats},
            "team_points": {name: 0 for name in seats},
            "chuansanhu": False,
            "transfers": [],
            "net": {name: 0 for name in seats},
        }

    ranking = _ranking_of_players_who_played(order, failed, seats, geming)
    places = assign_places(seats, ranking, geming[0] if geming else None)
    places = dict(sorted(places.items(), key=lambda item: PLACE_NAMES.index(item[1])))
    points = {name: PLACE_POINTS[places[name]] for name in seats}
    teams = (seats[0::2], seats[1::2])  # odd seats (1, 3, 5) and even seats (2, 4, 6)
    chuansanhu = any({places[m] for m in team} == {"头科", "二科", "三科"} for team in teams)
    team_points = dict.fromkeys(seats, 0)
    transfers: list[Transfer] = []
    for team in teams:
        total = sum(points[m] for m in team)
        score = total * CHUANSANHU_FACTOR if chuansanhu and total > 0 else max(total, 0)
        for member in team:
            team_points[member] = score
            if score and stake:
                reason = "gouji_chuansanhu" if chuansanhu else "gouji"
                transfers.append(Transfer(duitou(seats, member), member, score * stake, reason, event=0))
    return {
        "ok": True,
        "void": False,
        "places": places,
        "points": points,
        "team_points": team_points,
        "chuansanhu": chuansanhu,
        "transfers": [t.as_json() for t in transfers],
        "net": net_of(seats, transfers),
    }


def duitou(seats: Sequence[str], name: str) -> str:
    """The 对头 of `name`: the seat three places on, always on the other team."""
    return seats[(seats.index(name) + SEAT_COUNT // 2) % SEAT_COUNT]


def assign_places(seats: Sequence[str], ranking: Sequence[str], geming: str | None) -> dict[str, str]:
    """Places for a full ranking of the players who played (best first) and the 革命 player, if any.

    革命 counts as 四科, or as 三科 when the two teammates take 头科 and 二科 (the other team is then 串三户'd);
    the players who played fill the remaining places in ranking order.
    """
    names = list(PLACE_NAMES)
    if geming is None:
        return dict(zip(ranking, names, strict=True))
    teammates = {seats[(seats.index(geming) + step) % SEAT_COUNT] for step in (2, 4)}
    geming_place = "三科" if set(ranking[:2]) == teammates else "四科"
    names.remove(geming_place)
    places = dict(zip(ranking, names, strict=True))
    places[geming] = geming_place
    return places


def _ranking_of_players_who_played(
    order: list[str], failed: list[str], seats: list[str], geming: list[str]
) -> list[str]:
    """Best-first ranking of everyone not in 革命: players who went out, then 烧牌失败 from the bottom up.

    The first failed burn is 大落, the next 二落, … (seed 第六条). `order` may leave the failed players out (they did
    not go out) or list them where the rule puts them; listing them anywhere else contradicts the rule.
    """
    went_out = [name for name in order if name not in failed]
    ranking = went_out + failed[::-1]
    failed_in_order = [name for name in failed if name in order]
    if failed_in_order and len(failed_in_order) != len(failed):
        absent = "、".join(name for name in failed if name not in order)
        raise ScoringError(
            "bad_request",
            "shaopai_some_placed",
            f"烧牌失败的人要么都写进 order，要么都不写；order 里缺 {absent}",
            names=[name for name in failed if name not in order],
        )
    if failed_in_order and order != ranking:
        expected = "、".join(ranking)
        raise ScoringError(
            "inconsistent", "shaopai_order", f"烧牌失败的人从大落往上排，order 应为 {expected}", order=ranking
        )
    missing = [name for name in seats if name not in ranking and name not in geming]
    if missing:
        raise ScoringError(
            "bad_request",
            "order_missing",
            f"order 里缺少 {'、'.join(missing)}（革命的人写进 geming，烧牌失败写进 shaopai_failed）",
            names=missing,
        )
    return ranking


def _no_duplicates(names: list[str], field: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ScoringError("bad_request", "name_twice", f"{field} 里 {name} 出现了两次", field=field, who=name)
        seen.add(name)


def _seated(names: list[str], seats: list[str], field: str) -> list[str]:
    _no_duplicates(names, field)
    for name in names:
        if name not in seats:
            raise ScoringError("bad_request", "not_seated", f"{field} 里的 {name} 不在 seats 里", field=field, who=name)
    return names
