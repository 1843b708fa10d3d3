"""The picker's live preview: what booking the tapped hand would do, from the same scoring core, writing nothing.

The tapped hand is written as the line a player would type (`lines.win_line`), read back by the chat grammar
and turned into the scoring event by the very functions the 胡 command uses, then scored together with the
hand's events so far. So the preview's patterns, multiple and payments are what 「记账」 books, not a second
opinion. While fewer than 14 tiles are placed it says how many are missing, and with 13 placed what they wait on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.commands._common import money
from bot.commands._recording import win_of
from bot.core import Refusal
from bot.grammar import GrammarError, parse_win
from bot.texts import describe_patterns, pattern_name, scoring_refusal, text
from bot.webapp.lines import MAX_CONCEALED, TappedWin, win_line
from ledger.events import payload
from ledger.hands import build_request
from ledger.scoring import ScoringError
from ledger.scoring import answer as scored
from ledger.scoring.kawuxing import Hand, Meld, ready
from ledger.scoring.tiles import parse_tile, suit_of, tile_notation

if TYPE_CHECKING:
    from ledger.service import TableInfo


def waits(win: TappedWin, suits: Sequence[str]) -> list[str]:
    """The tiles 13 placed tiles wait on (听牌), within the table's suits and the dragons."""
    concealed = tuple(parse_tile(tile) for tile in win.concealed)
    melds = tuple(Meld(kind, parse_tile(tile)) for kind, tile in win.melds)
    hand = Hand(concealed=concealed, melds=melds, win_tile=concealed[0], method="self_draw")
    return [tile_notation(t) for t in ready(hand) if suit_of(t) == "z" or suit_of(t) in suits]


def event_of(line: str, words: Mapping[str, str]) -> dict[str, Any]:
    """The scoring `hu` event the 胡 command makes of `line` (the grammar and `win_of`, as for a chat line)."""
    seat_of = {word.casefold(): seat for seat, word in words.items() if word}
    args = line.split(" ", 1)[1]
    try:
        specs = parse_win(args, None, lambda token: seat_of.get(token.casefold()))
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    return payload(win_of(specs[0]))


def preview(
    win: TappedWin,
    table: TableInfo,
    events: Sequence[Mapping[str, Any]],
    dealer: str | None,
    words: Mapping[str, str],
    *,
    lang: str,
    currency: str,
) -> dict[str, Any]:
    """The preview's JSON: `complete`, `count`, and either `missing`/`waits` or the line, patterns, multiples
    and payments (or `error`, the refusal booking would meet)."""
    out: dict[str, Any] = {"count": win.count, "complete": win.win_tile is not None}
    if win.win_tile is None:
        out["missing"] = MAX_CONCEALED - win.count
        if out["missing"] == 1:
            out["waits"] = waits(win, tuple(table.rules.get("suits", ("p", "s"))))
        return out
    try:
        out["line"] = win_line(win, words)
        event = event_of(out["line"], words)
    except Refusal as refusal:
        return {**out, "ok": False, "error": text(lang, refusal.key, **refusal.params)}
    request = build_request(table.game, table.rules, table.base, table.players, dealer, [*events, event])
    try:
        answer = scored(request)
    except ScoringError as err:
        return {**out, "ok": False, "error": scoring_refusal(lang, err)}
    hand = next(h for h in answer["hands"] if h["winner"] == win.winner)
    ours = len(events)  # the index of the win among the hand's events: its payments are the ones it causes
    payments = [t for t in answer["transfers"] if t.get("event") == ours]
    return {
        **out,
        "ok": True,
        "patterns": [{"name": pattern_name(lang, p["key"]), "multiplier": p["multiplier"]} for p in hand["patterns"]],
        "summary": describe_patterns(lang, hand["patterns"]),
        "multiplier": hand["multiplier"],
        "final_multiplier": hand["final_multiplier"],
        "baohu": hand["from"] if hand.get("baohu") else None,
        "payments": [
            {"from": t["from"], "to": t["to"], "amount": t["amount"], "shown": money(t["amount"], currency)}
            for t in payments
        ],
    }
