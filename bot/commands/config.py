"""规则 (show the group's rules) and 设置 (admins change them): game, preset, options, base stake, language, 日切.

A change applies to tables opened afterwards; a running table keeps the rules it was opened with.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.commands import chat_options, duplicates, fees, payments
from bot.commands._common import money, setting_amount
from bot.commands._stakes import report_lines
from bot.core import Context, Refusal, SendText, registry
from bot.grammar import fold, in_digits, tokens
from bot.texts import game_name, joined, option_name, option_value, rules_summary, setting_name
from bot.vocabulary import COMMAND_WORDS
from ledger.service import GroupInfo

GAME_WORDS = {"卡五星": "kawuxing", "kawuxing": "kawuxing", "够级": "gouji", "gouji": "gouji"}
GAME_WORDS |= {"碰胡": "penghu", "penghu": "penghu"}
LANGUAGE_WORDS = {"zh": "zh", "中文": "zh", "汉语": "zh", "en": "en", "english": "en", "英文": "en", "英语": "en"}
YES = {"是", "开", "要", "yes", "on", "true", "1"}
NO = {"否", "关", "不", "不要", "no", "off", "false", "0"}
#: setting words -> the key `设置` changes
SETTING_WORDS = {
    "游戏": "game",
    "game": "game",
    "预设": "preset",
    "规则": "preset",
    "preset": "preset",
    "底金": "base",
    "底": "base",
    "base": "base",
    "stake": "base",
    "语言": "language",
    "language": "language",
    "lang": "language",
    "日切": "cutoff_hour",
    "cutoff": "cutoff_hour",
    "货币": "currency",
    "单位": "currency",
    "currency": "currency",
}
#: words a value is set by besides its key and the core's label (`choice_zh`): for values whose label is no word
#: one types (`8 倍封顶，双龙七对 16 倍`), and shorter ones the docs use (`亮倒自摸`)
VALUE_WORDS: dict[str, dict[str, str]] = {
    "cap": {"8倍封顶": "8_shuanglong_16", "8倍满和": "8", "满和": "8"},
    "draw_liangdao_penalty": {"第一个赔": "first", "每个赔": "each"},
    "maima": {"亮倒自摸": "liangdao_self_draw"},
}
#: `规则 预设` lists the presets
PRESET_WORDS = {"预设", "presets", "preset"}
#: the options `规则` always shows; the later ones only when a group plays them
ALWAYS_SHOWN = frozenset({"suits", "cap", "pihu_self_draw_only", "draw_liangdao_penalty", "big_hands"})


@registry.command(
    "rules",
    names=["rules"],
    aliases=COMMAND_WORDS["rules"],
    help_zh="规则：本群的游戏、规则预设和选项、底金、语言、日切时间",
    help_en="the group's game, rules preset and options, base stake, language and night cut-off",
)
def show_rules(ctx: Context) -> SendText:
    if ctx.args:
        if ctx.group.game == "kawuxing" and ctx.args.strip().lower() in PRESET_WORDS:
            return SendText(presets_text(ctx), reply_to=ctx.message_id)
        raise Refusal("rules_is_read_only")
    return SendText(rules_text(ctx, ctx.group), reply_to=ctx.message_id)


def _open_table_differs(ctx: Context, group: GroupInfo) -> list[str]:
    """A table keeps the game, rules and 底金 it was opened with: while one is open under others than the group's
    now (a 设置 since), the first line says what it still plays under and how to play the new ones at once."""
    table = ctx.table
    if table is None or (table.game, table.rules, table.base) == (group.game, group.rules, group.base):
        return []
    rules = _joined(ctx, rules_summary(ctx.lang, table.game, table.rules))
    base = money(table.base, group.currency)
    return [ctx.t("rules_open_table", game=game_name(ctx.lang, table.game), rules=rules, base=base)]


def presets_text(ctx: Context) -> str:
    """Every 卡五星 preset, the group's marked: `规则 预设`."""
    from ledger.scoring.kawuxing.rules import PRESETS

    current = str(ctx.group.rules.get("preset", "xiangyang"))
    lines = [ctx.t("rules_presets_head")]
    for preset in PRESETS.values():
        mark = ctx.t("rules_preset_current") if preset.key == current else ""
        description = preset.en if ctx.lang == "en" else preset.description
        lines.append(ctx.t("rules_preset_line", zh=preset.zh, key=preset.key, description=description, mark=mark))
    return "\n".join(lines)


def rules_text(ctx: Context, group: GroupInfo) -> str:
    lines = [*_open_table_differs(ctx, group)]
    lines += [
        ctx.t(
            "rules_show",
            game=game_name(ctx.lang, group.game),
            rules=_joined(ctx, rules_summary(ctx.lang, group.game, group.rules)),
            base=money(group.base, group.currency),
            language="中文" if group.language == "zh" else "English",
            cutoff=group.cutoff_hour,
            currency=group.currency,
        )
    ]
    if group.game == "kawuxing":
        from ledger.scoring.kawuxing.rules import OPTIONS, make_rules

        overrides = {k: v for k, v in group.rules.items() if k != "preset"}
        effective = make_rules(str(group.rules.get("preset", "xiangyang")), **overrides).as_json()
        for option in OPTIONS:
            value = effective[option.key]
            default = list(option.default) if isinstance(option.default, tuple) else option.default
            if option.key not in ALWAYS_SHOWN and value == default:
                continue
            shown = option_value(ctx.lang, option.key, value)
            lines.append(ctx.t("rules_option", name=option_name(ctx.lang, option.key), key=option.key, value=shown))
        lines += report_lines(ctx, make_rules(str(group.rules.get("preset", "xiangyang")), **overrides))
        lines.append(chat_options.describe(ctx))
        lines.append(duplicates.describe(ctx))
        lines.append(payments.describe(ctx))
        lines.append(fees.describe(ctx))
        lines.append(ctx.t("rules_how_to_change"))
    else:  # 够级 and 碰胡 have no rule options: only the settings every game has (and the table fees)
        lines.append(payments.describe(ctx))
        lines.append(fees.describe(ctx))
        lines.append(ctx.t("rules_how_to_change_other", game=game_name(ctx.lang, group.game)))
    return "\n".join(lines)


def _joined(ctx: Context, rules: str) -> str:
    return (", " if ctx.lang == "en" else "，") + rules if rules else ""


@cache
def _setting_names() -> tuple[str, ...]:
    """Every name `设置` takes a setting by (folded), longest first: a name typed glued to its value is cut there."""
    from ledger.scoring.kawuxing.rules import OPTIONS

    names = {*SETTING_WORDS, *(name for option in OPTIONS for name in (option.key, option.zh))}
    names |= chat_options.OPTION_WORDS | duplicates.OPTION_WORDS | payments.OPTION_WORDS | fees.OPTION_WORDS
    return tuple(sorted((fold(name) for name in names), key=len, reverse=True))


def _named_setting(folded: str) -> str | None:
    """The longest setting name a (folded) text starts with, when something follows it (`底金2`, `封顶不封顶`), else
    None (`底金` alone is no 底 of 金)."""
    name = next((name for name in _setting_names() if folded.startswith(name)), None)
    return name if name is not None and folded[len(name) :].strip() else None


def _glued_setting(after: str) -> bool:
    """`设置底金2`, `设置日切6`, `设置封顶不封顶`: 设置 glued to a setting's name and its value (`Command.glued`)."""
    return _named_setting(after) is not None


def _apart(items: list[str]) -> list[str]:
    """The setting's name typed glued to its value (`设置 底金2`) as two words: `底金`, `2`."""
    if not items or fold(items[0]) in _setting_names():
        return items
    name = _named_setting(fold(items[0]))
    return items if name is None else [items[0][: len(name)], items[0][len(name) :], *items[1:]]


@registry.command(
    "config",
    names=["config", "set"],
    aliases=COMMAND_WORDS["config"],
    help_zh=(
        "设置（管理员）：设置 底金 2 ｜ 设置 预设 shiyan ｜ 设置 封顶 none ｜ 设置 屁胡只能自摸 否 ｜ "
        "设置 荒庄亮倒赔付 each ｜ 设置 花色 筒万 ｜ 设置 明杠 蓄杠 ｜ 设置 重复间隔 90 ｜ 设置 并账 关 ｜ "
        "设置 语言 en ｜ 设置 日切 6 ｜ 设置 游戏 碰胡"
    ),
    help_en=(
        "change settings (admins; 设置): config base 2 | config preset shiyan | config cap none | "
        "config pihu_self_draw_only no | config draw_liangdao_penalty each | config suits ps | "
        "config minggang added | config double_entry 90 | config merge_debts off | config language en | "
        "config cutoff 6 | config game penghu"
    ),
    admin_only=True,
    glued=_glued_setting,
)
def configure(ctx: Context) -> SendText:
    items = _apart(tokens(ctx.args))
    if len(items) < 2:
        raise Refusal("config_usage" if ctx.group.game == "kawuxing" else "config_usage_other")
    word, values = items[0], items[1:]
    if fold(word) in chat_options.OPTION_WORDS:
        return chat_options.configure(ctx, word, values)
    if fold(word) in duplicates.OPTION_WORDS:
        return duplicates.configure(ctx, word, values)
    if fold(word) in payments.OPTION_WORDS:
        return payments.configure(ctx, word, values)
    if fold(word) in fees.OPTION_WORDS:
        return fees.configure(ctx, word, values)
    changes = _changes(ctx, word, values)
    if all(getattr(ctx.group, key) == value for key, value in changes.items()):  # nothing to book
        return SendText(ctx.t("config_unchanged") + "\n" + rules_text(ctx, ctx.group), reply_to=ctx.message_id)
    group = ctx.service.update_group(ctx.chat_id, source=ctx.source, by=ctx.sender.user_id, **changes)
    ctx.lang = group.language
    head = "config_changed_language" if "language" in changes else "config_changed"
    if "game" in changes and group.game == "kawuxing":  # the only game with rule options
        from ledger.hands import DEFAULT_RULES

        head = "config_game_default" if group.rules == DEFAULT_RULES[group.game] else "config_game_kept"
    return SendText(ctx.t(head) + "\n" + rules_text(ctx, group), reply_to=ctx.message_id)


def _changes(ctx: Context, word: str, values: list[str]) -> dict[str, Any]:
    key = SETTING_WORDS.get(word.lower())
    value = values[0]
    shown = setting_name(ctx.lang, word)  # as a refusal names it (`base stake (底金)`)
    if key == "game":
        game = GAME_WORDS.get(value.lower())
        if game is None:
            raise Refusal(
                "config_bad_value", setting=shown, value=value, allowed=joined(ctx.lang, _game_choices(ctx.lang))
            )
        return {"game": game}  # the ledger brings back the rules the group last played the game under
    if key == "base":
        from ledger.scoring.common import MAX_STAKE

        if len(values) > 1:  # `tokens` read `1,000` as `1` and `000`: the amount as typed, refused with why
            raw = ctx.args.strip()
            value = raw[len(word) :].strip() if raw.startswith(word) else " ".join(values)
        base = setting_amount(ctx, value, word)
        if base > MAX_STAKE:  # the scoring core would refuse every hand
            raise Refusal("config_bad_value", setting=shown, value=value, allowed=f"≤ {MAX_STAKE // 100}元")
        return {"base": base}
    if key == "language":
        language = LANGUAGE_WORDS.get(value.lower())
        if language is None:
            raise Refusal("config_bad_value", setting=shown, value=value, allowed=joined(ctx.lang, ["zh", "en"]))
        return {"language": language}
    if key == "cutoff_hour":
        hour = in_digits(value.removesuffix("点钟").removesuffix("点"))  # `设置 日切 5点`, `五点`: as it is said
        if not hour.isdigit() or not 0 <= int(hour) <= 23:
            raise Refusal("config_bad_value", setting=shown, value=value, allowed="0-23")
        return {"cutoff_hour": int(hour)}
    if key == "currency":
        from ledger.accounts import MAX_CURRENCY

        if len(value) > MAX_CURRENCY:
            most = ctx.t("chars_at_most", n=MAX_CURRENCY)
            raise Refusal("config_bad_value", setting=shown, value=value, allowed=most)
        return {"currency": value}
    return {"rules": _rules_change(ctx, word, key, values)}


def _rules_change(ctx: Context, word: str, key: str | None, values: list[str]) -> dict[str, Any]:
    """A new rules dict: the preset replaced (overrides kept), or one option overridden; checked by the core."""
    if ctx.group.game != "kawuxing":
        raise Refusal("config_unknown_other", word=word, game=game_name(ctx.lang, ctx.group.game))
    from bot.texts import scoring_reason
    from ledger.scoring.common import ScoringError
    from ledger.scoring.kawuxing.rules import OPTIONS, PRESETS, make_rules

    rules = dict(ctx.group.rules)
    shown = setting_name(ctx.lang, word)
    if key == "preset":
        preset = next((p.key for p in PRESETS.values() if values[0] in {p.key, p.zh}), None)
        if preset is None:
            allowed = joined(ctx.lang, [_both(ctx, p.key, p.zh) for p in PRESETS.values()])
            raise Refusal("config_bad_value", setting=shown, value=values[0], allowed=allowed)
        rules["preset"] = preset
    else:
        option = next((o for o in OPTIONS if word in {o.key, o.zh}), None)
        if option is None:
            raise Refusal("config_unknown", word=word)
        rules[option.key] = _option_value(ctx, option, word, values)
    try:
        make_rules(str(rules.get("preset", "xiangyang")), **{k: v for k, v in rules.items() if k != "preset"})
    except ScoringError as err:
        why = scoring_reason(ctx.lang, err) if ctx.lang == "en" else err.message  # Chinese: the core's words
        raise Refusal("config_bad_rules", message=why) from err
    return rules


def _option_value(ctx: Context, option: Any, word: str, values: list[str]) -> Any:
    shown = option_name(ctx.lang, option.key) if ctx.lang == "en" else word  # `a plain win (屁胡) only by self-draw`
    by_label = {str(label): choice for choice, label in option.choice_zh.items()}
    if isinstance(option.default, bool):
        if values[0].lower() in YES:
            return True
        if values[0].lower() in NO:
            return False
        allowed = "yes, no (是, 否)" if ctx.lang == "en" else joined(ctx.lang, ("是", "否"))
        raise Refusal("config_bad_value", setting=shown, value=values[0], allowed=allowed)
    if isinstance(option.default, tuple):
        picked: list[str] = []
        for value in values:
            for part in [value] if value in option.choices or value in by_label else list(value):
                choice = part if part in option.choices else by_label.get(part)
                if choice is None:
                    allowed = joined(ctx.lang, [_both(ctx, c, option.choice_zh.get(c, c)) for c in option.choices])
                    raise Refusal("config_bad_value", setting=shown, value=value, allowed=allowed)
                picked.append(choice)
        return picked
    if isinstance(option.default, int) and values[0].isdigit():
        number = int(values[0])
        if number not in option.choices:
            allowed = joined(ctx.lang, [str(c) for c in option.choices])
            raise Refusal("config_bad_value", setting=shown, value=values[0], allowed=allowed)
        return number
    words = _value_words(option)
    choice = values[0] if values[0] in option.choices else words.get(fold(values[0]).replace(" ", ""))
    if choice is None:
        listed = {c: next(w for w, value in words.items() if value == c) for c in option.choices}
        choices = (f"{c} ({w})" for c, w in listed.items()) if ctx.lang == "en" else listed.values()
        allowed = joined(ctx.lang, choices)
        raise Refusal("config_bad_value", setting=shown, value=values[0], allowed=allowed)
    return choice


def _game_choices(lang: str) -> list[str]:
    """The games a group may play, as 设置 游戏 takes them: `卡五星`; in English `kawuxing (卡五星)`."""
    games = {game: zh for zh, game in GAME_WORDS.items() if not zh.isascii()}
    return [f"{game} ({zh})" if lang == "en" else zh for game, zh in games.items()]


def _both(ctx: Context, key: str, zh: str) -> str:
    """A value by its key and its Chinese word: `shiyan（十堰）`, `shiyan (十堰)`."""
    return f"{key} ({zh})" if ctx.lang == "en" else f"{key}（{zh}）"


def _value_words(option: Any) -> dict[str, Any]:
    """The Chinese words that set each of an option's values, the one a refusal lists first: the bot's own
    (`VALUE_WORDS`), then the core's labels that are one word (spaces dropped)."""
    words: dict[str, Any] = dict(VALUE_WORDS.get(option.key, {}))
    for choice, label in option.choice_zh.items():
        typed = str(label).replace(" ", "")
        if not any(mark in typed for mark in "，（"):
            words.setdefault(typed, choice)
    return words
