"""A refused 开桌 changes nothing: a guest it named is created only with the table (in the ledger's transaction),
so no refusal — the bot's checks or the ledger's — leaves a guest, a table or a night behind. Runs on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.console import CONSOLE_CHAT_ID, Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

Chat = Callable[[str], list[str]]


@pytest.fixture
def group(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Chat, Ledger]]:
    """A console over the test's database (a script line in, the bot's lines out) and the ledger under it, with
    甲, 乙, 丙 who have spoken and an admin 甲."""
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path))
    clock = ManualClock()
    ledger = Ledger.open(db_url, upgrade=False, clock=clock.now)
    console = Console(Bot(ledger, clock=clock), clock)

    def feed(line: str) -> list[str]:
        return [out.removeprefix("bot: ") for out in console.feed(line)]

    for line in ("!join jia 甲", "!join yi 乙", "!join bing 丙", "!admin jia", "jia: 余额", "yi: 余额", "bing: 余额"):
        feed(line)
    yield feed, ledger
    ledger.close()


def books(ledger: Ledger) -> tuple[Any, ...]:
    """What a 开桌 could change: the group's accounts (guests among them), its open table and night."""
    members = sorted((m.id, m.kind, m.name) for m in ledger.members(CONSOLE_CHAT_ID))
    return members, ledger.current_table(CONSOLE_CHAT_ID), ledger.current_night(CONSOLE_CHAT_ID)


REFUSED = [
    ("jia: 开桌 老表 @yi @yi", "两次"),  # someone named twice
    ("jia: 开桌 老表 表哥 红包池", "红包池"),  # a name no guest may take
    ("jia: 开桌 老表", "3"),  # too few: the sender and one guest
    ("jia: 开桌 老表 @yi @bing 庄 @jia", "庄家 甲 不在这桌上：卡五星一桌 3 个人，已经写满了"),  # not seated: full
    ("jia: 开桌 老表 老表", "两次"),  # the same new guest twice
    ("jia: 开桌 @yi @bing 底金2", "「底金2」不是客人的名字"),  # a stake where a guest's name goes
    ("jia: 开桌 @yi @bing 底金 2", "「底金」不是客人的名字"),  # the same, spaced: not "one too many"
    ("jia: 开桌 @yi 2块", "「2块」不是客人的名字"),  # an amount
    ("jia: 开桌 @yi 两块", "「两块」不是客人的名字"),  # an amount in Chinese numerals
    ("jia: 开桌 @yi @bing 三缺一", "「三缺一」不是客人的名字"),  # what people say while gathering
    ("jia: 开桌 @yi @bing 快来啊", "「快来啊」不是客人的名字"),
    ("jia: 开桌 @yi 走起 @bing", "「走起」不是客人的名字"),  # said after the seats it starts the table: not here
    ("jia: 开桌 @jia @yi @bing 走起 @ding", "「走起」不是客人的名字"),  # someone named after it: no talk
    ("jia: 开桌 @yi @bing 走起 老表", "「走起」不是客人的名字"),  # the seats not all named: 老表 may be one
    ("jia: 开桌 @yi @bing 坐庄甲", "「坐庄甲」不是客人的名字"),  # a dealer word inside a guest's name
    ("jia: 开桌 @yi 阿 杰", "「阿 杰」是一个人吗？名字请连着写「阿杰」"),  # one name split by a slip: two guests
    ("jia: 开桌 @yi @bing 老表坐庄", "庄家 老表 不在这桌上"),  # the dealer said by a name nobody seated has
]


@pytest.mark.parametrize(("line", "says"), REFUSED, ids=[line for line, _ in REFUSED])
def test_a_refused_open_creates_no_guest(group: tuple[Chat, Ledger], line: str, says: str) -> None:
    chat, ledger = group
    before = books(ledger)
    refused = chat(line)
    assert len(refused) == 1 and says in refused[0] and "开桌了" not in refused[0]
    assert books(ledger) == before


@pytest.mark.parametrize(
    "line",
    [
        "jia: 来来来 开桌 @jia @yi @bing 走起 今晚通宵",
        "jia: 开桌 @jia @yi @bing 庄 @yi 开始吧 今晚不睡了 哈哈",
        "jia: 开桌 @yi @bing 我坐庄 走起 今晚通宵",
    ],
)
def test_talk_after_a_start_word_once_every_seat_is_named_opens_the_table(
    group: tuple[Chat, Ledger], line: str
) -> None:
    """`… 走起` after the seats opened the table, but `… 走起 今晚通宵` was refused over 「走起」: once the words before
    it name every seat, a start word ends the 开桌 and what follows (naming nobody) is talk."""
    chat, ledger = group
    opened = chat(line)
    assert "座位：甲、乙、丙" in opened, opened
    assert sorted(m.name for m in ledger.members(CONSOLE_CHAT_ID) if m.kind == "guest") == []


def test_a_refusal_of_the_ledger_creates_no_guest_either(group: tuple[Chat, Ledger]) -> None:
    """The table's hand is under way: the ledger refuses to end it, and the guests named are not created."""
    chat, ledger = group
    assert "开桌了" in chat("jia: 开桌 @jia @yi @bing 庄 @jia")[0]
    chat("yi: 暗杠 7z")
    before = books(ledger)
    refused = chat("jia: 开桌 老表 表哥 @yi")
    assert len(refused) == 1 and "还没打完" in refused[0]
    assert books(ledger) == before


def test_an_open_while_a_hand_is_under_way_says_no_table_was_opened(group: tuple[Chat, Ledger]) -> None:
    """开桌 refused by the ledger (the running table's hand has a kong) once said 「没有记录：…」, as a record's refusal
    does: it says no new table was opened and what the hand holds (as 结算 does), in English too; the table
    stays."""
    chat, ledger = group
    chat("jia: 开桌 @jia @yi @bing 庄 @jia")
    chat("yi: 暗杠 7z")
    table = ledger.current_table(CONSOLE_CHAT_ID)
    refused = (
        "没有开新桌：第1局已经记了 乙 暗杠 中，还没打完。这一局有人胡就记下胡牌，没人胡就发「荒庄」结束它"
        "（记了的照算），记错了就发「撤销」去掉；然后再开桌。"
    )
    assert chat("jia: 开桌 @jia @yi @bing") == [refused]
    assert chat("jia: 来来来 开桌 @yi @bing 走起") == [refused]
    chat("jia: 设置 语言 en")
    assert chat("jia: 开桌 @jia @yi @bing") == [
        "No new table opened: hand 1 has 乙 concealed kong (暗杠) red dragon recorded and has not ended. Record its "
        "win, or if nobody won send draw to end it (what is recorded stands); if it was a mistake, send undo; then "
        "open a new table."
    ]
    assert ledger.current_table(CONSOLE_CHAT_ID) == table


def test_an_open_seats_new_guests_once_and_finds_them_again(group: tuple[Chat, Ledger]) -> None:
    chat, ledger = group
    opened = chat("jia: 开桌 老表 @yi 表哥 庄 老表")
    assert "座位：老表、乙、表哥" in opened and "第1局，庄家 老表（指定）" in opened
    guests = {m.id: m.name for m in ledger.members(CONSOLE_CHAT_ID) if m.kind == "guest"}
    assert sorted(guests.values()) == sorted(["表哥", "老表"])
    chat("jia: 荒庄")
    assert "座位：乙、老表、丙" in chat("jia: 开桌 @yi 老表 @bing 庄 老表")
    assert {m.id: m.name for m in ledger.members(CONSOLE_CHAT_ID) if m.kind == "guest"} == guests


def test_a_name_that_starts_with_a_digit_is_still_a_guest(group: tuple[Chat, Ledger]) -> None:
    """Only a whole amount or a setting is refused as a guest's name (`2块`, `底金2`): `8哥`, `一二三` are names."""
    chat, _ledger = group
    assert "座位：甲、乙、8哥" in chat("jia: 开桌 @yi 8哥")
    chat("jia: 荒庄")
    assert "座位：甲、乙、一二三" in chat("jia: 开桌 @yi 一二三")


def test_a_refused_open_leaves_the_running_table(group: tuple[Chat, Ledger]) -> None:
    """`开桌 @乙 @丙 三缺一` at an open table: refused, so the table being played is not replaced by one seating a
    guest named by a sentence."""
    chat, ledger = group
    chat("jia: 开桌 @jia @yi @bing 庄 @jia")
    before = books(ledger)
    for line in ("jia: 开桌 @yi @bing 三缺一", "jia: 开桌 @yi @bing 快来", "jia: 开桌 @yi @bing 坐庄甲"):
        assert "不是客人的名字" in chat(line)[0]
    assert books(ledger) == before


DEALER_SAID = [
    ("jia: 开桌 @yi @bing 甲坐庄", "座位：甲、乙、丙", "庄家 甲（指定）"),
    ("jia: 开桌 @yi @bing 我坐庄", "座位：甲、乙、丙", "庄家 甲（指定）"),
    ("jia: 开桌 @yi @bing 我庄", "座位：甲、乙、丙", "庄家 甲（指定）"),
    ("jia: 开桌 @yi @bing 甲庄", "座位：甲、乙、丙", "庄家 甲（指定）"),
    ("jia: 开桌 @yi @bing @jia坐庄", "座位：甲、乙、丙", "庄家 甲（指定）"),
    ("jia: 开桌 @jia @yi @bing 丙坐庄", "座位：甲、乙、丙", "庄家 丙（指定）"),
    ("jia: 开桌 @jia @yi @bing 丙 当庄", "座位：甲、乙、丙", "庄家 丙（指定）"),
    ("jia: 开桌 @yi @bing 乙做庄", "座位：甲、乙、丙", "庄家 乙（指定）"),
    ("yi: 开桌 @yi @bing @jia坐庄", "座位：乙、丙、甲", "庄家 甲（指定）"),  # the dealer named sits down
    ("yi: 开桌 @bing 庄 @jia", "座位：乙、丙、甲", "庄家 甲（指定）"),
    ("jia: 开桌 @yi @bing 加我", "座位：乙、丙、甲", "（抽庄）"),  # the sender asks to sit
    ("jia: 开桌 @yi @bing 算我一个", "座位：乙、丙、甲", "（抽庄）"),
    ("jia: 开桌 @yi @bing 我也来", "座位：乙、丙、甲", "（抽庄）"),
]


@pytest.mark.parametrize(("line", "seats", "dealer"), DEALER_SAID, ids=[line for line, _, _ in DEALER_SAID])
def test_the_dealer_said_after_the_player_seats_nobody_new(
    group: tuple[Chat, Ledger], line: str, seats: str, dealer: str
) -> None:
    """`阿杰坐庄`, `我庄`, `@ajie坐庄`: that player deals (as `庄 @ajie`), never a guest named 「阿杰坐庄」; `加我`
    seats the sender."""
    chat, ledger = group
    opened = chat(line)
    assert seats in opened and any(dealer in out for out in opened), opened
    assert not [m for m in ledger.members(CONSOLE_CHAT_ID) if m.kind == "guest"]


@pytest.mark.parametrize("guest", ["小庄", "老庄"])
def test_a_guest_whose_name_ends_in_zhuang_is_seated(group: tuple[Chat, Ledger], guest: str) -> None:
    """庄 is a surname too: glued after a name that is nobody's in the group it is a guest's name, not the dealer."""
    chat, ledger = group
    opened = chat(f"jia: 开桌 @yi @bing {guest}")
    assert f"座位：乙、丙、{guest}" in opened, opened
    assert [m.display_name for m in ledger.members(CONSOLE_CHAT_ID) if m.kind == "guest"] == [guest]
