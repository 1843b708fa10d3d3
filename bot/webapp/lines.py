"""What a tap means in chat words: the line a player would type for a win, a kong, 亮倒, 荒庄, 撤销 or 结算.

The Mini App books nothing itself. It turns the tapped tiles and choices into the line a player would type
(`胡 @小李 123p46p789s22s333s 5p 点 @老王`) and hands that line to the command layer, which reads, checks and
books it exactly as it would a chat message. Players are written `@<seat name>`, which the grammar resolves
to that seat before anything else; a seat name that would not survive as one word falls back to the member's
@username, and failing that the tap is refused with a clear reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.core import Refusal
from bot.grammar import SITUATION_METHOD, tokens
from bot.vocabulary import SITUATIONS
from ledger.scoring.kawuxing.patterns import METHODS
from ledger.scoring.tiles import SUIT_ZH, format_notation, parse_tile

if TYPE_CHECKING:
    from ledger.service import MemberInfo, TableInfo

#: one tile as the page sends it: tenhou notation, a single tile
TILE = re.compile(r"^(?:[1-9][psm]|[5-7]z)$")
MELD_KINDS = ("peng", "zhigang", "xugang", "angang")
KONG_KINDS = ("angang", "xugang", "zhigang")
#: a meld kind -> the word that writes it inside a win (`碰 3s`) and a kong kind -> the word after 杠 (`杠 @甲 暗`)
MELD_WORD = {"peng": "碰", "zhigang": "直杠", "xugang": "蓄杠", "angang": "暗杠"}
KONG_WORD = {"angang": "暗", "xugang": "蓄", "zhigang": "直"}
METHOD_WORD = {"self_draw": "自摸", "discard": "点", "rob_kong": "抢杠"}
#: situation key -> the first word the grammar reads it from (杠上开花, 杠上炮, 海底捞), and the methods it goes with
SITUATION_WORD = {key: spellings[0] for key, spellings in SITUATIONS.items()}
MAX_CONCEALED = 14
MAX_MELDS = 4


@dataclass(frozen=True)
class TappedWin:
    """A win as tapped: concealed tiles in tap order, melds, the winning tile (None until the 14th tile)."""

    winner: str
    concealed: tuple[str, ...]
    melds: tuple[tuple[str, str], ...]  # (kind, tile)
    win_tile: str | None
    method: str
    discarder: str | None
    situations: tuple[str, ...]

    @property
    def count(self) -> int:
        """Tiles placed, a meld counting three (a kong's fourth tile is the one it draws back)."""
        return len(self.concealed) + 3 * len(self.melds) + (self.win_tile is not None)


# --------------------------------------------------------------------------------------------------- reading


def _text(body: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    value = body.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 64:
        raise Refusal("web_bad_request", what=key)
    return value


def _seat(table: TableInfo, body: Mapping[str, Any], key: str, *, optional: bool = False) -> str | None:
    name = _text(body, key, optional=optional)
    if name is not None and name not in table.players:
        raise Refusal("web_not_seated_player", name=name)
    return name


def _tile(table: TableInfo, value: object) -> str:
    suits = tuple(table.rules.get("suits", ("p", "s")))
    if not isinstance(value, str) or not TILE.match(value):
        raise Refusal("web_bad_request", what="tile")
    if value[1] != "z" and value[1] not in suits:
        raise Refusal("web_bad_tile", tile=value, suits="".join(SUIT_ZH[s] for s in suits))
    parse_tile(value, suits)
    return value


def _list(body: Mapping[str, Any], key: str, limit: int) -> list[Any]:
    value = body.get(key, [])
    if not isinstance(value, list) or len(value) > limit:
        raise Refusal("web_bad_request", what=key)
    return value


def read_win(table: TableInfo, body: Mapping[str, Any]) -> TappedWin:
    """The tapped win in a request body, every field checked and bounded (nothing else is read)."""
    winner = _seat(table, body, "winner")
    assert winner is not None
    concealed = tuple(_tile(table, tile) for tile in _list(body, "concealed", MAX_CONCEALED))
    melds = []
    for meld in _list(body, "melds", MAX_MELDS):
        if not isinstance(meld, dict) or meld.get("kind") not in MELD_KINDS:
            raise Refusal("web_bad_request", what="melds")
        melds.append((str(meld["kind"]), _tile(table, meld.get("tile"))))
    win_tile = body.get("win_tile")
    method = body.get("method")
    if method not in METHODS:
        raise Refusal("web_bad_request", what="method")
    discarder = _seat(table, body, "from", optional=True) if method != "self_draw" else None
    situations = tuple(dict.fromkeys(_list(body, "situations", len(SITUATION_WORD))))
    if any(key not in SITUATION_WORD or SITUATION_METHOD[key] != method for key in situations):
        raise Refusal("web_bad_request", what="situations")
    win = TappedWin(
        winner=winner,
        concealed=concealed,
        melds=tuple(melds),
        win_tile=None if win_tile is None else _tile(table, win_tile),
        method=str(method),
        discarder=discarder,
        situations=situations,
    )
    if win.count > MAX_CONCEALED:
        raise Refusal("web_too_many_tiles", count=win.count)
    return win


# --------------------------------------------------------------------------------------------------- writing


def seat_tokens(table: TableInfo, members: Sequence[MemberInfo]) -> dict[str, str]:
    """Seat name -> the word naming that seat in a line; a seat that cannot be named maps to "" (refused when
    used). `@<seat name>` resolves to the seat itself; the fallback `@username` resolves through the member."""
    folded = [seat.name.casefold() for seat in table.seats]
    usernames = {member.id: member.username for member in members if member.username}
    out: dict[str, str] = {}
    for seat in table.seats:
        word = f"@{seat.name}"
        if tokens(word) == [word] and folded.count(seat.name.casefold()) == 1:
            out[seat.name] = word
            continue
        username = usernames.get(seat.member_id)
        clash = username is not None and username.casefold() in folded
        out[seat.name] = f"@{username}" if username and not clash else ""
    return out


def _who(words: Mapping[str, str], seat: str) -> str:
    word = words.get(seat, "")
    if not word:
        raise Refusal("web_untypable_name", name=seat)
    return word


def win_line(win: TappedWin, words: Mapping[str, str]) -> str:
    """`胡 @甲 碰 3s 123p46p789s22s 5p 点 @乙 杠上炮`: melds, the concealed tiles, the winning tile, how."""
    if win.win_tile is None:
        raise Refusal("web_win_tile_missing", missing=MAX_CONCEALED - win.count)
    parts = ["胡", _who(words, win.winner)]
    for kind, tile in win.melds:
        parts += [MELD_WORD[kind], tile]
    if win.concealed:
        parts.append(format_notation(parse_tile(tile) for tile in win.concealed))
    parts.append(win.win_tile)
    parts.append(METHOD_WORD[win.method])
    if win.method != "self_draw":
        if win.discarder is None:
            raise Refusal("web_discarder_missing", what=METHOD_WORD[win.method])
        parts.append(_who(words, win.discarder))
    parts += [SITUATION_WORD[key] for key in win.situations]
    return " ".join(parts)


def kong_line(table: TableInfo, body: Mapping[str, Any], words: Mapping[str, str]) -> str:
    """`杠 @甲 直 9p 点 @乙 杠上杠` from a tapped kong (player, kind, optional tile, discarder, chain)."""
    player = _seat(table, body, "player")
    assert player is not None
    kind = body.get("kind")
    if kind not in KONG_KINDS:
        raise Refusal("web_bad_request", what="kind")
    parts = ["杠", _who(words, player), KONG_WORD[str(kind)]]
    if body.get("tile") is not None:
        parts.append(_tile(table, body["tile"]))
    if kind == "zhigang":
        discarder = _seat(table, body, "from", optional=True)
        if discarder is None:
            raise Refusal("web_discarder_missing", what="点杠")
        parts += ["点", _who(words, discarder)]
    if body.get("chain") is True:
        parts.append("杠上杠")
    return " ".join(parts)


def liangdao_line(table: TableInfo, body: Mapping[str, Any], words: Mapping[str, str]) -> str:
    player = _seat(table, body, "player")
    assert player is not None
    return f"亮倒 {_who(words, player)}"


#: lines that need nothing but the word
PLAIN_LINES = {"draw": "荒庄", "undo": "撤销", "settle": "结算"}
