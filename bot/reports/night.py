"""The night's settlement post: a table of the players (wins, 自摸, 点炮 given, kong money, biggest hand, net),
the fewest transfers, and a picture with that table and each player's running balance hand by hand.

`night_report(...)` builds it; the settle command sends `settle_post(ctx, closed)` (= `report.effects()`): one
photo with the post as its caption (Telegram) / `bot: [photo] path` and the caption's lines (console).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

from bot.commands._common import account_word, money
from bot.commands.details import settlement_buttons
from bot.core import Button, Context, Effect, SendPhoto, SendText
from bot.reports.chart import ChartLabels, report_figure, save
from bot.reports.files import report_dir
from bot.reports.stats import beside_play, net_parts, win_text
from bot.reports.texts import t
from bot.texts import joined
from bot.vocabulary import GOUJI_PLACE_EN
from ledger import scope as ledger_scope
from ledger import stats as ledger_stats
from ledger.models import GROUP_ACCOUNTS, GameTable, Night
from ledger.payments import pass_through
from ledger.scoring.gouji import PLACE_NAMES
from ledger.settlement import through_accounts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ledger.records import Payment
    from ledger.service import Ledger, NightClosed, Settlement
    from ledger.stats import MemberStats

#: Telegram's limit on a photo caption; a longer post goes as a text message before the photo
CAPTION_LIMIT = 1024
#: the table's columns between the player and the net that only 卡五星 nights have
_KAWUXING_COLUMNS = ("report_col_wins", "report_col_self_draws", "report_col_discards", "report_col_kong")
#: 够级 nights have their own: the rounds played, how often each place was taken (头科 … 大落), and who sat across
#: (对头: all of a player's 够级 money is with them)
_GOUJI_COLUMNS = ("report_col_rounds", *(f"report_col_{place}" for place in PLACE_NAMES), "report_col_duitou")


@dataclass(frozen=True)
class NightPost:
    """A night's post before it is written: the words, the table and the page's figure."""

    night_id: int
    group_id: int
    text: str  # the whole post
    caption: str  # what fits under a photo (the post itself when it is short enough)
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    series: dict[str, list[int]]  # each player's running balance (分) hand by hand, as drawn
    figure: Figure


@dataclass(frozen=True)
class NightReport:
    """The post for one night: `text` (the whole post), `caption` (what fits under the photo), `photo` (file)."""

    night_id: int
    text: str
    caption: str
    photo: Path

    def effects(self, reply_to: int | None = None, buttons: tuple[tuple[Button, ...], ...] = ()) -> list[Effect]:
        """What the chat gets: the photo with the post as its caption, or the post first when it is too long;
        `buttons` under the photo."""
        photo = SendPhoto(str(self.photo), self.caption, buttons=buttons)
        if self.text == self.caption:
            return [photo]
        return [SendText(self.text, reply_to=reply_to), photo]


def night_report(
    service: Ledger,
    night_id: int,
    *,
    lang: str = "zh",
    currency: str = "元",
    settlement: Settlement | None = None,
    out_dir: str | Path | None = None,
    fmt: str = "png",
) -> NightReport:
    """A night's post with its picture written to `out_dir` (see `report_dir`) as `night-<group>-<night>.png`.

    `settlement`: the one `end_night` returned (else the ledger's `settle_night`: what a settled night settled).
    `fmt` "pdf" writes a one-page PDF instead of a PNG."""
    post = night_post(service, night_id, lang=lang, currency=currency, settlement=settlement)
    photo = save(post.figure, report_dir(out_dir) / f"night-{post.group_id}-{night_id}.{fmt}")
    return NightReport(night_id, post.text, post.caption, photo)


def night_post(
    service: Ledger, night_id: int, *, lang: str = "zh", currency: str = "元", settlement: Settlement | None = None
) -> NightPost:
    """Build a night's post from the ledger's own queries (nothing written)."""
    if settlement is None:
        settlement = service.settle_night(night_id)
    with ledger_stats.reading(service.engine) as session:
        night = session.get_one(Night, night_id)
        number = ledger_scope.night_number(session, night)
        stats = ledger_stats.group_stats(session, ledger_scope.night_scope(session, night_id))
        running = ledger_stats.running_balance(session, night_id)
        group_id, night_date, settled = night.group_id, night.night_date.isoformat(), night.ended_at is not None
        games = set(session.scalars(sa.select(GameTable.game).where(GameTable.night_id == night_id)))
    # wins, 自摸, 点炮, kong money and the biggest hand are 卡五星 notions; a 够级 night has its places and 对头
    # instead; a night with a 碰胡 table, or of two games, shows each player's net only (its money is in the ledger
    # like any other)
    kawuxing_only = games <= {"kawuxing"}
    gouji_only = games == {"gouji"}
    names = {m.member_id: m.name for m in stats.members}

    # the night's money, what its settlement squares: 净 is every transfer (play, fines, fees, payouts booked
    # while the night was open), with the parts that are no play in their own columns
    players = sorted(
        (m for m in stats.members if m.played),
        key=lambda m: (-m.net, -m.wins, m.name, m.member_id),
    )
    # members whose money moved without a seat (fined, paid out by the pot): their own lines, never a player's row
    bystanders = [
        (m, beside)
        for m in sorted(stats.members, key=lambda m: (m.net, m.name, m.member_id))
        if not m.played and (beside := beside_play(m, lang, currency))
    ]
    with_fines = any(m.fines for m in players)
    with_fees = any(m.fees for m in players)  # table fees (台费, 抽水) paid to the house
    with_received = any(m.received for m in players)  # paid out by the pot or the house during the night
    column_keys = [
        "report_col_player",
        *(_KAWUXING_COLUMNS if kawuxing_only else _GOUJI_COLUMNS if gouji_only else ()),
        *(["report_col_fines"] if with_fines else []),
        *(["report_col_fees"] if with_fees else []),
        *(["report_col_received"] if with_received else []),
        *(["report_col_biggest"] if kawuxing_only else []),
        "report_col_net",
    ]
    header = [t(lang, key) for key in column_keys]
    rows = []
    title_key = "report_night_title" if settled else "report_night_title_open"  # 结算 only once it is settled
    lines = [t(lang, title_key, number=number, date=night_date, hands=stats.hands)]
    for member in players:
        net = money(member.net, currency, signed=True)
        fines = [money(member.fines, currency)] if with_fines else []
        fines += [money(member.fees, currency)] if with_fees else []
        fines += [money(member.received, currency)] if with_received else []
        if gouji_only:
            rows.append((member.name, *_gouji_cells(member, names), *fines, net))
            lines.append(_gouji_line(member, names, lang, net) + net_parts(member, lang, currency))
            continue
        if not kawuxing_only:
            rows.append((member.name, *fines, net))
            lines.append(
                t(lang, "report_night_line_plain", name=member.name, net=net) + net_parts(member, lang, currency)
            )
            continue
        biggest = win_text(member.biggest, lang) if member.biggest is not None else t(lang, "report_no_biggest")
        kong = money(member.kong_money, currency, signed=True)
        counts = (str(member.wins), str(member.self_draws), str(member.discards_given))
        rows.append((member.name, *counts, kong, *fines, biggest, net))
        lines.append(
            t(
                lang,
                "report_night_line",
                name=member.name,
                net=net,
                wins=member.wins,
                self_draws=member.self_draws,
                discards=member.discards_given,
                kong=kong,
                biggest=biggest,
            )
            + net_parts(member, lang, currency)
        )
    if stats.pot:
        lines.append(t(lang, "report_pot_line", amount=money(stats.pot, currency, signed=True)))
    if stats.house:
        lines.append(t(lang, "report_house_line", amount=money(stats.house, currency, signed=True)))
    for member, beside in bystanders:
        net = money(member.net, currency, signed=True)
        lines.append(t(lang, "report_bystander_line", name=member.name, net=net or "0", items=beside))
    transfer_lines, payout_lines = movers(settlement, lang, currency)
    # earlier debts among the players netted in (设置 并账)
    carried = joined(
        lang,
        (
            t(lang, "report_carried_item", debtor=d.payer, creditor=d.payee, amount=money(d.amount, currency))
            for d in settlement.carried
        ),
    )
    square = t(lang, "report_transfers_none_carried", debts=carried) if carried else t(lang, "report_transfers_none")
    if transfer_lines:
        lines.append(t(lang, "report_transfers_head", count=len(transfer_lines)))
        lines.extend(transfer_lines)
        if carried:
            lines.append(t(lang, "report_carried", debts=carried))
    elif not payout_lines:
        lines.append(square)  # square thanks to a debt carried in: said, not 「已两清」 as if the night alone were
    lines.extend(payout_lines)
    text = "\n".join(lines)

    series = {running.names[member_id]: values for member_id, values in running.series.items()}
    ordered = {m.name: series[m.name] for m in players if m.name in series}
    title = lines[0]
    labels = ChartLabels(
        t(lang, "report_chart_title", number=number, date=night_date),
        t(lang, "report_axis_hand"),
        t(lang, "report_axis_balance", currency=currency),
    )
    footer = [*transfer_lines, *payout_lines] or [square]
    figure = report_figure(title, header, rows, footer, ordered, labels, currency)
    caption = text if len(text) <= CAPTION_LIMIT else title
    return NightPost(night_id, group_id, text, caption, tuple(header), tuple(rows), ordered, figure)


def _gouji_cells(member: MemberStats, names: dict[int, str]) -> tuple[str, ...]:
    """A player's 够级 cells: rounds, each place's count (头科 … 大落), and their 对头 (`_GOUJI_COLUMNS`)."""
    duitou = "、".join(sorted(names.get(id_, str(id_)) for id_ in member.duitou)) or "—"
    return (str(member.rounds), *(str(member.places[place]) for place in PLACE_NAMES), duitou)


def _gouji_line(member: MemberStats, names: dict[int, str], lang: str, net: str) -> str:
    """A player's line of a 够级 night's post: net, rounds and the places taken (those taken only), 对头."""
    places = [
        t(lang, "report_gouji_place", place=GOUJI_PLACE_EN[place] if lang == "en" else place, count=count)
        for place in PLACE_NAMES
        if (count := member.places[place])
    ]
    duitou = joined(lang, sorted(names.get(id_, str(id_)) for id_ in member.duitou))
    return t(
        lang,
        "report_night_line_gouji",
        name=member.name,
        net=net,
        rounds=member.rounds,
        places=(", " if lang == "en" else " ").join(places) or t(lang, "report_no_biggest"),
        duitou=duitou or t(lang, "report_no_biggest"),
    )


def movers(settlement: Settlement, lang: str, currency: str) -> tuple[list[str], list[str]]:
    """The settlement's transfers as people hand money over (`ledger.settlement.through_accounts`), and what the
    pot or the house still pays out that nobody owes it yet. What someone owes the pot and what it paid out pass
    through it — 大鹏 fined, the pot paid 小李: 「大鹏 → 小李 4元（经红包池转来）」, as the payments post says —
    never 「红包池 → 小李」 as a transfer to make. A settled night's passes are the ones its settlement stored
    (earlier debts to the pot included); an open night's are the passes among its own lines, what 结算 will do."""
    accounts = {line.member_id for line in settlement.balances.lines if line.kind in GROUP_ACCOUNTS}
    lines = [(p.payer_id, p.payee_id, p.amount) for p in settlement.payments]
    names = {id_: name for p in (*settlement.payments, *settlement.passed) for id_, name in _sides(p)}
    if settlement.id is not None:
        passed = [(p.payer_id, p.payee_id, p.amount, p.via_id) for p in settlement.passed]
        names |= {p.via_id: p.via for p in settlement.passed}
    else:  # nothing stored yet: what would pass among the night's own lines
        debts = {(payer, payee): amount for payer, payee, amount in lines if {payer, payee} & accounts}
        passed = [(x, y, amount, pool) for x, y, amount, pool in pass_through(debts, sorted(accounts))]
    transfers, payouts = through_accounts(lines, passed, accounts)
    shown = [
        t(
            lang,
            "report_transfer_line",
            payer=account_word(lang, names[payer]),
            payee=account_word(lang, names[payee]),
            amount=money(amount, currency),
        )
        + (t(lang, "payments_line_via", via=account_word(lang, names[via])) if via is not None else "")
        for payer, payee, amount, via in transfers
    ]
    paid_out = [
        t(
            lang,
            "report_pool_payout",
            pool=account_word(lang, names[pool]),
            payee=names[payee],
            amount=money(amount, currency),
        )
        for pool, payee, amount in payouts
    ]
    return shown, paid_out


def _sides(payment: Payment) -> tuple[tuple[int, str], tuple[int, str]]:
    return (payment.payer_id, payment.payer), (payment.payee_id, payment.payee)


def settle_post(ctx: Context, closed: NightClosed) -> list[Effect]:
    """The settle command's reply once `end_night` has closed the night: the night's post as a photo with its
    caption (the settlement `end_night` stored, not a second computation)."""
    from bot.commands.payments import payment_post

    report = night_report(
        ctx.service, closed.night.id, lang=ctx.lang, currency=ctx.group.currency, settlement=closed.settlement
    )
    buttons = settlement_buttons(ctx, closed.night.id, closed.settlement)
    return [*report.effects(reply_to=ctx.message_id, buttons=buttons), *payment_post(ctx, closed.settlement)]
