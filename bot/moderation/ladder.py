"""The penalty ladder as the group sees it: an offence's record turned into a message and Telegram effects.

The ledger (`ledger.moderation.Moderation.record_offence`) decides the step from the member's live warnings;
this module only words it and adds the effects: delete the offending message (links and ads), remove
(ban-then-unban) or ban the member on the removal steps.
"""

from __future__ import annotations

from bot.commands._common import money
from bot.core import BanMember, Context, DeleteMessage, Effect, SendText
from ledger.moderation import OffenceResult, RuleSettings

#: what the next offence brings, as a hint after a warning
_NEXT_HINT = {"remove": "mod_next_remove", "ban": "mod_next_ban", "warn_fine": "mod_next_fine"}


def currency(ctx: Context) -> str:
    return ctx.group.currency if ctx.group is not None else ""


def rule_name(ctx: Context, rule: str) -> str:
    return ctx.t(f"mod_rule_{rule}")


def offence_text(ctx: Context, name: str, rule: str, detail: str, result: OffenceResult, settings: RuleSettings) -> str:
    """The offence's announcement, ending with its record number as an admin's penalty shows it (`记录 #3`): the
    warning's, which `撤销处罚` takes back with the fine or ban that came with it."""
    params = {"name": name, "rule": rule_name(ctx, rule), "detail": detail, "n": result.offence_number}
    record = ctx.t("mod_offence_record", id=result.warning.id)
    if result.step in {"remove", "ban"}:
        return f"{ctx.t(f'mod_offence_{result.step}', **params)}{record}"
    next_step = settings.step_for(result.offence_number + 1)
    hint = ctx.t(_NEXT_HINT[next_step]) if next_step in _NEXT_HINT and next_step != result.step else ""
    if result.fine is not None:
        amount = money(result.fine.amount or 0, currency(ctx))
        return ctx.t("mod_offence_warn_fine", amount=amount, next=hint, **params).rstrip() + record
    return ctx.t("mod_offence_warn", next=hint, **params).rstrip() + record


def offence_effects(
    ctx: Context,
    *,
    user_id: int,
    name: str,
    rule: str,
    detail: str,
    result: OffenceResult,
    settings: RuleSettings,
    delete_message_id: int | None,
) -> list[Effect]:
    """Delete (when asked), announce, then remove/ban: the announcement still shows if a removal fails."""
    effects: list[Effect] = []
    if delete_message_id is not None:
        effects.append(DeleteMessage(delete_message_id))
    effects.append(SendText(offence_text(ctx, name, rule, detail, result, settings)))
    if result.removal is not None:
        effects.append(BanMember(user_id, then_unban=result.removal.kind == "removal"))
    return effects
