"""够级: places, team points, 串三户, 烧牌失败, 革命 and the money between 对头 (shared/rules/gouji.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.scoring import ScoringError, gouji

SEATS = ["A", "B", "C", "D", "E", "F"]  # A, C, E one team (odd seats); B, D, F the other; A–D, B–E, C–F 对头


def score(**fields: Any) -> dict[str, Any]:
    request: dict[str, Any] = {"game": "gouji", "stake": 100, "seats": SEATS, "geming": [], "shaopai_failed": []}
    request.update(fields)
    return gouji.answer(request)


def refusal(**fields: Any) -> ScoringError:
    with pytest.raises(ScoringError) as caught:
        score(**fields)
    return caught.value


def test_contract_example_places_and_zero_team_sums() -> None:
    out = score(order=["A", "D", "C", "F", "B", "E"])
    assert out["ok"] is True and out["void"] is False
    assert out["places"] == {"A": "头科", "D": "二科", "C": "三科", "F": "四科", "B": "二落", "E": "大落"}
    assert out["points"] == {"A": 4, "B": -2, "C": 0, "D": 2, "E": -4, "F": 0}
    # A+C+E = 4+0-4 = 0 and B+D+F = -2+2+0 = 0: nobody scores, nobody pays
    assert out["team_points"] == dict.fromkeys(SEATS, 0)
    assert out["transfers"] == [] and set(out["net"].values()) == {0}


def test_chuansanhu_scores_twelve_and_each_member_is_paid_by_their_duitou() -> None:
    out = score(order=["A", "C", "E", "B", "D", "F"])
    assert out["chuansanhu"] is True
    assert out["team_points"] == {"A": 12, "B": 0, "C": 12, "D": 0, "E": 12, "F": 0}
    assert out["transfers"] == [
        {"from": "D", "to": "A", "amount": 1200, "reason": "gouji_chuansanhu", "event": 0},
        {"from": "F", "to": "C", "amount": 1200, "reason": "gouji_chuansanhu", "event": 0},
        {"from": "B", "to": "E", "amount": 1200, "reason": "gouji_chuansanhu", "event": 0},
    ]
    assert out["net"] == {"A": 1200, "B": -1200, "C": 1200, "D": -1200, "E": 1200, "F": -1200}


def test_only_the_positive_team_scores() -> None:
    out = score(order=["A", "B", "C", "F", "D", "E"])
    # A+C+E = 4+0-4 = 0 and B+D+F = 2-2+0 = 0: a tie scores nothing
    assert out["team_points"] == dict.fromkeys(SEATS, 0)
    out = score(order=["A", "B", "E", "C", "D", "F"])
    # A+C+E = 4+0+0 = 4; B+D+F = 2-2-4 = -4 → only A, C, E score 4
    assert out["team_points"] == {"A": 4, "B": 0, "C": 4, "D": 0, "E": 4, "F": 0}
    assert out["chuansanhu"] is False
    assert [(t["from"], t["to"], t["amount"], t["reason"]) for t in out["transfers"]] == [
        ("D", "A", 400, "gouji"),
        ("F", "C", 400, "gouji"),
        ("B", "E", 400, "gouji"),
    ]


def test_first_failed_burn_is_daluo_second_erluo() -> None:
    out = score(order=["B", "A", "D", "C"], shaopai_failed=["E", "F"])
    assert out["places"] == {"B": "头科", "A": "二科", "D": "三科", "C": "四科", "F": "二落", "E": "大落"}
    # A+C+E = 2+0-4 = -2; B+D+F = 4+0-2 = 2
    assert out["team_points"] == {"A": 0, "B": 2, "C": 0, "D": 2, "E": 0, "F": 2}


def test_failed_burns_may_be_listed_in_order_where_the_rule_puts_them() -> None:
    left_out = score(order=["B", "A", "D", "C"], shaopai_failed=["E", "F"])
    listed = score(order=["B", "A", "D", "C", "F", "E"], shaopai_failed=["E", "F"])
    assert listed == left_out


def test_failed_burn_listed_at_the_wrong_place_is_inconsistent() -> None:
    err = refusal(order=["E", "B", "A", "D", "C", "F"], shaopai_failed=["E"])
    assert err.code == "inconsistent" and "大落" in err.message


def test_third_failed_burn_takes_sike() -> None:
    out = score(order=["A", "B", "C"], shaopai_failed=["D", "E", "F"])
    assert out["places"]["F"] == "四科" and out["places"]["E"] == "二落" and out["places"]["D"] == "大落"


def test_geming_counts_as_sike() -> None:
    out = score(order=["A", "B", "C", "E", "D"], geming=["F"])
    assert out["places"]["F"] == "四科"
    assert out["places"] == {"A": "头科", "B": "二科", "C": "三科", "F": "四科", "E": "二落", "D": "大落"}


def test_geming_is_sanke_when_teammates_take_touke_and_erke_and_that_is_chuansanhu() -> None:
    out = score(order=["C", "A", "B", "D", "F"], geming=["E"])
    assert out["places"]["E"] == "三科"
    assert out["places"] == {"C": "头科", "A": "二科", "E": "三科", "B": "四科", "D": "二落", "F": "大落"}
    assert out["chuansanhu"] is True
    assert out["team_points"] == {"A": 12, "B": 0, "C": 12, "D": 0, "E": 12, "F": 0}
    assert out["net"]["E"] == 1200 and out["net"]["B"] == -1200  # E's 对头 B pays E too


def test_geming_does_not_stop_the_other_team_chuansanhu() -> None:
    out = score(order=["B", "D", "F", "A", "C"], geming=["E"])
    assert out["places"]["E"] == "四科"
    assert out["chuansanhu"] is True
    assert out["team_points"]["B"] == 12 and out["team_points"]["E"] == 0


def test_two_geming_void_the_round() -> None:
    out = score(order=[], geming=["A", "D"])
    assert out["ok"] is True and out["void"] is True
    assert out["transfers"] == [] and out["net"] == dict.fromkeys(SEATS, 0)
    assert out["team_points"] == dict.fromkeys(SEATS, 0)


def test_stake_zero_keeps_points_without_money() -> None:
    out = score(stake=0, order=["A", "C", "E", "B", "D", "F"])
    assert out["team_points"]["A"] == 12 and out["transfers"] == []


def test_stake_250_is_exact() -> None:
    out = score(stake=250, order=["A", "C", "E", "B", "D", "F"])
    assert {t["amount"] for t in out["transfers"]} == {3000}


@pytest.mark.parametrize(
    ("fields", "code", "needle"),
    [
        ({"seats": SEATS[:5], "order": SEATS[:5]}, "bad_request", "6 个座位"),
        ({"seats": ["A", "B", "C", "D", "E", "A"], "order": SEATS}, "bad_request", "两次"),
        ({"order": ["A", "B", "C", "D", "E", "E"]}, "bad_request", "两次"),
        ({"order": ["A", "B", "C", "D", "E", "X"]}, "bad_request", "X"),
        ({"order": ["A", "B", "C", "D", "E"]}, "bad_request", "缺少 F"),
        ({"order": SEATS, "geming": ["F"]}, "bad_request", "geming"),
        ({"order": ["A", "B", "C", "D"], "geming": ["E"], "shaopai_failed": ["E", "F"]}, "bad_request", "革命"),
        ({"order": SEATS, "stake": 2.5}, "bad_request", "整数"),
        ({"order": SEATS, "stake": True}, "bad_request", "stake"),
        ({"order": SEATS, "stake": -1}, "bad_request", "stake"),
        ({"order": SEATS, "stake": "100"}, "bad_request", "stake"),
        ({"order": SEATS, "table": 1}, "bad_request", "table"),
        ({"order": "ABCDEF"}, "bad_request", "order"),
        ({"order": SEATS, "rules": {"preset": "weifang"}}, "bad_request", "weifang"),
        ({"order": SEATS, "rules": {"double": True}}, "bad_request", "double"),
    ],
)
def test_bad_requests_are_refused_with_a_message_naming_the_problem(
    fields: dict[str, Any], code: str, needle: str
) -> None:
    err = refusal(**fields)
    assert err.code == code and needle in err.message


def test_missing_order_is_refused() -> None:
    with pytest.raises(ScoringError) as caught:
        gouji.answer({"game": "gouji", "stake": 1, "seats": SEATS})
    assert caught.value.code == "bad_request" and "order" in caught.value.message


def test_integral_float_stake_is_accepted() -> None:
    assert score(stake=100.0, order=["A", "C", "E", "B", "D", "F"])["transfers"][0]["amount"] == 1200


# -- properties ----------------------------------------------------------------------------------------------


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    """A random valid round: a finishing order, at most one 革命, some failed burns (left out of order)."""
    players = draw(st.permutations(SEATS))
    geming = players[:1] if draw(st.booleans()) else []
    rest = [p for p in players if p not in geming]
    n_failed = draw(st.integers(0, len(rest)))
    return {"order": rest[n_failed:], "geming": geming, "shaopai_failed": rest[:n_failed]}


@given(rounds(), st.integers(0, 10_000))
def test_money_is_zero_sum_and_only_one_team_scores(round_: dict[str, Any], stake: int) -> None:
    out = score(stake=stake, **round_)
    assert sum(out["net"].values()) == 0
    assert sum(out["points"].values()) == 0
    assert sorted(out["places"].values()) == sorted(name for name, _ in gouji.PLACES)
    scoring = {p for p, v in out["team_points"].items() if v}
    assert scoring in (set(), {"A", "C", "E"}, {"B", "D", "F"})
    for t in out["transfers"]:
        assert t["to"] in scoring and t["from"] == gouji.duitou(SEATS, t["to"])
        assert t["amount"] == out["team_points"][t["to"]] * stake
    assert out["chuansanhu"] == (12 in out["team_points"].values())


@given(rounds(), st.integers(1, 1000))
def test_amounts_are_linear_in_the_stake(round_: dict[str, Any], k: int) -> None:
    one = score(stake=1, **round_)
    many = score(stake=k, **round_)
    assert [t["amount"] * k for t in one["transfers"]] == [t["amount"] for t in many["transfers"]]


@given(rounds(), st.permutations(["u", "v", "w", "x", "y", "z"]))
def test_renaming_players_renames_the_answer(round_: dict[str, Any], names: list[str]) -> None:
    rename = dict(zip(SEATS, names, strict=True))
    out = score(**round_)
    renamed = score(
        seats=[rename[s] for s in SEATS], **{key: [rename[p] for p in value] for key, value in round_.items()}
    )
    assert renamed["places"] == {rename[p]: place for p, place in out["places"].items()}
    assert renamed["net"] == {rename[p]: v for p, v in out["net"].items()}


@given(rounds(), st.integers(0, 5))
def test_rotating_the_seats_changes_nothing(round_: dict[str, Any], shift: int) -> None:
    """Teams and 对头 pairs survive a rotation of the table, so the result must too."""
    rotated = SEATS[shift:] + SEATS[:shift]
    assert score(seats=rotated, **round_)["net"] == score(**round_)["net"]


def test_paiju_score_answers_the_contract_example_on_stdout() -> None:
    request = {"game": "gouji", "stake": 100, "seats": SEATS, "order": ["A", "D", "C", "F", "B", "E"]}
    request |= {"geming": [], "shaopai_failed": []}
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "score"], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    out = json.loads(done.stdout)
    assert out["ok"] is True and out["places"]["A"] == "头科" and sum(out["net"].values()) == 0


def test_paiju_score_refuses_with_the_contract_error_shape() -> None:
    request = {"game": "gouji", "stake": 100, "seats": SEATS[:5], "order": SEATS[:5]}
    done = subprocess.run(
        [sys.executable, "-m", "paiju", "score"], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == {
        "ok": False,
        "error": {"code": "bad_request", "message": "够级需要 6 个座位，seats 里有 5 个"},
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)


@given(st.sampled_from(["stake", "seats", "order", "geming", "shaopai_failed", "rules", "extra"]), json_values)
def test_any_malformed_field_is_refused_never_crashes(field: str, value: Any) -> None:
    request = {"game": "gouji", "stake": 100, "seats": SEATS, "order": SEATS, field: value}
    try:
        out = gouji.answer(request)
    except ScoringError as err:
        assert err.code in {"bad_request", "inconsistent"} and err.message
    else:
        assert sum(out["net"].values()) == 0
