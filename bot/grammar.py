"""Chat grammar: which command a message starts with, and the words of its arguments.

Two ways to call a command: a slash and a Latin name (`/hu@paiju_bot …`, Telegram's menu) or a registered word
without a slash at the very start of the message (`胡 …`, `开桌 …`, `undo`). A word only counts when what follows
it is not another Chinese character, so ordinary chat ("胡说八道", "杠精") is never taken for a command.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core import Command, Registry

_SPACES = " \t\n\r\u3000"


def is_cjk(char: str) -> bool:
    """A Chinese character (CJK unified ideographs and their extension A, compatibility ideographs)."""
    code = ord(char)
    return 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF


def split_command(text: str, registry: Registry, game: str | None = None) -> tuple[Command, str, str] | None:
    """(command, the word that named it, the rest of the text) or None when the text is no command."""
    stripped = text.strip(_SPACES)
    if not stripped:
        return None
    if stripped[0] in "/／":
        head, _, rest = _split_first(stripped[1:])
        name = head.split("@", 1)[0]
        command = registry.lookup(name, game)
        return (command, name, rest.strip(_SPACES)) if command else None
    for word in sorted(registry.words(), key=len, reverse=True):
        if not stripped.lower().startswith(word):
            continue
        after = stripped[len(word) :]
        if after and (is_cjk(after[0]) if is_cjk(word[-1]) else after[0] not in _SPACES):
            continue
        command = registry.lookup(word, game)
        if command is not None:
            return command, stripped[: len(word)], after.strip(_SPACES)
    return None


def _split_first(text: str) -> tuple[str, str, str]:
    for index, char in enumerate(text):
        if char in _SPACES:
            return text[:index], char, text[index + 1 :]
    return text, "", ""


def words(text: str) -> list[str]:
    """Arguments split on any whitespace (ASCII or the full-width space Chinese keyboards type)."""
    return text.replace("\u3000", " ").split()


# ------------------------------------------------------------------------------------------------------------
# Arguments of the 卡五星 recording commands. Players are resolved by the caller (`resolve(token) -> seat name or
# None`); anything that is neither a keyword, a player nor tiles is refused with the word quoted.


class GrammarError(ValueError):
    """A message that cannot be read: `key` names the text in bot.texts, `params` fill it."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


#: words naming a declared pattern (番) -> the scoring core's key; Chinese first, then pinyin/English.
PATTERN_WORDS: dict[str, str] = {
    "碰碰胡": "pengpenghu",
    "对对胡": "pengpenghu",
    "清一色": "qingyise",
    "七对": "qidui",
    "七小对": "qidui",
    "小七对": "qidui",
    "龙七对": "longqidui",
    "双龙七对": "shuanglongqidui",
    "大三元": "dasanyuan",
    "小三元": "xiaosanyuan",
    "卡五星": "kawuxing",
    "卡五": "kawuxing",
    "明四归一": "mingsiguiyi",
    "暗四归一": "ansiguiyi",
    "手抓一": "shouzhuayi",
    "全求人": "shouzhuayi",
}
#: situational flags -> (situation key, the method it implies)
SITUATION_WORDS: dict[str, tuple[str, str]] = {
    "杠上开花": ("gangshangkaihua", "self_draw"),
    "杠开": ("gangshangkaihua", "self_draw"),
    "杠上炮": ("gangshangpao", "discard"),
    "海底捞": ("haidilao", "self_draw"),
    "海底捞月": ("haidilao", "self_draw"),
    "海底": ("haidilao", "self_draw"),
}
SELF_DRAW_WORDS = frozenset({"自摸", "zimo", "self", "tsumo"})
DISCARD_WORDS = frozenset({"点", "点炮", "放炮", "逮炮", "接炮", "from", "dianpao"})
ROB_WORDS = frozenset({"抢杠", "抢杠胡", "rob"})
PIHU_WORDS = frozenset({"屁胡", "平胡", "pihu"})
#: meld words inside a win -> meld kind
MELD_WORDS: dict[str, str] = {
    "碰": "peng",
    "直杠": "zhigang",
    "明杠": "zhigang",
    "蓄杠": "xugang",
    "加杠": "xugang",
    "补杠": "xugang",
    "暗杠": "angang",
}
#: kong kinds as typed in a kong command (`杠 暗 3s`, `暗杠 3s`, `杠 直 点 @b`)
KONG_KIND_WORDS: dict[str, str] = {
    "暗": "angang",
    "暗杠": "angang",
    "angang": "angang",
    "蓄": "xugang",
    "蓄杠": "xugang",
    "加": "xugang",
    "加杠": "xugang",
    "补杠": "xugang",
    "xugang": "xugang",
    "直": "zhigang",
    "直杠": "zhigang",
    "明": "zhigang",
    "明杠": "zhigang",
    "zhigang": "zhigang",
}
CHAIN_WORDS = frozenset({"杠上杠", "连杠", "chain"})
DOUBLE_WORDS = frozenset({"一炮双响", "双响"})
DEALER_WORDS = frozenset({"庄", "庄家", "dealer"})
DRAW_DEALER_WORDS = frozenset({"抽庄", "随机", "random"})

_KEYWORDS_BEFORE_MENTION = re.compile(r"(?<=[^\s@])@")


def tokens(text: str) -> list[str]:
    """Words of the arguments; a mention glued to a keyword (`点@b`) is split off."""
    return words(_KEYWORDS_BEFORE_MENTION.sub(" @", text))


@dataclass
class WinSpec:
    """One winner's part of a win message, before it becomes a scoring `hu` event."""

    winner: str
    method: str | None = None
    discarder: str | None = None
    tiles: list[str] = field(default_factory=list)  # tile tokens in the order typed
    melds: list[dict[str, str]] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)
    pihu: bool = False
    situations: list[str] = field(default_factory=list)

    def has_content(self) -> bool:
        return bool(self.tiles or self.melds or self.patterns or self.pihu or self.situations or self.method)


def _is_tiles(token: str) -> bool:
    from ledger.scoring.common import ScoringError
    from ledger.scoring.tiles import parse_tiles

    try:
        return bool(parse_tiles(token))
    except ScoringError:
        return False


def parse_win(args: str, me: str | None, resolve: Callable[[str], str | None]) -> list[WinSpec]:
    """`123p46p789s22s333s 5p 点 @b`, `@a 清一色 七对 自摸`, `@a 卡五星 @b 七对 点 @c` (一炮双响) …"""
    specs: list[WinSpec] = []
    current: WinSpec | None = None
    discarder: str | None = None
    items = tokens(args)
    index = 0

    def spec() -> WinSpec:
        nonlocal current
        if current is None:
            if me is None:
                raise GrammarError("winner_missing")
            current = WinSpec(me)
            specs.append(current)
        return current

    def person_after(word: str) -> str | None:
        nonlocal index
        if index + 1 < len(items):
            who = resolve(items[index + 1])
            if who is not None:
                index += 1
                return who
        return None

    while index < len(items):
        token = items[index]
        folded = token.lower()
        if folded in DOUBLE_WORDS:
            pass
        elif folded in SELF_DRAW_WORDS:
            _set_method(spec(), "self_draw", token)
        elif folded in DISCARD_WORDS or folded in ROB_WORDS:
            method = "rob_kong" if folded in ROB_WORDS else "discard"
            _set_method(spec(), method, token)
            who = person_after(token)
            if who is None:
                raise GrammarError("discarder_missing", word=token)
            if discarder is not None and discarder != who:
                raise GrammarError("two_discarders")
            discarder = who
        elif token in PATTERN_WORDS or folded in _PATTERN_KEYS:
            key = PATTERN_WORDS.get(token, folded)
            if key not in spec().patterns:
                spec().patterns.append(key)
        elif token in SITUATION_WORDS:
            situation, implied = SITUATION_WORDS[token]
            target = spec()
            if situation not in target.situations:
                target.situations.append(situation)
            if target.method is None:
                target.method = implied
        elif folded in PIHU_WORDS:
            spec().pihu = True
        elif token in MELD_WORDS or any(token.startswith(w) and _is_tiles(token[len(w) :]) for w in MELD_WORDS):
            word = token if token in MELD_WORDS else next(w for w in MELD_WORDS if token.startswith(w))
            tile = token[len(word) :]
            if not tile:
                if index + 1 >= len(items) or not _is_tiles(items[index + 1]):
                    raise GrammarError("meld_tile_missing", word=word)
                index += 1
                tile = items[index]
            spec().melds.append({"kind": MELD_WORDS[word], "tile": tile})
        elif _is_tiles(token):
            spec().tiles.append(token)
        else:
            who = resolve(token)
            if who is None:
                raise GrammarError("unknown_word", word=token)
            if current is None or (current.winner != who and current.has_content()):
                current = WinSpec(who)  # the first winner, or the second of a 一炮双响
                specs.append(current)
            else:
                current.winner = who
        index += 1
    if not specs:
        spec()
    for item in specs:
        if item.method is None and discarder is not None:
            item.method = "discard"
        if item.method in {"discard", "rob_kong"}:
            item.discarder = discarder
    return specs


_PATTERN_KEYS = frozenset(PATTERN_WORDS.values())


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


def parse_kong(word: str, args: str, me: str | None, resolve: Callable[[str], str | None]) -> KongSpec:
    """`杠 暗 3s`, `暗杠`, `直杠 9p 点 @b`, `杠 @c 直 点 @b 杠上杠`; the command word may carry the kind."""
    kind = KONG_KIND_WORDS.get(word.lower())
    player: str | None = None
    discarder: str | None = None
    tile: str | None = None
    chained = False
    items = tokens(args)
    index = 0
    while index < len(items):
        token = items[index]
        folded = token.lower()
        if folded in KONG_KIND_WORDS:
            if kind is not None and kind != KONG_KIND_WORDS[folded]:
                raise GrammarError("two_kong_kinds", word=token)
            kind = KONG_KIND_WORDS[folded]
        elif folded in DISCARD_WORDS:
            who = resolve(items[index + 1]) if index + 1 < len(items) else None
            if who is None:
                raise GrammarError("discarder_missing", word=token)
            discarder = who
            index += 1
            kind = kind or "zhigang"
        elif folded in CHAIN_WORDS:
            chained = True
        elif _is_tiles(token):
            tile = token
        else:
            who = resolve(token)
            if who is None:
                raise GrammarError("unknown_word", word=token)
            player = who
        index += 1
    player = player or me
    if player is None:
        raise GrammarError("player_missing")
    return KongSpec(player, kind, discarder, tile, chained)


def parse_people(args: str) -> tuple[list[str], str | None, bool]:
    """开桌 arguments: the people (tokens as typed), the dealer token (after 庄) and whether to draw the dealer."""
    people: list[str] = []
    dealer: str | None = None
    draw = False
    items = tokens(args)
    index = 0
    while index < len(items):
        token = items[index]
        folded = token.lower()
        if folded in DEALER_WORDS:
            if index + 1 >= len(items):
                raise GrammarError("dealer_missing")
            dealer = items[index + 1]
            index += 1
        elif folded in DRAW_DEALER_WORDS:
            draw = True
        elif token.startswith(("庄", "庄家")) and len(token) > 1 and token[1:].lstrip("家"):
            dealer = token[1:].lstrip("家")
        else:
            people.append(token)
        index += 1
    return people, dealer, draw
