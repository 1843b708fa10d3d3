"""The ledger's one facade: every call the bot, the console, moderation and the Mini App make goes through `Ledger`.

Rules every method keeps:
- One database transaction per call (`ledger.unit`); nothing half-booked. A dropped connection or a retryable
  failure runs the call again whole.
- Every mutating call takes `source` (`tg:<chat>:<message>[:e<edit>]`, `console:<line>`): the same source twice
  books once and returns the first result, marked `replayed` (a unique constraint on the stored operation, so two
  processes racing with one source cannot both book).
- `by` is the acting user's Telegram id (the console derives a stable one); `None` means the bot itself.
- Corrections never delete: voids keep the rows with who/when/why; balances ignore voided rows.
- Money is integer 分; timestamps are timezone-aware UTC.
- Refusals raise `LedgerError` (a scoring refusal: `ScoringRefused`) with a stable `code` and a Chinese message;
  nothing is changed by a refused call.

Where the work is done: `accounts` (groups, settings, members, guests), `tables` (nights, tables, 日切),
`booking` (hands: events, scoring, undo, void, edit), `money` (fines, the pot, balances, settlement),
`transfers` (transfer rows and the running totals), `flows` (button-flow state).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from ledger import (
    accounts,
    booking,
    db,
    details,
    fees,
    flows,
    leaving,
    money,
    payment_codes,
    payments,
    payouts,
    tables,
    unit,
)
from ledger import models as m
from ledger.db import DEFAULT_URL, current_revision, head_revision, make_engine, normalize_url, utcnow
from ledger.errors import DuplicatePayment, DuplicateRecord, LedgerError, ScoringRefused
from ledger.events import Event
from ledger.history import hand_history, numbered_hand
from ledger.leaving import Agreer, TableLeft, VoidedTable
from ledger.payments import Debt, LineState, PaymentResult
from ledger.records import (
    Balance,
    Balances,
    ChatView,
    Flow,
    FlowAnswered,
    GroupInfo,
    HandRecord,
    HandResult,
    HandState,
    MemberInfo,
    MemberRecord,
    MessageHand,
    NightClosed,
    NightInfo,
    NightTotal,
    Passed,
    Payment,
    PayoutInfo,
    Seat,
    Settlement,
    TableInfo,
    TableRecord,
    TransferInfo,
    Unsettled,
    VoidedHand,
    VoidResult,
)
from ledger.unit import Tx, Unit, get_row

POT_NAME = accounts.POT_NAME

#: an event as the command layer builds it, or the scoring contract's JSON of one
EventLike = Event | Mapping[str, Any]

log = logging.getLogger(__name__)


class Ledger:
    """The service. Build it with `Ledger.open(url)`; methods are safe to call from several processes at once."""

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self._unit = Unit(engine, clock or utcnow)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        upgrade: bool = True,
        clock: Callable[[], datetime] | None = None,
        connections: int | None = None,
    ) -> Ledger:
        """Connect (default: `sqlite:///paiju.db`); with `upgrade` an empty or old database is migrated to head.

        `clock` returns the current time (timezone-aware); the console passes its simulated clock. `connections`:
        how many threads use the ledger at once (a server database keeps that many connections open).
        """
        url = normalize_url(url or DEFAULT_URL)
        engine = make_engine(url, connections=connections)
        if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
            engine.dispose()  # every connection would see its own empty database, migrations included
            raise LedgerError("bad_url", "不支持内存中的 SQLite 数据库：请给一个文件路径（如 paiju.db）")
        if upgrade and (found := current_revision(engine)) != head_revision():
            db.upgrade(url)
            log.info("database upgraded from %s to %s", found or "empty", head_revision())
        return cls(engine, clock=clock)

    def close(self) -> None:
        """Dispose of the connection pool."""
        self.engine.dispose()

    def now(self) -> datetime:
        """The ledger's clock (timezone-aware UTC): what it stamps on the rows it writes."""
        return self._unit.now()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # groups ---------------------------------------------------------------------------------------------
    def chat(self, chat_id: int, *, title: str = "", user_id: int | None = None) -> ChatView:
        """The chat's group (created on first sight) and its open table with the seats, and how many flows `user_id`
        started there still wait, in one read."""
        view = self._unit.read(lambda tx: tables.chat_view(tx, chat_id, user_id), one_statement=True)
        if view is not None:
            return view
        group = self.group(chat_id, title=title)  # created, or the chat moved to a new id (`move_chat`): read there
        view = self._unit.read(lambda tx: tables.chat_view(tx, group.chat_id, user_id), one_statement=True)
        return view if view is not None else ChatView(group, None)

    def move_chat(self, old_chat_id: int, new_chat_id: int, *, source: str, by: int | None) -> GroupInfo | None:
        """Telegram gave the chat a new id (a group upgraded to a supergroup): the group — ledger, settings,
        members, open table, penalties, button flows — moves to `new_chat_id` in one transaction. Idempotent
        (both chats announce the move, in either order); updates of the old chat still in flight reach the
        group at its new id. Returns the moved group (None when the old chat had none)."""
        return self._unit.once(
            source,
            "move_chat",
            by,
            GroupInfo | None,
            lambda tx: accounts.move_chat(tx, old_chat_id, new_chat_id),
        )

    def group(self, chat_id: int, *, title: str = "") -> GroupInfo:
        """Get or create the group of a Telegram chat (defaults: 卡五星, preset xiangyang, 底金 100 分, zh)."""
        found = self._unit.read(lambda tx: accounts.find_group(tx, chat_id))
        if found is not None:
            return found
        return self._unit.write(lambda tx: accounts.group_info(accounts.create_group(tx, chat_id, title)))

    def update_group(self, chat_id: int, *, source: str, by: int | None, **changes: Any) -> GroupInfo:
        """Change settings: game, rules (a full `{"preset", ...overrides}` dict), base, currency, language,
        cutoff_hour, timezone, title. Who/when is recorded; running tables keep their snapshot. Changing the
        game without giving rules resets the rules to that game's default."""
        clean = accounts.validated_settings(changes)
        return self._unit.once(
            source, "update_group", by, GroupInfo, lambda tx: accounts.update_group(tx, chat_id, clean)
        )

    # members --------------------------------------------------------------------------------------------
    def member(self, chat_id: int, user_id: int, display_name: str, username: str | None = None) -> MemberInfo:
        """Get or create a member by Telegram id; a changed display name or username is updated."""
        # Telegram's, of any length and spelling: never refused, kept as a chat shows it (`accounts.visible`)
        display_name = accounts.visible(display_name)[:255] or str(user_id)
        username = username.lstrip("@")[:64] if username else None
        found = self._unit.read(lambda tx: accounts.find_member_by_user(tx, chat_id, user_id))
        if found is not None and (found.display_name, found.username) == (display_name, username):
            return found
        return self._unit.write(lambda tx: accounts.ensure_member(tx, chat_id, user_id, display_name, username))

    def guest(self, chat_id: int, name: str) -> MemberInfo:
        """Get or create a guest (no Telegram account) seated by name."""
        name = accounts.clean_name(name, "客人名字")
        return self._unit.write(lambda tx: accounts.guest(tx, chat_id, name))

    def find_member(self, chat_id: int, name: str) -> MemberInfo | None:
        """A member or unlinked guest by alias, display name or @username (case-insensitive), or None.

        A label lookup (whose name is this?), never the account money moves to: that is `member_by_username`,
        a member by Telegram id (`member`) or `find_guest`. Raises `ambiguous_member` when two accounts match
        equally well."""
        return self._unit.read(lambda tx: accounts.find_member(tx, chat_id, name))

    def member_by_username(self, chat_id: int, username: str) -> MemberInfo | None:
        """The member whose own messages reported this Telegram username (case-insensitive), or None."""
        return self._unit.read(lambda tx: accounts.member_by_username(tx, chat_id, username))

    def find_guest(self, chat_id: int, name: str) -> MemberInfo | None:
        """The unlinked guest shown under this name (case-insensitive), or None."""
        return self._unit.read(lambda tx: accounts.find_guest(tx, chat_id, name))

    def names(self, chat_id: int) -> dict[int, str]:
        """Every account's name by id as every view shows it: distinct within the group (老王, 老王#2)."""
        return self._unit.read(lambda tx: accounts.names(tx, accounts.group_by_chat(tx.session, chat_id).id))

    def members(self, chat_id: int) -> list[MemberInfo]:
        """Every account of the group: members, unlinked guests and the pot."""
        return self._unit.read(lambda tx: accounts.members(tx, chat_id))

    def set_alias(self, member_id: int, alias: str | None, *, source: str, by: int | None) -> MemberInfo:
        """Set (or clear with None) the 名片 the ledger shows; refused when another account already shows it."""
        clean = accounts.clean_name(alias, "名片") if alias is not None else None
        return self._unit.once(source, "set_alias", by, MemberInfo, lambda tx: accounts.set_alias(tx, member_id, clean))

    def link_guest(self, guest_id: int, member_id: int, *, source: str, by: int | None) -> MemberInfo:
        """Link a guest to a real member: seats and transfers move to the member, the guest is kept as linked."""
        return self._unit.once(
            source, "link_guest", by, MemberInfo, lambda tx: money.link_guest(tx, guest_id, member_id)
        )

    # nights and tables ----------------------------------------------------------------------------------
    def open_table(
        self,
        chat_id: int,
        seats: Sequence[int | str],
        *,
        dealer: int | str | None = None,
        source: str,
        by: int | None,
    ) -> TableInfo:
        """Seat players (in play order: member ids, or a guest's name) at a new table of the group's game with a
        snapshot of its rules. A guest named is the unlinked guest of that name, created in the same transaction:
        a refused table creates no guest.

        Opens tonight's night if needed (a night left open from an earlier 日切 date is closed first, its
        settlement stored). An open table of the chat is ended first. `dealer` (an id or a guest's name, as in
        `seats`) defaults to the first seat.
        """
        return self._unit.once(
            source, "open_table", by, TableInfo, lambda tx: tables.open_table(tx, chat_id, seats, dealer)
        )

    def current_table(self, chat_id: int) -> TableInfo | None:
        return self._unit.read(lambda tx: tables.current_table(tx, chat_id))

    def table(self, table_id: int) -> TableInfo:
        return self._unit.read(lambda tx: tables.table(tx, table_id))

    def current_night(self, chat_id: int) -> NightInfo | None:
        return self._unit.read(lambda tx: tables.current_night(tx, chat_id))

    def night_shown_as_tonight(self, chat_id: int) -> NightInfo | None:
        """The night 本晚 shows: the open one, else the last one while it is still tonight (settled this evening)."""
        return self._unit.read(lambda tx: tables.night_shown_as_tonight(tx, chat_id))

    def end_table(self, table_id: int, *, source: str, by: int | None) -> TableInfo:
        """End a table; refused while its hand has events (finish or undo them first)."""
        return self._unit.once(source, "end_table", by, TableInfo, lambda tx: tables.end_table(tx, table_id))

    def leave_table(
        self, table_id: int, user_id: int, *, admin: bool, source: str, reason: str, agreed_by: int | None = None
    ) -> TableLeft:
        """`不玩`: end the table and void every hand of it, for a seated member who took no part in it (once money
        moved at it, with the word of one who must agree: `agreed_by`), or an admin (`leaving.leave_table`)."""
        return self._unit.once(
            source,
            "leave_table",
            user_id,
            TableLeft,
            lambda tx: leaving.leave_table(tx, table_id, user_id, admin=admin, reason=reason, agreed_by=agreed_by),
        )

    def leave_agreers(self, table_id: int, leaver: int) -> list[Agreer]:
        """Who must agree before `leaver`'s 退桌 voids the table (`leaving.agreers`); none while no money moved."""
        return self._unit.read(lambda tx: leaving.agreers(tx, table_id, leaver))

    def void_preview(self, table_id: int) -> TableLeft:
        """What voiding the table would take back: the hands holding a record, the money they moved (分)."""
        return self._unit.read(lambda tx: leaving.void_preview(tx, table_id))

    def voided_table(self, chat_id: int) -> VoidedTable | None:
        """The group's latest table when a void ended it and it can still be restored (`leaving.voided_table`)."""
        return self._unit.read(lambda tx: leaving.voided_table(tx, chat_id))

    def restore_table(self, chat_id: int, user_id: int, *, admin: bool, source: str) -> VoidedTable:
        """Undo a table's void, exactly (`leaving.restore_table`): an admin's or its voider's 撤销."""
        return self._unit.once(
            source,
            "restore_table",
            user_id,
            VoidedTable,
            lambda tx: leaving.restore_table(tx, chat_id, user_id, admin=admin),
        )

    def end_night(self, chat_id: int, *, source: str, by: int | None) -> NightClosed:
        """End the open night (and its table) and post its settlement (stored and returned)."""
        return self._unit.once(source, "end_night", by, NightClosed, lambda tx: tables.end_night(tx, chat_id))

    def settlement_to_undo(self, chat_id: int) -> Settlement:
        """The group's latest night settlement if an admin can take it back (撤销结算); refused (`LedgerError`) with
        the reason otherwise: settled again since, the pot or the house paid out since, a new night begun, a
        payment that counts on it (`PaidSince`, naming each: `tables.refuse_if_paid_since`)."""

        def body(tx: Tx) -> Settlement:
            group = accounts.group_by_chat(tx.session, chat_id)
            return money.stored(tx, tables.settlement_to_undo(tx, group.id))

        return self._unit.read(body)

    def unsettle(self, chat_id: int, *, source: str, by: int | None, expect: int | None = None) -> Unsettled:
        """Take back the group's latest night settlement (撤销结算) and restore the books as they were before it:
        the debts it moved, the 台费 its close booked, the night and its table open again. `expect`: the
        settlement's id as a question showed it (refused, `settlement_changed`, if another is the latest now)."""
        return self._unit.once(source, "unsettle", by, Unsettled, lambda tx: tables.unsettle(tx, chat_id, expect))

    # hands ----------------------------------------------------------------------------------------------
    def record_event(
        self, table_id: int, event: EventLike, *, source: str, by: int | None, check_repeat: bool = False
    ) -> HandResult:
        """Append one event to the table's open hand: a typed event (`ledger.events`) or the scoring contract's
        JSON of one (`paiju score`'s `events`, seat names as players).

        Scores the hand so far (`partial=True`), books the new event's transfers at once (kong money), and
        voids/rebooks an earlier event whose transfers changed. A terminal event closes the hand and advances
        dealer and hand number. 够级: one event (a `GoujiRound`) is a whole round. The first event of a hand after
        the 日切 hour opens a new night for the same seats (`HandResult.new_night`). `check_repeat`: see
        `record_events`.
        """
        return self.record_events(table_id, [event], source=source, by=by, check_repeat=check_repeat)

    def record_events(
        self,
        table_id: int,
        events: Sequence[EventLike],
        *,
        source: str,
        by: int | None,
        check_repeat: bool = False,
        recap: bool = False,
        told_at: datetime | None = None,
    ) -> HandResult:
        """Append several events in one transaction (e.g. the two `hu` of a 一炮双响); `told_at`: when a record that
        waited (for its answers, its 确认) was told, which decides its night at the 日切 hour (`booking.append`).

        With `check_repeat` (the chat does: `repeat` is for a confirmed repeat), a record that repeats the
        table's previous one, recorded by someone else within the group's double-entry window, is refused with
        `DuplicateRecord` (carrying that record); so is another ending of the 卡五星 hand just ended, and with
        `recap` (the line says it tells the hand just recorded) any ending of it (`booking._refuse_repeat`)."""
        return self._unit.once(
            source,
            "record",
            by,
            HandResult,
            lambda tx: booking.append(
                tx, table_id, events, whole_hand=False, check_repeat=check_repeat, recap=recap, told_at=told_at
            ),
            checks_source=True,
        )

    def record_hand(self, table_id: int, events: Sequence[EventLike], *, source: str, by: int | None) -> HandResult:
        """Record a whole hand at once (the one-message win); refused if the open hand already has events."""
        return self._unit.once(
            source,
            "record",
            by,
            HandResult,
            lambda tx: booking.append(tx, table_id, events, whole_hand=True),
            checks_source=True,
        )

    def hand_state(self, table_id: int) -> HandState:
        """The open hand for display: events so far, 亮倒 declarations, number, dealer, money booked so far."""
        return self._unit.read(lambda tx: booking.hand_state(tx, table_id))

    def answered(self, source: str) -> bool:
        """Whether a booking with this source was made already (a redelivered update finds its own)."""
        return (
            self._unit.read(lambda tx: tx.connection.execute(unit.FIND_OPERATION, {"source": source}).first())
            is not None
        )

    def refuse_repeat(
        self,
        table_id: int,
        events: Sequence[EventLike],
        *,
        by: int | None,
        anytime: bool = False,
        recap: bool = False,
    ) -> None:
        """Raise `DuplicateRecord` when `events`, recorded `by` someone, would be held back as a double entry if
        booked now (`record_events` with `check_repeat` and `recap`; `anytime`: however long ago the previous
        record was); nothing is written."""
        self._unit.read(lambda tx: booking.refuse_repeat(tx, table_id, events, by, anytime=anytime, recap=recap))

    def latest_record(self, table_id: int) -> TableRecord | None:
        """The table's latest record — what `undo` takes back — with who recorded it and when; None when the
        table has nothing to take back."""
        return self._unit.read(lambda tx: booking.latest_record(tx, table_id))

    def finished_hand(self, table_id: int, number: int) -> TableRecord | None:
        """The ending record of the table's finished hand `number` (None when there is none)."""
        return self._unit.read(lambda tx: booking.finished_hand(tx, table_id, number))

    def voided_hand(self, table_id: int, number: int) -> VoidedHand | None:
        """The table's finished hand `number` taken back whole, the latest such (None when there is none)."""
        return self._unit.read(lambda tx: booking.voided_hand(tx, table_id, number))

    def undo(
        self, table_id: int, *, source: str, by: int | None, reason: str = "", expect: int | None = None
    ) -> VoidResult:
        """Take back exactly one record, the table's latest (`latest_record`): in the hand in progress, or the
        ending of the latest finished hand, which reopens it with its kongs and 亮倒. `expect`: the id of the
        record's last event as shown to whoever confirmed; refused (`record_changed`) if it is no longer the
        latest. Refused once the night is settled."""
        return self._unit.once(
            source, "undo", by, VoidResult, lambda tx: booking.undo(tx, table_id, reason or "撤销", expect=expect)
        )

    def void_hand(
        self, hand_id: int, *, source: str, by: int | None, reason: str = "", table_id: int | None = None
    ) -> VoidResult:
        """Void a finished hand (its transfers too). Voiding the table's last hand restores its dealer/number.
        Refused once its night is settled, and (given `table_id`) for a hand of another table."""
        return self._unit.once(
            source,
            "void_hand",
            by,
            VoidResult,
            lambda tx: booking.void_hand(tx, hand_id, reason or "作废", table_id=table_id),
        )

    def recorded_table(self, original_source: str) -> TableInfo | None:
        """The table a message recorded at (an edit is read against its seats), None when it recorded nothing
        live; refused (`night_closed`) once that night is settled."""

        def body(tx: Tx) -> TableInfo | None:
            table_id = booking.recorded_table(tx, original_source)
            return tables.table(tx, table_id) if table_id is not None else None

        return self._unit.read(body)

    def recorded_hand(self, original_source: str) -> tuple[int, bool] | None:
        """(number, finished) of the hand a message recorded in, None when it recorded nothing live; refused
        (`night_closed`) once that night is settled."""
        return self._unit.read(lambda tx: booking.recorded_hand(tx, original_source))

    def message_hand(self, original_source: str) -> MessageHand | None:
        """The hand a message recorded in (`tg:<chat>:<message>`; its edits and a flow it asked for too), whatever
        table it was at — open or ended since: what a reply's 撤销 takes back. None when the message never recorded
        anything; refused (`record_taken_back`) when what it recorded was taken back, and (`hand_night_settled`)
        once that hand's night is settled."""

        def body(tx: Tx) -> MessageHand | None:
            found = booking.message_hand(tx, original_source)
            if found is None:
                return None
            table_id, hand_id, event_ids, night_date = found
            number, finished, events, first = booking.hand_events(tx, hand_id, event_ids)
            return MessageHand(
                tables.table(tx, table_id), hand_id, number, finished, events, event_ids, night_date, events[:first]
            )

        return self._unit.read(body)

    def replace_hand(
        self,
        original_source: str,
        events: Sequence[EventLike],
        *,
        source: str,
        by: int | None,
        reason: str = "",
    ) -> HandResult:
        """Edit: the events `original_source` recorded (or an earlier edit of it, `<source>:e<n>`) are replaced
        by `events`; their hand is voided and a new hand with the other events kept in place is recorded and
        linked to it (`replaces`). Works on the open hand and on finished hands; refused (`night_closed`) once the
        night is settled, and (`unchanged`) when the edit records exactly what was recorded."""
        if isinstance(events, Mapping) or not events:
            raise LedgerError("bad_event", "至少要记一个事件")

        def body(tx: Tx) -> HandResult:
            return booking.replace(tx, original_source, events, reason or "修改")

        return self._unit.once(source, "replace_hand", by, HandResult, body)

    def check_replace(self, original_source: str, events: Sequence[EventLike]) -> None:
        """Raise what `replace_hand` would refuse (a `ScoringRefused` among them), writing nothing."""
        self._unit.read(lambda tx: booking.check_replace(tx, original_source, events))

    # fines and the pot ----------------------------------------------------------------------------------
    def fine(self, member_id: int, amount: int, reason: str, *, source: str, by: int | None) -> TransferInfo:
        """Book a fine: the member pays `amount` 分 into the group's pot (红包池)."""
        accounts.check_amount(amount)
        return self._unit.once(source, "fine", by, TransferInfo, lambda tx: money.fine(tx, member_id, amount, reason))

    def cancel_fine(self, transfer_id: int, *, source: str, by: int | None, reason: str = "") -> TransferInfo:
        """Void a fine (kept, marked with who/when/why)."""
        return self._unit.once(
            source, "cancel_fine", by, TransferInfo, lambda tx: money.cancel_fine(tx, transfer_id, reason or "取消罚款")
        )

    def pay_out_pot(
        self,
        chat_id: int,
        to: Sequence[int] | Mapping[int, int],
        *,
        amount: int | None = None,
        source: str,
        by: int | None,
    ) -> list[TransferInfo]:
        """Pay out the pot: a sequence splits `amount` (default: the whole pot) evenly, the remainder 分 staying
        in the pot; a mapping member id -> 分 pays those amounts. Refused beyond what the pot holds."""
        return self._unit.once(
            source, "pay_out_pot", by, list[TransferInfo], lambda tx: money.pay_out_pot(tx, chat_id, to, amount)
        )

    def pay_out_house(
        self, chat_id: int, to: Sequence[int], *, amount: int | None = None, source: str, by: int | None
    ) -> list[TransferInfo]:
        """付台费: pay the table fees out of the house account to `to`, split evenly (default: all it holds)."""
        return self._unit.once(
            source,
            "pay_out_house",
            by,
            list[TransferInfo],
            lambda tx: money.pay_out_pot(tx, chat_id, to, amount, pool=m.HOUSE),
        )

    def payout_to_undo(self, chat_id: int, pool: str) -> PayoutInfo:
        """The group's latest payout of `pool` ("pot": 发红包池, "house": 付台费) if an admin can take it back;
        refused (`LedgerError`) with the reason otherwise: none, its night settled, or (one booked between nights)
        a payment, a night's 结算 or a payout of the other account since (`ledger.payouts`)."""
        return self._unit.read(lambda tx: payouts.payout(tx, chat_id, pool))

    def undo_payout(
        self, chat_id: int, pool: str, *, source: str, by: int | None, expect: int | None = None
    ) -> PayoutInfo:
        """撤销发红包池 / 撤销付台费: take back the latest payout of `pool` whole — its transfers voided and, for one
        settled at once, its settlement's debts moved back and the settlement voided — in one transaction.
        `expect`: its first transfer's id as a question showed it (refused, `payout_changed`, if another is the
        latest now)."""
        return self._unit.once(
            source, "undo_payout", by, PayoutInfo, lambda tx: payouts.undo_payout(tx, chat_id, pool, expect)
        )

    def register_payment_code(self, member_id: int, app: str, file_id: str, *, source: str, by: int | None) -> str:
        """收款码: store (or replace) a member's payment QR code for `app` as the photo's file id."""
        return self._unit.once(
            source, "payment_code", by, str, lambda tx: payment_codes.register(tx, member_id, app, file_id)
        )

    def remove_payment_codes(self, member_id: int, app: str | None, *, source: str, by: int | None) -> int:
        """Delete a member's payment code for `app` (None: all); how many went."""
        return self._unit.once(
            source, "payment_code_removed", by, int, lambda tx: payment_codes.remove(tx, member_id, app)
        )

    def payment_codes(self, chat_id: int, member_ids: Sequence[int]) -> dict[int, list[tuple[str, str]]]:
        """The payment codes of those members of the chat that have one: id -> [(app, file id)]."""
        return self._unit.read(
            lambda tx: payment_codes.codes(tx, accounts.group_by_chat(tx.session, chat_id).id, member_ids)
        )

    def table_fees(self, chat_id: int) -> fees.Fees:
        """The group's table fee settings (台费/抽水)."""
        return self._unit.read(lambda tx: fees.fees_of_chat(tx, chat_id))

    def set_fees(self, chat_id: int, changes: Mapping[str, int | None], *, source: str, by: int | None) -> fees.Fees:
        """Change the group's table fees (keys of `Fees`); the house account is created on first use."""
        return self._unit.once(source, "set_fees", by, fees.Fees, lambda tx: fees.set_fees(tx, chat_id, changes))

    # balances, history, settlement ----------------------------------------------------------------------
    def balances(self, chat_id: int) -> Balances:
        """All-time balances of every account (running totals: one indexed query whatever the history)."""
        return self._unit.read(lambda tx: money.balances(tx, chat_id))

    def night_balances(self, night_id: int) -> Balances:
        """A night: its tables' hands (edits made later included), plus fines and payouts booked while it was
        open."""
        return self._unit.read(lambda tx: money.night_balances(tx, get_row(tx.session, m.Night, night_id, "牌局")))

    def night_totals(self, night_id: int) -> dict[int, int]:
        """A night's running totals by account id (kept with every booking; accounts that net to zero may be
        absent)."""
        return self._unit.read(lambda tx: money.night_totals(tx, night_id))

    def table_balances(self, table_id: int) -> Balances:
        def body(tx: Tx) -> Balances:
            found = get_row(tx.session, m.GameTable, table_id, "桌")
            return money.sum_balances(tx, found.group_id, m.Transfer.table_id == found.id)

        return self._unit.read(body)

    def period_balances(self, chat_id: int, since: datetime | None, until: datetime | None) -> Balances:
        """Balances over transfers booked in [since, until)."""

        def body(tx: Tx) -> Balances:
            group = accounts.group_by_chat(tx.session, chat_id)
            return money.sum_balances(tx, group.id, *money.period(since, until))

        return self._unit.read(body)

    def history(self, chat_id: int, limit: int = 10, *, include_voided: bool = False) -> list[HandRecord]:
        """The last `limit` finished hands, newest first (with voided ones when asked)."""
        return self._unit.read(lambda tx: hand_history(tx.session, chat_id, limit, include_voided=include_voided))

    def numbered_hand(self, chat_id: int, number: int) -> HandRecord | None:
        """Finished hand `number` of the group's latest table (open, or the last to end); None when it has none."""
        return self._unit.read(lambda tx: numbered_hand(tx.session, chat_id, number))

    def member_record(self, member_id: int, *, recent: int = 20) -> MemberRecord:
        """Balance, finished hands played and won, live fines, and the latest transfers of one account."""
        return self._unit.read(lambda tx: money.member_record(tx, member_id, recent))

    def settle_night(self, night_id: int) -> Settlement:
        """A night's settlement: the one `end_night` (or the 日切 roll-over) stored for a closed night — what was
        settled, earlier debts netted in (并账) — else the fewest payments of the open night's balances so far."""
        return self._unit.read(lambda tx: money.settle_night(tx, night_id))

    def settle_period(self, chat_id: int, since: datetime | None, until: datetime | None) -> Settlement:
        return money.settlement_of(self.period_balances(chat_id, since, until))

    # payments (未结) -------------------------------------------------------------------------------------
    def debts(self, chat_id: int, among: Sequence[int] | None = None) -> list[Debt]:
        """The group's open debts from its settlements, less payments (those among `among` only, when given); debts to
        or from the pot or the house among them (they wait for a payout: `payments.pass_through`)."""
        return self._unit.read(lambda tx: payments.debts(tx, chat_id, among))

    def waiting_payments(self, chat_id: int) -> list[payments.Waiting]:
        """Payments one side told that the other side has not confirmed yet (`payments.waiting`)."""
        return self._unit.read(lambda tx: payments.waiting(tx, chat_id))

    def debts_agree(self, chat_id: int) -> bool:
        """Whether the group's open debts kept per pair equal their re-derivation from every settlement and payment
        (a check, linear in the settlements: `paiju db copy` verifies with it)."""

        def body(tx: Tx) -> bool:
            group_id = accounts.group_by_chat(tx.session, chat_id).id
            return payments.pair_debts(tx, group_id) == payments.derived_pair_debts(tx, group_id)

        return self._unit.read(body)

    def pay(
        self,
        chat_id: int,
        debtor_id: int,
        creditor_id: int,
        amount: int | None = None,
        *,
        side: str,
        at_most: int | None = None,
        confirm_only: bool = False,
        line: tuple[int, int] | None = None,
        check_repeat: bool = False,
        source: str,
        by: int | None,
    ) -> PaymentResult:
        """`side` (`payments.PAYER_SIDE` 已付 or `PAYEE_SIDE` 收到) tells that the debtor paid the creditor `amount`
        分 (None: all that is owed, at most `at_most`). Confirms the other side's matching payment (same pair, not
        confirmed, within `payments.CONFIRM_WINDOW`, the same amount when one is given; with none, every such payment)
        or books a new one — more than the other side's waiting payments, and no more than those and what is owed:
        those confirmed and the rest booked (`PaymentResult.also_confirmed`); refused (`no_debt`, `overpaid`:
        `errors.Overpaid`) beyond what is owed; with `confirm_only`, refused (`nothing_to_confirm`) when there is
        nothing to confirm. A new payment records the line it settles: `line` (settlement id, index in
        its post: the line a button was pressed under), else the pair's oldest open line. The same source books
        once. With `check_repeat` (a typed payment), a new payment that repeats one `by` booked within the group's
        double-entry window (the same pair, amount and side) is refused with `DuplicatePayment`, and one below the
        other side's waiting payments that matches none of them with `ShortOfWaiting`."""
        if amount is not None:
            accounts.check_amount(amount, accounts.MAX_AMOUNT)
        return self._unit.once(
            source,
            "pay",
            by,
            PaymentResult,
            lambda tx: payments.pay(
                tx, chat_id, debtor_id, creditor_id, amount, side, at_most, confirm_only, line, check_repeat
            ),
        )

    def latest_settlement(self, chat_id: int) -> Settlement | None:
        """The group's latest stored settlement: a night's, or money of the pot or the house booked while no night
        was open, settled at once (`money.settle_at_once`)."""
        return self._unit.read(lambda tx: money.latest_settlement(tx, chat_id))

    def stored_settlement(self, chat_id: int, settlement_id: int) -> Settlement | None:
        """A settlement `end_night` stored, if it is this chat's (its payments, the night's balances it squared and
        the debts it carried)."""
        return self._unit.read(lambda tx: money.stored_settlement(tx, chat_id, settlement_id))

    def closed_night(self, chat_id: int, night_id: int) -> NightClosed | None:
        """A closed night of this chat with the settlement stored when it closed (结算 or the 日切 roll-over), as
        `end_night` answered it; None when the night is not this chat's or not closed."""

        def body(tx: Tx) -> NightClosed | None:
            settlement = money.night_settlement(tx, chat_id, night_id)
            night = tx.session.get(m.Night, night_id)
            if settlement is None or night is None or night.ended_at is None:
                return None
            return NightClosed(night=tables.night_info(night), settlement=settlement)

        return self._unit.read(body)

    def payment_lines(self, chat_id: int, settlement_id: int) -> list[LineState] | None:
        """Where each line of a stored settlement of this chat stands now (still owed, waiting for the other side's
        word); None when the settlement is not this chat's."""
        return self._unit.read(lambda tx: payments.line_states(tx, chat_id, settlement_id))

    def pair_standing(self, chat_id: int, debtor_id: int, creditor_id: int) -> list[int]:
        """Where a payment from the debtor to the creditor would go now (`payments.pair_standing`): a question about
        one held back books it only while this is unchanged."""
        return self._unit.read(lambda tx: payments.pair_standing(tx, chat_id, debtor_id, creditor_id))

    def set_payment_post(self, chat_id: int, settlement_id: int, message_id: int) -> None:
        """Keep the message a settlement's payments post was sent as (a typed payment rewrites it)."""
        self._unit.write(lambda tx: payments.set_post(tx, chat_id, settlement_id, message_id))

    def payment_posts_of(
        self, chat_id: int, debtor_id: int, creditor_id: int, settlement_id: int | None = None
    ) -> list[tuple[int, int]]:
        """(settlement id, message id) of the posts a typed payment between the two rewrites: `settlement_id`'s (the
        settlement of the payment's line) when posted and every later posted one with a line of the two, else the
        latest posted settlement with a line between the two; empty: none."""
        return self._unit.read(lambda tx: payments.posts_of_pair(tx, chat_id, debtor_id, creditor_id, settlement_id))

    def void_payment(
        self,
        chat_id: int,
        parties: Sequence[int],
        *,
        source: str,
        by: int | None,
        reason: str = "",
        admin: int | None = None,
        waiting_for: int | None = None,
        amount: int | None = None,
    ) -> PaymentResult:
        """Void exactly one payment: the latest live one between `parties` (one id: the latest it is party to).
        One both sides confirmed is refused (`payment_confirmed`) unless `admin` (an admin's account) voids it and
        is neither side of it (a payment with a guest, told by one side alone: that side too). `waiting_for`: only
        a payment waiting for that account's word (the payee's 没收到), of `amount` when given."""
        return self._unit.once(
            source,
            "void_payment",
            by,
            PaymentResult,
            lambda tx: payments.void_payment(
                tx, chat_id, parties, reason or "撤销付款", admin=admin, waiting_for=waiting_for, amount=amount
            ),
        )

    def latest_payment(self, chat_id: int, party: int) -> PaymentResult | None:
        """The latest live payment the account `party` is a side of (what an admin's 撤销付款 naming it takes back)."""
        return self._unit.read(lambda tx: payments.latest_payment(tx, chat_id, party))

    def night_details(self, chat_id: int, night_id: int) -> details.NightDetails:
        """明细: each pair of accounts' net for one of the chat's nights and the transfers behind it (the
        unsimplified view); another chat's night is not found."""
        return self._unit.read(
            lambda tx: details.night_details(tx, accounts.group_by_chat(tx.session, chat_id).id, night_id)
        )

    def latest_night(self, chat_id: int) -> int | None:
        """The chat's open night, else its last one (None before the first)."""
        return self._unit.read(lambda tx: details.latest_night(tx, accounts.group_by_chat(tx.session, chat_id).id))

    # inline-keyboard flows ------------------------------------------------------------------------------
    def save_flow(self, chat_id: int, message_id: int, user_id: int, kind: str, state: Mapping[str, Any]) -> Flow:
        """Create or update the flow attached to a bot message."""
        return self._unit.write(lambda tx: flows.save(tx, chat_id, message_id, user_id, kind, state))

    def load_flow(self, chat_id: int, message_id: int) -> Flow | None:
        """The flow of a bot message (finished ones too), or None."""
        return self._unit.read(lambda tx: flows.load(tx, chat_id, message_id))

    def finish_flow(self, chat_id: int, message_id: int) -> Flow | None:
        return self._unit.write(lambda tx: flows.finish(tx, chat_id, message_id))

    def expire_flows(self, idle: timedelta = flows.IDLE) -> int:
        """Finish every flow left waiting untouched for `idle` (the bot's hourly upkeep); how many."""
        return self._unit.write(lambda tx: flows.expire_idle(tx, tx.now - idle))

    def expire_records(self, idle: timedelta = flows.IDLE) -> list[Flow]:
        """Finish the records left waiting untouched for `idle` (a win waiting for its 漂/马, a 胡/杠 by taps; the
        hourly upkeep, before `expire_flows`): those finished by this call, each by one upkeep only."""
        return self._unit.write(lambda tx: flows.expire_records(tx, tx.now - idle))

    def answer_flow(self, chat_id: int, message_id: int, *, source: str, by: int | None) -> FlowAnswered:
        """Finish a question's flow for the typed line `source` that answered it (`算了`), once per line: the line
        delivered again gets its answer back (`replayed`) and finishes no other question."""

        def body(tx: Tx) -> FlowAnswered:
            flows.finish(tx, chat_id, message_id)
            return FlowAnswered(message_id)

        return self._unit.once(source, "answer_flow", by, FlowAnswered, body)

    def open_flows(
        self, chat_id: int | None = None, *, user_id: int | None = None, kinds: Collection[str] = ()
    ) -> list[Flow]:
        """Unfinished flows, oldest first (to resume after a restart); only those one user started, of some kinds
        (a question of theirs still waiting), when asked."""
        return self._unit.read(lambda tx: flows.unfinished(tx, chat_id, user_id, kinds), one_statement=True)


__all__ = [
    "POT_NAME",
    "Balance",
    "Balances",
    "ChatView",
    "Debt",
    "DuplicatePayment",
    "DuplicateRecord",
    "Flow",
    "FlowAnswered",
    "GroupInfo",
    "HandRecord",
    "HandResult",
    "HandState",
    "Ledger",
    "LedgerError",
    "LineState",
    "MemberInfo",
    "MemberRecord",
    "MessageHand",
    "NightClosed",
    "NightInfo",
    "NightTotal",
    "Passed",
    "Payment",
    "PaymentResult",
    "ScoringRefused",
    "Seat",
    "Settlement",
    "TableInfo",
    "TableRecord",
    "TransferInfo",
    "VoidResult",
    "VoidedHand",
]
