"""Moderation service (群规则): settings, warnings, offences on the penalty ladder, fines, removals, rules text.

The bot layer detects; this module decides and records. Fines are booked through the ledger's own `fine`, so a
fine is a transfer member → pot (红包池) like any other and shows in balances, settlements and exports.

Every mutating call takes a `source` and is idempotent on it (`moderation_actions` is unique on (source, kind)).
An offence is counted and its warning, its fine (the transfer into the pot and the fine's row) or its removal
written in ONE transaction that holds the member: two messages of one member handled at once are the 1st and the
2nd offence, never two 1st ones, and a crash leaves either the whole offence or none of it. The fine's transfer
carries the source `<source>:fine` and its operation record, exactly as the ledger's own `fine` writes them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ledger.accounts import MAX_AMOUNT
from ledger.codec import encode
from ledger.db import session_factories
from ledger.models import FINE as FINE_TRANSFER
from ledger.models import Member, Operation, Transfer
from ledger.moderation_models import BAN, FINE, REMOVAL, WARNING, ModerationAction, ModerationSettings, Reminder
from ledger.moderation_models import RulesText as RulesTextRow
from ledger.money import fine as book_fine
from ledger.service import Ledger, LedgerError, MemberInfo, TransferInfo
from ledger.unit import RETRY_STATES, Tx

log = logging.getLogger(__name__)

#: attempts of one moderation write that lost a race (see `Moderation._write`)
WRITE_ATTEMPTS = 3

#: Seed default ad keywords (rule 3, 禁止发布各种广告): spam-recruiting phrases, simplified and traditional.
DEFAULT_AD_KEYWORDS: tuple[str, ...] = (
    "加微信",
    "加v",
    "加薇",
    "兼职",
    "兼職",
    "刷单",
    "刷單",
    "日赚",
    "日賺",
    "返利",
    "博彩",
    "菠菜",
    "贷款",
    "貸款",
    "套现",
    "套現",
    "引流",
)

#: Seed default name card (rule 2, 进群后修改名片 如：刘XX-成员): a name, a dash, a role.
DEFAULT_NAMECARD_PATTERN = r".+\s*[-－—–]\s*\S+"
DEFAULT_NAMECARD_EXAMPLE = "刘XX-成员"

#: The seed's 群规则, simplified characters; shown until the owner edits it.
DEFAULT_RULES_TEXT = """群规则：
1、群公告未经同意不得擅自更改。
2、名片：进群后修改名片（如：刘XX-成员）。
3、本群禁止发布各种广告与广告链接等。
4、严禁各种刷屏，一次警告罚发红包，二次请出该群，欢迎群成员监督。
5、对于违反以上群规，不服从管理的群成员，我们会将他请出该群。
6、群成员要服从群主安排，如有异议可以和本群主反馈。"""

#: Ladder steps: what the n-th live offence brings (the last step repeats for later offences).
LADDER_STEPS = ("warn", "warn_fine", "remove", "ban")


@dataclass(frozen=True)
class RuleSettings:
    """A group's effective moderation settings: the seed's defaults with the group's overrides applied."""

    flood: bool = True  # rule 4 严禁刷屏
    flood_max_messages: int = 5  # more than this many …
    flood_window_seconds: int = 10  # … within this many seconds is flooding
    repeat_count: int = 3  # the same text this many times in a row (0: off)
    links: bool = True  # rule 3 广告链接
    invites: bool = True  # rule 3 (group/channel invite links)
    ad_keywords: tuple[str, ...] = DEFAULT_AD_KEYWORDS  # rule 3 广告
    fine_amount: int = 500  # 分: 发红包, 5 units of the group's currency
    ladder: tuple[str, ...] = ("warn_fine", "remove")  # rule 4: 一次警告罚发红包，二次请出该群
    warning_expiry_days: int | None = None  # None: warnings never expire (the seed says nothing of expiry)
    namecard: bool = True  # rule 2 名片
    namecard_pattern: str = DEFAULT_NAMECARD_PATTERN
    namecard_example: str = DEFAULT_NAMECARD_EXAMPLE
    rules_editors: tuple[int, ...] = ()  # rule 1: admins the owner allows to edit the rules text

    def step_for(self, offence_number: int) -> str:
        """The ladder step of the n-th live offence (1-based); past the end the last step repeats."""
        return self.ladder[min(offence_number, len(self.ladder)) - 1]

    def as_overrides(self) -> dict[str, Any]:
        """Only the settings that differ from the defaults, JSON-ready."""
        default = RuleSettings()
        return {
            k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items() if v != getattr(default, k)
        }


SETTING_NAMES = tuple(f.name for f in fields(RuleSettings))

#: the mark (a `moderation_reminders` row of this kind) of a member who left the group
LEFT = "left"


def _bad(setting: str, message: str, english: str) -> LedgerError:
    return LedgerError("mod_bad_setting", f"设置 {setting} 无效：{message}", f"{setting}: {english}")


def _int(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise _bad(name, f"需要整数，收到 {value!r}", f"a whole number is needed, got {value!r}") from None
    if not low <= value <= high:
        raise _bad(name, f"应在 {low} 到 {high} 之间，收到 {value}", f"must be from {low} to {high}, got {value}")
    return int(value)


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "on", "true", "yes", "开", "开启", "是"}:
        return True
    if text in {"0", "off", "false", "no", "关", "关闭", "否"}:
        return False
    raise _bad(name, f"需要 开/关，收到 {value!r}", f"on or off, got {value!r}")


#: what an admin types for "none" (an empty keyword list, no rules editors)
_NONE_WORDS = {"-", "无", "none", "空"}


def _items(value: Any) -> tuple[str, ...]:
    """The items of a typed list (`加微信，兼职 刷单`: commas, 、 or spaces) or of a list, in order, blanks dropped."""
    items = value if isinstance(value, list | tuple) else re.split(r"[,，、\s]+", str(value))
    return tuple(str(x).strip() for x in items if str(x).strip())


def _words(value: Any, most: int, setting: str) -> tuple[str, ...]:
    """A typed list (`加微信，兼职 刷单`), each item once, at most `most` items of at most `MAX_WORD` characters."""
    if isinstance(value, str) and value.strip().lower() in _NONE_WORDS:
        return ()
    found = tuple(dict.fromkeys(_items(value)))
    if len(found) > most:
        raise _bad(setting, f"最多 {most} 项，收到 {len(found)} 项", f"at most {most} items, got {len(found)}")
    long = next((word for word in found if len(word) > MAX_WORD), None)
    if long is not None:
        raise _bad(
            setting,
            f"“{long[:MAX_WORD]}…”太长（每项最多 {MAX_WORD} 个字）",
            f"“{long[:MAX_WORD]}…” is too long (at most {MAX_WORD} characters each)",
        )
    return found


#: the longest ladder a group may set (each step is one more offence before the last repeats)
MAX_LADDER = 10


def _ladder_steps(value: Any) -> tuple[str, ...]:
    """A typed ladder (`warn warn remove`): unlike a word list, a step may repeat (two plain warnings first)."""
    steps = _items(value)
    if len(steps) > MAX_LADDER:
        raise _bad(
            "ladder", f"最多 {MAX_LADDER} 步，收到 {len(steps)} 步", f"at most {MAX_LADDER} steps, got {len(steps)}"
        )
    return steps


def validated(current: RuleSettings, changes: Mapping[str, Any]) -> RuleSettings:
    """Apply `changes` (values typed or as chat text) to `current`; a bad value raises `LedgerError`."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in SETTING_NAMES:
            raise LedgerError(
                "mod_bad_setting",
                f"没有这个设置：{name}（可用：{'、'.join(SETTING_NAMES)}）",
                f"{name}: there is no such setting (settings: {', '.join(SETTING_NAMES)})",
            )
        if name in {"flood", "links", "invites", "namecard"}:
            out[name] = _bool(name, value)
        elif name == "flood_max_messages":
            out[name] = _int(name, value, 1, 1000)
        elif name == "flood_window_seconds":
            out[name] = _int(name, value, 1, 3600)
        elif name == "repeat_count":
            out[name] = _int(name, value, 0, 100)
            if out[name] == 1:
                raise _bad(name, "至少 2（0 表示关闭）", "at least 2 (0 switches it off)")
        elif name == "fine_amount":
            out[name] = _int(name, value, 1, MAX_AMOUNT)  # a fine of 0 would book nothing
        elif name == "warning_expiry_days":
            none = value is None or str(value).strip().lower() in {"", "none", "never", "0", "永不"}
            out[name] = None if none else _int(name, value, 1, 3650)
        elif name == "ladder":
            steps = _ladder_steps(value)
            unknown = [s for s in steps if s not in LADDER_STEPS]
            if not steps or unknown:
                raise _bad(
                    name,
                    f"步骤只能是 {'、'.join(LADDER_STEPS)}，收到 {'、'.join(unknown) or '空'}",
                    f"steps are {', '.join(LADDER_STEPS)}, got {', '.join(unknown) or 'none'}",
                )
            out[name] = steps
        elif name == "ad_keywords":
            out[name] = _words(value, MAX_KEYWORDS, name)
        elif name == "namecard_pattern":
            pattern = str(value)
            if len(pattern) > MAX_PATTERN:
                raise _bad(name, f"太长（最多 {MAX_PATTERN} 个字符）", f"too long (at most {MAX_PATTERN} characters)")
            try:
                namecard_regex(pattern)
            except ValueError as err:
                raise _bad(
                    name,
                    f"不是有效的正则表达式（{err}；不支持反向引用和前后查找）",
                    f"not a valid regular expression ({err}; no back-references or look-arounds)",
                ) from None
            out[name] = pattern
        elif name == "namecard_example":
            example = str(value).strip() or DEFAULT_NAMECARD_EXAMPLE
            if len(example) > MAX_EXAMPLE:
                raise _bad(name, f"太长（最多 {MAX_EXAMPLE} 个字）", f"too long (at most {MAX_EXAMPLE} characters)")
            out[name] = example
        elif name == "rules_editors":
            ids = value if isinstance(value, list | tuple) else _words(value, MAX_EDITORS, name)
            if len(ids) > MAX_EDITORS:
                raise _bad(name, f"最多 {MAX_EDITORS} 人", f"at most {MAX_EDITORS} members")
            out[name] = tuple(_int(name, x, 1, 2**63 - 1) for x in ids)
    return replace(current, **out)


def settings_from_overrides(overrides: Mapping[str, Any]) -> RuleSettings:
    """Stored overrides → settings. An override a later version no longer knows, or no longer accepts (a name-card
    pattern stored before patterns had to be linear-time), is left out with a log line, never fatal: a bad row
    must not stop the bot answering the group."""
    settings = RuleSettings()
    for key, value in overrides.items():
        if key not in SETTING_NAMES:
            continue
        try:
            settings = validated(settings, {key: value})
        except LedgerError as err:
            log.warning("stored moderation setting %s ignored: %s", key, err.message)
    return settings


#: longest name-card pattern an admin may set
MAX_PATTERN = 200
#: bounds of the other settings an admin types: list lengths, one keyword, the name-card example
MAX_KEYWORDS = 100
MAX_WORD = 32
MAX_EDITORS = 50
MAX_EXAMPLE = 64


@lru_cache(maxsize=256)
def namecard_regex(pattern: str) -> Any:
    """The compiled name-card pattern, in RE2's linear-time engine: an admin's `(a+)+b` cannot hang the bot,
    whatever name it meets. RE2 has no back-references or look-arounds; such a pattern is refused (ValueError
    with RE2's reason), as is one whose automaton would need more than a small, fixed amount of memory."""
    import re2

    options = re2.Options()
    options.log_errors = False
    options.max_mem = 1 << 20
    try:
        return re2.compile(pattern, options)
    except re2.error as err:
        reason = err.args[0] if err.args else err
        raise ValueError(reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)) from None


# ------------------------------------------------------------------------------------------- result types


@dataclass(frozen=True)
class ActionInfo:
    """One warning, fine, removal or ban as recorded."""

    id: int
    group_id: int
    member_id: int
    user_id: int
    kind: str
    rule: str
    reason: str
    message_id: int | None
    amount: int | None
    transfer_id: int | None
    issued_by: int | None  # None: the bot
    created_at: datetime
    cancelled_at: datetime | None
    cancelled_by: int | None
    cancel_reason: str | None

    @property
    def live(self) -> bool:
        return self.cancelled_at is None


@dataclass(frozen=True)
class OffenceResult:
    """What an automatic offence brought: its place on the ladder and the penalty actions recorded."""

    offence_number: int  # the n-th live (unexpired, uncancelled) warning of the member, this one included
    step: str  # a LADDER_STEPS entry
    warning: ActionInfo
    fine: ActionInfo | None
    removal: ActionInfo | None  # a removal (ban-then-unban) or a lasting ban


#: why a fine's money cannot go back (`money.cancel_fine`): its night settled, the pot paid out since
FINES_KEPT = frozenset({"fine_night_closed", "fine_paid_out"})


@dataclass(frozen=True)
class Pardon:
    """What 撤销处罚 cancelled (the record asked for first, when it was), and the fine of the offence that stays
    booked because its money cannot go back (`why_kept`: `fine_night_closed` or `fine_paid_out`), if any."""

    cancelled: tuple[ActionInfo, ...]
    fine_kept: ActionInfo | None = None
    why_kept: str | None = None


@dataclass(frozen=True)
class MemberStanding:
    """A member's moderation record: every action (cancelled ones too, newest first) and live warnings."""

    member: MemberInfo
    actions: tuple[ActionInfo, ...]
    live_warnings: int


@dataclass(frozen=True)
class RulesTextInfo:
    text: str
    edited_by: int | None  # None: the seed's default text, never edited
    edited_at: datetime | None


def _info(row: ModerationAction) -> ActionInfo:
    return ActionInfo(
        id=row.id,
        group_id=row.group_id,
        member_id=row.member_id,
        user_id=row.user_id,
        kind=row.kind,
        rule=row.rule,
        reason=row.reason,
        message_id=row.message_id,
        amount=row.amount,
        transfer_id=row.transfer_id,
        issued_by=row.issued_by,
        created_at=row.created_at,
        cancelled_at=row.cancelled_at,
        cancelled_by=row.cancelled_by,
        cancel_reason=row.cancel_reason,
    )


# ------------------------------------------------------------------------------------------------ service


class Moderation:
    """The moderation service over one ledger. `engine` is the ledger's; `clock` the ledger's notion of now."""

    def __init__(self, ledger: Ledger, engine: Engine, clock: Callable[[], datetime] | None = None) -> None:
        self.ledger = ledger
        self._writer, self._reader = session_factories(engine)
        self._clock = clock or (lambda: datetime.now(UTC))

    def now(self) -> datetime:
        return self._clock()

    # settings -------------------------------------------------------------------------------------------
    def settings(self, chat_id: int) -> RuleSettings:
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            row = session.get(ModerationSettings, group_id)
            return settings_from_overrides(row.overrides) if row else RuleSettings()

    def update_settings(self, chat_id: int, changes: Mapping[str, Any], *, by: int | None) -> RuleSettings:
        """Change settings (validated first; a bad value changes nothing). Stored as overrides of the defaults."""
        group_id = self.ledger.group(chat_id).id
        with self._writer.begin() as session:
            row = session.get(ModerationSettings, group_id)
            current = settings_from_overrides(row.overrides) if row else RuleSettings()
            new = validated(current, changes)
            if row is None:
                row = ModerationSettings(group_id=group_id, overrides={}, updated_at=self.now())
                session.add(row)
            row.overrides = new.as_overrides()
            row.updated_at, row.updated_by = self.now(), by
            return new

    def claim_rights_notice(self, chat_id: int) -> bool:
        """True exactly once per group: the caller then says, once, that the bot lacks delete/ban rights."""
        group_id = self.ledger.group(chat_id).id
        with self._writer.begin() as session:
            row = session.get(ModerationSettings, group_id, with_for_update=True)
            if row is None:
                row = ModerationSettings(group_id=group_id, overrides={}, updated_at=self.now())
                session.add(row)
            elif row.rights_notice_at is not None:
                return False
            row.rights_notice_at = self.now()
            return True

    def claim_reminder(self, chat_id: int, user_id: int, kind: str = "namecard") -> bool:
        """True the first time only: a member gets one name-card reminder, ever (a unique row records it)."""
        group_id = self.ledger.group(chat_id).id
        try:
            with self._writer.begin() as session:
                exists = session.scalar(sa.select(Reminder.id).filter_by(group_id=group_id, user_id=user_id, kind=kind))
                if exists is not None:
                    return False
                session.add(Reminder(group_id=group_id, user_id=user_id, kind=kind, created_at=self.now()))
            return True
        except IntegrityError:
            return False  # another process reminded them a moment ago

    def reminded(self, chat_id: int, user_id: int, kind: str = "namecard") -> bool:
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            found = session.scalar(sa.select(Reminder.id).filter_by(group_id=group_id, user_id=user_id, kind=kind))
            return found is not None

    def mark_left(self, chat_id: int, user_id: int) -> None:
        """Remember that a member left the group (a `left` mark): the pot is no longer split with them."""
        self.claim_reminder(chat_id, user_id, LEFT)

    def mark_back(self, chat_id: int, user_id: int) -> None:
        """A member joined (again): their `left` mark goes."""
        group_id = self.ledger.group(chat_id).id
        with self._writer.begin() as session:
            session.execute(sa.delete(Reminder).filter_by(group_id=group_id, user_id=user_id, kind=LEFT))

    def left_user_ids(self, chat_id: int) -> set[int]:
        """The Telegram ids of the members who left the group and have not come back."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            return set(session.scalars(sa.select(Reminder.user_id).filter_by(group_id=group_id, kind=LEFT)))

    # offences and penalties -----------------------------------------------------------------------------
    def _live_warnings(self, session: Session, group_id: int, user_id: int, settings: RuleSettings) -> int:
        query = sa.select(sa.func.count(ModerationAction.id)).filter_by(
            group_id=group_id, user_id=user_id, kind=WARNING, cancelled_at=None
        )
        if settings.warning_expiry_days is not None:
            query = query.where(ModerationAction.created_at > self.now() - timedelta(days=settings.warning_expiry_days))
        return int(session.scalar(query) or 0)

    def _existing(self, session: Session, source: str) -> dict[str, ModerationAction]:
        rows = session.scalars(sa.select(ModerationAction).filter_by(source=source))
        return {row.kind: row for row in rows}

    def _row(
        self,
        member: MemberInfo,
        kind: str,
        rule: str,
        reason: str,
        *,
        source: str,
        by: int | None,
        message_id: int | None,
        amount: int | None = None,
        transfer_id: int | None = None,
    ) -> ModerationAction:
        assert member.user_id is not None, "moderation acts on Telegram members only"
        return ModerationAction(
            group_id=member.group_id,
            member_id=member.id,
            user_id=member.user_id,
            kind=kind,
            rule=rule,
            reason=reason[:500],
            message_id=message_id,
            amount=amount,
            transfer_id=transfer_id,
            issued_by=by,
            source=source,
            created_at=self.now(),
        )

    def record_offence(
        self,
        member: MemberInfo,
        rule: str,
        reason: str,
        *,
        message_id: int | None,
        source: str,
        by: int | None = None,
        step: str | None = None,
        settings: RuleSettings | None = None,
    ) -> OffenceResult:
        """An offence (detected, `by=None`, or an admin's warning): a warning plus what the ladder says.

        `step` overrides the ladder (an admin's plain warning is `"warn"`: it counts on the ladder, no penalty).
        Idempotent on `source`: the same message twice is one offence. `settings` saves a read when the caller
        has the group's settings at hand.
        """
        settings = settings or self.settings_for_group(member.group_id)

        def body(session: Session, now: datetime) -> None:
            # one offence of a member at a time: the count and the new warning are one step (SQLite's writer
            # lock does this by itself; PostgreSQL locks the member's row)
            session.execute(sa.select(Member.id).where(Member.id == member.id).with_for_update())
            if WARNING in self._existing(session, source):
                return
            number = self._live_warnings(session, member.group_id, member.user_id or 0, settings) + 1
            chosen = step or settings.step_for(number)
            session.add(self._row(member, WARNING, rule, reason, source=source, by=by, message_id=message_id))
            if chosen in {"remove", "ban"}:
                kind = REMOVAL if chosen == "remove" else BAN
                session.add(self._row(member, kind, rule, reason, source=source, by=by, message_id=message_id))
            elif chosen == "warn_fine" and settings.fine_amount > 0:
                self._fine(session, member, settings.fine_amount, rule, reason, source, by, message_id, now)

        self._write(body)
        with self._reader() as session:
            return self._result(session, self._existing(session, source), settings)

    def _write(self, body: Callable[[Session, datetime], None]) -> None:
        """Run `body` in one write transaction; a lost race on a unique key (the same source recorded at the same
        moment elsewhere) or a PostgreSQL deadlock runs it again from the start, when it sees the winner's rows."""
        for attempt in range(WRITE_ATTEMPTS):
            try:
                with self._writer.begin() as session:
                    body(session, self.now())
                return
            except IntegrityError:
                if attempt == WRITE_ATTEMPTS - 1:
                    raise
            except sa.exc.DBAPIError as err:
                if getattr(err.orig, "sqlstate", None) not in RETRY_STATES or attempt == WRITE_ATTEMPTS - 1:
                    raise

    def _fine(
        self,
        session: Session,
        member: MemberInfo,
        amount: int,
        rule: str,
        reason: str,
        source: str,
        by: int | None,
        message_id: int | None,
        now: datetime,
    ) -> None:
        """A fine, a rule's (警告并罚款) or an admin's (`rule` "manual"), in the caller's transaction: its money
        (`_book_fine`) and its FINE record pointing at that transfer, always the two together."""
        transfer = self._book_fine(session, member, amount, reason, source, by, now)
        session.add(
            self._row(
                member,
                FINE,
                rule,
                reason,
                source=source,
                by=by,
                message_id=message_id,
                amount=transfer.amount,
                transfer_id=transfer.id,
            )
        )

    def _book_fine(
        self, session: Session, member: MemberInfo, amount: int, reason: str, source: str, by: int | None, now: datetime
    ) -> Transfer | TransferInfo:
        """The fine's money, member → pot, in the caller's transaction: the transfer and the running totals (the
        ledger's own `money.fine`, on the session's connection) and the operation record of `<source>:fine`, as
        the ledger's `fine` writes them. A transfer an earlier version booked under that source (in a step of its
        own) is reused, never booked again."""
        fine_source = f"{source}:fine"
        booked = session.scalar(
            sa.select(Transfer).where(Transfer.source == fine_source, Transfer.kind == FINE_TRANSFER)
        )
        if booked is not None:
            return booked
        info = book_fine(Tx(session.connection(), now, by, fine_source), member.id, amount, reason)
        session.add(
            Operation(source=fine_source, kind="fine", created_at=now, created_by=by, result={"value": encode(info)})
        )
        return info

    def _result(self, session: Session, rows: Mapping[str, ModerationAction], settings: RuleSettings) -> OffenceResult:
        warning = rows[WARNING]
        earlier = sa.select(sa.func.count(ModerationAction.id)).where(
            ModerationAction.group_id == warning.group_id,
            ModerationAction.user_id == warning.user_id,
            ModerationAction.kind == WARNING,
            ModerationAction.cancelled_at.is_(None),
            ModerationAction.id <= warning.id,
        )
        if settings.warning_expiry_days is not None:
            cutoff = warning.created_at - timedelta(days=settings.warning_expiry_days)
            earlier = earlier.where(ModerationAction.created_at > cutoff)
        number = int(session.scalar(earlier) or 0) or 1
        removal = rows.get(REMOVAL) or rows.get(BAN)
        fine = rows.get(FINE)
        step = "remove" if REMOVAL in rows else "ban" if BAN in rows else "warn_fine" if fine is not None else "warn"
        return OffenceResult(
            number,
            step,
            _info(warning),
            _info(fine) if fine is not None else None,
            _info(removal) if removal is not None else None,
        )

    def settings_for_group(self, group_id: int) -> RuleSettings:
        with self._reader() as session:
            row = session.get(ModerationSettings, group_id)
            return settings_from_overrides(row.overrides) if row else RuleSettings()

    def fine(
        self, member: MemberInfo, amount: int, reason: str, *, message_id: int | None, source: str, by: int | None
    ) -> ActionInfo:
        """An admin's fine: `amount` 分 from the member to the pot, recorded with reason and issuer (one
        transaction: the money and its record together)."""
        if not 0 < amount <= MAX_AMOUNT:
            raise LedgerError("mod_bad_amount", f"罚款金额必须大于 0、最多 {MAX_AMOUNT // 100} 元。")

        def body(session: Session, now: datetime) -> None:
            if FINE in self._existing(session, source):
                return
            self._fine(session, member, amount, "manual", reason, source, by, message_id, now)

        self._write(body)
        with self._reader() as session:
            return _info(self._existing(session, source)[FINE])

    def remove(
        self,
        member: MemberInfo,
        reason: str,
        *,
        lasting: bool,
        message_id: int | None,
        source: str,
        by: int | None,
    ) -> ActionInfo:
        """An admin's removal: ban-then-unban (may be invited back) or, with `lasting`, a ban."""
        row = self._row(
            member, BAN if lasting else REMOVAL, "manual", reason, source=source, by=by, message_id=message_id
        )
        return self._insert_once(row)

    def _insert_once(self, row: ModerationAction) -> ActionInfo:
        try:
            with self._writer.begin() as session:
                existing = self._existing(session, row.source).get(row.kind)
                if existing is not None:
                    return _info(existing)
                session.add(row)
                session.flush()
                return _info(row)
        except IntegrityError:
            with self._reader() as session:
                return _info(self._existing(session, row.source)[row.kind])

    def cancel(self, action_id: int, *, chat_id: int, by: int | None, reason: str, source: str) -> ActionInfo:
        """Cancel a warning, fine or ban (the row stays, marked). A fine's transfer is voided in the ledger, so
        the member's balance and the pot are restored. Cancelling twice is refused."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            row = session.get(ModerationAction, action_id)
            if row is None or row.group_id != group_id:
                raise LedgerError("mod_not_found", f"本群没有编号为 {action_id} 的记录。")
            if row.cancelled_at is not None:
                raise LedgerError("mod_already_cancelled", f"记录 #{action_id} 已经撤销过了。")
            if row.kind == REMOVAL:
                raise LedgerError(
                    "mod_cannot_cancel", f"记录 #{action_id} 是请出，已经执行，无法撤销；可以重新邀请该成员。"
                )
            transfer_id = row.transfer_id
        if transfer_id is not None:
            self.ledger.cancel_fine(transfer_id, source=f"{source}:cancel", by=by, reason=reason)
        with self._writer.begin() as session:
            row = session.get(ModerationAction, action_id, with_for_update=True)
            assert row is not None
            if row.cancelled_at is None:
                row.cancelled_at, row.cancelled_by, row.cancel_reason = self.now(), by, reason[:500]
            return _info(row)

    def cancel_offence(self, action_id: int, *, chat_id: int, by: int | None, reason: str, source: str) -> Pardon:
        """Cancel a record with the rest of its offence: a warning the ladder gave (automatic or an admin's
        警告) and the fine or ban that came with it are one penalty, so cancelling any of them cancels them all —
        the fine first. A fine whose money cannot go back (`cancel` says why: its night settled, the pot paid out
        since) stays booked and the rest is cancelled all the same: the admin pardons the offence, and the warning
        must stop counting on the ladder (the money can be given back with 发红包池); the answer names the fine
        kept and why. Refused only when nothing could be cancelled. A removal already happened and stays; an
        admin's own fine, removal or ban is a record alone."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            row = session.get(ModerationAction, action_id)
            offence = self._existing(session, row.source) if row is not None else {}  # (source, kind) is unique
        alone = row is None or row.group_id != group_id or row.cancelled_at is not None or row.kind == REMOVAL
        if alone or WARNING not in offence:  # `cancel` refuses what it must, with the reason
            return Pardon((self.cancel(action_id, chat_id=chat_id, by=by, reason=reason, source=source),))
        done: dict[int, ActionInfo] = {}
        kept: tuple[ActionInfo, LedgerError] | None = None
        for kind in (FINE, BAN, WARNING):
            part = offence.get(kind)
            if part is None or part.cancelled_at is not None:
                continue
            try:
                done[part.id] = self.cancel(part.id, chat_id=chat_id, by=by, reason=reason, source=f"{source}:{kind}")
            except LedgerError as err:
                if kind != FINE or err.code not in FINES_KEPT:
                    raise
                kept = _info(part), err
        if not done:
            assert kept is not None, "an offence with nothing left to cancel was refused above"
            raise kept[1]
        first = [done.pop(action_id)] if action_id in done else []
        if kept is None:
            return Pardon((*first, *done.values()))
        return Pardon((*first, *done.values()), fine_kept=kept[0], why_kept=kept[1].code)

    def action(self, action_id: int) -> ActionInfo | None:
        with self._reader() as session:
            row = session.get(ModerationAction, action_id)
            return _info(row) if row else None

    def standing(self, member: MemberInfo) -> MemberStanding:
        settings = self.settings_for_group(member.group_id)
        with self._reader() as session:
            rows = session.scalars(
                sa.select(ModerationAction)
                .filter_by(group_id=member.group_id, member_id=member.id)
                .order_by(ModerationAction.id.desc())
            ).all()
            live = self._live_warnings(session, member.group_id, member.user_id or 0, settings)
            return MemberStanding(member, tuple(_info(r) for r in rows), live)

    def recent_actions(self, chat_id: int, limit: int) -> tuple[list[ActionInfo], int]:
        """A group's latest `limit` actions, newest first, and how many it has in all (an admin's 违规记录)."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            rows = session.scalars(
                sa.select(ModerationAction)
                .where(ModerationAction.group_id == group_id)
                .order_by(ModerationAction.id.desc())
                .limit(limit)
            )
            found = [_info(r) for r in rows]
            total = session.scalar(sa.select(sa.func.count(ModerationAction.id)).filter_by(group_id=group_id))
            return found, int(total or 0)

    def actions(self, chat_id: int, kinds: Iterable[str] = (WARNING, FINE, REMOVAL, BAN)) -> list[ActionInfo]:
        """Every action of a group, oldest first (tests and exports count them)."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            rows = session.scalars(
                sa.select(ModerationAction)
                .where(ModerationAction.group_id == group_id, ModerationAction.kind.in_(list(kinds)))
                .order_by(ModerationAction.id)
            )
            return [_info(r) for r in rows]

    # rules text -----------------------------------------------------------------------------------------
    def rules_text(self, chat_id: int) -> RulesTextInfo:
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            row = session.scalars(
                sa.select(RulesTextRow).filter_by(group_id=group_id).order_by(RulesTextRow.id.desc()).limit(1)
            ).first()
            if row is None:
                return RulesTextInfo(DEFAULT_RULES_TEXT, None, None)
            return RulesTextInfo(row.text, row.edited_by, row.created_at)

    def set_rules_text(self, chat_id: int, text: str, *, by: int | None, source: str) -> RulesTextInfo:
        """A new version of the rules text (the old ones stay as history). Permission is the caller's check."""
        text = text.strip()
        if not text:
            raise LedgerError("mod_empty_rules", "群规则不能为空。")
        if len(text) > 4000:
            raise LedgerError("mod_rules_too_long", "群规则太长了（最多 4000 字）。")
        group_id = self.ledger.group(chat_id).id
        try:
            with self._writer.begin() as session:
                if session.scalar(sa.select(RulesTextRow.id).filter_by(source=source)) is None:
                    session.add(
                        RulesTextRow(group_id=group_id, text=text, edited_by=by, source=source, created_at=self.now())
                    )
        except IntegrityError:
            pass  # the same edit delivered twice
        return self.rules_text(chat_id)

    def rules_history(self, chat_id: int) -> list[RulesTextInfo]:
        """Every edit, newest first."""
        group_id = self.ledger.group(chat_id).id
        with self._reader() as session:
            rows = session.scalars(
                sa.select(RulesTextRow).filter_by(group_id=group_id).order_by(RulesTextRow.id.desc())
            )
            return [RulesTextInfo(r.text, r.edited_by, r.created_at) for r in rows]
