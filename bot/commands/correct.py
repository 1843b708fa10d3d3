"""改 (correct): `改 胡 七对 自摸`, `改成 七对 自摸` — what players type after a wrong record. It changes nothing
(which record, and what it becomes, would be a guess): a seated player or an admin gets the two ways that do, editing
the record's message or 撤销 then the record again, with the line to send. Anything else after 改 is chat."""

from __future__ import annotations

from bot.core import Context, Quiet, SendText, registry
from bot.grammar import BY_PATTERNS, clean, split_command
from bot.permissions import plays_at
from bot.vocabulary import COMMAND_WORDS, PLAYER_FIRST_WORDS


@registry.command(
    "correct",
    names=["correct"],
    aliases=COMMAND_WORDS["correct"],
    help_zh="改：改记错的记录——编辑原消息，或 撤销 后重记（改 胡 七对 自摸 只回答怎么改，不记账）",
    help_en="改: correct a record — edit its message, or 撤销 then record again (改 胡 七对 自摸 only says how)",
    in_menu=False,
)
def correct(ctx: Context) -> SendText:
    table = ctx.table
    line = clean(ctx.args)  # `改一下，胡 七对 自摸`
    found = split_command(line, registry, ctx.game, ctx.seat_names) if table is not None else None
    if table is None or found is None or not plays_at(ctx, table):
        raise Quiet
    if found[1] not in PLAYER_FIRST_WORDS and found[1] != BY_PATTERNS:
        raise Quiet  # `改 规则`, `改 名片 …`: not a record
    return SendText(ctx.t("correct_how", line=line), reply_to=ctx.message_id)
