"""Lines a play-tester found unanswered: 漂 0 said as players say it (`不漂`, `我不漂`, `漂 零`) answers the 漂
question; the bot's own 「最少转账」 typed back is 战报, `账单` is 明细, `老王输了多少` is 余额 老王. Talk around
them stays talk."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

PLAYERS = ("!join laowang 老王", "!join xiaoli 小李", "!join ajie 阿杰", "!admin laowang")


@pytest.fixture
def piao(db_url: str) -> Iterator[Table]:
    table = Table(db_url)
    table.say(*PLAYERS, "laowang: 设置 漂 选漂", "laowang: 开桌 @xiaoli @ajie 庄 @laowang", "!clock +1m")
    yield table
    table.ledger.close()


def test_no_piao_said_plainly_answers_the_question(piao: Table) -> None:
    piao.say("xiaoli: 自摸 清一色", "!clock +10s")
    assert piao.say("laowang: 不漂")[1] == "bot: 小李 这局漂几？（小李 自己点，或发：漂 2）"
    assert piao.say("xiaoli: 漂 零")[1] == "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）"
    assert "bot: 第1局 记下：" in piao.say("ajie: 我不漂")
    assert piao.balances() == {"老王": -400, "小李": 800, "阿杰": -400}


def test_no_piao_told_during_the_hand_and_talk_about_it(piao: Table) -> None:
    assert piao.say("ajie: 不漂") == ["bot: 第1局 记下：阿杰 漂 0"]
    assert piao.say("xiaoli: 漂 两") == ["bot: 第1局 记下：小李 漂 2"]
    assert piao.say("!clock +20s", "laowang: 漂 两个") == ["bot: 第1局 记下：老王 漂 2"]  # counted with 个
    assert piao.say("!clock +20s", "ajie: 漂 1个") == ["bot: 第1局 记下：阿杰 漂 1"]
    assert piao.say("ajie: 这把不漂了吧", "xiaoli: 不漂 了吧", "laowang: 漂 亮") == []


def test_no_piao_where_nobody_chooses_it_is_talk(db_url: str) -> None:
    table = Table(db_url)
    table.say(*PLAYERS, "laowang: 开桌 @xiaoli @ajie 庄 @laowang", "!clock +10s")
    assert table.say("ajie: 不漂", "ajie: 我不漂") == []
    assert table.say("ajie: 漂 零") == ["bot: 本桌不漂，不用报漂。"]  # asked as 漂 0 is
    table.ledger.close()


def test_lookups_typed_as_the_replies_word_them(piao: Table) -> None:
    piao.say("xiaoli: 自摸 清一色", "laowang: 漂 0", "xiaoli: 漂 0", "ajie: 漂 0", "!clock +10s")
    report = piao.say("laowang: 最少转账")
    assert "bot: 最少转账（2笔）：" in report and report[1].startswith("bot: 第1晚战报")
    assert piao.say("laowang: 账单")[0].startswith("bot: 明细 · ")
    balance = ["bot: 余额（本晚 ｜ 总输赢 ｜ 未结）：", "bot: 老王　-4元 ｜ -4元 ｜ -4元"]
    assert piao.say("ajie: 老王输了多少") == balance
    assert piao.say("ajie: 阿杰今晚输了几块")[1].startswith("bot: 阿杰　-4元")
    assert piao.say("ajie: 你输了多少", "ajie: 大家赢了多少") == []
