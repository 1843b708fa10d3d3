"""A win still waiting for its answers (漂, 马 …) holds the table: 结算, 开桌 over it and 退桌 would drop it with the
table, its money never booked (and a loser could do it on purpose), so they are refused, naming the win and what it
waits for; the win's recorder, its winner or an admin drops it by 撤销. A hand with records and no end is refused
by what it holds (漂, a kong …), not always as 「杠或亮倒」."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import CHAT, Table

PLAYERS = ("!join laowang 老王", "!join xiaoli 小李", "!join ajie 阿杰", "!admin laowang")
OPEN = "laowang: 开桌 @xiaoli @ajie 庄 @laowang"
WAITS_FOR = "老王 的漂、小李 的漂、阿杰 的漂"
WAITS_PIAO = f"第1局 小李 自摸 还在等 {WAITS_FOR}，还没记账"


def opened(url: str, setting: str) -> Table:
    table = Table(url)
    table.say(*PLAYERS, f"laowang: 设置 {setting}", OPEN, "!clock +1m")
    return table


@pytest.fixture
def piao(db_url: str) -> Iterator[Table]:
    """A 选漂 table where 小李's self-draw waits for the 漂 of all three."""
    table = opened(db_url, "漂 选漂")
    table.say("xiaoli: 自摸 清一色", "!clock +1m")
    yield table
    table.ledger.close()


def test_settle_is_refused_while_a_win_waits_and_the_win_is_booked_after(piao: Table) -> None:
    out = piao.say("laowang: 结算")
    assert out == [
        f"bot: 还不能结算：{WAITS_PIAO}。先回答上面的问题把它记下；不记了就由 小李 或管理员 发「撤销」去掉；"
        "然后再结算。"
    ]
    assert piao.ledger.current_night(CHAT) is not None  # nothing settled
    piao.say("laowang: 漂 1", "xiaoli: 漂 0", "ajie: 漂 0", "!clock +1m")
    assert piao.hands() == 1 and piao.balances()["小李"] > 0
    assert "第1晚结算" in piao.say("laowang: 结算")[1]


def test_a_loser_cannot_open_a_new_table_or_leave_over_a_waiting_win(piao: Table) -> None:
    out = piao.say("ajie: 开桌 @xiaoli @dapeng 加我")
    assert out == [
        f"bot: 还不能开新桌：{WAITS_PIAO}。先回答上面的问题把它记下；不记了就由 小李 或管理员 发「撤销」去掉；"
        "然后再开新桌。"
    ]
    assert piao.say("!clock +10s", "ajie: 退桌")[0].startswith(f"bot: 还不能退桌：{WAITS_PIAO}")
    assert piao.say("!clock +10s", "laowang: 退桌")[0].startswith("bot: 还不能退桌：")  # an admin too: drop it first
    assert piao.ledger.current_table(CHAT) is not None
    assert "bot: 第1局 记下：" in piao.say("xiaoli: 漂 0", "laowang: 漂 0", "ajie: 漂 0")


def test_the_recorder_or_an_admin_drops_the_waiting_win_by_undo(piao: Table) -> None:
    assert piao.say("ajie: 撤销") == [f"bot: {WAITS_PIAO}：要去掉它，请 小李 或管理员 发「撤销」。"]
    out = piao.say("!clock +10s", "xiaoli: 撤销")
    assert out[-1] == f"bot: 已撤销：第1局 小李 自摸（还在等 {WAITS_FOR}，没有记过账）。这一局接着打。"
    assert piao.say("laowang: 漂 1") == ["bot: 第1局 记下：老王 漂 1"]  # no question waits: 漂 told for the hand
    piao.say("!clock +1m", "xiaoli: 自摸 清一色", "!clock +10s")
    assert piao.say("laowang: 撤销")[-1].startswith("bot: 已撤销：第1局 小李 自摸")  # an admin's 撤销
    assert piao.hands() == 0


def test_a_loser_cannot_settle_away_a_win_looking_for_its_horse(db_url: str) -> None:
    table = opened(db_url, "买马 自摸买马")
    table.say("xiaoli: 自摸 清一色", "!clock +1m")
    out = table.say("ajie: 结算")
    assert out[0].startswith("bot: 还不能结算：第1局 小李 自摸 还在等 小李 的马牌，还没记账。")
    assert table.ledger.current_night(CHAT) is not None
    table.ledger.close()


def test_settle_names_what_the_unfinished_hand_holds(db_url: str) -> None:
    """Only a 漂 told in the hand: the refusal names it, not a kong or 亮倒 nobody made."""
    table = opened(db_url, "漂 选漂")
    table.say("xiaoli: 漂 1", "!clock +1m")
    out = table.say("laowang: 结算")
    assert out == [
        "bot: 还不能结算：第1局已经记了 小李 漂 1，还没打完。这一局有人胡就记下胡牌，没人胡就发「荒庄」结束它"
        "（记了的照算），记错了就发「撤销」去掉；然后再结算。"
    ]
    table.say("xiaoli: 自摸 清一色", "!clock +1m")  # waits for 老王's and 阿杰's 漂
    assert table.say("laowang: 结算")[0].startswith("bot: 还不能结算：第1局 小李 自摸 还在等 老王 的漂、阿杰 的漂")
    table.ledger.close()


def test_a_loser_cannot_cancel_the_waiting_win_by_its_button(piao: Table) -> None:
    cancel = piao.button("取消")
    out = piao.press_stale("ajie", cancel)
    assert [line for line in out if "只有 小李 或管理员 能取消这一局的记录（不记就没有这笔钱）。" in line], out
    assert piao.say("laowang: 结算")[0].startswith("bot: 还不能结算：第1局 小李 自摸")  # still waiting
    piao.press_stale("xiaoli", cancel)  # the winner may
    # no longer held: with nothing else played there is nothing to settle, and the empty table ends
    assert "没有可结算的" in "".join(piao.say("!clock +10s", "laowang: 结算"))


# ------------------------------------------------------------------------------------------- the 日切 hour

ROLLED = "bot: 已过日切（6点）：上一晚已结算封存，同一桌开始新的一晚，从第1局记起。"
#: from the table's opening at 20:00 to 05:55, then past the 日切 hour (06:00) to 06:05
TO_0555, PAST_CUTOFF = "!clock +594m", "!clock +10m"


@pytest.fixture
def late(db_url: str) -> Iterator[Table]:
    """A 选漂 table where 小李's self-draw at 05:55 waits for the 漂 of all three."""
    table = opened(db_url, "漂 选漂")
    table.say(TO_0555, "xiaoli: 自摸 清一色")
    yield table
    table.ledger.close()


def test_a_win_answered_after_the_cutoff_books_into_the_night_it_was_played_in(late: Table) -> None:
    """The win was played before 06:00 and waits for 漂: answered after it, it books at its table in its night
    (settled without it, that night's settlement would say everyone is square); the next hand rolls over."""
    piao = late
    night = piao.ledger.current_night(CHAT)
    assert night is not None
    out = piao.say(PAST_CUTOFF, "laowang: 漂 1", "xiaoli: 漂 0", "ajie: 漂 0")
    assert ROLLED not in out and "bot: 第1局 记下：" in out
    assert {line.name: line.amount for line in piao.ledger.night_balances(night.id).lines}["小李"] == 900
    assert ROLLED in piao.say("!clock +1m", "xiaoli: 漂 0")  # the next hand's first record: a new night
    current = piao.ledger.current_night(CHAT)
    assert current is not None and current.id != night.id


def test_a_record_after_the_cutoff_does_not_close_the_night_under_a_waiting_win(late: Table) -> None:
    """阿杰's kong after 06:00 used to roll the table over: the night settled without 小李's win, the win gone. Now
    a kong while the win waits is refused (it would change the win's hand), and nothing rolls over."""
    piao = late
    out = piao.say(PAST_CUTOFF, "ajie: 暗杠 3s")
    assert ROLLED not in out and out[0].startswith("bot: 没有记：第1局已经报了 小李 自摸，还在等")
    assert piao.say("!clock +10s", "laowang: 结算")[0].startswith(f"bot: 还不能结算：{WAITS_PIAO}")
    assert "bot: 第1局 记下：" in piao.say("laowang: 漂 1", "xiaoli: 漂 0", "ajie: 漂 0")
    assert piao.hands() == 1 and piao.balances()["小李"] > 0


# -------------------------------------------------------------------------------- a win told by taps

TAPPED = (
    "小李 正在点按钮记第1局 小李 胡，还没确认，还没记账。先点「确认」把它记下；不记了就由 小李 或管理员 点它的「取消」"
)


@pytest.fixture
def tapped(db_url: str) -> Iterator[Table]:
    """A plain table where 小李 told a self-draw by the buttons and has not pressed 确认 yet."""
    table = Table(db_url)
    table.say(*PLAYERS, OPEN, "!clock +1m")
    table.say(*(f"xiaoli: !press {label}" for label in ("胡", "小李", "自摸", "清一色", "预览 ▶")))
    yield table
    table.ledger.close()


def test_settle_and_open_are_refused_while_a_win_told_by_taps_waits(tapped: Table) -> None:
    assert tapped.say("laowang: 结算") == [f"bot: 还不能结算：{TAPPED}；然后再结算。"]
    assert tapped.say("!clock +10s", "ajie: 开桌 @xiaoli @dapeng 加我") == [
        f"bot: 还不能开新桌：{TAPPED}；然后再开新桌。"
    ]
    assert tapped.say("!clock +10s", "laowang: 退桌")[0].startswith("bot: 还不能退桌：小李 正在点按钮记第1局")
    assert tapped.ledger.current_night(CHAT) is not None
    assert "bot: 第1局 记下：" in "\n".join(tapped.say("xiaoli: !press ✅ 确认"))
    assert "第1晚结算" in "".join(tapped.say("!clock +10s", "laowang: 结算"))


def test_a_loser_cannot_cancel_a_win_told_by_taps(tapped: Table) -> None:
    """阿杰 (who would pay) tapping its 「取消」 threw 小李's half-told win away; only its starter, the player it
    names or an admin may, as for a waiting typed win."""
    out = tapped.say("ajie: !press 取消")
    assert out == ["bot: [提示] 只有 小李 或管理员 能取消这一局的记录（不记就没有这笔钱）。"], out
    assert "bot: 第1局 记下：" in "\n".join(tapped.say("xiaoli: !press ✅ 确认"))


def test_a_cancelled_tap_flow_no_longer_holds_the_table(tapped: Table) -> None:
    tapped.say("laowang: !press 取消")  # an admin
    assert "没有可结算的" in "".join(tapped.say("!clock +10s", "laowang: 结算"))  # nothing else was played


def test_a_win_told_by_taps_survives_the_cutoff(db_url: str) -> None:
    tapped = Table(db_url)
    tapped.say(*PLAYERS, OPEN, TO_0555)
    tapped.say(*(f"xiaoli: !press {label}" for label in ("胡", "小李", "自摸", "清一色", "预览 ▶")))
    out = tapped.say(PAST_CUTOFF, "ajie: 暗杠 3s", "!clock +10s", "xiaoli: !press ✅ 确认")
    assert ROLLED not in out and "bot: 第1局 记下：" in "\n".join(out)
    assert tapped.hands() == 1
    tapped.ledger.close()


def test_open_names_what_the_unfinished_hand_holds(db_url: str) -> None:
    table = opened(db_url, "漂 选漂")
    table.say("xiaoli: 漂 1", "!clock +10s", "ajie: 暗杠 3s", "!clock +10s")
    assert table.say("laowang: 开桌 @xiaoli @ajie") == [
        "bot: 没有开新桌：第1局已经记了 小李 漂 1；阿杰 暗杠 三条，还没打完。这一局有人胡就记下胡牌，没人胡就发「荒庄」"
        "结束它（记了的照算），记错了就发「撤销」去掉；然后再开桌。"
    ]
    table.ledger.close()


def test_a_record_left_waiting_for_hours_does_not_hold_the_next_evening(piao: Table) -> None:
    """A win left unanswered from 20:01 to the next evening: its hand takes no record while it waits (refused,
    naming it); dropped, the next evening's play is a new night."""
    night = piao.ledger.current_night(CHAT)
    assert night is not None
    assert piao.say("!clock +22h", "ajie: 暗杠 3s")[0].startswith("bot: 没有记：第1局已经报了 小李 自摸，还在等")
    assert ROLLED in piao.say("xiaoli: 撤销", "ajie: 暗杠 3s")


def test_a_win_told_after_the_cutoff_rolls_over_when_answered(piao: Table) -> None:
    """Told at 07:00 (the night's last hand long finished), the win is the first record of the new night's first
    hand, as a record booked at once would be: its answer rolls the table over."""
    piao.say("laowang: 漂 0", "xiaoli: 漂 0", "ajie: 漂 0", "!clock +11h", "xiaoli: 自摸 清一色")
    piao.say("laowang: 漂 1", "xiaoli: 漂 0")
    out = piao.say("ajie: 漂 0")
    assert out[:2] == [ROLLED, "bot: 第1局 记下："] and piao.hands() == 2


def test_a_record_meanwhile_is_refused_under_a_win_told_after_the_cutoff(piao: Table) -> None:
    """Told after the cut-off, the win waits; 阿杰's kong meanwhile once rolled the table over underneath it (that
    would drop the win with the old table), then was booked into the win's hand: now it is refused, and the win,
    answered, is the new night's first record, as one told alone is."""
    piao.say("laowang: 漂 0", "xiaoli: 漂 0", "ajie: 漂 0", "!clock +11h", "xiaoli: 自摸 清一色", "!clock +10s")
    out = piao.say("ajie: 暗杠 3s")
    assert ROLLED not in out and out[0].startswith("bot: 没有记：第2局已经报了 小李 自摸，还在等")
    piao.say("!clock +10s", "laowang: 漂 1", "xiaoli: 漂 0")
    assert piao.say("ajie: 漂 0")[:2] == [ROLLED, "bot: 第1局 记下："] and piao.hands() == 2
