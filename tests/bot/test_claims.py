"""Two claims of one 卡五星 hand: a hand takes minutes, so another win or draw someone else records seconds after a
hand ended is most likely that hand told otherwise. It is held back with one question to its typer, naming the
record already there (which hand, what, who recorded it, how long ago), pointing to 改成 for that record's
recorder or an admin, with 「是新的一局」/「不用了」 (the double-entry question's flow and who-may-press rules). A
line told after the fact (`阿杰 刚才 自摸 清一色`) is the hand just recorded whenever it comes: the same record
when it reads exactly alike, another claim of it otherwise. Through the console and the Telegram adapter, on
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.bot.fake_bot_api import CHAT
from tests.bot.test_recording_fixes import Table
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests

NOT_YOURS = "只有记这一条的人或管理员能决定要不要再记一次。"
SEATS = ("!admin boss", "!join a 阿杰", "!join b 小李", "!join c 老王", "a: 开桌 @a @b @c 庄 @a")


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*SEATS, "!clock +3m")
    yield opened
    opened.ledger.close()


def claim(b_line: str) -> str:
    """The question another ending of 小李's hand gets from 老王 20 s after 小李 recorded it."""
    return (
        f"bot: 小李 20秒前记的：第1局 {b_line}。这条和它不一样，多半说的是同一局，没有记。那条记错了，小李 或管理员发"
        "「改成 …」改；真是新的一局，点「是新的一局」。"
    )


# ------------------------------------------------------------------------------------- another claim of the hand


@pytest.mark.parametrize("line", ["老王 胡 碰碰胡 小李点的", "我自摸 七对", "荒庄", "胡 @a 卡五星 @c 七对 点 @b"])
def test_another_ending_seconds_after_a_hand_is_asked_about_not_booked(table: Table, line: str) -> None:
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    booked = table.balances()
    out = table.say(f"c: {line}")
    assert out == [claim("小李 自摸 清一色"), "bot: [按钮] 是新的一局 | 不用了"]
    assert table.balances() == booked and table.hands() == 1
    assert table.say("a: !press 是新的一局") == [f"bot: [提示] {NOT_YOURS}"]  # the typer's (or an admin's) only
    out = table.say("c: !press 是新的一局")
    assert out[:2] == ["bot: [提示] 记好了", "bot: 第2局 记下："] and table.hands() == 2


def test_the_typer_drops_it_by_typing_and_the_recorder_fixes_the_record_with_gai_cheng(table: Table) -> None:
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    table.say("c: 老王 胡 碰碰胡 小李点的")
    held = table.button("是新的一局")
    assert table.say("c: 不用了") == ["bot: 已取消，没有记账。", "bot: 好的，没有再记（上面问的已经作废）。"]
    table.say("c: 老王 胡 碰碰胡 小李点的")  # asked again, and this time the record is fixed
    table.say("b: 改成 老王 胡 碰碰胡 点 小李", "b: !press 改成这样")
    assert table.hands() == 1 and table.balances()["老王"] == 200
    out = table.press_stale("c", table.button("是新的一局"))  # the record it named has changed: nothing booked
    assert "它重复的那条记录已经变了" in out[0] and table.hands() == 1
    assert "失效" in table.press_stale("c", held)[0]


def test_only_someone_elses_claim_within_the_window_is_asked_about(table: Table) -> None:
    """Its own recorder's second win, a kong after the hand, a claim past the window or with the check off are
    booked as typed."""
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    assert table.say("c: 老王 胡 碰碰胡 小李点的")[0] == claim("小李 自摸 清一色")
    assert "第2局 记下：" in table.say("b: 老王 胡 碰碰胡 小李点的")[0]  # its own recorder: two hands, as typed
    assert table.say("a: 暗杠 3s")[0] == "bot: 第3局 记下：阿杰 暗杠 三条"  # the next hand's kong
    table.say("c: 荒庄", "!clock +91s")
    assert "第4局 记下：" in table.say("b: 我自摸 七对")[0]
    table.say("boss: 设置 重复间隔 0")
    assert "第5局 记下：" in table.say("a: 我自摸 七对")[0]  # the check off: nothing held back
    assert table.hands() == 5


def test_a_claim_told_player_first_is_asked_and_the_same_win_repeated_is_told_it_was_held_back(table: Table) -> None:
    """A line read without its command word that names a player is a record, not talk: held back, its sender is
    told so (only a line naming nobody may be someone repeating the news); another claim of the hand is asked."""
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    out = table.say("c: @b 自摸 清一色")
    assert out[0].startswith("bot: 小李 20秒前记的：第1局 小李 自摸 清一色。胡的人和它一样") and table.hands() == 1
    assert table.say("c: 不用了", "c: 老王 自摸 七对")[-2] == claim("小李 自摸 清一色")


def test_a_button_flow_confirming_another_ending_is_held_back_in_its_message(table: Table) -> None:
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    table.say("c: 胡", "c: !press 老王", "c: !press 自摸", "c: !press 七对", "c: !press 预览")
    out = table.say("c: !press 确认")
    assert out == [claim("小李 自摸 清一色"), "bot: [按钮] 是新的一局 | 取消"] and table.hands() == 1
    assert table.say("b: !press 是新的一局") == [f"bot: [提示] {NOT_YOURS}"]
    assert table.say("c: !press 是新的一局")[0] == "bot: [提示] 记好了" and table.hands() == 2


NEW_HAND_TYPED = "bot: 好的，记成新的一局（上面那条已经改成记下的结果）。"


def test_the_typers_typed_new_hand_books_it_as_the_press_does(table: Table) -> None:
    """老王's `是新的一局` (`新的一局`, `是新的`) books his held-back claim as a new hand, as his press would; anyone
    else's (an admin's too, as with a typed 算了), asked or with more words, is chat."""
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    table.say("c: 老王 胡 碰碰胡 小李点的")
    lines = ("a: 是新的一局", "b: 新的一局", "boss: 是新的一局", "c: 是新的一局？", "c: 是新的一局 吧")
    assert table.say(*lines) == [] and table.hands() == 1
    out = table.say("c: 是新的")
    assert out[:2] == ["bot: 第2局 记下：", "bot: 老王 胡 小李 点的炮：碰碰胡×2 → ×2"] and out[-1] == NEW_HAND_TYPED
    assert table.hands() == 2
    assert table.say("c: 是新的一局") == [] and table.hands() == 2  # answered: nothing waits any more


def test_a_typed_new_hand_books_a_held_back_button_flow_and_answers_no_plain_repeat(table: Table) -> None:
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    table.say("c: 胡", "c: !press 老王", "c: !press 自摸", "c: !press 七对", "c: !press 预览", "c: !press 确认")
    out = table.say("c: 新的一局")
    assert out[:2] == ["bot: 第2局 记下：", "bot: 老王 自摸：七对×4 → ×4"] and out[-1] == NEW_HAND_TYPED
    table.say("!clock +3m", "a: 阿杰 自摸 清一色", "!clock +20s")
    assert table.say("c: 胡 @a 清一色 自摸")[-1] == "bot: [按钮] 确实又一次 | 不用了"  # the same win: no new hand
    assert table.say("c: 是新的一局") == [] and table.hands() == 3


# ----------------------------------------------------------------------------------------- told after the fact


def test_a_recap_that_reads_as_the_hand_just_recorded_is_that_hand_minutes_later(table: Table) -> None:
    table.say("b: 阿杰 自摸 清一色", "!clock +3m")
    booked = table.balances()
    for line in ("阿杰 刚才 自摸 清一色", "刚刚 阿杰 自摸了 清一色", "a: 我刚才自摸 清一色"):
        out = table.say(line if line.startswith("a: ") else f"c: {line}")
        assert out == [
            "bot: 小李 3分钟前记的：第1局 阿杰 自摸 清一色。胡的人和它一样，多半是同一手又记了一次，没有再记。"
            "要是真的又胡了一次，点「确实又一次」。",
            "bot: [按钮] 确实又一次 | 不用了",
        ], line
    assert table.balances() == booked and table.hands() == 1
    # no recap word: told exactly alike by someone else it is that hand for three windows (4½ minutes) — asked
    # of a line naming the player first too — later a new one
    assert table.say("c: 阿杰 自摸 清一色")[1] == "bot: [按钮] 确实又一次 | 不用了" and table.hands() == 1
    assert table.say("c: 胡 @a 自摸 清一色")[1] == "bot: [按钮] 确实又一次 | 不用了"
    table.say("!clock +2m")
    assert table.say("c: 阿杰 自摸 清一色")[1] == "bot: 阿杰 自摸：清一色×4 → ×4"


def test_a_recap_that_differs_is_another_claim_of_the_hand_just_recorded(table: Table) -> None:
    """Within the window any recap that differs; past it, one naming the same winner (another telling of that
    hand) — while someone else's `老王 刚才 胡 …` minutes later is a hand of its own (the next test file's)."""
    table.say("b: 阿杰 自摸 清一色", "!clock +20s")
    for line in ("c: 老王 刚才 胡 碰碰胡 小李点的", "b: 刚才 荒庄"):
        out = table.say(line)
        owner = "你" if line.startswith("b: ") else "小李"
        assert out[0].startswith(f"bot: {owner} 20秒前记的：第1局 阿杰 自摸 清一色。这条和它不一样"), (line, out)
        assert out[1] == "bot: [按钮] 是新的一局 | 不用了"
    table.say("!clock +3m")
    out = table.say("c: 阿杰 刚才 自摸 七对")
    assert out[0].startswith("bot: 小李 3分钟前记的：第1局 阿杰 自摸 清一色。这条和它不一样"), out
    assert table.hands() == 1


def test_a_recap_once_the_next_hand_has_a_record_ends_that_hand(table: Table) -> None:
    table.say("b: 阿杰 自摸 清一色", "!clock +3m", "c: 暗杠 3s", "!clock +3m")
    out = table.say("b: 阿杰 刚才 自摸 清一色")
    assert out[:2] == ["bot: 第2局 记下：", "bot: 阿杰 自摸：清一色×4 → ×4"] and table.hands() == 2


# ---------------------------------------------------------------------------------------- through Telegram


async def test_another_claim_through_telegram_is_its_typers_to_answer(tg: Harness, clock: Any) -> None:
    """The question names the record already there; another seated player's press books nothing; the typer's
    typed 不用了 answers it; held back again, an admin may book it as a new hand for its typer, once."""
    await open_table(tg)
    await tg.say(B, "小李 自摸 清一色")
    clock.advance(seconds=20)
    question = await ask(tg, C, "老王 胡 碰碰胡 小李点的")
    assert question["text"] == claim("小李 自摸 清一色").removeprefix("bot: ")
    assert list(buttons(question)) == ["是新的一局", "不用了"]
    await tg.feed(tg.updates.press(A, question, buttons(question)["是新的一局"]))
    alert = tg.telegram.sent("answerCallbackQuery")[-1]
    assert alert["text"] == NOT_YOURS and alert["show_alert"] is True
    said = len(tg.telegram.calls)
    await tg.say(C, "不用了")
    edit, reply = tg.telegram.calls[said:]
    assert edit.params["message_id"] == question["message_id"] and edit.params["text"] == "已取消，没有记账。"
    assert reply.params["text"] == "好的，没有再记（上面问的已经作废）。"
    assert tg.balance(C["id"]) == -400 and [f for f in tg.ledger.open_flows(CHAT["id"]) if f.kind == "dup"] == []
    again = await ask(tg, C, "老王 胡 碰碰胡 小李点的")
    await tg.feed(tg.updates.press(BOSS, again, buttons(again)["是新的一局"]))
    assert tg.telegram.sent("answerCallbackQuery")[-1]["text"] == "记好了"
    await tg.feed(tg.updates.press(BOSS, again, buttons(again)["是新的一局"]))
    assert tg.balance(C["id"]) == -200 and len(tg.ledger.history(CHAT["id"], 5)) == 2


# ------------------------------------------------------------------------------------------- found by play-test


@pytest.mark.parametrize("line", ["老王 卡五星 点 阿杰", "阿杰 卡五星 点 老王", "小李 自摸 七对"])
def test_a_claim_by_its_patterns_that_names_a_winner_is_asked_never_taken_for_cheering(table: Table, line: str) -> None:
    """Told by its patterns within two minutes of someone else's hand end, a line that names who won (another
    player, its sender by name, or the same winner with another hand) is a claim, which was dropped without a word;
    a line naming nobody (`清一色 自摸！`) is still cheering."""
    table.say("b: 小李 自摸 清一色", "!clock +20s")
    booked = table.balances()
    assert table.say(f"c: {line}")[-1] == "bot: [按钮] 是新的一局 | 不用了"
    assert table.say("a: 清一色 自摸！") == []
    assert table.balances() == booked and table.hands() == 1


def test_a_recap_of_another_hand_past_the_window_is_a_new_hand(table: Table) -> None:
    """`小李 刚才 自摸 七对` five minutes after 阿杰's hand: a hand of its own, booked; the same line within the window,
    or one retelling the record exactly at any time, is held back as that hand."""
    table.say("a: 阿杰 自摸 清一色", "!clock +5m")
    assert table.say("b: 小李 刚才 自摸 七对")[:2] == ["bot: 第2局 记下：", "bot: 小李 自摸：七对×4 → ×4"]
    table.say("!clock +10m")
    assert table.say("c: 小李 刚才 自摸 七对")[-1] == "bot: [按钮] 确实又一次 | 不用了"
    assert table.hands() == 2


def test_an_askers_record_while_the_recorder_decides_says_who_decides(table: Table) -> None:
    table.say("a: 胡 清一色 自摸", "!clock +3m", "a: 暗杠 3s", "b: 撤销")
    assert table.say("b: 暗杠 7z") == [
        "bot: 没有记：你要撤销的 第2局 阿杰 暗杠 三条 还在等 阿杰 或管理员确认，它还算着。等他们点「确认撤销」"
        "（不撤了点「不撤销」或发「算了」），再发这一条。"
    ]
