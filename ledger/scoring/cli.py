"""`paiju score`: one JSON request on stdin, one JSON answer on stdout, exit 0 whenever it answered."""

from __future__ import annotations

import json
import sys

from ledger.scoring.api import score


def main(argv: list[str] | None = None) -> int:
    raw = sys.stdin.read()
    try:
        request = json.loads(raw)
    except json.JSONDecodeError as err:
        message = f"不是有效的 JSON：{err.msg}（第 {err.lineno} 行）"
        answer = {"ok": False, "error": {"code": "bad_request", "message": message}}
    else:
        answer = score(request)
    json.dump(answer, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
