"""`paiju score` answers every malformed request with one JSON error and exit status 0, never a traceback.

The named cases run the real command in a process; the fuzz test drives the same entry point (`paiju.cli.main`)
in-process with hypothesis-made requests: random JSON, valid requests with random parts swapped in, raw bytes.
"""

import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.scoring.common import ERROR_CODES
from paiju.cli import main
from tests.scoring.test_kawuxing_properties import _paths

PAIJU = [sys.executable, "-m", "paiju", "score"]
VALID_HAND = {
    "game": "kawuxing",
    "rules": {"preset": "uncapped"},
    "hand": {"concealed": "123p46p789s22s333s", "melds": [], "win_tile": "5p", "method": "discard"},
}
VALID_SETTLE = {
    "game": "kawuxing",
    "rules": {"preset": "yingcheng", "piao": "chosen", "maima": "self_draw", "shukan": True},
    "base": 100,
    "players": ["A", "B", "C"],
    "dealer": "A",
    "piao": {"A": 1, "B": 0, "C": 2},
    "events": [
        {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1, "tile": "9p"},
        {"type": "liangdao", "player": "C"},
        {"type": "hu", "winner": "C", "method": "self_draw", "hand": {"patterns": ["qingyise"]}, "ma": "5s", "kan": 1},
    ],
}
VALID_GOUJI = {"game": "gouji", "stake": 100, "seats": list("ABCDEF"), "order": list("ADCFBE")}
VALID_PENGHU = {
    "game": "penghu",
    "stake": 100,
    "players": list("ABCD"),
    "dealer": "A",
    "events": [{"type": "peng", "player": "B", "from": "C"}, {"type": "hu", "player": "B", "from": None}],
}


def run(stdin: bytes) -> dict:
    done = subprocess.run(PAIJU, input=stdin, capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    return json.loads(done.stdout.decode("utf-8"))


def refused(answer: dict) -> str:
    assert answer["ok"] is False and answer["error"]["message"], answer
    return answer["error"]["code"]


def test_the_valid_requests_are_answered():
    for request in (VALID_HAND, VALID_SETTLE, VALID_GOUJI, VALID_PENGHU):
        assert run(json.dumps(request).encode())["ok"], request


@pytest.mark.parametrize(
    "stdin",
    [
        b'{"game": "kawuxing", "base": ' + b"9" * 4301 + b"}",  # an integer Python will not read
        b"[" * 1000 + b"]" * 1000,  # deeper than the JSON reader recurses
        b'{"game": "kawuxing", "x": ' + b"[" * 100 + b"]" * 100 + b"}",  # deeper than a request ever is
        b'{"game": "kawuxing", "players": ["\\ud800", "B", "C"], "events": [{"type": "draw"}]}',  # a lone surrogate
        b'{"game": "kawuxing", "hand": {"concealed": "\xff\xfe"}}',  # not UTF-8
        b'{"game": "kawuxing", "players": ["A", "B", "C"], "events": [' + b"{}," * 200_000 + b"{}]}",  # huge array
        b" " * (1 << 20) + b"{}",  # more than a request can be
        b'{"game": "gouji", "stake": 1e400, "seats": [], "order": []}',
        b'{"game": "penghu", "stake": NaN}',
        b"\x00",
    ],
)
def test_malformed_requests_are_answered_with_bad_request(stdin):
    assert refused(run(stdin)) == "bad_request"


def test_a_name_with_a_lone_surrogate_is_refused_not_echoed():
    request = dict(VALID_SETTLE, players=["A\ud800", "B", "C"], rules={"preset": "xiangyang"})
    request.pop("piao")
    answer = run(json.dumps(request).encode())  # json.dumps writes the surrogate as an escape, as a client would
    assert refused(answer) == "bad_request"


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (dict(VALID_SETTLE, base=10**7), "bad_request"),
        (dict(VALID_GOUJI, stake=10**7), "bad_request"),
        (dict(VALID_PENGHU, stake=10**7), "bad_request"),
        (dict(VALID_PENGHU, events=[{"type": "peng", "player": "B", "from": "C"}] * 201), "bad_request"),
        (dict(VALID_SETTLE, players=["A" * 257, "B", "C"]), "bad_request"),
        (
            dict(VALID_SETTLE, events=[{"type": "gang", "player": "A", "kind": "angang", "chain": 10**6}]),
            "bad_request",
        ),
        (dict(VALID_HAND, hand=dict(VALID_HAND["hand"], concealed="1p" * 500)), "bad_tiles"),
    ],
)
def test_stakes_names_chains_and_tile_strings_are_bounded(request_, code):
    assert refused(run(json.dumps(request_).encode())) == code


# --- fuzz: the entry point, in-process ----------------------------------------------------------------------
def call_cli(stdin: bytes, monkeypatch) -> tuple[int, bytes]:
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, write_through=True))
    status = main(["score"])
    return status, out.getvalue()


def assert_one_json_answer(stdin: bytes, monkeypatch) -> dict:
    status, out = call_cli(stdin, monkeypatch)
    assert status == 0, out
    answer = json.loads(out.decode("utf-8"))
    assert isinstance(answer["ok"], bool)
    if not answer["ok"]:
        assert answer["error"]["code"] in ERROR_CODES, answer
        assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]
    return answer


TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(["\ud800", "a\udfff", "5p", "A", "hu"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
JSON = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4), max_leaves=12
)
FUZZ = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _swapped(request, path, new):
    if not path:
        return new
    copy = json.loads(json.dumps(request))
    holder = copy
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return copy


@st.composite
def mutated_requests(draw):
    request = draw(st.sampled_from([VALID_HAND, VALID_SETTLE, VALID_GOUJI, VALID_PENGHU]))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(request))))
        request = _swapped(request, path, draw(JSON))
    return request


@FUZZ
@given(st.one_of(JSON, mutated_requests()))
def test_fuzz_every_request_gets_one_json_answer(monkeypatch, request):
    body = json.dumps(request, ensure_ascii=True, allow_nan=True).encode()
    assert_one_json_answer(body, monkeypatch)


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_every_byte_string_gets_one_json_answer(monkeypatch, raw):
    assert_one_json_answer(raw, monkeypatch)
