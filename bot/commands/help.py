"""帮助 (help): a group gets a short overview — the night's few lines with a real example each, then the topics to ask
for (`帮助 算账`) — since every command at once floods a busy chat; a topic lists its own commands, `帮助 全部` (and
帮助 in a private chat, which floods nobody) all of them, `帮助 胡` one."""

from __future__ import annotations

import re

from bot.core import Command, Context, Quiet, Refusal, SendText, registry
from bot.grammar import fold, tokens
from bot.vocabulary import COMMAND_WORDS, HELP_ASKED_WORDS, HELP_TOPIC_WORDS

#: each topic's commands, in the order its reply lists them (a chat sees those of its game); every registered
#: command belongs to exactly one topic (tests/bot/test_help.py), so a new command needs its place here
TOPICS: dict[str, tuple[str, ...]] = {
    "record": (
        *("open", "table", "gang", "liangdao", "hu", "draw", "piao", "kan", "qiaba", "ma", "ready", "gouji_round"),
        "gouji_place",
        "gouji_mark",
        "gouji_card_passing",
        *("penghu_peng", "penghu_sao", "penghu_guosao", "penghu_paoqi", "penghu_tishe", "penghu_baojing"),
        *("penghu_wufu", "penghu_hu", "penghu_tianhu", "penghu_dihu", "penghu_xiaoqidui", "penghu_other_game"),
        *(
            "penghu_won_by_play",
            "penghu_draw",
            "undo",
            "correct",
            "undo_keep",
            "question_yes",
            "seat_me",
            "leave_table",
            "swap",
            "leave_agree",
            "leave_keep",
            "void_table",
            "dispute",
            "new_hand",
            "repeat_yes",
        ),
        "typed_press",
    ),
    "money": (
        *("balance", "settle", "close", "unsettle", "pay", "received", "unpay", "unpaid", "details", "qrcode"),
        *("qrremove", "fees", "payfees", "unpayfees"),
    ),
    "views": ("history", "gouji_match", "stats", "leaderboard", "h2h", "night_report", "export"),
    "settings": ("rules", "config", "alias", "link", "help"),
    "moderation": (
        *("mod_grouprules", "mod_flag", "mod_violations", "mod_pot", "mod_payout", "unpayout", "mod_warn"),
        *("mod_fine", "mod_kick", "mod_ban", "mod_unban", "mod_pardon", "mod_setrules", "mod_ruleseditor"),
        *("mod_ruleslog", "mod_modset"),
    ),
}
#: the topic word that lists every topic's commands
ALL = "all"
#: the command after whose help the way tiles are written is shown (卡五星's 胡, the command that reads hands)
TILES_AFTER = "hu"

_TOPIC_OF_WORD = {word: topic for topic, words in HELP_TOPIC_WORDS.items() for word in words}


#: 帮助 said again after itself (`帮助帮助`, `帮助 帮助`, `help help`): asked louder, the same question
_HELP_AGAIN = re.compile("(?:{})+".format("|".join(map(re.escape, (*COMMAND_WORDS["help"], "help")))))


def _help_again(args: str) -> bool:
    """Whether the words after 帮助 are only 帮助 again (`帮助 帮助`, `help help`, `帮助帮助`): the overview."""
    said = [word.lstrip("/") for word in tokens(fold(args))]
    return bool(said) and all(_HELP_AGAIN.fullmatch(word) for word in said)


def _topic_glued(rest: str) -> bool:
    """`帮助算账`: a topic word typed glued to 帮助; `帮助帮助`: 帮助 again."""
    return rest.startswith(tuple(_TOPIC_OF_WORD)) or _help_again(rest)


@registry.command(
    "help",
    names=["help", "start"],
    aliases=COMMAND_WORDS["help"],
    help_zh="帮助：常用的几句；帮助 算账 看一类，帮助 全部 看所有命令，帮助 胡 只看一个",
    help_en="the usual lines; help money for one topic, help all for every command, help 胡 for one",
    glued=_topic_glued,
)
def help_(ctx: Context) -> SendText:
    if ctx.args and ctx.word in HELP_ASKED_WORDS:
        raise Quiet  # `这个机器人怎么用 我也不知道`: a sentence going on, not a topic asked
    if not ctx.args or _help_again(ctx.args):
        lines = [ctx.t("help_private_head"), *_everything(ctx)] if _private(ctx) else _overview(ctx)
        return SendText("\n".join(lines), reply_to=ctx.message_id)
    word = fold(tokens(ctx.args)[0].lstrip("/"))
    topic = _TOPIC_OF_WORD.get(word)
    if topic == ALL:
        return SendText("\n".join([ctx.t("help_head"), *_everything(ctx)]), reply_to=ctx.message_id)
    if topic is not None:
        return SendText("\n".join(_topic(ctx, topic)), reply_to=ctx.message_id)
    command = _named(ctx, tokens(ctx.args))
    if command is None:
        topics = (", " if ctx.lang == "en" else "、").join(_word(topic, ctx.lang) for topic in HELP_TOPIC_WORDS)
        raise Refusal("help_unknown", word=word, topics=topics)
    return SendText(_line(command, ctx.lang), reply_to=ctx.message_id)


def _named(ctx: Context, said: list[str]) -> Command | None:
    """The command the words after 帮助 name, its longest word first (`help pay table fee`, `help 胡`)."""
    for count in range(len(said), 0, -1):
        command = ctx.bot.registry.lookup(fold(" ".join(said[:count]).lstrip("/")), ctx.game)
        if command is not None:
            return command
    return None


def _private(ctx: Context) -> bool:
    """A chat with the bot alone: Telegram gives private chats the user's own (positive) id, groups negative ones."""
    return ctx.chat_id > 0


def _overview(ctx: Context) -> list[str]:
    """What a group gets for 帮助: the night's lines for its game, then a line per topic."""
    lines = [ctx.t("help_overview_head"), ctx.t(f"help_night_{ctx.game}"), ctx.t("help_overview_money")]
    for topic in TOPICS:
        lines.append(ctx.t("help_topic_line", word=_word(topic, ctx.lang), about=ctx.t(f"help_about_{topic}")))
    lines.append(ctx.t("help_overview_tail", all=_word(ALL, ctx.lang)))
    return lines


def _topic(ctx: Context, topic: str) -> list[str]:
    """A topic's head, then the help of each of its commands the chat's game has."""
    lines = [ctx.t("help_topic_head", word=_word(topic, ctx.lang), about=ctx.t(f"help_about_{topic}"))]
    for command in _commands(ctx, topic):
        lines.append(_line(command, ctx.lang))
        if command.key == TILES_AFTER:
            lines.append(ctx.t("help_tail"))
    return lines


def _everything(ctx: Context) -> list[str]:
    """帮助 全部 (and 帮助 in a private chat): every topic in turn."""
    return [line for topic in TOPICS for line in _topic(ctx, topic)]


def _commands(ctx: Context, topic: str) -> list[Command]:
    """The topic's registered commands for the chat's game (a plugin not loaded has none)."""
    found = (ctx.bot.registry.commands.get(key) for key in TOPICS[topic])
    return [c for c in found if c is not None and (not c.games or ctx.game in c.games)]


def _word(topic: str, lang: str) -> str:
    """The word the help in `lang` names a topic by: its first Latin word in English, else its first Chinese."""
    return next(word for word in HELP_TOPIC_WORDS[topic] if word.isascii() == (lang == "en"))


def _line(command: Command, lang: str) -> str:
    return f"/{command.names[0]} — {command.help(lang)}"
