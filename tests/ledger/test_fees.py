"""Table fees (台费/抽水): the cut rides with its hand (undo takes it back), the night fee is booked at 结算, and
the group's balances always sum to zero with the house account and the pot included."""

from __future__ import annotations

import contextlib
import itertools

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import db
from ledger import models as m
from ledger.fees import Fees, cut_of
from ledger.service import Ledger, LedgerError
from tests.ledger.helpers import CHAT, gang, hu, seat_kawuxing

_SOURCES = itertools.count()


def _src() -> str:
    return f"fee-test:{next(_SOURCES)}"


def _house(ledger: Ledger) -> int:
    return ledger.balances(CHAT).house


def _total(ledger: Ledger) -> int:
    return sum(line.amount for line in ledger.balances(CHAT).lines)


@given(gain=st.integers(-1000, 10**9), fixed=st.integers(0, 10**6), percent=st.integers(0, 50))
def test_a_cut_is_never_more_than_the_gain_nor_the_cap(gain: int, fixed: int, percent: int) -> None:
    for fees in (Fees(cut_fixed=fixed), Fees(cut_percent=percent), Fees(cut_percent=percent, cut_cap=300)):
        cut = cut_of(gain, fees)
        assert 0 <= cut <= max(gain, 0)
        if fees.cut_cap is not None:
            assert cut <= fees.cut_cap


def test_the_cut_is_booked_with_the_win_and_undone_with_it(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"cut_percent": 10, "cut_cap": 150}, source=_src(), by=1)
    ledger.record_event(table.id, gang("A", "angang"), source=_src(), by=1000)  # kong money: no cut
    assert _house(ledger) == 0
    result = ledger.record_event(table.id, hu("C", "self_draw"), source=_src(), by=1000)
    cuts = [t for t in result.booked if t.kind == m.FEE]
    gain = sum(t.amount for t in result.booked if t.kind == m.HAND and t.payee == "C")
    assert [(t.payer, t.payee, t.amount, t.reason) for t in cuts] == [("C", "台费", min(gain // 10, 150), "choushui")]
    assert _house(ledger) == cuts[0].amount and _total(ledger) == 0
    undone = ledger.undo(table.id, source=_src(), by=1000)
    assert any(t.kind == m.FEE for t in undone.voided)
    assert _house(ledger) == 0 and _total(ledger) == 0


def test_a_fixed_cut_and_the_night_fee_at_settlement(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"cut_fixed": 50, "night_fee": 1000}, source=_src(), by=1)
    ledger.record_event(table.id, hu("C", "discard", "A"), source=_src(), by=1000)
    assert _house(ledger) == 50
    closed = ledger.end_night(CHAT, source=_src(), by=1000)
    assert _house(ledger) == 50 + 3 * 1000  # each of the three players
    night = {line.name: line.amount for line in closed.settlement.balances.lines}
    assert night["台费"] == 3050 and sum(night.values()) == 0
    assert any(p.payee == "台费" for p in closed.settlement.payments)


def test_each_players_fees_are_their_own_line_to_the_house(ledger: Ledger) -> None:
    """C won off A: A pays C the hand, and each player pays the house their own 台费 (C their cut too) — never a
    loser paying the winner's fees in the winner's place."""
    table = seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"cut_fixed": 50, "night_fee": 1000}, source=_src(), by=1)
    won = ledger.record_event(table.id, hu("C", "discard", "A"), source=_src(), by=1000)
    gain = sum(t.amount for t in won.booked if t.kind == m.HAND and t.payee == "C")
    closed = ledger.end_night(CHAT, source=_src(), by=1000)
    lines = sorted((p.payer, p.payee, p.amount) for p in closed.settlement.payments)
    assert lines == [("A", "C", gain), ("A", "台费", 1000), ("B", "台费", 1000), ("C", "台费", 1050)]


def test_no_night_fee_for_a_night_without_a_finished_hand(ledger: Ledger) -> None:
    seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"night_fee": 1000}, source=_src(), by=1)
    ledger.end_night(CHAT, source=_src(), by=1000)
    assert _house(ledger) == 0


def test_the_house_is_paid_out_like_the_pot(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    with pytest.raises(LedgerError):
        ledger.pay_out_house(CHAT, [table.seats[0].member_id], source=_src(), by=1)
    ledger.set_fees(CHAT, {"cut_fixed": 300}, source=_src(), by=1)
    ledger.record_event(table.id, hu("C", "self_draw"), source=_src(), by=1000)
    with pytest.raises(LedgerError):
        ledger.pay_out_house(CHAT, [table.seats[0].member_id], amount=301, source=_src(), by=1)
    source = _src()
    paid = ledger.pay_out_house(CHAT, [table.seats[0].member_id], source=source, by=1)
    again = ledger.pay_out_house(CHAT, [table.seats[0].member_id], source=source, by=1)  # a redelivery
    assert [t.amount for t in paid] == [300] and again[0].replayed
    assert _house(ledger) == 0 and _total(ledger) == 0


def test_bad_fee_settings_are_refused(ledger: Ledger) -> None:
    ledger.group(CHAT)
    with pytest.raises(LedgerError):
        ledger.set_fees(CHAT, {"cut_percent": 51}, source=_src(), by=1)
    with pytest.raises(LedgerError):
        ledger.set_fees(CHAT, {"night_fee": -1}, source=_src(), by=1)
    assert ledger.table_fees(CHAT) == Fees()


ACTIONS = st.lists(
    st.sampled_from(["angang", "zhigang", "hu_a", "hu_c", "zimo_b", "undo", "fine", "payout"]), max_size=8
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS, percent=st.integers(0, 50), fixed=st.integers(0, 500), night_fee=st.integers(0, 500))
def test_balances_sum_to_zero_with_the_house_and_the_pot(
    sqlite_ledger: Ledger, actions: list[str], percent: int, fixed: int, night_fee: int
) -> None:
    ledger = sqlite_ledger
    ledger.group(CHAT)
    table = ledger.current_table(CHAT) or seat_kawuxing(ledger)
    cut = {"cut_fixed": fixed} if fixed else {"cut_percent": percent}
    ledger.set_fees(CHAT, {**cut, "night_fee": night_fee, "cut_cap": 200}, source=_src(), by=1)
    events = {
        "angang": gang("A", "angang"),
        "zhigang": gang("B", "zhigang", "C"),
        "hu_a": hu("C", "discard", "A"),
        "hu_c": hu("C", "discard", "B"),
        "zimo_b": hu("C", "self_draw"),
    }
    for action in actions:
        with contextlib.suppress(LedgerError):
            if action == "undo":
                ledger.undo(table.id, source=_src(), by=1000)
            elif action == "fine":
                ledger.fine(table.seats[1].member_id, 100, "罚", source=_src(), by=1)
            elif action == "payout":
                ledger.pay_out_house(CHAT, [table.seats[2].member_id], source=_src(), by=1)
            else:
                ledger.record_event(table.id, events[action], source=_src(), by=1000)
        assert _total(ledger) == 0
    with db.make_engine(ledger.engine.url.render_as_string(hide_password=False)).connect() as connection:
        live_fees = connection.scalar(
            sa.select(sa.func.coalesce(sa.func.sum(m.Transfer.amount), 0)).where(
                m.Transfer.kind == m.FEE, m.Transfer.voided_at.is_(None)
            )
        )
        # every live cut belongs to a live hand event: undoing a hand never leaves its cut behind
        orphans = connection.scalar(
            sa.select(sa.func.count())
            .select_from(m.Transfer)
            .join(m.HandEvent, m.HandEvent.id == m.Transfer.event_id)
            .where(m.Transfer.kind == m.FEE, m.Transfer.voided_at.is_(None), m.HandEvent.voided_at.is_not(None))
        )
        paid_out = connection.scalar(
            sa.select(sa.func.coalesce(sa.func.sum(m.Transfer.amount), 0))
            .join(m.Member, m.Member.id == m.Transfer.payer_id)
            .where(m.Member.kind == m.HOUSE, m.Transfer.voided_at.is_(None))
        )
    assert orphans == 0
    # the house holds its live fees less what it paid out (negative when a hand whose cut was already paid out
    # is undone afterwards: the house then owes it back, as the pot does after a fine it paid out is cancelled)
    assert _house(ledger) == live_fees - paid_out


def test_0010_lets_the_house_and_fee_transfers_in_and_its_downgrade_refuses_while_they_exist(
    empty_db_url: str,
) -> None:
    """The kinds' CHECK constraints move with the migration, on SQLite (a rebuilt table) and PostgreSQL."""
    db.upgrade(empty_db_url, "0008")
    engine = db.make_engine(empty_db_url)
    house = "INSERT INTO members (group_id, kind, display_name, balance, created_at) VALUES (1, 'house', '台费', 0, :t)"
    group = (
        "INSERT INTO groups (id, chat_id, title, game, rules, base, currency, language, cutoff_hour, timezone, "
        "created_at, updated_at) VALUES (1, -1, '', 'kawuxing', '{}', 100, '元', 'zh', 6, 'Asia/Shanghai', :t, :t)"
    )
    now = {"t": "2026-01-10 12:00:00+00:00"}
    try:
        with engine.begin() as connection:
            connection.execute(sa.text(group), now)
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
            connection.execute(sa.text(house), now)  # 0008 knows no house
        db.upgrade(empty_db_url, "0010")
        with engine.begin() as connection:
            connection.execute(sa.text(house), now)
        with pytest.raises(Exception, match="cannot downgrade below 0010"):
            db.downgrade(empty_db_url, "0008")
        with engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM members WHERE kind = 'house'"))
        db.downgrade(empty_db_url, "0008")
        with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
            connection.execute(sa.text(house), now)
    finally:
        engine.dispose()


def test_the_export_names_the_house_and_marks_fee_transfers(ledger: Ledger) -> None:
    from ledger.export import export
    from ledger.stats import reading

    table = seat_kawuxing(ledger)
    ledger.set_fees(CHAT, {"cut_fixed": 100}, source=_src(), by=1)
    ledger.record_event(table.id, hu("C", "self_draw"), source=_src(), by=1000)
    with reading(ledger.engine) as session:
        data = export(session, CHAT)
    assert data["balances"]["house"] == 100 and sum(data["balances"].values()) == 0
    assert [t["kind"] for t in data["transfers"] if t["to"] == "house"] == ["fee"]
