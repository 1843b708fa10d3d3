"""碰胡: every event paid as it happens, at the tier of the running 碰/扫 count (shared/rules/penghu.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.scoring import ScoringError, gouji, penghu

PLAYERS = ["A", "B", "C", "D"]
Event = dict[str, Any]


def hand(events: list[Event], *, stake: int = 1, dealer: str = "A", partial: bool = False) -> dict[str, Any]:
    request = {"game": "penghu", "stake": stake, "players": PLAYERS, "dealer": dealer, "events": events}
    return penghu.answer(request, partial=partial)


def refusal(events: list[Event], **kwargs: Any) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        hand(events, **kwargs)
    return caught.value


def peng(player: str, source: str | None = None) -> Event:
    return {"type": "peng", "player": player, "from": source}


def sao(player: str, *, at_deal: bool = False) -> Event:
    return {"type": "sao", "player": player, "at_deal": at_deal}


def tishe(player: str, *, at_deal: bool = False) -> Event:
    return {"type": "tishe", "player": player, "at_deal": at_deal}


def hu(player: str, source: str | None = None, **flags: bool) -> Event:
    return {"type": "hu", "player": player, "from": source, **flags}


def baojing(player: str) -> Event:
    return {"type": "baojing", "player": player}


DRAW: Event = {"type": "draw"}


def paid(out: dict[str, Any], event: int) -> list[tuple[str, str, int, str]]:
    """The transfers event `event` caused, as (from, to, amount, reason)."""
    return [(t["from"], t["to"], t["amount"], t["reason"]) for t in out["transfers"] if t["event"] == event]


def each_pays(winner: str, amount: int, reason: str) -> list[tuple[str, str, int, str]]:
    return [(p, winner, amount, reason) for p in PLAYERS if p != winner]


# -- the table, at stake 1 -------------------------------------------------------------------------------------


def test_peng_tiers_from_the_wall_1_1_5_5() -> None:
    out = hand([peng("B"), peng("B"), peng("B"), peng("B"), DRAW])
    assert [paid(out, i) for i in range(4)] == [
        each_pays("B", 1, "peng"),
        each_pays("B", 1, "peng"),
        each_pays("B", 5, "peng"),  # 三碰
        each_pays("B", 5, "peng"),  # 四清
    ]
    assert out["counts"]["B"] == {"peng": 4, "sao": 0}


def test_peng_from_a_discard_the_discarder_pays_3_3_15_15() -> None:
    out = hand([peng("B", "C"), peng("B", "D"), peng("B", "C"), peng("B", "A"), DRAW])
    assert [paid(out, i) for i in range(4)] == [
        [("C", "B", 3, "peng")],
        [("D", "B", 3, "peng")],
        [("C", "B", 15, "peng")],
        [("A", "B", 15, "peng")],
    ]


def test_sao_tiers_2_2_6_6_and_guosao_counts_as_sao() -> None:
    out = hand([sao("C"), {"type": "guosao", "player": "C"}, sao("C"), {"type": "guosao", "player": "C"}, DRAW])
    assert [paid(out, i) for i in range(4)] == [
        each_pays("C", 2, "sao"),
        each_pays("C", 2, "guosao"),
        each_pays("C", 6, "sao"),
        each_pays("C", 6, "guosao"),
    ]


def test_peng_and_sao_count_together() -> None:
    # 碰了二次，摸到一张牌有一对能扫，即算三扫; 扫了二次，对家打出一张牌能碰，即算三碰
    out = hand([peng("B"), peng("B"), sao("B"), DRAW])
    assert paid(out, 2) == each_pays("B", 6, "sao")
    out = hand([sao("B"), sao("B"), peng("B", "D"), DRAW])
    assert paid(out, 2) == [("D", "B", 15, "peng")]


@pytest.mark.parametrize(
    ("before", "each"),
    [
        ([], 4),  # 胡
        ([peng("B")], 5),  # 碰一次并胡 (4+1)
        ([peng("B"), peng("B")], 5),
        ([peng("B")] * 3, 9),  # 碰三次并胡 (4+5)
        ([peng("B")] * 4, 9),
        ([sao("B")], 6),  # 扫一次并胡 (4+2)
        ([sao("B")] * 2, 6),
        ([sao("B")] * 3, 10),  # 扫三次并胡 (6+4)
        ([sao("B")] * 4, 10),
    ],
)
def test_win_pays_4_plus_the_tier_of_the_winners_latest_peng_or_sao(before: list[Event], each: int) -> None:
    from_wall = hand([*before, hu("B")])
    assert paid(from_wall, len(before)) == each_pays("B", each, "hu")
    on_discard = hand([*before, hu("B", "D")])
    assert paid(on_discard, len(before)) == [("D", "B", 3 * each, "hu")]


def test_seed_win_rows_one_pays_12_15_27() -> None:
    assert paid(hand([hu("B", "C")]), 0) == [("C", "B", 12, "hu")]
    assert paid(hand([peng("B"), hu("B", "C")]), 1) == [("C", "B", 15, "hu")]
    assert paid(hand([peng("B"), peng("B"), peng("B"), hu("B", "C")]), 3) == [("C", "B", 27, "hu")]


@pytest.mark.parametrize(
    ("before", "each"),
    [
        ([], 8),  # 中庄
        ([peng("A")], 9),  # 8+1
        ([peng("A")] * 3, 13),  # 8+5
        ([sao("A")], 10),  # 8+2
        ([sao("A")] * 3, 14),  # 8+6
    ],
)
def test_zhongzhuang_pays_8_plus_the_tier(before: list[Event], each: int) -> None:
    out = hand([*before, hu("A", zhongzhuang=True)])
    assert paid(out, len(before)) == each_pays("A", each, "zhongzhuang")
    out = hand([*before, hu("A", "C", zhongzhuang=True)])
    assert paid(out, len(before)) == [("C", "A", 3 * each, "zhongzhuang")]  # 24, 27, 39 …


def test_only_the_dealer_can_zhongzhuang() -> None:
    err = refusal([hu("B", zhongzhuang=True)])
    assert err.code == "inconsistent" and "庄家" in err.message


def test_paoqi_12_paoqi_hu_24_paoqi_zhongzhuang_36() -> None:
    out = hand([peng("B", "C"), {"type": "paoqi", "player": "B", "from": "C"}, DRAW])
    assert paid(out, 1) == [("C", "B", 12, "paoqi")]
    out = hand([sao("B"), hu("B", "D", paoqi=True)])
    assert paid(out, 1) == [("D", "B", 24, "paoqi_hu")]
    out = hand([sao("A"), sao("A"), sao("A"), hu("A", "D", paoqi=True, zhongzhuang=True)])
    assert paid(out, 3) == [("D", "A", 36, "paoqi_zhongzhuang")]


def test_paoqi_needs_a_peng_or_sao_and_a_discarder() -> None:
    assert refusal([{"type": "paoqi", "player": "B", "from": "C"}]).code == "inconsistent"
    assert refusal([peng("B"), {"type": "paoqi", "player": "B", "from": None}]).code == "bad_request"
    assert refusal([peng("B"), hu("B", None, paoqi=True)]).code == "inconsistent"


def test_tishe_during_play_10_each_every_time() -> None:
    out = hand([tishe("D"), tishe("D"), DRAW])
    assert paid(out, 0) == paid(out, 1) == each_pays("D", 10, "tishe")
    assert out["counts"]["D"] == {"peng": 0, "sao": 0}  # 提蛇 does not advance the 碰/扫 count


def test_wufu_after_baojing_40_each_or_120_from_the_discarder() -> None:
    four = [peng("B"), sao("B"), peng("B"), sao("B"), baojing("B")]
    out = hand([*four, {"type": "wufu", "player": "B", "from": None}])
    assert paid(out, 5) == each_pays("B", 40, "wufu")
    assert out["winner"] == "B" and out["baojing"] == ["B"]
    out = hand([*four, {"type": "wufu", "player": "B", "from": "A"}])
    assert paid(out, 5) == [("A", "B", 120, "wufu")]


def test_wufu_without_baojing_is_inconsistent() -> None:
    err = refusal([peng("B"), peng("B"), peng("B"), peng("B"), {"type": "wufu", "player": "B"}])
    assert err.code == "inconsistent" and "报警" in err.message


def test_a_fifth_peng_or_sao_is_only_ever_wufu() -> None:
    err = refusal([peng("B"), peng("B"), sao("B"), peng("B"), peng("B")])
    assert err.code == "inconsistent" and "五福" in err.message
    err = refusal([peng("B"), peng("B"), peng("B"), peng("B"), baojing("B"), sao("B")])
    assert err.code == "inconsistent" and "wufu" in err.message


def test_baojing_only_after_the_fourth() -> None:
    assert refusal([peng("B"), baojing("B")]).code == "inconsistent"
    assert refusal([*[peng("B")] * 4, baojing("B"), baojing("B")]).code == "inconsistent"


# -- the deal ------------------------------------------------------------------------------------------------


def deal_net(events: list[Event]) -> dict[str, int]:
    out = hand(events, partial=True)
    assert out["finished"] is False
    return dict(out["net"])


def test_one_qishou_sao_2_each_two_4_each() -> None:
    assert deal_net([sao("A", at_deal=True)]) == {"A": 6, "B": -2, "C": -2, "D": -2}
    assert deal_net([sao("A", at_deal=True), sao("A", at_deal=True)]) == {"A": 12, "B": -4, "C": -4, "D": -4}


def test_qishou_tishe_10_each() -> None:
    out = hand([tishe("B", at_deal=True), DRAW])
    assert paid(out, 0) == each_pays("B", 10, "qishou_tishe")


def test_two_holders_the_other_two_pay_4_each() -> None:
    assert deal_net([sao("A", at_deal=True), sao("B", at_deal=True)]) == {"A": 4, "B": 4, "C": -4, "D": -4}


def test_three_holders_the_one_without_pays_each_2() -> None:
    net = deal_net([sao(p, at_deal=True) for p in "ABC"])
    assert net == {"A": 2, "B": 2, "C": 2, "D": -6}


def test_three_holders_one_twice_the_one_without_pays_that_one_8() -> None:
    events = [sao("A", at_deal=True), sao("A", at_deal=True), sao("B", at_deal=True), sao("C", at_deal=True)]
    assert deal_net(events) == {"A": 8, "B": 2, "C": 2, "D": -12}
    # the same deal recorded in another order settles the same
    assert deal_net(events[::-1]) == {"A": 8, "B": 2, "C": 2, "D": -12}


def test_all_four_hold_sao_nobody_pays() -> None:
    events = [sao(p, at_deal=True) for p in PLAYERS] + [sao("B", at_deal=True)]
    assert set(deal_net(events).values()) == {0}


def test_netting_gives_money_back_when_a_payer_turns_out_to_hold_a_sao() -> None:
    out = hand([sao("A", at_deal=True), sao("B", at_deal=True), DRAW])
    assert paid(out, 1) == [
        ("A", "B", 2, "qishou_sao_netting"),
        ("C", "B", 2, "qishou_sao"),
        ("D", "B", 2, "qishou_sao"),
    ]


def test_two_tishe_at_the_deal_win_40_each_and_void_deal_money() -> None:
    out = hand([sao("B", at_deal=True), tishe("A", at_deal=True), tishe("A", at_deal=True)])
    assert out["finished"] is True and out["winner"] == "A" and out["next_dealer"] == "A"
    assert [t for t in paid(out, 2) if t[3] == "shuang_tishe"] == each_pays("A", 40, "shuang_tishe")
    assert out["net"] == {"A": 120, "B": -40, "C": -40, "D": -40}


def test_tianhu_10_each_and_voids_every_deal_time_sao_and_tishe() -> None:
    out = hand([sao("A", at_deal=True), tishe("B", at_deal=True), {"type": "tianhu", "player": "C"}])
    assert out["net"] == {"A": -10, "B": -10, "C": 30, "D": -10}
    reasons = Counter(t[3] for t in paid(out, 2))
    assert reasons["tianhu"] == 3 and reasons["qishou_void"] > 0


def test_xiaoqidui_40_each_and_the_dealer_needs_a_sao() -> None:
    out = hand([{"type": "xiaoqidui", "player": "B"}])
    assert out["net"] == {"A": -40, "B": 120, "C": -40, "D": -40}
    err = refusal([{"type": "xiaoqidui", "player": "A"}])
    assert err.code == "inconsistent" and "扫" in err.message
    out = hand([sao("A", at_deal=True), {"type": "xiaoqidui", "player": "A"}])
    assert out["net"] == {"A": 120, "B": -40, "C": -40, "D": -40}  # the 扫 itself is void


def test_dihu_the_dealer_alone_pays_24() -> None:
    out = hand([{"type": "dihu", "player": "C"}])
    assert paid(out, 0) == [("A", "C", 24, "dihu")]
    assert refusal([{"type": "dihu", "player": "A"}]).code == "inconsistent"
    assert refusal([{"type": "dihu", "player": "C", "from": "B"}]).code == "inconsistent"


@pytest.mark.parametrize("win", [{"type": "tianhu", "player": "C"}, {"type": "dihu", "player": "C"}])
def test_wins_at_the_deal_are_refused_after_play_began(win: Event) -> None:
    assert refusal([peng("B"), win]).code == "inconsistent"


def test_a_deal_time_sao_recorded_late_is_still_netted() -> None:
    """The contract's example records A's deal-time 扫 after B's 碰."""
    out = hand([peng("B", "C"), sao("A", at_deal=True), hu("B")])
    assert paid(out, 0) == [("C", "B", 3, "peng")]
    assert paid(out, 1) == each_pays("A", 2, "qishou_sao")
    assert paid(out, 2) == each_pays("B", 5, "hu")
    assert out["net"] == {"A": 1, "B": 16, "C": -10, "D": -7}


# -- stakes ----------------------------------------------------------------------------------------------------


def test_five_fen_stake_peng_5_each_sanpeng_25_each() -> None:
    out = hand([peng("B"), peng("B"), peng("B"), peng("B", "C"), DRAW], stake=5)
    assert paid(out, 0) == each_pays("B", 5, "peng")
    assert paid(out, 2) == each_pays("B", 25, "peng")
    assert paid(out, 3) == [("C", "B", 75, "peng")]  # 15 × 5 (the seed's "25×5=125" is read as a slip)


def test_stake_250_is_exact() -> None:
    out = hand([peng("B"), hu("B", "C")], stake=250)
    assert paid(out, 0) == each_pays("B", 250, "peng")
    assert paid(out, 1) == [("C", "B", 3750, "hu")]


@pytest.mark.parametrize("stake", [2.5, 0, -5, "5", None, True])
def test_a_stake_that_is_not_a_whole_number_of_fen_is_refused(stake: Any) -> None:
    err = refusal([DRAW], stake=stake)
    assert err.code == "bad_request" and "stake" in err.message


_JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=10**6),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-10, max_value=10**6),
    st.text(max_size=3),
    st.lists(st.integers(), max_size=2),
)


@given(stake=_JSON_VALUES, rules=st.one_of(st.none(), st.just({}), st.dictionaries(st.text(max_size=6), _JSON_VALUES)))
@settings(max_examples=200)
def test_gouji_and_penghu_judge_stake_and_rules_alike(stake: Any, rules: Any) -> None:
    """Both games read the stake and the rules with the same shared checks: the same verdict, the same message
    (except that 碰胡 needs a stake of at least 1 where 够级 accepts 0)."""
    seats = ["A", "B", "C", "D", "E", "F"]
    requests = {
        "gouji": {"game": "gouji", "stake": stake, "seats": seats, "order": seats, "rules": rules},
        "penghu": {
            "game": "penghu",
            "stake": stake,
            "players": PLAYERS,
            "dealer": "A",
            "events": [DRAW],
            "rules": rules,
        },
    }
    verdicts: dict[str, str] = {}
    for game, request in requests.items():
        answer = gouji.answer if game == "gouji" else penghu.answer
        try:
            answer(request)
            verdicts[game] = "ok"
        except ScoringError as err:
            verdicts[game] = f"{err.code}: {err.message}"
    # The one difference is the smallest stake: 够级 accepts 0 (a points-only round), 碰胡 needs 1; so the same
    # verdict and message once each game's minimum is named alike.
    if verdicts["gouji"] == "ok" and verdicts["penghu"].startswith("bad_request: stake 不能小于 1"):
        assert int(stake) == 0
    else:
        minimum_named_alike = verdicts["gouji"].replace("不能小于 0", "不能小于 MIN")
        assert minimum_named_alike == verdicts["penghu"].replace("不能小于 1", "不能小于 MIN")


# -- hands, partial, errors ----------------------------------------------------------------------------------


def test_partial_hand_returns_money_so_far_and_counts() -> None:
    out = hand([peng("B", "C"), sao("B")], partial=True)
    assert out["finished"] is False and "next_dealer" not in out
    assert out["counts"]["B"] == {"peng": 1, "sao": 1}
    assert out["net"] == {"A": -2, "B": 9, "C": -5, "D": -2}


def test_unfinished_hand_is_refused_without_partial() -> None:
    err = refusal([peng("B", "C")])
    assert err.code == "inconsistent" and "还没有结束" in err.message


def test_draw_ends_a_hand_and_the_dealer_stays() -> None:
    out = hand([peng("B"), DRAW], dealer="C")
    assert out["finished"] is True and out["winner"] is None and out["next_dealer"] == "C"


def test_events_after_the_win_are_inconsistent() -> None:
    err = refusal([hu("B"), peng("C")])
    assert err.code == "inconsistent" and "结束" in err.message


@pytest.mark.parametrize(
    ("request_fields", "code", "needle"),
    [
        ({"players": ["A", "B", "C"]}, "bad_request", "4 个玩家"),
        ({"players": ["A", "B", "C", "C"]}, "bad_request", "重复"),
        ({"dealer": "Z"}, "bad_request", "Z"),
        ({"events": {"type": "draw"}}, "bad_request", "events"),
        ({"events": [{"type": "gang", "player": "A"}]}, "bad_request", "gang"),
        ({"events": [{"type": "peng", "player": "Q"}]}, "bad_request", "Q"),
        ({"events": [{"type": "peng", "player": "A", "from": "Q"}]}, "bad_request", "Q"),
        ({"events": [{"type": "peng", "player": "A", "tile": "三"}]}, "bad_request", "tile"),
        ({"events": [{"type": "sao", "player": "A", "at_deal": "yes"}]}, "bad_request", "at_deal"),
        ({"events": [{"type": "peng", "player": "A", "at_deal": True}]}, "bad_request", "at_deal"),
        ({"events": ["peng"]}, "bad_request", "events[0]"),
        ({"events": [{"type": "sao", "player": "A", "from": "B"}]}, "inconsistent", "from"),
        ({"events": [{"type": "peng", "player": "A", "from": "A"}]}, "inconsistent", "自己"),
        ({"extra": 1}, "bad_request", "extra"),
        ({"rules": "fast"}, "bad_request", "rules"),
    ],
)
def test_bad_requests_are_refused_naming_the_problem(request_fields: dict[str, Any], code: str, needle: str) -> None:
    request: dict[str, Any] = {"game": "penghu", "stake": 1, "players": PLAYERS, "dealer": "A", "events": [DRAW]}
    request.update(request_fields)
    with pytest.raises(ScoringError) as caught:
        penghu.answer(request)
    assert caught.value.code == code and needle in caught.value.message


def test_a_third_qishou_sao_must_be_recorded_as_tishe() -> None:
    err = refusal([sao("A", at_deal=True)] * 3)
    assert err.code == "inconsistent" and "tishe" in err.message


# -- properties ----------------------------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn) -> list[Event]:
    """A random hand the rules allow: a deal, play events within the 碰/扫 limits, and (usually) an ending."""
    counts = dict.fromkeys(PLAYERS, 0)
    qishou = dict.fromkeys(PLAYERS, 0)
    alarmed: set[str] = set()
    events: list[Event] = []
    for player in PLAYERS:
        for _ in range(draw(st.integers(0, 2))):
            events.append(sao(player, at_deal=True))
            counts[player] += 1
            qishou[player] += 1
        if draw(st.integers(0, 4)) == 0:
            events.append(tishe(player, at_deal=True))
    for _ in range(draw(st.integers(0, 14))):
        player = draw(st.sampled_from(PLAYERS))
        source = draw(st.sampled_from([None, *(p for p in PLAYERS if p != player)]))
        kind = draw(st.sampled_from(["peng", "sao", "guosao", "tishe", "paoqi", "baojing", "late_qishou_sao"]))
        if kind == "late_qishou_sao" and qishou[player] < 2 and counts[player] < 4 and player not in alarmed:
            qishou[player] += 1  # a deal-time 扫 remembered after play began
            counts[player] += 1
            events.append(sao(player, at_deal=True))
        elif kind in {"peng", "sao", "guosao"} and counts[player] < 4 and player not in alarmed:
            counts[player] += 1
            events.append(peng(player, source) if kind == "peng" else {"type": kind, "player": player})
        elif kind == "tishe":
            events.append(tishe(player))
        elif kind == "paoqi" and counts[player] and source is not None:
            events.append({"type": "paoqi", "player": player, "from": source})
        elif kind == "baojing" and counts[player] == 4 and player not in alarmed:
            alarmed.add(player)
            events.append(baojing(player))
    endings = ["hu", "wufu", "draw", "open"]
    if all(e.get("at_deal") for e in events):  # nothing played yet: the hand may still be won at the deal
        endings += ["tianhu", "xiaoqidui", "dihu", "shuang_tishe"]
    ending = draw(st.sampled_from(endings))
    player = draw(st.sampled_from(PLAYERS))
    source = draw(st.sampled_from([None, *(p for p in PLAYERS if p != player)]))
    has_deal_tishe = tishe(player, at_deal=True) in events
    if ending == "tianhu" or (ending == "xiaoqidui" and (player != "A" or sao("A", at_deal=True) in events)):
        events.append({"type": ending, "player": player})
    elif ending == "dihu" and player != "A":
        events.append({"type": "dihu", "player": player})
    elif ending == "shuang_tishe":
        events.extend([tishe(player, at_deal=True)] * (1 if has_deal_tishe else 2))
    elif ending == "wufu" and player in alarmed:
        events.append({"type": "wufu", "player": player, "from": source})
    elif ending == "hu":
        paoqi = counts[player] > 0 and source is not None and draw(st.booleans())
        events.append(hu(player, source, zhongzhuang=player == "A" and draw(st.booleans()), paoqi=paoqi))
    elif ending == "draw":
        events.append(DRAW)
    return events


@given(hands(), st.integers(1, 2_000))
def test_every_hand_is_zero_sum_in_whole_positive_amounts(events: list[Event], stake: int) -> None:
    out = hand(events, stake=stake, partial=True)
    assert sum(out["net"].values()) == 0
    for t in out["transfers"]:
        assert isinstance(t["amount"], int) and t["amount"] > 0 and t["amount"] % stake == 0
        assert t["from"] != t["to"] and 0 <= t["event"] < len(events)


@given(hands(), st.integers(2, 1_000))
def test_amounts_are_linear_in_the_stake(events: list[Event], k: int) -> None:
    one = hand(events, stake=1, partial=True)["transfers"]
    many = hand(events, stake=k, partial=True)["transfers"]
    assert [{**t, "amount": t["amount"] * k} for t in one] == many


@settings(max_examples=60)
@given(hands())
def test_money_of_a_prefix_is_a_prefix_of_the_money(events: list[Event]) -> None:
    """What the ledger booked event by event is never rewritten by a later event."""
    full = hand(events, partial=True)["transfers"]
    for n in range(len(events) + 1):
        so_far = hand(events[:n], partial=True)["transfers"]
        assert so_far == [t for t in full if t["event"] < n]


@given(hands(), st.permutations(["w", "x", "y", "z"]))
def test_renaming_players_renames_the_money(events: list[Event], names: list[str]) -> None:
    rename = dict(zip(PLAYERS, names, strict=True))

    def renamed(event: Event) -> Event:
        return {k: rename[v] if k in {"player", "from"} and v is not None else v for k, v in event.items()}

    out = hand(events, partial=True)
    request = {"game": "penghu", "stake": 1, "players": names, "dealer": rename["A"]}
    other = penghu.answer({**request, "events": [renamed(e) for e in events]}, partial=True)
    assert other["net"] == {rename[p]: v for p, v in out["net"].items()}


@given(hands())
def test_deal_time_sao_holders_never_pay_for_each_other(events: list[Event]) -> None:
    deal = [e for e in events if e.get("at_deal") and e["type"] == "sao"]
    out = hand(deal, partial=True)
    holders = {e["player"] for e in deal}
    for player, net in out["net"].items():
        assert net >= 0 if player in holders else net <= 0


def test_paiju_score_answers_the_contract_example() -> None:
    request = {
        "game": "penghu",
        "stake": 100,
        "players": PLAYERS,
        "dealer": "A",
        "events": [peng("B", "C"), sao("A", at_deal=True), hu("B", None, zhongzhuang=False)],
    }
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "score"], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    out = json.loads(done.stdout)
    assert out["ok"] is True
    assert out["net"] == {"A": 100, "B": 1600, "C": -1000, "D": -700}
    assert {t["event"] for t in out["transfers"]} == {0, 1, 2}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3) | st.sampled_from(PLAYERS),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
event_keys = st.sampled_from(["type", "player", "from", "at_deal", "zhongzhuang", "paoqi", "x"])


@given(
    st.lists(
        st.dictionaries(event_keys, json_values | st.sampled_from(list(penghu.EVENT_FIELDS)), max_size=4) | json_values,
        max_size=5,
    ),
    json_values,
    st.booleans(),
)
def test_any_malformed_hand_is_refused_never_crashes(events: list[Any], dealer: Any, partial: bool) -> None:
    request = {"game": "penghu", "stake": 1, "players": PLAYERS, "dealer": dealer, "events": events}
    try:
        out = penghu.answer(request, partial=partial)
    except ScoringError as err:
        assert err.code in {"bad_request", "inconsistent"} and err.message
    else:
        assert sum(out["net"].values()) == 0


@given(st.lists(st.sampled_from(PLAYERS), max_size=8), st.randoms())
def test_deal_time_netting_does_not_depend_on_the_order_recorded(holders: list[str], rnd: Any) -> None:
    events = [sao(p, at_deal=True) for p in PLAYERS for _ in range(min(2, holders.count(p)))]
    shuffled = events[:]
    rnd.shuffle(shuffled)
    assert hand(shuffled, partial=True)["net"] == hand(events, partial=True)["net"]


@given(hands())
def test_every_reason_paid_has_a_chinese_name(events: list[Event]) -> None:
    """A reason reaches players (明细) by the name the core gives it: none is ever shown as its key."""
    for t in hand(events, partial=True)["transfers"]:
        assert t["reason"] in penghu.REASON_ZH
