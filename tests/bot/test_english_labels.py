"""A question's button label typed in an English group, as `不改`, `就是这个`, `再记一笔`, `确认撤销结算` are in
Chinese: the English label (“Yes, book it”, “Undo it”, “Correct it”, “Take it back”, “Book another”, “No, same
one”) typed by whoever was asked does what pressing it does; typed by anyone else, or in a Chinese group, it is
chat. The labels are read from bot/texts.py, so a label renamed there and not in the vocabulary fails here."""

from __future__ import annotations

import pytest

from bot.texts import text
from tests.bot.test_player_first import Table

ENGLISH = ("!join e Amy", "!join f Tom", "a: 设置 语言 en", "a: open @e @f dealer me")
WON = (*ENGLISH, "a: win seven pairs self-draw", "!clock +3m")
SETTLED = (*WON, "a: settle", "!clock +1m")

#: (what asks the question, who was asked, the button's text key)
QUESTIONS = [
    pytest.param((*ENGLISH, "a: win sevn pairs self-draw"), "a", "btn_suggest_yes", id="did-you-mean"),
    pytest.param((*WON, "a: undo"), "a", "btn_undo_yes", id="undo"),
    pytest.param((*WON, "a: change to one suit self-draw"), "a", "btn_correct_yes", id="correct"),
    pytest.param((*SETTLED, "a: unsettle"), "a", "btn_unsettle_yes", id="unsettle"),
    pytest.param((*SETTLED, "e: paid @a 2", "e: paid @a 2"), "e", "btn_payment_repeat_yes", id="book-another"),
    pytest.param((*SETTLED, "e: paid @a 2", "e: paid @a 2"), "e", "btn_repeat_no", id="payment-same-one"),
    pytest.param((*WON, "e: win seven pairs self-draw", "f: win one suit self-draw"), "f", "btn_repeat_no", id="same"),
]


def _after(url: str, setup: tuple[str, ...], line: str) -> tuple[list[str], tuple[object, ...], list[object]]:
    table = Table(url, *setup)
    try:
        said = table.say(line)
        payments = [(p.debtor, p.creditor, p.amount, p.side) for p in table.ledger.waiting_payments(table.chat)]
        open_table = table.ledger.current_table(table.chat) is not None  # 撤销结算 opens it again
        return said, (*table.booked(), open_table), payments
    finally:
        table.ledger.close()


@pytest.mark.parametrize(("setup", "asker", "key"), QUESTIONS)
def test_an_english_label_typed_by_the_asker_is_its_press(
    sqlite_url: str, setup: tuple[str, ...], asker: str, key: str
) -> None:
    label = text("en", key)
    typed, typed_booked, typed_paid = _after(sqlite_url, setup, f"{asker}: {label}")
    _, pressed_booked, pressed_paid = _after(sqlite_url, setup, f"{asker}: !press {label}")
    _, kept_booked, kept_paid = _after(sqlite_url, setup, "!clock +1s")
    assert typed, f"{label!r} typed got no reply"
    assert (typed_booked, typed_paid) == (pressed_booked, pressed_paid)
    if key != "btn_repeat_no":  # the go-ahead changes what the question would have left
        assert (typed_booked, typed_paid) != (kept_booked, kept_paid)


@pytest.mark.parametrize(("setup", "asker", "key"), QUESTIONS)
def test_an_english_label_typed_by_someone_else_is_chat(
    sqlite_url: str, setup: tuple[str, ...], asker: str, key: str
) -> None:
    other = "f" if asker != "f" else "e"
    said, booked, paid = _after(sqlite_url, setup, f"{other}: {text('en', key)}")
    assert said == [] or key == "btn_undo_yes", said  # `undo it` from someone else is their own 撤销
    assert (booked, paid) == _after(sqlite_url, setup, "!clock +1s")[1:] or key == "btn_undo_yes"


@pytest.mark.parametrize(
    ("setup", "line"),
    [
        (("!join e Amy", "!join f Tom", "a: 开桌 @e @f 庄 @a", "a: 胡 七队 自摸"), "a: Yes, book it"),
        (
            ("!join e Amy", "!join f Tom", "a: 开桌 @e @f 庄 @a", "a: 胡 七对 自摸", "!clock +3m", "a: 改成 清一色"),
            "a: Correct it",
        ),
        (
            (
                "!join e Amy",
                "!join f Tom",
                "a: 开桌 @e @f 庄 @a",
                "a: 胡 七对 自摸",
                "!clock +3m",
                "a: 结算",
                "a: 撤销结算",
            ),
            "a: take it back",
        ),
    ],
)
def test_an_english_label_in_a_chinese_group_is_chat(sqlite_url: str, setup: tuple[str, ...], line: str) -> None:
    said, booked, paid = _after(sqlite_url, setup, line)
    assert said == []
    assert (booked, paid) == _after(sqlite_url, setup, "!clock +1s")[1:]


def test_undo_it_with_no_question_waiting_is_still_undo(sqlite_url: str) -> None:
    """“Undo it” is 撤销's own English word (`undo it`): with nothing asked it asks, as `undo` does."""
    said, _, _ = _after(sqlite_url, WON, "a: Undo it")
    assert said == _after(sqlite_url, WON, "a: undo")[0]
    assert said and said[-1] == "bot: [按钮] Undo it | Keep it", said
