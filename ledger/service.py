"""The ledger's one service API: every transaction the bot and the console make goes through `Ledger`.

Rules every method keeps:
- One database transaction per state change, a fresh session per call; nothing half-booked.
- Every mutating call takes `source` (`tg:<chat>:<message>[:e<edit>]`, `console:<line>`): the same source twice
  books once and returns the first result (a unique constraint on the stored operation, so two processes racing
  with one source cannot both book).
- `by` is the acting user's Telegram id (the console derives a stable one); `None` means the bot itself.
- Corrections never delete: voids keep the rows with who/when/why; balances ignore voided rows.
- Money is integer 分; timestamps are timezone-aware UTC.
- Refusals raise `LedgerError` (a scoring refusal: `ScoringRefused`) with a stable `code` and a Chinese message;
  nothing is changed by a refused call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

# --------------------------------------------------------------------------------------------------- errors


class LedgerError(Exception):
    """A request the ledger refuses. `code` is stable (the bot picks its text by it); `message` is Chinese."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ScoringRefused(LedgerError):
    """The scoring core answered `ok: false`; `code`/`message` are the scoring core's own."""


# ------------------------------------------------------------------------------------------- return types


@dataclass(frozen=True)
class GroupInfo:
    """A chat and its settings. `rules` is `{"preset": ..., **overrides}` as sent to the scoring core."""

    id: int
    chat_id: int
    title: str
    game: str  # kawuxing | gouji | penghu
    rules: dict[str, Any]
    base: int  # 底金 in 分 (the stake per point for 够级/碰胡)
    currency: str  # display label only, e.g. "元"
    language: str  # zh | en
    cutoff_hour: int  # 日切: a night runs until this local hour of the next day
    timezone: str  # IANA name used for the night's date, default Asia/Shanghai
    updated_at: datetime
    updated_by: int | None


@dataclass(frozen=True)
class MemberInfo:
    """A ledger account: a Telegram member, a guest seated by name, or the group's pot (红包池)."""

    id: int
    group_id: int
    user_id: int | None  # None for guests and the pot
    display_name: str
    username: str | None
    alias: str | None  # 名片 shown in the ledger when set
    kind: str  # member | guest | pot
    linked_to: int | None  # a guest linked to a member: that member's id (the guest's history moved there)

    @property
    def name(self) -> str:
        """The name the ledger shows: the alias (名片) when set, else the display name."""
        return self.alias or self.display_name


@dataclass(frozen=True)
class Seat:
    """One seat at a table. `name` is the seat key used in scoring events (unique within the table)."""

    position: int  # 0-based, in play order
    name: str
    member_id: int


@dataclass(frozen=True)
class NightInfo:
    """A night (session): one evening's play; `night_date` is the local date before the 日切 cut-off."""

    id: int
    group_id: int
    night_date: date
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class TableInfo:
    """A table within a night: the seats, the dealer, and the rules/base SNAPSHOT the table plays under."""

    id: int
    group_id: int
    night_id: int
    game: str
    rules: dict[str, Any]
    base: int
    seats: tuple[Seat, ...]
    dealer: str | None  # seat name; None for 够级 (no dealer)
    hand_number: int  # the number the next (or open) hand carries, from 1
    started_at: datetime
    ended_at: datetime | None

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]


@dataclass(frozen=True)
class TransferInfo:
    """One booked transfer. `payer`/`payee` are ledger names (the pot is "红包池")."""

    id: int
    payer_id: int
    payer: str
    payee_id: int
    payee: str
    amount: int
    reason: str
    kind: str  # hand | fine | payout
    hand_id: int | None
    event_index: int | None  # index of the causing event among the hand's live events
    created_at: datetime
    voided: bool


@dataclass(frozen=True)
class HandResult:
    """The answer to recording one or more events (or a whole hand).

    `answer` is the scoring core's answer for the hand so far (patterns and multipliers in its `hands` field);
    `booked` are the transfers this call wrote, `voided` the earlier ones a recomputation replaced.
    """

    hand_id: int
    table_id: int
    number: int
    dealer: str | None
    events: tuple[dict[str, Any], ...]
    finished: bool
    answer: dict[str, Any]
    booked: tuple[TransferInfo, ...]
    voided: tuple[TransferInfo, ...]
    next_dealer: str | None  # the table's dealer after this call (the answer's next_dealer once finished)
    liangdao: tuple[str, ...]  # players who have declared 亮倒 in this hand


@dataclass(frozen=True)
class HandState:
    """The open hand of a table, for display: nothing recorded yet gives `hand_id=None` and no events."""

    table_id: int
    hand_id: int | None
    number: int
    dealer: str | None
    events: tuple[dict[str, Any], ...]
    liangdao: tuple[str, ...]
    transfers: tuple[TransferInfo, ...]  # live transfers booked for this hand so far (kong money …)


@dataclass(frozen=True)
class VoidResult:
    """What an undo or void did: a whole hand, or the last event of the open hand."""

    what: str  # "hand" | "event" | "fine"
    hand_id: int | None
    event: dict[str, Any] | None
    voided: tuple[TransferInfo, ...]
    rebooked: tuple[TransferInfo, ...]  # earlier events' transfers booked again after recomputation
    dealer: str | None  # the table's dealer afterwards
    hand_number: int | None


@dataclass(frozen=True)
class Balance:
    member_id: int
    name: str
    kind: str  # member | guest | pot
    amount: int  # 分; positive: the ledger owes them


@dataclass(frozen=True)
class Balances:
    """Balances over live transfers; the lines (pot included) sum to zero."""

    lines: tuple[Balance, ...]

    @property
    def pot(self) -> int:
        return sum(line.amount for line in self.lines if line.kind == "pot")

    def of(self, member_id: int) -> int:
        return sum(line.amount for line in self.lines if line.member_id == member_id)


@dataclass(frozen=True)
class Payment:
    """One settlement payment: `payer` pays `payee` `amount` 分."""

    payer_id: int
    payer: str
    payee_id: int
    payee: str
    amount: int


@dataclass(frozen=True)
class Settlement:
    """The fewest payments that bring every balance to zero. `exact` is False when the greedy fallback was used."""

    payments: tuple[Payment, ...]
    balances: Balances
    exact: bool


@dataclass(frozen=True)
class NightClosed:
    night: NightInfo
    settlement: Settlement


@dataclass(frozen=True)
class HandRecord:
    """One hand for history: events, the scoring answer's patterns (per winner) and the payments."""

    hand_id: int
    table_id: int
    number: int
    dealer: str | None
    events: tuple[dict[str, Any], ...]
    patterns: tuple[dict[str, Any], ...]  # the answer's `hands` entries (winner, patterns, multipliers)
    transfers: tuple[TransferInfo, ...]
    status: str  # open | closed | voided
    replaces: int | None  # the hand this one replaced (an edit)
    replaced_by: int | None
    created_at: datetime
    voided_at: datetime | None
    void_reason: str | None


@dataclass(frozen=True)
class MemberRecord:
    """One member's record: balance, hands played/won, fines, recent transfers."""

    member: MemberInfo
    balance: int
    hands_played: int
    hands_won: int
    fines: int  # 分 paid in live fines
    recent: tuple[TransferInfo, ...]


@dataclass(frozen=True)
class Flow:
    """State of one inline-keyboard flow, keyed by (chat, the bot's message)."""

    chat_id: int
    message_id: int
    user_id: int
    kind: str
    state: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None


# ------------------------------------------------------------------------------------------------ service


class Ledger:
    """The service. Build it with `Ledger.open(url)`; methods are safe to call from several processes at once."""

    @classmethod
    def open(
        cls, url: str | None = None, *, upgrade: bool = True, clock: Callable[[], datetime] | None = None
    ) -> Ledger:
        """Connect (default: `sqlite:///paiju.db`); with `upgrade` an empty or old database is migrated to head.

        `clock` returns the current time (timezone-aware); the console passes its simulated clock.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Dispose of the connection pool."""
        raise NotImplementedError

    # groups ---------------------------------------------------------------------------------------------
    def group(self, chat_id: int, *, title: str = "") -> GroupInfo:
        """Get or create the group of a Telegram chat (defaults: 卡五星, preset xiangyang, 底金 100 分, zh)."""
        raise NotImplementedError

    def update_group(self, chat_id: int, *, source: str, by: int | None, **changes: Any) -> GroupInfo:
        """Change settings: game, rules (a full `{"preset", ...overrides}` dict), base, currency, language,
        cutoff_hour, timezone, title. Who/when is recorded; running tables keep their snapshot."""
        raise NotImplementedError

    # members --------------------------------------------------------------------------------------------
    def member(self, chat_id: int, user_id: int, display_name: str, username: str | None = None) -> MemberInfo:
        """Get or create a member by Telegram id; a changed display name or username is updated."""
        raise NotImplementedError

    def guest(self, chat_id: int, name: str) -> MemberInfo:
        """Get or create a guest (no Telegram account) seated by name."""
        raise NotImplementedError

    def find_member(self, chat_id: int, name: str) -> MemberInfo | None:
        """A member or unlinked guest by alias, display name or @username (case-insensitive), or None."""
        raise NotImplementedError

    def members(self, chat_id: int) -> list[MemberInfo]:
        """Every account of the group: members, unlinked guests and the pot."""
        raise NotImplementedError

    def set_alias(self, member_id: int, alias: str | None, *, source: str, by: int | None) -> MemberInfo:
        """Set (or clear with None) the 名片 the ledger shows."""
        raise NotImplementedError

    def link_guest(self, guest_id: int, member_id: int, *, source: str, by: int | None) -> MemberInfo:
        """Link a guest to a real member: seats and transfers move to the member, the guest is kept as linked."""
        raise NotImplementedError

    # nights and tables ----------------------------------------------------------------------------------
    def open_table(
        self, chat_id: int, seats: Sequence[int], *, dealer: int | None = None, source: str, by: int | None
    ) -> TableInfo:
        """Seat members (ids, in play order) at a new table of the group's game with a snapshot of its rules.

        Opens tonight's night if needed (a night left open from an earlier 日切 date is closed first).
        An open table of the chat is ended first. `dealer` defaults to the first seat.
        """
        raise NotImplementedError

    def current_table(self, chat_id: int) -> TableInfo | None:
        raise NotImplementedError

    def current_night(self, chat_id: int) -> NightInfo | None:
        raise NotImplementedError

    def end_table(self, table_id: int, *, source: str, by: int | None) -> TableInfo:
        """End a table; refused while its hand has events (finish or undo them first)."""
        raise NotImplementedError

    def end_night(self, chat_id: int, *, source: str, by: int | None) -> NightClosed:
        """End the open night (and its table) and post its settlement (stored and returned)."""
        raise NotImplementedError

    # hands ----------------------------------------------------------------------------------------------
    def record_event(self, table_id: int, event: Mapping[str, Any], *, source: str, by: int | None) -> HandResult:
        """Append one event (the `events` of `paiju score`, seat names as players) to the table's open hand.

        Scores the hand so far (`partial=True`), books the new event's transfers at once (kong money), and
        voids/rebooks an earlier event whose transfers changed. A terminal event closes the hand and advances
        dealer and hand number. 够级: one event `{"type": "round", "order": [...], "geming": [...],
        "shaopai_failed": [...]}` is a whole round.
        """
        raise NotImplementedError

    def record_events(
        self, table_id: int, events: Sequence[Mapping[str, Any]], *, source: str, by: int | None
    ) -> HandResult:
        """Append several events in one transaction (e.g. the two `hu` of a 一炮双响)."""
        raise NotImplementedError

    def record_hand(
        self, table_id: int, events: Sequence[Mapping[str, Any]], *, source: str, by: int | None
    ) -> HandResult:
        """Record a whole hand at once (the one-message win); refused if the open hand already has events."""
        raise NotImplementedError

    def hand_state(self, table_id: int) -> HandState:
        raise NotImplementedError

    def undo(self, table_id: int, *, source: str, by: int | None, reason: str = "") -> VoidResult:
        """Void the last event of the open hand; with none, void the last finished hand of the table."""
        raise NotImplementedError

    def void_hand(self, hand_id: int, *, source: str, by: int | None, reason: str = "") -> VoidResult:
        """Void a finished hand (its transfers too). Voiding the table's last hand restores its dealer/number."""
        raise NotImplementedError

    def replace_hand(
        self,
        original_source: str,
        events: Sequence[Mapping[str, Any]],
        *,
        source: str,
        by: int | None,
        reason: str = "",
    ) -> HandResult:
        """Edit: void the hand `original_source` recorded and record `events` as its replacement (linked)."""
        raise NotImplementedError

    # fines and the pot ----------------------------------------------------------------------------------
    def fine(self, member_id: int, amount: int, reason: str, *, source: str, by: int | None) -> TransferInfo:
        """Book a fine: the member pays `amount` 分 into the group's pot (红包池)."""
        raise NotImplementedError

    def cancel_fine(self, transfer_id: int, *, source: str, by: int | None, reason: str = "") -> TransferInfo:
        """Void a fine (kept, marked with who/when/why)."""
        raise NotImplementedError

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
        raise NotImplementedError

    # balances, history, settlement ----------------------------------------------------------------------
    def balances(self, chat_id: int) -> Balances:
        """All-time balances of every account (running totals: constant time whatever the history)."""
        raise NotImplementedError

    def night_balances(self, night_id: int) -> Balances:
        raise NotImplementedError

    def table_balances(self, table_id: int) -> Balances:
        raise NotImplementedError

    def period_balances(self, chat_id: int, since: datetime | None, until: datetime | None) -> Balances:
        """Balances over transfers booked in [since, until)."""
        raise NotImplementedError

    def history(self, chat_id: int, limit: int = 10, *, include_voided: bool = False) -> list[HandRecord]:
        """The last `limit` hands, newest first."""
        raise NotImplementedError

    def member_record(self, member_id: int, *, recent: int = 20) -> MemberRecord:
        raise NotImplementedError

    def settle_night(self, night_id: int) -> Settlement:
        """Fewest payments to square a night (not stored; `end_night` stores it)."""
        raise NotImplementedError

    def settle_period(self, chat_id: int, since: datetime | None, until: datetime | None) -> Settlement:
        raise NotImplementedError

    # inline-keyboard flows ------------------------------------------------------------------------------
    def save_flow(self, chat_id: int, message_id: int, user_id: int, kind: str, state: Mapping[str, Any]) -> Flow:
        """Create or update the flow attached to a bot message."""
        raise NotImplementedError

    def load_flow(self, chat_id: int, message_id: int) -> Flow | None:
        """The flow of a bot message (finished ones too), or None."""
        raise NotImplementedError

    def finish_flow(self, chat_id: int, message_id: int) -> Flow | None:
        raise NotImplementedError

    def open_flows(self, chat_id: int | None = None) -> list[Flow]:
        """Unfinished flows (to resume after a restart)."""
        raise NotImplementedError
