"""Nights and tables: a night is one evening's play, ended by 结算 or by the group's 日切 hour; a table seats its
players in a night with a snapshot of the group's rules and 底金, and counts its hands and dealer."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import fees, flows, money, payments, transfers
from ledger import models as m
from ledger.accounts import (
    GAME_NAMES,
    clean_name,
    get_member,
    group_by_chat,
    group_info,
    guest,
    lock_group,
    names,
    numbered,
    reads_as,
)
from ledger.chat_options import merges_debts
from ledger.errors import LedgerError, PaidSince
from ledger.hands import SEATS
from ledger.moderation_models import ModerationSettings
from ledger.money import night_balances, passed_lines, settlement_of, store_settlement
from ledger.payments import pair_debts
from ledger.records import (
    TAPPED_KINDS,
    ChatView,
    NightClosed,
    NightInfo,
    Payment,
    Seat,
    Settlement,
    TableInfo,
    Unsettled,
)
from ledger.scope import latest_night
from ledger.unit import Tx, get_row

#: a table and its seats (with who sits there), one row per seat in play order
_TABLE_COLUMNS = (
    m.GameTable.id.label("t_id"),
    m.GameTable.group_id.label("t_group_id"),
    m.GameTable.night_id.label("t_night_id"),
    m.GameTable.game.label("t_game"),
    m.GameTable.rules.label("t_rules"),
    m.GameTable.base.label("t_base"),
    m.GameTable.dealer.label("t_dealer"),
    m.GameTable.hand_number.label("t_hand_number"),
    m.GameTable.started_at.label("t_started_at"),
    m.GameTable.ended_at.label("t_ended_at"),
    m.Seat.position.label("s_position"),
    m.Seat.name.label("s_name"),
    m.Seat.member_id.label("s_member_id"),
    m.Member.user_id.label("s_user_id"),
    m.Member.username.label("s_username"),
)
#: what `group_info` reads of a group (not when it was made)
_GROUP_COLUMNS = tuple(
    column.label(f"g_{column.key}") for column in m.Group.__table__.columns if column.key != "created_at"
)

_TABLE_BY_ID = (
    sa.select(*_TABLE_COLUMNS)
    .join(m.Seat, m.Seat.table_id == m.GameTable.id)
    .join(m.Member, m.Member.id == m.Seat.member_id)
    .where(m.GameTable.id == sa.bindparam("table_id"))
    .order_by(m.Seat.position)
)
#: how many button flows the sender (`user_id`) started in the chat are still waiting (`ix_flows_waiting`)
_WAITING = (
    sa.select(sa.func.count())
    .select_from(m.FlowState)
    .where(
        m.FlowState.chat_id == sa.bindparam("chat_id"),
        m.FlowState.user_id == sa.bindparam("user_id"),
        m.FlowState.finished_at.is_(None),
    )
    .scalar_subquery()
)
#: how many 胡/杠 told by taps are still waiting in the chat, anyone's (`ChatView.tapping`)
_TAPPING = (
    sa.select(sa.func.count())
    .select_from(m.FlowState)
    .where(
        m.FlowState.chat_id == sa.bindparam("chat_id"),
        m.FlowState.finished_at.is_(None),
        m.FlowState.kind.in_(TAPPED_KINDS),
    )
    .scalar_subquery()
)
#: the chat's group (with its 群规 overrides) and its open table (if any) with the seats, and the sender's flows
#: waiting: everything the bot reads before it handles a message
_CHAT_VIEW = (
    sa.select(
        *_GROUP_COLUMNS,
        ModerationSettings.overrides.label("moderation"),
        _WAITING.label("waiting"),
        _TAPPING.label("tapping"),
        *_TABLE_COLUMNS,
    )
    .select_from(m.Group)
    .outerjoin(ModerationSettings, ModerationSettings.group_id == m.Group.id)
    .outerjoin(m.GameTable, sa.and_(m.GameTable.group_id == m.Group.id, m.GameTable.ended_at.is_(None)))
    .outerjoin(m.Seat, m.Seat.table_id == m.GameTable.id)
    .outerjoin(m.Member, m.Member.id == m.Seat.member_id)
    .where(m.Group.chat_id == sa.bindparam("chat_id"))
    .order_by(m.Seat.position)
)


def table_from_rows(rows: Sequence[Any]) -> TableInfo:
    """A table from the rows of a query over `_TABLE_COLUMNS` (one per seat)."""
    first = rows[0]
    return TableInfo(
        id=first.t_id,
        group_id=first.t_group_id,
        night_id=first.t_night_id,
        game=first.t_game,
        rules=dict(first.t_rules),
        base=first.t_base,
        seats=tuple(Seat(r.s_position, r.s_name, r.s_member_id, r.s_user_id, r.s_username) for r in rows),
        dealer=first.t_dealer,
        hand_number=first.t_hand_number,
        started_at=first.t_started_at,
        ended_at=first.t_ended_at,
    )


def chat_view(tx: Tx, chat_id: int, user_id: int | None = None) -> ChatView | None:
    """The group of a chat and its open table, how many flows `user_id` started there still wait and how many 胡/杠
    told by taps wait there, in one query;
    None when the chat has no group yet."""
    rows = tx.execute(_CHAT_VIEW, {"chat_id": chat_id, "user_id": user_id}).all()
    if not rows:
        return None
    first = rows[0]
    group = group_info(_Prefixed(first, "g_"), moderation=first.moderation or {})
    table = table_from_rows(rows) if first.t_id is not None else None
    return ChatView(group, table, waiting=first.waiting, tapping=first.tapping)


class _Prefixed:
    """A row's `g_`-labelled columns under their own names."""

    def __init__(self, row: Any, prefix: str) -> None:
        self._row, self._prefix = row, prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def table(tx: Tx, table_id: int) -> TableInfo:
    rows = tx.execute(_TABLE_BY_ID, {"table_id": table_id}).all()
    if not rows:
        raise LedgerError("not_found", f"找不到这个桌（{table_id}）")
    return table_from_rows(rows)


def current_table(tx: Tx, chat_id: int) -> TableInfo | None:
    view = chat_view(tx, chat_id)
    return view.table if view is not None else None


# ------------------------------------------------------------------------------------------------- nights


def night_date(timezone: str, cutoff_hour: int, now: datetime) -> date:
    """The night a moment belongs to: the local date, counting hours before the 日切 hour as the day before."""
    local = now.astimezone(ZoneInfo(timezone))
    return (local - timedelta(hours=cutoff_hour)).date()


def open_night(session: Session, group_id: int) -> m.Night | None:
    return session.scalar(sa.select(m.Night).where(m.Night.group_id == group_id, m.Night.ended_at.is_(None)))


def current_night(tx: Tx, chat_id: int) -> NightInfo | None:
    session = tx.session
    group = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    night = open_night(session, group.id) if group is not None else None
    return night_info(night) if night is not None else None


def night_shown_as_tonight(tx: Tx, chat_id: int) -> NightInfo | None:
    """What 本晚 means to a player: the open night, else the group's latest night while it is still tonight by the
    日切 hour (a night settled this evening still shows its results until then, not zeros)."""
    group = tx.session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    night = latest_night(tx.session, group.id) if group is not None else None
    if night is None or group is None:
        return None
    if night.ended_at is not None and night.night_date != night_date(group.timezone, group.cutoff_hour, tx.now):
        return None
    return night_info(night)


def tonight(tx: Tx, group: m.Group) -> m.Night:
    """The group's open night if it is tonight's (by 日切); otherwise close it and open tonight's."""
    wanted = night_date(group.timezone, group.cutoff_hour, tx.now)
    night = open_night(tx.session, group.id)
    if night is not None and night.night_date == wanted:
        return night
    if night is not None:
        close_night(tx, group, night)
    night = m.Night(group_id=group.id, night_date=wanted, started_at=tx.now)
    tx.session.add(night)
    tx.session.flush()
    return night


def close_night(tx: Tx, group: m.Group, night: m.Night) -> Settlement:
    """End the night (and its open table), book its 台费 (`ledger.fees`) and store its settlement."""
    session = tx.session
    table_row = open_table_of(session, group.id)
    ended = None
    if table_row is not None and table_row.night_id == night.id:
        end(tx, table_row)
        ended = table_row.id
    night.ended_at, night.ended_by = tx.now, tx.by
    movement = transfers.Movement()
    if fees.book_night_fees(tx, group.id, night.id, movement):
        transfers.apply(tx, movement)
    session.flush()
    settlement = settlement_of(night_balances(tx, night), carried_debts(tx, group, night))
    balances = {line.member_id: line.amount for line in settlement.balances.lines}
    record_id, passed = store_settlement(
        tx,
        group.id,
        night.id,
        settlement.payments,
        balances,
        settlement.carried,
        exact=settlement.exact,
        table_id=ended,
    )
    return dataclasses.replace(settlement, id=record_id, passed=passed_lines(passed, names(tx, group.id)))


def carried_debts(tx: Tx, group: m.Group, night: m.Night) -> list[Payment]:
    """The open debts among the night's players that its settlement nets in (none when the group keeps nights
    separate: `设置 并账 关`). A debt to or from the pot or the house is never netted in (nobody sits as them): it
    passes through the account right after the settlement is stored (`payments.pass_through`)."""
    if not merges_debts(tx.session, group.id):
        return []
    found = pair_debts(tx, group.id)
    if not found:
        return []
    players = set(
        tx.session.scalars(
            sa.select(m.Seat.member_id)
            .join(m.GameTable, m.GameTable.id == m.Seat.table_id)
            .where(m.GameTable.night_id == night.id)
        )
    )
    by_id = names(tx, group.id)
    return [
        Payment(debtor, by_id.get(debtor, "?"), creditor, by_id.get(creditor, "?"), amount)
        for (debtor, creditor), amount in sorted(found.items())
        if debtor in players and creditor in players
    ]


def end_night(tx: Tx, chat_id: int) -> NightClosed:
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    night = open_night(session, group.id)
    if night is None:
        raise LedgerError("no_night", "现在没有进行中的牌局")
    settlement = close_night(tx, group, night)
    return NightClosed(night=night_info(night), settlement=settlement)


# ------------------------------------------------------------------------------------------ 撤销结算

#: why a settlement is taken back (its `void_reason`, and that of the 台费 its close booked)
UNSETTLE_REASON = "撤销结算"


def settlement_to_undo(tx: Tx, group_id: int) -> m.SettlementRecord:
    """The group's latest night settlement when it can be taken back (撤销结算): nothing was settled after it (a
    later night, or money of the pot or the house settled at once: a payout passed on what it left owed), no night
    was opened since, and no payment counts on it (`refuse_if_paid_since`). Otherwise refused with the reason."""
    session = tx.session
    live = sa.and_(m.SettlementRecord.group_id == group_id, m.SettlementRecord.voided_at.is_(None))
    record = session.scalar(
        sa.select(m.SettlementRecord)
        .where(live, m.SettlementRecord.night_id.is_not(None))
        .order_by(m.SettlementRecord.id.desc())
        .limit(1)
    )
    if record is None:
        raise LedgerError("no_settlement", "还没有可以撤销的结算", "there is no settlement to take back")
    later = session.scalar(
        sa.select(m.SettlementRecord).where(live, m.SettlementRecord.id > record.id).order_by(m.SettlementRecord.id)
    )
    if later is not None:
        raise _settled_since(tx, group_id, record, later)
    newer = open_night(session, group_id)
    if newer is not None:
        raise LedgerError(
            "night_since",
            "结算之后已经开始新的一晚了（开了桌），上一晚的结算不能再撤销",
            "a new night has begun since (a table was opened), so the last night's settlement stays",
        )
    refuse_if_paid_since(tx, group_id, record, "结算", "撤销结算")
    return record


def refuse_if_paid_since(tx: Tx, group_id: int, record: m.SettlementRecord, what: str, undo: str) -> None:
    """Refused (`PaidSince`, naming each payment) while a live payment depends on `record`: taking it back would
    leave that payment paying a debt that is no longer owed. A payment depends on it when it recorded one of its
    lines (`payment_lines`); when it was booked after it and, with it taken back, its pair would owe less than
    nothing its way (it paid beyond its own line into this one's); or, booked before payments recorded their line
    (migration 0016: no line), when it is between two people whose debts `record` moved and was booked or
    confirmed after it. A payment of another settlement's line is no dependency. `what` is what is taken back
    (结算, 发红包池, 付台费), `undo` its command."""
    home = payments.homes(tx, group_id)
    pairs = {frozenset((home.get(a, a), home.get(b, b))) for a, b in _pairs_of(record)}
    after: dict[tuple[int, int], int] = {}  # what each debtor owes each creditor (less than 0: owed the other way)
    for (debtor, creditor), amount in pair_debts(tx, group_id).items():
        after[(debtor, creditor)], after[(creditor, debtor)] = amount, -amount
    # with `record` taken back
    for debtor, creditor, amount in _undo_moves(record, home):
        after[(debtor, creditor)] = after.get((debtor, creditor), 0) + amount
        after[(creditor, debtor)] = after.get((creditor, debtor), 0) - amount
    held = []
    for creditor, debtor, amount, created_at, line in tx.execute(
        payments.live_with_lines(
            group_id,
            m.Transfer.payer_id,
            m.Transfer.payee_id,
            m.Transfer.amount,
            m.Transfer.created_at,
            m.PaymentLine.settlement_id,
        ).where(sa.or_(m.Transfer.created_at >= record.created_at, m.Transfer.confirmed_at >= record.created_at))
    ):
        pair = (home.get(debtor, debtor), home.get(creditor, creditor))
        if line == record.id:
            held.append((debtor, creditor, amount))
        elif frozenset(pair) not in pairs:
            continue
        elif line is None or (created_at >= record.created_at and after.get(pair, 0) < 0):
            held.append((debtor, creditor, amount))
    if held:
        by_id = names(tx, group_id)
        currency = tx.session.scalar(sa.select(m.Group.currency).where(m.Group.id == group_id)) or ""
        listed = [Payment(d, by_id.get(d, "?"), c, by_id.get(c, "?"), amount) for d, c, amount in held]
        raise PaidSince(listed, currency, what, undo)


def reverse_debts(tx: Tx, group_id: int, record: m.SettlementRecord) -> None:
    """Move back exactly the debts a stored settlement moved (`_undo_moves`)."""
    payments.move_debts(tx, group_id, _undo_moves(record, payments.homes(tx, group_id)))


def _undo_moves(record: m.SettlementRecord, home: Mapping[int, int]) -> list[tuple[int, int, int]]:
    """The debt moves that take back a stored settlement: its lines and passes taken away, the earlier debts it
    netted in owed apart again, as `(debtor, creditor, 分)` on the accounts the money lives under now (`home`,
    `payments.homes`: a guest linked since is its member)."""
    moves = [(int(p["payer_id"]), int(p["payee_id"]), -int(p["amount"])) for p in record.payments or ()]
    moves += [(int(d), int(c), int(a)) for d, c, a in record.carried or ()]
    moves += [
        (debtor, creditor, -amount)
        for x, y, a, pool in record.passed or ()
        for debtor, creditor, amount in payments.passing(int(x), int(y), int(a), int(pool))
    ]
    return [(home.get(d, d), home.get(c, c), amount) for d, c, amount in moves]


def _pairs_of(record: m.SettlementRecord) -> list[tuple[int, int]]:
    """The pairs whose debts a settlement moved: its lines, the debts it netted in, its passes (both legs)."""
    pairs = [(int(line["payer_id"]), int(line["payee_id"])) for line in record.payments or ()]
    pairs += [(int(d), int(c)) for d, c, _ in record.carried or ()]
    for x, y, _, pool in record.passed or ():
        pairs += [(int(x), int(y)), (int(x), int(pool)), (int(pool), int(y))]
    return pairs


def _settled_since(tx: Tx, group_id: int, record: m.SettlementRecord, later: m.SettlementRecord) -> LedgerError:
    """Why a settlement with a later one stays: a night settled since, a payout of the pot or the house (what it
    left owed was passed on), or a fine booked between nights (settled at once)."""
    if later.night_id is not None:
        return LedgerError(
            "settled_since", "之后又结算过一晚，这次结算不能再撤销", "a later night has been settled since"
        )
    paid_out = tx.session.scalar(
        sa.select(m.Member.kind)
        .join(m.Transfer, m.Transfer.payer_id == m.Member.id)
        .where(
            m.Transfer.group_id == group_id,
            m.Transfer.kind == m.PAYOUT,
            m.Transfer.night_id.is_(None),
            m.Transfer.voided_at.is_(None),
            m.Transfer.created_at >= record.created_at,
        )
        .limit(1)
    )
    if paid_out is not None:
        what, command = ("红包池", "发红包池") if paid_out == m.POT else ("台费", "付台费")
        return LedgerError(
            "paid_out_since",
            f"结算之后{what}已经发出去过（{command}），欠{what}的钱已经转给领钱的人，这次结算不能再撤销",
            f"the {'pot' if paid_out == m.POT else 'house'} has been paid out since ({command}), and what was owed "
            "to it passed on to those paid",
        )
    return LedgerError(
        "settled_since",
        "结算之后又记过牌局外的罚款（已单独结算），这次结算不能再撤销",
        "a fine booked between nights has been settled since",
    )


def unsettle(tx: Tx, chat_id: int, expect: int | None = None) -> Unsettled:
    """Take back the group's latest night settlement (`settlement_to_undo`; `expect`: the one a question showed,
    refused if it is no longer the latest): its debts move back exactly (its lines and passes taken away, the
    earlier debts it netted in owed apart again), the 台费 its close booked is voided, and the night is open again
    with the table the close ended, whose hands can then be recorded, undone and edited again. The settlement
    stays, voided (who, when, why)."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    record = settlement_to_undo(tx, group.id)
    if expect is not None and record.id != expect:
        raise LedgerError(
            "settlement_changed",
            "要撤销的结算已经不是最近的那次了，没有撤销",
            "the settlement asked about is no longer the latest: nothing was taken back",
        )
    settlement = money.stored(tx, record)
    reverse_debts(tx, group.id, record)
    night = lock_night(session, record.night_id)
    movement = transfers.Movement()
    booked_fees = [
        transfers.live(row)
        for row in tx.execute(
            sa.select(*transfers.LIVE_COLUMNS).where(
                m.Transfer.night_id == night.id,
                m.Transfer.kind == m.FEE,
                m.Transfer.reason == fees.NIGHT_FEE,
                m.Transfer.voided_at.is_(None),
            )
        )
    ]
    transfers.void(tx, booked_fees, UNSETTLE_REASON, movement)
    transfers.apply(tx, movement)
    record.voided_at, record.voided_by, record.void_reason = tx.now, tx.by, UNSETTLE_REASON
    night.ended_at, night.ended_by = None, None
    if record.table_id is not None:
        table_row = lock_table(session, record.table_id)
        table_row.ended_at, table_row.ended_by = None, None
    session.flush()
    return Unsettled(
        night=night_info(night),
        settlement=settlement,
        table=table(tx, record.table_id) if record.table_id is not None else None,
        fees=sum(fee.amount for fee in booked_fees),
    )


def lock_night(session: Session, night_id: int | None) -> m.Night:
    found = session.scalar(
        sa.select(m.Night).where(m.Night.id == night_id).with_for_update().execution_options(populate_existing=True)
    )
    if found is None:
        raise LedgerError("not_found", f"找不到这一晚（{night_id}）")
    return found


# ------------------------------------------------------------------------------------------------- tables


def open_table_of(session: Session, group_id: int) -> m.GameTable | None:
    return session.scalar(
        sa.select(m.GameTable).where(m.GameTable.group_id == group_id, m.GameTable.ended_at.is_(None))
    )


def lock_table(session: Session, table_id: int) -> m.GameTable:
    found = session.scalar(
        sa.select(m.GameTable)
        .where(m.GameTable.id == table_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if found is None:
        raise LedgerError("not_found", f"找不到这一桌（{table_id}）")
    return found


def open_table(tx: Tx, chat_id: int, players: Sequence[int | str], dealer: int | str | None) -> TableInfo:
    """Seat players (in play order: member ids, or a guest's name, the guest created as needed) at a new table of
    the group's game with a snapshot of its rules, in tonight's night (opened as needed); an open table of the
    chat is ended first. A refusal creates no guest: the guests are created in the table's transaction."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    want = SEATS[group.game]
    if len(players) != want:
        raise LedgerError("bad_seats", f"{GAME_NAMES[group.game]}需要 {want} 位不同的玩家，收到 {len(players)} 位")
    seats = [_seat_id(tx, chat_id, player) for player in players]
    dealer = _seat_id(tx, chat_id, dealer) if dealer is not None else None
    if len(set(seats)) != len(seats):
        raise LedgerError("bad_seats", f"{GAME_NAMES[group.game]}需要 {want} 位不同的玩家，收到 {len(players)} 位")
    people = [get_member(session, member_id) for member_id in seats]
    for person in people:
        if person.group_id != group.id or person.kind in m.POOLS or person.linked_to_id is not None:
            raise LedgerError("bad_member", f"{person.name} 不能入座")
    if dealer is not None and dealer not in seats:
        raise LedgerError("bad_dealer", "庄家必须是入座的玩家")
    old = open_table_of(session, group.id)
    if old is not None:
        end(tx, old)
    night = tonight(tx, group)
    seated = seat_names(people, names(tx, group.id))
    dealer_name = None if group.game == "gouji" else seated[seats.index(dealer) if dealer is not None else 0]
    created = seat_table(tx, group.id, night.id, group.game, dict(group.rules), group.base, dealer_name, seats, seated)
    return table(tx, created)


def _seat_id(tx: Tx, chat_id: int, player: int | str) -> int:
    """A seat's member id: the id given, or the unlinked guest of the name given (created when new)."""
    return player if isinstance(player, int) else guest(tx, chat_id, clean_name(player, "客人名字")).id


def seat_table(
    tx: Tx,
    group_id: int,
    night_id: int,
    game: str,
    rules: dict[str, Any],
    base: int,
    dealer: str | None,
    member_ids: Sequence[int],
    names: Sequence[str],
) -> int:
    """Write a new table and its seats; returns its id."""
    new = m.GameTable(
        group_id=group_id,
        night_id=night_id,
        game=game,
        rules=rules,
        base=base,
        dealer=dealer,
        hand_number=1,
        started_at=tx.now,
        started_by=tx.by,
    )
    tx.session.add(new)
    tx.session.flush()
    for position, (member_id, name) in enumerate(zip(member_ids, names, strict=True)):
        tx.session.add(m.Seat(table_id=new.id, position=position, name=name, member_id=member_id))
    tx.session.flush()
    return new.id


def end_table(tx: Tx, table_id: int) -> TableInfo:
    """End a table; refused while its hand has events (finish or undo them first)."""
    found = lock_table(tx.session, table_id)
    if found.ended_at is not None:
        raise LedgerError("table_ended", "这一桌已经结束")
    end(tx, found)
    return table(tx, table_id)


def end(tx: Tx, table_row: m.GameTable) -> None:
    """End a table whose hand in progress has no events (an empty open hand is voided as 空局)."""
    session = tx.session
    lock_table(session, table_row.id)
    hand = session.scalar(sa.select(m.Hand).where(m.Hand.table_id == table_row.id, m.Hand.status == m.OPEN))
    if hand is not None:
        live = session.scalar(
            sa.select(sa.func.count())
            .select_from(m.HandEvent)
            .where(m.HandEvent.hand_id == hand.id, m.HandEvent.voided_at.is_(None))
        )
        if live:
            raise LedgerError("hand_in_progress", f"第 {hand.number} 局还没打完：先记完或撤销")
        hand.status, hand.voided_at, hand.voided_by, hand.void_reason = m.VOIDED, tx.now, tx.by, "空局"
    table_row.ended_at, table_row.ended_by = tx.now, tx.by
    group = session.get(m.Group, table_row.group_id)
    assert group is not None
    flows.end_with_table(tx, group.chat_id, table_row.id)
    session.flush()


def seat_names(people: Sequence[m.Member], shown: Mapping[int, str] | None = None) -> list[str]:
    """Seat keys: each player's ledger name as the group shows it (`shown`, distinct in the group: `names`),
    made unique within the table (ignoring case) with a #2, #3 suffix. A name spelled like another seated
    player's Telegram username is suffixed too: a seat name typed at the table must never read as someone
    else's `@username`."""
    usernames = {(p.id, (p.username or "").casefold()) for p in people if p.username}
    seated: list[str] = []
    for person in people:
        theirs = {folded for owner, folded in usernames if owner != person.id}
        base = (shown or {}).get(person.id, person.name)
        seated.append(numbered(base, {*(reads_as(taken) for taken in seated), *theirs}))
    return seated


def night_info(night: Any) -> NightInfo:
    return NightInfo(
        id=night.id,
        group_id=night.group_id,
        night_date=night.night_date,
        started_at=night.started_at,
        ended_at=night.ended_at,
    )


def get_table(session: Session, table_id: int) -> m.GameTable:
    found: m.GameTable = get_row(session, m.GameTable, table_id, "桌")
    return found
