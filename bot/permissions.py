"""Who may do what at a table: one policy for typed lines, buttons and the Mini App (which types lines too).

Identity is Telegram's: a sender's user id (`Sender.user_id`), matched against the ids seated at the table and the
chat's administrators as Telegram reports them (`Context.admin_ids`, the owner included). Display names, 名片 and
guests' names are labels: they never grant anything.

- **Record** (a kong, 亮倒, a win, a draw; 够级 and 碰胡 events), **undo** (撤销), **settle** the night (结算) and
  **open a table over a running one** (开桌 while a table is open): the players seated at the open table and the
  admins. With no table open, anyone may open one; settling a night that has no open table is for admins.
- **Buttons** under a table's messages (the 胡/杠 flows, 「就是这个」): the same people, whoever started them.
- **A question someone asked for themselves** (撤销's 「确认撤销」/「不撤销」, a record or a payment held back as a
  repeat): only whoever asked it, and the admins (`may_answer`). Another player's press would decide for them (a
  third player's 「确实又一次」 would book someone else's line twice).
- **Undo asks first** when it would take back a record somebody else made, or reach into a finished hand (the
  ending of the hand before the one in progress, which reopens it; `撤销 第N局`, which voids a whole hand): the
  reply names the record and whoever asked (or an admin) confirms with a button.
- **Payments** (「已付」/「收到」 under a settlement, 付, 收到, 撤销付款): the two people concerned and the admins.
  A typed payment always names the sender as one side; a button names its side (the line's payer for 「已付」, its
  payee for 「收到」), and only that person or an admin may press it. The line's other person pressing it is told
  which button is theirs (the payer can never say the payee received it); an admin pressing for someone else is
  recorded as the admin (`confirmed_by`, `created_by`) and the reply says so (「管理员 甲 代 乙 …」).
- **A player's 漂** (选漂, 首局定漂: the stake they put on the hand, which each payment with them carries): only that
  player and the admins tell it — typed (`漂 2`, `漂 @乙 1`, `改成 漂 @乙 2`) or pressed under the question that
  asks it (`may_tell_piao`). Another player's `漂 @乙 5` would raise what 乙 pays without 乙 ever saying it; a guest's
  seat (no Telegram account to answer) is told by anyone seated.
- **Admin-only commands** (设置, 群规 and the like) are marked on the command (`Command.admin_only`) and checked by
  the dispatcher before the handler runs.

A refusal says who may and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bot.core import Context, Refusal

if TYPE_CHECKING:
    from ledger.service import MemberInfo, TableInfo, TableRecord

#: actions at a table, for the refusal's wording (the keys of `bot.texts` `action_*`)
RECORD, UNDO, SETTLE, REOPEN = "record", "undo", "settle", "reopen"


def plays_at(ctx: Context, table: TableInfo) -> bool:
    """The sender sits at `table` (by Telegram id) or is an admin of the chat."""
    return ctx.is_admin or table.seat_of_user(ctx.sender.user_id) is not None


def require_player(ctx: Context, table: TableInfo | None, action: str) -> None:
    """Refuse `action` unless the sender plays at `table` or is an admin; with no table, unless an admin."""
    if ctx.is_admin or (table is not None and table.seat_of_user(ctx.sender.user_id) is not None):
        return
    raise Refusal("players_only", action=ctx.t(f"action_{action}"))


def require_party(ctx: Context, member_id: int, other_id: int, wrong_button: str) -> MemberInfo | None:
    """Refuse a payment's button unless the sender is the account `member_id` (by Telegram id) or an admin; the
    line's other person (`other_id`) is refused with `wrong_button`, admin or not. Returns the admin's account when
    an admin presses for someone else (None: the person pressed it)."""
    sender = ctx.service.member(ctx.chat_id, ctx.sender.user_id, ctx.sender.name, ctx.sender.username)
    if sender.id == member_id:
        return None
    if sender.id == other_id:
        raise Refusal(wrong_button)
    if not ctx.is_admin:
        raise Refusal("payment_not_party")
    return sender


def may_answer(ctx: Context, asked_by: int | None) -> bool:
    """The sender may answer a question `asked_by` asked (by Telegram id): they asked it, or they are an admin."""
    return ctx.is_admin or ctx.sender.user_id == asked_by


def require_to_open(ctx: Context) -> None:
    """开桌: anyone when no table is open; over a running table, its players and the admins."""
    if ctx.table is not None:
        require_player(ctx, ctx.table, REOPEN)


def undo_needs_confirmation(ctx: Context, record: TableRecord) -> bool:
    """Taking back `record` asks first: it ended a finished hand, or someone else recorded it."""
    return record.finished or record.recorded_by != ctx.sender.user_id


def may_tell_piao(ctx: Context, table: TableInfo, player: str) -> bool:
    """Whether the sender may tell `player`'s 漂: their own seat (by Telegram id), any seat for an admin, a guest's
    seat (nobody else could answer for it) for anyone seated."""
    return ctx.is_admin or table.seat_of_user(ctx.sender.user_id) == player or guest_seat(table, player)


def guest_seat(table: TableInfo, player: str) -> bool:
    """A seat with no Telegram account behind it (a guest): nobody can answer for it but the others at the table."""
    return any(seat.name == player and seat.user_id is None for seat in table.seats)


def require_own_piao(ctx: Context, table: TableInfo, players: Iterable[str]) -> None:
    """Refuse a 漂 line (or press) naming anyone whose 漂 the sender may not tell (`may_tell_piao`): the whole line,
    nothing kept, the refusal naming that player and how they tell it."""
    other = next((player for player in players if not may_tell_piao(ctx, table, player)), None)
    if other is not None:
        refusal = Refusal("piao_not_yours", name=other)
        refusal.heard = True  # said too to a line read unprompted (`漂错了 老王漂5`): it reads as nothing else
        raise refusal
