"""够级: `牌桌` (the table view) shows the table's match score, as each round's reply and `比分` do (it showed the
seats and the hand only)."""

from __future__ import annotations

from bot.console import Console
from tests.bot.test_gouji_places import console, said

__all__ = ["console"]


def test_the_table_view_shows_the_match_score(console: Console) -> None:
    assert said(console, "a: 牌桌")[1:] == [
        "bot: 第1局",
        "bot: 比分：阿一、阿三、阿五 0 ｜ 阿二、阿四、阿六 0",
        "bot: 本局还没有记录。",
    ]
    said(console, "a: 名次 @a @b @c @d @e @f")
    match = said(console, "a: 比分")
    assert match == ["bot: 比分：阿一、阿三、阿五 2 ｜ 阿二、阿四、阿六 0"]
    assert said(console, "a: 牌桌")[1:3] == ["bot: 第2局", match[0]]


def test_in_english(console: Console) -> None:
    said(console, "a: 设置 语言 en")
    said(console, "a: order @a @b @c @d @e @f")
    assert said(console, "a: table")[1:3] == ["bot: Hand 2", "bot: Match: 阿一, 阿三, 阿五 2 | 阿二, 阿四, 阿六 0"]
