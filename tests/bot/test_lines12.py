"""Lines real players typed at a 卡五星 table that the bot misread or ignored (lines12): a win told by its discarder
dealing in to the sender (`小李给我点了个七对`, `小李点我七对`, `我胡小李 七对`), English `tom discarded, amy won seven
pairs`, `drawn hand lol`, a kong's tail of chat (`暗杠 三条 都没用`), `算账` with nothing played, `换人`, `我欠谁钱`
before 结算, and English replies glossing 够级 and 蓄杠."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import load_plugins, registry
from bot.grammar import split_command
from tests.bot.test_player_first import Table, same_as, stays_chat

SEATED = ("a: 开桌 @a @b @c 庄 @a", "!clock +1m")
ENGLISH = ("a: 设置 语言 en", *SEATED)


def test_an_english_kong_with_a_discarder_glosses_every_kong_named(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say("b: 蓄杠 6s 点 @a") == [
            "bot: Only an exposed kong (直杠) takes another player's discard; a concealed kong (暗杠) or an added kong "
            "(蓄杠) has no discarder."
        ]
    finally:
        table.ledger.close()


def test_the_gouji_round_header_names_the_game_in_english_with_its_chinese(sqlite_url: str) -> None:
    six = ("!join e 阿五", "!join f 阿六", "a: 设置 语言 en", "a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f")
    table = Table(sqlite_url, *six)
    try:
        assert table.say("a: order @a @b @c @d @e @f")[0].startswith("bot: Hand 1 (Gouji 够级): 1st 阿杰, 2nd 小李")
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    "line",
    [
        "a: 小李给我点了个七对",
        "a: 小李点我七对",
        "a: 我胡小李 七对",
        "a: 我胡 小李 七对",  # was read as 小李's win (「小李 是怎么胡的？」)
        "a: 我胡了 @b 七对",
        "a: 小李给我点炮了 七对",
    ],
)
def test_a_win_told_by_its_discarder_dealing_in_to_the_sender(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, SEATED, line, "a: 胡 七对 点 @b")


@pytest.mark.parametrize("line", ["a: 小李给我点了个外卖", "a: 小李点我", "a: 小李点我七对？", "a: 小张点我七对"])
def test_dealing_in_to_the_sender_said_of_anything_but_a_hand_is_chat(sqlite_url: str, line: str) -> None:
    stays_chat(sqlite_url, SEATED, line)


def test_an_english_win_told_by_its_discarder_then_its_winner(sqlite_url: str) -> None:
    same_as(sqlite_url, ENGLISH, "a: 老王 discarded, 小李 won seven pairs", "a: 胡 @b 七对 点 @c")


def test_hu_from_someone_is_the_senders_win_on_their_discard_as_in_chinese(sqlite_url: str) -> None:
    same_as(sqlite_url, ENGLISH, "a: hu from @b", "a: 胡 点 @b")


@pytest.mark.parametrize("line", ["a: drawn hand lol", "a: drawn hand haha", "a: no winner lol"])
def test_laughter_after_an_english_draw_records_the_draw(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, ENGLISH, line, "a: 荒庄")


def test_a_kong_with_chat_after_it_is_asked_as_the_kong(sqlite_url: str) -> None:
    table = Table(sqlite_url, *SEATED)
    try:
        before = table.booked()
        assert table.say("a: 暗杠 三条 都没用") == [
            "bot: 没看懂「都没用」，不算在内。是不是：暗杠 3s？",
            "bot: [按钮] 就是这个 | 不是",
        ]
        assert table.booked() == before
        assert "bot: 第1局 记下：阿杰 暗杠 三条" in table.say("b: !press 就是这个")
    finally:
        table.ledger.close()


def test_settling_with_nothing_played_says_so_and_ends_the_empty_table(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    try:
        assert table.say("b: 算账") == ["bot: 没有可结算的：今晚一局也没打完，也没有输赢。这桌收了，要打就再 开桌。"]
        assert table.say("a: 结算") == ["bot: 没有可结算的：今晚一局也没打完，也没有输赢。"]
        assert table.ledger.current_table(table.chat) is None
        table.say("a: 开桌 @a @b @c 庄 @a", "a: 荒庄")
        assert any("1局" in line for line in table.say("a: 结算"))  # the night was never sealed
    finally:
        table.ledger.close()


def test_swapping_a_seated_player_answers_with_the_open_line_that_does_it(sqlite_url: str) -> None:
    table = Table(sqlite_url, *SEATED)
    try:
        before = table.booked()
        assert table.say("b: 换人 @c @d") == [
            "bot: 没有换人：一桌的座位开桌时就定了。让 小张 替 老王，就重开一桌（之前记的都算数）：开桌 @a @b @d 庄 @a"
        ]
        assert table.say("b: 换人 @a @d")[0].endswith("：开桌 @d @b @c 庄 @d")  # the dealer's seat deals on
        assert table.say("b: 换人 @d @c") == ["bot: 没有换人：小张 不在这桌。"]
        assert table.say("b: 换人 @c @b") == ["bot: 没有换人：小李 已经在这桌了。"]
        assert table.say("!clock +1m", "b: 换人", "b: 该换人了") == []
        assert table.booked() == before
        assert "bot: 座位：阿杰、小李、小张" in table.say("a: 开桌 @a @b @d 庄 @a")
    finally:
        table.ledger.close()


def test_who_do_i_owe_before_settling_shows_the_plan_as_not_settled(sqlite_url: str) -> None:
    table = Table(sqlite_url, *SEATED, "a: 胡 七对 点 @b", "!clock +3m", "c: 胡 清一色 自摸", "!clock +3m")
    try:
        assert table.say("b: 我欠谁钱")[-2:] == [
            "bot: 今晚（2026-01-10）还没结算（小李 -8元）：打完发 结算 算出谁给谁多少。",
            "bot: 要是现在结算，你要给：老王 8元（按这一晚到现在的输赢；还没结算，以 结算 为准）",
        ]
        assert table.say("c: 我欠谁")[-1] == "bot: 要是现在结算，你不用给谁钱（按这一晚到现在的输赢；还没结算）。"
        assert not any("要是现在结算" in line for line in table.say("b: 谁欠我钱"))
        table.say("a: 设置 语言 en")
        assert table.say("b: who do I owe")[-1] == (
            "bot: Were it settled now, you would pay: 老王 8元 (that night's results so far; not settled yet: settle "
            "decides)"
        )
    finally:
        table.ledger.close()


@given(
    st.sampled_from(["小李给我点了个", "小李点我", "我胡小李 ", "我胡了 @b "]),
    st.text(alphabet="七对清一色自摸点外卖了吗？ 123ps@b", max_size=8),
)
def test_a_line_dealt_in_to_the_sender_is_that_discarders_win_or_nothing_of_it(told: str, after: str) -> None:
    """Whatever follows, the dealt-in-to-me reading names the discarder told and never a second way of winning."""
    load_plugins()
    found = split_command(told + after, registry, "kawuxing", ["阿杰", "小李", "老王"])
    said = found[2].split() if found is not None and found[1] == "我胡了" else []
    if "点" in said[:-1]:  # read as dealt in: by the one told, once, and not self-drawn too (a bare 点 at the end
        # names nobody: `我胡了 @b 点` is read as typed, and refused by the win)
        assert said[-2:] in (["点", "小李"], ["点", "@b"]) and said.count("点") == 1 and "自摸" not in said
