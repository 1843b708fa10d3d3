"""A correction typed the way players own up to a mistake: lead-ins before 改成 (`打错了 改成 清一色 自摸`, `不对
改成清一色`), `应该是清一色`, laughter or the mistake said after it (`改成 清一色 哈哈`, `改成清一色自摸 打错了`) ask
the same question 改成 asks, and its 「改成这样」 rescores the hand; lines that change nothing stay chat. Found by a
play-test (each of these was silent, and the ×8 hand stood). On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table, table

__all__ = ["table"]  # the fixture: a 卡五星 table of a, b, c opened by a

WRONG = "b: 自摸 清一色七对"


@pytest.fixture
def mistaken(table: Table) -> Iterator[Table]:
    """b's self-drawn win booked as 清一色七对 (×8) where it was 清一色 (×4)."""
    table.say(WRONG, "!clock +20s")
    assert table.balances()["b"] == 1600  # in 分
    yield table


@pytest.mark.parametrize(
    "line",
    [
        "打错了 改成 清一色 自摸",
        "不对 改成清一色",
        "错了，改成清一色",
        "记错了 改成 清一色 自摸",
        "改成 清一色 哈哈",
        "改成清一色 哈哈哈",
        "改成清一色自摸 打错了",
        "应该是清一色",
    ],
)
def test_a_correction_said_as_players_say_it_asks_and_rescores(mistaken: Table, line: str) -> None:
    asked = mistaken.say(f"b: {line}")
    assert any("改成「" in said and "清一色」？" in said and "七对」？" not in said for said in asked), asked
    assert mistaken.balances()["b"] == 1600  # asked first: nothing changed yet
    mistaken.say("b: !press 改成这样")
    assert mistaken.balances() == {"a": -400, "b": 800, "c": -400} and mistaken.hands() == 1


@pytest.mark.parametrize("line", ["应该是吧", "不对 改成 哈哈", "打错了 哈哈", "应该是这样吧"])
def test_owning_up_without_a_record_to_change_to_is_chat(mistaken: Table, line: str) -> None:
    assert mistaken.say(f"b: {line}") == []
    assert mistaken.balances()["b"] == 1600


@pytest.mark.parametrize("line", ["b: 改成 七对", "b: 改成 胡 七对 自摸"])
def test_a_correction_the_hands_kong_rules_out_is_refused_before_it_is_asked(table: Table, line: str) -> None:
    """b konged, then won 杠上开花 清一色: `改成 七对` was asked 「改成「b 自摸 七对」？」 and only the press was
    refused, in a toast (seven pairs are fourteen concealed tiles). It is refused at once, with why; nothing changes."""
    table.say("b: 暗杠 3s", "!clock +1m", "b: 杠上开花 清一色", "!clock +1m")
    before = table.balances()
    out = table.say(line)
    assert out == ["bot: 没有记录：b 这局杠过（三条），七对要门清：不能有杠"], out
    assert table.balances() == before
