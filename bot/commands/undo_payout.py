"""撤销发红包池 / 撤销付台费 (admins): take back the group's latest payout of the pot (发红包池) or the house (付台费)
after a confirmation, as 撤销结算 does — the money back in the account, and for a payout made between nights the
debts it passed on owed to the account again and its payment buttons expired (`ledger.payouts`). Refused, with
the reason, when there is none or something was built on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.commands._common import Confirmation, admin_press, ask_admin, asked_already, carry_out, flow_key
from bot.commands.questions import cancel_by_typing, confirm_by_typing, press_as, press_by_typing, typed_answer
from bot.core import AnswerCallback, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.texts import money
from bot.vocabulary import COMMAND_WORDS
from ledger.records import Replayable
from ledger.service import Flow

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
    help_en="(admins) undo the pot payout (撤销发红包池): take back the latest pot payout: the money goes back into "
    "the pot; not once its night was settled, someone paid against it, a later night was settled or the house was "
    "paid out since",
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
    help_en="(admins) undo pay table fee (撤销付台费): take back the latest house payout; the money goes back to "
    "the house; not once its night was settled, someone paid against it, a later night was settled or the pot "
    "was paid out since",
)
def unpayfees(ctx: Context) -> SendText:
    return _ask(ctx, "house")


def _ask(ctx: Context, pool: str) -> SendText:
    """The question: the payout's lines, what taking it back does, 「确认撤销」/「不撤销」."""
    if ctx.args.strip():
        raise Refusal("unpayout_usage", word=ctx.word)
    if asked_already(ctx, flow_key(ctx)):
        raise Quiet  # this very update asked already (a redelivery)
    payout = ctx.service.payout_to_undo(ctx.chat_id, pool)  # refused with the reason when it stays
    currency = ctx.group.currency
    account = ctx.t(f"pool_{pool}")
    lines = [
        ctx.t("unsettle_line", payer=account, payee=t.payee, amount=money(t.amount, currency)) for t in payout.transfers
    ]
    after = ctx.t("unpayout_ask_at_once" if payout.settled_at_once else "unpayout_ask_in_night", pool=account)
    question = ctx.t(f"unpayout_ask_{pool}", lines="\n".join(lines), after=after)
    state = {"pool": pool, "first": payout.transfers[0].id}
    return ask_admin(ctx, KIND, PREFIX, state, question, ctx.t(f"btn_unpayout_{pool}"))


def _kept(ctx: Context, state: Mapping[str, Any]) -> str:
    return ctx.t(f"unpayout_kept_{state['pool']}")


cancel_by_typing(KIND, PREFIX, _kept, "undo_kept_typed")
press_by_typing(KIND, PREFIX, ("确认撤销发红包池",), "undo_done_typed", lambda state: state.get("pool") == "pot")
press_by_typing(KIND, PREFIX, ("确认撤销付台费",), "undo_done_typed", lambda state: state.get("pool") == "house")
press_by_typing(KIND, PREFIX, ("take it back",), "undo_done_typed")  # both payouts' English label


def _typed_yes(ctx: Context, flow: Flow) -> list[Effect]:
    """A typed yes (`对`, `yes`) under the question: its 「确认撤销…」 pressed by the sender, as the label typed is."""
    message = int(flow.state.get("message") or 0)
    pressed = press_as(ctx, f"{PREFIX}:{flow.message_id}:ok", message)
    return typed_answer(ctx, pressed.effects, message, "undo_done_typed")


confirm_by_typing(KIND, _typed_yes, ())


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确认撤销…」 takes back the payout the question showed (if it still is the latest and nothing was built on it
    meanwhile); 「不撤销」 drops the question. Admins only, as the commands."""
    confirmation = admin_press(ctx, KIND, lambda state: _kept(ctx, state))
    if not isinstance(confirmation, Confirmation):
        return confirmation
    pool = str(confirmation.state["pool"])
    if pool not in POOLS:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    result = carry_out(
        ctx,
        confirmation,
        lambda: ctx.service.undo_payout(
            ctx.chat_id,
            pool,
            source=confirmation.source(ctx, "undo_payout"),
            by=ctx.sender.user_id,
            expect=int(confirmation.state["first"]),
        ),
    )
    if not isinstance(result, Replayable):
        return result
    currency = ctx.group.currency
    lines = [ctx.t(f"unpayout_done_{pool}")]
    lines += [ctx.t("unpayout_line", name=t.payee, amount=money(t.amount, currency)) for t in result.transfers]
    if result.settled_at_once:
        lines.append(ctx.t("unpayout_passed_back", pool=ctx.t(f"pool_{pool}")))
    if pool == "pot":  # as 发红包池 and 付台费 end their replies
        lines.append(ctx.t("mod_pot_left", amount=money(result.held, currency) or "0"))
    else:
        lines.append(ctx.t("fees_house", amount=money(result.held, currency, signed=True) or "0"))
    return [AnswerCallback(), SendText("\n".join(lines), edit_message_id=confirmation.message_id)]
