"""`paiju export` and `paiju db upgrade` as a user runs them."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ledger import db
from ledger.service import Ledger, LedgerError
from paiju.cli import main as paiju

from .helpers import CHAT, hu, seat_kawuxing


def run_paiju(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "paiju", *args], capture_output=True, text=True, timeout=120)


def book_a_night(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="e:1", by=1)
    second = ledger.record_hand(table.id, [hu("B", "self_draw")], source="e:2", by=1)
    ledger.void_hand(second.hand_id, source="e:3", by=1)
    ledger.fine(table.seats[0].member_id, 300, "刷屏", source="e:4", by=None)
    other = -999
    ledger.fine(ledger.member(other, 5, "Z").id, 50, "别的群", source="e:5", by=None)


def test_export_json_has_hands_transfers_and_zero_sum_live_balances(ledger: Ledger, db_url: str) -> None:
    book_a_night(ledger)
    done = run_paiju("export", "--db", db_url, "--format", "json", "--chat", str(CHAT))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"hands", "transfers", "balances", "results"}
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


def test_export_period_narrows_to_its_nights_and_the_money_booked_in_it_outside_them(
    ledger: Ledger, db_url: str, clock, tmp_path: Path
) -> None:
    book_a_night(ledger)
    ledger.end_night(CHAT, source="e:settle", by=1)
    clock.advance(days=2)
    ledger.fine(ledger.member(CHAT, 1000, "A").id, 20, "later", source="e:later", by=None)  # no night open
    out = tmp_path / "later.json"
    since = clock().isoformat()
    assert paiju(["export", "--db", db_url, "--since", since, "-o", str(out), "--chat", str(CHAT)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["hands"] == [] and data["balances"] == {"A": -20, "pot": 20}
    before = json.loads(run_paiju("export", "--db", db_url, "--until", since, "--chat", str(CHAT)).stdout)
    assert len(before["hands"]) == 2 and before["balances"] == {"A": -500, "B": -200, "C": 400, "pot": 300}


def test_a_hand_edited_days_later_is_exported_with_its_night(
    ledger: Ledger, db_url: str, clock, tmp_path: Path
) -> None:
    """The new hand of an edit sits at the old night's table: a period export keeps it with its night (and its
    money with the night's settlement), instead of moving the money to the day the edit was typed. An edit after
    the night was settled is refused: the settled night stays as it was."""
    clock.set(datetime(2026, 1, 31, 13, 0, tzinfo=UTC))  # 21:00 on 31 January in Hubei
    table = seat_kawuxing(ledger)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="tg:1:1", by=1)
    clock.set(datetime(2026, 1, 31, 14, 0, tzinfo=UTC))
    ledger.replace_hand("tg:1:1", [hu("C", "discard", "B")], source="tg:1:1:e1", by=1)
    night = ledger.end_night(CHAT, source="tg:1:2", by=1).night
    clock.set(datetime(2026, 2, 3, 13, 0, tzinfo=UTC))
    with pytest.raises(LedgerError) as closed:
        ledger.replace_hand("tg:1:1", [hu("C", "discard", "A")], source="tg:1:1:e2", by=1)
    assert closed.value.code == "night_closed"
    january = _export_json(db_url, tmp_path, "2026-01-01T00:00+08:00", "2026-02-01T06:00+08:00")
    february = _export_json(db_url, tmp_path, "2026-02-01T06:00+08:00", "2026-03-01T06:00+08:00")
    assert [(h["status"], h["replaces"] is not None) for h in january["hands"]] == [("voided", False), ("closed", True)]
    names = {line.member_id: line.name for line in ledger.balances(CHAT).lines}
    settled = {names[line.member_id]: line.amount for line in ledger.night_balances(night.id).lines}
    assert {name: amount for name, amount in january["balances"].items() if amount} == settled == {"B": -200, "C": 200}
    assert february == {"hands": [], "transfers": [], "balances": {"pot": 0}, "results": {"pot": 0}}


def _export_json(db_url: str, tmp_path: Path, since: str, until: str) -> dict[str, Any]:
    out = tmp_path / f"export-{since[:10]}.json"
    argv = ["export", "--db", db_url, "--chat", str(CHAT), "--since", since, "--until", until, "-o", str(out)]
    assert paiju(argv) == 0
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def test_db_upgrade_creates_a_database_and_export_refuses_an_unmigrated_one(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    missing = run_paiju("export", "--db", str(path))  # a read never creates the file
    assert missing.returncode == 2 and "paiju db upgrade" in missing.stderr and not path.exists()
    path.touch()
    refused = run_paiju("export", "--db", str(path))
    assert refused.returncode == 1 and "paiju db upgrade" in refused.stderr
    done = run_paiju("db", "upgrade", "--db", str(path))
    assert done.returncode == 0, done.stderr
    engine = db.make_engine(str(path))
    assert db.current_revision(engine) == db.head_revision()
    engine.dispose()
    assert "head" in run_paiju("db", "current", "--db", str(path)).stdout
    empty = json.loads(run_paiju("export", "--db", str(path)).stdout)
    assert empty == {"hands": [], "transfers": [], "balances": {"pot": 0}, "results": {"pot": 0}}


FORMULAS = ['=HYPERLINK("http://evil","x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]


@pytest.mark.parametrize("name", FORMULAS)
def test_csv_cells_a_spreadsheet_would_run_are_neutralised_json_is_not(
    ledger: Ledger, db_url: str, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """A member named like a formula (and a fine's reason) reads as text in a spreadsheet; numbers, the negative
    chat id included, stay numbers, and JSON keeps every name exactly as stored."""
    member = ledger.member(CHAT, 77, name)  # (a display name's tab or CR is folded to nothing on the way in)
    ledger.fine(member.id, 100, name, source="e:formula", by=None)
    assert paiju(["export", "--db", db_url, "--format", "csv", "--chat", str(CHAT)]) == 0
    [row] = list(csv.DictReader(io.StringIO(capsys.readouterr().out, newline="")))
    assert row["reason"] == "'" + name
    assert not row["from"].startswith(("=", "+", "-", "@", "\t", "\r"))
    assert (row["amount"], row["chat"]) == ("100", str(CHAT))  # -1001234567890: a number, left alone
    assert paiju(["export", "--db", db_url, "--format", "json", "--chat", str(CHAT)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["transfers"][0]["reason"] == name


def test_two_members_with_one_display_name_are_two_accounts_in_the_export(ledger: Ledger, db_url: str) -> None:
    """Two members both called 老王 (seated 老王 and 老王#2): the export keeps their money apart — the later one is
    老王#2 — and every name still sums to zero."""
    table = seat_kawuxing(ledger, names=("老王", "老王", "C"))
    winner = table.seats[1].name
    ledger.record_hand(table.id, [hu(winner, "self_draw")], source="e:1", by=1)
    data = json.loads(run_paiju("export", "--db", db_url, "--format", "json", "--chat", str(CHAT)).stdout)
    assert data["balances"] == {"老王": -200, "老王#2": 400, "C": -200, "pot": 0}
    assert data["results"] == data["balances"]
