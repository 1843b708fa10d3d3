"""Open debts as running totals (`pair_debts`, migration 0011): moved with every settlement, payment, payment
undo and guest link in the same transaction, and always what re-deriving them from every settlement gives."""

from __future__ import annotations

import contextlib
import itertools
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ledger import db
from ledger import payments as ledger_payments
from ledger.chat_options import set_merge_debts
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger, LedgerError

from .helpers import hu

_chats = itertools.count(-800_000, -1)
PLAYERS = "ABCD"


def kept_and_derived(ledger: Ledger, chat: int) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """The running totals and the debts re-derived from every settlement and payment, in one read."""
    group_id = ledger.group(chat).id

    def body(tx: Any) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
        return ledger_payments.pair_debts(tx, group_id), ledger_payments.derived_pair_debts(tx, group_id)

    return ledger._unit.read(body)


def settle_night(ledger: Ledger, chat: int, seats: list[int], wins: list[tuple[int, int]], tag: str) -> None:
    """A night at `seats` (three member ids): each win (winner seat, loser seat; the same: 自摸), then 结算."""
    table = ledger.open_table(chat, seats, source=f"{tag}:open", by=1)
    names = [seat.name for seat in table.seats]
    for number, (winner, loser) in enumerate(wins):
        event = hu(names[winner], "self_draw") if winner == loser else hu(names[winner], "discard", names[loser])
        ledger.record_event(table.id, event, source=f"{tag}:w{number}", by=1)
    ledger.end_night(chat, source=f"{tag}:end", by=1)


_seat = st.integers(0, 2)
#: money of the group's accounts during a night: a fine (seat, 分), or the pot or the house paid out (to anyone of
#: the five, a percentage of what it holds)
_payout = st.tuples(st.just("payout"), st.sampled_from(["pot", "house"]), st.integers(0, 4), st.integers(1, 100))
_extra = st.one_of(st.tuples(st.just("fine"), _seat, st.integers(1, 900)), _payout)
_night = st.tuples(
    st.just("night"),
    st.permutations(range(5)).map(lambda order: order[:3]),  # three of A, B, C, D and the guest
    st.lists(st.tuples(_seat, _seat), min_size=1, max_size=3),
    st.lists(_extra, min_size=1, max_size=3),
)
_steps = st.lists(
    st.one_of(
        *[_night] * 3,  # three times as likely as any other step: the money of the group's accounts needs nights
        st.tuples(st.just("pay"), st.integers(0, 5), st.integers(1, 100), st.sampled_from([PAYER_SIDE, PAYEE_SIDE])),
        st.tuples(st.just("confirm"), st.integers(0, 5)),
        # 「已付」/「收到」 pressed under a post's line (a settlement, a line of it: what it still owes)
        st.tuples(st.just("press"), st.integers(0, 5), st.integers(0, 9), st.sampled_from([PAYER_SIDE, PAYEE_SIDE])),
        st.tuples(st.just("unpay"), st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4))),
        st.tuples(st.just("merge"), st.booleans()),
        st.tuples(st.just("link"), st.integers(0, 3)),
        st.tuples(st.just("fees"), st.sampled_from([0, 300]), st.sampled_from([0, 10])),
        st.tuples(st.just("between"), _extra),  # a fine or a payout while no night is open
        # a fine of no night pardoned (a settled night's fine never is: `ledger.moderation` refuses it)
        st.tuples(st.just("pardon"), st.integers(0, 5)),
        # the latest payout of the pot or the house taken back (撤销发红包池 / 撤销付台费), maybe right after one
        st.tuples(st.just("unpayout"), st.sampled_from(["pot", "house"]), st.one_of(st.none(), _payout)),
    ),
    min_size=1,
    max_size=12,
)


def night_with_extras(ledger: Ledger, chat: int, people: list[int], step: tuple[Any, ...], tag: str) -> None:
    """A night step: the wins, then its fines and payouts (each refused one changes nothing), then 结算."""
    _, seats, wins, extras = step
    seated = [people[i] for i in seats]
    table = ledger.open_table(chat, seated, source=f"{tag}:open", by=1)
    names = [seat.name for seat in table.seats]
    for number, (winner, loser) in enumerate(wins):
        win = hu(names[winner], "self_draw") if winner == loser else hu(names[winner], "discard", names[loser])
        ledger.record_event(table.id, win, source=f"{tag}:w{number}", by=1)
    for number, extra in enumerate(extras):
        with contextlib.suppress(LedgerError):  # refused: nothing moved
            extra_money(ledger, chat, seated if extra[0] == "fine" else people, extra, f"{tag}:x{number}", [])
    closed = ledger.end_night(chat, source=f"{tag}:end", by=1)
    if closed.settlement.passed:
        event("a settlement passed debts through a group account")


def extra_money(
    ledger: Ledger, chat: int, people: list[int], extra: tuple[Any, ...], tag: str, fines: list[int]
) -> None:
    """A fine of one of `people` (its id kept in `fines`: those of no night may be pardoned), or the pot or the
    house paid out to one of them."""
    if extra[0] == "fine":
        fines.append(ledger.fine(people[extra[1] % len(people)], extra[2], "罚", source=tag, by=1).id)
        return
    _, pool, to, percent = extra
    held = sum(line.amount for line in ledger.balances(chat).lines if line.kind == pool)
    share = held * percent // 100
    if pool == "pot":
        ledger.pay_out_pot(chat, {people[to % len(people)]: share}, source=tag, by=1)
    else:
        ledger.pay_out_house(chat, [people[to % len(people)]], amount=share, source=tag, by=1)


def take_back_payout(ledger: Ledger, chat: int, people: list[int], step: tuple[Any, ...], tag: str) -> None:
    """An unpayout step: a payout between nights first when it holds one (refused: none), then the latest payout
    of its account taken back (refused when there is none or something was built on it)."""
    _, pool, payout = step
    if payout is not None:
        with contextlib.suppress(LedgerError):
            extra_money(ledger, chat, people[:4], payout, f"{tag}:payout", [])
    ledger.undo_payout(chat, pool, source=tag, by=1)
    event("a payout taken back")


def assert_pass_through(ledger: Ledger, chat: int, kept: dict[tuple[int, int], int]) -> None:
    """No group account is owed and owes at once after a settlement; with no night open, what is owed to it less
    what it owes is its balance (all its money went through a settlement: a night's, or one of its own)."""
    held = {line.member_id: line.amount for line in ledger.balances(chat).lines if line.kind in ("pot", "house")}
    for pool in held:
        owed = any(creditor == pool for _, creditor in kept)
        owes = any(debtor == pool for debtor, _ in kept)
        assert not (owed and owes), f"account {pool} is owed and owes: {kept}"
        net = sum(a for (_, c), a in kept.items() if c == pool) - sum(a for (d, _), a in kept.items() if d == pool)
        assert net == held[pool], f"account {pool} holds {held[pool]}, is owed {net}: {kept}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_steps, fees_first=st.booleans(), fined_first=st.booleans())
def test_the_running_totals_always_equal_the_debts_re_derived_from_every_settlement(
    ledger: Ledger, steps: list[tuple[Any, ...]], fees_first: bool, fined_first: bool
) -> None:
    """After any sequence of settled nights (with and without 并账; fines, the pot and the house paid out in the
    night, a later one or between nights, 台费 and 抽水, fines pardoned, payouts taken back), payments (whole,
    partial, by either side), confirmations, undos and a guest linked to a member, the kept per-pair totals are
    exactly the re-derived debts, and no group account is owed and owes at once; refused steps change nothing."""
    chat = next(_chats)
    ledger.group(chat)
    people = [ledger.member(chat, 2000 + i, name).id for i, name in enumerate(PLAYERS)]
    people.append(ledger.guest(chat, "客").id)
    if fees_first:  # the house account exists from the first night (else from a "fees" step, if any)
        ledger.set_fees(chat, {"night_fee": 300, "cut_percent": 10}, source=f"{chat}:fees", by=1)
    fines: list[int] = []
    if fined_first:  # the pot holds something from the start (a fine between nights), for its payouts to take
        fines.append(ledger.fine(people[0], 900, "罚", source=f"{chat}:fined", by=1).id)
    for number, step in enumerate(steps):
        tag = f"{chat}:{number}"
        kind = step[0]
        try:
            if kind == "night":
                night_with_extras(ledger, chat, people, step, tag)
            elif kind == "between":
                extra_money(ledger, chat, people[:4], step[1], tag, fines)
            elif kind == "pardon":
                if fines:
                    ledger.cancel_fine(fines[step[1] % len(fines)], source=tag, by=1)
            elif kind == "unpayout":
                take_back_payout(ledger, chat, people, step, tag)
            elif kind == "pay":
                debts = player_debts(ledger, chat)
                if debts:
                    debt = debts[step[1] % len(debts)]
                    amount = max(1, debt.amount * step[2] // 100)
                    ledger.pay(chat, debt.debtor_id, debt.creditor_id, amount, side=step[3], source=tag, by=1)
            elif kind == "press":
                press_a_line(ledger, chat, step, tag)
            elif kind == "confirm":
                debts = player_debts(ledger, chat)
                if debts:
                    debt = debts[step[1] % len(debts)]
                    ledger.pay(chat, debt.debtor_id, debt.creditor_id, side=PAYEE_SIDE, source=tag, by=1)
            elif kind == "unpay":
                parties = [people[step[1]]] + ([people[step[2]]] if step[2] is not None else [])
                ledger.void_payment(chat, parties, source=tag, by=1)
            elif kind == "merge":
                set_merge_debts(ledger.engine, ledger.group(chat).id, step[1], by=1)
            elif kind == "fees":
                ledger.set_fees(chat, {"night_fee": step[1], "cut_percent": step[2]}, source=tag, by=1)
            else:
                ledger.link_guest(people[4], people[step[1]], source=tag, by=1)
        except LedgerError:
            pass  # refused (nothing owed, nothing to undo, played together, already linked): nothing moved
        kept, derived = kept_and_derived(ledger, chat)
        assert kept == derived, f"after step {number} {step}"
        assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)} == kept
        assert_pass_through(ledger, chat, kept)
        assert open_on_posts(ledger, chat) == {
            pair: debt for pair, debt in kept.items() if pair not in pooled(ledger, chat)
        }


def settlement_ids(ledger: Ledger, chat: int) -> list[int]:
    """The group's live settlements, oldest first."""
    group_id = ledger.group(chat).id
    live = "SELECT id FROM settlements WHERE group_id = :g AND voided_at IS NULL ORDER BY id"
    with ledger.engine.connect() as connection:
        return list(connection.execute(sa.text(live), {"g": group_id}).scalars())


def open_on_posts(ledger: Ledger, chat: int) -> dict[tuple[int, int], int]:
    """What every post's lines between players show still owed, summed per pair (each post read on its own); no
    part of a line (owed, paid, carried, offset) is ever negative."""
    pools = group_accounts(ledger, chat)
    shown: dict[tuple[int, int], int] = {}
    for settlement_id in settlement_ids(ledger, chat):
        for state in ledger.payment_lines(chat, settlement_id) or ():
            if state.payer_id in pools or state.payee_id in pools:
                continue
            assert min(state.open, state.paid, state.carried, state.offset) >= 0, state
            if state.open:
                pair = (state.payer_id, state.payee_id)
                shown[pair] = shown.get(pair, 0) + state.open
    return shown


def pooled(ledger: Ledger, chat: int) -> set[tuple[int, int]]:
    """The pairs with the pot or the house (their lines are passed on, never paid)."""
    pools = group_accounts(ledger, chat)
    return {(d.debtor_id, d.creditor_id) for d in ledger.debts(chat) if {d.debtor_id, d.creditor_id} & pools}


def press_a_line(ledger: Ledger, chat: int, step: tuple[Any, ...], tag: str) -> None:
    """A press under a post's line still owed, as the bot makes it: it books what the line owes, and exactly that
    line shows it paid (the pair's other lines keep what they showed); or, when the other side's word waits, it
    confirms that and books nothing (no line moves)."""
    _, which, index, side = step
    posts = settlement_ids(ledger, chat)
    if not posts:
        return
    settlement_id = posts[which % len(posts)]
    pools = group_accounts(ledger, chat)
    states = ledger.payment_lines(chat, settlement_id) or []
    lines = [i for i, s in enumerate(states) if s.open and s.payer_id not in pools and s.payee_id not in pools]
    if not lines:
        return
    line = lines[index % len(lines)]
    before = {s: [state.open for state in ledger.payment_lines(chat, s) or ()] for s in posts}
    pressed = states[line]
    paid = ledger.pay(
        chat,
        pressed.payer_id,
        pressed.payee_id,
        side=side,
        at_most=pressed.open,
        line=(settlement_id, line),
        source=tag,
        by=1,
    )
    if paid.booked:
        event("a post's line pressed")
        assert paid.amount == pressed.open
        before[settlement_id][line] = 0
        assert (ledger.payment_lines(chat, settlement_id) or [])[line].paid == pressed.paid + pressed.open
    assert {s: [state.open for state in ledger.payment_lines(chat, s) or ()] for s in posts} == before


def group_accounts(ledger: Ledger, chat: int) -> set[int]:
    return {line.member_id for line in ledger.balances(chat).lines if line.kind in ("pot", "house")}


def player_debts(ledger: Ledger, chat: int) -> list[Any]:
    """The open debts between players (a payment to or from a group account is refused)."""
    pools = group_accounts(ledger, chat)
    return [d for d in ledger.debts(chat) if d.debtor_id not in pools and d.creditor_id not in pools]


def test_a_payment_and_its_undo_move_the_pair_and_a_refused_one_moves_nothing(ledger: Ledger) -> None:
    chat = next(_chats)
    ledger.group(chat)
    people = [ledger.member(chat, 3000 + i, name).id for i, name in enumerate("ABC")]
    settle_night(ledger, chat, people, [(2, 0)], "n")
    (debt,) = ledger.debts(chat)
    kept, _ = kept_and_derived(ledger, chat)
    assert kept == {(debt.debtor_id, debt.creditor_id): debt.amount}
    ledger.pay(chat, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="p", by=1)
    assert kept_and_derived(ledger, chat)[0] == {(debt.debtor_id, debt.creditor_id): debt.amount - 100}
    with pytest.raises(LedgerError):
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, debt.amount, side=PAYER_SIDE, source="q", by=1)
    assert kept_and_derived(ledger, chat)[0] == {(debt.debtor_id, debt.creditor_id): debt.amount - 100}
    ledger.void_payment(chat, [debt.debtor_id], source="u", by=1)
    assert kept_and_derived(ledger, chat) == ({(debt.debtor_id, debt.creditor_id): debt.amount},) * 2


def test_0011_fills_the_running_totals_from_an_existing_ledger_and_downgrades(empty_db_url: str, clock) -> None:
    """A ledger with settled nights, netted debts and payments, taken down to 0010 and up again: 0011 fills
    `pair_debts` with exactly the debts re-derived from its settlements and payments; its downgrade drops it."""
    db.upgrade(empty_db_url)
    ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
    chat = -4242
    try:
        ledger.group(chat)
        people = [ledger.member(chat, 4000 + i, name).id for i, name in enumerate("ABCD")]
        settle_night(ledger, chat, people[:3], [(2, 0), (1, 1)], "n1")
        settle_night(ledger, chat, people[1:], [(0, 2)], "n2")
        debt = ledger.debts(chat)[0]
        ledger.pay(chat, debt.debtor_id, debt.creditor_id, 50, side=PAYER_SIDE, source="p1", by=1)
        settle_night(ledger, chat, people[:3], [(0, 1)], "n3")
        expected, derived = kept_and_derived(ledger, chat)
        assert expected == derived and expected
    finally:
        ledger.close()
    for _ in range(2):
        db.downgrade(empty_db_url, "0010")
        engine = db.make_engine(empty_db_url)
        try:
            assert "pair_debts" not in set(sa.inspect(engine).get_table_names())
        finally:
            engine.dispose()
        db.upgrade(empty_db_url, "0011")
        engine = db.make_engine(empty_db_url)
        try:
            with engine.connect() as connection:
                rows = connection.execute(sa.text("SELECT low_id, high_id, amount FROM pair_debts")).all()
        finally:
            engine.dispose()
        assert {(low, high) if amount > 0 else (high, low): abs(amount) for low, high, amount in rows} == expected
        db.upgrade(empty_db_url)
        ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
        try:
            assert kept_and_derived(ledger, chat) == (expected, expected)
            assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(chat)} == expected
        finally:
            ledger.close()


def test_a_guest_linked_to_a_member_hands_the_member_its_debts(ledger: Ledger) -> None:
    chat = next(_chats)
    ledger.group(chat)
    a, b, d = (ledger.member(chat, 5000 + i, name).id for i, name in enumerate("ABD"))
    guest = ledger.guest(chat, "客").id
    settle_night(ledger, chat, [a, b, guest], [(2, 2)], "n")  # the guest wins by self-draw: A and B owe it
    before = kept_and_derived(ledger, chat)[0]
    assert any(guest in pair for pair in before)
    ledger.link_guest(guest, d, source="link", by=1)
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived == {tuple(d if x == guest else x for x in pair): v for pair, v in before.items()}


def test_a_guest_who_paid_a_member_is_not_linked_to_that_member(ledger: Ledger) -> None:
    """A guest's fine paid out of the pot to D makes the guest owe D without ever sharing a table; once the guest
    paid D, linking the two would turn that payment into money to oneself: refused, nothing moved."""
    chat = next(_chats)
    ledger.group(chat)
    a, b, d = (ledger.member(chat, 5100 + i, name).id for i, name in enumerate("ABD"))
    guest = ledger.guest(chat, "客").id
    settle_night(ledger, chat, [a, b, guest], [(0, 2)], "n")
    ledger.fine(guest, 300, "迟到", source="fine", by=1)
    ledger.pay_out_pot(chat, {d: 300}, source="payout", by=1)
    ledger.pay(chat, guest, d, side=PAYER_SIDE, source="paid", by=1)
    before = ledger.balances(chat)
    with pytest.raises(LedgerError, match="之间付过钱"):
        ledger.link_guest(guest, d, source="link", by=1)
    assert ledger.balances(chat) == before and ledger.guest(chat, "客").linked_to is None


def pool_night(ledger: Ledger, chat: int, seats: list[int], tag: str, *, fine: int | None = None, pay=None) -> Any:
    """A night at `seats` with one 自摸 of the first seat, a fine of `fine` (seat index) and a payout `pay`
    ((kind, member id, 分)), then 结算: the closed night."""
    table = ledger.open_table(chat, seats, source=f"{tag}:open", by=1)
    ledger.record_event(table.id, hu(table.seats[0].name, "self_draw"), source=f"{tag}:w", by=1)
    if fine is not None:
        ledger.fine(seats[fine], 500, "罚", source=f"{tag}:fine", by=1)
    if pay is not None:
        kind, to, amount = pay
        if kind == "pot":
            ledger.pay_out_pot(chat, {to: amount}, source=f"{tag}:pay", by=1)
        else:
            ledger.pay_out_house(chat, [to], amount=amount, source=f"{tag}:pay", by=1)
    return ledger.end_night(chat, source=f"{tag}:end", by=1)


def test_a_fine_paid_out_in_a_later_night_passes_through_the_pot_to_whom_it_was_paid(ledger: Ledger) -> None:
    """B's fine makes B owe the pot (waiting for 发红包池); the pot paid out to D a night later: B owes D, and
    what is left of the fine still waits. Both are debts like any other, and D's is payable."""
    chat = next(_chats)
    ledger.group(chat)
    a, b, c, d = (ledger.member(chat, 6000 + i, name).id for i, name in enumerate("ABCD"))
    pot = next(line.member_id for line in ledger.balances(chat).lines if line.kind == "pot")
    first = pool_night(ledger, chat, [a, b, c], "n1", fine=1)
    assert first.settlement.passed == ()
    assert kept_and_derived(ledger, chat)[0][(b, pot)] == 500
    second = pool_night(ledger, chat, [a, b, c], "n2", pay=("pot", d, 300))
    (passed,) = second.settlement.passed
    assert ledger.end_night(chat, source="n2:end", by=1).settlement.passed == (passed,)  # a replay answers the same
    assert (passed.payer_id, passed.payee_id, passed.amount, passed.via_id) == (b, d, 300, pot)
    kept, derived = kept_and_derived(ledger, chat)
    assert kept == derived
    assert kept[(b, pot)] == 200 and kept[(b, d)] == 300 and (pot, d) not in kept
    ledger.pay(chat, b, d, None, side=PAYER_SIDE, source="p", by=1)
    assert (b, d) not in kept_and_derived(ledger, chat)[0]
    with pytest.raises(LedgerError):  # what is owed to the pot is never paid to it: it waits for 发红包池
        ledger.pay(chat, b, pot, None, side=PAYER_SIDE, source="q", by=1)


def rows_of(url: str) -> Any:
    """A reader of raw rows from the database at `url`, on an engine of its own (a migration test's view)."""

    def read(sql: str) -> list[Any]:
        engine = db.make_engine(url)
        try:
            with engine.connect() as connection:
                return list(connection.execute(sa.text(sql)).all())
        finally:
            engine.dispose()

    return read


def test_0013_passes_an_existing_ledgers_debts_through_the_group_accounts_and_downgrades(
    empty_db_url: str, clock
) -> None:
    """A ledger with fines, 台费 and payouts in later nights and between nights, taken down to 0012 (debts between
    players only, the passes and the settlements of no night gone) and up again: 0013 writes the same settlements
    of money booked between nights, stores the same passes and refills the same debts the code keeps."""
    db.upgrade(empty_db_url)
    ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
    chat = -4343
    try:
        ledger.group(chat)
        a, b, c, d = (ledger.member(chat, 7000 + i, name).id for i, name in enumerate("ABCD"))
        ledger.set_fees(chat, {"night_fee": 300}, source="fees", by=1)
        pool_night(ledger, chat, [a, b, c], "n1", fine=1)
        clock.advance(minutes=1)
        pool_night(ledger, chat, [b, c, d], "n2", pay=("pot", a, 400))
        clock.advance(minutes=1)
        ledger.pay(chat, b, a, 100, side=PAYER_SIDE, source="p1", by=1)
        ledger.pay_out_house(chat, [c], amount=200, source="between1", by=1)  # no night open: settled at once
        clock.advance(minutes=1)
        ledger.fine(d, 150, "罚", source="between2", by=1)
        clock.advance(minutes=1)
        pool_night(ledger, chat, [a, c, d], "n3", pay=("house", d, 500))
        clock.advance(minutes=1)
        ledger.pay_out_pot(chat, {b: 50}, source="between3", by=1)
        expected, derived = kept_and_derived(ledger, chat)
        pools = group_accounts(ledger, chat)
        assert expected == derived and any(pool in pair for pair in expected for pool in pools)
    finally:
        ledger.close()

    read = rows_of(empty_db_url)

    in_order = "SELECT night_id, payments, passed FROM settlements ORDER BY created_at, id"
    passed = [(row.night_id, row.passed) for row in read(in_order)]
    assert sum(row.night_id is None for row in read(in_order)) == 3
    assert any(stored for _, stored in passed)
    for _ in range(2):
        db.downgrade(empty_db_url, "0012")
        rows = read("SELECT low_id, high_id, amount FROM pair_debts")
        assert not {x for row in rows for x in row[:2]} & pools  # 0011's debts: between players only
        assert {(low, high) if amount > 0 else (high, low): abs(amount) for low, high, amount in rows} == (
            players_only(read("SELECT payments, carried FROM settlements"), read(PAID), pools)
        )
        db.upgrade(empty_db_url)
        assert [(row.night_id, row.passed) for row in read(in_order)] == passed
        ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
        try:
            assert kept_and_derived(ledger, chat) == (expected, expected)
        finally:
            ledger.close()


PAID = "SELECT payer_id, payee_id, amount FROM transfers WHERE kind = 'payment' AND voided_at IS NULL"


def players_only(settlements: list[Any], paid: list[Any], pools: set[int]) -> dict[tuple[int, int], int]:
    """The debts as 0011 defines them: settlements' lines between players, less netted debts and payments."""
    import json

    net: dict[tuple[int, int], int] = {}

    def add(debtor: int, creditor: int, amount: int) -> None:
        if debtor in pools or creditor in pools:
            return
        net[(debtor, creditor)] = net.get((debtor, creditor), 0) + amount
        net[(creditor, debtor)] = net.get((creditor, debtor), 0) - amount

    for lines, carried in settlements:
        lines = json.loads(lines) if isinstance(lines, str) else lines
        carried = json.loads(carried) if isinstance(carried, str) else carried
        for line in lines or ():
            add(line["payer_id"], line["payee_id"], line["amount"])
        for debtor, creditor, amount in carried or ():
            add(debtor, creditor, -amount)
    for creditor, debtor, amount in paid:
        add(debtor, creditor, -amount)
    return {pair: amount for pair, amount in net.items() if amount > 0}


_POOLS = [1, 2]  # the pot and the house; 3..6 are people
_debt_maps = st.dictionaries(
    st.tuples(st.integers(1, 6), st.integers(1, 6)).filter(lambda pair: pair[0] < pair[1]),
    st.integers(-500, 500).filter(bool),
    max_size=10,
).map(lambda signed: {(low, high) if a > 0 else (high, low): abs(a) for (low, high), a in signed.items()})


@given(debts=_debt_maps)
def test_pass_through_leaves_no_account_owed_and_owing_and_moves_nobody_s_net(
    debts: dict[tuple[int, int], int],
) -> None:
    """Whatever the debts (a line between the pot and the house among them), after the passes neither account is
    owed and owing at once, and everyone's net position — the accounts' too — is what it was."""
    passed = ledger_payments.pass_through(debts, _POOLS)
    before: dict[tuple[int, int], int] = {}  # both ways: (d, c) -> what d owes c, (c, d) -> minus that

    def add(book: dict[tuple[int, int], int], debtor: int, creditor: int, amount: int) -> None:
        book[(debtor, creditor)] = book.get((debtor, creditor), 0) + amount
        book[(creditor, debtor)] = book.get((creditor, debtor), 0) - amount

    for (debtor, creditor), amount in debts.items():
        add(before, debtor, creditor, amount)
    after = dict(before)
    for x, y, amount, pool in passed:
        assert amount > 0 and x != y and pool in _POOLS
        for move in ledger_payments.passing(x, y, amount, pool):
            add(after, *move)
    for who in range(1, 7):  # what is owed to each, less what each owes
        assert sum(a for (_, c), a in after.items() if c == who) == sum(a for (_, c), a in before.items() if c == who)
    for pool in _POOLS:
        owed = any(a > 0 and c == pool for (_, c), a in after.items())
        owes = any(a > 0 and d == pool for (d, _), a in after.items())
        assert not (owed and owes)
    assert ledger_payments.pass_through(debts, _POOLS) == passed  # deterministic


def test_a_line_from_the_pot_to_the_house_passes_on_through_both() -> None:
    """3 owes the pot 5, the pot owes the house 3, the house owes 4 3: 3 owes 4 3 and the pot 2."""
    passed = ledger_payments.pass_through({(3, 1): 5, (1, 2): 3, (2, 4): 3}, _POOLS)
    assert passed == [[3, 2, 3, 1], [3, 4, 3, 2]]


def test_0013_leaves_a_ledger_with_fines_voided_before_it_as_the_code_keeps_it(empty_db_url: str, clock) -> None:
    """0013 writes a settlement for each live fine and payout booked between nights, and none for a fine voided
    before the upgrade (the code books one for the fine and one for its undo, which cancel out). A ledger whose
    voided fines had no such settlements (0012's state) reads, after the upgrade, the balances, the debts, the
    passes and the payment lines the code keeps for the same bookings: nothing is wrong, nothing to rebuild."""
    db.upgrade(empty_db_url)
    ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
    chat = -4545
    try:
        ledger.group(chat)
        a, b, c, d = (ledger.member(chat, 7100 + i, name).id for i, name in enumerate("ABCD"))
        cancelled = ledger.fine(b, 300, "罚", source="between1", by=1)  # between nights, voided between nights
        clock.advance(minutes=1)
        ledger.cancel_fine(cancelled.id, source="between1:cancel", by=1)
        kept = ledger.fine(c, 500, "罚", source="between2", by=1)  # kept, then one voided while the pot holds it
        clock.advance(minutes=1)
        voided = ledger.fine(d, 200, "罚", source="between3", by=1)
        clock.advance(minutes=1)
        ledger.cancel_fine(voided.id, source="between3:cancel", by=1)
        table = ledger.open_table(chat, [a, b, c], source="n1:open", by=1)
        ledger.record_event(table.id, hu(table.seats[0].name, "self_draw"), source="n1:w", by=1)
        in_night = ledger.fine(b, 400, "罚", source="n1:fine", by=1)  # voided inside its night, before 结算
        ledger.cancel_fine(in_night.id, source="n1:cancel", by=1)
        ledger.pay_out_pot(chat, {d: 300}, source="n1:pay", by=1)
        first = ledger.end_night(chat, source="n1:end", by=1).settlement
        clock.advance(minutes=1)
        late = ledger.fine(a, 150, "罚", source="between4", by=1)  # after the night, voided before the next
        clock.advance(minutes=1)
        ledger.cancel_fine(late.id, source="between4:cancel", by=1)
        ledger.pay_out_pot(chat, {a: 100}, source="between5", by=1)
        expected = kept_and_derived(ledger, chat)
        assert expected[0] == expected[1] and (c, d) in expected[0]  # c's kept fine passed on to d
        balances = {line.member_id: (line.amount, line.result) for line in ledger.balances(chat).lines}
        assert first.id is not None
        lines = ledger.payment_lines(chat, first.id)
        assert kept.amount == 500
    finally:
        ledger.close()

    read = rows_of(empty_db_url)

    nightless = "SELECT payments, passed FROM settlements WHERE night_id IS NULL ORDER BY id"
    assert len(read(nightless)) == 2 + 2 * 3  # the kept fine, the payout; each voided fine and its undo
    for _ in range(2):
        db.downgrade(empty_db_url, "0012")  # the state before 0013: no settlement of money booked between nights
        assert read("SELECT count(*) FROM settlements WHERE night_id IS NULL")[0][0] == 0
        db.upgrade(empty_db_url)
        assert len(read(nightless)) == 2  # the live fine and payout only
        ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
        try:
            assert kept_and_derived(ledger, chat) == expected
            assert {line.member_id: (line.amount, line.result) for line in ledger.balances(chat).lines} == balances
            assert ledger.payment_lines(chat, first.id) == lines
        finally:
            ledger.close()
