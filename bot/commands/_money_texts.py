"""Texts of 明细 (where each payment comes from), table fees (台费/抽水) and 收款码 (payment QR codes). Chinese
first, English when the chat's language is `en`."""

from __future__ import annotations

from bot.texts import register
from ledger.scoring import kawuxing, penghu

#: transfer reasons as players call them (the scoring cores' keys; a fine's reason is what the admin typed)
REASON_WORDS: dict[str, str] = {
    **kawuxing.REASON_ZH,
    **penghu.REASON_ZH,
    "gouji": "够级",
    "gouji_chuansanhu": "串三户",
    "红包": "红包",
    "taifei": "台费",
    "choushui": "抽水",
}


#: transfer reasons in English, with the Chinese word players know beside a game's own term
REASON_EN = {
    "taifei": "table fee",
    "choushui": "cut",
    "红包": "payout",
    "付台费": "house payout",
    "angang": "concealed kong (暗杠)",
    "xugang": "added kong (蓄杠)",
    "zhigang": "exposed kong (直杠)",
    "zimo": "self-draw (自摸)",
    "dianpao": "win on a discard (点炮)",
    "qiangganghu": "robbing a kong (抢杠胡)",
    "baohu": "paying for all (包胡)",
    "liangdao_penalty": "亮倒 at a draw (荒庄亮倒赔付)",
    "chadajiao": "ready hands at a draw (查大叫)",
    "piao": "piao (漂)",
    "maima": "horse tile (买马)",
    "shukan": "kan count (数坎)",
    "paoqiamoba": "跑恰摸八",
    "gouji": "够级 round",
    "gouji_chuansanhu": "sweep (串三户)",
    "hu": "win (胡)",
    "zhongzhuang": "win as dealer again (中庄)",
    "paoqi_hu": "跑起 win (跑起胡)",
    "paoqi_zhongzhuang": "跑起 as dealer again (跑起中庄)",
    "qishou_sao": "扫 at the deal (起手扫)",
    "qishou_sao_netting": "扫 at the deal, netted (起手扫抵扣)",
    "qishou_tishe": "提蛇 at the deal (起手提蛇)",
    "peng": "碰",
    "sao": "扫",
    "guosao": "过扫",
    "paoqi": "跑起",
    "tishe": "提蛇",
    "shuang_tishe": "two 提蛇 at the deal (起手双提蛇)",
    "wufu": "five-fortune win (五福)",
    "tianhu": "heavenly win (天胡)",
    "dihu": "earthly win (地胡)",
    "xiaoqidui": "小七对",
    "qishou_void": "deal money returned (起手扫/提蛇退回)",
}


def reason_word(lang: str, reason: str, kind: str) -> str:
    """A transfer's reason in the chat's words: the scoring core's key named, a fine marked as one."""
    if kind == "fine":
        return ("fine: " if lang == "en" else "罚款：") + reason
    if lang == "en":
        return REASON_EN.get(reason, reason.replace("_", " "))
    return REASON_WORDS.get(reason, reason)


register(
    {
        # -- 明细 ---------------------------------------------------------------------------------------------
        "details_head": {
            "zh": "明细 · {date}（不合并：每两人之间的净额）",
            "en": "Details · {date} (unsimplified: each pair's net)",
        },
        "details_pair": {"zh": "{debtor} → {creditor} {amount}", "en": "{debtor} → {creditor} {amount}"},
        "details_pair_even": {"zh": "{debtor} ↔ {creditor} 两清", "en": "{debtor} ↔ {creditor} even"},
        "details_reasons": {"zh": "　{reasons}", "en": "  {reasons}"},
        "details_reason": {"zh": "{reason}×{count} {amount}", "en": "{reason} ×{count} {amount}"},
        "details_items_head": {
            "zh": "　逐笔（共{count}笔）：",
            "en": "  item by item ({count}):",
        },
        "details_items_some": {
            "zh": "　最近{shown}笔（共{count}笔，较早的已按原因合计在上面）：",
            "en": "  the last {shown} of {count} (earlier ones are in the totals above):",
        },
        "details_item_hand": {"zh": "　　第{number}局 {reason} {amount}", "en": "    hand {number} {reason} {amount}"},
        "details_item": {"zh": "　　{reason} {amount}", "en": "    {reason} {amount}"},
        "details_simplified": {"zh": "最少转账（{count}笔）：", "en": "Fewest payments ({count}):"},
        "details_payment": {"zh": "{payer} → {payee} {amount}", "en": "{payer} → {payee} {amount}"},
        "details_more": {
            "zh": "……还有{more}对没列出（发 明细 @名字 只看一个人的）",
            "en": "… {more} more pairs not shown (send details @name for one player's)",
        },
        "details_hint": {
            "zh": "发 明细 @名字 看某人的逐笔明细",
            "en": "Send details @name for one player's items",
        },
        "details_none": {"zh": "明细 · {date}：这一晚没有输赢", "en": "Details · {date}: nobody won or lost"},
        "details_no_night": {"zh": "还没有牌局，没有明细", "en": "No night played yet: no details"},
        "details_member_head": {
            "zh": "明细 · {date} · {name}（本晚 {net}）",
            "en": "Details · {date} · {name} (tonight {net})",
        },
        "details_member_none": {
            "zh": "明细 · {date}：{name} 这一晚没有输赢",
            "en": "Details · {date}: {name} neither won nor lost",
        },
        "details_payment_head": {
            "zh": "{payer} → {payee} {amount} 的由来：",
            "en": "Where {payer} → {payee} {amount} comes from:",
        },
        "details_net_of": {"zh": "{name} 本晚 {net}，来自：", "en": "{name} tonight {net}, from:"},
        "details_button": {"zh": "明细", "en": "Details"},
        "details_carried": {
            "zh": "之前几晚没结的（并账，已算进最少转账）：{debts}",
            "en": "Earlier nights' debts (netted into the payments above): {debts}",
        },
        "details_carried_item": {"zh": "{payer} 欠 {payee} {amount}", "en": "{payer} owed {payee} {amount}"},
        "details_no_payment": {
            "zh": "这一晚的最少转账里没有这一笔。发 明细 看这一晚的全部转账。",
            "en": "The night's payments have no such line. Send details for all of them.",
        },
        # -- 收款码 ------------------------------------------------------------------------------------------
        "qr_usage": {
            "zh": "用法：发收款码图片，配文字 收款码（或 收款码 微信 / 收款码 支付宝）｜ 收款码 @甲 ｜ 删除收款码",
            "en": "Usage: send your QR code photo captioned pay code (or pay code wechat / pay code alipay) | "
            "pay code @a | remove pay code",
        },
        "qr_bad_photo": {
            "zh": "这张图片没法保存，请重新发一次",
            "en": "That photo cannot be kept; please send it again",
        },
        "qr_registered": {
            "zh": "已登记 {name} 的{app}收款码。结算时要给你转账的人会看到按钮；删除收款码 可删掉",
            "en": "{name}'s {app} payment code is registered. Whoever a settlement tells to pay you gets a button; "
            "remove pay code removes it",
        },
        "qr_app_wechat": {"zh": "微信", "en": "WeChat"},
        "qr_app_alipay": {"zh": "支付宝", "en": "Alipay"},
        "qr_app_any": {"zh": "", "en": ""},
        "qr_none_for": {"zh": "{name} 还没有登记收款码", "en": "{name} has no payment code registered"},
        "qr_nobody": {
            "zh": "还没有人登记收款码（发收款码图片，配文字 收款码）",
            "en": "Nobody has registered a payment code yet (send the QR photo captioned pay code)",
        },
        "qr_list": {
            "zh": "已登记收款码：{names}。看谁的发：收款码 @名字",
            "en": "Payment codes: {names}. To see one: pay code @name",
        },
        "qr_owner_only": {"zh": "只能删除自己的收款码", "en": "You can only remove your own payment code"},
        "qr_nothing_to_remove": {"zh": "{name} 没有登记这样的收款码", "en": "{name} has no such payment code"},
        "qr_removed": {"zh": "已删除 {name} 的收款码（{count}张）", "en": "Removed {name}'s payment code ({count})"},
        "qr_caption": {"zh": "{name} 的{app}收款码", "en": "{name}'s {app} payment code"},
        "qr_button": {"zh": "{name}的收款码", "en": "{name}'s QR code"},
        # -- table fees --------------------------------------------------------------------------------------
        "fees_usage": {
            "zh": "用法：设置 台费 10（每人每晚，结算时记）｜ 设置 台费 0 ｜ 设置 抽水 10% ｜ 设置 抽水 2 ｜ "
            "设置 抽水 10% 封顶 5 ｜ 设置 抽水 关",
            "en": "Usage: config fee 10 (each player per night, booked at settle) | config fee 0 | config cut 10% | "
            "config cut 2 | config cut 10% cap 5 | config cut off",
        },
        "fees_changed": {"zh": "台费已改（之后记的账按新的算）：", "en": "Table fees changed (from now on):"},
        "fees_none": {
            "zh": "台费：不收（管理员：设置 台费 10 ｜ 设置 抽水 10%）",
            "en": "Table fees: none (admins: config fee 10 | config cut 10%)",
        },
        "fees_line": {"zh": "台费：{parts}", "en": "Table fees: {parts}"},
        "fees_night": {"zh": "每人每晚 {amount}（结算时记）", "en": "{amount} per player per night (at settle)"},
        "fees_cut": {"zh": "每次胡牌抽水 {cut}{cap}", "en": "a cut of {cut} of each win{cap}"},
        # 够级 has no win: each round's winners are cut
        "fees_cut_round": {"zh": "每局赢家抽水 {cut}{cap}", "en": "a cut of {cut} of each round's winnings{cap}"},
        "fees_cap": {"zh": "，封顶 {amount}", "en": ", at most {amount}"},
        "fees_cut_booked": {"zh": "抽水：{cuts}（已记入台费）", "en": "Cut: {cuts} (to the house)"},
        "fees_house": {"zh": "台费账户：{amount}", "en": "The house holds: {amount}"},
        "fees_read_only": {
            "zh": "台费 只是查看；管理员改用 设置 台费 10 或 设置 抽水 10%",
            "en": "fees only shows them; admins change them with config fee 10 or config cut 10%",
        },
        "payfees_usage": {
            "zh": "用法：付台费 @甲（台费账户全部给甲）｜ 付台费 @甲 100 ｜ 付台费 @甲 @乙（平分）",
            "en": "Usage: pay table fee @a (all the house holds) | pay table fee @a 100 | "
            "pay table fee @a @b (split evenly)",
        },
        "payfees_empty": {
            "zh": "台费账户是空的，没有可付的（台费在结算时才记）。",
            "en": "The house holds nothing to pay out (the table fee is booked at settle).",
        },
        "payfees_short": {
            "zh": "台费账户只有 {held}，不够付 {need}，没有记。",
            "en": "The house holds only {held}, not {need}; nothing booked.",
        },
        "payfees_short_split": {
            "zh": "{total} 不够分给 {n} 人（每人至少 1分），没有记。",
            "en": "{total} is too little to split among {n} (at least 1分 each); nothing booked.",
        },
        "payfees_bad_amount": {
            "zh": "「{text}」不是金额：{why}（大于 0，最多 {most}）。",
            "en": "“{text}” is not an amount: {why} (more than 0, at most {most}).",
        },
        "fees_amount_positive": {
            "zh": "{what}的金额要大于 0（最多 {most}），「{text}」不行。不收就写 设置 {what} 关。",
            "en": "{what} takes an amount above 0 (at most {most}), not “{text}”. To stop it: config {what} off.",
        },
        "fees_cap_zero": {
            "zh": "封顶 {text} 等于不抽水：要取消封顶写 封顶 不封顶，不抽水写 设置 抽水 关。没有改。",
            "en": "A cap of {text} would take nothing: lift the cap with cap none, stop the cut with config cut off. "
            "Nothing changed.",
        },
        "payfees_done": {"zh": "台费已付出：", "en": "Paid out of the house:"},
        "payfees_line": {"zh": "{name} +{amount}", "en": "{name} +{amount}"},
        "details_payment_button": {"zh": "明细 {payer}→{payee}", "en": "Details {payer}→{payee}"},
        # 撤销发红包池 / 撤销付台费 (bot/commands/undo_payout.py); the ledger's refusals say why a payout stays
        "unpayout_usage": {"zh": "{word} 后面不用写别的。", "en": "{word} takes no words after it."},
        "unpayout_ask_pot": {
            "zh": "撤销最近一次发红包池？\n{lines}\n{after}确定吗？",
            "en": "Take back the latest pot payout?\n{lines}\n{after}Sure?",
        },
        "unpayout_ask_house": {
            "zh": "撤销最近一次付台费？\n{lines}\n{after}确定吗？",
            "en": "Take back the latest house payout (pay table fee)?\n{lines}\n{after}Sure?",
        },
        "unpayout_ask_in_night": {
            "zh": "撤销后钱回到{pool}，领钱的人不再算收到（这一晚结算时不算它）。",
            "en": "The money goes back to the {pool} and those paid no longer have it (the night's settlement leaves "
            "it out). ",
        },
        "unpayout_ask_at_once": {
            "zh": "撤销后钱回到{pool}，转给领钱人的欠款恢复成欠{pool}，这次的付款按钮作废。",
            "en": "The money goes back to the {pool}, the debts it passed on to those paid are owed to the {pool} "
            "again, and its payment buttons expire. ",
        },
        "btn_unpayout_pot": {"zh": "确认撤销发红包池", "en": "Take it back"},
        "btn_unpayout_house": {"zh": "确认撤销付台费", "en": "Take it back"},
        "unpayout_kept_pot": {"zh": "好的，发红包池没有撤销。", "en": "OK, the pot payout stands."},
        "unpayout_kept_house": {"zh": "好的，付台费没有撤销。", "en": "OK, the house payout stands."},
        "unpayout_done_pot": {
            "zh": "已撤销发红包池，钱回到红包池：",
            "en": "Pot payout taken back, the money is back in the Pot:",
        },
        "unpayout_done_house": {
            "zh": "已撤销付台费，钱回到台费账户：",
            "en": "House payout taken back, the money is back with the House:",
        },
        "unpayout_line": {"zh": "{name} -{amount}", "en": "{name} -{amount}"},
        "unpayout_passed_back": {
            "zh": "转给领钱人的欠款恢复成欠{pool}，那次的付款按钮作废。",
            "en": "The debts it passed on are owed to the {pool} again; its payment buttons are void.",
        },
        # a payment booked by one side while nothing more is owed: square once the other side confirms it
        "payment_square_once_confirmed": {
            "zh": "等 {who} 确认后，{debtor} 和 {creditor} 就两清了",
            "en": "{debtor} and {creditor} are square once {who} confirms",
        },
        # 未结 with payments their payer told that wait for the payee's word counted as open (bot/commands/payments.py)
        "owed_waiting": {"zh": "{owed}（{amount}待确认）", "en": "{owed} ({amount} awaiting confirmation)"},
        "debt_item_waiting": {
            "zh": "{debtor} 欠 {creditor} {amount}（已付 {waiting}，待 {creditor} 确认）",
            "en": "{debtor} owes {creditor} {amount} ({waiting} paid, waiting for {creditor} to confirm)",
        },
        # the open night's money is in 未结 but in no settlement's debts: 谁还没付, 我欠谁 say it is not settled yet
        "night_open_tonight": {
            "zh": "今晚（{date}）还没结算（{standing}）：打完发 结算 算出谁给谁多少。",
            "en": "Tonight ({date}) is not settled yet ({standing}): send settle when you stop to see who pays whom.",
        },
        # 我欠谁 before 结算: the open night's fewest payments as they stand, no settlement
        "night_would_pay": {
            "zh": "要是现在结算，你要给：{items}（按这一晚到现在的输赢；还没结算，以 结算 为准）",
            "en": "Were it settled now, you would pay: {items} (that night's results so far; not settled yet: settle "
            "decides)",
        },
        "night_would_pay_none": {
            "zh": "要是现在结算，你不用给谁钱（按这一晚到现在的输赢；还没结算）。",
            "en": "Were it settled now, you would pay nobody (that night's results so far; not settled yet).",
        },
        "night_open_last": {
            "zh": "昨晚（{date}）还没结算（{standing}）：发 结算 算出谁给谁多少。",
            "en": "Last night ({date}) is not settled yet ({standing}): send settle to see who pays whom.",
        },
        "night_open_earlier": {
            "zh": "{date} 那晚还没结算（{standing}）：发 结算 算出谁给谁多少。",
            "en": "The night of {date} is not settled yet ({standing}): send settle to see who pays whom.",
        },
        # 没收到 (bot/commands/payments.py): the payee says a payment its payer told never came; taken back
        "payment_not_received": {
            "zh": "已撤销付款：{debtor} → {creditor} {amount}（{creditor} 说没收到）。{debtor_at} 钱转过去了就再发 "
            "已转 {creditor_at}",
            "en": "Payment taken back: {debtor} → {creditor} {amount} ({creditor} says it did not arrive). "
            "{debtor_at}: once the money is sent, send paid {creditor_at} again",
        },
        "payment_not_received_more": {
            "zh": "{debtor} 另有 {waiting} 说已付，还在等你确认（也没收到就再发 没收到 {debtor_at}）",
            "en": "{debtor} says {waiting} more was paid, still waiting for your word (not that either: send "
            "没收到 {debtor_at} again)",
        },
        "payment_not_received_none": {
            "zh": "{debtor} 没有说已付给你、等你确认的付款，没有撤销什么。",
            "en": "{debtor} told no payment to you that waits for your word; nothing taken back.",
        },
        "payment_not_received_none_amount": {
            "zh": "{debtor} 没有说已付给你 {amount}、等你确认的付款，没有撤销什么。",
            "en": "{debtor} told no payment of {amount} to you that waits for your word; nothing taken back.",
        },
        "payment_not_received_which": {
            "zh": "{names} 都说已付给你，等你确认。哪一笔没收到就写上他，例如：没收到 {example}",
            "en": "{names} each say they paid you, waiting for your word. Name the one that did not arrive, e.g. "
            "没收到 {example}",
        },
        # 收到 alone from a payee still owed, with no payment told to them (bot/commands/payments.py)
        "payment_nothing_waiting": {
            "zh": "没有等你确认的付款（还没有人说已付给你）。还欠你的：{debts}。"
            "收到了谁的钱就写：收到 {payer} {amount}",
            "en": "No payment waits for your word (nobody has said they paid you). Still owing you: {debts}. To book "
            "what came: received {payer} {amount}",
        },
        # a payment with a guest (a plain name at the table, no Telegram account): it stands on the member's word
        "payment_booked_guest": {
            "zh": "记下付款：{debtor} → {creditor} {amount}（{guest} 没有群账号，确认不了：按 {teller} 说的算；"
            "记错了 {teller} 发 撤销付款）",
            "en": "Payment booked: {debtor} → {creditor} {amount} ({guest} has no Telegram account to confirm it: "
            "it stands on {teller}'s word; if it is wrong, {teller} sends unpay)",
        },
        "payment_booked_guest_for": {
            "zh": "记下付款：{debtor} → {creditor} {amount}（管理员 {admin} 代 {side} 记；{guest} 没有群账号，"
            "不用等确认）",
            "en": "Payment booked: {debtor} → {creditor} {amount} (admin {admin} for {side}; {guest} has no Telegram "
            "account, nothing to wait for)",
        },
        # 已转 红包池, 付 台费 5, or 已转 alone owing only the pot or the house (bot/commands/payments.py)
        "payment_to_pool": {
            "zh": "没有记：欠红包池、台费的钱不直接付给它们；"
            "等管理员 发红包池 / 付台费 给谁，就改付给谁（付款帖会写）。",
            "en": "Not booked: money owed to the pot or the house is not paid to them; once an admin pays it out "
            "(发红包池 / 付台费), you pay whoever got it (the payments post says whom).",
        },
        # a member's plain name in a payment, not a player of the latest settlement's lines (bot/commands/payments.py)
        "payment_name_not_settled": {
            "zh": "没有记：「{name}」要用 @ 提到（不加 @ 只认最近一次结算账里列的名字）。这样写：{line}",
            "en": "Not booked: name “{name}” with @ (without it only the names the latest settlement lists are "
            "read). Write: {line}",
        },
    }
)
