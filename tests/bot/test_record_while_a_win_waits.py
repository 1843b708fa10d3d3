"""While a win waits for its 漂/马 answers, the hand is the win's: another ending told then (a second win) booked in
its place and the waiting win vanished unsaid, and a kong or 亮倒 booked into the hand under it (a kong made after
the win kept its money; a 抢杠胡 then failed, saying its kong was never recorded). Such a record is refused, naming
the waiting win and how to go on; a win no answer could make bookable (a 抢杠胡 with no kong) is refused as it is
typed, not after everyone answered; and a 抢杠胡 whose 漂 were asked books, the robbed kong paying nothing (the 漂
booked between the kong and the win hid the kong). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

PLAYERS = ("!join ajie 阿杰", "!join xiaoli 小李", "!join laowang 老王", "!join boss 老板", "!admin boss")
OPEN = "ajie: 开桌 @xiaoli @laowang 我坐庄"
ALL_PIAO = "阿杰 的漂、小李 的漂、老王 的漂"
ZERO = {"阿杰": 0, "小李": 0, "老王": 0, "老板": 0}


def refused(number: int, what: str, waits: str, who: str) -> str:
    return (
        f"bot: 没有记：第{number}局已经报了 {what}，还在等 {waits}，还没记账，这一条会改了这一局。那条没错就先回答"
        f"上面的问题把它记下；那条记错了，或这一条在它之前（胡之前的杠、亮倒），由 {who} 或管理员 发「撤销」去掉它，"
        "再按先后记。"
    )


@pytest.fixture
def piao(db_url: str) -> Iterator[Table]:
    """A 选漂 table."""
    table = Table(db_url)
    table.say(*PLAYERS, "boss: 设置 漂 选漂", OPEN)
    yield table
    table.ledger.close()


def answer_piao(table: Table, *said: str) -> list[str]:
    out: list[str] = []
    for line in said:
        out += table.say(line, "!clock +10s")
    return out


def test_a_second_win_while_one_waits_is_refused_and_the_waiting_win_books(piao: Table) -> None:
    piao.say("xiaoli: 胡 清一色 自摸")
    assert piao.say("laowang: 胡 七对 点 @ajie") == [refused(1, "小李 自摸", ALL_PIAO, "小李")]
    out = answer_piao(piao, "ajie: 漂 0", "xiaoli: 漂 0", "laowang: 漂 0")
    assert "bot: 小李 自摸：清一色×4 → ×4" in out
    assert piao.balances() == {**ZERO, "阿杰": -400, "小李": 800, "老王": -400} and piao.hands() == 1


def test_a_second_winner_on_the_same_discard_is_told_to_record_a_double_win(piao: Table) -> None:
    piao.say("xiaoli: 胡 七对 点 @ajie")
    assert piao.say("laowang: 胡 清一色 点 @ajie") == [
        f"bot: 没有记：第1局已经报了 小李 胡 阿杰 点的炮，还在等 {ALL_PIAO}，还没记账。同一张炮两家胡是一炮双响："
        "由 小李 或管理员 发「撤销」去掉它，再一起记：一炮双响 @小李 番型 @老王 番型 点 @阿杰；那条没错、这条是记错了，"
        "就回答上面的问题。"
    ]
    assert piao.say("xiaoli: 撤销")[-1].startswith("bot: 已撤销：第1局 小李 胡 阿杰 点的炮（还在等")
    out = piao.say("xiaoli: 一炮双响 @xiaoli 七对 @laowang 清一色 点 @ajie")
    assert out[0] == "bot: 第1局 小李 胡 阿杰 点的炮；老王 胡 阿杰 点的炮：本桌规则还要报这些才能记账", out
    answer_piao(piao, "ajie: 漂 0", "xiaoli: 漂 0", "laowang: 漂 0")
    assert piao.balances() == {**ZERO, "阿杰": -800, "小李": 400, "老王": 400}


def test_a_kong_or_liangdao_while_a_robbing_win_waits_is_refused_and_the_win_books(piao: Table) -> None:
    piao.say("laowang: 蓄杠 5s", "xiaoli: 胡 抢杠 @laowang 卡五星")
    before = piao.balances()
    waiting = refused(1, "小李 抢 老王 的杠", ALL_PIAO, "小李")
    assert piao.say("laowang: 暗杠 3p") == [waiting]
    assert piao.say("ajie: 亮倒") == [waiting]
    assert piao.balances() == before
    out = answer_piao(piao, "ajie: 漂 2", "xiaoli: 漂 1", "laowang: 漂 0")
    assert "bot: 小李 抢 老王 的杠：卡五星×2、抢杠胡×2 → ×4" in out, out
    # the robbed 蓄杠 pays nothing (its money taken back); 老王 pays the ×4 and 小李's 漂 1
    assert piao.balances() == {**ZERO, "阿杰": 0, "小李": 500, "老王": -500} and piao.hands() == 1


def test_a_rob_with_no_kong_is_refused_as_it_is_typed_not_after_the_piao(piao: Table) -> None:
    out = piao.say("xiaoli: 胡 抢杠 @laowang 卡五星")
    assert out == [
        "bot: 没有记录：小李 抢杠：抢的是 老王 正在补的蓄杠，可 老王 的蓄杠没有记在这之前。先记「老王 蓄杠」再记这个胡"
        "（被抢的蓄杠不收杠钱）；不是抢杠就写 点 老王"
    ]
    assert piao.say("laowang: 暗杠 3p")[0] == "bot: 第1局 记下：老王 暗杠 三筒"  # nothing waits


def test_a_kong_while_a_horse_win_waits_is_refused(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*PLAYERS, "boss: 设置 买马 自摸买马", OPEN, "xiaoli: 胡 清一色 自摸")
        assert table.say("laowang: 暗杠 3p") == [refused(1, "小李 自摸", "小李 的马牌", "小李")]
        assert "bot: 第1局 记下：" in table.say("xiaoli: 买马 7s")
        assert table.balances() == {**ZERO, "阿杰": -1100, "小李": 2200, "老王": -1100}
    finally:
        table.ledger.close()
