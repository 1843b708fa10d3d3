"""碰胡 tables: every event is typed as it happens and paid at once (碰 点 @丙, 扫, 过扫, 跑起 点 @丙, 提蛇, 报警,
五福, 胡 自摸 / 胡 点 @丙 [中庄] [跑起], 天胡, 地胡, 小七对, 荒庄; 起手 marks a deal-time 扫/提蛇). Each reply
says what was understood, each seat's change and the running 碰/扫 counts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.commands._common import book as book_events
from bot.commands._common import (
    booking_lines,
    edit_changes_head,
    edited_key,
    money_lines,
    my_seat,
    named_now,
    replayed_reply,
    seat_resolver,
)
from bot.commands._recording import next_hand_lines
from bot.commands.correct import KEPT_BY_GAME, replacing
from bot.commands.duplicates import hold_back
from bot.commands.suggest import ask
from bot.core import Context, Quiet, Refusal, SendText, registry
from bot.games._common import game_table
from bot.grammar import english_said, fold, implied, read, tokens, told_count, without_laughter
from bot.texts import joined, money, register, register_describer, scoring_reason
from bot.vocabulary import (
    COMMAND_WORDS,
    DEALER_WORD,
    DEALT_IN_WORDS,
    FROM_SAID_EN,
    METHODS,
    PENGHU_COMMAND_WORDS,
    PENGHU_DISCARDED_BY,
    PENGHU_DONE_EN,
    PENGHU_FIRST_PERSON_WORDS,
    PENGHU_WALL_SAID,
    PENGHU_WON_BY_PLAY,
    PENGHU_WORDS_EN,
    WINNER_WON_WORDS,
    ZHONGZHUANG_WORDS,
)
from ledger.events import PENGHU_KINDS, Draw, Event, PenghuPlay, payload
from ledger.hands import build_request
from ledger.scoring import ScoringError
from ledger.scoring import answer as scored
from ledger.scoring.penghu import DEAL_ONLY
from ledger.service import DuplicateRecord, ScoringRefused, TableInfo, TableRecord

PENGHU = ("penghu",)
#: the scoring core's refusals (by their reading's key) as the chat says them: why, in the players' words (the core
#: names the contract's fields: `请记 wufu`), and the line that records what can be, the player named as the table
#: lists them so that anyone seated may send it (the `paiju score` answer is unchanged)
IN_PLAYERS_WORDS = {
    "fifth_is_wufu": "penghu_after_baojing",
    "fifth_needs_baojing": "penghu_fifth_needs_baojing",
    "wufu_without_baojing": "penghu_wufu_needs_baojing",
    "third_sao_is_tishe": "penghu_three_sao_is_tishe",
    "dealer_xiaoqidui_sao": "penghu_xiaoqidui_needs_sao",
    "baojing_early": "penghu_baojing_early",
    "baojing_twice": "penghu_baojing_twice",
    "nothing_to_run": "penghu_nothing_to_run",
    "own_discard": "penghu_own_discard",
    "deal_only": "penghu_deal_only",
    "dealer_dihu": "penghu_dealer_dihu",
    "zhongzhuang": "penghu_zhongzhuang_not_dealer",
}
#: the words before a discarder's name (`碰 点 @丙`): 卡五星's words for a discard too (`胡 点炮 老王`, `胡 放的炮 丙`,
#: `I won off ben`)
SOURCE_WORDS = frozenset({"打", "放", *FROM_SAID_EN, *(fold(word) for word in METHODS["discard"])})
#: a tile from the wall, as the words say it (`碰 摸`) and as players tell it done (`碰了 摸的`, `碰 翻出来的`); in
#: English as the replies' `self-drawn` and as players say it (`pong self drawn`, `win self-draw`, `from the wall`)
WALL_WORDS = PENGHU_WALL_SAID | frozenset(
    {*(w for w in METHODS["self_draw"] if w.isascii()), "selfdrawn", "self drawn", "self drew", "self draw"}
    | {"from the wall", "off the wall", "from wall", "the wall"}
)
#: the word a discarder is told with, as the allowed words of each record name it
DISCARD = "点"
DISCARDED_BY = PENGHU_DISCARDED_BY
DEAL_WORDS = frozenset({"起手", "deal", "at the deal", "at deal"})
DEAL_WORDS_SAID = "起手"
#: the words above typed in more than one English word, read as one (`self drawn`, `at the deal`), longest first
PHRASES = sorted((word for word in WALL_WORDS | DEAL_WORDS if " " in word), key=lambda w: -len(w.split()))
FLAG_WORDS = {"中庄": "zhongzhuang", "跑起": "paoqi", "zhongzhuang": "zhongzhuang", "paoqi": "paoqi"}
#: each flag as a line says it
FLAG_SAID = {"zhongzhuang": "中庄", "paoqi": "跑起"}
#: the wins at the deal that move the most money at once (小七对 40 each, 天胡 10 each, 地胡 24 from the dealer):
#: their word typed alone, naming nobody (`小七对`, `地胡了`), is asked about before it is booked — it is also
#: what players exclaim; with its player (`我小七对了`, `小七对 @乙`, `@乙 小七对`) it is booked at once
ASKED_ALONE = frozenset({"tianhu", "dihu", "xiaoqidui"})

register(
    {
        "penghu_unknown_word": {
            "zh": "看不懂「{word}」：写座位上的人（@某人 或名字），以及 点 @某人、摸、起手、中庄、跑起 这类词。"
            "例如：碰 点 @丙 ｜ 扫 起手 ｜ 胡 @乙 点 @丙",
            "en": "Cannot read “{word}”: name a seated player (@someone or a name) and words like from @x, "
            "self-drawn, at the deal, 中庄 (the dealer's repeat win), 跑起 (a run-up). Examples: pong from @c | sweep "
            "at the deal | win @b from @c",
        },
        "penghu_no_patterns": {
            "zh": "碰胡的胡不分番型，「{word}」不用写：胡 点 @丙（丙一人出）｜ 胡 自摸（每人出）。",
            "en": "A Penghu (碰胡) win has no patterns; leave out “{word}”: win from @c (c pays) | win self-drawn "
            "(each pays).",
        },
        "penghu_other_game": {
            "zh": "这桌打的是碰胡，没有{word}（那是卡五星的记法）。"
            "碰胡记：碰 点 @丙 ｜ 扫 ｜ 胡 点 @丙 ｜ 荒庄；发「帮助 记牌」看怎么记。",
            "en": "This table plays Penghu (碰胡), which has no {word} (a Ka Wu Xing (卡五星) record). Penghu records: "
            "pong from @c | sweep | win from @c | draw; send help record for more.",
        },
        "penghu_word_not_here": {"zh": "「{word}」用不到{what}上。", "en": "“{word}” does not apply to {what}."},
        "penghu_player_missing": {
            "zh": "你不在这桌上，请写出是谁：例如 {what} @甲",
            "en": "You are not seated; say who it was, e.g. {what} @a",
        },
        "penghu_two_players": {
            "zh": "一次只记一个人：{first} 还是 {second}？",
            "en": "One player: {first} or {second}?",
        },
        "penghu_source_missing": {
            "zh": "{what}的牌是谁打的？写 点 @某人（一人出）；翻出来的牌写 摸（每人出）。",
            "en": "Whose tile was that {what}? Write from @someone (one pays); a tile from the wall: self-drawn "
            "(each pays).",
        },
        "penghu_zhongzhuang_not_dealer": {
            "zh": "没有记录：只有庄家 {dealer} 才能中庄",
            "en": "Not recorded: only the dealer {dealer} can win with the dealer's bonus (中庄).",
        },
        "penghu_two_sources": {
            "zh": "一次只记一个点的人：是 {first} 打的，还是 {second}？点 后面只写打出这张牌的那一个人。",
            "en": "One discarder: was it {first}'s tile or {second}'s? After from, name the one who discarded it.",
        },
        "penghu_source_and_wall": {
            "zh": "「点」和「摸」只能写一个。",
            "en": "Either from @someone or self-drawn, not both.",
        },
        "penghu_source_needs_name": {
            "zh": "「{word}」后面要写是谁：例如 点 @丙",
            "en": "Say who after “{word}”: {word} @c",
        },
        "penghu_no_args": {"zh": "{what}后面不用写别的。", "en": "{what} takes nothing more."},
        "penghu_paoqi_source": {
            "zh": "跑起的牌是谁打的？写 跑起 点 @丙（丙一人出）。",
            "en": "Whose discard ran up (跑起)? Write 跑起 from @c (c pays alone).",
        },
        "penghu_paoqi_wall": {
            "zh": "跑起没有摸的：跑起的总是别人打的牌，写 跑起 点 @丙（丙一人出）。",
            "en": "A 跑起 is never self-drawn: it runs up someone's discard. Write 跑起 from @c (c pays alone).",
        },
        "penghu_paoqi_corrected_wall": {
            "zh": "跑起没有自摸：跑起的总是别人打的牌，那个人一人出。改成 在这里只能改是谁打的（改成 点 @丙）"
            "或是谁跑起（改成 @乙 点 @丙）；记的不是跑起，写整条，例如 改成 胡 自摸。",
            "en": "A 跑起 is never self-drawn: it runs up someone's discard, and that player pays alone. Here a "
            "correction can change whose discard it was (change to from @c) or who ran it up (change to @b from "
            "@c); if it was no 跑起, write the whole record, e.g. change to win self-drawn.",
        },
        "penghu_alone_asked": {
            "zh": "只写了「{word}」，记下就是 {player} {amount}。",
            "en": "“{word}” alone: booking it gives {player} {amount}. ",
        },
        "penghu_paoqi_hu_source": {
            "zh": "跑起胡是跑起别人打的牌：写 胡 点 @丙 跑起。",
            "en": "A run-up win (跑起胡) runs up someone's discard: write win from @c 跑起.",
        },
        "penghu_after_baojing": {
            "zh": "{name} 已报警，第五次碰/扫就是五福：记 五福 摸 或 五福 点 @丙（替人记：{name} 五福 摸）。",
            "en": "{name} has called the alarm (报警): the fifth pong or sweep is a five-fortune win (五福). Write "
            "五福 self-drawn or 五福 from @c (for someone else: {name} 五福 self-drawn).",
        },
        "penghu_fifth_needs_baojing": {
            "zh": "{name} 已经碰/扫了 4 次：先记 报警，第五次记 五福（例如：{name} 报警，然后 {name} 五福 摸）。",
            "en": "{name} has 4 pongs and sweeps (碰/扫) already: record the alarm (报警) first, then the fifth as a "
            "five-fortune win (五福) (e.g. {name} 报警, then {name} 五福 self-drawn).",
        },
        "penghu_wufu_needs_baojing": {
            "zh": "{name} 没有报警，五福不算：五福是报警之后的第五次碰/扫。第四次碰/扫之后先记 报警"
            "（例如：{name} 报警，然后 {name} 五福 摸）。",
            "en": "{name} has not called the alarm (报警), so no five-fortune win (五福): 五福 is the fifth pong or "
            "sweep (碰/扫) after 报警. After the fourth, record 报警 first (e.g. {name} 报警, then {name} 五福 "
            "self-drawn).",
        },
        "penghu_three_sao_is_tishe": {
            "zh": "起手连扫三次算提蛇：记 提蛇 起手（例如：{name} 提蛇 起手）。",
            "en": "Three sweeps (扫) at the deal are a four of a kind (提蛇): write 提蛇 at the deal (e.g. {name} 提蛇 "
            "at the deal).",
        },
        "penghu_xiaoqidui_needs_sao": {
            "zh": "庄家的小七对要带一个扫：先记 扫 起手（例如：{name} 扫 起手，然后 {name} 小七对）。",
            "en": "The dealer's little seven pairs (小七对) needs a sweep (扫): record sweep at the deal first (e.g. "
            "{name} sweep at the deal, then {name} 小七对).",
        },
        "penghu_baojing_early": {
            "zh": "没有记录：报警要在第四次碰/扫之后，{name} 现在是 {count} 次。碰/扫满 4 次再记：{name} 报警",
            "en": "Not recorded: the alarm (报警) comes after the fourth pong or sweep (碰/扫); {name} has {count}. "
            "At four: {name} 报警",
        },
        "penghu_baojing_twice": {
            "zh": "没有记录：{name} 已经报过警了（一局报一次）。第五次碰/扫记：{name} 五福 摸 或 {name} 五福 点 @丙",
            "en": "Not recorded: {name} has called the alarm (报警) already (once a hand). The fifth pong or sweep "
            "(碰/扫) is a five-fortune win (五福): {name} 五福 self-drawn or {name} 五福 from @c",
        },
        "penghu_nothing_to_run": {
            "zh": "没有记录：{name} 还没有碰或扫，无从跑起（跑起的是碰过、扫过的牌）。先记 TA 的碰或扫，"
            "例如：{name} 碰 点 @丙；{example}",
            "en": "Not recorded: {name} has no pong or sweep (碰/扫) yet, so nothing to run (跑起) from. Record that "
            "first, e.g. {name} pong from @c; {example}",
        },
        "penghu_nothing_to_run_paoqi": {"zh": "跑起再记：{name} 跑起 点 @丙", "en": "then: {name} 跑起 from @c"},
        "penghu_nothing_to_run_hu": {
            "zh": "没有跑起的胡记：{name} 胡 点 @丙",
            "en": "a win with no 跑起: {name} win from @c",
        },
        "penghu_own_discard": {
            "zh": "没有记录：{name} 不能从自己打出的牌得钱。点 后面写打出这张牌的人，例如：{name} {what} 点 @丙",
            "en": "Not recorded: nobody is paid for their own discard. After from, name who discarded it, e.g. "
            "{name} {what} from @c",
        },
        "penghu_deal_only": {
            "zh": "没有记录：{what}只在起手时算，这一局已经开打了。开打以后的胡记：{name} 胡 自摸 或 {name} 胡 点 @丙",
            "en": "Not recorded: {what} happens only at the deal, and play has begun. A win in play: {name} win "
            "self-drawn or {name} win from @c",
        },
        "penghu_dealer_dihu": {
            "zh": "没有记录：地胡是胡庄家 {dealer} 打出的第一张牌，庄家自己不能地胡。庄家起手就胡记：{dealer} 天胡",
            "en": "Not recorded: 地胡 is a win on the dealer {dealer}'s first discard; the dealer cannot win it. The "
            "dealer's complete hand at the deal: {dealer} 天胡",
        },
        "penghu_deal_over": {
            "zh": "没有记录：这一局已经开打了（记了 {what}）。起手的扫、提蛇开打前就亮在桌上，"
            "开打以后不能再记「起手」。开打后摸到的记「{word}」，不写「起手」。",
            "en": "Not recorded: play has begun (recorded: {what}). Sweeps and fours of a kind (扫/提蛇) at the deal "
            "are laid down before the first discard, so “at the deal” no longer applies. One drawn in play: write "
            "{word} without it.",
        },
        "penghu_won_by_play": {
            "zh": "没有记录：{play}了就胡（{word}），{play}和胡各算各的钱，分两条记：先发「{first}」，再发「{then}」。",
            "en": "Not recorded: a win made by a {play} ({word}) is two records, each paid: first send “{first}”, "
            "then “{then}”.",
        },
        "penghu_counts": {"zh": "碰/扫次数：{counts}", "en": "Pongs (碰) and sweeps (扫) so far: {counts}"},
        "penghu_count": {
            "zh": "{name} {total}（碰{peng} 扫{sao}）",
            "en": "{name} {total} (pong ×{peng}, sweep ×{sao})",
        },
        "penghu_baojing_state": {"zh": "已报警：{names}", "en": "Alarm (报警) called: {names}"},
        "penghu_hand_over": {"zh": "第{number}局 {what}", "en": "Hand {number}: {what}"},
        "pev_peng": {"zh": "碰", "en": "pong (碰)"},
        "pev_sao": {"zh": "扫", "en": "sweep (扫)"},
        "pev_guosao": {"zh": "过扫", "en": "passed sweep (过扫)"},
        "pev_paoqi": {"zh": "跑起", "en": "run-up (跑起)"},
        "pev_tishe": {"zh": "提蛇", "en": "four of a kind (提蛇)"},
        "pev_baojing": {"zh": "报警", "en": "alarm (报警)"},
        "pev_wufu": {"zh": "五福", "en": "five-fortune win (五福)"},
        "pev_hu": {"zh": "胡", "en": "wins (胡)"},
        "pev_win": {"zh": "胡", "en": "win (胡)"},
        "pev_tianhu": {"zh": "天胡", "en": "heavenly hand (天胡)"},
        "pev_dihu": {"zh": "地胡", "en": "earthly hand (地胡)"},
        "pev_xiaoqidui": {"zh": "小七对", "en": "little seven pairs (小七对)"},
        "pev_draw": {"zh": "荒庄", "en": "drawn hand (荒庄)"},
        "pev_line": {"zh": "{player} {what}{detail}", "en": "{player} {what}{detail}"},
        "pev_from": {"zh": "，点 {source}（一人出）", "en": ", from {source} (one pays)"},
        "pev_each": {"zh": "（每人出）", "en": " (each pays)"},
        "pev_at_deal": {"zh": "（起手）", "en": ", at the deal"},
        "pev_zhongzhuang": {"zh": "，中庄", "en": ", the dealer's repeat win (中庄)"},
        "pev_paoqi_hu": {"zh": "，跑起胡", "en": ", run-up win (跑起胡)"},
        "pev_dealer_pays": {"zh": "（庄家 {dealer} 一人出）", "en": " (the dealer {dealer} pays)"},
        "pev_times": {"zh": "×{count}", "en": " ×{count}"},
        "penghu_count_in_play": {
            "zh": "「{word}」只用在起手：起手连扫记 起手扫 两个（或 起手连扫）。开打以后扫一次记一条：扫",
            "en": "“{word}” applies only at the deal: two sweeps (扫) at the deal are sweep at the deal x2 (起手连扫). "
            "In play, one record a sweep: sweep",
        },
    }
)


@dataclass
class Spec:
    """A typed 碰胡 record: who, whose discard (None: each pays), and the keywords used."""

    player: str | None = None
    source: str | None = None
    wall: bool = False
    at_deal: bool = False
    flags: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    #: how many told at once (`起手扫 两个`, `起手连扫`: two deal-time 扫), and the word that said it
    count: int = 1
    counted: str = ""


def parse(args: str, resolve: Callable[[str], str | None]) -> Spec:
    """Players and keywords of a record; the player named first is who did it, `点 @x` names the discarder, and so
    does a name before what follows a discarder's (`碰 丙 点的`, `老王 碰 丙 点的`)."""
    spec = Spec()
    items = _phrases_joined(tokens(english_said(args)))  # `ben's tile`: `from ben`
    index = 0
    while index < len(items):
        source = spec.source
        token = items[index]
        folded = fold(token)
        after = items[index + 1] if index + 1 < len(items) else ""
        named = resolve(after) if folded in SOURCE_WORDS and after else None
        if named is not None:
            spec.source = named
            spec.keywords.append(token)
            index += 1
        elif fold(after) in DISCARDED_BY and (discarder := resolve(token)) is not None:
            spec.source = discarder
            spec.keywords.append(DISCARD)
            index += 1
        elif folded in WALL_WORDS:
            spec.wall = True
            spec.keywords.append(token)
        elif folded in DEAL_WORDS:
            spec.at_deal = True
            spec.keywords.append(token)
        elif folded in FLAG_WORDS:
            spec.flags.append(FLAG_WORDS[folded])
            spec.keywords.append(token)
        elif (count := told_count(token)) is not None:
            if not spec.counted:  # the count said first: `起手连扫 三次` is three (连扫三次 is a 提蛇), not 连扫's two
                spec.count, spec.counted = count, token
            spec.keywords.append(token)
        elif folded in SOURCE_WORDS:
            raise Refusal("penghu_source_needs_name", word=token)
        elif (pointed := _pointed_at(token, resolve)) is not None:  # `点老王`: 点 老王
            spec.source = pointed
            spec.keywords.append(DISCARD)
        elif (glued := _discarded_by(token, resolve)) is not None:
            spec.source = glued
            spec.keywords.append(DISCARD)
        else:
            name = resolve(token)
            if name is None and _kawuxing_word(token):
                raise _other_game(Refusal("penghu_no_patterns", word=token), items, resolve)
            if name is None:
                raise Refusal("penghu_unknown_word", word=token)
            if spec.player is not None and spec.player != name:
                raise Refusal("penghu_two_players", first=spec.player, second=name)
            spec.player = name
        if source is not None and spec.source != source:  # `碰 点 老表 点 小刚`: whose discard?
            raise Refusal("penghu_two_sources", first=source, second=spec.source)
        index += 1
    if spec.source is not None and spec.wall:
        raise Refusal("penghu_source_and_wall")
    return spec


def _phrases_joined(items: list[str]) -> list[str]:
    """The words of an English phrase typed apart (`self drawn`, `from the wall`, `at the deal`) as one word."""
    out: list[str] = []
    index = 0
    while index < len(items):
        size = next((len(p.split()) for p in PHRASES if fold(" ".join(items[index : index + len(p.split())])) == p), 1)
        out.append(" ".join(items[index : index + size]))
        index += size
    return out


def _pointed_at(token: str, resolve: Callable[[str], str | None]) -> str | None:
    """The seat a word names with a discard word glued before it (`点老王`, `放大鹏`), else None; a seat's own name
    that starts like one stays that seat."""
    folded = fold(token)
    if resolve(token) is not None:
        return None
    for word in sorted(SOURCE_WORDS, key=len, reverse=True):
        if folded.startswith(word) and len(folded) > len(word):
            return resolve(folded[len(word) :])
    return None


def _discarded_by(token: str, resolve: Callable[[str], str | None]) -> str | None:
    """The seat a word names with the discard glued after it (`丙的`, `甲点的`), else None."""
    folded = fold(token)
    for suffix in DISCARDED_BY:
        if folded.endswith(suffix) and len(folded) > len(suffix):
            return resolve(token[: -len(suffix)])
    return None


def _kawuxing_word(token: str) -> bool:
    """A word of a 卡五星 win that a 碰胡 win has no use for: a pattern or situation (`清一色`, `杠上开花`), a 屁胡."""
    return any(word.kind in {"pattern", "situation", "pihu"} for word in read(token))


def _other_game(refusal: Refusal, items: list[str], resolve: Callable[[str], str | None]) -> Refusal:
    """A refusal of a 卡五星 record at a 碰胡 table, said even when the line named its player first (`@乙 胡了 清一色
    点 @丙`, `老王 暗杠 3s`) when every word is a record's: a player, 碰胡's own words, 卡五星's vocabulary."""

    def known(token: str) -> bool:
        if fold(token) in SOURCE_WORDS | WALL_WORDS | DEAL_WORDS | FLAG_WORDS.keys() or resolve(token) is not None:
            return True
        return all(word.kind not in {"unknown", "known"} for word in read(token))

    refusal.heard = bool(items) and all(known(token) for token in items)
    return refusal


def build_event(kind: str, spec: Spec, player: str, what: str, allowed: frozenset[str]) -> PenghuPlay:
    """The event of a command; keywords the event cannot carry are refused by name."""
    allowed_words: set[str] = set()
    if "from" in allowed:
        allowed_words |= SOURCE_WORDS | WALL_WORDS
    if "at_deal" in allowed:
        allowed_words |= DEAL_WORDS
    allowed_words |= {word for word, flag in FLAG_WORDS.items() if flag in allowed}
    for word in spec.keywords:
        if fold(word) not in allowed_words and not ("count" in allowed and told_count(word) is not None):
            raise Refusal("penghu_word_not_here", word=word, what=what)
    if spec.count != 1 and not spec.at_deal:  # `扫 两个`: 扫 in play come one at a time
        raise Refusal("penghu_count_in_play", word=spec.counted)
    return PenghuPlay(
        kind=PENGHU_KINDS[kind],
        player=player,
        discarder=spec.source if "from" in allowed else None,
        at_deal=spec.at_deal,
        zhongzhuang="zhongzhuang" in spec.flags,
        paoqi="paoqi" in spec.flags,
    )


#: command key -> (event type, chat words, event fields its keywords may set, whether it needs 点 @x or 摸)
COMMANDS: dict[str, tuple[str, tuple[str, ...], frozenset[str], bool]] = {
    "peng": ("peng", PENGHU_COMMAND_WORDS["peng"], frozenset({"from"}), True),
    "sao": ("sao", PENGHU_COMMAND_WORDS["sao"], frozenset({"at_deal", "count"}), False),
    "guosao": ("guosao", PENGHU_COMMAND_WORDS["guosao"], frozenset(), False),
    "paoqi": ("paoqi", PENGHU_COMMAND_WORDS["paoqi"], frozenset({"from"}), False),
    "tishe": ("tishe", PENGHU_COMMAND_WORDS["tishe"], frozenset({"at_deal"}), False),
    "baojing": ("baojing", PENGHU_COMMAND_WORDS["baojing"], frozenset(), False),
    "wufu": ("wufu", PENGHU_COMMAND_WORDS["wufu"], frozenset({"from"}), True),
    "hu": ("hu", PENGHU_COMMAND_WORDS["hu"], frozenset({"from", "zhongzhuang", "paoqi"}), True),
    "tianhu": ("tianhu", PENGHU_COMMAND_WORDS["tianhu"], frozenset(), False),
    "dihu": ("dihu", PENGHU_COMMAND_WORDS["dihu"], frozenset(), False),
    "xiaoqidui": ("xiaoqidui", PENGHU_COMMAND_WORDS["xiaoqidui"], frozenset(), False),
}
HELP = {
    "peng": (
        "碰：碰 点 @丙（丙打的，一人出）｜ 碰 摸（翻出来的牌，每人出）｜ 碰 @乙 点 @丙",
        "pong (碰): pong from @c (c pays) | pong self-drawn (a tile from the wall: each pays) | pong @b from @c",
    ),
    "sao": ("扫：扫 ｜ 扫 起手 ｜ 扫 @乙", "sweep (扫): sweep | sweep at the deal | sweep @b"),
    "guosao": ("过扫：过扫 ｜ 过扫 @乙", "a passed sweep (过扫): 过扫 | 过扫 @b"),
    "paoqi": ("跑起：跑起 点 @丙（丙一人出 12）", "a run-up (跑起): 跑起 from @c (c pays 12)"),
    "tishe": ("提蛇：提蛇 ｜ 提蛇 起手", "four of a kind (提蛇): 提蛇 | 提蛇 at the deal"),
    "baojing": (
        "报警：第四次碰/扫之后报警，才能五福",
        "the alarm (报警): 报警 after the 4th pong or sweep, before a five-fortune win (五福)",
    ),
    "wufu": (
        "五福：五福 摸 ｜ 五福 点 @丙（报警之后）",
        "a five-fortune win (五福): 五福 self-drawn | 五福 from @c (after 报警)",
    ),
    "hu": (
        "胡：胡 自摸 ｜ 胡 点 @丙 ｜ 胡 点 @丙 跑起 ｜ 中庄 自摸（庄家再胡）",
        "win (胡): win self-drawn | win from @c | win from @c 跑起 (a run-up) | 中庄 self-drawn (the dealer wins "
        "again)",
    ),
    "tianhu": ("天胡：起手就胡", "a heavenly hand (天胡): a complete hand at the deal"),
    "dihu": ("地胡：胡庄家打的第一张牌（庄家一人出）", "an earthly hand (地胡): win on the dealer's first discard"),
    "xiaoqidui": ("小七对：起手七对（庄家要带一个扫）", "little seven pairs (小七对) at the deal"),
}


#: the English records told done in the first person (`I swept`): their line may end in laughter, as `扫了 哈哈`
PENGHU_DONE_EN_WORDS = frozenset(word for words in PENGHU_DONE_EN.values() for word in words)


def _register(key: str) -> None:
    kind, aliases, allowed, needs_source = COMMANDS[key]
    help_zh, help_en = HELP[key]

    def handler(ctx: Context) -> SendText:
        table = game_table(ctx, "penghu")
        mine = ctx.word in PENGHU_FIRST_PERSON_WORDS  # `我扫了`, `我碰了 丙的`: the sender's own, never another's
        if mine and my_seat(ctx, table) is None:
            raise Refusal("penghu_player_missing", what=ctx.word.removeprefix("我"))
        laughed = not ctx.unprompted or ctx.word in PENGHU_DONE_EN_WORDS  # `I swept lol` too, as `扫了 哈哈`
        args = without_laughter(ctx.args) if laughed else ctx.args  # `扫了 哈哈`; `@乙 碰 … 哈哈` is chat
        resolve = seat_resolver(ctx, table)  # `庄家` (read from `庄家中庄 自摸`) is the table's dealer
        if ctx.word in DEALT_IN_WORDS:  # `我放炮 阿四胡了`: the winner with the win word after them, `我放炮 阿四`
            args = _winner_said_won(args, resolve)
        said = (args, implied(ctx.word), "我" if mine else "")  # `我点炮了 @乙`: 点 我; `起手扫`: 扫 起手
        spec = parse(" ".join(said), lambda token: table.dealer if token == DEALER_WORD else resolve(token))
        what = ctx.t(f"pev_{kind}")
        if implied(ctx.word) == "自摸":
            if spec.source is not None:
                raise Refusal("penghu_source_and_wall")
            spec.wall = True
        if ctx.word in ZHONGZHUANG_WORDS:  # `中庄 自摸`, `我中庄了 点 @丙`: the dealer's win, called
            spec.flags.append("zhongzhuang")
        player = spec.player or my_seat(ctx, table)
        if player is None:
            raise Refusal("penghu_player_missing", what=ctx.word)
        edited = ctx.incoming is not None and ctx.incoming.edited
        if "zhongzhuang" in spec.flags and player != table.dealer and not (replacing(ctx) or edited):
            # refused as it is read, before asking where the tile came from (the booking would refuse it after the
            # answer); an edit or a correction is scored against the dealer of the hand it replaces a record of
            refusal = Refusal("penghu_zhongzhuang_not_dealer", dealer=table.dealer)
            refusal.heard = True  # `@乙 中庄 自摸`: a record read whole, the rules' refusal said
            raise refusal
        if kind == "wufu" and spec.source is None and not spec.wall:
            _refuse_wufu_without_baojing(ctx, table, player)  # before asking whose tile: no 五福 without 报警
        if needs_source and spec.source is None and not spec.wall:  # `Whose tile was that win (胡)?`
            refusal = Refusal("penghu_source_missing", what=ctx.t("pev_win") if kind == "hu" else what)
            refusal.heard = ctx.word in ZHONGZHUANG_WORDS and not spec.keywords  # `@甲 中庄`: called, so asked
            raise refusal
        if kind == "paoqi" and spec.wall:  # `跑起 摸`: no tile from the wall runs up anyone's discard
            raise Refusal("penghu_paoqi_wall")
        if kind == "paoqi" and spec.source is None:  # one pays: the player whose discard ran up
            raise Refusal("penghu_paoqi_source")
        if "paoqi" in spec.flags and spec.source is None:
            raise Refusal("penghu_paoqi_hu_source")
        event = build_event(kind, spec, player, what, allowed)
        if kind in ASKED_ALONE and not (mine or spec.player or spec.keywords) and not _told_again(ctx):
            return _ask_alone(ctx, table, event, aliases[0])
        return book(ctx, table, event, times=spec.count)

    registry.command(
        f"penghu_{key}",
        names=[f"ph_{key}"] if key == "hu" else [key],
        aliases=aliases,
        help_zh=help_zh,
        help_en=help_en,
        games=PENGHU,
        on_edit=True,
    )(handler)


for _key in COMMANDS:
    _register(_key)


def _winner_said_won(args: str, resolve: Callable[[str], str | None]) -> str:
    """What follows the sender's own deal-in (`我放炮`) with the win word said after the winner, glued or apart
    (`阿四胡了`, `阿四 胡了`), as the winner alone (`阿四`); anything else as typed."""
    items = tokens(args)
    if not items:
        return args
    first, rest = items[0], items[1:]
    if rest and fold(rest[0]) in WINNER_WON_WORDS and resolve(first) is not None:
        return " ".join((first, *rest[1:]))
    won = next((w for w in WINNER_WON_WORDS if len(first) > len(w) and fold(first).endswith(w)), "")
    if won and resolve(first[: -len(won)]) is not None:
        return " ".join((first[: -len(won)], *rest))
    return args


def _told_again(ctx: Context) -> bool:
    """Whether a line is a record already confirmed some other way: a correction (its own question, 改成这样), its
    trial, an edit of a recording message, or a genuine repeat (「确实又一次」)."""
    incoming = ctx.incoming
    return ctx.repeat or replacing(ctx) or (incoming is not None and (incoming.edited or incoming.corrected))


def _hand_with(ctx: Context, table: TableInfo, event: Event) -> dict[str, Any]:
    """The open hand scored with `event` added, as booking it would score it (`ScoringError` when the rules refuse
    it). Only for a question asked before booking: the booking itself scores the hand once."""
    events = [*ctx.service.hand_state(table.id).events, payload(event)]
    request = build_request(table.game, table.rules, table.base, table.players, table.dealer, events)
    return {**scored(request, partial=True), "index": len(events) - 1}


def _ask_alone(ctx: Context, table: TableInfo, event: PenghuPlay, word: str) -> SendText:
    """`小七对` alone: asked 「是不是：小七对 老王？」 with what it would book (「就是这个」 books that line, naming the
    sender), or refused as booking it would be (the dealer's 小七对 without its 扫)."""
    try:
        hand = _hand_with(ctx, table, event)
    except ScoringError as err:
        raise _refusal(ctx, ScoringRefused(err.code, err.message, err.reading), event) from err
    won = sum(t["amount"] for t in hand["transfers"] if t.get("event") == hand["index"] and t["to"] == event.player)
    amount = money(won, ctx.group.currency, signed=True)
    why = ctx.t("penghu_alone_asked", word=ctx.word, player=event.player, amount=amount)
    return ask(ctx, table, word, event.player, why)


def _refuse_wufu_without_baojing(ctx: Context, table: TableInfo, player: str) -> None:
    """`五福` not said where its tile came from, by a player who has not called 报警 in this hand: refused as its
    booking would be, rather than asked whose tile it was (an edit or a correction is left to the scoring, against
    the hand it replaces a record of)."""
    if _told_again(ctx):
        return
    calls = (e for e in ctx.service.hand_state(table.id).events if e.get("type") == "baojing")
    if all(e.get("player") != player for e in calls):
        refusal = Refusal(IN_PLAYERS_WORDS["wufu_without_baojing"], name=player)
        refusal.heard = True  # a record read whole: the rules' refusal is said
        raise refusal


@registry.command(
    "penghu_other_game",
    names=["ph_kong"],
    aliases=(*COMMAND_WORDS["gang"], *COMMAND_WORDS["liangdao"]),
    help_zh="杠、亮倒：碰胡没有（卡五星的记法）",
    help_en="kongs and ready (亮倒): none in 碰胡 (卡五星 records)",
    games=PENGHU,
    in_menu=False,
)
def record_other_game(ctx: Context) -> SendText:
    """`暗杠 3s`, `亮倒` typed at a 碰胡 table: a 卡五星 record, refused with the records 碰胡 has."""
    table = game_table(ctx, "penghu")
    words = tokens(ctx.args)
    raise _other_game(Refusal("penghu_other_game", word=ctx.word), words[1:], seat_resolver(ctx, table))


#: the words of the lines `won_by_play` names, in each language the chat reads them
SAID = {"peng": "碰", "sao": "扫", "hu": "胡", "from": "点", "someone": "@丙", "wall": "摸", "self": "自摸"}
SAID_EN = {"peng": "pong", "sao": "sweep", "hu": "win", "from": "from", "someone": "@c", "wall": "self-drawn"}
SAID_EN["self"] = SAID_EN["wall"]


@registry.command(
    "penghu_won_by_play",
    names=["ph_won_by_play"],
    aliases=tuple(PENGHU_WON_BY_PLAY),
    help_zh="碰胡、扫胡（碰了、扫了就胡）：分两条记，先 碰 点 @丙，再 胡 点 @丙",
    help_en="a win made by a 碰 or 扫: two records, pong from @c then win from @c",
    games=PENGHU,
    in_menu=False,
)
def won_by_play(ctx: Context) -> SendText:
    """`碰胡 点 @丙`, `@乙 扫胡`, `三碰连胡`: a win made by the 碰 (扫) that completes the hand, told as one word, is
    the play then the win, each paid (碰 3 from 丙, then 胡 15 from 丙): refused with the two lines to send, the player
    and the discarder the line named filled in. A line with anything else after the word may be chat."""
    table = game_table(ctx, "penghu")
    try:
        spec = parse(without_laughter(ctx.args), seat_resolver(ctx, table))
    except Refusal as unread:
        raise Quiet from unread
    play = PENGHU_WON_BY_PLAY[ctx.word]
    said = SAID_EN if ctx.lang == "en" else SAID
    named = f"{spec.player} " if spec.player is not None else ""
    if spec.source is not None or not (spec.wall or play == "sao"):
        how = won = f"{said['from']} {spec.source or said['someone']}"
    else:
        how, won = said["wall"], said["self"]
    first = f"{named}{said[play]} {how if play == 'peng' else ''}".strip()
    word = ctx.word.removeprefix("我").rstrip("了啦")
    then = f"{named}{said['hu']} {won}"
    refusal = Refusal("penghu_won_by_play", word=word, play=ctx.t(f"pev_{play}"), first=first, then=then)
    refusal.heard = True  # a scoring line, told player first too (`@乙 碰胡 点 @丙`)
    raise refusal


@registry.command(
    "penghu_draw",
    names=["ph_draw"],
    aliases=(*COMMAND_WORDS["draw"], *PENGHU_WORDS_EN["draw"]),
    help_zh="荒庄：牌摸完没人胡（已付的钱照算，庄家不变）",
    help_en="a drawn hand: the money paid stands, the dealer stays",
    games=PENGHU,
    in_menu=False,
    on_edit=True,
)
def record_draw(ctx: Context) -> SendText:
    table = game_table(ctx, "penghu")
    if ctx.args:
        raise Refusal("penghu_no_args", what=ctx.word)
    return book(ctx, table, Draw())


# ------------------------------------------------------------------------------------------------ 改成 what changed


#: what a correction may say before what changed (`错了 是自摸`, `应该是 阿四点的`)
CORRECTED_LEADS = ("应该是", "是")
#: the word that says a tile came from the wall, as a record's line says it
WALL = "摸"


def kept_reading(ctx: Context, latest: TableRecord, said: str) -> tuple[str, str] | None:
    """`改成 自摸`, `错了 是阿四点的`, `改成 中庄`, `改成 起手`: a correction naming only what changed of the latest
    碰胡 record — the way (点 @丙 or 摸), 起手, 中庄, 跑起, perhaps with a player — read as that record with it changed
    and the rest kept: its kind, player, way, 起手, 中庄 and 跑起 (`改成 自摸` after `胡 中庄 点 @丁` is the dealer's
    中庄 自摸, not a plain 胡). 中庄 stays with its dealer only, and 跑起 with a discard (a card from the wall runs up
    no one's discard). None for a line holding anything else (a record's word: `胡 自摸` is a whole record, read as
    typed), naming only a player, or after a record that is not one 碰胡 event (荒庄)."""
    table = ctx.table
    event = latest.events[0] if len(latest.events) == 1 else {}
    kind, player = event.get("type"), event.get("player")
    if table is None or kind not in COMMANDS or not isinstance(player, str):
        return None
    for lead in CORRECTED_LEADS:
        said = said.strip().removeprefix(lead)
    try:
        spec = parse(said, seat_resolver(ctx, table))
    except Refusal:
        return None
    if not spec.keywords:  # nothing said but a player (`改成 阿四`: whose 碰, or whose discard?)
        return None
    if kind == "paoqi" and spec.wall:  # `改成 自摸` after a 跑起: it has no way to change but whose discard
        raise Refusal("penghu_paoqi_corrected_wall")
    _, words, allowed, _ = COMMANDS[kind]
    now = spec.player or player
    source = spec.source if spec.source is not None or spec.wall else event.get("from")
    told = [now]
    if source is not None:
        told += [DISCARD, source]
    elif "from" in allowed or spec.wall:
        told.append(WALL)
    if spec.at_deal or event.get("at_deal"):
        told.append(DEAL_WORDS_SAID)
    kept = {flag for flag in ("zhongzhuang", "paoqi") if event.get(flag)}
    kept -= {"zhongzhuang"} if now != player else set()
    kept -= {"paoqi"} if source is None else set()
    told += [FLAG_SAID[flag] for flag in (*dict.fromkeys(spec.flags), *sorted(kept - set(spec.flags)))]
    return words[0], " ".join(told)


KEPT_BY_GAME["penghu"] = kept_reading


# ------------------------------------------------------------------------------------------------ the reply


def book(ctx: Context, table: TableInfo, event: Event, times: int = 1) -> SendText:
    """Book `event` (`times` over, one record: `起手扫 两个` is 连扫, two deal-time 扫) and say what it did."""
    _refuse_late_deal(ctx, table, event)
    try:
        result, edited = book_events(ctx, table, [event] * times)
    except DuplicateRecord as dup:  # the same win or draw from someone else a moment ago: ask before booking
        return hold_back(ctx, table, dup)
    except ScoringRefused as err:
        raise _refusal(ctx, err, event) from err
    if result.replayed:  # a redelivered update: booked once, said once
        return replayed_reply(ctx, result, "penghu")
    before = table  # read before the booking: the hand it was at (an edit may be of an earlier hand)
    table, result = named_now(ctx, table, result)  # an edit at a table since ended: the names shown now
    what = describe(ctx.lang, result.recorded[-1] if result.recorded else payload(event), table.dealer)
    if times > 1:
        what += ctx.t("pev_times", count=times)
    lines = booking_lines(ctx, result)
    if result.finished and not edited:
        lines.append(ctx.t("penghu_hand_over", number=result.number, what=what))
    else:
        lines.append(
            ctx.t(edited_key(ctx, "event_edited") if edited else "event_recorded", number=result.number, what=what)
        )
    lines += edit_changes_head(ctx, edited)
    lines += money_lines(ctx, table, result)
    answer = result.answer
    counts = [
        ctx.t("penghu_count", name=name, total=c["peng"] + c["sao"], peng=c["peng"], sao=c["sao"])
        for name, c in answer.get("counts", {}).items()
        if c["peng"] + c["sao"]
    ]
    if counts and not result.finished:
        lines.append(ctx.t("penghu_counts", counts=joined(ctx.lang, counts, "；")))
    if answer.get("baojing") and not result.finished:
        lines.append(ctx.t("penghu_baojing_state", names=joined(ctx.lang, answer["baojing"])))
    if result.finished:
        lines += next_hand_lines(ctx, before, result, edited=edited)
    return SendText("\n".join(lines), reply_to=ctx.message_id)


def _refuse_late_deal(ctx: Context, table: TableInfo, event: Event) -> None:
    """A deal-time 扫/提蛇 (`扫 起手`) once a play of the hand is recorded is refused: deal-time ones are laid on the
    table before the first discard (起手扫牌一开始就必须放在桌上), so one told after a 碰 is one drawn in play, or a
    slip (the scoring core still settles a late one as deal-time, as the contract's requests may). An edit keeps its
    record's place in the hand, and is left to the scoring; a correction (`改成 起手`) reads the hand without the
    record it would replace."""
    incoming = ctx.incoming
    if not isinstance(event, PenghuPlay) or not event.at_deal or (incoming is not None and incoming.edited):
        return
    events = ctx.service.hand_state(table.id).events
    latest = ctx.service.latest_record(table.id) if replacing(ctx) else None
    if latest is not None and not latest.finished:
        events = events[: len(events) - len(latest.events)]
    played = next((e for e in events if not e.get("at_deal") and e.get("type") not in DEAL_ONLY), None)
    if played is not None:
        refusal = Refusal(
            "penghu_deal_over", what=describe(ctx.lang, played, table.dealer), word=ctx.t(f"pev_{event.kind}")
        )
        refusal.heard = True  # the line was read whole: the rules refuse it, as the scoring's refusals are said
        raise refusal


def _refusal(ctx: Context, err: ScoringRefused, event: Event) -> Refusal:
    """A scoring refusal as the chat says it: why, and the line that records what can be (`IN_PLAYERS_WORDS`); a why
    the chat has no words of its own for, the core's. Said to a line told player first too (`@乙 五福 摸`): the
    scoring refuses only a record read whole, so it is no chat (but `MAYBE_CHAT`)."""
    key = IN_PLAYERS_WORDS.get(err.reading.key)
    args = err.reading.args
    kind = event.kind if isinstance(event, PenghuPlay) else ""
    name = args.get("who") or (event.player if isinstance(event, PenghuPlay) else "")
    if key is None:
        refusal = Refusal("scoring_refused", message=scoring_reason(ctx.lang, err))
    else:
        what = ctx.t("pev_win" if kind == "hu" else f"pev_{kind}") if kind else ""
        example = ctx.t("penghu_nothing_to_run_hu" if kind == "hu" else "penghu_nothing_to_run_paoqi", name=name)
        refusal = Refusal(
            key, name=name, dealer=args.get("dealer", ""), count=args.get("count", 0), what=what, example=example
        )
    refusal.heard = err.reading.key not in MAYBE_CHAT
    return refusal


#: scoring refusals of a line that may yet be chat when told player first: a player named as their own discarder
#: (`小李 碰 点 小李`) reads as a slip or a joke, not a record
MAYBE_CHAT = frozenset({"own_discard"})


def describe(lang: str, event: Mapping[str, Any], dealer: str | None) -> str:
    """One 碰胡 event in words: `乙 碰，点 丙（一人出）`, `甲 扫（起手）`, `乙 胡（每人出），中庄`."""
    from bot.texts import text

    kind = event["type"]
    what = text(lang, f"pev_{kind}")
    if kind == "draw":
        return what
    detail = ""
    if event.get("at_deal"):
        detail += text(lang, "pev_at_deal")
    if kind in {"peng", "wufu", "hu", "paoqi"}:
        detail += text(lang, "pev_from", source=event["from"]) if event.get("from") else text(lang, "pev_each")
    if kind == "dihu":
        detail += text(lang, "pev_dealer_pays", dealer=dealer)
    if event.get("zhongzhuang"):
        detail += text(lang, "pev_zhongzhuang")
    if event.get("paoqi"):
        detail += text(lang, "pev_paoqi_hu")
    return text(lang, "pev_line", player=event["player"], what=what, detail=detail)


register_describer("penghu", describe)
