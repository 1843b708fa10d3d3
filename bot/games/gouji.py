"""够级 tables: a round is recorded as its finishing order, typed (`名次 @a @d @c @f @b @e 烧牌 …`) or tapped on
buttons in the order players went out, with 革命 and 烧牌失败 marks. The reply gives the places, the team that
scored (串三户 doubled), the money between 对头 and the table's match score."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot import texts as bot_texts
from bot.commands._common import (
    REPEAT,
    FlowStep,
    book,
    booking_lines,
    button_index,
    current_table,
    edit_changes_head,
    edited_key,
    flow_key,
    flow_source,
    flow_step,
    held_as_repeat,
    money,
    money_lines,
    my_seat,
    named_now,
    replayed_reply,
    seat_resolver,
    shown_name,
)
from bot.commands.correct import KEPT_BY_GAME, KEPT_NAMES_PLAYERS
from bot.commands.duplicates import book_held_by_typing, hold_back, hold_flow
from bot.commands.questions import cancel_by_typing, nothing_booked
from bot.commands.table import STATUS_LINES, WAITING_LINES
from bot.core import AnswerCallback, Button, Context, HandlerResult, Outcome, Quiet, Refusal, SendText, registry
from bot.games._common import game_table
from bot.grammar import asks, fold, last_alone, place_in_chinese, tokens
from bot.texts import joined, register, register_describer, scoring_refusal
from bot.vocabulary import (
    GOUJI_CARD_PASSING_WORDS,
    GOUJI_FAILED_EN,
    GOUJI_MARK_EN,
    GOUJI_MARK_WORDS,
    GOUJI_PLACE_EN,
    GOUJI_PLACE_SAID_EN,
    GOUJI_PLACES,
    GOUJI_ROUND_EN,
    GOUJI_ROUND_WORDS,
    MATCH_WORDS,
    OWN_PLACE_WORDS,
)
from ledger.errors import LedgerError
from ledger.events import GoujiRound
from ledger.scoring import ScoringError, gouji
from ledger.service import DuplicateRecord, Flow, HandResult, TableInfo, TableRecord

GOUJI = ("gouji",)
SEAT_COUNT = gouji.SEAT_COUNT
#: words that switch what the names after them are: 革命 players, or failed burns in the order they failed
GEMING_WORDS = frozenset({"革命", "geming", "revolution"})
FAILED_WORDS = frozenset({"烧牌", "烧牌失败", "烧失败", "shaopai", *GOUJI_FAILED_EN})
ORDER_WORDS = frozenset({"名次", "出完", "order"})
PLACE_EN = GOUJI_PLACE_EN
#: a place typed in English before its name in a round (`order 1st @a 2nd @b …`, `order first ben …`) -> its word
PLACE_TYPED_EN = {english: place for place, english in PLACE_EN.items()} | GOUJI_PLACE_SAID_EN
#: what players add to a round they type when it is one (`名次 … 串三户！`): checked, not recorded
CHUANSANHU_WORDS = frozenset({"串三户"})
#: rows of buttons under a flow's message
Buttons = tuple[tuple[Button, ...], ...]
#: flow modes: which list a tapped name goes to
MODES = {"o": "order", "g": "geming", "f": "shaopai_failed"}

register(
    {
        "gouji_round": {"zh": "第{number}局 够级：{places}", "en": "Hand {number} (Gouji 够级): {places}"},
        "gouji_round_edited": {
            "zh": "第{number}局 按改后的消息重记（原记录作废）：{places}",
            "en": "Hand {number} recorded again as corrected (the old record is void): {places}",
        },
        "gouji_round_corrected": {
            "zh": "第{number}局 已改正（原记录作废）：{places}",
            "en": "Hand {number} corrected (the old record is void): {places}",
        },
        "gouji_marks_geming": {"zh": "革命：{names}", "en": "Revolution (革命, sat out): {names}"},
        "gouji_marks_failed": {"zh": "烧牌失败：{names}", "en": "Failed burns (烧牌失败): {names}"},
        "gouji_scored": {"zh": "{team} 得 {points} 分{double}", "en": "{team} score {points}{double}"},
        "gouji_chuansanhu": {"zh": "（串三户，翻倍）", "en": " (串三户: 1st to 3rd one team, doubled)"},
        "gouji_tie": {"zh": "两边都没有正分，本局不计分。", "en": "Neither team is positive: nobody scores."},
        "gouji_void": {
            "zh": "{names} 革命：两人以上革命，本局作废，不计分。",
            "en": "{names} declared revolution (革命): two or more void the round, nothing scores.",
        },
        "gouji_void_with_places": {
            "zh": "没有记：两人以上革命，这一局就作废了，没人出牌，也就没有名次和烧牌失败（写了 {named}）。"
            "{names} 真的都革命了，发：名次 革命 {names_typed}（本局作废）；这一局打了的话，革命的只写一个人。",
            "en": "Not recorded: two or more revolutions (革命) void the round, so nobody played and nobody has a "
            "place or a failed burn ({named} given). If {names} all declared revolution, send order revolution "
            "{names_typed} (a void round); if the round was played, name one revolution at most.",
        },
        "gouji_all_geming": {
            "zh": "没有记：六个人不可能都革命。革命要手里没有大王、小王和 2，这些牌总在某个人手里。"
            "按出完的顺序写名次，革命的写在「革命」后面：名次 @甲 @丁 … 革命 @某人",
            "en": "Not recorded: all six cannot declare revolution (革命): it takes a hand without jokers or 2s, "
            "and those are always in someone's hand. Send the order they went out, revolution players after "
            "revolution: order @a @d … revolution @x",
        },
        "gouji_void_round": {
            "zh": "作废，不计分（{names} 革命：两人以上革命的局不算）",
            "en": "void, nothing scores ({names} declared revolution (革命): a round with two or more is void)",
        },
        "gouji_match": {"zh": "比分：{first} {a} ｜ {second} {b}", "en": "Match: {first} {a} | {second} {b}"},
        "gouji_unknown_word": {
            "zh": "看不懂「{word}」：按出完的顺序写座位上的人（@某人 或名字），革命的写在「革命」后面，"
            "烧牌失败的按失败先后写在「烧牌」后面。例如：名次 @a @d @c @f @b 烧牌 @e",
            "en": "Cannot read “{word}”: name the seated players in the order they went out (@someone or a name), "
            "revolution (革命) players after revolution, failed burns (烧牌) after failed burn in the order they "
            "failed. Example: order @a @d @c @f @b failed burn @e",
        },
        "gouji_named_twice": {"zh": "{name} 写了两次。", "en": "{name} is named twice."},
        "gouji_place_twice": {
            "zh": "{place} 写了两个人：{first}、{second}。",
            "en": "{place} is given to two players: {first}, {second}.",
        },
        "gouji_place_needs_name": {
            "zh": "「{word}」后面要写是谁：名次 头科阿杰 二科老王 …（或按出完的顺序写名字：名次 @甲 @丁 @丙 …）",
            "en": "Whose is “{word}”? order 1st @a 2nd @b … (or the names in the order they went out)",
        },
        "gouji_place_moved": {
            "zh": "没有记：写的是 {name} {place}，可这样算出来是：{places}（革命、烧牌失败会挪名次）。"
            "按出完的顺序写名字再发：名次 @甲 @丁 @丙 … 革命 @某人",
            "en": "Not recorded: {name} is given as {place}, but the round comes out as: {places} (a revolution "
            "(革命) or a failed burn (烧牌) moves the places). Send the names in the order they went out: "
            "order @a @d @c … revolution @x",
        },
        "gouji_not_chuansanhu": {
            "zh": "没有记：这个名次不是串三户（头科、二科、三科不是同一队）：{places}。名次对的话去掉「串三户」再发"
            "（串三户不用写，会自己算）。",
            "en": "Not recorded: this order is no chuansanhu (串三户: 1st, 2nd and 3rd not one team): {places}. "
            "If the order is right, send it without “串三户” (it is worked out anyway).",
        },
        "gouji_missing": {
            "zh": "还差 {names}：六个人都要写上（革命的写在「革命」后面，烧牌失败的写在「烧牌」后面）。",
            "en": "{names} missing: name all six (revolution (革命) players after revolution, failed burns (烧牌) "
            "after failed burn).",
        },
        "gouji_flow_title": {
            "zh": "记名次（第{number}局）：按出完的顺序点人",
            "en": "Record hand {number}: tap the players in the order they went out",
        },
        "gouji_flow_ask_o": {"zh": "谁是第 {n} 个出完的？", "en": "Who went out next (number {n})?"},
        "gouji_flow_ask_g": {"zh": "谁革命了？", "en": "Who declared revolution (革命)?"},
        "gouji_flow_ask_f": {
            "zh": "谁烧牌失败了？（按失败的先后点）",
            "en": "Whose burn failed? (in the order they failed)",
        },
        "gouji_flow_order": {"zh": "出完：{names}", "en": "Went out: {names}"},
        "gouji_flow_places": {"zh": "名次：{places}", "en": "Places: {places}"},
        "gouji_flow_place": {"zh": "{place} {name}", "en": "{place} {name}"},
        "gouji_flow_own_place": {"zh": "{place} {name}（自己说的）", "en": "{place} {name} (said by them)"},
        "gouji_flow_told_place": {"zh": "{place} {name}（{teller}说的）", "en": "{place} {name} (said by {teller})"},
        "gouji_place_added": {
            "zh": "记到上面的名次按钮里了：{name} {place}。",
            "en": "Added to the place buttons above: {name} {place}.",
        },
        "gouji_card_passing": {
            "zh": "{word} 只是换牌，不算分，这里不用记。记的是每局的名次（头科在前）：名次 @甲 @丁 @丙 @己 @乙 @戊"
            "（革命 @某人、烧牌 @某人 写在后面；只发「名次」出按钮）。",
            "en": "Card passing ({word}) scores nothing: nothing to record. What is recorded is each hand's order "
            "(1st first): order @a @d @c @f @b @e (revolution @x, failed burn @x after; a bare order shows "
            "buttons).",
        },
        "gouji_place_last": {
            "zh": "记到上面的名次按钮里了：{name} {place}。只剩 {last}，就是 {last_place}：点上面的「✅ 确认」记账。",
            "en": "Added to the place buttons above: {name} {place}. Only {last} is left, so {last_place}: press "
            "“✅ Confirm” above to book the round.",
        },
        "gouji_flow_last": {
            "zh": "只剩 {name}：{place}（是革命或烧牌失败的话，点「革命…」或「烧牌失败…」再点 TA）",
            "en": "Only {name} is left: {place} (if they declared revolution or their burn failed, press "
            "“Revolution…” or “Failed burn…”, then them)",
        },
        "gouji_place_taken": {
            "zh": "上面的名次按钮里 {place} 已经是 {name}，没有改。不对就点「↩ 撤一个」或「取消」重来。",
            "en": "In the place buttons above, {place} is {name} already; nothing changed. If that is wrong, press "
            "“↩ Undo one” or “Cancel” and start again.",
        },
        "gouji_place_placed": {
            "zh": "上面的名次按钮里已经有你了（{name}），没有改。不对就点「↩ 撤一个」或「取消」重来。",
            "en": "You ({name}) are in the place buttons above already; nothing changed. If that is wrong, press "
            "“↩ Undo one” or “Cancel” and start again.",
        },
        "gouji_place_placed_named": {
            "zh": "上面的名次按钮里已经有 {name} 了，没有改。不对就点「↩ 撤一个」或「取消」重来。",
            "en": "{name} is in the place buttons above already; nothing changed. If that is wrong, press "
            "“↩ Undo one” or “Cancel” and start again.",
        },
        "gouji_chuansanhu_alone": {
            "zh": "串三户不用单独记：发这一局的名次（头科在前），是串三户会自己算、翻倍："
            "名次 @甲 @丁 @丙 @己 @乙 @戊（只发「名次」出按钮）",
            "en": "chuansanhu (串三户: 1st, 2nd and 3rd one team) is not recorded on its own: send the round's "
            "order (1st first) and it is worked out and doubled: order @a @d @c @f @b @e (a bare order shows "
            "buttons)",
        },
        "gouji_place_named_not_seated": {
            "zh": "没有记：{name} 不在这桌上，名次只记座位上的人（{seats}）。",
            "en": "Not recorded: {name} is not seated at this table; places are for the seated players ({seats}).",
        },
        "gouji_place_not_seated": {
            "zh": "你不在这桌上，「{word}」说的是谁？记名次：名次 @甲 @丁 @丙 @己 @乙 @戊（头科在前）",
            "en": "You are not seated here: whose place is “{word}”? Record the round: order @a @d @c @f @b @e "
            "(1st first)",
        },
        "gouji_geming_alone": {
            "zh": "没有记：革命要写在一局的名次里，还差其余五人的名次。"
            "按出完的顺序写（头科在前），革命的写在「革命」后面：名次 @甲 @丁 @丙 @己 @乙 革命 {names_typed}",
            "en": "Not recorded: revolution (革命) goes in a round's line, and the other five players' order is "
            "missing. Name them in the order they went out (1st first), revolution after revolution: "
            "order @a @d @c @f @b revolution {names_typed}",
        },
        "gouji_geming_void": {
            "zh": "没有记：革命要写在「名次」后面。两人以上革命，这一局作废、不计分；"
            "{names} 都革命了的话，发：名次 革命 {names_typed}",
            "en": "Not recorded: revolution (革命) goes in a round's line. Two or more revolutions void the round "
            "(not scored); if {names} all declared revolution, send: order revolution {names_typed}",
        },
        "gouji_geming_who": {
            "zh": "没有记：革命要写在一局的名次里，写上是谁：名次 @甲 @丁 @丙 @己 @乙 革命 @某人"
            "（其余五人按出完的顺序，头科在前）；两人以上革命，这一局作废：名次 革命 @某人 @某人",
            "en": "Not recorded: revolution (革命) goes in a round's line, with who: order @a @d @c @f @b revolution "
            "@x (the other five in the order they went out, 1st first); two or more revolutions void the round: "
            "order revolution @x @y",
        },
        "gouji_failed_alone": {
            "zh": "没有记：烧牌失败要写在一局的名次里：先按出完的顺序写出完的人，"
            "烧牌失败的按失败先后写在「烧牌」后面：名次 @甲 @丁 @丙 @己 烧牌 {names}",
            "en": "Not recorded: failed burns (烧牌) go in a round's line: those who went out in order, then the "
            "failed burns after failed burn in the order they failed: order @a @d @c @f failed burn {names}",
        },
        "gouji_table_waiting": {
            "zh": "第{number}局的名次还没记完，没有记账（名次按钮在等）：",
            "en": "Hand {number}'s order is not finished, nothing booked yet (the 名次 buttons wait):",
        },
        "gouji_table_left": {"zh": "还差：{names}", "en": "Still to place: {names}"},
        "gouji_btn_o": {"zh": "出完…", "en": "Went out…"},
        "gouji_btn_g": {"zh": "革命…", "en": "Revolution…"},
        "gouji_btn_f": {"zh": "烧牌失败…", "en": "Failed burn…"},
        "gouji_btn_undo": {"zh": "↩ 撤一个", "en": "↩ Undo one"},
    }
)


# ------------------------------------------------------------------------------------------------ typed rounds


@dataclass(frozen=True)
class Told:
    """A typed round: the round, the places said with a name (`头科阿杰`: who -> how many went out before), and
    whether it was called 串三户."""

    round: dict[str, list[str]]
    places: dict[str, int]
    chuansanhu: bool


@registry.command(
    "gouji_round",
    names=["round"],
    aliases=GOUJI_ROUND_WORDS,
    help_zh="够级名次：名次 @甲 @丁 @丙 @己 @乙 @戊（头科在前）｜ … 革命 @某人 ｜ … 烧牌 @某人（只写「名次」出按钮）",
    help_en="a Gouji (够级) hand: order @a @d @c @f @b @e (1st first; 名次, ranking) | … revolution @x | … failed "
    "burn @x (plain order shows buttons)",
    games=GOUJI,
    on_edit=True,
)
def record_round(ctx: Context) -> SendText:
    table = game_table(ctx, "gouji")
    if not ctx.args and not (ctx.incoming and ctx.incoming.edited):
        return start_flow(ctx, table)
    try:
        told = parse_round(ctx.args, seat_resolver(ctx, table))
        round_ = told.round
        refused = impossible_geming(ctx.lang, round_)
        if refused is not None:
            raise refused
        check_complete(ctx.lang, round_, table.players)
        check_told(ctx, told, table.players)
    except Refusal as refusal:  # `order @a @b …` read whole is answered; `order food` (a word not read) is chat
        elsewhere = _not_seated(ctx, str(refusal.params["word"])) if refusal.key == "gouji_unknown_word" else None
        if elsewhere is not None:
            raise elsewhere from None
        english = fold(ctx.word) in GOUJI_ROUND_EN
        refusal.heard = refusal.heard or (english and refusal.key != "gouji_unknown_word")
        raise
    try:
        result, edited = book(ctx, table, [round_event(round_)])
    except DuplicateRecord as dup:  # the same finishing order from someone else a moment ago: ask before booking
        return hold_back(ctx, table, dup)
    if result.replayed:  # a redelivered update: booked once, said once
        return replayed_reply(ctx, result, "gouji")
    return SendText("\n".join(round_lines(ctx, table, result, edited=edited)), reply_to=ctx.message_id)


@registry.command(
    "gouji_place",
    names=["place"],
    aliases=OWN_PLACE_WORDS,
    help_zh="够级的名次：我头科（我是二科、末游 我 …）｜ 别人的写名字：小张 头科（@小张 二科）—— 出按钮，"
    "说了的已经排好，再按出完的顺序点其他人；名次按钮已经在等的话，就填进那组按钮里",
    help_en="a Gouji (够级) place: I'm 1st (me 2nd, 1st me, I'm last …) | another player's by name: Ben 2nd (@b 2nd, "
    "2nd Ben, Ben last) shows the place buttons with them placed, or goes into those waiting; tap the others",
    games=GOUJI,
    in_menu=False,
)
def record_own_place(ctx: Context) -> list[SendText] | SendText:
    """`我头科`, `我是二科`, `末游 我`: the sender's own place, the way `我胡了` starts a win with the sender as its
    winner — the 名次 buttons, the sender already at that place, the others tapped in the order they went out. While
    名次 buttons of this round wait (anyone's), the place goes into them instead (their message rewritten), so the
    players saying their places one after another fill one round; a place or a player placed there already is
    refused, nothing changed."""
    own = ctx.word in OWN_PLACE_WORDS
    if own and ctx.args:
        raise Quiet  # `我头科 厉害吧`: said, not recorded
    typed = ctx.incoming.text if ctx.incoming is not None else ""
    if ctx.group.language != "en" and place_in_chinese(typed) != typed:
        raise Quiet  # `I'm 1st`, `Ben 2nd`: the English labels' words, a place where the group reads English
    table = game_table(ctx, "gouji")
    teller = my_seat(ctx, table)
    try:
        mine = teller if own else seat_resolver(ctx, table)(ctx.args)  # `小张 头科`: read as `头科 小张`
    except Refusal:  # `@xiaoming 头科`: an @mention of someone not seated
        mine = None
    if mine is None and own:  # an admin who does not play here: `我` is nobody at this table
        raise Refusal("gouji_place_not_seated", word=ctx.word)
    if mine is None:  # `小明头科`: a member (or an @mention) not at this table is told so; any other word is chat
        raise _place_of_someone_not_seated(ctx, table, ctx.args)
    at = GOUJI_PLACES[ctx.word.removeprefix("我")]
    told = {} if mine == teller or teller is None else {mine: teller}  # said of another: who said it, shown
    waiting = _round_waiting(ctx, table)
    if waiting is None and last_alone(typed):
        raise Quiet  # `last` alone with no round being told: chat, as 末游 alone is
    if waiting is None:
        return start_flow(ctx, table, (at, mine), told)
    state = dict(waiting.state)
    there = _slots(state, tapped=True)[at]
    refused = (
        Refusal("gouji_place_placed" if mine == teller else "gouji_place_placed_named", name=mine)
        if mine in _placed(state)
        else Refusal("gouji_place_taken", place=_place_word(ctx, at), name=there)
        if there is not None
        else None
    )
    if refused is not None:
        refused.heard = True  # a place said is no chat, however it was worded (`头科 我`)
        raise refused
    state["own"] = [*state.get("own", ()), [at, mine]]
    if told:
        state["told"] = {**state.get("told", {}), **told}
    ctx.service.save_flow(ctx.chat_id, waiting.message_id, waiting.user_id, "gouji", state)
    text, buttons = render(ctx, table, waiting.message_id, state)
    added = ctx.reply("gouji_place_added", name=mine, place=_place_word(ctx, at))
    last = _last_left(table.players, state)
    if last is not None:  # the round is whole now: the one left has the place left
        at_last = _slots(_filled(table.players, state), tapped=True).index(last)
        added = ctx.reply(
            "gouji_place_last", name=mine, place=_place_word(ctx, at), last=last, last_place=_place_word(ctx, at_last)
        )
    return [SendText(text, buttons=buttons, edit_message_id=int(state["message"])), added]


@registry.command(
    "gouji_card_passing",
    names=["tribute"],
    aliases=GOUJI_CARD_PASSING_WORDS,
    help_zh="进贡、点贡、开点：只换牌不算分，不用记；记每局的名次",
    help_en="card passing (进贡, 点贡, 开点): cards change hands, no points: nothing to record; record each round's "
    "order",
    games=GOUJI,
    in_menu=False,
)
def card_passing(ctx: Context) -> SendText:
    """`进贡`, `点贡 @老王`: passing cards moves no money (docs/games.md, 够级 rule 8), so nothing is booked; the
    answer says so, and what is recorded instead."""
    return ctx.reply("gouji_card_passing", word=ctx.word)


@registry.command(
    "gouji_mark",
    names=["geming"],
    aliases=tuple(word for words in GOUJI_MARK_WORDS.values() for word in words),
    help_zh="革命、烧牌失败：写在名次里 —— 名次 @甲 @丁 @丙 @己 @乙 革命 @某人 ｜ 作废的局：名次 革命 @甲 @乙",
    help_en="revolution (革命) and failed burns (烧牌) go in the round's line: order @a @d @c @f @b revolution @x | "
    "void: order revolution @a @b",
    games=GOUJI,
    in_menu=False,
)
def mark_alone(ctx: Context) -> SendText:
    """`革命 @e @f`, `我革命`, `烧牌 @e`: a round's mark typed without its round books nothing (a round is its whole
    名次 line); the answer says what is missing and the line to send — for two or more 革命 exactly that line, which
    books the void round. Words after the mark that are no seated player are chat."""
    table = game_table(ctx, "gouji")
    if ctx.word in GOUJI_MARK_WORDS["chuansanhu"]:  # `串三户了`: worked out from the round's places, not marked
        if ctx.args or asks(ctx.incoming.text if ctx.incoming else ""):
            raise Quiet  # `串三户 太爽了`, `串三户？`: said, not recorded
        return ctx.reply("gouji_chuansanhu_alone")
    resolve = seat_resolver(ctx, table)
    mine = ["我"] if ctx.word.startswith("我") else []
    names = [resolve(token) for token in [*mine, *_mentions_joined(tokens(ctx.args))]]
    if any(name is None for name in names):
        raise Quiet  # `革命 尚未成功`, `我革命了 哈哈`: said, not recorded
    named = list(dict.fromkeys(str(name) for name in names))
    if not named and any(ctx.word in words for words in GOUJI_MARK_EN.values()):
        raise Quiet  # `revolution`, `burn` alone: everyday words, answered only with the players after them
    typed = " ".join(named)
    if ctx.word in GOUJI_MARK_WORDS["failed"]:
        return ctx.reply("gouji_failed_alone", names=typed or ("@x" if ctx.lang == "en" else "@某人"))
    if not named:
        return ctx.reply("gouji_geming_who")
    key = "gouji_geming_void" if len(named) >= 2 else "gouji_geming_alone"
    return ctx.reply(key, names=joined(ctx.lang, named), names_typed=typed)


@registry.command(
    "gouji_match",
    names=["match"],
    aliases=MATCH_WORDS,
    help_zh="比分：这桌两队到现在的总分（每局的回复里也有）",
    help_en="the match score (比分): the two teams' points at this table so far (each round's reply shows it too)",
    games=GOUJI,
    in_menu=False,
)
def show_match(ctx: Context) -> SendText:
    """`比分`: the match score every round's reply ends with, asked between rounds; anything after it is chat."""
    if ctx.args:
        raise Quiet
    table = current_table(ctx)
    if table.game != "gouji":
        raise Quiet  # a table of another game still open: it has no match score
    score = match_score(ctx, table.id, table.players)
    return SendText(_match_line(ctx, table.players, *score), reply_to=ctx.message_id)


def _round_waiting(ctx: Context, table: TableInfo) -> Flow | None:
    """The newest 名次 buttons still waiting for this round of this table (whoever started them), when their message
    is known (to rewrite); None when there are none."""
    for flow in reversed(ctx.service.open_flows(ctx.chat_id, kinds=("gouji",))):
        state = flow.state
        if state.get("table_id") == table.id and state.get("hand") == table.hand_number and state.get("message"):
            return None if held_as_repeat(flow) else flow
    return None


def _place_word(ctx: Context, at: int) -> str:
    """A place by how many went out before it, as the round's reply names it (`二科`, `2nd`)."""
    place = list(PLACE_EN)[at]
    return PLACE_EN[place] if ctx.lang == "en" else place


def _not_seated(ctx: Context, word: str) -> Refusal | None:
    """`五科赵总`, `赵总第五` in a round typed or told by its places, when 赵总 is a member of the group who is not at
    this table: 「赵总 不在这桌上」, said however the line began; None for any other word (chat stays chat)."""
    bare = word.removeprefix("@")
    for place in sorted(GOUJI_PLACES, key=len, reverse=True):
        if fold(bare).startswith(place) or fold(bare).endswith(place):
            bare = bare[len(place) :] if fold(bare).startswith(place) else bare[: -len(place)]
            break
    try:
        person = ctx.service.find_member(ctx.chat_id, bare) if bare else None
    except LedgerError:  # two accounts show it: nobody to name
        return None
    if person is None:
        return None
    refusal = Refusal("not_seated", name=shown_name(ctx, person))
    refusal.heard = True
    return refusal


def _place_of_someone_not_seated(ctx: Context, table: TableInfo, named: str) -> Refusal | Quiet:
    """`小明头科`, `@xiaoming 二科` where 小明 is not at this table: refused saying so and who is (nothing
    changes), when the name is a member's or guest's of the group, or an @mention; any other word (`今天头科`) is
    chat (Quiet)."""
    try:
        person = ctx.service.find_member(ctx.chat_id, named.removeprefix("@"))
    except LedgerError:  # two accounts show it: nobody to name
        person = None
    if person is None and not named.startswith("@"):
        return Quiet()
    name = shown_name(ctx, person) if person is not None else named
    refusal = Refusal("gouji_place_named_not_seated", name=name, seats=joined(ctx.lang, table.players))
    refusal.heard = True  # a place said of a person: no chat, however it was worded
    return refusal


def round_event(round_: dict[str, list[str]]) -> GoujiRound:
    return GoujiRound(tuple(round_["order"]), tuple(round_["geming"]), tuple(round_["shaopai_failed"]))


def parse_round(args: str, resolve: Callable[[str], str | None]) -> Told:
    """`@a @d 革命 @e 烧牌 @f @b` → order, geming, shaopai_failed (names as the seats spell them). A place said before
    a name, glued or apart (`头科阿杰 二科 老王`), puts them there, the others filling the places left in the order
    typed; `@ 老王` is `@老王`; `串三户` is a claim the round is checked against (`Told.chuansanhu`)."""
    round_: dict[str, list[str]] = {"order": [], "geming": [], "shaopai_failed": []}
    said: dict[int, str] = {}  # a place said -> who
    claims = False
    target = "order"
    items = _mentions_joined(tokens(args))
    index = 0
    while index < len(items):
        token = items[index]
        folded = fold(token)
        at: int | None = None
        if folded in GEMING_WORDS:
            target = "geming"
        elif folded in FAILED_WORDS:
            target = "shaopai_failed"
        elif folded in ORDER_WORDS:
            target = "order"
        elif folded in CHUANSANHU_WORDS:
            claims = True
        else:
            place, name = _place_first(token, items[index + 1] if index + 1 < len(items) else "", resolve)
            if place is not None:
                if target != "order" or name is None:
                    raise Refusal("gouji_place_needs_name", word=place)
                index += token == place  # the name typed apart after its place
                at = GOUJI_PLACES[PLACE_TYPED_EN.get(fold(place), fold(place))]
                if at in said:
                    raise Refusal("gouji_place_twice", place=place, first=said[at], second=name)
            else:
                name = resolve(token)
            if name is None:
                raise Refusal("gouji_unknown_word", word=token)
            if any(name in names for names in round_.values()):
                raise Refusal("gouji_named_twice", name=name)
            round_[target].append(name)
            if at is not None:
                said[at] = name
        index += 1
    if said:  # the places said; the others in the places left, in the order typed
        slots: list[str | None] = [None] * SEAT_COUNT
        for at, name in said.items():
            slots[at] = name
        rest = iter([name for name in round_["order"] if name not in said.values()])
        filled = [name or next(rest, None) for name in slots]
        round_["order"] = [name for name in filled if name is not None]
    return Told(round_, {name: at for at, name in said.items()}, claims)


#: what a correction may say before the places (`不对 是阿杰第二 大刘头科`, `应该是 大刘头科`)
CORRECTED_LEADS = ("应该是", "是")


def kept_places(ctx: Context, latest: TableRecord, said: str) -> tuple[str, str] | None:
    """`不对 是阿杰第二 大刘头科`, `改成 大刘头科`: a correction naming only some players' places, read as the latest
    round with them there and the others in the places left in the order they had (`名次 大刘 阿杰 …`). None for a
    line holding anything else, or after a round with 革命 or a failed burn (its order is no list of places)."""
    table = ctx.table
    event = latest.events[0] if len(latest.events) == 1 else {}
    order = list(event.get("order") or ())
    if table is None or event.get("type") != "round" or event.get("geming") or event.get("shaopai_failed"):
        return None
    if len(order) != SEAT_COUNT:
        return None
    said = said.strip()
    for lead in CORRECTED_LEADS:
        said = said.removeprefix(lead).strip()
    places = _places_named(tokens(said), seat_resolver(ctx, table))
    if not places or len(set(places.values())) != len(places):
        return None
    slots: list[str | None] = [None] * SEAT_COUNT
    for at, name in places.items():
        slots[at] = name
    rest = iter(name for name in order if name not in places.values())
    return GOUJI_ROUND_WORDS[0], " ".join(name or next(rest) for name in slots)


def _places_named(items: list[str], resolve: Callable[[str], str | None]) -> dict[int, str] | None:
    """`阿杰第二 大刘头科`, `头科 大刘`, `阿杰 二科`: each place with its seat, said either way round, glued or apart
    (place -> seat); None when a word is neither, or a place is said twice."""
    places: dict[int, str] = {}
    index = 0
    while index < len(items):
        token, after = items[index], items[index + 1] if index + 1 < len(items) else ""
        place, name = _place_first(token, after, resolve)
        step = 2 if place is not None and token == place else 1
        if place is None:
            place, name = _place_after(token, after, resolve)
            step = 2 if place is not None and fold(after) == place else 1
        if place is None or name is None or GOUJI_PLACES[fold(place)] in places:
            return None
        places[GOUJI_PLACES[fold(place)]] = name
        index += step
    return places


def _place_after(token: str, after: str, resolve: Callable[[str], str | None]) -> tuple[str | None, str | None]:
    """A place said after a seat's name (`阿杰第二`, or `阿杰` then `二科`): (the place, the seat), or (None, None)."""
    folded = fold(token)
    if fold(after) in GOUJI_PLACES and resolve(token) is not None:
        return fold(after), resolve(token)
    for place in sorted(GOUJI_PLACES, key=len, reverse=True):
        if folded.endswith(place) and len(folded) > len(place):
            named = resolve(token[: -len(place)])
            if named is not None:
                return place, named
    return None, None


KEPT_BY_GAME["gouji"] = kept_places
KEPT_NAMES_PLAYERS.add("gouji")


def _mentions_joined(items: list[str]) -> list[str]:
    """The words of a round with an @ typed apart from its name (`@ 老王`, as phones type it) joined to it (`@老王`),
    wherever it stands: `名次 @ 老王 …`, `头科 @ 老王 …`."""
    joined: list[str] = []
    for token in items:
        if joined and fold(joined[-1]) == "@":
            joined[-1] += token
        else:
            joined.append(token)
    return joined


def _place_first(token: str, after: str, resolve: Callable[[str], str | None]) -> tuple[str | None, str | None]:
    """A 够级 place said before a name (`头科阿杰`, or `头科` then `阿杰`): (the place as typed, the seat), the seat
    None when no seat follows; (None, None) when the word is no place, nor a place glued to a seat."""
    folded = fold(token)
    if folded in GOUJI_PLACES or folded in PLACE_TYPED_EN:  # `头科 阿杰`, `1st @a`
        return token, resolve(after) if after else None
    for place in sorted(GOUJI_PLACES, key=len, reverse=True):
        if folded.startswith(place):
            named = resolve(token[len(place) :])
            if named is not None:
                return token[: len(place)], named
    return None, None


def check_told(ctx: Context, told: Told, players: list[str]) -> None:
    """What the line said beside the order — each place said (`头科阿杰`), `串三户` — is what the round scores: a
    place moved by a 革命 or a failed burn, or a 串三户 that is none, is refused with the places the round has."""
    if not told.places and not told.chuansanhu:
        return
    try:
        answer = gouji.answer({"game": "gouji", "stake": 0, "seats": players, **told.round})
    except ScoringError:
        return  # the booking refuses it with its own reason
    if answer["void"]:  # two 革命: nobody has a place
        return
    places = _places_text(ctx, answer["places"])
    for name, at in told.places.items():
        if answer["places"].get(name) != list(PLACE_EN)[at]:
            raise Refusal("gouji_place_moved", name=name, place=_place_word(ctx, at), places=places)
    if told.chuansanhu and not answer["chuansanhu"]:
        raise Refusal("gouji_not_chuansanhu", places=places)


def impossible_geming(lang: str, round_: dict[str, list[str]]) -> Refusal | None:
    """The refusal of a round whose 革命 cannot be: two or more 革命 void it, so nobody went out or failed a burn
    (a line naming places with them was voided, its places dropped without a word); six, since the 大王, 小王 and
    2 革命 needs a hand without are always in someone's. None for a round that can be."""
    geming = round_["geming"]
    if len(geming) == SEAT_COUNT:
        refusal = Refusal("gouji_all_geming")
    elif len(geming) >= 2 and (round_["order"] or round_["shaopai_failed"]):
        named = joined(lang, [*round_["order"], *round_["shaopai_failed"]])
        names = joined(lang, geming)
        refusal = Refusal("gouji_void_with_places", named=named, names=names, names_typed=" ".join(geming))
    else:
        return None
    refusal.heard = True  # a round read whole that the rules refuse: said however the line began
    return refusal


def check_complete(lang: str, round_: dict[str, list[str]], players: list[str]) -> None:
    """Everyone named once, unless two 革命 void the round (then the rest need not be named)."""
    if len(round_["geming"]) >= 2:
        return
    named = {name for names in round_.values() for name in names}
    missing = [p for p in players if p not in named]
    if missing:
        raise Refusal("gouji_missing", names=joined(lang, missing))


# ------------------------------------------------------------------------------------------------ the reply


def round_lines(ctx: Context, table: TableInfo, result: HandResult, *, edited: bool = False) -> list[str]:
    """Places, marks, who scored, each seat's money, the match score. An edit of a round of a table since ended
    names the players as every reply names them now (`named_now`)."""
    match = match_score(ctx, result.table_id, table.players)  # the table's rounds, stored under its seat names
    table, result = named_now(ctx, table, result)
    answer = result.answer
    event = result.events[0]
    lines = booking_lines(ctx, result)
    if answer.get("void"):  # the places of a void round: what it is, and why
        void = ctx.t("gouji_void_round", names=joined(ctx.lang, event["geming"]))
        lines.append(
            ctx.t(edited_key(ctx, "gouji_round_edited") if edited else "gouji_round", number=result.number, places=void)
        )
    else:
        lines.append(
            ctx.t(
                edited_key(ctx, "gouji_round_edited") if edited else "gouji_round",
                number=result.number,
                places=_places_text(ctx, answer["places"]),
            )
        )
        if event.get("geming"):
            lines.append(ctx.t("gouji_marks_geming", names=joined(ctx.lang, event["geming"])))
        if event.get("shaopai_failed"):
            lines.append(ctx.t("gouji_marks_failed", names=joined(ctx.lang, event["shaopai_failed"])))
        lines.append(_scored_line(ctx, table.players, answer))
    lines += edit_changes_head(ctx, edited)
    lines += money_lines(ctx, table, result)
    lines.append(_match_line(ctx, table.players, *match))
    return lines


def describe(lang: str, event: Mapping[str, Any], dealer: str | None = None) -> str:
    """A round in words for 牌桌, 撤销 and 历史: `出完：a、d、c、f、b、e，革命：…，烧牌失败：…` (够级 has no dealer); a
    void round (two or more 革命) says so, as its reply does: `作废，不计分（e、f 革命：两人以上革命的局不算）`."""
    geming = event.get("geming") or ()
    if len(geming) >= 2:
        return bot_texts.text(lang, "gouji_void_round", names=joined(lang, geming))
    parts = [
        bot_texts.text(lang, key, names=joined(lang, event.get(field) or ()))
        for field, key in (
            ("order", "gouji_flow_order"),
            ("geming", "gouji_marks_geming"),
            ("shaopai_failed", "gouji_marks_failed"),
        )
        if event.get(field)
    ]
    return ("; " if lang == "en" else "，").join(parts)


register_describer("gouji", describe)


def _places_text(ctx: Context, places: dict[str, str]) -> str:
    shown = {place: PLACE_EN[place] for place in places.values()} if ctx.lang == "en" else {}
    return joined(ctx.lang, (f"{shown.get(place, place)} {name}" for name, place in places.items()))


def _scored_line(ctx: Context, players: list[str], answer: dict[str, Any]) -> str:
    scoring = [p for p in players if answer["team_points"].get(p)]
    if not scoring:
        return ctx.t("gouji_tie")
    double = ctx.t("gouji_chuansanhu") if answer["chuansanhu"] else ""
    points = answer["team_points"][scoring[0]]
    return ctx.t("gouji_scored", team=joined(ctx.lang, scoring), points=points, double=double)


def match_score(ctx: Context, table_id: int, players: list[str]) -> tuple[int, int]:
    """The two teams' points over this table's live rounds (odd seats first), re-scored from the records."""
    totals = [0, 0]
    for hand in ctx.service.history(ctx.chat_id, limit=10_000):
        if hand.table_id != table_id or not hand.events:
            continue
        round_ = {k: v for k, v in hand.events[0].items() if k != "type"}
        answer = gouji.answer({"game": "gouji", "stake": 0, "seats": players, **round_})
        totals[0] += answer["team_points"][players[0]]
        totals[1] += answer["team_points"][players[1]]
    return totals[0], totals[1]


def _match_line(ctx: Context, players: list[str], a: int, b: int) -> str:
    first, second = joined(ctx.lang, players[0::2]), joined(ctx.lang, players[1::2])
    return ctx.t("gouji_match", first=first, a=a, second=second, b=b)


def _table_match(ctx: Context, table: TableInfo) -> list[str]:
    """牌桌 at a 够级 table shows its match score, as each round's reply and 比分 do."""
    return [_match_line(ctx, table.players, *match_score(ctx, table.id, table.players))]


def _table_waiting(ctx: Context, table: TableInfo) -> list[str]:
    """牌桌 while 名次 buttons of this round wait: what they hold and who is still to place, nothing booked yet."""
    waiting = _round_waiting(ctx, table)
    if waiting is None:
        return []
    state = _filled(table.players, dict(waiting.state))
    left = [name for name in table.players if name not in _placed(state)]
    lines = [ctx.t("gouji_table_waiting", number=table.hand_number), *_progress(ctx, state)]
    if left:
        lines.append(ctx.t("gouji_table_left", names=joined(ctx.lang, left)))
    return lines


STATUS_LINES["gouji"] = _table_match
WAITING_LINES["gouji"] = _table_waiting


# ------------------------------------------------------------------------------------------------ buttons


def start_flow(
    ctx: Context, table: TableInfo, own: tuple[int, str] | None = None, told: dict[str, str] | None = None
) -> SendText:
    """A message with one button per seat: tap the players in the order they went out. `own`: a player's place said
    (`我二科`, `小张 二科`: how many went out before, the seat), kept there while the others are tapped around it;
    `told`: a player placed by another seated player -> who said it."""
    key = flow_key(ctx)
    state: dict[str, Any] = {"table_id": table.id, "hand": table.hand_number, "mode": "o", "log": []}
    if own is not None:
        state["own"] = [list(own)]
    if told:
        state["told"] = told
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, "gouji", state)
    text, buttons = render(ctx, table, key, state)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, posted_as=f"gj:{key}")


# the flow's message is kept with it (`posted_as`), for its asker's typed 算了 to rewrite as its 「取消」 does
cancel_by_typing("gouji", "gj", nothing_booked, "flow_cancelled_typed")


@registry.callback("gj")
def press(ctx: Context) -> HandlerResult:
    step = flow_step(ctx, "gouji", lambda c: game_table(c, "gouji"))
    if not isinstance(step, FlowStep):
        return step
    if step.action in {"ok", REPEAT}:  # confirm; confirm again what the double-entry check held back
        return _confirm(ctx, step)
    apply(step.table.players, step.state, step.action)
    ctx.service.save_flow(ctx.chat_id, step.key, step.user_id, "gouji", step.state)
    text, buttons = render(ctx, step.table, step.key, step.state)
    return SendText(text, buttons=buttons, edit_message_id=step.edit)


def apply(players: list[str], state: dict[str, Any], action: str) -> None:
    """One press: place a seat in the current list, switch lists, or take back the last placement."""
    code, _, arg = action.partition(".")
    placed = _placed(state)
    seat = button_index(arg, len(players))
    if code == "p" and seat is not None and players[seat] not in placed:
        state["log"].append([state["mode"], players[seat]])
    elif code == "m" and arg in MODES:
        state["mode"] = arg
    elif code == "u" and state["log"]:
        state["log"].pop()


def _last_left(players: list[str], state: dict[str, Any]) -> str | None:
    """The one seat not placed while the taps mark who went out and everyone else is placed: their place is the one
    left, known without a tap (a 革命 or a failed burn is marked by switching to it first). None otherwise."""
    left = [name for name in players if name not in _placed(state)]
    if state["mode"] != "o" or len(left) != 1 or len(round_of(state)["geming"]) >= 2:
        return None
    return left[0]


def _filled(players: list[str], state: dict[str, Any]) -> dict[str, Any]:
    """The flow's state with the last seat placed where it is known (`_last_left`)."""
    last = _last_left(players, state)
    return state if last is None else {**state, "log": [*state["log"], ["o", last]]}


def round_of(state: dict[str, Any], *, own: bool = True) -> dict[str, list[str]]:
    """The round the presses tell; with the places players said of themselves (`own`) among those who went out."""
    round_: dict[str, list[str]] = {field: [] for field in MODES.values()}
    for mode, name in state["log"]:
        round_[MODES[mode]].append(name)
    if own and state.get("own"):
        round_["order"] = [name for name in _slots(state, tapped=True) if name is not None]
    return round_


def _slots(state: dict[str, Any], *, tapped: bool = False) -> list[str | None]:
    """The six places (头科 first): those said by their players, and (`tapped`) those who went out tapped in order
    into the places left."""
    slots: list[str | None] = [None] * SEAT_COUNT
    for at, name in state.get("own", ()):
        slots[at] = name
    if tapped:
        free = iter([at for at, name in enumerate(slots) if name is None])
        for mode, name in state["log"]:
            at = next(free, None) if mode == "o" else None
            if at is not None:
                slots[at] = name
    return slots


def _placed(state: dict[str, Any]) -> set[str]:
    """Who has a place already: tapped, or said by themselves."""
    return {name for _, name in state["log"]} | {name for _, name in state.get("own", ())}


def _next_out(state: dict[str, Any], tapped: int) -> int:
    """Which place (1 = 头科) the next tap of who went out fills: the places in order, past those said by players."""
    free = [at for at, name in enumerate(_slots(state)) if name is None] or [SEAT_COUNT - 1]
    return free[min(tapped, len(free) - 1)] + 1


def _complete(round_: dict[str, list[str]]) -> bool:
    return len(round_["geming"]) >= 2 or sum(len(names) for names in round_.values()) == SEAT_COUNT


def render(
    ctx: Context, table: TableInfo, key: int, state: dict[str, Any]
) -> tuple[str, tuple[tuple[Button, ...], ...]]:
    def button(label: str, action: str) -> Button:
        return Button(label, f"gj:{key}:{action}")

    last = _last_left(table.players, state)
    state = _filled(table.players, state)
    round_ = round_of(state)
    tapped = round_of(state, own=False)["order"]
    lines = [ctx.t("gouji_flow_title", number=table.hand_number), *_progress(ctx, state)]
    rows: list[tuple[Button, ...]] = []
    if _complete(round_):
        preview, ok = _preview(ctx, table, round_)
        if last is not None:  # placed without a tap: said, with how to mark them otherwise
            at = _slots(state, tapped=True).index(last)
            lines.append(ctx.t("gouji_flow_last", name=last, place=_place_word(ctx, at)))
        lines += preview
        controls = [button(ctx.t("btn_confirm"), "ok")] if ok else []
        rows.append((*controls, button(ctx.t("gouji_btn_undo"), "u")))
        if last is not None:
            rows.append(tuple(button(ctx.t(f"gouji_btn_{code}"), f"m.{code}") for code in MODES if code != "o"))
    else:
        mode = state["mode"]
        lines.append(ctx.t(f"gouji_flow_ask_{mode}", n=_next_out(state, len(tapped))))
        placed = _placed(state)
        seats = [button(name, f"p.{i}") for i, name in enumerate(table.players) if name not in placed]
        rows += [tuple(seats[i : i + 3]) for i in range(0, len(seats), 3)]
        modes = [button(ctx.t(f"gouji_btn_{code}"), f"m.{code}") for code in MODES if code != mode]
        rows.append((*modes, *([button(ctx.t("gouji_btn_undo"), "u")] if state["log"] else [])))
    rows.append((button(ctx.t("btn_cancel"), "x"),))
    return "\n".join(lines), tuple(rows)


def _progress(ctx: Context, state: dict[str, Any]) -> list[str]:
    """What 名次 buttons hold so far: the places said and tapped (or who went out, tapped), 革命, failed burns."""
    lines = []
    round_ = round_of(state)
    tapped = round_of(state, own=False)["order"]
    if state.get("own"):  # places said by their players, the others tapped around them
        said = {name for _, name in state["own"]}
        told = state.get("told", {})
        places = [
            ctx.t(
                "gouji_flow_told_place"
                if name in told
                else "gouji_flow_own_place"
                if name in said
                else "gouji_flow_place",
                name=name,
                place=_place_word(ctx, at),
                teller=told.get(name),
            )
            for at, name in enumerate(_slots(state, tapped=True))
            if name is not None
        ]
        lines.append(ctx.t("gouji_flow_places", places=joined(ctx.lang, places)))
    elif tapped:
        lines.append(ctx.t("gouji_flow_order", names=joined(ctx.lang, tapped)))
    if round_["geming"]:
        lines.append(ctx.t("gouji_marks_geming", names=joined(ctx.lang, round_["geming"])))
    if round_["shaopai_failed"]:
        lines.append(ctx.t("gouji_marks_failed", names=joined(ctx.lang, round_["shaopai_failed"])))
    return lines


def _preview(ctx: Context, table: TableInfo, round_: dict[str, list[str]]) -> tuple[list[str], bool]:
    """What confirming would book, scored now (nothing is written)."""
    refused = impossible_geming(ctx.lang, round_)
    if refused is not None:
        return [ctx.t(refused.key, **refused.params)], False
    request = {"game": "gouji", "stake": table.base, "seats": table.players, **round_}
    try:
        answer = gouji.answer(request)
    except ScoringError as err:
        return [scoring_refusal(ctx.lang, err)], False
    lines = [ctx.t("flow_preview")]
    if answer["void"]:
        lines.append(ctx.t("gouji_void", names=joined(ctx.lang, round_["geming"])))
    else:
        lines.append(_places_text(ctx, answer["places"]))
        lines.append(_scored_line(ctx, table.players, answer))
    currency = ctx.group.currency
    for t in answer["transfers"]:
        lines.append(ctx.t("flow_payment", payer=t["from"], payee=t["to"], amount=money(t["amount"], currency)))
    if not answer["transfers"]:
        lines.append(ctx.t("flow_no_payment"))
    return lines, True


def _typed_held(ctx: Context, flow: Flow, message: int) -> HandlerResult:
    """A round's confirmation held back as a double entry, booked by its starter's typed `确实又一次` as its
    「确实又一次」 (`REPEAT`) books it."""
    table = game_table(ctx, "gouji")
    return _confirm(ctx, FlowStep(flow.message_id, REPEAT, table, dict(flow.state), flow.user_id, message))


book_held_by_typing("gouji", _typed_held)


def _confirm(ctx: Context, step: FlowStep) -> HandlerResult:
    """Book the round the flow previews (`REPEAT`: past the double-entry check, which held it back)."""
    round_ = round_of(_filled(step.table.players, step.state))
    if not _complete(round_):
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    source = flow_source(ctx, step.key)
    try:
        result, _ = book(replace(ctx, repeat=step.action == REPEAT), step.table, [round_event(round_)], source=source)
    except DuplicateRecord as dup:  # someone typed it meanwhile: say who, and ask whoever started the flow
        return hold_flow(ctx, "gj", "gouji", step, dup, "gouji")
    ctx.service.finish_flow(ctx.chat_id, step.key)
    text = "\n".join(round_lines(ctx, step.table, result))
    return Outcome([AnswerCallback(ctx.t("flow_recorded")), SendText(text, edit_message_id=step.edit)])
