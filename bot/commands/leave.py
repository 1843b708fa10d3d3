"""`退桌`: leave a table one never agreed to. Anyone may open a table seating others (one friend opens for everyone,
nothing to tap), so a member seated by someone else may void it while they have taken no part in it — opened,
recorded or taken back nothing at it —: the table ends and every hand booked at it is voided, its money back. Once
they took part it is their game too (refused: ask an admin); an admin may always void the open table."""

from __future__ import annotations

from bot.commands._common import shown_names
from bot.commands.regional import refuse_while_waiting
from bot.core import Context, Quiet, Refusal, SendText, registry
from bot.texts import register
from ledger.errors import LedgerError

register(
    {
        "leave_table_done": {
            "zh": "🚪 {name} 退桌：这桌是 {opener} 开的，{name} 没同意上桌。牌桌作废：{what}要打请重新开桌。",
            "en": "🚪 {name} left the table {opener} opened without their agreement. The table is void: {what}"
            "Open a new one to play.",
        },
        "leave_table_admin": {
            "zh": "🚪 管理员 {name} 作废了这桌（{opener} 开的）：{what}",
            "en": "🚪 Admin {name} voided the table {opener} opened: {what}",
        },
        "leave_table_hands": {
            "zh": "记下的 {hands} 局都撤销了，钱已退回。",
            "en": "its {hands} hand(s) are taken back, the money returned. ",
        },
        "leave_table_nothing": {"zh": "还没有记账。", "en": "nothing was booked yet. "},
        "leave_table_reason": {"zh": "退桌：没同意上桌", "en": "left: seated without agreeing"},
        "leave_table_took_part": {
            "zh": "没有作废：这桌你开过、记过、撤过牌或赢过钱，算你同意上桌了。要作废请找管理员（管理员发 退桌）。",
            "en": "Not voided: you opened, recorded, took back or won something at this table, so you agreed to play. "
            "Ask an admin to void it (an admin sends leave table).",
        },
        "leave_table_too_late": {
            "zh": "没有作废：开桌超过 30 分钟了，坐着打了这么久，算你同意上桌了。要作废请找管理员（管理员发 退桌）。",
            "en": "Not voided: the table opened over 30 minutes ago, so you played at it. Ask an admin to void it "
            "(an admin sends leave table).",
        },
        "leave_table_not_seated": {
            "zh": "你不在这桌上，不用退桌。",
            "en": "You have no seat at this table: nothing to leave.",
        },
    }
)


@registry.command(
    "leave_table",
    names=["leavetable"],
    aliases=["退桌", "我没上桌", "我没同意上桌", "leave table"],
    help_zh="退桌：别人把你拉上桌、你没同意（这桌你还没开过、记过、撤过牌），牌桌作废、记的账全部撤销；管理员随时可以",
    help_en="leave table: you were seated without agreeing (and did nothing at the table): the table is void, "
    "its hands taken back; an admin always may",
    in_menu=False,
)
def leave_table(ctx: Context) -> SendText:
    if ctx.args.strip():
        raise Quiet  # `退桌了吗` / `退桌 明天再说`: chat
    table = ctx.table
    if table is None:
        raise Refusal("no_table")
    refuse_while_waiting(ctx, table, "waiting_action_leave")
    name = shown_names(ctx)
    try:
        left = ctx.service.leave_table(
            table.id,
            ctx.sender.user_id,
            admin=ctx.is_admin,
            source=ctx.source,
            reason=ctx.t("leave_table_reason"),
        )
    except LedgerError as err:
        if err.code in ("took_part", "not_seated", "too_late"):
            raise Refusal(f"leave_table_{err.code}") from err
        raise
    what = ctx.t("leave_table_hands", hands=left.hands) if left.hands else ctx.t("leave_table_nothing")
    opener = name.get(left.opened_by, "?") if left.opened_by is not None else "?"
    if left.seat is not None and not ctx.is_admin:
        return ctx.reply("leave_table_done", name=left.seat, opener=opener, what=what)
    return ctx.reply("leave_table_admin", name=ctx.sender.name, opener=opener, what=what)
