"""The front ends hold a table as a handle and ask the service's public parts for the rest.

Read from their source: in ``bot/web`` and ``bot/discord_bot`` a table (``live``) is read
for nothing but its ``id``, and what they ask the service (``….service.X``, and
``….service.tables.X`` / ``.views.X`` / ``.archive.X``) is a public method of the facade or
of one of its parts — never a table's fields, the registry's dicts or a private method.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.service.archive import Archive
from bot.service.registry import Registry
from bot.service.seasons import Seasons
from bot.service.table_views import TableViews
from bot.service.tables import TableService

ROOT = Path(__file__).resolve().parents[2]
FRONT_ENDS = ("bot/web", "bot/discord_bot", "bot/cli")
HANDLE_ONLY = ("bot/web", "bot/discord_bot")  # the table handles they hold

#: The facade's parts, and what a front end may ask each.
PARTS: dict[str, type] = {
    "tables": Registry,
    "views": TableViews,
    "archive": Archive,
    "seasons": Seasons,
}
#: The facade's public attributes that are not methods: its parts, the supervisor a front
#: end runs its own background work under (one table's failure never stops another), the
#: shards this process serves and the lease its claims renew within.
ATTRIBUTES = frozenset(PARTS) | {"supervisor", "shards", "lease"}


def _public_methods(cls: type) -> frozenset[str]:
    return frozenset(
        name
        for name, value in inspect.getmembers(cls)
        if not name.startswith("_") and callable(value)
    )


def _sources(roots: tuple[str, ...]) -> Iterator[tuple[str, ast.AST]]:
    for root in roots:
        for path in sorted((ROOT / root).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(encoding="utf-8"))


def _is_service(node: ast.expr) -> bool:
    """``service`` or ``<anything>.service``."""
    return (isinstance(node, ast.Name) and node.id == "service") or (
        isinstance(node, ast.Attribute) and node.attr == "service"
    )


def service_uses(tree: ast.AST) -> Iterator[tuple[int, str, str | None]]:
    """(line, what, part): each ``service.what`` (part None) and ``service.part.what``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        if _is_service(node.value):
            yield node.lineno, node.attr, None
        elif isinstance(node.value, ast.Attribute) and _is_service(node.value.value):
            part = node.value.attr
            if part in PARTS:
                yield node.lineno, node.attr, part


def table_fields(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, field): each ``live.field`` but ``live.id``."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "live"
            and node.attr != "id"
        ):
            yield node.lineno, node.attr


def test_front_ends_read_nothing_of_a_table_but_its_id() -> None:
    found = [
        f"{path}:{line} live.{name}"
        for path, tree in _sources(HANDLE_ONLY)
        for line, name in table_fields(tree)
    ]
    assert found == []


def test_front_ends_ask_only_the_public_methods_of_the_service_and_its_parts() -> None:
    facade = _public_methods(TableService) | ATTRIBUTES
    allowed = {part: _public_methods(cls) for part, cls in PARTS.items()}
    found = []
    for path, tree in _sources(FRONT_ENDS):
        for line, name, part in service_uses(tree):
            if name not in (facade if part is None else allowed[part]):
                found.append(f"{path}:{line} service.{part + '.' if part else ''}{name}")
    assert found == []


@pytest.mark.parametrize(
    "source",
    [
        "live.waiting",
        "self.service.tables.by_id",
        "gouji.service._settle_locked(live)",
        "service.views.recent",
    ],
)
def test_the_checks_see_what_they_forbid(source: str) -> None:
    """Each check finds what it is there to find (not a test that cannot fail)."""
    tree = ast.parse(source)
    facade = _public_methods(TableService) | ATTRIBUTES
    allowed = {part: _public_methods(cls) for part, cls in PARTS.items()}
    bad = [f for _, f in table_fields(tree)] + [
        name
        for _, name, part in service_uses(tree)
        if name not in (facade if part is None else allowed[part])
    ]
    assert bad
