"""Tiles and their two spellings: tenhou notation (`123p46p`, `5z` = 白) and Chinese (`五筒`, `一二三条`, `中`).

A tile is an int 0..29: 筒 1-9 are 0-8, 条 1-9 are 9-17, 万 1-9 are 18-26, then 白 27, 发 28, 中 29.
A hand is a count vector of length 30 (`Counts`, a tuple so it can key the per-suit tables of `division`).

Input grammar (both spellings, freely mixed; spaces, commas and 、 separate nothing):
a run of numerals (`1`-`9`, `一`-`九`, full-width `１`-`９`) followed by a suit (`p s m z` or
`筒 饼 餅 条 條 索 束 万 萬`) gives one tile per numeral, so `46p`, `4p6p`, `四六筒`, `4筒6筒` are the same two
tiles; a dragon is written `5z/6z/7z` or `白 发 發 中` (also `白板 发财 發財 红中 紅中`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ledger.scoring.common import ScoringError

Tile = int
Counts = tuple[int, ...]

NUM_KINDS = 30
SUIT_LETTERS = ("p", "s", "m")
SUIT_OFFSET = {"p": 0, "s": 9, "m": 18}
SUIT_ZH = {"p": "筒", "s": "条", "m": "万"}
BAI, FA, ZHONG = 27, 28, 29
DRAGONS = (BAI, FA, ZHONG)
DRAGON_ZH = {BAI: "白", FA: "发", ZHONG: "中"}

_NUMERALS = {str(d): d for d in range(10)}
_NUMERALS.update({"零一二三四五六七八九"[d]: d for d in range(10)})
_NUMERALS["〇"] = 0
_SUIT_MARKS = {"p": "p", "s": "s", "m": "m", "z": "z"}
_SUIT_MARKS.update({c.upper(): s for c, s in list(_SUIT_MARKS.items())})
_SUIT_MARKS.update({"筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s", "束": "s", "万": "m", "萬": "m"})
#: Dragon spellings, longest first so `白板` is read before `白`.
_DRAGON_WORDS = (
    ("白板", BAI),
    ("发财", FA),
    ("發財", FA),
    ("红中", ZHONG),
    ("紅中", ZHONG),
    ("白", BAI),
    ("发", FA),
    ("發", FA),
    ("中", ZHONG),
)
_SEPARATORS = frozenset(" \t\n,，、;；|/")
_ZH_NUMERALS = "一二三四五六七八九"


def suit_of(tile: Tile) -> str:
    """`p`, `s`, `m`, or `z` for a dragon."""
    return "z" if tile >= BAI else SUIT_LETTERS[tile // 9]


def rank_of(tile: Tile) -> int:
    """1-9 for a suited tile; 5/6/7 for 白/发/中 (their tenhou digits)."""
    return tile - BAI + 5 if tile >= BAI else tile % 9 + 1


def _tile_from(digit: int, suit: str, spelled: str) -> Tile:
    if digit == 0:
        raise ScoringError("bad_tiles", "no_red_five", f"「{spelled}」：卡五星没有红五（0），五就写 5", spelled=spelled)
    if suit == "z":
        if digit in (5, 6, 7):
            return BAI + digit - 5
        if digit in (1, 2, 3, 4):
            raise ScoringError(
                "bad_tiles",
                "no_winds",
                f"「{spelled}」：卡五星没有东南西北风，字牌只有 5z 白、6z 发、7z 中",
                spelled=spelled,
            )
        raise ScoringError(
            "bad_tiles", "no_such_honor", f"「{spelled}」：没有这张字牌，字牌只有 5z 白、6z 发、7z 中", spelled=spelled
        )
    return SUIT_OFFSET[suit] + digit - 1


def parse_tiles(text: str, suits: Iterable[str] | None = None) -> list[Tile]:
    """Read a run of tiles in either spelling; `bad_tiles` names the first thing that is not a tile.

    `suits` (the rules' two suits) refuses tiles of the third suit. More than four copies of one tile in
    `text` is refused here; copies spread over a hand and its melds are checked by the caller.
    """
    if not isinstance(text, str):
        raise ScoringError(
            "bad_request", "tiles_not_text", f'牌应写成字符串，例如 "123p46p"，收到的是 {text!r}', value=repr(text)
        )
    text = unicodedata.normalize("NFKC", text)  # full-width ５ｐ as typed on a phone
    tiles: list[Tile] = []
    pending: list[tuple[int, str]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in _NUMERALS:
            pending.append((_NUMERALS[ch], ch))
            i += 1
            continue
        if ch in _SUIT_MARKS:
            suit = _SUIT_MARKS[ch]
            if not pending:
                raise ScoringError(
                    "bad_tiles",
                    "suit_without_rank",
                    f"「{text}」第 {i + 1} 个字符「{ch}」前面缺少点数",
                    text=text,
                    position=i + 1,
                    char=ch,
                )
            tiles.extend(_tile_from(d, suit, spelled + ch) for d, spelled in pending)
            pending = []
            i += 1
            continue
        if ch in _SEPARATORS:
            i += 1
            continue
        word = next(((w, t) for w, t in _DRAGON_WORDS if text.startswith(w, i)), None)
        if word is None:
            raise ScoringError(
                "bad_tiles",
                "not_a_tile",
                f"「{text}」里的「{ch}」不是牌（可写 123p、5z，或 五筒、5条、中 等）",
                text=text,
                char=ch,
            )
        if pending:
            numerals = "".join(s for _, s in pending)
            raise ScoringError(
                "bad_tiles", "rank_without_suit", f"「{numerals}」后面缺少花色（p/s/m 或 筒/条/万）", text=numerals
            )
        tiles.append(word[1])
        i += len(word[0])
    if pending:
        numerals = "".join(s for _, s in pending)
        raise ScoringError(
            "bad_tiles",
            "ends_without_suit",
            f"「{text}」结尾的「{numerals}」缺少花色（p/s/m 或 筒/条/万）",
            text=text,
            rest=numerals,
        )
    check_suits(tiles, suits)
    check_copies(counts_of(tiles))
    return tiles


def parse_tile(text: str, suits: Iterable[str] | None = None) -> Tile:
    """Exactly one tile (a winning tile, a meld's tile)."""
    tiles = parse_tiles(text, suits)
    if len(tiles) != 1:
        raise ScoringError(
            "bad_tiles",
            "not_one_tile",
            f"「{text}」应该是一张牌，读出来是 {len(tiles)} 张",
            text=text,
            count=len(tiles),
        )
    return tiles[0]


def check_suits(tiles: Iterable[Tile], suits: Iterable[str] | None) -> None:
    if suits is None:
        return
    allowed = set(suits)
    for tile in tiles:
        suit = suit_of(tile)
        if suit != "z" and suit not in allowed:
            used = "、".join(SUIT_ZH[s] for s in SUIT_LETTERS if s in allowed)
            raise ScoringError(
                "bad_tiles",
                "suit_not_played",
                f"{tile_zh(tile)}（{tile_notation(tile)}）：本局只用{used}两门，没有{SUIT_ZH[suit]}",
                tile=tile_notation(tile),
                suits=[s for s in SUIT_LETTERS if s in allowed],
                suit=suit,
            )


def check_copies(counts: Sequence[int]) -> None:
    """A tile exists four times; a fifth copy is a typo somewhere."""
    for tile, n in enumerate(counts):
        if n > 4:
            raise ScoringError(
                "bad_tiles",
                "fifth_tile",
                f"{tile_zh(tile)}（{tile_notation(tile)}）有 {n} 张，每种牌只有 4 张",
                tile=tile_notation(tile),
                count=n,
            )


def counts_of(tiles: Iterable[Tile]) -> Counts:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return tuple(counts)


def tiles_of(counts: Sequence[int]) -> list[Tile]:
    return [tile for tile, n in enumerate(counts) for _ in range(n)]


def tile_notation(tile: Tile) -> str:
    """`5p`, `7z`."""
    return f"{rank_of(tile)}{suit_of(tile)}"


def tile_zh(tile: Tile) -> str:
    """`五筒`, `中`."""
    if tile >= BAI:
        return DRAGON_ZH[tile]
    return _ZH_NUMERALS[tile % 9] + SUIT_ZH[suit_of(tile)]


def _groups(tiles: Iterable[Tile]) -> list[tuple[str, list[Tile]]]:
    by_suit: dict[str, list[Tile]] = {}
    for tile in sorted(tiles):
        by_suit.setdefault(suit_of(tile), []).append(tile)
    return list(by_suit.items())


def format_notation(tiles: Iterable[Tile]) -> str:
    """Sorted, one suit letter per suit: `123p46p` reads back as `12346p`."""
    return "".join("".join(str(rank_of(t)) for t in group) + suit for suit, group in _groups(tiles))


def format_zh(tiles: Iterable[Tile]) -> str:
    """Sorted, one suit word per suit: `一二三四六筒 七八九条 白发中`."""
    words = []
    for suit, group in _groups(tiles):
        if suit == "z":
            words.append("".join(DRAGON_ZH[t] for t in group))
        else:
            words.append("".join(_ZH_NUMERALS[t % 9] for t in group) + SUIT_ZH[suit])
    return " ".join(words)
