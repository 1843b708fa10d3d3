"""关桌 (收桌, 散桌, 不打了): what players say when they stop. It closes nothing: the table ends only with 结算, which
seals the night's books, so a word it was never taught must not do that on a guess. A seated player or an admin,
at an open table, gets how to end the night and what 结算 does; anything else (more words, no table, a question,
someone not playing) is chat."""

from __future__ import annotations

from bot.core import Context, Quiet, SendText, registry
from bot.permissions import plays_at
from bot.vocabulary import COMMAND_WORDS


@registry.command(
    "close",
    names=["closetable"],
    aliases=COMMAND_WORDS["close"],
    help_zh="关桌（收桌、散桌、不打了）：不会结束牌桌，只回答怎么收桌——发 结算",
    help_en="close table (关桌): ends nothing, only says how — send settle to end the night",
    in_menu=False,
)
def close(ctx: Context) -> SendText:
    table = ctx.table
    if ctx.args or table is None or not plays_at(ctx, table):
        raise Quiet
    return ctx.reply("close_how")
