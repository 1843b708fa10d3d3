"""Admin and member commands of the group rules (群规则).

Admins: 警告 / 罚款 / 请出 / 封禁 / 解封 a member (reply to their message or @them), 撤销处罚 a record,
违规记录 of a member, 发红包池 (pay the pot out), 群管设置 (settings). The owner (or admins the owner names
with 群规编辑) changes the rules text with 修改群规; everyone can read 群规, 群规记录, 红包池 and their own
违规记录, and 举报 a message by replying to it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.amounts import looks_like_amount, unit_words
from bot.commands._common import amount_or_why, member_of, money, resolve_person, shown_name, shown_names
from bot.commands.payments import settled_at_once
from bot.core import BanMember, Context, Effect, Refusal, SendText, UnbanMember, registry
from bot.grammar import fold, in_digits, name_key, words
from bot.moderation import _texts  # noqa: F401  (registers the texts)
from bot.moderation._state import moderation, remember_settings, settings, state
from bot.moderation.filter import exempt
from bot.moderation.ladder import currency
from bot.texts import joined
from bot.vocabulary import KICK_SAID_WORDS, RED_PACKET_FINE_WORDS, SHORT_FINE_WORDS
from ledger.accounts import MAX_AMOUNT
from ledger.moderation import SETTING_NAMES, ActionInfo, RuleSettings
from ledger.service import MemberInfo


def _command(
    key: str, names: Iterable[str], aliases: Iterable[str], help_zh: str, help_en: str, *, admin_only: bool = False
) -> Any:
    """Register like `registry.command` under the key `mod_<key>`, leaving out any word a module loaded earlier
    already owns, so a clash costs one alias instead of the whole bot. (Modules loaded later — reports, games —
    must avoid these words: the registry refuses a word twice.) The English help says the Chinese word beside it
    (`(警告)`), as the other commands' English help does, since the group's Chinese speakers type that."""
    taken = {w.lower() for w in registry.words()}
    free_names = [n for n in names if n.lower() not in taken]
    free_aliases = [a for a in aliases if a.lower() not in taken]
    chinese = next((a for a in free_aliases if not a.isascii()), None)
    return registry.command(
        f"mod_{key}",
        names=free_names or [f"mod_{key}"],
        aliases=free_aliases,
        help_zh=help_zh,
        help_en=f"{help_en} ({chinese})" if chinese else help_en,
        admin_only=admin_only,
    )


#: most members one 发红包池 names (the whole group when it names nobody)
MAX_PAYEES = 50


def _within_bounds(ctx: Context, amount: int, typed: str, what: str) -> None:
    """An amount an admin typed, refused above the ledger's limit (a fine, a share of the pot)."""
    if amount <= 0:  # the ledger books no fine of 0 (docs/security.md: 0.01元 to 10,000元)
        least, most = money(1, currency(ctx)), money(MAX_AMOUNT, currency(ctx))
        raise Refusal("amount_bounds", what=ctx.t(what), least=least, most=most, text=typed or money(0, currency(ctx)))
    if amount > MAX_AMOUNT:
        most = money(MAX_AMOUNT, currency(ctx))
        raise Refusal("amount_too_large", what=ctx.t(what), most=most, text=typed or money(amount, currency(ctx)))


# --------------------------------------------------------------------------------------------------- targets


def _target(ctx: Context, args: str) -> tuple[MemberInfo, str, int | None]:
    """(the member acted on, the rest of the arguments, the replied-to message id): the one member the @mentions
    name (anywhere in the line; one written again, `罚款 @甲 @甲 5`, is still one), else the author of the message
    the command replies to."""
    member_of(ctx, ctx.sender)  # the acting member gets a ledger name for the record
    typed = words(args)
    mentions = list(dict.fromkeys(name_key(word) for word in typed if word.startswith("@")))  # each spelling once
    if mentions:  # first (`罚款 @甲 20 迟到`) or after the reason (`罚款 迟到 @甲`)
        spelled = {name_key(word): word for word in reversed(typed) if word.startswith("@")}  # as first typed
        person = resolve_person(ctx, spelled[mentions[0]])
        if person is None:
            raise Refusal("mod_unknown_member", name=spelled[mentions[0]])
        for key in mentions[1:]:  # another spelling: the same member (a name picked from the list and the @username)
            if _named_other(ctx, spelled[key], person):
                # `罚款 @甲 @乙 20` would fine 甲 alone with the reason "@乙 20": one member per command
                raise Refusal("mod_one_member", name=spelled[key])
        rest = [word for word in typed if not word.startswith("@")]
        return _chat_member(ctx, person), " ".join(rest), None
    incoming = ctx.incoming
    if incoming is not None and incoming.reply_to is not None and incoming.reply_to.sender is not None:
        return _chat_member(ctx, member_of(ctx, incoming.reply_to.sender)), args.strip(), incoming.reply_to.message_id
    raise Refusal("mod_who")


def _named_other(ctx: Context, mention: str, person: MemberInfo) -> bool:
    """Whether `mention` names anyone but `person` (or nobody the group knows)."""
    try:
        found = resolve_person(ctx, mention)
    except Refusal:
        return True
    return found is None or found.id != person.id


def _fined_by_name(ctx: Context, args: str) -> None:
    """`罚款 大胖 5`, `大胖 罚款 5`: a fine of a member named by a plain name then an amount, no @mention and no reply;
    a name names nobody (docs/security.md), so it is refused with how to write it, answered even when the line did
    not start with the fine's word."""
    typed = words(args)
    replied = ctx.incoming is not None and ctx.incoming.reply_to is not None
    if replied or any(word.startswith("@") for word in typed) or len(typed) < 2:
        return
    if not looks_like_amount(typed[0]) and looks_like_amount(typed[1]):
        refused = Refusal("mod_fine_by_name", name=typed[0], rest=" ".join(typed[1:]))
        refused.heard = True
        raise refused


def _user_names(ctx: Context) -> dict[int, str]:
    """Telegram id → the member's name as the views show it."""
    shown = shown_names(ctx)
    return {m.user_id: shown.get(m.id, m.name) for m in ctx.service.members(ctx.chat_id) if m.user_id is not None}


def _chat_member(ctx: Context, person: MemberInfo) -> MemberInfo:
    if person.kind != "member" or person.user_id is None:
        raise Refusal("mod_not_a_member", name=shown_name(ctx, person))
    return person


def local_time(ctx: Context, moment: datetime, fmt: str) -> str:
    """A stored UTC time as the group's clock shows it."""
    zone = ZoneInfo(ctx.group.timezone) if ctx.group is not None else None
    return moment.astimezone(zone).strftime(fmt)


#: words after a fine that only say what a fine is (`罚 @x 5 发红包`): no reason, or the notice would read
#: 「被罚发红包 5元（发红包）」
FINE_SAID_AGAIN = frozenset({"发红包", "发个红包", "发红包吧", "红包", "罚红包"})


def _reason(ctx: Context, text: str) -> str:
    said = text.strip()
    return ctx.t("mod_no_reason") if not said or said in FINE_SAID_AGAIN else said


def _refuse_exempt(ctx: Context, person: MemberInfo) -> None:
    if person.user_id is not None and exempt(ctx, person.user_id):
        raise Refusal("mod_exempt", name=shown_name(ctx, person))


# ------------------------------------------------------------------------------------------- admin penalties


@_command(
    "warn",
    ["warn"],
    ["警告"],
    "警告成员（回复其消息或 @TA）：警告 @TA 原因",
    "warn a member: /warn @x reason",
    admin_only=True,
)
def warn(ctx: Context) -> SendText:
    person, rest, message_id = _target(ctx, ctx.args)
    _refuse_exempt(ctx, person)
    result = moderation(ctx).record_offence(
        person,
        "manual",
        _reason(ctx, rest),
        message_id=message_id,
        source=ctx.source,
        by=ctx.sender.user_id,
        step="warn",
    )
    return ctx.reply(
        "mod_warned",
        name=shown_name(ctx, person),
        reason=_reason(ctx, rest),
        n=result.offence_number,
        id=result.warning.id,
    )


@_command(
    "fine",
    ["fine"],
    ["罚款", "罚红包", *SHORT_FINE_WORDS, *RED_PACKET_FINE_WORDS],
    "罚发红包进红包池：罚款 @TA [金额] [原因]",
    "fine into the pot: /fine @x [amount] [reason]",
    admin_only=True,
)
def fine(ctx: Context) -> SendText:
    _fined_by_name(ctx, ctx.args)
    person, rest, message_id = _target(ctx, ctx.args)
    first, _, after = rest.partition(" ")
    if first and looks_like_amount(first):
        unit, _, reason_after_unit = after.strip().partition(" ")
        if unit in unit_words(currency(ctx)):  # the unit typed apart: `罚款 @TA 20 元 迟到`
            first, after = first + unit, reason_after_unit
        read, why = amount_or_why(ctx, first)
        if read is None:  # (0 is the ledger's to refuse: a fine is more than 0)
            raise Refusal("mod_bad_fine", text=first, most=money(MAX_AMOUNT, currency(ctx)), why=why)
        amount = read
    else:  # no amount: the group's fine, the words its reason
        amount, after = settings(ctx).fine_amount, rest
    _within_bounds(ctx, amount, first, "mod_what_fine")
    reason = _reason(ctx, after)
    action = moderation(ctx).fine(
        person, amount, reason, message_id=message_id, source=ctx.source, by=ctx.sender.user_id
    )
    return ctx.reply(
        "mod_fined", name=shown_name(ctx, person), amount=money(amount, currency(ctx)), reason=reason, id=action.id
    )


def _remove(ctx: Context, *, lasting: bool) -> list[Effect]:
    person, rest, message_id = _target(ctx, ctx.args)
    _refuse_exempt(ctx, person)
    assert person.user_id is not None
    _refuse_already_out(ctx, person, lasting=lasting)
    reason = _reason(ctx, rest)
    action = moderation(ctx).remove(
        person, reason, lasting=lasting, message_id=message_id, source=ctx.source, by=ctx.sender.user_id
    )
    moderation(ctx).mark_left(ctx.chat_id, person.user_id)  # out until they join again (`mark_back`)
    state(ctx.bot).detector.forget(ctx.chat_id, person.user_id)
    key = "mod_banned" if lasting else "mod_removed"
    return [
        ctx.reply(key, name=shown_name(ctx, person), reason=reason, id=action.id),
        BanMember(person.user_id, then_unban=not lasting),
    ]


def _refuse_already_out(ctx: Context, person: MemberInfo, *, lasting: bool) -> None:
    """A member already out of the group (removed, left) is not removed again, nor one banned banned again: a
    second 请出 would record a second removal and post it again. Banning one who is out stands: it keeps them
    out."""
    gone = _out_of_group(ctx).get(person.id)
    banned = gone == "mod_gone_ban"
    if banned or (not lasting and person.user_id in moderation(ctx).left_user_ids(ctx.chat_id)):
        raise Refusal("mod_already_out", name=shown_name(ctx, person), why=ctx.t(gone or "mod_gone_left"))


@_command(
    "kick",
    ["kick", "remove"],
    ["请出", "踢出", *KICK_SAID_WORDS],
    "请出成员（可再邀请）：请出 @TA 原因",
    "remove (may come back): /kick @x reason",
    admin_only=True,
)
def kick(ctx: Context) -> list[Effect]:
    return _remove(ctx, lasting=False)


@_command("ban", ["ban"], ["封禁"], "封禁成员：封禁 @TA 原因", "ban a member: /ban @x reason", admin_only=True)
def ban(ctx: Context) -> list[Effect]:
    return _remove(ctx, lasting=True)


@_command("unban", ["unban"], ["解封", "解禁"], "解除封禁：解封 @TA", "lift a ban: /unban @x", admin_only=True)
def unban(ctx: Context) -> list[Effect]:
    person, _, _ = _target(ctx, ctx.args)
    assert person.user_id is not None
    service = moderation(ctx)
    for action in service.standing(person).actions:
        if action.kind == "ban" and action.live:
            reason = ctx.t("mod_unban_reason")
            service.cancel(action.id, chat_id=ctx.chat_id, by=ctx.sender.user_id, reason=reason, source=ctx.source)
    return [ctx.reply("mod_unbanned", name=shown_name(ctx, person)), UnbanMember(person.user_id)]


#: a record number (#N) has at most this many digits: a database id, never past 64 bits
MAX_RECORD_DIGITS = 18


@_command(
    "pardon",
    ["pardon"],
    ["撤销处罚", "取消处罚"],
    "撤销一条警告/罚款/封禁：撤销处罚 #编号 [原因]",
    "cancel a warning/fine/ban: /pardon #id [reason]",
    admin_only=True,
)
def pardon(ctx: Context) -> list[Effect]:
    first, _, rest = ctx.args.strip().partition(" ")
    number = unicodedata.normalize("NFKC", first).lstrip("#")
    if not (number.isascii() and number.isdigit()):
        raise Refusal("mod_cancel_usage")
    if len(number) > MAX_RECORD_DIGITS:
        raise Refusal("mod_not_a_record", text=first)
    member_of(ctx, ctx.sender)
    service = moderation(ctx)
    pardon = service.cancel_offence(
        int(number), chat_id=ctx.chat_id, by=ctx.sender.user_id, reason=_reason(ctx, rest), source=ctx.source
    )
    cancelled = pardon.cancelled  # the record asked for first; the rest of its offence (a warning's fine or ban)
    name = _name_of_member(ctx, cancelled[0].member_id)
    extra = ""
    effects: list[Effect] = []
    fine = next((one for one in cancelled if one.kind == "fine"), None)
    if fine is not None:
        pot = ctx.service.balances(ctx.chat_id).pot
        extra = ctx.t(
            "mod_cancelled_fine", amount=money(fine.amount or 0, currency(ctx)), pot=money(pot, currency(ctx)) or "0"
        )
    if pardon.fine_kept is not None:  # its money cannot go back: the fine stays, and the reply says why
        kept = pardon.fine_kept
        extra = ctx.t(f"mod_fine_kept_{pardon.why_kept}", amount=money(kept.amount or 0, currency(ctx)), id=kept.id)
    effects += [UnbanMember(one.user_id) for one in cancelled if one.kind == "ban"]
    ids = joined(ctx.lang, (f"#{one.id}" for one in cancelled))
    kind = joined(ctx.lang, (ctx.t(f"mod_kind_{one.kind}") for one in cancelled))
    reply = SendText(ctx.t("mod_cancelled", id=ids, kind=kind, name=name, extra=extra).rstrip())
    return [reply, *effects]


def _name_of_member(ctx: Context, member_id: int) -> str:
    return shown_names(ctx).get(member_id, str(member_id))


# ------------------------------------------------------------------------------------------------ the record


#: how many of the group's records an admin's bare 违规记录 lists (the newest)
GROUP_RECORD_LINES = 20


def _record_line(ctx: Context, action: ActionInfo, names: dict[int, str], member: str | None = None) -> str:
    """One record as 违规记录 lists it; `member`: whose it is, in the group's list."""
    by = (
        ctx.t("mod_by_bot")
        if action.issued_by is None
        else ctx.t("mod_by_admin", name=names.get(action.issued_by, action.issued_by))
    )
    cancelled = "" if action.live else ctx.t("mod_cancelled_mark", reason=action.cancel_reason or "")
    amount = f" {money(action.amount, currency(ctx))}" if action.amount else ""
    return ctx.t(
        "mod_record_line" if member is None else "mod_group_record_line",
        id=action.id,
        when=local_time(ctx, action.created_at, "%m-%d %H:%M"),
        name=member,
        kind=ctx.t(f"mod_kind_{action.kind}"),
        amount=amount,
        reason=action.reason,
        by=by,
        cancelled=cancelled,
    )


@_command(
    "violations",
    ["violations", "modlog"],
    ["违规记录", "处罚记录"],
    "违规记录：自己的；管理员：全群最近的，违规记录 @TA 看某人的",
    "/violations: your own; admins: the group's latest, /violations @x one member's",
)
def violations(ctx: Context) -> SendText:
    if ctx.args.strip() or (ctx.incoming is not None and ctx.incoming.reply_to is not None):
        if not ctx.is_admin:
            raise Refusal("admin_only")
        person, _, _ = _target(ctx, ctx.args)
    elif ctx.is_admin:  # an admin asks about the group (their own record is 违规记录 @自己)
        return _group_record(ctx)
    else:
        person = member_of(ctx, ctx.sender)
    standing = moderation(ctx).standing(person)
    if not standing.actions:
        return ctx.reply("mod_record_empty", name=shown_name(ctx, person))
    names = _user_names(ctx)
    lines = [ctx.t("mod_record_head", name=shown_name(ctx, person), n=standing.live_warnings)]
    lines += [_record_line(ctx, action, names) for action in standing.actions]
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def _group_record(ctx: Context) -> SendText:
    """The group's latest records, newest first, each naming its member."""
    actions, total = moderation(ctx).recent_actions(ctx.chat_id, GROUP_RECORD_LINES)
    if not actions:
        return ctx.reply("mod_group_record_empty")
    names = _user_names(ctx)
    shown = shown_names(ctx)
    head = "mod_group_record_head" if total > len(actions) else "mod_group_record_head_all"
    lines = [ctx.t(head, total=total, n=len(actions))]
    lines += [_record_line(ctx, action, names, shown.get(action.member_id, "?")) for action in actions]
    return SendText("\n".join(lines), reply_to=ctx.message_id)


# ------------------------------------------------------------------------------------------------- the pot


@_command("pot", ["pot"], ["红包池", "红包池有多少", "红包池多少钱"], "红包池余额", "how much the pot holds")
def pot(ctx: Context) -> SendText:
    amount = ctx.service.balances(ctx.chat_id).pot
    if amount == 0:  # a pot below 0 (books from before pardons checked the pot) is shown as it is, never "empty"
        return ctx.reply("mod_pot_empty")
    return ctx.reply("mod_pot", amount=money(amount, currency(ctx)))


def _out_of_group(ctx: Context) -> dict[int, str]:
    """Members no longer in the group, each with why (a text key): left it, or removed or banned by an admin. The
    pot is paid to none of them."""
    service = moderation(ctx)
    gone = {a.member_id: f"mod_gone_{a.kind}" for a in service.actions(ctx.chat_id, kinds=("removal", "ban")) if a.live}
    left = service.left_user_ids(ctx.chat_id)
    for member in ctx.service.members(ctx.chat_id):
        if member.user_id in left:
            gone.setdefault(member.id, "mod_gone_left")
    return gone


@_command(
    "payout",
    ["payout"],
    ["发红包池", "派红包"],
    "发红包池（全体平分）｜发红包池 @甲 @乙｜发红包池 @甲 3 @乙 2",
    "pay out the pot: /payout | /payout @a @b | /payout @a 3 @b 2",
    admin_only=True,
)
def payout(ctx: Context) -> list[Effect]:
    tokens = words(ctx.args)
    # the bound first, before anyone is looked up; one name written again counts once (`@甲 @甲`: 写了两次, below)
    if len({name_key(token) for token in tokens if token.startswith("@")}) > MAX_PAYEES:
        raise Refusal("mod_payout_too_many", most=MAX_PAYEES)
    named: list[MemberInfo] = []
    amounts: dict[int, int] = {}
    for token in tokens:
        if looks_like_amount(token):
            value, why = amount_or_why(ctx, token)
            if not named or named[-1].id in amounts:
                raise Refusal("mod_payout_usage")
            if value is None or value <= 0:
                raise Refusal("mod_bad_amount", text=token, why=why or ctx.t("amount_why_positive"))
            _within_bounds(ctx, value, token, "mod_what_payout")
            amounts[named[-1].id] = value
            continue
        if not token.startswith("@"):
            raise Refusal("mod_payout_usage")
        person = resolve_person(ctx, token)
        if person is None:
            raise Refusal("mod_unknown_member", name=token)
        if any(p.id == person.id for p in named):
            raise Refusal("named_twice", name=shown_name(ctx, person))
        named.append(_chat_member(ctx, person))
    if amounts and len(amounts) != len(named):
        raise Refusal("mod_payout_usage")
    gone = _out_of_group(ctx)
    for person in named:  # the bare 发红包池 leaves them out; naming one is a mistake, not a way round it
        if person.id in gone:
            raise Refusal("mod_payout_gone", name=shown_name(ctx, person), why=ctx.t(gone[person.id]))
    in_pot = ctx.service.balances(ctx.chat_id).pot
    if in_pot <= 0:
        raise Refusal("mod_pot_empty")
    if amounts:
        to: Any = amounts
    elif named:
        to = [m.id for m in named]
    else:
        to = [m.id for m in ctx.service.members(ctx.chat_id) if m.kind == "member" and m.id not in gone]
    cur = currency(ctx)
    if amounts and sum(amounts.values()) > in_pot:
        raise Refusal("mod_pot_short", pot=money(in_pot, cur), need=money(sum(amounts.values()), cur))
    if not amounts and in_pot < len(to):
        raise Refusal("mod_pot_short_split", pot=money(in_pot, cur), n=len(to))
    booked = ctx.service.pay_out_pot(ctx.chat_id, to, source=ctx.source, by=ctx.sender.user_id)
    lines = [ctx.t("mod_paid_out")]
    lines += [ctx.t("mod_paid_line", name=t.payee, amount=money(t.amount, cur)) for t in booked]
    lines.append(ctx.t("mod_pot_left", amount=money(ctx.service.balances(ctx.chat_id).pot, cur) or "0"))
    return [SendText("\n".join(lines), reply_to=ctx.message_id), *settled_at_once(ctx)]


# ------------------------------------------------------------------------------------------------ rules text


def _is_owner(ctx: Context) -> bool:
    """The chat's owner; where the adapter knows no owner (the console, a group whose creator left), the admins."""
    return ctx.sender.user_id == ctx.owner_id if ctx.owner_id is not None else ctx.is_admin


def _may_edit_rules(ctx: Context, rules: RuleSettings) -> bool:
    return _is_owner(ctx) or (ctx.sender.user_id in rules.rules_editors and ctx.is_admin)


@_command("grouprules", ["grouprules"], ["群规", "群规则", "group rules"], "显示群规", "show the group's rules")
def show_rules(ctx: Context) -> SendText:
    current = moderation(ctx).rules_text(ctx.chat_id)
    text = current.text
    if current.edited_at is not None:
        names = _user_names(ctx)
        by = names.get(current.edited_by or 0, str(current.edited_by))
        text += "\n" + ctx.t("mod_rules_by", when=local_time(ctx, current.edited_at, "%Y-%m-%d %H:%M"), name=by)
    return SendText(text)


@_command(
    "setrules",
    ["setrules"],
    ["修改群规"],
    "修改群规（群主或群主指定的管理员）：修改群规 全文",
    "/setrules TEXT (owner or named admins)",
)
def set_rules(ctx: Context) -> SendText:
    if not _may_edit_rules(ctx, settings(ctx)):
        raise Refusal("mod_rules_owner_only")
    if not ctx.args.strip():
        raise Refusal("mod_rules_usage")
    member_of(ctx, ctx.sender)
    moderation(ctx).set_rules_text(ctx.chat_id, ctx.args, by=ctx.sender.user_id, source=ctx.source)
    return ctx.reply("mod_rules_saved")


@_command(
    "ruleseditor",
    ["ruleseditor"],
    ["群规编辑"],
    "群主指定可修改群规的管理员：群规编辑 @TA｜-@TA",
    "/ruleseditor @admin | -@admin (owner)",
)
def rules_editor(ctx: Context) -> SendText:
    rules = settings(ctx)
    editors = list(rules.rules_editors)
    tokens = words(ctx.args)
    if tokens:
        if not _is_owner(ctx):
            raise Refusal("mod_rules_owner_names")
        for token in tokens:
            remove = token.startswith("-")
            person = resolve_person(ctx, token.lstrip("-"))
            if person is None:
                raise Refusal("mod_unknown_member", name=token.lstrip("-"))
            user_id = _chat_member(ctx, person).user_id
            if not remove and user_id not in ctx.admin_ids:  # 修改群规 takes an admin: naming anyone else is void
                raise Refusal("mod_editor_not_admin", name=shown_name(ctx, person))
            if remove and user_id in editors:
                editors.remove(user_id)
            elif not remove and user_id not in editors and user_id is not None:
                editors.append(user_id)
        rules = moderation(ctx).update_settings(ctx.chat_id, {"rules_editors": editors}, by=ctx.sender.user_id)
        remember_settings(ctx, rules)
    names = _user_names(ctx)
    listed = joined(ctx.lang, [ctx.t("mod_owner"), *(str(names.get(u, u)) for u in rules.rules_editors)])
    return ctx.reply("mod_editors", names=listed)


@_command("ruleslog", ["ruleslog"], ["群规记录"], "群规修改记录", "who changed the rules, when")
def rules_log(ctx: Context) -> SendText:
    history = moderation(ctx).rules_history(ctx.chat_id)
    if not history:
        return ctx.reply("mod_rules_history_empty")
    names = _user_names(ctx)
    lines = [ctx.t("mod_rules_history_head")]
    for version in history:
        when = local_time(ctx, version.edited_at, "%Y-%m-%d %H:%M") if version.edited_at else ""
        first = version.text.strip().split("\n", 1)[0][:40]
        lines.append(
            ctx.t(
                "mod_rules_history_line",
                when=when,
                name=names.get(version.edited_by or 0, str(version.edited_by)),
                first=first,
            )
        )
    return SendText("\n".join(lines))


# ------------------------------------------------------------------------------------------------- reports


def message_link(chat_id: int, message_id: int) -> str:
    """A link admins can open: supergroups (-100…) have t.me/c/<id>/<message>; other chats only a number."""
    text = str(chat_id)
    if text.startswith("-100"):
        return f"https://t.me/c/{text[4:]}/{message_id}"
    return f"#{message_id}"


def _mention(member: MemberInfo, shown: dict[int, str]) -> str:
    """An admin to alert: their @username, else their name as the views show it."""
    return f"@{member.username}" if member.username else shown.get(member.id, member.name)


@_command(
    "flag",
    ["flag"],  # /report is the night report (bot/reports)
    ["举报"],
    "回复一条消息并发送 举报 [原因]，转给管理员",
    "reply to a message with /flag [reason] to alert the admins",
)
def flag(ctx: Context) -> list[Effect]:
    incoming = ctx.incoming
    if incoming is None or incoming.reply_to is None:
        raise Refusal("mod_report_usage")
    quoted = incoming.reply_to
    reporter = member_of(ctx, ctx.sender)
    author = member_of(ctx, quoted.sender) if quoted.sender is not None and not quoted.sender.is_bot else None
    shown = shown_names(ctx)
    if author is not None:
        target = shown.get(author.id, author.name)
    else:  # a bot's message, or one Telegram gave no sender
        target = quoted.sender.name if quoted.sender is not None else "?"
    admins = [m for m in ctx.service.members(ctx.chat_id) if m.user_id is not None and m.user_id in ctx.admin_ids]
    text = ctx.t(
        "mod_report",
        reporter=shown.get(reporter.id, reporter.name),
        target=target,
        link=message_link(ctx.chat_id, quoted.message_id),
        text=quoted.text[:200],
        reason=_reason(ctx, ctx.args),
        admins=" ".join(_mention(m, shown) for m in admins) or "-",
    )
    return [SendText(text, reply_to=quoted.message_id), ctx.reply("mod_report_thanks")]


# ------------------------------------------------------------------------------------------------- settings


def _setting_value(ctx: Context, name: str, current: RuleSettings) -> str:
    value = getattr(current, name)
    if name == "fine_amount":
        return money(value, currency(ctx)) or "0"
    if name == "rules_editors":  # Telegram ids, shown as the names the ledger knows them by
        named = _user_names(ctx)
        return _show(ctx, [named.get(user_id, str(user_id)) for user_id in value])
    return _show(ctx, value)


def _show(ctx: Context, value: Any) -> str:
    if isinstance(value, bool):
        return ctx.t("mod_on" if value else "mod_off")
    if isinstance(value, tuple | list):
        return joined(ctx.lang, (str(v) for v in value)) or "-"
    return "-" if value is None else str(value)


#: the Chinese names admins type for each 群管设置 setting (the first is the one shown beside its key)
SETTING_WORDS: dict[str, tuple[str, ...]] = {
    "flood": ("刷屏", "防刷屏", "刷屏检查"),
    "flood_max_messages": ("刷屏条数", "刷屏消息数"),
    "flood_window_seconds": ("刷屏秒数", "刷屏时间"),
    "repeat_count": ("重复条数", "重复次数"),
    "links": ("链接", "广告链接"),
    "invites": ("邀请链接", "群邀请", "拉群链接"),
    "ad_keywords": ("广告词", "广告关键词", "关键词"),
    "fine_amount": ("罚款", "罚金", "罚款金额", "罚红包"),
    "ladder": ("处罚", "处罚步骤", "处罚阶梯"),
    "warning_expiry_days": ("警告有效期", "警告天数", "警告过期"),
    "namecard": ("名片", "名片提醒", "名片检查"),
    "namecard_pattern": ("名片格式",),
    "namecard_example": ("名片例子", "名片示例"),
    "rules_editors": ("群规编辑", "改群规的人"),
}
#: the settings that are counts (of messages, seconds, days): typed in Chinese numerals too (`群管设置 刷屏条数 八`)
COUNTED_SETTINGS = frozenset({"flood_max_messages", "flood_window_seconds", "repeat_count", "warning_expiry_days"})
_SETTING_OF = {fold(word): key for key, names in SETTING_WORDS.items() for word in (key, *names)}


def _setting_key(ctx: Context, name: str) -> str:
    """The setting `name` names, by its key (`fine_amount`) or its Chinese name (`罚款`, `罚金`); refused with every
    setting listed, each by both names."""
    key = _SETTING_OF.get(fold(name))
    if key is None:
        named = (f"{k} ({SETTING_WORDS[k][0]})" if ctx.lang == "en" else _named(ctx, k) for k in SETTING_NAMES)
        raise Refusal("mod_no_setting", name=name, names=joined(ctx.lang, named))
    return key


def _named(ctx: Context, key: str) -> str:
    """A setting as the settings list and its change name it: by its Chinese name and its key (`罚款（fine_amount）`),
    in English by its key."""
    return key if ctx.lang == "en" else f"{SETTING_WORDS[key][0]}（{key}）"


@_command("modset", ["modset"], ["群管设置"], "群规设置：群管设置 [名称 值]", "/modset [NAME VALUE]", admin_only=True)
def modset(ctx: Context) -> SendText:
    typed_name, _, value = ctx.args.strip().partition(" ")
    if not typed_name:
        current = settings(ctx)
        lines = [ctx.t("mod_settings_head")]
        lines += [f"{_named(ctx, key)} = {_setting_value(ctx, key, current)}" for key in SETTING_NAMES]
        return SendText("\n".join(lines))
    name = _setting_key(ctx, typed_name)
    if not value.strip():
        raise Refusal("mod_settings_usage")
    typed: Any = in_digits(value.strip()) if name in COUNTED_SETTINGS else value.strip()  # `刷屏条数 八`
    if name == "fine_amount":  # typed in the group's currency like every amount in chat: 5 → 500 分
        typed, why = amount_or_why(ctx, value.strip())
        if typed is None:
            raise Refusal("mod_bad_amount", text=value.strip(), why=why)
        _within_bounds(ctx, typed, value.strip(), "mod_what_fine")
    new = moderation(ctx).update_settings(ctx.chat_id, {name: typed}, by=ctx.sender.user_id)
    remember_settings(ctx, new)
    return ctx.reply("mod_settings_saved", name=_named(ctx, name), value=_setting_value(ctx, name, new))
