"""What the tests of the source-system adapters (Phoenix, Label Studio) share: every public mart of a
build as sorted rows (the quarantine without the columns that point into the tool's own file,
which differ from the native files by design), a row-for-row comparison with doubles to 1e-9,
and an adapter's Python reader loaded as a module (its functions, no dbt)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import duckdb

from kit.builds import PROJECT, PUBLIC_MARTS

ORIGIN = ("annotation_row_id", "source_file", "source_row")


def public_mart_rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every public mart's rows, sorted; rejected_annotations without its ORIGIN columns."""
    columns = {mart: "*" for mart in PUBLIC_MARTS} | {"rejected_annotations": f"* exclude ({', '.join(ORIGIN)})"}
    with duckdb.connect(str(db_path), read_only=True) as con:
        return {mart: sorted(con.execute(f"select {columns[mart]} from {mart}").fetchall(), key=repr)
                for mart in PUBLIC_MARTS}


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b


def rows_equal(left: list[tuple], right: list[tuple]) -> bool:
    """The same rows in the same order, doubles to 1e-9 (NaN equals NaN)."""
    return len(left) == len(right) and all(
        len(x) == len(y) and all(_same(u, v) for u, v in zip(x, y)) for x, y in zip(left, right))


def reader_module(relative_path: str) -> ModuleType:
    """A Python model of the project (e.g. models/staging/phoenix/base_phoenix__export.py) as a module."""
    path = PROJECT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
