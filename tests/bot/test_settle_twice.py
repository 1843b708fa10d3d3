"""结算 sent again once tonight is settled (two players typing it, or one twice): the answer says the night is
settled and where its post is, not that nothing was played; the next night, with nothing open, is nothing to settle."""

from __future__ import annotations

from tests.bot.test_transcripts import replay

NIGHT = ["!join a 阿杰", "!join b 小李", "!join c 老王", "a: 开桌 @a @b @c 庄 @a", "c: 胡 清一色 自摸", "a: 结算"]


def _after(out: list[str], line: str) -> list[str]:
    """What the bot said to the last `line` of the transcript."""
    at = len(out) - 1 - out[::-1].index(line)
    return [said.removeprefix("bot: ") for said in out[at + 1 :] if said.startswith("bot: ")][:1]


def test_a_second_settle_tonight_says_it_is_settled(sqlite_url: str) -> None:
    out = replay([*NIGHT, "b: 结算"], sqlite_url)
    settled = "今晚（2026-01-10）已经结算过了，账在上面的结算里。再看一遍发 战报；要改账，管理员发 撤销结算。"
    assert _after(out, "b: 结算") == [settled]


def test_settle_the_next_day_with_nothing_open_has_nothing_to_settle(sqlite_url: str) -> None:
    out = replay([*NIGHT, "!clock +1d", "b: 结算"], sqlite_url)
    assert _after(out, "b: 结算") == ["今晚还没有开局，没有可结算的。"]


def test_undo_after_tonights_settlement_says_the_night_is_settled(sqlite_url: str) -> None:
    """撤销 after 结算 closed the table: not 「没有开着的牌桌。先开桌」, which reads as if nothing was played, but why
    nothing can be taken back and what can be (a payment; the settlement itself, by an admin)."""
    out = replay([*NIGHT, "b: 撤销", "!clock +1d", "c: 撤销"], sqlite_url)
    assert _after(out, "b: 撤销") == [
        "今晚（2026-01-10）已经结算了，牌桌跟着关了，牌局记录不能再撤销。"
        "撤回一笔付款发 撤销付款；要改账，管理员发 撤销结算。"
    ]
    assert _after(out, "c: 撤销") == ["现在没有开着的牌桌。先开桌：开桌 @甲 @乙 @丙"]  # the next day: nothing tonight


def test_a_received_payment_is_taken_back_by_its_receiver_as_typed(sqlite_url: str) -> None:
    """`撤销收款`: the receiver's word for 撤销付款 (their latest payment is the one they said they received)."""
    out = replay([*NIGHT, "c: 收到 @b 1", "c: 撤销收款"], sqlite_url)
    assert _after(out, "c: 撤销收款")[0].startswith("已撤销付款：小李 → 老王")
