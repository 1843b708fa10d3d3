"""Payments: cash handed over after a settlement is booked once, confirmed by the other side, undone exactly;
未结 (balances) follows it while 总输赢 (results) never moves; debts left open are netted into the next night."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.chat_options import set_merge_debts
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger, LedgerError
from tests.conftest import Clock

from .helpers import CHAT, gang, hu, seat_kawuxing

_chats = itertools.count(-700_000, -1)


def night(ledger: Ledger, chat: int = CHAT, tag: str = "n1") -> dict[str, int]:
    """One settled night at A, B, C: a kong and a win; returns the members' ids by name."""
    ledger.group(chat)
    players = [ledger.member(chat, 1000 + i, name).id for i, name in enumerate("ABC")]
    table = ledger.open_table(chat, players, source=f"{tag}:open", by=1000)
    ids = {seat.name: seat.member_id for seat in table.seats}
    ledger.record_event(table.id, gang("B", "zhigang", "A"), source=f"{tag}:1", by=1000)
    ledger.record_event(table.id, hu("C", "discard", "A"), source=f"{tag}:2", by=1000)
    ledger.end_night(chat, source=f"{tag}:end", by=1000)
    return ids


def owed(ledger: Ledger, chat: int = CHAT) -> dict[int, int]:
    return {line.member_id: line.amount for line in ledger.balances(chat).lines}


def results(ledger: Ledger, chat: int = CHAT) -> dict[int, int]:
    return {line.member_id: line.result for line in ledger.balances(chat).lines}


def test_a_night_followed_by_its_payments_leaves_every_weijie_at_zero_and_zongshuying_unchanged(
    ledger: Ledger,
) -> None:
    ids = night(ledger)
    before = results(ledger)
    assert any(before.values()) and before == owed(ledger)
    debts = ledger.debts(CHAT)
    assert debts and all(d.amount > 0 for d in debts)
    for number, debt in enumerate(debts):
        paid = ledger.pay(
            CHAT, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source=f"pay:{number}", by=1000 + number
        )
        assert paid.booked and paid.owed == 0
    assert not any(owed(ledger).values())
    assert results(ledger) == before
    assert ledger.debts(CHAT) == []
    assert set(ids) == {"A", "B", "C"}


def test_the_other_side_confirms_the_same_payment_and_never_books_a_second(ledger: Ledger) -> None:
    night(ledger)
    (debt, *_) = ledger.debts(CHAT)
    first = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="p:1", by=1)
    assert first.booked and not first.confirmed and first.owed == debt.amount - 100
    again = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="p:1", by=1)
    assert again.replayed and again.id == first.id  # a redelivered message books once
    confirm = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, 100, side=PAYEE_SIDE, source="p:2", by=2)
    assert confirm.id == first.id and confirm.confirmed and not confirm.booked
    left = {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(CHAT)}
    assert left[(debt.debtor_id, debt.creditor_id)] == debt.amount - 100  # still one payment of 100


def test_a_payment_its_sender_booked_a_moment_ago_is_held_back_when_checked(ledger: Ledger, clock: Clock) -> None:
    """With `check_repeat` (a typed payment), the same pair, amount and side booked by the same person within the
    group's double-entry window is refused (`DuplicatePayment`, how long ago) and changes nothing; someone else's,
    another amount, one past the window, one taken back, or one without the check books."""
    from ledger.chat_options import set_double_entry
    from ledger.errors import DuplicatePayment

    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    pay = ledger.pay
    args = (chat, debt.debtor_id, debt.creditor_id)
    pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:1", by=7)
    clock.advance(seconds=30)
    with pytest.raises(DuplicatePayment) as held:
        pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:2", by=7)
    assert held.value.seconds == 30
    assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)}[args[1:]] == debt.amount - 10
    assert pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:3", by=8).booked  # someone else (an admin)
    assert pay(*args, 20, side=PAYER_SIDE, check_repeat=True, source="r:4", by=7).booked  # another amount
    assert pay(*args, 10, side=PAYER_SIDE, source="r:5", by=7).booked  # 「再记一笔」: past the check
    clock.advance(seconds=91)
    assert pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:6", by=7).booked  # past the window
    ledger.void_payment(chat, [debt.debtor_id], source="r:undo", by=7)
    assert pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:7", by=7).booked  # the one taken back
    set_double_entry(ledger.engine, ledger.group(chat).id, 0, by=1)
    assert pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="r:8", by=7).booked  # 重复间隔 0: no check


def test_a_word_that_confirmed_a_moment_ago_is_held_back_when_sent_again(ledger: Ledger, clock: Clock) -> None:
    """A 收到 that confirmed the payer's 已付 of that amount, sent twice within the window, is held back as the
    repeat it is (it booked a second payment); the payer's side likewise; past the window it books."""
    from ledger.errors import DuplicatePayment

    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    pay = ledger.pay
    args = (chat, debt.debtor_id, debt.creditor_id)
    pay(*args, 10, side=PAYER_SIDE, check_repeat=True, source="c:1", by=7)
    clock.advance(seconds=60)
    assert pay(*args, 10, side=PAYEE_SIDE, check_repeat=True, source="c:2", by=8).confirmed
    clock.advance(seconds=3)
    with pytest.raises(DuplicatePayment) as held:
        pay(*args, 10, side=PAYEE_SIDE, check_repeat=True, source="c:3", by=8)
    assert held.value.seconds == 3
    assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)}[args[1:]] == debt.amount - 10
    assert pay(*args, 10, side=PAYEE_SIDE, check_repeat=True, source="c:4", by=9).booked  # someone else (an admin)
    clock.advance(seconds=91)
    assert pay(*args, 10, side=PAYEE_SIDE, check_repeat=True, source="c:5", by=8).booked  # past the window


def test_paying_all_still_owed_is_never_held_back_as_a_repeat(ledger: Ledger) -> None:
    """`已转 @x` (no amount: all still owed) right after `付 @x` of what is left pays the rest: it is no repeat
    (sent twice, the second finds nothing owed)."""
    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    half = debt.amount // 2
    ledger.pay(*args, debt.amount - half, side=PAYER_SIDE, check_repeat=True, source="a:1", by=7)
    rest = ledger.pay(*args, None, side=PAYER_SIDE, check_repeat=True, source="a:2", by=7)
    assert rest.booked and rest.amount == half and rest.owed == 0


def test_a_word_after_the_window_confirms_when_nothing_new_could_be_booked(ledger: Ledger, clock: Clock) -> None:
    """Past the 48 hours a matching word still confirms the payment when a new one would be refused (nothing or
    less owed); a word for a payment that can still be booked books it, as before."""
    night(ledger)
    (debt, *_) = ledger.debts(CHAT)
    whole = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source="w:1", by=1)
    clock.advance(hours=72)
    late = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, debt.amount, side=PAYEE_SIDE, source="w:2", by=2)
    assert late.id == whole.id and late.confirmed and not late.booked and late.owed == 0
    assert (debt.debtor_id, debt.creditor_id) not in {(d.debtor_id, d.creditor_id) for d in ledger.debts(CHAT)}


def test_a_payment_beyond_the_debt_or_without_one_is_refused_and_changes_nothing(ledger: Ledger) -> None:
    night(ledger)
    (debt, *_) = ledger.debts(CHAT)
    before = owed(ledger)
    with pytest.raises(LedgerError) as refused:
        ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, debt.amount + 1, side=PAYER_SIDE, source="x:1", by=1)
    assert refused.value.code == "overpaid"
    with pytest.raises(LedgerError) as refused:
        ledger.pay(CHAT, debt.creditor_id, debt.debtor_id, 100, side=PAYER_SIDE, source="x:2", by=1)
    assert refused.value.code == "no_debt"
    assert owed(ledger) == before


def test_undo_voids_exactly_that_payment(ledger: Ledger) -> None:
    night(ledger)
    (debt, *_) = ledger.debts(CHAT)
    before = owed(ledger)
    ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="u:1", by=1)
    second = ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, 50, side=PAYER_SIDE, source="u:2", by=1)
    undone = ledger.void_payment(CHAT, [debt.debtor_id], source="u:3", by=1)
    assert undone.id == second.id and undone.voided and undone.owed == debt.amount - 100
    ledger.void_payment(CHAT, [debt.debtor_id, debt.creditor_id], source="u:4", by=1)
    assert owed(ledger) == before
    with pytest.raises(LedgerError):
        ledger.void_payment(CHAT, [debt.debtor_id], source="u:5", by=1)


def test_open_debts_are_netted_into_the_next_night_unless_nights_are_kept_separate(ledger: Ledger) -> None:
    ids = night(ledger, tag="n1")
    first = ledger.debts(CHAT)
    second_night = night(ledger, tag="n2")
    assert second_night == ids
    closed_debts = ledger.debts(CHAT)
    # the second night's settlement holds both nights: the same debts, doubled, as one set of payments
    assert {(d.debtor_id, d.creditor_id): d.amount for d in closed_debts} == {
        (d.debtor_id, d.creditor_id): 2 * d.amount for d in first
    }
    set_merge_debts(ledger.engine, ledger.group(CHAT).id, False, by=1)
    night(ledger, tag="n3")
    kept = ledger.debts(CHAT)
    assert sum(d.amount for d in kept) == 3 * sum(d.amount for d in first)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    wins=st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from("ABC")), min_size=1, max_size=4),
    fine=st.one_of(st.none(), st.tuples(st.sampled_from("ABC"), st.integers(1, 900))),
    cuts=st.lists(st.integers(1, 100), max_size=6),
)
def test_payments_never_change_results_and_paying_every_debt_squares_everyone(
    ledger: Ledger, wins: list[tuple[str, str]], fine: tuple[str, int] | None, cuts: list[int]
) -> None:
    """总输赢 never moves with a payment; the group's balances, pot included, always sum to zero; once every
    suggested payment between players is marked, everyone's 未结 is zero but for what the settlement told them to
    put into the pot (红包池, paid out with 发红包, not here)."""
    chat = next(_chats)
    table = seat_kawuxing(ledger, chat)
    ids = {seat.name: seat.member_id for seat in table.seats}
    for number, (winner, loser) in enumerate(wins):
        event = hu(winner, "self_draw") if winner == loser else hu(winner, "discard", loser)
        ledger.record_event(table.id, event, source=f"{chat}:w{number}", by=1000)
    if fine is not None:
        ledger.fine(ids[fine[0]], fine[1], "刷屏", source=f"{chat}:fine", by=1000)
    closed = ledger.end_night(chat, source=f"{chat}:end", by=1000)
    pot = next(line.member_id for line in ledger.balances(chat).lines if line.kind == "pot")
    before = results(ledger, chat)
    step = 0
    for cut in cuts:  # partial payments: a percentage of what the first debt still is
        debts = between_players(ledger, chat, pot)
        if not debts:
            break
        debt = debts[0]
        part = max(1, debt.amount * cut // 100)
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, part, side=PAYER_SIDE, source=f"{chat}:p{step}", by=1)
        step += 1
        assert results(ledger, chat) == before
        assert sum(owed(ledger, chat).values()) == 0
    for debt in between_players(ledger, chat, pot):  # the payer side pays the rest (a payee's word could confirm one)
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source=f"{chat}:p{step}", by=2)
        step += 1
    assert results(ledger, chat) == before
    into_pot = {member: 0 for member in owed(ledger, chat)}
    for line in closed.settlement.payments:
        if pot in (line.payer_id, line.payee_id):
            into_pot[line.payer_id] -= line.amount
            into_pot[line.payee_id] += line.amount
    assert owed(ledger, chat) == into_pot
    assert sum(owed(ledger, chat).values()) == 0
    # what is owed to the pot is a debt too, waiting for 发红包池 (never paid here)
    assert {d.debtor_id: -d.amount for d in ledger.debts(chat)} == {m: a for m, a in into_pot.items() if a < 0}


def between_players(ledger: Ledger, chat: int, pot: int) -> list[Any]:
    return [d for d in ledger.debts(chat) if pot not in (d.debtor_id, d.creditor_id)]


def test_payments_leave_nights_periods_and_statistics_alone_and_the_export_grows_results(ledger: Ledger) -> None:
    from ledger import stats
    from ledger.db import session_factories
    from ledger.export import export
    from ledger.scope import all_time_scope

    night(ledger)
    night_id = ledger.table(ledger.history(CHAT, 1)[0].table_id).night_id
    settled_before = ledger.night_balances(night_id)
    period_before = ledger.period_balances(CHAT, None, None)
    for number, debt in enumerate(ledger.debts(CHAT)):
        ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source=f"e:{number}", by=1)
    assert ledger.night_balances(night_id) == settled_before
    assert ledger.period_balances(CHAT, None, None) == period_before
    with session_factories(ledger.engine)[1].begin() as session:
        group_stats = stats.group_stats(session, all_time_scope(ledger.group(CHAT).id))
        data = export(session, CHAT)
    assert {m.member_id: m.net for m in group_stats.members if m.net} == {
        k: v for k, v in results(ledger).items() if v and k in {m.member_id for m in group_stats.members}
    }
    kinds = {t["kind"] for t in data["transfers"]}
    assert "payment" in kinds
    assert not any(amount for name, amount in data["balances"].items())  # everyone paid up: 未结 all zero
    assert sum(data["results"].values()) == 0 and set(data["results"]) == set(data["balances"])
    by_name = {line.name: line.result for line in ledger.balances(CHAT).lines if line.kind != "pot"}
    assert {name: amount for name, amount in data["results"].items() if name != "pot"} == by_name


def test_two_presses_at_once_book_one_payment(ledger: Ledger) -> None:
    """Two presses of 「已付」 arriving together (two sources, two threads): the group's lock serialises them, the
    second finds nothing left to pay."""
    import threading

    night(ledger)
    debt = ledger.debts(CHAT)[0]
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def press(number: int) -> None:
        start.wait(timeout=30)
        try:
            ledger.pay(CHAT, debt.debtor_id, debt.creditor_id, side=PAYER_SIDE, source=f"race:{number}", by=1)
            outcomes.append("booked")
        except LedgerError as err:
            outcomes.append(err.code)

    threads = [threading.Thread(target=press, args=(number,)) for number in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["booked", "no_debt"]
    assert all(d.debtor_id != debt.debtor_id or d.creditor_id != debt.creditor_id for d in ledger.debts(CHAT))


def pair_owed(ledger: Ledger, chat: int, debtor: int, creditor: int) -> int:
    """What `debtor` owes `creditor` now, negative when the pair's debt runs the other way."""
    debts = {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)}
    return debts.get((debtor, creditor), 0) - debts.get((creditor, debtor), 0)


def live_payments(ledger: Ledger, chat: int) -> list[tuple[int, str, bool]]:
    """Every live payment of the chat's group: (分, the side that told it, confirmed)."""
    import sqlalchemy as sa

    from ledger import models as m

    group_id = ledger.group(chat).id
    with ledger.engine.connect() as connection:
        rows = connection.execute(
            sa.select(m.Transfer.amount, m.Transfer.reason, m.Transfer.confirmed_at.is_not(None))
            .where(m.Transfer.group_id == group_id, m.Transfer.kind == m.PAYMENT, m.Transfer.voided_at.is_(None))
            .order_by(m.Transfer.id)
        )
        return [(int(amount), str(side), bool(confirmed)) for amount, side, confirmed in rows]


def test_a_word_for_more_than_the_waiting_payments_covers_them_and_books_the_rest(ledger: Ledger) -> None:
    """`收到 @b 4` after b's `已付 2` on a line of 4: b's 2 confirmed and the other 2 booked, one word (the whole 4
    paid); beyond the waiting payments and the debt together it is refused (`Overpaid`, both amounts) and changes
    nothing; the payer's side likewise; on a larger line the word is read the same way."""
    from ledger.errors import Overpaid

    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    ledger.pay(*args, 100, side=PAYER_SIDE, check_repeat=True, source="v:1", by=7)
    before = (pair_owed(ledger, *args), live_payments(ledger, chat))
    with pytest.raises(Overpaid) as refused:
        ledger.pay(*args, debt.amount + 1, side=PAYEE_SIDE, check_repeat=True, source="v:2", by=8)
    assert (refused.value.owed, refused.value.waiting) == (debt.amount - 100, 100)
    assert (pair_owed(ledger, *args), live_payments(ledger, chat)) == before
    whole = ledger.pay(*args, debt.amount, side=PAYEE_SIDE, check_repeat=True, source="v:3", by=8)
    assert whole.booked and whole.side == PAYEE_SIDE and whole.amount == debt.amount - 100
    assert (whole.also_confirmed, whole.also_count, whole.owed) == (100, 1, 0)
    assert live_payments(ledger, chat) == [(100, PAYER_SIDE, True), (debt.amount - 100, PAYEE_SIDE, False)]
    assert pair_owed(ledger, *args) == 0
    # the payer's side: his `付 @c 3` after the payee's `收到 1` (of 3 owed)
    chat = next(_chats)
    night(ledger, chat, tag="n2")
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    ledger.pay(*args, 100, side=PAYEE_SIDE, source="w:1", by=8)
    paid = ledger.pay(*args, debt.amount, side=PAYER_SIDE, check_repeat=True, source="w:2", by=7)
    assert (paid.amount, paid.also_confirmed, paid.owed) == (debt.amount - 100, 100, 0)
    # within what is owed: the word still counts what reached its side in all (`收到 @b 3` after b's `已付 1`, on a
    # line larger than 3: b's 1 confirmed and 2 booked, never a third payment beside b's waiting one)
    chat = next(_chats)
    night(ledger, chat, tag="n3")
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    ledger.pay(*args, 100, side=PAYER_SIDE, source="x:1", by=7)
    word = 100 + (debt.amount - 100) // 2
    part = ledger.pay(*args, word, side=PAYEE_SIDE, check_repeat=True, source="x:2", by=8)
    assert (part.amount, part.also_confirmed, part.also_count) == (word - 100, 100, 1)
    assert part.owed == debt.amount - word > 0
    assert live_payments(ledger, chat) == [(100, PAYER_SIDE, True), (word - 100, PAYEE_SIDE, False)]


def test_a_word_that_confirmed_several_is_held_back_when_sent_again_and_one_that_covered_finds_too_much(
    ledger: Ledger, clock: Clock
) -> None:
    """`收到 0.4` that confirmed two `已付 0.2`, sent again within the window, is held back (it would book another
    0.4) and changes nothing; someone else's word books. A word that confirmed the waiting payments and booked the
    rest, sent again, is for more than is owed then: refused, nothing booked twice."""
    from ledger.errors import DuplicatePayment, Overpaid

    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    ledger.pay(*args, 20, side=PAYER_SIDE, check_repeat=True, source="t:1", by=7)
    clock.advance(seconds=120)
    ledger.pay(*args, 20, side=PAYER_SIDE, check_repeat=True, source="t:2", by=7)
    both = ledger.pay(*args, 40, side=PAYEE_SIDE, check_repeat=True, source="t:3", by=8)
    assert not both.booked and both.count == 2 and both.amount == 40
    clock.advance(seconds=5)
    before = (pair_owed(ledger, *args), live_payments(ledger, chat))
    with pytest.raises(DuplicatePayment) as held:
        ledger.pay(*args, 40, side=PAYEE_SIDE, check_repeat=True, source="t:4", by=8)
    assert held.value.seconds == 5
    assert (pair_owed(ledger, *args), live_payments(ledger, chat)) == before
    assert ledger.pay(*args, 40, side=PAYEE_SIDE, check_repeat=True, source="t:5", by=9).booked  # an admin
    # a word that confirmed one and booked the rest, sent again
    clock.advance(seconds=120)
    # (below the admin's 收到 0.4 still waiting for the payer's word: asked, then booked as another: 「再记一笔」)
    ledger.pay(*args, 20, side=PAYER_SIDE, source="t:6", by=7)
    word = pair_owed(ledger, *args) + 10
    covering = ledger.pay(*args, word, side=PAYEE_SIDE, check_repeat=True, source="t:7", by=8)
    assert covering.booked and (covering.also_confirmed, covering.amount, covering.owed) == (20, word - 20, 10)
    clock.advance(seconds=3)
    before = (pair_owed(ledger, *args), live_payments(ledger, chat))
    with pytest.raises(Overpaid):
        ledger.pay(*args, word, side=PAYEE_SIDE, check_repeat=True, source="t:8", by=8)
    assert (pair_owed(ledger, *args), live_payments(ledger, chat)) == before


def test_pair_standing_moves_with_every_payment_and_the_settlement(ledger: Ledger) -> None:
    """What a held-back payment's 「再记一笔」 checks: the pair's debt and the line a payment would settle, changed by
    a payment and by taking the settlement back, not by a confirmation."""
    chat = next(_chats)
    ids = night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    (third,) = set(ids.values()) - {debt.debtor_id, debt.creditor_id}
    args = (chat, debt.debtor_id, debt.creditor_id)
    first = ledger.pair_standing(*args)
    assert first[0] == debt.amount and first[2] >= 0
    ledger.pay(*args, 100, side=PAYER_SIDE, source="s:1", by=7)
    paid = ledger.pair_standing(*args)
    assert paid[0] == debt.amount - 100
    ledger.pay(*args, 100, side=PAYEE_SIDE, source="s:2", by=8)  # a confirmation: the same debt
    assert ledger.pair_standing(*args) == paid
    ledger.void_payment(chat, [debt.debtor_id], source="s:3", by=1, admin=third)
    assert ledger.pair_standing(*args) == first
    ledger.unsettle(chat, source="s:4", by=1)
    assert ledger.pair_standing(*args) == [0, 0, -1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    words=st.lists(
        st.tuples(
            st.sampled_from((PAYER_SIDE, PAYEE_SIDE)),
            st.one_of(st.none(), st.integers(1, 12).map(lambda tenths: tenths * 50)),
            st.booleans(),
            st.integers(0, 200),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_money_booked_between_two_never_exceeds_what_the_settlement_said_and_a_refusal_changes_nothing(
    ledger: Ledger, clock: Clock, words: list[tuple[str, int | None, bool, int]]
) -> None:
    """Whatever either side of a pair says, in any order (amounts or none, typed or not repeat-checked, seconds or
    minutes apart): the pair's live payments never add up to more than the settlement's line, what is owed never
    runs the other way, and a refused word (overpaid, nothing owed, a repeat) changes nothing."""
    from ledger.errors import DuplicatePayment

    chat = next(_chats)
    night(ledger, chat, tag=f"h{chat}")
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    for number, (side, amount, checked, seconds) in enumerate(words):
        clock.advance(seconds=seconds)
        before = (pair_owed(ledger, *args), live_payments(ledger, chat))
        by = 7 if side == PAYER_SIDE else 8
        try:
            ledger.pay(*args, amount, side=side, check_repeat=checked, source=f"h:{chat}:{number}", by=by)
        except (LedgerError, DuplicatePayment):
            assert (pair_owed(ledger, *args), live_payments(ledger, chat)) == before
        paid = sum(amount for amount, _, _ in live_payments(ledger, chat))
        assert paid <= debt.amount
        assert pair_owed(ledger, *args) == debt.amount - paid >= 0


def test_a_typed_word_for_less_than_the_other_side_told_is_asked_not_booked_beside_it(ledger: Ledger) -> None:
    """`收到 @b 0.5` while b's `已付 1` waits matches none of it: part of b's 1, or another transfer? Booked beside it,
    it would count the money twice if it is part; refused (`ShortOfWaiting`, what b told), nothing changed. The
    same on the payer's side; the amount b told confirms it; past the question (no `check_repeat`: its
    「再记一笔」) it books as another payment. What is still owed besides the waiting ones is the rest: booked."""
    from ledger.errors import ShortOfWaiting

    chat = next(_chats)
    night(ledger, chat)
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    assert debt.amount >= 200
    ledger.pay(*args, 100, side=PAYER_SIDE, check_repeat=True, source="s:1", by=7)
    before = (pair_owed(ledger, *args), live_payments(ledger, chat))
    for number, (amount, side) in enumerate([(50, PAYEE_SIDE), (99, PAYEE_SIDE)]):
        with pytest.raises(ShortOfWaiting) as asked:
            ledger.pay(*args, amount, side=side, check_repeat=True, source=f"s:short{number}", by=8)
        assert asked.value.waiting == 100
    assert (pair_owed(ledger, *args), live_payments(ledger, chat)) == before
    another = ledger.pay(*args, 50, side=PAYEE_SIDE, source="s:2", by=8)
    assert another.booked and another.amount == 50
    assert live_payments(ledger, chat) == [(100, PAYER_SIDE, False), (50, PAYEE_SIDE, False)]
    # the payer's side: his `付 @c 0.5` while c's `收到 0.5` (booked just now) waits is that one; less than it is asked
    with pytest.raises(ShortOfWaiting):
        ledger.pay(*args, 20, side=PAYER_SIDE, check_repeat=True, source="s:3", by=7)
    confirmed = ledger.pay(*args, 50, side=PAYER_SIDE, check_repeat=True, source="s:4", by=7)
    assert not confirmed.booked and confirmed.amount == 50
    assert live_payments(ledger, chat) == [(100, PAYER_SIDE, False), (50, PAYEE_SIDE, True)]
    # what is still owed besides the waiting payments, as every reply shows it, is the rest: booked (`已转 @b 1`
    # after b's `收到 3` of 4)
    chat = next(_chats)
    night(ledger, chat, tag="n2")
    (debt, *_) = ledger.debts(chat)
    args = (chat, debt.debtor_id, debt.creditor_id)
    ledger.pay(*args, debt.amount - 50, side=PAYEE_SIDE, source="r:1", by=8)
    rest = ledger.pay(*args, 50, side=PAYER_SIDE, check_repeat=True, source="r:2", by=7)
    assert rest.booked and (rest.amount, rest.owed) == (50, 0)
