"""The scoring core behind one JSON-shaped entry point: `paiju score` and the ledger both call `score`.

Each game module exposes `answer(request, partial=False) -> dict` and raises `ScoringError` for a refusal;
this module only dispatches and turns refusals and malformed requests into the contract's error answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ledger.scoring.common import ScoringError, quoted

Answer = dict[str, Any]


def _games() -> dict[str, Callable[..., Answer]]:
    from ledger.scoring import gouji, kawuxing, penghu

    return {"kawuxing": kawuxing.answer, "gouji": gouji.answer, "penghu": penghu.answer}


def score(request: object, *, partial: bool = False) -> Answer:
    """Answer one request of the `paiju score` contract; never raises for bad input.

    `partial=True` (Python API only) accepts an event list that has not ended yet and returns the transfers
    owed so far (kong money, 碰胡's pay-as-you-go events): the ledger books them the moment they happen.
    """
    try:
        return answer(request, partial=partial)
    except ScoringError as err:
        return {"ok": False, "error": {"code": err.code, "message": err.message}}


def answer(request: object, *, partial: bool = False) -> Answer:
    """`score`'s answer to a request the rules accept; a refusal raises `ScoringError`, whose `reading` (the
    refusal's key and arguments) the contract's JSON leaves out."""
    try:
        if not isinstance(request, Mapping):
            raise ScoringError("bad_request", "request_not_object", "请求必须是一个 JSON 对象")
        game = request.get("game")
        games = _games()
        if not isinstance(game, str) or game not in games:
            raise ScoringError(
                "bad_request",
                "unknown_game",
                f"未知的游戏 {quoted(game)}（可选：{'、'.join(games)}）",
                game=quoted(game),
                allowed=list(games),
            )
        return games[game](request, partial=partial)
    except RecursionError:  # a request nested deeper than anything the contract has, met while quoting it
        raise ScoringError("bad_request", "too_deep", "请求嵌套太深") from None
