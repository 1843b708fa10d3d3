"""碰胡 lines players type that were silent: two 扫 at the deal told in one line (`起手连扫`, `起手扫 两个`: the
rules' 连扫二次, each pays 2 + 2), and a discard told with its discarder first in the third person (`红姐打的 老表碰了`,
`小刚放炮 阿四胡了`), read as the first-person forms are; and 五福 named one way in every English text."""

from __future__ import annotations

import pytest

import bot.games.penghu  # noqa: F401  (registers the 碰胡 texts)
from bot.commands._money_texts import REASON_EN, reason_word
from bot.texts import SCORING_ENGLISH, TEXTS, scoring_reason
from ledger.scoring import ScoringError, answer
from tests.bot.test_penghu_retold import Table, table
from tests.bot.test_player_first import Table as EnglishTable

__all__ = ["table"]  # the fixture, as the retelling tests seat the table (红姐 deals; 阿四, 老表, 小刚)

#: 阿四's two deal-time 扫: each other player pays 4 (连扫二次 2 + 2)
RUN = {"红姐": -4, "阿四": 12, "老表": -4, "小刚": -4}


def yuan(table: Table) -> dict[str, int]:
    """Each player's balance in 元, those at 0 left out."""
    return {name: amount // 100 for name, amount in table.balances().items() if amount}


@pytest.mark.parametrize(
    "line",
    [
        "b: 起手连扫",
        "b: 起手连扫了",
        "b: 我起手连扫",
        "b: 起手 连扫",
        "b: 起手扫 两个",
        "b: 起手扫两个",
        "b: 起手扫了两个",
        "b: 起手扫 2个",
        "b: 起手扫 两次",
        "b: 扫 起手 x2",
        "b: 起手连扫 两次",
        "c: 阿四 起手扫 两个",
    ],
)
def test_two_sweeps_at_the_deal_in_one_line_are_booked_as_two(table: Table, line: str) -> None:
    out = table.say(line)
    assert out[0] == "bot: 第1局 记下：阿四 扫（起手）×2", out
    assert "bot: 碰/扫次数：阿四 2（碰0 扫2）" in out
    assert yuan(table) == RUN


def test_a_count_said_once_more_at_the_deal_is_refused_as_a_tishe(table: Table) -> None:
    """Three at the deal are a 提蛇 (连扫三次): refused, saying what to record, nothing booked."""
    assert table.say("b: 起手扫 三个") == ["bot: 起手连扫三次算提蛇：记 提蛇 起手（例如：阿四 提蛇 起手）。"]
    assert table.say("b: 起手连扫 三次") == ["bot: 起手连扫三次算提蛇：记 提蛇 起手（例如：阿四 提蛇 起手）。"]
    assert yuan(table) == {}


def test_a_count_in_play_is_refused(table: Table) -> None:
    """扫 in play come one at a time: `扫 两个` says so, nothing booked; on a 碰 the count has no place."""
    out = table.say("b: 扫 两个")
    assert out == ["bot: 「两个」只用在起手：起手连扫记 起手扫 两个（或 起手连扫）。开打以后扫一次记一条：扫"]
    assert table.say("b: 碰 点 老表 两个") == ["bot: 「两个」用不到碰上。"]
    assert yuan(table) == {}


def test_a_sweep_at_the_deal_then_a_run_of_two_is_a_tishe(table: Table) -> None:
    table.say("b: 起手扫", "!clock +20s")
    assert table.say("b: 起手扫 两个")[0] == "bot: 起手连扫三次算提蛇：记 提蛇 起手（例如：阿四 提蛇 起手）。"


def test_two_sweeps_at_the_deal_in_english(sqlite_url: str) -> None:
    table = EnglishTable(
        sqlite_url,
        *(f"!join {user} {name}" for user, name in (("e", "Amy"), ("f", "Ben"), ("g", "Cat"), ("h", "Dan"))),
        "a: 设置 语言 en",
        "a: 设置 游戏 碰胡",
        "a: open @e @f @g @h dealer @e",
    )
    try:
        assert table.say("!clock +1m", "f: sweep at the deal x2")[0] == (
            "bot: Hand 1 recorded: Ben sweep (扫), at the deal ×2"
        )
        assert table.say("!clock +1m", "g: sweep twice")[0] == (
            "bot: “twice” applies only at the deal: two sweeps (扫) at the deal are sweep at the deal x2 (起手连扫). "
            "In play, one record a sweep: sweep"
        )
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    "line",
    [
        "c: 红姐打的 老表碰了",
        "c: 红姐打的 老表 碰了",
        "c: 红姐点的 老表碰了",
        "c: 红姐打的，老表碰了",
        "c: 红姐 打的 老表碰了",
        "c: @a 打的 老表碰了",
        "c: 红姐打的 我碰了",
        "d: 红姐打的 老表碰了",
        "c: 红姐打的 碰了",
    ],
)
def test_a_pong_told_discarder_first_is_that_pong(table: Table, line: str) -> None:
    assert table.say(line)[0] == "bot: 第1局 记下：老表 碰，点 红姐（一人出）"
    assert yuan(table) == {"红姐": -3, "老表": 3}


@pytest.mark.parametrize(
    "line",
    [
        "b: 小刚放炮 阿四胡了",
        "b: 小刚点炮 阿四胡了",
        "b: 小刚放炮 阿四 胡了",
        "c: 小刚放的炮 阿四胡了",
        "c: 小刚打的 阿四胡了",
        "c: @d 放炮 @b 胡了",
        "b: 小刚放炮 我胡了",
        "d: 我放炮 阿四胡了",  # the discarder in the first person, the winner said won after their name
        "d: 我点炮了 阿四 胡了",
    ],
)
def test_a_win_told_discarder_first_is_that_win(table: Table, line: str) -> None:
    assert table.say(line)[0] == "bot: 第1局 阿四 胡，点 小刚（一人出）"
    assert yuan(table) == {"阿四": 12, "小刚": -12}


@pytest.mark.parametrize(
    "line",
    [
        "c: 红姐打的 老表碰了 哈哈",  # after a player named first, laughter leaves the line chat
        "c: 王哥打的 老表碰了",  # no seat
        "c: 红姐打的 老表扫了",  # a 扫 is never off a discard
        "c: 红姐打的 老表碰了吗",
        "c: 红姐打的牌 好臭",
        "c: 小刚放炮 阿四胡了 老表点的",  # two discarders named
    ],
)
def test_other_lines_told_discarder_first_stay_chat(table: Table, line: str) -> None:
    assert table.say(line) == []
    assert yuan(table) == {}


def test_five_fortune_win_is_the_one_english_name() -> None:
    """The replies named 五福 a five-fortune win and the scoring's English reasons five blessings."""
    request = {"game": "penghu", "stake": 100, "players": ["A", "B", "C", "D"], "dealer": "A"}
    with pytest.raises(ScoringError) as refused:
        answer({**request, "events": [{"type": "wufu", "player": "B", "from": None}]}, partial=True)
    assert scoring_reason("en", refused.value) == "B has not called the alarm (报警), so no five-fortune win (五福)."
    assert reason_word("en", "wufu", "hand") == "five-fortune win (五福)"
    english = [*SCORING_ENGLISH.values(), *REASON_EN.values(), *(v.get("en", "") for v in TEXTS.values())]
    named = [said for said in english if "五福" in said]
    assert named and all("five-fortune win (五福)" in said for said in named), named
    assert not [said for said in english if "blessing" in said]
