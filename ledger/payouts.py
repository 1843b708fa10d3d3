"""撤销发红包池 / 撤销付台费: an admin takes back the group's latest payout of the pot or the house, whole, as long
as nothing was built on it (`payout_to_undo` says what was, and refuses).

A payout booked during a night is that night's money: while the night is open, voiding its transfers is all it
takes (the night's 结算 has not seen it); once the night is settled, its settlement holds it and is taken back
first (撤销结算). A payout booked between nights was settled at once (`money.settle_at_once`): its settlement made
the pool owe the members paid and passed the debts owed to the pool on to them (x owes y instead of the pot), so
taking it back also moves those debts back and voids that settlement, in the same transaction. That is refused
once something used those debts: a payment between two of the people it concerns, a later night's 结算 (which may
have netted them in), or a later payout of the other account between nights (its passes may run through both
accounts). A fine between nights (or its pardon) settled since is no dependency: after a payout between nights
the pool owes nobody (what is owed to it is what it holds, and a payout takes at most that), so nothing passed
through it since reached those paid.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from ledger import models as m
from ledger import transfers
from ledger.accounts import group_by_chat, lock_group, names
from ledger.errors import LedgerError
from ledger.payments import homes
from ledger.records import PayoutInfo
from ledger.tables import refuse_if_paid_since, reverse_debts
from ledger.unit import Tx

#: a pool's payout command, the command that takes it back, and the payout's English name
COMMANDS = {m.POT: ("发红包池", "撤销发红包池", "pot payout"), m.HOUSE: ("付台费", "撤销付台费", "house payout")}


def payout_to_undo(tx: Tx, group_id: int, pool: str) -> tuple[list[transfers.Live], m.SettlementRecord | None]:
    """The group's latest live payout of `pool` (its transfers: one source booked them) and the settlement it was
    settled at once with (None: booked during a night), when it can be taken back; refused with the reason when
    there is none or something depends on it."""
    command, undo, english = COMMANDS[pool]
    pool_id = tx.session.scalar(sa.select(m.Member.id).where(m.Member.group_id == group_id, m.Member.kind == pool))
    live_payouts = sa.and_(m.Transfer.payer_id == pool_id, m.Transfer.kind == m.PAYOUT, m.Transfer.voided_at.is_(None))
    source = tx.session.scalar(sa.select(m.Transfer.source).where(live_payouts).order_by(m.Transfer.id.desc()).limit(1))
    if pool_id is None or source is None:
        raise LedgerError("no_payout", f"还没有可以撤销的{command}", f"there is no {english} to take back")
    rows = [
        transfers.live(row)
        for row in tx.execute(
            sa.select(*transfers.LIVE_COLUMNS).where(live_payouts, m.Transfer.source == source).order_by(m.Transfer.id)
        )
    ]
    first = rows[0]
    if first.night_id is not None:
        settled = tx.session.scalar(
            sa.select(m.SettlementRecord.id).where(
                m.SettlementRecord.night_id == first.night_id, m.SettlementRecord.voided_at.is_(None)
            )
        )
        if settled is not None:
            raise LedgerError(
                "payout_settled",
                f"这次{command}记在已经结算的那一晚，结算过的账不再改动：先撤销结算（撤销结算），再{undo}",
                f"it belongs to a night already settled: take the settlement back first (撤销结算), then {undo}",
            )
        return rows, None
    home = homes(tx, group_id)  # a guest paid and linked since: its transfers are its member's, its lines not

    def paid(payer: int, payee: int, amount: int) -> tuple[int, int, int]:
        return home.get(payer, payer), home.get(payee, payee), amount

    lines = sorted(paid(row.payer_id, row.payee_id, row.amount) for row in rows)
    record = next(  # its own settlement: booked in its transaction (one moment), its lines the payout's
        (
            found
            for found in tx.session.scalars(
                sa.select(m.SettlementRecord)
                .where(
                    m.SettlementRecord.group_id == group_id,
                    m.SettlementRecord.night_id.is_(None),
                    m.SettlementRecord.created_at == first.created_at,
                    m.SettlementRecord.voided_at.is_(None),
                )
                .order_by(m.SettlementRecord.id.desc())
            )
            if sorted(paid(int(p["payer_id"]), int(p["payee_id"]), int(p["amount"])) for p in found.payments) == lines
        ),
        None,
    )
    assert record is not None, "a payout between nights is settled at once, in its own transaction"
    _refuse_if_built_on(tx, group_id, pool, record, rows)
    refuse_if_paid_since(tx, group_id, record, command, undo)
    return rows, record


def _refuse_if_built_on(
    tx: Tx, group_id: int, pool: str, record: m.SettlementRecord, rows: Sequence[transfers.Live]
) -> None:
    """Refused when a later night was settled (its 结算 may have netted in the debts the payout passed on) or the
    other account was paid out between nights since (passes may run through both accounts)."""
    command, undo, english = COMMANDS[pool]
    later_night = tx.session.scalar(
        sa.select(m.SettlementRecord.id).where(
            m.SettlementRecord.group_id == group_id,
            m.SettlementRecord.id > record.id,
            m.SettlementRecord.night_id.is_not(None),
            m.SettlementRecord.voided_at.is_(None),
        )
    )
    if later_night is not None:
        raise LedgerError(
            "settled_since",
            f"{command}之后又结算过一晚（转给领钱人的欠款可能已经并进那晚的账），这次{command}不能再撤销",
            f"a night has been settled since, which may have netted in what the {english} passed on",
        )
    other = m.HOUSE if pool == m.POT else m.POT
    other_paid = tx.session.scalar(
        sa.select(m.Transfer.id)
        .join(m.Member, m.Member.id == m.Transfer.payer_id)
        .where(
            m.Transfer.group_id == group_id,
            m.Transfer.kind == m.PAYOUT,
            m.Transfer.night_id.is_(None),
            m.Transfer.voided_at.is_(None),
            m.Transfer.id > rows[-1].id,
            m.Member.kind == other,
        )
        .limit(1)
    )
    if other_paid is not None:
        other_command, other_undo, other_english = COMMANDS[other]
        raise LedgerError(
            "paid_out_since",
            f"{command}之后又{other_command}过：先撤销那一笔（{other_undo}），再{undo}",
            f"there was a {other_english} since: take it back first ({other_undo}), then this one",
        )


def undo_payout(tx: Tx, chat_id: int, pool: str, expect: int | None = None) -> PayoutInfo:
    """Take back the group's latest payout of `pool` whole (`payout_to_undo`; `expect`: the first transfer id of
    the payout a question showed, refused if another is the latest now): its transfers voided (the money back in
    the account, the members' balances and the night's totals as before it) and, for one settled at once, the
    debts its settlement moved moved back and the settlement voided (its payment buttons expire)."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    rows, record = payout_to_undo(tx, group.id, pool)
    if expect is not None and rows[0].id != expect:
        command = COMMANDS[pool][0]
        raise LedgerError(
            "payout_changed",
            f"要撤销的{command}已经不是最近的那次了，没有撤销",
            "the payout asked about is no longer the latest: nothing was taken back",
        )
    why = COMMANDS[pool][1]  # the void reason of its transfers and its settlement
    if record is not None:
        reverse_debts(tx, group.id, record)
        record.voided_at, record.voided_by, record.void_reason = tx.now, tx.by, why
    movement = transfers.Movement()
    transfers.void(tx, rows, why, movement)
    transfers.apply(tx, movement)
    session.flush()
    return _info(tx, group.id, pool, rows, record is not None, voided=True)


def payout(tx: Tx, chat_id: int, pool: str) -> PayoutInfo:
    """The payout 撤销发红包池 / 撤销付台费 would take back now (refused with the reason when it cannot)."""
    group = group_by_chat(tx.session, chat_id)
    rows, record = payout_to_undo(tx, group.id, pool)
    return _info(tx, group.id, pool, rows, record is not None, voided=False)


def _info(
    tx: Tx, group_id: int, pool: str, rows: Sequence[transfers.Live], at_once: bool, *, voided: bool
) -> PayoutInfo:
    held = tx.session.scalar(sa.select(m.Member.balance).where(m.Member.group_id == group_id, m.Member.kind == pool))
    by_id = names(tx, group_id)
    return PayoutInfo(
        pool=pool,
        transfers=tuple(transfers.info(row, by_id, voided=voided) for row in rows),
        settled_at_once=at_once,
        held=int(held or 0),
    )
