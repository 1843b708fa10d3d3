"""设置 and 规则 as a group sees them: what a change keeps, and English groups reading English."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.console import Console
from bot.core import Bot, ManualClock
from bot.texts import TEXTS, option_name, option_value, text
from ledger.service import Ledger
from tests.bot.test_docs_examples import DOCS
from tests.bot.test_transcripts import replay

#: the rule lines of a 卡五星 group's 规则 (the options, after the group's line)
RULE_LINES = ("bot: 本群：", "bot: · ")


def rules_shown(out: list[str], after: int = -1) -> list[str]:
    """The rule lines of the last reply after script line `after` (its index in `out`)."""
    start = max(i for i, line in enumerate(out) if not line.startswith("bot: ")) if after < 0 else after
    return [line for line in out[start:] if line.startswith(RULE_LINES)]


def test_setting_the_game_the_group_plays_changes_nothing(sqlite_url: str) -> None:
    script = ["!admin boss", "boss: 设置 封顶 不封顶", "boss: 设置 屁胡只能自摸 否", "boss: 设置 游戏 卡五星"]
    out = replay(script, sqlite_url)
    assert out[out.index("boss: 设置 游戏 卡五星") + 1] == "bot: 本来就是这样，没有改动："
    assert "bot: 本群：卡五星，襄阳规则（不封顶），屁胡只能自摸：否" in rules_shown(out)
    assert "bot: · 封顶（cap）：不封顶" in rules_shown(out)


def test_a_round_trip_through_other_games_keeps_the_groups_kawuxing_rules(new_sqlite_url: Callable[[], str]) -> None:
    setup = ["!admin boss", "boss: 设置 预设 shiyan", "boss: 设置 封顶 不封顶", "boss: 设置 屁胡只能自摸 否"]
    setup += ["boss: 设置 花色 筒万"]
    before = replay([*setup, "boss: 规则"], new_sqlite_url())
    after = replay(
        [*setup, "boss: 设置 游戏 碰胡", "boss: 设置 游戏 够级", "boss: 设置 游戏 卡五星", "boss: 规则"],
        new_sqlite_url(),
    )
    assert rules_shown(after) == rules_shown(before)
    assert "bot: · 封顶（cap）：不封顶" in rules_shown(after)
    switched = after.index("boss: 设置 游戏 卡五星") + 1
    assert after[switched] == "bot: 已换游戏（新开的桌生效），规则用本群上次玩这个游戏时的："


def test_english_payment_texts_name_the_english_buttons() -> None:
    paid, received = text("en", "btn_paid", pair="").strip(), text("en", "btn_received", pair="").strip()
    assert not [key for key, versions in TEXTS.items() if re.search("「(已付|收到)」", versions.get("en", ""))]
    for key in ("payments_head", "payment_payer_button", "payment_payee_button"):
        assert f"“{paid}”" in text("en", key) and f"“{received}”" in text("en", key)
    assert f"“{received}”" in text("en", "payment_booked_by_payer")


#: `设置 …` spans of the docs that are forms, not lines (`设置 名字 值`)
SETTING_FORMS = {"设置 名字 值", "设置 重复间隔 N", "群管设置 名称 值"}
#: what the bot answers a setting it took
TAKEN = ("已修改", "已换游戏", "本来就是这样", "Changed", "台费已改", "好的", "✅")


def setting_examples() -> list[list[str]]:
    """Every `设置 名字 值` (and `群管设置 …`) the docs show, as the lines a group types: examples chained with
    ` + ` (`设置 漂 定漂` + `设置 漂数 2`) are typed in order."""
    found: list[list[str]] = []
    for path in DOCS:
        content = path.read_text(encoding="utf-8")
        for chain in re.finditer(r"`((?:群管)?设置 [^`\n]+)`((?:\s*\+\s*`[^`\n]+`)*)", content):
            lines = [chain.group(1), *re.findall(r"`([^`\n]+)`", chain.group(2))]
            if len(lines[-1].split()) >= 3 and "…" not in chain.group(0) and not set(lines) & SETTING_FORMS:
                found.append(lines)
    return found


def test_every_setting_the_docs_show_is_taken_in_a_fresh_group(sqlite_url: str) -> None:
    examples = setting_examples()
    assert ["设置 亮倒输家加倍 是", "设置 对亮翻番 是"] in examples and len(examples) > 40
    clock = ManualClock()
    ledger = Ledger.open(sqlite_url, clock=clock.now)
    refused = []
    try:
        for chat, lines in enumerate(examples, start=1):
            console = Console(Bot(ledger, clock=clock), clock, chat_id=-3_000_000 - chat)
            console.feed("!admin 老王")
            for line in lines:
                answer = console.feed(f"老王: {line}")[0].removeprefix("bot: ")
                if not answer.startswith(TAKEN):
                    refused.append(f"{lines}: {answer}")
    finally:
        ledger.close()
    assert refused == [], "\n".join(refused)


#: what an English reply must not show: Python values, internal keys, Chinese list and clause punctuation
#: a core key leaking (`double_entry` alone); after `config` it is the setting's English name, what to type
INTERNALS_EN = re.compile(r"\b(True|False|None)\b|(?<!config )\b[a-z]+_[a-z_]+\b|[a-z]=|[、；：]")


def test_every_rule_option_and_value_reads_as_english_words() -> None:
    from ledger.scoring.kawuxing.rules import OPTIONS

    for option in OPTIONS:
        assert not INTERNALS_EN.search(option_name("en", option.key)), option.key
        for choice in option.choices:
            shown = option_value("en", option.key, choice)
            assert shown != str(choice) or choice in option.choice_zh.values(), (option.key, choice)
            assert not INTERNALS_EN.search(shown), (option.key, choice, shown)


def test_an_english_groups_rules_settings_and_details_read_as_english(sqlite_url: str) -> None:
    script = ["!admin a", "!join Bob Bob", "!join Carl Carl", "a: 设置 语言 en", "a: 设置 封顶 none"]
    script += ["a: 设置 屁胡只能自摸 否", "a: 设置 花色 筒万", "a: 设置 荒庄亮倒赔付 each", "a: 设置 漂 定漂"]
    script += [
        "a: 设置 买马 亮倒自摸",
        "a: 设置 频道 全频道",
        "a: 设置 直杠喜钱 3",
        "a: 设置 屁胡只能自摸 也许",
        "a: 规则",
    ]
    script += ["a: 开桌 @a @Bob @Carl 庄 @a", "Bob: 亮倒", "a: 亮倒", "Carl: 胡 123p456p789p11m99m 9m 点 @Bob"]
    script += ["!clock +3m", "a: 胡 卡五星 自摸", "a: 明细", "a: 历史 1", "a: 设置 语言 en"]
    out = replay(script, sqlite_url)
    english = out[out.index("a: 设置 语言 en") :]  # the welcomes before it are Chinese
    said = [line for line in english if line.startswith("bot: ") and not line.startswith(("bot: [", "bot: Record:"))]
    assert [line for line in said if INTERNALS_EN.search(line)] == []
    for shown in (
        "bot: · cap (封顶): no cap",
        "bot: · a plain win (屁胡) only by self-draw: no",
        "bot: The last hand:",
    ):
        assert shown in said
    assert "bot: · suits (花色): dots (筒), characters (万)" in said and "bot: Seats: a, Bob, Carl" in said
    assert "bot: Ready (亮倒) declared: Bob, a" in said and "bot:   piao (漂) ×1 +2元, self-draw (自摸) ×1 +2元" in said
    assert "bot: Changed: the bot speaks English here now." in said and "bot: Already so: nothing changed." in said


def test_a_change_while_a_table_is_open_says_what_the_open_table_still_plays_under(sqlite_url: str) -> None:
    """A table keeps the rules and 底金 it was opened with: 设置 and 规则 say so while it is open under others (the
    players would otherwise read 底金 2 and be charged 1), and stop saying it once the table is opened again."""
    script = ["!admin a", "!join b 小李", "!join c 老王", "a: 开桌 @a @b @c", "a: 设置 底金 2", "a: 规则"]
    script += ["a: 开桌 @a @b @c", "a: 规则", "c: 胡 清一色 自摸"]
    out = replay(script, sqlite_url)
    warning = (
        "bot: ⚠️ 开着的这桌还按开桌时的规则打：卡五星，襄阳规则（8 倍封顶，双龙七对 16 倍），底金 1元；"
        "下面的新规则从下次开桌起算（现在就换：再开一次桌，开桌 @ 这桌的人，之前记的都算数）。"
    )
    changed, shown = out.index("a: 设置 底金 2"), out.index("a: 规则")
    assert out[changed + 1 : changed + 3] == ["bot: 已修改（新开的桌按新规则）：", warning]
    assert out[shown + 1] == warning
    second = len(out) - 1 - out[::-1].index("a: 规则")
    assert warning not in out[second:] and "bot: 老王 +16元（本晚 +16元）" in out[second:]  # 底金 2 now
