"""Money as players read it: integer 分 in, the group's currency label out.

The ledger keeps 分; a display shows 元 with two decimals when the label is a yuan-like unit ("元", "块", "RMB",
"CNY", "¥"), and the plain integer when the group counts in points (label "分", "点", anything else).
"""

from __future__ import annotations

#: Labels meaning "yuan": the amount is shown as 分 / 100 with two decimals.
YUAN_LABELS = frozenset({"元", "块", "rmb", "cny", "¥", "￥", "yuan"})


def in_yuan(currency: str) -> bool:
    return currency.strip().lower() in YUAN_LABELS


def amount_text(amount: int, currency: str) -> str:
    """The number alone, no label: 1250 -> "12.50" for 元, "1250" for points."""
    if in_yuan(currency):
        sign = "-" if amount < 0 else ""
        whole, cents = divmod(abs(amount), 100)
        return f"{sign}{whole}.{cents:02d}"
    return str(amount)


def money(amount: int, currency: str, *, signed: bool = False) -> str:
    """`amount` 分 with the label: "12.50元"; `signed` adds "+" to gains (net results)."""
    text = amount_text(amount, currency)
    if signed and amount > 0:
        text = "+" + text
    label = currency.strip()
    if label in {"¥", "￥"}:
        return f"{'-' if text.startswith('-') else '+' if text.startswith('+') else ''}{label}{text.lstrip('+-')}"
    return f"{text}{label}"


def display_units(amount: int, currency: str) -> float:
    """The amount in the unit a chart axis shows (元 or points)."""
    return amount / 100 if in_yuan(currency) else float(amount)
