"""A player's 漂 is theirs to tell (or an admin's): a play-test found any seated player could set another's 漂 —
typed (`漂 @老王 5`), or pressed under the question 「老王 这局漂几？」 — so 老王 paid more and was never told. Also the
漂 lines players type (`我漂1`, `我漂 1`, `漂一`), and 牌桌 while a win waits for its 漂."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.service import Ledger
from tests.bot.test_recording_fixes import Table
from tests.bot.test_regional import SEATS, Chat, buttons

PLAYERS = ("!join wang 老王", "!join li 小李", "!join jie 阿杰", "!admin boss")
OPEN = ("boss: 设置 漂 选漂", "boss: 开桌 @wang @li @jie", "!clock +4s")


def refused(name: str) -> str:
    return f"没有记：{name} 的漂要 TA 自己报（漂 2），或者管理员报（漂 @{name} 2）。"


@pytest.fixture
def piao(db_url: str) -> Iterator[Table]:
    table = Table(db_url)
    table.say(*PLAYERS, *OPEN)
    yield table
    table.ledger.close()


def test_another_players_piao_typed_is_refused_and_theirs_stands(piao: Table) -> None:
    """The play-test's lines: 小李's `漂 @wang 5` once overwrote the 0 老王 said himself (booked 老王→小李 漂 10元)."""
    piao.say("wang: 漂 0", "!clock +4s", "jie: 漂 0", "!clock +4s", "li: 漂 5", "!clock +4s")
    assert piao.say("li: 漂 @wang 5") == [f"bot: {refused('老王')}"]
    assert piao.say("li: 漂 @jie 5", "li: 漂 @li 2 @wang 5") == [f"bot: {refused(n)}" for n in ("阿杰", "老王")]
    booked = piao.say("!clock +4s", "li: 胡 清一色 自摸")
    assert "bot: 漂：老王→小李 5元、阿杰→小李 5元" in booked, booked
    assert piao.balances() == {"老王": -900, "小李": 1800, "阿杰": -900, "boss": 0}
    # nor corrected by the winner once the hand is booked (the correction's asker confirms it alone)
    assert piao.say("li: 改成 漂 @wang 5", "li: 漂错了 老王漂5") == [f"bot: {refused('老王')}"] * 2
    assert piao.balances() == {"老王": -900, "小李": 1800, "阿杰": -900, "boss": 0}


def test_another_players_piao_told_before_theirs_is_refused_too(piao: Table) -> None:
    """Refused whether or not 老王 said his own: only what 老王 says (or an admin) moves his money."""
    assert piao.say("li: 漂 @wang 5", "jie: 不漂 @wang") == [f"bot: {refused('老王')}"] * 2
    assert piao.say("li: 漂 5", "li: 漂 @li 3") == ["bot: 第1局 记下：小李 漂 5", "bot: 第1局 记下：小李 漂 3"]


def test_a_press_under_another_players_question_is_refused(piao: Table) -> None:
    """The question 「老王 这局漂几？」 is 老王's (or an admin's) to answer: the winner's press of 5 once booked
    老王→小李 漂 10元. Each answers their own, typed as players type it, and may correct it while the win waits."""
    asked = piao.say("li: 胡 清一色 自摸")
    assert asked[1:3] == ["bot: 老王 这局漂几？（老王 自己点，或发：漂 2）", "bot: [按钮] 0 | 1 | 2 | 3 | 4 | 5"]
    assert piao.say("li: !press 5") == [f"bot: [提示] {refused('老王')}"]
    assert piao.say("jie: !press 5") == [f"bot: [提示] {refused('老王')}"]
    assert piao.say("wang: 我漂1")[1] == "bot: 小李 这局漂几？（小李 自己点，或发：漂 2）"
    assert piao.say("jie: !press 3") == [f"bot: [提示] {refused('小李')}"]
    assert piao.say("li: 我漂 2")[1] == "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）"
    assert piao.say("li: 漂 @wang 5") == [f"bot: {refused('老王')}"]
    assert piao.say("wang: 漂0")[1] == "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）"  # 老王 corrects his own
    assert piao.say("boss: 牌桌")[2:6] == [
        "bot: 本局漂：老王 0、小李 2、阿杰 未报（发「漂 2」报自己的，没报的胡牌时我会问）",
        "bot: 本桌要报：漂",
        "bot: 还没记账：第1局 小李 自摸 还在等 阿杰 的漂（回答上面的问题就记下）。",
        "bot: [按钮] 胡 | 杠",
    ]
    booked = piao.say("jie: 漂一")
    assert "bot: 漂：老王→小李 2元、阿杰→小李 3元" in booked, booked
    assert piao.balances() == {"老王": -600, "小李": 1300, "阿杰": -700, "boss": 0}


def test_table_shows_a_waiting_win_beside_what_the_hand_holds(piao: Table) -> None:
    piao.say("li: 漂 1", "!clock +4s", "li: 胡 清一色 自摸", "wang: !press 2")
    assert piao.say("boss: 牌桌")[2:6] == [
        "bot: 本局漂：老王 2、小李 1、阿杰 未报（发「漂 2」报自己的，没报的胡牌时我会问）",
        "bot: 本桌要报：漂",
        "bot: 本局已记：小李 漂 1",
        "bot: 还没记账：第1局 小李 自摸 还在等 阿杰 的漂（回答上面的问题就记下）。",
    ]


def test_an_admin_tells_anyones_piao(piao: Table) -> None:
    """An admin (seated or not) may set or answer anyone's 漂, typed or pressed."""
    assert piao.say("boss: 漂 @wang 3") == ["bot: 第1局 记下：老王 漂 3"]
    piao.say("!clock +4s", "li: 胡 清一色 自摸")
    assert piao.say("boss: !press 1")[1] == "bot: 阿杰 这局漂几？（阿杰 自己点，或发：漂 2）"  # 小李's
    booked = piao.say("boss: 漂 @jie 0")
    assert "bot: 漂：老王→小李 4元、阿杰→小李 1元" in booked, booked
    assert piao.balances() == {"老王": -800, "小李": 1300, "阿杰": -500, "boss": 0}


def test_the_buttons_flow_asks_each_piao_of_its_player(piao: Table) -> None:
    piao.say("li: 胡", "li: !press 小李", "li: !press 自摸", "li: !press 清一色", "li: !press 预览 ▶")
    assert piao.say("li: !press 0") == [f"bot: [提示] {refused('老王')}"]
    assert piao.say("li: 0") == [f"bot: {refused('老王')}"]  # typed by the flow's starter: the same press
    piao.say("wang: !press 2", "li: !press 1")
    assert piao.say("li: !press 1") == [f"bot: [提示] {refused('阿杰')}"]
    piao.say("jie: !press 0", "li: !press ✅ 确认")
    assert piao.balances() == {"老王": -700, "小李": 1200, "阿杰": -500, "boss": 0}


def test_a_guests_piao_is_told_by_anyone_seated(db_url: str) -> None:
    """A guest has no account to answer with: anyone at the table tells it, and the question says how."""
    table = Table(db_url)
    try:
        table.say(*PLAYERS, "boss: 设置 漂 选漂", "boss: 开桌 @wang @li 老表", "!clock +4s")
        assert table.say("li: 漂 @老表 2") == ["bot: 第1局 记下：老表 漂 2"]
        asked = table.say("!clock +4s", "li: 胡 清一色 自摸")
        assert asked[1] == "bot: 老王 这局漂几？（老王 自己点，或发：漂 2）"
        table.say("wang: 漂 0")
        assert table.say("li: 漂 3")[0].startswith("bot: 第1局 记下：")
        assert table.balances()["老王"] == -700  # 清一色 4 + 漂 0 + 3
    finally:
        table.ledger.close()


def test_the_question_and_the_refusal_in_english(db_url: str) -> None:
    table = Table(db_url)
    try:
        table.say(*PLAYERS, "boss: 设置 语言 en", *OPEN)
        asked = table.say("li: win one suit self-draw")
        assert asked[1] == "bot: 老王's piao (漂) this hand? (老王 taps it, or sends: piao 2)"
        no = "Not recorded: 老王's piao (漂) is theirs to tell (piao 2), or an admin's (piao @老王 2)."
        assert table.say("li: piao @wang 5", "li: !press 5") == [f"bot: {no}", f"bot: [提示] {no}"]
        table.say("wang: piao 1", "li: piao 2")
        assert "bot: piao (漂): 老王→小李 3元, 阿杰→小李 2元" in table.say("jie: piao 0")
    finally:
        table.ledger.close()


@pytest.mark.parametrize("line", ["漂亮", "我漂亮吗", "漂一下", "漂 亮啊"])
def test_talk_that_starts_like_a_piao_stays_talk(piao: Table, line: str) -> None:
    piao.say("li: 胡 清一色 自摸")
    assert piao.say(f"wang: {line}") == []


#: (sender, target, amount): a 漂 line; the sender's own when target is None
Told = tuple[str, str | None, int]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.sampled_from("ABC"), st.sampled_from(["A", "B", "C", None]), st.integers(0, 5)), max_size=6)
)
def test_only_a_players_own_lines_move_their_piao(ledger: Ledger, lines: list[Told]) -> None:
    """Whatever 漂 lines the three send, each player's booked 漂 is the last one they told themselves (0 when they
    never did: answered at the end, by themselves): nobody else's line moves it."""
    chat = Chat(ledger, {"preset": "xiangyang", "piao": "chosen"})
    own: dict[str, int] = {}
    for sender, target, amount in lines:
        text = f"漂 {amount}" if target is None else f"漂 @{_name(target)} {amount}"
        chat.say(SEATS[sender], text)
        if target in (None, sender):
            own[sender] = amount
    replies: list[Any] = chat.say(SEATS["B"], "胡 清一色 自摸")
    for _ in range(3):
        question = next((r for r in replies if r.buttons and "漂几" in r.text), None)
        if question is None:
            break
        asked = next(seat for seat in "ABC" if f"{_name(seat)} 这局漂几" in question.text)
        for other in "ABC":  # everyone else's press first: refused, nothing kept
            if other != asked:
                chat.press(SEATS[other], buttons(question)["5"])
        replies = [e for e in chat.press(SEATS[asked], buttons(question)["0"]) if hasattr(e, "buttons")]
    paid = {payee: 0 for payee in ("ajie", "laowang")}
    for payer, _payee, amount, reason in chat.booked():
        if reason == "piao":
            paid[payer] += amount
    winner = own.get("B", 0)
    assert paid == {"ajie": (own.get("A", 0) + winner) * 100, "laowang": (own.get("C", 0) + winner) * 100}


def _name(seat: str) -> str:
    return {"A": "ajie", "B": "xiaoli", "C": "laowang"}[seat]
