"""Chat commands for reports: 统计/stats, 排行/leaderboard, 对战/h2h, 导出/export, 战报/report.

Periods: 今晚/本晚/night (the open night, else the last one), 昨晚/昨天 (the last night before today's), 本周/week,
本月/month, 上月/lastmonth, 全部/all, or a month written `2026-01`. Members: `@username`, an alias or display name,
or 我/me.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from bot.commands._common import looked_up, me, shown_name
from bot.commands.payments import owed_text, told_by_payers, waiting_by_account, waiting_shift
from bot.core import Context, Effect, Refusal, SendDocument, SendPhoto, SendText, registry
from bot.grammar import implied, tokens
from bot.reports.export import FORMATS, export_file
from bot.reports.files import report_dir
from bot.reports.night import night_report
from bot.reports.stats import group_text, h2h_text, leaderboard_page, leaderboard_text, member_text, nothing_text
from bot.reports.texts import t
from bot.vocabulary import (
    MY_STATS_EN,
    YESTERDAY_OWN_WORDS,
    YESTERDAY_REPORT_WORDS,
    YESTERDAY_STANDING_WORDS,
    YESTERDAY_WORDS,
)
from ledger import scope as ledger_scope
from ledger import stats as ledger_stats
from ledger.models import Group
from ledger.service import MemberInfo

PERIOD_WORDS = {
    "night": ("今晚", "本晚", "今天", "这晚", "本局", "night", "tonight"),
    "lastnight": (*YESTERDAY_WORDS, "yesterday", "lastnight"),
    "week": ("本周", "这周", "这礼拜", "week"),
    "month": ("本月", "这个月", "这月", "month"),
    "lastmonth": ("上月", "上个月", "lastmonth"),
    "all": ("全部", "所有", "总", "总计", "all", "alltime"),
}
_PERIOD_OF = {word: period for period, words in PERIOD_WORDS.items() for word in words}
_MONTH = re.compile(r"^(\d{4})[-/.年](\d{1,2})月?$")
ME_WORDS = frozenset({"我", "me", "I", "my"})


@dataclass(frozen=True)
class Asked:
    """A report request: the scope, its title in the chat's language, and the members named."""

    scope: ledger_scope.Scope
    title: str
    members: tuple[MemberInfo, ...]
    rest: tuple[str, ...]  # words that were neither a period nor a member (e.g. csv/json)


def parse(ctx: Context, default: str, *, extra_words: frozenset[str] = frozenset()) -> Asked:
    """Read a period and member names from the arguments; refuse what is neither (clear message, nothing done)."""
    period, month = default, None
    members: list[MemberInfo] = []
    rest: list[str] = []
    for word in tokens(f"{implied(ctx.word)} {ctx.args}"):  # `我的战绩` is `战绩 我`, `上月排行` is `排行 上月`
        folded = word.lower()
        if folded in _PERIOD_OF:
            period = _PERIOD_OF[folded]
        elif (found := _MONTH.match(word)) is not None:
            year, number = int(found.group(1)), int(found.group(2))
            if not 1 <= number <= 12:
                raise Refusal("report_unknown_period", word=word)
            period, month = "month", (year, number)
        elif folded in extra_words:
            rest.append(folded)
        elif word in ME_WORDS:
            members.append(me(ctx))
        else:
            person = looked_up(ctx, word)
            if person is None:
                if word.startswith("@"):
                    raise Refusal("report_unknown_member", name=word.lstrip("@"))
                raise Refusal("report_unknown_word", word=word)
            members.append(person)
    scope, title = _scope(ctx, period, month)
    return Asked(scope, title, tuple(members), tuple(rest))


def _scope(ctx: Context, period: str, month: tuple[int, int] | None) -> tuple[ledger_scope.Scope, str]:
    group_id = ctx.group.id
    with ledger_stats.reading(ctx.service.engine) as session:
        if period in {"night", "lastnight"}:
            night = (
                ledger_scope.latest_night(session, group_id)
                if period == "night"
                else ledger_scope.night_before(session, group_id, _today(ctx, session))
            )
            if night is None:
                nothing = "report_scope_all" if period == "night" else "report_scope_lastnight"
                raise Refusal("report_nothing", scope=t(ctx.lang, nothing))
            number = ledger_scope.night_number(session, night)
            return ledger_scope.night_scope(session, night.id), t(
                ctx.lang, "report_scope_night", number=number, date=night.night_date.isoformat()
            )
        if period == "week":
            scope = ledger_scope.week_scope(session, group_id, ctx.now())
            return scope, t(ctx.lang, "report_scope_week", label=scope.label)
        if period in {"month", "lastmonth"}:
            if month is None:
                today = ledger_scope.night_date_of(ctx.now(), session.get_one(Group, group_id))
                first = date(today.year, today.month, 1)
                if period == "lastmonth":
                    first = date(first.year - (first.month == 1), (first.month - 2) % 12 + 1, 1)
                month = (first.year, first.month)
            scope = ledger_scope.month_scope(session, group_id, *month)
            return scope, t(ctx.lang, "report_scope_month", year=month[0], month=month[1], label=scope.label)
        return ledger_scope.all_time_scope(group_id), t(ctx.lang, "report_scope_all")


def _today(ctx: Context, session: Session) -> date:
    return ledger_scope.night_date_of(ctx.now(), session.get_one(Group, ctx.group.id))


@registry.command(
    "stats",
    names=["stats"],
    aliases=[
        "统计",
        "战绩",
        "数据",
        "我的战绩",
        "我的统计",
        *MY_STATS_EN,
        *YESTERDAY_STANDING_WORDS,
        *YESTERDAY_OWN_WORDS,
    ],
    help_zh="统计 [@某人|我] [今晚/本周/本月/上月/全部/2026-01]：胡率、自摸率、点炮率、倍数、番型、杠钱、罚款、"
    "净输赢（默认本月）",
    help_en="stats [@someone|me] [night/week/month/lastmonth/all/2026-01]: win rate, self-draws, deal-ins, "
    "multiples, patterns, kong money, fines, net (default: this month)",
)
def stats_command(ctx: Context) -> SendText:
    asked = parse(ctx, "month")
    currency = ctx.group.currency
    with ledger_stats.reading(ctx.service.engine) as session:
        stats = ledger_stats.group_stats(session, asked.scope)
    standing = {line.member_id: line for line in ctx.service.balances(ctx.chat_id).lines}  # 总输赢 and 未结 now
    told = told_by_payers(ctx)  # 未结 counts a payment its payer told open until the payee's word, as 余额 does
    shift, told_of = waiting_shift(told), waiting_by_account(told)

    def owed(member_id: int, amount: int) -> str:
        return owed_text(ctx, amount + shift.get(member_id, 0), told_of.get(member_id, 0))

    if not asked.members:
        if not stats.hands and not stats.members:
            return SendText(t(ctx.lang, "report_nothing", scope=asked.title), reply_to=ctx.message_id)
        items = [
            (line.name, owed(line.member_id, line.amount))
            for line in standing.values()
            if (line.amount + shift.get(line.member_id, 0) or told_of.get(line.member_id)) and line.kind != "pot"
        ]
        return SendText(group_text(stats, asked.title, ctx.lang, currency, items), reply_to=ctx.message_id)
    texts = []
    for member in asked.members:
        line = stats.member(member.id)
        now = standing.get(member.id)
        mine = (now.result, owed(member.id, now.amount)) if now is not None else (0, owed(member.id, 0))
        if line is None or not (line.played or line.net or line.fines or line.fees or line.received):
            # nothing of theirs in the period: said as the group's empty period is, not as a card of zeros
            texts.append(nothing_text(shown_name(ctx, member), asked.title, ctx.lang, currency, mine))
            continue
        texts.append(member_text(line, asked.title, ctx.lang, currency, stats.pattern_names, mine))
    return SendText("\n\n".join(texts), reply_to=ctx.message_id)


@registry.command(
    "leaderboard",
    names=["leaderboard", "top"],
    aliases=["排行", "排行榜", "龙虎榜", "本月排行", "这个月排行", "上月排行", "上个月排行", "本周排行"],
    help_zh="排行 [本月/上月/本周/全部/2026-01]：按净输赢排名，附每晚累计走势图（默认本月）",
    help_en="leaderboard [month/lastmonth/week/all/2026-01]: ranked by net, with a chart night by night",
)
def leaderboard_command(ctx: Context) -> list[Effect]:
    asked = parse(ctx, "month")
    currency = ctx.group.currency
    with ledger_stats.reading(ctx.service.engine) as session:
        stats = ledger_stats.group_stats(session, asked.scope)
        rows = ledger_stats.ranked(stats)
        if not rows:
            return [SendText(t(ctx.lang, "report_nothing", scope=asked.title), reply_to=ctx.message_id)]
        text = leaderboard_text(rows, asked.title, ctx.lang, currency)
        picture = report_dir() / f"leaderboard-{ctx.group.id}-{asked.scope.label or 'all'}.png"
        title = t(ctx.lang, "report_leaderboard_title", scope=asked.title)
        leaderboard_page(session, asked.scope, ctx.lang, currency, picture, title=title)
    return [SendPhoto(str(picture), text)]


@registry.command(
    "h2h",
    names=["h2h", "versus"],
    aliases=["对战", "交手", "谁赢谁"],
    help_zh="对战 [@甲 @乙] [时间段]：谁赢谁——胡了谁几次、净赢多少（默认全部）",
    help_en="h2h [@a @b] [period]: who wins from whom — wins and net money between players (default: all time)",
)
def h2h_command(ctx: Context) -> SendText:
    asked = parse(ctx, "all")
    if len(asked.members) not in (0, 2):
        raise Refusal("report_h2h_usage")
    with ledger_stats.reading(ctx.service.engine) as session:
        h2h = ledger_stats.head_to_head(session, asked.scope)
    if not h2h.wins and not h2h.net:
        return SendText(t(ctx.lang, "report_nothing", scope=asked.title), reply_to=ctx.message_id)
    pair = None
    if asked.members:
        a, b = asked.members
        pair = (a.id, b.id)
        h2h.names.setdefault(a.id, shown_name(ctx, a))
        h2h.names.setdefault(b.id, shown_name(ctx, b))
    return SendText(h2h_text(h2h, asked.title, ctx.lang, ctx.group.currency, pair), reply_to=ctx.message_id)


@registry.command(
    "export",
    names=["export"],
    aliases=["导出"],
    help_zh="导出 [今晚/本周/本月/全部/2026-01] [csv/json]：把账本（牌局、转账、罚款）导出成文件（默认本月 csv）",
    help_en="export [night/week/month/all/2026-01] [csv/json]: the ledger (hands, transfers, fines) as a file",
)
def export_command(ctx: Context) -> SendDocument:
    """The file itself goes to the group (Telegram: sendDocument), its counts as the caption."""
    asked = parse(ctx, "month", extra_words=frozenset(FORMATS))
    if asked.members or len(asked.rest) > 1:
        raise Refusal("report_export_usage")
    fmt = asked.rest[0] if asked.rest else "csv"
    path = report_dir() / f"export-{ctx.group.id}-{asked.scope.label or 'all'}.{fmt}"
    done = export_file(ctx.service.engine, asked.scope, fmt, path)
    caption = t(ctx.lang, "report_export_done", scope=asked.title, hands=done.hands, transfers=done.transfers)
    return SendDocument(str(done.path), caption)


@registry.command(
    "night_report",
    names=["report", "summary"],
    aliases=["战报", "本晚战报", "最少转账", "转账方案", *YESTERDAY_REPORT_WORDS],
    help_zh="战报：今晚（或上一晚）的结算图：每人胡、自摸、点炮、杠钱、最大一手（够级：各名次几次、对头）、净输赢、最少转账和走势图",
    help_en="the night's report picture: wins, self-draws, deal-ins, kong money, biggest hand (够级: places, across), "
    "net, transfers, chart",
)
def report_command(ctx: Context) -> list[Effect]:
    with ledger_stats.reading(ctx.service.engine) as session:
        if ctx.word in YESTERDAY_REPORT_WORDS:  # `昨晚战报`: the last night before today's
            night = ledger_scope.night_before(session, ctx.group.id, _today(ctx, session))
        else:
            night = ledger_scope.latest_night(session, ctx.group.id, played=True)
    if night is None:
        nothing = "report_scope_lastnight" if ctx.word in YESTERDAY_REPORT_WORDS else "report_scope_all"
        raise Refusal("report_nothing", scope=t(ctx.lang, nothing))
    report = night_report(ctx.service, night.id, lang=ctx.lang, currency=ctx.group.currency)
    return report.effects(ctx.message_id)
