"""Admin and money lines play-testers typed: fines said as 发红包 or by a plain name, payments waiting for the other
side in 未结, a fined member who never sat down in 结算, an admin's bare 违规记录, and 我也来 said alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

MEMBERS = ["!admin boss", "!join bob 大胖", "!join carol 小红", "!join dave 阿杰", "!join eve 老王"]


@pytest.fixture(autouse=True)
def _reports_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAIJU_REPORT_DIR", "reports")


@pytest.fixture
def chat(sqlite_url: str) -> Iterator[tuple[Console, Ledger]]:
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    console = Console(Bot(ledger, clock=clock), clock)
    for line in MEMBERS:
        console.feed(line)
    yield console, ledger
    ledger.close()


def said(console: Console, line: str) -> list[str]:
    """What the bot answers to one console line, without the `bot: ` prefix."""
    return [out.removeprefix("bot: ") for out in console.feed(line)]


def test_an_admins_red_packet_fine_names_the_member_by_mention(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    assert said(console, "boss: @bob 发红包") == ["💰 大胖 被罚发红包 5元（未说明原因），已记入红包池。记录 #1"]
    assert said(console, "boss: 罚他发红包 @bob") == ["💰 大胖 被罚发红包 5元（未说明原因），已记入红包池。记录 #2"]
    assert said(console, "boss: @bob 发红包 2 刷屏") == ["💰 大胖 被罚发红包 2元（刷屏），已记入红包池。记录 #3"]
    assert said(console, "carol: @bob 发红包") == []  # a member asking bob to treat the group: chat
    assert said(console, "carol: 罚他发红包 @bob") == ["只有群管理员可以这样做。"]
    assert said(console, "carol: @bob 发红包 谢谢老板") == []  # asked of bob, not a fine
    assert said(console, "boss: 红包池") == ["🧧 红包池：12元"]


def test_a_fine_naming_a_display_name_asks_for_the_mention_and_books_nothing(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    asked = "没有记：「大胖」要用 @ 提到（罚款不认名字），或回复 TA 的消息。这样写：罚款 @TA 5"
    assert said(console, "boss: 大胖 罚款 5") == [asked]
    assert said(console, "boss: 罚款 大胖 5") == [asked]
    assert said(console, "boss: 大胖 罚红包 5 刷屏") == [asked.replace("@TA 5", "@TA 5 刷屏")]
    assert said(console, "carol: 大胖 罚款 5") == ["只有群管理员可以这样做。"]
    assert said(console, "boss: 大胖 罚款") == []  # no amount: chat
    assert said(console, "boss: 红包池") == ["🧧 红包池是空的。"]
    assert said(console, "boss: 违规记录 @bob") == ["📋 大胖 没有违规记录。"]


def test_unpaid_lists_the_payments_waiting_for_the_other_side(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    for line in ("carol: 开桌 @dave @eve", "eve: 胡 清一色 自摸", "carol: 结算", "dave: 付 @eve 4"):
        console.feed(line)
    # 阿杰's own word: open until 老王's (shown as waiting)
    assert said(console, "carol: 未结") == ["还没付清：小红 欠 老王 4元、阿杰 欠 老王 4元（已付 4元，待 老王 确认）"]
    console.feed("eve: 收到 @carol 4")  # 老王's own word that 小红 paid: paid, waiting for 小红's nod
    assert said(console, "carol: 未结") == [
        "还没付清：阿杰 欠 老王 4元（已付 4元，待 老王 确认）",
        "等确认：小红 → 老王 4元（等 小红 确认）",
    ]
    console.feed("eve: 收到 @dave 4")
    console.feed("carol: 已付 @eve 4")
    assert said(console, "carol: 未结") == ["没有没结的账。"]


MONEY = re.compile(r"([+-]?\d+(?:\.\d+)?)元")


def _amount(text: str) -> float:
    found = MONEY.search(text)
    assert found is not None, text
    return float(found[1])


def test_a_fined_member_who_never_sat_down_is_no_player_row_and_the_transfers_square(
    chat: tuple[Console, Ledger],
) -> None:
    console, ledger = chat
    for line in ("carol: 开桌 @dave @eve", "boss: 罚款 @bob 3", "eve: 胡 清一色 自摸"):
        console.feed(line)
    post = said(console, "carol: 结算")
    caption = post[post.index("第1晚结算 · 2026-01-10 · 1局") + 1 : post.index("最少转账（3笔）：")]
    assert caption == [
        "老王 +8元｜胡1 自摸1 点炮0 杠0｜最大 清一色 → ×4",
        "小红 -4元｜胡0 自摸0 点炮0 杠0｜最大 —",
        "阿杰 -4元｜胡0 自摸0 点炮0 杠0｜最大 —",
        "红包池 +3元（罚款）",
        "大胖 -3元（没上桌：罚款 3元）",
    ]
    transfers = post[post.index("最少转账（3笔）：") + 1 : post.index("最少转账（3笔）：") + 4]
    flows: dict[str, float] = {}
    for line in transfers:
        payer, rest = line.split(" → ")
        payee = rest.rsplit(" ", 1)[0]
        flows[payer] = flows.get(payer, 0) - _amount(rest)
        flows[payee] = flows.get(payee, 0) + _amount(rest)
    nets = {line.split(" ", 1)[0]: _amount(line) for line in caption}
    assert flows == {name: net for name, net in nets.items() if net}  # each pays what they lost, gets what they won
    assert sum(nets.values()) == 0
    settlement = ledger.latest_settlement(console.chat_id)
    assert settlement is not None
    balance: dict[str, int] = {}
    for payment in settlement.payments:
        balance[payment.payer] = balance.get(payment.payer, 0) - payment.amount
        balance[payment.payee] = balance.get(payment.payee, 0) + payment.amount
    assert sum(balance.values()) == 0


def test_an_admins_bare_record_is_the_groups(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    console.feed("boss: 罚款 @bob 3 迟到")
    console.feed("boss: 警告 @carol 捣乱")
    assert said(console, "boss: 违规记录") == [
        "📋 本群的违规记录（共 2 条；看某人的：违规记录 @TA）：",
        "#2 01-10 20:00 小红｜警告｜捣乱｜管理员 boss",
        "#1 01-10 20:00 大胖｜罚红包 3元｜迟到｜管理员 boss",
    ]
    assert said(console, "bob: 违规记录") == [
        "📋 大胖 的违规记录（有效警告 0 次）：",
        "#1 01-10 20:00 罚红包 3元｜迟到｜管理员 boss",
    ]
    assert said(console, "boss: 违规记录 @carol") == [
        "📋 小红 的违规记录（有效警告 1 次）：",
        "#2 01-10 20:00 警告｜捣乱｜管理员 boss",
    ]
    assert said(console, "boss: 违规记录 @boss") == ["📋 boss 没有违规记录。"]


def test_an_admins_bare_record_lists_the_latest_twenty(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    for n in range(22):
        console.feed(f"boss: 罚款 @bob 1 第{n + 1}次")
    listed = said(console, "boss: 违规记录")
    assert listed[0] == "📋 本群最近的违规记录（共 22 条，这里是最近 20 条；看某人的：违规记录 @TA）："
    assert listed[1].startswith("#22 ") and listed[-1].startswith("#3 ") and len(listed) == 21


def test_asking_to_be_seated_says_how(chat: tuple[Console, Ledger]) -> None:
    console, _ = chat
    assert said(console, "bob: 我也来 加我一个") == [
        "现在没有开着的桌。卡五星一桌 3 个人，开桌时写上的人才坐下：自己开就发 开桌 @甲 @乙 加我；"
        "别人开桌时请 TA 写上 @你。"
    ]
    assert said(console, "bob: 加我 微信") == []
    console.feed("carol: 开桌 @dave @eve")
    assert said(console, "bob: 我也来 加我一个") == [
        "这桌已经坐满了：小红、阿杰、老王（卡五星一桌 3 个人），打到一半不能加人。要换你上：一局打完后，桌上的人或"
        "管理员发 开桌 @…（写上你）开新的一桌，这桌记下的局都算数。"
    ]
    assert said(console, "dave: 算我一个") == ["你已经在这桌了：小红、阿杰、老王。"]
    console.feed("carol: 开桌 @dave @bob 加我一个")  # and at 开桌 it seats the sender, as 加我 does
    assert said(console, "bob: 我也来") == ["你已经在这桌了：阿杰、大胖、小红。"]
