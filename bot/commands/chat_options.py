"""Chat options (how the bot reads this group's words): `设置 明杠 直杠|蓄杠` (admins) and the reading itself.

明杠 is read only when a line contains it, so the option costs nothing to lines that do not.
"""

from __future__ import annotations

from bot.core import Context, Refusal, SendText
from bot.grammar import fold
from bot.texts import joined, kong_name, setting_name
from bot.vocabulary import MINGGANG_CHOICES, spellings

#: setting words `设置` hands to this module
OPTION_WORDS = frozenset({"明杠", "minggang"})


def minggang(ctx: Context) -> str:
    """What 明杠 means in this group: `zhigang` (the default) or `xugang`."""
    from ledger.chat_options import minggang as stored

    return stored(ctx.service.engine, ctx.group.id)


def configure(ctx: Context, word: str, values: list[str]) -> SendText:
    """`设置 明杠 蓄杠`: from now on 明杠 (in kongs and in a win's melds) is read as that kong."""
    from ledger.chat_options import set_minggang

    value = " ".join(values)
    choice = spellings(MINGGANG_CHOICES).get(fold(value)) if values else None
    if choice is None:
        allowed = ("exposed", "added") if ctx.lang == "en" else ("直杠", "蓄杠")
        shown = setting_name(ctx.lang, word)
        raise Refusal("config_bad_value", setting=shown, value=value, allowed=joined(ctx.lang, allowed))
    set_minggang(ctx.service.engine, ctx.group.id, choice, by=ctx.sender.user_id, now=ctx.now())
    return ctx.reply("minggang_set", kind=kong_name(ctx.lang, choice))


def describe(ctx: Context) -> str:
    """The rules line: `明杠：读作 直杠（设置 明杠 蓄杠 可改）`."""
    return ctx.t("minggang_rule", kind=kong_name(ctx.lang, minggang(ctx)))
