"""历史 lists hands in the order they were played: a hand edited later keeps its place (第1局 before 第2局), however
late its re-recording got its id; across tables, the earlier table's hands first."""

from __future__ import annotations

import sqlalchemy as sa

from ledger import db
from ledger.service import Ledger

from .helpers import CHAT, hu, seat_kawuxing


def _played(ledger: Ledger) -> None:
    table = seat_kawuxing(ledger)
    for number, winner in enumerate("ABCA", start=1):
        ledger.record_hand(table.id, [hu(winner, "self_draw")], source=f"tg:1:{number}", by=1)
    ledger.replace_hand("tg:1:2", [hu("B", "discard", "C")], source="tg:1:2:e5", by=1)  # 第2局, edited


def test_an_edited_earlier_hand_keeps_its_place_in_history(ledger: Ledger) -> None:
    _played(ledger)
    newest_first = ledger.history(CHAT, 10)
    assert [record.number for record in newest_first] == [4, 3, 2, 1]
    assert newest_first[2].replaces is not None  # the re-recorded 第2局, in its place
    assert [record.number for record in ledger.history(CHAT, 2)] == [4, 3]
    with_voided = ledger.history(CHAT, 10, include_voided=True)
    assert [(record.number, record.status) for record in with_voided] == [
        (4, "closed"),
        (3, "closed"),
        (2, "closed"),
        (2, "voided"),
        (1, "closed"),
    ]


def test_0018_indexes_the_hands_in_play_order_and_downgrades(empty_db_url: str, clock) -> None:
    def indexes() -> set[str]:
        engine = db.make_engine(empty_db_url)
        try:
            return {index["name"] for index in sa.inspect(engine).get_indexes("hands")}
        finally:
            engine.dispose()

    db.upgrade(empty_db_url)
    ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
    try:
        _played(ledger)
    finally:
        ledger.close()
    for _ in range(2):
        db.downgrade(empty_db_url, "0017")
        assert "ix_hands_group_id_table_id_number" not in indexes()
        db.upgrade(empty_db_url)
        assert "ix_hands_group_id_table_id_number" in indexes()
        ledger = Ledger(db.make_engine(empty_db_url), clock=clock)
        try:
            assert [record.number for record in ledger.history(CHAT, 10)] == [4, 3, 2, 1]
        finally:
            ledger.close()
