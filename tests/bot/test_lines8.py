"""Lines players typed that the bot ignored: laughter glued to a win (`七对自摸了哈哈`), the sender's own win told
with 我 before 这把 (`我这把自摸 清一色`), a kong's tile told by counting it (`暗杠三个八筒`), a correction the hand
rules out typed glued or as 应该是 (`改成七对`), a correction told by a seated player whose record it is not (`不是七对
是清一色`), and a typed 不同意 under a 退桌 question."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import vocabulary
from bot.core import load_plugins, registry
from bot.grammar import parse_kong, split_command
from tests.bot.test_leave_table import MEMBERS, money
from tests.bot.test_recording_fixes import Table

load_plugins()
SEATED = ("!join a 阿杰", "!join b 小李", "!join c 老王", "a: 开桌 @a @b @c 庄 @a", "!clock +3m")


@pytest.fixture
def table(sqlite_url: str) -> Iterator[Table]:
    opened = Table(sqlite_url)
    opened.say(*SEATED)
    yield opened
    opened.ledger.close()


def booked(table: Table, line: str) -> list[str]:
    """What `line` gets, without the money lines (the same for every form of one win)."""
    return [said for said in table.say(line) if "元（本晚" not in said]


SEVEN_PAIRS = ["bot: 第1局 记下：", "bot: 阿杰 自摸：七对×4 → ×4", "bot: 下一局：第2局，庄家 阿杰"]
ONE_SUIT = ["bot: 第1局 记下：", "bot: 阿杰 自摸：清一色×4 → ×4", "bot: 下一局：第2局，庄家 阿杰"]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("a: 七对自摸了哈哈", SEVEN_PAIRS),
        ("a: 七对自摸了哈哈！", SEVEN_PAIRS),
        ("a: 清一色自摸哈哈", ONE_SUIT),
        ("a: 清一色自摸呵呵呵", ONE_SUIT),
    ],
)
def test_laughter_glued_to_a_win_is_said_after_it(table: Table, line: str, reply: list[str]) -> None:
    assert booked(table, line) == reply


def test_a_self_draw_with_laughter_glued_is_asked_as_typed_apart(table: Table) -> None:
    asked = table.say("a: 自摸了哈哈哈")
    assert asked == table.say("!clock +1m", "a: 不是", "!clock +1m", "a: 自摸了 哈哈哈")[2:]
    assert asked[0].startswith("bot: 「自摸了」没写番型")


@pytest.mark.parametrize(("glued", "apart"), [("亮倒了哈哈", "亮倒了 哈哈"), ("亮倒哈哈哈", "亮倒 哈哈哈")])
def test_laughter_glued_to_a_declared_liangdao_declares_it(sqlite_url: str, glued: str, apart: str) -> None:
    """`亮倒了哈哈` was silent and the player believed he had declared (a later 杠上炮 against him paid ×4, not ×8 with
    包胡): said whole by its word, 亮倒 with laughter glued is as typed apart."""
    tables = [Table(sqlite_url.replace(".db", f"-{n}.db")) for n in range(2)]
    try:
        told = [
            table.say(*SEATED, f"a: {line}", "!clock +30s", "b: 直杠 9p 点 @c", "a: 胡 卡五星 杠上炮 点 @b")
            for table, line in zip(tables, (glued, apart), strict=True)
        ]
        assert told[0][-12:] == told[1][-12:] and tables[0].balances() == tables[1].balances()
        assert any("亮倒×2" in said for said in told[0])
    finally:
        for table in tables:
            table.ledger.close()


@pytest.mark.parametrize(
    "line", ["a: 胡啦哈哈", "a: 清一色自摸哈哈哈好爽", "a: 七对自摸了哈哈？", "a: 流局啦哈哈哈", "a: 荒庄哈哈"]
)
def test_laughter_glued_elsewhere_stays_chat(table: Table, line: str) -> None:
    assert table.say(line) == [] and table.hands() == 0


def test_laughter_glued_to_someone_elses_win_is_cheering(table: Table) -> None:
    """As `七对 自摸 哈哈` right after someone else's win: cheering it, not a new hand (`record.CHEERING`)."""
    table.say("b: 清一色 自摸", "!clock +30s")
    assert table.say("c: 七对自摸了哈哈") == [] and table.hands() == 1


RECORD_LINES = (
    "七对 自摸",
    "七对自摸了",
    "清一色自摸",
    "我自摸了 七对",
    "胡 七对 点 @b",
    "暗杠 3s",
    "亮倒 @b",
    "荒庄 @b",
)


@given(
    st.sampled_from(RECORD_LINES),
    st.text(alphabet="哈呵嘿嘻嘎", min_size=2, max_size=6),
    st.sampled_from(["", "！", "~", "。。"]),
)
def test_laughter_glued_reads_as_laughter_typed_apart(line: str, laughter: str, end: str) -> None:
    """A record's line with laughter glued to its last word reads as the line with the laughter typed apart."""
    glued = split_command(line + laughter + end, registry, "kawuxing")
    assert glued is not None and glued == split_command(f"{line} {laughter}{end}", registry, "kawuxing")


def test_a_seat_named_with_laughter_is_still_that_seat(sqlite_url: str) -> None:
    """A guest may be called `小哈哈`: their name at the end of a line is no laughter."""
    guest = Table(sqlite_url)
    try:
        guest.say("!join a 阿杰", "!join b 小李", "a: 开桌 @a @b 小哈哈 庄 @a", "!clock +3m")
        assert "bot: 阿杰 胡 小哈哈 点的炮：七对×4 → ×4" in guest.say("a: 胡 七对 点 小哈哈")
    finally:
        guest.ledger.close()


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("a: 我这把自摸 清一色", ONE_SUIT),
        ("a: 我这把清一色自摸", ONE_SUIT),
        ("a: 我这把 清一色 自摸", ONE_SUIT),
        ("a: 这把我 清一色 自摸", ONE_SUIT),
        ("a: 这把我自摸了 七对", SEVEN_PAIRS),
        ("a: 我这局自摸了 七对", SEVEN_PAIRS),
    ],
)
def test_the_senders_own_win_told_of_this_hand(table: Table, line: str, reply: list[str]) -> None:
    assert booked(table, line) == reply


def test_this_hand_told_by_someone_else_first_is_their_own(table: Table) -> None:
    """`我这把 清一色 自摸` from 小李 books 小李's win, not the sender-less reading of someone else's."""
    assert booked(table, "b: 我这把 七对 自摸")[1] == "bot: 小李 自摸：七对×4 → ×4"


@pytest.mark.parametrize("line", ["a: 我这把输惨了", "a: 我这把 清一色 差一张", "a: 我这把 清一色 自摸吗"])
def test_other_lines_of_this_hand_stay_chat(table: Table, line: str) -> None:
    assert table.say(line) == [] and table.hands() == 0


@pytest.mark.parametrize(
    ("line", "kong"),
    [
        ("a: 暗杠三个八筒", "阿杰 暗杠 八筒"),
        ("a: 暗杠 四个八筒", "阿杰 暗杠 八筒"),
        ("a: 暗杠了四个红中", "阿杰 暗杠 中"),
        ("a: 暗杠 3个8p", "阿杰 暗杠 八筒"),
        ("a: 暗杠4个红中", "阿杰 暗杠 中"),
        ("a: 直杠 三个九筒 点 小李", "阿杰 直杠 九筒（点杠 小李）"),
    ],
)
def test_a_kongs_tile_told_by_counting_it(table: Table, line: str, kong: str) -> None:
    assert table.say(line)[0] == f"bot: 第1局 记下：{kong}"


def test_a_count_before_no_tile_is_no_tile(table: Table) -> None:
    assert table.say("a: 暗杠 四个")[0] == "bot: 没看懂「四个」，不算在内。是不是：暗杠？"


TILES = [*vocabulary.TILE_NICKNAMES, "八筒", "3s", "9万", "五条", "中"]


@given(st.sampled_from(vocabulary.KONG_TILE_COUNTS), st.sampled_from(TILES), st.sampled_from(["", " "]))
def test_a_kong_tile_counted_is_that_tile(count: str, tile: str, gap: str) -> None:
    """`暗杠三个八筒` is `暗杠 八筒`: the count before a kong's tile says nothing the tile does not."""

    def nobody(_name: str) -> None:
        return None

    assert parse_kong("暗杠", f"{gap}{count}{tile}", "a", nobody) == parse_kong("暗杠", tile, "a", nobody)
    found = split_command(f"暗杠{count}{tile}", registry, "kawuxing")
    assert found is not None and found[0].key == "gang" and parse_kong(found[1], found[2], "a", nobody).tile


KONG_RULES_OUT = "bot: 没有记录：阿杰 这局杠过（八筒），七对要门清：不能有杠"


@pytest.mark.parametrize(
    "line", ["a: 改成 七对", "a: 改成七对", "a: 应该是七对", "a: 错了 是七对", "a: 不是清一色 是七对"]
)
def test_a_correction_the_winners_kong_rules_out_is_refused_however_typed(table: Table, line: str) -> None:
    table.say("a: 暗杠 八筒", "!clock +1m", "a: 清一色 自摸", "!clock +1m")
    assert table.say(line) == [KONG_RULES_OUT]


NOT_YOURS = (
    "bot: 「改」不会改别人记的账：最后一条（第1局 阿杰 自摸 七对）是 阿杰 记的，请 TA 发「改成 …」或编辑原来那条消息；"
    "管理员也可以改（写明是谁：改成 @某人 …）。"
)


@pytest.mark.parametrize(
    "line", ["b: 改成 清一色", "b: 不是七对 是清一色", "b: 应该是清一色", "c: 是清一色 不是七对", "c: 应该是 清一色"]
)
def test_a_seated_player_correcting_someone_elses_record_is_told_whose_it_is(table: Table, line: str) -> None:
    table.say("a: 七对 自摸", "!clock +1m")
    before = table.balances()
    assert table.say(line) == [NOT_YOURS] and table.balances() == before


@pytest.mark.parametrize("line", ["b: 应该是七对", "b: 错了 是清一色", "b: 不是七对 是清一色吧", "b: 应该是 老王"])
def test_what_changes_nothing_or_does_not_read_stays_chat(table: Table, line: str) -> None:
    table.say("a: 七对 自摸", "!clock +1m")
    assert table.say(line) == []


def test_no_one_unseated_is_told(table: Table) -> None:
    table.say("!join d 小张", "a: 七对 自摸", "!clock +1m")
    assert table.say("d: 不是七对 是清一色") == []


@pytest.fixture
def leaving(sqlite_url: str) -> Iterator[Table]:
    """小红 opened for 小李 and 老王 and won twice; 小李 asks to leave."""
    opened = Table(sqlite_url)
    opened.say(*MEMBERS, "eve: 开桌 @eve @b @c 庄 @eve", "!clock +3m", "eve: 胡 清一色 自摸", "!clock +5m")
    opened.say("eve: 胡 清一色 自摸", "!clock +20s", "b: 退桌", "!clock +20s")
    yield opened
    opened.ledger.close()


KEPT = "bot: 没有作废：小李-成员 的退桌没有得到同意，这桌照常。"


@pytest.mark.parametrize("line", ["eve: 不同意", "c: 不行", "boss: 不同意"])
def test_a_typed_不同意_keeps_the_table_as_the_button_does(leaving: Table, line: str) -> None:
    before = money(leaving)
    assert leaving.say(line) == [KEPT, "bot: 好的，这桌不作废（上面那条已经改成结果）。"]
    assert leaving.say("!clock +10s", "eve: 同意") == [] and money(leaving) == before


@pytest.mark.parametrize("line", ["a: 不同意", "eve: 不同意 再打一把", "eve: 不行吗", "eve: disagree"])
def test_不同意_from_anyone_else_or_with_more_words_is_chat(leaving: Table, line: str) -> None:
    assert leaving.say(line) == []
    assert leaving.say("!clock +10s", "eve: 同意")[0].startswith("bot: 🚪 小李-成员 退桌")


def test_不同意_with_no_question_waiting_is_chat(table: Table) -> None:
    assert table.say("a: 不同意", "b: 不行") == []


def test_an_english_group_types_disagree(sqlite_url: str) -> None:
    english = Table(sqlite_url)
    try:
        english.say(*MEMBERS, "boss: 设置 语言 en", "eve: 开桌 @eve @b @c 庄 @eve", "!clock +3m", "eve: 胡 清一色 自摸")
        english.say("!clock +20s", "b: leave table", "!clock +20s")
        assert english.say("c: disagree") == [
            "bot: Not voided: 小李-成员's leaving was not agreed to; the table goes on.",
            "bot: OK, the table stays (the question above now says so). Your disagree answered the leave-table "
            "question; to dispute the record, send dispute.",
        ]
    finally:
        english.ledger.close()
