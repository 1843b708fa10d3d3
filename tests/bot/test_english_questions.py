"""A question the bot asked in English — because the line that raised it was English — in a Chinese group (play-test):
its asker's English answer words (`yes`, `ok`, `yes undo`, its own button label `Undo it`, `cancel`) answer it as
its buttons do, an English record typed while 撤销's question waits is told why it was not booked (in English; it was
silent), the question's record is named in each reply's own language, and answers to the bot's question never count
toward flooding (`yes` three times was fined as a repeat). Plain `yes` with no English question waiting for that
person stays chat in a Chinese group."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_player_first import Table

ENGLISH = ("!join mike Mike", "!join amy Amy", "!join tom Tom")
#: Mike's win, then his English 撤销 of it: a question asked in English, with 「Undo it」/「Keep it」
ASKED = (*ENGLISH, "mike: 开桌 @amy @tom", "mike: 胡 清一色 自摸", "!clock +10s", "mike: undo")
UNDONE_EN = "bot: Undone: hand 1, Mike self-draw one suit (清一色). Hand 1 is open again."
UNDONE_ZH = "bot: 已撤销：第1局 Mike 自摸 清一色。第1局重新打开。"


@pytest.fixture
def asked(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url, *ASKED[:-1])
    assert table.say(ASKED[-1])[-1] == "bot: [按钮] Undo it | Keep it"
    yield table
    table.ledger.close()


def _hands(table: Table) -> int:
    return len(table.ledger.history(table.chat))


def _all_even(table: Table) -> bool:
    """Every balance 0: Mike's win taken back and no fine booked (a fine moves money from him to the pot)."""
    return {line.amount for line in table.ledger.balances(table.chat).lines} == {0}


@pytest.mark.parametrize("yes", ["yes", "ok", "OK", "yes undo", "yes, undo it", "Undo it", "okay"])
def test_english_yes_answers_the_question_asked_in_english(asked: Table, yes: str) -> None:
    said = asked.say(f"mike: {yes}")
    assert UNDONE_EN in said, said  # `ok` reads as either language: answered in the question's (English)
    assert _hands(asked) == 0
    again = asked.say(f"mike: {yes}", f"mike: {yes}")  # answered: nothing waits, chat (`Undo it` is 撤销 again)
    undone_again = [
        "bot: Nothing to undo at this table.",
        "bot: Nothing to undo at this table.",
        "bot: (the same line 2 times now: once more is flooding under the group rules)",
    ]
    assert again == ([] if yes != "Undo it" else undone_again)
    assert _all_even(asked)


@pytest.mark.parametrize("no", ["cancel", "no", "Keep it", "leave it"])
def test_english_no_keeps_it(asked: Table, no: str) -> None:
    kept = ["bot: OK, nothing undone.", "bot: OK, nothing undone (the question above is closed)."]
    assert asked.say(f"mike: {no}") == kept
    assert _hands(asked) == 1
    assert asked.say("mike: yes") == []  # no question waits any more: chat


def test_answers_to_the_question_never_count_toward_flooding(asked: Table) -> None:
    """The tester's three `yes`: the first answers, the next two are chat after an answer — no repeat of three."""
    said = asked.say("mike: yes", "mike: yes", "mike: yes")
    assert not any("违反群规" in line or "violat" in line.lower() for line in said), said
    assert UNDONE_EN in said and _all_even(asked)


def test_a_chinese_yes_three_times_is_no_flood_either(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ASKED[:-1], "mike: 撤销")
    try:
        said = table.say("mike: 对", "mike: 对", "mike: 对")
        assert UNDONE_ZH in said and not any("违反群规" in line for line in said), said
    finally:
        table.ledger.close()


@pytest.mark.parametrize("word", ["yes", "ok", "Undo it", "cancel"])
def test_english_words_under_a_chinese_question_stay_chat(sqlite_url: str, word: str) -> None:
    """The group reads Chinese and the question was asked in Chinese: `yes` is chat (`Undo it` is 撤销 asked again,
    which points to the question)."""
    table = Table(sqlite_url, *ASKED[:-1], "mike: 撤销")
    try:
        said = table.say(f"mike: {word}")
        assert not any(line.startswith(("bot: Undone", "bot: 已撤销", "bot: OK")) for line in said), said
        assert _hands(table) == 1
        assert UNDONE_ZH in table.say("!clock +10s", "mike: 对")
    finally:
        table.ledger.close()


def test_yes_with_no_question_waiting_is_chat_in_a_chinese_group(sqlite_url: str) -> None:
    table = Table(sqlite_url, *ASKED[:-1])
    try:
        assert table.say("mike: yes", "mike: ok") == []
        assert _hands(table) == 1
    finally:
        table.ledger.close()


def test_the_person_asked_answers_in_english(sqlite_url: str) -> None:
    """Mike's English 撤销 of Amy's kong is put to Amy: her `yes` (a Chinese group) takes it back."""
    table = Table(sqlite_url, *ENGLISH, "mike: 开桌 @amy @tom", "amy: 暗杠 3s", "!clock +10s")
    try:
        assert table.say("mike: undo")[-1] == "bot: [按钮] Undo it | Keep it"
        assert table.say("mike: yes")[0].startswith("bot: ")  # not Mike's to give: said so
        assert any(line.startswith("bot: Undone") for line in table.say("!clock +10s", "amy: yes"))
        assert table.ledger.hand_state(table.ledger.current_table(table.chat).id).events == ()
    finally:
        table.ledger.close()


def test_an_english_record_while_the_question_waits_is_told_why_in_english(asked: Table) -> None:
    assert asked.say("mike: I won seven pairs self drawn") == [
        "bot: Not recorded: your undo of hand 1 (Mike self-draw one suit (清一色)) is still waiting for your answer, "
        "so it still counts. Press “Undo it” above first (or “Keep it”, or type cancel), then send this again."
    ]
    assert _hands(asked) == 1


def test_a_chinese_reply_names_the_english_question_s_record_in_chinese(asked: Table) -> None:
    """…and its buttons by the labels they show: 「Undo it」, not 「确认撤销」 nobody sees."""
    assert asked.say("!clock +10s", "mike: 胡 七对 自摸") == [
        "bot: 没有记：你要撤销的 第1局 Mike 自摸 清一色 还在等你确认，它还算着。先点上面的「Undo it」"
        "（不撤了点「Keep it」或发「算了」），再发这一条。"
    ]
    assert asked.say("mike: 撤销") == [
        "bot: 上面已经在问了：第1局 Mike 自摸 清一色。请点那条消息下面的「Undo it」或「Keep it」"
        "（不撤了也可以直接发「算了」）。"
    ]
    assert asked.say("!clock +10s", "mike: 对")[0] == UNDONE_ZH  # what was undone, named in Chinese too


@pytest.mark.parametrize(
    ("asked", "again", "named"),
    [
        ("undo", "撤销", "bot: 上面已经在问了：第1局 小李 自摸 清一色。"),
        ("撤销", "undo", "bot: Already asked above: hand 1, 小李 self-draw one suit (清一色)."),
    ],
)
def test_an_admin_s_undo_at_an_ended_table_names_its_hand_in_each_reply_s_language(
    sqlite_url: str, asked: str, again: str, named: str
) -> None:
    """An admin's 撤销 replying to a hand of a table that has ended since: the hand is named in the language of
    each reply, as 撤销 at the open table names it, not kept in the language it was first asked in."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "b: 胡 清一色 自摸", "a: 开桌 @a @b @d 庄 @a")
    try:
        table.say(f"a: !reply 7 {asked}")
        assert table.say(f"a: !reply 7 {again}")[0].startswith(named)
    finally:
        table.ledger.close()
