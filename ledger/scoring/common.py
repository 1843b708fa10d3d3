"""Types every game's scoring shares: a transfer of money, and the error a request is refused with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Error codes of the `paiju score` contract (shared/design.md); games may add their own.
ERROR_CODES = frozenset({"bad_tiles", "wrong_count", "not_a_win", "pihu_self_draw_only", "inconsistent", "bad_request"})


class ScoringError(ValueError):
    """A request the rules refuse. `code` is the contract's error code, `message` says why in Chinese."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Transfer:
    """`amount` 分 paid by `payer` to `payee`; `event` is the index of the event that caused it."""

    payer: str
    payee: str
    amount: int
    reason: str
    event: int | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reason": self.reason,
        }
        if self.event is not None:
            out["event"] = self.event
        return out


def net_of(players: Iterable[str], transfers: Iterable[Transfer]) -> dict[str, int]:
    """Each player's net result; sums to zero by construction."""
    net = {p: 0 for p in players}
    for t in transfers:
        net[t.payer] = net.get(t.payer, 0) - t.amount
        net[t.payee] = net.get(t.payee, 0) + t.amount
    return net
