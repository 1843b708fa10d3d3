"""Moderation through python-telegram-bot against the local fake Bot API server (long polling over HTTP): the
real deleteMessage, banChatMember, unbanChatMember and getChatAdministrators calls, and refused calls."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.config import Settings, TelegramSettings
from bot.core import Bot
from bot.telegram.app import ALLOWED_UPDATES, build_application
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT, FakeBotAPIServer, FakeTelegram, Updates, until, user

BOSS = user(500, "群主-老大", "boss")
BOB = user(501, "小明-成员", "bob")
CAROL = user(502, "小红-成员", "carol")
TOKEN = "424242:MOD-TOKEN"
NO_RIGHTS = "Bad Request: not enough rights to delete a message"
NO_BAN = "Bad Request: not enough rights to restrict/unrestrict chat member"


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.fixture
async def server() -> AsyncIterator[FakeBotAPIServer]:
    fake = FakeBotAPIServer(FakeTelegram(admins=[BOSS]))
    await fake.start()
    yield fake
    await fake.stop()


class Group:
    """A polling bot over the fake server; `say` waits for the bot's answer containing `expect`."""

    def __init__(self, server: FakeBotAPIServer) -> None:
        self.server, self.telegram, self.updates = server, server.telegram, Updates()

    def calls(self, method: str) -> list[dict[str, Any]]:
        return self.telegram.sent(method)

    async def say(self, sender: dict[str, Any], text: str, expect: str, **kw: Any) -> dict[str, Any]:
        before = len(self.telegram.calls)
        pushed = self.server.push(self.updates.message(sender, text, **kw))

        def answered() -> bool:
            return any(expect in str(c.params.get("text")) for c in self.telegram.calls[before:])

        await until(answered, f"an answer containing {expect!r} (last: {self.telegram.texts()[-2:]})")
        return pushed["message"]  # type: ignore[no-any-return]

    def push(self, sender: dict[str, Any], text: str, **kw: Any) -> dict[str, Any]:
        """A message the bot answers nothing to (updates are handled in order: the next `say` waits for it)."""
        return self.server.push(self.updates.message(sender, text, **kw))["message"]  # type: ignore[no-any-return]


async def _polling(server: FakeBotAPIServer, ledger: Ledger) -> Any:
    settings = Settings(telegram=TelegramSettings(base_url=server.base_url, poll_timeout=1))
    app = build_application(settings, Bot(ledger), TOKEN, rate_limit=False)
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=1, allowed_updates=ALLOWED_UPDATES)
    return app


async def _stop(app: Any) -> None:
    await app.updater.stop()
    await app.stop()
    await app.shutdown()


async def test_links_are_deleted_and_the_second_offence_bans_then_unbans(
    server: FakeBotAPIServer, ledger: Ledger
) -> None:
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        spam = await group.say(BOB, "今晚打牌吗看看abc.com吧", "第 1 次违规")
        deleted = group.calls("deleteMessage")
        assert [(int(d["chat_id"]), int(d["message_id"])) for d in deleted] == [(CHAT["id"], spam["message_id"])]
        group.push(BOSS, "规则见 https://example.com")  # the owner's link stays
        await group.say(BOB, "加 微 信 领红包", "请出本群")
        assert len(group.calls("deleteMessage")) == 2
        await until(lambda: len(group.calls("unbanChatMember")) == 1, "the unban after the ban")
        bans, unbans = group.calls("banChatMember"), group.calls("unbanChatMember")
        assert [(int(b["chat_id"]), int(b["user_id"])) for b in bans] == [(CHAT["id"], BOB["id"])]
        assert [(int(u["chat_id"]), int(u["user_id"]), u["only_if_banned"]) for u in unbans] == [
            (CHAT["id"], BOB["id"], True)
        ]
        methods = [c.method for c in server.telegram.calls]
        assert methods.index("banChatMember") < methods.index("unbanChatMember")  # ban, then unban
        admins_asked = group.calls("getChatAdministrators")
        assert len(admins_asked) == 1 and int(admins_asked[0]["chat_id"]) == CHAT["id"]  # cached, not per message
    finally:
        await _stop(app)
    assert ledger.balances(CHAT["id"]).pot == 500


async def test_the_same_sticker_again_and_again_is_a_repeat_and_different_stickers_are_not(
    server: FakeBotAPIServer, ledger: Ledger
) -> None:
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        for sticker in ("AgADpigAAm", "AgADqjkAAn", "AgADrkwAAo", "AgADsl0AAp"):  # four different stickers
            server.push(group.updates.sticker(CAROL, sticker))
        await group.say(CAROL, "红包池", "红包池")  # handled in order: the stickers are behind it
        assert group.calls("deleteMessage") == [] and _actions(ledger) == []
        for _ in range(3):  # the same sticker three times in a row: a repeat, punished on the third
            server.push(group.updates.sticker(BOB, "AgADpigAAm"))
        await until(lambda: "第 1 次违规" in " ".join(group.telegram.texts()), "the repeat's announcement")
        assert {(a.kind, a.rule, a.user_id) for a in _actions(ledger)} == {
            ("warning", "repeat", BOB["id"]),
            ("fine", "repeat", BOB["id"]),
        }
    finally:
        await _stop(app)


async def test_admin_commands_reach_the_bot_api(server: FakeBotAPIServer, ledger: Ledger) -> None:
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        said = group.push(CAROL, "大家好")
        await group.say(BOSS, "封禁 发广告", "被封禁", reply_to=said)
        await until(lambda: len(group.calls("banChatMember")) == 1, "the ban")
        assert [(int(b["chat_id"]), int(b["user_id"])) for b in group.calls("banChatMember")] == [
            (CHAT["id"], CAROL["id"])
        ]
        assert group.calls("unbanChatMember") == []  # a lasting ban
        await group.say(BOSS, "解封", "已解封", reply_to=said)
        await until(lambda: len(group.calls("unbanChatMember")) == 1, "the unban")
        assert [int(u["user_id"]) for u in group.calls("unbanChatMember")] == [CAROL["id"]]
        await group.say(CAROL, "封禁 @boss", "只有群管理员")
    finally:
        await _stop(app)


async def test_without_rights_the_bot_says_so_once_and_keeps_recording(
    server: FakeBotAPIServer, ledger: Ledger
) -> None:
    server.telegram.refuse.update({"deleteMessage": NO_RIGHTS, "banChatMember": NO_BAN})
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        await group.say(BOB, "看看abc.com", "没有删除消息或移出成员的权限")
        await group.say(CAROL, "进群t.me/+spam", "第 1 次违规")
        await group.say(BOB, "再看看abc.com", "请出本群")  # delete and ban both refused again
        await group.say(CAROL, "红包池", "红包池：10元")  # the bot is still answering
        await until(lambda: len(group.calls("banChatMember")) == 1, "the refused ban")
    finally:
        await _stop(app)
    notices = [t for t in server.telegram.texts() if "没有删除消息或移出成员的权限" in t]
    assert len(notices) == 1
    assert len(group.calls("deleteMessage")) == 3  # every attempt made, every one refused
    assert group.calls("unbanChatMember") == []  # the unban of ban-then-unban is skipped once the ban fails
    warnings = [a for a in _actions(ledger) if a.kind == "warning"]
    assert len(warnings) == 3 and ledger.balances(CHAT["id"]).pot == 1000  # recorded and fined all the same


def _actions(ledger: Ledger) -> list[Any]:
    from ledger.moderation import Moderation

    return Moderation(ledger, ledger.engine).actions(CHAT["id"])


async def test_a_member_with_a_name_longer_than_64_characters_is_answered_and_moderated(
    server: FakeBotAPIServer, ledger: Ledger
) -> None:
    """Telegram allows 64 characters of first name and 64 of last name: such a member is a member like any other."""
    long_name = {**user(503, "长" * 64, "longname"), "last_name": "名" * 64}
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        await group.say(long_name, "看看abc.com", "第 1 次违规")  # moderation runs on them
        await group.say(long_name, "红包池", "红包池：5元")  # and commands answer them
    finally:
        await _stop(app)
    assert not any("出了点问题" in text for text in server.telegram.texts())
    names = [m.display_name for m in ledger.members(CHAT["id"]) if m.kind == "member"]
    assert names == ["长" * 64 + " " + "名" * 64]  # stored whole


CHANNEL_BOT = {**user(136817688, "Channel"), "username": "Channel_Bot"}
AD_CHANNEL = {"id": -1009876543210, "type": "channel", "title": "优惠频道", "username": "deals"}
LINKED_CHANNEL = {"id": -1001111111111, "type": "channel", "title": "群的频道"}


def _as_channel(group: Group, channel: dict[str, Any], text: str, *, automatic: bool = False) -> dict[str, Any]:
    """A message a member posts "as" `channel` (or, `automatic`, the linked channel's post forwarded in)."""
    update = group.updates.message(user(777000, "Telegram") if automatic else CHANNEL_BOT, text)
    update["message"]["sender_chat"] = channel
    if automatic:
        update["message"]["is_automatic_forward"] = True
    return group.server.push(update)["message"]  # type: ignore[no-any-return]


async def test_posting_as_a_channel_is_moderated_like_a_member(server: FakeBotAPIServer, ledger: Ledger) -> None:
    group = Group(server)
    app = await _polling(server, ledger)
    try:
        forwarded = _as_channel(group, LINKED_CHANNEL, "新一期 https://example.com/post", automatic=True)
        first = _as_channel(group, AD_CHANNEL, "今晚打牌吗看看abc.com吧")
        await until(lambda: any("第 1 次违规" in t for t in server.telegram.texts()), "the channel's first offence")
        assert [int(d["message_id"]) for d in group.calls("deleteMessage")] == [first["message_id"]]
        _as_channel(group, AD_CHANNEL, "加 微 信 领红包")
        await until(lambda: len(group.calls("unbanChatSenderChat")) == 1, "the channel removed (ban, then unban)")
        await group.say(BOB, "红包池", "红包池：5元")  # the channel's fine is in the pot like anyone's
    finally:
        await _stop(app)
    assert forwarded["message_id"] not in [int(d["message_id"]) for d in group.calls("deleteMessage")]
    bans = group.calls("banChatSenderChat")
    assert [(int(b["chat_id"]), int(b["sender_chat_id"])) for b in bans] == [(CHAT["id"], AD_CHANNEL["id"])]
    assert group.calls("banChatMember") == []  # nobody's personal account is touched: Telegram hides who posted
    assert not any("名字-身份" in text for text in server.telegram.texts())  # a channel gets no name-card reminder


async def test_two_workers_share_one_admin_list_and_its_refresh(server: FakeBotAPIServer, ledger: Ledger) -> None:
    """Each worker's AdminCache over the shared state: one getChatAdministrators serves both; a promotion seen
    by one worker takes effect there at once, and at the other once its few seconds of local copy are over."""
    from telegram import Bot as TelegramBot

    from bot.shared_state import admin_lists
    from bot.telegram.adapter import LOCAL_SECONDS, AdminCache

    now = [1000.0]
    workers = [AdminCache(300, admin_lists(Bot(ledger)), clock=lambda: now[0]) for _ in range(2)]
    before, after = (frozenset({BOSS["id"]}), BOSS["id"]), (frozenset({BOSS["id"], CAROL["id"]}), BOSS["id"])
    async with TelegramBot(TOKEN, base_url=server.base_url) as api:
        assert await workers[0].get(api, CHAT["id"], "supergroup") == before
        assert await workers[1].get(api, CHAT["id"], "supergroup") == before
        assert len(server.telegram.sent("getChatAdministrators")) == 1
        server.telegram.admins.append(CAROL)  # promoted; worker 0 sees the chat_member update
        workers[0].forget(CHAT["id"])
        assert await workers[1].get(api, CHAT["id"], "supergroup") == before  # its own copy, still fresh
        assert await workers[0].get(api, CHAT["id"], "supergroup") == after
        assert len(server.telegram.sent("getChatAdministrators")) == 2
        now[0] += LOCAL_SECONDS
        assert await workers[1].get(api, CHAT["id"], "supergroup") == after  # from the shared list: no new fetch
        assert len(server.telegram.sent("getChatAdministrators")) == 2
