"""Groups and their accounts: a chat's settings, its members (by Telegram id), guests seated by name, 名片
aliases, and the pot (红包池) every group is created with."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Container, Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import opencc
import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import models as m
from ledger.errors import LedgerError
from ledger.hands import DEFAULT_RULES, GAMES
from ledger.records import GroupInfo, MemberInfo
from ledger.scoring.common import MAX_STAKE
from ledger.unit import Tx, get_row

POT_NAME = "红包池"
#: the account 台费 and 抽水 are paid to (`ledger.fees`)
HOUSE_NAME = "台费"
DEFAULT_GROUP: dict[str, Any] = {
    "base": 100,
    "currency": "元",
    "language": "zh",
    "cutoff_hour": 6,
    "timezone": "Asia/Shanghai",
}
LANGUAGES = ("zh", "en")
MAX_NAME = 64
#: longest currency label (`设置 货币 块`)
MAX_CURRENCY = 8
#: the largest amount anyone may type, in 分: a base stake (the scoring core's own limit), a fine, a share of the pot
MAX_AMOUNT = MAX_STAKE
GAME_NAMES = {"kawuxing": "卡五星", "gouji": "够级", "penghu": "碰胡"}

_GROUP_BY_CHAT = sa.select(m.Group).where(m.Group.chat_id == sa.bindparam("chat_id"))


# ------------------------------------------------------------------------------------------------- groups


def find_group(tx: Tx, chat_id: int) -> GroupInfo | None:
    found = tx.connection.execute(_GROUP_BY_CHAT, {"chat_id": chat_id}).first()
    return group_info(found) if found is not None else None


def group_by_chat(session: Session, chat_id: int) -> m.Group:
    group = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    if group is None:
        raise LedgerError("no_group", "这个群还没有账本")
    return group


def lock_group(session: Session, group_id: int) -> None:
    """Serialize writers of one group on PostgreSQL (SQLite writers are serialized by BEGIN IMMEDIATE)."""
    session.execute(sa.select(m.Group.id).where(m.Group.id == group_id).with_for_update())


def create_group(tx: Tx, chat_id: int, title: str) -> m.Group:
    """The chat's group, created with the defaults (卡五星, preset xiangyang, 底金 100 分, zh) and its pot; a chat
    that moved to a new id (`move_chat`) gets the group at its new id."""
    session = tx.session
    found = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
    if found is not None:
        return found
    moved = _moved_group(session, chat_id)
    if moved is not None:
        return moved
    group = m.Group(
        chat_id=chat_id,
        title=title[:255],
        game="kawuxing",
        rules=dict(DEFAULT_RULES["kawuxing"]),
        created_at=tx.now,
        updated_at=tx.now,
        updated_by=None,
        **DEFAULT_GROUP,
    )
    session.add(group)
    session.flush()
    session.add(m.Member(group_id=group.id, kind=m.POT, display_name=POT_NAME, balance=0, created_at=tx.now))
    session.flush()
    return group


def _moved_group(session: Session, chat_id: int) -> m.Group | None:
    """The group of a chat that moved to a new id (followed through further moves), None when it never moved."""
    seen = {chat_id}
    while (move := session.get(m.ChatMove, chat_id)) is not None and move.new_chat_id not in seen:
        chat_id = move.new_chat_id
        seen.add(chat_id)
        found = session.scalar(sa.select(m.Group).where(m.Group.chat_id == chat_id))
        if found is not None:
            return found
    return None


#: rows of a group that a chat seen for a moment holds (created on first sight): removed when the chat turns out
#: to be the new id of a group that moved there
_FIRST_SIGHT = ("chat_options", "moderation_settings", "setting_changes", "members")
#: rows that make a group's history: a group holding any of them is never removed
_HISTORY = ("nights", "transfers", "moderation_actions", "moderation_rules_texts", "moderation_reminders")


def move_chat(tx: Tx, old_chat_id: int, new_chat_id: int) -> GroupInfo | None:
    """Telegram gave the chat a new id (a group upgraded to a supergroup): the group — its ledger, settings,
    members, tables, penalties and button flows — answers to `new_chat_id` from now on, in this transaction.
    Idempotent: both chats announce the move (either first, either twice); a second call finds it done. A group
    the new chat already had is removed when it holds nothing but what first sight created; one with a history
    is refused (two ledgers are never merged). Returns the moved group, None when the old chat had none."""
    session = tx.session
    if old_chat_id == new_chat_id:
        raise LedgerError("bad_move", "新旧群号相同")
    if session.get(m.ChatMove, old_chat_id) is not None:
        group = session.scalar(sa.select(m.Group).where(m.Group.chat_id == new_chat_id))
        return group_info(group) if group is not None else None
    old = session.scalar(sa.select(m.Group).where(m.Group.chat_id == old_chat_id).with_for_update())
    new = session.scalar(sa.select(m.Group).where(m.Group.chat_id == new_chat_id).with_for_update())
    if old is not None and new is not None:
        _remove_first_sight(tx, new)
    if old is not None:
        old.chat_id = new_chat_id
        session.flush()
        tx.execute(
            sa.update(m.FlowState)
            .where(
                m.FlowState.chat_id == old_chat_id,
                m.FlowState.message_id.not_in(
                    sa.select(m.FlowState.message_id).where(m.FlowState.chat_id == new_chat_id).scalar_subquery()
                ),
            )
            .values(chat_id=new_chat_id)
        )
    session.add(
        m.ChatMove(
            old_chat_id=old_chat_id,
            new_chat_id=new_chat_id,
            group_id=old.id if old is not None else None,
            moved_at=tx.now,
        )
    )
    session.flush()
    return group_info(old) if old is not None else None


def _remove_first_sight(tx: Tx, group: m.Group) -> None:
    """Remove a group that holds only what first sight of its chat created; refuse one with a history."""
    tables = m.Base.metadata.tables
    for name in _HISTORY:
        if (
            name in tables
            and tx.execute(
                sa.select(sa.func.count()).select_from(tables[name]).where(tables[name].c.group_id == group.id)
            ).scalar_one()
        ):
            raise LedgerError("chat_taken", f"新群号 {group.chat_id} 已经有自己的账，不能合并两本账")
    for name in _FIRST_SIGHT:
        if name in tables:
            tx.execute(sa.delete(tables[name]).where(tables[name].c.group_id == group.id))
    tx.session.expunge(group)
    tx.execute(sa.delete(m.Group).where(m.Group.id == group.id))


def update_group(tx: Tx, chat_id: int, clean: dict[str, Any]) -> GroupInfo:
    """Apply validated settings; who/when (and old → new) is recorded. Changing the game without giving rules
    brings back the rules the group last played that game under (`rules_left`), that game's default when it
    never played it."""
    group = create_group(tx, chat_id, "")
    if "game" in clean and "rules" not in clean and clean["game"] != group.game:
        kept = rules_left(tx.session, group.id, clean["game"])
        clean["rules"] = dict(kept if kept is not None else DEFAULT_RULES[clean["game"]])
    diff = {key: [getattr(group, key), value] for key, value in clean.items() if getattr(group, key) != value}
    for key, value in clean.items():
        setattr(group, key, value)
    group.updated_at, group.updated_by = tx.now, tx.by
    tx.session.add(
        m.SettingChange(group_id=group.id, changes=diff, changed_by=tx.by, changed_at=tx.now, source=tx.source)
    )
    tx.session.flush()
    return group_info(group)


def rules_left(session: Session, group_id: int, game: str) -> dict[str, Any] | None:
    """The rules the group had when it last switched away from `game` (the setting changes record them, old →
    new, with the game), None when it never left that game. A group's setting changes are few (admins' 设置)."""
    changes = session.scalars(
        sa.select(m.SettingChange.changes)
        .where(m.SettingChange.group_id == group_id)
        .order_by(m.SettingChange.id.desc())
    )
    for diff in changes:
        game_change, rules_change = diff.get("game"), diff.get("rules")
        if game_change is not None and game_change[0] == game:
            return dict(rules_change[0]) if rules_change is not None else None
    return None


def validated_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
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
        check_amount(clean["base"], MAX_STAKE)  # more, and the scoring core would refuse every hand
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
        clean["currency"] = clean_name(clean["currency"], "货币")
        if len(clean["currency"]) > MAX_CURRENCY:
            raise LedgerError("bad_setting", f"货币名称太长（最多 {MAX_CURRENCY} 个字）")
    if "title" in clean:
        clean["title"] = str(clean["title"])[:255]
    return clean


# ------------------------------------------------------------------------------------------------ members

_MEMBER_BY_USER = (
    sa.select(m.Member)
    .join(m.Group, m.Group.id == m.Member.group_id)
    .where(m.Group.chat_id == sa.bindparam("chat_id"), m.Member.user_id == sa.bindparam("user_id"))
)


_MEMBER_BY_USERNAME = sa.select(m.Member).where(
    m.Member.group_id == sa.bindparam("group_id"),
    m.Member.kind == m.MEMBER,
    m.Member.linked_to_id.is_(None),
    sa.func.lower(m.Member.username) == sa.bindparam("username"),
)
_UNLINKED_GUESTS = sa.select(m.Member).where(
    m.Member.group_id == sa.bindparam("group_id"), m.Member.kind == m.GUEST, m.Member.linked_to_id.is_(None)
)


def find_member_by_user(tx: Tx, chat_id: int, user_id: int) -> MemberInfo | None:
    found = tx.connection.execute(_MEMBER_BY_USER, {"chat_id": chat_id, "user_id": user_id}).first()
    return member_info(found) if found is not None else None


def ensure_member(tx: Tx, chat_id: int, user_id: int, display_name: str, username: str | None) -> MemberInfo:
    """The member with this Telegram id, created (with the group) or renamed as needed."""
    session = tx.session
    group = create_group(tx, chat_id, "")
    member = session.scalar(sa.select(m.Member).where(m.Member.group_id == group.id, m.Member.user_id == user_id))
    if member is None:
        member = m.Member(group_id=group.id, kind=m.MEMBER, user_id=user_id, display_name=display_name, balance=0)
        member.created_at = tx.now
        session.add(member)
    if username is not None and username.casefold() != (member.username or "").casefold():
        _claim_username(session, group.id, member, username)
    member.display_name, member.username = display_name, username
    session.flush()
    return member_info(member)


def _claim_username(session: Session, group_id: int, owner: m.Member, username: str) -> None:
    """Telegram gives a username to one account at a time: whoever reports it now holds it. Another member still
    stored under it (they renamed since they last spoke) loses it, and another account's 名片 spelled like it is
    cleared, so neither `@username` nor a label can point at anyone but its owner."""
    folded = username.casefold()
    same = sa.func.lower(m.Member.username) == username.lower()
    for other in session.scalars(sa.select(m.Member).where(m.Member.group_id == group_id, same)):
        if other is not owner and (other.username or "").casefold() == folded:
            other.username = None
    like = sa.func.lower(m.Member.alias) == username.lower()
    for other in session.scalars(sa.select(m.Member).where(m.Member.group_id == group_id, like)):
        if other is not owner and (other.alias or "").casefold() == folded:
            other.alias = None


def guest(tx: Tx, chat_id: int, name: str) -> MemberInfo:
    """The unlinked guest of this name, created when new."""
    session = tx.session
    group = create_group(tx, chat_id, "")
    lock_group(session, group.id)
    found = session.scalar(
        sa.select(m.Member).where(
            m.Member.group_id == group.id,
            m.Member.kind == m.GUEST,
            m.Member.linked_to_id.is_(None),
            m.Member.display_name == name,
        )
    )
    if found is None:
        found = m.Member(group_id=group.id, kind=m.GUEST, display_name=name, balance=0, created_at=tx.now)
        session.add(found)
        session.flush()
    return member_info(found)


def member_by_username(tx: Tx, chat_id: int, username: str) -> MemberInfo | None:
    """The member whose own messages reported this Telegram username (case-insensitive), or None: the only way a
    typed `@username` finds an account. Two holders (rows stored before a username moved) are refused as
    `ambiguous_member` rather than guessed."""
    wanted = username.strip().lstrip("@")
    if not wanted:
        return None
    group = find_group(tx, chat_id)
    if group is None:
        return None
    rows = tx.connection.execute(_MEMBER_BY_USERNAME, {"group_id": group.id, "username": wanted.lower()}).all()
    hits = [row for row in rows if (row.username or "").casefold() == wanted.casefold()]
    if len(hits) > 1:
        raise LedgerError("ambiguous_member", f"@{wanted} 对应多人，请点选成员提及 TA")
    return member_info(hits[0]) if hits else None


def find_guest(tx: Tx, chat_id: int, name: str) -> MemberInfo | None:
    """The unlinked guest shown under this name (case-insensitive), or None. A guest has no Telegram identity: a
    plain name typed in a message can only ever mean one."""
    wanted = reads_as(name)
    group = find_group(tx, chat_id)
    if group is None or not wanted:
        return None
    rows = tx.connection.execute(_UNLINKED_GUESTS, {"group_id": group.id}).all()
    hits = [row for row in rows if wanted in {reads_as(row.alias or ""), reads_as(row.display_name)}]
    return member_info(hits[0]) if hits else None


def find_member(tx: Tx, chat_id: int, name: str) -> MemberInfo | None:
    """A member or unlinked guest by alias, display name or @username (case-insensitive), or None; refused as
    `ambiguous_member` when two accounts match equally well.

    A label lookup: it says whose name something is (to refuse a 名片 already shown, or explain that a name is
    a label), never which account money moves to: a display name or 名片 is anyone's to choose."""
    wanted = reads_as(name)
    session = tx.session
    candidates = [
        member
        for member in accounts(session, group_by_chat(session, chat_id).id)
        if member.kind not in m.POOLS and member.linked_to_id is None
    ]
    for key in ("alias", "display_name", "username"):
        hits = [c for c in candidates if reads_as(getattr(c, key) or "") == wanted]
        if len(hits) > 1:
            raise LedgerError("ambiguous_member", f"“{name}”对应多人，请用 @用户名 或名片区分")
        if hits:
            return member_info(hits[0])
    return None


def members(tx: Tx, chat_id: int) -> list[MemberInfo]:
    session = tx.session
    group = group_by_chat(session, chat_id)
    return [member_info(a) for a in accounts(session, group.id) if a.linked_to_id is None]


def set_alias(tx: Tx, member_id: int, clean: str | None) -> MemberInfo:
    session = tx.session
    member = get_member(session, member_id)
    if member.kind in m.POOLS:
        raise LedgerError("bad_member", f"{member.name}不能设名片")
    if clean is not None:
        folded = reads_as(clean)
        taken = [
            a
            for a in accounts(session, member.group_id)
            if a.id != member.id
            and a.linked_to_id is None
            and clashes(clean, a.name, a.username)
            and not own_handle(clean, member.username)
        ]
        if taken:
            raise LedgerError("alias_taken", f"名片“{clean}”已被使用（别人的名字或 Telegram 用户名）")
        shown = names(tx, member.group_id)
        if any(reads_as(name) == folded for id_, name in shown.items() if id_ != member.id):
            # another account shows so now: 老王#2, or a player's seat name at the open table (kept until it ends)
            raise LedgerError(
                "alias_shown",
                f"“{clean}”现在是别人在账上显示的名字（牌桌上的座位名在这桌结束前不变），请换一个",
                f"“{clean}” is how someone else is shown now (seat names stay until the table ends); pick another",
            )
    member.alias = clean
    return member_info(member)


#: letters a chat shows as blank space (Hangul fillers, the blank braille pattern): a name spelled with them
#: reads as the name without them
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def visible(name: str) -> str:
    """`name` as a chat shows it: without the characters it shows as nothing (zero-width spaces and joiners,
    direction marks and overrides, soft hyphens — Unicode's format and control characters —, variation selectors,
    blank letters), runs of spaces as one, and no leading `@` (a name is not a mention). Telegram's names are
    anyone's to spell: `阿杰` followed by a zero-width space must not pass for another 阿杰."""
    kept = "".join(
        c
        for c in name
        if unicodedata.category(c) not in ("Cf", "Cc", "Co", "Cn")
        and c not in _BLANK_LETTERS
        and not ("\ufe00" <= c <= "\ufe0f" or "\U000e0100" <= c <= "\U000e01ef")
    )
    return " ".join(kept.split()).lstrip("@").strip()


#: Cyrillic and Greek letters drawn like a Latin one (upper and lower case apart: a Greek Η is an H, its η is
#: not an h), read as that Latin letter, so `Тоm` (Cyrillic Т and о) cannot pass for Tom. The common look-alikes
#: of Unicode's confusables list (UTS #39) within the scripts a group's names mix; NFKC already reads the
#: mathematical and full-width letters. `confusable-homoglyphs` was weighed: it flags confusable characters but
#: gives no form to compare two names by, and loads a 900 KB table in every process.
_LOOK_ALIKES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУҮӀԚԜ" "аеіјорсѕхуүһӏԛԝ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ" "αικνορυχ" "ıɑ" "—–‐‑‒−一ー",
    "ABESIJKMHOPCTXYYIQW" "aeijopcsxyyhlqw" "ABEZHIKMNOPTYX" "aikvopux" "ia" "--------",
)


#: traditional characters as simplified: 阿傑 reads as 阿杰, as the chat grammar reads 龍七對 as 龙七对
_T2S = opencc.OpenCC("t2s")


@functools.lru_cache(maxsize=4096)
def reads_as(name: str) -> str:
    """How a name reads in a chat, for telling names apart: what `visible` drops, spaces and case ignored,
    compatibility forms read as the character they show (NFKC: the Kangxi radical ⽼ is 老, a full-width Ａ is A),
    a Cyrillic or Greek letter drawn like a Latin one as that letter and a dash-like stroke (一, ー, —) as `-`
    (`_LOOK_ALIKES`), and a traditional character as the simplified one (`_T2S`), so `小 李`, `⽼王`, `阿杰` with a
    zero-width space, `Тоm`, `阿傑` and `小李一成员` cannot pass for 小李, 老王, 阿杰, Tom and 小李-成员. Cached: every
    reply that names people reads the group's names again (the conversion
    to simplified characters is the costly part, about 5 µs a name)."""
    folded = unicodedata.normalize("NFKC", visible(name)).translate(_LOOK_ALIKES)
    return "".join(_T2S.convert(folded).split()).casefold()


#: the names of the group's own accounts, as they read
_ACCOUNT_NAMES = frozenset({reads_as(POT_NAME), reads_as(HOUSE_NAME)})
#: what separates the person from the role in a name card shaped as the group rule asks (`名字-身份`)
_ROLE = re.compile(r"\s*[-－—–]\s*")


def person_part(name: str) -> str:
    """The person a 名片 in the group rule's shape names (`小李-成员`: 小李), as it reads (`reads_as`)."""
    return reads_as(_ROLE.split(name, maxsplit=1)[0])


def own_handle(name: str, username: str | None) -> bool:
    """Whether a 名片 is its member's own @username (as it reads): theirs to take whoever else shows so — a Telegram
    name `wangge` beside the member @wangge already shows as `wangge#2` (`names`), and keeps the number."""
    return bool(username) and reads_as(name) == reads_as(username or "")


def clashes(name: str, other_name: str, other_username: str | None = None) -> bool:
    """Whether a 名片 `name` would read as another account's name or @username — whole, or by the person it names
    (`小李-成员` beside a 小李, `小李` beside a `小李-成员`)."""
    mine = {reads_as(name), person_part(name)} - {""}
    return bool(mine & {reads_as(other_name), person_part(other_name), reads_as(other_username or "")})


#: what `numbered` appends: a 名片 or guest spelled so would read as the ledger's own numbering of a name
_NUMBERED = re.compile(r"#\s*\d+\s*$")


def get_member(session: Session, member_id: int) -> m.Member:
    member: m.Member = get_row(session, m.Member, member_id, "成员")
    return member


def accounts(session: Session, group_id: int) -> list[m.Member]:
    return list(session.scalars(sa.select(m.Member).where(m.Member.group_id == group_id).order_by(m.Member.id)))


#: the member's seat name at the group's open table (None when not seated there): a column for reads of members
#: that name them (`shown_names` keeps it while the table is open). Found through the open table (the group's one
#: open table by its partial index, then that table's few seats), not through the member's seats over the years:
#: `member_id + 0` keeps SQLite off the member's index
OPEN_SEAT = (
    sa.select(m.Seat.name)
    .where(
        m.Seat.table_id
        == sa.select(m.GameTable.id)
        .where(m.GameTable.group_id == m.Member.group_id, m.GameTable.ended_at.is_(None))
        .correlate(m.Member)
        .scalar_subquery(),
        m.Seat.member_id + sa.literal_column("0") == m.Member.id,
    )
    .correlate(m.Member)
    .scalar_subquery()
    .label("seat")
)

_NAMES = sa.select(
    *(m.Member.id, m.Member.alias, m.Member.display_name, m.Member.username, m.Member.kind, m.Member.linked_to_id),
    OPEN_SEAT,
).where(m.Member.group_id == sa.bindparam("group_id"))

#: names that stand for no member: the words for oneself (a member shown as 我 would read as whoever types it)
_SELF_WORDS = frozenset({"我", "me", "i"})


def names(on: Tx | Session, group_id: int) -> dict[int, str]:
    """Every account of the group by id → the name the ledger shows (in a transaction or a session), distinct
    within the group ignoring case: two members called 老王 show as 老王 and 老王#2, a member whose Telegram name is
    红包池 as 红包池#2. The group's accounts (红包池, 台费) keep their names, then the players seated at the open
    table keep their seat names (a 名片 or Telegram name changed since 开桌 shows once the table ends: the table's
    replies and every view name a player alike), then the account that had a name first (the lower id) keeps
    it; a guest linked to a member comes last."""
    return shown_names(on.execute(_NAMES, {"group_id": group_id}))


def shown_names(accounts: Iterable[Any]) -> dict[int, str]:
    """`names` of rows already read (each with id, alias, display_name, kind and, optionally, linked_to_id and
    `seat`, the `OPEN_SEAT` column): every account of the group must be among them for the names to come out
    the same."""
    rows = sorted(
        accounts,
        key=lambda row: (
            row.kind not in m.POOLS,
            getattr(row, "seat", None) is None,
            getattr(row, "linked_to_id", None) is not None,
            row.id,
        ),
    )
    taken = set(_SELF_WORDS)
    handles: dict[str, set[int]] = {}  # the @usernames, as they read, by who holds them
    for row in rows:
        if getattr(row, "username", None):
            handles.setdefault(reads_as(row.username), set()).add(row.id)
    shown: dict[int, str] = {}
    for row in rows:
        if row.kind not in m.POOLS:  # the group's accounts came first: a member never reads as one, existing or not
            taken |= _ACCOUNT_NAMES
        name = getattr(row, "seat", None) or row.alias or row.display_name
        shown[row.id] = numbered(name, _Taken(taken, handles, row.id))
        taken.add(reads_as(shown[row.id]))
    return shown


class _Taken:
    """The names an account may not show as: those shown already, and another member's @username (a Telegram name
    `wangge` beside the member @wangge would pass for them: it shows as `wangge#2`); its own @username it may."""

    def __init__(self, shown: set[str], handles: dict[str, set[int]], own: int) -> None:
        self.shown, self.handles, self.own = shown, handles, own

    def __contains__(self, name: object) -> bool:
        return name in self.shown or bool(self.handles.get(str(name), set()) - {self.own})


def numbered(name: str, taken: Container[str]) -> str:
    """`name` as a chat shows it (`visible`, cut to `MAX_NAME`), or `name#2`, `name#3` … — the first that does not
    read as (`reads_as`) a name `taken` holds."""
    name = visible(name) or "?"
    unique, n = name[:MAX_NAME], 1
    while reads_as(unique) in taken:
        n += 1
        unique = f"{name[: MAX_NAME - 4]}#{n}"
    return unique


# ------------------------------------------------------------------------------------------------- checks


def check_amount(amount: object, limit: int | None = None) -> None:
    """A positive whole number of 分, at most `limit` when one is given (what a member typed: `MAX_AMOUNT`)."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError("bad_amount", f"金额必须是正整数（分），收到 {amount!r}")
    if limit is not None and amount > limit:
        raise LedgerError("bad_amount", f"金额最多 {limit // 100} 元，收到 {amount} 分")


def clean_name(name: str | None, what: str) -> str:
    """A name someone typed (a guest's, a 名片) as the ledger keeps it: `visible`, never the ledger's own numbering."""
    clean = visible(name or "")
    if not clean:
        raise LedgerError("bad_name", f"{what}不能为空", "a name can't be empty")
    if _NUMBERED.search(unicodedata.normalize("NFKC", clean)):
        raise LedgerError(
            "bad_name",
            f"{what}不能以 #数字 结尾（账本用 #2、#3 区分同名的人）",
            "a name can't end in #number (the ledger tells people of the same name apart so)",
        )
    if len(clean) > MAX_NAME:
        raise LedgerError(
            "bad_name", f"{what}太长（最多 {MAX_NAME} 个字）", f"a name must be 1 to {MAX_NAME} characters long"
        )
    return clean


# ------------------------------------------------------------------------------------------------ records


def group_info(group: Any, moderation: dict[str, Any] | None = None) -> GroupInfo:
    """A `Group` object or row as the record the ledger answers with (`moderation`: its 群规 overrides, when read)."""
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
        moderation=moderation,
    )


def member_info(member: Any) -> MemberInfo:
    """A `Member` object or row as the record the ledger answers with."""
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
