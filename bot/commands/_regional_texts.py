"""Texts of what regional rules make players tell (漂, 买马, 数坎, 跑恰摸八, 查大叫): the bot's questions, the typed
answers' refusals, and the side stakes shown by name in a hand's reply. Chinese first, English when the chat's
language is `en`."""

from __future__ import annotations

from bot.texts import register

register(
    {
        # -- the questions ----------------------------------------------------------------------------------
        "ask_head": {
            "zh": "第{number}局 {what}：本桌规则还要报这些才能记账",
            "en": "Hand {number}, {what}: the table's rules need this before it is booked",
        },
        "ask_piao": {
            "zh": "{name} 这局漂几？（{how}）",
            "en": "{name}'s piao (漂) this hand? ({how})",
        },
        "ask_piao_first": {
            "zh": "{name} 漂几？首局定漂：第一局报了整桌不变（{how}）",
            "en": "{name}'s piao (漂)? 首局定漂: told at the first hand, kept for the table ({how})",
        },
        # how a 漂 is answered: by its player (or an admin), or for a guest's seat by anyone seated (`may_tell_piao`)
        "ask_piao_own": {
            "zh": "{name} 自己点，或发：漂 2",
            "en": "{name} taps it, or sends: piao 2",
        },
        "ask_piao_guest": {
            "zh": "或发：漂 @{name} 2",
            "en": "or send: piao @{name} 2",
        },
        "ask_kan": {
            "zh": "{name} 几坎？（手里的暗刻和杠各 1 坎，别人点炮凑成的刻子不算；或发：坎 2）",
            "en": "How many kan (坎) for {name}? (each concealed pung or kong; not a pung a discard completed; "
            "or send: kan 2)",
        },
        "ask_qia": {
            "zh": "{name} 几恰？（杠和手里三张、四张一样的牌各 1 恰；或发：恰 2）",
            "en": "How many 恰 for {name}? (each kong and each tile held three or four times; or send: qia 2)",
        },
        "ask_ba": {
            "zh": "{name} 几八？（一门牌 8 张起，每多一张 1 八，字牌算一门；或发：八 1）",
            "en": "How many 八 for {name}? (each tile past seven in one suit, dragons as one; or send: ba 1)",
        },
        "ask_ma": {
            "zh": "{name} 自摸买马：翻出的马牌是？（或发：买马 7s）",
            "en": "{name} self-drew and buys a horse: which tile was turned? (or send: buy horse 7s)",
        },
        "ask_ready_pick": {
            "zh": "查大叫：荒庄时谁听牌了？点选（亮倒的一定听牌），再点「下一步」；"
            "也可以直接发：听 @乙 123p456p789s11s55s",
            "en": "Ready hands at the draw (查大叫): who was ready (听牌)? Tap them (whoever declared ready was), then "
            "Next; or send: ready hand @b 123p456p789s11s55s",
        },
        "ask_ready_patterns": {
            "zh": "{name} 听的牌最大能胡什么？点选番型（不选就是屁胡），再点「下一步」；"
            "也可以发：听 @{name} 和 13 张牌",
            "en": "The biggest win {name} waited on? Tap the patterns (none: a plain win), then Next; or send: "
            "ready hand @{name} and the 13 tiles",
        },
        "btn_next": {"zh": "下一步 ▶", "en": "Next ▶"},
        # -- a record waiting for its answers, when the table would end or 撤销 comes (regional.refuse_while_waiting)
        "waiting_record": {
            "zh": "还不能{action}：第{number}局 {what} 还在等 {waits}，还没记账。先回答上面的问题把它记下；"
            "不记了就由 {who} 发「撤销」去掉；然后再{action}。",
            "en": "Cannot {action} yet: hand {number}, {what}, still waits for {waits} and is not booked. Answer the "
            "question above to book it; to drop it, {who} sends undo; then {action}.",
        },
        "waiting_record_first": {
            "zh": "{refused}：第{number}局已经报了 {what}，还在等 {waits}，还没记账，这一条会改了这一局。那条没错就先"
            "回答上面的问题把它记下；那条记错了，或这一条在它之前（胡之前的杠、亮倒），由 {who} 发「撤销」去掉它，"
            "再按先后记。",
            "en": "{refused}: hand {number} already has {what}, still waiting for {waits} and not booked; this "
            "line would change that hand. If it is right, answer the question above to book it; if it is wrong, or "
            "this line came before it (a kong, a 亮倒 before the win), {who} sends undo to drop it; then record "
            "them in their order.",
        },
        "waiting_record_same": {
            "zh": "第{number}局 {what} 已经报了，不用再报：还在等 {waits}，回答上面的问题就记下了。",
            "en": "Hand {number}, {what}, is told already, no need to again: it waits for {waits}; answer the "
            "question above and it is booked.",
        },
        "waiting_record_double_win": {
            "zh": "{refused}：第{number}局已经报了 {what}，还在等 {waits}，还没记账。同一张炮两家胡是一炮双响："
            "由 {who} 发「撤销」去掉它，再一起记：一炮双响 @{first} 番型 @{second} 番型 点 @{discarder}；"
            "那条没错、这条是记错了，就回答上面的问题。",
            "en": "{refused}: hand {number} already has {what}, still waiting for {waits} and not booked. Two "
            "wins on one discard are a double win: {who} sends undo to drop it, then record both: double win "
            "@{first} patterns @{second} patterns discard @{discarder}; if that one is right and this one wrong, "
            "answer the question above.",
        },
        "waiting_not_recorded": {"zh": "没有记", "en": "Not recorded"},
        "waiting_not_edited": {
            "zh": "没有按改后的消息重记（原来记的照旧）",
            "en": "Not changed by the edit (what the message recorded stands)",
        },
        "waiting_flow_first_hu": {
            "zh": "{refused}：{starter} 正在点按钮记第{number}局 {player} 胡，还没确认，还没记账，这一条会改了这一局。"
            "那个胡没错就先点完按钮、点「确认」把它记下；那个胡记错了，或这一条在它之前（胡之前的杠、亮倒），由 {who} "
            "点它的「取消」，再按先后记。",
            "en": "{refused}: {starter} is recording hand {number}'s win by {player} with the buttons; it is not "
            "confirmed and not booked, and this line would change that hand. If that win is right, finish its "
            "buttons and press Confirm to book it; if it is wrong, or this line came before it (a kong, a ready (亮倒) "
            "before the win), {who} presses its Cancel; then record them in their order.",
        },
        "waiting_flow_first_gang": {
            "zh": "{refused}：{starter} 正在点按钮记第{number}局 {player} 的杠，还没确认，还没记账；"
            "这一条会结束这一局，杠就记不上了。先点「确认」把杠记下，再记这一条；杠记错了就由 {who} 点它的「取消」。",
            "en": "{refused}: {starter} is recording hand {number}'s kong by {player} with the buttons; it is not "
            "confirmed and not booked, and this line would end the hand before it. Press Confirm to book the kong, "
            "then record this; if the kong is wrong, {who} presses its Cancel.",
        },
        "waiting_edit_first": {
            "zh": "没有记：第{number}局改后的记录（{what}）还在等 {waits}，还没改好。先回答上面的问题，再记这一条；"
            "不改了就由 {who} 发「撤销」去掉它（第{number}局原来记的照旧）。",
            "en": "Not recorded: the edit of hand {number} ({what}) still waits for {waits} and is not made yet. "
            "Answer the question above, then record this; to leave the hand as it was, {who} sends undo.",
        },
        "waiting_edit_asks": {
            "zh": "没有按改后的消息重记第{edited}局（原来记的照旧）：改了还要报一些东西，可第{number}局 {what} "
            "还在等 {waits}，还没记账。先回答上面的问题把它记下，再改一次这条消息；或者把要报的写进这条消息里"
            "（例如 买马 7s、坎2）。",
            "en": "Hand {edited} not changed by the edit (what the message recorded stands): the edit needs more told, "
            "but hand {number}, {what}, still waits for {waits} and is not booked. Answer the question above to "
            "book it, then edit the message again; or put what is needed in the message (buy horse 7s, kan 2).",
        },
        "waiting_record_not_yours": {
            "zh": "第{number}局 {what} 还在等 {waits}，还没记账：要去掉它，请 {who} 发「撤销」。",
            "en": "Hand {number}, {what}, still waits for {waits} and is not booked: {who} may send undo to drop it.",
        },
        "waiting_cancel_not_yours": {
            "zh": "只有 {who} 能取消这一局的记录（不记就没有这笔钱）。",
            "en": "Only {who} may cancel this record (dropped, its money is never booked).",
        },
        "waiting_record_dropped": {
            "zh": "已撤销：第{number}局 {what}（还在等 {waits}，没有记过账）。这一局接着打。",
            "en": "Undone: hand {number}, {what} (it waited for {waits} and was never booked). The hand goes on.",
        },
        "table_waiting_record": {
            "zh": "还没记账：第{number}局 {what} 还在等 {waits}（回答上面的问题就记下）。",
            "en": "Not booked yet: hand {number}, {what}, still waits for {waits} (answer the question above to book "
            "it).",
        },
        "waiting_input_of": {"zh": "{name} 的{what}", "en": "{name}'s {what}"},
        "waiting_flow_hu": {
            "zh": "还不能{action}：{starter} 正在点按钮记第{number}局 {player} 胡，还没确认，还没记账。"
            "先点「确认」把它记下；不记了就由 {who} 点它的「取消」；然后再{action}。",
            "en": "Cannot {action} yet: {starter} is recording hand {number}'s win by {player} with the buttons; it is "
            "not confirmed and not booked. Press Confirm to book it; to drop it, {who} presses its Cancel; then "
            "{action}.",
        },
        "waiting_flow_gang": {
            "zh": "还不能{action}：{starter} 正在点按钮记第{number}局 {player} 的杠，还没确认，还没记账。"
            "先点「确认」把它记下；不记了就由 {who} 点它的「取消」；然后再{action}。",
            "en": "Cannot {action} yet: {starter} is recording hand {number}'s kong by {player} with the buttons; it "
            "is not confirmed and not booked. Press Confirm to book it; to drop it, {who} presses its Cancel; then "
            "{action}.",
        },
        "waiting_who": {"zh": "{names} 或管理员", "en": "{names} or an admin"},
        "waiting_input_answers": {"zh": "回答", "en": "answers"},
        "waiting_action_settle": {"zh": "结算", "en": "settle"},
        "waiting_action_open": {"zh": "开新桌", "en": "open a new table"},
        "waiting_action_leave": {"zh": "退桌", "en": "leave the table"},
        "btn_nobody_ready": {"zh": "没人听牌", "en": "Nobody was ready"},
        "ask_expired": {
            "zh": "这一局已经记完了，这个问题作废（没有记账）。",
            "en": "That hand is already recorded; this question has expired (nothing booked).",
        },
        "ask_taken_back": {
            "zh": "这一局的记录已经撤销（现在打的是第{now}局），这个问题作废（没有记账）。",
            "en": "The record before this hand was taken back (hand {now} is being played); this question has "
            "expired (nothing booked).",
        },
        "input_piao": {"zh": "漂", "en": "piao (漂)"},
        "input_kan": {"zh": "坎数", "en": "kan (坎) count"},
        "input_qia": {"zh": "恰数", "en": "恰 count"},
        "input_ba": {"zh": "八数", "en": "八 count"},
        "input_ma": {"zh": "马牌", "en": "the horse tile"},
        "input_ready": {"zh": "听牌的手牌", "en": "the ready hands"},
        # -- typed answers and 漂 -----------------------------------------------------------------------------
        "nothing_asked_kan": {
            "zh": "现在没有在等坎数。坎数写在胡牌那一行：胡 清一色 自摸 坎2（写牌就不用报，我来数）",
            "en": "No kan (坎) count is awaited. Put it in the win's line: win one suit self-draw kan 2 "
            "(tiles need none: I count)",
        },
        "nothing_asked_qiaba": {
            "zh": "现在没有在等恰数、八数。写在胡牌那一行：胡 清一色 自摸 恰1 八2（写牌就不用报）",
            "en": "No 恰/八 count is awaited. Put them in the win's line: win one suit self-draw qia 1 ba 2 "
            "(tiles need none)",
        },
        "nothing_asked_ma": {
            "zh": "现在没有在等马牌。买马写在自摸那一行：胡 清一色 自摸 买马 7s，或等我问",
            "en": "No horse tile is awaited. Put it in the self-draw's line: win one suit self-draw buy horse 7s, "
            "or wait to be asked",
        },
        "nothing_asked_ready": {
            "zh": "现在没有在等听牌的手牌。荒庄时一起写：荒庄 听 @乙 123p456p789s11s55s，或 荒庄 没人听",
            "en": "No ready hands are awaited. Give them with the draw: draw ready hand @b 123p456p789s11s55s, "
            "or draw nobody ready",
        },
        "not_asked_here": {
            "zh": "本桌规则不用报{what}。",
            "en": "This table's rules need no {what}.",
        },
        "count_from_tiles": {
            "zh": "写了牌就不用报{what}：我按手牌数。要自己报就只写番型，例如 胡 清一色 自摸 恰1 八2。",
            "en": "A hand given by its tiles needs no {what}: I count it. To tell it, name the patterns instead, "
            "e.g. win one suit self-draw qia 1 ba 2.",
        },
        "count_impossible": {
            "zh": "{pattern}的{what}不可能是 {value}：七对只有四张一样的才算（{pattern}是 {allowed}）。",
            "en": "A {pattern}'s {what} cannot be {value}: only a four among the pairs counts ({allowed}).",
        },
        "count_not_asked": {
            "zh": "{what}现在不用报（没在问，或胡牌那一行已经写了），这条回答都没记：只报还在问的数。",
            "en": "No {what} is asked now (not played, or given with the win); nothing of this answer is taken: "
            "answer only the counts asked.",
        },
        "ma_self_draw_only": {
            "zh": "只有自摸才买马，这手不用写马牌。",
            "en": "Only a self-draw buys a horse; this win takes no horse tile.",
        },
        "piao_none": {"zh": "本桌不漂，不用报漂。", "en": "This table plays no piao (漂)."},
        "piao_fixed": {
            "zh": "本桌定漂，每人 {amount} 倍底金，不用报。",
            "en": "This table plays a fixed piao (漂) of {amount} base stakes each; nothing to tell.",
        },
        "piao_not_yours": {
            "zh": "没有记：{name} 的漂要 TA 自己报（漂 2），或者管理员报（漂 @{name} 2）。",
            "en": "Not recorded: {name}'s piao (漂) is theirs to tell (piao 2), or an admin's (piao @{name} 2).",
        },
        "piao_first_hand_set": {
            "zh": "首局定漂：漂在第一局已经定了（{piao}），整桌不变。",
            "en": "首局定漂: the piao (漂) was set at the first hand ({piao}) and stays for the table.",
        },
        # -- reading --------------------------------------------------------------------------------------------
        "count_too_big": {
            "zh": "「{word}」太多了：最多 {most}。",
            "en": "“{word}” is too many: at most {most}.",
        },
        "two_counts": {"zh": "「{word}」和前面写的数不一样。", "en": "“{word}” contradicts the count given before."},
        "count_missing": {"zh": "要写几个，例如：坎 2", "en": "Say how many, e.g. kan 2"},
        "ma_tile_missing": {
            "zh": "「{word}」后面写翻出的那张牌，例如 买马 7s",
            "en": "Which tile after “{word}”? e.g. buy horse 7s",
        },
        "ma_wind": {
            "zh": "「{word}」不是卡五星的牌：卡五星没有东南西北风。马牌是本桌两门的 1 到 9，或 白 发 中，例如 买马 7s",
            "en": "“{word}” is no Ka Wu Xing (卡五星) tile: it has no winds. The horse is 1–9 of the table's two "
            "suits, or a white, green or red dragon, e.g. buy horse 7s",
        },
        "ma_not_a_tile": {
            "zh": "「{word}」不是一张牌：数牌是 1 到 9，字牌只有 白 发 中（5z 6z 7z），例如 买马 7s",
            "en": "“{word}” is not a tile: suited tiles are 1–9, the honours only the white, green and red dragons "
            "(5z 6z 7z), e.g. buy horse 7s",
        },
        "ma_fifth_copy": {
            "zh": "马牌「{tile}」不对：{name} 的手牌里已经有四张{tile}，翻不出第五张。",
            "en": "The horse tile {tile} cannot be: {name}'s hand already holds all four.",
        },
        "ma_fifth_copy_kong": {
            "zh": "马牌「{tile}」不对：{name} 杠了四张{tile}，翻不出第五张。",
            "en": "The horse tile {tile} cannot be: {name} made a kong of all four.",
        },
        "ma_one_tile": {
            "zh": "「{word}」是好几张牌：买马只翻一张，例如 买马 7s",
            "en": "“{word}” is several tiles; one horse tile is turned, e.g. buy horse 7s",
        },
        "nobody_ready_alone": {
            "zh": "说了没人听牌，就不用再写「{word}」。",
            "en": "Nobody was ready: “{word}” has no place then.",
        },
        "ready_player_missing": {
            "zh": "你不在这桌上，请写出是谁听牌：听 @乙 123p456p789s11s55s",
            "en": "You are not seated; say who was ready: ready hand @b 123p456p789s11s55s",
        },
        "ready_twice": {"zh": "{name} 写了两次。", "en": "{name} is named twice."},
        "ready_hand_missing": {
            "zh": "{name} 听的什么牌？写 13 张牌（听 @{name} 123p456p789s11s55s）或番型（听 @{name} 清一色）",
            "en": "What was {name} waiting with? The 13 tiles (ready hand @{name} 123p456p789s11s55s) or "
            "the patterns (ready hand @{name} one suit)",
        },
        "piao_range": {
            "zh": "漂「{word}」不对：漂是 0 到 {most} 的整数。",
            "en": "piao (漂) “{word}” is not right: a whole number from 0 to {most}.",
        },
        "piao_twice": {"zh": "{name} 的漂写了两次。", "en": "{name}'s piao (漂) is given twice."},
        "piao_amount_missing": {
            "zh": "漂几？例如：漂 2（自己的）或 漂 @乙 1",
            "en": "How much piao (漂)? e.g. piao 2 (yours) or piao @b 1",
        },
        "pattern_once": {
            "zh": "「{word}」只能算一次。能报几个的只有明四归一、暗四归一（例如 2个暗四归一）。",
            "en": "“{word}” counts once. Only 明四归一 and 暗四归一 can be named more than once (e.g. 2个暗四归一).",
        },
        "fours_too_many": {
            "zh": "四归一最多 {most} 个：一手牌最多有 {most} 个四张。",
            "en": "At most {most} 四归一: a hand holds at most {most} fours.",
        },
        # -- what a hand's reply shows -----------------------------------------------------------------------
        "payer_multiple": {
            "zh": "{name} 亮倒了却输（亮倒输家加倍）：按 ×{multiple} 付",
            "en": "{name} had declared ready (亮倒) and pays ×{multiple} (a declared loser pays double)",
        },
        "stake_piao": {"zh": "漂：{payments}", "en": "piao (漂): {payments}"},
        "stake_kan": {"zh": "数坎 {kan} 坎：{payments}", "en": "kan count (数坎) {kan}: {payments}"},
        "stake_ma": {"zh": "买马 {tile}（{points}）：{payments}", "en": "horse (买马) {tile} ({points}): {payments}"},
        "stake_pqmb": {
            "zh": "跑恰摸八（跑{pao} 恰{qia} 摸{mo} 八{ba}）：{payments}",
            "en": "跑恰摸八 (跑 {pao}, 恰 {qia}, 摸 {mo}, 八 {ba}): {payments}",
        },
        "stake_payment": {"zh": "{payer}→{payee} {amount}", "en": "{payer}→{payee} {amount}"},
        "chadajiao_head": {"zh": "查大叫：{hands}", "en": "查大叫: {hands}"},
        "chadajiao_nobody": {"zh": "查大叫：没人听牌", "en": "查大叫: nobody was ready"},
        "chadajiao_hand": {
            "zh": "{name} 听{waits} {patterns} → ×{final}",
            "en": "{name} waits{waits} {patterns} → ×{final}",
        },
        "chadajiao_payments": {"zh": "查大叫赔：{payments}", "en": "查大叫 paid: {payments}"},
        # -- 牌桌 and 规则 ------------------------------------------------------------------------------------------
        "table_piao_fixed": {"zh": "漂：定漂，每人 {amount}", "en": "piao (漂): fixed, {amount} each"},
        "table_piao_chosen": {
            "zh": "本局漂：{piao}（发「漂 2」报自己的，没报的胡牌时我会问）",
            "en": "piao (漂) this hand: {piao} (send piao 2 for yours; I ask at the end for any not told)",
        },
        "table_piao_first": {
            "zh": "漂（首局定漂）：{piao}",
            "en": "piao (漂, 首局定漂): {piao}",
        },
        "piao_untold": {"zh": "未报", "en": "not told"},
        "rules_reports_head": {
            "zh": "每局要报（没报的我会问，点按钮或打字回答）：",
            "en": "To report each hand (anything not told I ask, answered by button or typed):",
        },
        "report_line": {"zh": "· {name}：{asks}，例如 {how}", "en": "· {name}: {asks}, e.g. {how}"},
        "report_piao_chosen": {"zh": "漂 2 ｜ 漂 @乙 1", "en": "piao 2 | piao @b 1"},
        "report_piao_first_hand": {"zh": "第一局 漂 2（之后不用再报）", "en": "piao 2 at the first hand (then never)"},
        "report_shukan": {
            "zh": "胡 清一色 自摸 坎2（写牌的我来数）",
            "en": "win one suit self-draw kan 2 (tiles are counted)",
        },
        "report_paoqiamoba": {
            "zh": "胡 清一色 自摸 恰1 八2（写牌的我来数）",
            "en": "win one suit self-draw qia 1 ba 2 (tiles are counted)",
        },
        "report_maima": {"zh": "胡 清一色 自摸 买马 7s", "en": "win one suit self-draw buy horse 7s"},
        "report_chadajiao": {
            "zh": "荒庄 听 @乙 123p456p789s11s55s @丙 清一色 ｜ 荒庄 没人听",
            "en": "draw ready hand @b 123p456p789s11s55s @c one suit | draw nobody ready",
        },
        "table_reports": {"zh": "本桌要报：{what}", "en": "This table reports: {what}"},
    }
)
