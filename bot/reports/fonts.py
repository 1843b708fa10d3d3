"""A font with Chinese glyphs for every chart, so labels never render as boxes (豆腐块).

The font ships with a PyPI dependency (`pylopdf-fonts-zh-cn`: Noto Sans SC, SIL OFL), so a machine with no
system CJK font — CI, a slim container — renders the same picture as a desktop.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any


def cjk_font_path() -> Path:
    """The Noto Sans SC file the charts use."""
    import pylopdf_fonts_zh_cn

    return Path(pylopdf_fonts_zh_cn.sans_path())


@cache
def cjk_font_family() -> str:
    """Register the CJK font with matplotlib once and return its family name ("Noto Sans SC")."""
    from matplotlib import font_manager

    path = cjk_font_path()
    font_manager.fontManager.addfont(str(path))
    name: str = font_manager.FontProperties(fname=str(path)).get_name()
    return name


def chart_rc() -> dict[Any, Any]:
    """matplotlib settings for a report: the CJK font first (it has Latin glyphs and U+2212 too)."""
    return {"font.family": [cjk_font_family(), "DejaVu Sans"]}
