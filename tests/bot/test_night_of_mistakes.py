"""A whole night played with mistakes, double entries and corrections ends with the same balances as the same night
typed cleanly: the two console transcripts (tests/bot/transcripts/night_with_mistakes.txt and
night_typed_cleanly.txt) replayed into two groups of one ledger, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger
from tests.bot.test_transcripts import HERE, script_of

MESSY, CLEAN = -1_000_000_000_101, -1_000_000_000_102


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))


def play(ledger: Ledger, clock: ManualClock, name: str, chat_id: int) -> list[str]:
    console = Console(Bot(ledger, clock=clock), clock, chat_id=chat_id)
    printed: list[str] = []
    for line in script_of((HERE / name).read_text(encoding="utf-8")):
        printed += console.feed(line)
    return printed


def test_a_night_of_mistakes_ends_as_the_night_typed_cleanly(db_url: str) -> None:
    clock = ManualClock()
    ledger = Ledger.open(db_url, clock=clock.now)
    try:
        messy = play(ledger, clock, "night_with_mistakes.txt", MESSY)
        clean = play(ledger, clock, "night_typed_cleanly.txt", CLEAN)
        # the messy night really was messy: held back, refused, edited and undone
        assert sum("没有再记。要是真的又" in line for line in messy) == 4
        assert any("只有这桌的玩家和群管理员可以记账" in line for line in messy)
        assert sum("按改后的消息重记" in line for line in messy) == 2
        assert sum(line.startswith("bot: 已撤销") for line in messy) == 2
        assert not [line for line in messy + clean if line.startswith("console:")]
        by_name = {
            chat: {line.name: line.amount for line in ledger.balances(chat).lines if line.amount or line.kind == "pot"}
            for chat in (MESSY, CLEAN)
        }
        assert by_name[MESSY] == by_name[CLEAN]
        assert by_name[CLEAN] == {"ajie": 1800, "laowang": -700, "xiaoli": -1100, "红包池": 0}
        settled = messy[next(i for i, line in enumerate(messy) if "最少转账" in line) :]
        assert settled == clean[next(i for i, line in enumerate(clean) if "最少转账" in line) :]
        assert settled[1:3] == ["bot: xiaoli → ajie 11元", "bot: laowang → ajie 7元"]
        assert settled[3:6] == ["bot: [按钮] 明细", "bot: [按钮] 明细 xiaoli→ajie", "bot: [按钮] 明细 laowang→ajie"]
        assert [h.number for h in ledger.history(MESSY, 10)] == [h.number for h in ledger.history(CLEAN, 10)]
    finally:
        ledger.close()
