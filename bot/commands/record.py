"""Recording a 卡五星 hand as it happens: 杠 (kongs, 杠上杠 chains), 亮倒, 胡 (tiles or named patterns, 一炮双响),
荒庄, and 撤销 (undo). Every recording answers with what was understood and each player's change."""

from __future__ import annotations

from typing import Any

from bot.commands._common import current_table, me, net_by_member, seat_of_member, seat_resolver
from bot.commands.chat_options import minggang
from bot.commands.suggest import ask, offer
from bot.core import Context, Refusal, SendText, registry
from bot.grammar import GrammarError, KongSpec, WinSpec, implied, parse_kong, parse_nothing, parse_player, parse_win
from bot.texts import describe_event, describe_win
from bot.vocabulary import COMMAND_WORDS

KAWUXING = ("kawuxing",)


def _my_seat(ctx: Context, table: Any) -> str | None:
    return seat_of_member(table, me(ctx).id)


def _kawuxing_table(ctx: Context) -> Any:
    table = current_table(ctx)
    if table.game != "kawuxing":
        raise Refusal("wrong_game_command")
    return table


# ---------------------------------------------------------------------------------------------------------- kongs


@registry.command(
    "gang",
    names=["gang", "kong"],
    aliases=COMMAND_WORDS["gang"],
    help_zh="杠：暗杠三条 ｜ 蓄杠 ｜ 直杠 9p 点 @乙 ｜ 点杠 @乙 ｜ 杠 @丙 直 点 @乙 杠上杠（只写「杠」出按钮）",
    help_en="kong: 暗杠 3s | 蓄杠 | 直杠 9p 点 @b | 点杠 @b | 杠 @c 直 点 @b 杠上杠 (plain 杠 shows buttons)",
    games=KAWUXING,
    on_edit=True,
)
def record_kong(ctx: Context) -> Any:
    table = _kawuxing_table(ctx)
    if not ctx.args and ctx.word.lower() in {"杠", "gang", "kong"}:
        from bot.commands.flows import start_flow

        return start_flow(ctx, table, "gang")
    mine, resolve = _my_seat(ctx, table), seat_resolver(ctx, table)

    def reading(args: str) -> dict[str, Any]:
        spec = parse_kong(ctx.word, args, mine, resolve, lambda: minggang(ctx))
        return kong_event(spec, ctx.service.hand_state(table.id).events)

    try:
        event = reading(ctx.args)
    except GrammarError as err:
        return offer(ctx, table, err, reading, word="直杠" if implied(ctx.word) else ctx.word)
    return book(ctx, table, [event])


def kong_event(spec: KongSpec, events: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> dict[str, Any]:
    """The scoring event of a kong; 杠上杠 continues the chain of the kong just before it."""
    if spec.kind is None:
        raise Refusal("kong_kind_missing")
    if spec.kind == "zhigang" and spec.discarder is None:
        raise Refusal("kong_discarder_missing")
    if spec.kind != "zhigang" and spec.discarder is not None:
        raise Refusal("kong_discarder_only_zhigang")
    if spec.discarder == spec.player:
        raise Refusal("self_discard", name=spec.player)
    chain = 1
    if spec.chained:
        last = events[-1] if events else None
        if last is None or last.get("type") != "gang":
            raise Refusal("chain_without_kong")
        chain = int(last.get("chain", 1)) + 1
    event: dict[str, Any] = {"type": "gang", "player": spec.player, "kind": spec.kind, "chain": chain}
    if spec.discarder is not None:
        event["from"] = spec.discarder
    if spec.tile is not None:
        event["tile"] = spec.tile
    return event


# ---------------------------------------------------------------------------------------------------------- 亮倒


@registry.command(
    "liangdao",
    names=["liangdao", "ready"],
    aliases=COMMAND_WORDS["liangdao"],
    help_zh="亮倒：亮倒（自己）或 亮倒 @乙（也可写 亮牌、报听）",
    help_en="declare 亮倒: 亮倒 (yourself) or 亮倒 @b",
    games=KAWUXING,
    on_edit=True,
)
def record_liangdao(ctx: Context) -> SendText:
    table = _kawuxing_table(ctx)
    mine, resolve = _my_seat(ctx, table), seat_resolver(ctx, table)
    try:
        player = parse_player(ctx.args, mine, resolve)
    except GrammarError as err:
        return offer(ctx, table, err, lambda args: parse_player(args, mine, resolve), word=ctx.word)
    state = ctx.service.hand_state(table.id)
    if player in state.liangdao and not (ctx.incoming and ctx.incoming.edited):
        raise Refusal("liangdao_twice", name=player)
    return book(ctx, table, [{"type": "liangdao", "player": player}])


# ---------------------------------------------------------------------------------------------------------- 胡


@registry.command(
    "hu",
    names=["hu", "win"],
    aliases=COMMAND_WORDS["hu"],
    help_zh=(
        "胡：胡 123p46p789s22s333s 5p 点 @乙 ｜ 胡 清一色 七对 自摸 ｜ 自摸 清一色 ｜ 胡清一色点@乙 ｜ "
        "胡 @丙 卡五星 杠上炮 点 @乙 ｜ 一炮双响：胡 @甲 卡五星 @丙 七对 点 @乙（只写「胡」出按钮）"
    ),
    help_en=(
        "win: 胡 123p46p789s22s333s 5p 点 @b | 胡 清一色 七对 自摸 | 自摸 清一色 | 胡 @c 卡五星 杠上炮 点 @b | "
        "double win: 胡 @a 卡五星 @c 七对 点 @b (plain 胡 shows buttons)"
    ),
    games=KAWUXING,
    on_edit=True,
)
def record_win(ctx: Context) -> Any:
    table = _kawuxing_table(ctx)
    said = implied(ctx.word)  # `自摸 清一色` is `胡 清一色 自摸`
    if not ctx.args and not said and not (ctx.incoming and ctx.incoming.edited):
        from bot.commands.flows import start_flow

        return start_flow(ctx, table, "hu")
    mine, resolve = _my_seat(ctx, table), seat_resolver(ctx, table)

    def reading(args: str) -> list[dict[str, Any]]:
        return [win_event(spec) for spec in parse_win(args, mine, resolve, lambda: minggang(ctx))]

    try:
        events = reading(f"{ctx.args} {said}")
    except GrammarError as err:
        return offer(ctx, table, err, reading, word="胡")
    if not ctx.args and said:  # a bare `自摸`: a 屁胡, or patterns left out? Asked, never booked on a guess
        return ask(ctx, table, "胡", f"屁胡 {said}", ctx.t("suggest_bare", word=ctx.word))
    return book(ctx, table, events)


def win_event(spec: WinSpec) -> dict[str, Any]:
    """The scoring `hu` event of one winner: tiles when typed, else the declared patterns (屁胡: none).
    亮倒 is not repeated here: the scoring core reads it from the hand's 亮倒 events."""
    if spec.method is None:
        raise Refusal("method_missing", name=spec.winner)
    if spec.method in {"discard", "rob_kong"} and spec.discarder is None:
        raise Refusal("discarder_missing", word="点")
    if spec.discarder == spec.winner:
        raise Refusal("self_discard", name=spec.winner)
    hand: dict[str, Any] = {"situations": list(spec.situations)}
    if spec.tiles:
        if spec.patterns:
            raise Refusal("tiles_and_patterns")
        concealed, win_tile = split_win_tile(spec.tiles, len(spec.melds))
        hand.update(concealed=concealed, win_tile=win_tile, melds=list(spec.melds))
    else:
        hand["patterns"] = list(spec.patterns)
        if spec.melds:
            hand["melds"] = list(spec.melds)
    event: dict[str, Any] = {"type": "hu", "winner": spec.winner, "method": spec.method, "hand": hand}
    if spec.discarder is not None:
        event["from"] = spec.discarder
    return event


def split_win_tile(typed: list[str], melds: int) -> tuple[str, str]:
    """Concealed tiles and the winning tile: `123p46p789s22s333s 5p`, or one run whose last tile is the win."""
    from ledger.scoring.tiles import format_notation, parse_tiles, tile_notation

    if len(typed) >= 2 and len(parse_tiles(typed[-1])) == 1:
        return "".join(typed[:-1]), typed[-1]
    tiles = [tile for token in typed for tile in parse_tiles(token)]
    if (len(tiles) + 3 * melds) % 3 != 2:
        raise Refusal("win_tile_missing", count=len(tiles))
    return format_notation(tiles[:-1]), tile_notation(tiles[-1])


# ---------------------------------------------------------------------------------------------------------- 荒庄


@registry.command(
    "draw",
    names=["draw"],
    aliases=COMMAND_WORDS["draw"],
    help_zh="荒庄：牌摸完没人胡（杠钱照算，亮倒的按规则赔；也可写 流局、黄庄、臭庄、荒了）",
    help_en="a drawn hand (kong money stands; 亮倒 penalty per the rules)",
    games=KAWUXING,
    on_edit=True,
)
def record_draw(ctx: Context) -> SendText:
    table = _kawuxing_table(ctx)
    try:
        parse_nothing(ctx.args)
    except GrammarError as err:
        return offer(ctx, table, err, parse_nothing, word=ctx.word)
    return book(ctx, table, [{"type": "draw"}])


def book(ctx: Context, table: Any, events: list[dict[str, Any]]) -> SendText:
    """Book events; an edited message replaces what its first version recorded (a refused first version, which
    recorded nothing, is simply recorded now)."""
    from ledger.service import LedgerError

    incoming = ctx.incoming
    result = None
    if incoming is not None and incoming.edited:
        ctx.service.finish_flow(ctx.chat_id, incoming.message_id)  # a question about the old text is answered
        try:
            result = ctx.service.replace_hand(
                incoming.original_source, events, source=ctx.source, by=ctx.sender.user_id, reason="edit"
            )
        except LedgerError as err:
            if err.code != "nothing_to_edit":
                raise
    if result is None:
        result = ctx.service.record_events(table.id, events, source=ctx.source, by=ctx.sender.user_id)
        edited = False
    else:
        edited = True
    if result.finished:
        return hand_reply(ctx, table, result, edited=edited)
    what = "；".join(describe_event(ctx.lang, event) for event in events)
    return event_reply(ctx, table, result, what, edited=edited)


# ---------------------------------------------------------------------------------------------------------- replies


def event_reply(ctx: Context, table: Any, result: Any, what: str, *, edited: bool = False) -> SendText:
    """`第2局 杠：乙 直杠（点 甲）` and each player's change and night balance."""
    from bot.commands._common import change_lines

    changes = net_by_member(result.booked, result.voided)
    lines = [ctx.t("event_edited" if edited else "event_recorded", number=result.number, what=what)]
    if changes:
        lines += change_lines(ctx, table, changes)
    if result.liangdao:
        lines.append(ctx.t("liangdao_state", names="、".join(result.liangdao)))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def hand_reply(ctx: Context, table: Any, result: Any, *, edited: bool = False) -> SendText:
    """The reply to a finished hand: what was understood, patterns and multiple, changes, the next dealer."""
    from bot.commands._common import change_lines

    lines = [ctx.t("hand_edited" if edited else "hand_recorded", number=result.number)]
    lines += describe_win(ctx.lang, result.events, result.answer)
    changes = net_by_member(result.booked, result.voided)
    lines += change_lines(ctx, table, changes)
    lines.append(ctx.t("next_hand", number=result.number + 1, dealer=result.next_dealer))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


# ---------------------------------------------------------------------------------------------------------- 撤销


@registry.command(
    "undo",
    names=["undo"],
    aliases=COMMAND_WORDS["undo"],
    help_zh="撤销：撤销本局最后一条记录；本局还没记东西时撤销上一局（也可写 撤回、回退）",
    help_en="undo the last record of this hand, or the last hand when this one is empty",
)
def undo(ctx: Context) -> SendText:
    table = current_table(ctx)
    result = ctx.service.undo(table.id, source=ctx.source, by=ctx.sender.user_id, reason="undo")
    from bot.commands._common import change_lines

    changes = net_by_member(result.rebooked, result.voided)
    if result.what == "event" and result.event is not None:
        head = ctx.t("undone_event", what=describe_event(ctx.lang, result.event, table.game, table.dealer))
    else:
        head = ctx.t("undone_hand", number=result.hand_number)
    lines = [head, *change_lines(ctx, table, changes)] if changes else [head]
    key = "hand_continues" if result.what == "event" else "next_hand"
    key += "_no_dealer" if result.dealer is None else ""
    lines.append(ctx.t(key, number=result.hand_number, dealer=result.dealer))
    return SendText("\n".join(lines), reply_to=ctx.message_id)
