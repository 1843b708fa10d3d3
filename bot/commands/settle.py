"""结算 (settle): end the night and post who pays whom, with the fewest transfers."""

from __future__ import annotations

from bot.commands._common import money
from bot.core import Context, Refusal, SendText, registry


@registry.command(
    "settle",
    names=["settle", "endnight"],
    aliases=["结算", "散场", "收工"],
    help_zh="结算：结束今晚，贴出最少笔数的转账方案（今晚的账就此封存）",
    help_en="end the night and post the fewest transfers that square it",
)
def settle(ctx: Context) -> SendText:
    if ctx.service.current_night(ctx.chat_id) is None:
        raise Refusal("no_night")
    closed = ctx.service.end_night(ctx.chat_id, source=ctx.source, by=ctx.sender.user_id)
    currency = ctx.group.currency
    lines = [ctx.t("settle_head", date=closed.night.night_date.isoformat())]
    for line in sorted(closed.settlement.balances.lines, key=lambda b: (-b.amount, b.name)):
        if line.amount:
            lines.append(ctx.t("settle_balance", name=line.name, amount=money(line.amount, currency, signed=True)))
    if closed.settlement.payments:
        lines.append(ctx.t("settle_payments", count=len(closed.settlement.payments)))
        for payment in closed.settlement.payments:
            lines.append(
                ctx.t(
                    "settle_payment", payer=payment.payer, payee=payment.payee, amount=money(payment.amount, currency)
                )
            )
    else:
        lines.append(ctx.t("settle_square"))
    return SendText("\n".join(lines), reply_to=ctx.incoming.message_id if ctx.incoming else None)
