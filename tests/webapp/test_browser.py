"""The Mini App in a real browser: Debian's headless Chromium driven by Playwright (no browser is downloaded),
at a phone's size. A player opens it with signed initData, taps a whole winning hand, sees the preview's multiple
and payments, books it, and the ledger and the group's message (the fake Bot API) agree. Each page is saved as a
screenshot (to $PAIJU_SCREENSHOTS when set, e.g. docs/webapp, else the test's temporary folder).

Telegram's telegram-web-app.js is replaced by a local stub served by the test; every other address the page asks
for outside the Mini App's own server is refused, so nothing is fetched from the internet.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from ledger.service import Ledger
from tests.webapp.served import GROUP, A, B, C, Chat, D, Served, init_data, start_param

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
STUB = Path(__file__).with_name("telegram-web-app-stub.js")
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#1f2328",
    "hint_color": "#7d8590",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f1f3f5",
}
DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}

pytestmark = [
    # skipped on a machine without it, never under CI (.ci/run installs it)
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and not os.environ.get("CI"),
        reason="Debian's chromium is not installed: apt-get install -y -q chromium",
    ),
    pytest.mark.parametrize("db_url", ["sqlite"], indirect=True),  # the API's tests cover PostgreSQL
]


def _fonts(tmp_path: Path) -> dict[str, str]:
    """Chromium's fontconfig with the packaged Noto Sans SC added, so Chinese renders on a machine without CJK fonts."""
    from bot.reports.fonts import cjk_font_path

    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        f"<dir>{cjk_font_path().parent}</dir><cachedir>{tmp_path / 'fontcache'}</cachedir></fontconfig>"
    )
    return {**os.environ, "FONTCONFIG_FILE": str(conf)}


@pytest.fixture(scope="module")
def _chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """One Chromium for the module: its start and its font cache cost seconds a test."""
    fonts = _fonts(tmp_path_factory.mktemp("chromium"))
    with playwright_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS, env=fonts)
        yield chromium
        chromium.close()


@pytest.fixture
def browser(_chromium: object) -> Iterator[object]:
    """The module's Chromium; the pages a test opened (each in a context of its own) are closed after it."""
    yield _chromium
    for context in _chromium.contexts:  # type: ignore[attr-defined]
        context.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("PAIJU_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_app(
    browser: object, served: Served, user: dict[str, object], theme: dict[str, str], scheme: str, *, age: float = 0
) -> object:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="zh-CN")  # type: ignore[attr-defined]
    page = context.new_page()
    stub = STUB.read_text()

    def route(request_route: object) -> None:
        url = request_route.request.url  # type: ignore[attr-defined]
        if url == TELEGRAM_JS:
            request_route.fulfill(status=200, content_type="application/javascript", body=stub)  # type: ignore[attr-defined]
        elif url.startswith(served.url):
            request_route.continue_()  # type: ignore[attr-defined]
        else:
            request_route.abort()  # type: ignore[attr-defined]

    page.route("**/*", route)
    signed = init_data(user, served.ledger.now() - timedelta(seconds=age), start=start_param())
    fragment = (
        f"tgWebAppData={quote(signed)}&tgWebAppThemeParams={quote(json.dumps(theme))}&tgWebAppColorScheme={scheme}"
    )
    page.goto(f"{served.url}#{fragment}")
    return page


def test_a_tapped_win_books_and_the_group_is_told(
    browser: object, served: Served, chat: Chat, ledger: Ledger, shots: Path, clock: Any
) -> None:
    assert "直杠" in chat.texts(B, "直杠 9p 点 @ajie")
    assert "亮倒" in chat.texts(A, "亮倒")
    page = open_app(browser, served, A, LIGHT, "light")

    page.wait_for_selector(".seat[data-seat='阿杰'] .badge.ld")  # type: ignore[attr-defined]
    assert page.inner_text("#events") == "小李 直杠 九筒（点杠 阿杰）\n阿杰 亮倒"  # type: ignore[attr-defined]
    assert page.evaluate("window.telegramReady") is True  # type: ignore[attr-defined]
    page.screenshot(path=str(shots / "board.png"))  # type: ignore[attr-defined]

    page.click("nav button[data-tab='win']")  # type: ignore[attr-defined]
    for tile in ["1p", "2p", "3p", "4p", "6p", "7s", "8s", "9s", "2s", "2s", "3s", "3s", "3s"]:
        page.click(f"#palette button[data-tile='{tile}']")  # type: ignore[attr-defined]
    page.wait_for_selector("#waits")  # type: ignore[attr-defined]
    assert "5p" in page.inner_html("#waits")  # type: ignore[attr-defined]  # 13 tiles: waiting on 五筒
    page.click("#palette button[data-tile='5p']")  # type: ignore[attr-defined]  # the 14th tile is the winning one
    page.click("#method button[data-value='discard']")  # type: ignore[attr-defined]
    page.click("#from button[data-value='小李']")  # type: ignore[attr-defined]
    page.wait_for_selector("#verdict")  # type: ignore[attr-defined]
    assert page.inner_text("#multiple").startswith("×4")  # type: ignore[attr-defined]  # 卡五星×2、亮倒×2
    assert page.inner_text("#payments").split() == ["小李", "→", "阿杰", "8元"]  # type: ignore[attr-defined]  # 包胡: the discarder pays
    assert page.inner_text("#line") == "胡 @阿杰 12346p22333789s 5p 点 @小李"  # type: ignore[attr-defined]
    page.screenshot(path=str(shots / "picker.png"), full_page=True)  # type: ignore[attr-defined]

    before = {line.name: line.amount for line in ledger.balances(GROUP).lines}
    page.click("#book")  # type: ignore[attr-defined]
    page.wait_for_selector(".seat[data-seat='阿杰'] .money.plus")  # type: ignore[attr-defined]  # back on the live board
    after = {line.name: line.amount for line in ledger.balances(GROUP).lines}
    assert after["阿杰"] - before["阿杰"] == 800 and after["小李"] - before["小李"] == -800
    posted = [str(c.params["text"]) for c in served.telegram.calls if c.method == "sendMessage"]
    told = [text for text in posted if text.startswith("📱 阿杰 在小程序里记：胡 @阿杰 12346p22333789s 5p 点 @小李")]
    assert len(told) == 1
    assert "阿杰 +8元（本晚 +6元）" in told[0] and "小李 -8元（本晚 -6元）" in told[0]
    assert page.inner_text(".seat[data-seat='阿杰'] .money") == "+6元"  # type: ignore[attr-defined]

    clock.advance(minutes=3)  # the next hand's minutes (a draw at once would be asked about as the same hand)
    assert "荒庄" in chat.texts(C, "荒庄")  # typed in the chat: the night page picks it up
    page.wait_for_selector("#toast", state="hidden")  # type: ignore[attr-defined]
    page.click("nav button[data-tab='night']")  # type: ignore[attr-defined]
    page.wait_for_selector("#chart")  # type: ignore[attr-defined]
    assert "小李 → 阿杰" in page.inner_text("#settlement")  # type: ignore[attr-defined]
    assert "阿杰 胡 小李 点的炮" in page.inner_text("#history")  # type: ignore[attr-defined]
    page.screenshot(path=str(shots / "night.png"), full_page=True)  # type: ignore[attr-defined]


def test_the_board_follows_the_chat_in_the_dark(browser: object, served: Served, chat: Chat, shots: Path) -> None:
    page = open_app(browser, served, C, DARK, "dark")
    page.wait_for_selector(".seat[data-seat='老王']")  # type: ignore[attr-defined]
    assert page.evaluate("document.documentElement.classList.contains('dark')")  # type: ignore[attr-defined]
    assert "暗杠" in chat.texts(C, "暗杠 7z")
    page.wait_for_selector("#events li")  # type: ignore[attr-defined]  # the long poll brought the typed kong
    assert page.inner_text("#events") == "老王 暗杠 中"  # type: ignore[attr-defined]
    assert page.inner_text(".seat[data-seat='老王'] .money") == "+4元"  # type: ignore[attr-defined]
    page.click("button[data-action='杠']")  # type: ignore[attr-defined]
    page.wait_for_selector("#kong")  # type: ignore[attr-defined]
    page.screenshot(path=str(shots / "kong-dark.png"))  # type: ignore[attr-defined]


def test_a_stale_login_shows_why(browser: object, served: Served, chat: Chat) -> None:
    page = open_app(browser, served, A, LIGHT, "light", age=2 * 86400)
    page.wait_for_selector("#fatal")  # type: ignore[attr-defined]
    assert "登录已过期" in page.inner_text("#fatal")  # type: ignore[attr-defined]


def test_the_page_names_its_user_as_the_bot_does(browser: object, served: Served, chat: Chat) -> None:
    """The header's "me" is the ledger's name (`Ledger.names`, the replies' `shown_name`): a 名片, a seat's name
    while its table is open, never the Telegram display name the login carries."""
    assert "路哥" in chat.texts(D, "名片 路哥")
    page = open_app(browser, served, D, LIGHT, "light")
    page.wait_for_selector(".seat[data-seat='阿杰']")  # type: ignore[attr-defined]
    assert page.inner_text("#me") == "me: 路哥"  # type: ignore[attr-defined]  # Telegram calls D 路人 (English)
    assert "阿杰" in chat.texts(A, "名片 杰哥")  # seated: 阿杰 until the table ends
    page = open_app(browser, served, A, LIGHT, "light")
    page.wait_for_selector(".seat[data-seat='阿杰'] .badge.me")  # type: ignore[attr-defined]
    assert page.inner_text("#me") == "我：阿杰"  # type: ignore[attr-defined]
