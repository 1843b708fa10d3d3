"""The hourly upkeep's word to the chats: a record left waiting a day (a win waiting for its 漂/马, a 胡/杠 told by
taps and never confirmed) expires with the other idle flows (`Ledger.expire_flows`), and its chat is told once, in
the group's language, that it expired and nothing was booked — a player who comes back to it would otherwise find
the hand without it and no word why. Nothing here runs on a record's path: the upkeep alone reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.texts import describe_record, register, text
from ledger.records import HOLDS_HAND, TAPPED_KINDS

if TYPE_CHECKING:
    from ledger.records import Flow
    from ledger.service import Ledger

register(
    {
        "record_expired": {
            "zh": "⌛ 第{number}局那条等回答的记录（{what}）放了一天没人答完，已经作废，没有记账。要记请重新发。",
            "en": "⌛ Hand {number}'s record waiting for answers ({what}) was left a day unanswered and has expired; "
            "nothing was booked. Send it again to record it.",
        },
        "record_expired_tapped_hu": {"zh": "{who} 胡，按钮还没确认", "en": "{who}'s win, never confirmed"},
        "record_expired_tapped_gang": {"zh": "{who} 杠，按钮还没确认", "en": "{who}'s kong, never confirmed"},
    }
)


@dataclass(frozen=True)
class Notice:
    """What the upkeep posts by itself: the text, to the chat, under the question's message when it is known."""

    chat_id: int
    text: str
    reply_to: int | None


@dataclass(frozen=True)
class Upkept:
    """An upkeep's run: how many flows it finished, and what to tell the chats."""

    expired: int
    notices: tuple[Notice, ...]


def expire(ledger: Ledger) -> Upkept:
    """Finish the flows left waiting a day: the records first, each told to its chat once (of two upkeeps at once,
    only the one that finished it tells), then the rest."""
    records = ledger.expire_records()
    notices = tuple(notice for flow in records if (notice := _notice(ledger, flow)) is not None)
    return Upkept(len(records) + ledger.expire_flows(), notices)


def _notice(ledger: Ledger, flow: Flow) -> Notice | None:
    state = flow.state
    lang = ledger.group(flow.chat_id).language
    if flow.kind in TAPPED_KINDS:
        if not state.get("who"):
            return None
        what = text(lang, f"record_expired_tapped_{flow.kind}", who=state["who"])
    else:
        what = describe_record(lang, [e for e in state.get("batch", ()) if e.get("type") in {"hu", "draw"}])
    message = state.get("message")
    number = state.get("hand" if flow.kind in TAPPED_KINDS else "number", state.get(HOLDS_HAND))
    said = text(lang, "record_expired", number=number, what=what)
    return Notice(flow.chat_id, said, int(message) if message else None)
