"""Every amount, count and length a member can type has a bound (docs/security.md lists them): past it, a clear
refusal in the group's language and nothing changes — no money, no setting, no account. SQLite and PostgreSQL."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from bot.core import Bot, Incoming, ManualClock, Sender, SendText
from ledger.moderation import Moderation
from ledger.service import Ledger

CHAT = -1001234500000
BOSS = Sender(1, "群主", username="boss")
A, B, C = (Sender(10 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
_ids = count(1)


def say(bot: Bot, sender: Sender, text: str) -> str:
    message_id = next(_ids)
    incoming = Incoming(
        CHAT, message_id, sender, text, bot.clock.now(), source=f"t:{CHAT}:{message_id}", owner_id=BOSS.user_id
    )
    return "\n".join(e.text for e in bot.handle_message(incoming).effects if isinstance(e, SendText))


@pytest.fixture
def bot(ledger: Ledger) -> Bot:
    bot = Bot(ledger, clock=ManualClock())
    for person in (BOSS, A, B, C):
        say(bot, person, "来了")
    return bot


def snapshot(ledger: Ledger) -> tuple[Any, ...]:
    """Everything a refused line must leave as it was."""
    moderation = Moderation(ledger, ledger.engine)
    return (
        ledger.balances(CHAT).lines,
        ledger.group(CHAT),
        ledger.members(CHAT),
        moderation.settings(CHAT),
        moderation.rules_text(CHAT).text,
        ledger.current_table(CHAT),
        ledger.history(CHAT, 50),
    )


REFUSED = [
    ("设置 底金 10000.01", "可选：≤ 10000元"),
    ("设置 货币 一二三四五六七八九", "最多 8 个字"),
    ("罚款 @xiaoli 10000.01", "罚款最多 10000元"),
    ("罚款 @xiaoli 999999999", "罚款最多 10000元"),
    ("发红包池 @xiaoli 10001", "每人领的红包最多 10000元"),
    ("发红包池 " + " ".join(f"@p{n}" for n in range(51)), "一次最多发给 50 人"),
    ("发红包池 " + " ".join(["@xiaoli"] * 51), "「xiaoli」写了两次"),
    ("群管设置 fine_amount 10001", "罚款最多 10000元"),
    ("群管设置 fine_amount 0", "罚款金额要在 0.01元 到 10000元 之间"),
    ("群管设置 fine_amount 0元", "罚款金额要在 0.01元 到 10000元 之间"),
    ("群管设置 namecard_example " + "刘" * 65, "最多 64 个字"),
    ("群管设置 ad_keywords " + "广" * 33, "每项最多 32 个字"),
    ("群管设置 ad_keywords " + " ".join(f"词{n}" for n in range(101)), "最多 100 项"),
    ("群管设置 flood_max_messages 1001", "1 到 1000"),
    ("修改群规 " + "规" * 4001, "最多 4000 字"),
    ("撤销处罚 ²²", "本群没有编号为 22 的记录"),
    ("撤销处罚 " + "9" * 20, "不是记录编号"),
    ("历史 51", "1 到 50"),
    ("名片 " + "名" * 17, "名片最多 16 个字"),
    ("开桌 客1 客2 客3 客4 客5", "多了 客4"),
]


@pytest.mark.parametrize(("line", "reply"), REFUSED, ids=[line[:24] for line, _ in REFUSED])
def test_past_its_bound_a_line_is_refused_and_changes_nothing(ledger: Ledger, bot: Bot, line: str, reply: str) -> None:
    before = snapshot(ledger)
    answer = say(bot, BOSS, line)
    assert reply in answer, answer
    assert snapshot(ledger) == before


@pytest.mark.parametrize(
    "line",
    [
        "胡 " + "laowang" * 200,  # a seat name glued a thousand characters long
        "胡 " + " ".join(["清一色"] * 51),
        "胡 " + "@laowang" * 600,
    ],
    ids=["glued", "words", "mentions"],
)
def test_a_record_too_long_to_read_is_refused_not_a_crash(ledger: Ledger, bot: Bot, line: str) -> None:
    say(bot, A, "开桌 @ajie @xiaoli @laowang")
    before = snapshot(ledger)
    answer = say(bot, A, line)
    assert "太长" in answer or "看不懂" in answer, answer
    assert snapshot(ledger) == before


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("设置 底金 10000", "底金 10000元"),
        ("罚款 @xiaoli 10000", "被罚发红包 10000元"),
        ("群管设置 namecard_example " + "刘" * 64, "已设置"),
        ("名片 " + "名" * 16, "在账上叫"),
    ],
)
def test_at_its_bound_a_line_is_accepted(bot: Bot, line: str, reply: str) -> None:
    assert reply in say(bot, BOSS, line)
