"""Helpers every command module shares: who is who, the table, booking events, money, per-player change lines."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from bot.amounts import AmountError, parse_amount
from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.core import AnswerCallback, Button, Context, Effect, Quiet, Refusal, Sender, SendText
from bot.grammar import mention_word, name_key
from bot.permissions import may_answer, plays_at
from bot.seat_names import by_person_part, one_named
from bot.texts import joined, money, refusal_text, setting_name, text
from bot.vocabulary import ME_WORDS
from ledger.accounts import reads_as
from ledger.errors import LedgerError
from ledger.hands import SEATS
from ledger.models import GROUP_ACCOUNTS
from ledger.records import Replayable

if TYPE_CHECKING:
    from ledger.events import Event
    from ledger.service import Flow, HandResult, MemberInfo, TableInfo, TransferInfo

#: what a confirmed question does (`carry_out`): a booking's result
R = TypeVar("R", bound=Replayable)


def member_of(ctx: Context, sender: Sender) -> MemberInfo:
    """The ledger account of a chat user (created or renamed as needed)."""
    return ctx.service.member(ctx.chat_id, sender.user_id, sender.name, sender.username)


def me(ctx: Context) -> MemberInfo:
    return member_of(ctx, ctx.sender)


def shown_names(ctx: Context) -> dict[int, str]:
    """Every account of the chat's group by id → how every reply names it: the ledger's names (`Ledger.names`:
    distinct in the group, 老王 / 老王#2, a player at the open table by their seat name), the group's own
    accounts in the chat's language (`account_word`). The one way a reply names someone it has not read a
    ledger name for (a seat, a balance or settlement line) already."""
    return {id_: account_word(ctx.lang, name) for id_, name in ctx.service.names(ctx.chat_id).items()}


def shown_name(ctx: Context, person: MemberInfo) -> str:
    """A member, guest or group account as every reply names it (`shown_names`)."""
    return shown_names(ctx).get(person.id, person.name)


def written_mention(ctx: Context, member_id: int, shown: str) -> str:
    """How a player writes this account in a command the bot suggests (`已转 @阿一`): Telegram's own identity, the
    @username, since a display name or 名片 after `@` is refused; a guest by its plain name; a member without a
    username is picked from Telegram's list, which the words say (`@…（输入 @ 后从列表点选 小李）`)."""
    person = next((m for m in ctx.service.members(ctx.chat_id) if m.id == member_id), None)
    if person is not None and person.username:
        return "@" + person.username
    if person is not None and person.kind != "member":
        return shown
    return ctx.t("mention_pick", name=shown)


def account_word(lang: str, name: str) -> str:
    """A name the ledger gave an account (`Ledger.names`, a balance or settlement line) in `lang`: the group's
    own accounts (红包池, 台费) by their word (Pot, House in English); the ledger shows no other account by those
    names (a member called 红包池 is 红包池#2), so anyone else's name comes back as it is."""
    from bot.texts import text
    from ledger.fees import HOUSE_NAME
    from ledger.service import POT_NAME

    key = {POT_NAME: "pool_pot", HOUSE_NAME: "pool_house"}.get(name)
    return text(lang, key) if key is not None else name


def resolve_person(ctx: Context, token: str) -> MemberInfo | None:
    """A person named in a message. `@x` only through Telegram's identity (`mentioned_member`); a plain name only
    an unlinked guest of that name (`guest_named`). Display names and 名片 are labels, never keys: typing one
    cannot reach a member's account."""
    if token.startswith("@"):
        return mentioned_member(ctx, token[1:])
    return guest_named(ctx, token)


def looked_up(ctx: Context, token: str) -> MemberInfo | None:
    """A person named in a question (余额, 统计/战绩, 对战, 明细, 我欠老王多少): `@x` as `resolve_person` reads it; a
    plain name as a record reads a seat (`one_named`: whole, or `老王` for 老王-成员) among the open table's seats,
    then among the players of the latest settlement's lines (`settled_player`, as 付 reads them), so the seated or
    settled player wins over anyone else showing so; else the account the group shows by it (`account_named`,
    refused naming them when two go by it). Only for reading: what moves money (付, 罚款) names a member by
    Telegram's identity, or a player of the latest settlement."""
    if token.startswith("@"):
        return resolve_person(ctx, token)
    table = ctx.table
    seated = one_named(((seat.member_id, seat.name) for seat in table.seats), token) if table is not None else None
    if seated is not None:
        return next((person for person in ctx.service.members(ctx.chat_id) if person.id == seated), None)
    return settled_player(ctx, token) or account_named(ctx, token)


def settled_player(ctx: Context, name: str) -> MemberInfo | None:
    """A plain name (no @) in a payment: a player of a line between players of the latest settlement, named as its
    post lists them or as the group shows that account now, whole or by the person of a `名字-身份` name
    (`one_named`: 老王 for 老王-成员, as a record reads a seat), when it names one account alone; else None (read
    as before: a guest's name, or a member's refused with how to @ them). Only those the night's lines name can be
    reached so: a display name of anyone else (an impostor showing as 老王) never moves money."""
    if name.startswith("@"):
        return None
    found = one_named(settled_names(ctx), name)
    return next((m for m in ctx.service.members(ctx.chat_id) if m.id == found), None) if found is not None else None


def settled_names(ctx: Context) -> list[tuple[int, str]]:
    """Each player of a line of the latest settlement (the pot and the house left out) by the names it goes by:
    as the post lists them, and as the group shows that account now."""
    settlement = ctx.service.latest_settlement(ctx.chat_id)
    if settlement is None or settlement.id is None:
        return []
    pools = {m.id for m in ctx.service.members(ctx.chat_id) if m.kind in GROUP_ACCOUNTS}
    states = ctx.service.payment_lines(ctx.chat_id, settlement.id) or []
    shown = shown_names(ctx)
    names: list[tuple[int, str]] = []
    for index, line in enumerate((*settlement.payments, *settlement.passed)):
        state = states[index] if index < len(states) else None
        for named, now in (
            (line.payer, state.payer_id if state else line.payer_id),
            (line.payee, state.payee_id if state else line.payee_id),
        ):
            if now not in pools:
                names += [(now, named), (now, shown.get(now, named))]
    return names


def mentioned_member(ctx: Context, word: str) -> MemberInfo | None:
    """The member `@word` names: the user a text mention written as `@word` carries (Telegram's id), or the member
    whose own messages reported the username `word`. Anything else is refused, with a hint when `word` is only
    someone's label."""
    if not word:
        return None
    incoming = ctx.incoming
    key = name_key(word)
    picked = {s.user_id: s for s in (incoming.mentions if incoming else ()) if name_key(_word_of(s)) == key}
    if len(picked) == 1:
        (sender,) = picked.values()
        if incoming is not None and key in {name_key(u) for u in incoming.usernames}:
            holder = ctx.service.member_by_username(ctx.chat_id, word)
            if holder is not None and holder.user_id != sender.user_id:  # a picked name spelled like a username
                raise Refusal("ambiguous_mention", name=word)
        return member_of(ctx, sender)
    if picked:
        raise Refusal("ambiguous_mention", name=word)
    found = ctx.service.member_by_username(ctx.chat_id, word)
    if found is not None:
        return found
    _refuse_a_members_label(ctx, word, "mention_is_label")
    raise Refusal("unknown_mention", name=word)


def known_mention(ctx: Context, word: str) -> bool:
    """Whether `@word` names an account the group has already: a member whose own messages reported the username,
    or a name picked from Telegram's list of someone with an account. Unlike `mentioned_member`, it creates
    nothing and refuses nothing."""
    if ctx.service.member_by_username(ctx.chat_id, word) is not None:
        return True
    key = name_key(word)
    picked = {s.user_id for s in _picked(ctx) if name_key(_word_of(s)) == key}
    return bool(picked) and any(member.user_id in picked for member in ctx.service.members(ctx.chat_id))


def guest_named(ctx: Context, name: str) -> MemberInfo | None:
    """The unlinked guest of this name, or None. A name that is a member's label (名片, display name, username)
    is refused rather than read as that member."""
    found = ctx.service.find_guest(ctx.chat_id, name)
    if found is None:
        _refuse_a_members_label(ctx, name, "name_is_member")
    return found


def guest_to_seat(ctx: Context, name: str) -> MemberInfo | str:
    """A plain name at 开桌: the guest it names, the sender by their own name, or the name a new guest will be
    seated under (its clean spelling; the ledger creates the guest with the table, so a refused 开桌 creates
    nobody). A member's name (as the group shows it, or the person a `名字-身份` name names: `account_named`) is
    refused, asking for the @ — never seated as a look-alike guest, nor as whoever took that name; so is a name no
    guest may take (红包池, 我)."""
    found = account_named(ctx, name)
    if found is not None and found.kind == "member" and found.user_id != ctx.sender.user_id:
        # money follows the seat: a member is seated by the @ Telegram ties to their account, never by a name,
        # which anyone can take as their Telegram name (the sender's own name is theirs: they sent it)
        member = shown_names(ctx).get(found.id, found.name)
        raise Refusal("name_is_that_member", name=name, member=member)
    if found is not None:
        return found
    if reserved_name(name):
        raise Refusal("name_reserved", name=name)
    return " ".join(name.split())


def account_named(ctx: Context, name: str) -> MemberInfo | None:
    """The account a plain name typed at 开桌 names, read as the group names people: the one member whose name —
    as replies show it, 名片, Telegram name, the person a `名字-身份` name names (`大鹏` for 大鹏-成员), @username —
    reads as it, else the unlinked guest of that name. A name two accounts go by (two members, or a member and a
    guest shown under it) is refused, naming them, so money never lands on a look-alike; None: nobody has it (a new
    guest)."""
    key = reads_as(name)
    if not key:
        return None
    accounts = [a for a in ctx.service.members(ctx.chat_id) if a.kind in ("member", "guest") and a.linked_to is None]
    shown = shown_names(ctx)
    members = [a for a in accounts if a.kind == "member" and key in _read_names(a, shown.get(a.id, a.name))]
    guest = next((a for a in accounts if a.kind == "guest" and reads_as(shown.get(a.id, a.name)) == key), None)
    if len(members) > 1:
        names = joined(ctx.lang, (shown.get(a.id, a.name) for a in members))
        raise Refusal("name_is_members", name=name, names=names)
    if members and guest is not None:  # a guest seated under a member's name before: which one is meant
        member, guest_name = shown.get(members[0].id, members[0].name), shown.get(guest.id, guest.name)
        raise Refusal("name_is_member_and_guest", name=name, member=member, guest=guest_name)
    return members[0] if members else guest or ctx.service.find_guest(ctx.chat_id, name)


def _read_names(account: MemberInfo, shown: str) -> set[str]:
    """Every way a member's name reads: shown, 名片, Telegram name (each whole and by the person it names) and
    @username."""
    from ledger.accounts import person_part

    labels = (shown, account.alias or "", account.display_name)
    return {form for label in labels for form in (reads_as(label), person_part(label))} | {
        reads_as(account.username or "")
    } - {""}


def _refuse_a_members_label(ctx: Context, name: str, key: str) -> None:
    """Refuse with the text `key` a name that is a member's label (名片, display name, username; two accounts'
    alike): typed, it names nobody, and saying so beats "unknown"."""
    from ledger.service import LedgerError

    try:
        owner = ctx.service.find_member(ctx.chat_id, name)
    except LedgerError:  # two accounts show it
        raise Refusal(key, name=name) from None
    if owner is not None and owner.kind == "member":
        raise Refusal(key, name=name)


def _word_of(sender: Sender) -> str:
    return mention_word(sender.username, sender.name, sender.user_id)


def marked_mention(ctx: Context, word: str) -> bool:
    """Whether `@word` is a mention Telegram marked in this message (a `mention` entity or a text mention): it
    then names a Telegram account, never a seat label."""
    incoming = ctx.incoming
    if incoming is None:
        return False
    key = name_key(word)
    return key in {name_key(u) for u in incoming.usernames} or any(name_key(_word_of(s)) == key for s in _picked(ctx))


def no_table(ctx: Context) -> Refusal:
    """The refusal for a line that needs an open table, its 开桌 example seating as many as the chat's game does
    (a 够级 group was shown three seats)."""
    labels = "甲乙丙丁戊己" if ctx.lang == "zh" else "abcdef"
    return Refusal("no_table", seats=" ".join(f"@{label}" for label in labels[: SEATS[ctx.game]]))


def current_table(ctx: Context) -> TableInfo:
    """The chat's open table (read with the group before the handler ran), or a refusal."""
    if ctx.table is None:
        raise no_table(ctx)
    return ctx.table


def recording_table(ctx: Context) -> TableInfo:
    """The table a record goes to: the open one, or for an edit the table its message recorded at (read against
    those seats; refused once that night is settled). An edit of a record at a table that has ended since (开桌
    seated another) is an admin's only, as 「就是这个」 and 撤销 reach only the open table: anyone else is refused,
    nothing changed."""
    incoming = ctx.incoming
    if incoming is not None and incoming.edited:
        recorded = ctx.service.recorded_table(incoming.original_source)
        if recorded is not None:
            if recorded.ended_at is not None and not ctx.is_admin:
                hand = ctx.service.recorded_hand(incoming.original_source)
                raise Refusal("edit_table_ended", number=hand[0] if hand is not None else "?")
            return recorded
    return current_table(ctx)


#: the fields of a record's events and of the scoring core's answer that name a seat, list seats, or hold a value
#: per seat (`named_now` renames them)
_SEAT_FIELDS = frozenset({"player", "winner", "from", "to", "dealer", "next_dealer"})
_SEAT_LISTS = frozenset({"players", "order", "geming", "shaopai_failed", "baojing"})
_PER_SEAT = frozenset({"net", "ready", "payer_multipliers", "places", "team_points", "counts"})


def _renamed(data: Any, names: Mapping[str, str]) -> Any:
    """Events or an answer (any nesting of lists and mappings) with the seats they name renamed through `names`."""
    if isinstance(data, list | tuple):
        return [_renamed(item, names) for item in data]
    if not isinstance(data, Mapping):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SEAT_FIELDS and isinstance(value, str):
            out[key] = names.get(value, value)
        elif key in _SEAT_LISTS and isinstance(value, list):
            out[key] = [names.get(item, item) if isinstance(item, str) else item for item in value]
        elif key in _PER_SEAT and isinstance(value, Mapping):
            out[key] = {names.get(seat, seat): _renamed(item, names) for seat, item in value.items()}
        else:
            out[key] = _renamed(value, names)
    return out


def seats_named_now(ctx: Context, table: TableInfo) -> tuple[TableInfo, dict[str, str]]:
    """A table that has ended with its seats (and dealer) named as every reply names those players now
    (`shown_names`), and the renaming, each seat name at that table → the name now: its events name the seats as
    they were (`named_events`)."""
    shown = shown_names(ctx)
    names = {seat.name: shown.get(seat.member_id, seat.name) for seat in table.seats}
    seats = tuple(dataclasses.replace(seat, name=names[seat.name]) for seat in table.seats)
    dealer = names.get(table.dealer, table.dealer) if table.dealer is not None else None
    return dataclasses.replace(table, seats=seats, dealer=dealer), names


def named_events(events: Iterable[Mapping[str, Any]], names: Mapping[str, str]) -> list[Any]:
    """Events of a table that has ended with the seats they name renamed (`seats_named_now`)."""
    renamed: list[Any] = _renamed(list(events), names)
    return renamed


def named_now(ctx: Context, table: TableInfo, result: HandResult) -> tuple[TableInfo, HandResult]:
    """A booking's table and result with the players named as every reply names them now (`shown_names`). An open
    table's seat names are those names (`Ledger.names`): nothing to do. An edit of a hand of a table that has
    since ended (`recording_table`) was booked under that table's seat names, which held only until it ended (a
    名片 changed since, a seat at the open table under another name): its reply names each player as 历史 shows
    that hand, and as every other reply names them now."""
    if table.ended_at is None:
        return table, result
    table, names = seats_named_now(ctx, table)

    def name(seat: str | None) -> str | None:
        return names.get(seat, seat) if seat is not None else None

    def moved(transfer: TransferInfo) -> TransferInfo:
        return dataclasses.replace(
            transfer, payer=names.get(transfer.payer, transfer.payer), payee=names.get(transfer.payee, transfer.payee)
        )

    return table, dataclasses.replace(
        result,
        dealer=name(result.dealer),
        events=tuple(_renamed(list(result.events), names)),
        answer=_renamed(result.answer, names),
        booked=tuple(moved(t) for t in result.booked),
        voided=tuple(moved(t) for t in result.voided),
        next_dealer=name(result.next_dealer),
        liangdao=tuple(names.get(player, player) for player in result.liangdao),
        recorded=tuple(_renamed(list(result.recorded), names)),
    )


def seat_of_member(table: TableInfo, member_id: int) -> str | None:
    return next((seat.name for seat in table.seats if seat.member_id == member_id), None)


def my_seat(ctx: Context, table: TableInfo) -> str | None:
    """The sender's seat at the table (by Telegram id), None when they are not seated."""
    return table.seat_of_user(ctx.sender.user_id)


def reserved_name(name: str) -> bool:
    """A name no guest or 名片 may take: the group's accounts (红包池, 台费) and the words for oneself (我), which
    would show a person as the pot, or read as whoever types them."""
    from ledger.accounts import HOUSE_NAME, POT_NAME, reads_as

    return reads_as(name) in {reads_as(word) for word in (POT_NAME, HOUSE_NAME, *ME_WORDS)}


def seat_resolver(ctx: Context, table: TableInfo) -> Callable[[str], str | None]:
    """A function token -> seat name (or None) for the grammar.

    `我`/`me` is the sender's seat. A mention Telegram marked (`@username` entity, text mention) names the account:
    its seat, or a refusal when it is not seated. Otherwise a seat name, with or without `@` (what the table's
    message lists, and what the Mini App writes); then a seated player's username, with or without `@` (unique,
    so `from laowang` is 老王 as `from @laowang` is), then an `@username` of a member the ledger knows (refused when
    not seated). Any other plain word is no person."""
    seats_by_key = {name_key(seat.name): seat.name for seat in table.seats}
    seats_by_username = {name_key(seat.username): seat.name for seat in table.seats if seat.username}
    seats_by_person = by_person_part(seat.name for seat in table.seats)  # `王建国` for `王建国-成员`

    def seated(person: MemberInfo | None, bare: str) -> str:
        if person is None:
            raise Refusal("unknown_player", name=bare)
        seat = seat_of_member(table, person.id)
        if seat is None:
            raise Refusal("not_seated", name=shown_name(ctx, person))
        return seat

    def resolve(token: str) -> str | None:
        if token in ME_WORDS:
            return my_seat(ctx, table)
        mention = token.startswith("@")
        bare = token[1:] if mention else token
        if not bare:
            return None
        key = name_key(bare)
        if mention and marked_mention(ctx, bare):
            picked = any(name_key(_word_of(sender)) == key for sender in _picked(ctx))
            if not picked and key in seats_by_username:  # a seated player's username: no lookup
                return seats_by_username[key]
            return seated(mentioned_member(ctx, bare), bare)
        if key in seats_by_key:
            return seats_by_key[key]
        if key in seats_by_username:  # Telegram's own identity of a seated player, `@` typed or not: no lookup
            return seats_by_username[key]
        if reads_as(bare) in seats_by_person:
            return seats_by_person[reads_as(bare)]
        if not mention:
            return None
        return seated(mentioned_member(ctx, bare), bare)

    return resolve


def _picked(ctx: Context) -> tuple[Sender, ...]:
    return ctx.incoming.mentions if ctx.incoming is not None else ()


def net_by_member(booked: Iterable[TransferInfo], voided: Iterable[TransferInfo] = ()) -> dict[int, int]:
    """Each account's change from transfers written minus transfers voided."""
    net: dict[int, int] = {}
    for transfer in booked:
        net[transfer.payer_id] = net.get(transfer.payer_id, 0) - transfer.amount
        net[transfer.payee_id] = net.get(transfer.payee_id, 0) + transfer.amount
    for transfer in voided:
        net[transfer.payer_id] = net.get(transfer.payer_id, 0) + transfer.amount
        net[transfer.payee_id] = net.get(transfer.payee_id, 0) - transfer.amount
    return net


def edited_key(ctx: Context, key: str, *, corrected: bool = False) -> str:
    """The text (`hand_edited`, 「按改后的消息重记」) of a record replaced by an edited message, or its `_corrected`
    twin (「已改正」) when a player's 改成 replaced it and no message was edited (`corrected`: a 改成 whose record
    was booked once its question was answered, by another message)."""
    incoming = ctx.incoming
    corrected = corrected or (incoming is not None and incoming.corrected)
    return f"{key.removesuffix('_edited')}_corrected" if corrected else key


def edit_changes_head(ctx: Context, edited: bool) -> list[str]:
    """Over an edit's money lines: they are each player's change against what was booked before, not what the
    hand pays (an edit 七对 → 清一色 shows the winner +4元, not the hand's 16元), said so they are not misread."""
    return [ctx.t("edit_changes")] if edited else []


def change_lines(ctx: Context, table: TableInfo, changes: dict[int, int], night: Callable[[int], int]) -> list[str]:
    """One line per seat: the change and the new night balance (`alice +2元（本晚 +6元）`); `night` gives a
    member's night total (the booking's running totals: nothing is re-summed)."""
    currency = ctx.group.currency
    return [
        ctx.t(
            "change_line",
            name=seat.name,
            change=money(changes.get(seat.member_id, 0), currency, signed=True),
            night=money(night(seat.member_id), currency, signed=True),
        )
        for seat in table.seats
    ]


#: the reason a hand replaced by an edit (or a 改成) is voided with: it lives on in the hand that replaced it
EDIT_REASON = "edit"


#: what every record must pass before `book` adds it to the open hand, registered by the modules that know it
#: (`regional.refuse_while_a_record_waits`): they import this module, so it cannot import them. Called with the
#: record's events and the source it books with (a button flow's confirmation is not held up by its own flow)
BookingCheck = Callable[[Context, "TableInfo", Sequence["Event | Mapping[str, Any]"], str], None]
_BEFORE_BOOKING: list[BookingCheck] = []


def before_booking(check: BookingCheck) -> BookingCheck:
    """Register `check` to run before every booking on the open hand (it refuses by raising)."""
    _BEFORE_BOOKING.append(check)
    return check


def refuse_before_booking(
    ctx: Context, table: TableInfo, events: Sequence[Event | Mapping[str, Any]], source: str | None = None
) -> None:
    """Refuse (raise) what `book` would refuse of `events` before booking them (`before_booking`): also asked
    before a record is offered as a guess (「是不是」) or started by the 胡/杠 buttons, never to be refused only at
    the tap. `source`: the booking's, when not the message's."""
    for check in _BEFORE_BOOKING:
        check(ctx, table, events, source or ctx.source)


def book(
    ctx: Context,
    table: TableInfo,
    events: Sequence[Event | Mapping[str, Any]],
    *,
    source: str | None = None,
    told_at: datetime | None = None,
) -> tuple[HandResult, bool]:
    """Book events on the table's open hand: (the ledger's result, whether it replaced an edited message's record).

    An edited message replaces what its first version recorded; a first version that was refused (and so recorded
    nothing) is simply recorded now; an edit that records the same is `Quiet`. `source` overrides the message's (a
    button flow's confirmation, `told_at` the moment its player was chosen: `told_at`). A record repeating the
    table's previous one from someone else within the group's window (or another ending of the 卡五星 hand just
    ended; a recap of it, `Context.recap`) raises
    `DuplicateRecord`, unless confirmed (`Context.repeat`). The result says `replayed` when the source was booked
    already (a redelivered update)."""
    from ledger.service import LedgerError

    incoming = ctx.incoming
    if source is None and incoming is not None and incoming.edited:
        refuse_before_booking(ctx, table, events)  # an edit into the hand a record waits in changes it alike
        try:
            result = ctx.service.replace_hand(
                incoming.original_source, events, source=ctx.source, by=ctx.sender.user_id, reason=EDIT_REASON
            )
            return result, True
        except LedgerError as err:
            if err.code == "unchanged":  # the edit records what the message recorded: nothing to do or say
                raise Quiet from err
            if err.code != "nothing_to_edit":
                raise
    refuse_while_undo_asked(ctx, table)
    if ctx.double_win:
        return _joined_to_the_hand_just_ended(ctx, table, events), True
    refuse_before_booking(ctx, table, events, source)
    result = ctx.service.record_events(
        table.id,
        events,
        source=source or ctx.source,
        by=ctx.sender.user_id,
        check_repeat=not ctx.repeat,
        recap=ctx.recap,
        told_at=told_at,
    )
    follow_rollover(ctx, table, result)
    return result, False


def hold_hand(table: TableInfo, state: dict[str, Any]) -> None:
    """Mark a flow's state as holding a record of the table's open hand unbooked (`HOLDS_HAND`: 结算, 开桌 and the
    日切 hour wait for it); the ledger notes when it was told as it saves it (`TOLD_AT`)."""
    from ledger.records import HOLDS_HAND

    state[HOLDS_HAND] = table.hand_number


def told_at(state: Mapping[str, Any]) -> datetime | None:
    """When a held record was told (`hold_hand`): its night at the 日切 hour is the one it was told in."""
    from ledger.records import TOLD_AT

    told = state.get(TOLD_AT)
    return datetime.fromisoformat(told) if told else None


def _joined_to_the_hand_just_ended(
    ctx: Context, table: TableInfo, events: Sequence[Event | Mapping[str, Any]]
) -> HandResult:
    """「一炮双响」 pressed under a held-back win (`Context.double_win`): the record that ended the hand now books
    both wins on its discard, the hand re-recorded as an edit of it is (its number and dealer kept)."""
    latest = ctx.service.latest_record(table.id)
    joined = double_win_of(latest.events, events) if latest is not None and latest.finished else None
    if latest is None or joined is None:
        raise Refusal("repeat_previous_changed")
    return ctx.service.replace_hand(latest.source, joined, source=ctx.source, by=ctx.sender.user_id, reason="一炮双响")


def double_win_of(
    previous: Sequence[Mapping[str, Any]], events: Sequence[Event | Mapping[str, Any]]
) -> list[Event | Mapping[str, Any]] | None:
    """The record a 一炮双响 makes of the one win on a discard that ended the hand (`previous`, that record's events)
    and a record held back after it (`events`): another player's win on the same discard (both wins), or the whole
    一炮双响 on it naming that winner (told after one of its wins: the two as told). None when they are no 一炮双响."""
    from ledger.events import Piao, Win

    wins = [event for event in previous if event.get("type") == "hu"]
    if len(wins) != 1 or wins[0].get("method") != "discard":
        return None
    won, kept = wins[0], [event for event in previous if event.get("type") != "hu"]
    told = [event for event in events if isinstance(event, Win)]  # its 漂 is `previous`'s (`regional.prepare`)
    if any(not isinstance(event, Win | Piao) for event in events) or any(
        w.method != "discard" or w.discarder != won.get("from") for w in told
    ):
        return None
    winners = {win.winner for win in told}
    if len(told) == 1 and won.get("winner") not in winners:
        return [*previous, *told]
    if len(told) == 2 == len(winners) and won.get("winner") in winners:
        return [*kept, *told]
    return None


def follow_rollover(ctx: Context, table: TableInfo, result: HandResult) -> None:
    """When this booking's 日切 roll-over closed the table's night (`HandResult.new_night`), queue that night's
    post to follow the booking's reply, exactly as 结算 posts it: the report with its settlement (the one the
    roll-over stored) and the payments with their 「已付」/「收到」 buttons. A redelivered update posts nothing
    again."""
    if result.new_night is None or result.replayed:
        return
    follow_closed_night(ctx, table.night_id)


def follow_closed_night(ctx: Context, night_id: int) -> None:
    """Queue a night the 日切 roll-over closed (at a record, or at 开桌) to follow the reply, as 结算 posts it."""
    from bot.reports.night import settle_post

    closed = ctx.service.closed_night(ctx.chat_id, night_id)
    if closed is not None:
        ctx.follow.extend(settle_post(ctx, closed))


def replayed_reply(ctx: Context, result: HandResult, game: str = "kawuxing") -> SendText:
    """The one short line a redelivered update gets: what its message booked, booked once."""
    from bot.texts import describe_record

    what = describe_record(ctx.lang, result.recorded, game)
    return ctx.reply("already_recorded", number=result.number, what=what)


#: the button flow of 撤销's question about a record at the open table (asked in bot/commands/undo.py)
UNDO_QUESTION = "undo"
#: the button flow of the question a typed record held back as a double entry gets (bot/commands/duplicates.py)
REPEAT_QUESTION = "dup"
#: a button flow's state holds this once its confirmation was held back as a double entry (the 胡/杠 and 名次
#: flows: `duplicates.hold_flow`); its 「确实又一次」 is the action `REPEAT`
HELD = "held"
REPEAT = "rep"
#: where a held-back question keeps the record it repeats (its last event's id)
REPEATED = "previous"
#: a held-back question's state holds this when the line is another ending of the hand just ended (「是新的一局」)
NEW_HAND = "new_hand"
#: a double entry's press (and state mark) that books the held-back win into the hand just ended as its 一炮双响
DOUBLE = "double"


def questions_waiting(ctx: Context, kinds: tuple[str, ...]) -> list[Flow]:
    """The sender's questions of these kinds still waiting for an answer, newest first; none to look up when the
    read every message starts with found nothing of theirs waiting (`Context.waiting`). A question about a table
    that is no longer open is finished on the way (its buttons expire, as a press on them finds: `flow_step`); one
    of a hand recorded or taken back since (`state["hand"]`: a 胡 flow left half-way) is passed over, a press on it
    says why (`hand_gone`)."""
    if not ctx.waiting:
        return []
    table = ctx.table
    waiting = []
    for flow in reversed(ctx.service.open_flows(ctx.chat_id, user_id=ctx.sender.user_id, kinds=kinds)):
        state = flow.state
        if "table_id" in state and (table is None or state["table_id"] != table.id):
            ctx.service.finish_flow(ctx.chat_id, flow.message_id)
        elif table is None or "hand" not in state or hand_gone(table, state["hand"]) is None:
            waiting.append(flow)
    return waiting


def questions_put_to(ctx: Context, kinds: tuple[str, ...]) -> list[Flow]:
    """Questions of these kinds at the open table that someone else asked about the sender's record, theirs to say
    yes to (`CONFIRMER`; for an admin, every such question), newest first. Only a seated player or an admin can be
    asked one: nothing is looked up for anyone else, or with no table open."""
    table = ctx.table
    if table is None or not (ctx.is_admin or plays_at(ctx, table)):
        return []
    return [
        flow
        for flow in reversed(ctx.service.open_flows(ctx.chat_id, kinds=kinds))
        if flow.user_id != ctx.sender.user_id
        and flow.state.get("table_id") == table.id
        and CONFIRMER in flow.state
        and (ctx.is_admin or flow.state[CONFIRMER] == ctx.sender.user_id)
    ]


def refuse_while_undo_asked(ctx: Context, table: TableInfo) -> None:
    """A new record from whoever asked to take back the table's latest record, while that question still waits, is
    most likely that record typed again, corrected: booked now, the question could no longer take the old one back
    (it is not the latest any more) and both would count. Refused, naming the question — said even to a line read
    without its command word first (`I won seven pairs self drawn`): the line was read whole as a record; once it
    is answered, or the table moved on by someone else's record, records book as usual. A question about a whole
    finished hand (`撤销 第3局`) never goes stale, so it holds nothing back."""
    asked = [f for f in questions_waiting(ctx, (UNDO_QUESTION,)) if str(f.state.get("target", "")).startswith("e")]
    if not asked:
        return
    latest = ctx.service.latest_record(table.id)
    live = latest is not None and f"e{latest.event_ids[-1]}"
    for flow in asked:
        if flow.state["target"] != live:
            continue
        said = {"number": flow.state["number"], "what": described(ctx, flow.state), **undo_labels(ctx, flow)}
        refusal = Refusal("undo_answer_first", **said)
        if CONFIRMER in flow.state:  # not theirs to confirm: whose it is
            refusal = Refusal("undo_answer_first_other", by=flow.state[CONFIRMER_NAME], **said)
        refusal.heard = True
        raise refusal


#: a question's flow state: it was asked in English in a group that is not (a line written in English asked it)
ASKED_IN_ENGLISH = "english"


def asked_in(ctx: Context, flow: Flow) -> str:
    """The language a question was asked in, so its buttons' labels: the group's, or English for one a line
    written in English asked in a Chinese group."""
    return "en" if ctx.group.language == "en" or flow.state.get(ASKED_IN_ENGLISH) else "zh"


def undo_labels(ctx: Context, flow: Flow) -> dict[str, str]:
    """A 撤销 question's buttons as it showed them (`yes`, `no`), for a reply pointing at them: a Chinese line's
    reply under an English question names “Undo it”, not 「确认撤销」 nobody sees."""
    lang = asked_in(ctx, flow)
    return {"yes": text(lang, "btn_undo_yes"), "no": text(lang, "btn_undo_no")}


#: a question's state: what it names, in each language (`described`), beside `what` in the language it was asked in
WHAT_SAID = "what_said"


def what_said(ctx: Context, describe: Callable[[str], str]) -> dict[str, Any]:
    """What a question names (`describe(lang)`) for its state: `what` in the language it is asked in, and both
    languages' under `WHAT_SAID`, so a reply in the other language quotes it in its own (a question asked after an
    English line, quoted by the Chinese reply to a Chinese line)."""
    said = {lang: describe(lang) for lang in ("zh", "en")}
    return {"what": said.get(ctx.lang, said["zh"]), WHAT_SAID: said}


def described(ctx: Context, state: Mapping[str, Any]) -> str:
    """What a question names in the reply's language (`what_said`); a question stored before it: as it was asked."""
    said = state.get(WHAT_SAID)
    return str(said[ctx.lang]) if isinstance(said, Mapping) and ctx.lang in said else str(state["what"])


def booking_lines(ctx: Context, result: HandResult) -> list[str]:
    """What a booking's reply says before anything else: that the 日切 hour started a new night, when it did."""
    if result.new_night is None:
        return []
    return [ctx.t("new_night", hour=ctx.group.cutoff_hour, number=result.number)]


def money_lines(ctx: Context, table: TableInfo, result: HandResult) -> list[str]:
    """Each seat's change from this booking and their night balance (nothing when no money moved)."""
    changes = net_by_member(result.booked, result.voided)
    return (change_lines(ctx, table, changes, result.night_total) if changes else []) + cut_lines(ctx, result)


def cut_lines(ctx: Context, result: HandResult) -> list[str]:
    """`抽水：乙 0.8元（已记入台费）` when the booking took a cut of a win (the changes above are after it)."""
    cuts = [t for t in result.booked if t.kind == "fee"]
    if not cuts:
        return []
    each = joined(ctx.lang, (f"{t.payer} {money(t.amount, ctx.group.currency)}" for t in cuts))
    return [ctx.t("fees_cut_booked", cuts=each)]


def flow_key(ctx: Context) -> int:
    """The key a new button flow is stored under: the message that asked for it, or for a flow started by a
    button a negative number derived from the press (a redelivered press opens the same flow, not a second)."""
    if ctx.incoming is not None:
        return ctx.incoming.message_id
    assert ctx.callback is not None
    digest = hashlib.sha256(f"{ctx.chat_id}:{ctx.callback.query_id}".encode()).digest()
    return -(int.from_bytes(digest[:7], "big") or 1)


def flow_source(ctx: Context, key: int) -> str:
    """The source a button flow's confirmation books with: for a flow a typed line asked for (`胡`, `杠`, `名次`),
    that message's as an edit numbered 0, so editing the message later replaces what the flow booked and never
    adds to it; for one started by a button, derived from the flow. A second press books nothing more."""
    chat = ctx.source.rsplit(":", 1)[0]
    return f"{chat}:{key}:e0" if key > 0 else f"{chat}:flow{key}"


#: a flow button's data, `<prefix>:<flow key>:<action>`: ASCII only, the key a signed 64-bit number, the action a
#: short code with up to two short arguments (`w.0`, `m.s`, `p.10`, `ok`, `keep`, a regional answer `q.p1.2`)
_FLOW_DATA = re.compile(r"[a-z]{1,8}:(-?[0-9]{1,19}):([a-z]{1,8}(?:\.[a-z0-9]{1,3}){0,2})", re.ASCII)
_INT64 = 2**63


def flow_data(data: str) -> tuple[int, str] | None:
    """(flow key, action) of a flow button's data, or None for anything our buttons never carry (a forged `²`, a
    20-digit key, a key past 64 bits, stray characters)."""
    found = _FLOW_DATA.fullmatch(data)
    if found is None or not -_INT64 < int(found[1]) < _INT64:
        return None
    return int(found[1]), found[2]


def button_index(arg: str, count: int) -> int | None:
    """A button's index argument (`w.2` → 2): one or two ASCII digits naming one of `count` items, else None."""
    if not (arg.isascii() and arg.isdigit() and len(arg) <= 2) or int(arg) >= count:
        return None
    return int(arg)


@dataclass(frozen=True)
class FlowStep:
    """A checked press on a stored button flow: `action` is what the button says to do, `edit` the bot message
    carrying the buttons, `user_id` who started the flow."""

    key: int
    action: str
    table: TableInfo
    state: dict[str, Any]
    user_id: int
    edit: int


def asked_already(ctx: Context, key: int) -> bool:
    """This very update stored the question under `key` already: it is a redelivery, and the question is out."""
    asked = ctx.service.load_flow(ctx.chat_id, key)
    return asked is not None and asked.state.get("asked") == ctx.source


@dataclass(frozen=True)
class Confirmation:
    """A press under a question still waiting (撤销结算, 撤销发红包池, a payment typed twice): its action (`ok`,
    `keep`, …), and the question's flow (its key, what it showed in `state`, the message to rewrite, who asked)."""

    key: int
    action: str
    state: Mapping[str, Any]
    message_id: int
    asked_by: int | None = None

    def source(self, ctx: Context, what: str) -> str:
        """The booking's source: one per question, so a press delivered twice takes back once."""
        return f"{ctx.source.rsplit(':', 1)[0]}:{self.key}:{what}"


def ask_admin(ctx: Context, kind: str, prefix: str, state: Mapping[str, Any], question: str, yes: str) -> SendText:
    """The question with 「yes」/「不撤销」, its flow stored with what it showed (the press takes back that, and only
    while it is still so), sent `posted_as` its flow for a typed 算了 to rewrite (`bot.commands.questions`). The
    caller has checked `asked_already` before reading what to ask about."""
    key = flow_key(ctx)
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, kind, {**state, "asked": ctx.source})
    buttons = ((Button(yes, f"{prefix}:{key}:ok"), Button(ctx.t("btn_unsettle_no"), f"{prefix}:{key}:keep")),)
    return SendText(question, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{prefix}:{key}")


def live_press(ctx: Context, kind: str) -> Confirmation | AnswerCallback:
    """The press under a question of `kind` still waiting for its answer, or the answer when it counts for nothing
    (a question answered, or unknown: expired)."""
    query = ctx.callback
    assert query is not None
    parsed = flow_data(query.data)
    flow = ctx.service.load_flow(ctx.chat_id, parsed[0]) if parsed is not None else None
    if parsed is None or flow is None or flow.finished_at is not None or flow.kind != kind:
        return expired(ctx, flow)
    return Confirmation(parsed[0], parsed[1], flow.state, query.message_id, flow.user_id)


def expired(ctx: Context, flow: Flow | None) -> AnswerCallback:
    """「这个按钮已经失效了」 for a press on a flow that is done with, saying why when its table has ended since:
    that night was settled (结算, or the 日切 roll-over), or 开桌 seated another table the same night. A flow its
    table's end expired stays expired when 撤销结算 opens that table again (a confirmation that moves money is
    never carried out on buttons the settlement closed): the press says so, and to start again."""
    table_id = flow.state.get("table_id") if flow is not None else None
    if flow is not None and isinstance(table_id, int):
        try:
            table = ctx.service.table(table_id)
        except LedgerError:
            table = None
        if table is not None and table.ended_at is not None:
            night = ctx.service.current_night(ctx.chat_id)
            same_night = night is not None and night.id == table.night_id
            return AnswerCallback(ctx.t("flow_table_changed" if same_night else "flow_night_settled"), alert=True)
        if table is not None and flow.ended_with_table:  # ended with its table, which 撤销结算 opened again
            return AnswerCallback(ctx.t("flow_night_reopened"), alert=True)
    return AnswerCallback(ctx.t("button_expired"), alert=True)


def admin_press(
    ctx: Context, kind: str, kept: Callable[[Mapping[str, Any]], str]
) -> Confirmation | Effect | list[Effect]:
    """An admin's 「确认…」 under an `ask_admin` question, or the answer that ends the press there: 「不撤销」 rewrites
    the question to `kept(state)`; a question answered or unknown (expired), or a press by someone who is not an
    admin, counts for nothing."""
    pressed = live_press(ctx, kind)
    if not isinstance(pressed, Confirmation):
        return pressed
    if not ctx.is_admin:
        return AnswerCallback(ctx.t("admin_only"), alert=True)
    if pressed.action == "keep":
        return answered(ctx, pressed, kept(pressed.state), AnswerCallback())
    if pressed.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    return pressed


def answered(ctx: Context, press: Confirmation, text: str, notice: AnswerCallback) -> list[Effect]:
    """The question done with: its flow finished, the press answered with `notice` and the question rewritten to
    `text` (what was done, kept or refused)."""
    ctx.service.finish_flow(ctx.chat_id, press.key)
    return [notice, SendText(text, edit_message_id=press.message_id)]


def carry_out(ctx: Context, press: Confirmation, act: Callable[[], R]) -> R | Effect | list[Effect]:
    """What an admin confirmed, done: `act`'s result, or the answer that ends the press there (a refusal, the
    ledger's or `act`'s own, written over the question; a press delivered again after it was done: 「已经做过了」).
    The question is done with either way."""
    try:
        result = act()
    except Refusal as refusal:
        why = ctx.t(refusal.key, **refusal.params)
        return answered(ctx, press, why, AnswerCallback(why, alert=True))
    except LedgerError as err:
        why = refusal_text(ctx.lang, err) or ctx.t("button_expired")
        return answered(ctx, press, why, AnswerCallback(why, alert=True))
    ctx.service.finish_flow(ctx.chat_id, press.key)
    if result.replayed:
        return AnswerCallback(ctx.t("already_done"))
    return result


def hand_gone(table: TableInfo, asked_in: int) -> str | None:
    """Why a button or question of hand `asked_in` books nothing now: `recorded` (that hand was recorded another
    way meanwhile) or `taken_back` (a record was taken back since — 撤销 reopened an earlier hand, or voided the
    latest — so the hand it belonged to is not being played); None while it is the open hand. Hands of a table
    only number backwards when a record is taken back (a 日切 roll-over seats a new table)."""
    if asked_in == table.hand_number:
        return None
    return "recorded" if asked_in < table.hand_number else "taken_back"


def held_as_repeat(flow: Flow) -> bool:
    """The flow asks whether a record held back as a double entry happened again: the question a typed line gets
    (`REPEAT_QUESTION`), or a button flow whose confirmation was held back (`HELD`). Only whoever asked, or an
    admin, answers it: a third player's 「确实又一次」 would book someone else's record twice."""
    return flow.kind == REPEAT_QUESTION or bool(flow.state.get(HELD))


def repeated_changed(ctx: Context, table: TableInfo, state: Mapping[str, Any]) -> bool:
    """Whether the record a held-back question repeats (`state["previous"]`, its last event) is no longer the
    table's latest — corrected, taken back or followed by another: 「确实又一次」 means "again, after that one"."""
    previous = state.get(REPEATED)
    if previous is None:  # a question asked before the record was kept with it
        return False
    latest = ctx.service.latest_record(table.id)
    return latest is None or latest.event_ids[-1] != previous


def flow_step(ctx: Context, kind: str, table_of: Callable[[Context], TableInfo]) -> FlowStep | Effect | list[Effect]:
    """Read a press on a flow's button (data `prefix:<key>:<action>`) the way every flow does: the flow must be
    live and of `kind`, its table still the open one, the presser seated or an admin — and, for a flow held back
    as a double entry (`held_as_repeat`), whoever started it or an admin (`may_answer`; 「确实又一次」, `REPEAT`,
    answers only such a flow) — and the hand it was started in (`state["hand"]`, when it keeps one) still the
    open one: a flow never books into the next hand. `x` cancels it. Returns the step to apply, or the answer
    that ends the press there."""
    query = ctx.callback
    assert query is not None
    parsed = flow_data(query.data)
    if parsed is None:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    key, action = parsed
    flow = ctx.service.load_flow(ctx.chat_id, key)
    if flow is None or flow.finished_at is not None or flow.kind != kind:
        return expired(ctx, flow)
    table = table_of(ctx)
    state = dict(flow.state)
    if table.id != state["table_id"]:
        ctx.service.finish_flow(ctx.chat_id, key)
        return AnswerCallback(ctx.t("flow_table_changed"), alert=True)
    if not plays_at(ctx, table):
        return AnswerCallback(ctx.t("flow_not_seated"), alert=True)
    held = held_as_repeat(flow)
    if held and not may_answer(ctx, flow.user_id):
        return AnswerCallback(ctx.t("repeat_not_yours"), alert=True)
    if action == REPEAT and not held:  # data no button of this flow carries yet
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    why = hand_gone(table, state.get("hand", table.hand_number))
    if why is not None:
        ctx.service.finish_flow(ctx.chat_id, key)
        gone = ctx.t(f"flow_hand_{why}", number=state["hand"], now=table.hand_number)
        return [AnswerCallback(gone, alert=True), SendText(gone, edit_message_id=query.message_id)]
    if held and action in {"ok", REPEAT, DOUBLE} and repeated_changed(ctx, table, state):
        ctx.service.finish_flow(ctx.chat_id, key)
        changed = ctx.t("repeat_previous_changed")
        return [AnswerCallback(changed, alert=True), SendText(changed, edit_message_id=query.message_id)]
    if action == "x":
        if not may_cancel(ctx, table, flow.user_id, state):
            who = cancellers(ctx, table, flow.user_id, state)
            return AnswerCallback(ctx.t("waiting_cancel_not_yours", who=who), alert=True)
        ctx.service.finish_flow(ctx.chat_id, key)
        return [AnswerCallback(), SendText(ctx.t("flow_cancelled"), edit_message_id=query.message_id)]
    return FlowStep(key, action, table, state, flow.user_id, query.message_id)


def may_cancel(ctx: Context, table: TableInfo, starter: int, state: Mapping[str, Any]) -> bool:
    """Whether the presser may drop a flow: anyone seated, until it holds a record of the hand (a 胡/杠 told by taps
    once its player is chosen: `HOLDS_HAND`) — then only whoever started it, the player it names or an admin, as a
    waiting typed win (a loser's 「取消」 threw a winner's half-told win away)."""
    from ledger.records import HOLDS_HAND

    if not state.get(HOLDS_HAND) or may_answer(ctx, starter):
        return True
    mine = next((seat.name for seat in table.seats if seat.user_id == ctx.sender.user_id), None)
    return mine is not None and mine == state.get("who")


def cancellers(ctx: Context, table: TableInfo, starter: int, state: Mapping[str, Any]) -> str:
    """Who may drop a flow holding a record: its starter and the player it names (by their seats), or an admin."""
    names = [seat.name for seat in table.seats if seat.user_id == starter] + [str(state.get("who") or "")]
    return ctx.t("waiting_who", names=joined(ctx.lang, [name for name in dict.fromkeys(names) if name]))


#: A go-ahead question's state keys when what it would change is someone else's record: the Telegram id of whoever
#: recorded it (None: nobody the bot knows, so admins only), who alone (or an admin) may say yes, and their name.
CONFIRMER, CONFIRMER_NAME = "confirmer", "confirmer_name"


def confirmed_step(
    ctx: Context, kind: str, not_yours: str, kept: Callable[[Mapping[str, Any]], str]
) -> FlowStep | Effect | list[Effect]:
    """A press on a go-ahead question (「确认撤销」/「不撤销」, 「改成这样」/「不改」) read as every such question
    reads it: `flow_step`'s checks, then only whoever asked or an admin (else the alert `not_yours`) — or, for a
    question about someone else's record (`CONFIRMER`), its recorder or an admin, the asker only dropping it;
    `keep` drops it, its message rewritten to `kept(state)`. Returns the step to carry out on `ok`, or the answer
    that ends the press there."""
    step = flow_step(ctx, kind, current_table)
    if not isinstance(step, FlowStep):
        return step
    if CONFIRMER in step.state:  # someone else's record: its recorder (or an admin) says yes; the asker may drop it
        deciders = {step.state[CONFIRMER]} | ({step.user_id} if step.action == "keep" else set())
        if not ctx.is_admin and ctx.sender.user_id not in deciders:
            return AnswerCallback(ctx.t("confirmer_only", by=step.state[CONFIRMER_NAME]), alert=True)
    elif not may_answer(ctx, step.user_id):
        return AnswerCallback(ctx.t(not_yours), alert=True)
    if step.action == "keep":
        ctx.service.finish_flow(ctx.chat_id, step.key)
        return [AnswerCallback(), SendText(kept(step.state), edit_message_id=step.edit)]
    if step.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    return step


def amount_or_why(ctx: Context, text: str) -> tuple[int | None, str]:
    """The amount `text` names in 分 (`bot.amounts`, the group's currency label a unit too), or None and why not,
    in the chat's language."""
    try:
        amount = parse_amount(text, ctx.group.currency if ctx.group is not None else "")
    except AmountError as err:
        return None, ctx.t(err.why, **err.params)
    return amount, "" if amount is not None else ctx.t("amount_why_form")


def setting_amount(ctx: Context, value: str, word: str) -> int:
    """A 设置's amount (底金, 台费, 抽水) in 分: `2` or `2元` → 200, `0.5` → 50, `50分` → 50; positive only."""
    amount, why = amount_or_why(ctx, value)
    if amount is None:
        # the examples say how to write an amount: the reason is added only when it is another
        hint = "" if why == ctx.t("amount_why_form") else ctx.t("config_bad_amount_why", why=why)
        raise Refusal("config_bad_amount", setting=setting_name(ctx.lang, word), value=value, hint=hint)
    if amount <= 0:
        raise Refusal("config_bad_value", setting=setting_name(ctx.lang, word), value=value, allowed="> 0")
    return amount
