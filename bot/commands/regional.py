"""What a group's regional rules make players tell at the table: 漂 (`漂 2`, `漂 @乙 1`), and the question a record
gets when it lacks an input its rules need — 漂 not told, a win by patterns without its 坎 (数坎) or 恰/八
(跑恰摸八), a 买马 self-draw without its horse tile, a 荒庄 without the ready hands (查大叫).

Such a record is never booked half-known and never refused: the bot keeps it in the ledger's flow table (kind
`ask`, keyed by the message, so a restart loses nothing) with the answers given so far, and asks one question at
a time, with buttons; the answer can also be typed (`坎 2`, `恰1 八0`, `买马 7s`, `漂 @乙 1`, `听 @乙 123p…`). The
last answer books the record once, with the source of the message that recorded it: a second tap, two people
answering, or a redelivered answer books nothing more, and an edit of that message later replaces what it booked.
A question belongs to its hand: once that hand is recorded another way, answering it books nothing. Only seated
players and admins answer, a 漂 only its player or an admin (`permissions.may_tell_piao`: typed, pressed or
corrected); whoever recorded it may drop it by typing 算了 (`bot.commands.questions`), as its
「取消」 does. What is missing is the scoring core's to say (`missing_inputs`); `_inputs` renders the
questions and applies the answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.commands._common import (
    EDIT_REASON,
    FlowStep,
    before_booking,
    cancellers,
    current_table,
    flow_data,
    flow_key,
    flow_source,
    flow_step,
    follow_rollover,
    hand_gone,
    hold_hand,
    my_seat,
    seat_resolver,
    told_at,
)
from bot.commands._inputs import (
    Need,
    answer,
    asks_anything,
    carried_piao,
    check_scorable,
    complete,
    correct,
    determined_counts,
    kept_answers,
    pending,
    press,
    pressing_refused,
    question,
    refuse_impossible,
    table_piao,
    table_rules,
    unused_piao,
)
from bot.commands._recording import event_reply, hand_reply, kawuxing_table, ready_of
from bot.commands.chat_options import minggang
from bot.commands.correct import WouldAsk, replacing
from bot.commands.questions import cancel_by_typing, nothing_booked
from bot.commands.suggest import ASK_KIND
from bot.core import (
    AnswerCallback,
    Button,
    Context,
    Effect,
    HandlerResult,
    Quiet,
    Refusal,
    SendText,
    original_source,
    registry,
)
from bot.grammar import (
    GrammarError,
    is_tile_attempt,
    not_whole,
    parse_counts,
    parse_ma,
    parse_piao,
    parse_ready,
    tokens,
)
from bot.grammar import read as read_words
from bot.permissions import plays_at, require_own_piao
from bot.texts import describe_event, joined
from bot.vocabulary import ALONE_ANSWER_COMMANDS, COMMAND_WORDS, NO_PIAO_WORDS, NOBODY_READY_SAID, NUMERAL_DIGITS
from ledger.events import Draw, Event, Payload, Piao, Win, payloads
from ledger.records import HOLDS_HAND, TAPPED_KINDS
from ledger.scoring import ScoringError
from ledger.scoring.kawuxing import Rules
from ledger.scoring.kawuxing.rules import PIAO_CHOSEN
from ledger.service import Flow, HandResult, LedgerError, MessageHand, TableInfo

KIND = ASK_KIND
PREFIX = "ask"
KAWUXING = ("kawuxing",)
#: a question's hand when it was asked: the one being played, for an edit of a finished hand's message a later
#: one than the hand the record goes into (`"number"`)
ASKED_IN = "asked_in"
#: the counts a typed answer may correct once given (`恰 0` after 恰 2 was tapped)
COUNTS = ("kan", "qia", "ba")


# ----------------------------------------------------------------------------------------- before booking


def prepare(ctx: Context, table: TableInfo, events: list[Event]) -> list[Event] | SendText:
    """The events a record books — with 首局定漂's 漂 carried from the table's first hand — or, when its rules
    still need an input the record lacks, the question (the record is kept until it is answered)."""
    rules = table_rules(table)
    events = [*(Piao(player, amount) for player, amount in ctx.piao_told), *events]  # `改成 漂 @丙 2`
    refuse_unbookable(ctx, table, events)
    if not asks_anything(rules) or not any(isinstance(e, Win | Draw) for e in events):
        return events
    if (
        rules.piao not in PIAO_CHOSEN
        and rules.maima != "liangdao_self_draw"
        and not pending(table, [], payloads(events), [])
    ):
        return events  # what is missing does not depend on the hand so far here: nothing, without reading it
    replaced = _replaced_hand(ctx, table)
    before = list(replaced.before if replaced is not None else ctx.service.hand_state(table.id).events)
    batch = payloads(events, before)
    carried = [
        *carried_piao(ctx, table, before, batch),
        *unused_piao(table, before, batch),
        *determined_counts(table, batch),
    ]
    needs = pending(table, before, batch, carried)
    if needs and replaced is not None:
        carried += kept_answers(_told_in(table, replaced), batch, needs)
        needs = pending(table, before, batch, carried)
    if not needs:
        return _answered(events, carried)
    edits = replaced.number if replaced is not None and replaced.finished else None
    if edits is not None:
        _refuse_asking_beside(ctx, table, edits)
    refuse_while_a_record_waits(ctx, table, events, ctx.source)
    check_scorable(table, before, batch, carried, needs)
    if replacing(ctx):  # a correction's trial: it asks once confirmed, what is said with its question
        raise WouldAsk(_answered(events, carried), list(dict.fromkeys(f"input_{need['input']}" for need in needs)))
    key = flow_key(ctx)
    asked = ctx.service.load_flow(ctx.chat_id, key)
    if asked is not None and asked.kind == KIND and asked.finished_at and asked.state.get("source") == ctx.source:
        return events  # this very message was asked about already (a redelivery): the ledger replays its booking
    incoming = ctx.incoming
    if not ctx.repeat and not (incoming is not None and incoming.edited):
        # a double entry is held back before it is asked about: answered later, past the window, it would book
        ctx.service.refuse_repeat(table.id, events, by=ctx.sender.user_id, recap=ctx.recap)
    edited = bool(incoming is not None and incoming.edited)
    state: dict[str, Any] = {
        "table_id": table.id,
        # the hand the record goes into: an edited message's own (perhaps finished), else the open one
        "number": replaced.number if edited and replaced is not None else table.hand_number,
        ASKED_IN: table.hand_number,  # the hand being played when it was asked (`_pending_ask`, `_expired`)
        "batch": batch,
        "answers": carried,
        "source": ctx.source,
        "original": incoming.original_source if incoming is not None else ctx.source,
        "edited": edited,
        "corrected": bool(incoming is not None and incoming.corrected),  # a 改成's: its reply says 「已改正」
        "by": ctx.sender.user_id,
    }
    if edits is not None:  # an edit of a hand played before: its question names that hand
        state["edits"] = edits
    hold_hand(table, state)  # 结算, 开桌 and the 日切 hour wait for it
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    text, buttons = _render(ctx, table, key, state, needs, before)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


# the question's message is kept with it (`posted_as`), for its asker's typed 算了 to rewrite as its 「取消」 does
cancel_by_typing(KIND, PREFIX, nothing_booked, "flow_cancelled_typed")


def _replaced_hand(ctx: Context, table: TableInfo) -> MessageHand | None:
    """The hand whose record the line replaces — an edited message's, the latest record a 改成 is tried against
    (`correct.replacing`) or a held-back win joins as its 一炮双响 — read before that record and with what it was
    told; None for a new record (no read: the hot path)."""
    incoming = ctx.incoming
    if incoming is not None and incoming.edited:
        return _message_hand(ctx, incoming.original_source)
    if replacing(ctx) or ctx.double_win:  # 「一炮双响」 re-records the hand just ended
        latest = ctx.service.latest_record(table.id)
        return _message_hand(ctx, original_source(latest.source)) if latest is not None else None
    return None


def _told_in(table: TableInfo, replaced: MessageHand) -> list[Payload]:
    """The replaced hand's events as its players told them: without the 漂 0 its record got at a draw that moves
    no 漂 (`unused_piao`: nobody was asked), so a win told in its place asks each 漂."""
    first = len(replaced.before)
    own = replaced.events[first : first + len(replaced.event_ids)]
    told = [event for event in own if event.get("type") != "piao"]
    if not unused_piao(table, replaced.before, told):
        return list(replaced.events)
    return [*replaced.before, *told, *replaced.events[first + len(own) :]]


def _message_hand(ctx: Context, source: str) -> MessageHand | None:
    """The hand the message `source` recorded in; None when it recorded nothing, or what it recorded was taken back
    or its night settled (the booking says so)."""
    try:
        return ctx.service.message_hand(source)
    except LedgerError:
        return None


def _hand_before(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> list[Payload]:
    """What a waiting record's hand holds before it: for an edited message, the events of its own hand before what
    it recorded (that hand perhaps finished, the table at a later one: the edit replaces the record in place);
    else the open hand's events."""
    replaced = _message_hand(ctx, str(state["original"])) if state.get("edited") else None
    return list(replaced.before if replaced is not None else ctx.service.hand_state(table.id).events)


def _answered(events: Sequence[Event], answers: Sequence[Mapping[str, Any]]) -> list[Event]:
    """The events with the answers the bot gave itself: 漂 (carried, or 0 where no payment carries it) as `Piao`
    events before them, counts (a 七对's 0 坎) into their win."""
    out = list(events)
    for given in answers:
        if given["input"] != "piao":
            out[given["event"]] = replace(out[given["event"]], **{given["input"]: given["value"]})
    return [*(Piao(a["player"], a["value"]) for a in answers if a["input"] == "piao"), *out]


def refuse_unbookable(ctx: Context, table: TableInfo, events: Sequence[Event]) -> None:
    """Refuse, before anything is asked or booked, a record no answer could make bookable under the table's rules:
    an input they do not use, a 马 tile already visible four times, a count the hand cannot hold. The kongs a 马
    tile is checked against are the hand's the record goes into: an edited or corrected record's own hand (`改 第1局
    … 买马 7s`), never the open hand's."""
    rules = table_rules(table)
    _refuse_inputs_not_played(ctx, rules, events)
    wins = [e for e in events if isinstance(e, Win)]
    if wins and (rules.maima != "none" or rules.shukan or rules.paoqiamoba):
        before: list[Any] = []
        if any(w.ma for w in wins):
            replaced = _replaced_hand(ctx, table)
            before = list(replaced.before if replaced is not None else ctx.service.hand_state(table.id).events)
        refuse_impossible(ctx, before, payloads(wins, before))


def _refuse_inputs_not_played(ctx: Context, rules: Rules, events: Sequence[Event]) -> None:
    """An input the table's rules do not ask for, or a count of a hand given by its tiles (the bot counts those),
    is refused by name (the core would, in its request's field names)."""
    for event in events:
        if isinstance(event, Win):
            played = {"kan": rules.shukan, "qia": rules.paoqiamoba, "ba": rules.paoqiamoba, "ma": rules.maima != "none"}
            for key, is_played in played.items():
                if getattr(event, key) is not None and not is_played:
                    raise Refusal("not_asked_here", what=ctx.t(f"input_{key}"))
            if event.ma is not None and event.method != "self_draw":
                raise Refusal("ma_self_draw_only")
            if event.hand.patterns is None:  # a hand given by its tiles has its counts counted
                told = next((key for key in ("kan", "qia", "ba") if getattr(event, key) is not None), None)
                if told is not None:
                    raise Refusal("count_from_tiles", what=ctx.t(f"input_{told}"))
        if isinstance(event, Draw) and event.ready is not None and not rules.chadajiao:
            raise Refusal("not_asked_here", what=ctx.t("input_ready"))


# ----------------------------------------------------------------------------------------------- rendering


def _render(
    ctx: Context,
    table: TableInfo,
    key: int,
    state: Mapping[str, Any],
    needs: Sequence[Need],
    before: Sequence[Mapping[str, Any]],
) -> tuple[str, tuple[tuple[Button, ...], ...]]:
    """The question message: what is being recorded, the next question, its buttons and 取消."""

    def button(label: str, action: str) -> Button:
        return Button(label, f"{PREFIX}:{key}:{action}")

    what = joined(
        ctx.lang, (describe_event(ctx.lang, e) for e in state["batch"] if e.get("type") in {"hu", "draw"}), "；"
    )
    lines = [ctx.t("ask_head", number=state.get("edits", state["number"]), what=what)]
    declared = _declared(before, state["batch"])
    asked, rows = question(ctx, table, needs[0], state, button, declared, state["batch"])
    rows.append((button(ctx.t("btn_cancel"), "x"),))
    return "\n".join([*lines, *asked]), tuple(rows)


# ------------------------------------------------------------------------------------------------ answers


@registry.callback(PREFIX)
def press_answer(ctx: Context) -> HandlerResult:
    """A tap on a question's button: the answer is kept, and the next question asked or the record booked. Its
    「取消」 drops the record unbooked, so only those who may drop it by 撤销 may (`may_drop`): a loser's tap would
    throw the win away."""
    refused = _cancel_not_theirs(ctx)
    if refused is not None:
        return refused
    step = flow_step(ctx, KIND, current_table)
    if not isinstance(step, FlowStep):
        return step
    expired = _expired(ctx, step.table, step.key, step.state)
    if expired is not None:
        return [AnswerCallback(expired, alert=True), SendText(expired, edit_message_id=step.edit)]
    before = _hand_before(ctx, step.table, step.state)
    needs = pending(step.table, before, step.state["batch"], step.state["answers"])
    refused = pressing_refused(ctx, step.table, step.action, needs)  # a 漂 is its player's (or an admin's)
    if refused is not None:
        return refused
    if not press(step.table, step.state, step.action, needs, _declared(before, step.state["batch"])):
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    reply = _go_on(ctx, step.table, step.key, step.state, before, edit=step.edit)
    notice = AnswerCallback(ctx.t("flow_recorded")) if reply.buttons == () else AnswerCallback()
    return [notice, reply]


def _cancel_not_theirs(ctx: Context) -> AnswerCallback | None:
    """An alert for a 「取消」 tap by a seated player who may not drop the record (`may_drop`); None otherwise (the
    tap goes on as every flow's: expired, not seated …)."""
    parsed = flow_data(ctx.callback.data) if ctx.callback is not None else None
    table = ctx.table
    if parsed is None or parsed[1] != "x" or table is None:
        return None
    flow = ctx.service.load_flow(ctx.chat_id, parsed[0])
    if flow is None or flow.finished_at is not None or flow.kind != KIND or flow.state.get("table_id") != table.id:
        return None
    if may_drop(ctx, table, flow.state) or not plays_at(ctx, table):
        return None
    return AnswerCallback(ctx.t("waiting_cancel_not_yours", **_waiting_parts(ctx, table, flow.state)), alert=True)


def _expired(ctx: Context, table: TableInfo, key: int, state: Mapping[str, Any]) -> str | None:
    """A question whose hand was recorded another way meanwhile, or taken back, books nothing: it is finished, and
    says why."""
    why = hand_gone(table, state.get(ASKED_IN, state["number"]))
    if why is None:
        return None
    ctx.service.finish_flow(ctx.chat_id, key)
    return ctx.t("ask_expired" if why == "recorded" else "ask_taken_back", now=table.hand_number)


def _declared(before: Sequence[Mapping[str, Any]], batch: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(e["player"]) for e in [*before, *batch] if e.get("type") == "liangdao"]


def _go_on(
    ctx: Context, table: TableInfo, key: int, state: dict[str, Any], before: list[Any], *, edit: int | None
) -> SendText:
    """After an answer: the next question, or the booking once nothing is missing. An answer the hand cannot
    be booked with (a ready hand that waits on nothing, a fifth copy as the 马 tile …) is refused and not kept."""
    refuse_impossible(ctx, before, complete(state["batch"], state["answers"]))
    needs = pending(table, before, state["batch"], state["answers"])
    if needs:
        check_scorable(table, before, state["batch"], state["answers"], needs)
        ctx.service.save_flow(ctx.chat_id, key, int(state["by"]), KIND, state)
        text, buttons = _render(ctx, table, key, state, needs, before)
        if edit:
            return SendText(text, buttons=buttons, edit_message_id=edit)
        # a typed answer: the next question is a new message, kept with the flow in place of the first
        return SendText(text, buttons=buttons, reply_to=ctx.message_id, posted_as=f"{PREFIX}:{key}")
    result, edited = _book(ctx, table, state)
    ctx.service.finish_flow(ctx.chat_id, key)
    reply = hand_reply(ctx, table, result, edited=edited, corrected=bool(state.get("corrected")))
    return SendText(reply.text, edit_message_id=edit, reply_to=None if edit else ctx.message_id)


def _book(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> tuple[HandResult, bool]:
    """Book the answered record as its message would have been booked: with its source, an edit replacing what
    the message's first version booked (`_common.book`'s rule)."""
    events = complete(state["batch"], state["answers"])
    source, by = str(state["source"]), int(state["by"])
    if state.get("edited"):
        try:
            original = str(state["original"])
            return ctx.service.replace_hand(original, events, source=source, by=by, reason=EDIT_REASON), True
        except LedgerError as err:
            if err.code != "nothing_to_edit":
                raise
    result = ctx.service.record_events(table.id, events, source=source, by=by, told_at=told_at(state))
    follow_rollover(ctx, table, result)
    return result, False


def _pending_ask(ctx: Context, table: TableInfo) -> tuple[int, dict[str, Any]] | None:
    """The newest question of this hand still waiting for an answer: (its key, its state). Questions of earlier
    hands or tables, left unanswered because the hand was recorded another way, are finished on the way."""
    found = None
    for flow in reversed(ctx.service.open_flows(ctx.chat_id)):
        if flow.kind != KIND:
            continue
        state = flow.state
        if state.get("table_id") == table.id and state.get(ASKED_IN, state.get("number")) == table.hand_number:
            found = found or (flow.message_id, dict(state))
        else:
            ctx.service.finish_flow(ctx.chat_id, flow.message_id)
    return found


#: what a typed answer reads: input -> {player (None: the first asked) -> value}
Told = dict[str, dict[str | None, Any]]


def _is_chat(text: str) -> bool:
    """A line that starts with an answer word but goes on with words the bot does not know (`听 我说`, `八 点见`,
    `漂 亮啊`), or with a word that answers a question only alone (`恰 好`), is chat: no reply, like `胡说八道`."""
    words = [w for w in read_words(text) if not w.typed.startswith("@") and not w.typed.isdigit()]
    return bool(words) and (words[0].kind == "unknown" or words[0].value in ALONE_ANSWER_COMMANDS)


def _typed(
    ctx: Context, what: str, read: Callable[[TableInfo], Told], is_chat: Callable[[str], bool] = _is_chat
) -> SendText | list[Effect] | None:
    """A typed answer to the hand's waiting question (`what`: kan, qiaba, ma, ready): refused, saying where the
    input goes instead, when no question waits for it."""
    if is_chat(ctx.args):
        return None
    table = kawuxing_table(ctx)
    if not plays_at(ctx, table):
        raise Refusal("flow_not_seated")
    found = _pending_ask(ctx, table)
    if found is None and what == "ma" and table_rules(table).maima != "none":
        from bot.commands.flows import take_early_ma

        try:
            tile = parse_ma(ctx.args)
        except GrammarError as err:
            raise Refusal(err.key, **err.params) from err
        taken = take_early_ma(ctx, table, tile)  # a 胡 told by taps, its 马 not asked yet
        if taken is not None:
            return taken
    if found is None:
        raise Refusal(f"nothing_asked_{what}")
    flow, state = found
    try:
        told = read(table)
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    before = _hand_before(ctx, table, state)
    needs = pending(table, before, state["batch"], state["answers"])
    ignored = []
    for key, values in told.items():
        if answer(state, needs, key, values):
            continue
        if key not in COUNTS or not correct(state, key, values[None]):
            ignored.append(key)
    if ignored and (len(ignored) < len(told) or any(need["input"] in COUNTS for need in needs)):
        # `恰 0 八 7` while 八 is asked, 恰 told in the record's line: nothing is taken rather than a part
        raise Refusal("count_not_asked", what=ctx.t(f"input_{ignored[0]}"))
    if ignored:
        raise Refusal(f"nothing_asked_{what}")
    return _go_on(ctx, table, flow, state, before, edit=None)


@registry.command(
    "kan",
    names=["kan"],
    aliases=COMMAND_WORDS["kan"],
    help_zh="坎：回答数坎的坎数，例如 坎 2（也可以写在胡牌那一行：胡 清一色 自摸 坎2）",
    help_en="kan (坎): the 坎 count asked for, e.g. kan 2 (or in the win's line: win one suit self-draw kan 2)",
    games=KAWUXING,
    in_menu=False,
)
def answer_kan(ctx: Context) -> SendText | list[Effect] | None:
    return _typed(ctx, "kan", lambda _table: _counts(f"{ctx.word} {ctx.args}"))


@registry.command(
    "qiaba",
    names=["qiaba"],
    aliases=COMMAND_WORDS["qiaba"],
    help_zh="跑恰摸八：回答恰数、八数，例如 恰1 八2（也可以写在胡牌那一行）",
    help_en="qia/ba (跑恰摸八: 恰, 八): the 恰 and 八 counts asked for, e.g. qia 1 ba 2 (or in the win's line)",
    games=KAWUXING,
    in_menu=False,
)
def answer_qiaba(ctx: Context) -> SendText | list[Effect] | None:
    word = "" if ctx.word == "跑恰摸八" else ctx.word
    return _typed(ctx, "qiaba", lambda _table: _counts(f"{word} {ctx.args}"))


def _counts(text: str) -> Told:
    return {key: {None: count} for key, count in parse_counts(text).items()}


@registry.command(
    "ma",
    names=["ma"],
    aliases=COMMAND_WORDS["ma"],
    help_zh="买马：回答翻出的马牌，例如 买马 7s（也可以写在自摸那一行：胡 清一色 自摸 买马 7s）",
    help_en="buy horse (买马): the horse tile asked for, e.g. buy horse 7s (or in the self-draw's line: win one suit "
    "self-draw buy horse 7s)",
    games=KAWUXING,
    in_menu=False,
)
def answer_ma(ctx: Context) -> SendText | list[Effect] | None:
    return _typed(ctx, "ma", lambda _table: {"ma": {None: parse_ma(ctx.args)}}, _is_ma_chat)


def _is_ma_chat(text: str) -> bool:
    """`买马 东`, `买马 8z`: a tile no 卡五星 set holds is an answer to refuse, not chat."""
    return _is_chat(text) and not any(is_tile_attempt(word) for word in tokens(text))


@registry.command(
    "ready",
    names=["ting"],
    aliases=COMMAND_WORDS["ready"],
    help_zh="听：荒庄查大叫时报听牌的手牌：听 @乙 123p456p789s11s55s @丙 清一色，或 听 没人听（也可写在荒庄那行）",
    help_en="ready hand (听): the ready hands asked for at a draw (查大叫), e.g. ready hand @b 123p456p789s11s55s "
    "@c one suit (or with the draw: draw ready hand …)",
    games=KAWUXING,
    in_menu=False,
)
def answer_ready(ctx: Context) -> SendText | list[Effect] | None:
    nobody = ctx.word in NOBODY_READY_SAID  # `没人听`: the question's 没人听牌 button typed
    said = f"{ctx.word} {ctx.args}" if nobody else ctx.args

    def read(table: TableInfo) -> Told:
        from ledger.events import payload

        specs = parse_ready(said, my_seat(ctx, table), seat_resolver(ctx, table), lambda: minggang(ctx))
        if specs is None:
            raise GrammarError("ready_hand_missing", name=my_seat(ctx, table) or "", suggest=False)
        return {"ready": {None: payload(Draw(ready_of(specs)))["ready"]}}

    table = ctx.table
    if nobody and (  # `没人听我说`, or no question waiting for the sender to answer: chat
        ctx.args.strip()
        or table is None
        or table.game != "kawuxing"
        or not plays_at(ctx, table)
        or _pending_ask(ctx, table) is None
    ):
        return None
    return _typed(ctx, "ready", read)


# ----------------------------------------------------------------------------------------------------- 漂

#: a 漂 typed in Chinese numerals, one character (`漂 零`, `漂 两`, `漂 十`), read as its digits
_PIAO_NUMERALS = {**{char: str(digit) for char, digit in NUMERAL_DIGITS.items()}, "十": "10"}


def _piao_number(word: str) -> str:
    """A word of a 漂 line as its digits when it is a number, counted with 个 or not (`两个`, `2个`: 2)."""
    number = word.removesuffix("个") if len(word) > 1 else word
    return _PIAO_NUMERALS.get(number, number if number.isdigit() else word)


def _numeral_glued(after: str) -> bool:
    """`漂一`, `我漂两个`: a 漂 word glued to one Chinese numeral is that 漂 (`漂亮`, `漂一下` stay chat)."""
    word = after.strip()
    return word != _piao_number(word) and not word.isdigit()


@registry.command(
    "piao",
    names=["piao"],
    aliases=COMMAND_WORDS["piao"],
    help_zh="漂：选漂的桌报自己这局漂几，例如 漂 2（管理员可报别人的：漂 @乙 1）；没报的胡牌时我会问",
    help_en="piao (漂, where players choose it): piao 2 (yours; an admin may tell anyone's: piao @b 1); any not "
    "told is asked at the end",
    games=KAWUXING,
    on_edit=True,
    in_menu=False,
    glued=_numeral_glued,
)
def record_piao(ctx: Context) -> SendText | list[Effect] | None:
    """漂 told during the hand (booked as a `piao` event: 撤销 and edits work as on any record), or the answer to
    the hand's waiting question."""
    from bot.commands._common import book

    args = " ".join(_piao_number(word) for word in tokens(ctx.args))  # `漂 零`, `漂 两个`: 漂 0, 漂 2
    if _is_chat(" ".join(word for word in tokens(args) if not not_whole(word))):  # `漂 -3`: refused, as 漂 99
        return None
    said_none = ctx.word in NO_PIAO_WORDS  # `不漂`, `我不漂`: 漂 0 (`不漂 @乙`: 乙's)
    if said_none and (ctx.table is None or ctx.table.game != "kawuxing"):
        raise Quiet  # said at no 卡五星 table: chat
    table = kawuxing_table(ctx)
    rules = table_rules(table)
    if said_none and rules.piao not in PIAO_CHOSEN:
        raise Quiet  # nobody chooses a 漂 here: `不漂` is talk, not an answer
    if rules.piao == "none":
        raise Refusal("piao_none")
    if rules.piao == "fixed":
        raise Refusal("piao_fixed", amount=rules.piao_amount)
    if said_none:
        args = f"{args} 0"
    try:
        told = parse_piao(args, my_seat(ctx, table), seat_resolver(ctx, table))
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    require_own_piao(ctx, table, (player for player, _amount in told))
    found = _pending_ask(ctx, table) if not (ctx.incoming and ctx.incoming.edited) else None
    if found is not None and plays_at(ctx, table):
        flow, state = found
        before = _hand_before(ctx, table, state)
        needs = pending(table, before, state["batch"], state["answers"])
        asked = {need["player"] for need in needs if need["input"] == "piao"}
        if answer(state, needs, "piao", dict(told)) or _answered_piao(state, told):
            for player, amount in told:  # a 漂 not asked now: a correction of the one told, kept with the rest
                if player not in asked:
                    _correct_piao(state, player, amount)
            return _go_on(ctx, table, flow, state, before, edit=None)
    if rules.piao == "first_hand" and table.hand_number > 1:
        earlier = table_piao(ctx, table)
        shown = joined(ctx.lang, (f"{p} {earlier[p]}" for p in table.players if p in earlier))
        raise Refusal("piao_first_hand_set", piao=shown)
    result, edited = book(ctx, table, [Piao(player, amount) for player, amount in told])
    what = joined(ctx.lang, (describe_event(ctx.lang, event) for event in result.recorded), "；")
    reply = event_reply(ctx, table, result, what, edited=edited)
    tapped = holding_flow(ctx, table)
    if tapped is None or tapped.kind != "hu":
        return reply
    from bot.commands.flows import refresh

    return [reply, *refresh(ctx, table, tapped)]  # a 胡 by taps asking that 漂 moves on to its next question


def _answered_piao(state: Mapping[str, Any], told: Sequence[tuple[str, int]]) -> bool:
    """Whether a told 漂 corrects one already answered to the waiting record's question (`漂 0` after tapping 1)."""
    given = {a["player"] for a in state["answers"] if a["input"] == "piao"}
    return any(player in given for player, _amount in told)


def _correct_piao(state: dict[str, Any], player: str, amount: int) -> None:
    """`player`'s 漂 in the waiting record: the answer given replaced, else added (it goes before the record's
    events, so it also replaces a 漂 told earlier in the hand)."""
    answers: list[dict[str, Any]] = state["answers"]
    kept = [a for a in answers if not (a["input"] == "piao" and a["player"] == player)]
    state["answers"] = [*kept, {"input": "piao", "player": player, "value": amount}]


# ------------------------------------------------------------------------------ a win waiting for answers


def waiting_record(ctx: Context, table: TableInfo | None) -> tuple[int, dict[str, Any]] | None:
    """The open hand's record (a win, or a 荒庄 under 查大叫) still waiting for answers (漂, 马 …): (its key, its
    state). Only a 卡五星 table whose rules ask anything can hold one, so no other looks anything up."""
    if table is None or table.game != "kawuxing" or not asks_anything(table_rules(table)):
        return None
    return _pending_ask(ctx, table)


def _waiting_parts(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> dict[str, Any]:
    """What a waiting record's refusals say of it: its hand, what it is (`小李 自摸`), what it waits for (`老王 的漂`)
    and who recorded it."""
    batch = state["batch"]
    what = joined(ctx.lang, (describe_event(ctx.lang, e) for e in batch if e.get("type") in {"hu", "draw"}), "；")
    try:
        needs = pending(table, _hand_before(ctx, table, state), batch, state["answers"])
    except ScoringError:  # the answers no longer score: it still waits, for what is not said
        needs = []
    waits = joined(
        ctx.lang,
        (
            ctx.t("waiting_input_of", name=need["player"], what=ctx.t(f"input_{need['input']}"))
            if need.get("player")
            else ctx.t(f"input_{need['input']}")
            for need in needs
        ),
    )
    droppers = joined(ctx.lang, dict.fromkeys([_name_of(ctx, table, int(state["by"])), *_winners(state)]))
    waits = waits or ctx.t("waiting_input_answers")
    number = state.get("edits", state["number"])
    return {"number": number, "what": what, "waits": waits, "who": ctx.t("waiting_who", names=droppers)}


def waiting_status(ctx: Context, table: TableInfo) -> tuple[dict[str, int], list[str]]:
    """牌桌 while the hand's record waits for its answers: the 漂 answered to it so far (by player; not booked yet)
    and a line naming it and what it still waits for. Nothing when no record waits."""
    found = waiting_record(ctx, table)
    if found is None:
        return {}, []
    state = found[1]
    given = {str(a["player"]): int(a["value"]) for a in state["answers"] if a["input"] == "piao"}
    return given, [ctx.t("table_waiting_record", **_waiting_parts(ctx, table, state))]


def _name_of(ctx: Context, table: TableInfo, user_id: int) -> str:
    """Who told a record: their seat's name, else their name in the group."""
    seated = next((seat.name for seat in table.seats if seat.user_id == user_id), None)
    if seated is not None:
        return seated
    from bot.commands._common import shown_names

    member = next((m for m in ctx.service.members(ctx.chat_id) if m.user_id == user_id), None)
    return shown_names(ctx).get(member.id, member.name) if member is not None else "?"


def refuse_while_waiting(ctx: Context, table: TableInfo | None, action: str) -> None:
    """结算, 开桌 over the table and 退桌 end the table: a record still waiting for its answers would be dropped
    with it, its money never booked (and a loser could end the table on purpose). Refused, naming the record and
    what it waits for, and how to book or drop it; `action` is the key of the word for what was refused. So is a
    胡/杠 being told by taps once its player is chosen (`HOLDS_HAND`): naming it and who started it."""
    if table is None:
        return
    found = waiting_record(ctx, table)
    if found is not None:
        raise Refusal("waiting_record", action=ctx.t(action), **_waiting_parts(ctx, table, found[1]))
    flow = holding_flow(ctx, table)
    if flow is not None:
        raise Refusal(f"waiting_flow_{flow.kind}", action=ctx.t(action), **_flow_parts(ctx, table, flow))


def holding_flow(ctx: Context, table: TableInfo, source: str = "") -> Flow | None:
    """The 胡/杠 being told by taps that holds a record of the table's open hand (its player chosen: `HOLDS_HAND`),
    but the one booking with `source` (its own confirmation); None — and nothing looked up — when no such flow
    waits in the chat (`Context.tapping`)."""
    if not ctx.tapping:
        return None
    for flow in ctx.service.open_flows(ctx.chat_id, kinds=TAPPED_KINDS):
        state = flow.state
        holds = state.get("table_id") == table.id and state.get(HOLDS_HAND) == table.hand_number
        if holds and flow_source(ctx, flow.message_id) != source:
            return flow
    return None


def _flow_parts(ctx: Context, table: TableInfo, flow: Flow) -> dict[str, Any]:
    """What a refusal says of a 胡/杠 being told by taps: its hand, its player, who started it and who may drop it."""
    return {
        "number": table.hand_number,
        "player": flow.state.get("who", "?"),
        "starter": _name_of(ctx, table, flow.user_id),
        "who": cancellers(ctx, table, flow.user_id, flow.state),
    }


@before_booking
def refuse_while_a_record_waits(
    ctx: Context, table: TableInfo, events: Sequence[Event | Mapping[str, Any]], source: str
) -> None:
    """Any other record of the hand while a record of it (a win, a 查大叫 荒庄) waits for its answers: a second
    ending is that hand told another way (booked, it dropped the waiting win unsaid), and a kong, 亮倒 or 漂 would
    change the hand under the waiting win (a kong made after the win kept its money; a 抢杠胡 lost the kong it
    robbed). Refused, naming the waiting record and how to go on: answer it, or drop it (its recorder, its
    winner or an admin) and record both in their order — a second winner on the same discard as 一炮双响. So is
    a record while a 胡 told by taps holds the hand (its player chosen, not confirmed: booked, the typed win ended
    the hand and the taps' 「确认」 expired unbooked), but a 漂 (the taps ask for it too, and count one told); and
    an ending while a 杠 told by taps holds it (its 「确认」 would find the hand over). An edit of a message is
    such a record when what it recorded is in that hand (one of a hand played before changes nothing under it)."""
    found = waiting_record(ctx, table)
    flow = holding_flow(ctx, table, source) if found is None else None
    if (found is None and flow is None) or not _changes_the_open_hand(ctx, table):
        return
    edit = ctx.incoming is not None and ctx.incoming.edited
    refused = ctx.t("waiting_not_edited" if edit else "waiting_not_recorded")
    told = [_discard_win(e) for e in events if isinstance(e, Win) or (isinstance(e, Mapping) and e.get("type") == "hu")]
    if flow is not None:
        ending = any(_type_of(e) in {"hu", "draw"} for e in events)
        if (flow.kind == "hu" and all(_type_of(e) == "piao" for e in events)) or (flow.kind == "gang" and not ending):
            return
        refusal = Refusal(f"waiting_flow_first_{flow.kind}", refused=refused, **_flow_parts(ctx, table, flow))
    elif found is not None and "edits" in found[1]:  # an edit of an earlier hand waits: not this hand's record
        refusal = Refusal("waiting_edit_first", **_waiting_parts(ctx, table, found[1]))
    else:
        assert found is not None
        state = found[1]
        parts = _waiting_parts(ctx, table, state)
        waiting = [_discard_win(e) for e in state["batch"] if e.get("type") == "hu"]
        endings = [e for e in state["batch"] if e.get("type") in {"hu", "draw"}]
        if not edit and endings == [p for p in _payloads(events) if p.get("type") in {"hu", "draw"}]:
            refusal = Refusal("waiting_record_same", **parts)  # told again (by someone else, or sent twice)
        elif len(waiting) == 1 == len(told) and waiting[0] and told[0] and waiting[0][1] == told[0][1] != "":
            (first, discarder), (second, _) = waiting[0], told[0]
            refusal = Refusal(
                "waiting_record_double_win", first=first, second=second, discarder=discarder, refused=refused, **parts
            )
        else:
            refusal = Refusal("waiting_record_first", refused=refused, **parts)
    refusal.heard = True
    raise refusal


def _payloads(events: Sequence[Event | Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Events as the payloads a waiting record keeps of what it was told (`batch`)."""
    return [e if isinstance(e, Mapping) else payloads([e])[0] for e in events]


def _type_of(event: Event | Mapping[str, Any]) -> str:
    """An event's type as its payload says it (`hu`, `draw`, `piao` …)."""
    if isinstance(event, Mapping):
        return str(event.get("type"))
    return {Win: "hu", Draw: "draw", Piao: "piao"}.get(type(event), "other")


def _changes_the_open_hand(ctx: Context, table: TableInfo) -> bool:
    """Whether the line records into the table's open hand: a new line does; an edit does when its message recorded
    nothing yet (it is read as a new line) or recorded into that hand — not one of a hand played before, nor one
    taken back or settled (the booking says so). A correction's trial (`replacing`) replaces the table's latest
    record: into that hand when it is not finished."""
    if replacing(ctx):
        latest = ctx.service.latest_record(table.id)
        return latest is None or not latest.finished
    incoming = ctx.incoming
    if incoming is None or not incoming.edited:
        return True
    try:
        found = ctx.service.message_hand(incoming.original_source)
    except LedgerError:
        return False
    return found is None or (found.table.id == table.id and not found.finished)


def _refuse_asking_beside(ctx: Context, table: TableInfo, edits: int) -> None:
    """An edit of a hand played before that needs its own question while a record of the hand being played waits
    for its answers: two questions would wait for the same typed answers (`买马 7s`). Refused, naming the waiting
    one; the edit is made again once it is answered, or with the input in its line."""
    found = waiting_record(ctx, table)
    if found is not None:
        refusal = Refusal("waiting_edit_asks", edited=edits, **_waiting_parts(ctx, table, found[1]))
        refusal.heard = True
        raise refusal


def _discard_win(event: Event | Mapping[str, Any]) -> tuple[str, str] | None:
    """(winner, discarder) of a win on a discard; None for any other event."""
    if isinstance(event, Win):
        return (event.winner, event.discarder or "") if event.method == "discard" else None
    if isinstance(event, Mapping) and event.get("method") == "discard":
        return str(event.get("winner")), str(event.get("from") or "")
    return None


def may_drop(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> bool:
    """Who may drop a waiting record by 撤销: whoever recorded it, a winner it names, or an admin."""
    if ctx.is_admin or int(state["by"]) == ctx.sender.user_id:
        return True
    seat = table.seat_of_user(ctx.sender.user_id)
    return seat is not None and seat in _winners(state)


def _winners(state: Mapping[str, Any]) -> list[str]:
    return [str(e["winner"]) for e in state["batch"] if e.get("winner")]


def drop_waiting(ctx: Context, table: TableInfo) -> list[Effect] | None:
    """撤销 while the hand's record waits for its answers: that record is the latest thing told, so it is what 撤销
    takes back — dropped (nothing was booked), its question closed — when the sender may (`may_drop`); anyone else
    is told whose it is to drop. None when nothing waits."""
    found = waiting_record(ctx, table)
    if found is None:
        return None
    key, state = found
    parts = _waiting_parts(ctx, table, state)
    if not may_drop(ctx, table, state):
        raise Refusal("waiting_record_not_yours", **parts)
    if ctx.service.answer_flow(ctx.chat_id, key, source=ctx.source, by=ctx.sender.user_id).replayed:
        return [ctx.reply("undo_again")]
    effects: list[Effect] = []
    if state.get("message"):
        effects.append(SendText(ctx.t("flow_cancelled"), edit_message_id=int(state["message"])))
    return [*effects, ctx.reply("waiting_record_dropped", **parts)]
