"""明细: where a night's money comes from, pair by pair.

The settlement (`ledger.settlement`) squares each account's net with the fewest payments, which hides who won
what from whom. This module keeps that other view: every live transfer of the night summed per pair of accounts
(the unsimplified view: "b → a 3元" means b's transfers to a, less a's to b, came to 3元), with the hands, kongs,
fines and fees that make up each pair's net. Pure reading; nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from ledger import models as m
from ledger.accounts import names
from ledger.errors import LedgerError
from ledger.unit import Tx


@dataclass(frozen=True)
class DetailItem:
    """One transfer between the pair, signed toward the pair's creditor (negative: it went the other way)."""

    transfer_id: int
    hand_number: int | None  # the hand's number at its table (None for a fine, a fee, a payout)
    reason: str
    kind: str
    amount: int


@dataclass(frozen=True)
class PairDetail:
    """What `debtor` owes `creditor` for the night (`net` ≥ 0; 0 when their transfers cancel out), and the
    transfers between them, oldest first."""

    debtor_id: int
    debtor: str
    creditor_id: int
    creditor: str
    net: int
    items: tuple[DetailItem, ...]

    def involves(self, member_id: int) -> bool:
        return member_id in (self.debtor_id, self.creditor_id)


@dataclass(frozen=True)
class NightDetails:
    """Every pair of accounts that moved money in the night, largest net first (those that cancel out last)."""

    night_id: int
    night_date: str
    pairs: tuple[PairDetail, ...]

    def of(self, member_id: int) -> tuple[PairDetail, ...]:
        return tuple(pair for pair in self.pairs if pair.involves(member_id))


_NIGHT_TRANSFERS = (
    sa.select(
        m.Transfer.id, m.Transfer.payer_id, m.Transfer.payee_id, m.Transfer.amount, m.Transfer.reason, m.Transfer.kind,
        m.Hand.number,
    )
    .outerjoin(m.Hand, m.Hand.id == m.Transfer.hand_id)
    .where(m.Transfer.night_id == sa.bindparam("night_id"), m.Transfer.voided_at.is_(None))
    .order_by(m.Transfer.id)
)  # fmt: skip


def night_details(tx: Tx, group_id: int, night_id: int) -> NightDetails:
    """The unsimplified view of one of the group's nights: each pair's net and the live transfers behind it."""
    night = tx.session.get(m.Night, night_id)
    if night is None or night.group_id != group_id:
        raise LedgerError("not_found", f"找不到这一晚（{night_id}）")
    by_pair: dict[tuple[int, int], list[tuple[int, int | None, str, str, int]]] = {}
    for id_, payer, payee, amount, reason, kind, number in tx.execute(_NIGHT_TRANSFERS, {"night_id": night_id}):
        low, high = min(payer, payee), max(payer, payee)
        signed = amount if payer == low else -amount  # positive: low paid high
        by_pair.setdefault((low, high), []).append((id_, number, reason, kind, signed))
    shown = names(tx, night.group_id)
    pairs = []
    for (low, high), rows in by_pair.items():
        net = sum(row[4] for row in rows)
        debtor, creditor, sign = (low, high, 1) if net > 0 else (high, low, -1)
        items = tuple(
            DetailItem(id_, number, reason, kind, sign * signed) for id_, number, reason, kind, signed in rows
        )
        pairs.append(PairDetail(debtor, shown[debtor], creditor, shown[creditor], abs(net), items))
    pairs.sort(key=lambda p: (-p.net, p.debtor, p.creditor))
    return NightDetails(night_id, night.night_date.isoformat(), tuple(pairs))


def latest_night(tx: Tx, group_id: int) -> int | None:
    """The group's open night, else the one that started last (None before the first)."""
    return tx.session.scalar(
        sa.select(m.Night.id)
        .where(m.Night.group_id == group_id)
        .order_by(m.Night.ended_at.is_not(None), m.Night.started_at.desc(), m.Night.id.desc())
        .limit(1)
    )
