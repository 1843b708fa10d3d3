"""撤销 (undo): takes back exactly one record, the table's latest — a kong, a 亮倒, a win, a draw (a 一炮双响's two
wins are one record). Taking back a win or a draw reopens that hand with its kongs and 亮倒; `撤销 第3局` voids a
finished hand whole. A refused line is never a record, so 撤销 after one takes back the record before it.

Taking back someone else's record, or reaching into a finished hand, asks first (`bot.permissions`): the reply
names the record, who made it and when, with 「确认撤销」/「不撤销」 for whoever asked, or an admin
(`permissions.may_answer`). The question lives in the ledger's flow table (kind `undo`), with the message it was
posted as; the confirmation names the record it showed, so if the table moved on meanwhile nothing is undone. The
reply says precisely what was taken back and what the hand now holds. While it waits, the asker's typed `算了`
(`不撤销`, `取消` …) answers it as 「不撤销」 does (`bot.commands.questions`), their 撤销 of the same record points
to it rather than asking twice, and their new record is refused until they answer
(`_common.refuse_while_undo_asked`).

撤销 sent as a reply to the message that recorded something takes back what that message recorded, found by its
source (`Ledger.message_hand`), at whichever table it was: at the open table, the table's latest record as plain
撤销 does (when that message made it), or its finished hand whole as `撤销 第N局`; at a table that has ended since
(开桌 seated another), its hand whole, an admin's only, after an admin's confirmation (kind `undo_ended`). A reply
to a bot's message is plain 撤销; to anyone's message that recorded nothing, or whose record was taken back, a
refusal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from bot.commands import leave
from bot.commands._common import (
    CONFIRMER,
    CONFIRMER_NAME,
    EDIT_REASON,
    UNDO_QUESTION,
    Confirmation,
    FlowStep,
    admin_press,
    ask_admin,
    asked_already,
    carry_out,
    change_lines,
    confirmed_step,
    current_table,
    described,
    flow_key,
    named_events,
    net_by_member,
    questions_waiting,
    seats_named_now,
    undo_labels,
    what_said,
    written_mention,
)
from bot.commands._recording import recorded_by, who_and_when
from bot.commands.correct import correction
from bot.commands.dispute import contest_note
from bot.commands.questions import cancel_by_typing, confirm_by_typing, typed_yes_label
from bot.commands.regional import drop_waiting
from bot.commands.settle import settled_tonight
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.grammar import clean, fold, hand_number
from bot.permissions import UNDO, require_player, undo_needs_confirmation
from bot.texts import describe_event, describe_record, joined
from bot.vocabulary import CHATTY_WORDS, COMMAND_WORDS, LAST_HAND_WORDS, UNDO_LAST_EN, UNDO_YES_WORDS, UNDO_YES_WORDS_EN
from ledger.service import Flow, MessageHand, TableInfo, TableRecord, VoidResult

KIND = UNDO_QUESTION
PREFIX = "ud"
#: a reply's 撤销 of a hand at a table that has ended: an admin's question (`ask_admin`)
ENDED_KIND = "undo_ended"
#: 撤销's questions, both kinds: what a typed 「不撤销」 answers and a second 撤销 points to
QUESTIONS = (KIND, ENDED_KIND)
ENDED_PREFIX = "ux"


@registry.command(
    "undo",
    names=["undo"],
    aliases=COMMAND_WORDS["undo"],
    help_zh="撤销：撤回这桌最后一条记录（杠、亮倒、胡、荒庄；撤回胡或荒庄会重新打开那一局）｜ 撤销 第3局：整局作废"
    " ｜ 回复记账的那条消息发 撤销：撤回它记的（已经结束的那一桌：管理员）",
    help_en="undo the table's latest record (a kong, ready (亮倒), win or draw; a win or draw reopens its hand) | "
    "undo hand 3: void a whole finished hand | undo as a reply to a record's message: take back what it recorded "
    "(at a table that has ended: admins)",
)
def undo(ctx: Context) -> HandlerResult:
    if (label := typed_yes_label(ctx)) is not None:  # "Undo it", 「确认撤销」's English label, under its question
        return label
    if ctx.args and clean(fold(ctx.args)) in UNDO_LAST_EN:  # `undo last`: the latest record, as `undo`
        ctx.args = ""
    if ctx.service.answered(ctx.source):  # a redelivered update: its undo was done
        return ctx.reply("undo_again")
    if asked_already(ctx, flow_key(ctx)):
        raise Quiet  # a redelivered update: its question is out (and perhaps answered)
    replied = _replied_hand(ctx)
    if replied is not None and replied.table.ended_at is not None:
        return _ask_ended(ctx, replied)
    if ctx.table is None and not ctx.args.strip() and (restored := leave.restore(ctx)) is not None:
        return restored  # the table a void ended, back as it was
    if ctx.table is None and (tonight := settled_tonight(ctx)) is not None:
        raise Refusal("undo_settled_night", date=tonight.isoformat())  # its table closed with it, not missing
    table = current_table(ctx)
    require_player(ctx, table, UNDO)
    if replied is not None:
        return _undo_replied(ctx, table, replied)
    if ctx.args and ctx.word in CHATTY_WORDS:  # `记错了 是七对`: what it should be, not which hand
        return correction(ctx)
    if ctx.args:
        number = hand_number(fold(ctx.args))  # `撤销 第3局`, `撤销第一局`, `撤销 第12把`
        if clean(fold(ctx.args)) in LAST_HAND_WORDS:  # `撤销 上一局`: the hand last finished at this table
            number = table.hand_number - 1 if table is not None else None
            if not number:
                raise Refusal("history_empty")
        if number is None:
            raise Refusal("undo_bad_words", word=ctx.args.strip())
        record = ctx.service.finished_hand(table.id, number)
        if record is None:
            raise _no_hand(ctx, table, number)
        return _ask(ctx, table, record, whole_hand=True)
    dropped = drop_waiting(ctx, table)  # a record still waiting for its answers is the latest thing told
    if dropped is not None:
        return dropped
    record = ctx.service.latest_record(table.id)
    if record is None:
        raise Refusal("ledger_nothing_to_undo")
    return _take_back(ctx, table, record)


def _no_hand(ctx: Context, table: TableInfo, number: int) -> Refusal:
    """`撤销 第N局` of no finished hand: one taken back whole already is said so, with who took it back and when
    (hand N played again since, as voiding the table's last hand restarts it, is said to be still in play)."""
    voided = ctx.service.voided_hand(table.id, number)
    if voided is None or voided.reason == EDIT_REASON:  # an edit's hand lives on in the one that replaced it
        return Refusal("undo_no_hand", number=number)
    by = ctx.t("undone_by", **who_and_when(ctx, voided.voided_by, voided.voided_by_name, voided.voided_at))
    again = ctx.t("undo_hand_again", number=number) if number == table.hand_number else ""
    return Refusal("undo_hand_voided", number=number, by=by, again=again)


def _replied_hand(ctx: Context) -> MessageHand | None:
    """The hand the message this 撤销 replies to recorded in; None when it replies to nothing, to a bot's message
    (its 已记 reply: plain 撤销) or names a hand itself (`撤销 第3局`). Refused when that message recorded nothing,
    what it recorded was taken back, or that night is settled."""
    incoming = ctx.incoming
    source = incoming.replied_source if incoming is not None else None
    if incoming is None or incoming.reply_to is None or source is None or ctx.args.strip():
        return None
    quoted = incoming.reply_to.sender
    if quoted is None or quoted.is_bot:
        return None
    found = ctx.service.message_hand(source)
    if found is None:
        raise Refusal("undo_reply_nothing")
    return found


def _undo_replied(ctx: Context, table: TableInfo, replied: MessageHand) -> SendText:
    """A reply's 撤销 at the open table: the message's record when it is the table's latest (as plain 撤销), else
    its finished hand whole (as `撤销 第N局`); a record in the hand in progress with others after it stays."""
    latest = ctx.service.latest_record(table.id)
    if latest is not None and latest.event_ids[-1] in replied.event_ids:
        return _take_back(ctx, table, latest)
    record = ctx.service.finished_hand(table.id, replied.number) if replied.finished else None
    if record is None:
        raise Refusal("undo_reply_not_latest", number=replied.number)
    # the question names all the hand holds (the message may be a kong of it): all of it is voided
    return _ask(ctx, table, dataclasses.replace(record, events=replied.events), whole_hand=True)


def _take_back(ctx: Context, table: TableInfo, record: TableRecord) -> SendText:
    """Take back the table's latest record now (the sender's own, in the hand in progress) or ask first."""
    if undo_needs_confirmation(ctx, record):
        return _ask(ctx, table, record, whole_hand=False)
    result = ctx.service.undo(
        table.id, source=ctx.source, by=ctx.sender.user_id, reason="撤销", expect=record.event_ids[-1]
    )
    what = describe_record(ctx.lang, result.events, table.game)
    return SendText(undone_text(ctx, table, result, what), reply_to=ctx.message_id)


def _ask(ctx: Context, table: TableInfo, record: TableRecord, *, whole_hand: bool) -> SendText:
    """Store what would be undone and ask for a confirmation (`undo` asks once per update); the sender's own
    question about the same record, still waiting, is pointed to instead of asked twice."""
    target = f"h{record.hand_id}" if whole_hand else f"e{record.event_ids[-1]}"
    waiting = _waiting(ctx, KIND, target, record.hand_id)
    if waiting is not None:
        return waiting
    key = flow_key(ctx)
    state: dict[str, Any] = {
        "table_id": table.id,
        "target": target,
        "of_hand": record.hand_id,  # not `hand` (a flow of a hand still being played: `questions_waiting`)
        "number": record.hand_number,
        **what_said(ctx, lambda lang: describe_record(lang, record.events, table.game)),
        "asked": ctx.source,
    }
    what = state["what"]
    if whole_hand:
        question = ctx.t("undo_ask_hand", number=record.hand_number, what=what)
    else:
        key_text = "undo_ask_other"
        if record.finished:
            key_text = "undo_ask_finished" if table.game == "kawuxing" else "undo_ask_finished_other"
        question = ctx.t(key_text, by=recorded_by(ctx, record), number=record.hand_number, what=what)
    contested = contest_note(ctx, table, record)
    if contested is not None:  # the players who dispute it see their dispute is what this undo answers
        question += "\n" + contested
    if record.recorded_by != ctx.sender.user_id and not ctx.is_admin:  # theirs: they (or an admin) say yes
        question += "\n" + _ask_confirmer(ctx, record, state)
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    buttons = (
        (Button(ctx.t("btn_undo_yes"), f"{PREFIX}:{key}:ok"), Button(ctx.t("btn_undo_no"), f"{PREFIX}:{key}:keep")),
    )
    return SendText(question, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


def _ask_confirmer(ctx: Context, record: TableRecord, state: dict[str, Any]) -> str:
    """Someone else's record is theirs to give up: the question's state names its recorder, who alone (or an
    admin) confirms (`_common.CONFIRMER`), and the line under the question @-mentions them so they see it."""
    recorder = next((m for m in ctx.service.members(ctx.chat_id) if m.user_id == record.recorded_by), None)
    if record.recorded_by is None or recorder is None:
        state |= {CONFIRMER: None, CONFIRMER_NAME: ctx.t("someone")}
        return ctx.t("undo_ask_admins")
    state |= {CONFIRMER: record.recorded_by, CONFIRMER_NAME: recorder.name}
    return ctx.t("undo_ask_confirmer", who=written_mention(ctx, recorder.id, recorder.name))


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确认撤销」 undoes what the question named (if it is still what it was); 「不撤销」 drops the question. Only
    whoever asked, or an admin, answers it."""
    step = confirmed_step(ctx, KIND, "undo_not_yours", lambda _state: ctx.t("undo_kept"))
    if not isinstance(step, FlowStep):
        return step
    result = _confirmed(ctx, step.table, step.key, step.state)
    if result.replayed:
        return AnswerCallback(ctx.t("already_done"))
    text = undone_text(ctx, step.table, result, described(ctx, step.state))
    return [AnswerCallback(), SendText(text, edit_message_id=step.edit)]


def _confirmed(ctx: Context, table: TableInfo, key: int, state: Mapping[str, Any]) -> VoidResult:
    """What the question `key` showed, taken back (the ledger refuses when the table moved on meanwhile), under one
    source per question: its 「确认撤销」 and its asker's typed yes take back once between them."""
    target = str(state["target"])
    source = f"{ctx.source.rsplit(':', 1)[0]}:{key}:undo"
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
    ctx.service.finish_flow(ctx.chat_id, key)
    return result


def _typed_yes(ctx: Context, flow: Flow) -> list[Effect]:
    """A typed 对 (是的, 确定, 嗯, 撤吧) under the question: carried out as 「确认撤销」 is, the question rewritten to
    what was taken back, and a short reply to the typed line (`questions_waiting` or `questions_put_to` found the
    flow at the open table). About someone else's record it is its recorder's (or an admin's) yes to give, not the
    asker's: refused, naming whose it is."""
    if CONFIRMER in flow.state and not ctx.is_admin and ctx.sender.user_id != flow.state[CONFIRMER]:
        raise Refusal("confirmer_only", by=flow.state[CONFIRMER_NAME])
    table = current_table(ctx)
    result = _confirmed(ctx, table, flow.message_id, flow.state)
    if result.replayed:
        raise Quiet
    ctx.answered = True
    text = undone_text(ctx, table, result, described(ctx, flow.state))
    message = flow.state.get("message")
    if not message:  # the question's message is not known: what was taken back is the reply itself
        return [SendText(text, reply_to=ctx.message_id)]
    return [SendText(text, edit_message_id=int(message)), ctx.reply("undo_done_typed")]


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


def _ended_names(ctx: Context, replied: MessageHand) -> tuple[TableInfo, str, Callable[[str], str]]:
    """A table that has ended as replies name it now: (the table, its players, what the hand held in a language)."""
    table, names = seats_named_now(ctx, replied.table)
    events = named_events(replied.events, names)
    return table, joined(ctx.lang, table.players), lambda lang: describe_record(lang, events, table.game)


def _ask_ended(ctx: Context, replied: MessageHand) -> SendText:
    """The question for a hand of a table that has ended (an admin's): the hand, its table and night, with
    「确认撤销」/「不撤销」 for an admin."""
    if not ctx.is_admin:
        raise Refusal("undo_reply_table_ended", number=replied.number)
    target = f"h{replied.hand_id}"
    waiting = _waiting(ctx, ENDED_KIND, target)
    if waiting is not None:
        return waiting
    _, players, describe = _ended_names(ctx, replied)
    source = ctx.incoming.replied_source if ctx.incoming is not None else None
    state = {"source": source, "hand_id": replied.hand_id, "number": replied.number, "target": target}
    state |= what_said(ctx, describe)  # named again in the language of whatever replies to it
    date = replied.night_date.isoformat()
    question = ctx.t("undo_ask_ended", number=replied.number, date=date, players=players, what=state["what"])
    return ask_admin(ctx, ENDED_KIND, ENDED_PREFIX, state, question, ctx.t("btn_undo_yes"))


@registry.callback(ENDED_PREFIX)
def press_ended(ctx: Context) -> HandlerResult:
    """「确认撤销」 voids the hand the question showed, if the message still recorded that hand; 「不撤销」 drops the
    question. Admins only, as the question."""
    confirmation = admin_press(ctx, ENDED_KIND, lambda state: _kept(ctx, state))
    if not isinstance(confirmation, Confirmation):
        return confirmation
    number = int(confirmation.state["number"])
    replied: list[MessageHand] = []

    def void() -> VoidResult:
        """The hand voided if the message still recorded the hand the question showed."""
        hand = ctx.service.message_hand(str(confirmation.state["source"]))
        if hand is None or hand.hand_id != int(confirmation.state["hand_id"]):
            raise Refusal("undo_reply_changed", number=number)
        replied.append(hand)
        return ctx.service.void_hand(
            hand.hand_id,
            source=confirmation.source(ctx, "undo"),
            by=ctx.sender.user_id,
            reason=f"撤销 第{number}局",
            table_id=hand.table.id,
        )

    result = carry_out(ctx, confirmation, void)
    if not isinstance(result, VoidResult):
        return result
    table, _, describe = _ended_names(ctx, replied[0])
    lines = [ctx.t("undo_done_ended", number=number, date=replied[0].night_date.isoformat(), what=describe(ctx.lang))]
    lines += change_lines(ctx, table, net_by_member((), result.voided), result.night_total)
    return [AnswerCallback(), SendText("\n".join(lines), edit_message_id=confirmation.message_id)]


# ----------------------------------------------------------------------------------------- a question waiting


def _kept(ctx: Context, _state: Mapping[str, Any]) -> str:
    return ctx.t("undo_kept")


cancel_by_typing(KIND, PREFIX, _kept, "undo_kept_typed")
confirm_by_typing(KIND, _typed_yes, (*UNDO_YES_WORDS, *UNDO_YES_WORDS_EN))
cancel_by_typing(ENDED_KIND, ENDED_PREFIX, _kept, "undo_kept_typed")


def _waiting(ctx: Context, kind: str, target: str, hand_id: int | None = None) -> SendText | None:
    """The reply to a 撤销 whose question the sender asked already and has not answered (the same record, or a
    record of the hand the waiting question voids whole: `撤回` after `撤销上一局`): it points to that question,
    replying to it, rather than asking a second one that would undo otherwise. Another player's 撤销 of the same
    record asks its own (theirs to answer); a 撤销 of another record (the table moved on) asks anew, and so does
    `撤销 第N局` after a 撤销 of the hand's latest record (a question that goes stale once the table moves on)."""

    def same(state: Mapping[str, Any]) -> bool:
        if state.get("target") == target:
            return True
        whole = str(state.get("target")).startswith("h")
        return whole and hand_id is not None and state.get("of_hand") == hand_id

    asked = questions_waiting(ctx, QUESTIONS)
    flow = next((f for f in asked if f.kind == kind and same(f.state)), None)
    if flow is None:
        return None
    state = flow.state
    text = ctx.t("undo_asked_above", number=state["number"], what=described(ctx, state), **undo_labels(ctx, flow))
    return SendText(text, reply_to=int(state.get("message") or flow.message_id))
