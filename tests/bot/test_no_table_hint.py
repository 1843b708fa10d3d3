"""A line that needs an open table, sent with none open, is answered with a 开桌 example that seats as many as the
group's game does: a 够级 group told to seat three (卡五星's count) could not follow it."""

from __future__ import annotations

import pytest

from tests.bot.test_settle_twice import _after
from tests.bot.test_transcripts import replay


@pytest.mark.parametrize(
    ("game", "language", "line", "answer"),
    [
        ("卡五星", "中文", "a: 撤销", "现在没有开着的牌桌。先开桌：开桌 @甲 @乙 @丙"),
        ("够级", "中文", "a: 名次 @a @b @c @d @e @f", "现在没有开着的牌桌。先开桌：开桌 @甲 @乙 @丙 @丁 @戊 @己"),
        ("碰胡", "中文", "a: 退桌", "现在没有开着的牌桌。先开桌：开桌 @甲 @乙 @丙 @丁"),
        ("够级", "英文", "a: undo", "No table is open. Open one first: open @a @b @c @d @e @f"),
    ],
)
def test_no_table_hint_seats_the_groups_game(sqlite_url: str, game: str, language: str, line: str, answer: str) -> None:
    out = replay(["!join a 阿杰", "!admin a", f"a: 设置 游戏 {game}", f"a: 设置 语言 {language}", line], sqlite_url)
    assert _after(out, line) == [answer]


def test_a_gouji_correction_by_five_names_says_who_is_left_out(sqlite_url: str) -> None:
    """`改成` and five names alone: read as a round, and answered with the sixth seat it left out (the README said
    five were enough)."""
    seats = ["!join a", "!join b", "!join c", "!join d", "!join e", "!join f", "!admin a"]
    out = replay(
        [
            *seats,
            "a: 设置 游戏 够级",
            "a: 开桌 @a @b @c @d @e @f",
            "a: 名次 @a @b @c @d @e @f",
            "!clock +3m",
            "a: 改成 @b @a @c @d @e",
        ],
        sqlite_url,
    )
    assert "还差 f" in _after(out, "a: 改成 @b @a @c @d @e")[0]
