"""「是不是：…」: one short reply with the closest reading when a record cannot be read, and two buttons.

A line that clearly starts as a record (`胡 清一涩 自摸`, a bare `自摸`) is never booked on a guess and never
met with silence: the bot answers once with what it would book and 「就是这个」/「不是」. Only a tap on
「就是这个」 by a seated player or an admin books it, through the same command as the typed line, as if the
sender had typed the reading, with a source derived from the original message: a double tap, or two people
tapping, books once. The source is the message's as an edit numbered 0 (`tg:<chat>:<message>:e0`), so editing the
message afterwards replaces what the tap booked instead of adding to it; an edit before the tap answers the
question (the record handlers finish it). A question an edit got is tapped as that edit: it replaces what the
message recorded. A question belongs to the hand it was asked in (`flow_step` expires it once that hand is
recorded). The pending suggestion lives in the ledger's flow table (kind `suggest`), keyed by the message, so a
restart in between loses nothing. Whoever typed the line may drop the question by typing 算了 (`取消`, `不用了`;
`bot.commands.questions`), as its 「不是」 does; anyone else's 算了 is chat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.commands._common import FlowStep, asked_already, current_table, flow_key, flow_step, refuse_before_booking
from bot.commands.questions import cancel_by_typing, effects_of, nothing_booked, press_by_typing
from bot.core import (
    AnswerCallback,
    Button,
    Context,
    Effect,
    HandlerResult,
    Incoming,
    Quiet,
    Refusal,
    Sender,
    SendText,
    registry,
)
from bot.grammar import GrammarError, Word, closest_reading, english_line, left_out, render
from bot.vocabulary import SUGGEST_NO_WORDS
from ledger.errors import LedgerError
from ledger.events import Event
from ledger.service import TableInfo

KIND = "suggest"
#: the flow kind of the question a record asks when the group's rules need more of it (bot/commands/regional.py)
ASK_KIND = "ask"
PREFIX = "sg"


def offer(
    ctx: Context, table: TableInfo, err: GrammarError, check: Callable[[str], Event | Sequence[Event]], *, word: str
) -> SendText:
    """The answer to a record that could not be read: the closest reading `check` accepts (it raises a
    GrammarError or Refusal for one that cannot be booked either, else returns its events) with buttons, else
    the refusal itself. A guess `check` refuses is tried again with the unknown words left out (`暗杠 三条 都没用`:
    都没听 is no kong's word, so 暗杠 三条)."""
    tried: list[Word] | None = None
    for drop in (False, True) if err.suggest else ():
        reading = closest_reading(err.reading, drop=drop)
        if reading is None or reading == tried:
            continue
        tried = reading
        if any(_names_someone(ctx, word) for word in left_out(err.reading, drop=drop)):
            continue  # `暗杠 3s 老王`: a guess without the person named could book other money than meant
        args = render(reading, ctx.lang)
        try:
            read = check(args)
        except (GrammarError, Refusal):
            continue
        events = [read] if isinstance(read, Event) else list(read)
        return ask(ctx, table, word, args, _why(ctx, err, drop=drop), events=events)
    raise Refusal(err.key, **err.params)


def _names_someone(ctx: Context, word: str) -> bool:
    """Whether a word is the name of someone in the group (a member or a guest, two accounts' alike)."""
    try:
        return ctx.service.find_member(ctx.chat_id, word) is not None
    except LedgerError:  # two accounts show it
        return True


def _why(ctx: Context, err: GrammarError, *, drop: bool = False) -> str:
    """What the question says first: the word it could not read, and every word its guess leaves out (`胡 sevn
    pairs 自摸` → 胡 自摸 books a plain win: the tap must know seven pairs is not in it)."""
    unread = str(err.params.get("word", ""))
    dropped = left_out(err.reading, drop=drop)
    if not dropped:
        return ctx.t("suggest_unknown", word=unread)
    corrected = ctx.t("suggest_unknown", word=unread) if unread not in dropped else ""
    return corrected + ctx.t("suggest_left_out", words=" ".join(dropped))


def held_line(ctx: Context, table: TableInfo, word: str, args: str) -> dict[str, Any]:
    """What a question about a typed record keeps to run it later as typed (`typed_line`), with the hand it was
    typed in (once that hand is recorded the buttons expire rather than book into the next)."""
    return {"table_id": table.id, "hand": table.hand_number, **typed_line(ctx, word, args)}


def typed_line(ctx: Context, word: str, args: str) -> dict[str, Any]:
    """What a question about a typed line keeps to run it later as typed: the words, who sent it with the people
    Telegram marked in it (ids and usernames: the `@name`s must name the same accounts when it runs), its source
    (and the edit's, for an edited message) and the update that asked (a redelivery of that update asks nothing
    again)."""
    sender, incoming = ctx.sender, ctx.incoming
    return {
        "word": word,
        "args": args,
        "source": incoming.original_source if incoming is not None else ctx.source,
        "edit": ctx.source if incoming is not None and incoming.edited else None,
        "sender": [sender.user_id, sender.name, sender.username],
        "mentions": [[s.user_id, s.name, s.username] for s in (incoming.mentions if incoming else ())],
        "usernames": list(incoming.usernames if incoming else ()),
        "asked": ctx.source,
    }


def ask(
    ctx: Context,
    table: TableInfo,
    word: str,
    args: str,
    why: str,
    *,
    events: Sequence[Event] = (),
    heard: bool = False,
) -> SendText:
    """Store the reading `word args` and ask whether it is what was meant (never about a line that did not start
    with its command word, `Context.unprompted`, unless `heard`: a win said with its money is no chat). A reading
    whose `events` the booking would refuse as they are (another record of the hand waits: `before_booking`) is
    refused now, not offered for a tap that could only be refused."""
    key = flow_key(ctx)
    if asked_already(ctx, key) or (ctx.unprompted and not heard):
        raise Quiet
    refuse_before_booking(ctx, table, events)
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, held_line(ctx, table, word, args))
    buttons = (
        (
            Button(ctx.t("btn_suggest_yes"), f"{PREFIX}:{key}:ok"),
            Button(ctx.t("btn_suggest_no"), f"{PREFIX}:{key}:x"),
        ),
    )
    line = f"{word} {args}".strip()
    text = ctx.t("suggest", why=why, line=english_line(line) if ctx.lang == "en" else line)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


cancel_by_typing(KIND, PREFIX, nothing_booked, "flow_cancelled_typed", SUGGEST_NO_WORDS)
press_by_typing(KIND, PREFIX, ("就是这个", "yes, book it"), "suggest_booked_typed")


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「就是这个」 books the stored reading as its sender's line; 「不是」 (action `x`) drops it."""
    return press_to_rerun(ctx, KIND)


def press_to_rerun(ctx: Context, kind: str, *, repeat: bool = False) -> HandlerResult:
    """A question's 「yes」 (action `ok`) runs the line its flow of `kind` holds; `flow_step` answers the rest (for
    a double entry's question, a press by anyone but whoever typed the line or an admin, or once the record it
    repeats has changed)."""
    step = flow_step(ctx, kind, current_table)
    if not isinstance(step, FlowStep):
        return step
    if step.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    return rerun(ctx, step, repeat=repeat)


def rerun(ctx: Context, step: FlowStep, *, repeat: bool = False) -> HandlerResult:
    """Run the line a flow stored (`word`, `args`, `sender`, `source`) as its sender typed it, with the source of
    that message as an edit numbered 0 — or, for a line an edit sent, as that edit: it replaces what the message
    recorded, never adds a hand. The reply takes the place of the flow's message. `repeat`: booked past the
    double-entry check (「确实又一次」)."""
    return run_held(ctx, step.key, step.state, step.edit, repeat=repeat)


def run_held(
    ctx: Context, key: int, state: dict[str, Any], edit_message_id: int, *, repeat: bool, double_win: bool = False
) -> HandlerResult:
    """`rerun` of the line a flow (`key`) holds (`state`), its reply in place of message `edit_message_id`: for
    a flow of no table too (a payment held back as a repeat). `double_win`: the held win joins the hand just ended
    as its 一炮双响 (`Context.double_win`)."""
    user_id, name, username = state["sender"]
    sender = Sender(int(user_id), str(name), username)
    word, args = str(state["word"]), str(state["args"])
    command = ctx.bot.registry.lookup(word, ctx.game)
    if command is None:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    edit = state.get("edit")
    source = str(edit) if edit else f"{state['source']}:e0"
    mentions = tuple(Sender(int(i), str(n), u) for i, n, u in state.get("mentions", ()))
    incoming = Incoming(
        chat_id=ctx.chat_id,
        message_id=key,
        sender=sender,
        text=f"{word} {args}",
        date=ctx.now(),
        source=source,
        edited=bool(edit),
        corrected=bool(state.get("corrected")),
        admin_ids=ctx.admin_ids,
        owner_id=ctx.owner_id,
        mentions=mentions,
        usernames=tuple(str(u) for u in state.get("usernames", ())),
    )
    piao_told = tuple((str(player), int(amount)) for player, amount in state.get("piao", ()))  # `改成 漂 @丙 2`
    typed = replace(
        ctx,
        sender=sender,
        source=source,
        incoming=incoming,
        callback=None,
        repeat=repeat,
        double_win=double_win,
        piao_told=piao_told,
    )
    typed.command, typed.word, typed.args = command, word, args
    try:
        result = command.handler(typed)
    except Quiet:  # an edit's reading that records just what the message recorded: the tap is answered
        ctx.service.finish_flow(ctx.chat_id, key)
        return [AnswerCallback(), SendText(ctx.t("suggest_unchanged"), edit_message_id=edit_message_id)]
    except Refusal as refusal:
        return AnswerCallback(ctx.t(refusal.key, **refusal.params), alert=True)
    except Exception as err:
        from bot.texts import refusal_text

        message = refusal_text(ctx.lang, err)
        if message is None:
            raise
        return AnswerCallback(message, alert=True)
    flow = ctx.service.load_flow(ctx.chat_id, key)
    asked = flow is not None and flow.kind == ASK_KIND  # the record asked a question of its own under the same key
    if not asked:
        ctx.service.finish_flow(ctx.chat_id, key)
    effects = effects_of(result)
    posted = next((e for e in effects if isinstance(e, SendText)), None)
    if posted is not None and posted.asks and posted.posted_as:  # a question (a repeat held back) in its place:
        ctx.bot.handle_posted(ctx.chat_id, posted.posted_as, edit_message_id)  # kept with its message, as if sent
    # booked, or asked about (the group's rules want more, or it repeats the previous record): only a booking
    # is 「记好了」; a question speaks for itself
    asks = any(isinstance(effect, SendText) and effect.asks for effect in effects)
    return [AnswerCallback("" if asks else ctx.t("flow_recorded")), *_as_edit(effects, edit_message_id)]


def _as_edit(effects: list[Any], message_id: int) -> list[Effect]:
    """The booking's reply in place of the question; any other effect as it is."""
    out: list[Effect] = []
    for effect in effects:
        if isinstance(effect, SendText) and not any(isinstance(e, SendText) for e in out):
            out.append(SendText(effect.text, buttons=effect.buttons, edit_message_id=message_id))
        else:
            out.append(effect)
    return out
