"""`paiju export --db URL --format json|csv [--chat ID] [--since T] [--until T]`: the ledger as data.

JSON (the design.md contract): `{"hands": [...], "transfers": [{"from", "to", "amount", "reason", "hand",
"voided", "kind", ...}], "balances": {"<name>": amount, ..., "pot": amount}, "results": {...}}`. Names are
members' display names (in the console: the name typed before the colon; a second member of a group with the
same name gets a #2); the pot is "pot". `balances` counts live transfers only, summed by name over the exported
groups, and sums to zero: after payments (`"kind": "payment"`) it is what is owed now (未结). `results` (added
with payments) is the same without payments: what each won or lost (总输赢); it also sums to zero and has every
name `balances` has. CSV: one row per transfer, the same fields first; a text cell starting with `= + - @`, a tab
or a CR is written with a leading `'` (a spreadsheet would run it as a formula).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import IO, Any, TextIO

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import db
from ledger import models as m
from ledger.dbcli import DB_HELP
from ledger.scope import Scope, rows_of

CSV_FIELDS = ["from", "to", "amount", "reason", "hand", "voided", "kind", "chat", "created_at", "id"]


def _when(value: str) -> datetime:
    """An ISO date or datetime; without an offset it is read as UTC."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f"不是 ISO 日期/时间：{value!r}") from err
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def export(
    session: Session, chat_id: int | None = None, since: datetime | None = None, until: datetime | None = None
) -> dict[str, Any]:
    """Hands, transfers and live balances of every group (or one chat): the nights started in [since, until),
    whole, and the money booked in it outside any night (`ledger.scope`'s rule; no bounds: everything)."""
    query = sa.select(m.Group).order_by(m.Group.id)
    if chat_id is not None:
        query = query.where(m.Group.chat_id == chat_id)
    groups = list(session.scalars(query))
    return _export(session, groups, [Scope(group.id, since=since, until=until) for group in groups])


def export_scope(session: Session, scope: Scope) -> dict[str, Any]:
    """The same for one group and one scope (a night: its hands and the money booked for it)."""
    return _export(session, [session.get_one(m.Group, scope.group_id)], [scope])


def _names(members: Iterable[m.Member]) -> dict[int, str]:
    """Each account's name in the export: the pot "pot", the house "house", a member their display name — made
    distinct within the group (the later of two members called 老王 is 老王#2), so two people's money is never
    summed as one."""
    taken: dict[int, set[str]] = defaultdict(lambda: {"pot", "house"})
    names: dict[int, str] = {}
    for member in members:
        if member.kind in (m.POT, m.HOUSE):
            names[member.id] = "pot" if member.kind == m.POT else "house"
            continue
        name, n = member.display_name, 1
        while name in taken[member.group_id]:
            n += 1
            name = f"{member.display_name}#{n}"
        taken[member.group_id].add(name)
        names[member.id] = name
    return names


def _export(session: Session, groups: list[m.Group], scopes: list[Scope]) -> dict[str, Any]:
    chats = {group.id: group.chat_id for group in groups}
    names = _names(session.scalars(sa.select(m.Member).where(m.Member.group_id.in_(chats)).order_by(m.Member.id)))
    hands: list[dict[str, Any]] = []
    transfers: list[dict[str, Any]] = []
    for scope in scopes:
        rows = rows_of(session, scope)
        events: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for hand_id, payload in session.execute(
            sa.select(m.HandEvent.hand_id, m.HandEvent.payload)
            .where(m.HandEvent.hand_id.in_(sa.select(m.Hand.id).where(rows.hands)))
            .where(m.HandEvent.voided_at.is_(None))
            .order_by(m.HandEvent.id)
        ):
            events[hand_id].append(payload)
        chat = chats[scope.group_id]
        hands.extend(
            _hand(hand, chat, events[hand.id]) for hand in session.scalars(sa.select(m.Hand).where(rows.hands))
        )
        transfers.extend(
            _transfer(transfer, chat, names)
            for transfer in session.scalars(sa.select(m.Transfer).where(rows.transfers))
        )
    hands.sort(key=lambda hand: hand["id"])
    transfers.sort(key=lambda transfer: transfer["id"])
    balances: dict[str, int] = {}
    for transfer in transfers:
        if not transfer["voided"]:
            balances[transfer["from"]] = balances.get(transfer["from"], 0) - transfer["amount"]
            balances[transfer["to"]] = balances.get(transfer["to"], 0) + transfer["amount"]
    balances.setdefault("pot", 0)
    results: dict[str, int] = {}
    for transfer in transfers:
        if not transfer["voided"] and transfer["kind"] != m.PAYMENT:
            results[transfer["from"]] = results.get(transfer["from"], 0) - transfer["amount"]
            results[transfer["to"]] = results.get(transfer["to"], 0) + transfer["amount"]
    for name in balances:
        results.setdefault(name, 0)
    return {"hands": hands, "transfers": transfers, "balances": balances, "results": results}


def _transfer(transfer: m.Transfer, chat_id: int, names: dict[int, str]) -> dict[str, Any]:
    return {
        "from": names[transfer.payer_id],
        "to": names[transfer.payee_id],
        "amount": transfer.amount,
        "reason": transfer.reason,
        "hand": transfer.hand_id,
        "voided": transfer.voided_at is not None,
        "kind": transfer.kind,
        "chat": chat_id,
        "created_at": transfer.created_at.isoformat(),
        "id": transfer.id,
    }


def _hand(hand: m.Hand, chat_id: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": hand.id,
        "chat": chat_id,
        "table": hand.table_id,
        "number": hand.number,
        "dealer": hand.dealer,
        "status": hand.status,
        "events": events,
        "patterns": (hand.answer or {}).get("hands", []),
        "created_at": hand.created_at.isoformat(),
        "closed_at": hand.closed_at.isoformat() if hand.closed_at else None,
        "voided_at": hand.voided_at.isoformat() if hand.voided_at else None,
        "void_reason": hand.void_reason,
        "replaces": hand.replaces_id,
    }


#: what a spreadsheet reads as the start of a formula (or a cell jump) when a text cell begins with it
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula (a member named `=HYPERLINK(…)`) gets a leading `'`,
    which spreadsheets show as text; numbers and every other text stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(transfers: list[dict[str, Any]], out: IO[str]) -> None:
    """The transfers as CSV (RFC 4180: CRLF line ends, so a cell holding a lone CR is quoted, not read as a row
    break), text cells made spreadsheet-safe; JSON carries names exactly as stored."""
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for row in transfers:
        cells = {**row, "hand": "" if row["hand"] is None else row["hand"], "voided": str(row["voided"]).lower()}
        writer.writerow({key: spreadsheet_safe(value) for key, value in cells.items()})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju export", description="导出账本 / export the ledger")
    parser.add_argument("--db", default=None, help=DB_HELP)
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.add_argument("--chat", type=int, default=None, help="only this chat id")
    parser.add_argument(
        "--since", type=_when, default=None, help="nights started from this ISO date/time on (UTC unless given)"
    )
    parser.add_argument("--until", type=_when, default=None, help="nights started before this ISO date/time")
    parser.add_argument("--output", "-o", default=None, help="write here instead of stdout")
    args = parser.parse_args(argv)
    engine = db.make_engine(db.existing(db.database_url(args.db)))
    try:
        if db.current_revision(engine) is None:
            print("paiju export: 数据库还没有初始化（先运行 paiju db upgrade）", file=sys.stderr)
            return 1
        with db.session_factories(engine)[1].begin() as session:
            data = export(session, args.chat, args.since, args.until)
    finally:
        engine.dispose()
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as out:
            _write(data, args.format, out)
    else:
        _write(data, args.format, sys.stdout)
    return 0


def _write(data: dict[str, Any], fmt: str, out: TextIO) -> None:
    if fmt == "json":
        json.dump(data, out, ensure_ascii=False, indent=1)
        out.write("\n")
    else:
        write_csv(data["transfers"], out)
