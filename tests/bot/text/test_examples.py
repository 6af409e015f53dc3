"""The examples in ``bot/text``'s docstrings hold (the wording modules are pure text)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

TEXT = Path(__file__).resolve().parents[3] / "bot" / "text"
MODULES = sorted(TEXT.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_text_module_examples_hold(path: Path) -> None:
    name = ".".join(path.relative_to(TEXT.parents[1]).with_suffix("").parts)
    module = importlib.import_module(name.removesuffix(".__init__"))
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
