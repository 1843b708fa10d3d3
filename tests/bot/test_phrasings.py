"""Lines players and admins type that the bot once ignored or misread: the admins' fine said short (`罚 @小李 5`) or
with the member first (`@小李 罚款 5`), a setting's name glued (`设置底金2`), a table opened or a night settled as it
is said (`开桌了 @小李 @老王`, `结算了`), a tile 卡五星 has not (`暗杠 东风`) and a fifth kong by one player. The corpus
(tests/bot/corpus.txt) holds the lines themselves; these tests hold what the corpus cannot say: who gets no answer,
the English replies and where the grammar draws the line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import vocabulary
from bot.core import load_plugins, registry
from bot.grammar import split_command, unprompted
from tests.bot.test_player_first import Table


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    yield opened
    opened.ledger.close()


@pytest.fixture
def english(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url, "a: 设置 语言 en", "a: 开桌 @a @b @c 庄 @a")
    yield opened
    opened.ledger.close()


# --------------------------------------------------------------------------------------------------- the grammar


@pytest.mark.parametrize(
    ("line", "word", "args"),
    [
        ("罚 @小李 5", "罚", "@小李 5"),
        ("罚 @小李 5块 刷屏", "罚", "@小李 5块 刷屏"),
        ("罚@小李 2.5元", "罚", "@小李 2.5元"),
        ("@小李 罚款 5", "罚款", "@小李 5"),
        ("@小李 罚款5块 迟到", "罚款", "@小李 5块 迟到"),
        ("@小李 罚红包 5", "罚红包", "@小李 5"),
        ("@小李 发红包", "发红包", "@小李"),  # the fine; from a member chat (`ASKED_RED_PACKET`)
        ("@小李 发红包 5 刷屏", "发红包", "@小李 5 刷屏"),
        ("罚他发红包 @小李", "罚他发红包", "@小李"),
        ("老王 罚款 5", "罚款", "老王 5"),  # read so that the fine asks for the @ (a name is nobody's fine)
        ("@b fine 5", "fine", "@b 5"),
        ("设置底金2", "设置", "底金2"),
        ("设置底金 2", "设置", "底金 2"),
        ("設置封頂不封頂", "设置", "封頂不封頂"),
        ("设定日切6", "设定", "日切6"),
    ],
)
def test_a_short_fine_a_member_first_fine_and_a_glued_setting_are_read(line: str, word: str, args: str) -> None:
    load_plugins()
    found = split_command(line, registry, "kawuxing")
    assert found is not None and found[1:] == (word, args)


@pytest.mark.parametrize(
    "line",
    [
        *("罚酒三杯", "罚 酒", "罚 @小李", "罚 @小李 喝酒", "罚 @老王 3杯", "罚 5 @小李", "罚 @小李 5吗"),
        *("@小李 罚款", "@小李 罚款 喝酒", "@小李 罚款 5？", "老王 罚款", "老王 罚款 5？", "@小李 发红包 谢谢"),
        *("setbase2", "setup", "settings 2"),
        *("设置好了", "设置一下", "设置里面", "设置底金", "设置底金2吗", "设置 底金2吗"),
    ],
)
def test_what_only_looks_like_them_stays_chat(line: str) -> None:
    load_plugins()
    assert split_command(line, registry, "kawuxing", ["阿杰", "小李", "老王"]) is None


def test_a_line_glued_to_设置_acts_only_when_it_reads_cleanly() -> None:
    load_plugins()
    config = registry.lookup("设置")
    assert unprompted("设置底金2", "设置", config)
    assert not unprompted("设置 底金2", "设置", config)
    assert not unprompted("设置 底金 2", "设置", config)
    assert not unprompted("/config 底金2", "config", config)
    assert not unprompted("罚 @小李 5", "罚", registry.lookup("罚"))
    assert unprompted("@小李 罚款 5", "罚款", registry.lookup("罚款"))


# --------------------------------------------------------------------------------------------------- who hears

ADMIN = "!admin a"


def test_a_member_gets_the_admins_refusal_to_every_phrasing_of_a_fine_or_a_setting_but_none_to_chat(
    table: Table,
) -> None:
    table.say(ADMIN)
    refused = ["bot: 只有群管理员可以这样做。"]
    for line in ("b: 罚 @c 5", "b: 设置 底金2", "b: @c 罚款 5", "b: @c 罚款5块 迟到", "b: 设置底金2", "b: 底金改成2"):
        assert table.say(line) == refused, line
        table.say("!clock +3s")  # six refused lines of one member within 10 s would be a flood
    # Chinese words after a setting's name may be chat: a member's such line gets no answer, as an admin's refused
    table.say("!clock +10s")
    assert table.say("b: 设置规则好麻烦", "b: 设置封顶不封顶", "b: @c 罚款", "b: @c 罚 5") == []
    assert table.ledger.group(table.chat).base == 100
    assert table.ledger.balances(table.chat).pot == 0


def test_an_admins_glued_setting_books_when_it_reads_and_says_nothing_when_it_does_not(table: Table) -> None:
    table.say(ADMIN)
    assert table.say("a: 设置规则好麻烦", "a: 设置底金abc") == []
    assert table.ledger.group(table.chat).base == 100
    assert any("底金 2元" in line for line in table.say("a: 设置底金2"))
    assert table.ledger.group(table.chat).base == 200
    # typed apart after 设置 the line is the command's, and a bad value is answered with why
    assert any("1,000" in line for line in table.say("a: 设置 底金1,000"))
    assert table.ledger.group(table.chat).base == 200


def test_a_fine_said_short_or_member_first_is_the_fine(table: Table) -> None:
    table.say(ADMIN)
    assert table.say("a: 罚 @b 5块 刷屏") == ["bot: 💰 小李 被罚发红包 5元（刷屏），已记入红包池。记录 #1"]
    assert table.say("a: @b 罚款 2.5 迟到") == ["bot: 💰 小李 被罚发红包 2.5元（迟到），已记入红包池。记录 #2"]
    # what a fine is, said again after it, is no reason (not 「被罚发红包 5元（发红包）」)
    assert table.say("a: 罚 @b 5 发红包") == ["bot: 💰 小李 被罚发红包 5元（未说明原因），已记入红包池。记录 #3"]
    assert table.ledger.balances(table.chat).pot == 1250


# ------------------------------------------------------------------------------------------ 开桌了, 结算了


def test_开桌了_opens_only_with_every_seat_mentioned(table: Table) -> None:
    assert table.say("a: 开桌了", "a: 开桌啦", "a: 开桌了 快来 来人", "a: 开局了吗") == []
    opened = table.say("a: 开桌了 @b @c 庄 @b")
    assert opened[:4] == [
        "bot: 上一桌（阿杰、小李、老王）到此结束（还没记过一局）。",  # the fixture's table, replaced
        "bot: 开桌了：卡五星，襄阳规则（8 倍封顶，双龙七对 16 倍），底金 1元",
        "bot: 座位：阿杰、小李、老王",
        "bot: 第1局，庄家 小李（指定）",
    ]


def test_结算了_settles_and_after_the_settlement_is_chat(table: Table) -> None:
    table.say("c: 胡 清一色 自摸")
    assert table.say("a: 结算了吗", "a: 结算了没") == []
    assert table.say("d: 结算了") == ["bot: 只有这桌的玩家和群管理员可以结算。"]
    assert any("结算" in line for line in table.say("b: 结算了"))
    assert table.say("a: 结算了", "c: 结算啦") == []
    assert table.say("a: 结算")[0].startswith("bot: 今晚")  # 结算 itself still says the night is settled


# ---------------------------------------------------------------------------------------- tiles and kongs


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("a: 暗杠 东风", "卡五星没有「东风」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。"),
        ("a: 暗杠 1z", "卡五星没有「1z」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。"),
        (
            "a: 胡 清一色 自摸 南",
            "卡五星没有「南」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。",
        ),
        ("a: 暗杠 0p", "「0p」不是一张牌：数牌是 1 到 9，字牌只有 白 发 中（5z 6z 7z）。"),
    ],
)
def test_a_tile_卡五星_has_not_is_refused_with_why_and_no_guess(table: Table, line: str, reply: str) -> None:
    before = table.booked()
    assert table.say(line) == [f"bot: {reply}"]
    assert table.booked() == before


def test_a_wind_in_english(english: Table) -> None:
    assert english.say("a: concealed kong 东风") == [
        "bot: Ka Wu Xing (卡五星) has no tile “东风”: no winds, only 1–9 of the table's two suits and the white, green "
        "and red dragons (5z 6z 7z)."
    ]


def test_a_fifth_kong_by_one_player_books_nothing_and_says_why(table: Table, english: Table) -> None:
    for chat in (table, english):
        # a bare 暗杠 seconds after the sender's own 暗杠 1s would be asked as that kong sent again (`KONG_RESEND`)
        chat.say("a: 暗杠 1s", "a: 蓄杠 2s", "a: 直杠 3s 点 @b", "!clock +11s", "a: 暗杠", "!clock +11s")
    before = table.booked()
    assert table.say("a: 暗杠 5s") == [
        "bot: 没有记录：阿杰 这局已经杠了 4 次：一个人一局最多 4 个杠（14 张牌，杠算三张，最多四组加一对）。"
    ]
    assert table.booked() == before
    assert english.say("a: 暗杠 5s") == [
        "bot: Not recorded: 阿杰 has made 4 kongs this hand already: one player makes at most 4 (14 tiles, a kong "
        "counted as three: four sets and a pair)."
    ]
    assert table.say("b: 暗杠 5s")[0] == "bot: 第1局 记下：小李 暗杠 五条"  # another player's kongs are theirs
    assert table.say("c: 暗杠 1s")[0].startswith("bot: 这一局已经记了 阿杰 暗杠 一条：")  # a tile konged twice


# ------------------------------------------------------------------------------------ 关桌, 这把…点炮, money words

CLOSE_HOW = (
    "bot: 要收桌就发「结算」：今晚结束，贴出战报和转账方案，今晚的账就此封存（之后要改只能由管理员 撤销结算）。"
    "还接着打就不用管这条。"
)


def test_closing_words_say_how_to_end_the_night_and_close_nothing(table: Table, english: Table) -> None:
    table.say("c: 胡 清一色 自摸")
    before, open_table = table.booked(), table.ledger.current_table(table.chat)
    for line in ("a: 关桌", "b: 收桌了", "c: 散桌吧", "a: 不打了"):
        assert table.say(line) == [CLOSE_HOW], line
    assert table.ledger.current_table(table.chat) == open_table
    assert table.ledger.current_night(table.chat) is not None
    assert table.booked() == before
    # someone not playing, a question, more words: chat; and once the night is settled there is nothing to close
    assert table.say("d: 关桌", "a: 关桌了吗", "a: 关桌 明天见", "a: 我不打了") == []
    table.say("a: 结算")
    assert table.say("a: 收桌", "b: 不打了") == []
    assert english.say("a: 关桌") == [
        "bot: To close the table, send settle: it ends the night, posts its report and who pays whom, and seals the "
        "night's books (only an admin's unsettle reopens them). Playing on? Ignore this."
    ]


@pytest.mark.parametrize("lead", ["这把", "这局", "这盘 ", "刚才那局"])
def test_a_win_on_a_discard_told_discarder_first_after_这把_is_that_win(lead: str) -> None:
    load_plugins()
    seats = ["阿杰", "小李", "老王"]
    found = split_command(f"{lead}小李点炮 我胡了 七对", registry, "kawuxing", seats)
    assert found is not None and found[1:] == ("我胡了", "七对 点 小李")
    assert split_command(f"{lead}王哥点炮 我胡了 七对", registry, "kawuxing", seats) is None
    assert split_command(f"{lead}小李点炮 我胡了吗", registry, "kawuxing", seats) is None


SETTLED = ("c: 胡 清一色 自摸", "a: 结算")  # a and b owe c 4元 each


def _owed(table: Table, debtor: str) -> int:
    return sum(d.amount for d in table.ledger.debts(table.chat) if d.debtor == debtor)


def test_an_amount_in_another_unit_is_refused_with_that_unit_and_books_nothing(table: Table, english: Table) -> None:
    table.say(*SETTLED)
    english.say(*SETTLED)
    assert table.say("a: 转给 @c 8欢乐豆") == [
        "bot: 「8欢乐豆」不是金额：「欢乐豆」不是本群的金额单位（本群记 元，也可以写 角、分）。"
    ]
    assert english.say("a: 转给 @c 8欢乐豆") == [
        "bot: “8欢乐豆” is not an amount: “欢乐豆” is no unit of this group's money (it keeps 元; 角 and 分 work too)."
    ]
    assert _owed(table, "阿杰") == _owed(english, "阿杰") == 400
    table.say("a: 设置 货币 欢乐豆")  # the group's own label is its unit: 4欢乐豆 is 4 of its money
    assert table.say("a: 转给 @c 4欢乐豆")[0].startswith("bot: 记下付款：阿杰 → 老王 4欢乐豆")
    assert _owed(table, "阿杰") == 0


def test_转给_an_username_glued_to_digits_asks_and_books_only_on_the_senders_tap(table: Table) -> None:
    table.say(*SETTLED)
    assert table.say("b: 转给@c4") == ["bot: 群里没有 @c4。是不是：转给 @c 4？", "bot: [按钮] 就是这个 | 不是"]
    assert _owed(table, "小李") == 400
    assert table.say("c: !press 就是这个") == ["bot: [提示] 只有发这条付款的人或管理员可以回答。"]
    assert table.say("b: !press 不是")[0] == "bot: 已取消，没有记账。"
    assert _owed(table, "小李") == 400
    table.say("b: 转给@c4")
    assert table.say("b: 算了")[-1] == "bot: 好的，没有记（上面问的已经作废）。"
    table.say("b: 转给@c4")
    table.say("b: 付 @c 1")  # what b owes c changed since the question: its tap books nothing
    assert "这个问题已过期" in table.say("b: !press 就是这个")[-1]
    assert _owed(table, "小李") == 300
    table.say("b: 转给@c3")
    assert "记下付款：小李 → 老王 3元" in "\n".join(table.say("b: !press 就是这个"))
    assert _owed(table, "小李") == 0
    # owing @c nothing, the line is chat, as 转给 @c is
    assert table.say("b: 转给@c4", "c: 转给@a4") == []


def test_转给_a_member_whose_username_ends_in_digits_is_them_and_asks_how_much(sqlite_url: str) -> None:
    table = Table(sqlite_url, "!join c4 小四", "c4: 你好", "a: 开桌 @a @b @c 庄 @a", *SETTLED)
    try:
        assert table.say("a: 转给@c4") == [
            "bot: 转给 @c4 多少？请写上金额，例如 转给 @c4 5；要是付给 @c，@名字 后面空一格：转给 @c 4。没有记账。"
        ]
        assert _owed(table, "阿杰") == 400
    finally:
        table.ledger.close()


# ------------------------------------------------------------------------------ a command's Latin name, asked


def _asked_names() -> list[tuple[str, str]]:
    load_plugins()
    return [
        (game, f"{name}{mark}")
        for command in registry.commands.values()
        if command.key in vocabulary.ASKED_ABOUT_COMMANDS or command.admin_only
        for name in command.names
        for game in (command.games or ("kawuxing",))
        for mark in ("?", "？")
    ]


@pytest.mark.parametrize(("game", "line"), _asked_names())
def test_every_acting_command_s_latin_name_asked_is_chat(game: str, line: str) -> None:
    """`ready?`, `draw?`, `settle?`, `peng?`: a question about the act, as `亮倒？` is, never the act."""
    assert split_command(line, registry, game) is None


def test_ready_draw_settle_asked_book_nothing_and_say_nothing(table: Table, english: Table) -> None:
    for chat in (table, english):
        chat.say("c: 暗杠 3s")
        before = chat.booked()
        assert chat.say("a: ready?", "a: draw？", "b: win?", "a: settle?", "a: undo?", "a: liangdao ?") == []
        assert chat.booked() == before
        assert chat.say("a: draw")[0].startswith(("bot: 第1局 记下", "bot: Hand 1 recorded"))  # unasked, it books
