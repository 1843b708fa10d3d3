"""历史: a group's last finished hands with their events, patterns and payments.

Read in a fixed number of queries whatever the length of the group's history: the hands (newest first, through
the group's hand index), then for those hands only their live events, their transfers, the hands that replaced
them (through the index on `hands.replaces_id`) and the group's names.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import models as m
from ledger.accounts import group_by_chat, names
from ledger.records import HandRecord
from ledger.transfers import info as transfer_info


def hand_history(session: Session, chat_id: int, limit: int, *, include_voided: bool = False) -> list[HandRecord]:
    """The last `limit` finished hands of the chat's group, newest first (with voided ones when asked)."""
    group = group_by_chat(session, chat_id)
    statuses = [m.CLOSED, m.VOIDED] if include_voided else [m.CLOSED]
    latest = (
        sa.select(m.Hand.id)
        .where(m.Hand.group_id == group.id, m.Hand.status.in_(statuses))
        .order_by(m.Hand.id.desc())
        .limit(limit)
    )
    hands = session.scalars(sa.select(m.Hand).where(m.Hand.id.in_(latest)).order_by(m.Hand.id.desc())).all()
    if not hands:
        return []
    events: dict[int, list[m.HandEvent]] = defaultdict(list)
    for event in session.scalars(
        sa.select(m.HandEvent)
        .where(m.HandEvent.hand_id.in_(latest), m.HandEvent.voided_at.is_(None))
        .order_by(m.HandEvent.id)
    ):
        events[event.hand_id].append(event)
    transfers: dict[int | None, list[m.Transfer]] = defaultdict(list)
    for transfer in session.scalars(
        sa.select(m.Transfer).where(m.Transfer.hand_id.in_(latest)).order_by(m.Transfer.id)
    ):
        transfers[transfer.hand_id].append(transfer)
    replaced_by = {
        replaces: hand_id
        for replaces, hand_id in session.execute(
            sa.select(m.Hand.replaces_id, m.Hand.id).where(m.Hand.replaces_id.in_(latest))
        )
    }
    by_id = names(session, group.id)
    return [_record(hand, events[hand.id], transfers[hand.id], replaced_by.get(hand.id), by_id) for hand in hands]


def _record(
    hand: m.Hand,
    events: Sequence[m.HandEvent],
    transfers: Iterable[m.Transfer],
    replaced_by: int | None,
    names: dict[int, str],
) -> HandRecord:
    index_of = {event.id: index for index, event in enumerate(events)}
    if hand.status == m.VOIDED:  # the money the hand stood for when it was voided
        money = [t for t in transfers if t.voided_at is not None and t.voided_at == hand.voided_at]
    else:
        money = [t for t in transfers if t.voided_at is None]
    return HandRecord(
        hand_id=hand.id,
        table_id=hand.table_id,
        number=hand.number,
        dealer=hand.dealer,
        events=tuple(event.payload for event in events),
        patterns=tuple((hand.answer or {}).get("hands", [])),
        transfers=tuple(transfer_info(t, names, index_of) for t in money),
        status=hand.status,
        replaces=hand.replaces_id,
        replaced_by=replaced_by,
        created_at=hand.created_at,
        voided_at=hand.voided_at,
        void_reason=hand.void_reason,
    )
