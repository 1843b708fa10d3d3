"""结算 with a fine of someone who never sat down (play-test): the fine stays theirs, owed to the pot, and the
players' losses are owed to the players; 发红包池 then passes the fine on to whom the pot paid, never a player's
loss."""

from __future__ import annotations

from collections.abc import Callable

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


def test_a_fined_non_player_owes_the_pot_and_the_loser_owes_the_winners(sqlite_url: str) -> None:
    out = replay([*NIGHT, "ajie: 未结"], sqlite_url)
    settled = _said_to_last(out, "xiaoli: 结算")
    at = next(i for i, said in enumerate(settled) if said.startswith("最少转账"))
    assert settled[at : at + 4] == ["最少转账（3笔）：", "老王 → 小李 4元", "老王 → 阿杰 4元", "大鹏 → 红包池 4元"]
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：大鹏 欠 红包池 4元、老王 欠 小李 4元、老王 欠 阿杰 4元"


def test_the_pot_paid_out_passes_the_fine_on_not_a_players_loss(new_sqlite_url: Callable[[], str]) -> None:
    """Paid to the fined one himself, the fine and the payout cancel out; paid to a player, the fined one owes him."""
    out = replay([*NIGHT, "laowang: 发红包池 @dapeng", "ajie: 未结"], new_sqlite_url())
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：老王 欠 小李 4元、老王 欠 阿杰 4元"
    out = replay([*NIGHT, "laowang: 发红包池 @xiaoli", "ajie: 未结"], new_sqlite_url())
    assert _said_to_last(out, "ajie: 未结")[0] == "还没付清：大鹏 欠 小李 4元、老王 欠 小李 4元、老王 欠 阿杰 4元"


def test_a_fined_member_removed_from_the_group_still_owes_the_fine_not_a_players_win(sqlite_url: str) -> None:
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
    out = replay(night, sqlite_url)
    assert _said_to_last(out, "xiaoli: 未结")[0] == "还没付清：妹妹 欠 大鹏 4元、老王 欠 小李 4元"


#: 大鹏 fined, the pot paid out to 小李 that same night, then 结算
PAID_OUT = [*NIGHT[:-1], "laowang: 发红包池 @xiaoli", "xiaoli: 结算"]


def _transfers(said: list[str], head: str) -> list[str]:
    """The summary's transfers: the lines after its 最少转账 head, up to its buttons."""
    at = next(i for i, line in enumerate(said) if line.startswith(head))
    rest = said[at:]
    return rest[: next((i for i, line in enumerate(rest) if line.startswith("[按钮]")), len(rest))]


def test_the_pots_payout_is_shown_as_who_pays_whom_in_the_summary_as_in_the_payments_post(
    new_sqlite_url: Callable[[], str],
) -> None:
    """The pot paid 小李 out of 大鹏's fine: 大鹏 pays 小李 (through the pot), as the payments post says — never
    「红包池 → 小李」 among the transfers to make (the pot is no one who hands over money)."""
    out = replay(PAID_OUT, new_sqlite_url())
    settled = _said_to_last(out, "xiaoli: 结算")
    assert _transfers(settled, "最少转账") == [
        "最少转账（3笔）：",
        "老王 → 小李 4元",
        "老王 → 阿杰 4元",
        "大鹏 → 小李 4元（经红包池转来）",
    ]
    post = settled[next(i for i, line in enumerate(settled) if line.startswith("付款：")) :]
    for line in _transfers(settled, "最少转账")[1:]:
        assert line in post  # the payments post lists each mover as the summary does
    assert not [line for line in settled[: settled.index(post[0])] if line.startswith("红包池 →")]
    # 战报 shows the settlement as posted
    again = _said_to_last(replay([*PAID_OUT, "ajie: 战报"], new_sqlite_url()), "ajie: 战报")
    assert _transfers(again, "最少转账") == _transfers(settled, "最少转账")


def test_the_open_nights_report_shows_the_payout_passed_on_as_settling_will(sqlite_url: str) -> None:
    out = replay([*PAID_OUT[:-1], "ajie: 战报", "xiaoli: 结算"], sqlite_url)
    before = _transfers(_said_to_last(out[: out.index("xiaoli: 结算")], "ajie: 战报"), "最少转账")
    assert before == _transfers(_said_to_last(out, "xiaoli: 结算"), "最少转账")
    assert "大鹏 → 小李 4元（经红包池转来）" in before


def test_an_english_summary_names_the_pot_passing_the_payout_on(sqlite_url: str) -> None:
    played = [line.replace("!press 是新的一局", "!press New hand") for line in NIGHT[1:-1]]
    english = [NIGHT[0], "laowang: 设置 语言 en", *played, "laowang: 发红包池 @xiaoli", "xiaoli: settle"]
    settled = _said_to_last(replay(english, sqlite_url), "xiaoli: settle")
    assert _transfers(settled, "Fewest transfers") == [
        "Fewest transfers (3):",
        "老王 → 小李 4元",
        "老王 → 阿杰 4元",
        "大鹏 → 小李 4元 (passed on through Pot)",
    ]


def test_a_payout_out_of_an_earlier_fine_is_paid_by_the_one_fined(sqlite_url: str) -> None:
    """大鹏 fined in the afternoon (settled at once: he owes the pot); the pot pays 小李 out during the night: at
    结算 大鹏 pays 小李. Before 结算 the night alone has nobody owing the pot: the payout is said apart, not as
    a transfer of the pot's."""
    night = [
        *NIGHT[:5],
        "laowang: 罚款 @dapeng 4 骂人",
        "!clock +3h",
        "laowang: 开桌 @xiaoli @ajie",
        "xiaoli: 胡 清一色 点 @laowang",
        "laowang: 发红包池 @xiaoli",
        "ajie: 战报",
        "xiaoli: 结算",
    ]
    out = replay(night, sqlite_url)
    report = _said_to_last(out[: out.index("xiaoli: 结算")], "ajie: 战报")
    assert "红包池发给 小李 4元（等有人欠红包池的钱时改由他付）" in report
    assert not [line for line in report if line.startswith("红包池 →")]
    settled = _said_to_last(out, "xiaoli: 结算")
    assert "大鹏 → 小李 4元（经红包池转来）" in _transfers(settled, "最少转账")
    assert not [line for line in settled if line.startswith("红包池发给")]
