"""The Mini App beside the bot: the table message's button, the page itself, and `paiju web`'s refusals (`paiju
run` serving it on its web server: tests/bot/test_telegram_service.py)."""

from __future__ import annotations

import urllib.request
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from telegram import Update

from bot.config import Settings
from bot.core import Bot, SendText
from bot.telegram.app import build_application
from bot.webapp import server as webapp_server
from bot.webapp.auth import read_start, start_key
from bot.webapp.links import MiniAppLinks, attach
from ledger.service import Ledger
from tests.bot.fake_bot_api import CHAT, RecordingRequest, Updates
from tests.webapp.served import BOSS, GROUP, TOKEN, A, B, C, Chat, FakeGroup, Served, init_data, start_param

LINKS = MiniAppLinks(start_key(TOKEN), "https://paiju.test/app/", "paiju_bot", "table")


def _buttons(outcome: Any) -> list[Any]:
    sent = [e for e in outcome.effects if isinstance(e, SendText) and e.buttons]
    return [button for row in sent[-1].buttons for button in row]


def test_the_table_message_links_to_its_table_once_the_bot_has_a_mini_app(ledger: Ledger) -> None:
    core = Bot(ledger)
    chat = Chat(core, frozenset())
    for user in (A, B, C):
        chat.say(user, "hi")
    plain = chat.say(A, "开桌 @ajie @xiaoli @laowang")
    assert [b.data for b in _buttons(plain)] == ["hu:new", "gang:new"]  # no Mini App: no link (console, transcripts)

    attach(core, LINKS)
    opened = chat.say(A, "开桌 @ajie @xiaoli @laowang")
    app_button = _buttons(opened)[-1]
    assert app_button.label == "📱 小程序" and not app_button.web_app
    link = urlparse(app_button.url)
    assert (link.scheme, link.netloc, link.path) == ("https", "t.me", "/paiju_bot/table")
    table = ledger.current_table(GROUP)
    assert table is not None
    assert read_start(parse_qs(link.query)["startapp"][0], start_key(TOKEN)) == (GROUP, table.id)
    assert _buttons(chat.say(B, "牌桌"))[-1].url == app_button.url


def test_in_a_private_chat_the_button_opens_the_page_as_a_web_app(ledger: Ledger) -> None:
    core = Bot(ledger)
    attach(core, LINKS)
    private = Chat(core, frozenset(), chat_id=A["id"])
    opened = private.say(A, "开桌 老王 小李")  # a scorekeeper seats two guests beside themself
    app_button = _buttons(opened)[-1]
    assert app_button.web_app and app_button.url.startswith("https://paiju.test/app/?start=")
    param = parse_qs(urlparse(app_button.url).query)["start"][0]
    assert read_start(param, start_key(TOKEN))[0] == A["id"]


async def test_telegram_shows_the_mini_app_button_as_a_link(ledger: Ledger) -> None:
    telegram = FakeGroup(admins=[BOSS])
    core = Bot(ledger)
    attach(core, LINKS)
    application = build_application(Settings(), core, TOKEN, request=RecordingRequest(telegram), rate_limit=False)
    updates = Updates()
    async with application:
        for user, text in ((A, "hi"), (B, "hi"), (C, "hi"), (A, "开桌 @ajie @xiaoli @laowang")):
            message = updates.message({**user, "is_bot": False}, text)
            await application.process_update(
                Update.de_json({"update_id": len(telegram.calls) + 1, **message}, application.bot)
            )
    markup = telegram.sent()[-1]["reply_markup"]
    assert markup["inline_keyboard"][-1][0]["url"].startswith("https://t.me/paiju_bot/table?startapp=")


def test_the_page_and_its_files_are_served_with_a_strict_policy(served: Served, chat: Chat) -> None:
    with urllib.request.urlopen(served.url, timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self' https://telegram.org;" in policy and "connect-src 'self'" in policy
        page = response.read().decode()
    assert 'src="static/app.js"' in page  # relative: the app works wherever it is mounted
    for name in ("app.js", "api.js", "board.js", "picker.js", "night.js", "tiles.js", "dom.js", "app.css"):
        with urllib.request.urlopen(served.url + "static/" + name, timeout=10) as response:
            assert response.status == 200 and response.read()
    status, answer = served.call("api/session", init=init_data(A, served.ledger.now(), start=start_param()))
    assert status == 200 and answer["texts"]["tab_board"] == "牌桌" and answer["tile_names"]["5p"] == "五筒"
    english = {**A, "language_code": "en"}
    status, answer = served.call("api/session", init=init_data(english, served.ledger.now(), start=start_param()))
    assert answer["lang"] == "en" and answer["texts"]["tab_board"] == "Table"


def test_paiju_web_needs_the_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("PAIJU_CONFIG", raising=False)
    assert webapp_server.main(["--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", "0"]) == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().out
    assert not (tmp_path / "x.db").exists()
    assert CHAT["id"] == GROUP
