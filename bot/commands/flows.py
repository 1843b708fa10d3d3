"""Inline-keyboard flows for those who won't type: a win (winner → method → discarder → patterns → what the
group's rules ask (漂, 坎, 马 …) → preview → confirm) and a kong (player → kind → discarder → preview → confirm).

The state lives in the ledger's flow table, keyed by (chat, flow key), never in memory: a restart mid-flow loses
nothing. The key is the message that asked for the flow (typed 胡/杠) or, for a press on a table's buttons, a
negative number derived from the press. Button data is `<kind>:<key>:<action>` (at most 64 bytes). Only seated
players and admins may press. Confirming books with a source derived from the flow, so a double press books once.
A confirmation the double-entry check holds back asks 「确实又一次」, which only whoever started the flow or an
admin answers (`duplicates.hold_flow`). Whoever started it may also drop it by typing 算了 (`取消`, `不用了`;
`bot.commands.questions`), as its 「取消」 does, and answer its question by typing instead of pressing
(`typed_flow_answer`: a name, `自摸`, `直杠`, `清一色 七对`, `确认`; English words in a group that reads English).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.commands._common import (
    REPEAT,
    FlowStep,
    book,
    button_index,
    current_table,
    flow_key,
    flow_source,
    flow_step,
    held_as_repeat,
    hold_hand,
    money,
    my_seat,
    questions_waiting,
    refuse_before_booking,
    seat_resolver,
    told_at,
)
from bot.commands._inputs import (
    COUNT_BUTTONS,
    Answer,
    Need,
    asks_anything,
    carried_piao,
    complete,
    determined_counts,
    pending,
    press,
    pressing_refused,
    question,
    refuse_impossible,
)
from bot.commands._inputs import table_rules as rules_of
from bot.commands._recording import (
    FLOW_PATTERNS,
    MAX_FOURS,
    event_reply,
    hand_reply,
    kong_of,
    mark,
    pattern_label,
    tap_pattern,
    toggle,
)
from bot.commands._stakes import stake_lines
from bot.commands.chat_options import minggang
from bot.commands.duplicates import book_held_by_typing, hold_flow
from bot.commands.questions import CANCELLED, cancel_by_typing, effects_of, nothing_booked, press_as
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Outcome, Refusal, SendText, registry
from bot.grammar import GrammarError, KongSpec, Word, fold, parse_piao, written_in_english
from bot.grammar import read as read_words
from bot.permissions import plays_at
from bot.texts import describe_event, describe_patterns, joined, pattern_name, scoring_refusal, tile_name
from bot.vocabulary import FLOW_INPUT_WORDS, FLOW_TYPED_WORDS
from ledger.events import WIN_METHODS, Event, Payload, Win, WinHand, payload
from ledger.records import HOLDS_HAND
from ledger.scoring import ScoringError
from ledger.service import DuplicateRecord, Flow, LedgerError, TableInfo

#: rows of buttons under a flow's message
Buttons = tuple[tuple[Button, ...], ...]

#: situational flags offered for each method (海底炮 too where the table plays it)
FLOW_SITUATIONS = {"self_draw": ("gangshangkaihua", "haidilao"), "discard": ("gangshangpao",), "rob_kong": ()}
METHOD_CODES = {"s": "self_draw", "d": "discard", "r": "rob_kong"}
#: the state's key for a 马 tile typed before the flow asks it (`take_early_ma`), the answer once it does
EARLY_MA = "early_ma"
#: the words that confirm a flow said while it still asks something (`确认` at its 漂 question): told what it asks
CONFIRM_WORDS = ("确认", "确定", "确认记账", "记吧", "confirm", "book it")
KONG_CODES = {"a": "angang", "x": "xugang", "z": "zhigang"}


def start_flow(ctx: Context, table: TableInfo, kind: str, who: str | None = None) -> SendText:
    """Open a flow: a new bot message with the first question, or the one after `who` when the line said whose
    record it is (`我胡了` alone: the sender's seat). The flow belongs to the open hand: once that hand is recorded
    its buttons expire (`flow_step`)."""
    key = flow_key(ctx)
    state: dict[str, Any] = {
        "table_id": table.id,
        "hand": table.hand_number,
        "step": "who",
        "patterns": [],
        "situations": [],
    }
    if who is not None:
        state["who"] = who
        state["step"] = "method" if kind == "hu" else "kind"
        _refuse_holding(ctx, table, kind, key)
        hold_hand(table, state)
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, kind, state)
    text, buttons = render(ctx, table, kind, key, state)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, posted_as=f"{kind}:{key}")


# the flow's message is kept with it (`posted_as`), for its asker's typed 算了 to rewrite as its 「取消」 does
cancel_by_typing("hu", "hu", nothing_booked, "flow_cancelled_typed")
cancel_by_typing("gang", "gang", nothing_booked, "flow_cancelled_typed")


@registry.callback("hu")
def press_hu(ctx: Context) -> HandlerResult:
    return _press(ctx, "hu")


@registry.callback("gang")
def press_gang(ctx: Context) -> HandlerResult:
    return _press(ctx, "gang")


def _press(ctx: Context, kind: str) -> HandlerResult:
    query = ctx.callback
    assert query is not None
    parts = query.data.split(":")
    if parts[1:] == ["new"]:
        table = current_table(ctx)
        if not plays_at(ctx, table):
            return AnswerCallback(ctx.t("flow_not_seated"), alert=True)
        return Outcome([AnswerCallback(), start_flow(ctx, table, kind)])
    step = flow_step(ctx, kind, current_table)
    if not isinstance(step, FlowStep):
        return step
    if step.action in {"ok", REPEAT}:  # confirm; confirm again what the double-entry check held back
        return _confirm(ctx, kind, step)
    if kind == "hu" and step.action.startswith("q."):  # an answer to what the group's rules ask
        before = list(ctx.service.hand_state(step.table.id).events)
        _batch, _answers, needs = _win_inputs(ctx, step.table, step.state, before)
        declared = [str(e["player"]) for e in before if e.get("type") == "liangdao"]
        refused = pressing_refused(ctx, step.table, step.action, needs)  # a 漂 is its player's (or an admin's)
        if refused is not None:
            return refused
        if not press(step.table, step.state, step.action, needs, declared):
            return AnswerCallback(ctx.t("button_expired"), alert=True)
        try:  # an answer no hand can hold (a 坎 count a seven-pairs hand has not, a fifth copy as 马) is not kept
            batch, answers, _needs = _win_inputs(ctx, step.table, step.state, before)
            refuse_impossible(ctx, before, complete(batch, answers))
        except Refusal as refusal:
            return AnswerCallback(ctx.t(refusal.key, **refusal.params), alert=True)
    elif not _apply(step.table, kind, step.state, step.action):  # data none of the flow's buttons carries
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    if "who" in step.state and HOLDS_HAND not in step.state:  # a record half told: 结算 and the 日切 hour wait for it
        try:
            _refuse_holding(ctx, step.table, kind, step.key)
        except Refusal as refusal:
            return AnswerCallback(ctx.t(refusal.key, **refusal.params), alert=True)
        hold_hand(step.table, step.state)
    ctx.service.save_flow(ctx.chat_id, step.key, step.user_id, kind, step.state)
    text, buttons = render(ctx, step.table, kind, step.key, step.state)
    return SendText(text, buttons=buttons, edit_message_id=step.edit)


def _refuse_holding(ctx: Context, table: TableInfo, kind: str, key: int) -> None:
    """A 胡/杠 told by taps takes hold of the hand once its player is chosen; refused then, as its 「确认」 would be,
    while another record of the hand waits (a typed win's 漂/马, another 胡 by taps: `before_booking`), rather than
    after every tap."""
    refuse_before_booking(ctx, table, [{"type": kind}], flow_source(ctx, key))


def _apply(table: TableInfo, kind: str, state: dict[str, Any], action: str) -> bool:
    """Move the flow one step with the pressed button; False (the flow left as it is) for an action none of its
    buttons carries (`w.0x1`)."""
    players = table.players
    code, _, arg = action.partition(".")
    seat = button_index(arg, len(players))
    offered = _situations(table, state.get("method", "")) if code == "s" else ()
    if code == "w" and seat is not None:
        state["who"] = players[seat]
        state["step"] = "method" if kind == "hu" else "kind"
    elif code == "m" and arg in METHOD_CODES:
        state["method"] = METHOD_CODES[arg]
        state["situations"] = []
        state["step"] = "patterns" if state["method"] == "self_draw" else "from"
    elif code == "k" and arg in KONG_CODES:
        state["kind"] = KONG_CODES[arg]
        state["step"] = "from" if state["kind"] == "zhigang" else "preview"
    elif code == "f" and seat is not None and players[seat] != state.get("who"):
        state["from"] = players[seat]
        state["step"] = "patterns" if kind == "hu" else "preview"
    elif code == "p" and (pattern := button_index(arg, len(FLOW_PATTERNS))) is not None:
        tap_pattern(state["patterns"], FLOW_PATTERNS[pattern])
        _forget_counts(state)
    elif code == "s" and (situation := button_index(arg, len(offered))) is not None:
        toggle(state["situations"], offered[situation])
        _forget_counts(state)
    elif action == "c":
        state["chained"] = not state.get("chained", False)
    elif action == "v":
        state["step"] = "preview"
    elif action == "b":
        state["step"] = "patterns" if kind == "hu" else "who"
    else:
        return False
    return True


def _forget_counts(state: dict[str, Any]) -> None:
    """Counts answered for the hand as it was (坎, 恰, 八) are asked again once its patterns change: a 坎 3 told
    for a 清一色 is no 七对's."""
    if state.get("answers"):
        state["answers"] = [given for given in state["answers"] if given["input"] not in COUNT_BUTTONS]


def _situations(table: TableInfo, method: str) -> tuple[str, ...]:
    offered = FLOW_SITUATIONS.get(method, ())
    return (*offered, "haidipao") if method == "discard" and rules_of(table).haidipao else offered


def _event(state: dict[str, Any], kind: str) -> Event:
    """The win or kong the flow's answers describe."""
    if kind == "hu":
        hand = WinHand(patterns=tuple(state["patterns"]), situations=tuple(state["situations"]))
        discarder = None if state["method"] == "self_draw" else state["from"]
        return Win(state["who"], WIN_METHODS[state["method"]], hand, discarder)
    return kong_of(KongSpec(state["who"], state["kind"], state.get("from"), None, bool(state.get("chained"))))


def _win_inputs(
    ctx: Context, table: TableInfo, state: dict[str, Any], before: list[Payload]
) -> tuple[list[Payload], list[Answer], list[Need]]:
    """The win the flow describes as the batch it would book, the answers to what the group's rules ask (首局定漂's
    漂 carried from the table's first hand, then those tapped), and what is still missing."""
    batch = [payload(_event(state, "hu"), before)]
    if not asks_anything(rules_of(table)):
        return batch, [], []
    answers = [*carried_piao(ctx, table, before, batch), *determined_counts(table, batch), *state.get("answers", [])]
    needs = pending(table, before, batch, answers)
    horse = next((need for need in needs if need["input"] == "ma"), None)
    if horse is not None and state.get(EARLY_MA):  # `买马 5s` typed before the question: its answer
        answers.append({**horse, "value": state[EARLY_MA]})
        needs = pending(table, before, batch, answers)
    return batch, answers, needs


def _confirm(ctx: Context, kind: str, step: FlowStep) -> Effect | list[Effect]:
    """Book what the flow previews (`REPEAT`: past the double-entry check, which held it back)."""
    table, key, state, edit, repeat = step.table, step.key, step.state, step.edit, step.action == REPEAT
    if state.get("step") != "preview":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    events: list[Event | Payload] = [_event(state, kind)]
    if kind == "hu":
        before = list(ctx.service.hand_state(table.id).events)
        batch, answers, needs = _win_inputs(ctx, table, state, before)
        if needs:
            return AnswerCallback(ctx.t("button_expired"), alert=True)
        completed = complete(batch, answers)
        refuse_impossible(ctx, before, completed)
        events = list(completed)
    try:
        result, _ = book(
            replace(ctx, repeat=repeat), table, events, source=flow_source(ctx, key), told_at=told_at(state)
        )
    except DuplicateRecord as dup:  # someone typed it meanwhile: say who, and ask whoever started the flow
        return hold_flow(ctx, kind, kind, step, dup, table.game)
    except LedgerError as err:
        if err.code == "chain_without_kong":
            raise Refusal("chain_without_kong") from err
        raise
    ctx.service.finish_flow(ctx.chat_id, key)
    if result.finished:
        reply = hand_reply(ctx, table, result)
    else:
        reply = event_reply(
            ctx, table, result, joined(ctx.lang, (describe_event(ctx.lang, e) for e in result.recorded), "；")
        )
    return [AnswerCallback(ctx.t("flow_recorded")), SendText(reply.text, edit_message_id=edit)]


def _typed_held(kind: str) -> Callable[[Context, Flow, int], Effect | list[Effect]]:
    """A flow's confirmation held back as a double entry, booked by its starter's typed `确实又一次` (`是新的一局`)
    as its button (`REPEAT`) books it."""

    def book_it(ctx: Context, flow: Flow, message: int) -> Effect | list[Effect]:
        step = FlowStep(flow.message_id, REPEAT, current_table(ctx), dict(flow.state), flow.user_id, message)
        return _confirm(ctx, kind, step)

    return book_it


book_held_by_typing("hu", _typed_held("hu"))
book_held_by_typing("gang", _typed_held("gang"))


# ------------------------------------------------------------------------------------ answers typed, not pressed

#: the flows whose questions a typed answer presses
TYPED_KINDS = ("hu", "gang")
#: a typed answer is short: a longer line is something else (a record, chat)
TYPED_MOST = 40
#: the marks on a button's label that nobody types (`✅ 确认`, `◀ 返回`, `预览 ▶`, `✓七对`)
_MARKS = str.maketrans("", "", "✅◀▶✓")
#: what a line ends with that says nothing (`自摸！`, `b。`)
_TRAILING = " \t!！。.~～"


@registry.message_filter("typed_flow_answer")
def typed_flow_answer(ctx: Context) -> Outcome | None:
    """The question a 胡/杠 flow asks now, answered by its starter's typed line as by their press of the button it
    names: a seat (`小李`, `@xiaoli`, `我`), a way (`自摸`, `点炮`; `点 @小李` also names the discarder), a kong's
    kind (`直杠`, `直杠 点 @小李`), the patterns (`清一色 七对`: tapped, then the preview), 漂/坎/马 (`2`, `坎 2`,
    `7s`), `确认`/`返回`/`杠上杠`; English words (the buttons' English labels, `zimo`, `one suit`, `confirm`) only in
    a group that reads English. Only when the sender's latest question waiting is that flow and the whole line
    reads as one answer to it: anything else goes on as a record, a command or chat. The flow moves below the
    line (its old message loses its buttons), as a player who types reads the chat's end."""
    incoming = ctx.incoming
    if not ctx.waiting or incoming is None or incoming.edited or ctx.table is None:
        return None
    text = incoming.text.strip().rstrip(_TRAILING)
    if not text or len(text) > TYPED_MOST or text.startswith("/"):
        return None
    if ctx.group.language != "en" and written_in_english(text, ctx.seat_names):
        return None  # `yes`, `zimo` in a Chinese group: chat, as its other English answer words are
    waiting = questions_waiting(ctx, tuple(CANCELLED))
    if not waiting or waiting[0].kind not in TYPED_KINDS or held_as_repeat(waiting[0]):
        return None
    flow, table = waiting[0], ctx.table
    if flow.state.get("table_id") != table.id:
        return None
    if flow.state.get("typed") == ctx.source:
        return Outcome(stop=True)  # the same line delivered again: answered once
    actions = typed_actions(ctx, table, flow.kind, flow.message_id, dict(flow.state), text)
    if not actions and fold(text).translate(_MARKS).strip().lower() in CONFIRM_WORDS:
        return Outcome([_not_yet(ctx, table, flow)], stop=True)
    if not actions:
        return None
    message = int(flow.state.get("message") or 0)
    moved = SendText(ctx.t("flow_moved"), edit_message_id=message) if message else None
    shown: list[Effect] = []
    for action in actions:
        effects = effects_of(press_as(ctx, f"{flow.kind}:{flow.message_id}:{action}", message))
        refused = next((e.text for e in effects if isinstance(e, AnswerCallback) and e.alert), None)
        if refused is not None:
            said = SendText(refused, reply_to=ctx.message_id)
            return Outcome([*_below(ctx, flow.kind, flow.message_id, shown, message, moved), said], stop=True)
        shown = effects
    answered = ctx.service.load_flow(ctx.chat_id, flow.message_id)
    if answered is not None and answered.finished_at is None:
        state = {**answered.state, "typed": ctx.source}
        ctx.service.save_flow(ctx.chat_id, answered.message_id, answered.user_id, answered.kind, state)
    return Outcome(_below(ctx, flow.kind, flow.message_id, shown, message, moved), stop=True)


def _not_yet(ctx: Context, table: TableInfo, flow: Flow) -> SendText:
    """`确认` typed while the flow still asks something (a 漂, the patterns): what it asks, nothing booked."""
    text, _rows = render(ctx, table, flow.kind, flow.message_id, dict(flow.state))
    return SendText(ctx.t("flow_confirm_not_yet", question=text.splitlines()[-1]), reply_to=ctx.message_id)


def refresh(ctx: Context, table: TableInfo, flow: Flow) -> list[Effect]:
    """The flow's message shown again as it reads now (a 漂 booked by typing meanwhile answers its question, a
    horse told early its 马 question): its next question, not a stale one whose buttons would only expire."""
    fresh = ctx.service.load_flow(ctx.chat_id, flow.message_id)
    message = (fresh.state.get("message") if fresh is not None else None) or 0
    if fresh is None or fresh.finished_at is not None or not message:
        return []
    text, buttons = render(ctx, table, fresh.kind, fresh.message_id, dict(fresh.state))
    return [SendText(text, buttons=buttons, edit_message_id=int(message))]


def take_early_ma(ctx: Context, table: TableInfo, tile: str) -> list[Effect] | None:
    """`买马 5s` typed while a 胡 told by taps has not reached its 马 question, by whoever started it or the
    winner it names: kept as that question's answer (it is not asked then), the flow shown again. None when no
    such flow of the open hand waits."""
    seat = my_seat(ctx, table)
    flows = [
        flow
        for flow in ctx.service.open_flows(ctx.chat_id, kinds=("hu",))
        if flow.state.get("table_id") == table.id
        and flow.state.get("hand") == table.hand_number
        and (flow.user_id == ctx.sender.user_id or (seat is not None and flow.state.get("who") == seat))
    ]
    if not flows:
        return None
    flow = flows[-1]
    state = dict(flow.state)
    if state.get("method", "self_draw") != "self_draw":
        raise Refusal("ma_self_draw_only")
    if len(tile) != 2 or tile[1] not in (*rules_of(table).suits, "z"):
        raise Refusal("ma_not_at_this_table", word=tile_name(ctx.lang, tile).strip())
    state[EARLY_MA] = tile
    ctx.service.save_flow(ctx.chat_id, flow.message_id, flow.user_id, flow.kind, state)
    noted = ctx.reply("flow_ma_noted", tile=tile_name(ctx.lang, tile).strip())
    return [*refresh(ctx, table, flow), noted]


def _below(
    ctx: Context, kind: str, key: int, effects: list[Effect], message: int, moved: SendText | None
) -> list[Effect]:
    """What the presses did to the flow's message (`message`), sent below the typed line instead, the old message
    left without its buttons (`moved`); a press's short notice is for a press alone."""
    out: list[Effect] = []
    for effect in effects:
        if isinstance(effect, AnswerCallback):
            continue
        if isinstance(effect, SendText) and effect.edit_message_id == message:
            out += [moved] if moved is not None else []
            posted = f"{kind}:{key}" if effect.buttons else ""
            out.append(replace(effect, edit_message_id=None, reply_to=ctx.message_id, posted_as=posted))
        else:
            out.append(effect)
    return out


def typed_actions(ctx: Context, table: TableInfo, kind: str, key: int, state: dict[str, Any], text: str) -> list[str]:
    """The presses a typed answer to the flow's current question stands for (the buttons' actions, in order), or
    none when the line is no clear answer to it."""
    english = ctx.group.language == "en"
    typed = fold(text).translate(_MARKS).strip()
    _text, rows = render(ctx, table, kind, key, state)
    offered = [(fold(b.label).translate(_MARKS).strip(), b.data.split(":", 2)[2]) for row in rows for b in row]
    actions = [action for _label, action in offered if action != "x"]
    step = state["step"]
    if step != "patterns":  # a pattern's label is tapped by its name below, never toggled off by typing it
        named = [action for label, action in offered if label == typed and action != "x"]
        if named:
            return named[:1]
    for action, said in FLOW_TYPED_WORDS.items():
        if action in actions and typed in (w for w in said if english or not w.isascii()):
            return [action]
    if any(action.startswith("q.") for action in actions):
        return _typed_input(ctx, table, state, typed, actions)
    resolve = seat_resolver(ctx, table)
    for label, action in offered:  # `Exposed from @b`, `点炮 @b`: the button's label, then the discarder
        if action[:2] in {"m.", "k."} and typed.startswith(f"{label} "):
            pressed = _then_from(table, state, action, typed[len(label) :], resolve)
            if pressed:
                return pressed
    try:
        words = read_words(text, resolve)
    except (GrammarError, Refusal):
        return []
    seats = table.players
    people = [seats.index(w.value) for w in words if w.kind == "person" and w.value in seats]
    kinds = [w.kind for w in words]
    if step == "who" and kinds == ["person"]:
        return [f"w.{people[0]}"]
    if step == "from" and kinds == ["person"] and seats[people[0]] != state.get("who"):
        return [f"f.{people[0]}"]
    if step == "method" and kinds[:1] == ["method"] and kinds[1:] in ([], ["person"]):
        way = next((code for code, method in METHOD_CODES.items() if method == words[0].value), None)
        if way is None or (people and (way == "s" or seats[people[0]] == state.get("who"))):
            return []
        return [f"m.{way}", *(f"f.{seat}" for seat in people)]  # `点 @小李`: the way and the discarder
    if step == "kind" and kinds[:1] == ["meld"]:
        value = minggang(ctx) if words[0].value == "minggang" else words[0].value
        code = next((code for code, kong in KONG_CODES.items() if kong == value), None)
        told_from = kinds[1:] == ["person"] or (kinds[1:] == ["method", "person"] and words[1].value == "discard")
        if code is None or (kinds[1:] and not (code == "z" and told_from and seats[people[0]] != state.get("who"))):
            return []
        return [f"k.{code}", *(f"f.{seat}" for seat in people)]  # `直杠 点 @小李`: the kind and the discarder
    if step == "patterns" and words and set(kinds) <= {"pattern", "situation", "pihu"}:
        return _typed_patterns(table, state, words)
    return []


def _then_from(
    table: TableInfo, state: dict[str, Any], action: str, rest: str, resolve: Callable[[str], str | None]
) -> list[str]:
    """A way or kong's kind pressed by its label, then the discarder (`from @b`, `点 @b`, `b`) when it has one."""
    try:
        words = read_words(rest, resolve)
    except (GrammarError, Refusal):
        return []
    kinds = [w.kind for w in words]
    told = kinds == ["person"] or (kinds == ["method", "person"] and words[0].value == "discard")
    seat = words[-1].value if told else None
    if action in {"m.s", "k.a", "k.x"} or seat is None or seat == state.get("who"):
        return []
    return [action, f"f.{table.players.index(seat)}"]


def _typed_patterns(table: TableInfo, state: dict[str, Any], words: list[Word]) -> list[str]:
    """The taps that make the chosen patterns and situations exactly those told (a 四归一 told twice counts two),
    then the preview: a list of patterns is the whole answer to 「有哪些番？」 (屁胡 alone: none)."""
    told = [w.value for w in words if w.kind == "pattern"]
    offered = _situations(table, state["method"])
    situations = [w.value for w in words if w.kind == "situation"]
    if any(p not in FLOW_PATTERNS for p in told) or any(s not in offered for s in situations):
        return []
    chosen, taps = list(state["patterns"]), []
    for index, pattern in enumerate(FLOW_PATTERNS):
        for _tap in range(MAX_FOURS + 1):  # a 四归一 counts up at each tap, then off
            if chosen.count(pattern) == told.count(pattern):
                break
            try:
                tap_pattern(chosen, pattern)
            except Refusal:
                return []
            taps.append(f"p.{index}")
        if chosen.count(pattern) != told.count(pattern):
            return []
    taps += [f"s.{i}" for i, s in enumerate(offered) if (s in situations) != (s in state["situations"])]
    return [*taps, "v"]


def _typed_input(ctx: Context, table: TableInfo, state: dict[str, Any], typed: str, actions: list[str]) -> list[str]:
    """A typed answer to the 漂/坎/恰/八/马 the group's rules ask (`2`, `坎 2`, `7s`, `7条`, `买马 7s`): the button
    with that value, the question's own word before it or not."""
    before = list(ctx.service.hand_state(table.id).events)
    try:
        _batch, _answers, needs = _win_inputs(ctx, table, state, before)
    except ScoringError:
        return []
    if not needs:
        return []
    leads = sorted(FLOW_INPUT_WORDS.get(needs[0]["input"], ()), key=len, reverse=True)
    english = ctx.group.language == "en"
    lead = next((w for w in leads if typed.startswith(w) and (english or not w.isascii())), "")
    value = typed[len(lead) :].strip()
    if lead and needs[0]["input"] == "piao":  # `漂 1` is the sender's own 漂 (`漂 @阿杰 1`: 阿杰's), as the 漂 line
        try:
            told = parse_piao(value, my_seat(ctx, table), seat_resolver(ctx, table))
        except GrammarError:
            return []
        if [player for player, _amount in told] != [needs[0]["player"]]:
            return []  # someone else's 漂 than the one asked: the 漂 line books it, and the flow counts it
        value = str(told[0][1])
    if value and not value.isascii():  # `7条`, `中`: the tile it names
        tiles = [w.value for w in read_words(value) if w.kind == "tiles"]
        value = tiles[0] if len(tiles) == 1 else value
    return [a for a in actions if a.startswith("q.") and a.split(".", 2)[2] == value][:1]


# ---------------------------------------------------------------------------------------------------- rendering


def render(ctx: Context, table: TableInfo, kind: str, key: int, state: dict[str, Any]) -> tuple[str, Buttons]:
    """The flow message for its current step: what is chosen so far, the question, the buttons."""

    def button(label: str, action: str) -> Button:
        return Button(label, f"{kind}:{key}:{action}")

    cancel = button(ctx.t("btn_cancel"), "x")
    players = table.players
    step = state["step"]
    lines = [ctx.t("flow_title_hu" if kind == "hu" else "flow_title_gang", number=table.hand_number)]
    lines += _chosen(ctx, table, kind, state)
    rows: list[tuple[Button, ...]] = []
    if step == "who":
        lines.append(ctx.t("flow_ask_winner" if kind == "hu" else "flow_ask_player"))
        rows.append(tuple(button(name, f"w.{i}") for i, name in enumerate(players)))
    elif step == "method":
        lines.append(ctx.t("flow_ask_method"))
        rows.append(tuple(button(ctx.t(f"btn_method_{code}"), f"m.{code}") for code in METHOD_CODES))
    elif step == "kind":
        lines.append(ctx.t("flow_ask_kind"))
        rows.append(tuple(button(ctx.t(f"btn_kong_{code}"), f"k.{code}") for code in KONG_CODES))
    elif step == "from":
        lines.append(ctx.t("flow_ask_robbed" if state.get("method") == "rob_kong" else "flow_ask_from"))
        rows.append(tuple(button(name, f"f.{i}") for i, name in enumerate(players) if name != state["who"]))
    elif step == "patterns":
        lines.append(ctx.t("flow_ask_patterns"))
        marked = [
            button(pattern_label(pattern_name(ctx.lang, p), state["patterns"].count(p)), f"p.{i}")
            for i, p in enumerate(FLOW_PATTERNS)
        ]
        rows += [tuple(marked[i : i + 3]) for i in range(0, len(marked), 3)]
        offered = _situations(table, state["method"])
        if offered:
            rows.append(
                tuple(
                    button(mark(pattern_name(ctx.lang, s), s in state["situations"]), f"s.{i}")
                    for i, s in enumerate(offered)
                )
            )
        rows.append((button(ctx.t("btn_preview"), "v"),))
    else:
        asked = _asked(ctx, table, kind, state, button)
        if asked is not None:  # the group's rules want more before the preview: 漂, 坎, 马 …
            lines += asked[0]
            rows += [*asked[1], (button(ctx.t("btn_back"), "b"),), (cancel,)]
            return "\n".join(lines), tuple(rows)
        preview, ok = _preview(ctx, table, kind, state)
        lines += preview
        controls = [button(ctx.t("btn_confirm"), "ok")] if ok else []
        if kind == "gang":
            events = ctx.service.hand_state(table.id).events
            if events and events[-1].get("type") == "gang":
                controls.append(button(mark(ctx.t("btn_chain"), bool(state.get("chained"))), "c"))
        controls.append(button(ctx.t("btn_back"), "b"))
        rows.append(tuple(controls))
    rows.append((cancel,))
    return "\n".join(lines), tuple(rows)


def _asked(
    ctx: Context, table: TableInfo, kind: str, state: dict[str, Any], button: Any
) -> tuple[list[str], list[tuple[Button, ...]]] | None:
    """The question for the first input the win still lacks under the group's rules, or None (a refusal the
    scoring core gives for the win shows in the preview)."""
    if kind != "hu":
        return None
    try:
        batch, _answers, needs = _win_inputs(ctx, table, state, list(ctx.service.hand_state(table.id).events))
    except ScoringError:
        return None
    return question(ctx, table, needs[0], state, button, batch=batch) if needs else None


def _chosen(ctx: Context, table: TableInfo, kind: str, state: dict[str, Any]) -> list[str]:
    parts = []
    if "who" in state:
        parts.append(ctx.t("flow_who", name=state["who"]))
    if kind == "hu" and "method" in state:
        parts.append(ctx.t(f"btn_method_{next(c for c, m in METHOD_CODES.items() if m == state['method'])}"))
    if kind == "gang" and "kind" in state:
        parts.append(ctx.t(f"btn_kong_{next(c for c, k in KONG_CODES.items() if k == state['kind'])}"))
    if state.get("from"):
        parts.append(ctx.t("flow_from", name=state["from"]))
    if kind == "hu" and state.get("step") in {"patterns", "preview"}:
        keys = [*state["patterns"], *state["situations"]]
        parts.append(describe_patterns(ctx.lang, [{"key": k, "multiplier": _multiplier(table, k)} for k in keys]))
    return [(" | " if ctx.lang == "en" else " ｜ ").join(parts)] if parts else []


def _multiplier(table: TableInfo, key: str) -> int:
    """A pattern's multiple under the table's rules (卡五星 ×4 where the group plays it), from the scoring core."""
    from ledger.scoring.kawuxing.evaluate import pattern_value
    from ledger.scoring.kawuxing.patterns import PATTERNS_BY_KEY

    return pattern_value(rules_of(table), key) if key in PATTERNS_BY_KEY else 1


def _preview(ctx: Context, table: TableInfo, kind: str, state: dict[str, Any]) -> tuple[list[str], bool]:
    """What confirming would book, scored now on the hand so far (nothing is written)."""
    from ledger.hands import build_request, refuse_unbookable
    from ledger.scoring import answer as scored

    hand = ctx.service.hand_state(table.id)
    try:
        batch = [payload(_event(state, kind), hand.events)]
        if kind == "hu":
            batch, answers, _needs = _win_inputs(ctx, table, state, list(hand.events))
            batch = complete(batch, answers)
            refuse_impossible(ctx, hand.events, batch)
    except Refusal as refusal:
        return [ctx.t(refusal.key, **refusal.params)], False
    except LedgerError as err:  # 杠上杠 with no kong just before it
        return [ctx.t(err.code) if err.code == "chain_without_kong" else err.message], False
    except ScoringError as err:
        return [scoring_refusal(ctx.lang, err)], False
    events = [*hand.events, *batch]
    request = build_request(table.game, table.rules, table.base, table.players, hand.dealer, events)
    try:
        refuse_unbookable(table.game, events, range(len(hand.events), len(events)))  # as booking it would
        answer = scored(request, partial=kind != "hu")
    except ScoringError as err:
        return [scoring_refusal(ctx.lang, err)], False
    lines = [ctx.t("flow_preview")]
    if kind == "hu":
        from bot.texts import describe_win

        lines += describe_win(ctx.lang, events, answer, ctx.group.currency)
        lines += stake_lines(ctx, answer)
    currency = ctx.group.currency
    new = [t for t in answer["transfers"] if t.get("event", len(events) - 1) >= len(hand.events)]
    for transfer in new:
        lines.append(
            ctx.t(
                "flow_payment", payer=transfer["from"], payee=transfer["to"], amount=money(transfer["amount"], currency)
            )
        )
    refunds = _refunds(table, hand.dealer, events, len(hand.events), answer) if kind == "hu" else []
    for transfer in refunds:  # a robbed kong's money goes back: paid back by whom it was paid to
        amount = money(transfer["amount"], currency)
        lines.append(ctx.t("flow_refund", payer=transfer["to"], payee=transfer["from"], amount=amount))
    if not new and not refunds:
        lines.append(ctx.t("flow_no_payment"))
    return lines, True


def _refunds(
    table: TableInfo, dealer: str | None, events: list[Payload], recorded: int, answer: Payload
) -> list[Payload]:
    """The transfers booked for the hand so far (its first `recorded` events) that a 抢杠胡 among the rest takes
    back (the robbed 蓄杠 pays nothing): the kong money as scored before the win, less what the win's settlement
    keeps of it."""
    from ledger.hands import build_request
    from ledger.scoring import score

    if not any(e.get("type") == "hu" and e.get("method") == "rob_kong" for e in events[recorded:]):
        return []
    before = events[:recorded]
    booked = score(build_request(table.game, table.rules, table.base, table.players, dealer, before), partial=True)
    kept = [t for t in answer["transfers"] if t["event"] < recorded]
    gone = []
    for transfer in booked.get("transfers", ()):
        if transfer in kept:
            kept.remove(transfer)
        else:
            gone.append(transfer)
    return gone
