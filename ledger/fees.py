"""Table fees (台费 / 茶水 / 抽水): money the players pay the room, booked to the group's house account.

Two kinds, set per group by its admins (`fee_settings`), either or both:
- 台费 (`night_fee`): a fixed amount each player pays per night, booked when the night is settled (结算, or the
  日切 that closes it) from everyone who sat at a table of the night with at least one finished hand, so a player
  who joined late pays once and one who only watched pays nothing. The night's settlement then includes it.
- 抽水 (the cut): from each player who comes out ahead on a hand's ending event (a win; a 够级 round), either a
  fixed amount (at most the gain) or a percentage of the gain (rounded down to the 分), at most the cap. It is a
  transfer of its own (kind `fee`, reason `choushui`) from the winner to the house, booked in the same transaction
  as the hand's money and tied to the same event, so an undo, a void or an edit of the hand takes it back with it.
  Kong money and a draw's 亮倒 penalty are not wins: no cut.

The house account is created the first time an admin sets a fee; the pot's rules apply to it: nobody sits as it,
admins pay it out (`付台费`). A change of the settings applies to fees booked afterwards; an unchanged hand keeps the
cut it was booked with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from ledger import models as m
from ledger import transfers
from ledger.accounts import HOUSE_NAME, MAX_AMOUNT, group_by_chat, lock_group
from ledger.errors import LedgerError
from ledger.records import Replayable
from ledger.unit import Tx

#: transfer reasons: the per-night table fee and the cut of a win
NIGHT_FEE, CUT = "taifei", "choushui"
#: the highest percentage a cut may take
MAX_PERCENT = 50


@dataclass(frozen=True)
class Fees(Replayable):
    """A group's fee settings (0: no such fee; `cut_cap` None: no cap)."""

    night_fee: int = 0
    cut_fixed: int = 0
    cut_percent: int = 0
    cut_cap: int | None = None

    @property
    def any(self) -> bool:
        return bool(self.night_fee or self.cut_fixed or self.cut_percent)

    def values(self) -> dict[str, int | None]:
        return {
            "night_fee": self.night_fee,
            "cut_fixed": self.cut_fixed,
            "cut_percent": self.cut_percent,
            "cut_cap": self.cut_cap,
        }


def cut_of(gain: int, fees: Fees) -> int:
    """The cut of a win of `gain` 分: fixed (never more than the gain) or a percentage rounded down, capped."""
    if gain <= 0:
        return 0
    cut = min(fees.cut_fixed, gain) if fees.cut_fixed else gain * fees.cut_percent // 100
    return min(cut, fees.cut_cap) if fees.cut_cap is not None else cut


def cuts(gains: Mapping[str, int], fees: Fees) -> list[tuple[str, int]]:
    """(player, cut) for each player ahead on an ending event, in name order; players whose cut is 0 left out."""
    return [(player, cut) for player, gain in sorted(gains.items()) if (cut := cut_of(gain, fees)) > 0]


_SETTINGS = sa.select(
    m.FeeSettings.night_fee, m.FeeSettings.cut_fixed, m.FeeSettings.cut_percent, m.FeeSettings.cut_cap
).where(m.FeeSettings.group_id == sa.bindparam("group_id"))
_HOUSE = sa.select(m.Member.id).where(m.Member.group_id == sa.bindparam("group_id"), m.Member.kind == m.HOUSE)


def settings(on: Tx | Session, group_id: int) -> Fees:
    row = on.execute(_SETTINGS, {"group_id": group_id}).first()
    return Fees(*row) if row is not None else Fees()


def house_id(on: Tx | Session, group_id: int) -> int | None:
    """The group's house account (None until an admin first sets a fee)."""
    return on.execute(_HOUSE, {"group_id": group_id}).scalar()


def fees_of_chat(tx: Tx, chat_id: int) -> Fees:
    return settings(tx, group_by_chat(tx.session, chat_id).id)


def set_fees(tx: Tx, chat_id: int, changes: Mapping[str, int | None]) -> Fees:
    """Change some of the group's fee settings (keys of `Fees`); creates the house account on first use. Setting a
    fixed cut clears a percentage one and the other way round (one kind of cut at a time)."""
    session = tx.session
    group = group_by_chat(session, chat_id)
    lock_group(session, group.id)
    old = settings(tx, group.id)
    values = {**old.values(), **changes}
    if changes.get("cut_fixed"):
        values["cut_percent"] = 0
    if changes.get("cut_percent"):
        values["cut_fixed"] = 0
    new = Fees(**values)  # type: ignore[arg-type]  # checked just below
    for amount in (new.night_fee, new.cut_fixed, new.cut_cap or 0):
        if not isinstance(amount, int) or not 0 <= amount <= MAX_AMOUNT:
            raise LedgerError("bad_amount", f"金额必须在 0 到 {MAX_AMOUNT // 100} 元之间")
    if not 0 <= new.cut_percent <= MAX_PERCENT:
        raise LedgerError("bad_percent", f"抽水比例必须在 0 到 {MAX_PERCENT}% 之间")
    if new.cut_cap == 0:
        new = Fees(new.night_fee, new.cut_fixed, new.cut_percent, None)
    found = session.get(m.FeeSettings, group.id)
    if found is None:
        found = m.FeeSettings(group_id=group.id)
        session.add(found)
    found.night_fee, found.cut_fixed, found.cut_percent, found.cut_cap = (
        new.night_fee,
        new.cut_fixed,
        new.cut_percent,
        new.cut_cap,
    )
    found.updated_at, found.updated_by = tx.now, tx.by
    if new.any and house_id(tx, group.id) is None:
        session.add(m.Member(group_id=group.id, kind=m.HOUSE, display_name=HOUSE_NAME, balance=0, created_at=tx.now))
    session.add(
        m.SettingChange(
            group_id=group.id,
            changes={"fees": {"old": old.values(), "new": new.values()}},
            changed_by=tx.by,
            changed_at=tx.now,
            source=tx.source[:200],
        )
    )
    session.flush()
    return new


_NIGHT_PLAYERS = (
    sa.select(m.Seat.member_id)
    .join(m.GameTable, m.GameTable.id == m.Seat.table_id)
    .where(
        m.GameTable.night_id == sa.bindparam("night_id"),
        sa.exists().where(m.Hand.table_id == m.GameTable.id, m.Hand.status == m.CLOSED),
    )
    .distinct()
)


def book_night_fees(tx: Tx, group_id: int, night_id: int, movement: transfers.Movement) -> list[dict[str, object]]:
    """台费 for a night being closed: each player of a finished hand of the night pays the house `night_fee`
    (nothing without a fee, or before any hand finished). Returns the rows inserted (their money in `movement`)."""
    fees = settings(tx, group_id)
    house = house_id(tx, group_id) if fees.night_fee else None
    if house is None:
        return []
    players = sorted(tx.execute(_NIGHT_PLAYERS, {"night_id": night_id}).scalars())
    rows = [
        transfers.new_row(tx, group_id, player, house, fees.night_fee, NIGHT_FEE, m.FEE, night_id=night_id)
        for player in players
    ]
    transfers.insert(tx, rows, movement)
    return rows
