"""Groups, members, guests, nights, fines and the pot, balances by scope, history, records and flows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ledger.service import Ledger, LedgerError

from .helpers import CHAT, gang, hu, money, seat_kawuxing


def test_group_is_created_once_with_defaults_and_its_pot(ledger: Ledger) -> None:
    group = ledger.group(CHAT, title="牌友群")
    assert ledger.group(CHAT) == group
    assert (group.game, group.rules, group.base, group.language, group.cutoff_hour) == (
        "kawuxing",
        {"preset": "xiangyang"},
        100,
        "zh",
        6,
    )
    assert [(m.kind, m.name) for m in ledger.members(CHAT)] == [("pot", "红包池")]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"game": "mahjong"}, "bad_setting"),
        ({"base": 0}, "bad_amount"),
        ({"base": 1.5}, "bad_amount"),
        ({"language": "fr"}, "bad_setting"),
        ({"cutoff_hour": 24}, "bad_setting"),
        ({"timezone": "Mars/Base"}, "bad_setting"),
        ({"colour": "red"}, "bad_setting"),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(ledger: Ledger, change: dict, code: str) -> None:
    before = ledger.group(CHAT)
    with pytest.raises(LedgerError) as err:
        ledger.update_group(CHAT, source="cfg:1", by=1, **change)
    assert err.value.code == code and err.value.message
    assert ledger.group(CHAT) == before


def test_changing_the_game_resets_its_rules_to_that_games_default(ledger: Ledger) -> None:
    ledger.group(CHAT)
    changed = ledger.update_group(CHAT, game="penghu", language="en", source="cfg:1", by=5)
    assert (changed.game, changed.rules, changed.language, changed.updated_by) == ("penghu", {}, "en", 5)


def test_switching_back_to_a_game_brings_back_the_rules_the_group_played_it_under(ledger: Ledger) -> None:
    ledger.group(CHAT)
    ours = {"preset": "shiyan", "cap": "none", "pihu_self_draw_only": False, "suits": ["p", "m"]}
    ledger.update_group(CHAT, rules=ours, source="cfg:1", by=5)
    ledger.update_group(CHAT, game="penghu", source="cfg:2", by=5)
    ledger.update_group(CHAT, game="gouji", source="cfg:3", by=5)
    assert ledger.group(CHAT).rules == {}
    assert ledger.update_group(CHAT, game="kawuxing", source="cfg:4", by=5).rules == ours
    ledger.update_group(CHAT, rules={"preset": "xiangyang"}, source="cfg:5", by=5)  # changed again, then left
    ledger.update_group(CHAT, game="gouji", source="cfg:6", by=5)
    assert ledger.update_group(CHAT, game="kawuxing", source="cfg:7", by=5).rules == {"preset": "xiangyang"}


def test_member_is_get_or_create_and_follows_name_changes(ledger: Ledger) -> None:
    first = ledger.member(CHAT, 42, "刘一", "liu1")
    renamed = ledger.member(CHAT, 42, "刘一-成员", "@liu1")
    assert renamed.id == first.id and renamed.display_name == "刘一-成员" and renamed.username == "liu1"
    assert ledger.find_member(CHAT, "@LIU1") == renamed


def test_alias_is_shown_in_the_ledger_and_must_be_unique(ledger: Ledger) -> None:
    a = ledger.member(CHAT, 1, "Alice")
    b = ledger.member(CHAT, 2, "Bob")
    assert ledger.set_alias(a.id, "老刘", source="a:1", by=1).name == "老刘"
    with pytest.raises(LedgerError) as err:
        ledger.set_alias(b.id, "老刘", source="a:2", by=2)
    assert err.value.code == "alias_taken"
    assert ledger.find_member(CHAT, "老刘").id == a.id
    for lookalike in ("老 刘", "老\u3000刘", "老  刘"):  # spaced, it still reads as theirs
        with pytest.raises(LedgerError) as err:
            ledger.set_alias(b.id, lookalike, source=f"a:{lookalike}", by=2)
        assert err.value.code == "alias_taken", lookalike
    ledger.fine(a.id, 100, "刷屏", source="a:3", by=None)
    assert {line.name for line in ledger.balances(CHAT).lines} == {"老刘", "Bob", "红包池"}


def test_guest_is_seated_by_name_and_linking_moves_their_history(ledger: Ledger) -> None:
    ledger.group(CHAT)
    guest = ledger.guest(CHAT, "表哥")
    assert ledger.guest(CHAT, "表哥") == guest and guest.user_id is None and guest.kind == "guest"
    a, b = ledger.member(CHAT, 1, "A"), ledger.member(CHAT, 2, "B")
    table = ledger.open_table(CHAT, [a.id, b.id, guest.id], source="g:open", by=1)
    ledger.record_hand(table.id, [hu("表哥", "self_draw")], source="g:1", by=1)
    cousin = ledger.member(CHAT, 3, "表哥本人")
    linked = ledger.link_guest(guest.id, cousin.id, source="g:link", by=1)
    assert linked.id == cousin.id
    balances = ledger.balances(CHAT)
    assert balances.of(cousin.id) == 400 and balances.of(guest.id) == 0
    assert guest.id not in {m.id for m in ledger.members(CHAT)}
    assert ledger.member_record(cousin.id).hands_won == 1
    assert ledger.current_table(CHAT).seats[2].member_id == cousin.id
    with pytest.raises(LedgerError) as err:
        ledger.link_guest(guest.id, cousin.id, source="g:link2", by=1)
    assert err.value.code == "not_a_guest"


def test_a_guest_who_sat_with_the_member_cannot_be_linked_to_them(ledger: Ledger) -> None:
    ledger.group(CHAT)
    guest = ledger.guest(CHAT, "X")
    a, b = ledger.member(CHAT, 1, "A"), ledger.member(CHAT, 2, "B")
    ledger.open_table(CHAT, [a.id, b.id, guest.id], source="g:open", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.link_guest(guest.id, a.id, source="g:link", by=1)
    assert err.value.code == "played_together"


def test_seating_refuses_the_wrong_count_duplicates_and_the_pot(ledger: Ledger) -> None:
    ledger.group(CHAT)
    a, b = ledger.member(CHAT, 1, "A"), ledger.member(CHAT, 2, "B")
    pot = next(m for m in ledger.members(CHAT) if m.kind == "pot")
    for seats, code in (
        ([a.id, b.id], "bad_seats"),
        ([a.id, a.id, b.id], "bad_seats"),
        ([a.id, b.id, pot.id], "bad_member"),
    ):
        with pytest.raises(LedgerError) as err:
            ledger.open_table(CHAT, seats, source=f"s:{seats}", by=1)
        assert err.value.code == code


def test_seat_names_are_unique_within_a_table(ledger: Ledger) -> None:
    ledger.group(CHAT)
    ids = [ledger.member(CHAT, i, "小王").id for i in range(1, 4)]
    table = ledger.open_table(CHAT, ids, dealer=ids[1], source="s:1", by=1)
    assert table.players == ["小王", "小王#2", "小王#3"] and table.dealer == "小王#2"


def test_the_night_runs_past_midnight_until_the_cutoff_hour(ledger: Ledger, clock) -> None:
    clock.set(datetime(2026, 1, 10, 20, 0, tzinfo=UTC) - timedelta(hours=8))  # 20:00 in Hubei
    table = seat_kawuxing(ledger)
    night = ledger.current_night(CHAT)
    assert str(night.night_date) == "2026-01-10"
    clock.set(datetime(2026, 1, 11, 3, 0, tzinfo=UTC) - timedelta(hours=8))  # 03:00 next morning: same night
    again = ledger.open_table(CHAT, [s.member_id for s in table.seats], source="s:2", by=1)
    assert again.night_id == night.id
    clock.set(datetime(2026, 1, 11, 21, 0, tzinfo=UTC) - timedelta(hours=8))  # the next evening: a new night
    third = ledger.open_table(CHAT, [s.member_id for s in table.seats], source="s:3", by=1)
    assert third.night_id != night.id
    assert str(ledger.current_night(CHAT).night_date) == "2026-01-11"


def test_ending_the_night_posts_its_settlement(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="n:1", by=1)
    ledger.record_hand(table.id, [gang("A", "zhigang", "B"), hu("A", "discard", "B")], source="n:2", by=1)
    closed = ledger.end_night(CHAT, source="n:end", by=1)
    assert closed.night.ended_at is not None and closed.settlement.exact
    remaining = {line.member_id: line.amount for line in closed.settlement.balances.lines}
    for payment in closed.settlement.payments:
        remaining[payment.payer_id] += payment.amount
        remaining[payment.payee_id] -= payment.amount
    assert set(remaining.values()) == {0}
    assert ledger.current_table(CHAT) is None and ledger.current_night(CHAT) is None
    with pytest.raises(LedgerError) as err:
        ledger.end_night(CHAT, source="n:end2", by=1)
    assert err.value.code == "no_night"


def test_fines_go_to_the_pot_and_can_be_cancelled(ledger: Ledger) -> None:
    a = ledger.member(CHAT, 1, "A")
    fine = ledger.fine(a.id, 500, "刷屏", source="f:1", by=None)
    assert (fine.payer, fine.payee, fine.amount, fine.kind) == ("A", "红包池", 500, "fine")
    assert ledger.balances(CHAT).pot == 500
    cancelled = ledger.cancel_fine(fine.id, source="f:2", by=9, reason="误判")
    assert cancelled.voided and ledger.balances(CHAT).pot == 0 and ledger.balances(CHAT).of(a.id) == 0
    with pytest.raises(LedgerError) as err:
        ledger.cancel_fine(fine.id, source="f:3", by=9)
    assert err.value.code == "already_voided"
    for amount in (0, -5, 2.5):
        with pytest.raises(LedgerError):
            ledger.fine(a.id, amount, "x", source=f"f:bad:{amount}", by=None)  # type: ignore[arg-type]


def test_a_fine_of_a_night_settled_since_is_not_cancelled_by_any_caller(ledger: Ledger) -> None:
    """The ledger itself refuses (not only the 群管 pardon): a settled night is closed, its settlement told the
    players what to pay. A fine of the next night still cancels."""
    table = seat_kawuxing(ledger)
    a = next(seat for seat in table.seats if seat.name == "A")
    ledger.record_hand(table.id, [gang("A", "angang"), hu("A", "self_draw")], source="n:1", by=1)
    fine = ledger.fine(a.member_id, 500, "刷屏", source="f:1", by=None)
    ledger.end_night(CHAT, source="n:end", by=1)
    before = (ledger.balances(CHAT), ledger.debts(CHAT))
    with pytest.raises(LedgerError) as err:
        ledger.cancel_fine(fine.id, source="f:2", by=9, reason="误判")
    assert err.value.code == "fine_night_closed" and "已经结算" in err.value.message
    assert (ledger.balances(CHAT), ledger.debts(CHAT)) == before
    table = ledger.open_table(CHAT, [seat.member_id for seat in table.seats], source="open:2", by=1)
    ledger.record_hand(table.id, [gang("A", "angang"), hu("A", "self_draw")], source="n:2", by=1)
    later = ledger.fine(a.member_id, 300, "刷屏", source="f:3", by=None)
    assert ledger.cancel_fine(later.id, source="f:4", by=9).voided


def test_pot_pays_out_evenly_and_the_remainder_stays(ledger: Ledger) -> None:
    a, b, c = (ledger.member(CHAT, i, n) for i, n in ((1, "A"), (2, "B"), (3, "C")))
    ledger.fine(a.id, 500, "刷屏", source="f:1", by=None)
    paid = ledger.pay_out_pot(CHAT, [b.id, c.id, a.id], source="f:2", by=1)
    assert [t.amount for t in paid] == [166, 166, 166]
    assert ledger.balances(CHAT).pot == 2
    with pytest.raises(LedgerError) as err:
        ledger.pay_out_pot(CHAT, {b.id: 3}, source="f:3", by=1)
    assert err.value.code == "pot_too_small"
    named = ledger.pay_out_pot(CHAT, {b.id: 2}, source="f:4", by=1)
    assert money(named) == [("红包池", "B", 2, "红包")]
    assert ledger.balances(CHAT).pot == 0


def test_balances_by_table_night_period_and_all_time(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    a, b, c = (s.member_id for s in table.seats)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="b:1", by=1)
    ledger.fine(a, 100, "迟到", source="b:2", by=None)
    night = ledger.current_night(CHAT)
    ledger.end_night(CHAT, source="b:3", by=1)
    clock.advance(days=1)
    since = clock()
    table2 = ledger.open_table(CHAT, [a, b, c], source="b:4", by=1)
    ledger.record_hand(table2.id, [hu("C", "self_draw")], source="b:5", by=1)
    assert ledger.table_balances(table.id).of(c) == 400
    night_balances = ledger.night_balances(night.id)
    assert (night_balances.of(a), night_balances.pot) == (-300, 100)
    assert ledger.period_balances(CHAT, since, None).of(c) == 400
    assert ledger.balances(CHAT).of(c) == 800
    for scope in (ledger.table_balances(table.id), night_balances, ledger.balances(CHAT)):
        assert sum(line.amount for line in scope.lines) == 0


def test_history_lists_hands_with_patterns_and_payments(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="h:1", by=1)
    ledger.record_hand(table.id, [{"type": "draw"}], source="h:2", by=1)
    history = ledger.history(CHAT, limit=5)
    assert [h.number for h in history] == [2, 1]
    assert history[1].patterns[0]["patterns"][0]["key"] == "kawuxing"
    assert money(history[1].transfers) == [("A", "C", 200, "zimo"), ("B", "C", 200, "zimo")]
    assert ledger.history(CHAT, limit=1)[0].number == 2
    record = ledger.member_record(table.seats[2].member_id)
    assert (record.balance, record.hands_played, record.hands_won) == (400, 2, 1)


def test_flow_state_survives_a_restart(db_url: str, clock) -> None:
    first = Ledger.open(db_url, upgrade=False, clock=clock)
    first.save_flow(CHAT, 555, 1, "record_hand", {"step": "winner", "winner": "C"})
    first.close()
    second = Ledger.open(db_url, upgrade=False, clock=clock)
    flow = second.load_flow(CHAT, 555)
    assert (flow.kind, flow.state, flow.finished_at) == ("record_hand", {"step": "winner", "winner": "C"}, None)
    clock.advance(seconds=5)
    updated = second.save_flow(CHAT, 555, 1, "record_hand", {"step": "method"})
    assert updated.updated_at > updated.created_at and updated.state == {"step": "method"}
    assert [f.message_id for f in second.open_flows(CHAT)] == [555]
    finished = second.finish_flow(CHAT, 555)
    assert finished.finished_at is not None and second.open_flows() == []
    asked_again = second.save_flow(CHAT, 555, 1, "ask", {"step": "kan"})  # e.g. the message was edited
    assert asked_again.finished_at is None and [f.kind for f in second.open_flows(CHAT)] == ["ask"]
    second.save_flow(CHAT, 556, 2, "undo", {})
    second.save_flow(CHAT, 557, 1, "undo", {})
    second.save_flow(CHAT + 1, 558, 1, "undo", {})
    mine = second.open_flows(CHAT, user_id=1, kinds=("undo", "undo_ended"))  # a user's questions waiting
    assert [f.message_id for f in mine] == [557]
    assert [f.message_id for f in second.open_flows(CHAT, user_id=1)] == [555, 557]
    assert [f.message_id for f in second.open_flows(kinds=["undo"])] == [556, 557, 558]
    # the read every message starts with counts the sender's flows waiting in that chat (none for nobody)
    assert [second.chat(CHAT, user_id=user).waiting for user in (1, 2, 3, None)] == [2, 1, 0, 0]
    for key in (556, 557):
        second.finish_flow(CHAT, key)
    second.finish_flow(CHAT + 1, 558)
    second.finish_flow(CHAT, 555)
    assert [second.chat(CHAT, user_id=user).waiting for user in (1, 2)] == [0, 0]
    assert second.load_flow(CHAT, 999) is None
    second.close()


def test_unknown_ids_give_a_clear_error(ledger: Ledger) -> None:
    with pytest.raises(LedgerError) as err:
        ledger.fine(987654, 100, "x", source="u:1", by=None)
    assert err.value.code == "not_found"
    with pytest.raises(LedgerError) as err:
        ledger.balances(-42)
    assert err.value.code == "no_group"
    with pytest.raises(LedgerError) as err:
        ledger.record_event(123456, {"type": "draw"}, source="", by=None)
    assert err.value.code == "bad_source"
