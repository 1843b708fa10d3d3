"""config.toml loading and `paiju run`'s refusals before it touches the network."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, bot_token, load_settings
from bot.telegram import app

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_the_example_documents_exactly_the_defaults() -> None:
    assert load_settings(EXAMPLE) == Settings()


def test_settings_are_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[database]\nurl = "sqlite:///x.db"\n[server]\nport = 9000\n[telegram.webhook]\nurl = "https://h/p"\n'
    )
    settings = load_settings(path)
    assert settings.database_url == "sqlite:///x.db"
    assert settings.server.port == 9000 and settings.telegram.webhook.path == "paiju"
    assert settings.telegram.webhook.url == "https://h/p"
    path.write_text("[telegram]\npoll_timout = 3\n")
    with pytest.raises(ConfigError, match="poll_timout"):
        load_settings(path)
    path.write_text('[telegram]\npoll_timeout = "3"\n')
    with pytest.raises(ConfigError, match="must be int"):
        load_settings(path)
    path.write_text('[telegram]\ntoken = "1:SECRET"\n')
    with pytest.raises(ConfigError, match="unknown key 'token'"):
        load_settings(path)


def test_the_token_comes_only_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN"):
        bot_token()
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", " 1:ABC \n")
    assert bot_token() == "1:ABC"


def test_run_refuses_without_a_token_or_a_webhook_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("PAIJU_CONFIG", raising=False)
    assert app.main([]) == 2
    assert "TELEGRAM_BOT_TOKEN" in capsys.readouterr().out
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:ABC")
    assert app.main(["--webhook", "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert "[telegram.webhook] url" in capsys.readouterr().out
    assert not (tmp_path / "x.db").exists()  # refused before touching the database


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("[telegram]\nconcurrent_updates = 0\n", "concurrent_updates must be between 1 and 256"),
        ("[telegram]\nlease_seconds = 1\n", "lease_seconds must be between 3 and 3600"),
        ("[server]\nport = 70000\n", "server.port must be between 0 and 65535"),
        ('[telegram.webhook]\nsecret_token = "has space"\n', "secret_token may only have"),
        ('[telegram.webhook]\npath = "healthz"\n', "other than healthz and metrics"),
        ('[telegram.webhook]\npath = "../x"\n', "must be a URL path"),
        ('[log]\nformat = "xml"\n', "log.format must be text or json"),
        ("[telegram.webhook]\nport = 9000\n", "unknown key 'port'"),
    ],
)
def test_values_the_bot_cannot_use_are_refused_by_name(tmp_path: Path, text: str, complaint: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=complaint):
        load_settings(path)
