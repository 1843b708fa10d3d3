"""第3局: one finished hand asked about as players ask it, answered with 历史's line for that hand of the latest
table; lines that only mention a hand stay chat."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.bot.test_transcripts import replay

SEATS = ["!join a 阿杰", "!join b 小李", "!join c 老王", "!admin a", "a: 开桌 @a @b @c 庄 @a"]
TWO_HANDS = [*SEATS, "!clock +1m", "a: 胡 清一色 自摸", "!clock +3m", "b: 胡 七对 点 @a", "!clock +1m"]


def answers(script: list[str], url: str) -> dict[str, list[str]]:
    """Each line of `script` played on the database at `url`, with the bot's lines that follow it."""
    out = replay(script, url)
    said: dict[str, list[str]] = {}
    last = ""
    for line in out:
        if line.startswith("bot: "):
            said[last].append(line.removeprefix("bot: "))
        else:
            last = line
            said[last] = []
    return said


def history_lines(url: str) -> list[str]:
    """历史's lines for the two hands, oldest first (the head line left out)."""
    return answers([*TWO_HANDS, "a: 历史 2"], url)["a: 历史 2"][1:]


@pytest.mark.parametrize(
    ("line", "hand"),
    [
        ("c: 第1局", 1),
        ("c: 第一局", 1),
        ("c: 看看第二局", 2),
        ("c: 第2局怎么算的？", 2),
        ("c: 第2把明细", 2),
        ("c: 查一下 第 1 局", 1),
        ("c: 历史 第2局", 2),
    ],
)
def test_a_hand_asked_by_its_number_is_its_history_line(
    line: str, hand: int, new_sqlite_url: Callable[[], str]
) -> None:
    first, second = history_lines(new_sqlite_url())
    assert first.startswith("第1局 阿杰 自摸") and second.startswith("第2局 小李 胡 阿杰 点的炮")
    assert answers([*TWO_HANDS, line], new_sqlite_url())[line] == [(first, second)[hand - 1]]


def test_a_hand_not_yet_played_or_taken_back_is_refused_by_name(new_sqlite_url: Callable[[], str]) -> None:
    said = answers([*TWO_HANDS, "c: 第3局", "a: 撤销 第1局", "a: !press 确认撤销", "c: 第1局"], new_sqlite_url())
    assert said["c: 第3局"] == ["这桌才打完 2 局，还没有第3局。"]
    assert said["c: 第1局"] == ["最近这桌没有打完的第1局（没打到，或已撤销）。"]


def test_the_hand_is_the_latest_tables_once_a_new_table_opens(new_sqlite_url: Callable[[], str]) -> None:
    script = [*TWO_HANDS, "a: 开桌 @a @b @c 庄 @b", "!clock +1m", "c: 胡 清一色 自摸", "!clock +1m", "a: 第1局"]
    said = answers([*script, "a: 第2局"], new_sqlite_url())
    assert said["a: 第1局"][0].startswith("第1局 老王 自摸")
    assert said["a: 第2局"] == ["这桌才打完 1 局，还没有第2局。"]


def test_lines_that_only_mention_a_hand_stay_chat(new_sqlite_url: Callable[[], str]) -> None:
    lines = ["c: 第3局我就要赢了", "c: 第二局打得真臭", "c: 第一把就胡了", "c: hand 2 was wild", "c: hand me a beer"]
    said = answers([*TWO_HANDS, *lines], new_sqlite_url())
    assert all(said[line] == [] for line in lines)


def test_a_count_of_hands_may_carry_its_hand_word(new_sqlite_url: Callable[[], str]) -> None:
    said = answers([*TWO_HANDS, "a: 历史 2局", "a: 历史 2"], new_sqlite_url())
    assert said["a: 历史 2局"] == said["a: 历史 2"] and len(said["a: 历史 2"]) == 3


def test_an_english_group_is_answered_in_english(new_sqlite_url: Callable[[], str]) -> None:
    script = [*SEATS[:4], "a: 设置 语言 en", "a: 开桌 @a @b @c 庄 @a", "!clock +1m", "a: 胡 清一色 自摸"]
    asked = ["b: 第1局", "b: hand 1", "b: show hand #1?", "b: history hand 1", "b: 第2局", "b: hand 2"]
    paced = [step for line in asked for step in (line, "!clock +3s")]  # six reads at once would be a flood
    said = answers([*script, "!clock +1m", *paced], new_sqlite_url())
    assert said["b: 第1局"][0].startswith("Hand 1: 阿杰 self-draw")
    assert said["b: hand 1"] == said["b: show hand #1?"] == said["b: history hand 1"] == said["b: 第1局"]
    assert said["b: 第2局"] == said["b: hand 2"] == ["This table has finished 1 hand: there is no hand 2 yet."]


@pytest.mark.parametrize("line", ["c: 上一局", "c: 上一把？", "c: 上局"])
def test_the_last_hand_asked_for_is_that_one_hand(line: str, new_sqlite_url: Callable[[], str]) -> None:
    """`上一局` is `历史 1`: the last hand alone (it listed the last five, as plain 历史)."""
    second = history_lines(new_sqlite_url())[1]
    said = answers([*TWO_HANDS, line], new_sqlite_url())[line]
    assert said[1:] == [second]


@pytest.mark.parametrize("line", ["c: 上把 @b 清一色自摸 太猛了", "c: 上一局 老王 打得好", "c: 上局 我输惨了"])
def test_talk_about_the_last_hand_is_no_question(line: str, new_sqlite_url: Callable[[], str]) -> None:
    """`上把 …` followed by talk about it is chat (a play-test: the bot posted 历史 under a remark)."""
    assert answers([*TWO_HANDS, line], new_sqlite_url())[line] == []


@pytest.mark.parametrize("line", ["c: 撤销 上一局", "c: 撤销上一把", "b: 撤销 上一局！"])
def test_the_last_hand_undone_is_that_hand_voided_after_a_question(
    line: str, new_sqlite_url: Callable[[], str]
) -> None:
    """`撤销 上一局` is `撤销 第2局` when hand 2 finished last (it was refused as words 撤销 cannot read)."""
    said = answers([*TWO_HANDS, line, "a: !press 确认撤销", "c: 历史"], new_sqlite_url())
    assert said[line][0].startswith("撤销第2局：整局作废（小李 胡 阿杰 点的炮 七对）")
    assert said["a: !press 确认撤销"][0] == "已作废第2局（小李 胡 阿杰 点的炮 七对）。"
    assert [line.split(" ", 1)[0] for line in said["c: 历史"][1:]] == ["第1局"]
