"""An edit that no longer reads as a record (`哈哈 打错了`, or another command): what the message recorded
stands, and the reply says so and how to take it back, rather than leaving the players to think it was undone."""

from __future__ import annotations

from bot.commands._common import flow_key
from bot.commands.duplicates import question_key
from bot.core import Context, HandlerResult, registry


@registry.on_unread_edit
def record_stands(ctx: Context) -> HandlerResult:
    """Say that the message's record still counts (nothing when it recorded nothing live). A question about the
    old text — the rules' question, 「是不是」, a held-back line's 「确实又一次」 — expires: its buttons would book
    words the sender has taken back."""
    incoming = ctx.incoming
    assert incoming is not None
    for key in (flow_key(ctx), question_key(ctx)):
        ctx.service.finish_flow(ctx.chat_id, key)
    recorded = ctx.service.recorded_hand(incoming.original_source)
    if recorded is None:
        return None
    number, finished = recorded
    return ctx.reply("edit_record_stands_hand" if finished else "edit_record_stands", number=number)
