"""`paiju export` and `paiju db upgrade` as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger import db
from ledger.service import Ledger
from paiju.cli import main as paiju

from .helpers import CHAT, hu, seat_kawuxing


def run_paiju(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paiju", *args], capture_output=True, text=True, timeout=120)


def book_a_night(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="e:1", by=1)
    ledger.record_hand(table.id, [hu("B", "self_draw")], source="e:2", by=1)
    ledger.undo(table.id, source="e:3", by=1)  # voids the second hand
    ledger.fine(table.seats[0].member_id, 300, "刷屏", source="e:4", by=None)
    other = -999
    ledger.fine(ledger.member(other, 5, "Z").id, 50, "别的群", source="e:5", by=None)


def test_export_json_has_hands_transfers_and_zero_sum_live_balances(ledger: Ledger, db_url: str) -> None:
    book_a_night(ledger)
    done = run_paiju("export", "--db", db_url, "--format", "json", "--chat", str(CHAT))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"hands", "transfers", "balances"}
    assert [(h["number"], h["status"]) for h in data["hands"]] == [(1, "closed"), (2, "voided")]
    assert data["hands"][0]["patterns"][0]["winner"] == "C"
    first = data["transfers"][0]
    assert {"from", "to", "amount", "reason", "hand", "voided"} <= set(first)
    assert (first["from"], first["to"], first["amount"], first["hand"]) == ("A", "C", 200, data["hands"][0]["id"])
    assert [t["voided"] for t in data["transfers"]].count(True) == 2
    assert data["balances"] == {"A": -500, "B": -200, "C": 400, "pot": 300}
    assert sum(data["balances"].values()) == 0
    everything = json.loads(run_paiju("export", "--db", db_url).stdout)
    assert everything["balances"]["pot"] == 350 and everything["balances"]["Z"] == -50


def test_export_csv_lists_transfers(ledger: Ledger, db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    book_a_night(ledger)
    assert paiju(["export", "--db", db_url, "--format", "csv", "--chat", str(CHAT)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 5
    assert list(rows[0])[:6] == ["from", "to", "amount", "reason", "hand", "voided"]
    assert rows[-1]["to"] == "pot" and rows[-1]["amount"] == "300" and rows[-1]["hand"] == ""
    assert [r["voided"] for r in rows] == ["false", "false", "true", "true", "false"]


def test_export_period_narrows_to_transfers_booked_in_it(ledger: Ledger, db_url: str, clock, tmp_path: Path) -> None:
    book_a_night(ledger)
    clock.advance(days=2)
    ledger.fine(ledger.member(CHAT, 1000, "A").id, 20, "later", source="e:later", by=None)
    out = tmp_path / "later.json"
    since = clock().isoformat()
    assert paiju(["export", "--db", db_url, "--since", since, "-o", str(out), "--chat", str(CHAT)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["hands"] == [] and data["balances"] == {"A": -20, "pot": 20}


def test_db_upgrade_creates_a_database_and_export_refuses_an_unmigrated_one(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    refused = run_paiju("export", "--db", str(path))
    assert refused.returncode == 1 and "paiju db upgrade" in refused.stderr
    done = run_paiju("db", "upgrade", "--db", str(path))
    assert done.returncode == 0, done.stderr
    engine = db.make_engine(str(path))
    assert db.current_revision(engine) == db.head_revision()
    engine.dispose()
    assert "head" in run_paiju("db", "current", "--db", str(path)).stdout
    empty = json.loads(run_paiju("export", "--db", str(path)).stdout)
    assert empty == {"hands": [], "transfers": [], "balances": {"pot": 0}}
