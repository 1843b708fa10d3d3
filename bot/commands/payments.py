"""Payments after a settlement: 付/已转 (the payer), 收到 (the payee), 撤销付款, and the 「已付」/「收到」 buttons under
the 结算 post.

A payment is booked once, by whichever side tells it first; the other side's word (typed or a button) confirms
that same payment (the ledger's rule: same pair, not yet confirmed, within 48 hours, the same amount when one is
named) and never books a second. Only the two people concerned or an admin mark a payment
(`bot.permissions.require_party`). A redelivered message or press books once (its source); a second press of a
button finds nothing left to pay and says so. Payments are taken back with 撤销付款 only: the generic 撤销 takes
back the table's latest record, and a payment is not a record of the table.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.amounts import looks_like_amount, unit_words
from bot.commands._common import (
    Confirmation,
    account_named,
    account_word,
    amount_or_why,
    answered,
    asked_already,
    button_index,
    flow_data,
    flow_key,
    known_mention,
    live_press,
    me,
    resolve_person,
    settled_player,
    shown_name,
    shown_names,
    written_mention,
)
from bot.commands.questions import cancel_by_typing, press_by_typing
from bot.commands.suggest import run_held, typed_line
from bot.core import AnswerCallback, Button, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.grammar import NAME_THEN_AMOUNT, english_payment, fold, said_after_payment, tokens
from bot.permissions import may_answer, require_party
from bot.texts import joined, money, setting_name
from bot.vocabulary import (
    ALL_RECEIVED_WORDS,
    COMMAND_WORDS,
    NOT_RECEIVED_WORDS,
    PAID_ALONE_WORDS,
    PAID_DONE,
    PAID_NAMING_WORDS,
    PAID_TO_WORD,
    PAID_YOU_WORDS,
    PAY_ALL_WORDS,
    RECEIVED_NAMING_EN,
    RED_PACKET_PAID_WORDS,
    REPEAT_NO_WORDS_EN,
    SENT_TO_READ_AS,
    SENT_TO_WORD,
    SUGGEST_NO_WORDS,
    THANKS_WORDS,
)
from ledger.accounts import MAX_AMOUNT
from ledger.errors import DuplicatePayment, Overpaid, ShortOfWaiting
from ledger.fees import HOUSE_NAME
from ledger.models import GROUP_ACCOUNTS
from ledger.payments import PAYEE_SIDE, PAYER_SIDE, Waiting
from ledger.service import (
    POT_NAME,
    Debt,
    Ledger,
    LedgerError,
    LineState,
    MemberInfo,
    Passed,
    Payment,
    PaymentResult,
    Settlement,
)

PREFIX = "pay"


def _person_and_amount(ctx: Context, words: list[str]) -> tuple[MemberInfo, int | None]:
    """`@阿一 11` (the amount optional): the other person and the amount in 分."""
    words = _amount_glued(ctx, words)
    if len(words) == 3 and words[2] in unit_words(ctx.group.currency):
        words = [words[0], words[1] + words[2]]  # `付 @阿一 4 元`: the unit typed apart
    if not words or len(words) > 2:
        raise Refusal("payment_usage")
    other = settled_player(ctx, words[0]) or _named_member(ctx, words)
    if other is None:
        if amount_or_why(ctx, words[0])[0] is not None:
            raise Refusal("payment_usage")  # `付 8`, `收到 8块`: an amount where the person goes, not a name
        raise Refusal("unknown_player", name=words[0])
    amount = None
    if len(words) == 2:
        amount, why = amount_or_why(ctx, words[1])
        if amount is None and fold(words[1]) in PAY_ALL_WORDS:
            raise Refusal("payment_all_word", text=words[1], line=f"{ctx.word} {words[0]}")
        if amount is None or amount <= 0:
            refused = Refusal("payment_bad_amount", text=words[1], why=why or ctx.t("amount_why_positive"))
            refused.heard = looks_like_amount(words[1])  # `转给 @阿一 8欢乐豆`: meant as money, never chat
            raise refused
        if amount > MAX_AMOUNT:
            most = money(MAX_AMOUNT, ctx.group.currency)
            raise Refusal("amount_too_large", what=ctx.t("what_payment"), most=most, text=words[1])
    return other, amount


def _named_member(ctx: Context, words: list[str]) -> MemberInfo | None:
    """The person of the first word when no settled player reads so: `@x` as `resolve_person` reads it, a plain name
    the guest it names (`account_named`). A member's plain name (`付 胖子 1`, `付 老王 1` for 老王-成员) is refused
    with the line that names them by @ (`付 @pz 1`), one two members go by with their names, not with 开桌's advice
    about guests. A member typed apart with nothing open with the sender (no debt, no payment waiting, either way)
    is read as named: the ledger then books nothing and the reply says so at once (`tom paid me 4` → Tom owes you
    nothing)."""
    if words[0].startswith("@"):
        return resolve_person(ctx, words[0])
    owner = account_named(ctx, words[0])
    typed = ctx.incoming.text if ctx.incoming is not None else words[0]
    apart = fold(words[0]) in {fold(word) for word in tokens(typed)}  # `付小张1`, glued, may be chat: not so read
    if owner is None or owner.kind != "member" or (apart and not _open_between(ctx, me(ctx).id, owner.id)):
        return owner
    mention = written_mention(ctx, owner.id, shown_names(ctx).get(owner.id, words[0]))
    line = " ".join([ctx.word, mention, *words[1:]])
    line = "I" + line[1:] if line.startswith("i ") else line  # `I paid tom`: the word comes folded
    raise Refusal("payment_name_not_settled", name=words[0], line=line)


def _open_between(ctx: Context, one: int, other: int) -> bool:
    """Whether a debt or a payment waiting for a word stands between two accounts, either way."""
    pair = {one, other}
    return any({d.debtor_id, d.creditor_id} == pair for d in ctx.service.debts(ctx.chat_id)) or any(
        {w.debtor_id, w.creditor_id} == pair for w in ctx.service.waiting_payments(ctx.chat_id)
    )


def _said_done(ctx: Context, words: list[str]) -> list[str]:
    """The words without 了 (啦) closing the amount, glued to it or typed apart (`8块了`, `8 了`): only after a word
    that reads as an amount, so `已转 @阿一 你看看了` keeps its words."""
    if len(words) >= 2 and words[-1] in PAID_DONE and amount_or_why(ctx, words[-2])[0] is not None:
        return words[:-1]
    last = words[-1] if words else ""
    if last.endswith(PAID_DONE) and amount_or_why(ctx, last[:-1])[0] is not None:
        return [*words[:-1], last[:-1]]
    return words


def _amount_then_payee(ctx: Context, words: list[str]) -> list[str]:
    """A payment told amount first (`转了 8 给 @阿一`, `微信转了8块给@阿一`, `付 4 @阿一`): the amount, 给 (or not)
    and one @mention last,
    nothing else, are `@阿一 8`; any other words stay as typed (`转了 8 个给他`, `转了 8 给 @阿一 看看`). A plain name
    last (`转了5块给老王`) is read so only when it is a player of the latest settlement (`settled_player`)."""
    before, _, name = "".join(words).rpartition(PAID_TO_WORD)
    if name and not name.startswith("@") and amount_or_why(ctx, before)[0] is not None and settled_player(ctx, name):
        return [name, before]
    if len(words) < 2 or not words[-1].startswith("@") or len(words[-1]) < 2:
        return words
    amount = "".join(words[:-1]).removesuffix(PAID_TO_WORD)  # `付 4 @阿一` (no 给) too
    if amount_or_why(ctx, amount)[0] is None:
        return words
    return [words[-1], amount]


#: an @username with what may be an amount glued after it (`@c4`, `@c2.5`, `@c4块` read as `@c4 块`)
_GLUED_DIGITS = re.compile(r"@[A-Za-z0-9_]+[0-9][^@]*")


def _amount_glued(ctx: Context, words: list[str]) -> list[str]:
    """`已转@c4块` (`@c4 块`: Telegram's username runs over the digits): when nobody is @c4 but one member is @c
    and what follows reads as an amount (`4块`), the words are `@c 4块`. A known @c4 wins, and when none or more
    than one way to split names someone the words stay as typed (`@c4`: an unknown member, as before)."""
    if not words or known_mention(ctx, words[0][1:]):
        return words
    splits = _glued_splits(ctx, words)
    return splits[0] if len(splits) == 1 else words


def _glued_splits(ctx: Context, words: list[str]) -> list[list[str]]:
    """The ways an @username with digits glued after it (`@c4`, `@c4 块`) splits into a known member's @username
    and a positive amount (`@c 4块`); none when more than a unit follows it (`@c4 5`: the 5 is the amount)."""
    if not words or not _GLUED_DIGITS.fullmatch(words[0]):
        return []
    first, rest = words[0], words[1:]
    unit = rest[0] if len(rest) == 1 and rest[0] in unit_words(ctx.group.currency) else ""  # `@c4 块`
    if rest and not unit:
        return []
    return [
        [first[:cut], first[cut:] + unit]
        for cut in range(2, len(first))
        if first[cut].isdigit()
        and re.fullmatch(r"[A-Za-z0-9_]+", first[1:cut])
        and (amount_or_why(ctx, first[cut:] + unit)[0] or 0) > 0
        and known_mention(ctx, first[1:cut])
    ]


def _sent_to_glued(ctx: Context, words: list[str]) -> Effect | None:
    """`转给@ajie4` (an @username with digits glued to 转给, a word people also forward with): never booked on a
    guess. When nobody is @ajie4 but the sender owes @ajie, it asks 「是不是：转给 @ajie 4？」 and 「就是这个」 books
    that; when @ajie4 is a member, it is them, and with no amount said the reply asks for one (and says how to pay
    @ajie 4 when that reading is one too). With nothing owed to either, the line is chat, as `转给 @x` is. None when
    the words are no such line (`转给@ajie4 5`, `已转@c4`: read as typed)."""
    typed = fold(ctx.incoming.text if ctx.incoming is not None else "").lstrip()
    if not ctx.unprompted or not typed.startswith(SENT_TO_WORD) or not words or not _GLUED_DIGITS.fullmatch(words[0]):
        return None
    if len(words) > 1 and not (len(words) == 2 and words[1] in unit_words(ctx.group.currency)):
        return None  # `转给@ajie4 5`: the amount said apart
    splits = _glued_splits(ctx, words)
    payee = resolve_person(ctx, splits[0][0]) if len(splits) == 1 else None
    reading = payee is not None and _owes(ctx, payee)
    line = f"{SENT_TO_WORD} {' '.join(splits[0])}" if reading else ""
    if known_mention(ctx, words[0][1:]):
        named = resolve_person(ctx, words[0])
        if named is None or not (reading or _owes(ctx, named)):
            raise Quiet
        key = "payment_sent_to_how_much" if reading else "payment_sent_to_how_much_only"
        refused = Refusal(key, name=words[0], other=splits[0][0] if reading else "", line=line)
        refused.heard = True  # a member owed named, with no amount
        raise refused
    if payee is None or not reading:
        raise Quiet  # nobody owed it could be paid to: chat
    question = ctx.t("suggest", why=ctx.t("payment_glued_why", name=words[0]), line=line)
    return _hold_back(
        ctx, question, (me(ctx).id, payee.id), timed=False, reading=(SENT_TO_READ_AS, " ".join(splits[0]))
    )


def _owes(ctx: Context, creditor: MemberInfo) -> bool:
    """Whether the sender owes `creditor` anything from a settlement (a payment to them would go somewhere)."""
    payer = me(ctx).id
    return any(
        d.debtor_id == payer and d.creditor_id == creditor.id
        for d in ctx.service.debts(ctx.chat_id, [payer, creditor.id])
    )


def _book(
    ctx: Context,
    debtor: tuple[int, str],
    creditor: tuple[int, str],
    amount: int | None,
    side: str,
    at_most: int | None = None,
    confirm_only: bool = False,
    source: str | None = None,
    line: tuple[int, int] | None = None,
    check_repeat: bool = False,
) -> PaymentResult:
    """Tell the ledger (under `source`, the context's by default; `line`: the settlement's line a button was
    pressed under; `check_repeat`: a typed payment, held back as a repeat: `DuplicatePayment`); its refusals become
    the player's words (names and amounts in 元)."""
    try:
        return ctx.service.pay(
            ctx.chat_id,
            debtor[0],
            creditor[0],
            amount,
            side=side,
            at_most=at_most,
            confirm_only=confirm_only,
            line=line,
            check_repeat=check_repeat,
            source=source or ctx.source,
            by=ctx.sender.user_id,
        )
    except (DuplicatePayment, ShortOfWaiting):
        raise
    except LedgerError as err:
        shown = shown_names(ctx)  # distinct, as 余额 and 结算 show them (老王, 老王#2)
        names = {"debtor": shown.get(debtor[0], debtor[1]), "creditor": shown.get(creditor[0], creditor[1])}
        names["debtor_at"] = written_mention(ctx, debtor[0], names["debtor"])
        names["creditor_at"] = written_mention(ctx, creditor[0], names["creditor"])
        if err.code == "nothing_to_confirm":
            raise _nothing_to_confirm(ctx, debtor[0], creditor[0], names) from err
        if err.code == "no_debt":
            raise _nothing_owed(ctx, debtor if side == PAYEE_SIDE else creditor, side) from err
        if isinstance(err, Overpaid):
            key = "payment_overpaid" if side == PAYER_SIDE else "payment_overpaid_received"
            params = {"owed": money(err.owed, ctx.group.currency), **names}
            if err.waiting:  # the other side told some already: the most this side's word can say is both
                key += "_waiting"
                params["waiting"] = money(err.waiting, ctx.group.currency)
                params["most"] = money(err.owed + err.waiting, ctx.group.currency)
            raise Refusal(key, **params) from err
        if err.code == "bad_member":
            raise Refusal("payment_bad_member") from err
        if err.code == "bad_transfer":
            raise Refusal("payment_self" if side == PAYER_SIDE else "payment_self_received") from err
        raise


#: the refusals of a 收到 with no payment waiting for the payee's word (with what the payer owes, or without)
NOTHING_TO_CONFIRM = ("payment_nothing_to_confirm", "payment_nothing_to_confirm_owed")


def _nothing_to_confirm(ctx: Context, debtor_id: int, creditor_id: int, names: dict[str, str]) -> Refusal:
    """`收到 @tom` with no payment of Tom's waiting: what to write instead, with what Tom still owes (`收到 @tom
    4元`) when he owes the sender anything, else with no amount made up."""
    owed = sum(d.amount for d in ctx.service.debts(ctx.chat_id, [debtor_id, creditor_id]) if d.debtor_id == debtor_id)
    if not owed:
        return Refusal(NOTHING_TO_CONFIRM[0], **names)
    return Refusal(NOTHING_TO_CONFIRM[1], owed=money(owed, ctx.group.currency), **names)


def payment_text(ctx: Context, result: PaymentResult, proxy: tuple[str, str] | None = None) -> str:
    """What a payment did, and what is still owed between the two. `proxy`: (admin, for whom) when an admin pressed
    a button for one side; "both sides said so" only when each side told it in person."""
    currency = ctx.group.currency
    params = {
        "debtor": result.debtor,
        "creditor": result.creditor,
        "amount": money(result.amount, currency),
        "owed": money(result.owed, currency),
    }
    if result.count > 1:  # a button confirmed every payment waiting for its side's word: their total
        params["amount"] = ctx.t("payment_count", amount=params["amount"], count=result.count)
    if proxy is not None:
        params["admin"], params["side"] = proxy
        params["other"] = result.creditor if result.side == PAYER_SIDE else result.debtor
    if result.voided:
        head = ctx.t("payment_voided", **params)
    elif not result.booked:
        if proxy is not None:
            head = ctx.t("payment_confirmed_for", **params)
        elif not result.first_in_person:
            first = result.debtor if result.side == PAYER_SIDE else result.creditor
            head = ctx.t("payment_confirmed_after_proxy", first=first, **params)
        else:
            head = ctx.t("payment_confirmed" if result.count == 1 else "payment_confirmed_many", **params)
    elif result.also_confirmed:  # `收到 @b 4` after b's `已付 2`: b's 2 confirmed, the other 2 booked
        confirmed = money(result.also_confirmed, currency)
        if result.also_count > 1:
            confirmed = ctx.t("payment_count", amount=confirmed, count=result.also_count)
        total = money(result.also_confirmed + result.amount, currency)
        key = "payment_covered_by_payer" if result.side == PAYER_SIDE else "payment_covered_by_payee"
        head = ctx.t(key, confirmed=confirmed, total=total, **params)
    elif result.confirmed:  # booked with a guest, who has no word to give: it stands on this side's (`pay`)
        params["guest"] = result.creditor if result.side == PAYER_SIDE else result.debtor
        params["teller"] = result.debtor if result.side == PAYER_SIDE else result.creditor
        head = ctx.t("payment_booked_guest_for" if proxy is not None else "payment_booked_guest", **params)
    elif proxy is not None:
        head = ctx.t("payment_booked_for", **params)
    elif result.side == PAYER_SIDE:
        head = ctx.t("payment_booked_by_payer", **params)
    else:
        head = ctx.t("payment_booked_by_payee", **params)
    if result.owed:
        tail = ctx.t("payment_owed", **params)
    elif result.booked and not result.voided and not result.confirmed:  # waits for the other side's word
        who = result.creditor if result.side == PAYER_SIDE else result.debtor
        tail = ctx.t("payment_square_once_confirmed", who=who, **params)
    else:
        tail = ctx.t("payment_square", **params)
    return f"{head}\n{tail}"


def _reply(ctx: Context, result: PaymentResult) -> list[Effect]:
    """A typed payment's reply, and the payments post of the pair rewritten in place (`rewritten_post`)."""
    if result.replayed:
        return [ctx.reply("already_done")]
    return [SendText(payment_text(ctx, result), reply_to=ctx.message_id), *rewritten_post(ctx, result)]


def rewritten_post(ctx: Context, result: PaymentResult) -> list[Effect]:
    """After a typed 付/收到/撤销付款: the payments post of the line the payment settles and the pair's later posts
    (what it paid beyond that line shows there), else the latest settlement with a line of the pair, each rewritten
    in place to show where its lines stand now, as a press under it does. Nothing when no such post is known (one
    sent before the bot kept its posts' messages, or further back than `ledger.payments.POSTS_LOOKED_AT`)."""
    effects: list[Effect] = []
    for settlement_id, message_id in ctx.service.payment_posts_of(
        ctx.chat_id, result.debtor_id, result.creditor_id, result.settlement_id
    ):
        settlement = ctx.service.stored_settlement(ctx.chat_id, settlement_id)
        if settlement is not None:
            effects += payment_post(ctx, settlement, edit=message_id)
    return effects


def message_source(ctx: Context, refusal: str = "payment_edit") -> str:
    """The source a payment message books under: the message as first sent, edits included. A payment is never
    rewritten in place (the other side may have confirmed it), so an edit of a message that booked one is refused
    with the way to change it; an edit of a message that booked nothing (refused, say) is read as the message it
    now is, under the first source, so a further edit finds it booked."""
    incoming = ctx.incoming
    if incoming is None or not incoming.edited:
        return ctx.source
    if ctx.service.answered(incoming.original_source):
        refused = Refusal(refusal)
        refused.heard = True  # it booked a payment, so it is one however it was worded (`@阿一 已转 4`): answered
        raise refused
    return incoming.original_source


def _numerals_glued(after: str) -> bool:
    """`付了五块`, `@阿杰 付了五块`: an amount in Chinese numerals glued to the payment word (one in digits ends the
    word anyway: `付了5块`), read as its amount, which the payment refuses with how to write it (`请用数字写`)."""
    first = after.split(maxsplit=1)[0] if after.strip() else ""
    return bool(first) and not first[0].isascii() and looks_like_amount(first)


def _name_glued(after: str) -> bool:
    """`付阿杰4`, `已转阿杰4块` (a plain name, then an amount in digits, glued to the word): read as typed apart,
    a line that acts only when it reads cleanly (`grammar.unprompted`: `付出3` naming nobody stays chat)."""
    first = after.split(maxsplit=1)[0] if after.strip() else ""
    glued = NAME_THEN_AMOUNT.fullmatch(first)
    return glued is not None and len(after.split()) == 1 and looks_like_amount(glued["amount"])


@registry.command(
    "pay",
    names=["paid"],
    on_edit=True,
    glued=lambda after: _numerals_glued(after) or _name_glued(after),
    aliases=COMMAND_WORDS["pay"],
    help_zh="付：付 @阿一 11 记下你付给阿一 11元（可以只付一部分）；已转 @阿一 付清结算说的全部（也可写 转你了 @阿一、"
    "红包发了 @阿一；只欠一个人就发 已转）；对方「收到」即确认",
    help_en="paid @a 11: you paid a 11 (part of it is fine); paid @a: all you owe a (also 转你了 @a, 红包发了 @a; "
    "owing one person, plain 已转); a's “received” confirms it",
)
def pay(ctx: Context) -> list[Effect]:
    source = message_source(ctx)
    words = _amount_then_payee(ctx, _said_done(ctx, _typed_words(ctx)))
    named = ctx.word == SENT_TO_READ_AS and ctx.unprompted and words and not words[0].startswith("@")
    if named and settled_player(ctx, words[0]) is None:  # `转小李4块`, `转给 张三 4`: read so by `grammar._sent_to`
        raise Quiet  # a name no line of the latest settlement names: chat, no money moved on a guess
    if ctx.word in PAID_ALONE_WORDS and len(words) <= 1 and not any(word.startswith("@") for word in words):
        alone = amount_or_why(ctx, words[0])[0] if words else None
        if not words or (alone is not None and alone > 0):  # `已转`, `已转4`: to the one person the sender owes
            return _paid_alone(ctx, source, words)
    if words and fold(words[0]) in (POT_NAME, HOUSE_NAME):
        raise Refusal("payment_to_pool")  # `已转 红包池`, `付 台费 5`: paid by its payout, never to the account
    if _chat_after(ctx, words) or (ctx.word in PAID_NAMING_WORDS and not _named_first(ctx, words)):
        raise Quiet  # `已转 你看看`, `付了 谢谢`, `转了 8 个给他`; `转你了 8`, `红包发了`, `sent` naming nobody
    if _amount_alone(ctx, words):  # `付 8`, `付 8 元`: to the one person the sender owes, as `已转 8`
        return _paid_alone(ctx, source, words)
    asked = _sent_to_glued(ctx, words)
    if asked is not None:
        return [asked]
    other, amount = _person_and_amount(ctx, words)
    if ctx.word in RED_PACKET_PAID_WORDS and not _owes(ctx, other):
        raise Quiet  # a 红包 to someone owed nothing is a gift, not a payment
    payer = me(ctx)
    return _typed(ctx, (payer.id, payer.name), (other.id, other.name), amount, PAYER_SIDE, source=source)


def _amount_alone(ctx: Context, words: list[str]) -> bool:
    """Whether a payment's words are a positive amount alone (`8`, `8块`, `8 元`), naming nobody: `付 8` pays the
    one person the sender owes, as `已转 8` does (`_paid_alone`)."""
    if not words or len(words) > 2 or (len(words) == 2 and words[1] not in unit_words(ctx.group.currency)):
        return False
    amount = amount_or_why(ctx, "".join(words))[0]
    return amount is not None and amount > 0


def _typed_words(ctx: Context) -> list[str]:
    """The payment's words without thanks after its @person (`收到 @小李 谢谢`, `got it @b thx`: `THANKS_WORDS`), and a
    name typed glued to its amount split from it (`收到 小李5块`: `小李 5块`, answered as that is); English around
    them read as `grammar.english_payment` reads it (`received 4 from @tom`: `@tom 4`)."""
    words = english_payment(tokens(ctx.args))
    if len(words) > 1 and words[0].startswith("@") and fold(" ".join(words[1:])) in THANKS_WORDS:
        words = words[:1]  # only right after the person: `转给 @c 4 谢谢`, `付了 谢谢` stay chat
    if len(words) == 1 and not words[0].startswith("@"):
        glued = NAME_THEN_AMOUNT.fullmatch(words[0])
        if glued is not None and (amount_or_why(ctx, glued["amount"])[0] or 0) > 0:
            return [glued["name"], glued["amount"]]
    return words


#: `阿杰的了`, `阿杰的`: whose money was received (`收到阿杰的了`)
_FROM_NAME = re.compile(r"(?P<name>[^\s@]+?)的(?:了|啦)?")


def _paid_alone(ctx: Context, source: str, amount: list[str]) -> list[Effect]:
    """`已转`, `转完了`, `已付清` alone (`vocab.PAID_ALONE_WORDS`): all the sender owes the one person they owe, as
    `已转 @那人`, and with an amount (`已转4`, `付 8`) that amount, as `已转 @那人 4` (more than owed is refused with
    what is); owing several people, or nobody, they are told whom they owe and how to write it, the amount in it
    (nothing is booked on a guess). What they owe the pot or the house is no choice: nobody pays an account, it
    waits for its payout (发红包池, 付台费), so one person owed besides it is still the one."""
    payer = me(ctx)
    pools = {line.member_id for line in ctx.service.balances(ctx.chat_id).lines if line.kind in GROUP_ACCOUNTS}
    owing = [d for d in ctx.service.debts(ctx.chat_id) if d.debtor_id == payer.id]
    creditors = {d.creditor_id for d in owing if d.creditor_id not in pools}
    if len(creditors) == 1:  # one person (a pool besides is no one to pay)
        only = next(d for d in owing if d.creditor_id in creditors)
        if amount:
            _other, paid = _person_and_amount(ctx, [written_mention(ctx, only.creditor_id, only.creditor), *amount])
        else:
            paid = None
        return _typed(ctx, (payer.id, payer.name), (only.creditor_id, only.creditor), paid, PAYER_SIDE, source=source)
    if not owing:
        raise Refusal("payment_alone_none")
    if not creditors:
        raise Refusal("payment_to_pool")  # owing the pot or the house alone: nobody to pay until its payout
    first = next(d for d in owing if d.creditor_id in creditors)  # the example names a person, never the pot
    example = written_mention(ctx, first.creditor_id, shown_names(ctx).get(first.creditor_id, first.creditor))
    if amount:  # `付 8`, `已转 8`: which of them, with the amount in the line to type
        paid = amount_or_why(ctx, "".join(amount))[0] or 0
        text = money(paid, ctx.group.currency)
        raise Refusal("payment_amount_which", debts=debt_items(ctx, owing), payee=example, amount=text)
    raise Refusal("payment_alone_which", debts=debt_items(ctx, owing), payee=example)


@registry.command(
    "received",
    names=["received"],
    on_edit=True,
    aliases=COMMAND_WORDS["received"],
    help_zh="收到：收到 @阿二 11 确认阿二付的 11元（阿二还没记就由你记下）；收到 @阿二 确认他最近记的一笔",
    help_en="received @b 11: confirms b's payment of 11 (or books it if b has not); received @b: confirms his latest",
    glued=lambda after: _name_glued(after) or _FROM_NAME.fullmatch(after.strip()) is not None,
)
def received(ctx: Context) -> list[Effect]:
    typed = _typed_words(ctx)
    words = _from_whom(ctx, _thanks_after_amount(ctx, _without_thanks(typed)))
    if ctx.word in NOT_RECEIVED_WORDS:
        return _not_received(ctx, words)
    from_name = _FROM_NAME.fullmatch(words[0]) if len(words) == 1 else None
    if from_name is not None and settled_player(ctx, from_name["name"]) is not None:
        words = [from_name["name"]]  # `收到阿杰的了`: 收到 阿杰
    if ctx.word in RECEIVED_NAMING_EN and not words:
        raise Quiet  # `got`, `got!`: said, naming nobody
    if ctx.word in ALL_RECEIVED_WORDS:
        if words:
            raise Quiet  # `都收到了吗`… : chat
        return _all_received(ctx)
    if all(fold(word) in COMMAND_WORDS["received"] for word in words):
        # `收到`, `收到了`, `收到 收到`: the one payer waiting for the sender's word; `收到，谢谢` only then
        return _all_received(ctx, thanked=len(words) < len(typed))
    if _chat_after(ctx, words):
        raise Quiet  # a bare 收到 is how chats say "got it", and so is `收到，谢谢`
    source = message_source(ctx)
    other, amount = _person_and_amount(ctx, _said_done(ctx, words))
    payee = me(ctx)
    # without an amount it only confirms (`收到 @阿二` is also how a chat acknowledges someone): booking takes one
    confirm_only = amount is None
    debtor, creditor = (other.id, other.name), (payee.id, payee.name)
    return _typed(ctx, debtor, creditor, amount, PAYEE_SIDE, confirm_only=confirm_only, source=source)


def _thanks_after_amount(ctx: Context, words: list[str]) -> list[str]:
    """`收到 小芳 20块，谢谢`, `收到了 @x 20 谢谢`: thanks after a whole 收到 (the person and the amount) is said to
    them, not a word of the payment: the 收到 without it."""
    if len(words) < 3 or fold(words[-1]) not in THANKS_WORDS:
        return words
    kept = _said_done(ctx, words[:-1])
    return kept if len(kept) == 2 and amount_or_why(ctx, kept[1])[0] is not None else words


def _from_whom(ctx: Context, words: list[str]) -> list[str]:
    """`收到小芳的20块`: the name with 的 is whom it came from, when without 的 it names a player of the latest
    settlement (`settled_player`), as `收到阿杰的了` is read."""
    if len(words) == 2 and words[0].endswith("的") and settled_player(ctx, words[0][:-1]) is not None:
        return [words[0][:-1], words[1]]
    return words


def _without_thanks(words: list[str]) -> list[str]:
    """收到's words without the thanks or laughter said after them (`收到，谢谢`, `收到 哈哈`, `收到 谢谢小李`,
    `收到 王哥 谢谢`: `grammar.said_after_payment`), so they confirm as `收到` / `收到 王哥` do; after an amount
    (`收到 @小芳 20块，谢谢`) they are read where amounts are (not here)."""
    kept = list(words)
    while kept and said_after_payment(kept[-1]) and not any(looks_like_amount(word) for word in kept):
        kept.pop()
    return kept


def _not_received(ctx: Context, words: list[str]) -> list[Effect]:
    """`没收到`, `没收到 @阿杰` (`@阿杰 没收到啊`; `没收到 @阿杰 4`: the one of 4): the payee says a payment its payer
    told (已付, 已转) never came. Taken back as the payee's 撤销付款 takes back one payment — the latest of the
    payer's still waiting for the payee's word — said so, with the payer named to tell it again once the money is
    sent. Naming nobody: the one payer with payments waiting for the sender's word (several: which one, nothing
    taken back; none: chat). Other words after it (`没收到消息`) are chat."""
    payee = me(ctx)
    told = [w for w in told_by_payers(ctx) if w.creditor_id == payee.id]
    amount = None
    if not words:
        payers = {w.debtor_id: w.debtor for w in told}
        if not payers:
            raise Quiet  # nothing told to the sender: "didn't get (the message)", chat
        if len(payers) > 1:
            shown = shown_names(ctx)
            listed = [written_mention(ctx, id_, shown.get(id_, name)) for id_, name in payers.items()]
            raise Refusal("payment_not_received_which", names=joined(ctx.lang, listed), example=listed[0])
        ((payer_id, payer_name),) = payers.items()
    else:
        if _chat_after(ctx, words) or len(words) > 2:
            raise Quiet
        other, amount = _person_and_amount(ctx, words)
        payer_id, payer_name = other.id, other.name
    source = message_source(ctx, "payment_edit_unpay")
    shown = shown_names(ctx)
    names = {"debtor": shown.get(payer_id, payer_name), "creditor": shown.get(payee.id, payee.name)}
    names["debtor_at"] = written_mention(ctx, payer_id, names["debtor"])
    names["creditor_at"] = written_mention(ctx, payee.id, names["creditor"])
    try:
        result = ctx.service.void_payment(
            ctx.chat_id,
            [payee.id, payer_id],
            source=source,
            by=ctx.sender.user_id,
            reason="没收到",
            waiting_for=payee.id,
            amount=amount,
        )
    except LedgerError as err:
        if err.code != "no_payment":
            raise
        key = "payment_not_received_none" if amount is None else "payment_not_received_none_amount"
        refused = Refusal(key, amount=money(amount or 0, ctx.group.currency), **names)
        refused.heard = amount is not None  # `@阿杰 没收到啊` with nothing told: maybe chat; with an amount, money
        raise refused from err
    if result.replayed:
        return [ctx.reply("already_done")]
    currency = ctx.group.currency
    params = {**names, "amount": money(result.amount, currency), "owed": money(result.owed, currency)}
    lines = [ctx.t("payment_not_received", **params), ctx.t("payment_owed", **params)]
    still = sum(w.amount for w in told_by_payers(ctx) if (w.debtor_id, w.creditor_id) == (payer_id, payee.id))
    if still:
        lines.append(ctx.t("payment_not_received_more", waiting=money(still, currency), **names))
    return [SendText("\n".join(lines), reply_to=ctx.message_id), *rewritten_post(ctx, result)]


def _all_received(ctx: Context, *, thanked: bool = False) -> list[Effect]:
    """`都收到了`, and `收到` naming nobody: the payments of the latest settlement waiting for the sender's word
    (payments told to them, never to anyone else). From one person, confirmed as `收到 @那人` confirms them; from
    several, listed each with what they told and the line that confirms it (`收到 @a、收到 @b`; or the post's
    「收到」 on its line): a blanket word confirms no money the sender may not have looked at;
    none: chat (a bare 收到 is how chats say "got it"; `thanked`, `收到，谢谢`, is chat then even to a payee owed)."""
    payee = me(ctx)
    settlement = ctx.service.latest_settlement(ctx.chat_id)
    if settlement is None or not settlement.id:
        raise Quiet
    states = ctx.service.payment_lines(ctx.chat_id, settlement.id) or []
    lines = (*settlement.payments, *settlement.passed)
    waiting = {
        state.payer_id: line.payer
        for state, line in zip(states, lines, strict=False)
        if state.waiting == PAYER_SIDE and state.payee_id == payee.id
    }
    if not waiting:
        raise Quiet() if thanked else _nothing_waiting(ctx, payee, states, lines)
    if len(waiting) == 1:
        ((debtor_id, debtor),) = waiting.items()
        source = message_source(ctx)
        return _typed(
            ctx, (debtor_id, debtor), (payee.id, payee.name), None, PAYEE_SIDE, confirm_only=True, source=source
        )
    shown = shown_names(ctx)
    told: dict[int, int] = {}
    for w in told_by_payers(ctx):
        if w.creditor_id == payee.id and w.debtor_id in waiting:
            told[w.debtor_id] = told.get(w.debtor_id, 0) + w.amount
    items = [
        ctx.t("payment_told_item", name=shown.get(id_, name), amount=money(told.get(id_, 0), ctx.group.currency))
        for id_, name in waiting.items()
    ]
    word = "received" if ctx.lang == "en" else "收到"
    typed = [f"{word} {written_mention(ctx, id_, shown.get(id_, name))}" for id_, name in waiting.items()]
    raise Refusal("payment_all_received_which", items=joined(ctx.lang, items), lines=joined(ctx.lang, typed))


def _nothing_waiting(
    ctx: Context, payee: MemberInfo, states: list[LineState], lines: tuple[Payment | Passed, ...]
) -> Exception:
    """`收到` (`收到了`, `都收到了`) with no payment told to the sender: a payee of the latest settlement still owed
    on one of its lines typed it, so it is answered — nothing waits for their word, who owes them what, and how to
    say what came. From anyone else (and the English `got it`) it is chat: a bare 收到 is how chats say "got it"."""
    pools = {line.member_id for line in ctx.service.balances(ctx.chat_id).lines if line.kind in GROUP_ACCOUNTS}
    owed_here = any(
        state.payee_id == payee.id and state.open > 0 and state.payer_id not in pools
        for state, _line in zip(states, lines, strict=False)
    )
    if not owed_here or ctx.word.isascii():
        return Quiet()
    owing = [d for d in ctx.service.debts(ctx.chat_id) if d.creditor_id == payee.id and d.debtor_id not in pools]
    if not owing:
        return Quiet()
    first = owing[0]
    shown = shown_names(ctx)
    currency = ctx.group.currency
    others = ("; " if ctx.lang == "en" else "、").join(
        f"{account_word(ctx.lang, d.debtor)} {money(d.amount, currency)}" for d in owing
    )
    example = written_mention(ctx, first.debtor_id, shown.get(first.debtor_id, first.debtor))
    return Refusal("payment_nothing_waiting", debts=others, payer=example, amount=money(first.amount, currency))


def _typed(
    ctx: Context,
    debtor: tuple[int, str],
    creditor: tuple[int, str],
    amount: int | None,
    side: str,
    *,
    confirm_only: bool = False,
    source: str,
) -> list[Effect]:
    """A typed 付 / 收到 booked (or confirming), and its reply; one that repeats what its sender booked a moment
    ago (the same pair, amount and side: the same message sent twice, as on a bad network) is held back with a
    question instead, as a repeated record is (`bot.commands.duplicates`): 「再记一笔」 books it. A line the
    question's button runs is booked past the check (`Context.repeat`). An edit of a held-back message replaces
    the line its question holds: that question expires (as an edit into chat does: `bot.commands.edits`)."""
    if ctx.incoming is not None and ctx.incoming.edited and not ctx.repeat:
        ctx.service.finish_flow(ctx.chat_id, -flow_key(ctx))
    try:
        result = _book(
            ctx, debtor, creditor, amount, side, confirm_only=confirm_only, source=source, check_repeat=not ctx.repeat
        )
    except DuplicatePayment as dup:  # the payment booked a moment ago is quoted, never this line as if it were it
        line = " ".join(f"{ctx.word} {ctx.args}".split())
        shown = shown_names(ctx)
        booked = {
            "debtor": shown.get(debtor[0], debtor[1]),
            "creditor": shown.get(creditor[0], creditor[1]),
            "amount": money(amount or 0, ctx.group.currency),
        }
        text = ctx.t("payment_repeat", line=line, seconds=dup.seconds, **booked)
        return [_hold_back(ctx, text, (debtor[0], creditor[0]))]
    except ShortOfWaiting as short:
        text = _short_text(ctx, short, debtor, creditor, amount, side)
        return [_hold_back(ctx, text, (debtor[0], creditor[0]), timed=False)]
    except Refusal as refusal:
        # a person, a payment word and an amount (`@阿杰 1块已转`, `@阿杰 收到 4`, `转给 @阿杰 4`) are a payment however
        # the line starts: its refusal is answered (nothing owed: whom the sender owes, or that tonight is not
        # settled yet), never left as if it were chat; `转给 @老王` with no amount may be a forward: chat
        refusal.heard = refusal.heard or amount is not None
        raise refusal from None
    return _reply(ctx, result)


#: the refusals of a payment between two who owe each other nothing (the payer's side, the payee's)
NOTHING_OWED = ("payment_not_owing", "payment_not_owed")


def _nothing_owed(ctx: Context, other: tuple[int, str], side: str) -> Refusal:
    """A payment typed with someone who owes the sender nothing, or is owed nothing by them, said from the sender's
    side (「你现在不欠 阿杰 钱」, 「阿杰 现在不欠你钱」), with what the settlements do say the sender owes (or is owed),
    or that tonight is not settled yet when nothing is open either way. (A press under a settlement, whose line was
    paid meanwhile, says so instead: `press`.)"""
    mine = me(ctx).id
    shown = shown_names(ctx)
    name = shown.get(other[0], other[1])
    paying = side == PAYER_SIDE
    open_debts = [d for d in ctx.service.debts(ctx.chat_id) if (d.debtor_id if paying else d.creditor_id) == mine]
    currency = ctx.group.currency
    others = ("; " if ctx.lang == "en" else "、").join(
        f"{account_word(ctx.lang, d.creditor if paying else d.debtor)} {money(d.amount, currency)}" for d in open_debts
    )
    if others:
        then = _netted_at_table(ctx, other, name, paying) + ctx.t(
            "payment_you_owe" if paying else "payment_owed_you", debts=others
        )
    elif ctx.service.current_night(ctx.chat_id) is not None:  # which night, and who is up or down in it
        then = unsettled_night(ctx) or ctx.t("payment_not_settled_yet")
    else:
        then = _netted_at_table(ctx, other, name, paying) + ctx.t(
            "payment_you_owe_nobody" if paying else "payment_owed_you_nobody"
        )
    return Refusal(NOTHING_OWED[0] if paying else NOTHING_OWED[1], name=name, then=then)


def _netted_at_table(ctx: Context, other: tuple[int, str], name: str, paying: bool) -> str:
    """「今晚你输给 小张 的 2元 已经并进结算的最少转账…」 when the latest night (settled: no night is open) leaves
    the sender owing `other` (or owed by them) and its settlement routed that through someone else; else ''."""
    night_id = ctx.service.latest_night(ctx.chat_id)
    if night_id is None:
        return ""
    mine = me(ctx).id
    debtor, creditor = (mine, other[0]) if paying else (other[0], mine)
    found = ctx.service.night_details(ctx.chat_id, night_id)
    net = next((p.net for p in found.pairs if (p.debtor_id, p.creditor_id) == (debtor, creditor)), 0)
    lines = ctx.service.settle_night(night_id).payments
    if net <= 0 or any((line.payer_id, line.payee_id) == (debtor, creditor) for line in lines):
        return ""  # no such debt, or the settlement has it paid as it is (paid since)
    key = "payment_netted_owing" if paying else "payment_netted_owed"
    return ctx.t(key, name=name, amount=money(net, ctx.group.currency))


def _short_text(
    ctx: Context,
    short: ShortOfWaiting,
    debtor: tuple[int, str],
    creditor: tuple[int, str],
    amount: int | None,
    side: str,
) -> str:
    """「小李 说已付 4元，等你确认；你写的是 2元。…」: the other side's word, this one's, and the three ways on."""
    shown = shown_names(ctx)
    other = debtor if side == PAYEE_SIDE else creditor
    name = shown.get(other[0], other[1])
    currency = ctx.group.currency
    return ctx.t(
        "payment_short_of_waiting_received" if side == PAYEE_SIDE else "payment_short_of_waiting_paid",
        other=name,
        other_at=written_mention(ctx, other[0], name),
        waiting=money(short.waiting, currency),
        amount=money(amount or 0, currency),
    )


#: the flow kind (and button prefix) of a typed payment held back as a repeat
REPEAT_KIND = "dpay"


#: the flow kind (and button prefix) of 「是不是：转给 @ajie 4？」, asked of `转给@ajie4` (`_sent_to_glued`)
GLUED_KIND = "gpay"
#: each question's buttons: (yes, no)
_BUTTONS = {REPEAT_KIND: ("btn_payment_repeat_yes", "btn_repeat_no"), GLUED_KIND: ("btn_suggest_yes", "btn_suggest_no")}


def _hold_back(
    ctx: Context,
    text: str,
    pair: tuple[int, int],
    *,
    timed: bool = True,
    reading: tuple[str, str] | None = None,
) -> SendText:
    """`text` (「刚才（5 秒前）已经记过：付 @c 4。…」, or the other side's waiting word that the amount falls short
    of) with 「再记一笔」/「不用了」; the line is kept as typed (in the ledger's flow table: a restart loses nothing)
    for 「再记一笔」 to book, with when it was asked and where the pair (debtor, creditor) stood
    (`Ledger.pair_standing`), for the button to expire (`_repeat_gone`; `timed`: also when the double-entry window
    has passed, as a repeat's does — a short amount's question waits for its answer). With `reading` (word,
    arguments) the question is 「是不是」 about that line instead (`GLUED_KIND`: 「就是这个」/「不是」), which its
    「就是这个」 books as if typed. A redelivered update asks nothing twice."""
    key = -flow_key(ctx)  # the key of a question about a typed line, as a repeated record's (`duplicates`)
    if asked_already(ctx, key):
        raise Quiet
    kind = REPEAT_KIND if reading is None else GLUED_KIND
    word, args = reading or (ctx.word, ctx.args)
    standing = ctx.service.pair_standing(ctx.chat_id, *pair)
    state = {
        **typed_line(ctx, word, args),
        "at": ctx.now().isoformat(),
        "timed": timed,
        "pair": pair,
        "standing": standing,
    }
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, kind, state)
    yes, no = _BUTTONS[kind]
    buttons = ((Button(ctx.t(yes), f"{kind}:{key}:ok"), Button(ctx.t(no), f"{kind}:{key}:x")),)
    return SendText(text, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{kind}:{key}")


cancel_by_typing(
    REPEAT_KIND, REPEAT_KIND, lambda ctx, _state: ctx.t("flow_cancelled"), "repeat_kept_typed", REPEAT_NO_WORDS_EN
)
cancel_by_typing(
    GLUED_KIND, GLUED_KIND, lambda ctx, _state: ctx.t("flow_cancelled"), "payment_glued_kept_typed", SUGGEST_NO_WORDS
)
press_by_typing(REPEAT_KIND, REPEAT_KIND, ("再记一笔", "book another"), "repeat_booked_typed")
press_by_typing(GLUED_KIND, GLUED_KIND, ("就是这个", "yes, book it"), "suggest_booked_typed")


@registry.callback(GLUED_KIND)
def press_glued(ctx: Context) -> HandlerResult:
    """「就是这个」 books the reading the question showed (`转给 @ajie 4`) as its sender's line, unless what the pair
    owes changed since it was asked; 「不是」 drops it. Only its sender or an admin answers it."""
    return _press_held(ctx, GLUED_KIND, "payment_glued_not_yours", repeat=False, changed="payment_glued_changed")


@registry.callback(REPEAT_KIND)
def press_repeat(ctx: Context) -> HandlerResult:
    """「再记一笔」 books the held-back payment line as its sender typed it, past the repeat check; 「不用了」 drops it.
    Only its sender or an admin answers it."""
    return _press_held(ctx, REPEAT_KIND, "payment_repeat_not_yours", repeat=True)


def _press_held(ctx: Context, kind: str, not_yours: str, *, repeat: bool, changed: str = "") -> HandlerResult:
    """A press on a payment line held back with a question (`_hold_back`): its sender's or an admin's 「yes」 books
    the line as typed (`repeat`: past the repeat check) unless the question no longer stands (`_repeat_gone`: said
    as `changed`, else as why), `x` drops it."""
    pressed = live_press(ctx, kind)
    if not isinstance(pressed, Confirmation):
        return pressed
    if not may_answer(ctx, pressed.asked_by):
        return AnswerCallback(ctx.t(not_yours), alert=True)
    if pressed.action == "x":
        return answered(ctx, pressed, ctx.t("flow_cancelled"), AnswerCallback())
    if pressed.action != "ok":
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    why = _repeat_gone(ctx, pressed.state)
    if why is not None:
        text = ctx.t(changed or why)
        return answered(ctx, pressed, text, AnswerCallback(text, alert=True))
    return run_held(ctx, pressed.key, dict(pressed.state), pressed.message_id, repeat=repeat)


def _repeat_gone(ctx: Context, state: Mapping[str, Any]) -> str | None:
    """Why 「再记一笔」 books nothing now (a text key), or None: the group's double-entry window has passed since a
    repeat's question was asked (typed again then, the line is no repeat: it books as typed), or the pair stands
    elsewhere (paid up or partly paid since, its settlement taken back, another one stored: the line typed a moment
    ago may not mean the same money now). A question asked before these were kept expires too."""
    from ledger.chat_options import double_entry_seconds

    at, pair, standing = state.get("at"), state.get("pair"), state.get("standing")
    if not isinstance(at, str) or not isinstance(pair, list) or not isinstance(standing, list):
        return "payment_repeat_expired"
    if state.get("timed", True):
        seconds = double_entry_seconds(ctx.service.engine, ctx.group.id)
        if ctx.now() - datetime.fromisoformat(at) > timedelta(seconds=seconds):
            return "payment_repeat_expired"
    if ctx.service.pair_standing(ctx.chat_id, int(pair[0]), int(pair[1])) != standing:
        return "payment_repeat_changed"
    return None


def _named_first(ctx: Context, words: list[str]) -> bool:
    """Whether a payment word that says nobody alone (`vocab.PAID_NAMING_WORDS`) is followed by its person: an
    @mention, or after 转你了 (`vocab.PAID_YOU_WORDS`) a plain name as every payment reads one (`转你了 小李`, as
    `转了 小李`: a guest's name, or a member's label answered with how to @ them). A 红包 names its person by
    @mention only: to anyone else it may be a gift."""
    if not words:
        return False
    return words[0].startswith("@") or (ctx.word in PAID_YOU_WORDS and _names_person(ctx, words[0]))


def _names_person(ctx: Context, word: str) -> bool:
    """Whether a plain word is someone's name: a guest's, or a member's label (which `resolve_person` refuses with
    how to @ them, never reading it as the member)."""
    try:
        return resolve_person(ctx, word) is not None
    except Refusal:
        return True


def _chat_after(ctx: Context, words: list[str]) -> bool:
    """`收到，谢谢`, `收到 谢谢老板 么么哒`, `已转 你看看`, `received, thanks`: words after a payment word that name
    nobody (no @mention, guest or member's name) and hold no amount are chat, not a payment; answering them would
    answer chat (`收到 老王 8` is answered: it has an amount; so is a member's name, with how to @ him). So is an
    amount followed by words that are no unit and no @mention (`转了 8 个给他`, `付了 2 次`): a count, not money."""
    if not words or words[0].startswith("@") or _names_person(ctx, words[0]):
        return False
    if amount_or_why(ctx, words[0])[0] is not None:
        units = unit_words(ctx.group.currency)
        return any(not word.startswith("@") and word not in units for word in words[1:])
    return all(amount_or_why(ctx, word)[0] is None for word in words)


@registry.command(
    "unpay",
    names=["unpay"],
    on_edit=True,
    aliases=COMMAND_WORDS["unpay"],
    help_zh="撤销付款：撤销你最近一笔付款（付的或收的）；撤销付款 @阿一 只看你和阿一之间的（管理员：阿一的）",
    help_en="take back your latest payment (paid or received); unpay @a: the latest between you and a (admins: a's)",
)
def unpay(ctx: Context) -> list[Effect]:
    source = message_source(ctx, "payment_edit_unpay")
    words = tokens(ctx.args)
    if len(words) > 1:
        raise Refusal("payment_usage")
    mine = me(ctx).id
    parties = [mine]
    if words:
        other = resolve_person(ctx, words[0])
        if other is None:
            raise Refusal("unknown_player", name=words[0])
        parties = [other.id] if ctx.is_admin else [mine, other.id]
    try:
        result = ctx.service.void_payment(
            ctx.chat_id, parties, source=source, by=ctx.sender.user_id, admin=mine if ctx.is_admin else None
        )
    except LedgerError as err:
        if err.code == "no_payment" and words and not ctx.is_admin:  # `撤销付款 @老王`: a payment between others
            raise _not_yours_to_unpay(ctx, parties[-1]) from err
        if err.code == "no_payment":  # an admin's plain 撤销付款 looks at his own: others' are taken back by name
            raise Refusal("payment_none_admin" if ctx.is_admin and not words else "payment_none") from err
        if err.code == "payment_confirmed":  # an admin who is neither side takes it back, naming the sender
            sender = me(ctx)
            key = "payment_confirmed_unpay_own" if ctx.is_admin else "payment_confirmed_unpay"
            raise Refusal(key, me=written_mention(ctx, sender.id, sender.name), name=sender.name) from err
        raise
    return _reply(ctx, result)


def _not_yours_to_unpay(ctx: Context, named: int) -> Refusal:
    """A member's `撤销付款 @老王` with no payment between the two: who may take back 老王's latest payment (its two
    sides, or an admin; an admin only once both sides confirmed it), and with which line."""
    latest = ctx.service.latest_payment(ctx.chat_id, named)
    if latest is None:
        return Refusal("payment_none")
    shown = shown_names(ctx)
    debtor, creditor = shown.get(latest.debtor_id, latest.debtor), shown.get(latest.creditor_id, latest.creditor)
    return Refusal(
        "payment_others_confirmed" if latest.confirmed else "payment_others",
        debtor=debtor,
        creditor=creditor,
        amount=money(latest.amount, ctx.group.currency),
        creditor_at=written_mention(ctx, latest.creditor_id, creditor),
        debtor_at=written_mention(ctx, latest.debtor_id, debtor),
        named_at=written_mention(ctx, named, shown.get(named, "?")),
    )


# ------------------------------------------------------------------------------------ the settlement's buttons


def payment_post(ctx: Context, settlement: Settlement, *, edit: int | None = None) -> list[Effect]:
    """Under a 结算 post: each payment between players with 「已付」 (the payer) and 「收到」 (the payee), then each
    debt the settlement passed through the pot or the house (someone owed it, it paid someone out: now the one
    pays the other), with the same buttons. A line to or from the pot or the house is never marked here: it says
    what settles it (their payout, 发红包池 / 付台费) and, once passed on, to or from whom. Nothing when the
    settlement has no line.

    Each line shows where it stands now (still owed, part paid, paid and waiting for the other side's word, paid
    up); a line paid up and confirmed loses its buttons. `edit`: the post's own message, rewritten in place (a
    button pressed under it) instead of sent anew."""
    if settlement.id is None or not (settlement.payments or settlement.passed):
        return []
    accounts = ctx.service.balances(ctx.chat_id).lines
    pools = {line.member_id: line.kind for line in accounts if line.kind in GROUP_ACCOUNTS}
    states = ctx.service.payment_lines(ctx.chat_id, settlement.id) or []
    currency = ctx.group.currency
    rows = []
    lines = [""]  # the head, with the first open line as its example (below)
    example = ""
    waiting_payout = False
    player_lines = 0
    shown: dict[int, str] = {}  # the group's names, read at the first line with the pot or the house
    pairs = [(p.payer_id, p.payee_id) for p in (*settlement.payments, *settlement.passed)]
    netted = _netted_each_way(settlement, states)
    for index, payment in enumerate((*settlement.payments, *settlement.passed)):
        if index > 99:
            break
        state = states[index] if index < len(states) else None
        if index in netted:
            other = netted[index]
            if other is not None:  # two lines each way, each wholly set against the other: one line says so
                lines.append(
                    ctx.t(
                        "payments_line_netted",
                        a=account_word(ctx.lang, payment.payer),
                        b=account_word(ctx.lang, payment.payee),
                        amount=money(payment.amount, currency),
                    )
                )
            continue  # wholly set against a line the other way: that line (or the one above) tells it
        pool = pools.get(payment.payee_id) or pools.get(payment.payer_id)
        params = {
            "payer": account_word(ctx.lang, payment.payer),
            "payee": account_word(ctx.lang, payment.payee),
            "amount": money(payment.amount, currency),
        }
        if pool is not None:
            amount, state = _left_after_own_passes(settlement, payment, payment.payee_id in pools, state)
            if not amount:
                continue  # passed on whole in this settlement: its 「经红包池转来」 line below tells it once
            params["amount"] = money(amount, currency)
            shown = shown or shown_names(ctx)
            lines.append(_pool_line_text(ctx, shown, params, amount, payment.payee_id in pools, pool, state))
            waiting_payout |= state is None or state.open > 0
            continue
        player_lines += 1
        via = account_word(ctx.lang, payment.via) if isinstance(payment, Passed) else None
        lines.append(_line_text(ctx, params, state, via=via))
        if state is not None and not state.open and state.waiting is None:
            continue  # paid up, and both sides have said so (or the window for the other's word has passed)
        pair = f"{payment.payer}→{payment.payee}"
        if pairs.count((payment.payer_id, payment.payee_id)) > 1:  # the pair's rows told apart by their lines
            pair += f" {money(payment.amount, currency)}"
        if not example:
            example = _typed_example(ctx, payment, state, currency)
        rows.append(
            (
                Button(ctx.t("btn_paid", pair=pair), f"{PREFIX}:{settlement.id}:p.{index}"),
                Button(ctx.t("btn_received", pair=pair), f"{PREFIX}:{settlement.id}:r.{index}"),
            )
        )
    # the buttons are named only above a post that has them (a post of lines with the pot or the house alone, or
    # of lines all paid up and confirmed, has none)
    head = ctx.t("payments_head" if rows else "payments_head_plain")
    lines[0] = head + (ctx.t("payments_head_typed", example=example) if example else "")
    if not rows:
        if not waiting_payout:
            lines.append(ctx.t("payments_all_paid"))
        else:  # lines with the pot or the house wait for its payout: never "all paid" while they stand
            lines.append(ctx.t("payments_players_paid" if player_lines else "payments_pools_wait"))
    players = {line.member_id for line in settlement.balances.lines if line.kind not in GROUP_ACCOUNTS}
    # and those whose earlier debts alone (netted in, passed on) put them in a night with nothing of their own
    players |= {
        id_ for p in (*settlement.payments, *settlement.passed) for id_ in (p.payer_id, p.payee_id) if id_ not in pools
    }
    # and the accounts the lines live under now (a guest linked to a member since: the member)
    players |= {id_ for state in states for id_ in (state.payer_id, state.payee_id) if id_ not in pools}
    # and whoever owes them or is owed by them (their 未结 holds it: without them the standing would not add up),
    # paid by the payer's word alone too (counted open until the payee's, shown so), until nobody more is reached
    told = told_by_payers(ctx)
    pairs = [(d.debtor_id, d.creditor_id) for d in ctx.service.debts(ctx.chat_id)]
    pairs += [(w.debtor_id, w.creditor_id) for w in told]
    while True:
        reached = {id_ for pair in pairs if players & set(pair) for id_ in pair if id_ not in pools}
        if reached <= players:
            break
        players |= reached
    shift, told_of = waiting_shift(told), waiting_by_account(told)
    standing = [line for line in accounts if line.member_id in players]
    # the settled nights' standing: a night opened since (the 日切 roll-over's first record) is not in this post
    night = ctx.service.current_night(ctx.chat_id)
    later = ctx.service.night_totals(night.id) if night is not None else {}
    sep = ", " if ctx.lang == "en" else "，"
    lines.append(
        ctx.t(
            "payments_standing",
            owed=sep.join(
                f"{line.name} "
                + owed_text(
                    ctx,
                    line.amount - later.get(line.member_id, 0) + shift.get(line.member_id, 0),
                    told_of.get(line.member_id, 0),
                )
                for line in standing
            ),
            results=sep.join(
                f"{line.name} {money(line.result - later.get(line.member_id, 0), currency, signed=True)}"
                for line in standing
            ),
        )
    )
    posted_as = f"{PREFIX}:{settlement.id}" if edit is None else ""  # kept: a typed payment rewrites it
    return [SendText("\n".join(lines), buttons=tuple(rows), edit_message_id=edit, posted_as=posted_as)]


@registry.on_posted(PREFIX)
def keep_post(service: Ledger, chat_id: int, key: str, message_id: int, _english: bool) -> None:
    """A settlement's payments post was sent: its message is kept with the settlement (`rewritten_post`)."""
    if key.isdigit():
        service.set_payment_post(chat_id, int(key), message_id)


def settled_at_once(ctx: Context) -> list[Effect]:
    """After 发红包池 / 付台费 while no night is open: the payout was settled at once (`ledger.money.settle_at_once`),
    so its post follows — the payout's line, to whom the money owed to the account now goes, with their buttons.
    Inside a night the payout waits for the night's 结算, like the rest of its money."""
    if ctx.service.current_night(ctx.chat_id) is not None:
        return []
    settlement = ctx.service.latest_settlement(ctx.chat_id)
    return payment_post(ctx, settlement) if settlement is not None else []


def _typed_example(ctx: Context, payment: Payment, state: LineState | None, currency: str) -> str:
    """How the line is typed instead of pressed, with the names as Telegram lets them be written: `付 @阿一 4元`
    (its payer) and `收到 @阿二 4元` (its payee); a line paid up that waits for its payee's word: `收到 @阿二`, for its
    payer's (the payee told it): `已转 @阿一`."""
    payer = written_mention(ctx, payment.payer_id, payment.payer)
    payee = written_mention(ctx, payment.payee_id, payment.payee)
    still_open = payment.amount if state is None else state.open
    if not still_open:
        if state is not None and state.waiting == PAYEE_SIDE:
            return ctx.t("payments_example_confirm_payer", payee=payee)
        return ctx.t("payments_example_confirm", payer=payer)
    return ctx.t("payments_example", payee=payee, payer=payer, amount=money(still_open, currency))


def _left_after_own_passes(
    settlement: Settlement, line: Payment, to_pool: bool, state: LineState | None
) -> tuple[int, LineState | None]:
    """What is left of a line to or from the pot or the house once the passes of its own settlement are taken
    out: they are listed after the lines (「大鹏 → 小李 4元（经红包池转来）」): so 「红包池 → 小李 4元（改由 大鹏 付）」
    beside it would show one payment twice. The state keeps what later settlements passed on (its `passed` lists
    this settlement's passes first)."""
    own: dict[int, int] = {}  # the other person of each pass of this line, and how much
    for p in settlement.passed:
        if to_pool and (p.payer_id, p.via_id) == (line.payer_id, line.payee_id):
            own[p.payee_id] = own.get(p.payee_id, 0) + p.amount
        elif not to_pool and (p.via_id, p.payee_id) == (line.payer_id, line.payee_id):
            own[p.payer_id] = own.get(p.payer_id, 0) + p.amount
    taken = min(line.amount, sum(own.values()))
    if state is None or not taken:
        return line.amount - taken, state
    later = []
    for other, amount in state.passed:
        mine = min(amount, own.get(other, 0))
        own[other] = own.get(other, 0) - mine
        if amount > mine:
            later.append((other, amount - mine))
    return line.amount - taken, replace(state, amount=state.amount - taken, passed=tuple(later))


def _pool_line_text(
    ctx: Context,
    names: Mapping[int, str],
    params: dict[str, str],
    amount: int,
    to_pool: bool,
    pool: str,
    state: LineState | None,
) -> str:
    """`小李 → 台费 30元（等 付台费 @收钱的人）`: a line to or from the pot or the house says what settles
    it — to it, its payout (发红包池 / 付台费); from it, someone owing it at a later settlement — and, once passed
    on, to or from whom (`已转给 阿杰 30元`, `改由 小李 付 30元`)."""
    currency = ctx.group.currency
    parts = [
        ctx.t(
            "payments_part_passed_to" if to_pool else "payments_part_passed_from",
            name=names.get(other, "?"),
            amount=money(passed, currency),
        )
        for other, passed in (state.passed if state is not None else ())
    ]
    if state is not None and state.offset:  # the payout went to the one who owed the account, or the other way
        own = ("payments_part_own_to", params["payer"]) if to_pool else ("payments_part_own_from", params["payee"])
        parts.append(ctx.t(own[0], name=own[1], amount=money(state.offset, currency)))
    still = amount if state is None else state.open
    if still and still != amount:
        parts.append(ctx.t("payments_part_open", amount=money(still, currency)))
    if still:
        parts.append(ctx.t(f"payments_wait_{pool}" if to_pool else "payments_wait_in", pool=ctx.t(f"pool_{pool}")))
    line = ctx.t("payments_line", **params)
    line += ctx.t("payments_line_parts", parts=(", " if ctx.lang == "en" else "，").join(parts))
    return line if still else line + " ✓"


def _netted_each_way(settlement: Settlement, states: list[LineState]) -> dict[int, int | None]:
    """The settlement's lines between two players wholly set against a line of its own the other way (nothing
    paid, carried or passed on them: 小李 → 阿杰 4元 beside 阿杰 → 小李 4元（经红包池转来）), as 最少转账 nets them:
    index → the other line's index when the two are equal and the first of them (shown once as both, 「小李 ⇄ 阿杰
    4元（两人互欠，相抵，谁也不用付） ✓」), None when the line is left out (the later of an equal two, or one the
    other way's larger line shows as its 「与反向的欠账相抵」 part)."""
    lines = (*settlement.payments, *settlement.passed)

    def whole(index: int) -> bool:
        state = states[index] if index < len(states) else None
        return state is not None and state.waiting is None and state.offset == state.amount > 0

    netted: dict[int, int | None] = {}
    for index, line in enumerate(lines):
        if index in netted or not whole(index):
            continue
        others = [
            j
            for j, other in enumerate(lines)
            if j != index
            and j not in netted
            and (other.payer_id, other.payee_id) == (line.payee_id, line.payer_id)
            and index < len(states)
            and j < len(states)
            and states[j].offset >= line.amount
        ]
        if not others:
            continue
        equal = next((j for j in others if whole(j) and lines[j].amount == line.amount), None)
        if equal is not None:
            netted[index], netted[equal] = equal, None
        else:
            netted[index] = None
    return netted


def _line_text(ctx: Context, params: dict[str, str], state: LineState | None, via: str | None = None) -> str:
    """`小李 → 阿杰 4元`, then where it stands once anything moved: `✓ 已付清`, `（已付 1元，还差 3元）`, what a later
    night's settlement netted in (并账), what a debt the other way offset (nights kept apart), and whose word is
    awaited. `via`: the pot or the house the debt was passed on through."""
    line = ctx.t("payments_line", **params)
    if via is not None:
        line += ctx.t("payments_line_via", via=via)
    if state is None or (state.open == state.amount and state.waiting is None):
        return line  # nothing paid yet: as 结算 first posts it
    currency = ctx.group.currency
    if not state.open and not state.offset and not state.carried:
        line += ctx.t("payments_line_paid")
    else:
        parts = [
            ctx.t(key, amount=money(amount, currency))
            for key, amount in (
                ("payments_part_paid", state.paid),
                ("payments_part_carried", state.carried),
                ("payments_part_offset", state.offset),
                ("payments_part_open", state.open),
            )
            if amount
        ]
        line += ctx.t("payments_line_parts", parts=(", " if ctx.lang == "en" else "，").join(parts))
        if not state.open:
            line += " ✓"
    if state.waiting is not None:  # the payer said 已付: the payee's 收到 is awaited, and the other way round
        line += ctx.t("payments_line_waiting", who=params["payee" if state.waiting == PAYER_SIDE else "payer"])
    return line


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「已付」/「收到」 under a settlement: the line's payer or payee (or an admin) tells the payment; the
    ledger books what is still owed on that line, or confirms the other side's payment. The post is rewritten in
    place to show where every line stands; the presser gets a short notice of what this press did."""
    query = ctx.callback
    assert query is not None
    parsed = flow_data(query.data)
    if parsed is None:
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    settlement_id, action = parsed
    side_code, _, arg = action.partition(".")
    found = ctx.service.stored_settlement(ctx.chat_id, settlement_id)
    lines = (*found.payments, *found.passed) if found is not None else ()
    index = button_index(arg, len(lines))
    if found is None or index is None or side_code not in ("p", "r"):
        return AnswerCallback(ctx.t("button_expired"), alert=True)
    line = lines[index]
    side = PAYER_SIDE if side_code == "p" else PAYEE_SIDE
    states = ctx.service.payment_lines(ctx.chat_id, settlement_id) or []
    state = states[index] if index < len(states) else None
    # the accounts the line's money lives under now (a guest linked to a member since: the member)
    payer_id, payee_id = (state.payer_id, state.payee_id) if state is not None else (line.payer_id, line.payee_id)
    if side == PAYER_SIDE:
        admin = require_party(ctx, payer_id, payee_id, "payment_payer_button")
    else:
        admin = require_party(ctx, payee_id, payer_id, "payment_payee_button")
    # what the line still owes (the pair's other lines keep theirs); nothing: the press only confirms
    at_most = line.amount if state is None else state.open
    try:
        shown = shown_names(ctx)
        payer, payee = (payer_id, shown.get(payer_id, line.payer)), (payee_id, shown.get(payee_id, line.payee))
        result = _book(
            ctx, payer, payee, None, side, at_most=at_most, confirm_only=not at_most, line=(settlement_id, index)
        )
    except Refusal as refusal:
        if refusal.key not in (*NOTHING_OWED, *NOTHING_TO_CONFIRM):
            raise
        return AnswerCallback(ctx.t("payment_already", payer=line.payer, payee=line.payee), alert=True)
    if result.replayed:
        return AnswerCallback(ctx.t("already_done"))
    proxy = None if admin is None else (shown_name(ctx, admin), line.payer if side == PAYER_SIDE else line.payee)
    toast = payment_text(ctx, result, proxy).replace("\n", "; " if ctx.lang == "en" else "；")
    return [AnswerCallback(toast[:TOAST_LIMIT]), *payment_post(ctx, found, edit=query.message_id)]


#: Telegram shows at most 200 characters of a callback's notice
TOAST_LIMIT = 200


def debts_text(ctx: Context, member_ids: list[int]) -> str:
    """The open debts among these players (shown when they sit down together), or nothing."""
    found = ctx.service.debts(ctx.chat_id, member_ids)
    if not found:
        return ""
    key = "debts_open_merge" if merges(ctx) else "debts_open_separate"
    return ctx.t(key, debts=debt_items(ctx, found))


def debt_items(ctx: Context, debts: list[Debt]) -> str:
    """`甲 欠 乙 3元、丙 欠 乙 2元`: open debts in one line."""
    return ("; " if ctx.lang == "en" else "、").join(
        ctx.t(
            "debt_item",
            debtor=account_word(ctx.lang, d.debtor),
            creditor=account_word(ctx.lang, d.creditor),
            amount=money(d.amount, ctx.group.currency),
        )
        for d in debts
    )


def told_by_payers(ctx: Context) -> list[Waiting]:
    """The payments their payer told (已付, 已转) that wait for the payee's word: the payee has not said the money
    came, so 未结 and 谁还没付 count them as still open (shown as waiting). A payment the payee told (收到) is
    paid on the word of the one it was owed to."""
    return [w for w in ctx.service.waiting_payments(ctx.chat_id) if w.side == PAYER_SIDE]


def waiting_shift(waiting: list[Waiting]) -> dict[int, int]:
    """How far each account's 未结 moves when `waiting` (`told_by_payers`) counts as still open: the payer owes it
    again, the payee is owed it again."""
    shift: dict[int, int] = {}
    for w in waiting:
        shift[w.debtor_id] = shift.get(w.debtor_id, 0) - w.amount
        shift[w.creditor_id] = shift.get(w.creditor_id, 0) + w.amount
    return shift


def owed_text(ctx: Context, amount: int, waiting: int) -> str:
    """An account's 未结 (`amount`, signed, the payments waiting for their payee's word counted as open) and how
    much of it waits for a confirmation: `-4元（4元待确认）`."""
    shown = money(amount, ctx.group.currency, signed=True)
    return ctx.t("owed_waiting", owed=shown, amount=money(waiting, ctx.group.currency)) if waiting else shown


def waiting_by_account(waiting: list[Waiting]) -> dict[int, int]:
    """How much of each account's 未结 waits for a payee's word (on either side of the payment)."""
    total: dict[int, int] = {}
    for w in waiting:
        for id_ in (w.debtor_id, w.creditor_id):
            total[id_] = total.get(id_, 0) + w.amount
    return total


def open_items(ctx: Context, debts: list[Debt], waiting: list[Waiting]) -> str:
    """`甲 欠 乙 3元、丙 欠 乙 4元（已付 4元，待 乙 确认）`: the open debts with the payments their payer told that
    wait for the payee's word counted in, pair by pair, largest first; empty when there is none."""
    pairs: dict[tuple[int, int], list[Any]] = {}
    for d in debts:
        pairs[(d.debtor_id, d.creditor_id)] = [d.debtor, d.creditor, d.amount, 0]
    for w in waiting:
        pair = pairs.setdefault((w.debtor_id, w.creditor_id), [w.debtor, w.creditor, 0, 0])
        pair[2] += w.amount
        pair[3] += w.amount
    currency = ctx.group.currency
    items = []
    for debtor, creditor, amount, told in sorted(pairs.values(), key=lambda p: (-p[2], p[0], p[1])):
        names = {"debtor": account_word(ctx.lang, debtor), "creditor": account_word(ctx.lang, creditor)}
        if told:
            items.append(
                ctx.t("debt_item_waiting", amount=money(amount, currency), waiting=money(told, currency), **names)
            )
        else:
            items.append(ctx.t("debt_item", amount=money(amount, currency), **names))
    return ("; " if ctx.lang == "en" else "、").join(items)


def unsettled_night(ctx: Context, members: Collection[int] = (), *, past_only: bool = False) -> str:
    """「昨晚（2026-01-10）还没结算（小李 -4元，老王 +4元）：发 结算 算出谁给谁多少。」: the open night, when anyone
    (`members`: those accounts, each shown) won or lost in it, says it is not settled yet — its money is in 余额's
    未结 but in no settlement's debts, so 谁还没付 would otherwise find nothing open. Empty when there is no such
    night (with `past_only`, also when it is tonight's). Tonight, the night before (left open past the 日切 hour, nobody
    recorded since) or one further back, said so."""
    from ledger.tables import night_date

    night = ctx.service.current_night(ctx.chat_id)
    if night is None:
        return ""
    today = night_date(ctx.group.timezone, ctx.group.cutoff_hour, ctx.now())
    days = (today - night.night_date).days
    if past_only and days <= 0:
        return ""
    totals = ctx.service.night_totals(night.id)
    pools = {line.member_id for line in ctx.service.balances(ctx.chat_id).lines if line.kind in GROUP_ACCOUNTS}
    shown = shown_names(ctx)
    standing = [
        (id_, amount)
        for id_, amount in sorted(totals.items(), key=lambda t: (-t[1], t[0]))
        if amount and id_ not in pools and (not members or id_ in members)
    ]
    if not standing:
        return ""
    key = "night_open_tonight" if days <= 0 else "night_open_last" if days == 1 else "night_open_earlier"
    sep = ", " if ctx.lang == "en" else "，"
    names = sep.join(
        f"{account_word(ctx.lang, shown.get(id_, '?'))} {money(amount, ctx.group.currency, signed=True)}"
        for id_, amount in standing
    )
    return ctx.t(key, date=night.night_date.isoformat(), standing=names)


def merges(ctx: Context) -> bool:
    from ledger.chat_options import merge_debts

    return merge_debts(ctx.service.engine, ctx.group.id)


#: the setting words `设置` hands to this module
OPTION_WORDS = frozenset({"并账", "合并欠账", "merge_debts", "carry"})


def configure(ctx: Context, word: str, values: list[str]) -> SendText:
    """`设置 并账 开|关`: a night's settlement nets in the open debts among its players (开, the default) or not."""
    from bot.grammar import fold
    from ledger.chat_options import set_merge_debts

    value = fold("".join(values)) if values else ""
    choice = {"开": True, "on": True, "是": True, "关": False, "off": False, "否": False}.get(value)
    if choice is None:
        allowed = joined(ctx.lang, ("on", "off") if ctx.lang == "en" else ("开", "关"))
        raise Refusal("config_bad_value", setting=setting_name(ctx.lang, word), value=" ".join(values), allowed=allowed)
    set_merge_debts(ctx.service.engine, ctx.group.id, choice, by=ctx.sender.user_id, now=ctx.now())
    return ctx.reply("merge_debts_on" if choice else "merge_debts_off")


def describe(ctx: Context) -> str:
    """The 规则 line."""
    return ctx.t("merge_debts_rule_on" if merges(ctx) else "merge_debts_rule_off")
