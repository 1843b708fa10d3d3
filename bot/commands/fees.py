"""Table fees (台费 / 茶水 / 抽水), see `ledger.fees`: admins set them with `设置`, anyone reads them with `台费`,
admins pay the house out with `付台费`.

- `设置 台费 10`: each player pays 10元 a night, booked at 结算 (`设置 台费 0` stops it).
- `设置 抽水 10%` or `设置 抽水 2`: a cut of each win, a percentage or a fixed amount; `… 封顶 5` caps it
  (`封顶 不封顶` lifts the cap); `设置 抽水 关` stops it.
- `付台费 @甲 [金额]`: the house pays 甲 (several named: split evenly; no amount: all it holds).
"""

from __future__ import annotations

from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.commands._common import amount_or_why, money, resolve_person, setting_amount, shown_name
from bot.commands.payments import settled_at_once
from bot.core import Context, Effect, Refusal, SendText, registry
from bot.grammar import fold, tokens
from bot.texts import joined, setting_name
from bot.vocabulary import COMMAND_WORDS
from ledger.fees import MAX_PERCENT, Fees
from ledger.service import LedgerError, MemberInfo

#: setting words `设置` hands to this module: the night fee, and the cut
NIGHT_WORDS = frozenset({"台费", "茶水", "桌费", "fee", "tablefee"})
CUT_WORDS = frozenset({"抽水", "抽成", "cut"})
OPTION_WORDS = NIGHT_WORDS | CUT_WORDS
CAP_WORDS = frozenset({"封顶", "上限", "最多", "cap"})
OFF_WORDS = frozenset({"关", "0", "无", "不收", "off", "none"})
UNCAPPED_WORDS = frozenset({"不封顶", "无", "none"})
#: most members one 付台费 names
MAX_PAYEES = 10


def configure(ctx: Context, word: str, values: list[str]) -> SendText:
    """`设置 台费 …` / `设置 抽水 …` (the dispatcher has checked the sender is an admin)."""
    changes: dict[str, int | None] = {}
    if fold(word) in NIGHT_WORDS:
        if len(values) != 1:
            raise Refusal("fees_usage")
        changes["night_fee"] = 0 if fold(values[0]) in OFF_WORDS else _amount(ctx, values[0], word)
    else:
        changes |= _cut(ctx, word, values)
    fees = ctx.service.set_fees(ctx.chat_id, changes, source=ctx.source, by=ctx.sender.user_id)
    return SendText(ctx.t("fees_changed") + "\n" + describe(ctx, fees), reply_to=ctx.message_id)


def _cut(ctx: Context, word: str, values: list[str]) -> dict[str, int | None]:
    if len(values) == 1 and fold(values[0]) in OFF_WORDS:
        return {"cut_fixed": 0, "cut_percent": 0, "cut_cap": None}
    if len(values) not in (1, 3) or (len(values) == 3 and fold(values[1]) not in CAP_WORDS):
        raise Refusal("fees_usage")
    changes: dict[str, int | None] = {}
    value = values[0].replace("％", "%")
    if value.endswith("%"):
        number = value[:-1]
        if not number.isdigit() or not 1 <= int(number) <= MAX_PERCENT:
            shown = setting_name(ctx.lang, word)
            raise Refusal("config_bad_value", setting=shown, value=values[0], allowed=f"1%–{MAX_PERCENT}%")
        changes |= {"cut_percent": int(number), "cut_fixed": 0}
    else:
        changes |= {"cut_fixed": _amount(ctx, value, word), "cut_percent": 0}
    if len(values) == 3:
        if _is_zero(ctx, values[2]):  # a cap of 0 would take nothing: not a cap, and never silently "uncapped"
            raise Refusal("fees_cap_zero", text=values[2])
        changes["cut_cap"] = None if fold(values[2]) in UNCAPPED_WORDS else _amount(ctx, values[2], values[1])
    return changes


def _is_zero(ctx: Context, value: str) -> bool:
    return amount_or_why(ctx, value)[0] == 0


def _amount(ctx: Context, value: str, word: str, *, setting: bool = True) -> int:
    """An amount typed for `word` in 分: positive, at most `MAX_AMOUNT`; the refusal names the limit in the group's
    currency (`setting`: a 设置's value; else an amount to pay out)."""
    from ledger.accounts import MAX_AMOUNT

    most = money(MAX_AMOUNT, ctx.group.currency)
    if value.lstrip().startswith(("-", "－")) or _is_zero(ctx, value):
        if not setting:
            raise Refusal("payfees_bad_amount", text=value, most=most, why=ctx.t("amount_why_form"))
        raise Refusal("fees_amount_positive", what=word, text=value, most=most)
    if setting:
        amount = setting_amount(ctx, value, word)
    else:
        read, why = amount_or_why(ctx, value)
        if read is None:
            raise Refusal("payfees_bad_amount", text=value, most=most, why=why)
        amount = read
    if amount > MAX_AMOUNT:
        raise Refusal("amount_too_large", what=word, most=most, text=value)
    return amount


def describe(ctx: Context, fees: Fees | None = None) -> str:
    """The fees line of 规则 and 台费: what is taken, or that nothing is."""
    fees = fees or ctx.service.table_fees(ctx.chat_id)
    currency = ctx.group.currency
    if not fees.any:
        return ctx.t("fees_none")
    parts = []
    if fees.night_fee:
        parts.append(ctx.t("fees_night", amount=money(fees.night_fee, currency)))
    if fees.cut_percent or fees.cut_fixed:
        cut = f"{fees.cut_percent}%" if fees.cut_percent else money(fees.cut_fixed, currency)
        cap = ctx.t("fees_cap", amount=money(fees.cut_cap, currency)) if fees.cut_cap is not None else ""
        parts.append(ctx.t("fees_cut_round" if ctx.game == "gouji" else "fees_cut", cut=cut, cap=cap))
    return ctx.t("fees_line", parts=joined(ctx.lang, parts, "；"))


@registry.command(
    "fees",
    names=["fees"],
    aliases=("台费", "茶水", "抽水", "table fee", "table fees"),
    help_zh="台费：本群的台费/抽水设置和台费账户余额（管理员：设置 台费 10 ｜ 设置 抽水 10% 封顶 5 ｜ 付台费 @甲）",
    help_en="the group's table fees (per night, cut of each win) and what the house holds "
    "(admins: config fee 10 | config cut 10% cap 5 | pay table fee @a)",
)
def show_fees(ctx: Context) -> SendText:
    if ctx.args:
        raise Refusal("fees_read_only")
    held = ctx.service.balances(ctx.chat_id).house
    lines = [describe(ctx), ctx.t("fees_house", amount=money(held, ctx.group.currency, signed=True) or "0")]
    return SendText("\n".join(lines), reply_to=ctx.message_id)


@registry.command(
    "payfees",
    names=["payfees"],
    aliases=COMMAND_WORDS["payfees"],
    help_zh="付台费（管理员）：把台费账户的钱付给某人：付台费 @甲（全部）｜ 付台费 @甲 100 ｜ 付台费 @甲 @乙（平分）",
    help_en="pay the house out (admins; 付台费): pay table fee @a (all of it) | pay table fee @a 100 | "
    "pay table fee @a @b (split evenly)",
    admin_only=True,
)
def pay_fees(ctx: Context) -> list[Effect]:
    if ctx.service.answered(ctx.source):
        return [ctx.reply("already_done")]
    named: list[MemberInfo] = []
    amount: int | None = None
    words = tokens(ctx.args)
    if not words or len(words) > MAX_PAYEES + 1:
        raise Refusal("payfees_usage")
    for token in words:
        if token.startswith("@"):
            person = resolve_person(ctx, token)
            if person is None:
                raise Refusal("unknown_player", name=token)
            if person.id in {p.id for p in named}:
                raise Refusal("named_twice", name=shown_name(ctx, person))
            named.append(person)
        elif amount is None and named:
            amount = _amount(ctx, token, ctx.word, setting=False)
        else:
            raise Refusal("payfees_usage")
    if not named or len(named) > MAX_PAYEES:
        raise Refusal("payfees_usage")
    currency = ctx.group.currency
    if ctx.service.balances(ctx.chat_id).house <= 0:  # nothing booked yet (台费 comes at 结算), or paid out
        raise Refusal("payfees_empty")
    try:
        booked = ctx.service.pay_out_house(
            ctx.chat_id, [p.id for p in named], amount=amount, source=ctx.source, by=ctx.sender.user_id
        )
    except LedgerError as err:
        if err.code != "pot_too_small":
            raise
        house = ctx.service.balances(ctx.chat_id).house
        if amount is not None and amount > house:
            need = money(amount, currency)
            raise Refusal("payfees_short", held=money(house, currency) or "0", need=need) from err
        total = money(house if amount is None else amount, currency) or "0"
        raise Refusal("payfees_short_split", total=total, n=len(named)) from err  # less than 1分 each
    held = ctx.service.balances(ctx.chat_id).house
    lines = [ctx.t("payfees_done")]
    lines += [ctx.t("payfees_line", name=t.payee, amount=money(t.amount, currency)) for t in booked]
    lines.append(ctx.t("fees_house", amount=money(held, currency, signed=True) or "0"))
    return [SendText("\n".join(lines), reply_to=ctx.message_id), *settled_at_once(ctx)]
