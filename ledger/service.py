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

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ledger import db
from ledger import models as m
from ledger.codec import decode, encode
from ledger.db import (
    DEFAULT_URL,
    current_revision,
    head_revision,
    make_engine,
    normalize_url,
    session_factories,
    utcnow,
)
from ledger.hands import (
    DEFAULT_RULES,
    GAMES,
    SEATS,
    build_request,
    is_terminal,
    liangdao,
    misplaced_terminal,
    next_dealer,
    owed_by_event,
    winners,
)
from ledger.scoring import score
from ledger.settlement import settle

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


# ------------------------------------------------------------------------------------------------ service

POT_NAME = "红包池"
DEFAULT_GROUP = {"base": 100, "currency": "元", "language": "zh", "cutoff_hour": 6, "timezone": "Asia/Shanghai"}
LANGUAGES = ("zh", "en")
MAX_SOURCE = 200
MAX_NAME = 64
RECOMPUTED = "重算：后续事件改变了这笔款项"  # void reason when a later event changes an earlier event's money

R = TypeVar("R")
#: attempts of one write before its error reaches the caller; PostgreSQL deadlock / serialization failure codes
RETRIES = 3
RETRYABLE = frozenset({"40P01", "40001"})


class Ledger:
    """The service. Build it with `Ledger.open(url)`; methods are safe to call from several processes at once."""

    def __init__(self, engine: Engine, *, clock: Callable[[], datetime] | None = None) -> None:
        self.engine = engine
        self._writer, self._reader = session_factories(engine)
        self._clock = clock or utcnow
        #: SQLite writers hold the database's write lock from BEGIN, so nobody can book a source between our
        #: lookup and our commit; PostgreSQL writers run side by side (see `_once`)
        self._writers_serialized = engine.dialect.name == "sqlite"

    @classmethod
    def open(
        cls, url: str | None = None, *, upgrade: bool = True, clock: Callable[[], datetime] | None = None
    ) -> Ledger:
        """Connect (default: `sqlite:///paiju.db`); with `upgrade` an empty or old database is migrated to head.

        `clock` returns the current time (timezone-aware); the console passes its simulated clock.
        """
        url = normalize_url(url or DEFAULT_URL)
        engine = make_engine(url)
        if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:"):
            engine.dispose()  # every connection would see its own empty database, migrations included
            raise LedgerError("bad_url", "不支持内存中的 SQLite 数据库：请给一个文件路径（如 paiju.db）")
        if upgrade and current_revision(engine) != head_revision():
            db.upgrade(url)
        return cls(engine, clock=clock)

    def close(self) -> None:
        """Dispose of the connection pool."""
        self.engine.dispose()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # plumbing -------------------------------------------------------------------------------------------
    def _now(self) -> datetime:
        now = self._clock()
        if now.tzinfo is None:
            raise ValueError("the ledger's clock must return timezone-aware datetimes")
        return now.astimezone(UTC)

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        with self._writer() as session, session.begin():
            yield session

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        with self._reader() as session, session.begin():
            yield session

    def _once(
        self, source: str, kind: str, by: int | None, result_type: Any, body: Callable[[Session, datetime], R]
    ) -> R:
        """Run `body` in one write transaction unless `source` already ran; then return the stored result.

        On PostgreSQL the operation row is inserted first: its unique source makes a concurrent duplicate wait for
        the first to commit and then fail, after which the first result is read back (the duplicate never runs
        `body` against the first one's changes). On SQLite the lookup runs under the write lock, so it is final
        and the row is written once, with its result, at the end. A transaction that lost a race on another unique
        key, or a PostgreSQL deadlock, is retried from the start (nothing of it stayed)."""
        _check_source(source)
        for attempt in range(RETRIES):
            try:
                with self._writing() as session:
                    stored = session.scalar(sa.select(m.Operation).where(m.Operation.source == source))
                    if stored is None:
                        now = self._now()
                        operation = m.Operation(source=source, kind=kind, created_at=now, created_by=by, result=None)
                        if not self._writers_serialized:
                            session.add(operation)
                            session.flush()
                        result = body(session, now)
                        operation.result = {"value": encode(result)}
                        session.add(operation)
                        return result
                break
            except IntegrityError:
                with self._reading() as session:
                    stored = session.scalar(sa.select(m.Operation).where(m.Operation.source == source))
                if stored is not None:
                    break
                if attempt == RETRIES - 1:
                    raise
            except sa.exc.DBAPIError as err:
                if getattr(err.orig, "sqlstate", None) not in RETRYABLE or attempt == RETRIES - 1:
                    raise
        assert stored is not None, "the loop ends with the stored operation or an exception"
        if stored.kind != kind:
            raise LedgerError("source_reused", f"来源 {source} 已用于另一种操作（{stored.kind}），未重复记账")
        assert stored.result is not None, "an operation is stored with its result"
        replay: R = decode(result_type, stored.result["value"])
        return replay

    # groups ---------------------------------------------------------------------------------------------
    def group(self, chat_id: int, *, title: str = "") -> GroupInfo:
        """Get or create the group of a Telegram chat (defaults: 卡五星, preset xiangyang, 底金 100 分, zh)."""
        with self._reading() as session:
            found = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
            if found is not None:
                return _group_info(found)
        try:
            with self._writing() as session:
                return _group_info(self._create_group(session, chat_id, title))
        except IntegrityError:  # another process created it first
            with self._reading() as session:
                return _group_info(_group_by_chat(session, chat_id))

    def _create_group(self, session: Session, chat_id: int, title: str) -> m.Group:
        found = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
        if found is not None:
            return found
        now = self._now()
        group = m.Group(
            chat_id=chat_id,
            title=title[:255],
            game="kawuxing",
            rules=dict(DEFAULT_RULES["kawuxing"]),
            created_at=now,
            updated_at=now,
            updated_by=None,
            **DEFAULT_GROUP,
        )
        session.add(group)
        session.flush()
        session.add(m.Member(group_id=group.id, kind=m.POT, display_name=POT_NAME, balance=0, created_at=now))
        session.flush()
        return group

    def update_group(self, chat_id: int, *, source: str, by: int | None, **changes: Any) -> GroupInfo:
        """Change settings: game, rules (a full `{"preset", ...overrides}` dict), base, currency, language,
        cutoff_hour, timezone, title. Who/when is recorded; running tables keep their snapshot. Changing the
        game without giving rules resets the rules to that game's default."""
        clean = _validated_settings(changes)

        def body(session: Session, now: datetime) -> GroupInfo:
            group = self._create_group(session, chat_id, "")
            if "game" in clean and "rules" not in clean and clean["game"] != group.game:
                clean["rules"] = dict(DEFAULT_RULES[clean["game"]])
            diff = {key: [getattr(group, key), value] for key, value in clean.items() if getattr(group, key) != value}
            for key, value in clean.items():
                setattr(group, key, value)
            group.updated_at, group.updated_by = now, by
            session.add(m.SettingChange(group_id=group.id, changes=diff, changed_by=by, changed_at=now, source=source))
            session.flush()
            return _group_info(group)

        return self._once(source, "update_group", by, GroupInfo, body)

    # members --------------------------------------------------------------------------------------------
    def member(self, chat_id: int, user_id: int, display_name: str, username: str | None = None) -> MemberInfo:
        """Get or create a member by Telegram id; a changed display name or username is updated."""
        display_name = " ".join(display_name.split())[:255] or str(user_id)  # Telegram's, of any length: never refused
        username = username.lstrip("@")[:64] if username else None
        with self._reading() as session:
            found = session.scalar(
                sa.select(m.Member).join(m.Group).where(m.Group.chat_id == chat_id, m.Member.user_id == user_id)
            )
            if found is not None and (found.display_name, found.username) == (display_name, username):
                return _member_info(found)
        for attempt in range(2):
            try:
                with self._writing() as session:
                    group = self._create_group(session, chat_id, "")
                    member = session.scalar(
                        sa.select(m.Member).where(m.Member.group_id == group.id, m.Member.user_id == user_id)
                    )
                    if member is None:
                        member = m.Member(
                            group_id=group.id, kind=m.MEMBER, user_id=user_id, balance=0, created_at=self._now()
                        )
                        session.add(member)
                    member.display_name, member.username = display_name, username
                    session.flush()
                    return _member_info(member)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def guest(self, chat_id: int, name: str) -> MemberInfo:
        """Get or create a guest (no Telegram account) seated by name."""
        name = _clean_name(name, "客人名字")
        with self._writing() as session:
            group = self._create_group(session, chat_id, "")
            _lock_group(session, group.id)
            found = session.scalar(
                sa.select(m.Member).where(
                    m.Member.group_id == group.id,
                    m.Member.kind == m.GUEST,
                    m.Member.linked_to_id.is_(None),
                    m.Member.display_name == name,
                )
            )
            if found is None:
                found = m.Member(group_id=group.id, kind=m.GUEST, display_name=name, balance=0, created_at=self._now())
                session.add(found)
                session.flush()
            return _member_info(found)

    def find_member(self, chat_id: int, name: str) -> MemberInfo | None:
        """A member or unlinked guest by alias, display name or @username (case-insensitive), or None.

        Raises `ambiguous_member` when two accounts match equally well."""
        wanted = name.strip().lstrip("@").casefold()
        with self._reading() as session:
            candidates = [
                member
                for member in _accounts(session, _group_by_chat(session, chat_id).id)
                if member.kind != m.POT and member.linked_to_id is None
            ]
        for key in ("alias", "display_name", "username"):
            hits = [c for c in candidates if (getattr(c, key) or "").casefold() == wanted]
            if len(hits) > 1:
                raise LedgerError("ambiguous_member", f"“{name}”对应多人，请用 @用户名 或名片区分")
            if hits:
                return _member_info(hits[0])
        return None

    def members(self, chat_id: int) -> list[MemberInfo]:
        """Every account of the group: members, unlinked guests and the pot."""
        with self._reading() as session:
            group = _group_by_chat(session, chat_id)
            return [_member_info(a) for a in _accounts(session, group.id) if a.linked_to_id is None]

    def set_alias(self, member_id: int, alias: str | None, *, source: str, by: int | None) -> MemberInfo:
        """Set (or clear with None) the 名片 the ledger shows; refused when another account already shows it."""
        clean = _clean_name(alias, "名片") if alias is not None else None

        def body(session: Session, now: datetime) -> MemberInfo:
            member = _member(session, member_id)
            if member.kind == m.POT:
                raise LedgerError("bad_member", "红包池不能设名片")
            if clean is not None:
                taken = [
                    a
                    for a in _accounts(session, member.group_id)
                    if a.id != member.id and a.linked_to_id is None and a.name.casefold() == clean.casefold()
                ]
                if taken:
                    raise LedgerError("alias_taken", f"名片“{clean}”已被使用")
            member.alias = clean
            return _member_info(member)

        return self._once(source, "set_alias", by, MemberInfo, body)

    def link_guest(self, guest_id: int, member_id: int, *, source: str, by: int | None) -> MemberInfo:
        """Link a guest to a real member: seats and transfers move to the member, the guest is kept as linked."""

        def body(session: Session, now: datetime) -> MemberInfo:
            guest, member = _get(session, m.Member, guest_id, "客人", lock=True), _member(session, member_id)
            if guest.kind != m.GUEST or guest.linked_to_id is not None:
                raise LedgerError("not_a_guest", f"{guest.name} 不是未关联的客人")
            if member.kind != m.MEMBER or member.group_id != guest.group_id:
                raise LedgerError("bad_member", f"{member.name} 不是本群成员")
            together = session.scalar(
                sa.select(sa.func.count())
                .select_from(m.Seat)
                .where(m.Seat.member_id == member.id)
                .where(m.Seat.table_id.in_(sa.select(m.Seat.table_id).where(m.Seat.member_id == guest.id)))
            )
            if together:
                raise LedgerError("played_together", f"{guest.name} 和 {member.name} 同桌打过牌，不能是同一人")
            session.execute(
                sa.update(m.Transfer).where(m.Transfer.payer_id == guest.id).values(payer_id=member.id),
                execution_options={"synchronize_session": False},
            )
            session.execute(
                sa.update(m.Transfer).where(m.Transfer.payee_id == guest.id).values(payee_id=member.id),
                execution_options={"synchronize_session": False},
            )
            session.execute(
                sa.update(m.Seat).where(m.Seat.member_id == guest.id).values(member_id=member.id),
                execution_options={"synchronize_session": False},
            )
            _apply_balances(session, {member.id: guest.balance, guest.id: -guest.balance})
            guest.linked_to_id, guest.linked_at, guest.linked_by = member.id, now, by
            session.flush()
            session.refresh(member)
            return _member_info(member)

        return self._once(source, "link_guest", by, MemberInfo, body)

    # nights and tables ----------------------------------------------------------------------------------
    def open_table(
        self, chat_id: int, seats: Sequence[int], *, dealer: int | None = None, source: str, by: int | None
    ) -> TableInfo:
        """Seat members (ids, in play order) at a new table of the group's game with a snapshot of its rules.

        Opens tonight's night if needed (a night left open from an earlier 日切 date is closed first, its
        settlement stored). An open table of the chat is ended first. `dealer` defaults to the first seat.
        """

        def body(session: Session, now: datetime) -> TableInfo:
            group = _group_by_chat(session, chat_id)
            _lock_group(session, group.id)
            want = SEATS[group.game]
            if len(seats) != want or len(set(seats)) != len(seats):
                raise LedgerError(
                    "bad_seats", f"{_GAME_NAMES[group.game]}需要 {want} 位不同的玩家，收到 {len(seats)} 位"
                )
            people = [_member(session, member_id) for member_id in seats]
            for person in people:
                if person.group_id != group.id or person.kind == m.POT or person.linked_to_id is not None:
                    raise LedgerError("bad_member", f"{person.name} 不能入座")
            if dealer is not None and dealer not in seats:
                raise LedgerError("bad_dealer", "庄家必须是入座的玩家")
            old = _open_table(session, group.id)
            if old is not None:
                self._end_table(session, old, now, by)
            night = self._tonight(session, group, now, by)
            names = _seat_names(people)
            dealer_name = None if group.game == "gouji" else names[seats.index(dealer) if dealer is not None else 0]
            table = m.GameTable(
                group_id=group.id,
                night_id=night.id,
                game=group.game,
                rules=dict(group.rules),
                base=group.base,
                dealer=dealer_name,
                hand_number=1,
                started_at=now,
                started_by=by,
            )
            session.add(table)
            session.flush()
            for position, (person, name) in enumerate(zip(people, names, strict=True)):
                session.add(m.Seat(table_id=table.id, position=position, name=name, member_id=person.id))
            session.flush()
            return _table_info(session, table)

        return self._once(source, "open_table", by, TableInfo, body)

    def _tonight(self, session: Session, group: m.Group, now: datetime, by: int | None) -> m.Night:
        """The group's open night if it is tonight's (by 日切); otherwise close it and open tonight's."""
        night_date = _night_date(group, now)
        night = _open_night(session, group.id)
        if night is not None and night.night_date == night_date:
            return night
        if night is not None:
            self._close_night(session, group, night, now, by)
        night = m.Night(group_id=group.id, night_date=night_date, started_at=now)
        session.add(night)
        session.flush()
        return night

    def current_table(self, chat_id: int) -> TableInfo | None:
        with self._reading() as session:
            rows = session.execute(
                sa.select(m.GameTable, m.Seat)
                .join(m.Group, m.Group.id == m.GameTable.group_id)
                .join(m.Seat, m.Seat.table_id == m.GameTable.id)
                .where(m.Group.chat_id == chat_id, m.GameTable.ended_at.is_(None))
                .order_by(m.Seat.position)
            ).all()
            return _table_info(session, rows[0][0], [seat for _, seat in rows]) if rows else None

    def table(self, table_id: int) -> TableInfo:
        with self._reading() as session:
            return _table_info(session, _get(session, m.GameTable, table_id, "桌"))

    def current_night(self, chat_id: int) -> NightInfo | None:
        with self._reading() as session:
            group = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
            night = _open_night(session, group.id) if group is not None else None
            return _night_info(night) if night is not None else None

    def end_table(self, table_id: int, *, source: str, by: int | None) -> TableInfo:
        """End a table; refused while its hand has events (finish or undo them first)."""

        def body(session: Session, now: datetime) -> TableInfo:
            table = _lock_table(session, table_id)
            if table.ended_at is not None:
                raise LedgerError("table_ended", "这一桌已经结束")
            self._end_table(session, table, now, by)
            return _table_info(session, table)

        return self._once(source, "end_table", by, TableInfo, body)

    def _end_table(self, session: Session, table: m.GameTable, now: datetime, by: int | None) -> None:
        _lock_table(session, table.id)
        hand = _open_hand(session, table.id)
        if hand is not None:
            if _live_events(session, hand.id):
                raise LedgerError("hand_in_progress", f"第 {hand.number} 局还没打完：先记完或撤销")
            hand.status, hand.voided_at, hand.voided_by, hand.void_reason = m.VOIDED, now, by, "空局"
        table.ended_at, table.ended_by = now, by
        session.flush()

    def end_night(self, chat_id: int, *, source: str, by: int | None) -> NightClosed:
        """End the open night (and its table) and post its settlement (stored and returned)."""

        def body(session: Session, now: datetime) -> NightClosed:
            group = _group_by_chat(session, chat_id)
            _lock_group(session, group.id)
            night = _open_night(session, group.id)
            if night is None:
                raise LedgerError("no_night", "现在没有进行中的牌局")
            settlement = self._close_night(session, group, night, now, by)
            return NightClosed(night=_night_info(night), settlement=settlement)

        return self._once(source, "end_night", by, NightClosed, body)

    def _close_night(
        self, session: Session, group: m.Group, night: m.Night, now: datetime, by: int | None
    ) -> Settlement:
        table = _open_table(session, group.id)
        if table is not None and table.night_id == night.id:
            self._end_table(session, table, now, by)
        night.ended_at, night.ended_by = now, by
        session.flush()
        settlement = _settle(_night_balances(session, night))
        session.add(
            m.SettlementRecord(
                group_id=group.id,
                night_id=night.id,
                payments=encode(settlement.payments),
                balances={str(line.member_id): line.amount for line in settlement.balances.lines},
                exact=settlement.exact,
                created_at=now,
                created_by=by,
            )
        )
        session.flush()
        return settlement

    # hands ----------------------------------------------------------------------------------------------
    def record_event(self, table_id: int, event: Mapping[str, Any], *, source: str, by: int | None) -> HandResult:
        """Append one event (the `events` of `paiju score`, seat names as players) to the table's open hand.

        Scores the hand so far (`partial=True`), books the new event's transfers at once (kong money), and
        voids/rebooks an earlier event whose transfers changed. A terminal event closes the hand and advances
        dealer and hand number. 够级: one event `{"type": "round", "order": [...], "geming": [...],
        "shaopai_failed": [...]}` is a whole round.
        """
        return self.record_events(table_id, [event], source=source, by=by)

    def record_events(
        self, table_id: int, events: Sequence[Mapping[str, Any]], *, source: str, by: int | None
    ) -> HandResult:
        """Append several events in one transaction (e.g. the two `hu` of a 一炮双响)."""
        batch = _validated_events(events)

        def body(session: Session, now: datetime) -> HandResult:
            table = _lock_table(session, table_id)
            return self._append(session, table, batch, source, by, now, whole_hand=False)

        return self._once(source, "record", by, HandResult, body)

    def record_hand(
        self, table_id: int, events: Sequence[Mapping[str, Any]], *, source: str, by: int | None
    ) -> HandResult:
        """Record a whole hand at once (the one-message win); refused if the open hand already has events."""
        batch = _validated_events(events)

        def body(session: Session, now: datetime) -> HandResult:
            table = _lock_table(session, table_id)
            return self._append(session, table, batch, source, by, now, whole_hand=True)

        return self._once(source, "record", by, HandResult, body)

    def _append(
        self,
        session: Session,
        table: m.GameTable,
        batch: list[dict[str, Any]],
        source: str,
        by: int | None,
        now: datetime,
        *,
        whole_hand: bool,
    ) -> HandResult:
        if table.ended_at is not None:
            raise LedgerError("table_ended", "这一桌已经结束，请重新开桌")
        hand = _open_hand(session, table.id)
        existing = _live_events(session, hand.id) if hand is not None else []
        if whole_hand and existing:
            raise LedgerError("hand_in_progress", f"第 {table.hand_number} 局已有记录：请逐条补记，或先撤销")
        if whole_hand and not is_terminal(table.game, batch[-1]):
            raise LedgerError("hand_not_finished", "整局记录必须以胡牌或荒庄结束")
        if misplaced_terminal(table.game, [e.payload for e in existing] + batch):
            raise LedgerError("events_after_end", "胡牌/荒庄之后不能再记事件")
        if hand is None:
            hand = m.Hand(
                group_id=table.group_id,
                table_id=table.id,
                number=table.hand_number,
                dealer=table.dealer,
                status=m.OPEN,
                created_at=now,
            )
            session.add(hand)
            session.flush()
        added = [
            m.HandEvent(hand_id=hand.id, payload=payload, source=source, created_at=now, created_by=by)
            for payload in batch
        ]
        session.add_all(added)
        session.flush()
        return self._rescore(session, table, hand, existing + added, source, by, now)

    def _rescore(
        self,
        session: Session,
        table: m.GameTable,
        hand: m.Hand,
        events: list[m.HandEvent],
        source: str,
        by: int | None,
        now: datetime,
    ) -> HandResult:
        """Score the hand's live `events` (in order, as the caller just read or wrote them), make its live
        transfers match the answer event by event, and close the hand when its last event ends it. Raises
        `ScoringRefused` (the caller's transaction then rolls back)."""
        payloads = [e.payload for e in events]
        ends = bool(payloads) and is_terminal(table.game, payloads[-1])
        answer: dict[str, Any] = {"ok": True, "transfers": []}
        seats, names_by_id = _seats_with_names(session, table.id)
        players = [seat.name for seat in seats]
        seat_ids = {seat.name: seat.member_id for seat in seats}
        seat_of = {seat.member_id: seat.name for seat in seats}
        if payloads:
            request = build_request(table.game, table.rules, table.base, players, hand.dealer, payloads)
            answer = score(request, partial=not ends)  # an ending event gets the full check
            if not answer.get("ok"):
                error = answer.get("error") or {}
                raise ScoringRefused(str(error.get("code", "bad_request")), str(error.get("message", "")))
        # the core says whether the hand is over where it can tell (碰胡's second 提蛇 at the deal ends it)
        finished = bool(answer["finished"]) if "finished" in answer else ends
        wanted = owed_by_event(answer, len(events))
        live = _live_transfers(session, hand.id)
        booked: list[m.Transfer] = []
        voided: list[m.Transfer] = []
        deltas: dict[int, int] = {}
        for index, event in enumerate(events):
            have = [t for t in live if t.event_id == event.id]
            have_owed = sorted((seat_of[t.payer_id], seat_of[t.payee_id], t.amount, t.reason) for t in have)
            if have_owed == wanted[index]:
                continue
            for transfer in have:
                _void_transfer(transfer, now, by, RECOMPUTED, deltas)
                voided.append(transfer)
            for payer, payee, amount, reason in wanted[index]:
                if payer not in seat_ids or payee not in seat_ids:
                    raise LedgerError("bad_player", f"计分结果里有不在座的玩家：{payer} → {payee}")
                transfer = _new_transfer(
                    table.group_id, seat_ids[payer], seat_ids[payee], amount, reason, m.HAND, source, by, now, deltas
                )
                transfer.night_id, transfer.table_id = table.night_id, table.id
                transfer.hand_id, transfer.event_id = hand.id, event.id
                session.add(transfer)
                booked.append(transfer)
        stale = [t for t in live if t.event_id not in {e.id for e in events}]
        for transfer in stale:  # transfers of an event that was undone
            _void_transfer(transfer, now, by, RECOMPUTED, deltas)
            voided.append(transfer)
        _apply_balances(session, deltas)
        hand.answer = answer
        if finished:
            hand.status, hand.closed_at = m.CLOSED, now
            table.dealer = next_dealer(table.game, answer, payloads, hand.dealer)
            table.hand_number = hand.number + 1
        session.flush()
        index_of = {e.id: i for i, e in enumerate(events)}
        return HandResult(
            hand_id=hand.id,
            table_id=table.id,
            number=hand.number,
            dealer=hand.dealer,
            events=tuple(payloads),
            finished=finished,
            answer=answer,
            booked=tuple(_transfer_info(t, names_by_id, index_of) for t in booked),
            voided=tuple(_transfer_info(t, names_by_id, index_of) for t in voided),
            next_dealer=table.dealer,
            liangdao=liangdao(payloads),
        )

    def hand_state(self, table_id: int) -> HandState:
        """The open hand for display: events so far, 亮倒 declarations, number, dealer, money booked so far."""
        with self._reading() as session:
            table = _get(session, m.GameTable, table_id, "桌")
            hand = _open_hand(session, table.id)
            events = _live_events(session, hand.id) if hand is not None else []
            payloads = tuple(e.payload for e in events)
            names = _names(session, table.group_id)
            index_of = {e.id: i for i, e in enumerate(events)}
            transfers = _live_transfers(session, hand.id) if hand is not None else []
            return HandState(
                table_id=table.id,
                hand_id=hand.id if hand is not None else None,
                number=table.hand_number,
                dealer=hand.dealer if hand is not None else table.dealer,
                events=payloads,
                liangdao=liangdao(payloads),
                transfers=tuple(_transfer_info(t, names, index_of) for t in transfers),
            )

    def undo(self, table_id: int, *, source: str, by: int | None, reason: str = "") -> VoidResult:
        """Void the last event of the open hand; with none, void the last finished hand of the table."""

        def body(session: Session, now: datetime) -> VoidResult:
            table = _lock_table(session, table_id)
            hand = _open_hand(session, table.id)
            events = _live_events(session, hand.id) if hand is not None else []
            if hand is not None and events:
                last = events[-1]
                last.voided_at, last.voided_by, last.void_reason = now, by, reason or "撤销"
                session.flush()
                result = self._rescore(session, table, hand, events[:-1], source, by, now)
                return VoidResult(
                    what="event",
                    hand_id=hand.id,
                    event=last.payload,
                    voided=result.voided,
                    rebooked=result.booked,
                    dealer=table.dealer,
                    hand_number=table.hand_number,
                )
            closed = session.scalar(
                sa.select(m.Hand)
                .where(m.Hand.table_id == table.id, m.Hand.status == m.CLOSED)
                .order_by(m.Hand.id.desc())
                .limit(1)
            )
            if closed is None:
                raise LedgerError("nothing_to_undo", "这一桌没有可以撤销的记录")
            return self._void_hand(session, closed, now, by, reason or "撤销")

        return self._once(source, "undo", by, VoidResult, body)

    def void_hand(self, hand_id: int, *, source: str, by: int | None, reason: str = "") -> VoidResult:
        """Void a finished hand (its transfers too). Voiding the table's last hand restores its dealer/number."""

        def body(session: Session, now: datetime) -> VoidResult:
            _lock_table(session, _get(session, m.Hand, hand_id, "局").table_id)
            hand = _get(session, m.Hand, hand_id, "局")  # re-read under the table's lock (hands change under it)
            if hand.status != m.CLOSED:
                raise LedgerError(
                    "not_closed", f"第 {hand.number} 局{'已作废' if hand.status == m.VOIDED else '还没打完'}"
                )
            return self._void_hand(session, hand, now, by, reason or "作废")

        return self._once(source, "void_hand", by, VoidResult, body)

    def _void_hand(self, session: Session, hand: m.Hand, now: datetime, by: int | None, reason: str) -> VoidResult:
        table = _get(session, m.GameTable, hand.table_id, "桌")
        deltas: dict[int, int] = {}
        transfers = _live_transfers(session, hand.id)
        for transfer in transfers:
            _void_transfer(transfer, now, by, reason, deltas)
        _apply_balances(session, deltas)
        hand.status, hand.voided_at, hand.voided_by, hand.void_reason = m.VOIDED, now, by, reason
        session.flush()
        self._rewind_if_last(session, table, hand, hand.dealer)
        names = _names(session, hand.group_id)
        return VoidResult(
            what="hand",
            hand_id=hand.id,
            event=None,
            voided=tuple(_transfer_info(t, names, {}) for t in transfers),
            rebooked=(),
            dealer=table.dealer,
            hand_number=table.hand_number,
        )

    def _rewind_if_last(self, session: Session, table: m.GameTable, hand: m.Hand, dealer: str | None) -> None:
        """After voiding or replacing the table's latest finished hand (nothing recorded since), the next hand
        is dealt as if it never happened (voided) or as the replacement says (`dealer`)."""
        later = session.scalar(
            sa.select(sa.func.count())
            .select_from(m.Hand)
            .where(m.Hand.table_id == table.id, m.Hand.status == m.CLOSED, m.Hand.number > hand.number)
        )
        open_hand = _open_hand(session, table.id)
        if later or (open_hand is not None and _live_events(session, open_hand.id)):
            return
        table.dealer = dealer
        table.hand_number = hand.number if hand.status == m.VOIDED else hand.number + 1
        if open_hand is not None:
            open_hand.number, open_hand.dealer = table.hand_number, table.dealer
        session.flush()

    def replace_hand(
        self,
        original_source: str,
        events: Sequence[Mapping[str, Any]],
        *,
        source: str,
        by: int | None,
        reason: str = "",
    ) -> HandResult:
        """Edit: the events `original_source` recorded (or an earlier edit of it, `<source>:e<n>`) are replaced
        by `events`; their hand is voided and a new hand with the other events kept in place is recorded and
        linked to it (`replaces`). Works on the open hand and on finished hands."""
        batch = _validated_events(events)

        def body(session: Session, now: datetime) -> HandResult:
            edited = session.scalars(
                sa.select(m.HandEvent)
                .join(m.Hand)
                .where(m.Hand.status != m.VOIDED, m.HandEvent.voided_at.is_(None))
                .where(
                    sa.or_(
                        m.HandEvent.source == original_source,
                        m.HandEvent.source.startswith(original_source + ":e", autoescape=True),
                    )
                )
                .order_by(m.HandEvent.id)
            ).all()
            if not edited:
                raise LedgerError("nothing_to_edit", "找不到这条消息记下的牌局")
            table = _lock_table(session, _get(session, m.Hand, edited[0].hand_id, "局").table_id)
            old = _get(session, m.Hand, edited[0].hand_id, "局")  # re-read under the table's lock
            if old.status == m.VOIDED:
                raise LedgerError("nothing_to_edit", "这条消息记下的牌局已经作废")
            old_events = _live_events(session, old.id)
            edited_ids = {e.id for e in edited} & {e.id for e in old_events}
            if not edited_ids:  # undone meanwhile
                raise LedgerError("nothing_to_edit", "这条消息记下的事件已经撤销")
            first = next(i for i, e in enumerate(old_events) if e.id in edited_ids)
            kept = [e for e in old_events if e.id not in edited_ids]
            merged = [(e.payload, e.source) for e in kept[:first]] + [(p, source) for p in batch]
            merged += [(e.payload, e.source) for e in kept[first:]]
            payloads = [payload for payload, _ in merged]
            if misplaced_terminal(table.game, payloads):
                raise LedgerError("events_after_end", "胡牌/荒庄之后不能再记事件")
            was_open = old.status == m.OPEN
            if not was_open and not is_terminal(table.game, payloads[-1]):
                raise LedgerError("hand_not_finished", "改过的这一局必须仍以胡牌或荒庄结束")
            deltas: dict[int, int] = {}
            for transfer in _live_transfers(session, old.id):
                _void_transfer(transfer, now, by, reason or "修改", deltas)
            _apply_balances(session, deltas)
            old.status, old.voided_at, old.voided_by, old.void_reason = m.VOIDED, now, by, reason or "修改"
            session.flush()
            new = m.Hand(
                group_id=old.group_id,
                table_id=table.id,
                number=old.number,
                dealer=old.dealer,
                status=m.OPEN,
                created_at=now,
                replaces_id=old.id,
            )
            session.add(new)
            session.flush()
            new_events = [
                m.HandEvent(hand_id=new.id, payload=payload, source=event_source, created_at=now, created_by=by)
                for payload, event_source in merged
            ]
            session.add_all(new_events)
            session.flush()
            dealer_before, number_before = table.dealer, table.hand_number
            result = self._rescore(session, table, new, new_events, source, by, now)
            if not was_open:
                # a finished hand replaced: the table's dealer moves only if this was its latest hand
                table.dealer, table.hand_number = dealer_before, number_before
                self._rewind_if_last(
                    session, table, new, next_dealer(table.game, new.answer or {}, payloads, new.dealer)
                )
            return dataclasses.replace(result, next_dealer=table.dealer)

        return self._once(source, "replace_hand", by, HandResult, body)

    # fines and the pot ----------------------------------------------------------------------------------
    def fine(self, member_id: int, amount: int, reason: str, *, source: str, by: int | None) -> TransferInfo:
        """Book a fine: the member pays `amount` 分 into the group's pot (红包池)."""
        _check_amount(amount)

        def body(session: Session, now: datetime) -> TransferInfo:
            member, pot, night_id = _member_pot_and_night(session, member_id)
            if member.kind == m.POT or member.linked_to_id is not None:
                raise LedgerError("bad_member", f"不能罚 {member.name}")
            deltas: dict[int, int] = {}
            transfer = _new_transfer(
                member.group_id, member.id, pot.id, amount, reason[:200] or "罚款", m.FINE, source, by, now, deltas
            )
            transfer.night_id = night_id
            session.add(transfer)
            _apply_balances(session, deltas)
            return _transfer_info(transfer, {member.id: member.name, pot.id: pot.name}, {})

        return self._once(source, "fine", by, TransferInfo, body)

    def cancel_fine(self, transfer_id: int, *, source: str, by: int | None, reason: str = "") -> TransferInfo:
        """Void a fine (kept, marked with who/when/why)."""

        def body(session: Session, now: datetime) -> TransferInfo:
            transfer = _get(session, m.Transfer, transfer_id, "罚款", lock=True)
            if transfer.kind != m.FINE:
                raise LedgerError("not_a_fine", "这笔不是罚款")
            if transfer.voided_at is not None:
                raise LedgerError("already_voided", "这笔罚款已经取消")
            deltas: dict[int, int] = {}
            _void_transfer(transfer, now, by, reason or "取消罚款", deltas)
            _apply_balances(session, deltas)
            session.flush()
            return _transfer_info(transfer, _names(session, transfer.group_id), {})

        return self._once(source, "cancel_fine", by, TransferInfo, body)

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

        def body(session: Session, now: datetime) -> list[TransferInfo]:
            group = _group_by_chat(session, chat_id)
            pot = _pot(session, group.id, lock=True)
            if isinstance(to, Mapping):
                shares = dict(to)
                for share in shares.values():
                    _check_amount(share)
            else:
                if not to or len(set(to)) != len(to):
                    raise LedgerError("bad_members", "请列出领红包的人（不要重复）")
                total = pot.balance if amount is None else amount
                _check_amount(total)
                each = total // len(to)
                if each <= 0:
                    raise LedgerError("pot_too_small", f"红包池只有 {pot.balance} 分，不够分给 {len(to)} 人")
                shares = dict.fromkeys(to, each)
            if sum(shares.values()) > pot.balance:
                raise LedgerError("pot_too_small", f"红包池只有 {pot.balance} 分，不够发 {sum(shares.values())} 分")
            deltas: dict[int, int] = {}
            transfers = []
            night_id = _open_night_id(session, group.id)
            for member_id, share in shares.items():
                member = _member(session, member_id)
                if member.group_id != group.id or member.kind == m.POT or member.linked_to_id is not None:
                    raise LedgerError("bad_member", f"{member.name} 不能领红包")
                transfer = _new_transfer(group.id, pot.id, member.id, share, "红包", m.PAYOUT, source, by, now, deltas)
                transfer.night_id = night_id
                session.add(transfer)
                transfers.append(transfer)
            _apply_balances(session, deltas)
            session.flush()
            names = _names(session, group.id)
            return [_transfer_info(t, names, {}) for t in transfers]

        return self._once(source, "pay_out_pot", by, list[TransferInfo], body)

    # balances, history, settlement ----------------------------------------------------------------------
    def balances(self, chat_id: int) -> Balances:
        """All-time balances of every account (running totals: one indexed query whatever the history)."""
        with self._reading() as session:
            rows = session.execute(
                sa.select(m.Member.id, m.Member.kind, m.Member.alias, m.Member.display_name, m.Member.balance)
                .join(m.Group, m.Group.id == m.Member.group_id)
                .where(m.Group.chat_id == chat_id, m.Member.linked_to_id.is_(None))
                .order_by(m.Member.id)
            ).all()
        if not rows:  # every group has its pot, so no rows means no group
            raise LedgerError("no_group", "这个群还没有账本")
        return Balances(tuple(Balance(row.id, row.alias or row.display_name, row.kind, row.balance) for row in rows))

    def night_balances(self, night_id: int) -> Balances:
        """A night: its tables' hands (edits made later included), plus fines and payouts booked while it was
        open."""
        with self._reading() as session:
            return _night_balances(session, _get(session, m.Night, night_id, "牌局"))

    def table_balances(self, table_id: int) -> Balances:
        with self._reading() as session:
            table = _get(session, m.GameTable, table_id, "桌")
            return _sum_balances(session, table.group_id, m.Transfer.table_id == table.id)

    def period_balances(self, chat_id: int, since: datetime | None, until: datetime | None) -> Balances:
        """Balances over transfers booked in [since, until)."""
        with self._reading() as session:
            group = _group_by_chat(session, chat_id)
            return _sum_balances(session, group.id, *_period(since, until))

    def history(self, chat_id: int, limit: int = 10, *, include_voided: bool = False) -> list[HandRecord]:
        """The last `limit` finished hands, newest first (with voided ones when asked)."""
        from ledger.history import hand_history  # the read side imports this module's record types

        with self._reading() as session:
            return hand_history(session, chat_id, limit, include_voided=include_voided)

    def member_record(self, member_id: int, *, recent: int = 20) -> MemberRecord:
        """Balance, finished hands played and won, live fines, and the latest transfers of one account."""
        with self._reading() as session:
            member = _member(session, member_id)
            # every live event of every finished hand at a table the member sat at, in one query
            rows = session.execute(
                sa.select(m.Hand.id, m.Seat.name, m.GameTable.game, m.HandEvent.payload)
                .join(m.GameTable, m.GameTable.id == m.Seat.table_id)
                .join(m.Hand, m.Hand.table_id == m.Seat.table_id)
                .join(m.HandEvent, m.HandEvent.hand_id == m.Hand.id)
                .where(m.Seat.member_id == member.id, m.Hand.status == m.CLOSED, m.HandEvent.voided_at.is_(None))
                .order_by(m.Hand.id, m.HandEvent.id)
            ).all()
            hands: dict[int, tuple[str, str, list[dict[str, Any]]]] = {}
            for hand_id, seat_name, game, payload in rows:
                hands.setdefault(hand_id, (seat_name, game, []))[2].append(payload)
            played = len(hands)
            won = sum(seat_name in winners(game, events) for seat_name, game, events in hands.values())
            fines = session.scalar(
                sa.select(sa.func.coalesce(sa.func.sum(m.Transfer.amount), 0)).where(
                    m.Transfer.payer_id == member.id, m.Transfer.kind == m.FINE, m.Transfer.voided_at.is_(None)
                )
            )
            latest = session.scalars(
                sa.select(m.Transfer)
                .where(sa.or_(m.Transfer.payer_id == member.id, m.Transfer.payee_id == member.id))
                .order_by(m.Transfer.id.desc())
                .limit(recent)
            ).all()
            names = _names(session, member.group_id)
            return MemberRecord(
                member=_member_info(member),
                balance=member.balance,
                hands_played=played,
                hands_won=won,
                fines=int(fines or 0),
                recent=tuple(_transfer_info(t, names, {}) for t in latest),
            )

    def settle_night(self, night_id: int) -> Settlement:
        """Fewest payments to square a night (not stored; `end_night` stores it)."""
        return _settle(self.night_balances(night_id))

    def settle_period(self, chat_id: int, since: datetime | None, until: datetime | None) -> Settlement:
        return _settle(self.period_balances(chat_id, since, until))

    # inline-keyboard flows ------------------------------------------------------------------------------
    def save_flow(self, chat_id: int, message_id: int, user_id: int, kind: str, state: Mapping[str, Any]) -> Flow:
        """Create or update the flow attached to a bot message."""
        for attempt in range(2):
            try:
                with self._writing() as session:
                    now = self._now()
                    flow = _flow(session, chat_id, message_id)
                    if flow is None:
                        flow = m.FlowState(chat_id=chat_id, message_id=message_id, created_at=now)
                        session.add(flow)
                    flow.user_id, flow.kind, flow.state, flow.updated_at = user_id, kind, dict(state), now
                    session.flush()
                    return _flow_info(flow)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def load_flow(self, chat_id: int, message_id: int) -> Flow | None:
        """The flow of a bot message (finished ones too), or None."""
        with self._reading() as session:
            flow = _flow(session, chat_id, message_id)
            return _flow_info(flow) if flow is not None else None

    def finish_flow(self, chat_id: int, message_id: int) -> Flow | None:
        with self._writing() as session:
            flow = _flow(session, chat_id, message_id)
            if flow is None:
                return None
            if flow.finished_at is None:
                flow.finished_at = flow.updated_at = self._now()
            return _flow_info(flow)

    def open_flows(self, chat_id: int | None = None) -> list[Flow]:
        """Unfinished flows (to resume after a restart)."""
        with self._reading() as session:
            query = sa.select(m.FlowState).where(m.FlowState.finished_at.is_(None)).order_by(m.FlowState.id)
            if chat_id is not None:
                query = query.where(m.FlowState.chat_id == chat_id)
            return [_flow_info(flow) for flow in session.scalars(query)]


# -------------------------------------------------------------------------------------------- helpers

_GAME_NAMES = {"kawuxing": "卡五星", "gouji": "够级", "penghu": "碰胡"}


def _check_source(source: str) -> None:
    if not isinstance(source, str) or not source.strip() or len(source) > MAX_SOURCE:
        raise LedgerError("bad_source", f"来源标识必须是 1–{MAX_SOURCE} 个字符")


def _check_amount(amount: object) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError("bad_amount", f"金额必须是正整数（分），收到 {amount!r}")


def _clean_name(name: str | None, what: str) -> str:
    clean = " ".join((name or "").split())
    if not clean:
        raise LedgerError("bad_name", f"{what}不能为空")
    if len(clean) > MAX_NAME:
        raise LedgerError("bad_name", f"{what}太长（最多 {MAX_NAME} 个字）")
    return clean


def _validated_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    known = {"game", "rules", "base", "currency", "language", "cutoff_hour", "timezone", "title"}
    unknown = set(changes) - known
    if unknown:
        raise LedgerError("bad_setting", f"未知的设置：{'、'.join(sorted(unknown))}")
    clean = dict(changes)
    if "game" in clean and clean["game"] not in GAMES:
        raise LedgerError("bad_setting", f"未知的游戏 {clean['game']!r}（可选：{'、'.join(GAMES)}）")
    if "rules" in clean and not isinstance(clean["rules"], dict):
        raise LedgerError("bad_setting", '规则必须是 {"preset": …, 选项: 值} 的形式')
    if "base" in clean:
        _check_amount(clean["base"])
    if "language" in clean and clean["language"] not in LANGUAGES:
        raise LedgerError("bad_setting", f"语言只能是 {'、'.join(LANGUAGES)}")
    if "cutoff_hour" in clean and (not isinstance(clean["cutoff_hour"], int) or not 0 <= clean["cutoff_hour"] < 24):
        raise LedgerError("bad_setting", "日切时间必须是 0–23 点")
    if "timezone" in clean:
        try:
            ZoneInfo(str(clean["timezone"]))
        except (ZoneInfoNotFoundError, ValueError) as err:
            raise LedgerError("bad_setting", f"未知的时区 {clean['timezone']!r}") from err
    if "currency" in clean:
        clean["currency"] = _clean_name(clean["currency"], "货币")[:16]
    if "title" in clean:
        clean["title"] = str(clean["title"])[:255]
    return clean


def _validated_events(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    if isinstance(events, Mapping) or not events:
        raise LedgerError("bad_event", "至少要记一个事件")
    batch = []
    for event in events:
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise LedgerError("bad_event", f"事件必须是带 type 的对象，收到 {event!r}")
        batch.append(json.loads(json.dumps(event)))  # plain JSON, as stored
    return batch


def _get(session: Session, model: type[Any], id_: int, what: str, *, lock: bool = False) -> Any:
    """A row by id, fresh from the database; `lock` holds it (SELECT … FOR UPDATE) until the transaction ends."""
    row = session.get(model, id_, with_for_update=lock or None, populate_existing=True)
    if row is None:
        raise LedgerError("not_found", f"找不到这个{what}（{id_}）")
    return row


def _group_by_chat(session: Session, chat_id: int) -> m.Group:
    group = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    if group is None:
        raise LedgerError("no_group", "这个群还没有账本")
    return group


def _lock_group(session: Session, group_id: int) -> None:
    """Serialize writers of one group on PostgreSQL (SQLite writers are serialized by BEGIN IMMEDIATE)."""
    session.execute(sa.select(m.Group.id).where(m.Group.id == group_id).with_for_update())


def _lock_table(session: Session, table_id: int) -> m.GameTable:
    table = session.scalar(
        sa.select(m.GameTable)
        .where(m.GameTable.id == table_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if table is None:
        raise LedgerError("not_found", f"找不到这一桌（{table_id}）")
    return table


def _member(session: Session, member_id: int) -> m.Member:
    member: m.Member = _get(session, m.Member, member_id, "成员")
    return member


def _accounts(session: Session, group_id: int) -> list[m.Member]:
    return list(session.scalars(sa.select(m.Member).where(m.Member.group_id == group_id).order_by(m.Member.id)))


def _pot(session: Session, group_id: int, *, lock: bool = False) -> m.Member:
    query = sa.select(m.Member).where(m.Member.group_id == group_id, m.Member.kind == m.POT)
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    pot = session.scalar(query)
    assert pot is not None, "every group is created with its pot"
    return pot


def _names(session: Session, group_id: int) -> dict[int, str]:
    rows = session.execute(
        sa.select(m.Member.id, m.Member.alias, m.Member.display_name).where(m.Member.group_id == group_id)
    )
    return {member_id: alias or display_name for member_id, alias, display_name in rows}


def _open_night(session: Session, group_id: int) -> m.Night | None:
    return session.scalar(sa.select(m.Night).where(m.Night.group_id == group_id, m.Night.ended_at.is_(None)))


def _open_night_id(session: Session, group_id: int) -> int | None:
    """The night a fine or payout belongs to: the one open when it is booked (None between nights)."""
    night = _open_night(session, group_id)
    return night.id if night is not None else None


def _open_table(session: Session, group_id: int) -> m.GameTable | None:
    return session.scalar(
        sa.select(m.GameTable).where(m.GameTable.group_id == group_id, m.GameTable.ended_at.is_(None))
    )


def _open_hand(session: Session, table_id: int) -> m.Hand | None:
    return session.scalar(sa.select(m.Hand).where(m.Hand.table_id == table_id, m.Hand.status == m.OPEN))


def _seats(session: Session, table_id: int) -> list[m.Seat]:
    return list(session.scalars(sa.select(m.Seat).where(m.Seat.table_id == table_id).order_by(m.Seat.position)))


def _seats_with_names(session: Session, table_id: int) -> tuple[list[m.Seat], dict[int, str]]:
    """A table's seats in play order and the ledger names of the members sitting there (one query: every
    transfer of a hand is between two of them)."""
    rows = session.execute(
        sa.select(m.Seat, m.Member.alias, m.Member.display_name)
        .join(m.Member, m.Member.id == m.Seat.member_id)
        .where(m.Seat.table_id == table_id)
        .order_by(m.Seat.position)
    ).all()
    return [seat for seat, _, _ in rows], {seat.member_id: alias or name for seat, alias, name in rows}


def _member_pot_and_night(session: Session, member_id: int) -> tuple[m.Member, m.Member, int | None]:
    """A member, its group's pot and the group's open night id (None between nights), in one query."""
    pot = sa.orm.aliased(m.Member)
    open_night = (
        sa.select(m.Night.id)
        .where(m.Night.group_id == m.Member.group_id, m.Night.ended_at.is_(None))
        .correlate(m.Member)
        .scalar_subquery()
    )
    row = session.execute(
        sa.select(m.Member, pot, open_night)
        .join(pot, sa.and_(pot.group_id == m.Member.group_id, pot.kind == m.POT))
        .where(m.Member.id == member_id)
    ).first()
    if row is None:
        raise LedgerError("not_found", f"找不到这个成员（{member_id}）")
    return row[0], row[1], row[2]


def _live_events(session: Session, hand_id: int) -> list[m.HandEvent]:
    return list(
        session.scalars(
            sa.select(m.HandEvent)
            .where(m.HandEvent.hand_id == hand_id, m.HandEvent.voided_at.is_(None))
            .order_by(m.HandEvent.id)
        )
    )


def _live_transfers(session: Session, hand_id: int) -> list[m.Transfer]:
    return list(
        session.scalars(
            sa.select(m.Transfer)
            .where(m.Transfer.hand_id == hand_id, m.Transfer.voided_at.is_(None))
            .order_by(m.Transfer.id)
        )
    )


def _flow(session: Session, chat_id: int, message_id: int) -> m.FlowState | None:
    return session.scalar(
        sa.select(m.FlowState).where(m.FlowState.chat_id == chat_id, m.FlowState.message_id == message_id)
    )


def _night_date(group: m.Group, now: datetime) -> date:
    """The night a moment belongs to: the local date, counting hours before the 日切 hour as the day before."""
    local = now.astimezone(ZoneInfo(group.timezone))
    return (local - timedelta(hours=group.cutoff_hour)).date()


def _seat_names(people: Sequence[m.Member]) -> list[str]:
    """Seat keys: each player's ledger name, made unique within the table with a #2, #3 suffix."""
    names: list[str] = []
    for person in people:
        name, n = person.name[:MAX_NAME], 1
        while name in names:
            n += 1
            name = f"{person.name[: MAX_NAME - 4]}#{n}"
        names.append(name)
    return names


def _new_transfer(
    group_id: int,
    payer_id: int,
    payee_id: int,
    amount: int,
    reason: str,
    kind: str,
    source: str,
    by: int | None,
    now: datetime,
    deltas: dict[int, int],
) -> m.Transfer:
    if amount <= 0 or payer_id == payee_id:
        raise LedgerError("bad_transfer", f"无效的款项：{amount} 分（{reason}）")
    deltas[payer_id] = deltas.get(payer_id, 0) - amount
    deltas[payee_id] = deltas.get(payee_id, 0) + amount
    return m.Transfer(
        group_id=group_id,
        payer_id=payer_id,
        payee_id=payee_id,
        amount=amount,
        reason=reason[:200],
        kind=kind,
        source=source,
        created_at=now,
        created_by=by,
    )


def _void_transfer(transfer: m.Transfer, now: datetime, by: int | None, reason: str, deltas: dict[int, int]) -> None:
    transfer.voided_at, transfer.voided_by, transfer.void_reason = now, by, reason[:500]
    deltas[transfer.payer_id] = deltas.get(transfer.payer_id, 0) + transfer.amount
    deltas[transfer.payee_id] = deltas.get(transfer.payee_id, 0) - transfer.amount


#: moves one running total; executed for several members at once (one executemany, one pipeline on psycopg)
_ADD_TO_BALANCE = (
    sa.update(m.Member)
    .where(m.Member.id == sa.bindparam("member"))
    .values(balance=m.Member.balance + sa.bindparam("delta"))
)


def _apply_balances(session: Session, deltas: Mapping[int, int]) -> None:
    """Flush the booking's rows, then move the running totals in its transaction, in id order (no lock-order
    deadlocks). The loaded `Member` objects' `balance` is not updated (refresh one that is read afterwards)."""
    session.flush()
    changes = [{"member": member_id, "delta": delta} for member_id, delta in sorted(deltas.items()) if delta]
    if changes:
        session.connection().execute(_ADD_TO_BALANCE, changes)


def _period(since: datetime | None, until: datetime | None) -> list[sa.ColumnElement[bool]]:
    conditions: list[sa.ColumnElement[bool]] = []
    if since is not None:
        conditions.append(m.Transfer.created_at >= since)
    if until is not None:
        conditions.append(m.Transfer.created_at < until)
    return conditions


def _sum_balances(session: Session, group_id: int, *conditions: sa.ColumnElement[bool]) -> Balances:
    """Balances from live transfers matching `conditions` (accounts without any such transfer are left out)."""
    live = sa.and_(m.Transfer.group_id == group_id, m.Transfer.voided_at.is_(None), *conditions)
    totals: dict[int, int] = {}
    for column, sign in ((m.Transfer.payer_id, -1), (m.Transfer.payee_id, 1)):
        for member_id, total in session.execute(
            sa.select(column, sa.func.sum(m.Transfer.amount)).where(live).group_by(column)
        ):
            totals[member_id] = totals.get(member_id, 0) + sign * int(total)
    accounts = {
        id_: (alias or name, kind)
        for id_, alias, name, kind in session.execute(
            sa.select(m.Member.id, m.Member.alias, m.Member.display_name, m.Member.kind).where(
                m.Member.group_id == group_id
            )
        )
    }
    return Balances(tuple(Balance(id_, *accounts[id_], amount) for id_, amount in sorted(totals.items())))


def _night_balances(session: Session, night: m.Night) -> Balances:
    return _sum_balances(session, night.group_id, m.Transfer.night_id == night.id)


def _settle(balances: Balances) -> Settlement:
    names = {line.member_id: line.name for line in balances.lines}
    payments, exact = settle({line.member_id: line.amount for line in balances.lines})
    return Settlement(
        payments=tuple(Payment(payer, names[payer], payee, names[payee], amount) for payer, payee, amount in payments),
        balances=balances,
        exact=exact,
    )


def _group_info(group: m.Group) -> GroupInfo:
    return GroupInfo(
        id=group.id,
        chat_id=group.chat_id,
        title=group.title,
        game=group.game,
        rules=dict(group.rules),
        base=group.base,
        currency=group.currency,
        language=group.language,
        cutoff_hour=group.cutoff_hour,
        timezone=group.timezone,
        updated_at=group.updated_at,
        updated_by=group.updated_by,
    )


def _member_info(member: m.Member) -> MemberInfo:
    return MemberInfo(
        id=member.id,
        group_id=member.group_id,
        user_id=member.user_id,
        display_name=member.display_name,
        username=member.username,
        alias=member.alias,
        kind=member.kind,
        linked_to=member.linked_to_id,
    )


def _night_info(night: m.Night) -> NightInfo:
    return NightInfo(
        id=night.id,
        group_id=night.group_id,
        night_date=night.night_date,
        started_at=night.started_at,
        ended_at=night.ended_at,
    )


def _table_info(session: Session, table: m.GameTable, seats: Sequence[m.Seat] | None = None) -> TableInfo:
    """`seats` when the caller already loaded them (in position order)."""
    if seats is None:
        seats = _seats(session, table.id)
    return TableInfo(
        id=table.id,
        group_id=table.group_id,
        night_id=table.night_id,
        game=table.game,
        rules=dict(table.rules),
        base=table.base,
        seats=tuple(Seat(s.position, s.name, s.member_id) for s in seats),
        dealer=table.dealer,
        hand_number=table.hand_number,
        started_at=table.started_at,
        ended_at=table.ended_at,
    )


def _transfer_info(transfer: m.Transfer, names: Mapping[int, str], index_of: Mapping[int, int]) -> TransferInfo:
    return TransferInfo(
        id=transfer.id,
        payer_id=transfer.payer_id,
        payer=names.get(transfer.payer_id, "?"),
        payee_id=transfer.payee_id,
        payee=names.get(transfer.payee_id, "?"),
        amount=transfer.amount,
        reason=transfer.reason,
        kind=transfer.kind,
        hand_id=transfer.hand_id,
        event_index=index_of.get(transfer.event_id) if transfer.event_id is not None else None,
        created_at=transfer.created_at,
        voided=transfer.voided_at is not None,
    )


def _flow_info(flow: m.FlowState) -> Flow:
    return Flow(
        chat_id=flow.chat_id,
        message_id=flow.message_id,
        user_id=flow.user_id,
        kind=flow.kind,
        state=dict(flow.state),
        created_at=flow.created_at,
        updated_at=flow.updated_at,
        finished_at=flow.finished_at,
    )
