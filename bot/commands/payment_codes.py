"""收款码 (payment QR codes): a member sends a photo of their WeChat or Alipay QR code with the caption `收款码`
(or `收款码 微信` / `收款码 支付宝`); the bot keeps the photo's Telegram file id, never the picture. When a settlement
tells someone to pay a member who has one, a 「甲的收款码」 button under it sends the photo again by its id.

- Only the sender's own code: a photo registers its sender's; `删除收款码 [微信|支付宝]` removes the sender's own
  (nobody can remove another member's). A photo with any other caption, or none, is not a command.
- `收款码 @甲` shows 甲's code; `收款码` alone says who has one.
"""

from __future__ import annotations

from bot.commands import _money_texts  # noqa: F401  (registers the texts)
from bot.commands._common import me, resolve_person, shown_name, shown_names
from bot.core import Button, Context, Effect, Refusal, SendPhoto, SendText, registry
from bot.grammar import fold, tokens
from bot.texts import joined
from bot.vocabulary import COMMAND_WORDS
from ledger.payment_codes import MAX_FILE_ID

PREFIX = "qr"
#: what a member may say the code is for
APP_WORDS = {
    "微信": "wechat",
    "wechat": "wechat",
    "wx": "wechat",
    "支付宝": "alipay",
    "alipay": "alipay",
    "zfb": "alipay",
}
#: most codes one 收款码 lists
MAX_LISTED = 30


def _app(ctx: Context, words: list[str]) -> str | None:
    if not words:
        return None
    if len(words) > 1 or fold(words[0]) not in APP_WORDS:
        raise Refusal("qr_usage")
    return APP_WORDS[fold(words[0])]


def _app_name(ctx: Context, app: str) -> str:
    return ctx.t(f"qr_app_{app}")


@registry.command(
    "qrcode",
    names=["qrcode"],
    aliases=COMMAND_WORDS["qrcode"],
    help_zh="收款码：发一张微信或支付宝收款码图片，配文字 收款码（或 收款码 微信 / 收款码 支付宝）"
    "登记自己的；结算要给你转账的人会看到按钮 ｜ 收款码 @甲：看甲的 ｜ 删除收款码",
    help_en="send a photo of your WeChat or Alipay payment QR code captioned pay code (收款码; or pay code wechat / "
    "pay code alipay) to register it; those a settlement tells to pay you get a button | "
    "pay code @a: show a's | remove pay code",
)
def qrcode(ctx: Context) -> list[Effect] | SendText:
    assert ctx.incoming is not None
    words = tokens(ctx.args)
    file_id = ctx.incoming.photo_file_id
    if file_id:
        if len(file_id) > MAX_FILE_ID:
            raise Refusal("qr_bad_photo")
        app = _app(ctx, words) or "any"
        member = me(ctx)
        ctx.service.register_payment_code(member.id, app, file_id, source=ctx.source, by=ctx.sender.user_id)
        return ctx.reply("qr_registered", name=shown_name(ctx, member), app=_app_name(ctx, app))
    if words and words[0].startswith("@"):
        person = resolve_person(ctx, words[0])
        if person is None:
            raise Refusal("unknown_player", name=words[0])
        name = shown_name(ctx, person)
        shown = code_photos(ctx, person.id, name)
        if not shown:
            return ctx.reply("qr_none_for", name=name)
        return shown
    if words:
        raise Refusal("qr_usage")
    names = shown_names(ctx)
    members = {m.id: names.get(m.id, m.name) for m in ctx.service.members(ctx.chat_id) if m.kind == "member"}
    have = ctx.service.payment_codes(ctx.chat_id, list(members))
    if not have:
        return ctx.reply("qr_nobody")
    listed = [_with_apps(ctx, members[member_id], codes) for member_id, codes in list(have.items())[:MAX_LISTED]]
    return ctx.reply("qr_list", names=joined(ctx.lang, listed))


@registry.command(
    "qrremove",
    names=["qrremove"],
    aliases=COMMAND_WORDS["qrremove"],
    help_zh="删除收款码：删掉自己登记的收款码（删除收款码 微信 只删微信的）",
    help_en="remove pay code (删除收款码): remove your own payment QR code (remove pay code wechat: only the "
    "WeChat one)",
)
def remove(ctx: Context) -> SendText:
    words = tokens(ctx.args)
    if words and words[0].startswith("@"):
        person = resolve_person(ctx, words[0])
        if person is None or person.user_id != ctx.sender.user_id:
            raise Refusal("qr_owner_only")
        words = words[1:]
    app = _app(ctx, words)
    member = me(ctx)
    removed = ctx.service.remove_payment_codes(member.id, app, source=ctx.source, by=ctx.sender.user_id)
    if not removed:
        return ctx.reply("qr_nothing_to_remove", name=shown_name(ctx, member))
    return ctx.reply("qr_removed", name=shown_name(ctx, member), count=removed)


def _with_apps(ctx: Context, name: str, codes: list[tuple[str, str]]) -> str:
    """`老王（微信、支付宝）`, `laowang (WeChat, Alipay)`; a code registered for no app in particular adds no brackets
    of its own."""
    named = joined(ctx.lang, (app for app in (_app_name(ctx, app) for app, _ in codes) if app))
    if not named:
        return name
    return f"{name} ({named})" if ctx.lang == "en" else f"{name}（{named}）"


def code_photos(ctx: Context, member_id: int, name: str) -> list[Effect]:
    """A member's codes as photos sent again by their file ids."""
    found = ctx.service.payment_codes(ctx.chat_id, [member_id]).get(member_id, [])
    return [
        SendPhoto(file_id=file_id, caption=ctx.t("qr_caption", name=name, app=_app_name(ctx, app)))
        for app, file_id in found
    ]


def payment_buttons(ctx: Context, payee_ids: list[int]) -> dict[int, Button]:
    """「甲的收款码」 buttons for those payees who registered a code."""
    have = ctx.service.payment_codes(ctx.chat_id, payee_ids)
    names = shown_names(ctx)
    return {
        member_id: Button(ctx.t("qr_button", name=names.get(member_id, "?"))[:40], f"{PREFIX}:{member_id}")
        for member_id in have
    }


@registry.callback(PREFIX)
def pressed(ctx: Context) -> list[Effect]:
    """「甲的收款码」: the photo, sent again by its file id (anyone may press: it is shown to be paid)."""
    assert ctx.callback is not None
    part = ctx.callback.data.split(":", 1)[1] if ":" in ctx.callback.data else ""
    if not part.isdigit() or len(part) > 19:
        raise Refusal("button_expired")
    member_id = int(part)
    names = shown_names(ctx)
    if member_id not in names:
        raise Refusal("button_expired")
    shown = code_photos(ctx, member_id, names[member_id])
    if not shown:
        raise Refusal("qr_none_for", name=names[member_id])
    return shown
