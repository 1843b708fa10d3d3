"""Taps written as chat lines: every seat named so the grammar finds exactly that seat, or a clear refusal; and
the command layer telling a refused line from a booked one (the Mini App posts only the latter)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from bot.core import Refusal
from bot.webapp.lines import TappedWin, seat_tokens, win_line
from ledger.service import Ledger, MemberInfo, Seat, TableInfo
from tests.webapp.served import A, B, C, Chat, FakeGroup, Served


def _table(*names: str) -> TableInfo:
    seats = tuple(Seat(i, name, 10 + i) for i, name in enumerate(names))
    now = datetime(2026, 1, 10, tzinfo=UTC)
    return TableInfo(1, 1, 1, "kawuxing", {"preset": "xiangyang"}, 100, seats, names[0], 1, now, None)


def _member(member_id: int, name: str, username: str | None) -> MemberInfo:
    return MemberInfo(member_id, 1, member_id * 7 if username else None, name, username, None, "member", None)


def test_seats_are_named_by_their_own_names_when_they_are_one_word() -> None:
    table = _table("阿杰", "小李", "Li Wei")
    members = [_member(10, "阿杰", "ajie"), _member(11, "小李", None), _member(12, "Li Wei", "liwei")]
    assert seat_tokens(table, members) == {"阿杰": "@阿杰", "小李": "@小李", "Li Wei": "@liwei"}


def test_a_name_that_cannot_be_written_is_refused_when_it_is_needed() -> None:
    table = _table("阿杰", "Old Wang", "ajie2")
    members = [_member(10, "阿杰", "ajie2"), _member(11, "Old Wang", None), _member(12, "ajie2", None)]
    words = seat_tokens(table, members)
    assert words["Old Wang"] == ""  # a guest with a space and no username
    win = TappedWin(
        "Old Wang",
        ("1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "2s", "3s", "4s"),
        (),
        "5s",
        "self_draw",
        None,
        (),
    )
    with pytest.raises(Refusal) as refused:
        win_line(win, words)
    assert refused.value.key == "web_untypable_name" and refused.value.params == {"name": "Old Wang"}
    assert win_line(dataclasses.replace(win, winner="阿杰"), words).startswith("胡 @阿杰 ")


def test_two_seats_whose_names_differ_only_in_case_use_usernames() -> None:
    table = _table("Ann", "ann", "Bo")
    members = [_member(10, "Ann", "ann_1"), _member(11, "ann", "ann_2"), _member(12, "Bo", None)]
    assert seat_tokens(table, members) == {"Ann": "@ann_1", "ann": "@ann_2", "Bo": "@Bo"}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_command_layer_says_which_lines_it_refused(ledger: Ledger, telegram: FakeGroup, clock: object) -> None:
    with Served(ledger, telegram, clock) as served:
        chat = Chat(served.core, frozenset())
        for user in (A, B, C):
            assert not chat.say(user, "hi").refused
        assert not chat.say(A, "开桌 @ajie @xiaoli @laowang").refused
        assert chat.say(B, "胡 123p46p789s22s333s 点 @laowang").refused  # no winning tile
        assert chat.say(B, "设置 底金 5").refused  # admins only
        assert not chat.say(A, "暗杠 7z").refused
