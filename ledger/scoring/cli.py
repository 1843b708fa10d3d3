"""`paiju score`: one JSON request on stdin, one JSON answer on stdout.

Exit status 0 whenever it answered, `{"ok": false, ...}` included: every malformed request (not UTF-8, not JSON,
too big, too deeply nested, a number too long to read) is answered with `bad_request`. Exit status 1 with
`{"ok": false, "error": {"code": "internal_error", ...}}` only if the scoring core itself fails — a bug.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ledger.scoring.api import score

#: a request is a hand's events: a few kilobytes; more is refused before it is read
MAX_REQUEST_BYTES = 1 << 20
#: a request nests a few levels (request, events, hand, melds); deeper is refused
MAX_DEPTH = 32


def _refused(message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": "bad_request", "message": message}}


def _depth(value: object) -> int:
    """How deeply lists and objects nest in a parsed request (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_DEPTH:
                stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def answer_for(raw: bytes) -> dict[str, Any]:
    """The answer to one request's bytes."""
    if len(raw) > MAX_REQUEST_BYTES:
        return _refused(f"请求太大：最多 {MAX_REQUEST_BYTES // 1024} KB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return _refused(f"请求不是有效的 UTF-8（第 {err.start + 1} 个字节）")
    try:
        request = json.loads(text)
    except json.JSONDecodeError as err:
        return _refused(f"不是有效的 JSON：{err.msg}（第 {err.lineno} 行）")
    except RecursionError:
        return _refused(f"请求嵌套太深：最多 {MAX_DEPTH} 层")
    except ValueError:  # an integer longer than Python reads (4,300 digits)
        return _refused("请求里有太长的数字")
    if _depth(request) > MAX_DEPTH:
        return _refused(f"请求嵌套太深：最多 {MAX_DEPTH} 层")
    return score(request)


HELP_EPILOG = """example:
  echo '{"game": "kawuxing", "hand": {"concealed": "123p46p789s22s333s", "win_tile": "5p", "method": "discard"}}' \\
    | paiju score
answers {"ok": true, "patterns": [...], "multiplier": ..., ...} or {"ok": false, "error": {"code", "message"}};
the request and answer fields are in docs/kawuxing.md (够级 and 碰胡: docs/games.md)."""


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="paiju score",
        description="Score one request of the JSON contract: the request on stdin, the answer on stdout. "
        "Exit status 0 whenever it answered (refusals included), 1 only for an internal error.",
        epilog=HELP_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.parse_args(sys.argv[1:] if argv is None else argv)
    raw = sys.stdin.buffer.read(MAX_REQUEST_BYTES + 1)
    status = 0
    try:
        answer = answer_for(raw)
    except Exception as err:  # a bug in the core: still one JSON answer, and a non-zero status to show it
        answer = {"ok": False, "error": {"code": "internal_error", "message": f"内部错误：{type(err).__name__}"}}
        status = 1
    out = json.dumps(answer, ensure_ascii=False) + "\n"
    sys.stdout.buffer.write(out.encode("utf-8", "backslashreplace"))
    sys.stdout.flush()
    return status
