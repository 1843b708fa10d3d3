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

from bot.reports.files import written
from ledger import models as m
from ledger.export import export_scope, write_csv
from ledger.scope import Scope
from ledger.stats import reading

FORMATS = ("csv", "json")


@dataclass(frozen=True)
class Exported:
    path: Path
    hands: int  # finished hands (not voided, not still open)
    transfers: int  # live transfers (not voided)


def export_file(engine: sa.Engine, scope: Scope, fmt: str, path: Path) -> Exported:
    """Write the group's hands, transfers (and fines, in JSON) of `scope` to `path` as `fmt` (csv or json):
    a night by its own rows (`ledger.scope`), so the last hand is in it however soon after it the night was
    settled. Written beside the target and renamed into place, like the pictures."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}: csv or json")
    with reading(engine) as session:
        data: dict[str, Any] = export_scope(session, scope)
    data["fines"] = [
        {key: row[key] for key in ("id", "from", "amount", "reason", "voided", "created_at")}
        for row in data["transfers"]
        if row["kind"] == m.FINE
    ]
    with written(path, binary=False) as out:
        if fmt == "json":
            json.dump(data, out, ensure_ascii=False, indent=1)
            out.write("\n")
        else:
            write_csv(data["transfers"], out)
    # the caption counts what stands, as 结算 and the statistics do: finished hands, live transfers (the file
    # itself keeps every row, an undone one marked)
    hands = sum(hand["status"] == m.CLOSED for hand in data["hands"])
    return Exported(path, hands, sum(not transfer["voided"] for transfer in data["transfers"]))
