"""碰胡 lines as players type them at the table, each read or answered, nothing booked that was not meant.

A scoring line told with its player first that the rules refuse (`@阿四 五福 摸` before any 报警) was silent: it is
a record read whole, so the refusal is said, with why and the line to send. `起手扫` sent twice in one second (a
double tap) booked a 连扫; the second is asked about, as any play sent twice is. A word said again glued
(`扫了扫了扫了`, `扫扫扫`, `碰碰 点 老表`), as people type excitedly, was silent or refused; it is the word once. A win
made by the 碰 (扫) that completes the hand, told as one word (`碰胡 点 老表`, `扫胡`: the rules' names), is answered
with the two records to send. Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from ledger.booking import QISHOU_SAO_RESEND
from tests.bot.test_penghu_retold import QUESTION, Table, table

__all__ = ["table"]  # the fixture, as the retelling tests seat the table (红姐 deals; 阿四, 老表, 小刚)

#: 元 at 底金 1元 a point, as balances give them (分)
YUAN = 100


def money(table: Table) -> dict[str, int]:
    """The four seats' balances (the admin who set the game up sits out)."""
    return {name: amount for name, amount in table.balances().items() if name != "boss"}


# ---------------------------------------------------------------------------- a refusal said, player first too


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("c: @b 五福 摸", "阿四 没有报警，五福不算：五福是报警之后的第五次碰/扫。"),
        ("c: 阿四 五福 点 老表", "阿四 没有报警，五福不算："),
        ("b: 五福 摸", "阿四 没有报警，五福不算："),
        ("c: @b 报警", "没有记录：报警要在第四次碰/扫之后，阿四 现在是 1 次。"),
        ("c: @d 跑起 点 @c", "没有记录：小刚 还没有碰或扫，无从跑起"),
        ("c: @b 天胡", "没有记录：天胡只在起手时算，这一局已经开打了。"),
    ],
)
def test_a_scoring_line_the_rules_refuse_is_answered_with_the_line_to_send(table: Table, line: str, said: str) -> None:
    table.say("b: 扫", "!clock +1m")
    booked = table.balances()
    out = table.say(line)
    assert len(out) == 1 and out[0].startswith(f"bot: {said}"), out
    assert "例如" in out[0] or "记：" in out[0] or "再记" in out[0], out  # the line to send
    assert table.balances() == booked


def test_the_example_a_refusal_gives_books(table: Table) -> None:
    """`五福 摸` before 报警 names `阿四 报警` and `阿四 五福 摸`: sent at four 碰/扫, they book the 五福 (40 each)."""
    out = table.say("c: @b 五福 摸")
    assert "（例如：阿四 报警，然后 阿四 五福 摸）" in out[0]
    for line in ("b: 扫", "b: 扫", "b: 碰 点 老表", "b: 碰 点 小刚"):
        table.say("!clock +1m", line)
    before = money(table)
    table.say("!clock +1m", "c: 阿四 报警", "!clock +1m")
    assert table.say("c: 阿四 五福 摸")[0] == "bot: 第1局 阿四 五福（每人出）"
    after = money(table)
    assert {name: after[name] - before[name] for name in after} == {
        "红姐": -40 * YUAN,
        "阿四": 120 * YUAN,
        "老表": -40 * YUAN,
        "小刚": -40 * YUAN,
    }


def test_a_player_first_line_that_may_be_chat_stays_unanswered(table: Table) -> None:
    table.say("b: 扫", "!clock +1m")
    assert table.say("c: @b 碰 点 @c 哈哈") == []  # laughter after a player named first: maybe chat
    assert table.say("c: @b 碰") == []  # where the tile came from is asked only of a line starting with its word
    assert table.say("c: 阿四 碰 点 阿四") == []  # their own discard: a slip of names, or a joke
    assert table.say("b: 碰 点 阿四")[0].startswith("bot: 没有记录：阿四 不能从自己打出的牌得钱。")


# ------------------------------------------------------------------------------------- 起手扫 sent twice


def test_a_deal_time_sao_sent_twice_in_a_second_is_asked_about(table: Table) -> None:
    assert table.say("a: 起手扫")[0] == "bot: 第1局 记下：红姐 扫（起手）"
    booked = money(table)
    table.say("!clock +1s")
    assert table.say("a: 起手扫") == [
        f"bot: 你 刚刚记的：第1局 红姐 扫（起手）。{QUESTION}",
        "bot: [按钮] 确实又一次 | 不用了",
    ]
    assert money(table) == booked == {"红姐": 6 * YUAN, "阿四": -2 * YUAN, "老表": -2 * YUAN, "小刚": -2 * YUAN}
    # 「确实又一次」 books a real 连扫: each pays 4 in all
    assert table.say("a: !press 确实又一次")[1] == "bot: 第1局 记下：红姐 扫（起手）"
    assert money(table) == {"红姐": 12 * YUAN, "阿四": -4 * YUAN, "老表": -4 * YUAN, "小刚": -4 * YUAN}


def test_a_deal_time_sao_typed_again_later_is_a_lian_sao(table: Table) -> None:
    table.say("a: 起手扫", f"!clock +{int(QISHOU_SAO_RESEND.total_seconds()) + 1}s")
    assert table.say("a: 起手扫")[0] == "bot: 第1局 记下：红姐 扫（起手）"
    assert money(table) == {"红姐": 12 * YUAN, "阿四": -4 * YUAN, "老表": -4 * YUAN, "小刚": -4 * YUAN}


def test_two_players_deal_time_sao_in_the_same_second_are_both_booked(table: Table) -> None:
    """Each their own: the two holders are netted (老表 and 小刚 pay each 2)."""
    table.say("a: 起手扫", "!clock +1s")
    assert table.say("b: 起手扫")[0] == "bot: 第1局 记下：阿四 扫（起手）"
    assert money(table) == {"红姐": 4 * YUAN, "阿四": 4 * YUAN, "老表": -4 * YUAN, "小刚": -4 * YUAN}
    table.say("!clock +1s")
    assert table.say("c: 阿四 起手扫")[0].startswith("bot: 阿四 刚刚记的：第1局 阿四 扫（起手）。")


# ------------------------------------------------------------------------------------ a word said again


@pytest.mark.parametrize(
    ("line", "booked"),
    [
        ("b: 扫了扫了扫了", "阿四 扫"),
        ("b: 扫扫扫", "阿四 扫"),
        ("b: 扫了 扫了 扫了", "阿四 扫"),
        ("b: 碰碰 点 @c", "阿四 碰，点 老表（一人出）"),
        ("b: 碰碰老表的", "阿四 碰，点 老表（一人出）"),
        ("b: 碰碰碰 摸的", "阿四 碰（每人出）"),
        ("b: 碰了碰了 摸的", "阿四 碰（每人出）"),
        ("b: 碰了 碰了 老表的", "阿四 碰，点 老表（一人出）"),
        ("b: 我碰了碰了 老表的", "阿四 碰，点 老表（一人出）"),
        ("b: 碰！碰！点老表", "阿四 碰，点 老表（一人出）"),
    ],
)
def test_a_word_said_again_is_the_word_once(table: Table, line: str, booked: str) -> None:
    assert table.say(line)[0] == f"bot: 第1局 记下：{booked}"
    assert sum(1 for amount in table.balances().values() if amount > 0) == 1


@pytest.mark.parametrize("line", ["b: 碰碰运气", "b: 扫扫码", "b: 扫一扫", "b: 碰碰车", "b: 碰胡好玩"])
def test_a_word_glued_to_something_else_is_chat(table: Table, line: str) -> None:
    assert table.say(line) == []


def test_peng_peng_alone_asks_where_the_tile_came_from(table: Table) -> None:
    assert table.say("b: 碰碰") == ["bot: 碰的牌是谁打的？写 点 @某人（一人出）；翻出来的牌写 摸（每人出）。"]


# ---------------------------------------------------------------------------------- 碰胡, 扫胡: two records


@pytest.mark.parametrize(
    ("line", "first", "then"),
    [
        ("b: 碰胡 点 @c", "碰 点 老表", "胡 点 老表"),
        ("b: 碰胡了 老表的", "碰 点 老表", "胡 点 老表"),
        ("c: @b 碰胡 点 @c", "阿四 碰 点 老表", "阿四 胡 点 老表"),
        ("b: 碰碰胡 摸的", "碰 摸", "胡 自摸"),
        ("b: 三碰连胡 点 老表", "碰 点 老表", "胡 点 老表"),
        ("b: 我扫胡了", "扫", "胡 自摸"),
    ],
)
def test_a_win_made_by_a_play_names_its_two_records(table: Table, line: str, first: str, then: str) -> None:
    out = table.say(line)
    assert len(out) == 1 and out[0].startswith("bot: 没有记录：") and f"先发「{first}」，再发「{then}」" in out[0]
    assert not any(table.balances().values())
    for sent in (first, then):  # each books, 老表 paying 3 then 15 (胡 after one 碰: 5 × 3)
        table.say("!clock +1m", f"b: {sent}")
    if first.endswith("老表"):
        assert table.balances()["老表"] == -18 * YUAN


def test_a_seat_glued_to_a_word_said_again_is_their_record(table: Table) -> None:
    assert table.say("d: 阿四扫了扫了")[0] == "bot: 第1局 记下：阿四 扫"


def test_two_discarders_are_refused(table: Table) -> None:
    """`碰 点 老表 点 小刚` booked 小刚's discard, the last one named, without a word."""
    assert table.say("b: 碰 点 老表 点 小刚") == [
        "bot: 一次只记一个点的人：是 老表 打的，还是 小刚？点 后面只写打出这张牌的那一个人。"
    ]
    assert not any(table.balances().values())
