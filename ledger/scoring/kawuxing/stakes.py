"""Side stakes some tables add to a win: points per payer, in base stakes, paid on top of the capped share.

Each is one function of the winning hand, defined as docs/regional-rules.md describes it (with its sources):
数坎 (`shukan`), 跑恰摸八 (`paoqiamoba`), 买马 (`ma_points`). 漂 needs no hand: it is the two players' own stakes.
"""

from __future__ import annotations

from typing import NamedTuple

from ledger.scoring.kawuxing.evaluate import Hand, held_counts
from ledger.scoring.kawuxing.patterns import KONG_KINDS
from ledger.scoring.tiles import BAI, NUM_KINDS, Tile, rank_of

#: 马牌 worth: a suited tile its rank, a dragon 10
DRAGON_MA = 10


def ma_points(tile: Tile) -> int:
    """买马: the horse tile drawn after the win pays its rank (1–9), a dragon 10."""
    return DRAGON_MA if tile >= BAI else rank_of(tile)


def _concealed_counts(hand: Hand, *, with_win_tile: bool) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in hand.concealed:
        counts[tile] += 1
    if with_win_tile:
        counts[hand.win_tile] += 1
    return counts


def _kongs(hand: Hand) -> int:
    return sum(1 for m in hand.melds if m.kind in KONG_KINDS)


def shukan(hand: Hand) -> int:
    """数坎: each kong, and each tile held three or four times concealed; a triplet another player's tile
    completed (a win on a discard or a robbed kong) is no 坎."""
    counts = _concealed_counts(hand, with_win_tile=hand.method == "self_draw")
    return _kongs(hand) + sum(1 for n in counts if n >= 3)


class PaoQiaMoBa(NamedTuple):
    """跑恰摸八's four parts: 跑 (any win), 恰 (triplets and kongs), 摸 (a self-draw), 八 (long suits)."""

    pao: int
    qia: int
    mo: int
    ba: int

    @property
    def points(self) -> int:
        return self.pao + self.qia + self.mo + self.ba


def paoqiamoba(hand: Hand) -> PaoQiaMoBa:
    """跑 1 for winning; 恰 1 per kong and per tile held three or four times concealed (the winning tile
    included, however it came); 摸 1 for a self-draw; 八 1 for every tile past seven in one suit (筒, 条, 万,
    and the dragons as one more), melds included."""
    concealed = _concealed_counts(hand, with_win_tile=True)
    qia = _kongs(hand) + sum(1 for n in concealed if n >= 3)
    held = held_counts(hand)
    suits = (sum(held[0:9]), sum(held[9:18]), sum(held[18:27]), sum(held[BAI:]))
    ba = sum(n - 7 for n in suits if n >= 8)
    return PaoQiaMoBa(1, qia, 1 if hand.method == "self_draw" else 0, ba)
