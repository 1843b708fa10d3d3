"""Lines a play-test of a 卡五星 evening found silent or refused: a win told after its discarder with the winner
glued to the patterns (`老王点炮 我七对`, `老王点炮 阿杰七对`, `@老王 你点的炮 我碰碰胡`), the discarder named with 打的
(`胡 七对 老王打的`), a seat's kong glued whole (`老王暗杠5条`), `我杠了红中 暗的`, one's own result asked with a
closing 了 or the day (`我输了多少了`, `我今天输了几块钱`), an admin's 移出 and the 查大叫 question's 没人听 typed.
Each books what its plain line books, with the same reply; the same words as chat stay silent."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as, stays_chat

OPEN = ("a: 开桌 @a @b @c 庄 @a", "!clock +1m")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("b: 老王点炮 我七对", "b: 胡 七对 点 @c"),
        ("b: 老王点炮 我 七对", "b: 胡 七对 点 @c"),
        ("b: 老王点炮 阿杰七对", "b: 老王点炮 阿杰 七对"),
        ("b: @c 你点的炮 我碰碰胡", "b: 胡 碰碰胡 点 @c"),
        ("b: @c 你点的炮 我胡了 碰碰胡", "b: 胡 碰碰胡 点 @c"),
        ("b: 胡 七对 老王打的", "b: 胡 七对 点 @c"),
        ("b: 我胡了 七对 老王打的", "b: 胡 七对 点 @c"),
        ("c: 老王暗杠5条", "c: 暗杠 5s"),
        ("b: 老王暗杠三条", "b: 老王暗杠 3s"),
        ("c: 我杠了红中 暗的", "c: 暗杠 红中"),
    ],
)
def test_lines_book_what_their_plain_line_books(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OPEN, line, plain)


@pytest.mark.parametrize(
    "line",
    [
        "b: 老王点炮 我觉得不对",  # the sender then no pattern: talk about the discard
        "b: 老王点炮 阿杰来了",
        "c: 老王暗杠5条吗",  # a question
        "c: 老王暗杠好多",
        "a: 踢了 @d",  # banter: 踢 is no command
        "a: 移出群聊了吗",
        "c: 没人听",  # no 查大叫 question waits
        "c: 没人听我说话",
    ],
)
def test_the_same_words_as_chat_stay_silent(sqlite_url: str, line: str) -> None:
    stays_chat(sqlite_url, OPEN, line)


@pytest.mark.parametrize(
    "line", ["c: 我输了多少了", "c: 我今天输了几块钱", "c: 我今晚赢了几块", "c: 我一共输了多少钱了"]
)
def test_ones_own_result_asked_with_a_closing_le_or_the_day(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *OPEN, "b: 胡 七对 点 @c")
    try:
        told = table.say(line)
        assert told == table.say("c: 余额 我"), told
        assert "老王" in told[-1] and "-4元" in told[-1], told
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: 移出 @d 刷屏", "a: 移除 @d 刷屏"])
def test_an_admins_kick_said_as_people_say_it(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url)
    try:
        assert table.say(line) == ["bot: 🚪 小张 被请出本群（刷屏），可以重新邀请。记录 #1", "bot: [移出] d"]
    finally:
        table.ledger.close()


def test_a_member_removing_is_told_only_admins_may(sqlite_url: str) -> None:
    table = Table(sqlite_url)
    try:
        assert table.say("b: 移出 @d") == ["bot: 只有群管理员可以这样做。"]
    finally:
        table.ledger.close()


#: 应城 plays 查大叫: a draw asks who was ready
YINGCHENG = ("a: 设置 预设 应城", *OPEN, "c: 荒了")


@pytest.mark.parametrize("line", ["c: 没人听", "c: 没人听牌", "b: 都没听", "a: 都没人听"])
def test_nobody_ready_typed_answers_the_draws_question(sqlite_url: str, line: str) -> None:
    same_as(sqlite_url, YINGCHENG, line, "c: 听 没人听")
    table = Table(sqlite_url, *YINGCHENG)
    try:
        assert "bot: 查大叫：没人听牌" in table.say(line)
        assert table.say("a: 历史")[-1].startswith("bot: 第1局 荒庄"), table.say("a: 历史")
    finally:
        table.ledger.close()


#: 碰胡: 阿杰 swept at the deal; the others say they did too
PENGHU_SWEPT = ("a: 设置 游戏 碰胡", "a: 开桌 @a @b 老表 @d 庄 @a", "a: 起手扫", "!clock +1m")


@pytest.mark.parametrize(
    "line", ["b: 我也起手扫了", "b: 我也起手扫", "b: 我起手也扫了", "b: 我也是起手扫", "b: 我也扫了"]
)
def test_a_penghu_record_said_after_someone_elses(sqlite_url: str, line: str) -> None:
    """A play-test: `我也起手扫了` after 红姐's 起手扫 was silent, so the player thought it booked."""
    plain = "b: 扫" if "起手" not in line else "b: 我起手扫"
    same_as(sqlite_url, PENGHU_SWEPT, line, plain)


def test_also_before_a_word_is_no_record_of_anything_else(sqlite_url: str) -> None:
    stays_chat(sqlite_url, PENGHU_SWEPT, "b: 我也起手扫了吗")
