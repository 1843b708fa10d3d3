"""`paiju SUBCOMMAND …`: each subcommand lives in the layer that owns it and is imported only when used."""

from __future__ import annotations

import importlib
import os
import sys

from ledger.errors import DatabaseUrlError

#: subcommand -> (module, help); each module has `main(argv: list[str]) -> int`.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("ledger.scoring.cli", "score one request of the JSON contract (stdin -> stdout)"),
    "console": ("bot.console", "the bot without Telegram: chat lines in, replies out"),
    "run": ("bot.telegram.app", "run the Telegram bot (polling, or --webhook)"),
    "web": ("bot.webapp.server", "serve the Mini App alone against a database (development)"),
    "db": ("ledger.dbcli", "database maintenance: `paiju db upgrade`"),
    "export": ("ledger.export", "the ledger as JSON or CSV"),
    "report": ("bot.reports.cli", "render a night or a month to PNG/PDF"),
}


def _usage() -> str:
    lines = ["usage: paiju SUBCOMMAND [options]", ""]
    lines += [f"  {name:<8} {help_}" for name, (_, help_) in SUBCOMMANDS.items()]
    return "\n".join(lines)


def _unreachable() -> type[Exception]:
    """SQLAlchemy's error for a database server that refused or dropped the connection (imported only when an
    exception is on its way out, so `paiju score` never loads SQLAlchemy)."""
    from sqlalchemy.exc import OperationalError

    return OperationalError


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in {"-h", "--help"}:
        print(_usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"paiju: unknown subcommand {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    try:
        result: int = module.main(rest)
    except DatabaseUrlError as err:  # a database the command cannot use: one sentence, no traceback
        print(f"paiju {name}: {err}", file=sys.stderr)
        return 2
    except _unreachable() as err:
        reason = str(getattr(err, "orig", err)).strip().splitlines()[0]
        print(f"paiju {name}: cannot reach the database: {reason}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `paiju export | head`: the reader has gone; leave quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's last flush must not fail too
        return 141  # 128 + SIGPIPE, as other tools in a pipeline end
    return result
