"""The commands whose only typed word was Chinese have an English one, which an English group's help shows and its
replies suggest (a play-tester found `help all` naming 名片, 关联, 付台费, 收款码, 漂/坎/买马/听 with no English
to type): `nickname`, `link`, `pay table fee`, `pay code`, `remove pay code`, `piao`, `kan`, `qia … ba …`,
`buy horse`, `ready hand`; the Chinese words keep working. Settings take English values (`config cut 10% cap 5`,
`config minggang added`) and an English group is told them in English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core import load_plugins, registry
from bot.grammar import split_command
from tests.bot.test_player_first import Table

#: command key -> the English a player types for it, as its English help shows it
ENGLISH_FORMS = {
    "alias": "nickname",
    "link": "link",
    "payfees": "pay table fee",
    "unpayfees": "undo pay table fee",
    "qrcode": "pay code",
    "qrremove": "remove pay code",
    "piao": "piao",
    "kan": "kan",
    "qiaba": "qia",
    "ma": "buy horse",
    "ready": "ready hand",
}
ENGLISH = ("a: 设置 语言 en",)


@pytest.fixture
def english(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url, *ENGLISH)
    yield table
    table.ledger.close()


@pytest.mark.parametrize("key", sorted(ENGLISH_FORMS))
def test_the_english_help_shows_a_form_that_is_typed(key: str) -> None:
    load_plugins()
    command = registry.commands[key]
    said = ENGLISH_FORMS[key]
    assert said in command.help("en")
    found = split_command(f"{said} @b 2", registry, "kawuxing")
    assert found is not None and found[0] is command and found[1] == said


def test_help_all_in_english_names_no_chinese_word_alone_for_them(english: Table) -> None:
    """Each of those commands' English help line names the Chinese word only in parentheses, beside its English."""
    shown = [line for line in english.say("a: help all") if line.split(" ", 2)[1:2] != []]
    for key in ENGLISH_FORMS:
        [line] = [s for s in shown if s.startswith(f"bot: /{registry.commands[key].names[0]} — ")]
        for chinese in ("名片 ", "关联 ", "付台费 @", "收款码 @", "漂 2", "坎 2", "买马 7s", "听 @", "恰1"):
            assert chinese not in line, line


@pytest.mark.parametrize(
    ("typed", "chinese"),
    [
        ("nickname Liu", "名片 Liu"),
        ("nickname", "名片"),
        ("pay table fee @b", "付台费 @b"),
        ("pay code", "收款码"),
        ("remove pay code", "删除收款码"),
        ("undo pay table fee", "撤销付台费"),
        ("link 老表 @b", "关联 老表 @b"),
    ],
)
def test_an_english_form_does_what_the_chinese_word_does(sqlite_url: str, typed: str, chinese: str) -> None:
    told, plain = Table(sqlite_url, *ENGLISH), Table(sqlite_url, *ENGLISH)
    try:
        assert told.say(f"a: {typed}") == plain.say(f"a: {chinese}") != []
        assert told.booked() == plain.booked()
    finally:
        told.ledger.close()
        plain.ledger.close()


def test_a_pay_code_photo_registers_it(english: Table) -> None:
    [saved] = english.say("b: [photo AgACAgQ1] pay code wechat")
    assert saved.startswith("bot: 小李's WeChat payment code is registered.") and "remove pay code" in saved
    assert english.say("b: remove pay code") == ["bot: Removed 小李's payment code (1)"]


def test_the_regional_answers_typed_as_an_english_question_suggests(english: Table) -> None:
    english.say("a: config maima self_draw", "a: config chadajiao yes", "a: open @a @b @c dealer @a", "!clock +10s")
    asked = english.say("c: win one suit self-draw")
    assert "bot: 老王 self-drew and buys a horse: which tile was turned? (or send: buy horse 7s)" in asked
    assert english.say("c: buy horse 7s")[0] == "bot: Hand 1 recorded:"
    english.say("!clock +5m")
    asked = english.say("b: draw")
    assert any(line.endswith("or send: ready hand @b 123p456p789s11s55s") for line in asked)
    said = english.say("b: ready hand @b 123p456p789s11s55s")
    assert said[:3] == [
        "bot: Hand 2 recorded:",
        "bot: Drawn hand",
        "bot: 查大叫: 小李 waits 1s 5s plain win (屁胡) → ×1",
    ]


def test_config_cut_with_an_english_cap_is_the_chinese_one(sqlite_url: str) -> None:
    told, plain = Table(sqlite_url, *ENGLISH), Table(sqlite_url, *ENGLISH)
    try:
        assert told.say("a: config cut 10% cap 5") == plain.say("a: config cut 10% 封顶 5")
        assert told.say("a: config cut 10% cap none") == plain.say("a: config cut 10% 封顶 不封顶")
        assert told.say("a: fees")[0] == "bot: Table fees: a cut of 10% of each win"
    finally:
        told.ledger.close()
        plain.ledger.close()


def test_minggang_takes_english_values_and_shows_them_in_english(english: Table) -> None:
    assert english.say("a: config minggang added") == [
        "bot: OK: in this group minggang (明杠) now means added kong (蓄杠)."
    ]
    rule = (
        "bot: minggang (明杠) is read as added kong (蓄杠) (admins: config minggang exposed or config minggang added)"
    )
    assert rule in english.say("a: rules")
    english.say("!clock +10s", "a: open @a @b @c dealer @a")
    assert english.say("b: 明杠 4s")[0] == "bot: Hand 1 recorded: 小李 added kong (蓄杠) 4s"
    assert english.say("a: config minggang exposed kong")[0].endswith("now means exposed kong (直杠).")
    assert english.say("a: config minggang sideways") == ["bot: minggang cannot be “sideways”; allowed: exposed, added"]


def test_a_chinese_group_is_told_the_chinese_values(sqlite_url: str) -> None:
    table = Table(sqlite_url)
    try:
        assert table.say("a: 设置 明杠 added") == ["bot: 好的，本群的「明杠」从现在起按 蓄杠 记。"]
        assert "bot: 明杠：按 蓄杠 记（管理员可改：设置 明杠 直杠 或 设置 明杠 蓄杠）" in table.say("a: 规则")
    finally:
        table.ledger.close()


@pytest.mark.parametrize("key", ["payfees", "qrremove", "ma", "ready", "alias"])
def test_help_for_one_command_by_its_english_form(english: Table, key: str) -> None:
    """`help pay table fee` shows 付台费's help, as `help 付台费` does (the words, longest first)."""
    [line] = english.say(f"a: help {ENGLISH_FORMS[key]}")
    assert line.startswith(f"bot: /{registry.commands[key].names[0]} — ")
