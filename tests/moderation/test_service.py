"""The moderation service on both databases: the ladder, fines as ledger transfers, cancellation, expiry,
idempotency, settings, rules-text history and the one-time flags."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from ledger.moderation import DEFAULT_RULES_TEXT, Moderation, RuleSettings
from ledger.service import Ledger, LedgerError, MemberInfo
from tests.conftest import Clock

CHAT = -100123


@pytest.fixture
def mod(ledger: Ledger, clock: Clock) -> Moderation:
    return Moderation(ledger, ledger.engine, clock=clock)


def _bob(ledger: Ledger):  # type: ignore[no-untyped-def]
    return ledger.member(CHAT, 42, "bob")


def test_first_offence_is_a_warning_and_a_fine_into_the_pot(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    result = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert (result.offence_number, result.step) == (1, "warn_fine")
    assert result.fine is not None and result.fine.amount == 500 and result.removal is None
    balances = ledger.balances(CHAT)
    assert balances.of(bob.id) == -500 and balances.pot == 500
    fines = [t for t in ledger.member_record(bob.id).recent if t.kind == "fine"]
    assert [(t.payee, t.amount) for t in fines] == [("红包池", 500)]
    # the fine carries the ledger's own operation record: the ledger's `fine` with its source replays it
    assert ledger.fine(bob.id, 500, "刷屏", source="t:1:fine", by=None).id == fines[0].id
    assert ledger.balances(CHAT).pot == 500


def test_second_offence_removes_without_another_fine(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    second = mod.record_offence(bob, "link", "广告链接", message_id=8, source="t:2")
    assert (second.offence_number, second.step) == (2, "remove")
    assert second.fine is None and second.removal is not None and second.removal.kind == "removal"
    assert ledger.balances(CHAT).pot == 500
    third = mod.record_offence(bob, "link", "广告链接", message_id=9, source="t:3")
    assert third.step == "remove"  # past the ladder's end the last step repeats


def test_the_same_message_twice_is_one_offence(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    first = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    again = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert again.warning.id == first.warning.id and again.fine == first.fine and again.step == "warn_fine"
    assert ledger.balances(CHAT).pot == 500
    assert len(mod.actions(CHAT)) == 2  # one warning, one fine


def test_a_fine_booked_before_a_crash_is_completed_not_repeated(ledger: Ledger, mod: Moderation) -> None:
    """The ledger's fine is booked first (idempotent on `<source>:fine`); a retry records it once."""
    bob = _bob(ledger)
    ledger.fine(bob.id, 500, "刷屏", source="t:1:fine", by=None)  # the crash happened right after this
    result = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert result.fine is not None and ledger.balances(CHAT).pot == 500


@contextmanager
def _transfers_fail(ledger: Ledger) -> Iterator[None]:
    """Every INSERT into transfers fails inside the database (a crash at the moment the fine is booked)."""
    sqlite = ledger.engine.dialect.name == "sqlite"
    with ledger.engine.begin() as connection:
        if sqlite:
            connection.exec_driver_sql(
                "CREATE TRIGGER crash BEFORE INSERT ON transfers BEGIN SELECT RAISE(ABORT, 'power cut'); END"
            )
        else:
            connection.exec_driver_sql(
                "CREATE FUNCTION crash() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'power cut'; END $$"
            )
            connection.exec_driver_sql(
                "CREATE TRIGGER crash BEFORE INSERT ON transfers FOR EACH ROW EXECUTE FUNCTION crash()"
            )
    try:
        yield
    finally:
        with ledger.engine.begin() as connection:
            connection.exec_driver_sql("DROP TRIGGER crash" + ("" if sqlite else " ON transfers"))
            if not sqlite:
                connection.exec_driver_sql("DROP FUNCTION crash()")


@pytest.mark.parametrize("who", ["detected", "admin"])
def test_a_crash_while_fining_leaves_no_warning_without_its_fine(ledger: Ledger, mod: Moderation, who: str) -> None:
    """Warning and fine are one transaction: a crash while booking the fine leaves nothing, and the redelivered
    message books both exactly once."""
    bob = _bob(ledger)

    def punish() -> object:
        if who == "admin":
            return mod.fine(bob, 300, "不服从管理", message_id=7, source="t:1", by=1)
        return mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")

    with _transfers_fail(ledger), pytest.raises(sa.exc.DBAPIError, match="power cut"):
        punish()
    assert mod.actions(CHAT) == [] and ledger.balances(CHAT).pot == 0  # nothing half-written
    punish()
    punish()
    kinds = sorted(a.kind for a in mod.actions(CHAT))
    assert kinds == (["fine"] if who == "admin" else ["fine", "warning"])
    assert ledger.balances(CHAT).pot == (300 if who == "admin" else 500)


def test_cancelled_fine_restores_the_balance_and_keeps_the_record(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    result = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert result.fine is not None
    cancelled = mod.cancel(result.fine.id, chat_id=CHAT, by=1, reason="误判", source="t:2")
    assert cancelled.cancelled_at is not None and cancelled.cancel_reason == "误判" and cancelled.cancelled_by == 1
    balances = ledger.balances(CHAT)
    assert balances.of(bob.id) == 0 and balances.pot == 0
    with pytest.raises(LedgerError) as err:
        mod.cancel(result.fine.id, chat_id=CHAT, by=1, reason="again", source="t:3")
    assert err.value.code == "mod_already_cancelled"
    assert len(mod.standing(bob).actions) == 2  # nothing erased


def test_a_fine_already_paid_out_of_the_pot_is_not_cancelled(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    carol = ledger.member(CHAT, 102, "carol", None)
    fined = mod.fine(bob, 500, "迟到", message_id=None, source="t:1", by=1)
    ledger.pay_out_pot(CHAT, [carol.id], source="t:2", by=1)
    with pytest.raises(LedgerError) as err:
        mod.cancel(fined.id, chat_id=CHAT, by=1, reason="误判", source="t:3")
    assert err.value.code == "fine_paid_out"
    balances = ledger.balances(CHAT)
    assert balances.pot == 0 and balances.of(bob.id) == -500 and mod.standing(bob).actions[0].live


def test_cancelled_warning_no_longer_counts_on_the_ladder(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    first = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    mod.cancel(first.warning.id, chat_id=CHAT, by=1, reason="", source="t:2")
    again = mod.record_offence(bob, "flood", "刷屏", message_id=8, source="t:3")
    assert (again.offence_number, again.step) == (1, "warn_fine")


def test_cancel_refuses_other_groups_records_and_removals(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    second_offence = [mod.record_offence(bob, "flood", "x", message_id=i, source=f"t:{i}") for i in (1, 2)][1]
    assert second_offence.removal is not None
    with pytest.raises(LedgerError) as err:
        mod.cancel(second_offence.removal.id, chat_id=CHAT, by=1, reason="", source="t:9")
    assert err.value.code == "mod_cannot_cancel"
    with pytest.raises(LedgerError) as err:
        mod.cancel(second_offence.warning.id, chat_id=-1, by=1, reason="", source="t:10")
    assert err.value.code == "mod_not_found"


def test_warnings_expire_after_the_configured_days(ledger: Ledger, mod: Moderation, clock: Clock) -> None:
    bob = _bob(ledger)
    mod.update_settings(CHAT, {"warning_expiry_days": "30"}, by=1)
    mod.record_offence(bob, "flood", "刷屏", message_id=1, source="t:1")
    clock.advance(days=31)
    later = mod.record_offence(bob, "flood", "刷屏", message_id=2, source="t:2")
    assert (later.offence_number, later.step) == (1, "warn_fine")
    assert mod.standing(bob).live_warnings == 1


def test_warnings_never_expire_by_default(ledger: Ledger, mod: Moderation, clock: Clock) -> None:
    bob = _bob(ledger)
    mod.record_offence(bob, "flood", "刷屏", message_id=1, source="t:1")
    clock.advance(days=3650)
    assert mod.record_offence(bob, "flood", "刷屏", message_id=2, source="t:2").step == "remove"


def test_admin_warning_counts_on_the_ladder_without_a_fine(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    warned = mod.record_offence(bob, "manual", "不服从管理", message_id=None, source="t:1", by=1, step="warn")
    assert warned.fine is None and warned.warning.issued_by == 1 and ledger.balances(CHAT).pot == 0
    assert mod.record_offence(bob, "flood", "刷屏", message_id=2, source="t:2").step == "remove"


def test_admin_fine_and_lasting_ban(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    fine = mod.fine(bob, 250, "迟到", message_id=None, source="t:1", by=1)
    assert fine.amount == 250 and fine.transfer_id is not None and ledger.balances(CHAT).pot == 250
    assert mod.fine(bob, 250, "迟到", message_id=None, source="t:1", by=1).id == fine.id
    with pytest.raises(LedgerError):
        mod.fine(bob, 0, "零", message_id=None, source="t:2", by=1)
    ban = mod.remove(bob, "广告", lasting=True, message_id=None, source="t:3", by=1)
    assert ban.kind == "ban"
    assert mod.cancel(ban.id, chat_id=CHAT, by=1, reason="解封", source="t:4").cancelled_at is not None


def test_a_custom_ladder_and_fine(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    mod.update_settings(CHAT, {"ladder": "warn warn_fine ban", "fine_amount": 1000}, by=1)
    steps = [mod.record_offence(bob, "flood", "x", message_id=i, source=f"t:{i}") for i in range(1, 5)]
    assert [s.step for s in steps] == ["warn", "warn_fine", "ban", "ban"]
    assert ledger.balances(CHAT).pot == 1000


def test_a_ladder_may_repeat_a_step(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    mod.update_settings(CHAT, {"ladder": "warn warn remove"}, by=1)
    assert mod.settings(CHAT).ladder == ("warn", "warn", "remove")
    steps = [mod.record_offence(bob, "flood", "x", message_id=i, source=f"t:{i}") for i in range(1, 4)]
    assert [s.step for s in steps] == ["warn", "warn", "remove"]
    with pytest.raises(LedgerError) as err:
        mod.update_settings(CHAT, {"ladder": " ".join(["warn"] * 11)}, by=1)
    assert err.value.code == "mod_bad_setting"


def test_settings_default_to_the_seed_and_refuse_bad_values(ledger: Ledger, mod: Moderation) -> None:
    assert mod.settings(CHAT) == RuleSettings()
    assert (RuleSettings().flood_max_messages, RuleSettings().flood_window_seconds) == (5, 10)
    assert (RuleSettings().repeat_count, RuleSettings().fine_amount) == (3, 500)
    for change in [
        {"flood_max_messages": "lots"},
        {"flood_window_seconds": 0},
        {"repeat_count": 1},
        {"ladder": "warn explode"},
        {"namecard_pattern": "(("},
        {"no_such": 1},
        {"links": "maybe"},
        {"fine_amount": 0},  # a fine books 0.01元 at least (docs/security.md)
    ]:
        with pytest.raises(LedgerError) as err:
            mod.update_settings(CHAT, change, by=1)
        assert err.value.code == "mod_bad_setting"
    assert mod.settings(CHAT) == RuleSettings()  # nothing changed
    new = mod.update_settings(CHAT, {"links": "关", "ad_keywords": "代购，加群"}, by=1)
    assert not new.links and new.ad_keywords == ("代购", "加群")
    assert mod.settings(CHAT) == new
    assert mod.update_settings(CHAT, {"ad_keywords": "无"}, by=1).ad_keywords == ()


def test_rules_text_history_is_kept(ledger: Ledger, mod: Moderation, clock: Clock) -> None:
    assert mod.rules_text(CHAT).text == DEFAULT_RULES_TEXT and mod.rules_history(CHAT) == []
    mod.set_rules_text(CHAT, "第一版", by=1, source="t:1")
    clock.advance(hours=1)
    current = mod.set_rules_text(CHAT, "第二版", by=2, source="t:2")
    mod.set_rules_text(CHAT, "第二版", by=2, source="t:2")  # redelivered: no new version
    assert (current.text, current.edited_by) == ("第二版", 2)
    assert [(v.text, v.edited_by) for v in mod.rules_history(CHAT)] == [("第二版", 2), ("第一版", 1)]
    with pytest.raises(LedgerError):
        mod.set_rules_text(CHAT, "   ", by=1, source="t:3")


def test_one_time_flags(ledger: Ledger, mod: Moderation) -> None:
    assert mod.claim_rights_notice(CHAT) and not mod.claim_rights_notice(CHAT)
    assert mod.claim_reminder(CHAT, 42) and not mod.claim_reminder(CHAT, 42)
    assert mod.reminded(CHAT, 42) and not mod.reminded(CHAT, 43)


def test_two_offences_at_once_climb_the_ladder_in_turn(ledger: Ledger, mod: Moderation) -> None:
    """Two messages of one member handled at the same moment (two threads, as two bot processes would):
    one is the 1st offence (fined), the other the 2nd (removal) — never two 1st offences."""
    members = [ledger.member(CHAT, 100 + i, f"m{i}") for i in range(4)]
    for member in members:
        start = threading.Barrier(2)
        results = []

        def offend(
            source: str, member: MemberInfo = member, start: threading.Barrier = start, results: list = results
        ) -> None:
            start.wait()
            results.append(mod.record_offence(member, "flood", "刷屏", message_id=None, source=source))

        threads = [threading.Thread(target=offend, args=(f"race:{member.id}:{i}",)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted((r.offence_number, r.step) for r in results) == [(1, "warn_fine"), (2, "remove")]
    assert ledger.balances(CHAT).pot == 500 * len(members)
    assert len(mod.actions(CHAT, kinds=("fine",))) == len(members)


@pytest.mark.parametrize("asked", ["warning", "fine"])
def test_an_offences_warning_and_fine_are_cancelled_together(ledger: Ledger, mod: Moderation, asked: str) -> None:
    """A flood's warning and its fine are one penalty: cancelling either takes back both (the money too)."""
    bob = _bob(ledger)
    result = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert result.fine is not None
    one = result.warning if asked == "warning" else result.fine
    other = result.fine if asked == "warning" else result.warning
    pardon = mod.cancel_offence(one.id, chat_id=CHAT, by=1, reason="误判", source="t:2")
    assert [action.id for action in pardon.cancelled] == [one.id, other.id] and pardon.fine_kept is None
    assert all(not action.live for action in mod.actions(CHAT))
    assert ledger.balances(CHAT).of(bob.id) == 0 and ledger.balances(CHAT).pot == 0
    with pytest.raises(LedgerError) as again:
        mod.cancel_offence(other.id, chat_id=CHAT, by=1, reason="again", source="t:3")
    assert again.value.code == "mod_already_cancelled"


@pytest.mark.parametrize("asked", ["warning", "fine"])
@pytest.mark.parametrize("why", ["fine_paid_out", "fine_night_closed"])
def test_a_fine_that_cannot_be_refunded_stays_and_its_warning_is_cancelled(
    ledger: Ledger, mod: Moderation, asked: str, why: str
) -> None:
    """A flood fine already paid out of the pot, or of a night settled since, stays booked; the pardon cancels the
    warning all the same (it no longer counts on the ladder) and names the fine kept and why."""
    bob, carol = _bob(ledger), ledger.member(CHAT, 102, "carol", None)
    dave, erin = ledger.member(CHAT, 103, "dave", None), ledger.member(CHAT, 104, "erin", None)
    if why == "fine_night_closed":
        table = ledger.open_table(CHAT, [carol.id, dave.id, erin.id], source="t:open", by=1)
    result = mod.record_offence(bob, "flood", "刷屏", message_id=7, source="t:1")
    assert result.fine is not None
    if why == "fine_paid_out":
        ledger.pay_out_pot(CHAT, [carol.id], source="t:2", by=1)
    else:
        ledger.record_event(table.id, {"type": "draw"}, source="t:draw", by=1)
        ledger.end_night(CHAT, source="t:2", by=1)
    before = ledger.balances(CHAT)
    one = result.warning if asked == "warning" else result.fine
    pardon = mod.cancel_offence(one.id, chat_id=CHAT, by=1, reason="误判", source="t:3")
    assert [action.id for action in pardon.cancelled] == [result.warning.id]
    assert pardon.fine_kept is not None and pardon.fine_kept.id == result.fine.id and pardon.why_kept == why
    assert ledger.balances(CHAT) == before  # the fine's money stays where it went
    assert {a.kind: a.live for a in mod.actions(CHAT)} == {"warning": False, "fine": True}
    assert mod.record_offence(bob, "flood", "刷屏", message_id=8, source="t:4").step == "warn_fine"  # a 1st again
    with pytest.raises(LedgerError) as err:  # nothing left to cancel: the fine's reason
        mod.cancel_offence(result.fine.id, chat_id=CHAT, by=1, reason="again", source="t:5")
    assert err.value.code == why


def test_an_admins_own_fine_is_cancelled_alone(ledger: Ledger, mod: Moderation) -> None:
    bob = _bob(ledger)
    mod.record_offence(bob, "manual", "警告", message_id=7, source="t:1", by=1, step="warn")
    fined = mod.fine(bob, 300, "迟到", message_id=8, source="t:2", by=1)
    assert [a.id for a in mod.cancel_offence(fined.id, chat_id=CHAT, by=1, reason="", source="t:3").cancelled] == [
        fined.id
    ]
    assert [a.kind for a in mod.actions(CHAT) if a.live] == ["warning"]
