"""Money outside the hands: fines into the pot (红包池), the pot paid out, a guest's record moved to a member;
and what the books say — balances (all-time, a night, a table, a period), a member's record, settlements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ledger import models as m
from ledger import payments, transfers
from ledger.accounts import (
    MAX_AMOUNT,
    OPEN_SEAT,
    check_amount,
    get_member,
    group_by_chat,
    lock_group,
    member_info,
    names,
    shown_names,
)
from ledger.codec import encode
from ledger.errors import LedgerError
from ledger.hands import winners
from ledger.records import (
    Balance,
    Balances,
    MemberInfo,
    MemberRecord,
    OwedToAccount,
    Passed,
    Payment,
    Settlement,
    TransferInfo,
)
from ledger.settlement import settle_with_accounts
from ledger.unit import Tx, get_row

_member = m.Member.__table__
_pot = m.Member.__table__.alias("pot")
_open_night = (
    sa.select(m.Night.id)
    .where(m.Night.group_id == _member.c.group_id, m.Night.ended_at.is_(None))
    .correlate(_member)
    .scalar_subquery()
)
#: a member, its group's pot and the group's open night (None between nights), in one query
_MEMBER_POT_NIGHT = (
    sa.select(
        _member.c.id,
        _member.c.group_id,
        _member.c.kind,
        _member.c.linked_to_id,
        sa.func.coalesce(_member.c.alias, _member.c.display_name).label("name"),
        _pot.c.id.label("pot_id"),
        _pot.c.display_name.label("pot_name"),
        _open_night.label("night_id"),
    )
    .join(_pot, sa.and_(_pot.c.group_id == _member.c.group_id, _pot.c.kind == m.POT))
    .where(_member.c.id == sa.bindparam("member_id"))
)


def fine(tx: Tx, member_id: int, amount: int, reason: str) -> TransferInfo:
    """The member pays `amount` 分 into the group's pot; it belongs to the night open now (if any)."""
    row = tx.execute(_MEMBER_POT_NIGHT, {"member_id": member_id}).first()
    if row is None:
        raise LedgerError("not_found", f"找不到这个成员（{member_id}）")
    if row.kind in m.POOLS or row.linked_to_id is not None:
        raise LedgerError("bad_member", f"不能罚 {row.name}")
    if row.night_id is None:
        lock_group(tx.session, row.group_id)  # before the pot's row, as every writer of a group does
    movement = transfers.Movement()
    values = transfers.new_row(
        tx, row.group_id, row.id, row.pot_id, amount, reason[:200] or "罚款", m.FINE, night_id=row.night_id
    )
    ids = transfers.insert(tx, [values], movement)
    transfers.apply(tx, movement)
    if row.night_id is None:
        settle_at_once(tx, row.group_id, [(row.id, row.pot_id, amount)])
    return transfers.booked_info(ids, [values], {row.id: row.name, row.pot_id: row.pot_name}, {})[0]


def settle_at_once(tx: Tx, group_id: int, lines: Sequence[tuple[int, int, int]]) -> int:
    """Money to or from a group account booked while no night is open (a fine in the afternoon, 发红包池 or 付台费
    after 结算, a fine of the afternoon pardoned) belongs to no night's settlement: it is settled at once, as a
    settlement of its own (`night_id` NULL) whose lines (payer, payee, 分) become debts and pass through the
    account like a night's (`store_settlement`). The caller holds the group's lock. Returns its id."""
    by_id = names(tx, group_id)
    balances: dict[int, int] = {}
    for payer, payee, amount in lines:
        balances[payer] = balances.get(payer, 0) - amount
        balances[payee] = balances.get(payee, 0) + amount
    lines_paid = [Payment(d, by_id.get(d, "?"), c, by_id.get(c, "?"), a) for d, c, a in lines]
    return store_settlement(tx, group_id, None, lines_paid, balances, (), exact=True)[0]


def store_settlement(
    tx: Tx,
    group_id: int,
    night_id: int | None,
    lines: Sequence[Payment],
    balances: Mapping[int, int],
    carried: Sequence[Payment],
    *,
    exact: bool,
    table_id: int | None = None,
) -> tuple[int, list[list[int]]]:
    """A settlement stored (`settlements`: its lines, the balances it squares, the debts it netted in), its lines
    made debts and what then passes through the group's accounts passed (`payments.add_settlement`), in the
    caller's transaction; `table_id`: the table the close ended (opened again if the settlement is taken back).
    Returns its id and the passes."""
    passed = payments.add_settlement(
        tx,
        group_id,
        [(p.payer_id, p.payee_id, p.amount) for p in lines],
        [(d.payer_id, d.payee_id, d.amount) for d in carried],
    )
    record = m.SettlementRecord(
        group_id=group_id,
        night_id=night_id,
        payments=encode(lines),
        balances={str(id_): amount for id_, amount in balances.items()},
        carried=[[d.payer_id, d.payee_id, d.amount] for d in carried] or None,
        exact=exact,
        created_at=tx.now,
        created_by=tx.by,
        table_id=table_id,
    )
    if passed:  # left out otherwise: SQL NULL, as the migration writes it (None given would store JSON null)
        record.passed = passed
    tx.session.add(record)
    tx.session.flush()
    return record.id, passed


_TRANSFER_FOR_UPDATE = (
    sa.select(*transfers.LIVE_COLUMNS, m.Transfer.group_id, m.Transfer.voided_at)
    .where(m.Transfer.id == sa.bindparam("id"))
    .with_for_update()
)


#: a settlement of the night a transfer was booked in, made after it (the night was settled with it in)
_SETTLED_SINCE = (
    sa.select(m.SettlementRecord.id)
    .where(
        m.SettlementRecord.night_id == sa.bindparam("night_id"),
        m.SettlementRecord.created_at >= sa.bindparam("booked_at"),
        m.SettlementRecord.voided_at.is_(None),
    )
    .limit(1)
)


def cancel_fine(tx: Tx, transfer_id: int, reason: str) -> TransferInfo:
    """Void a fine (kept, marked with who/when/why); its money goes back. Refused for a fine of a night settled
    since (a settled night is closed: its settlement told the players what to pay) and for one the pot has paid
    out since, whoever asks (a 群管 pardon, the console, the Mini App)."""
    row = tx.execute(_TRANSFER_FOR_UPDATE, {"id": transfer_id}).first()
    if row is None:
        raise LedgerError("not_found", f"找不到这个罚款（{transfer_id}）")
    if row.kind != m.FINE:
        raise LedgerError("not_a_fine", "这笔不是罚款")
    if row.voided_at is not None:
        raise LedgerError("already_voided", "这笔罚款已经取消")
    lock_group(tx.session, row.group_id)
    if (
        row.night_id is not None
        and tx.execute(_SETTLED_SINCE, {"night_id": row.night_id, "booked_at": row.created_at}).first()
    ):
        raise LedgerError("fine_night_closed", "这笔罚款所在的那晚已经结算，账已关闭，不能撤销")
    pot_balance = tx.session.scalar(sa.select(m.Member.balance).where(m.Member.id == row.payee_id).with_for_update())
    paid_out_since = tx.session.scalar(
        sa.select(sa.func.count())
        .select_from(m.Transfer)
        .where(
            m.Transfer.payer_id == row.payee_id,
            m.Transfer.kind == m.PAYOUT,
            m.Transfer.voided_at.is_(None),
            m.Transfer.id > transfer_id,
        )
    )
    # paid out of the pot: refunding it would drive the pot below 0, or (the pot refilled by later fines) leave
    # whoever was paid out owed a debt passed on from this fine
    if (pot_balance or 0) < row.amount or paid_out_since:
        raise LedgerError("fine_paid_out", "红包池里的钱不够退回这笔罚款：它已经发出去了")
    live = transfers.live(row)
    movement = transfers.Movement()
    transfers.void(tx, [live], reason, movement)
    transfers.apply(tx, movement)
    if row.night_id is None:  # settled at once when booked: its money goes back the same way
        settle_at_once(tx, row.group_id, [(row.payee_id, row.payer_id, row.amount)])
    return transfers.info(live, names(tx, row.group_id), voided=True)


def pay_out_pot(
    tx: Tx, chat_id: int, to: Sequence[int] | Mapping[int, int], amount: int | None, *, pool: str = m.POT
) -> list[TransferInfo]:
    """A sequence splits `amount` (default: the whole pot) evenly, the remainder 分 staying in the pot; a mapping
    member id -> 分 pays those amounts. Refused beyond what the pot holds. `pool` m.HOUSE pays out the table fees
    (台费) the same way."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    pot = session.scalar(
        sa.select(m.Member)
        .where(m.Member.group_id == group.id, m.Member.kind == pool)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if pot is None and pool == m.HOUSE:
        raise LedgerError("no_house", "这个群还没有设置台费")
    assert pot is not None, "every group is created with its pot"
    what, reason = ("红包池", "红包") if pool == m.POT else (pot.display_name, "付台费")
    if isinstance(to, Mapping):
        shares = dict(to)
        for share in shares.values():
            check_amount(share, MAX_AMOUNT)
    else:
        if not to or len(set(to)) != len(to):
            raise LedgerError("bad_members", "请列出领红包的人（不要重复）")
        total = pot.balance if amount is None else amount
        check_amount(total, None if amount is None else MAX_AMOUNT)  # the whole pot, however full, may go
        each = total // len(to)
        if each <= 0:
            raise LedgerError("pot_too_small", f"{what}只有 {pot.balance} 分，不够分给 {len(to)} 人")
        shares = dict.fromkeys(to, each)
    if sum(shares.values()) > pot.balance:
        raise LedgerError("pot_too_small", f"{what}只有 {pot.balance} 分，不够发 {sum(shares.values())} 分")
    night_id = session.scalar(sa.select(m.Night.id).where(m.Night.group_id == group.id, m.Night.ended_at.is_(None)))
    rows = []
    for member_id, share in shares.items():
        member = get_member(session, member_id)
        if member.group_id != group.id or member.kind in m.POOLS or member.linked_to_id is not None:
            raise LedgerError("bad_member", f"{member.name} 不能领{reason}")
        rows.append(transfers.new_row(tx, group.id, pot.id, member.id, share, reason, m.PAYOUT, night_id=night_id))
    movement = transfers.Movement()
    ids = transfers.insert(tx, rows, movement)
    transfers.apply(tx, movement)
    if night_id is None:
        settle_at_once(tx, group.id, [(pot.id, member_id, share) for member_id, share in shares.items()])
    return list(transfers.booked_info(ids, rows, names(tx, group.id), {}))


def link_guest(tx: Tx, guest_id: int, member_id: int) -> MemberInfo:
    """A guest's seats and transfers move to a real member, with the running totals; the guest stays, linked."""
    session = tx.session
    guest, member = get_row(session, m.Member, guest_id, "客人", lock=True), get_member(session, member_id)
    if guest.kind != m.GUEST or guest.linked_to_id is not None:
        raise LedgerError("not_a_guest", f"{guest.name} 不是未关联的客人")
    if member.kind != m.MEMBER or member.group_id != guest.group_id:
        raise LedgerError("bad_member", f"{member.name} 不是本群成员")
    together = session.scalar(
        sa.select(sa.func.count())
        .select_from(m.Seat)
        .where(m.Seat.member_id == member.id)
        .where(m.Seat.table_id.in_(sa.select(m.Seat.table_id).where(m.Seat.member_id == guest.id)))
    )
    between = sa.or_(
        sa.and_(m.Transfer.payer_id == guest.id, m.Transfer.payee_id == member.id),
        sa.and_(m.Transfer.payer_id == member.id, m.Transfer.payee_id == guest.id),
    )
    if together:
        shown = names(tx, guest.group_id)
        raise LedgerError("played_together", f"{shown[guest.id]} 和 {shown[member.id]} 同桌打过牌，不能是同一人")
    if session.scalar(sa.select(m.Transfer.id).where(between).limit(1)) is not None:
        # money between them (a payment of a debt 并账 carried across nights) would become money to oneself
        shown = names(tx, guest.group_id)
        raise LedgerError("paid_each_other", f"{shown[guest.id]} 和 {shown[member.id]} 之间付过钱，不能是同一人")
    for column in (m.Transfer.payer_id, m.Transfer.payee_id):
        tx.execute(sa.update(m.Transfer).where(column == guest.id).values({column: member.id}))
    tx.execute(sa.update(m.Seat).where(m.Seat.member_id == guest.id).values(member_id=member.id))
    movement = transfers.Movement()
    movement.accounts = {member.id: guest.balance, guest.id: -guest.balance}
    for night_id, amount in tx.execute(
        sa.select(m.NightTotal.night_id, m.NightTotal.amount).where(m.NightTotal.member_id == guest.id)
    ):
        movement.nights[night_id] = {member.id: amount, guest.id: -amount}
    transfers.apply(tx, movement)
    payments.rekey_debts(tx, guest.group_id, guest.id, member.id)
    guest.linked_to_id, guest.linked_at, guest.linked_by = member.id, tx.now, tx.by
    session.flush()
    session.refresh(member)
    return member_info(member)


# ---------------------------------------------------------------------------------------------- balances

_ALL_TIME = (
    sa.select(
        *(m.Member.id, m.Member.kind, m.Member.alias, m.Member.display_name, m.Member.username),
        *(m.Member.balance, OPEN_SEAT),
    )
    .join(m.Group, m.Group.id == m.Member.group_id)
    .where(m.Group.chat_id == sa.bindparam("chat_id"), m.Member.linked_to_id.is_(None))
    .order_by(m.Member.id)
)


def balances(tx: Tx, chat_id: int) -> Balances:
    """All-time balances of every account (running totals: one indexed query whatever the history)."""
    rows = tx.execute(_ALL_TIME, {"chat_id": chat_id}).all()
    if not rows:  # every group has its pot, so no rows means no group
        raise LedgerError("no_group", "这个群还没有账本")
    paid = payments.paid_totals(tx, group_by_chat(tx.session, chat_id).id)
    shown = shown_names(rows)  # linked guests are left out of the rows, and come last in the names anyway
    return Balances(tuple(Balance(row.id, shown[row.id], row.kind, row.balance, paid.get(row.id, 0)) for row in rows))


_NIGHT_TOTALS = sa.select(m.NightTotal.member_id, m.NightTotal.amount).where(
    m.NightTotal.night_id == sa.bindparam("night_id")
)


def night_totals(tx: Tx, night_id: int) -> dict[int, int]:
    """A night's running totals by account (accounts whose night nets to zero may show 0 or be absent)."""
    return {member_id: amount for member_id, amount in tx.execute(_NIGHT_TOTALS, {"night_id": night_id})}


def period(since: datetime | None, until: datetime | None) -> list[sa.ColumnElement[bool]]:
    conditions: list[sa.ColumnElement[bool]] = []
    if since is not None:
        conditions.append(m.Transfer.created_at >= since)
    if until is not None:
        conditions.append(m.Transfer.created_at < until)
    return conditions


def sum_balances(tx: Tx, group_id: int, *conditions: sa.ColumnElement[bool]) -> Balances:
    """Results from live transfers matching `conditions` (accounts without any such transfer are left out),
    with what each person owes the group accounts in them (`Balances.owed_to_accounts`, for the settlement).
    Payments are left out: a night's, a table's or a period's figures are what was won and lost."""
    live = sa.and_(
        m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None), m.Transfer.kind != m.PAYMENT, *conditions
    )
    by_pair = tx.execute(
        sa.select(m.Transfer.payer_id, m.Transfer.payee_id, sa.func.sum(m.Transfer.amount))
        .where(live)
        .group_by(m.Transfer.payer_id, m.Transfer.payee_id)
    ).all()
    rows = tx.execute(
        sa.select(
            *(m.Member.id, m.Member.alias, m.Member.display_name, m.Member.username, m.Member.kind),
            *(m.Member.linked_to_id, OPEN_SEAT),
        ).where(m.Member.group_id == group_id)
    ).all()
    shown = shown_names(rows)
    accounts = {row.id: (shown[row.id], row.kind) for row in rows}
    totals: dict[int, int] = {}
    owed: dict[tuple[int, int], int] = {}
    between: dict[tuple[int, int], int] = {}  # (debtor, creditor) among people: what the first owes the second
    for payer, payee, total in by_pair:
        totals[payer] = totals.get(payer, 0) - int(total)
        totals[payee] = totals.get(payee, 0) + int(total)
        if accounts[payee][1] in m.POOLS and accounts[payer][1] not in m.POOLS:
            owed[payer, payee] = owed.get((payer, payee), 0) + int(total)
        elif accounts[payer][1] in m.POOLS and accounts[payee][1] not in m.POOLS:
            owed[payee, payer] = owed.get((payee, payer), 0) - int(total)
        elif accounts[payer][1] not in m.POOLS:
            between[payer, payee] = between.get((payer, payee), 0) + int(total)
            between[payee, payer] = between.get((payee, payer), 0) - int(total)
    return Balances(
        tuple(Balance(id_, *accounts[id_], amount) for id_, amount in sorted(totals.items())),
        tuple(OwedToAccount(member, account, amount) for (member, account), amount in sorted(owed.items()) if amount),
        tuple(pair for pair, amount in sorted(between.items()) if amount > 0),
    )


def night_balances(tx: Tx, night: Any) -> Balances:
    """A night (a `Night` object or row): its tables' hands (edits made later included), plus fines and payouts
    booked while it was open."""
    return sum_balances(tx, night.group_id, m.Transfer.night_id == night.id)


def settlement_of(balances: Balances, carried: Sequence[Payment] = ()) -> Settlement:
    """The payments that square `balances` together with the earlier debts `carried` (debtor → creditor): what
    each person owes a group account paid by them to it (or by it to them), never moved onto another player, and
    the players' own results in the fewest payments (`settle_with_accounts`)."""
    names_by_id = {line.member_id: line.name for line in balances.lines}
    amounts = {line.member_id: line.amount for line in balances.lines}
    for debt in carried:
        names_by_id.setdefault(debt.payer_id, debt.payer)
        names_by_id.setdefault(debt.payee_id, debt.payee)
        amounts[debt.payer_id] = amounts.get(debt.payer_id, 0) - debt.amount
        amounts[debt.payee_id] = amounts.get(debt.payee_id, 0) + debt.amount
    owed = {(debt.member_id, debt.account_id): debt.amount for debt in balances.owed_to_accounts}
    owing = {*balances.owing, *((debt.payer_id, debt.payee_id) for debt in carried)}
    lines, exact = settle_with_accounts(amounts, owed, owing)
    return Settlement(
        payments=tuple(
            Payment(payer, names_by_id[payer], payee, names_by_id[payee], amount) for payer, payee, amount in lines
        ),
        balances=balances,
        exact=exact,
        carried=tuple(carried),
    )


def member_record(tx: Tx, member_id: int, recent: int) -> MemberRecord:
    """Balance, finished hands played and won, live fines, and the latest transfers of one account."""
    session = tx.session
    member = get_member(session, member_id)
    # every live event of every finished hand at a table the member sat at, in one query
    rows = session.execute(
        sa.select(m.Hand.id, m.Seat.name, m.GameTable.game, m.HandEvent.payload)
        .join(m.GameTable, m.GameTable.id == m.Seat.table_id)
        .join(m.Hand, m.Hand.table_id == m.Seat.table_id)
        .join(m.HandEvent, m.HandEvent.hand_id == m.Hand.id)
        .where(m.Seat.member_id == member.id, m.Hand.status == m.CLOSED, m.HandEvent.voided_at.is_(None))
        .order_by(m.Hand.id, m.HandEvent.id)
    ).all()
    hands: dict[int, tuple[str, str, list[dict[str, Any]]]] = {}
    for hand_id, seat_name, game, payload in rows:
        hands.setdefault(hand_id, (seat_name, game, []))[2].append(payload)
    won = sum(seat_name in winners(game, events) for seat_name, game, events in hands.values())
    fines = session.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(m.Transfer.amount), 0)).where(
            m.Transfer.payer_id == member.id, m.Transfer.kind == m.FINE, m.Transfer.voided_at.is_(None)
        )
    )
    latest = session.scalars(
        sa.select(m.Transfer)
        .where(sa.or_(m.Transfer.payer_id == member.id, m.Transfer.payee_id == member.id))
        .order_by(m.Transfer.id.desc())
        .limit(recent)
    ).all()
    by_id = names(tx, member.group_id)
    return MemberRecord(
        member=member_info(member),
        balance=member.balance,
        hands_played=len(hands),
        hands_won=won,
        fines=int(fines or 0),
        recent=tuple(transfers.info(t, by_id) for t in latest),
    )


def stored_settlement(tx: Tx, chat_id: int, settlement_id: int) -> Settlement | None:
    """A stored settlement of this chat's group (its payments, the night's balances it squared and the debts it
    carried, names as the ledger shows them now), or None."""
    record = payments.settlement_record(tx, chat_id, settlement_id)
    return stored(tx, record) if record is not None else None


def latest_settlement(tx: Tx, chat_id: int) -> Settlement | None:
    """The group's latest stored settlement (a night's, or money of the pot or the house settled at once), or
    None."""
    group = group_by_chat(tx.session, chat_id)
    record = tx.session.scalar(
        sa.select(m.SettlementRecord)
        .where(m.SettlementRecord.group_id == group.id, m.SettlementRecord.voided_at.is_(None))
        .order_by(m.SettlementRecord.id.desc())
        .limit(1)
    )
    return stored(tx, record) if record is not None else None


def night_settlement(tx: Tx, chat_id: int, night_id: int) -> Settlement | None:
    """The settlement stored when this chat's night closed (结算 or the 日切 roll-over), or None."""
    record = _night_record(tx, group_by_chat(tx.session, chat_id).id, night_id)
    return stored(tx, record) if record is not None else None


def settle_night(tx: Tx, night_id: int) -> Settlement:
    """A night's settlement as every view shows it: for a closed night the one stored when it closed (what was
    settled, the earlier debts it netted in included: 并账), for an open one the fewest payments of its balances
    so far (nothing stored)."""
    night = tx.session.get(m.Night, night_id)
    if night is None:
        raise LedgerError("not_found", f"找不到这一晚（{night_id}）")
    record = _night_record(tx, night.group_id, night_id) if night.ended_at is not None else None
    return stored(tx, record) if record is not None else settlement_of(night_balances(tx, night))


def _night_record(tx: Tx, group_id: int, night_id: int) -> m.SettlementRecord | None:
    return tx.session.scalar(
        sa.select(m.SettlementRecord)
        .where(
            m.SettlementRecord.group_id == group_id,
            m.SettlementRecord.night_id == night_id,
            m.SettlementRecord.voided_at.is_(None),
        )
        .order_by(m.SettlementRecord.id.desc())
        .limit(1)
    )


def stored(tx: Tx, record: m.SettlementRecord) -> Settlement:
    """A stored settlement as every view shows it (names as the ledger shows them now)."""
    kinds = dict(tx.execute(sa.select(m.Member.id, m.Member.kind).where(m.Member.group_id == record.group_id)).all())
    by_id = names(tx, record.group_id)

    def payment(payer: int, payee: int, amount: int) -> Payment:
        return Payment(payer, by_id.get(payer, "?"), payee, by_id.get(payee, "?"), amount)

    lines = sorted((int(id_), int(amount)) for id_, amount in (record.balances or {}).items())
    return Settlement(
        payments=tuple(payment(int(p["payer_id"]), int(p["payee_id"]), int(p["amount"])) for p in record.payments),
        balances=Balances(
            tuple(Balance(id_, by_id.get(id_, "?"), kinds.get(id_, m.MEMBER), amount) for id_, amount in lines)
        ),
        exact=record.exact,
        carried=tuple(payment(int(d), int(c), int(a)) for d, c, a in record.carried or ()),
        id=record.id,
        passed=passed_lines(record.passed or (), by_id),
    )


def passed_lines(passed: Sequence[Sequence[int]], by_id: Mapping[int, str]) -> tuple[Passed, ...]:
    """A settlement's stored passes (`[x, y, 分, account]`) with the names the ledger shows now."""
    return tuple(
        Passed(int(x), by_id.get(int(x), "?"), int(y), by_id.get(int(y), "?"), int(a), int(p), by_id.get(int(p), "?"))
        for x, y, a, p in passed
    )
