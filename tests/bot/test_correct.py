"""改成: a confirmed correction books what the corrected line books by itself, and trying a line writes nothing."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

SETUP = ("!join a 阿杰", "!join b 小李", "!join c 老王", "!admin a", "a: 开桌 @a @b @c 庄 @a")
#: (what was recorded, its correction, the line that books the same by itself): a correction naming only the
#: patterns keeps the win's winner and way of winning, one naming only the way keeps its winner and patterns
CORRECTIONS = [
    ("b: 胡 清一色 自摸", "b: 改成 胡 清一色 七对 自摸", "b: 胡 清一色 七对 自摸"),
    ("b: 胡 清一色 自摸", "b: 改 胡 清一色 点 @c", "b: 胡 清一色 点 @c"),
    ("b: 胡 清一色 自摸", "a: 改成 @c 胡 七对 点 @b", "a: 胡 @c 七对 点 @b"),
    ("c: 暗杠 3s", "c: 改一下，直杠 3s 点 @a", "c: 直杠 3s 点 @a"),
    ("c: 暗杠 3s", "c: 改成 胡 卡五星 点 @b", "c: 胡 卡五星 点 @b"),
    ("a: 荒庄", "a: 改成 胡 碰碰胡 自摸", "a: 胡 碰碰胡 自摸"),
    ("b: 胡 清一色 点 @c", "b: 改成 碰碰胡", "b: 胡 碰碰胡 点 @c"),
    ("b: 胡 清一色 点 @c", "a: 改成 胡 清一色 七对", "b: 胡 清一色 七对 点 @c"),
    ("b: 胡 清一色 点 @c", "b: 改成七对自摸", "b: 胡 七对 自摸"),
    ("b: 胡 清一色 自摸", "b: 改一下，是碰碰胡", "b: 胡 碰碰胡 自摸"),
    ("b: 胡 清一色 点 @c", "b: 改成 自摸", "b: 胡 清一色 自摸"),
    ("b: 胡 七对 自摸", "b: 改成 点 @a", "b: 胡 七对 点 @a"),
    ("b: 胡 清一色 点 @c", "b: 错了 是自摸", "b: 胡 清一色 自摸"),
    # a 一炮双响: one winner's hand said after their name; the other winner's hand (patterns or tiles), the way and
    # the discarder kept
    ("a: 胡 @a 卡五星 @b 七对 点 @c", "a: 改成 阿杰 清一色", "a: 胡 @a 清一色 @b 七对 点 @c"),
    ("a: 阿杰 卡五星 小李 七对 老王点的", "a: 改成 小李 碰碰胡", "a: 胡 @a 卡五星 @b 碰碰胡 点 @c"),
    ("a: 胡 @a 卡五星 @b 七对 点 @c", "a: 改成 我 清一色", "a: 胡 @a 清一色 @b 七对 点 @c"),
    ("a: 胡 @a 卡五星 @b 七对 点 @c", "a: 错了 阿杰是清一色", "a: 胡 @a 清一色 @b 七对 点 @c"),
    (
        "a: 胡 @a 123p46p789s22s333s 5p @b 七对 点 @c",
        "a: 改成 小李 碰碰胡",
        "a: 胡 @a 123p46p789s22s333s 5p @b 碰碰胡 点 @c",
    ),
    ("a: 胡 @a 卡五星 @b 七对 点 @c", "a: 改成 阿杰 七对 小李 清一色 点 老王", "a: 胡 @a 七对 @b 清一色 点 @c"),
]


def table(bot: tuple[Bot, ManualClock], chat_id: int, *lines: str) -> Console:
    console = Console(bot[0], bot[1], chat_id=chat_id)
    for line in (*SETUP, *lines):
        console.feed(line)
    return console


def balances(console: Console) -> list[str]:
    return console.feed("a: 余额")


def rows(ledger: Ledger) -> dict[str, int]:
    with ledger.engine.connect() as connection:
        return {
            name: connection.execute(sa.text(f"SELECT count(*) FROM {name}")).scalar_one()
            for name in ("flows", "operations", "hands", "hand_events", "transfers")
        }


@pytest.mark.parametrize(("recorded", "correction", "same_as"), CORRECTIONS)
def test_a_confirmed_correction_books_what_its_line_books(
    bot: tuple[Bot, ManualClock], recorded: str, correction: str, same_as: str
) -> None:
    corrected = table(bot, -1001, recorded, correction)
    asked = corrected.feed(f"{correction.split(':')[0]}: !press 改成这样")
    assert any("已改正" in line for line in asked), asked
    fresh = table(bot, -1002, same_as)
    assert balances(corrected) == balances(fresh)
    assert balances(corrected) != balances(table(bot, -1003, recorded))


@pytest.mark.parametrize(
    "line",
    [
        "改成 胡 blah",
        "改成 胡 清一涩 自摸",
        "改成 胡",
        "改成 胡 清一色",
        "改成 亮倒",
        "改成 暗杠 3s",
        "改成 胡 清一色 点 @b",
    ],
)
def test_trying_a_line_that_cannot_take_the_records_place_writes_nothing(
    bot: tuple[Bot, ManualClock], line: str
) -> None:
    console = table(bot, -1001, "b: 胡 清一色 自摸")
    before = rows(bot[0].service)
    replies = console.feed(f"b: {line}")
    assert len(replies) == 1 and "[按钮]" not in replies[0], replies  # a refusal or why not: never a question
    assert rows(bot[0].service) == before


def test_only_the_recorder_or_an_admin_is_asked(bot: tuple[Bot, ManualClock]) -> None:
    console = table(bot, -1001, "b: 胡 清一色 自摸")
    told = console.feed("c: 改成 胡 七对 自摸")
    assert "小李 记的" in told[0] and "[按钮]" not in "".join(told)
    assert any("[按钮] 改成这样 | 不改" in line for line in console.feed("a: 改成 @b 胡 七对 自摸"))


@pytest.mark.parametrize(
    ("line", "becomes"),
    [
        ("错了 是七对", "小李 胡 老王 点的炮 七对"),
        ("不对，应该是碰碰胡", "小李 胡 老王 点的炮 碰碰胡"),
        ("记错了 是七对", "小李 胡 老王 点的炮 七对"),
        ("搞错了 胡 七对 自摸", "小李 自摸 七对"),
        # said twice, as people do
        ("不对不对 是七对", "小李 胡 老王 点的炮 七对"),
        ("不对不对，应该是碰碰胡", "小李 胡 老王 点的炮 碰碰胡"),
        ("搞错了搞错了 胡 七对 自摸", "小李 自摸 七对"),
        ("记错了记错了 是七对", "小李 胡 老王 点的炮 七对"),
        ("错了错了 是自摸", "小李 自摸 清一色"),
    ],
)
def test_what_players_say_when_a_record_is_wrong_asks_the_correction(
    bot: tuple[Bot, ManualClock], line: str, becomes: str
) -> None:
    console = table(bot, -1001, "b: 胡 清一色 点 @c")
    asked = console.feed(f"b: {line}")
    assert asked[0].endswith(f"改成「{becomes}」？改了按新的重算这一局。") and "改成这样" in asked[1], asked


@pytest.mark.parametrize(
    "line",
    [
        "错了错了",
        "不对不对",
        "不对劲",
        "记错了，不好意思",
        "不对 是xx",
        "不对 是清一色",
        "c: 错了 是七对",
        "错了 是七对吗",
    ],
)
def test_the_same_words_as_chat_get_no_answer(bot: tuple[Bot, ManualClock], line: str) -> None:
    console = table(bot, -1001, "b: 胡 清一色 点 @c")
    before = rows(bot[0].service)
    assert console.feed(line if line.startswith("c: ") else f"b: {line}") == []
    assert rows(bot[0].service) == before


def test_a_correction_that_moves_the_hand_to_someone_else_says_so(bot: tuple[Bot, ManualClock]) -> None:
    """A line the typer says is theirs (`我`) moves someone else's win to them, and the question warns before
    anything changes; a bare 胡 line naming no winner keeps the recorded one (not the typer's: they did not win)."""
    console = table(bot, -1001, "b: 胡 @c 清一色 点 @a")
    asked = console.feed("b: 改成 我 清一色 点 @a")
    assert (
        asked[0].endswith("改成「小李 胡 阿杰 点的炮 清一色」？改了按新的重算这一局。")
        and asked[1] == "bot: 注意：老王 换成了 小李。"
    )
    bare = console.feed("b: 改成 胡 碰碰胡 点 @a")
    assert bare[0].endswith("改成「老王 胡 阿杰 点的炮 碰碰胡」？改了按新的重算这一局。")
    assert "注意" not in "".join(bare)
    kept = console.feed("b: 改成 七对")  # patterns alone keep the winner: no warning
    assert kept[0].endswith("改成「老王 胡 阿杰 点的炮 七对」？改了按新的重算这一局。") and "注意" not in "".join(kept)


@pytest.mark.parametrize("line", ["改成 七对", "改成 老王 七对", "改一下，是七对"])
def test_patterns_naming_no_winner_of_a_double_win_ask_whose(bot: tuple[Bot, ManualClock], line: str) -> None:
    """After a 一炮双响, patterns alone (or after its discarder's name) could be either winner's: asked whose, with
    the lines to send, nothing changed."""
    console = table(bot, -1001, "a: 胡 @a 卡五星 @b 清一色 点 @c")
    before = rows(bot[0].service)
    told = console.feed(f"a: {line}")
    assert told == [
        "bot: 第1局是一炮双响（阿杰 胡 老王 点的炮 卡五星；小李 胡 老王 点的炮 清一色）：改谁的？写上那个人，例如："
        "改成 阿杰 七对（或 改成 小李 七对）"
    ]
    assert console.feed("a: 错了 是七对") == []  # said to each other: only a correction that reads is answered
    assert rows(bot[0].service) == before


def test_after_settling_a_correction_is_told_the_night_is_sealed(bot: tuple[Bot, ManualClock]) -> None:
    console = table(bot, -1001, "b: 胡 清一色 自摸", "a: 结算")
    before = rows(bot[0].service)
    assert console.feed("b: 改成 七对 自摸") == [
        "bot: 现在没有开着的牌桌：这一晚已经结算，记录不能再改。要改的话请管理员先发 撤销结算。"
    ]
    assert console.feed("b: 错了 是七对") == []  # said to each other: no answer
    assert rows(bot[0].service) == before


def test_patterns_after_a_kong_say_what_the_latest_record_is(bot: tuple[Bot, ManualClock]) -> None:
    console = table(bot, -1001, "b: 胡 清一色 自摸", "!clock +3m", "c: 暗杠 3s")
    before = rows(bot[0].service)
    told = console.feed("b: 改成 七对")
    assert len(told) == 1 and "第2局的「老王 暗杠 三条」，不是胡牌" in told[0] and "编辑原来那条消息" in told[0]
    assert console.feed("b: 错了 是七对") == [] and console.feed("b: 改天再打") == []
    assert rows(bot[0].service) == before


@pytest.mark.parametrize(
    ("held_by", "buttons"),
    [("b: 胡 七对 自摸", ()), ("b: 胡", ("小李", "自摸", "七对", "预览 ▶", "✅ 确认"))],
    ids=["typed line", "button flow"],
)
def test_it_happened_again_expires_once_the_record_it_repeats_is_corrected(
    bot: tuple[Bot, ManualClock], held_by: str, buttons: tuple[str, ...]
) -> None:
    """「确实又一次」 means "again after that one": corrected meanwhile, the held-back record books nothing, whether
    it was a typed line or a 胡 button flow's confirmation."""
    console = table(bot, -1001, "b: 胡 七对 自摸")
    held = console.feed(held_by)
    for button in buttons:
        held = console.feed(f"b: !press {button}")
    assert any("确实又一次" in line for line in held), held
    console.feed("b: 改成 清一色")
    console.feed("b: !press 改成这样")
    before = rows(bot[0].service)
    pressed = console.feed("b: !press 确实又一次")
    assert any("它重复的那条记录已经变了" in line for line in pressed), pressed
    assert rows(bot[0].service)["hands"] == before["hands"] and rows(bot[0].service)["transfers"] == before["transfers"]


def test_ones_own_win_after_someone_elses_kong_is_pointed_to_its_message(bot: tuple[Bot, ManualClock]) -> None:
    """Play-test: 小李's `改成 …` after 阿杰 had recorded a kong of the next hand was sent to 阿杰 (「请 TA 发…」);
    her own win is what she means, and only an edit of its message reaches it now."""
    console = table(bot, -1010, "!clock +3m", "b: 胡 清一色 自摸", "!clock +1m", "c: 暗杠 3s")
    booked = balances(console)
    assert console.feed("b: 改成 七对 点 @c") == [
        "bot: 没有改：最后一条（第2局 老王 暗杠 三条）是 老王 记的，「改」只改最后一条。"
        "你记的是第1局（小李 自摸 清一色）：要改它，在 Telegram 里编辑你记第1局的那条消息，改成对的写法。"
    ]
    assert balances(console) == booked
