"""An English group's 漂 and 坎 lines (the told 漂, a win's side stakes, the questions, 牌桌) speak English, the
Chinese name only beside it in brackets, as the patterns do (`closed five (卡五星)`)."""

from __future__ import annotations

import re

from tests.bot.test_player_first import Table

ENGLISH = ("a: 设置 语言 en", "a: 设置 漂 选漂", "a: 设置 数坎 是", "a: open @a @b @c dealer @a")
#: Chinese outside brackets (`(漂, 首局定漂)` is inside): a term an English reader is left to guess
BARE_CHINESE = re.compile(r"[\u4e00-\u9fff]+(?![^(]*\))")


def test_an_english_group_reads_piao_and_kan_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say("a: piao 2") == ["bot: Hand 1 recorded: 阿杰 piao (漂) 2"]
        asked = table.say("a: piao @c 0", "b: win kawuxing from @a", "b: !press 0")
        assert (
            "bot: How many kan (坎) for 小李? (each concealed pung or kong; not a pung a discard completed; "
            "or send: kan 2)" in asked
        )
        booked = table.say("b: !press 1")
        assert "bot: kan count (数坎) 1: 阿杰→小李 1元" in booked, booked
        assert "bot: piao (漂): 阿杰→小李 2元" in booked, booked
        shown = table.say("a: table")
        lines = [line for line in booked + shown if "漂" in line or "坎" in line]
        unnamed = [re.sub("阿杰|小李|老王|元", "", line) for line in lines]  # names and the currency stay
        assert lines and not [line for line in unnamed if BARE_CHINESE.search(line)], lines
    finally:
        table.ledger.close()


def test_a_chinese_group_keeps_its_words(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 漂 选漂", "a: 设置 数坎 是", "a: 开桌 @a @b @c 庄 @a")
    try:
        assert table.say("a: 漂 2") == ["bot: 第1局 记下：阿杰 漂 2"]
        booked = table.say("a: 漂 @c 0", "b: 胡 卡五星 点 @a", "b: !press 0", "b: !press 1")
        assert "bot: 数坎 1 坎：阿杰→小李 1元" in booked and "bot: 漂：阿杰→小李 2元" in booked, booked
    finally:
        table.ledger.close()
