"""结算 with a fine of someone who never sat down (play-test): the fine stays theirs, owed to the pot, and the
players' losses are owed to the players; 发红包池 then passes the fine on to whom the pot paid, never a player's
loss."""

from __future__ import annotations

from pathlib import Path

from tests.bot.test_transcripts import replay

NIGHT = [
    "!admin laowang",
    "!join laowang 老王",
    "!join xiaoli 小李",
    "!join ajie 阿杰",
    "!join dapeng 大鹏",
    "laowang: 开桌 @xiaoli @ajie",
    "xiaoli: 胡 清一色 点 @laowang",
    "ajie: 胡 七对 点 @laowang",
    "ajie: !press 是新的一局",
    "laowang: 罚款 @dapeng 4 骂人",
    "xiaoli: 结算",
]


def _said_to_last(out: list[str], line: str) -> list[str]:
    at = len(out) - 1 - out[::-1].index(line)
    return [said.removeprefix("bot: ") for said in out[at + 1 :] if said.startswith("bot: ")]


def test_a_fined_non_player_owes_the_pot_and_the_loser_owes_the_winners(tmp_path: Path) -> None:
    out = replay([*NIGHT, "ajie: 未结"], f"sqlite:///{tmp_path / 'x.db'}")
    settled = _said_to_last(out, "xiaoli: 结算")
    at = next(i for i, said in enumerate(settled) if said.startswith("最少转账"))
    assert settled[at : at + 4] == ["最少转账（3笔）：", "老王 → 小李 4元", "老王 → 阿杰 4元", "大鹏 → 红包池 4元"]
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：大鹏 欠 红包池 4元、老王 欠 小李 4元、老王 欠 阿杰 4元"


def test_the_pot_paid_out_passes_the_fine_on_not_a_players_loss(tmp_path: Path) -> None:
    """Paid to the fined one himself, the fine and the payout cancel out; paid to a player, the fined one owes him."""
    out = replay([*NIGHT, "laowang: 发红包池 @dapeng", "ajie: 未结"], f"sqlite:///{tmp_path / 'x.db'}")
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：老王 欠 小李 4元、老王 欠 阿杰 4元"
    out = replay([*NIGHT, "laowang: 发红包池 @xiaoli", "ajie: 未结"], f"sqlite:///{tmp_path / 'y.db'}")
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：大鹏 欠 小李 4元、老王 欠 小李 4元、老王 欠 阿杰 4元"


def test_a_fined_member_removed_from_the_group_still_owes_the_fine_not_a_players_win(tmp_path: Path) -> None:
    """The play-test's night: 妹妹 fined and removed, 老王 lost to 小李 the fine's amount. 老王 owes 小李, 妹妹 the pot;
    the pot paid out to 大鹏, 妹妹 owes 大鹏 (was: 妹妹 owed 小李 and 老王 owed 大鹏 a fine he never got)."""
    night = [
        "!admin laowang",
        "!join laowang 老王",
        "!join xiaoli 小李",
        "!join ajie 阿杰",
        "!join dapeng 大鹏",
        "!join meimei 妹妹",
        "laowang: 开桌 @xiaoli @ajie",
        "xiaoli: 胡 清一色 点 @laowang",
        "laowang: 罚款 @meimei 4 刷屏",
        "laowang: 请出 @meimei 刷屏",
        "xiaoli: 结算",
        "laowang: 发红包池 @dapeng",
        "xiaoli: 未结",
    ]
    out = replay(night, f"sqlite:///{tmp_path / 'x.db'}")
    assert _said_to_last(out, "xiaoli: 未结")[0] == "还没付清：妹妹 欠 大鹏 4元、老王 欠 小李 4元"
