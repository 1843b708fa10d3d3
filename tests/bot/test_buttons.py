"""Forged button data: whatever a client sends as callback data (a superscript digit, a 20-digit key, stray bytes),
every registered prefix answers the press with a clean refusal and books nothing, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import AnswerCallback, Bot, CallbackQuery, ManualClock, Sender, SendText, registry
from ledger.service import Ledger
from tests.bot.chat import say

CHAT = -1009988776600
A, B, C = (Sender(1000 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)
#: flows open while the presses arrive: a win (typed 胡), a kong (typed 杠), a suggested reading
FLOW_KEYS = (11, 12, 13)
PRESSES = count(1)


_say = partial(say, chat=CHAT, now=NOW)


def _press(bot: Bot, data: str) -> list[object]:
    query = f"q{next(PRESSES)}"
    return bot.handle_callback(CallbackQuery(query, CHAT, 500, A, data, NOW, source=f"t:{CHAT}:cb{query}")).effects


@pytest.fixture
def table(ledger: Ledger) -> Iterator[tuple[Bot, Ledger, int]]:
    bot = Bot(ledger, clock=ManualClock(NOW))
    for number, sender in enumerate((A, B, C), start=1):
        _say(bot, sender, number, "你好")
    _say(bot, A, 10, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    assert "hu:11:" in _say(bot, A, 11, "胡")[0].buttons[0][0].data
    assert "gang:12:" in _say(bot, A, 12, "杠")[0].buttons[0][0].data
    assert _say(bot, A, 13, "胡 清一涩 自摸")[0].buttons[0][0].data == "sg:13:ok"
    current = ledger.current_table(CHAT)
    assert current is not None
    yield bot, ledger, current.id


def _untouched(ledger: Ledger, table_id: int, flows: dict[int, object]) -> None:
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)
    assert not ledger.hand_state(table_id).events
    assert {key: ledger.load_flow(CHAT, key) for key in FLOW_KEYS} == flows


ODD_DIGITS = st.sampled_from(["²", "١", "１", "٣", "½", "Ⅳ", "𝟘", "0x1", "1e3", " 1", "+1", "1_0"])
HUGE = st.integers(min_value=10**19, max_value=10**40).map(str) | st.integers(max_value=-(2**63)).map(str)
ACTIONS = st.sampled_from(["w.0", "w.2", "f.1", "p.3", "s.0", "m.s", "k.a", "ok", "x", "v", "b", "c", "u"])


@st.composite
def forged(draw: st.DrawFn) -> str:
    """Data none of our buttons carries: odd digits or an out-of-range number where the key or an index goes, or
    anything at all after a prefix."""
    prefix = draw(st.sampled_from(sorted(registry.callbacks)))
    key = draw(st.sampled_from([str(k) for k in FLOW_KEYS]))
    code = draw(st.sampled_from("wfps"))
    shapes = [
        f"{prefix}:{draw(ODD_DIGITS)}:{draw(ACTIONS)}",
        f"{prefix}:{draw(HUGE)}:{draw(ACTIONS)}",
        f"{prefix}:{key}:{code}.{draw(ODD_DIGITS)}",
        f"{prefix}:{key}:{code}.{draw(HUGE)}",
        f"{prefix}:{draw(st.text(max_size=80).filter(lambda t: t not in {'new', 'open'} and ':' not in t))}",
        f"{prefix}:{key}:{draw(st.text(min_size=1, max_size=20).filter(lambda t: not t.isascii()))}",
    ]
    return draw(st.sampled_from(shapes))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=forged())
def test_forged_button_data_is_refused_cleanly_and_books_nothing(table: tuple[Bot, Ledger, int], data: str) -> None:
    bot, ledger, table_id = table
    flows = {key: ledger.load_flow(CHAT, key) for key in FLOW_KEYS}
    effects = _press(bot, data)
    assert [type(e) for e in effects] == [AnswerCallback], (data, effects)
    answer = effects[0]
    assert isinstance(answer, AnswerCallback) and answer.alert and answer.text
    _untouched(ledger, table_id, flows)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.text(max_size=100) | st.binary(max_size=64).map(lambda b: b.decode("latin-1")))
def test_any_button_data_at_all_is_answered_and_books_nothing(table: tuple[Bot, Ledger, int], data: str) -> None:
    bot, ledger, table_id = table
    flows = {key: ledger.load_flow(CHAT, key) for key in FLOW_KEYS}
    effects = _press(bot, data)
    assert any(isinstance(e, AnswerCallback) for e in effects)
    _untouched(ledger, table_id, flows)


@pytest.mark.parametrize("data", ["hu:²:w.0", "hu:11:w.²", f"hu:{'9' * 20}:w.0", "gang:12:w.99999999999999999999"])
def test_the_reported_forgeries_get_an_alert_not_an_apology(table: tuple[Bot, Ledger, int], data: str) -> None:
    bot, ledger, table_id = table
    effects = _press(bot, data)
    assert effects == [AnswerCallback("这个按钮已经失效了。", alert=True)]
    assert not ledger.hand_state(table_id).events


def test_a_real_press_still_moves_its_flow(table: tuple[Bot, Ledger, int]) -> None:
    bot, ledger, _ = table
    effects = _press(bot, "hu:11:w.2")
    assert any(isinstance(e, SendText) and "laowang" in e.text for e in effects)
    flow = ledger.load_flow(CHAT, 11)
    assert flow is not None and flow.state["who"] == "laowang" and flow.state["step"] == "method"
