"""The table-based win check and readings against a plain recursive search, on random hands."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.scoring.division import (
    is_seven_pairs,
    is_standard_win,
    is_win,
    pack,
    pack_tiles,
    standard_divisions,
    unpack,
    waits,
)
from ledger.scoring.tiles import BAI, NUM_KINDS, parse_tiles


def _recursive_divisions(counts: list[int], sets_needed: int, pair_needed: bool) -> list[tuple]:
    """Plain search, the reference: every multiset of sets (and one pair) using all tiles (some listed twice)."""
    first = next((t for t, n in enumerate(counts) if n), None)
    if first is None:
        return [()] if sets_needed == 0 and not pair_needed else []
    found = []
    if pair_needed and counts[first] >= 2:
        counts[first] -= 2
        found += [(("pair", first), *rest) for rest in _recursive_divisions(counts, sets_needed, False)]
        counts[first] += 2
    if sets_needed and counts[first] >= 3:
        counts[first] -= 3
        found += [(("pung", first), *rest) for rest in _recursive_divisions(counts, sets_needed - 1, pair_needed)]
        counts[first] += 3
    if sets_needed and first < BAI and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for t in (first, first + 1, first + 2):
            counts[t] -= 1
        found += [(("chow", first), *rest) for rest in _recursive_divisions(counts, sets_needed - 1, pair_needed)]
        for t in (first, first + 1, first + 2):
            counts[t] += 1
    return found


def _as_blocks(division) -> tuple:
    pair, pungs, chows = division
    return tuple(sorted([("pair", pair)] + [("pung", t) for t in pungs] + [("chow", t) for t in chows]))


def _reference_win(counts, melds) -> bool:
    sets = 4 - melds
    if _recursive_divisions(list(counts), sets, True):
        return True
    return melds == 0 and all(n % 2 == 0 for n in counts)


@st.composite
def winning_concealed(draw, melds: int = 0):
    """A concealed part built from sets and a pair (so it wins), drawn from two suits and the dragons."""
    kinds = [*range(0, 18), BAI, BAI + 1, BAI + 2]
    counts = [0] * NUM_KINDS
    for _ in range(4 - melds):
        if draw(st.booleans()):
            start = draw(st.sampled_from([t for t in range(18) if t % 9 <= 6]))
            for t in (start, start + 1, start + 2):
                counts[t] += 1
        else:
            counts[draw(st.sampled_from(kinds))] += 3
    counts[draw(st.sampled_from(kinds))] += 2
    return counts


KINDS = [*range(0, 27), BAI, BAI + 1, BAI + 2]


@st.composite
def any_concealed(draw, size: int):
    """Any `size` tiles, at most four of a kind, drawn from a few kinds so that near-wins are common."""
    pool = draw(st.lists(st.sampled_from(KINDS), min_size=4, max_size=8, unique=True))
    counts = [0] * NUM_KINDS
    for t in draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size)):
        while counts[t] == 4:  # a fifth copy moves on to the next kind
            t = KINDS[(KINDS.index(t) + 1) % len(KINDS)]
        counts[t] += 1
    return counts


@settings(suppress_health_check=[HealthCheck.large_base_example, HealthCheck.filter_too_much], max_examples=400)
@given(winning_concealed().filter(lambda c: max(c) <= 4))
def test_built_winning_hands_win_and_readings_match_reference(counts):
    packed = pack(counts)
    assert unpack(packed) == list(counts)
    assert is_win(packed)
    assert is_standard_win(packed)
    ours = sorted(_as_blocks(d) for d in standard_divisions(packed))
    reference = sorted({tuple(sorted(r)) for r in _recursive_divisions(list(counts), 4, True)})
    assert ours == reference


@settings(suppress_health_check=[HealthCheck.large_base_example, HealthCheck.filter_too_much], max_examples=300)
@given(st.integers(0, 4).flatmap(lambda melds: st.tuples(st.just(melds), any_concealed(14 - 3 * melds))))
def test_win_check_agrees_with_recursive_checker(case):
    melds, counts = case
    assert is_win(pack(counts), melds) == _reference_win(counts, melds)


@settings(suppress_health_check=[HealthCheck.large_base_example, HealthCheck.filter_too_much], max_examples=300)
@given(st.integers(0, 4).flatmap(lambda melds: st.tuples(st.just(melds), any_concealed(13 - 3 * melds))))
def test_every_wait_completes_the_hand_and_no_other_tile_does(case):
    melds, counts = case
    found = waits(pack(counts), melds)
    for tile in range(NUM_KINDS):
        if counts[tile] >= 4:
            assert tile not in found
            continue
        completed = list(counts)
        completed[tile] += 1
        assert (tile in found) == _reference_win(completed, melds), tile


def test_seven_pairs_counts_a_four_as_two_pairs():
    counts = pack_tiles(parse_tiles("111p2222p334455s1p"))
    assert is_seven_pairs(counts)
    assert not is_standard_win(counts)


def test_seven_pairs_needs_no_melds():
    counts = pack_tiles(parse_tiles("1122p3344p55s66s"))  # 12 tiles: 六对, and with a meld it is not 七对
    assert not is_win(counts, melds=1)


def test_several_readings_of_one_hand():
    # 444-555-666 or 456 three times, plus the pair
    divisions = standard_divisions(pack_tiles(parse_tiles("444555666p123s99s")))
    assert len(divisions) == 2


def test_waits_of_the_nine_gates():
    assert waits(pack_tiles(parse_tiles("1112345678999p"))) == list(range(9))


def test_a_tile_held_four_times_is_no_wait():
    concealed = pack_tiles(parse_tiles("1111p234p567s99s"))  # 13 tiles; 1p would be the fifth
    held = pack_tiles(parse_tiles("1111p234p567s99s"))
    assert 0 not in waits(concealed, 0, held)
