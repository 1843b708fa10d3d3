"""The scoring core's refusals in an English group: every error code the core raises has an English text in the
bot's tables, and a message no English reading knows still says its kind in English (the transcript
`scoring_english.txt` shows the readings on the core's real messages)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.texts import SCORING_READINGS, TEXTS, scoring_refusal

CORE = Path(__file__).resolve().parents[2] / "ledger" / "scoring"


def _core_codes() -> set[str]:
    """Every literal error code a `ScoringError(...)` in the scoring core is raised with."""
    codes = set()
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ScoringError" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
    return codes


def test_the_core_raises_the_codes_the_bot_knows() -> None:
    assert _core_codes() == {
        "bad_request",
        "bad_tiles",
        "inconsistent",
        "not_a_win",
        "pihu_self_draw_only",
        "wrong_count",
    }


@pytest.mark.parametrize("code", sorted(_core_codes()))
def test_every_code_reads_in_english(code: str) -> None:
    assert f"scoring_en_{code}" in TEXTS
    shown = scoring_refusal("en", code, "一句还没有英文读法的话")
    assert shown.startswith("Not recorded: ") and shown.split("(")[0].isascii()
    assert "(一句还没有英文读法的话)" in shown  # the core's specifics, quoted, where no reading puts them in English


@pytest.mark.parametrize("code", sorted(SCORING_READINGS))
def test_a_chinese_group_reads_the_cores_own_words(code: str) -> None:
    assert scoring_refusal("zh", code, "第 2 个事件，甲 的胡牌：一句话") == "没有记录：甲 的胡牌：一句话"


def test_an_english_reading_takes_the_names_and_tiles_it_finds() -> None:
    message = "第 1 个事件，老王 的胡牌：屁胡（×1）只能自摸，不能抢杠胡：本局规则「屁胡只能自摸」"
    assert scoring_refusal("en", "pihu_self_draw_only", message) == (
        "Not recorded: 老王: a 屁胡 (×1) must be self-drawn, not won by robbing a kong: "
        "the group's rule 「屁胡只能自摸」."
    )
