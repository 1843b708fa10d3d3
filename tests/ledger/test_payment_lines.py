"""Where a settlement's lines stand (`Ledger.payment_lines`): a pair with several lines shares its debt among them,
a button's word confirms every payment waiting for it, and a linked guest's lines stand under the member."""

from __future__ import annotations

import pytest

from ledger.chat_options import set_merge_debts
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger, LedgerError

from .helpers import CHAT, hu


def test_a_pairs_two_lines_share_its_debt_and_the_pressed_line_is_the_one_paid(ledger: Ledger) -> None:
    """A owes B directly and through the pot (A's fine paid out to B): two lines of one pair. 「已付」 under the
    second line pays that line; together the lines show what the pair owes, never more."""
    group = ledger.group(CHAT)
    set_merge_debts(ledger.engine, group.id, False, by=1)
    a, b, c = (ledger.member(CHAT, 1000 + i, name) for i, name in enumerate("ABC"))
    ledger.fine(a.id, 500, "刷屏", source="l:fine", by=1)
    table = ledger.open_table(CHAT, [a.id, b.id, c.id], source="l:open", by=1000)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="l:hu", by=1000)
    ledger.pay_out_pot(CHAT, [b.id], source="l:payout", by=1)
    settlement = ledger.end_night(CHAT, source="l:end", by=1).settlement
    assert settlement.id is not None
    lines = [(p.payer_id, p.payee_id, p.amount) for p in (*settlement.payments, *settlement.passed)]
    mine = [i for i, (x, y, _) in enumerate(lines) if (x, y) == (a.id, b.id)]
    assert len(mine) == 2
    first, second = mine
    owed = {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(CHAT)}[(a.id, b.id)]
    assert owed == lines[first][2] + lines[second][2]

    line = (settlement.id, second)
    ledger.pay(CHAT, a.id, b.id, side=PAYER_SIDE, at_most=lines[second][2], line=line, source="l:pay", by=1000)
    states = ledger.payment_lines(CHAT, settlement.id)
    assert states is not None
    assert (states[second].open, states[second].paid, states[second].waiting) == (0, lines[second][2], PAYER_SIDE)
    assert (states[first].open, states[first].paid, states[first].waiting) == (lines[first][2], 0, None)
    assert states[first].open + states[second].open == owed - lines[second][2]


def test_a_confirmation_without_an_amount_confirms_every_payment_waiting_for_it(ledger: Ledger) -> None:
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    table = ledger.open_table(CHAT, [a.id, b.id, ledger.member(CHAT, 1002, "C").id], source="c:open", by=1000)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="c:hu", by=1000)
    settlement = ledger.end_night(CHAT, source="c:end", by=1).settlement
    first = ledger.pay(CHAT, a.id, b.id, 40, side=PAYER_SIDE, source="c:1", by=1000)
    second = ledger.pay(CHAT, a.id, b.id, 60, side=PAYER_SIDE, source="c:2", by=1000)
    confirmed = ledger.pay(CHAT, a.id, b.id, None, side=PAYEE_SIDE, confirm_only=True, source="c:3", by=1001)
    assert (confirmed.id, confirmed.amount, confirmed.count) == (second.id, 100, 2)
    assert confirmed.confirmed and not confirmed.booked and confirmed.first_in_person
    with pytest.raises(LedgerError) as nothing:  # the earlier one was confirmed too
        ledger.pay(CHAT, a.id, b.id, first.amount, side=PAYEE_SIDE, confirm_only=True, source="c:4", by=1001)
    assert nothing.value.code == "nothing_to_confirm"
    assert settlement.id is not None
    states = ledger.payment_lines(CHAT, settlement.id) or []
    assert all(state.waiting is None for state in states)


def test_a_named_amount_confirms_only_the_payment_of_that_amount(ledger: Ledger) -> None:
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    table = ledger.open_table(CHAT, [a.id, b.id, ledger.member(CHAT, 1002, "C").id], source="n:open", by=1000)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="n:hu", by=1000)
    ledger.end_night(CHAT, source="n:end", by=1)
    first = ledger.pay(CHAT, a.id, b.id, 40, side=PAYER_SIDE, source="n:1", by=1000)
    ledger.pay(CHAT, a.id, b.id, 60, side=PAYER_SIDE, source="n:2", by=1000)
    confirmed = ledger.pay(CHAT, a.id, b.id, 40, side=PAYEE_SIDE, source="n:3", by=1001)
    assert (confirmed.id, confirmed.amount, confirmed.count) == (first.id, 40, 1)
    rest = ledger.pay(CHAT, a.id, b.id, None, side=PAYEE_SIDE, confirm_only=True, source="n:4", by=1001)
    assert (rest.amount, rest.count) == (60, 1)


def test_a_named_amount_that_is_the_total_waiting_confirms_them_all(ledger: Ledger) -> None:
    """A said 已付 twice (40, then 60); B's 收到 100 is his word for both: confirmed, never a third payment of 100
    (which read the pair as paid 200 when 100 was handed over)."""
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    table = ledger.open_table(CHAT, [a.id, b.id, ledger.member(CHAT, 1002, "C").id], source="t:open", by=1000)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="t:hu", by=1000)
    ledger.end_night(CHAT, source="t:end", by=1)
    owed = ledger.debts(CHAT, [a.id, b.id])[0].amount
    assert owed >= 200
    ledger.pay(CHAT, a.id, b.id, 40, side=PAYER_SIDE, source="t:1", by=1000)
    second = ledger.pay(CHAT, a.id, b.id, 60, side=PAYER_SIDE, source="t:2", by=1000)
    confirmed = ledger.pay(CHAT, a.id, b.id, 100, side=PAYEE_SIDE, source="t:3", by=1001)
    assert (confirmed.id, confirmed.amount, confirmed.count, confirmed.booked) == (second.id, 100, 2, False)
    assert confirmed.confirmed and confirmed.owed == owed - 100
    # a total that is not theirs books a new payment, as before
    ledger.pay(CHAT, a.id, b.id, 20, side=PAYER_SIDE, source="t:4", by=1000)
    ledger.pay(CHAT, a.id, b.id, 20, side=PAYER_SIDE, source="t:5", by=1000)
    booked = ledger.pay(CHAT, a.id, b.id, 30, side=PAYEE_SIDE, source="t:6", by=1001)
    assert booked.booked and booked.owed == owed - 170


def test_a_line_still_waits_while_an_earlier_payment_of_it_is_unconfirmed(ledger: Ledger) -> None:
    """A said 已付 twice (40, then 60); B's 收到 60 confirms the later one only: the line still waits for B's word
    on the 40 (it read as settled, the post dropping 「待 B 确认」, while the 40 was still unconfirmed)."""
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    table = ledger.open_table(CHAT, [a.id, b.id, ledger.member(CHAT, 1002, "C").id], source="w:open", by=1000)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="w:hu", by=1000)
    settlement = ledger.end_night(CHAT, source="w:end", by=1).settlement
    assert settlement.id is not None
    ledger.pay(CHAT, a.id, b.id, 40, side=PAYER_SIDE, source="w:1", by=1000)
    ledger.pay(CHAT, a.id, b.id, 60, side=PAYER_SIDE, source="w:2", by=1000)
    ledger.pay(CHAT, a.id, b.id, 60, side=PAYEE_SIDE, source="w:3", by=1001)
    line = next(state for state in ledger.payment_lines(CHAT, settlement.id) or [] if state.payer_id == a.id)
    assert (line.paid, line.waiting) == (100, PAYER_SIDE)
    ledger.pay(CHAT, a.id, b.id, 40, side=PAYEE_SIDE, source="w:4", by=1001)
    line = next(state for state in ledger.payment_lines(CHAT, settlement.id) or [] if state.payer_id == a.id)
    assert (line.paid, line.waiting) == (100, None)


def test_a_linked_guests_lines_stand_under_the_member(ledger: Ledger) -> None:
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    guest = ledger.guest(CHAT, "表哥")
    table = ledger.open_table(CHAT, [a.id, b.id, guest.id], source="g:open", by=1000)
    ledger.record_hand(table.id, [hu("A", "self_draw")], source="g:hu", by=1000)
    settlement = ledger.end_night(CHAT, source="g:end", by=1).settlement
    assert settlement.id is not None
    index = next(i for i, p in enumerate(settlement.payments) if p.payer_id == guest.id)
    cousin = ledger.member(CHAT, 1003, "表哥本人")
    ledger.link_guest(guest.id, cousin.id, source="g:link", by=1)
    state = (ledger.payment_lines(CHAT, settlement.id) or [])[index]
    assert (state.payer_id, state.payee_id, state.open) == (cousin.id, a.id, state.amount)
    ledger.pay(CHAT, cousin.id, a.id, None, side=PAYER_SIDE, at_most=state.open, source="g:pay", by=1003)
    state = (ledger.payment_lines(CHAT, settlement.id) or [])[index]
    assert (state.open, state.paid, state.waiting) == (0, state.amount, PAYER_SIDE)


def test_a_linked_guests_line_to_the_house_stands_under_the_member(ledger: Ledger) -> None:
    """A guest's line to the house (台费), the guest linked to a member since: still owed (by the member), never
    read as settled; once the house is paid out, passed on to the one paid, the member owing him instead."""
    ledger.group(CHAT)
    ledger.set_fees(CHAT, {"night_fee": 3000}, source="h:fees", by=1)
    a, b = ledger.member(CHAT, 1000, "A"), ledger.member(CHAT, 1001, "B")
    guest = ledger.guest(CHAT, "表哥")
    table = ledger.open_table(CHAT, [a.id, b.id, guest.id], source="h:open", by=1000)
    ledger.record_hand(table.id, [hu("A", "self_draw")], source="h:hu", by=1000)
    settlement = ledger.end_night(CHAT, source="h:end", by=1).settlement
    assert settlement.id is not None
    index = next(i for i, p in enumerate(settlement.payments) if p.payer_id == guest.id and p.payee != "A")
    house = settlement.payments[index].payee_id
    amount = settlement.payments[index].amount
    cousin = ledger.member(CHAT, 1003, "表哥本人")
    ledger.link_guest(guest.id, cousin.id, source="h:link", by=1)
    state = (ledger.payment_lines(CHAT, settlement.id) or [])[index]
    assert (state.payer_id, state.payee_id, state.open, state.passed, state.offset) == (cousin.id, house, amount, (), 0)
    ledger.pay_out_house(CHAT, [b.id], source="h:payout", by=1)
    state = (ledger.payment_lines(CHAT, settlement.id) or [])[index]
    assert (state.open, state.passed, state.offset) == (0, ((b.id, amount),), 0)
    assert {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(CHAT)}[(cousin.id, b.id)] >= amount


def test_a_typed_payment_finds_the_latest_post_with_a_line_of_its_pair(ledger: Ledger) -> None:
    """The post a typed 付 / 收到 / 撤销付款 rewrites: the latest posted settlement with a line of the pair (either
    way; a guest linked since counts as its member); settlements whose post is not known are passed over."""
    ledger.group(CHAT)
    set_merge_debts(ledger.engine, ledger.group(CHAT).id, False, by=1)
    a, b, c = (ledger.member(CHAT, 1000 + i, name) for i, name in enumerate("ABC"))
    guest = ledger.guest(CHAT, "表哥")
    posts = []
    for night, seats in enumerate(([a, b, guest], [a, b, c], [a, c, guest])):
        table = ledger.open_table(CHAT, [s.id for s in seats], source=f"p:open:{night}", by=1000)
        ledger.record_hand(table.id, [hu(seats[0].name, "self_draw")], source=f"p:hu:{night}", by=1000)
        settlement = ledger.end_night(CHAT, source=f"p:end:{night}", by=1).settlement
        assert settlement.id is not None
        posts.append(settlement.id)
    assert ledger.payment_posts_of(CHAT, b.id, a.id) == []  # no post known yet
    ledger.set_payment_post(CHAT, posts[0], 501)
    ledger.set_payment_post(CHAT, posts[2], 503)
    ledger.group(-1)
    ledger.set_payment_post(-1, posts[1], 999)  # from another chat: nothing
    assert ledger.payment_posts_of(CHAT, b.id, a.id) == [(posts[0], 501)]  # the second night's post is not known
    ledger.set_payment_post(CHAT, posts[1], 502)
    assert ledger.payment_posts_of(CHAT, a.id, b.id) == [(posts[1], 502)]
    cousin = ledger.member(CHAT, 1003, "表哥本人")
    ledger.link_guest(guest.id, cousin.id, source="p:link", by=1)
    assert ledger.payment_posts_of(CHAT, cousin.id, a.id) == [(posts[2], 503)]
    assert ledger.payment_posts_of(CHAT, b.id, c.id) == []


def test_a_pairs_lines_in_two_settlements_show_the_pressed_one_paid(ledger: Ledger) -> None:
    """Nights kept apart (设置 并账 关): A owes B a line in each night's post. 「已付」 under the second books that
    line's amount; the second post should show it paid and the two posts together what the pair still owes."""
    group = ledger.group(CHAT)
    set_merge_debts(ledger.engine, group.id, False, by=1)
    a, b, c = (ledger.member(CHAT, 1000 + i, name) for i, name in enumerate("ABC"))
    settlements = []
    for night in range(2):
        table = ledger.open_table(CHAT, [a.id, b.id, c.id], source=f"t:open:{night}", by=1000)
        ledger.record_hand(table.id, [hu("B", "discard", "A")], source=f"t:hu:{night}", by=1000)
        settled = ledger.end_night(CHAT, source=f"t:end:{night}", by=1).settlement
        assert settled.id is not None
        settlements.append(settled.id)
    second = (ledger.payment_lines(CHAT, settlements[1]) or [])[0]
    line = (settlements[1], 0)
    ledger.pay(CHAT, a.id, b.id, None, side=PAYER_SIDE, at_most=second.open, line=line, source="t:pay", by=1000)
    states = [(ledger.payment_lines(CHAT, s) or [])[0] for s in settlements]
    assert sum(state.open for state in states) == second.amount  # what the pair still owes
    assert (states[1].open, states[1].paid) == (0, second.amount)
    assert (states[0].open, states[0].paid, states[0].waiting) == (second.amount, 0, None)


def two_nights_apart(ledger: Ledger, tag: str) -> tuple[int, int, list[int]]:
    """Nights kept apart (设置 并账 关), in each B wins off A: A owes B a line in each night's post. Returns A's and
    B's ids and the two settlements' ids."""
    group = ledger.group(CHAT)
    set_merge_debts(ledger.engine, group.id, False, by=1)
    a, b, c = (ledger.member(CHAT, 1000 + i, name) for i, name in enumerate("ABC"))
    settlements = []
    for night in range(2):
        table = ledger.open_table(CHAT, [a.id, b.id, c.id], source=f"{tag}:open:{night}", by=1000)
        ledger.record_hand(table.id, [hu("B", "discard", "A")], source=f"{tag}:hu:{night}", by=1000)
        settled = ledger.end_night(CHAT, source=f"{tag}:end:{night}", by=1).settlement
        assert settled.id is not None
        settlements.append(settled.id)
    return a.id, b.id, settlements


def a_to_b(ledger: Ledger, settlements: list[int]) -> list[tuple[int, int, str | None]]:
    """(still owed, paid, word awaited) of A's line to B in each post."""
    return [
        (state.open, state.paid, state.waiting)
        for state in (next(iter(ledger.payment_lines(CHAT, s) or [])) for s in settlements)
    ]


def test_a_typed_payment_fills_the_pairs_oldest_line_first_and_the_rest_the_next(ledger: Ledger) -> None:
    a, b, settlements = two_nights_apart(ledger, "o")
    line = (ledger.payment_lines(CHAT, settlements[0]) or [])[0].amount
    assert a_to_b(ledger, settlements) == [(line, 0, None)] * 2
    ledger.pay(CHAT, a, b, line // 2, side=PAYER_SIDE, source="o:1", by=1000)
    assert a_to_b(ledger, settlements) == [(line - line // 2, line // 2, PAYER_SIDE), (line, 0, None)]
    ledger.pay(CHAT, a, b, line, side=PAYER_SIDE, source="o:2", by=1000)  # the first line's rest, then the second
    assert a_to_b(ledger, settlements) == [(0, line, PAYER_SIDE), (line // 2, line - line // 2, PAYER_SIDE)]
    assert sum(open_ for open_, _, _ in a_to_b(ledger, settlements)) == ledger.debts(CHAT)[0].amount


def test_a_voided_payment_reopens_the_line_it_paid(ledger: Ledger) -> None:
    """A typed payment (the first line), 「已付」 under the second post, then 撤销付款 (the latest: the press): the
    second line is owed again and the first stays paid."""
    a, b, settlements = two_nights_apart(ledger, "v")
    line = (ledger.payment_lines(CHAT, settlements[0]) or [])[0].amount
    ledger.pay(CHAT, a, b, line, side=PAYER_SIDE, source="v:typed", by=1000)
    ledger.pay(CHAT, a, b, side=PAYER_SIDE, at_most=line, line=(settlements[1], 0), source="v:press", by=1000)
    assert a_to_b(ledger, settlements) == [(0, line, PAYER_SIDE)] * 2
    voided = ledger.void_payment(CHAT, [a, b], source="v:void", by=1000)
    assert voided.voided and voided.owed == line
    assert a_to_b(ledger, settlements) == [(0, line, PAYER_SIDE), (line, 0, None)]


def test_a_debt_netted_into_the_next_night_is_owed_on_that_nights_post_only(ledger: Ledger) -> None:
    """并账 on: the first night's debt is netted into the second's settlement, so the first post's line is no longer
    owed there but carried (it was read against the pair's whole debt, the second night's line included: owed
    twice)."""
    ledger.group(CHAT)
    a, b, c = (ledger.member(CHAT, 1000 + i, name) for i, name in enumerate("ABC"))
    settlements = []
    for night in range(2):
        table = ledger.open_table(CHAT, [a.id, b.id, c.id], source=f"m:open:{night}", by=1000)
        ledger.record_hand(table.id, [hu("B", "discard", "A")], source=f"m:hu:{night}", by=1000)
        settlements.append(ledger.end_night(CHAT, source=f"m:end:{night}", by=1).settlement.id)
    owed = {(d.debtor_id, d.creditor_id): d.amount for d in ledger.debts(CHAT)}[(a.id, b.id)]
    shown = [
        state
        for s in settlements
        for state in ledger.payment_lines(CHAT, s) or []
        if (state.payer_id, state.payee_id) == (a.id, b.id)
    ]
    assert (shown[0].open, shown[0].paid, shown[0].carried, shown[0].offset) == (0, 0, shown[0].amount, 0)
    assert sum(state.open for state in shown) == owed


def test_a_typed_payment_names_the_settlement_of_its_line_and_its_post_is_the_one_rewritten(ledger: Ledger) -> None:
    """A typed payment lands on the oldest line: its result names that settlement, and the posts rewritten are that
    settlement's first (as long as it was posted), then the pair's later ones (what it paid beyond the line shows
    there); its confirmation and its undo name it too."""
    a, b, settlements = two_nights_apart(ledger, "r")
    for number, settlement in enumerate(settlements):
        ledger.set_payment_post(CHAT, settlement, 900 + number)
    paid = ledger.pay(CHAT, a, b, 100, side=PAYER_SIDE, source="r:1", by=1000)
    assert paid.settlement_id == settlements[0]
    assert ledger.payment_posts_of(CHAT, a, b, paid.settlement_id) == [(settlements[0], 900), (settlements[1], 901)]
    assert ledger.payment_posts_of(CHAT, a, b) == [(settlements[1], 901)]  # no line known: the latest post
    confirmed = ledger.pay(CHAT, a, b, 100, side=PAYEE_SIDE, source="r:2", by=1001)
    assert (confirmed.booked, confirmed.settlement_id) == (False, settlements[0])
    voided = ledger.void_payment(CHAT, [a, b], source="r:3", by=1, admin=ledger.member(CHAT, 1002, "C").id)
    assert (voided.voided, voided.settlement_id) == (True, settlements[0])
