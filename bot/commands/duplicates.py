"""Double entries: the same kong, 亮倒, win (the same winners) or draw typed by two people at the table is booked once;
so is a 够级 round (the same finishing order) and a 碰胡 win, draw or play (碰, 扫 …).

The ledger holds back a record that repeats the table's previous one when someone else recorded that one within
the group's window (`设置 重复间隔 90`, seconds; 0 turns it off). The reply says who recorded it and when, and
offers 「确实又一次」 for the rare genuine repeat: the line's sender's or an admin's tap books the held-back line
once, as its sender typed it (anyone else's is refused, `may_answer`; the sender's typed 算了 answers as 「不用了」,
`bot.commands.questions`, and their typed `确实又一次` as the button, `book_held`). The source is the message's as
an edit numbered 0: a double tap books once, and editing the message afterwards replaces the booking. The pending
line lives in the ledger's flow table (kind `dup`), so a restart in between loses nothing; a redelivered update
asks nothing twice.

A button flow's confirmation (the 胡/杠 flows, a 够级 round's 名次) is held back the same way (`hold_flow`): its
message asks the same, and the same people answer it. The rule is `flow_step`'s, for every flow it reads
(`held_as_repeat`).

Another ending of the 卡五星 or 碰胡 hand just ended (or another 够级 round) from someone else within the window
(`DuplicateRecord.differs`: a hand takes minutes, so it is most likely that hand told otherwise), and a recap of
that hand (`Context.recap`: `阿杰 刚才 自摸 清一色`) that reads otherwise, get the same question with 「是新的一局」
for 「确实又一次」, naming who may fix the record there with 改成; it is asked even of a line read without its
command word, and so is a recap that repeats the record (someone telling it after the fact may not have seen it
booked).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.commands._common import (
    DOUBLE,
    HELD,
    NEW_HAND,
    REPEAT,
    REPEAT_QUESTION,
    REPEATED,
    FlowStep,
    asked_already,
    current_table,
    double_win_of,
    flow_key,
    flow_step,
    questions_waiting,
    repeated_changed,
)
from bot.commands._recording import held_back_text, held_back_yes
from bot.commands.questions import (
    CANCELLED,
    cancel_by_typing,
    effects_of,
    nothing_booked,
    reads_english,
    typed_answer,
)
from bot.commands.suggest import held_line, rerun, run_held
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.grammar import asks, fold, in_digits
from bot.texts import setting_name
from bot.vocabulary import COMMAND_WORDS, NEW_HAND_WORDS_EN, REPEAT_NO_WORDS_EN, REPEAT_WORDS_EN
from ledger.booking import EXACT_RETELLING
from ledger.events import PENGHU_PLAYS, Event
from ledger.service import DuplicateRecord, Flow, TableInfo

KIND = REPEAT_QUESTION
PREFIX = "dup"
#: the setting words `设置` hands to this module
OPTION_WORDS = frozenset({"重复间隔", "重复", "防重复", "double_entry", "double_entry_window"})


def question_key(ctx: Context) -> int:
    """Where a question about a typed line is stored: the negated key of its message (the message's own key may
    hold a 「是不是」 suggestion the question came from)."""
    return -flow_key(ctx)


def hold_back(ctx: Context, table: TableInfo, dup: DuplicateRecord, events: Sequence[Event] = ()) -> SendText:
    """The reply to a held-back record: who recorded the same thing when, and 「确实又一次」/「不用了」 (「是新的一局」
    for another ending of the hand, and 「一炮双响」 when `events` and the win that ended the hand are one 一炮双响:
    the second winner telling their own win, the usual way one reaches the table, or the whole 一炮双响 told after
    one of its wins: `double_win_of`). A line that did not start
    with its command word (`Context.unprompted`) and may be talk (`_echoed`: `清一色 自摸！` after someone else
    recorded the win) is held back without a word, unless it says it tells the hand after the fact
    (`Context.recap`) or repeats a 碰胡 play (碰, 扫 …): the table's ordinary way to tell someone else's
    (`@乙 碰 点 @丙`), and a real second one of the same is no news."""
    key = question_key(ctx)
    if asked_already(ctx, key):
        raise Quiet  # this very update asked already (a redelivery): the question is out there
    plays = all(event.get("type") in PENGHU_PLAYS for event in dup.previous.events)  # `@乙 碰 点 @丙`: how 碰胡 tells
    if ctx.unprompted and not dup.differs and not ctx.recap and not plays and _echoed(ctx, dup):
        raise Quiet
    # the table's latest record, by its last event (the one it repeats, or for a kong maybe a later one):
    # 「确实又一次」 means "again after that one", so it expires once that record is corrected, taken back or
    # followed by another
    state = {**held_line(ctx, table, ctx.word, ctx.args), REPEATED: dup.after}
    if dup.differs:
        state[NEW_HAND] = True  # 「是新的一局」: its typer's typed `是新的一局` answers it too (`book_held`)
    double = table.game == "kawuxing" and dup.differs and double_win_of(dup.previous.events, events) is not None
    if double:
        state[DOUBLE] = True  # 「一炮双响」: its typer's typed `一炮双响` answers it too (`join_double_win`)
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    buttons: tuple[tuple[Button, ...], ...] = (
        (Button(held_back_yes(ctx, dup), f"{PREFIX}:{key}:ok"), Button(ctx.t("btn_repeat_no"), f"{PREFIX}:{key}:x")),
    )
    if double:
        buttons = ((Button(ctx.t("btn_double_win"), f"{PREFIX}:{key}:{DOUBLE}"),), *buttons)
    text = held_back_text(ctx, dup, table.game) + (("\n" + ctx.t("duplicate_double_win")) if double else "")
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


def join_double_win(ctx: Context, step: FlowStep) -> HandlerResult:
    """「一炮双响」: the held-back win joins the hand just ended, its record now both wins on the one discard."""
    if not step.state.get(DOUBLE):
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    return run_held(ctx, step.key, step.state, step.edit, repeat=True, double_win=True)


def _echoed(ctx: Context, dup: DuplicateRecord) -> bool:
    """Whether a line read without its command word that repeats a record may be someone repeating the news: one
    naming nobody (`清一色 自摸！`, `亮了`) after someone else recorded it. A line naming a player (`@ajie 暗杠 7z`,
    `阿杰 胡 清一色 自摸`, `一炮双响 @xiaoli 七对 @ajie 清一色 点 @wangge`) is how the table tells a record, and the
    sender's own record again (`七对 点 @wangge` sent twice) is their line sent twice: both are told they were held
    back, never left wondering."""
    if dup.previous.recorded_by == ctx.sender.user_id or ctx.incoming is None:
        return False
    text = fold(ctx.incoming.text)
    return "@" not in text and not any(fold(name) in text for name in ctx.seat_names)


cancel_by_typing(KIND, PREFIX, nothing_booked, "repeat_kept_typed", REPEAT_NO_WORDS_EN)


#: the questions held back as a double entry that a typed 「确实又一次」/「是新的一局」 answers: flow kind -> its button
#: carried out as a press does it, given the flow and the message carrying the question (`book_held_by_typing`)
HELD_TYPED: dict[str, Callable[[Context, Flow, int], HandlerResult]] = {}


def book_held_by_typing(kind: str, book: Callable[[Context, Flow, int], HandlerResult]) -> None:
    """A question of `kind` held back as a double entry (`REPEATED` in its state) is answered by its asker's typed
    `确实又一次` — `是新的一局` when held back as another ending of the hand just ended (`NEW_HAND`) — as that button
    is: `book(ctx, flow, message)`."""
    HELD_TYPED[kind] = book


book_held_by_typing(
    KIND, lambda ctx, flow, message: run_held(ctx, flow.message_id, dict(flow.state), message, repeat=True)
)


def book_held(ctx: Context, *, new_hand: bool, english: tuple[str, ...]) -> list[Effect]:
    """A typed button word (`是新的一局` when `new_hand`, else `确实又一次`): the sender's latest question still
    waiting, when it is that button's question about their line or flow held back as a double entry, answered as
    its button is — booked past the check, the question rewritten to the booking's reply — with a short reply to
    the typed line. The words alone only, never asked; the `english` ones only under a question asked in English
    (`reads_english`); from
    anyone else, or with another question of theirs the latest, chat."""
    typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
    if ctx.args or asks(typed):
        raise Quiet  # `是新的一局？`: asked, not said
    waiting = questions_waiting(ctx, tuple(CANCELLED))
    if not waiting or waiting[0].kind not in HELD_TYPED or REPEATED not in waiting[0].state:
        raise Quiet
    flow = waiting[0]
    if ctx.word in english and not typed.startswith("/") and not reads_english(ctx, flow):
        raise Quiet  # `again` under a question asked in Chinese, in a group that reads Chinese: chat
    if bool(flow.state.get(NEW_HAND)) != new_hand:  # 「是新的一局」 is no 「确实又一次」, nor the other way
        raise Quiet
    typed_key = "new_hand_typed" if new_hand else "repeat_booked_typed"
    return _answered_by_typing(ctx, flow, typed_key, HELD_TYPED[flow.kind])


def double_win_by_typing(ctx: Context) -> list[Effect] | None:
    """A typed `一炮双响` (alone) from whoever's win was held back with 「一炮双响」 under it, that question their
    latest: answered as that button is. None when no such question waits (the words are chat then)."""
    waiting = questions_waiting(ctx, tuple(CANCELLED))
    if not waiting or waiting[0].kind != KIND or not waiting[0].state.get(DOUBLE):
        return None
    return _answered_by_typing(
        ctx,
        waiting[0],
        "double_win_typed",
        lambda ctx, flow, message: run_held(
            ctx, flow.message_id, dict(flow.state), message, repeat=True, double_win=True
        ),
    )


def _answered_by_typing(
    ctx: Context, flow: Flow, typed_key: str, press: Callable[[Context, Flow, int], HandlerResult]
) -> list[Effect]:
    """A held-back question answered by its typed button word: `press(ctx, flow, message)` as the button does, or
    expired once the record it repeats is not the latest any more; the line gets `typed_key`'s short reply."""
    message = int(flow.state.get("message") or 0)
    if repeated_changed(ctx, current_table(ctx), flow.state):
        ctx.service.finish_flow(ctx.chat_id, flow.message_id)
        effects: list[Effect] = [AnswerCallback(ctx.t("repeat_previous_changed"), alert=True)]
    else:
        effects = effects_of(press(ctx, flow, message))
    return typed_answer(ctx, effects, message, typed_key)


@registry.command(
    "new_hand",
    names=["newhand"],
    aliases=COMMAND_WORDS["new_hand"],
    help_zh="是新的一局：刚结束的一局又有人记了另一个胡或荒庄、被问「是不是同一局」时，记这条的人打这句就当新的一局记下，"
    "和点「是新的一局」一样",
    help_en="new hand: when your win or draw was held back as another telling of the hand just ended, type it to "
    "book yours as a new hand, as pressing “New hand”",
    in_menu=False,
)
def new_hand(ctx: Context) -> list[Effect]:
    """Typed `是新的一局` (`新的一局`, `是新的`; `new hand` in a group that reads English): 「是新的一局」 pressed by
    typing (`book_held`)."""
    return book_held(ctx, new_hand=True, english=NEW_HAND_WORDS_EN)


@registry.command(
    "repeat_yes",
    names=["again"],
    aliases=COMMAND_WORDS["repeat_yes"],
    help_zh="确实又一次（是又一次、又一次）：你记的被当成重复、问「确实又一次」时，记这条的人打这句就再记一次，和点"
    "「确实又一次」一样",
    help_en="again (it happened again): when your record was held back as a double entry, type it to book it "
    "once more, as pressing “It happened again”",
    in_menu=False,
)
def repeat_yes(ctx: Context) -> list[Effect]:
    """Typed `确实又一次` (`是又一次`, `又一次`; `again`, `it happened again` in a group that reads English):
    「确实又一次」 pressed by typing (`book_held`)."""
    return book_held(ctx, new_hand=False, english=REPEAT_WORDS_EN)


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「确实又一次」 books the held-back line as its sender typed it, past the check; 「不用了」 drops it. Only the
    line's sender or an admin answers (`flow_step`): a third player's press would book someone else's line twice,
    the very double booking the check holds back."""

    step = flow_step(ctx, KIND, current_table)
    if not isinstance(step, FlowStep):
        return step
    if step.action == DOUBLE:
        return join_double_win(ctx, step)
    if step.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    return rerun(ctx, step, repeat=True)


def hold_flow(ctx: Context, prefix: str, kind: str, step: FlowStep, dup: DuplicateRecord, game: str) -> list[Effect]:
    """A button flow's confirmation held back as a double entry (someone recorded the same meanwhile): its message
    says who recorded it when, with 「确实又一次」 (`REPEAT`: the flow booked past the check) and 「取消」. The flow
    is marked `HELD`: from now on only whoever started it or an admin answers it, as the question a typed line
    gets."""
    state = {**step.state, HELD: True, "message": step.edit, REPEATED: dup.after}
    if dup.differs:
        state[NEW_HAND] = True  # its starter's typed `是新的一局` answers it too (`book_held`)
    ctx.service.save_flow(ctx.chat_id, step.key, step.user_id, kind, state)
    again = (
        Button(held_back_yes(ctx, dup), f"{prefix}:{step.key}:{REPEAT}"),
        Button(ctx.t("btn_cancel"), f"{prefix}:{step.key}:x"),
    )
    held = SendText(held_back_text(ctx, dup, game), buttons=(again,), edit_message_id=step.edit)
    return [AnswerCallback(), held]


def configure(ctx: Context, word: str, values: list[str]) -> SendText:
    """`设置 重复间隔 90` (seconds, `90秒`; 0 or 关 turns the check off)."""
    from ledger.chat_options import DOUBLE_ENTRY_MAX, set_double_entry

    value = in_digits(fold("".join(values)).removesuffix("秒").removesuffix("s")) if values else ""  # `九十秒`
    seconds = 0 if value in {"关", "off", "否", "no"} else int(value) if value.isdigit() and len(value) <= 5 else -1
    if not 0 <= seconds <= DOUBLE_ENTRY_MAX:
        shown = setting_name(ctx.lang, word)
        raise Refusal("config_bad_value", setting=shown, value=" ".join(values), allowed=f"0–{DOUBLE_ENTRY_MAX}")
    set_double_entry(ctx.service.engine, ctx.group.id, seconds, by=ctx.sender.user_id, now=ctx.now())
    return ctx.reply(
        "double_entry_set" if seconds else "double_entry_off", seconds=seconds, span=seconds * EXACT_RETELLING
    )


def describe(ctx: Context) -> str:
    """The 规则 line: `重复记录：90 秒内别人记的同一条不再记（设置 重复间隔 …）`."""
    from ledger.chat_options import double_entry_seconds

    seconds = double_entry_seconds(ctx.service.engine, ctx.group.id)
    return ctx.t("double_entry_rule" if seconds else "double_entry_rule_off", seconds=seconds)
