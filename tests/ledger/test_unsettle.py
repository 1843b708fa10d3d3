"""撤销结算: an admin takes back the group's latest night settlement, and the books are exactly as they were before
结算 — balances, 未结, open debts (with the earlier debts it netted in, 并账, owed apart again), the night's totals,
history, the table open with its hand — as long as nothing was paid against it since."""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.chat_options import set_merge_debts
from ledger.errors import PaidSince
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger, LedgerError

from .helpers import gang, hu
from .test_pair_debts import (
    PLAYERS,
    _extra,
    _seat,
    _steps,
    extra_money,
    kept_and_derived,
    night_with_extras,
    player_debts,
    press_a_line,
    settle_night,
    take_back_payout,
)

_chats = itertools.count(-900_000, -1)
#: the night settled and taken back: three of A, B, C, D (the guest may have been linked by then), wins, extras
_last = st.tuples(
    st.permutations(range(4)).map(lambda order: order[:3]),
    st.lists(st.tuples(_seat, _seat), min_size=1, max_size=3),
    st.lists(_extra, max_size=3),
)


def snapshot(ledger: Ledger, chat: int) -> dict[str, Any]:
    """Everything 撤销结算 must restore: balances (总输赢 and 未结), the kept and re-derived debts, the open night's
    totals, the last hands' history, the open table and its hand."""
    kept, derived = kept_and_derived(ledger, chat)
    night = ledger.current_night(chat)
    table = ledger.current_table(chat)
    return {
        "balances": ledger.balances(chat),
        "debts": kept,
        "derived": derived,
        "night": night.id if night is not None else None,
        # an account whose night nets to zero may show 0 or be absent (a 台费 booked and taken back leaves a 0)
        "night_totals": {k: v for k, v in ledger.night_totals(night.id).items() if v} if night is not None else None,
        "history": ledger.history(chat, 50),
        "table": table,
        "latest": ledger.latest_record(table.id) if table is not None else None,
    }


def people_of(ledger: Ledger, chat: int) -> list[int]:
    ledger.group(chat)
    people = [ledger.member(chat, 2000 + i, name).id for i, name in enumerate(PLAYERS)]
    people.append(ledger.guest(chat, "客").id)
    return people


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=_steps, last=_last, merge=st.booleans(), fees=st.booleans())
def test_settle_then_unsettle_restores_the_books_exactly(
    ledger: Ledger, clock: Any, before: list[tuple[Any, ...]], last: tuple[Any, ...], merge: bool, fees: bool
) -> None:
    """Any history (settled nights, payments, fines and payouts, 台费 and 抽水, 并账 on or off), then a night with
    its wins, fines and payouts: 结算 then 撤销结算 leaves every figure as it was before 结算, and 结算 again
    settles it as the first time did."""
    chat = next(_chats)
    people = people_of(ledger, chat)
    set_merge_debts(ledger.engine, ledger.group(chat).id, merge, by=1)
    if fees:
        ledger.set_fees(chat, {"night_fee": 300, "cut_percent": 10}, source=f"{chat}:fees", by=1)
    for number, step in enumerate(before):
        with contextlib.suppress(LedgerError):
            run_step(ledger, chat, people, step, f"{chat}:{number}")
    clock.advance(seconds=1)
    seats, wins, extras = last
    seated = [people[i] for i in seats]
    table = ledger.open_table(chat, seated, source=f"{chat}:open", by=1)
    names = [seat.name for seat in table.seats]
    for number, (winner, loser) in enumerate(wins):
        win = hu(names[winner], "self_draw") if winner == loser else hu(names[winner], "discard", names[loser])
        ledger.record_event(table.id, win, source=f"{chat}:w{number}", by=1)
    for number, extra in enumerate(extras):
        with contextlib.suppress(LedgerError):
            extra_money(ledger, chat, seated if extra[0] == "fine" else people, extra, f"{chat}:x{number}", [])
    before_settling = snapshot(ledger, chat)
    first = ledger.end_night(chat, source=f"{chat}:end", by=1).settlement
    undone = ledger.unsettle(chat, source=f"{chat}:unsettle", by=1, expect=first.id)
    assert undone.settlement.payments == first.payments
    assert snapshot(ledger, chat) == before_settling
    again = ledger.end_night(chat, source=f"{chat}:end again", by=1).settlement
    assert (again.payments, again.carried, again.passed) == (first.payments, first.carried, first.passed)
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived


_sides = st.sampled_from([PAYER_SIDE, PAYEE_SIDE])
#: payments after the settlement: typed (a debt of the group's, a percentage of it), or a post's line pressed
_since = st.lists(
    st.one_of(
        st.tuples(st.just("pay"), st.integers(0, 9), st.integers(1, 100), _sides),
        st.tuples(st.just("press"), st.integers(0, 9), st.integers(0, 9), _sides),
    ),
    min_size=1,
    max_size=4,
)


def payments_after(ledger: Ledger, chat: int, after_id: int) -> list[tuple[int, int, int, int | None]]:
    """The live payments booked after transfer `after_id`: (debtor, creditor, 分, the settlement whose line it
    recorded)."""
    query = (
        "SELECT t.payee_id, t.payer_id, t.amount, l.settlement_id FROM transfers t "
        "LEFT JOIN payment_lines l ON l.transfer_id = t.id "
        "WHERE t.group_id = :g AND t.kind = 'payment' AND t.voided_at IS NULL AND t.id > :after ORDER BY t.id"
    )
    with ledger.engine.connect() as connection:
        rows = connection.execute(sa.text(query), {"g": ledger.group(chat).id, "after": after_id})
        return [(int(d), int(c), int(a), s) for d, c, a, s in rows]


def last_transfer(ledger: Ledger) -> int:
    with ledger.engine.connect() as connection:
        return int(connection.execute(sa.text("SELECT COALESCE(MAX(id), 0) FROM transfers")).scalar_one())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(before=_steps, last=_last, merge=st.booleans(), since=_since)
def test_a_settlement_is_taken_back_unless_a_payment_since_counts_on_it(
    ledger: Ledger, clock: Any, before: list[tuple[Any, ...]], last: tuple[Any, ...], merge: bool, since: list[Any]
) -> None:
    """Any history, a night settled, then payments (typed, or pressed under any post's line): 撤销结算 is refused,
    naming payments booked since, or it takes the settlement back and every payment booked since still pays a
    debt that is owed — the debts are what they were before 结算 less those payments, none of those payments left
    paying more than its pair owes, none recording a line of the settlement taken back."""
    chat = next(_chats)
    people = people_of(ledger, chat)
    set_merge_debts(ledger.engine, ledger.group(chat).id, merge, by=1)
    for number, step in enumerate(before):
        with contextlib.suppress(LedgerError):
            run_step(ledger, chat, people, step, f"{chat}:{number}")
    clock.advance(seconds=1)
    seats, wins, _ = last
    kept_before = dict(kept_and_derived(ledger, chat)[0])
    settle_night(ledger, chat, [people[i] for i in seats], wins, f"{chat}:last")
    settled = ledger.latest_settlement(chat)
    assert settled is not None
    mark = last_transfer(ledger)
    clock.advance(seconds=1)
    for number, step in enumerate(since):
        with contextlib.suppress(LedgerError):
            if step[0] == "press":
                press_a_line(ledger, chat, step, f"{chat}:since{number}")
            else:
                run_step(ledger, chat, people, step, f"{chat}:since{number}")
    paid = payments_after(ledger, chat, mark)
    try:
        ledger.unsettle(chat, source=f"{chat}:unsettle", by=1, expect=settled.id)
    except PaidSince as err:
        assert err.payments and {(p.payer_id, p.payee_id, p.amount) for p in err.payments} <= {
            (d, c, a) for d, c, a, _ in paid
        }
        return
    except LedgerError as err:  # a payout between nights in `last`'s history is not this test's: nothing else
        raise AssertionError(err.message) from err
    assert all(line != settled.id for _, _, _, line in paid)
    signed: dict[tuple[int, int], int] = {}
    for (debtor, creditor), amount in kept_before.items():
        signed[(debtor, creditor)], signed[(creditor, debtor)] = amount, -amount
    for debtor, creditor, amount, _ in paid:
        signed[(debtor, creditor)] = signed.get((debtor, creditor), 0) - amount
        signed[(creditor, debtor)] = signed.get((creditor, debtor), 0) + amount
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived == {pair: amount for pair, amount in signed.items() if amount > 0}
    assert all(signed[(debtor, creditor)] >= 0 for debtor, creditor, _, _ in paid)


def test_a_payment_of_another_nights_line_leaves_it_and_one_of_its_own_keeps_it(ledger: Ledger, clock: Any) -> None:
    """撤销结算 is refused by a payment of its own lines only (named, with 撤销付款 first): a payment since of an
    earlier night's line between the same two leaves it, unless it paid beyond that line into this one's."""
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    set_merge_debts(ledger.engine, ledger.group(chat).id, False, by=1)  # nights kept apart: a line on each
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")  # B owes A 2
    first = ledger.latest_settlement(chat)
    clock.advance(seconds=5)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n2")  # B owes A 2 again
    second = ledger.latest_settlement(chat)
    assert first is not None and second is not None
    (debt,) = ledger.debts(chat)
    assert (debt.debtor_id, debt.creditor_id, debt.amount) == (b, a, 400)
    clock.advance(seconds=5)
    own = ledger.pay(chat, b, a, 100, side=PAYER_SIDE, line=(second.id, 0), source="own", by=1)
    assert own.settlement_id == second.id
    with pytest.raises(PaidSince) as err:
        ledger.unsettle(chat, source="u1", by=1)
    assert [(p.payer, p.payee, p.amount) for p in err.value.payments] == [("B", "A", 100)]
    assert "撤销付款" in err.value.message
    ledger.void_payment(chat, [b], source="unpay", by=1)
    beyond = ledger.pay(chat, b, a, 300, side=PAYER_SIDE, source="beyond", by=1)  # the first night's 2, then 1
    assert beyond.settlement_id == first.id
    with pytest.raises(PaidSince) as err:
        ledger.unsettle(chat, source="u2", by=1)
    assert [p.amount for p in err.value.payments] == [300]
    ledger.void_payment(chat, [b], source="unpay2", by=1)
    earlier = ledger.pay(chat, b, a, 200, side=PAYER_SIDE, source="earlier", by=1)  # the first night's line
    ledger.pay(chat, b, a, 200, side=PAYEE_SIDE, source="confirmed", by=1)
    assert earlier.settlement_id == first.id
    ledger.unsettle(chat, source="u3", by=1)
    assert ledger.debts(chat) == []  # the first night paid; the second taken back
    assert ledger.latest_settlement(chat) == ledger.stored_settlement(chat, first.id)


def test_a_payment_booked_before_payments_recorded_their_line_keeps_the_old_rule(ledger: Ledger, clock: Any) -> None:
    """A payment with no line (booked before migration 0016) between two of its people, booked or confirmed after
    it, still keeps a settlement: nobody can tell which night it paid."""
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    set_merge_debts(ledger.engine, ledger.group(chat).id, False, by=1)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")
    clock.advance(seconds=5)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n2")
    clock.advance(seconds=5)
    paid = ledger.pay(chat, b, a, 200, side=PAYER_SIDE, line=None, source="old", by=1)
    with ledger.engine.begin() as connection:  # as a payment booked before 0016 is stored
        connection.execute(sa.text("DELETE FROM payment_lines WHERE transfer_id = :t"), {"t": paid.id})
    with pytest.raises(PaidSince) as err:
        ledger.unsettle(chat, source="u", by=1)
    assert [p.amount for p in err.value.payments] == [200]


def run_step(ledger: Ledger, chat: int, people: list[int], step: tuple[Any, ...], tag: str) -> None:
    """One step of `test_pair_debts`'s histories (a night, money between nights, a payment and its word)."""
    kind = step[0]
    if kind == "night":
        night_with_extras(ledger, chat, people, step, tag)
    elif kind == "between":
        extra_money(ledger, chat, people[:4], step[1], tag, [])
    elif kind in ("pay", "confirm"):
        debts = player_debts(ledger, chat)
        if debts:
            debt = debts[step[1] % len(debts)]
            amount = max(1, debt.amount * step[2] // 100) if kind == "pay" else None
            side = step[3] if kind == "pay" else PAYEE_SIDE
            ledger.pay(chat, debt.debtor_id, debt.creditor_id, amount, side=side, source=tag, by=1)
    elif kind == "unpay":
        ledger.void_payment(chat, [people[step[1]]], source=tag, by=1)
    elif kind == "merge":
        set_merge_debts(ledger.engine, ledger.group(chat).id, step[1], by=1)
    elif kind == "fees":
        ledger.set_fees(chat, {"night_fee": step[1], "cut_percent": step[2]}, source=tag, by=1)
    elif kind == "link":
        ledger.link_guest(people[4], people[step[1]], source=tag, by=1)
    elif kind == "unpayout":
        take_back_payout(ledger, chat, people, step, tag)


def three(ledger: Ledger, chat: int) -> list[int]:
    ledger.group(chat)
    return [ledger.member(chat, 3000 + i, name).id for i, name in enumerate("ABC")]


def test_the_night_opens_again_with_its_table_and_its_hands_can_be_undone(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    people = three(ledger, chat)
    settle_night(ledger, chat, people, [(2, 2), (2, 2)], "n")
    assert ledger.current_table(chat) is None
    clock.advance(seconds=5)
    undone = ledger.unsettle(chat, source="u", by=1)
    table = ledger.current_table(chat)
    assert table is not None and undone.table == table and table.hand_number == 3
    assert ledger.current_night(chat) == undone.night
    result = ledger.undo(table.id, source="undo", by=1, reason="撤销")
    assert result.what == "reopened" and result.hand_number == 2
    assert ledger.debts(chat) == []
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u2", by=1)
    assert err.value.code == "no_settlement"


def test_the_debts_it_netted_in_are_owed_apart_again(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")  # B owes A
    owed = {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)}
    clock.advance(seconds=5)
    settle_night(ledger, chat, [a, b, c], [(1, 0)], "n2")  # A pays B back: the earlier debt is netted in
    assert ledger.latest_settlement(chat).carried  # type: ignore[union-attr]
    clock.advance(seconds=5)
    ledger.unsettle(chat, source="u", by=1)
    assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)} == owed
    stored = ledger.latest_settlement(chat)
    assert stored is not None and not stored.carried  # the first night's is the latest live one again


def test_a_payment_against_it_a_later_settlement_a_payout_or_a_new_night_keep_it(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")
    clock.advance(seconds=5)
    (debt,) = ledger.debts(chat)
    ledger.pay(chat, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="p", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u1", by=1)
    assert err.value.code == "paid_since" and "撤销付款" in err.value.message
    ledger.void_payment(chat, [debt.debtor_id], source="unpay", by=1)
    ledger.fine(c, 500, "刷屏", source="fine", by=1)  # between nights: settled at once
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u2", by=1)
    assert err.value.code == "settled_since"
    ledger.pay_out_pot(chat, [a], source="payout", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u3", by=1)
    assert err.value.code == "paid_out_since" and "发红包池" in err.value.message


def test_a_new_night_keeps_the_last_settlement_and_a_stale_question_undoes_nothing(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")
    first = ledger.latest_settlement(chat)
    assert first is not None
    clock.advance(seconds=5)
    table = ledger.open_table(chat, [a, b, c], source="open", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u1", by=1)
    assert err.value.code == "night_since"
    ledger.record_event(table.id, gang("A", "angang"), source="kong", by=1)
    ledger.record_event(table.id, {"type": "draw"}, source="draw", by=1)
    ledger.end_night(chat, source="n2:end", by=1)
    clock.advance(seconds=5)
    with pytest.raises(LedgerError) as err:
        ledger.unsettle(chat, source="u2", by=1, expect=first.id)
    assert err.value.code == "settlement_changed"
    assert ledger.unsettle(chat, source="u3", by=1).settlement.id != first.id


def test_the_settlements_buttons_expire_once_taken_back(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    settle_night(ledger, chat, [a, b, c], [(0, 1)], "n1")
    stored = ledger.latest_settlement(chat)
    assert stored is not None and ledger.payment_lines(chat, stored.id)
    ledger.unsettle(chat, source="u", by=1)
    assert ledger.payment_lines(chat, stored.id) is None
    assert ledger.stored_settlement(chat, stored.id) is None
    assert ledger.latest_settlement(chat) is None


def test_the_taifei_its_close_booked_goes_back(ledger: Ledger, clock: Any) -> None:
    chat = next(_chats)
    a, b, c = three(ledger, chat)
    ledger.set_fees(chat, {"night_fee": 300}, source="fees", by=1)
    table = ledger.open_table(chat, [a, b, c], source="open", by=1)
    ledger.record_event(table.id, hu("A", "self_draw"), source="w", by=1)
    before = ledger.balances(chat)
    ledger.end_night(chat, source="end", by=1)
    assert ledger.balances(chat) != before
    undone = ledger.unsettle(chat, source="u", by=1)
    assert undone.fees == 900 and ledger.balances(chat) == before
