"""Around a record that waits — a win waiting for its 漂/马, a 胡 told by the buttons waiting for its 「确认」 — no
other way of telling the hand books around it: a win typed while the buttons are half-pressed (booked, it ended
the hand and the taps' 「确认」 expired unbooked), a second winner chosen by the buttons, an edit of an earlier
message into the waiting hand (a kong edited into a win dropped the waiting win unsaid), a guess 「是不是」 offered
for a line that could only be refused at its tap. Each is refused naming what waits, and what waits books. On
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

PLAYERS = ("!join ajie 阿杰", "!join xiaoli 小李", "!join laowang 老王", "!join boss 老板", "!admin boss")
OPEN = "ajie: 开桌 @xiaoli @laowang 我坐庄"
ZERO = {"阿杰": 0, "小李": 0, "老王": 0, "老板": 0}
TAPPING = (
    "bot: 没有记：小李 正在点按钮记第1局 小李 胡，还没确认，还没记账，这一条会改了这一局。那个胡没错就先点完按钮、"
    "点「确认」把它记下；那个胡记错了，或这一条在它之前（胡之前的杠、亮倒），由 小李 或管理员 点它的「取消」，"
    "再按先后记。"
)
HORSE_WAITS = "第2局已经报了 小李 自摸，还在等 小李 的马牌，还没记账，这一条会改了这一局。"


@pytest.fixture
def plain(db_url: str) -> Iterator[Table]:
    table = Table(db_url)
    table.say(*PLAYERS, OPEN)
    yield table
    table.ledger.close()


@pytest.fixture
def horse(db_url: str) -> Iterator[Table]:
    """A 买马 table whose first hand 阿杰 won on 老王's discard (the line he may edit later)."""
    table = Table(db_url)
    table.say(*PLAYERS, "boss: 设置 买马 自摸买马", OPEN, "ajie: 胡 七对 点 @laowang")
    yield table
    table.ledger.close()


def test_a_win_typed_while_a_win_is_told_by_the_buttons_is_refused_and_the_buttons_book(plain: Table) -> None:
    plain.say("xiaoli: 胡", "xiaoli: !press 小李")
    assert plain.say("laowang: 胡 七对 点 @ajie") == [TAPPING]
    assert plain.say("laowang: 暗杠 3s") == [TAPPING]
    assert plain.hands() == 0
    plain.say("laowang: 胡")  # a second 胡 by the buttons: refused when its winner is chosen, not at 「确认」
    assert plain.say("laowang: !press 老王") == [f"bot: [提示] {TAPPING.removeprefix('bot: ')}"]
    out = plain.say("xiaoli: !press 自摸", "xiaoli: !press 清一色", "xiaoli: !press 预览 ▶", "xiaoli: !press ✅ 确认")
    assert "bot: 小李 自摸：清一色×4 → ×4" in out, out
    assert plain.balances() == {**ZERO, "阿杰": -400, "小李": 800, "老王": -400} and plain.hands() == 1


def test_a_kong_told_by_the_buttons_holds_the_hand_against_a_win_only(plain: Table) -> None:
    plain.say("laowang: 我杠了")  # the sender's kong: its player chosen, so it holds the hand
    assert plain.say("xiaoli: 胡 清一色 自摸")[0].startswith(
        "bot: 没有记：老王 正在点按钮记第1局 老王 的杠，还没确认，还没记账；这一条会结束这一局，杠就记不上了。"
    )
    assert plain.say("xiaoli: 暗杠 5s")[0] == "bot: 第1局 记下：小李 暗杠 五条"  # another kong is no ending
    plain.say("laowang: !press 暗杠", "laowang: !press ✅ 确认")
    assert "bot: 第1局 记下：" in plain.say("xiaoli: 胡 清一色 自摸")
    assert plain.hands() == 1


def test_the_buttons_answered_with_a_piao_typed_by_another_player(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*PLAYERS, "boss: 设置 漂 选漂", OPEN, "xiaoli: 胡", "xiaoli: !press 小李")
        assert table.say("laowang: 漂 2")[0] == "bot: 第1局 记下：老王 漂 2"  # what the buttons ask, told: counted
        table.say("xiaoli: !press 自摸", "xiaoli: !press 清一色", "xiaoli: !press 预览 ▶")
        table.say("ajie: !press 0", "xiaoli: !press 0")  # 阿杰's and 小李's, each their own; 老王's is told
        assert "bot: 小李 自摸：清一色×4 → ×4" in table.say("xiaoli: !press ✅ 确认")
        assert table.balances() == {**ZERO, "阿杰": -400, "小李": 1000, "老王": -600}
    finally:
        table.ledger.close()


def test_an_edit_into_the_hand_a_win_waits_in_is_refused_and_the_win_books(horse: Table) -> None:
    horse.say("laowang: 暗杠 3p")
    kong = horse.console.line_number
    horse.say("xiaoli: 胡 清一色 自摸")
    refused = f"bot: 没有按改后的消息重记（原来记的照旧）：{HORSE_WAITS}"
    assert horse.say(f"laowang: !edit {kong} 胡 七对 点 @ajie")[0].startswith(refused)
    assert horse.say(f"laowang: !edit {kong} 暗杠 4p")[0].startswith(refused)
    out = horse.say("xiaoli: 买马 7s")
    assert "bot: 买马 七条（7）：阿杰→小李 7元、老王→小李 7元" in out, out
    # 阿杰 +4 -2 -11, 小李 -2 +22, 老王 -4 +4 -11: the kong of 三筒 stands, the waiting win booked
    assert horse.balances() == {**ZERO, "阿杰": -900, "小李": 2000, "老王": -1100} and horse.hands() == 2


def test_an_edit_of_an_earlier_hand_books_there_beside_a_waiting_win(horse: Table) -> None:
    first = 8  # 阿杰's win of hand 1 (the fixture's lines: five joins, 设置, 开桌, the win)
    horse.say("!clock +3m", "xiaoli: 胡 清一色 自摸")  # not told within the double-entry window of 阿杰's
    asks = horse.say(f"ajie: !edit {first} 胡 七对 自摸")  # a self-draw needs its horse: two questions would wait
    assert asks == [
        "bot: 没有按改后的消息重记第1局（原来记的照旧）：改了还要报一些东西，可第2局 小李 自摸 还在等 小李 的马牌，"
        "还没记账。先回答上面的问题把它记下，再改一次这条消息；或者把要报的写进这条消息里（例如 买马 7s、坎2）。"
    ]
    assert horse.say(f"ajie: !edit {first} 胡 清一色 点 @laowang")[0] == "bot: 第1局 按改后的消息重记（原记录作废）："
    assert "bot: 第2局 记下：" in horse.say("xiaoli: 买马 7s")
    assert horse.balances() == {**ZERO, "阿杰": -700, "小李": 2200, "老王": -1500} and horse.hands() == 2


def test_an_edit_asked_about_names_its_own_hand_and_holds_the_next(horse: Table) -> None:
    horse.say("laowang: 暗杠 3p")
    asked = horse.say("ajie: !edit 8 胡 七对 自摸")
    assert asked[0] == "bot: 第1局 阿杰 自摸：本桌规则还要报这些才能记账", asked
    assert horse.say("xiaoli: 胡 清一色 自摸") == [
        "bot: 没有记：第1局改后的记录（阿杰 自摸）还在等 阿杰 的马牌，还没改好。先回答上面的问题，再记这一条；"
        "不改了就由 阿杰 或管理员 发「撤销」去掉它（第1局原来记的照旧）。"
    ]
    assert horse.say("ajie: 买马 5s")[0] == "bot: 第1局 按改后的消息重记（原记录作废）："


def test_no_guess_is_offered_for_a_line_a_waiting_win_refuses_nor_the_win_told_again(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*PLAYERS, "boss: 设置 漂 选漂", OPEN, "xiaoli: 胡 清一色 自摸")
        for line in ("laowang: 胡 清一涩 点 @ajie", "laowang: 自摸", "laowang: 七对 自摸 4块一家", "laowang: 我胡了"):
            out = table.say(line)
            assert len(out) == 1 and out[0].startswith("bot: 没有记：第1局已经报了 小李 自摸，还在等"), (line, out)
        # the waiting win told again, by someone else: not a change of the hand, told so
        assert table.say("ajie: 小李 自摸 清一色") == [
            "bot: 第1局 小李 自摸 已经报了，不用再报：还在等 阿杰 的漂、小李 的漂、老王 的漂，回答上面的问题就记下了。"
        ]
        out = table.say("ajie: 漂 0", "xiaoli: 漂 0", "laowang: 漂 0")
        assert "bot: 小李 自摸：清一色×4 → ×4" in out, out
    finally:
        table.ledger.close()
