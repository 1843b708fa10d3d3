"""`paiju report`: a night or a month to PNG or a one-page PDF, and clear refusals."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from bot.reports.cli import main
from ledger.service import Ledger
from paiju.cli import main as paiju
from tests.reports.playing import play
from tests.reports.test_chart import PNG_SIGNATURE, png_size

_chats = itertools.count(-3_000_001, -1)


@pytest.fixture
def chat(ledger: Ledger, clock: Any) -> int:
    chat_id = next(_chats)
    play(ledger, clock, chat_id, [[("hand", 1, 0), ("hand", 3, 1)], [("hand", 8, 2), ("fine", 0, 500)]])
    return chat_id


def test_night_to_png_prints_the_post(
    db_url: str, chat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "night.png"
    assert paiju(["report", "--db", db_url, "--chat", str(chat), "--night", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == str(out)
    assert printed[1] == "第2晚结算 · 2026-01-11 · 1局"
    assert out.read_bytes()[:8] == PNG_SIGNATURE and png_size(out)[0] == 1080


def test_month_to_one_page_pdf_in_english(db_url: str, chat: int, tmp_path: Path) -> None:
    out = tmp_path / "month.pdf"
    assert main(["--db", db_url, "--chat", str(chat), "--month", "2026-01", "--out", str(out), "--lang", "en"]) == 0
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-") and len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    assert b"NotoSansSC" in pdf


def test_latest_night(db_url: str, chat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "--chat", str(chat), "--night", "latest", "--out", str(tmp_path / "n.png")]) == 0
    assert "第2晚结算" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--night", "9", "--out", "x.png"], "这个群没有第 9 晚"),
        (["--night", "two", "--out", "x.png"], "--night 要写第几晚"),
        (["--month", "2026-13", "--out", "x.png"], "月份要写成 YYYY-MM"),
        (["--month", "2026-01", "--out", "x.gif"], "输出文件必须是 .png 或 .pdf"),
    ],
)
def test_refusals_say_why_and_write_nothing(
    db_url: str, chat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    args = [str(out_dir / a) if a.startswith("x.") else a for a in args]
    assert main(["--db", db_url, "--chat", str(chat), *args]) == 1
    assert message in capsys.readouterr().err
    assert not list(out_dir.iterdir())


def test_unknown_chat(db_url: str, chat: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db_url, "--chat", "42", "--night", "1", "--out", str(tmp_path / "n.png")]) == 1
    assert "数据库里没有这个群：42" in capsys.readouterr().err
