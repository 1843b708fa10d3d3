"""够级: a 革命 line that cannot be is answered with why, and books nothing. Two or more 革命 void the round, so
nobody went out: a line naming places (or failed burns) with them was booked as a void round, its places dropped
without a word; and six 革命 cannot be (a 革命 hand holds no 大王, 小王 or 2, and those are always in someone's
hand). A void round said as one (`名次 革命 @e @f`) is booked as before."""

from __future__ import annotations

import pytest

from bot.console import Console
from tests.bot.test_gouji_places import console, rows, said

__all__ = ["console"]  # the fixture, from the 名次 tests (six seated, a 够级 table open)

VOID_WITH_PLACES = (
    "bot: 没有记：两人以上革命，这一局就作废了，没人出牌，也就没有名次和烧牌失败（写了 {named}）。"
    "阿五、阿六 真的都革命了，发：名次 革命 阿五 阿六（本局作废）；这一局打了的话，革命的只写一个人。"
)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("a: 名次 @a @b @c @d 革命 @e @f", "阿一、阿二、阿三、阿四"),
        ("a: 名次 @a @b 革命 @e @f 烧牌 @c @d", "阿一、阿二、阿三、阿四"),
        ("b: 名次 @a 革命 @e @f", "阿一"),
        ("b: 名次 革命 @e @f 烧牌 @d", "阿四"),
    ],
)
def test_places_with_two_geming_are_refused_with_why(console: Console, line: str, named: str) -> None:
    before = rows(console)
    assert said(console, line) == [VOID_WITH_PLACES.format(named=named)]
    assert rows(console) == before


def test_six_geming_are_refused_with_why(console: Console) -> None:
    before = rows(console)
    out = said(console, "a: 名次 革命 @a @b @c @d @e @f")
    assert out == [
        "bot: 没有记：六个人不可能都革命。革命要手里没有大王、小王和 2，这些牌总在某个人手里。"
        "按出完的顺序写名次，革命的写在「革命」后面：名次 @甲 @丁 … 革命 @某人"
    ]
    assert rows(console) == before


def test_a_void_round_said_as_one_is_booked(console: Console) -> None:
    out = said(console, "a: 名次 革命 @e @f")
    assert out[0] == "bot: 第1局 够级：作废，不计分（阿五、阿六 革命：两人以上革命的局不算）", out
    console.feed("!clock +5m")  # past the double-entry hold-back of another void round
    out = said(console, "a: 名次 革命 @a @b @c @d @e")
    assert out[0] == "bot: 第2局 够级：作废，不计分（阿一、阿二、阿三、阿四、阿五 革命：两人以上革命的局不算）", out


def test_the_buttons_preview_the_refusal_and_offer_no_confirm(console: Console) -> None:
    said(console, "a: 名次")
    for press in ("阿一", "阿二", "革命…", "阿五", "阿六"):
        out = console.feed(f"a: !press {press}")
    assert VOID_WITH_PLACES.format(named="阿一、阿二") in out
    assert not any("✅ 确认" in line for line in out), out
    for _ in range(4):  # take back every tap: the 革命 marks stay the mode
        console.feed("a: !press ↩ 撤一个")
    for press in ("阿五", "阿六"):
        out = console.feed(f"a: !press {press}")
    assert "bot: 阿五、阿六 革命：两人以上革命，本局作废，不计分。" in out
    assert any("✅ 确认" in line for line in out), out
