"""撤销 (undo): takes back exactly one record, the table's latest — a kong, a 亮倒, a win, a draw (a 一炮双响's two
wins are one record). Taking back a win or a draw reopens that hand with its kongs and 亮倒; `撤销 第3局` voids a
finished hand whole. A refused line is never a record, so 撤销 after one takes back the record before it.

Taking back someone else's record, or reaching into a finished hand, asks first (`bot.permissions`): the reply
names the record, who made it and when, with 「确认撤销」/「不撤销」 for a seated player or an admin. The question
lives in the ledger's flow table (kind `undo`); the confirmation names the record it showed, so if the table moved
on meanwhile nothing is undone. The reply says precisely what was taken back and what the hand now holds.
"""

from __future__ import annotations

from typing import Any

from bot.commands._common import (
    FlowStep,
    asked_already,
    change_lines,
    current_table,
    flow_key,
    flow_step,
    net_by_member,
)
from bot.commands._recording import recorded_by
from bot.core import AnswerCallback, Button, Context, HandlerResult, Quiet, Refusal, SendText, registry
from bot.grammar import fold, hand_number
from bot.permissions import UNDO, require_player, undo_needs_confirmation
from bot.texts import describe_event, describe_record, joined
from bot.vocabulary import COMMAND_WORDS
from ledger.service import TableInfo, TableRecord, VoidResult

KIND = "undo"
PREFIX = "ud"


@registry.command(
    "undo",
    names=["undo"],
    aliases=COMMAND_WORDS["undo"],
    help_zh="撤销：撤回这桌最后一条记录（杠、亮倒、胡、荒庄；撤回胡或荒庄会重新打开那一局）｜ 撤销 第3局：整局作废",
    help_en="undo the table's latest record (a kong, 亮倒, win or draw; a win or draw reopens its hand) | "
    "撤销 第3局: void a whole finished hand",
)
def undo(ctx: Context) -> SendText:
    table = current_table(ctx)
    require_player(ctx, table, UNDO)
    if ctx.service.answered(ctx.source):  # a redelivered update: its undo was done
        return ctx.reply("undo_again")
    if ctx.args:
        number = hand_number(fold(ctx.args))  # `撤销 第3局`, `撤销第一局`, `撤销 第12把`
        if number is None:
            raise Refusal("undo_bad_words", word=ctx.args.strip())
        record = ctx.service.finished_hand(table.id, number)
        if record is None:
            raise Refusal("undo_no_hand", number=number)
        return _ask(ctx, table, record, whole_hand=True)
    record = ctx.service.latest_record(table.id)
    if record is None:
        raise Refusal("ledger_nothing_to_undo")
    if undo_needs_confirmation(ctx, record):
        return _ask(ctx, table, record, whole_hand=False)
    result = ctx.service.undo(
        table.id, source=ctx.source, by=ctx.sender.user_id, reason="撤销", expect=record.event_ids[-1]
    )
    what = describe_record(ctx.lang, result.events, table.game)
    return SendText(undone_text(ctx, table, result, what), reply_to=ctx.message_id)


def _ask(ctx: Context, table: TableInfo, record: TableRecord, *, whole_hand: bool) -> SendText:
    """Store what would be undone and ask for a confirmation (once per update)."""
    key = flow_key(ctx)
    if asked_already(ctx, key):
        raise Quiet  # this very update asked already (a redelivery)
    what = describe_record(ctx.lang, record.events, table.game)
    state: dict[str, Any] = {
        "table_id": table.id,
        "target": f"h{record.hand_id}" if whole_hand else f"e{record.event_ids[-1]}",
        "number": record.hand_number,
        "what": what,
        "asked": ctx.source,
    }
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    if whole_hand:
        question = ctx.t("undo_ask_hand", number=record.hand_number, what=what)
    else:
        key_text = "undo_ask_other"
        if record.finished:
            key_text = "undo_ask_finished" if table.game == "kawuxing" else "undo_ask_finished_other"
        question = ctx.t(key_text, by=recorded_by(ctx, record), number=record.hand_number, what=what)
    buttons = (
        (Button(ctx.t("btn_undo_yes"), f"{PREFIX}:{key}:ok"), Button(ctx.t("btn_undo_no"), f"{PREFIX}:{key}:keep")),
    )
    return SendText(question, buttons=buttons, reply_to=ctx.message_id, asks=True)


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确认撤销」 undoes what the question named (if it is still what it was); 「不撤销」 drops the question."""
    step = flow_step(ctx, KIND, current_table)
    if not isinstance(step, FlowStep):
        return step
    if step.action == "keep":
        ctx.service.finish_flow(ctx.chat_id, step.key)
        kept = ctx.t("undo_kept")
        return [AnswerCallback(kept), SendText(kept, edit_message_id=step.edit)]
    if step.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    table, state = step.table, step.state
    target = str(state["target"])
    source = f"{ctx.source.rsplit(':', 1)[0]}:{step.key}:undo"
    if target.startswith("h"):
        result = ctx.service.void_hand(
            int(target[1:]),
            source=source,
            by=ctx.sender.user_id,
            reason=f"撤销 第{state['number']}局",
            table_id=table.id,
        )
    else:
        result = ctx.service.undo(table.id, source=source, by=ctx.sender.user_id, reason="撤销", expect=int(target[1:]))
    ctx.service.finish_flow(ctx.chat_id, step.key)
    if result.replayed:
        return AnswerCallback(ctx.t("already_done"))
    text = undone_text(ctx, table, result, str(state["what"]))
    return [AnswerCallback(), SendText(text, edit_message_id=step.edit)]


def undone_text(ctx: Context, table: TableInfo, result: VoidResult, what: str) -> str:
    """What was taken back, each seat's change and night total, and what the hand now holds."""
    number = result.number if result.number is not None else result.hand_number
    head = {"event": "undo_done_event", "reopened": "undo_done_reopened", "hand": "undo_done_hand"}[result.what]
    lines = [ctx.t(head, number=number, what=what)]
    changes = net_by_member(result.rebooked, result.voided)
    if changes:
        lines += change_lines(ctx, table, changes, result.night_total)
    if result.what == "hand":
        key = "table_now" if result.dealer is not None else "table_now_no_dealer"
        lines.append(ctx.t(key, number=result.hand_number, dealer=result.dealer))
        return "\n".join(lines)
    key = "hand_continues" if result.dealer is not None else "hand_continues_no_dealer"
    lines.append(ctx.t(key, number=result.hand_number, dealer=result.dealer))
    held = [describe_event(ctx.lang, event, table.game, result.dealer) for event in result.remaining]
    lines.append(ctx.t("hand_events", events=joined(ctx.lang, held, "；")) if held else ctx.t("hand_empty"))
    return "\n".join(lines)
