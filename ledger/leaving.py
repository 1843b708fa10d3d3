"""Leaving a table one never agreed to (`不玩`): anyone may open a table seating others, so a member seated by
someone else may void it while they have taken no part in it — the table ends and every hand booked at it is
voided, its money back — and an admin may always. Voided, never deleted: who, when and why stay on each record."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

import sqlalchemy as sa

from ledger import flows, tables, transfers
from ledger import models as m
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
    movement = transfers.Movement()
    booked = _booked(tx, table_id)
    for hand_id, live, _ in booked:
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
    hands, amount = _counted(booked)
    seats = list(tx.session.scalars(sa.select(m.Seat.member_id).where(m.Seat.table_id == table_id)))
    transfers.apply(tx, movement, night_id=table.night_id, members=seats)
    tables.end(tx, table)
    return TableLeft(table_id, _opener(tx, table), seat, hands, amount)


def _opener(tx: Tx, table: m.GameTable) -> int | None:
    """The account of whoever opened the table."""
    return tx.session.scalar(
        sa.select(m.Member.id).where(m.Member.group_id == table.group_id, m.Member.user_id == table.started_by)
    )


def _booked(tx: Tx, table_id: int) -> list[tuple[int, list[transfers.Live], bool]]:
    """The table's hands a void would take back: each live hand, its live transfers and whether it holds anything."""
    hands = tx.session.scalars(sa.select(m.Hand.id).where(m.Hand.table_id == table_id, m.Hand.status != m.VOIDED))
    found = []
    for hand_id in list(hands):
        live = transfers.live_of_hand(tx, hand_id)
        events = tx.session.scalar(
            sa.select(sa.func.count())
            .select_from(m.HandEvent)
            .where(m.HandEvent.hand_id == hand_id, m.HandEvent.voided_at.is_(None))
        )
        found.append((hand_id, live, bool(live) or bool(events)))
    return found


def _counted(booked: list[tuple[int, list[transfers.Live], bool]]) -> tuple[int, int]:
    """(hands holding a record, the money they moved: 分, the winners' side)."""
    return sum(holds for _, _, holds in booked), sum(t.amount for _, live, _ in booked for t in live)


def void_preview(tx: Tx, table_id: int) -> TableLeft:
    """What voiding the table would take back, writing nothing (`seat` None)."""
    hands, amount = _counted(_booked(tx, table_id))
    return TableLeft(table_id, _opener(tx, tables.get_table(tx.session, table_id)), None, hands, amount)


@dataclass(frozen=True)
class VoidedTable:
    """A table a void ended (`leave_table`), still restorable: its id, who voided it, the hands it took back."""

    table_id: int
    opened_by: int | None
    voided_by: int | None
    hands: int
    amount: int
    questions: int = 0  # restored: the questions waiting at the table when the void ended it, open again


#: the reason `tables.end` voids the empty hand in progress with: a table that ended so was not voided
_EMPTY_HAND = "空局"


def voided_table(tx: Tx, chat_id: int) -> VoidedTable | None:
    """The group's table a void ended, while it can be restored exactly: it is the group's latest table, no table
    is open and its night is not settled. None otherwise (the latest table ended by 结算 or 开桌 over it)."""
    group = tx.session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    if group is None:
        return None
    table = tx.session.scalar(
        sa.select(m.GameTable).where(m.GameTable.group_id == group.id).order_by(m.GameTable.id.desc()).limit(1)
    )
    if table is None or table.ended_at is None:
        return None
    night = tx.session.get(m.Night, table.night_id)
    if night is None or night.ended_at is not None:
        return None
    voided = _voided_hands(tx, table)
    if not voided:
        return None
    moved = _voided_transfers(tx, table)
    held = sa.select(sa.func.count(sa.distinct(m.HandEvent.hand_id))).where(
        m.HandEvent.hand_id.in_([hand.id for hand in voided]), m.HandEvent.voided_at == table.ended_at
    )
    hands = tx.session.scalar(held) or 0
    return VoidedTable(table.id, _opener(tx, table), table.ended_by, hands, sum(t.amount for t in moved))


def _voided_hands(tx: Tx, table: m.GameTable) -> list[m.Hand]:
    """The hands the void that ended `table` took back: voided at its end, not as the empty hand in progress."""
    return list(
        tx.session.scalars(
            sa.select(m.Hand)
            .where(
                m.Hand.table_id == table.id,
                m.Hand.status == m.VOIDED,
                m.Hand.voided_at == table.ended_at,
                m.Hand.void_reason != _EMPTY_HAND,
            )
            .order_by(m.Hand.number)
        )
    )


def _voided_transfers(tx: Tx, table: m.GameTable) -> list[m.Transfer]:
    return list(
        tx.session.scalars(
            sa.select(m.Transfer).where(m.Transfer.table_id == table.id, m.Transfer.voided_at == table.ended_at)
        )
    )


def restore_table(tx: Tx, chat_id: int, user_id: int, *, admin: bool) -> VoidedTable:
    """Undo a table's void (`voided_table`): the table open again, every hand, record and transfer the void took
    back live again, the running totals moved back, the questions its end finished waiting again — exactly as
    before the void. Only an admin or whoever voided it; refused (`nothing_voided`, `not_voider`) otherwise."""
    found = voided_table(tx, chat_id)
    if found is None:
        raise LedgerError("nothing_voided", "没有可以恢复的作废牌桌")
    if not admin and found.voided_by != user_id:
        raise LedgerError("not_voider", "只有作废的人或管理员能恢复")
    table = tables.lock_table(tx.session, found.table_id)
    at = table.ended_at
    movement = transfers.Movement()
    for transfer in _voided_transfers(tx, table):
        movement.move(transfer.payer_id, transfer.payee_id, transfer.amount, transfer.night_id)
        transfer.voided_at, transfer.voided_by, transfer.void_reason = None, None, None
    for hand in _voided_hands(tx, table):
        tx.execute(
            sa.update(m.HandEvent)
            .where(m.HandEvent.hand_id == hand.id, m.HandEvent.voided_at == at)
            .values(voided_at=None, voided_by=None, void_reason=None)
        )
        hand.status = m.CLOSED if hand.closed_at is not None else m.OPEN
        hand.voided_at, hand.voided_by, hand.void_reason = None, None, None
    table.ended_at, table.ended_by = None, None
    tx.session.flush()
    seats = list(tx.session.scalars(sa.select(m.Seat.member_id).where(m.Seat.table_id == table.id)))
    transfers.apply(tx, movement, night_id=table.night_id, members=seats)
    assert at is not None  # `voided_table` found it ended
    questions = flows.reopen_with_table(tx, chat_id, table.id, at)
    return replace(found, questions=questions)
