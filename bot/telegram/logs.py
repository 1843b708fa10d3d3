"""Logging for `paiju run`: plain text or one JSON object a line, with the chat and update being handled, and never
a secret.

Secrets (the bot token, the webhook secret) are cut out of the finished line — message, arguments and traceback
alike — so no library that puts the token in a URL or an exception can leak it. `LOG_CONTEXT` carries the chat and
update ids of the update being handled (the dispatcher sets it); every line logged meanwhile names them.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

#: (chat id, update id) of the update being handled
LOG_CONTEXT: ContextVar[tuple[int, int] | None] = ContextVar("paiju_log_context", default=None)
FORMATS = ("text", "json")
REDACTED = "<redacted>"


@contextmanager
def handling(chat_id: int, update_id: int) -> Iterator[None]:
    """Lines logged inside name this chat and update."""
    token = LOG_CONTEXT.set((chat_id, update_id))
    try:
        yield
    finally:
        LOG_CONTEXT.reset(token)


class Redactor:
    """Replaces each secret (and a bot token's secret half on its own) by `<redacted>`."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        found: set[str] = set()
        for secret in secrets:
            if secret:
                found.add(secret)
                _, colon, tail = secret.partition(":")  # a bot token is <bot id>:<secret>
                if colon and len(tail) >= 8:
                    found.add(tail)
        self.secrets = sorted(found, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        return text


class _Context(logging.Filter):
    """Adds `chat_id` and `update_id` (or None) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("telegram.request"):  # the error it logs is raised to us, and reported there
            record.exc_info, record.exc_text = None, None
        context = LOG_CONTEXT.get()
        record.chat_id, record.update_id = context if context is not None else (None, None)
        return True


class TextFormatter(logging.Formatter):
    def __init__(self, redact: Redactor) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        chat, update = getattr(record, "chat_id", None), getattr(record, "update_id", None)
        if chat is not None:
            first, sep, rest = line.partition("\n")
            line = f"{first} [chat {chat} update {update}]{sep}{rest}"
        return self.redact(line)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, chat_id, update_id, and the traceback as `exc`."""

    def __init__(self, redact: Redactor, worker: str = "") -> None:
        super().__init__()
        self.redact, self.worker = redact, worker

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("chat_id", "update_id"):
            value = getattr(record, key, None)
            if value is not None:
                entry[key] = value
        if self.worker:
            entry["worker"] = self.worker
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        return self.redact(json.dumps(entry, ensure_ascii=False))


def configure(level: str, fmt: str, secrets: Iterable[str], worker: str = "") -> Redactor:
    """Route every log line (and any uncaught exception) to stderr through the redacting formatter."""
    redact = Redactor(secrets)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(redact, worker) if fmt == "json" else TextFormatter(redact))
    handler.addFilter(_Context())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # its INFO lines print each request's URL
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)  # the ledger logs one line instead

    def uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        logging.getLogger("paiju").critical("uncaught exception", exc_info=(kind, error, trace))

    def uncaught_in_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            uncaught(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = uncaught
    threading.excepthook = uncaught_in_thread
    return redact
