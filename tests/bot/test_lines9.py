"""Lines a play-tester typed at a 卡五星 table that the bot ignored or refused: one winner told after the one who
dealt in (`小李点炮 老王 七对`), 一个 said before a pattern (`我自摸了一个清一色`), ..."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table, same_as

OPEN = ("a: 开桌 @a @b @c 庄 @a", "!clock +1m")  # 阿杰, 小李, 老王


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 小李点炮 老王 七对", "c: 胡 @c 七对 点 @b"),
        ("a: 小李放炮 老王 七对", "a: 胡 @c 七对 点 @b"),
        ("a: @b 点炮 @c 清一色", "a: 胡 @c 清一色 点 @b"),
    ],
)
def test_one_winner_told_after_the_one_who_dealt_in_is_that_win(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OPEN, line, plain)


@pytest.mark.parametrize("line", ["a: 小李点炮 老王", "a: 小李点炮 老王 七对 点 @a", "a: 小李点炮 王哥 七对"])
def test_a_discarder_first_line_naming_no_hand_or_two_discarders_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *OPEN)
    before = table.booked()
    assert table.say(line) == []
    assert table.booked() == before


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 我自摸了一个清一色", "a: 胡 清一色 自摸"),
        ("a: 自摸了一个清一色", "a: 胡 清一色 自摸"),
        ("a: 胡了 一个 七对 自摸", "a: 胡 七对 自摸"),
        ("a: 胡了个七对 点 @b", "a: 胡 七对 点 @b"),
        ("a: 胡了一个七对", "a: 胡 七对"),  # asked how it was won, as `胡 七对` is
        ("a: 我胡了一个 七对 自摸", "a: 胡 七对 自摸"),  # 一个 glued to the word, the pattern after a space
        ("a: 我自摸了一个 清一色", "a: 胡 清一色 自摸"),
    ],
)
def test_一个_before_a_pattern_tells_the_pattern(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OPEN, line, plain)


@pytest.mark.parametrize("line", ["a: 我胡了一个 大的", "a: 我胡了一个", "a: 胡了一个"])
def test_一个_glued_to_the_word_with_no_pattern_after_stays_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *OPEN)
    before = table.booked()
    assert table.say(line) == [] and table.booked() == before


@pytest.mark.parametrize(
    ("said", "quoted"), [("漂 -3", "-3"), ("漂 @b -1", "-1"), ("漂 负3", "负3"), ("漂 2.5", "2.5")]
)
def test_a_漂_that_is_no_whole_number_from_0_is_refused_as_漂_99999_is(sqlite_url: str, said: str, quoted: str) -> None:
    table = Table(sqlite_url, "a: 设置 漂 选漂", *OPEN)
    before = table.booked()
    assert table.say(f"a: {said}") == [f"bot: 漂「{quoted}」不对：漂是 0 到 10 的整数。"]
    assert table.booked() == before
    assert table.say("a: 漂 亮啊") == []  # words after 漂 stay chat


def test_an_english_win_from_someone_not_seated_is_answered_as_his_undo_is(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!join m Mike", *OPEN)
    before = table.booked()
    refused = "bot: Only the players at this table and the group's admins can record."
    assert table.say("m: I won seven pairs self drawn") == [refused]
    assert table.say("m: I won seven pairs off 小李") == [refused]
    assert table.say("m: I won the raffle", "m: won the game lol") == []  # chat, as from anyone
    assert table.say("m: undo") == ["bot: Only the players at this table and the group's admins can undo."]
    assert table.booked() == before


def test_a_seated_english_speaker_books_his_win(sqlite_url: str) -> None:
    told, typed = Table(sqlite_url, "!join m Mike"), Table(sqlite_url, "!join m Mike")
    for table in (told, typed):
        table.say("a: 开桌 @b @m 庄 @a", "!clock +1m")
    assert told.say("m: I won seven pairs self drawn")[:2] == [
        "bot: Hand 1 recorded:",
        "bot: Mike self-draw: seven pairs (七对)×4 → ×4",
    ]
    typed.say("m: 胡 七对 自摸")
    assert told.booked() == typed.booked()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 胡 七 对 自摸", "c: 胡 七对 自摸"),
        ("c: 胡 清 一色 自摸", "c: 胡 清一色 自摸"),
        ("c: 胡 碰碰 胡 点 @b", "c: 胡 碰碰胡 点 @b"),
        ("c: 胡 卡 五星 点 @b", "c: 胡 卡五星 点 @b"),
        ("c: 胡 卡 五 星 点 @b", "c: 胡 卡五星 点 @b"),
        ("c: 我自摸了 清 一色", "c: 胡 清一色 自摸"),
    ],
)
def test_a_pattern_name_typed_in_pieces_is_that_pattern(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, OPEN, line, plain)


def test_pieces_that_join_to_no_pattern_are_still_refused(sqlite_url: str) -> None:
    table = Table(sqlite_url, *OPEN)
    before = table.booked()
    assert table.say("c: 胡 七 自摸")[0] == "bot: 没看懂「七」。是不是：胡 七对 自摸？"  # asked, as before
    assert table.booked() == before


def test_the_payee_of_a_confirmed_payment_is_told_plainly_what_an_admin_sends(sqlite_url: str) -> None:
    table = Table(sqlite_url, *OPEN)
    table.say("b: 胡 清一色 自摸", "!clock +1m", "a: 结算", "!clock +1m", "c: 付 @b 4", "!clock +1m", "b: 收到 @c 4")
    assert table.say("!clock +1m", "b: 撤销付款") == [
        "bot: 这笔付款双方都确认过了，不能一个人撤销；真记错了请管理员发「撤销付款 @b」（由管理员发这句，撤的是 小李 "
        "最近的一笔付款）"
    ]
    assert table.say("a: 撤销付款 @b")[0] == "bot: 已撤销付款：老王 → 小李 4元"  # what it said an admin sends


SETTLED = (*OPEN, "b: 胡 清一色 自摸", "!clock +1m", "a: 结算", "!clock +1m")  # 阿杰 and 老王 owe 小李 4元 each


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("a: 付 小李 1 微信转了", "a: 付 小李 1"),
        ("a: 付 @b 1 支付宝", "a: 付 @b 1"),
        ("a: 付 小李 4块 已转", "a: 付 小李 4块"),
        ("c: 付 @b 2 微信 转了 谢谢", "c: 付 @b 2"),
    ],
)
def test_how_it_was_paid_said_after_a_payment_is_talk(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, SETTLED, line, plain)


def test_历史_names_what_查大叫_paid_at_a_draw(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 规则 应城", *OPEN)
    table.say("c: 暗杠 9s", "!clock +1m", "a: 荒庄 听 @b 123p456p789p234s5s", "!clock +1m")
    assert table.say("a: 历史")[-1] == (
        "bot: 第1局 老王 暗杠 九条；荒庄：杠钱照算；查大叫赔：老王→小李 1元、阿杰→小李 1元"
        " ｜ 阿杰 -3元，小李 0，老王 +3元"
    )
    assert table.say("a: 第1局") == table.say("a: 历史")[-1:]
