"""Who an @mention is, through the real adapter and a fake Bot API: a `mention` entity's username is matched only
against the username Telegram reported on that member's own messages, a `text_mention` by its user id. Display
names and 名片 are labels: an impostor whose first name is another member's username, or who claimed their name as
a 名片, never sits, pays, receives or is punished in their place. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings
from bot.core import Bot
from bot.telegram.app import build_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT, FakeTelegram, RecordingRequest, user
from tests.bot.test_telegram import Harness, _Clock

AJIE = user(501, "阿杰", "ajie")
XIAOLI = user(502, "小李", "xiaoli")
LAOWANG = user(503, "老王", "laowang")
IMPOSTOR = user(666, "laowang", "imp666")  # first name: the real @laowang's username
BOSS = user(500, "群主", "boss")
HAND = "123p46p789s22s333s 5p"


@pytest.fixture
async def tg(ledger: Ledger, clock: Any) -> AsyncIterator[Harness]:
    telegram = FakeTelegram(admins=[BOSS])
    request = RecordingRequest(telegram)
    app = build_application(
        Settings(), Bot(ledger, clock=_Clock(clock)), "123456:TESTTOKEN", request=request, rate_limit=False
    )
    await app.initialize()
    harness = Harness(app, telegram, ledger)
    for person in (AJIE, XIAOLI, LAOWANG, IMPOSTOR, BOSS):  # everyone has spoken, so Telegram told us who is who
        await harness.say(person, "来了")
    yield harness
    await harness.app.shutdown()


def account(tg: Harness, user_id: int) -> int:
    return next(m.id for m in tg.ledger.members(CHAT["id"]) if m.user_id == user_id)


def balance(tg: Harness, user_id: int) -> int:
    return tg.ledger.balances(CHAT["id"]).of(account(tg, user_id))


async def open_with_laowang(tg: Harness) -> None:
    await tg.say(AJIE, "开桌 @ajie @xiaoli @laowang 庄 @laowang")
    assert "座位：阿杰、小李、老王" in tg.last_text() and "庄家 老王" in tg.last_text()


async def test_opening_seats_the_username_holder_not_the_look_alike(tg: Harness) -> None:
    await open_with_laowang(tg)
    table = tg.ledger.current_table(CHAT["id"])
    assert table is not None
    seated = {seat.user_id for seat in table.seats}
    assert seated == {501, 502, 503} and table.dealer == "老王"


async def test_a_win_and_a_kong_off_laowang_charge_the_real_one(tg: Harness) -> None:
    await open_with_laowang(tg)
    await tg.say(XIAOLI, "直杠 9p 点 @laowang")
    await tg.say(AJIE, f"胡 {HAND} 点 @laowang")
    assert balance(tg, 503) < 0 and balance(tg, 666) == 0
    assert balance(tg, 501) + balance(tg, 502) + balance(tg, 503) == 0


async def test_liangdao_of_laowang_is_the_real_ones(tg: Harness) -> None:
    await open_with_laowang(tg)
    await tg.say(AJIE, "亮倒 @laowang")
    state = tg.ledger.hand_state(tg.ledger.current_table(CHAT["id"]).id)  # type: ignore[union-attr]
    assert state.liangdao == ("老王",)


async def test_the_look_alike_seated_too_never_answers_to_the_username(tg: Harness) -> None:
    """Both at one table: the impostor's seat is renamed (a seat name never spells a seated player's username),
    and `@laowang` is the holder of the username."""
    await tg.say(AJIE, "开桌 @imp666 @laowang @ajie")
    assert "座位：laowang#2、老王、阿杰" in tg.last_text()
    await tg.say(AJIE, f"胡 {HAND} 点 @laowang")
    assert balance(tg, 503) == -200 and balance(tg, 666) == 0 and balance(tg, 501) == 200


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        ("罚款 @laowang 3 迟到", "老王 被罚发红包 3元"),
        ("警告 @laowang 捣乱", "老王 被管理员警告"),
        ("请出 @laowang 捣乱", "老王"),
        ("封禁 @laowang 捣乱", "老王"),
        ("群规编辑 @laowang", "老王 不是管理员"),  # the real 老王 is named, and refused: not an admin
        ("名片 @laowang 王哥", "老王 在账上叫「王哥」"),
    ],
)
async def test_admin_commands_reach_the_username_holder(tg: Harness, command: str, reply: str) -> None:
    await tg.say(BOSS, command)
    assert reply in tg.last_text() and "laowang 被" not in tg.last_text()
    if command.startswith("罚款"):
        assert balance(tg, 503) == -300 and balance(tg, 666) == 0
    if command.startswith(("请出", "封禁")):
        assert [int(b["user_id"]) for b in tg.telegram.sent("banChatMember")] == [503]
    if command.startswith("名片"):
        names = {m.user_id: m.name for m in tg.ledger.members(CHAT["id"])}
        assert names[503] == "王哥" and names[666] == "laowang"


async def test_paying_out_the_pot_pays_the_username_holder(tg: Harness) -> None:
    await tg.say(BOSS, "罚款 @xiaoli 5")
    await tg.say(BOSS, "发红包池 @laowang 2")
    assert "老王" in tg.last_text()
    assert balance(tg, 503) == 200 and balance(tg, 666) == 0


async def test_balance_of_laowang_is_the_real_ones(tg: Harness) -> None:
    await tg.say(BOSS, "罚款 @laowang 1")
    await tg.say(AJIE, "余额 @laowang")
    assert "老王" in tg.last_text() and "-1元" in tg.last_text()


async def test_linking_a_guest_moves_their_record_to_the_username_holder(tg: Harness) -> None:
    await tg.say(AJIE, "开桌 @ajie @xiaoli 老表")
    await tg.say(AJIE, "胡 清一色 自摸")
    await tg.say(AJIE, "结算")
    await tg.say(BOSS, "关联 老表 @laowang")
    assert "老王" in tg.last_text()
    assert balance(tg, 503) == -400 and balance(tg, 666) == 0


async def test_a_display_name_after_an_at_is_refused_not_guessed(tg: Harness) -> None:
    """`@老王` is no username (Telegram marks no entity): it names nobody, and money moves to nobody."""
    await tg.say(BOSS, "罚款 @老王 3")
    assert "不是 Telegram 用户名" in tg.last_text()
    await tg.say(BOSS, "发红包池 @Laowang 1")  # the impostor's display name, spelled as a username holder's
    assert "红包池" in tg.last_text()  # the pot is empty: refused before anything moves
    assert balance(tg, 503) == 0 and balance(tg, 666) == 0


async def test_a_plain_member_name_is_no_guest_and_no_member(tg: Harness) -> None:
    await tg.say(AJIE, "开桌 @ajie @xiaoli laowang")
    assert "是群成员的名字" in tg.last_text()
    assert tg.ledger.current_table(CHAT["id"]) is None
    assert not [m for m in tg.ledger.members(CHAT["id"]) if m.kind == "guest"]


async def test_a_text_mention_is_the_user_it_carries(tg: Harness) -> None:
    """Picking the impostor from Telegram's list is choosing them: the id decides, whatever their name."""
    update = tg.updates.message(BOSS, "罚款 laowang 2")
    update["message"]["entities"] = [{"type": "text_mention", "offset": 3, "length": 7, "user": IMPOSTOR}]
    await tg.feed(update)
    assert balance(tg, 666) == -200 and balance(tg, 503) == 0


async def test_a_picked_name_spelled_like_someone_elses_username_is_refused(tg: Harness) -> None:
    """A member without a username picked from the list is written `@<their name>`; when that name is spelled like
    a username also mentioned in the message, the line names two people with one word: refused."""
    nameless = user(667, "laowang")
    await tg.say(nameless, "我也是 laowang")
    await tg.say(AJIE, "开桌 @ajie @xiaoli @laowang")
    text = f"胡 {HAND} 点 laowang @laowang"
    update = tg.updates.message(AJIE, text)
    at = text.index("laowang")
    update["message"]["entities"] = [
        {"type": "text_mention", "offset": at, "length": 7, "user": nameless},
        {"type": "mention", "offset": at + 8, "length": 8},
    ]
    await tg.feed(update)
    assert "@laowang 可能是两个人" in tg.last_text()
    assert balance(tg, 503) == 0 and balance(tg, 667) == 0


async def test_a_name_card_cannot_take_someones_username(tg: Harness) -> None:
    await tg.say(IMPOSTOR, "名片 LaoWang")
    assert "「LaoWang」已经是 老王 在用的名字了" in tg.last_text()
    assert next(m for m in tg.ledger.members(CHAT["id"]) if m.user_id == 666).alias is None


async def test_a_name_card_claimed_before_its_owner_spoke_diverts_nothing(tg: Harness) -> None:
    """The impostor takes 名片 vic before vic has ever spoken; then vic speaks and is seated by @vic."""
    vic = user(507, "Victor", "vic")
    await tg.say(IMPOSTOR, "名片 vic")
    assert "「vic」" in tg.last_text()
    await tg.say(vic, "我来了")  # Telegram reports vic's username: the look-alike 名片 is cleared
    assert next(m for m in tg.ledger.members(CHAT["id"]) if m.user_id == 666).alias is None
    await tg.say(AJIE, "开桌 @ajie @vic @imp666")
    await tg.say(vic, "胡 清一色 自摸")
    assert "座位：阿杰、Victor、laowang" in tg.telegram.texts()[-2]  # the impostor under their own name again
    assert balance(tg, 507) == 800 and balance(tg, 666) == -400


async def test_a_username_that_moved_belongs_to_whoever_reported_it_last(tg: Harness) -> None:
    """laowang renames his username; the impostor takes `laowang` and speaks: Telegram says @laowang is now the
    impostor, and the ledger keeps no second holder to guess between."""
    await tg.say(user(503, "老王", "laowang_old"), "改名了")
    await tg.say(user(666, "laowang", "laowang"), "我是 laowang")
    await tg.say(BOSS, "罚款 @laowang 1")
    assert balance(tg, 666) == -100 and balance(tg, 503) == 0
    holders = [m for m in tg.ledger.members(CHAT["id"]) if (m.username or "").lower() == "laowang"]
    assert [m.user_id for m in holders] == [666]


async def open_with_nameless(tg: Harness) -> dict[str, Any]:
    """阿杰 opens a table with 小李 and 小马, a member without a username picked from Telegram's list; 小马."""
    nameless = user(668, "小马")
    await tg.say(nameless, "我也来")
    opening = tg.updates.message(AJIE, "开桌 @ajie @xiaoli 小马")
    opening["message"]["entities"] = [
        {"type": "mention", "offset": 3, "length": 5},
        {"type": "mention", "offset": 9, "length": 7},
        {"type": "text_mention", "offset": 17, "length": 2, "user": nameless},
    ]
    await tg.feed(opening)
    return nameless


async def test_a_suggestion_tapped_later_names_the_same_picked_member(tg: Harness) -> None:
    """「是不是」 runs the reading later, from a tap: a member picked from Telegram's list (no username) is still
    the account the text mention carried, and a redelivery of the misspelt line asks nothing again."""
    nameless = await open_with_nameless(tg)
    assert "座位：阿杰、小李、小马" in tg.last_text()
    text = "胡 清一涩 点 小马"
    update = tg.updates.message(AJIE, text)
    update["message"]["entities"] = [
        {"type": "text_mention", "offset": text.index("小马"), "length": 2, "user": nameless}
    ]
    await tg.feed(update)
    question = tg.telegram.sent()[-1]
    assert "是不是" in question["text"], question["text"]
    asked = len(tg.telegram.sent())
    await tg.feed(update)  # Telegram delivers the same update again
    assert len(tg.telegram.sent()) == asked
    data = question["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
    await tg.feed(tg.updates.press(XIAOLI, {"message_id": 1, "text": question["text"]}, data))
    assert balance(tg, 668) < 0 and balance(tg, 501) > 0  # the picked member pays, by the id Telegram gave


async def test_a_payment_hint_names_people_the_way_they_can_be_written(tg: Harness) -> None:
    """A refused payment suggests the line to type: with the @username Telegram knows (a display name after `@`
    is refused), and for a member without one, the way to pick them from the list, never `@<display name>`."""
    nameless = await open_with_nameless(tg)
    await tg.say(AJIE, "胡 清一色 自摸")
    await tg.say(AJIE, "结算")
    await tg.say(XIAOLI, "付 @ajie 100")
    assert "付清写 已转 @ajie。" in tg.last_text(), tg.last_text()
    await tg.say(AJIE, "收到 @xiaoli 100")
    assert "收到 @xiaoli 4元" in tg.last_text(), tg.last_text()
    text = "收到 小马 100"
    update = tg.updates.message(AJIE, text)
    update["message"]["entities"] = [{"type": "text_mention", "offset": 3, "length": 2, "user": nameless}]
    await tg.feed(update)
    hint = tg.last_text()
    assert "从列表点选 小马" in hint and "@小马" not in hint, hint
    assert balance(tg, 668) == -400  # nothing was booked by the refusals


async def test_the_payments_post_shows_its_first_open_line_as_the_line_to_type(tg: Harness) -> None:
    """The payments post's typing hint is a real line of it, names written as Telegram lets them be (the @username,
    or picked from the list), the amount still open; a line paid and waiting only for its payee's word is typed as
    `收到 @…`; a post paid up and confirmed shows no hint."""

    def head() -> str:  # the post as it reads now (a typed payment rewrites it in place)
        return next(t for t in reversed(tg.telegram.texts()) if t.startswith("付款：")).split("\n", 1)[0]

    await open_with_nameless(tg)
    await tg.say(AJIE, "胡 清一色 自摸")
    await tg.say(AJIE, "结算")
    first = head()
    assert "也可打字：付 @ajie 4元、收到 " in first and "@小马" not in first and "11" not in first, first
    await tg.say(XIAOLI, "付 @ajie 4")
    await tg.say(AJIE, "收到 @xiaoli 4")
    assert "（也可打字：付 @ajie 4元、收到 @…（输入 @ 后从列表点选 小马） 4元）" in head(), head()
    await tg.say(user(668, "小马"), "付 @ajie 4")
    assert head().endswith("（也可打字：收到 @…（输入 @ 后从列表点选 小马））"), head()
    press = tg.updates.message(AJIE, "收到 小马")
    press["message"]["entities"] = [{"type": "text_mention", "offset": 3, "length": 2, "user": user(668, "小马")}]
    await tg.feed(press)
    assert head() == "付款：", head()  # no buttons left: none named
