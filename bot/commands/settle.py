"""结算 (settle): end the night and post the night's report: the per-player table as a picture, with the fewest
transfers that square the night as its caption."""

from __future__ import annotations

from bot.core import Context, Effect, Refusal, registry
from bot.permissions import SETTLE, require_player
from bot.reports.night import settle_post
from bot.vocabulary import COMMAND_WORDS


@registry.command(
    "settle",
    names=["settle", "endnight"],
    aliases=COMMAND_WORDS["settle"],
    help_zh="结算：结束今晚，贴出战报图和最少笔数的转账方案（今晚的账就此封存，之后不能再改；也可写 算账、结账）",
    help_en="end the night and post its report with the fewest transfers that square it",
)
def settle(ctx: Context) -> list[Effect]:
    if ctx.service.answered(ctx.source):  # a redelivered update: the night was settled, and posted
        return [ctx.reply("already_done")]
    if ctx.service.current_night(ctx.chat_id) is None:
        raise Refusal("no_night")
    require_player(ctx, ctx.table, SETTLE)
    closed = ctx.service.end_night(ctx.chat_id, source=ctx.source, by=ctx.sender.user_id)
    return settle_post(ctx, closed)
