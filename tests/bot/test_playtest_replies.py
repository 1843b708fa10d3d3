"""Replies a play-tester found confusing (members joined with `!join`, a table opened with `开桌`): a count of hands in
Chinese numerals (`历史 五`), 群管设置 by the settings' Chinese names (`群管设置 罚款 10`), `撤销 第1局` of a hand
taken back already, `收到 @tom` with nothing waiting (the amount Tom owes, never a made-up 11), and a 改成 said to
be a correction, not a re-recording from an edited message."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.moderation.commands import SETTING_WORDS
from ledger.moderation import SETTING_NAMES
from tests.bot.test_transcripts import replay, said_after

SEATS = ["!join dage 大哥", "!join amy Amy", "!join tom Tom", "!admin dage", "dage: 开桌 @dage @amy @tom 庄 @dage"]
#: two hands: 大哥 wins the first, Amy the second
TWO_HANDS = [*SEATS, "!clock +1m", "dage: 胡 清一色 自摸", "!clock +6m", "amy: 胡 七对 自摸", "!clock +1m"]

DIGITS = "零一二三四五六七八九"


def chinese(n: int) -> str:
    """1 ≤ n < 100 in Chinese numerals, as people write it (`十`, `十二`, `二十`, `四十五`)."""
    tens, ones = divmod(n, 10)
    return (DIGITS[tens] if tens > 1 else "") + ("十" if tens else "") + (DIGITS[ones] if ones else "")


# ------------------------------------------------------------------------------- 历史 五: a count in Chinese numerals


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=99), st.sampled_from(["", "局", "把"]))
def test_a_count_in_chinese_numerals_reads_as_the_same_count_in_digits(n: int, unit: str) -> None:
    from bot.grammar import fold, hand_number

    assert hand_number(fold(chinese(n) + unit)) == n == hand_number(f"{n}{unit}")


@pytest.mark.parametrize(("typed", "digits"), [("五", "5"), ("三局", "3"), ("一把", "1"), ("两局", "2")])
def test_history_takes_its_count_in_chinese_numerals_as_in_digits(sqlite_url: str, typed: str, digits: str) -> None:
    out = replay([*TWO_HANDS, f"tom: 历史 {typed}", "!clock +1m", f"tom: 历史 {digits}"], sqlite_url)
    said = said_after(out, f"tom: 历史 {typed}")
    assert said == said_after(out, f"tom: 历史 {digits}"), said
    assert said[0].startswith("最近"), said


def test_history_past_fifty_in_chinese_numerals_is_refused_as_in_digits(sqlite_url: str) -> None:
    out = replay([*TWO_HANDS, "tom: 历史 五十一"], sqlite_url)
    assert said_after(out, "tom: 历史 五十一") == ["「五十一」不是 1 到 50 之间的局数。"]


# ------------------------------------------------------------------------ 群管设置 罚款 10: the settings' Chinese names


def test_every_setting_has_chinese_names_and_no_name_means_two_settings() -> None:
    assert set(SETTING_WORDS) == set(SETTING_NAMES)
    names = [name for words in SETTING_WORDS.values() for name in words]
    assert len(names) == len(set(names)) and not set(names) & set(SETTING_NAMES)


@pytest.mark.parametrize("name", ["罚款", "罚金", "罰款", "fine_amount"])
def test_the_fine_is_set_by_its_chinese_name(sqlite_url: str, name: str) -> None:
    out = replay(["!join dage 大哥", "!admin dage", f"dage: 群管设置 {name} 10", "dage: 群管设置"], sqlite_url)
    assert said_after(out, f"dage: 群管设置 {name} 10") == ["✅ 已设置 罚款（fine_amount） = 10元"]
    assert "罚款（fine_amount） = 10元" in said_after(out, "dage: 群管设置")


def test_a_setting_by_chinese_name_sets_what_its_key_sets(sqlite_url: str) -> None:
    script = ["!join dage 大哥", "!admin dage", "dage: 群管设置 刷屏条数 8", "dage: 群管设置 处罚 warn remove"]
    out = replay(script, sqlite_url)
    assert said_after(out, "dage: 群管设置 刷屏条数 8") == ["✅ 已设置 刷屏条数（flood_max_messages） = 8"]
    assert said_after(out, "dage: 群管设置 处罚 warn remove") == ["✅ 已设置 处罚（ladder） = warn、remove"]


def test_an_unknown_setting_is_refused_with_every_setting_by_both_names(sqlite_url: str) -> None:
    out = replay(["!join dage 大哥", "!admin dage", "dage: 群管设置 罚钱 10"], sqlite_url)
    (refused,) = said_after(out, "dage: 群管设置 罚钱 10")
    assert refused.startswith("没有这个设置：罚钱。"), refused
    assert all(f"{words[0]}（{key}）" in refused for key, words in SETTING_WORDS.items()), refused


# ---------------------------------------------------------------------- 撤销 第1局 of a hand taken back already


def test_undoing_a_hand_taken_back_already_says_so_and_who_took_it_back(db_url: str) -> None:
    script = [*TWO_HANDS, "dage: 撤销 第1局", "dage: !press 确认撤销", "!clock +3m"]
    script += ["dage: 撤销 第1局", "amy: 撤销 第一局"]
    out = replay(script, db_url)
    assert said_after(out, "dage: 撤销 第1局") == ["第1局已经撤销过了（你 3分钟前撤销的），钱已经退回，不用再撤。"]
    assert said_after(out, "amy: 撤销 第一局") == ["第1局已经撤销过了（大哥 3分钟前撤销的），钱已经退回，不用再撤。"]


def test_undoing_the_last_hand_taken_back_says_the_hand_played_again_is_not_finished(db_url: str) -> None:
    script = [*TWO_HANDS, "amy: 撤销 第2局", "amy: !press 确认撤销", "!clock +10s", "tom: 撤销 第2局"]
    out = replay(script, db_url)
    assert said_after(out, "tom: 撤销 第2局") == [
        "第2局已经撤销过了（Amy 10秒前撤销的），钱已经退回，不用再撤。现在打的第2局是重新打的，还没打完。"
    ]


def test_undoing_a_hand_never_finished_still_says_there_is_none(db_url: str) -> None:
    out = replay([*TWO_HANDS, "tom: 撤销 第3局"], db_url)
    assert said_after(out, "tom: 撤销 第3局") == ["这张牌桌没有打完的第3局。"]


# ---------------------------------------------------------------------- 收到 @tom with no payment of Tom's waiting


def test_received_with_nothing_waiting_names_what_is_owed_not_a_made_up_amount(sqlite_url: str) -> None:
    script = [*SEATS, "!clock +1m", "amy: 胡 七对 自摸", "!clock +1m", "amy: 收到 @tom", "dage: 结算", "!clock +1m"]
    out = replay([*script, "amy: 收到 @tom", "dage: 收到 @tom"], sqlite_url)
    before = said_after(out[: out.index("dage: 结算")], "amy: 收到 @tom")
    assert before == ["Tom 没有记过待 Amy 确认的付款，没有记。收到了就写 收到 @tom，后面跟收到的金额"]
    assert said_after(out, "amy: 收到 @tom") == [
        "Tom 没有记过待 Amy 确认的付款，没有记。Tom 欠 Amy 4元，收到了就写：收到 @tom 4元"
    ]
    assert said_after(out, "dage: 收到 @tom") == [
        "Tom 没有记过待 大哥 确认的付款，没有记。收到了就写 收到 @tom，后面跟收到的金额"
    ]


def test_got_it_in_an_english_group_names_what_tom_owes(sqlite_url: str) -> None:
    script = [*SEATS, "dage: 设置 语言 en", "!clock +1m", "amy: 胡 七对 自摸", "dage: 结算", "!clock +1m"]
    out = replay([*script, "amy: got it @tom"], sqlite_url)
    assert said_after(out, "amy: got it @tom") == [
        "Tom recorded no payment for Amy to confirm; nothing booked. Tom owes Amy 4元: if you got it, write received "
        "@tom 4元"
    ]


# ------------------------------------------------------------------------------------- 改成: corrected, not edited


def test_a_correction_says_corrected_and_an_edit_says_re_recorded_from_the_edited_message(sqlite_url: str) -> None:
    script = [*SEATS, "amy: 胡 清一色 自摸", "amy: 改成 胡 七对 自摸", "amy: !press 改成这样", "!clock +3m"]
    script += ["tom: 暗杠 3s", "tom: 改 直杠 3s 点 @dage", "tom: 对", "!clock +3m", "dage: 暗杠 4s"]
    out = replay([*script, "dage: !edit 14 暗杠 5s"], sqlite_url)
    assert said_after(out, "amy: !press 改成这样")[0:2] == ["[提示] 记好了", "第1局 已改正（原记录作废）："]
    assert said_after(out, "tom: 对")[0] == "第2局 已改正：Tom 直杠 三条（点杠 大哥）"
    assert said_after(out, "dage: !edit 14 暗杠 5s")[0] == "第2局 按改后的消息重记：大哥 暗杠 五条"
    assert not [line for line in out if "已改正" in line and "按改后" in line]


def test_a_penghu_correction_says_corrected(sqlite_url: str) -> None:
    script = [*SEATS[:3], "!join bob Bob", "!admin dage", "dage: 设置 游戏 碰胡"]
    script += ["dage: 开桌 @dage @amy @tom @bob 庄 @dage", "!clock +1m", "dage: 碰 点 @amy", "dage: 改成 碰 点 @tom"]
    out = replay([*script, "dage: !press 改成这样"], sqlite_url)
    assert said_after(out, "dage: !press 改成这样")[1] == "第1局 已改正：大哥 碰，点 Tom（一人出）"


def test_an_english_correction_says_corrected(sqlite_url: str) -> None:
    script = [*SEATS, "dage: 设置 语言 en", "amy: win one suit self-draw", "amy: change to seven pairs self-draw"]
    out = replay([*script, "amy: !press Correct it"], sqlite_url)
    assert said_after(out, "amy: !press Correct it")[1] == "Hand 1 corrected (the old record is void):"
