"""名片 (alias): the name the ledger shows for a member; 关联 links a guest seated by name to a real member."""

from __future__ import annotations

from bot.commands._common import me, reserved_name, resolve_person, seat_of_member, shown_name, shown_names
from bot.core import Context, Refusal, SendText, registry
from bot.grammar import tokens
from bot.texts import joined
from bot.vocabulary import COMMAND_WORDS
from ledger.accounts import clashes, own_handle

MAX_ALIAS = 16


@registry.command(
    "alias",
    names=["alias", "name"],
    aliases=COMMAND_WORDS["alias"],
    help_zh="名片：名片 刘三（账上显示的名字）｜ 名片（看自己的）｜ 名片 @乙 老王（管理员给别人改）｜ 名片 清除",
    help_en="your name in the ledger (名片): nickname Liu | nickname (show) | nickname @b Wang (admins) | "
    "nickname clear",
)
def alias(ctx: Context) -> SendText:
    items = tokens(ctx.args)
    target = me(ctx)
    if items and items[0].startswith("@"):
        found = resolve_person(ctx, items[0])
        if not ctx.is_admin and (found is None or found.id != target.id):  # `名片 @自己 …` is one's own
            raise Refusal("alias_others_admin_only")
        if found is None:
            raise Refusal("unknown_player", name=items[0].lstrip("@"))
        target, items = found, items[1:]
    reply_to = ctx.message_id
    if not items:
        alias_now = target.alias or ctx.t("alias_none")
        shown = ctx.t("alias_show", name=shown_name(ctx, target), display=target.display_name, alias=alias_now)
        return SendText(shown, reply_to=reply_to)
    new = " ".join(items)
    clear = new in {"清除", "删除", "clear", "-"}
    if not clear and (len(new) > MAX_ALIAS or new.startswith("@")):
        raise Refusal("alias_bad", max=MAX_ALIAS)
    if not clear and reserved_name(new):
        raise Refusal("name_reserved", name=new)
    # another's label, or another member's @username: a 名片 never reads as someone else; one's own @username is
    # one's own to take (an impostor showing it keeps its number: `wangge#2`)
    if not clear and not own_handle(new, target.username):
        taken = [
            person
            for person in ctx.service.members(ctx.chat_id)
            if person.id != target.id
            and person.kind in ("member", "guest")
            and any(clashes(new, name, person.username) for name in (person.alias or "", person.display_name))
        ]
        if taken:  # each by the name replies give them (老王, 老王#2), however many share the label
            known = shown_names(ctx)
            names = joined(ctx.lang, (known.get(person.id, person.name) for person in taken))
            raise Refusal("alias_taken", alias=new, name=names)
    was = shown_names(ctx).get(target.id, target.name)
    updated = ctx.service.set_alias(target.id, None if clear else new, source=ctx.source, by=ctx.sender.user_id)
    lines = [ctx.t("alias_cleared" if clear else "alias_set", name=was, alias=updated.name)]
    # a player at the open table keeps the seat name it was opened with (scoring events name seats), and every
    # view names them so until the table ends (`Ledger.names`): say so
    seat = seat_of_member(ctx.table, target.id) if ctx.table is not None else None
    if seat is not None and seat != updated.name:
        lines.append(ctx.t("alias_seat_kept", seat=seat))
    return SendText("\n".join(lines), reply_to=reply_to)


@registry.command(
    "link",
    names=["link"],
    aliases=COMMAND_WORDS["link"],
    help_zh="关联（管理员）：关联 老王 @wang —— 把客人「老王」的账并到群成员 @wang 名下",
    help_en="link (admins; 关联): link 老王 @wang — move guest 老王's record to member @wang",
    admin_only=True,
)
def link(ctx: Context) -> SendText:
    items = tokens(ctx.args)
    if len(items) != 2:
        raise Refusal("link_usage")
    guest = ctx.service.find_guest(ctx.chat_id, items[0].lstrip("@"))
    if guest is None:
        raise Refusal("link_not_guest", name=items[0])
    member = resolve_person(ctx, items[1])
    if member is None or member.kind != "member":
        raise Refusal("unknown_player", name=items[1].lstrip("@"))
    shown = shown_names(ctx)
    ctx.service.link_guest(guest.id, member.id, source=ctx.source, by=ctx.sender.user_id)
    return SendText(
        ctx.t("linked", guest=shown.get(guest.id, guest.name), member=shown.get(member.id, member.name)),
        reply_to=ctx.message_id,
    )
