"""The message filter and join hook that enforce rules 2–4 before any command runs.

Order per message from a non-exempt member: content (links, invite links, ad keywords: rule 3), then flooding
(rule 4), then the name card (rule 2). One message is at most one offence: a link that also starts a flood
burst is punished once, as the link. Admins, the owner and bots are exempt (the adapter passes the chat's
cached administrator ids). A flood is a flood whatever its shape: chat (a reply to the bot too) and the commands
that only read (`余额` eight times in ten seconds) count before any command runs; a command that may change
something (付, 结算, 设置, 撤销, a record) counts after it ran, and only when it changed nothing (refused, or only
asked): `撤销` twenty times is a flood, a table's payments booked in a row are not. The lines of a burst after its
offence get no answer.
"""

from __future__ import annotations

from dataclasses import replace

from bot.commands._common import member_of, shown_name
from bot.core import (
    BanMember,
    Bot,
    Context,
    DeleteMessage,
    Effect,
    Outcome,
    SendText,
    UnbanMember,
    registry,
)
from bot.grammar import mangled_record
from bot.moderation import _texts  # noqa: F401  (registers the texts)
from bot.moderation._state import moderation, settings, state
from bot.moderation.detectors import FloodRules, FloodVerdict, content_findings, message_content
from bot.moderation.ladder import offence_effects
from bot.moderation.namecard import namecard_reminder
from bot.vocabulary import RECORD_COMMANDS, REGIONAL_COMMANDS
from ledger.moderation import RuleSettings

#: runs before every other filter
PRIORITY = -100

#: commands of the open table's record (besides each game's own): only its seated players use them
RECORD_LINES = frozenset((*RECORD_COMMANDS, *REGIONAL_COMMANDS))
#: typed answers to the bot's questions (`好`, `对`, `算了`, `确实又一次`): everyday words first, counted as any line
#: unless a question the sender asked still waits (`好` three times in a row with nothing to answer is a repeat)
TYPED_ANSWERS = frozenset({"question_yes", "undo_keep", "new_hand", "repeat_yes", "typed_press"})


#: the commands that only read (余额, 明细, 历史, 帮助, 红包池 …): each is a line like any other for flooding, whoever
#: sends it — `余额` eight times in ten seconds is a flood. A command that changes something (付, 结算, 设置 …) is
#: using the bot, checked by its own rules (who may, the double-entry window)
READ_COMMANDS = frozenset(
    {"balance", "unpaid", "details", "history", "table", "rules", "fees", "help", "stats", "leaderboard", "h2h"}
    | {"export", "night_report", "mod_pot", "mod_violations", "mod_grouprules", "mod_ruleslog"}
)


#: Telegram's own senders: 777000 posts a linked channel's messages, 1087968824 speaks for anonymous admins,
#: 136817688 for channels writing in the group. None of them is a member to punish.
TELEGRAM_SERVICE_IDS = frozenset({777000, 1087968824, 136817688})


def exempt(ctx: Context, user_id: int, is_bot: bool = False) -> bool:
    """Admins, the owner, bots and Telegram's service senders are never punished automatically."""
    return (
        is_bot
        or user_id in ctx.admin_ids
        or (ctx.owner_id is not None and user_id == ctx.owner_id)
        or user_id in TELEGRAM_SERVICE_IDS
    )


@registry.message_filter("moderation", priority=PRIORITY)
def moderate(ctx: Context) -> Outcome | None:
    incoming = ctx.incoming
    if incoming is None or exempt(ctx, incoming.sender.user_id, incoming.sender.is_bot):
        return None
    rules = settings(ctx)
    rule, detail, delete = "", "", False
    findings = content_findings(
        incoming.text,
        links=rules.links,
        invites=rules.invites,
        ad_keywords=rules.ad_keywords,
    )
    if findings:
        rule, detail, delete = findings[0].rule, findings[0].detail, True
    flooding = False
    if rules.flood and not _told_after(ctx):
        verdict = _count(ctx, command=_command(ctx))
        flooding = bool(verdict.reasons)
        if verdict.offence and not rule:
            rule, detail = verdict.reasons[0], _flood_detail(ctx, verdict)
    if rule:
        # a deleted or punished message is not also a command
        return Outcome(_punish(ctx, rule, detail, delete=delete), stop=True)
    if flooding:  # the rest of a burst already punished: the bot does not answer it line by line
        return Outcome([], stop=True)
    reminder = namecard_reminder(ctx, incoming.sender, reply_to=incoming.message_id)
    return Outcome([reminder]) if reminder is not None else None


@registry.after_command
def count_what_changed_nothing(ctx: Context, outcome: Outcome) -> Outcome:
    """A command that changes something (付, 撤销, 设置, a record, a typed answer to a question waiting) counts
    toward flooding only when it changed nothing: refused (`撤销` again while its question waits, a `付` of a debt
    there is none of, `设置` from a member), or only asked or answered without booking. Then it is a line like any
    other — `撤销` twenty times, or `撤销` and `算了` in turn, is a flood —, its repeat a repeat only within the
    flood window, as a reading command's; the line that starts a burst is punished instead of answered, and the
    burst's further lines get no answer. What it booked never counts (a table's payments confirmed in a row, a
    record and then its answer) and breaks a run of the same text. A seated player's record that was not refused
    is taken as booked without asking the ledger: a win costs no flood counter's read or write."""
    incoming = ctx.incoming
    if incoming is None or not _told_after(ctx):
        return outcome
    rules = settings(ctx)
    if not rules.flood or exempt(ctx, incoming.sender.user_id, incoming.sender.is_bot):
        return outcome
    if not outcome.refused and (_seated_record(ctx) or ctx.service.answered(incoming.source)):
        state(ctx.bot).detector.interrupt(ctx.chat_id, incoming.sender.user_id, _flood_rules(rules))
        return outcome
    verdict = _count(ctx, command=True)
    if verdict.offence:
        ctx.lang = ctx.group.language  # the group's rules speak the group's language, whatever the line was written in
        return Outcome(_punish(ctx, verdict.reasons[0], _flood_detail(ctx, verdict), delete=False))
    if verdict.reasons:
        return Outcome(refused=outcome.refused, heard=outcome.heard)
    return _warned(ctx, outcome, verdict, rules)


def _warned(ctx: Context, outcome: Outcome, verdict: FloodVerdict, rules: RuleSettings) -> Outcome:
    """A refused line retyped until once more would be a repeat (`胡 七对 自摸` refused twice: a player retrying, not
    a spammer) says so under its answer, before the rule punishes the next one."""
    if not outcome.refused or not rules.repeat_count or verdict.run < 2 or verdict.run != rules.repeat_count - 1:
        return outcome
    texts = [i for i, effect in enumerate(outcome.effects) if isinstance(effect, SendText)]
    if not texts:
        return outcome
    last = outcome.effects[texts[-1]]
    assert isinstance(last, SendText)
    effects = list(outcome.effects)
    effects[texts[-1]] = replace(last, text=f"{last.text}\n{ctx.t('mod_repeat_next', count=verdict.run)}")
    return replace(outcome, effects=effects)


def _flood_rules(rules: RuleSettings) -> FloodRules:
    return FloodRules(rules.flood_max_messages, rules.flood_window_seconds, rules.repeat_count)


def _count(ctx: Context, *, command: bool) -> FloodVerdict:
    """Count the message on its sender's flood track."""
    incoming = ctx.incoming
    assert incoming is not None
    content = message_content(incoming.text, incoming.photo_file_id, incoming.sticker_id)
    return state(ctx.bot).detector.observe(
        ctx.chat_id, incoming.sender.user_id, content, _flood_rules(settings(ctx)), incoming.date, command=command
    )


def _flood_detail(ctx: Context, verdict: FloodVerdict) -> str:
    if verdict.reasons[0] == "flood":
        return ctx.t("mod_detail_flood", seconds=settings(ctx).flood_window_seconds, count=verdict.in_window)
    return ctx.t("mod_detail_repeat", count=verdict.run)


def _punish(ctx: Context, rule: str, detail: str, *, delete: bool) -> list[Effect]:
    """Record the offence of the message (the ladder) and what the bot does about it."""
    incoming = ctx.incoming
    assert incoming is not None
    rules = settings(ctx)
    member = member_of(ctx, incoming.sender)
    reason = ctx.t("mod_reason", rule=ctx.t(f"mod_rule_{rule}"), detail=detail)
    result = moderation(ctx).record_offence(
        member, rule, reason, message_id=incoming.message_id, source=incoming.source, settings=rules
    )
    if result.removal is not None:
        state(ctx.bot).detector.forget(ctx.chat_id, incoming.sender.user_id)
    return offence_effects(
        ctx,
        user_id=incoming.sender.user_id,
        name=shown_name(ctx, member),
        rule=rule,
        detail=detail,
        result=result,
        settings=rules,
        delete_message_id=incoming.message_id if delete else None,
    )


def _told_after(ctx: Context) -> bool:
    """Whether the line's flood count waits for its command's outcome: a command that may change something (付,
    结算, 设置, 撤销, a record, a typed answer to a question of the sender's still waiting) counts only when it changed
    nothing (`count_what_changed_nothing`). Chat — a reply to the bot too: a flood is a flood whatever it answers —,
    `好` with no question of the sender's waiting, a mangled record line (`胡清一涩自摸`: no command runs) and the
    commands that only read (`READ_COMMANDS`: `余额` eight times in ten seconds is flooding) count before it."""
    found = ctx.said()
    if found is None or found[0].key in READ_COMMANDS:
        return False
    return found[0].key not in TYPED_ANSWERS or ctx.waiting > 0


def _seated_record(ctx: Context) -> bool:
    """A line for the open table's record (a hand, a kong, a regional answer; not 撤销, which may only ask) from a
    player seated there."""
    found = ctx.said()
    if found is None or not (found[0].games or found[0].key in RECORD_LINES):
        return False
    return ctx.table is not None and ctx.table.seat_of_user(ctx.sender.user_id) is not None


def _command(ctx: Context) -> bool:
    """The line is a reading command (`余额`, `明细`) or a mangled record (`胡清一涩自摸`): the same one again counts as
    a repeat only within the flood window (`detectors.observe`), so `余额` after each hand, or a record line retried
    a while later, is no repeat. Anything else counted (chat, `好` with nothing to answer) repeats however slowly."""
    found = ctx.said()
    if found is None:
        return ctx.incoming is not None and mangled_record(ctx.incoming.text)
    return found[0].key in READ_COMMANDS


@registry.on_join
def greet_namecard(ctx: Context) -> list[Effect]:
    join = ctx.join
    if join is None:
        return []
    moderation(ctx).mark_back(ctx.chat_id, join.member.user_id)
    if exempt(ctx, join.member.user_id, join.member.is_bot):
        return []
    reminder = namecard_reminder(ctx, join.member, reply_to=None)
    return [reminder] if reminder is not None else []


@registry.on_leave
def remember_leaving(ctx: Context) -> list[Effect]:
    """A member who left is left out when the pot is split among everyone (发红包池)."""
    if ctx.join is not None:
        moderation(ctx).mark_left(ctx.chat_id, ctx.join.member.user_id)
    return []


#: words of the Bot API's refusals that mean the bot lacks a right (not e.g. "message to delete not found")
_RIGHTS_ERRORS = ("rights", "admin", "not enough", "forbidden", "can't remove", "cant_remove")


def rights_notice(bot: Bot, chat_id: int) -> list[Effect]:
    """The notice that the bot lacks delete/ban rights, the first time only per group (remembered in the ledger).

    The offence is already recorded when the effect fails, so the bot keeps recording without the rights.
    """
    from bot.texts import text

    service = state(bot).service
    if not service.claim_rights_notice(chat_id):
        return []
    group = service.ledger.group(chat_id)
    return [SendText(text(group.language, "mod_no_rights"))]


@registry.on_effect_failed
def on_refused_effect(ctx: Context, effect: Effect, error: str) -> list[Effect]:
    """A delete, ban or unban Telegram refused for lack of rights: say so once."""
    if not isinstance(effect, DeleteMessage | BanMember | UnbanMember):
        return []
    if not any(word in error.lower() for word in _RIGHTS_ERRORS):
        return []
    return rights_notice(ctx.bot, ctx.chat_id)
