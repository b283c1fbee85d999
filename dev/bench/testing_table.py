"""The table of docs/testing.md ("The suite, module by module"): each test module of dev/tests, what
it checks (its docstring's first sentence), the data sets it builds (its SCENARIOS_USED) and the
time its tests took in one run, from that run's JUnit XML (pytest --junitxml) and, for the builds,
the `ragmart build <name>: <s>s` lines of its log (the session's builds run beside the tests).

    PYTEST_ADDOPTS=--junitxml=/tmp/junit.xml make test > /tmp/test.log 2>&1
    .venv/bin/python dev/bench/testing_table.py /tmp/junit.xml /tmp/test.log

Prints the Markdown table; the seconds are the sums of the module's test times (two processes run
at once, so they add up to about twice the wall time), the builds' seconds are their own.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
ROOT = TESTS.parents[1]
for folder in ("dev/tests", "scripts", "scripts/lib", "dev/generate", "dev/fixtures", "dev/bench"):
    sys.path.insert(0, str(ROOT / folder))


def module_facts(path: Path) -> tuple[str, list[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    doc = (ast.get_docstring(tree) or "").strip().replace("\n", " ")
    first = re.split(r"(?<=\.)\s", doc, maxsplit=1)[0].rstrip(":.") if doc else ""
    if len(first) > 160:
        first = first[:160].rsplit(" ", 1)[0] + " …"
    used: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "SCENARIOS_USED" for t in node.targets):
            try:
                used = list(ast.literal_eval(node.value))
            except ValueError:   # computed in the module: import it (pytest.ini's pythonpath, and its folder)
                sys.path.insert(0, str(path.parent))
                used = list(getattr(importlib.import_module(path.stem), "SCENARIOS_USED", []))
    return first, used


def main(junit: str, log: str | None = None) -> None:
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for case in ET.parse(junit).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")
        name = next((part for part in module if part.startswith("test_")), module[-1])
        seconds[name] += float(case.get("time") or 0)
        counts[name] += 1
    builds = {}
    if log:
        for match in re.finditer(r"ragmart build (\S+): (\d+)s", Path(log).read_text(errors="replace")):
            builds[match.group(1)] = int(match.group(2))
    print("| module | what it checks | data sets it builds | tests | time of its tests (s) |")
    print("|---|---|---|---:|---:|")
    for path in sorted([*TESTS.glob("test_*.py"), *TESTS.glob("engines/test_*.py")]):
        what, used = module_facts(path)
        data = ", ".join(f"{u} ({builds[u]} s)" if u in builds else u for u in used) or "none (no build)"
        what = what.replace("|", "\\|")
        print(f"| `{path.relative_to(ROOT)}` | {what} | {data} | {counts.get(path.stem, 0)} |"
              f" {seconds.get(path.stem, 0.0):.0f} |")


if __name__ == "__main__":
    main(*sys.argv[1:3])
