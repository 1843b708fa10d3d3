"""The report commands through the console (the same command layer the Telegram group gets)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.console import Console, open_bot
from bot.core import ManualClock
from ledger import models as m
from ledger.stats import reading
from tests.reports.test_chart import PNG_SIGNATURE

#: one night: a 直杠 (xiaoli on laowang's discard), laowang's 卡五星 on xiaoli's discard, ajie's 清一色七对 自摸,
#: a draw; then settled. Balances: ajie +16元, laowang −8元 −2元 +2元 = −8元, xiaoli +2元 −2元 −8元 = −8元.
NIGHT = [
    "!admin laowang",
    "laowang: 开桌 @laowang @xiaoli @ajie 庄 @laowang",
    "xiaoli: 直杠 9p 点 @laowang",
    "laowang: 胡 123p46p789s22s333s 5p 点 @xiaoli",
    "!clock +3m",
    "ajie: 胡 清一色 七对 自摸",
    "!clock +3m",
    "laowang: 荒庄",
    "laowang: 结算",
]


@pytest.fixture
def chat(sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Console]:
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path / "reports"))
    clock = ManualClock()
    bot, ledger = open_bot(sqlite_url, clock)
    console = Console(bot, clock)
    for line in NIGHT:
        console.feed(line)
    yield console
    ledger.close()


def said(chat: Console, line: str) -> list[str]:
    return [printed.removeprefix("bot: ") for printed in chat.feed(line)]


def photo_of(lines: list[str]) -> Path:
    path = Path(lines[0].removeprefix("[photo] "))
    assert lines[0].startswith("[photo] ") and path.read_bytes()[:8] == PNG_SIGNATURE
    return path


def test_group_stats_for_this_month(chat: Console) -> None:
    lines = said(chat, "xiaoli: 统计")
    assert lines[0] == "📊 本群 · 2026年1月"
    assert lines[1] == "共 3局（荒庄 1）｜胡 2｜自摸 1｜杠钱 2元"  # no fine, no fee: neither said, as 0
    assert lines[2] == "最大一手：清一色、七对 → ×8（ajie，2026-01-10 第2局，+16元）"
    assert "ajie +16元｜3局 胡1（33.3%）点炮0" in lines


def test_member_stats_with_me_and_a_period(chat: Console) -> None:
    lines = said(chat, "xiaoli: 统计 我 今晚")
    assert lines == [
        "📊 xiaoli · 第1晚（2026-01-10）",
        "对局 3局｜胡 0（0.0%）｜自摸 0（占胡 0.0%）",
        "点炮 1（33.3%）",
        "番型：—",
        "杠钱 +2元｜净 -8元（牌桌输赢）",
        "总输赢 -8元｜未结（付款之后现在还差）：-8元",
    ]
    laowang = said(chat, "xiaoli: 统计 @laowang 全部")
    assert "平均倍数 ×2｜最大 ×2" in laowang and laowang[-2] == "杠钱 -2元｜净 -8元（牌桌输赢）"


def test_leaderboard_is_a_photo_with_the_ranking_as_caption(chat: Console) -> None:
    lines = said(chat, "ajie: 排行 本月")
    photo_of(lines)
    assert lines[1:] == [
        "🏆 排行榜 · 2026年1月",
        "🥇 ajie +16元｜3局 胡1（33.3%）",
        "🥈 laowang -8元｜3局 胡1（33.3%）",
        "🥉 xiaoli -8元｜3局 胡0（0.0%）",
    ]


def test_head_to_head_all_and_one_pair(chat: Console) -> None:
    lines = said(chat, "ajie: 对战")
    assert lines[0] == "⚔️ 对战 · 全部"
    assert "ajie 赢 laowang：胡1次，净 +8元" in lines and "ajie 赢 xiaoli：胡1次，净 +8元" in lines
    assert said(chat, "ajie: 对战 @xiaoli @laowang") == [
        "⚔️ xiaoli 对 laowang · 全部",
        "xiaoli 胡 laowang 0次，laowang 胡 xiaoli 1次｜xiaoli 净 0",  # 直杠 +2元 back, 卡五星 −2元
    ]


def test_night_summary_picture_on_request(chat: Console) -> None:
    lines = said(chat, "ajie: 战报")
    photo_of(lines)
    assert lines[1] == "第1晚结算 · 2026-01-10 · 3局"
    assert lines[2] == "ajie +16元｜胡1 自摸1 点炮0 杠0｜最大 清一色、七对 → ×8"
    assert lines[-2:] == ["laowang → ajie 8元", "xiaoli → ajie 8元"] or lines[-2:] == [
        "xiaoli → ajie 8元",
        "laowang → ajie 8元",
    ]


def test_bad_words_are_refused_clearly(chat: Console) -> None:
    assert said(chat, "ajie: 统计 明年") == [
        "看不懂“明年”：既不是本群成员，也不是时间段（今晚/本周/本月/上月/全部，或 2026-01 这样的月份）。"
    ]
    assert said(chat, "ajie: 统计 2026-13") == ["没有“2026-13”这个月份：月份写成 2026-01 这样（1 到 12 月）。"]
    assert said(chat, "ajie: 对战 @xiaoli") == ["用法：对战 [时间段]，或 对战 @甲 @乙 [时间段]"]
    assert said(chat, "ajie: 导出 csv json") == ["用法：导出 [今晚/本周/本月/全部/2026-01] [csv/json]"]
    assert said(chat, "ajie: 统计 2025-03") == ["2025年3月还没有记录。"]


def test_english_chat_gets_english_reports(chat: Console) -> None:
    chat.feed("laowang: /config language en")
    lines = said(chat, "ajie: stats me month")
    assert lines[0] == "📊 ajie · 2026-01"
    assert lines[-2:] == [
        "Kong money 0 | net +16元 (at the table)",
        "All-time result (总输赢) +16元 | owed now (未结) +16元",
    ]


def test_english_reports_name_patterns_as_every_english_reply_does(chat: Console) -> None:
    """An English group reads a pattern by the name its record reply gave it (`one suit (清一色)`), never the Chinese
    name alone, in the night's post, 统计 and 排行; several patterns are listed as the record lists them, the hand's
    multiple after them (was `清一色×七对 ×8`, as if multiplied together)."""
    chat.feed("laowang: /config language en")
    night = said(chat, "ajie: report")
    assert (
        night[2]
        == "ajie +16元 | wins 1, self-drawn 1, dealt in 0, kong 0 | best one suit (清一色), seven pairs (七对) → ×8"
    )
    assert "laowang -8元 | wins 1, self-drawn 0, dealt in 0, kong -2元 | best closed five (卡五星) → ×2" in night
    group = said(chat, "ajie: stats")
    assert group[2] == "Biggest hand: one suit (清一色), seven pairs (七对) → ×8 (ajie, 2026-01-10 hand 2, +16元)"
    assert group[3] == "Patterns: closed five (卡五星) 1 · seven pairs (七对) 1 · one suit (清一色) 1"
    mine = said(chat, "ajie: stats me month")
    assert "Patterns: seven pairs (七对) 1 · one suit (清一色) 1" in mine
    assert not any("清一色×" in line or "best 清一色" in line for line in [*night, *group, *mine])


def test_a_plain_win_is_named_as_the_record_reply_names_it(chat: Console) -> None:
    chat.feed("!clock +3m")
    chat.feed("laowang: 开桌 @laowang @xiaoli @ajie 庄 @laowang")
    chat.feed("xiaoli: 胡 屁胡 自摸")
    assert "最大一手：屁胡 → ×1" in "\n".join(said(chat, "xiaoli: 统计 我 今晚"))
    chat.feed("laowang: /config language en")
    assert "Biggest hand: plain win (屁胡) → ×1" in "\n".join(said(chat, "xiaoli: stats me night"))


def ledger_rows(chat: Console) -> list[dict[str, Any]]:
    """Every transfer of the chat's group as the ledger holds it, named like the export names accounts."""
    with reading(chat.bot.service.engine) as session:
        names = {
            member.id: "pot" if member.kind == m.POT else member.display_name
            for member in session.scalars(sa.select(m.Member))
        }
        return [
            {
                "id": t.id,
                "from": names[t.payer_id],
                "to": names[t.payee_id],
                "amount": t.amount,
                "reason": t.reason,
                "hand": t.hand_id,
                "voided": t.voided_at is not None,
                "kind": t.kind,
            }
            for t in session.scalars(sa.select(m.Transfer).order_by(m.Transfer.id))
        ]


def test_export_csv_round_trip_equals_the_ledger_rows(chat: Console) -> None:
    assert "xiaoli" in "".join(chat.feed("laowang: 罚款 @xiaoli 5 刷屏"))  # a fine: the pot's row is exported too
    lines = said(chat, "laowang: 导出 全部 csv")
    assert lines[0].startswith("[file] ") and lines[0].endswith(".csv")
    assert lines[1].startswith("已导出 全部：3局，")
    path = Path(lines[0].removeprefix("[file] "))
    with path.open(encoding="utf-8", newline="") as handle:
        exported = [
            {
                "id": int(row["id"]),
                "from": row["from"],
                "to": row["to"],
                "amount": int(row["amount"]),
                "reason": row["reason"],
                "hand": int(row["hand"]) if row["hand"] else None,
                "voided": row["voided"] == "true",
                "kind": row["kind"],
            }
            for row in csv.DictReader(handle)
        ]
    assert exported == ledger_rows(chat)
    assert any(row["kind"] == m.FINE for row in exported)


def test_export_json_has_hands_transfers_fines_and_zero_sum_balances(chat: Console) -> None:
    assert "xiaoli" in "".join(chat.feed("laowang: 罚款 @xiaoli 5 刷屏"))
    lines = said(chat, "laowang: 导出 json")
    assert lines[0].startswith("[file] ") and lines[0].endswith(".json")
    data = json.loads(Path(lines[0].removeprefix("[file] ")).read_text(encoding="utf-8"))
    assert len(data["hands"]) == 3
    assert [row["id"] for row in data["transfers"]] == [row["id"] for row in ledger_rows(chat)]
    assert [(f["from"], f["amount"]) for f in data["fines"]] == [("xiaoli", 500)]
    assert sum(data["balances"].values()) == 0 and data["balances"]["pot"] == 500


def test_export_of_tonight_right_after_settling_holds_every_hand(chat: Console) -> None:
    """The console's clock stands still, so 结算 is stamped with the very moment of the last hand: the night is
    exported by its own rows, not by a time window that closed at that moment."""
    lines = said(chat, "xiaoli: 导出 今晚 json")
    assert lines[1] == "已导出 第1晚（2026-01-10）：3局，4笔转账"
    data = json.loads(Path(lines[0].removeprefix("[file] ")).read_text(encoding="utf-8"))
    assert [hand["number"] for hand in data["hands"]] == [1, 2, 3]
    assert data["balances"] == {"laowang": -800, "xiaoli": -800, "ajie": 1600, "pot": 0}
    with reading(chat.bot.service.engine) as session:
        night_id = session.scalars(sa.select(m.Night.id)).one()
    settled = chat.bot.service.night_balances(night_id)
    assert {line.name: line.amount for line in settled.lines} == {k: v for k, v in data["balances"].items() if v}


#: a night with a 台费 of 10元, a fine, then the house and the pot both paid out to a (who lost 4元 at the table)
PAYOUTS = [
    "!admin a",
    "a: 设置 台费 10",
    "a: 开桌 @a @b @c 庄 @a",
    "b: 胡 清一色 自摸",
    "a: 罚款 @c 50 迟到",
    "a: 结算",
    "a: 付台费 @a",
    "a: 发红包池 @a",
]


def test_payouts_fines_and_fees_are_no_play_result(chat: Console) -> None:
    """A payout of the house (付台费) or the pot (发红包池) is cash for the venue or the group's pot, not a win:
    排行, 统计 and 战绩 rank the table's money and show fines, fees and payouts apart; 总输赢 still holds all."""
    for line in PAYOUTS:
        chat.feed(line)
    assert said(chat, "a: 排行 全部")[1:] == [
        "🏆 排行榜 · 全部",
        "🥇 ajie +16元｜3局 胡1（33.3%）",
        "🥈 b +8元｜1局 胡1（100.0%）（另计：台费 10元）",
        "🥉 a -4元｜1局 胡0（0.0%）（另计：台费 10元｜领红包池/台费 80元）",
        "4. c -4元｜1局 胡0（0.0%）（另计：罚款 50元｜台费 10元）",
        "5. laowang -8元｜3局 胡1（33.3%）",
        "6. xiaoli -8元｜3局 胡0（0.0%）",
    ]
    assert said(chat, "a: 我的战绩")[-3:] == [
        "杠钱 0｜净 -4元（牌桌输赢）",
        "另计：台费 10元｜领红包池/台费 80元",
        "总输赢 +66元｜未结（付款之后现在还差）：+66元",
    ]
    group = said(chat, "a: 统计")
    assert group[1].endswith("｜罚款 50元｜台费 30元")  # each said when there is some
    assert "a -4元｜1局 胡0（0.0%）点炮0（另计：台费 10元｜领红包池/台费 80元）" in group
    assert group.index("b +8元｜1局 胡1（100.0%）点炮0（另计：台费 10元）") < group.index(
        "a -4元｜1局 胡0（0.0%）点炮0（另计：台费 10元｜领红包池/台费 80元）"
    )


def test_export_caption_counts_what_stands(chat: Console) -> None:
    """The file keeps undone rows (marked), but its caption counts what 结算 counts: finished hands, live money
    — also for a night begun by the 日切 roll-over that holds nothing but an undone kong."""
    for line in [
        "laowang: 开桌 @laowang @xiaoli @ajie 庄 @laowang",
        "ajie: 胡 清一色 自摸",
        "!clock +3m",
        "xiaoli: 胡 七对 自摸",
    ]:
        chat.feed(line)
    chat.feed("laowang: 撤销 第1局")
    chat.feed("laowang: !press 确认撤销")
    assert said(chat, "laowang: 导出 今晚")[1] == "已导出 第2晚（2026-01-10）：1局，2笔转账"
    chat.feed("!clock +12h")  # past 06:00: the next record starts a new night at the same table
    chat.feed("ajie: 暗杠 3s")
    chat.feed("ajie: 撤销")
    assert said(chat, "laowang: 导出 今晚")[1] == "已导出 第3晚（2026-01-11）：0局，0笔转账"


def test_history_names_each_night_where_it_crosses_nights(chat: Console) -> None:
    """历史 over a 日切 roll-over: hand numbers restart at 1 in the new night, so each night gets its label; a list
    within one night gets none."""
    chat.feed("laowang: 开桌 @laowang @xiaoli @ajie 庄 @laowang")
    chat.feed("ajie: 胡 清一色 自摸")
    assert said(chat, "ajie: 历史 1") == [
        "最近 1 局：",
        "第1局 ajie 自摸：清一色×4 → ×4 ｜ laowang -4元，xiaoli -4元，ajie +8元",
    ]
    chat.feed("!clock +12h")
    chat.feed("xiaoli: 胡 七对 自摸")
    assert said(chat, "ajie: 历史 3") == [
        "最近 3 局：",
        "【第1晚 · 2026-01-10】",
        "第3局 荒庄 ｜ laowang 0，xiaoli 0，ajie 0",
        "【第2晚 · 2026-01-10】",
        "第1局 ajie 自摸：清一色×4 → ×4 ｜ laowang -4元，xiaoli -4元，ajie +8元",
        "【第3晚 · 2026-01-11】",
        "第1局 xiaoli 自摸：七对×4 → ×4 ｜ laowang -4元，xiaoli +8元，ajie -4元",
    ]


def test_a_members_empty_period_is_said_like_the_groups(chat: Console) -> None:
    """统计 @甲 上月 with nothing in it says so as 统计 上月 does, not a card of zeros; 总输赢/未结 still end it."""
    assert said(chat, "ajie: 统计 2025-12") == ["2025年12月还没有记录。"]
    assert said(chat, "ajie: 统计 @xiaoli 2025-12") == [
        "📊 xiaoli · 2025年12月",
        "2025年12月还没有记录。",
        "总输赢 -8元｜未结（付款之后现在还差）：-8元",
    ]
