"""Recording a 卡五星 hand as it happens: 杠 (kongs, 杠上杠 chains), 亮倒, 胡 (tiles or named patterns, 一炮双响),
荒庄 (撤销 is `undo.py`). Every recording answers with what was understood and each player's change; only the
players at the table and admins record (`bot.permissions`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta

from bot.commands._common import (
    book,
    my_seat,
    replayed_reply,
    seat_resolver,
)
from bot.commands._inputs import table_rules
from bot.commands._recording import event_reply, hand_reply, kawuxing_table, kong_of, ready_of, win_of
from bot.commands.chat_options import minggang
from bot.commands.duplicates import KIND as DUPLICATE
from bot.commands.duplicates import double_win_by_typing, hold_back, question_key
from bot.commands.flows import start_flow
from bot.commands.regional import prepare, refuse_unbookable
from bot.commands.suggest import ask, offer
from bot.core import Context, Effect, Quiet, Refusal, SendText, registry
from bot.grammar import (
    BY_PATTERNS,
    NOT_A_DOUBLE_WIN,
    GrammarError,
    WinSpec,
    fold,
    implied,
    parse_double_win,
    parse_draw,
    parse_kong,
    parse_player,
    parse_win,
    stated_amounts,
    win_words_only,
)
from bot.texts import describe_event, joined
from bot.vocabulary import (
    COMMAND_WORDS,
    DEALT_IN_WORDS,
    DOUBLE_WIN_WORDS,
    FIRST_PERSON_RECORD_WORDS,
    FIRST_PERSON_WIN_WORDS,
    KONGS_SAID,
    WON_BARE_EN,
    WON_EN,
)
from ledger.errors import ScoringRefused
from ledger.events import Draw, Event, Kong, Liangdao, Win
from ledger.scoring.common import ScoringError
from ledger.service import DuplicateRecord, LedgerError, TableInfo

KAWUXING = ("kawuxing",)


# ---------------------------------------------------------------------------------------------------------- kongs


@registry.command(
    "gang",
    names=["gang", "kong"],
    aliases=COMMAND_WORDS["gang"],
    help_zh="杠：暗杠三条 ｜ 蓄杠 ｜ 直杠 9p 点 @乙 ｜ 点杠 @乙 ｜ 杠 @丙 直 点 @乙 杠上杠"
    "（只写「杠」出按钮，点或打字回答：小李、直杠、确认）",
    help_en="kong: concealed kong 3s | added kong | exposed kong 9p from @b | exposed kong @c from @b 杠上杠 (plain "
    "kong shows buttons: tap, or type the answer — a name, exposed, confirm)",
    games=KAWUXING,
    on_edit=True,
)
def record_kong(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    word = KONGS_SAID.get(ctx.word, ctx.word)  # `我暗杠了 3s` is `暗杠 3s`, the sender's own (`_first_person`)
    mine, resolve = my_seat(ctx, table), seat_resolver(ctx, table)
    if not ctx.args and word.lower() in {"杠", "gang", "kong"}:  # `我杠了` alone: the sender's kong, its kind asked
        return start_flow(ctx, table, "gang", mine if ctx.word in FIRST_PERSON_RECORD_WORDS else None)

    def reading(args: str) -> Kong:
        return kong_of(parse_kong(word, args, mine, resolve, lambda: minggang(ctx)))

    try:
        event = reading(ctx.args)
    except GrammarError as err:
        return offer(ctx, table, err, reading, word="直杠" if implied(word) else word)
    _first_person(ctx, mine, event.player)
    return _record(ctx, table, [event])


def _first_person(ctx: Context, mine: str | None, player: str) -> None:
    """`我暗杠了 @c`, `我亮倒了 @c`: the word says the sender, the line names another; refused, not guessed."""
    if ctx.word in FIRST_PERSON_RECORD_WORDS and player != mine:
        raise Refusal("first_person_other_player", word=ctx.word, name=player)


# ---------------------------------------------------------------------------------------------------------- 亮倒


@registry.command(
    "liangdao",
    names=["liangdao", "ready"],
    aliases=COMMAND_WORDS["liangdao"],
    help_zh="亮倒：亮倒（自己）或 亮倒 @乙（也可写 亮牌、报听）",
    help_en="declare ready (亮倒): ready (yourself) or ready @b",
    games=KAWUXING,
    on_edit=True,
)
def record_liangdao(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    mine, resolve = my_seat(ctx, table), seat_resolver(ctx, table)
    try:
        player = parse_player(ctx.args, mine, resolve)
    except GrammarError as err:
        return offer(ctx, table, err, lambda args: parse_player(args, mine, resolve), word=ctx.word)
    _first_person(ctx, mine, player)
    return _record(ctx, table, [Liangdao(player)])


# ---------------------------------------------------------------------------------------------------------- 胡


@registry.command(
    "hu",
    names=["hu", "win"],
    aliases=(*COMMAND_WORDS["hu"], *DOUBLE_WIN_WORDS),
    help_zh=(
        "胡：胡 123p46p789s22s333s 5p 点 @乙 ｜ 胡 清一色 七对 自摸 ｜ 自摸 清一色 ｜ 胡清一色点@乙 ｜ "
        "胡 @丙 卡五星 杠上炮 点 @乙 ｜ 一炮双响：胡 @甲 卡五星 @丙 七对 点 @乙"
        "（只写「胡」出按钮，点或打字回答：我、自摸、清一色 七对、确认）"
    ),
    help_en=(
        "win: win 123p46p789s22s333s 5p from @b | win one suit seven pairs self-draw | zimo one suit | win @c closed "
        "five win on the discard after a kong from @b | double win: win @a closed five @c seven pairs from @b "
        "(plain win shows buttons: tap, or type the answer — me, zimo, one suit, confirm)"
    ),
    games=KAWUXING,
    on_edit=True,
)
def record_win(ctx: Context) -> SendText | list[Effect]:
    try:
        table = kawuxing_table(ctx)
    except Refusal as refusal:  # `I won seven pairs self drawn` from someone not seated: told, as `我胡了 七对` is
        english = ctx.word in (*WON_EN, *WON_BARE_EN) and win_words_only(ctx.args, ctx.seat_names)
        refusal.heard = refusal.heard or english
        raise
    said = implied(ctx.word)  # `自摸 清一色` is `胡 清一色 自摸`
    mine, resolve = my_seat(ctx, table), seat_resolver(ctx, table)
    if ctx.word in (*DOUBLE_WIN_WORDS, *WON_BARE_EN) and not ctx.args:
        joined = double_win_by_typing(ctx) if ctx.word in DOUBLE_WIN_WORDS else None
        if joined is not None:
            return joined  # `一炮双响` typed under the question 「一炮双响」 answers
        raise Quiet  # `一炮双响！`, `won!`: said of a win, not told
    if not ctx.args and not said and not (ctx.incoming and ctx.incoming.edited):
        if ctx.word in FIRST_PERSON_WIN_WORDS and mine is None and ctx.unprompted:
            raise Quiet  # `又胡了` from someone not seated: said of someone else's win
        return start_flow(ctx, table, "hu", mine if ctx.word in FIRST_PERSON_WIN_WORDS else None)  # `我胡了`: hers

    def specs_of(args: str) -> list[WinSpec]:
        return parse_win(args, mine, resolve, lambda: minggang(ctx))

    def reading(args: str) -> list[Win]:
        return [win_of(spec) for spec in specs_of(args)]

    kept, amounts = stated_amounts(ctx.args)
    if amounts and ctx.word not in DOUBLE_WIN_WORDS:  # `七对 自摸 4块一家`: the win asked about without the money
        try:
            specs_of(f"{kept} {said}")
        except (GrammarError, Refusal):
            pass
        else:
            if ctx.word == BY_PATTERNS and _cheering(ctx, table):
                raise Quiet  # `清一色自摸！每人8块` just after someone else recorded a hand's end: cheering it
            args = " ".join(part for part in (kept, said) if part)
            why = ctx.t("suggest_stated_amount", words=" ".join(amounts))
            return ask(ctx, table, "胡", args, why, heard=True)
    if ctx.word in DOUBLE_WIN_WORDS:
        specs = _double_win(ctx, mine, resolve)
    else:
        try:
            specs = specs_of(f"{ctx.args} {said}")
        except GrammarError as err:
            return offer(ctx, table, err, reading, word="胡")
    try:
        events = [win_of(spec) for spec in specs]
    except Refusal as refusal:
        if ctx.word in DEALT_IN_WORDS and refusal.key == "self_discard":  # `我点炮了` names nobody who won
            raise Refusal("dealt_in_no_winner", word=ctx.word) from None
        # `I won seven pairs`: every word read as a win's (`I won the raffle` is no reading), so what is missing is
        # asked as `我胡了 七对` is — said, not chat
        refusal.heard = refusal.heard or ctx.word in (*WON_EN, *WON_BARE_EN)
        raise
    others = [event.winner for event in events if event.winner != mine]
    if ctx.word in FIRST_PERSON_WIN_WORDS and others:  # `我自摸了 @c 清一色`: who won, the sender or c?
        raise Refusal("first_person_other_winner", word=ctx.word, name=others[0])
    if said and ctx.word not in DEALT_IN_WORDS and not any(spec.names_hand() for spec in specs):
        # `自摸`, `自摸 @乙`: a 屁胡, or patterns left out? Asked, never booked on a guess
        refuse_unbookable(ctx, table, events)
        args = " ".join(part for part in (ctx.args.strip(), "屁胡", said) if part)
        return ask(ctx, table, "胡", args, ctx.t("suggest_bare", word=ctx.word))
    if ctx.word == BY_PATTERNS and not _names_its_winner(ctx, events, mine) and _cheering(ctx, table):
        raise Quiet
    return _record(ctx, table, list(events))


def _double_win(ctx: Context, mine: str | None, resolve: Callable[[str], str | None]) -> list[WinSpec]:
    """A 一炮双响 told with its winners' names (`阿杰 小李 都胡了 老王点的`: `grammar.parse_double_win`). What it
    leaves open is answered by name even to a line read without 胡 (two players said to have won is no chat); a
    line that names no two winners is chat (`一炮双响 太爽了`)."""
    try:
        return parse_double_win(ctx.args, mine, resolve, lambda: minggang(ctx))
    except GrammarError as err:
        if err.key == NOT_A_DOUBLE_WIN:
            raise Quiet from None
        refusal = Refusal(err.key, **err.params)
        refusal.heard = True
        raise refusal from None


#: how soon after someone else recorded a hand's end a win told by its patterns alone (`清一色自摸！`), naming no
#: other winner, is taken as cheering that win rather than telling a new one (a new hand takes longer)
CHEERING = timedelta(minutes=2)


def _names_its_winner(ctx: Context, events: Sequence[Win], mine: str | None) -> bool:
    """Whether a win told by its patterns names who won — another player, or its sender by name first (`小李 卡五星
    点 老王`): a claim, which the double-entry check answers, never cheering."""
    text = fold(ctx.incoming.text).lstrip() if ctx.incoming is not None else ""
    return any(event.winner != mine for event in events) or text.startswith(("@", *map(fold, ctx.seat_names)))


def _cheering(ctx: Context, table: TableInfo) -> bool:
    latest = ctx.service.latest_record(table.id)
    return (
        latest is not None
        and latest.finished
        and latest.recorded_by != ctx.sender.user_id
        and ctx.now() - latest.recorded_at <= CHEERING
    )


# ---------------------------------------------------------------------------------------------------------- 荒庄


@registry.command(
    "draw",
    names=["draw"],
    aliases=COMMAND_WORDS["draw"],
    help_zh=(
        "荒庄：牌摸完没人胡（杠钱照算，亮倒的按规则赔；也可写 流局、黄庄、臭庄、荒了）｜ "
        "查大叫的桌：荒庄 听 @乙 123p456p789s11s55s @丙 清一色，或 荒庄 没人听"
    ),
    help_en="draw: a drawn hand (kong money stands; ready (亮倒) penalty per the rules) | 查大叫: draw ready hand @b "
    "123p456p789s11s55s @c one suit, or draw nobody ready",
    games=KAWUXING,
    on_edit=True,
)
def record_draw(ctx: Context) -> SendText:
    table = kawuxing_table(ctx)
    mine, resolve = my_seat(ctx, table), seat_resolver(ctx, table)
    chadajiao = table_rules(table).chadajiao

    def reading(args: str) -> Draw:
        specs = parse_draw(args, mine, resolve, lambda: minggang(ctx), ready=chadajiao)
        return Draw(ready_of(specs) if specs is not None else None)

    try:
        event = reading(ctx.args)
    except GrammarError as err:
        return offer(ctx, table, err, reading, word=ctx.word)
    return _record(ctx, table, [event])


def _record(ctx: Context, table: TableInfo, events: list[Event]) -> SendText:
    """Book the events (an edit replaces what its message recorded) and answer with what changed; a record the
    group's rules need more of is asked about first (`regional.prepare`)."""
    if ctx.incoming is not None and ctx.incoming.edited:
        ctx.service.finish_flow(ctx.chat_id, ctx.incoming.message_id)  # a question about the old text is answered
    try:
        prepared = prepare(ctx, table, events)
        if isinstance(prepared, SendText):
            return prepared
        events = prepared
        if ctx.incoming is not None and ctx.incoming.edited and not ctx.repeat:
            _refuse_edited_repeat(ctx, table, events)
        result, edited = book(ctx, table, events)
    except DuplicateRecord as dup:
        return hold_back(ctx, table, dup, events)
    except (ScoringRefused, ScoringError) as err:
        if err.reading.key == "fifth_tile":
            _refuse_kong_again(ctx, table, events)
        raise
    except LedgerError as err:
        if err.code == "chain_without_kong":
            raise Refusal("chain_without_kong") from err
        if err.code == "liangdao_twice" and isinstance(events[0], Liangdao):
            raise Refusal("liangdao_twice", name=events[0].player) from err
        raise
    if result.replayed:
        return replayed_reply(ctx, result)
    if result.finished:
        return hand_reply(ctx, table, result, edited=edited)
    what = joined(ctx.lang, (describe_event(ctx.lang, event) for event in result.recorded), "；")
    return event_reply(ctx, table, result, what, edited=edited)


def _refuse_kong_again(ctx: Context, table: TableInfo, events: list[Event]) -> None:
    """A kong of a tile this hand has a kong of already — the same line sent twice, or a tile typed wrong — is
    refused as that, naming the kong there (the core would only count a fifth copy of the tile) — also to a line
    read without its command word (`@ajie 暗杠 7z` sent twice): a kong read whole is no chat."""
    tiles = {event.tile for event in events if isinstance(event, Kong) and event.tile}
    state = ctx.service.hand_state(table.id)
    earlier = next((e for e in state.events if e.get("type") == "gang" and e.get("tile") in tiles), None)
    if earlier is not None:
        refusal = Refusal("kong_tile_again", what=describe_event(ctx.lang, earlier))
        refusal.heard = True
        raise refusal


def _refuse_edited_repeat(ctx: Context, table: TableInfo, events: list[Event]) -> None:
    """An edit of a message held back as a double entry is the same message judged a repeat: while it recorded
    nothing and still repeats the table's previous record (someone else's), it is held back again however late
    the edit comes, never booked as a new hand past the window."""
    assert ctx.incoming is not None
    held = ctx.service.load_flow(ctx.chat_id, question_key(ctx))
    if held is None or held.kind != DUPLICATE or ctx.service.recorded_table(ctx.incoming.original_source):
        return
    ctx.service.refuse_repeat(table.id, events, by=ctx.sender.user_id, anytime=True, recap=ctx.recap)
    ctx.service.finish_flow(ctx.chat_id, question_key(ctx))  # the held-back text is gone: 「确实又一次」 expires
