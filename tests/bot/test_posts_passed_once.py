"""A fine paid into the pot and paid out the same night is one payment, 「老王 → 小李 4元（经红包池转来）」: the
payments post, 明细 and their buttons show it once, never beside the pot's line it was passed on from."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_transcripts import replay, said_after

NIGHT = [
    "!admin boss",
    "!join ajie 阿杰",
    "!join dapeng 大鹏",
    "!join xiaoli 小李",
    "!join laowang 老王",
    "ajie: 开桌 @ajie @dapeng @xiaoli 庄 @ajie",
    "dapeng: 胡 清一色 自摸",
    "boss: 罚款 @laowang 4 刷屏",
    "!clock +1m",
    "boss: 发红包池 @xiaoli 4",
    "!clock +3m",
    "ajie: 结算",
]


def test_the_payments_post_shows_a_pot_payout_passed_on_once(tmp_path: Path) -> None:
    settled = said_after(replay(NIGHT, f"sqlite:///{tmp_path / 'x.db'}"), "ajie: 结算")
    post = settled[settled.index(next(s for s in settled if s.startswith("付款："))) :]
    assert post[1:4] == ["阿杰 → 大鹏 4元", "小李 → 大鹏 4元", "老王 → 小李 4元（经红包池转来）"]
    assert not [line for line in post if "红包池 →" in line or "→ 红包池" in line]
    # the 明细 buttons are those of the payments people hand over: none for the pot's lines passed on
    buttons = [s for s in settled if s.startswith("[按钮] 明细")]
    assert buttons == ["[按钮] 明细", "[按钮] 明细 阿杰→大鹏", "[按钮] 明细 小李→大鹏", "[按钮] 明细 老王→小李"]


def test_details_list_the_payments_as_they_are_handed_over(tmp_path: Path) -> None:
    out = replay(
        [*NIGHT, "!clock +1m", "ajie: !press 明细", "!clock +1m", "ajie: !press 明细 老王→小李"],
        f"sqlite:///{tmp_path / 'x.db'}",
    )
    details = said_after(out, "ajie: !press 明细")
    at = details.index("最少转账（3笔）：")
    assert details[at + 1 : at + 4] == ["阿杰 → 大鹏 4元", "小李 → 大鹏 4元", "老王 → 小李 4元（经红包池转来）"]
    assert said_after(out, "ajie: !press 明细 老王→小李")[:3] == [
        "老王 → 小李 4元 的由来：",
        "老王 本晚 -4元，来自：",
        "老王 → 红包池 4元",
    ]


def test_a_pot_line_passed_on_in_part_shows_what_is_left(tmp_path: Path) -> None:
    """老王 was fined 6元 and the pot paid 小李 4元 of it: 4元 is 老王's to hand 小李, the pot's line says the other
    2元 wait for its next payout."""
    night = [line.replace("罚款 @laowang 4", "罚款 @laowang 6") for line in NIGHT]
    settled = said_after(replay(night, f"sqlite:///{tmp_path / 'x.db'}"), "ajie: 结算")
    post = settled[settled.index(next(s for s in settled if s.startswith("付款："))) :]
    assert post[1:5] == [
        "阿杰 → 大鹏 4元",
        "小李 → 大鹏 4元",
        "老王 → 红包池 2元（等 发红包池 @收钱的人）",
        "老王 → 小李 4元（经红包池转来）",
    ]


def test_the_details_buttons_follow_the_fewest_transfers_in_order(tmp_path: Path) -> None:
    """A fine of a player seated at the table, partly passed on to whom the pot paid, partly still owed to it."""
    night = [*NIGHT[:7], "boss: 罚款 @dapeng 2 骂人", "boss: 罚款 @laowang 5 刷屏", "!clock +1m"]
    night += ["boss: 发红包池 @xiaoli 6", "!clock +3m", "ajie: 结算"]
    settled = said_after(replay(night, f"sqlite:///{tmp_path / 'x.db'}"), "ajie: 结算")
    at = next(i for i, said in enumerate(settled) if said.startswith("最少转账"))
    end = settled.index("[按钮] 明细")
    listed = [line.split(" ")[0] + "→" + line.split(" ")[2] for line in settled[at + 1 : end]]
    assert listed == ["阿杰→大鹏", "小李→大鹏", "老王→小李", "大鹏→红包池"]
    buttons = [s.removeprefix("[按钮] 明细 ") for s in settled if s.startswith("[按钮] 明细 ")]
    assert buttons == listed
    assert buttons[-1] == "大鹏→红包池"


def test_stats_list_a_member_who_never_sat_down_without_hands(tmp_path: Path) -> None:
    out = replay([*NIGHT, "!clock +1m", "ajie: 统计 今晚"], f"sqlite:///{tmp_path / 'x.db'}")
    stats = said_after(out, "ajie: 统计 今晚")
    assert "老王 没上桌（另计：罚款 4元）" in stats
    assert not [line for line in stats if line.startswith("老王 0｜0局")]


def test_a_fine_paid_out_to_who_owes_the_fined_one_is_no_transfer_either_way(tmp_path: Path) -> None:
    """大鹏 won 4元 off 小李 and was fined 4元, which the pot paid 小李: nobody hands anyone 4元 and back."""
    night = [line.replace("罚款 @laowang 4", "罚款 @dapeng 4") for line in NIGHT]
    settled = said_after(replay(night, f"sqlite:///{tmp_path / 'x.db'}"), "ajie: 结算")
    at = settled.index("最少转账（1笔）：")
    assert settled[at + 1] == "阿杰 → 大鹏 4元"
    assert [s for s in settled if s.startswith("[按钮] 明细")] == ["[按钮] 明细", "[按钮] 明细 阿杰→大鹏"]
