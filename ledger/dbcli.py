"""`paiju db upgrade [--db URL] [--revision REV]` and `paiju db current`: database maintenance."""

from __future__ import annotations

import argparse
import os

from ledger import db

#: environment variable naming the database when --db is not given
DB_ENV = "PAIJU_DB_URL"


def default_url() -> str:
    return os.environ.get(DB_ENV) or db.DEFAULT_URL


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="paiju db", description="数据库维护 / database maintenance")
    commands = parser.add_subparsers(dest="command", required=True)
    up = commands.add_parser("upgrade", help="run the migrations up to head (creates an empty database)")
    up.add_argument("--db", default=None, help=f"SQLAlchemy URL or SQLite file (default ${DB_ENV} or ./paiju.db)")
    up.add_argument("--revision", default="head", help="target revision (default head)")
    current = commands.add_parser("current", help="print the database's revision")
    current.add_argument("--db", default=None)
    args = parser.parse_args(argv)
    url = db.normalize_url(args.db or default_url())
    engine = db.make_engine(url)
    shown = engine.url.render_as_string(hide_password=True)
    try:
        if args.command == "upgrade":
            db.upgrade(url, args.revision)
            print(f"{shown}: upgraded to {db.current_revision(engine) or 'base'}")
        else:
            print(f"{shown}: {db.current_revision(engine) or 'not migrated'} (head {db.head_revision()})")
    finally:
        engine.dispose()
    return 0
