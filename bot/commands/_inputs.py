"""What regional rules make players tell before a hand is booked (漂, 数坎, 跑恰摸八, 买马, 查大叫), and the
questions that ask for it.

The scoring core says what a finished hand lacks (`missing_inputs`); nothing here decides it. A record being
asked about is a batch of events (the scoring contract's JSON) and the answers given so far, a list kept beside
it (`complete` puts them in). `pending` is what is still missing, `question` renders the next question with its
buttons, `press` applies a tap, `answer` a typed answer. Each button names the input it answers (`k0.2`: 坎 of the
batch's event 0 is 2), so a tap on an old question, or a second tap, answers nothing twice. The typed records'
questions (`regional.py`) and the 胡 button flow (`flows.py`) share all of it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.commands import _regional_texts  # noqa: F401  (registers the texts)
from bot.commands._recording import FLOW_PATTERNS, mark, toggle
from bot.core import AnswerCallback, Button, Context, Refusal
from bot.permissions import guest_seat, require_own_piao
from bot.texts import pattern_name, tile_name
from bot.vocabulary import DRAGON_NAMES_EN
from ledger.events import Payload
from ledger.hands import build_request, refuse_unbookable
from ledger.scoring.kawuxing import Rules, missing_inputs, settle
from ledger.scoring.kawuxing.rules import PIAO_CHOSEN, rules_from_request
from ledger.scoring.kawuxing.settle import MAX_COUNTS, events_from_json
from ledger.service import TableInfo

#: one answer: `{"input": "kan", "event": 0, "value": 2}` (an input of the batch's event) or `{"input": "piao",
#: "player": "乙", "value": 1}`; 查大叫's `{"input": "ready", "event": 0, "value": {player: hand}}`
Answer = dict[str, Any]
#: a missing input as the core lists it, its `event` an index into the batch
Need = dict[str, Any]
ButtonOf = Callable[[str, str], Button]

#: 漂 a button offers (more is typed: 漂 8); counts offered for 坎 and 恰, and for 八
PIAO_BUTTONS = (0, 1, 2, 3, 4, 5)
COUNT_BUTTONS = {"kan": 5, "qia": 5, "ba": 7}
#: button codes of the inputs (`k0.2`): one letter, then the event's index in the batch or the player's seat
CODES = {"piao": "p", "kan": "k", "qia": "a", "ba": "b", "ma": "m", "ready": "y"}


#: the 坎 and 恰 a seven-pairs hand holds: one per four of a kind among its pairs (a pair is no triplet)
SEVEN_PAIRS_FOURS = {"qidui": (0, 0), "longqidui": (1, 1), "shuanglongqidui": (2, 3)}


def count_bounds(event: Payload, key: str) -> tuple[int, int]:
    """The least and most of a count (`kan`, `qia`, `ba`) the win `event`, named by its patterns, can hold."""
    patterns = (event.get("hand") or {}).get("patterns") or ()
    if key in ("kan", "qia"):
        for pattern, bounds in SEVEN_PAIRS_FOURS.items():
            if pattern in patterns:
                return bounds
    return 0, MAX_COUNTS[key]


def determined_counts(table: TableInfo, batch: Sequence[Payload]) -> list[Answer]:
    """The counts the batch's wins leave no choice of (a 七对 holds 0 坎, a 龙七对 1): answered, not asked."""
    rules = table_rules(table)
    played = {"kan": rules.shukan, "qia": rules.paoqiamoba}
    out: list[Answer] = []
    for index, event in enumerate(batch):
        if event.get("type") != "hu" or (event.get("hand") or {}).get("patterns") is None:
            continue
        for key, is_played in played.items():
            least, most = count_bounds(event, key)
            if is_played and event.get(key) is None and least == most:
                out.append({"input": key, "player": event["winner"], "event": index, "value": least})
    return out


def impossible_count(events: Sequence[Payload]) -> tuple[str, int, str, str] | None:
    """(input, value, pattern, what it can be) of a count a win named by its patterns cannot hold."""
    for event in events:
        patterns = (event.get("hand") or {}).get("patterns") or ()
        pattern = next((p for p in SEVEN_PAIRS_FOURS if p in patterns), None)
        if event.get("type") != "hu" or pattern is None:
            continue
        least, most = SEVEN_PAIRS_FOURS[pattern]
        for key in ("kan", "qia"):
            value = event.get(key)
            if value is not None and not least <= value <= most:
                return key, value, pattern, str(least) if least == most else f"{least}–{most}"
    return None


def table_rules(table: TableInfo) -> Rules:
    """The scoring core's rules of a 卡五星 table (its snapshot)."""
    return _rules(json.dumps(table.rules, sort_keys=True) if table.rules else "")


@functools.lru_cache(maxsize=256)
def _rules(snapshot: str) -> Rules:
    """A rules snapshot (canonical JSON, "" for none) read once: a record reads its table's rules twice before it
    books, and the next record reads the same (`Rules` is frozen; a changed snapshot is another key)."""
    return rules_from_request(json.loads(snapshot) if snapshot else None)


def asks_anything(rules: Rules) -> bool:
    """Whether these rules ever make players tell something per hand (else no question is ever worked out)."""
    return rules.piao in PIAO_CHOSEN or rules.maima != "none" or rules.shukan or rules.paoqiamoba or rules.chadajiao


def complete(batch: Sequence[Payload], answers: Sequence[Answer]) -> list[Payload]:
    """The batch with the answers in it: 漂 as `piao` events before it, the others as fields of their event."""
    events = [dict(event) for event in batch]
    piao: list[Payload] = []
    for answer in answers:
        if answer["input"] == "piao":
            piao.append({"type": "piao", "player": answer["player"], "amount": answer["value"]})
        else:
            events[answer["event"]][answer["input"]] = answer["value"]
    return piao + events


def _request(table: TableInfo, events: Sequence[Payload]) -> dict[str, Any]:
    return build_request(table.game, table.rules, table.base, table.players, None, events)


def pending(
    table: TableInfo, before: Sequence[Payload], batch: Sequence[Payload], answers: Sequence[Answer]
) -> list[Need]:
    """What the batch, recorded after the hand's events `before` with these answers, still lacks (the core's
    `missing_inputs`, event indices into `batch`). Raises `ScoringError` for a batch the core cannot read."""
    done = complete(batch, answers)
    shift = len(before) + len(done) - len(batch)
    return [
        {**need, "event": need["event"] - shift} if "event" in need else need
        for need in missing_inputs(_request(table, [*before, *done]))
    ]


def check_scorable(
    table: TableInfo,
    before: Sequence[Payload],
    batch: Sequence[Payload],
    answers: Sequence[Answer],
    needs: Sequence[Need],
) -> None:
    """Refuse now what no answer could make bookable (a 屁胡 on a discard, a tile hand that is no win …): the
    hand is scored with stand-ins for what is still missing (漂 0, counts 0, the first tile as 马, each 亮倒
    player ready with a plain hand). Raises `ScoringError`."""
    rules = table_rules(table)
    stand_ins: list[Answer] = []
    declared = {str(e["player"]) for e in [*before, *batch] if e.get("type") == "liangdao"}
    for need in needs:
        key = need["input"]
        value: Any = 0
        if key == "ma":
            value = f"1{rules.suits[0]}"
        elif key == "ready":
            value = {player: {"patterns": []} for player in sorted(declared)}
        stand_ins.append({**need, "value": value})
    events = [*before, *complete(batch, [*answers, *stand_ins])]
    refuse_unbookable(table.game, events, range(len(before), len(events)))  # as booking it will
    request = _request(table, events)
    settle(table.players, events_from_json(request["events"], rules), rules, base=table.base)


def fifth_ma(events: Sequence[Payload], before: Sequence[Payload] = ()) -> tuple[str, str, str | None] | None:
    """(winner, tile, whose kong) of a win whose 马 tile is already visible four times: in the winner's own typed
    tiles, melds included (whose kong: None), or in a kong of that tile recorded in the hand (`before`, then the
    events before the win) by any player — no fifth copy can be turned. A hand named by its patterns shows no
    tiles of its own; its winner's kongs count as anyone's."""
    from ledger.scoring.tiles import parse_tiles

    recorded = [*before]
    for event in events:
        hand = event.get("hand") or {}
        if event.get("type") != "hu" or event.get("ma") is None:
            recorded.append(event)
            continue
        tile = parse_tiles(event["ma"])[0]
        typed = hand.get("concealed") is not None
        if typed:
            held = parse_tiles(f"{hand['concealed']}{hand['win_tile']}")
            for meld in hand.get("melds", ()):
                held += parse_tiles(meld["tile"]) * (3 if meld["kind"] == "peng" else 4)
            if held.count(tile) >= 4:
                return str(event["winner"]), str(event["ma"]), None
        for kong in recorded:
            if kong.get("type") != "gang" or not kong.get("tile") or parse_tiles(kong["tile"])[0] != tile:
                continue
            if not (typed and kong.get("player") == event["winner"]):  # the winner's own: among his melds above
                return str(event["winner"]), str(event["ma"]), str(kong["player"])
    return None


def refuse_impossible(ctx: Context, before: Sequence[Payload], events: Sequence[Payload]) -> None:
    """Refuse what no hand can hold, though the core would book it: a 马 tile already visible four times (the
    winner's typed hand, a kong of the hand), a 坎 or 恰 count a seven-pairs hand cannot have. The typed records'
    questions and the 胡 button flow check the same."""
    found = fifth_ma(events, before)
    if found is not None:
        winner, tile, kong = found
        shown = tile_name(ctx.lang, tile).strip()
        if kong is None:
            raise Refusal("ma_fifth_copy", name=winner, tile=shown)
        raise Refusal("ma_fifth_copy_kong", name=kong, tile=shown)
    count = impossible_count(events)
    if count is not None:
        key, value, pattern, allowed = count
        name = pattern_name(ctx.lang, pattern)
        raise Refusal("count_impossible", what=ctx.t(f"input_{key}"), value=value, pattern=name, allowed=allowed)


def carried_piao(ctx: Context, table: TableInfo, before: Sequence[Payload], batch: Sequence[Payload]) -> list[Answer]:
    """首局定漂: each player's 漂 as told at the table's first hand, for a later hand that ends without them
    (every hand's record holds its own 漂, so voiding or editing a hand never needs another's)."""
    if table_rules(table).piao != "first_hand" or table.hand_number == 1:
        return []
    told = {str(e["player"]) for e in [*before, *batch] if e.get("type") == "piao"}
    if set(table.players) <= told:
        return []
    earlier = table_piao(ctx, table)
    missing = [p for p in table.players if p not in told and p in earlier]
    return [{"input": "piao", "player": p, "value": earlier[p]} for p in missing]


def unused_piao(table: TableInfo, before: Sequence[Payload], batch: Sequence[Payload]) -> list[Answer]:
    """每局选漂 at a draw that moves no 漂 (no 查大叫): each player not told is put at 0 rather than asked — the
    core wants every 漂 of a finished hand, but no payment carries one. (首局定漂's first hand still asks: the
    table keeps that 漂.)"""
    rules = table_rules(table)
    if rules.piao != "chosen" or rules.chadajiao or not any(e.get("type") == "draw" for e in batch):
        return []
    told = {str(e["player"]) for e in [*before, *batch] if e.get("type") == "piao"}
    return [{"input": "piao", "player": p, "value": 0} for p in table.players if p not in told]


def kept_answers(hand: Sequence[Payload], batch: Sequence[Payload], needs: Sequence[Need]) -> list[Answer]:
    """What an edited or corrected record's hand (`hand`: its events as recorded) was told that the new telling
    leaves out — each player's 漂, and the same winner's 马 tile and counts (a count its new patterns still allow)
    — as the answers to what the batch would be asked again: fixing a pattern re-turns no horse."""
    piao = piao_of(hand)
    wins = {str(e["winner"]): e for e in hand if e.get("type") == "hu"}
    out: list[Answer] = []
    for need in needs:
        key = need["input"]
        if key == "piao":
            if need["player"] in piao:
                out.append({**need, "value": piao[need["player"]]})
            continue
        event = batch[need["event"]] if "event" in need else {}
        told = wins.get(str(event.get("winner")), {}).get(key)
        if told is None:
            continue
        if key in COUNT_BUTTONS:
            least, most = count_bounds(event, key)
            if not least <= told <= most:
                continue
        out.append({**need, "value": told})
    return out


def table_piao(ctx: Context, table: TableInfo) -> dict[str, int]:
    """The 漂 of the table's last finished hand (首局定漂 carries it from hand to hand)."""
    for record in ctx.service.history(ctx.chat_id, 3):
        if record.table_id == table.id:
            return piao_of(record.events)
    return {}


def piao_of(events: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each player's 漂 among a hand's events (a later one replaces an earlier)."""
    return {str(e["player"]): int(e["amount"]) for e in events if e.get("type") == "piao"}


# ----------------------------------------------------------------------------------------------- questions


def code_of(need: Need, table: TableInfo) -> str:
    """`k0`, `p1` …: the input's letter, then its event in the batch (or the player's seat)."""
    where = table.players.index(need["player"]) if need["input"] == "piao" else need["event"]
    return f"{CODES[need['input']]}{where}"


def question(
    ctx: Context,
    table: TableInfo,
    need: Need,
    state: Mapping[str, Any],
    button: ButtonOf,
    declared: Sequence[str] = (),
    batch: Sequence[Payload] = (),
) -> tuple[list[str], list[tuple[Button, ...]]]:
    """The line asking for `need` and its buttons (`button(label, action)` makes one in the caller's flow);
    `declared`: the hand's 亮倒 players (ready at a draw, whatever is tapped); `batch`: the events asked about
    (a count offers only what its win can hold)."""
    code = code_of(need, table)
    key = need["input"]
    name = need.get("player", "")
    rows: list[tuple[Button, ...]] = []
    if key == "piao":
        first = table_rules(table).piao == "first_hand"
        how = ctx.t("ask_piao_guest" if guest_seat(table, name) else "ask_piao_own", name=name)
        line = ctx.t("ask_piao_first" if first else "ask_piao", name=name, how=how)
        rows.append(tuple(button(str(n), f"q.{code}.{n}") for n in PIAO_BUTTONS))
    elif key in COUNT_BUTTONS:
        line = ctx.t(f"ask_{key}", name=name)
        least, most = count_bounds(batch[need["event"]], key) if batch else (0, MAX_COUNTS[key])
        shown = range(least, min(most + 1, least + COUNT_BUTTONS[key]))
        rows.append(tuple(button(str(n), f"q.{code}.{n}") for n in shown))
    elif key == "ma":
        line = ctx.t("ask_ma", name=name)
        rows += _tile_rows(ctx, table, code, button)
    else:
        return _ready_question(ctx, table, code, state, button, declared)
    return [line], rows


def pressing_refused(ctx: Context, table: TableInfo, action: str, needs: Sequence[Need]) -> AnswerCallback | None:
    """The alert for a question's button (`q.<code>.<value>`) answering a player's 漂 the presser may not tell
    (`permissions.require_own_piao`: nothing is kept); None for any other press."""
    code = action.split(".")[1] if action.count(".") >= 2 else ""
    need = next((n for n in needs if code_of(n, table) == code), None)
    if need is None or need["input"] != "piao":
        return None
    try:
        require_own_piao(ctx, table, [need["player"]])
    except Refusal as refusal:
        return AnswerCallback(ctx.t(refusal.key, **refusal.params), alert=True)
    return None


def _tile_rows(ctx: Context, table: TableInfo, code: str, button: ButtonOf) -> list[tuple[Button, ...]]:
    """The table's two suits, 1–5 and 6–9 a row each, then the dragons."""
    from ledger.scoring.tiles import SUIT_ZH

    rows: list[tuple[Button, ...]] = []
    for suit in table_rules(table).suits:
        label = suit if ctx.lang == "en" else SUIT_ZH[suit]
        row = [button(f"{rank}{label}", f"q.{code}.{rank}{suit}") for rank in range(1, 10)]
        rows += [tuple(row[:5]), tuple(row[5:])]
    dragons = (("5z", "白"), ("6z", "发"), ("7z", "中"))
    rows.append(
        tuple(button(DRAGON_NAMES_EN[tile] if ctx.lang == "en" else zh, f"q.{code}.{tile}") for tile, zh in dragons)
    )
    return rows


def _ready_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """查大叫's steps so far: who is picked as ready, whose patterns are asked (`at`), the patterns tapped."""
    found = state.get("ready")
    return dict(found) if isinstance(found, Mapping) else {"picked": [], "at": None, "patterns": {}}


def _ready_question(
    ctx: Context, table: TableInfo, code: str, state: Mapping[str, Any], button: ButtonOf, declared: Sequence[str]
) -> tuple[list[str], list[tuple[Button, ...]]]:
    ready = _ready_state(state)
    if ready["at"] is None:
        picked = {*ready["picked"], *declared}
        rows = [tuple(button(mark(p, p in picked), f"q.{code}.t{i}") for i, p in enumerate(table.players))]
        nobody = () if declared else (button(ctx.t("btn_nobody_ready"), f"q.{code}.0"),)
        rows.append((*nobody, button(ctx.t("btn_next"), f"q.{code}.n")))
        return [ctx.t("ask_ready_pick")], rows
    player = ready["picked"][ready["at"]]
    chosen = set(ready["patterns"].get(player, []))
    marked = [
        button(mark(pattern_name(ctx.lang, p), p in chosen), f"q.{code}.p{i}") for i, p in enumerate(FLOW_PATTERNS)
    ]
    rows = [tuple(marked[i : i + 3]) for i in range(0, len(marked), 3)]
    rows.append((button(ctx.t("btn_next"), f"q.{code}.n"),))
    return [ctx.t("ask_ready_patterns", name=player)], rows


# ------------------------------------------------------------------------------------------------- answers


def press(table: TableInfo, state: dict[str, Any], action: str, needs: Sequence[Need], declared: Sequence[str]) -> bool:
    """Apply a question's button (`q.<code>.<value>`) to `state` (its `answers`, and `ready` while 查大叫's
    steps go on). False when the button names no input still missing (an old question, a second tap)."""
    _, _, rest = action.partition(".")
    code, _, value = rest.partition(".")
    need = next((n for n in needs if code_of(n, table) == code), None)
    if need is None or not value:
        return False
    key = need["input"]
    answers: list[Answer] = state.setdefault("answers", [])
    if key == "ready":
        return _press_ready(table, state, need, value, declared)
    if key == "ma":
        if len(value) != 2 or value[1] not in (*table_rules(table).suits, "z") or not value[0].isdigit():
            return False
        answers.append({**need, "value": value})
        return True
    if not value.isdigit():
        return False
    answers.append({**need, "value": int(value)})
    return True


def _press_ready(table: TableInfo, state: dict[str, Any], need: Need, value: str, declared: Sequence[str]) -> bool:
    ready = _ready_state(state)
    picked: list[str] = list(dict.fromkeys([*declared, *ready["picked"]]))  # a 亮倒 player was ready
    patterns: dict[str, list[str]] = {p: list(k) for p, k in ready["patterns"].items()}
    if value == "0":
        if declared:
            return False
        state.setdefault("answers", []).append({**need, "value": {}})
        state.pop("ready", None)
        return True
    if ready["at"] is None and value[0] == "t" and value[1:].isdigit() and int(value[1:]) < len(table.players):
        player = table.players[int(value[1:])]
        if player in picked and player not in declared:
            picked.remove(player)
        elif player not in picked:
            picked.append(player)
    elif ready["at"] is not None and value[0] == "p" and value[1:].isdigit() and int(value[1:]) < len(FLOW_PATTERNS):
        player = picked[ready["at"]]
        toggle(patterns.setdefault(player, []), FLOW_PATTERNS[int(value[1:])])
    elif value == "n":
        at = -1 if ready["at"] is None else ready["at"]
        if at + 1 < len(picked):
            ready["at"] = at + 1
        else:
            hands = {p: {"patterns": [k for k in FLOW_PATTERNS if k in patterns.get(p, [])]} for p in picked}
            state.setdefault("answers", []).append({**need, "value": hands})
            state.pop("ready", None)
            return True
    else:
        return False
    state["ready"] = {"picked": [p for p in table.players if p in picked], "at": ready["at"], "patterns": patterns}
    return True


def answer(state: dict[str, Any], needs: Sequence[Need], key: str, values: Mapping[str | None, Any]) -> list[Need]:
    """Typed answers (`坎 2`, `漂 @乙 1`, `买马 7s`, `听 @乙 …`) to the first missing inputs of kind `key`: values
    by player (None: the first such input, whoever it is). Returns the inputs answered."""
    answered: list[Need] = []
    answers: list[Answer] = state.setdefault("answers", [])
    for need in needs:
        if need["input"] != key:
            continue
        player = need.get("player")
        if player in values:
            value = values[player]
        elif None in values and not answered:
            value = values[None]
        else:
            continue
        answers.append({**need, "value": value})
        answered.append(need)
        if key == "ready":
            state.pop("ready", None)
    return answered


def correct(state: dict[str, Any], key: str, value: Any) -> bool:
    """A typed count (`恰 0`) for an input of kind `key` answered earlier in this question: the later one
    replaces it (as a later 漂 does). False when no such answer was given here (told in the record's line, or
    not asked at all)."""
    answers: list[Answer] = state.setdefault("answers", [])
    earlier = [i for i, given in enumerate(answers) if given["input"] == key]
    if not earlier:
        return False
    answers[earlier[-1]] = {**answers[earlier[-1]], "value": value}
    return True
