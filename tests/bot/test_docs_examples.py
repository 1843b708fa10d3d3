"""Every chat line the README and docs/ show is read by the bot: each `…` span that starts with a command is typed
at a table of its game (through the console, as the docs say) and must not be refused for its words. A refusal for
the situation (nobody has a kong yet, a name the group has never seen) is fine: the example shows how to write it.
Examples written to show a refusal or a question are listed below, with the reason."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.console import Console
from bot.core import Bot, ManualClock
from bot.grammar import split_command
from ledger.service import Ledger
from tests.bot.test_transcripts import replay

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: what the bot says when it could not read a line's words
UNREAD = ("看不懂", "用不到", "没看懂", "一个杠只写一张牌", "没有「", "cannot read", "console:")
#: examples that show the bot refusing or asking, on purpose
SHOWN_REFUSED = {
    "胡 清一涩 自摸": "shows the suggestion 「是不是：胡 清一色 自摸？」",
    "胡 清一色 自摸 运气好": "shows a word left out by the suggestion",
    "胡 清一涩 点 @阿杰": "shows a suggestion refused while a win waits",
    "暗杠 3s 好运": "shows the suggestion naming the word it leaves out",
    "暗杠 三条 都没用": "shows the suggestion leaving out a word whose closest guess would not fit",
    "win sevn pairs self-draw": "shows the suggestion naming the words it leaves out",
    "荒庄 清一色": "shows a word quoted back",
    "暗杠 3s 4s": "shows a kong naming two tiles refused",
    "暗杠 3s 亮倒": "shows a known word with no place quoted back, not guessed away",
    "暗杠 东风": "shows a wind (卡五星 has none) refused with why, not guessed away",
    "胡 清一涩自摸": "shows a run of words with an unreadable part refused, not guessed away",
    "胡 清一条龙 自摸": "shows a pattern's name the bot cannot read refused, never guessed as a lesser one",
    "胡 七 自摸": "shows a piece of a pattern's name that joins to none still asked about",
    "自摸": "shows a bare 自摸 asked about",
    "自摸了": "shows a bare 自摸 asked about",
    "自摸胡": "shows a bare 自摸 asked about",
    "设置 名字 值": "the form of a setting, not a line",
    "撤销 第N局": "the form of 撤销 with a hand's number, not a line",
    "撤销 最后": "shows 撤销 with words it does not take refused",
    "hu:²:w.0": "forged button data, not a line",
}


def examples() -> list[tuple[str, str]]:
    """(file, line) for every code span of the docs that a group would type: it starts with a command and is no
    template (`[…]`, `…`, `暗/蓄/加`) or code (`Kong(chained=True)`)."""
    clock = ManualClock()
    registry = Bot(None, clock=clock).registry  # type: ignore[arg-type]
    found: dict[str, str] = {}
    for path in DOCS:
        for span in re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8")):
            line = span.strip()
            templates = ("[", "…", "...", "<", "FILE", "URL", "=", "(")
            if any(mark in line for mark in templates) or "/" in line[1:] or line in found:
                continue
            if any(split_command(line, registry, game) for game in ("kawuxing", "gouji", "penghu")):
                found[line] = path.name
    return sorted((name, line) for line, name in found.items())


def test_the_docs_show_examples_of_every_game() -> None:
    lines = [line for _, line in examples()]
    assert len(lines) > 80
    assert {"胡 123p46p789s22s333s 5p 点 @小李", "名次 @a @d @c @f @b 革命 @e", "碰 点 @丙"} <= set(lines)


#: the examples are read in this many tests, each every SHARDS-th one: a thousand tables opened in one test
#: would keep one test worker busy long after the other ran out of tests
SHARDS = 8


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_example_in_the_docs_is_read(shard: int, sqlite_url: str) -> None:
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    bot = Bot(ledger, clock=clock)
    unread = []
    try:
        for chat, (name, line) in list(enumerate(examples(), start=1))[shard::SHARDS]:
            console = Console(bot, clock, chat_id=-2_000_000 - chat)
            game = (
                "gouji" if line.startswith(("名次", "排名", "出完")) else "penghu" if name == "games.md" else "kawuxing"
            )
            for setup in _table(game):
                console.feed(setup)
            said = console.feed(f"老王: {line}")
            if line not in SHOWN_REFUSED and any(word in text for text in said for word in UNREAD):
                unread.append(f"{name}: `{line}` → {said[:2]}")
    finally:
        ledger.close()
    assert unread == [], "\n".join(unread)


def _table(game: str) -> list[str]:
    seats = {"kawuxing": "@阿杰 @小李 @老王 庄 @阿杰", "gouji": "@a @b @c @d @e @f", "penghu": "@甲 @乙 @丙 @老王"}
    setting = {"kawuxing": [], "gouji": ["老王: 设置 游戏 够级"], "penghu": ["老王: 设置 游戏 碰胡"]}[game]
    return ["!admin 老王", *setting, f"老王: 开桌 {seats[game]}"]


@pytest.mark.parametrize("same", ["在吗", "在吗 ", "在吗"])
def test_the_repeat_rule_reads_the_same_text_as_docs_moderation_says(
    new_sqlite_url: Callable[[], str], same: str
) -> None:
    """docs/moderation.md: `在吗` and `在吗 ` are the same text, `在 吗` another."""
    script = ["!join c 小红-成员", "c: 在吗", "!clock +3s", "c: 在 吗", "!clock +3s", f"c: {same}", "!clock +3s"]
    out = replay([*script, "c: 在吗"], new_sqlite_url())
    assert not [line for line in out if "重复刷屏" in line]  # 在 吗 broke the run
    out = replay(
        ["!join c 小红-成员", "c: 在吗", "!clock +3s", f"c: {same}", "!clock +3s", "c: 在吗"],
        new_sqlite_url(),
    )
    assert [line for line in out if "重复刷屏" in line]
