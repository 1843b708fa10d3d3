"""What regional rules make players tell, through the chat, on SQLite and PostgreSQL: the answer to each question
books exactly what the scoring core gives for the complete hand, once however often it is given; a stranger's tap
books nothing; a question whose hand was recorded another way expires; a hand told in one line books what the
same hand told through the questions books, and its money sums to zero."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands._recording import FLOW_PATTERNS
from bot.core import AnswerCallback, Bot, CallbackQuery, Incoming, ManualClock, Sender, SendText
from ledger.scoring import score
from ledger.scoring.kawuxing import PRESETS
from ledger.service import Ledger

A, B, C = (Sender(3000 + i, name, username=name) for i, name in enumerate(["ajie", "xiaoli", "laowang"]))
SEATS = {"A": A, "B": B, "C": C}
NAMES = {"A": "ajie", "B": "xiaoli", "C": "laowang"}
STRANGER = Sender(4000, "luren", username="luren")
NOW = datetime(2026, 1, 10, 12, tzinfo=UTC)
_chats = itertools.count(-700_000, -1)


@dataclass
class Chat:
    """One group chat with a seated 卡五星 table (ajie, xiaoli, laowang; ajie deals) under `rules`."""

    ledger: Ledger
    rules: dict[str, Any]
    chat: int = field(default_factory=lambda: next(_chats))
    message: Iterator[int] = field(default_factory=lambda: itertools.count(100))

    def __post_init__(self) -> None:
        self.bot = Bot(self.ledger, clock=ManualClock(NOW))
        self.ledger.update_group(self.chat, source=f"t:{self.chat}:rules", by=None, rules=self.rules)
        for sender in (A, B, C):
            self.say(sender, "来了")
        self.say(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")

    def say(self, sender: Sender, text: str, message_id: int | None = None) -> list[SendText]:
        number = next(self.message) if message_id is None else message_id
        incoming = Incoming(self.chat, number, sender, text, NOW, source=f"t:{self.chat}:{number}")
        return [e for e in self.bot.handle_message(incoming).effects if isinstance(e, SendText)]

    def press(self, sender: Sender, data: str) -> list[Any]:
        query = str(next(self.message))
        press = CallbackQuery(query, self.chat, 900, sender, data, NOW, source=f"t:{self.chat}:cb{query}")
        return self.bot.handle_callback(press).effects

    def booked(self) -> list[tuple[str, str, int, str]]:
        """The live money of the chat's finished hands, (payer, payee, amount, reason) sorted."""
        hands = self.ledger.history(self.chat, 50)
        return sorted((t.payer, t.payee, t.amount, t.reason) for hand in hands for t in hand.transfers)

    def hands(self) -> int:
        return len(self.ledger.history(self.chat, 50))


def expected(rules: dict[str, Any], events: list[dict[str, Any]]) -> list[tuple[str, str, int, str]]:
    """What the scoring core books for the complete hand (seat names as the table has them)."""
    request = {"game": "kawuxing", "rules": rules, "base": 100, "players": list(NAMES.values()), "dealer": "ajie"}
    answer = score({**request, "events": events})
    assert answer["ok"], answer
    return sorted((t["from"], t["to"], t["amount"], t["reason"]) for t in answer["transfers"])


def buttons(reply: SendText) -> dict[str, str]:
    return {button.label: button.data for row in reply.buttons for button in row}


def alerted(effects: Sequence[Any]) -> bool:
    return any(isinstance(e, AnswerCallback) and e.alert for e in effects)


def hu(winner: str, method: str, patterns: list[str], discarder: str | None = None, **extra: Any) -> dict[str, Any]:
    event = {"type": "hu", "winner": NAMES[winner], "method": method, "hand": {"patterns": patterns}, **extra}
    if discarder is not None:
        event["from"] = NAMES[discarder]
    return event


# ------------------------------------------------------------------------------------------------ each question


def test_a_kan_question_answered_by_a_tap_books_the_complete_hand_once(ledger: Ledger) -> None:
    chat = Chat(ledger, {"preset": "xiaogan"})
    [question] = chat.say(B, "胡 清一色 自摸")
    assert "几坎" in question.text and chat.hands() == 0  # asked, nothing booked
    two = buttons(question)["2"]
    assert alerted(chat.press(STRANGER, two)) and chat.hands() == 0
    chat.press(C, two)
    assert chat.booked() == expected({"preset": "xiaogan"}, [hu("B", "self_draw", ["qingyise"], kan=2)])
    assert alerted(chat.press(A, two))  # a second tap: the question is answered
    assert chat.hands() == 1
    assert chat.booked() == expected({"preset": "xiaogan"}, [hu("B", "self_draw", ["qingyise"], kan=2)])


def test_a_redelivered_record_after_its_answer_books_nothing_more(ledger: Ledger) -> None:
    chat = Chat(ledger, {"preset": "xiaogan"})
    [question] = chat.say(B, "胡 清一色 自摸", message_id=50)
    chat.press(C, buttons(question)["2"])
    [again] = chat.say(B, "胡 清一色 自摸", message_id=50)  # Telegram delivers the same message twice
    assert not again.buttons and "清一色" in again.text
    assert chat.hands() == 1
    assert chat.booked() == expected({"preset": "xiaogan"}, [hu("B", "self_draw", ["qingyise"], kan=2)])


def test_two_answers_racing_book_once(ledger: Ledger) -> None:
    """Two taps that both read the question before either booked: the booking carries the source of the message
    that recorded the hand, so the second is a replay."""
    chat = Chat(ledger, {"preset": "xiaogan"})
    [question] = chat.say(B, "胡 清一色 自摸", message_id=50)
    flow = ledger.load_flow(chat.chat, 50)
    assert flow is not None
    chat.press(C, buttons(question)["2"])
    ledger.save_flow(chat.chat, 50, flow.user_id, flow.kind, flow.state)  # the other tap's view: still asking
    chat.press(A, buttons(question)["2"])
    assert chat.hands() == 1
    assert chat.booked() == expected({"preset": "xiaogan"}, [hu("B", "self_draw", ["qingyise"], kan=2)])


def test_typed_answers_book_once_and_strangers_cannot_answer(ledger: Ledger) -> None:
    rules = {"preset": "xiaogan", "paoqiamoba": True}
    chat = Chat(ledger, rules)
    chat.say(C, "胡 清一色 自摸")
    refused = chat.say(STRANGER, "坎 1")[-1]  # after the welcome a newcomer gets
    assert "只有这桌的玩家" in refused.text and chat.hands() == 0
    [next_question] = chat.say(A, "坎 1")
    assert "几恰" in next_question.text and chat.hands() == 0
    chat.say(B, "恰2 八3")
    assert chat.booked() == expected(rules, [hu("C", "self_draw", ["qingyise"], kan=1, qia=2, ba=3)])
    [again] = chat.say(B, "恰2 八3")  # the same answer again: nothing is asked any more
    assert "没有在等" in again.text and chat.hands() == 1


def test_chadajiao_ready_hands_by_buttons_book_the_complete_draw(ledger: Ledger) -> None:
    rules = {"preset": "yingcheng"}
    chat = Chat(ledger, rules)
    chat.say(A, "亮倒")
    chat.say(C, "直杠 9p 点 @xiaoli")
    [question] = chat.say(B, "荒庄")
    pick = buttons(question)
    assert "✓ajie" in pick  # a 亮倒 player was ready
    chat.press(C, pick["xiaoli"])
    chat.press(C, pick["下一步 ▶"])
    key = pick["下一步 ▶"].rsplit(".", 1)[0]
    chat.press(C, f"{key}.p{FLOW_PATTERNS.index('kawuxing')}")  # ajie waited on a 卡五星
    chat.press(C, f"{key}.n")
    chat.press(C, f"{key}.n")  # xiaoli: a plain hand
    ready = {"ajie": {"patterns": ["kawuxing"]}, "xiaoli": {"patterns": []}}
    events = [
        {"type": "liangdao", "player": "ajie"},
        {"type": "gang", "player": "laowang", "kind": "zhigang", "from": "xiaoli", "tile": "9p"},
        {"type": "draw", "ready": ready},
    ]
    assert chat.booked() == expected(rules, events)


def test_chadajiao_told_in_the_line_needs_no_question_and_a_hand_that_waits_on_nothing_is_refused(
    ledger: Ledger,
) -> None:
    rules = {"preset": "yingcheng"}
    chat = Chat(ledger, rules)
    [question] = chat.say(A, "荒庄", message_id=60)
    [refused] = chat.say(B, "听 @xiaoli 19p19s1p9p5z6z7z2p3p4p5p")
    assert "没有听牌" in refused.text and chat.hands() == 0
    waiting = ledger.load_flow(chat.chat, 60)
    assert waiting is not None and waiting.finished_at is None and waiting.state["answers"] == []
    chat.say(B, "听 @xiaoli 123p456p789s234s5s @laowang 清一色")
    ready = {"xiaoli": {"concealed": "123p456p789s234s5s"}, "laowang": {"patterns": ["qingyise"]}}
    assert chat.booked() == expected(rules, [{"type": "draw", "ready": ready}])
    one_line = Chat(ledger, rules)
    one_line.say(A, "荒庄 听 @xiaoli 123p456p789s234s5s @laowang 清一色")
    assert one_line.booked() == chat.booked()
    assert "谁听牌" in question.text


def test_piao_told_during_the_hand_and_asked_at_its_end(ledger: Ledger) -> None:
    rules = {"preset": "xiangyang", "piao": "chosen"}
    chat = Chat(ledger, rules)
    chat.say(A, "漂 2")
    [question] = chat.say(B, "胡 卡五星 点 @ajie")
    assert "xiaoli 这局漂几" in question.text
    chat.press(B, buttons(question)["1"])  # xiaoli's own (another's press is refused: tests/bot/test_piao_own.py)
    chat.say(C, "漂 @laowang 3")
    piao = [{"type": "piao", "player": p, "amount": n} for p, n in (("ajie", 2), ("xiaoli", 1), ("laowang", 3))]
    assert chat.booked() == expected(rules, [*piao, hu("B", "discard", ["kawuxing"], "A")])
    [fixed] = Chat(ledger, {"preset": "xiangyang", "piao": "fixed"}).say(A, "漂 2")
    assert "定漂" in fixed.text


def test_first_hand_piao_is_carried_to_the_tables_later_hands(ledger: Ledger) -> None:
    rules = {"preset": "xiangyang", "piao": "first_hand"}
    chat = Chat(ledger, rules)
    for sender, amount in ((A, 1), (B, 2), (C, 0)):
        chat.say(sender, f"漂 {amount}")
    chat.say(B, "胡 清一色 自摸")
    first = chat.booked()
    [refused] = chat.say(A, "漂 5")
    assert "首局定漂" in refused.text
    chat.say(C, "胡 卡五星 点 @ajie")  # no question: the first hand's 漂 stands
    piao = [{"type": "piao", "player": p, "amount": n} for p, n in (("ajie", 1), ("xiaoli", 2), ("laowang", 0))]
    second = expected(rules, [*piao, hu("C", "discard", ["kawuxing"], "A")])
    assert chat.booked() == sorted(first + second)


def test_maima_asks_the_horse_tile_of_a_self_draw_only(ledger: Ledger, clock: Any) -> None:
    rules = {"preset": "xiangyang", "maima": "self_draw"}
    chat = Chat(ledger, rules)
    [question] = chat.say(C, "胡 碰碰胡 自摸")
    chat.press(B, buttons(question)["中"])
    clock.advance(minutes=3)  # a hand takes minutes (another win at once would be asked about as the same hand)
    chat.say(A, "胡 卡五星 点 @laowang")
    [refused] = chat.say(B, "胡 卡五星 点 @laowang 买马 3s")
    assert "只有自摸才买马" in refused.text
    assert chat.booked() == sorted(
        expected(rules, [hu("C", "self_draw", ["pengpenghu"], ma="7z")])
        + expected(rules, [hu("A", "discard", ["kawuxing"], "C")])
    )


def test_a_win_told_again_while_its_question_waits_is_refused_and_the_question_books(ledger: Ledger) -> None:
    """Booked, the win told again would drop the waiting one (its question expired, its money never booked)."""
    chat = Chat(ledger, {"preset": "xiaogan"})
    [question] = chat.say(B, "胡 清一色 自摸")
    [retold] = chat.say(B, "胡 清一色 自摸 坎1")
    assert retold.text.startswith("没有记：第1局已经报了 xiaoli 自摸，还在等 xiaoli 的坎数") and chat.hands() == 0
    chat.press(A, buttons(question)["1"])
    assert chat.booked() == expected({"preset": "xiaogan"}, [hu("B", "self_draw", ["qingyise"], kan=1)])


def test_the_win_flow_asks_before_its_preview_and_shows_the_groups_multipliers(ledger: Ledger) -> None:
    rules = {"preset": "xiaogan", "kawuxing_multiplier": 4}
    chat = Chat(ledger, rules)
    [flow] = chat.say(A, "胡")
    data = buttons(flow)
    for label in ("xiaoli", "点炮", "laowang", "卡五星", "预览 ▶"):
        reply = next(e for e in chat.press(A, data[label]) if isinstance(e, SendText))
        data = buttons(reply)
    assert "卡五星×4" in reply.text and "几坎" in reply.text
    reply = next(e for e in chat.press(A, data["0"]) if isinstance(e, SendText))
    assert "确认后记账" in reply.text
    chat.press(A, buttons(reply)["✅ 确认"])
    assert chat.booked() == expected(rules, [hu("B", "discard", ["kawuxing"], "C", kan=0)])


# --------------------------------------------------------------------------------------------------- property

REGIONS = {
    "xiaogan": {"preset": "xiaogan"},
    "pqmb": {"preset": "xiaogan", "paoqiamoba": True},
    "piao": {"preset": "xiangyang", "piao": "chosen"},
    "maima": {"preset": "xiangyang", "maima": "self_draw"},
    "yingcheng": {"preset": "yingcheng", "piao": "chosen"},
}
PATTERN_SETS = [["qingyise"], ["kawuxing"], ["qidui"], ["pengpenghu"], ["qingyise", "qidui"]]


@st.composite
def hands(draw: st.DrawFn) -> dict[str, Any]:
    region = draw(st.sampled_from(sorted(REGIONS)))
    winner = draw(st.sampled_from("ABC"))
    hand: dict[str, Any] = {
        "region": region,
        "draw": region == "yingcheng" and draw(st.booleans()),
        "winner": winner,
        "method": draw(st.sampled_from(["self_draw", "discard"])),
        "discarder": draw(st.sampled_from([p for p in "ABC" if p != winner])),
        "patterns": draw(st.sampled_from(PATTERN_SETS)),
        "kan": draw(st.integers(0, 4)),
        "qia": draw(st.integers(0, 4)),
        "ba": draw(st.integers(0, 6)),
        "ma": draw(st.sampled_from(["1p", "9s", "5z", "7z"])),
        "piao": {p: draw(st.integers(0, 5)) for p in "ABC"},
        "ready": draw(st.sets(st.sampled_from("ABC"))),
    }
    if "qidui" in hand["patterns"]:  # seven pairs hold no triplet: 0 坎 and 0 恰, never asked
        hand["kan"] = hand["qia"] = 0
    return hand


def one_line(chat: Chat, hand: dict[str, Any]) -> None:
    """The hand told in full: 漂 first where the table chooses it, then one line."""
    rules = REGIONS[hand["region"]]
    if rules.get("piao") == "chosen":  # each player's own (another's is refused)
        for p, n in hand["piao"].items():
            chat.say(SEATS[p], f"漂 {n}")
    if hand["draw"]:
        told = " ".join(f"@{NAMES[p]} 清一色" for p in sorted(hand["ready"]))
        chat.say(A, f"荒庄 听 {told}" if told else "荒庄 没人听")
        return
    chat.say(A, win_line(hand, inline=True))


def win_line(hand: dict[str, Any], *, inline: bool) -> str:
    rules = REGIONS[hand["region"]]
    who = f"@{NAMES[hand['winner']]} {' '.join(hand['patterns'])}"
    how = "自摸" if hand["method"] == "self_draw" else f"点 @{NAMES[hand['discarder']]}"
    extra = []
    if inline and rules.get("preset") == "xiaogan":
        extra.append(f"坎{hand['kan']}")
    if inline and rules.get("paoqiamoba"):
        extra.append(f"恰{hand['qia']} 八{hand['ba']}")
    if inline and rules.get("maima") and hand["method"] == "self_draw":
        extra.append(f"买马 {hand['ma']}")
    return " ".join(["胡", who, how, *extra])


def through_questions(chat: Chat, hand: dict[str, Any]) -> None:
    """The hand told bare, then every question answered by tapping the button it asks for."""
    answered(chat, chat.say(B, "荒庄" if hand["draw"] else win_line(hand, inline=False)), hand)


def answered(chat: Chat, replies: list[SendText], hand: dict[str, Any]) -> None:
    """Every question the replies ask answered, by tapping, until the record is booked: a 漂 by its player, the
    rest by laowang."""
    for _ in range(20):
        asked = [r for r in replies if r.buttons and any(b.data.startswith("ask:") for row in r.buttons for b in row)]
        if not asked:
            return
        data = answer_to(asked[-1], hand)
        code = data.rsplit(":", 1)[1].split(".")[1]
        sender = SEATS["ABC"[int(code[1:])]] if code[0] == "p" else C
        replies = [e for e in chat.press(sender, data) if isinstance(e, SendText)]
    raise AssertionError("still asking after 20 answers")


def answer_to(question: SendText, hand: dict[str, Any]) -> str:
    """The data of the button that answers `question` for this hand (`ask:<key>:q.<code>.<value>`)."""
    labels = buttons(question)
    head, action = next(data for data in labels.values() if ":q." in data).rsplit(":", 1)
    code = action.split(".")[1]
    if code[0] == "y":  # 查大叫: pick the ready players, then give each one 清一色
        if "没人听牌" in labels:
            if not hand["ready"]:
                return labels["没人听牌"]
            missing = [p for p in sorted(hand["ready"]) if NAMES[p] in labels]
            return labels[NAMES[missing[0]]] if missing else labels["下一步 ▶"]
        return labels["清一色"] if "清一色" in labels else labels["下一步 ▶"]
    if code[0] == "p":
        value = str(hand["piao"]["ABC"[int(code[1:])]])
    elif code[0] == "m":
        value = hand["ma"]
    else:
        value = str(hand[{"k": "kan", "a": "qia", "b": "ba"}[code[0]]])
    return f"{head}:q.{code}.{value}"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands())
def test_a_hand_told_in_one_line_books_what_it_books_through_the_questions(
    ledger: Ledger, hand: dict[str, Any]
) -> None:
    rules = REGIONS[hand["region"]]
    told, asked = Chat(ledger, rules), Chat(ledger, rules)
    one_line(told, hand)
    through_questions(asked, hand)
    assert told.hands() == asked.hands() == 1, (told.booked(), asked.booked())
    assert told.booked() == asked.booked()
    net: dict[str, int] = {}
    for payer, payee, amount, _reason in asked.booked():
        net[payer] = net.get(payer, 0) - amount
        net[payee] = net.get(payee, 0) + amount
    assert sum(net.values()) == 0


@pytest.mark.parametrize("line", ["坎 2", "买马 7s", "听 @xiaoli 清一色", "恰1 八2"])
def test_an_answer_nobody_asked_for_is_refused_saying_where_it_goes(ledger: Ledger, line: str) -> None:
    chat = Chat(ledger, {"preset": "yingcheng", "shukan": True, "paoqiamoba": True, "maima": "self_draw"})
    [refused] = chat.say(A, line)
    assert "没有在等" in refused.text and chat.hands() == 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_a_night_through_the_chat(ledger: Ledger, clock: Any, preset: str) -> None:
    """Kongs, a win by tiles, wins by patterns, a 亮倒 and a draw, each answered where the preset asks, then 结算:
    every hand booked is what the scoring core gives for the hand as recorded, and the night settles to zero."""
    chat = Chat(ledger, {"preset": preset})
    hand = {"kan": 1, "qia": 0, "ba": 0, "ma": "5p", "piao": dict.fromkeys("ABC", 0), "ready": {"A"}}
    chat.say(A, "暗杠 7z")
    answered(chat, chat.say(B, "胡 123p46p789s22s333s 5p 点 @laowang"), hand)
    clock.advance(minutes=3)  # a hand takes minutes
    answered(chat, chat.say(C, "胡 清一色 自摸"), hand)
    chat.say(A, "亮倒")
    answered(chat, chat.say(B, "荒庄"), hand)
    clock.advance(minutes=3)
    answered(chat, chat.say(A, "胡 七对 点 @xiaoli"), hand)
    records = ledger.history(chat.chat, 50)
    assert len(records) == 4
    for record in records:
        request = {"game": "kawuxing", "rules": {"preset": preset}, "base": 100, "players": list(NAMES.values())}
        answer = score({**request, "dealer": record.dealer, "events": list(record.events)})
        assert sorted((t.payer, t.payee, t.amount, t.reason) for t in record.transfers) == sorted(
            (t["from"], t["to"], t["amount"], t["reason"]) for t in answer["transfers"]
        )
    asked = {"xiaogan": "kan", "yingcheng": "ready"}.get(preset)
    told = {key for record in records for event in record.events for key in event if key in ("kan", "ready")}
    assert told == ({asked} if asked else set())
    chat.say(A, "结算")
    assert ledger.current_night(chat.chat) is None
    assert sum(line.amount for line in ledger.balances(chat.chat).lines) == 0


@pytest.mark.parametrize("line", ["听 我说", "八 点见", "漂 亮啊", "坎 坷不平", "买马 去了", "恰 好"])
def test_chat_that_starts_with_an_answer_word_gets_no_reply(ledger: Ledger, line: str) -> None:
    chat = Chat(ledger, {"preset": "yingcheng", "shukan": True, "paoqiamoba": True, "maima": "self_draw"})
    assert chat.say(A, line) == [] and chat.hands() == 0


def test_a_question_answered_after_the_rijie_hour_posts_the_closed_night(ledger: Ledger, clock: Any) -> None:
    """The answer that books a hand past the 日切 hour rolls the table over like a typed record does: the hand's
    reply, then last night's post (picture, fewest transfers, payments with their buttons)."""
    from bot.core import SendPhoto

    chat = Chat(ledger, {"preset": "xiaogan"})
    [question] = chat.say(B, "胡 清一色 自摸")
    chat.press(C, buttons(question)["2"])
    clock.advance(hours=12)  # 08:00 in Shanghai
    [question] = chat.say(B, "胡 清一色 自摸")
    effects = chat.press(C, buttons(question)["2"])
    replies = [e for e in effects if isinstance(e, SendText)]
    assert replies[0].text.startswith("已过日切（6点）") and replies[0].edit_message_id is not None
    (photo,) = (e for e in effects if isinstance(e, SendPhoto))
    assert "最少转账" in photo.caption
    post = replies[-1]
    assert post.text.startswith("付款：") and any("已付" in label for label in buttons(post))
    assert chat.hands() == 2
