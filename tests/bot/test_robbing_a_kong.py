"""抢杠胡 robs the 蓄杠 the robbed player is making: the line is booked right after that kong (which then pays
nothing: its money goes back), and refused otherwise — with no kong recorded, after someone else's, or after a kong
nobody may rob (暗杠, 直杠) — naming the kong to record first, or 点 for a win on a discard. Typed and through the
buttons' 预览, on SQLite and PostgreSQL."""

from __future__ import annotations

from tests.bot.test_claims import table
from tests.bot.test_recording_fixes import Table

__all__ = ["table"]  # the fixture, as the claims tests seat the table

NO_KONG = (
    "bot: 没有记录：小李 抢杠：抢的是 阿杰 正在补的蓄杠，可 阿杰 的蓄杠没有记在这之前。先记「阿杰 蓄杠」再记这个胡"
    "（被抢的蓄杠不收杠钱）；不是抢杠就写 点 阿杰"
)


def test_robbing_a_kong_nobody_recorded_is_refused_naming_the_kong_to_record(table: Table) -> None:
    assert table.say("b: 胡 抢杠 @a 卡五星") == [NO_KONG]
    assert table.hands() == 0 and not any(table.balances().values())


def test_robbing_a_concealed_kong_is_refused_and_its_money_stays(table: Table) -> None:
    table.say("a: 暗杠 3s")
    booked = table.balances()
    out = table.say("b: 胡 抢杠 @a 卡五星")
    assert out == [
        "bot: 没有记录：小李 抢杠：只有蓄杠（碰了再补第四张）能抢，阿杰 刚记的是暗杠，不能抢。"
        "抢的是 阿杰 的蓄杠就先记「阿杰 蓄杠」；不是抢杠就写 点 阿杰"
    ]
    assert table.balances() == booked and table.hands() == 0


def test_the_added_kong_told_first_makes_the_robbing_win_book_and_the_kong_pay_nothing(table: Table) -> None:
    table.say("b: 胡 抢杠 @a 卡五星", "a: 阿杰 蓄杠 5s")  # the kong the refusal names, then the win again
    out = table.say("b: 胡 抢杠 @a 卡五星")
    robbed = ["bot: 第1局 记下：", "bot: 小李 抢 阿杰 的杠：卡五星×2、抢杠胡×2 → ×4", "bot: 阿杰 的蓄杠被抢，杠钱退回"]
    assert out[:3] == robbed
    assert table.balances() == {"阿杰": -400, "小李": 400, "老王": 0}  # the 蓄杠's 1元 each went back


def test_kawuxing_off_a_robbed_kong_of_another_tile_is_refused(table: Table) -> None:
    """The win is on the robbed tile: 卡五星 (a 5 between 4 and 6) off a 蓄杠 of 四条 cannot be (play-test: booked
    ×4); another pattern off it books."""
    table.say("a: 阿杰 蓄杠 4s")
    assert table.say("b: 胡 抢杠 @a 卡五星") == [
        "bot: 没有记录：小李 抢杠：抢的是 阿杰 蓄杠的 4s，就胡这张；卡五星 要胡四六中间的五，不是卡五星"
    ]
    assert table.hands() == 0
    assert table.say("b: 胡 抢杠 @a 清一色")[1] == "bot: 小李 抢 阿杰 的杠：清一色×4、抢杠胡×2 → ×8"


def test_the_buttons_preview_refuses_it_as_booking_would(table: Table) -> None:
    table.say("c: 胡", "c: !press 老王", "c: !press 抢杠", "c: !press 阿杰", "c: !press 卡五星")
    out = table.say("c: !press 预览")
    assert "没有记录：老王 抢杠：抢的是 阿杰 正在补的蓄杠" in "\n".join(out)
    assert "确认" not in "\n".join(out) and table.hands() == 0
