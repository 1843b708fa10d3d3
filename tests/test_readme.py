"""The README's two opening commands are what a newcomer runs first, and CI runs the second word for word."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _opening_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))[:2]


def test_the_readme_opens_with_the_demo_and_the_tests() -> None:
    demo, tests = _opening_commands()
    assert demo.startswith("python3 -m venv .venv") and demo.endswith("paiju console --demo")
    assert tests.startswith("python3 -m venv .venv") and tests.endswith(".venv/bin/pytest -q")
    assert "chromium" in tests  # the browser tests' browser is installed by the command itself, never downloaded


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    _demo, tests = _opening_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci
