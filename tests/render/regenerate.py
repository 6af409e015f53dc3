"""Rewrite the golden images: ``python -m tests.render.regenerate`` (then look at them)."""

from __future__ import annotations

from render.encode import to_png
from tests.render.cases import CASES, GOLDEN, golden_path


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for name, draw in CASES.items():
        path = golden_path(name)
        path.write_bytes(to_png(draw()))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
