"""A question someone asked for themselves, answered by typing: whoever asked types `算了` (`不撤销`, `取消`,
`不用了`; `cancel`/`no`/`keep it`/`leave it`/`no, same one` in a group that reads English; a button's own label,
`不改`/`不改了` under 改's question, `不是` under a 「是不是：…」, only under its question) and their latest question
still waiting is answered as its 「不撤销」/「不用了」/「取消」/「不改」/「不是」 button answers it — the question
rewritten, its buttons gone, the flow finished — with a short reply to the typed line.

The questions that take a typed 算了 register here (`cancel_by_typing`): 撤销's (a record, `撤销 第N局`, a hand of a
table that has ended), 撤销结算, 撤销发红包池 / 撤销付台费, a record held back as a double entry (「确实又一次」), a
payment held back as a repeat (「再记一笔」), the 胡/杠 button flows and a 够级 round's 名次 flow (「取消」, held
back as a double entry or not), a 「是不是：…」 suggestion (「不是」) and the question a record gets when the group's
rules need more of it (漂, 坎, 马 …; 「取消」). Each is sent with `posted_as` = `prefix:key`, so the message it was
sent as is kept with its flow (`state["message"]`) for the typed word to rewrite. Only the sender's own questions
count: an admin may press anyone's button, but their typed 算了 answers only a question they asked; anyone else's
算了, and 算了 with nothing waiting, is chat (no reply).

The other way, a typed yes — `对` (`是的`, `确定`, `嗯`, `好` …; `yes` in a group that reads English; a button's own
label, `确认撤销`/`改成这样`, English `undo it`/`correct it`, only under its question) — answers the asker's latest
question as its 「确认」 button does, for the kinds that register here (`confirm_by_typing`: 撤销's question about a
record or a finished hand at the open table, 改's question). The same rules hold: only the asker's own latest
question, the word alone (`对，就这样` and `对？` are chat), anyone else's yes, or a yes whose latest question is of
another kind, is chat. A question about someone else's record is put to that record's recorder (or an admin): with
no question of their own waiting, their typed yes answers it as their 「确认撤销」 does, while the asker's is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.commands._common import ASKED_IN_ENGLISH, asked_in, questions_put_to, questions_waiting
from bot.core import AnswerCallback, CallbackQuery, Context, Effect, HandlerResult, Outcome, Quiet, SendText, registry
from bot.grammar import asks, fold
from bot.vocabulary import (
    COMMAND_WORDS,
    CORRECT_YES_WORDS_EN,
    KEEP_WORDS_EN,
    PRESSED_LABELS_EN,
    REPEAT_NO_WORDS_EN,
    UNDO_YES_WORDS_EN,
    YES_WORDS_EN,
)
from ledger.service import Flow, Ledger


@dataclass(frozen=True)
class Cancelled:
    """What a typed 算了 does to a question of one kind: `kept(ctx, state)` is the question's text once answered
    (as its cancel button rewrites it), `typed` the key of the short reply to the typed line."""

    kept: Callable[[Context, Mapping[str, Any]], str]
    typed: str


#: the questions a typed 算了 answers: flow kind -> what it does to them
CANCELLED: dict[str, Cancelled] = {}


def nothing_booked(ctx: Context, _state: Mapping[str, Any]) -> str:
    """What a question that would book something reads once dropped, as its 「取消」/「不用了」 leaves it."""
    return ctx.t("flow_cancelled")


#: the cancel words that answer only questions of some kinds (their cancel button's label: `不改`, `不是`): word ->
#: those kinds
OWN_KEEP_WORDS: dict[str, set[str]] = {}


def cancel_by_typing(
    kind: str,
    prefix: str,
    kept: Callable[[Context, Mapping[str, Any]], str],
    typed: str,
    words: tuple[str, ...] = (),
) -> None:
    """A question of `kind` (buttons and `posted_as` under `prefix`) is answered by its asker's typed 算了 as its
    cancel button answers it: rewritten to `kept(ctx, state)`, the typed line answered with the text `typed`.
    `words`: the cancel words that answer this kind alone (`不改` is no answer to 撤销's question)."""
    CANCELLED[kind] = Cancelled(kept, typed)
    for word in words:
        OWN_KEEP_WORDS.setdefault(word, set()).add(kind)
    registry.on_posted(prefix)(keep_message)


#: the questions a typed yes answers: flow kind -> what it does (its 「确认」 carried out, the replies)
CONFIRMED: dict[str, Callable[[Context, Flow], list[Effect]]] = {}
#: the yes words that answer only a question of one kind (its button's label: `确认撤销`, `改成这样`): word -> kind
OWN_YES_WORDS: dict[str, str] = {}


def confirm_by_typing(kind: str, confirm: Callable[[Context, Flow], list[Effect]], words: tuple[str, ...]) -> None:
    """A question of `kind` (which takes a typed 算了 too: `cancel_by_typing`) is answered by its asker's typed yes
    as its 「确认」 button answers it: `confirm(ctx, flow)` carries it out and says so. `words`: the yes words that
    answer this kind alone (`撤吧` is no yes to 改's question)."""
    CONFIRMED[kind] = confirm
    OWN_YES_WORDS.update(dict.fromkeys(words, kind))


@dataclass(frozen=True)
class Pressed:
    """What a typed button label does to a question of one kind (`press_by_typing`): the press of its button
    `prefix:<key>:ok`, when `when(state)` (the label names what this question asks: `确认撤销付台费` is no answer to
    撤销发红包池's); `typed` the key of the short reply to the typed line."""

    prefix: str
    typed: str
    when: Callable[[Mapping[str, Any]], bool]


#: the go-ahead labels a typed line presses (`vocabulary.PRESSED_LABELS`): label -> question kind -> the press
PRESSED: dict[str, dict[str, Pressed]] = {}


def press_by_typing(
    kind: str,
    prefix: str,
    words: tuple[str, ...],
    typed: str,
    when: Callable[[Mapping[str, Any]], bool] = lambda _state: True,
) -> None:
    """A question of `kind` (which takes a typed 算了 too: `cancel_by_typing`) whose go-ahead button is labelled
    one of `words` is answered by its asker's typed label as a press of that button (`prefix:<key>:ok`) by them
    answers it — the same checks, the same booking, the question rewritten — with the short reply `typed`."""
    for word in words:
        PRESSED.setdefault(word, {})[kind] = Pressed(prefix, typed, when)


def keep_message(service: Ledger, chat_id: int, key: str, message_id: int, english: bool) -> None:
    """A question was sent: the message it was sent as is kept with its flow, for a typed 算了 to rewrite (and
    撤销 asked again to point to), and whether it was asked in English (`reads_english`). Each chat's updates are
    handled one at a time, so nothing answers the question before this runs."""
    flow = service.load_flow(chat_id, int(key))
    if flow is not None and flow.finished_at is None:
        state = {**flow.state, "message": message_id, **({ASKED_IN_ENGLISH: True} if english else {})}
        service.save_flow(chat_id, flow.message_id, flow.user_id, flow.kind, state)


def reads_english(ctx: Context, flow: Flow) -> bool:
    """Whether English answer words (`yes`, `ok`, `cancel`, a button's English label) answer the question `flow`:
    in a group that reads English, and in any group a question the bot asked in English (a line written in English
    asked it, so its buttons are in English). Elsewhere `yes` is chat."""
    return asked_in(ctx, flow) == "en"


def answer_in_english(ctx: Context, flow: Flow, english: bool) -> None:
    """An English answer word (`ok`, `yes`, `cancel`: no English line on its own) to a question asked in English is
    answered in English, the question's language, in any group."""
    if english and flow.state.get(ASKED_IN_ENGLISH):
        ctx.lang = "en"


@registry.command(
    "undo_keep",
    names=["cancel"],
    aliases=COMMAND_WORDS["undo_keep"],
    help_zh="算了（不撤销、取消、不用了；改成 问的打 不改，是不是 问的打 不是）：机器人问「确定吗」时（撤销、撤销结算、"
    "撤销发红包池/付台费、重复记录的"
    "「确实又一次」、重复付款的「再记一笔」、胡/杠/名次的按钮、「是不是：…」、要补报的漂/坎/马、改成），发问的人打这句就"
    "作罢，和点「不撤销」「不用了」「取消」「不是」「不改」一样",
    help_en="cancel (no): while the bot asks whether to go ahead (undo, unsettle, unpayout / undo pay table fee, a "
    "double entry's “It happened again”, a repeated payment's “Book another”, the win/kong/place buttons, “Did you "
    "mean”, piao/kan/horse still to tell, change to …), whoever asked types it to drop the question, as pressing its "
    "Keep it / No / Cancel / Leave it button",
    in_menu=False,
)
def keep(ctx: Context) -> list[Effect]:
    """Typed 算了: the sender's latest question still waiting (`CANCELLED`) is answered as its cancel button
    answers it (rewritten, its flow finished), and the line gets a short reply. The word alone only (`算了，不打了`
    is chat), English `cancel`/`no` in a group that reads English (or `/cancel`); from anyone with no question of
    theirs waiting it is chat: no reply. Each typed line answers one question, once: delivered again it answers
    nothing more."""
    typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
    english = fold(ctx.word) in (*KEEP_WORDS_EN, *REPEAT_NO_WORDS_EN) and not typed.startswith("/")
    if ctx.args:
        raise Quiet
    waiting = questions_waiting(ctx, tuple(CANCELLED))
    if not waiting or (english and not reads_english(ctx, waiting[0])):
        raise Quiet
    flow = waiting[0]
    if flow.kind not in OWN_KEEP_WORDS.get(fold(ctx.word), {flow.kind}):
        raise Quiet  # `不改` under 撤销's question, `不是` under 改's, `no, same one` under 改's
    answer_in_english(ctx, flow, english)
    if ctx.service.answer_flow(ctx.chat_id, flow.message_id, source=ctx.source, by=ctx.sender.user_id).replayed:
        raise Quiet
    ctx.answered = True
    cancelled = CANCELLED[flow.kind]
    effects: list[Effect] = []
    if flow.state.get("message"):
        effects.append(SendText(cancelled.kept(ctx, flow.state), edit_message_id=int(flow.state["message"])))
    return [*effects, ctx.reply(cancelled.typed)]


@registry.command(
    "question_yes",
    names=["yes"],
    aliases=COMMAND_WORDS["question_yes"],
    help_zh="对（是的、确定、嗯、好、撤吧、改吧）：机器人问要不要撤销一条记录或一局、要不要改成…时，发问的人（撤别人记的"
    "那条：记的人或管理员）打这句就照办，和点「确认撤销」「改成这样」一样",
    help_en="yes: while the bot asks whether to undo a record or a hand, or to correct one, whoever asked (someone "
    "else's record to undo: its recorder or an admin) types it to go ahead, as pressing “Undo it” / “Correct it”",
    in_menu=False,
)
def yes(ctx: Context) -> list[Effect]:
    """Typed 对: the sender's latest question still waiting, when it is of a kind a typed yes answers (`CONFIRMED`),
    carried out as its 「确认」 button is. The word alone only, never a question (`对？`, `是的吗`); English `yes` in a
    group that reads English (or `/yes`); from anyone whose latest question is none of those, chat: no reply. With
    no question of their own waiting, it answers the latest one put to them (`questions_put_to`: someone else's
    撤销 of their record, which the question asks them or an admin to confirm), as their 「确认撤销」 would. A
    question answered is finished, so the line delivered again answers nothing more."""
    typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
    english = fold(ctx.word) in (*YES_WORDS_EN, *UNDO_YES_WORDS_EN, *CORRECT_YES_WORDS_EN) and not typed.startswith("/")
    if ctx.args or asks(typed):
        raise Quiet
    flow = yes_to(ctx, ctx.word)
    if flow is None or (english and not reads_english(ctx, flow)):
        raise Quiet
    answer_in_english(ctx, flow, english)
    return CONFIRMED[flow.kind](ctx, flow)


def yes_to(ctx: Context, word: str) -> Flow | None:
    """The question the sender's typed yes `word` answers (`question_yes`): their own latest one waiting or, with
    none, the latest put to them, when it is of a kind a typed yes answers and `word` is no other kind's own label
    (`撤吧` under 改's question); None for none. 撤销's English label `undo it` is 撤销's own word too, so 撤销 asks
    this first."""
    waiting = questions_waiting(ctx, tuple(CANCELLED)) or questions_put_to(ctx, tuple(CONFIRMED))
    if not waiting or waiting[0].kind not in CONFIRMED:
        return None
    if OWN_YES_WORDS.get(fold(word), waiting[0].kind) != waiting[0].kind:
        return None
    return waiting[0]


def typed_yes_label(ctx: Context) -> list[Effect] | None:
    """`undo it` typed alone under the sender's 撤销 question asked in English (`reads_english`): its 「确认撤销」
    button's English label ("Undo it") pressed by typing, as the typed yes does; None otherwise (it is 撤销)."""
    if ctx.args or fold(ctx.word) not in UNDO_YES_WORDS_EN:
        return None
    flow = yes_to(ctx, ctx.word)
    if flow is None or not reads_english(ctx, flow):
        return None
    answer_in_english(ctx, flow, True)
    return CONFIRMED[flow.kind](ctx, flow)


@registry.command(
    "typed_press",
    names=["press"],
    aliases=COMMAND_WORDS["typed_press"],
    help_zh="就是这个、再记一笔、确认撤销结算、确认撤销发红包池、确认撤销付台费：按钮上的字，发问的人打出来就和点那个按钮一样",
    help_en="a go-ahead button's label (Yes, book it; Book another; Take it back …) typed by whoever asked: as "
    "pressing it",
    in_menu=False,
)
def typed_press(ctx: Context) -> list[Effect]:
    """A go-ahead button's label typed (`就是这个` under 「是不是：…」, `再记一笔`, `确认撤销结算` …): the sender's
    latest question still waiting, when its button carries that label (`PRESSED`), answered as the sender's press of it
    (`Bot.handle_callback`: who may press, whether it expired, the booking), with a short reply to the line. The
    label alone only, never asked; from anyone with no such question of their own latest, chat."""
    typed = ctx.incoming.text.lstrip() if ctx.incoming is not None else ""
    if ctx.args or asks(typed):
        raise Quiet
    waiting = questions_waiting(ctx, tuple(CANCELLED))
    pressed = PRESSED.get(fold(ctx.word), {}).get(waiting[0].kind) if waiting else None
    if not waiting or pressed is None or not pressed.when(waiting[0].state):
        raise Quiet
    english = fold(ctx.word) in PRESSED_LABELS_EN
    if english and not reads_english(ctx, waiting[0]):
        raise Quiet
    flow = waiting[0]
    answer_in_english(ctx, flow, english)
    message = int(flow.state.get("message") or 0)
    pressed_it = press_as(ctx, f"{pressed.prefix}:{flow.message_id}:ok", message)
    return typed_answer(ctx, pressed_it.effects, message, pressed.typed)


def press_as(ctx: Context, data: str, message: int) -> Outcome:
    """The sender's press of the button carrying `data` under the bot message `message`, for a line they typed
    instead: the same checks (who may press, whether it expired) and what the press does."""
    query = CallbackQuery(
        query_id=f"typed:{ctx.message_id}",
        chat_id=ctx.chat_id,
        message_id=message,
        sender=ctx.sender,
        data=data,
        date=ctx.now(),
        source=ctx.source,
        admin_ids=ctx.admin_ids,
        owner_id=ctx.owner_id,
    )
    return ctx.bot.handle_callback(query)


def typed_answer(ctx: Context, result: HandlerResult, message: int, typed: str) -> list[Effect]:
    """What a question's button did (`result`, as its press returns it) as the answer to a typed line instead:
    what the press would say in its alert is said to the line; else the question's message rewritten as the press
    rewrites it and the short reply `typed` to the line — or, the message not known (`message` 0), the booking's
    reply to the line itself."""
    effects = effects_of(result)
    refused = next((e.text for e in effects if isinstance(e, AnswerCallback) and e.alert), None)
    if refused is not None:
        return [SendText(refused, reply_to=ctx.message_id)]
    sent = [e for e in effects if not isinstance(e, AnswerCallback)]
    ctx.answered = True
    if not message:
        return [
            replace(e, edit_message_id=None, reply_to=ctx.message_id) if isinstance(e, SendText) else e for e in sent
        ]
    return [*sent, ctx.reply(typed)]


def effects_of(result: HandlerResult) -> list[Effect]:
    """A handler's result as its list of effects."""
    if isinstance(result, Outcome):
        return list(result.effects)
    if result is None:
        return []
    return [result] if isinstance(result, Effect) else list(result)
