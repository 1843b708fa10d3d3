"""Chat grammar: which command a message starts with, and the words of its arguments.

Two ways to call a command: a slash and a Latin name (`/hu@paiju_bot …`, Telegram's menu) or a registered word
without a slash at the very start of the message (`胡 …`, `开桌 …`, `undo`).

A tolerant reader stands in front of both, because players type on phones: full-width letters, digits and `＠`
are folded (NFKC), traditional characters are read as simplified for command words, pattern names and tiles
(`龍七對`, `暗槓`), punctuation between words counts as a space and trailing punctuation or emoji as nothing
(`胡 清一色，自摸！`). Names are never folded: `張三` stays who it is.

Precision matters as much as recall. A command word only counts when what follows it is no Chinese character
(`胡说八道`, `杠精` are chat), unless a recording command is glued to words of its own vocabulary
(`胡清一色自摸`, `暗杠三条`) or a command reads what is glued to its word (`设置底金2`: `GrammarCommand.glued`); a
line of an acting command that asks a question (`胡了吗`, `撤销？`) is chat too.
The words themselves are data in `bot.vocabulary`.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import opencc

from bot import vocabulary as vocab
from bot.amounts import AmountError, looks_like_amount, parse_amount

_SPACES = " \t\n\r\u3000"
#: after NFKC: what separates words besides spaces (Chinese punctuation folds to these or stays as itself)
_SEPARATORS = frozenset(',、。!?;:~…·|()[]【】「」『』《》<>"“”‘’`*=')
#: emoji, their modifiers and joiners: read as spaces
_EMOJI_CATEGORIES = frozenset({"So", "Sk", "Cf", "Mn", "Me", "Cs", "Co"})
_T2S = opencc.OpenCC("t2s")
_GLUED_MENTION = re.compile(r"(?<=[^\s@])@")
#: an @username glued to the words after it (`@ajie已转8`, `给@ajie转了2`): a username is Latin letters, digits
#: and `_` only, so it ends at the first other letter, as Telegram reads a username
_GLUED_AFTER_USERNAME = re.compile(r"(?<![A-Za-z0-9_])(@[A-Za-z0-9_]+)(?=[^\x00-\x7f\s])")
#: `*` before a number is a multiplication sign (`暗四归一*2`), not punctuation
_STAR_TIMES = re.compile(r"\*\s*(?=\d)")


#: a Latin word of two letters or more, not part of an @username or a tile code (`123p`, `5z`)
_LATIN_WORD = re.compile(r"(?<![@\w])[A-Za-z][A-Za-z'’-]*[A-Za-z]")
#: the game's words in pinyin, as the bot reads them (`hu qidui zimo`, `angang`, `maima`): typed by Chinese players
_PINYIN = frozenset(
    spelling
    for table in (vocab.PATTERNS, vocab.SITUATIONS, vocab.COUNT_WORDS, vocab.MINGGANG_CHOICES)
    for spellings in table.values()
    for spelling in spellings
    if spelling.isascii()
) | {"hu", "gang", "peng", "angang", "xugang", "zhigang", "minggang", "dianpao", "pihu", "maima", "liangdao", "ting"}
#: Latin words Chinese players type among Chinese (`ok`, `gg`, pinyin): no sign the line is English
_NOT_ENGLISH = _PINYIN | {"ok", "okk", "okay", "gg", "hh", "hhh", "hhhh", "nb", "xd", "yyds", "zimo", "tsumo"}


def written_in_english(text: str, names: Iterable[str] = ()) -> bool:
    """A line a player wrote in English: English words and not one Chinese character once the players' `names` and
    @mentions are taken out (`I won off 老王` is English). Its reply is in English whatever the group's language, so
    an English speaker in a Chinese group is answered in English; a line of tiles, amounts or names alone is neither
    and stays in the group's language, and so does a slash command (Telegram's menu speaks Latin to everyone)."""
    line = unicodedata.normalize("NFKC", text)
    if line.lstrip().startswith("/"):
        return False
    for name in sorted(names, key=len, reverse=True):
        if name:
            line = line.replace(name, " ")
    line = re.sub(r"@\S+", " ", line)
    if any(is_cjk(char) for char in line):
        return False
    return any(word.lower() not in _NOT_ENGLISH for word in _LATIN_WORD.findall(line))


def is_cjk(char: str) -> bool:
    """A Chinese character (CJK unified ideographs, their extensions A–H, compatibility ideographs)."""
    code = ord(char)
    basic = 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF
    return basic or 0x20000 <= code <= 0x323AF


# ------------------------------------------------------------------------------------------------ the reader


def _unseen(char: str) -> bool:
    """A character a chat shows as nothing (a zero-width space, a direction override, a pasted bell): no part of
    the words, and no space between them either (`七​对` reads 七对)."""
    return unicodedata.category(char) in _UNSEEN and not char.isspace()


def _fold_char(char: str) -> str:
    if _unseen(char):
        return ""
    folded = unicodedata.normalize("NFKC", char)
    if any(is_cjk(c) for c in folded):
        folded = _T2S.convert(folded)
    return folded.lower()


#: Unicode's format and control characters: zero-width spaces and joiners, direction marks and overrides, bells
_UNSEEN = frozenset({"Cf", "Cc"})


class _Table(dict[int, str]):
    """A `str.translate` table that works each character out once, on first sight (so folding runs at C speed)."""

    def __init__(self, work: Callable[[str], str]) -> None:
        super().__init__()
        self.work = work

    def __missing__(self, code: int) -> str:
        found = self[code] = self.work(chr(code))
        return found


def _separates(char: str) -> bool:
    normal = unicodedata.normalize("NFKC", char)
    return normal in _SEPARATORS or normal.isspace() or unicodedata.category(char) in _EMOJI_CATEGORIES


_FOLD = _Table(_fold_char)
_SPACED = _Table(lambda char: "" if _unseen(char) else " " if _separates(char) else char)


def _is_separator(char: str) -> bool:
    """Punctuation, a space or an emoji (full-width or not): what stands between words."""
    return _SPACED[ord(char)] == " "


def fold(text: str) -> str:
    """What a word means whatever keyboard typed it: full-width folded, traditional → simplified, lower case.
    Character by character, so a folded word lines up with what was typed."""
    return text.translate(_FOLD)


def _fold_map(text: str) -> tuple[str, Sequence[int]]:
    """`fold(text)` and, for each folded character, the index of the typed character it came from (plus the end)."""
    folded = text.translate(_FOLD)
    if len(folded) == len(text):  # nearly always: one character folds to one
        return folded, range(len(text) + 1)
    origin: list[int] = []
    for index, char in enumerate(text):
        origin.extend([index] * len(char.translate(_FOLD)))
    origin.append(len(text))
    return folded, origin


def clean(text: str) -> str:
    """Full-width folded; punctuation and emoji between words as single spaces, trailing ones dropped; a mention
    glued to a word split off (`点@乙` → `点 @乙`). Letters, digits, `@ . - _ #` and names stay as typed."""
    normal = _STAR_TIMES.sub("×", unicodedata.normalize("NFKC", text))
    spaced = ",".join(part.translate(_SPACED) for part in _DIGIT_COMMA.split(normal))
    spaced = _GLUED_MENTION.sub(" @", spaced)
    return " ".join(spaced.split()).rstrip(".")


#: a comma between digits (`1,000`) stays in its word, for the amount reader to refuse with its reason
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d)")


def spaced_usernames(text: str, bot_username: str = "") -> str:
    """`text` with a space after each @username glued to the words after it (`@ajie已转8` → `@ajie 已转8`), read
    as the spaced form; the bot's own (`@paiju_bot余额`) stays glued: only a line starting with the bot's mention
    and a space is read without it (`bot.telegram.adapter.without_own_mention`). For text as typed: never over a
    name a text mention was written as (`@Tom汤姆` is one name), which the Telegram adapter writes apart already."""
    own = f"@{bot_username}".casefold()

    def spaced(match: re.Match[str]) -> str:
        return match[1] if bot_username and match[1].casefold() == own else f"{match[1]} "

    return _GLUED_AFTER_USERNAME.sub(spaced, text)


def words(text: str) -> list[str]:
    """Arguments split on any whitespace (ASCII or the full-width space Chinese keyboards type), nothing else."""
    return text.replace("\u3000", " ").split()


def tokens(text: str) -> list[str]:
    """The words of a command's arguments, read tolerantly (see `clean`)."""
    return clean(text).split()


def name_key(name: str) -> str:
    """How two spellings of one name compare: full-width folded (NFKC) and case-insensitive, nothing else."""
    return unicodedata.normalize("NFKC", name).casefold()


def mention_word(username: str | None, name: str, user_id: int) -> str:
    """The word a text mention (a member picked from Telegram's list, carrying their id) is written as in the text
    the grammar reads: their @username, else their name as one word (no spaces, punctuation or `@`), else the id."""
    if username:
        return username
    return "".join(tokens(name)).replace("@", "") or str(user_id)


def asks(text: str) -> bool:
    """Whether a line is a question: it ends (before trailing punctuation and emoji) with `？` or `吗`, `呢` …, or
    asks what it would pay or mean (`… 怎么算`, `… 算几块`, `… 什么意思`)."""
    tail = fold(text[-12:])
    end = len(tail)
    while end and _is_separator(tail[end - 1]) and tail[end - 1] != "?":
        end -= 1
    return tail[:end].endswith(vocab.QUESTION_ENDINGS + vocab.SCORING_QUESTION_ENDINGS)


def in_jest(text: str, key: str) -> bool:
    """Whether a line read as the command `key` says it is a joke (`胡了胡了 哈哈 开玩笑的`): a record's or a
    payment's line that does is chat (`vocab.JEST_WORDS`)."""
    folded = fold(text)
    return key in vocab.JESTED_COMMANDS and any(word in folded for word in vocab.JEST_WORDS)


# ------------------------------------------------------------------------------------------- which command


class GrammarError(ValueError):
    """A message that cannot be read: `key` names the text in bot.texts, `params` fill it. `reading` is what was
    read of the arguments (for the closest reading a suggestion offers); `suggest` is False when no guess is
    safe (`暗杠 3s 4s`: which tile?)."""

    def __init__(self, key: str, *, reading: tuple[Word, ...] = (), suggest: bool = True, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.reading = reading
        self.suggest = suggest


class GrammarCommand(Protocol):
    """What the grammar needs of a command: its key (a question about the books is read only for the commands that
    read them), whether only admins may run it (a question about such an act, `请出 @x 吗`, is chat, not the act),
    and what its word may be glued to (`glued`: whether the folded text after the word starts as its arguments,
    `设置底金2`), else None."""

    @property
    def key(self) -> str: ...

    @property
    def admin_only(self) -> bool: ...

    @property
    def glued(self) -> Callable[[str], bool] | None: ...


C_co = TypeVar("C_co", bound=GrammarCommand, covariant=True)


class CommandBook(Protocol[C_co]):
    """What the grammar needs of the command registry: its words, and the command a word names in a game."""

    def words(self) -> Collection[str]: ...

    def lookup(self, word: str, game: str | None = None) -> C_co | None: ...


_INDEX: dict[int, tuple[int, dict[str, list[str]]]] = {}
_HEAD = 48  # folded characters enough to find any command word and the start of what is glued to it


def _by_first_char(book: CommandBook[GrammarCommand]) -> dict[str, list[str]]:
    """The book's words by first character, longest first (rebuilt when a word was added: counted, not copied)."""
    all_words = book.words()
    cached = _INDEX.get(id(book))
    if cached is not None and cached[0] == len(all_words):
        return cached[1]
    index: dict[str, list[str]] = {}
    for word in sorted(all_words, key=len, reverse=True):
        if word:
            index.setdefault(word[0], []).append(word)
    _INDEX[id(book)] = (len(all_words), index)
    return index


def split_command(
    text: str, book: CommandBook[C_co], game: str | None = None, seats: Iterable[str] = (), *, talk: bool = True
) -> tuple[C_co, str, str] | None:
    """(command, the word that named it, the rest of the text as typed) or None when the text is no command.
    The word is the book's own spelling (`暗槓` typed names `暗杠`). `seats`: the names at the open table, of which
    one may start a record told with its player first (`老王 胡了 清一色 点 小李`). `talk`: whether talk after a
    payment is looked for (once per line: each shorter line is read without it)."""
    head, origin = _fold_map(text[:_HEAD])
    start = len(head) - len(head.lstrip(_SPACES))
    head = head[start:]
    if not head:
        return None
    if head[0] == "/":
        first = head[1:].split(maxsplit=1)[0] if head[1:].strip() else ""
        name = first.split("@", 1)[0]
        command = book.lookup(name, game)
        if command is None:
            return None
        return command, name, _rest(text[origin[start + 1 + len(first)] :])
    # `付 @阿杰 4 剩下明天`, `@阿杰 8 转了 收一下`, `付 小李 4 微信 转了`: the payment without the talk after it
    for talked in reversed(_said_after_cuts(text, said_after_payment)) if talk else ():  # the most talk cut first
        paid = split_command(talked, book, game, seats, talk=False)
        if paid is not None and paid[0].key == vocab.PAID_COMMAND:
            return paid
    unglued = _laughter_unglued(text, seats)
    laughed = split_command(unglued, book, game, seats) if unglued != text else None
    if laughed is not None and laughed[0].key in vocab.RECORD_COMMANDS and (
        laughed[2] or _says_how(laughed[1]) or laughed[0].key in vocab.WHOLE_ALONE_COMMANDS
    ):
        return laughed  # `七对自摸了哈哈`, `亮倒了哈哈`: as `七对自摸了 哈哈`; `胡啦哈哈` alone says nobody's win
    if laughed is not None and game == "gouji" and _placed_word(laughed[1]):
        return laughed  # `我头科了哈哈`, `大刘头科哈哈`: who and which place, a claim as `我自摸了哈哈` is
    doubled = next((w for w in _DOUBLED_WIN_WORDS if head.startswith(w) and _said_again(head[len(w) :], w)), "")
    once = split_command(text[origin[start + len(doubled)] :], book, game, seats) if doubled else None
    if once is not None and once[1] == doubled:  # `胡了胡了！卡五星 老王放的炮`: the word once
        return once
    for leads, key in _LEADS:  # `散了散了 结算吧`, `哦不对 撤销`: the settle or undo word alone after them
        led = _led_in(head, leads)
        if led < len(head) and head.startswith(vocab.COMMAND_WORDS[key], led):
            found = split_command(text[origin[start + led] :], book, game)
            if found is not None and found[1] in vocab.COMMAND_WORDS[key] and not found[2]:
                return found
    corrected = _led_in(head, _CORRECTION_LEADS)
    if corrected < len(head):  # `打错了 改成 清一色 自摸`, `撤回 改成清一色`: the correction after them
        found = split_command(text[origin[start + corrected] :], book, game, seats)
        if found is not None and found[0].key == "correct":
            return found
    told_of = _led_in(head, _HAND_TOLD_OF)
    if told_of < len(head) and head.startswith(_WRONG_AFTER_HAND, told_of):  # `刚才那把记错了，是自摸`
        found = split_command(text[origin[start + told_of] :], book, game, seats)
        if found is not None and found[0].key in ("correct", "undo"):
            return found
    number, after = hand_named_first(text) if head.startswith(_HAND_FIRST_STARTS) else (None, text)
    if number is not None and after:  # `第1局 改成 …`, `第1局改成 …`: `改成 第1局 …`
        found = split_command(after, book, game, seats)
        if found is not None and found[0].key == "correct":
            return found[0], found[1], f"第{number}局 {found[2]}".strip()
    recap = _led_in(head, _RECAP_LEADS) if head.startswith(_RECAP_LEADS) else 0  # `刚才那把不是清一色是七对`
    # `马不是7s是8s`, `刚才那把马是8s不是7s`: the horse said so, `应该是 马 8s`
    horse = next((w for w in vocab.MA_NOT_IS if _horse_not_is(head, recap, w)), "")
    if head.startswith(_NOT_IS_STARTS, recap + len(horse)):  # `是清一色 不是七对`, `不是七对 是清一色`: `应该是 清一色`
        instead = _said_instead(text[origin[start + recap + len(horse)] :])
        command = book.lookup(vocab.SHOULD_BE, game) if instead and not asks(text) else None
        if command is not None:
            return command, vocab.SHOULD_BE, f"{horse} {instead}" if horse else instead
    opening = _led_in(head, _OPEN_LEADS)
    if opening < len(head):  # `来来来 开桌 @乙 @丙`: the open word after them
        found = split_command(text[origin[start + opening] :], book, game)
        if found is not None and found[1] in vocab.COMMAND_WORDS["open"]:
            return found
    cheered = _led_in(head, _RECORD_LEADS)
    if cheered < len(head):  # `哈哈 我自摸了 七对！！`, `ok 胡 七对 自摸`: the record after them
        found = split_command(text[origin[start + cheered] :], book, game, seats)
        if found is not None and found[0].key in vocab.RECORD_COMMANDS and found[2]:
            return found  # the record's words: `哈哈哈 胡了` alone is laughing at someone's win
    recalled = _recalled(text, seats)
    if recalled is not None:  # `阿杰 刚才 自摸 清一色`: the record alone, when it is one (`Context.recap`)
        found = split_command(recalled, book, game, seats)
        if found is not None and found[0].key in vocab.RECORD_COMMANDS:
            return found
    robbing = _robbing_first(text, seats) if head.startswith(_ROBBING_STARTS) else None
    if robbing is not None:  # `抢杠胡 @老王 碰碰胡`, `我抢杠胡了 碰碰胡 @老王`: `胡 抢杠 @老王 碰碰胡`
        return split_command(robbing, book, game, seats)
    again = _again(text, seats) if vocab.AGAIN_WORD in head[:_AGAIN_WITHIN] else None
    if again is not None:  # `又胡了`, `我又自摸了 清一色`, `又扫了`: the record alone, when it is one
        found = split_command(again, book, game, seats)
        if found is not None and (found[0].key in vocab.RECORD_COMMANDS or found[1] in vocab.ALL_RECORD_WORDS):
            return found
    to_me = _dealt_in_to_me(text, seats) if "我" in head and game in (None, "kawuxing") else None
    dealt_to_me = _discarder_named_first(to_me, book, game, seats) if to_me is not None else None
    if dealt_to_me is not None:  # `小李给我点了个七对`, `小李点我七对`, `我胡小李 七对`: `小李点炮 我胡了 七对`
        return dealt_to_me
    for word, end in _words_at(head, book):
        command = book.lookup(word, game)
        if command is None:
            continue
        if word in vocab.SHORT_FINE_WORDS and not _mention_then_amount(text[origin[start + end] :]):
            continue  # `罚酒三杯`, `罚 @小李 喝酒`: chat
        after = text[origin[start + end] :]
        plain = _without_cheers(after, word) if command.key == vocab.DRAW_COMMAND else after  # `drawn hand lol`
        if word in vocab.PLAIN_ENGLISH_COMMAND_WORDS and not _mentions_only(plain):
            asked_alone = command.key in vocab.LOOKED_UP_COMMANDS and _asked_alone(after)
            if not asked_alone:
                return None  # `ready!`, `ready to go`: said, not declared; `owed?` asks what it looks up
        if asks(text) and (command.key in vocab.ASKED_ABOUT_COMMANDS or command.admin_only):
            return None  # `撤销？`, `请出 @x 吗`: a question about acting, not the act
        args = _rest(text[origin[start + end] :])
        word, args = _done_apart(command.key, word, args, book, game)
        if word in _CHEERED_WORDS or command.key in vocab.RECORD_COMMANDS:  # by any word, `win … lol` too
            args = _without_cheers(args, word)  # `撤销 哈哈`: the word alone; `我三科 哈哈`: `我三科`
        elif word in vocab.ALL_RECORD_WORDS:
            args = _said_once(args, word)  # 碰胡's `扫 扫`, `碰了 碰了 摸的`: the word again is the word once
        elif word in vocab.COMMAND_WORDS["open"]:
            args = _cut_said_after(args, _open_cheer)  # `开桌 @乙 @丙 走起`: the seats alone
        return command, word, args
    if game == "penghu" and head.startswith(vocab.DEALER_WORD):  # `庄家中庄 自摸`: `中庄 自摸 庄家`
        dealer = split_command(text[origin[start + len(vocab.DEALER_WORD)] :], book, game)
        if dealer is not None and dealer[1] in vocab.ZHONGZHUANG_WORDS and dealer[1][0] != "我":
            return dealer[0], dealer[1], f"{dealer[2]} {vocab.DEALER_WORD}".strip()
    spaced = _penghu_glued(text, head, origin, start, seats) if game == "penghu" else None
    if spaced is not None:  # `碰了大鹏的`, `我碰了摸的`, `扫了扫了`: read typed apart
        return split_command(spaced, book, game, seats)
    if head.startswith("我") and head[1:2].isspace():  # `我 扫了`, `我 胡了 自摸`: `我扫了`, `我胡了 自摸`
        mine = _first_person_apart(text[origin[start + 1] :], book, game)
        if mine is not None:
            return mine
    glued = _glued_to(head, book, game)
    if glued is not None:
        command, word = glued
        return None if asks(text) else (command, word, _rest(text[origin[start + len(word)] :]))
    changed = _setting_changed(text, book, game) if any(w in head for w in vocab.SETTING_CHANGED_WORDS) else None
    if changed is not None:
        return changed
    asked = _ASKED_HAND.fullmatch(head.rstrip(_SPACES + "?？"))
    if asked is not None and hand_number(asked["hand"]) is not None:
        command = book.lookup(vocab.HAND_VIEW_COMMAND, game)
        return None if command is None else (command, vocab.HAND_VIEW_COMMAND, asked["hand"])
    looked = _looked_up(head, book, game)
    if looked is not None:
        command, word, end = looked
        return command, word, _rest(text[origin[start + end] :])
    we_first = len(vocab.WE_FIRST) if head.startswith(vocab.WE_FIRST) else 0  # `我们这把荒了`: a draw only
    me_first = 0 if we_first else len(vocab.ME_FIRST) if head.startswith(vocab.ME_FIRST) else 0  # `我这把自摸 …`
    this_hand = next((lead for lead in vocab.THIS_HAND_WORDS if head.startswith(lead, we_first or me_first)), "")
    if this_hand:
        told = text[origin[start + (we_first or me_first) + len(this_hand)] :]
        of_this_hand = vocab.ME_FIRST + told.lstrip(_SPACES) if me_first else told
        found = None if we_first else _told_of_this_hand(of_this_hand, book, game, seats)
        if found is None and (we_first or me_first):  # `我这局荒了`: the sender tells this hand was a draw
            drawn = split_command(told, book, game, seats)
            found = drawn if drawn is not None and drawn[1] in vocab.COMMAND_WORDS["draw"] else None
        if found is not None or not (we_first or me_first):
            return found
    mine = _mine_by_patterns(text[origin[start] :], book, game, seats) if me_first else None
    if mine is not None:  # `我清一色自摸`, `我 七对 点 小李`
        return mine
    dealt_in = _discarder_named_first(text, book, game, seats) if "炮" in head else None
    told_en = _discarder_first_en(text) if dealt_in is None and _LATIN.search(head) else None
    if told_en is not None:  # `Tom dealt in, I won seven pairs`: `Tom 点炮 I won seven pairs`
        dealt_in = _discarder_named_first(told_en, book, game, seats)
    if dealt_in is not None:
        return dealt_in
    discarded = game == "penghu" and ("的" in head or "炮" in head)
    told_first = _penghu_discarder_first(text, book, game, seats) if discarded else None
    if told_first is not None:  # `红姐打的 老表碰了`: `老表 碰 点 红姐`
        return told_first
    named_fine = _fine_of_a_name(text, book, game) if head[0] != "@" and ("罚" in head or "红包" in head) else None
    if named_fine is not None:
        return named_fine
    passed = _card_passing_named(text, book, game) if game == "gouji" else None
    if passed is not None:
        return passed
    placed = _named_place(text, book, game, seats) if game == "gouji" else None
    if placed is not None:
        return placed
    named_first = _names_placed(text, book, game, seats) if game == "gouji" else None
    if named_first is not None:
        return named_first
    paid_me = _paid_me(text, book, game) if " me" in head else None
    if paid_me is not None:  # `tom paid me 4`: `received tom 4`
        return paid_me
    if head[0] == "@" or _seat_first(text, seats):
        return _player_first(text, book, game, seats) or _double_win_named(text, book, game, seats)
    if any(head.startswith(fold(seat)) for seat in seats):  # `老王胡了 …`, `小李自摸七对`: a seat's name glued on
        glued_seat = _seat_glued(text, book, game, seats)
        if glued_seat is not None:
            return glued_seat
    if head.startswith(vocab.PAID_TO_WORD) and head[len(vocab.PAID_TO_WORD) :].lstrip(_SPACES)[:1] == "@":
        found = _player_first(text[origin[start + len(vocab.PAID_TO_WORD)] :], book, game)
        return found if found is not None and found[1] in vocab.ADDRESSED_PAYMENT_WORDS else None
    if head.startswith(vocab.PAID_TO_WORD):  # `给阿杰转了44`: a plain name, read as `转给 阿杰 44`
        named = _paid_to_name(text[origin[start + len(vocab.PAID_TO_WORD)] :], book, game)
        if named is not None:
            return named
    if head.startswith(vocab.SENT_TO_WORD):
        return _sent_to(text[origin[start + len(vocab.SENT_TO_WORD)] :], book, game)
    sent = (  # `转小李4块`, `转 小李 4`: a plain name only
        _sent_to(text[origin[start + len(vocab.SENT_BARE_WORD)] :], book, game, mention=False)
        if head.startswith(vocab.SENT_BARE_WORD)
        else None
    )
    if sent is not None:
        return sent
    if head.startswith(vocab.REST_OF_DEBT_WORDS) or head[0].isdigit() or head[0] in vocab.NUMERAL_DIGITS:
        paid = _amount_first(text, book, game, after_mention=True)  # `余下3块已转 @阿杰`
        if paid is not None:
            return paid
    if "欠" in head or "owe" in head:
        owing = _owing_named(text, book, game)  # `我欠阿杰多少`, `老王欠我多少`, `how much does ben owe me?`
        if owing is not None:
            return owing
    if "输" in head or "赢" in head:
        result = _result_named(text, book, game)  # `老王输了多少`: 余额 老王
        if result is not None:
            return result
    if game in (None, "kawuxing") and (
        head[0] in _WIN_STARTS
        or head.translate(_SPACED).split(" ", 1)[0] in _SELF_DRAW_FIRST
        or _english_win_start(head)
    ):
        found = _win_by_its_patterns(text, book, game, seats)
        if found is not None:
            return found
    if game == "gouji":
        return _own_place(text, book, game) or _places_first(text, book, game)
    if game == "penghu" and head.startswith(vocab.PENGHU_DEAL_FIRST):
        return _deal_first(text[origin[start + len(vocab.PENGHU_DEAL_FIRST)] :], book, game)
    return _double_win_named(text, book, game, seats)


#: how many of a record a line tells (`两个`, `2次`, `x2`, `twice`): 碰胡's deal-time 扫 come several at once
_TOLD_COUNT = re.compile(r"(?:[x×*]\s*(?P<times>\d)|(?P<n>\d|[一二两三四五六七八九俩])\s*[个次下](?:扫)?)")
_TOLD_COUNT_EN = {"twice": 2, "2 times": 2, "two times": 2}


def told_count(word: str) -> int | None:
    """The number a count word says (`两个` 2, `x2` 2, `twice` 2), else None."""
    folded = fold(word)
    if folded in _TOLD_COUNT_EN:
        return _TOLD_COUNT_EN[folded]
    said = _TOLD_COUNT.fullmatch(folded)
    if said is None:
        return None
    number = said["times"] or said["n"]
    return int(number) if number.isdigit() else 2 if number == "俩" else vocab.NUMERAL_DIGITS[number]


def _penghu_glued(text: str, head: str, origin: Sequence[int], start: int, seats: Iterable[str]) -> str | None:
    """`碰了大鹏的`, `我碰了摸的`, `扫了扫了`, `起手扫两个`: a 碰胡 word glued to a seated name with 的 (点的 …)
    after it, to the wall word, to itself again, or a deal-time word to a count, as phones type them: the line with
    a space after the word, to be read as typed apart; None for a word glued to anything else (`碰了碰运气`,
    `碰了你的`: chat)."""
    named = {fold(seat) for seat in seats}
    for word in (word for word in vocab.PENGHU_RECORD_WORDS if head.startswith(word) and is_cjk(word[-1])):
        again = len(word) + _said_again_glued(head[len(word) :], word.removeprefix("我"))  # `扫了扫了`: 扫了
        chunk = re.split(r"[\s,、。!?;:~]", head[again:], maxsplit=1)[0]
        by = next((chunk[: -len(end)] for end in vocab.PENGHU_DISCARDED_BY if chunk.endswith(end)), "")
        counted = vocab.PENGHU_DEAL_FIRST in word and told_count(chunk) is not None  # `起手扫两个`, `起手连扫两次`
        if (again > len(word) and not chunk) or chunk in vocab.PENGHU_WALL_SAID or by in named - {""} or counted:
            return f"{text[: origin[start + len(word)]]} {text[origin[start + again] :]}"
    return None


#: what people type between a word said again (`碰！碰！`, `扫了，扫了`)
_REPEAT_MARKS = "!！,，、~～"


def _again_alone(said: str, game: str | None) -> bool:
    """Whether `said` is a 碰胡 record word said again and nothing else (`扫了扫了`, `碰碰`), as after a seat's name
    glued to it (`阿四扫了扫了`)."""
    return game == "penghu" and any(
        said.startswith(word) and len(word) < len(said) == len(word) + _said_again_glued(said[len(word) :], word)
        for word in vocab.PENGHU_RECORD_WORDS
        if word in vocab.PLAYER_FIRST_WORDS
    )


def _said_again_glued(after: str, word: str) -> int:
    """How much of `after` is `word` said again right after it, however often (`扫了扫了扫了`, `碰！碰！`), with the
    marks between; what follows is the glued line's to read (`碰碰丙的`; `碰碰胡`, `扫扫码` are no record)."""
    end = 0
    while after.startswith(word, end):
        end += len(word)
        end += len(after[end:]) - len(after[end:].lstrip(_REPEAT_MARKS))
    return end


def _done_apart(key: str, word: str, args: str, book: CommandBook[C_co], game: str | None) -> tuple[str, str]:
    """A record's word with 了 typed apart after it (`扫 了`, `碰 了 点 @丙`, `胡 了 自摸`: `vocab.DONE_APART`) is the
    word said done (`扫了`) when that is a word of the same command; (word, args) as they were otherwise."""
    said = args.split(maxsplit=1)
    if word not in vocab.ALL_RECORD_WORDS or not said or fold(said[0]) not in vocab.DONE_APART:
        return word, args
    done = book.lookup(word + fold(said[0]), game)
    if done is None or done.key != key:
        return word, args
    return word + fold(said[0]), said[1] if len(said) > 1 else ""


def _first_person_apart(rest: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """What follows 我 typed apart (`扫了`, `起手 扫`, `胡了 自摸`, `亮`): the record said in the first person, its
    word glued to 我 (`我扫了`, `我起手扫`, `我胡了 自摸`, `我亮`: `vocab.FIRST_PERSON_WORDS`), when the words have it;
    anything else is what it was (`我 余额` is no command)."""
    glued = split_command("我" + rest.lstrip(_SPACES), book, game)  # `我 亮 …`: `我亮 …` (亮 alone is no word)
    if glued is not None and glued[1] in vocab.FIRST_PERSON_WORDS:
        return glued
    found = split_command(rest, book, game)
    if found is None:
        return None
    command, word, args = found
    mine = book.lookup(f"我{word}", game)
    if f"我{word}" not in vocab.FIRST_PERSON_WORDS or mine is None or mine.key != command.key:
        return None
    return mine, f"我{word}", args


#: win words said twice in joy (`胡了胡了！`, `自摸自摸 七对`): read once
_DOUBLED_WIN_WORDS = sorted((w for w in vocab.COMMAND_WORDS["hu"] if is_cjk(w[0])), key=len, reverse=True)


def _said_again(after: str, word: str) -> bool:
    return after.lstrip(_SPACES + "!！,，、~～").startswith(word)


#: the words whose line may end in laughter, dropped (`_without_cheers`): the records, 撤销, 够级's round and places
_CHEERED_WORDS = (
    vocab.RECORD_WORDS
    | frozenset(vocab.COMMAND_WORDS["undo"])
    | frozenset(vocab.GOUJI_ROUND_WORDS)
    | frozenset(vocab.OWN_PLACE_WORDS)
)
_PLACES_LONGEST_FIRST = sorted(vocab.GOUJI_PLACES, key=len, reverse=True)
_PLACES_LONGEST_FIRST_T = tuple(_PLACES_LONGEST_FIRST)
#: a 够级 round told name first with one name that is no seat's is read (and answered) only when it names a whole
#: table: anything shorter is chat
SEAT_NAMES_WITH_ONE_UNSEATED = 6
_PLACES = "|".join(_PLACES_LONGEST_FIRST)
#: the sender's own 够级 place said as players say it: `我 二科`, `我是头科`, `头科 我`, `头科是我`, `我末游了`
_OWN_PLACE = re.compile(rf"(?:我\s*是?\s*(?P<a>{_PLACES})|(?P<b>{_PLACES})\s*是?\s*我)\s*[了啦]?")


#: a 够级 place as the English labels name it (`1st`) -> its word; said with `I'm` (`im`, `I am`, `I was`, `me`, or
#: `me` after it) it is the sender's own, after or before a name (`Ben 2nd`, `Ben is 2nd`, `2nd Ben`) that player's
_PLACES_EN = {english: place for place, english in vocab.GOUJI_PLACE_EN.items()} | vocab.GOUJI_PLACE_SAID_EN
_PLACE_EN = "|".join(_PLACES_EN)
_ENGLISH_PLACE = re.compile(
    rf"(?:i'?m|i m|i am|i was|me) (?P<a>{_PLACE_EN})|(?P<b>{_PLACE_EN}) me|(?P<c>{vocab.GOUJI_LAST_EN})"
    rf"|(?P<name>\S+) (?:is |was )?(?P<p>{_PLACE_EN})|(?P<q>{_PLACE_EN}) (?:is )?(?P<named>\S+)"
)


def place_in_chinese(text: str) -> str:
    """`I'm 1st`, `me 1st`, `Ben 2nd`, `2nd is @b`: a 够级 place said in English, in the words a Chinese group types
    (`我头科`, `Ben 二科`), which read it; any other line as typed (`I'm 1st in line` is chat)."""
    said = _ENGLISH_PLACE.fullmatch(fold(clean(_without_cheers(text, ""))))
    if said is None or asks(text):
        return text
    if said["a"] or said["b"] or said["c"]:  # `last` alone: the sender's (only into waiting buttons: gouji.py)
        return f"我{_PLACES_EN[said['a'] or said['b'] or said['c']]}"
    return f"{said['name'] or said['named']} {_PLACES_EN[said['p'] or said['q']]}"


def last_alone(text: str) -> bool:
    """`last` typed alone (laughter after it aside): a 够级 place only into waiting 名次 buttons (games/gouji.py)."""
    said = _ENGLISH_PLACE.fullmatch(fold(clean(_without_cheers(text, ""))))
    return said is not None and bool(said["c"])


def _placed_word(word: str) -> bool:
    """Whether a command word read from a 够级 line is a place said of a player (`我头科`; `头科` of `大刘头科`)."""
    return word in vocab.OWN_PLACE_WORDS or word in vocab.GOUJI_PLACES


def _own_place(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`我 二科`, `我是头科`, `头科 我`, `我末游了`: the sender's own 够级 place, read as its one word (`我二科`),
    laughter after it dropped (`我 三科 哈哈`); a question or more words is chat. In English as the labels say it
    (`I'm 1st`: `place_in_chinese`)."""
    text = place_in_chinese(text)
    said = _OWN_PLACE.fullmatch(fold(clean(_without_cheers(text, "")))) if not asks(text) else None
    if said is None:
        return None
    word = f"我{said['a'] or said['b']}"
    command = book.lookup(word, game)
    return None if command is None else (command, word, "")


#: a seated player's 够级 place said by their name: `小张 头科`, `大鹏头科`, `@f 是二科`, `三科 阿二`
_NAMED_PLACE = re.compile(
    rf"(?P<a>[^\s是]+?)\s*是?\s*(?P<p>{_PLACES})\s*[了啦]?|(?P<q>{_PLACES})\s*是?\s*(?P<b>[^\s是]+?)\s*[了啦]?"
)


def _named_place(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`小张 头科`, `大鹏头科`, `@f 二科`, `三科是阿二`: one player's 够级 place told by a name (or an @mention), read
    as the place's word with the player after it (`头科 小张`), which goes into the 名次 buttons as `我头科` does; a
    name not seated is read too, for the place to say so when it is a member's (`gouji.record_own_place`: anyone
    else's stays chat); a question or more words is chat. In English too (`Ben 2nd`: `place_in_chinese`)."""
    text = place_in_chinese(text)
    said = _NAMED_PLACE.fullmatch(fold(clean(_without_cheers(text, "")))) if not asks(text) else None
    if said is None:
        return None
    name = said["a"] or said["b"]
    if name in {"@", vocab.ME_FIRST}:  # `头科 我`: the sender's own (`_own_place`)
        return None
    if any(place in name for place in _PLACES_LONGEST_FIRST):  # `大刘头科小王二科…`: a whole round, glued
        return None
    command = book.lookup(vocab.OWN_PLACE_WORDS[0], game)
    return None if command is None else (command, said["p"] or said["q"], name)


def _places_first(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`头科阿杰 二科老王 …` (`头科 阿杰 …`): a 够级 round told by its places, read as `名次 头科阿杰 二科老王 …`
    (`Context.unprompted`: booked when it reads cleanly, silent otherwise); a question is chat."""
    said = fold(clean(text)).split()
    first = said[0] if said else ""
    place = next((p for p in _PLACES_LONGEST_FIRST if first.startswith(p)), None)
    if place is None or asks(text) or said == [place]:
        return None
    word = vocab.GOUJI_ROUND_WORDS[0]
    command = book.lookup(word, game)
    return None if command is None else (command, word, _without_cheers(text.strip(), word))


def _names_placed(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`大刘头科 小王二科 胖子三科 …` (glued or spaced): a 够级 round told name first, each seated name (as the table
    lists it) with its place after it, two or more: read as told place first (`头科大刘 二科小王 …`, `_places_first`);
    one alone is `_named_place`'s, anything else chat."""
    rest = "".join(fold(clean(_without_cheers(text, ""))).split())
    names = sorted({fold(seat) for seat in seats if seat}, key=len, reverse=True)
    pairs: list[str] = []
    unseated = 0  # one name that is no seat's (`赵总第五`): the round's reply says who is not at the table
    while rest:
        name = next((name for name in names if rest.startswith(name)), None)
        if name is None and not unseated:
            name = next((rest[:at] for at in range(1, len(rest)) if rest.startswith(_PLACES_LONGEST_FIRST_T, at)), None)
            unseated += 1
        place = next((p for p in _PLACES_LONGEST_FIRST if name and rest.startswith(p, len(name))), None)
        if name is None or place is None or asks(text):
            return None
        pairs.append(place + name)
        rest = rest[len(name) + len(place) :]
    if unseated and len(pairs) < SEAT_NAMES_WITH_ONE_UNSEATED:
        return None
    word = vocab.GOUJI_ROUND_WORDS[0]
    command = book.lookup(word, game) if len(pairs) >= 2 else None
    return None if command is None else (command, word, " ".join(pairs))


def _deal_first(rest: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """What follows 起手 typed apart from it (`起手 扫`, `起手 提蛇了`): the record said with 起手 glued to its word
    (`起手扫`: `扫 起手`), when the words have it (a 扫 or 提蛇 of the deal); anything else is chat (`起手 碰 …`)."""
    if rest.lstrip(_SPACES).startswith(vocab.PENGHU_DEAL_RUN):  # `起手 连扫`: `起手连扫`
        return split_command(vocab.PENGHU_DEAL_FIRST + rest.lstrip(_SPACES), book, game)
    found = split_command(rest, book, game)
    if found is None:
        return None
    word = vocab.PENGHU_DEAL_FIRST + found[1]
    command = book.lookup(word, game)
    return None if command is None else (command, word, found[2])


def _led_in(head: str, leads: tuple[str, ...]) -> int:
    """How much of the (folded) line is what players say before a word (`leads`, longest first, each maybe said
    again, with the punctuation after them): before 结算 when they stop (`散了散了 `, `不打了，`:
    `vocab.SETTLE_LEAD_WORDS`), before 撤销 when they see a mistake (`哦不对 `, `oops wrong, `:
    `vocab.UNDO_LEAD_WORDS`), before 开桌 when they gather (`来来来 `: `vocab.OPEN_LEAD_WORDS`); the whole line when
    that is all it holds, or nothing is (it starts otherwise)."""
    if not head.startswith(leads):  # nearly every line: nothing to read
        return len(head)
    end = 0
    while True:
        lead = next((w for w in leads if head.startswith(w, end)), "")
        if not lead:
            return end
        end += len(lead)
        while end < len(head) and _is_separator(head[end]):
            end += 1


#: the lead-in words, longest first (`散了吧` before `散了`), each with the command whose word alone may follow them
_SETTLE_LEADS = tuple(sorted(vocab.SETTLE_LEAD_WORDS, key=len, reverse=True))
_UNDO_LEADS = tuple(sorted(vocab.UNDO_LEAD_WORDS, key=len, reverse=True))
_LEADS = ((_SETTLE_LEADS, "settle"), (_UNDO_LEADS, "undo"))
_OPEN_LEADS = tuple(sorted(vocab.OPEN_LEAD_WORDS, key=len, reverse=True))  # `来来来` before `来`
_RECORD_LEADS = tuple(sorted(vocab.RECORD_LEAD_WORDS, key=len, reverse=True))
#: before a correction: the undo leads, and the undo verbs themselves (`撤回 改成清一色`)
_CORRECTION_LEADS = tuple(sorted({*vocab.UNDO_LEAD_WORDS, *vocab.UNDONE_BEFORE_CORRECTION}, key=len, reverse=True))
_UNDONE_LEADS = tuple(sorted(vocab.UNDONE_BEFORE_CORRECTION, key=len, reverse=True))
#: `是X 不是Y` and `不是Y 是X` (`vocab.INSTEAD_WORDS` between): what X is, Y read only as being there
_IS_NOT = re.compile(r"是(?P<is>.+?)不是(?P<was>.+)", re.DOTALL)
_NOT_IS = re.compile(rf"不是(?P<was>.+?)(?:{'|'.join(vocab.INSTEAD_WORDS)})(?P<is>.+)", re.DOTALL)
_NOT_IS_STARTS = ("是", "不是")
#: the hand just played named before what it is and is not (`刚才那把不是清一色是七对`, `刚才 是七对 不是清一色`)
_RECAP_LEADS = (*vocab.RECAP_HAND_WORDS, *vocab.RECAP_WORDS)
#: the hand just played named before a mistake said of it (`刚才那把记错了，是自摸`, `上一局写错了 是七对`): the
#: correction, or the undo (`上一局记错了` alone), said after it — the one reader of these lines
_HAND_TOLD_OF = tuple(sorted((*vocab.RECAP_HAND_WORDS, *vocab.LAST_HAND_ZH), key=len, reverse=True))
_WRONG_AFTER_HAND = (vocab.RECORDED_WRONG, *vocab.CORRECTION_CHATTY_WORDS)


def _horse_not_is(head: str, at: int, horse: str) -> bool:
    """Whether `head` says at `at` the horse (`horse`: 马, 马牌) is or is not something (`马不是7s是8s`)."""
    return head.startswith(horse, at) and head.startswith(_NOT_IS_STARTS, at + len(horse))


def _said_instead(text: str) -> str:
    """What a record is said to be in `是清一色 不是七对` / `不是七对，而是清一色` (`清一色`, as typed), or "" when the
    line is not said so (either side nothing but punctuation)."""
    folded, origin = _fold_map(text)
    said = _NOT_IS.fullmatch(folded) or _IS_NOT.fullmatch(folded)
    if said is None or all(_is_separator(char) for char in said["was"]):
        return ""
    typed = text[origin[said.start("is")] : origin[said.end("is")]]
    return "".join(" " if _is_separator(char) else char for char in typed).strip()


def recalls(text: str, seats: Iterable[str] = ()) -> bool:
    """Whether a record's line says it tells a hand after the fact: a recap word where `_recalled` reads one
    (`阿杰 刚才 自摸 清一色`), or the hand just played named first (`刚才那把我自摸 清一色`)."""
    head = fold(text[:_HEAD]).lstrip(_SPACES)
    return head.startswith(vocab.RECAP_HAND_WORDS) or _recalled(text, seats) is not None


def _recalled(text: str, seats: Iterable[str]) -> str | None:
    """`text` without its recap word (`vocab.RECAP_WORDS`) when one stands where a record told after the fact
    says it: first (`刚才 阿杰 自摸 清一色`), after the player named first — a seat's name, typed apart or glued, or
    an @mention typed apart — (`阿杰 刚才 自摸 清一色`, `阿杰刚自摸 清一色`: `阿杰 自摸 清一色`) or after 我
    (`我刚才自摸 清一色`: `我自摸 清一色`); None when there is none there. Whether what is left is a record is
    `split_command`'s to say."""
    found = _after_who(text, seats, vocab.RECAP_FIRST_WORDS, "")
    if found is None:
        return None
    head, origin, named, at, joint = found
    word = next((word for word in vocab.RECAP_WORDS if head.startswith(word, at)), "")
    if not word:
        return None
    after = head[at + len(word) :]
    end = at + len(word) + len(after) - len(after.lstrip(_SPACES))
    return text[: origin[named]] + joint + text[origin[end] :]


def _after_who(
    text: str, seats: Iterable[str], first: str | tuple[str, ...], joint_first: str
) -> tuple[str, Sequence[int], int, int, str] | None:
    """Where the word after whom a line names first stands (a recap's 刚才, 又): the line's (folded) head, its map
    to `text`, where the name ends and where the next word starts in the head, and what joins the name to the words
    after that word once it is read as nothing (`_named_before_recap`); a line starting with one of `first` names
    nobody (the word stands there itself: `joint_first` then joins). None when the line names nobody first."""
    head, origin = _fold_map(text[:_HEAD])
    start = len(head) - len(head.lstrip(_SPACES))
    rest = head[start:]
    if rest.startswith(first):
        named, joint = 0, joint_first
    else:
        found = _named_before_recap(rest, seats)
        if found is None:
            return None
        named, joint = found
    at = start + named + len(rest[named:]) - len(rest[named:].lstrip(_SPACES))
    return head, origin, start + named, at, joint


def _named_before_recap(rest: str, seats: Iterable[str]) -> tuple[int, str] | None:
    """Who a (folded) line names first, before a recap word: how long that is, and what joins it to the words
    after the recap word once it is read as nothing (a space after a name, nothing after 我: `我自摸`)."""
    if rest.startswith("我"):
        return 1, ""
    if rest.startswith("@"):
        mention = rest.split(maxsplit=1)[0]
        return (len(mention), " ") if len(mention) > 1 and len(mention) < len(rest) else None
    for seat in sorted(seats, key=len, reverse=True):
        folded = fold(seat)
        if folded and rest.startswith(folded):
            return len(folded), " "
    return None


#: how far into a (folded) line 又 may stand and be read by `_again` (after the longest name a line starts with)
_AGAIN_WITHIN = 12


def _again(text: str, seats: Iterable[str]) -> str | None:
    """`text` without 又 (`vocab.AGAIN_WORD`) where a record of a new hand says it: after the player named first —
    a seat's name, an @mention — or 我 (`阿杰 又胡了 七对`: `阿杰 胡了 七对`, `我又胡了 自摸`: `我胡了 自摸`), or first,
    where it stands for 我 (`又胡了`: `我胡了`), with "once more" glued after the word it goes with dropped
    (`又胡了一次`: `我胡了`; `vocab.AGAIN_TAILS`); None when there is none there. Whether what is left is a record is
    `split_command`'s to say."""
    found = _after_who(text, seats, vocab.AGAIN_WORD, "我")
    if found is None:
        return None
    head, origin, named, at, joint = found
    if not head.startswith(vocab.AGAIN_WORD, at):
        return None
    after = text[origin[at + 1] :].lstrip(_SPACES)
    first, _, others = after.partition(" ")
    tail = next((tail for tail in vocab.AGAIN_TAILS if first.endswith(tail) and len(first) > len(tail)), "")
    said = f"{first[: len(first) - len(tail)]} {others}".strip(_SPACES) if tail else after
    return text[: origin[named]] + joint + said


_ROBBING_STARTS = ("抢", "我抢", "rob")
#: the rob-kong word a win told with its robbing first starts with (`抢杠胡了`)
_ROBBING_WORDS = sorted((w for w in vocab.METHODS["rob_kong"] if is_cjk(w[0])), key=len, reverse=True)
_ROBBING_LEAD = re.compile(f"(?:{'|'.join(_ROBBING_WORDS)})[了啦]?")
#: the win's own word said after the robbing (`抢杠 @老王 胡 碰碰胡`): read once, as the leading 胡
_WIN_SAID_AFTER = ("胡", "胡了", "和", "和了")


def _robbing_first(text: str, seats: Iterable[str]) -> str | None:
    """`抢杠胡 @老王 碰碰胡`, `抢杠 @老王 胡 碰碰胡`, `我抢杠胡了 碰碰胡 @老王`, `我抢了老王的杠 碰碰胡`: a win
    told with its robbing first, as it is told with the win first (`胡 抢杠 @老王 碰碰胡`, `我胡了 …` after 我);
    None unless the robbed konger is named (an @mention or a seat's name; `抢了老王的杠` names him), so
    `抢杠胡太难了` stays chat."""
    typed = text.strip(_SPACES)
    if fold(typed).startswith(tuple(f"{robbing} " for robbing in vocab.ROBBING_EN)):
        return f"win {typed}"  # `rob kong @amy seven pairs`: the win's words read the robbing
    me = typed.startswith("我")
    verb = "我胡了" if me else "胡"
    said = tokens(typed[int(me) :])
    if not said:
        return None
    if _ROBBED_KONG.fullmatch(fold(said[0])):  # `抢了老王的杠`: the win's words read it whole
        return " ".join((verb, *said))
    if _ROBBING_LEAD.fullmatch(fold(said[0])) is None:
        return None
    rest = said[1:]
    win_said = next((index for index, word in enumerate(rest) if fold(word) in _WIN_SAID_AFTER), None)
    if win_said is not None:
        del rest[win_said]
    keys = {name_key(seat) for seat in seats}
    named = [word for word in rest if word.startswith("@") or name_key(word) in keys]
    if len(named) != 1:
        return None
    others = (word for word in rest if word != named[0])
    return " ".join((verb, vocab.METHODS["rob_kong"][0], named[0], *others))


def _without_cheers(args: str, word: str) -> str:
    """A record's arguments without what is said after them: laughter at their end (`我胡了 清一色 哈哈哈`, `亮倒 笑死`:
    `vocab.LAUGHTER_CHARS`) is dropped, as an emoji is, and arguments that are only the word again (`荒了 荒了`) read
    as nothing, so the line is its word alone. Laughter glued to a word (`胡啦哈哈`) is no word of its own."""
    kept = _cut_said_after(args, _cheering)
    return "" if _only_again(kept, word) else kept


def _said_once(args: str, word: str) -> str:
    """A record's arguments without the word said again at their start, however often (`扫 扫`, `碰了 碰了 摸的`:
    what follows the word once); its laughter is the handler's."""
    said = args
    while True:
        rest = said.lstrip(_SPACES + _REPEAT_MARKS)
        if not rest.startswith(word) or rest[len(word) : len(word) + 1] not in ("", *_SPACES, *_REPEAT_MARKS):
            return said.strip(_SPACES + _REPEAT_MARKS) if said != args else args
        said = rest[len(word) :]


def _only_again(args: str, word: str) -> bool:
    """Whether a record's arguments are nothing but its word again (`荒了 荒了`, `扫 扫`)."""
    said = tokens(args)
    return bool(said) and all(fold(typed) == word for typed in said)


def _cut_said_after(args: str, said: Callable[[str], bool]) -> str:
    """`args` without the words at their end that `said` reads as said after the line, not part of it (laughter,
    `走起` after 开桌's seats), with the punctuation and spaces before them; `args` as typed when there are none."""
    return ([args, *_said_after_cuts(args, said)])[-1]


def _said_after_cuts(args: str, said: Callable[[str], bool]) -> list[str]:
    """`args` less one, two … of the words at their end that `said` reads as said after the line (`付 @阿杰 8 转了
    收一下`: `付 @阿杰 8 转了`, `付 @阿杰 8`), each without the punctuation and spaces before it."""
    cuts: list[str] = []
    kept = args
    while True:
        end = len(kept)
        while end and _is_separator(kept[end - 1]):
            end -= 1
        start = end
        while start and not _is_separator(kept[start - 1]):
            start -= 1
        if start == end or not said(kept[start:end]):
            return cuts
        kept = kept[:start]
        cuts.append(kept.rstrip())


def without_laughter(args: str) -> str:
    """A record's arguments without laughter at their end (`碰 点 @丙 哈哈`), as `_without_cheers` drops it."""
    return _cut_said_after(args, _laughter)


def without_afterthoughts(line: str) -> str:
    """A correction's line without what is said after it: laughter (`改成 清一色 哈哈`) and the mistake owned up to
    (`改成清一色自摸 打错了`)."""
    return _cut_said_after(line, lambda word: _laughter(word) or fold(word) in vocab.CORRECTION_CHATTY_WORDS)


def _laughter_unglued(text: str, seats: Iterable[str] = ()) -> str:
    """`text` with laughter glued to the end of its last word typed apart (`七对自摸了哈哈` → `七对自摸了 哈哈`): two or
    more of the Chinese `vocab.LAUGHTER_CHARS` after something else; `text` as typed when there is none, or when the
    word is a seat's name or a mention not in Latin letters (a guest may be called `小哈哈`)."""
    end = len(text)
    while end and _is_separator(text[end - 1]):
        end -= 1
    start = end
    while start and fold(text[start - 1]) in _LAUGHTER_GLUED:
        start -= 1
    word = start
    while word and not _is_separator(text[word - 1]):
        word -= 1
    if end - start < 2 or word == start or (text[word] == "@" and not text[word:start].isascii()):
        return text  # `@ajie哈哈` is a username and laughter; `@小哈哈` may be a name
    if any(name_key(seat) == name_key(text[word:end]) for seat in seats):
        return text
    return f"{text[:start]} {text[start:]}"


#: the laughter characters that may be glued to a word: the Chinese ones (a Latin `h` ends words)
_LAUGHTER_GLUED = frozenset(char for char in vocab.LAUGHTER_CHARS if is_cjk(char))


def _says_how(word: str) -> bool:
    """Whether a win's word says how it was won (`自摸了`: `vocab.WORD_IMPLIES`), so it is a claim by itself."""
    return vocab.WORD_IMPLIES.get(word) == vocab.METHODS["self_draw"][:1]


def _laughter(word: str) -> bool:
    folded = fold(word)
    return (
        folded in vocab.LAUGHTER_WORDS
        or (len(folded) > 1 and set(folded) <= vocab.LAUGHTER_CHARS)
        or _LAUGHTER_EN.fullmatch(folded) is not None
    )


#: English laughter beyond `vocab.LAUGHTER_WORDS`: `hahaha`, `hahah`, `hehe`, `lolol`, `loool`
_LAUGHTER_EN = re.compile(rf"(?:{'|'.join(vocab.LAUGHTER_SYLLABLES_EN)}){{2,}}h?|lo+l(?:o+l)*")


def _cheering(word: str) -> bool:
    """Said after a record: laughter, or a cheer (`gg`, `666`: `vocab.CHEER_WORDS`)."""
    return _laughter(word) or fold(word) in vocab.CHEER_WORDS


def said_after_payment(word: str) -> bool:
    """Talk after a whole payment (`剩下的明天`, `收一下`, `谢谢`, `谢谢小李`, laughter, how it was paid: `微信转了`,
    `支付宝`: `vocab.PAYMENT_LATER_WORDS`, `vocab.PAYMENT_CHECK_WORDS`, `vocab.THANKS_WORDS`,
    `vocab.PAYMENT_HOW_WORDS`): said to the other person, no part of the payment. A number is the payment's amount,
    never laughter (`付 @ajie 233` pays 233, not the whole debt)."""
    folded = fold(word)
    if folded.isdigit():
        return False
    if _laughter(word) or folded in vocab.PAYMENT_CHECK_WORDS | vocab.PAYMENT_HOW_WORDS:
        return True
    if folded.startswith(vocab.THANKS_LEADS):
        return True
    return (
        folded.startswith(vocab.REST_OF_DEBT_WORDS)
        and any(later in folded for later in vocab.PAYMENT_LATER_WORDS)
        and not any(char.isdigit() for char in folded)
    )


def _open_cheer(word: str) -> bool:
    """Said after 开桌's seats to start (`走起`, `开始吧`: `vocab.OPEN_CHEER_WORDS`) or laughing: no seat."""
    return fold(word) in vocab.OPEN_CHEER_WORDS or _laughter(word)


def _words_at(head: str, book: CommandBook[GrammarCommand]) -> Iterator[tuple[str, int]]:
    """The book's words the (folded) line starts with, longest first, each with where it ends in the line. A word
    that takes something back typed apart from what it takes back (`撤销 结算`, `取消 付款`: `vocab.UNDO_VERBS`)
    comes first, so it is never the plain 撤销 of the table's latest record."""
    words = _by_first_char(book).get(head[0], ())
    joined, verb, gap = _undo_verb_joined(head)
    for word in words if joined != head else ():
        if len(word) > len(verb) and joined.startswith(word) and _ends_word(word, joined[len(word) :]):
            yield word, len(word) + gap
    for word in words:
        if head.startswith(word) and _ends_word(word, head[len(word) :]):
            yield word, len(word)


def _glued_to(head: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str] | None:
    """A Chinese command word glued to what its command reads as its arguments (`设置底金2`: `GrammarCommand.glued`;
    a Latin word ends at a space or punctuation, as `_ends_word` reads it), the longest such word first: (command,
    word), else None."""
    for word in _by_first_char(book).get(head[0], ()):
        if is_cjk(word[-1]) and head.startswith(word) and len(head) > len(word):
            command = book.lookup(word, game)
            if command is not None and command.glued is not None and command.glued(head[len(word) :]):
                return command, word
    return None


def _clean_amount(word: str) -> bool:
    """Whether a word is an amount read whole (`5`, `5块`, `2.5元`), not merely one that starts like it (`3杯`)."""
    try:
        return parse_amount(word) is not None
    except AmountError:
        return False


def _mention_then_amount(text: str) -> bool:
    """`@小李 5 刷屏`: a member's mention, then an amount (what the short fine word needs after it)."""
    first, *rest = tokens(text) or [""]
    return len(first) > 1 and first.startswith("@") and bool(rest) and _clean_amount(rest[0])


def _mentions_only(text: str) -> bool:
    """Nothing but @mentions (or nothing at all) after a word, not even punctuation: `ready @b`, not `ready!`."""
    return all(word.startswith("@") and len(word) > 1 for word in words(text))


def _asked_alone(text: str) -> bool:
    """Only a question mark after a word (`owed?`, `what I owe ?`): a look-up asked, as `余额？` is."""
    return bool(text.strip()) and not text.strip(_SPACES + "?？")


def _undo_verb_joined(head: str) -> tuple[str, str, int]:
    """A line starting with an undo verb and spaces (`撤销 结算`): the line without those spaces (`撤销结算`), its verb
    spelled as the words spell it (`撤消结算` is `撤销结算`), the verb, and how many spaces were taken out."""
    verb = next((verb for verb in vocab.UNDO_VERBS if head.startswith(verb)), "")
    after = head[len(verb) :]
    gap = len(after) - len(after.lstrip(_SPACES)) if verb else 0
    return vocab.UNDO_VERB_SPELLING.get(verb, verb) + after[gap:], verb, gap


_LOOKS_LONGEST = sorted((*vocab.LOOK_WORDS, "查看"), key=len, reverse=True)


def _looked_up(head: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, int] | None:
    """A question about the books asked around its word: after a word for looking (`看一下历史`, `查下余额 @乙`,
    `查看余额`) or closed with a particle (`余额呢`, `战绩啊`): (command, its word, where its arguments start).
    Only the commands that read (`vocab.LOOKED_UP_COMMANDS`); a look word before anything else is chat."""
    look = next((word for word in _LOOKS_LONGEST if head.startswith(word)), "")
    at = len(look)
    at += len(head[at:]) - len(head[at:].lstrip(_SPACES))
    core = head[at:].rstrip(_SPACES).translate(_SPACED).rstrip()
    if core[-1:] in vocab.LOOKED_UP_ENDINGS and core[:-1] in vocab.ASKED_WITH_A_PARTICLE:
        command = book.lookup(core[:-1], game)
        if command is not None:
            return command, core[:-1], len(head)
    if not look or at == len(head):
        return None
    for word, end in _words_at(head[at:], book):
        command = book.lookup(word, game)
        if command is not None and command.key in vocab.LOOKED_UP_COMMANDS:
            return command, word, at + end
    return None


#: the word `split_command` gives a win told by its patterns alone (`清一色 自摸`): no command word was typed
BY_PATTERNS = ""
#: the first characters a win told by its patterns can start with (a pattern or situation, a count before a
#: pattern: `两个暗四归一`, 一炮双响): any other chat line is not read further (every line of a group passes here).
#: A quoted line (`【清一色 自摸】`) is someone quoting a hand, not telling one.
_WIN_STARTS = frozenset(
    spelling[0]
    for table in (vocab.PATTERNS, vocab.SITUATIONS, {k: vocab.KEYWORDS[k] for k in ("double", "pihu")})
    for spellings in table.values()
    for spelling in spellings
) | frozenset("0123456789" + "".join(vocab.NUMERAL_DIGITS))


#: a self-draw told before its patterns in a Latin word (`zimo qingyise`, as `qingyise zimo`; `自摸 清一色` is a
#: command word's line)
_SELF_DRAW_FIRST = frozenset(spelling for spelling in vocab.METHODS["self_draw"] if spelling.isascii())


#: the words that may be typed with spaces inside and still start their line (`我 扫了`, `扫 了`: `split_command`)
_SPACED_WORDS = vocab.ALL_RECORD_WORDS | vocab.FIRST_PERSON_WORDS


def unprompted(text: str, word: str, command: GrammarCommand | None = None) -> bool:
    """Whether a command was read from a line that may well be chat: one that does not start with its word (a win
    told by its patterns, `BY_PATTERNS`, or a record with its player first: `@乙 胡了 …`, `老王 碰 …`), one whose
    word is glued to what its `command` reads (`设置底金2`), or one of `CHATTY_WORDS`. Such a line acts only when it
    reads cleanly: a question or a refusal would answer chat."""
    # the word whole after lead-ins, however long (`oops wrong oops wrong oops wrong undo this please`)
    head = fold(text[: _HEAD + len(word)]).lstrip(_SPACES)
    said = head.startswith(("/", word)) or _undo_verb_joined(head)[0].startswith(word)  # `撤销 结算` too
    said = said or any(
        word in vocab.COMMAND_WORDS[key] and head[_led_in(head, leads) :].startswith(word) for leads, key in _LEADS
    )
    said = said or (word in vocab.COMMAND_WORDS["open"] and head[_led_in(head, _OPEN_LEADS) :].startswith(word))
    said = (
        said
        or (  # `撤回 改成清一色`: 改成 after the undo verb, as plainly meant as 改成 alone
            head.startswith(_UNDONE_LEADS)
            and word in vocab.COMMAND_WORDS["correct"]
            and head[_led_in(head, _CORRECTION_LEADS) :].startswith(word)
        )
    )
    if not said and word in vocab.COMMAND_WORDS["correct"] and head.startswith(_HAND_FIRST_STARTS):
        number, after = hand_named_first(head)  # `第1局改成 …`: 改成 after the hand it corrects, as plainly meant
        said = number is not None and after.startswith(word)
    if not said and word in _SPACED_WORDS:  # `我 扫了`, `扫 了`, `我 起手 扫`: the word typed apart is said
        said = "".join(head.split()).startswith(word)
    glued = command is not None and command.glued is not None and head.startswith(word)
    if glued and _ends_word(word, head[len(word) :]):
        glued = False  # `设置 底金 2`: the word as typed apart
    return word in vocab.CHATTY_WORDS or word == BY_PATTERNS or not said or glued


def plainly_meant(command: GrammarCommand, args: str, word: str) -> bool:
    """Whether an `unprompted` line is plainly its command before the command reads it, so that a member who may not
    run it is told so: the fine with its member first (read only before an amount: `@小李 罚款 5`), or arguments
    with a value in digits or Latin letters (`设置底金2`, `底金改成2`, `设置语言en`). Chinese words after a setting's
    name may be chat (`设置规则好麻烦`): such a line is read only from an admin, and acts only when it reads; so is
    `@小李 发红包` (`vocab.ASKED_RED_PACKET`: from a member, asking 小李 to treat the group)."""
    if word == vocab.ASKED_RED_PACKET:
        return False
    return command.key == vocab.FINE_COMMAND or any(char.isascii() and char.isalnum() for char in args)


def _seat_first(text: str, seats: Iterable[str]) -> bool:
    """Whether the line's first word (up to a space) is exactly the name of a seat at the open table (`老王 胡了 …`,
    a guest's name): a line starting with any other word, or with a name glued to what follows, stays chat."""
    first = text.strip(_SPACES).split(maxsplit=1)[0]
    key = name_key(first)
    return any(name_key(seat) == key for seat in seats)


def _player_first(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str] = ()
) -> tuple[C_co, str, str] | None:
    """`@小李 胡了 清一色 点 @老王`, `@小李 暗杠 3s`, `老王 碰 点 @小李` (a seat's name): a record told with its player
    first is the record with the player where the command reads him (`胡了 @小李 …`); so is a payment told to the
    person it is with (`@老王 已转 8`, `@小李 收到`), and an admin's fine of the member @mentioned, when an amount
    follows its word (`@小李 罚款 5 刷屏`). Only a recording word of the table's game, a payment word or that fine
    may follow (never a first-person win: `@小李 我胡了` says nothing clear); anything else after a player is chat.
    `seats` name the discarder of a win told by its patterns (`老王 清一色 阿杰点的`)."""
    parts = text.strip(_SPACES).split(maxsplit=1)
    glued = _glued_payment(parts[0], book, game) if parts and fold(parts[0][:1]) == "@" else None
    if glued is not None:  # `@老王已转8`: `@老王 已转8`
        parts = [glued[0], " ".join((glued[1], *parts[1:]))]
    if len(parts) < 2 or fold(parts[0]) == "@" or fold(parts[1][:1]) == "@":
        return None  # `@ 胡`: nobody; `@乙 @丙 …`: whose record?
    fined = _fine_after_mention(parts[0], parts[1], book, game)
    if fined is not None:
        return fined
    found = split_command(parts[1], book, game) or _amount_first(parts[1], book, game, after_mention=False)
    if found is None and seats and game in (None, "kawuxing") and fold(parts[1][:1]) in _WIN_STARTS:
        found = _win_by_its_patterns(parts[1], book, game, seats)  # `老王 清一色 阿杰点的`: a seat's name inside
    if found is None:
        return None
    command, word, args = found
    if word == BY_PATTERNS:  # `@小李 清一色 自摸`: a win told by its patterns, its winner first
        return command, word, f"{parts[0]} {args}"
    if command.key == vocab.FINE_COMMAND and fold(parts[0][:1]) == "@" and _clean_amount((tokens(args) or [""])[0]):
        return command, word, f"{parts[0]} {args}"  # `@小李 罚款 5 刷屏`: `罚款 @小李 5 刷屏`
    if word not in vocab.PLAYER_FIRST_WORDS | vocab.ADDRESSED_PAYMENT_WORDS or word in vocab.FIRST_PERSON_WIN_WORDS:
        return None
    return command, word, f"{parts[0]} {args}".strip()


def _fine_after_mention(
    mention: str, rest: str, book: CommandBook[C_co], game: str | None
) -> tuple[C_co, str, str] | None:
    """`@小李 发红包`, `@小李 发红包 5 刷屏` (`vocab.FINE_AFTER_MENTION_WORDS`): the admins' fine of the member
    @mentioned first, alone (the group's amount) or before an amount; anything else after the word is chat."""
    said = tokens(rest)
    if fold(mention[:1]) != "@" or not said or fold(said[0]) not in vocab.FINE_AFTER_MENTION_WORDS:
        return None
    if len(said) > 1 and not _clean_amount(said[1]):
        return None  # `@小李 发红包 谢谢老板`: asked of them, not a fine
    command = book.lookup(vocab.FINE_READ_AS, game)
    after = rest.strip(_SPACES).split(maxsplit=1)
    word = vocab.ASKED_RED_PACKET if fold(said[0]) == vocab.ASKED_RED_PACKET else vocab.FINE_READ_AS
    return None if command is None else (command, word, " ".join((mention, *after[1:])))


def _card_passing_named(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`大哥 进贡 给 阿杰`, `@c 进贡 @a`, `阿三 点贡了`: 够级's card passing (`vocab.GOUJI_CARD_PASSING_WORDS`, said
    done too) told with whoever passes named first — anyone, by any word — read as its word, which answers that
    nothing is recorded (as `进贡 …` is); a question is chat."""
    parts = tokens(text)
    word = fold(parts[1]).rstrip("".join(vocab.PAID_DONE)) if len(parts) > 1 else ""
    if word not in vocab.GOUJI_CARD_PASSING_WORDS or asks(text):
        return None
    command = book.lookup(word, game)
    return None if command is None else (command, word, " ".join((parts[0], *parts[2:])))


def _fine_of_a_name(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`大胖 罚款 5 刷屏` (`vocab.FINE_NAMED_WORDS`): a fine of someone named by a plain word, then an amount, read as
    `罚款 大胖 5 刷屏` so that the fine can refuse it and ask for the @mention (a name is never who a fine is of)."""
    parts = tokens(text)
    if len(parts) < 3 or fold(parts[1]) not in vocab.FINE_NAMED_WORDS or not _clean_amount(parts[2]) or asks(text):
        return None
    command = book.lookup(vocab.FINE_READ_AS, game)
    return None if command is None else (command, vocab.FINE_READ_AS, " ".join((parts[0], *parts[2:])))


def _seat_glued(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`老王胡了 清一色 阿杰点的`, `小李暗杠 3s`, `老王碰了 大鹏点的`, `小李自摸七对`: a first word that starts with
    a seat's name, exactly as the table lists it, then a record word alone (`vocab.PLAYER_FIRST_WORDS`, of the table's
    game, never a first-person one) or
    自摸 and anything (`vocab.SEAT_GLUED_WORD`, which no name ends with by chance) is the record told with its
    player first (`老王 胡了 …`); a name glued to any other word (`老王胡说`, `老王来了`) or to a whole record
    (`老王胡了清一色`), and a name not seated (`王哥自摸`), stay chat."""
    head, origin = _fold_map(text[:_HEAD])
    start = len(head) - len(head.lstrip(_SPACES))
    first = head[start:].translate(_SPACED).split(" ", 1)[0]
    for seat in seats:
        named = fold(seat)
        said = first[len(named) :]
        if not named or not first.startswith(named) or said.startswith("我"):
            continue
        if said in vocab.PLAYER_FIRST_WORDS or said.startswith(vocab.SEAT_GLUED_WORD) or _again_alone(said, game):
            cut = origin[start + len(named)]
            return _player_first(f"{text[:cut]} {text[cut:]}", book, game, seats)
        kong = next((word for word in _KONGS_BY_LENGTH if said.startswith(word)), "")
        if kong and game in (None, "kawuxing") and _tile_alone(said[len(kong) :]):  # `老王暗杠5条`
            cut, tile = origin[start + len(named)], origin[start + len(named) + len(kong)]
            return _player_first(f"{text[:cut]} {text[cut:tile]} {text[tile:]}", book, game, seats)
    return None


#: a kong word a seat's name may be glued to with its tile glued after it (`老王暗杠5条`), longest first
_KONGS_BY_LENGTH = sorted(vocab.PLAYER_FIRST_WORDS & set(vocab.COMMAND_WORDS["gang"]), key=len, reverse=True)


def _tile_alone(text: str) -> bool:
    """Whether `text` is one tile and nothing else (`5条`, `三条`, `红中`)."""
    try:
        said = read(text)
    except GrammarError:
        return False
    return len(said) == 1 and said[0].kind == "tiles"


#: a plain name with an amount glued after it, in digits (`小李5块`, `老王2.5`) or in Chinese numerals with a unit
#: (`小李五块`, `老王十五块`: the whole run of numerals before the unit is the amount)
NAME_THEN_AMOUNT = re.compile(
    r"(?P<name>\D*?[^\d\s.¥@])(?P<amount>¥?\d\S*|[零〇一二两三四五六七八九十百千万]+(?:块钱|[元块圆角毛分])\S*)"
)
#: an @username with digits glued after it, and maybe a unit (`@ajie4`, `@ajie4块`): the digits may be an amount
_USERNAME_DIGITS = re.compile(r"@[A-Za-z0-9_]+?(?P<amount>\d[^@\s]*)")


def _sent_to(
    rest: str, book: CommandBook[C_co], game: str | None, *, mention: bool = True
) -> tuple[C_co, str, str] | None:
    """`转给 @老王 8`, `转给 @老王 8块了` (what follows 转给): the payment to that person (`已转给 @老王 8`) when one
    @mention and what is meant as an amount are all there is (`转给 @老王 8欢乐豆` too: the payment refuses its unit),
    or an @username with digits glued to it (`转给@ajie4`: the payment asks what is meant); so is one plain name
    before the amount, apart or glued (`转给 小李 4`, `转小李4块`: the payment books it only for a player of the latest
    settlement); `mention=False` (after 转 alone) reads only such a name. Anything else is chat (`转给 @老王`,
    `转给 @老王 看看`, `转发一下`, a question)."""
    parts = tokens(rest)
    if not parts or asks(rest):
        return None
    if not parts[0].startswith("@"):
        named = NAME_THEN_AMOUNT.fullmatch(parts[0]) if len(parts) == 1 else None
        amount = named["amount"] if named else "".join(parts[1:])
    elif not mention or len(parts[0]) < 2:
        return None
    else:
        glued = _USERNAME_DIGITS.fullmatch("".join(parts)) if parts[0][-1].isdigit() else None
        amount = glued["amount"] if glued else "".join(parts[1:])
    said = next((amount[: -len(done)] for done in vocab.PAID_DONE if amount.endswith(done)), amount)
    if not said or not looks_like_amount(said):
        return None
    command = book.lookup(vocab.SENT_TO_READ_AS, game)
    return None if command is None else (command, vocab.SENT_TO_READ_AS, _rest(rest))


def _paid_to_name(rest: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`给阿杰转了44`, `给 阿杰 转了 44` (what follows 给): a plain name, a payment word and only an amount after it are
    `转给 阿杰 44`, which the payment books only for a player of the latest settlement (`_common.settled_player`);
    anything else is None."""
    parts = rest.strip(_SPACES).split(maxsplit=1)
    if not parts or fold(parts[0][:1]) == "@" or asks(rest):
        return None
    glued = _glued_payment(parts[0], book, game) if len(parts) == 1 else None
    name, said = glued if glued is not None else (parts[0], parts[-1] if len(parts) == 2 else "")
    found = split_command(said, book, game) if said else None
    if found is None or found[1] not in vocab.ADDRESSED_PAYMENT_WORDS:
        return None
    amount = tokens(found[2])
    if len(amount) != 1 or not looks_like_amount(amount[0]):
        return None
    command = book.lookup(vocab.SENT_TO_READ_AS, game)
    return None if command is None else (command, vocab.SENT_TO_READ_AS, f"{name} {amount[0]}")


def _discarder_named_first(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`小李点炮 我胡了 七对`, `@小李 放炮 我胡了 清一色` (`vocab.DISCARDER_FIRST_WORDS`): the sender's own win on the
    discard of the one named first, read as `我胡了 七对 点 小李`. Only a seat's name exactly as the table lists it,
    or an @mention, may come first (anyone else's, `王哥点炮 我胡了`, is chat), and only a first-person win word
    may follow (`vocab.WON_ON_THAT_DISCARD_WORDS`) — or one winner and the hand's patterns (`小李点炮 老王 七对`:
    `老王 七对 点 小李`, as a 一炮双响 is told with two: `老王点炮 阿杰 七对 小李 卡五星`; the winner's 胡了 after
    them is no part of it: `老王点炮 阿杰胡了 七对`, said by the discarder himself)."""
    parts = text.translate(_SPACED).split(maxsplit=1)
    if len(parts) < 2 or asks(text):
        return None
    first, rest = parts
    said = next((w for w in vocab.DISCARDER_FIRST_WORDS if len(first) > len(w) and fold(first[-len(w) :]) == w), "")
    who = first[: len(first) - len(said)]
    if not said:  # typed apart: `小李 点炮 我胡了 …`, `@小李 你点的炮 我胡了 …`
        after = rest.split(maxsplit=1)
        if len(after) < 2 or fold(after[0]).removeprefix(_ADDRESSED) not in vocab.DISCARDER_FIRST_WORDS:
            return None
        rest = after[1]
    named = fold(who[:1]) == "@" and len(who) > 1
    if not named and all(name_key(seat) != name_key(who) for seat in seats):
        return None
    dealt_in = f"{vocab.METHODS['discard'][0]} {who}"
    found = split_command(rest, book, game)
    mine = rest.removeprefix(_SENDER)
    if found is None and mine != rest and win_words_only(mine, seats):  # `小李点炮 我七对`: `我胡了 七对`
        found = split_command(f"{_WON_ON_THAT_DISCARD} {mine}", book, game)
    if found is None:
        return _one_winner_after_discarder(rest, dealt_in, book, game, seats)
    if found[1] not in vocab.WON_ON_THAT_DISCARD_WORDS:
        return None
    command, word, args = found
    return command, word, f"{args} {dealt_in}".strip()


def _penghu_discarder_first(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """碰胡: `红姐打的 老表碰了`, `小刚放炮 阿四胡了`, `红姐打的 我碰了` (`vocab.PENGHU_DISCARDER_FIRST`, glued to the
    discarder or typed apart): the discarder told first, then a record a discard pays for (碰, 胡, 五福, 跑起) as the
    table reads it alone — its player first, glued or apart, or the sender's own — read as that record `点 红姐`.
    Only a seat's name as the table lists it, or an @mention, may come first; anything else is chat."""
    seats = tuple(seats)
    parts = text.translate(_SPACED).split(maxsplit=1)
    if len(parts) < 2 or asks(text):
        return None
    first, rest = parts
    said = next((w for w in vocab.PENGHU_DISCARDER_FIRST if len(first) > len(w) and fold(first).endswith(w)), "")
    who = first[: len(first) - len(said)]
    if not said:  # typed apart: `红姐 打的 老表碰了`
        after = rest.split(maxsplit=1)
        if len(after) < 2 or fold(after[0]) not in vocab.PENGHU_DISCARDER_FIRST:
            return None
        rest = after[1]
    if not (fold(who[:1]) == "@" and len(who) > 1) and not _seat_first(who, seats):
        return None
    found = split_command(rest, book, game, seats)
    if found is None or found[0].key not in vocab.PENGHU_DISCARDED_RECORDS:
        return None
    command, word, args = found
    return command, word, f"{args} {vocab.METHODS['discard'][0]} {who}".strip()


#: the discarder, then 给我点了(个)/点我 and the hand (`小李给我点了个七对`, `小李点我 七对`: `vocab.DEALT_TO_ME`)
_DEALT_TO_ME = re.compile(rf"(?s)(?P<who>\S+?)\s*(?:{'|'.join(vocab.DEALT_TO_ME)})\s*(?:一?个)?\s*(?P<hand>.*)")
#: the sender's win on someone's discard, that someone after 胡 (`我胡小李 七对`, `我胡了 @b 七对`, `我胡小李的 七对`)
_WON_OFF = re.compile(rf"(?s)(?:{'|'.join(vocab.WON_OFF)})\s*(?P<rest>.*)")
#: a mention glued to what follows it (`我胡@b七对`): a Latin username ends where its letters do
_MENTION_AT_START = re.compile(r"@[A-Za-z0-9_]+|@[^\s的]+")


def _dealt_in_to_me(text: str, seats: Iterable[str]) -> str | None:
    """`小李给我点了个七对`, `小李点我七对`, `我胡小李 七对` as `小李点炮 我胡了 七对` (`_discarder_named_first` then
    checks the discarder): the sender's win on that discard, at 卡五星. A hand of a win's words must follow (nothing
    but them, no way of winning: `小李给我点了个外卖` is chat; `我胡了 @小张` alone names whom, not how)."""
    said = text.strip(_SPACES)
    if asks(said):
        return None
    dealt = _DEALT_TO_ME.fullmatch(said)
    won_off = _WON_OFF.fullmatch(said) if dealt is None else None
    if dealt is not None:
        who, hand = dealt["who"], dealt["hand"]
    elif won_off is not None:
        rest = won_off["rest"]
        mention = _MENTION_AT_START.match(rest)
        seat = next((s for s in sorted(seats, key=len, reverse=True) if fold(rest).startswith(fold(s))), None)
        who = mention.group() if mention is not None else seat
        if not who:
            return None
        hand = rest[len(who) :].lstrip(_SPACES).removeprefix(vocab.WON_OFF_POSSESSIVE)
    else:
        return None
    try:
        words = read(without_laughter(hand))
    except GrammarError:
        return None
    if not words or any(word.kind not in _HAND_ONLY_KINDS for word in words):
        return None
    return f"{who}{vocab.DISCARDER_FIRST_WORDS[0]} {vocab.DEALT_TO_ME_WON} {hand}".strip()


#: the discarder spoken to (`@小李 你点的炮 我胡了`), and the sender before the hand's patterns (`小李点炮 我七对`)
_ADDRESSED = "你"
_SENDER = "我"
_WON_ON_THAT_DISCARD = "我胡了"


def _alternatives(words: Iterable[str]) -> str:
    """Words as a regular expression's alternatives, longest first, spaced any way."""
    return "|".join(r"\s+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True))


#: `Tom dealt in, I won …`, `ben dealt in to amy, seven pairs` (`vocab.DISCARDER_FIRST_EN`, `…_TO_EN`)
_DISCARDER_FIRST_EN = re.compile(
    rf"(?is)(?P<who>@?[^\s,]+)\s+(?:(?:{_alternatives(vocab.DISCARDER_FIRST_TO_EN)})\s+(?!me\b)(?P<to>@?[^\s,]+)"
    rf"|(?:{_alternatives(vocab.DISCARDER_FIRST_EN)}))(?P<rest>[\s,.;:!].*)"
)


def _discarder_first_en(text: str) -> str | None:
    """`Tom dealt in, I won seven pairs` as `Tom 点炮 I won seven pairs`, `ben dealt in to amy, seven pairs` as `ben
    点炮 amy seven pairs`: the line `_discarder_named_first` reads; None for any other line."""
    said = _DISCARDER_FIRST_EN.fullmatch(text.strip(_SPACES))
    if said is None:
        return None
    rest = said["rest"].lstrip(_SPACES + ",.;:!")  # `@tom discarded. I won …`
    return " ".join(part for part in (said["who"], vocab.DISCARDER_FIRST_WORDS[0], said["to"], rest) if part)


def _one_winner_after_discarder(
    rest: str, dealt_in: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`老王 七对` after `小李点炮`: a seat (or an @mention) then nothing but the hand's patterns, read as `老王 七对 点
    小李`. A second name after the winner is a 一炮双响's (`_double_win_named`), never read here."""
    seats = tuple(seats)
    winner, _, hand = rest.partition(" ")
    glued = _seat_glued_before(winner, seats) if not hand.strip(_SPACES) else None
    if glued is not None:  # `阿杰七对`: `阿杰 七对`
        winner, hand = glued
    said, _, after = hand.partition(" ")
    if fold(said) in (*vocab.WINNER_WON_WORDS, *vocab.WINNER_WON_EN):  # `阿杰 胡了 七对`, `amy won seven pairs`
        hand = after
    elif not _seat_first(winner, seats):  # `阿杰胡了 七对` (a seat named 老胡 is its name)
        won = next((w for w in vocab.WINNER_WON_WORDS if len(winner) > len(w) and fold(winner).endswith(w)), "")
        winner = winner[: len(winner) - len(won)]
    rest = f"{winner} {hand}"
    named_twice = "@" in fold(hand) or any(name_key(seat) in name_key(hand) for seat in seats)
    if not hand.strip(_SPACES) or named_twice or not (fold(winner[:1]) == "@" or _seat_first(winner, seats)):
        return None
    found = _player_first(f"{rest} {dealt_in}", book, game, seats)
    return found if found is not None and found[1] == BY_PATTERNS else None


def _seat_glued_before(word: str, seats: Iterable[str]) -> tuple[str, str] | None:
    """`阿杰七对` as (`阿杰`, `七对`): the longest seat's name the word starts with, and the rest of it; None when no
    seat's name starts it or nothing follows the name."""
    key = name_key(word)
    names = sorted((seat for seat in seats if key.startswith(name_key(seat)) and key != name_key(seat)), key=len)
    return (word[: len(names[-1])], word[len(names[-1]) :]) if names else None


_SETTING_CHANGED = re.compile(rf"把?\s*(?P<name>\S+?)\s*(?:{'|'.join(vocab.SETTING_CHANGED_WORDS)})\s*(?P<value>\S.*)")


def _setting_changed(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`底金改成2`, `把底金改为 0.5`: `设置 底金 2` when what comes before 改成 is exactly a name `设置` takes a
    setting by (its `glued` reads the name with the value after it, never the name alone); a question is chat."""
    said = _SETTING_CHANGED.fullmatch(text.strip(_SPACES))
    command = book.lookup(vocab.SETTING_CHANGED_READ_AS, game)
    if said is None or command is None or command.glued is None or asks(text):
        return None
    name, value = fold(said["name"]), fold(said["value"])
    if command.glued(name) or not command.glued(name + value):
        return None
    return command, vocab.SETTING_CHANGED_READ_AS, f"{said['name']} {_rest(said['value'])}"


def _told_of_this_hand(
    rest: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """What follows `这把`, `刚才那局` (`vocab.THIS_HAND_WORDS`): the sender's own record told after them (`这把我自摸
    清一色` is `我自摸 清一色`, `这把小李点炮 我胡了` is `小李点炮 我胡了`; `这把我 清一色 自摸`, a win by its patterns
    after 我, is `我胡 清一色 自摸`) or a draw (`这把荒了`); any other line is chat (`这把我输惨了`)."""
    found = split_command(rest, book, game, seats)
    if found is not None and found[1] in vocab.THIS_HAND_RECORD_WORDS:
        return found
    return _mine_by_patterns(rest, book, game, seats)  # `这把我 清一色 自摸`


def _mine_by_patterns(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`我清一色自摸`, `我 七对 点 小李`: 我, then a win told by its patterns (`_win_by_its_patterns`), is the
    sender's own win (`我胡 清一色 自摸`); None for anything else (`我清一色`, `我清一色自摸太难了`)."""
    mine = text.lstrip(_SPACES)
    if not mine.startswith(vocab.ME_FIRST) or mine.startswith(vocab.WE_FIRST) or game not in (None, "kawuxing"):
        return None
    by_patterns = _win_by_its_patterns(mine[len(vocab.ME_FIRST) :].lstrip(_SPACES), book, game, seats)
    command = book.lookup(vocab.MY_WIN_WORD, game) if by_patterns is not None else None
    return None if command is None or by_patterns is None else (command, vocab.MY_WIN_WORD, by_patterns[2])


def _glued_payment(first: str, book: CommandBook[GrammarCommand], game: str | None) -> tuple[str, str] | None:
    """`@老王已转8`, `@老王收到`: a mention typed glued to a payment word after it (a name is not a Latin
    username, so nothing says where it ends: `spaced_usernames` splits `@ajie已转8`) split before the first payment
    word that only an amount, or nothing, follows: (`@老王`, `已转8`). None when there is no such word (`@老王转了吗`
    stays chat)."""
    for cut in range(2, len(first)):
        found = split_command(first[cut:], book, game)
        if found is None or found[1] not in vocab.ADDRESSED_PAYMENT_WORDS:
            continue
        after = found[2].split()
        if not after or (len(after) == 1 and looks_like_amount(after[0])):
            return first[:cut], first[cut:]
    return None


# ------------------------------------------------------------------ payments and money questions (money2)

#: the payment words longest first, for a payment told with its amount before the word (`_amount_first`)
_PAYMENT_WORDS_LONGEST = sorted(vocab.ADDRESSED_PAYMENT_WORDS, key=len, reverse=True)
#: the longest amount `_amount_first` looks for before a payment word
_AMOUNT_FIRST_MOST = 12


def _amount_first(
    text: str, book: CommandBook[C_co], game: str | None, *, after_mention: bool
) -> tuple[C_co, str, str] | None:
    """A payment told with its amount first (`1块已转`, `剩下的3块也转了`, `余下3块已转 @阿杰`): the amount, maybe
    after 剩下的/余下 (`vocab.REST_OF_DEBT_WORDS`) and before 也/都, then a payment word ending the line, or followed
    by one @mention only (`after_mention`: what the line must end with when nobody was named before it). Read as
    the word with `@mention amount` (the mention added by `_player_first`); a question, or anything else after
    the word, is chat. The amount is handed on as typed, for the payment to read or refuse with why (`三块`)."""
    line = clean(text)
    if not line or asks(text):
        return None
    rest = next((line[len(w) :] for w in vocab.REST_OF_DEBT_WORDS if fold(line).startswith(w)), line).lstrip()
    for cut in range(1, min(len(rest), _AMOUNT_FIRST_MOST) + 1):
        amount = rest[:cut].strip()
        if " " in amount or not looks_like_amount(amount):
            continue
        after = fold(rest[cut:]).lstrip()
        after = next((after[len(w) :].lstrip() for w in vocab.ALSO_WORDS if after.startswith(w)), after)
        word = next((w for w in _PAYMENT_WORDS_LONGEST if after.startswith(w) and _ends_word(w, after[len(w) :])), "")
        command = book.lookup(word, game) if word else None
        if command is None:
            continue
        said = rest[len(rest) - len(after) + len(word) :].split()
        named = len(said) == 1 and said[0].startswith("@") and len(said[0]) > 1
        if (named and after_mention) or (not said and not after_mention):
            return command, word, " ".join((*said, amount))
    return None


#: what a sender owes one person, or is owed by them, asked with the person's name inside (`我欠阿杰多少`,
#: `还欠老王几块`, `老王欠我多少钱`): 余额 of the sender with only the debts between the two
_OWING_NAMED = re.compile(r"我?还?欠\s*(?P<name>[^\s我]+?)\s*(?:多少|几块)钱?(?:呢|啊|呀)?")
_OWED_NAMED = re.compile(r"(?P<name>[^\s我]+?)\s*还?欠我\s*(?:多少|几块)钱?(?:呢|啊|呀)?")
#: the same asked in English of what one is owed (`how much does ben owe me?`, `what does @ben still owe me`;
#: what one owes, `how much do I owe ben`, is the word `how much do i owe` with the name after it)
_OWED_NAMED_EN = re.compile(r"(?:how much|what) (?:does|do) (?P<name>\S+) (?:still )?owe me(?: now| still)?")
#: the question words that read those (their `WORD_IMPLIES` make them `余额 我`)
OWING_NAMED_WORD, OWED_NAMED_WORD = "我欠谁", "谁欠我"


def _owing_named(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`我欠阿杰多少`, `还欠老王几块`: (余额, 我欠谁, the name); `老王欠我多少`: (余额, 谁欠我, the name). The name
    is handed on as typed, for 余额 to look up (a seat's name, an @mention); `谁` names nobody (`我欠谁多少` is
    我欠谁). Anything else around them is chat."""
    line = clean(text).rstrip("?").rstrip()
    named = ((_OWING_NAMED, OWING_NAMED_WORD), (_OWED_NAMED, OWED_NAMED_WORD), (_OWED_NAMED_EN, OWED_NAMED_WORD))
    for pattern, word in named:
        folded = fold(line)  # the English words in any case (`How much does Ben owe me`), the name as typed
        said = pattern.fullmatch(folded if pattern is _OWED_NAMED_EN and len(folded) == len(line) else line)
        command = book.lookup(word, game) if said is not None else None
        if said is not None and command is not None:
            name = line[said.start("name") : said.end("name")]
            return command, word, "" if fold(name) == "谁" else name
    return None


#: someone's result asked with their name first (`老王输了多少`, `阿杰今晚赢了几块`, `小李输多少钱了`): 余额 of them
_RESULT_NAMED = re.compile(
    r"(?P<name>[^\s我谁]+?)\s*(?:今晚|今天|一共|总共|现在)?\s*(?:输|赢)了?\s*(?:多少|几块)钱?了?(?:呢|啊|呀)?"
)
#: words before 输了多少 that name nobody the books know (`你输了多少`, `大家赢了几块`): chat
_NOBODY_NAMED = frozenset({"你", "他", "她", "它", "你们", "他们", "她们", "咱们", "我们", "大家", "别人", "人家"})
#: the word that reads it
RESULT_NAMED_WORD = "余额"


def _result_named(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`老王输了多少`, `阿杰今晚赢了几块`: (余额, 余额, the name), the name handed on as typed for 余额 to look up (a
    seat's name, a member's, an @mention), as `余额 老王` reads it. `你输了多少`, `我输了多少` (余额 我: a word of its
    own) and anything else around them are not this."""
    said = _RESULT_NAMED.fullmatch(clean(text).rstrip("?"))
    if said is None or fold(said["name"]) in _NOBODY_NAMED:
        return None
    command = book.lookup(RESULT_NAMED_WORD, game)
    return None if command is None else (command, RESULT_NAMED_WORD, said["name"])


#: the words a win told without 胡 may hold besides its patterns: how it was won, when, and the tiles
#: the win word said after a win told by its patterns (`清一色 自摸 胡了`)
_WON_AFTER = frozenset({"胡", "胡了", "胡啦", "胡了胡了"})
_WIN_WORD_KINDS = frozenset(
    {"pattern", "situation", "method", "tiles", "count", "double", "chain", "ma", "meld", "pihu"}
)
#: the words of a hand told after its discarder (`_dealt_in_to_me`): no way of winning, nobody named
_HAND_ONLY_KINDS = _WIN_WORD_KINDS - {"method"}


def _win_by_its_patterns(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str] = ()
) -> tuple[C_co, str, str] | None:
    """`清一色 自摸`, `七对 点 @老王`, `七对 老王点的`, `杠上开花 自摸 清一色`, `一炮双响 @甲 卡五星 @乙 七对 点 @丙`,
    `zimo qingyise`: a win told by its patterns and how it was won, without 胡, is the win (`胡 清一色 自摸`). Only
    when it starts with a pattern, situation or 一炮双响 (or, in Latin letters, a self-draw before a pattern), says
    how it was won (杠上开花 and 海底捞 beside a pattern say 自摸: `杠上开花 清一色`), and holds nothing but a win's
    words (a person only as `@x`, right after 点/抢杠, or a seat's name right before 点的/放的炮): `清一色自摸太难了`,
    `zimo is hard`, `杠上开花了！` stay chat, and so do a question and a quoted hand; laughter at its end is dropped
    (`碰碰胡 自摸 哈哈哈`). The word given is `BY_PATTERNS`."""
    keys = {name_key(seat): seat for seat in seats}
    if asks(text):
        return None
    # `碰碰胡 自摸 哈哈哈` as a record word's line (a cheer is not: `清一色 自摸 666` praises someone's win);
    # `清一色自摸 胡了`: the win word after what was won, said again
    text = _cut_said_after(text, lambda typed: _laughter(typed) or fold(typed) in _WON_AFTER)
    try:
        words = read(text[: _HEAD * 2], lambda typed: keys.get(name_key(typed)))
    except GrammarError:
        return None
    if not words:
        return None
    if words[0].kind not in ("pattern", "situation", "double", "pihu") and not (
        words[0].typed.isascii() and words[0].value == "self_draw" and any(w.kind == "pattern" for w in words)
    ):
        return None
    self_drawn = any(w.kind == "situation" and SITUATION_METHOD[w.value] == "self_draw" for w in words)
    if not any(w.kind == "method" for w in words) and not (self_drawn and any(w.kind == "pattern" for w in words)):
        return None
    for before, word, after in zip([None, *words[:-1]], words, [*words[1:], None], strict=True):
        if word.kind in _WIN_WORD_KINDS or (word.kind == "unknown" and _STATED_AMOUNT.fullmatch(word.value)):
            continue  # the money said with it (`七对 自摸 4块一家`) is asked about (`stated_amounts`)
        after_discarder = before is not None and before.kind == "method" and before.value != "self_draw"
        discarder = word.kind == "person" and after is not None and after.kind == "method" and after.value == "discard"
        if discarder or (word.kind == "person" and after_discarder):
            continue  # `老王点的`, `点 老王`: a seat's name where the discarder is told
        if word.kind != "unknown" or not (word.typed.startswith("@") or after_discarder):
            return None
    command = book.lookup("胡", game)
    return None if command is None else (command, BY_PATTERNS, _rest(text))


def win_words_only(args: str, seats: Iterable[str]) -> bool:
    """Whether every word of `args` is a win's or names someone (a seat, an @mention): `seven pairs self drawn`
    after `I won` tells a win, `the raffle` does not."""
    keys = {name_key(seat): seat for seat in seats}
    try:
        words = read(args, lambda typed: typed if typed.startswith("@") else keys.get(name_key(typed)))
    except GrammarError:
        return False
    return bool(words) and all(word.kind in _WIN_WORD_KINDS | {"person"} for word in words)


_EACH = "|".join(vocab.STATED_AMOUNT_EACH)
#: a number said with a unit, in digits or Chinese numerals as people say it (`4块`, `四块`, `两块五`, `一百块`)
_STATED_NUMBER = r"(?:\d{1,6}(?:\.\d{1,2})?|[零〇一二两三四五六七八九十百千]{1,6})"
_STATED_AMOUNT = re.compile(
    rf"(?:{_EACH})?{_STATED_NUMBER}(?:{'|'.join(vocab.STATED_AMOUNT_UNITS)})[一二两三四五六七八九\d]?(?:{_EACH})?"
    rf"|(?:{_EACH})\d{{1,6}}(?:\.\d{{1,2}})?"
)


def stated_amounts(args: str) -> tuple[str, list[str]]:
    """A win's words without the money said with them (`七对 自摸 4块一家` → `七对 自摸`, [`4块一家`])."""
    kept: list[str] = []
    said: list[str] = []
    for typed in tokens(args):
        (said if _STATED_AMOUNT.fullmatch(fold(typed)) else kept).append(typed)
    return " ".join(kept), said


def _rest(text: str) -> str:
    """A command's arguments as typed; nothing when they are only punctuation and emoji (`余额？`, `自摸！`)."""
    return text.strip(_SPACES) if text.translate(_SPACED).strip() else ""


def _ends_word(word: str, after: str) -> bool:
    """A command word counts when nothing follows, or no letter of the same script; a recording word also when
    its own vocabulary is glued to it (`胡清一色自摸`), 撤销 when a hand number is (`撤销第1局`), never inside an
    ordinary word (`胡说八道`)."""
    if word in vocab.SELF_DRAW_ALONE:
        return not after.translate(_SPACED).strip()  # `zimo!`; `zimo qingyise` is a win told by its patterns
    if not after:
        return True
    if not is_cjk(word[-1]):
        return _is_separator(after[0])
    if not is_cjk(after[0]):
        return True
    undone = hand_number(after) is not None or clean(after) in vocab.LAST_HAND_WORDS
    if word in vocab.COMMAND_WORDS["undo"] and undone:
        return True  # `撤销第1局`, `撤销上一局`
    if word not in vocab.RECORD_WORDS:
        return False
    chunk, *later = re.split(r"[\s,、。!?;:~]+", after, maxsplit=1)
    if chunk in _ONE_OF and later:  # `我胡了一个 七对`: 一个 glued to the word, the pattern after a space
        return _glued_record(word, re.split(r"[\s,、。!?;:~]", later[0], maxsplit=1)[0])
    return _glued_record(word, chunk)


_HAND_NUMBER = re.compile(
    rf"(?:第|hand\s*#?)?\s*(?P<n>\d{{1,4}}|[{''.join(vocab.NUMERAL_DIGITS)}{''.join(vocab.NUMERAL_UNITS)}]{{1,8}})\s*"
    rf"(?:{'|'.join(vocab.HAND_WORDS)})?"
)


#: one hand asked about as players ask (`第3局`, `看看第三局`, `第3局明细`, `第3把怎么算的`): 历史 of that hand
_ASKED_HAND = re.compile(
    rf"(?:{'|'.join(vocab.LOOK_WORDS)})?\s*"
    rf"(?P<hand>第\s*\S{{1,8}}?\s*(?:{'|'.join(vocab.HAND_WORDS)})|hand\s*#?\s*\d{{1,4}})"
    rf"\s*(?:{'|'.join(vocab.HAND_VIEW_ENDINGS)})?"
)


def hand_number(text: str) -> int | None:
    """A finished hand named by its number, as players write it (`第3局`, `3`, `第一局`, `第十二把`, `第2盘`, `hand 3`),
    on folded text; None for anything else. A count of hands is read the same way (`历史 五`, `历史 十局`)."""
    match = _HAND_NUMBER.fullmatch(text.strip(_SPACES))
    if match is None:
        return None
    digits = match["n"]
    number = int(digits) if digits.isascii() else _numeral(digits)
    return number if number is not None and 0 < number <= 9999 else None


#: a finished hand named first, with 第 or `hand` (`第1局 …`, `第一把，…`, `hand 1 …`)
_HAND_FIRST = re.compile(
    rf"(?:第|hand\s*#?)\s*(?:\d{{1,4}}|[{''.join(vocab.NUMERAL_DIGITS)}{''.join(vocab.NUMERAL_UNITS)}]{{1,8}})"
    rf"(?:\s*(?P<word>{'|'.join(vocab.HAND_WORDS)}))?"
)
_HAND_FIRST_STARTS = ("第", "hand")


def hand_named_first(text: str) -> tuple[int | None, str]:
    """(the hand's number, the rest as typed) of a line naming a finished hand first, with 第 or `hand` (`第1局 七对
    点 @wang`, `第一把，自摸`, `第1局改成 …`: glued only after 局/把/盘); (None, the line) for any other line."""
    folded, origin = _fold_map(text)
    start = len(folded) - len(folded.lstrip(_SPACES))
    match = _HAND_FIRST.match(folded, start)
    end = match.end() if match is not None else 0
    if match is None or not (match["word"] or end == len(folded) or _is_separator(folded[end])):
        return None, text
    number = hand_number(folded[start:end])
    while end < len(folded) and _is_separator(folded[end]):
        end += 1
    return (None, text) if number is None else (number, text[origin[end] :].strip())


def in_digits(text: str) -> str:
    """A small number typed in Chinese numerals (`五`, `九十`, `两`) in digits (`5`, `90`, `2`), so that a setting's
    value reads as it does typed so (`设置 日切 五点`); anything else as it was."""
    numerals = text and all(char in vocab.NUMERAL_DIGITS or char in vocab.NUMERAL_UNITS for char in text)
    number = _numeral(text) if numerals else None
    return text if number is None else str(number)


def _numeral(text: str) -> int | None:
    """A Chinese numeral below 10000 (`十二`, `二十`, `一百零五`, `两千`); None when it is not one."""
    total, digit, last_unit = 0, None, 10000
    for char in text:
        if char in vocab.NUMERAL_UNITS:
            unit = vocab.NUMERAL_UNITS[char]
            if unit >= last_unit or digit == 0:
                return None
            total += (1 if digit is None else digit) * unit
            digit, last_unit = None, unit
        elif digit is not None and digit != 0:
            return None  # two digits in a row (`一二`) is no numeral
        else:
            digit = vocab.NUMERAL_DIGITS[char]
    return total + (digit or 0)


def _glued_record(word: str, chunk: str) -> bool:
    """Arguments glued to a recording word: read without a space when they are words of the vocabulary through
    and through, or begin with a pattern, method or situation of two characters or more (a name may follow)."""
    if word in _KONG_WORDS:
        chunk = kong_tile_uncounted(chunk)  # `暗杠三个八筒`
    if _segment(chunk, None) is not None:
        return True
    if len(word) >= 2 and (run := _tile_run(chunk, 0)) is not None and run[1] >= 2:
        return True  # `直杠九筒点小李`: tiles, then a name
    found = _longest_word(chunk, 0)
    if found is None:
        return False
    spelling, (kind, _value) = found
    return len(spelling) >= 2 and (len(word) >= 2 or kind in {"pattern", "situation", "method", "pihu"})


def mangled_record(text: str) -> bool:
    """A line no command reads that still starts as a record: an acting word followed by words of its vocabulary
    however mangled (`胡清一涩自摸`) — meant for the bot, not chat."""
    head = fold(text[:_HEAD]).lstrip(_SPACES)
    if not any(head.startswith(word) for word in vocab.ACTING_WORDS):
        return False
    return any(len(spelling) >= 2 and spelling in head[1:] for spelling in _VOCABULARY)


# ------------------------------------------------------------------------------------- the arguments' words


@dataclass(frozen=True)
class Word:
    """One understood (or not) word of a record's arguments.

    `kind`: pattern | situation | method | meld | kong_kind | pihu | double | chain | ready | nobody_ready | ma |
    count | tiles | person | known (a word of the vocabulary that is no argument: a command word such as 亮倒, a
    count word without its number) | unknown;
    `value`: a pattern key, a method (`self_draw` …), a meld or kong kind, tiles in tenhou notation, a seat name,
    a count as `kan=2`;
    `typed`: the word as the player typed it (quoted back in refusals)."""

    kind: str
    value: str
    typed: str

    def canonical(self) -> str:
        """The word as the bot writes it: the vocabulary's first spelling, tiles in notation, a person as typed."""
        table = _TABLES.get(self.kind)
        if table is not None:
            return vocab.canonical(table, self.value)
        if self.kind == "tiles":
            return self.value
        if self.kind == "count":
            key, number = self.value.split("=")
            return vocab.COUNT_WORDS[key][0] + number
        return self.typed


#: a kind `read` gives a word only while it reads (`vocab.DISCARDER_LEADS`): never in what it returns
_DISCARDER_LEAD = "discarder_lead"
_TABLES: dict[str, Mapping[str, tuple[str, ...]]] = {
    "pattern": vocab.PATTERNS,
    "situation": vocab.SITUATIONS,
    "method": vocab.METHODS,
    "meld": vocab.MELDS,
    "kong_kind": vocab.KONG_KINDS,
    "pihu": {"pihu": vocab.KEYWORDS["pihu"]},
    "double": {"double": vocab.KEYWORDS["double"]},
    "chain": {"chain": vocab.KEYWORDS["chain"]},
    "ready": {"ready": vocab.KEYWORDS["ready"]},
    "nobody_ready": {"nobody_ready": vocab.KEYWORDS["nobody_ready"]},
    "ma": {"ma": vocab.KEYWORDS["ma"]},
    _DISCARDER_LEAD: {_DISCARDER_LEAD: vocab.DISCARDER_LEADS},
}


def _vocabulary() -> dict[str, tuple[str, str]]:
    table: dict[str, tuple[str, str]] = {}
    for kind, values in _TABLES.items():
        for spelling, value in vocab.spellings(values).items():
            if spelling in table:
                raise ValueError(f"vocabulary: {spelling!r} is both {table[spelling]} and {(kind, value)}")
            table[spelling] = (kind, value)
    return table


#: every argument spelling -> (kind, value)
_VOCABULARY = _vocabulary()
_VOCABULARY_BY_FIRST: dict[str, list[str]] = {}
for _spelling in sorted(_VOCABULARY, key=len, reverse=True):
    _VOCABULARY_BY_FIRST.setdefault(_spelling[0], []).append(_spelling)
_COUNT_SPELLINGS = vocab.spellings(vocab.COUNT_WORDS)
_COUNT_ALTERNATIVES = "|".join(re.escape(w) for w in sorted(_COUNT_SPELLINGS, key=len, reverse=True))
#: a count glued to its word, either way round: `坎2`, `2坎`, `2个坎`, `八1`
_COUNT = re.compile(
    rf"(?:(?P<word>{_COUNT_ALTERNATIVES})(?P<n>\d{{1,3}})|(?P<n2>\d{{1,3}})(?P<word2>{_COUNT_ALTERNATIVES}))"
)
#: spellings the vocabulary knows that are no record argument: command words (`亮倒`, `荒庄`, `漂`) -> their command,
#: a count word alone (`坎`) -> `count`. Read as `known`: refused as having no place, never dropped by a suggestion
_KNOWN_ELSEWHERE: dict[str, str] = {
    spelling: key
    for spelling, key in (vocab.spellings(vocab.COMMAND_WORDS) | dict.fromkeys(_COUNT_SPELLINGS, "count")).items()
    if spelling not in _VOCABULARY
}
#: every Chinese spelling of two characters or more the vocabulary knows -> what it means (a suggestion's check)
_KNOWN_SPELLINGS: dict[str, tuple[str, str]] = {
    spelling: meaning
    for spelling, meaning in [*((s, ("known", key)) for s, key in _KNOWN_ELSEWHERE.items()), *_VOCABULARY.items()]
    if len(spelling) >= 2 and is_cjk(spelling[0])
}
#: a pattern and 清一色 as one word (`清七对`) -> the pattern keys it names
_COMPOUNDS = {fold(spelling): keys for spelling, keys in vocab.PATTERN_COMPOUNDS.items()}
_NICKNAMES = sorted(vocab.TILE_NICKNAMES, key=len, reverse=True)
_NICKNAME_INITIALS = frozenset(n[0] for n in _NICKNAMES)

Resolve = Callable[[str], str | None]


def _longest_word(folded: str, at: int) -> tuple[str, tuple[str, str]] | None:
    for spelling in _VOCABULARY_BY_FIRST.get(folded[at], ()) if at < len(folded) else ():
        if folded.startswith(spelling, at):
            return spelling, _VOCABULARY[spelling]
    compound = max((c for c in _COMPOUNDS if folded.startswith(c, at)), key=len, default=None)
    return None if compound is None else (compound, ("pattern", _COMPOUNDS[compound][0]))


def _tile_run(folded: str, at: int) -> tuple[str, int] | None:
    """The longest run of tiles starting at `at`, in tenhou notation, and where it ends: `三条` → 3s,
    `伍筒` → 5p, `5w` → 5m, `幺鸡` → 1s, `123p46p` as written, `红中` / `中` → 7z."""
    notation: list[str] = []
    index = at
    single = False  # the last piece was one tile by name: the next one of its suit joins it (`红中红中` → 77z)

    def add_single(tile: str) -> None:
        nonlocal single
        if single and notation[-1][-1] == tile[-1]:
            notation[-1] = notation[-1][:-1] + tile
        else:
            notation.append(tile)
        single = True

    while index < len(folded):
        nickname = None
        if folded[index] in _NICKNAME_INITIALS:
            nickname = next((n for n in _NICKNAMES if folded.startswith(n, index)), None)
        if nickname is not None:
            add_single(vocab.TILE_NICKNAMES[nickname])
            index += len(nickname)
            continue
        if folded[index] in vocab.TILE_DRAGONS:
            add_single(vocab.TILE_DRAGONS[folded[index]])
            index += 1
            continue
        single = False
        end = index
        while end < len(folded) and folded[end] in vocab.TILE_NUMERALS:
            end += 1
        if end == index or end >= len(folded) or folded[end] not in vocab.TILE_SUITS:
            break
        digits = "".join(vocab.TILE_NUMERALS[c] for c in folded[index:end])
        notation.append(digits + vocab.TILE_SUITS[folded[end]])
        index = end + 1
    if index == at or not _valid_tiles("".join(notation)):
        return None
    return "".join(notation), index


def _valid_tiles(notation: str) -> bool:
    from ledger.scoring.common import ScoringError
    from ledger.scoring.tiles import parse_tiles

    try:
        return bool(parse_tiles(notation))
    except ScoringError:
        return False


#: a word typed in tenhou notation already (`123p46p789s22s333s`, `5p`): `_tile_run` would read it as itself
_NOTATION = re.compile(r"(?:[1-9]+[mpsz])+")


def tile_notation(word: str) -> str | None:
    """A whole word read as tiles (tenhou notation), or None."""
    folded = fold(word)
    if _NOTATION.fullmatch(folded):  # the common case, spared `_tile_run`'s walk character by character
        return folded if _valid_tiles(folded) else None
    run = _tile_run(folded, 0)
    return run[0] if run is not None and run[1] == len(folded) else None


def _count_at(folded: str, at: int) -> tuple[int, str] | None:
    """A count glued to its word at `at` (`坎2`, `2坎`): where it ends and its value `kan=2`."""
    match = _COUNT.match(folded, at)
    if match is None:
        return None
    word, number = (match["word"], match["n"]) if match["word"] else (match["word2"], match["n2"])
    return match.end(), f"{_COUNT_SPELLINGS[word]}={int(number)}"


def _joined_counts(typed: list[str]) -> list[str]:
    """A count word and its number typed apart (`坎 2`, `2 坎`) as one word, a multiplier typed apart from the
    word before it (`暗四归一 ×2`, `暗四归一 x 2`) joined to it, and `一个` before a pattern (`一个 七对`) to it."""
    out: list[str] = []
    index = 0
    while index < len(typed):
        here = typed[index]
        after = typed[index + 1] if index + 1 < len(typed) else ""
        word_first = fold(here) in _COUNT_SPELLINGS and after.isascii() and after.isdigit()
        number_first = here.isascii() and here.isdigit() and fold(after) in _COUNT_SPELLINGS
        sign_alone = len(here) == 1 and fold(here) in _TIMES and after.isascii() and after.isdigit()
        one_of = fold(here) in _ONE_OF and (_segment(here + after, None) or [Word("", "", "")])[0].kind == "pattern"
        if out and (sign_alone or _MULTIPLIER.fullmatch(fold(here))):
            out[-1] += here + after if sign_alone else here
            index += 2 if sign_alone else 1
        elif word_first or number_first or one_of:
            out.append(here + after)
            index += 2
        else:
            out.append(here)
            index += 1
    return out


#: said before a pattern as people tell a hand, `我自摸了一个清一色`, `胡了个七对`: the pattern (typed apart too,
#: `胡了 一个 七对`); anywhere else a word not understood
_ONE_OF = ("一个", "个")


#: every spelling of a pattern, or of patterns said as one (`清七对`) -> what it names
_PATTERN_SPELLINGS: dict[str, str] = {
    **{spelling: value for spelling, (kind, value) in _VOCABULARY.items() if kind == "pattern"},
    **{spelling: "+".join(keys) for spelling, keys in _COMPOUNDS.items()},
}


def _joined_patterns(typed: list[str]) -> list[str]:
    """A pattern's name typed in pieces (`七 对`, `清 一色`, `碰碰 胡`, `卡 五星`: voice typing puts spaces inside)
    as one word, when two or three pieces join to exactly one pattern and not every piece is a win's word alone
    (`卡 五 星`: 卡五星, as 卡五 is too); anything else as typed, so a piece nothing joins is still refused."""
    out: list[str] = []
    index = 0
    while index < len(typed):
        joins = {size: _PATTERN_SPELLINGS.get(fold("".join(typed[index : index + size]))) for size in (2, 3)}
        named = {  # the look-up first: most lines join to nothing, and reading each piece alone costs more
            size: value
            for size, value in joins.items()
            if value is not None
            and index + size <= len(typed)
            and not all(map(_win_word_alone, typed[index : index + size]))
        }
        size = max(named) if len(set(named.values())) == 1 else 1
        out.append("".join(typed[index : index + size]))
        index += size
    return out


def _win_word_alone(typed: str) -> bool:
    folded = fold(typed)
    return typed.startswith("@") or folded in _VOCABULARY or _segment(typed, None) is not None


def _person(typed: str, resolve: Resolve | None) -> str | None:
    return resolve(typed) if resolve is not None else None


#: most words one record may have (a 一炮双响 with tiles and melds has about 20): each may cost a look-up
MAX_WORDS = 50
#: longest word typed without spaces that the reader splits (a longer one is an unknown word): splitting tries every
#: cut, so an unbounded word would cost quadratic time
MAX_GLUED = 100


def _segment(typed: str, resolve: Resolve | None) -> list[Word] | None:
    """A word typed without spaces, split by longest match into vocabulary words, tiles and (with a resolver)
    seated names: `清一色自摸` → 清一色 自摸, `点小李` → 点 小李. None unless the whole word splits."""
    folded, origin = _fold_map(typed)
    if not folded or len(folded) > MAX_GLUED:
        return None
    memo: dict[int, list[Word] | None] = {}

    def piece(at: int, end: int, kind: str, value: str) -> list[Word]:
        said = typed[origin[at] : origin[end]]
        if kind == "compound":  # `清七对`: 清一色 and 七对
            return [Word("pattern", key, said) for key in _COMPOUNDS[value]]
        return [Word(kind, value, said)]

    def rest(at: int) -> list[Word] | None:
        if at == len(folded):
            return []
        if at in memo:
            return memo[at]
        found: list[Word] | None = None
        options: list[tuple[int, str, str]] = []
        if folded[at] == "@":
            who = _person(typed[origin[at] :], resolve)
            options = [(len(folded), "person", who)] if who is not None else []
        else:
            for spelling in _VOCABULARY_BY_FIRST.get(folded[at], ()):
                if folded.startswith(spelling, at):
                    kind, value = _VOCABULARY[spelling]
                    options.append((at + len(spelling), kind, value))
            options.extend((at + len(c), "compound", c) for c in _COMPOUNDS if folded.startswith(c, at))
            for one in (one for one in _ONE_OF if folded.startswith(one, at)):  # `一个清一色`: the pattern
                start = at + len(one)
                options.extend(
                    (start + len(spelling), *_VOCABULARY[spelling])
                    for spelling in _VOCABULARY_BY_FIRST.get(folded[start : start + 1], ())
                    if folded.startswith(spelling, start) and _VOCABULARY[spelling][0] == "pattern"
                )
            run = _tile_run(folded, at)
            if run is not None:
                options.append((run[1], "tiles", run[0]))
            count = _count_at(folded, at)
            if count is not None:
                options.append((count[0], "count", count[1]))
            if resolve is not None:
                for end in range(len(folded), at, -1):
                    who = resolve(typed[origin[at] : origin[end]])
                    if who is not None:
                        options.append((end, "person", who))
                        break
        for end, kind, value in sorted(options, key=lambda o: -o[0]):
            tail = rest(end)
            if tail is not None:
                found = [*piece(at, end, kind, value), *tail]
                break
        memo[at] = found
        return found

    return rest(0)


#: a pattern named with how many times it counts: `2个暗四归一`, `两个暗四归一`, `暗四归一x2`, `暗四归一×2`,
#: `暗四归一*2`, `暗四归一乘2` (the sign and number may stand apart: `暗四归一 ×2`, `暗四归一 x 2`)
_TIMES = "x×*乘"
_REPEATED = re.compile(rf"(?:(?P<n>[2-9两二三四])个(?P<a>.+)|(?P<b>.+?)[{_TIMES}](?P<m>\d{{1,3}}))")
_MULTIPLIER = re.compile(rf"[{_TIMES}]\d{{1,3}}")
_CHINESE_COUNTS = {"两": 2, "二": 2, "三": 3, "四": 4}


def _repeated_pattern(folded: str) -> tuple[str, int] | None:
    """A pattern key and its count, for a word that names a pattern with a count (else None)."""
    match = _REPEATED.fullmatch(folded)
    if match is None:
        return None
    name, number = (match["a"], match["n"]) if match["a"] else (match["b"], match["m"])
    found = _VOCABULARY.get(name)
    count = _CHINESE_COUNTS.get(number) or int(number)
    if found is None or found[0] != "pattern" or count < 1:
        return None
    return found[1], min(count, MAX_FOURS + 1)  # more than a hand holds is refused by `_add_pattern`, in words


# ------------------------------------------------------------------------------------------------ English names


def english_key(text: str) -> str:
    """How an English name compares: case, hyphens, apostrophes and spacing aside (`Seven-Pairs`, `kong’s`)."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(text)))


#: a word of an English name as typed (`seven`, `self-drawn`, `kong's`)
_ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
#: a tile named in English in two words: a number and its suit (`3 dots`, `three bamboo`), or a wind (`east wind`)
_ENGLISH_TILE = re.compile(
    rf"(?i)(?P<number>[1-9]|{'|'.join(vocab.TILE_NUMERALS_EN)}) (?P<suit>{'|'.join(vocab.TILE_SUITS_EN)})"
    rf"|(?:{'|'.join(vocab.WINDS_EN)}) winds?"
)


def english_tile(typed: str) -> str | None:
    """A tile named in English (`3 dots` → 3p, `Three Bamboo` → 3s, `9 characters` → 9m), or None (`east wind`)."""
    said = _ENGLISH_TILE.fullmatch(typed)
    if said is None or said["number"] is None:
        return None
    number = said["number"].lower()
    return vocab.TILE_NUMERALS_EN.get(number, number) + vocab.TILE_SUITS_EN[said["suit"].lower()]


@functools.cache
def english_names() -> dict[str, tuple[str, str]]:
    """Every English name the bot prints for a 卡五星 word (the patterns' and situations' own, `vocab.ENGLISH_NAMES`),
    by `english_key` -> the (kind, value) the Chinese word it glosses reads as: typed back, it is that word."""
    from ledger.scoring.kawuxing.patterns import PATTERNS

    def meaning(chinese: str) -> tuple[str, str]:
        notation = tile_notation(chinese)
        if notation is not None:
            return "tiles", notation
        return _VOCABULARY.get(chinese) or ("known", _KNOWN_ELSEWHERE[chinese])

    named = {pattern.en: pattern.zh for pattern in PATTERNS} | vocab.ENGLISH_NAMES | vocab.ENGLISH_SAID
    # `win on a kong's replacement` typed after its win word (`win on a kong's replacement self-draw`): the name less
    # the `win` the command word took
    named |= {pattern.en.removeprefix("win "): pattern.zh for pattern in PATTERNS if pattern.en.startswith("win ")}
    return {english_key(english): meaning(chinese) for english, chinese in named.items()}


@functools.cache
def _english_name_words() -> int:
    """How many words the longest English name has (how far `_joined_english` looks ahead)."""
    return max(len(name.split()) for name in english_names())


@functools.cache
def _english_win_names() -> frozenset[str]:
    """The English names a win told by its patterns may start with: the patterns' and situations'."""
    return frozenset(name for name, (kind, _value) in english_names().items() if kind in ("pattern", "situation"))


def _joined_english(typed: list[str]) -> list[str]:
    """The words of an English name typed apart (`seven pairs`, `self drawn`, `red dragon`) as one word, the
    longest name first (`seven pairs with a four`), and a tile named in English (`3 dots`, `east wind`)."""
    names, most = english_names(), _english_name_words()
    out: list[str] = []
    index = 0
    while index < len(typed):
        end = index + 1
        if index + 1 < len(typed) and _ENGLISH_TILE.fullmatch(f"{typed[index]} {typed[index + 1]}"):
            end = index + 2
        elif _ENGLISH_WORD.fullmatch(typed[index]):  # a Chinese word, a tile or a mention starts no English name
            for last in range(min(len(typed), index + most), index + 1, -1):
                latin = all(_ENGLISH_WORD.fullmatch(word) for word in typed[index + 1 : last])
                if latin and english_key(" ".join(typed[index:last])) in names:
                    end = last
                    break
        out.append(" ".join(typed[index:end]))
        index = end
    return out


def _english_win_start(head: str) -> bool:
    """Whether a line starts with the English name of a pattern or situation (`seven pairs zimo`)."""
    words = english_key(head.translate(_SPACED).split("@", 1)[0]).split()
    names = _english_win_names()
    return any(" ".join(words[:count]) in names for count in range(1, min(len(words), _english_name_words()) + 1))


#: `tom paid me 4`, `@tom sent me $4` (`vocab.PAID_ME_EN`): the payer named first, then the amount
_PAID_ME = re.compile(
    rf"(?i)(?P<who>@?[^\s@]+)\s+(?:{'|'.join(sorted(vocab.PAID_ME_EN, key=len, reverse=True))})\s+(?P<amount>\S.*)"
)


def _paid_me(text: str, book: CommandBook[C_co], game: str | None) -> tuple[C_co, str, str] | None:
    """`tom paid me 4`, `@tom sent me 4 bucks`: told by the payee, the payer first — `received tom 4`. A line read so
    does not start with its word: it acts only when it reads cleanly (`tom paid me a visit` stays chat)."""
    said = _PAID_ME.fullmatch(text.strip(_SPACES))
    if said is None or asks(text):
        return None
    command = book.lookup(vocab.PAID_ME_READ_AS, game)
    return None if command is None else (command, vocab.PAID_ME_READ_AS, f"{said['who']} {said['amount']}")


def english_payment(words: list[str]) -> list[str]:
    """A payment's words as English speakers add to them, read as the words a payment reads: `received 4 from @tom`
    is `@tom 4` (`vocab.PAYMENT_CONNECTORS_EN`, the person then first), `paid @ben $4` and `paid @ben 4 bucks` are
    `@ben 4` (`vocab.MONEY_SIGNS_EN`, `vocab.MONEY_WORDS_EN`: the group's money). Anything else as typed."""
    out: list[str] = []
    joined = False
    for word in words:
        folded = fold(word)
        if folded in vocab.PAYMENT_CONNECTORS_EN:
            joined = True
            continue
        if folded in vocab.MONEY_WORDS_EN and out and out[-1][:1].isdigit():
            continue  # `4 bucks`
        unit = next((u for u in vocab.MONEY_WORDS_EN if folded.endswith(u) and folded[: -len(u)].isdigit()), "")
        sign = next(
            (s for s in vocab.MONEY_SIGNS_EN if folded.startswith(s) and folded[len(s) : len(s) + 1].isdigit()), ""
        )
        out.append(word[len(sign) : len(word) - len(unit)])
    if joined and len(out) == 2 and out[0][:1].isdigit() and not out[1][:1].isdigit():
        out.reverse()  # `received 4 from @tom`
    return out


#: a discard told by its discarder's name in the possessive (`on tom's discard`, `from @tom’s discard`)
_DISCARD_OF = re.compile(
    rf"(?i)(?<!\w)(?:(?:{'|'.join(vocab.ENGLISH_DISCARD_OF[0])})\s+)?(?P<who>@?[^\s'’‘]+)(?:'s|’s|‘s|'|’)\s+"
    rf"(?:{'|'.join(sorted(vocab.ENGLISH_DISCARD_OF[1], key=len, reverse=True))})(?!\w)"
)
#: what English speakers say in more words (`7 pairs`, `on a discard from`): `vocab.ENGLISH_PHRASES`, longest
#: first, spaced any way
_PHRASES = re.compile(
    r"(?i)(?<![\w@])(?:"
    + "|".join(r"\s*".join(map(re.escape, k.split())) for k in sorted(vocab.ENGLISH_PHRASES, key=len, reverse=True))
    + r")(?!\w)"
)
_PHRASES_BY_KEY = {"".join(k.split()): v for k, v in vocab.ENGLISH_PHRASES.items()}
_LATIN = re.compile(r"[A-Za-z]")


def english_said(text: str) -> str:
    """A record's arguments with what English speakers say in more words read as the words the bot reads: `on
    tom's discard` (or `tom's tile`) as `from tom`, `7 pairs` as `seven pairs` (`vocab.ENGLISH_PHRASES`); anything
    else as typed."""
    if not _LATIN.search(text):
        return text
    text = _DISCARD_OF.sub(lambda m: f"from {m['who']}", text)
    return _PHRASES.sub(lambda m: _PHRASES_BY_KEY["".join(m[0].lower().split())], text)


def read(text: str, resolve: Resolve | None = None) -> list[Word]:
    """The words of a record's arguments: vocabulary words (folded), tiles (as notation), seated people (by the
    resolver), words typed without spaces split, and whatever is left as `unknown`; English said in more words
    (`on tom's discard`, `7 pairs`) read as the words it means, and English filler (`with`, `and`) as nothing."""
    out: list[Word] = []
    typed_words = tokens(english_said(text))
    if len(typed_words) > MAX_WORDS:
        raise GrammarError("record_too_long", suggest=False, most=MAX_WORDS)
    for typed in _joined_english(_joined_counts(_joined_patterns(typed_words))):
        folded = fold(typed)
        count = _count_at(folded, 0)
        if typed.startswith("@"):
            out.extend(_mention(typed, resolve))
        elif count is not None and count[0] == len(folded):
            out.append(Word("count", count[1], typed))
        elif folded in _VOCABULARY:
            out.append(Word(*_VOCABULARY[folded], typed))
        elif folded in _COMPOUNDS:  # `清七对`: 清一色 and 七对
            out.extend(Word("pattern", key, typed) for key in _COMPOUNDS[folded])
        elif _ENGLISH_WORD.fullmatch(typed.split()[0]) and english_key(typed) in english_names():
            out.append(Word(*english_names()[english_key(typed)], typed))
        elif (repeated := _repeated_pattern(folded)) is not None:
            out.extend(Word("pattern", repeated[0], typed) for _ in range(repeated[1]))
        elif (notation := tile_notation(typed) or english_tile(typed)) is not None:
            out.append(Word("tiles", notation, typed))
        elif (who := _person(typed, resolve)) is not None:
            out.append(Word("person", who, typed))
        elif folded in vocab.ENGLISH_FILLER_WORDS:
            continue  # `seven pairs and one suit`, `I won with seven pairs`
        elif folded in _KNOWN_ELSEWHERE:
            out.append(Word("known", _KNOWN_ELSEWHERE[folded], typed))
        elif (robbed := _robbed_kong(typed, resolve)) is not None:
            out.extend(robbed)
        else:
            out.extend(_segment(typed, resolve) or [Word("unknown", folded, typed)])
    return _discarder_led(out)


_ROBBED_KONG = re.compile(
    rf"(?:{'|'.join(vocab.ROBBED_KONG_SAID[0])})(?P<who>.+?)(?:{'|'.join(vocab.ROBBED_KONG_SAID[1])})"
)


def _robbed_kong(typed: str, resolve: Resolve | None) -> list[Word] | None:
    """`抢的老王的杠` (`抢了老王的杠`, `抢老王的杠`): a seated konger's kong robbed, read as `抢杠 老王`."""
    found = _ROBBED_KONG.fullmatch(typed)
    who = _person(found["who"], resolve) if found is not None else None
    if found is None or who is None:
        return None
    return [Word("method", "rob_kong", typed[: found.start("who")]), Word("person", who, found["who"])]


def _discarder_led(items: list[Word]) -> list[Word]:
    """`炮是老王放的`, `是老王放的炮`: a lead (`vocab.DISCARDER_LEADS`), a seated person, then 放的/点的 (any word of
    the discard) is 点 老王, one method; a lead said anywhere else is a word not understood."""
    out: list[Word] = []
    for word in items:
        led = len(out) >= 2 and out[-2].kind == _DISCARDER_LEAD and out[-1].kind == "person"
        if led and word.kind == "method" and word.value == "discard":
            out[-2] = Word("method", "discard", out[-2].typed)
        else:
            out.append(word)
    return [Word("unknown", fold(w.typed), w.typed) if w.kind == _DISCARDER_LEAD else w for w in out]


def _mention(typed: str, resolve: Resolve | None) -> list[Word]:
    """`@小李`, or `@laowang自摸` split where the vocabulary starts when the whole names nobody (the resolver's
    refusal of the whole stands when no split names anyone either)."""
    if resolve is None:
        return [Word("unknown", typed, typed)]
    refused: Exception | None = None
    try:
        who = resolve(typed)
    except Exception as err:
        who, refused = None, err
    if who is not None:
        return [Word("person", who, typed)]
    for cut in range(len(typed) - 1, 1, -1):
        tail = _segment(typed[cut:], None)
        if tail is None or tail[0].kind == "person":
            continue
        try:
            head = resolve(typed[:cut])
        except Exception:
            continue
        if head is not None:
            return [Word("person", head, typed[:cut]), *tail]
    if refused is not None:
        raise refused
    return [Word("unknown", typed, typed)]


def closest_reading(reading: Iterable[Word], *, drop: bool = False) -> list[Word] | None:
    """The nearest record the words could mean: each unknown word replaced by the vocabulary word it most looks
    like, a typo's length apart (`清一涩` → 清一色), or left out (`荒庄 哈哈` → 荒庄; `left_out` names them); with
    `drop`, every unknown word left out (`暗杠 三条 都没用` → 暗杠 三条, when 都没听 would not fit). None when every
    word was understood, or when the reading would lose a word the vocabulary knows (`亮倒哈`, `清一涩自摸`): a guess
    that drops one could book other money than meant. A tile said with a particle is kept (`三条了` → 三条)."""
    words_ = list(reading)
    if not any(w.kind == "unknown" for w in words_):
        return None
    out: list[Word] = []
    for word in words_:
        guessed = [word] if word.kind != "unknown" else _guess(word, drop=drop)
        if guessed is None:
            return None
        out.extend(guessed)
    return out


def left_out(reading: Iterable[Word], *, drop: bool = False) -> list[str]:
    """The words `closest_reading` leaves out, as typed (`荒庄 哈哈` → 哈哈, `胡 sevn pairs 自摸` → sevn, pairs):
    the question about the guess names them, so that a tap never drops a word unseen."""
    return [word.typed for word in reading if word.kind == "unknown" and _guess(word, drop=drop) == []]


def _guess(word: Word, *, drop: bool = False) -> list[Word] | None:
    """What the closest reading puts for an unknown word: the tile said with a particle, or the vocabulary word it
    most looks like (nothing with `drop`); nothing to leave it out; None when that would lose a word the vocabulary
    knows, or one that names something: a tile (`east wind`), a person (`@zed`), a number (an amount, or a tile's:
    `暗杠 3`)."""
    stem = word.typed.rstrip("".join(vocab.PARTICLES))
    notation = tile_notation(stem) if stem != word.typed else None
    if notation is not None:  # `三条了`, `红中啊`: the tile, said with a particle, is kept
        return [Word("tiles", notation, stem)]
    if is_tile_attempt(word.typed) or word.typed.startswith(("@", "＠")) or _NUMBER.search(word.value):
        return None
    close = difflib.get_close_matches(word.value, _SUGGESTIBLE, n=1, cutoff=0.5)
    match = next((m for m in close if abs(len(m) - len(word.value)) <= 1), None)
    kept = {_VOCABULARY[match]} if match is not None else set()
    if not _known_inside(word.value) <= kept or (set(word.value) - set(match or "")) & vocab.PATTERN_MARKS:
        return None  # `清碰`, `清一条龙`: a pattern's name never dropped, nor read as a lesser one (`清七对` → 七对)
    return [Word(*_VOCABULARY[match], match)] if match is not None and not drop else []


def _known_inside(text: str) -> set[tuple[str, str]]:
    """What the spellings of two characters or more the vocabulary knows inside `text` mean."""
    return {meaning for spelling, meaning in _KNOWN_SPELLINGS.items() if spelling in text}


#: a digit in a word (`3`, `5块`): an amount or a tile's number, never dropped nor guessed by a suggestion
_NUMBER = re.compile(r"[0-9]")
#: what an unknown word may be corrected to: multi-character Chinese spellings (`清一涩` → 清一色)
_SUGGESTIBLE = [
    s
    for s, (kind, _v) in _VOCABULARY.items()
    if len(s) >= 2 and is_cjk(s[0]) and kind != "kong_kind" and s not in vocab.NOT_SUGGESTED
]


def render(reading: Iterable[Word], lang: str = "zh") -> str:
    """Words back into a line the grammar reads the same way: `清一色 自摸 点 @小李`. In English the sender is `me`
    and a discard `from` (`我点炮了 @b` asked back as `胡 @b 清一色 from me`), words an English group types too."""
    return " ".join(
        _IN_ENGLISH.get((word.kind, word.value if word.kind != "person" else word.typed), word.canonical())
        if lang == "en"
        else word.canonical()
        for word in reading
    )


#: the words a reading shows in English, by (kind, value) — a person by what was typed: only the sender
_IN_ENGLISH = {("method", "discard"): "from", **{("person", me): "me" for me in ("我", "me")}}


@functools.cache
def _english_shown() -> dict[str, str]:
    """Each word a record's line may hold -> the English name the replies give it (`清一色` → `one suit`, `自摸` →
    `self-draw`, `胡` → `win`), which `english_names` reads back as that word."""
    from ledger.scoring.kawuxing.patterns import PATTERNS

    named = {pattern.zh: pattern.en.removeprefix("win ") for pattern in PATTERNS}  # after the line's own `win`
    named |= {MELD: KIND for MELD, KIND in zip(("暗杠", "蓄杠", "直杠"), vocab.KONG_NAMES_EN.values(), strict=True)}
    return named | {"胡": "win", "杠": "kong", "自摸": "self-draw", "点": "from", "点炮": "from", "屁胡": "plain win"}


def english_line(line: str) -> str:
    """A line the bot shows an English group to send or tap (「是不是」's `胡 屁胡 自摸`) in the English it reads back
    the same way (`win plain win self-draw`): each word with an English name by that name, anything else (tiles,
    people, English already) as it is."""
    shown = _english_shown()
    return " ".join(shown.get(word, word) for word in line.split())


# ------------------------------------------------------------------------------------------------ records

#: situational patterns and the method each implies
SITUATION_METHOD = {
    "gangshangkaihua": "self_draw",
    "haidilao": "self_draw",
    "gangshangpao": "discard",
    "haidipao": "discard",
}


def implied(word: str) -> str:
    """What a command word says beyond its command (`自摸` → `自摸`, `点杠` → `点`), as argument text."""
    return " ".join(vocab.WORD_IMPLIES.get(word, ()))


@dataclass
class WinSpec:
    """One winner's part of a win message, before it becomes a scoring `hu` event."""

    winner: str
    method: str | None = None
    discarder: str | None = None
    tiles: list[str] = field(default_factory=list)  # tile runs in tenhou notation, in the order typed
    melds: list[dict[str, str]] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    pihu: bool = False
    situations: list[str] = field(default_factory=list)
    #: where the rules ask for them: `kan`, `qia`, `ba` of a hand named by patterns, and the 买马 tile
    counts: dict[str, int] = field(default_factory=dict)
    ma: str | None = None

    def has_content(self) -> bool:
        told = self.tiles or self.melds or self.patterns or self.pihu or self.situations or self.method
        return bool(told or self.counts or self.ma)

    def names_hand(self) -> bool:
        """Whether the line says what the hand was: tiles, melds, a pattern or situation, or 屁胡 in words."""
        return bool(self.tiles or self.melds or self.patterns or self.pihu or self.situations)


Minggang = Callable[[], str]


def _default_minggang() -> str:
    from ledger.chat_options import MINGGANG_DEFAULT

    return MINGGANG_DEFAULT


def _unknown(word: Word, reading: list[Word]) -> GrammarError:
    """A word the record cannot use: not understood at all, or a known word that has no place in it."""
    if word.kind == "known" and word.value == "count":
        return GrammarError("count_missing", suggest=False)  # `坎` without how many
    if word.kind == "unknown" and is_tile_attempt(word.typed):
        return _not_a_tile(word)  # `暗杠 东风`, `胡 … 1z`
    key = "unknown_word" if word.kind == "unknown" else "word_not_here"
    return GrammarError(key, word=word.typed, reading=tuple(reading))


def _no_discarder(keyword: Word, after: Sequence[Word]) -> GrammarError:
    """`点` with nobody after it, or with a word that names nobody seated (`点 王哥`: a nickname or a member not
    at the table, not a seat's name): that word is quoted back, so the player sees what was not understood."""
    if after and after[0].kind == "unknown" and not set(after[0].typed) <= vocab.PARTICLES:
        return GrammarError("discarder_not_seated", name=after[0].typed, word=keyword.typed, suggest=False)
    return GrammarError("discarder_missing", word=keyword.typed)


def _discarder_first(items: list[Word]) -> list[Word]:
    """`@乙 点炮` (a name, then 点炮 with nobody after it) means 点 @乙: put the name after the keyword."""
    out = list(items)
    for index in range(1, len(out)):
        word, before = out[index], out[index - 1]
        nobody_after = index + 1 == len(out) or out[index + 1].kind != "person"
        if word.kind == "method" and word.value == "discard" and before.kind == "person" and nobody_after:
            out[index - 1], out[index] = word, before
    return out


def _winner_first(items: list[Word]) -> list[Word]:
    """`清一色 自摸 @甲` (recording for 甲, the mention last) means `@甲 清一色 自摸`: the one person named who is no
    discarder, followed only by how the hand was won, is the winner of what came before, not a second winner."""
    takes_person = {"discard", "rob_kong"}
    named = [
        index
        for index, word in enumerate(items)
        if word.kind == "person"
        and not (index and items[index - 1].kind == "method" and items[index - 1].value in takes_person)
    ]
    if len(named) != 1 or named[0] == 0:
        return items
    at = named[0]
    if any(word.kind not in {"method", "person", "double"} for word in items[at + 1 :]):
        return items
    return [items[at], *items[:at], *items[at + 1 :]]


def parse_win(args: str, me: str | None, resolve: Resolve, minggang: Minggang = _default_minggang) -> list[WinSpec]:
    """`123p46p789s22s333s 5p 点 @b`, `@a 清一色 七对 自摸`, `清一色 自摸 @a`, `@a 卡五星 @b 七对 点 @c` (一炮双响) …"""
    items = _winner_first(_discarder_first(read(args, resolve)))
    declared = next((word for word in items if word.kind == "known" and word.value == "liangdao"), None)
    if declared is not None:  # its own record, booked before the win it doubles: never read into or dropped from one
        raise GrammarError("liangdao_in_win", word=declared.typed, suggest=False)
    specs: list[WinSpec] = []
    current: WinSpec | None = None
    discarder: str | None = None
    dealt_in = "discard"  # how the discarder was told: a winner told without a way won the same way (抢杠 too)
    index = 0

    def spec() -> WinSpec:
        nonlocal current
        if current is None:
            if me is None:
                raise GrammarError("winner_missing")
            current = WinSpec(me)
            specs.append(current)
        return current

    while index < len(items):
        word = items[index]
        if word.kind == "double":
            pass
        elif word.kind == "method":
            _set_method(spec(), word.value, word.typed)
            if word.value != "self_draw":
                if index + 1 >= len(items) or items[index + 1].kind != "person":
                    raise _no_discarder(word, items[index + 1 : index + 2])
                index += 1
                who = items[index].value
                if discarder is not None and discarder != who:
                    raise GrammarError("two_discarders")
                discarder, dealt_in = who, word.value
        elif word.kind == "pattern":
            _add_pattern(spec().patterns, word)
        elif word.kind == "situation":
            target = spec()
            if word.value not in target.situations:
                target.situations.append(word.value)
            if target.method is None:
                target.method = SITUATION_METHOD[word.value]
        elif word.kind == "pihu":
            spec().pihu = True
        elif word.kind == "meld":
            if index + 1 >= len(items) or items[index + 1].kind != "tiles":
                raise GrammarError("meld_tile_missing", word=word.typed)
            index += 1
            kind = minggang() if word.value == "minggang" else word.value
            spec().melds.append({"kind": kind, "tile": items[index].value})
        elif word.kind == "tiles":
            spec().tiles.append(word.value)
        elif word.kind == "count":
            _add_count(spec().counts, word)
        elif word.kind == "ma":
            index += 1
            spec().ma = _ma_tile(word, items[index : index + 2])
        elif word.kind == "person":
            who = word.value
            if current is None or (current.winner != who and current.has_content()):
                current = WinSpec(who)  # the first winner, or the second of a 一炮双响
                specs.append(current)
            elif current.winner != who:  # `@乙 @丙 清一色 自摸`: which one won?
                raise GrammarError("win_two_players", first=current.winner, word=word.typed, suggest=False)
        else:
            raise _unknown(word, items)
        index += 1
    if not specs:
        spec()
    for item in specs:
        if item.method is None and discarder is not None:
            item.method = dealt_in
        if item.method in {"discard", "rob_kong"}:
            item.discarder = discarder
    return specs


#: the word a 一炮双响 told with its winners' names is read with (`阿杰 小李 都胡了 老王点的`): one of the 胡 command's
DOUBLE_WIN = vocab.DOUBLE_WIN_WORDS[0]
#: the GrammarError of a line that does not read as a 一炮双响 at all: chat (`一炮双响 太爽了`), never answered
NOT_A_DOUBLE_WIN = "double_win_unread"
_BOTH_WON_LONGEST = sorted(vocab.BOTH_WON_WORDS, key=len, reverse=True)


@dataclass
class _DoubleWin:
    """A 一炮双响's words sorted: each winner with the words of their own hand, the discarder(s), how it was won,
    and hand words that belong to neither winner for sure (`阿杰 小李 七对`: whose 七对?)."""

    winners: list[tuple[Word, list[Word]]]
    discarders: list[Word]
    robbed: bool
    loose: list[Word]
    #: a way of dealing in between two names (`老王 点炮 阿杰`): which one dealt in?
    unclear: tuple[Word, Word, Word] | None = None


def _winner_names(typed: str, resolve: Resolve) -> list[str] | None:
    """`阿杰`, `阿杰和小李` (`vocab.WINNERS_JOINED` between two names): the names typed, or None."""
    if _person(typed, resolve) is not None:
        return [typed]
    for join in vocab.WINNERS_JOINED:
        left, said, right = typed.partition(join)
        if said and left and right and _person(left, resolve) and _person(right, resolve):
            return [left, right]
    return None


def _double_win_words(text: str, resolve: Resolve) -> tuple[list[Word], bool] | None:
    """The words of a 一炮双响 told with names: the names split from a join between them (`阿杰和小李`) and from
    what says they won glued after them (`小李都胡了`), a name glued before 点炮/点的 told as `点 老王` (`老王点的`).
    What says they won (胡, 都胡了) stays as a `_WON` word, so nothing reads across it (`阿杰 小李 都胡了 点炮 老王`).
    With whether a word said they won (胡, 都胡了, 一炮双响); None when a word is no win's."""
    runs: list[list[str]] = [[]]  # the pieces read together, between the words that say they won
    said = False
    for typed in tokens(text):
        folded = fold(typed)
        if folded in vocab.FIRST_PERSON_WIN_WORDS:
            return None  # `@小李 我胡了 清一色`: the sender's own win, never a second winner's
        if folded in vocab.BOTH_WON_WORDS:
            said = True
            runs.append([])
            continue
        if folded in vocab.WINNERS_JOINED:
            continue
        won = next((w for w in _BOTH_WON_LONGEST if folded.endswith(w) and len(folded) > len(w)), "")
        names = _winner_names(typed[: len(typed) - len(won)], resolve) if len(folded) == len(typed) else None
        dealt = _DEALT_IN_GLUED.fullmatch(folded) if len(folded) == len(typed) else None
        if names is not None:
            said = said or bool(won)
            runs[-1] += names
            if won:
                runs.append([])
        elif typed.startswith("@") and folded[-1:] in vocab.WINNERS_JOINED:
            runs[-1].append(typed[:-1])  # `@ajie和 @xiaoli`
        elif dealt and (_person(dealt["who"], resolve) is not None or _segment(typed, resolve) is None):
            runs[-1] += [dealt["way"], typed[: dealt.start("way")]]  # `老王点的`, `小张点的`: 点的 老王
        else:
            runs[-1].append(typed)
    words: list[Word] = []
    try:
        for run in runs:
            words += [*read(" ".join(run), resolve), Word(_WON, "", "")]
    except GrammarError:
        return None
    for index, word in enumerate(words):
        if word.kind == "unknown" and _where_discarder(words, index):
            words[index] = Word(_STRANGER, word.typed, word.typed)  # `点 小张`: named where the discarder goes
    if any(word.kind not in _WIN_WORD_KINDS | {"person", _STRANGER, _WON} for word in words):
        return None
    return words, said or any(word.kind == "double" for word in words)


#: what stands where players said they won (胡, 都胡了), between the words read before and after it
_WON = "won"
#: a word of a 一炮双响 named where its discarder goes that is nobody at the table (`点 小张`, `小张点的`): answered
#: with who is seated, never read as chat once two players were said to have won
_STRANGER = "stranger"
_DEALT_IN_GLUED = re.compile(
    rf"(?P<who>.+?)(?P<way>{'|'.join(s for s in vocab.METHODS['discard'] if len(s) >= 2 and is_cjk(s[0]))})"
)


def _where_discarder(words: Sequence[Word], index: int) -> bool:
    """Whether the word at `index` stands where a 一炮双响's discarder is told: right after 点/抢杠, or right before
    点炮/点的 with nobody after it."""
    before = words[index - 1] if index else None
    after = words[index + 1] if index + 1 < len(words) else None
    if before is not None and before.kind == "method":
        return True
    if after is not None and after.kind == "method" and after.value == "discard":
        return index + 2 >= len(words) or words[index + 2].kind not in ("person", "unknown")
    return False


def _double_win_parts(words: Sequence[Word]) -> _DoubleWin | None:
    """Who won, who dealt in and whose hand each word tells, or None unless exactly two players won (on a discard:
    a 自摸 is no 一炮双响). A person right after 点/抢杠, right before 点炮/点的 with nobody after it (`老王点的`), or
    named first right before 一炮双响 (`老王 一炮双响 阿杰 小李`) dealt in; the others won. A hand word belongs to the
    winner named last before it, unless the two winners were named together (`阿杰 小李 七对`: loose); a winner
    named again takes the words after it."""
    persons = [index for index, word in enumerate(words) if word.kind == "person"]

    def dealt_in(index: int) -> bool:
        after = words[index + 1] if index + 1 < len(words) else None
        first_before_double = after is not None and after.kind == "double" and index == persons[0]
        return words[index].kind == _STRANGER or _where_discarder(words, index) or first_before_double

    named = ("person", _STRANGER)
    parts = _DoubleWin([], [], False, [])
    for before, word, after in zip(words, words[1:], words[2:], strict=False):
        if word.kind == "method" and before.kind in named and after.kind in named:
            parts.unclear = (word, before, after)  # `老王 点炮 阿杰 小李`: 老王 or 阿杰? Never guessed
    owner: list[Word] | None = None
    together = False  # the two winners named one right after the other: what follows is told of both
    for index, word in enumerate(words):
        if word.kind in ("person", _STRANGER) and dealt_in(index):
            parts.discarders.append(word)
            owner = None
        elif word.kind == "person":
            again = next((hand for named, hand in parts.winners if named.value == word.value), None)
            if again is not None:  # `阿杰和小李都胡了 阿杰 卡五星 小李 七对`: each named again with their hand
                owner, together = again, False
                continue
            together = owner is not None and not owner and words[index - 1].kind == "person"
            parts.winners.append((word, []))
            owner = parts.winners[-1][1]
        elif word.kind == "method":
            if word.value == "self_draw":
                return None
            parts.robbed = parts.robbed or word.value == "rob_kong"
        elif word.kind not in ("double", _WON):
            (parts.loose if owner is None or together else owner).append(word)
    return parts if len(parts.winners) == 2 else None


def _double_win_named(
    text: str, book: CommandBook[C_co], game: str | None, seats: Iterable[str]
) -> tuple[C_co, str, str] | None:
    """`阿杰 小李 都胡了 老王点的`, `阿杰和小李 胡 老王 点炮`, `老王 一炮双响 阿杰 小李`, `阿杰 卡五星 小李 七对 点
    老王`: a 一炮双响 told with the seats' names as the table lists them (or `我`, or @mentions), read as `DOUBLE_WIN`
    with the line as typed (`parse_double_win` reads it). Only when two players won: said so (胡, 都胡了, 一炮双响), or
    each with their own hand and the discarder named; anything else is chat."""
    folded, seats = fold(text), tuple(seats)
    named = sum(name_key(seat) in name_key(text) for seat in seats) + folded.count("我") + folded.count("@")
    if game not in (None, "kawuxing") or named < 2 or asks(text):
        return None
    keys = {name_key(seat): seat for seat in seats}

    def resolve(typed: str) -> str | None:
        if typed.startswith("@"):
            return typed if len(typed) > 1 else None
        return "我" if typed == "我" else keys.get(name_key(typed))

    found = _double_win_words(text, resolve)
    parts = _double_win_parts(found[0]) if found is not None else None
    if found is None or parts is None:
        return None
    told = bool(parts.discarders) and not parts.loose and all(hand for _, hand in parts.winners)
    command = book.lookup(DOUBLE_WIN, game)
    return None if command is None or not (found[1] or told) else (command, DOUBLE_WIN, _rest(text))


def parse_double_win(
    args: str, me: str | None, resolve: Resolve, minggang: Minggang = _default_minggang
) -> list[WinSpec]:
    """A 一炮双响 told any way `_double_win_parts` reads (`阿杰 小李 都胡了 老王点的` …), read as its plain line
    `阿杰 卡五星 小李 七对 点 老王`. What it leaves open is asked by name, never guessed: who dealt in, whose hand a
    word tells (`阿杰 小李 七对`), each winner's hand when neither was told. `NOT_A_DOUBLE_WIN` when no two players
    won in it."""
    found = _double_win_words(args, resolve)
    parts = _double_win_parts(found[0]) if found is not None else None
    if parts is None:
        raise GrammarError(NOT_A_DOUBLE_WIN, suggest=False)
    (first, first_hand), (second, second_hand) = parts.winners
    first_name, second_name = first.value, second.value
    if parts.unclear is not None:
        dealt, before, after = parts.unclear
        raise GrammarError(
            "double_win_which_discarder", suggest=False, word=dealt.typed, first=before.typed, second=after.typed
        )
    stranger = next((word for word in parts.discarders if word.kind == _STRANGER), None)
    if stranger is not None:
        raise GrammarError("discarder_not_seated", name=stranger.typed, word=vocab.METHODS["discard"][0], suggest=False)
    if len({word.value for word in parts.discarders}) > 1:
        raise GrammarError("two_discarders", suggest=False)
    if not parts.discarders:
        raise GrammarError("double_win_discarder_missing", suggest=False, first=first_name, second=second_name)
    discarder = parts.discarders[0].value
    if parts.loose:
        word = parts.loose[0]
        other = vocab.PATTERNS["qidui" if word.value == "kawuxing" else "kawuxing"][0]  # the example's other hand
        raise GrammarError(
            "double_win_whose",
            suggest=False,
            word=word.typed,
            other=other,
            discarder=discarder,
            first=first_name,
            second=second_name,
        )
    if not first_hand and not second_hand:
        raise GrammarError(
            "double_win_hands_missing", suggest=False, discarder=discarder, first=first_name, second=second_name
        )
    way = vocab.METHODS["rob_kong" if parts.robbed else "discard"][0]
    said = [word for winner, hand in parts.winners for word in (winner.value, *(w.canonical() for w in hand))]
    return parse_win(" ".join((*said, way, discarder)), me, resolve, minggang)


#: most four-of-a-kinds one hand holds (each takes four of its 14 tiles)
MAX_FOURS = 3


def _add_pattern(patterns: list[str], word: Word) -> None:
    """A pattern named once more: only a 四归一 counts again (the scoring core's `REPEATABLE`); another is
    refused as the core would, in words, rather than silently counted once."""
    from ledger.scoring.kawuxing.patterns import REPEATABLE

    if word.value in patterns and word.value not in REPEATABLE:
        raise GrammarError("pattern_once", word=word.canonical(), suggest=False)
    if word.value in REPEATABLE and sum(p in REPEATABLE for p in patterns) >= MAX_FOURS:
        raise GrammarError("fours_too_many", most=MAX_FOURS, suggest=False)
    patterns.append(word.value)


def _add_count(counts: dict[str, int], word: Word) -> None:
    from ledger.scoring.kawuxing.settle import MAX_COUNTS

    key, number = word.value.split("=")
    if int(number) > MAX_COUNTS[key]:  # the scoring core's bound, said before anything is asked
        raise GrammarError("count_too_big", word=word.typed, most=MAX_COUNTS[key], suggest=False)
    if counts.get(key, int(number)) != int(number):
        raise GrammarError("two_counts", word=word.typed, suggest=False)
    counts[key] = int(number)


#: a word meant as one tile that is none of 卡五星's (`1z`, `东风`, `8z`, `0p`): a wind (in English too: `east wind`,
#: `north`), or digits and a suit mark
_WIND = re.compile(rf"[1-4]z|[东南西北][风]?|(?:{'|'.join(vocab.WINDS_EN)})(?: winds?)?|winds?")
_TILE_LIKE = re.compile(r"[0-9零〇一二三四五六七八九]+[a-z筒饼条索万]")
#: English words that name a tile or its kind without being one (`dots`, `red`, `dragon`, `flower`)
_TILE_WORDS_EN = frozenset({*vocab.NO_TILE_EN, *vocab.TILE_SUITS_EN, *vocab.DRAGON_NAMES_EN.values(), "dragon"})


def is_tile_attempt(typed: str) -> bool:
    """Whether a word not read as a tile was meant as one (a wind, `8z`, `0p`, `east wind`, `flower`): refused,
    never taken as chat nor left out of a guess."""
    folded = fold(typed)
    return bool(_WIND.fullmatch(folded) or _TILE_LIKE.fullmatch(folded) or folded in _TILE_WORDS_EN)


def _not_a_tile(word: Word, what: str = "tile") -> GrammarError:
    """A word meant as a tile that no 卡五星 set holds (a wind, `8z`), with why: in a record, or as the 马 tile
    (`what` = `ma`, whose texts say what a 马 tile is). Never a guess that drops it (`暗杠 东风` is no 暗杠)."""
    key = f"{what}_wind" if _WIND.fullmatch(fold(word.typed)) else f"{what}_not_a_tile"
    return GrammarError(key, word=word.typed, suggest=False)


def _ma_tile(keyword: Word, after: Sequence[Word]) -> str:
    """The 马 tile that follows `买马` in a win's line (`after`: the next two words): one tile, else why not."""
    if after and after[0].kind == "unknown" and is_tile_attempt(after[0].typed):
        raise _not_a_tile(after[0], "ma")
    if not after or after[0].kind != "tiles":
        raise GrammarError("ma_tile_missing", word=keyword.typed)
    if len(after) > 1 and after[1].kind == "tiles" and len(after[1].value) == 2:  # `买马 3s 7p`: two turned
        raise GrammarError("ma_one_tile", word=f"{after[0].typed} {after[1].typed}", suggest=False)
    return _one_tile(after[0])


def _one_tile(word: Word) -> str:
    """The 马 tile: one tile, never a run (`买马 7s`)."""
    if len(word.value) != 2:
        raise GrammarError("ma_one_tile", word=word.typed, suggest=False)
    return word.value


def _set_method(spec: WinSpec, method: str, word: str) -> None:
    if spec.method is not None and spec.method != method:
        raise GrammarError("two_methods", word=word)
    spec.method = method


@dataclass
class KongSpec:
    player: str
    kind: str | None = None
    discarder: str | None = None
    tile: str | None = None
    chained: bool = False


_KONG_WORDS = frozenset(vocab.COMMAND_WORDS["gang"])
_KONG_TILE_COUNT = re.compile(rf"(?<!\S)(?:{'|'.join(vocab.KONG_TILE_COUNTS)})")


def kong_tile_uncounted(args: str) -> str:
    """A kong's words without the count said before its tile (`三个八筒` → `八筒`, `4个红中` → `红中`:
    `vocab.KONG_TILE_COUNTS`); a count before anything but one tile stays, to be refused as unread."""

    def tile_follows(count: re.Match[str]) -> str:
        run = _tile_run(fold(args), count.end())
        return "" if run is not None and len(run[0]) == 2 else count[0]

    return _KONG_TILE_COUNT.sub(tile_follows, args)


def parse_kong(
    word: str, args: str, me: str | None, resolve: Resolve, minggang: Minggang = _default_minggang
) -> KongSpec:
    """`杠 暗 3s`, `暗杠`, `直杠 9p 点 @b`, `点杠 @b`, `杠 @c 直 点 @b 杠上杠`; the command word may carry the kind.
    Every word counts once: a second tile or a second player is refused, never silently dropped."""

    def kind_of(found: Word) -> str:
        return minggang() if found.value == "minggang" else found.value

    named = _VOCABULARY.get(fold(word))
    kind = kind_of(Word(named[0], named[1], word)) if named and named[0] == "meld" else None
    items = read(implied(word), None) + read(kong_tile_uncounted(args), resolve)
    items = _discarder_first(items)  # `直杠 9筒 老王点的`
    player: str | None = None
    discarder: str | None = None
    awaiting: Word | None = None  # `点` read, the discarder's name still to come
    tile: Word | None = None
    chained = False
    for item in items:
        if (item.kind == "meld" and item.value != "peng") or item.kind == "kong_kind":
            if kind is not None and kind != kind_of(item):
                raise GrammarError("two_kong_kinds", word=item.typed)
            kind = kind_of(item)
        elif item.kind == "method" and item.value == "discard":
            awaiting = item
            kind = kind or "zhigang"
        elif item.kind == "chain":
            chained = True
        elif item.kind == "tiles":
            if tile is not None:
                raise GrammarError("kong_two_tiles", first=tile.typed, word=item.typed, suggest=False)
            if len(item.value) > 2:
                raise GrammarError("kong_one_tile", word=item.typed, suggest=False)
            tile = item
        elif item.kind == "person":
            if awaiting is not None:
                if discarder is not None and discarder != item.value:
                    raise GrammarError("two_discarders")
                discarder, awaiting = item.value, None
            elif player is None or player == item.value:
                player = item.value
            else:
                raise GrammarError("kong_two_players", first=player, word=item.typed, suggest=False)
        elif awaiting is not None:
            raise _no_discarder(awaiting, [item])
        else:
            raise _unknown(item, items)
    if awaiting is not None:
        raise _no_discarder(awaiting, [])
    player = player or me
    if player is None:
        raise GrammarError("player_missing")
    return KongSpec(player, kind, discarder, tile.value if tile else None, chained)


def parse_player(args: str, me: str | None, resolve: Resolve) -> str:
    """A record about one player (`亮倒`, `亮倒 @乙`): who, the sender by default."""
    items = read(args, resolve)
    for item in items:
        if item.kind != "person":
            raise _unknown(item, items)
    if len({item.value for item in items}) > 1:
        raise GrammarError("one_player_only", suggest=False)
    player = items[0].value if items else me
    if player is None:
        raise GrammarError("player_missing")
    return player


@dataclass
class ReadySpec:
    """A ready player's hand at a draw (查大叫): tiles typed (13 − 3·melds), or the patterns of the best hand they
    waited on (`pihu`: a plain one)."""

    player: str
    tiles: list[str] = field(default_factory=list)
    melds: list[dict[str, str]] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    pihu: bool = False


def parse_ready(
    args: str, me: str | None, resolve: Resolve, minggang: Minggang = _default_minggang
) -> list[ReadySpec] | None:
    """The ready hands of a draw: `听 @乙 123p456p789s1122s @丙 清一色`, `听 123p…` (the sender's), `没人听`
    (nobody was ready: `[]`). None when nothing is said (the bot asks where the rules need it)."""
    items = read(args, resolve)
    if not items:
        return None
    if any(item.kind == "nobody_ready" for item in items):
        extra = next((item for item in items if item.kind not in {"nobody_ready", "ready"}), None)
        if extra is not None:
            raise GrammarError("nobody_ready_alone", word=extra.typed, suggest=False)
        return []
    specs: list[ReadySpec] = []
    index = 0

    def current() -> ReadySpec:
        if not specs:
            if me is None:
                raise GrammarError("ready_player_missing")
            specs.append(ReadySpec(me))
        return specs[-1]

    while index < len(items):
        word = items[index]
        if word.kind == "ready":
            pass
        elif word.kind == "person":
            if any(spec.player == word.value for spec in specs):
                raise GrammarError("ready_twice", name=word.value, suggest=False)
            specs.append(ReadySpec(word.value))
        elif word.kind == "tiles":
            current().tiles.append(word.value)
        elif word.kind == "meld":
            if index + 1 >= len(items) or items[index + 1].kind != "tiles":
                raise GrammarError("meld_tile_missing", word=word.typed)
            index += 1
            kind = minggang() if word.value == "minggang" else word.value
            current().melds.append({"kind": kind, "tile": items[index].value})
        elif word.kind == "pattern":
            _add_pattern(current().patterns, word)
        elif word.kind == "pihu":
            current().pihu = True
        else:
            raise _unknown(word, items)
        index += 1
    for spec in specs or [current()]:
        if spec.tiles and (spec.patterns or spec.pihu):
            raise GrammarError("tiles_and_patterns", suggest=False)
        if not (spec.tiles or spec.patterns or spec.pihu):
            raise GrammarError("ready_hand_missing", name=spec.player, suggest=False)
    return specs


def parse_draw(
    args: str, me: str | None, resolve: Resolve, minggang: Minggang = _default_minggang, *, ready: bool
) -> list[ReadySpec] | None:
    """荒庄's words: the ready hands where the table plays 查大叫 (`ready`) or where they start with 听 / 没人听
    (the command refuses them then); otherwise none, any word refused, quoted (`荒庄 清一色`)."""
    if not ready:
        items = read(args)
        if items and items[0].kind not in {"ready", "nobody_ready"}:
            raise _unknown(items[0], items)
    return parse_ready(args, me, resolve, minggang)


#: a number that is no whole count (`-3`, `负3`, `2.5`): refused with the range, as `99999` is, never read as chat
_NOT_WHOLE = re.compile(r"[-−负]\d+(?:\.\d+)?|\d+\.\d+")


def not_whole(token: str) -> bool:
    """Whether a word is a number no count can be (`-3`, `负3`, `2.5`)."""
    return _NOT_WHOLE.fullmatch(fold(token)) is not None


def parse_piao(args: str, me: str | None, resolve: Resolve) -> list[tuple[str, int]]:
    """漂: `2` (the sender's), `@乙 1`, `@甲 1 @乙 0 @丙 2`; each player once, 0 to `most`."""
    from ledger.scoring.kawuxing.rules import PIAO_RANGE

    told: list[tuple[str, int]] = []
    who: str | None = None
    for token in tokens(args):
        if not_whole(token):
            raise GrammarError("piao_range", word=token, most=PIAO_RANGE[-1], suggest=False)
        if token.isascii() and token.isdigit():
            amount = int(token)
            if amount not in PIAO_RANGE:
                raise GrammarError("piao_range", word=token, most=PIAO_RANGE[-1], suggest=False)
            player = who or me
            if player is None:
                raise GrammarError("player_missing")
            if any(p == player for p, _ in told):
                raise GrammarError("piao_twice", name=player, suggest=False)
            told.append((player, amount))
            who = None
            continue
        person = resolve(token)
        if person is None:
            raise GrammarError("unknown_word", word=token, suggest=False)
        if who is not None:
            raise GrammarError("piao_amount_missing", name=who, suggest=False)
        who = person
    if who is not None or not told:
        raise GrammarError("piao_amount_missing", name=who or me or "", suggest=False)
    return told


def parse_counts(args: str) -> dict[str, int]:
    """Counts alone (`坎 2`, `恰1 八0`): the answer to a question about a win named by its patterns."""
    items = read(args)
    counts: dict[str, int] = {}
    for item in items:
        if item.kind != "count":
            raise _unknown(item, items)
        _add_count(counts, item)
    if not counts:
        raise GrammarError("count_missing", suggest=False)
    return counts


def parse_ma(args: str) -> str:
    """The 马 tile alone (`7s`, `七条`, `红中`): the answer to the question after a 买马 self-draw."""
    items = [item for item in read(args) if item.kind != "ma"]
    other = next((item for item in items if item.kind != "tiles"), None)
    if other is not None and other.kind == "unknown" and is_tile_attempt(other.typed):
        raise _not_a_tile(other, "ma")
    if other is not None:
        raise _unknown(other, items)
    if not items:
        raise GrammarError("ma_tile_missing", word=vocab.KEYWORDS["ma"][0], suggest=False)
    if len(items) > 1:
        raise GrammarError("ma_one_tile", word=" ".join(item.typed for item in items), suggest=False)
    return _one_tile(items[0])


# ------------------------------------------------------------------------------------------------ 开桌

DEALER_WORDS = frozenset({"庄", "庄家", "dealer"})
DRAW_DEALER_WORDS = frozenset({"抽庄", "随机", "random"})


def parse_people(args: str, seats: int = 0) -> tuple[list[str], str | None, bool]:
    """开桌 arguments: the people (tokens as typed), the dealer token (after 庄) and whether to draw the dealer.
    `seats`: the table's seats; once the people named fill them, a word said to start (`走起`, `开始吧`:
    `_open_cheer`) ends the line when what follows it names nobody: that is talk (`开桌 @甲 @乙 @丙 走起 今晚通宵`);
    before they are filled, or before a name, it is a word like any other (`开桌 @乙 走起 @丙`, `开桌 @乙 @丙 走起
    老表`: where a seat goes, refused at 开桌)."""
    people: list[str] = []
    dealer: str | None = None
    draw = False
    items = tokens(args)
    index = 0
    while index < len(items):
        token = items[index]
        folded = fold(token)
        if seats and _seated_by_name(people, dealer) >= seats and _open_cheer(token) and _talk(items[index + 1 :]):
            break
        if folded in DEALER_WORDS:
            if index + 1 >= len(items):
                raise GrammarError("dealer_missing")
            dealer = items[index + 1]
            index += 1
        elif folded in DRAW_DEALER_WORDS:
            draw = True
        elif folded.startswith("庄") and len(token) > 1 and token[1:].lstrip("家"):
            dealer = token[1:].lstrip("家")
        elif folded in vocab.SEAT_ME_WORDS:
            people.append("我")  # `加我`: the sender sits
        elif (said := _dealer_after(token)) is not None:
            dealer = said or (people.pop() if people else "")  # `老王 坐庄`: the player typed before
            if not dealer:
                raise GrammarError("dealer_missing")
        else:
            people.append(token)
        index += 1
    return people, dealer, draw


def _talk(said: list[str]) -> bool:
    """Whether the words after 开桌's seats name nobody: no @mention, no dealer and no 我 (`加我`, `我坐庄`)."""
    return not any(
        token.startswith(("@", "＠"))
        or fold(token) in DEALER_WORDS | DRAW_DEALER_WORDS | vocab.SEAT_ME_WORDS | vocab.ME_WORDS
        or _dealer_after(token) is not None
        for token in said
    )


def _seated_by_name(people: list[str], dealer: str | None) -> int:
    """How many seats a 开桌's words name so far: its people, and a dealer who sits down by being named (an @mention
    or 我, `庄 @阿杰`, `我坐庄`) when not among them."""
    named = dealer is not None and (dealer.startswith("@") or dealer in vocab.ME_WORDS) and dealer not in people
    return len(people) + named


def _dealer_after(token: str) -> str | None:
    """The player a 开桌 word names as the dealer with the dealer word after it (`阿杰坐庄` -> `阿杰`, `我庄` -> `我`,
    `@ajie当庄` -> `@ajie`; `vocab.DEALER_AFTER_WORDS`), `""` for the word alone (`坐庄`: the word before it), None
    for any other word (a guest's name ending in 庄, `小庄`, among them)."""
    folded = fold(token)
    said = next((word for word in vocab.DEALER_AFTER_WORDS if folded.endswith(word)), None)
    if said is None or (folded == said and said in DEALER_WORDS):
        return None  # `庄`, `庄家` alone come before the player
    player = token[: len(token) - len(said)]
    if said == "庄" and player and player != "我" and not player.startswith("@"):
        return None  # `小庄`, `老庄`: 庄 is a surname too; a name is dealer by 坐庄 (`阿杰坐庄`) or 庄 after 我/@
    return player
