"""Lines a 卡五星 evening brought: a member's `撤销付款 @老王` for a payment between others is told who may take it
back and how (its two sides or an admin; only an admin once both confirmed it), nothing changed; 历史 shows each
hand's 漂, 坎 and 马 payments by name, in Chinese and in English."""

from __future__ import annotations

import pytest

from tests.bot.test_player_first import Table

#: 老王 wins 4元 on 阿杰's discard; the night is settled and 阿杰 (the admin) says he paid
PAID = ("a: 开桌 @a @b @c 庄 @a", "!clock +1m", "c: 胡 七对 点 @a", "!clock +1m", "a: 结算", "a: 已转 @c 4")


@pytest.mark.parametrize("named", ["@a", "@c"])
def test_a_member_undoing_a_payment_between_others_is_told_who_may_and_how(db_url: str, named: str) -> None:
    table = Table(db_url, *PAID)
    try:
        before = table.booked()
        assert table.say(f"b: 撤销付款 {named}") == [
            "bot: 没有撤销：这笔 阿杰 → 老王 4元 不是你的付款，只有他们两人或管理员能撤销：阿杰 发 撤销付款 @c，"
            f"或 老王 发 撤销付款 @a，或管理员发 撤销付款 {named}。"
        ]
        assert table.booked() == before
        # the line it gives 阿杰 takes that payment back
        assert table.say("a: 撤销付款 @c")[0] == "bot: 已撤销付款：阿杰 → 老王 4元"
    finally:
        table.ledger.close()


def test_once_both_sides_confirmed_only_an_admin_may_and_a_member_with_none_to_undo_is_told_so(db_url: str) -> None:
    table = Table(db_url, *PAID, "c: 收到 @a 4")
    try:
        before = table.booked()
        assert table.say("b: 撤销付款 @c") == [
            "bot: 没有撤销：这笔 阿杰 → 老王 4元 不是你的付款，而且双方都确认过了，只有管理员能撤销：请管理员发 "
            "撤销付款 @c。"
        ]
        assert table.say("b: 撤销付款 @d", "b: 撤销付款") == ["bot: 没有可以撤销的付款。"] * 2
        assert table.booked() == before
    finally:
        table.ledger.close()


def test_a_member_undoing_a_payment_between_others_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, "a: 设置 语言 en", *PAID)
    try:
        assert table.say("b: unpay @c") == [
            "bot: Not taken back: 阿杰 → 老王 4元 is not your payment; only the two of them or an admin may take it "
            "back: 阿杰 sends unpay @c, or 老王 sends unpay @a, or an admin sends unpay @c."
        ]
    finally:
        table.ledger.close()


#: 定漂 2, 自摸买马 and 数坎: 小李's self-drawn 清一色 pays each side stake on its own
STAKES = ("a: 设置 漂 定漂", "a: 设置 漂数 2", "a: 设置 买马 自摸买马", "a: 设置 数坎 是", "a: 开桌 @a @b @c 庄 @a")


def test_history_shows_each_hands_piao_kan_and_horse_payments(sqlite_url: str) -> None:
    table = Table(sqlite_url, *STAKES, "!clock +1m", "b: 胡 清一色 自摸 买马 7s 坎2", "!clock +3m")
    try:
        line = table.say("a: 历史")[-1]
        assert line.startswith("bot: 第1局 小李 自摸：清一色×4 → ×4；"), line
        for paid in ("数坎 2 坎：", "买马 七条（7）：", "漂："):
            assert paid in line, line
        assert line.count("阿杰→小李") == 3 and line.count("老王→小李") == 3, line
        assert line.endswith(" ｜ 阿杰 -17元，小李 +34元，老王 -17元"), line
        assert table.say("a: 第1局")[-1] == line  # one hand asked by number reads the same
    finally:
        table.ledger.close()


def test_history_shows_the_side_stakes_in_english(sqlite_url: str) -> None:
    table = Table(sqlite_url, *STAKES[:-1], "a: 设置 语言 en", STAKES[-1], "!clock +1m")
    try:
        table.say("b: win one suit self-draw buy horse 7s kan 2", "!clock +3m")
        line = table.say("a: history")[-1]
        for paid in ("kan count (数坎) 2: ", "horse (买马) 7s (7): ", "piao (漂): "):
            assert paid in line, line
        assert line.count("阿杰→小李") == 3 and "、" not in line, line
    finally:
        table.ledger.close()


def test_history_names_the_hands_kongs_whose_money_its_changes_hold(sqlite_url: str) -> None:
    """小李's 暗杠 paid him 4元: 历史 said only 阿杰's 清一色, with 小李 at 0 unexplained."""
    table = Table(sqlite_url, "a: 开桌 @a @b @c 庄 @a", "!clock +1m", "b: 暗杠 3s", "!clock +3m", "a: 我自摸 清一色")
    try:
        assert table.say("!clock +3m", "a: 历史")[-1] == (
            "bot: 第1局 小李 暗杠 三条；阿杰 自摸：清一色×4 → ×4 ｜ 阿杰 +6元，小李 0，老王 -6元"
        )
    finally:
        table.ledger.close()
