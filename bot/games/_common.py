"""What the 够级 and 碰胡 command modules share: the table check."""

from __future__ import annotations

from bot.commands._common import recording_table
from bot.core import Context, Refusal
from bot.permissions import RECORD, require_player
from bot.texts import game_name, register
from ledger.service import TableInfo

register(
    {
        "games_wrong_table": {
            "zh": "这张牌桌打的是{table_game}，这是{game}的命令。",
            "en": "This table plays {table_game}; that is a {game} command.",
        },
    }
)


def game_table(ctx: Context, game: str) -> TableInfo:
    """The chat's open table, for a record: refused unless it plays `game` and the sender plays at it (or is an
    admin)."""
    table = recording_table(ctx)
    if table.game != game:
        raise Refusal("games_wrong_table", table_game=game_name(ctx.lang, table.game), game=game_name(ctx.lang, game))
    require_player(ctx, table, RECORD)
    return table
