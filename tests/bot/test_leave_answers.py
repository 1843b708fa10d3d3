"""Typed answers to a 退桌 question from a player it is not for (a play-test): `同意` from a loser is told whose
agreement counts (it was chat); `不同意` from a loser keeps the table as before, and says so and how to dispute the
record instead (不同意 is also the dispute word)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

NIGHT = ("eve: 开桌 @eve @li @jie", "!clock +4s", "eve: 胡 双龙七对 自摸", "!clock +4s", "li: 退桌", "!clock +4s")


@pytest.fixture
def group(sqlite_url: str) -> Iterator[Table]:
    table = Table(sqlite_url)
    table.say("!join eve Eve", "!join li 小李-成员", "!join jie 阿杰-成员", "!admin boss", *NIGHT)
    yield table
    table.ledger.close()


def test_agree_from_a_loser_says_whose_agreement_counts(group: Table) -> None:
    assert group.say("jie: 同意") == [
        "bot: 你的「同意」不算数：作废这桌要 Eve 同意（或管理员），作废退回的是赢家的钱。"
    ]
    assert group.hands() == 1


def test_disagree_from_a_loser_says_it_kept_the_table_and_how_to_dispute(group: Table) -> None:
    assert group.say("jie: 不同意") == [
        "bot: 没有作废：小李-成员 的退桌没有得到同意，这桌照常。",
        "bot: 好的，这桌不作废（上面那条已经改成结果）。这个「不同意」答的是退桌；要说记录不对，再发 他没胡。",
    ]
    group.say("!clock +4s")
    assert group.say("jie: 他没胡")[0].startswith("bot: ⚠️ 阿杰-成员 不同意第1局的记录")


def test_disagree_from_the_winner_says_only_that_the_table_stays(group: Table) -> None:
    assert group.say("eve: 不同意")[-1] == "bot: 好的，这桌不作废（上面那条已经改成结果）。"
