"""Names that would pass for someone else's (a play-test): a Telegram name spelled as another member's @username
(`wangge` beside the member @wangge) and a traditional spelling of a member's name (`阿傑` beside 阿杰) show numbered
(`wangge#2`, `阿傑#2`) in the seats, the record replies and 最少转账, so nobody pays or is paid as the member they
imitate; a member's own @username as their name is theirs. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.accounts import reads_as
from ledger.errors import LedgerError
from tests.bot.test_recording_fixes import CHAT, Table


@pytest.fixture
def group(db_url: str) -> Iterator[Table]:
    table = Table(db_url)
    yield table
    table.ledger.close()


def test_a_telegram_name_spelled_as_another_members_username_shows_numbered(group: Table) -> None:
    group.say("!join wangge 王哥", "wangge: 在吗", "!join fake wangge", "fake: 嗨", "!join ajie 阿杰", "ajie: 在")
    seats = group.say("ajie: 开桌 @ajie @fake @wangge")
    assert "bot: 座位：阿杰、wangge#2、王哥" in seats, seats
    group.say("!clock +3m")
    booked = group.say("ajie: 胡 清一色 自摸")
    assert "bot: wangge#2 -4元（本晚 -4元）" in booked and "bot: 王哥 -4元（本晚 -4元）" in booked, booked
    group.say("!clock +3m")
    settled = group.say("ajie: 结算")
    assert "bot: wangge#2 → 阿杰 4元" in settled and not any(line.startswith("bot: wangge →") for line in settled)


def test_a_members_own_username_as_their_name_is_theirs(group: Table) -> None:
    group.say("!join tom tom", "tom: hi", "!join ben ben", "ben: hi", "!join amy amy", "amy: hi")
    assert "bot: 座位：tom、ben、amy" in group.say("tom: 开桌 @tom @ben @amy")


def test_a_traditional_spelling_of_a_members_name_shows_numbered_and_is_charged_by_neither(group: Table) -> None:
    assert reads_as("阿傑") == reads_as("阿杰") and reads_as("龍哥") == reads_as("龙哥")
    group.say("!join ajie 阿杰", "ajie: 在", "!join fake 阿傑", "fake: 在", "!join xiaoli 小李", "!join laowang 老王")
    assert "bot: 座位：小李、老王、阿傑#2" in group.say("xiaoli: 开桌 @xiaoli @laowang @fake")
    group.say("!clock +3m")
    for typed in ("阿杰", "阿傑"):  # the seat is 阿傑#2: neither spelling reaches it, nor the real 阿杰 (not seated)
        assert group.say(f"xiaoli: 胡 七对 点 {typed}")[0].startswith(f"bot: 「{typed}」不是这桌的人")
    assert group.hands() == 0


def test_the_real_owner_takes_their_own_username_as_mingpian_beside_an_impostor(group: Table) -> None:
    """@wangge's `名片 wangge` while `fake` (Telegram name wangge) shows as wangge#2: booked, and the impostor keeps
    the number; the impostor's own `名片 wangge` is still refused."""
    group.say("!join wangge 王哥", "wangge: 在吗", "!join fake wangge", "fake: 嗨", "!join ajie 阿杰", "ajie: 在")
    assert group.say("wangge: 名片 wangge") == ["bot: 好的，王哥 在账上叫「wangge」。"]
    group.say("!clock +10s")
    assert group.say("fake: 名片 wangge") == ["bot: 「wangge」已经是 wangge 在用的名字了。"]
    group.say("!clock +10s")
    assert "bot: 座位：阿杰、wangge#2、wangge" in group.say("ajie: 开桌 @ajie @fake @wangge")
    group.say("!clock +3m")
    booked = group.say("ajie: 胡 清一色 自摸")
    assert "bot: wangge#2 -4元（本晚 -4元）" in booked and "bot: wangge -4元（本晚 -4元）" in booked, booked


def test_the_ledger_lets_a_member_take_their_own_username_and_nobody_elses(group: Table) -> None:
    group.say("!join wangge 王哥", "wangge: 在吗", "!join fake wangge", "fake: 嗨")
    members = {m.username: m for m in group.ledger.members(CHAT)}
    assert group.ledger.set_alias(members["wangge"].id, "WangGe", source="t:1", by=None).alias == "WangGe"
    with pytest.raises(LedgerError):
        group.ledger.set_alias(members["fake"].id, "wangge", source="t:2", by=None)


def test_a_member_is_known_from_joining_so_an_impostor_who_speaks_first_gets_the_number(group: Table) -> None:
    """小李 joined first, the impostor (same display name) joined later but spoke first: the clean name stays the
    real member's, in the seats, the booking and 最少转账 (a play-test: the real one was 小李-成员#2)."""
    group.say("!join wang 老王-成员", "!join li 小李-成员", "!join jie 阿杰-成员", "!join evil 小李-成员")
    group.say("evil: 哈哈")
    assert "bot: 座位：老王-成员、小李-成员、阿杰-成员" in group.say("li: 开桌 @wang @li @jie")
    group.say("!clock +3m")
    assert "bot: 小李-成员 +8元（本晚 +8元）" in group.say("li: 胡 清一色 自摸")
    group.say("!clock +3m")
    settled = group.say("wang: 结算")
    assert "bot: 老王-成员 → 小李-成员 4元" in settled and not any("#2" in line for line in settled), settled


def test_members_who_joined_but_never_spoke_are_members_not_guests(group: Table) -> None:
    """`开桌 老王 小李 阿杰` by someone else: 老王 and 阿杰 joined without a word yet, so their names are members' and
    must be @-mentioned (never seated as guests whose winnings nobody can claim)."""
    group.say("!join wang 老王-成员", "!join li 小李-成员", "!join jie 阿杰-成员", "!join evil 小李-成员")
    group.say("evil: 余额")
    refused = group.say("evil: 开桌 老王 小李 阿杰")
    assert refused[0].startswith("bot: 「老王」是群成员 老王-成员 的名字：请用 @ 提到 TA"), refused
    assert group.hands() == 0 and "现在没有开着的牌桌" in group.say("!clock +20s", "evil: 牌桌")[-1]


def test_a_mingpian_with_a_dash_like_stroke_cannot_pass_for_a_members_name(group: Table) -> None:
    """`小李一成员` (the numeral 一 for the dash) and `小李—成员` (an em dash) read as 小李-成员: refused (a play-test
    had 名片 小李一成员 accepted beside the real 小李-成员); a name with 一 of its own stays apart from others."""
    assert reads_as("小李一成员") == reads_as("小李—成员") == reads_as("小李-成员")
    assert reads_as("王一") != reads_as("王二")
    group.say("!join li 小李-成员", "li: 在", "!join evil 黑子", "evil: 嗨", "!clock +10s")
    assert group.say("evil: 名片 小李一成员") == ["bot: 「小李一成员」已经是 小李-成员 在用的名字了。"]
    group.say("!clock +10s")
    assert group.say("evil: 名片 小李—成员") == ["bot: 「小李—成员」已经是 小李-成员 在用的名字了。"]
