"""``engine/`` is pure: no I/O, no clocks, no Discord, no printing — and its examples hold.

Every module under engine/ (the lead's included) is walked with ``ast``; every docstring
example is run with ``doctest``.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
FORBIDDEN_IMPORTS = frozenset(
    "discord PIL aiosqlite sqlite3 asyncio aiohttp socket os subprocess pathlib io time "
    "threading requests".split()
)
FORBIDDEN_CALLS = frozenset({"open", "print"})


def impurities(source: str) -> list[str]:
    """What makes this module source impure: forbidden imports and calls, with line numbers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in FORBIDDEN_CALLS:
                found.append(f"line {node.lineno}: calls {node.func.id}()")
            continue
        else:
            continue
        for name in names:
            if name.split(".")[0] in FORBIDDEN_IMPORTS:
                found.append(f"line {node.lineno}: imports {name}")
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_engine_has_modules() -> None:
    assert {"cards", "hands", "movegen"} <= {p.stem for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_engine_module_is_pure(path: Path) -> None:
    assert impurities(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_engine_module_examples_hold(path: Path) -> None:
    module = importlib.import_module(module_name(path))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_purity_check_finds_imports_and_calls() -> None:
    source = "import os.path\nfrom time import sleep\nimport json\nprint(open('x'))\nf.open()\n"
    assert impurities(source) == [
        "line 1: imports os.path",
        "line 2: imports time",
        "line 4: calls print()",
        "line 4: calls open()",
    ]


def _engine_imports(module: Path) -> set[str]:
    """The engine modules a module imports (relative imports, at any depth of the file)."""
    names = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_game_parts_do_not_import_the_game():
    """One-way imports: ``game`` is built from these modules, none of which imports it back
    (the old game ↔ observation cycle)."""
    for name in ("observation", "options", "state", "prelude", "burning"):
        assert "game" not in _engine_imports(ENGINE / f"{name}.py"), name
