"""What the pages show, read through the ledger's public methods only: the board and the night, as JSON.

Amounts travel as integer 分 (`amount`) with the group's display beside them (`shown`), so the page formats no
money itself. Events are described by the bot's own describers, in the page's language.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from bot.commands._common import money
from bot.texts import describe_event, describe_win, game_name, rules_summary
from ledger.models import GROUP_ACCOUNTS

if TYPE_CHECKING:
    from ledger.service import Balances, GroupInfo, HandRecord, Ledger, TableInfo

#: the most finished hands the night page reads back (a long night has a few dozen)
NIGHT_HANDS = 200


def version_of(data: Any) -> str:
    """A short digest of a JSON value: the board's version, which changes exactly when what it shows changes."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def _amount(amount: int, currency: str) -> dict[str, Any]:
    return {"amount": amount, "shown": money(amount, currency, signed=True)}


def _amounts(balances: Balances, currency: str) -> dict[int, dict[str, Any]]:
    return {
        line.member_id: {"amount": line.amount, "shown": money(line.amount, currency, signed=True)}
        for line in balances.lines
    }


def group_view(group: GroupInfo, lang: str) -> dict[str, Any]:
    return {
        "title": group.title,
        "game": group.game,
        "game_name": game_name(lang, group.game),
        "currency": group.currency,
        "base": money(group.base, group.currency),
    }


def board(ledger: Ledger, chat_id: int, lang: str) -> dict[str, Any]:
    """The table as everyone sees it: seats (dealer, 亮倒, tonight's balance), hand number, this hand's events."""
    group = ledger.group(chat_id)
    out: dict[str, Any] = {"group": group_view(group, lang), "table": None, "night": None}
    night = ledger.current_night(chat_id)
    balances = ledger.night_balances(night.id) if night is not None else None
    if night is not None and balances is not None:
        amounts = _amounts(balances, group.currency)
        out["night"] = {
            "id": night.id,
            "date": night.night_date.isoformat(),
            "balances": [
                {"name": line.name, **amounts[line.member_id]}
                for line in balances.lines
                if line.amount or line.kind not in GROUP_ACCOUNTS
            ],
        }
    table = ledger.current_table(chat_id)
    if table is None:
        return out
    state = ledger.hand_state(table.id)  # the seats' night totals come with the events, read together
    out["table"] = {
        "id": table.id,
        "game": table.game,
        "rules": rules_summary(lang, table.game, table.rules),
        "base": money(table.base, group.currency),
        "suits": list(table.rules.get("suits", ("p", "s"))) if table.game == "kawuxing" else [],
        "hand": state.number,
        "dealer": state.dealer,
        "seats": [
            {
                "name": seat.name,
                "member_id": seat.member_id,
                "dealer": seat.name == state.dealer,
                "liangdao": seat.name in state.liangdao,
                "night": _amount(state.night_total(seat.member_id), group.currency),
            }
            for seat in table.seats
        ],
        "events": [
            {"type": event.get("type"), "text": describe_event(lang, event, table.game, state.dealer)}
            for event in state.events
        ],
        "last_is_kong": bool(state.events) and state.events[-1].get("type") == "gang",
    }
    return out


def night(ledger: Ledger, chat_id: int, lang: str) -> dict[str, Any]:
    """Tonight (or the last night played): its finished hands, balances, the fewest transfers, the chart's series."""
    group = ledger.group(chat_id)
    current = ledger.current_night(chat_id)
    hands = list(reversed(ledger.history(chat_id, NIGHT_HANDS, include_voided=True)))
    tables: dict[int, TableInfo] = {}
    for hand in hands:
        if hand.table_id not in tables:
            tables[hand.table_id] = ledger.table(hand.table_id)
    night_id = current.id if current is not None else (tables[hands[-1].table_id].night_id if hands else None)
    out: dict[str, Any] = {"group": group_view(group, lang), "night": None}
    if night_id is None:
        return out
    tonight = [hand for hand in hands if tables[hand.table_id].night_id == night_id]
    settlement = ledger.settle_night(night_id)
    amounts = _amounts(settlement.balances, group.currency)
    out["night"] = {
        "id": night_id,
        "date": current.night_date.isoformat() if current is not None else None,
        "open": current is not None,
        "hands": [_hand_view(hand, tables[hand.table_id], lang, group.currency) for hand in tonight],
        "balances": [
            {"name": line.name, **amounts[line.member_id]}
            for line in settlement.balances.lines
            if line.amount or line.kind not in GROUP_ACCOUNTS
        ],
        "settlement": [
            {"from": p.payer, "to": p.payee, "amount": p.amount, "shown": money(p.amount, group.currency)}
            for p in settlement.payments
        ],
        "series": _series(tonight, tables),
    }
    return out


def _hand_view(hand: HandRecord, table: TableInfo, lang: str, currency: str) -> dict[str, Any]:
    net = _net(hand)
    lines = (
        describe_win(lang, hand.events, {"hands": hand.patterns, "transfers": []}) if table.game == "kawuxing" else []
    )
    if not lines:
        lines = [describe_event(lang, event, table.game, hand.dealer) for event in hand.events[-1:]]
    return {
        "number": hand.number,
        "status": hand.status,
        "lines": lines,
        "net": [
            {"name": seat.name, "shown": money(net.get(seat.member_id, 0), currency, signed=True)}
            for seat in table.seats
        ],
    }


def _net(hand: HandRecord) -> dict[int, int]:
    """Each account's change in one hand, by member id."""
    net: dict[int, int] = {}
    for transfer in hand.transfers:
        net[transfer.payer_id] = net.get(transfer.payer_id, 0) - transfer.amount
        net[transfer.payee_id] = net.get(transfer.payee_id, 0) + transfer.amount
    return net


def _series(hands: list[HandRecord], tables: dict[int, TableInfo]) -> dict[str, Any]:
    """Each player's running balance (分) after each finished, not voided, hand of the night: the chart's lines."""
    players: dict[int, str] = {}
    for hand in hands:
        for seat in tables[hand.table_id].seats:
            players.setdefault(seat.member_id, seat.name)
    running = dict.fromkeys(players, 0)
    points: list[list[int]] = [[0] * len(players)]
    for hand in hands:
        if hand.status != "closed":
            continue
        for member_id, change in _net(hand).items():
            if member_id in running:
                running[member_id] += change
        points.append(list(running.values()))
    return {"names": list(players.values()), "points": points}
