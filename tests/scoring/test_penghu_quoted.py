"""A 碰胡 (and 够级) refusal repeats what the request gave cut to 300 characters, as the 卡五星 core does: an
unknown event type, an unseated player or discarder, an unknown field, a stake or preset of the wrong kind —
in `paiju score`'s answer and in the chat's refusal (Chinese and English) alike."""

import json

import pytest

from bot.texts import scoring_refusal
from ledger.scoring import score
from ledger.scoring.api import answer
from ledger.scoring.common import ScoringError
from tests.scoring.test_score_cli_robustness import VALID_GOUJI, VALID_PENGHU, refused, run

MAX_QUOTED = 300  # as the 卡五星 core cuts a value it repeats
HUGE = "x" * 100_000
EVENT = {"type": "peng", "player": "B", "from": "C"}
HUGE_REQUESTS = [
    dict(VALID_PENGHU, events=[{"type": HUGE, "player": "A"}]),
    dict(VALID_PENGHU, events=[dict(EVENT, player=HUGE)]),
    dict(VALID_PENGHU, events=[dict(EVENT, **{"from": HUGE})]),
    dict(VALID_PENGHU, events=[dict(EVENT, **{HUGE: 1})]),
    dict(VALID_PENGHU, dealer=HUGE),
    dict(VALID_PENGHU, stake=HUGE),
    dict(VALID_PENGHU, rules={"preset": HUGE}),
    dict(VALID_PENGHU, rules={HUGE: 1}),
    dict(VALID_PENGHU, **{HUGE: 1}),
    dict(VALID_GOUJI, stake=HUGE),
    dict(VALID_PENGHU, game=HUGE),
]


def test_paiju_score_cuts_an_unknown_type_to_300_characters():
    answer = run(json.dumps(HUGE_REQUESTS[0]).encode())
    assert refused(answer) == "bad_request"
    message = answer["error"]["message"]
    assert "'" + "x" * (MAX_QUOTED - 4) + "…" in message
    assert len(message) < MAX_QUOTED + 200


@pytest.mark.parametrize("request_", HUGE_REQUESTS)
def test_every_value_a_refusal_repeats_is_cut(request_):
    said = score(request_)
    assert said["ok"] is False and said["error"]["code"] == "bad_request"
    assert len(said["error"]["message"]) < MAX_QUOTED + 200, said["error"]["message"][:400]


@pytest.mark.parametrize("request_", HUGE_REQUESTS)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chat_says_the_refusal_cut_too(request_, lang):
    with pytest.raises(ScoringError) as err:
        answer(request_)
    said = scoring_refusal(lang, err.value)
    assert len(said) < MAX_QUOTED + 300, said[:400]
