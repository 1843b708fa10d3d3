"""够级 leftovers: a place claimed with laughter glued on (`我头科了哈哈`) is the claim, as `我自摸了哈哈` is a win; a
place said of a member who is not at the table (`小明头科`) is answered saying so, nothing changed; and 战报 of a
够级 night has its own columns — rounds, each place's count, 对头 — not 卡五星's (or none at all)."""

from __future__ import annotations

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from bot.reports.night import night_post
from tests.bot.test_gouji_night import SETUP as NIGHT_SETUP
from tests.bot.test_gouji_night import said

#: the 够级 table of test_gouji_night, and 小明, a member not seated
SETUP = ("!join xm 小明", *NIGHT_SETUP)
NOT_SEATED = "bot: 没有记：小明 不在这桌上，名次只记座位上的人（大刘、阿杰、胖子、老王、小张、阿六）。"


@pytest.fixture
def console(bot: tuple[Bot, ManualClock]) -> Console:
    console = Console(*bot)
    for line in SETUP:
        console.feed(line)
    return console


@pytest.mark.parametrize(
    ("line", "placed"),
    [
        ("dl: 我头科了哈哈", "头科 大刘（自己说的）"),
        ("dl: 我头科哈哈哈", "头科 大刘（自己说的）"),
        ("dl: 我是二科哈哈", "二科 大刘（自己说的）"),
        ("aj: 大刘头科哈哈", "头科 大刘（阿杰说的）"),
        ("aj: 大刘 头科哈哈", "头科 大刘（阿杰说的）"),
    ],
)
def test_a_place_claimed_with_laughter_glued_on_is_the_claim(console: Console, line: str, placed: str) -> None:
    out = said(console, line)
    assert out[:2] == ["bot: 记名次（第1局）：按出完的顺序点人", f"bot: 名次：{placed}"], out


@pytest.mark.parametrize("line", ["dl: 头科哈哈", "dl: 哈哈哈", "dl: 谁头科哈哈", "dl: 今天头科哈哈"])
def test_laughter_with_no_ones_place_stays_chat(console: Console, line: str) -> None:
    assert said(console, line) == []


@pytest.mark.parametrize(
    "line", ["aj: 小明头科", "aj: 小明 头科", "aj: 头科 小明", "aj: 小明是二科", "aj: @xm 三科", "aj: 小明头科哈哈"]
)
def test_a_place_of_a_member_not_seated_says_so(console: Console, line: str) -> None:
    assert said(console, line) == [NOT_SEATED]
    assert said(console, "dl: 我头科")[1] == "bot: 名次：头科 大刘（自己说的）"  # nothing waited: no buttons before


def test_a_place_of_a_member_not_seated_leaves_waiting_buttons_as_they_were(console: Console) -> None:
    said(console, "dl: 我头科")
    assert said(console, "aj: 小明二科") == [NOT_SEATED]
    assert said(console, "aj: 我二科")[-1] == "bot: 记到上面的名次按钮里了：阿杰 二科。"


@pytest.mark.parametrize("line", ["aj: 路人甲头科", "aj: 今天头科", "aj: 小明头科吗"])
def test_a_place_of_no_member_stays_chat(console: Console, line: str) -> None:
    assert said(console, line) == []


def test_a_gouji_nights_report_has_its_own_columns(console: Console) -> None:
    for order in ("@dl @aj @pz @lw @xz @a6", "@aj @dl @lw @pz @a6 @xz", "@dl @pz @xz @aj @lw @a6"):
        said(console, f"lw: 名次 {order}")
    out = said(console, "lw: 战报")
    assert out[1:8] == [
        "bot: 第1晚战报（还没结算）· 2026-01-10 · 3局",
        "bot: 大刘 +12元｜3局 头科2 二科1｜对头 老王",
        "bot: 小张 +12元｜3局 三科1 二落1 大落1｜对头 阿杰",
        "bot: 胖子 +12元｜3局 二科1 三科1 四科1｜对头 阿六",
        "bot: 老王 -12元｜3局 三科1 四科1 二落1｜对头 大刘",
        "bot: 阿六 -12元｜3局 二落1 大落2｜对头 胖子",
        "bot: 阿杰 -12元｜3局 头科1 二科1 四科1｜对头 小张",
    ], out
    night = console.bot.service.current_night(console.chat_id)
    assert night is not None
    post = night_post(console.bot.service, night.id)
    assert post.header == ("玩家", "局数", "头科", "二科", "三科", "四科", "二落", "大落", "对头", "净")
    assert post.rows[0] == ("大刘", "3", "2", "1", "0", "0", "0", "0", "老王", "+12元")
    english = night_post(console.bot.service, night.id, lang="en")
    assert english.header == ("Player", "Hands", "1st", "2nd", "3rd", "4th", "5th", "6th", "Across (对头)", "Net")
    assert english.text.splitlines()[1] == "大刘 +12元 | 3 hands: 1st ×2, 2nd ×1 | across (对头): 老王"
