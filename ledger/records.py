"""What the ledger answers: frozen dataclasses, built from rows and stored (as JSON) with each booking.

A mutating call's result carries `replayed`: True when its source had already been booked, so the call booked
nothing and returned the first result (a redelivered Telegram update). It is left out of comparisons, so a
replay equals the first answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

#: the scoring contract's JSON of one event, as `hand_events.payload` stores it
Payload = dict[str, Any]


@dataclass(frozen=True)
class Replayable:
    """Base of every result a booking returns."""

    replayed: bool = field(default=False, kw_only=True, compare=False)


@dataclass(frozen=True)
class GroupInfo(Replayable):
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
    #: the group's 群规 overrides as stored ({}: the defaults), when read with the chat (`Ledger.chat`); None
    #: when not read (moderation then reads them itself)
    moderation: dict[str, Any] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MemberInfo(Replayable):
    """A ledger account: a Telegram member, a guest seated by name, or the group's pot (红包池)."""

    id: int
    group_id: int
    user_id: int | None  # None for guests and the pot
    display_name: str
    username: str | None
    alias: str | None  # 名片 shown in the ledger when set
    kind: str  # member | guest | pot | house
    linked_to: int | None  # a guest linked to a member: that member's id (the guest's history moved there)

    @property
    def name(self) -> str:
        """The name the ledger shows: the alias (名片) when set, else the display name."""
        return self.alias or self.display_name


@dataclass(frozen=True)
class Seat:
    """One seat at a table. `name` is the seat key used in scoring events (unique within the table); `user_id`
    and `username` are the Telegram identity of whoever sits there (None for a guest)."""

    position: int  # 0-based, in play order
    name: str
    member_id: int
    user_id: int | None = None
    username: str | None = None


@dataclass(frozen=True)
class NightInfo:
    """A night (session): one evening's play; `night_date` is the local date before the 日切 cut-off."""

    id: int
    group_id: int
    night_date: date
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True)
class TableInfo(Replayable):
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

    def seat_of_user(self, user_id: int) -> str | None:
        """The seat name of a Telegram user, None when they are not seated."""
        return next((seat.name for seat in self.seats if seat.user_id == user_id), None)


@dataclass(frozen=True)
class ChatView:
    """What the bot needs to know about a chat before it handles a message: the group and its open table."""

    group: GroupInfo
    table: TableInfo | None
    #: how many button flows the member the view was read for started in the chat are still waiting (questions of
    #: theirs: a record from whoever asked 撤销 waits for the answer); 0 when read for nobody
    waiting: int = 0
    #: how many 胡/杠 told by taps (`TAPPED_KINDS`, anyone's) are still waiting in the chat: none, and no record
    #: needs looking up whether one holds its hand
    tapping: int = 0


@dataclass(frozen=True)
class TransferInfo(Replayable):
    """One booked transfer. `payer`/`payee` are ledger names (the pot is "红包池")."""

    id: int
    payer_id: int
    payer: str
    payee_id: int
    payee: str
    amount: int
    reason: str
    kind: str  # hand | fine | payout | payment
    hand_id: int | None
    event_index: int | None  # index of the causing event among the hand's live events
    created_at: datetime
    voided: bool


@dataclass(frozen=True)
class NightTotal:
    """One account's running total for a night (the sum of its live transfers booked in that night)."""

    member_id: int
    amount: int


def total_of(totals: tuple[NightTotal, ...], member_id: int) -> int:
    return next((total.amount for total in totals if total.member_id == member_id), 0)


@dataclass(frozen=True)
class HandResult(Replayable):
    """The answer to recording one or more events (or a whole hand).

    `answer` is the scoring core's answer for the hand so far (patterns and multipliers in its `hands` field);
    `recorded` the events this call recorded (among `events`, the hand's live events in order);
    `booked` are the transfers this call wrote, `voided` the earlier ones a recomputation replaced;
    `night_totals` each seat's running total for the night after this call; `new_night` is set when this call
    was the first hand after the 日切 hour and so opened a new night (and table) for the same seats.
    """

    hand_id: int
    table_id: int
    number: int
    dealer: str | None
    events: tuple[Payload, ...]
    finished: bool
    answer: dict[str, Any]
    booked: tuple[TransferInfo, ...]
    voided: tuple[TransferInfo, ...]
    next_dealer: str | None  # the table's dealer after this call (the answer's next_dealer once finished)
    liangdao: tuple[str, ...]  # players who have declared 亮倒 in this hand
    recorded: tuple[Payload, ...] = ()
    night_totals: tuple[NightTotal, ...] = ()
    new_night: NightInfo | None = None

    def night_total(self, member_id: int) -> int:
        return total_of(self.night_totals, member_id)


@dataclass(frozen=True)
class HandState:
    """The open hand of a table, for display: nothing recorded yet gives `hand_id=None` and no events."""

    table_id: int
    hand_id: int | None
    number: int
    dealer: str | None
    events: tuple[Payload, ...]
    liangdao: tuple[str, ...]
    transfers: tuple[TransferInfo, ...]  # live transfers booked for this hand so far (kong money …)
    #: the table's night's running totals, read with the events in one read transaction (a snapshot on SQLite)
    night_totals: tuple[NightTotal, ...] = ()

    def night_total(self, member_id: int) -> int:
        return total_of(self.night_totals, member_id)


@dataclass(frozen=True)
class VoidResult(Replayable):
    """What an undo or void did: the latest record of the hand in progress (`event`), the ending of the latest
    finished hand, which reopens it (`reopened`), or a whole finished hand (`hand`).

    `events` are the events taken back (one record: a 一炮双响's two wins are one), `remaining` the live events of
    the hand afterwards (`event`, `reopened`), `number` the hand's number."""

    what: str  # "event" | "reopened" | "hand"
    hand_id: int | None
    event: Payload | None
    voided: tuple[TransferInfo, ...]
    rebooked: tuple[TransferInfo, ...]  # earlier events' transfers booked again after recomputation
    dealer: str | None  # the table's dealer afterwards
    hand_number: int | None  # the number the table's next (or open) hand carries afterwards
    night_totals: tuple[NightTotal, ...] = ()  # the seats' running totals of the hand's night afterwards
    events: tuple[Payload, ...] = ()
    remaining: tuple[Payload, ...] = ()
    number: int | None = None

    def night_total(self, member_id: int) -> int:
        return total_of(self.night_totals, member_id)


@dataclass(frozen=True)
class TableRecord:
    """One record at a table: the events one message (or one button confirmation) booked, as 撤销 and the
    double-entry check see it. `finished`: the record ended its hand (a win or a draw), so taking it back reopens
    the hand. `recorded_by` is the Telegram id of whoever recorded it (`recorded_by_name` the ledger's name for
    them, when they are a member)."""

    table_id: int
    hand_id: int
    hand_number: int
    finished: bool
    event_ids: tuple[int, ...]
    events: tuple[Payload, ...]
    source: str
    recorded_by: int | None
    recorded_by_name: str | None
    recorded_at: datetime


@dataclass(frozen=True)
class VoidedHand:
    """A finished hand taken back whole (撤销 第N局, an admin's void, an edit): when, by whom (`voided_by`: a
    Telegram id; `voided_by_name` the ledger's name for them, when they are a member) and why, as stored."""

    number: int
    voided_at: datetime
    voided_by: int | None
    voided_by_name: str | None
    reason: str


@dataclass(frozen=True)
class MessageHand:
    """The hand one message recorded in, as a reply's 撤销 finds it (`tg:<chat>:<message>`, its edits too): the
    table (perhaps ended since), the hand's number and whether it is finished, the hand's live events (`events`:
    what voiding it whole takes back), the ids of the live events the message itself booked (`event_ids`), the
    date of the hand's night, and the hand's events before the message's first (`before`: what an edit of the
    message keeps ahead of what it records now)."""

    table: TableInfo
    hand_id: int
    number: int
    finished: bool
    events: tuple[Payload, ...]
    event_ids: tuple[int, ...]
    night_date: date
    before: tuple[Payload, ...]


@dataclass(frozen=True)
class Balance:
    member_id: int
    name: str
    kind: str  # member | guest | pot | house
    amount: int  # 分; positive: the ledger owes them (all-time balances: 未结, what is owed now)
    paid: int = 0  # what live payments moved `amount` by (all-time balances only; elsewhere payments are left out)

    @property
    def result(self) -> int:
        """The result without payments (all-time: 总输赢, which payments never change)."""
        return self.amount - self.paid


@dataclass(frozen=True)
class OwedToAccount:
    """What one person owes a group account (the pot, the house) over the same transfers as the balances:
    fines and fees less payouts (negative: the account owes them). Their own: a settlement never moves it onto
    someone else."""

    member_id: int
    account_id: int
    amount: int


@dataclass(frozen=True)
class Balances:
    """Balances over live transfers; the lines (pot included) sum to zero. `owed_to_accounts`: how the group
    accounts' lines split among the people who owe them or are owed by them (left empty where no settlement is
    made of them: all-time balances, a stored settlement's). `owing`: (debtor, creditor) pairs of people whose
    transfers leave one owing the other directly (够级's 对头), which the settlement's payments follow where the
    fewest payments allow (`ledger.settlement.settle`; empty where no settlement is made of them)."""

    lines: tuple[Balance, ...]
    owed_to_accounts: tuple[OwedToAccount, ...] = ()
    owing: tuple[tuple[int, int], ...] = ()

    @property
    def pot(self) -> int:
        return sum(line.amount for line in self.lines if line.kind == "pot")

    @property
    def house(self) -> int:
        """What the house account holds (table fees less what it paid out; 0 in a group without fees)."""
        return sum(line.amount for line in self.lines if line.kind == "house")

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
class Passed(Payment):
    """A debt passed through a group account (`via`: the pot or the house) right after a settlement: `payer` owed
    the account, the account owed `payee`; now `payer` owes `payee` `amount` 分."""

    via_id: int
    via: str


@dataclass(frozen=True)
class Settlement:
    """The fewest payments that bring every balance to zero. `exact` is False when the greedy fallback was used."""

    payments: tuple[Payment, ...]
    balances: Balances
    exact: bool
    #: earlier nights' debts among the night's players netted into `payments` (`设置 并账`): debtor → creditor
    carried: tuple[Payment, ...] = ()
    id: int | None = None  # the stored settlement (`end_night`)
    #: debts passed through the pot or the house right after it was stored (`payments.pass_through`)
    passed: tuple[Passed, ...] = ()


@dataclass(frozen=True)
class NightClosed(Replayable):
    night: NightInfo
    settlement: Settlement


@dataclass(frozen=True)
class Unsettled(Replayable):
    """A night's settlement taken back (撤销结算): the night open again, with the table its 结算 ended (None: none
    was open), the 台费 the close had booked taken back (分 in all) and the settlement as it stood."""

    night: NightInfo
    settlement: Settlement
    table: TableInfo | None
    fees: int


@dataclass(frozen=True)
class PayoutInfo(Replayable):
    """A payout of the pot (发红包池) or the house (付台费), as 撤销发红包池 / 撤销付台费 asks about and takes it back:
    which account (`pool`: "pot" or "house"), its transfers (one per member paid), whether it was settled at once
    (booked while no night was open: its settlement is taken back with it) and what the account holds (after it
    was taken back, in the answer of the undo)."""

    pool: str
    transfers: tuple[TransferInfo, ...]
    settled_at_once: bool
    held: int


@dataclass(frozen=True)
class HandRecord:
    """One hand for history: events, the scoring answer's patterns (per winner) and the payments."""

    hand_id: int
    table_id: int
    number: int
    dealer: str | None
    events: tuple[Payload, ...]
    patterns: tuple[dict[str, Any], ...]  # the answer's `hands` entries (winner, patterns, multipliers)
    transfers: tuple[TransferInfo, ...]
    status: str  # open | closed | voided
    replaces: int | None  # the hand this one replaced (an edit)
    replaced_by: int | None
    created_at: datetime
    voided_at: datetime | None
    void_reason: str | None
    # the night its table was played in, and that night's ordinal (第N晚) when the list read holds several nights
    night_id: int | None = None
    night_date: date | None = None
    night_number: int | None = None


@dataclass(frozen=True)
class MemberRecord:
    """One member's record: balance, hands played/won, fines, recent transfers."""

    member: MemberInfo
    balance: int
    hands_played: int
    hands_won: int
    fines: int  # 分 paid in live fines
    recent: tuple[TransferInfo, ...]


#: the key a flow's state holds once its table's end finished it (`ledger.flows.end_with_table`)
ENDED_WITH_TABLE = "ended_with_table"
#: the key of a flow's state that holds a record of its table's open hand unbooked (a win waiting for its 漂/马, a
#: 胡/杠 told by taps whose player is chosen): its hand's number. While one holds, the 日切 hour does not roll the
#: table over (`ledger.flows.holds_hand`): the hand is still being played, and finishes in its own night
HOLDS_HAND = "holds_hand"
#: the kinds of the flows that tell a win or a kong by taps (`bot.commands.flows`)
TAPPED_KINDS = ("hu", "gang")
#: when such a flow first held its hand (ISO time, set by `ledger.flows.save`): the night the record was told in
TOLD_AT = "told_at"


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

    @property
    def ended_with_table(self) -> bool:
        """Its table's end (结算, 开桌 over it, the 日切 roll-over) finished it, not an answer or the idle upkeep."""
        return bool(self.state.get(ENDED_WITH_TABLE))


@dataclass(frozen=True)
class FlowAnswered(Replayable):
    """A question's flow finished by a typed answer (`Ledger.answer_flow`): the bot message that carried it."""

    message_id: int
