"""结算 (settle): end the night and post the night's report: the per-player table as a picture, with the fewest
transfers that square the night as its caption. 撤销结算 (admins): take back the latest settlement after a
confirmation — the night and its table open again, as they were before 结算 (`ledger.tables.unsettle`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from bot.commands._common import Confirmation, admin_press, ask_admin, asked_already, carry_out, flow_key
from bot.commands.dispute import refuse_while_contested
from bot.commands.questions import cancel_by_typing, press_by_typing
from bot.commands.regional import refuse_while_waiting
from bot.core import AnswerCallback, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.permissions import SETTLE, require_player
from bot.reports.night import settle_post
from bot.texts import describe_event, joined, money
from bot.vocabulary import COMMAND_WORDS, SETTLE_SAID
from ledger.errors import LedgerError
from ledger.records import Replayable
from ledger.service import TableInfo


@registry.command(
    "settle",
    names=["settle", "endnight"],
    aliases=COMMAND_WORDS["settle"],
    help_zh="结算：结束今晚，贴出战报图和最少笔数的转账方案（今晚的账就此封存，之后不能再改，除非管理员 撤销结算；"
    "也可写 算账、结账）",
    help_en="end the night and post its report with the fewest transfers that square it",
)
def settle(ctx: Context) -> list[Effect]:
    if ctx.service.answered(ctx.source):  # a redelivered update: the night was settled, and posted
        return [ctx.reply("already_done")]
    night = ctx.service.current_night(ctx.chat_id)
    if night is None:
        if ctx.word in SETTLE_SAID:
            raise Quiet  # `结算了` after the settlement: said, not asked
        raise _nothing_open(ctx)
    require_player(ctx, ctx.table, SETTLE)
    refuse_while_waiting(ctx, ctx.table, "waiting_action_settle")
    refuse_while_contested(ctx, ctx.table)
    if _nothing_played(ctx, night.id):  # no 「0局」 post: the empty table ends, the night stays open
        if ctx.table is None:
            raise Refusal("nothing_played")
        ctx.service.end_table(ctx.table.id, source=ctx.source, by=ctx.sender.user_id)
        return [ctx.reply("nothing_played_table_ended")]
    try:
        closed = ctx.service.end_night(ctx.chat_id, source=ctx.source, by=ctx.sender.user_id)
    except LedgerError as err:
        if err.code == "hand_in_progress" and ctx.table is not None:  # records in the hand being played, no end
            raise hand_in_progress(ctx, ctx.table, "settle") from err
        raise
    return settle_post(ctx, closed)


def _nothing_played(ctx: Context, night_id: int) -> bool:
    """Whether tonight has nothing to settle: no hand finished, nothing recorded in the hand at the table, no money
    moved (fines, payouts): 结算 would only post 「0局」 and seal an empty night."""
    if ctx.table is not None and ctx.service.hand_state(ctx.table.id).events:
        return False  # a hand under way: 结算 says what it holds (`hand_in_progress`)
    latest = ctx.service.history(ctx.chat_id, 1)
    if latest and latest[0].night_id == night_id:
        return False
    return not any(ctx.service.night_totals(night_id).values())


def hand_in_progress(ctx: Context, table: TableInfo, action: str) -> Refusal:
    """结算 or 开桌 (`action`: settle, open) refused over a hand with records and no end: at 卡五星 named as recorded
    (漂, a kong, 亮倒 …), so nobody is told of a kong nobody made."""
    if table.game != "kawuxing":
        return Refusal(f"{action}_hand_in_progress_other", number=table.hand_number)
    events = ctx.service.hand_state(table.id).events
    what = joined(ctx.lang, dict.fromkeys(describe_event(ctx.lang, event) for event in events), "；")
    return Refusal(f"{action}_hand_in_progress", number=table.hand_number, what=what)


def _nothing_open(ctx: Context) -> Refusal:
    """结算 with no night open: tonight's was settled already (结算 sent twice, two players typing it), said so with
    where its post is; else nothing was played."""
    tonight = settled_tonight(ctx)
    return Refusal("settled_already", date=tonight.isoformat()) if tonight is not None else Refusal("no_night")


def settled_tonight(ctx: Context) -> date | None:
    """Tonight's date when the group's latest night is tonight's and settled (so nothing is open: 结算 came)."""
    from ledger.tables import night_date

    latest = ctx.service.latest_night(ctx.chat_id)
    closed = ctx.service.closed_night(ctx.chat_id, latest) if latest is not None else None
    tonight = night_date(ctx.group.timezone, ctx.group.cutoff_hour, ctx.now())
    return tonight if closed is not None and closed.night.night_date == tonight else None


# ---------------------------------------------------------------------------------------------- 撤销结算

KIND = "unsettle"
PREFIX = "us"


@registry.command(
    "unsettle",
    names=["unsettle"],
    aliases=COMMAND_WORDS["unsettle"],
    admin_only=True,
    help_zh="撤销结算（管理员）：撤回最近一次结算，这一晚和牌桌重新打开（可以再记、撤销、改），台费退回，并进来的旧账恢复；"
    "已经有人付了这次结算的账、又结算过、发过红包池或台费、开了新的一晚时不能撤销",
    help_en="(admins) take back the latest settlement: the night and its table open again, its table fee (台费) and "
    "the debts it netted in restored; not once someone paid one of its lines, anything was settled since or a new "
    "night began",
)
def unsettle(ctx: Context) -> SendText:
    if ctx.args.strip():
        raise Refusal("unsettle_usage")
    if asked_already(ctx, flow_key(ctx)):
        raise Quiet  # this very update asked already (a redelivery)
    settlement = ctx.service.settlement_to_undo(ctx.chat_id)  # refused with the reason when it stays
    assert settlement.id is not None
    currency = ctx.group.currency
    lines = [
        ctx.t("unsettle_line", payer=p.payer, payee=p.payee, amount=money(p.amount, currency))
        for p in settlement.payments
    ]
    question = ctx.t("unsettle_ask", lines="\n".join(lines) or ctx.t("unsettle_no_lines"))
    return ask_admin(ctx, KIND, PREFIX, {"settlement_id": settlement.id}, question, ctx.t("btn_unsettle_yes"))


def _kept(ctx: Context, _state: Mapping[str, Any]) -> str:
    return ctx.t("unsettle_kept")


cancel_by_typing(KIND, PREFIX, _kept, "undo_kept_typed")
press_by_typing(KIND, PREFIX, ("确认撤销结算", "take it back"), "undo_done_typed")


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确认撤销结算」 takes back the settlement the question showed (if it still is the latest and nothing was paid
    against it meanwhile); 「不撤销」 drops the question. Admins only, as the command."""
    confirmation = admin_press(ctx, KIND, lambda state: _kept(ctx, state))
    if not isinstance(confirmation, Confirmation):
        return confirmation
    result = carry_out(
        ctx,
        confirmation,
        lambda: ctx.service.unsettle(
            ctx.chat_id,
            source=confirmation.source(ctx, "unsettle"),
            by=ctx.sender.user_id,
            expect=int(confirmation.state["settlement_id"]),
        ),
    )
    if not isinstance(result, Replayable):
        return result
    lines = [ctx.t("unsettle_done")]
    table = result.table
    if table is not None:
        key_text = "table_now" if table.dealer is not None else "table_now_no_dealer"
        lines.append(ctx.t(key_text, number=table.hand_number, dealer=table.dealer))
    else:
        lines.append(ctx.t("unsettle_no_table"))
    if result.fees:
        lines.append(ctx.t("unsettle_fees", amount=money(result.fees, ctx.group.currency)))
    if result.settlement.carried:
        lines.append(ctx.t("unsettle_carried"))
    lines.append(ctx.t("unsettle_again"))
    return [AnswerCallback(), SendText("\n".join(lines), edit_message_id=confirmation.message_id)]
