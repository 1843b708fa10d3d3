"""Report numbers equal independent sums over the ledger, on nights generated through the real service.

Expected counts come from what the test recorded (the plan) and the scoring core asked directly; expected money
from plain Python sums over the ledger's transfer rows, and from the ledger's own balance queries.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import models as m
from ledger.export import export_scope
from ledger.scope import all_time_scope, month_scope, night_date_of, night_scope, week_scope
from ledger.service import Ledger, LedgerError
from ledger.stats import KONG_REASONS, group_stats, head_to_head, reading, running_balance
from tests.reports.playing import Played, Step, expected_answer, nights, play

_chats = itertools.count(-1_000_001, -1)
START = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)  # 20:00 in Hubei; each example's group starts then
SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def live_transfers(ledger: Ledger, played: Played) -> list[m.Transfer]:
    with reading(ledger.engine) as session:
        group = session.scalars(sa.select(m.Group).where(m.Group.chat_id == played.chat_id)).one()
        live = sa.select(m.Transfer).where(m.Transfer.group_id == group.id, m.Transfer.voided_at.is_(None))
        return list(session.scalars(live))


def night_filter(ledger: Ledger, night_id: int) -> Callable[[m.Transfer], bool]:
    """The ledger's rule for a night: its tables' transfers, and others booked while it was open."""
    with reading(ledger.engine) as session:
        night = session.get_one(m.Night, night_id)
        tables = set(session.scalars(sa.select(m.GameTable.id).where(m.GameTable.night_id == night_id)))

    def belongs(transfer: m.Transfer) -> bool:
        if transfer.table_id is not None:
            return transfer.table_id in tables
        return night.started_at <= transfer.created_at and (
            night.ended_at is None or transfer.created_at < night.ended_at
        )

    return belongs


def expected_counts(played: Played, night_id: int | None) -> dict[str, Any]:
    """Wins, 自摸, 点炮, multiples and patterns per member, from the recorded events and a fresh scoring answer."""
    by_member: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"wins": 0, "self_draws": 0, "discards": 0, "multiples": [], "patterns": Counter()}
    )
    hands = [(n, events) for n, events, _ in played.hands if night_id is None or n == night_id]
    seats = list(played.member_ids)
    for _, events in hands:
        answer = expected_answer(events, seats)
        assert answer["ok"], answer
        entries = {entry["winner"]: entry for entry in answer["hands"]}
        for discarder in {event["from"] for event in events if event["type"] == "hu" and "from" in event}:
            by_member[played.member_ids[discarder]]["discards"] += 1  # 一炮双响: one discard, one 点炮
        for event in events:
            if event["type"] != "hu":
                continue
            winner = by_member[played.member_ids[event["winner"]]]
            winner["wins"] += 1
            winner["self_draws"] += event["method"] == "self_draw"
            winner["multiples"].append(entries[event["winner"]]["final_multiplier"])
            winner["patterns"].update({p["key"] for p in entries[event["winner"]]["patterns"]})
    return {"hands": len(hands), "members": by_member}


def check_scope(ledger: Ledger, played: Played, night_id: int | None, scope: Any) -> None:
    with reading(ledger.engine) as session:
        stats = group_stats(session, scope)
    expected = expected_counts(played, night_id)
    assert stats.hands == expected["hands"]
    belongs = night_filter(ledger, night_id) if night_id is not None else None
    transfers = [t for t in live_transfers(ledger, played) if belongs is None or belongs(t)]
    net: Counter[int] = Counter()
    kong: Counter[int] = Counter()
    fines: Counter[int] = Counter()
    play: Counter[int] = Counter()  # the table's money alone: what 排行 ranks
    for t in transfers:
        net[t.payer_id] -= t.amount
        net[t.payee_id] += t.amount
        if t.kind == m.HAND and t.reason in KONG_REASONS:
            kong[t.payer_id] -= t.amount
            kong[t.payee_id] += t.amount
        if t.kind == m.FINE:
            fines[t.payer_id] += t.amount
        if t.kind == m.HAND:
            play[t.payer_id] -= t.amount
            play[t.payee_id] += t.amount
    if night_id is not None:
        ledger_night = ledger.night_balances(night_id)
    for seat, member_id in played.member_ids.items():
        line = stats.member(member_id)
        want = expected["members"][member_id]
        if line is None:
            assert expected["hands"] == 0 and not net[member_id], seat
            continue
        assert line.hands_played == expected["hands"]
        assert (line.wins, line.self_draws, line.discards_given) == (want["wins"], want["self_draws"], want["discards"])
        assert line.largest_multiplier == max(want["multiples"], default=0)
        assert line.multiplier_total == sum(want["multiples"])
        assert dict(line.patterns) == dict(want["patterns"])
        assert (line.net, line.kong_money, line.fines) == (net[member_id], kong[member_id], fines[member_id])
        assert line.play == play[member_id] and line.net == line.play - line.fines - line.fees + line.received
        if night_id is not None:
            assert line.net == ledger_night.of(member_id)
        if line.biggest is not None:
            assert line.biggest.final_multiplier == line.largest_multiplier
    assert stats.fines == sum(fines.values())
    assert stats.pot + sum(line.net for line in stats.members) == 0  # money moves, none appears


@SETTINGS
@given(plan=nights)
def test_night_numbers_equal_independent_sums(ledger: Ledger, clock: Any, plan: list[list[Step]]) -> None:
    clock.set(START)
    played = play(ledger, clock, next(_chats), plan)
    for night_id in played.nights:
        with reading(ledger.engine) as session:
            scope = night_scope(session, night_id)
        check_scope(ledger, played, night_id, scope)


@SETTINGS
@given(plan=nights)
def test_all_time_and_month_numbers_equal_independent_sums(ledger: Ledger, clock: Any, plan: list[list[Step]]) -> None:
    clock.set(START)
    played = play(ledger, clock, next(_chats), plan)
    with reading(ledger.engine) as session:
        group_id = session.scalars(sa.select(m.Group.id).where(m.Group.chat_id == played.chat_id)).one()
        month = month_scope(session, group_id, 2026, 1)  # the clock starts on 2026-01-10: at most 3 nights
    check_scope(ledger, played, None, all_time_scope(group_id))
    check_scope(ledger, played, None, month)
    balances = ledger.balances(played.chat_id)
    with reading(ledger.engine) as session:
        stats = group_stats(session, all_time_scope(group_id))
    for line in balances.lines:
        if line.kind == m.POT:
            assert stats.pot == line.amount
        else:
            found = stats.member(line.member_id)
            assert (found.net if found else 0) == line.amount


@SETTINGS
@given(plan=nights)
def test_running_balance_follows_each_hand(ledger: Ledger, clock: Any, plan: list[list[Step]]) -> None:
    clock.set(START)
    played = play(ledger, clock, next(_chats), plan)
    for night_id in played.nights:
        with reading(ledger.engine) as session:
            running = running_balance(session, night_id)
        answers = [answer for n, _, answer in played.hands if n == night_id]
        assert len(running.hands) == len(answers)
        for member_id, values in running.series.items():
            assert values[0] == 0 and len(values) == len(answers) + 1
            seat = next(s for s, i in played.member_ids.items() if i == member_id)
            steps = [after - before for before, after in itertools.pairwise(values)]
            assert steps == [answer["net"].get(seat, 0) for answer in answers]


def test_head_to_head_counts_who_paid_each_win(ledger: Ledger, clock: Any) -> None:
    # A wins on C's discard; B wins on A's discard; C self-draws (A and B both pay)
    played = play(ledger, clock, next(_chats), [[("hand", 0, 0), ("hand", 2, 0), ("hand", 3, 0)]])
    a, b, c = played.member_ids.values()
    with reading(ledger.engine) as session:
        h2h = head_to_head(session, night_scope(session, played.nights[0]))
    assert h2h.wins == {(a, c): 1, (b, a): 1, (c, a): 1, (c, b): 1}
    assert h2h.net[(a, c)] == 200 - 800  # A took 2元 from C, C's 清一色七对 self-draw took 8元 from A
    assert h2h.net[(c, a)] == -h2h.net[(a, c)]
    assert h2h.net[(b, a)] == 800 and h2h.net[(c, b)] == 800


def test_voided_hand_and_cancelled_fine_count_nowhere(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    played = play(ledger, clock, chat, [[("hand", 4, 0), ("undo",), ("fine", 0, 500), ("cancel_fine",)]])
    ((fine_member, _),) = played.fines
    assert not [t for t in live_transfers(ledger, played) if t.kind == m.FINE]
    with reading(ledger.engine) as session:
        stats = group_stats(session, night_scope(session, played.nights[0]))
    assert stats.hands == 0 and stats.wins == 0 and stats.fines == 0 and stats.pot == 0
    assert all(line.net == 0 and line.fines == 0 for line in stats.members)
    assert fine_member in played.member_ids.values()


def test_a_month_runs_from_cutoff_to_cutoff_in_the_groups_timezone(ledger: Ledger, clock: Any) -> None:
    """日切 6:00 in Asia/Shanghai: a hand at 03:00 on 1 February (local) belongs to 31 January's night."""
    clock.set(datetime(2026, 1, 31, 18, 56, tzinfo=UTC))  # 02:56 on 1 February in Hubei: 31 January's night
    played = play(ledger, clock, next(_chats), [[("hand", 0, 0)]])  # the hand closes at 03:00 local
    clock.set(datetime(2026, 1, 31, 19, 0, tzinfo=UTC))
    with reading(ledger.engine) as session:
        group_id = session.scalars(sa.select(m.Group.id).where(m.Group.chat_id == played.chat_id)).one()
        january = month_scope(session, group_id, 2026, 1)
        february = month_scope(session, group_id, 2026, 2)
        assert (january.since, january.until) == (
            datetime(2025, 12, 31, 22, 0, tzinfo=UTC),
            datetime(2026, 1, 31, 22, 0, tzinfo=UTC),
        )
        assert february.since == january.until
        assert group_stats(session, january).hands == 1
        assert group_stats(session, february).hands == 0
        group = session.get_one(m.Group, group_id)
        assert night_date_of(clock.now, group).isoformat() == "2026-01-31"
        assert week_scope(session, group_id, clock.now).label == "2026-01-26–2026-01-31"


@SETTINGS
@given(plan=nights, edit=st.booleans())
def test_an_export_holds_what_the_report_of_the_same_scope_counts(
    ledger: Ledger, clock: Any, plan: list[list[Step]], edit: bool
) -> None:
    """Every night, the month and all time: the export's balances are the report's nets (a night's are its
    settlement) and its closed hands the report's hands — with a fine booked outside any night, and an edit of a
    hand days after its night (refused once the night is settled; an edit that changes nothing is refused too)."""
    clock.set(START)
    played = play(ledger, clock, next(_chats), plan)
    first = next(iter(played.member_ids.values()))
    ledger.fine(first, 300, "广告", source=f"test:{played.chat_id}:outside", by=None)
    if edit and played.hands:
        with reading(ledger.engine) as session:
            hand_id = session.scalars(sa.select(m.Hand.id).where(m.Hand.status == m.CLOSED).order_by(m.Hand.id)).first()
            source = session.scalars(sa.select(m.HandEvent.source).where(m.HandEvent.hand_id == hand_id)).first()
            assert source is not None
        _, events, _ = played.hands[0]
        with pytest.raises(LedgerError) as refused:
            ledger.replace_hand(source, events, source=f"{source}:e1", by=None)
        assert refused.value.code in {"night_closed", "unchanged"}
    with reading(ledger.engine) as session:
        group_id = session.scalars(sa.select(m.Group.id).where(m.Group.chat_id == played.chat_id)).one()
        scopes = [night_scope(session, night_id) for night_id in played.nights]
        scopes += [month_scope(session, group_id, 2026, 1), all_time_scope(group_id)]
        for scope in scopes:
            data = export_scope(session, scope)
            stats = group_stats(session, scope)
            nets = {line.name: line.net for line in stats.members if line.net} | (
                {"pot": stats.pot} if stats.pot else {}
            )
            assert {name: amount for name, amount in data["balances"].items() if amount} == nets
            assert sum(hand["status"] == m.CLOSED for hand in data["hands"]) == stats.hands
            if scope.night_id is not None:
                settled = ledger.night_balances(scope.night_id).lines
                members = {line.member_id: line.net for line in stats.members if line.net}
                pot = {"pot": stats.pot} if stats.pot else {}
                assert {
                    "pot" if line.kind == m.POT else line.member_id: line.amount for line in settled if line.amount
                } == (members | pot)
