"""Inline-keyboard flows for those who won't type: a win (winner → method → discarder → patterns → preview →
confirm) and a kong (player → kind → discarder → preview → confirm).

The state lives in the ledger's flow table, keyed by (chat, flow key), never in memory: a restart mid-flow loses
nothing. The key is the message that asked for the flow (typed 胡/杠) or, for a press on a table's buttons, a
negative number derived from the press. Button data is `<kind>:<key>:<action>` (at most 64 bytes). Only seated
players and admins may press. Confirming books with a source derived from the flow, so a double press books once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.commands._common import (
    FlowStep,
    book,
    button_index,
    current_table,
    flow_key,
    flow_source,
    flow_step,
    money,
)
from bot.commands._recording import event_reply, hand_reply, held_back_text, kong_of
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Outcome, Refusal, SendText, registry
from bot.grammar import KongSpec
from bot.permissions import plays_at
from bot.texts import chat_message, describe_event, describe_patterns, pattern_name
from ledger.events import WIN_METHODS, Event, Win, WinHand, payload
from ledger.service import DuplicateRecord, LedgerError, TableInfo

#: rows of buttons under a flow's message
Buttons = tuple[tuple[Button, ...], ...]

#: patterns offered as toggle buttons, three per row
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
#: situational flags offered for each method
FLOW_SITUATIONS = {"self_draw": ("gangshangkaihua", "haidilao"), "discard": ("gangshangpao",), "rob_kong": ()}
METHOD_CODES = {"s": "self_draw", "d": "discard", "r": "rob_kong"}
KONG_CODES = {"a": "angang", "x": "xugang", "z": "zhigang"}


def start_flow(ctx: Context, table: TableInfo, kind: str) -> SendText:
    """Open a flow: a new bot message with the first question."""
    key = flow_key(ctx)
    state: dict[str, Any] = {"table_id": table.id, "step": "who", "patterns": [], "situations": []}
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, kind, state)
    text, buttons = render(ctx, table, kind, key, state)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id)


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
    if step.action in {"ok", "rep"}:  # confirm; confirm again what the double-entry check held back
        return _confirm(ctx, step.table, kind, step.key, step.state, step.edit, repeat=step.action == "rep")
    _apply(step.table, kind, step.state, step.action)
    ctx.service.save_flow(ctx.chat_id, step.key, step.user_id, kind, step.state)
    text, buttons = render(ctx, step.table, kind, step.key, step.state)
    return SendText(text, buttons=buttons, edit_message_id=step.edit)


def _apply(table: TableInfo, kind: str, state: dict[str, Any], action: str) -> None:
    """Move the flow one step with the pressed button (unknown actions leave it as it is)."""
    players = table.players
    code, _, arg = action.partition(".")
    seat = button_index(arg, len(players))
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
        _toggle(state["patterns"], FLOW_PATTERNS[pattern])
    elif code == "s":
        offered = FLOW_SITUATIONS.get(state.get("method", ""), ())
        if (situation := button_index(arg, len(offered))) is not None:
            _toggle(state["situations"], offered[situation])
    elif code == "c":
        state["chained"] = not state.get("chained", False)
    elif code == "v":
        state["step"] = "preview"
    elif code == "b":
        state["step"] = "patterns" if kind == "hu" else "who"


def _toggle(items: list[str], item: str) -> None:
    if item in items:
        items.remove(item)
    else:
        items.append(item)


def _event(state: dict[str, Any], kind: str) -> Event:
    """The win or kong the flow's answers describe."""
    if kind == "hu":
        hand = WinHand(patterns=tuple(state["patterns"]), situations=tuple(state["situations"]))
        discarder = None if state["method"] == "self_draw" else state["from"]
        return Win(state["who"], WIN_METHODS[state["method"]], hand, discarder)
    return kong_of(KongSpec(state["who"], state["kind"], state.get("from"), None, bool(state.get("chained"))))


def _confirm(
    ctx: Context, table: TableInfo, kind: str, key: int, state: dict[str, Any], edit: int, *, repeat: bool = False
) -> Effect | list[Effect]:
    if state.get("step") != "preview":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    event = _event(state, kind)
    try:
        result, _ = book(replace(ctx, repeat=repeat), table, [event], source=flow_source(ctx, key))
    except DuplicateRecord as dup:  # someone typed it meanwhile: say who, and offer to book it anyway
        again = (Button(ctx.t("btn_repeat_yes"), f"{kind}:{key}:rep"), Button(ctx.t("btn_cancel"), f"{kind}:{key}:x"))
        return [AnswerCallback(), SendText(held_back_text(ctx, dup.previous), buttons=(again,), edit_message_id=edit)]
    except LedgerError as err:
        if err.code == "chain_without_kong":
            raise Refusal("chain_without_kong") from err
        raise
    ctx.service.finish_flow(ctx.chat_id, key)
    if result.finished:
        reply = hand_reply(ctx, table, result)
    else:
        reply = event_reply(ctx, table, result, "；".join(describe_event(ctx.lang, e) for e in result.recorded))
    return [AnswerCallback(ctx.t("flow_recorded")), SendText(reply.text, edit_message_id=edit)]


# ---------------------------------------------------------------------------------------------------- rendering


def render(ctx: Context, table: TableInfo, kind: str, key: int, state: dict[str, Any]) -> tuple[str, Buttons]:
    """The flow message for its current step: what is chosen so far, the question, the buttons."""

    def button(label: str, action: str) -> Button:
        return Button(label, f"{kind}:{key}:{action}")

    cancel = button(ctx.t("btn_cancel"), "x")
    players = table.players
    step = state["step"]
    lines = [ctx.t("flow_title_hu" if kind == "hu" else "flow_title_gang", number=table.hand_number)]
    lines += _chosen(ctx, kind, state)
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
            button(_mark(pattern_name(ctx.lang, p), p in state["patterns"]), f"p.{i}")
            for i, p in enumerate(FLOW_PATTERNS)
        ]
        rows += [tuple(marked[i : i + 3]) for i in range(0, len(marked), 3)]
        offered = FLOW_SITUATIONS[state["method"]]
        if offered:
            rows.append(
                tuple(
                    button(_mark(pattern_name(ctx.lang, s), s in state["situations"]), f"s.{i}")
                    for i, s in enumerate(offered)
                )
            )
        rows.append((button(ctx.t("btn_preview"), "v"),))
    else:
        preview, ok = _preview(ctx, table, kind, state)
        lines += preview
        controls = [button(ctx.t("btn_confirm"), "ok")] if ok else []
        if kind == "gang":
            events = ctx.service.hand_state(table.id).events
            if events and events[-1].get("type") == "gang":
                controls.append(button(_mark(ctx.t("btn_chain"), bool(state.get("chained"))), "c"))
        controls.append(button(ctx.t("btn_back"), "b"))
        rows.append(tuple(controls))
    rows.append((cancel,))
    return "\n".join(lines), tuple(rows)


def _mark(label: str, on: bool) -> str:
    return f"✓{label}" if on else label


def _chosen(ctx: Context, kind: str, state: dict[str, Any]) -> list[str]:
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
        parts.append(describe_patterns(ctx.lang, [{"key": k, "multiplier": _multiplier(k)} for k in keys]))
    return [(" | " if ctx.lang == "en" else " ｜ ").join(parts)] if parts else []


def _multiplier(key: str) -> int:
    from ledger.scoring.kawuxing.patterns import PATTERNS_BY_KEY

    return PATTERNS_BY_KEY[key].multiplier if key in PATTERNS_BY_KEY else 1


def _preview(ctx: Context, table: TableInfo, kind: str, state: dict[str, Any]) -> tuple[list[str], bool]:
    """What confirming would book, scored now on the hand so far (nothing is written)."""
    from ledger.hands import build_request
    from ledger.scoring import score

    hand = ctx.service.hand_state(table.id)
    try:
        event = payload(_event(state, kind), hand.events)
    except Refusal as refusal:
        return [ctx.t(refusal.key, **refusal.params)], False
    except LedgerError as err:  # 杠上杠 with no kong just before it
        return [ctx.t(err.code) if err.code == "chain_without_kong" else err.message], False
    events = [*hand.events, event]
    request = build_request(table.game, table.rules, table.base, table.players, hand.dealer, events)
    answer = score(request, partial=kind != "hu")
    if not answer.get("ok"):
        return [ctx.t("scoring_refused", message=chat_message(answer["error"]["message"]))], False
    lines = [ctx.t("flow_preview")]
    if kind == "hu":
        from bot.texts import describe_win

        lines += describe_win(ctx.lang, events, answer, ctx.group.currency)
    currency = ctx.group.currency
    new = [t for t in answer["transfers"] if t.get("event", len(events) - 1) >= len(hand.events)]
    for transfer in new:
        lines.append(
            ctx.t(
                "flow_payment", payer=transfer["from"], payee=transfer["to"], amount=money(transfer["amount"], currency)
            )
        )
    if not new:
        lines.append(ctx.t("flow_no_payment"))
    return lines, True
