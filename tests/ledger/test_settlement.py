"""Settlement: the fewest payments squaring a set of balances, proven against brute force on small cases; what is
owed to or by a group account paid by whoever owes it or is owed, never re-routed through someone else."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.payments import pass_through
from ledger.settlement import EXACT_LIMIT, _greedy, settle, settle_with_accounts, through_accounts


def brute_force_minimum(amounts: tuple[int, ...]) -> int:
    """The fewest payments, by trying every set partition: n − max number of zero-sum blocks."""
    live = tuple(a for a in amounts if a)

    @cache
    def most_blocks(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = -1
        # the block containing `first`: any subset of the rest that, with `first`, sums to zero
        for size in range(len(rest) + 1):
            for chosen in itertools.combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in chosen) == 0:
                    remaining = tuple(rest[i] for i in range(len(rest)) if i not in chosen)
                    best = max(best, 1 + most_blocks(remaining))
        return best

    return len(live) - most_blocks(live)


def apply(balances: dict[str, int], payments: list[tuple[str, str, int]]) -> dict[str, int]:
    after = dict(balances)
    for payer, payee, amount in payments:
        assert amount > 0
        after[payer] += amount
        after[payee] -= amount
    return after


zero_sum_balances = st.lists(st.integers(-50, 50), min_size=1, max_size=8).map(
    lambda xs: {f"p{i}": x for i, x in enumerate([*xs, -sum(xs)])}
)


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances)
def test_settlement_squares_everyone_with_the_brute_force_minimum(balances: dict[str, int]) -> None:
    payments, exact = settle(balances)
    assert exact
    assert all(amount == 0 for amount in apply(balances, payments).values())
    assert len(payments) == brute_force_minimum(tuple(balances.values()))


def test_greedy_is_not_minimal_where_the_exact_answer_is() -> None:
    """8 − 7 − 1 = 0 and 17 − 11 − 9 + 3 = 0: squared separately that is 2 + 3 payments; largest-debtor-pays-
    largest-creditor matching mixes the groups and needs 6."""
    balances = {"a": 8, "b": -11, "c": -7, "d": -9, "e": -1, "f": 3, "g": 17}
    greedy = _greedy(list(balances.items()))
    exact, proven = settle(balances)
    assert all(v == 0 for v in apply(balances, greedy).values())
    assert all(v == 0 for v in apply(balances, exact).values())
    assert (len(greedy), len(exact), proven) == (6, 5, True)
    assert brute_force_minimum(tuple(balances.values())) == 5


def test_fifteen_players_are_settled_exactly() -> None:
    amounts = [700, -300, 250, -650, 1200, -1000, 80, -80, 45, -245, 500, -300, 90, -290, 0]
    amounts[-1] = -sum(amounts)
    balances = {f"p{i}": a for i, a in enumerate(amounts)}
    payments, exact = settle(balances)
    assert exact and len(balances) >= 15
    assert all(v == 0 for v in apply(balances, payments).values())
    # 80/−80 pair off; the rest must still be no worse than brute force on this instance
    assert len(payments) == brute_force_minimum(tuple(amounts))


def test_beyond_the_exact_limit_greedy_still_squares_everyone_in_at_most_n_minus_1() -> None:
    amounts = [(i * 7919) % 1000 - 500 for i in range(EXACT_LIMIT + 14)]
    amounts[-1] -= sum(amounts)
    balances = {f"p{i}": a for i, a in enumerate(amounts)}
    payments, exact = settle(balances)
    assert not exact
    assert all(v == 0 for v in apply(balances, payments).values())
    assert len(payments) <= len([a for a in amounts if a]) - 1


def test_opposite_amounts_pay_each_other_directly() -> None:
    payments, _ = settle({"a": -300, "b": 300, "c": -50, "d": 20, "e": 30})
    assert ("a", "b", 300) in payments
    assert len(payments) == 3


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        settle({"a": 10, "b": -9})


def test_settlement_is_deterministic() -> None:
    balances = {"a": 6, "b": 4, "c": -10, "d": 3, "e": 2, "f": -5}
    assert settle(balances) == settle(dict(reversed(list(balances.items()))))


ACCOUNTS = ("pot", "house")


@st.composite
def night_with_accounts(draw: st.DrawFn) -> tuple[dict[str, int], dict[tuple[str, str], int], dict[str, int]]:
    """A night's balances: players' results among themselves (zero-sum), and fines, fees and payouts between
    the group's accounts and players or people who never sat down (`q…`, result 0 but for what they owe).
    Returns the balances, what each person owes each account, and the players' own results."""
    results = draw(st.lists(st.integers(-50, 50), min_size=1, max_size=6))
    people = {f"p{i}": x for i, x in enumerate([*results, -sum(results)])}
    people |= {f"q{i}": 0 for i in range(draw(st.integers(0, 2)))}
    owed: dict[tuple[str, str], int] = {}
    for person, account, amount in draw(
        st.lists(st.tuples(st.sampled_from(sorted(people)), st.sampled_from(ACCOUNTS), st.integers(-20, 20)))
    ):
        owed[person, account] = owed.get((person, account), 0) + amount
    balances = dict(people) | dict.fromkeys(ACCOUNTS, 0)
    for (person, account), amount in owed.items():
        balances[person] -= amount
        balances[account] += amount
    return balances, owed, people


@settings(max_examples=300, deadline=None)
@given(night_with_accounts())
def test_what_is_owed_to_an_account_stays_with_who_owes_it_and_the_rest_is_fewest(
    night: tuple[dict[str, int], dict[tuple[str, str], int], dict[str, int]],
) -> None:
    """Every account's payment connects it to someone who owes it or is owed by it, for exactly that; every
    net is preserved (everyone, accounts included, ends square) and the payments sum to zero; the players' own
    results take the fewest payments."""
    balances, owed, results = night
    payments, exact = settle_with_accounts(balances, owed)
    assert exact
    after = apply(balances, payments)
    assert all(amount == 0 for amount in after.values())
    moved = {key: after[key] - balances[key] for key in balances}
    assert sum(moved.values()) == 0
    with_accounts = [p for p in payments if p[0] in ACCOUNTS or p[1] in ACCOUNTS]
    for payer, payee, amount in with_accounts:
        assert not (payer in ACCOUNTS and payee in ACCOUNTS)
        account, person, sign = (payee, payer, 1) if payee in ACCOUNTS else (payer, payee, -1)
        assert owed.get((person, account), 0) == sign * amount
    assert len(with_accounts) == sum(1 for amount in owed.values() if amount)
    among_players = [p for p in payments if p not in with_accounts]
    assert len(among_players) == brute_force_minimum(tuple(results.values()))


def test_a_fine_of_someone_who_never_sat_down_is_theirs_to_pay() -> None:
    """老王 lost 4 to each of 小李 and 阿杰; 大鹏, who never sat down, was fined 4 into the pot. Three payments
    either way, but 大鹏's fine is not 老王's to pay, nor 老王's loss 大鹏's."""
    balances = {"laowang": -800, "xiaoli": 400, "ajie": 400, "dapeng": -400, "pot": 400}
    assert settle(balances)[0] != settle_with_accounts(balances, {("dapeng", "pot"): 400})[0]
    payments, exact = settle_with_accounts(balances, {("dapeng", "pot"): 400})
    assert exact
    assert payments == [("laowang", "ajie", 400), ("laowang", "xiaoli", 400), ("dapeng", "pot", 400)]


def test_a_payout_inside_the_night_is_the_pot_paying_whom_it_was_paid_to() -> None:
    """c was paid 3 out of the pot during the night: the pot pays c, not a, who lost at the table."""
    payments, _ = settle_with_accounts({"a": -300, "b": 100, "c": 500, "pot": -300}, {("c", "pot"): -300})
    assert sorted(payments) == [("a", "b", 100), ("a", "c", 200), ("pot", "c", 300)]


def test_an_account_balance_nobody_owes_is_refused() -> None:
    with pytest.raises(ValueError, match="what is owed to them"):
        settle_with_accounts({"a": -5, "b": 2, "pot": 3}, {("a", "pot"): 2})


@settings(max_examples=300, deadline=None)
@given(night_with_accounts())
def test_through_accounts_moves_the_same_money_and_no_account_hands_any_over(
    night: tuple[dict[str, int], dict[tuple[str, str], int], dict[str, int]],
) -> None:
    """A settlement's lines once passed through the accounts (as `payments.pass_through` passes them): everyone
    (accounts included) nets what the lines net them; no transfer has an account paying; an account is owed,
    or owes (a payout nobody owes it yet), never both; a pass is shown as who pays whom."""
    balances, owed, _ = night
    lines, _ = settle_with_accounts(balances, owed)
    debts = {(payer, payee): amount for payer, payee, amount in lines if payer in ACCOUNTS or payee in ACCOUNTS}
    passed = [(x, y, amount, pool) for x, y, amount, pool in pass_through(debts, sorted(ACCOUNTS))]
    transfers, payouts = through_accounts(lines, passed, ACCOUNTS)
    moved = [(payer, payee, amount) for payer, payee, amount, _ in transfers] + payouts
    assert apply(balances, moved) == apply(balances, lines)
    assert all(amount > 0 for _, _, amount in moved)
    assert not [t for t in transfers if t[0] in ACCOUNTS]
    # each pass shown as who pays whom, less what the other way between the two offsets (once, on one side)
    for x, y, _, _ in passed:
        shown = sum(a for p, q, a, _ in transfers if (p, q) == (x, y)) - sum(
            a for p, q, a, _ in transfers if (p, q) == (y, x)
        )
        lined = sum(a for p, q, a in lines if (p, q) == (x, y)) - sum(a for p, q, a in lines if (p, q) == (y, x))
        assert shown == lined + sum(a for p, q, a, _ in passed if (p, q) == (x, y)) - sum(
            a for p, q, a, _ in passed if (p, q) == (y, x)
        )
    people = [(p, q) for p, q, _, _ in transfers if p not in ACCOUNTS and q not in ACCOUNTS]
    assert not [(p, q) for p, q in people if (q, p) in people]  # nobody hands money both ways
    for account in ACCOUNTS:
        assert not ([t for t in transfers if t[1] == account] and [p for p in payouts if p[0] == account])


def test_a_fine_paid_out_the_same_night_is_paid_by_the_fined_to_whom_the_pot_paid() -> None:
    """大鹏 fined 4 into the pot, the pot paid 小李 4 out of it: 大鹏 pays 小李, through the pot."""
    lines = [("laowang", "xiaoli", 400), ("pot", "xiaoli", 400), ("dapeng", "pot", 400)]
    transfers, payouts = through_accounts(lines, [("dapeng", "xiaoli", 400, "pot")], ACCOUNTS)
    assert transfers == [("laowang", "xiaoli", 400, None), ("dapeng", "xiaoli", 400, "pot")]
    assert payouts == []
    # paid out 3 of a fine of 4: 1 is still owed to the pot, and waits for its next payout
    lines = [("pot", "xiaoli", 300), ("dapeng", "pot", 400)]
    transfers, payouts = through_accounts(lines, [("dapeng", "xiaoli", 300, "pot")], ACCOUNTS)
    assert transfers == [("dapeng", "xiaoli", 300, "pot"), ("dapeng", "pot", 100, None)] and payouts == []
    # 大鹏 fined, the pot paid 小李, who lost 4 to 大鹏 at the table: nobody hands anyone anything
    lines = [("xiaoli", "dapeng", 400), ("pot", "xiaoli", 400), ("dapeng", "pot", 400)]
    assert through_accounts(lines, [("dapeng", "xiaoli", 400, "pot")], ACCOUNTS) == ([], [])
    lines = [("xiaoli", "dapeng", 600), ("pot", "xiaoli", 400), ("dapeng", "pot", 400)]
    assert through_accounts(lines, [("dapeng", "xiaoli", 400, "pot")], ACCOUNTS) == (
        [("xiaoli", "dapeng", 200, None)],
        [],
    )
    # nobody owes the pot yet: its payout is no one's transfer
    assert through_accounts([("pot", "xiaoli", 300)], [], ACCOUNTS) == ([], [("pot", "xiaoli", 300)])


# ------------------------------------------------------------------ who owes whom directly breaks the ties


#: balances and direct debts (debtor, creditor) drawn at random over the same people
with_direct = zero_sum_balances.flatmap(
    lambda balances: st.tuples(
        st.just(balances),
        st.sets(st.tuples(st.sampled_from(sorted(balances)), st.sampled_from(sorted(balances))), max_size=12),
    )
)


@settings(max_examples=300, deadline=None)
@given(with_direct)
def test_direct_debts_never_cost_a_payment(case: tuple[dict[str, int], set[tuple[str, str]]]) -> None:
    balances, direct = case
    payments, exact = settle(balances, direct)
    assert exact
    assert all(amount == 0 for amount in apply(balances, payments).values())
    assert len(payments) == brute_force_minimum(tuple(balances.values()))
    assert settle(balances, direct) == settle(dict(reversed(list(balances.items()))), set(direct))


#: pairs of people owing each other (够级's 对头: each round's money goes three seats on), amounts that often tie
opposite_pairs = st.lists(st.sampled_from([2, 4, 6]), min_size=1, max_size=6)


@settings(max_examples=200, deadline=None)
@given(opposite_pairs, st.randoms(use_true_random=False))
def test_people_who_owe_each_other_pay_each_other(amounts: list[int], random: object) -> None:
    """Every debtor owes one creditor (and amounts repeat): the fewest payments are those debts themselves, and
    they are what is paid — never 阿杰 → 胖子 for 阿杰's debt to 小张 because both are 2元."""
    balances: dict[str, int] = {}
    direct = set()
    for i, amount in enumerate(amounts):
        balances[f"d{i}"], balances[f"c{i}"] = -amount, amount
        direct.add((f"d{i}", f"c{i}"))
    names = list(balances)
    random.shuffle(names)  # type: ignore[attr-defined]
    payments, _ = settle({name: balances[name] for name in names}, direct)
    assert {(payer, payee) for payer, payee, _ in payments} == direct


def test_six_at_two_each_pay_their_opposites() -> None:
    """The play-tester's night: 大刘, 胖子, 小张 +2; 阿杰, 老王, 阿六 −2, each owing the one three seats on. Without
    the debts any pairing is as short (and the old one paired 阿杰 with 胖子)."""
    balances = {"1大刘": 2, "2阿杰": -2, "3胖子": 2, "4老王": -2, "5小张": 2, "6阿六": -2}
    direct = {("2阿杰", "5小张"), ("4老王", "1大刘"), ("6阿六", "3胖子")}
    assert {(p, q) for p, q, _ in settle(balances)[0]} != direct
    assert {(p, q) for p, q, _ in settle(balances, direct)[0]} == direct


def test_inside_a_group_a_direct_debt_is_paid_first() -> None:
    """a −5, b −3, c +8: two payments either way; with b owing c directly, b pays c (and a pays c too)."""
    payments, _ = settle({"a": -5, "b": -3, "c": 8}, {("b", "c")})
    assert payments[0] == ("b", "c", 3)
    assert len(payments) == 2
