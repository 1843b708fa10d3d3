"""`paiju db upgrade|current|groups|copy|backup`: database maintenance.

    paiju db upgrade [--db URL] [--revision REV]
    paiju db current [--db URL]
    paiju db groups [--db URL]                                   # each group's chat id (for --chat), game and title
    paiju db copy --from URL --to URL [--chat ID] [--force]     # e.g. SQLite → PostgreSQL, verified afterwards
    paiju db backup [--db URL] --out FILE                        # SQLite's online backup (pg_dump for PostgreSQL)

Exit codes: 0 done, 1 refused or failed verification (the message says why), 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

from ledger import db
from ledger.maintenance import CopyError, backup_sqlite, copy_ledger
from ledger.models import Group

DB_ENV = db.DB_ENV
#: what `--db` says it falls back to
DB_HELP = "SQLAlchemy URL or SQLite file (default: $PAIJU_DB_URL, the config file's [database] url, ./paiju.db)"


def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju db", description="数据库维护 / database maintenance")
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("upgrade", help="run the migrations up to head (creates an empty database)")
    up.add_argument("--db", default=None, help=DB_HELP)
    up.add_argument("--revision", default="head", help="target revision (default head)")
    current = commands.add_parser("current", help="print the database's revision")
    current.add_argument("--db", default=None, help=DB_HELP)
    groups = commands.add_parser("groups", help="list the groups: chat id (what --chat takes), game, title")
    groups.add_argument("--db", default=None, help=DB_HELP)
    copy = commands.add_parser(
        "copy", help="copy the ledger to another database (e.g. SQLite → PostgreSQL) and verify the balances"
    )
    copy.add_argument("--from", dest="source", required=True, help="the database to copy (left unchanged)")
    copy.add_argument("--to", dest="target", required=True, help="the database to copy into (upgraded first)")
    copy.add_argument("--chat", type=int, default=None, help="only this Telegram chat's group (default: every group)")
    copy.add_argument("--force", action="store_true", help="copy into a target that already holds data")
    backup = commands.add_parser("backup", help="a consistent copy of a live SQLite ledger (PostgreSQL: pg_dump)")
    backup.add_argument("--db", default=None, help=DB_HELP)
    backup.add_argument("--out", required=True, help="the backup file to write (must not exist)")
    args = parser.parse_args(argv)
    try:
        if args.command == "copy":
            return _copy(args)
        if args.command == "backup":
            url = db.existing(db.database_url(args.db))
            path = backup_sqlite(url, args.out)
            print(f"{_shown(url)}: backed up to {path} ({path.stat().st_size} bytes, integrity ok)")
            return 0
    except CopyError as err:
        print(f"paiju db {args.command}: {err}", file=sys.stderr)
        return 1
    url = db.normalize_url(db.database_url(args.db))
    if args.command in {"current", "groups"}:  # only read: never create a database
        url = db.existing(url)
    engine = db.make_engine(url)
    shown = engine.url.render_as_string(hide_password=True)
    try:
        if args.command == "upgrade":
            db.upgrade(url, args.revision)
            print(f"{shown}: upgraded to {db.current_revision(engine) or 'base'}")
        elif args.command == "groups":
            _groups(engine)
        else:
            print(f"{shown}: {db.current_revision(engine) or 'not migrated'} (head {db.head_revision()})")
    finally:
        engine.dispose()
    return 0


def _groups(engine: Engine) -> None:
    """One line a group, so an admin can find the chat id `paiju report --chat`, `export --chat` and `db copy
    --chat` take (Telegram shows it nowhere in the app)."""
    with engine.connect() as connection:
        rows = connection.execute(sa.select(Group.chat_id, Group.game, Group.title).order_by(Group.id)).all()
    if not rows:
        print("no groups yet")
    for chat_id, game, title in rows:
        print(f"{chat_id}\t{game}\t{title}")


def _copy(args: argparse.Namespace) -> int:
    source, target = db.normalize_url(args.source), db.normalize_url(args.target)
    report = copy_ledger(source, target, chat_id=args.chat, force=args.force)
    rows = sum(report.rows.values())
    print(f"copied {rows} rows from {_shown(source)} to {_shown(target)}")
    for table, count in report.rows.items():
        if count:
            print(f"  {table}: {count}")
    if report.skipped:
        print(f"  not copied: {', '.join(report.skipped)}")
    for chat, accounts in report.groups.items():
        print(f"verified chat {chat}: {accounts} balances equal, running totals match the transfers")
    return 0
