"""Moderation through the command layer: what the console cannot script (replies, the owner, reports, the
missing-rights notice, restarts) on a real ledger."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from itertools import count

import pytest

from bot.core import BanMember, Bot, DeleteMessage, Incoming, Join, ManualClock, Quoted, Sender, SendText, UnbanMember
from bot.moderation.commands import message_link
from bot.moderation.filter import rights_notice
from ledger.moderation import RuleSettings
from ledger.service import Ledger

CHAT = -1001234567890
OWNER = Sender(1, "群主-老大", username="owner")
ADMIN = Sender(2, "管理-小张", username="zhang")
BOB = Sender(42, "小明-成员", username="bob")
NEWBIE = Sender(43, "newbie", username="newbie")
_ids = count(1)


@pytest.fixture
def bot_clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def bot(sqlite_ledger: Ledger, bot_clock: ManualClock) -> Bot:
    return Bot(sqlite_ledger, clock=bot_clock)


def say(
    bot: Bot, sender: Sender, text: str, *, reply_to: Quoted | None = None, edited: bool = False
) -> tuple[int, list[object]]:
    message_id = next(_ids)
    incoming = Incoming(
        chat_id=CHAT,
        message_id=message_id,
        sender=sender,
        text=text,
        date=bot.clock.now(),
        source=f"tg:{CHAT}:{message_id}",
        reply_to=reply_to,
        edited=edited,
        admin_ids=frozenset({OWNER.user_id, ADMIN.user_id}),
        owner_id=OWNER.user_id,
    )
    return message_id, list(bot.handle_message(incoming).effects)


def texts(effects: list[object]) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, SendText))


def test_an_admin_acts_on_the_member_whose_message_they_reply_to(bot: Bot) -> None:
    message_id, _ = say(bot, BOB, "随便说说")
    _, effects = say(bot, ADMIN, "请出 捣乱", reply_to=Quoted(message_id, BOB, "随便说说"))
    assert BanMember(BOB.user_id, then_unban=True) in effects
    assert "小明-成员 被请出本群（捣乱）" in texts(effects)


def test_a_lasting_ban_then_unban(bot: Bot) -> None:
    _, effects = say(bot, ADMIN, "封禁 @bob 广告", reply_to=None)
    assert "@bob" in texts(effects) and not any(isinstance(e, BanMember) for e in effects)  # never seen yet
    message_id, _ = say(bot, BOB, "hi")
    _, effects = say(bot, ADMIN, "封禁 广告", reply_to=Quoted(message_id, BOB, "hi"))
    assert BanMember(BOB.user_id, then_unban=False) in effects
    _, effects = say(bot, ADMIN, "解封", reply_to=Quoted(message_id, BOB, "hi"))
    assert UnbanMember(BOB.user_id) in effects


def test_only_the_owner_or_named_admins_change_the_rules(bot: Bot) -> None:
    _, effects = say(bot, ADMIN, "修改群规 管理员想改")
    assert "只有群主或群主指定的管理员" in texts(effects)
    _, effects = say(bot, ADMIN, "群规编辑 @zhang")
    assert "只有群主可以指定" in texts(effects)
    _, effects = say(bot, OWNER, "修改群规 群主定的规矩")
    assert "群规已更新" in texts(effects)
    bot.service.member(CHAT, ADMIN.user_id, ADMIN.name, ADMIN.username)  # the ledger knows the admin
    _, effects = say(bot, OWNER, "群规编辑 @zhang")
    assert "可修改群规：群主、管理-小张" in texts(effects), texts(effects)
    _, effects = say(bot, ADMIN, "修改群规 管理员改的规矩")
    assert "群规已更新" in texts(effects)
    _, effects = say(bot, BOB, "群规")
    assert texts(effects).startswith("管理员改的规矩\n（") and "由 管理-小张 修改" in texts(effects)
    _, effects = say(bot, BOB, "群规记录")
    assert texts(effects).count("\n") == 2  # a heading and both versions


def test_a_member_reports_a_message_with_a_link_for_the_admins(bot: Bot) -> None:
    bot.service.member(CHAT, ADMIN.user_id, ADMIN.name, ADMIN.username)  # admins the ledger knows are named
    message_id, _ = say(bot, NEWBIE, "你们都是菜鸟")
    _, effects = say(bot, BOB, "举报 骂人", reply_to=Quoted(message_id, NEWBIE, "你们都是菜鸟"))
    report = texts(effects)
    assert f"https://t.me/c/1234567890/{message_id}" in report
    assert "小明-成员 举报了 newbie 的消息" in report and "原因：骂人" in report and "@zhang" in report
    _, effects = say(bot, BOB, "举报")
    assert "请回复要举报的消息" in texts(effects)


def test_a_report_names_two_members_of_one_name_as_every_reply_does(bot: Bot) -> None:
    first, second = Sender(44, "老王-成员"), Sender(45, "老王-成员")  # no usernames: named, not @-mentioned
    say(bot, first, "在吗")
    message_id, _ = say(bot, second, "你们都是菜鸟")
    _, effects = say(bot, first, "举报 骂人", reply_to=Quoted(message_id, second, "你们都是菜鸟"))
    assert "老王-成员 举报了 老王-成员#2 的消息" in texts(effects)


def test_message_links() -> None:
    assert message_link(-1001234567890, 5) == "https://t.me/c/1234567890/5"
    assert message_link(-4242, 5) == "#5"


def test_bots_and_the_owner_are_exempt(bot: Bot) -> None:
    robot = Sender(99, "SpamBot", is_bot=True)
    for sender in (robot, OWNER):
        _, effects = say(bot, sender, "快来 abc.com")
        assert effects == []


def test_an_edit_is_not_moderated_again(bot: Bot) -> None:
    message_id, effects = say(bot, BOB, "看 abc.com")
    assert DeleteMessage(message_id) in effects
    _, effects = say(bot, BOB, "看 abc.com", edited=True)
    assert not any(isinstance(e, DeleteMessage) for e in effects)


def test_the_name_card_reminder_is_given_once_even_across_a_restart(
    sqlite_ledger: Ledger, bot_clock: ManualClock
) -> None:
    first = Bot(sqlite_ledger, clock=bot_clock)
    join = Join(CHAT, NEWBIE, bot_clock.now(), "tg:join:1", admin_ids=frozenset({OWNER.user_id}))
    assert "名字-身份" in texts(list(first.handle_join(join).effects))
    assert texts(say(first, NEWBIE, "大家好")[1]) == ""
    restarted = Bot(sqlite_ledger, clock=bot_clock)
    assert texts(say(restarted, NEWBIE, "我又来了")[1]) == ""
    late = Sender(44, "latecomer")  # joined before the bot: reminded on their first message
    assert "名字-身份" in texts(say(restarted, late, "hi")[1])
    assert texts(say(restarted, late, "hi again")[1]) == ""


def test_an_alias_in_the_format_satisfies_the_name_card(bot: Bot) -> None:
    say(bot, Sender(45, "casual"), "名片 王五-成员")  # reminded once, sets the alias
    _, effects = say(bot, Sender(46, "other"), "名片 赵六-成员")
    assert "名字-身份" in texts(effects)  # the alias is set after the reminder of this very message
    stranger = Sender(47, "stranger")
    bot.service.set_alias(bot.service.member(CHAT, 47, "stranger").id, "孙七-成员", source="x:1", by=None)
    assert texts(say(bot, stranger, "hello")[1]) == ""


def test_missing_rights_notice_is_said_once_per_group(bot: Bot) -> None:
    first = rights_notice(bot, CHAT)
    assert len(first) == 1 and "没有删除消息或移出成员的权限" in texts(list(first))
    assert rights_notice(bot, CHAT) == []
    assert Bot(bot.service, clock=bot.clock).registry is bot.registry
    assert rights_notice(Bot(bot.service, clock=bot.clock), CHAT) == []  # remembered in the ledger


def test_flooding_then_silence_then_flooding_is_two_offences(bot: Bot, bot_clock: ManualClock) -> None:
    def burst() -> list[object]:
        out: list[object] = []
        for i in range(6):
            out += say(bot, BOB, f"刷{i}")[1]
        return out

    assert "第 1 次违规" in texts(burst())
    bot_clock.advance(timedelta(minutes=5))
    second = burst()
    assert "第 2 次违反群规" in texts(second) and BanMember(BOB.user_id, then_unban=True) in second


def _within(seconds: float, work: Callable[[], object]) -> object:
    """Run `work` in a thread; fail (instead of hanging the suite) if it has not finished after `seconds`."""
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert done, f"still running after {seconds} s"
    return done[0]


def test_a_catastrophic_name_card_pattern_cannot_hang_the_bot(bot: Bot) -> None:
    _, effects = say(bot, OWNER, "群管设置 namecard_pattern (a+)+b")
    assert "已设置 名片格式（namecard_pattern） = (a+)+b" in texts(effects)
    victim = Sender(48, "a" * 60 + "c")  # 2^60 ways to split the a's for a backtracking engine
    effects = _within(10, lambda: say(bot, victim, "大家好")[1])
    assert "名字-身份" in texts(effects)  # checked (and reminded) at once
    _, effects = say(bot, OWNER, r"群管设置 namecard_pattern (\w+)-\1")
    assert "不支持反向引用" in texts(effects)  # back-references need backtracking: refused, clearly


def test_a_stored_pattern_the_engine_refuses_is_ignored_not_fatal(bot: Bot) -> None:
    from ledger.moderation import settings_from_overrides

    assert settings_from_overrides({"namecard_pattern": r"(?=x)x", "fine_amount": 300}).fine_amount == 300
    assert settings_from_overrides({"namecard_pattern": r"(?=x)x"}).namecard_pattern == RuleSettings().namecard_pattern
