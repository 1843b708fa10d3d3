"""开桌 (open a table): seat the players, choose or draw the dealer, show the rules the table plays under."""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING

from bot.amounts import AmountError, parse_amount, unit_words
from bot.commands._common import (
    ME_WORDS,
    SEATS,
    account_named,
    follow_closed_night,
    guest_to_seat,
    marked_mention,
    me,
    member_of,
    mentioned_member,
    money,
    shown_names,
)
from bot.commands.dispute import refuse_while_contested
from bot.commands.payments import debts_text
from bot.commands.regional import refuse_while_waiting, waiting_status
from bot.commands.settle import hand_in_progress
from bot.core import Button, Context, Quiet, Refusal, SendText, registry
from bot.grammar import GrammarError, fold, name_key, parse_people, tokens
from bot.permissions import require_to_open
from bot.texts import game_name, joined, rules_summary
from bot.vocabulary import (
    COMMAND_WORDS,
    DEALER_AFTER_WORDS,
    GATHERING_WORDS,
    GATHERING_WORDS_EN,
    OPEN_SAID,
    PARTICLES,
    SEAT_ME_WORDS,
)
from ledger.accounts import MAX_NAME, person_part, reads_as
from ledger.errors import LedgerError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, NoReturn

    from ledger.service import MemberInfo, TableInfo

#: games whose tables have no dealer
DEALERLESS = frozenset({"gouji"})


#: settings a player may type after the seats, meaning them for this table (they are the group's: 设置); 台费 is
#: refused as a reserved name already
STAKE_WORDS = ("底金", "封顶", "抽水")


def _reads_as_a_stake(name: str, currency: str) -> bool:
    """A word at 开桌 that is an amount (`2`, `2块`, `两块`) or a setting (`底金2`, `底金`), not a guest's name;
    a name that merely starts with a digit (`8哥`) or is numerals alone (`一二三`) is a name."""
    if name.startswith(STAKE_WORDS):
        return True
    try:
        return parse_amount(name, currency) is not None
    except AmountError as err:  # `两块`: an amount in Chinese numerals, told by its unit
        return err.why == "amount_why_digits" and any(unit in name for unit in unit_words(currency))


@registry.command(
    "open",
    names=["open", "newtable"],
    aliases=COMMAND_WORDS["open"],
    help_zh="开桌：开桌 @甲 @乙 @丙 [庄 @甲 | 抽庄]（不在群里的客人直接写名字）"
    "｜ 开桌 @乙 @丙 我坐庄（加我：自己也坐）",
    help_en="open a table: open @a @b @c [dealer @a | random] (guests by plain name; open table … too) | open @b @c "
    "dealer me (you deal and sit)",
)
def open_table(ctx: Context) -> SendText:
    require_to_open(ctx)
    game = ctx.group.game  # a new table plays the group's game, whatever the table it replaces played
    needed = SEATS.get(game, 3)
    try:
        people, dealer_token, _draw = parse_people(ctx.args, needed)
    except GrammarError as err:
        raise Refusal(err.key, **err.params) from err
    people, dealer_token = _dealer_by_name(ctx, people, dealer_token)
    if ctx.word in OPEN_SAID and not (people and all(token.startswith("@") for token in people)):
        raise Quiet  # `开桌了`, `开桌了 快来`: said to the table, not asked of the bot
    for token in people:  # `开桌 @乙 @丙 底金2`: a stake typed where a guest's name goes seats no guest
        if not token.startswith("@") and _reads_as_a_stake(token, ctx.group.currency):
            raise Refusal("guest_name_is_a_stake", name=token, base=money(ctx.group.base, ctx.group.currency))
        if not token.startswith("@") and _reads_as_chat(token):  # `开桌 @乙 @丙 三缺一`: no guest named by a sentence
            raise Refusal("guest_name_is_chat", name=token)
    for first, second in itertools.pairwise(people):  # `开桌 @小李 阿 杰`: one name, spaced by a slip
        if _one_character(first) and _one_character(second):
            raise Refusal("guest_name_split", split=f"{first} {second}", joined=first + second)
    if len(people) > needed:  # before anyone is looked up or a guest created
        extra = people[needed]  # as typed (`@dapang`): nobody is looked up yet, and no bare username is a name
        raise Refusal("too_many_players", game=game_name(ctx.lang, game), seats=needed, extra=extra)
    for token in people:  # a guest's name the ledger would refuse, said in the chat's language before anything
        guest = " ".join(token.split())
        if not token.startswith("@") and len(guest) > MAX_NAME:
            raise Refusal("guest_name_too_long", limit=MAX_NAME, start=guest[:8], length=len(guest))
    # everything is checked before the ledger opens the table: a new guest is only a name until then (the ledger
    # creates it with the table), so a refused 开桌 changes nothing
    seated: list[MemberInfo | str] = []  # an account, or the name of a guest the ledger creates with the table
    for token in people:
        person = _person(ctx, token)
        if any(_key(p) == _key(person) for p in seated):
            raise Refusal("seated_twice", name=_shown(ctx, person))
        seated.append(person)
    if dealer_token is not None and dealer_token.startswith("@") and len(seated) < needed:
        named = _person(ctx, dealer_token)  # `@ajie坐庄`, `庄 @ajie`: the dealer sits down too (the sender: below)
        if _key(named) != me(ctx).id and all(_key(p) != _key(named) for p in seated):
            seated.append(named)
    quoted = ctx.incoming.reply_to if ctx.incoming else None
    if len(seated) < needed and quoted is not None and quoted.sender is not None and not quoted.sender.is_bot:
        replied = member_of(ctx, quoted.sender)
        if all(_key(p) != replied.id for p in seated):
            seated.append(replied)
    if len(seated) < needed:
        sender = member_of(ctx, ctx.sender)
        if all(_key(p) != sender.id for p in seated):
            seated.insert(0, sender)
    if len(seated) > needed:
        extra = _shown(ctx, seated[needed])
        raise Refusal("too_many_players", game=game_name(ctx.lang, game), seats=needed, extra=extra)
    if len(seated) < needed:
        example = " ".join(f"@{label}" for label in ctx.t("seat_labels").split()[:needed])  # one @ a seat
        raise Refusal(
            "too_few_players", game=game_name(ctx.lang, game), seats=needed, count=len(seated), example=example
        )
    dealer: MemberInfo | str | None = None
    drawn = False
    if game in DEALERLESS:
        pass  # 够级 has no dealer
    elif dealer_token is not None:
        dealer = _dealer_among(ctx, seated, dealer_token, needed)
    else:
        # 第一局随机定庄 (rules page): seeded by the message itself, so a redelivery draws the same dealer
        seed = f"{ctx.chat_id}:{ctx.incoming.message_id if ctx.incoming else 0}:{ctx.args}"
        dealer = random.Random(seed).choice(seated)
        drawn = True
    refuse_while_waiting(ctx, ctx.table, "waiting_action_open")
    refuse_while_contested(ctx, ctx.table, "dispute_refuse_open")
    before = ctx.service.current_night(ctx.chat_id)
    try:
        table = ctx.service.open_table(
            ctx.chat_id,
            [_seat(p) for p in seated],
            dealer=_seat(dealer) if dealer is not None else None,
            source=ctx.source,
            by=ctx.sender.user_id,
        )
    except LedgerError as err:  # the running table's hand has records: no new table, said as 开桌's refusal
        if err.code == "hand_in_progress" and ctx.table is not None:
            raise hand_in_progress(ctx, ctx.table, "open") from err
        raise
    if table.replayed:  # a redelivered update: the table was opened, and said so
        return ctx.reply("already_done")
    rules = rules_summary(ctx.lang, table.game, table.rules)
    opened = ctx.t(
        "table_opened" if table.game == "kawuxing" else "table_opened_other",
        game=game_name(ctx.lang, table.game) + (("，" if ctx.lang != "en" else ", ") + rules if rules else ""),
        base=money(table.base, ctx.group.currency),
        seats=joined(ctx.lang, (seat.name for seat in table.seats)),
        dealer=_dealer_part(ctx, table.dealer, drawn),
        number=table.hand_number,
    )
    if before is not None and before.id != table.night_id:
        follow_closed_night(ctx, before.id)  # the 日切 hour had passed: opening closed last night, post it
    guests = [p for p in seated if isinstance(p, str)]  # typed names nobody goes by: new guests, said so
    if guests:
        opened = f"{opened}\n{ctx.t('guest_seated', names=joined(ctx.lang, guests))}"
    debts = debts_text(ctx, [seat.member_id for seat in table.seats])
    if ctx.table is not None:  # the running table ends here: said, so nobody thinks its hands were lost
        replaced = ctx.table
        played = replaced.hand_number - 1
        shown = shown_names(ctx)  # as every reply names them now (a 名片 set since they sat down)
        seats = joined(ctx.lang, (shown.get(seat.member_id, seat.name) for seat in replaced.seats))
        ended = ctx.t("table_replaced" if played else "table_replaced_empty", seats=seats, hands=played)
        opened = f"{ended}\n{opened}"
    return SendText(
        f"{opened}\n{debts}" if debts else opened,
        buttons=table_buttons(ctx, table.id, table.game),
        reply_to=ctx.message_id,
    )


def _reads_as_chat(name: str) -> bool:
    """A word at 开桌 that people say while gathering a table (`三缺一`, `快来啊`, `come on`, `table` of `open
    table`) or that holds a dealer word (`坐庄阿杰`): never a guest's name (`阿杰坐庄` is read as the dealer before
    this)."""
    folded = name_key(name).rstrip("".join(PARTICLES))
    if folded.replace("’", "'").rstrip("!.~") in GATHERING_WORDS_EN:
        return True
    return folded in GATHERING_WORDS or any(word in folded for word in DEALER_AFTER_WORDS if len(word) > 1)


def _dealer_by_name(ctx: Context, people: list[str], dealer: str | None) -> tuple[list[str], str | None]:
    """`阿杰庄`: a word that is a group member's name with 庄 after it names the dealer (`grammar.parse_people` reads
    庄 glued after 我 and @mentions only: 庄 is a surname, and `小庄` a guest's name). Nothing changes when the
    dealer is named otherwise."""
    if dealer is not None:
        return people, dealer
    for token in people:
        head = token[:-1]
        if token.startswith("@") or not token.endswith("庄") or not head:
            continue
        try:
            known = ctx.service.find_member(ctx.chat_id, head) is not None
        except LedgerError:  # two members go by the name: still a member's, `_dealer_among` says which is unclear
            known = True
        if known:
            return [p for p in people if p is not token], head
    return people, dealer


def _one_character(token: str) -> bool:
    """A plain word of one Chinese character: half a name (`阿 杰`), never a guest beside another such."""
    return len(token) == 1 and "\u4e00" <= token <= "\u9fff"


def _person(ctx: Context, token: str) -> MemberInfo | str:
    """Whom a 开桌 word seats: an @mention's account, the sender for `我` (`加我`), else a guest's name."""
    if token in ME_WORDS:
        return member_of(ctx, ctx.sender)
    person = mentioned_member(ctx, token[1:]) if token.startswith("@") else guest_to_seat(ctx, token)
    if person is None:
        raise Refusal("unknown_player", name=token)
    return person


def _key(player: MemberInfo | str) -> int | str:
    """What tells players apart before the table is opened: an account's id, a new guest's name ignoring case."""
    return player.casefold() if isinstance(player, str) else player.id


def _seat(player: MemberInfo | str) -> int | str:
    """What the ledger seats: an account's id, or a new guest's name."""
    return player if isinstance(player, str) else player.id


def _shown(ctx: Context, player: MemberInfo | str) -> str:
    """A player as the replies name them: an account by `shown_names`, a new guest by the name typed."""
    return _shown_in(shown_names(ctx), player)


def _shown_in(shown: Mapping[int, str], player: MemberInfo | str) -> str:
    return player if isinstance(player, str) else shown.get(player.id, player.name)


def _dealer_account(ctx: Context, token: str) -> MemberInfo | None:
    """The account a dealer word names: an @mention's, or the account a plain name names (`account_named`:
    `老王坐庄` is the member shown as 老王, or as 老王-成员); None for a name nobody has."""
    return mentioned_member(ctx, token[1:]) if token.startswith("@") else account_named(ctx, token)


def _dealer_among(ctx: Context, seated: Sequence[MemberInfo | str], token: str, seats: int) -> MemberInfo | str:
    """庄's player among those seated, read like a name at the table: a mention Telegram marked is that account;
    otherwise a seated player's name as the replies show it (老王#2) or the person it names (老王 for 老王-成员),
    then (with `@`) a seated player's username, then the account the word names (`_dealer_account`)."""
    if token in ME_WORDS:  # `我坐庄`: the sender
        sender = member_of(ctx, ctx.sender)
        return next((p for p in seated if _key(p) == sender.id), None) or _not_seated(ctx, seated, sender, seats)
    bare = token.lstrip("@")
    key = name_key(bare)
    mention = token.startswith("@")
    hits: list[MemberInfo | str] = []
    if not (mention and marked_mention(ctx, bare)):
        shown = shown_names(ctx)
        hits = [p for p in seated if name_key(_shown_in(shown, p)) == key]
        if not hits and not mention:
            hits = [p for p in seated if person_part(_shown_in(shown, p)) == reads_as(bare)]
        if not hits and mention:
            hits = [p for p in seated if not isinstance(p, str) and p.username and name_key(p.username) == key]
    found = _dealer_account(ctx, token) if not hits else None
    if found is not None:
        hits = [p for p in seated if _key(p) == found.id]
    if len(hits) > 1:
        raise Refusal("ambiguous_mention", name=bare)
    return hits[0] if hits else _not_seated(ctx, seated, found or bare, seats)


def _not_seated(ctx: Context, seated: Sequence[MemberInfo | str], dealer: MemberInfo | str, seats: int) -> NoReturn:
    """The dealer named is nobody seated: named as the replies name them, and, when every seat was taken by
    others, said so (the dealer could not sit down too)."""
    shown = shown_names(ctx)
    name = _shown_in(shown, dealer)
    if len(seated) < seats:
        raise Refusal("dealer_not_seated", name=name)
    names = joined(ctx.lang, (_shown_in(shown, p) for p in seated))
    game = game_name(ctx.lang, ctx.group.game)
    raise Refusal("dealer_not_seated_full", name=name, game=game, seats=seats, names=names)


def _dealer_part(ctx: Context, dealer: str | None, drawn: bool) -> str:
    """`，庄家 甲（抽庄）`, or nothing for a game without a dealer."""
    if dealer is None:
        return ""
    return ctx.t("dealer_part", dealer=dealer, how=ctx.t("dealer_drawn" if drawn else "dealer_named"))


def _status_dealer(ctx: Context, dealer: str | None) -> str:
    return "" if dealer is None else ctx.t("dealer_status", dealer=dealer)


def _regional_lines(
    ctx: Context, table: TableInfo, events: Sequence[Mapping[str, Any]], waiting: Mapping[str, int]
) -> list[str]:
    """牌桌 under regional rules: each player's 漂 (this hand's, or 首局定漂's from the first hand, and those answered
    to a win still waiting: `waiting`), and what the table reports each hand."""
    from bot.commands._inputs import piao_of, table_piao, table_rules
    from bot.commands._stakes import piao_line, reports_summary

    told = {**piao_of(events), **waiting}
    if table_rules(table).piao == "first_hand" and table.hand_number > 1:
        told = {**table_piao(ctx, table), **told}
    lines = (piao_line(ctx, table.rules, told, table.players), reports_summary(ctx, table.rules, table.hand_number))
    return [line for line in lines if line]


#: a game's own lines under 牌桌's status: game -> (ctx, table) -> its lines (bot/games/gouji.py: the match score)
STATUS_LINES: dict[str, Callable[[Context, TableInfo], list[str]]] = {}
#: what a game's buttons hold of the hand, not booked yet, said in place of 「本局还没有记录」: game -> (ctx, table) ->
#: its lines, none when nothing waits (bot/games/gouji.py: the 名次 buttons half filled)
WAITING_LINES: dict[str, Callable[[Context, TableInfo], list[str]]] = {}


def table_buttons(ctx: Context, table_id: int, game: str) -> tuple[tuple[Button, ...], ...]:
    """The buttons under a table message: start a win or kong flow without typing (卡五星), and open the table in
    the Mini App when the bot has one."""
    from bot.webapp.links import mini_app_button

    rows: list[tuple[Button, ...]] = []
    if game == "kawuxing":
        rows.append((Button(ctx.t("btn_hu"), "hu:new"), Button(ctx.t("btn_gang"), "gang:new")))
    app = mini_app_button(ctx, table_id)
    if app is not None:
        rows.append((app,))
    return tuple(rows)


@registry.command(
    "table",
    names=["table"],
    aliases=COMMAND_WORDS["table"],
    help_zh="牌桌：看当前牌桌、第几局、庄家、亮倒、漂和本局已记的杠",
    help_en="the current table: hand number, dealer, ready (亮倒), piao (漂) and this hand's kongs so far",
)
def show_table(ctx: Context) -> SendText:
    from bot.commands._common import current_table
    from bot.texts import describe_event

    table = current_table(ctx)
    state = ctx.service.hand_state(table.id)
    events = [describe_event(ctx.lang, event, table.game, state.dealer) for event in state.events]
    lines = [
        ctx.t(
            "table_status",
            game=game_name(ctx.lang, table.game),
            seats=joined(ctx.lang, (seat.name for seat in table.seats)),
            number=state.number,
            dealer=_status_dealer(ctx, state.dealer),
            base=money(table.base, ctx.group.currency),
        )
    ]
    if state.liangdao:
        lines.append(ctx.t("liangdao_state", names=joined(ctx.lang, state.liangdao)))
    waiting: list[str] = []
    if table.game == "kawuxing":
        given, waiting = waiting_status(ctx, table)  # a win waiting for its 漂/马: what is answered, what it waits for
        lines += _regional_lines(ctx, table, state.events, given)
    if table.game in STATUS_LINES:
        lines += STATUS_LINES[table.game](ctx, table)
    if events:
        lines.append(ctx.t("hand_events", events=joined(ctx.lang, events, "；")))
    elif table.game in WAITING_LINES:
        waiting = WAITING_LINES[table.game](ctx, table)
    lines += waiting or ([] if events else [ctx.t("hand_empty")])
    return SendText("\n".join(lines), buttons=table_buttons(ctx, table.id, table.game))


@registry.command(
    "seat_me",
    names=["seatme"],
    aliases=sorted(SEAT_ME_WORDS),
    help_zh="我也来（加我、算我一个）：想上桌时，说怎么坐下（开桌时写上你：开桌 @甲 @乙 加我）",
    help_en="我也来 (count me in): how to get a seat (be named when the table opens: open @a @b me)",
    in_menu=False,
)
def seat_me(ctx: Context) -> SendText:
    """`我也来`, `加我一个` said alone: a seat comes only with 开桌 (a table's players are fixed), so the answer is how
    to be named at it, or that the table is full; `加我 微信` is chat."""
    if any(fold(word) not in SEAT_ME_WORDS for word in tokens(ctx.args)):
        raise Quiet
    table = ctx.table
    game = table.game if table is not None else ctx.group.game
    seats = SEATS.get(game, 3)
    if table is None:
        others = " ".join(f"@{label}" for label in ctx.t("seat_labels").split()[: seats - 1])
        return ctx.reply("seat_me_no_table", game=game_name(ctx.lang, game), seats=seats, others=others)
    shown = shown_names(ctx)
    names = joined(ctx.lang, (shown.get(seat.member_id, seat.name) for seat in table.seats))
    if table.seat_of_user(ctx.sender.user_id) is not None:
        return ctx.reply("seat_me_seated", names=names)
    return ctx.reply("seat_me_full", game=game_name(ctx.lang, game), seats=seats, names=names)
