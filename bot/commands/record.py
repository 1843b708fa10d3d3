"""Recording a 卡五星 hand as it happens: 杠 (kongs, 杠上杠 chains), 亮倒, 胡 (tiles or named patterns, 一炮双响),
荒庄, and 撤销 (undo). Every recording answers with what was understood and each player's change."""

from __future__ import annotations

from bot.commands._common import book, change_lines, current_table, my_seat, net_by_member, seat_resolver
from bot.commands._recording import event_reply, hand_reply, kawuxing_table, kong_of, win_of
from bot.commands.flows import start_flow
from bot.core import Context, Refusal, SendText, registry
from bot.grammar import GrammarError, parse_kong, parse_win, tokens
from bot.texts import describe_event
from ledger.events import Draw, Event, Liangdao
from ledger.service import LedgerError, TableInfo

KAWUXING = ("kawuxing",)


# ---------------------------------------------------------------------------------------------------------- kongs


@registry.command(
    "gang",
    names=["gang", "kong"],
    aliases=["杠", "暗杠", "蓄杠", "加杠", "补杠", "直杠", "明杠"],
    help_zh="杠：暗杠 3s ｜ 蓄杠 ｜ 直杠 9p 点 @乙 ｜ 杠 @丙 直 点 @乙 杠上杠（只写「杠」出按钮）",
    help_en="kong: 暗杠 3s | 蓄杠 | 直杠 9p 点 @b | 杠 @c 直 点 @b 杠上杠 (plain 杠 shows buttons)",
    games=KAWUXING,
    on_edit=True,
)
def record_kong(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    if not ctx.args and ctx.word.lower() in {"杠", "gang", "kong"}:
        return start_flow(ctx, table, "gang")
    try:
        spec = parse_kong(ctx.word, ctx.args, my_seat(ctx, table), seat_resolver(ctx, table))
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    return _record(ctx, table, [kong_of(spec)])


# ---------------------------------------------------------------------------------------------------------- 亮倒


@registry.command(
    "liangdao",
    names=["liangdao", "ready"],
    aliases=["亮倒", "亮牌"],
    help_zh="亮倒：亮倒（自己）或 亮倒 @乙",
    help_en="declare 亮倒: 亮倒 (yourself) or 亮倒 @b",
    games=KAWUXING,
    on_edit=True,
)
def record_liangdao(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    resolve = seat_resolver(ctx, table)
    names = [resolve(token) for token in tokens(ctx.args)]
    if any(name is None for name in names):
        bad = next(t for t, n in zip(tokens(ctx.args), names, strict=True) if n is None)
        raise Refusal("unknown_word", word=bad)
    if len(names) > 1:
        raise Refusal("one_player_only")
    player = names[0] if names else my_seat(ctx, table)
    if player is None:
        raise Refusal("player_missing")
    return _record(ctx, table, [Liangdao(player)])


# ---------------------------------------------------------------------------------------------------------- 胡


@registry.command(
    "hu",
    names=["hu", "win"],
    aliases=["胡", "胡了", "自摸"],
    help_zh=(
        "胡：胡 123p46p789s22s333s 5p 点 @乙 ｜ 胡 清一色 七对 自摸 ｜ 胡 @丙 卡五星 杠上炮 点 @乙 ｜ "
        "一炮双响：胡 @甲 卡五星 @丙 七对 点 @乙（只写「胡」出按钮）"
    ),
    help_en=(
        "win: 胡 123p46p789s22s333s 5p 点 @b | 胡 清一色 七对 自摸 | 胡 @c 卡五星 杠上炮 点 @b | "
        "double win: 胡 @a 卡五星 @c 七对 点 @b (plain 胡 shows buttons)"
    ),
    games=KAWUXING,
    on_edit=True,
)
def record_win(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    args = ctx.args
    if ctx.word == "自摸":
        args = f"{args} 自摸"
    elif not args and not (ctx.incoming and ctx.incoming.edited):
        return start_flow(ctx, table, "hu")
    try:
        specs = parse_win(args, my_seat(ctx, table), seat_resolver(ctx, table))
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    return _record(ctx, table, [win_of(spec) for spec in specs])


# ---------------------------------------------------------------------------------------------------------- 荒庄


@registry.command(
    "draw",
    names=["draw"],
    aliases=["荒庄", "流局", "黄庄"],
    help_zh="荒庄：牌摸完没人胡（杠钱照算，亮倒的按规则赔）",
    help_en="a drawn hand (kong money stands; 亮倒 penalty per the rules)",
    games=KAWUXING,
    on_edit=True,
)
def record_draw(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    if ctx.args:
        raise Refusal("unknown_word", word=tokens(ctx.args)[0])
    return _record(ctx, table, [Draw()])


def _record(ctx: Context, table: TableInfo, events: list[Event]) -> SendText:
    """Book the events (an edit replaces what its message recorded) and answer with what changed."""
    try:
        result, edited = book(ctx, table, events)
    except LedgerError as err:
        if err.code == "chain_without_kong":
            raise Refusal("chain_without_kong") from err
        if err.code == "liangdao_twice" and isinstance(events[0], Liangdao):
            raise Refusal("liangdao_twice", name=events[0].player) from err
        raise
    if result.finished:
        return hand_reply(ctx, table, result, edited=edited)
    what = "；".join(describe_event(ctx.lang, event) for event in result.recorded)
    return event_reply(ctx, table, result, what, edited=edited)


# ---------------------------------------------------------------------------------------------------------- 撤销


@registry.command(
    "undo",
    names=["undo"],
    aliases=["撤销", "撤回", "undo", "悔"],
    help_zh="撤销：撤销本局最后一条记录；本局还没记东西时撤销上一局",
    help_en="undo the last record of this hand, or the last hand when this one is empty",
)
def undo(ctx: Context) -> SendText:
    table = current_table(ctx)
    result = ctx.service.undo(table.id, source=ctx.source, by=ctx.sender.user_id, reason="undo")
    changes = net_by_member(result.rebooked, result.voided)
    if result.what == "event" and result.event is not None:
        head = ctx.t("undone_event", what=describe_event(ctx.lang, result.event, table.game, table.dealer))
    else:
        head = ctx.t("undone_hand", number=result.hand_number)
    lines = [head, *change_lines(ctx, table, changes, result.night_total)] if changes else [head]
    key = "hand_continues" if result.what == "event" else "next_hand"
    key += "_no_dealer" if result.dealer is None else ""
    lines.append(ctx.t(key, number=result.hand_number, dealer=result.dealer))
    return SendText("\n".join(lines), reply_to=ctx.message_id)
