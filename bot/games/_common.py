"""What the 够级 and 碰胡 command modules share: the table check, edit-aware booking, per-seat change lines."""

from __future__ import annotations

from typing import Any

from bot.commands._common import change_lines, current_table, net_by_member
from bot.core import Context, Refusal
from bot.texts import game_name, register

register(
    {
        "games_wrong_table": {
            "zh": "这张牌桌打的是{table_game}，这是{game}的命令。",
            "en": "This table plays {table_game}; that is a {game} command.",
        },
    }
)


def game_table(ctx: Context, game: str) -> Any:
    """The chat's open table, refused unless it plays `game`."""
    table = current_table(ctx)
    if table.game != game:
        raise Refusal("games_wrong_table", table_game=game_name(ctx.lang, table.game), game=game_name(ctx.lang, game))
    return table


def record(ctx: Context, table: Any, events: list[dict[str, Any]], *, source: str | None = None) -> tuple[Any, bool]:
    """Book events on the open hand: (the ledger's HandResult, whether this replaced an edited message's record).

    An edited message replaces what its first version recorded; a first version that was refused (and so
    recorded nothing) is simply recorded now.
    """
    from ledger.service import LedgerError

    incoming = ctx.incoming
    if source is None and incoming is not None and incoming.edited:
        try:
            result = ctx.service.replace_hand(
                incoming.original_source, events, source=ctx.source, by=ctx.sender.user_id, reason="edit"
            )
            return result, True
        except LedgerError as err:
            if err.code != "nothing_to_edit":
                raise
    result = ctx.service.record_events(table.id, events, source=source or ctx.source, by=ctx.sender.user_id)
    return result, False


def money_lines(ctx: Context, table: Any, result: Any) -> list[str]:
    """Each seat's change from this booking and their night balance."""
    changes = net_by_member(result.booked, result.voided)
    return change_lines(ctx, table, changes) if changes else []
