"""The project's own generic tests fail where they should: ``expect_columns_to_not_be_null``
compiled with ``dbt compile --inline`` (its default implementation) and run on DuckDB tables
with and without nulls, with and without ``row_condition``."""

from __future__ import annotations

import duckdb
import pytest
from kit.builds import run_dbt

SCENARIOS_USED = ["sample"]

INLINE = ("{{ default__test_expect_columns_to_not_be_null('cells', ['a', 'b', 'c'], none) }} "
          "-- split --\n"
          "{{ default__test_expect_columns_to_not_be_null('cells', ['a', 'b', 'c'], \"status = 'accepted'\") }}")


@pytest.fixture(scope="module")
def compiled(builds, tmp_path_factory) -> tuple[str, str]:
    """The test's SQL without and with a row condition, compiled in a copy of the sample build."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path_factory.mktemp("generic_tests"))
    out = run_dbt(project, ["compile", "--quiet", "--inline", INLINE],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    every_row, accepted_rows = out.stdout.split("-- split --")
    return every_row, accepted_rows


def _failures(sql: str, rows: list[tuple]) -> list[tuple]:
    con = duckdb.connect()
    con.execute("create table cells (a integer, b varchar, c double, status varchar)")
    if rows:
        con.executemany("insert into cells values (?, ?, ?, ?)", rows)
    return sorted(con.execute(sql).fetchall())


def test_expect_columns_to_not_be_null(compiled):
    every_row, accepted_rows = compiled
    clean = [(1, "x", 0.5, "accepted"), (2, "y", 1.0, "rejected")]
    assert _failures(every_row, clean) == []
    assert _failures(every_row, []) == []
    nulls = clean + [(None, "z", None, "accepted"), (3, "w", None, "rejected"), (4, None, 2.0, "rejected")]
    assert _failures(every_row, nulls) == [("a", 1), ("b", 1), ("c", 2)]
    # among the accepted rows only a and c have a null, once each
    assert _failures(accepted_rows, nulls) == [("a", 1), ("c", 1)]
