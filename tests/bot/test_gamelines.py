"""How players actually type 碰胡 and 够级 lines, as a play-tester typed them through `paiju console`: 起手 before
扫/提蛇 (`起手扫`, `起手 扫`), a record said done or in the first person (`过扫了`, `我扫了`, `我碰了 大鹏的`), someone
else's told with their plain name first and the discarder after it (`老王 碰 大鹏 点的`, `老王碰了 大鹏点的`), a tile
from the wall said `摸的`; 够级 places said with 游 (`头游大刘 …`, `我头游`); a void round's reply. Each was silent
(or refused) while its plain form booked: each now books exactly what the plain form books, with the same reply."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot import vocabulary
from bot.core import load_plugins, registry
from bot.grammar import split_command
from tests.bot.test_player_first import Table, same_as, stays_chat

#: the play-tester's 碰胡 table, seated as `开桌 @lw @xl @dp 庄 @a4` (老王, 小李, 小张 and the dealer 阿杰)
PENGHU = ("a: 设置 游戏 碰胡", "a: 开桌 @c @b @d 庄 @a")
GOUJI = ("!join e 阿五", "!join f 阿六", "a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f")


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 起手扫", "c: 扫 起手"),
        ("c: 我起手扫", "c: 扫 起手"),
        ("c: 起手 扫", "c: 扫 起手"),
        ("c: 起手扫了", "c: 扫 起手"),
        ("c: 起手提蛇", "c: 提蛇 起手"),
        ("c: 我起手提蛇了", "c: 提蛇 起手"),
        ("c: 起手 提蛇", "c: 提蛇 起手"),
        ("c: 我扫了", "c: 扫了"),
        ("c: 我扫", "c: 扫"),
        ("c: 过扫了", "c: 过扫"),
        ("c: 我过扫了", "c: 过扫"),
        ("c: 提蛇了", "c: 提蛇"),
        ("c: 我提蛇", "c: 提蛇"),
        ("c: 我碰了 小张的", "c: 碰 小张的"),
        ("c: 我碰 小张 点的", "c: 碰 小张的"),
        ("c: 我碰了 摸的", "c: 碰 摸"),
        ("c: 碰了 摸的", "c: 碰 摸"),
        ("c: 碰 翻出来的", "c: 碰 摸"),
        ("c: 跑起了 点 小张", "c: 跑起 点 小张"),
        ("b: 老王 碰 小张 点的", "b: @c 碰 小张点的"),
        ("b: 老王碰了 小张点的", "b: @c 碰 小张点的"),
        ("b: 碰 老王 小张 点的", "b: @c 碰 小张点的"),
        ("b: 老王起手扫", "b: @c 扫 起手"),
        ("b: @c 起手扫", "b: @c 扫 起手"),
        ("b: 老王 过扫了", "b: @c 过扫"),
        ("c: 我胡了 小张 点的", "c: 胡 点 小张"),
    ],
)
def test_a_natural_penghu_line_books_as_its_plain_form(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, PENGHU, line, plain)


def test_the_natural_lines_were_booked_and_answered(sqlite_url: str) -> None:
    """Not merely alike: the plain forms book (a pair of silences would pass `same_as` too)."""
    table = Table(sqlite_url, *PENGHU)
    try:
        assert table.say("c: 起手扫")[0] == "bot: 第1局 记下：老王 扫（起手）"
        table.clock.advance(timedelta(minutes=3))
        assert table.say("b: 老王 碰 小张 点的")[0] == "bot: 第1局 记下：老王 碰，点 小张（一人出）"
        events, _, balances = table.booked()
        assert [e["type"] for e in events] == ["sao", "peng"]
        assert balances["老王"] == 900  # 2 × 3 for the 扫, 3 for the 碰 (底金 1元)
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("e: 老王 碰 小张 点的", "e: @c 碰 小张点的"),  # not seated, not an admin: neither records
        ("e: 老王碰了 小张点的", "e: @c 碰 小张点的"),
        ("e: 老王起手扫", "e: @c 扫 起手"),
    ],
)
def test_a_name_first_line_follows_who_may_record_as_a_mention_first_one(
    sqlite_url: str, line: str, plain: str
) -> None:
    setup = ("!join e 阿五", *PENGHU)
    same_as(sqlite_url, setup, line, plain)
    stays_chat(sqlite_url, setup, line)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("c: 我碰了 小张", "一次只记一个人"),  # whose 碰? never 小张's from 老王's own line
        ("c: 我胡了 @d", "一次只记一个人"),  # was recorded as 小张's win
        ("c: 我扫了 @b", "一次只记一个人"),
    ],
)
def test_a_first_person_line_naming_someone_else_as_its_player_is_refused(
    sqlite_url: str, line: str, said: str
) -> None:
    table = Table(sqlite_url, *PENGHU)
    try:
        before = table.booked()
        out = table.say(line)
        assert len(out) == 1 and said in out[0], out
        assert table.booked() == before
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    "line",
    [
        "b: @c 我碰了 小张的",  # whose? a first-person word after someone named
        "b: 老王 我扫了",
        "b: 起手 碰 点 小张",  # a 碰 is never at the deal
        "b: 起手好烂",
        "c: 起手 扫？",
    ],
)
def test_the_same_words_as_chat_stay_unanswered(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *PENGHU)
    try:
        before = table.booked()
        assert table.say(line) == [], line
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_at_a_kawuxing_table_penghu_s_first_person_words_are_chat(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a")
    try:
        before = table.booked()
        for line in ("b: 我碰了", "b: 我碰了 老王的", "b: 起手扫", "b: 老王碰了 阿杰的"):
            assert table.say(line) == [], line
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_every_spelling_of_a_penghu_word_reads_as_its_command_and_names_its_player_so() -> None:
    """Each word's done, 起手 and first-person spellings name its command, typed first, after 起手 apart, after a
    seat's name (apart or glued) — a first-person one never after a name."""
    load_plugins()
    seats = ["老王", "小张"]
    for key, base in vocabulary.PENGHU_WORDS.items():
        command = registry.lookup(base, "penghu")
        assert command is not None
        for word in vocabulary.PENGHU_COMMAND_WORDS[key]:
            assert split_command(f"{word} 小张的", registry, "penghu", seats) == (command, word, "小张的")
            assert (word in vocabulary.WORD_IMPLIES) == (vocabulary.PENGHU_DEAL_FIRST in word), word
            for named in (f"老王 {word} 小张的", f"老王{word} 小张的", f"@c {word} 小张的"):
                found = split_command(named, registry, "penghu", seats)
                if word in vocabulary.PENGHU_FIRST_PERSON_WORDS:  # `我碰了`, `I ponged`
                    assert found is None or found[0] is not command, named
                else:
                    assert found == (command, word, f"{named.split(word)[0].strip()} 小张的"), named
            if word.startswith(vocabulary.PENGHU_DEAL_FIRST):
                apart = word.replace(vocabulary.PENGHU_DEAL_FIRST, f"{vocabulary.PENGHU_DEAL_FIRST} ", 1)
                assert split_command(apart, registry, "penghu", seats) == (command, word, "")
            assert split_command(f"{word} 小张的", registry, "kawuxing", seats) is None  # 卡五星 has no 碰/扫


# ------------------------------------------------------------------------------------------------------ 够级


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("c: 头游阿杰 二游老王 三游阿五 四游小李 五游小张 末游阿六", "c: 名次 @a @c @e @b @d @f"),
        ("c: 名次 头游 阿杰 二游 老王 三游 阿五 四游 小李 五游 小张 六游 阿六", "c: 名次 @a @c @e @b @d @f"),
        ("c: 名次 二游老王 头游阿杰 三游阿五 四游小李 五游小张 末游阿六", "c: 名次 @a @c @e @b @d @f"),
    ],
)
def test_gouji_places_said_with_you_are_places(sqlite_url: str, line: str, plain: str) -> None:
    same_as(sqlite_url, GOUJI, line, plain)
    table = Table(sqlite_url, *GOUJI)
    try:
        assert table.say(line)[0] == "bot: 第1局 够级：头科 阿杰、二科 老王、三科 阿五、四科 小李、二落 小张、大落 阿六"
    finally:
        table.ledger.close()


@pytest.mark.parametrize(("line", "place"), [("c: 我头游", "头科"), ("c: 我是二游", "二科"), ("c: 五游 我", "二落")])
def test_ones_own_place_said_with_you_starts_the_buttons(sqlite_url: str, line: str, place: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        assert table.say(line)[:2] == ["bot: 记名次（第1局）：按出完的顺序点人", f"bot: 名次：{place} 老王（自己说的）"]
    finally:
        table.ledger.close()


def test_a_place_with_you_moved_by_a_geming_is_refused_as_a_ke_place_is(sqlite_url: str) -> None:
    same_as(sqlite_url, GOUJI, "c: 名次 四游阿杰 @b @c @d @e 革命 @f", "c: 名次 四科阿杰 @b @c @d @e 革命 @f")


def test_a_void_round_says_it_is_void_and_why(sqlite_url: str) -> None:
    table = Table(sqlite_url, *GOUJI)
    try:
        out = table.say("c: 名次 革命 @a @e")  # places beside two 革命 are refused (a void round has none)
        assert out[0] == "bot: 第1局 够级：作废，不计分（阿杰、阿五 革命：两人以上革命的局不算）", out
        assert not any(line.endswith("：-") for line in out)
        assert sum("革命" in line for line in out) == 1  # said once
        table.clock.advance(timedelta(minutes=3))
        shown = table.say("a: 历史 1")[1]
        assert shown.startswith("bot: 第1局 作废，不计分（阿杰、阿五 革命：两人以上革命的局不算） ｜ "), shown
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "plain"),
    [
        ("b: 老王 碰 小张 点的", "b: @c 碰 小张点的"),
        ("b: 老王碰了 小张点的", "b: @c 碰 小张点的"),
        ("c: 我碰了 小张的", "c: 碰 小张的"),
    ],
)
def test_a_natural_line_repeating_the_record_just_made_is_held_back_as_the_plain_one_is(
    sqlite_url: str, line: str, plain: str
) -> None:
    """The double-entry check sees the record, however it was worded: told again, held back alike."""
    same_as(sqlite_url, (*PENGHU, "c: 碰 点 小张"), line, plain)
    table = Table(sqlite_url, *PENGHU, "c: 碰 点 小张")
    try:
        before = table.booked()
        table.say(line)
        assert table.booked() == before
    finally:
        table.ledger.close()
