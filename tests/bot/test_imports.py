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
    """Modules `path` imports at run time (a `from x import y` counts `x.y` when that is a module).

    Imports are statements, so only statement bodies are walked (walking every expression node made collecting
    this file cost seconds in every test worker)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.orelse)
            else:
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit(inner)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def _modules() -> dict[str, Path]:
    return {_module(path): path for package in PACKAGES for path in (ROOT / package).glob("*.py")}


@functools.cache
def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path) & set(modules) - {name} for name, path in modules.items()}


def test_the_graph_covers_the_split_ledger_and_the_command_layer() -> None:
    graph = _graph()
    assert {"ledger.service", "ledger.booking", "ledger.unit", "bot.commands.record", "bot.commands.flows"} <= set(
        graph
    )
    assert "bot.commands.flows" in graph["bot.commands.record"]  # record starts flows; flows never imports record


@pytest.mark.parametrize("module", sorted(_modules()))
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
