"""Statistics as players read them: text for the chat, and a one-page picture for a month (leaderboard + chart).

Numbers come from `ledger.stats`; this module only words and draws them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from sqlalchemy.orm import Session

from bot.commands._common import money
from bot.reports.chart import ChartLabels, report_figure, save
from bot.reports.texts import percent, t
from bot.texts import joined, pattern_name
from ledger.scope import Scope
from ledger.stats import GroupStats, HeadToHead, MemberStats, Win, group_stats, nightly_net, ranked

MEDALS = ("🥇", "🥈", "🥉")


def multiple(value: float) -> str:
    """×2, ×2.5 (averages keep one decimal)."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def pattern_word(lang: str, key: str, stored: str = "") -> str:
    """A pattern or situation by the name every reply gives it (`bot.texts.pattern_name`: 清一色, in English
    `one suit (清一色)`); a key the scoring core does not know by the name its answer stored."""
    named = pattern_name(lang, key)
    return (stored or key) if named == key else named


def patterns_text(win: Win, lang: str) -> str:
    """The patterns of a win as its record reply lists them (`清一色、七对`, `one suit (清一色), seven pairs (七对)`),
    or 屁胡."""
    if not win.patterns:
        return t(lang, "pihu")  # the record reply's own word
    return joined(lang, (pattern_word(lang, key, name) for key, name in win.patterns))


def win_text(win: Win, lang: str) -> str:
    """A win's patterns and its capped multiple as the record reply ends: `清一色、七对 → ×8`; a 碰胡 win, which has
    neither, by its own word as its reply says it (`胡`, `天胡`, `地胡`)."""
    if win.game == "penghu":
        return t(lang, "pev_win" if win.kind == "hu" else f"pev_{win.kind}")
    return t(lang, "report_win", patterns=patterns_text(win, lang), multiple=win.final_multiplier)


def won_by_patterns(stats: GroupStats) -> bool:
    """Whether the scope's 番型 line says anything: patterns counted, or a scope of 卡五星 hands (its wins without
    any, or none won yet); not one of only 够级 rounds and 碰胡 wins, which have no patterns."""
    if stats.patterns:
        return True
    return not stats.rounds and all(win.game == "kawuxing" for win in stats.all_wins)


def rounds_text(stats: MemberStats, lang: str) -> str:
    """`2局 头科1（50.0%）`: a player's 够级 rounds and how often they were 头科 (empty when none)."""
    if not stats.rounds:
        return ""
    return t(lang, "report_rounds", rounds=stats.rounds, firsts=stats.firsts, rate=percent(stats.first_rate))


def played_text(stats: MemberStats, key: str, lang: str, **params: str) -> str:
    """A player's line (`key`: a text taking `hands`, `wins`, `win_rate` and `params`): their 胡 over the hands that
    are won, their 够级 rounds after it (`rounds_text`); a player of 够级 only has their rounds alone, in the same
    place, from `key`'s own 够级 text (`key` + `_rounds`)."""
    rounds = rounds_text(stats, lang)
    if stats.rounds and not stats.hands_with_wins:
        return t(lang, f"{key}_rounds", rounds=rounds, **params)
    line = t(lang, key, hands=stats.hands_with_wins, wins=stats.wins, win_rate=percent(stats.win_rate), **params)
    return f"{line}{t(lang, 'report_rounds_after', rounds=rounds)}" if rounds else line


def biggest_text(win: Win | None, names: Mapping[int, str], lang: str, currency: str, dates: Mapping[int, str]) -> str:
    if win is None:
        return t(lang, "report_no_biggest")
    return t(
        lang,
        "report_biggest_hand",
        hand=win_text(win, lang),
        who=names.get(win.winner_id, ""),
        date=dates.get(win.hand_id, win.closed_at.date().isoformat()),
        number=win.number,
        won=money(win.won, currency, signed=True),
    )


def pattern_counts_text(counts: Counter[str], names: Mapping[str, str], lang: str, limit: int = 8) -> str:
    """`清一色 2 · 七对 1`: how many wins made each pattern, by the names every reply gives them."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    return " · ".join(f"{pattern_word(lang, key, names.get(key, ''))} {count}" for key, count in ranked) or "—"


def net_parts(stats: MemberStats, lang: str, currency: str) -> str:
    """What of a player's 净 is no play, signed as it moved their money (`罚款 -4元｜台费 -1元｜领红包池/台费 +4元`),
    after 结算's line (`｜含 …`) so its 净 adds up as 余额's does; empty when none."""
    parts = [
        t(lang, key, amount=money(amount, currency, signed=True))
        for key, amount in (
            ("report_part_fines", -stats.fines),
            ("report_part_fees", -stats.fees),
            ("report_part_received", stats.received),
        )
        if amount
    ]
    return t(lang, "report_night_parts", items=(", " if lang == "en" else "、").join(parts)) if parts else ""


def beside_play(stats: MemberStats, lang: str, currency: str) -> str:
    """The money that is no play result, each on its own: fines paid into the pot, fees paid to the house, and
    what the pot or the house paid out to the member (empty when none)."""
    parts = []
    if stats.fines:
        parts.append(t(lang, "report_beside_fines", amount=money(stats.fines, currency)))
    if stats.fees:
        parts.append(t(lang, "report_beside_fees", amount=money(stats.fees, currency)))
    if stats.received:
        parts.append(t(lang, "report_beside_received", amount=money(stats.received, currency)))
    return ("; " if lang == "en" else "｜").join(parts)


def member_text(
    stats: MemberStats,
    scope_title: str,
    lang: str,
    currency: str,
    pattern_names: Mapping[str, str],
    standing: tuple[int, str] | None = None,
) -> str:
    """A member's statistics over a scope (统计 @someone); `standing`: their all-time 总输赢 and their 未结 as 余额
    says it (`-4元（4元待确认）`), whatever the scope."""
    rates = {"self_draws": str(stats.self_draws), "self_draw_rate": percent(stats.self_draw_rate)}
    lines = [
        t(lang, "report_stats_member_head", name=stats.name, scope=scope_title),
        played_text(stats, "report_stats_played", lang, **rates),
    ]
    if stats.hands_with_wins or not stats.rounds:
        discards = stats.discards_given
        lines.append(t(lang, "report_stats_discards", discards=discards, discard_rate=percent(stats.discard_rate)))
    if stats.wins:
        lines.append(
            t(
                lang,
                "report_stats_multiplier",
                average=multiple(stats.average_multiplier),
                largest=stats.largest_multiplier,
            )
        )
    if stats.biggest is not None:
        hand = biggest_text(stats.biggest, {stats.member_id: stats.name}, lang, currency, {})
        lines.append(t(lang, "report_stats_biggest", hand=hand))
    if stats.hands_with_wins or not stats.rounds:
        patterns = pattern_counts_text(stats.patterns, pattern_names, lang)
        lines.append(t(lang, "report_stats_patterns", patterns=patterns))
    lines.append(
        t(
            lang,
            "report_stats_money",
            kong=money(stats.kong_money, currency, signed=True),
            net=money(stats.play, currency, signed=True),
        )
    )
    if beside := beside_play(stats, lang, currency):
        lines.append(t(lang, "report_stats_beside", items=beside))
    if standing is not None:
        result, owed = money(standing[0], currency, signed=True), standing[1]
        lines.append(t(lang, "report_stats_owed", result=result, owed=owed))
    return "\n".join(lines)


def nothing_text(name: str, scope_title: str, lang: str, currency: str, standing: tuple[int, str]) -> str:
    """统计 @someone over a period with nothing of theirs: the group's 「…还没有记录。」 under their name, then their
    all-time (总输赢, 未结 as said) as a card would end."""
    result, owed = money(standing[0], currency, signed=True), standing[1]
    return "\n".join(
        [
            t(lang, "report_stats_member_head", name=name, scope=scope_title),
            t(lang, "report_nothing", scope=scope_title),
            t(lang, "report_stats_owed", result=result, owed=owed),
        ]
    )


def group_text(
    stats: GroupStats, scope_title: str, lang: str, currency: str, owed: Sequence[tuple[str, str]] = ()
) -> str:
    """The group's statistics over a scope (统计 without a name); `owed`: each player's 未结 now as 余额 says it, when
    not zero."""
    won = stats.hands - stats.rounds  # the hands of games that are won (not 够级's rounds)
    totals = {"hands": won, "draws": stats.draws, "wins": stats.wins, "self_draws": stats.self_draws}
    lines = [
        t(lang, "report_stats_group_head", scope=scope_title),
        t(lang, "report_stats_group_totals", **totals, kong=money(stats.kong_money, currency))
        if won or not stats.rounds
        else t(lang, "report_stats_group_rounds", rounds=stats.rounds),
    ]
    if won and stats.rounds:
        lines[-1] += t(lang, "report_stats_group_rounds_after", rounds=stats.rounds)
    fees = sum(m.fees for m in stats.members)  # table fees (台费, 抽水) paid to the house, as fines to the pot
    for key, amount in (("report_stats_group_fines", stats.fines), ("report_stats_group_fees", fees)):
        if amount:  # each only when there is some: a group that never fines reads no 「罚款 0」
            lines[-1] += t(lang, key, amount=money(amount, currency))
    names = {m.member_id: m.name for m in stats.members}
    if stats.biggest is not None:
        lines.append(t(lang, "report_stats_biggest", hand=biggest_text(stats.biggest, names, lang, currency, {})))
    if won_by_patterns(stats):
        patterns = pattern_counts_text(stats.patterns, stats.pattern_names, lang)
        lines.append(t(lang, "report_stats_patterns", patterns=patterns))
    for member in stats.members:
        beside = beside_play(member, lang, currency)
        if not member.played and not beside:
            continue
        if not member.played:  # fined or paid out, never seated: no hands, no win rate to show
            lines.append(t(lang, "report_stats_group_bystander", name=member.name, items=beside))
            continue
        net = money(member.play, currency, signed=True)
        discards = str(member.discards_given)
        line = played_text(member, "report_stats_group_line", lang, name=member.name, net=net, discards=discards)
        lines.append(f"{line}{t(lang, 'report_beside_suffix', items=beside)}" if beside else line)
    if stats.pot:
        lines.append(t(lang, "report_pot_line", amount=money(stats.pot, currency, signed=True)))
    if stats.house:  # as 余额 and 结算 list the house beside the pot
        lines.append(t(lang, "report_house_line", amount=money(stats.house, currency, signed=True)))
    if owed:
        sep = ", " if lang == "en" else "，"
        items = sep.join(f"{name} {amount}" for name, amount in owed)
        lines.append(t(lang, "report_owed_line", items=items))
    return "\n".join(lines)


def leaderboard_text(rows: Sequence[MemberStats], scope_title: str, lang: str, currency: str) -> str:
    lines = [t(lang, "report_leaderboard_head", scope=scope_title)]
    for rank, member in enumerate(rows, start=1):
        line = played_text(
            member,
            "report_leaderboard_line",
            lang,
            rank=MEDALS[rank - 1] if rank <= len(MEDALS) else f"{rank}.",
            name=member.name,
            net=money(member.play, currency, signed=True),
        )
        beside = beside_play(member, lang, currency)
        lines.append(f"{line}{t(lang, 'report_beside_suffix', items=beside)}" if beside else line)
    return "\n".join(lines)


def h2h_text(h2h: HeadToHead, scope_title: str, lang: str, currency: str, pair: tuple[int, int] | None = None) -> str:
    """Who wins from whom: every pair (biggest winner first), or one pair in both directions."""
    if pair is not None:
        a, b = pair
        return "\n".join(
            [
                t(lang, "report_h2h_pair_head", a=h2h.names.get(a, ""), b=h2h.names.get(b, ""), scope=scope_title),
                t(
                    lang,
                    "report_h2h_pair",
                    a=h2h.names.get(a, ""),
                    b=h2h.names.get(b, ""),
                    a_wins=h2h.wins.get((a, b), 0),
                    b_wins=h2h.wins.get((b, a), 0),
                    net=money(h2h.net.get((a, b), 0), currency, signed=True),
                ),
            ]
        )
    lines = [t(lang, "report_h2h_head", scope=scope_title)]
    pairs = {key for key, value in h2h.net.items() if value > 0} | set(h2h.wins)
    ranked = sorted(pairs, key=lambda key: (-h2h.net.get(key, 0), -h2h.wins.get(key, 0), key))
    for winner, loser in ranked:
        if h2h.net.get((winner, loser), 0) < 0:
            continue  # shown from the other side
        lines.append(
            t(
                lang,
                "report_h2h_line",
                winner=h2h.names.get(winner, ""),
                loser=h2h.names.get(loser, ""),
                wins=h2h.wins.get((winner, loser), 0),
                net=money(h2h.net.get((winner, loser), 0), currency, signed=True),
            )
        )
    return "\n".join(lines)


def leaderboard_page(session: Session, scope: Scope, lang: str, currency: str, path: Path, title: str = "") -> Path:
    """A month (or any scope) on one page: the ranked table and each player's running total night by night."""
    stats = group_stats(session, scope)
    rows = ranked(stats)
    with_fees = any(m.fees for m in rows)
    with_received = any(m.received for m in rows)
    header = [
        "#",
        t(lang, "report_col_player"),
        t(lang, "report_col_hands"),
        t(lang, "report_col_wins"),
        t(lang, "report_col_win_rate"),
        t(lang, "report_col_self_draws"),
        t(lang, "report_col_discards"),
        t(lang, "report_col_kong"),
        t(lang, "report_col_fines"),
        *([t(lang, "report_col_fees")] if with_fees else []),
        *([t(lang, "report_col_received")] if with_received else []),
        t(lang, "report_col_net"),
    ]
    table = [
        [
            str(rank),
            member.name,
            str(member.hands_played),
            str(member.wins),
            percent(member.win_rate),
            str(member.self_draws),
            str(member.discards_given),
            money(member.kong_money, currency, signed=True),
            money(member.fines, currency),
            *([money(member.fees, currency)] if with_fees else []),
            *([money(member.received, currency)] if with_received else []),
            money(member.play, currency, signed=True),
        ]
        for rank, member in enumerate(rows, start=1)
    ]
    names = {m.member_id: m.name for m in stats.members}
    footer = []
    if stats.biggest is not None:
        footer.append(t(lang, "report_stats_biggest", hand=biggest_text(stats.biggest, names, lang, currency, {})))
    footer.append(
        t(lang, "report_stats_patterns", patterns=pattern_counts_text(stats.patterns, stats.pattern_names, lang))
    )
    dates, series, series_names = nightly_net(session, scope)
    heading = title or t(lang, "report_leaderboard_title", scope=scope.label)
    labels = ChartLabels(
        t(lang, "report_nightly_chart_title"),
        t(lang, "report_axis_night"),
        t(lang, "report_axis_balance", currency=currency),
    )
    by_rank = [m.member_id for m in rows if m.member_id in series]
    named_series = {series_names[member_id]: series[member_id] for member_id in by_rank} if dates else None
    figure = report_figure(heading, header, table, footer, named_series, labels, currency)
    return save(figure, path)
