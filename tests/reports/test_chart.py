"""The chart renderer on synthetic series: one line per player with the right data, a real PNG/PDF, CJK glyphs."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.reports.chart import ChartLabels, balance_figure, player_lines, report_figure, save
from bot.reports.fonts import cjk_font_family, cjk_font_path

LABELS = ChartLabels("第1晚 走势", "手数", "累计（元）")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a valid PNG has right after its signature."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def running(deltas: list[int]) -> list[int]:
    out = [0]
    for delta in deltas:
        out.append(out[-1] + delta)
    return out


names = st.text(alphabet="张李王赵钱孙ABCxyz", min_size=1, max_size=4)
series_strategy = st.integers(min_value=1, max_value=9).flatmap(
    lambda hands: st.dictionaries(
        names,
        st.lists(st.integers(-5000, 5000), min_size=hands, max_size=hands).map(running),
        min_size=1,
        max_size=6,
    )
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(series=series_strategy)
def test_one_line_per_player_with_its_running_balance_in_yuan(series: dict[str, list[int]]) -> None:
    fig = balance_figure(series, LABELS, "元")
    drawn = player_lines(fig)
    assert set(drawn) == set(series)
    for name, values in series.items():
        assert drawn[name] == [v / 100 for v in values]


def test_png_is_valid_and_sensibly_sized(tmp_path: Path) -> None:
    series = {"张三": running([200, -400, 800]), "李四": running([-100, 200, -400]), "王五": running([-100, 200, -400])}
    path = save(balance_figure(series, LABELS, "元"), tmp_path / "chart.png")
    width, height = png_size(path)
    assert (width, height) == (960, 540)
    assert 10_000 < path.stat().st_size < 1_000_000


def test_report_page_has_table_and_chart_and_writes_a_one_page_pdf(tmp_path: Path) -> None:
    series = {"张三": [0, 400, 1200], "李四": [0, -200, -400], "王五": [0, -200, -800]}
    rows = [["张三", "2", "+12.00元"], ["李四", "0", "-4.00元"], ["王五", "0", "-8.00元"]]
    fig = report_figure("第1晚 结算", ["玩家", "胡", "净"], rows, ["王五 → 张三 8.00元"], series, LABELS, "元")
    assert len(player_lines(fig)) == 3
    tables = [table for ax in fig.axes for table in ax.tables]
    cells = [cell.get_text().get_text() for table in tables for cell in table.get_celld().values()]
    assert sorted(cells) == sorted(["玩家", "胡", "净", *(text for row in rows for text in row)])
    pdf = save(fig, tmp_path / "night.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1
    assert b"NotoSansSC" in pdf  # the CJK font is embedded, so the PDF shows characters on any reader
    png = save(fig, tmp_path / "night.png")
    width, height = png_size(png)
    assert width == 1080 and height > 540


def test_unknown_suffix_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.png or \.pdf"):
        save(balance_figure({"A": [0, 1]}, LABELS, "元"), tmp_path / "chart.gif")


def test_cjk_font_ships_and_covers_the_report_words() -> None:
    from fontTools.ttLib import TTFont

    assert cjk_font_family() == "Noto Sans SC"
    with TTFont(str(cjk_font_path()), lazy=True) as font:
        cmap = font.getBestCmap()
    for char in "卡五星自摸点炮杠钱净胡红包池元走势手数累计":
        assert ord(char) in cmap, char


def test_chart_text_renders_with_the_cjk_font_not_a_fallback(tmp_path: Path) -> None:
    """matplotlib warns "Glyph … missing from font(s)" when a character would be a box; none may appear."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        save(balance_figure({"张三": [0, 100], "李四": [0, -100]}, LABELS, "元"), tmp_path / "c.png")
