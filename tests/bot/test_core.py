"""The command layer's registry and dispatcher, on a private registry (no database)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.core import (
    AnswerCallback,
    Bot,
    CallbackQuery,
    Context,
    Incoming,
    Join,
    Outcome,
    Refusal,
    Registry,
    Sender,
    SendText,
)
from bot.grammar import split_command

ALICE = Sender(1, "alice")
ADMIN = Sender(2, "boss")
WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def _registry() -> Registry:
    reg = Registry()

    @reg.command("hu", names=["hu"], aliases=["胡", "自摸"], help_zh="记录胡牌", help_en="record a win")
    def hu(ctx: Context) -> SendText:
        return SendText(f"{ctx.word}|{ctx.args}")

    @reg.command("rules", aliases=["规则"], help_zh="规则", admin_only=True)
    def rules(ctx: Context) -> SendText:
        return SendText("ok")

    @reg.command("fail", aliases=["坏"], help_zh="x")
    def fail(ctx: Context) -> None:
        raise Refusal("admin_only")

    @reg.callback("flow")
    def press(ctx: Context) -> SendText:
        assert ctx.callback is not None
        return SendText("pressed " + ctx.callback.data)

    return reg


def _msg(text: str, sender: Sender = ALICE, admins: frozenset[int] = frozenset()) -> Incoming:
    return Incoming(chat_id=-5, message_id=7, sender=sender, text=text, date=WHEN, source="t:1", admin_ids=admins)


def test_slash_and_chinese_words_find_the_same_command() -> None:
    reg = _registry()
    assert split_command("/hu@paiju_bot 123p 5p", reg) is not None
    found = split_command("胡 123p46p789s22s333s 5p 点 @b", reg)
    assert found is not None and found[0].key == "hu" and found[2] == "123p46p789s22s333s 5p 点 @b"
    assert split_command("自摸", reg) is not None
    assert split_command("胡说八道", reg) is None  # a Chinese character after the word: ordinary chat
    assert split_command("胡123p", reg) is not None
    assert split_command("hello", reg) is None
    assert split_command("/unknown", reg) is None


def test_dispatch_filters_first_and_stop_ends_processing() -> None:
    reg = _registry()
    seen: list[str] = []

    @reg.message_filter("spy", priority=5)
    def spy(ctx: Context) -> Outcome | None:
        seen.append(ctx.incoming.text if ctx.incoming else "")
        return None

    @reg.message_filter("flood", priority=1)
    def flood(ctx: Context) -> Outcome | None:
        if "spam" in (ctx.incoming.text if ctx.incoming else ""):
            return Outcome([SendText("no spam")], stop=True)
        return None

    bot = Bot(service=None, reg=reg)
    assert bot.handle_message(_msg("胡 1p")).effects == [SendText("胡|1p")]
    assert bot.handle_message(_msg("胡 spam")).effects == [SendText("no spam")]
    assert seen == ["胡 1p"]


def test_admin_only_and_refusal_in_the_chats_language() -> None:
    bot = Bot(service=None, reg=_registry())
    refused = bot.handle_message(_msg("规则"))
    assert isinstance(refused.effects[0], SendText) and "管理员" in refused.effects[0].text
    assert bot.handle_message(_msg("规则", ADMIN, frozenset({2}))).effects == [SendText("ok")]
    failed = bot.handle_message(_msg("坏"))
    assert isinstance(failed.effects[0], SendText) and failed.effects[0].reply_to == 7


def test_callbacks_route_by_prefix_and_are_always_answered() -> None:
    bot = Bot(service=None, reg=_registry())
    query = CallbackQuery("q1", -5, 99, ALICE, "flow:abc", WHEN, "t:q1")
    out = bot.handle_callback(query)
    assert out.effects == [AnswerCallback(), SendText("pressed flow:abc")]
    unknown = bot.handle_callback(CallbackQuery("q2", -5, 99, ALICE, "nope:1", WHEN, "t:q2"))
    assert isinstance(unknown.effects[0], AnswerCallback) and unknown.effects[0].alert


def test_join_hooks_run_in_order() -> None:
    reg = _registry()
    reg.on_join(lambda ctx: SendText(f"welcome {ctx.sender.name}"))
    out = Bot(service=None, reg=reg).handle_join(Join(-5, ALICE, WHEN, "t:j"))
    assert out.effects == [SendText("welcome alice")]


def test_a_word_may_name_one_command_per_game() -> None:
    reg = Registry()
    reg.command("hu", aliases=["胡"], games=["kawuxing"])(lambda ctx: SendText("kawuxing"))
    reg.command("penghu_hu", aliases=["胡"], games=["penghu"])(lambda ctx: SendText("penghu"))
    assert split_command("胡", reg, "kawuxing") is not None
    found = split_command("胡", reg, "penghu")
    assert found is not None and found[0].key == "penghu_hu"
    assert split_command("胡", reg, "gouji") is None
    reg.command("other", aliases=["胡"])(lambda ctx: None)
    assert "other" not in reg.commands and "胡" in reg.conflicts[0]  # a general command may not take the word


def test_the_real_registry_has_no_clashing_commands() -> None:
    """Every plugin (ours, moderation, reports, games) registers without taking another's name or word."""
    from bot.core import load_plugins, registry

    load_plugins()
    assert registry.conflicts == []
    assert {"open", "hu", "gang", "liangdao", "draw", "undo", "balance", "history", "settle"} <= set(registry.commands)
