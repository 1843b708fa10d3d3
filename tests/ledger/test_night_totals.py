"""Property tests of the running totals: whatever is booked, undone, edited, replayed or linked, and whenever the
日切 hour passes, each night's running totals equal the sum of that night's live transfers, and a replay changes
nothing."""

from __future__ import annotations

import itertools
from typing import Any

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import event as event_label
from hypothesis import strategies as st

from ledger import models as m
from ledger.events import Draw, Kong, Liangdao, Win, WinHand
from ledger.service import Ledger, LedgerError

from .test_properties import check_books

PLAYERS = ("A", "B", "C")
_chats = itertools.count(-700_000, -1)

player = st.sampled_from(PLAYERS)


def make_kong(who: str, kind: str, other: str) -> Kong:
    if kind == "zhigang":
        return Kong(who, "zhigang", other) if other != who else Kong(who, "angang")
    return Kong(who, "xugang" if kind == "xugang" else "angang")


def make_win(who: str, other: str, patterns: tuple[str, ...]) -> Win:
    if other == who:
        return Win(who, "self_draw", WinHand(patterns=patterns))
    return Win(who, "discard", WinHand(patterns=patterns), other)


kong = st.builds(make_kong, player, st.sampled_from(["angang", "xugang", "zhigang"]), player)
win = st.builds(make_win, player, player, st.sampled_from([("qingyise",), ("kawuxing",), (), ("qidui", "qingyise")]))
event = st.one_of(kong, st.builds(Liangdao, player), win, st.just(Draw()))
record = st.tuples(st.just("record"), event)
operation = st.one_of(
    record,
    record,
    record,
    st.tuples(st.just("edit"), st.integers(0, 20), event),
    st.tuples(st.just("replay"), st.integers(0, 20)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("fine"), st.integers(0, 3), st.integers(1, 900)),
    st.tuples(st.just("cancel_fine"), st.integers(0, 5)),
    st.tuples(st.just("payout"), st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True)),
    st.tuples(st.just("link_guest")),
    st.tuples(st.just("next_day")),
)


def night_sums(ledger: Ledger, group_id: int) -> dict[tuple[int, int], int]:
    """Each (night, account)'s sum of live transfers booked in that night, straight from the transfer rows."""
    sums: dict[tuple[int, int], int] = {}
    with ledger.engine.connect() as connection:
        for night, payer, payee, amount in connection.execute(
            sa.select(m.Transfer.night_id, m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount).where(
                m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None), m.Transfer.night_id.is_not(None)
            )
        ):
            sums[night, payer] = sums.get((night, payer), 0) - amount
            sums[night, payee] = sums.get((night, payee), 0) + amount
    return {key: amount for key, amount in sums.items() if amount}


def night_totals(ledger: Ledger, group_id: int) -> dict[tuple[int, int], int]:
    with ledger.engine.connect() as connection:
        rows = connection.execute(
            sa.select(m.NightTotal.night_id, m.NightTotal.member_id, m.NightTotal.amount)
            .join(m.Night, m.Night.id == m.NightTotal.night_id)
            .where(m.Night.group_id == group_id)
        )
        return {(night, member): amount for night, member, amount in rows if amount}


def books(ledger: Ledger, chat: int, group_id: int) -> tuple[Any, ...]:
    return ledger.balances(chat), night_totals(ledger, group_id), len(ledger.history(chat, 1000, include_voided=True))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, min_size=6, max_size=18))
def test_night_totals_equal_the_nights_live_transfers_and_replays_change_nothing(
    ledger: Ledger, clock: Any, operations: list[tuple[Any, ...]]
) -> None:
    chat = next(_chats)
    group_id = ledger.group(chat).id
    ids = [ledger.member(chat, 80_000 + i, name).id for i, name in enumerate(PLAYERS)]
    outsider = ledger.member(chat, 80_010, "D").id
    ledger.open_table(chat, ids, source=f"nt:{chat}:open", by=1)
    guest = ledger.guest(chat, "客").id
    everyone = [*ids, guest]
    recorded: list[tuple[str, Any]] = []  # (source, event) of every booking that went through
    fines: list[int] = []
    for step, op in enumerate(operations):
        source = f"nt:{chat}:{step}"
        table = ledger.current_table(chat)
        assert table is not None
        try:
            if op[0] == "record":
                result = ledger.record_event(table.id, op[1], source=source, by=1)
                recorded.append((source, op[1]))
                event_label(f"record{' (new night)' if result.new_night else ''}")
            elif op[0] == "edit" and recorded:
                original, _ = recorded[op[1] % len(recorded)]
                ledger.replace_hand(original, [op[2]], source=f"{original}:e{step}", by=1)
                event_label("edit")
            elif op[0] == "replay" and recorded:
                original, again = recorded[op[1] % len(recorded)]
                before = books(ledger, chat, group_id)
                replay = ledger.record_event(table.id, again, source=original, by=1)
                assert replay.replayed
                assert books(ledger, chat, group_id) == before
                event_label("replay")
            elif op[0] == "undo":
                event_label(f"undo {ledger.undo(table.id, source=source, by=1).what}")
            elif op[0] == "fine":
                fines.append(ledger.fine(everyone[op[1]], op[2], "罚", source=source, by=None).id)
            elif op[0] == "cancel_fine" and op[1] < len(fines):
                ledger.cancel_fine(fines.pop(op[1]), source=source, by=1)
            elif op[0] == "payout":
                ledger.pay_out_pot(chat, [everyone[i] for i in op[1]], source=source, by=1)
            elif op[0] == "link_guest" and guest in everyone:
                ledger.link_guest(guest, outsider, source=source, by=1)
                everyone[everyone.index(guest)] = outsider
                event_label("link_guest")
            elif op[0] == "next_day":
                clock.advance(hours=24)
        except LedgerError as refused:  # a refusal (scoring's too) changes nothing it could have
            event_label(f"refused: {refused.code}")
        assert night_totals(ledger, group_id) == night_sums(ledger, group_id)
        check_books(ledger, chat)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.lists(event, min_size=1, max_size=2), min_size=1, max_size=8))
def test_what_a_booking_answers_is_what_it_wrote(ledger: Ledger, records: list[list[Any]]) -> None:
    """The hand, events and transfers a booking answers with (ids included: PostgreSQL writes a hand opened by one
    event, its money and the running totals in one statement) are the rows in the database."""
    chat = next(_chats)
    ids = [ledger.member(chat, 81_000 + i, name).id for i, name in enumerate(PLAYERS)]
    ledger.open_table(chat, ids, source=f"answers:{chat}:open", by=1)
    for step, events in enumerate(records):
        table = ledger.current_table(chat)
        assert table is not None
        try:
            result = ledger.record_events(table.id, events, source=f"answers:{chat}:{step}", by=1)
        except LedgerError:
            continue
        with ledger.engine.connect() as connection:
            hand = connection.execute(sa.select(m.Hand).where(m.Hand.id == result.hand_id)).one()
            event_ids = connection.scalars(
                sa.select(m.HandEvent.id)
                .where(m.HandEvent.hand_id == result.hand_id, m.HandEvent.voided_at.is_(None))
                .order_by(m.HandEvent.id)
            ).all()
            written = connection.execute(
                sa.select(
                    m.Transfer.id, m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount, m.Transfer.event_id
                )
                .where(m.Transfer.id.in_([t.id for t in result.booked]))
                .order_by(m.Transfer.id)
            ).all()
            totals = connection.execute(
                sa.select(m.NightTotal.member_id, m.NightTotal.amount).where(m.NightTotal.night_id == table.night_id)
            ).all()
        assert (hand.table_id, hand.number, hand.status == m.CLOSED) == (table.id, result.number, result.finished)
        assert len(event_ids) == len(result.events)
        answered = sorted(
            (t.id, t.payer_id, t.payee_id, t.amount, event_ids[t.event_index] if t.event_index is not None else None)
            for t in result.booked
        )
        assert [tuple(row) for row in written] == answered
        assert all(t.hand_id == result.hand_id for t in result.booked)
        assert {member: amount for member, amount in totals if member in ids} == {
            total.member_id: total.amount for total in result.night_totals
        }
