"""``judge_powered_metric_values`` (docs/rules.md, "Judge-powered metrics") against the reference
(reference/judge_powered.py: the record sets L and U and the formulas, exact) and against the
``ppi_py`` package (ppi-python 0.2.3: ``ppi_mean_pointestimate``, ``ppi_mean_ci`` with λ
estimated, the λ of ``_calc_lam_glm`` as ``ppi_mean_ci`` computes it, ``classical_mean_ci`` of the
humans' values and of the judge's on L and U), to
1e-9, on the Y, Ŷ and Ŷ_U of every row of the mart.

Scenarios:

* ``sample``         the project's seeds: judge-only records inside the runs ``bot-v1`` and
                     ``bot-v2`` and the judge-only questions of the run ``default``;
* ``judge_powered``  generate.judge_powered_scenario(): runs with n from 2 to 250 human-labelled
                     records and N from 1 to 2,500 judge-only ones, in the three families, a
                     biased LLM judge, an unbiased noisy one, a useless CODE judge (a coin: λ near
                     0) and a constant one (every value equal: λ = 0), and a run whose humans give
                     two generation labels the same value on every record.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from kit.builds import PROJECT
from kit.compare import differences, fail_on, same_value
from reference import judge_powered as P
from reference import judges as J

TOL = 1e-9
SCENARIOS_USED = ["sample", "judge_powered"]
MART = "judge_powered_metric_values"


def _view(builds, name):
    b = builds.get(name).check()
    table = b.marts.get(MART)
    assert table is not None, f"[{name}] mart {MART} not found in {b.db_path}"
    jr = b.derived("judges reference", lambda: J.compute(
        b.seed_dir, null_mode=b.null_mode or "agate",
        judge_min_kappa=b.vars.get("judge_min_kappa", J.DEFAULT_MIN_KAPPA),
        constraint_policy=b.vars.get("constraint_policy", "reject")))
    return b, table, jr


def _key(row: dict) -> tuple:
    return tuple(int(row[c]) if c == "k" and row[c] is not None else row[c] for c in P.KEY)


@pytest.mark.parametrize("name", SCENARIOS_USED)
def test_mart_equals_reference(builds, name):
    b, (columns, rows), jr = _view(builds, name)
    assert sorted(columns) == sorted(P.COLUMNS), f"[{name}] {MART} columns {columns}"
    assert rows, f"[{name}] {MART} is empty"
    fail_on(differences(P.compute(jr), rows, P.KEY, P.VALUES, tol=TOL), name, MART)


def _ppi_py(y, yhat, yhat_u) -> dict:
    """ppi_py's λ, point estimate and intervals for one row (λ estimated as ppi_mean_ci does;
    where every Ŷ is equal (v̂ = 0) ppi_py's λ is 0/0, not a number or rounding noise, and the
    rule's λ = 0 is passed explicitly), with
    the intervals clipped to [0, 1] as the mart's, and effective_n and width_ratio from the
    unclipped half-widths."""
    from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pointestimate
    from ppi_py.ppi import _calc_lam_glm

    y, yhat, yhat_u = (np.asarray(v, dtype=float) for v in (y, yhat, yhat_u))
    point1 = ppi_mean_pointestimate(y, yhat, yhat_u, lam=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)      # 0 / 0 when v̂ = 0
        lam = float(_calc_lam_glm(y - point1, yhat - point1, yhat_u - point1, np.eye(1), clip=True))
    equal = float(np.min(np.concatenate([yhat, yhat_u]))) == float(np.max(np.concatenate([yhat, yhat_u])))
    given = 0.0 if equal else None
    assert equal or not math.isnan(lam)
    point = float(np.ravel(ppi_mean_pointestimate(y, yhat, yhat_u, lam=given))[0])
    lower, upper = (float(np.ravel(v)[0]) for v in ppi_mean_ci(y, yhat, yhat_u, alpha=0.05, lam=given))
    h_lower, h_upper = (float(v) for v in classical_mean_ci(y, alpha=0.05))
    j_lower, j_upper = (float(v) for v in classical_mean_ci(np.concatenate([yhat, yhat_u]), alpha=0.05))
    se, human_se = (upper - lower) / (2 * P.Z), (h_upper - h_lower) / (2 * P.Z)
    clip = lambda v: min(1.0, max(0.0, v))  # noqa: E731
    return {"lam": lam, "lambda": 0.0 if given is not None else lam, "ppi_value": point,
            "ppi_ci_lower": clip(lower), "ppi_ci_upper": clip(upper), "human_value": float(y.mean()),
            "human_ci_lower": clip(h_lower), "human_ci_upper": clip(h_upper),
            "judge_value": float(np.concatenate([yhat, yhat_u]).mean()),
            "judge_ci_lower": clip(j_lower), "judge_ci_upper": clip(j_upper),
            "effective_n": float(np.var(y)) / se ** 2 if se > 1e-6 else None,
            "width_ratio": se / human_se if se > 1e-6 and human_se > 1e-6 else None}


@pytest.mark.parametrize("name", SCENARIOS_USED)
def test_mart_equals_ppi_python(builds, name):
    """Every row's λ, estimate and both intervals are ppi_py's on the row's record values (and
    effective_n and width_ratio where the standard errors are not nearly 0)."""
    _b, (_columns, rows), jr = _view(builds, name)
    sets = P.record_sets(jr)
    problems = []
    for row in rows:
        key = _key(row)
        s = sets.get(key)
        if s is None:
            problems.append(f"{key}: no such group in the reference")
            continue
        assert (len(s["Y"]), len(s["Yhat_unlabeled"])) == (row["n_labeled"], row["n_unlabeled"]), key
        want = _ppi_py(s["Y"], s["Yhat"], s["Yhat_unlabeled"])
        for column in ("lambda", "ppi_value", "ppi_ci_lower", "ppi_ci_upper", "human_value",
                       "human_ci_lower", "human_ci_upper", "judge_value", "judge_ci_lower",
                       "judge_ci_upper", "effective_n", "width_ratio"):
            if want[column] is None and column in ("effective_n", "width_ratio"):
                continue
            if not same_value(want[column], row[column], TOL):
                problems.append(f"{key} {column}: ppi_py {want[column]!r}, mart {row[column]!r}")
    fail_on(problems, name, f"{MART} against ppi_py")


def test_generated_runs_hold_every_case(builds):
    """The generated scenario has the cases it is built for: n = 2, N = 1, thousands of N, λ = 0
    from a constant judge, λ near 0 for the coin, a strong λ for the noisy judge, humans that
    agree on every record, and a biased judge whose judge-alone value is off where PPI is not."""
    _b, (_columns, rows), _jr = _view(builds, "judge_powered")
    overall = [r for r in rows if r["slice_dimension"] == "overall"]
    sizes = {(r["n_labeled"], r["n_unlabeled"]) for r in overall}
    assert (2, 1) in sizes and any(n >= 10 and big_n == 1 for n, big_n in sizes), sizes
    assert any(n >= 200 and big_n >= 2000 for n, big_n in sizes), sizes
    assert all(r["lambda"] == 0 for r in overall if r["annotator_id"] == "ppi_constant")
    big = {(r["annotator_id"], r["metric"]): r for r in overall if r["run_id"] == "ppi-n250-N2500"}
    assert max(r["lambda"] for (judge, _m), r in big.items() if judge == "ppi_useless") < 0.2
    assert max(r["lambda"] for (judge, _m), r in big.items() if judge == "ppi_noisy") > 0.4
    assert any(r["human_ci_lower"] == r["human_ci_upper"] and r["width_ratio"] is None
               for r in overall if r["run_id"] == "ppi-const")
    assert "conditional_fabrication_rate" not in {r["metric"] for r in rows}
    biased = [r for r in overall if r["annotator_id"] == "ppi_biased" and r["run_id"] == "ppi-n250-N2500"]
    assert all(abs(r["judge_value"] - r["human_value"]) > 2 * abs(r["ppi_value"] - r["human_value"])
               for r in biased if r["metric"] != "unsafe_content_rate"), biased


def test_marts_page_worked_example_is_the_sample(builds):
    """docs/marts.md's worked example (unsupported_claim_rate of bot-v1) shows the sample's rows."""
    _b, (_columns, rows), _jr = _view(builds, "sample")
    page = (PROJECT / "docs" / "marts.md").read_text(encoding="utf-8")
    block = page.split("## Judge-powered metrics", 1)[1].split("```\n", 3)[2].split("```", 1)[0]
    lines = [line.split() for line in block.strip().splitlines()[1:]]
    want = sorted((r for r in rows if r["slice_dimension"] == "overall" and r["run_id"] == "bot-v1"
                   and r["metric"] == "unsupported_claim_rate"), key=lambda r: r["annotator_id"])
    assert len(lines) == len(want)
    for line, r in zip(lines, want):
        assert line[:5] == [r["run_id"], r["annotator_id"], r["metric"], str(r["n_labeled"]), str(r["n_unlabeled"])]
        shown = [float(v) for v in line[5:]]
        assert shown == [round(r[c], 3) for c in ("human_value", "judge_value", "ppi_value", "ppi_ci_lower",
                                                  "ppi_ci_upper", "lambda")] + [round(r["effective_n"], 1)], line


def test_coverage_simulation_of_a_biased_judge():
    """dev/bench/judge_powered_coverage.py on 200 runs of a biased judge (n = 50, N = 500, p = 0.3,
    fixed seed; every 20th run also through ppi_py, to 1e-9): the humans' and the judge-powered 95 %
    intervals cover the true rate in about 95 % of the runs, the judge alone's almost never."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("judge_powered_coverage",
                                                  PROJECT / "dev" / "bench" / "judge_powered_coverage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    r = module.simulate("biased", 200, 50, 500, 0.3, seed=7, check_every=20)
    assert r["checked_with_ppi_py"] == 10
    assert r["coverage_human"] >= 0.9 and r["coverage_ppi"] >= 0.9, r
    assert r["coverage_judge"] <= 0.05, r
    assert r["mean_width_ppi"] < r["mean_width_human"], r
