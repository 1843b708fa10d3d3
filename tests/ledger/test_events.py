"""Typed events and the scoring contract's JSON: what the command layer builds is what `paiju score` reads and
`hand_events.payload` stores, and a stored payload reads back as the event it was."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.errors import LedgerError
from ledger.events import (
    PENGHU_KINDS,
    PENGHU_WINS,
    Draw,
    GoujiRound,
    Kong,
    Liangdao,
    Meld,
    PenghuPlay,
    Piao,
    ReadyHand,
    Win,
    WinHand,
    ends_hand,
    from_payload,
    payload,
    payloads,
    renamed,
    repeats,
    retells,
)
from ledger.scoring import score

name = st.sampled_from(["甲", "乙", "丙", "丁"])
tile = st.sampled_from(["3s", "5p", "7z", "9p"])
melds = st.lists(st.builds(Meld, st.sampled_from(["peng", "angang", "zhigang", "xugang"]), tile), max_size=2)
situations = st.lists(st.sampled_from(["gangshangkaihua", "haidilao", "gangshangpao"]), max_size=2, unique=True)
tiles_hand = st.builds(
    lambda concealed, win, m, s: WinHand(concealed=concealed, win_tile=win, melds=tuple(m), situations=tuple(s)),
    st.sampled_from(["123p46p789s22s", "1122334456677p"]),
    tile,
    melds,
    situations,
)
declared_hand = st.builds(
    lambda p, m, s: WinHand(patterns=tuple(p), melds=tuple(m), situations=tuple(s)),
    st.lists(st.sampled_from(["qingyise", "qidui", "kawuxing"]), max_size=3, unique=True),
    melds,
    situations,
)
count = st.none() | st.integers(0, 20)
ready_hand = st.builds(ReadyHand, st.just("123p46p789s22s"), melds.map(tuple)) | st.builds(
    lambda p, m: ReadyHand(patterns=tuple(p), melds=tuple(m)),
    st.lists(st.sampled_from(["qingyise", "kawuxing"]), max_size=2, unique=True),
    melds,
)
ready = st.dictionaries(name, ready_hand, max_size=3).map(lambda d: tuple(d.items()))
kawuxing_event = st.one_of(
    st.builds(Kong, name, st.sampled_from(["angang", "xugang", "zhigang"]), st.none() | name, st.none() | tile),
    st.builds(Liangdao, name),
    st.builds(Piao, name, st.integers(0, 10)),
    st.builds(
        Win,
        name,
        st.sampled_from(["self_draw", "discard", "rob_kong"]),
        tiles_hand | declared_hand,
        st.none() | name,
        st.none() | tile,
        count,
        count,
        count,
    ),
    st.builds(Draw, st.none() | ready),
)
gouji_round = st.builds(
    lambda order, geming, failed: GoujiRound(tuple(order), tuple(geming), tuple(failed)),
    st.permutations(["a", "b", "c", "d", "e", "f"]),
    st.lists(st.sampled_from("abcdef"), max_size=2, unique=True),
    st.lists(st.sampled_from("abcdef"), max_size=2, unique=True),
)
penghu_event = st.one_of(
    st.builds(PenghuPlay, st.sampled_from(sorted(PENGHU_KINDS)), name, st.none() | name, st.booleans()),
    st.just(Draw()),
)


@given(kawuxing_event)
def test_a_kawuxing_event_reads_back_as_itself(event: Kong | Liangdao | Piao | Win | Draw) -> None:
    data = payload(event)
    assert from_payload("kawuxing", data) == event
    assert payload(from_payload("kawuxing", data)) == data


@given(gouji_round)
def test_a_gouji_round_reads_back_as_itself(event: GoujiRound) -> None:
    assert from_payload("gouji", payload(event)) == event


@given(penghu_event)
def test_a_penghu_event_reads_back_as_itself(event: PenghuPlay | Draw) -> None:
    data = payload(event)
    back = from_payload("penghu", data)
    assert payload(back) == data
    if isinstance(event, PenghuPlay) and event.kind not in {"peng", "paoqi", "wufu", "hu"}:
        assert back == PenghuPlay(event.kind, event.player, None, event.at_deal)  # no payer to carry
    else:
        assert back == event


penghu_play = st.builds(
    PenghuPlay,
    st.sampled_from(sorted(PENGHU_KINDS)),
    name,
    st.none() | name,
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@given(penghu_play, penghu_play)
def test_a_penghu_hand_ends_with_its_wins_and_is_retold_only_alike(event: PenghuPlay, other: PenghuPlay) -> None:
    """A 碰胡 win ends a hand (the double-entry check asks whether another ending tells the hand just ended): told
    again exactly alike — the stored payload, the same player, kind, discarder, 中庄, 跑起 — it retells it; told
    otherwise it does not, though the same winner still repeats it."""
    stored = [payload(event)]
    assert ends_hand([event]) == (event.kind in PENGHU_WINS)
    assert retells([event], stored) == (event.kind in PENGHU_WINS)
    if event.kind in PENGHU_WINS and other.kind in PENGHU_WINS:
        told = ({key: value for key, value in payload(win).items() if key != "at_deal"} for win in (other, event))
        alike = next(told) == next(told)  # a win has no deal-time mark to tell it by
        assert retells([other], stored) == alike
        assert repeats([other], stored) == (other.player == event.player)


def test_the_json_is_the_scoring_contracts_as_the_bot_wrote_it_before_types() -> None:
    """Rows written before these types existed hold exactly these shapes: old and new rows are alike."""
    assert payload(Kong("乙", "zhigang", "甲", "9p")) == {
        "type": "gang",
        "player": "乙",
        "kind": "zhigang",
        "chain": 1,
        "from": "甲",
        "tile": "9p",
    }
    hand = WinHand("123p46p789s22s333s", "5p", situations=())
    assert payload(Win("丙", "discard", hand, "甲")) == {
        "type": "hu",
        "winner": "丙",
        "method": "discard",
        "hand": {"situations": [], "concealed": "123p46p789s22s333s", "win_tile": "5p", "melds": []},
        "from": "甲",
    }
    assert payload(Win("丙", "self_draw", WinHand(patterns=()))) == {
        "type": "hu",
        "winner": "丙",
        "method": "self_draw",
        "hand": {"situations": [], "patterns": []},
    }
    assert payload(PenghuPlay("peng", "乙")) == {"type": "peng", "player": "乙", "from": None}
    assert payload(PenghuPlay("sao", "乙", at_deal=True)) == {"type": "sao", "player": "乙", "at_deal": True}
    assert payload(GoujiRound(("a", "b"))) == {"type": "round", "order": ["a", "b"], "geming": [], "shaopai_failed": []}


def test_a_chained_kong_continues_the_kong_before_it_and_needs_one() -> None:
    first, second = payloads([Kong("甲", "zhigang", "乙"), Kong("丙", "zhigang", "乙", chained=True)])
    assert (first["chain"], second["chain"]) == (1, 2)
    third = payload(Kong("甲", "angang", chained=True), [first, second])
    assert third["chain"] == 3
    with pytest.raises(LedgerError) as err:
        payload(Kong("甲", "angang", chained=True), [{"type": "liangdao", "player": "乙"}])
    assert err.value.code == "chain_without_kong"


def test_a_second_liangdao_of_one_player_in_a_hand_is_refused() -> None:
    with pytest.raises(LedgerError) as err:
        payloads([Liangdao("甲"), Liangdao("甲")])
    assert err.value.code == "liangdao_twice"
    assert payloads([Liangdao("甲"), Liangdao("乙")])[1] == {"type": "liangdao", "player": "乙"}


def test_a_fifth_kong_of_one_player_in_a_hand_is_refused() -> None:
    """14 tiles, a kong counted as three, hold four sets and a pair: a fifth kong is a typo, never booked."""
    four = payloads([Kong("甲", "angang", tile=tile) for tile in ("1s", "2s", "3s")] + [Kong("甲", "xugang")])
    with pytest.raises(LedgerError) as err:
        payload(Kong("甲", "angang", tile="5s"), four)
    assert err.value.code == "kongs_too_many"
    assert "最多 4 个杠" in err.value.message
    assert payload(Kong("乙", "angang", tile="5s"), four)["player"] == "乙"  # each player's own four


@pytest.mark.parametrize("bad", [[], {"type": "gang"}, [{"kind": "angang"}], ["胡"], [42]])
def test_anything_but_events_is_refused_as_bad_event(bad: object) -> None:
    with pytest.raises(LedgerError) as err:
        payloads(bad)  # type: ignore[arg-type]
    assert err.value.code == "bad_event"


def test_typed_events_score_as_their_json() -> None:
    typed = payloads([Kong("A", "angang", tile="7z"), Win("B", "self_draw", WinHand(patterns=("qingyise",)))])
    written = [
        {"type": "gang", "player": "A", "kind": "angang", "tile": "7z"},
        {"type": "hu", "winner": "B", "method": "self_draw", "hand": {"patterns": ["qingyise"]}},
    ]
    request = {"game": "kawuxing", "base": 100, "players": ["A", "B", "C"], "dealer": "A"}
    answer = score({**request, "events": typed})
    assert answer == score({**request, "events": written})
    assert answer["net"] == {"A": 400 - 400, "B": -200 + 800, "C": -200 - 400}  # 暗杠 2b each, 清一色 ×4 each


def test_the_regional_inputs_are_the_contracts_fields_and_old_payloads_still_load() -> None:
    """漂 is an event of its own; 买马, 数坎, 跑恰摸八 ride on the win, 查大叫's ready hands on the draw, each only
    when told: a payload written before them reads back unchanged."""
    assert payload(Piao("乙", 2)) == {"type": "piao", "player": "乙", "amount": 2}
    win = Win("丙", "self_draw", WinHand(patterns=("qingyise",)), ma="7z", kan=2, qia=1, ba=0)
    assert payload(win) == {
        "type": "hu",
        "winner": "丙",
        "method": "self_draw",
        "hand": {"situations": [], "patterns": ["qingyise"]},
        "ma": "7z",
        "kan": 2,
        "qia": 1,
        "ba": 0,
    }
    draw = Draw((("乙", ReadyHand("123p46p789s22s333s")), ("丙", ReadyHand(patterns=("qingyise",)))))
    assert payload(draw) == {
        "type": "draw",
        "ready": {"乙": {"concealed": "123p46p789s22s333s"}, "丙": {"patterns": ["qingyise"]}},
    }
    assert payload(Draw(())) == {"type": "draw", "ready": {}}
    assert from_payload("kawuxing", {"type": "draw"}) == Draw()
    assert from_payload("penghu", {"type": "draw"}) == Draw()
    old = {"type": "hu", "winner": "丙", "method": "discard", "from": "甲", "hand": {"patterns": ["kawuxing"]}}
    assert from_payload("kawuxing", old) == Win("丙", "discard", WinHand(patterns=("kawuxing",)), "甲")


def test_typed_regional_inputs_score_as_the_complete_request() -> None:
    rules = {"preset": "xiaogan", "piao": "chosen", "maima": "self_draw"}
    request = {"game": "kawuxing", "rules": rules, "base": 100, "players": ["A", "B", "C"], "dealer": "A"}
    win = Win("A", "self_draw", WinHand(patterns=("qingyise",)), ma="3p", kan=2)
    typed = payloads([Piao("A", 1), Piao("B", 0), Piao("C", 2), win])
    whole = {"type": "hu", "winner": "A", "method": "self_draw", "hand": {"patterns": ["qingyise"]}}
    answer = score({**request, "events": typed})
    expected = score({**request, "piao": {"A": 1, "B": 0, "C": 2}, "events": [{**whole, "ma": "3p", "kan": 2}]})
    assert answer["net"] == expected["net"] and answer["hands"] == expected["hands"]
    # 清一色 ×4, 漂 (1 + 0, 1 + 2), 马 3, 坎 2: B pays 4 + 1 + 3 + 2, C pays 4 + 3 + 3 + 2 (base stakes)
    assert answer["net"] == {"A": 2200, "B": -1000, "C": -1200}


def _players(event: object) -> set[str | None]:
    """Every seat a typed event names."""
    if isinstance(event, GoujiRound):
        return {*event.order, *event.geming, *event.shaopai_failed}
    if isinstance(event, Draw):
        return {player for player, _ in event.ready or ()}
    if isinstance(event, Win):
        return {event.winner, event.discarder}
    return {getattr(event, "player", None), getattr(event, "discarder", None)}


@given(
    st.one_of(
        kawuxing_event.map(lambda e: ("kawuxing", e)),
        gouji_round.map(lambda e: ("gouji", e)),
        penghu_event.map(lambda e: ("penghu", e)),
    )
)
def test_renaming_an_event_renames_every_seat_it_names_and_nothing_else(case: tuple[str, object]) -> None:
    game, event = case
    data = payload(event)  # type: ignore[arg-type]
    seats = ["甲", "乙", "丙", "丁", "a", "b", "c", "d", "e", "f"]
    new = {seat: f"{seat}#2" for seat in seats}
    out = renamed(data, new)
    assert _players(from_payload(game, out)) <= {None, *new.values()}
    assert renamed(out, {after: before for before, after in new.items()}) == data  # tiles, kinds, counts untouched
