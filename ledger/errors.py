"""The ledger's refusals: a request it will not book raises one of these and changes nothing."""

from __future__ import annotations


class LedgerError(Exception):
    """A request the ledger refuses. `code` is stable (the bot picks its text by it); `message` is Chinese."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[LedgerError], tuple[str, str]]:
        return type(self), (self.code, self.message)  # picklable: a worker process can raise it to its parent


class ScoringRefused(LedgerError):
    """The scoring core answered `ok: false`; `code`/`message` are the scoring core's own."""
