"""Helpers every command module shares: who is who, the table, booking events, money, per-player change lines."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core import AnswerCallback, Context, Effect, Quiet, Refusal, Sender, SendText
from bot.permissions import plays_at
from bot.texts import money

if TYPE_CHECKING:
    from ledger.events import Event
    from ledger.service import HandResult, MemberInfo, TableInfo, TransferInfo

#: seats at a table of each game
SEATS = {"kawuxing": 3, "penghu": 4, "gouji": 6}


def member_of(ctx: Context, sender: Sender) -> MemberInfo:
    """The ledger account of a chat user (created or renamed as needed)."""
    return ctx.service.member(ctx.chat_id, sender.user_id, sender.name, sender.username)


def me(ctx: Context) -> MemberInfo:
    return member_of(ctx, ctx.sender)


def resolve_person(ctx: Context, token: str, *, create_guest: bool) -> MemberInfo | None:
    """A player named in a message: `@username`/text mention, an alias or display name, or a guest's name."""
    name = token[1:] if token.startswith("@") else token
    if not name:
        return None
    incoming = ctx.incoming
    if incoming is not None:
        for mentioned in incoming.mentions:
            if name.lower() in {(mentioned.username or "").lower(), mentioned.name.lower()}:
                return member_of(ctx, mentioned)
    found = ctx.service.find_member(ctx.chat_id, name)
    if found is not None and found.kind != "pot":
        return found
    if token.startswith("@"):
        # an @username the chat has never seen speak: no id to book against, so no guest under that name
        raise Refusal("unknown_mention", name=name)
    if create_guest:
        return ctx.service.guest(ctx.chat_id, name)
    return None


def current_table(ctx: Context) -> TableInfo:
    """The chat's open table (read with the group before the handler ran), or a refusal."""
    if ctx.table is None:
        raise Refusal("no_table")
    return ctx.table


def recording_table(ctx: Context) -> TableInfo:
    """The table a record goes to: the open one, or for an edit the table its message recorded at (read against
    those seats; refused once that night is settled)."""
    incoming = ctx.incoming
    if incoming is not None and incoming.edited:
        recorded = ctx.service.recorded_table(incoming.original_source)
        if recorded is not None:
            return recorded
    return current_table(ctx)


def seat_of_member(table: TableInfo, member_id: int) -> str | None:
    return next((seat.name for seat in table.seats if seat.member_id == member_id), None)


def my_seat(ctx: Context, table: TableInfo) -> str | None:
    """The sender's seat at the table (by Telegram id), None when they are not seated."""
    return table.seat_of_user(ctx.sender.user_id)


def seat_resolver(ctx: Context, table: TableInfo) -> Callable[[str], str | None]:
    """A function token -> seat name (or None) for the grammar: a seated name, `我`/`me`, `@username` of a seated
    player, or another `@x` the ledger knows (refused when not seated)."""
    seats_by_folded = {seat.name.lower(): seat.name for seat in table.seats}
    seats_by_username = {seat.username.casefold(): seat.name for seat in table.seats if seat.username}

    def resolve(token: str) -> str | None:
        bare = token[1:] if token.startswith("@") else token
        if bare.lower() in seats_by_folded:
            return seats_by_folded[bare.lower()]
        if token in {"我", "me", "I"}:
            return my_seat(ctx, table)
        if not token.startswith("@"):
            return None
        if bare.casefold() in seats_by_username:  # Telegram's own identity of a seated player: no lookup
            return seats_by_username[bare.casefold()]
        person = resolve_person(ctx, token, create_guest=False)
        if person is None:
            raise Refusal("unknown_player", name=bare)
        seat = seat_of_member(table, person.id)
        if seat is None:
            raise Refusal("not_seated", name=person.name)
        return seat

    return resolve


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


def book(
    ctx: Context, table: TableInfo, events: Sequence[Event], *, source: str | None = None
) -> tuple[HandResult, bool]:
    """Book events on the table's open hand: (the ledger's result, whether it replaced an edited message's record).

    An edited message replaces what its first version recorded; a first version that was refused (and so recorded
    nothing) is simply recorded now; an edit that records the same is `Quiet`. `source` overrides the message's (a
    button flow's confirmation). A record repeating the table's previous one from someone else within the group's
    window raises `DuplicateRecord`, unless confirmed (`Context.repeat`). The result says `replayed` when the
    source was booked already (a redelivered update)."""
    from ledger.service import LedgerError

    incoming = ctx.incoming
    if source is None and incoming is not None and incoming.edited:
        try:
            result = ctx.service.replace_hand(
                incoming.original_source, events, source=ctx.source, by=ctx.sender.user_id, reason="edit"
            )
            return result, True
        except LedgerError as err:
            if err.code == "unchanged":  # the edit records what the message recorded: nothing to do or say
                raise Quiet from err
            if err.code != "nothing_to_edit":
                raise
    result = ctx.service.record_events(
        table.id, events, source=source or ctx.source, by=ctx.sender.user_id, check_repeat=not ctx.repeat
    )
    return result, False


def replayed_reply(ctx: Context, result: HandResult, game: str = "kawuxing") -> SendText:
    """The one short line a redelivered update gets: what its message booked, booked once."""
    from bot.texts import describe_record

    what = describe_record(ctx.lang, result.recorded, game)
    return ctx.reply("already_recorded", number=result.number, what=what)


def booking_lines(ctx: Context, result: HandResult) -> list[str]:
    """What a booking's reply says before anything else: that the 日切 hour started a new night, when it did."""
    if result.new_night is None:
        return []
    return [ctx.t("new_night", hour=ctx.group.cutoff_hour, number=result.number)]


def money_lines(ctx: Context, table: TableInfo, result: HandResult) -> list[str]:
    """Each seat's change from this booking and their night balance (nothing when no money moved)."""
    changes = net_by_member(result.booked, result.voided)
    return change_lines(ctx, table, changes, result.night_total) if changes else []


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


def flow_step(ctx: Context, kind: str, table_of: Callable[[Context], TableInfo]) -> FlowStep | Effect | list[Effect]:
    """Read a press on a flow's button (data `prefix:<key>:<action>`) the way every flow does: the flow must be
    live and of `kind`, its table still the open one, the presser seated or an admin; `x` cancels it. Returns
    the step to apply, or the answer that ends the press there."""
    query = ctx.callback
    assert query is not None
    parts = query.data.split(":")
    if len(parts) != 3 or not parts[1].lstrip("-").isdigit():
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    key, action = int(parts[1]), parts[2]
    flow = ctx.service.load_flow(ctx.chat_id, key)
    if flow is None or flow.finished_at is not None or flow.kind != kind:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    table = table_of(ctx)
    state = dict(flow.state)
    if table.id != state["table_id"]:
        ctx.service.finish_flow(ctx.chat_id, key)
        return AnswerCallback(ctx.t("flow_table_changed"), alert=True)
    if not plays_at(ctx, table):
        return AnswerCallback(ctx.t("flow_not_seated"), alert=True)
    if action == "x":
        ctx.service.finish_flow(ctx.chat_id, key)
        cancelled = ctx.t("flow_cancelled")
        return [AnswerCallback(cancelled), SendText(cancelled, edit_message_id=query.message_id)]
    return FlowStep(key, action, table, state, flow.user_id, query.message_id)
