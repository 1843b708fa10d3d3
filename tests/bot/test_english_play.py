"""What a play-tester typed at an English group's table (`open table @amy @tom`, `change to seven pairs
self-draw`, `ready!`) and what the replies name: the English commands, the tiles in English words."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en")


@pytest.mark.parametrize(
    "line",
    ["open table @e @f", "open a table @e @f", "Open Table @e @f", "start table @e @f", "new table @e @f"],
)
def test_open_table_in_english_opens_it_as_kaizhuo_does(sqlite_url: str, line: str) -> None:
    """`open table @amy @tom`: the sender sits with the two named, no guest called "table"."""
    table = Table(sqlite_url, *ENGLISH)
    try:
        opened = table.say(f"a: {line}")
        assert "bot: Seats: 阿杰, Amy, Tom" in opened, opened
        guests = [m.name for m in table.ledger.members(table.chat) if m.kind == "guest"]
        assert guests == []
    finally:
        table.ledger.close()


@pytest.mark.parametrize(
    ("line", "word"),
    [("open @e @f come on", "come"), ("open @e @f hurry up", "hurry"), ("open table @e lets go @f", "lets")],
)
def test_english_chat_at_open_is_no_guest(sqlite_url: str, line: str, word: str) -> None:
    table = Table(sqlite_url, *ENGLISH)
    try:
        before = table.ledger.current_table(table.chat), table.ledger.members(table.chat)
        refused = table.say(f"a: {line}")
        assert refused[0].startswith(f"bot: “{word}” is no guest's name"), refused
        assert (table.ledger.current_table(table.chat), table.ledger.members(table.chat)) == before
    finally:
        table.ledger.close()


def test_lets_go_after_the_seats_opens_the_table(sqlite_url: str) -> None:
    """As `开桌 @乙 @丙 走起` does (play-test: `open a table @tom @bob let's go` was refused over “let's”)."""
    table = Table(sqlite_url, *ENGLISH)
    try:
        assert table.say("a: open a table @e @f let's go")[0].startswith("bot: Table open:")
        assert table.ledger.current_table(table.chat) is not None
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["ready?", "ready!", "are you ready", "ready to go", "everyone ready", "Ready!!"])
def test_ready_said_to_the_table_is_chat(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "a: open @e @f")
    try:
        assert table.say(f"a: {line}") == []
        assert table.booked()[0] == ()
    finally:
        table.ledger.close()


@pytest.mark.parametrize(("line", "who"), [("ready", "阿杰"), ("Ready @e", "Amy"), ("/ready", "阿杰")])
def test_ready_alone_is_the_documented_liangdao(sqlite_url: str, line: str, who: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "a: open @e @f")
    try:
        assert f"bot: Hand 1 recorded: {who} declares ready (亮倒)" in table.say(f"a: {line}")
    finally:
        table.ledger.close()


WON = (*ENGLISH, "a: open @e @f", "a: win seven pairs on a discard @e")
WAS = "Replace hand 1's “阿杰 wins on Amy's discard seven pairs (七对)” (recorded by you just now) with "


@pytest.mark.parametrize(
    ("line", "becomes"),
    [
        ("change to seven pairs self-draw", "“阿杰 self-draw seven pairs (七对)”?"),
        ("change it to all pungs", "“阿杰 wins on Amy's discard all pungs (碰碰胡)”?"),
        ("correct it to one suit", "“阿杰 wins on Amy's discard one suit (清一色)”?"),
        ("correct to win seven pairs self-draw", "“阿杰 self-draw seven pairs (七对)”?"),
        ("wrong, it was self drawn", "“阿杰 self-draw seven pairs (七对)”?"),
        ("No, it was all pungs", "“阿杰 wins on Amy's discard all pungs (碰碰胡)”?"),
        ("it was all pungs", "“阿杰 wins on Amy's discard all pungs (碰碰胡)”?"),
    ],
)
def test_an_english_correction_asks_as_gaicheng_does(sqlite_url: str, line: str, becomes: str) -> None:
    table = Table(sqlite_url, *WON)
    try:
        asked = table.say(f"a: {line}")
        assert asked[0] == f"bot: {WAS}{becomes} The hand is scored again as corrected.", asked
        assert asked[1] == "bot: [按钮] Correct it | Leave it"
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["e: wrong, it was all pungs", "a: it was fun", "a: no, it was great"])
def test_an_english_correction_said_to_each_other_is_chat_unless_it_reads(sqlite_url: str, line: str) -> None:
    """As `错了 …`: from someone else than the recorder, or not a record, no reply."""
    table = Table(sqlite_url, *WON)
    try:
        assert table.say(line) == []
    finally:
        table.ledger.close()


def test_someone_else_s_english_correction_is_told_whose_it_is_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *WON)
    try:
        told = table.say("e: change to all pungs")
        assert "they may send change to … or edit their message" in told[0], told
        assert "改" not in told[0].replace("(七对)", ""), told
    finally:
        table.ledger.close()


def test_an_english_correction_confirmed_says_the_hand_was_corrected(sqlite_url: str) -> None:
    """`change to …` then 「Correct it」 reads as the Chinese 「第1局 已改正（原记录作废）：」 means, an edit of
    the win's message as 「第1局 按改后的消息重记（原记录作废）：」, each over 「各家比原来：」 (was "re-recorded
    from the edit" after a correction, which edited nothing, and "Each player against what was booked before")."""
    table = Table(sqlite_url, *WON)
    try:
        table.say("a: change to seven pairs self-draw")
        corrected = table.say("a: !press Correct it")
        assert corrected[1:4] == [
            "bot: Hand 1 corrected (the old record is void):",
            "bot: 阿杰 self-draw: seven pairs (七对)×4 → ×4",
            "bot: Each player's change from the old record:",
        ], corrected
        assert not any("re-recorded" in line or "from the edit" in line for line in corrected)
    finally:
        table.ledger.close()
    table = Table(sqlite_url, *WON)
    try:
        edited = table.say("a: !edit win one suit self-draw")
        assert edited[:3] == [
            "bot: Hand 1 recorded again as corrected (the old record is void):",
            "bot: 阿杰 self-draw: one suit (清一色)×4 → ×4",
            "bot: Each player's change from the old record:",
        ], edited
    finally:
        table.ledger.close()


def test_an_english_kong_edited_says_it_was_recorded_again(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "a: open @e @f", "a: concealed kong 3s")
    try:
        edited = table.say("a: !edit concealed kong 4s")
        assert edited[:2] == [
            "bot: Hand 1 recorded again as corrected: 阿杰 concealed kong (暗杠) 4s",
            "bot: Each player's change from the old record:",
        ], edited
    finally:
        table.ledger.close()


def test_whose_record_it_is_names_no_seat_as_the_example(sqlite_url: str) -> None:
    """The example of an admin's correction names the player as the Chinese 「改成 @某人 …」 does, not `@b` (a member
    of a group may well be called b, and is not the one meant)."""
    table = Table(sqlite_url, *WON)
    try:
        told = table.say("e: change to all pungs")
        assert told[0].endswith("or an admin may (naming the player: change to @someone …)."), told
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["concealed kong red dragon", "concealed kong 7z", "暗杠 红中"])
def test_an_english_reply_names_a_dragon_as_it_is_typed_back(sqlite_url: str, line: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "a: open @e @f")
    try:
        assert table.say(f"a: {line}")[0] == "bot: Hand 1 recorded: 阿杰 concealed kong (暗杠) red dragon"
        assert table.say("a: undo")[0] == "bot: Undone: hand 1, 阿杰 concealed kong (暗杠) red dragon"
    finally:
        table.ledger.close()


def test_a_refused_settle_names_the_english_commands(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ENGLISH, "a: open @e @f", "a: concealed kong 3s")
    try:
        refused = table.say("a: settle")
        assert refused == [
            "bot: Cannot settle yet: hand 1 has 阿杰 concealed kong (暗杠) 3s recorded and has not ended. Record its "
            "win, or if nobody won send draw to end it (what is recorded stands); if it was a mistake, send undo; "
            "then settle."
        ]
        assert table.say("a: draw")[0] == "bot: Hand 1 recorded:"  # the commands it names are the ones to send
    finally:
        table.ledger.close()


#: the commands players send that have an English word (open, undo, settle, change to, details, report, help): an
#: English reply names that word, never the Chinese one
CHINESE_COMMANDS = ("开桌", "撤销", "结算", "改成", "明细", "战报", "帮助")


def test_no_english_reply_names_a_chinese_command_that_has_an_english_word() -> None:
    import bot.webapp.texts  # noqa: F401  (the Mini App's texts, registered on import)
    from bot.core import load_plugins
    from bot.texts import TEXTS

    load_plugins()
    named = {key: [w for w in CHINESE_COMMANDS if w in versions.get("en", "")] for key, versions in TEXTS.items()}
    assert {key: words for key, words in named.items() if words} == {}
