"""Console transcripts: each tests/bot/transcripts/*.txt is a script with the expected replies interleaved.

Lines that start with `bot: ` or `console: ` are what the bot must print; every other line is fed to the
console. The test replays the script on a fresh SQLite database and compares the whole transcript. To re-record
after an intended change of wording: `PAIJU_UPDATE_TRANSCRIPTS=1 pytest tests/bot/test_transcripts.py`, then
read the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.console import Console, demo_script
from bot.core import Bot, ManualClock
from ledger.service import Ledger

HERE = Path(__file__).parent / "transcripts"
OUTPUT_PREFIXES = ("bot: ", "bot:", "console: ")


def replay(script: list[str], url: str) -> list[str]:
    """The transcript of a script: each input line, then what it printed."""
    clock = ManualClock()
    ledger = Ledger.open(url, clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        out: list[str] = []
        for line in script:
            out.append(line)
            out.extend(console.feed(line))
        return out
    finally:
        ledger.close()


def said_after(out: list[str], line: str) -> list[str]:
    """What the bot said right after the last `line` of a replay's output (its replies, without the `bot: `)."""
    at = len(out) - 1 - out[::-1].index(line)
    said = []
    for printed in out[at + 1 :]:
        if not printed.startswith("bot: "):
            break
        said.append(printed.removeprefix("bot: "))
    return said


def script_of(transcript: str) -> list[str]:
    return [line for line in transcript.splitlines() if not line.startswith(OUTPUT_PREFIXES)]


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pictures and exports go to `reports/` under the test's own folder: the printed path is the same every run."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAIJU_REPORT_DIR", "reports")


@pytest.mark.parametrize("path", sorted(HERE.glob("*.txt")), ids=lambda p: p.stem)
def test_transcript(path: Path, sqlite_url: str) -> None:
    expected = path.read_text(encoding="utf-8")
    got = "\n".join(replay(script_of(expected), sqlite_url)) + "\n"
    if os.environ.get("PAIJU_UPDATE_TRANSCRIPTS"):
        path.write_text(got, encoding="utf-8")
    assert got == expected


def test_demo_runs_through_the_cli_and_books_a_whole_night(tmp_path: Path) -> None:
    """`paiju console --demo` (the README's first command) plays the bundled night start to finish."""
    result = subprocess.run(
        [sys.executable, "-m", "paiju", "console", "--demo"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=True,
    )
    out = result.stdout
    assert "Traceback" not in result.stderr
    assert "开桌了" in out and "转账" in out  # opened and settled
    assert "console:" not in out  # every script line was understood
    assert len([line for line in out.splitlines() if line.startswith("bot: ")]) > 30
    assert not (tmp_path / "paiju.db").exists()  # the demo never touches the default database


def test_demo_is_deterministic(new_sqlite_url: Callable[[], str]) -> None:
    first = replay(demo_script(), new_sqlite_url())
    second = replay(demo_script(), new_sqlite_url())
    assert first == second


def test_the_readme_demo_excerpt_is_what_the_demo_prints(sqlite_url: str) -> None:
    """README's 「A night at the table」 shows the demo's own output: each run of lines between `...` appears in
    the demo's transcript as it is, line for line and in order (the newcomer greetings included)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## A night at the table") :]
    excerpt = section[section.index("```\n") + 4 : section.index("\n```", section.index("```\n") + 4)]
    chunks = [chunk.strip("\n").splitlines() for chunk in excerpt.split("\n...\n")]
    printed = replay(demo_script(), sqlite_url)
    at = 0
    for chunk in chunks:
        found = next((i for i in range(at, len(printed)) if printed[i : i + len(chunk)] == chunk), None)
        assert found is not None, f"not in the demo's output, in this order: {chunk}"
        at = found + len(chunk)
