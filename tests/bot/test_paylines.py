"""Lines about money after 结算 that play-testers sent and got no reply to (the payer believed the bot was told,
nothing was booked): each is read as the payment, confirmation or question it is (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.test_recording_fixes import Table

#: 王哥 deals in and 阿杰 wins by himself: 王哥 owes 阿杰 8元 after 结算
SETTLED = (
    "!join wangge 王哥",
    "!join xiaoli 小李",
    "!join ajie 阿杰",
    "wangge: 开桌 @xiaoli @ajie 我坐庄",
    "!clock +3m",
    "ajie: 胡 清一色 自摸",
    "!clock +3m",
    "xiaoli: 胡 七对 点 @wangge",
    "!clock +3m",
    "wangge: 结算",
    "!clock +1m",
)


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))


@pytest.fixture
def settled(db_url: str) -> Iterator[Table]:
    table = Table(db_url)
    table.say(*SETTLED)
    yield table
    table.ledger.close()


def _owed(table: Table) -> int:
    debts = table.ledger.debts(table.console.chat_id)
    return sum(d.amount for d in debts if d.debtor == "王哥" and d.creditor == "阿杰")


# ---------------------------------------------------------------- 1. a payment with talk after it is that payment


@pytest.mark.parametrize(
    ("line", "paid"),
    [
        ("@ajie 转你4块 剩下的明天", 400),
        ("@ajie 4块已转 剩下的明天给你", 400),
        ("转了4块给阿杰 剩下明天", 400),
        ("@ajie 微信转你了4块，剩下的明天", 400),
        ("付 @ajie 4 剩下明天", 400),
        ("转账了 @ajie", 800),
        ("@ajie 钱转你了", 800),
        ("@ajie 8 转了 收一下", 800),
        ("给阿杰转了8", 800),
        ("已付清了 @ajie", 800),
        ("已经付清了 @ajie", 800),
        ("付清 @ajie", 800),
        ("已转 @ajie 谢谢", 800),
        ("已转 @ajie 哈哈哈", 800),
    ],
)
def test_a_payment_said_with_talk_after_it_is_booked(settled: Table, line: str, paid: int) -> None:
    out = settled.say(f"wangge: {line}")
    assert any("记下付款" in o for o in out), out
    assert 800 - _owed(settled) == paid, out


@pytest.mark.parametrize("line", ["付 @ajie 233", "@ajie 转你2333", "付 @ajie 666"])
def test_a_number_after_a_payment_is_its_amount_never_laughter(settled: Table, line: str) -> None:
    """233 is laughter after a record, but after a payment it is what was paid: more than the 8元 owed is refused
    (it booked the whole debt, as a bare `付 @ajie` does — 233 of a 300 debt would have settled all 300)."""
    out = settled.say(f"wangge: {line}")
    assert any("只欠 阿杰 8元" in o for o in out), out
    assert _owed(settled) == 800


@pytest.mark.parametrize("line", ["已转 你看看", "转了 8 个给他", "给他转了8"])
def test_talk_that_is_no_payment_stays_chat(settled: Table, line: str) -> None:
    assert settled.say(f"wangge: {line}") == []
    assert _owed(settled) == 800


# ------------------------------------------------------------------------------- 2. the payee's thanks after 收到


@pytest.mark.parametrize("line", ["收到，谢谢", "收到 哈哈", "收到 谢谢王哥", "收到 王哥 谢谢", "收到了 👍"])
def test_thanks_after_received_confirm_the_payment_waiting(settled: Table, line: str) -> None:
    settled.say("wangge: 付 @ajie 4", "!clock +1m")
    out = settled.say(f"ajie: {line}")
    assert any("确认" in o for o in out) and not any("不是金额" in o for o in out), out


# ---------------------------------------------------------------------------------------- 3. whom do I still owe


@pytest.mark.parametrize("line", ["我还欠谁钱", "我还欠多少钱", "我要给谁钱", "欠谁钱"])
def test_whom_i_still_owe_asked_as_people_ask_it(settled: Table, line: str) -> None:
    out = settled.say(f"wangge: {line}")
    assert any("阿杰 8元" in o for o in out), out


# ------------------------------------------------------------------------------------------------ 4. overpayments


@pytest.mark.parametrize("line", ["已转44", "已付 @ajie 44元 哈哈"])
def test_an_overpayment_says_what_is_owed(settled: Table, line: str) -> None:
    out = settled.say(f"wangge: {line}")
    assert any("只欠 阿杰 8元" in o for o in out), out
    assert _owed(settled) == 800


def test_a_lone_paid_word_with_an_amount_pays_the_one_person_owed(settled: Table) -> None:
    out = settled.say("wangge: 已转4")
    assert any("记下付款" in o for o in out) and _owed(settled) == 400, out


def test_the_amount_before_the_mention(settled: Table) -> None:
    out = settled.say("wangge: 付 4 @ajie")
    assert any("记下付款" in o for o in out) and _owed(settled) == 400, out


def test_a_known_line_still_books(settled: Table) -> None:
    out = settled.say("wangge: 付清了 @ajie")
    assert any("记下付款" in o for o in out) and _owed(settled) == 0, out


# ------------------------------------------------------------------------ 5. 明细 from the named player's side


def test_member_details_sign_every_item_from_that_players_side(settled: Table) -> None:
    out = settled.say("wangge: 明细 @wangge")
    assert "bot: 　　第1局 自摸 -4元" in out and "bot: 　　第2局 点炮 -4元" in out, out
    assert "bot: 　自摸×1 -4元" in out and "bot: 王哥 → 阿杰 4元" in out, out
    settled.say("!clock +1m")
    out = settled.say("wangge: 明细 @ajie")
    assert out.count("bot: 　　第1局 自摸 +4元") == 2, out
    settled.say("!clock +1m")
    out = settled.say("wangge: 明细 @wangge→@ajie")
    assert (
        out.index("bot: 　自摸×1 -4元") < out.index("bot: 阿杰 本晚 +8元，来自：") < out.index("bot: 　自摸×1 +4元")
    ), out


# ---------------------------------------------------------------- 6. a member's name typed without @ in a question


@pytest.mark.parametrize("line", ["余额 wangge", "余额 王哥"])
def test_a_members_name_without_at_in_a_question_is_that_member(settled: Table, line: str) -> None:
    out = settled.say(f"xiaoli: {line}")
    assert "bot: 王哥　-8元 ｜ -8元 ｜ -8元" in out and not any("客人" in o for o in out), out


def test_a_details_button_label_typed_is_that_payment(settled: Table) -> None:
    out = settled.say("xiaoli: 明细 王哥→阿杰")
    assert out[0] == "bot: 王哥 → 阿杰 8元 的由来：", out


def test_a_name_two_members_show_reads_the_settled_player(settled: Table) -> None:
    """A newcomer showing as 王哥 (王哥#2 in replies) is not the 王哥 the latest settlement names."""
    settled.say("!join laowang 王哥", "!clock +1m")
    out = settled.say("xiaoli: 余额 王哥")
    assert out[1] == "bot: 王哥　-8元 ｜ -8元 ｜ -8元", out
