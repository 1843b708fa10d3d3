"""Side stakes by name: what a finished hand's 漂, 数坎, 买马, 跑恰摸八 and 查大叫 paid, who to whom (a hand's reply
and the button flow's preview show them beside the totals); the 漂 on 牌桌; what a table's rules make players
report (规则, 牌桌). Everything is read from the scoring core's answer and the table's rules, nothing recomputed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.commands import _regional_texts  # noqa: F401  (registers the texts)
from bot.commands._common import money
from bot.core import Context
from bot.texts import describe_patterns, joined, option_name
from ledger.scoring.kawuxing import Rules
from ledger.scoring.kawuxing.rules import PIAO_CHOSEN, rules_from_request


def _payments(ctx: Context, transfers: Sequence[Mapping[str, Any]]) -> str:
    currency = ctx.group.currency
    return joined(
        ctx.lang,
        (
            ctx.t("stake_payment", payer=t["from"], payee=t["to"], amount=money(int(t["amount"]), currency))
            for t in transfers
        ),
    )


def stake_lines(ctx: Context, answer: Mapping[str, Any]) -> list[str]:
    """One line per side stake a finished hand paid (`数坎 2 坎：乙→甲 2元、丙→甲 2元`), a declared loser's own
    multiple (亮倒输家加倍), and 查大叫's ready hands and payments; nothing where the table plays none."""
    transfers = answer.get("transfers", [])

    def paid(reason: str, to: str | None = None) -> list[Mapping[str, Any]]:
        return [t for t in transfers if t.get("reason") == reason and (to is None or t.get("to") == to)]

    lines: list[str] = []
    for win in answer.get("hands", []):
        winner = win["winner"]
        for payer, multiple in win.get("payer_multipliers", {}).items():
            lines.append(ctx.t("payer_multiple", name=payer, multiple=multiple))
        if "kan" in win and paid("shukan", winner):
            lines.append(ctx.t("stake_kan", kan=win["kan"], payments=_payments(ctx, paid("shukan", winner))))
        if "ma" in win:
            tile = _tile(ctx, win["ma"]["tile"])
            payments = _payments(ctx, paid("maima", winner))
            lines.append(ctx.t("stake_ma", tile=tile, points=win["ma"]["points"], payments=payments))
        if "paoqiamoba" in win:
            lines.append(ctx.t("stake_pqmb", payments=_payments(ctx, paid("paoqiamoba", winner)), **win["paoqiamoba"]))
    if paid("piao"):
        lines.append(ctx.t("stake_piao", payments=_payments(ctx, paid("piao"))))
    ready = answer.get("ready")
    if ready is not None:
        lines += _chadajiao_lines(ctx, ready, paid("chadajiao"))
    return lines


def _chadajiao_lines(
    ctx: Context, ready: Mapping[str, Mapping[str, Any]], payments: Sequence[Mapping[str, Any]]
) -> list[str]:
    if not ready:
        return [ctx.t("chadajiao_nobody")]
    hands = [
        ctx.t(
            "chadajiao_hand",
            name=player,
            waits="".join(f" {_tile(ctx, w)}" for w in best.get("waits", [])),
            patterns=describe_patterns(ctx.lang, best["patterns"]),
            final=best["final_multiplier"],
        )
        for player, best in ready.items()
    ]
    return [ctx.t("chadajiao_head", hands=joined(ctx.lang, hands, "；")), *chadajiao_paid(ctx, payments)]


def chadajiao_paid(ctx: Context, transfers: Sequence[Mapping[str, Any]]) -> list[str]:
    """`查大叫赔：甲→乙 1元、丙→乙 1元` from a hand's transfers (历史 names it beside the draw); nothing when none."""
    payments = [t for t in transfers if t.get("reason") == "chadajiao"]
    return [ctx.t("chadajiao_payments", payments=_payments(ctx, payments))] if payments else []


def _tile(ctx: Context, notation: str) -> str:
    from ledger.scoring.tiles import parse_tile, tile_zh

    return notation if ctx.lang == "en" else tile_zh(parse_tile(notation))


def _rules(raw: Mapping[str, Any]) -> Rules:
    return rules_from_request(dict(raw) or None)


def piao_line(ctx: Context, table_rules: Mapping[str, Any], told: Mapping[str, int], players: Sequence[str]) -> str:
    """牌桌's 漂 line: 定漂's amount, or each player's 漂 this hand (`told`), `未报` for those not told yet; ""
    where the table plays no 漂."""
    rules = _rules(table_rules)
    if rules.piao == "fixed":
        return ctx.t("table_piao_fixed", amount=rules.piao_amount)
    if rules.piao not in PIAO_CHOSEN:
        return ""
    shown = joined(ctx.lang, (f"{p} {told[p]}" if p in told else f"{p} {ctx.t('piao_untold')}" for p in players))
    return ctx.t("table_piao_first" if rules.piao == "first_hand" else "table_piao_chosen", piao=shown)


def report_lines(ctx: Context, rules: Rules) -> list[str]:
    """What players must report each hand under these rules (the rules object's own `asks` of each option) and
    how (`规则`); empty where nothing."""
    from ledger.scoring.kawuxing.rules import OPTIONS

    lines: list[str] = []
    for option in OPTIONS:
        value = getattr(rules, option.key)
        asked = option.asks_en if ctx.lang == "en" else option.asks
        asks = asked.get(value) if isinstance(value, str | bool) else None
        if not asks:
            continue
        how = ctx.t(f"report_{option.key}_{value}" if option.key == "piao" else f"report_{option.key}")
        lines.append(ctx.t("report_line", name=option_name(ctx.lang, option.key), asks=asks, how=how))
    return [ctx.t("rules_reports_head"), *lines] if lines else []


def reports_summary(ctx: Context, table_rules: Mapping[str, Any], hand_number: int) -> str:
    """牌桌's one line of what this table reports (`本桌要报：漂、坎数`; 首局定漂's 漂 only at the first hand); ""
    when nothing."""
    rules = _rules(table_rules)
    what = []
    if rules.piao == "chosen" or (rules.piao == "first_hand" and hand_number == 1):
        what.append(ctx.t("input_piao"))
    if rules.shukan:
        what.append(ctx.t("input_kan"))
    if rules.paoqiamoba:
        what += [ctx.t("input_qia"), ctx.t("input_ba")]
    if rules.maima != "none":
        what.append(ctx.t("input_ma"))
    if rules.chadajiao:
        what.append(ctx.t("input_ready"))
    return ctx.t("table_reports", what=joined(ctx.lang, what)) if what else ""
