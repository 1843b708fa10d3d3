"""余额 (balance): tonight's and all-time balances; 历史 (history): the last hands with patterns and payments."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from bot.commands._common import ME_WORDS, account_word, looked_up, me, money, net_by_member, shown_names
from bot.commands._stakes import chadajiao_paid, stake_lines
from bot.commands.payments import (
    open_items,
    owed_text,
    told_by_payers,
    unsettled_night,
    waiting_by_account,
    waiting_shift,
)
from bot.core import Context, Quiet, Refusal, SendText, registry
from bot.grammar import fold, hand_number, implied, tokens
from bot.texts import describe_event, describe_win, joined
from bot.vocabulary import COMMAND_WORDS, LAST_HAND_WORDS, OWED_WORDS, OWING_WORDS
from ledger.events import renamed
from ledger.models import GROUP_ACCOUNTS
from ledger.payments import PAYER_SIDE
from ledger.service import HandRecord, TableInfo


@registry.command(
    "balance",
    names=["balance", "bal"],
    aliases=COMMAND_WORDS["balance"],
    help_zh=(
        "余额：每人本晚、总输赢（一共赢输多少，付款不改变）和未结（付款之后还差多少）；"
        "余额 @乙 只看一个人和他结算过还没付的账（余额 我、我欠谁、谁欠我钱：只看自己；也可写 多少钱、查账）"
    ),
    help_en=(
        "balances: tonight, all-time result (总输赢, never changed by payments), owed now (未结); "
        "balance @b: one, with the settled debts still unpaid (balance me: yours)"
    ),
)
def balance(ctx: Context) -> SendText:
    currency = ctx.group.currency
    only = None
    words = tokens(f"{implied(ctx.word)} {ctx.args}")  # `我欠谁` is `余额 我`
    pair = None  # `我欠阿杰多少`: `余额 我 阿杰`, the debts between the two only
    if words:
        only = me(ctx) if words[0] in ME_WORDS else looked_up(ctx, words[0])
        if only is None:
            raise Refusal("unknown_player", name=words[0])
        pair = looked_up(ctx, words[1]) if len(words) > 1 else None  # after 结算: the settlement's players
        if len(words) > 1 and pair is None:
            raise Refusal("unknown_player", name=words[1])
    total = ctx.service.balances(ctx.chat_id)
    night = ctx.service.night_shown_as_tonight(ctx.chat_id)  # settled this evening: still 本晚 until the 日切 hour
    tonight = ctx.service.night_totals(night.id) if night is not None else {}  # running totals: no re-sum
    seated = {seat.member_id for seat in ctx.table.seats} if ctx.table is not None else set()
    told = told_by_payers(ctx)  # paid by the payer's word alone: 未结 counts it open until the payee's
    shift, told_of = waiting_shift(told), waiting_by_account(told)
    lines = [ctx.t("balance_head")]
    shown = 0
    for line in sorted(total.lines, key=lambda b: (b.kind in GROUP_ACCOUNTS, -b.amount, b.name)):
        if only is not None and line.member_id != only.id:
            continue
        night_amount = tonight.get(line.member_id, 0)
        if only is None and line.amount == line.result == night_amount == 0 and line.member_id not in seated:
            continue  # an account that never won or lost, unless it sits at the open table
        shown += 1
        lines.append(
            ctx.t(
                "balance_line",
                name=account_word(ctx.lang, line.name),
                night=money(night_amount, currency, signed=True),
                total=money(line.result, currency, signed=True),
                owed=owed_text(ctx, line.amount + shift.get(line.member_id, 0), told_of.get(line.member_id, 0)),
            )
        )
    if shown == 0:
        return SendText(ctx.t("balance_empty"), reply_to=ctx.message_id)
    if only is not None:
        lines += unpaid_lines(ctx, only.id, None if pair is None else pair.id)
    if pair is not None and len(lines) == 2:
        lines.append(ctx.t("balance_pair_none", name=shown_names(ctx).get(pair.id, pair.name)))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


@registry.command(
    "unpaid",
    names=["unpaid"],
    aliases=COMMAND_WORDS["unpaid"],
    help_zh="谁还没付（未结、谁还欠钱）：结算之后还没付清的每一笔，谁欠谁多少",
    help_en="who has not paid: every debt settlements left open, who owes whom how much",
)
def unpaid(ctx: Context) -> SendText:
    """The open night when it is not settled yet (its money is in 未结, in no settlement's debts), then the group's
    open debts pair by pair (余额 gives each one's 未结 sum, not whom it is owed to), a payment its payer told that
    waits for the payee's word counted as still open (shown as waiting), then the payments their payee told that
    wait for the payer's nod."""
    debts = ctx.service.debts(ctx.chat_id)
    waiting = ctx.service.waiting_payments(ctx.chat_id)
    told = [w for w in waiting if w.side == PAYER_SIDE]
    night = unsettled_night(ctx)
    lines = [night] if night else []
    if debts or told:
        lines.append(ctx.t("balance_unpaid", debts=open_items(ctx, debts, told)))
    elif not night:
        lines.append(ctx.t("unpaid_none"))
    waiting = [w for w in waiting if w.side != PAYER_SIDE]
    if waiting:
        sep = "; " if ctx.lang == "en" else "、"
        items = sep.join(
            ctx.t(
                "waiting_item",
                debtor=w.debtor,
                creditor=w.creditor,
                amount=money(w.amount, ctx.group.currency),
                who=w.creditor if w.side == PAYER_SIDE else w.debtor,
            )
            for w in waiting
        )
        lines.append(ctx.t("unpaid_waiting", items=items))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def unpaid_lines(ctx: Context, member_id: int, other_id: int | None = None) -> list[str]:
    """What settlements (and payouts of the pot or the house) told the member to pay or be paid that is still
    open, pair by pair (`甲 欠 乙 3元`): the answer to 我欠谁 (only what the member owes) / 谁欠我 (only what is owed
    to them), which the 未结 figure alone does not give; with `other_id` (`我欠阿杰多少`), only between the two."""
    owing, owed = ctx.word in OWING_WORDS, ctx.word in OWED_WORDS

    def concerns(debtor: int, creditor: int) -> bool:
        return ((debtor == member_id and not owed) or (creditor == member_id and not owing)) and other_id in (
            None,
            creditor if debtor == member_id else debtor,
        )

    mine = [d for d in ctx.service.debts(ctx.chat_id) if concerns(d.debtor_id, d.creditor_id)]
    told = [w for w in told_by_payers(ctx) if concerns(w.debtor_id, w.creditor_id)]
    lines = [ctx.t("balance_unpaid", debts=open_items(ctx, mine, told))] if mine or told else []
    # the open night, asked what one owes or is owed, or between two (`我欠小李多少` right after losing to 小李), or
    # 余额 of one person once that night is past the 日切 hour: its money is in no debt yet
    pair = (member_id,) if other_id is None else (member_id, other_id)
    night = unsettled_night(ctx, pair, past_only=not (owing or owed or other_id is not None))
    plan = _would_pay(ctx, member_id) if night and owing and other_id is None else ""
    return [said for said in (night, plan) if said] + lines


def _would_pay(ctx: Context, member_id: int) -> str:
    """`我欠谁` before 结算: whom the sender would pay if the open night were settled now, by its fewest-payments
    plan (the open night's own money: debts from earlier nights stay in 还没付清), said to be no settlement yet."""
    night = ctx.service.current_night(ctx.chat_id)
    plan = ctx.service.settle_night(night.id).payments if night is not None else ()
    shown = shown_names(ctx)
    mine = [p for p in plan if p.payer_id == member_id]
    if not mine:
        return ctx.t("night_would_pay_none")
    paid = ((account_word(ctx.lang, shown.get(p.payee_id, p.payee)), money(p.amount, ctx.group.currency)) for p in mine)
    items = joined(ctx.lang, (f"{name} {amount}" for name, amount in paid))
    return ctx.t("night_would_pay", items=items)


@registry.command(
    "history",
    names=["history"],
    aliases=COMMAND_WORDS["history"],
    help_zh="历史：最近几局（默认 5 局）的番型和输赢：历史 10｜第3局：这桌第 3 局",
    help_en="the last hands (5 by default) with patterns and payments: history 10; hand 3: this table's hand 3",
)
def history(ctx: Context) -> SendText:
    limit = 5
    if ctx.word in LAST_HAND_WORDS and tokens(ctx.args):
        raise Quiet  # `上把 @li 清一色自摸 太猛了`: talk about the last hand, not asking for it
    args = f"{implied(ctx.word)} {ctx.args}".strip()  # `上一局` is `历史 1`
    if args:
        word = tokens(args)[0]
        asks_one = word.startswith("第") or fold(word) == "hand"  # `第3局`, `第 3 局`, `hand 3`: not the last 3
        number = hand_number(fold(args)) if asks_one else None
        if number is not None:
            return one_hand(ctx, number)
        count = hand_number(fold(word))  # `历史 3局`, `历史 五`, `历史 十局`: the number is read as a hand's is
        if count is None or not 1 <= count <= 50:
            raise Refusal("history_count", word=word)
        limit = count
    records = ctx.service.history(ctx.chat_id, limit)
    if not records:
        return SendText(ctx.t("history_empty"), reply_to=ctx.message_id)
    lines = [ctx.t("history_head_one" if len(records) == 1 else "history_head", count=len(records))]
    tables = {table_id: ctx.service.table(table_id) for table_id in {record.table_id for record in records}}
    shown = shown_names(ctx)
    night = None
    for record in reversed(records):
        if record.night_number is not None and record.night_id != night:  # the list crosses nights: name each
            night = record.night_id
            day = record.night_date.isoformat() if record.night_date else ""
            lines.append(ctx.t("history_night", number=record.night_number, date=day))
        lines.append(history_line(ctx, record, tables[record.table_id], shown))
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def one_hand(ctx: Context, number: int) -> SendText:
    """第3局: one finished hand of the latest table (the open one, or the last to end), as 历史 lists it."""
    record = ctx.service.numbered_hand(ctx.chat_id, number)
    if record is None:
        table = ctx.service.current_table(ctx.chat_id)
        played = table.hand_number - 1 if table is not None else None
        if played == 0:
            refused = Refusal("history_empty")
        elif played is not None and number > played:
            refused = Refusal("hand_not_played", number=number, played=played)
        else:
            refused = Refusal("hand_not_found", number=number)
        refused.heard = True  # `第9局` alone is no chat: answered even when asked without 历史
        raise refused
    table = ctx.service.table(record.table_id)
    return SendText(history_line(ctx, record, table, shown_names(ctx)), reply_to=ctx.message_id)


def history_line(ctx: Context, record: HandRecord, table: TableInfo, shown: Mapping[int, str]) -> str:
    """`第3局 甲 胡 乙 点的炮：卡五星×2 → ×2 ｜ 甲 +2元，乙 -2元，丙 0`: every seat of the hand's table in seat
    order, zeros included; a 够级/碰胡 hand lists its events in that game's words. Players are named as every
    reply names them now (`shown`): a table since ended may have seated them under names that changed (the open
    table's seat names are what `shown` says)."""
    game = table.game
    currency = ctx.group.currency
    seat_names = {seat.name: shown.get(seat.member_id, seat.name) for seat in table.seats}
    events = [renamed(event, seat_names) for event in record.events]
    answer = {
        "hands": [renamed(hand, seat_names) for hand in record.patterns],
        "transfers": [
            {"from": shown.get(t.payer_id, t.payer), "to": shown.get(t.payee_id, t.payee), "amount": t.amount}
            | {"reason": t.reason}
            for t in record.transfers
            if not t.voided
        ],
    }
    kongs = [  # one line for the same kong told again and again (`阿杰 暗杠（4 次）`: told without their tiles)
        what if len(told := list(same)) == 1 else ctx.t("history_kongs", what=what, count=len(told))
        for what, same in itertools.groupby(describe_event(ctx.lang, e) for e in events if e.get("type") == "gang")
    ]
    what = (  # the kongs (their money is in the changes), the win or the draw, its side stakes, 查大叫's payments
        kongs
        + describe_win(ctx.lang, events, answer, currency)
        + stake_lines(ctx, answer)
        + chadajiao_paid(ctx, answer["transfers"])
        if game == "kawuxing"
        else []
    )
    if not what:
        dealer = seat_names.get(record.dealer, record.dealer) if record.dealer is not None else None
        what = [describe_event(ctx.lang, event, game, dealer) for event in events]
    what = what or [ctx.t("hand_empty")]
    net = net_by_member(t for t in record.transfers if not t.voided)
    sep = ", " if ctx.lang == "en" else "，"
    changes = sep.join(
        f"{seat_names[seat.name]} {money(net.get(seat.member_id, 0), currency, signed=True)}" for seat in table.seats
    )
    return ctx.t("history_line", number=record.number, what=joined(ctx.lang, what, "；"), changes=changes)
