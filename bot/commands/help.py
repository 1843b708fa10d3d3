"""帮助 (help): every command with a real example; `帮助 胡` shows one command."""

from __future__ import annotations

from bot.core import Command, Context, Refusal, SendText, registry
from bot.grammar import fold, tokens
from bot.vocabulary import COMMAND_WORDS

#: the table's own commands first, in the order a night uses them; other modules' commands follow
HELP_ORDER: tuple[str, ...] = ("open", "table", "gang", "liangdao", "hu", "draw", "undo", "balance", "history")
HELP_ORDER += ("settle", "unsettle", "pay", "received", "unpay", "rules", "config", "alias", "link", "help")


def _order(command: Command) -> int:
    return HELP_ORDER.index(command.key) if command.key in HELP_ORDER else len(HELP_ORDER)


@registry.command(
    "help",
    names=["help", "start"],
    aliases=COMMAND_WORDS["help"],
    help_zh="帮助：所有命令和例子；帮助 胡 只看一个",
    help_en="all commands with examples; 帮助 胡 for one",
)
def help_(ctx: Context) -> SendText:
    reply_to = ctx.message_id
    if ctx.args:
        word = fold(tokens(ctx.args)[0].lstrip("/"))
        command = ctx.bot.registry.lookup(word, ctx.game)
        if command is None:
            raise Refusal("help_unknown", word=word)
        return SendText(_line(ctx, command.names[0], command.help(ctx.lang)), reply_to=reply_to)
    lines = [ctx.t("help_head")]
    for command in sorted(ctx.bot.registry.commands.values(), key=_order):
        if command.games and ctx.game not in command.games:
            continue
        lines.append(_line(ctx, command.names[0], command.help(ctx.lang)))
    lines.append(ctx.t("help_tail"))
    return SendText("\n".join(lines), reply_to=reply_to)


def _line(ctx: Context, name: str, help_text: str) -> str:
    return f"/{name} — {help_text}"
