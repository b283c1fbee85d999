"""What the tests of the source-system adapters (Phoenix, Label Studio) share: every public mart of a
build as sorted rows (the quarantine without the columns that point into the tool's own file,
which differ from the native files by design), the staged rows and row statuses of a build,
a row-for-row comparison with doubles to 1e-9, and an adapter's Python reader loaded as a module
(its functions, no dbt).

Why staged rows stand for the marts: everything after staging is the same SQL whatever the
source system, so two builds whose staged rows and row statuses are equal (but for where each row
came from) have equal marts. A tool's full build is compared with the native files' build up to
the row statuses (``NATIVE_SELECT``), which costs a fifth of a full build."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import duckdb

from kit.builds import PROJECT, PUBLIC_MARTS

ORIGIN = ("annotation_row_id", "source_file", "source_row")
STAGED = ["stg_annotation_exports__annotations", "stg_annotation_exports__annotators"]
# what a native build of a tool's information needs for the comparison: staging and the row statuses
NATIVE_SELECT = [f"+{model}" for model in STAGED] + ["+int_annotations__row_status"]
# A tool's own build runs the data tests of staging (its own folder's among them) and the guards, not
# the invariants of the intermediate tables and marts: those are the same SQL on the same staged rows,
# and they run on the native data sets (sample, edge cases, generated data).
TOOL_BUILD_EXCLUDE = ["test_type:generic,path:models/intermediate", "test_type:generic,path:models/marts"]
# the staged columns that say where a row came from (or its time as written: its instant,
# created_at_utc, is compared), which differ between a tool's export and the native files by design
STAGED_ORIGIN = ("annotation_row_id", "source_file", "source_row", "source_files", "n_listed_rows", "created_at",
                 "read_source_file")


def public_mart_rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every public mart's rows, sorted; rejected_annotations without its ORIGIN columns."""
    columns = {mart: "*" for mart in PUBLIC_MARTS} | {"rejected_annotations": f"* exclude ({', '.join(ORIGIN)})"}
    with duckdb.connect(str(db_path), read_only=True) as con:
        return {mart: sorted(con.execute(f"select {columns[mart]} from {mart}").fetchall(), key=repr)
                for mart in PUBLIC_MARTS}


def staged_rows(db_path: Path) -> dict[str, list[tuple]]:
    """The STAGED models' rows without their STAGED_ORIGIN columns, and the row statuses
    (``row_status``: task, keys, status, reasons), each sorted."""
    out = {}
    with duckdb.connect(str(db_path), read_only=True) as con:
        for model in STAGED:
            columns = [c for (c,) in con.execute(
                "select column_name from information_schema.columns where table_schema = 'staging'"
                " and table_name = ? order by ordinal_position", [model]).fetchall() if c not in STAGED_ORIGIN]
            out[model] = sorted(con.execute(f"select {', '.join(columns)} from staging.{model}").fetchall(), key=repr)
        out["row_status"] = sorted(con.execute(
            "select task, record_uuid, chunk_id, annotator_id, annotation_status, reasons, was_repaired"
            " from intermediate.int_annotations__row_status").fetchall(), key=repr)
    return out


def tool_and_native(builds, tool: str, native: str) -> dict:
    """A tool's whole build and its native counterpart's (up to the row statuses), both passed: the
    tool's ``build`` and ``marts`` (public_mart_rows), and the ``staged`` rows of each (staged_rows)."""
    out = {"staged": {}}
    for name in (tool, native):
        build = builds.get(name).check()
        failed = [r for r in build.node_results if r["status"] in ("error", "fail")]
        assert not failed, f"[{name}] dbt nodes failed: {failed}"
        out["staged"][name] = build.derived("staged_rows", lambda build=build: staged_rows(build.db_path))
    out["build"] = builds.get(tool)
    out["marts"] = out["build"].derived("public_marts", lambda: public_mart_rows(out["build"].db_path))
    out["tool_staged"], out["native_staged"] = out["staged"][tool], out["staged"][native]
    return out


def assert_staged_rows_equal(tool: dict[str, list[tuple]], native: dict[str, list[tuple]], model: str) -> None:
    """A tool's staged rows (or row statuses) of ``model`` equal the native files', and are not empty."""
    assert tool[model], f"{model} is empty: the comparison would prove nothing"
    assert rows_equal(tool[model], native[model]), f"{model} differs"


def assert_fills_every_public_mart(marts: dict[str, list[tuple]]) -> None:
    """Every public mart has rows (labeling_drift needs triage spot-checks, the spot-check queue a
    triage record drawn at 10 %, the adjudication queue a tied label, judge_powered_metric_values a
    run with records only judges labelled: fixtures may lack them)."""
    may_be_empty = {"labeling_drift", "spot_check_queue", "adjudication_queue", "judge_powered_metric_values"}
    empty = [mart for mart in PUBLIC_MARTS if not marts[mart] and mart not in may_be_empty]
    assert empty == [], f"public marts without rows: {empty}"


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
