"""The `paiju score` contract answers every request the first wave's tests made exactly as it did then.

`data/contract_regression.jsonl.gz` holds each distinct request (with the `partial` flag the ledger uses) that
the scoring, ledger and bot tests sent to `ledger.scoring.score` before the regional rules, the faster evaluator
and the input bounds were added, with the answer given then. Every one of them uses the default preset or one
of the first wave's presets, so new options must leave all of them unchanged. The one thing that may grow is
the list of allowed values an error message ends with (`可选：…`): new options, situations and patterns join it.
"""

import gzip
import json
import re
from pathlib import Path

import pytest

from ledger.scoring import score

RECORDED = Path(__file__).parent / "data" / "contract_regression.jsonl.gz"


_ALLOWED = re.compile(r"(可选|可用)：.*$")


def _same(old: dict, new: dict) -> bool:
    """Equal answers; an error's message only up to its list of allowed values."""
    if old.get("ok") is not False or new.get("ok") is not False:
        return old == new
    return old["error"]["code"] == new["error"]["code"] and _ALLOWED.sub(r"\1：", old["error"]["message"]) == (
        _ALLOWED.sub(r"\1：", new["error"]["message"])
    )


def _records() -> list[dict]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_the_recording_covers_every_game_and_both_kinds_of_answer():
    records = _records()
    games = {str(r["request"].get("game")) for r in records if isinstance(r["request"], dict)}
    assert {"kawuxing", "gouji", "penghu"} <= games
    assert any(r["answer"]["ok"] for r in records) and any(not r["answer"]["ok"] for r in records)
    assert any(r["partial"] for r in records)


@pytest.mark.parametrize("chunk", range(8))
def test_every_recorded_request_answers_as_before(chunk):
    records = _records()[chunk::8]
    changed = [r for r in records if not _same(r["answer"], score(r["request"], partial=r["partial"]))]
    assert not changed, json.dumps(changed[:3], ensure_ascii=False, indent=1)
