"""The distribution functions behind every interval, against scipy: the 0.975 quantile of
Student's t (``ragmart_student_t_975``: the table of dev/generate/make_student_t_table.py for
df <= 100, the Cornish-Fisher expansion above), the standard normal distribution function
(``ragmart_normal_cdf``: W. J. Cody's rational approximations), and the quantiles at any upper
tail q of the adjusted intervals (``ragmart_normal_upper_quantile``: Wichura's AS 241; the t
quantile from ``ragmart_student_t_start`` and two ``ragmart_student_t_newton_step``), on DuckDB
and, when the tests run with PostgreSQL (RAGMART_ENGINES), on PostgreSQL too.

The macros are compiled once with ``dbt compile --inline`` and the SQL is run on DuckDB over a
table of arguments; PostgreSQL runs the same SQL in the engine comparison (every interval and
p_alpha_below_target of the marts is compared with DuckDB's to 1e-9).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import duckdb
import make_student_t_table  # dev/generate/, on pytest's pythonpath
import pytest
from kit.builds import run_dbt

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent

# Φ twice: with its argument written out at every term, and with y = ragmart_normal_y(x) given as
# a column (how the models call it); after the split, the SQL of that column.
# The t quantile joins int_metrics__t_quantiles as the models do (its table is read from the
# sample build's database).
INLINE = ("select {{ ragmart_student_t_975('df', 'student_t.t_975') }} as t_quantile, "
          "{{ ragmart_normal_cdf('x') }} as phi, "
          "{{ ragmart_normal_cdf('x', 'normal_y') }} as phi_given_y from arguments"
          " left join student_t on arguments.df = student_t.degrees_of_freedom"
          " -- split -- {{ ragmart_normal_y('x') }}")
# The adjusted intervals' t quantile, step by step as run_comparison computes it (each step a
# column of the one before): z, the start, then two Newton steps on the exact tail (for df up to
# 50, refined_df), each from the estimate's x = df/(df + t²) and its tail.
_X = ("cast(refined_df as {{ ragmart_type_double() }}) / (cast(refined_df as {{ ragmart_type_double() }})"
      " + {t} * {t})")
QUANTILE_STEPS = (
    "select df, q, case when df between 1 and 50 then df end as refined_df,"
    " {{ ragmart_normal_quantile_w('q') }} as w from quantile_arguments",
    "select *, {{ ragmart_normal_upper_quantile('q', 'w') }} as z from step_1",
    "select *, {{ ragmart_student_t_start('z', 'df') }} as t_start from step_2",
    "select *, " + _X.replace("{t}", "t_start") + " as start_x from step_3",
    "select *, {{ ragmart_student_t_upper_tail('t_start', 'start_x', 'refined_df') }} as start_tail from step_4",
    "select *, {{ ragmart_student_t_newton_step('t_start', 'start_x', 'start_tail', 'q', 'refined_df') }} as t_first"
    " from step_5",
    "select *, " + _X.replace("{t}", "t_first") + " as first_x from step_6",
    "select *, {{ ragmart_student_t_upper_tail('t_first', 'first_x', 'refined_df') }} as first_tail from step_7",
    "select *, {{ ragmart_student_t_newton_step('t_first', 'first_x', 'first_tail', 'q', 'refined_df') }}"
    " as t_quantile from step_8",
)


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def compiled_parts(builds, tmp_path_factory) -> list[str]:
    """The macros compiled once in a copy of the sample build (which re-uses its parse): INLINE's
    two parts, then the QUANTILE_STEPS."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path_factory.mktemp("intervals"))
    out = run_dbt(project, ["compile", "--quiet", "--inline", " -- split -- ".join((INLINE, *QUANTILE_STEPS))],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    parts = out.stdout.strip().split(" -- split -- ")
    assert len(parts) == 2 + len(QUANTILE_STEPS) and parts[0].startswith("select"), parts[0][:500]
    return parts


@pytest.fixture(scope="module")
def student_t_rows(builds) -> list[tuple]:
    """The rows of int_metrics__t_quantiles as the sample build wrote them."""
    sample = builds.get("sample").check()
    with duckdb.connect(str(sample.db_path), read_only=True) as con:
        return con.execute("select degrees_of_freedom, t_975 from intermediate.int_metrics__t_quantiles"
                           " order by degrees_of_freedom").fetchall()


@pytest.fixture(scope="module")
def compiled_sql(compiled_parts, student_t_rows) -> tuple[str, str, list[tuple]]:
    """The query, the SQL of the normal_y column and the table of t_0.975 it joins."""
    return compiled_parts[0], compiled_parts[1], student_t_rows


def _evaluate(compiled: tuple[str, str, list], dfs: list, xs: list) -> list[tuple]:
    """(t, Φ) per argument; Φ with its argument given as a column must be the very same number."""
    sql, normal_y, student_t = compiled
    con = duckdb.connect()
    con.execute("create table student_t (degrees_of_freedom integer, t_975 double)")
    con.executemany("insert into student_t values (?, ?)", student_t)
    rows = max(len(dfs), len(xs))
    # one statement (lists unnested side by side), not a row-by-row insert
    con.execute("create table cells as select unnest(?)::integer as i, unnest(?)::bigint as df, "
                "unnest(?)::double as x",
                [list(range(rows)), [dfs[i] if i < len(dfs) else None for i in range(rows)],
                 [xs[i] if i < len(xs) else None for i in range(rows)]])
    con.execute(f"create table arguments as select *, {normal_y} as normal_y from cells")
    got = con.execute(sql.replace("from arguments", ", i from arguments") + " order by i").fetchall()
    different = [(p, p_given_y) for _, p, p_given_y, _ in got if p != p_given_y]
    assert not different, f"Φ differs with normal_y given: {different[:5]}"
    return [(t, p) for t, p, _, _ in got]


def test_t_table_is_up_to_date(student_t_rows):
    """The committed table and the unit tests' fixture are what scipy gives
    (dev/generate/make_student_t_table.py --check), and the model built from the table holds
    the same doubles."""
    for path, text in ((make_student_t_table.TARGET, make_student_t_table.table_text()),
                       (make_student_t_table.FIXTURE, make_student_t_table.fixture_text())):
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} differs from scipy's quantiles: run dev/generate/make_student_t_table.py")
    assert student_t_rows == list(enumerate(make_student_t_table.committed_table(), start=1))


def test_t_quantile_matches_scipy(compiled_sql):
    from scipy import stats

    dfs = list(range(1, 5001)) + [10 ** 4, 10 ** 5, 10 ** 6, 10 ** 7, 10 ** 9]
    got = _evaluate(compiled_sql, dfs, [])
    worst = max(abs(t - float(stats.t.ppf(0.975, df))) for (t, _), df in zip(got, dfs))
    assert worst < 1e-12, f"largest difference from scipy {worst:.3g}"
    # the two sides of the switch from the table to the expansion, and known values
    assert got[0][0] == pytest.approx(math.tan(0.475 * math.pi), abs=1e-12)      # df 1
    assert got[1][0] == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025), abs=1e-12)  # df 2
    assert round(got[1][0], 3) == 4.303 and round(got[29][0], 3) == 2.042       # df 2, df 30
    assert abs(got[99][0] - got[100][0]) < 3e-4                                  # df 100, 101
    # null below one degree of freedom and for null
    assert [t for t, _ in _evaluate(compiled_sql, [0, -1, None], [])] == [None, None, None]


def test_normal_cdf_matches_scipy(compiled_sql):
    from scipy.special import ndtr

    xs = [i / 400 for i in range(-16000, 16001)]
    xs += [0.46875 * math.sqrt(2) * s + e for s in (-1, 1) for e in (-1e-12, 0, 1e-12)]
    xs += [4 * math.sqrt(2) * s + e for s in (-1, 1) for e in (-1e-12, 0, 1e-12)]
    xs += [1e-300, -1e-300, 1e-9, -1e-9, 38.0, -38.0, 1e10, -1e10, 1e300, -1e300]
    got = _evaluate(compiled_sql, [], xs)
    worst = max(abs(p - float(ndtr(x))) for (_, p), x in zip(got, xs))
    assert worst < 1e-15, f"largest difference from scipy.special.ndtr {worst:.3g}"
    # relative accuracy in the lower tail (where p_alpha_below_target is small), down to
    # x = -26 * sqrt(2) = -36.77, where the argument is capped (Phi < 1e-295 there)
    tail = [(x, p, float(ndtr(x))) for (_, p), x in zip(got, xs) if -36.7 < x < -1]
    worst = max(tail, key=lambda r: abs(r[1] / r[2] - 1))
    assert abs(worst[1] / worst[2] - 1) < 1e-12, worst
    assert _evaluate(compiled_sql, [], [0.0])[0][1] == 0.5
    assert _evaluate(compiled_sql, [None], [None]) == [(None, None)]


# Upper tails q of the adjusted intervals: alpha/(2m) for alpha 0.1, 0.05, 0.01 and m from 1 to
# 1,000, down to 1e-6, the smallest q the quantile is exact for (docs/rules.md, Run comparison).
TAILS = sorted({alpha / (2 * m) for alpha in (0.1, 0.05, 0.01) for m in (1, 2, 3, 5, 10, 20, 34, 35, 40, 100, 1000)}
               | {0.025, 1e-4, 1e-5, 2e-6, 1e-6})
# every df to 300 (Newton up to 50, the expansion above), then far out
DEGREES = list(range(1, 301)) + [500, 1000, 5000, 10 ** 5, 10 ** 7, 10 ** 9]


def _quantiles(run, steps: list[str], cells: list[tuple]) -> list[tuple]:
    """(df, q, z, t) per cell, the steps run one after the other by `run(sql)`."""
    run("create table quantile_arguments as select * from (values "
        + ", ".join(f"({'null' if df is None else df}, {'null' if q is None else repr(q)})" for df, q in cells)
        + ") as cells (df, q)")
    for i, sql in enumerate(steps, start=1):
        run(f"create table step_{i} as {sql}")
    return run(f"select df, q, z, t_quantile from step_{len(steps)}")


def _check_quantiles(got: list[tuple]) -> None:
    from scipy import stats
    from scipy.special import ndtri

    worst_z = max(abs(z - -float(ndtri(q))) for df, q, z, _t in got if df is not None and q is not None)
    assert worst_z < 1e-13, f"z: largest difference from scipy {worst_z:.3g}"
    worst = max((abs(t - float(stats.t.isf(q, df))), df, q) for df, q, _z, t in got if df is not None and q is not None)
    assert worst[0] < 1e-6, f"t: largest difference from scipy {worst}"
    # where the expansion starts, and below: far closer than promised
    close = max(abs(t - float(stats.t.isf(q, df))) / float(stats.t.isf(q, df))
                for df, q, _z, t in got if df is not None and q is not None and df <= 50)
    assert close < 1e-9, close
    assert [t for df, q, _z, t in got if df is None or q is None] == [None, None]


def _quantile_cells() -> list[tuple]:
    return [(df, q) for df in DEGREES for q in TAILS] + [(None, 0.025), (3, None), (0, 0.025)]


def test_adjusted_t_quantile_matches_scipy_on_duckdb(compiled_parts):
    """Every df to 300 and far beyond, at every upper tail alpha/(2m) the adjusted intervals take."""
    con = duckdb.connect()

    def run(sql):
        return con.execute(sql).fetchall()

    got = _quantiles(run, compiled_parts[2:], _quantile_cells())
    _check_quantiles([r for r in got if r[0] != 0])
    assert [t for df, _q, _z, t in got if df == 0] == [None]
    # known values: Cauchy (df 1) and df 2 in closed form
    by_cell = {(df, q): t for df, q, _z, t in got}
    assert by_cell[(1, 0.025)] == pytest.approx(math.tan(0.475 * math.pi), abs=1e-9)
    assert by_cell[(2, 0.025)] == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025), abs=1e-9)


@pytest.mark.skipif("postgres" not in os.environ.get("RAGMART_ENGINES", ""), reason="PostgreSQL not requested")
def test_adjusted_t_quantile_matches_scipy_on_postgres(compiled_parts, builds, tmp_path_factory):
    """The same SQL compiled for PostgreSQL (its double literals and types) run on the server."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path_factory.mktemp("intervals_postgres"))
    out = run_dbt(project, ["compile", "--quiet", "--target", "postgres", "--inline",
                            " -- split -- ".join(QUANTILE_STEPS)])
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    steps = out.stdout.strip().split(" -- split -- ")
    import psycopg2

    env = os.environ
    with psycopg2.connect(host=env["RAGMART_PG_HOST"], port=int(env["RAGMART_PG_PORT"]),
                          user=env["RAGMART_PG_USER"], password=env["RAGMART_PG_PASSWORD"],
                          dbname=env["RAGMART_PG_DATABASE"]) as con, con.cursor() as cur:
        def run(sql):
            cur.execute(sql.replace("create table", "create temporary table")
                        .replace("select * from (values", "select df, cast(q as double precision) as q from (values"))
            return cur.fetchall() if sql.startswith("select") else None

        cells = [(df, q) for df, q in _quantile_cells() if df != 0]
        got = _quantiles(run, steps, cells)
        con.rollback()
    _check_quantiles([(df, q, float(z) if z is not None else None, float(t) if t is not None else None)
                      for df, q, z, t in got])
