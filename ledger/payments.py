"""Payments: the cash handed over after a settlement, and the debts still open.

A payment is a transfer of kind `payment`. Cash from debtor A to creditor B is booked *from B to A* in ledger
terms: it raises A's balance and lowers B's, so an account's balance (`members.balance`, the sum of its live
transfers) is what it is owed now (未结), and its result without payments is the lifetime result (总输赢).
Payments belong to no night (`night_id` NULL): a night's totals and its settlement never move with them.

Debts are pairwise and come from the stored settlements: what each settlement told a debtor to pay a creditor,
less what a later settlement netted in (`settlements.carried`: the debt moved into that night's payments), less
the live payments between the two.
Lines to or from the group's own accounts (the pot 红包池, the house 台费) are debts too, but never paid: the
accounts are pass-through (`pass_through`). Right after a settlement, whoever owes an account owes the people the
account owes instead (its payout in a later night, 发红包池 / 付台费, is a line from it), and the passes are stored
with the settlement (`settlements.passed`). What is still owed to an account waits for its payout.
They are kept as running totals per pair (`pair_debts`, migration 0011), moved in the same transaction as each
settlement (`add_settlement`), payment and payment's undo (`move_debts`) and guest link (`rekey_debts`), so a
payment, 未结 and 开桌's list read one row per pair whatever the number of settled nights; `derived_pair_debts`
re-derives them from every settlement (the property tests check the two agree).

Booked once, confirmed by the other side: a payment records which side told it (`reason` 已付: the payer side,
收到: the payee side). When the other side tells a payment of the same pair that is not confirmed yet, booked
within `CONFIRM_WINDOW`, of the same amount, it confirms that payment (`confirmed_at`/`confirmed_by`) instead of
booking a second; naming no amount (as a button does), or their total, every such payment of the pair. Past the
window too when nothing new could be booked (a bare confirmation, nothing owed, or more than is owed), so a late
word still confirms (the latest). More than the other side's waiting payments together, and no more than those
and what is still owed, confirms them and books the rest: the word counts what reached its side in all (`收到 4`
after 已付 2: the 2 and another 2, on a line of 4 or of 6 alike; never more than the pair owes).
Otherwise it is a new (possibly partial) payment, refused beyond what the debtor still owes the creditor
(`Overpaid`). A new payment records the settlement's line it settles (`payment_lines`,
migration 0016: the line a button was pressed under, else the pair's oldest open line), and a pair's lines are
read across its settlements (`_stand`), so the posts together show each payment on its line and never more owed
than the pair owes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from ledger import models as m
from ledger import transfers
from ledger.accounts import group_by_chat, lock_group, names
from ledger.chat_options import ChatOptions, double_entry_window
from ledger.errors import DuplicatePayment, LedgerError, Overpaid, ShortOfWaiting
from ledger.records import Replayable
from ledger.unit import Tx

#: which side told a payment (stored as the transfer's reason)
PAYER_SIDE, PAYEE_SIDE = "已付", "收到"
SIDES = (PAYER_SIDE, PAYEE_SIDE)
#: how long a payment told by one side waits for the other side's word to confirm it (a night and the next day)
CONFIRM_WINDOW = timedelta(hours=48)


@dataclass(frozen=True)
class Debt:
    """`debtor` still owes `creditor` `amount` 分 (positive)."""

    debtor_id: int
    debtor: str
    creditor_id: int
    creditor: str
    amount: int


@dataclass(frozen=True)
class PaymentResult(Replayable):
    """A payment booked, confirmed or voided: the payment (`id`), the pair, its amount, and what is still owed."""

    id: int
    debtor_id: int
    debtor: str
    creditor_id: int
    creditor: str
    amount: int
    side: str  # who told it first: 已付 (the payer) or 收到 (the payee)
    booked: bool  # this call booked it (False: it confirmed, or voided, one booked earlier)
    confirmed: bool  # both sides have said so (or an admin for the other side)
    voided: bool
    owed: int  # what the debtor still owes the creditor afterwards
    #: the first word was told by the side's own account (its Telegram id), not by an admin for it: a confirmation
    #: says "both sides said so" only then
    first_in_person: bool = True
    #: how many payments a confirmation confirmed (a button confirms every one waiting for its side's word:
    #: `amount` is their total, `id` the latest's)
    count: int = 1
    #: the settlement whose line the payment (`id`) recorded (`payment_lines`); None: none (booked before 0016)
    settlement_id: int | None = None
    #: a word for more than the other side's waiting payments that covered them (`收到 @b 4` after b's `已付 2`):
    #: what it confirmed of them (分) and how many, besides booking `amount`, the rest
    also_confirmed: int = 0
    also_count: int = 0


# ------------------------------------------------------------------------------------------------- debts


def _canonical(accounts: Mapping[int, Any]) -> dict[int, int]:
    """Account id -> the id its money lives under now (a linked guest's is its member's)."""
    return {id_: row.linked_to_id or id_ for id_, row in accounts.items()}


def homes(tx: Tx, group_id: int) -> dict[int, int]:
    """Each account of the group -> the id its money lives under now (a guest linked since: its member's)."""
    return _canonical(_accounts(tx, group_id))


def _accounts(tx: Tx, group_id: int) -> dict[int, Any]:
    return {
        row.id: row
        for row in tx.execute(
            sa.select(m.Member.id, m.Member.kind, m.Member.linked_to_id).where(m.Member.group_id == group_id)
        )
    }


_PAIRS = sa.select(m.PairDebt.low_id, m.PairDebt.high_id, m.PairDebt.amount).where(
    m.PairDebt.group_id == sa.bindparam("group_id"), m.PairDebt.amount != 0
)


def _debt_upsert(insert: Any) -> Any:
    statement = insert(m.PairDebt)
    return statement.on_conflict_do_update(
        index_elements=[m.PairDebt.group_id, m.PairDebt.low_id, m.PairDebt.high_id],
        set_={"amount": m.PairDebt.amount + statement.excluded.amount},
    )


#: add to a pair's running total (the row is created at its first debt)
_ADD_DEBT = {"sqlite": _debt_upsert(sqlite.insert), "postgresql": _debt_upsert(postgresql.insert)}


def pair_debts(tx: Tx, group_id: int) -> dict[tuple[int, int], int]:
    """Every open debt of the group: (debtor id, creditor id) -> 分 (positive), read from the running totals."""
    debts = {}
    for low, high, amount in tx.execute(_PAIRS, {"group_id": group_id}):
        if amount > 0:
            debts[(low, high)] = amount
        else:
            debts[(high, low)] = -amount
    return debts


def move_debts(tx: Tx, group_id: int, moves: Iterable[tuple[int, int, int]]) -> None:
    """Move the running totals: each `(debtor, creditor, 分)` adds to what the debtor owes the creditor (a
    negative amount takes away). The callers pass accounts' own ids (never a linked guest's)."""
    net: dict[tuple[int, int], int] = {}
    for debtor, creditor, amount in moves:
        if debtor == creditor or not amount:
            continue
        key, sign = ((debtor, creditor), 1) if debtor < creditor else ((creditor, debtor), -1)
        net[key] = net.get(key, 0) + sign * amount
    rows = [
        {"group_id": group_id, "low_id": low, "high_id": high, "amount": amount}
        for (low, high), amount in sorted(net.items())  # one order for every writer: no deadlock between two
        if amount
    ]
    if rows:
        tx.execute(_ADD_DEBT[tx.connection.dialect.name], rows)


def add_settlement(
    tx: Tx, group_id: int, lines: Iterable[tuple[int, int, int]], carried: Iterable[tuple[int, int, int]]
) -> list[list[int]]:
    """A settlement stored: its lines become debts (those to or from the group's own accounts too), the earlier
    debts it netted in (`carried`) are no longer owed apart, and what then passes through a group account is
    passed (`pass_through`). Returns the passes, for the settlement to store (`settlements.passed`)."""
    lines, carried = list(lines), list(carried)
    if not lines and not carried:
        return []
    move_debts(tx, group_id, [*lines, *((d, c, -a) for d, c, a in carried)])
    pools = sorted(
        tx.session.scalars(
            sa.select(m.Member.id).where(m.Member.group_id == group_id, m.Member.kind.in_(m.GROUP_ACCOUNTS))
        )
    )
    passed = pass_through(pair_debts(tx, group_id), pools)
    move_debts(tx, group_id, [move for x, y, amount, pool in passed for move in passing(x, y, amount, pool)])
    return passed


def pass_through(debts: Mapping[tuple[int, int], int], pools: Sequence[int]) -> list[list[int]]:
    """What passes through the group's accounts (pot, house): while someone x owes an account and the account owes
    someone y, x owes y instead, the smaller of the two. An account is pass-through: afterwards it is owed, or it
    owes, never both. Deterministic: accounts by id, again until nothing passes (a line between the pot and the
    house passes on through the other); in each, the largest debts first, ties by id. `debts`: (debtor, creditor)
    -> 分, as `pair_debts` reads them. Returns `[x, y, 分, account]` for each pass, in order."""
    signed: dict[tuple[int, int], int] = {}  # (low, high) -> what low owes high

    def add(debtor: int, creditor: int, amount: int) -> None:
        key, sign = ((debtor, creditor), 1) if debtor < creditor else ((creditor, debtor), -1)
        signed[key] = signed.get(key, 0) + sign * amount

    for (debtor, creditor), amount in debts.items():
        add(debtor, creditor, amount)
    passed: list[list[int]] = []
    while True:
        for pool in pools:
            owing: list[tuple[int, int]] = []  # (分, x) owing the account
            owed: list[tuple[int, int]] = []  # (分, y) it owes
            for (low, high), amount in signed.items():
                if pool in (low, high) and amount:
                    other = high if low == pool else low
                    owes_pool = (amount > 0) == (low == other)
                    (owing if owes_pool else owed).append((abs(amount), other))
            if owing and owed:
                break
        else:
            return passed
        owing.sort(key=lambda t: (-t[0], t[1]))
        owed.sort(key=lambda t: (-t[0], t[1]))
        i = j = 0
        while i < len(owing) and j < len(owed):
            (owes, x), (due, y) = owing[i], owed[j]
            amount = min(owes, due)
            passed.append([x, y, amount, pool])
            for move in passing(x, y, amount, pool):
                add(*move)
            owing[i], owed[j] = (owes - amount, x), (due - amount, y)
            i += owes == amount
            j += due == amount


def passing(x: int, y: int, amount: int, pool: int) -> list[tuple[int, int, int]]:
    """One pass as debt moves: x owes the account less, the account owes y less, x owes y more."""
    return [(x, pool, -amount), (pool, y, -amount), (x, y, amount)]


def rekey_debts(tx: Tx, group_id: int, old: int, new: int) -> None:
    """A guest linked to a member: the guest's debts become the member's (a debt between the two is gone)."""
    rows = tx.execute(
        sa.delete(m.PairDebt)
        .where(m.PairDebt.group_id == group_id, sa.or_(m.PairDebt.low_id == old, m.PairDebt.high_id == old))
        .returning(m.PairDebt.low_id, m.PairDebt.high_id, m.PairDebt.amount)
    ).all()
    move_debts(
        tx,
        group_id,
        [(new if low == old else low, new if high == old else high, amount) for low, high, amount in rows],
    )


def derived_pair_debts(tx: Tx, group_id: int) -> dict[tuple[int, int], int]:
    """Every open debt of the group re-derived from all its settlements (their lines, the debts they netted in and
    what they passed through the group's accounts) and live payments (what `pair_debts` keeps as running totals;
    linear in the settlements: for checks, not for replies)."""
    home = homes(tx, group_id)
    net: dict[tuple[int, int], int] = {}

    def add(debtor: int, creditor: int, amount: int) -> None:
        debtor, creditor = home.get(debtor, debtor), home.get(creditor, creditor)
        if debtor == creditor:
            return
        key, sign = ((debtor, creditor), 1) if debtor < creditor else ((creditor, debtor), -1)
        net[key] = net.get(key, 0) + sign * amount

    for lines, carried, passed in tx.execute(
        sa.select(m.SettlementRecord.payments, m.SettlementRecord.carried, m.SettlementRecord.passed).where(
            m.SettlementRecord.group_id == group_id, m.SettlementRecord.voided_at.is_(None)
        )
    ):
        for line in lines or ():
            add(int(line["payer_id"]), int(line["payee_id"]), int(line["amount"]))
        for debtor, creditor, amount in carried or ():
            add(int(debtor), int(creditor), -int(amount))
        for x, y, amount, pool in passed or ():
            for debtor, creditor, delta in passing(int(x), int(y), int(amount), int(pool)):
                add(debtor, creditor, delta)
    for creditor, debtor, total in tx.execute(
        sa.select(m.Transfer.payer_id, m.Transfer.payee_id, sa.func.sum(m.Transfer.amount))
        .where(m.Transfer.group_id == group_id, m.Transfer.kind == m.PAYMENT, m.Transfer.voided_at.is_(None))
        .group_by(m.Transfer.payer_id, m.Transfer.payee_id)
    ):
        add(debtor, creditor, -int(total))
    debts = {}
    for (low, high), amount in net.items():
        if amount > 0:
            debts[(low, high)] = amount
        elif amount < 0:
            debts[(high, low)] = -amount
    return debts


def debts(tx: Tx, chat_id: int, among: Iterable[int] | None = None) -> list[Debt]:
    """The group's open debts (those between `among` only, when given), largest first."""
    group = group_by_chat(tx.session, chat_id)
    wanted = set(among) if among is not None else None
    by_id = names(tx, group.id)
    found = [
        Debt(debtor, by_id.get(debtor, "?"), creditor, by_id.get(creditor, "?"), amount)
        for (debtor, creditor), amount in pair_debts(tx, group.id).items()
        if wanted is None or (debtor in wanted and creditor in wanted)
    ]
    return sorted(found, key=lambda d: (-d.amount, d.debtor, d.creditor))


@dataclass(frozen=True)
class Waiting:
    """A payment one side told that the other has not confirmed yet (within `CONFIRM_WINDOW`, as the payments post
    shows it): `debtor` paid `creditor` `amount` 分, told by `side` (已付: the debtor's word awaits the creditor's)."""

    debtor_id: int
    debtor: str
    creditor_id: int
    creditor: str
    amount: int
    side: str


def waiting(tx: Tx, chat_id: int) -> list[Waiting]:
    """The group's payments waiting for the other side's word, oldest first."""
    group = group_by_chat(tx.session, chat_id)
    by_id = names(tx, group.id)
    rows = tx.execute(
        sa.select(m.Transfer.payee_id, m.Transfer.payer_id, m.Transfer.amount, m.Transfer.reason)
        .where(
            m.Transfer.group_id == group.id,
            m.Transfer.kind == m.PAYMENT,
            m.Transfer.voided_at.is_(None),
            m.Transfer.confirmed_at.is_(None),
            m.Transfer.created_at >= tx.now - CONFIRM_WINDOW,
        )
        .order_by(m.Transfer.id)
    )
    # cash from debtor to creditor is booked from the creditor to the debtor (the module's docstring)
    return [
        Waiting(debtor, by_id.get(debtor, "?"), creditor, by_id.get(creditor, "?"), int(amount), side)
        for debtor, creditor, amount, side in rows
    ]


def paid_totals(tx: Tx, group_id: int) -> dict[int, int]:
    """Each account's net of live payments (what payments moved its balance by)."""
    totals: dict[int, int] = {}
    for column, sign in ((m.Transfer.payer_id, -1), (m.Transfer.payee_id, 1)):
        for member_id, total in tx.execute(
            sa.select(column, sa.func.sum(m.Transfer.amount))
            .where(
                m.Transfer.group_id == group_id,
                m.Transfer.kind == m.PAYMENT,
                m.Transfer.voided_at.is_(None),
            )
            .group_by(column)
        ):
            totals[member_id] = totals.get(member_id, 0) + sign * int(total)
    return totals


@dataclass(frozen=True)
class LineState:
    """Where one line of a stored settlement stands now: `open` 分 of its `amount` still owed; `paid`: how much of
    the rest live payments cover (those that recorded it, `payment_lines`, and what they paid beyond their own
    line); `passed`: for a line to or from a group account (pot, house), to whom the rest was passed on (`(id,
    分)`: for a line to the account, who the debtor owes instead; from it, who owes the creditor instead), this
    settlement's passes and later ones; `carried`: how much of the rest a later night's settlement netted in (并账:
    owed there now); the remainder (`offset`) was offset by a debt the other way (nights kept apart, 设置 并账 关; a
    payout to the one who owed the account).
    `waiting`: the side that told the latest payment covering the line that the other side has not confirmed yet
    (within `CONFIRM_WINDOW`), None when there is none. `payer_id`/`payee_id`: the accounts the line's money lives
    under now (a guest linked since: its member), those a payment of it is booked between.

    A pair's lines between players are read across its settlements (`_stand`), so together, in every post, they
    show exactly what the pair owes."""

    payer_id: int
    payee_id: int
    amount: int
    open: int
    paid: int
    waiting: str | None
    passed: tuple[tuple[int, int], ...] = ()
    carried: int = 0

    @property
    def offset(self) -> int:
        return self.amount - self.open - self.paid - self.carried - sum(amount for _, amount in self.passed)


def settlement_record(tx: Tx, chat_id: int, settlement_id: int) -> m.SettlementRecord | None:
    """A stored settlement, when it is this chat's group's and has not been taken back (撤销结算): a button's id
    from another chat, or under a settlement taken back, finds nothing."""
    record = tx.session.get(m.SettlementRecord, settlement_id)
    if record is None or record.voided_at is not None:
        return None
    return record if record.group_id == group_by_chat(tx.session, chat_id).id else None


#: how many of a group's latest posted settlements a typed payment looks through for the post of its pair
POSTS_LOOKED_AT = 20


def set_post(tx: Tx, chat_id: int, settlement_id: int, message_id: int) -> None:
    """The message a settlement's payments post was sent as (a settlement of another chat: nothing)."""
    record = settlement_record(tx, chat_id, settlement_id)
    if record is not None:
        record.post_message_id = message_id


def posts_of_pair(
    tx: Tx, chat_id: int, debtor_id: int, creditor_id: int, settlement_id: int | None = None
) -> list[tuple[int, int]]:
    """(settlement id, message id) of the posts a typed payment of the pair rewrites: first `settlement_id`'s (the
    settlement of the line the payment recorded) when it was posted, then every later posted settlement with a line
    of the pair (what the payment paid beyond its line lands there, `_stand`); without a recorded line, the latest
    posted settlement with a line of the pair. Lines are read under the accounts their money lives under now (a
    guest linked since is its member), among the group's `POSTS_LOOKED_AT` latest posted settlements."""
    group = group_by_chat(tx.session, chat_id)
    home = homes(tx, group.id)
    pair = {debtor_id, creditor_id}
    with_pair: list[tuple[int, int]] = []  # newest first
    for row in tx.execute(
        sa.select(
            m.SettlementRecord.id,
            m.SettlementRecord.post_message_id,
            m.SettlementRecord.payments,
            m.SettlementRecord.passed,
        )
        .where(
            m.SettlementRecord.group_id == group.id,
            m.SettlementRecord.post_message_id.is_not(None),
            m.SettlementRecord.voided_at.is_(None),
        )
        .order_by(m.SettlementRecord.id.desc())
        .limit(POSTS_LOOKED_AT)
    ):
        if any({debtor, creditor} == pair for _, debtor, creditor, _ in _lines_of(row, home)):
            with_pair.append((row.id, row.post_message_id))
    record = settlement_record(tx, chat_id, settlement_id) if settlement_id is not None else None
    if record is None or record.post_message_id is None:
        return with_pair[:1]
    later = [post for post in reversed(with_pair) if post[0] > record.id]
    return [(record.id, record.post_message_id), *later]


#: how many of a group's latest settlements a pair's lines are read across (`_stand`): a pair's debt sits on its
#: newest lines, so older ones are paid up or offset unless a payment recorded one of them
LINES_LOOKED_AT = 50


@dataclass
class _Line:
    """One line between players of a stored settlement, under the accounts its money lives under now, and (filled
    by `_stand`) where it stands."""

    settlement_id: int
    created_at: datetime
    index: int
    debtor: int
    creditor: int
    amount: int
    paid: int = 0
    open: int = 0
    carried: int = 0
    waiting: str | None = None


@dataclass(frozen=True)
class _Payment:
    id: int
    debtor: int
    creditor: int
    amount: int
    side: str
    confirmed_at: datetime | None
    created_at: datetime
    line: tuple[int, int] | None  # (settlement id, index) it recorded (`payment_lines`); None: booked before 0016


def _lines_of(record: Any, home: Mapping[int, int]) -> list[tuple[int, int, int, int]]:
    """A settlement's lines in its post's order (its payments, then the debts it passed on) as `(index, debtor,
    creditor, 分)`, under the accounts the money lives under now; a line to or from the pot or the house has the
    account's id (never paid: passed on)."""
    lines = [(int(line["payer_id"]), int(line["payee_id"]), int(line["amount"])) for line in record.payments or ()]
    lines += [(int(x), int(y), int(a)) for x, y, a, _ in record.passed or ()]
    return [(i, home.get(x, x), home.get(y, y), a) for i, (x, y, a) in enumerate(lines)]


def _player_lines(
    tx: Tx, group_id: int, home: Mapping[int, int], pairs: set[tuple[int, int]], also: Any = None
) -> list[_Line]:
    """The lines of `pairs` ((debtor, creditor) between players, either way) of the group's `LINES_LOOKED_AT` latest
    live settlements (and of `also`, a settlement further back), oldest first, and where they stand (`_stand`)."""
    columns = (
        m.SettlementRecord.id,
        m.SettlementRecord.created_at,
        m.SettlementRecord.payments,
        m.SettlementRecord.passed,
        m.SettlementRecord.carried,
    )
    records = list(
        tx.execute(
            sa.select(*columns)
            .where(m.SettlementRecord.group_id == group_id, m.SettlementRecord.voided_at.is_(None))
            .order_by(m.SettlementRecord.id.desc())
            .limit(LINES_LOOKED_AT)
        )
    )
    if also is not None and all(row.id != also.id for row in records):
        records.append(also)
    lines = [
        _Line(record.id, record.created_at, index, debtor, creditor, amount)
        for record in sorted(records, key=lambda record: record.id)
        for index, debtor, creditor, amount in _lines_of(record, home)
        if (debtor, creditor) in pairs or (creditor, debtor) in pairs
    ]
    if not lines:
        return lines
    since = min(line.created_at for line in lines)
    payments = [
        _Payment(
            id_,
            home.get(debtor, debtor),
            home.get(creditor, creditor),
            amount,
            side,
            confirmed_at,
            created_at,
            None if settlement_id is None else (settlement_id, index),
        )
        for id_, creditor, debtor, amount, side, confirmed_at, created_at, settlement_id, index in tx.execute(
            live_with_lines(
                group_id,
                m.Transfer.id,
                m.Transfer.payer_id,
                m.Transfer.payee_id,
                m.Transfer.amount,
                m.Transfer.reason,
                m.Transfer.confirmed_at,
                m.Transfer.created_at,
                m.PaymentLine.settlement_id,
                m.PaymentLine.line_index,
            ).where(m.Transfer.created_at >= since)  # a payment of a line is booked after its settlement
        )
    ]
    carried = [  # (settlement id, debtor, creditor, 分): a pair's debt netted into that settlement
        (record.id, home.get(int(d), int(d)), home.get(int(c), int(c)), int(a))
        for record in records
        for d, c, a in record.carried or ()
    ]
    _stand(lines, payments, pair_debts(tx, group_id), tx.now - CONFIRM_WINDOW)
    _carry(lines, carried)
    return lines


def live_with_lines(group_id: int, *columns: Any) -> sa.Select[Any]:
    """`columns` of the group's payments not taken back, in booking order, each with the settlement line it pays
    (`m.PaymentLine`'s columns: None for a payment of no line). The reader of a pair's lines (`_player_lines`) and
    the check of what a settlement's undo would leave unpaid (`tables`) look at payments this way; each adds its
    own `where`."""
    return (
        sa.select(*columns)
        .outerjoin(m.PaymentLine, m.PaymentLine.transfer_id == m.Transfer.id)
        .where(m.Transfer.group_id == group_id, m.Transfer.kind == m.PAYMENT, m.Transfer.voided_at.is_(None))
        .order_by(m.Transfer.id)
    )


def _stand(
    lines: Sequence[_Line], payments: Sequence[_Payment], owed: Mapping[tuple[int, int], int], since: datetime
) -> None:
    """Where each of a pair's lines (oldest first) stands, across its settlements. A payment covers the line it
    recorded (a press: the line pressed), the rest of it the pair's later lines, then its earlier ones; a payment
    booked before 0016 (no line) covers the pair's oldest lines settled before it. What the pair owes now sits on
    its newest lines not covered (the debt it carried or offset covered the older ones), so the pair's lines
    together show exactly what it owes. The word awaited shows on the lines a payment covers while it is awaited: a
    later payment confirmed leaves an earlier one's word awaited still."""
    pairs: dict[tuple[int, int], list[_Line]] = {}
    for line in lines:
        pairs.setdefault((line.debtor, line.creditor), []).append(line)
    at = {(line.settlement_id, line.index): line for line in lines}
    covers: dict[int, list[_Line]] = {}
    for recorded in (True, False):  # recorded payments first: a press has its line before older words
        for payment in payments:
            mine = pairs.get((payment.debtor, payment.creditor), [])
            if (payment.line is not None) != recorded:
                continue
            if payment.line is None:
                order = [line for line in mine if line.created_at <= payment.created_at]
            else:
                start = at.get(payment.line)
                if start is None or start not in mine:
                    continue  # a line further back than those read: it pays nothing here
                i = mine.index(start)
                order = mine[i:] + mine[:i]
            left = payment.amount
            for line in order:
                part = min(left, line.amount - line.paid)
                if part:
                    line.paid += part
                    left -= part
                    covers.setdefault(payment.id, []).append(line)
    for payment in payments:  # in order booked: the latest word still awaited on a line is the one shown
        for line in covers.get(payment.id, ()):
            if payment.confirmed_at is None and payment.created_at >= since:
                line.waiting = payment.side
    for pair, mine in pairs.items():
        debt = owed.get(pair, 0)
        for line in reversed(mine):
            line.open = min(debt, line.amount - line.paid)
            debt -= line.open
        for line in reversed(mine):  # owed beyond what payments leave (a payment read here paid a line further back)
            part = min(debt, line.paid)
            line.paid -= part
            line.open += part
            debt -= part


def _carry(lines: Sequence[_Line], carried: Iterable[tuple[int, int, int, int]]) -> None:
    """What a later settlement netted in of a pair's debt (`settlements.carried`) covers the pair's lines settled
    before it that neither a payment nor the debt now covers, oldest first (the rest was offset)."""
    for settlement_id, debtor, creditor, amount in sorted(carried):
        for line in lines:
            if (line.debtor, line.creditor) == (debtor, creditor) and line.settlement_id < settlement_id:
                part = min(amount, line.amount - line.open - line.paid - line.carried)
                line.carried += part
                amount -= part


def oldest_open_line(tx: Tx, group_id: int, debtor_id: int, creditor_id: int) -> tuple[int, int] | None:
    """(settlement id, index) of the pair's oldest line still owed among those read (`_player_lines`): the line a
    typed payment of the pair settles first. None: none (what the pair owes sits on lines further back)."""
    for line in _player_lines(tx, group_id, homes(tx, group_id), {(debtor_id, creditor_id)}):
        if (line.debtor, line.creditor) == (debtor_id, creditor_id) and line.open:
            return line.settlement_id, line.index
    return None


def pair_standing(tx: Tx, chat_id: int, debtor_id: int, creditor_id: int) -> list[int]:
    """`[owed, settlement id, index]`: what the debtor owes the creditor now (分) and the line a new payment of the
    pair records (`oldest_open_line`; `0, -1`: none). Paid up, partly paid, a settlement taken back or a new one
    stored: it changes."""
    group = group_by_chat(tx.session, chat_id)
    owed = pair_debts(tx, group.id).get((debtor_id, creditor_id), 0)
    line = oldest_open_line(tx, group.id, debtor_id, creditor_id) or (0, -1)
    return [owed, *line]


def _is_line_of(tx: Tx, group_id: int, line: tuple[int, int], debtor_id: int, creditor_id: int) -> bool:
    """Whether `line` (settlement id, index) is a line from `debtor` to `creditor` of a live settlement of the group
    (under the accounts the money lives under now)."""
    record = tx.session.get(m.SettlementRecord, line[0])
    if record is None or record.group_id != group_id or record.voided_at is not None:
        return False
    home = homes(tx, group_id)
    return any(
        (index, debtor, creditor) == (line[1], debtor_id, creditor_id)
        for index, debtor, creditor, _ in _lines_of(record, home)
    )


def line_states(tx: Tx, chat_id: int, settlement_id: int) -> list[LineState] | None:
    """Each line of a stored settlement of this chat (in its order), then each debt it passed through a group
    account (`settlements.passed`, in its order), and where it stands; None when the settlement is not this
    chat's. A line between players is read with the pair's lines in the other settlements (`_stand`); a line to
    or from the pot or the house is never paid here: it is passed on (`pass_through`)."""
    record = settlement_record(tx, chat_id, settlement_id)
    if record is None:
        return None
    accounts = _accounts(tx, record.group_id)
    home = _canonical(accounts)
    pools = {id_ for id_, row in accounts.items() if row.kind in m.GROUP_ACCOUNTS}
    pairs = {(x, y) for _, x, y, _ in _lines_of(record, home) if x not in pools and y not in pools}
    players = {
        line.index: line
        for line in _player_lines(tx, record.group_id, home, pairs, also=record)
        if line.settlement_id == record.id
    }
    owed = pair_debts(tx, record.group_id)
    passes = [  # under the accounts the money lives under now (a pass stored before a guest was linked: its member)
        (home.get(int(x), int(x)), home.get(int(y), int(y)), int(a), int(p))
        for (passed,) in tx.execute(
            sa.select(m.SettlementRecord.passed)
            .where(
                m.SettlementRecord.group_id == record.group_id,
                m.SettlementRecord.id >= record.id,
                m.SettlementRecord.voided_at.is_(None),
            )
            .order_by(m.SettlementRecord.id)
        )
        for x, y, a, p in passed or ()
    ]
    states = []
    for index, payer, payee, amount in _lines_of(record, home):
        line = players.get(index)
        if line is not None:
            states.append(LineState(payer, payee, amount, line.open, line.paid, line.waiting, carried=line.carried))
            continue
        left = min(amount, owed.get((payer, payee), 0))
        if payee in pools:  # to the account: passed on to those it paid out to
            on = _passed_on([(y, a) for x, y, a, p in passes if (x, p) == (payer, payee)], amount - left)
        else:  # from the account: those who owed it pay instead
            on = _passed_on([(x, a) for x, y, a, p in passes if (p, y) == (payer, payee)], amount - left)
        states.append(LineState(payer, payee, amount, left, 0, None, on))
    return states


def _passed_on(passes: Sequence[tuple[int, int]], most: int) -> tuple[tuple[int, int], ...]:
    """`(id, 分)` passes in order, merged by id, up to `most` 分 in all (what the line no longer owes)."""
    taken: dict[int, int] = {}
    for other, amount in passes:
        amount = min(amount, most)
        if amount <= 0:
            break
        taken[other] = taken.get(other, 0) + amount
        most -= amount
    return tuple(taken.items())


# ---------------------------------------------------------------------------------------------- payments


def _check_pair(tx: Tx, group_id: int, debtor_id: int, creditor_id: int) -> None:
    accounts = _accounts(tx, group_id)
    for id_ in (debtor_id, creditor_id):
        row = accounts.get(id_)
        if row is None or row.kind in m.GROUP_ACCOUNTS or row.linked_to_id is not None:
            raise LedgerError("bad_member", "付款只在本群的玩家之间记")
    if debtor_id == creditor_id:
        raise LedgerError("bad_transfer", "不能付给自己")


def _has_no_word(tx: Tx, group_id: int, account_id: int) -> bool:
    """Whether an account cannot tell or confirm a payment itself: a guest (a plain name at the table, no Telegram
    account; a guest linked to a member since is paid through the member: `_check_pair`)."""
    kind = tx.session.scalar(sa.select(m.Member.kind).where(m.Member.id == account_id, m.Member.group_id == group_id))
    return kind == m.GUEST


def pay(
    tx: Tx,
    chat_id: int,
    debtor_id: int,
    creditor_id: int,
    amount: int | None,
    side: str,
    at_most: int | None = None,
    confirm_only: bool = False,
    line: tuple[int, int] | None = None,
    check_repeat: bool = False,
) -> PaymentResult:
    """`side` tells that `debtor` paid `creditor` `amount` 分 (None: all that is owed, at most `at_most`): confirms
    the other side's matching payment, or books a new one within what is owed (with `confirm_only`: refused with
    `nothing_to_confirm` instead); an amount over the other side's waiting payments (and within them and what is
    owed) confirms them and books the rest. A new one records the line it settles (`payment_lines`): `line`
    (settlement id, index: the line a button was pressed under) when it is a line of the pair, else the pair's
    oldest open line.
    With `check_repeat`, a new one that repeats one the same person (`tx.by`) booked within the group's
    double-entry window (`设置 重复间隔`: the same pair, amount and side, live; or confirmed: `_refuse_repeat`) is
    refused with `DuplicatePayment`:
    the same payment sent twice, most likely. Two real partial payments of one amount are booked past it. Not
    checked without an amount: paying what is still owed (`已转 @x` after `付 @x 2`) is never a repeat. Also with
    `check_repeat`, an amount below the other side's waiting payments that matches none of them nor what is still
    owed besides them is refused with `ShortOfWaiting` (part of what they told, or another transfer?): booked past
    it like a repeat."""
    if side not in SIDES:
        raise ValueError(f"side is one of {SIDES}, not {side!r}")
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    _check_pair(tx, group.id, debtor_id, creditor_id)
    by_id = names(tx, group.id)
    owed = pair_debts(tx, group.id).get((debtor_id, creditor_id), 0)
    unconfirmed = (
        sa.select(m.Transfer)
        .where(
            m.Transfer.group_id == group.id,
            m.Transfer.kind == m.PAYMENT,
            m.Transfer.payer_id == creditor_id,
            m.Transfer.payee_id == debtor_id,
            m.Transfer.voided_at.is_(None),
            m.Transfer.confirmed_at.is_(None),
            m.Transfer.reason != side,
        )
        .order_by(m.Transfer.id.desc())
    )
    of_amount = unconfirmed.where(m.Transfer.amount == amount) if amount is not None else unconfirmed
    # no amount named (a button): every payment of the pair waiting for this side's word; an amount: the latest of
    # that amount, else all of them when it is their total (`收到 4` for two 已付 2: the word for both, not a third)
    waiting = list(session.scalars(unconfirmed.where(m.Transfer.created_at >= tx.now - CONFIRM_WINDOW)))
    matches = waiting
    if amount is not None:
        same = [match for match in matches if match.amount == amount][:1]
        matches = same or (matches if len(matches) > 1 and sum(match.amount for match in matches) == amount else [])
    # more than the other side's waiting payments, but no more than those and what is still owed: those payments and
    # the rest (`收到 @b 4` after b's `已付 2`: what reached c from b in all, 2 of it told already)
    waited = sum(match.amount for match in waiting)
    covered: list[m.Transfer] = []
    if not matches and not confirm_only and amount is not None:
        covered = waiting if 0 < waited < amount <= waited + owed else []
    if not matches and not covered and (confirm_only or owed <= 0 or (amount is not None and amount > owed)):
        # nothing new could be booked: the other side's older word is what this confirms, past the window
        matches = list(session.scalars(of_amount.limit(1)))
    if check_repeat and not matches and not covered and amount is not None and 0 < amount < waited and amount != owed:
        # part of what the other side told, or another transfer: asked, not guessed (what is still owed besides it,
        # as every reply says it, is the rest: `已转 1` after the payee's `收到 3` of 4)
        raise ShortOfWaiting(waited)
    if matches:
        teller_id = session.scalar(sa.select(m.Member.user_id).where(m.Member.id == _teller(matches[0])))
        for match in matches:
            match.confirmed_at, match.confirmed_by = tx.now, tx.by
        session.flush()
        in_person = all(match.created_by is not None and match.created_by == teller_id for match in matches)
        result = _result(tx, matches[0], by_id, booked=False, owed=owed, first_in_person=in_person)
        return replace(result, amount=sum(match.amount for match in matches), count=len(matches))
    if confirm_only:
        raise LedgerError("nothing_to_confirm", "没有待确认的付款")
    if owed <= 0 and amount is not None and 0 < waited < amount:  # all told already, waiting for this side's word
        raise Overpaid(f"{by_id.get(debtor_id, '?')} 不再欠 {by_id.get(creditor_id, '?')} 钱", 0, waited)
    if owed <= 0:
        raise LedgerError("no_debt", f"{by_id.get(debtor_id, '?')} 不欠 {by_id.get(creditor_id, '?')} 钱")
    named = amount is not None
    if amount is None:
        amount = owed if at_most is None else min(owed, at_most)
    if amount <= 0:
        raise LedgerError("bad_amount", "付款金额必须大于 0")
    if amount > owed and not covered:
        raise Overpaid(
            f"{by_id.get(debtor_id, '?')} 只欠 {by_id.get(creditor_id, '?')} {owed} 分",
            owed,
            waited,
        )
    if check_repeat and named:  # all that is owed (`已转 @x`) books nothing twice: sent again, nothing is owed
        _refuse_repeat(tx, group.id, debtor_id, creditor_id, amount, side)
    for match in covered:
        match.confirmed_at, match.confirmed_by = tx.now, tx.by
    also_confirmed = sum(match.amount for match in covered)
    amount -= also_confirmed
    movement = transfers.Movement()
    row = transfers.new_row(tx, group.id, creditor_id, debtor_id, amount, side, m.PAYMENT, night_id=None)
    if line is None or not _is_line_of(tx, group.id, line, debtor_id, creditor_id):
        line = oldest_open_line(tx, group.id, debtor_id, creditor_id)
    (new_id,) = transfers.insert(tx, [row], movement)
    if line is not None:
        tx.execute(sa.insert(m.PaymentLine).values(transfer_id=new_id, settlement_id=line[0], line_index=line[1]))
    awaited = creditor_id if side == PAYER_SIDE else debtor_id
    alone = _has_no_word(tx, group.id, awaited)
    if alone:  # a guest cannot say 收到/已付: the payment stands on this side's word, confirmed as it is told
        tx.execute(sa.update(m.Transfer).where(m.Transfer.id == new_id).values(confirmed_at=tx.now, confirmed_by=tx.by))
    transfers.apply(tx, movement)
    move_debts(tx, group.id, [(debtor_id, creditor_id, -amount)])
    return PaymentResult(
        id=new_id,
        debtor_id=debtor_id,
        debtor=by_id.get(debtor_id, "?"),
        creditor_id=creditor_id,
        creditor=by_id.get(creditor_id, "?"),
        amount=amount,
        side=side,
        booked=True,
        confirmed=alone,
        voided=False,
        owed=owed - amount,
        settlement_id=None if line is None else line[0],
        also_confirmed=also_confirmed,
        also_count=len(covered),
    )


def _refuse_repeat(tx: Tx, group_id: int, debtor_id: int, creditor_id: int, amount: int, side: str) -> None:
    """`DuplicatePayment` when `tx.by` told the same payment (pair, amount, side; live) within the group's
    double-entry window: booked it, or confirmed the other side's payment of it with that word (a 收到 that
    confirmed 已付 2, sent twice: the second would book another 2). One word told all it did at one moment
    together, too: `收到 4` that confirmed two 已付 2, or confirmed 已付 2 and booked the other 2, told 4."""
    window = double_entry_window(
        tx.session.scalar(sa.select(ChatOptions.double_entry_seconds).where(ChatOptions.group_id == group_id))
    )
    if not window or tx.by is None:
        return
    since = tx.now - window
    told_at = sa.case((m.Transfer.reason == side, m.Transfer.created_at), else_=m.Transfer.confirmed_at)
    told: list[datetime] = []  # when a payment of this amount was told: one alone, or one word's together
    words: dict[datetime, int] = {}  # what was told at each moment; a word that confirmed told all of it together
    confirming: set[datetime] = set()  # (two words at one moment that only booked are two words: two rows)
    for at, part, confirmed in tx.execute(
        sa.select(told_at, m.Transfer.amount, m.Transfer.reason != side).where(
            m.Transfer.group_id == group_id,
            m.Transfer.kind == m.PAYMENT,
            m.Transfer.payer_id == creditor_id,
            m.Transfer.payee_id == debtor_id,
            m.Transfer.voided_at.is_(None),
            sa.or_(
                sa.and_(m.Transfer.reason == side, m.Transfer.created_by == tx.by, m.Transfer.created_at >= since),
                sa.and_(m.Transfer.reason != side, m.Transfer.confirmed_by == tx.by, m.Transfer.confirmed_at >= since),
            ),
        )
    ):
        if part == amount:
            told.append(at)
        words[at] = words.get(at, 0) + int(part)
        if confirmed:
            confirming.add(at)
    told += [at for at, total in words.items() if total == amount and at in confirming]
    if told:
        raise DuplicatePayment(int((tx.now - max(told)).total_seconds()))


def void_payment(
    tx: Tx,
    chat_id: int,
    parties: Sequence[int],
    reason: str,
    *,
    admin: int | None = None,
    waiting_for: int | None = None,
    amount: int | None = None,
) -> PaymentResult:
    """Void exactly one payment: the latest live one between `parties` (one id: any payment it is party to). A
    payment both sides have confirmed is taken back only by an `admin` (account id) who is neither side of it:
    either side alone could otherwise be paid twice, or unpay. A payment with a guest, which stood on its one
    side's word (`pay`: confirmed as it was told), that side may take back as an unconfirmed one.
    `waiting_for` (an account: the payee's 没收到): only a payment the other side told that waits for that
    account's word (not confirmed, within `CONFIRM_WINDOW`), of `amount` 分 when given."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    if not 1 <= len(set(parties)) <= 2:
        raise ValueError("one or two parties")
    conditions = [sa.or_(m.Transfer.payer_id == party, m.Transfer.payee_id == party) for party in set(parties)]
    if waiting_for is not None:  # cash from debtor to creditor is booked from the creditor (the module's docstring)
        conditions += [
            sa.or_(
                sa.and_(m.Transfer.reason == PAYER_SIDE, m.Transfer.payer_id == waiting_for),
                sa.and_(m.Transfer.reason == PAYEE_SIDE, m.Transfer.payee_id == waiting_for),
            ),
            m.Transfer.confirmed_at.is_(None),
            m.Transfer.created_at >= tx.now - CONFIRM_WINDOW,
        ]
        if amount is not None:
            conditions.append(m.Transfer.amount == amount)
    found = _latest_live(tx, group.id, conditions)
    if found is None:
        raise LedgerError("no_payment", "没有可以撤销的付款")
    told_alone = found.confirmed_at == found.created_at and (
        _has_no_word(tx, group.id, found.payer_id) or _has_no_word(tx, group.id, found.payee_id)
    )
    if found.confirmed_at is not None and not told_alone and admin in (None, found.payer_id, found.payee_id):
        raise LedgerError("payment_confirmed", "这笔付款双方都确认过了，只有管理员可以撤销")
    movement = transfers.Movement()
    transfers.void(tx, [transfers.live(found)], reason, movement)  # a Transfer holds every live column
    transfers.apply(tx, movement)
    move_debts(tx, group.id, [(found.payee_id, found.payer_id, found.amount)])  # owed again
    session.expire(found)
    by_id = names(tx, group.id)
    owed = pair_debts(tx, group.id).get((found.payee_id, found.payer_id), 0)
    return _result(tx, found, by_id, booked=False, owed=owed)


def _latest_live(tx: Tx, group_id: int, conditions: Sequence[Any]) -> m.Transfer | None:
    """The group's latest live payment meeting `conditions` (what 撤销付款 takes back)."""
    return tx.session.scalar(
        sa.select(m.Transfer)
        .where(m.Transfer.group_id == group_id, m.Transfer.kind == m.PAYMENT, m.Transfer.voided_at.is_(None))
        .where(*conditions)
        .order_by(m.Transfer.id.desc())
        .limit(1)
    )


def latest_payment(tx: Tx, chat_id: int, party: int) -> PaymentResult | None:
    """The latest live payment `party` is a side of — the one an admin's `撤销付款 @party` would take back — for
    telling anyone else who may take it back; None when there is none. Reads only."""
    group = group_by_chat(tx.session, chat_id)
    found = _latest_live(tx, group.id, [sa.or_(m.Transfer.payer_id == party, m.Transfer.payee_id == party)])
    if found is None:
        return None
    owed = pair_debts(tx, group.id).get((found.payee_id, found.payer_id), 0)
    return _result(tx, found, names(tx, group.id), booked=False, owed=owed)


def _teller(transfer: m.Transfer) -> int:
    """The account that told a payment first (a payment is stored creditor → debtor)."""
    return transfer.payee_id if transfer.reason == PAYER_SIDE else transfer.payer_id


def _result(
    tx: Tx,
    transfer: m.Transfer,
    by_id: Mapping[int, str],
    *,
    booked: bool,
    owed: int,
    first_in_person: bool = True,
) -> PaymentResult:
    line = tx.session.get(m.PaymentLine, transfer.id)
    return PaymentResult(
        id=transfer.id,
        debtor_id=transfer.payee_id,
        debtor=by_id.get(transfer.payee_id, "?"),
        creditor_id=transfer.payer_id,
        creditor=by_id.get(transfer.payer_id, "?"),
        amount=transfer.amount,
        side=transfer.reason,
        booked=booked,
        confirmed=transfer.confirmed_at is not None,
        voided=transfer.voided_at is not None,
        owed=owed,
        first_in_person=first_in_person,
        settlement_id=None if line is None else line.settlement_id,
    )
