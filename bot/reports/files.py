"""Where report files (pictures, exports) go, and how they are written so no reader sees half of one."""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

#: a folder the operator names for pictures and exports (one bot's own); unset, each process makes its own
REPORT_DIR_ENV = "PAIJU_REPORT_DIR"


def report_dir(out_dir: str | Path | None = None) -> Path:
    """Where a report's file is written: `out_dir`, else $PAIJU_REPORT_DIR, else a folder of this process
    alone. Files are named after their group and night, which restart at 1 in every database, so two bots, or
    a console beside a bot, sharing one fixed folder would write over each other's pictures."""
    chosen = out_dir or os.environ.get(REPORT_DIR_ENV)
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    private = _private_dir(os.getpid())
    private.mkdir(mode=0o700, exist_ok=True)  # again, should the system's cleaner have removed it
    return private


@functools.cache
def _private_dir(pid: int) -> Path:
    """This process's folder (a forked child has another pid, so its own): a new, unguessable name in the
    system's temporary directory, readable by its owner only (`mkdtemp`)."""
    return Path(tempfile.mkdtemp(prefix=f"paiju-reports-{pid}-"))


@contextmanager
def written(path: Path, *, binary: bool) -> Iterator[IO[Any]]:
    """A file to write `path`'s content into: made beside it and renamed into place when the block ends, so a
    reader (a bot sending the same night's picture) never sees half a file; removed if the block fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            yield stream
        os.chmod(partial, 0o644)  # mkstemp's 0600 would hide a report from the user's other programs
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
