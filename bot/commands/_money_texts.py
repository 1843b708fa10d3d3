"""Texts of 明细 (where each payment comes from), table fees (台费/抽水) and 收款码 (payment QR codes). Chinese
first, English when the chat's language is `en`."""

from __future__ import annotations

from bot.texts import register
from ledger.scoring.kawuxing import REASON_ZH

#: transfer reasons as players call them (the scoring core's keys; a fine's reason is what the admin typed)
REASON_WORDS: dict[str, str] = {
    **REASON_ZH,
    "gouji": "够级",
    "gouji_chuansanhu": "串三户",
    "hu": "胡",
    "zhongzhuang": "中庄",
    "paoqi_hu": "跑起胡",
    "paoqi_zhongzhuang": "跑起中庄",
    "qishou_sao": "起手扫",
    "qishou_sao_netting": "起手扫抵扣",
    "qishou_tishe": "起手提蛇",
    "红包": "红包",
}


def reason_word(lang: str, reason: str, kind: str) -> str:
    """A transfer's reason in the chat's words: the scoring core's key named, a fine marked as one."""
    if kind == "fine":
        return ("fine: " if lang == "en" else "罚款：") + reason
    if lang == "en":
        return reason.replace("_", " ")
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
            "en": "… {more} more pairs not shown (send 明细 @name for one player's)",
        },
        "details_hint": {
            "zh": "发 明细 @名字 看某人的逐笔明细",
            "en": "Send 明细 @name for one player's items",
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
        "details_payment_button": {"zh": "明细 {payer}→{payee}", "en": "Details {payer}→{payee}"},
    }
)
