"""A 胡/杠 button flow's question answered by typing, as a play-tester found it ignored: whoever started the flow
types a seat, a way, a kong's kind, the patterns, 漂/坎/马 or 确认 instead of pressing, and it acts as the press
(in English in a group that reads English); the flow moves below the line. Anyone else's line, a line that is no
clear answer, and English words in a Chinese group stay what they were."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.bot.test_player_first import Table
from tests.bot.test_telegram import A, B, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests

OPEN = ("a: 开桌 @a @b @c 庄 @a",)
MOVED = "bot: （打字回答了，接着看下面）"


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, *OPEN)
    yield opened
    opened.ledger.close()


def _hands(table: Table) -> list[object]:
    return [r.events for r in table.ledger.history(table.chat)]


def _kongs(table: Table) -> list[object]:
    opened = table.ledger.current_table(table.chat)
    assert opened is not None
    return [e for e in table.ledger.hand_state(opened.id).events if e.get("type") == "gang"]


def test_a_kong_flow_answered_by_typing_books_as_its_presses(table: Table) -> None:
    assert table.say("a: 杠")[1:3] == ["bot: 谁杠的？", "bot: [按钮] 阿杰 | 小李 | 老王"]
    said = table.say("a: 小李")
    assert said[:4] == [MOVED, "bot: 记杠（第1局）", "bot: 小李", "bot: 什么杠？"]
    assert table.say("a: 直杠 点 @a")[:3] == [MOVED, "bot: 记杠（第1局）", "bot: 小李 ｜ 直杠 ｜ 点 阿杰"]
    assert table.say("a: 确认")[:2] == [MOVED, "bot: 第1局 记下：小李 直杠（点杠 阿杰）"]
    assert _kongs(table) == [{"type": "gang", "player": "小李", "kind": "zhigang", "from": "阿杰", "chain": 1}]
    assert table.say("a: 确认") == []  # the flow is done: the word is chat again


def test_my_kong_alone_asks_its_kind_not_whose(table: Table) -> None:
    """`我杠了` names the sender as `我胡了` does (a play-test: it asked 「谁杠的？」 with all three names); `杠了`
    names nobody and still asks."""
    assert table.say("b: 我杠了")[1:3] == ["bot: 小李", "bot: 什么杠？"]
    assert table.say("b: 暗杠")[1:3] == ["bot: 记杠（第1局）", "bot: 小李 ｜ 暗杠"]
    assert table.say("c: 杠了")[1:2] == ["bot: 谁杠的？"]


def test_a_win_flow_answered_by_typing(table: Table) -> None:
    table.say("c: 胡", "c: 我", "c: 点 @b", "c: 清一色 七对")
    assert table.say("c: 返回")[2] == "bot: 老王 ｜ 点炮 ｜ 点 小李 ｜ 清一色×4、七对×4"
    assert table.say("c: 清一色")[2] == "bot: 老王 ｜ 点炮 ｜ 点 小李 ｜ 清一色×4"  # the patterns told, all of them
    table.say("!clock +10s")
    assert table.say("c: 对")[1] == "bot: 第1局 记下："
    [[win]] = _hands(table)
    told = (win["winner"], win["method"], win["from"], win["hand"]["patterns"])
    assert told == ("老王", "discard", "小李", ["qingyise"])


def test_anyone_elses_line_and_a_line_that_is_no_answer_change_nothing(table: Table) -> None:
    table.say("a: 杠")
    assert table.say("b: 小李", "c: 老王") == []  # a seat's name from someone else: chat
    assert table.say("a: 小李 好")[:1] != [MOVED]
    asked = table.say("a: 小李")
    assert asked[3] == "bot: 什么杠？"
    assert table.say("a: 自摸") != [] and table.say("a: yes") == []  # no kind; English in a Chinese group: chat
    assert table.ledger.open_flows(table.chat)[0].state["step"] == "kind"


def test_english_words_in_an_english_group(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!admin a", "a: 设置 语言 en", "a: open @a @b @c dealer @a")
    try:
        table.say("!clock +10s", "a: kong", "a: c")
        assert table.say("a: exposed from @b")[2] == "bot: 老王 | Exposed | from 小李"
        assert "bot: [按钮] ✅ Confirm | ✓杠上杠 (chained) | ◀ Back" not in table.say("a: confirm")
        assert _kongs(table) == [{"type": "gang", "player": "老王", "kind": "zhigang", "from": "小李", "chain": 1}]
        table.say("!clock +10s", "b: win", "b: me", "b: zimo", "b: one suit seven pairs")
        assert table.say("b: yes")[1] == "bot: Hand 1 recorded:"
    finally:
        table.ledger.close()


def test_a_horse_tile_asked_by_the_flow_is_typed(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!admin a", "a: 设置 买马 自摸买马", "a: 开桌 @a @b @c 庄 @a")
    try:
        asked = table.say("!clock +10s", "c: 胡", "c: 我", "c: 自摸", "c: 清一色")
        assert "bot: 老王 自摸买马：翻出的马牌是？（或发：买马 7s）" in asked
        assert table.say("c: 买马 7条")[2:4] == ["bot: 老王 ｜ 自摸 ｜ 清一色×4", "bot: 确认后记账："]
        table.say("c: 确认")
        assert _hands(table)[0][-1]["ma"] == "7s"  # type: ignore[index]
    finally:
        table.ledger.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(told=st.lists(st.sampled_from(["清一色", "七对", "碰碰胡", "卡五星", "暗四归一"]), min_size=1, max_size=4))
def test_the_patterns_typed_are_the_patterns_chosen(sqlite_url: str, told: list[str]) -> None:
    """Whatever was tapped before, a typed list of patterns leaves exactly those chosen (or changes nothing)."""
    table = Table(sqlite_url, *OPEN)
    try:
        table.say("c: 胡", "c: 老王", "c: 自摸", "c: 七对 卡五星", "c: 返回")
        table.say("!clock +10s", f"c: {' '.join(told)}")
        [flow] = table.ledger.open_flows(table.chat)
        from bot.grammar import read

        expected = [w.value for w in read(" ".join(told)) if w.kind == "pattern"]
        if flow.state["step"] == "preview":
            assert sorted(flow.state["patterns"]) == sorted(expected)
        else:  # a fourth 四归一 or the like: nothing tapped
            assert sorted(flow.state["patterns"]) == ["kawuxing", "qidui"]
    finally:
        table.ledger.close()


async def test_through_telegram_the_flow_moves_below_each_typed_answer(tg: Harness) -> None:
    """The old message loses its keyboard, the new one carries it and is what the next typed answer (or a press)
    moves on from; a press on the new message's button still works."""
    await open_table(tg)
    question = await ask(tg, A, "杠")
    calls = len(tg.telegram.calls)
    await tg.say(A, "小李")
    edit, sent = tg.telegram.calls[calls:]
    assert edit.method == "editMessageText" and edit.params["message_id"] == question["message_id"]
    assert "reply_markup" not in edit.params and edit.params["text"] == "（打字回答了，接着看下面）"
    assert sent.method == "sendMessage" and sent.params["text"].endswith("什么杠？")
    moved = {**sent.params, "message_id": sent.result["message_id"]}
    await tg.feed(tg.updates.press(A, moved, buttons(moved)["暗杠"]))  # the new message's button, pressed
    calls = len(tg.telegram.calls)
    await tg.say(A, "确认")
    edit, sent = tg.telegram.calls[calls:]
    assert edit.params["message_id"] == moved["message_id"] and "reply_markup" not in edit.params
    assert sent.params["text"].startswith("第1局 记下：小李 暗杠")
    assert tg.balance(B["id"]) == 400
