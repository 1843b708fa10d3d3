"""How the ledger names accounts (`Ledger.names`, the balances' and settlements' lines): one name per account at a
time, distinct in the group, and a player at the open table named by their seat until the table ends."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.accounts import reads_as, visible
from ledger.service import Ledger, LedgerError

from .helpers import CHAT, hu

_chats = itertools.count(-700_000, -1)


def test_a_seated_player_renamed_is_named_by_their_seat_until_the_table_ends(ledger: Ledger) -> None:
    jia, yi, bing = (ledger.member(CHAT, n, name) for n, name in ((1, "甲"), (2, "乙"), (3, "丙")))
    ledger.set_alias(yi.id, "老乙", source="a:1", by=2)
    table = ledger.open_table(CHAT, [jia.id, yi.id, bing.id], dealer=jia.id, source="o:1", by=1)
    assert table.players == ["甲", "老乙", "丙"]
    ledger.set_alias(yi.id, "小乙", source="a:2", by=2)
    # the table's replies name 乙 老乙 (its events name seats), and so do the views while it is open
    assert ledger.names(CHAT)[yi.id] == "老乙"
    ledger.record_events(table.id, [hu("甲", "discard", "老乙")], source="h:1", by=1)
    assert {line.name for line in ledger.balances(CHAT).lines} >= {"甲", "老乙", "丙"}
    assert {line.name for line in ledger.settle_night(table.night_id).balances.lines} == {"甲", "老乙"}
    # 老乙 still means 乙: nobody else may take it while the table is open
    with pytest.raises(LedgerError) as err:
        ledger.set_alias(jia.id, "老乙", source="a:3", by=1)
    assert err.value.code == "alias_shown"
    ledger.end_night(CHAT, source="e:1", by=1)
    assert ledger.names(CHAT)[yi.id] == "小乙"  # the table ended: the 名片 shows
    assert ledger.set_alias(jia.id, "老乙", source="a:4", by=1).name == "老乙"
    assert ledger.names(CHAT)[jia.id] == "老乙"


def test_a_name_card_cannot_be_a_numbered_name_someone_shows(ledger: Ledger) -> None:
    ledger.member(CHAT, 1, "老王")
    second = ledger.member(CHAT, 2, "老王")
    other = ledger.member(CHAT, 3, "小李")
    assert ledger.names(CHAT)[second.id] == "老王#2"
    with pytest.raises(LedgerError) as err:
        ledger.set_alias(other.id, "老王#2", source="a:1", by=3)
    assert err.value.code == "bad_name"  # a 名片 never ends as the ledger's own numbering does
    assert ledger.names(CHAT)[second.id] == "老王#2"


def test_names_spelled_to_look_alike_are_told_apart(ledger: Ledger) -> None:
    """Telegram names are anyone's to spell: a Kangxi radical, a zero-width space, a direction override, a
    non-breaking space or full-width letters read as the name they look like, and take its #2."""
    first = [ledger.member(CHAT, n, name) for n, name in ((1, "老王"), (2, "阿杰"), (3, "Wang"))]
    looks = [
        ledger.member(CHAT, n, name)
        for n, name in ((11, "⽼王"), (12, "阿杰\u200b"), (13, "Ｗａｎｇ"), (14, "台费\u00a0"), (15, "红包池\ufe0f"))
    ]
    shown = ledger.names(CHAT)
    assert [shown[p.id] for p in first] == ["老王", "阿杰", "Wang"]
    assert [shown[p.id] for p in looks] == ["⽼王#2", "阿杰#2", "Ｗａｎｇ#2", "台费#2", "红包池#2"]
    # what a chat shows as nothing is not kept, nor a leading @ (a name is not a mention)
    assert ledger.member(CHAT, 16, "\u202e王老 ").display_name == "王老"
    assert ledger.member(CHAT, 17, "@laowang").display_name == "laowang"


def test_a_name_card_cannot_name_someone_else_by_the_group_rules_shape(ledger: Ledger) -> None:
    xiaoli, other = ledger.member(CHAT, 1, "小李"), ledger.member(CHAT, 2, "大鹏")
    for card in ("小李-成员", "小 李 - 管理", "⼩李"):
        with pytest.raises(LedgerError) as err:
            ledger.set_alias(other.id, card, source=f"a:{card}", by=2)
        assert err.value.code == "alias_taken"
    assert ledger.set_alias(xiaoli.id, "小李-成员", source="a:own", by=1).name == "小李-成员"  # their own
    assert ledger.set_alias(other.id, "大鹏-成员", source="a:2", by=2).name == "大鹏-成员"
    with pytest.raises(LedgerError) as err:
        ledger.guest(CHAT, "阿杰#2")
    assert err.value.code == "bad_name"


NAMES = ("老王", "老王#2", "小李", "Wang", "wang", "甲", "⽼王", "老王\u200b", "小 李", "Ｗａｎｇ", "小李-成员")
#: (what, member index 0–4, a name or None): set a 名片 (None clears it), rename in Telegram, or end the table
#: and seat the first three again (with whatever names they have then)
step = st.one_of(
    st.tuples(st.just("alias"), st.integers(0, 4), st.one_of(st.none(), st.sampled_from(NAMES))),
    st.tuples(st.just("rename"), st.integers(0, 4), st.sampled_from(NAMES)),
    st.tuples(st.just("reopen"), st.just(0), st.none()),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(NAMES), min_size=5, max_size=5), st.lists(step, max_size=10))
def test_every_account_has_one_distinct_name_and_a_seated_player_their_seats(
    ledger: Ledger, display: list[str], steps: list[tuple[Any, ...]]
) -> None:
    chat = next(_chats)
    people = [ledger.member(chat, n + 1, name) for n, name in enumerate(display)]
    seated = [p.id for p in people[:3]]
    table = ledger.open_table(chat, seated, dealer=seated[0], source=f"{chat}:o", by=1)
    for n, (what, who, name) in enumerate(steps):
        if what == "alias":
            try:
                ledger.set_alias(people[who].id, name, source=f"{chat}:{n}", by=1)
            except LedgerError as err:
                assert err.code in {"alias_taken", "alias_shown", "bad_name"}
            else:
                if name is not None and people[who].id not in seated:
                    assert ledger.names(chat)[people[who].id] == visible(name)  # as typed, never #2
        elif what == "rename":
            ledger.member(chat, who + 1, name)
        else:
            table = ledger.open_table(chat, seated, dealer=seated[0], source=f"{chat}:o{n}", by=1)
        shown = ledger.names(chat)
        assert len({reads_as(name) for name in shown.values()}) == len(shown)  # look-alikes too
        assert all(shown[seat.member_id] == seat.name for seat in table.seats)
        lines = ledger.balances(chat).lines
        assert all(line.name == shown[line.member_id] for line in lines)


def test_a_refused_link_names_the_member_as_the_views_do(ledger: Ledger) -> None:
    ledger.member(CHAT, 1, "老王")
    second, other = ledger.member(CHAT, 2, "老王"), ledger.member(CHAT, 3, "小李")
    guest = ledger.guest(CHAT, "老表")
    ledger.open_table(CHAT, [second.id, other.id, guest.id], dealer=second.id, source="o:1", by=2)
    with pytest.raises(LedgerError) as err:
        ledger.link_guest(guest.id, second.id, source="l:1", by=1)
    assert err.value.code == "played_together" and err.value.message.startswith("老表 和 老王#2 ")
