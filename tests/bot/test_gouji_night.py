"""A 够级 night as a play-tester typed it: 结算 pays each player's 对头 (the one their rounds' money went to) when
that is as few transfers, and a payment to the one owed at the table is not refused as if nothing were owed; places
said by count (`大刘第一 …`, `第一大刘 …`), a member named who is not at the table, a correction of places (`不对 是
阿杰头科 大刘第二`) and `错了 改成 名次 …` from someone who did not record the round are answered; 牌桌 shows the 名次
buttons half filled; 台费 words the cut per round; 统计 and 排行 count rounds and 头科, not 荒庄 and 胡."""

from __future__ import annotations

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger
from tests.bot.test_player_first import Table

PLAYERS = ("dl 大刘", "aj 阿杰", "pz 胖子", "lw 老王", "xz 小张", "a6 阿六", "zz 赵总")
SETUP = (
    *(f"!join {who}" for who in PLAYERS),
    "!admin lw",
    "lw: 设置 游戏 够级",
    "lw: 开桌 @dl @aj @pz @lw @xz @a6",
)
#: 大刘, 胖子 and 小张 score: each of 阿杰, 老王 and 阿六 owes their 对头 (three seats on) 2元
ROUND = "名次 @dl @aj @pz @lw @xz @a6"


@pytest.fixture
def console(bot: tuple[Bot, ManualClock]) -> Console:
    console = Console(*bot)
    for line in SETUP:
        console.feed(line)
    return console


def said(console: Console, line: str) -> list[str]:
    console.feed("!clock +2m")
    return console.feed(line)


def transfers(printed: list[str]) -> list[str]:
    """The lines under 「最少转账」 in 结算's post."""
    start = printed.index(next(line for line in printed if line.startswith("bot: 最少转账")))
    return [line for line in printed[start + 1 :] if "→" in line and "[按钮]" not in line][:3]


def test_the_settlement_pays_each_players_opposite(console: Console) -> None:
    said(console, f"dl: {ROUND}")
    settled = said(console, "lw: 结算")
    assert sorted(transfers(settled)) == sorted(
        ["bot: 老王 → 大刘 2元", "bot: 阿杰 → 小张 2元", "bot: 阿六 → 胖子 2元"]
    )
    assert said(console, "aj: 付 @xz 2")[0] == "bot: 记下付款：阿杰 → 小张 2元（阿杰 说已付，等 小张 点「收到」确认）"


def test_a_debt_netted_away_is_explained_to_whoever_pays_it(sqlite_url: str) -> None:
    """小李 won 阿杰's 4元 and lost 4元 to 老王: 结算 has 阿杰 pay 老王; 阿杰 paying 小李 is told why not."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 胡 七对 点 @a", "!clock +3m", "c: 胡 七对 点 @b")
    try:
        assert "bot: 阿杰 → 老王 4元" in table.say("a: 结算")
        assert table.say("a: 付 @b 4") == [
            "bot: 你现在不欠 小李 钱，没有记。今晚你输给 小李 的 4元 已经并进结算的最少转账，不用另外付给 小李"
            "（发「明细」看来由）。你还欠：老王 4元。"
        ]
        assert table.say("b: 收到 @a 4") == [
            "bot: 阿杰 现在不欠你钱，没有记。今晚 阿杰 输给你的 4元 已经并进结算的最少转账，不用另外找 阿杰 收"
            "（发「明细」看来由）。没有人欠你钱。"
        ]
    finally:
        table.ledger.close()


PLACED = (
    "bot: 第1局 够级：头科 大刘、二科 阿杰、三科 胖子、四科 老王、二落 小张、大落 阿六",
    "bot: 大刘、胖子、小张 得 2 分",
)


@pytest.mark.parametrize(
    "line",
    [
        "aj: 大刘第一 阿杰第二 胖子第三 老王第四 小张第五 阿六第六",
        "aj: 第一大刘 第二阿杰 第三胖子 第四老王 第五小张 第六阿六",
        "aj: 名次 第一大刘 第二阿杰 第三胖子 第四老王 第五小张 第六阿六",
    ],
)
def test_places_said_by_count(console: Console, line: str) -> None:
    assert tuple(said(console, line)[:2]) == PLACED


def test_ones_own_place_by_count(console: Console) -> None:
    assert said(console, "dl: 我第一")[1] == "bot: 名次：头科 大刘（自己说的）"


@pytest.mark.parametrize(
    "line",
    [
        "aj: 头科大刘 二科阿杰 三科胖子 四科老王 五科赵总 六科阿六",
        "aj: 大刘第一 阿杰第二 胖子第三 老王第四 赵总第五 阿六第六",
        "aj: 名次 大刘 阿杰 胖子 老王 赵总 阿六",
    ],
)
def test_a_member_placed_who_is_not_at_the_table_is_named(console: Console, line: str) -> None:
    assert said(console, line) == ["bot: 赵总 不在这桌上。"]


@pytest.mark.parametrize("line", ["aj: 大刘第一 路人第二", "aj: 第一名 厉害", "aj: 头科 路人甲"])
def test_place_words_in_chat_stay_chat(console: Console, line: str) -> None:
    assert said(console, line) == []


NOT_YOURS = (
    "bot: 「改」不会改别人记的账：最后一条（第1局 出完：大刘、阿杰、胖子、老王、小张、阿六）是 阿杰 记的，请 TA 发"
    "「改成 …」或编辑原来那条消息；管理员也可以改（写明是谁：改成 @某人 …）。"
)


@pytest.mark.parametrize("line", ["pz: 错了 改成 名次 @aj @dl @pz @lw @xz @a6", "pz: 不对 是阿杰头科 大刘第二"])
def test_a_correction_of_someone_elses_round_says_whose_it_is(console: Console, line: str) -> None:
    said(console, f"aj: {ROUND}")
    assert said(console, line) == [NOT_YOURS]


@pytest.mark.parametrize(
    "line", ["aj: 不对 是阿杰头科 大刘第二", "aj: 改成 阿杰头科", "aj: 错了 应该是 大刘第二 阿杰第一"]
)
def test_places_corrected_by_name_keep_the_others(console: Console, line: str) -> None:
    said(console, f"aj: {ROUND}")
    assert said(console, line)[0] == (
        "bot: 把第1局的「出完：大刘、阿杰、胖子、老王、小张、阿六」（你 2分钟前记的）"
        "改成「出完：阿杰、大刘、胖子、老王、小张、阿六」？改了按新的重算这一局。"
    )


def test_the_table_shows_the_places_waiting(console: Console) -> None:
    said(console, "xz: 我头科！")
    said(console, "pz: 我是二科")
    assert said(console, "lw: 牌桌")[3:] == [
        "bot: 第1局的名次还没记完，没有记账（名次按钮在等）：",
        "bot: 名次：头科 小张（自己说的）、二科 胖子（自己说的）",
        "bot: 还差：大刘、阿杰、老王、阿六",
    ]
    said(console, "xz: 取消")
    assert said(console, "lw: 牌桌")[-1] == "bot: 本局还没有记录。"


def test_the_cut_is_worded_per_round(console: Console) -> None:
    said(console, "lw: 设置 抽水 10%")
    assert "bot: 台费：每局赢家抽水 10%" in said(console, "lw: 台费")


def test_statistics_count_rounds_and_firsts(console: Console) -> None:
    said(console, f"dl: {ROUND}")
    said(console, "dl: 名次 @aj @lw @a6 @dl @pz @xz")
    said(console, "lw: 结算")
    stats = said(console, "lw: 统计")
    assert stats[1] == "bot: 共 2局 够级"
    assert "bot: 阿杰 +10元｜够级 2局 头科1（50.0%）" in stats
    assert not [line for line in stats if "胡" in line or "荒庄" in line or "番型" in line]
    board = said(console, "lw: 排行")
    assert "bot: 🥉 阿杰 +10元｜够级 2局 头科1（50.0%）" in board
    card = said(console, "lw: 统计 @aj")
    assert card[1] == "bot: 够级 2局 头科1（50.0%）"
    assert not [line for line in card if "点炮" in line or "番型" in line]


def test_firsts_are_read_on_either_database(db_url: str) -> None:
    """The 头科 count comes from the stored answer's places, which SQLite hands back as text and PostgreSQL as
    decoded JSON."""
    clock = ManualClock()
    ledger = Ledger.open(db_url, clock=clock.now)
    try:
        console = Console(Bot(ledger, clock=clock), clock)
        for line in SETUP:
            console.feed(line)
        said(console, f"dl: {ROUND}")
        assert "bot: 大刘 +2元｜够级 1局 头科1（100.0%）" in said(console, "lw: 统计")
    finally:
        ledger.close()
