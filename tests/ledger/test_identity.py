"""Identity in the ledger: a Telegram username finds the one member who reported it, a label (display name, 名片)
never takes a username, and seat names never spell another seated player's username. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from ledger.service import Ledger, LedgerError

from .helpers import CHAT


def test_a_username_finds_its_reporter_whatever_the_case(ledger: Ledger) -> None:
    wang = ledger.member(CHAT, 3, "老王", "LaoWang")
    ledger.member(CHAT, 6, "laowang", None)  # a display name spelled like the username
    assert ledger.member_by_username(CHAT, "laowang") == wang
    assert ledger.member_by_username(CHAT, "@LAOWANG") == wang
    assert ledger.member_by_username(CHAT, "nobody") is None
    assert ledger.member_by_username(-42, "laowang") is None  # a chat the ledger has never seen


def test_a_username_that_moves_leaves_its_old_holder(ledger: Ledger) -> None:
    old = ledger.member(CHAT, 3, "老王", "laowang")
    new = ledger.member(CHAT, 6, "路人", "LAOWANG")
    assert ledger.member_by_username(CHAT, "laowang") == new
    assert next(m for m in ledger.members(CHAT) if m.id == old.id).username is None


def test_a_name_card_spelled_like_a_username_is_cleared_when_its_owner_speaks(ledger: Ledger) -> None:
    impostor = ledger.member(CHAT, 6, "路人", None)
    ledger.set_alias(impostor.id, "Vic", source="a:1", by=6)
    ledger.member(CHAT, 7, "Victor", "vic")
    assert next(m for m in ledger.members(CHAT) if m.id == impostor.id).alias is None
    mine = ledger.member(CHAT, 8, "维克", None)
    assert ledger.set_alias(mine.id, "维克哥", source="a:2", by=8).alias == "维克哥"  # other names are untouched
    ledger.member(CHAT, 7, "Victor", "vic_2")
    assert next(m for m in ledger.members(CHAT) if m.id == mine.id).alias == "维克哥"


def test_a_name_card_cannot_take_another_members_username(ledger: Ledger) -> None:
    ledger.member(CHAT, 3, "老王", "laowang")
    impostor = ledger.member(CHAT, 6, "路人", None)
    with pytest.raises(LedgerError) as err:
        ledger.set_alias(impostor.id, "LaoWang", source="a:1", by=6)
    assert err.value.code == "alias_taken"
    own = ledger.member(CHAT, 9, "九", "jiu")
    assert ledger.set_alias(own.id, "Jiu", source="a:2", by=9).alias == "Jiu"  # one's own username is fine


def test_guests_are_found_by_their_name_only(ledger: Ledger) -> None:
    ledger.member(CHAT, 3, "老王", "laowang")
    cousin = ledger.guest(CHAT, "表哥")
    assert ledger.find_guest(CHAT, " 表哥 ") == cousin
    assert ledger.find_guest(CHAT, "老王") is None and ledger.find_guest(CHAT, "laowang") is None


def test_a_seat_name_never_spells_another_seated_players_username(ledger: Ledger) -> None:
    wang = ledger.member(CHAT, 3, "老王", "laowang")
    impostor = ledger.member(CHAT, 6, "LaoWang", "imp")
    twin = ledger.member(CHAT, 7, "老王", None)
    table = ledger.open_table(CHAT, [impostor.id, wang.id, twin.id], source="t:1", by=3)
    assert table.players == ["LaoWang#2", "老王", "老王#2"]


@pytest.mark.parametrize(
    ("change", "code"),
    [({"base": 1_000_001}, "bad_amount"), ({"currency": "一二三四五六七八九"}, "bad_setting")],
)
def test_stakes_and_labels_have_upper_bounds(ledger: Ledger, change: dict[str, object], code: str) -> None:
    before = ledger.group(CHAT)
    with pytest.raises(LedgerError) as err:
        ledger.update_group(CHAT, source="cfg:1", by=1, **change)
    assert err.value.code == code and ledger.group(CHAT) == before
    assert ledger.update_group(CHAT, source="cfg:2", by=1, base=1_000_000, currency="块").base == 1_000_000
