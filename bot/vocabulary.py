"""The words players type, as data: command synonyms, pattern spellings, keywords and tile nicknames.

One table per kind of word; the first spelling of each entry is the canonical one (the form help texts and
suggestions show). Spellings are simplified Chinese or lowercase Latin: the reader (`bot.grammar`) folds what a
player types (full-width, traditional characters, upper case) before it looks a word up here, so `龍七對`,
`暗槓` and `ＺＩＭＯ` need no entries of their own. To teach the bot a new word, add it to the right tuple.
"""

from __future__ import annotations

from collections.abc import Mapping

#: the last hand, asked as players ask it (`上一局`): 历史 of one hand
LAST_HAND_ZH = ("上一局", "上一把", "上局", "上把")
LAST_HAND_WORDS = (*LAST_HAND_ZH, "last hand")

#: the particles a question about the books may end with, said to the table (`余额呢`, `我欠谁啊`; not English)
LOOKED_UP_ENDINGS = ("呢", "啊", "呀")
#: what a question about one's own money may end with: nothing, or one of those
_ASKED_ENDINGS = ("", *LOOKED_UP_ENDINGS)

#: `who's` as English speakers type it, apostrophe or not
WHO_IS_EN = ("who's", "who’s", "whos", "who is")
#: who is up tonight, asked of the table (`今晚谁赢了`, `今天谁赢最多`, `谁输得最多呢`, `现在谁赢`, `谁是大赢家`,
#: `who won tonight`): the night's standings, as 余额
STANDING_WORDS = (
    *(
        f"{when}谁{result}{how}{ending}"
        for when in ("", "今晚", "今天")
        for result in ("赢", "输")
        for how in ("了", "最多", "得最多", "的最多")
        for ending in _ASKED_ENDINGS
    ),
    *(
        f"{when}{who}{ending}"
        for when in ("", "现在", "今晚")
        for who in ("谁赢", "谁赢了", "谁是大赢家")
        for ending in _ASKED_ENDINGS
    ),
    *("who won", "who won tonight", "who is winning", "who's winning", "score"),
    # who is up (money, as `am i up` is the sender's own) or down: the standings, not whose turn (`who's next`)
    *(f"{who} {side}" for who in WHO_IS_EN for side in ("up", "down", "ahead", "losing")),
    *("who’s winning", "whos winning"),
    # the night's standings as English speakers ask (`what's the score`, `standings`, `balances`)
    *("scores", "the score", "standings", "the standings", "current standings", "balances", "totals"),
    *(f"{what} the score" for what in ("what's", "what’s", "whats", "what is")),
)
#: the night before, asked the next day: who won (`昨晚谁赢了`, `昨天谁输得最多`), the sender's own result (`我昨晚输了
#:多少`, `昨晚我赢了几块`) and its summary (`昨晚战报`): 统计 and 战报 of the last night before today's
YESTERDAY_WORDS = ("昨晚", "昨天", "昨天晚上", "昨夜")
YESTERDAY_STANDING_WORDS = tuple(
    f"{when}谁{result}{how}{ending}"
    for when in YESTERDAY_WORDS
    for result in ("赢", "输")
    for how in ("了", "最多", "得最多", "的最多", "")
    for ending in _ASKED_ENDINGS
)
YESTERDAY_OWN_WORDS = tuple(
    f"{first}{result}{done}{much}{money}{ending}"
    for when in YESTERDAY_WORDS
    for first in (f"我{when}", f"{when}我")
    for result in ("输", "赢")
    for done in ("了", "")
    for much in ("多少", "几块")
    for money in ("", "钱")
    for ending in _ASKED_ENDINGS
)
YESTERDAY_REPORT_WORDS = tuple(f"{when}{of}战报" for when in YESTERDAY_WORDS for of in ("", "的"))
#: who owes whom, asked in the first person: only what the sender owes (`我欠谁`), only what is owed to them
_OWING = (
    *("我欠谁", "我欠谁钱", "我欠多少", "我欠多少钱", "我还欠多少", "我还欠谁"),
    *("还欠多少", "还欠谁", "我该给谁", "我该给谁钱", "who do i owe", "how much do i owe"),
    *("what i owe", "what do i owe"),
    # still, money, 要 for 该 (`我还欠谁钱`, `我还欠多少钱`, `我要给谁钱`, `欠谁钱`)
    *("我还欠谁钱", "我还欠多少钱", "还欠谁钱", "我要给谁", "我要给谁钱", "欠谁钱"),
    *(f"who {do} i {pay}" for do in ("do", "should", "must") for pay in ("pay", "need to pay", "have to pay")),
    # what is still to pay, said as players say it after paying part (`还差多少`, `我还要给多少`)
    *(
        f"{who}{still}{much}{money}"
        for who in ("我", "")
        for still in ("还差", "还要给", "还得给")
        for much in ("多少", "几块")
        for money in ("", "钱")
    ),
)
_OWED = ("谁欠我", "谁欠我钱", "who owes me", "what i'm owed", "what am i owed")

#: the whole debt said where a payment's amount goes (`paid @tom all`, `付 @tom 全部`): no amount — the line without
#: one is the whole of it (`paid @tom`), which the refusal says
PAY_ALL_WORDS = frozenset({"all", "everything", "全部", "全额", "所有"})

#: the group's rules asked in English (`what are the rules`): `rules`
RULES_ASKED_EN = ("what are the rules", "what're the rules", "what are the house rules")
#: the sender's own stats asked in English (`my stats`): `stats me`
MY_STATS_EN = ("my stats",)

#: 漂 0 said as players say it (`不漂`, `我不漂`): the sender's 漂 is 0 (`漂 @乙 0` for another: `不漂 @乙`)
NO_PIAO_WORDS = ("不漂", "我不漂", "不漂了", "我不漂了")
#: one's own 漂 said as players say it (`我漂1`, `我漂 1`, `我漂一`): `漂 1`
MY_PIAO_WORDS = ("我漂",)

#: the sender's own result, asked with 几块, a closing 了 or the time too (`我输了几块`, `我现在输几块了`,
#: `我输多少钱了`, `我输了多少了`, `我今天输了几块钱`)
_OWN_RESULT = (
    *dict.fromkeys(
        f"我{now}{result}{done}{much}{money}{after}"
        for now in ("", "现在", "今晚", "今天", "一共", "总共")
        for result in ("输", "赢")
        for done in ("", "了")
        for much in ("多少", "几块")
        for money in ("", "钱")
        for after in ("", "了")
    ),
    *("how much did i lose", "how much did i win", "how much have i lost", "how much have i won"),
    *(
        f"{what} did i {result}{when}"
        for what in ("what", "how much")
        for result in ("win", "lose")
        for when in (" tonight", " today")
    ),
    *("what did i win", "what did i lose"),
    *("how am i doing", "how'm i doing", "how much am i up", "how much am i down", "am i up", "am i down"),
)

#: 余额 asked in the first person (`我欠谁`, `谁欠我钱`): the sender's own line and open debts, as `余额 我`
SELF_BALANCE_WORDS = tuple(
    f"{word}{ending}"
    for word in (
        "我多少钱",
        "我多少",
        "我的账",
        "my balance",
        *("what's my balance", "whats my balance", "what is my balance", "where do i stand", "where am i"),
        "我的余额",
        "我输赢",
        *(f"我{result}{done}多少{money}" for result in ("输", "赢") for done in ("", "了") for money in ("", "钱")),
        "我输多少了",
        "我赢多少了",
        "我现在多少",
        "我现在多少钱",
        *(f"{who}{when}{result}了多少" for who in ("我", "") for when in ("今晚", "今天") for result in ("输", "赢")),
        # the time said before or after 我 (`今晚我输多少了`, `我今晚赢了多少`)
        *(
            f"{first}{result}{done}多少{after}"
            for when in ("今晚", "今天", "一共", "总共")
            for first in (f"{when}我", f"我{when}")
            for result in ("输", "赢")
            for done, after in (("了", ""), ("", "了"), ("", ""))
        ),
        *(f"我现在{result}{done}多少" for result in ("输", "赢") for done in ("", "了")),
        *_OWN_RESULT,
        *_OWING,
        *_OWED,
    )
    for ending in _ASKED_ENDINGS
    if not (ending and word.isascii())
)

#: 未结 as 余额's header says it in English ("owed now (未结)"): every open debt, as `unpaid`; a plain word, so
#: alone only
OWED_NOW_EN = ("owed", "owed now")
#: who still owes money, asked of the whole group (`谁还没付`, `谁还欠钱呢`): every open debt, pair by pair
UNPAID_WORDS = tuple(
    f"{word}{ending}"
    for word in (
        "未结",
        "欠账",
        *(
            f"{who}{still}没{paid}"
            for who in ("谁", "还有谁")
            for still in ("还", "")
            for paid in ("付", "给钱", "付钱")
        ),
        *(f"谁{still}欠钱" for still in ("还", "")),
        *("who owes", "who has not paid", "who hasn't paid", "unpaid", *OWED_NOW_EN),
        *("who still owes", "who still owes money", "who owes money", "who hasn't paid yet"),
    )
    for ending in _ASKED_ENDINGS
    if not (ending and word.isascii())
)

#: `from` as English speakers also say it before the discarder (`I won seven pairs off tom`, 碰胡's `I won off ben`)
FROM_SAID_EN = ("off",)
#: the same in English (`I dealt in to amy, kawuxing`): said of other things too, so answered only when it reads cleanly
DEALT_IN_EN = ("i dealt in to", "i dealt into", "i fed")
#: a win told by the player who dealt in (`我点炮了 @小李 清一色`): the win of the one named, on the sender's discard
DEALT_IN_WORDS = ("我点炮", "我点炮了", "我放炮", "我放炮了", "我点的炮", *DEALT_IN_EN)

#: of those, the ones asking only what the sender owes (`我欠谁`), and only what is owed to the sender (`谁欠我钱`)
OWING_WORDS = frozenset(w for w in SELF_BALANCE_WORDS if w.rstrip("".join(_ASKED_ENDINGS)) in _OWING)
OWED_WORDS = frozenset(w for w in SELF_BALANCE_WORDS if w.rstrip("".join(_ASKED_ENDINGS)) in _OWED)

#: a kong told as done or in the first person (`暗杠了`, `我补杠了 4s`) is the kong its kind word says (`我杠了 9p`:
#: 杠's, which asks which kong); the first person, like a 亮倒's (`我亮倒了`), records the sender's own, never
#: someone else's
_KONG_KINDS_SAID = ("杠", "暗杠", "蓄杠", "补杠", "加杠", "直杠", "明杠")
KONGS_SAID: dict[str, str] = {
    said: kind
    for kind in _KONG_KINDS_SAID
    for said in (f"{kind}了", f"{kind}啦", f"我{kind}", f"我{kind}了", f"我{kind}啦")
}
#: a kong's tile told by counting it, right before it (`暗杠三个八筒`: had three, drew the fourth; `暗杠 四个红中`)
KONG_TILE_COUNTS = ("三个", "四个", "3个", "4个")
#: a kong in English as the bot's replies name its kind (`concealed kong 7z`, `exposed kong 9p from @b`)
KONG_NAMES_EN = {"angang": "concealed kong", "xugang": "added kong", "zhigang": "exposed kong"}
KONGS_SAID |= dict(zip(KONG_NAMES_EN.values(), ("暗杠", "蓄杠", "直杠"), strict=True))
#: a pung's fourth tile konged, told as it happened (`碰了又杠 4s`): 蓄杠
KONGS_SAID |= dict.fromkeys(
    (said for told in ("碰了又杠", "碰了再杠", "碰完又杠", "碰了又杠了") for said in (told, f"我{told}")), "蓄杠"
)
#: a kong told as done in English (`I konged 9p from ben`, `konged 3s`): 杠's, its kind read from what follows (`from`
#: is 直杠), the sender's own when said with `I`
KONGED_EN = {"i konged": "杠", "i just konged": "杠", "konged": "杠"}
KONGS_SAID |= KONGED_EN
#: 亮倒 in English in the first person (`I'm ready`), as `ready` is: alone or before mentions only
#: (`PLAIN_ENGLISH_COMMAND_WORDS`)
READY_EN = ("i'm ready", "i’m ready", "im ready", "i am ready")
FIRST_PERSON_LIANGDAO_WORDS = (
    *("我亮倒", "我亮倒了", "我亮倒啦", "我报听", "我报听了", "我报听啦"),
    *("我亮", "我亮了", "我亮啦"),  # 亮倒 said short
    *("我也亮倒", "我也亮倒了", "我也亮", "我也亮了", "我也报听"),  # after someone else's
    *READY_EN,
)
#: 亮倒 said short (`亮了`): also said of other things, so a line of it the bot would refuse stays unanswered
LIANGDAO_SHORT_WORDS = ("亮了", "亮啦")
FIRST_PERSON_RECORD_WORDS = frozenset(
    {*(w for w in KONGS_SAID if w.startswith(("我", "i "))), *FIRST_PERSON_LIANGDAO_WORDS}
)

#: command words people also say to each other (`记错了，不好意思`): a line of theirs the bot would refuse stays
#: unanswered, as a line read without its command word does (`bot.grammar.unprompted`)
#: what players say when a record is wrong, before what it should be (`错了 是七对`): a correction only when the rest
#: reads as one (bot/commands/correct.py), chat otherwise
#: what a record should be said before it (`应该是清一色`): also the word a correction said another way is read as
SHOULD_BE = "应该是"
#: "recorded wrong": an undo word (`记错了` alone is 撤销), and before what the record should be a correction
RECORDED_WRONG = "记错了"
CORRECTION_CHATTY_WORDS = (
    *("错了", "搞错了", "写错了", "不对", "错了错了", "搞错了搞错了", "写错了写错了", "不对不对"),
    *("打错了", "打错了打错了", "弄错了", SHOULD_BE),
)
#: the same in English (`wrong, it was self drawn`, `it was seven pairs`), with or without the comma
CORRECTION_CHATTY_EN = (
    "it was",
    "it should be",
    *(f"{no}{comma} it was" for no in ("wrong", "no", "nope") for comma in (",", "")),
)
#: 改成 in English (`change to seven pairs self-draw`, `correct it to seven pairs`): asked about as 改成 is; the
#: chatty ones beside them
CORRECTION_EN = ("change to", "change it to", "correct to", "correct it to", *CORRECTION_CHATTY_EN)
#: the horse (买马) said wrong, before what it is (`马买错了 是8s`, `wrong horse, it was 8s`, `change the horse to
#: 8s`): the line is `改成 买马 8s`; the chatty ones (all but `change the horse to`) act only when it reads cleanly
MA_WRONG_WORDS = ("马买错了", "马错了", "马牌错了", "马翻错了", "马记错了", "马写错了", "马不对", "马牌不对")
MA_WRONG_EN = ("wrong horse", "the horse was", "horse was", "the horse should be", "horse should be", "the horse is")
MA_CHANGE_EN = ("change the horse to", "change horse to", "correct the horse to", "correct horse to")
#: what a correction says the horse is after 改成 or 错了 (`改成 马 8s`, `不对 马是8s`, `马买错了 应该是8s`): read as
#: `买马 8s` there (马 alone, `马上`, is no horse anywhere else)
MA_IS_SAID = ("马牌应该是", "马应该是", "马牌是", "马是", "应该是", "马牌", "马", "是")
#: a win's count said wrong, before what it is (`坎错了 是2`, `恰不对 应该是1`, `wrong kan, it was 2`): the line is
#: `改成 坎2`, acted on when a number follows; each word with the count word it corrects
COUNT_WRONG_WORDS: dict[str, str] = {
    **{
        f"{count}{wrong}": said
        for count, said in (("坎数", "坎"), ("数坎", "坎"), ("坎", "坎"), ("恰", "恰"), ("八", "八"))
        for wrong in ("错了", "记错了", "写错了", "报错了", "数错了", "不对")
    },
    **{
        f"{lead}{count}{after}": count
        for count in ("kan", "qia", "ba")
        for lead, after in (("wrong ", ""), ("the ", " was"), ("", " was"), ("the ", " should be"), ("", " should be"))
    },
}
#: 漂 said wrong, before what it is (`漂错了 老王漂2`): the line is `改成 漂 老王 2`, acted on when it reads cleanly
PIAO_WRONG_WORDS = ("漂错了", "漂记错了", "漂报错了", "漂写错了", "漂不对")
#: a player's 漂 said after 改成 or 错了 with the player first (`改成 老王 漂2`, `不对 老王没漂`, `我没漂`): the
#: words for none
PIAO_NONE_SAID = ("没有漂", "没漂", "不漂")
#: the horse named before what it is and is not (`马不是7s是8s`, `马牌是8s不是7s`)
MA_NOT_IS = ("马牌", "马")
MA_IS_SAID_EN = ("it should be", "should be", "it was", "it's", "it is", "was", "is")
#: a double win's own words: a line starting with one is a 一炮双响 (`一炮双响 阿杰 卡五星 小李 七对 点 老王`) only
#: when it reads as one; anything else after them is chat (`一炮双响 太爽了`)
DOUBLE_WIN_WORDS = ("一炮双响", "双响")
#: a win in English as players say it (`I won! seven pairs self-drawn`): the sender's own, as 我胡了; said of other
#: things too (`I won the raffle`), so a line of it the bot would refuse stays unanswered
WON_EN = ("i won", "i just won")
#: a 碰胡 pong or sweep told done in English in the first person (`I ponged ben's tile`, `I swept`): the sender's own,
#: as 我碰了; said of other things too (`I swept the floor`), so a line of it the bot would refuse stays unanswered
PENGHU_DONE_EN = {"peng": ("i ponged", "i punged"), "sao": ("i swept",)}
#: `won` with nobody before it (`won seven pairs`, `Won! seven pairs, self drawn`): the sender's, as 胡了 is; after a
#: player named first it is theirs (`ben won seven pairs self drawn`, `@ben won …`), so it is no first-person word
WON_BARE_EN = ("won",)
#: received in English as `got` (`got @tom 4`): also everyday chat (`got home`), so a line of it is answered only when
#: it reads cleanly, and names someone after it
RECEIVED_NAMING_EN = ("got", "i got", "just got", "i just got")
#: a self-draw told in English in the first person (`I self drew seven pairs`): `我自摸`
SELF_DREW_EN = ("i self drew", "i self-drew", "i selfdrew")
#: 胡了 typed with 糊 (`糊了 平胡 自摸`, `我糊了 自摸`), as 糊 is: also what a blurry photo or a burnt dish is, so
#: the line acts only when it reads cleanly
HU_MISTYPED_FIRST_PERSON = ("我糊了", "我糊啦")
HU_MISTYPED_WORDS = ("糊了", "糊啦", *HU_MISTYPED_FIRST_PERSON)
#: 请出 as admins also type it (`移出 @小李`): acting only when the line reads cleanly (`移出群聊了吗` is chat); 踢 is
#: no command at all: `踢了 @小李` is banter as often as not, and a removal is no joke
KICK_SAID_WORDS = ("移出", "移除")
CHATTY_WORDS = frozenset(
    {"记错了", "刚才记错了", "记错了记错了", *CORRECTION_CHATTY_WORDS, *CORRECTION_CHATTY_EN, *DOUBLE_WIN_WORDS}
    | {*MA_WRONG_WORDS, *MA_WRONG_EN, *PIAO_WRONG_WORDS, *COUNT_WRONG_WORDS}
    | {*WON_EN, *WON_BARE_EN, *HU_MISTYPED_WORDS, *RECEIVED_NAMING_EN, *LIANGDAO_SHORT_WORDS}
    | {word for words in PENGHU_DONE_EN.values() for word in words}
    | set(DEALT_IN_EN)
    | {"order", "ranking"}  # 够级's round in English (`GOUJI_ROUND_EN`)
    | set(KICK_SAID_WORDS)
)
#: a 一炮双响 told with its winners' plain names (`阿杰 小李 都胡了 老王点的`, `阿杰和小李 胡 老王 点炮`): what says
#: they won (said between the names and the discarder, or glued after the names: `小李都胡了`), and what joins the
#: two winners' names (`阿杰和小李`, `阿杰 跟 小李`)
BOTH_WON_WORDS = ("都胡了", "都胡啦", "都胡", "都和了", "一起胡了", "同时胡了", "胡了", "胡啦", "胡", "胡牌")
WINNERS_JOINED = ("和", "跟", "与")

#: the verbs of the words that take something back (`撤销结算`, `撤回付款`, `取消处罚`): typed apart from what they
#: take back (`撤销 结算`), they still make that one word, never the plain 撤销 of the table's latest record
UNDO_VERBS = ("撤销", "撤回", "撤消", "取消")
#: a verb's other written form, read as the form the words are spelled with (`撤消 结算`, `撤消付款`)
UNDO_VERB_SPELLING = {"撤消": "撤销"}

#: Latin self-draw words that are the win's word 自摸 only alone on their line (`zimo`, `zimo!`: asked about as `自摸`
#: is); followed by more they are a win told by its patterns (`zimo qingyise`) or chat (`zimo is hard`)
SELF_DRAW_ALONE = ("zimo", "tsumo")

#: Latin command names that are everyday English words (`ready` is 亮倒): such a word starts its command only alone
#: on its line or before @mentions (`ready`, `ready @b`, `/ready …`); said with anything else it is chat (`ready!`,
#: `ready to go`, `ready?`)
#: a draw as English speakers tell it, and as the reply names it ("Drawn hand"): 荒庄, alone only (laughter after it
#: aside: `drawn hand lol`, as `荒庄 哈哈`)
DRAW_COMMAND = "draw"
DRAW_EN = ("drawn", "drawn hand", "draw game", "no winner", "nobody won", "no one won")
PLAIN_ENGLISH_COMMAND_WORDS = frozenset(
    {"ready", *OWED_NOW_EN, "what i owe", "what i'm owed", *READY_EN, *DRAW_EN, *RULES_ASKED_EN, *MY_STATS_EN}
)

#: the words for 「不撤销」 that answer a question (`bot.commands.questions`) only when it was asked in English, as
#: `YES_WORDS_EN` (`no` is chat elsewhere)
KEEP_WORDS_EN = ("cancel", "no", "keep it", "leave it")

#: the words for 「确认」 that answer a question (`bot.commands.questions`) only when it was asked in English (in a
#: group that reads English, or after a line written in English: `questions.reads_english`)
YES_WORDS_EN = ("yes", "ok", "okay")
#: 「是新的一局」 and 「确实又一次」 typed in a group that reads English, as the buttons say them there ("New hand",
#: "It happened again")
NEW_HAND_WORDS_EN = ("new hand", "a new hand", "it's a new hand")
REPEAT_WORDS_EN = ("it happened again", "happened again", "again", "yes again", "yes, again")
#: the commands whose words answer a question only alone (`算了`, `对`, `好`, `确实又一次`): after another word they
#: are chat, never an answer to it (`恰 好` is 恰好)
ALONE_ANSWER_COMMANDS = frozenset({"undo_keep", "question_yes", "new_hand", "repeat_yes", "typed_press"})
#: the words for 「不改」 itself: the button's label, said done; they answer only 改's question
CORRECT_NO_WORDS = ("不改", "不改了", "不用改", "不用改了")
#: the word for 「不是」 itself, the button under a 「是不是：…」 question; it answers only such a question (a plain
#: 「不是」 said to anything else is chat)
SUGGEST_NO_WORDS = ("不是",)
#: the labels of the buttons that go ahead under the questions no plain yes answers (「是不是」's 「就是这个」, a
#: repeated payment's 「再记一笔」, 撤销结算's and the payouts' 「确认撤销…」): typed by whoever asked, each answers
#: its own question as the press does (`bot.commands.questions.press_by_typing`)
PRESSED_LABELS = ("就是这个", "再记一笔", "确认撤销结算", "确认撤销发红包池", "确认撤销付台费")
#: those buttons' English labels (bot/texts.py: 「就是这个」 "Yes, book it", 「再记一笔」 "Book another", the
#: 「确认撤销…」 "Take it back"), typed in a group that reads English
PRESSED_LABELS_EN = ("yes, book it", "book another", "take it back")
#: 「确认撤销」's and 「改成这样」's English labels (and `yes undo`), typed under a question asked in English: each
#: answers only its own question (`undo it` with no 撤销 question waiting is 撤销 itself, `UNDO_EN`)
UNDO_YES_WORDS_EN = ("undo it", "yes undo", "yes, undo", "yes undo it", "yes, undo it")
CORRECT_YES_WORDS_EN = ("correct it",)
#: 「不用了」's English label under a double entry's and a repeated payment's question ("No, same one"); it answers
#: only those
REPEAT_NO_WORDS_EN = ("no, same one",)
#: the words for 「确认」 that answer any question a typed yes answers (`bot.commands.questions`)
YES_WORDS = ("对", "对的", "对对", "是的", "是", "确定", "确认", "嗯", "嗯嗯", "好", "好的")
#: the words for 「确认撤销」 itself: the button's label, and "undo it, then" (`撤吧`); they answer only 撤销's question
UNDO_YES_WORDS = ("确认撤销", "撤吧")
#: the words for 「改成这样」 itself: the button's label, and "change it, then" (`改吧`); they answer only 改's question
CORRECT_YES_WORDS = ("改成这样", "改吧", "就改成这样")

#: a table opened as it is said (`开桌了 @小李 @老王`): it opens only when every seat after it is an @mention; alone
#: (`开桌了`, as a player announces it) or followed by other words (`开桌了 快来`) it is chat
OPEN_SAID = ("开桌了", "开桌啦", "开局了", "开局啦")
#: 开桌 in English as players say it (`open table @amy @tom`, `new table @amy @tom`): the word itself, never the
#: name of a guest (`open` and `newtable` are the command's Latin names already)
OPEN_EN = ("open table", "open a table", "open the table", "start table", "start a table", "new table")
#: 结算 as it is said (`结算了`): 结算, except that with no night to settle (settled already, nothing played) it is
#: chat, said after the settlement; a question (`结算了吗`, `结算了没`) is chat anyway
SETTLE_SAID = ("结算了", "结算啦")

#: 结算 in English as said (`settle up`, `settle pls`; after `let's`, `ok`: `SETTLE_LEAD_WORDS`)
SETTLE_EN = tuple(
    f"{word}{please}"
    for word in ("settle", "settle up", "settle it", "settle the night")
    for please in ("", " pls", " please", " now")
)
#: 撤销 in English with a word after it (`undo that`, `undo pls`): the table's latest record, as `undo`
UNDO_EN = tuple(
    f"{word}{please}"
    for word in ("undo that", "undo it", "undo this", "undo")
    for please in ("", " pls", " please")
    if word != "undo" or please
)
#: what may follow `undo` and still mean the table's latest record (`undo last`, `undo the last one`; `undo last
#: hand` is the hand last finished, `LAST_HAND_WORDS`)
UNDO_LAST_EN = ("last", "the last", "last one", "the last one", "last record", "the last record")
#: words for closing the table that are no 结算 (`关桌`, `不打了`): alone on their line they are answered with how to
#: end the night (结算 seals it, so no new word does that on a guess); a question or more words after them is chat
#: closing the table in English (`close table`): as 关桌, answered with how to end the night
CLOSE_EN = ("close table", "close the table", "end table", "end the table", "close up")
CLOSE_WORDS = (
    *(f"{word}{said}" for word in ("关桌", "收桌", "散桌") for said in ("", "了", "吧", "啦")),
    *("不打了", "不打啦", "不打了吧"),
)

#: how the bot's use is asked in a whole sentence (`这个机器人怎么用`): 帮助's overview, asked alone (with more words
#: after it, it is chat: `这个机器人怎么用 我也不知道`)
HELP_ASKED_WORDS = (
    *("这个机器人怎么用", "这机器人怎么用", "机器人怎么用", "这个机器人咋用", "机器人咋用", "这个bot怎么用"),
)

#: what players say before 撤销 when they see their mistake (`哦不对 撤销`, `oops wrong, undo`, `不对不对 撤回`):
#: the line is that 撤销 when one undo word alone follows them (more words after it, or a question, and it stays
#: chat); no undo word is one of them, nor starts with one
UNDO_LEAD_WORDS = (
    *("哦不对", "噢不对", "喔不对", "啊不对", "哎不对", "哎呀不对", "哎呀", "哎哟", "哦", "噢", "啊"),
    *CORRECTION_CHATTY_WORDS,
    *("oops", "oops wrong", "wrong", "my bad", "sorry"),
)
#: the undo verbs said before a correction (`撤回 改成清一色`, `撤回，改成 清一色 自摸`): the record taken back and
#: told again, which is what 改成 does — the line is that 改成, asked as 改成 is; followed by anything else they stay
#: the undo command's (`撤回 第3局`)
UNDONE_BEFORE_CORRECTION = ("撤回", "撤销", "撤消", "撤回一下", "撤销一下", "撤销下", "撤回下")
#: a correction said as what the record is and what it is not (`是清一色 不是七对`, `不是七对 是清一色`,
#: `不是七对，而是清一色`, `不是七对，改成 碰碰胡 点 @li`): what it is, read as `应该是 …`; what comes between 不是 and
#: what it is
INSTEAD_WORDS = ("而是", SHOULD_BE, "改成", "改为", "是")

#: what players say before 结算 when they stop (`散了散了 结算吧`, `不打了 结算吧`, `好了 结算`): the line is 结算 when
#: one settle word alone follows them (more words after it, or a question, and it stays chat: `散了 明天再结算`);
#: no settle word is one of them, nor starts with one
SETTLE_LEAD_WORDS = (
    *("散了", "散了吧", "散啦", "不玩了", "不玩啦", "好了", "好啦", "行了", "那就", "今天就到这", "今天就到这吧"),
    *("今天到这", "就到这吧", "收工了", "散场了"),
    *CLOSE_WORDS,
    *("let's", "let’s", "lets", "ok", "okay", "alright", "time to"),
)

# ------------------------------------------------------------------------- payments as players type them (money2)
#: a payment to "you", the person @mentioned on the line (`转你了 @阿杰`, `@阿杰 转你8块`): alone it says nobody
PAID_YOU_WORDS = (
    *("转你了", "转你", "已转你", "微信转你了", "支付宝转你了", "转给你了"),
    *("钱转你了", "钱已转你", "钱转给你了"),
)
#: a 红包 sent to a person as payment (`红包发了 @阿杰`, `发了个红包给 @阿杰`, `@阿杰 红包发你了 8块`): never the
#: group's 红包池 (发红包池, 派红包, 罚红包: bot/moderation); to someone the sender owes nothing it is a gift: chat
RED_PACKET_PAID_WORDS = ("红包发了", "红包已发", "红包发你了", "发了个红包给", "发了红包给", "发红包给你了")
#: a payment in English as people say it (`I paid @ben 4`, `just paid ben 4`: as `paid`); `I sent …` as `sent`
PAID_EN = ("i paid", "just paid", "i just paid", "i've paid", "i have paid", "i already paid")
SENT_EN = ("sent", "i sent", "just sent", "i just sent")
#: paid all, said as players do (`已付清了 @阿杰`, `已经付清了 @阿杰`), and the transfer said 转账 (`转账了 @阿杰`)
PAID_CLEARED_WORDS = ("已付清了", "已经付清了", "已经付清")
TRANSFERRED_WORDS = ("转账了", "已转账", "已经转账了", "转账完了")
#: the payment words those and the English `sent` add to 付's (`付清 @阿杰` says its person: see PAID_NAMING_WORDS)
PAID_MORE_WORDS = (
    *("转完了", "已付清", "付清", *PAID_CLEARED_WORDS, *TRANSFERRED_WORDS),
    *(*SENT_EN, *PAID_EN, *PAID_YOU_WORDS, *RED_PACKET_PAID_WORDS),
)
#: of those, the ones that are chat unless an @mention follows (`转你了`, `红包发了`, `sent` alone say nobody)
PAID_NAMING_WORDS = frozenset({"付清", *SENT_EN, *PAID_YOU_WORDS, *RED_PACKET_PAID_WORDS})
#: received in English (`got @tom 4`, `I received 4 from @tom`; `got` above)
RECEIVED_EN = (*RECEIVED_NAMING_EN, "i received", "just received", "i just received")
#: a payment told by its payee with the payer first (`tom paid me 4`, `@tom sent me 4`): `received tom 4`
PAID_ME_EN = ("paid me", "sent me", "gave me", "transferred me", "paid me back")
PAID_ME_READ_AS = "received"
#: English words around a payment's person and amount that say nothing more (`received 4 from @tom`, `paid 4 to
#: @ben`): read as nothing, the person then first
PAYMENT_CONNECTORS_EN = frozenset({"from", "to"})
#: what English speakers write with an amount for the group's money (`4 bucks`, `4 yuan`, `$4`): the amount alone
MONEY_WORDS_EN = ("bucks", "buck", "yuan", "kuai")
MONEY_SIGNS_EN = ("$",)
#: paid, said alone in English (`paid up`, `all paid`): as `已转` alone
PAID_ALONE_EN = ("paid up", "i paid up", "i've paid up", "all paid", "paid in full", "i paid in full")
#: paid, said alone (`已转`, `转完了`, `已付清`): to the one person the sender owes (`已转 @那人`); a sender owing
#: several people, or nobody, is told whom they owe and how to write it
PAID_ALONE_WORDS = frozenset(
    {"已转", "已转了", "已经转了", "转了", "我转了", "转完了", "已付", "付了", "我付了", "付清了", "我付清了", "已付清"}
    | {"微信转了", "支付宝转了", *PAID_CLEARED_WORDS, *TRANSFERRED_WORDS}
    | {*PAID_ALONE_EN}
)
#: an amount told before the payment word (`@阿杰 1块已转`, `@阿杰 剩下的3块也转了`, `余下3块已转 @阿杰`): what may
#: stand before the amount, and between it and the word
REST_OF_DEBT_WORDS = ("剩下的", "剩下", "余下的", "余下", "剩余的", "剩余", "剩的")
ALSO_WORDS = ("也", "都")
#: talk after a whole payment line (`付 @阿杰 4 剩下明天`, `@阿杰 8 转了 收一下`, `已付 @阿杰 8 哈哈`): said, not
#: part of it; the rest promised for later is a rest word (`REST_OF_DEBT_WORDS`) with one of these and no amount
PAYMENT_LATER_WORDS = ("明天", "下次", "改天", "回头", "晚点", "晚些", "过两天")
PAYMENT_CHECK_WORDS = frozenset({"收一下", "收下", "查收", "请查收", "收一下哈", "查收一下", "你收一下"})
#: how it was paid, or that it was, said after a whole payment (`付 小李 4 微信转了`, `付 @阿杰 4 支付宝`, `… 已转`)
PAYMENT_HOW_WORDS = frozenset(
    {"微信", "支付宝", "现金", "微信转的", "支付宝转的", "微信付的", "支付宝付的", "微信转账", "支付宝转账"}
    | {word for word in PAID_ALONE_WORDS if not word.isascii()}
)
#: thanks after a payment's person (`收到 @小李 谢谢`, `got it @b thx`): said, not an amount (emoji are dropped
#: before: `👌`)
THANKS_WORDS = frozenset(
    {"谢谢", "谢了", "谢啦", "谢谢啦", "多谢", "感谢", "谢谢老板", "thx", "thanks", "thank you", "ty"}
)
#: everything received at once, in English (`received all`, `got it all`): as `都收到了`
ALL_RECEIVED_EN = (
    "received all",
    "all received",
    "received everything",
    "got it all",
    "got them all",
    "got everything",
)
#: thanks that may start a word said after a payment (`谢谢小李`, `多谢老板`)
THANKS_LEADS = ("谢谢", "谢了", "谢啦", "多谢", "感谢", "thx", "thanks", "thank you")
#: the payment command, which `grammar.split_command` reads without the talk after it (`said_after_payment`)
PAID_COMMAND = "pay"
#: everything received at once (`都收到了`): the payments waiting for the sender's word
ALL_RECEIVED_WORDS = ("都收到了", "都收到啦", "全收到了", "全都收到了", "全部收到了", *ALL_RECEIVED_EN)
#: the payee's refusal of a payment told to them (`没收到 @阿杰`, `@阿杰 没收到啊`): it is taken back
NOT_RECEIVED_WORDS = ("没收到", "没收到啊", "没收到呀", "没收到哦", "还没收到", "没有收到", "没有收到啊")

#: command key -> the words that start it without a slash (the registry adds each command's Latin names).
#: Synonyms sit beside the word they mean; a word may serve several games (卡五星's 胡 and 碰胡's 胡).
#: the English a player types for the commands whose Chinese word has no English of its own: 名片 (`nickname Liu`;
#: the Latin names `alias`/`name` too), 收款码 (`pay code`), 删除收款码, 付台费 (`pay table fee @a`), the regional
#: answers 买马 (`buy horse 7s`), 听 (`ready hand @b 123p…`: `ready` alone is 亮倒), 恰/八 (`qia 1 ba 2`); 漂, 坎
#: and 关联 are typed by their Latin names (`piao 2`, `kan 2`, `link 老王 @wang`)
ALIAS_EN = ("nickname",)
PAY_CODE_EN = ("pay code", "payment code", "qr code")
PAY_CODE_REMOVE_EN = ("remove pay code", "delete pay code", "remove payment code", "delete payment code")
PAY_FEES_EN = ("pay table fee", "pay table fees", "pay the table fee", "pay fees")
MA_EN = ("buy horse", "bought horse", "horse tile", "horse")
READY_HANDS_EN = ("ready hand", "ready hands", "tenpai")
QIABA_EN = ("qia", "ba")

#: the 查大叫 question's 没人听牌 button typed (`没人听`, `都没听`): its answer while that question waits, else chat
NOBODY_READY_SAID = ("没人听", "没人听牌", "都没听", "都没听牌", "无人听牌", "都没人听", "都没人听牌")
COMMAND_WORDS: dict[str, tuple[str, ...]] = {
    "open": ("开桌", "开局", "上桌", *OPEN_SAID, *OPEN_EN),
    "table": (
        "牌桌",
        "桌况",
        "本局",
        "第几局",
        "第几局了",
        "现在第几局",
        "现在第几局了",
        "打到第几局了",
        "第几把了",
        "打了几局了",
        "打了几把了",
        "打几局了",
        "打几把了",
        "谁是庄",
        "谁是庄家",
        "庄家是谁",
        "谁坐庄",
        "现在谁坐庄",
        "谁的庄",
        *("庄是谁", "谁做庄", "现在谁做庄", "该谁坐庄了", "现在谁的庄", "现在谁是庄"),
        # English: who deals, which hand (`who's the dealer?`)
        *("who's the dealer", "who's dealer", "who is the dealer", "who is dealer", "who's dealing"),
        *("who deals", "whose deal", "what hand", "which hand", "what hand is it", "which hand is it"),
        *("what hand are we on", "which hand are we on"),
        # whose turn it is, asked between hands (`whose turn to deal?`, `who's next?`): the dealer of the hand on
        *(f"{who} next" for who in WHO_IS_EN),
        *("whose turn", "whose turn to deal", "whose turn is it", "whose turn is it to deal", "whose deal is it"),
        *("who deals next", "who's dealing next", "who is dealing next"),
    ),
    "gang": ("杠", "暗杠", "蓄杠", "加杠", "补杠", "直杠", "明杠", "点杠", *KONGS_SAID),
    "liangdao": (
        *("亮倒", "亮牌", "亮倒了", "亮牌了", "亮倒啦", "亮牌啦", "报听", "报听了", "报听啦"),
        *FIRST_PERSON_LIANGDAO_WORDS,
        *LIANGDAO_SHORT_WORDS,
    ),
    "hu": (
        "胡",
        "胡了",
        "胡啦",
        "我胡了",
        "我胡啦",
        "我胡",
        *("我也胡了", "我也胡啦", "我也胡"),
        "胡牌",
        "和",
        "糊",
        *HU_MISTYPED_WORDS,
        "自摸",
        "自摸了",
        "自摸啦",
        "自摸胡",
        "我自摸",
        "我自摸了",
        "我自摸啦",
        *DEALT_IN_WORDS,
        *SELF_DRAW_ALONE,
        *WON_EN,
        *WON_BARE_EN,
        *SELF_DREW_EN,
    ),
    "draw": (
        *(f"{word}{done}" for word in ("荒庄", "流局", "黄庄", "臭庄") for done in ("", "了", "啦")),
        *("荒了", "黄了", "荒了荒了", "黄了黄了"),
        *DRAW_EN,
    ),
    "undo": (
        *("撤销", "撤回", "撤消", "撤销一下", "撤回一下", "撤销下", "回退", "取消上一条", "悔"),
        *("撤销哈", "撤回哈", "撤销一下哈", "撤回一下哈"),  # said lightly: 哈 glued to the word
        *("记错了", "刚才记错了", "记错了记错了", "undo"),
        *UNDO_EN,
    ),
    # typed by whoever asked 撤销, while its question waits: 「不撤销」 (bot/commands/undo.py); alone, or chat
    # (and 改's 「不改」, a 「是不是」's 「不是」: their own labels, each answering its own question alone)
    "undo_keep": (
        *("不撤销", "不撤了", "别撤了", "取消", "算了", "算了吧", "不用了", *KEEP_WORDS_EN, *REPEAT_NO_WORDS_EN),
        *CORRECT_NO_WORDS,
        *SUGGEST_NO_WORDS,
    ),
    # typed by whoever asked 撤销 or 改, while its question waits: 「确认撤销」/「改成这样」
    # (bot/commands/questions.py); alone, or chat
    "question_yes": (
        *(*YES_WORDS, *UNDO_YES_WORDS, *CORRECT_YES_WORDS, *YES_WORDS_EN, *CORRECT_YES_WORDS_EN),
        *(word for word in UNDO_YES_WORDS_EN if word not in UNDO_EN),  # `undo it` is 撤销's, which asks first
    ),
    # a go-ahead button's label typed by whoever asked its question (bot/commands/questions.py); alone, or chat
    "typed_press": (*PRESSED_LABELS, *PRESSED_LABELS_EN),
    # typed by whoever's line was held back as another ending of the hand just ended: 「是新的一局」
    # (bot/commands/duplicates.py); alone, or chat
    "new_hand": ("是新的一局", "新的一局", "是新的", *NEW_HAND_WORDS_EN),
    # typed by whoever's line was held back as a double entry: 「确实又一次」 (bot/commands/duplicates.py); alone, or
    # chat
    "repeat_yes": ("确实又一次", "是又一次", "又一次", "确实是又一次", "真的又一次", *REPEAT_WORDS_EN),
    "balance": ("余额", "查账", "账", "多少钱", "输赢", "战况", "今晚战况", *STANDING_WORDS, *SELF_BALANCE_WORDS),
    "unpaid": UNPAID_WORDS,
    "history": ("历史", "记录", "流水", *LAST_HAND_WORDS),
    "settle": (
        *("结算", "结算吧", "结算一下", "算账", "算账吧", "算一下账", "结账", "结账吧", "散场", "收工"),
        *SETTLE_SAID,
        *SETTLE_EN,
    ),
    # answered with how to end the night (bot/commands/close.py)
    "close": (*CLOSE_WORDS, *CLOSE_EN),
    # a seated player swapped for another (`换人 @老王 @小张`): answered with the 开桌 line that does it
    "swap": ("换人",),
    # 改 followed by a record: answered with how to correct one (bot/commands/correct.py)
    "correct": (
        *("改", "改成", "改为", "改一下", "更正", *CORRECTION_CHATTY_WORDS, *CORRECTION_EN),
        *(*MA_WRONG_WORDS, *MA_WRONG_EN, *MA_CHANGE_EN, *PIAO_WRONG_WORDS, *COUNT_WRONG_WORDS),
    ),
    "unsettle": ("撤销结算", "撤回结算", "取消结算", "撤销结账", "撤销算账"),
    # payments after a settlement (bot/commands/payments.py)
    "pay": (
        "付",
        "已付",
        "付给",
        "已付给",
        "付了",
        "我付了",
        "付清了",
        "我付清了",
        "付款",
        "已转",
        "已转给",
        "已转了",
        "已经转了",
        "转了",
        "我转了",
        "微信转了",
        "支付宝转了",
        *PAID_MORE_WORDS,
        *PAID_ALONE_EN,
    ),
    "received": ("收到", "收到了", "已收", "got it", *ALL_RECEIVED_WORDS, *RECEIVED_EN, *NOT_RECEIVED_WORDS),
    "unpay": ("撤销付款", "撤回付款", "取消付款", "撤销收款", "撤回收款", "取消收款"),
    # an admin takes back the latest payout of the pot or the house (bot/commands/undo_payout.py)
    "unpayout": ("撤销发红包池", "撤回发红包池", "取消发红包池", "撤销发红包", "撤销派红包"),
    "unpayfees": ("撤销付台费", "撤回付台费", "取消付台费", *(f"undo {word}" for word in PAY_FEES_EN)),
    "rules": ("规则", "玩法", "底金多少", "封顶多少", "几倍封顶", *RULES_ASKED_EN),
    "config": ("设置", "设定"),
    "alias": ("名片", "改名", *ALIAS_EN),
    "link": ("关联", "认领"),
    "help": ("帮助", "说明", "怎么用", *HELP_ASKED_WORDS),
    # what regional rules make players tell (docs/regional-rules.md): 漂, and the answers to the bot's questions
    "piao": ("漂", "选漂", *MY_PIAO_WORDS, *NO_PIAO_WORDS),
    "kan": ("坎", "数坎", "坎数"),
    "ma": ("买马", "马牌", *MA_EN),
    "ready": ("听", "听牌", *READY_HANDS_EN, *NOBODY_READY_SAID),
    "qiaba": ("跑恰摸八", "恰", "八", *QIABA_EN),
    # a member's payment QR code (bot/commands/payment_codes.py), the house paid out (bot/commands/fees.py)
    "qrcode": ("收款码", "付款码", *PAY_CODE_EN),
    "qrremove": ("删除收款码", "删收款码", *PAY_CODE_REMOVE_EN),
    "payfees": ("付台费", "支付台费", "台费结给", *PAY_FEES_EN),
}

#: 帮助's topics as players ask for them (`帮助 算账`, `help money`; bot/commands/help.py): topic -> its words, the
#: Chinese ones first; the first Chinese and the first Latin word are what the help in each language shows. A word
#: that is also a command's (算账, 设置, 群规) names the topic, which lists that command
HELP_TOPIC_WORDS: dict[str, tuple[str, ...]] = {
    "record": ("记牌", "记账", "打牌", "怎么记", "record", "play"),
    "money": ("算账", "付款", "转账", "money", "payments"),
    "views": ("查看", "查询", "战绩", "stats", "views"),
    "settings": ("设置", "设定", "settings", "config"),
    "moderation": ("群规", "群管", "moderation", "mod"),
    "all": ("全部", "所有", "全部命令", "所有命令", "all", "commands"),
}

#: 碰胡's own record words (bot/games/penghu.py), by command key
PENGHU_WORDS = {"peng": "碰", "sao": "扫", "guosao": "过扫", "paoqi": "跑起", "tishe": "提蛇", "baojing": "报警"}
PENGHU_WORDS |= {"wufu": "五福", "tianhu": "天胡", "dihu": "地胡", "xiaoqidui": "小七对"}
#: 碰胡's records in English, as the English replies name them (`pong (碰)`, `sweep (扫)`, `wins (胡)`, `drawn
#: hand`): `pong from @ben`, `sweep at the deal`, `win self-drawn`, `draw`, and told done in the first person (`I
#: ponged ben's tile`, `I swept`: `PENGHU_DONE_EN`); the others (过扫, 跑起, 提蛇, 报警, 五福, 天胡, 地胡,
#: 小七对) have no English of their own and are typed in Chinese
PENGHU_WORDS_EN = {"peng": ("pong", "pung", *PENGHU_DONE_EN["peng"]), "sao": ("sweep", *PENGHU_DONE_EN["sao"])}
PENGHU_WORDS_EN |= {"hu": ("win",), "draw": ("draw",)}
#: 起手 said before a deal-time record (`起手扫`, `起手 提蛇`): `扫 起手`
PENGHU_DEAL_FIRST = "起手"
PENGHU_AT_DEAL = ("sao", "tishe")


#: two 扫 at the deal said as one word (the rules' 连扫二次, each pays 2 + 2; 连扫三次 is a 提蛇): `起手连扫` is
#: `扫 起手 两个`
PENGHU_DEAL_RUN = "连扫"
PENGHU_DEAL_RUN_COUNT = "两个"


def _penghu_said(key: str, word: str) -> tuple[str, ...]:
    """A 碰胡 record's word as players say it: also done (`过扫了`, `提蛇啦`), after 起手 for what may happen at the
    deal (`起手扫了`, and 起手连扫 for two 扫), and in the first person (`我碰了`, `我起手扫`: the sender's own,
    `PENGHU_FIRST_PERSON_WORDS`), after someone else's too (`我也起手扫了`, `我也是起手扫`, `我起手也扫了`)."""
    done: tuple[str, ...] = (word, f"{word}了", f"{word}啦")
    run = tuple(f"{PENGHU_DEAL_FIRST}{PENGHU_DEAL_RUN}{end}" for end in ("", "了", "啦")) if key == "sao" else ()
    at_deal = key in PENGHU_AT_DEAL
    said = (*done, *(PENGHU_DEAL_FIRST + word for word in done), *run) if at_deal else done
    also = tuple(f"我{PENGHU_DEAL_FIRST}也{word}" for word in done) if at_deal else ()
    return (*said, *(f"{me}{word}" for me in ("我", "我也", "我也是") for word in said), *also)


#: a win made by the 碰 or 扫 that completes the hand, told as one word (the rules' names: 碰胡, 扫胡, 三碰连胡,
#: 三扫连胡; 碰碰胡, 卡五星's pattern, as a 碰胡 player may say it), said done and in the first person: two records, the
#: play then the win (`bot/games/penghu.py` names both) -> the play
PENGHU_WON_BY_PLAY = dict.fromkeys(
    (*_penghu_said("won", "碰胡"), *_penghu_said("won", "三碰连胡"), *_penghu_said("won", "碰碰胡")), "peng"
) | dict.fromkeys((*_penghu_said("won", "扫胡"), *_penghu_said("won", "三扫连胡")), "sao")
#: the dealer's win called 中庄 (`中庄 自摸`), said done and in the first person as every 碰胡 word is (`中庄了`,
#: `我中庄了 点 大鹏`): `胡 … 中庄`
ZHONGZHUANG_WORDS = _penghu_said("hu", "中庄")
#: the dealer named by their role, before 中庄 (`庄家中庄 自摸`, `庄家 中庄了 点 大鹏`): the table's dealer wins
DEALER_WORD = "庄家"
#: 碰胡's recording commands: command key -> the words that start it; 胡 is the 卡五星 word's
PENGHU_COMMAND_WORDS: dict[str, tuple[str, ...]] = {
    **{key: (*_penghu_said(key, word), *PENGHU_WORDS_EN.get(key, ())) for key, word in PENGHU_WORDS.items()},
    "hu": (*COMMAND_WORDS["hu"], *ZHONGZHUANG_WORDS, *PENGHU_WORDS_EN["hu"]),
}
#: every word that starts a 碰胡 record, longest first (`我碰了` before `我碰`): one glued to what it reads is read
#: typed apart (`碰了大鹏的`: `碰了 大鹏的`, `grammar._penghu_glued`)
PENGHU_RECORD_WORDS = sorted({word for words in PENGHU_COMMAND_WORDS.values() for word in words}, key=len, reverse=True)
#: a tile from the wall, as 碰胡's lines say it in Chinese (`碰 摸`) and as players tell it done (`碰了 摸的`,
#: `碰 翻出来的`)
PENGHU_WALL_SAID = frozenset({"摸", "翻", "自摸", "摸的", "翻的", "自摸的", "翻出来的"})
#: what follows a discarder's name in 碰胡's lines, glued or apart (`碰了 丙的`, `胡了 甲点的`, `碰 丙 点的`), as
#: 卡五星's wins say it
PENGHU_DISCARDED_BY = ("点的炮", "放的炮", "点炮", "放炮", "点的", "放的", "的")

#: command words that carry an argument of their own: `自摸` is `胡 … 自摸`, `点杠 @乙` is `直杠 点 @乙`
WORD_IMPLIES: dict[str, tuple[str, ...]] = {
    "自摸": ("自摸",),
    "自摸了": ("自摸",),
    "自摸啦": ("自摸",),
    "自摸胡": ("自摸",),
    "我自摸": ("自摸",),
    "我自摸了": ("自摸",),
    "我自摸啦": ("自摸",),
    **{word: ("自摸",) for word in (*SELF_DRAW_ALONE, *SELF_DREW_EN)},
    "点杠": ("点",),
    **{word: ("我",) for word in SELF_BALANCE_WORDS},
    **{word: ("点", "我") for word in DEALT_IN_WORDS},
    # reports asked with their scope in the word (bot/reports/commands.py)
    **{word: ("1",) for word in LAST_HAND_WORDS},
    "我的战绩": ("我",),
    **dict.fromkeys(MY_STATS_EN, ("me",)),
    **{word: ("昨晚",) for word in (*YESTERDAY_STANDING_WORDS, *YESTERDAY_REPORT_WORDS)},
    **{word: ("我", "昨晚") for word in YESTERDAY_OWN_WORDS},
    "我的统计": ("我",),
    "本月排行": ("本月",),
    "这个月排行": ("本月",),
    "上月排行": ("上月",),
    "上个月排行": ("上月",),
    "本周排行": ("本周",),
    **{w: (PENGHU_DEAL_FIRST,) for words in PENGHU_COMMAND_WORDS.values() for w in words if PENGHU_DEAL_FIRST in w},
    **{
        w: (PENGHU_DEAL_FIRST, PENGHU_DEAL_RUN_COUNT)
        for w in PENGHU_COMMAND_WORDS["sao"]
        if PENGHU_DEAL_FIRST + PENGHU_DEAL_RUN in w
    },
}

#: win words said in the first person: the line records the sender's own win, never someone else's
FIRST_PERSON_WIN_WORDS = frozenset(
    {"我胡了", "我胡啦", "我胡", "我自摸", "我自摸了", "我自摸啦", *HU_MISTYPED_FIRST_PERSON, *WON_EN, *SELF_DREW_EN}
    | {"我也胡了", "我也胡啦", "我也胡"}  # after someone else's win: a 一炮双响 told by its second winner
)
#: the sender's own 碰胡 records (`我扫了`, `我胡了`): never someone else's, nor said of a player named before them
#: (`@乙 我碰了` is chat)
PENGHU_FIRST_PERSON_WORDS = (
    FIRST_PERSON_WIN_WORDS
    | frozenset(
        word
        for words in (*(PENGHU_COMMAND_WORDS[key] for key in PENGHU_WORDS), ZHONGZHUANG_WORDS)
        for word in words
        if word.startswith("我")
    )
    | frozenset(word for words in PENGHU_DONE_EN.values() for word in words)
)
#: a win on a discard told with its discarder first (`小李点炮 我胡了 七对`, `@小李 放炮 我胡了`): the seat, one of
#: these words glued to it or typed apart, then one of the sender's own win words; never 接炮/逮炮 (the winner's)
DISCARDER_FIRST_WORDS = ("点炮", "放炮", "点炮了", "放炮了", "点的炮", "放的炮")
#: 碰胡: a discard told with its discarder first, then whose 碰 or 胡 it was (`红姐打的 老表碰了`, `小刚放炮 阿四胡了`,
#: `红姐打的 我碰了`), longest first: the record with `点 红姐` (`grammar._penghu_discarder_first`)
PENGHU_DISCARDER_FIRST = tuple(
    sorted({*DISCARDER_FIRST_WORDS, "打的", "点的", "放的", "打出的", "打出来的", "打的牌", "放的牌"}, key=len)[::-1]
)
#: the 碰胡 records a discard pays for, which `PENGHU_DISCARDER_FIRST` may come before
PENGHU_DISCARDED_RECORDS = frozenset({"penghu_peng", "penghu_hu", "penghu_wufu", "penghu_paoqi"})
WON_ON_THAT_DISCARD_WORDS = frozenset({"我胡了", "我胡啦", "我胡", *WON_EN})
#: the discarder dealing in to the sender, said before the hand (`小李给我点了个七对`, `小李点我七对`): read as
#: `小李点炮 我胡了 七对`, with the sender's own win word
DEALT_TO_ME = (
    *("给我点炮了", "给我放炮了", "给我点了个炮", "给我放了个炮", "给我点了", "给我放了", "给我点"),
    *("点了我", "点我"),
)
DEALT_TO_ME_WON = "我胡了"
#: the sender's win with its discarder right after 胡 (`我胡小李 七对`, `我胡了 @b 七对`, `我胡小李的 七对`)
WON_OFF = ("我胡了", "我胡啦", "我胡")
WON_OFF_POSSESSIVE = "的"
#: the win word said after the winner named after the discarder (`老王点炮 阿杰胡了 七对`, `老王点炮 阿杰 胡了 七对`),
#: longest first: the winner and the hand's patterns
WINNER_WON_WORDS = ("胡了", "胡啦", "胡")
#: …in English, typed apart only (`tom discarded, amy won seven pairs`: a name may end in `won`)
WINNER_WON_EN = ("won", "wins")
#: the same in English (`Tom dealt in, I won seven pairs`, `tom discarded, I won …`): the words after the seat, read
#: as 点炮; and those a winner follows (`ben dealt in to amy, seven pairs`: `ben 点炮 amy seven pairs`), as
#: `DEALT_IN_EN` says them of the sender
DISCARDER_FIRST_EN = ("dealt it in", "dealt in", "discarded", "fed me")
DISCARDER_FIRST_TO_EN = tuple(word.removeprefix("i ") for word in DEALT_IN_EN)
#: a setting changed in plain words (`底金改成2`, `把底金改为 0.5`): `设置 底金 2`, by the word that names it
SETTING_CHANGED_WORDS = ("改成", "改为")
SETTING_CHANGED_READ_AS = "设置"
#: the hand just played, said before a record told of it (`刚才那把我自摸 清一色`): a recap (`RECAP_WORDS`)
RECAP_HAND_WORDS = ("刚才那把", "刚才那局", "刚才那盘")
#: the hand a first-person record is told of, said before it (`这把我自摸 清一色`, `刚才那局我暗杠 3s`): read as the
#: record alone; only before `THIS_HAND_RECORD_WORDS` (`这把我输惨了` is chat)
THIS_HAND_WORDS = ("这把", "这局", "这盘", *RECAP_HAND_WORDS)
#: the sender, said first (`我这把自摸 清一色` is `这把我自摸 清一色`); before a draw it is the sender telling the hand
#: (`我这局荒了` is `这局荒了`)
ME_FIRST = "我"
#: the table, said first: only a draw may follow (`我们这把荒了` is `这把荒了`; `我们这把我自摸 …` is chat)
WE_FIRST = "我们"
#: a win told by its patterns after `这把我` (`这把我 清一色 自摸`) is the sender's own, read as after this word
MY_WIN_WORD = "我胡"
#: the records those may come before: the sender's own (their win, kong, 亮倒, and the discard they dealt in:
#: `这把我点炮 小李 七对`), and a draw (`这把荒了`, `这局流局`)
THIS_HAND_RECORD_WORDS = FIRST_PERSON_WIN_WORDS | FIRST_PERSON_RECORD_WORDS | frozenset(COMMAND_WORDS["draw"])
THIS_HAND_RECORD_WORDS |= frozenset(DEALT_IN_WORDS)
#: "just now", said in a record told after the fact (`阿杰 刚才 自摸 清一色`, `刚刚 老王 胡了 七对 点 小李`, `我刚自摸
#: 了 清一色`): read as nothing where it stands — first (`RECAP_FIRST_WORDS`), or after the player named first or
#: 我 — and the record is a recap: it tells the hand just recorded when that one ended the hand (the double-entry
#: check, `ledger.booking._refuse_repeat`); longest first
RECAP_WORDS = ("刚刚", "刚才", "刚")

#: what a seat's name may be glued to and still start a record told with its player first (`小李自摸七对` is
#: `小李 自摸七对`): only 自摸, which no name ends with by chance; the name must be exactly a seat's (`老表胡了` and
#: `王哥自摸` stay chat)
SEAT_GLUED_WORD = "自摸"
RECAP_FIRST_WORDS = ("刚刚", "刚才")
#: "again", said in a record of a new hand (`又胡了`, `我又自摸了 清一色`, `阿杰 又胡了 七对`): read as nothing after
#: the player named first or 我, and as 我 first (`又胡了` is the sender's `我胡了`); never a recap
AGAIN_WORD = "又"
#: "once more" glued after the record word of such a line (`又胡了一次`, `又自摸了一把 七对`): read as nothing
AGAIN_TAILS = ("一次", "一把", "一局", "一盘", "一回")

#: a 够级 place as players name it -> how many went out before it (`我头科`, `我是二科`, `末游 我`: the sender's own
#: place, which starts the 名次 buttons with the sender there; bot/games/gouji.py)
GOUJI_PLACES: dict[str, int] = {
    **{"头科": 0, "二科": 1, "三科": 2, "四科": 3, "五科": 4, "二落": 4},
    **{"大落": 5, "末科": 5, "末游": 5},
    # the same places counted in 游, as many tables call them (`头游阿杰 二游老王 …`, `我头游`)
    **{"头游": 0, "二游": 1, "三游": 2, "四游": 3, "五游": 4, "六游": 5},
    # and by count (`大刘第一 阿杰第二 …`, `第一大刘 第二阿杰 …`, `我第一`)
    **{"第一": 0, "第二": 1, "第三": 2, "第四": 3, "第五": 4, "第六": 5},
}
#: each 够级 place as English replies and the 名次 buttons' English labels name it (`1st Cat`); typed back in a group
#: that reads English they are the places (`I'm 1st`, `Ben 2nd`: `bot.grammar`)
GOUJI_PLACE_EN = {"头科": "1st", "二科": "2nd", "三科": "3rd", "四科": "4th", "二落": "5th", "大落": "6th"}
#: the same places as English speakers also say them (`I'm last`, `Ben second`): `last` is 大落, as 末游 is
GOUJI_PLACE_SAID_EN = {
    **dict(zip(("first", "second", "third", "fourth", "fifth", "sixth"), GOUJI_PLACE_EN, strict=True)),
    "last": "大落",
}
#: `last` typed alone: a place only while 名次 buttons wait for the round (a player saying theirs as it is told);
#: otherwise chat, as 末游 alone is
GOUJI_LAST_EN = "last"
#: the sender's own 够级 place in one word (`我头科`): the words of its command; spaced or said otherwise (`我 二科`,
#: `我是头科`, `头科是我`, `我末游了`) it is read as this word (`bot.grammar`)
OWN_PLACE_WORDS = tuple(f"我{place}" for place in GOUJI_PLACES)
#: 够级's card passing (进贡 and the rest: cards change hands, no points do; docs/games.md): not recorded, answered so
GOUJI_CARD_PASSING_WORDS = ("进贡", "点贡", "还贡", "回贡", "开点", "打点")
#: a typed 够级 round in English (`order @a @d @c @f @b @e`, `ranking @a …`): also everyday words (`order food`), so
#: such a line acts when it reads whole and a refusal answers it only when every word was a round's
GOUJI_ROUND_EN = ("order", "ranking")
#: the words of a typed 够级 round (`名次 @a @d @c @f @b @e`; bot/games/gouji.py)
GOUJI_ROUND_WORDS = ("名次", "排名", "出完", *GOUJI_ROUND_EN)
#: a 够级 table's match score asked for (the two teams' points over its rounds); in English as the replies'
#: “Match:” line names it (`match score?`; `score` alone is the night's standings)
MATCH_WORDS: tuple[str, ...] = ("比分", "比分多少", "几比几了", "match score", "the match score")
MATCH_WORDS += ("what's the match score", "what’s the match score")
#: a round's marks typed without the round (`革命 @e @f`, `我革命`, `烧牌 @e`): they are said inside the 名次 line
#: (`名次 … 革命 @e`), so such a line is answered with how (bot/games/gouji.py); mark -> its words
GOUJI_MARK_WORDS: dict[str, tuple[str, ...]] = {
    mark: (*said, *(f"{word}了" for word in said), *(f"我{word}" for word in said), *(f"我{word}了" for word in said))
    for mark, said in (("geming", ("革命",)), ("failed", ("烧牌", "烧牌失败")), ("chuansanhu", ("串三户",)))
}
#: a failed burn in English, as the English replies and buttons say it (`order @a @d @c @f failed burn @e`); said
#: in a round's line, or alone with the players after it (`failed burn @e`), as `烧牌 @e` is
GOUJI_FAILED_EN = ("failed", "burn", "burnt", "burned", "failed burn")
#: those marks typed in English without the round (`revolution @e @f`, `failed burn @e`): everyday words too, so
#: answered only with seated players after them, nothing else (`revolution!` is chat)
GOUJI_MARK_EN = {"geming": ("revolution",), "failed": ("failed burn", "burn")}
GOUJI_MARK_WORDS = {mark: (*words, *GOUJI_MARK_EN.get(mark, ())) for mark, words in GOUJI_MARK_WORDS.items()}
#: every record word said in the first person, 我 glued on (`我胡了`, `我暗杠`, `我扫了`, `我中庄`, `我革命`): typed
#: apart from 我 (`我 扫了`, `我 胡了 自摸`) the line is the glued word's (`bot.grammar`)
FIRST_PERSON_WORDS = FIRST_PERSON_WIN_WORDS | FIRST_PERSON_RECORD_WORDS | PENGHU_FIRST_PERSON_WORDS
FIRST_PERSON_WORDS |= frozenset(DEALT_IN_WORDS)
FIRST_PERSON_WORDS |= frozenset(word for words in GOUJI_MARK_WORDS.values() for word in words if word[0] == "我")

#: the recording commands: the only words whose arguments may follow without a space (`胡清一色自摸`, `暗杠三条`)
RECORD_COMMANDS = ("gang", "liangdao", "hu", "draw")
#: records whose word alone says them whole (`亮倒了`): laughter glued to that word is laughter (not a draw's:
#: `流局啦哈哈哈` is a remark, as `胡啦哈哈` is)
WHOLE_ALONE_COMMANDS = frozenset({"liangdao"})
RECORD_WORDS = frozenset(word for key in RECORD_COMMANDS for word in COMMAND_WORDS[key])
#: the words that may follow a player named first (`@小李 胡了 清一色 点 @老王`, `老王 碰 点 @小李`): a record of
#: either game (each game's registry reads only its own)
PLAYER_FIRST_WORDS = RECORD_WORDS | (
    frozenset((*(word for words in PENGHU_COMMAND_WORDS.values() for word in words), *PENGHU_WON_BY_PLAY))
    - PENGHU_FIRST_PERSON_WORDS
    - {word for word in PENGHU_WON_BY_PLAY if word.startswith("我")}
)
#: the words that may follow the person a payment is with, named first (`@老王 已转 8`, `@小李 收到`), also after 给
#: (`给 @老王 转了 8`): the payment with that person
ADDRESSED_PAYMENT_WORDS = frozenset(word for key in ("pay", "received") for word in COMMAND_WORDS[key])
PAID_TO_WORD = "给"
#: what may close a payment's amount, said as done (`付 @老王 8块了`, `转给 @老王 8 了`): the amount is the same
PAID_DONE = ("了", "啦")
#: a record's word said done with the particle typed apart (`扫 了`, `碰 了 点 @丙`, `胡 了 自摸`): the word said done
#: (`扫了`), when that is a word of the same command; only a record's words (`ALL_RECORD_WORDS`; `我扫 了` too)
DONE_APART = PAID_DONE
#: the records' words of either game, the first-person ones too (`胡了`, `暗杠`, `扫了`, `我碰`)
ALL_RECORD_WORDS = RECORD_WORDS | frozenset(word for words in PENGHU_COMMAND_WORDS.values() for word in words)
#: a payment said with 转给 (`转给 @老王 8`, `转给 @老王 8块了`): read as this payment word only when one @mention and
#: an amount follow, nothing else; before anything else it is chat (`转给 @老王`: forwarded to him, `转给你看看`).
#: A plain name instead of the mention (`转给 小李 4`), or 转 alone before one (`转小李4块`, `转 小李 4`), is read so
#: too, and books only when the name is a player of the latest settlement (`_common.settled_player`)
SENT_TO_WORD = "转给"
SENT_BARE_WORD = "转"
SENT_TO_READ_AS = "已转给"
#: the admins' fine (bot/moderation/commands.py), as its key: told with the member first too (`@小李 罚款 5`), only
#: when an amount follows the word
FINE_COMMAND = "mod_fine"
#: the fine's word said short (`罚 @小李 5`, `罚 @小李 5块 刷屏`): a fine only before a mention and an amount;
#: anything else (`罚酒三杯`, `罚 @小李 喝酒`, `罚 @老王 3杯`) is chat
SHORT_FINE_WORDS = ("罚",)
#: the fine said as what the member is to do (`罚他发红包 @小李`, `罚发红包 @小李`): the fine's own words, its amount
#: the group's (`群管设置 fine_amount`) unless one follows
RED_PACKET_FINE_WORDS = ("罚他发红包", "罚她发红包", "罚ta发红包", "罚发红包")
#: what may follow a member @mentioned first with no amount after it (`@小李 发红包`, as `@小李 发红包 5 刷屏`): the
#: admins' fine of the group's amount; `@小李 罚款` alone stays chat
FINE_AFTER_MENTION_WORDS = frozenset({"发红包", *RED_PACKET_FINE_WORDS})
#: `@小李 发红包` read as the fine: an admin's fine, but from a member it asks 小李 to treat the group (after a big
#: win, say) — chat, never told it is the admins' (the word the fine is read with, for `grammar.plainly_meant`)
ASKED_RED_PACKET = "发红包"
#: the fine's words a member's plain name may come before (`大胖 罚款 5`): read as the fine of that name, which the
#: fine refuses (a fine names its member by @mention or a reply, never a name); read as `FINE_READ_AS`
FINE_NAMED_WORDS = frozenset({"罚款", "罚红包", *FINE_AFTER_MENTION_WORDS})
FINE_READ_AS = "罚款"
#: commands that change something: a line of theirs that asks a question (`撤销？`, `胡 清一色 吗`) is chat
#: the regional answers: words a player types after the bot asked (`坎 2`, `买马 7s`, `听 @乙 …`) or to choose 漂
REGIONAL_COMMANDS = ("piao", "kan", "ma", "ready", "qiaba")
ACTING_COMMANDS = frozenset(
    {*RECORD_COMMANDS, "undo", "settle", "open", "close", *REGIONAL_COMMANDS, "pay", "received", "unpay", "undo_keep"}
)
ACTING_WORDS = frozenset(word for key in ACTING_COMMANDS for word in COMMAND_WORDS[key])
ACTING_WORDS |= frozenset(DOUBLE_WIN_WORDS) | frozenset(OWN_PLACE_WORDS)  # 胡's and 够级's own-place aliases
#: the commands a question is asked about, by whichever word names them: those, the other games' records (`扫？`),
#: and a payment code's removal; their Latin names too (`ready?`, `draw?`, `settle?` are chat, as `亮倒？` is)
ASKED_ABOUT_COMMANDS = ACTING_COMMANDS | {f"penghu_{key}" for key in PENGHU_COMMAND_WORDS}
ASKED_ABOUT_COMMANDS |= {"penghu_other_game", "penghu_won_by_play", "penghu_draw", "gouji_round", "gouji_place"}
ASKED_ABOUT_COMMANDS |= {"qrremove"}
#: a finished hand named by its number (`撤销 第3局`, `撤销第十二把`): the words for a hand after the number
HAND_WORDS = ("局", "把", "盘")
#: one hand asked about (`看看第3局`, `第3局明细`): the command that shows it (`历史 第3局`), and the words around
#: the hand's number a line may have
HAND_VIEW_COMMAND = "历史"
LOOK_WORDS = ("看看", "看下", "看一下", "查查", "查下", "查一下", "查", "show", "see")
#: the commands that only read, asked after a look word too (`看一下历史`, `查下余额`, `看看规则`)
LOOKED_UP_COMMANDS = frozenset(
    {
        "balance",
        "unpaid",
        "history",
        "stats",
        "details",
        "night_report",
        "leaderboard",
        "mod_pot",
        "table",
        "rules",
        "fees",
    }
)
#: the words of those that name the books themselves, asked closed with a particle (`余额呢`, `战绩啊`); not the
#: words people say of anything (`多少钱啊`, `记录呢`, `输赢呢`)
ASKED_WITH_A_PARTICLE = frozenset(
    {"余额", "查账", "战况", "今晚战况", "历史", "上一局", "上一把", "战绩", "我的战绩", "统计", "明细", "战报", "排行"}
)
HAND_VIEW_ENDINGS = ("明细", "详情", "是怎么算的", "怎么算的", "怎么算", "咋算的", "是啥", "是什么", "呢")
#: Chinese numerals a hand number may be written in (`第十二局`): digits and the units they multiply
NUMERAL_DIGITS: dict[str, int] = {
    char: int(digit) for char, digit in zip("零〇一二两三四五六七八九", "001223456789", strict=True)
}
NUMERAL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
#: the particles a line may end with (`胡 清一色 点炮 了`): said, not a word of the record
PARTICLES = frozenset("了啊吧呀啦哈嘛呢哦噢")
#: how a question ends, after trailing punctuation and emoji (`?` is the folded `？`)
QUESTION_ENDINGS = ("?", "吗", "么", "嘛", "呢", "没", "没有")
#: what a record would pay or mean, asked after it (`胡 清一色 自摸 怎么算`, `暗杠 算几块`, `亮倒 什么意思`): a
#: question like those `QUESTION_ENDINGS` end, so the line is chat and books nothing
SCORING_QUESTION_ENDINGS: tuple[str, ...] = ("怎么算", "怎么算的", "咋算", "咋算的", "算几块", "几块钱", "多少钱")
SCORING_QUESTION_ENDINGS += ("算多少", "什么意思", "啥意思", "是什么", "是啥")

#: a record or a payment said in jest (`胡了胡了 哈哈 开玩笑的`, `付 @老王 8 开个玩笑`): anywhere in the line, the line
#: is chat; other commands (the records' undo among them) are read as they are
JEST_WORDS = ("开玩笑", "开个玩笑", "逗你", "骗你的", "骗你们的", "说着玩", "just kidding")
JESTED_COMMANDS = frozenset({*RECORD_COMMANDS, *(f"penghu_{key}" for key in PENGHU_COMMAND_WORDS), "penghu_draw"})
JESTED_COMMANDS |= {"gouji_round", "gouji_place", "pay", "received"}

# ---------------------------------------------------------------------------------------------- said after a record
#: laughter after a record's word (`我胡了 哈哈哈`, `荒了 hhh`): said, not a word of the record, as an emoji is. A
#: word of these characters alone, two or more (`哈哈`), or one of `LAUGHTER_WORDS`
LAUGHTER_CHARS = frozenset("哈呵嘿嘻嘎h")
LAUGHTER_WORDS = frozenset({"233", "2333", "23333", "笑死", "笑死了", "笑死我了", "xswl", "lol", "haha", "hiahia"})
#: English laughter, as dropped as 哈哈 (`concealed kong 3s lmao`): these words, `lol` drawn out (`lolol`, `loool`),
#: and a laughing syllable said two or more times (`hahaha`, `hehe`, `hahah`); an emoji (😂) is dropped as any is
LAUGHTER_WORDS |= frozenset({"lmao", "lmfao", "rofl", "roflmao", "lulz", "xd", "xdd", "kek"})
LAUGHTER_SYLLABLES_EN = ("ha", "he", "hi", "ho")
#: cheering after a record (`胡 七对 自摸 gg`, `清一色自摸 666`): said, as laughter is
CHEER_WORDS = frozenset({"gg", "nice", "666", "6666", "66666", "nb", "牛", "牛逼", "爽", "太爽了", "耶", "yeah"})

# ---------------------------------------------------------------------------------------------- 开桌's people
#: the dealer said with the word after the player (`阿杰坐庄`, `我庄`, `@ajie当庄`, `老王 坐庄`): `庄 阿杰`, longest
#: first; a guest's name holding one of them (庄 alone aside) is refused
DEALER_AFTER_WORDS = ("坐庄", "做庄", "当庄", "庄家", "庄")
#: plain words that name the sender at a table; they win over a seat of that name (a member named 我 is no alias
#: for whoever types 我)
ME_WORDS = frozenset({"我", "me", "I"})
#: the sender asking to be seated (`开桌 @乙 @丙 加我`): the sender's seat, as `我` is
SEAT_ME_WORDS = frozenset({"加我", "加我一个", "算我", "算我一个", "我也来", "带我", "带我一个"})
#: said before 开桌 to get going (`来来来 开桌 @乙 @丙`, `走，开桌 …`): read as nothing, as the words before 结算 are
OPEN_LEAD_WORDS = ("来来来", "来来", "来", "走走走", "走起", "走", "好的", "好")
#: laughing or cheering before a record (`哈哈 我自摸了 七对！！`, `ok 胡 七对 自摸`): said, as after it
RECORD_LEAD_WORDS = ("哈哈", "哈", "呵呵", "嘿嘿", "嘻嘻", "hhh", "hh", "ok", "okk", "耶", "爽", "666")
#: said after 开桌's seats to start (`开桌 @乙 @丙 走起`, `开桌了 @乙 @丙 开始吧`): read as nothing, as laughter is
OPEN_CHEER_WORDS = frozenset(
    {"走起", "走", "走走走", "开始", "开始吧", "开始了", "来吧", "来来来", "搞起", "整起", "开打"}
    | {"let's", "lets", "go", "gogogo", "let’s"}  # `open @amy @tom let's go`
)
#: what people say while gathering a table (`开桌 @乙 @丙 三缺一`, `快来啊`): never a guest's name, refused at 开桌
GATHERING_WORDS = frozenset(
    {"三缺一", "二缺一", "缺一", "缺一个", "差一个", "快来", "速来", "来人", "等人", "走起", "开打", "上车", "来了"}
)
#: the English words of that chat, each a word of its own at 开桌 (`open @amy @tom come on`, `open table @amy @tom
#: let's go`): never a guest's name either; only words no player is called by
GATHERING_WORDS_EN = frozenset(
    {"table", "a", "the", "open", "new", "start", "come", "on", "hurry", "up", "quick", "now", "later", "tonight"}
    | {"let's", "lets", "let", "us", "go", "play", "game", "mahjong", "anyone", "someone", "who", "in", "join"}
    | {"need", "one", "more", "please", "pls", "plz", "guys", "everyone", "all", "ready", "and", "with", "for"}
    | {"to", "is", "are", "you", "we", "here", "wait", "waiting", "add", "count", "ok", "okay", "yes", "hi", "hey"}
)

# ---------------------------------------------------------------------------------------------- arguments
# kind -> value -> spellings. The value is what the scoring core or the parser uses (a pattern key, a method …).

PATTERNS: dict[str, tuple[str, ...]] = {
    "kawuxing": ("卡五星", "卡五", "卡5星", "卡5", "kawuxing"),
    "pengpenghu": ("碰碰胡", "碰碰和", "对对胡", "对对和", "大对子", "大对", "pengpenghu"),
    "qingyise": ("清一色", "qingyise"),
    "qidui": ("七对", "七对子", "七小对", "小七对", "7对", "qidui"),
    "longqidui": ("龙七对", "豪华七对", "豪七", "longqidui"),
    "shuanglongqidui": ("双龙七对", "双豪华七对", "shuanglongqidui"),
    "dasanyuan": ("大三元", "dasanyuan"),
    "xiaosanyuan": ("小三元", "xiaosanyuan"),
    "mingsiguiyi": ("明四归一", "明四归", "mingsiguiyi"),
    "ansiguiyi": ("暗四归一", "暗四归", "ansiguiyi"),
    "shouzhuayi": ("手抓一", "全求人", "shouzhuayi"),
}
#: short names a 「是不是」 suggestion never offers for a mistyped word: one character off a common one (`七队` is 七对,
#: never 豪七), they would win its ties
NOT_SUGGESTED = frozenset({"豪七", "大对"})
#: a pattern and 清一色 said as one word (`清七对` is 清一色 and 七对): compound name -> the pattern keys it names, each
#: read as if typed apart (`胡 清七对 自摸` = `胡 清一色 七对 自摸`); only pairs the rules define
PATTERN_COMPOUNDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("清七对", "清七对子", "清七小对", "清小七对"), ("qingyise", "qidui")),
    **dict.fromkeys(("清龙七对", "清豪华七对", "清豪七"), ("qingyise", "longqidui")),
    **dict.fromkeys(("清双龙七对", "清双豪华七对"), ("qingyise", "shuanglongqidui")),
    **dict.fromkeys(
        ("清碰", "清碰碰", "清碰碰胡", "清对", "清对对胡", "清对对", "清大对", "清大对子"), ("qingyise", "pengpenghu")
    ),
}
#: characters that mark a word as a pattern's name (清, 碰, 对, 龙 …): an unknown word holding one is never left out
#: or swapped for a lesser pattern by a 「是不是」 suggestion (`清一条龙` is asked about, not booked as something less)
PATTERN_MARKS = frozenset("清碰对龙豪星归")
SITUATIONS: dict[str, tuple[str, ...]] = {
    "gangshangkaihua": ("杠上开花", "杠上花", "杠开", "gangshangkaihua"),
    "gangshangpao": ("杠上炮", "gangshangpao"),
    "haidilao": ("海底捞", "海底捞月", "海底", "haidilao"),
    "haidipao": ("海底炮", "haidipao"),
}
METHODS: dict[str, tuple[str, ...]] = {
    "self_draw": ("自摸", "自摸了", "自摸啦", "zimo", "self", "self-draw", "self-drawn", "selfdraw", "tsumo"),
    "discard": (
        "点",
        "点炮",
        "放炮",
        "炮",
        "逮炮",
        "接炮",
        "点的炮",
        "放的炮",
        "点炮了",
        "放炮了",
        "点的",
        "放的",
        "的炮",  # `老王的炮`: 老王 点的
        "打的",  # `七对 老王打的`: the tile 老王 discarded
        "打的炮",
        "点炮的是",  # `点炮的是老王`
        "放炮的是",
        "点炮的",
        "放炮的",
        "from",
        "dianpao",
    ),
    "rob_kong": ("抢杠", "抢杠胡", "抢杠和", "rob"),
}
#: a robbed kong told by whose it was, around the konger's name (`抢的老王的杠`, `抢了老王的杠`, `抢老王的杠`):
#: 抢杠 老王
ROBBED_KONG_SAID = (("抢的", "抢了", "抢"), ("的杠",))
#: what may lead a discarder named with 放的/点的 after the name (`炮是老王放的`, `是老王放的炮`): read as 点 老王; said
#: anywhere else, a word not understood
DISCARDER_LEADS = ("炮是", "是")
#: a kong or 碰 named inside a win (a meld, `碰 3s`) or as a kong's kind (`暗杠 3s`); `minggang` is regional
MELDS: dict[str, tuple[str, ...]] = {
    "peng": ("碰", "peng", "pung"),
    "angang": ("暗杠", "angang"),
    "xugang": ("蓄杠", "加杠", "补杠", "xugang"),
    "zhigang": ("直杠", "点杠", "zhigang"),
    "minggang": ("明杠", "minggang"),
}
#: a kong's kind as one character after `杠` (`杠 暗 3s`, `杠 @丙 直 点 @乙`), or said with 的 after the tile
KONG_KINDS: dict[str, tuple[str, ...]] = {
    "angang": ("暗", "暗的"),  # `我杠了红中 暗的`
    "xugang": ("蓄", "加", "补"),
    "zhigang": ("直",),
    "minggang": ("明",),
}
KEYWORDS: dict[str, tuple[str, ...]] = {
    "pihu": ("屁胡", "平胡", "屁和", "平和", "鸡胡", "小胡", "pihu"),
    "double": DOUBLE_WIN_WORDS,  # understood, changes nothing: two winners already say it
    "chain": ("杠上杠", "连杠", "chain"),
    # 查大叫 at a draw: `荒庄 听 @乙 123p…`, `荒庄 没人听`
    "ready": ("听", "听牌", "ting"),
    "nobody_ready": (*NOBODY_READY_SAID, "nobody"),
    # 买马: the horse tile, `买马 7s` in a win or after it
    "ma": ("买马", "马牌", "maima"),
}
#: counts a win by patterns brings where the rules ask (数坎; 跑恰摸八's 恰 and 八), written with a number before or
#: after the word, spaced or not: `坎2`, `2坎`, `坎 2`, `2个坎`, `恰1 八0`
COUNT_WORDS: dict[str, tuple[str, ...]] = {
    "kan": ("坎", "数坎", "坎数", "个坎", "kan"),
    "qia": ("恰", "恰数", "个恰", "qia"),
    "ba": ("八", "八数", "ba"),
}

#: money said with a win (`七对 自摸 4块一家`, `每人8块`, `8块`): a unit after the number, or a word for "each"
#: before or after it. The bot reckons the money itself: the win is asked about without it, never booked on a guess
STATED_AMOUNT_EACH = ("一家", "每家", "每人", "一人", "各家", "各人", "每个人", "各")
STATED_AMOUNT_UNITS = ("块钱", "块", "元", "米")

#: a 胡/杠 button flow's controls typed by whoever started it (`bot.commands.flows.typed_flow_answer`), besides the
#: buttons' own labels: the action each word presses (✅ 确认, 预览 ▶ once the patterns are told, ◀ 返回, 杠上杠);
#: the Latin ones only in a group that reads English
FLOW_TYPED_WORDS: dict[str, tuple[str, ...]] = {
    "ok": ("确认", "确定", "对", "对的", "是的", "好", "好的", "嗯", "记吧", "confirm", "yes", "ok", "okay", "book it"),
    "v": ("预览", "好了", "就这些", "没了", "没有了", "preview", "done", "that's all", "that's it"),
    "b": ("返回", "back", "go back"),
    "c": ("杠上杠", "连杠", "chained", "chain"),
}
#: the words a typed answer to a flow's 漂/坎/恰/八/马 question may start with (`漂 2`, `坎 2`, `买马 7s`, `horse 7s`)
FLOW_INPUT_WORDS: dict[str, tuple[str, ...]] = {
    "piao": ("漂", *MY_PIAO_WORDS, "piao"),
    **COUNT_WORDS,
    "ma": ("买马", "马牌", "马", "maima", "buy horse", "horse", "ma"),
}

#: 明杠 means 直杠 in some places and 蓄杠 in others: a group setting (`设置 明杠 蓄杠`) says which
#: (`config minggang added` in English: the kinds as the replies name them, `exposed kong`, `added kong`, or short)
MINGGANG_CHOICES: dict[str, tuple[str, ...]] = {
    "zhigang": ("直杠", "zhigang", "exposed", "exposed kong", "exposed_kong"),
    "xugang": ("蓄杠", "xugang", "added", "added kong", "added_kong"),
}

# ---------------------------------------------------------------------------------------------- tiles
#: whole-word tile nicknames -> tenhou notation (the core reads 中 发 白 红中 发财 白板 itself)
TILE_NICKNAMES: dict[str, str] = {"幺鸡": "1s", "一鸡": "1s", "红中": "7z", "发财": "6z", "白板": "5z"}
#: numerals as players write them -> digits: banker's numerals (伍筒), 幺 for one, 两 for two
TILE_NUMERALS: dict[str, str] = dict(zip("一二三四五六七八九", "123456789", strict=True))
TILE_NUMERALS |= dict(zip("壹贰叁肆伍陆柒捌玖", "123456789", strict=True)) | {"参": "3", "幺": "1", "两": "2"}
TILE_NUMERALS |= {d: d for d in "123456789"}
#: suit marks -> tenhou letters: w(an) t(iao) b(ing) as typed on a Latin keyboard, and the Chinese suit words
TILE_SUITS: dict[str, str] = {"p": "p", "s": "s", "m": "m", "z": "z", "w": "m", "t": "s", "b": "p"}
TILE_SUITS |= {"筒": "p", "饼": "p", "条": "s", "索": "s", "万": "m"}
TILE_DRAGONS: dict[str, str] = {"中": "7z", "发": "6z", "白": "5z"}
#: tiles as English speakers name them (`3 dots`, `three bamboo`): a number, then its suit's word -> tenhou letter
TILE_SUITS_EN: dict[str, str] = dict.fromkeys(("dot", "dots", "circle", "circles"), "p")
TILE_SUITS_EN |= dict.fromkeys(("bamboo", "bamboos", "bam", "bams"), "s")
TILE_SUITS_EN |= dict.fromkeys(("character", "characters", "crak", "craks", "crack", "cracks"), "m")
TILE_NUMERALS_EN: dict[str, str] = {
    word: str(number)
    for number, word in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine"), 1)
}
#: English words for tiles 卡五星 has not (a wind, `east wind`; a flower, a season): refused as the Chinese 东风 is,
#: never left out of a guess (`concealed kong east wind` is no tile-less 暗杠)
WINDS_EN = ("east", "south", "west", "north")
NO_TILE_EN = frozenset({*WINDS_EN, "wind", "winds", "flower", "flowers", "season", "seasons"})

# ---------------------------------------------------------------------------------------------- English names
#: the English the bot's replies name 卡五星's words with (bot/texts.py: `concealed kong (暗杠)`, `a self-draw`,
#: `self-drawn`, `+ pong 3s`, `7z = red dragon`): how a win was won, a dragon's colour (a kong's kind: above)
METHOD_NAMES_EN = {"self_draw": "self-drawn", "discard": "on a discard", "rob_kong": "by robbing a kong"}
DRAGON_NAMES_EN = {"5z": "white", "6z": "green", "7z": "red"}
#: a robbed kong as English speakers say it (`win rob kong @amy seven pairs`, `robbing the kong from @amy`); a line
#: may start with one (`rob kong @amy seven pairs`: that win)
ROBBING_EN = (
    *(f"{verb} {the}kong" for verb in ("rob", "robbed", "robbing") for the in ("", "a ", "the ")),
    "by robbing the kong",
)
#: each English name the bot prints -> the Chinese word it glosses, read as that word when an English group types
#: it back (`win seven pairs self-draw`, `concealed kong red dragon`; case, hyphens and spaces aside: `Self drawn`).
#: The patterns' and situations' names are the scoring core's own (`ledger.scoring.kawuxing.patterns`), which
#: `bot.grammar` reads back beside these
ENGLISH_NAMES: dict[str, str] = {
    **{KONG_NAMES_EN[kind]: MELDS[kind][0] for kind in KONG_NAMES_EN},
    **{METHOD_NAMES_EN[method]: METHODS[method][0] for method in METHOD_NAMES_EN},
    **{f"{DRAGON_NAMES_EN[tile]} dragon": nickname for nickname, tile in TILE_NICKNAMES.items() if tile[1] == "z"},
    "self-draw": "自摸",
    "win on a discard": "点炮",
    "pong": "碰",
    "plain win": "屁胡",
}
#: what English speakers type for those words besides the names the bot prints (read back as the Chinese word, as
#: `ENGLISH_NAMES` are; case, hyphens and spaces aside): patterns' common names (`full flush` is 清一色), ways of
#: winning (`self drew`, `by self draw`) and the discarder said after the name (`tom discarded`, `ben dealt in`: read as
#: `点炮` after a name is, `from tom`)
ENGLISH_SAID: dict[str, str] = {
    **dict.fromkeys(("pure one suit", "full flush", "pure flush", "flush"), "清一色"),
    **dict.fromkeys(("plain hand", "chicken hand"), "屁胡"),
    **dict.fromkeys(("ka wu xing", "kawu xing"), "卡五星"),
    **dict.fromkeys(("all pongs", "all pung", "all pong", "pung pung", "all triplets"), "碰碰胡"),
    **dict.fromkeys(("seven pair",), "七对"),
    **dict.fromkeys(("small three dragons",), "小三元"),
    **dict.fromkeys(("selfdrawn", "self drew", "by self draw", "by self drawing"), "自摸"),
    **dict.fromkeys((*FROM_SAID_EN, "discarded", "dealt in", "dealt it in", "dealt into it", "fed me"), "点炮"),
    **dict.fromkeys(ROBBING_EN, "抢杠"),
    # the regional inputs in a win's or a draw's line (`… self-draw buy horse 7s`, `draw ready hand @b 123p…`)
    **dict.fromkeys(MA_EN, "买马"),
    **dict.fromkeys(READY_HANDS_EN, "听"),
    **dict.fromkeys(("nobody ready", "no one ready", "nobody was ready"), "没人听"),
}
#: words English speakers put between a win's words that say nothing of it (`I won with seven pairs`, `seven pairs
#: and one suit`, `seven pairs + one suit`, `a plain hand`): read as nothing in a record's arguments, unless a seat is
#: called so
ENGLISH_FILLER_WORDS = frozenset({"with", "and", "a", "an", "+", "&", "by", "on"})
#: a discard told with its discarder's name in the possessive (`on tom's discard`, `from tom’s discard`, `off @tom's
#: discard`): the words before the name, and after it, read as `from tom`
ENGLISH_DISCARD_OF = (("on", "from", "off", "by"), ("discard", "discarded tile", "tile"))
#: what English speakers say in more (or other) words -> the words the bot reads: patterns typed with a digit (`7
#: pairs`), the discarder said twice over (`on a discard from tom`, `on the discard of tom`: `from tom`)
ENGLISH_PHRASES = {
    **dict.fromkeys(("7 pairs", "7pairs", "7 pair"), "seven pairs"),
    **dict.fromkeys(("a pong of", "pong of"), "pong"),  # `I won kawuxing from tom with a pong of 3s`
    **{f"{said} {by}": "from" for said in ("on a discard", "on the discard of") for by in ("from", "by", "off")},
    **dict.fromkeys(("on the discard of", "from the discard of", "on a discard of"), "from"),
    **{f"{robbing} from": robbing for robbing in (*ROBBING_EN, METHOD_NAMES_EN["rob_kong"])},  # the konger once
}


def spellings(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """spelling -> value, for a table of value -> spellings."""
    return {spelling: value for value, words in table.items() for spelling in words}


def canonical(table: Mapping[str, tuple[str, ...]], value: str) -> str:
    """The first spelling of a value: what help texts and suggestions show."""
    return table[value][0]
