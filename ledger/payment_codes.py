"""收款码: members' payment QR pictures (WeChat, Alipay), kept as the chat service's file id of the photo, never
the picture itself. One code per member and app (`any` when the member did not say which); registering again
replaces it; only its owner removes it, and a removed code is deleted (it is the member's, not the ledger's)."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from ledger import models as m
from ledger.accounts import get_member
from ledger.errors import LedgerError
from ledger.unit import Tx

#: the apps a code may be for ("any": not said)
APPS = ("wechat", "alipay", "any")
#: Telegram's file ids are well under 100 characters; anything longer is not one
MAX_FILE_ID = 256


def register(tx: Tx, member_id: int, app: str, file_id: str) -> str:
    """Store (or replace) a member's code for `app`; returns the app."""
    if app not in APPS:
        raise LedgerError("bad_app", f"收款码只能是微信或支付宝，不是 {app!r}")
    if not file_id or len(file_id) > MAX_FILE_ID or not file_id.isprintable() or not file_id.isascii():
        raise LedgerError("bad_file_id", "这不是一张能保存的图片")
    member = get_member(tx.session, member_id)
    if member.kind != m.MEMBER or member.linked_to_id is not None:
        raise LedgerError("bad_member", f"{member.name} 不能登记收款码")
    found = tx.session.scalar(
        sa.select(m.PaymentCode).where(m.PaymentCode.member_id == member_id, m.PaymentCode.app == app)
    )
    if found is None:
        tx.session.add(m.PaymentCode(member_id=member_id, app=app, file_id=file_id, created_at=tx.now))
    else:
        found.file_id, found.created_at = file_id, tx.now
    tx.session.flush()
    return app


def remove(tx: Tx, member_id: int, app: str | None) -> int:
    """Delete a member's code for `app` (None: all of theirs); returns how many were removed."""
    query = sa.delete(m.PaymentCode).where(m.PaymentCode.member_id == member_id)
    if app is not None:
        query = query.where(m.PaymentCode.app == app)
    return int(tx.execute(query).rowcount or 0)


def codes(tx: Tx, group_id: int, member_ids: Iterable[int]) -> dict[int, list[tuple[str, str]]]:
    """The codes of those of `member_ids` in the group that have any: member id -> [(app, file id)] in app order."""
    wanted = list(set(member_ids))
    if not wanted:
        return {}
    found: dict[int, list[tuple[str, str]]] = {}
    for member_id, app, file_id in tx.execute(
        sa.select(m.PaymentCode.member_id, m.PaymentCode.app, m.PaymentCode.file_id)
        .join(m.Member, m.Member.id == m.PaymentCode.member_id)
        .where(m.Member.group_id == group_id, m.PaymentCode.member_id.in_(wanted))
        .order_by(m.PaymentCode.member_id, m.PaymentCode.id)
    ):
        found.setdefault(member_id, []).append((app, file_id))
    for items in found.values():
        items.sort(key=lambda item: APPS.index(item[0]))
    return found
