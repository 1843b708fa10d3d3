"""`paiju export --db URL --format json|csv [--chat ID] [--since T] [--until T]`: the ledger as data.

JSON (the design.md contract): `{"hands": [...], "transfers": [{"from", "to", "amount", "reason", "hand",
"voided", ...}], "balances": {"<name>": amount, ..., "pot": amount}}`. Names are members' display names (in the
console: the name typed before the colon); the pot is "pot". `balances` counts live transfers only, summed by
name over the exported groups, and sums to zero. CSV: one row per transfer, the same fields first.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import db
from ledger import models as m
from ledger.dbcli import default_url

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
    """Hands, transfers and live balances of every group (or one chat) booked in [since, until)."""
    groups = {g.id: g for g in session.scalars(sa.select(m.Group).order_by(m.Group.id))}
    if chat_id is not None:
        groups = {gid: g for gid, g in groups.items() if g.chat_id == chat_id}
    names = {
        member.id: ("pot" if member.kind == m.POT else member.display_name)
        for member in session.scalars(sa.select(m.Member).where(m.Member.group_id.in_(groups)))
    }
    hands_query = (
        sa.select(m.Hand)
        .where(m.Hand.group_id.in_(groups), *_period(m.Hand.created_at, since, until))
        .order_by(m.Hand.id)
    )
    transfers_query = (
        sa.select(m.Transfer)
        .where(m.Transfer.group_id.in_(groups), *_period(m.Transfer.created_at, since, until))
        .order_by(m.Transfer.id)
    )
    hands = [_hand(session, hand, groups[hand.group_id].chat_id) for hand in session.scalars(hands_query)]
    transfers = []
    balances: dict[str, int] = {}
    for transfer in session.scalars(transfers_query):
        payer, payee = names[transfer.payer_id], names[transfer.payee_id]
        voided = transfer.voided_at is not None
        transfers.append(
            {
                "from": payer,
                "to": payee,
                "amount": transfer.amount,
                "reason": transfer.reason,
                "hand": transfer.hand_id,
                "voided": voided,
                "kind": transfer.kind,
                "chat": groups[transfer.group_id].chat_id,
                "created_at": transfer.created_at.isoformat(),
                "id": transfer.id,
            }
        )
        if not voided:
            balances[payer] = balances.get(payer, 0) - transfer.amount
            balances[payee] = balances.get(payee, 0) + transfer.amount
    balances.setdefault("pot", 0)
    return {"hands": hands, "transfers": transfers, "balances": balances}


def _period(
    column: sa.orm.InstrumentedAttribute[datetime], since: datetime | None, until: datetime | None
) -> list[sa.ColumnElement[bool]]:
    conditions = []
    if since is not None:
        conditions.append(column >= since)
    if until is not None:
        conditions.append(column < until)
    return conditions


def _hand(session: Session, hand: m.Hand, chat_id: int) -> dict[str, Any]:
    events = session.scalars(
        sa.select(m.HandEvent)
        .where(m.HandEvent.hand_id == hand.id, m.HandEvent.voided_at.is_(None))
        .order_by(m.HandEvent.id)
    )
    return {
        "id": hand.id,
        "chat": chat_id,
        "table": hand.table_id,
        "number": hand.number,
        "dealer": hand.dealer,
        "status": hand.status,
        "events": [event.payload for event in events],
        "patterns": (hand.answer or {}).get("hands", []),
        "created_at": hand.created_at.isoformat(),
        "closed_at": hand.closed_at.isoformat() if hand.closed_at else None,
        "voided_at": hand.voided_at.isoformat() if hand.voided_at else None,
        "void_reason": hand.void_reason,
        "replaces": hand.replaces_id,
    }


def write_csv(transfers: list[dict[str, Any]], out: TextIO) -> None:
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in transfers:
        writer.writerow(
            {**row, "hand": "" if row["hand"] is None else row["hand"], "voided": str(row["voided"]).lower()}
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju export", description="导出账本 / export the ledger")
    parser.add_argument(
        "--db", default=None, help="SQLAlchemy URL or SQLite file (default $PAIJU_DB_URL or ./paiju.db)"
    )
    parser.add_argument("--format", choices=["json", "csv"], default="json")
    parser.add_argument("--chat", type=int, default=None, help="only this chat id")
    parser.add_argument("--since", type=_when, default=None, help="from this ISO date/time (UTC unless given)")
    parser.add_argument("--until", type=_when, default=None, help="before this ISO date/time")
    parser.add_argument("--output", "-o", default=None, help="write here instead of stdout")
    args = parser.parse_args(argv)
    engine = db.make_engine(args.db or default_url())
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
