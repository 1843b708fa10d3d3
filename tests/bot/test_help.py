"""帮助: a group gets a short overview for its game, a topic lists exactly its commands, every command is in one
topic, 帮助 全部 and a private chat get everything, 帮助 胡 one command; in English too."""

from __future__ import annotations

import pytest

from bot.commands.help import ALL, TOPICS
from bot.console import Console
from bot.core import Bot, ManualClock, load_plugins, registry
from bot.texts import text
from bot.vocabulary import HELP_TOPIC_WORDS
from ledger.accounts import GAME_NAMES
from tests.bot.test_docs_examples import UNREAD

#: the seats of a table of each game, named as the overview's examples name them
SEATS = {"kawuxing": "@甲 @乙 @丙 庄 @甲", "penghu": "@甲 @乙 @丙 @丁 庄 @甲", "gouji": "@甲 @乙 @丙 @丁 @戊 @己"}
GAME_WORDS = {"kawuxing": "卡五星", "penghu": "碰胡", "gouji": "够级"}


def chat(bot: tuple[Bot, ManualClock], game: str = "kawuxing", lang: str = "zh", chat_id: int = -1001) -> Console:
    """A group playing `game` in `lang`, whose admin 甲 asks."""
    console = Console(bot[0], bot[1], chat_id=chat_id)
    for line in ("!join 甲 甲", "!admin 甲", f"甲: 设置 游戏 {GAME_WORDS[game]}", f"甲: 设置 语言 {lang}"):
        console.feed(line)
    return console


def said(console: Console, line: str) -> list[str]:
    return [out.removeprefix("bot: ") for out in console.feed(f"甲: {line}")]


def names(lines: list[str]) -> list[str]:
    """The commands a help reply lists (`/open — …` lines), by their first Latin name."""
    return [line.split(" ", 1)[0] for line in lines if line.startswith("/")]


def game_commands(game: str) -> set[str]:
    load_plugins()
    return {f"/{c.names[0]}" for c in registry.commands.values() if not c.games or game in c.games}


def word(topic: str, lang: str) -> str:
    return next(w for w in HELP_TOPIC_WORDS[topic] if w.isascii() == (lang == "en"))


def test_every_command_belongs_to_exactly_one_topic() -> None:
    """A command added without a topic (or put in two) fails here: put its key in `bot.commands.help.TOPICS`."""
    load_plugins()
    placed = [key for keys in TOPICS.values() for key in keys]
    assert sorted(placed) == sorted(registry.commands)
    assert set(TOPICS) | {ALL} == set(HELP_TOPIC_WORDS)


def test_a_topic_word_that_is_a_command_names_a_topic_holding_that_command() -> None:
    """`帮助 算账` (算账 is 结算's word) lists the money topic: it holds 结算, so the command is still shown."""
    load_plugins()
    for topic, words in HELP_TOPIC_WORDS.items():
        for game in GAME_NAMES:
            for spelling in words:
                command = registry.lookup(spelling, game)
                assert command is None or command.key in TOPICS[topic], (spelling, game)


@pytest.mark.parametrize("game", sorted(GAME_NAMES))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_overview_is_short_and_names_every_topic(bot: tuple[Bot, ManualClock], game: str, lang: str) -> None:
    lines = said(chat(bot, game, lang), "帮助" if lang == "zh" else "help")
    assert 8 <= len(lines) <= 15
    assert names(lines) == []  # the night's lines, not the command list
    for topic in HELP_TOPIC_WORDS:
        assert any(line.startswith(f"{'帮助' if lang == 'zh' else 'help'} {word(topic, lang)} ") for line in lines)
    kong = "暗杠三条" if lang == "zh" else "concealed kong 3s"  # an English group's lines in its own words
    assert (kong in "\n".join(lines)) == (game == "kawuxing")  # the game's own recording lines
    round_line, pong_line = ("名次 @", "碰 点 @") if lang == "zh" else ("order @", "pong from @")
    assert (round_line in "\n".join(lines)) == (game == "gouji")
    assert (pong_line in "\n".join(lines)) == (game == "penghu")
    assert said(chat(bot, game, lang, chat_id=-1002), "/start") == lines  # /start in a group: the same


@pytest.mark.parametrize("game", sorted(GAME_NAMES))
def test_each_topic_lists_exactly_its_commands_of_the_game(bot: tuple[Bot, ManualClock], game: str) -> None:
    console = chat(bot, game)
    reached: list[str] = []
    for topic, keys in TOPICS.items():
        lines = said(console, f"帮助 {word(topic, 'zh')}")
        assert lines[0].startswith(f"【{word(topic, 'zh')}】")
        ours = [registry.commands[key] for key in keys]
        assert names(lines) == [f"/{c.names[0]}" for c in ours if not c.games or game in c.games]
        reached += names(lines)
    assert sorted(reached) == sorted(game_commands(game))  # each of the game's commands, in one topic


@pytest.mark.parametrize("game", sorted(GAME_NAMES))
def test_all_lists_every_command_of_the_game_topic_by_topic(bot: tuple[Bot, ManualClock], game: str) -> None:
    lines = said(chat(bot, game), "帮助 全部")
    assert lines[0].startswith("牌局记账")
    assert sorted(names(lines)) == sorted(game_commands(game))
    heads = [text("zh", "help_topic_head", word=word(t, "zh"), about=text("zh", f"help_about_{t}")) for t in TOPICS]
    assert [line for line in lines if line.startswith("【")] == heads
    assert ("牌的写法" in "\n".join(lines)) == (game == "kawuxing")  # tiles only where 胡 reads them
    assert names(lines)[:2] == ["/open", "/table"]  # a night's commands first, in the order a night uses them


def test_one_command_as_before(bot: tuple[Bot, ManualClock]) -> None:
    console = chat(bot)
    assert said(console, "帮助 胡") == [f"/hu — {registry.commands['hu'].help_zh}"]
    assert said(console, "/help 结算") == [f"/settle — {registry.commands['settle'].help_zh}"]
    assert said(chat(bot, "penghu", chat_id=-1002), "帮助 胡") == [f"/ph_hu — {registry.commands['penghu_hu'].help_zh}"]


def test_typed_as_players_type_it(bot: tuple[Bot, ManualClock]) -> None:
    """Glued (`帮助算账`), in traditional characters, with the bot's name, or in English words in a Chinese group."""
    console = chat(bot)
    money = said(console, "帮助 算账")
    assert names(money)[:2] == ["/balance", "/settle"]
    assert said(console, "帮助算账") == money
    assert said(console, "幫助 算賬") == money
    assert said(console, "/help@paiju_bot money") == money
    assert said(console, "帮助别人") == []  # chat, not a topic


def test_help_said_again_or_asked_is_the_overview(bot: tuple[Bot, ManualClock]) -> None:
    """`帮助帮助`, `帮助 帮助`, `help help` (a player asking louder) and `帮助？` get the overview `帮助` gets, not
    the help of 帮助 itself, nor silence; 帮助 glued to other words stays chat."""
    console = chat(bot)
    overview = said(console, "帮助")
    assert overview[0] == text("zh", "help_overview_head")
    for line in ("帮助帮助", "帮助 帮助", "帮助？", "帮助，帮助！", "/help 帮助", "帮助帮助帮助"):
        assert said(console, line) == overview, line
    assert said(console, "help help")[0] == text("en", "help_overview_head")  # written in English: answered so
    assert said(console, "帮助帮助别人") == []


def test_an_unknown_topic_is_refused_with_the_topics(bot: tuple[Bot, ManualClock]) -> None:
    assert said(chat(bot), "帮助 飞机") == [
        "没有「飞机」这个命令或话题。可以发 帮助 加：记牌、算账、查看、设置、群规、全部，或加一个命令（帮助 结算）。"
    ]
    assert said(chat(bot, lang="en", chat_id=-1002), "help plane") == [
        "No command or topic “plane”. Send help with one of: record, money, stats, settings, moderation, all; "
        "or with a command (help settle)."
    ]
    # a command of another game is no command here
    assert said(chat(bot, "gouji", chat_id=-1003), "帮助 碰")[0].startswith("没有「碰」这个命令或话题")


def test_english(bot: tuple[Bot, ManualClock]) -> None:
    console = chat(bot, lang="en")
    lines = said(console, "help money")
    assert lines[0] == "[money] paying, settling, details, who has not paid"
    assert lines[1] == f"/balance — {registry.commands['balance'].help_en}"
    assert said(console, "帮助 算账") == lines  # the Chinese words work in an English group
    assert said(console, "help 胡") == [f"/hu — {registry.commands['hu'].help_en}"]
    everything = said(console, "help all")
    assert everything[0].startswith("paiju keeps") and everything[-1].startswith("/modset")


def test_a_private_chat_gets_every_command(bot: tuple[Bot, ManualClock]) -> None:
    """No group to flood: /start (what Telegram sends first) and 帮助 list everything, with how to use the bot."""
    console = Console(bot[0], bot[1], chat_id=4242)  # Telegram: a private chat's id is its user's, positive
    console.feed("!admin 甲")  # as Telegram's adapter has it: in a private chat the user is their own admin
    start = [out.removeprefix("bot: ") for out in console.feed("甲: /start")]
    assert start[0] == text("zh", "help_private_head")
    assert sorted(names(start)) == sorted(game_commands("kawuxing"))
    assert [out.removeprefix("bot: ") for out in console.feed("甲: 帮助")] == start
    assert [out.removeprefix("bot: ") for out in console.feed("甲: 帮助 全部")][1:] == start[1:]
    assert [out.removeprefix("bot: ") for out in console.feed("甲: 帮助 胡")] == [
        f"/hu — {registry.commands['hu'].help_zh}"
    ]


@pytest.mark.parametrize("game", sorted(GAME_NAMES))
def test_the_overviews_examples_are_read(bot: tuple[Bot, ManualClock], game: str) -> None:
    """Each example the overview shows (split at ｜, up to ——), typed by 甲 at an open table of the game: a command
    whose words are all read (a refusal for the situation — nothing owed yet — is fine)."""
    overview = text("zh", f"help_night_{game}") + "\n" + text("zh", "help_overview_money")
    examples = [ex.strip() for line in overview.splitlines() for ex in line.split(" —— ")[0].split("｜")]
    unread = []
    for number, example in enumerate(examples):
        console = chat(bot, game, chat_id=-2000 - number)
        for member in "乙丙丁戊己":
            console.feed(f"!join {member} {member}")
        said(console, f"开桌 {SEATS[game]}")
        reply = said(console, example)
        if not reply or any(mark in out for out in reply for mark in UNREAD):
            unread.append(f"{example} → {reply[:2]}")
    assert unread == []
