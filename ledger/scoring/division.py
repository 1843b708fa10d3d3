"""Winning-hand detection and every reading of a hand, from per-suit tables.

A suit of a hand is a 9-count vector; there are few distinct ones in play, so each one's decompositions into
sets (pung 111, sequence 123) and at most one pair are enumerated once, the first time it is seen, and cached.
Checking or reading a hand is then a handful of dictionary lookups and one small product — no search.

Dragons (白 发 中) only form pungs and pairs: a 3-count vector with a fixed table.
A concealed part holds 14 − 3·(declared melds) tiles when it wins; declared melds never enter the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ledger.scoring.tiles import BAI, NUM_KINDS, Counts, Tile

#: A decomposition of a concealed part: (pair tile or -1, pung tiles, sequence start tiles), global tile ids.
Division = tuple[Tile, tuple[Tile, ...], tuple[Tile, ...]]

SUIT_STARTS = (0, 9, 18)
#: Table values: the low two bits say whether the shape splits into sets (1) or sets and one pair (2), 0 if
#: neither; bit 4 says every count is even (a seven-pairs candidate; a four counts as two pairs).
_SETS, _SETS_AND_PAIR, _ALL_EVEN = 1, 2, 4


def _set_splits(shape: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """All ways to split a 9-count shape into pungs and sequences (ranks 0-8); cold path, recursion is fine."""
    found = _SPLIT_CACHE.get(shape)
    if found is not None:
        return found
    lowest = next((r for r, n in enumerate(shape) if n), None)
    if lowest is None:
        found = [((), ())]
    else:
        found = []
        counts = list(shape)
        if counts[lowest] >= 3:
            counts[lowest] -= 3
            found += [((lowest, *pungs), chows) for pungs, chows in _set_splits(tuple(counts))]
            counts[lowest] += 3
        if lowest <= 6 and counts[lowest + 1] and counts[lowest + 2]:
            for r in (lowest, lowest + 1, lowest + 2):
                counts[r] -= 1
            found += [(pungs, (lowest, *chows)) for pungs, chows in _set_splits(tuple(counts))]
        # pung-then-sequence and sequence-then-pung of the lowest tile can reach the same split
        found = list(dict.fromkeys((tuple(sorted(p)), tuple(sorted(c))) for p, c in found))
    _SPLIT_CACHE[shape] = found
    return found


_SPLIT_CACHE: dict[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _suit_divisions(shape: tuple[int, ...], start: int) -> tuple[Division, ...]:
    """Every decomposition of one suit's shape (with the pair if its size is 2 mod 3), in global tile ids."""
    size = sum(shape)
    if size % 3 == 1:
        return ()
    if size % 3 == 0:
        pairs: list[int] = [-1]
    else:
        pairs = [r for r, n in enumerate(shape) if n >= 2]
    out: list[Division] = []
    for pair in pairs:
        rest = list(shape)
        if pair >= 0:
            rest[pair] -= 2
        for pungs, chows in _set_splits(tuple(rest)):
            out.append(
                (
                    -1 if pair < 0 else start + pair,
                    tuple(start + r for r in pungs),
                    tuple(start + r for r in chows),
                )
            )
    return tuple(out)


class _DivisionTable(dict[tuple[int, ...], tuple[Division, ...]]):
    """shape -> decompositions for the suit starting at `start`; filled on first sight of a shape."""

    def __init__(self, start: int) -> None:
        super().__init__()
        self.start = start

    def __missing__(self, shape: tuple[int, ...]) -> tuple[Division, ...]:
        divisions = _suit_divisions(shape, self.start)
        self[shape] = divisions
        return divisions


class _StatusTable(dict[tuple[int, ...], int]):
    """shape -> status bits (see `_SETS`); one table serves all three suits (status ignores the suit)."""

    def __missing__(self, shape: tuple[int, ...]) -> int:
        status = 0
        if _suit_divisions(shape, 0):
            status = _SETS_AND_PAIR if sum(shape) % 3 == 2 else _SETS
        if all(n % 2 == 0 for n in shape):
            status |= _ALL_EVEN
        self[shape] = status
        return status


def _dragon_status(shape: tuple[int, int, int]) -> int:
    pairs = shape.count(2)
    ok = all(n in (0, 2, 3) for n in shape) and pairs <= 1
    status = (_SETS_AND_PAIR if pairs else _SETS) if ok else 0
    if all(n % 2 == 0 for n in shape):
        status |= _ALL_EVEN
    return status


_STATUS = _StatusTable()
_DIVISIONS = tuple(_DivisionTable(start) for start in SUIT_STARTS)
_DRAGON_STATUS: dict[tuple[int, ...], int] = {
    (a, b, c): _dragon_status((a, b, c)) for a in range(5) for b in range(5) for c in range(5)
}


def is_standard_win(counts: Counts) -> bool:
    """Four sets and a pair (the concealed part; declared melds are sets already)."""
    status = _STATUS
    return (status[counts[0:9]] & 3) * (status[counts[9:18]] & 3) * (status[counts[18:27]] & 3) * (
        _DRAGON_STATUS[counts[27:30]] & 3
    ) == 2


def is_seven_pairs(counts: Counts) -> bool:
    """Seven pairs (七对): 14 concealed tiles, every count even (a four is two pairs)."""
    status = _STATUS
    return bool(
        status[counts[0:9]] & status[counts[9:18]] & status[counts[18:27]] & _DRAGON_STATUS[counts[27:30]] & _ALL_EVEN
    ) and (sum(counts) == 14)


def is_win(counts: Counts, melds: int = 0) -> bool:
    """Does this concealed part (with `melds` declared melds beside it) form a winning hand?"""
    status = _STATUS
    a = status[counts[0:9]]
    b = status[counts[9:18]]
    c = status[counts[18:27]]
    d = _DRAGON_STATUS[counts[27:30]]
    if (a & 3) * (b & 3) * (c & 3) * (d & 3) == 2:
        return True
    return not melds and bool(a & b & c & d & _ALL_EVEN) and sum(counts) == 14


def standard_divisions(counts: Counts) -> list[Division]:
    """Every decomposition of a concealed part into sets and exactly one pair; [] if there is none."""
    if not is_standard_win(counts):
        return []
    dragon_pair = -1
    dragon_pungs: list[Tile] = []
    for tile in range(BAI, NUM_KINDS):
        if counts[tile] == 2:
            dragon_pair = tile
        elif counts[tile] == 3:
            dragon_pungs.append(tile)
    per_suit = [table[counts[start : start + 9]] for table, start in zip(_DIVISIONS, SUIT_STARTS, strict=True)]
    if len(per_suit[0]) == len(per_suit[1]) == len(per_suit[2]) == 1:
        combos: Sequence[tuple[Division, ...]] = [(per_suit[0][0], per_suit[1][0], per_suit[2][0])]
    else:
        combos = list(product(*per_suit))
    out: list[Division] = []
    for combo in combos:
        pair = dragon_pair
        pungs: list[Tile] = []
        chows: list[Tile] = []
        for suit_pair, suit_pungs, suit_chows in combo:
            if suit_pair >= 0:
                pair = suit_pair
            pungs += suit_pungs
            chows += suit_chows
        out.append((pair, (*pungs, *dragon_pungs), tuple(chows)))
    return out


def waits(concealed: Counts, melds: int = 0, held: Counts | None = None) -> list[Tile]:
    """The tiles that complete a ready hand (听牌) of 13 − 3·melds concealed tiles, in tile order.

    `held` counts every copy the player can see in their own hand (concealed and melds); a tile they already
    hold four of cannot be drawn and is no wait. Without `held` the concealed counts are used.
    """
    seen = concealed if held is None else held
    found = []
    for tile in range(NUM_KINDS):
        if seen[tile] >= 4:
            continue
        if concealed[tile] == 0 and not _touches(concealed, tile):
            continue
        if is_win((*concealed[:tile], concealed[tile] + 1, *concealed[tile + 1 :]), melds):
            found.append(tile)
    return found


def _touches(counts: Counts, tile: Tile) -> bool:
    """Could `tile` join a sequence with tiles held? (A tile that touches nothing can only pair with itself.)"""
    if tile >= BAI:
        return False
    rank = tile % 9
    return any(counts[tile + d] for d in (-2, -1, 1, 2) if 0 <= rank + d <= 8)
