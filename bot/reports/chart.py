"""Charts rendered headless (matplotlib's Agg canvas, no display, no pyplot global state).

`balance_figure` draws each player's running balance hand by hand (players with the same balances each shown:
`COPY_SHIFT`); `report_figure` puts a title, a table and such a chart on one page, which `save` writes as PNG or
as a one-page PDF. Tests inspect the figure's lines before saving: every player's line carries the gid
`player:<name>`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bot.commands._common import money
from bot.reports.files import written
from bot.reports.fonts import chart_rc

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Colour-blind-safe palette (Okabe-Ito); players beyond it reuse colours with another line style.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
LINE_STYLES = ("-", "--", "-.", ":")
PLAYER_GID = "player:"
#: how a player's line is drawn when an earlier one has exactly the same values (a 够级 team's three members get
#: the same money every round): the k-th copy is shifted k × this along the hands, dashed, with its own marker,
#: so each shows beside the one it would hide; the values it reads stay exact
COPY_SHIFT = 0.08
COPY_STYLES = ((0, (5, 2)), (0, (1.5, 1.5)), (0, (6, 2, 1.5, 2)))
COPY_MARKERS = ("s", "^", "D", "v", "P")


@dataclass(frozen=True)
class ChartLabels:
    """The words on a chart, in the chat's language."""

    title: str
    x_axis: str  # "局数" / "Hand"
    y_axis: str  # "累计（元）" / "Running total (元)"


def _style(index: int) -> tuple[str, str]:
    return PALETTE[index % len(PALETTE)], LINE_STYLES[(index // len(PALETTE)) % len(LINE_STYLES)]


def draw_balances(ax: Axes, series: Mapping[str, Sequence[int]], labels: ChartLabels, currency: str) -> None:
    """Each player's running balance (分, one value per point: start, after hand 1, …) as one line on `ax`,
    plotted in 元 (分 / 100) as the chat shows money."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    longest = max((len(values) for values in series.values()), default=0)
    ax.axhline(0, color="#999999", linewidth=0.8, zorder=1)
    drawn: dict[tuple[int, ...], int] = {}  # values -> how many players drawn along them so far
    for index, (name, values) in enumerate(series.items()):
        colour, line_style = _style(index)
        copy = drawn.get(tuple(values), 0)
        drawn[tuple(values)] = copy + 1
        marker = ("o" if not copy else COPY_MARKERS[(copy - 1) % len(COPY_MARKERS)]) if longest <= 40 else None
        final = values[-1] if values else 0
        ax.plot(
            [hand + copy * COPY_SHIFT for hand in range(len(values))],
            [v / 100 for v in values],
            color=colour,
            linestyle=COPY_STYLES[(copy - 1) % len(COPY_STYLES)] if copy else line_style,
            linewidth=2 if not copy else 1.6,
            marker=marker,
            markersize=3.5 if not copy else 4.5,
            label=f"{name}  {money(final, currency, signed=True)}",
            gid=f"{PLAYER_GID}{name}",
            zorder=3 + copy,
        )
    ax.set_title(labels.title)
    ax.set_xlabel(labels.x_axis)
    ax.set_ylabel(labels.y_axis)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:g}"))
    ax.set_xlim(-0.3, max(longest - 1, 1) + 0.3 + COPY_SHIFT * (max(drawn.values(), default=1) - 1))
    ax.grid(True, alpha=0.3)
    if series:
        ax.legend(loc="upper left", fontsize=9, frameon=True)


def player_lines(fig: Figure) -> dict[str, list[float]]:
    """The players' series drawn on a figure, by name (what a test or a reader of the chart sees)."""
    found: dict[str, list[float]] = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            gid = line.get_gid() or ""
            if gid.startswith(PLAYER_GID):
                found[gid[len(PLAYER_GID) :]] = [float(y) for y in np.asarray(line.get_ydata(), dtype=float)]
    return found


#: page geometry in inches: fixed margins keep the layout cheap (no constrained-layout pass over the table)
PAGE_WIDTH = 9.0
TITLE_BAND = 0.6
ROW_HEIGHT = 0.32
FOOTER_LINE = 0.28
CHART_HEIGHT = 4.2
CHART_MARGINS = (0.8, 0.25, 0.6, 0.45)  # left, right, bottom, top (axis labels and the chart's title)


def balance_figure(series: Mapping[str, Sequence[int]], labels: ChartLabels, currency: str) -> Figure:
    """A chart-only figure (the photo in the chat when there is no table to draw)."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context(chart_rc()):
        fig = Figure(figsize=(8, 4.5), dpi=120)
        fig.subplots_adjust(left=0.09, right=0.97, bottom=0.12, top=0.91)
        draw_balances(fig.add_subplot(), series, labels, currency)
    return fig


def report_figure(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    footer: Sequence[str],
    series: Mapping[str, Sequence[int]] | None,
    labels: ChartLabels | None,
    currency: str,
) -> Figure:
    """One page: a title, a table (`header` + `rows`), footer lines (e.g. the transfers) and, when `series` is
    given, the running-balance chart below. Sized to fit a phone screen and an A4-ish PDF page alike."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with_chart = series is not None and labels is not None
    table_height = ROW_HEIGHT * (len(rows) + 1) + FOOTER_LINE * len(footer)
    left, right, bottom, top = CHART_MARGINS
    chart_block = CHART_HEIGHT + bottom + top if with_chart else 0.0
    height = TITLE_BAND + table_height + 0.2 + chart_block
    with rc_context(chart_rc()):
        fig = Figure(figsize=(PAGE_WIDTH, height), dpi=120)
        fig.text(0.5, 1 - TITLE_BAND / 2 / height, title, fontsize=15, ha="center", va="center")
        table_ax = fig.add_axes(
            (0.3 / PAGE_WIDTH, (chart_block + 0.1) / height, 1 - 0.6 / PAGE_WIDTH, table_height / height)
        )
        _draw_table(table_ax, header, rows, footer)
        if series is not None and labels is not None:
            chart_ax = fig.add_axes(
                (left / PAGE_WIDTH, bottom / height, 1 - (left + right) / PAGE_WIDTH, CHART_HEIGHT / height)
            )
            draw_balances(chart_ax, series, labels, currency)
    return fig


def _draw_table(ax: Axes, header: Sequence[str], rows: Sequence[Sequence[str]], footer: Sequence[str]) -> None:
    """The table fills the top of `ax`, one unit per row; footer lines take 0.9 of a unit each below it."""
    from matplotlib.transforms import Bbox

    ax.axis("off")
    units = len(rows) + 1 + 0.9 * len(footer)
    footer_share = 0.9 * len(footer) / units
    if rows:
        table = ax.table(
            cellText=[list(row) for row in rows],
            colLabels=list(header),
            cellLoc="center",
            bbox=Bbox.from_bounds(0.0, footer_share, 1.0, 1.0 - footer_share),
        )
        table.auto_set_font_size(False)
        table.set_fontsize(10)
        widths = [max(_text_width(cell) for cell in column) + 2 for column in zip(header, *rows, strict=True)]
        for (row, col), cell in table.get_celld().items():
            cell.set_width(widths[col] / sum(widths))
            cell.set_edgecolor("#cccccc")
            if row == 0:
                cell.set_facecolor("#eef3f8")
    for index, line in enumerate(footer):
        y = footer_share * (len(footer) - index - 0.5) / len(footer)
        ax.text(0.0, y, line, fontsize=10, transform=ax.transAxes, va="center")


def _text_width(text: str) -> int:
    """Width in half-width columns: a CJK character is as wide as two Latin ones."""
    return sum(2 if ord(char) > 0x2E7F else 1 for char in text)


def save(fig: Figure, path: str | Path) -> Path:
    """Write the figure as PNG or PDF (by the suffix); a PDF is the figure as one page. Renamed into place
    when whole (`written`), so a second bot process sending the same night's picture never reads half a file."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in {".png", ".pdf"}:
        raise ValueError(f"unsupported report format {out.suffix!r}: use .png or .pdf")
    from matplotlib import rc_context

    with written(out, binary=True) as stream, rc_context(chart_rc()):
        fig.savefig(stream, format=suffix[1:], facecolor="white")
    return out
