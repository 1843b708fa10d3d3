"""Moderation lines that named the same person again (a play-test): a second 请出 of someone already out records
nothing; `罚款 @li @li 5` is one fine of 小李; a payout naming one member 1000 times is refused by name, not as too
many people."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ledger.moderation import Moderation
from tests.bot.test_recording_fixes import CHAT, Table


@pytest.fixture
def group(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say("!join li 小李-成员", "!join eve Eve", "eve: 你好", "!admin boss")
    yield table
    table.ledger.close()


def _removals(table: Table) -> int:
    return len(Moderation(table.ledger, table.ledger.engine).actions(CHAT, kinds=("removal", "ban")))


def test_a_second_removal_of_someone_out_records_nothing(group: Table) -> None:
    assert group.say("boss: 请出 @eve 刷屏")[0].startswith("bot: 🚪 Eve 被请出本群（刷屏）")
    group.say("!clock +4s")
    assert group.say("boss: 请出 @eve 刷屏") == ["bot: Eve 已经不在群里了（已被请出群）：没有再处理，也没有记录。"]
    assert _removals(group) == 1
    group.say("!clock +4s")
    assert group.say("boss: 封禁 @eve 刷屏")[0].startswith("bot: ⛔ Eve 被封禁")  # a ban keeps them out: it stands
    group.say("!clock +4s")
    assert group.say("boss: 封禁 @eve 刷屏") == ["bot: Eve 已经不在群里了（已被封禁）：没有再处理，也没有记录。"]
    assert _removals(group) == 2


def test_a_member_back_in_the_group_may_be_removed_again(group: Table) -> None:
    group.say("boss: 请出 @eve 刷屏", "!clock +4s", "!join eve Eve", "eve: 我回来了", "!clock +4s")
    assert group.say("boss: 请出 @eve 又刷屏")[0].startswith("bot: 🚪 Eve 被请出本群（又刷屏）")
    assert _removals(group) == 2


def test_one_member_mentioned_again_and_again_is_one_member(group: Table) -> None:
    assert group.say("boss: 罚款 " + "@li " * 1000 + "5")[0].startswith(
        "bot: 💰 小李-成员 被罚发红包 5元（未说明原因）"
    )
    group.say("!clock +4s")
    assert group.say("boss: 发红包池 " + "@li " * 1000) == ["bot: 「小李-成员」写了两次：每人只写一次。"]
    group.say("!clock +4s")
    assert group.say("boss: 罚款 @li @eve 5") == ["bot: 一次只处理一位成员，@eve 请另发一条。"]
