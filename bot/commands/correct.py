"""改 (correct): `改成 胡 七对 自摸`, `改 七对`, `错了 是七对` — what players say after a wrong record.

From whoever recorded the table's latest record (or an admin) it asks once, naming that record and what the line
would record in its place, with 「改成这样」/「不改」; the confirmation replaces what that record's message booked
exactly as editing the message does (`Ledger.replace_hand`: its hand re-scored, the reply shows each player's change
and the night totals). The line is read as its typer's own (`我`, a bare `胡 … 自摸` are them), so the question
shows who would win; a win's patterns alone (`改成 七对`, `是七对`) keep its winner and way of winning. Before
asking, the line is run by its record command over a ledger that writes nothing (`_TrialLedger`): a line the table
would refuse gets that refusal instead, one it would ask about is called incomplete, and a hand's end only becomes
another end; a reading that moves the hand to another player says so. Anyone else seated is told whose record it
is and who may correct it (never a line to send: typed by them it would be their own record); after 结算, that the
night is sealed. If the table records anything else before the confirmation, the question expires: it would replace a
record that is no longer the one it named. Whoever asked may answer by typing, as they would press: `对` (`好`,
`改吧`; `yes` in a group that reads English) is 「改成这样」, `算了` is 「不改」 (bot/commands/questions.py). What
people also say to each other (`错了 …`, `不对 …`, `记错了 …`) gets only the question, when it reads cleanly; anything
else after 改 is chat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

from bot.commands._common import (
    FlowStep,
    asked_already,
    confirmed_step,
    described,
    flow_key,
    my_seat,
    seat_resolver,
    what_said,
)
from bot.commands._inputs import piao_of, table_rules
from bot.commands._recording import recorded_by
from bot.commands.dispute import dispute, is_denial
from bot.commands.questions import cancel_by_typing, confirm_by_typing, typed_answer
from bot.commands.suggest import rerun, run_held, typed_line
from bot.core import AnswerCallback, Button, Command, Context, Effect, HandlerResult, Quiet, Refusal, SendText, registry
from bot.core import original_source as _original
from bot.grammar import (
    BY_PATTERNS,
    DOUBLE_WIN,
    GrammarError,
    Word,
    asks,
    clean,
    fold,
    hand_named_first,
    implied,
    is_tile_attempt,
    name_key,
    parse_piao,
    parse_win,
    split_command,
    tokens,
    without_afterthoughts,
)
from bot.grammar import read as read_words
from bot.permissions import may_answer, plays_at, require_own_piao
from bot.texts import describe_record, joined
from bot.vocabulary import (
    COMMAND_WORDS,
    CORRECT_NO_WORDS,
    CORRECT_YES_WORDS,
    CORRECT_YES_WORDS_EN,
    CORRECTION_CHATTY_EN,
    CORRECTION_CHATTY_WORDS,
    COUNT_WORDS,
    COUNT_WRONG_WORDS,
    FIRST_PERSON_WIN_WORDS,
    GOUJI_ROUND_WORDS,
    KEYWORDS,
    MA_CHANGE_EN,
    MA_IS_SAID,
    MA_IS_SAID_EN,
    MA_WRONG_EN,
    MA_WRONG_WORDS,
    MELDS,
    METHODS,
    NO_PIAO_WORDS,
    NUMERAL_DIGITS,
    PATTERNS,
    PIAO_NONE_SAID,
    PLAYER_FIRST_WORDS,
    SHOULD_BE,
    SITUATIONS,
)
from ledger.accounts import GAME_NAMES
from ledger.errors import LedgerError
from ledger.events import Event, Payload, payloads
from ledger.hands import is_terminal
from ledger.scoring.kawuxing.rules import PIAO_CHOSEN
from ledger.service import Flow, Ledger, ScoringRefused, TableInfo, TableRecord

#: the words of a line 改 may put in a record's place: a record of any game (`改成 名次 …` for 够级's round)
CORRECTED_WORDS = PLAYER_FIRST_WORDS | {BY_PATTERNS, DOUBLE_WIN, *GOUJI_ROUND_WORDS}
KIND = "correct"
PREFIX = "cr"
#: the word a win is recorded with (`胡 小李 七对 自摸`)
HU_WORD = COMMAND_WORDS["hu"][0]
#: the commands that answer what a 卡五星 win is told beside its hand (its 买马 tile, 坎/恰/八 counts)
TOLD_INPUTS = frozenset({"ma", "kan", "qiaba"})
#: a win with no pattern, as a line says it
PIHU = KEYWORDS["pihu"][0]
#: the word the horse is told with (`买马 8s`), and 漂's (`漂 2`)
MA_WORD = COMMAND_WORDS["ma"][0]
PIAO_WORD = COMMAND_WORDS["piao"][0]
#: a game's own reading of a correction that names only what changed of its latest record (碰胡's `改成 自摸` keeps
#: the win's 中庄, `错了 是阿四点的` a 碰's player): game -> (ctx, that record, the line) -> the (word, args) that
#: records it so, or None when the line says more than what changed (bot/games/penghu.py registers 碰胡's)
KEPT_BY_GAME: dict[str, Callable[[Context, TableRecord, str], tuple[str, str] | None]] = {}
#: the games whose reading of what changed names each player outright (够级's `是阿杰第二 大刘头科`): said by anyone
#: seated after 错了/不对, it is answered (whose record it is), as a line after 改成 is
KEPT_NAMES_PLAYERS: set[str] = set()


def _records(command: Command, word: str, _args: str) -> bool:
    """Whether a line split as `split_command` splits it records: by a record's word of any game (`CORRECTED_WORDS`),
    Chinese or its command's Latin name (`改成 胡 七对 自摸`, `change to win seven pairs self-draw`), or told by its
    patterns."""
    return any(w in CORRECTED_WORDS for w in (word, *command.aliases))


def _glued_correction(rest: str) -> bool:
    """`改成七对自摸`, `改成七对`: 改 glued to a record of any game, or to patterns alone (they read as a win once
    told how); laughter or the mistake owned up to after it is no part of it (`改成清一色自摸 打错了`)."""
    rest = without_afterthoughts(rest)
    return any(split_command(told, registry, game) for told in (rest, f"{rest} 自摸") for game in GAME_NAMES)


@registry.command(
    "correct",
    names=["correct"],
    aliases=COMMAND_WORDS["correct"],
    help_zh="改：改成 胡 七对 自摸 —— 把这桌最后一条记录（你记的；管理员：谁记的都行）换成这一行，先问一次"
    "（别人记的：编辑原消息，或 撤销 后重记）",
    help_en="change to win seven pairs self-draw (改成) replaces the table's latest record (yours; admins: anyone's) "
    "with this line, after one question (someone else's: edit its message, or undo then record again)",
    in_menu=False,
    glued=_glued_correction,
)
def correct(ctx: Context) -> SendText | list[Effect]:
    return correction(ctx)


#: how many players a 够级 round told by names alone names at least (six; five are read too, and answered with
#: the one left out)
ROUND_NAMES = 5


def _round_by_names(ctx: Context, line: str) -> str:
    """`改成 老王 阿杰 …` at a 够级 table: five or six seats named alone (names as the table lists them, @mentions,
    `@ 老王`) are a round in its finishing order, read as `改成 名次 老王 阿杰 …`; any other line as typed."""
    said = tokens(line)
    mentions = sum(fold(word) == "@" for word in said)
    seats = {name_key(seat) for seat in ctx.seat_names}
    named = all(fold(word) == "@" or word.startswith("@") or name_key(word) in seats for word in said)
    if ctx.game != "gouji" or not named or len(said) - mentions < ROUND_NAMES or fold(said[0]) in GOUJI_ROUND_WORDS:
        return line
    return f"{GOUJI_ROUND_WORDS[0]} {line}"


def correction(ctx: Context) -> SendText | list[Effect]:
    """The question 改 asks (or why not); also what `记错了 是七对` is (bot/commands/undo.py). `不对 他没胡` is a
    dispute (`dispute.dispute`)."""
    if ctx.word in CORRECTION_CHATTY_WORDS and is_denial(ctx.args):
        return dispute(ctx)
    table = ctx.table
    number, said = hand_named_first(clean(ctx.args))  # `改 第1局 七对 点 @wang`: that finished hand's record
    line = _round_by_names(ctx, without_afterthoughts(said))  # `改一下，胡 七对 自摸 哈哈`
    line = _count_said(ctx.word, _horse_said(ctx.word, line))
    dealt_in = _discarder_said(line)
    line = dealt_in or line
    piao = _piao_said(ctx, line, number)
    if piao is not None:  # `改成 漂 @丙 2`, `老王没漂`: the latest win as it was, with that 漂 told after its hand's
        ctx, line = piao
    found = split_command(line, registry, ctx.game, ctx.seat_names)
    said_again = found is not None and found[0].key == "correct"
    if found is not None and said_again:  # `记错了 改成 清一色 自摸`: 改成 said once more
        line = found[2]
        found = split_command(line, registry, ctx.game, ctx.seat_names)
    if found is not None and found[0].key in TOLD_INPUTS:
        found = None  # `改成 买马 8s`: what the latest win was told beside its hand (`_wins_kept`)
    if found is not None and not _records(*found) and ctx.game in KEPT_NAMES_PLAYERS:
        found = None  # `改成 阿杰头科`: 够级's place by name, what changed of its round (`KEPT_BY_GAME`)
    if found is not None and not _records(*found):
        raise Quiet  # `改 规则`, `改 名片 …`: not a record
    if table is None and found is not None:  # after 结算: the night's records stand
        return _told(ctx, ctx.t("correct_settled"))
    if table is None or not plays_at(ctx, table):
        raise Quiet
    latest = ctx.service.latest_record(table.id)
    named = _named_hand(ctx, table, number, latest) if number is not None else None
    latest = named or latest
    found = _winner_kept(ctx, table, latest, found)
    if latest is not None and _double_win(latest):
        line = _mention_named(ctx, table, line)
    kept = _kept_by_game(ctx, latest, line)
    if found is None and kept is None and (latest is None or not _wins_kept(latest, line, my_seat(ctx, table))):
        whose = _double_whose(ctx, latest, line) if latest is not None and not asks(line) else None
        if whose is not None:  # `改成 七对` after a 一炮双响: whose?
            return _told(ctx, whose)
        # `改成 七对` after a kong: patterns of no win (`改 胡 七对 吗` asks, and is chat)
        if latest is not None and not asks(line) and _glued_correction(line):
            what = describe_record(ctx.lang, latest.events, table.game)
            return _told(ctx, ctx.t("correct_not_a_win", number=latest.hand_number, what=what))
        raise Quiet  # `改天再打`
    if latest is None:
        return _told(ctx, ctx.t("correct_nothing", line=line))
    what = describe_record(ctx.lang, latest.events, table.game)
    # a 漂 alone (`改成 漂2`) is its player's to correct, whoever recorded the win (`_piao_said`: only theirs)
    if not may_answer(ctx, latest.recorded_by) and not ctx.piao_told:  # never a line to send (typed, their own)
        # `应该是清一色`, `不是七对 是清一色`: what the record should be, told as `改成` is (`错了 是七对` stays chat)
        # (`错了 改成 …`, 改成 said after all, and a 够级 place by name are told too; `不对 我没点炮 是老王点的`: the
        # discarder said to be another, told as `改成 点 老王` is)
        outright = (
            said_again
            or ctx.word not in (*CORRECTION_CHATTY_WORDS, *CORRECTION_CHATTY_EN)
            or (kept is not None and ctx.game in KEPT_NAMES_PLAYERS)
        )
        said_so = ctx.word == SHOULD_BE or dealt_in is not None or outright
        heard = ctx.unprompted and said_so and _changes(ctx, found, line, latest, what)
        if ctx.unprompted and not heard:
            raise Quiet
        who = latest.recorded_by_name or ctx.t("someone")
        earlier = _own_hand_before(ctx, table.id, latest) if named is None else None
        if earlier is not None:  # their win, then someone else's kong of the next hand: edit the win's message
            mine = describe_record(ctx.lang, earlier.events, table.game)
            return _told(
                ctx,
                ctx.t(
                    "correct_own_earlier",
                    number=latest.hand_number,
                    what=what,
                    who=who,
                    earlier=earlier.hand_number,
                    mine=mine,
                ),
                heard=heard,
            )
        how = "correct_how" if named is None else "correct_how_hand"  # `改 第1局 …`: that hand's, not the latest
        return _told(ctx, ctx.t(how, number=latest.hand_number, what=what, who=who), heard=heard)
    key = flow_key(ctx)
    if asked_already(ctx, key):
        raise Quiet
    try:
        word, args, becomes, recorded, then_asks = _reading_of(ctx, found, line, latest)
    except _RuledOut as why:  # the line read as a correction all through (`改成七对`, `应该是七对`): said to it too
        return _told(ctx, why.message, heard=True)
    except _Unusable as why:
        return _told(ctx, why.message)
    if becomes == what:
        return _told(ctx, ctx.t("correct_same", number=latest.hand_number, what=what))
    becomes = becomes or line
    held = typed_line(ctx, word, args)
    original = _original(latest.source)
    state: dict[str, Any] = {
        "table_id": table.id,
        "hand": table.hand_number,
        **held,
        "source": original,
        # as an edit of the record's message (`<source>:e<n>`); `0` + this message's id never equals a Telegram
        # edit's update id nor a button's `e0`, and a second press replays rather than books again
        "edit": f"{original}:e0{ctx.message_id}",
        "corrected": True,  # its reply says the record was corrected, not re-recorded from an edited message
        "piao": [list(told) for told in ctx.piao_told],  # `改成 漂 @丙 2`: booked with the win (`suggest.run_held`)
        "target": latest.event_ids[-1],
        "number": latest.hand_number,
        "named_hand": latest.hand_number if named is not None else None,  # an older hand's: it is checked instead
        **what_said(ctx, lambda lang: describe_record(lang, latest.events, table.game)),
    }
    ctx.service.save_flow(ctx.chat_id, key, ctx.sender.user_id, KIND, state)
    by = recorded_by(ctx, latest)
    question = ctx.t("correct_ask", number=latest.hand_number, what=what, by=by, becomes=becomes)
    question += _players_changed(ctx, latest.events, recorded)
    if then_asks:  # `改成 自摸` at a 买马 table: the horse is asked once it is confirmed
        question += "\n" + ctx.t("correct_then_asks", what=joined(ctx.lang, (ctx.t(key) for key in then_asks)))
    buttons = (
        (
            Button(ctx.t("btn_correct_yes"), f"{PREFIX}:{key}:ok"),
            Button(ctx.t("btn_correct_no"), f"{PREFIX}:{key}:keep"),
        ),
    )
    return SendText(question, buttons=buttons, reply_to=ctx.message_id, asks=True, posted_as=f"{PREFIX}:{key}")


#: the words that say the horse was wrong (`马买错了`, `wrong horse`, `change the horse to`): what follows is the horse
_MA_WRONG = frozenset({*MA_WRONG_WORDS, *MA_WRONG_EN, *MA_CHANGE_EN})
#: what may come before the horse said in a correction (`马是`, `it was`), longest first
_MA_IS = tuple(sorted((*MA_IS_SAID, *MA_IS_SAID_EN), key=len, reverse=True))


def _horse_said(word: str, line: str) -> str:
    """A correction's line naming the horse as players say it, as `买马 <tile>`: after a word saying the horse was
    wrong (`马买错了 是8s`, `wrong horse, it was 8s`, `change the horse to 8 bamboo`), and after 改成 or 错了 when it
    says 马 and a tile (`改成 马 8s`, `不对 马是8s`, `改成 马 东`: a tile to refuse). Any other line as it is."""
    wrong = word in _MA_WRONG
    rest = line.lstrip(" ，,:：")
    said = next((said for said in _MA_IS if fold(rest).startswith(said) and (wrong or said.startswith("马"))), "")
    if not wrong and not said:
        return line
    rest = rest[len(said) :].strip(" ，,:：")
    words = _words(rest)
    if not words or not (words[0].kind == "tiles" or is_tile_attempt(words[0].typed)):
        return line  # `改成 马上来`, `the horse was great`: chat
    return f"{MA_WORD} {rest}"


#: a count said after the word saying it was wrong (`坎错了 是2`, `wrong kan, it was 2`): its number, in digits or
#: one Chinese numeral, counted with 个 or not
_COUNT_IS = re.compile(rf"(?:{'|'.join(_MA_IS)})?\s*(?P<n>\d+|[{''.join(NUMERAL_DIGITS)}])\s*个?")


def _count_said(word: str, line: str) -> str:
    """A correction saying a win's count was wrong (`坎错了 是2`, `恰不对 应该是1`, `wrong kan, it was 2`) as the
    count told again (`坎2`: the latest win's hand and way kept, `_wins_kept`); any other line as it is (`坎错了
    吧`: chat)."""
    count = COUNT_WRONG_WORDS.get(word)
    said = _COUNT_IS.fullmatch(fold(line).strip(" ，,:：")) if count is not None else None
    if said is None:
        return line
    number = said["n"] if said["n"].isdigit() else str(NUMERAL_DIGITS[said["n"]])
    return f"{count}{number}"


#: the discarder said to be another (`我没点炮 是老王点的`, `不是我点的 是老王放的炮`, `是老王点的`)
_DISCARDER_SAID = re.compile(
    r"(?:.*?没(?:点|放)炮了?\s*|不是\S+?(?:点|放)的炮?\s*)?是\s*(?P<who>\S+?)\s*(?:点|放)的炮?"
)


def _discarder_said(line: str) -> str | None:
    """A correction saying who the discarder was instead (`我没点炮 是老王点的`) as `点 老王`; None for any other."""
    said = _DISCARDER_SAID.fullmatch(" ".join(fold(line).translate(_COMMAS).split()))
    return f"{METHODS['discard'][0]} {said['who']}" if said is not None else None


_COMMAS = str.maketrans("，,、", "   ")


#: a player's 漂 with the player first (`老王 漂2`, `老王漂 2`, `我没漂`)
_PLAYER_PIAO = re.compile(
    rf"(?P<who>\S+?)\s*(?:{PIAO_WORD}\s*(?P<amount>\d+)|(?P<none>{'|'.join(PIAO_NONE_SAID)}))", re.DOTALL
)


def _piao_said(ctx: Context, line: str, number: int | None) -> tuple[Context, str] | None:
    """A correction of the 漂 of the hand just ended (or the finished hand `number`, `改 第1局 漂 @丙 2`) at a table
    where players choose it (`改成 漂2`, `改成 漂 @丙 2`, `改成 老王 漂2`, `不对 老王没漂`, `漂错了 老王漂2`): `ctx`
    carrying that 漂 (`Context.piao_told`) and its win's line as it was (`小李 清一色 点 阿杰`; a 一炮双响's two
    winners' hands and the discarder), which the correction replaces with itself and that 漂. None for any other
    line, or when the record is no hand's end. Refused: a 漂 that cannot be, a draw's (re-told as a whole: 撤销),
    and at a 首局定漂 table any hand's but the first's just after it (later hands carry the last one's)."""
    table = ctx.table
    if table is None or table.game != "kawuxing" or table_rules(table).piao not in PIAO_CHOSEN:
        return None
    if not plays_at(ctx, table):
        return None
    found = split_command(line, registry, ctx.game, ctx.seat_names)
    said = _PLAYER_PIAO.fullmatch(fold(line).strip())
    if found is not None and found[0].key == "piao":
        args = f"{found[2]} 0" if found[1] in NO_PIAO_WORDS else found[2]
    elif said is not None:
        args = f"{said['who']} {said['amount'] or 0}"
    else:
        return None
    latest = ctx.service.latest_record(table.id)
    if number is not None:
        latest = _named_hand(ctx, table, number, None)
    ended = _ended_by(latest) if latest is not None else []
    if latest is None or not latest.finished or not ended:
        return None
    rules = table_rules(table)
    if len(ended) == 1 and ended[0].get("type") == "draw":
        key = "correct_piao_draw_paid" if rules.chadajiao else "correct_piao_draw"  # 查大叫 pays by each 漂
        refused = Refusal(key, number=latest.hand_number)
        refused.heard = True  # `漂错了 老王漂2`: said of the 漂, never chat
        raise refused
    kept = _win_line(ended[0]) if len(ended) == 1 and ended[0].get("type") == "hu" else _double_line(latest)
    if kept is None:
        return None
    try:
        told = parse_piao(args, my_seat(ctx, table), seat_resolver(ctx, table))
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    hand = ctx.service.message_hand(_original(latest.source))  # its 漂, told beside the win or with it
    now = piao_of(hand.events) if hand is not None else {}
    if rules.piao == "first_hand" and (latest.hand_number != 1 or table.hand_number > 2):
        shown = joined(ctx.lang, (f"{player} {amount}" for player, amount in now.items()))
        refused = Refusal("correct_piao_first_hand", piao=shown)
        refused.heard = True
        raise refused
    if all(now.get(player) == amount for player, amount in told):  # `改成 漂 @丙 0` where 丙's is 0
        shown = joined(ctx.lang, (f"{player} {PIAO_WORD} {amount}" for player, amount in told))
        raise Refusal("correct_piao_same", number=latest.hand_number, piao=shown)
    require_own_piao(ctx, table, (player for player, _amount in told))
    # the 漂 an earlier correction booked with the record stays, unless told again (`改成 漂 @丙 3` after `@乙 2`)
    kept_piao = {**piao_of(latest.events), **dict(told)}
    return replace(ctx, piao_told=tuple(kept_piao.items())), kept


def _double_line(record: TableRecord) -> str | None:
    """A 一炮双响 as a line tells it again, both hands and the discarder kept, their counts left to be kept as
    answers (`阿杰 卡五星 小李 七对 点 老王`); None for any other record."""
    if not _double_win(record):
        return None
    wins = _ended_by(record)
    how = {"discard": "点", "rob_kong": "抢杠"}.get(str(wins[0].get("method")))
    if how is None or not wins[0].get("from"):
        return None
    hands = " ".join(f"{win['winner']} {_hand_kept(win)}" for win in wins)
    return f"{hands} {how} {wins[0]['from']}"


def _named_hand(ctx: Context, table: TableInfo, number: int, latest: TableRecord | None) -> TableRecord | None:
    """The record ending the finished hand `number` a correction names (`改 第1局 …`), as `latest_record` gives a
    record (its own events); None when it is the table's latest record anyway. Refused when the table has no such
    finished hand (quiet to a line people also say to each other)."""
    record = ctx.service.finished_hand(table.id, number)
    if record is None:
        if ctx.unprompted:
            raise Quiet
        raise Refusal("undo_no_hand", number=number)
    if latest is not None and latest.event_ids[-1] == record.event_ids[-1]:
        return None
    return replace(record, events=record.events[len(record.events) - len(record.event_ids) :])


def _still_named(ctx: Context, state: Mapping[str, Any]) -> bool:
    """Whether the record a correction's question named is still there as it was: the table's latest record, or
    the finished hand it named by number (`改 第1局 …`)."""
    table_id, number = int(state["table_id"]), state.get("named_hand")
    record = ctx.service.finished_hand(table_id, int(number)) if number else ctx.service.latest_record(table_id)
    return record is not None and record.event_ids[-1] == state["target"]


def _own_hand_before(ctx: Context, table_id: int, latest: TableRecord) -> TableRecord | None:
    """The hand just finished, when the sender recorded it and someone else's record has begun the next one (a
    kong): what their 改 most likely means, which only an edit of its message can reach now."""
    if latest.finished or latest.hand_number < 2:
        return None
    earlier = ctx.service.finished_hand(table_id, latest.hand_number - 1)
    return earlier if earlier is not None and may_answer(ctx, earlier.recorded_by) else None


class _WouldBook(Exception):
    """The line read through to its booking: it is a record, of these events."""

    def __init__(self, events: Sequence[Event]) -> None:
        super().__init__()
        self.events = events


class WouldAsk(Exception):
    """The line reads through to a record its table's rules still want an input for (`改成 自摸` at a 买马 table:
    the horse): `events` as it would be booked with what the replaced record was told kept (a pattern's fix keeps
    the horse), `asks` what is asked once it is confirmed (`input_ma` …). Raised by the question's maker
    (`regional.prepare`) instead of asking, in a correction's trial (`replacing`)."""

    def __init__(self, events: Sequence[Event], asks: Sequence[str]) -> None:
        super().__init__()
        self.events = events
        self.asks = tuple(asks)


class _Unusable(Exception):
    """The line cannot take the record's place: `message` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _RuledOut(_Unusable):
    """The hand's earlier events rule the line out (`_refuse_against_the_hand`), or what it re-tells of the latest
    win is refused (`改成 买马 东`, `马买错了 是东`): said even when the line was only patterns, kept on the latest
    win (`改成 七对` after the winner's kong), or said as chat is (`Context.unprompted`)."""


class _Unready(Exception):
    """The line did not read through: it would ask (a flow saved) or write something other than a record."""


#: what a correction's trial reading may ask the ledger: reads, and the get-or-create of a person the line names
#: (`member`: kept current as every message keeps its sender's row)
_PASSES = frozenset(
    {
        "closed_night",
        "current_night",
        "find_guest",
        "find_member",
        "hand_state",
        "history",
        "latest_record",
        "load_flow",
        "member",
        "member_by_username",
        "members",
        "message_hand",
        "names",
        "open_flows",
        "recorded_hand",
        "recorded_table",
        "table",
    }
)
#: the ledger calls that book a record: a line that gets there reads as one
_BOOKS = frozenset({"record_events", "record_hand", "replace_hand"})


class _TrialLedger:
    """The ledger as a correction's line is tried against before it is asked about: reads pass through, the
    booking stops the handler (`_WouldBook`), and anything else it would write — a question's flow, a member —
    stops it unready. Nothing is written. `edit`: the line is tried as an edit of an older hand's message, whose
    answering of a question about the message's old text (`finish_flow`) is left undone."""

    def __init__(self, service: Ledger, *, edit: bool = False) -> None:
        self._service = service
        self._edit = edit

    def __getattr__(self, name: str) -> Any:
        if name in _BOOKS:
            return self._book
        if self._edit and name == "finish_flow":
            return lambda *_args, **_kw: None
        if name in _PASSES:
            return getattr(self._service, name)
        raise _Unready

    @staticmethod
    def _book(_where: object, events: Sequence[Event], **_how: object) -> None:
        raise _WouldBook(events)


def replacing(ctx: Context) -> bool:
    """Whether `ctx` is a correction's trial of its line (`_reading`): what it records would replace the table's
    latest record, so a rule about what came before it in the hand reads the hand without that record."""
    return isinstance(ctx.service, _TrialLedger)


def _told(ctx: Context, text: str, *, heard: bool = False) -> SendText:
    """An answer other than the question; none to a line people also say to each other (`错了 是七对`,
    `记错了 …`: `Context.unprompted`), which only a correction that reads cleanly answers (`heard`: its question,
    the hand's ruling it out, or whose record it is)."""
    if ctx.unprompted and not heard:
        raise Quiet
    return SendText(text, reply_to=ctx.message_id)


def _changes(ctx: Context, found: tuple[Command, str, str] | None, line: str, latest: TableRecord, what: str) -> bool:
    """Whether `line` reads cleanly as a correction that changes `latest` (`不是七对 是清一色` after a 七对): what its
    recorder would be asked about, so anyone else seated who says it is told whose record it is."""
    try:
        return _reading_of(ctx, found, line, latest)[2] != what
    except (_Unusable, Quiet):
        return False


def _wins_kept(latest: TableRecord, said: str, me: str | None = None) -> list[str]:
    """What a correction naming only what changed means for the latest record's win, as lines to try in turn: the
    patterns said with its winner and way kept (`七对`, `是七对` → `小李 七对 点 老王`), then the way said with its
    winner and patterns kept (`自摸`, `点 @阿杰` → `小李 清一色 自摸`). For a 一炮双响, only one winner's hand said
    after their name (`_double_kept`); none for any other record. `me`: the sender's seat, which `我` names."""
    said = said.strip().removeprefix("应该是").removeprefix("是")
    wins = _ended_by(latest)
    if said and _double_win(latest):
        return _double_kept(wins, said, me)
    if not said or len(wins) != 1 or wins[0].get("type") != "hu":
        return []
    win = wins[0]
    kept = _win_line(win)
    if kept is None:
        return []
    words = _words(said)
    names_a_way = any(word.kind == "method" for word in words)
    if _told_input(said) or not (names_a_way or _names_a_hand(said)):  # `买马 8s`, `2坎`: the hand and way kept
        return [f"{kept} {said}"]
    hand_kept = f"{win['winner']} {_hand_kept(win)} {said}"
    if not _names_a_hand(said):  # `改成 自摸`, `点 @阿杰`: only the way changes, never the hand to a 屁胡
        return [hand_kept]
    return [f"{win['winner']} {said} {_way_said(win)}", hand_kept]


def _winner_kept(
    ctx: Context, table: TableInfo, latest: TableRecord | None, found: tuple[Command, str, str] | None
) -> tuple[Command, str, str] | None:
    """A win told again naming no winner (`改成 碰碰胡 点 @li`) by someone who did not win it (an admin, the
    discarder): still the recorded winner's, named first (`小李 碰碰胡 点 @li`). The typer's own win only when they
    won it or say so (`我胡 …`, `改成 我 碰碰胡 …`, `I won …`); any other line as it is."""
    if found is None or latest is None or ctx.game != "kawuxing" or found[0].key != "hu":
        return found
    if found[1] in FIRST_PERSON_WIN_WORDS:
        return found
    wins = _ended_by(latest)
    if len(wins) != 1 or wins[0].get("type") != "hu" or wins[0]["winner"] == my_seat(ctx, table):
        return found
    command, word, args = found
    if not args.strip() or not _names_a_hand(args):  # `改成 自摸`, `点 @阿杰`: the way alone (`_wins_kept`)
        return found
    try:
        parse_win(f"{args} {implied(word)}", None, seat_resolver(ctx, table))
    except GrammarError as unread:
        if unread.key != "winner_missing":
            return found
        return command, word, f"{wins[0]['winner']} {args}".strip()
    except Refusal:
        return found
    return found  # a winner named (`改成 阿杰 碰碰胡 …`, `胡 @阿杰 …`)


def _way_said(win: Payload) -> str | None:
    """How a recorded win was won, as a line says it (`自摸`, `点 老王`, `抢杠 老王`); None for no 卡五星 way."""
    how = {"self_draw": "自摸", "discard": "点", "rob_kong": "抢杠"}.get(str(win.get("method")))
    return f"{how} {win['from']}" if how and win.get("from") else how


def _win_line(win: Payload) -> str | None:
    """A recorded win as a line tells it again, its hand and way kept and its counts left to be kept as answers
    (`小李 清一色 点 老王`); None for a win of no 卡五星 way."""
    way = _way_said(win)
    return f"{win['winner']} {_hand_kept(win)} {way}" if way else None


def _hand_kept(win: Payload) -> str:
    """A recorded win's hand as a line says it, its counts left out: kept as answers (`_inputs.kept_answers`) where
    the hand told again still allows them."""
    return _hand_said({**win, "kan": None, "qia": None, "ba": None})


#: the kinds of words that tell a win's hand (`bot.grammar.read`): its tiles, patterns and situations
_HAND_WORDS = frozenset({"pattern", "pihu", "tiles", "situation", "meld"})


def _names_a_hand(said: str) -> bool:
    """Whether a correction tells a hand (`七对`, `123p… 5p`, `杠上开花`), not only how it was won and its horse
    (`自摸 买马 中`: the tile after 买马 is the horse's)."""
    words = _words(said)
    if not words:  # nothing read (too long to read: as a hand, as it was read before)
        return True
    return any(w.kind in _HAND_WORDS and not (i and words[i - 1].kind == "ma") for i, w in enumerate(words))


def _words(said: str) -> list[Word]:
    """The words of a record's arguments (`grammar.read`); none when they cannot be read (too many)."""
    try:
        return read_words(said)
    except GrammarError:
        return []


def _told_input(said: str) -> bool:
    """Whether a correction re-tells only what a 卡五星 win was told beside its hand (`买马 8s`, `坎2`)."""
    found = split_command(said, registry, "kawuxing")
    return found is not None and found[0].key in TOLD_INPUTS


def _kept_by_game(ctx: Context, latest: TableRecord | None, line: str) -> tuple[str, str] | None:
    """The game's own reading of `line` as only what changed of `latest` (`KEPT_BY_GAME`), if it has one."""
    reading = KEPT_BY_GAME.get(ctx.game)
    return reading(ctx, latest, line) if reading is not None and latest is not None else None


def _double_kept(wins: Sequence[Payload], said: str, me: str | None) -> list[str]:
    """`阿杰 七对` (`我 七对`, `阿杰是七对`) after a 一炮双响: that winner's hand as said, the other winner's hand, the
    way and the discarder kept (`阿杰 七对 小李 卡五星 点 老王`). None unless the line starts with one of the two
    winners (patterns alone would be a guess: `_double_whose` asks whose)."""
    how = {"discard": "点", "rob_kong": "抢杠"}.get(str(wins[0].get("method")))
    winner = next((str(win["winner"]) for win in wins if _names_winner(said, str(win["winner"]), me)), None)
    if how is None or not wins[0].get("from") or winner is None:
        return []
    told = said.split(maxsplit=1)[1] if said.split()[0] in ("我", winner) else said[len(winner) :]
    told = told.strip().removeprefix("应该是").removeprefix("是").strip()
    if not told:
        return []
    hands = [f"{win['winner']} {told if win['winner'] == winner else _hand_said(win)}" for win in wins]
    return [f"{' '.join(hands)} {how} {wins[0]['from']}"]


def _ended_by(record: TableRecord) -> list[Payload]:
    """A record's events but the 漂 its question was told with: what a correction names (`regional.prepare` keeps
    that 漂 in its place)."""
    return [event for event in record.events if event.get("type") != "piao"]


def _double_win(record: TableRecord) -> bool:
    wins = _ended_by(record)
    return len(wins) == 2 and all(event.get("type") == "hu" for event in wins)


def _mention_named(ctx: Context, table: TableInfo, line: str) -> str:
    """`@ajie 清一色` after a 一炮双响: a first @mention of a seat read as that seat's name (`阿杰 清一色`), as
    `_double_kept` finds whose hand is meant and `_double_whose` leaves it out of its example."""
    first, _, rest = line.partition(" ")
    if not first.startswith("@"):
        return line
    try:
        seat = seat_resolver(ctx, table)(first)
    except Refusal:
        return line
    return f"{seat} {rest}" if seat else line


def _names_winner(said: str, winner: str, me: str | None) -> bool:
    """Whether a correction starts with this winner: their seat's name (spaced or glued: `阿杰七对`), or `我`."""
    first = said.split()[0]
    return (first == "我" and me == winner) or name_key(said).startswith(name_key(winner))


def _hand_said(win: Payload) -> str:
    """A recorded win's hand as a line says it (`卡五星`, `123p46p789s22s333s 5p 碰 3s`, `屁胡`), with its counts."""
    hand = win.get("hand", {})
    melds = [f"{MELDS[meld['kind']][0]} {meld['tile']}" for meld in hand.get("melds", ()) if meld["kind"] in MELDS]
    situations = [SITUATIONS[key][0] for key in hand.get("situations", ()) if key in SITUATIONS]
    if "concealed" in hand:
        told = [str(hand["concealed"]), str(hand["win_tile"])]
    else:
        told = [PATTERNS[key][0] for key in hand.get("patterns", ()) if key in PATTERNS]
        told = told or ([] if situations or melds else [PIHU])
    counts = [f"{COUNT_WORDS[key][0]}{win[key]}" for key in ("kan", "qia", "ba") if win.get(key) is not None]
    return " ".join((*told, *melds, *situations, *counts))


def _double_whose(ctx: Context, latest: TableRecord, line: str) -> str | None:
    """After a 一炮双响, patterns that name no winner (`改成 七对`, `改成 老王 七对`: not a winner): whose hand, asked
    with the lines to send; None for anything else."""
    if not _double_win(latest):
        return None
    first, _, rest = line.partition(" ")
    told = rest if any(name_key(first) == name_key(seat) for seat in ctx.seat_names) else line
    told = told.strip().removeprefix("应该是").removeprefix("是").strip()
    if not told or not _glued_correction(told):
        return None
    what = describe_record(ctx.lang, latest.events, ctx.game)
    winners = [str(event["winner"]) for event in _ended_by(latest)]
    return ctx.t(
        "correct_double_whose", number=latest.hand_number, what=what, first=winners[0], second=winners[1], line=told
    )


#: what a correction's line records in the latest record's place: described, as events, and the inputs it asks
#: once confirmed (`WouldAsk.asks`)
Reading = tuple[str, list[Payload], tuple[str, ...]]


def _reading_of(
    ctx: Context, found: tuple[Command, str, str] | None, line: str, latest: TableRecord
) -> tuple[str, str, str, list[Payload], tuple[str, ...]]:
    """(word, args, what it records described, as events, and what it asks once confirmed) of the correction
    `line`: the game's own reading of
    only what changed (`KEPT_BY_GAME`: 碰胡's `改成 自摸`) when it has one; as typed when it reads as a record;
    else, for a win or what is no record by itself (`七对`, `自摸`), the latest win with what was said changed
    (`_wins_kept`). Raises `_Unusable` with why the line as typed cannot be used, or `Quiet` for a line
    that is no record either way."""
    changed = _kept_by_game(ctx, latest, line)
    if changed is not None:  # only what changed of the game's own record (`改成 自摸`): the rest kept, not as typed
        word, args = changed
        command = registry.lookup(word, ctx.game)
        assert command is not None, f"{word} records in {ctx.game}"
        return word, args, *_reading(ctx, command, word, args, latest)
    hu = registry.lookup(HU_WORD, ctx.game)
    if found is not None:
        command, word, args = found
        word = word or command.aliases[0]  # a win told by its patterns (`改成 七对 自摸`) is `胡 七对 自摸`
        try:
            return word, args, *_reading(ctx, command, word, args, latest)
        except _Unusable as typed:
            me = my_seat(ctx, ctx.table) if ctx.table is not None else None
            kept = [*_wins_kept(latest, args, me), *_wins_kept(latest, line, me)] if command is hu else []
            for reading in kept:
                try:
                    return HU_WORD, reading, *_reading(ctx, command, HU_WORD, reading, latest)
                except _Unusable:
                    continue
            raise typed from None
    if hu is None:  # a game without 卡五星's wins
        raise Quiet
    ruled_out: _Unusable | None = None
    told_input = _told_input(line)
    for reading in _wins_kept(latest, line, my_seat(ctx, ctx.table) if ctx.table is not None else None):
        try:
            return HU_WORD, reading, *_reading(ctx, hu, HU_WORD, reading, latest)
        except _RuledOut as why:
            ruled_out = ruled_out or why
        except _Unusable as why:  # `改成 买马 东`: its one reading's refusal is what to say, and what stands
            if told_input and ruled_out is None:
                what = describe_record(ctx.lang, latest.events, ctx.game)
                stands = ctx.t("correct_stands", number=latest.hand_number, what=what)
                ruled_out = _RuledOut(f"{why.message}\n{stands}")
    if ruled_out is not None:
        raise ruled_out
    raise Quiet  # `改一下，说好的`: chat


def _reading(ctx: Context, command: Command, word: str, args: str, latest: TableRecord) -> Reading:
    """What `word args` would record in `latest`'s place, as the replies describe records (`阿杰 自摸 清一色`: the
    question shows who wins, not only the line typed), as events, and the inputs its table's rules would ask for
    once it is confirmed (`WouldAsk`). Run by the record's own command over a ledger that writes nothing
    (`_TrialLedger`); raises `_Unusable` with what to say instead: the record's refusal, that the line is not
    complete (it would be asked about otherwise), or that a hand's end can only become another end."""
    from bot.texts import refusal_text

    current = ctx.service.latest_record(latest.table_id)
    older = ctx.incoming is not None and (current is None or current.event_ids[-1] != latest.event_ids[-1])
    trial = replace(ctx, service=cast(Ledger, _TrialLedger(ctx.service, edit=older)))
    if older and ctx.incoming is not None:  # an older hand's record (`改 第1局 …`): tried as an edit of its message
        source = f"{_original(latest.source)}:e0{ctx.message_id}"
        trial = replace(trial, source=source, incoming=replace(ctx.incoming, source=source, edited=True))
    trial.command, trial.word, trial.args = command, word, args
    try:
        command.handler(trial)
    except _WouldBook as booked:
        return (*_in_place_of(ctx, latest, booked.events), ())
    except WouldAsk as asked:  # scored as far as it is told already (`check_scorable`): what it asks is said
        return (*_in_place_of(ctx, latest, asked.events, scored=True), asked.asks)
    except Refusal as refusal:
        raise _Unusable(ctx.t(refusal.key, **refusal.params)) from None
    except (_Unready, Quiet):
        pass
    except Exception as err:
        message = refusal_text(ctx.lang, err)
        if message is None:
            raise
        raise _Unusable(message) from None
    raise _Unusable(ctx.t("correct_unready", line=f"{word} {args}".strip()))


def _in_place_of(
    ctx: Context, latest: TableRecord, events: Sequence[Event], *, scored: bool = False
) -> tuple[str, list[Payload]]:
    """The events described and as the ledger records them, when they may replace `latest`: a hand's end (a win
    or a draw; 够级's round) only by another end, as the ledger reads them. `scored`: the hand was scored with
    them already (a record still to be asked about cannot be scored whole here)."""
    try:
        recorded = payloads(events)
    except LedgerError:  # a chained kong, read only after the hand's earlier events: never an end
        recorded = []
    if latest.finished and not any(is_terminal(ctx.game, event) for event in recorded):
        what = describe_record(ctx.lang, latest.events, ctx.game)
        raise _Unusable(ctx.t("correct_not_an_end", number=latest.hand_number, what=what))
    if not scored:
        _refuse_against_the_hand(ctx, latest, recorded)
    return (describe_record(ctx.lang, recorded, ctx.game) if recorded else ""), recorded


def _refuse_against_the_hand(ctx: Context, latest: TableRecord, recorded: Sequence[Payload]) -> None:
    """A correction the hand rules out is refused before it is offered, as booking it would be (it was asked, and
    only the press was refused, in a toast): the hand is scored with it in place of `latest`, as 「改成这样」 books
    it, writing nothing — `改成 七对` for a player who konged in it (seven pairs are fourteen concealed tiles),
    `改成 中庄` for a player who was not that hand's dealer."""
    from bot.texts import refusal_text

    if not recorded:  # a chained kong, read only after the hand's earlier events
        return
    try:
        ctx.service.check_replace(_original(latest.source), recorded)
    except ScoringRefused as err:
        raise _RuledOut(refusal_text(ctx.lang, err) or "") from None
    except LedgerError:
        return  # taken back or sealed meanwhile: the press says so, as it would have


def _players_changed(ctx: Context, before: Sequence[Payload], after: Sequence[Payload]) -> str:
    """A warning line when the correction changes who won or whose kong it is (`注意：老王 换成了 阿杰。`): a line is
    read as its typer's own, and someone fixing a pattern may not mean to move the hand."""
    was, now = _players(before), _players(after)
    if not was or not now or was == now:
        return ""
    return "\n" + ctx.t("correct_new_player", was="、".join(was), now="、".join(now))


def _players(events: Sequence[Payload]) -> list[str]:
    """Who each event is (the winner, the one who kongs, declares or plays), in order."""
    named = (event.get("winner") or event.get("player") for event in events if event.get("type") != "piao")
    return [str(who) for who in named if who]


@registry.callback(PREFIX)
def press(ctx: Context) -> HandlerResult:
    """「改成这样」 replaces the record the question named, if it is still the table's latest; 「不改」 drops it.
    Only whoever asked, or an admin."""
    step = confirmed_step(ctx, KIND, "correct_not_yours", lambda state: _kept(ctx, state))
    if not isinstance(step, FlowStep):
        return step
    if not _still_named(ctx, step.state):
        ctx.service.finish_flow(ctx.chat_id, step.key)
        moved = ctx.t("correct_moved", number=step.state["number"])
        return [AnswerCallback(moved, alert=True), SendText(moved, edit_message_id=step.edit)]
    return rerun(ctx, step)


def _kept(ctx: Context, state: Mapping[str, Any]) -> str:
    return ctx.t("correct_kept", number=state["number"], what=described(ctx, state))


def _typed_yes(ctx: Context, flow: Flow) -> list[Effect]:
    """A typed 对 (`好`, `改吧`, `改成这样`) from whoever asked: carried out as their 「改成这样」 is — the record
    replaced, the question rewritten to the booking's reply — with a short reply to the typed line; the record it
    named no longer the table's latest, said to the line instead."""
    state = dict(flow.state)
    message = int(state.get("message") or 0)
    if not _still_named(ctx, state):
        ctx.service.finish_flow(ctx.chat_id, flow.message_id)
        raise Refusal("correct_moved", number=state["number"])
    booked = run_held(ctx, flow.message_id, state, message, repeat=False)
    return typed_answer(ctx, booked, message, "correct_done_typed")


cancel_by_typing(KIND, PREFIX, _kept, "correct_kept_typed", CORRECT_NO_WORDS)
confirm_by_typing(KIND, _typed_yes, (*CORRECT_YES_WORDS, *CORRECT_YES_WORDS_EN))
