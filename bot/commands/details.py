"""明细 (details): where a night's money comes from. The settlement squares the night with the fewest payments;
明细 shows the other view beside it: each pair's net (who won what from whom, unsimplified) and the hands, kongs,
fines and fees behind it. `明细` shows the night's pairs with per-reason totals, `明细 @乙` one player's pairs item
by item, and the 「明细 a→c」 buttons under a settlement say what a payment's two people's nights are made of.

Bounded for a chat: at most `MAX_PAIRS` pairs and `MAX_ITEMS` items per pair are listed, the rest summed by
reason (and the reply says so). Reading only: anyone in the group may ask or press.
"""

from __future__ import annotations

from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.commands._common import account_word, looked_up, money, shown_name
from bot.commands._money_texts import reason_word
from bot.commands.payment_codes import payment_buttons
from bot.core import Button, Context, Refusal, SendText, registry
from bot.grammar import tokens
from bot.texts import joined
from ledger.details import NightDetails, PairDetail
from ledger.models import GROUP_ACCOUNTS
from ledger.service import Payment, Settlement
from ledger.settlement import through_accounts

PREFIX = "dt"
#: pairs listed in one reply (a table of six and the pot and house accounts have at most 21 pairs)
MAX_PAIRS = 24
#: items listed for one pair (earlier ones count in the per-reason totals)
MAX_ITEMS = 10
#: payments that get a 「明细」 button of their own under a settlement
MAX_PAYMENT_BUTTONS = 8


@registry.command(
    "details",
    names=["details"],
    aliases=("明细", "账单明细", "细账", "账单"),
    help_zh="明细：这一晚每两人之间的净额（不合并）和它的由来（哪几局、哪些杠、罚款、台费），旁边是最少转账；"
    "明细 @乙：乙的逐笔明细",
    help_en="the night's unsimplified view: each pair's net and the hands, kongs, fines and fees behind it, beside "
    "the fewest payments; details @b: one player's items",
)
def details(ctx: Context) -> SendText:
    night_id = ctx.service.latest_night(ctx.chat_id)
    if night_id is None:
        raise Refusal("details_no_night")
    found = ctx.service.night_details(ctx.chat_id, night_id)
    if ctx.args:
        pair = _typed_pair(ctx, ctx.args)
        if pair is not None:  # `明细 小李→阿杰`, as its button under the settlement reads
            return SendText(payment_text(ctx, night_id, *pair), reply_to=ctx.message_id)
        word = tokens(ctx.args)[0]
        person = looked_up(ctx, word)
        if person is None:
            raise Refusal("unknown_player", name=word)
        name = shown_name(ctx, person)  # 老王#2, as the lines below name them
        text = member_text(ctx, found, person.id, name)
        carried = carried_lines(ctx, ctx.service.settle_night(night_id), {person.id})
        return SendText("\n".join([text, *carried]), reply_to=ctx.message_id)
    settlement = ctx.service.settle_night(night_id)
    return SendText(night_text(ctx, found, settlement), reply_to=ctx.message_id)


def night_text(ctx: Context, found: NightDetails, settlement: Settlement) -> str:
    """Every pair with its per-reason totals, then the fewest payments."""
    owing = [pair for pair in found.pairs if pair.net]
    if not owing:
        return ctx.t("details_none", date=found.night_date)
    lines = [ctx.t("details_head", date=found.night_date)]
    for pair in owing[:MAX_PAIRS]:
        lines += pair_lines(ctx, pair, items=False)
    if len(owing) > MAX_PAIRS:
        lines.append(ctx.t("details_more", more=len(owing) - MAX_PAIRS))
    from bot.reports.night import movers  # the report imports this module's buttons

    # the payments as 战报 and the payments post list them: a fine paid out by the pot is one line through it
    transfers, payouts = movers(settlement, ctx.lang, ctx.group.currency)
    lines.append(ctx.t("details_simplified", count=len(transfers)))
    lines += [*transfers, *payouts]
    lines += carried_lines(ctx, settlement)
    lines.append(ctx.t("details_hint"))
    return "\n".join(lines)


def carried_lines(ctx: Context, settlement: Settlement, of: set[int] | None = None) -> list[str]:
    """The earlier nights' debts the settlement netted in (设置 并账: those of the members `of`, or all), so that a
    payment larger than the night's own pairs says where the rest comes from."""
    carried = [d for d in settlement.carried if of is None or {d.payer_id, d.payee_id} & of]
    if not carried:
        return []
    items = (
        ctx.t("details_carried_item", **_sides(ctx, d.payer, d.payee), amount=money(d.amount, ctx.group.currency))
        for d in carried
    )
    return [ctx.t("details_carried", debts=joined(ctx.lang, items))]


def member_text(ctx: Context, found: NightDetails, member_id: int, name: str) -> str:
    """One account's pairs, item by item (the latest `MAX_ITEMS` of each)."""
    pairs = found.of(member_id)
    if not pairs:
        return ctx.t("details_member_none", date=found.night_date, name=name)
    net = sum(p.net if p.creditor_id == member_id else -p.net for p in pairs)
    lines = [ctx.t("details_member_head", date=found.night_date, name=name, net=_signed(ctx, net))]
    for pair in pairs[:MAX_PAIRS]:
        lines += pair_lines(ctx, pair, items=True, of=member_id)
    if len(pairs) > MAX_PAIRS:
        lines.append(ctx.t("details_more", more=len(pairs) - MAX_PAIRS))
    return "\n".join(lines)


def pair_lines(ctx: Context, pair: PairDetail, *, items: bool, of: int | None = None) -> list[str]:
    """`b → a 3元`, its per-reason totals, and (with `items`) its latest items, each signed from the side of `of`
    (the player the lines are listed for: what b won in a hand is + under `明细 @b`, whichever way the pair nets),
    else toward the pair's creditor."""
    currency = ctx.group.currency
    side = -1 if of is not None and of == pair.debtor_id else 1
    names = {"debtor": account_word(ctx.lang, pair.debtor), "creditor": account_word(ctx.lang, pair.creditor)}
    if pair.net:
        lines = [ctx.t("details_pair", **names, amount=money(pair.net, currency))]
    else:
        lines = [ctx.t("details_pair_even", **names)]
    reasons = [
        ctx.t(
            "details_reason", reason=reason_word(ctx.lang, reason, kind), count=count, amount=_signed(ctx, side * total)
        )
        for reason, kind, count, total in _reasons(pair)
    ]
    lines.append(ctx.t("details_reasons", reasons=joined(ctx.lang, reasons)))
    if items:
        shown = pair.items[-MAX_ITEMS:]
        key = "details_items_head" if len(shown) == len(pair.items) else "details_items_some"
        lines.append(ctx.t(key, shown=len(shown), count=len(pair.items)))
        for item in shown:
            reason = reason_word(ctx.lang, item.reason, item.kind)
            amount = _signed(ctx, side * item.amount)
            if item.hand_number is None:
                lines.append(ctx.t("details_item", reason=reason, amount=amount))
            else:
                lines.append(ctx.t("details_item_hand", number=item.hand_number, reason=reason, amount=amount))
    return lines


def _reasons(pair: PairDetail) -> list[tuple[str, str, int, int]]:
    """(reason, kind, count, total toward the creditor) in order of first appearance."""
    totals: dict[tuple[str, str], list[int]] = {}
    for item in pair.items:
        entry = totals.setdefault((item.reason, item.kind), [0, 0])
        entry[0] += 1
        entry[1] += item.amount
    return [(reason, kind, count, total) for (reason, kind), (count, total) in totals.items()]


def _sides(ctx: Context, payer: str, payee: str) -> dict[str, str]:
    """A payment's two names as replies show them (the pot and the house in the chat's language)."""
    return {"payer": account_word(ctx.lang, payer), "payee": account_word(ctx.lang, payee)}


def _signed(ctx: Context, amount: int) -> str:
    return money(amount, ctx.group.currency, signed=True)


# ---------------------------------------------------------------------------------------------- buttons


def settlement_buttons(ctx: Context, night_id: int, settlement: Settlement) -> tuple[tuple[Button, ...], ...]:
    """Under a settlement: 「明细」 for the whole night, and one 「明细 a→c」 per payment (the first few), with
    「c的收款码」 beside it when the payee registered one."""
    rows: list[tuple[Button, ...]] = [(Button(ctx.t("details_button"), f"{PREFIX}:{night_id}"),)]
    shown = _handed_over(settlement)[:MAX_PAYMENT_BUTTONS]
    codes = payment_buttons(ctx, [p.payee_id for p in shown])
    for p in shown:
        label = ctx.t("details_payment_button", **_sides(ctx, p.payer, p.payee))[:40]
        details_button = Button(label, f"{PREFIX}:{night_id}:{p.payer_id}:{p.payee_id}")
        rows.append((details_button, codes[p.payee_id]) if p.payee_id in codes else (details_button,))
    return tuple(rows)


def _handed_over(settlement: Settlement) -> list[Payment]:
    """The settlement's payments as 最少转账 lists them for people to hand over: a line with the pot or the house
    that its own passes took whole is no payment of its own (its 「经红包池转来」 line is), so it gets no button."""
    accounts = {line.member_id for line in settlement.balances.lines if line.kind in GROUP_ACCOUNTS}
    accounts |= {p.via_id for p in settlement.passed}
    lines = [(p.payer_id, p.payee_id, p.amount) for p in settlement.payments]
    passed = [(p.payer_id, p.payee_id, p.amount, p.via_id) for p in settlement.passed]
    transfers, payouts = through_accounts(lines, passed, accounts)
    by_pair: dict[tuple[int, int], Payment] = {}
    for p in (*settlement.passed, *settlement.payments):  # a pair's line of its own before a pass between them
        by_pair[p.payer_id, p.payee_id] = p
    shown = [(payer, payee) for payer, payee, _, _ in transfers] + [(pool, payee) for pool, payee, _ in payouts]
    return [by_pair[pair] for pair in dict.fromkeys(shown)]  # in the order 最少转账 lists them, each pair once


@registry.callback(PREFIX)
def pressed(ctx: Context) -> SendText:
    """「明细」: the whole night; 「明细 a→c」: what the payer's and the payee's nights are made of."""
    assert ctx.callback is not None
    parts = ctx.callback.data.split(":")[1:]
    if not parts or len(parts) not in (1, 3) or not all(part.isdigit() and len(part) <= 19 for part in parts):
        raise Refusal("button_expired")
    night_id = int(parts[0])
    found = ctx.service.night_details(ctx.chat_id, night_id)
    settlement = ctx.service.settle_night(night_id)
    if len(parts) == 1:
        return SendText(night_text(ctx, found, settlement))
    payer_id, payee_id = int(parts[1]), int(parts[2])
    return SendText(payment_text(ctx, night_id, payer_id, payee_id, found, settlement, missing="button_expired"))


def _typed_pair(ctx: Context, args: str) -> tuple[int, int] | None:
    """`@xiaoli→@ajie` (`小李→阿杰` while they sit at the open table): the two accounts of a payment, as its 「明细」
    button names them, each read as 明细 @名字 reads one; None when the words are no pair."""
    payer, arrow, payee = (part.strip() for part in args.partition("→"))
    if not (arrow and payer and payee):
        return None
    ids = []
    for name in (payer, payee):
        person = looked_up(ctx, name)
        if person is None:
            raise Refusal("unknown_player", name=name)
        ids.append(person.id)
    return ids[0], ids[1]


def payment_text(
    ctx: Context,
    night_id: int,
    payer_id: int,
    payee_id: int,
    found: NightDetails | None = None,
    settlement: Settlement | None = None,
    *,
    missing: str = "details_no_payment",
) -> str:
    """Where the settlement's payment from `payer_id` to `payee_id` comes from: each side's pairs of the night and
    the earlier debts netted in; refused (`missing`) when the night's payments have no such line."""
    found = found or ctx.service.night_details(ctx.chat_id, night_id)
    settlement = settlement or ctx.service.settle_night(night_id)
    handed = (*settlement.payments, *settlement.passed)  # a debt passed through the pot is a payment too
    payment = next((p for p in handed if (p.payer_id, p.payee_id) == (payer_id, payee_id)), None)
    if payment is None:
        raise Refusal(missing)
    currency = ctx.group.currency
    sides = _sides(ctx, payment.payer, payment.payee)
    lines = [ctx.t("details_payment_head", **sides, amount=money(payment.amount, currency))]
    for member_id, name in ((payer_id, sides["payer"]), (payee_id, sides["payee"])):
        pairs = found.of(member_id)
        net = sum(p.net if p.creditor_id == member_id else -p.net for p in pairs)
        lines.append(ctx.t("details_net_of", name=name, net=_signed(ctx, net)))
        for pair in [pair for pair in pairs if pair.net][:MAX_PAIRS]:
            lines += pair_lines(ctx, pair, items=False, of=member_id)
    lines += carried_lines(ctx, settlement, {payer_id, payee_id})
    return "\n".join(lines)
