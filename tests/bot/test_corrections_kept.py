"""Corrections that keep what they do not name: the fifth-horse check of a corrected older hand reads that hand's
kongs, not the open hand's (`改 第1局 … 买马 7s`); an admin's (or the discarder's) correction naming no winner keeps
the recorded winner (`刚才那把不是七对，改成 碰碰胡 点 @b` from the admin is c's 碰碰胡, not the admin's); the 坎 said
wrong (`坎错了 是2`) is the latest win's 坎; 漂 said wrong after a 一炮双响, a draw or at a 首局定漂 table is refused
by name. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.bot.test_recording_fixes import OPEN, Table


def _opened(db_url: str, *settings: str) -> Table:
    table = Table(db_url)
    table.say("!admin a", *(f"a: 设置 {setting}" for setting in settings), OPEN)
    return table


# ------------------------------------------------------------- 1. the fifth horse of an older hand: its own kongs


def test_a_horse_of_an_older_hand_is_checked_against_that_hands_kongs(db_url: str) -> None:
    table = _opened(db_url, "买马 自摸买马")
    try:
        table.say("a: 胡 清一色 自摸 买马 7p", "!clock +1m", "b: 暗杠 7s", "!clock +1m")  # b's kong: hand 2
        asked = table.say("a: 改 第1局 清一色 自摸 买马 7s")
        assert any("改成「a 自摸 清一色 买马 七条」？" in said for said in asked), asked
        table.say("a: 胡 清一色 自摸 买马 1s", "!clock +1m")  # hand 2 ends; its own kong still counts
        assert table.say("a: 改成 第2局 马 7s")[0] == "bot: 马牌「七条」不对：b 杠了四张七条，翻不出第五张。"
        table.say("c: 暗杠 5p", "!clock +1m", "a: 胡 清一色 自摸 买马 1s", "!clock +1m")  # hand 3: c's kong, a's win
        out = table.say("a: 改 第3局 清一色 自摸 买马 5p")  # the open hand 4 has no kong: hand 3's is seen
        assert out[0] == "bot: 马牌「五筒」不对：c 杠了四张五筒，翻不出第五张。", out
    finally:
        table.ledger.close()


# ------------------------------------------------------- 4. someone else's correction naming no winner: theirs


@pytest.mark.parametrize(
    "line",
    [
        "a: 刚才那把不是七对，改成 碰碰胡 点 @b",
        "a: 改成 碰碰胡 点 @b",
        "a: 不对 应该是 碰碰胡 点 @b",
        "a: 改 胡 碰碰胡 点 @b",
    ],
)
def test_an_admins_correction_naming_no_winner_keeps_the_recorded_winner(db_url: str, line: str) -> None:
    table = _opened(db_url)
    try:
        table.say("c: 胡 七对 点 @b", "!clock +20s")
        asked = table.say(line)
        assert any("改成「c 胡 b 点的炮 碰碰胡」？" in said for said in asked), asked
        assert not any("换成了" in said for said in asked), asked
        table.say("a: !press 改成这样")
        assert table.balances() == {"a": 0, "b": -200, "c": 200}  # 碰碰胡 ×2: still c's, off b
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: 改成 我 碰碰胡 点 @b", "a: 改成 @a 碰碰胡 点 @b"])
def test_an_admin_naming_themself_takes_the_win(db_url: str, line: str) -> None:
    table = _opened(db_url)
    try:
        table.say("c: 胡 七对 点 @b", "!clock +20s")
        asked = table.say(line)
        assert any("改成「a 胡 b 点的炮 碰碰胡」？" in said for said in asked), asked
        assert any("注意：c 换成了 a。" in said for said in asked), asked
    finally:
        table.ledger.close()


def test_the_winners_own_correction_is_still_theirs(db_url: str) -> None:
    table = _opened(db_url)
    try:
        table.say("c: 胡 七对 点 @b", "!clock +20s")
        asked = table.say("c: 改成 碰碰胡 点 @a")
        assert any("改成「c 胡 a 点的炮 碰碰胡」？" in said for said in asked), asked
    finally:
        table.ledger.close()


def test_an_english_admins_correction_naming_no_winner_keeps_the_recorded_winner(db_url: str) -> None:
    table = _opened(db_url, "语言 en")
    try:
        table.say("c: win seven pairs from @b", "!clock +20s")
        asked = table.say("a: change to all pungs from @b")
        assert any("with “c wins on b's discard all pungs (碰碰胡)”?" in said for said in asked), asked
        assert not any("Note: c becomes" in said for said in asked), asked
    finally:
        table.ledger.close()


# ------------------------------------------------------------------ 3. a count said wrong: the latest win's count


@pytest.mark.parametrize(
    ("line", "becomes"),
    [
        ("c: 坎错了 是2", "坎2 恰0 八0"),
        ("c: 坎错了，应该是2", "坎2 恰0 八0"),
        ("c: 坎数错了 2个", "坎2 恰0 八0"),
        ("c: 坎不对 两个", "坎2 恰0 八0"),
        ("c: 恰错了 是1", "坎1 恰1 八0"),
        ("c: 八不对 是两个", "坎1 恰0 八2"),
    ],
)
def test_a_count_said_wrong_asks_to_correct_the_latest_wins_count(db_url: str, line: str, becomes: str) -> None:
    table = _opened(db_url, "数坎 是", "跑恰摸八 是")
    try:
        table.say("c: 胡 清一色 点 @b 坎1 恰0 八0", "!clock +20s")
        asked = table.say(line)
        assert any(f"改成「c 胡 b 点的炮 清一色 {becomes}」？" in said for said in asked), asked
        table.say("c: !press 改成这样")
        assert table.hands() == 1
    finally:
        table.ledger.close()


def test_a_count_said_wrong_in_english(db_url: str) -> None:
    table = _opened(db_url, "数坎 是", "语言 en")
    try:
        table.say("c: win one suit from @b kan 1", "!clock +20s")
        for line in ("c: wrong kan, it was 2", "c: the kan was 2"):
            asked = table.say(line)
            assert any("with “c wins on b's discard one suit (清一色) kan 2”?" in said for said in asked), asked
            table.say("!clock +1m")
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["c: 坎错了吧", "c: 坎错了 是不是", "c: 八不对 哈哈"])
def test_a_count_said_wrong_without_a_number_is_chat(db_url: str, line: str) -> None:
    table = _opened(db_url, "数坎 是", "跑恰摸八 是")
    try:
        table.say("c: 胡 清一色 点 @b 坎1 恰0 八0", "!clock +20s")
        assert table.say(line) == []
    finally:
        table.ledger.close()


# --------------------------------------- 2. 漂 corrected after a 一炮双响, a draw, at a 首局定漂 table, told twice


def test_a_piao_corrected_after_a_double_win_rescores_both_wins(db_url: str) -> None:
    table = _opened(db_url, "漂 选漂")
    try:
        table.say("a: 漂 @a 1 @b 0 @c 0", "a: 胡 @a 七对 @c 碰碰胡 点 @b", "!clock +1m")
        asked = table.say("a: 漂错了 b漂2")
        assert any("改成「b 漂 2；a 胡 b 点的炮 七对；c 胡 b 点的炮 碰碰胡」？" in said for said in asked), asked
        out = table.say("a: !press 改成这样")
        assert "bot: 漂：b→a 3元、b→c 2元" in out, out  # (1 + 2) and (0 + 2): both wins, b's 漂 2
        assert table.hands() == 1
    finally:
        table.ledger.close()


def test_a_piao_corrected_twice_keeps_the_first_correction(db_url: str) -> None:
    table = _opened(db_url, "漂 选漂")
    try:
        table.say("a: 漂 @a 1 @b 0 @c 0", "c: 胡 七对 点 @b", "!clock +1m")
        table.say("b: 改成 漂 2", "b: !press 改成这样", "!clock +1m")  # each 漂 corrected by its own player
        asked = table.say("c: 改成 漂 @c 3")
        assert any("改成「b 漂 2；c 漂 3；c 胡 b 点的炮 七对」？" in said for said in asked), asked
        assert "bot: 漂：b→c 5元" in table.say("c: !press 改成这样")  # b 2 + c 3, not c 3 alone
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["a: 改成 漂 @b 2", "a: 漂错了 b漂2"])
def test_a_piao_corrected_after_a_draw_is_refused_by_name(db_url: str, line: str) -> None:
    table = _opened(db_url, "漂 选漂")
    try:
        table.say("a: 漂 @a 0 @b 0 @c 0", "a: 荒庄", "!clock +1m")
        before = table.balances()
        assert table.say(line) == ["bot: 第1局荒庄，本桌荒庄不算漂，漂不用改。"]
        assert table.balances() == before
    finally:
        table.ledger.close()


def test_a_piao_corrected_after_a_paying_draw_says_to_undo_it(db_url: str) -> None:
    table = _opened(db_url, "漂 选漂", "查大叫 是")
    try:
        table.say("a: 漂 @a 0 @b 0 @c 0", "a: 荒庄", "a: !press 没人听牌", "!clock +1m")
        assert table.hands() == 1
        out = table.say("a: 改成 漂 @b 2")
        assert len(out) == 1 and out[0].startswith("bot: 第1局荒庄的漂不能单独改"), out
    finally:
        table.ledger.close()


def test_a_first_hand_piao_is_corrected_only_right_after_the_first_hand(db_url: str) -> None:
    table = _opened(db_url, "漂 首局定漂")
    try:
        table.say("c: 胡 七对 点 @b", "a: !press 1", "b: !press 0", "c: !press 0", "!clock +1m")  # each their own
        asked = table.say("a: 改成 漂 @b 2")  # an admin's correction of b's 漂
        assert any("改成「a 漂 1；b 漂 2；c 漂 0；c 胡 b 点的炮 七对」？" in said for said in asked), asked
        table.say("a: !press 改成这样", "!clock +1m")
        assert "bot: 漂：b→c 2元" in table.say("c: 胡 碰碰胡 点 @b")  # hand 2 carries the corrected 漂
        table.say("!clock +1m")
        for line in ("a: 改成 漂 @b 3", "a: 改 第1局 漂 @b 3"):
            assert table.say(line) == [
                "bot: 首局定漂：漂在第1局定了（a 1、b 2、c 0），之后每局都照它算，只能在第1局刚打完、第2局结束前改。"
            ]
    finally:
        table.ledger.close()


def test_a_piao_corrected_in_english_after_a_draw(db_url: str) -> None:
    table = _opened(db_url, "漂 选漂", "语言 en")
    try:
        table.say("a: piao @a 0 @b 0 @c 0", "a: 荒庄", "!clock +1m")
        out = table.say("a: change to piao @b 2")
        assert out == [
            "bot: Hand 1 was a draw (荒庄): this table's draws move no piao (漂), so there is nothing to correct."
        ], out
    finally:
        table.ledger.close()
