"""换人 (`换人 @老王 @小张`): a seated player swapped for another. A table's seats are fixed from 开桌 on, so it
changes nothing: it answers with the 开桌 line that seats the newcomer in that seat (the dealer kept, the newcomer
dealing for the one leaving), which keeps everything recorded. Anything but two people after it is chat (`该换人了`
is talk); someone not seated, a newcomer already seated, no table, are refused by name."""

from __future__ import annotations

from bot.commands._common import current_table, looked_up, shown_name, written_mention
from bot.core import Context, Quiet, Refusal, SendText, registry
from bot.grammar import tokens
from bot.vocabulary import COMMAND_WORDS


@registry.command(
    "swap",
    names=["swap"],
    aliases=COMMAND_WORDS["swap"],
    help_zh="换人 @下桌的 @上桌的：回答换座位的开桌写法（重开一桌，之前记的都算数）",
    help_en="换人 @out @in: answers with the 开桌 (open) line that seats the newcomer (records stand)",
    in_menu=False,
)
def swap(ctx: Context) -> SendText:
    said = tokens(ctx.args)
    if len(said) != 2:
        raise Quiet  # `换人`, `换人吧`: talk
    table = current_table(ctx)
    leaving, coming = (looked_up(ctx, token) for token in said)
    if leaving is None or coming is None:
        raise Quiet
    seat = next((seat for seat in table.seats if seat.member_id == leaving.id), None)
    if seat is None:
        raise Refusal("swap_not_seated", name=shown_name(ctx, leaving))
    if any(other.member_id == coming.id for other in table.seats):
        raise Refusal("swap_already_seated", name=shown_name(ctx, coming))
    newcomer = written_mention(ctx, coming.id, shown_name(ctx, coming))
    written = {other.name: written_mention(ctx, other.member_id, other.name) for other in table.seats}
    written[seat.name] = newcomer
    seated = [written[other.name] for other in table.seats]
    deals = written.get(table.dealer or "", "")
    opened, dealing = ("open", "dealer") if ctx.lang == "en" else ("开桌", "庄")
    line = " ".join((opened, *seated, *((dealing, deals) if deals else ())))
    raise Refusal("swap_how", out=seat.name, into=shown_name(ctx, coming), line=line)
