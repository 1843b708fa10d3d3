"""Disputes: the players a record does not pay can say it is false (`不同意`, `他没胡`, `不对 他没胡`, replying to
its message or about the table's latest record), with no admin around. A record disputed by a majority of the
table (more than half its seats; its recorder and whoever it pays never count) is voided, as 撤销 would take it
back. One dispute short of that marks it contested: `结算` is refused while a record of the table is contested,
naming it and how to resolve it — its recorder's (or an admin's) `撤销`, the others disputing too, or the
disputers' 「撤回异议」 (an admin's press clears it: the record stands).

The contest is a question flow (kind `dispute`) keyed by the first dispute's message: who disputed, what record
(its last event id), and how many disputes void it. A record taken back or corrected meanwhile leaves the flow
stale: it no longer holds up 结算."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands._common import (
    FlowStep,
    asked_already,
    current_table,
    flow_key,
    flow_step,
    my_seat,
    shown_names,
)
from bot.commands._recording import recorded_by
from bot.commands.questions import cancel_by_typing
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.grammar import asks, clean, fold
from bot.texts import describe_record, listed, register
from ledger.service import Flow, TableInfo, TableRecord

KIND = "dispute"
PREFIX = "dp"
#: what a player says of a false win: the record it answers is disputed (also after 不对/错了: `不对 他没胡`)
DENIALS = ("他没胡", "她没胡", "他没有胡", "她没有胡", "他根本没胡", "她根本没胡", "他没胡啊", "她没胡啊")
#: the sender's own dispute said with a subject (`我也不同意`): the sender's, as `不同意`
OWN_DISPUTE_WORDS = ("我不同意", "我也不同意", "我也不同意的", "i disagree", "i disagree too", "i also disagree")
#: a dispute said for others too (`我们两个都不同意`): only the sender's counts — each disputes for themselves
CLAIMED_DISPUTE_WORDS = (
    "我们都不同意",
    "我们也不同意",
    "我们两个都不同意",
    "我们俩都不同意",
    "我俩都不同意",
    "我们三个都不同意",
    "大家都不同意",
    "we both disagree",
    "we all disagree",
    "we disagree",
)
#: the words a dispute is said with by itself (`不同意` when no 退桌 question waits)
DISPUTE_WORDS = ("不同意", *OWN_DISPUTE_WORDS, *CLAIMED_DISPUTE_WORDS, *DENIALS)

register(
    {
        "dispute_marked": {
            "zh": "⚠️ {by} 不同意第{number}局的记录：{what}（{recorder}）。这条有争议，结算前要解决：{how}",
            "en": "⚠️ {by} disputes hand {number}'s record: {what} ({recorder}). It is contested; before settling: "
            "{how}",
        },
        "dispute_how": {
            "zh": "{recorder_name} 或管理员发「撤销」撤掉它；再有 {more} 人不同意（发 不同意）就作废；"
            "{by} 点「撤回异议」或发 算了 就照常算。",
            "en": "{recorder_name} or an admin sends undo to take it back; {more} more dispute(s) (disagree) void it; "
            "{by} presses “Withdraw” or sends cancel to let it stand.",
        },
        "dispute_again": {
            "zh": "你已经不同意这条了（还差 {more} 人）。",
            "en": "You disputed it already ({more} more needed).",
        },
        "dispute_voided": {
            "zh": "❌ {by} 都不同意，第{number}局的记录作废了：{what}。钱已退回。",
            "en": "❌ {by} disputed it: hand {number}'s record is void: {what}. The money is returned.",
        },
        "dispute_voided_reason": {"zh": "有争议：{by} 不同意", "en": "disputed by {by}"},
        "dispute_withdrawn": {
            "zh": "异议撤回了：第{number}局的记录（{what}）照常算数。",
            "en": "Dispute withdrawn: hand {number}'s record ({what}) stands.",
        },
        "dispute_withdrawn_typed": {
            "zh": "好的，不争了（上面那条已经改成结果）。",
            "en": "OK, the dispute is dropped (the message above now says so).",
        },
        "dispute_not_yours": {
            "zh": "只有不同意的人或管理员能撤回异议。",
            "en": "Only those who disputed it, or an admin, may withdraw the dispute.",
        },
        "dispute_refuse_settle": {
            "zh": "还不能结算：第{number}局的记录 {what} 有争议（{by} 不同意）。{how}",
            "en": "Can't settle yet: hand {number}'s record {what} is contested (disputed by {by}). {how}",
        },
        "dispute_refuse_open": {
            "zh": "还不能开新桌：第{number}局的记录 {what} 有争议（{by} 不同意），开了新桌就只有管理员能撤它了。{how}",
            "en": "Can't open a new table yet: hand {number}'s record {what} is contested (disputed by {by}); once "
            "a new table is open only an admin could take it back. {how}",
        },
        "dispute_undo_note": {
            "zh": "⚠️ 这条有争议：{by} 不同意。撤销了它，争议也就解决了。",
            "en": "⚠️ It is contested: disputed by {by}. Undoing it resolves the dispute.",
        },
        "dispute_only_yours": {
            "zh": "只算了你自己的不同意：别人不同意要自己发「不同意」（不能替别人表态）。",
            "en": "Only your own dispute is counted: the others must each send disagree themselves (nobody disputes "
            "for another).",
        },
        "dispute_counted": {"zh": "记下了（上面那条已经更新）。", "en": "Noted (the message above is updated)."},
        "btn_dispute_withdraw": {"zh": "撤回异议", "en": "Withdraw"},
    }
)


@registry.command(
    "dispute",
    names=["dispute"],
    aliases=DENIALS,
    help_zh="他没胡（不同意）：记错了别人的胡、又没有管理员时，被记输钱的人回复那条记录（或就是最后一条）说一声；"
    "桌上过半的人不同意就作废，有人不同意就不能结算",
    help_en="dispute: said of a record one was charged for (replying to it, or the latest): a majority of the table "
    "disputing it voids it; while one disputes it, settling is refused",
    in_menu=False,
)
def dispute_command(ctx: Context) -> list[Effect]:
    if ctx.args.strip():
        raise Quiet
    return dispute(ctx)


def dispute(ctx: Context) -> list[Effect]:
    """The sender disputes a record (the one their message replies to, else the table's latest): counted, and the
    record voided once a majority of the table disputes it; else marked contested. Chat (no reply) from anyone not
    seated, of one's own record or one that pays the sender, as a question, or with nothing recorded. Said for
    others too (`我们都不同意`), it is still the sender's alone, and the reply says so."""
    effects = _dispute(ctx)
    return [*effects, ctx.reply("dispute_only_yours")] if ctx.word in CLAIMED_DISPUTE_WORDS else effects


def _dispute(ctx: Context) -> list[Effect]:
    table = ctx.table
    typed = ctx.incoming.text if ctx.incoming is not None else ""
    if table is None or my_seat(ctx, table) is None or asks(typed):
        raise Quiet
    record = _disputed_record(ctx, table)
    if record is None or record.recorded_by == ctx.sender.user_id or my_seat(ctx, table) in _paid(record):
        raise Quiet
    last = record.event_ids[-1]
    flow = next((f for f in _contests(ctx, table) if f.state.get("event") == last), None)
    state: dict[str, Any]
    if flow is None:
        key = flow_key(ctx)
        if asked_already(ctx, key):
            raise Quiet
        state = {
            "table_id": table.id,
            "event": last,
            "hand_id": record.hand_id,
            "number": record.hand_number,
            "latest_only": not record.finished,
            "disputers": [],
            "needed": len(table.seats) // 2 + 1,
            "asked": ctx.source,
        }
        owner = ctx.sender.user_id
    else:
        key, state, owner = flow.message_id, dict(flow.state), flow.user_id
    if ctx.sender.user_id in state["disputers"]:
        return [ctx.reply("dispute_again", more=state["needed"] - len(state["disputers"]))]
    state["disputers"] = [*state["disputers"], ctx.sender.user_id]
    if len(state["disputers"]) >= state["needed"]:
        return _void(ctx, table, record, key, state)
    ctx.service.save_flow(ctx.chat_id, key, owner, KIND, state)
    text = ctx.t(
        "dispute_marked",
        by=_names(ctx, table, state["disputers"]),
        number=record.hand_number,
        what=describe_record(ctx.lang, record.events, table.game),
        recorder=recorded_by(ctx, record),
        how=_how(ctx, table, record, state),
    )
    buttons = ((Button(ctx.t("btn_dispute_withdraw"), f"{PREFIX}:{key}:keep"),),)
    if flow is not None and state.get("message"):
        return [SendText(text, buttons=buttons, edit_message_id=int(state["message"])), ctx.reply("dispute_counted")]
    return [SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")]


def _disputed_record(ctx: Context, table: TableInfo) -> TableRecord | None:
    """The record the dispute is about: the message it replies to (that hand's end once it is not the latest),
    else the table's latest record."""
    latest = ctx.service.latest_record(table.id)
    incoming = ctx.incoming
    source = incoming.replied_source if incoming is not None else None
    if incoming is None or incoming.reply_to is None or source is None:
        return latest
    replied = ctx.service.message_hand(source)
    if replied is None or replied.table.id != table.id:
        return None
    if latest is not None and latest.event_ids[-1] in replied.event_ids:
        return latest
    return ctx.service.finished_hand(table.id, replied.number) if replied.finished else None


def _paid(record: TableRecord) -> set[str]:
    """The seats a record pays: its winners and whoever konged."""
    paid = set()
    for event in record.events:
        for key in ("winner", "player"):
            if isinstance(event.get(key), str):
                paid.add(event[key])
        for win in event.get("wins", ()) or ():
            if isinstance(win, Mapping) and isinstance(win.get("winner"), str):
                paid.add(win["winner"])
    return paid


def _contests(ctx: Context, table: TableInfo) -> list[Flow]:
    return [f for f in ctx.service.open_flows(ctx.chat_id, kinds=(KIND,)) if f.state.get("table_id") == table.id]


def _live(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> TableRecord | None:
    """The contested record while it still stands as it was disputed (not taken back or corrected since)."""
    event = int(state["event"])
    latest = ctx.service.latest_record(table.id)
    if latest is not None and event in latest.event_ids:
        return latest
    if state.get("latest_only"):
        return None
    finished = ctx.service.finished_hand(table.id, int(state["number"]))
    return finished if finished is not None and event in finished.event_ids else None


def _names(ctx: Context, table: TableInfo, users: list[int]) -> str:
    return listed(ctx.lang, (table.seat_of_user(user) or "?" for user in users))


def _how(ctx: Context, table: TableInfo, record: TableRecord, state: Mapping[str, Any]) -> str:
    names = shown_names(ctx)
    recorder = next((m for m in ctx.service.members(ctx.chat_id) if m.user_id == record.recorded_by), None)
    recorder_name = names.get(recorder.id, recorder.name) if recorder is not None else ctx.t("someone")
    return ctx.t(
        "dispute_how",
        recorder_name=table.seat_of_user(record.recorded_by or 0) or recorder_name,
        more=state["needed"] - len(state["disputers"]),
        by=_names(ctx, table, state["disputers"]),
    )


def _void(ctx: Context, table: TableInfo, record: TableRecord, key: int, state: Mapping[str, Any]) -> list[Effect]:
    """A majority disputed it: the record taken back as 撤销 would (the hand's end: the whole hand once it is no
    longer the latest), under one source per contest."""
    by = _names(ctx, table, list(state["disputers"]))
    reason = ctx.t("dispute_voided_reason", by=by)
    source = f"{ctx.source.rsplit(':', 1)[0]}:{key}:dispute"
    latest = ctx.service.latest_record(table.id)
    if latest is not None and latest.event_ids[-1] == record.event_ids[-1]:
        result = ctx.service.undo(
            table.id, source=source, by=ctx.sender.user_id, reason=reason, expect=record.event_ids[-1]
        )
    else:
        result = ctx.service.void_hand(
            record.hand_id, source=source, by=ctx.sender.user_id, reason=reason, table_id=table.id
        )
    ctx.service.finish_flow(ctx.chat_id, key)
    what = describe_record(ctx.lang, record.events, table.game)
    text = ctx.t("dispute_voided", by=by, number=record.hand_number, what=what)
    if result.dealer is not None:  # where the table is now: a win taken back reopens its hand
        text += "\n" + ctx.t("table_now", number=result.hand_number, dealer=result.dealer)
    if state.get("message"):
        return [SendText(text, edit_message_id=int(state["message"])), ctx.reply("dispute_counted")]
    return [SendText(text, reply_to=ctx.message_id)]


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「撤回异议」: a disputer withdraws theirs (the last one leaves the record standing), an admin clears them all."""
    step = flow_step(ctx, KIND, current_table)
    if not isinstance(step, FlowStep):
        return step
    state = step.state
    if step.action != "keep":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    if not ctx.is_admin and ctx.sender.user_id not in state["disputers"]:
        return AnswerCallback(ctx.t("dispute_not_yours"), alert=True)
    left = [] if ctx.is_admin else [user for user in state["disputers"] if user != ctx.sender.user_id]
    if left:
        ctx.service.save_flow(ctx.chat_id, step.key, step.user_id, KIND, {**state, "disputers": left})
        return AnswerCallback()
    ctx.service.finish_flow(ctx.chat_id, step.key)
    return [AnswerCallback(), SendText(_withdrawn(ctx, state), edit_message_id=step.edit)]


def _withdrawn(ctx: Context, state: Mapping[str, Any]) -> str:
    table = current_table(ctx)
    record = _live(ctx, table, state)
    what = describe_record(ctx.lang, record.events, table.game) if record is not None else "?"
    return ctx.t("dispute_withdrawn", number=state["number"], what=what)


cancel_by_typing(KIND, PREFIX, _withdrawn, "dispute_withdrawn_typed")


def refuse_while_contested(ctx: Context, table: TableInfo | None, key: str = "dispute_refuse_settle") -> None:
    """结算 and 开桌 over the table wait while a record of it is contested (`key`: which says so): refused naming it,
    who disputed it and how to resolve it — a new table would leave the record to admins alone (a hand of a table
    that has ended is theirs to void), and the dispute with nothing to hold up. A contest whose record was taken
    back or corrected since is finished on the way."""
    if table is None:
        return
    for flow in _contests(ctx, table):
        record = _live(ctx, table, flow.state)
        if record is None:
            ctx.service.finish_flow(ctx.chat_id, flow.message_id)
            continue
        raise Refusal(
            key,
            number=record.hand_number,
            what=describe_record(ctx.lang, record.events, table.game),
            by=_names(ctx, table, list(flow.state["disputers"])),
            how=_how(ctx, table, record, flow.state),
        )


def contest_note(ctx: Context, table: TableInfo, record: TableRecord) -> str | None:
    """The line a 撤销 question about a contested record (or a hand holding one) adds: who disputes it, and that
    taking it back resolves the dispute."""
    for flow in _contests(ctx, table):
        if flow.state.get("event") in record.event_ids:
            return ctx.t("dispute_undo_note", by=_names(ctx, table, list(flow.state["disputers"])))
    return None


def is_denial(words: str) -> bool:
    """`他没胡` after 不对/错了 (`不对 他没胡`, `错了，他没胡`): a dispute, not a correction."""
    return clean(fold(words)).strip("，,。! ！") in DENIALS
