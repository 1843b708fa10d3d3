"""开桌 reads names as the group shows people: a member's name typed plain — whole, or the person a `名字-身份`
name names (`大鹏` for 大鹏-成员) — asks for the @ (money follows the seat, and a name is anyone's to take), never
seats a new look-alike guest; a name two accounts go by is refused, naming them; a name nobody has seats a guest
and says so. The dealer is read the same
way (`老王坐庄` by 老王-成员 himself), named in refusals as replies name people, and a full table is said to be
full."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import CHAT, Table

PLAYERS = ("!join laowang 老王", "!join xiaoli 小李", "!join ajie 阿杰", "!admin laowang")
SPOKEN = ("xiaoli: 名片", "ajie: 名片", "laowang: 名片", "!clock +10s")


@pytest.fixture
def group(db_url: str) -> Iterator[Table]:
    """老王, 小李, 阿杰 and 大鹏-成员 (the group rule's 名字-身份 name), each of whom has spoken."""
    table = Table(db_url)
    table.say(*PLAYERS, "!join dapeng 大鹏-成员", *SPOKEN, "dapeng: 名片", "!clock +10s")
    yield table
    table.ledger.close()


def seated(table: Table) -> list[tuple[str, str]]:
    """(seat name, account kind) of the open table, in play order."""
    opened = table.ledger.current_table(CHAT)
    assert opened is not None
    kinds = {m.id: m.kind for m in table.ledger.members(CHAT)}
    return [(seat.name, kinds[seat.member_id]) for seat in opened.seats]


@pytest.mark.parametrize("line", ["laowang: 开桌 @xiaoli 大鹏 庄 @laowang", "laowang: 开桌 @xiaoli 大鹏-成员"])
def test_a_members_name_asks_for_the_at_never_seats_a_look_alike_guest(group: Table, line: str) -> None:
    """`大鹏` beside the member 大鹏-成员 seated a new guest 大鹏 (his money on an account he cannot reach). Money
    follows the seat, so a member is seated by the @ Telegram ties to them, never by a name anyone can take."""
    out = group.say(line)
    name = line.split()[3]
    assert out == [
        f"bot: 「{name}」是群成员 大鹏-成员 的名字：请用 @ 提到 TA（输入 @ 后从列表里点选），账才记在 TA 本人名下；"
        "客人请换个不同的名字。"
    ]
    assert group.ledger.current_table(CHAT) is None
    assert not [m for m in group.ledger.members(CHAT) if m.kind == "guest"]


def test_the_senders_own_name_seats_them(group: Table) -> None:
    group.say("ajie: 开桌 @xiaoli @laowang 阿杰")
    assert seated(group) == [("小李", "member"), ("老王", "member"), ("阿杰", "member")]


def test_a_name_nobody_has_seats_a_guest_and_says_so(group: Table) -> None:
    out = group.say("laowang: 开桌 @xiaoli 赵六 庄 @laowang")
    assert out[-2] == "bot: 赵六 不是群成员：作为客人入座，账记在这个名字上（群成员请用 @ 点选）。"
    assert seated(group)[2] == ("赵六", "guest")


def test_a_name_two_members_go_by_is_refused_naming_both(group: Table) -> None:
    group.say("!join imp 大鹏", "imp: 名片", "!clock +10s")
    out = group.say("laowang: 开桌 @xiaoli 大鹏")
    assert out == [
        "bot: 「大鹏」是群成员的名字，不止一位（大鹏-成员、大鹏）：请用 @ 点选是哪一位（输入 @ 后从列表里点选）。"
    ]
    assert group.ledger.current_table(CHAT) is None


def test_a_guest_seated_under_a_members_name_is_asked_about(db_url: str) -> None:
    """大鹏 seated as a guest before the bot knew 大鹏-成员 (who joined, or first spoke, after): typed again, it could
    be either, and the way to join them is said."""
    table = Table(db_url)
    table.say(*PLAYERS, *SPOKEN, "laowang: 开桌 @xiaoli 大鹏", "!clock +10s", "!join dapeng 大鹏-成员", "dapeng: 名片")
    out = table.say("!clock +10s", "laowang: 开桌 @xiaoli 大鹏")
    assert out[0].startswith("bot: 「大鹏」既是群成员 大鹏-成员 的名字，又是客人 大鹏 的名字：")
    assert "关联 大鹏 @TA" in out[0]
    table.ledger.close()


def test_the_sender_named_as_dealer_by_the_person_part_of_their_name(db_url: str) -> None:
    table = Table(db_url)
    table.say("!join laowang 老王-成员", "!join xiaoli 小李", "!join ajie 阿杰", *SPOKEN)
    for line in ("开桌 @xiaoli @ajie 老王坐庄", "开桌 @xiaoli @ajie 我坐庄", "开桌 @xiaoli @ajie 我庄"):
        out = table.say(f"laowang: {line}", "!clock +10s")
        assert "bot: 第1局，庄家 老王-成员（指定）" in out, line
        assert seated(table)[0] == ("老王-成员", "member")
    table.ledger.close()


def test_a_dealer_at_a_full_table_is_named_and_the_table_said_full(group: Table) -> None:
    out = group.say("laowang: 开桌 @xiaoli @ajie 赵六 庄 @laowang")
    assert out == [
        "bot: 庄家 老王 不在这桌上：卡五星一桌 3 个人，已经写满了（小李、阿杰、赵六）。要 老王 坐庄，"
        "就在座位里写上 TA、少写一位；或者从这几位里定庄。"
    ]
    assert group.say("!clock +10s", "laowang: 开桌 @xiaoli @ajie @dapeng 老王坐庄")[0].startswith(
        "bot: 庄家 老王 不在这桌上：卡五星一桌 3 个人，已经写满了（小李、阿杰、大鹏-成员）。"
    )
    assert group.ledger.current_table(CHAT) is None
