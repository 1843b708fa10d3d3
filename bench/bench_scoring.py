"""Benchmark: paiju's 卡五星 win check and full evaluation against the `mahjong` package, on the same hands.

    .venv/bin/python bench/bench_scoring.py [--hands N] [--seed S] [--repeat R]

Hands are generated from a seed (two suits and the dragons, as 卡五星 plays): half of them built to win (sets
and a pair, or seven pairs), half random 14-tile hands. Each library gets the hands in its own representation,
converted before timing: paiju its packed form (one int per suit, `division.pack`), `mahjong` a 34-count list;
a second line times paiju packing from a 30-count vector as well. Both run warm (paiju's per-suit
tables are filled on the first pass; `mahjong` keeps its own small cache). The two sides run in turn, R times;
the best run of each is reported.

- win check: `ledger.scoring.division.is_win` vs `Agari.is_agari`, on all hands;
- full evaluation: `ledger.scoring.kawuxing.evaluate` (every reading, every pattern, the cap) vs
  `HandDivider.divide_hand` alone (decompositions only, no scoring), on the winning hands;
- with waits: `score_hand` (the evaluation and the 13 tiles' waits, what a `paiju score` hand answer holds) vs
  `divide_hand` again.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable, Sequence

from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider

from ledger.scoring.division import Packed, is_seven_pairs, is_standard_win, is_win, pack
from ledger.scoring.kawuxing import Hand, evaluate, make_rules, score_hand
from ledger.scoring.tiles import BAI, NUM_KINDS, Counts, tiles_of

KINDS = [*range(18), BAI, BAI + 1, BAI + 2]
#: paiju tile id → mahjong 34-index (man 0-8, pin 9-17, sou 18-26, honours 27-33 with haku 31, hatsu 32, chun 33)
TO_34 = [*range(9, 18), *range(18, 27), *range(0, 9), 31, 32, 33]


def winning_counts(rnd: random.Random) -> list[int]:
    while True:
        counts = [0] * NUM_KINDS
        if rnd.random() < 0.1:
            for t in rnd.sample(KINDS, 7):
                counts[t] += 2
        else:
            for _ in range(4):
                if rnd.random() < 0.6:
                    start = rnd.choice([t for t in range(18) if t % 9 <= 6])
                    for t in (start, start + 1, start + 2):
                        counts[t] += 1
                else:
                    counts[rnd.choice(KINDS)] += 3
            counts[rnd.choice(KINDS)] += 2
        if max(counts) <= 4:
            return counts


def random_counts(rnd: random.Random) -> list[int]:
    counts = [0] * NUM_KINDS
    while sum(counts) < 14:
        t = rnd.choice(KINDS)
        if counts[t] < 4:
            counts[t] += 1
    return counts


def generate(n: int, seed: int) -> list[Counts]:
    rnd = random.Random(seed)
    return [tuple(winning_counts(rnd) if i % 2 == 0 else random_counts(rnd)) for i in range(n)]


def to_34(counts: Counts) -> list[int]:
    out = [0] * 34
    for tile, n in enumerate(counts):
        out[TO_34[tile]] = n
    return out


def interleaved_rates(
    ours: Callable[[], object], theirs: Callable[[], object], items: int, repeat: int
) -> tuple[float, float]:
    """Calls per second of each, best of `repeat` runs taken in turn. CPU time of this process, not wall time:
    on a shared machine wall time also counts the time other processes held the CPU."""
    best = [float("inf"), float("inf")]
    gc.disable()  # as timeit does: a collection would land on whichever side happened to be running
    try:
        for _ in range(repeat):
            for i, fn in enumerate((ours, theirs)):
                start = time.process_time()
                fn()
                best[i] = min(best[i], time.process_time() - start)
    finally:
        gc.enable()
    return items / best[0], items / best[1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args(argv)

    hands = generate(args.hands, args.seed)
    hands_34 = [to_34(c) for c in hands]
    packed: list[Packed] = [pack(c) for c in hands]
    ours = [is_win(p) for p in packed]
    theirs = [Agari.is_agari(c) for c in hands_34]
    # Riichi's 七对 needs seven different pairs; 卡五星 counts a four as two (龙七对). Every other hand agrees.
    differ = [c for c, a, b in zip(hands, ours, theirs, strict=True) if a != b]
    assert all(is_seven_pairs(pack(c)) and 4 in c and not is_standard_win(pack(c)) for c in differ), "they disagree"
    winners = [c for c, won in zip(hands, ours, strict=True) if won]
    winners_34 = [to_34(c) for c in winners]
    rules = make_rules("xiangyang")
    # The winning tile: the highest tile of the hand, always a self-draw so that 屁胡 is allowed.
    paiju_hands = []
    for counts in winners:
        tiles = tiles_of(counts)
        win = tiles.pop()
        paiju_hands.append(Hand(tuple(tiles), (), win, "self_draw"))

    def paiju_check() -> None:
        for p in packed:
            is_win(p)

    def paiju_pack_and_check() -> None:
        for c in hands:
            is_win(pack(c))

    def mahjong_check() -> None:
        for c in hands_34:
            Agari.is_agari(c)

    def paiju_evaluate() -> None:
        for hand in paiju_hands:
            evaluate(hand, rules)

    def paiju_score_hand() -> None:
        for hand in paiju_hands:
            score_hand(hand, rules)

    def mahjong_divide() -> None:
        for c in winners_34:
            HandDivider.divide_hand(c)

    paiju_score_hand()  # fills the per-suit tables
    rows = [
        ("win check", len(hands), paiju_check, "Agari.is_agari", mahjong_check, 5),
        ("(pack + check)", len(hands), paiju_pack_and_check, "Agari.is_agari", mahjong_check, 0),
        ("full evaluation", len(winners), paiju_evaluate, "HandDivider.divide_hand", mahjong_divide, 5),
        ("with waits", len(winners), paiju_score_hand, "HandDivider.divide_hand", mahjong_divide, 3),
    ]
    print(f"{len(hands)} hands (seed {args.seed}), {len(winners)} of them winning; best of {args.repeat} runs")
    print(f"{len(differ)} hands win only by 卡五星's reading (seven pairs with a four, which riichi refuses)")
    for name, items, ours_fn, their_name, theirs_fn, target in rows:
        ours_rate, theirs_rate = interleaved_rates(ours_fn, theirs_fn, items, args.repeat)
        ratio = ours_rate / theirs_rate
        verdict = f"target {target}x: " + ("ok" if ratio >= target else "BELOW TARGET") if target else "no target"
        print(
            f"{name:<16} paiju {ours_rate:>11,.0f}/s   {their_name:<24} {theirs_rate:>11,.0f}/s   "
            f"ratio {ratio:5.1f}x ({verdict})"
        )


if __name__ == "__main__":
    main()
