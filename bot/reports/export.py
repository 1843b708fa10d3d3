"""The chat's 导出/export: the ledger's own export (`ledger.export`, the `paiju export` contract) for one group
and one period, written to a file. JSON adds a `fines` list (each fine, cancelled ones marked) next to the
contract's `hands`, `transfers` and `balances`; CSV is the contract's transfers table (fines are its rows of
kind `fine`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from ledger import models as m
from ledger.export import export, write_csv
from ledger.stats import Scope, reading

FORMATS = ("csv", "json")


@dataclass(frozen=True)
class Exported:
    path: Path
    hands: int
    transfers: int


def export_file(engine: sa.Engine, chat_id: int, scope: Scope, fmt: str, path: Path) -> Exported:
    """Write the group's hands, transfers (and fines, in JSON) of `scope` to `path` as `fmt` (csv or json)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    with reading(engine) as session:
        since, until = scope.since, scope.until
        if scope.night_id is not None:
            night = session.get_one(m.Night, scope.night_id)
            since, until = night.started_at, night.ended_at
        data: dict[str, Any] = export(session, chat_id, since, until)
        if scope.night_id is not None:  # exactly the night's tables, as the night's report counts them
            tables = set(session.scalars(sa.select(m.GameTable.id).where(m.GameTable.night_id == scope.night_id)))
            data["hands"] = [hand for hand in data["hands"] if hand["table"] in tables]
    data["fines"] = [
        {key: row[key] for key in ("id", "from", "amount", "reason", "voided", "created_at")}
        for row in data["transfers"]
        if row["kind"] == m.FINE
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as out:
        if fmt == "json":
            json.dump(data, out, ensure_ascii=False, indent=1)
            out.write("\n")
        else:
            write_csv(data["transfers"], out)
    return Exported(path, len(data["hands"]), len(data["transfers"]))
