"""Short names in payments and questions (a play-test): `老王` for the player 老王-成员 reads as a record reads it, the
seated or settled player before anyone else showing so (an impostor whose Telegram name is 老王), ambiguity said as
开桌 says it; and what stands between two people said at once (a night not settled yet, nothing open)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import CHAT, Table

MEMBERS = ("!join wang 老王-成员", "!join li 小李-成员", "!join jie 阿杰-成员", "!admin boss")
IMPOSTOR = ("!join imp2 老王", "imp2: 大家好")


@pytest.fixture
def group(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say(*MEMBERS)
    yield table
    table.ledger.close()


def _lines(table: Table, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += table.say("!clock +4s", line)
    return out


def _owed(table: Table, debtor: str, creditor: str) -> int:
    return sum(d.amount for d in table.ledger.debts(CHAT) if (d.debtor, d.creditor) == (debtor, creditor))


def _wang_wins_and_settles(table: Table) -> None:
    _lines(table, "boss: 开桌 @wang @li @jie", "wang: 胡 七对 点 @li", "boss: 结算")


def test_a_short_name_pays_the_settled_creditor_never_an_impostor(group: Table) -> None:
    group.say(*IMPOSTOR)
    _wang_wins_and_settles(group)
    out = _lines(group, "li: 付 老王 1")
    assert out[0] == "bot: 记下付款：小李-成员 → 老王-成员 1元（小李-成员 说已付，等 老王-成员 点「收到」确认）", out
    assert not any("imp2" in line for line in out), out


def test_a_short_name_in_a_question_is_the_settled_player_beside_an_impostor(group: Table) -> None:
    group.say(*IMPOSTOR)
    _wang_wins_and_settles(group)
    for line in ("li: 余额 老王", "li: 查账 老王"):
        out = _lines(group, line)
        assert out[1] == "bot: 老王-成员　+4元 ｜ +4元 ｜ +4元", out


def test_a_name_two_members_go_by_off_any_table_is_asked_as_kaizhuo_asks(group: Table) -> None:
    group.say(*IMPOSTOR)
    refused = "bot: 「老王」是群成员的名字，不止一位（老王-成员、老王）：请用 @ 点选是哪一位（输入 @ 后从列表里点选）。"
    assert _lines(group, "li: 余额 老王") == [refused]
    assert _lines(group, "li: 付 老王 1") == [refused]
    assert group.ledger.waiting_payments(CHAT) == []


def test_short_names_pay_confirm_and_look_up_as_records_read_them(group: Table) -> None:
    _lines(group, "boss: 开桌 @wang @li @jie", "li: 胡 七对 点 @wang")
    assert _lines(group, "wang: 余额 小李")[1] == "bot: 小李-成员　+4元 ｜ +4元 ｜ +4元"
    _lines(group, "boss: 结算")
    assert _lines(group, "wang: 付 小李 2")[0].startswith("bot: 记下付款：老王-成员 → 小李-成员 2元")
    assert _lines(group, "li: 收到 老王 2")[0].startswith("bot: 已确认：老王-成员 → 小李-成员 2元")
    assert _owed(group, "老王-成员", "小李-成员") == 200
    assert _lines(group, "wang: 查账 小李")[-1] == "bot: 还没付清：老王-成员 欠 小李-成员 2元"


def test_how_much_do_i_owe_on_a_night_not_settled_says_so(group: Table) -> None:
    _lines(group, "boss: 开桌 @wang @li @jie", "li: 胡 七对 点 @wang")
    out = _lines(group, "wang: 我欠小李多少")
    assert (
        out[-1] == "bot: 今晚（2026-01-10）还没结算（小李-成员 +4元，老王-成员 -4元）：打完发 结算 算出谁给谁多少。"
    ), out


@pytest.fixture
def english(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say("!join tom Tom", "!join amy Amy", "!join ben Ben", "!admin boss", "boss: 设置 语言 en")
    yield table
    table.ledger.close()


def test_english_how_much_do_i_owe_before_settling(english: Table) -> None:
    _lines(english, "boss: open @tom @amy @ben", "ben: win seven pairs from @amy")
    out = _lines(english, "amy: how much do I owe ben")
    assert out[-1].startswith("bot: Tonight (2026-01-10) is not settled yet (Ben +4元, Amy -4元)"), out


def test_english_a_member_owing_nothing_named_plainly_is_answered_at_once(english: Table) -> None:
    _lines(english, "boss: open @tom @amy @ben", "ben: win seven pairs from @amy", "boss: settle up")
    assert _lines(english, "ben: tom paid me 4") == [
        "bot: Tom owes you nothing now; nothing booked. Still owing you: Amy 4元."
    ]
    nothing = ["bot: You owe Tom nothing now; nothing booked. You still owe: Ben 4元."]
    assert _lines(english, "amy: paid tom 2") == _lines(english, "amy: I paid tom") == nothing
    assert english.ledger.waiting_payments(CHAT) == []


@pytest.mark.parametrize("line", ["where do I stand", "where do I stand?", "where am I", "what's my balance"])
def test_english_where_do_i_stand_is_my_balance(english: Table, line: str) -> None:
    _lines(english, "boss: open @tom @amy @ben", "ben: win seven pairs from @amy")
    assert _lines(english, f"amy: {line}") == _lines(english, "amy: my balance")


def test_english_fees_rules_and_a_typed_yes_under_undo_pay_table_fee(english: Table) -> None:
    _lines(english, "boss: config fee 1", "boss: open @tom @amy @ben", "ben: win seven pairs from @amy")
    settled = _lines(english, "boss: settle up")
    assert "bot: Tom → House 1元 (waits for pay table fee @recipient)" in settled, settled
    for line in ("boss: table fees", "boss: table fee"):
        assert _lines(english, line)[0].startswith("bot: Table fees: 1元 per player per night"), line
    assert _lines(english, "boss: group rules")[0].startswith("bot: 群规则")
    _lines(english, "boss: pay table fee @tom")
    assert _lines(english, "boss: undo pay table fee")[-1] == "bot: [按钮] Take it back | Keep it"
    assert _lines(english, "boss: yes")[0] == "bot: House payout taken back, the money is back with the House:"
    _lines(english, "boss: pay table fee @tom", "boss: undo pay table fee")
    assert _lines(english, "boss: no")[0] == "bot: OK, the house payout stands."


def test_english_help_of_moderation_says_each_chinese_word(english: Table) -> None:
    out = _lines(english, "boss: help moderation")
    assert "bot: /kick — remove (may come back): /kick @x reason (请出)" in out, out
    assert "bot: /grouprules — show the group's rules (群规)" in out, out
