"""A 抢杠胡 told with the robbing first, as players say it (a play-test: `抢杠胡 @wang 碰碰胡`, `抢杠 @wang 胡 碰碰胡`,
`我抢杠胡了 碰碰胡 @wang` were silent while only `胡 碰碰胡 抢杠 @wang` booked): each books the same robbed-kong win;
the robbing said as chat, with nobody named, stays chat."""

from __future__ import annotations

import pytest

from bot.core import Bot, ManualClock
from tests.bot.test_correct_side_stakes import table

ROBBED = [
    "bot: 小李 抢 老王 的杠：碰碰胡×2、抢杠胡×2 → ×4",
    "bot: 老王 的蓄杠被抢，杠钱退回",
    "bot: 阿杰 +1元（本晚 0）",
    "bot: 小李 +5元（本晚 +4元）",
    "bot: 老王 -6元（本晚 -4元）",
]


@pytest.mark.parametrize(
    "line",
    [
        "b: 胡 碰碰胡 抢杠 @c",  # the form that always booked: the others must book the same
        "b: 抢杠胡 @c 碰碰胡",
        "b: 抢杠 @c 胡 碰碰胡",
        "b: 我抢杠胡了 碰碰胡 @c",
        "b: 抢杠胡 老王 碰碰胡",
        "b: 我抢了老王的杠 碰碰胡",
        "b: 抢杠胡了 碰碰胡 老王",
    ],
)
def test_a_win_told_with_its_robbing_first_books_the_robbed_kong(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1001, "a: 设置 底金 1", "c: 蓄杠 4s")
    booked = console.feed(line)
    assert booked[0] == "bot: 第1局 记下：", booked
    assert sorted(booked[1:6]) == sorted(ROBBED), booked


@pytest.mark.parametrize("line", ["a: 抢杠胡太难了", "a: 抢杠胡了哈哈哈 老王太惨", "a: 抢杠 谁会啊", "a: 我抢杠胡过"])
def test_the_robbing_said_without_whose_kong_stays_chat(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1002, "a: 设置 底金 1", "c: 蓄杠 4s")
    assert console.feed(line) == []
    assert "第1局" in "".join(console.feed("a: 牌桌"))
