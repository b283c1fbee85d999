"""The project's own multi-column and multi-expression generic tests fail where they should: each compiled with
``dbt compile --inline`` (its default implementation) and run on DuckDB tables with and without
bad values, with and without ``row_condition``. The merged row-rules tests of the models, failing
in a build, are test_row_rules.py's."""

from __future__ import annotations

import duckdb
import pytest
from kit.builds import run_dbt

SCENARIOS_USED = ["sample"]

TESTS = {
    "not_null": "default__test_expect_columns_to_not_be_null('cells', ['a', 'b', 'c'], {condition})",
    "expressions": "default__test_expressions_are_true('cells', ['a <= c', \"b <> 'it''s'\"], {condition})",
    # an item that is a list of expressions, one per column (the labels of a task in the models' YAML)
    "expression_lists": "default__test_expressions_are_true('cells', "
                        "[ragmart_column_predicates(['a', 'c'], '{{column}} between 0 and 1'), 'a <= c'], {condition})",
}
CONDITIONS = {"every_row": "none", "accepted_rows": "\"status = 'accepted'\""}


@pytest.fixture(scope="module")
def compiled(builds, tmp_path_factory) -> dict[tuple[str, str], str]:
    """Each test's SQL without and with a row condition, compiled in a copy of the sample build."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path_factory.mktemp("generic_tests"))
    keys = [(test, rows) for test in TESTS for rows in CONDITIONS]
    inline = " -- split --\n".join(
        "{{ " + TESTS[test].format(condition=CONDITIONS[rows]) + " }}" for test, rows in keys)
    out = run_dbt(project, ["compile", "--quiet", "--inline", inline],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return dict(zip(keys, out.stdout.split("-- split --"), strict=True))


def _failures(sql: str, rows: list[tuple]) -> list[tuple]:
    con = duckdb.connect()
    con.execute("create table cells (a integer, b varchar, c double, status varchar)")
    if rows:
        con.executemany("insert into cells values (?, ?, ?, ?)", rows)
    return sorted(con.execute(sql).fetchall())


def test_expect_columns_to_not_be_null(compiled):
    every_row, accepted_rows = compiled["not_null", "every_row"], compiled["not_null", "accepted_rows"]
    clean = [(1, "x", 0.5, "accepted"), (2, "y", 1.0, "rejected")]
    assert _failures(every_row, clean) == []
    assert _failures(every_row, []) == []
    nulls = clean + [(None, "z", None, "accepted"), (3, "w", None, "rejected"), (4, None, 2.0, "rejected")]
    assert _failures(every_row, nulls) == [("a", 1), ("b", 1), ("c", 2)]
    # among the accepted rows only a and c have a null, once each
    assert _failures(accepted_rows, nulls) == [("a", 1), ("c", 1)]


def test_expressions_are_true(compiled):
    every_row, accepted_rows = compiled["expressions", "every_row"], compiled["expressions", "accepted_rows"]
    # nulls pass; an expression with a quote in it comes back as written
    clean = [(0, "x", 1.0, "accepted"), (1, "y", 1.0, "rejected"), (None, None, None, "accepted")]
    assert _failures(every_row, clean) == []
    assert _failures(every_row, []) == []
    bad = clean + [(2, "x", 1.0, "rejected"), (3, "it's", 0.0, "accepted"), (1, "it's", 2.0, "rejected")]
    assert _failures(every_row, bad) == [("a <= c", 2), ("b <> 'it''s'", 2)]
    assert _failures(accepted_rows, bad) == [("a <= c", 1), ("b <> 'it''s'", 1)]


def test_expressions_are_true_with_a_list_of_expressions(compiled):
    every_row, accepted_rows = compiled["expression_lists", "every_row"], compiled["expression_lists", "accepted_rows"]
    # each column's expression is reported on its own, beside the plain one; nulls pass
    clean = [(0, "x", 1.0, "accepted"), (1, "y", 1.0, "rejected"), (None, None, None, "accepted")]
    assert _failures(every_row, clean) == []
    bad = clean + [(2, "x", 1.0, "rejected"), (1, "x", -0.5, "accepted"), (0, "x", None, "rejected")]
    assert _failures(every_row, bad) == [("a <= c", 2), ("a between 0 and 1", 1), ("c between 0 and 1", 1)]
    assert _failures(accepted_rows, bad) == [("a <= c", 1), ("c between 0 and 1", 1)]
