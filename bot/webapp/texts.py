"""Every text of the Mini App: the server's answers (registered with `bot.texts`) and the page's own words.

The page fetches `page_texts(lang)` once (`api/session`); its JavaScript holds no sentence of its own. Chinese
by default, English when the player's Telegram language is English.
"""

from __future__ import annotations

from bot.texts import register

register(
    {
        "btn_mini_app": {"zh": "📱 小程序", "en": "📱 Mini App"},
        "web_booked_by": {"zh": "📱 {name} 在小程序里记：{line}", "en": "📱 {name} recorded in the Mini App: {line}"},
        # refusals of the API (the page shows them; nothing was booked)
        "web_auth_missing": {
            "zh": "没有 Telegram 登录信息：请在 Telegram 里点牌桌消息的「📱 小程序」打开。",
            "en": "No Telegram login: open this from the table message's “📱 Mini App” button in Telegram.",
        },
        "web_auth_bad_hash": {
            "zh": "Telegram 登录信息验证失败：请从群里重新打开小程序。",
            "en": "The Telegram login could not be verified: reopen the Mini App from the group.",
        },
        "web_auth_malformed": {
            "zh": "Telegram 登录信息格式不对：请从群里重新打开小程序。",
            "en": "The Telegram login is malformed: reopen the Mini App from the group.",
        },
        "web_auth_stale": {
            "zh": "登录已过期：请从群里重新打开小程序。",
            "en": "This login has expired: reopen the Mini App from the group.",
        },
        "web_auth_no_user": {
            "zh": "Telegram 没有告诉我你是谁：请从群里重新打开小程序。",
            "en": "Telegram did not say who you are: reopen the Mini App from the group.",
        },
        "web_auth_bad_start": {
            "zh": "这个链接不是这个机器人发的牌桌链接：请点群里牌桌消息的「📱 小程序」。",
            "en": "This is not a table link from this bot: use the table message's “📱 Mini App” button.",
        },
        "web_not_member": {
            "zh": "你不在这个群里，看不了这张牌桌。",
            "en": "You are not a member of this group, so you cannot see its table.",
        },
        "web_not_seated": {
            "zh": "只有在座的玩家和群管理员可以记账。",
            "en": "Only the seated players and the group's admins can record.",
        },
        "web_no_table": {
            "zh": "现在没有开着的牌桌：先在群里开桌（开桌 @甲 @乙 @丙）。",
            "en": "No table is open: open one in the group first (open @a @b @c).",
        },
        "web_not_kawuxing": {
            "zh": "这张牌桌打的不是卡五星：小程序只能记卡五星，其他游戏请在群里发消息记。",
            "en": "This table is not playing 卡五星: the Mini App records 卡五星 only; record other games in the chat.",
        },
        "web_bad_request": {
            "zh": "请求看不懂（{what}）：请刷新小程序再试。",
            "en": "The request cannot be read ({what}): reload the Mini App and try again.",
        },
        "web_bad_tile": {
            "zh": "「{tile}」不是这张牌桌用的牌（花色：{suits}，另加中发白）。",
            "en": "“{tile}” is not a tile of this table (suits: {suits}, plus the dragons).",
        },
        "web_not_seated_player": {"zh": "{name} 不在这张牌桌上。", "en": "{name} is not seated at this table."},
        "web_too_many_tiles": {
            "zh": "牌太多了：手牌加副露最多 14 张（杠算 3 张），现在 {count} 张。",
            "en": "Too many tiles: at most 14 with the melds (a kong counts 3), now {count}.",
        },
        "web_win_tile_missing": {
            "zh": "还差 {missing} 张：点够 14 张，最后一张是胡的那张牌。",
            "en": "{missing} more to go: tap 14 tiles, the last one is the winning tile.",
        },
        "web_discarder_missing": {
            "zh": "选一下是谁{what}。",
            "en": "Choose who {what}.",
        },
        "web_untypable_name": {
            "zh": "「{name}」这个名字写进记账消息会被读错（有空格或和别人重名）："
            "请先在群里用「名片」给 TA 设个简单的名字。",
            "en": "The name “{name}” cannot be written into a record line (a space, or shared with another seat): "
            "give them a simple name with 名片 in the group first.",
        },
        "web_table_changed": {
            "zh": "牌桌已经换了：请看一眼新牌桌再记。",
            "en": "The table has changed: look at the new table, then record.",
        },
    }
)

#: the page's words, by key (the JavaScript asks for them by these keys)
PAGE: dict[str, dict[str, str]] = {
    "title": {"zh": "牌局", "en": "paiju"},
    "tab_board": {"zh": "牌桌", "en": "Table"},
    "tab_win": {"zh": "记胡", "en": "Win"},
    "tab_night": {"zh": "本晚", "en": "Tonight"},
    "loading": {"zh": "加载中…", "en": "Loading…"},
    "live": {"zh": "实时", "en": "live"},
    "offline": {"zh": "连接中断，正在重连…", "en": "Connection lost, reconnecting…"},
    "hand_no": {"zh": "第{number}局", "en": "Hand {number}"},
    "base": {"zh": "底金 {base}", "en": "base {base}"},
    "dealer": {"zh": "庄", "en": "dealer"},
    "liangdao": {"zh": "亮倒", "en": "亮倒"},
    "me": {"zh": "我", "en": "me"},
    "me_as": {"zh": "我：{name}", "en": "me: {name}"},
    "this_hand": {"zh": "本局", "en": "This hand"},
    "hand_empty": {"zh": "本局还没有记录。", "en": "Nothing recorded in this hand yet."},
    "tonight": {"zh": "本晚输赢", "en": "Tonight"},
    "no_table": {
        "zh": "现在没有开着的牌桌。在群里发：开桌 @甲 @乙 @丙",
        "en": "No table is open. In the group: 开桌 @a @b @c",
    },
    "old_link": {
        "zh": "这个链接是之前那一桌的；下面是现在的牌桌。",
        "en": "This link was for an earlier table; this is the table now.",
    },
    "read_only": {
        "zh": "只有在座的玩家和群管理员可以记账，你可以看。",
        "en": "Only seated players and admins can record; you can watch.",
    },
    "not_kawuxing": {
        "zh": "小程序只能记卡五星；这一桌请在群里发消息记。",
        "en": "The Mini App records 卡五星 only; record this table in the chat.",
    },
    "btn_win": {"zh": "记胡", "en": "Record a win"},
    "btn_kong": {"zh": "杠", "en": "Kong"},
    "btn_liangdao": {"zh": "亮倒", "en": "亮倒"},
    "btn_draw": {"zh": "荒庄", "en": "Drawn"},
    "btn_undo": {"zh": "撤销", "en": "Undo"},
    "btn_cancel": {"zh": "取消", "en": "Cancel"},
    "btn_book": {"zh": "记账", "en": "Record"},
    "btn_clear": {"zh": "清空", "en": "Clear"},
    "btn_settle": {"zh": "结算本晚", "en": "Settle tonight"},
    "who_kong": {"zh": "谁杠", "en": "Who made the kong"},
    "kong_kind": {"zh": "什么杠", "en": "Which kong"},
    "kong_angang": {"zh": "暗杠", "en": "Concealed (暗杠)"},
    "kong_xugang": {"zh": "蓄杠", "en": "Added (蓄杠)"},
    "kong_zhigang": {"zh": "直杠", "en": "Exposed (直杠)"},
    "kong_tile": {"zh": "哪张牌（可不选）", "en": "Which tile (optional)"},
    "kong_from": {"zh": "谁点的杠", "en": "Whose discard"},
    "kong_chain": {"zh": "杠上杠", "en": "杠上杠 (chained)"},
    "who_liangdao": {"zh": "谁亮倒", "en": "Who declares 亮倒"},
    "confirm_draw": {"zh": "这一局荒庄（没人胡）？", "en": "Record this hand as drawn (no winner)?"},
    "confirm_undo": {
        "zh": "撤销本局最后一条记录（本局没有记录时撤销上一局）？",
        "en": "Undo the last record of this hand (or the last hand when this one is empty)?",
    },
    "confirm_settle": {
        "zh": "结算并结束今晚？今晚的账就此封存，群里会收到战报。",
        "en": "Settle and end tonight? Tonight's ledger is closed and the group gets the report.",
    },
    "who_won": {"zh": "谁胡", "en": "Who won"},
    "hand_tiles": {"zh": "手牌", "en": "Hand"},
    "tiles_count": {"zh": "{count}/14 张", "en": "{count}/14 tiles"},
    "melds": {"zh": "副露", "en": "Melds"},
    "meld_none": {"zh": "手牌", "en": "Hand"},
    "meld_peng": {"zh": "碰", "en": "Pung (碰)"},
    "meld_zhigang": {"zh": "直杠", "en": "Kong (直杠)"},
    "meld_xugang": {"zh": "蓄杠", "en": "Kong (蓄杠)"},
    "meld_angang": {"zh": "暗杠", "en": "Kong (暗杠)"},
    "tap_adds": {"zh": "点下面的牌加到：", "en": "Tapping a tile adds to:"},
    "win_tile": {"zh": "胡的牌", "en": "Winning tile"},
    "how": {"zh": "怎么胡", "en": "How"},
    "method_self_draw": {"zh": "自摸", "en": "Self-draw"},
    "method_discard": {"zh": "点炮", "en": "Discard"},
    "method_rob_kong": {"zh": "抢杠", "en": "Robbed kong"},
    "who_discarded": {"zh": "谁点的炮", "en": "Whose discard"},
    "who_robbed": {"zh": "抢谁的杠", "en": "Whose kong"},
    "situations": {"zh": "另外", "en": "Also"},
    "preview": {"zh": "预览", "en": "Preview"},
    "waits": {"zh": "听：{tiles}", "en": "Waiting on: {tiles}"},
    "no_waits": {"zh": "这 13 张还没听牌。", "en": "These 13 tiles are not ready yet."},
    "missing": {"zh": "还差 {missing} 张", "en": "{missing} more"},
    "multiple": {"zh": "×{final}", "en": "×{final}"},
    "capped": {"zh": "（封顶前 ×{raw}）", "en": " (×{raw} before the cap)"},
    "baohu": {"zh": "包胡：{name} 一人赔", "en": "包胡: {name} pays alone"},
    "payments": {"zh": "付款", "en": "Payments"},
    "same_as": {"zh": "等于在群里发：", "en": "Same as typing in the group:"},
    "booked": {"zh": "已记账", "en": "Recorded"},
    "asked": {"zh": "还没记：请在群里回答问题", "en": "Not recorded yet: answer the question in the group"},
    "history": {"zh": "本晚牌局", "en": "Tonight's hands"},
    "history_empty": {"zh": "本晚还没有一局打完。", "en": "No finished hand tonight yet."},
    "settlement": {"zh": "结算（最少转账）", "en": "Settlement (fewest transfers)"},
    "settled_even": {"zh": "大家持平，不用转账。", "en": "Everyone is even: no transfers."},
    "chart": {"zh": "走势", "en": "Running balance"},
    "pay_status": {
        "zh": "付款确认（已付 / 收到）以后在这里点。",
        "en": "Payment confirmations (paid / received) will go here.",
    },
    "night_of": {"zh": "{date} 这晚", "en": "The night of {date}"},
    "night_closed": {"zh": "已结算", "en": "settled"},
    "voided": {"zh": "已作废", "en": "voided"},
    "error": {"zh": "出错了：{message}", "en": "Error: {message}"},
    "network": {"zh": "网络不通，请再试一次。", "en": "Network error; try again."},
}


def page_texts(lang: str) -> dict[str, str]:
    """The page's words in `lang` (Chinese where a word has no English)."""
    return {key: versions.get(lang) or versions["zh"] for key, versions in PAGE.items()}


def page_lang(language_code: str | None) -> str:
    """Telegram's language code → the page's language: English for `en…`, Chinese otherwise."""
    return "en" if (language_code or "").lower().startswith("en") else "zh"
