"""Rule 2 (进群后修改名片): the name-card check, on join and on messages, with one polite reminder ever.

Telegram sends no event when someone renames, so a member is checked when they join and when they speak;
the reminder is recorded in the ledger (`moderation_reminders`), so a restart never repeats it. A member passes
when their display name or the ledger alias (名片, set with the alias command) follows the pattern.
"""

from __future__ import annotations

from bot.commands._common import shown_name
from bot.core import Context, Sender, SendText
from bot.moderation._state import moderation, settings, state
from bot.moderation.detectors import namecard_ok


def is_channel(sender: Sender) -> bool:
    """A channel a member posted as (Telegram's user ids are positive, chat ids negative): its title is the
    channel's, not a name card anyone in the group could change."""
    return sender.user_id < 0


def namecard_reminder(ctx: Context, member: Sender, *, reply_to: int | None) -> SendText | None:
    """The one reminder for a member whose name does not follow the group's format, else None."""
    rules = settings(ctx)
    if not rules.namecard or member.is_bot or is_channel(member):
        return None
    seen = state(ctx.bot).namecard_done
    key = (ctx.chat_id, member.user_id, member.name)
    if key in seen:
        return None
    if namecard_ok(member.name, rules.namecard_pattern):
        seen.add(key)
        return None
    service = moderation(ctx)
    account = service.ledger.member(ctx.chat_id, member.user_id, member.name, member.username)
    if account.alias and namecard_ok(account.alias, rules.namecard_pattern):
        seen.add(key)
        return None
    seen.add(key)
    if not service.claim_reminder(ctx.chat_id, member.user_id):
        return None
    name = shown_name(ctx, account)  # as every reply names them: a second 老王 is greeted as 老王#2
    return SendText(ctx.t("mod_namecard", name=name, example=rules.namecard_example), reply_to=reply_to)
