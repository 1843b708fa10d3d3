"""Lines phones type without the space their spaced forms have, read as those forms.

碰胡: `我碰了摸的` (`我碰了 摸的`), `扫了扫了` (`扫了 扫了`), `碰了大鹏的` (`碰了 大鹏的`), also with `！！`,
and 点 glued to a seated name (`碰 点老王`: 碰 点 @老王) were silent or 「看不懂「点老王」」; a 碰胡 word glued to
anything else stays chat.
够级: a whole round told name first (`大刘头科 小王二科 …`, glued or spaced) was silent while `头科大刘 二科小王 …`
booked. Through the console, on SQLite and PostgreSQL."""

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
GOUJI = (
    "!admin ajie",
    "!join ajie 阿杰",
    "!join dl 大刘",
    "!join xw 小王",
    "!join pz 胖子",
    "!join eg 二哥",
    "!join lz 老赵",
    "ajie: 设置 游戏 够级",
    "ajie: 开桌 @dl @xw @pz @eg @lz",
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


@pytest.fixture
def gouji(db_url: str) -> Iterator[Table]:
    opened = _opened(db_url, GOUJI)
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


ROUND = "bot: 第1局 够级：头科 大刘、二科 小王、三科 胖子、四科 阿杰、二落 二哥、大落 老赵"


@pytest.mark.parametrize(
    "line",
    [
        "大刘头科 小王二科 胖子三科 阿杰四科 二哥二落 老赵大落",
        "大刘头科小王二科胖子三科阿杰四科二哥二落老赵大落",
        "大刘 头科 小王 二科 胖子 三科 阿杰 四科 二哥 二落 老赵 大落",
        "大刘头科 小王二科 胖子三科 阿杰四科 二哥二落 老赵大落！！",
        "头科大刘 二科小王 三科胖子 四科阿杰 二落二哥 大落老赵",
    ],
)
def test_gouji_round_told_name_first_is_booked(gouji: Table, line: str) -> None:
    assert gouji.say(f"ajie: {line}")[0] == ROUND


@pytest.mark.parametrize(
    "line",
    ["大刘头科 小王二科吗", "大刘头科 王哥二科 胖子三科 阿杰四科 二哥二落 老赵大落", "大刘头科 小王二科 厉害"],
)
def test_gouji_name_first_that_is_not_a_round_is_chat(gouji: Table, line: str) -> None:
    assert gouji.say(f"ajie: {line}") == []
