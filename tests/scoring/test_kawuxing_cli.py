"""`paiju score` as a command: one JSON request in, one JSON answer out, exit 0 whenever it answered."""

import json
import subprocess
import sys

import pytest

PAIJU = [sys.executable, "-m", "paiju", "score"]


def run(stdin: str) -> dict:
    done = subprocess.run(PAIJU, input=stdin, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


# The repository's before-stop hook checks exactly these.
HOOK_CHECKS = [
    ('{"concealed":"123p46p789s22s333s","melds":[],"win_tile":"5p","method":"discard"}', "uncapped", 2),
    ('{"concealed":"1122334456677p","melds":[],"win_tile":"5p","method":"self_draw"}', "uncapped", 16),
    ('{"concealed":"1122334456677p","melds":[],"win_tile":"5p","method":"self_draw"}', "xiangyang", 8),
    ('{"concealed":"111p2222p334455s","melds":[],"win_tile":"1p","method":"self_draw"}', "xiangyang", 16),
]


@pytest.mark.parametrize(("hand", "preset", "final"), HOOK_CHECKS)
def test_hook_smoke_checks(hand, preset, final):
    answer = run(f'{{"game":"kawuxing","rules":{{"preset":"{preset}"}},"hand":{hand}}}')
    assert answer["final_multiplier"] == final


def test_hook_pihu_check():
    hand = '{"concealed":"123p456p789s234s5s","melds":[],"win_tile":"5s","method":"discard"}'
    answer = run(f'{{"game":"kawuxing","rules":{{"preset":"uncapped"}},"hand":{hand}}}')
    assert answer["error"]["code"] == "pihu_self_draw_only"


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "{",
        "not json",
        '{"game": "kawuxing", "hand": ',
        "[1, 2]",
        '"kawuxing"',
        '{"game": "mahjong"}',
        '{"game": ["kawuxing"]}',
        '{"game": {}}',
    ],
)
def test_malformed_input_answers_bad_request(stdin):
    answer = run(stdin)
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad_request"


def test_settle_request_through_the_command():
    request = {
        "game": "kawuxing",
        "rules": {"preset": "uncapped"},
        "base": 100,
        "players": ["A", "B", "C"],
        "dealer": "A",
        "events": [
            {"type": "gang", "player": "B", "kind": "zhigang", "from": "A", "chain": 1},
            {"type": "draw"},
        ],
    }
    answer = run(json.dumps(request))
    assert answer["transfers"] == [{"from": "A", "to": "B", "amount": 200, "reason": "zhigang", "event": 0}]
    assert answer["net"] == {"A": -200, "B": 200, "C": 0}
    assert answer["next_dealer"] == "A"


def test_chinese_error_message_is_written_as_utf8():
    answer = run('{"game":"kawuxing","hand":{"concealed":"123p46p789s22s333s","win_tile":"0p","method":"discard"}}')
    assert answer["error"]["code"] == "bad_tiles"
    assert "红五" in answer["error"]["message"]
