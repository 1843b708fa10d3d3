"""碰胡: a correction naming only what changed keeps the rest of the record.

A play-tester's dealer recorded `胡 中庄 点 @丁` (+27), then `改成 自摸`: the question offered a plain self-drawn
win (5 each, +15), dropping the 中庄 (9 each, +27). `改成 自摸`, `改成 点 @丙`, `改成 中庄`, `改成 摸`, `改成 起手` —
and what players say, `错了 是自摸`, `错了 是阿四点的`, which got no reply at all — now ask to record the latest
碰胡 record with that changed and its player, kind, way, 起手, 中庄 and 跑起 kept (`bot.games.penghu.kept_reading`);
a line with the record's word (`改成 胡 自摸`) is a whole record, read as typed. Through the console, on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_penghu_retold import SEATS
from tests.bot.test_recording_fixes import CHAT, Table

#: two 碰 first, so that a 跑起胡 of 阿四 (b) reads and every seat's money moves
BEFORE = ("a: 碰 点 @d", "b: 碰 点 @c", "!clock +20s")


@pytest.fixture
def tables(db_url: str) -> Iterator[tuple[Table, Table]]:
    corrected, typed = Table(db_url), Table(db_url)
    typed.console.chat_id = CHAT + 1  # two groups over one database
    for table in (corrected, typed):
        table.say(*SEATS, *BEFORE)
    yield corrected, typed
    corrected.ledger.close()
    typed.ledger.close()


def _booked(table: Table, chat: int) -> tuple[object, ...]:
    """The hands finished, the open hand's events, each seat's balance."""
    current = table.ledger.current_table(chat)
    events = table.ledger.hand_state(current.id).events if current is not None else ()
    finished = [record.events for record in table.ledger.history(chat, 50)]
    lines = table.ledger.balances(chat).lines
    return finished, events, {line.name: line.amount for line in lines if line.kind != "pot"}


@pytest.mark.parametrize(
    ("record", "correction", "plain"),
    [
        # the play-tester's: the dealer's 中庄 kept through the way
        ("a: 胡 中庄 点 @d", "a: 改成 自摸", "a: 中庄 自摸"),
        ("a: 中庄 自摸", "a: 改成 点 @c", "a: 胡 中庄 点 @c"),
        ("a: 中庄 自摸", "a: 改成 老表点的", "a: 胡 中庄 点 @c"),
        ("a: 胡 点 @d", "a: 改成 中庄", "a: 胡 中庄 点 @d"),
        # 跑起胡: kept with another discarder; a card from the wall runs up no one's discard
        ("b: 胡 点 @c 跑起", "b: 改成 点 @d", "b: 胡 点 @d 跑起"),
        ("b: 胡 点 @c 跑起", "b: 改成 自摸", "b: 胡 自摸"),
        # what players say: 错了 …, 应该是 …
        ("a: 胡 点 @d", "a: 错了 是自摸", "a: 胡 自摸"),
        ("a: 胡 中庄 点 @d", "a: 记错了 是自摸", "a: 中庄 自摸"),
        ("b: 碰 点 @c", "b: 错了 是小刚点的", "b: 碰 点 @d"),
        ("b: 碰 点 @c", "b: 不对 应该是摸的", "b: 碰 摸"),
        ("b: 碰 点 @c", "b: 改成 摸", "b: 碰 摸"),
        # an admin's correction of someone else's record keeps that player
        ("boss: @b 胡 点 @c", "boss: 改成 自摸", "boss: @b 胡 自摸"),
    ],
)
def test_a_correction_of_what_changed_keeps_the_rest(
    tables: tuple[Table, Table], record: str, correction: str, plain: str
) -> None:
    corrected, typed = tables
    corrected.say(record, "!clock +10s")
    told = typed.say(plain)[0].removeprefix("bot: 第1局 ").removeprefix("记下：")
    asked = corrected.say(correction)
    assert asked[0].endswith(f"改成「{told}」？改了按新的重算这一局。"), asked
    who = correction.split(":")[0]
    assert corrected.say(f"{who}: !press 改成这样")[1].endswith(f"已改正：{told}")
    assert _booked(corrected, CHAT) == _booked(typed, CHAT + 1)


def test_the_play_testers_zhongzhuang_money(tables: tuple[Table, Table]) -> None:
    """中庄 自摸 at 1 元 a point: 9 each, the dealer +27 (+3 for the 碰 before)."""
    corrected, _ = tables
    corrected.say("a: 胡 中庄 点 @d", "!clock +10s", "a: 改成 自摸", "a: !press 改成这样")
    expected = {"红姐": 3000, "阿四": 300 - 900, "老表": -300 - 900, "小刚": -300 - 900, "boss": 0}
    assert corrected.balances() == expected


def test_a_deal_time_mark_said_alone_before_play(db_url: str) -> None:
    """`改成 起手` after a 提蛇 told before anyone played: the deal-time one, as `提蛇 起手` records it."""
    table = Table(db_url)
    try:
        table.say(*SEATS, "c: 提蛇", "!clock +10s")
        assert table.say("c: 改成 起手")[0] == (
            "bot: 把第1局的「老表 提蛇」（你 10秒前记的）改成「老表 提蛇（起手）」？改了按新的重算这一局。"
        )
    finally:
        table.ledger.close()


def test_a_line_with_the_records_word_is_a_whole_record(tables: tuple[Table, Table]) -> None:
    """`改成 胡 自摸` says the whole win: its 中庄 goes (as `改成 胡 七对 自摸` replaces a 卡五星 win whole)."""
    corrected, _ = tables
    corrected.say("a: 中庄 自摸", "!clock +10s")
    assert corrected.say("a: 改成 胡 自摸")[0].endswith("改成「红姐 胡（每人出）」？改了按新的重算这一局。")


@pytest.mark.parametrize(
    ("record", "correction", "why"),
    [
        ("b: 扫", "b: 改成 摸", "「摸」用不到扫上。"),
        ("b: 碰 点 @c", "b: 改成 中庄", "「中庄」用不到碰上。"),
        ("a: 中庄 自摸", "a: 改成 跑起", "跑起胡是跑起别人打的牌：写 胡 点 @丙 跑起。"),
    ],
)
def test_what_the_record_cannot_carry_is_refused_by_name(
    tables: tuple[Table, Table], record: str, correction: str, why: str
) -> None:
    corrected, _ = tables
    corrected.say(record, "!clock +10s")
    booked = _booked(corrected, CHAT)
    assert corrected.say(correction) == [f"bot: {why}"]
    assert _booked(corrected, CHAT) == booked


def test_someone_elses_correction_is_told_whose_record_it_is(tables: tuple[Table, Table]) -> None:
    corrected, _ = tables
    corrected.say("b: 碰 点 @c", "!clock +10s")
    assert corrected.say("c: 改成 点 @d")[0].startswith("bot: 「改」不会改别人记的账：最后一条（第1局 阿四 碰，点 老表")
    # the discarder saying it was someone else's tile is told whose record it is, as 改成 点 @d is
    assert corrected.say("!clock +10s", "c: 错了 是小刚点的")[0].startswith("bot: 「改」不会改别人记的账：")
