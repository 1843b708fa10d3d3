"""Every reply names a member one way at a time — the ledger's name (`Ledger.names`: 老王 / 老王#2, a seated
player by their seat until the table ends), the group's accounts in the chat's language — and a settled night's
report shows what was settled."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from ledger.service import Ledger

Chat = Callable[[str], list[str]]


@pytest.fixture
def chat(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Chat]:
    """A console over the test's database: a script line in, the lines the bot printed out (`bot: ` cut off)."""
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path))
    clock = ManualClock()
    ledger = Ledger.open(db_url, upgrade=False, clock=clock.now)
    console = Console(Bot(ledger, clock=clock), clock)

    def feed(line: str) -> list[str]:
        return [out.removeprefix("bot: ") for out in console.feed(line)]

    yield feed
    ledger.close()


def test_a_name_card_set_at_the_table_waits_for_its_end_everywhere(chat: Chat) -> None:
    for line in ("!join jia 甲", "!join yi 乙", "!join bing 丙", "yi: 名片 老乙", "jia: 开桌 @jia @yi @bing 庄 @jia"):
        chat(line)
    renamed = chat("yi: 名片 小乙")
    assert renamed == ["好的，老乙 在账上叫「小乙」。", "这桌还没结束：结算或重新开桌前，牌桌和账上仍叫「老乙」。"]
    # 老乙 is still 乙 at the table: 甲 may not take it (a hand's reply and 余额 would mean two people by it)
    assert chat("jia: 名片 老乙") == ["“老乙”现在是别人在账上显示的名字（牌桌上的座位名在这桌结束前不变），请换一个。"]
    hand = chat("jia: 胡 清一色 点 老乙")
    assert "老乙 -4元（本晚 -4元）" in hand
    assert chat("yi: 余额")[1:] == ["甲　+4元 ｜ +4元 ｜ +4元", "丙　0 ｜ 0 ｜ 0", "老乙　-4元 ｜ -4元 ｜ -4元"]
    assert chat("yi: 历史")[1] == "第1局 甲 胡 老乙 点的炮：清一色×4 → ×4 ｜ 甲 +4元，老乙 -4元，丙 0"
    assert "老乙 → 甲 4元" in chat("jia: 明细")
    settled = chat("jia: 结算")  # the table ends: from here on 乙 is 小乙 everywhere, and 老乙 is free
    assert "小乙 → 甲 4元" in settled and not any("老乙" in line for line in settled)
    assert chat("jia: 名片 老乙") == ["好的，甲 在账上叫「老乙」。"]
    assert chat("yi: 余额")[1:] == ["老乙　+4元 ｜ +4元 ｜ +4元", "小乙　-4元 ｜ -4元 ｜ -4元"]  # 本晚: settled tonight
    # the hand of the table that ended names them as today's replies do, not by the seats it had
    assert chat("yi: 历史")[1] == "第1局 老乙 胡 小乙 点的炮：清一色×4 → ×4 ｜ 老乙 +4元，小乙 -4元，丙 0"


def test_an_edit_of_a_hand_of_a_table_since_ended_names_the_players_as_now(chat: Chat) -> None:
    """The hand was booked under the seats 甲 and 乙, which held until the table ended; the edit's reply names the
    players as 历史 shows that hand and as every other reply names them now: 阿甲 by his 名片, 老乙 by her seat at
    the open table — the patterns' line, 包胡, the changes and the cut alike, and no next hand of a table that ended."""
    for line in ("!join jia 甲", "!join yi 乙", "!join bing 丙", "!join ding 丁", "!admin jia", "jia: 设置 抽水 10%"):
        chat(line)
    chat("jia: 开桌 @jia @yi @bing 庄 @jia")
    chat("jia: 名片 阿甲")
    chat("yi: 名片 老乙")
    chat("jia: 亮倒")
    assert chat("jia: 胡 清一色 点 @yi")[1] == "甲 胡 乙 点的炮：清一色×4、亮倒×2 → ×8，包胡：乙 一人赔双倍"
    assert chat("yi: 开桌 @yi @bing @ding 庄 @yi")[:3:2] == [
        "上一桌（阿甲、老乙、丙）到此结束，记下的 1 局都算数。",
        "座位：老乙、丙、丁",
    ]
    assert chat("jia: !edit 胡 清一色 七对 点 @yi") == [
        "第1局 按改后的消息重记（原记录作废）：",
        "阿甲 胡 老乙 点的炮：清一色×4、七对×4、亮倒×2 → ×8（封顶前 ×32），包胡：老乙 一人赔双倍",
        "各家比原来：",
        "阿甲 0（本晚 +14.4元）",
        "老乙 0（本晚 -16元）",
        "丙 0（本晚 0）",
        "抽水：阿甲 1.6元（已记入台费）",
    ]
    shown = "阿甲 胡 老乙 点的炮：清一色×4、七对×4、亮倒×2 → ×8（封顶前 ×32），包胡：老乙 一人赔双倍"
    assert chat("yi: 历史")[1] == f"第1局 {shown} ｜ 阿甲 +14.4元，老乙 -16元，丙 0"
    # an edit at the open table names its seats, as ever
    chat("yi: 暗杠 7z")
    edited = ["第1局 按改后的消息重记：老乙 暗杠 发", "各家比原来：", "老乙 0（本晚 -12元）"]
    assert chat("yi: !edit 暗杠 6z")[:3] == edited


#: six members (the 够级 seats; 碰胡 seats the first four), 甲 an admin
GOUJI_SIX = ("!join jia 甲", "!join yi 乙", "!join bing 丙", "!join ding 丁", "!join wu 戊", "!join ji 己")
GOUJI_SIX += ("!admin jia",)


def test_an_edit_of_a_gouji_round_of_a_table_since_ended_names_the_players_as_now(chat: Chat) -> None:
    """As 卡五星's: the round was booked under the seat 乙, which held until the table ended; the edit's reply names
    乙 by the 名片 set meanwhile — places, who scored, the changes and the match score alike."""
    for line in (*GOUJI_SIX, "jia: 设置 游戏 够级", "jia: 开桌 @jia @yi @bing @ding @wu @ji", "yi: 名片 阿乙"):
        chat(line)
    assert chat("jia: 名次 甲 乙 丙 丁 戊 己")[0] == "第1局 够级：头科 甲、二科 乙、三科 丙、四科 丁、二落 戊、大落 己"
    assert chat("jia: 开桌 @jia @yi @bing @ding @wu @ji")[2] == "座位：甲、阿乙、丙、丁、戊、己"  # after 上一桌 … 结束
    assert chat("jia: !edit 11 名次 乙 甲 丙 丁 戊 己") == [
        "第1局 按改后的消息重记（原记录作废）：头科 阿乙、二科 甲、三科 丙、四科 丁、二落 戊、大落 己",
        "两边都没有正分，本局不计分。",
        "各家比原来：",
        "甲 -2元（本晚 0）",
        "阿乙 +2元（本晚 0）",
        "丙 -2元（本晚 0）",
        "丁 +2元（本晚 0）",
        "戊 -2元（本晚 0）",
        "己 +2元（本晚 0）",
        "比分：甲、丙、戊 0 ｜ 阿乙、丁、己 0",
    ]


def test_an_edit_of_a_penghu_record_of_a_table_since_ended_names_the_players_as_now(chat: Chat) -> None:
    """As 卡五星's: the 碰 was booked under the seat 乙; the edit's reply names 乙 as 小乙, the 名片 set meanwhile, and
    announces no next hand of a table that ended."""
    for line in (*GOUJI_SIX, "jia: 设置 游戏 碰胡", "jia: 开桌 @jia @yi @bing @ding 庄 @jia", "yi: 名片 小乙"):
        chat(line)
    assert chat("jia: 碰 点 @yi")[0] == "第1局 记下：甲 碰，点 乙（一人出）"
    chat("bing: 胡 点 @ding")
    assert chat("jia: 开桌 @jia @yi @bing @ding 庄 @jia")[2] == "座位：甲、小乙、丙、丁"  # after 上一桌 … 结束
    assert chat("jia: !edit 11 碰 点 @yi 摸") == ["「点」和「摸」只能写一个。"]
    assert chat("jia: !edit 11 碰 摸") == [
        "第1局 按改后的消息重记：甲 碰（每人出）",
        "各家比原来：",
        "甲 0（本晚 +3元）",
        "小乙 +2元（本晚 -1元）",
        "丙 -1元（本晚 +11元）",
        "丁 -1元（本晚 -13元）",
    ]


def test_two_members_with_one_display_name_are_told_apart_in_every_reply(chat: Chat) -> None:
    chat("!admin boss")
    assert chat("!join laowang 老王")[0].startswith("👋 老王，欢迎！")
    assert chat("!join eve 老王")[0].startswith("👋 老王#2，欢迎！")  # the newcomer greeting
    chat("!join xiaoli 小李")
    for line in ("laowang: hi", "eve: hi", "xiaoli: hi", "boss: hi"):
        chat(line)
    # 开桌: a player named twice, the dealer by the name the replies give him
    assert chat("xiaoli: 开桌 @eve @laowang @eve") == ["老王#2 写了两次：每人只能坐一个位子。"]
    opened = chat("xiaoli: 开桌 @xiaoli @laowang @eve 庄 老王#2")
    assert opened[1:3] == ["座位：小李、老王、老王#2", "第1局，庄家 老王#2（指定）"]
    # a seat refusal, and who recorded a record typed twice
    assert chat("boss: 胡 清一色 点 @boss") == ["boss 不在这桌上。"]
    chat("eve: 暗杠 7z")
    assert chat("laowang: 暗杠 @eve 7z")[0].startswith("老王#2 ")
    # 名片: shown, refused as someone's, set; 关联: a guest's record moved to a member
    assert chat("eve: 名片") == ["老王#2：群昵称「老王」，名片：（没设，账上用群昵称）"]
    assert chat("xiaoli: 名片 eve") == ["「eve」已经是 老王#2 在用的名字了。"]  # eve's @username
    chat("eve: 撤销")
    chat("boss: 开桌 @boss @xiaoli 老表")
    chat("boss: 结算")
    assert chat("boss: 关联 老表 @eve") == ["客人「老表」的账已并到 老王#2 名下。"]
    assert chat("eve: 名片 王二") == ["好的，老王#2 在账上叫「王二」。"]


def test_the_report_of_a_settled_night_shows_what_was_settled(chat: Chat) -> None:
    for line in ("a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算"):
        chat(line)
    for line in ("a: 开桌 @a @b @c 庄 @a", "a: 胡 清一色 点 @b"):
        chat(line)
    settled = chat("a: 结算")  # last night's debts to c are netted in (并账): b pays c 8元, not a 4元
    transfers = settled[settled.index("最少转账（1笔）：") : settled.index("[按钮] 明细")]
    assert transfers == ["最少转账（1笔）：", "b → c 8元", "（含之前没结的：a 欠 c 4元、b 欠 c 4元）"]
    report = chat("a: 战报")
    assert report[report.index("最少转账（1笔）：") :] == transfers
    # the 「明细 b→c」 button under the settlement explains that payment
    assert chat("a: !press 明细 b→c")[0] == "b → c 8元 的由来："


def test_an_english_groups_details_buttons_name_its_accounts_in_english(chat: Chat) -> None:
    for line in ("!admin a", "a: /config language en", "a: /open @a @b @c 庄 @a"):
        chat(line)
    for line in ("c: /hu 清一色 点 @a", "a: 罚款 @b 2"):
        chat(line)
    settled = chat("a: /settle")
    assert "b → Pot 2元" in settled and "[按钮] Details b→Pot" in settled
    assert not any("红包池" in line for line in settled)
    assert chat("a: !press Details b→Pot")[0] == "Where b → Pot 2元 comes from:"
    assert "Pot  +2元 | +2元 | +2元" in chat("a: /balance")  # tonight: the night just settled


def test_an_admin_pressing_for_a_player_is_named_as_every_reply_names_them(chat: Chat) -> None:
    for line in ("!join laowang 老王", "!join eve 老王", "!admin eve", "laowang: hi", "eve: hi"):
        chat(line)
    for line in ("a: 开桌 @a @b @laowang 庄 @a", "b: 胡 清一色 自摸", "a: 结算"):
        chat(line)
    pressed = chat("eve: !press a→b 已付")
    assert pressed[0].startswith("[提示] 记下付款：a → b 4元（管理员 老王#2 代 a 记")


def test_a_name_card_two_members_already_share_is_refused_by_whom(chat: Chat) -> None:
    """Two members whose display names are alike (老王, shown 老王#2) each ask for 名片 老王: refused naming the
    other, rather than the lookup's 「对应多人」 under 「没有记录」; a name of their own is taken."""
    chat("!join v1 老王")
    chat("!join e 老王")
    assert chat("e: 名片 老王") == ["「老王」已经是 老王 在用的名字了。"]
    assert chat("v1: 名片 老王") == ["「老王」已经是 老王#2 在用的名字了。"]
    chat("!join f 小王")
    assert chat("f: 名片 老王") == ["「老王」已经是 老王、老王#2 在用的名字了。"]
    assert chat("e: 名片 王二") == ["好的，老王#2 在账上叫「王二」。"]


def test_a_look_alike_telegram_name_never_takes_a_players_typed_name(chat: Chat) -> None:
    """An impostor named ⽼王 (a Kangxi radical) or 小李 with a zero-width space shows numbered everywhere, so a
    name typed at the table reaches the real player and a 名片 cannot borrow a member's name in the group rule's
    shape (play-test: `老王 自摸 清一色` booked the impostor's win)."""
    for line in ("!join laowang 老王", "!join xiaoli 小李", "!join hei ⽼王", "!join hei2 小李\u200b"):
        chat(line)
    assert "座位：老王、小李、⽼王#2" in chat("laowang: 开桌 @xiaoli @hei 庄 @laowang")
    won = chat("xiaoli: 老王 自摸 清一色")
    assert "老王 +8元（本晚 +8元）" in won and "⽼王#2 -4元（本晚 -4元）" in won
    assert chat("hei2: 名片 小李-成员") == ["「小李-成员」已经是 小李 在用的名字了。"]
    assert chat("hei2: 名片 阿杰#2") == ["没有记录：名片不能以 #数字 结尾（账本用 #2、#3 区分同名的人）"]
    balances = ["老王　+8元 ｜ +8元 ｜ +8元", "⽼王#2　-4元 ｜ -4元 ｜ -4元", "小李　-4元 ｜ -4元 ｜ -4元"]
    assert chat("hei2: 余额")[1:] == balances
