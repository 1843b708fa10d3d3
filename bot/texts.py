"""Every text a player sees, Chinese first, English when the chat's language is `en`.

Handlers never inline a sentence: they name a key. Other modules (moderation, reports, games) add their own
keys with `register` at import time.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.vocabulary import DRAGON_NAMES_EN, KONG_NAMES_EN, MELDS, METHOD_NAMES_EN

if TYPE_CHECKING:
    from ledger.scoring.common import Reading

#: key -> {"zh": template, "en": template}; templates use str.format fields.
TEXTS: dict[str, dict[str, str]] = {
    # -- the dispatcher ----------------------------------------------------------------------------------
    "admin_only": {"zh": "只有群管理员可以这样做。", "en": "Only the group's admins can do that."},
    "internal_error": {
        "zh": "出了点问题，已记在日志里。请发「历史」或「余额」核对这条有没有记上。",
        "en": "Something went wrong; it has been logged. Check with history or balance whether this was recorded.",
    },
    "button_expired": {"zh": "这个按钮已经失效了。", "en": "This button has expired."},
    "scoring_refused": {"zh": "没有记录：{message}", "en": "Not recorded: {message}"},
    "ledger_refused": {"zh": "没有记录：{message}", "en": "Not recorded: {message}"},
    "ledger_nothing_to_undo": {"zh": "这一桌没有可以撤销的记录。", "en": "Nothing to undo at this table."},
    "ledger_edit_taken_back": {
        "zh": "这条消息记的账已经撤销了，改了也不再记账。要记，请重新发一条。",
        "en": "What this message recorded was taken back (undo), so the edit books nothing. To record it, send it "
        "again.",
    },
    "ledger_table_ended": {"zh": "这一桌已经结束了，请重新开桌。", "en": "This table has ended; open a new one."},
    # what the ledger refuses in Chinese only (its messages): an English group reads the why in English
    "ledger_bad_name": {
        "zh": "没有记录：{message}",
        "en": "Not recorded: {english}.",
    },
    "ledger_hand_in_progress": {
        "zh": "没有记录：{message}",
        "en": "Not recorded: this table's hand is not finished yet: record how it ended, or undo, first.",
    },
    "ledger_bad_seats": {
        "zh": "没有记录：{message}",
        "en": "Not recorded: this game needs a different number of players, each seated once.",
    },
    "ledger_kongs_too_many": {"zh": "没有记录：{message}。", "en": "Not recorded: {english}."},
    "ledger_bad_member": {"zh": "没有记录：{message}", "en": "Not recorded: that account cannot be seated."},
    "ledger_bad_dealer": {"zh": "没有记录：{message}", "en": "Not recorded: the dealer must be seated at the table."},
    "bot_added": {
        "zh": (
            "大家好，我是牌局记账机器人：打卡五星时把杠、亮倒、胡牌发到群里，我来算番、记账、结算。\n"
            "先开桌：开桌 @甲 @乙 @丙；胡牌：胡 123p46p789s22s333s 5p 点 @乙 或 胡 清一色 自摸；"
            "发「帮助」看常用的几句。\n"
            "请把我设为管理员，我才能看到所有消息、执行群规。"
        ),
        "en": (
            "Hi! I keep this group's mahjong ledger: post kongs, ready (亮倒) and wins here and I score, book and "
            "settle.\n"
            "Open a table: open @a @b @c; a win: win 123p46p789s22s333s 5p from @b or win one suit self-draw; "
            "send help for the usual lines.\n"
            "Make me an admin so I can see every message and enforce the group rules."
        ),
    },
    # -- players and tables ------------------------------------------------------------------------------
    "no_table": {
        "zh": "现在没有开着的牌桌。先开桌：开桌 {seats}",
        "en": "No table is open. Open one first: open {seats}",
    },
    "unknown_player": {
        "zh": "不认识 {name}：请用 @ 提到群里的人，或者开桌时直接写客人的名字。",
        "en": "Who is {name}? Mention a member with @, or seat a guest by name when opening the table.",
    },
    "unknown_mention": {
        "zh": "还不认识 @{name}：请 TA 先在群里说句话，或者开桌时直接写名字当客人。",
        "en": "I don't know @{name} yet: ask them to say something in the group first, or seat a guest by name.",
    },
    "mention_is_label": {
        "zh": "@{name} 是群里某人的名片或昵称，不是 Telegram 用户名：请输入 @ 后从列表里点选 TA，或写 TA 的 @用户名。",
        "en": "@{name} is someone's display name or 名片, not a Telegram username: type @ and pick them from the list, "
        "or use their @username.",
    },
    "name_reserved": {
        "zh": "「{name}」是保留的名字（红包池、台费、我），不能给人用：请换个名字。",
        "en": "“{name}” is a reserved name (the pot 红包池, the house 台费, 我/me): choose another name.",
    },
    "name_is_members": {
        "zh": "「{name}」是群成员的名字，不止一位（{names}）：请用 @ 点选是哪一位（输入 @ 后从列表里点选）。",
        "en": "“{name}” is the name of more than one member ({names}): mention the one you mean with @ (type @ and "
        "pick them from the list).",
    },
    "name_is_member_and_guest": {
        "zh": "「{name}」既是群成员 {member} 的名字，又是客人 {guest} 的名字：群成员请用 @ 点选（输入 @ 后从列表里"
        "点选）；客人 {guest} 就是 {member} 本人的话，管理员发 关联 {guest} @TA 把客人的账归到 TA 名下。",
        "en": "“{name}” is both the member {member} and the guest {guest}: mention the member with @ (type @ and pick "
        "them from the list); if the guest {guest} is {member}, an admin sends 关联 {guest} @them to move the "
        "guest's record to the member.",
    },
    "name_is_that_member": {
        "zh": "「{name}」是群成员 {member} 的名字：请用 @ 提到 TA（输入 @ 后从列表里点选），账才记在 TA 本人名下；"
        "客人请换个不同的名字。",
        "en": "“{name}” is the member {member}: mention them with @ (type @ and pick them from the list), so the "
        "money is theirs; give a guest a different name.",
    },
    "name_is_member": {
        "zh": "「{name}」是群成员的名字：请用 @ 提到 TA（输入 @ 后从列表里点选）；客人请换个不同的名字。",
        "en": "“{name}” is a member's name: mention them with @ (type @ and pick them from the list); "
        "give a guest a different name.",
    },
    "ambiguous_mention": {
        "zh": "@{name} 可能是两个人：请输入 @ 后从列表里点选 TA。",
        "en": "@{name} could be two people: type @ and pick the one you mean from the list.",
    },
    "kong_tile_again": {
        "zh": "这一局已经记了 {what}：同一张牌只能杠一次。发重了就不用再记；牌写错了就写对的那张。",
        "en": "This hand already has {what}: a tile is konged once. Sent twice? Nothing more to do; wrong tile? "
        "Write the right one.",
    },
    "not_seated": {"zh": "{name} 不在这桌上。", "en": "{name} is not seated at this table."},
    "seated_twice": {"zh": "{name} 写了两次：每人只能坐一个位子。", "en": "{name} is named twice: one seat each."},
    "open_hand_in_progress": {
        "zh": "没有开新桌：第{number}局已经记了 {what}，还没打完。这一局有人胡就记下胡牌，没人胡就发「荒庄」结束它"
        "（记了的照算），记错了就发「撤销」去掉；然后再开桌。",
        "en": "No new table opened: hand {number} has {what} recorded and has not ended. Record its win, or if "
        "nobody won send draw to end it (what is recorded stands); if it was a mistake, send undo; then open a new "
        "table.",
    },
    "open_hand_in_progress_other": {
        "zh": "没有开新桌：第 {number} 局还没打完：先记完或撤销",
        "en": "No new table opened: hand {number} is not finished yet: record how it ended, or undo, first.",
    },
    "too_many_players": {
        "zh": "{game}一桌 {seats} 个人，多了 {extra}。",
        "en": "A {game} table seats {seats}; {extra} is one too many.",
    },
    "guest_name_is_a_stake": {
        "zh": "「{name}」不是客人的名字：开桌只写坐下的人（@某人，客人写名字）。这群底金 {base}，"
        "管理员在开桌前用 设置 底金 2 修改（开着的桌不变）。",
        "en": "“{name}” is no guest's name: open names only who sits down (@someone, a guest by name). The base stake "
        "here is {base}; admins change it with config base 2 before open (an open table keeps its own).",
    },
    "guest_name_too_long": {
        "zh": "客人名字最多 {limit} 个字，「{start}…」有 {length} 个：写短一点。",
        "en": "A guest's name takes at most {limit} characters; “{start}…” has {length}: write a shorter one.",
    },
    "too_few_players": {
        "zh": "{game}一桌要 {seats} 个人，现在只有 {count} 个：开桌 {example}（客人直接写名字）",
        "en": "A {game} table needs {seats} players, you named {count}: open {example} (guests by name)",
    },
    "seat_labels": {"zh": "甲 乙 丙 丁 戊 己", "en": "a b c d e f"},
    # `我也来`, `加我一个` said alone (bot/commands/table.py): a seat comes with 开桌
    "seat_me_no_table": {
        "zh": "现在没有开着的桌。{game}一桌 {seats} 个人，开桌时写上的人才坐下：自己开就发 开桌 {others} 加我；"
        "别人开桌时请 TA 写上 @你。",
        "en": "No table is open. A {game} table seats {seats}, whoever the opening line names: open it yourself "
        "with open {others} me, or ask whoever opens it to name @you.",
    },
    "seat_me_seated": {"zh": "你已经在这桌了：{names}。", "en": "You are already at this table: {names}."},
    "seat_me_full": {
        "zh": "这桌已经坐满了：{names}（{game}一桌 {seats} 个人），打到一半不能加人。要换你上：一局打完后，桌上的人或"
        "管理员发 开桌 @…（写上你）开新的一桌，这桌记下的局都算数。",
        "en": "This table is full: {names} (a {game} table seats {seats}); nobody joins midway. To sit you down, a "
        "player or an admin sends open naming the new table (with @you) between hands; this table's hands stand.",
    },
    "guest_name_split": {
        "zh": "没有开桌：「{split}」是一个人吗？名字请连着写「{joined}」（群里的人用 @ 提到 TA）。",
        "en": "Not opened: is “{split}” one person? Write “{joined}” without the space (a member of the group: "
        "@mention them).",
    },
    "guest_name_is_chat": {
        "zh": "「{name}」不是客人的名字：开桌只写坐下的人（@某人，客人写名字，自己坐下写 我），庄家写 庄 @某人 或 "
        "我坐庄、老王坐庄。",
        "en": "“{name}” is no guest's name: open names only who sits down (@someone, a guest by name, me for "
        "yourself); name the dealer as dealer @someone or dealer me.",
    },
    "dealer_missing": {"zh": "「庄」后面要写谁坐庄，例如：庄 @甲", "en": "Say who deals after 庄, e.g. 庄 @a"},
    "dealer_not_seated": {"zh": "庄家 {name} 不在这桌上。", "en": "The dealer {name} is not seated at this table."},
    "dealer_not_seated_full": {
        "zh": "庄家 {name} 不在这桌上：{game}一桌 {seats} 个人，已经写满了（{names}）。要 {name} 坐庄，"
        "就在座位里写上 TA、少写一位；或者从这几位里定庄。",
        "en": "The dealer {name} is not seated: a {game} table seats {seats}, and {names} fill it. To have {name} "
        "deal, name them among the players instead of one of these, or pick the dealer among them.",
    },
    "guest_seated": {
        "zh": "{names} 不是群成员：作为客人入座，账记在这个名字上（群成员请用 @ 点选）。",
        "en": "{names}: no member goes by that name, so seated as a guest, the money kept under it (mention a member "
        "with @).",
    },
    "dealer_part": {"zh": "，庄家 {dealer}（{how}）", "en": ", dealer {dealer} ({how})"},
    "dealer_status": {"zh": "，庄家 {dealer}", "en": ", dealer {dealer}"},
    "dealer_drawn": {"zh": "抽庄", "en": "drawn"},
    "dealer_named": {"zh": "指定", "en": "named"},
    "table_opened": {
        "zh": (
            "开桌了：{game}，底金 {base}\n座位：{seats}\n第{number}局{dealer}\n"
            "记牌：胡 123p46p789s22s333s 5p 点 @乙 ｜ 胡 清一色 自摸 ｜ 暗杠 3s ｜ 亮倒 ｜ 荒庄 ｜ 撤销，或点下面的按钮"
        ),
        "en": (
            "Table open: {game}, base stake {base}\nSeats: {seats}\nHand {number}{dealer}\n"
            "Record: win 123p46p789s22s333s 5p from @b | win one suit self-draw | concealed kong 3s | ready | draw | "
            "undo, or use the buttons"
        ),
    },
    "table_opened_other": {
        "zh": "开桌了：{game}，底金 {base}\n座位：{seats}\n第{number}局{dealer}\n发「帮助」看这个游戏怎么记。",
        "en": "Table open: {game}, base stake {base}\nSeats: {seats}\nHand {number}{dealer}\nSend help for how to "
        "record this game.",
    },
    "table_status": {
        "zh": "{game}：{seats}，底金 {base}\n第{number}局{dealer}",
        "en": "{game}: {seats}, base stake {base}\nHand {number}{dealer}",
    },
    "hand_events": {"zh": "本局已记：{events}", "en": "This hand so far: {events}"},
    "hand_empty": {"zh": "本局还没有记录。", "en": "Nothing recorded in this hand yet."},
    "liangdao_state": {"zh": "已亮倒：{names}", "en": "Ready (亮倒) declared: {names}"},
    "wrong_game_command": {
        "zh": "这张牌桌打的不是卡五星，这个命令用不了。",
        "en": "This table is not playing 卡五星; that command does not apply.",
    },
    "btn_hu": {"zh": "胡", "en": "Win"},
    "btn_gang": {"zh": "杠", "en": "Kong"},
    # -- reading a record --------------------------------------------------------------------------------
    "unknown_word": {
        "zh": "看不懂「{word}」：不是牌、番型、玩家，也不是 自摸/点/抢杠 这类词。例子：胡 123p46p789s22s333s 5p 点 @乙",
        "en": "Cannot read “{word}”: not tiles, a pattern, a player or a word like self-draw/from/robbing a kong. "
        "Example: win 123p46p789s22s333s 5p from @b",
    },
    # -- reading what players type (bot/grammar.py, bot/commands/suggest.py) ------------------------------
    "suggest": {"zh": "{why}是不是：{line}？", "en": "{why}Did you mean: {line}?"},
    "suggest_unknown": {"zh": "没看懂「{word}」。", "en": "Could not read “{word}”. "},
    "suggest_left_out": {"zh": "没看懂「{words}」，不算在内。", "en": "Could not read “{words}”: left out. "},
    "suggest_stated_amount": {
        "zh": "钱按番型和底金算，「{words}」不算在内。",
        "en": "The money follows the patterns and the base stake: “{words}” left out. ",
    },
    "suggest_bare": {
        "zh": "「{word}」没写番型（有番型就写上，例如 自摸 清一色）。",
        "en": "“{word}” names no pattern (name them if any, e.g. win one suit self-draw). ",
    },
    "word_not_here": {"zh": "「{word}」用不到这条记录上。", "en": "“{word}” has no place in this record."},
    "suggest_unchanged": {
        "zh": "这条消息原来记的就是这个，账没有变。",
        "en": "That is what the message recorded already; nothing changed.",
    },
    "first_person_other_player": {
        "zh": "「{word}」说的是你自己，这条却记给 {name}，没有记账。给别人记请写：暗杠 @某人 3s、亮倒 @某人",
        "en": "“{word}” says it was you, yet the line names {name}; nothing was booked. For someone else write "
        "@someone, e.g. concealed kong @someone 3s, ready @someone",
    },
    "first_person_other_winner": {
        "zh": "「{word}」说的是你自己胡了，这条却记成 {name} 的胡，没有记账。给别人记请写：胡 @某人 …",
        "en": "“{word}” says you won, yet the line records {name}'s win; nothing was booked. For someone else's win "
        "write: win @someone …",
    },
    "liangdao_in_win": {
        "zh": "「{word}」要先单独记（发「亮倒」或「亮倒 @某人」），再记胡；这条没有记账。",
        "en": "Record “{word}” on its own first (send ready or ready @someone), then the win; nothing was booked.",
    },
    "btn_suggest_yes": {"zh": "就是这个", "en": "Yes, book it"},
    "btn_suggest_no": {"zh": "不是", "en": "No"},
    "kong_two_tiles": {
        "zh": "一个杠只写一张牌：是「{first}」还是「{word}」？",
        "en": "One tile per kong: “{first}” or “{word}”?",
    },
    "tile_wind": {
        "zh": "卡五星没有「{word}」这张牌：没有东南西北风，只有本桌两门的 1 到 9 和 白 发 中（5z 6z 7z）。",
        "en": "Ka Wu Xing (卡五星) has no tile “{word}”: no winds, only 1–9 of the table's two suits and the white, "
        "green and red dragons (5z 6z 7z).",
    },
    "tile_not_a_tile": {
        "zh": "「{word}」不是一张牌：数牌是 1 到 9，字牌只有 白 发 中（5z 6z 7z）。",
        "en": "“{word}” is not a tile: suited tiles are 1–9 (3p: 3 dots), the honours only the white, green and red "
        "dragons (5z 6z 7z).",
    },
    "kong_one_tile": {
        "zh": "「{word}」是好几张牌，一个杠只写一张（例如 暗杠 3s）。",
        "en": "“{word}” is several tiles; a kong takes one (e.g. 暗杠 3s).",
    },
    "kong_two_players": {
        "zh": "一个杠只有一个人杠：是「{first}」还是「{word}」？点杠的人写在「点」后面：杠 @丙 直 点 @乙",
        "en": "One player makes a kong: “{first}” or “{word}”? The discarder goes after from: exposed kong @c from @b",
    },
    "minggang_set": {
        "zh": "好的，本群的「明杠」从现在起按 {kind} 记。",
        "en": "OK: in this group minggang (明杠) now means {kind}.",
    },
    "minggang_rule": {
        "zh": "明杠：按 {kind} 记（管理员可改：设置 明杠 直杠 或 设置 明杠 蓄杠）",
        "en": "minggang (明杠) is read as {kind} (admins: config minggang exposed or config minggang added)",
    },
    "winner_missing": {
        "zh": "你不在这桌上，请写出谁胡了：胡 @甲 …",
        "en": "You are not seated; say who won: win @a …",
    },
    "player_missing": {
        "zh": "你不在这桌上，请用 @ 写出是谁：例如 亮倒 @甲、暗杠 @甲 3s",
        "en": "You are not seated; say who it was with @, e.g. ready @a, concealed kong @a 3s",
    },
    "one_player_only": {"zh": "一次只记一个人。", "en": "One player at a time."},
    "method_missing": {
        "zh": "{name} 是怎么胡的？加上 自摸、点 @某人 或 抢杠 @某人，例如：胡 清一色 自摸",
        "en": "How did {name} win? Add self-drawn, from @someone or robbing a kong @someone, e.g. win one suit "
        "self-drawn",
    },
    "discarder_missing": {
        "zh": "「{word}」后面要写是谁：例如 点 @乙",
        "en": "Say who after “{word}”, e.g. from @b",
    },
    "discarder_not_seated": {
        "zh": "「{name}」不是这桌的人：「{word}」后面写这桌的一位，用 @TA 或 牌桌 列出的名字，例如 {word} @乙",
        "en": "“{name}” is not at this table: after “{word}” name a seat, with @ or as table lists it, e.g. from @b",
    },
    "two_discarders": {
        "zh": "一炮双响只能是同一个人点的炮。",
        "en": "A double win comes from one discard: one discarder only.",
    },
    "two_methods": {
        "zh": "「{word}」和前面说的胡法矛盾。",
        "en": "“{word}” contradicts the way of winning given before.",
    },
    "win_two_players": {
        "zh": "一手胡只写一个胡的人：是「{first}」还是「{word}」？一炮双响每人写自己的番型："
        "胡 @甲 卡五星 @丙 七对 点 @乙",
        "en": "One winner per hand: {first} or {word}? A double win gives each their patterns: win @a closed five @c "
        "seven pairs from @b",
    },
    "double_win_discarder_missing": {
        "zh": "{first} 和 {second} 一炮双响，是谁点的炮？写全，例如：一炮双响 {first} 卡五星 {second} 七对 点 @乙",
        "en": "{first} and {second} both won (一炮双响): on whose discard? Write it in full, e.g. "
        "一炮双响 {first} 卡五星 {second} 七对 点 @b",
    },
    "double_win_which_discarder": {
        "zh": "「{first} {word} {second}」：是 {first} 点的炮，还是 {second}？一炮双响把点炮的写在「点」后面，例如："
        "一炮双响 阿杰 卡五星 小李 七对 点 {first}",
        "en": "“{first} {word} {second}”: did {first} or {second} deal in? In a double win (一炮双响) put the one "
        "who dealt in after 点, e.g. 一炮双响 阿杰 卡五星 小李 七对 点 {first}",
    },
    "double_win_hands_missing": {
        "zh": "一炮双响：{first} 和 {second} 各胡的什么？番型写在各自名字后面，例如：一炮双响 {first} 卡五星 "
        "{second} 七对 点 {discarder}（没番写 屁胡）",
        "en": "A double win (一炮双响): what did {first} and {second} each win with? Put each one's patterns after "
        "their name, e.g. 一炮双响 {first} 卡五星 {second} 七对 点 {discarder} (none: 屁胡)",
    },
    "double_win_whose": {
        "zh": "「{word}」是 {first} 的还是 {second} 的？一炮双响的番型写在各自名字后面，例如：一炮双响 {first} "
        "{word} {second} {other} 点 {discarder}",
        "en": "Is “{word}” {first}'s or {second}'s? In a double win (一炮双响) put each one's patterns after their "
        "name, e.g. 一炮双响 {first} {word} {second} {other} 点 {discarder}",
    },
    "self_discard": {"zh": "{name} 不能点自己的炮（杠）。", "en": "{name} cannot win on (or kong) their own discard."},
    "dealt_in_no_winner": {
        "zh": "{word}：点给谁了？写上胡的人，例如 {word} @小李 清一色",
        "en": "{word}: who won on your discard? Name them, e.g. {word} @b 清一色",
    },
    "meld_tile_missing": {
        "zh": "「{word}」后面要写哪张牌，例如 {word} 3s",
        "en": "Which tile after “{word}”? e.g. {word} 3s",
    },
    "tiles_and_patterns": {
        "zh": "写了牌就不用报番型（番型按牌算）；只报番型就别写牌。",
        "en": "Give either the tiles (patterns are worked out) or the patterns, not both.",
    },
    "win_tile_missing": {
        "zh": "{count} 张牌还不够胡，最后写上胡的那张：例如 胡 123p46p789s22s333s 5p",
        "en": "{count} tiles cannot be a win yet; add the winning tile last, e.g. 胡 123p46p789s22s333s 5p",
    },
    "kong_kind_missing": {
        "zh": "什么杠？暗杠 / 蓄杠 / 直杠 点 @某人，例如：杠 暗 3s",
        "en": "Which kong? concealed / added / exposed … from @someone, e.g. concealed kong 3s",
    },
    "kong_discarder_missing": {
        "zh": "直杠要写是谁打的牌：直杠 点 @乙",
        "en": "An exposed kong (直杠) needs the discarder: exposed kong from @b",
    },
    "kong_discarder_only_zhigang": {
        "zh": "只有直杠是杠别人打的牌；暗杠、蓄杠不写点杠的人。",
        "en": "Only an exposed kong (直杠) takes another player's discard; a concealed kong (暗杠) or an added kong "
        "(蓄杠) has no discarder.",
    },
    "two_kong_kinds": {
        "zh": "「{word}」和前面说的杠矛盾。",
        "en": "“{word}” contradicts the kind of kong given before.",
    },
    "chain_without_kong": {"zh": "杠上杠要紧接在一个杠后面记。", "en": "杠上杠 must follow a kong."},
    "liangdao_twice": {"zh": "{name} 这局已经亮倒过了。", "en": "{name} has already declared ready (亮倒) this hand."},
    # -- what was recorded -------------------------------------------------------------------------------
    "new_night": {
        "zh": "已过日切（{hour}点）：上一晚已结算封存，同一桌开始新的一晚，从第{number}局记起。",
        "en": "Past the {hour}:00 cut-off (日切): last night is settled and closed; the same table starts a new "
        "night at hand {number}.",
    },
    "event_recorded": {"zh": "第{number}局 记下：{what}", "en": "Hand {number} recorded: {what}"},
    "event_edited": {
        "zh": "第{number}局 按改后的消息重记：{what}",
        "en": "Hand {number} recorded again as corrected: {what}",
    },
    "event_corrected": {"zh": "第{number}局 已改正：{what}", "en": "Hand {number} corrected: {what}"},
    "hand_recorded": {"zh": "第{number}局 记下：", "en": "Hand {number} recorded:"},
    "hand_edited": {
        "zh": "第{number}局 按改后的消息重记（原记录作废）：",
        "en": "Hand {number} recorded again as corrected (the old record is void):",
    },
    "hand_double_win": {
        "zh": "第{number}局 改记成一炮双响（原记录作废）：",
        "en": "Hand {number} recorded again with both wins on the one discard (the old record is void):",
    },
    "hand_corrected": {
        "zh": "第{number}局 已改正（原记录作废）：",
        "en": "Hand {number} corrected (the old record is void):",
    },
    "edit_changes": {"zh": "各家比原来：", "en": "Each player's change from the old record:"},
    "change_line": {"zh": "{name} {change}（本晚 {night}）", "en": "{name} {change} (tonight {night})"},
    "next_hand": {"zh": "下一局：第{number}局，庄家 {dealer}", "en": "Next: hand {number}, dealer {dealer}"},
    "hand_continues": {"zh": "第{number}局接着打，庄家 {dealer}", "en": "Hand {number} goes on, dealer {dealer}"},
    # a game without a dealer (够级)
    "next_hand_no_dealer": {"zh": "下一局：第{number}局", "en": "Next: hand {number}"},
    "hand_continues_no_dealer": {"zh": "第{number}局接着打", "en": "Hand {number} goes on"},
    "ev_gang": {"zh": "{player} {kind}{tile}", "en": "{player} {kind}{tile}"},
    "ev_gang_from": {"zh": "{player} {kind}{tile}（点杠 {source}）", "en": "{player} {kind}{tile} (from {source})"},
    "ev_chain": {"zh": "，杠上杠第{chain}杠 ×{factor}", "en": ", 杠上杠 kong {chain} ×{factor}"},
    "ev_liangdao": {"zh": "{player} 亮倒", "en": "{player} declares ready (亮倒)"},
    "ev_hu_self": {"zh": "{winner} 自摸", "en": "{winner} self-draw"},
    "ev_hu_discard": {"zh": "{winner} 胡 {source} 点的炮", "en": "{winner} wins on {source}'s discard"},
    "ev_hu_rob": {"zh": "{winner} 抢 {source} 的杠", "en": "{winner} robs {source}'s kong"},
    "ev_draw": {"zh": "荒庄", "en": "drawn hand (荒庄)"},
    "ev_draw_ready": {"zh": "荒庄（听牌：{names}）", "en": "drawn hand (荒庄; ready: {names})"},
    "ev_draw_nobody": {"zh": "荒庄（没人听牌）", "en": "drawn hand (荒庄; nobody ready)"},
    "ev_piao": {"zh": "{player} 漂 {amount}", "en": "{player} piao (漂) {amount}"},
    "ev_ma": {"zh": "买马 {tile}", "en": "horse {tile}"},
    "ev_kan": {"zh": "坎{n}", "en": "kan {n}"},
    "ev_qia": {"zh": "恰{n}", "en": "qia {n}"},
    "ev_ba": {"zh": "八{n}", "en": "ba {n}"},
    "win_line": {
        "zh": "{what}：{patterns} → ×{final}{capped}{baohu}",
        "en": "{what}: {patterns} → ×{final}{capped}{baohu}",
    },
    "win_capped": {"zh": "（封顶前 ×{raw}）", "en": " (×{raw} before the cap)"},
    "robbed_kong": {
        "zh": "{player} 的蓄杠被抢，杠钱退回",
        "en": "{player}'s added kong (蓄杠) was robbed: its kong money goes back",
    },
    "win_baohu": {"zh": "，包胡：{source} 一人赔双倍", "en": ", {source} alone pays double (包胡)"},
    "pihu": {"zh": "屁胡", "en": "plain win (屁胡)"},
    "draw_line": {"zh": "荒庄：杠钱照算{penalty}", "en": "Drawn hand: kong money stands{penalty}"},
    # a drawn hand with no kong in it: no kong money to speak of
    "draw_line_no_kongs": {"zh": "荒庄{penalty}", "en": "Drawn hand{penalty}"},
    # -- button flows -----------------------------------------------------------------------------------
    "flow_title_hu": {"zh": "记胡牌（第{number}局）", "en": "Record a win (hand {number})"},
    "flow_title_gang": {"zh": "记杠（第{number}局）", "en": "Record a kong (hand {number})"},
    "flow_ask_winner": {"zh": "谁胡了？", "en": "Who won?"},
    "flow_ask_player": {"zh": "谁杠的？", "en": "Who made the kong?"},
    "flow_ask_method": {"zh": "怎么胡的？", "en": "How?"},
    "flow_ask_kind": {"zh": "什么杠？", "en": "Which kong?"},
    "flow_ask_from": {"zh": "谁打的那张牌？", "en": "Whose tile was it?"},
    "flow_ask_robbed": {"zh": "抢了谁的杠？", "en": "Whose kong was robbed?"},
    "flow_ask_patterns": {
        "zh": "有哪些番？（点一下选中，再点取消；四归一再点算两个、三个；没有就是屁胡）然后点「预览」",
        "en": "Which patterns? (tap to toggle; tap a 四归一 again to count it twice, thrice; none is a plain win) "
        "then Preview",
    },
    "flow_who": {"zh": "{name}", "en": "{name}"},
    "flow_from": {"zh": "点 {name}", "en": "from {name}"},
    "flow_preview": {"zh": "确认后记账：", "en": "Confirming books:"},
    "flow_payment": {"zh": "{payer} → {payee} {amount}", "en": "{payer} → {payee} {amount}"},
    "flow_refund": {
        "zh": "{payer} → {payee} {amount}（杠钱退回）",
        "en": "{payer} → {payee} {amount} (kong money back)",
    },
    "flow_no_payment": {"zh": "（没有钱要付）", "en": "(no money changes hands)"},
    "flow_not_seated": {
        "zh": "只有这桌的玩家和管理员能点这些按钮。",
        "en": "Only the players at this table and admins can press these.",
    },
    "flow_table_changed": {"zh": "牌桌已经换了，这个按钮失效了。", "en": "The table has changed; this button expired."},
    "flow_night_settled": {
        "zh": "那一晚已经结算了，这个按钮失效了。",
        "en": "That night has been settled; this button expired.",
    },
    # a button whose flow was still waiting when the night was settled, pressed after 撤销结算 opened it again
    "flow_night_reopened": {
        "zh": "结算时这个还没答完，按钮已经作废了，撤销结算也不会恢复（这次什么也没做）。还要的话请重新发。",
        "en": "This was still waiting when the night was settled, so its buttons expired; undoing the settlement "
        "does not bring them back (nothing was done now). Send it again if it still applies.",
    },
    "edit_table_ended": {
        "zh": "没有改账：这条消息记的第{number}局在已经结束的那一桌上，换桌以后只有群管理员能改那一桌的记录。"
        "那一局记错了，请找群管理员。",
        "en": "Nothing changed: hand {number} this message recorded is at a table that has ended; once another "
        "table is open only the group's admins may change that table's records. Ask an admin if it was wrong.",
    },
    "close_how": {
        "zh": "要收桌就发「结算」：今晚结束，贴出战报和转账方案，今晚的账就此封存（之后要改只能由管理员 撤销结算）。"
        "还接着打就不用管这条。",
        "en": "To close the table, send settle: it ends the night, posts its report and who pays whom, and seals the "
        "night's books (only an admin's unsettle reopens them). Playing on? Ignore this.",
    },
    "correct_own_earlier": {
        "zh": "没有改：最后一条（第{number}局 {what}）是 {who} 记的，「改」只改最后一条。"
        "你记的是第{earlier}局（{mine}）：要改它，在 Telegram 里编辑你记第{earlier}局的那条消息，改成对的写法。",
        "en": "Not changed: the latest record (hand {number}, {what}) is {who}'s, and a correction changes only the "
        "latest. Yours is hand {earlier} ({mine}): to correct it, edit the message that recorded hand {earlier}.",
    },
    "correct_how_hand": {
        "zh": "「改」不会改别人记的账：第{number}局（{what}）是 {who} 记的，"
        "请 TA 发「改成 第{number}局 …」或编辑原来那条消息；管理员也可以改（写明是谁：改成 第{number}局 @某人 …）。",
        "en": "A correction does not change someone else's record: hand {number} ({what}) was recorded by {who}; "
        "they may send change to hand {number} … or edit their message, or an admin may (naming the player: change "
        "to hand {number} @someone …).",
    },
    "correct_how": {
        "zh": "「改」不会改别人记的账：最后一条（第{number}局 {what}）是 {who} 记的，"
        "请 TA 发「改成 …」或编辑原来那条消息；管理员也可以改（写明是谁：改成 @某人 …）。",
        "en": "A correction does not change someone else's record: the latest (hand {number}, {what}) was recorded by "
        "{who}; they may send change to … or edit their message, or an admin may (naming the player: change to "
        "@someone …).",
    },
    "repeat_previous_changed": {
        "zh": "它重复的那条记录已经变了（改过、撤销了，或之后又记了别的），这个按钮作废，没有再记。"
        "真的又一次就重新发一遍。",
        "en": "The record it repeated has changed since (corrected, undone, or followed by another); this button is "
        "void and nothing was booked. If it really happened again, send it again.",
    },
    "table_replaced": {
        "zh": "上一桌（{seats}）到此结束，记下的 {hands} 局都算数。",
        "en": "The previous table ({seats}) ends here; its {hands} hand(s) recorded stand.",
    },
    "table_replaced_empty": {
        "zh": "上一桌（{seats}）到此结束（还没记过一局）。",
        "en": "The previous table ({seats}) ends here (no hand was recorded at it).",
    },
    "correct_not_a_win": {
        "zh": "「改成」只改这桌最后一条记录，它是第{number}局的「{what}」，不是胡牌，只写番型改不了。"
        "要改更早的胡牌：编辑原来那条消息（按改后的内容重记）。",
        "en": "“change to” corrects the table's latest record, hand {number}'s “{what}”: not a win, so patterns alone "
        "cannot correct it. To correct an earlier win, edit its message (it is recorded again as edited).",
    },
    "correct_double_whose": {
        "zh": "第{number}局是一炮双响（{what}）：改谁的？写上那个人，例如：改成 {first} {line}"
        "（或 改成 {second} {line}）",
        "en": "Hand {number} was a double win (一炮双响: {what}): whose hand? Name them, e.g. change to {first} {line} "
        "(or change to {second} {line})",
    },
    "correct_settled": {
        "zh": "现在没有开着的牌桌：这一晚已经结算，记录不能再改。要改的话请管理员先发 撤销结算。",
        "en": "No table is open: the night is settled and its records stay as they are. An admin may send unsettle "
        "first to change one.",
    },
    "correct_new_player": {
        "zh": "注意：{was} 换成了 {now}。",
        "en": "Note: {was} becomes {now}.",
    },
    "correct_nothing": {
        "zh": "这桌还没有记录可以改。要记就直接发：{line}",
        "en": "This table has no record to correct yet. To record it, send: {line}",
    },
    "correct_ask": {
        "zh": "把第{number}局的「{what}」（{by}）改成「{becomes}」？改了按新的重算这一局。",
        "en": "Replace hand {number}'s “{what}” ({by}) with “{becomes}”? The hand is scored again as corrected.",
    },
    "correct_then_asks": {
        "zh": "这样还要报{what}：点「改成这样」后我再问。",
        "en": "It also needs {what}: asked once you confirm.",
    },
    "correct_piao_draw": {
        "zh": "第{number}局荒庄，本桌荒庄不算漂，漂不用改。",
        "en": "Hand {number} was a draw (荒庄): this table's draws move no piao (漂), so there is nothing to correct.",
    },
    "correct_piao_draw_paid": {
        "zh": (
            "第{number}局荒庄的漂不能单独改（查大叫按各家的漂算）：发「撤销」撤掉这局的荒庄，再重新记 荒庄，"
            "漂会重新问。"
        ),
        "en": (
            "A draw's piao (漂) cannot be corrected alone (查大叫 pays by each piao): send undo to take back hand "
            "{number}'s draw, then record the draw again and the piao is asked again."
        ),
    },
    "correct_piao_first_hand": {
        "zh": "首局定漂：漂在第1局定了（{piao}），之后每局都照它算，只能在第1局刚打完、第2局结束前改。",
        "en": (
            "首局定漂: the piao (漂) was set at the first hand ({piao}) and every later hand carries it; it can be "
            "corrected only right after hand 1, before hand 2 ends."
        ),
    },
    "correct_piao_same": {
        "zh": "第{number}局记的就是 {piao}，没有改。",
        "en": "Hand {number} already has {piao}; nothing changed.",
    },
    "correct_stands": {
        "zh": "没有改：第{number}局还是「{what}」。",
        "en": "Nothing changed: hand {number} stays “{what}”.",
    },
    "correct_unready": {
        "zh": "「{line}」还记不了（少了什么，或者有看不懂的词），没有改。照记牌的写法写完整，例如：改成 胡 七对 自摸",
        "en": "“{line}” is not a complete record (something missing or unreadable); nothing changed. Write it as you "
        "would record it, e.g. change to win seven pairs self-draw",
    },
    "correct_not_an_end": {
        "zh": "第{number}局已经以「{what}」结束，只能改成别的胡法或荒庄，没有改。杠和亮倒记在正在打的这一局。",
        "en": "Hand {number} ended with “{what}”: it can only become another win or a drawn hand; nothing changed. "
        "Kongs and ready (亮倒) go in the hand in progress.",
    },
    "correct_same": {
        "zh": "第{number}局记的就是「{what}」，没有改。",
        "en": "Hand {number} already reads “{what}”; nothing changed.",
    },
    "btn_correct_yes": {"zh": "改成这样", "en": "Correct it"},
    "btn_correct_no": {"zh": "不改", "en": "Leave it"},
    "correct_not_yours": {
        "zh": "只有发「改」的人或管理员能决定改不改。",
        "en": "Only whoever asked for the correction, or an admin, decides.",
    },
    "correct_moved": {
        "zh": "第{number}局那条记录已经变了（之后又记了别的，或者已经改过、撤销了），没有改。要改请重新发 改成 …",
        "en": "Hand {number}'s record has changed since (more was recorded, or it was corrected or undone); nothing "
        "changed. Send change to … again to correct it.",
    },
    "correct_kept": {
        "zh": "好的，没有改：第{number}局 {what} 照旧。",
        "en": "OK, nothing changed: hand {number}, {what} stands.",
    },
    "correct_done_typed": {
        "zh": "好的，改了（上面那条已经改成重记的结果）。",
        "en": "OK, corrected (the question above now shows the corrected record).",
    },
    "correct_kept_typed": {
        "zh": "好的，不改了（上面问的已经作废）。",
        "en": "OK, no correction (the question above is void).",
    },
    "edit_record_stands_hand": {
        "zh": "这条消息改了，但它记的第{number}局还算数（改成别的话不会撤账）。要作废那一局，发：撤销 第{number}局",
        "en": "The message was edited, but hand {number} it recorded still counts (an edit into other words undoes "
        "nothing). To void that hand, send: undo hand {number}",
    },
    "edit_record_stands": {
        "zh": "这条消息改了，但它在第{number}局记的还算数（改成别的话不会撤账）。"
        "要撤回，发 撤销（撤回这桌最后一条记录）。",
        "en": "The message was edited, but what it recorded in hand {number} still counts (an edit into other words "
        "undoes nothing). To take back the table's last record, send undo.",
    },
    "flow_hand_recorded": {
        "zh": "第{number}局已经记完了，这个按钮作废（没有记账）。",
        "en": "Hand {number} is already recorded; this button has expired (nothing booked).",
    },
    "flow_hand_taken_back": {
        "zh": "这一局的记录已经撤销（现在打的是第{now}局），这个按钮作废（没有记账）。",
        "en": "The record before this hand was taken back (hand {now} is being played); this button has expired "
        "(nothing booked).",
    },
    "flow_cancelled": {"zh": "已取消，没有记账。", "en": "Cancelled; nothing booked."},
    # a button flow (胡/杠/名次), a 「是不是」 suggestion or a question the rules ask, dropped by its asker's typed 算了
    "flow_cancelled_typed": {
        "zh": "好的，不记了（上面的按钮已经作废）。",
        "en": "OK, nothing booked (the buttons above are closed).",
    },
    "flow_recorded": {"zh": "记好了", "en": "Recorded"},
    # a flow answered by typing moves below the typed line: what its old message reads
    "flow_moved": {"zh": "（打字回答了，接着看下面）", "en": "(answered by typing: continued below)"},
    "flow_confirm_not_yet": {
        "zh": "还不能确认，没有记账：上面还在问「{question}」。先回答它（点按钮或打字），到预览再确认。",
        "en": "Not confirmed yet, nothing booked: the buttons above still ask “{question}”. Answer that first (press "
        "or type it), then confirm at the preview.",
    },
    "flow_ma_noted": {
        "zh": "马牌 {tile} 记在上面这手胡里了：问到马牌时就用它，不用再报（还没记账，接着点上面的按钮）。",
        "en": "Horse tile {tile} kept for the win above: it answers the horse question when it comes (nothing booked "
        "yet; go on with the buttons above).",
    },
    "ma_not_at_this_table": {
        "zh": "「{word}」不是本桌的牌：马牌是本桌两门的 1 到 9，或 白 发 中，例如 买马 7s",
        "en": "“{word}” is not a tile of this table: the horse is 1–9 of its two suits, or a dragon, e.g. buy horse 7s",
    },
    "btn_method_s": {"zh": "自摸", "en": "Self-draw"},
    "btn_method_d": {"zh": "点炮", "en": "On a discard"},
    "btn_method_r": {"zh": "抢杠", "en": "Robbing a kong"},
    "btn_kong_a": {"zh": "暗杠", "en": "Concealed"},
    "btn_kong_x": {"zh": "蓄杠", "en": "Added"},
    "btn_kong_z": {"zh": "直杠", "en": "Exposed"},
    "btn_preview": {"zh": "预览 ▶", "en": "Preview ▶"},
    "btn_confirm": {"zh": "✅ 确认", "en": "✅ Confirm"},
    "btn_back": {"zh": "◀ 返回", "en": "◀ Back"},
    "btn_cancel": {"zh": "取消", "en": "Cancel"},
    "btn_chain": {"zh": "杠上杠", "en": "杠上杠 (chained)"},
    # -- balances, history, settlement ------------------------------------------------------------------
    "balance_head": {
        "zh": "余额（本晚 ｜ 总输赢 ｜ 未结）：",
        "en": "Balances (tonight | all-time result (总输赢) | owed now (未结)):",
    },
    "balance_line": {"zh": "{name}　{night} ｜ {total} ｜ {owed}", "en": "{name}  {night} | {total} | {owed}"},
    "balance_unpaid": {"zh": "还没付清：{debts}", "en": "Not paid yet: {debts}"},
    "unpaid_none": {"zh": "没有没结的账。", "en": "No debts are open."},
    # payments one side told that the other has not confirmed (未结, bot/commands/balance.py)
    "unpaid_waiting": {"zh": "等确认：{items}", "en": "Waiting to be confirmed: {items}"},
    "waiting_item": {
        "zh": "{debtor} → {creditor} {amount}（等 {who} 确认）",
        "en": "{debtor} → {creditor} {amount} (waits for {who} to confirm)",
    },
    # -- payments (bot/commands/payments.py) ------------------------------------------------------------
    "payment_usage": {
        "zh": "这样写：付 @阿一 11（你付给阿一 11元）、已转 @阿一（付清）、收到 @阿二 11、撤销付款",
        "en": "Write: paid @a 11 (you paid a 11), paid @a (all you owe), received @b 11, unpay",
    },
    "payment_bad_amount": {
        "zh": "「{text}」不是金额：{why}。",
        "en": "“{text}” is not an amount: {why}.",
    },
    "payment_all_word": {
        "zh": "「{text}」不是金额：不写金额就是全部，发 {line}",
        "en": "“{text}” is not an amount: leave it out, {line} is the whole of it.",
    },
    "what_payment": {"zh": "一笔付款", "en": "A payment"},
    # a typed payment with someone the sender owes nothing / who owes the sender nothing, said from the sender's side
    "payment_not_owing": {
        "zh": "你现在不欠 {name} 钱，没有记。{then}",
        "en": "You owe {name} nothing now; nothing booked. {then}",
    },
    "payment_not_owed": {
        "zh": "{name} 现在不欠你钱，没有记。{then}",
        "en": "{name} owes you nothing now; nothing booked. {then}",
    },
    # …when the night's records do have the sender owing that person (or owed by them), netted by the settlement
    "payment_netted_owing": {
        "zh": "今晚你输给 {name} 的 {amount} 已经并进结算的最少转账，不用另外付给 {name}（发「明细」看来由）。",
        "en": "What you lost to {name} tonight ({amount}) is netted into the settlement's fewest transfers; "
        "nothing to pay {name} separately (details shows how). ",
    },
    "payment_netted_owed": {
        "zh": "今晚 {name} 输给你的 {amount} 已经并进结算的最少转账，不用另外找 {name} 收（发「明细」看来由）。",
        "en": "What {name} lost to you tonight ({amount}) is netted into the settlement's fewest transfers; "
        "nothing to collect from {name} separately (details shows how). ",
    },
    "payment_you_owe": {"zh": "你还欠：{debts}。", "en": "You still owe: {debts}."},
    "payment_owed_you": {"zh": "还欠你的：{debts}。", "en": "Still owing you: {debts}."},
    "payment_you_owe_nobody": {"zh": "你没有要付的账。", "en": "You owe nobody."},
    "payment_owed_you_nobody": {"zh": "没有人欠你钱。", "en": "Nobody owes you."},
    "payment_not_settled_yet": {
        "zh": "今晚还没结算：发「结算」之后才有要付的账。",
        "en": "Tonight is not settled yet: debts come with settle.",
    },
    "payment_overpaid": {
        "zh": "{debtor} 只欠 {creditor} {owed}，没有记。付清写 已转 {creditor_at}。",
        "en": "{debtor} owes {creditor} only {owed}; nothing booked. To pay it all: paid {creditor_at}.",
    },
    "payment_overpaid_received": {
        "zh": "{debtor} 只欠 {creditor} {owed}，没有记。收到这么多就写：收到 {debtor_at} {owed}",
        "en": "{debtor} owes {creditor} only {owed}; nothing booked. To confirm that much: received {debtor_at} {owed}",
    },
    "payment_overpaid_waiting": {
        "zh": "{debtor} 总共只差 {creditor} {most}（其中 {waiting} {creditor} 说收到了，等你确认；还欠 {owed}），"
        "没有记。都付了就写：付 {creditor_at} {most}",
        "en": "{debtor} owes {creditor} only {most} in all ({waiting} of it {creditor} says received, waiting for "
        "your word; {owed} still owed); nothing booked. To pay it all: paid {creditor_at} {most}",
    },
    "payment_overpaid_received_waiting": {
        "zh": "{debtor} 总共只差 {creditor} {most}（其中 {waiting} {debtor} 说已付，等你确认；还欠 {owed}），没有记。"
        "都收到了就写：收到 {debtor_at} {most}",
        "en": "{debtor} owes {creditor} only {most} in all ({waiting} of it {debtor} says paid, waiting for your "
        "word; {owed} still owed); nothing booked. To confirm it all: received {debtor_at} {most}",
    },
    "payment_edit": {
        "zh": "改消息不会改付款，原来那笔照旧。要改：先发 撤销付款，再重新写一遍。",
        "en": "Editing the message does not change the payment; it stands. To change it: unpay, then write it again.",
    },
    "payment_edit_unpay": {
        "zh": "改消息不会再撤销一笔；要再撤销就再发一次 撤销付款。",
        "en": "Editing the message takes back nothing more; to take back another payment, send unpay again.",
    },
    "payment_self": {
        "zh": "不能付给自己：写付给谁，比如 付 @阿一 11。",
        "en": "You cannot pay yourself: name who you paid, e.g. paid @a 11.",
    },
    "payment_self_received": {
        "zh": "不能收自己的钱：写收到谁的，比如 收到 @阿二 11。",
        "en": "You cannot be paid by yourself: name who paid you, e.g. received @b 11.",
    },
    "payment_bad_member": {
        "zh": "付款只记在本群的玩家之间（红包池用 发红包）。",
        "en": "Payments are between the group's players (the pot is paid out with 发红包).",
    },
    "mention_pick": {
        "zh": "@…（输入 @ 后从列表点选 {name}）",
        "en": "@… (type @ and pick {name} from the list)",
    },
    "payment_none": {"zh": "没有可以撤销的付款。", "en": "No payment to take back."},
    "payment_others": {
        "zh": "没有撤销：这笔 {debtor} → {creditor} {amount} 不是你的付款，只有他们两人或管理员能撤销："
        "{debtor} 发 撤销付款 {creditor_at}，或 {creditor} 发 撤销付款 {debtor_at}，或管理员发 撤销付款 {named_at}。",
        "en": "Not taken back: {debtor} → {creditor} {amount} is not your payment; only the two of them or an admin "
        "may take it back: {debtor} sends unpay {creditor_at}, or {creditor} sends unpay {debtor_at}, or an admin "
        "sends unpay {named_at}.",
    },
    "payment_others_confirmed": {
        "zh": "没有撤销：这笔 {debtor} → {creditor} {amount} 不是你的付款，而且双方都确认过了，只有管理员能撤销："
        "请管理员发 撤销付款 {named_at}。",
        "en": "Not taken back: {debtor} → {creditor} {amount} is not your payment, and both sides confirmed it; only "
        "an admin may take it back: ask an admin to send unpay {named_at}.",
    },
    "payment_none_admin": {
        "zh": "你自己没有可以撤销的付款。要撤销别人的付款，写上他：撤销付款 @阿一",
        "en": "You have no payment of your own to take back. To take back someone else's, name them: unpay @a",
    },
    "payment_nothing_to_confirm": {
        "zh": "{debtor} 没有记过待 {creditor} 确认的付款，没有记。收到了就写 收到 {debtor_at}，后面跟收到的金额",
        "en": "{debtor} recorded no payment for {creditor} to confirm; nothing booked. Write received {debtor_at} "
        "followed by the amount you got",
    },
    "payment_nothing_to_confirm_owed": {
        "zh": "{debtor} 没有记过待 {creditor} 确认的付款，没有记。{debtor} 欠 {creditor} {owed}，"
        "收到了就写：收到 {debtor_at} {owed}",
        "en": "{debtor} recorded no payment for {creditor} to confirm; nothing booked. {debtor} owes {creditor} "
        "{owed}: if you got it, write received {debtor_at} {owed}",
    },
    "payment_not_party": {
        "zh": "只有付款的两个人或管理员可以点这个按钮。",
        "en": "Only the two people concerned or an admin can press this.",
    },
    "payment_payer_button": {
        "zh": "「已付」是付款的人点的；收到钱的人点「收到」。",
        "en": "“paid” is the payer's button; the one who got the money presses “received”.",
    },
    "payment_payee_button": {
        "zh": "「收到」是收钱的人点的；付款的人点「已付」（付款的人不能替对方确认收到）。",
        "en": "“received” is the payee's button; the payer presses “paid” (a payer cannot confirm his own payment).",
    },
    "payment_booked_for": {
        "zh": "记下付款：{debtor} → {creditor} {amount}（管理员 {admin} 代 {side} 记，等 {other} 确认）",
        "en": "Payment booked: {debtor} → {creditor} {amount} (admin {admin} for {side}; {other} confirms)",
    },
    "payment_confirmed_for": {
        "zh": "已确认：{debtor} → {creditor} {amount} ✓（管理员 {admin} 代 {side} 确认，只记一笔）",
        "en": "Confirmed: {debtor} → {creditor} {amount} ✓ (admin {admin} for {side}; booked once)",
    },
    "payment_confirmed_after_proxy": {
        "zh": "已确认：{debtor} → {creditor} {amount} ✓（{first} 那边是管理员代记的，只记一笔）",
        "en": "Confirmed: {debtor} → {creditor} {amount} ✓ ({first}'s side was told by an admin; booked once)",
    },
    "payment_booked_by_payer": {
        "zh": "记下付款：{debtor} → {creditor} {amount}（{debtor} 说已付，等 {creditor} 点「收到」确认）",
        "en": "Payment booked: {debtor} → {creditor} {amount} ({debtor} says paid; {creditor} confirms with "
        "“received”)",
    },
    "payment_booked_by_payee": {
        "zh": "记下付款：{debtor} → {creditor} {amount}（{creditor} 说收到，等 {debtor} 点「已付」确认）",
        "en": "Payment booked: {debtor} → {creditor} {amount} ({creditor} says received; {debtor} confirms)",
    },
    "payment_covered_by_payee": {
        "zh": "已确认：{debtor} → {creditor} {confirmed} ✓（{debtor} 说的已付）；另记下 {amount}（{creditor} 说收到，"
        "等 {debtor} 点「已付」确认）。共 {total}",
        "en": "Confirmed: {debtor} → {creditor} {confirmed} ✓ ({debtor} said paid); booked {amount} more ({creditor} "
        "says received; {debtor} confirms). {total} in all",
    },
    "payment_covered_by_payer": {
        "zh": "已确认：{debtor} → {creditor} {confirmed} ✓（{creditor} 说的收到）；另记下 {amount}（{debtor} 说已付，"
        "等 {creditor} 点「收到」确认）。共 {total}",
        "en": "Confirmed: {debtor} → {creditor} {confirmed} ✓ ({creditor} said received); booked {amount} more "
        "({debtor} says paid; {creditor} confirms with “received”). {total} in all",
    },
    "payment_confirmed": {
        "zh": "已确认：{debtor} → {creditor} {amount} ✓（双方都说了，只记一笔）",
        "en": "Confirmed: {debtor} → {creditor} {amount} ✓ (both sides said so; booked once)",
    },
    "payment_count": {"zh": "{count} 笔共 {amount}", "en": "{count} payments, {amount} in all"},
    "payment_confirmed_many": {
        "zh": "已确认：{debtor} → {creditor} {amount} ✓（双方都说了，每笔只记一次）",
        "en": "Confirmed: {debtor} → {creditor} {amount} ✓ (both sides said so; each booked once)",
    },
    "payment_voided": {
        "zh": "已撤销付款：{debtor} → {creditor} {amount}",
        "en": "Payment taken back: {debtor} → {creditor} {amount}",
    },
    "payment_confirmed_unpay": {
        "zh": "这笔付款双方都确认过了，不能一个人撤销；真记错了请管理员发「撤销付款 {me}」"
        "（由管理员发这句，撤的是 {name} 最近的一笔付款）",
        "en": "Both sides confirmed that payment: one side cannot take it back. If it is wrong, ask an admin to send "
        "“unpay {me}” (sent by an admin, it takes back {name}'s latest payment)",
    },
    "payment_confirmed_unpay_own": {
        "zh": "这笔付款双方都确认过了，你是其中一方，不能自己撤销；真记错了请另一位管理员发「撤销付款 {me}」（撤的是 "
        "{name} 最近的一笔付款）",
        "en": "Both sides confirmed that payment and you are one of them: you cannot take it back yourself. If it is "
        "wrong, ask another admin to send “unpay {me}” (it takes back {name}'s latest payment)",
    },
    "payment_owed": {"zh": "{debtor} 还欠 {creditor} {owed}", "en": "{debtor} still owes {creditor} {owed}"},
    "payment_square": {"zh": "{debtor} 和 {creditor} 两清了", "en": "{debtor} and {creditor} are square"},
    "payment_already": {
        "zh": "{payer} → {payee} 这一笔已经记过了，没有再记。",
        "en": "{payer} → {payee} is booked already; nothing more booked.",
    },
    "payments_head": {
        "zh": "付款：付了点「已付」，收到点「收到」",
        "en": "Payments: the payer presses “paid”, the payee “received”",
    },
    "payments_head_plain": {"zh": "付款：", "en": "Payments:"},
    "payments_head_typed": {"zh": "（也可打字：{example}）", "en": " (or type: {example})"},
    "payments_example": {
        "zh": "付 {payee} {amount}、收到 {payer} {amount}",
        "en": "paid {payee} {amount}, received {payer} {amount}",
    },
    "payments_example_confirm": {"zh": "收到 {payer}", "en": "received {payer}"},
    "payments_example_confirm_payer": {"zh": "已转 {payee}", "en": "paid {payee}"},
    "payments_line": {"zh": "{payer} → {payee} {amount}", "en": "{payer} → {payee} {amount}"},
    "payments_line_parts": {"zh": "（{parts}）", "en": " ({parts})"},
    "payments_part_paid": {"zh": "已付 {amount}", "en": "{amount} paid"},
    "payments_part_carried": {"zh": "并入后来的结算 {amount}", "en": "{amount} carried into a later settlement"},
    "payments_part_offset": {"zh": "与反向的欠账相抵 {amount}", "en": "{amount} offset by a debt the other way"},
    "payments_part_open": {"zh": "还差 {amount}", "en": "{amount} still owed"},
    "payments_line_paid": {"zh": " ✓ 已付清", "en": " ✓ paid"},
    "payments_line_waiting": {"zh": "，待 {who} 确认", "en": ", waiting for {who} to confirm"},
    "payments_players_paid": {
        "zh": "玩家之间的付款都已付清；欠台费、红包池的钱等管理员 付台费 / 发红包池 后，改付给收钱的人。",
        "en": "Every payment between players is paid; money owed to the house or the pot waits for an admin's "
        "pay table fee or /payout, then goes to whoever is paid out.",
    },
    "payments_pools_wait": {
        "zh": "欠台费、红包池的钱等管理员 付台费 / 发红包池 后，改付给收钱的人。",
        "en": "Money owed to the house or the pot waits for an admin's pay table fee or /payout, then goes to "
        "whoever is paid out.",
    },
    # two lines of one settlement each way between the same two, equal, set against each other (as 最少转账 nets them)
    "payments_line_netted": {
        "zh": "{a} ⇄ {b} {amount}（两人互欠，相抵，谁也不用付） ✓",
        "en": "{a} ⇄ {b} {amount} (owed each way, set against each other: nobody pays) ✓",
    },
    "payments_line_via": {"zh": "（经{via}转来）", "en": " (passed on through {via})"},
    "payments_part_passed_to": {"zh": "已转给 {name} {amount}", "en": "{amount} passed on to {name}"},
    "payments_part_passed_from": {"zh": "改由 {name} 付 {amount}", "en": "{amount} now owed by {name}"},
    "payments_part_own_to": {"zh": "与付给 {name} 的相抵 {amount}", "en": "{amount} set against a payout to {name}"},
    "payments_part_own_from": {"zh": "与 {name} 自己欠的相抵 {amount}", "en": "{amount} set against what {name} owed"},
    "payments_wait_pot": {"zh": "等 发红包池 @收钱的人", "en": "waits for /payout @recipient"},
    "payments_wait_house": {"zh": "等 付台费 @收钱的人", "en": "waits for pay table fee @recipient"},
    "payments_wait_in": {
        "zh": "等有人欠{pool}的钱时改由他付",
        "en": "waits for someone to owe the {pool}, who then pays it",
    },
    "pool_pot": {"zh": "红包池", "en": "Pot"},
    "pool_house": {"zh": "台费", "en": "House"},
    "payments_all_paid": {"zh": "这次结算的付款都已付清。", "en": "Every payment of this settlement is paid."},
    "payments_standing": {
        "zh": "未结（还差）：{owed}\n总输赢（累计）：{results}",
        "en": "Owed now (未结): {owed}\nAll-time result (总输赢): {results}",
    },
    "btn_paid": {"zh": "{pair} 已付", "en": "{pair} paid"},
    "btn_received": {"zh": "{pair} 收到", "en": "{pair} received"},
    "debt_item": {"zh": "{debtor} 欠 {creditor} {amount}", "en": "{debtor} owes {creditor} {amount}"},
    "debts_open_merge": {
        "zh": "之前没结的：{debts}（今晚结算时一并算入；设置 并账 关 可分开结）",
        "en": "Still owed from before: {debts} (netted into tonight's settlement; config merge_debts off keeps nights "
        "apart)",
    },
    "debts_open_separate": {
        "zh": "之前没结的：{debts}（本群各晚分开结）",
        "en": "Still owed from before: {debts} (this group settles each night apart)",
    },
    "merge_debts_on": {
        "zh": "好的：以后结算会把在座各位之前没结的账一并算入。",
        "en": "OK: a settlement now nets in the debts still open among its players.",
    },
    "merge_debts_off": {
        "zh": "好的：以后每晚分开结算，之前没结的账不并入。",
        "en": "OK: each night is settled apart; earlier debts are not netted in.",
    },
    "merge_debts_rule_on": {
        "zh": "并账：开（结算时并入在座各位之前没结的账；设置 并账 关 可分开）",
        "en": "Merge debts: on (a settlement nets in its players' open debts; config merge_debts off to keep nights "
        "apart)",
    },
    "merge_debts_rule_off": {
        "zh": "并账：关（每晚分开结算；设置 并账 开 可合并）",
        "en": "Merge debts: off (each night settled apart; config merge_debts on to net them in)",
    },
    "balance_empty": {"zh": "账上还没有任何输赢。", "en": "Nothing booked yet."},
    "history_head": {"zh": "最近 {count} 局：", "en": "The last {count} hands:"},
    "history_night": {"zh": "【第{number}晚 · {date}】", "en": "[night {number} · {date}]"},
    "history_head_one": {"zh": "最近 1 局：", "en": "The last hand:"},
    "history_line": {"zh": "第{number}局 {what} ｜ {changes}", "en": "Hand {number}: {what} | {changes}"},
    "history_kongs": {"zh": "{what}（{count} 次）", "en": "{what} ({count} times)"},
    "history_empty": {"zh": "还没有一局打完。", "en": "No finished hands yet."},
    "hand_not_played": {
        "zh": "这桌才打完 {played} 局，还没有第{number}局。",
        "en": "This table has finished {played} hands: there is no hand {number} yet.",
    },
    "hand_not_found": {
        "zh": "最近这桌没有打完的第{number}局（没打到，或已撤销）。",
        "en": "The latest table has no finished hand {number} (not reached, or taken back).",
    },
    "history_count": {
        "zh": "「{word}」不是 1 到 50 之间的局数。",
        "en": "“{word}” is not a number of hands from 1 to 50.",
    },
    "no_night": {"zh": "今晚还没有开局，没有可结算的。", "en": "No night is open: nothing to settle."},
    "swap_how": {
        "zh": "没有换人：一桌的座位开桌时就定了。让 {into} 替 {out}，就重开一桌（之前记的都算数）：{line}",
        "en": "Nobody swapped: a table's seats are set when it opens. To seat {into} for {out}, open the table again "
        "(what was recorded stands): {line}",
    },
    "swap_not_seated": {"zh": "没有换人：{name} 不在这桌。", "en": "Nobody swapped: {name} is not at this table."},
    "swap_already_seated": {
        "zh": "没有换人：{name} 已经在这桌了。",
        "en": "Nobody swapped: {name} is already at this table.",
    },
    "nothing_played": {
        "zh": "没有可结算的：今晚一局也没打完，也没有输赢。",
        "en": "Nothing to settle: no hand has finished tonight and no money has moved.",
    },
    "nothing_played_table_ended": {
        "zh": "没有可结算的：今晚一局也没打完，也没有输赢。这桌收了，要打就再 开桌。",
        "en": "Nothing to settle: no hand has finished tonight and no money has moved. This table is closed; to play, "
        "open one again.",
    },
    "undo_settled_night": {
        "zh": "今晚（{date}）已经结算了，牌桌跟着关了，牌局记录不能再撤销。"
        "撤回一笔付款发 撤销付款；要改账，管理员发 撤销结算。",
        "en": "Tonight ({date}) is settled and its table closed with it: its records cannot be undone. Take back a "
        "payment with unpay; admins reopen the night with unsettle.",
    },
    "settled_already": {
        "zh": "今晚（{date}）已经结算过了，账在上面的结算里。再看一遍发 战报；要改账，管理员发 撤销结算。",
        "en": "Tonight ({date}) is settled already: its payments are in the settlement above. Send report to see it "
        "again; admins take it back with unsettle.",
    },
    "settle_hand_in_progress": {
        "zh": "还不能结算：第{number}局已经记了 {what}，还没打完。这一局有人胡就记下胡牌，没人胡就发「荒庄」结束它"
        "（记了的照算），记错了就发「撤销」去掉；然后再结算。",
        "en": "Cannot settle yet: hand {number} has {what} recorded and has not ended. Record its win, or if nobody "
        "won send draw to end it (what is recorded stands); if it was a mistake, send undo; then settle.",
    },
    "settle_hand_in_progress_other": {
        "zh": "还不能结算：第{number}局已经有记录，还没打完。先把这一局记完，或发「撤销」去掉；然后再结算。",
        "en": "Cannot settle yet: hand {number} has records and has not ended. Finish recording it, or send undo to "
        "take them back; then settle.",
    },
    # 撤销结算 (bot/commands/settle.py); the ledger's refusals say why a settlement stays
    "unsettle_ask": {
        "zh": "撤销最近一次结算？\n{lines}\n撤销后这一晚和牌桌重新打开，回到结算前：可以接着记、撤销或改，"
        "结算时记的台费退回，并进来的旧账恢复原样；改好后再发「结算」。确定吗？",
        "en": "Take back the latest settlement?\n{lines}\nThe night and its table open again as they were before "
        "settle: record, undo or edit, its table fee (台费) is returned and the debts it netted in are owed as before; "
        "send settle again when done. Sure?",
    },
    "unsettle_line": {"zh": "{payer} → {payee} {amount}", "en": "{payer} → {payee} {amount}"},
    "unsettle_no_lines": {"zh": "（没有要付的钱）", "en": "(nothing to pay)"},
    "btn_unsettle_yes": {"zh": "确认撤销结算", "en": "Take it back"},
    "btn_unsettle_no": {"zh": "不撤销", "en": "Keep it"},
    "unsettle_kept": {"zh": "好的，结算没有撤销。", "en": "OK, the settlement stands."},
    "unsettle_done": {
        "zh": "已撤销结算：这一晚重新打开，结算的付款作废。",
        "en": "Settlement taken back: the night is open again and its payments are void.",
    },
    "unsettle_no_table": {
        "zh": "结算时没有开着的牌桌：要接着打请开桌。",
        "en": "No table was open at the settlement: open one to play on.",
    },
    "unsettle_fees": {"zh": "台费 {amount} 已退回。", "en": "台费 {amount} returned."},
    "unsettle_carried": {
        "zh": "结算时并进来的旧账恢复原样。",
        "en": "The earlier debts it netted in are owed as before.",
    },
    "unsettle_again": {"zh": "改好后再发「结算」。", "en": "Send settle again when done."},
    "unsettle_usage": {"zh": "撤销结算 后面不用写别的。", "en": "unsettle takes no words after it."},
    "ledger_no_settlement": {"zh": "没有撤销：{message}。", "en": "Nothing taken back: {english}."},
    "ledger_settled_since": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    "ledger_paid_out_since": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    "ledger_night_since": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    "ledger_paid_since": {
        "zh": "没有撤销：这次{what}的账上还有之后记的付款：{payments}。先撤销这些付款（撤销付款），再{undo}。",
        "en": "Not taken back: payments recorded since count on this {what}: {payments}. Take them back first "
        "(unpay), then {undo}.",
    },
    "paid_since_item": {"zh": "{payer} 付给 {payee} {amount}", "en": "{payer} paid {payee} {amount}"},
    "ledger_settlement_changed": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    "ledger_no_payout": {"zh": "没有撤销：{message}。", "en": "Nothing taken back: {english}."},
    "ledger_payout_settled": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    "ledger_payout_changed": {"zh": "没有撤销：{message}。", "en": "Not taken back: {english}."},
    # -- rules and settings ------------------------------------------------------------------------------
    "rules_open_table": {
        "zh": "⚠️ 开着的这桌还按开桌时的规则打：{game}{rules}，底金 {base}；下面的新规则从下次开桌起算"
        "（现在就换：再开一次桌，开桌 @ 这桌的人，之前记的都算数）。",
        "en": "⚠️ The open table still plays as it was opened: {game}{rules}, base stake {base}; the rules below "
        "apply from the next open (to switch now, open the table again, open with its players' @; what was recorded "
        "stands).",
    },
    "rules_show": {
        "zh": "本群：{game}{rules}\n底金 {base}，货币 {currency}，语言 {language}，日切 {cutoff} 点（之前算前一晚）",
        "en": "This group: {game}{rules}\nBase stake {base}, currency {currency}, language {language}, "
        "night cut-off {cutoff}:00",
    },
    "rules_option": {"zh": "· {name}（{key}）：{value}", "en": "· {name}: {value}"},
    "rules_how_to_change": {
        "zh": "管理员可改：设置 底金 2 ｜ 设置 预设 shiyan ｜ 设置 封顶 none ｜ 设置 语言 en（新开的桌生效）",
        "en": "Admins change them: config base 2 | config preset shiyan | config cap none | config language zh "
        "(tables opened afterwards)",
    },
    "rules_how_to_change_other": {
        "zh": "{game}没有规则选项。管理员可改：设置 底金 2（每分的钱）｜ 设置 语言 en ｜ 设置 日切 6 ｜ "
        "设置 游戏 卡五星（新开的桌生效）",
        "en": "{game} has no rule options. Admins change: config base 2 (money per point) | config language zh | "
        "config cutoff 6 | config game kawuxing (tables opened afterwards)",
    },
    "rules_presets_head": {
        "zh": "卡五星规则预设（管理员发「设置 预设 名字」切换，单项仍可另改）：",
        "en": "卡五星 presets (admins switch with config preset NAME; single options still override):",
    },
    "rules_preset_line": {"zh": "· {zh}（{key}）：{description}{mark}", "en": "· {key} ({zh}): {description}{mark}"},
    "rules_preset_current": {"zh": " ← 本群", "en": " ← this group"},
    "rules_is_read_only": {
        "zh": "看规则用「规则」，改规则用「设置 …」（管理员）。",
        "en": "规则 shows; admins change with config …",
    },
    "config_usage": {
        "zh": "怎么改：设置 底金 2 ｜ 设置 预设 shiyan ｜ 设置 封顶 none ｜ 设置 屁胡只能自摸 否 ｜ "
        "设置 语言 en ｜ 设置 日切 6",
        "en": "Usage: config base 2 | config preset shiyan | config cap none | config pihu_self_draw_only no | "
        "config language en | config cutoff 6",
    },
    "config_usage_other": {
        "zh": "怎么改：设置 底金 2 ｜ 设置 语言 en ｜ 设置 日切 6 ｜ 设置 货币 块 ｜ 设置 游戏 卡五星",
        "en": "Usage: config base 2 | config language en | config cutoff 6 | config currency 块 | config game kawuxing",
    },
    "config_unknown_other": {
        "zh": "{game}没有「{word}」这个设置。可改：游戏、底金、语言、日切、货币。",
        "en": "{game} has no setting “{word}”. Settings: game, base, language, cutoff, currency.",
    },
    "config_unknown": {
        "zh": "没有「{word}」这个设置。可改：游戏、预设、底金、语言、日切、货币，以及规则选项（发「规则」看）。",
        "en": "There is no setting “{word}”. Settings: game, preset, base, language, cutoff, currency and the rule "
        "options (see rules).",
    },
    "record_too_long": {
        "zh": "这条记录太长了（最多 {most} 个词）：一条只记一件事。",
        "en": "This record is too long (at most {most} words): one thing per message.",
    },
    "amount_too_large": {
        "zh": "{what}最多 {most}，「{text}」太多了。",
        "en": "{what} is at most {most}; “{text}” is too much.",
    },
    "chars_at_most": {"zh": "最多 {n} 个字", "en": "at most {n} characters"},
    "config_bad_value": {
        "zh": "{setting} 不能设成「{value}」，可选：{allowed}",
        "en": "{setting} cannot be “{value}”; allowed: {allowed}",
    },
    "named_twice": {"zh": "「{name}」写了两次：每人只写一次。", "en": "{name} is named twice: name each once."},
    "config_bad_amount": {
        "zh": "{setting} 不能设成「{value}」：金额这样写，例如 2、0.5、50分{hint}",
        "en": "{setting} cannot be “{value}”: write an amount like 2 or 0.5{hint}",
    },
    "config_bad_amount_why": {"zh": "（{why}）", "en": " ({why})"},
    "config_bad_rules": {"zh": "这样的规则不成立：{message}", "en": "Those rules do not work: {message}"},
    "config_changed": {"zh": "已修改（新开的桌按新规则）：", "en": "Changed (tables opened from now on use it):"},
    "config_changed_language": {
        "zh": "已修改，本群从现在起说中文：",
        "en": "Changed: the bot speaks English here now.",
    },
    "config_unchanged": {"zh": "本来就是这样，没有改动：", "en": "Already so: nothing changed."},
    "config_game_kept": {
        "zh": "已换游戏（新开的桌生效），规则用本群上次玩这个游戏时的：",
        "en": "Game changed (tables opened from now on); the rules are the ones this group last played it under:",
    },
    "config_game_default": {
        "zh": "已换游戏（新开的桌生效），规则是这个游戏的默认规则：",
        "en": "Game changed (tables opened from now on), with its default rules:",
    },
    # -- alias -------------------------------------------------------------------------------------------
    "alias_show": {
        "zh": "{name}：群昵称「{display}」，名片：{alias}",
        "en": "{name}: chat name “{display}”, ledger alias {alias}",
    },
    "alias_none": {"zh": "（没设，账上用群昵称）", "en": "(none: the chat name is used)"},
    "alias_set": {"zh": "好的，{name} 在账上叫「{alias}」。", "en": "OK, {name} is “{alias}” in the ledger."},
    "alias_cleared": {"zh": "已清除名片，{name} 在账上用群昵称。", "en": "Alias cleared; {name} shows by chat name."},
    "alias_seat_kept": {
        "zh": "这桌还没结束：结算或重新开桌前，牌桌和账上仍叫「{seat}」。",
        "en": "The table is still open: until it ends (settle or a new open) the table and the ledger still show "
        "“{seat}”.",
    },
    "alias_bad": {
        "zh": "名片最多 {max} 个字，不能以 @ 开头。",
        "en": "An alias has at most {max} characters, no leading @.",
    },
    "alias_taken": {"zh": "「{alias}」已经是 {name} 在用的名字了。", "en": "“{alias}” is already {name}'s name."},
    "ledger_alias_shown": {"zh": "{message}。", "en": "{english}."},
    "alias_others_admin_only": {"zh": "只有管理员能给别人改名片。", "en": "Only admins can set someone else's alias."},
    "link_usage": {"zh": "用法：关联 客人名 @群成员", "en": "Usage: link guest-name @member"},
    "link_not_guest": {"zh": "「{name}」不是账上的客人。", "en": "“{name}” is not a guest in the ledger."},
    "linked": {"zh": "客人「{guest}」的账已并到 {member} 名下。", "en": "Guest “{guest}” is now {member}'s record."},
    # -- help (bot/commands/help.py): the overview a group gets, its topics, 帮助 全部 ----------------------------
    "help_overview_head": {
        "zh": "牌局记账，每晚常用的几句（直接打中文，不用斜杠）：",
        "en": "paiju keeps the table's ledger; a night's usual lines (no slash needed; the Chinese words work too):",
    },
    #: the overview's lines for a table of each game: opening it, then recording its hands
    "help_night_kawuxing": {
        "zh": "开桌 @甲 @乙 @丙 —— 开一桌（加 庄 @甲 指定庄家）\n"
        "胡 清一色 自摸 ｜ 胡 七对 点 @乙 —— 胡牌\n"
        "暗杠三条 ｜ 亮倒 ｜ 荒庄 —— 杠、亮倒、没人胡",
        "en": "open @a @b @c — open a table (add dealer @a to name the dealer)\nwin one suit self-draw | win seven "
        "pairs from @b — a win\nconcealed kong 3s | ready | draw — a kong, ready (亮倒), a draw",
    },
    "help_night_penghu": {
        "zh": "开桌 @甲 @乙 @丙 @丁 庄 @甲 —— 开一桌（四人）\n"
        "碰 点 @丙 ｜ 扫 ｜ 跑起 点 @丙 —— 边打边记\n"
        "胡 自摸 ｜ 胡 点 @丙 ｜ 荒庄 —— 这一局怎么结束",
        "en": "open @a @b @c @d dealer @a — open a table (four seats)\npong from @c | sweep | 跑起 from @c "
        "(a run-up) — recorded as they happen\nwin self-drawn | win from @c | draw — how the hand ends",
    },
    "help_night_gouji": {
        "zh": "开桌 @甲 @乙 @丙 @丁 @戊 @己 —— 开一桌（六人，按座次）\n"
        "名次 @甲 @丁 @丙 @己 @乙 @戊 —— 一局的名次，头科在前（只写「名次」出按钮）",
        "en": "open @a @b @c @d @e @f — open a table (six seats, in seat order)\norder @a @d @c @f @b @e — a hand's "
        "places, 1st (头科) first (plain order shows buttons)",
    },
    "help_overview_money": {
        "zh": "撤销 —— 撤回这桌最后一条记录\n"
        "余额 —— 每人今晚和总的输赢\n"
        "结算 —— 结束今晚，给出最少笔数的转账\n"
        "付 @乙 11 ｜ 收到 @甲 11 —— 记下付款、确认收款",
        "en": "undo — undo the table's latest record\nbalance — everyone's tonight and all-time\nsettle — end the "
        "night with the fewest transfers\npaid @b 11 | received @a 11 — a payment made, a payment received",
    },
    "help_topic_line": {"zh": "帮助 {word} —— {about}", "en": "help {word} — {about}"},
    "help_overview_tail": {
        "zh": "帮助 {all} —— 所有命令；帮助 结算 —— 只看一个命令",
        "en": "help {all} — every command; help settle — one command",
    },
    #: what each topic holds: the overview's line for it, and the head of its own reply
    "help_about_record": {"zh": "开桌、记每一局、改错", "en": "opening a table, recording each hand, fixing one"},
    "help_about_money": {"zh": "付款、结算、明细、谁还没付", "en": "paying, settling, details, who has not paid"},
    "help_about_views": {"zh": "统计、排行、历史、战报", "en": "stats, leaderboard, history, night report"},
    "help_about_settings": {"zh": "规则、设置（管理员）、名片", "en": "rules, settings (admins), your name"},
    "help_about_moderation": {"zh": "群规、警告、罚款、红包池", "en": "group rules, warnings, fines, the pot"},
    "help_topic_head": {"zh": "【{word}】{about}", "en": "[{word}] {about}"},
    "help_head": {
        "zh": "牌局记账：不用斜杠，直接打中文也行（例如「胡 清一色 自摸」）。",
        "en": "paiju keeps the table's ledger; Chinese words work without a slash (e.g. 胡 清一色 自摸).",
    },
    "help_private_head": {
        "zh": "我在群里记牌局的账：把我拉进牌友群、设为管理员，再发 开桌 @甲 @乙 @丙。群里发「帮助」只看常用的几句，"
        "下面是全部命令。",
        "en": "I keep mahjong tables' ledgers in groups: add me to your group as an admin, then send open @a @b @c. "
        "In a group, help shows the usual lines; here is every command.",
    },
    "help_tail": {
        "zh": "牌的写法：123p=一二三筒，46s=四六条，5z/6z/7z=白/发/中；也可以写 5筒、五条、伍筒、幺鸡、红中、5w/5t/5b。"
        "不用空格也行：胡清一色自摸、暗杠三条。",
        "en": "Tiles: 123p = 1-2-3 dots, 46s = 4 and 6 bamboo, 5z/6z/7z = white/green/red dragon.",
    },
    "help_unknown": {
        "zh": "没有「{word}」这个命令或话题。可以发 帮助 加：{topics}，或加一个命令（帮助 结算）。",
        "en": "No command or topic “{word}”. Send help with one of: {topics}; or with a command (help settle).",
    },
    # -- trust at the table: who may, undo, double entries, redeliveries (bot/permissions.py, commands/undo.py)
    "players_only": {
        "zh": "只有这桌的玩家和群管理员可以{action}。",
        "en": "Only the players at this table and the group's admins can {action}.",
    },
    "action_record": {"zh": "记账", "en": "record"},
    "action_undo": {"zh": "撤销", "en": "undo"},
    "action_settle": {"zh": "结算", "en": "settle the night"},
    "action_reopen": {"zh": "在牌桌进行中重新开桌", "en": "open a new table over the running one"},
    "someone": {"zh": "有人", "en": "someone"},
    "sender_self": {"zh": "你", "en": "you"},
    "ago_now": {"zh": "刚刚", "en": "just now"},
    "ago_seconds": {"zh": "{n}秒前", "en": "{n}s ago"},
    "ago_minutes": {"zh": "{n}分钟前", "en": "{n} min ago"},
    "ago_hours": {"zh": "{n}小时前", "en": "{n} h ago"},
    "record_by": {"zh": "{who} {ago}记的", "en": "recorded by {who} {ago}"},
    "undo_ask_other": {
        "zh": "最后一条记录是 {by}：第{number}局 {what}。确定撤销吗？",
        "en": "The latest record was {by}: hand {number}, {what}. Undo it?",
    },
    "undo_ask_finished": {
        "zh": "最后一条记录是第{number}局的结束（{by}）：{what}。"
        "撤销后第{number}局重新打开，之前记的杠和亮倒都保留。确定吗？",
        "en": "The latest record ended hand {number} ({by}): {what}. Undoing it reopens hand {number}, its kongs "
        "and ready (亮倒) kept. Undo it?",
    },
    "undo_ask_finished_other": {
        "zh": "最后一条记录是第{number}局的结束（{by}）：{what}。"
        "撤销后第{number}局重新打开，这一局之前记的都保留。确定吗？",
        "en": "The latest record ended hand {number} ({by}): {what}. Undoing it reopens hand {number}, what was "
        "recorded before it kept. Undo it?",
    },
    "undo_ask_hand": {
        "zh": "撤销第{number}局：整局作废（{what}），这一局的钱全部退回。确定吗？",
        "en": "Undo hand {number}: the whole hand is voided ({what}) and its money returned. Sure?",
    },
    "btn_undo_yes": {"zh": "确认撤销", "en": "Undo it"},
    "btn_undo_no": {"zh": "不撤销", "en": "Keep it"},
    # a 「是不是：…」 question answered by its asker's typed `就是这个` (as its button)
    "suggest_booked_typed": {
        "zh": "好的，记了（上面那条已经改成记下的结果）。",
        "en": "OK, booked (the question above now shows what was booked).",
    },
    "undo_kept": {"zh": "好的，没有撤销。", "en": "OK, nothing undone."},
    # a 撤销 question (撤销, 撤销结算, 撤销发红包池 …) answered by typing (`算了`, `不撤销`) rather than pressing; 撤销
    # asked again, or pressed by another
    # 撤销's question answered by the asker's typed yes (`对`, `是的`): the question above now says what was taken back
    "undo_done_typed": {
        "zh": "好的，撤销了（上面那条已经改成撤销的结果）。",
        "en": "OK, undone (the question above now shows what was taken back).",
    },
    "undo_kept_typed": {
        "zh": "好的，没有撤销（上面问的已经作废）。",
        "en": "OK, nothing undone (the question above is closed).",
    },
    # a record from whoever asked 撤销 of the latest record, before answering (`_common.refuse_while_undo_asked`)
    # these three point at the question's buttons by the labels they show ({yes}, {no}: `_common.undo_labels`)
    "undo_answer_first": {
        "zh": "没有记：你要撤销的 第{number}局 {what} 还在等你确认，它还算着。先点上面的「{yes}」"
        "（不撤了点「{no}」或发「算了」），再发这一条。",
        "en": "Not recorded: your undo of hand {number} ({what}) is still waiting for your answer, so it still "
        "counts. Press “{yes}” above first (or “{no}”, or type cancel), then send this again.",
    },
    "undo_answer_first_other": {
        "zh": "没有记：你要撤销的 第{number}局 {what} 还在等 {by} 或管理员确认，它还算着。等他们点「{yes}」"
        "（不撤了点「{no}」或发「算了」），再发这一条。",
        "en": "Not recorded: your undo of hand {number} ({what}) is waiting for {by} or an admin, so it still "
        "counts. Once they press “{yes}” (or you press “{no}”, or type cancel), send this again.",
    },
    "undo_asked_above": {
        "zh": "上面已经在问了：第{number}局 {what}。请点那条消息下面的「{yes}」或「{no}」"
        "（不撤了也可以直接发「算了」）。",
        "en": "Already asked above: hand {number}, {what}. Press “{yes}” or “{no}” under it (or type cancel).",
    },
    "undo_ask_confirmer": {
        "zh": "这是 {who} 记的：要 TA 或管理员点「确认撤销」才撤（不撤就点「不撤销」）。",
        "en": "{who} recorded it: they (or an admin) press “Undo it” to take it back (“Keep it” drops the question).",
    },
    "undo_ask_admins": {
        "zh": "这条不知道是谁记的：要管理员点「确认撤销」才撤。",
        "en": "Nobody the bot knows recorded it: an admin presses “Undo it” to take it back.",
    },
    "confirmer_only": {
        "zh": "这是 {by} 记的：撤不撤要 TA 或管理员定（发起的人可以点「不撤销」作罢）。",
        "en": "{by} recorded this: they or an admin decide (whoever asked may drop it with “Keep it”).",
    },
    "undo_not_yours": {
        "zh": "只有发起撤销的人或管理员能回答这个问题。",
        "en": "Only whoever asked to undo, or an admin, can answer this.",
    },
    "table_now": {"zh": "现在打第{number}局，庄家 {dealer}", "en": "Now: hand {number}, dealer {dealer}"},
    "table_now_no_dealer": {"zh": "现在打第{number}局", "en": "Now: hand {number}"},
    "undo_done_event": {"zh": "已撤销：第{number}局 {what}", "en": "Undone: hand {number}, {what}"},
    "undo_done_reopened": {
        "zh": "已撤销：第{number}局 {what}。第{number}局重新打开。",
        "en": "Undone: hand {number}, {what}. Hand {number} is open again.",
    },
    "undo_done_hand": {"zh": "已作废第{number}局（{what}）。", "en": "Hand {number} voided ({what})."},
    "undo_again": {"zh": "这条撤销已经做过了，没有再撤。", "en": "That undo was done already; nothing more undone."},
    # a reply's 撤销: what the replied-to message recorded, at the open table or one that has ended since
    "undo_reply_nothing": {
        "zh": "没有撤销：你回复的那条消息没有记下牌局。要撤这桌最后一条记录，直接发「撤销」（不用回复）；"
        "要作废某一局，回复记那一局的消息发「撤销」。",
        "en": "Nothing undone: the message you replied to recorded no hand. To take back the table's latest record, "
        "send undo without replying; to void a hand, reply undo to the message that recorded it.",
    },
    "ledger_record_taken_back": {
        "zh": "没有撤销：你回复的那条消息记的已经撤销或作废了。",
        "en": "Nothing undone: what the message you replied to recorded was taken back already.",
    },
    "ledger_hand_night_settled": {"zh": "没有撤销：{message}。", "en": "Nothing undone: {english}."},
    "undo_reply_table_ended": {
        "zh": "没有撤销：你回复的那条消息记的第{number}局在已经结束的那一桌上，换桌以后只有群管理员能撤销那一桌的记录。"
        "那一局记错了，请群管理员回复那条消息发「撤销」。",
        "en": "Nothing undone: hand {number} the message you replied to recorded is at a table that has ended; once "
        "another table is open only the group's admins may take back that table's records. If it was wrong, ask an "
        "admin to reply undo to that message.",
    },
    "undo_reply_not_latest": {
        "zh": "没有撤销：你回复的那条消息记在还没打完的第{number}局，但不是这桌最后一条记录。「撤销」只撤最后一条："
        "先撤销它后面记的，或者等第{number}局记完，再回复它发「撤销」整局作废。",
        "en": "Nothing undone: the message you replied to recorded in hand {number}, still in play, but it is not the "
        "table's latest record. undo takes back only the latest: undo what came after it first, or once hand {number} "
        "is recorded, reply undo to it to void the whole hand.",
    },
    "undo_ask_ended": {
        "zh": "撤销第{number}局：{date} 那晚、已经结束的那一桌（{players}）。整局作废（{what}），这一局的钱全部退回，"
        "现在这桌不受影响。确定吗？",
        "en": "Undo hand {number} of a table that has ended ({players}, the night of {date}): the whole hand is "
        "voided ({what}) and its money returned; the table now playing is not touched. Sure?",
    },
    "undo_done_ended": {
        "zh": "已作废第{number}局（{date} 那晚已经结束的那一桌：{what}）。",
        "en": "Hand {number} voided (the table that has ended, night of {date}: {what}).",
    },
    "undo_reply_changed": {
        "zh": "没有撤销：问你之后第{number}局改过了。要撤销，请再回复那条消息发「撤销」。",
        "en": "Nothing undone: hand {number} was changed after the question. To undo it, reply undo to that message "
        "again.",
    },
    "undo_no_hand": {
        "zh": "这张牌桌没有打完的第{number}局。",
        "en": "This table has no finished hand {number}.",
    },
    "undo_hand_voided": {
        "zh": "第{number}局已经撤销过了（{by}），钱已经退回，不用再撤。{again}",
        "en": "Hand {number} was taken back already ({by}): its money is back, nothing more to undo.{again}",
    },
    "undone_by": {"zh": "{who} {ago}撤销的", "en": "by {who} {ago}"},
    "undo_hand_again": {
        "zh": "现在打的第{number}局是重新打的，还没打完。",
        "en": " The hand {number} being played now is played anew and not finished yet.",
    },
    "undo_bad_words": {
        "zh": "「{word}」看不懂：撤销 只撤最后一条；要作废打完的某一局，写 撤销 第3局。",
        "en": "Cannot read “{word}”: undo takes back the latest record; to void a finished hand, write undo hand 3.",
    },
    "ledger_record_changed": {
        "zh": "最后一条记录已经变了，这次没有撤销。要撤销请再发一次「撤销」。",
        "en": "The latest record has changed; nothing was undone. Send undo again to undo.",
    },
    "ledger_night_closed": {
        "zh": "这一晚已经结算封存，记录不能再改。",
        "en": "That night is settled and closed; its records can no longer change.",
    },
    "duplicate": {
        "zh": "{by}：第{number}局 {what}。这条和它一样，像是重复了，没有再记。要是真的又来了一次，点「确实又一次」。",
        "en": "Already recorded ({by}): hand {number}, {what}. This looks like the same thing typed twice, so it "
        "was not booked. If it really happened again, press “It happened again”.",
    },
    "duplicate_paoqi_included": {
        "zh": "{by}：第{number}局 {what}。跑起胡的钱已经含了这次跑起（跑起胡 24 分里就有跑起的 12 分），没有记。"
        "是同一张牌：{fix}；真是另一张牌跑起胡，点「确实又一次」。",
        "en": "Already recorded ({by}): hand {number}, {what}. A 跑起胡 already includes that 跑起 (its 24 points "
        "hold the 跑起's 12), so it was not booked. The same card: {fix}; a 跑起胡 on another card, press “It "
        "happened again”.",
    },
    "paoqi_included_fix": {
        "zh": "{owner} 或管理员发「{line}」把那条跑起改成跑起胡",
        "en": "{owner} or an admin sends “{line}” to turn that 跑起 into the 跑起胡",
    },
    "paoqi_included_fix_later": {
        "zh": "那条跑起后面又记了别的，改成 改不到它：「撤销」（一次撤最后一条）撤掉那条跑起和它后面记的，"
        "后面的重新记上，再发这条跑起胡",
        "en": "more was recorded after that 跑起, so change to cannot reach it: undo (the latest record each time) "
        "back to and including that 跑起, record again what came after it, then send this 跑起胡 again",
    },
    "paoqi_included_line": {
        "zh": "改成 @{player} 胡 点 @{discarder} 跑起{zhongzhuang}",
        "en": "change to @{player} win from @{discarder} 跑起{zhongzhuang}",
    },
    "duplicate_win": {
        "zh": "{by}：第{number}局 {what}。胡的人和它一样，多半是同一手又记了一次，没有再记。"
        "要是真的又胡了一次，点「确实又一次」。",
        "en": "Already recorded ({by}): hand {number}, {what}. The same winner a moment later is most likely the "
        "same hand told again, so it was not booked. If it really happened again, press “It happened again”.",
    },
    "double_entry_set": {
        "zh": "好的：{seconds} 秒内别人记的同一条（同一人、同一种杠和牌；同一家胡；荒庄）不再记，"
        "自己又发一次的同一家胡或荒庄也不再记，回复里有「确实又一次」按钮；一局刚结束，{seconds} 秒内别人记的"
        "另一个胡或荒庄先问是不是新的一局；{span} 秒内一模一样的胡或荒庄（谁发的都算）、别人记的同一家胡、"
        "没写牌的同一个杠也先问。",
        "en": "OK: the same record (same player, kong and tile; same winner; a draw) from someone else within "
        "{seconds} s is held back, and so is the same win or draw you send again, with an “It happened again” "
        "button; another win or draw from someone else within {seconds} s of a hand's end is asked about first "
        "(“New hand”); within {span} s so are the same win or draw told exactly alike (by anyone), the same winner "
        "and a kong told without its tile (by someone else).",
    },
    "double_entry_off": {
        "zh": "好的：不再拦重复的记录。",
        "en": "OK: repeated records are no longer held back.",
    },
    "double_entry_rule": {
        "zh": "重复记录：{seconds} 秒内别人记的同一条不再记（管理员可改：设置 重复间隔 90，0 关闭）",
        "en": "Double entries: the same record from someone else within {seconds} s is held back (admins: config "
        "double_entry 90, 0 turns it off)",
    },
    "double_entry_rule_off": {
        "zh": "重复记录：不拦（管理员可开：设置 重复间隔 90）",
        "en": "Double entries: not held back (admins: config double_entry 90)",
    },
    # a win or draw held back as another ending of the 卡五星 or 碰胡 hand just ended (`DuplicateRecord.differs`)
    "duplicate_other_end": {
        "zh": "{by}：第{number}局 {what}。这条和它不一样，多半说的是同一局，没有记。那条记错了，{owner} 或管理员发"
        "「改成 …」改；真是新的一局，点「是新的一局」。",
        "en": "Already recorded ({by}): hand {number}, {what}. This one differs and most likely tells the same hand, "
        "so it was not booked. If that record is wrong, {owner} or an admin fixes it with change to …; if this is a "
        "new hand, press “New hand”.",
    },
    # a 够级 round held back as the round just booked told otherwise (`DuplicateRecord.differs`)
    "duplicate_other_round": {
        "zh": "{by}：第{number}局 {what}。这条和它不一样，一局打不了这么快，多半说的是同一局，没有记。那条记错了，"
        "{owner} 或管理员发「改成 名次 …」改；真是新的一局，点「是新的一局」。",
        "en": "Already recorded ({by}): hand {number}, {what}. This one differs, and a hand takes longer than that: "
        "most likely it tells the same hand, so it was not booked. If that record is wrong, {owner} or an admin "
        "fixes it with change to order …; if this is a new hand, press “New hand”.",
    },
    "recorder_unknown": {"zh": "记那条的人", "en": "whoever recorded it"},
    "btn_new_hand": {"zh": "是新的一局", "en": "New hand"},
    "btn_double_win": {"zh": "一炮双响", "en": "Both won (一炮双响)"},
    "duplicate_double_win": {
        "zh": "同一张点炮两家都胡了，点「一炮双响」，这两个胡记成同一局。",
        "en": "If both won on that one discard, press “Both won”: the two wins are booked as that one hand.",
    },
    "btn_repeat_yes": {"zh": "确实又一次", "en": "It happened again"},
    "btn_repeat_no": {"zh": "不用了", "en": "No, same one"},
    # 「确实又一次」/「不用了」 under a record held back as a double entry, pressed by anyone but its sender or an admin
    "repeat_not_yours": {
        "zh": "只有记这一条的人或管理员能决定要不要再记一次。",
        "en": "Only whoever recorded this, or an admin, decides whether to book it again.",
    },
    # a question about a line held back as a repeat (a record, a payment) answered by typing `算了`/`不用了`
    "repeat_kept_typed": {
        "zh": "好的，没有再记（上面问的已经作废）。",
        "en": "OK, not booked again (the question above is closed).",
    },
    # a record held back as a double entry, booked by its typer's `确实又一次` (as its button)
    "repeat_booked_typed": {
        "zh": "好的，又记了一次（上面那条已经改成记下的结果）。",
        "en": "OK, booked again (the question above now shows what was booked).",
    },
    # another win on the discard that ended the hand, held back and joined to it by its typer's `一炮双响`
    "double_win_typed": {
        "zh": "好的，记成一炮双响（上面那条已经改成记下的结果）。",
        "en": "OK, booked as both winning on that discard (the question above now shows what was booked).",
    },
    # another ending of the hand just ended, held back and confirmed by its typer's `是新的一局` (as its button)
    "new_hand_typed": {
        "zh": "好的，记成新的一局（上面那条已经改成记下的结果）。",
        "en": "OK, booked as a new hand (the question above now shows what was booked).",
    },
    # a typed payment that repeats what its sender booked a moment ago (bot/commands/payments.py)
    "payment_repeat": {
        "zh": "刚才（{seconds} 秒前）已经记过一笔 {debtor} → {creditor} {amount}。这条（{line}）是同样的一笔，"
        "像是发了两次，没有再记。真的是另一笔，点「再记一笔」。",
        "en": "{debtor} → {creditor} {amount} was recorded {seconds}s ago. This one (“{line}”) is the same, so it "
        "looks sent twice and was not booked. If it is another payment, press “Book another”.",
    },
    # 已转 / 转完了 alone from someone owing several people, or nobody (bot/commands/payments.py)
    "payment_alone_which": {
        "zh": "没有记账：要写明付给谁。{debts}。这样写：已转 {payee}（付清这一笔），或 付 {payee} 金额。",
        "en": "Not booked: say whom you paid. {debts}. Write: paid {payee} (all of it), or paid {payee} AMOUNT.",
    },
    # `付 8`, `已转 8` (an amount, nobody named) from someone owing several people
    "payment_amount_which": {
        "zh": "没有记账：你欠的不止一个人，要写明付给谁。{debts}。这样写：付 {payee} {amount}。",
        "en": "Not booked: you owe more than one person, so say whom you paid. {debts}. Write: paid {payee} {amount}.",
    },
    "payment_alone_none": {
        "zh": "你现在没有要付的账，没有记。发「谁还没付」看还没付清的每一笔。",
        "en": "You owe nobody now, so nothing was booked. Send “unpaid” to see every open debt.",
    },
    # 都收到了 with payments from several people waiting for the sender's word
    "payment_all_received_which": {
        "zh": "{items}，都在等你确认。没写收到谁的，没有记：收到谁的就写 {lines}，或点付款帖里那一笔的「收到」。",
        "en": "{items}, each waiting for your word. You named nobody, so nothing was booked: for each that came "
        "write {lines}, or press “received” on its line in the payments post.",
    },
    "payment_told_item": {"zh": "{name} 说已付 {amount}", "en": "{name} says {amount} paid"},
    # 我欠阿杰多少 when nothing is open between the two (bot/commands/balance.py)
    "balance_pair_none": {
        "zh": "你和 {name} 之间没有没付清的账。",
        "en": "Nothing is open between you and {name}.",
    },
    "btn_payment_repeat_yes": {"zh": "再记一笔", "en": "Book another"},
    # a typed amount below what the other side told, waiting for this side's word (ledger.errors.ShortOfWaiting)
    "payment_short_of_waiting_received": {
        "zh": "{other} 说已付 {waiting}，在等你确认；你写的是 {amount}，没有记。收到的就是那一笔：点「收到」或写 收到 "
        "{other_at} {waiting}。只收到一部分：和 {other} 核对（{other} 撤销付款 后按实际金额再记）。"
        "真的是另一笔，点「再记一笔」。",
        "en": "{other} says {waiting} paid, waiting for your word; you wrote {amount}, so nothing was booked. If it "
        "is that payment: press “Received” or write received {other_at} {waiting}. If only part arrived: check "
        "with {other} (who can unpay and record what was paid). If it is another payment, press “Book another”.",
    },
    "payment_short_of_waiting_paid": {
        "zh": "{other} 说收到 {waiting}，在等你确认；你写的是 {amount}，没有记。付的就是那一笔：点「已付」或写 付 "
        "{other_at} {waiting}。只付了一部分：和 {other} 核对（{other} 撤销付款 后按实际金额再记）。"
        "真的是另一笔，点「再记一笔」。",
        "en": "{other} says {waiting} received, waiting for your word; you wrote {amount}, so nothing was booked. If "
        "it is that payment: press “Paid” or write paid {other_at} {waiting}. If you paid only part: check with "
        "{other} (who can unpay and record what was paid). If it is another payment, press “Book another”.",
    },
    "payment_repeat_expired": {
        "zh": "「再记一笔」已过期，没有记。真的是另一笔就再发一次。",
        "en": "“Book another” has expired; nothing booked. If it is another payment, send it again.",
    },
    "payment_repeat_changed": {
        "zh": "「再记一笔」已过期：这之后这笔账变了（付了、撤销了或结算变了），没有记。真的是另一笔就再发一次。",
        "en": "“Book another” has expired: what is owed changed since (paid, taken back or settled again); nothing "
        "booked. If it is another payment, send it again.",
    },
    "payment_repeat_not_yours": {
        "zh": "只有发这条付款的人或管理员可以决定要不要再记一笔。",
        "en": "Only whoever sent this payment, or an admin, decides whether to book another.",
    },
    # `转给@ajie4`: an @username with digits glued to 转给 (bot/commands/payments.py, `_sent_to_glued`)
    "payment_glued_why": {"zh": "群里没有 {name}。", "en": "Nobody here is {name}. "},
    "payment_sent_to_how_much": {
        "zh": "转给 {name} 多少？请写上金额，例如 转给 {name} 5；要是付给 {other}，@名字 后面空一格：{line}。"
        "没有记账。",
        "en": "How much to {name}? Write the amount, e.g. 转给 {name} 5; to pay {other}, put a space after the "
        "@name: {line}. Nothing booked.",
    },
    "payment_sent_to_how_much_only": {
        "zh": "转给 {name} 多少？请写上金额，例如 转给 {name} 5。没有记账。",
        "en": "How much to {name}? Write the amount, e.g. 转给 {name} 5. Nothing booked.",
    },
    "payment_glued_changed": {
        "zh": "这个问题已过期：这之后这笔账变了（付了、撤销了或结算变了），没有记。"
        "要付就再发一次，@名字 和金额之间空一格。",
        "en": "This question has expired: what is owed changed since (paid, taken back or settled again); nothing "
        "booked. To pay, send it again with a space between the @name and the amount.",
    },
    "payment_glued_not_yours": {
        "zh": "只有发这条付款的人或管理员可以回答。",
        "en": "Only whoever sent this payment, or an admin, can answer.",
    },
    "payment_glued_kept_typed": {
        "zh": "好的，没有记（上面问的已经作废）。",
        "en": "OK, nothing booked (the question above is closed).",
    },
    "already_recorded": {
        "zh": "已记过：第{number}局 {what}（同一条消息只记一次）。",
        "en": "Already recorded: hand {number}, {what} (one message books once).",
    },
    "already_done": {"zh": "已经做过了（同一条消息只做一次）。", "en": "Done already (one message counts once)."},
    "draw_pays": {"zh": "{payer} 赔 {payees}", "en": "{payer} pays {payees}"},
    "draw_penalty_paid": {
        "zh": "；亮倒没胡的赔钱：{payments}",
        "en": "; ready (亮倒) without a win pays: {payments}",
    },
    # -- games and rules ---------------------------------------------------------------------------------
    "game_kawuxing": {"zh": "卡五星", "en": "Ka Wu Xing (卡五星)"},
    "game_gouji": {"zh": "够级", "en": "Gouji (够级)"},
    "game_penghu": {"zh": "碰胡", "en": "Penghu (碰胡)"},
}


def register(texts: Mapping[str, Mapping[str, str]]) -> None:
    """Add texts for a module; a key may not be registered twice with different wording."""
    for key, versions in texts.items():
        if key in TEXTS and TEXTS[key] != dict(versions):
            raise ValueError(f"text {key!r} registered twice")
        if "zh" not in versions:
            raise ValueError(f"text {key!r} has no Chinese version")
        TEXTS[key] = dict(versions)


def text(lang: str, key: str, /, **params: object) -> str:
    versions = TEXTS[key]
    template = versions.get(lang) or versions["zh"]
    if not params:
        return template
    filled = template.format(**params)
    return _ONE_OF.sub(r"\1", filled) if lang == "en" else filled


#: an English count of one before a plural the templates write (`1 hands`, `1 wins`): the noun loses its s
_ONE_OF = re.compile(r"(?<![\d.,])(1 (?:hand|win|transfer|time|message|payment|member|player|night|meld))s\b")


#: the scoring core's words for the request it was given (`paiju score`'s contract), as a player would say them
_FIELD_WORDS = {
    "concealed": "手牌",
    "win_tile": "胡的那张牌",
    "melds": "副露",
    "patterns": "番型",
    "situations": "情形",
    "method": "胡法",
    "winner": "胡牌的人",
    "from": "点炮的人",
    "chain": "杠上杠",
    "kind": "种类",
    "tile": "牌",
    "player": "玩家",
    "ready": "听牌",
    "piao": "漂",
    "ma": "马牌",
}
_FIELD = re.compile(r"(?<![A-Za-z_])(" + "|".join(sorted(_FIELD_WORDS, key=len, reverse=True)) + r")(?![A-Za-z_])\s?")
#: how the core points into a request's events: `第 2 个事件，` / `第 2 个事件（杠）的` / `events[3]（peng）：`
_EVENT_REFERENCES = (
    (re.compile(r"第 ?\d+ ?个事件[，：,:]\s*"), ""),
    (re.compile(r"第 ?\d+ ?个事件（([^）]*)）的"), r"\1的"),
    (re.compile(r"第 ?\d+ ?个事件"), "这一条"),
    (re.compile(r"events\[\d+\]（\w+）[：:]\s*"), ""),
    (re.compile(r"events\[\d+\]"), "这一条"),
)


def chat_message(message: str) -> str:
    """A scoring refusal as a player reads it: no pointers into the request's event list (`第 1 个事件`), no
    field names of the JSON contract (`concealed`): the rest of the message is already the why."""
    for pattern, replacement in _EVENT_REFERENCES:
        message = pattern.sub(replacement, message)
    return _FIELD.sub(lambda found: _FIELD_WORDS[found.group(1)], message)


#: the scoring core's refusals in English, by the refusal's key (`ledger.scoring.Reading`): each names the values
#: the core gives with it (`_english_args` puts tile codes, methods, patterns and kongs in English words). The
#: core speaks Chinese only and its `paiju score` contract stays as it is; a Chinese group reads the core's own
#: words (`chat_message`). Game terms are glossed in Chinese in brackets after their English.
SCORING_ENGLISH: dict[str, str] = {
    # the request as a whole (every game)
    "request_not_object": "the request must be a JSON object.",
    "unknown_game": "unknown game {game} (one of: {allowed}).",
    "too_deep": "the request is nested too deeply.",
    "missing_fields": "the request lacks {fields}.",
    "unknown_fields": "the request has fields it does not know: {fields}.",
    "stake_not_integer": "the stake must be a whole number of fen (cents), not {value}.",
    "stake_fraction": "the stake {value} is not a whole number of fen: amounts are whole fen (¥2.50 is 250).",
    "stake_too_small": "the stake cannot be less than {minimum}, not {value}.",
    "stake_too_big": "the stake is at most {most} fen, not {value}.",
    "rules_not_object": 'the rules must be an object, e.g. {{"preset": "xiangyang"}}.',
    "no_rule_options": "this game has no rule options: {options}.",
    "unknown_preset": "unknown rules preset {preset} (one of: {allowed}).",
    "names_not_list": "{field} must be a list of player names (non-empty text).",
    "too_many_names": "{field} holds at most {most} names, not {count}.",
    "text_too_long": "a name in {field} is at most {most} characters long, not {count}.",
    "text_lone_surrogate": "a name in {field} has an invalid character (a lone surrogate).",
    # tiles
    "tiles_not_text": 'tiles are written as text, e.g. "123p46p", not {value}.',
    "no_red_five": "“{spelled}”: Ka Wu Xing has no red five (0); a five is written 5.",
    "no_winds": "“{spelled}”: Ka Wu Xing has no wind tiles; the honours are 5z, 6z and 7z (the dragons).",
    "no_such_honor": "“{spelled}”: there is no such honour tile; the honours are 5z, 6z and 7z (the dragons).",
    "suit_without_rank": "“{text}”: character {position} (“{char}”) is a suit with no number before it.",
    "not_a_tile": "“{text}”: “{char}” is not a tile (write 123p, 5z and so on).",
    "rank_without_suit": "“{text}” has no suit after it (p, s or m).",
    "ends_without_suit": "“{text}” ends with “{rest}”, which has no suit (p, s or m).",
    "not_one_tile": "“{text}” should be one tile; it reads as {count}.",
    "suit_not_played": "{tile}: this table plays only {suits}, no {suit}.",
    "fifth_tile": "{tile} is there {count} times; each tile exists only 4 times.",
    "tiles_too_long": "{field} is too long ({count} characters, at most {most}): no hand is written that long.",
    "ready_tiles_too_long": "{field} is too long: no hand is written that long.",
    # 卡五星: the request
    "hand_or_events": "a request has either a hand (to score one hand) or events (to settle a hand), not both.",
    "no_hand_or_events": "a Ka Wu Xing request needs a hand (to score one hand) or events (to settle a hand).",
    "request_unknown_field": "the request has a field it does not know, {field} (known: {allowed}).",
    "no_events": "the request needs events (the hand's events).",
    "rule_not_list": "the rule {option} takes a list (of: {allowed}).",
    "rule_unknown_choice": "the rule {option} does not know {value} (one of: {allowed}).",
    "rule_repeated_choice": "the rule {option} repeats a value.",
    "rule_two_suits": 'the rule suits takes exactly two suits, e.g. ["p", "s"].',
    "rule_bad_value": "the rule {option} cannot be {value} (one of: {allowed}).",
    "unknown_rule": "unknown rule {option} (known: {allowed}).",
    "duiliang_alone": "duiliang_double (对亮翻番) is only played together with liangdao_payer_double (亮倒输家加倍).",
    "preset_not_text": "rules.preset must be text (one of: {allowed}).",
    "rule_key_not_text": "the rules' keys must be text.",
    "players_not_list": "players must be a list of three player names.",
    "kawuxing_players": "Ka Wu Xing is played by three: players must be exactly three different names, not {players}.",
    "not_at_table": "{who} is not at this table ({players}).",
    "base_not_positive": "the base stake must be a positive whole number of fen, not {value}.",
    "base_too_big": "the base stake is at most {most} fen, not {value}.",
    "events_not_list": "events must be a list.",
    "too_many_events": "a hand has at most {most} events, not {count}.",
    "event_not_object": "an event must be a JSON object.",
    "unknown_event": "unknown event type {kind} (one of: {allowed}).",
    "event_unknown_fields": "the {event} event has fields it does not know: {fields}.",
    "event_missing_field": "the {event} event lacks {field}.",
    "event_name_not_text": "{field} in the {event} event must be a player's name (text).",
    "kawuxing_not_over": "the events must end with a win (hu) or a drawn hand (draw).",
    # 卡五星: a hand
    "hand_not_object": "the hand must be an object.",
    "hand_unknown_field": "the hand has a field it does not know, {field} (known: {allowed}).",
    "hand_without_method": "the hand lacks its method ({allowed}).",
    "hand_without_tiles": "the hand lacks {field} (or name its patterns instead).",
    "hand_method_differs": "the hand's method is {hand_method}, but the win was {method}.",
    "liangdao_not_bool": "liangdao must be true or false.",
    "hand_liangdao_differs": "the hand says the player {said}, but in the events they {happened}.",
    "not_string_list": "{field} must be a list of text.",
    "list_too_long": "{field} holds at most {most} items, not {count}.",
    "melds_not_list": 'melds must be a list, e.g. [{{"kind": "peng", "tile": "3s"}}].',
    "meld_not_object": 'meld {meld} must be an object {{"kind": ..., "tile": ...}}.',
    "unknown_meld_kind": "meld {meld} has an unknown kind {kind} (one of: {allowed}).",
    "meld_without_tile": "meld {meld} has no tile.",
    "unknown_method": "unknown way of winning {method} (one of: {allowed}).",
    "unknown_situation": "unknown situation {situation} (one of: {allowed}).",
    "unknown_pattern": "unknown pattern {pattern} (one of: {allowed}).",
    "too_many_melds": "a hand has at most 4 melds, not {melds}.",
    "tile_count": "with {melds} melds a hand holds {expected} tiles, not {count}{with_win_tile}.",
    "no_win_hand": "{concealed}{meld_tiles} winning on {win_tile} is not a win: it makes neither four sets and a "
    "pair nor seven pairs.",
    "robbed_fifth": "robbing a kong: the {tile} added to the kong is the fourth, so the winner cannot hold another.",
    "pihu": "a plain win (屁胡, ×1) must be self-drawn, not won {method}: the group's rule (屁胡只能自摸).",
    "method_only": "{pattern} can only be won {methods}; this hand was won {method}.",
    "no_haidipao": "this table does not play a win on the last discard (海底炮): it adds nothing.",
    "gskh_without_kong": "a win on a kong's replacement (杠上开花) needs a kong of one's own, and this hand has none.",
    "once": "{pattern} counts once only.",
    "includes": "{pattern} already includes {included}: name one of them.",
    "not_both": "{pattern} and {other} cannot both hold in one hand.",
    "concealed_only": "{pattern} must be concealed: no pong or kong.",
    "liangdao_flag_declared": "the patterns include a declared ready hand (亮倒), but the hand says it was not "
    "declared.",
    "shouzhuayi_alone": "under this table's rules a single wait after four melds (手抓一) does not also count as all "
    "pungs (碰碰胡): name shouzhuayi alone.",
    "one_four": "{pindao} only the winning tile can count as a fourth tile (四归一), one at most.",
    "fours_once": "under this table's rules each fourth-tile pattern (明四归, 暗四归) counts once at most.",
    "shouzhuayi_melds": "a single wait after four melds (手抓一) needs 4 melds, not {melds}.",
    # 卡五星: a hand's events
    "after_draw": "nothing can follow a drawn hand.",
    "after_win": "after a win only the other winner of a double win (一炮双响) can follow.",
    "three_winners": "Ka Wu Xing is played by three: at most two players win one hand (a double win, 一炮双响).",
    "double_win": "a double win (一炮双响) is two different winners winning the same way on the same player's tile.",
    "unknown_kong_kind": "unknown kind of kong {kind} (one of: {allowed}).",
    "zhigang_own_discard": "an exposed kong (直杠) is made on someone else's discard, not on {who}'s own.",
    "drawn_kong_from": "a {kind} is made of one's own tiles: nobody discarded it.",
    "chain_not_positive": "chain must be a positive whole number (which kong of a kong on a kong), not {value}.",
    "chain_too_long": "a kong on a kong (杠上杠) chains at most {most} kongs, not {value}.",
    "chain_gap": "this is kong number {chain} of a kong on a kong (杠上杠), but the kong just before it is not the "
    "one before it in the chain.",
    "chain_not_following": "a kong on a kong (杠上杠) takes the tile {previous} discarded after their kong, or is "
    "{previous}'s own next kong.",
    "kong_not_in_hand": "{who} made a kong of {tile}, but {who}'s hand has no such kong.",
    "robbed_tile": "{who} robbed {kong}'s added kong (蓄杠) of {tile}, yet the winning tile is {win_tile}.",
    "rob_without_kong": "{who} robbing a kong (抢杠) robs the added kong (蓄杠) {kong} is making, but no added kong of "
    "{kong}'s is recorded just before it. Record “{kong} added kong{tile}” first, then this win (the robbed kong pays "
    "no kong money); not robbing a kong, it is a win on a discard: from {kong}.",
    "rob_kawuxing_tile": "{who} robbing a kong (抢杠) wins on the tile robbed, {kong}'s added kong (蓄杠) of {tile}; "
    "kawuxing (卡五星) is a 5 won between its 4 and 6, so this is not kawuxing.",
    "rob_not_added_kong": "{who} robbing a kong (抢杠): only an added kong (蓄杠: a fourth tile added to a pong) can "
    "be robbed, and {kong}'s latest record is the {kind}. If it was {kong}'s added kong, record “{kong} added "
    "kong{tile}” first; not robbing a kong, it is a win on a discard: from {kong}.",
    "self_draw_from": "{who} self-drew: a self-drawn win has no discarder.",
    "own_discard_win": "{who} cannot win on their own discard.",
    "gskh": "{who} won on a kong's replacement (杠上开花), but the latest kong was not {who}'s.",
    "seven_pairs_after_kong": "{who} made a kong this hand: seven pairs (七对) must be fully concealed, no kongs.",
    "gsp": "{who} won on the discard after a kong (杠上炮), but the latest kong was not made by {source}, who "
    "discarded.",
    "liangdao_flag": "{who}'s hand is marked otherwise than the events, where {who} {happened}.",
    "liangdao_twice": "{who} already declared ready (亮倒).",
    "win_method_differs": "{who}'s hand was won {hand_method}, but the win says {method}.",
    "draw_without_ready": "this table settles the ready hands at a drawn hand (查大叫): the draw needs the ready "
    "players' hands (none when nobody was ready).",
    "liangdao_ready": "{who} declared ready (亮倒), so the draw's settlement (查大叫) needs {who}'s ready hand.",
    "not_ready": "{who}'s hand is not ready: only ready players' hands are told at a drawn hand (查大叫).",
    "ready_not_object": "ready must be an object of the ready players' hands (empty when nobody is ready).",
    "ready_too_many": "ready holds at most three players.",
    "ready_hand_not_object": "{who}'s ready hand must be an object.",
    "ready_unknown_field": "ready has a field it does not know, {field} (known: {allowed}).",
    "ready_patterns_not_list": "a ready hand's patterns must be a list of pattern names.",
    "ready_without_tiles": "{who}'s ready hand needs its tiles (concealed) or its patterns.",
    "ready_tile_count": "{who}'s ready hand with {melds} melds holds {expected} tiles, not {count}.",
    "piao_not_played": "this table's piao (漂) {piao}: it is not told for a hand.",
    "piao_twice": "piao (漂) is told either for everyone at once or player by player, not both.",
    "piao_missing": "this table chooses piao (漂) each hand: {names} have not told theirs yet.",
    "piao_needed": "this table chooses piao (漂) each hand: tell each player's piao for this hand.",
    "piao_everyone": "piao (漂) needs a number for everyone at this table ({players}).",
    "piao_amount": "{who}'s piao (漂) {value} is wrong: piao is a whole number from {least} to {most}.",
    "count_not_needed": "{input} is not told: {counted}.",
    "count_needed": "a win told by its patterns (not its tiles) needs {input}.",
    "count_range": "{input} must be a whole number from 0 to {most}, not {value}.",
    "ma_needed": 'this table buys a horse (买马): this self-drawn win needs the horse tile (ma, e.g. "7s").',
    "ma_not_bought": "this hand buys no horse (买马), by the table's rules or its way of winning: it takes no ma.",
    # 够级
    "gouji_seats": "Gouji (够级) needs {needed} seats, not {count}.",
    "geming_placed": "{who} has a place in the finishing order and is in revolution (革命): a player in "
    "revolution sits the round out.",
    "geming_shaopai": "{who} cannot be both in revolution (革命) and a failed burn (烧牌): a player in revolution "
    "sits the round out.",
    "shaopai_some_placed": "the failed burns (烧牌) are either all in the finishing order or none of them; "
    "missing: {names}.",
    "shaopai_order": "the failed burns (烧牌) rank from the last place up: the order should be {order}.",
    "order_missing": "the finishing order lacks {names} (a revolution goes in geming, a failed burn in "
    "shaopai_failed).",
    "name_twice": "{who} is there twice in {field}.",
    "not_seated": "{who} in {field} is not in the seats.",
    # 碰胡
    "penghu_players": "Penghu (碰胡) needs {needed} players, not {count}.",
    "players_repeated": "a name is there twice among the players.",
    "dealer_not_seated": "the dealer {dealer} is not among the players.",
    "penghu_not_over": "the hand is not over: its last event must end it (a win, a five-fortune win (五福), a "
    "heavenly or earthly hand, little seven pairs, a second four of a kind (提蛇) at the deal, or a drawn hand).",
    "event_player_not_seated": "the {event} event's player {who} is not at the table.",
    "event_from_not_seated": "the {event} event's discarder {who} is not at the table.",
    "paoqi_from": "a run (跑起) is paid by whoever discarded the tile: say who.",
    "flag_not_bool": "{flag} in the {event} event must be true or false.",
    "hand_over": "the hand is already over: nothing can follow its end.",
    "deal_only": "that win happens only at the deal, and play has already begun.",
    "own_discard": "{who}: nobody is paid for their own discard.",
    "not_a_discard": "this event is not on someone else's discard: nobody discarded it.",
    "fifth_is_wufu": "{who} has called the alarm (报警): a fifth pong or sweep (碰/扫) is a five-fortune win (五福).",
    "fifth_needs_baojing": "{who} has 4 pongs and sweeps (碰/扫) already: a fifth counts only after the alarm "
    "(报警), as a five-fortune win (五福).",
    "third_sao_is_tishe": "three sweeps (扫) at the deal are a four of a kind (提蛇).",
    "nothing_to_run": "{who} has no pong or sweep (碰/扫) yet, so nothing to run (跑起) from.",
    "after_shuang_tishe": "two fours of a kind (提蛇) at the deal win on the spot: no play events come before them.",
    "baojing_twice": "{who} already called the alarm (报警).",
    "baojing_early": "the alarm (报警) comes after the fourth pong or sweep (碰/扫); {who} has {count}.",
    "wufu_without_baojing": "{who} has not called the alarm (报警), so no five-fortune win (五福).",
    "zhongzhuang": "only the dealer {dealer} can win with the dealer's bonus (中庄).",
    "paoqi_hu_from": "a running win (跑起胡) is on someone else's discard: say whose.",
    "dealer_dihu": "an earthly win (地胡) is a win on the dealer {dealer}'s first discard: the dealer cannot win it.",
    "dihu_payer": "an earthly win (地胡) is paid by the dealer {dealer} alone.",
    "dealer_xiaoqidui_sao": "the dealer's little seven pairs (小七对) needs a sweep (扫) at the deal.",
}
#: a refusal no English text knows yet (a key the core gained): its code's words, the core's message quoted
_SCORING_ENGLISH_UNKNOWN = "the rules refuse this record ({message})."

_SUIT_EN = {"p": "dots (p)", "s": "bamboo (s)", "m": "characters (m)", "z": "honours (z)"}
_INPUT_EN = {"kan": "the kan (坎) count", "qia": "the qia (恰) count", "ba": "the ba (八) count"}
_LIANGDAO_EN = {True: "declared ready (亮倒)", False: "did not declare ready (亮倒)"}
_PIAO_EN = {"fixed": "is fixed", "none": "is not played"}
_PINDAO_EN = {"half": "under half pindao (半频道),", "big_hands": "unless the hand is a big one (大胡),"}
_COUNTED_EN = {True: "it is counted from the tiles", False: "this table's rules do not count it"}


def _english_list(values: Sequence[object]) -> str:
    return ", ".join(map(str, values))


def _english_melds(melds: Sequence[Sequence[str]]) -> str:
    """A hand's melds (`[["peng", "3s"]]`) after its concealed tiles: ` + pong 3s`."""
    return "".join(f" + {'pong' if kind == 'peng' else kong_name('en', kind)} {tile}" for kind, tile in melds)


#: how a reading's argument reads in English, by its name; any other argument reads as it is
_ENGLISH_ARGS: dict[str, Callable[[Any], str]] = {
    "method": lambda m: METHOD_NAMES_EN.get(m, m),
    "hand_method": lambda m: METHOD_NAMES_EN.get(m, m),
    "methods": lambda ms: " or ".join(METHOD_NAMES_EN.get(m, m) for m in ms),
    "pattern": lambda key: pattern_name("en", key),
    "other": lambda key: pattern_name("en", key),
    "included": lambda key: pattern_name("en", key),
    "kind": lambda kind: kong_name("en", kind),
    "suits": lambda suits: " and ".join(_SUIT_EN.get(s, s) for s in suits),
    "suit": lambda suit: _SUIT_EN.get(suit, suit),
    "meld_tiles": _english_melds,
    "input": lambda key: _INPUT_EN.get(key, key),
    "said": _LIANGDAO_EN.__getitem__,
    "happened": _LIANGDAO_EN.__getitem__,
    "counted": _COUNTED_EN.__getitem__,
    "piao": lambda piao: _PIAO_EN.get(piao, piao),
    "pindao": lambda pindao: _PINDAO_EN.get(pindao, pindao),
    "with_win_tile": lambda hint: " (the concealed tiles leave out the winning tile)" if hint else "",
}


def _english_args(args: Mapping[str, Any]) -> dict[str, str]:
    return {
        name: _ENGLISH_ARGS[name](value)
        if name in _ENGLISH_ARGS
        else _english_list(value)
        if isinstance(value, list)
        else str(value)
        for name, value in args.items()
    }


class Refused(Protocol):
    """A refusal of the scoring core as the bot meets it: `ScoringError`, or the ledger's `ScoringRefused`."""

    code: str
    message: str
    reading: Reading


def scoring_refusal(lang: str, err: Refused) -> str:
    """A refusal of the scoring core as a player reads it: `没有记录：` and its reason (`scoring_reason`)."""
    return text(lang, "scoring_refused", message=scoring_reason(lang, err))


def scoring_reason(lang: str, err: Refused) -> str:
    """Why the scoring core refused: its Chinese message (no pointers into the request), or in an English group
    the English text of its reading's key, with the names, tiles and counts the reading gives."""
    if lang != "en":
        return chat_message(err.message)
    template = SCORING_ENGLISH.get(err.reading.key)
    if template is None:
        return _SCORING_ENGLISH_UNKNOWN.format(message=chat_message(err.message))
    args = _english_args(err.reading.args)
    reason = _ONE_OF.sub(r"\1", template.format(**args))
    return f"{args['winner']}: {reason}" if "winner" in args else reason


#: what a refused take-back was of (`ledger.errors.PaidSince`: 结算, 发红包池, 付台费) -> its English name and command
_PAID_SINCE_EN = {
    "结算": ("settlement", "unsettle"),
    "发红包池": ("payout of the pot (发红包池)", "unpayout"),
    "付台费": ("table fee payout (付台费)", "undo pay table fee"),
}


def refusal_text(lang: str, err: Exception) -> str | None:
    """The player-facing message of a refusal raised below the bot (scoring or ledger), or None for a bug."""
    from ledger.errors import PaidSince
    from ledger.scoring.common import ScoringError
    from ledger.service import LedgerError, ScoringRefused

    if isinstance(err, ScoringRefused | ScoringError):
        return scoring_refusal(lang, err)
    if isinstance(err, PaidSince):  # each payment that depends on what was to be taken back, in the group's money
        listed = joined(
            lang,
            (
                text(lang, "paid_since_item", payer=p.payer, payee=p.payee, amount=money(p.amount, err.currency))
                for p in err.payments
            ),
        )
        what, undo = _PAID_SINCE_EN.get(err.what, (err.what, err.undo)) if lang == "en" else (err.what, err.undo)
        return text(lang, "ledger_paid_since", what=what, payments=listed, undo=undo)
    if isinstance(err, LedgerError):
        key = f"ledger_{err.code}"
        if key in TEXTS:
            return text(lang, key, message=err.message, english=err.english or err.message)
        return text(lang, "ledger_refused", message=err.message)
    return None


# -------------------------------------------------------------------------------------------------- describing


def game_name(lang: str, game: str) -> str:
    key = f"game_{game}"
    return text(lang, key) if key in TEXTS else game


#: a setting by the word an admin typed (`设置 底金 0`, `config base 0`), as an English reply names it: the English
#: name, the Chinese word beside it when that was typed (`base stake (底金)`); a word not here is shown as typed
SETTING_NAMES_EN = {
    **dict.fromkeys(("底金", "底", "base", "stake"), "base stake"),
    **dict.fromkeys(("游戏", "game"), "game"),
    **dict.fromkeys(("预设", "规则", "preset"), "preset"),
    **dict.fromkeys(("语言", "language", "lang"), "language"),
    **dict.fromkeys(("日切", "cutoff"), "night cut-off"),
    **dict.fromkeys(("货币", "单位", "currency"), "currency"),
    **dict.fromkeys(("台费", "茶水", "桌费", "fee", "tablefee"), "table fee"),
    **dict.fromkeys(("抽水", "抽成", "cut"), "cut"),
    **dict.fromkeys(("封顶", "上限", "最多", "cap"), "cap"),
    **dict.fromkeys(("重复间隔", "重复", "防重复", "double_entry", "double_entry_window"), "double entries"),
    **dict.fromkeys(("并账", "合并欠账", "merge_debts", "carry"), "merge debts"),
    **dict.fromkeys(("明杠", "minggang"), "minggang"),
}


def setting_name(lang: str, word: str) -> str:
    """A setting as a refusal of its value names it: as typed in Chinese; in English by its English name, with the
    Chinese word typed beside it (`base stake (底金)`)."""
    english = SETTING_NAMES_EN.get(word.lower()) if lang == "en" else None
    if english is None:
        return word
    return english if word.isascii() else f"{english} ({word})"


def pattern_name(lang: str, key: str) -> str:
    from ledger.scoring.kawuxing.patterns import PATTERNS_BY_KEY

    pattern = PATTERNS_BY_KEY.get(key)
    if pattern is None:
        return key
    return f"{pattern.zh}" if lang != "en" else f"{pattern.en} ({pattern.zh})"


def kong_name(lang: str, kind: str) -> str:
    if kind not in KONG_NAMES_EN:
        return kind
    zh = MELDS[kind][0]
    return f"{KONG_NAMES_EN[kind]} ({zh})" if lang == "en" else zh


def tile_name(lang: str, tile: str | None) -> str:
    """` 三条` (zh) / ` 3s`, ` red dragon` (en: a dragon by the name typed back, `concealed kong red dragon`) for a
    typed tile, "" when none was typed."""
    if not tile:
        return ""
    from ledger.scoring.tiles import parse_tiles, tile_notation, tile_zh

    def english(code: str) -> str:
        return f"{DRAGON_NAMES_EN[code]} dragon" if code in DRAGON_NAMES_EN else code

    parsed = parse_tiles(tile)
    return " " + "".join(english(tile_notation(t)) if lang == "en" else tile_zh(t) for t in parsed)


#: how a game other than 卡五星 puts one of its events in words: (lang, event, the table's dealer) -> text
EventDescriber = Callable[[str, Mapping[str, Any], str | None], str]
_DESCRIBERS: dict[str, EventDescriber] = {}


def register_describer(game: str, describer: EventDescriber) -> None:
    """A game plugin (bot/games/*) says how its events read in 牌桌, 撤销 and 历史."""
    _DESCRIBERS[game] = describer


def describe_event(lang: str, event: Mapping[str, Any], game: str = "kawuxing", dealer: str | None = None) -> str:
    """One event in words: `乙 直杠 九筒（点杠 甲），杠上杠第2杠 ×2`, `丙 亮倒`, `甲 自摸`, `荒庄` — for 卡五星, and
    through the game's registered describer for the others (`dealer` is the table's, for 碰胡's 地胡)."""
    describer = _DESCRIBERS.get(game)
    if describer is not None:
        return describer(lang, event, dealer)
    kind = event.get("type")
    if kind == "gang":
        params = {
            "player": event["player"],
            "kind": kong_name(lang, event["kind"]),
            "tile": tile_name(lang, event.get("tile")),
        }
        out = (
            text(lang, "ev_gang_from", source=event["from"], **params)
            if event.get("from")
            else text(lang, "ev_gang", **params)
        )
        chain = int(event.get("chain", 1))
        return out + (text(lang, "ev_chain", chain=chain, factor=2 ** (chain - 1)) if chain > 1 else "")
    if kind == "liangdao":
        return text(lang, "ev_liangdao", player=event["player"])
    if kind == "piao":
        return text(lang, "ev_piao", player=event["player"], amount=event["amount"])
    if kind == "hu":
        method = event.get("method")
        key = {"self_draw": "ev_hu_self", "discard": "ev_hu_discard", "rob_kong": "ev_hu_rob"}.get(str(method))
        return text(lang, key or "ev_hu_self", winner=event.get("winner"), source=event.get("from"))
    if kind == "draw":
        ready = event.get("ready")
        if ready is None:
            return text(lang, "ev_draw")
        return text(lang, "ev_draw_ready", names=joined(lang, ready)) if ready else text(lang, "ev_draw_nobody")
    return str(kind)


def describe_patterns(lang: str, patterns: Sequence[Mapping[str, Any]]) -> str:
    """`卡五星×2、亮倒×2` (an empty list: 屁胡)."""
    if not patterns:
        return text(lang, "pihu")
    return joined(lang, (f"{pattern_name(lang, p['key'])}×{p['multiplier']}" for p in patterns))


def describe_win(
    lang: str, events: Sequence[Mapping[str, Any]], answer: Mapping[str, Any], currency: str = ""
) -> list[str]:
    """The lines saying what a finished hand was: each winner's patterns and multiple, or the draw (with who pays
    whom for 亮倒, from the answer's transfers)."""
    lines = []
    hus = [e for e in events if e.get("type") == "hu"]
    for win in answer.get("hands", []):
        event = next((e for e in hus if e.get("winner") == win["winner"]), {"type": "hu", **win})
        capped = text(lang, "win_capped", raw=win["multiplier"]) if win["multiplier"] != win["final_multiplier"] else ""
        baohu = text(lang, "win_baohu", source=win.get("from")) if win.get("baohu") else ""
        lines.append(
            text(
                lang,
                "win_line",
                what=describe_event(lang, event),
                patterns=describe_patterns(lang, win["patterns"]),
                final=win["final_multiplier"],
                capped=capped,
                baohu=baohu,
            )
        )
    lines += [text(lang, "robbed_kong", player=player) for player in _robbed_kongs(events)]
    if any(e.get("type") == "draw" for e in events):
        kongs = any(e.get("type") == "gang" for e in events)  # "kong money stands" only where there is some
        penalty = _draw_penalty(lang, answer.get("transfers", []), currency)
        lines.append(text(lang, "draw_line" if kongs else "draw_line_no_kongs", penalty=penalty))
    return lines


def _robbed_kongs(events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Whose 蓄杠 a 抢杠胡 robbed (the kong recorded right before it, on that player): the scoring core takes its
    money back, which the changes show and this names."""
    return [
        kong["player"]
        for kong, after in itertools.pairwise(events)
        if kong.get("type") == "gang"
        and kong.get("kind") == "xugang"
        and after.get("type") == "hu"
        and after.get("method") == "rob_kong"
        and after.get("from") == kong.get("player")
    ]


def _draw_penalty(lang: str, transfers: Sequence[Mapping[str, Any]], currency: str) -> str:
    """Who pays whom for 亮倒 on a drawn hand: `；亮倒没胡的赔钱：丙 赔 甲 1元、乙 1元` (nothing when nobody pays)."""
    owed: dict[str, list[str]] = {}
    for transfer in transfers:
        if transfer.get("reason") == "liangdao_penalty":
            paid = f"{transfer['to']} {money(int(transfer['amount']), currency)}"
            owed.setdefault(str(transfer["from"]), []).append(paid)
    if not owed:
        return ""
    payments = [text(lang, "draw_pays", payer=payer, payees=joined(lang, paid)) for payer, paid in owed.items()]
    return text(lang, "draw_penalty_paid", payments=joined(lang, payments, "；"))


#: the separators Chinese text puts between items, as English (ASCII punctuation) writes them
_SEPARATORS_EN = {"、": ", ", "；": "; ", "，": ", "}


def joined(lang: str, parts: Iterable[str], sep: str = "、") -> str:
    """Items as the chat's language lists them: `甲、乙` (or with `；`, `，`) in Chinese, `a, b` / `a; b` in English,
    whose texts use ASCII punctuation only."""
    return (_SEPARATORS_EN[sep] if lang == "en" else sep).join(parts)


def listed(lang: str, parts: Iterable[str], last: str = "and") -> str:
    """People named in a sentence: `甲、乙` in Chinese, `a and b`, `a, b or c` in English (`last`: "and"/"or")."""
    items = list(parts)
    if lang != "en" or len(items) < 2:
        return "、".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def money(amount: int, currency: str = "", *, signed: bool = False) -> str:
    """分 → a display amount: 150 → "1.5元", 200 → "2元"; `signed` adds "+" to positive amounts."""
    whole, cents = divmod(abs(amount), 100)
    shown = str(whole) if cents == 0 else f"{whole}.{cents:02d}".rstrip("0")
    sign = "-" if amount < 0 else ("+" if signed and amount > 0 else "")
    return f"{sign}{shown}{currency if amount else ''}"


def describe_record(lang: str, events: Sequence[Mapping[str, Any]], game: str = "kawuxing") -> str:
    """One record in words, precisely enough to tell it from another: `乙 暗杠 三条`, `甲 自摸 清一色、七对`,
    `甲 胡 乙 点的炮（123p46p789s22s333s 5p）`; a 一炮双响's two wins joined."""
    parts = []
    for event in events:
        words = describe_event(lang, event, game)
        hand = event.get("hand") if game == "kawuxing" and event.get("type") == "hu" else None
        if isinstance(hand, Mapping):
            if hand.get("concealed"):
                tiles = f"{hand['concealed']} {hand.get('win_tile', '')}".strip()
                words += f" ({tiles})" if lang == "en" else f"（{tiles}）"
            else:
                named = [*(hand.get("patterns") or ()), *(hand.get("situations") or ())]
                shown = joined(lang, (pattern_name(lang, key) for key in named)) if named else text(lang, "pihu")
                words += " " + shown
            words += _told_inputs(lang, event)
        parts.append(words)
    return joined(lang, parts, "；")


def _told_inputs(lang: str, win: Mapping[str, Any]) -> str:
    """What a win was told beside its hand (a 买马 tile, 坎/恰/八 counts), as ` 买马 七条`, ` 坎2`: two records
    told apart by these alone are two records (a 改成 that re-turns the horse)."""
    words = [text(lang, f"ev_{key}", n=win[key]) for key in ("kan", "qia", "ba") if win.get(key) is not None]
    if win.get("ma") is not None:
        words.append(text(lang, "ev_ma", tile=tile_name(lang, win["ma"]).strip()))
    return "".join(f" {word}" for word in words)


#: the 卡五星 rule options in English (`规则`, `设置`): each option's name, its Chinese one beside it, and its values
#: as words (yes/no for the others); big hands are named by their patterns' own names
_OPTIONS_EN: dict[str, tuple[str, dict[Any, str]]] = {
    "suits": ("suits (花色)", {"p": "dots (筒)", "s": "bamboos (条)", "m": "characters (万)"}),
    "cap": (
        "cap (封顶)",
        {"8_shuanglong_16": "capped at ×8 (×16 for 双龙七对)", "8": "capped at ×8 (满和)", "none": "no cap"},
    ),
    "pihu_self_draw_only": ("a plain win (屁胡) only by self-draw", {}),
    "draw_liangdao_penalty": (
        "a declared ready hand at a draw (荒庄亮倒赔付)",
        {
            "first": "the first to declare pays each of the other two 1 base stake",
            "each": "each declared player pays each undeclared one 1 base stake (none when all three declared)",
            "none": "nobody pays",
        },
    ),
    "big_hands": ("big hands (大胡)", {}),
    "pindao": (
        "undeclared fours count as 四归一 (频道)",
        {"big_hands": "in big hands only", "full": "always (全频道)", "half": "half (半频道)"},
    ),
    "hidden_fours": ("several 四归一 (四归计数)", {"each": "each counts", "once": "exposed and concealed once each"}),
    "shouzhuayi_pengpenghu": ("手抓一 with 碰碰胡", {True: "yes (×8 in all)", False: "no (手抓一 alone, ×4)"}),
    "kawuxing_multiplier": ("卡五星 multiplier (卡五星番数)", {}),
    "pengpenghu_multiplier": ("碰碰胡 multiplier (碰碰胡番数)", {}),
    "gangshang_multiplier": ("杠上开花/杠上炮 multiplier (杠上花番数)", {}),
    "haidipao": ("a win on the last discard ×2 (海底炮)", {}),
    "liangdao_payer_double": ("a declared loser pays double (亮倒输家加倍)", {}),
    "duiliang_double": ("both declared doubles again (对亮翻番)", {}),
    "chadajiao": ("ready hands paid at a draw (查大叫)", {}),
    "zhigang_money": ("exposed kong bonus (直杠喜钱)", {2: "2 base stakes", 3: "3 base stakes"}),
    "piao": (
        "piao (漂)",
        {
            "none": "no 漂 (不漂)",
            "fixed": "fixed (定漂)",
            "chosen": "chosen each hand (选漂)",
            "first_hand": "fixed at the first hand (首局定漂)",
        },
    ),
    "piao_amount": ("piao per player (漂数)", {}),
    "maima": (
        "horse tile (买马)",
        {
            "none": "no horse tile (不买马)",
            "self_draw": "on a self-draw",
            "liangdao_self_draw": "on a ready (亮倒) self-draw",
        },
    ),
    "shukan": ("kan count (数坎)", {}),
    "paoqiamoba": ("跑恰摸八", {}),
}


def option_name(lang: str, key: str) -> str:
    """A 卡五星 rule option's name: `封顶`, `cap (封顶)`."""
    from ledger.scoring.kawuxing.rules import OPTIONS_BY_KEY

    return _OPTIONS_EN[key][0] if lang == "en" else OPTIONS_BY_KEY[key].zh


def option_value(lang: str, key: str, value: Any) -> str:
    """A 卡五星 rule option's value as words: `筒、条` / `dots (筒), bamboos (条)`, `是` / `yes`, `×2`."""
    from ledger.scoring.kawuxing.rules import OPTIONS_BY_KEY

    if isinstance(value, list | tuple):
        return joined(lang, (option_value(lang, key, one) for one in value))
    if lang != "en":
        return str(OPTIONS_BY_KEY[key].choice_zh.get(value, value))
    if key == "big_hands":
        return pattern_name(lang, value)
    words = _OPTIONS_EN[key][1]
    if value in words:
        return words[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "piao_amount":
        return f"{value} base stake{'s' if value != 1 else ''}"
    return f"×{value}"


def rules_summary(lang: str, game: str, rules: Mapping[str, Any]) -> str:
    """A table's rules in one phrase: `襄阳规则（8 倍封顶，双龙七对 16 倍）` / `preset xiangyang (襄阳), capped at ×8
    (×16 for 双龙七对)`, with overrides named."""
    if game != "kawuxing":
        return str(rules.get("preset", "")) if rules.get("preset") else ""
    from ledger.scoring.kawuxing.rules import OPTIONS_BY_KEY, PRESETS, make_rules

    overrides = {k: v for k, v in rules.items() if k != "preset"}
    preset_key = str(rules.get("preset", "xiangyang"))
    preset = PRESETS.get(preset_key)
    effective = make_rules(preset_key, **overrides).as_json() if preset else {}
    parts: list[str] = []
    if preset is not None:
        cap = option_value(lang, "cap", effective["cap"])
        parts.append(f"preset {preset.key} ({preset.zh}), {cap}" if lang == "en" else f"{preset.zh}规则（{cap}）")
    for key, value in overrides.items():
        if key not in OPTIONS_BY_KEY or key == "cap":
            continue
        name, shown = option_name(lang, key), option_value(lang, key, value)
        parts.append(f"{name}: {shown}" if lang == "en" else f"{name}：{shown}")
    return "，".join(parts) if lang != "en" else "; ".join(parts)
