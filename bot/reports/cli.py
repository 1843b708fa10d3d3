"""`paiju report --db URL --chat ID (--night N | --month YYYY-MM) --out FILE.png|FILE.pdf`: a night's settlement
page or a month's leaderboard page, from the command line (a PDF is one page). Labels in the group's language
unless `--lang` says otherwise; money with the group's currency label."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import sqlalchemy as sa

from bot.reports.chart import save
from bot.reports.night import night_post
from bot.reports.stats import leaderboard_page
from bot.reports.texts import t
from ledger import db
from ledger import scope as ledger_scope
from ledger import stats as ledger_stats
from ledger.dbcli import DB_HELP
from ledger.models import Group
from ledger.service import Ledger

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="paiju report", description="画一晚或一个月 / render a night or a month")
    parser.add_argument("--db", default=None, help=DB_HELP)
    parser.add_argument("--chat", type=int, required=True, help="the group's Telegram chat id")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--night", help="the group's N-th night (第N晚, from 1), or 'latest'")
    which.add_argument("--month", help="a month, YYYY-MM")
    parser.add_argument("--out", required=True, help="output file: .png, or .pdf for a one-page PDF")
    parser.add_argument("--lang", choices=["zh", "en"], default=None, help="labels (default: the group's language)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    out = Path(args.out)
    if out.suffix.lower() not in {".png", ".pdf"}:
        return _fail(f"输出文件必须是 .png 或 .pdf：{out}")
    month = _MONTH.match(args.month) if args.month else None
    if args.month and (month is None or not 1 <= int(month.group(2)) <= 12):
        return _fail(f"月份要写成 YYYY-MM（例如 2026-01）：{args.month}")
    if args.night and args.night != "latest" and not args.night.isdigit():
        return _fail(f"--night 要写第几晚（1、2、3…）或 latest：{args.night}")
    engine = db.make_engine(db.existing(db.database_url(args.db)))
    try:
        if db.current_revision(engine) is None:
            return _fail("数据库还没有初始化（先运行 paiju db upgrade）")
        service = Ledger(engine)
        with ledger_stats.reading(engine) as session:
            group = session.scalars(sa.select(Group).where(Group.chat_id == args.chat)).first()
            if group is None:
                return _fail(f"数据库里没有这个群：{args.chat}")
            lang, currency = args.lang or group.language, group.currency
            if month is not None:
                scope = ledger_scope.month_scope(session, group.id, int(month.group(1)), int(month.group(2)))
                title = t(lang, "report_leaderboard_title", scope=scope.label)
                leaderboard_page(session, scope, lang, currency, out, title=title)
                print(out)
                return 0
            night = (
                ledger_scope.latest_night(session, group.id)
                if args.night == "latest"
                else ledger_scope.night_by_number(session, group.id, int(args.night))
            )
            if night is None:
                return _fail(f"这个群没有第 {args.night} 晚")
            night_id = night.id
        post = night_post(service, night_id, lang=lang, currency=currency)
        save(post.figure, out)
        print(out)
        print(post.text)
        return 0
    finally:
        engine.dispose()


def _fail(message: str) -> int:
    print(f"paiju report: {message}", file=sys.stderr)
    return 1
