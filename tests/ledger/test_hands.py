"""Recording hands: events scored by the real scoring core, booked at once, recomputed, closed, corrected."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from ledger import models as m
from ledger.service import Ledger, LedgerError, ScoringRefused
from ledger.unit import Tx

from .helpers import CHAT, gang, hu, money, seat_kawuxing


def test_kong_money_is_booked_the_moment_the_kong_is_recorded(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    result = ledger.record_event(table.id, gang("B", "zhigang", "A"), source="m:1", by=1)
    assert money(result.booked) == [("A", "B", 200, "zhigang")]
    assert not result.finished
    assert result.booked[0].event_index == 0
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [-200, 200, 0]


def test_a_win_closes_the_hand_books_the_rest_and_advances_dealer_and_number(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "zhigang", "A"), source="m:1", by=1)
    ledger.record_event(table.id, {"type": "liangdao", "player": "C"}, source="m:2", by=1)
    state = ledger.hand_state(table.id)
    assert (state.number, state.dealer, state.liangdao, len(state.events)) == (1, "A", ("C",), 2)
    result = ledger.record_event(table.id, hu("C", "discard", "A"), source="m:3", by=1)
    assert result.finished and result.next_dealer == "C"
    assert money(result.booked) == [("A", "C", 800, "baohu")]  # 卡五星 ×2, 亮倒 ×2, 包胡 2·M·b
    patterns = [p["key"] for p in result.answer["hands"][0]["patterns"]]
    assert patterns == ["kawuxing", "liangdao"]
    after = ledger.hand_state(table.id)
    assert (after.hand_id, after.number, after.dealer, after.events) == (None, 2, "C", ())
    assert ledger.current_table(CHAT).dealer == "C"


def test_robbed_kong_pays_nothing_its_money_is_voided_and_the_win_booked(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    kong = ledger.record_event(table.id, gang("B", "xugang", tile="5p"), source="m:1", by=1)
    assert money(kong.booked) == [("A", "B", 100, "xugang"), ("C", "B", 100, "xugang")]
    win = ledger.record_event(table.id, hu("C", "rob_kong", "B"), source="m:2", by=1)
    assert money(win.voided) == money(kong.booked)
    assert money(win.booked) == [("B", "C", 400, "qiangganghu")]
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [0, -400, 400]


def test_draw_books_the_first_liangdao_penalty_and_keeps_the_dealer(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    result = ledger.record_hand(table.id, [{"type": "liangdao", "player": "A"}, {"type": "draw"}], source="m:1", by=1)
    assert result.finished and result.next_dealer == "A"
    assert money(result.booked) == [("A", "B", 100, "liangdao_penalty"), ("A", "C", 100, "liangdao_penalty")]


def test_a_scoring_refusal_is_raised_with_its_code_and_changes_nothing(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "zhigang", "A"), source="m:1", by=1)
    before = ledger.balances(CHAT)
    with pytest.raises(ScoringRefused) as refused:
        ledger.record_event(
            table.id, {"type": "hu", "winner": "C", "method": "discard", "from": "C", "hand": {}}, source="m:2", by=1
        )
    assert refused.value.code in {"bad_request", "inconsistent", "wrong_count", "bad_tiles"}
    assert refused.value.message
    # the core's reading comes along, for the bot to word it in English
    assert refused.value.reading.key == "hand_without_tiles"
    assert refused.value.reading.args == {"field": "concealed", "winner": "C"}
    assert ledger.balances(CHAT) == before
    assert len(ledger.hand_state(table.id).events) == 1
    # the refused source was not consumed: a corrected message with it books
    assert ledger.record_event(table.id, hu("C", "discard", "A"), source="m:2", by=1).finished


@pytest.mark.parametrize("pattern", ["qidui", "longqidui", "shuanglongqidui"])
def test_seven_pairs_from_a_winner_who_konged_this_hand_is_refused(ledger: Ledger, pattern: str) -> None:
    """Seven pairs are fourteen concealed tiles; the scoring core's contract answers the request as before, the
    ledger books nothing (a play-tester's `暗杠 5s` then `胡 七对 自摸` was booked ×4)."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang", tile="5s"), source="m:1", by=1)
    before = ledger.balances(CHAT)
    seven = {"type": "hu", "winner": "B", "method": "self_draw", "hand": {"patterns": [pattern]}}
    with pytest.raises(ScoringRefused) as refused:
        ledger.record_event(table.id, seven, source="m:2", by=1)
    assert (refused.value.code, refused.value.message) == ("inconsistent", "B 这局杠过（五条），七对要门清：不能有杠")
    assert refused.value.reading.key == "seven_pairs_after_kong"
    assert ledger.balances(CHAT) == before
    # someone else's kong is no bar: A's seven pairs book
    assert ledger.record_event(table.id, dict(seven, winner="A"), source="m:3", by=1).finished


def test_the_same_source_twice_books_once_and_returns_the_first_result(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    first = ledger.record_event(table.id, gang("B", "angang"), source="tg:1:77", by=1)
    again = ledger.record_event(table.id, gang("B", "angang"), source="tg:1:77", by=1)
    assert again == first
    assert len(ledger.hand_state(table.id).events) == 1
    assert ledger.balances(CHAT).of(table.seats[1].member_id) == 400


def test_a_source_reused_for_another_kind_of_operation_is_refused(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="tg:1:78", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.fine(table.seats[0].member_id, 100, "x", source="tg:1:78", by=1)
    assert err.value.code == "source_reused"


def test_whole_hand_at_once_is_refused_while_a_hand_is_in_progress(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="m:1", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.record_hand(table.id, [hu("C", "self_draw")], source="m:2", by=1)
    assert err.value.code == "hand_in_progress"


def test_one_discard_two_winners_is_recorded_as_one_batch(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    result = ledger.record_events(table.id, [hu("B", "discard", "A"), hu("C", "discard", "A")], source="m:1", by=1)
    assert result.finished and result.next_dealer == "A"  # after 一炮双响 the discarder deals
    assert money(result.booked) == [("A", "B", 200, "dianpao"), ("A", "C", 200, "dianpao")]


def test_events_after_the_end_of_a_hand_are_refused(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    with pytest.raises(LedgerError) as err:
        ledger.record_events(table.id, [{"type": "draw"}, gang("B", "angang")], source="m:1", by=1)
    assert err.value.code == "events_after_end"


def test_undo_takes_back_one_record_at_a_time_reopening_a_finished_hand(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="m:1", by=1)
    ledger.record_event(table.id, gang("C", "zhigang", "A"), source="m:2", by=1)
    undone = ledger.undo(table.id, source="m:3", by=2, reason="记错了")
    assert (undone.what, money(undone.voided)) == ("event", [("A", "C", 200, "zhigang")])
    assert len(ledger.hand_state(table.id).events) == 1
    ledger.record_event(table.id, hu("C", "self_draw"), source="m:4", by=1)
    assert ledger.current_table(CHAT).dealer == "C"
    clock.advance(minutes=1)
    undone = ledger.undo(table.id, source="m:5", by=2)
    assert undone.what == "reopened" and undone.dealer == "A" and undone.hand_number == 1 and undone.number == 1
    assert [event["type"] for event in undone.events] == ["hu"]
    assert [event["type"] for event in undone.remaining] == ["gang"]  # the kong stands, with its money
    state = ledger.hand_state(table.id)
    assert state.number == 1 and [event["type"] for event in state.events] == ["gang"]
    balances = ledger.balances(CHAT)
    assert [balances.of(seat.member_id) for seat in table.seats] == [-200, 400, -200]
    assert ledger.history(CHAT, include_voided=True) == []  # hand 1 is open again: nothing finished
    undone = ledger.undo(table.id, source="m:6", by=2)
    assert undone.what == "event" and all(line.amount == 0 for line in ledger.balances(CHAT).lines)
    with pytest.raises(LedgerError) as nothing:
        ledger.undo(table.id, source="m:7", by=2)
    assert nothing.value.code == "nothing_to_undo"


def test_undoing_the_robbing_win_restores_the_kong_money(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "xugang", tile="5p"), source="m:1", by=1)
    ledger.record_event(table.id, hu("C", "rob_kong", "B"), source="m:2", by=1)
    undone = ledger.undo(table.id, source="m:3", by=1)  # the win goes; the robbed kong pays again
    assert undone.what == "reopened" and money(undone.rebooked) == [
        ("A", "B", 100, "xugang"),
        ("C", "B", 100, "xugang"),
    ]
    balances = ledger.balances(CHAT)
    assert [balances.of(seat.member_id) for seat in table.seats] == [-100, 200, -100]
    assert [event["type"] for event in ledger.hand_state(table.id).events] == ["gang"]


def test_undo_of_the_win_event_in_an_open_hand_rebooks_the_kong(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "xugang", tile="5p"), source="m:1", by=1)
    ledger.record_event(table.id, {"type": "liangdao", "player": "A"}, source="m:2", by=1)
    undone = ledger.undo(table.id, source="m:3", by=1)
    assert undone.what == "event" and undone.voided == () and undone.rebooked == ()
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [-100, 200, -100]


def test_edit_replaces_the_events_of_a_message_and_links_the_hands(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="tg:1:10", by=1)
    first = ledger.record_event(table.id, hu("C", "discard", "A"), source="tg:1:11", by=1)
    edited = ledger.replace_hand("tg:1:11", [hu("C", "discard", "B")], source="tg:1:11:e1", by=1, reason="点炮的是B")
    assert edited.finished and edited.hand_id != first.hand_id
    assert money(edited.booked) == [("A", "B", 200, "angang"), ("B", "C", 200, "dianpao"), ("C", "B", 200, "angang")]
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [-200, 200, 0]
    history = ledger.history(CHAT, include_voided=True)
    assert [(h.status, h.replaces, h.replaced_by) for h in history] == [
        ("closed", first.hand_id, None),
        ("voided", None, edited.hand_id),
    ]
    # an edit of the edit finds the message by its original source
    again = ledger.replace_hand("tg:1:11", [hu("C", "self_draw")], source="tg:1:11:e2", by=1)
    assert again.finished and again.next_dealer == "C"
    lines = ledger.balances(CHAT).lines
    assert [line.amount for line in lines if line.kind != "pot"] == [-400, 400 - 200, -200 + 400]


def test_voiding_an_earlier_hand_keeps_later_dealers(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    first = ledger.record_hand(table.id, [hu("B", "self_draw")], source="m:1", by=1)
    ledger.record_hand(table.id, [hu("C", "self_draw")], source="m:2", by=1)
    voided = ledger.void_hand(first.hand_id, source="m:3", by=1, reason="重复")
    assert voided.dealer == "C" and voided.hand_number == 3
    with pytest.raises(LedgerError) as err:
        ledger.void_hand(first.hand_id, source="m:4", by=1)
    assert err.value.code == "not_closed"


def test_ending_a_table_with_a_hand_in_progress_is_refused(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="m:1", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.end_table(table.id, source="m:2", by=1)
    assert err.value.code == "hand_in_progress"
    ledger.undo(table.id, source="m:3", by=1)
    ended = ledger.end_table(table.id, source="m:4", by=1)
    assert ended.ended_at is not None and ledger.current_table(CHAT) is None
    with pytest.raises(LedgerError) as err:
        ledger.record_event(table.id, gang("B", "angang"), source="m:5", by=1)
    assert err.value.code == "table_ended"


def test_table_keeps_its_rules_snapshot_when_settings_change(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.update_group(CHAT, base=500, rules={"preset": "uncapped"}, source="m:cfg", by=7)
    result = ledger.record_event(table.id, gang("B", "zhigang", "A"), source="m:1", by=1)
    assert money(result.booked) == [("A", "B", 200, "zhigang")]
    assert ledger.current_table(CHAT).base == 100
    group = ledger.group(CHAT)
    assert (group.base, group.rules, group.updated_by) == (500, {"preset": "uncapped"}, 7)


def test_gouji_round_is_one_event_between_opponents(ledger: Ledger) -> None:
    chat = -200
    ledger.group(chat)
    ledger.update_group(chat, game="gouji", base=100, source="g:cfg", by=1)
    ids = [ledger.member(chat, 10 + i, name).id for i, name in enumerate("ABCDEF")]
    with pytest.raises(LedgerError) as err:
        ledger.open_table(chat, ids[:4], source="g:bad", by=1)
    assert err.value.code == "bad_seats"
    table = ledger.open_table(chat, ids, source="g:open", by=1)
    assert table.dealer is None and len(table.seats) == 6
    result = ledger.record_event(table.id, {"type": "round", "order": list("ACBDEF")}, source="g:1", by=1)
    assert result.finished and result.number == 1
    net = {line.name: line.amount for line in ledger.balances(chat).lines}
    assert sum(net.values()) == 0
    assert net["A"] > 0 and net["C"] > 0  # the odd-seat team scored: each member is paid by their 对头
    assert ledger.hand_state(table.id).number == 2


def test_penghu_pays_as_it_goes_and_the_winner_deals_next(ledger: Ledger) -> None:
    chat = -300
    ledger.group(chat)
    ledger.update_group(chat, game="penghu", base=100, source="p:cfg", by=1)
    ids = [ledger.member(chat, 20 + i, name).id for i, name in enumerate("ABCD")]
    table = ledger.open_table(chat, ids, source="p:open", by=1)
    peng = ledger.record_event(table.id, {"type": "peng", "player": "B", "from": "C"}, source="p:1", by=1)
    assert money(peng.booked) == [("C", "B", 300, "peng")] and not peng.finished
    win = ledger.record_event(
        table.id, {"type": "hu", "player": "B", "from": None, "zhongzhuang": False}, source="p:2", by=1
    )
    assert win.finished and win.next_dealer == "B"
    assert sorted(t.amount for t in win.booked) == [500, 500, 500]


def test_edit_of_an_event_in_the_open_hand_keeps_the_others_in_place(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "zhigang", "A"), source="tg:1:20", by=1)
    ledger.record_event(table.id, gang("C", "angang"), source="tg:1:21", by=1)
    edited = ledger.replace_hand("tg:1:20", [gang("B", "zhigang", "C")], source="tg:1:20:e1", by=1)
    assert not edited.finished
    assert [e["type"] for e in edited.events] == ["gang", "gang"]
    assert edited.events[0]["from"] == "C"  # the edited kong stays first, before C's 暗杠
    state = ledger.hand_state(table.id)
    assert money(state.transfers) == [("A", "C", 200, "angang"), ("B", "C", 200, "angang"), ("C", "B", 200, "zhigang")]
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [-200, 0, 200]


def test_an_edits_voided_and_booked_transfers_net_to_what_the_edit_changed(ledger: Ledger) -> None:
    """The edit voids the old hand's money and books the new hand's: together they are the edit's change (its
    reply shows that), never the hand's totals."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("A", "zhigang", "B"), source="tg:1:40", by=1)
    ledger.record_event(table.id, gang("C", "zhigang", "A", chain=2), source="tg:1:41", by=1)
    edited = ledger.replace_hand("tg:1:40", [gang("A", "angang")], source="tg:1:40:e1", by=1)
    change = {seat.name: 0 for seat in table.seats}
    for transfer in edited.booked:
        change[transfer.payer] -= transfer.amount
        change[transfer.payee] += transfer.amount
    for transfer in edited.voided:
        change[transfer.payer] += transfer.amount
        change[transfer.payee] -= transfer.amount
    assert change == {"A": 200, "B": 0, "C": -200}
    balances = ledger.balances(CHAT)
    assert [balances.of(s.member_id) for s in table.seats] == [0, -200, 200]


def test_edit_of_a_message_whose_events_were_undone_says_they_were_taken_back(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="tg:1:30", by=1)
    ledger.undo(table.id, source="tg:1:31", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.replace_hand("tg:1:30", [gang("C", "angang")], source="tg:1:30:e1", by=1)
    assert err.value.code == "edit_taken_back"
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)


def test_edit_of_a_message_whose_hand_was_voided_says_it_was_taken_back(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    first = ledger.record_hand(table.id, [hu("B", "self_draw")], source="tg:1:40", by=1)
    ledger.void_hand(first.hand_id, source="tg:1:41", by=1)
    with pytest.raises(LedgerError) as err:
        ledger.replace_hand("tg:1:40", [hu("C", "self_draw")], source="tg:1:40:e1", by=1)
    assert err.value.code == "edit_taken_back"
    with pytest.raises(LedgerError) as err:  # a message that never recorded anything
        ledger.replace_hand("tg:1:42", [hu("C", "self_draw")], source="tg:1:42:e1", by=1)
    assert err.value.code == "nothing_to_edit"
    assert all(line.amount == 0 for line in ledger.balances(CHAT).lines)


def test_a_whole_hand_must_end(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    with pytest.raises(LedgerError) as err:
        ledger.record_hand(table.id, [gang("B", "angang")], source="m:1", by=1)
    assert err.value.code == "hand_not_finished"
    with pytest.raises(LedgerError) as err:
        ledger.record_event(table.id, {"kind": "angang"}, source="m:2", by=1)
    assert err.value.code == "bad_event"
    assert ledger.hand_state(table.id).events == ()


def test_a_write_that_lost_a_race_on_another_unique_key_is_retried_whole(ledger: Ledger) -> None:
    """Two processes creating the same row at once: the loser's transaction rolls back and runs again."""
    ledger.group(CHAT)
    attempts: list[int] = []

    def body(tx: Tx) -> int:
        attempts.append(1)
        if len(attempts) == 1:  # as if another process had just created this chat's group
            tx.execute(
                sa.insert(m.Group).values(
                    chat_id=CHAT,
                    game="kawuxing",
                    rules={},
                    base=100,
                    currency="元",
                    language="zh",
                    cutoff_hour=6,
                    timezone="UTC",
                    created_at=tx.now,
                    updated_at=tx.now,
                )
            )
        return len(attempts)

    assert ledger._unit.once("race:1", "test", None, int, body) == 2
    assert ledger._unit.once("race:1", "test", None, int, body) == 2  # stored: not run again
    assert len(attempts) == 2


def test_the_hand_a_message_recorded_in(ledger: Ledger) -> None:
    """What an edit into chat is told stands: the hand of the message's live record, and whether it finished."""
    table = seat_kawuxing(ledger)
    ledger.record_event(table.id, gang("B", "angang"), source="tg:1:50", by=1)
    assert ledger.recorded_hand("tg:1:50") == (1, False)
    ledger.record_events(table.id, [hu("C", "self_draw")], source="tg:1:51", by=1)
    assert ledger.recorded_hand("tg:1:50") == (1, True) == ledger.recorded_hand("tg:1:51")
    ledger.undo(table.id, source="tg:1:52", by=1)
    assert ledger.recorded_hand("tg:1:51") is None  # taken back
    assert ledger.recorded_hand("tg:1:53") is None  # never recorded


@pytest.mark.parametrize(
    ("before", "key"),
    [
        ([], "rob_without_kong"),  # no kong at all: ×2 抢杠胡 on a kong nobody made
        ([gang("A", "xugang", tile="5p")], "rob_without_kong"),  # someone else's 蓄杠
        ([gang("B", "xugang", tile="5p"), {"type": "liangdao", "player": "A"}], "rob_without_kong"),  # not just before
        ([gang("B", "angang", tile="5p")], "rob_not_added_kong"),  # a concealed kong cannot be robbed
        ([gang("B", "zhigang", "A", tile="5p")], "rob_not_added_kong"),
    ],
)
def test_robbing_a_kong_needs_the_robbed_players_added_kong_just_before(
    ledger: Ledger, before: list[dict[str, object]], key: str
) -> None:
    """The rules: 抢杠胡 wins on the tile another player adds to a 碰 to make a 蓄杠, and that kong is never made.
    Booked without it, the win's ×2 stood on a kong nobody made (and a 暗杠 before it kept its money)."""
    table = seat_kawuxing(ledger)
    for i, event in enumerate(before):
        ledger.record_event(table.id, event, source=f"m:{i}", by=1)
    booked = ledger.balances(CHAT)
    with pytest.raises(ScoringRefused) as refused:
        ledger.record_event(table.id, hu("C", "rob_kong", "B"), source="m:9", by=1)
    assert (refused.value.code, refused.value.reading.key) == ("inconsistent", key)
    assert "B 蓄杠" in refused.value.message and "点 B" in refused.value.message
    assert ledger.balances(CHAT) == booked and ledger.hand_state(table.id).number == 1


def test_a_whole_hand_robbing_its_own_recorded_added_kong_books_and_the_kong_pays_nothing(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    robbed = [gang("B", "xugang", tile="5p"), hu("C", "rob_kong", "B")]
    result = ledger.record_hand(table.id, robbed, source="m:1", by=1)
    assert result.finished and money(result.booked) == [("B", "C", 400, "qiangganghu")]
    with pytest.raises(ScoringRefused) as refused:
        ledger.record_hand(table.id, [hu("C", "rob_kong", "B")], source="m:2", by=1)
    assert refused.value.reading.key == "rob_without_kong"
