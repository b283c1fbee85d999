"""The two distribution functions behind every interval, against scipy: the 0.975 quantile of
Student's t (``ragmart_student_t_975``: the table of scripts/make_student_t_table.py for
df <= 100, the Cornish-Fisher expansion above) and the standard normal distribution function
(``ragmart_normal_cdf``: W. J. Cody's rational approximations).

The macros are compiled once with ``dbt compile --inline`` and the SQL is run on DuckDB over a
table of arguments; PostgreSQL runs the same SQL in the engine comparison (every interval and
p_alpha_below_target of the marts is compared with DuckDB's to 1e-9).
"""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import make_student_t_table  # scripts/, on pytest's pythonpath
import pytest
from kit.builds import run_dbt

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent.parent

# Φ twice: with its argument written out at every term, and with y = ragmart_normal_y(x) given as
# a column (how the models call it); after the split, the SQL of that column.
INLINE = ("select {{ ragmart_student_t_975('df') }} as t_quantile, "
          "{{ ragmart_normal_cdf('x') }} as phi, "
          "{{ ragmart_normal_cdf('x', 'normal_y') }} as phi_given_y from arguments"
          " -- split -- {{ ragmart_normal_y('x') }}")


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def compiled_sql(builds, tmp_path_factory) -> tuple[str, str]:
    """The macros compiled in a copy of the sample build (which re-uses its parse): the query and
    the SQL of the normal_y column."""
    sample = builds.get("sample").check()
    project = sample.copy(tmp_path_factory.mktemp("intervals"))
    out = run_dbt(project, ["compile", "--quiet", "--inline", INLINE],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    sql, normal_y = out.stdout.strip().split(" -- split -- ")
    assert sql.startswith("select"), sql[:500]
    return sql, normal_y


def _evaluate(compiled: tuple[str, str], dfs: list, xs: list) -> list[tuple]:
    """(t, Φ) per argument; Φ with its argument given as a column must be the very same number."""
    sql, normal_y = compiled
    con = duckdb.connect()
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


def test_t_table_is_up_to_date():
    """The committed table is what scipy gives (scripts/make_student_t_table.py --check)."""
    path = make_student_t_table.TARGET
    assert path.read_text(encoding="utf-8") == make_student_t_table.table_text(), (
        f"{path} differs from scipy's quantiles: run scripts/make_student_t_table.py")


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
