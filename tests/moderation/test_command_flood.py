"""Commands that only read count toward flooding as any message: `余额` eight times in ten seconds is a flood
(warned and fined, the burst's further lines unanswered), whoever sends it, seated or not. The same command again is
a repeat only within the flood window (`余额` after each hand is using the bot). A seated player's record lines still
never count (and cost no flood counter's write). Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.moderation._state import state
from tests.bot.test_recording_fixes import CHAT, Table

MEMBERS = ("!admin boss", "!join a 阿杰-成员", "!join b 小李-成员", "!join c 老王-成员", "!join eve 小红-成员")
WARNED = "⚠️ 小红-成员 违反群规（刷屏：10 秒内 6 条）。第 1 次违规：警告，罚发红包 5元，已记入红包池。"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*MEMBERS, "a: 开桌 @a @b @c 庄 @a", "!clock +3m")
    yield opened
    opened.ledger.close()


def pot(table: Table) -> int:
    """What the group's 红包池 holds: the fines booked."""
    return sum(line.amount for line in table.ledger.balances(CHAT).lines if line.kind == "pot")


def replies(table: Table, name: str, line: str, times: int, gap: str = "+1s") -> list[list[str]]:
    """What the bot answered each of `times` copies of `line`, `gap` apart."""
    out = []
    for _ in range(times):
        out.append(table.say(f"{name}: {line}"))
        table.say(f"!clock {gap}")
    return out


@pytest.mark.parametrize("query", ["余额", "明细", "红包池", "帮助"])
def test_a_read_command_sent_eight_times_in_ten_seconds_is_a_flood(table: Table, query: str) -> None:
    # different queries so the repeat rule (3 in a row) is not what trips: 余额, 明细, 红包池 … in turn
    lines = [query, "余额" if query != "余额" else "明细", "红包池" if query != "红包池" else "帮助"]
    answered = [table.say(f"eve: {lines[i % 3]}") for i in range(8)]
    assert all(answered[i] for i in range(5)) and not any(WARNED in line for out in answered[:5] for line in out)
    assert any(line.startswith(f"bot: {WARNED}") for line in answered[5]), answered[5]
    assert answered[6] == [] and answered[7] == []  # the burst's further lines get no answer
    assert pot(table) == 500


def test_a_seated_players_queries_count_but_their_records_do_not(table: Table) -> None:
    table.say(*["b: 亮倒", "b: 撤销"] * 3, "b: 亮倒")  # seven records in a few seconds: using the bot
    assert pot(table) == 0
    table.say("!clock +1m")
    out = [table.say(f"b: {line}") for line in ("余额", "明细", "红包池", "余额", "明细", "红包池")]
    assert any("小李-成员 违反群规（刷屏：10 秒内 6 条）" in line for line in out[5]), out[5]
    assert pot(table) == 500


def test_the_same_command_three_times_is_a_repeat_only_within_the_window(table: Table) -> None:
    for out in replies(table, "eve", "余额", 3, gap="+30s"):  # after each hand: no repeat
        assert out and out[0].startswith("bot: 余额")
    assert pot(table) == 0
    table.say("!clock +1m")
    out = replies(table, "eve", "余额", 3)
    assert any("小红-成员 违反群规（重复刷屏：同一内容连发 3 次）" in line for line in out[2]), out[2]
    assert pot(table) == 500


def test_a_seated_players_record_after_their_own_query_writes_no_flood_counter(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A win costs the same database work whatever the player asked before it (`bench/bench_bot.py`: one
    transaction, ten statements): the query is counted, the record after it is not, and breaks no run of it."""
    shared = state(table.console.bot).detector.state
    writes: list[str] = []
    update = shared.update
    monkeypatch.setattr(shared, "update", lambda key, *rest: writes.append(key) or update(key, *rest))
    table.say("b: 余额")
    assert len(writes) == 1  # the query is a line like any other
    table.say("b: 胡 清一色 自摸", "!clock +3m", "b: 暗杠 3s")
    assert len(writes) == 1  # the records after it: no write


def test_a_line_that_does_not_count_breaks_a_reading_commands_run(table: Table) -> None:
    """`余额`, a record, `余额`, a record, `余额` is no repeat, as `哈哈` between records is none."""
    for line in ("b: 余额", "b: 亮倒", "b: 余额", "b: 撤销", "b: 余额"):
        assert not any("违反群规" in out for out in table.say(line))
    assert pot(table) == 0
