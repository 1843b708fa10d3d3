"""Button flows nobody finished expire: a table's flows when that table ends (结算, 开桌 over it, the 日切
roll-over), any flow left untouched for a day by the upkeep (`Ledger.expire_flows`). A flow in use, another
table's, or a question of no table that is recent, is left as it is."""

from __future__ import annotations

from datetime import timedelta

from ledger.service import Ledger

from .helpers import CHAT, seat_kawuxing

OTHER_CHAT = CHAT - 1


def waiting(ledger: Ledger, chat: int = CHAT) -> list[int]:
    return [flow.message_id for flow in ledger.open_flows(chat)]


def test_a_tables_flows_finish_when_it_ends_and_no_others(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    other = seat_kawuxing(ledger, OTHER_CHAT)
    ledger.save_flow(CHAT, 1, 1000, "hu", {"table_id": table.id, "hand": 1, "step": "who"})  # a 胡 left half-way
    ledger.save_flow(CHAT, 2, 1001, "undo", {"table_id": table.id, "target": "e1"})  # a question never answered
    ledger.save_flow(CHAT, 3, 1000, "unsettle", {"settlement_id": 7})  # a question of no table
    ledger.save_flow(OTHER_CHAT, 4, 1000, "hu", {"table_id": other.id, "hand": 1})  # another chat's table
    clock.advance(seconds=30)
    ledger.end_night(CHAT, source="test:settle", by=1000)  # 结算 ends the table
    assert waiting(ledger) == [3] and waiting(ledger, OTHER_CHAT) == [4]
    assert ledger.load_flow(CHAT, 1).finished_at == clock()
    assert ledger.chat(CHAT, user_id=1000).waiting == 1  # what every message reads first counts no ended flow


def test_opening_a_table_over_a_running_one_ends_its_flows(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.save_flow(CHAT, 1, 1000, "gang", {"table_id": table.id, "hand": 1})
    newer = seat_kawuxing(ledger, names=("A", "B", "D"))  # 开桌 again: the first table ends
    ledger.save_flow(CHAT, 2, 1000, "gang", {"table_id": newer.id, "hand": 1})
    assert waiting(ledger) == [2]


def test_a_flow_in_use_stays_and_one_left_a_day_expires(ledger: Ledger, clock) -> None:
    table = seat_kawuxing(ledger)
    ledger.save_flow(CHAT, 1, 1000, "hu", {"table_id": table.id, "hand": 1, "step": "who"})
    ledger.save_flow(CHAT, 2, 1000, "dpay", {"at": "…"})
    ledger.save_flow(OTHER_CHAT, 3, 1000, "unsettle", {"settlement_id": 7})
    clock.advance(hours=23)
    ledger.save_flow(CHAT, 1, 1000, "hu", {"table_id": table.id, "hand": 1, "step": "method"})  # pressed
    assert ledger.expire_flows() == 0
    clock.advance(hours=1, seconds=1)
    assert ledger.expire_flows() == 2  # every chat's: the upkeep runs for the whole ledger
    assert waiting(ledger) == [1] and waiting(ledger, OTHER_CHAT) == []
    assert ledger.load_flow(CHAT, 2).finished_at == clock()
    clock.advance(hours=23)
    assert ledger.expire_flows(timedelta(hours=1)) == 1 and waiting(ledger) == []
    assert ledger.expire_flows() == 0


def test_a_flow_its_tables_end_finished_stays_finished_and_marked_when_the_night_is_reopened(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    ledger.save_flow(CHAT, 1, 1000, "undo", {"table_id": table.id, "target": "e1"})  # waiting at 结算
    ledger.save_flow(CHAT, 2, 1000, "hu", {"table_id": table.id, "hand": 1})
    ledger.finish_flow(CHAT, 2)  # answered before 结算: not the table's doing
    ledger.end_night(CHAT, source="test:settle", by=1000)
    ledger.unsettle(CHAT, source="test:unsettle", by=1000)  # the night and its table open again
    assert ledger.current_table(CHAT) is not None and waiting(ledger) == []
    ended, answered = ledger.load_flow(CHAT, 1), ledger.load_flow(CHAT, 2)
    assert ended.finished_at is not None and ended.ended_with_table and ended.state["target"] == "e1"
    assert answered.finished_at is not None and not answered.ended_with_table
    # asked again (a saved state is live): no longer the table's end's
    ledger.save_flow(CHAT, 1, 1000, "undo", ended.state)
    assert waiting(ledger) == [1] and not ledger.load_flow(CHAT, 1).ended_with_table
