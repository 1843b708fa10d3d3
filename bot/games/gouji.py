"""够级 tables: a round is recorded as its finishing order, typed (`名次 @a @d @c @f @b @e 烧牌 …`) or tapped on
buttons in the order players went out, with 革命 and 烧牌失败 marks. The reply gives the places, the team that
scored (串三户 doubled), the money between 对头 and the table's match score."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot import texts as bot_texts
from bot.commands._common import (
    REPEAT,
    FlowStep,
    book,
    booking_lines,
    button_index,
    edit_changes_head,
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
)
from bot.commands.duplicates import hold_back, hold_flow
from bot.commands.questions import cancel_by_typing, nothing_booked
from bot.core import AnswerCallback, Button, Context, HandlerResult, Outcome, Quiet, Refusal, SendText, registry
from bot.games._common import game_table
from bot.grammar import fold, tokens
from bot.texts import joined, register, register_describer, scoring_refusal
from bot.vocabulary import GOUJI_PLACES, OWN_PLACE_WORDS
from ledger.events import GoujiRound
from ledger.scoring import ScoringError, gouji
from ledger.service import DuplicateRecord, Flow, HandResult, TableInfo

GOUJI = ("gouji",)
SEAT_COUNT = gouji.SEAT_COUNT
#: words that switch what the names after them are: 革命 players, or failed burns in the order they failed
GEMING_WORDS = frozenset({"革命", "geming"})
FAILED_WORDS = frozenset({"烧牌", "烧牌失败", "烧失败", "shaopai"})
ORDER_WORDS = frozenset({"名次", "出完", "order"})
PLACE_EN = {"头科": "1st", "二科": "2nd", "三科": "3rd", "四科": "4th", "二落": "5th", "大落": "6th"}
#: rows of buttons under a flow's message
Buttons = tuple[tuple[Button, ...], ...]
#: flow modes: which list a tapped name goes to
MODES = {"o": "order", "g": "geming", "f": "shaopai_failed"}

register(
    {
        "gouji_round": {"zh": "第{number}局 够级：{places}", "en": "Round {number} (够级): {places}"},
        "gouji_round_edited": {
            "zh": "第{number}局 按改后的消息重记（原记录作废）：{places}",
            "en": "Round {number} re-recorded from the edit: {places}",
        },
        "gouji_marks_geming": {"zh": "革命：{names}", "en": "革命 (sat out): {names}"},
        "gouji_marks_failed": {"zh": "烧牌失败：{names}", "en": "Failed burns (烧牌失败): {names}"},
        "gouji_scored": {"zh": "{team} 得 {points} 分{double}", "en": "{team} score {points}{double}"},
        "gouji_chuansanhu": {"zh": "（串三户，翻倍）", "en": " (串三户, doubled)"},
        "gouji_tie": {"zh": "两边都没有正分，本局不计分。", "en": "Neither team is positive: nobody scores."},
        "gouji_void": {
            "zh": "{names} 革命：两人以上革命，本局作废，不计分。",
            "en": "{names} declared 革命: two or more void the round, nothing scores.",
        },
        "gouji_match": {"zh": "比分：{first} {a} ｜ {second} {b}", "en": "Match: {first} {a} | {second} {b}"},
        "gouji_unknown_word": {
            "zh": "看不懂「{word}」：按出完的顺序写座位上的人（@某人 或名字），革命的写在「革命」后面，"
            "烧牌失败的按失败先后写在「烧牌」后面。例如：名次 @a @d @c @f @b 烧牌 @e",
            "en": "Cannot read “{word}”: name the seated players in the order they went out (@someone or a name), "
            "革命 players after 革命, failed burns after 烧牌 in the order they failed. "
            "Example: 名次 @a @d @c @f @b 烧牌 @e",
        },
        "gouji_named_twice": {"zh": "{name} 写了两次。", "en": "{name} is named twice."},
        "gouji_missing": {
            "zh": "还差 {names}：六个人都要写上（革命的写在「革命」后面，烧牌失败的写在「烧牌」后面）。",
            "en": "{names} missing: name all six (革命 after 革命, failed burns after 烧牌).",
        },
        "gouji_flow_title": {
            "zh": "记名次（第{number}局）：按出完的顺序点人",
            "en": "Record round {number}: tap the players in the order they went out",
        },
        "gouji_flow_ask_o": {"zh": "谁是第 {n} 个出完的？", "en": "Who went out next (number {n})?"},
        "gouji_flow_ask_g": {"zh": "谁革命了？", "en": "Who declared 革命?"},
        "gouji_flow_ask_f": {
            "zh": "谁烧牌失败了？（按失败的先后点）",
            "en": "Whose burn failed? (in the order they failed)",
        },
        "gouji_flow_order": {"zh": "出完：{names}", "en": "Went out: {names}"},
        "gouji_flow_places": {"zh": "名次：{places}", "en": "Places: {places}"},
        "gouji_flow_place": {"zh": "{place} {name}", "en": "{place} {name}"},
        "gouji_flow_own_place": {"zh": "{place} {name}（自己说的）", "en": "{place} {name} (said by them)"},
        "gouji_place_added": {
            "zh": "记到上面的名次按钮里了：{name} {place}。",
            "en": "Added to the 名次 buttons above: {name} {place}.",
        },
        "gouji_place_taken": {
            "zh": "上面的名次按钮里 {place} 已经是 {name}，没有改。不对就点「↩ 撤一个」或「取消」重来。",
            "en": "In the 名次 buttons above, {place} is {name} already; nothing changed. If that is wrong, press "
            "“↩ Undo one” or “Cancel” and start again.",
        },
        "gouji_place_placed": {
            "zh": "上面的名次按钮里已经有你了（{name}），没有改。不对就点「↩ 撤一个」或「取消」重来。",
            "en": "You ({name}) are in the 名次 buttons above already; nothing changed. If that is wrong, press "
            "“↩ Undo one” or “Cancel” and start again.",
        },
        "gouji_place_not_seated": {
            "zh": "你不在这桌上，「{word}」说的是谁？记名次：名次 @甲 @丁 @丙 @己 @乙 @戊（头科在前）",
            "en": "You are not seated here: whose place is “{word}”? Record the round: 名次 @a @d @c @f @b @e "
            "(头科 first)",
        },
        "gouji_btn_o": {"zh": "出完…", "en": "Went out…"},
        "gouji_btn_g": {"zh": "革命…", "en": "革命…"},
        "gouji_btn_f": {"zh": "烧牌失败…", "en": "Failed burn…"},
        "gouji_btn_undo": {"zh": "↩ 撤一个", "en": "↩ Undo one"},
    }
)


# ------------------------------------------------------------------------------------------------ typed rounds


@registry.command(
    "gouji_round",
    names=["round"],
    aliases=["名次", "排名", "出完"],
    help_zh="够级名次：名次 @甲 @丁 @丙 @己 @乙 @戊（头科在前）｜ … 革命 @某人 ｜ … 烧牌 @某人（只写「名次」出按钮）",
    help_en="a 够级 round: 名次 @a @d @c @f @b @e (头科 first) | … 革命 @x | … 烧牌 @x (plain 名次 shows buttons)",
    games=GOUJI,
    on_edit=True,
)
def record_round(ctx: Context) -> SendText:
    table = game_table(ctx, "gouji")
    if not ctx.args and not (ctx.incoming and ctx.incoming.edited):
        return start_flow(ctx, table)
    round_ = parse_round(ctx.args, seat_resolver(ctx, table))
    check_complete(ctx.lang, round_, table.players)
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
    help_zh="够级自己的名次：我头科（我是二科、末游 我 …）—— 出按钮，自己已经排好，再按出完的顺序点其他人",
    help_en="your own 够级 place: 我头科 (我是二科, 末游 我 …) shows the 名次 buttons with you placed; tap the others",
    games=GOUJI,
    in_menu=False,
)
def record_own_place(ctx: Context) -> list[SendText] | SendText:
    """`我头科`, `我是二科`, `末游 我`: the sender's own place, the way `我胡了` starts a win with the sender as its
    winner — the 名次 buttons, the sender already at that place, the others tapped in the order they went out. While
    名次 buttons of this round wait (anyone's), the place goes into them instead (their message rewritten), so the
    players saying their places one after another fill one round; a place or a player placed there already is
    refused, nothing changed."""
    if ctx.args:
        raise Quiet  # `我头科 厉害吧`: said, not recorded
    table = game_table(ctx, "gouji")
    mine = my_seat(ctx, table)
    if mine is None:  # an admin who does not play here: `我` is nobody at this table
        raise Refusal("gouji_place_not_seated", word=ctx.word)
    at = GOUJI_PLACES[ctx.word.removeprefix("我")]
    waiting = _round_waiting(ctx, table)
    if waiting is None:
        return start_flow(ctx, table, (at, mine))
    state = dict(waiting.state)
    there = _slots(state, tapped=True)[at]
    refused = (
        Refusal("gouji_place_placed", name=mine)
        if mine in _placed(state)
        else Refusal("gouji_place_taken", place=_place_word(ctx, at), name=there)
        if there is not None
        else None
    )
    if refused is not None:
        refused.heard = True  # a place said is no chat, however it was worded (`头科 我`)
        raise refused
    state["own"] = [*state.get("own", ()), [at, mine]]
    ctx.service.save_flow(ctx.chat_id, waiting.message_id, waiting.user_id, "gouji", state)
    text, buttons = render(ctx, table, waiting.message_id, state)
    added = ctx.reply("gouji_place_added", name=mine, place=_place_word(ctx, at))
    return [SendText(text, buttons=buttons, edit_message_id=int(state["message"])), added]


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


def round_event(round_: dict[str, list[str]]) -> GoujiRound:
    return GoujiRound(tuple(round_["order"]), tuple(round_["geming"]), tuple(round_["shaopai_failed"]))


def parse_round(args: str, resolve: Callable[[str], str | None]) -> dict[str, list[str]]:
    """`@a @d 革命 @e 烧牌 @f @b` → order, geming, shaopai_failed (names as the seats spell them)."""
    round_: dict[str, list[str]] = {"order": [], "geming": [], "shaopai_failed": []}
    target = "order"
    for token in tokens(args):
        folded = fold(token)
        if folded in GEMING_WORDS:
            target = "geming"
        elif folded in FAILED_WORDS:
            target = "shaopai_failed"
        elif folded in ORDER_WORDS:
            target = "order"
        else:
            name = resolve(token)
            if name is None:
                raise Refusal("gouji_unknown_word", word=token)
            if any(name in names for names in round_.values()):
                raise Refusal("gouji_named_twice", name=name)
            round_[target].append(name)
    return round_


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
    if answer.get("void"):
        lines.append(ctx.t("gouji_round_edited" if edited else "gouji_round", number=result.number, places="-"))
        lines.append(ctx.t("gouji_void", names=joined(ctx.lang, event["geming"])))
    else:
        lines.append(
            ctx.t(
                "gouji_round_edited" if edited else "gouji_round",
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
    """A round in words for 牌桌, 撤销 and 历史: `出完：a、d、c、f、b、e，革命：…，烧牌失败：…` (够级 has no dealer)."""
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


# ------------------------------------------------------------------------------------------------ buttons


def start_flow(ctx: Context, table: TableInfo, own: tuple[int, str] | None = None) -> SendText:
    """A message with one button per seat: tap the players in the order they went out. `own`: a player's place said
    by them (`我二科`: how many went out before, the seat), kept there while the others are tapped around it."""
    key = flow_key(ctx)
    state: dict[str, Any] = {"table_id": table.id, "hand": table.hand_number, "mode": "o", "log": []}
    if own is not None:
        state["own"] = [list(own)]
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

    round_ = round_of(state)
    lines = [ctx.t("gouji_flow_title", number=table.hand_number)]
    tapped = round_of(state, own=False)["order"]
    if state.get("own"):  # places said by their players, the others tapped around them
        said = {name for _, name in state["own"]}
        places = [
            ctx.t("gouji_flow_own_place" if name in said else "gouji_flow_place", name=name, place=_place_word(ctx, at))
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
    rows: list[tuple[Button, ...]] = []
    if _complete(round_):
        preview, ok = _preview(ctx, table, round_)
        lines += preview
        controls = [button(ctx.t("btn_confirm"), "ok")] if ok else []
        rows.append((*controls, button(ctx.t("gouji_btn_undo"), "u")))
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


def _preview(ctx: Context, table: TableInfo, round_: dict[str, list[str]]) -> tuple[list[str], bool]:
    """What confirming would book, scored now (nothing is written)."""
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


def _confirm(ctx: Context, step: FlowStep) -> HandlerResult:
    """Book the round the flow previews (`REPEAT`: past the double-entry check, which held it back)."""
    round_ = round_of(step.state)
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
