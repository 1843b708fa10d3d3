"""Winning-hand detection and every reading of a hand, from per-suit tables.

A suit of a hand is a 9-count vector; few distinct ones occur, so each one's decompositions into sets (pung 111,
sequence 123) and at most one pair, and the tiles that would complete it, are enumerated once, the first time it
is seen, and cached. Checking or reading a hand, or listing its waits, is then four dictionary lookups and a few
bit operations — no search on the hot path.

The hot path works on a `Packed` hand: one int per suit (筒, 条, 万) and one for the dragons, four bits per
tile count (`pack`, `pack_tiles`). Packing is what makes a lookup cheap: an int hashes at once, a tuple does not.
Dragons (白 发 中) form only pungs and pairs. A concealed part holds 14 − 3·(declared melds) tiles when it wins;
declared melds never enter the tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import product

from ledger.scoring.tiles import BAI, NUM_KINDS, Tile

#: (筒 key, 条 key, 万 key, dragon key): 4 bits per count, rank r of a suit (or 白/发/中 as 0/1/2) at bit 4·r
Packed = tuple[int, int, int, int]
#: A decomposition of a concealed part: (pair tile or -1, pung tiles, sequence start tiles), global tile ids.
Division = tuple[Tile, tuple[Tile, ...], tuple[Tile, ...]]

SLOT = tuple(min(t // 9, 3) for t in range(NUM_KINDS))
SHIFT = tuple(4 * (t % 9 if t < BAI else t - BAI) for t in range(NUM_KINDS))
UNIT = tuple(1 << s for s in SHIFT)
SLOT_START = (0, 9, 18, BAI)
#: A whole hand as one int, the four slot keys side by side (slot s at bit 36·s): packing is one C-level `sum`.
HAND_UNIT = tuple(1 << (36 * SLOT[t] + SHIFT[t]) for t in range(NUM_KINDS))
_SLOT_BITS = 36
_SLOT_MASK = (1 << _SLOT_BITS) - 1
#: bit 2 of every 4-bit count: set exactly for a count of 4 once counts above 4 have been refused
FOURS_BITS = sum(4 << (4 * r) for r in range(9)) * (1 + (1 << 36) + (1 << 72)) + (4 + (4 << 4) + (4 << 8) << 108)

#: Table values: the low two bits say whether the shape splits into sets (1) or sets and one pair (2), 0 if
#: neither; bit value 4 says every count is even (seven pairs, a four counting as two); 8 says a count exceeds 4.
_SETS, _SETS_AND_PAIR, _ALL_EVEN, _OVERFULL = 1, 2, 4, 8
#: the same bits for readers of `entries`
SETS_AND_PAIR, ALL_EVEN, OVERFULL = _SETS_AND_PAIR, _ALL_EVEN, _OVERFULL


def pack(counts: Sequence[int]) -> Packed:
    """A 30-count vector as the four keys the tables read."""
    keys = [0, 0, 0, 0]
    for tile, n in enumerate(counts):
        if n:
            keys[SLOT[tile]] += n << SHIFT[tile]
    return keys[0], keys[1], keys[2], keys[3]


def pack_tiles(tiles: Iterable[Tile]) -> Packed:
    """Tiles (ids, at most 15 copies of each) as the four keys the tables read."""
    return split(sum(map(HAND_UNIT.__getitem__, tiles)))


def split(whole: int) -> Packed:
    """A whole-hand int (`HAND_UNIT` sums) as the four keys the tables read."""
    return whole & _SLOT_MASK, (whole >> 36) & _SLOT_MASK, (whole >> 72) & _SLOT_MASK, whole >> 108


def count_in(packed: Packed, tile: Tile) -> int:
    return (packed[SLOT[tile]] >> SHIFT[tile]) & 15


def unpack(packed: Packed) -> list[int]:
    return [(packed[slot] >> shift) & 15 for slot, shift in zip(SLOT, SHIFT, strict=True)]


def _shape(key: int, size: int) -> tuple[int, ...]:
    return tuple((key >> (4 * r)) & 15 for r in range(size))


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
    pairs = [-1] if size % 3 == 0 else [r for r, n in enumerate(shape) if n >= 2]
    out: list[Division] = []
    for pair in pairs:
        rest = list(shape)
        if pair >= 0:
            rest[pair] -= 2
        for pungs, chows in _set_splits(tuple(rest)):
            out.append(
                (-1 if pair < 0 else start + pair, tuple(start + r for r in pungs), tuple(start + r for r in chows))
            )
    return tuple(out)


def _dragon_divisions(shape: tuple[int, ...]) -> tuple[Division, ...]:
    """Dragons only make pungs and the pair: one decomposition or none."""
    pairs = [BAI + i for i, n in enumerate(shape) if n == 2]
    if any(n not in (0, 2, 3) for n in shape) or len(pairs) > 1:
        return ()
    return ((pairs[0] if pairs else -1, tuple(BAI + i for i, n in enumerate(shape) if n == 3), ()),)


#: Plain dicts (an exact dict's lookup is the fastest there is); `_fill` enters a key the first time it is seen.
_SUIT_STATUS: dict[int, int] = {}
_DRAGON_STATUS: dict[int, int] = {}
#: per slot: key -> (status bits, decompositions)
_SLOTS: tuple[dict[int, tuple[int, tuple[Division, ...]]], ...] = ({}, {}, {}, {})
#: the same tables for the scorer's hot path, which reads them without a call (`entries` fills them)
SLOT_TABLES = _SLOTS


def _fill(packed: Packed) -> tuple[int, int, int, int]:
    """Cold path: enter the four keys of a hand into every table; their status bits."""
    statuses = []
    for slot, key in enumerate(packed):
        if key in _SLOTS[slot]:
            statuses.append(_SLOTS[slot][key][0])
            continue
        shape = _shape(key, 3 if slot == 3 else 9)
        divisions = _dragon_divisions(shape) if slot == 3 else _suit_divisions(shape, SLOT_START[slot])
        status = (_SETS_AND_PAIR if sum(shape) % 3 == 2 else _SETS) if divisions else 0
        if all(n % 2 == 0 for n in shape):
            status |= _ALL_EVEN
        if max(shape) > 4:
            status |= _OVERFULL
        (_DRAGON_STATUS if slot == 3 else _SUIT_STATUS)[key] = status
        _SLOTS[slot][key] = (status, divisions)
        statuses.append(status)
    return statuses[0], statuses[1], statuses[2], statuses[3]


def _statuses(packed: Packed) -> tuple[int, int, int, int]:
    status = _SUIT_STATUS
    try:
        return status[packed[0]], status[packed[1]], status[packed[2]], _DRAGON_STATUS[packed[3]]
    except KeyError:
        return _fill(packed)


def is_standard_win(packed: Packed) -> bool:
    """Four sets and a pair (the concealed part; declared melds are sets already)."""
    a, b, c, d = _statuses(packed)
    return (a & 3) * (b & 3) * (c & 3) * (d & 3) == 2


def is_seven_pairs(packed: Packed) -> bool:
    """Seven pairs (七对) of a 14-tile concealed part: every count even, a four counting as two pairs."""
    a, b, c, d = _statuses(packed)
    return bool(a & b & c & d & _ALL_EVEN)


def is_overfull(packed: Packed) -> bool:
    """More than four copies of some tile."""
    a, b, c, d = _statuses(packed)
    return bool((a | b | c | d) & _OVERFULL)


def is_win(packed: Packed, melds: int = 0) -> bool:
    """Does this concealed part of 14 − 3·melds tiles (with `melds` declared melds beside it) win?"""
    status = _SUIT_STATUS
    try:
        a = status[packed[0]]
        b = status[packed[1]]
        c = status[packed[2]]
        d = _DRAGON_STATUS[packed[3]]
    except KeyError:
        a, b, c, d = _fill(packed)
    if (a & 3) * (b & 3) * (c & 3) * (d & 3) == 2:
        return True
    return not melds and bool(a & b & c & d & _ALL_EVEN)


def standard_divisions(packed: Packed) -> list[Division]:
    """Every decomposition of a concealed part into sets and exactly one pair; [] if there is none."""
    return read(packed)[0]


Entry = tuple[int, tuple[Division, ...]]


def entries(packed: Packed) -> tuple[Entry, Entry, Entry, Entry]:
    """Each slot's table entry: (status bits, its decompositions). The scorer's hot path reads these directly."""
    tables = _SLOTS
    try:
        return tables[0][packed[0]], tables[1][packed[1]], tables[2][packed[2]], tables[3][packed[3]]
    except KeyError:
        _fill(packed)
        return tables[0][packed[0]], tables[1][packed[1]], tables[2][packed[2]], tables[3][packed[3]]


def read(packed: Packed, melds: int = 0) -> tuple[list[Division], bool, bool]:
    """Everything the scorer needs from the tables in one pass: the standard decompositions, whether the part
    is seven pairs (only without melds), and whether some tile has more than four copies."""
    tables = _SLOTS
    try:
        sa, a = tables[0][packed[0]]
        sb, b = tables[1][packed[1]]
        sc, c = tables[2][packed[2]]
        sd, d = tables[3][packed[3]]
    except KeyError:
        _fill(packed)
        return read(packed, melds)  # once: every key is in the tables now
    divisions: list[Division] = []
    if (sa & 3) * (sb & 3) * (sc & 3) * (sd & 3) == 2:
        # one decomposition per slot makes a reading; exactly one slot holds the pair (the others say -1)
        # (dragons have at most one decomposition; each suit here at least one, usually exactly one)
        combos = product(a, b, c, d) if len(a) + len(b) + len(c) > 3 else ((a[0], b[0], c[0], d[0]),)
        for p, s, m, z in combos:
            divisions.append((max(p[0], s[0], m[0], z[0]), p[1] + s[1] + m[1] + z[1], p[2] + s[2] + m[2]))
    seven_pairs = not melds and bool(sa & sb & sc & sd & _ALL_EVEN)
    return divisions, seven_pairs, bool((sa | sb | sc | sd) & _OVERFULL)


#: per key: (the shape's status: 0 incomplete, 1 sets, 2 sets and a pair; the tiles of the slot, as a rank
#: bitmask, that turn it into sets and a pair; into sets only; whose count is odd; how many those are). A tile the
#: slot already holds four of is in neither of the first two masks: it cannot be drawn.
_SUIT_WAITS: dict[int, tuple[int, int, int, int, int]] = {}
_DRAGON_WAITS: dict[int, tuple[int, int, int, int, int]] = {}
#: per slot: rank bitmask -> the tiles (ids) it names, in order
_MASK_TILES = tuple(
    tuple(tuple(start + r for r in range(size) if mask >> r & 1) for mask in range(1 << size))
    for start, size in ((0, 9), (9, 9), (18, 9), (BAI, 3))
)


def _wait_entry(slot: int, key: int) -> tuple[int, int, int, int, int]:
    """Cold path: the slot shape's status and which tiles complete it, and how (a `_SUIT_WAITS` entry)."""
    size = 3 if slot == 3 else 9
    probe = [0, 0, 0, 0]
    probe[slot] = key
    shape = _fill((probe[0], probe[1], probe[2], probe[3]))[slot] & 3
    pair = sets = odd = 0
    for r in range(size):
        count = (key >> (4 * r)) & 15
        odd |= (count & 1) << r
        if count >= 4:
            continue
        probe[slot] = key + (1 << (4 * r))
        status = _fill((probe[0], probe[1], probe[2], probe[3]))[slot] & 3
        if status == _SETS_AND_PAIR:
            pair |= 1 << r
        elif status == _SETS:
            sets |= 1 << r
    entry = (shape, pair, sets, odd, odd.bit_count())
    (_DRAGON_WAITS if slot == 3 else _SUIT_WAITS)[key] = entry
    return entry


def waits(concealed: Packed, melds: int = 0, held: Packed | None = None) -> list[Tile]:
    """The tiles that complete a ready hand (听牌) of 13 − 3·melds concealed tiles, in tile order.

    `held` counts every copy the player holds (concealed and melds); a tile they already hold four of cannot be
    drawn and is no wait. Without `held` the concealed counts are used.

    A tile wins when it turns its own slot into sets (with or without the pair) while every other slot already is
    sets, exactly one slot holding the pair in the end; seven pairs wins on the one tile held an odd number of times.
    """
    suit, dragon = _SUIT_WAITS, _DRAGON_WAITS
    try:
        entries = (suit[concealed[0]], suit[concealed[1]], suit[concealed[2]], dragon[concealed[3]])
    except KeyError:
        a, b, c, d = ((dragon if s == 3 else suit).get(key) or _wait_entry(s, key) for s, key in enumerate(concealed))
        entries = (a, b, c, d)
    a, b, c, d = entries
    shapes = (a[0], b[0], c[0], d[0])
    incomplete = shapes.count(0)
    if incomplete == 0:
        # 13 − 3·melds tiles in complete slots: exactly two hold a pair, and each waits to become sets alone
        masks = [e[2] if e[0] == _SETS_AND_PAIR else 0 for e in entries]
    else:
        masks = [0, 0, 0, 0]
        if incomplete == 1:
            slot = shapes.index(0)
            pairs = shapes.count(_SETS_AND_PAIR)
            masks[slot] = entries[slot][1] if pairs == 0 else entries[slot][2] if pairs == 1 else 0
    if not melds and a[4] + b[4] + c[4] + d[4] == 1:
        slot = 0 if a[4] else 1 if b[4] else 2 if c[4] else 3
        masks[slot] |= entries[slot][3]
    found: list[Tile] = []
    for slot, mask in enumerate(masks):
        if mask:
            found += _MASK_TILES[slot][mask]
    if held is not None and held != concealed:
        found = [t for t in found if count_in(held, t) < 4]
    return found
