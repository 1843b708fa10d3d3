"""`paiju run` that cannot reach Telegram points where the fault can be: with the default address, this machine's
network, DNS or proxy (`HTTPS_PROXY`), never a `[telegram] base_url` nobody set; with one set, that setting."""

from __future__ import annotations

from dataclasses import replace

from bot.config import Settings
from bot.telegram.app import Service


def _said(base_url: str) -> tuple[str, str]:
    settings = Settings()
    settings = replace(settings, telegram=replace(settings.telegram, base_url=base_url))
    service = Service(settings, "123:token", "sqlite://")
    return service._unreachable(OSError("[Errno -3] Temporary failure in name resolution")), service._refused()


def test_the_default_address_points_to_the_network_and_the_proxy() -> None:
    unreachable, refused = _said("")
    assert unreachable.startswith("cannot reach the Bot API at https://api.telegram.org/bot (")
    assert "HTTPS_PROXY" in unreachable and "base_url" not in unreachable
    assert "base_url" not in refused


def test_a_configured_address_is_pointed_to() -> None:
    unreachable, refused = _said("http://127.0.0.1:8081/bot")
    assert unreachable.endswith("check [telegram] base_url") and refused.endswith("and [telegram] base_url")
