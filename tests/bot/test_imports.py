"""The layers import one way: no two modules of the ledger or of the command layer import each other, not even
from inside a function (imports only for type checking do not count)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ledger", "bot/commands", "bot/games")


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """Modules `path` imports at run time (a `from x import y` counts `x.y` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for node in ast.walk(branch)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    files = [path for package in PACKAGES for path in (ROOT / package).glob("*.py")]
    modules = {_module(path): path for path in files}
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def test_the_graph_covers_the_split_ledger_and_the_command_layer() -> None:
    graph = _graph()
    assert {"ledger.service", "ledger.booking", "ledger.unit", "bot.commands.record", "bot.commands.flows"} <= set(
        graph
    )
    assert "bot.commands.flows" in graph["bot.commands.record"]  # record starts flows; flows never imports record


@pytest.mark.parametrize("module", sorted(_graph()))
def test_no_import_cycle_through(module: str) -> None:
    graph = _graph()
    path = [module]
    seen: set[str] = set()

    def visit(node: str) -> None:
        for nxt in sorted(graph[node]):
            if nxt == module:
                raise AssertionError(" → ".join([*path, nxt]))
            if nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                visit(nxt)
                path.pop()

    visit(module)
