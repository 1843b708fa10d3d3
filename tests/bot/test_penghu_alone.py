"""碰胡: a deal-time win typed as its word alone is asked about; 五福 without 报警 and a 跑起 from the wall refused.

A play-tester's `小七对` typed alone right after 开桌 booked 40 each (+120) at once, and `地胡` 24 from the dealer,
while `天胡啊` is chat: the word alone is also what players exclaim. It now asks 「只写了「小七对」，记下就是 老王
+120元。是不是：小七对 老王？」 (「就是这个」 books it as the sender's); with its player (`我小七对了`, `小七对 @d`) it
is booked at once. `五福` said without its tile, by a player who has not called 报警, asked whose tile it was; and
`改成 自摸` after a 跑起 asked 「跑起的牌是谁打的？」: both refused now, saying why. Through the console, on SQLite
and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.bot.test_penghu_retold import table
from tests.bot.test_recording_fixes import CHAT, Table

__all__ = ["table"]  # the fixture: a 碰胡 table of 红姐 (dealer), 阿四, 老表, 小刚


def _night(table: Table) -> dict[str, int]:
    return {line.name: line.amount for line in table.ledger.balances(CHAT).lines if line.kind != "pot"}


@pytest.mark.parametrize(
    ("line", "asked"),
    [
        ("d: 小七对", "只写了「小七对」，记下就是 小刚 +120元。是不是：小七对 小刚？"),
        ("b: 地胡", "只写了「地胡」，记下就是 阿四 +24元。是不是：地胡 阿四？"),
        ("c: 天胡了", "只写了「天胡了」，记下就是 老表 +30元。是不是：天胡 老表？"),
    ],
)
def test_a_deal_time_win_alone_is_asked_before_it_books(table: Table, line: str, asked: str) -> None:
    assert table.say(line)[0] == f"bot: {asked}"
    assert not any(_night(table).values())
    who = line.split(":")[0]
    booked = table.say(f"{who}: 就是这个")
    assert any("下一局：第2局" in said for said in booked), booked
    won = int(asked.split("+")[1].split("元")[0]) * 100
    assert sum(amount for amount in _night(table).values() if amount > 0) == won


def test_no_drops_the_question(table: Table) -> None:
    table.say("d: 小七对", "d: 不是")
    assert not any(_night(table).values())
    assert table.say("d: 碰 点 @a")[0] == "bot: 第1局 记下：小刚 碰，点 红姐（一人出）"


@pytest.mark.parametrize("line", ["d: 我小七对了", "d: 小七对 @d", "a: 小七对 @d", "a: @d 小七对", "b: 地胡 @b"])
def test_with_its_player_it_books_at_once(table: Table, line: str) -> None:
    said = table.say(line)
    assert "局 " in said[0] and "是不是" not in said[0], said
    assert any(_night(table).values())


def test_the_dealers_xiaoqidui_alone_is_refused_not_asked(table: Table) -> None:
    assert table.say("a: 小七对") == [
        "bot: 庄家的小七对要带一个扫：先记 扫 起手（例如：红姐 扫 起手，然后 红姐 小七对）。"
    ]


def test_wufu_without_baojing_is_refused_not_asked_whose_tile(table: Table) -> None:
    assert table.say("b: 五福") == [
        "bot: 阿四 没有报警，五福不算：五福是报警之后的第五次碰/扫。"
        "第四次碰/扫之后先记 报警（例如：阿四 报警，然后 阿四 五福 摸）。"
    ]
    assert not any(_night(table).values())


def test_wufu_after_baojing_still_asks_whose_tile(table: Table) -> None:
    table.say("b: 碰 摸", "b: 扫", "b: 碰 点 @a", "b: 过扫", "b: 报警")
    assert table.say("b: 五福")[0].startswith("bot: 五福的牌是谁打的？")


def test_a_paoqi_from_the_wall_is_refused(table: Table) -> None:
    assert table.say("b: 跑起 摸") == ["bot: 跑起没有摸的：跑起的总是别人打的牌，写 跑起 点 @丙（丙一人出）。"]


def test_self_drawn_after_a_paoqi_names_what_a_correction_may_change(table: Table) -> None:
    table.say("b: 碰 点 @a", "!clock +1m", "b: 跑起 点 @a", "!clock +1m")
    before = _night(table)
    said = table.say("b: 改成 自摸")
    assert said[0].startswith("bot: 跑起没有自摸：") and "改成 点 @丙" in said[0], said
    assert _night(table) == before
