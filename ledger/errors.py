"""The ledger's refusals: a request it will not book raises one of these and changes nothing."""

from __future__ import annotations

from typing import Any

from ledger.scoring.common import Reading


class LedgerError(Exception):
    """A request the ledger refuses. `code` is stable (the bot picks its text by it); `message` is Chinese;
    `english` is the same refusal in English where the bot's text for the code needs it (`{english}`)."""

    def __init__(self, code: str, message: str, english: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.english = english

    def __reduce__(self) -> tuple[type[LedgerError], tuple[str, str, str]]:
        # picklable: a worker process can raise it to its parent
        return type(self), (self.code, self.message, self.english)


class ScoringRefused(LedgerError):
    """The scoring core refused; `code`/`message` are the scoring core's own, `reading` its key and arguments
    (`ledger.scoring.Reading`), from which the bot words the refusal in English."""

    def __init__(self, code: str, message: str, reading: Reading) -> None:
        super().__init__(code, message)
        self.reading = reading

    def __reduce__(self) -> tuple[type[ScoringRefused], tuple[str, str, Reading]]:  # type: ignore[override]
        return type(self), (self.code, self.message, self.reading)


class Overpaid(LedgerError):
    """A payment for more than the debtor still owes the creditor (`owed`, 分), and more than that and the other
    side's payments waiting for this side's word (`waiting`, 分) together: the reply says both, so "only owes 2"
    never hides the 2 already told."""

    def __init__(self, message: str, owed: int, waiting: int = 0) -> None:
        super().__init__("overpaid", message)
        self.owed = owed
        self.waiting = waiting

    def __reduce__(self) -> tuple[type[Overpaid], tuple[str, int, int]]:  # type: ignore[override]
        return type(self), (self.message, self.owed, self.waiting)


class DatabaseUrlError(ValueError):
    """A database the command line cannot use — a PostgreSQL URL without its driver installed, an unknown kind of
    URL, a SQLite file that does not exist for a command that only reads — said in one sentence."""


class DuplicateRecord(LedgerError):
    """A record that repeats the table's previous one (a kong's player, kind and tile; the same winners however
    told; a draw after a draw; a 够级 round's finishing order: `ledger.events.repeats`), recorded by someone else
    within the group's double-entry window: most likely the same thing typed twice. `previous` is that record (a
    `ledger.records.TableRecord`); booking it anyway takes `repeat=True`. `differs`: the record is another ending
    of the 卡五星 hand `previous` ended (another winner, or a win after a draw), from someone else within the window
    — most likely the same hand told otherwise, which `改成` fixes if that record is wrong — or a recap of that hand
    (`刚才 …`, any time) that does not read exactly as it. `after`: the id of the last event of the table's latest
    record, which a confirmation books after (`previous`'s own, unless `previous` is an earlier kong of the open
    hand repeated). `includes`: the record's one event when it is a 碰胡 跑起胡 and `previous` that player's 跑起
    off the same discarder, which the 跑起胡's 24 already holds."""

    def __init__(self, previous: Any, differs: bool = False, after: int | None = None, includes: Any = None) -> None:
        super().__init__("duplicate", "和上一条记录一样，可能是重复记账，没有再记")
        self.previous = previous
        self.differs = differs
        self.after: int = after if after is not None else previous.event_ids[-1]
        self.includes = includes

    def __reduce__(self) -> tuple[type[DuplicateRecord], tuple[Any, bool, int, Any]]:  # type: ignore[override]
        return type(self), (self.previous, self.differs, self.after, self.includes)


class PaidSince(LedgerError):
    """Taking back a settlement (撤销结算, or a payout's: 撤销发红包池 / 撤销付台费) refused: live payments depend on it
    (`ledger.tables.refuse_if_paid_since`). `payments` are those payments (`ledger.records.Payment`: who paid whom
    how much, in 分), `currency` the group's label, `what` what is taken back (结算, 发红包池, 付台费) and `undo` its
    command: the bot names each payment in the group's money."""

    def __init__(self, payments: Any, currency: str, what: str, undo: str) -> None:
        listed = "、".join(f"{p.payer} 付给 {p.payee} {p.amount} 分" for p in payments)
        super().__init__(
            "paid_since",
            f"这次{what}的账上还有之后记的付款：{listed}。先撤销这些付款（撤销付款），再{undo}",
            f"payments recorded since count on this {what}: take them back first (撤销付款), then {undo}",
        )
        self.payments = tuple(payments)
        self.currency = currency
        self.what = what
        self.undo = undo

    def __reduce__(self) -> tuple[type[PaidSince], tuple[Any, str, str, str]]:  # type: ignore[override]
        return type(self), (self.payments, self.currency, self.what, self.undo)


class ShortOfWaiting(LedgerError):
    """A typed payment for less than the other side's payments waiting for this side's word, none of that amount
    nor what is still owed besides them (`收到 @b 2` while b's `已付 4` of 8 waits): part of what b told, or
    another transfer? Booked as another it would
    count the money twice if it is part; so it is asked (`waiting`, 分: what the other side told), not guessed."""

    def __init__(self, waiting: int) -> None:
        super().__init__("short_of_waiting", "对方说的付款还在等确认，金额对不上，没有记")
        self.waiting = waiting

    def __reduce__(self) -> tuple[type[ShortOfWaiting], tuple[int]]:  # type: ignore[override]
        return type(self), (self.waiting,)


class DuplicatePayment(LedgerError):
    """A typed payment that repeats one its sender booked a moment ago (the same payer, payee, amount and side,
    within the group's double-entry window): most likely the same message sent twice. `seconds` is how long ago
    that one was booked; booking it anyway takes `check_repeat=False`."""

    def __init__(self, seconds: int) -> None:
        super().__init__("duplicate_payment", "刚才已经记过同样的一笔付款，可能是重复发送，没有再记")
        self.seconds = seconds

    def __reduce__(self) -> tuple[type[DuplicatePayment], tuple[int]]:  # type: ignore[override]
        return type(self), (self.seconds,)
