"""The command line as a newcomer meets it: every subcommand finds the same database (`--db`, `$PAIJU_DB_URL`, the
config file's `[database] url`, `./paiju.db`), a command that only reads never creates an empty database, a
PostgreSQL URL without its driver is one sentence, `paiju score --help` helps, `paiju export | head` leaves quietly,
and `paiju console --echo` prints the transcript the docs show."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.test_transcripts import HERE

PAIJU = [sys.executable, "-m", "paiju"]
SCRIPT = "!admin a\na: 开桌 @a @b @c 庄 @a\nb: 暗杠 3s\na: 胡 清一色 自摸\n"


def run(*args: str, cwd: Path, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"PAIJU_DB_URL", "PAIJU_CONFIG"}}
    environment |= {"PAIJU_REPORT_DIR": "reports"} | (env or {})
    return subprocess.run(
        [*PAIJU, *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=environment, timeout=120
    )


def exported_hands(result: subprocess.CompletedProcess[str]) -> int:
    assert result.returncode == 0, result.stderr
    return len(json.loads(result.stdout)["hands"])


def test_paiju_db_url_is_every_subcommands_database(tmp_path: Path) -> None:
    env = {"PAIJU_DB_URL": f"sqlite:///{tmp_path / 'night.db'}"}
    assert run("console", cwd=tmp_path, env=env, stdin=SCRIPT).returncode == 0
    assert (tmp_path / "night.db").exists() and not (tmp_path / "paiju.db").exists()
    assert exported_hands(run("export", cwd=tmp_path, env=env)) == 1
    assert re.search(r": (\d{4}) \(head \1\)$", run("db", "current", cwd=tmp_path, env=env).stdout.strip())
    assert run("db", "groups", cwd=tmp_path, env=env).stdout == "-1000000000001\tkawuxing\tconsole\n"  # --chat's id
    report = run("report", "--chat", "-1000000000001", "--night", "1", "--out", "n.png", cwd=tmp_path, env=env)
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "n.png").read_bytes()[:4] == b"\x89PNG"
    # --db still wins over the environment
    other = tmp_path / "other.db"
    assert run("db", "upgrade", "--db", str(other), cwd=tmp_path, env=env).returncode == 0
    assert exported_hands(run("export", "--db", str(other), cwd=tmp_path, env=env)) == 0


def test_the_config_files_database_is_used_when_no_url_is_given(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(f'[database]\nurl = "sqlite:///{tmp_path / "club.db"}"\n', encoding="utf-8")
    assert run("console", cwd=tmp_path, stdin=SCRIPT).returncode == 0
    assert (tmp_path / "club.db").exists() and not (tmp_path / "paiju.db").exists()
    assert exported_hands(run("export", cwd=tmp_path)) == 1
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PAIJU_CONFIG": str(tmp_path / "config.toml")}
    assert exported_hands(run("export", cwd=elsewhere, env=env)) == 1  # $PAIJU_CONFIG names the file
    env["PAIJU_DB_URL"] = f"sqlite:///{tmp_path / 'missing.db'}"  # the environment comes before the file
    assert run("export", cwd=elsewhere, env=env).returncode == 2


@pytest.mark.parametrize(
    "args",
    [
        ("export",),
        ("report", "--chat", "1", "--night", "1", "--out", "x.png"),
        ("db", "current"),
        ("db", "groups"),
        ("db", "backup", "--out", "b.db"),
    ],
)
def test_a_command_that_only_reads_never_creates_a_database(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run(*args, "--db", "mistyped.db", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "no database at mistyped.db (create one with `paiju db upgrade --db mistyped.db`)"
    )
    assert "Traceback" not in result.stderr and list(tmp_path.iterdir()) == []


def test_a_postgresql_url_without_its_driver_names_the_extra(tmp_path: Path) -> None:
    program = (
        "import sys; sys.modules['psycopg'] = None; from paiju.cli import main; "
        "sys.exit(main(['export', '--db', 'postgresql://paiju@db.example/paiju']))"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "paiju export: PostgreSQL needs its driver: "
        "install paiju with the postgres extra (pip install 'paiju[postgres]')"
    ]


def test_an_unreachable_database_is_one_sentence(tmp_path: Path) -> None:
    result = run("export", "--db", "postgresql://paiju@127.0.0.1:1/paiju", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("paiju export: cannot reach the database: ")


def test_paiju_score_help_prints_help_without_reading_stdin(tmp_path: Path) -> None:
    result = subprocess.run([*PAIJU, "score", "--help"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("usage: paiju score")
    assert "stdin" in result.stdout and "docs/kawuxing.md" in result.stdout


def test_export_into_a_pipe_closed_early_leaves_quietly(tmp_path: Path) -> None:
    from ledger.service import Ledger

    url = f"sqlite:///{tmp_path / 'big.db'}"
    with Ledger.open(url) as ledger:
        member = ledger.member(-7, 1, "罚单大户")
        for i in range(400):  # an export well over a pipe's buffer
            ledger.fine(member.id, 100, "刷屏", source=f"big:{i}", by=None)
    export = subprocess.Popen([*PAIJU, "export", "--db", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert export.stdout is not None and export.stderr is not None
    assert export.stdout.read(10) == b'{\n "hands"'
    export.stdout.close()  # `| head`: the reader has gone
    errors = export.stderr.read().decode()
    assert export.wait(timeout=60) == 141 and errors == ""


def test_console_echo_prints_the_transcript_the_docs_show(tmp_path: Path) -> None:
    transcript = (HERE / "table_permissions.txt").read_text(encoding="utf-8")
    script = "".join(line + "\n" for line in transcript.splitlines() if not line.startswith(("bot:", "console:")))
    echoed = run("console", "--echo", "--db", "t.db", cwd=tmp_path, stdin=script)
    assert echoed.returncode == 0 and echoed.stdout == transcript
    plain = run("console", "--db", "u.db", cwd=tmp_path, stdin=script)  # by default only the replies, as before
    assert plain.stdout == "".join(line + "\n" for line in transcript.splitlines() if line.startswith("bot:"))
