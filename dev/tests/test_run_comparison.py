"""run_comparison and run_comparison_queries against independent computations.

On the random data set (runs ``default``, ``v1`` and ``v2``, records sharing queries; the
scenario sets ``max_permutation_rows`` so that the overall slices take the normal approximation
and the smaller language slices the permutation test):
* every row and value against reference/comparison.py (to 1e-9; permutation p-values exact);
* the paired differences, intervals (unadjusted, and adjusted at 1 - alpha/m, m the rows with a
  p-value of the row's Holm family) and normal p-values against scipy's ``ttest_rel``;
* Holm against ``statsmodels.stats.multitest.multipletests(method='holm')``;
* the md5 permutation p-values against scipy's ``permutation_test`` with the same statistic
  (random signs of its own), within Monte Carlo error.
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from kit.compare import assert_same_rows
from reference import comparison as C
from scipy import stats
from statsmodels.stats.multitest import multipletests

SCENARIOS_USED = ["random", "sample"]
VALUES = ["n_pairs", "n_baseline_only", "n_candidate_only", "baseline_value", "candidate_value",
          "difference", "difference_ci_lower", "difference_ci_upper", "higher_is_better", "n_wins", "n_ties",
          "n_losses", "p_value", "p_value_method", "p_value_holm", "is_significant", "adjusted_ci_lower",
          "adjusted_ci_upper", "baseline_source"]
QUERY_VALUES = ["query_text", "baseline_record_uuids", "candidate_record_uuids", "baseline_value",
                "candidate_value", "difference", "outcome"]


@pytest.fixture(scope="module")
def random_build(builds):
    return builds.get("random").check()


@pytest.fixture(scope="module")
def expected(random_build):
    b = random_build
    return b.derived("run_comparison", lambda: C.compute(
        b.reference, max_permutation_rows=b.vars["max_permutation_rows"]))


def _rows(build, mart):
    return build.marts[mart][1]


def test_the_random_data_has_what_the_comparison_needs(random_build, expected):
    rows = expected["run_comparison"]
    assert {(r["baseline_run_id"], r["candidate_run_id"]) for r in rows} == {("default", "v1"), ("default", "v2")}
    assert {r["p_value_method"] for r in rows} == {"permutation", "normal"}
    assert any(r["n_baseline_only"] for r in rows) and any(r["n_candidate_only"] for r in rows)
    assert any(r["n_pairs"] >= 20 for r in rows)
    multi = [r for r in expected["run_comparison_queries"] if ";" in (r["baseline_record_uuids"] or "")]
    assert multi, "no query with several records in one run"


@pytest.mark.parametrize("mart,key,values", [
    ("run_comparison", C.RUN_COMPARISON_KEY, VALUES),
    ("run_comparison_queries", C.QUERIES_KEY, QUERY_VALUES),
])
def test_comparison_marts_equal_the_reference(random_build, expected, mart, key, values):
    assert_same_rows("random", mart, key, values, expected[mart], _rows(random_build, mart))


@pytest.fixture(scope="module")
def sample_build(builds):
    return builds.get("sample").check()


@pytest.fixture(scope="module")
def sample_expected(sample_build):
    return sample_build.derived("run_comparison", lambda: C.compute(sample_build.reference))


@pytest.mark.parametrize("mart,key,values", [
    ("run_comparison", C.RUN_COMPARISON_KEY, VALUES),
    ("run_comparison_queries", C.QUERIES_KEY, QUERY_VALUES),
])
def test_sample_comparison_equals_the_reference(sample_build, sample_expected, mart, key, values):
    assert_same_rows("sample", mart, key, values, sample_expected[mart], _rows(sample_build, mart))


def test_readme_worked_example(sample_expected):
    """The worked example of the run comparison (docs/marts.md), recomputed by the reference."""
    rows = {(r["metric"], r["k"]): r for r in sample_expected["run_comparison"]
            if r["slice_dimension"] == "overall" and r["candidate_run_id"] == "bot-v2"}
    assert {(r["baseline_run_id"], r["candidate_run_id"]) for r in sample_expected["run_comparison"]} == {
        ("bot-v1", "bot-v2")}
    readme = (Path(__file__).resolve().parents[2] / "docs" / "marts.md").read_text(encoding="utf-8")
    ndcg = rows[("ndcg", 5)]
    assert (ndcg["n_pairs"], ndcg["n_wins"], ndcg["n_ties"], ndcg["n_losses"], ndcg["n_baseline_only"],
            ndcg["n_candidate_only"]) == (53, 13, 28, 12, 2, 4)
    text = f"NDCG@5 +{ndcg['difference']:.3f} [{ndcg['difference_ci_lower']:.3f}, {ndcg['difference_ci_upper']:.3f}]"
    assert text.replace("[-", "[−") in readme, text
    assert f"p = {ndcg['p_value']:.3f}" in readme and ndcg["p_value_holm"] == 1 and not ndcg["is_significant"]
    misleading = rows[("misleading_context_rate", 5)]
    # lower is better: the 16 queries whose misleading context fell are wins
    assert misleading["is_significant"] and (misleading["n_wins"], misleading["n_losses"]) == (16, 0)
    assert not misleading["higher_is_better"]
    text = (f"@5: {misleading['difference']:.3f} [{misleading['difference_ci_lower']:.3f}, "
            f"{misleading['difference_ci_upper']:.3f}]").replace("-", "−")
    assert text in readme, text
    assert f"p_holm = {misleading['p_value_holm']:.3f}" in readme
    incomplete = rows[("incompleteness_rate", None)]
    # the planned regression: bot-v2 cuts answers short, so incompleteness rises: losses, no win
    assert (incomplete["n_pairs"], incomplete["n_wins"], incomplete["n_losses"]) == (54, 0, 3)
    text = (f"`incompleteness_rate` +{incomplete['difference']:.3f} [{incomplete['difference_ci_lower']:.3f}, "
            f"{incomplete['difference_ci_upper']:.3f}]").replace("[-", "[−")
    assert text in readme and incomplete["p_value_holm"] == 1, text
    mrr = rows[("mrr", 1)]
    assert f"(p_holm = {mrr['p_value_holm']:.3f})" in readme and not mrr["is_significant"]
    # the adjusted interval agrees with the verdict (docs/marts.md, docs/reading.md, docs/rules.md)
    text = f"[{mrr['adjusted_ci_lower']:.3f}, {mrr['adjusted_ci_upper']:.3f}] holds 0".replace("-", "−")
    assert mrr["adjusted_ci_lower"] < 0 < mrr["adjusted_ci_upper"] and text in readme, text
    docs = Path(__file__).resolve().parents[2] / "docs"
    reading = " ".join((docs / "reading.md").read_text(encoding="utf-8").split())
    text = (f"misleading_context_rate@5: {misleading['difference']:.3f} [{misleading['adjusted_ci_lower']:.3f}, "
            f"{misleading['adjusted_ci_upper']:.3f}] adjusted, p_holm {misleading['p_value_holm']:.3f}").replace("-", "−")
    assert text in reading, text
    every = sample_expected["run_comparison"]

    def contradicts(r, lower, upper):
        return r[lower] is not None and (r[lower] > 0 or r[upper] < 0) and not r["is_significant"]
    counts = (sum(contradicts(r, "difference_ci_lower", "difference_ci_upper") for r in every), len(every),
              sum(contradicts(r, "adjusted_ci_lower", "adjusted_ci_upper") for r in every))
    rules = " ".join((docs / "rules.md").read_text(encoding="utf-8").split())
    assert (f"{counts[0]} of the {counts[1]} rows have an unadjusted interval that excludes 0 beside \"not"
            f" significant\"; with the adjusted interval {counts[2]} do") in rules, counts
    # Holm's correction runs over every metric of the comparison and slice: the page says so without a
    # count, which a new measure would change
    flat = " ".join(readme.split())
    assert "Holm's correction over all the metrics of the comparison" in flat and "with every measure at every K" in flat
    losses = sorted((q for q in sample_expected["run_comparison_queries"]
                     if q["metric"] == "ndcg" and q["k"] == 5 and q["outcome"] == "loss"), key=lambda q: q["difference"])
    assert len(losses) == 12 and sum(1 for q in losses if round(q["difference"], 3) == -0.203) == 7
    for q in losses[:7]:
        assert round(q["baseline_value"], 3) == 1.0 and round(q["candidate_value"], 3) == 0.797


def test_reading_bi_example(sample_build):
    """The numbers of the BI example of docs/reading.md, computed by the reference."""
    reading = " ".join((Path(__file__).resolve().parents[2] / "docs" / "reading.md").read_text(encoding="utf-8").split())
    rows = {r["metric"]: r for r in sample_build.reference.marts["metric_values"] if r["run_id"] == "bot-v1"
            and r["family"] == "retrieval" and r["slice_dimension"] == "overall" and r["k"] == 5}
    ndcg, hit = rows["ndcg"], rows["sufficiency_hit"]
    text = (f"`ndcg` {ndcg['value']:.3f} ({ndcg['ci_lower']:.3f} to {ndcg['ci_upper']:.3f}) and `sufficiency_hit` "
            f"{hit['value']:.3f} ({hit['ci_lower']:.3f} to {hit['ci_upper']:.3f}) over the {ndcg['n_units']} records")
    assert text in reading, text


def _pairs_by_row(build) -> dict[tuple, list[dict]]:
    """The overall slice's rows of run_comparison_queries grouped by comparison and measure."""
    out = defaultdict(list)
    for q in _rows(build, "run_comparison_queries"):
        out[(q["baseline_run_id"], q["candidate_run_id"], q["family"], q["metric"], q["k"])].append(q)
    return out


def test_differences_intervals_and_normal_p_against_scipy(random_build):
    pairs = _pairs_by_row(random_build)
    holm_family = defaultdict(int)   # the rows with a p-value of each comparison and slice
    for r in _rows(random_build, "run_comparison"):
        holm_family[(r["baseline_run_id"], r["candidate_run_id"], r["slice_dimension"], r["slice_value"])] += (
            r["p_value"] is not None)
    checked = 0
    for r in _rows(random_build, "run_comparison"):
        if r["slice_dimension"] != "overall" or r["n_pairs"] < 3:
            continue
        qs = pairs[(r["baseline_run_id"], r["candidate_run_id"], r["family"], r["metric"], r["k"])]
        cand = np.array([q["candidate_value"] for q in qs])
        base = np.array([q["baseline_value"] for q in qs])
        assert len(qs) == r["n_pairs"]
        d = cand - base
        assert r["difference"] == pytest.approx(d.mean(), abs=1e-12)
        if np.all(np.abs(d) <= 1e-12):
            assert r["p_value"] == 1.0
            continue
        test = stats.ttest_rel(cand, base)
        interval = test.confidence_interval(0.95)
        assert (r["difference_ci_lower"], r["difference_ci_upper"]) == pytest.approx(
            (interval.low, interval.high), abs=1e-9)
        # adjusted as the verdict is: Bonferroni's confidence level 1 - alpha/m over the Holm family
        m = holm_family[(r["baseline_run_id"], r["candidate_run_id"], r["slice_dimension"], r["slice_value"])]
        adjusted = test.confidence_interval(1 - 0.05 / m)
        assert (r["adjusted_ci_lower"], r["adjusted_ci_upper"]) == pytest.approx(
            (adjusted.low, adjusted.high), abs=1e-9)
        if r["p_value_method"] == "normal":
            z = d.mean() / (d.std(ddof=1) / math.sqrt(len(d)))
            assert r["p_value"] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=1e-12)
        checked += 1
    assert checked >= 20


def test_holm_equals_statsmodels(random_build):
    families = defaultdict(list)
    for r in _rows(random_build, "run_comparison"):
        if r["p_value"] is not None:
            families[(r["baseline_run_id"], r["candidate_run_id"], r["slice_dimension"], r["slice_value"])].append(r)
    assert len(families) >= 4
    for group in families.values():
        reject, adjusted, _s, _b = multipletests([r["p_value"] for r in group], alpha=0.05, method="holm")
        assert [r["p_value_holm"] for r in group] == pytest.approx(list(adjusted), abs=1e-15)
        assert [r["is_significant"] for r in group] == [bool(x) for x in reject]


def _abs_sum(x, axis):
    """|Σ d| rounded to 1e-12, as the rules' tie tolerance: sums of one size in another order are equal."""
    return np.round(np.abs(np.sum(x, axis=axis)), 12)


def test_permutation_p_against_scipy_permutation_test(random_build):
    """scipy's sign-flip test (its own random signs, 20,000 resamples) agrees with the md5 signs
    within Monte Carlo error: both estimate the same exact p."""
    by_slice = defaultdict(list)
    for q in _rows(random_build, "run_comparison_queries"):
        by_slice[(q["baseline_run_id"], q["candidate_run_id"], q["family"], q["metric"], q["k"])].append(q)
    key_values = C.key_values(random_build.reference)
    checked = 0
    rng = np.random.default_rng(7)
    for r in _rows(random_build, "run_comparison"):
        if r["p_value_method"] != "permutation" or r["n_pairs"] < 8 or r["n_ties"] == r["n_pairs"]:
            continue
        qs = by_slice[(r["baseline_run_id"], r["candidate_run_id"], r["family"], r["metric"], r["k"])]
        if r["slice_dimension"] == "language":
            qs = [q for q in qs if key_values[(q["baseline_run_id"], q["family"], q["metric"], q["k"],
                                               q["pairing_key"])]["language"] == r["slice_value"]]
        d = np.array([q["difference"] for q in qs])
        assert len(d) == r["n_pairs"]
        result = stats.permutation_test((d,), _abs_sum, permutation_type="samples", vectorized=True,
                                        n_resamples=20000, alternative="greater", random_state=rng)
        # both are estimates of one exact p from 10,000 and 20,000 draws: 5 standard errors apart at most
        se = math.sqrt(max(result.pvalue * (1 - result.pvalue), 1e-4) * (1 / 10000 + 1 / 20000))
        assert abs(r["p_value"] - result.pvalue) <= 5 * se + 2e-4, (r, result.pvalue)
        checked += 1
    assert checked >= 10
