"""The Mini App's API over HTTP, on SQLite and PostgreSQL: what a member sees, what a seated player or an admin
books (through the command layer, once, with the group told), and every refusal booking nothing."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from bot.webapp.auth import sign_start, start_key
from ledger.service import Ledger
from tests.webapp.served import BOSS, GROUP, STRANGER, TOKEN, A, B, C, Chat, D, Served, init_data, start_param

WIN = {
    "action": "hu",
    "winner": "阿杰",
    "concealed": ["1p", "2p", "3p", "4p", "6p", "7s", "8s", "9s", "2s", "2s", "3s", "3s", "3s"],
    "melds": [],
    "win_tile": "5p",
    "method": "discard",
    "from": "小李",
    "situations": [],
}


def login(served: Served, user: dict[str, Any], *, chat_id: int = GROUP, token: str = TOKEN) -> str:
    return init_data(user, served.ledger.now(), start=sign_start(chat_id, 0, start_key(token)))


def balances(ledger: Ledger) -> dict[str, int]:
    return {line.name: line.amount for line in ledger.balances(GROUP).lines if line.kind != "pot"}


def group_texts(served: Served) -> list[str]:
    return [str(c.params["text"]) for c in served.telegram.calls if c.method == "sendMessage"]


# ------------------------------------------------------------------------------------------------------ refusals


@pytest.mark.parametrize("path", ["api/session", "api/board", "api/night"])
def test_every_api_request_without_valid_init_data_is_401(served: Served, chat: Chat, path: str) -> None:
    now = served.ledger.now()
    genuine = login(served, A)
    cases = [
        ("missing", None),
        ("bad_hash", genuine.replace("%E9%98%BF", "%E5%B0%8F")),  # another first name, the same hash
        ("stale", init_data(A, now.replace(year=2025), start=start_param())),
        ("bad_hash", init_data(A, now, start=start_param(), token="1:OTHER-BOT")),  # another bot's signature
        ("bad_start", init_data(A, now, start=sign_start(GROUP, 0, start_key("1:OTHER-BOT")))),
    ]
    for reason, init in cases:
        status, answer = served.call(path, init=init)
        assert (status, answer["error"]) == (401, reason)
        assert answer["message"]  # a sentence the page shows


def test_a_refused_record_books_nothing(served: Served, chat: Chat, table_id: int) -> None:
    before = balances(served.ledger)
    forged = login(served, A).replace("auth_date=", "auth_date=1")
    for init in (None, forged, init_data(A, served.ledger.now(), start=start_param(token="1:OTHER"))):
        status, _ = served.call("api/record", init=init, body={**WIN, "table_id": table_id, "request_id": "r" * 16})
        assert status == 401
    assert balances(served.ledger) == before
    assert not any("小程序" in text for text in group_texts(served))


def test_only_members_of_the_group_get_in(served: Served, chat: Chat) -> None:
    status, answer = served.call("api/board", init=login(served, STRANGER))
    assert (status, answer["error"]) == (403, "not_member")
    served.telegram.statuses[A["id"]] = "left"  # 阿杰 left the group: the ledger still knows them, Telegram says no
    status, _ = served.call("api/board", init=login(served, A))
    assert status == 403


def test_the_start_parameter_in_a_header_serves_private_chat_buttons(served: Served, chat: Chat) -> None:
    plain = init_data(B, served.ledger.now())  # a web_app button's initData carries no start_param
    status, _ = served.call("api/board", init=plain)
    assert status == 401
    status, answer = served.call("api/board", init=plain, start=start_param())
    assert status == 200 and answer["me"]["seat"] == "小李"
    status, _ = served.call("api/board", init=plain, start=sign_start(B["id"] + 1, 0, start_key(TOKEN)))
    assert status == 403  # someone else's private chat


def test_only_seated_players_and_admins_record(served: Served, chat: Chat, table_id: int, ledger: Ledger) -> None:
    body = {"action": "liangdao", "player": "老王", "table_id": table_id, "request_id": "liang-by-d-1"}
    status, answer = served.call("api/record", init=login(served, D), body=body)
    assert (status, answer["error"]) == (403, "not_seated")
    assert ledger.hand_state(table_id).liangdao == ()
    status, answer = served.call("api/record", init=login(served, BOSS), body={**body, "request_id": "liang-by-boss"})
    assert status == 200 and answer["ok"], answer
    assert ledger.hand_state(table_id).liangdao == ("老王",)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"winner": "Mallory"}, "not_seated_player"),
        ({"concealed": ["1p"] * 15}, "bad_request"),
        ({"concealed": ["1m", *WIN["concealed"][1:]]}, "bad_tile"),  # 万 is not one of this table's suits
        ({"concealed": ["0p", *WIN["concealed"][1:]]}, "bad_request"),
        ({"method": "magic"}, "bad_request"),
        ({"situations": ["gangshangkaihua"]}, "bad_request"),  # 杠上开花 is a self-draw
        ({"from": None}, "discarder_missing"),
        ({"table_id": 0}, "table_changed"),
    ],
)
def test_bad_taps_are_refused_with_a_reason(
    served: Served, chat: Chat, table_id: int, change: dict[str, Any], error: str
) -> None:
    before = balances(served.ledger)
    body = {**WIN, "table_id": table_id, "request_id": "bad-tap-0001", **change}
    status, answer = served.call("api/record", init=login(served, A), body=body)
    assert status in {400, 409, 422}
    assert answer["error"] == error and answer["message"]
    assert balances(served.ledger) == before


def test_a_body_that_is_not_json_or_too_big_is_refused(served: Served, chat: Chat, table_id: int) -> None:
    status, _ = served.call("api/record", init=login(served, A), body=["not", "an", "object"])  # type: ignore[arg-type]
    assert status == 400
    status, _ = served.call("api/preview", init=login(served, A), body={"pad": "x" * 20_000})
    assert status == 413


# ------------------------------------------------------------------------------------------------------ the board


def test_me_is_named_as_the_bot_names_them(served: Served, chat: Chat) -> None:
    """`me.name` is the ledger's name (a 名片, 老王#2, a seat's name while its table is open), as every reply has it."""
    assert "路哥" in chat.texts(D, "名片 路哥")
    assert served.call("api/board", init=login(served, D))[1]["me"]["name"] == "路哥"  # Telegram: 路人
    chat.texts(A, "名片 杰哥")
    assert served.call("api/board", init=login(served, A))[1]["me"]["name"] == "阿杰"  # seated: the seat's name
    chat.texts(A, "荒庄")
    chat.texts(A, "开桌 @xiaoli @laowang @luren 庄 @xiaoli")  # the table ends: 杰哥 from here on
    assert served.call("api/board", init=login(served, A))[1]["me"]["name"] == "杰哥"


def test_the_board_shows_the_table_and_follows_the_chat(served: Served, chat: Chat, table_id: int) -> None:
    status, board = served.call("api/board", init=login(served, A))
    assert status == 200
    seats = board["table"]["seats"]
    assert [s["name"] for s in seats] == ["阿杰", "小李", "老王"]
    assert [s["dealer"] for s in seats] == [True, False, False]
    assert board["table"]["hand"] == 1 and board["table"]["events"] == []
    me = {"user_id": A["id"], "name": "阿杰", "seat": "阿杰", "admin": False, "may_record": True, "old_link": False}
    assert board["me"] == me
    linked = init_data(A, served.ledger.now(), start=start_param(GROUP, table_id))
    assert served.call("api/board", init=linked)[1]["me"]["old_link"] is False
    earlier = init_data(A, served.ledger.now(), start=start_param(GROUP, table_id - 1 or 99))
    assert served.call("api/board", init=earlier)[1]["me"]["old_link"] is True  # a link of an ended table

    answered: dict[str, Any] = {}

    def wait() -> None:
        answered["board"] = served.call(f"api/board?since={board['version']}", init=login(served, C))[1]

    waiter = threading.Thread(target=wait)
    waiter.start()
    waiter.join(0.5)
    assert waiter.is_alive()  # nothing changed: the request waits
    assert "直杠" in chat.texts(B, "直杠 9p 点 @ajie")
    waiter.join(10)
    after = answered["board"]
    assert after["version"] != board["version"]
    assert [e["text"] for e in after["table"]["events"]] == ["小李 直杠 九筒（点杠 阿杰）"]
    assert [s["night"]["amount"] for s in after["table"]["seats"]] == [-200, 200, 0]


# ------------------------------------------------------------------------------------------------------ the picker


def test_the_preview_counts_waits_and_prices_the_win(served: Served, chat: Chat, table_id: int) -> None:
    body = {**WIN, "table_id": table_id, "win_tile": None}
    status, answer = served.call("api/preview", init=login(served, D), body=body)  # anyone in the group may look
    assert status == 200
    assert answer == {"count": 13, "complete": False, "missing": 1, "waits": ["5p"]}
    status, answer = served.call("api/preview", init=login(served, D), body={**body, "concealed": WIN["concealed"][:5]})
    assert answer["missing"] == 9 and "waits" not in answer
    status, answer = served.call("api/preview", init=login(served, D), body={**body, "win_tile": "5p"})
    assert answer["ok"] and answer["complete"]
    assert answer["summary"] == "closed five (卡五星)×2" and (answer["multiplier"], answer["final_multiplier"]) == (
        2,
        2,
    )
    assert answer["payments"] == [{"from": "小李", "to": "阿杰", "amount": 200, "shown": "2元"}]
    assert answer["line"] == "胡 @阿杰 12346p22333789s 5p 点 @小李"


def test_a_preview_that_would_be_refused_says_why(served: Served, chat: Chat, table_id: int) -> None:
    pihu = ["1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "2s", "2s", "3s", "4s"]
    body = {**WIN, "table_id": table_id, "concealed": pihu, "win_tile": "5s"}
    status, answer = served.call("api/preview", init=login(served, A), body=body)
    assert status == 200 and answer["ok"] is False
    assert "屁胡" in answer["error"]  # 屁胡只能自摸: the booking would be refused the same way
    status, answer = served.call("api/preview", init=login(served, D), body=body)  # an English page
    assert status == 200 and answer["ok"] is False
    assert "a plain win (屁胡, ×1) must be self-drawn, not won on a discard" in answer["error"]


# ------------------------------------------------------------------------------------------------------ recording


def test_a_tapped_win_books_once_and_the_group_sees_the_reply(
    served: Served, chat: Chat, table_id: int, ledger: Ledger
) -> None:
    body = {**WIN, "table_id": table_id, "request_id": "5f0c2b8e9a7d4c1f"}
    status, answer = served.call("api/record", init=login(served, B), body=body)  # 小李 records 阿杰's win on them
    assert status == 200 and answer["ok"], answer
    assert answer["line"] == "胡 @阿杰 12346p22333789s 5p 点 @小李"
    assert "阿杰 胡 小李 点的炮：卡五星×2" in answer["reply"]
    assert balances(ledger) == {"阿杰": 200, "小李": -200, "老王": 0, "路人": 0}
    posted = [t for t in group_texts(served) if "小程序" in t]
    assert posted == [f"📱 小李 在小程序里记：{answer['line']}\n{answer['reply']}"]
    message = next(
        c.params for c in served.telegram.calls if c.method == "sendMessage" and "小程序" in c.params["text"]
    )
    assert "reply_parameters" not in message  # there is no message of the player's to reply to

    again = served.call("api/record", init=login(served, B), body=body)  # a retry of the same request
    assert again == (status, answer)
    assert balances(ledger)["阿杰"] == 200
    assert len([t for t in group_texts(served) if "小程序" in t]) == 1
    assert ledger.current_table(GROUP).hand_number == 2  # type: ignore[union-attr]


def test_the_same_request_twice_at_once_books_once(served: Served, chat: Chat, table_id: int, ledger: Ledger) -> None:
    body = {**WIN, "table_id": table_id, "request_id": "double-tap-0001"}
    answers: list[Any] = []
    threads = [
        threading.Thread(target=lambda: answers.append(served.call("api/record", init=login(served, A), body=body)))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(answers) == 3 and len({json.dumps(a, sort_keys=True) for a in answers}) == 1
    assert balances(ledger)["阿杰"] == 200


def test_kongs_liangdao_draw_and_undo_from_the_board(served: Served, chat: Chat, table_id: int, ledger: Ledger) -> None:
    def record(user: dict[str, Any], rid: str, **body: Any) -> dict[str, Any]:
        status, answer = served.call(
            "api/record", init=login(served, user), body={**body, "table_id": table_id, "request_id": rid}
        )
        assert status == 200, answer
        return answer

    assert record(C, "kong-00001", action="gang", player="老王", kind="angang", tile="7z")["line"] == "杠 @老王 暗 7z"
    assert (
        record(A, "kong-00002", action="gang", player="阿杰", kind="zhigang", tile="9p", **{"from": "小李"})["line"]
        == "杠 @阿杰 直 9p 点 @小李"
    )
    chained = record(B, "kong-00003", action="gang", player="小李", kind="zhigang", chain=True, **{"from": "阿杰"})
    assert chained["line"] == "杠 @小李 直 点 @阿杰 杠上杠" and "杠上杠第2杠 ×2" in chained["reply"]
    assert record(A, "liang-0001", action="liangdao", player="阿杰")["line"] == "亮倒 @阿杰"
    state = ledger.hand_state(table_id)
    assert [e["type"] for e in state.events] == ["gang", "gang", "gang", "liangdao"]
    assert record(A, "undo-00001", action="undo")["line"] == "撤销"
    assert ledger.hand_state(table_id).liangdao == ()
    assert "荒庄" in record(C, "draw-00001", action="draw")["reply"]
    assert ledger.current_table(GROUP).hand_number == 2  # type: ignore[union-attr]


def test_a_refusal_of_the_command_layer_is_shown_not_posted(served: Served, chat: Chat, table_id: int) -> None:
    body = {"action": "gang", "player": "老王", "kind": "zhigang", "chain": True, "from": "阿杰", "table_id": table_id}
    status, answer = served.call("api/record", init=login(served, C), body={**body, "request_id": "chain-first"})
    assert status == 422 and answer["error"] == "refused" and "杠上杠" in answer["message"]
    assert not any("小程序" in t for t in group_texts(served))


def test_the_night_page_has_history_settlement_and_chart(served: Served, chat: Chat, table_id: int, clock: Any) -> None:
    chat.say(A, "胡 123p46p789s22s333s 5p 点 @xiaoli")
    clock.advance(minutes=3)  # a hand takes minutes (another win at once would be asked about as the same hand)
    chat.say(C, "胡 清一色 自摸")
    status, night = served.call("api/night", init=login(served, C))
    assert status == 200
    tonight = night["night"]
    assert tonight["open"] and [hand["number"] for hand in tonight["hands"]] == [1, 2]
    assert tonight["hands"][0]["lines"] == ["阿杰 胡 小李 点的炮：卡五星×2 → ×2"]
    assert tonight["hands"][1]["net"] == [
        {"name": "阿杰", "shown": "-4元"},
        {"name": "小李", "shown": "-4元"},
        {"name": "老王", "shown": "+8元"},
    ]
    points = [[0, 0, 0], [200, -200, 0], [-200, -600, 800]]
    assert tonight["series"] == {"names": ["阿杰", "小李", "老王"], "points": points}
    assert tonight["settlement"] == [
        {"from": "小李", "to": "老王", "amount": 600, "shown": "6元"},
        {"from": "阿杰", "to": "老王", "amount": 200, "shown": "2元"},
    ]


def test_every_board_a_watcher_gets_is_whole(served: Served, chat: Chat, table_id: int) -> None:
    """Kongs typed as fast as the chat can book them while a page follows the board: each board it receives shows
    every kong it lists with that kong's money (never an event without its money, or money without its event)."""
    players = {"阿杰": A, "小李": B, "老王": C}
    order = ["阿杰", "小李", "老王", "小李", "阿杰", "老王", "老王", "阿杰"]
    seen: list[dict[str, Any]] = []
    done, following = threading.Event(), threading.Event()

    def watch() -> None:
        version = ""
        while not done.is_set() or not seen or len(seen[-1]["table"]["events"]) < len(order):
            status, board = served.call(f"api/board?since={version}", init=login(served, C), timeout=30)
            assert status == 200
            if board["version"] != version:
                seen.append(board)
                version = board["version"]
            following.set()

    watcher = threading.Thread(target=watch)
    watcher.start()
    assert following.wait(30)  # the page follows the board before the first kong (bookings outrun a slow start)
    for tile, name in zip(["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p"], order, strict=True):
        assert "暗杠" in chat.texts(players[name], f"暗杠 {tile}")
    done.set()
    watcher.join(60)
    assert not watcher.is_alive() and len(seen) >= 2
    for board in seen:
        expected = dict.fromkeys(players, 0)
        for event in board["table"]["events"]:
            kong = event["text"].split(" ")[0]
            for name in expected:
                expected[name] += 400 if name == kong else -200
        assert {s["name"]: s["night"]["amount"] for s in board["table"]["seats"]} == expected


def test_a_record_that_asks_a_question_is_not_reported_booked(served: Served, ledger: Ledger) -> None:
    chat = Chat(served.core, frozenset({BOSS["id"]}))
    for user in (A, B, C, D):
        chat.say(user, "晚上好")
    assert "自摸买马" in chat.texts(BOSS, "设置 买马 自摸买马")  # the tables opened from now on buy a horse
    assert "开桌了" in chat.texts(A, "开桌 @ajie @xiaoli @laowang 庄 @ajie")
    table_id = ledger.current_table(GROUP).id  # type: ignore[union-attr]
    body = {**WIN, "method": "self_draw", "from": None, "table_id": table_id, "request_id": "asks-horse-01"}
    status, answer = served.call("api/record", init=login(served, A), body=body)
    assert status == 200 and answer["ok"] and answer["asked"] is True, answer
    assert set(balances(ledger).values()) == {0}  # nothing booked until it is answered
    question = next(
        c.params for c in served.telegram.calls if c.method == "sendMessage" and "小程序" in c.params["text"]
    )
    assert "reply_markup" in question  # the tile buttons that answer it are in the group


def test_a_booked_record_says_so(served: Served, chat: Chat, table_id: int) -> None:
    body = {**WIN, "table_id": table_id, "request_id": "plain-win-0001"}
    status, answer = served.call("api/record", init=login(served, B), body=body)
    assert status == 200 and answer["asked"] is False
