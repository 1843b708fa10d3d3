"""历史: a group's last finished hands with their events, patterns and payments.

Read in a fixed number of queries whatever the length of the group's history: the hands (newest played first,
through the group's index of its hands by table and number), then for those hands only their live events, their
transfers, the hands that replaced them (through the index on `hands.replaces_id`), their tables' nights and the
group's names.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

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
        .order_by(*PLAYED_NEWEST_FIRST)
        .limit(limit)
    )
    return _records(session, group.id, latest)


#: hands newest first in the order they were played: by table, then number — a hand edited later (re-recorded
#: with a new id, `replaces`) keeps its place — then id (an edit's voided hand after the hand that replaced it).
#: The group's index on (group_id, table_id, number, id) walks it and stops at the limit (0018).
PLAYED_NEWEST_FIRST = (m.Hand.table_id.desc(), m.Hand.number.desc(), m.Hand.id.desc())


def numbered_hand(session: Session, chat_id: int, number: int) -> HandRecord | None:
    """Finished hand `number` (第3局) of the group's latest table — the open one, or the one that ended last — as
    `hand_history` reads it; None when that table has no such hand (not played yet, or taken back)."""
    group = group_by_chat(session, chat_id)
    latest_table = sa.select(sa.func.max(m.GameTable.id)).where(m.GameTable.group_id == group.id).scalar_subquery()
    hand = sa.select(m.Hand.id).where(
        m.Hand.table_id == latest_table, m.Hand.number == number, m.Hand.status == m.CLOSED
    )
    found = _records(session, group.id, hand)
    return found[0] if found else None


def _records(session: Session, group_id: int, latest: sa.Select[int]) -> list[HandRecord]:
    """The hands `latest` selects (ids of one group's hands), newest played first, each with what 历史 shows."""
    hands = session.scalars(sa.select(m.Hand).where(m.Hand.id.in_(latest)).order_by(*PLAYED_NEWEST_FIRST)).all()
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
    by_id = names(session, group_id)
    nights = {
        table_id: (night_id, night_date)
        for table_id, night_id, night_date in session.execute(
            sa.select(m.GameTable.id, m.Night.id, m.Night.night_date)
            .join(m.Night, m.Night.id == m.GameTable.night_id)
            .where(m.GameTable.id.in_({hand.table_id for hand in hands}))
        )
    }
    numbers: dict[int, int] = {}
    if len({night_id for night_id, _ in nights.values()}) > 1:  # a list across nights names each (第N晚)
        for night_id, _ in set(nights.values()):
            numbers[night_id] = int(
                session.scalar(
                    sa.select(sa.func.count(m.Night.id)).where(m.Night.group_id == group_id, m.Night.id <= night_id)
                )
                or 0
            )
    records = []
    for hand in hands:
        record = _record(hand, events[hand.id], transfers[hand.id], replaced_by.get(hand.id), by_id)
        night_id, night_date = nights[hand.table_id]
        records.append(replace(record, night_id=night_id, night_date=night_date, night_number=numbers.get(night_id)))
    return records


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
