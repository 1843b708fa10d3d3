"""碰胡: 中庄 (the dealer's win, called) as players tell it.

`@红姐 中庄` (a player named first, then 中庄 alone) stayed chat where `中庄 @红姐` asks where the tile came from; a
中庄 told for a player who is not the dealer was asked about (where the tile came from; 改成's 「改成这样」) and refused
only at the answer. The call alone is asked as `中庄 @x` is; a non-dealer's 中庄 is refused as it is read, naming the
dealer, nothing booked or asked — a correction against the dealer of the hand it corrects (the table has a new
dealer once that hand was won). Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_penghu_retold import SEATS
from tests.bot.test_recording_fixes import Table

ASKED = "bot: 胡的牌是谁打的？写 点 @某人（一人出）；翻出来的牌写 摸（每人出）。"
NOT_DEALER = "bot: 没有记录：只有庄家 红姐 才能中庄"


@pytest.fixture
def table(db_url: str) -> Iterator[Table]:
    opened = Table(db_url)
    opened.say(*SEATS)  # 红姐 (a) deals
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize("line", ["b: @a 中庄", "b: 红姐 中庄", "b: @a 中庄了", "b: 中庄 @a", "a: 中庄"])
def test_the_call_alone_asks_where_the_tile_came_from(table: Table, line: str) -> None:
    assert table.say(line) == [ASKED]
    assert table.say("b: @a 中庄 自摸")[0] == "bot: 第1局 红姐 胡（每人出），中庄"


def test_the_call_with_more_than_a_player_stays_chat(table: Table) -> None:
    """Only a player and 中庄: anything else after a player named first is read only when it books cleanly."""
    assert table.say("b: @a 中庄 哈哈", "b: @a 中庄 跑起") == []


@pytest.mark.parametrize(
    "line",
    ["c: @b 中庄", "c: 阿四 中庄", "c: 中庄 @b", "b: 中庄", "b: 我中庄了", "c: @b 中庄 自摸", "c: 中庄 @b 点 @c"],
)
def test_a_non_dealers_zhongzhuang_is_refused_as_it_is_read(table: Table, line: str) -> None:
    assert table.say(line) == [NOT_DEALER]
    assert table.hands() == 0 and not any(table.balances().values())


def test_a_correction_to_a_non_dealers_zhongzhuang_is_refused_before_it_is_asked(table: Table) -> None:
    """阿四's win ended hand 1 (红姐 dealt): 阿四 deals hand 2, yet `改成 中庄` of hand 1 was asked, and only
    「改成这样」 refused."""
    table.say("b: 胡 点 老表", "!clock +1m")
    booked = table.balances()
    assert table.say("b: 改成 中庄") == [NOT_DEALER]
    assert table.say("b: 对") == []  # no question waits
    assert table.balances() == booked and table.hands() == 1
    # 阿四's own win of hand 2, which he dealt, may become his 中庄
    table.say("!clock +5m", "b: 胡 自摸", "!clock +1m")
    assert table.say("b: 改成 中庄")[0].startswith(
        "bot: 把第2局的「阿四 胡（每人出）」（你 60秒前记的）改成「阿四 胡（每人出），中庄」？"
    )
    assert table.say("b: 对")[-1] == "bot: 好的，改了（上面那条已经改成重记的结果）。"


def test_english(db_url: str) -> None:
    table = Table(db_url)
    table.say(*SEATS, "boss: 设置 语言 en")
    assert table.say("b: @a 中庄") == [
        "bot: Whose tile was that win (胡)? Write from @someone (one pays); a tile from the wall: self-drawn "
        "(each pays)."
    ]
    assert table.say("c: @b 中庄") == [
        "bot: Not recorded: only the dealer 红姐 can win with the dealer's bonus (中庄)."
    ]
    table.ledger.close()


def test_an_edit_of_an_earlier_hands_zhongzhuang_is_scored_against_that_hands_dealer(table: Table) -> None:
    """红姐 dealt hand 1 and won it (中庄); 阿四 won hand 2 and deals hand 3: her hand-1 message edited is still hers
    to call 中庄 in."""
    table.say("a: 中庄 点 @c", "!clock +5m", "b: 胡 自摸", "!clock +5m")
    out = table.say("a: !edit 中庄 自摸")
    assert out[0] == "bot: 第1局 按改后的消息重记：红姐 胡（每人出），中庄", out
