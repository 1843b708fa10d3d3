"""A 胡 told by taps while the table's rules ask 漂 and 买马: a horse typed before the flow asks it is kept as its
answer; `漂 1` typed by its starter is their own 漂 (never the answer to another player's question), and a 漂 booked
by typing moves the flow on to its next question; `确认` typed before the preview is told what is still asked; a
record left waiting a day expires with one word to the chat that nothing was booked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_player_first import Table

RULES = ("!admin a", "a: 设置 买马 自摸买马", "a: 设置 漂 选漂", "a: 开桌 @a @b @c 庄 @a")
ASK_AJIE = "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）"
ASK_XIAOLI = "bot: 小李 这局漂几？（小李 自己点，或发：漂 2）"


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, *RULES)
    yield opened
    opened.ledger.close()


def won(table: Table) -> list[dict[str, object]]:
    return [dict(e) for r in table.ledger.history(table.chat) for e in r.events]


def test_a_horse_typed_before_its_question_is_the_flows_answer(table: Table) -> None:
    """The play-test: `买马 5s` at 「怎么胡的？」 got 「现在没有在等马牌」 and the horse was asked again later."""
    table.say("c: 胡", "c: 我")
    out = table.say("c: 买马 5s")
    assert out[-1] == "bot: 马牌 五条 记在上面这手胡里了：问到马牌时就用它，不用再报（还没记账，接着点上面的按钮）。"
    out = table.say("c: 自摸", "c: 清一色", "a: 漂 0", "b: !press 0", "c: 0")  # each their own 漂, then the preview
    assert not any("马牌是" in line for line in out) and "bot: 买马 五条（5）：阿杰→老王 5元、小李→老王 5元" in out
    table.say("c: 确认")
    assert won(table)[-1]["ma"] == "5s"


def test_the_winner_may_tell_the_horse_of_a_flow_someone_else_started(table: Table) -> None:
    table.say("a: 胡", "a: 老王", "a: 自摸")
    assert table.say("c: 买马 7s")[-1].startswith("bot: 马牌 七条 记在上面这手胡里了")
    assert table.say("b: 买马 8s")[0].startswith("bot: 现在没有在等马牌")  # nobody else's to tell


def test_a_horse_for_a_win_on_a_discard_or_of_no_suit_played_is_refused(table: Table) -> None:
    table.say("c: 胡", "c: 我", "c: 点 @b")
    assert table.say("c: 买马 5s") == ["bot: 只有自摸才买马，这手不用写马牌。"]
    table.say("c: 算了", "c: 胡", "c: 我")
    assert table.say("c: 买马 5m")[0].startswith("bot: 「五万」不是本桌的牌")


def test_漂_typed_by_the_starter_is_their_own_not_the_asked_players(table: Table) -> None:
    """The play-test: 老王's `漂 1` at 「阿杰 这局漂几？」 answered 阿杰's 漂 and moved on to the next question."""
    asked = table.say("c: 胡", "c: 我", "c: 自摸", "c: 清一色")
    assert ASK_AJIE in asked
    out = table.say("c: 漂 1")
    assert out[0] == "bot: 第1局 记下：老王 漂 1" and ASK_AJIE in out  # still 阿杰's question
    out = table.say("a: 漂 2")  # the player asked answers it
    assert ASK_XIAOLI in out
    table.say("b: 漂 3", "c: 买马 7s", "c: 确认")
    piao = {e["player"]: e["amount"] for e in won(table) if e["type"] == "piao"}
    assert piao == {"老王": 1, "阿杰": 2, "小李": 3}


def test_a_漂_typed_by_the_player_asked_moves_the_flow_on(table: Table) -> None:
    """Booked by its player's own `漂 2`, the 漂 the flow asked is answered: its message moves to the next question
    rather than keep buttons that only expire."""
    table.say("c: 胡", "c: 我", "c: 自摸", "c: 清一色")
    out = table.say("a: 漂 2")
    assert out[0] == "bot: 第1局 记下：阿杰 漂 2" and ASK_XIAOLI in out
    assert "bot: [提示] 这个按钮已经失效了。" not in table.say("c: !press 1")


def test_确认_typed_while_the_flow_asks_漂_says_what_is_asked(table: Table) -> None:
    table.say("c: 胡", "c: 我", "c: 自摸", "c: 清一色")
    out = table.say("c: 确认")
    assert out == [
        "bot: 还不能确认，没有记账：上面还在问「阿杰 这局漂几？（阿杰 自己点，或发：漂 2）」。"
        "先回答它（点按钮或打字），到预览再确认。"
    ]
    assert won(table) == [] and table.say("b: 确认") == []  # anyone else's 确认: chat


def test_确认_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!admin a", "a: 设置 语言 en", *RULES[1:])
    try:
        table.say("c: win", "c: me", "c: zimo", "c: one suit")
        out = table.say("c: confirm")
        assert out[0].startswith("bot: Not confirmed yet, nothing booked: the buttons above still ask “")
    finally:
        table.ledger.close()


def test_a_record_left_waiting_a_day_expires_with_one_word(table: Table) -> None:
    table.say("c: 胡 清一色 自摸", "!clock +23h")
    assert table.say("!upkeep") == []
    said = "bot: ⌛ 第1局那条等回答的记录（老王 自摸 清一色）放了一天没人答完，已经作废，没有记账。要记请重新发。"
    assert table.say("!clock +2h", "!upkeep") == [said]
    assert table.say("!upkeep") == [] and table.ledger.open_flows(table.chat) == []


def test_a_win_by_taps_left_a_day_expires_with_one_word_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!admin a", "a: 设置 语言 en", *RULES[1:])
    try:
        table.say("b: win", "b: me", "!clock +25h")
        assert table.say("!upkeep") == [
            "bot: ⌛ Hand 1's record waiting for answers (小李's win, never confirmed) was left a day unanswered and "
            "has expired; nothing was booked. Send it again to record it."
        ]
    finally:
        table.ledger.close()


def test_a_flow_that_holds_no_record_expires_silently(table: Table) -> None:
    table.say("b: 胡", "!clock +25h")  # nobody chosen: nothing told yet
    assert table.say("!upkeep") == [] and table.ledger.open_flows(table.chat) == []
