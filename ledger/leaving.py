"""Leaving a table one never agreed to (`不玩`): anyone may open a table seating others, so a member seated by
someone else may void it while they have taken no part in it — the table ends and every hand booked at it is
voided, its money back — and an admin may always. Voided, never deleted: who, when and why stay on each record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import sqlalchemy as sa

from ledger import models as m
from ledger import tables, transfers
from ledger.errors import LedgerError
from ledger.unit import Tx


@dataclass(frozen=True)
class TableLeft:
    """The table a member left: who opened it (their account), who left (their seat name), and the hands voided
    with it."""

    table_id: int
    opened_by: int | None
    seat: str | None
    hands: int
    amount: int  # the money the voided hands had moved (分, the winners' side)


#: how long after 开桌 a member seated by someone else may still say they never agreed: past it they sat through the
#: hands (a loser who took no part could otherwise void a whole night's winnings); an admin may void it any time
LEAVE_WITHIN = timedelta(minutes=30)


def took_part(tx: Tx, table_id: int, user_id: int) -> bool:
    """Whether `user_id` opened the table, recorded or took back anything at it, or won money at it (a win of theirs,
    whoever recorded it, is a hand they played)."""
    opened = tx.session.scalar(sa.select(m.GameTable.started_by).where(m.GameTable.id == table_id))
    if opened == user_id:
        return True
    won = (
        sa.select(sa.func.count())
        .select_from(m.Transfer)
        .join(m.Member, m.Member.id == m.Transfer.payee_id)
        .where(m.Transfer.table_id == table_id, m.Member.user_id == user_id, m.Transfer.voided_at.is_(None))
    )
    if tx.session.scalar(won):
        return True
    acted = (
        sa.select(sa.func.count())
        .select_from(m.HandEvent)
        .join(m.Hand, m.Hand.id == m.HandEvent.hand_id)
        .where(
            m.Hand.table_id == table_id,
            sa.or_(m.HandEvent.created_by == user_id, m.HandEvent.voided_by == user_id, m.Hand.voided_by == user_id),
        )
    )
    return bool(tx.session.scalar(acted))


@dataclass(frozen=True)
class Agreer:
    """A seated member whose word a member's 退桌 needs: their account and seat name."""

    user_id: int
    seat: str


def agreers(tx: Tx, table_id: int, leaver: int) -> list[Agreer]:
    """Who must agree before a member's 退桌 voids the table (`leave_table`'s `agreed_by`): nobody while no money has
    moved at it (nothing to lose); else the seated players up at it — the winnings the void would wipe are theirs
    to give up — or, when none of them has an account (a guest won, or only the house took money), every other
    seated member. Seat order."""
    moved = sa.select(m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount).where(
        m.Transfer.table_id == table_id, m.Transfer.voided_at.is_(None)
    )
    net: dict[int, int] = {}
    for payer, payee, amount in tx.session.execute(moved):
        net[payer] = net.get(payer, 0) - amount
        net[payee] = net.get(payee, 0) + amount
    if not net:
        return []
    seated = tx.session.execute(
        sa.select(m.Seat.member_id, m.Member.user_id, m.Seat.name)
        .join(m.Member, m.Member.id == m.Seat.member_id)
        .where(m.Seat.table_id == table_id)
        .order_by(m.Seat.position)
    ).all()
    others = [(member, Agreer(user, seat)) for member, user, seat in seated if user is not None and user != leaver]
    up = [agreer for member, agreer in others if net.get(member, 0) > 0]
    return up or [agreer for _, agreer in others]


def leave_table(
    tx: Tx, table_id: int, user_id: int, *, admin: bool, reason: str, agreed_by: int | None = None
) -> TableLeft:
    """End the table and void every hand booked at it, for a seated member who took no part in it (`took_part`)
    — once money has moved at it, with the word of one of `agreers` (`agreed_by`) — or for an admin. Refused
    (`not_seated`, `took_part`, `too_late`, `needs_agreement`) otherwise. The others' word stands for the half hour:
    a question asked in time may be agreed to after it."""
    table = tables.lock_table(tx.session, table_id)
    if table.ended_at is not None:
        raise LedgerError("table_ended", "这一桌已经结束")
    seat = tx.session.scalar(
        sa.select(m.Seat.name)
        .join(m.Member, m.Member.id == m.Seat.member_id)
        .where(m.Seat.table_id == table_id, m.Member.user_id == user_id)
    )
    if not admin:
        if seat is None:
            raise LedgerError("not_seated", "你不在这一桌上")
        if took_part(tx, table_id, user_id):
            raise LedgerError("took_part", "你已经在这一桌记过牌，不能退桌作废")
        if agreed_by is None and tx.now - table.started_at.replace(tzinfo=tx.now.tzinfo) > LEAVE_WITHIN:
            raise LedgerError("too_late", "开桌超过 30 分钟了，不能自己退桌作废")
        needed = agreers(tx, table_id, user_id)
        if needed and agreed_by not in {agreer.user_id for agreer in needed}:
            raise LedgerError("needs_agreement", "这桌已经记了账，要桌上赢钱的人同意才能作废")
    hands = list(tx.session.execute(sa.select(m.Hand.id).where(m.Hand.table_id == table_id, m.Hand.status != m.VOIDED)))
    movement = transfers.Movement()
    amount, booked = 0, 0
    for (hand_id,) in hands:
        live = transfers.live_of_hand(tx, hand_id)
        amount += sum(t.amount for t in live)
        booked += bool(live) or bool(
            tx.session.scalar(
                sa.select(sa.func.count())
                .select_from(m.HandEvent)
                .where(m.HandEvent.hand_id == hand_id, m.HandEvent.voided_at.is_(None))
            )
        )
        transfers.void(tx, live, reason, movement)
        tx.execute(
            sa.update(m.HandEvent)
            .where(m.HandEvent.hand_id == hand_id, m.HandEvent.voided_at.is_(None))
            .values(voided_at=tx.now, voided_by=tx.by, void_reason=reason[:500])
        )
        tx.execute(
            sa.update(m.Hand)
            .where(m.Hand.id == hand_id)
            .values(status=m.VOIDED, voided_at=tx.now, voided_by=tx.by, void_reason=reason[:500])
        )
    seats = list(tx.session.scalars(sa.select(m.Seat.member_id).where(m.Seat.table_id == table_id)))
    transfers.apply(tx, movement, night_id=table.night_id, members=seats)
    tables.end(tx, table)
    opener = tx.session.scalar(
        sa.select(m.Member.id).where(m.Member.group_id == table.group_id, m.Member.user_id == table.started_by)
    )
    return TableLeft(table_id, opener, seat, booked, amount)
