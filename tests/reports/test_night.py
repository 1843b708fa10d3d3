"""The night's settlement post: its table, its transfers and its picture, from a night played through the ledger."""

from __future__ import annotations

import itertools
import os
import re
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bot.commands._common import money
from bot.core import Context, Incoming, ManualClock, Sender, SendPhoto, SendText
from bot.reports.chart import player_lines
from bot.reports.files import REPORT_DIR_ENV, _private_dir, report_dir
from bot.reports.night import CAPTION_LIMIT, NightReport, night_post, night_report, settle_post
from ledger.service import Ledger
from tests.reports.playing import HANDS, play, seated
from tests.reports.test_chart import PNG_SIGNATURE, png_size

_chats = itertools.count(-2_000_001, -1)

#: a night with kong money, a 亮倒 包胡, a 一炮双响, a draw, an undone hand and a fine
NIGHT = [
    ("hand", 1, 0),  # A: 暗杠 then 自摸 卡五星
    ("hand", 7, 2),  # 亮倒 then 包胡
    ("hand", 8, 4),  # 一炮双响
    ("hand", 5, 1),  # 直杠 then 荒庄
    ("hand", 3, 3),  # 清一色七对 自摸 (the biggest)
    ("hand", 0, 5),
    ("undo",),
    ("fine", 1, 500),
]


def test_post_has_every_player_their_numbers_and_the_fewest_transfers(ledger: Ledger, clock: Any) -> None:
    played = play(ledger, clock, next(_chats), [NIGHT])
    night_id = played.nights[0]
    post = night_post(ledger, night_id)
    balances = ledger.night_balances(night_id)
    settlement = ledger.settle_night(night_id)

    assert post.header == ("玩家", "胡", "自摸", "点炮", "杠钱", "罚款", "最大一手", "净")
    assert {row[0] for row in post.rows} == set(played.member_ids)
    for row in post.rows:
        member_id = played.member_ids[row[0]]
        assert row[-1] == money(balances.of(member_id), "元", signed=True)
    assert sum(int(row[1]) for row in post.rows) == 5  # five hands left: one 一炮双响 (two wins), one draw
    assert any(row[6] == "清一色、七对 → ×8" for row in post.rows)
    assert post.text.startswith("第1晚结算 · 2026-01-10 · 5局")
    for payment in settlement.payments:
        assert f"{payment.payer} → {payment.payee} {money(payment.amount, '元')}" in post.text
    assert "红包池 +5元（罚款）" in post.text
    assert post.caption == post.text and len(post.caption) <= CAPTION_LIMIT


def test_chart_has_one_line_per_player_following_the_hands(ledger: Ledger, clock: Any) -> None:
    played = play(ledger, clock, next(_chats), [NIGHT])
    night_id = played.nights[0]
    post = night_post(ledger, night_id)
    drawn = player_lines(post.figure)
    assert set(drawn) == set(played.member_ids)  # three series
    balances = ledger.night_balances(night_id)
    for name, values in drawn.items():
        assert len(values) == 5 + 1  # the start and one point per hand left standing
        assert values[0] == 0
        # the last point is the night's hand money (the fine is in the table's net, not a hand)
        fines = sum(amount for member, amount in played.fines if member == played.member_ids[name])
        assert round(values[-1] * 100) == balances.of(played.member_ids[name]) + fines


def test_photo_is_a_valid_png_and_the_pdf_one_page(ledger: Ledger, clock: Any, tmp_path: Path) -> None:
    played = play(ledger, clock, next(_chats), [NIGHT])
    report = night_report(ledger, played.nights[0], out_dir=tmp_path)
    assert report.photo.parent == tmp_path and report.photo.suffix == ".png"
    assert report.photo.read_bytes()[:8] == PNG_SIGNATURE
    width, height = png_size(report.photo)
    assert width == 1080 and 900 < height < 1400
    assert 30_000 < report.photo.stat().st_size < 1_000_000
    effects = report.effects()
    assert effects == [SendPhoto(str(report.photo), report.text)]
    pdf = night_report(ledger, played.nights[0], out_dir=tmp_path, fmt="pdf").photo.read_bytes()
    assert pdf.startswith(b"%PDF-") and len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 1


def test_english_labels_when_the_chat_speaks_english(ledger: Ledger, clock: Any) -> None:
    played = play(ledger, clock, next(_chats), [NIGHT[:2]])
    post = night_post(ledger, played.nights[0], lang="en")
    assert post.header == ("Player", "Wins", "Self-drawn", "Dealt in", "Kong money", "Biggest hand", "Net")
    assert post.text.startswith("Night 1 · 2026-01-10 · 2 hands")
    titles = [ax.get_title() for ax in post.figure.axes]
    assert "Night 1 running balance (2026-01-10)" in titles


def test_a_post_too_long_for_a_caption_goes_as_text_before_the_photo(tmp_path: Path) -> None:
    report = NightReport(1, "第1晚结算\n" + "张三 +1元\n" * 200, "第1晚结算", tmp_path / "night.png")
    assert report.effects(reply_to=7) == [
        SendText(report.text, reply_to=7),
        SendPhoto(str(tmp_path / "night.png"), "第1晚结算"),
    ]


def test_settle_post_is_the_photo_of_the_night_just_closed(
    ledger: Ledger, clock: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the settle command sends when it hands `end_night`'s result to `settle_post`."""
    monkeypatch.setenv("PAIJU_REPORT_DIR", str(tmp_path))
    chat = next(_chats)
    played = play(ledger, clock, chat, [NIGHT[:3]])
    table = ledger.open_table(chat, list(played.member_ids.values()), source=f"test:{chat}:reopen", by=None)
    ledger.record_hand(table.id, seated(HANDS[2], table.players), source=f"test:{chat}:win", by=None)
    closed = ledger.end_night(chat, source=f"test:{chat}:settle", by=None)
    sender = Sender(1, "张三")
    ctx = Context(
        bot=None,  # the settle post needs no dispatcher
        service=ledger,
        chat_id=chat,
        sender=sender,
        source="test",
        lang="zh",
        clock=ManualClock(),
        group=ledger.group(chat),
        incoming=Incoming(chat, 99, sender, "结算", clock.now, "test"),
    )
    photo, payments = settle_post(ctx, closed)  # the picture, then the payments with their buttons
    assert isinstance(photo, SendPhoto) and Path(photo.path).parent == tmp_path
    assert isinstance(payments, SendText) and len(payments.buttons) == len(closed.settlement.payments)
    assert photo.caption.startswith("第2晚结算 · 2026-01-11 · 1局")
    assert closed.settlement.payments
    for payment in closed.settlement.payments:
        assert f"{payment.payer} → {payment.payee} {money(payment.amount, '元')}" in photo.caption


def test_two_processes_settling_at_once_never_share_a_picture(tmp_path: Path) -> None:
    """Two consoles on two databases (as two bots, or a console beside a bot) settle their first night at the
    same time. Both pictures are named after group 1's night 1; each goes to a folder of its own process."""
    env = {key: value for key, value in os.environ.items() if key != REPORT_DIR_ENV} | {"TMPDIR": str(tmp_path)}
    nights = {
        "a": "!admin a\na: 开桌 @a @b @c 庄 @a\na: 胡 清一色 自摸\na: 结算\n",
        "x": "!admin x\nx: 开桌 @x @y @z 庄 @x\ny: 胡 七对 点 @z\nx: 结算\n",
    }
    consoles = {
        name: subprocess.Popen(
            [sys.executable, "-m", "paiju", "console", "--db", str(tmp_path / f"{name}.db")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        for name in nights
    }
    pictures = {}
    for name, console in consoles.items():
        out, err = console.communicate(nights[name], timeout=120)
        assert console.returncode == 0, err
        (line,) = [line for line in out.splitlines() if line.startswith("bot: [photo] ")]
        pictures[name] = Path(line.removeprefix("bot: [photo] "))
    a, x = pictures["a"], pictures["x"]
    assert a.name == x.name == "night-1-1.png" and a.parent != x.parent
    for picture in (a, x):
        assert picture.parent.parent == tmp_path  # the system's temporary folder, as TMPDIR names it
        assert stat.S_IMODE(picture.parent.stat().st_mode) == 0o700  # the process's own
        assert picture.read_bytes()[:8] == PNG_SIGNATURE
    assert a.read_bytes() != x.read_bytes()


def test_a_process_keeps_one_private_folder_and_an_operators_folder_is_used_as_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REPORT_DIR_ENV, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the system's temporary folder, for this test
    _private_dir.cache_clear()
    try:
        private = report_dir()
        assert report_dir() == private and private.parent == tmp_path
        assert stat.S_IMODE(private.stat().st_mode) == 0o700
    finally:
        _private_dir.cache_clear()
    monkeypatch.setenv(REPORT_DIR_ENV, str(tmp_path / "chosen"))
    assert report_dir() == tmp_path / "chosen" and (tmp_path / "chosen").is_dir()
    assert report_dir(tmp_path / "given") == tmp_path / "given"
