"""What players read: refusals without the scoring contract's internals, a drawn hand that says who pays whom."""

from __future__ import annotations

import re

import bot.reports.texts  # noqa: F401  (registers the report texts)
from bot.core import load_plugins
from bot.texts import TEXTS, chat_message, text
from tests.bot.test_transcripts import replay

#: internals a player must never see: pointers into the request's events, the JSON contract's field names
INTERNALS = re.compile(r"第 ?\d+ ?个事件|events\[|\b(concealed|win_tile|melds|patterns|method|winner|chain)\b")


def test_the_cores_pointers_and_field_names_become_words() -> None:
    assert chat_message(
        "第 1 个事件，甲 的胡牌：有 0 组副露时手牌应为 13 张，这里是 14 张（concealed 不含胡的那张牌）"
    ) == ("甲 的胡牌：有 0 组副露时手牌应为 13 张，这里是 14 张（手牌不含胡的那张牌）")
    assert chat_message("第 3 个事件（直杠）的点杠者 from 不在座") == "直杠的点杠者 点炮的人不在座"
    assert chat_message("events[2]（peng）：这手牌已经结束") == "这手牌已经结束"


def test_refused_records_in_the_chat_show_no_internals(sqlite_url: str) -> None:
    script = [
        "!admin a",
        "a: 开桌 @a @b @c 庄 @a",
        "a: 胡 123p 5p 自摸",
        "a: 胡 1111p2222p3333p44p 5p 自摸",
        "a: 胡 123456789p1122s 3s 自摸",
        "a: 胡 123p456p789p11s99s 9s 点 @b",
        "a: 胡 卡五星 杠上开花",
        "a: 胡 卡五星 杠上炮 点 @b",
        "b: 亮倒",
        "b: 亮倒",
    ]
    out = replay(script, sqlite_url)
    refusals = [line for line in out if line.startswith("bot: 没有记录：")]
    assert len(refusals) >= 5
    assert not [line for line in out if INTERNALS.search(line)]


def test_a_drawn_hand_says_who_pays_whom(sqlite_url: str) -> None:
    script = ["!admin a", "a: 开桌 @a @b @c 庄 @a", "b: 亮倒", "c: 亮倒", "a: 荒庄"]  # the first 亮倒 pays
    script += ["a: 设置 荒庄亮倒赔付 each", "a: 开桌 @a @b @c 庄 @a", "b: 亮倒", "c: 亮倒", "a: 荒庄"]
    out = replay(script, sqlite_url)
    assert "bot: 荒庄；亮倒没胡的赔钱：b 赔 a 1元、c 1元" in out  # no kong: no 杠钱照算
    assert "bot: 荒庄；亮倒没胡的赔钱：b 赔 a 1元；c 赔 a 1元" in out


def test_penghu_refusals_name_commands_not_the_contracts_fields(sqlite_url: str) -> None:
    """Every 碰胡 refusal the core words in its contract (`from 不能是 null`, `请记 wufu`) reads in players' words."""
    script = ["!admin a", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a", "a: 小七对"]
    script += ["a: 扫 起手", "!clock +5s"] * 3 + ["a: 胡 摸 跑起", "a: 跑起"]  # 5 s apart: no resend of 起手扫
    script += ["b: 碰 点 @c", "!clock +15s"] * 5  # not a resend
    script += ["b: 五福 摸", "b: 报警", "b: 碰 摸", "b: 扫", "b: 过扫"]
    out = replay(script, sqlite_url)
    said = "\n".join(line for line in out if line.startswith("bot: "))
    for command in ("写 胡 点 @丙 跑起", "写 跑起 点 @丙", "先记 报警", "记 提蛇 起手", "先记 扫 起手", "记 五福 摸"):
        assert command in said
    assert not [line for line in out if re.search(r"\b(from|null|wufu|tishe|sao|baojing|at_deal)\b", line)]


#: a 碰胡 night whose transfers carry every reason the core pays (起手扫 and its netting, 起手提蛇, 碰, 扫, 过扫, 跑起,
#: 跑起胡, 跑起中庄, 五福, 提蛇, 中庄, 胡, 天胡 and the deal money it returns, 地胡, the two-提蛇 win, 小七对)
PENGHU_EVERY_REASON = ["!admin a", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a", "a: 扫 起手", "b: 扫 起手"]
PENGHU_EVERY_REASON += ["d: 提蛇 起手", "c: 碰 点 @d", "c: 扫", "b: 过扫", "b: 跑起 点 @a", "c: 胡 点 @b 跑起"]
PENGHU_EVERY_REASON += ["c: 碰 点 @a", "c: 胡 点 @b 中庄 跑起", "b: 碰 点 @a", "b: 碰 摸", "b: 扫", "!clock +15s"]
PENGHU_EVERY_REASON += ["b: 扫", "b: 报警", "b: 五福 摸", "a: 扫 起手", "c: 我天胡了", "d: 我地胡了", "c: 提蛇 起手"]
PENGHU_EVERY_REASON += ["c: 提蛇 起手", "b: 我小七对了", "a: 碰 摸", "a: 提蛇", "b: 中庄 自摸", "c: 胡 自摸"]


def test_penghu_details_name_every_reason_in_the_chats_language(sqlite_url: str) -> None:
    """明细 lists a 碰胡 night's reasons by name: a Chinese group never reads the core's key (`guosao`), an English
    one reads the English words."""
    ask = ["a: 明细", "a: 明细 @a", "a: 明细 @b", "a: 明细 @c", "a: 明细 @d"]
    out = replay([*PENGHU_EVERY_REASON, *ask, "a: 设置 语言 en", *ask], sqlite_url)
    chinese = [line.removeprefix("bot: ") for line in out[out.index("a: 明细") : out.index("a: 设置 语言 en")]]
    assert "　　第1局 过扫 +2元" in chinese
    assert not [line for line in chinese if re.search("[a-z_]{3,}", line)]
    english = out[out.index("a: 设置 语言 en") :]
    assert [line for line in english if "deal money returned" in line]
    # a core key leaking (`guo_sao`, `qishou`); a setting's English name after `config` is what to type
    assert not [line for line in english if re.search(r"(?<!config )\b[a-z]+_[a-z_]+\b|qishou", line)]


def test_english_counts_of_one_take_the_singular() -> None:
    assert text("en", "report_night_title", number=1, date="2026-01-10", hands=1) == "Night 1 · 2026-01-10 · 1 hand"
    assert text("en", "report_night_title", number=1, date="2026-01-10", hands=11).endswith("· 11 hands")
    assert text("en", "report_export_done", scope="night 3", hands=1, transfers=1).endswith("1 hand, 1 transfer")
    assert text("zh", "report_night_title", number=1, date="2026-01-10", hands=1).endswith("1局")


#: the punctuation of Chinese text; an English group's replies write ASCII punctuation
FULL_WIDTH = re.compile("[（）：，。；、]")


def test_english_replies_use_ascii_punctuation(sqlite_url: str) -> None:
    """Every English template, and what replies build around the templates (a 设置 amount's reason, a table's seats,
    the hand so far, 亮倒 lists, a held-back record's tiles, 查大叫's ready players), use ASCII punctuation."""
    load_plugins()
    assert not {key: v["en"] for key, v in TEXTS.items() if FULL_WIDTH.search(v.get("en", ""))}
    script = ["!admin a", "a: /config language en", "a: 设置 底金 1,5", "a: 设置 台费 2.345"]
    script += ["a: 开桌 @a @b @c 庄 @a", "b: 暗杠 7z", "a: 亮倒", "b: 亮倒", "a: 牌桌"]
    script += ["a: 胡 123p46p789s22s333s 5p 点 @c", "b: 胡 @a 123p46p789s22s333s 5p 点 @c"]
    script += ["a: 设置 查大叫 开", "a: 开桌 @a @b @c 庄 @a"] + [f"{who}: 荒庄 听 @b 清一色 @c 七对" for who in "ac"]
    out = replay(script, sqlite_url)
    assert not [line for line in out if line.startswith("bot: ") and FULL_WIDTH.search(line)]
    why = "a comma could be a thousands or a decimal separator: write 1000 or 1.5"
    assert f"bot: base stake (底金) cannot be “1,5”: write an amount like 2 or 0.5 ({why})" in out
    assert "bot: Seats: a, b, c" in out and "bot: Ready (亮倒) declared: a, b" in out
    assert (
        "bot: This hand so far: b concealed kong (暗杠) red dragon; a declares ready (亮倒); b declares ready (亮倒)"
        in out
    )
    assert any("a wins on c's discard (123p46p789s22s333s 5p)" in line for line in out)
    assert any("hand 1, drawn hand (荒庄; ready: b, c)" in line for line in out)


def test_english_lists_in_every_game_report_and_group_rule_use_ascii_punctuation(sqlite_url: str) -> None:
    """What replies list by `texts.joined` — 够级's places, 革命 and failed burns, 碰胡's counts and 报警, the night
    report's debts carried over, 群管设置's values, the rules editors, two penalties taken back at once, 收款码's apps
    — reads `a, b` in an English group, never `a、b`."""
    script = ["!admin a", "a: 设置 语言 en", "a: 群管设置", "a: 群管设置 ad_keywords 代开,加微信", "a: 群规编辑"]
    script += ["a: 设置 游戏 够级", "a: 开桌 @a @b @c @d @e @f", "a: 名次 a d c f 烧牌 e b", "a: 名次 革命 a d"]
    script += ["a: 名次 c a b d f 革命 e", "a: 名次 a b c", "a: 名次", "a: !press Revolution…", "a: !press a"]
    script += ["a: 历史"]
    script += ["a: 结算", "a: 设置 游戏 碰胡", "a: 开桌 @a @b @c @d 庄 @a", "b: 碰 点 @a", "b: 碰 摸", "b: 扫"]
    script += ["!clock +15s", "b: 扫", "b: 报警", "c: 碰 摸", "c: 扫", "!clock +15s", "c: 扫", "!clock +15s", "c: 扫"]
    script += ["c: 报警", "a: 牌桌", "b: 胡 点 @a", "a: 结算"]
    script += ["b: [photo AgACAgQbbb1] 收款码 微信", "b: [photo AgACAgQbbb2] 收款码 支付宝", "a: 收款码"]
    script += ["d: 1", "d: 2", "d: 3", "d: 4", "d: 5", "d: 6", "a: 撤销处罚 #1"]
    out = replay(script, sqlite_url)
    assert not [line for line in out if line.startswith("bot: ") and FULL_WIDTH.search(line)]
    assert "bot: Failed burns (烧牌失败): e, b" in out and "bot: Revolution (革命, sat out): a" in out
    assert any(
        line.endswith(
            "(Gouji 够级): void, nothing scores (a, d declared revolution (革命): a round with two or more is void)"
        )
        for line in out
    )
    assert (
        "bot: d, e, f missing: name all six (revolution (革命) players after revolution, failed burns (烧牌) after "
        "failed burn)."
        in out
    )
    assert any(line.startswith("bot: Hand 1: Went out: a, d, c, f; Failed burns (烧牌失败): e, b |") for line in out)
    assert "bot: Alarm (报警) called: b, c" in out and "bot: ✅ ad_keywords = 代开, 加微信" in out
    assert any(
        line.startswith("bot: Pongs (碰) and sweeps (扫) so far: b 4 (pong ×2, sweep ×2); c 4 (pong ×1, sweep ×3)")
        for line in out
    )
    assert "bot: (earlier debts netted in: d owed a 12元)" in out  # 结算 pays along 够级's 对头: one debt carried
    assert "bot: May change the rules: the owner" in out
    assert any(line.startswith("bot: Payment codes: b (WeChat, Alipay).") for line in out)
    assert any(line.startswith("bot: ↩️ Record #1, #2 cancelled (warning, fine, d).") for line in out)
