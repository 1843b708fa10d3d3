"""Builders shared by the ledger tests: a seated 卡五星 table and real scoring events."""

from __future__ import annotations

from typing import Any

from ledger.service import Ledger, TableInfo

CHAT = -1001234567890
#: C waits on 5p for 卡五星 (4-6 筒 around the 5): 123p 46p 789s 22s + 碰 3s
KAWUXING_HAND = {"concealed": "123p46p789s22s", "melds": [{"kind": "peng", "tile": "3s"}], "win_tile": "5p"}


def seat_kawuxing(ledger: Ledger, chat: int = CHAT, names: tuple[str, ...] = ("A", "B", "C")) -> TableInfo:
    ledger.group(chat)
    ids = [ledger.member(chat, 1000 + i, name).id for i, name in enumerate(names)]
    return ledger.open_table(chat, ids, source=f"test:{chat}:open:{'-'.join(names)}", by=1000)


def gang(player: str, kind: str, source: str | None = None, **extra: Any) -> dict[str, Any]:
    event = {"type": "gang", "player": player, "kind": kind, **extra}
    if source is not None:
        event["from"] = source
    return event


def hu(winner: str, method: str, source: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "hu", "winner": winner, "method": method, "hand": KAWUXING_HAND}
    if source is not None:
        event["from"] = source
    return event


def money(transfers: Any) -> list[tuple[str, str, int, str]]:
    return sorted((t.payer, t.payee, t.amount, t.reason) for t in transfers)
