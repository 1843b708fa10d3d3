"""撤销发红包池 / 撤销付台费 (admins): take back the group's latest payout of the pot (发红包池) or the house (付台费)
after a confirmation, as 撤销结算 does — the money back in the account, and for a payout made between nights the
debts it passed on owed to the account again and its payment buttons expired (`ledger.payouts`). Refused, with
the reason, when there is none or something was built on it."""

from __future__ import annotations

from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.commands._common import asked_already, flow_data, flow_key
from bot.core import AnswerCallback, Button, Context, HandlerResult, Quiet, Refusal, SendText, registry
from bot.texts import money, refusal_text
from bot.vocabulary import COMMAND_WORDS
from ledger.errors import LedgerError

KIND = "undo_payout"
PREFIX = "up"
POOLS = ("pot", "house")


@registry.command(
    "unpayout",
    names=["unpayout"],
    aliases=COMMAND_WORDS["unpayout"],
    admin_only=True,
    help_zh="撤销发红包池（管理员）：撤回最近一次发红包池，钱回到红包池，转给领钱人的欠款恢复成欠红包池；"
    "那晚已经结算、之后有人付过这笔钱、又结算过一晚或付过台费时不能撤销",
    help_en="(admins) take back the latest pot payout: the money goes back into the pot; not once its night was "
    "settled, someone paid against it, a later night was settled or the house was paid out since",
)
def unpayout(ctx: Context) -> SendText:
    return _ask(ctx, "pot")


@registry.command(
    "unpayfees",
    names=["unpayfees"],
    aliases=COMMAND_WORDS["unpayfees"],
    admin_only=True,
    help_zh="撤销付台费（管理员）：撤回最近一次付台费，钱回到台费账户，转给收钱人的欠款恢复成欠台费；"
    "那晚已经结算、之后有人付过这笔钱、又结算过一晚或发过红包池时不能撤销",
    help_en="(admins) take back the latest house payout (付台费): the money goes back to the house; not once its "
    "night was settled, someone paid against it, a later night was settled or the pot was paid out since",
)
def unpayfees(ctx: Context) -> SendText:
    return _ask(ctx, "house")


def _ask(ctx: Context, pool: str) -> SendText:
    """The question: the payout's lines, what taking it back does, 「确认撤销」/「不撤销」."""
    if ctx.args.strip():
        raise Refusal("unpayout_usage", word=ctx.word)
    key = flow_key(ctx)
    if asked_already(ctx, key):
        raise Quiet  # this very update asked already (a redelivery)
    payout = ctx.service.payout_to_undo(ctx.chat_id, pool)  # refused with the reason when it stays
    first = payout.transfers[0].id
    ctx.service.save_flow(
        ctx.chat_id, key, ctx.sender.user_id, KIND, {"pool": pool, "first": first, "asked": ctx.source}
    )
    currency = ctx.group.currency
    account = ctx.t(f"pool_{pool}")
    lines = [
        ctx.t("unsettle_line", payer=account, payee=t.payee, amount=money(t.amount, currency)) for t in payout.transfers
    ]
    after = ctx.t("unpayout_ask_at_once" if payout.settled_at_once else "unpayout_ask_in_night", pool=account)
    question = ctx.t(f"unpayout_ask_{pool}", lines="\n".join(lines), after=after)
    buttons = (
        (
            Button(ctx.t(f"btn_unpayout_{pool}"), f"{PREFIX}:{key}:ok"),
            Button(ctx.t("btn_unsettle_no"), f"{PREFIX}:{key}:keep"),
        ),
    )
    return SendText(question, buttons=buttons, reply_to=ctx.message_id, asks=True)


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确认撤销…」 takes back the payout the question showed (if it still is the latest and nothing was built on it
    meanwhile); 「不撤销」 drops the question. Admins only, as the commands."""
    query = ctx.callback
    assert query is not None
    parsed = flow_data(query.data)
    flow = ctx.service.load_flow(ctx.chat_id, parsed[0]) if parsed is not None else None
    if parsed is None or flow is None or flow.finished_at is not None or flow.kind != KIND:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    if not ctx.is_admin:
        return AnswerCallback(ctx.t("admin_only"), alert=True)
    key, action = parsed
    pool = str(flow.state["pool"])
    if action == "keep":
        ctx.service.finish_flow(ctx.chat_id, key)
        kept = ctx.t(f"unpayout_kept_{pool}")
        return [AnswerCallback(kept), SendText(kept, edit_message_id=query.message_id)]
    if action != "ok" or pool not in POOLS:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    source = f"{ctx.source.rsplit(':', 1)[0]}:{key}:undo_payout"
    try:
        result = ctx.service.undo_payout(
            ctx.chat_id, pool, source=source, by=ctx.sender.user_id, expect=int(flow.state["first"])
        )
    except LedgerError as err:
        ctx.service.finish_flow(ctx.chat_id, key)
        why = refusal_text(ctx.lang, err) or ctx.t("button_expired")
        return [AnswerCallback(why, alert=True), SendText(why, edit_message_id=query.message_id)]
    ctx.service.finish_flow(ctx.chat_id, key)
    if result.replayed:
        return AnswerCallback(ctx.t("already_done"))
    currency = ctx.group.currency
    lines = [ctx.t(f"unpayout_done_{pool}")]
    lines += [ctx.t("unpayout_line", name=t.payee, amount=money(t.amount, currency)) for t in result.transfers]
    if result.settled_at_once:
        lines.append(ctx.t("unpayout_passed_back", pool=ctx.t(f"pool_{pool}")))
    if pool == "pot":  # as 发红包池 and 付台费 end their replies
        lines.append(ctx.t("mod_pot_left", amount=money(result.held, currency) or "0"))
    else:
        lines.append(ctx.t("fees_house", amount=money(result.held, currency, signed=True) or "0"))
    return [AnswerCallback(), SendText("\n".join(lines), edit_message_id=query.message_id)]
