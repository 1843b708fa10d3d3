"""A win waiting for its answers (漂 here: `flows.holds_hand`) is never lost across the 日切 cut-off: whenever it is
told around 06:00 and however its three answers are spread out (each within `HOLDS_FOR` of the question's last
touch), with or without another record tried meanwhile (refused while it waits: nothing is booked under it, so
nothing rolls the table over before it), it books exactly once, into its own night — the night of its hand's first
record, or of the moment it was told when it is that first record, before the cut-off or after it (a hand under way
at the cut-off finishes in its night: `ledger.booking`)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.flows import HOLDS_FOR
from ledger.tables import night_date
from tests.bot.test_player_first import Table

#: the console's clock starts at 2026-01-10 12:00 UTC, 20:00 in Shanghai; the 日切 hour is 06:00 there
OPENED = datetime.fromisoformat("2026-01-10T12:00:00+00:00")
CUTOFF = datetime.fromisoformat("2026-01-10T22:00:00+00:00")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    under_way=st.booleans(),  # 老王's kong opened the hand at 20:00, or the win is its first record
    told=st.integers(-3 * 3600, 3600),  # seconds from the cut-off the win is told at, before it or after
    gaps=st.lists(st.integers(0, int(HOLDS_FOR.total_seconds()) - 1), min_size=3, max_size=3),
    kong_after=st.none() | st.integers(0, 2),  # 老王's kong right after that answer, or none
)
def test_a_waiting_win_books_once_into_its_own_night(
    new_sqlite_url: Callable[[], str], under_way: bool, told: int, gaps: list[int], kong_after: int | None
) -> None:
    table = Table(new_sqlite_url(), "a: 设置 漂 选漂", "a: 开桌 @a @b @c 庄 @a")
    try:
        if under_way:
            table.say("c: 暗杠 3s")
        at = CUTOFF + timedelta(seconds=told)
        table.clock.set(at)
        asked = table.say("b: 自摸 清一色")
        assert any("这局漂几" in line for line in asked), asked
        for index, (gap, who) in enumerate(zip(gaps, ("a", "b", "c"), strict=True)):
            table.say(f"!clock +{gap}s", f"{who}: 漂 @{who} {index}")
            if kong_after == index and index < 2:  # 老王's kong while the win waits is refused, never booked under it
                refused = table.say("!clock +1s", "c: 暗杠 4s")
                assert refused[0].startswith("bot: 没有记：第1局已经报了 小李 自摸，还在等"), refused
            elif kong_after == index:  # after the last answer: the next hand's first record
                table.say("!clock +1s", "c: 暗杠 4s")
        hands = [hand for hand in table.ledger.history(table.chat, 50) if hand.status == "closed"]
        wins = [hand for hand in hands if any(event.get("type") == "hu" for event in hand.events)]
        assert len(wins) == 1, hands
        played_in = night_date("Asia/Shanghai", 6, OPENED if under_way else at)
        assert wins[0].night_date == played_in, (wins[0].night_date, played_in)
        night = {line.name: line.amount for line in table.ledger.night_balances(wins[0].night_id).lines}
        assert night["小李"] > 0, night
    finally:
        table.ledger.close()
