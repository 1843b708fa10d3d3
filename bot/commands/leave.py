"""`退桌`: leave a table one never agreed to. Anyone may open a table seating others (one friend opens for everyone,
nothing to tap), so a member seated by someone else may void it while they have taken no part in it — opened,
recorded or taken back nothing at it —: the table ends and every hand booked at it is voided, its money back. Once
they took part it is their game too: their 退桌 says how to stop (结算) and voids nothing, an admin's too.

An admin voids the open table with `作废这桌` (or, not seated, `退桌`): with hands booked at it, only after the
question naming the hands and the money going back gets its 「作废这桌」 press (an admin's). `我没上桌` from someone
not seated is chat. A void is itself undone by `撤销` from its voider or an admin (`restore`, `ledger.leaving.
restore_table`): the table open again, every hand and transfer the void took back live again, exactly.

Once money has moved at the table, the void would wipe what others won, so a member's 退桌 is only asked: it
voids once a seated player up at the table (`ledger.leaving.agreers`; with none who has an account, any other
seated member) presses 「同意作废」 or types `同意`, or an admin does. A loser who never took part cannot wipe the
winners' money alone, while a member truly seated by mistake (their friends know it) is out with one word of theirs.
「不同意」 (anyone seated, or an admin) or the leaver's `算了` drops it; a record booked meanwhile expires it (what
it would void is no longer what it said)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.commands._common import (
    FlowStep,
    asked_already,
    current_table,
    flow_key,
    flow_step,
    my_seat,
    no_table,
    shown_names,
    written_mention,
)
from bot.commands.dispute import CLAIMED_DISPUTE_WORDS, OWN_DISPUTE_WORDS, dispute
from bot.commands.questions import cancel_by_typing, typed_answer
from bot.commands.regional import refuse_while_waiting
from bot.core import (
    AnswerCallback,
    Button,
    CallbackQuery,
    Context,
    Effect,
    HandlerResult,
    Quiet,
    Refusal,
    SendText,
    registry,
)
from bot.grammar import asks
from bot.permissions import plays_at
from bot.texts import listed, money, register
from ledger.errors import LedgerError
from ledger.leaving import Agreer, TableLeft
from ledger.service import Flow, TableInfo

KIND = "leave"
PREFIX = "lv"
#: what one not seated says by these is that they are not playing: chat, never a void (an admin's `退桌` asks)
NOT_PLAYING_WORDS = ("我没上桌", "我没同意上桌")

register(
    {
        "leave_table_done": {
            "zh": "🚪 {name} 退桌：这桌是 {opener} 开的，{name} 没同意上桌。牌桌作废：{what}要打请重新开桌。",
            "en": "🚪 {name} left the table {opener} opened without their agreement. The table is void: {what}"
            "Open a new one to play.",
        },
        "leave_table_admin": {
            "zh": "🚪 管理员 {name} 作废了这桌（{opener} 开的）：{what}",
            "en": "🚪 Admin {name} voided the table {opener} opened: {what}",
        },
        "leave_table_hands": {
            "zh": "记下的 {hands} 局都撤销了，钱已退回。",
            "en": "its {hands} hand(s) are taken back, the money returned. ",
        },
        "leave_table_nothing": {"zh": "还没有记账。", "en": "nothing was booked yet. "},
        "leave_table_reason": {"zh": "退桌：没同意上桌", "en": "left: seated without agreeing"},
        "leave_void_reason": {"zh": "管理员作废整桌", "en": "an admin voided the table"},
        "leave_table_took_part": {
            "zh": "没有作废：这桌你开过、记过、撤过牌或赢过钱，算你同意上桌了。不打了就发「结算」收桌；"
            "整桌作废要管理员发「作废这桌」。",
            "en": "Not voided: you opened, recorded, took back or won something at this table, so you agreed to play. "
            "To stop, send settle; only an admin voids the whole table (void table).",
        },
        "leave_table_too_late": {
            "zh": "没有作废：开桌超过 30 分钟了，坐着打了这么久，算你同意上桌了。"
            "要作废请找管理员（管理员发 作废这桌）。",
            "en": "Not voided: the table opened over 30 minutes ago, so you played at it. Ask an admin to void it "
            "(an admin sends void table).",
        },
        "leave_table_ask": {
            "zh": "🚪 {name} 要退桌：说没同意上桌。这桌已经记了账，作废会把记下的都撤销，{winners} 赢的钱也退回。"
            "要作废，{who} 点「同意作废」或发 同意（管理员也可以）；不作废，桌上的人点「不同意」或发 不同意。",
            "en": "🚪 {name} wants to leave: seated without agreeing. Hands are booked at this table; voiding it takes "
            "them all back, {winners}'s winnings too. To void it, {who} presses “Agree” or types agree (or an admin "
            "does); to keep it, anyone seated presses “Don't agree” or types disagree.",
        },
        "leave_table_agreed": {"zh": "（{by} 同意了）", "en": " ({by} agreed)"},
        "leave_table_kept": {
            "zh": "没有作废：{name} 的退桌没有得到同意，这桌照常。",
            "en": "Not voided: {name}'s leaving was not agreed to; the table goes on.",
        },
        "leave_table_kept_typed": {
            "zh": "好的，不退桌了（上面的按钮已经作废）。",
            "en": "OK, not leaving (the buttons above expired).",
        },
        "leave_table_needs_agreement": {
            "zh": "没有作废：要作废这桌，得桌上赢钱的人同意。",
            "en": "Not voided: the players up at this table must agree first.",
        },
        "leave_table_not_agreer": {
            "zh": "你的「同意」不算数：作废这桌要 {who} 同意（或管理员），作废退回的是赢家的钱。",
            "en": "Your agree does not count: voiding the table is for {who} to agree to (or an admin): it is their "
            "winnings the void takes back.",
        },
        "leave_table_moved": {
            "zh": "这桌在问过之后又记了账，这个退桌问题作废了（没有作废牌桌）。还要退桌请再发 退桌。",
            "en": "Something was booked at the table since the question; it expired (nothing voided). Send leave table "
            "again to ask again.",
        },
        "leave_table_agreed_typed": {
            "zh": "好的，这桌作废了（上面那条已经改成结果）。",
            "en": "Done: the table is void (the question above now says so).",
        },
        "leave_table_kept_not_dispute": {
            "zh": "好的，这桌不作废（上面那条已经改成结果）。这个「不同意」答的是退桌；要说记录不对，再发 他没胡。",
            "en": "OK, the table stays (the question above now says so). Your disagree answered the leave-table "
            "question; to dispute the record, send dispute.",
        },
        "leave_table_kept_by_typing": {
            "zh": "好的，这桌不作废（上面那条已经改成结果）。",
            "en": "OK, the table stays (the question above now says so).",
        },
        "leave_void_ask": {
            "zh": "🚪 作废这桌（{opener} 开的）？记下的 {hands} 局都会撤销，{amount} 输赢全部退回。"
            "确定就点「作废这桌」（管理员），不作废点「不作废」。作废后发「撤销」可以恢复。",
            "en": "🚪 Void this table ({opener} opened it)? Its {hands} hand(s) are taken back and {amount} of "
            "winnings returned. Press “Void table” (an admin) to confirm, “Keep it” to keep it. Send undo afterwards "
            "to restore it.",
        },
        "leave_void_kept": {"zh": "没有作废：这桌照常。", "en": "Not voided: the table goes on."},
        "leave_void_admins_only": {
            "zh": "整桌作废要管理员确认。不打了就发「结算」收桌。",
            "en": "Only an admin voids a whole table. To stop, send settle.",
        },
        "leave_void_undo_hint": {
            "zh": "（要恢复，{name} 或管理员发「撤销」。）",
            "en": " (To restore it, {name} or an admin sends undo.)",
        },
        "leave_restored": {
            "zh": "↩️ 撤销了作废：这桌（{opener} 开的）恢复了，记下的 {hands} 局照旧算数，{amount} 输赢记回去了。",
            "en": "↩️ Void undone: the table {opener} opened is back, its {hands} hand(s) count again and {amount} of "
            "winnings are booked back.",
        },
        "leave_restore_not_voider": {
            "zh": "这桌是 {name} 作废的：只有 TA 或管理员能撤销作废。",
            "en": "{name} voided this table: only they or an admin may undo the void.",
        },
        "leave_restored_questions": {
            "zh": "作废时还在等回答的 {count} 个问题也恢复了：上面的按钮照常能点。",
            "en": "The {count} question(s) waiting when it was voided are back too: their buttons above work again.",
        },
        "btn_leave_void": {"zh": "作废这桌", "en": "Void table"},
        "btn_leave_void_keep": {"zh": "不作废", "en": "Keep it"},
        "btn_leave_agree": {"zh": "同意作废", "en": "Agree"},
        "btn_leave_keep": {"zh": "不同意", "en": "Don't agree"},
        "leave_table_not_seated": {
            "zh": "你不在这桌上，不用退桌。",
            "en": "You have no seat at this table: nothing to leave.",
        },
    }
)


@registry.command(
    "leave_table",
    names=["leavetable"],
    aliases=["退桌", "我没上桌", "我没同意上桌", "leave table"],
    help_zh="退桌：别人把你拉上桌、你没同意（这桌你还没开过、记过、撤过牌），牌桌作废、记的账全部撤销（已经有人赢了钱："
    "要赢钱的人同意）；管理员随时可以",
    help_en="leave table: you were seated without agreeing (and did nothing at the table): the table is void, "
    "its hands taken back (once someone won money there: when they agree); an admin always may",
    in_menu=False,
)
def leave_table(ctx: Context) -> SendText:
    if ctx.args.strip():
        raise Quiet  # `退桌了吗` / `退桌 明天再说`: chat
    table = ctx.table
    seated = table is not None and my_seat(ctx, table) is not None
    if not seated and ctx.word in NOT_PLAYING_WORDS:
        raise Quiet  # `我没上桌` from one not seated says just that: chat, never a void
    if table is None:
        raise no_table(ctx)
    refuse_while_waiting(ctx, table, "waiting_action_leave")
    if not seated and ctx.is_admin:
        return _void(ctx, table)  # an admin not playing: the table's void, asked first
    try:
        left = ctx.service.leave_table(
            table.id,
            ctx.sender.user_id,
            admin=False,
            source=ctx.source,
            reason=ctx.t("leave_table_reason"),
        )
    except LedgerError as err:
        if err.code in ("took_part", "not_seated", "too_late"):
            raise Refusal(f"leave_table_{err.code}") from err
        if err.code == "needs_agreement":
            return _ask(ctx)
        raise
    return SendText(_left_text(ctx, left, admin=False), reply_to=ctx.message_id)


@registry.command(
    "void_table",
    names=["voidtable"],
    aliases=["作废这桌", "作废牌桌", "作废本桌", "void table"],
    help_zh="作废这桌：管理员把开着的这桌整桌作废（记的账全部撤销，先问确认；之后发 撤销 可以恢复）",
    help_en="void table: an admin voids the open table whole (its hands taken back; asked first; undo restores it)",
    in_menu=False,
)
def void_table(ctx: Context) -> SendText:
    if ctx.args.strip():
        raise Quiet
    table = ctx.table
    if table is None:
        raise no_table(ctx)
    if not ctx.is_admin:
        raise Refusal("leave_void_admins_only")
    refuse_while_waiting(ctx, table, "waiting_action_leave")
    return _void(ctx, table)


def _void(ctx: Context, table: TableInfo) -> SendText:
    """An admin's void of the open table: at once while nothing is booked at it; else asked with a button naming the
    hands and the money it takes back (one word never wipes a night), the 「作废这桌」 press an admin's."""
    preview = ctx.service.void_preview(table.id)
    if not preview.hands:
        return SendText(_voided(ctx, table.id, ctx.source), reply_to=ctx.message_id)
    key = flow_key(ctx)
    if asked_already(ctx, key):
        raise Quiet
    latest = ctx.service.latest_record(table.id)
    state: dict[str, Any] = {
        "table_id": table.id,
        "void": True,
        "leaver": ctx.sender.user_id,
        "agreers": [],
        "latest": latest.event_ids[-1] if latest is not None else None,
        "asked": ctx.source,
    }
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    text = ctx.t(
        "leave_void_ask",
        opener=_opener(ctx, preview.opened_by),
        hands=preview.hands,
        amount=money(preview.amount, ctx.group.currency),
    )
    buttons = (
        (
            Button(ctx.t("btn_leave_void"), f"{PREFIX}:{key}:ok"),
            Button(ctx.t("btn_leave_void_keep"), f"{PREFIX}:{key}:keep"),
        ),
    )
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


def _opener(ctx: Context, opened_by: int | None) -> str:
    return shown_names(ctx).get(opened_by, "?") if opened_by is not None else "?"


def _voided(ctx: Context, table_id: int, source: str) -> str:
    """An admin's void carried out: what it took back, and that 撤销 restores it."""
    left = ctx.service.leave_table(
        table_id, ctx.sender.user_id, admin=True, source=source, reason=ctx.t("leave_void_reason")
    )
    hint = ctx.t("leave_void_undo_hint", name=ctx.sender.name)
    return _left_text(ctx, left, admin=True) + hint


def restore(ctx: Context) -> SendText | None:
    """`撤销` with no table open, after a void ended the group's latest table: the void undone, exactly (its voider's
    or an admin's); None when no void can be undone."""
    voided = ctx.service.voided_table(ctx.chat_id)
    if voided is None:
        return None
    if not ctx.is_admin and voided.voided_by != ctx.sender.user_id:
        person = next((m for m in ctx.service.members(ctx.chat_id) if m.user_id == voided.voided_by), None)
        raise Refusal("leave_restore_not_voider", name=person.name if person is not None else ctx.t("someone"))
    restored = ctx.service.restore_table(ctx.chat_id, ctx.sender.user_id, admin=ctx.is_admin, source=ctx.source)
    amount = money(voided.amount, ctx.group.currency)
    text = ctx.t("leave_restored", opener=_opener(ctx, voided.opened_by), hands=voided.hands, amount=amount)
    if restored.questions:  # what waited for an answer when the void came waits again, its buttons live
        text += "\n" + ctx.t("leave_restored_questions", count=restored.questions)
    return SendText(text, reply_to=ctx.message_id)


def _left_text(ctx: Context, left: TableLeft, *, admin: bool, agreed: str = "") -> str:
    """What a void says: the leaver's 退桌 (with who agreed), or an admin's."""
    what = ctx.t("leave_table_hands", hands=left.hands) if left.hands else ctx.t("leave_table_nothing")
    opener = _opener(ctx, left.opened_by)
    if left.seat is not None and not admin:
        done = ctx.t("leave_table_done", name=left.seat, opener=opener, what=what)
        return done + (ctx.t("leave_table_agreed", by=agreed) if agreed else "")
    return ctx.t("leave_table_admin", name=ctx.sender.name, opener=opener, what=what)


def _ask(ctx: Context) -> SendText:
    """The question a member's 退桌 gets once money moved at the table: put to those who must agree, @-mentioned."""
    table = current_table(ctx)
    key = flow_key(ctx)
    if asked_already(ctx, key):
        raise Quiet
    needed = ctx.service.leave_agreers(table.id, ctx.sender.user_id)
    latest = ctx.service.latest_record(table.id)
    seat = my_seat(ctx, table) or ctx.sender.name
    state: dict[str, Any] = {
        "table_id": table.id,
        "leaver": ctx.sender.user_id,
        "seat": seat,
        "agreers": [agreer.user_id for agreer in needed],
        "agreer_names": [agreer.seat for agreer in needed],
        "latest": latest.event_ids[-1] if latest is not None else None,
        "asked": ctx.source,
    }
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    winners = listed(ctx.lang, (agreer.seat for agreer in needed))
    who = listed(ctx.lang, (_mention(ctx, agreer) for agreer in needed), "or")
    buttons = (
        (
            Button(ctx.t("btn_leave_agree"), f"{PREFIX}:{key}:ok"),
            Button(ctx.t("btn_leave_keep"), f"{PREFIX}:{key}:keep"),
        ),
    )
    text = ctx.t("leave_table_ask", name=seat, winners=winners, who=who)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


def _mention(ctx: Context, agreer: Agreer) -> str:
    person = next((m for m in ctx.service.members(ctx.chat_id) if m.user_id == agreer.user_id), None)
    return written_mention(ctx, person.id, agreer.seat) if person is not None else agreer.seat


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「同意作废」 from one who must agree (or an admin) voids the table as the leaver's 退桌 would have; 「不同意」
    from anyone seated (or an admin) drops the question. Expired once the table booked anything since."""
    step = flow_step(ctx, KIND, current_table)
    if not isinstance(step, FlowStep):
        return step
    state = step.state
    if step.action == "keep":
        ctx.service.finish_flow(ctx.chat_id, step.key)
        return [AnswerCallback(), SendText(_kept(ctx, state), edit_message_id=step.edit)]
    if step.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    if state.get("void") and not ctx.is_admin:
        return AnswerCallback(ctx.t("leave_void_admins_only"), alert=True)
    if not ctx.is_admin and ctx.sender.user_id not in state["agreers"]:
        who = listed(ctx.lang, state["agreer_names"], "or")
        return AnswerCallback(ctx.t("leave_table_not_agreer", who=who), alert=True)
    latest = ctx.service.latest_record(step.table.id)
    if (latest.event_ids[-1] if latest is not None else None) != state["latest"]:
        ctx.service.finish_flow(ctx.chat_id, step.key)
        moved = ctx.t("leave_table_moved")
        return [AnswerCallback(moved, alert=True), SendText(moved, edit_message_id=step.edit)]
    source = f"{ctx.source.rsplit(':', 1)[0]}:{step.key}:leave"
    ctx.service.finish_flow(ctx.chat_id, step.key)  # answered before the void: undoing it never asks it again
    if state.get("void"):
        text = _voided(ctx, step.table.id, source)
        return [AnswerCallback(), SendText(text, edit_message_id=step.edit)]
    admin = ctx.sender.user_id not in state["agreers"]  # an admin's word: voided as an admin's 退桌 voids
    try:
        left = ctx.service.leave_table(
            step.table.id,
            int(state["leaver"]),
            admin=admin,
            source=source,
            reason=ctx.t("leave_table_reason"),
            agreed_by=None if admin else ctx.sender.user_id,
        )
    except LedgerError as err:
        if err.code in ("took_part", "not_seated", "too_late", "needs_agreement"):
            raise Refusal(f"leave_table_{err.code}") from err
        raise
    text = _left_text(ctx, left, admin=False, agreed=ctx.sender.name)
    return [AnswerCallback(), SendText(text, edit_message_id=step.edit)]


def _kept(ctx: Context, state: Mapping[str, Any]) -> str:
    return ctx.t("leave_void_kept") if state.get("void") else ctx.t("leave_table_kept", name=state["seat"])


cancel_by_typing(KIND, PREFIX, _kept, "leave_table_kept_typed")


@registry.command(
    "leave_agree",
    names=["agree"],
    aliases=["同意", "同意作废", "同意退桌", "agree"],
    help_zh="同意：有人退桌、这桌已经记了账时，桌上赢钱的人（或管理员）打这句就作废这桌，和点「同意作废」一样",
    help_en="agree: when someone leaves a table with hands booked, one up at it (or an admin) types it to void the "
    "table, as pressing “Agree”",
    in_menu=False,
)
def agree(ctx: Context) -> list[Effect]:
    """A typed 同意, alone: the latest 退桌 question at the open table that the sender may agree to (one it names,
    or any for an admin), answered as their 「同意作废」 press; anything else is chat. English `agree` only in a group
    that reads English (or `/agree`)."""
    seated = ctx.table is not None and plays_at(ctx, ctx.table)  # not theirs to agree to: told whose it is
    return _typed_press(
        ctx,
        "ok",
        lambda flow: (
            (ctx.sender.user_id in flow.state.get("agreers", ()) or ctx.is_admin or seated)
            and flow.user_id != ctx.sender.user_id
        ),
    )


@registry.command(
    "leave_keep",
    names=["disagree"],
    aliases=["不同意", "不行", "disagree", *OWN_DISPUTE_WORDS, *CLAIMED_DISPUTE_WORDS],
    help_zh="不同意：有人退桌、这桌已经记了账时，桌上的人（或管理员）打这句就不作废，和点「不同意」一样",
    help_en="disagree: when someone leaves a table with hands booked, anyone seated (or an admin) types it to keep "
    "the table, as pressing “Don't agree”",
    in_menu=False,
)
def keep(ctx: Context) -> list[Effect]:
    """A typed 不同意 (`不行`), alone, from anyone seated or an admin: the latest 退桌 question at the open table
    answered as their 「不同意」 press; with none waiting, 不同意 (`我也不同意`, `我们都不同意`) disputes a record
    (`dispute.dispute`); else, or from anyone else, chat. English `disagree` (`i disagree too`, `we both disagree`)
    only in a group that reads English (or `/disagree`)."""
    table = ctx.table
    if table is None or not plays_at(ctx, table):
        raise Quiet
    try:
        return _typed_press(ctx, "keep", lambda _flow: True)
    except Quiet:
        typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
        english = ctx.word.isascii() and not typed.startswith("/")  # `disagree`: said so only in an English group
        if ctx.word == "不行" or ctx.args.strip() or (english and ctx.group.language != "en"):
            raise
    return dispute(ctx)  # no 退桌 question waiting: 不同意 says a record is false


def _typed_press(ctx: Context, action: str, may: Callable[[Flow], bool]) -> list[Effect]:
    """A typed answer to the latest 退桌 question at the open table that `may` lets the sender answer, as the press of
    its `action` button; the word alone (not asked, nothing after it), or chat. A `不同意` that kept the table from a
    player not up at it (neither the leaver, an agreer nor an admin) may have meant a record (不同意 is also the
    dispute word): told what it did and how to dispute one."""
    table = ctx.table
    typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
    english = ctx.word.isascii() and not typed.startswith("/")
    if ctx.args.strip() or table is None or asks(typed) or (english and ctx.group.language != "en"):
        raise Quiet
    asked = [
        flow
        for flow in reversed(ctx.service.open_flows(ctx.chat_id, kinds=(KIND,)))
        if flow.state.get("table_id") == table.id and may(flow)
    ]
    if not asked:
        raise Quiet
    flow = asked[0]
    message = int(flow.state.get("message") or 0)
    query = CallbackQuery(
        query_id=f"typed:{ctx.message_id}",
        chat_id=ctx.chat_id,
        message_id=message,
        sender=ctx.sender,
        data=f"{PREFIX}:{flow.message_id}:{action}",
        date=ctx.now(),
        source=ctx.source,
        admin_ids=ctx.admin_ids,
        owner_id=ctx.owner_id,
    )
    typed_reply = "leave_table_agreed_typed" if action == "ok" else "leave_table_kept_by_typing"
    sender = ctx.sender.user_id
    disputing = ctx.word in ("不同意", "disagree")  # the dispute's words too (`不行` is not)
    if disputing and not ctx.is_admin and sender != flow.user_id and sender not in flow.state.get("agreers", ()):
        typed_reply = "leave_table_kept_not_dispute"
    return typed_answer(ctx, ctx.bot.handle_callback(query).effects, message, typed_reply)
