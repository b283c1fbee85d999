"""Two builds of the same input give byte-identical public marts (docs/rules.md, Reproducible numbers).

The session's sample build (dbt's 2 threads, DuckDB's 2 threads per query, the profile's defaults)
is built again from a copy of its project and database, every model, with other thread counts:
DuckDB's parallel aggregates then add the rows in another order, which changed the last digits of
a fifth of the ``metric_values`` rows while the sums were sums of doubles. Every public mart of
the rebuild must hold the same rows as the original's, each value the same to the last bit
(doubles compared by their exact binary value, ``float.hex``), the same columns of the same types.
A control nudges one double of a copy by one unit in the last place: the comparison names it.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import duckdb
import pytest
from kit.builds import PUBLIC_MARTS, run_dbt

pytestmark = pytest.mark.slow                      # two dbt runs of the sample of its own

SCENARIOS_USED = ["sample"]


def _exact(value) -> str:
    """A value as text that two values share only when they are the same to the last bit."""
    return f"{type(value).__name__}:{value.hex() if isinstance(value, float) else repr(value)}"


def _marts(db_path: Path) -> dict[str, tuple[list[tuple], list[tuple]]]:
    """Each public mart's columns (name, type) and its rows, exact and sorted."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        out = {}
        for mart in PUBLIC_MARTS:
            columns = con.execute(
                "select column_name, data_type from information_schema.columns"
                " where table_schema = 'main' and table_name = ? order by ordinal_position", [mart]).fetchall()
            rows = con.execute(f'select * from main."{mart}"').fetchall()
            out[mart] = (columns, sorted(tuple(_exact(v) for v in row) for row in rows))
        return out
    finally:
        con.close()


def _differences(before: Path, after: Path) -> list[str]:
    """One line per mart that differs: its columns, or how many of its rows the second build lacks, with
    the first of them (its values other than doubles) and the values the second build's first row differs in."""
    left, right = _marts(before), _marts(after)
    problems = []
    for mart in PUBLIC_MARTS:
        (columns, rows), (other_columns, other_rows) = left[mart], right[mart]
        if columns != other_columns:
            problems.append(f"{mart}: columns {columns} != {other_columns}")
        elif rows != other_rows:
            only_before = sorted(set(rows) - set(other_rows))
            only_after = sorted(set(other_rows) - set(rows))
            first = {name: value for (name, _), value in zip(columns, only_before[0]) if not value.startswith("float:")}
            changed = {name: f"{a} -> {b}" for (name, _), a, b in zip(columns, only_before[0], only_after[0]) if a != b}
            problems.append(f"{mart}: {len(only_before)} of {len(rows)} rows differ; the first, {first}, has {changed}")
    return problems


@pytest.mark.parametrize("threads", [1, 4])
def test_a_build_with_other_threads_gives_the_same_marts(builds, tmp_path, threads):
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path)
    assert _marts(tmp_path / sample.db_path.name)["metric_values"][1], "the sample's metric_values is empty"
    out = run_dbt(project, ["run", "--threads", str(threads)],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name, "RAGMART_DUCKDB_THREADS": str(threads)})
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]
    problems = _differences(sample.db_path, tmp_path / sample.db_path.name)
    assert not problems, f"with {threads} thread(s) the marts differ from the sample build's:\n" + "\n".join(problems)


def test_the_comparison_sees_a_change_in_the_last_bit(builds, tmp_path):
    sample = builds.get("sample").check()
    nudged = tmp_path / "nudged.duckdb"
    shutil.copyfile(sample.db_path, nudged)
    con = duckdb.connect(str(nudged))
    value = con.execute("select max(value) from main.metric_values where value > 0 and value < 1").fetchone()[0]
    con.execute("update main.metric_values set value = ? where value = ?", [math.nextafter(value, 2.0), value])
    n_changed = con.execute("select count(*) from main.metric_values where value = ?",
                            [math.nextafter(value, 2.0)]).fetchone()[0]
    con.close()
    problems = _differences(sample.db_path, nudged)
    assert [p.split(":")[0] for p in problems] == ["metric_values"], problems
    assert problems[0].startswith(f"metric_values: {n_changed} of "), problems
    assert f"float:{value.hex()} -> float:{math.nextafter(value, 2.0).hex()}" in problems[0], problems
