"""A line written in English is answered in English, whatever the group's language: an English speaker at a Chinese
table types `I won seven pairs self drawn` and reads `Hand 1 recorded`, and the question their line raised answers
its presses in English too (the buttons' data carry `~en`). Chinese lines, tiles and amounts alone stay in the
group's language. Through python-telegram-bot, on SQLite and PostgreSQL."""

from __future__ import annotations

import unicodedata
from typing import Any

from hypothesis import assume, example, given
from hypothesis import strategies as st

from bot.core import ENGLISH_PRESS
from bot.grammar import written_in_english
from tests.bot.fake_bot_api import CHAT
from tests.bot.test_recording_fixes import Table
from tests.bot.test_telegram import BOSS, A, B, C, Harness, open_table, tg
from tests.bot.test_undo_question import ask, buttons

__all__ = ["tg"]  # the fixture, from the Telegram tests


def replies(tg: Harness, since: int) -> list[str]:
    return [c.params["text"] for c in tg.telegram.calls[since:] if c.method == "sendMessage"]


async def test_an_english_line_at_a_chinese_table_is_answered_in_english(tg: Harness, clock: Any) -> None:
    await open_table(tg)
    said = len(tg.telegram.calls)
    await tg.say(A, "I won seven pairs self drawn")
    (recorded,) = replies(tg, said)
    assert recorded.startswith("Hand 1 recorded") and "阿杰 self-draw: seven pairs" in recorded, recorded
    assert tg.balance(A["id"]) == 800
    clock.advance(minutes=3)
    said = len(tg.telegram.calls)
    await tg.say(B, "余额")  # the next Chinese line: Chinese
    (balance,) = replies(tg, said)
    assert balance.startswith("余额"), balance
    clock.advance(minutes=1)
    said = len(tg.telegram.calls)
    await tg.say(C, "what do I owe")
    (owed,) = replies(tg, said)
    assert owed.startswith("Balances"), owed


async def test_a_question_asked_in_english_answers_its_press_in_english(tg: Harness, clock: Any) -> None:
    await open_table(tg)
    await tg.say(A, "胡 七对 自摸")
    clock.advance(minutes=3)
    question = await ask(tg, B, "undo that")
    assert question["text"].startswith("The latest record ended hand 1"), question["text"]
    pressed = buttons(question)
    assert set(pressed) == {"Undo it", "Keep it"} and all(d.endswith(ENGLISH_PRESS) for d in pressed.values())
    said = len(tg.telegram.calls)
    await tg.feed(tg.updates.press(A, question, pressed["Undo it"]))  # the recorder takes it back
    texts = [c.params.get("text", "") for c in tg.telegram.calls[said:]]
    assert any(t.startswith("Undone: hand 1") for t in texts), texts
    assert tg.balance(A["id"]) == 0 and tg.balance(B["id"]) == 0


async def test_the_same_question_asked_in_chinese_has_its_buttons_unmarked(tg: Harness, clock: Any) -> None:
    await open_table(tg)
    await tg.say(A, "胡 七对 自摸")
    clock.advance(minutes=3)
    question = await ask(tg, B, "撤销")
    assert question["text"].startswith("最后一条记录是第1局的结束")
    assert not any(d.endswith(ENGLISH_PRESS) for d in buttons(question).values())


async def test_an_english_group_is_unchanged_and_its_buttons_unmarked(tg: Harness, clock: Any) -> None:
    await tg.say(BOSS, "设置 语言 en")
    await tg.say(A, "open @ajie @xiaoli @laowang")
    assert tg.last_text().startswith("Table open")
    await tg.say(A, "胡 七对 自摸")
    clock.advance(minutes=3)
    question = await ask(tg, B, "undo that")
    assert question["text"].startswith("The latest record ended hand 1")
    assert not any(d.endswith(ENGLISH_PRESS) for d in buttons(question).values())


async def test_a_marked_press_of_no_button_expires_in_english(tg: Harness) -> None:
    await open_table(tg)
    bot_message = {"message_id": 1, "text": "?"}
    said = len(tg.telegram.calls)
    await tg.feed(tg.updates.press(A, bot_message, "nosuch:1" + ENGLISH_PRESS))
    (alert,) = [c.params for c in tg.telegram.calls[said:] if c.method == "answerCallbackQuery"]
    assert alert["show_alert"] is True and "expired" in alert["text"], alert
    assert tg.ledger.open_flows(CHAT["id"]) == []


def test_what_reads_as_english() -> None:
    names = ["老王", "小李"]
    assert written_in_english("I won off 老王", names)
    assert written_in_english("paid @小李 4 bucks", names)
    assert written_in_english("undo", names)
    neither = ("/balance@paiju_bot", "/undo", "胡 七对 自摸", "ok", "OK 收到", "zimo", "@xiaoli 4", "123p46p789s22s 5p")
    # the game's words in pinyin are a Chinese player's (were answered in English)
    neither += ("hu qidui zimo", "angang 3s", "hu qingyise dianpao @xiaoli", "gang 5p", "maima 7s")
    for line in (*neither, "老王 gg", "哈哈 nb"):
        assert not written_in_english(line, names), line


_CHINESE = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF), min_size=1, max_size=4)
_ANY = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@given(before=_ANY, chinese=_CHINESE, after=_ANY)
@example(before="I won off ", chinese="阿杰", after=" self drawn")
def test_a_line_with_chinese_outside_names_and_mentions_is_never_english(before: str, chinese: str, after: str) -> None:
    line = before + chinese + after
    assume("@" not in unicodedata.normalize("NFKC", line))  # `@阿杰` is a mention, whoever it names
    assert not written_in_english(line)


_TILES = st.from_regex(r"[1-9]{1,9}[mpsz]", fullmatch=True)
_MENTIONS = st.from_regex(r"@[A-Za-z][A-Za-z0-9_]{2,12}", fullmatch=True)


@given(st.lists(st.one_of(_TILES, st.integers(0, 9999).map(str), _MENTIONS), max_size=6))
def test_tiles_amounts_and_mentions_alone_are_never_english(words: list[str]) -> None:
    assert not written_in_english(" ".join(words))


def test_a_flood_of_english_lines_is_punished_in_the_groups_language(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say("a: 开桌 @a @b @c 庄 @a")
        said = table.say(*["b: undo that"] * 6)  # six refused commands at once: a flood, in whatever language
        assert any("违反群规" in line for line in said) and not any("broke the group rules" in line for line in said)
        assert "bot: Nothing to undo at this table." in said, said
    finally:
        table.ledger.close()
