"""Which tests may run untraced by coverage without the report losing what it shows.

Coverage's tracer (Python 3.11 has no sys.monitoring) makes traced code two to three times
slower, and most of the suite's long tests run lines that shorter tests run too. The tests
named in ``tests/untraced.txt`` run with tracing off (``tests/conftest.py``); this script
chooses them from one run of the whole suite with every test traced and each test's lines
recorded as its own context:

    GOUJI_TRACE_ALL=1 .venv/bin/python -m pytest -n 4 --cov --cov-context=test \\
        --cov-report= --junitxml=/tmp/times.xml
    .venv/bin/python -m tests.untraced .coverage /tmp/times.xml > tests/untraced.txt

Longest first, a test goes untraced when every branch it covers is covered by a test still
traced; then, of the tests that take at least ``--loss-seconds``, those that alone cover at
most ``--loss-arcs`` branches, or one per ``--seconds-per-arc`` of their time (the long
random runs of the engine and the AI). Each lost branch is named in the output, as a
comment. A test is named without its parameters (``file::test`` covers them all).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path

Arc = tuple[str, int, int]
LIST = Path(__file__).parent / "untraced.txt"


def name_of(context: str) -> str:
    """A test's node id or coverage context as the list names it:
    ``tests/x.py::test_y[param]|run`` -> ``tests/x.py::test_y``."""
    return context.split("|")[0].split("[")[0]


def listed(path: Path = LIST) -> frozenset[str]:
    """The tests the list names (its ``#`` lines are comments)."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


def arcs_by_test(coverage_file: Path) -> dict[str, set[Arc]]:
    """Every branch (file, from line, to line) each test covered, from a coverage data file
    recorded with ``--cov-context=test``."""
    db = sqlite3.connect(coverage_file)
    files = dict(db.execute("SELECT id, path FROM file"))
    contexts = dict(db.execute("SELECT id, context FROM context"))
    found: dict[str, set[Arc]] = defaultdict(set)
    for file_id, context_id, start, end in db.execute(
        "SELECT file_id, context_id, fromno, tono FROM arc"
    ):
        name = name_of(contexts[context_id]) if contexts[context_id] else ""
        found[name].add((files[file_id], start, end))
    return found


def seconds_by_test(junit_xml: Path) -> dict[str, float]:
    """Each test's time (all its parameters) from pytest's ``--junitxml`` report."""
    times: dict[str, float] = defaultdict(float)
    for case in ET.parse(junit_xml).iter("testcase"):
        path = case.get("classname", "").replace(".", "/")
        module, _, cls = path.partition("/Test")  # test classes: module.TestX
        name = f"{module}.py::{'Test' + cls + '::' if cls else ''}{case.get('name', '')}"
        times[name_of(name)] += float(case.get("time", 0))
    return times


def choose(
    arcs: dict[str, set[Arc]],
    seconds: dict[str, float],
    loss_seconds: float,
    loss_arcs: int,
    seconds_per_arc: float = float("inf"),
) -> tuple[list[str], dict[str, list[Arc]]]:
    """(the tests to leave untraced, longest first; the branches only each of the second
    kind covered)."""
    covering: Counter[Arc] = Counter(arc for found in arcs.values() for arc in found)
    untraced: list[str] = []
    lost: dict[str, list[Arc]] = {}
    longest = sorted((name for name in seconds if name in arcs), key=lambda n: -seconds[n])
    for name in longest:
        if all(covering[arc] > 1 for arc in arcs[name]):
            covering.subtract(arcs[name])
            untraced.append(name)
    for name in longest:
        if name in untraced or seconds[name] < loss_seconds:
            continue
        alone = sorted(arc for arc in arcs[name] if covering[arc] == 1)
        if len(alone) <= max(loss_arcs, seconds[name] // seconds_per_arc):
            covering.subtract(arcs[name])
            untraced.append(name)
            lost[name] = alone
    return untraced, lost


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("coverage_file", type=Path)
    parser.add_argument("junit_xml", type=Path)
    parser.add_argument("--min-seconds", type=float, default=1.0, help="shorter tests stay")
    parser.add_argument("--loss-seconds", type=float, default=3.0)
    parser.add_argument("--loss-arcs", type=int, default=2)
    parser.add_argument("--seconds-per-arc", type=float, default=1.0)
    args = parser.parse_args(argv)
    arcs = arcs_by_test(args.coverage_file)
    seconds = seconds_by_test(args.junit_xml)
    long_enough = {name: s for name, s in seconds.items() if s >= args.min_seconds}
    untraced, lost = choose(
        arcs, long_enough, args.loss_seconds, args.loss_arcs, args.seconds_per_arc
    )
    out = sys.stdout
    out.write("# Tests run untraced by coverage: chosen by `python -m tests.untraced` (its\n")
    out.write("# docstring says how); every branch they cover is covered by a traced test,\n")
    out.write("# except the few named under a test. file::test, all its parameters.\n")
    for name in sorted(untraced):
        out.write(f"{name}\n")
        for path, start, end in lost.get(name, []):
            out.write(f"#   alone covers {os.path.relpath(path)}:{start}->{end}\n")
    total = sum(seconds[n] for n in untraced)
    print(f"{len(untraced)} tests, {total:.0f} s of the traced run", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
