"""A flood is a flood whatever its shape: a command that changed nothing (`撤销` again while its question waits,
`付` of a debt there is none of, `撤销` and `算了` in turn) and chat sent as replies to the bot count like any line.
What a command booked never counts: a table's payments in a row, a record and its answer. Through the console and
the command layer, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from itertools import count

from bot.core import Bot, Incoming, ManualClock, Quoted, Sender, SendText
from ledger.service import Ledger
from tests.bot.test_recording_fixes import CHAT, Table
from tests.moderation.test_command_flood import pot, table

__all__ = ["table"]  # the fixture: a 卡五星 table of a, b, c, members eve and the admin boss

FLOOD = "违反群规（刷屏：10 秒内 6 条）"
REPEAT = "违反群规（重复刷屏：同一内容连发 3 次）"


def quick(table: Table, *lines: str, gap: str = "+1s") -> list[list[str]]:
    """Each line's replies, `gap` apart."""
    out = []
    for line in lines:
        out.append(table.say(line))
        table.say(f"!clock {gap}")
    return out


def test_undo_sent_again_and_again_while_its_question_waits_is_a_repeat(table: Table) -> None:
    table.say("a: 胡 清一色 自摸", "!clock +3m")
    out = quick(table, *["a: 撤销"] * 6)
    assert "确定吗" in out[0][0] and "上面已经在问了" in out[1][0]
    assert any(f"阿杰-成员 {REPEAT}" in line for line in out[2]), out[2]
    assert out[3:] == [[], [], []]  # the burst's further lines: no answer
    assert pot(table) == 500
    assert table.hands() == 1  # nothing was undone


def test_undo_and_cancel_in_turn_is_a_flood(table: Table) -> None:
    table.say("a: 胡 清一色 自摸", "!clock +3m")
    said = [line for _ in range(6) for line in table.say("a: 撤销", "a: 算了", "!clock +1s")]
    assert any(f"阿杰-成员 {FLOOD}" in line for line in said), said
    assert pot(table) == 500 and table.hands() == 1


def test_payments_refused_six_times_in_ten_seconds_are_a_flood(table: Table) -> None:
    out = quick(table, *(f"eve: 付 @a {n}" for n in range(1, 8)))
    assert all("没有记" in replies[0] for replies in out[:5])
    assert any(f"小红-成员 {FLOOD}" in line for line in out[5]), out[5]
    assert out[6] == [] and pot(table) == 500


def test_a_refused_command_repeats_only_within_the_window(table: Table) -> None:
    """`付 @a 4` refused after each hand is no repeat; three in ten seconds are."""
    for replies in quick(table, *["eve: 付 @a 4"] * 3, gap="+30s"):
        assert "没有记" in replies[0]
    assert pot(table) == 0
    out = quick(table, *["eve: 付 @a 4"] * 3)
    assert any(f"小红-成员 {REPEAT}" in line for line in out[2]) and pot(table) == 500


def test_a_non_admins_settings_refused_count(table: Table) -> None:
    out = quick(table, *(f"eve: 设置 底金 {n}" for n in range(1, 7)))
    assert all("只有群管理员" in replies[0] for replies in out[:5])
    assert any(f"小红-成员 {FLOOD}" in line for line in out[5]), out[5]


def test_payments_booked_in_a_row_and_a_record_with_its_answer_are_never_fined(table: Table) -> None:
    table.say("a: 胡 清一色 自摸", "!clock +3m", "a: 结算", "!clock +1m")
    # 小李 owes 阿杰 4元: pays it in six parts, six bookings in six seconds
    out = quick(table, *(f"b: 付 @a 0.{n}" for n in range(1, 7)))
    assert all(replies and "违反群规" not in replies[0] for replies in out), out
    assert pot(table) == 0
    # a record held back as a double entry, then its typed answer, then the next record: one counted line
    table.say("!clock +1m", "a: 开桌 @a @b @c 庄 @a", "!clock +3m")
    out = [table.say(line) for line in ("a: 暗杠 3s", "a: 暗杠 3s", "a: 对", "a: 亮倒", "a: 撤销", "a: 算了")]
    assert not any("违反群规" in line for replies in out for line in replies), out
    assert pot(table) == 0


BOB = Sender(42, "小明-成员", username="bob")
BOT = Sender(99, "paiju", username="paiju_bot", is_bot=True)
_ids = count(1)


def say(bot: Bot, text: str, *, reply_to: Quoted | None = None) -> str:
    message_id = next(_ids)
    incoming = Incoming(
        chat_id=CHAT,
        message_id=message_id,
        sender=BOB,
        text=text,
        date=bot.clock.now(),
        source=f"tg:{CHAT}:{message_id}",
        reply_to=reply_to,
        admin_ids=frozenset({1}),
    )
    return "\n".join(e.text for e in bot.handle_message(incoming).effects if isinstance(e, SendText))


def test_chat_sent_as_replies_to_the_bot_is_a_flood(sqlite_ledger: Ledger) -> None:
    clock = ManualClock()
    bot = Bot(sqlite_ledger, clock=clock)
    answered = say(bot, "余额")
    assert answered
    replies = []
    for n in range(6):
        clock.advance(timedelta(seconds=1))
        replies.append(say(bot, f"哈哈{n}", reply_to=Quoted(1, BOT, answered)))
    assert all("违反群规" not in reply for reply in replies[:4])
    assert f"小明-成员 {FLOOD}" in replies[4], replies  # 余额 and five replies: six lines in ten seconds
    assert replies[5] == ""


def test_a_refused_record_retyped_is_warned_once_before_the_repeat_is_punished(table: Table) -> None:
    """A player retrying a refused record is told under the second refusal that a third is the rule's repeat (it
    was fined with no word before); a different line, or the same one outside the window, is not warned."""
    table.say("a: 暗杠 3s", "!clock +1m")
    out = quick(table, *["a: 胡 七对 自摸"] * 3, gap="+2s")
    assert out[0] == ["bot: 没有记录：阿杰-成员 这局杠过（三条），七对要门清：不能有杠"], out[0]
    assert out[1][-1] == "bot: （同一条已经发了 2 次：再发一次按群规算重复刷屏）", out[1]
    assert any(f"阿杰-成员 {REPEAT}" in line for line in out[2]), out[2]
    assert pot(table) == 500
    table.say("!clock +1m")
    out = quick(table, *["b: 付 @a 4"] * 2, gap="+30s")  # outside the window: no repeat, no warning
    assert not any("再发一次" in line for replies in out for line in replies), out
