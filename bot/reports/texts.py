"""The words of every report, Chinese first, English when the chat's language is `en` (registered at import)."""

from __future__ import annotations

from bot.texts import register
from bot.texts import text as t  # the one text lookup; importing this module registers the report texts
from bot.vocabulary import GOUJI_PLACE_EN

__all__ = ["REPORT_TEXTS", "percent", "t"]

REPORT_TEXTS: dict[str, dict[str, str]] = {
    # the night's settlement post
    "report_night_title": {
        "zh": "第{number}晚结算 · {date} · {hands}局",
        "en": "Night {number} · {date} · {hands} hands",
    },
    "report_night_title_open": {
        "zh": "第{number}晚战报（还没结算）· {date} · {hands}局",
        "en": "Night {number} so far (not settled) · {date} · {hands} hands",
    },
    "report_chart_title": {"zh": "第{number}晚走势（{date}）", "en": "Night {number} running balance ({date})"},
    "report_axis_hand": {"zh": "局数", "en": "Hand"},
    "report_axis_night": {"zh": "晚", "en": "Night"},
    "report_axis_balance": {"zh": "累计（{currency}）", "en": "Running total ({currency})"},
    "report_col_player": {"zh": "玩家", "en": "Player"},
    "report_col_wins": {"zh": "胡", "en": "Wins"},
    "report_col_self_draws": {"zh": "自摸", "en": "Self-drawn"},
    "report_col_discards": {"zh": "点炮", "en": "Dealt in"},
    "report_col_kong": {"zh": "杠钱", "en": "Kong money"},
    "report_col_fines": {"zh": "罚款", "en": "Fines"},
    "report_col_fees": {"zh": "台费", "en": "Fees"},
    "report_col_received": {"zh": "领到", "en": "Paid out"},
    "report_col_biggest": {"zh": "最大一手", "en": "Biggest hand"},
    "report_col_net": {"zh": "净", "en": "Net"},
    "report_col_hands": {"zh": "局数", "en": "Hands"},
    "report_col_win_rate": {"zh": "胡率", "en": "Win rate"},
    "report_night_line": {
        "zh": "{name} {net}｜胡{wins} 自摸{self_draws} 点炮{discards} 杠{kong}｜最大 {biggest}",
        "en": "{name} {net} | wins {wins}, self-drawn {self_draws}, dealt in {discards}, kong {kong} | best {biggest}",
    },
    "report_night_line_plain": {"zh": "{name} {net}", "en": "{name} {net}"},
    # a 够级 night: each player's rounds, the places they took and who sat across (对头), whom their money is with
    "report_night_line_gouji": {
        "zh": "{name} {net}｜{rounds}局 {places}｜对头 {duitou}",
        "en": "{name} {net} | {rounds} hands: {places} | across (对头): {duitou}",
    },
    "report_gouji_place": {"zh": "{place}{count}", "en": "{place} ×{count}"},
    "report_col_rounds": {"zh": "局数", "en": "Hands"},
    "report_col_duitou": {"zh": "对头", "en": "Across (对头)"},
    **{f"report_col_{place}": {"zh": place, "en": english} for place, english in GOUJI_PLACE_EN.items()},
    # what of a player's 净 is no play (fines, fees, payouts), as the picture's columns and 余额 count it
    "report_night_parts": {"zh": "｜含 {items}", "en": " | incl. {items}"},
    "report_part_fines": {"zh": "罚款 {amount}", "en": "fines {amount}"},
    "report_part_fees": {"zh": "台费 {amount}", "en": "fees {amount}"},
    "report_part_received": {"zh": "领红包池/台费 {amount}", "en": "from pot/house {amount}"},
    "report_pot_line": {"zh": "红包池 {amount}（罚款）", "en": "Pot {amount} (fines)"},
    "report_house_line": {"zh": "台费 {amount}（台费、抽水）", "en": "House {amount} (table fees)"},
    "report_bystander_line": {
        "zh": "{name} {net}（没上桌：{items}）",
        "en": "{name} {net} (not at the table: {items})",
    },
    "report_transfers_head": {"zh": "最少转账（{count}笔）：", "en": "Fewest transfers ({count}):"},
    "report_transfers_none": {"zh": "无需转账，已两清。", "en": "Nothing to pay: everyone is square."},
    # nothing to pay because earlier debts netted in (设置 并账) cancel tonight's results
    "report_transfers_none_carried": {
        "zh": "无需转账：之前没结的账（{debts}）并入后和今晚的输赢相抵，已两清。",
        "en": "Nothing to pay: the earlier debts netted in ({debts}) cancel tonight's results, so everyone is square.",
    },
    "report_transfer_line": {"zh": "{payer} → {payee} {amount}", "en": "{payer} → {payee} {amount}"},
    # what the pot or the house paid out that nobody owes it yet: no one's transfer (the pot hands over nothing)
    "report_pool_payout": {
        "zh": "{pool}发给 {payee} {amount}（等有人欠{pool}的钱时改由他付）",
        "en": "Paid out by the {pool}: {payee} {amount} (whoever next owes the {pool} pays it)",
    },
    "report_carried": {"zh": "（含之前没结的：{debts}）", "en": "(earlier debts netted in: {debts})"},
    "report_carried_item": {"zh": "{debtor} 欠 {creditor} {amount}", "en": "{debtor} owed {creditor} {amount}"},
    "report_no_biggest": {"zh": "—", "en": "—"},
    # a win's patterns (as its record reply lists them) and its capped multiple, as that reply ends
    "report_win": {"zh": "{patterns} → ×{multiple}", "en": "{patterns} → ×{multiple}"},
    # statistics
    "report_scope_night": {"zh": "第{number}晚（{date}）", "en": "night {number} ({date})"},
    "report_scope_week": {"zh": "本周（{label}）", "en": "this week ({label})"},
    "report_scope_month": {"zh": "{year}年{month}月", "en": "{label}"},
    "report_scope_all": {"zh": "全部", "en": "all time"},
    "report_scope_lastnight": {"zh": "昨晚", "en": "last night"},
    "report_stats_member_head": {"zh": "📊 {name} · {scope}", "en": "📊 {name} · {scope}"},
    "report_stats_group_head": {"zh": "📊 本群 · {scope}", "en": "📊 Group · {scope}"},
    "report_stats_played": {
        "zh": "对局 {hands}局｜胡 {wins}（{win_rate}）｜自摸 {self_draws}（占胡 {self_draw_rate}）",
        "en": "Hands {hands} | wins {wins} ({win_rate}) | self-drawn {self_draws} ({self_draw_rate} of wins)",
    },
    # 够级 rounds: no win and no draw; counted with how often the player was 头科 (first out)
    "report_rounds": {"zh": "{rounds}局 头科{firsts}（{rate}）", "en": "{rounds} rounds, 头科 {firsts} ({rate})"},
    "report_rounds_after": {"zh": "｜够级 {rounds}", "en": " | 够级 {rounds}"},
    "report_stats_played_rounds": {"zh": "够级 {rounds}", "en": "够级 {rounds}"},
    "report_stats_discards": {"zh": "点炮 {discards}（{discard_rate}）", "en": "Dealt in {discards} ({discard_rate})"},
    "report_stats_multiplier": {
        "zh": "平均倍数 ×{average}｜最大 ×{largest}",
        "en": "Average multiple ×{average} | largest ×{largest}",
    },
    "report_stats_biggest": {"zh": "最大一手：{hand}", "en": "Biggest hand: {hand}"},
    "report_stats_patterns": {"zh": "番型：{patterns}", "en": "Patterns: {patterns}"},
    "report_stats_money": {
        "zh": "杠钱 {kong}｜净 {net}（牌桌输赢）",
        "en": "Kong money {kong} | net {net} (at the table)",
    },
    # money that is no play result, shown beside it (never in 净, never in the ranking)
    "report_stats_beside": {"zh": "另计：{items}", "en": "Apart from play: {items}"},
    "report_beside_suffix": {"zh": "（另计：{items}）", "en": " (apart from play: {items})"},
    "report_beside_fines": {"zh": "罚款 {amount}", "en": "fines {amount}"},
    "report_beside_fees": {"zh": "台费 {amount}", "en": "fees {amount}"},
    "report_beside_received": {"zh": "领红包池/台费 {amount}", "en": "received from pot/house {amount}"},
    "report_stats_owed": {
        "zh": "总输赢 {result}｜未结（付款之后现在还差）：{owed}",
        "en": "All-time result (总输赢) {result} | owed now (未结) {owed}",
    },
    "report_owed_line": {"zh": "未结（付款之后现在还差）：{items}", "en": "Owed now (未结): {items}"},
    "report_stats_group_totals": {
        "zh": "共 {hands}局（荒庄 {draws}）｜胡 {wins}｜自摸 {self_draws}｜杠钱 {kong}",
        "en": "{hands} hands ({draws} drawn) | {wins} wins | {self_draws} self-drawn | kong {kong}",
    },
    "report_stats_group_rounds": {"zh": "共 {rounds}局 够级", "en": "{rounds} 够级 rounds"},
    "report_stats_group_rounds_after": {"zh": "｜够级 {rounds}局", "en": " | 够级 {rounds} rounds"},
    # after the totals, each only when not zero (`stats.group_text`)
    "report_stats_group_fines": {"zh": "｜罚款 {amount}", "en": " | fines {amount}"},
    "report_stats_group_fees": {"zh": "｜台费 {amount}", "en": " | fees {amount}"},
    "report_stats_group_line": {
        "zh": "{name} {net}｜{hands}局 胡{wins}（{win_rate}）点炮{discards}",
        "en": "{name} {net} | {hands} hands, {wins} wins ({win_rate}), dealt in {discards}",
    },
    "report_stats_group_line_rounds": {"zh": "{name} {net}｜够级 {rounds}", "en": "{name} {net} | 够级 {rounds}"},
    "report_stats_group_bystander": {
        "zh": "{name} 没上桌（另计：{items}）",
        "en": "{name} not at the table (apart from play: {items})",
    },
    "report_biggest_hand": {
        "zh": "{hand}（{who}，{date} 第{number}局，{won}）",
        "en": "{hand} ({who}, {date} hand {number}, {won})",
    },
    "report_nothing": {"zh": "{scope}还没有记录。", "en": "Nothing recorded for {scope} yet."},
    "report_leaderboard_head": {"zh": "🏆 排行榜 · {scope}", "en": "🏆 Leaderboard · {scope}"},
    "report_leaderboard_title": {"zh": "排行榜 · {scope}", "en": "Leaderboard · {scope}"},
    "report_nightly_chart_title": {"zh": "每晚累计走势", "en": "Running total, night by night"},
    "report_leaderboard_line": {
        "zh": "{rank} {name} {net}｜{hands}局 胡{wins}（{win_rate}）",
        "en": "{rank} {name} {net} | {hands} hands, {wins} wins ({win_rate})",
    },
    "report_leaderboard_line_rounds": {
        "zh": "{rank} {name} {net}｜够级 {rounds}",
        "en": "{rank} {name} {net} | 够级 {rounds}",
    },
    "report_h2h_head": {"zh": "⚔️ 对战 · {scope}", "en": "⚔️ Head to head · {scope}"},
    "report_h2h_line": {
        "zh": "{winner} 赢 {loser}：胡{wins}次，净 {net}",
        "en": "{winner} over {loser}: {wins} wins, net {net}",
    },
    "report_h2h_pair_head": {"zh": "⚔️ {a} 对 {b} · {scope}", "en": "⚔️ {a} vs {b} · {scope}"},
    "report_h2h_pair": {
        "zh": "{a} 胡 {b} {a_wins}次，{b} 胡 {a} {b_wins}次｜{a} 净 {net}",
        "en": "{a} won {a_wins} times from {b}, {b} {b_wins} times from {a} | {a} net {net}",
    },
    "report_export_done": {
        "zh": "已导出 {scope}：{hands}局，{transfers}笔转账",
        "en": "Exported {scope}: {hands} hands, {transfers} transfers",
    },
    "report_unknown_period": {
        "zh": "没有“{word}”这个月份：月份写成 2026-01 这样（1 到 12 月）。",
        "en": "There is no month “{word}”: write a month like 2026-01 (months 1 to 12).",
    },
    "report_unknown_word": {
        "zh": "看不懂“{word}”：既不是本群成员，也不是时间段（今晚/本周/本月/上月/全部，或 2026-01 这样的月份）。",
        "en": "“{word}” is neither a member of this group nor a period (night/week/month/lastmonth/all, or 2026-01).",
    },
    "report_unknown_member": {"zh": "本群没有叫“{name}”的成员。", "en": "No member called “{name}” in this group."},
    "report_h2h_usage": {
        "zh": "用法：对战 [时间段]，或 对战 @甲 @乙 [时间段]",
        "en": "Usage: h2h [period], or h2h @a @b [period]",
    },
    "report_export_usage": {
        "zh": "用法：导出 [今晚/本周/本月/全部/2026-01] [csv/json]",
        "en": "Usage: export [night/week/month/all/2026-01] [csv/json]",
    },
}

register(REPORT_TEXTS)


def percent(share: float) -> str:
    return f"{share * 100:.1f}%"
