"""Lines phones type without the space their spaced forms have, read as those forms.

碰胡: `我碰了摸的` (`我碰了 摸的`), `扫了扫了` (`扫了 扫了`), `碰了大鹏的` (`碰了 大鹏的`), also with `！！`,
and 点 glued to a seated name (`碰 点老王`: 碰 点 @老王) were silent or 「看不懂「点老王」」; a 碰胡 word glued to
anything else stays chat. Through the console, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.test_recording_fixes import Table

PENGHU = (
    "!admin ajie",
    "!join ajie 阿杰",
    "!join dapeng 大鹏",
    "!join laowang 老王",
    "!join xiaoli 小李",
    "ajie: 设置 游戏 碰胡",
    "ajie: 开桌 @dapeng @laowang @xiaoli",
)


def _opened(db_url: str, seats: tuple[str, ...]) -> Table:
    opened = Table(db_url)
    opened.say(*seats)
    return opened


@pytest.fixture
def penghu(db_url: str) -> Iterator[Table]:
    opened = _opened(db_url, PENGHU)
    yield opened
    opened.ledger.close()


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("我碰了摸的", "第1局 记下：小李 碰（每人出）"),
        ("扫了扫了", "第1局 记下：小李 扫"),
        ("碰了大鹏的", "第1局 记下：小李 碰，点 大鹏（一人出）"),
        ("碰了大鹏的！！", "第1局 记下：小李 碰，点 大鹏（一人出）"),
        ("碰了大鹏点的", "第1局 记下：小李 碰，点 大鹏（一人出）"),
        ("碰 点老王", "第1局 记下：小李 碰，点 老王（一人出）"),
        ("碰 点大鹏", "第1局 记下：小李 碰，点 大鹏（一人出）"),
    ],
)
def test_penghu_glued_lines_read_as_spaced(penghu: Table, line: str, told: str) -> None:
    assert penghu.say(f"xiaoli: {line}")[0] == f"bot: {told}"


@pytest.mark.parametrize("line", ["碰了碰运气", "碰了你的", "扫了扫地", "碰了王哥的"])
def test_penghu_word_glued_to_anything_else_is_chat(penghu: Table, line: str) -> None:
    assert penghu.say(f"xiaoli: {line}") == []
