"""`paiju db copy` (SQLite → PostgreSQL and back, one group or all, refusals) and `paiju db backup` (a restored
backup opens at head with the same balances)."""

from __future__ import annotations

import io
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.console import CONSOLE_CHAT_ID, demo_script, open_bot, run_script
from bot.core import ManualClock
from ledger import db
from ledger.dbcli import main as db_main
from ledger.maintenance import CopyError, backup_sqlite, copy_ledger
from ledger.moderation import Moderation
from ledger.payments import PAYEE_SIDE, PAYER_SIDE
from ledger.service import Ledger
from tests.conftest import PostgresSchemas
from tests.ledger.helpers import hu

OTHER_CHAT = -100555


def _fill(url: str) -> None:
    """A realistic ledger: the console's demo night (tables, kongs, wins, an edit, the settlement, a payment) in
    one group; in another a guest linked to a member who joined later, fines, the pot paid out, the night settled
    and the pot paid out again between nights (a debt passed on through it)."""
    clock = ManualClock()
    bot, ledger = open_bot(url, clock)
    run_script(demo_script(), bot, clock, io.StringIO())
    debt = ledger.debts(CONSOLE_CHAT_ID)[0]  # part of the demo night's settlement paid, and confirmed
    ledger.pay(CONSOLE_CHAT_ID, debt.debtor_id, debt.creditor_id, 100, side=PAYER_SIDE, source="o:p1", by=1)
    ledger.pay(CONSOLE_CHAT_ID, debt.debtor_id, debt.creditor_id, 100, side=PAYEE_SIDE, source="o:p2", by=2)
    ledger.group(OTHER_CHAT)
    guest = ledger.guest(OTHER_CHAT, "老王")
    first = ledger.member(OTHER_CHAT, 7, "早来的")
    table = ledger.open_table(
        OTHER_CHAT, [guest.id, first.id, ledger.member(OTHER_CHAT, 8, "乙").id], source="o:1", by=7
    )
    ledger.record_event(table.id, {"type": "gang", "player": "老王", "kind": "angang"}, source="o:2", by=7)
    later = ledger.member(OTHER_CHAT, 9, "老王本人")  # a higher id than the guest who points at it
    ledger.link_guest(guest.id, later.id, source="o:3", by=7)
    mod = Moderation(ledger, ledger.engine)
    mod.record_offence(first, "flood", "刷屏", message_id=1, source=f"tg:{OTHER_CHAT}:1")
    ledger.pay_out_pot(OTHER_CHAT, [later.id], source="o:4", by=7)
    ledger.fine(first.id, 300, "迟到", source="o:5", by=7)
    ledger.record_event(table.id, hu("乙", "self_draw"), source="o:5w", by=7)
    ledger.end_night(OTHER_CHAT, source="o:6", by=7)  # 早来的 owes the pot 3元 …
    ledger.pay_out_pot(OTHER_CHAT, {later.id: 200}, source="o:7", by=7)  # … 2元 of it now owed to 老王本人
    assert ledger.latest_settlement(OTHER_CHAT).passed  # type: ignore[union-attr]
    ledger.close()


def _state(url: str) -> dict[str, object]:
    """What a player would see, per group: balances, history, and how many rows of each table."""
    with Ledger.open(url, upgrade=False) as ledger:
        engine = ledger.engine
        with engine.connect() as connection:
            counts = {
                table: connection.scalar(sa.text(f"SELECT COUNT(*) FROM {table}"))
                for table in sa.inspect(engine).get_table_names()
                if table not in {"alembic_version", "shared_state"}
            }
        groups = [CONSOLE_CHAT_ID, OTHER_CHAT]
        return {
            "counts": counts,
            "balances": [ledger.balances(chat) for chat in groups],
            "history": [ledger.history(chat, 50) for chat in groups],
            "debts": [ledger.debts(chat) for chat in groups],
        }


@pytest.fixture(scope="module")
def _filled_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`_fill`ed once for the module (migrations and a whole demo night: seconds); each test gets a copy."""
    folder = tmp_path_factory.mktemp("filled")
    _fill(f"sqlite:///{folder / 'filled.db'}")
    with closing(sqlite3.connect(folder / "filled.db")) as source, closing(sqlite3.connect(folder / "source.db")) as to:
        source.backup(to)  # one file holding everything (the write-ahead log's pages too)
    return folder / "source.db"


@pytest.fixture
def filled_sqlite(_filled_template: Path, tmp_path: Path) -> str:
    path = tmp_path / "source.db"
    shutil.copyfile(_filled_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def pg_schemas(postgres_schemas: PostgresSchemas) -> PostgresSchemas:
    return postgres_schemas


def test_copy_sqlite_to_postgresql_and_back_keeps_everything(
    filled_sqlite: str, pg_schemas: PostgresSchemas, tmp_path: Path
) -> None:
    postgres = pg_schemas.create()
    before = _state(filled_sqlite)
    report = copy_ledger(filled_sqlite, postgres)
    assert sum(report.rows.values()) == sum(before["counts"].values())  # type: ignore[attr-defined]
    assert len(report.groups) == 2 and report.skipped == ("shared_state",)
    assert _state(postgres) == before
    with Ledger.open(postgres, upgrade=False) as ledger:  # the ids go on from the copied ones
        member = ledger.member(OTHER_CHAT, 7, "早来的")
        fine = ledger.fine(member.id, 100, "迟到", source="after:copy", by=None)
        assert fine.id > max(t.id for t in ledger.member_record(member.id).recent if t.id != fine.id)
    back = f"sqlite:///{tmp_path / 'back.db'}"
    copy_ledger(postgres, back)
    assert _state(back)["history"] == _state(postgres)["history"]
    assert _state(back)["balances"] == _state(postgres)["balances"]


def test_copy_one_group_leaves_the_others(filled_sqlite: str, tmp_path: Path) -> None:
    target = f"sqlite:///{tmp_path / 'one.db'}"
    report = copy_ledger(filled_sqlite, target, chat_id=OTHER_CHAT)
    assert list(report.groups) == [OTHER_CHAT]
    with Ledger.open(target, upgrade=False) as copy, Ledger.open(filled_sqlite, upgrade=False) as source:
        assert copy.balances(OTHER_CHAT) == source.balances(OTHER_CHAT)
        assert copy.history(OTHER_CHAT, 50) == source.history(OTHER_CHAT, 50)
        with copy.engine.connect() as connection:
            assert connection.scalar(sa.text("SELECT COUNT(*) FROM groups")) == 1
            operations = connection.scalars(sa.text("SELECT source FROM operations")).all()
        assert operations and all(source.startswith(f"tg:{OTHER_CHAT}:") for source in operations)
        # the moderation record came along: the same message is not fined twice
        again = Moderation(copy, copy.engine).record_offence(
            copy.member(OTHER_CHAT, 7, "早来的"), "flood", "刷屏", message_id=1, source=f"tg:{OTHER_CHAT}:1"
        )
        assert again.fine is not None and copy.balances(OTHER_CHAT) == source.balances(OTHER_CHAT)


def test_a_non_empty_target_is_refused_unless_forced_and_overlapping_ids_never(
    filled_sqlite: str, tmp_path: Path
) -> None:
    target = f"sqlite:///{tmp_path / 'target.db'}"
    copy_ledger(filled_sqlite, target, chat_id=OTHER_CHAT)
    before = _counts(target)
    with pytest.raises(CopyError, match="already holds a ledger"):
        copy_ledger(filled_sqlite, target)
    with pytest.raises(CopyError, match="ids already used in the target"):
        copy_ledger(filled_sqlite, target, force=True)
    assert _counts(target) == before  # nothing written
    with pytest.raises(CopyError, match="same database"):
        copy_ledger(filled_sqlite, filled_sqlite)
    with pytest.raises(CopyError, match="no group for chat 42"):
        copy_ledger(filled_sqlite, f"sqlite:///{tmp_path / 'none.db'}", chat_id=42)


def _counts(url: str) -> dict[str, int]:
    engine = db.make_engine(url)
    try:
        with engine.connect() as connection:
            return {
                table: int(connection.scalar(sa.text(f"SELECT COUNT(*) FROM {table}")) or 0)
                for table in sa.inspect(engine).get_table_names()
            }
    finally:
        engine.dispose()


def test_the_source_must_be_at_the_newest_schema(tmp_path: Path) -> None:
    old = f"sqlite:///{tmp_path / 'old.db'}"
    db.upgrade(old, "0001")
    with pytest.raises(CopyError, match="paiju db upgrade"):
        copy_ledger(old, f"sqlite:///{tmp_path / 'new.db'}")


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = db_main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_copy_command_reports_what_it_verified(filled_sqlite: str, tmp_path: Path) -> None:
    target = f"sqlite:///{tmp_path / 'cli.db'}"
    code, out, _ = _cli("copy", "--from", filled_sqlite, "--to", target)
    assert code == 0 and "copied" in out and f"verified chat {OTHER_CHAT}" in out
    code, _, err = _cli("copy", "--from", filled_sqlite, "--to", target)
    assert code == 1 and "--force" in err


# ---------------------------------------------------------------------------------------------------- backup


@contextmanager
def _writer_busy(url: str) -> Iterator[None]:
    """Another connection in the middle of a write transaction while the backup runs (an online backup)."""
    other = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE members SET balance = balance + 1000000")  # never committed
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_restored_backup_opens_at_head_with_the_same_balances(filled_sqlite: str, tmp_path: Path) -> None:
    expected = _state(filled_sqlite)
    with _writer_busy(filled_sqlite):
        backup = backup_sqlite(filled_sqlite, tmp_path / "backup.db")
    restored = tmp_path / "restored" / "paiju.db"
    restored.parent.mkdir()
    restored.write_bytes(backup.read_bytes())  # restoring is putting the file back in place
    url = f"sqlite:///{restored}"
    engine = db.make_engine(url)
    try:
        assert db.current_revision(engine) == db.head_revision()
    finally:
        engine.dispose()
    assert _state(url) == expected  # without the uncommitted write
    with pytest.raises(CopyError, match="already exists"):
        backup_sqlite(filled_sqlite, backup)


def test_the_backup_command(filled_sqlite: str, tmp_path: Path) -> None:
    code, out, _ = _cli("backup", "--db", filled_sqlite, "--out", str(tmp_path / "b.db"))
    assert code == 0 and "integrity ok" in out


def test_a_postgresql_backup_is_pointed_to_pg_dump(tmp_path: Path, postgres_url: str) -> None:
    code, _, err = _cli("backup", "--db", postgres_url, "--out", str(tmp_path / "pg.db"))
    assert code == 1 and "pg_dump" in err
