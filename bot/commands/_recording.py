"""卡五星 records as typed events, from what was typed (`record`) or tapped (`flows`), and the replies to a booking.

Both the typed commands and the button flows build their events and replies here, so neither imports the other.
"""

from __future__ import annotations

from datetime import datetime

from bot.commands._common import (
    booking_lines,
    change_lines,
    cut_lines,
    edit_changes_head,
    edited_key,
    money_lines,
    named_now,
    net_by_member,
    recording_table,
)
from bot.commands._stakes import stake_lines
from bot.core import Context, Refusal, SendText
from bot.grammar import MAX_FOURS, KongSpec, ReadySpec, WinSpec
from bot.permissions import RECORD, require_player
from bot.texts import describe_record, describe_win, joined
from ledger.events import KONG_KINDS, PENGHU_WINS, WIN_METHODS, Kong, Meld, ReadyHand, Win, WinHand
from ledger.service import DuplicateRecord, HandResult, TableInfo, TableRecord

#: patterns offered as toggle buttons (a win's, a ready hand's at 查大叫), three per row
FLOW_PATTERNS = (
    "kawuxing",
    "pengpenghu",
    "qingyise",
    "qidui",
    "longqidui",
    "shuanglongqidui",
    "dasanyuan",
    "xiaosanyuan",
    "shouzhuayi",
    "mingsiguiyi",
    "ansiguiyi",
)


def mark(label: str, on: bool) -> str:
    """A toggle button's label: ✓ when it is on."""
    return f"✓{label}" if on else label


def toggle(items: list[str], item: str) -> None:
    if item in items:
        items.remove(item)
    else:
        items.append(item)


def tap_pattern(patterns: list[str], pattern: str) -> None:
    """A win's pattern button: on, then off; a 四归一 (the core's `REPEATABLE`) counts once more at each tap while
    the hand can hold another four (`MAX_FOURS`), then off. A 四归一 the hand has no room for is refused."""
    from ledger.scoring.kawuxing.patterns import REPEATABLE

    fours = sum(p in REPEATABLE for p in patterns)
    if pattern in REPEATABLE and fours >= MAX_FOURS and pattern not in patterns:
        raise Refusal("fours_too_many", most=MAX_FOURS)
    if pattern in REPEATABLE and pattern in patterns and fours < MAX_FOURS:
        patterns.append(pattern)
    elif pattern in patterns:
        patterns[:] = [p for p in patterns if p != pattern]
    else:
        patterns.append(pattern)


def pattern_label(name: str, count: int) -> str:
    """A pattern button's label: ✓ when chosen, and how many times a 四归一 counts (`✓暗四归一×2`)."""
    return mark(f"{name}×{count}" if count > 1 else name, count > 0)


def kawuxing_table(ctx: Context) -> TableInfo:
    """The open 卡五星 table, for a record: refused unless the sender plays at it or is an admin."""
    table = recording_table(ctx)
    if table.game != "kawuxing":
        raise Refusal("wrong_game_command")
    require_player(ctx, table, RECORD)
    return table


def kong_of(spec: KongSpec) -> Kong:
    """The kong a message or a flow describes; 杠上杠 continues the chain of the kong just before it (the ledger
    numbers it when it books)."""
    if spec.kind is None:
        raise Refusal("kong_kind_missing")
    if spec.kind == "zhigang" and spec.discarder is None:
        raise Refusal("kong_discarder_missing")
    if spec.kind != "zhigang" and spec.discarder is not None:
        raise Refusal("kong_discarder_only_zhigang")
    if spec.discarder == spec.player:
        raise Refusal("self_discard", name=spec.player)
    return Kong(spec.player, KONG_KINDS[spec.kind], spec.discarder, spec.tile, spec.chained)


def win_of(spec: WinSpec) -> Win:
    """One winner's win: tiles when typed, else the declared patterns (屁胡: none). 亮倒 is not repeated here:
    the scoring core reads it from the hand's 亮倒 events."""
    if spec.method is None:
        raise Refusal("method_missing", name=spec.winner)
    if spec.method in {"discard", "rob_kong"} and spec.discarder is None:
        raise Refusal("discarder_missing", word="点")
    if spec.discarder == spec.winner:
        raise Refusal("self_discard", name=spec.winner)
    melds = tuple(Meld(meld["kind"], meld["tile"]) for meld in spec.melds)
    situations = tuple(spec.situations)
    if spec.tiles:
        if spec.patterns:
            raise Refusal("tiles_and_patterns")
        concealed, win_tile = split_win_tile(spec.tiles, len(spec.melds))
        hand = WinHand(concealed=concealed, win_tile=win_tile, melds=melds, situations=situations)
    else:
        hand = WinHand(melds=melds, patterns=tuple(spec.patterns), situations=situations)
    counts = {key: spec.counts.get(key) for key in ("kan", "qia", "ba")}
    return Win(spec.winner, WIN_METHODS[spec.method], hand, spec.discarder, ma=spec.ma, **counts)


def ready_of(specs: list[ReadySpec]) -> tuple[tuple[str, ReadyHand], ...]:
    """查大叫's ready hands at a draw: each player's tiles (13 − 3·melds), or the patterns of their best hand."""
    out = []
    for spec in specs:
        melds = tuple(Meld(meld["kind"], meld["tile"]) for meld in spec.melds)
        if spec.tiles:
            out.append((spec.player, ReadyHand("".join(spec.tiles), melds)))
        else:
            out.append((spec.player, ReadyHand(melds=melds, patterns=tuple(spec.patterns))))
    return tuple(out)


def split_win_tile(typed: list[str], melds: int) -> tuple[str, str]:
    """Concealed tiles and the winning tile: `123p46p789s22s333s 5p`, or one run whose last tile is the win."""
    from ledger.scoring.tiles import format_notation, parse_tiles, tile_notation

    if len(typed) >= 2 and len(parse_tiles(typed[-1])) == 1:
        return "".join(typed[:-1]), typed[-1]
    tiles = [tile for token in typed for tile in parse_tiles(token)]
    if (len(tiles) + 3 * melds) % 3 != 2:
        raise Refusal("win_tile_missing", count=len(tiles))
    return format_notation(tiles[:-1]), tile_notation(tiles[-1])


def event_reply(ctx: Context, table: TableInfo, result: HandResult, what: str, *, edited: bool = False) -> SendText:
    """`第2局 杠：乙 直杠（点 甲）` and each player's change and night balance."""
    lines = booking_lines(ctx, result)
    lines.append(
        ctx.t(edited_key(ctx, "event_edited") if edited else "event_recorded", number=result.number, what=what)
    )
    lines += edit_changes_head(ctx, edited)
    lines += money_lines(ctx, table, result)
    if result.liangdao:
        lines.append(ctx.t("liangdao_state", names=joined(ctx.lang, result.liangdao)))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def hand_reply(
    ctx: Context, table: TableInfo, result: HandResult, *, edited: bool = False, corrected: bool = False
) -> SendText:
    """The reply to a finished hand: what was understood, patterns and multiple, side stakes by name (漂, 买马,
    数坎 …, 查大叫), changes, the next dealer. An edit of a hand of a table since ended names the players as
    every reply names them now (`named_now`), and has no next hand to announce. `corrected`: the edit was a 改成's
    (`edited_key`)."""
    table, result = named_now(ctx, table, result)
    lines = booking_lines(ctx, result)
    edit = edited_key(ctx, "hand_edited", corrected=corrected) if edited else "hand_recorded"
    header = "hand_double_win" if ctx.double_win else edit
    lines.append(ctx.t(header, number=result.number))
    lines += describe_win(ctx.lang, result.events, result.answer, ctx.group.currency)
    lines += stake_lines(ctx, result.answer)
    lines += edit_changes_head(ctx, edited)
    lines += change_lines(ctx, table, net_by_member(result.booked, result.voided), result.night_total)
    lines += cut_lines(ctx, result)
    lines += next_hand_lines(ctx, table, result, edited=edited)
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def next_hand_lines(ctx: Context, table: TableInfo, result: HandResult, *, edited: bool) -> list[str]:
    """The hand played next: after the latest hand, the one it leads to; after an edit of an earlier hand (`table`
    read before the edit: its open hand is past the next one), the hand the table is really at; nothing after an
    edit at a table that has ended (an admin's)."""
    if edited and table.ended_at is not None:
        return []
    if not edited or result.number + 1 == table.hand_number:
        return [ctx.t("next_hand", number=result.number + 1, dealer=result.next_dealer)]
    key = "table_now" if result.next_dealer is not None else "table_now_no_dealer"
    return [ctx.t(key, number=table.hand_number, dealer=result.next_dealer)]


def recorded_by(ctx: Context, record: TableRecord) -> str:
    """`老王 5秒前记的`: who recorded `record` (by the ledger's name for their Telegram id; `你` to the one who
    did) and how long ago."""
    return ctx.t("record_by", **who_and_when(ctx, record.recorded_by, record.recorded_by_name, record.recorded_at))


def who_and_when(ctx: Context, user_id: int | None, name: str | None, at: datetime) -> dict[str, str]:
    """`who` and `ago` of something someone did at `at` (`老王`, `5秒前`): `你` to the one who did it, else the
    ledger's name for their Telegram id (`有人`: not known)."""
    who = _person(ctx, user_id, name) or ctx.t("someone")
    seconds = max(0, int((ctx.now() - at).total_seconds()))
    if seconds < 3:
        ago = ctx.t("ago_now")
    elif seconds < 120:
        ago = ctx.t("ago_seconds", n=seconds)
    elif seconds < 7200:
        ago = ctx.t("ago_minutes", n=seconds // 60)
    else:
        ago = ctx.t("ago_hours", n=seconds // 3600)
    return {"who": who, "ago": ago}


def _recorder(ctx: Context, record: TableRecord) -> str | None:
    """Who recorded `record`: `你` to them, else the ledger's name for their Telegram id (None: not known)."""
    return _person(ctx, record.recorded_by, record.recorded_by_name)


def _person(ctx: Context, user_id: int | None, name: str | None) -> str | None:
    return ctx.t("sender_self") if user_id is not None and user_id == ctx.sender.user_id else name


def held_back_text(ctx: Context, dup: DuplicateRecord, game: str = "kawuxing") -> str:
    """Why a record was not booked: the same thing, recorded by someone else a moment ago, or a hand's ending by
    the same sender (for a win: the same winners, however the win was told); or another ending of the hand just
    ended (`dup.differs`; for 够级, another order of the round just booked), which its recorder or an admin corrects
    with 改成 if that record is wrong."""
    previous = dup.previous
    what = describe_record(ctx.lang, previous.events, game)
    by, number = recorded_by(ctx, previous), previous.hand_number
    if dup.includes is not None:
        return ctx.t("duplicate_paoqi_included", by=by, number=number, what=what, fix=_paoqi_fix(ctx, dup))
    if dup.differs:
        owner = _recorder(ctx, previous) or ctx.t("recorder_unknown")
        other = "duplicate_other_round" if game == "gouji" else "duplicate_other_end"  # 改成 名次 … fixes a round
        return ctx.t(other, by=by, number=number, what=what, owner=owner)
    won = any(event.get("type") == "hu" or event.get("type") in PENGHU_WINS for event in previous.events)
    return ctx.t("duplicate_win" if won else "duplicate", by=by, number=number, what=what)


def _paoqi_fix(ctx: Context, dup: DuplicateRecord) -> str:
    """How a 跑起胡 held back as including an earlier 跑起 takes that 跑起's place: 改成 it, naming the player (the
    跑起's recorder may be someone else), when it is the table's latest record; else 撤销 back past it first."""
    if dup.after != dup.previous.event_ids[-1]:
        return ctx.t("paoqi_included_fix_later")  # 改成 changes the latest record only
    win = dup.includes
    zhongzhuang = " 中庄" if win.get("zhongzhuang") else ""
    line = ctx.t("paoqi_included_line", player=win["player"], discarder=win["from"], zhongzhuang=zhongzhuang)
    owner = _recorder(ctx, dup.previous) or ctx.t("recorder_unknown")
    return ctx.t("paoqi_included_fix", owner=owner, line=line)


def held_back_yes(ctx: Context, dup: DuplicateRecord) -> str:
    """The label of the button that books a held-back record anyway: 「是新的一局」 for another ending of the hand
    just ended, else 「确实又一次」."""
    return ctx.t("btn_new_hand" if dup.differs else "btn_repeat_yes")
