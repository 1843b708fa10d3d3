"""改成 at tables with 漂 and 买马: a correction keeps what the hand was told beside the line (each player's 漂, the
win's horse) and books what the corrected line books by itself; 一炮双响 on a robbed kong; `刚才那把不是…是…`."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

PIAO = "a: 设置 漂 选漂"
MAIMA = "a: 设置 买马 自摸买马"
SHUKAN = "a: 设置 数坎 是"
TOLD_PIAO = "a: 漂 @a 1 @b 2 @c 0"


def table(bot: tuple[Bot, ManualClock], chat_id: int, setting: str, *lines: str) -> Console:
    """A table opened after `setting` (lines of settings), the lines fed 20 s apart."""
    console = Console(bot[0], bot[1], chat_id=chat_id)
    for line in (
        "!join a 阿杰",
        "!join b 小李",
        "!join c 老王",
        "!admin a",
        *setting.split("\n"),
        "a: 开桌 @a @b @c 庄 @a",
    ):
        console.feed(line)
    for line in lines:
        console.feed(line)
        console.feed("!clock +20s")  # no flooding
    return console


def balances(console: Console) -> list[str]:
    return console.feed("a: 余额")


#: (the table's setting, what was recorded, its correction, the lines that book the same by themselves)
CORRECTIONS = [
    # 漂 told before the win, or answered to the win's question (then part of its record): kept either way
    (PIAO, (TOLD_PIAO, "b: 胡 碰碰胡 点 @a"), "b: 改成 清一色", (TOLD_PIAO, "b: 胡 清一色 点 @a")),
    (PIAO, (TOLD_PIAO, "b: 胡 碰碰胡 点 @a"), "b: 改成 清一色 自摸", (TOLD_PIAO, "b: 胡 清一色 自摸")),
    (PIAO, ("b: 胡 碰碰胡 点 @a", TOLD_PIAO), "b: 改成 清一色", (TOLD_PIAO, "b: 胡 清一色 点 @a")),
    (PIAO, ("b: 胡 碰碰胡 点 @a", TOLD_PIAO), "b: 改成 胡 清一色 自摸", (TOLD_PIAO, "b: 胡 清一色 自摸")),
    (PIAO, ("b: 胡 碰碰胡 点 @a", TOLD_PIAO), "b: 刚才那把不是碰碰胡是七对", (TOLD_PIAO, "b: 胡 七对 点 @a")),
    (
        PIAO,
        (TOLD_PIAO, "a: 胡 @a 碰碰胡 @b 七对 点 @c"),
        "a: 改成 阿杰 清一色",
        (TOLD_PIAO, "a: 胡 @a 清一色 @b 七对 点 @c"),
    ),
    (
        PIAO,
        (TOLD_PIAO, "a: 胡 @a 碰碰胡 @b 七对 点 @c"),
        "a: 错了 阿杰是清一色",
        (TOLD_PIAO, "a: 胡 @a 清一色 @b 七对 点 @c"),
    ),
    (
        PIAO,
        ("a: 胡 @a 碰碰胡 @b 七对 点 @c", TOLD_PIAO),
        "a: 改成 @a 清一色",
        (TOLD_PIAO, "a: 胡 @a 清一色 @b 七对 点 @c"),
    ),
    # the horse told in the line or answered to its question: kept by a pattern's fix, re-turned by `改成 买马 …`
    (MAIMA, ("b: 胡 碰碰胡 自摸 买马 7s",), "b: 改成 七对", ("b: 胡 七对 自摸 买马 7s",)),
    (MAIMA, ("b: 胡 碰碰胡 自摸", "b: 买马 7s"), "b: 改成 七对", ("b: 胡 七对 自摸 买马 7s",)),
    (MAIMA, ("b: 胡 清一色 自摸 买马 7s",), "b: 改成 买马 8s", ("b: 胡 清一色 自摸 买马 8s",)),
    (MAIMA, ("b: 胡 七对 自摸 买马 7s",), "b: 改成 胡 七对 自摸 买马 8s", ("b: 胡 七对 自摸 买马 8s",)),
    # 数坎: the count kept by a pattern's fix, re-told by `改成 坎2`
    (SHUKAN, ("b: 胡 清一色 自摸 坎1",), "b: 改成 碰碰胡", ("b: 胡 碰碰胡 自摸 坎1",)),
    (SHUKAN, ("b: 胡 清一色 自摸 坎1",), "b: 改成 坎2", ("b: 胡 清一色 自摸 坎2",)),
    (SHUKAN, ("b: 胡 清一色 自摸 坎1",), "b: 改成 2坎", ("b: 胡 清一色 自摸 坎2",)),
]


@pytest.mark.parametrize(("setting", "recorded", "correction", "same_as"), CORRECTIONS)
def test_a_correction_keeps_what_the_hand_was_told_beside_it(
    bot: tuple[Bot, ManualClock], setting: str, recorded: tuple[str, ...], correction: str, same_as: tuple[str, ...]
) -> None:
    corrected = table(bot, -1001, setting, *recorded)
    asked = corrected.feed(correction)
    assert "[按钮] 改成这样 | 不改" in asked[-1], asked
    pressed = corrected.feed(f"{correction.split(':')[0]}: !press 改成这样")
    assert any("已改正" in line for line in pressed), pressed
    assert balances(corrected) == balances(table(bot, -1002, setting, *same_as))
    assert balances(corrected) != balances(table(bot, -1003, setting, *recorded))


def test_the_question_names_the_horse_that_changes(bot: tuple[Bot, ManualClock]) -> None:
    """Two records told apart only by their horse are two records: `改成 … 买马 8s` is asked, never 「记的就是」."""
    console = table(bot, -1001, MAIMA, "b: 胡 七对 自摸 买马 7s")
    assert console.feed("b: 改成 胡 七对 自摸 买马 8s")[0] == (
        "bot: 把第1局的「小李 自摸 七对 买马 七条」（你 20秒前记的）改成「小李 自摸 七对 买马 八条」？"
        "改了按新的重算这一局。"
    )
    assert console.feed("b: 改成 胡 七对 自摸 买马 7s") == ["bot: 第1局记的就是「小李 自摸 七对 买马 七条」，没有改。"]


def test_an_edit_of_a_finished_hand_keeps_its_piao(bot: tuple[Bot, ManualClock]) -> None:
    """The edited message's hand is the one its record ended, not the table's next: its 漂 stands, nothing asked."""
    console = table(bot, -1001, PIAO, TOLD_PIAO, "b: 胡 碰碰胡 点 @a")
    edited = console.feed("b: !edit 胡 清一色 自摸")  # b's last message: the win
    assert edited[0] == "bot: 第1局 按改后的消息重记（原记录作废）：", edited
    assert balances(console) == balances(table(bot, -1002, PIAO, TOLD_PIAO, "b: 胡 清一色 自摸"))


@pytest.mark.parametrize("told_first", [True, False])
def test_a_double_win_joined_at_a_piao_table_keeps_the_hands_piao(
    bot: tuple[Bot, ManualClock], told_first: bool
) -> None:
    """「一炮双响」 under the second winner's line re-records the hand just ended with its 漂 (never asking the next
    hand's), and taking it back leaves each 漂 once."""
    lines = (TOLD_PIAO, "b: 胡 七对 点 @c") if told_first else ("b: 胡 七对 点 @c", TOLD_PIAO)
    console = table(bot, -1001, PIAO, *lines)
    console.feed("a: 胡 碰碰胡 点 @c")
    joined = console.feed("a: !press 一炮双响")
    assert "bot: 第1局 改记成一炮双响（原记录作废）：" in joined, joined
    assert balances(console) == balances(table(bot, -1002, PIAO, TOLD_PIAO, "a: 胡 @b 七对 @a 碰碰胡 点 @c"))
    console.feed("a: 撤销")
    undone = console.feed("a: !press 确认撤销")
    assert undone[-1] == ("bot: 本局已记：阿杰 漂 1；小李 漂 2；老王 漂 0" if told_first else "bot: 本局还没有记录。")


def test_a_mention_naming_no_winner_is_left_out_of_the_example(bot: tuple[Bot, ManualClock]) -> None:
    console = table(bot, -1001, PIAO, TOLD_PIAO, "a: 胡 @a 碰碰胡 @b 七对 点 @c")
    assert console.feed("a: 改成 @c 清一色") == [
        "bot: 第1局是一炮双响（阿杰 胡 老王 点的炮 碰碰胡；小李 胡 老王 点的炮 七对）：改谁的？写上那个人，例如："
        "改成 阿杰 清一色（或 改成 小李 清一色）"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "a: 胡 @a 碰碰胡 @b 清一色 抢杠 @c",
        "a: 一炮双响 @a 碰碰胡 抢杠 @c @b 清一色 抢杠 @c",
        "a: 阿杰 碰碰胡 小李 清一色 都胡了 抢的老王的杠",
    ],
)
def test_two_players_robbing_one_kong_is_a_double_win(bot: tuple[Bot, ManualClock], line: str) -> None:
    """抢杠胡 counts as 点炮 by the konger: both win off 老王, and the robbed 蓄杠's money goes back once."""
    console = table(bot, -1001, "a: 设置 底金 1", "c: 蓄杠 4s")
    booked = console.feed(line)
    assert booked[1:6] == [
        "bot: 阿杰 抢 老王 的杠：碰碰胡×2、抢杠胡×2 → ×4",
        "bot: 小李 抢 老王 的杠：清一色×4、抢杠胡×2 → ×8",
        "bot: 老王 的蓄杠被抢，杠钱退回",
        "bot: 阿杰 +5元（本晚 +4元）",
        "bot: 小李 +9元（本晚 +8元）",
    ], booked


@pytest.mark.parametrize(
    ("who", "line", "asked"),
    [
        ("c", "刚才那把不是清一色是七对", True),
        ("c", "刚才 不是清一色，是七对", True),
        ("c", "刚才那把是七对", False),  # no 不是: chat
        ("b", "刚才那把不是清一色是七对", None),  # someone else's record: told whose it is, as 不是清一色 是七对 is
    ],
)
def test_the_hand_just_played_said_not_so_asks_the_correction(
    bot: tuple[Bot, ManualClock], who: str, line: str, asked: bool | None
) -> None:
    console = table(bot, -1001, "a: 设置 底金 1", "c: 胡 清一色 自摸")
    replies = console.feed(f"{who}: {line}")
    if asked:
        assert replies[0].endswith("改成「老王 自摸 七对」？改了按新的重算这一局。"), replies
    elif asked is None:
        assert replies[0].removeprefix("bot: ").startswith("「改」不会改别人记的账"), replies
    else:
        assert replies == []


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    piao=st.tuples(*[st.integers(0, 3)] * 3),
    horse=st.sampled_from(["1p", "5s", "9p", "7s"]),
    patterns=st.lists(st.sampled_from(["清一色", "七对", "碰碰胡", "卡五星"]), min_size=2, max_size=2, unique=True),
    told_first=st.booleans(),
)
def test_a_patterns_fix_books_what_the_fixed_line_books_with_the_hand_s_stakes(
    piao: tuple[int, int, int],
    horse: str,
    patterns: list[str],
    told_first: bool,
    new_sqlite_url: Callable[[], str],
) -> None:
    """Whatever 漂 each player told (before the win, or answered to its question) and whatever horse was turned,
    `改成 <patterns>` books what the win told with those patterns books with the same 漂 and horse."""
    was, now = patterns
    told = f"a: 漂 @a {piao[0]} @b {piao[1]} @c {piao[2]}"
    win = f"b: 胡 {was} 自摸 买马 {horse}"
    clock = ManualClock()
    ledger = Ledger.open(new_sqlite_url(), clock=clock.now)
    try:
        bot = (Bot(ledger, clock=clock), clock)
        setting = f"{PIAO}\n{MAIMA}"

        def game(chat_id: int, *lines: str) -> Console:
            return table(bot, chat_id, setting, *lines)

        corrected = game(-1001, *((told, win) if told_first else (win, told)))
        assert "[按钮] 改成这样 | 不改" in corrected.feed(f"b: 改成 {now}")[-1]
        corrected.feed("b: !press 改成这样")
        assert balances(corrected) == balances(game(-1002, told, f"b: 胡 {now} 自摸 买马 {horse}"))
    finally:
        ledger.close()


@pytest.mark.parametrize("answered", ["b: 买马 7s", "b: !press 7条"])
def test_an_edit_of_a_finished_hand_asks_its_horse_under_its_own_number(
    bot: tuple[Bot, ManualClock], answered: str
) -> None:
    """A win on a discard edited into a self-draw at a 买马 table lacks its horse: the question names the edited
    hand (not the one being played next), is answered by typing or by its button, and books into that hand."""
    console = table(bot, -1001, MAIMA, "b: 胡 清一色 点 @a")
    asked = console.feed("b: !edit 胡 清一色 自摸")
    assert asked[0] == "bot: 第1局 小李 自摸：本桌规则还要报这些才能记账", asked
    booked = console.feed(answered)
    assert "bot: 第1局 按改后的消息重记（原记录作废）：" in booked, booked
    assert booked[-1] == "bot: 下一局：第2局，庄家 小李", booked
    assert balances(console) == balances(table(bot, -1002, MAIMA, "b: 胡 清一色 自摸 买马 7s"))


def test_a_draw_edited_into_a_win_asks_the_hand_s_piao(bot: tuple[Bot, ManualClock]) -> None:
    """A 荒庄 that moved no 漂 was booked with each 漂 at 0 unasked: edited into a win, that hand's 漂 is asked,
    under its own number, and booked into it (the next hand's 漂 untouched)."""
    console = table(bot, -1001, PIAO, "a: 荒庄")
    asked = console.feed("a: !edit 胡 清一色 自摸")
    assert asked[:2] == [
        "bot: 第1局 阿杰 自摸：本桌规则还要报这些才能记账",
        "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）",
    ]
    booked = console.feed("a: 漂 @a 1 @b 2 @c 0")
    assert "bot: 第1局 按改后的消息重记（原记录作废）：" in booked, booked
    assert balances(console) == balances(table(bot, -1002, PIAO, "a: 漂 @a 1 @b 2 @c 0", "a: 胡 清一色 自摸"))
    assert console.feed("a: 牌桌")[-2] == "bot: 本局还没有记录。"


@pytest.mark.parametrize("answered", ["b: 买马 7s", "b: !press 7条"])
def test_a_discard_win_corrected_to_a_self_draw_asks_its_horse(bot: tuple[Bot, ManualClock], answered: str) -> None:
    """`改成 自摸` at a 买马 table: the win becomes a self-draw (its hand kept), the question says the horse is
    asked once it is confirmed, and the answer books the corrected hand."""
    console = table(bot, -1001, MAIMA, "b: 胡 清一色 点 @a")
    assert console.feed("b: 改成 自摸")[:2] == [
        "bot: 把第1局的「小李 胡 阿杰 点的炮 清一色」（你 20秒前记的）改成「小李 自摸 清一色」？改了按新的重算这一局。",
        "bot: 这样还要报马牌：点「改成这样」后我再问。",
    ]
    asked = console.feed("b: !press 改成这样")
    assert asked[:2] == [
        "bot: 第1局 小李 自摸：本桌规则还要报这些才能记账",
        "bot: 小李 自摸买马：翻出的马牌是？（或发：买马 7s）",
    ]
    booked = console.feed(answered)
    assert "bot: 第1局 已改正（原记录作废）：" in booked, booked
    assert balances(console) == balances(table(bot, -1002, MAIMA, "b: 胡 清一色 自摸 买马 7s"))


@pytest.mark.parametrize(
    ("recorded", "way", "becomes"),
    [
        ("b: 胡 清一色 自摸 买马 7s", "自摸", None),  # the way it was: nothing to change (never a 屁胡)
        ("b: 胡 清一色 自摸 买马 7s", "点 @a", "小李 胡 阿杰 点的炮 清一色"),  # a discard buys no horse
        # a hand told by its tiles keeps them
        ("b: 胡 123p46p789s22s333s 5p 点 @c", "自摸 买马 中", "小李 自摸（123p46p789s22s333s 5p） 买马 中"),
    ],
)
def test_a_way_alone_keeps_the_hand(bot: tuple[Bot, ManualClock], recorded: str, way: str, becomes: str | None) -> None:
    console = table(bot, -1001, MAIMA, recorded)
    replies = console.feed(f"b: 改成 {way}")
    if becomes is None:
        assert replies == ["bot: 第1局记的就是「小李 自摸 清一色 买马 七条」，没有改。"]
    else:
        assert replies[0].endswith(f"改成「{becomes}」？改了按新的重算这一局。"), replies


@pytest.mark.parametrize(
    ("horse", "why"),
    [
        ("东", "「东」不是卡五星的牌：卡五星没有东南西北风。马牌是本桌两门的 1 到 9，或 白 发 中，例如 买马 7s"),
        ("8z", "「8z」不是一张牌：数牌是 1 到 9，字牌只有 白 发 中（5z 6z 7z），例如 买马 7s"),
        ("3s 7p", "「3s 7p」是好几张牌：买马只翻一张，例如 买马 7s"),
    ],
)
def test_a_horse_no_set_holds_is_refused_and_the_hand_stands(
    bot: tuple[Bot, ManualClock], horse: str, why: str
) -> None:
    console = table(bot, -1001, MAIMA, "b: 胡 清一色 自摸 买马 7s")
    before = balances(console)
    assert console.feed(f"b: 改成 买马 {horse}") == [
        f"bot: {why}",
        "bot: 没有改：第1局还是「小李 自摸 清一色 买马 七条」。",
    ]
    assert balances(console) == before


#: the horse corrected as players say it: each asks to make 第1局's horse 八条
HORSE_SAID = [
    "b: 改成 马 8s",
    "b: 马买错了 是8s",
    "b: 马错了 应该是8条",
    "b: 不对 马是8s",
    "b: 马不是7s是8s",
    "b: 刚才那把马不是7s是8s",
    "b: 马牌是八条不是七条",
]


@pytest.mark.parametrize("line", HORSE_SAID)
def test_the_horse_corrected_as_players_say_it(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1001, MAIMA, "b: 胡 清一色 自摸 买马 7s")
    asked = console.feed(line)
    assert asked[0].endswith("改成「小李 自摸 清一色 买马 八条」？改了按新的重算这一局。"), asked


@pytest.mark.parametrize("line", ["b: 改成 马上来", "b: 马不是东西", "b: 马错了", "b: 马是好马不是坏马"])
def test_talk_of_horses_stays_chat(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1001, MAIMA, "b: 胡 清一色 自摸 买马 7s")
    assert console.feed(line) == []


ENGLISH_MAIMA = f"{MAIMA}\na: 设置 语言 en"
#: the horse corrected in English: each asks to make hand 1's horse 8s
HORSE_SAID_EN = [
    "b: change to horse 8s",
    "b: correct: bought horse 8 bamboo",
    "b: change to buy horse eight bamboo",
    "b: change the horse to 8s",
    "b: the horse was 8s",
    "b: wrong horse, it was 8 bamboo",
]


@pytest.mark.parametrize("line", HORSE_SAID_EN)
def test_the_horse_corrected_in_english(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1001, ENGLISH_MAIMA, "b: win one suit self-draw buy horse 7s")
    assert console.feed(line)[0] == (
        "bot: Replace hand 1's “小李 self-draw one suit (清一色) horse 7s” (recorded by you 20s ago) with “小李 "
        "self-draw one suit (清一色) horse 8s”? The hand is scored again as corrected."
    )
    booked = console.feed("b: !press Correct it")
    assert "bot: horse (买马) 8s (8): 阿杰→小李 8元, 老王→小李 8元" in booked, booked


def test_a_horse_no_set_holds_is_refused_in_english(bot: tuple[Bot, ManualClock]) -> None:
    console = table(bot, -1001, ENGLISH_MAIMA, "b: win one suit self-draw buy horse 7s")
    assert console.feed("b: change to horse east") == [
        "bot: “east” is no Ka Wu Xing (卡五星) tile: it has no winds. The horse is 1–9 of the table's two suits, "
        "or a white, green or red dragon, e.g. buy horse 7s",
        "bot: Nothing changed: hand 1 stays “小李 self-draw one suit (清一色) horse 7s”.",
    ]
    assert console.feed("b: the horse was great") == []


#: (the hand as recorded, a 漂 corrected after it ended, the lines that book the same by themselves)
PIAO_CORRECTIONS = [
    # a 漂 is its player's to correct (老王 on 小李's win), or an admin's (阿杰)
    ((TOLD_PIAO, "b: 胡 清一色 自摸"), "c: 改成 漂2", ("a: 漂 @a 1 @b 2 @c 2", "b: 胡 清一色 自摸")),
    ((TOLD_PIAO, "b: 胡 清一色 自摸"), "c: 改成 老王 漂2", ("a: 漂 @a 1 @b 2 @c 2", "b: 胡 清一色 自摸")),
    ((TOLD_PIAO, "b: 胡 清一色 自摸"), "a: 漂错了 老王漂2", ("a: 漂 @a 1 @b 2 @c 2", "b: 胡 清一色 自摸")),
    ((TOLD_PIAO, "b: 胡 清一色 点 @a"), "a: 不对 阿杰没漂", ("a: 漂 @a 0 @b 2 @c 0", "b: 胡 清一色 点 @a")),
    ((TOLD_PIAO, "b: 胡 清一色 点 @a"), "b: 改成 漂3", ("a: 漂 @a 1 @b 3 @c 0", "b: 胡 清一色 点 @a")),
    # 漂 answered to the win's question, part of its record
    (("b: 胡 清一色 自摸", TOLD_PIAO), "a: 改成 漂 @c 2", ("a: 漂 @a 1 @b 2 @c 2", "b: 胡 清一色 自摸")),
]


@pytest.mark.parametrize(("recorded", "correction", "same_as"), PIAO_CORRECTIONS)
def test_the_piao_of_the_hand_just_ended_is_corrected(
    bot: tuple[Bot, ManualClock], recorded: tuple[str, ...], correction: str, same_as: tuple[str, ...]
) -> None:
    """A 漂 told wrong, corrected once the hand has ended: asked as any correction (showing the 漂 it books with the
    win), booked into that hand, never into the next one."""
    corrected = table(bot, -1001, PIAO, *recorded)
    asked = corrected.feed(correction)
    assert "[按钮] 改成这样 | 不改" in asked[-1], asked
    pressed = corrected.feed(f"{correction.split(':')[0]}: !press 改成这样")
    assert "bot: 第1局 已改正（原记录作废）：" in pressed, pressed
    assert balances(corrected) == balances(table(bot, -1002, PIAO, *same_as))
    assert corrected.feed("a: 牌桌")[-2] == "bot: 本局还没有记录。"


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("b: 改成 漂 @c 20", ["bot: 漂「20」不对：漂是 0 到 10 的整数。"]),
        ("c: 改成 七对", None),  # someone else's record: told whose it is
        ("b: 他没漂", []),  # nobody named: chat
        ("b: 不对 老王没漂", []),  # as recorded (0): the chatty line says nothing
        ("c: 改成 老王没漂", ["bot: 第1局记的就是 老王 漂 0，没有改。"]),
        # someone else's 漂, the winner's too: refused, nothing asked (it would raise what 老王 pays)
        ("b: 改成 漂 @c 5", ["bot: 没有记：老王 的漂要 TA 自己报（漂 2），或者管理员报（漂 @老王 2）。"]),
        ("b: 漂错了 老王漂5", ["bot: 没有记：老王 的漂要 TA 自己报（漂 2），或者管理员报（漂 @老王 2）。"]),
        ("c: 改成 漂 @a 5", ["bot: 没有记：阿杰 的漂要 TA 自己报（漂 2），或者管理员报（漂 @阿杰 2）。"]),
    ],
)
def test_a_piao_correction_that_cannot_be(bot: tuple[Bot, ManualClock], line: str, reply: list[str] | None) -> None:
    console = table(bot, -1001, PIAO, TOLD_PIAO, "b: 胡 清一色 自摸")
    before = balances(console)
    said = console.feed(line)
    if reply is None:
        assert said[0].startswith("bot: 「改」不会改别人记的账"), said
    else:
        assert said == reply
    assert balances(console) == before
