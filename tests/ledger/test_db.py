"""The SQLite engine: writers queue on a `<database>-writer` file lock where the OS has flock, and the ledger
still books (on SQLite's own busy handler) where it has not, e.g. on Windows."""

from __future__ import annotations

from pathlib import Path

import pytest

import ledger.db
from ledger.db import WRITER_LOCK_SUFFIX
from ledger.service import Ledger

from .helpers import CHAT


def _book_a_fine(path: Path) -> Ledger:
    books = Ledger.open(f"sqlite:///{path}")
    member = books.member(CHAT, 1, "甲")
    books.fine(member.id, 500, "刷屏", source="test:fine:1", by=None)
    return books


def test_writers_queue_on_a_lock_file_beside_the_database(tmp_path: Path) -> None:
    books = _book_a_fine(tmp_path / "paiju.db")
    assert (tmp_path / f"paiju.db{WRITER_LOCK_SUFFIX}").exists()
    assert books.balances(CHAT).pot == 500
    books.close()


def test_without_flock_the_ledger_books_on_sqlites_busy_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger.db, "fcntl", None)
    books = _book_a_fine(tmp_path / "paiju.db")
    assert not (tmp_path / f"paiju.db{WRITER_LOCK_SUFFIX}").exists()
    assert books.balances(CHAT).pot == 500
    books.close()
