"""Real `paiju run` processes for tests and benchmarks: a config file, the environment, start / kill -9 / SIGTERM,
and free ports for their web servers."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

TOKEN = "424242:E2E-TOKEN-SECRET-PART"
SECRET = "test-webhook-secret"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def write_config(
    path: Path,
    *,
    base_url: str,
    port: int = 0,
    webhook_url: str = "",
    lease_seconds: int = 30,
    concurrent_updates: int = 8,
    log_format: str = "text",
    log_level: str = "INFO",
) -> Path:
    webhook = f'url = "{webhook_url}"\nsecret_token = "{SECRET}"\n' if webhook_url else ""
    path.write_text(
        f'[log]\nlevel = "{log_level}"\nformat = "{log_format}"\n'
        f'[telegram]\nbase_url = "{base_url}"\npoll_timeout = 1\nrate_limit = false\nset_commands = false\n'
        f"lease_seconds = {lease_seconds}\nconcurrent_updates = {concurrent_updates}\n"
        f"[telegram.webhook]\n{webhook}"
        f"[server]\nport = {port}\n",
        encoding="utf-8",
    )
    return path


def environment(token: str = TOKEN) -> dict[str, str]:
    return {**os.environ, "TELEGRAM_BOT_TOKEN": token, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1"}


class BotProcess:
    """One `paiju run` process; its stderr goes to `log`."""

    def __init__(self, config: Path, db_url: str, log: Path, *, webhook: bool = False, port: int = 0) -> None:
        self.config, self.db_url, self.log, self.webhook, self.port = config, db_url, log, webhook, port
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, token: str = TOKEN) -> BotProcess:
        command = [sys.executable, "-m", "paiju", "run", "--config", str(self.config), "--db", self.db_url]
        if self.webhook:
            command.append("--webhook")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, env=environment(token), stdout=log, stderr=log)
        return self

    async def kill(self) -> None:
        """kill -9: no cleanup of any kind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.process.wait, 30)

    async def terminate(self, timeout: float = 60) -> int:
        """SIGTERM, then wait off the event loop (a fake Bot API in this process must keep answering)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return await asyncio.to_thread(self.process.wait, timeout)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
