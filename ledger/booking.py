"""Hands: where a hand's money is decided and booked.

A table's open hand takes events as they happen. Each booking locks the table, reads the hand so far (its live
events with their live transfers) in one query, scores all of it with the scoring core (`partial` until an ending
event), and makes the hand's live transfers match the answer event by event: an event whose money is unchanged
keeps its transfers, one whose money changed (a robbed kong pays nothing) has them voided and booked anew. An
ending event closes the hand and moves the dealer and hand number. Undo, void and edit go through the same
comparison, so a correction can never leave money the answer does not owe.

The 日切 hour: the first event of a hand recorded after the cut-off of the night its table plays in closes that
night (its settlement stored, as 结算 does) and moves the table's players to a new table in tonight's night, with
the same seats, rules snapshot and 底金, the dealer the last hand left, and hands numbered from 1 again. A hand
already in progress at the cut-off finishes in its own night — and so does one whose record waits, told before or
after the cut-off (a win waiting for its 漂/马, a 胡 told by taps waiting for its 确认: `flows.holds_hand`): the hand
was played at that table, so its record, once answered, books there, and the night rolls over at the next hand's
first record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import aliased

from ledger import fees, flows, transfers
from ledger import models as m
from ledger.accounts import lock_group, names
from ledger.chat_options import ChatOptions, double_entry_window
from ledger.errors import DuplicateRecord, LedgerError, ScoringRefused
from ledger.events import (
    PENGHU_PLAYS,
    Event,
    Kong,
    PenghuPlay,
    ends_hand,
    includes_paoqi,
    payloads,
    repeats,
    retells,
    retells_round,
    widens,
)
from ledger.hands import (
    build_request,
    is_terminal,
    liangdao,
    misplaced_terminal,
    next_dealer,
    owed_by_event,
    refuse_seven_pairs_after_kong,
    refuse_unbookable,
)
from ledger.money import night_totals
from ledger.records import (
    HandResult,
    HandState,
    NightInfo,
    NightTotal,
    Payload,
    Seat,
    TableRecord,
    VoidedHand,
    VoidResult,
)
from ledger.scoring import ScoringError
from ledger.scoring import answer as scored
from ledger.tables import close_night, night_date, night_info, seat_table
from ledger.unit import SOURCE_BOOKED, Tx

#: void reason when a later event (or an undo) changes an earlier event's money
RECOMPUTED = "重算：后续事件改变了这笔款项"


@dataclass
class _Table:
    """A table as a booking sees it, locked for the transaction: snapshot, seats, and what 日切 needs."""

    id: int
    group_id: int
    night_id: int
    game: str
    rules: dict[str, Any]
    base: int
    dealer: str | None
    hand_number: int
    ended: bool
    night_date: date
    night_closed: bool  # the night was settled (结算 or 日切): nothing of it changes any more
    double_entry: timedelta  # the group's double-entry window (0: no check)
    cutoff_hour: int
    timezone: str
    seats: tuple[Seat, ...]
    names: dict[int, str]  # member id -> seat name: how replies name a player while the table is open (`names`)
    cut: fees.Fees = field(default_factory=fees.Fees)  # the group's 抽水, read with the table (no fees: nothing)
    #: the latest finished hand, when the table was read with it (`previous_read`) and the open hand has no live
    #: events: what the double-entry check and 撤销 look at then (None: no finished hand has live events)
    previous: _Finished | None = None
    previous_read: bool = False

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]


@dataclass
class _Event:
    id: int
    payload: Payload
    source: str
    transfers: list[transfers.Live] = field(default_factory=list)
    created_by: int | None = None
    created_at: datetime | None = None


#: an event to write: (payload, source, when it was told, who told it) — an edit's rebooked hand keeps each
#: record's own recorder and time, the edited record's recorder too (`replace`)
_Told = tuple[Payload, str, datetime, int | None]


@dataclass
class _Hand:
    id: int
    number: int
    dealer: str | None
    events: list[_Event]


@dataclass(frozen=True)
class _Finished:
    """A finished hand with its live events, in order."""

    id: int
    number: int
    events: list[_Event]


_OPEN_HAND_COLUMNS = (
    m.Hand.id.label("hand_id"),
    m.Hand.number.label("hand_number_open"),
    m.Hand.dealer.label("hand_dealer"),
    m.HandEvent.id.label("event_id"),
    m.HandEvent.payload,
    m.HandEvent.source,
    m.HandEvent.created_by.label("event_by"),
    m.HandEvent.created_at.label("event_at"),
    *(column.label(f"tr_{column.key}") for column in transfers.LIVE_COLUMNS),
)


def _with_open_hand(query: sa.Select[Any], table_id: Any) -> sa.Select[Any]:
    """`query` joined to the table's open hand, its live events and each event's live transfers (outer joins:
    no hand, no events, an event without money each still give their row)."""
    return (
        query.outerjoin(m.Hand, sa.and_(m.Hand.table_id == table_id, m.Hand.status == m.OPEN))
        .outerjoin(m.HandEvent, sa.and_(m.HandEvent.hand_id == m.Hand.id, m.HandEvent.voided_at.is_(None)))
        .outerjoin(m.Transfer, sa.and_(m.Transfer.event_id == m.HandEvent.id, m.Transfer.voided_at.is_(None)))
    )


def _of_table(column: Any, key: Any, label: str) -> Any:
    """`column` of the one row whose `key` matches the table (its night, its group's settings) as a scalar
    subquery: PostgreSQL plans a join of ten tables in about 1.4 ms at every booking, and the same read with
    these four as subqueries in 0.35 ms (run in 0.09 ms instead of 0.29)."""
    return sa.select(column).where(key).correlate(m.GameTable).scalar_subquery().label(label)


def _of_group(column: Any, group_id: Any, label: str) -> Any:
    return _of_table(column, group_id == m.GameTable.group_id, label)


#: the table's latest finished hand (numbered before the table's next hand; scanned from the newest hand
#: backwards, so it costs the same at the 10,000th hand as at the first)
_PREVIOUS_HAND = (
    sa.select(m.Hand.id, m.Hand.number)
    .where(
        m.Hand.table_id == sa.bindparam("table_id"),
        m.Hand.status == m.CLOSED,
        m.Hand.number
        < sa.select(m.GameTable.hand_number).where(m.GameTable.id == sa.bindparam("table_id")).scalar_subquery(),
    )
    .order_by(m.Hand.number.desc(), m.Hand.id.desc())
    .limit(1)
    .subquery("previous_hand")
)
_PREVIOUS_EVENT = aliased(m.HandEvent, name="previous_event")


def _finished_columns(hand: Any, event: Any) -> tuple[Any, ...]:
    """A finished hand's id and number with one of its events, labelled as `_finished_of` reads them."""
    return (
        hand.id.label("finished_hand_id"),
        hand.number.label("finished_number"),
        event.id.label("finished_event_id"),
        event.payload.label("finished_payload"),
        event.source.label("finished_source"),
        event.created_by.label("finished_by"),
        event.created_at.label("finished_at"),
    )


def _with_previous_hand(query: sa.Select[Any]) -> sa.Select[Any]:
    """`query` (`_READ_TABLE`) joined, where the open hand has no live event, to the live events of the table's
    latest finished hand: the record the double-entry check compares with and 撤销 takes back then, read with the
    table instead of by a statement of its own (the hand found once, as a derived table, not per row)."""
    return (
        query.add_columns(*_finished_columns(_PREVIOUS_HAND.c, _PREVIOUS_EVENT))
        .outerjoin(_PREVIOUS_HAND, m.HandEvent.id.is_(None))
        .outerjoin(
            _PREVIOUS_EVENT,
            sa.and_(_PREVIOUS_EVENT.hand_id == _PREVIOUS_HAND.c.id, _PREVIOUS_EVENT.voided_at.is_(None)),
        )
        .order_by(_PREVIOUS_EVENT.id)
    )


#: what a booking reads, in one statement: the table (locked until the transaction ends: bookings of one table
#: take turns), the group's 日切, the seats with who sits there, whether the source was booked already, and the
#: open hand's live events with their live transfers (one row per seat × transfer; a hand holds a few events)
_READ_TABLE = (
    _with_open_hand(
        sa.select(
            m.GameTable.id,
            m.GameTable.group_id,
            m.GameTable.night_id,
            m.GameTable.game,
            m.GameTable.rules,
            m.GameTable.base,
            m.GameTable.dealer,
            m.GameTable.hand_number,
            m.GameTable.ended_at,
            _of_table(m.Night.night_date, m.Night.id == m.GameTable.night_id, "night_date"),
            _of_table(m.Night.ended_at, m.Night.id == m.GameTable.night_id, "night_ended_at"),
            _of_group(ChatOptions.double_entry_seconds, ChatOptions.group_id, "double_entry_seconds"),
            _of_group(m.FeeSettings.cut_fixed, m.FeeSettings.group_id, "cut_fixed"),
            _of_group(m.FeeSettings.cut_percent, m.FeeSettings.group_id, "cut_percent"),
            _of_group(m.FeeSettings.cut_cap, m.FeeSettings.group_id, "cut_cap"),
            _of_group(m.Group.cutoff_hour, m.Group.id, "cutoff_hour"),
            _of_group(m.Group.timezone, m.Group.id, "timezone"),
            m.Seat.position,
            m.Seat.name,
            m.Seat.member_id,
            m.Member.user_id,
            m.Member.username,
            SOURCE_BOOKED,
            *_OPEN_HAND_COLUMNS,
        )
        .join(m.Seat, m.Seat.table_id == m.GameTable.id)
        .join(m.Member, m.Member.id == m.Seat.member_id),
        m.GameTable.id,
    )
    .where(m.GameTable.id == sa.bindparam("table_id"))
    .order_by(m.Seat.position, m.HandEvent.id, m.Transfer.id)
)
#: `_READ_TABLE` by (locked, with the previous hand's record): a booking that is not checked for a double entry
#: does not pay for reading what it would be compared with
_TABLE_READS = {
    (locked, previous): read.with_for_update(of=m.GameTable) if locked else read
    for previous, read in ((False, _READ_TABLE), (True, _with_previous_hand(_READ_TABLE)))
    for locked in (False, True)
}

#: the open hand of a table with its live events, each with its live transfers (one row per transfer)
_OPEN_HAND = (
    _with_open_hand(sa.select(*_OPEN_HAND_COLUMNS).select_from(m.GameTable), m.GameTable.id)
    .where(m.GameTable.id == sa.bindparam("table_id"), m.Hand.id.is_not(None))
    .order_by(m.HandEvent.id, m.Transfer.id)
)

_INSERT_HAND = (
    sa.insert(m.Hand)
    .values(
        {
            column: sa.bindparam(f"h_{column}")
            for column in ("group_id", "table_id", "number", "dealer", "status", "answer", "created_at", "closed_at")
        }
        | {"replaces_id": sa.bindparam("h_replaces_id", None)}
    )
    .returning(m.Hand.id)
)
#: PostgreSQL: a finished hand inserted and its table moved on (dealer, next number) in one statement
_INSERT_FINISHED_HAND = _INSERT_HAND.add_cte(
    sa.update(m.GameTable)
    .where(m.GameTable.id == sa.bindparam("moving_table"))
    .values(dealer=sa.bindparam("next_dealer"), hand_number=sa.bindparam("next_number"))
    .cte("moved")
)


def _with_event(insert_hand: Any) -> Any:
    """PostgreSQL: `insert_hand` and the hand's first event in one statement; answers (hand id, event id)."""
    hand = insert_hand.cte("hand")
    event = sa.select(
        hand.c.id,
        *(sa.bindparam(f"e_{key}", type_=m.HandEvent.__table__.c[key].type) for key in _EVENT_KEYS),
    )
    return (
        postgresql.insert(m.HandEvent)
        .from_select(["hand_id", *_EVENT_KEYS], event)
        .returning(m.HandEvent.hand_id, m.HandEvent.id)
    )


_EVENT_KEYS = ("payload", "source", "created_at", "created_by")
#: PostgreSQL, a hand opened by one event: the hand and its event (and, when the event finishes the hand, the
#: table moved on) in one round trip — with the event's transfers and every running total in the same one when
#: they fit one statement (`transfers.in_one_statement`), by `moved`
_INSERT_HAND_WITH_EVENT = {False: _with_event(_INSERT_HAND), True: _with_event(_INSERT_FINISHED_HAND)}
_OPEN_AND_BOOK = {
    moved: transfers.insert_with_totals(insert.cte("opened")) for moved, insert in _INSERT_HAND_WITH_EVENT.items()
}
_UPDATE_HAND = (
    sa.update(m.Hand)
    .where(m.Hand.id == sa.bindparam("hand_id"))
    .values(answer=sa.bindparam("answer"), status=sa.bindparam("status"), closed_at=sa.bindparam("closed_at"))
)
_INSERT_EVENTS = sa.insert(m.HandEvent).returning(m.HandEvent.id, sort_by_parameter_order=True)
_VOID_EVENT = (
    sa.update(m.HandEvent)
    .where(m.HandEvent.id == sa.bindparam("event_id"))
    .values(voided_at=sa.bindparam("at"), voided_by=sa.bindparam("who"), void_reason=sa.bindparam("why"))
)
_VOID_HAND = (
    sa.update(m.Hand)
    .where(m.Hand.id == sa.bindparam("hand_id"))
    .values(
        status=m.VOIDED, voided_at=sa.bindparam("at"), voided_by=sa.bindparam("who"), void_reason=sa.bindparam("why")
    )
)
_MOVE_TABLE = (
    sa.update(m.GameTable)
    .where(m.GameTable.id == sa.bindparam("table_id"))
    .values(dealer=sa.bindparam("dealer"), hand_number=sa.bindparam("hand_number"))
)


def _lock(tx: Tx, table_id: int, *, lock: bool = True, previous: bool = False) -> tuple[_Table, _Hand | None]:
    """The table, locked for this transaction (unless only read), and its open hand (with `previous`, the latest
    finished hand's record too: `_latest_record` needs it); a booking whose source is booked already ends here."""
    rows = tx.execute(_TABLE_READS[lock, previous], {"table_id": table_id, "booked_source": tx.source}).all()
    if not rows:
        raise LedgerError("not_found", f"找不到这一桌（{table_id}）")
    first = rows[0]
    tx.stop_if_booked(first.source_booked)
    seat_rows = list({row.position: row for row in rows}.values())
    table = _Table(
        id=first.id,
        group_id=first.group_id,
        night_id=first.night_id,
        game=first.game,
        rules=dict(first.rules),
        base=first.base,
        dealer=first.dealer,
        hand_number=first.hand_number,
        ended=first.ended_at is not None,
        night_date=first.night_date,
        night_closed=first.night_ended_at is not None,
        double_entry=double_entry_window(first.double_entry_seconds),
        cutoff_hour=first.cutoff_hour,
        timezone=first.timezone,
        seats=tuple(Seat(r.position, r.name, r.member_id, r.user_id, r.username) for r in seat_rows),
        names={r.member_id: r.name for r in seat_rows},
        cut=fees.Fees(cut_fixed=first.cut_fixed or 0, cut_percent=first.cut_percent or 0, cut_cap=first.cut_cap),
    )
    seat_rows = [row for row in rows if row.position == first.position]
    if previous:
        table.previous, table.previous_read = _finished_of(seat_rows), True
    return table, _hand_of(seat_rows)


def _finished_of(rows: Sequence[Any]) -> _Finished | None:
    """A finished hand from rows over `_finished_columns` (in event order; rows without an event are skipped: the
    table read's, while the open hand has live events), None when they hold no event."""
    found = [row for row in rows if row.finished_event_id is not None]
    if not found:
        return None
    events = [
        _Event(r.finished_event_id, r.finished_payload, r.finished_source, [], r.finished_by, r.finished_at)
        for r in found
    ]
    return _Finished(found[0].finished_hand_id, found[0].finished_number, events)


def _open_hand(tx: Tx, table_id: int) -> _Hand | None:
    return _hand_of(tx.execute(_OPEN_HAND, {"table_id": table_id}))


def _hand_of(rows: Iterable[Any]) -> _Hand | None:
    """The open hand from rows over `_OPEN_HAND_COLUMNS` (in event, transfer order), None when there is none."""
    hand: _Hand | None = None
    for row in rows:
        if row.hand_id is None:
            return None
        if hand is None:
            hand = _Hand(row.hand_id, row.hand_number_open, row.hand_dealer, [])
        if row.event_id is None:
            continue
        if not hand.events or hand.events[-1].id != row.event_id:
            hand.events.append(_Event(row.event_id, row.payload, row.source, [], row.event_by, row.event_at))
        if row.tr_id is not None:
            hand.events[-1].transfers.append(transfers.live(row, "tr_"))
    return hand


# ------------------------------------------------------------------------------------------------ booking


def append(
    tx: Tx,
    table_id: int,
    events: Sequence[Event | Mapping[str, Any]],
    *,
    whole_hand: bool,
    check_repeat: bool = False,
    recap: bool = False,
    told_at: datetime | None = None,
) -> HandResult:
    """Append events to the table's open hand (opening one as needed) and book what they change. With
    `check_repeat`, a record that repeats the table's previous one (someone else's, within the group's
    double-entry window) is refused with `DuplicateRecord`; `recap`: the record says it tells the hand just
    recorded (`_refuse_repeat`). `told_at`: when a record that waited (for its answers, its 确认) was told."""
    table, hand = _lock(tx, table_id, previous=check_repeat)
    if table.ended:
        raise LedgerError("table_ended", "这一桌已经结束，请重新开桌")
    if check_repeat and table.double_entry:
        _refuse_repeat(tx, table, hand, events, tx.by, recap=recap)
    existing = hand.events if hand is not None else []
    new_night = None
    if not existing and _rolls_over(tx, table, told_at):
        table, new_night = _roll_over(tx, table)
        hand = None
    before = [event.payload for event in existing]
    batch = payloads(events, before)
    if whole_hand and existing:
        raise LedgerError("hand_in_progress", f"第 {table.hand_number} 局已有记录：请逐条补记，或先撤销")
    if whole_hand and not is_terminal(table.game, batch[-1]):
        raise LedgerError("hand_not_finished", "整局记录必须以胡牌或荒庄结束")
    if misplaced_terminal(table.game, before + batch):
        raise LedgerError("events_after_end", "胡牌/荒庄之后不能再记事件")
    number, dealer = (hand.number, hand.dealer) if hand is not None else (table.hand_number, table.dealer)
    answer, finished = _score(table, dealer, before + batch, range(len(before), len(before) + len(batch)))
    status, closed_at = (m.CLOSED, tx.now) if finished else (m.OPEN, None)
    moved = False
    opening: _Opening | None = None
    added: list[_Event] = []
    if hand is None:
        values = _hand_values(table, number, dealer, status, answer, tx.now, closed_at)
        postgres = tx.connection.dialect.name == "postgresql"
        if finished and postgres:  # one round trip fewer
            _move_on(table, answer, before + batch, dealer, number)
            moved = True
            values |= {"moving_table": table.id, "next_dealer": table.dealer, "next_number": table.hand_number}
        if postgres and len(batch) == 1:  # the event goes with its hand, written by `_book` with its money
            values |= {"e_payload": batch[0], "e_source": tx.source, "e_created_at": tx.now, "e_created_by": tx.by}
            opening = _Opening(moved, values)
            hand_id, added = 0, [_Event(0, batch[0], tx.source)]  # ids once written
        else:
            hand_id = tx.execute(_INSERT_FINISHED_HAND if moved else _INSERT_HAND, values).scalar_one()
    else:
        hand_id = hand.id
        tx.execute(_UPDATE_HAND, {"hand_id": hand_id, "answer": answer, "status": status, "closed_at": closed_at})
    if opening is None:
        added = _insert_events(tx, hand_id, [(payload, tx.source, tx.now, tx.by) for payload in batch])
    live = [*existing, *added]
    result = _book(tx, table, hand_id, number, dealer, live, answer, finished and not moved, stale=[], opening=opening)
    result["finished"] = finished
    return HandResult(**result, liangdao=liangdao(before + batch), recorded=tuple(batch), new_night=new_night)


@dataclass(frozen=True)
class _Opening:
    """PostgreSQL: a hand and its one event not yet written (`_INSERT_HAND_WITH_EVENT[moved]`'s parameters):
    `_book` writes them with the event's money."""

    moved: bool
    values: dict[str, Any]


def _hand_values(
    table: _Table,
    number: int,
    dealer: str | None,
    status: str,
    answer: dict[str, Any],
    now: datetime,
    closed_at: datetime | None,
) -> dict[str, Any]:
    """The parameters of `_INSERT_HAND`."""
    return {
        "h_group_id": table.group_id,
        "h_table_id": table.id,
        "h_number": number,
        "h_dealer": dealer,
        "h_status": status,
        "h_answer": answer,
        "h_created_at": now,
        "h_closed_at": closed_at,
    }


def _insert_events(tx: Tx, hand_id: int, items: Sequence[_Told]) -> list[_Event]:
    rows = [
        {"hand_id": hand_id, "payload": payload, "source": source, "created_at": at, "created_by": by}
        for payload, source, at, by in items
    ]
    ids = tx.execute(_INSERT_EVENTS, rows[0] if len(rows) == 1 else rows).scalars().all()  # one row: no executemany
    return [
        _Event(id_, payload, source, created_by=by, created_at=at)
        for id_, (payload, source, at, by) in zip(ids, items, strict=True)
    ]


def _score(
    table: _Table, dealer: str | None, events: list[Payload], fresh: range | None = None
) -> tuple[dict[str, Any], bool]:
    """The scoring core's answer for the hand's live events, and whether they finish it (an ending event gets
    the full check; the core says so itself where it can tell, e.g. 碰胡's second 提蛇 at the deal). `fresh`: the
    events being recorded (an 抢杠胡 among them needs the kong it robs: `refuse_rob_without_kong`; one booked
    before that check stands when the hand is recomputed)."""
    if not events:
        return {"ok": True, "transfers": []}, False
    ends = is_terminal(table.game, events[-1])
    request = build_request(table.game, table.rules, table.base, table.players, dealer, events)
    try:
        if fresh is None:
            refuse_seven_pairs_after_kong(table.game, events)
        else:
            refuse_unbookable(table.game, events, fresh)
        answer = scored(request, partial=not ends)
    except ScoringError as err:
        raise ScoringRefused(err.code, err.message, err.reading) from err
    return answer, bool(answer["finished"]) if "finished" in answer else ends


def _book(
    tx: Tx,
    table: _Table,
    hand_id: int,
    number: int,
    dealer: str | None,
    events: list[_Event],
    answer: dict[str, Any],
    finished: bool,
    *,
    stale: list[transfers.Live],
    reason: str = RECOMPUTED,
    movement: transfers.Movement | None = None,
    opening: _Opening | None = None,
) -> dict[str, Any]:
    """Make the hand's live transfers match `answer` event by event (`stale`: live transfers of events no longer
    live, voided too), move the running totals, and close the hand's table turn when it `finished`. With
    `opening` the hand and its one event (`events[-1]`, id 0 until then) are written here too. Returns the
    fields of a `HandResult` this knows."""
    wanted = owed_by_event(answer, len(events))
    seat_ids = {seat.name: seat.member_id for seat in table.seats}
    seat_of = {seat.member_id: seat.name for seat in table.seats}
    voided = list(stale)
    rows: list[dict[str, Any]] = []
    takes_cut = bool(table.cut.cut_fixed or table.cut.cut_percent)
    cut = _Cut(tx, table) if takes_cut and any(_wins(table.game, event.payload) for event in events) else None
    for index, event in enumerate(events):
        have = sorted(
            (seat_of[t.payer_id], seat_of[t.payee_id], t.amount, t.reason) for t in event.transfers if t.kind == m.HAND
        )
        if have == wanted[index]:
            continue  # the event's money is unchanged: its cut (抽水) stays as booked
        voided += event.transfers
        if cut is not None and _wins(table.game, event.payload):
            rows += cut.rows(tx, table, hand_id, event.id, wanted[index], seat_ids)
        for payer, payee, amount, why in wanted[index]:
            if payer not in seat_ids or payee not in seat_ids:
                raise LedgerError("bad_player", f"计分结果里有不在座的玩家：{payer} → {payee}")
            rows.append(
                transfers.new_row(
                    tx,
                    table.group_id,
                    seat_ids[payer],
                    seat_ids[payee],
                    amount,
                    why,
                    m.HAND,
                    night_id=table.night_id,
                    table_id=table.id,
                    hand_id=hand_id,
                    event_id=event.id,
                )
            )
    movement = movement or transfers.Movement()
    transfers.void(tx, voided, reason, movement)
    if opening is not None and not transfers.in_one_statement(tx, rows, movement, table.night_id):
        hand_id, events[-1].id = tx.execute(_INSERT_HAND_WITH_EVENT[opening.moved], opening.values).one()
        for row in rows:
            row["hand_id"], row["event_id"] = hand_id, events[-1].id
        opening = None
    if opening is not None:
        statement = _OPEN_AND_BOOK[opening.moved]
        hand_id, events[-1].id, ids, totals = transfers.open_and_apply(
            tx, statement, opening.values, rows, movement, night_id=table.night_id, members=seat_ids.values()
        )
    else:
        ids, totals = transfers.insert_and_apply(tx, rows, movement, night_id=table.night_id, members=seat_ids.values())
    payloads_ = [event.payload for event in events]
    if finished:
        _move_on(table, answer, payloads_, dealer, number)
        tx.execute(_MOVE_TABLE, {"table_id": table.id, "dealer": table.dealer, "hand_number": table.hand_number})
    index_of = {event.id: i for i, event in enumerate(events)}
    shown = table.names if cut is None or cut.house is None else {**table.names, cut.house: fees.HOUSE_NAME}
    return {
        "hand_id": hand_id,
        "table_id": table.id,
        "number": number,
        "dealer": dealer,
        "events": tuple(payloads_),
        "finished": finished,
        "answer": answer,
        "booked": transfers.booked_info(ids, rows, shown, index_of),
        "voided": tuple(transfers.info(t, shown, index_of, voided=True) for t in voided),
        "next_dealer": table.dealer,
        "night_totals": totals,
    }


def _wins(game: str, event: Payload) -> bool:
    """An event a cut (抽水) is taken on: an ending that is not a draw."""
    return is_terminal(game, event) and event.get("type") != "draw"


class _Cut:
    """The group's 抽水 as one booking takes it: the settings read with the table, the house account read once, only
    for a group that takes a cut and a booking with a win."""

    def __init__(self, tx: Tx, table: _Table) -> None:
        self.fees = table.cut
        self.house = fees.house_id(tx, table.group_id)

    def rows(
        self,
        tx: Tx,
        table: _Table,
        hand_id: int,
        event_id: int,
        owed: Sequence[tuple[str, str, int, str]],
        seat_ids: Mapping[str, int],
    ) -> list[dict[str, Any]]:
        """The cut transfers of one winning event: from each player ahead on it to the house."""
        if self.house is None:
            return []
        gains: dict[str, int] = {}
        for payer, payee, amount, _why in owed:
            gains[payer] = gains.get(payer, 0) - amount
            gains[payee] = gains.get(payee, 0) + amount
        return [
            transfers.new_row(
                tx,
                table.group_id,
                seat_ids[player],
                self.house,
                amount,
                fees.CUT,
                m.FEE,
                night_id=table.night_id,
                table_id=table.id,
                hand_id=hand_id,
                event_id=event_id,
            )
            for player, amount in fees.cuts(gains, self.fees)
            if player in seat_ids
        ]


def _move_on(table: _Table, answer: dict[str, Any], events: list[Payload], dealer: str | None, number: int) -> None:
    """A finished hand moves the table on: the dealer the rules name, the next number (not yet written)."""
    table.dealer = next_dealer(table.game, answer, events, dealer)
    table.hand_number = number + 1


def _rolls_over(tx: Tx, table: _Table, told_at: datetime | None) -> bool:
    """Whether a hand's first record rolls the table over: the 日切 hour has passed since its night began, and no
    record of the hand told before it waits (`flows.holds_hand`) — one told after it, booked now, rolls over as a
    record booked at once would."""
    if night_date(table.timezone, table.cutoff_hour, tx.now) <= table.night_date:
        return False
    if told_at is not None and night_date(table.timezone, table.cutoff_hour, told_at) > table.night_date:
        return True
    return not flows.holds_hand(tx, table.group_id, table.id, table.hand_number)


def _roll_over(tx: Tx, table: _Table) -> tuple[_Table, NightInfo]:
    """The 日切 hour has passed since the table's night began: close that night (its settlement stored) and seat
    the same players at a new table in tonight's night, rules snapshot, 底金 and dealer carried over."""
    session = tx.session
    lock_group(session, table.group_id)
    group = session.get(m.Group, table.group_id)
    old = session.get(m.Night, table.night_id)
    assert group is not None and old is not None, "a table's group and night exist"
    close_night(tx, group, old)  # ends this table (an empty open hand is voided)
    night = m.Night(
        group_id=group.id, night_date=night_date(group.timezone, group.cutoff_hour, tx.now), started_at=tx.now
    )
    session.add(night)
    session.flush()
    new_id = seat_table(
        tx,
        group.id,
        night.id,
        table.game,
        table.rules,
        table.base,
        table.dealer,
        [seat.member_id for seat in table.seats],
        table.players,
    )
    return _lock(tx, new_id)[0], night_info(night)


# ------------------------------------------------------------------------------------------- records


#: the finished hand numbered `number` of a table (the newest, were there two)
_NUMBERED_HAND = (
    sa.select(m.Hand.id)
    .where(
        m.Hand.table_id == sa.bindparam("table_id"),
        m.Hand.status == m.CLOSED,
        m.Hand.number == sa.bindparam("number"),
    )
    .order_by(m.Hand.id.desc())
    .limit(1)
    .scalar_subquery()
)
#: that hand's live events, in order
_FINISHED_HAND = (
    sa.select(*_finished_columns(m.Hand, m.HandEvent))
    .join(m.Hand, m.Hand.id == m.HandEvent.hand_id)
    .where(m.Hand.id == _NUMBERED_HAND, m.HandEvent.voided_at.is_(None))
    .order_by(m.HandEvent.id)
)
_MEMBER_ID = sa.select(m.Member.id).where(
    m.Member.group_id == sa.bindparam("group_id"), m.Member.user_id == sa.bindparam("user_id")
)


def _name_of_user(tx: Tx, table: _Table, user_id: int) -> str | None:
    """Whoever recorded something, as every reply names them: their seat's name, else the group's name for them
    (`names`: 老王#2), None for someone the ledger does not know."""
    seat = next((seat.name for seat in table.seats if seat.user_id == user_id), None)
    if seat is not None:
        return seat
    member_id = tx.execute(_MEMBER_ID, {"group_id": table.group_id, "user_id": user_id}).scalar()
    return names(tx, table.group_id).get(member_id) if member_id is not None else None


def _record_of(
    tx: Tx, table: _Table, hand_id: int, number: int, finished: bool, events: Sequence[_Event], *, named: bool = True
) -> TableRecord | None:
    """The last record among a hand's live `events`: the trailing events that share the last one's source (with
    the name of who recorded it unless not `named`: a statement saved when the name may not be needed)."""
    if not events:
        return None
    source = events[-1].source
    start = len(events)
    while start > 0 and events[start - 1].source == source:
        start -= 1
    last = events[start:]
    by = last[-1].created_by
    name = None
    if named and by is not None:
        name = _name_of_user(tx, table, by)
    at = last[-1].created_at
    assert at is not None, "events are read with their time"
    return TableRecord(
        table_id=table.id,
        hand_id=hand_id,
        hand_number=number,
        finished=finished,
        event_ids=tuple(event.id for event in last),
        events=tuple(event.payload for event in last),
        source=source,
        recorded_by=by,
        recorded_by_name=name,
        recorded_at=at,
    )


def _latest_record(tx: Tx, table: _Table, hand: _Hand | None, *, named: bool = True) -> TableRecord | None:
    """The latest record of the table: in the hand in progress, else the ending of its latest finished hand."""
    if hand is not None and hand.events:
        return _record_of(tx, table, hand.id, hand.number, False, hand.events, named=named)
    assert table.previous_read, "the table is read with its previous hand (`_lock(previous=True)`)"
    found = table.previous
    return _record_of(tx, table, found.id, found.number, True, found.events, named=named) if found else None


def latest_record(tx: Tx, table_id: int) -> TableRecord | None:
    """What `撤销` would take back at the table, or None when there is nothing."""
    table, hand = _lock(tx, table_id, lock=False, previous=True)
    return _latest_record(tx, table, hand)


def refuse_repeat(
    tx: Tx,
    table_id: int,
    events: Sequence[Event | Mapping[str, Any]],
    by: int | None,
    *,
    anytime: bool = False,
    recap: bool = False,
) -> None:
    """`append`'s double-entry check for a record `by` someone that is not booked yet: the bot asks what the
    group's rules still need of a record only once it is known not to repeat the previous one; `anytime` for
    an edit of a line already held back, judged a repeat whenever it comes."""
    table, hand = _lock(tx, table_id, lock=False, previous=True)
    if table.double_entry:
        _refuse_repeat(tx, table, hand, events, by, anytime=anytime, recap=recap)


#: the same kong from its own sender again within this (and the double-entry window) is the message sent twice — a
#: double tap, a bad network's resend — and is asked about; later it is booked: one player may well make two
#: concealed kongs in a hand, a replacement tile apart, and a bare `暗杠` names no tile to tell them apart
KONG_RESEND = timedelta(seconds=10)

#: how many double-entry windows (4½ minutes at 90 s) an ending of the hand just ended told again (nothing recorded
#: since) is held back as that hand: exactly alike from anyone, the same winners told otherwise from someone else;
#: and someone else's kong told again of the same player with no tile to tell the two apart. The shortest plausible
#: 卡五星 hand — a shuffle, a deal, a wall played down — takes about that, so the same winner twice in a row within
#: it is one hand told twice far more often than two hands (the question costs a press; a miss, the money)
EXACT_RETELLING = 3

#: the games whose hand ends with a win or a draw that someone else may tell otherwise right after it was booked
#: (`_refuse_repeat`): a 卡五星 or a 碰胡 hand takes minutes (a shuffle, a deal, a wall played down), so another
#: ending told within the window is most likely that hand's (够级's rounds have a rule of their own)
HANDS_TOLD_OTHERWISE = frozenset({"kawuxing", "penghu"})

#: a 碰胡 play (碰, 扫 …) from the sender of the same play just before, within this (and the double-entry window),
#: is the line sent twice (a double tap, a bad network's resend) and is asked about; later it is a second one: a
#: player may 碰 the same discarder twice in a row. Deal-time 扫 have a shorter one (`QISHOU_SAO_RESEND`); a
#: deal-time 提蛇 this one, whose second is the two-提蛇 win (`起手提蛇` sent twice in a second booked it, +120)
PENGHU_RESEND = timedelta(seconds=10)
#: one sender's deal-time 扫 after their deal-time 扫 within this is the line sent twice (a double tap arrives within
#: a second or two: `起手扫` twice in one second booked a 连扫, +6) and is asked about; later it is their second one
#: (连扫: one player's come one after another, each typed, and a question on every 连扫 would cost a press)
QISHOU_SAO_RESEND = timedelta(seconds=3)


def _resent(
    tx: Tx, table: _Table, previous: TableRecord, events: Sequence[Event | Mapping[str, Any]], anytime: bool
) -> bool:
    """True when `events` (from the sender of `previous`, the open hand's latest record) are 碰胡 plays sent again
    within `PENGHU_RESEND` (`anytime`: whenever): `_refuse_repeat` then compares them with `previous`."""
    late = tx.now - previous.recorded_at > min(PENGHU_RESEND, table.double_entry)
    if table.game != "penghu" or (late and not anytime) or not _marked_alike(events, previous.events):
        return False
    told = _penghu_told(events)
    return told is not None and all(kind in PENGHU_PLAYS and not at_deal for kind, at_deal in told)


def _marked_alike(events: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """Whether 碰胡 plays carry the deal-time marks of the record they may resend: a line sent twice is the same
    line, so `起手扫` then `扫` from one sender are two events (a 扫 at the deal, then one drawn in play)."""
    mine, theirs = _penghu_told(events), _penghu_told(previous)
    return mine is None or theirs is None or [bool(d) for _, d in mine] == [bool(d) for _, d in theirs]


def _penghu_told(events: Sequence[Event | Mapping[str, Any]]) -> list[tuple[Any, Any]] | None:
    """Each 碰胡 event's kind and deal-time mark, or None when `events` hold anything else."""
    told = [
        (event.kind, event.at_deal) if isinstance(event, PenghuPlay) else (event.get("type"), event.get("at_deal"))
        for event in events
        if isinstance(event, PenghuPlay | Mapping)
    ]
    return told if len(told) == len(events) else None


def _refuse_repeat(
    tx: Tx,
    table: _Table,
    hand: _Hand | None,
    events: Sequence[Event | Mapping[str, Any]],
    by: int | None,
    *,
    anytime: bool = False,
    recap: bool = False,
) -> None:
    """Raise `DuplicateRecord` when `events` (recorded `by` someone) repeat the table's previous record,
    recorded within the group's double-entry window (`anytime`: whenever) by someone else — or by the same
    sender when it ended a hand: no hand is won or drawn twice in so short a time, so the same win sent again
    (a double-send on a bad network) is that one; two kongs or 亮倒 of one player in a row are real.

    A 卡五星 or 碰胡 hand takes minutes, so another win or draw from someone else within the window, right after a hand
    ended, is most likely that hand told otherwise: held back too (`differs`; an edit of a held-back line only
    within the window, as any new record); from its own recorder it is taken as meant. The same winner told with
    another hand is that hand told otherwise too. A `recap` (the line says it tells the hand just recorded:
    `刚才 …`) right after a hand ended is that hand, whoever sends it: held back as the same record when it reads
    exactly alike (`retells`), as another telling of it when it names the same winner (`repeats`) — whenever they
    come — and as another ending of it within the window (later, someone else's `我刚才自摸了` is a new hand).
    An ending that reads exactly like the hand just ended, with nothing recorded since, is that hand for
    `EXACT_RETELLING` windows, whoever sends it (a second player telling the table's win 100 s later, its own winner
    retyping it 110 s later, booked it twice); so is someone else's of the same winners told otherwise (`differs`).

    够级 likewise: a round takes minutes, so someone else's round within the window of the previous one is that
    round told otherwise (`differs`) unless it reads exactly alike, and exactly alike it is that round for
    `EXACT_RETELLING` windows. A 碰胡 play (碰, 扫 …) repeating an earlier one of the open hand is held back as a
    kong is (`_repeated_play`), and one repeating the one just before from its own sender within `PENGHU_RESEND`
    (`_resent`); a 跑起胡 after its player's 跑起 off the same discarder in the open hand, whoever sent either and
    whenever (`_included_paoqi`)."""
    previous = _latest_record(tx, table, hand, named=False)
    if previous is None:
        return
    repeated = _repeated_play(tx, table, hand, events, by, anytime=anytime)
    if repeated is not None:
        raise _held_back(tx, table, repeated, latest=previous)
    included = _included_paoqi(tx, table, hand, events)
    if included is not None:
        raise _held_back(tx, table, included, latest=previous, includes=payloads(events, [])[0])
    ending = table.game in HANDS_TOLD_OTHERWISE and previous.finished and ends_hand(events)
    since = tx.now - previous.recorded_at
    within = since <= table.double_entry
    if table.game == "gouji" and previous.finished and previous.recorded_by != by:  # a round takes minutes
        exact = retells_round(events, previous.events)
        if within or (exact and since <= table.double_entry * EXACT_RETELLING):
            raise _held_back(tx, table, previous, differs=not exact)
    if recap and ending and (within or repeats(events, previous.events)):
        raise _held_back(tx, table, previous, differs=not retells(events, previous.events))
    retold = ending and hand is None and since <= table.double_entry * EXACT_RETELLING
    if retold and repeats(events, previous.events):
        exact = retells(events, previous.events)  # anyone's; the same winner told otherwise, someone else's
        if exact or previous.recorded_by != by:
            raise _held_back(tx, table, previous, differs=not exact)
    if retold and widens(events, previous.events):  # a 一炮双响 after one of its wins (or one win after it): anyone's
        raise _held_back(tx, table, previous, differs=True)
    if previous.recorded_by == by and not previous.finished and not _resent(tx, table, previous, events, anytime):
        return
    if not anytime and not within:
        return
    if repeats(events, previous.events):  # the same winner: told otherwise (另一种番) is that hand's other telling
        raise _held_back(tx, table, previous, differs=ending and not retells(events, previous.events))
    if ending and within and previous.recorded_by != by:
        raise _held_back(tx, table, previous, differs=True)


#: 碰胡 plays one player makes at most once a hand: told again later, the rules' refusal says it is there already
PENGHU_ONCE = frozenset({"baojing"})


def _repeated_play(
    tx: Tx,
    table: _Table,
    hand: _Hand | None,
    events: Sequence[Event | Mapping[str, Any]],
    by: int | None,
    *,
    anytime: bool,
) -> TableRecord | None:
    """The record of the open hand that a kong record or a 碰胡 play (`events`, all kongs, or 碰, 扫, 过扫, 跑起,
    提蛇) repeats (`repeats`: the same player, kind and discarder; a kong's tile on one side only, or the same
    tile): the newest such record, when it is someone else's within its span — a kong's `EXACT_RETELLING`
    double-entry windows (`阿杰暗杠了` two minutes after 阿杰's `暗杠 红中` was booked a second kong), a 碰胡 play's
    one window — whatever was recorded since (a 亮倒, another player's kong or 扫), or its own sender's within
    `KONG_RESEND` / `PENGHU_RESEND` (`anytime`: whenever). None when the record is new: its sender's same kong or 碰
    told later is a second one (two concealed kongs in one hand, two 碰 of one discarder, are real), and so is its
    sender's deal-time 扫 after their deal-time 扫 (连扫) past `QISHOU_SAO_RESEND` — not a deal-time 提蛇 within
    `PENGHU_RESEND`, which would end the hand as the two-提蛇 win; the same tile konged twice is the scoring's to
    refuse."""
    if hand is None or not events:
        return None
    told = _penghu_told(events) if table.game == "penghu" else None
    kongs = all(_is_kong(event) for event in events)
    if kongs:
        resend = KONG_RESEND
    elif told is not None and all(kind in PENGHU_PLAYS - PENGHU_ONCE for kind, _ in told):
        dealt = any(kind == "sao" and at_deal for kind, at_deal in told)
        resend = QISHOU_SAO_RESEND if dealt else PENGHU_RESEND
    else:
        return None
    span = table.double_entry * EXACT_RETELLING if kongs else table.double_entry
    for end, record in _records_newest_first(hand):
        last = record[-1]
        assert last.created_at is not None, "the open hand's events are read with their time"
        since = tx.now - last.created_at
        if not anytime and since > span:
            return None  # older records are older still
        recorded = [event.payload for event in record]
        if repeats(events, recorded):  # the newest telling of that record decides
            if last.created_by == by and not _marked_alike(events, recorded):
                return None  # `起手扫`, then `扫` in play: no resend of the same line
            if _same_tiles(events, recorded):
                return None  # one tile konged twice cannot be meant again: the booking says it is there already
            # someone else's telling within its span, its own sender's resend within the resend time
            limit = min(resend, table.double_entry) if last.created_by == by else span
            if not anytime and since > limit:
                return None
            return _record_of(tx, table, hand.id, hand.number, False, hand.events[:end], named=False)
    return None


def _included_paoqi(
    tx: Tx, table: _Table, hand: _Hand | None, events: Sequence[Event | Mapping[str, Any]]
) -> TableRecord | None:
    """The open hand's newest 跑起 record that the 跑起胡 `events` already include (`includes_paoqi`): booked too,
    that 跑起's 12 would be paid twice (`小李 跑起 点 阿杰` then `胡 点 阿杰 跑起` booked 36, not 24)."""
    if hand is None or table.game != "penghu":
        return None
    for end, record in _records_newest_first(hand):
        if includes_paoqi(events, [event.payload for event in record]):
            return _record_of(tx, table, hand.id, hand.number, False, hand.events[:end], named=False)
    return None


def _records_newest_first(hand: _Hand) -> Iterator[tuple[int, list[_Event]]]:
    """The open hand's records, newest first: each one message's events (one source), with where it ends."""
    end = len(hand.events)
    while end > 0:
        start = end - 1
        while start > 0 and hand.events[start - 1].source == hand.events[end - 1].source:
            start -= 1
        yield end, hand.events[start:end]
        end = start


def _same_tiles(events: Sequence[Event | Mapping[str, Any]], previous: Sequence[Mapping[str, Any]]) -> bool:
    """Whether two kong records name the same tiles, each one (`暗杠 3s` sent twice)."""
    tiles = sorted(str(event.get("tile")) for event in payloads(events, previous))
    return None not in {event.get("tile") for event in previous} and tiles == sorted(
        str(event.get("tile")) for event in previous
    )


def _is_kong(event: Event | Mapping[str, Any]) -> bool:
    return isinstance(event, Kong) or (isinstance(event, Mapping) and event.get("type") == "gang")


def _held_back(
    tx: Tx,
    table: _Table,
    previous: TableRecord,
    *,
    differs: bool = False,
    latest: TableRecord | None = None,
    includes: Payload | None = None,
) -> DuplicateRecord:
    """The refusal of a record held back as a double entry of `previous`, with the name of who recorded it;
    `latest`: the table's latest record when `previous` is an earlier one (what a 「确实又一次」 must still follow);
    `includes`: the record (its one event), a 跑起胡 that includes `previous`, a 跑起."""
    name = _name_of_user(tx, table, previous.recorded_by) if previous.recorded_by is not None else None
    after = (latest or previous).event_ids[-1]
    return DuplicateRecord(dataclasses.replace(previous, recorded_by_name=name), differs, after, includes)


# ---------------------------------------------------------------------------------------------- undo, void


#: one hand with its live events, each with its live transfers (one row per transfer), in order
_HAND_WITH_MONEY = (
    sa.select(*_OPEN_HAND_COLUMNS)
    .select_from(m.Hand)
    .outerjoin(m.HandEvent, sa.and_(m.HandEvent.hand_id == m.Hand.id, m.HandEvent.voided_at.is_(None)))
    .outerjoin(m.Transfer, sa.and_(m.Transfer.event_id == m.HandEvent.id, m.Transfer.voided_at.is_(None)))
    .where(m.Hand.id == sa.bindparam("hand_id"))
    .order_by(m.HandEvent.id, m.Transfer.id)
)
#: why an empty hand is voided (a hand whose events were all taken back, when the hand before it reopens)
EMPTY_HAND = "空局"


def _open_for_change(tx: Tx, table_id: int) -> tuple[_Table, _Hand | None]:
    """The table locked for an undo (with the latest finished hand's record), refused once its night is settled
    or the table has ended."""
    table, hand = _lock(tx, table_id, previous=True)
    if table.night_closed:
        raise LedgerError("night_closed", "这一晚已经结算封存，记录不能再改")
    if table.ended:
        raise LedgerError("table_ended", "这一桌已经结束，请重新开桌")
    return table, hand


def undo(tx: Tx, table_id: int, reason: str, *, expect: int | None = None) -> VoidResult:
    """Take back the table's latest record (`latest_record`): the last record of the hand in progress (the
    earlier events' money recomputed), or, with nothing recorded in it, the ending of the latest finished hand,
    which reopens that hand with its kongs and 亮倒. `expect` is the id of the record's last event as the caller
    showed it: refused (`record_changed`) when the latest record is another one by now."""
    table, hand = _open_for_change(tx, table_id)
    record = _latest_record(tx, table, hand, named=False)
    if record is None:
        raise LedgerError("nothing_to_undo", "这一桌没有可以撤销的记录")
    if expect is not None and record.event_ids[-1] != expect:
        raise LedgerError("record_changed", "要撤销的那条已经不是最后一条记录了，没有撤销")
    if record.finished:
        if hand is not None:  # an empty hand started after it: its events were all taken back
            tx.execute(_VOID_HAND, {"hand_id": hand.id, "at": tx.now, "who": tx.by, "why": EMPTY_HAND})
        hand = _hand_of(tx.execute(_HAND_WITH_MONEY, {"hand_id": record.hand_id}))
        assert hand is not None, "a finished hand exists"
        table.dealer, table.hand_number = hand.dealer, hand.number
        tx.execute(_MOVE_TABLE, {"table_id": table.id, "dealer": table.dealer, "hand_number": table.hand_number})
    assert hand is not None, "a record in progress has its hand"
    undone = [event for event in hand.events if event.id in record.event_ids]
    remaining = [event for event in hand.events if event.id not in record.event_ids]
    tx.execute(_VOID_EVENT, [{"event_id": e.id, "at": tx.now, "who": tx.by, "why": reason} for e in undone])
    answer, finished = _score(table, hand.dealer, [event.payload for event in remaining])
    status, closed_at = (m.CLOSED, tx.now) if finished else (m.OPEN, None)
    tx.execute(_UPDATE_HAND, {"hand_id": hand.id, "answer": answer, "status": status, "closed_at": closed_at})
    stale = [transfer for event in undone for transfer in event.transfers]
    result = _book(tx, table, hand.id, hand.number, hand.dealer, remaining, answer, finished, stale=stale)
    return VoidResult(
        what="reopened" if record.finished else "event",
        hand_id=hand.id,
        event=undone[0].payload,
        voided=result["voided"],
        rebooked=result["booked"],
        dealer=table.dealer,
        hand_number=table.hand_number,
        night_totals=result["night_totals"],
        events=tuple(event.payload for event in undone),
        remaining=tuple(event.payload for event in remaining),
        number=hand.number,
    )


def finished_hand(tx: Tx, table_id: int, number: int) -> TableRecord | None:
    """The table's finished hand `number` as `撤销 第N局` names it: its ending record (who recorded it, when), with
    every live event of the hand (what voiding it whole takes back: others' kongs too); None when the table has no
    such finished hand."""
    table, _ = _lock(tx, table_id, lock=False)
    found = _finished_of(tx.execute(_FINISHED_HAND, {"table_id": table.id, "number": number}).all())
    ending = _record_of(tx, table, found.id, found.number, True, found.events) if found else None
    if found is None or ending is None:
        return None
    return dataclasses.replace(ending, events=tuple(event.payload for event in found.events))


#: the table's finished hand `number` taken back last (a hand voided before it ended has no `closed_at`)
_VOIDED_HAND = (
    sa.select(m.Hand.voided_at, m.Hand.voided_by, m.Hand.void_reason)
    .where(
        m.Hand.table_id == sa.bindparam("table_id"),
        m.Hand.number == sa.bindparam("number"),
        m.Hand.status == m.VOIDED,
        m.Hand.closed_at.is_not(None),
    )
    .order_by(m.Hand.id.desc())
    .limit(1)
)


def voided_hand(tx: Tx, table_id: int, number: int) -> VoidedHand | None:
    """The table's finished hand `number` as it was taken back whole, the latest such, when no live one has that
    number: what `撤销 第N局` of a hand already voided is told. None when the table never finished one so numbered."""
    table, _ = _lock(tx, table_id, lock=False)
    row = tx.execute(_VOIDED_HAND, {"table_id": table.id, "number": number}).first()
    if row is None or row.voided_at is None:
        return None
    name = _name_of_user(tx, table, row.voided_by) if row.voided_by is not None else None
    return VoidedHand(number, row.voided_at, row.voided_by, name, row.void_reason or "")


_HAND_BY_ID = sa.select(m.Hand.id, m.Hand.table_id, m.Hand.number, m.Hand.dealer, m.Hand.status).where(
    m.Hand.id == sa.bindparam("hand_id")
)


def _hand_row(tx: Tx, hand_id: int) -> Any:
    row = tx.execute(_HAND_BY_ID, {"hand_id": hand_id}).first()
    if row is None:
        raise LedgerError("not_found", f"找不到这个局（{hand_id}）")
    return row


def void_hand(tx: Tx, hand_id: int, reason: str, *, table_id: int | None = None) -> VoidResult:
    """Void a finished hand (its transfers too); voiding the table's last hand restores its dealer and number.
    Refused once the hand's night is settled, and (given `table_id`) for a hand of another table."""
    row = _hand_row(tx, hand_id)
    if table_id is not None and row.table_id != table_id:
        raise LedgerError("not_found", f"这一桌没有这一局（{hand_id}）")
    table, _ = _lock(tx, row.table_id)
    if table.night_closed:
        raise _night_settled(row.number)
    hand = _hand_row(tx, hand_id)  # read again under the table's lock (hands change under it)
    if hand.status != m.CLOSED:
        raise LedgerError("not_closed", f"第 {hand.number} 局{'已作废' if hand.status == m.VOIDED else '还没打完'}")
    return _void_hand(tx, table, hand.id, hand.number, hand.dealer, reason)


def _void_hand(tx: Tx, table: _Table, hand_id: int, number: int, dealer: str | None, reason: str) -> VoidResult:
    live = transfers.live_of_hand(tx, hand_id)
    movement = transfers.Movement()
    transfers.void(tx, live, reason, movement)
    totals = transfers.apply(tx, movement, night_id=table.night_id, members=[s.member_id for s in table.seats])
    tx.execute(_VOID_HAND, {"hand_id": hand_id, "at": tx.now, "who": tx.by, "why": reason})
    _rewind_if_last(tx, table, number, voided=True, dealer=dealer)
    return VoidResult(
        what="hand",
        hand_id=hand_id,
        event=None,
        voided=tuple(transfers.info(t, table.names, voided=True) for t in live),
        rebooked=(),
        dealer=table.dealer,
        hand_number=table.hand_number,
        night_totals=totals,
        number=number,
    )


_LATER_OR_IN_PROGRESS = sa.select(
    sa.select(sa.func.count())
    .select_from(m.Hand)
    .where(
        m.Hand.table_id == sa.bindparam("table_id"),
        m.Hand.status == m.CLOSED,
        m.Hand.number > sa.bindparam("number"),
    )
    .scalar_subquery(),
    sa.select(sa.func.count())
    .select_from(m.HandEvent)
    .join(m.Hand, m.Hand.id == m.HandEvent.hand_id)
    .where(m.Hand.table_id == sa.bindparam("table_id"), m.Hand.status == m.OPEN, m.HandEvent.voided_at.is_(None))
    .scalar_subquery(),
)
_RENUMBER_OPEN_HAND = (
    sa.update(m.Hand)
    .where(m.Hand.table_id == sa.bindparam("of_table"), m.Hand.status == m.OPEN)
    .values(number=sa.bindparam("number"), dealer=sa.bindparam("dealer"))
)


def _rewind_if_last(tx: Tx, table: _Table, number: int, *, voided: bool, dealer: str | None) -> None:
    """After voiding or replacing the table's latest finished hand (nothing recorded since), the next hand is
    dealt as if it never happened (voided) or as the replacement says (`dealer`)."""
    later, in_progress = tx.execute(_LATER_OR_IN_PROGRESS, {"table_id": table.id, "number": number}).one()
    if later or in_progress:
        return
    table.dealer = dealer
    table.hand_number = number if voided else number + 1
    tx.execute(_MOVE_TABLE, {"table_id": table.id, "dealer": table.dealer, "hand_number": table.hand_number})
    tx.execute(_RENUMBER_OPEN_HAND, {"of_table": table.id, "number": table.hand_number, "dealer": table.dealer})


# ------------------------------------------------------------------------------------------------- editing


def _edited_events(original_source: str, *, live: bool = True) -> sa.Select[int, int, int]:
    """The live events a message recorded (its first version or any edit of it) in hands not voided; with
    `live=False` every event it ever recorded, undone and voided ones too."""
    found = sa.select(m.HandEvent.id, m.Hand.id.label("hand_id"), m.Hand.table_id).join(
        m.Hand, m.Hand.id == m.HandEvent.hand_id
    )
    if live:
        found = found.where(m.Hand.status != m.VOIDED, m.HandEvent.voided_at.is_(None))
    return found.where(
        sa.or_(
            m.HandEvent.source == original_source,
            m.HandEvent.source.startswith(original_source + ":e", autoescape=True),
        )
    ).order_by(m.HandEvent.id)


#: the date and end of a table's night (`table_id`): a settled night's records stay as they are
_NIGHT_OF_TABLE = (
    sa.select(m.Night.night_date, m.Night.ended_at)
    .join(m.GameTable, m.GameTable.night_id == m.Night.id)
    .where(m.GameTable.id == sa.bindparam("table_id"))
)


def recorded_table(tx: Tx, original_source: str) -> int | None:
    """The table a message recorded at (its first version or an edit of it), None when it recorded nothing live;
    refused (`night_closed`) once that table's night is settled."""
    found = tx.execute(_edited_events(original_source).limit(1)).first()
    if found is None:
        return None
    if tx.execute(_NIGHT_OF_TABLE, {"table_id": found.table_id}).one().ended_at is not None:
        raise LedgerError("night_closed", "这一晚已经结算封存，记录不能再改")
    return int(found.table_id)


def _night_settled(number: int) -> LedgerError:
    """Why a hand of a settled night stays: 结算 sealed its night; 撤销结算 (the latest one) opens it again."""
    return LedgerError(
        "hand_night_settled",
        f"第{number}局所在的那一晚已经结算，记录不能再改；要改，先撤销结算",
        f"the night of hand {number} is settled, so its records can no longer change; to change it, undo the "
        "settlement (撤销结算) first",
    )


def message_hand(tx: Tx, original_source: str) -> tuple[int, int, tuple[int, ...], date] | None:
    """(table id, hand id, the ids of the live events the message booked, the night's date) of the hand a message
    recorded in (its first version or an edit of it); None when it never recorded anything. Refused when all it
    recorded was taken back (`record_taken_back`: undone, or its hand voided) and once that hand's night is
    settled. An edit (of this message or another in the hand) moved its events to the new hand: found there."""
    live = tx.execute(_edited_events(original_source)).all()
    if not live:
        if tx.execute(_edited_events(original_source, live=False).limit(1)).first() is None:
            return None
        raise LedgerError("record_taken_back", "那条消息记的已经撤销或作废了")
    night = tx.execute(_NIGHT_OF_TABLE, {"table_id": live[0].table_id}).one()
    if night.ended_at is not None:
        raise _night_settled(_hand_row(tx, live[0].hand_id).number)
    return int(live[0].table_id), int(live[0].hand_id), tuple(int(row.id) for row in live), night.night_date


def hand_events(tx: Tx, hand_id: int, until: Sequence[int] = ()) -> tuple[int, bool, tuple[Payload, ...], int]:
    """(number, finished, live events, how many of them come before the first of the events `until`) of a hand."""
    hand = _hand_row(tx, hand_id)
    rows = tx.execute(_LIVE_EVENTS, {"hand_id": hand_id}).all()
    first = next((i for i, row in enumerate(rows) if row.id in until), len(rows))
    return int(hand.number), hand.status != m.OPEN, tuple(row.payload for row in rows), first


def recorded_hand(tx: Tx, original_source: str) -> tuple[int, bool] | None:
    """(number, finished) of the hand a message recorded in (its first version or an edit of it), None when it
    recorded nothing live; refused (`night_closed`) once that night is settled."""
    if recorded_table(tx, original_source) is None:
        return None
    found = tx.execute(_edited_events(original_source).limit(1)).one()
    hand = _hand_row(tx, found.hand_id)
    return int(hand.number), hand.status != m.OPEN


_LIVE_EVENTS = (
    sa.select(m.HandEvent.id, m.HandEvent.payload, m.HandEvent.source, m.HandEvent.created_at, m.HandEvent.created_by)
    .where(m.HandEvent.hand_id == sa.bindparam("hand_id"), m.HandEvent.voided_at.is_(None))
    .order_by(m.HandEvent.id)
)


def replace(tx: Tx, original_source: str, events: Sequence[Event | Mapping[str, Any]], reason: str) -> HandResult:
    """An edit: the events `original_source` recorded (or an earlier edit of it) are replaced by `events`; their
    hand is voided and a new hand, the other events kept in place, is recorded and linked to it (`replaces`).
    Works on the open hand and on finished hands; only the table's latest hand moves its dealer. Refused once the
    hand's night is settled, and (`unchanged`) when the edit records exactly what the message recorded."""
    table, old, kept, first, batch, recorder = _replaced(tx, original_source, events)
    # the edited record stays its recorder's (an admin may correct it); the kept ones keep their own
    merged = kept[:first] + [(payload, tx.source, tx.now, recorder) for payload in batch] + kept[first:]
    merged_payloads = [told[0] for told in merged]
    answer, finished = _rescored(table, old, merged_payloads, range(first, first + len(batch)))
    was_open = old.status == m.OPEN
    tx.execute(_VOID_HAND, {"hand_id": old.id, "at": tx.now, "who": tx.by, "why": reason})
    status, closed_at = (m.CLOSED, tx.now) if finished else (m.OPEN, None)
    values = _hand_values(table, old.number, old.dealer, status, answer, tx.now, closed_at)
    new_id = tx.execute(_INSERT_HAND, values | {"h_replaces_id": old.id}).scalar_one()
    new_events = _insert_events(tx, new_id, merged)
    dealer_before, number_before = table.dealer, table.hand_number
    # the old hand's money is voided with the new hand's booking, so the result's voided and booked transfers net
    # to what the edit changed (its reply shows that, not the hand's totals)
    stale = transfers.live_of_hand(tx, old.id)
    result = _book(tx, table, new_id, old.number, old.dealer, new_events, answer, finished, stale=stale, reason=reason)
    if not was_open:  # a finished hand replaced: the table's dealer moves only if this was its latest hand
        table.dealer, table.hand_number = dealer_before, number_before
        tx.execute(_MOVE_TABLE, {"table_id": table.id, "dealer": table.dealer, "hand_number": table.hand_number})
        _rewind_if_last(
            tx, table, old.number, voided=False, dealer=next_dealer(table.game, answer, merged_payloads, old.dealer)
        )
    result["next_dealer"] = table.dealer
    return HandResult(**result, liangdao=liangdao(merged_payloads), recorded=tuple(batch))


def check_replace(tx: Tx, original_source: str, events: Sequence[Event | Mapping[str, Any]]) -> None:
    """What `replace` would refuse of `events` in place of what `original_source` recorded, the hand scored with
    them, nothing written: a correction tries its line so before asking (a non-dealer's 中庄 was asked, and only
    「改成这样」 refused)."""
    table, old, kept, first, batch, _ = _replaced(tx, original_source, events, lock=False)
    merged = [told[0] for told in kept[:first]] + batch + [told[0] for told in kept[first:]]
    _rescored(table, old, merged, range(first, first + len(batch)))


def _replaced(
    tx: Tx, original_source: str, events: Sequence[Event | Mapping[str, Any]], *, lock: bool = True
) -> tuple[_Table, Any, list[_Told], int, list[Payload], int | None]:
    """An edit's hand: its table (locked, unless only read), the hand's row, its live events but the message's
    (payload, source, time, recorder), where the message's stood among them, `events` as they would be recorded
    there, and who recorded the message's."""
    edited = tx.execute(_edited_events(original_source)).all()
    if not edited:
        if tx.execute(_edited_events(original_source, live=False).limit(1)).first() is not None:
            raise LedgerError("edit_taken_back", "这条消息记下的已经撤销或作废")
        raise LedgerError("nothing_to_edit", "找不到这条消息记下的牌局")
    table, _ = _lock(tx, edited[0].table_id, lock=lock)
    if table.night_closed:
        raise LedgerError("night_closed", "这一晚已经结算封存，记录不能再改")
    old = _hand_row(tx, edited[0].hand_id)  # read again under the table's lock
    if old.status == m.VOIDED:
        raise LedgerError("edit_taken_back", "这条消息记下的牌局已经作废")
    old_events = tx.execute(_LIVE_EVENTS, {"hand_id": old.id}).all()
    edited_ids = {row.id for row in edited} & {row.id for row in old_events}
    if not edited_ids:  # undone meanwhile
        raise LedgerError("edit_taken_back", "这条消息记下的事件已经撤销")
    first = next(i for i, row in enumerate(old_events) if row.id in edited_ids)
    kept: list[_Told] = [
        (row.payload, row.source, row.created_at, row.created_by) for row in old_events if row.id not in edited_ids
    ]
    batch = payloads(events, [told[0] for told in kept[:first]])
    if batch == [row.payload for row in old_events if row.id in edited_ids]:
        raise LedgerError("unchanged", "改过的消息和原来记的一样，没有重记")
    return table, old, kept, first, batch, old_events[first].created_by


def _rescored(table: _Table, old: Any, merged: list[Payload], fresh: range) -> tuple[dict[str, Any], bool]:
    """The edited hand's events (`merged`; `fresh`: the edit's) scored as its dealer dealt it, or refused."""
    if misplaced_terminal(table.game, merged):
        raise LedgerError("events_after_end", "胡牌/荒庄之后不能再记事件")
    if old.status != m.OPEN and not is_terminal(table.game, merged[-1]):
        raise LedgerError("hand_not_finished", "改过的这一局必须仍以胡牌或荒庄结束")
    return _score(table, old.dealer, merged, fresh)


# ---------------------------------------------------------------------------------------------- reading


def hand_state(tx: Tx, table_id: int) -> HandState:
    """The open hand for display: events so far, 亮倒 declarations, number, dealer, money booked so far."""
    row = tx.execute(
        sa.select(m.GameTable.group_id, m.GameTable.night_id, m.GameTable.hand_number, m.GameTable.dealer).where(
            m.GameTable.id == table_id
        )
    ).first()
    if row is None:
        raise LedgerError("not_found", f"找不到这个桌（{table_id}）")
    hand = _open_hand(tx, table_id)
    events = hand.events if hand is not None else []
    by_id = names(tx, row.group_id)
    index_of = {event.id: i for i, event in enumerate(events)}
    live = sorted((t for event in events for t in event.transfers), key=lambda t: t.id)
    payloads_ = tuple(event.payload for event in events)
    return HandState(
        table_id=table_id,
        hand_id=hand.id if hand is not None else None,
        number=row.hand_number,
        dealer=hand.dealer if hand is not None else row.dealer,
        events=payloads_,
        liangdao=liangdao(payloads_),
        transfers=tuple(transfers.info(t, by_id, index_of) for t in live),
        night_totals=tuple(
            NightTotal(member, amount) for member, amount in sorted(night_totals(tx, row.night_id).items())
        ),
    )
