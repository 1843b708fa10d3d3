"""Fewest payments that bring every balance to zero.

A group of k people whose balances sum to zero can always be squared with k − 1 payments, and never fewer if
no proper subgroup of them sums to zero. So the minimum number of payments for n non-zero balances is
n − (the largest number of disjoint zero-sum groups they can be split into). That maximum is found exactly by a
dynamic programme over subsets (O(2^n · n)); greedy matching (largest debtor pays largest creditor) is used
beyond `EXACT_LIMIT` players, where it is not always minimal but never more than n − 1 payments.

Money owed to or by a group account (the pot, the house: fines, fees, payouts) is not anyone's to net away: a
fine is paid by whoever was fined, never by a player who happens to owe the same amount. `settle_with_accounts`
gives each person's debt to (or credit from) an account a payment of its own, between the two, and squares only
what is left — the players' own results — in the fewest payments.

Many settlements are often equally short (six people at ±2元 can be squared by any three debtor → creditor
pairings). `direct` — who owes whom straight from the night's records (够级's 对头, the 并账 debts carried in) —
breaks the tie: opposite amounts are paired to keep the most such pairs (a bipartite matching per amount), and
inside a zero-sum group a payment between two who owe each other directly goes first. The count is untouched.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Hashable, Mapping, Sequence
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)

#: the exact programme runs up to this many non-zero balances left after pairing exact opposites
EXACT_LIMIT = 16


#: who owes whom directly: (debtor, creditor) pairs (any positive amount), the tie-break among shortest settlements
Direct = Collection[tuple[Key, Key]]


def settle(balances: Mapping[Key, int], direct: Direct[Key] = ()) -> tuple[list[tuple[Key, Key, int]], bool]:
    """Payments `(payer, payee, amount)` squaring `balances` (positive: is owed money), and whether the
    count is proven minimal; among equally few, the most between pairs in `direct` (debtor, creditor).
    Deterministic: the same balances give the same payments."""
    if sum(balances.values()) != 0:
        raise ValueError(f"balances must sum to zero, not {sum(balances.values())}")
    live = sorted(((key, amount) for key, amount in balances.items() if amount != 0), key=lambda kv: str(kv[0]))
    owing = frozenset(direct)
    pairs, rest = _pair_opposites(live, owing)
    payments = [_payment(a, b) for a, b in pairs]
    exact = len(rest) <= EXACT_LIMIT
    groups = _zero_sum_groups(rest) if exact else [rest]
    for group in groups:
        payments.extend(_greedy(group, owing))
    return payments, exact


def settle_with_accounts(
    balances: Mapping[Key, int], owed_to_accounts: Mapping[tuple[Key, Key], int], direct: Direct[Key] = ()
) -> tuple[list[tuple[Key, Key, int]], bool]:
    """Payments squaring `balances` where `owed_to_accounts[(person, account)]` (negative: the account owes the
    person) is paid between the two, and the rest in the fewest payments (`settle`; its `exact` is returned).
    The accounts' balances must be exactly what is owed to them: what is left of them is refused, not netted
    against someone who neither owes nor is owed by them. The players' payments come first, then the accounts'."""
    rest = dict(balances)
    accounts: set[Key] = set()
    paid_to_accounts: list[tuple[Key, Key, int]] = []
    for (person, account), amount in sorted(owed_to_accounts.items(), key=lambda kv: (str(kv[0][1]), str(kv[0][0]))):
        accounts.add(account)
        if amount == 0:
            continue
        rest[person] = rest.get(person, 0) + amount
        rest[account] = rest.get(account, 0) - amount
        paid_to_accounts.append((person, account, amount) if amount > 0 else (account, person, -amount))
    left = {account: rest[account] for account in sorted(accounts, key=str) if rest.get(account)}
    if left:
        raise ValueError(f"accounts' balances must be what is owed to them; left over: {left}")
    payments, exact = settle(rest, direct)
    return payments + paid_to_accounts, exact


def _payment(a: tuple[Key, int], b: tuple[Key, int]) -> tuple[Key, Key, int]:
    (debtor, owed), (creditor, _) = (a, b) if a[1] < 0 else (b, a)
    return debtor, creditor, -owed


def _pair_opposites(
    live: list[tuple[Key, int]], direct: frozenset[tuple[Key, Key]]
) -> tuple[list[tuple[tuple[Key, int], tuple[Key, int]]], list[tuple[Key, int]]]:
    """Split off pairs with opposite amounts: some optimal partition always has such a pair as its own group
    (moving a and −a out of their groups leaves the rest zero-sum), and it shrinks the exponential part. Every
    amount pairs as many of its debtors as it has creditors for, whichever they are: first a matching that keeps
    the most `direct` pairs (`_most_direct`), then the others in order."""
    pairs: list[tuple[tuple[Key, int], tuple[Key, int]]] = []
    if direct:
        debtors: dict[int, list[tuple[Key, int]]] = {}
        creditors: dict[int, list[tuple[Key, int]]] = {}
        for item in live:
            (debtors if item[1] < 0 else creditors).setdefault(abs(item[1]), []).append(item)
        for amount, owing in debtors.items():
            owed = creditors.get(amount, [])
            matched = _most_direct([key for key, _ in owing], [key for key, _ in owed], direct)
            pairs.extend((owing[i], owed[j]) for i, j in sorted(matched.items()))
        taken = {key for pair in pairs for key, _ in pair}
        live = [item for item in live if item[0] not in taken]
    waiting: dict[int, list[tuple[Key, int]]] = {}
    for item in live:
        partners = waiting.get(-item[1])
        if partners:
            pairs.append((partners.pop(), item))
        else:
            waiting.setdefault(item[1], []).append(item)
    rest = [item for items in waiting.values() for item in items]
    rest.sort(key=lambda kv: str(kv[0]))
    return pairs, rest


def _most_direct(debtors: list[Key], creditors: list[Key], direct: frozenset[tuple[Key, Key]]) -> dict[int, int]:
    """The largest matching of `debtors` to `creditors` (indices) along `direct` pairs (augmenting paths)."""
    match_of: dict[int, int] = {}  # creditor index -> debtor index

    def augment(i: int, seen: set[int]) -> bool:
        for j, creditor in enumerate(creditors):
            if j in seen or (debtors[i], creditor) not in direct:
                continue
            seen.add(j)
            if j not in match_of or augment(match_of[j], seen):
                match_of[j] = i
                return True
        return False

    if direct:
        for i in range(len(debtors)):
            augment(i, set())
    return {i: j for j, i in match_of.items()}


def _zero_sum_groups(items: list[tuple[Key, int]]) -> list[list[tuple[Key, int]]]:
    """Partition into the largest number of zero-sum groups (DP over subsets)."""
    n = len(items)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + items[low.bit_length() - 1][1]
    # best[mask]: most zero-sum groups that the removal order can close inside `mask`; choice: the element removed
    best = [0] * (1 << n)
    choice = [0] * (1 << n)
    for mask in range(1, full + 1):
        top, pick, bits = -1, 0, mask
        while bits:
            low = bits & -bits
            bits ^= low
            value = best[mask ^ low]
            if value > top:
                top, pick = value, low
        best[mask] = top + (1 if sums[mask] == 0 else 0)
        choice[mask] = pick
    groups: list[list[tuple[Key, int]]] = []
    current: list[tuple[Key, int]] = []
    mask = full
    while mask:
        low = choice[mask]
        current.append(items[low.bit_length() - 1])
        mask ^= low
        if sums[mask] == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(
    items: list[tuple[Key, int]], direct: frozenset[tuple[Key, Key]] = frozenset()
) -> list[tuple[Key, Key, int]]:
    """Largest debtor pays largest creditor until all are square, a debtor paying one they owe directly first:
    each payment squares one side or both, so at most len(items) − 1 payments."""
    debtors = sorted(((-amount, key) for key, amount in items if amount < 0), key=lambda x: (-x[0], str(x[1])))
    creditors = sorted(((amount, key) for key, amount in items if amount > 0), key=lambda x: (-x[0], str(x[1])))
    debts = {key: amount for amount, key in debtors}
    credits = {key: amount for amount, key in creditors}
    payments: list[tuple[Key, Key, int]] = []
    while debts and credits:
        owing = (pair for pair in itertools.product(debts, credits) if pair in direct)
        debtor, creditor = next(owing, (next(iter(debts)), next(iter(credits))))
        amount = min(debts[debtor], credits[creditor])
        payments.append((debtor, creditor, amount))
        debts[debtor] -= amount
        credits[creditor] -= amount
        if not debts[debtor]:
            del debts[debtor]
        if not credits[creditor]:
            del credits[creditor]
    return payments


def through_accounts(
    lines: Sequence[tuple[Key, Key, int]],
    passed: Sequence[tuple[Key, Key, int, Key]],
    accounts: Collection[Key],
) -> tuple[list[tuple[Key, Key, int, Key | None]], list[tuple[Key, Key, int]]]:
    """A settlement's `lines` as people hand money over once what they owe a group account and what it owes them
    is passed through it (`passed`: `(x, y, 分, account)`, x owed the account and it owed y: x pays y).

    Returns `(transfers, payouts)`. `transfers`: `(payer, payee, 分, via)` — the lines between people (`via` None),
    each pass (`via` the account), then what is still owed to an account once the passes took their share (it
    waits for the account's payout). `payouts`: `(account, payee, 分)`, what an account still owes after the
    passes — money nobody hands over yet, never a transfer of the account's. Two people's transfers to each other
    are set against each other (`_offset_both_ways`). When every pass comes from `lines` (no earlier debt with the
    account), each person's net over transfers and payouts is their net over `lines`."""
    owing: dict[tuple[Key, Key], int] = {}  # (x, account) -> passed on from x's debt to the account
    owed: dict[tuple[Key, Key], int] = {}  # (account, y) -> passed on from what the account owed y
    for x, y, amount, account in passed:
        owing[x, account] = owing.get((x, account), 0) + amount
        owed[account, y] = owed.get((account, y), 0) + amount
    people: list[tuple[Key, Key, int, Key | None]] = []
    waiting: list[tuple[Key, Key, int, Key | None]] = []
    payouts: list[tuple[Key, Key, int]] = []
    for payer, payee, amount in lines:
        if (payee in accounts) == (payer in accounts):
            people.append((payer, payee, amount, None))
            continue
        share = owing if payee in accounts else owed
        taken = min(amount, share.get((payer, payee), 0))
        share[payer, payee] = share.get((payer, payee), 0) - taken
        if amount > taken and payee in accounts:
            waiting.append((payer, payee, amount - taken, None))
        elif amount > taken:
            payouts.append((payer, payee, amount - taken))
    passes = [(x, y, amount, account) for x, y, amount, account in passed]
    return _offset_both_ways([*people, *passes, *waiting], accounts), payouts


def _offset_both_ways(
    transfers: list[tuple[Key, Key, int, Key | None]], accounts: Collection[Key]
) -> list[tuple[Key, Key, int, Key | None]]:
    """Two people's transfers to each other set against each other, as their debts are (one running total per
    pair): 大鹏 fined into the pot that paid 小李, who lost to 大鹏 at the table, is nobody handing anyone 4元 — not
    「小李 → 大鹏 4元」 and 「大鹏 → 小李 4元（经红包池转来）」. What is left stays on the larger, in its place."""
    out = list(transfers)
    for i, (x, y, amount, via) in enumerate(out):
        if not amount or x in accounts or y in accounts:
            continue
        for j in range(i + 1, len(out)):
            u, v, back, back_via = out[j]
            if (u, v) == (y, x) and back and amount:
                taken = min(amount, back)
                amount -= taken
                out[j] = (u, v, back - taken, back_via)
        out[i] = (x, y, amount, via)
    return [transfer for transfer in out if transfer[2]]
