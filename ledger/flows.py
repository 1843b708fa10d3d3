"""Button flows: the state of an inline-keyboard conversation (a win or kong told by tapping), kept in the
database under the bot message that carries the buttons, so a restart mid-flow loses nothing.

A flow nobody finishes (a 胡 started and left, a question never answered) expires rather than waiting forever:
those of a table are finished when the table ends (`end_with_table`: 结算, 开桌 over it, the 日切 roll-over), and
any left untouched for `IDLE` by the bot's hourly upkeep (`expire_idle`; a record left waiting first, by
`expire_records`, for its chat to be told). Finished rows stay: a press on their buttons, or an update delivered
again, still finds them and is answered as expired. A flow its table's end finished says so in its state
(`Flow.ended_with_table`) and stays finished when 撤销结算 opens the table again: its buttons were closed by the
settlement, and a press then says so rather than carry out a confirmation (an undo, a payment …) nobody gave
again. Undoing a table's void opens its flows again (`reopen_with_table`): the void undone is as if never made."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import models as m
from ledger.records import ENDED_WITH_TABLE, HOLDS_HAND, TOLD_AT, Flow
from ledger.unit import Tx


def save(tx: Tx, chat_id: int, message_id: int, user_id: int, kind: str, state: Mapping[str, Any]) -> Flow:
    """Create or update the flow attached to a bot message; a saved state is live (a finished flow asked again,
    e.g. after its message was edited, is open again, no longer `ended_with_table`)."""
    flow = _find(tx.session, chat_id, message_id)
    if flow is None:
        flow = m.FlowState(chat_id=chat_id, message_id=message_id, created_at=tx.now)
        tx.session.add(flow)
    live = {key: value for key, value in state.items() if key != ENDED_WITH_TABLE}
    if HOLDS_HAND in live:  # a record held unbooked: when it was told decides its night at the 日切 hour
        live.setdefault(TOLD_AT, tx.now.isoformat())
    flow.user_id, flow.kind, flow.state, flow.updated_at = user_id, kind, live, tx.now
    flow.finished_at = None
    tx.session.flush()
    return flow_info(flow)


def load(tx: Tx, chat_id: int, message_id: int) -> Flow | None:
    flow = _find(tx.session, chat_id, message_id)
    return flow_info(flow) if flow is not None else None


def finish(tx: Tx, chat_id: int, message_id: int) -> Flow | None:
    flow = _find(tx.session, chat_id, message_id)
    if flow is None:
        return None
    if flow.finished_at is None:
        flow.finished_at = flow.updated_at = tx.now
    return flow_info(flow)


def unfinished(tx: Tx, chat_id: int | None, user_id: int | None = None, kinds: Collection[str] = ()) -> list[Flow]:
    query = sa.select(m.FlowState).where(m.FlowState.finished_at.is_(None)).order_by(m.FlowState.id)
    if chat_id is not None:
        query = query.where(m.FlowState.chat_id == chat_id)
    if user_id is not None:
        query = query.where(m.FlowState.user_id == user_id)
    if kinds:
        query = query.where(m.FlowState.kind.in_(sorted(kinds)))
    return [flow_info(flow) for flow in tx.session.scalars(query)]


#: how long a record left waiting holds its table's night past the 日切 hour (`holds_hand`): a hand's answers come
#: within minutes; one left for hours is no reason to book the next evening's play into last night
HOLDS_FOR = timedelta(hours=2)


def holds_hand(tx: Tx, group_id: int, table_id: int, number: int) -> bool:
    """Whether a flow still waiting, touched within `HOLDS_FOR`, holds a record of the table's hand `number`
    unbooked (`HOLDS_HAND`). Asked only when the 日切 hour would roll the table over: the win path reads nothing
    more."""
    chat = sa.select(m.Group.chat_id).where(m.Group.id == group_id).scalar_subquery()
    query = sa.select(m.FlowState.state).where(
        m.FlowState.chat_id == chat,
        m.FlowState.finished_at.is_(None),
        m.FlowState.updated_at >= tx.now - HOLDS_FOR,
    )
    return any(
        state.get("table_id") == table_id and state.get(HOLDS_HAND) == number for state in tx.session.scalars(query)
    )


#: how long a flow may wait untouched (no press, no answer) before the upkeep finishes it
IDLE = timedelta(hours=24)


def end_with_table(tx: Tx, chat_id: int, table_id: int) -> int:
    """Finish the chat's flows still waiting at a table that ends (their buttons could only answer 「牌桌已经换了」),
    marked `ENDED_WITH_TABLE`; how many. A flow's table is in its state (`table_id`), so the chat's few waiting
    flows are read and checked."""
    query = sa.select(m.FlowState).where(m.FlowState.chat_id == chat_id, m.FlowState.finished_at.is_(None))
    ended = [flow for flow in tx.session.scalars(query) if flow.state.get("table_id") == table_id]
    for flow in ended:
        flow.state = {**flow.state, ENDED_WITH_TABLE: True}  # a new dict: the JSON column sees the change
        flow.finished_at = flow.updated_at = tx.now
    return len(ended)


def reopen_with_table(tx: Tx, chat_id: int, table_id: int, ended_at: datetime) -> int:
    """Open again the chat's flows the end of the table at `ended_at` finished (`end_with_table`), as its void is
    undone: the questions waiting then wait again, their buttons live; how many."""
    query = sa.select(m.FlowState).where(m.FlowState.chat_id == chat_id, m.FlowState.finished_at == ended_at)
    ended = [
        flow
        for flow in tx.session.scalars(query)
        if flow.state.get("table_id") == table_id and flow.state.get(ENDED_WITH_TABLE)
    ]
    for flow in ended:
        flow.state = {key: value for key, value in flow.state.items() if key != ENDED_WITH_TABLE}
        flow.finished_at, flow.updated_at = None, tx.now
    return len(ended)


def expire_records(tx: Tx, before: datetime) -> list[Flow]:
    """Finish the flows holding a record unbooked (`HOLDS_HAND`: a win waiting for its 漂/马, a 胡/杠 by taps whose
    player is chosen) last touched before `before`; those finished here. Each is claimed by its own update of a
    row still waiting, so of two upkeeps running at once only one finishes it (and has its chat told)."""
    query = sa.select(m.FlowState).where(m.FlowState.finished_at.is_(None), m.FlowState.updated_at < before)
    held = [flow for flow in tx.session.scalars(query) if flow.state.get(HOLDS_HAND)]
    claimed = []
    for flow in held:
        claim = sa.update(m.FlowState).where(m.FlowState.id == flow.id, m.FlowState.finished_at.is_(None))
        result = tx.session.execute(
            claim.values(finished_at=tx.now, updated_at=tx.now), execution_options={"synchronize_session": False}
        )
        if getattr(result, "rowcount", 0) == 1:
            claimed.append(flow)
    for flow in claimed:
        tx.session.refresh(flow)
    return [flow_info(flow) for flow in claimed]


def expire_idle(tx: Tx, before: datetime) -> int:
    """Finish every flow still waiting that was last touched before `before` (any chat); how many."""
    stale = sa.update(m.FlowState).where(m.FlowState.finished_at.is_(None), m.FlowState.updated_at < before)
    result = tx.session.execute(
        stale.values(finished_at=tx.now, updated_at=tx.now), execution_options={"synchronize_session": False}
    )
    return max(int(getattr(result, "rowcount", 0)), 0)


def _find(session: Session, chat_id: int, message_id: int) -> m.FlowState | None:
    return session.scalar(
        sa.select(m.FlowState).where(m.FlowState.chat_id == chat_id, m.FlowState.message_id == message_id)
    )


def flow_info(flow: m.FlowState) -> Flow:
    return Flow(
        chat_id=flow.chat_id,
        message_id=flow.message_id,
        user_id=flow.user_id,
        kind=flow.kind,
        state=dict(flow.state),
        created_at=flow.created_at,
        updated_at=flow.updated_at,
        finished_at=flow.finished_at,
    )
