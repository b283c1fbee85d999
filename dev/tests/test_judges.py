"""The judge marts (docs/rules.md, "Judges") against an independent
reference (reference/judges.py): ``judge_agreement`` (all columns, the new prevalences and
alphas included), ``judge_weights``, ``judge_metric_values`` and the ``metric_values`` rows of
``slice_dimension = 'label_source'``; cross-checks against the direct 2x2-table formulas,
scikit-learn (kappa, precision, recall, F1) and the krippendorff package (both alphas); cases
worked out by hand; and the property that judges change no human metric (the sample seeds
built with and without their LLM / CODE rows).

Scenarios, built once for this module by three ``dbt build`` subprocesses (only the marts
read and their parents, no data/unit tests); the last two start from the first's
partial-parse file, and the three then run in parallel (as in test_protocol.py):

* ``sample``  the project's own seeds (records.csv and the LLM judge ``llm.judge-gpt4o``
              included), copied at build time;
* ``sample_nojudges`` the same seeds without any row of an LLM / CODE annotator (only for
              test_judges_do_not_change_human_metrics);
* ``judges``  generate.judges_scenario(), built with
              ``--vars '{judge_min_kappa: 0.3, constraint_policy: repair}'``: the generated
              scenario (1-4 voters, adjudications, ties, every routing rule, its noisy
              ``llm_judge`` / ``rule_judge``) plus an always-right LLM judge with role
              adjudicator, an always-1 CODE judge (p_e = 1), an always-0 LLM judge (tier_a
              only in generation), an always-wrong CODE adjudicator, superseded and rejected
              judge rows, judge rows without any human row, and hand-made records whose
              expected rows are written out below (HAND_EXPECTED); a good (LLM) and a weak
              (CODE) within-bounds judge, judge-only records in the three families, and the
              hand-made weighted-vote cases (HAND_WEIGHTS, HAND_VOTES, HAND_JMV,
              HAND_NEW_COLUMNS).

Numbers are compared to 1e-9 (absolute and relative); nulls must match nulls; the key sets
(judge_agreement: annotator_id, task, label, tier; judge_weights: annotator_id, task;
judge_metric_values: annotator_id, family, metric, k; metric_values: family, metric, k,
slice_dimension, slice_value) must be the same.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import generate as G
import pytest
import reference as R
from kit.builds import PROJECT, SEED_FILES, project_seed_csvs
from kit.compare import assert_has_columns, differences, fail_on, same_value, value_differences
from reference import agreement as A
from reference import judges as J

TOL = 1e-9
SCENARIOS = ["sample", "judges"]
MART = "judge_agreement"


# =========================================================================== builds

# the public marts of the human labels, which the judges must not change
HUMAN_MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values",
               "rejected_annotations", "annotator_agreement", "annotator_pair_agreement",
               "annotator_quality", "labeling_protocol", "labeling_drift", "run_comparison",
               "run_comparison_queries"]
JUDGE_MARTS = [MART, "judge_weights", "judge_metric_values"]
# the human marts with language slices (docs/rules.md, Agreement where it is tracked)
AGREEMENT_KEYS = {"task", "label", "tier", "annotator_a", "annotator_b", "slice_dimension", "slice_value"}
AGREEMENT_SLICED_MARTS = {"annotator_agreement": A.AGREEMENT_COLUMNS, "annotator_pair_agreement": A.PAIR_COLUMNS}


SCENARIOS_USED = ["sample", "judges", "sample_nojudges"]
_JR: dict[tuple, J.JudgeReference] = {}


def jcompute(seed_dir: Path, **kwargs) -> J.JudgeReference:
    """reference.judges.compute, once per seed files' contents and arguments."""
    digest = hashlib.sha256()
    for path in sorted(Path(seed_dir).glob("*.csv")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    key = (digest.hexdigest(), tuple(sorted(kwargs.items())))
    if key not in _JR:
        _JR[key] = J.compute(seed_dir, **kwargs)
    return _JR[key]


class JudgeView:
    """A built scenario with its judge reference (``jr``) and the judge mart at hand."""

    def __init__(self, build):
        self.build = build

    def __getattr__(self, name):
        return getattr(self.build, name)

    @property
    def mart(self) -> tuple[list[str], list[dict]] | None:
        return (self.marts or {}).get(MART)

    def table(self, name: str) -> tuple[list[str], list[dict]] | None:
        return (self.marts or {}).get(name)

    @property
    def jr(self) -> J.JudgeReference:
        return jcompute(self.seed_dir, null_mode=self.null_mode or "agate",
                        judge_min_kappa=self.vars.get("judge_min_kappa", J.DEFAULT_MIN_KAPPA),
                        judge_bound=self.vars.get("judge_bound", J.DEFAULT_JUDGE_BOUND),
                        constraint_policy=self.vars.get("constraint_policy", "reject"))


def _built(builds, name, marts=(MART,)) -> JudgeView:
    b = JudgeView(builds.get(name).check())
    for m in marts:
        assert b.table(m) is not None, f"[{name}] mart {m} not found in {b.db_path}"
    return b


def _key(r: dict, key_cols) -> tuple:
    return tuple(None if r.get(c) is None else
                 (int(r[c]) if c == "k" and not isinstance(r[c], str) else r[c])
                 for c in key_cols)


# =========================================================================== direct formulas

def direct_kappa(a: int, b: int, c: int, d: int):
    """Cohen's kappa from the 2x2 table (a = tp, b = fp, c = fn, d = tn):
    2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d)); None when the denominator is 0 (p_e = 1)."""
    den = (a + b) * (b + d) + (a + c) * (c + d)
    return None if den == 0 else 2 * (a * d - b * c) / den


def direct_measures(tp: int, fp: int, fn: int, tn: int) -> dict:
    """Floats straight from the counts (no shared code with reference.judges)."""
    n = tp + fp + fn + tn
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = None if precision is None or recall is None or precision + recall == 0 \
        else 2 * precision * recall / (precision + recall)
    return {"n_units": n, "accuracy": (tp + tn) / n, "cohen_kappa": direct_kappa(tp, fp, fn, tn),
            "precision": precision, "recall": recall, "f1": f1}


# =========================================================================== hand-computed

# (tp, fp, fn, tn) -> every measure, worked out by hand.
#   p_o = (tp+tn)/n, pJ1 = (tp+fp)/n, pC1 = (tp+fn)/n, p_e = pJ1 pC1 + pJ0 pC0
HAND_TABLES = [
    # n 5: p_o 3/5, pJ1 = pC1 = 2/5, p_e = 4/25 + 9/25 = 13/25, kappa = (2/25)/(12/25) = 1/6
    ((1, 1, 1, 2), {"accuracy": Fraction(3, 5), "cohen_kappa": Fraction(1, 6),
                    "precision": Fraction(1, 2), "recall": Fraction(1, 2), "f1": Fraction(1, 2)}),
    # n 3: p_o 2/3, pJ1 2/3, pC1 1/3, p_e = 2/9 + 2/9 = 4/9, kappa = (2/9)/(5/9) = 2/5;
    # f1 = 2 * 1/2 * 1 / (3/2) = 2/3
    ((1, 1, 0, 1), {"accuracy": Fraction(2, 3), "cohen_kappa": Fraction(2, 5),
                    "precision": Fraction(1, 2), "recall": Fraction(1), "f1": Fraction(2, 3)}),
    # all agree on 1: p_e = 1 -> kappa null; precision = recall = f1 = 1
    ((4, 0, 0, 0), {"accuracy": 1, "cohen_kappa": None, "precision": 1, "recall": 1, "f1": 1}),
    # all agree on 0: kappa null, precision null (tp+fp = 0), recall null (tp+fn = 0), f1 null
    ((0, 0, 0, 4), {"accuracy": 1, "cohen_kappa": None, "precision": None, "recall": None,
                    "f1": None}),
    # always 1 against a mixed consensus: pJ1 = 1 -> p_e = pC1 = 2/3 = p_o -> kappa 0
    ((2, 1, 0, 0), {"accuracy": Fraction(2, 3), "cohen_kappa": 0, "precision": Fraction(2, 3),
                    "recall": 1, "f1": Fraction(4, 5)}),
    # always wrong, balanced: p_o 0, p_e 1/2 -> -1; precision = recall = 0 -> f1 null
    ((0, 2, 2, 0), {"accuracy": 0, "cohen_kappa": -1, "precision": 0, "recall": 0, "f1": None}),
    # one false positive among negatives: pJ1 1/6, pC1 0 -> p_e = 5/6 = p_o -> 0;
    # precision 0/1 = 0, recall null -> f1 null
    ((0, 1, 0, 5), {"accuracy": Fraction(5, 6), "cohen_kappa": 0, "precision": 0,
                    "recall": None, "f1": None}),
    # single missed positive: pJ1 0, pC1 1 -> p_e = 0 -> kappa = (0 - 0)/1 = 0
    ((0, 0, 1, 0), {"accuracy": 0, "cohen_kappa": 0, "precision": None, "recall": 0,
                    "f1": None}),
    # 5 tp, 1 fn: p_e = 5/6 * 1 = 5/6 = p_o -> 0; recall 5/6, f1 = (10/6)/(11/6) = 10/11
    ((5, 0, 1, 0), {"accuracy": Fraction(5, 6), "cohen_kappa": 0, "precision": 1,
                    "recall": Fraction(5, 6), "f1": Fraction(10, 11)}),
]


@pytest.mark.parametrize("table,want", HAND_TABLES)
def test_hand_tables(table, want):
    tp, fp, fn, tn = table
    pairs = [(1, 1)] * tp + [(1, 0)] * fp + [(0, 1)] * fn + [(0, 0)] * tn
    s = J.confusion_stats(pairs)
    assert (s["tp"], s["fp"], s["fn"], s["tn"], s["n_units"]) == (tp, fp, fn, tn, len(pairs))
    d = direct_measures(tp, fp, fn, tn)
    for c, v in want.items():
        assert s[c] == v, (c, s[c], v)
        assert same_value(d[c], None if v is None else float(v)), (c, d[c], v)
    assert J.confusion_stats([]) is None


def test_sklearn_kappa_on_hand_tables():
    sk = pytest.importorskip("sklearn.metrics")
    for (tp, fp, fn, tn), want in HAND_TABLES:
        if want["cohen_kappa"] is None:
            continue
        judge = [1] * tp + [1] * fp + [0] * fn + [0] * tn
        truth = [1] * tp + [0] * fp + [1] * fn + [0] * tn
        got = sk.cohen_kappa_score(judge, truth, labels=[0, 1])
        assert got == pytest.approx(float(want["cohen_kappa"]), abs=TOL)


# The hand-made records of generate.judges_scenario (generate.HAND_*).  Generation,
# consensus on helpful: hand-r1 1 (unanimous, 2 voters -> tier_b), hand-r2 tied (2 voters,
# tier_b; excluded for helpful only), hand-r3 0 (adjudicated by adj1; tier_b), hand-r4 0 and
# hand-r5 1 (one voter, absent from records -> tier_a), hand-r7 0 (explicit tier_b), hand-r8 1
# (the judge's latest row is rejected -> no accepted row), hand-r6 judges only (no unit).
# Other labels: every human says proper_action 1, response_on_topic 1, incomplete 0,
# unsafe_content 0.
# hand_llm (LLM): helpful r1 1 TP, r3 1 FP, r4 0 TN, r5 0 FN (older row 1 superseded), r7 0 TN;
#   response_on_topic 0 on r1 (FN), incomplete 1 on r4 (FP).
# hand_code (CODE, role adjudicator, latest rows): helpful r1 0 FN, r2 1 (would break the tie
#   if it were an adjudicator), r3 1 FP (would overrule adj1), r4 1 FP, r5 0 FN; no row on r7.
# Grounding hand-r4 (a1 alone, tier_a): hand_llm misses support_present (FN).
_NULL3 = (None, None, None)
HAND_EXPECTED = {
    # key: (n, tp, fp, fn, tn, accuracy, kappa, precision, recall, f1)
    ("hand_llm", "generation", "helpful", "all"): (5, 1, 1, 1, 2, 3 / 5, 1 / 6, .5, .5, .5),
    ("hand_llm", "generation", "helpful", "tier_b"): (3, 1, 1, 0, 1, 2 / 3, 2 / 5, .5, 1., 2 / 3),
    ("hand_llm", "generation", "proper_action", "all"): (6, 6, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_llm", "generation", "proper_action", "tier_b"): (4, 4, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_llm", "generation", "response_on_topic", "all"):
        (6, 5, 0, 1, 0, 5 / 6, 0., 1., 5 / 6, 10 / 11),
    ("hand_llm", "generation", "response_on_topic", "tier_b"):
        (4, 3, 0, 1, 0, 3 / 4, 0., 1., 3 / 4, 6 / 7),
    ("hand_llm", "generation", "incomplete", "all"): (6, 0, 1, 0, 5, 5 / 6, 0., 0., None, None),
    ("hand_llm", "generation", "incomplete", "tier_b"): (4, 0, 0, 0, 4, 1., None) + _NULL3,
    ("hand_llm", "generation", "unsafe_content", "all"): (6, 0, 0, 0, 6, 1., None) + _NULL3,
    ("hand_llm", "generation", "unsafe_content", "tier_b"): (4, 0, 0, 0, 4, 1., None) + _NULL3,
    ("hand_llm", "grounding", "support_present", "all"): (1, 0, 0, 1, 0, 0., 0., None, 0., None),
    ("hand_llm", "grounding", "unsupported_claim_present", "all"):
        (1, 0, 0, 0, 1, 1., None) + _NULL3,
    ("hand_llm", "grounding", "contradicted_claim_present", "all"):
        (1, 0, 0, 0, 1, 1., None) + _NULL3,
    ("hand_llm", "grounding", "source_cited", "all"): (1, 1, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_llm", "grounding", "fabricated_source", "all"): (1, 0, 0, 0, 1, 1., None) + _NULL3,
    ("hand_code", "generation", "helpful", "all"): (4, 0, 2, 2, 0, 0., -1., 0., 0., None),
    ("hand_code", "generation", "helpful", "tier_b"): (2, 0, 1, 1, 0, 0., -1., 0., 0., None),
    ("hand_code", "generation", "proper_action", "all"): (5, 5, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_code", "generation", "proper_action", "tier_b"): (3, 3, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_code", "generation", "response_on_topic", "all"):
        (5, 5, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_code", "generation", "response_on_topic", "tier_b"):
        (3, 3, 0, 0, 0, 1., None, 1., 1., 1.),
    ("hand_code", "generation", "incomplete", "all"): (5, 0, 0, 0, 5, 1., None) + _NULL3,
    ("hand_code", "generation", "incomplete", "tier_b"): (3, 0, 0, 0, 3, 1., None) + _NULL3,
    ("hand_code", "generation", "unsafe_content", "all"): (5, 0, 0, 0, 5, 1., None) + _NULL3,
    ("hand_code", "generation", "unsafe_content", "tier_b"): (3, 0, 0, 0, 3, 1., None) + _NULL3,
}


def _check_hand(rows: dict, source: str) -> list[str]:
    problems = []
    hand = {k: r for k, r in rows.items() if k[0] in ("hand_llm", "hand_code")}
    for k in sorted(set(hand) ^ set(HAND_EXPECTED), key=str):
        problems.append(f"{source}: {'missing' if k in HAND_EXPECTED else 'unexpected'} row {k}")
    for k in sorted(set(hand) & set(HAND_EXPECTED), key=str):
        problems += value_differences((source, k), dict(zip(J.JUDGE_VALUES, HAND_EXPECTED[k])), hand[k], "by hand")
    return problems


def test_reference_by_hand(judges_seed_dir):
    """The reference on the generated judges scenario reproduces the hand-made rows (no dbt),
    and the hand-made expectations agree with the direct formulas."""
    for k, v in HAND_EXPECTED.items():
        d = direct_measures(*v[1:5])
        for c in ("n_units", "accuracy", "cohen_kappa", "precision", "recall", "f1"):
            assert same_value(d[c], v[J.JUDGE_VALUES.index(c)]), (k, c, d[c])
    jr = jcompute(judges_seed_dir)
    problems = _check_hand(jr.by_key(), "reference")
    assert not problems, "\n".join(problems)


# =========================================================================== mart tests

@pytest.mark.parametrize("name", SCENARIOS)
def test_build_and_columns(builds, name):
    b = _built(builds, name)
    assert b.loader_problem is None, f"[{name}] {b.loader_problem}"
    for mart, cols in ((MART, J.JUDGE_COLUMNS), ("judge_weights", J.WEIGHTS_COLUMNS),
                       ("judge_metric_values", J.JMV_COLUMNS),
                       ("metric_values", J.MV_KEY + J.MV_VALUES)):
        assert_has_columns(name, mart, b.table(mart), cols)


@pytest.mark.parametrize("name", SCENARIOS)
def test_reference_is_unambiguous(builds, name):
    b = _built(builds, name)
    assert b.jr.ambiguities == [], b.jr.ambiguities


@pytest.mark.parametrize("name", SCENARIOS)
def test_judge_agreement(builds, name):
    b = _built(builds, name)
    fail_on(differences(b.jr.rows, b.mart[1], J.JUDGE_KEY, J.JUDGE_VALUES), name, MART)


def test_judge_agreement_hand_rows(builds):
    b = _built(builds, "judges")
    rows = {tuple(r.get(c) for c in J.JUDGE_OVERALL_KEY): r for r in b.mart[1]
            if r["slice_dimension"] == "overall"}
    problems = _check_hand(rows, "mart")
    assert not problems, "[judges] " + "\n  ".join(problems)


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_direct(builds, name):
    """Every reference row against the 2x2 table of its (judge, consensus) pairs, counted here
    again, and every mart row against the direct formulas applied to its own counts (and to
    the reference's pairs), kappa also against sklearn when it is installed."""
    b = _built(builds, name)
    try:
        from sklearn.metrics import cohen_kappa_score
    except ImportError:
        cohen_kappa_score = None
    mart = {tuple(r.get(c) for c in J.JUDGE_KEY): r for r in b.mart[1]}
    problems = []
    for row in b.jr.rows:
        key = tuple(row[c] for c in J.JUDGE_KEY)
        pairs = [(j, c) for _, j, c in b.jr.pairs[key]]
        table = Counter(pairs)
        want = dict(tp=table[(1, 1)], fp=table[(1, 0)], fn=table[(0, 1)], tn=table[(0, 0)])
        want.update(direct_measures(want["tp"], want["fp"], want["fn"], want["tn"]))
        if cohen_kappa_score is not None and want["cohen_kappa"] is not None:
            sk = float(cohen_kappa_score([j for j, _ in pairs], [c for _, c in pairs],
                                         labels=[0, 1]))
            if not same_value(sk, want["cohen_kappa"]):
                problems.append(f"sklearn {key}: {sk} vs 2x2 closed form {want['cohen_kappa']}")
        problems += value_differences(("reference", key), want, row, "direct")
        problems += value_differences(("mart", key), want, mart.get(key), "direct")
    for key, got in mart.items():
        counts = [got.get(c) for c in ("tp", "fp", "fn", "tn")]
        if any(v is None for v in counts):
            problems.append(f"mart {key}: null count {counts}")
            continue
        problems += value_differences(("mart", key), direct_measures(*(int(v) for v in counts)), got,
                                      "from its own counts")
    fail_on(problems, name, "judge_agreement against the direct formulas")


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_kappa_jackknife(builds, name):
    """kappa_ci_lower / kappa_ci_upper of every mart row against a leave-one-record-out
    recomputation: the 2x2 table of the pairs of every other record, kappa by the direct
    formula, SE = sqrt((G' - 1)/G' sum (k - mean)^2), t from scipy.stats.t, clipped to [-1, 1]."""
    from scipy import stats

    b = _built(builds, name)
    problems = []
    for got in b.mart[1]:
        key = tuple(got.get(c) for c in J.JUDGE_KEY)
        triples = b.jr.pairs[key]
        kappas = []
        for rec in sorted({unit[0] for unit, _, _ in triples}):
            table = Counter((j, c) for unit, j, c in triples if unit[0] != rec)
            kappas.append(direct_measures(table[(1, 1)], table[(1, 0)], table[(0, 1)],
                                          table[(0, 0)])["cohen_kappa"] if table else None)
        values = [k for k in kappas if k is not None]
        g = len(values)
        lo = hi = None
        if got["cohen_kappa"] is not None and g >= 2:
            mean = sum(values) / g
            se = 0.0 if max(values) == min(values) else math.sqrt(
                (g - 1) / g * sum((k - mean) ** 2 for k in values))
            t = float(stats.t.ppf(0.975, g - 1))
            kappa = direct_measures(got["tp"], got["fp"], got["fn"], got["tn"])["cohen_kappa"]
            lo, hi = max(-1.0, kappa - t * se), min(1.0, kappa + t * se)
        problems += value_differences(key, {"kappa_ci_lower": lo, "kappa_ci_upper": hi}, got, "leave-one-out",
                                      "mart")
    fail_on(problems, name, "judge_agreement intervals against a leave-one-record-out recomputation")


# =========================================================================== scenario coverage

def test_sample_has_judges(builds):
    b = _built(builds, "sample")
    judges = {k[0] for k in b.jr.by_key()}
    assert "llm.judge-gpt4o" in judges, judges
    assert {k[3] for k in b.jr.by_key()} == {"all", "tier_b"}


def test_generated_scenario_covers_the_cases(builds):
    """The judges scenario really exercises what the comparisons are meant to cover."""
    b = _built(builds, "judges")
    jr = b.jr
    rows = jr.by_key()
    by_judge = defaultdict(list)
    for k, r in rows.items():
        by_judge[k[0]].append(r)
    kinds_roles = {jr.judges[j] for j in by_judge}
    assert {("LLM", "annotator"), ("LLM", "adjudicator"), ("CODE", "annotator"),
            ("CODE", "adjudicator")} <= kinds_roles, kinds_roles
    # always right: accuracy 1, kappa 1 or null (p_e = 1); in every family and both tiers
    oracle = by_judge["judge_oracle"]
    assert {(r["task"], r["tier"]) for r in oracle} == \
        {(t, tier) for t in R.TASKS for tier in J.JUDGE_TIERS}
    assert all(r["accuracy"] == 1.0 and r["cohen_kappa"] in (1.0, None) for r in oracle)
    assert any(r["cohen_kappa"] == 1.0 for r in oracle)
    # always 1: p_e = 1 on proper_action (consensus all 1), kappa 0 on mixed labels;
    # its retrieval rows are rejected (sufficient and misleading), so no retrieval row
    ones = {(r["task"], r["label"], r["tier"]): r for r in by_judge["judge_ones"]}
    assert ones[("generation", "proper_action", "all")]["cohen_kappa"] is None
    assert ones[("generation", "proper_action", "all")]["n_units"] >= 10
    assert any(r["cohen_kappa"] == 0.0 for r in ones.values())
    assert all(r["fn"] == 0 and r["tn"] == 0 for r in ones.values())
    assert not any(t == "retrieval" for t, _, _ in ones)
    # always 0: precision and f1 always null; no tier_b row in generation
    zeros = by_judge["judge_zeros"]
    assert all(r["precision"] is None and r["f1"] is None for r in zeros)
    assert {(r["task"], r["tier"]) for r in zeros if r["task"] == "generation"} == \
        {("generation", "all")}
    assert any(r["tier"] == "tier_b" for r in zeros)
    # always wrong (CODE, role adjudicator, later than every human adjudicator)
    contra = by_judge["judge_contra"]
    assert contra and all(r["accuracy"] == 0.0 and r["f1"] is None for r in contra)
    assert any(r["cohen_kappa"] is not None and r["cohen_kappa"] < 0 for r in contra)
    # per-label resolution: a judge whose n_units differs between labels of one task and tier
    n_by = defaultdict(set)
    for (j, t, _label, tier), r in rows.items():
        n_by[(j, t, tier)].add(r["n_units"])
    assert sum(len(v) > 1 for v in n_by.values()) >= 5
    # noisy judges give every kind of kappa and every null rule of precision / recall / f1
    assert any(r["cohen_kappa"] is not None and 0 < r["cohen_kappa"] < 1 for r in rows.values())
    assert any(r["precision"] is None for r in rows.values())
    assert any(r["recall"] is None and r["precision"] is not None for r in rows.values())
    assert any(r["precision"] == 0 and r["recall"] == 0 for r in rows.values())
    # accepted judge rows that do not count (no human row) or not for every label (a tie)
    for task in R.TASKS:
        units = jr.ref.units[task]
        excluded = [(j, u) for j, by_unit in jr.judge_rows[task].items() for u in by_unit
                    if u not in units or units[u]["resolved"] is False]
        assert excluded, task
    assert "judge-only-record" not in {u[0] for j in jr.judge_rows["generation"].values()
                                       for u in j if u in jr.ref.units["generation"]}
    # rejected and superseded judge rows
    statuses = Counter(r.status for t in R.TASKS for r in jr.ref.rows[t]
                       if r.annotator_id in jr.judges)
    assert statuses["rejected"] > 10 and statuses["superseded"] > 5, statuses


# =========================================================================== new judge columns

# judge_agreement's new columns on hand-made rows (see the comment above HAND_EXPECTED and
# generate.VOTE_*), worked out with the alpha formula of docs/rules.md
#   alpha = 1 - (n - 1) * sum_u [sum_{c != k} n_uc n_uk / (m_u - 1)] / sum_{c != k} n_c n_k.
# hand_llm / helpful / all: U = r1 r3 r4 r5 r7; votes r1 [1 1], r3 [1 0] (r4 r5 r7: one vote);
#   humans: n 4, n_1 3, n_0 1, den 2*3*1 = 6, num (r3) 2 -> 1 - 3*2/6 = 0;
#   + judge (1 1 0 0 0): r1 [1 1 1], r3 [1 0 1], r4 [0 0], r5 [1 0], r7 [0 0]: n 12, n_1 6,
#   den 72, num r3 2*2*1/2 = 2 + r5 2 = 4 -> 1 - 11*4/72 = 7/18.
#   prevalences: consensus 1 on r1 r5 -> 2/5; judge 1 on r1 r3 -> 2/5.
# hand_llm / helpful / tier_b: U = r1 r3 r7: humans 0 (as above); + judge: r1 [1 1 1],
#   r3 [1 0 1], r7 [0 0]: n 8, n_1 5, den 30, num 2 -> 1 - 7*2/30 = 8/15; prevalences 1/3, 2/3.
# hand_code / helpful / all: U = r1 r3 r4 r5; + judge (0 1 1 0): r1 [1 1 0], r3 [1 0 1],
#   r4 [0 1], r5 [1 0]: n 10, n_1 6, n_0 4, den 48, num 2+2+2+2 = 8 -> 1 - 9*8/48 = -1/2.
# hand_llm / proper_action / all: every value 1 -> expected disagreement 0: both alphas null.
# vote_x / helpful / tier_b: U = vote-g1..g4, one voter each -> no pairable unit: alpha_humans
#   null; + judge (1 1 0 1): [1 1], [1 1], [0 0], [0 1]: n 8, n_1 5, den 30, num 2 -> 8/15.
HAND_NEW_COLUMNS = {
    # key: (human_prevalence, judge_prevalence, alpha_humans, alpha_with_judge)
    ("hand_llm", "generation", "helpful", "all"): (2 / 5, 2 / 5, 0., 7 / 18),
    ("hand_llm", "generation", "helpful", "tier_b"): (1 / 3, 2 / 3, 0., 8 / 15),
    ("hand_code", "generation", "helpful", "all"): (1 / 2, 1 / 2, 0., -1 / 2),
    ("hand_llm", "generation", "proper_action", "all"): (1., 1., None, None),
    ("vote_x", "generation", "helpful", "tier_b"): (1 / 2, 3 / 4, None, 8 / 15),
    ("vote_neg", "generation", "helpful", "tier_b"): (1 / 2, 1 / 4, None,
                                                      # [0 1] [0 1] [1 0] [0 0]: n 8, n_1 3,
                                                      # den 30, num 6 -> 1 - 7*6/30 = -2/5
                                                      -2 / 5),
}
NEW_COLUMNS = ["human_prevalence", "judge_prevalence", "alpha_humans", "alpha_with_judge"]

# judge_weights of the hand-made judges in the generated judges scenario (judge_min_kappa 0.3):
# (kind, n_gold_units, n_gold_labels, gold_kappa, weight, min_kappa, is_within_bounds).
# hand_llm generation: tier_b units r1 r2 r3 r7 (r2 counts: only helpful is tied); kappas
#   helpful 2/5, response_on_topic 0, the others null -> 1/5: positive weight, out of bounds.
# hand_code generation: r1 r2 r3; helpful -1, the others null -> -1, weight 0.
# hand_llm grounding: only hand-r4 (tier_a) -> no tier_b row: null kappa, weight 0.
HAND_WEIGHT_COLUMNS = ["annotator_kind", "n_gold_units", "n_gold_labels", "gold_kappa", "weight",
                      "min_kappa", "is_within_bounds"]
HAND_WEIGHTS = {
    ("vote_x", "generation"): ("LLM", 4, 5, .5, .5, .3, True),
    ("vote_y", "generation"): ("CODE", 4, 5, .5, .5, .3, True),
    ("vote_z", "generation"): ("LLM", 4, 5, 1., 1., .3, True),
    ("vote_neg", "generation"): ("CODE", 4, 5, -.5, 0., .3, False),
    ("hand_llm", "generation"): ("LLM", 4, 5, .2, .2, .3, False),
    ("hand_code", "generation"): ("CODE", 3, 5, -1., 0., .3, False),
    ("hand_llm", "grounding"): ("LLM", 0, 0, None, 0., .3, False),
}

# The weighted vote on the judge-only generation records (judge_min_kappa 0.3; weights
# vote_x 1/2, vote_y 1/2, vote_z 1; hand_llm, hand_code, vote_neg out of bounds), labels
# (proper_action, response_on_topic, helpful, incomplete, unsafe_content), None = tied.
HAND_VOTES = {
    "vote-u1": (1, 1, None, 0, 0),     # helpful 1/2 - 1/2 = 0
    "vote-u2": (1, 1, 0, 0, 0),        # 1/2 - 1/2 - 1 = -1
    "vote-u3": (1, 1, None, 0, 0),     # hand_llm's 1 does not count (out of bounds)
    "vote-u4": (None,) * 5,            # hand_code only: no within-bounds judge
    "vote-u5": (1, 1, 1, 0, 0),        # 1/2 (hand_code's 0 does not count)
    "vote-u6": (1, 1, None, 0, 0),     # -1 + 1/2 + 1/2 = 0
    "vote-u7": (1, 1, 1, None, 0),     # incomplete 1/2 - 1/2
    "vote-u8": (1, 1, 0, 0, 0),        # vote_y alone (a1's row rejected: still unlabelled)
    "vote-u9": (None,) * 5,            # vote_neg only
    "vote-u10": (1, 1, 1, 0, 0),       # vote_neg's 0 / unsafe 1 do not count
    "vote-u11": (1, 1, 1, 0, 1),       # unsafe 1 - 1/2 > 0; vote_x's older 0 superseded
    "hand-r6": (None,) * 5,            # hand_llm and hand_code, both out of bounds
    "judge-only-record": (1, 1, 1, 1, 1),   # judge_oracle (kappa 1) alone
}
# With judge_min_kappa -0.6: vote_neg (-1/2) and hand_llm (1/5) are within bounds, vote_neg
# with weight 0; hand_code (-1) stays out.
HAND_VOTES_LOW = dict(HAND_VOTES, **{
    "vote-u3": (1, 1, 1, 0, 0),        # 1/2 - 1/2 + 1/5 > 0
    "vote-u9": (None,) * 5,            # within bounds but weight 0: every score 0, tied
    "hand-r6": (1, 1, 1, 0, 0),        # hand_llm (1/5) alone counts
})

# judge_metric_values (generation unless said): (n_records, judge_value, judge_n_units,
# human_value, human_n_units, difference).  vote_*: compared records vote-g1..g4 (helpful
# consensus 1 1 0 0).  hand_llm: hand-r1 r3 r4 r5 r7 (hand-r2 is tied, hand-r8's judge row
# rejected); hand_code: hand-r1 r3 r4 r5 (no row on r7).
HAND_JMV = {("default",) + key: values for key, values in {
    ("vote_x", "generation", "helpfulness_rate", None): (4, 3 / 4, 4, 1 / 2, 4, 1 / 4),
    ("vote_y", "generation", "helpfulness_rate", None): (4, 1 / 4, 4, 1 / 2, 4, -1 / 4),
    ("vote_z", "generation", "helpfulness_rate", None): (4, 1 / 2, 4, 1 / 2, 4, 0.),
    ("vote_neg", "generation", "helpfulness_rate", None): (4, 1 / 4, 4, 1 / 2, 4, -1 / 4),
    ("vote_x", "generation", "proper_action_rate", None): (4, 1., 4, 1., 4, 0.),
    ("hand_llm", "generation", "helpfulness_rate", None): (5, 2 / 5, 5, 2 / 5, 5, 0.),
    ("hand_llm", "generation", "on_topic_rate", None): (5, 4 / 5, 5, 1., 5, -1 / 5),
    ("hand_llm", "generation", "incompleteness_rate", None): (5, 1 / 5, 5, 0., 5, 1 / 5),
    ("hand_code", "generation", "helpfulness_rate", None): (4, 1 / 2, 4, 1 / 2, 4, 0.),
    ("hand_llm", "grounding", "grounding_presence_rate", None): (1, 0., 1, 1., 1, -1.),
    ("hand_llm", "grounding", "conditional_fabrication_rate", None): (1, 0., 1, 0., 1, 0.),
}.items()}  # the judges scenario has one run, the default one
HAND_JMV_COLUMNS = ["n_records", "judge_value", "judge_n_units", "human_value",
                    "human_n_units", "difference"]


def _check_table(rows: dict, expected: dict, cols: list[str], source: str) -> list[str]:
    return [p for k, want in expected.items()
            for p in value_differences((source, k), dict(zip(cols, want)), rows.get(k), "by hand")]


def _vote_problems(jr: J.JudgeReference, expected: dict) -> list[str]:
    labels = R.TASKS["generation"]["labels"]
    problems = []
    for rec, want in expected.items():
        info = jr.vote_units["generation"].get((rec,))
        if info is None:
            problems.append(f"{rec}: not a judge-estimated unit")
            continue
        got = tuple(info["labels"][c] for c in labels)
        if got != want:
            problems.append(f"{rec}: by hand {want}, reference {got} (scores {info['score']})")
        estimated = jr.estimated["generation"][rec]["resolved"]
        if estimated != all(v is not None for v in want):
            problems.append(f"{rec}: estimated {estimated}")
    return problems


REF_KWARGS = dict(G.JUDGES_VARS)       # reference parameters of the judges scenario


@pytest.fixture(scope="module")
def judges_seed_dir(builds):
    return builds.data_dir("judges")


def test_new_reference_by_hand(judges_seed_dir):
    """The reference alone (no dbt) on the generated judges scenario reproduces every
    hand-made expectation: new judge_agreement columns, judge_weights, weighted vote (at
    judge_min_kappa 0.3 and -0.6) and judge_metric_values."""
    jr = jcompute(judges_seed_dir, **REF_KWARGS)
    problems = _check_table(jr.by_key(), HAND_NEW_COLUMNS, NEW_COLUMNS, "reference")
    problems += _check_table(jr.weights_by_key(), HAND_WEIGHTS, HAND_WEIGHT_COLUMNS, "reference")
    problems += _vote_problems(jr, HAND_VOTES)
    problems += _check_table(jr.judge_metrics_by_key(), HAND_JMV, HAND_JMV_COLUMNS,
                             "reference")
    low = jcompute(judges_seed_dir, **dict(REF_KWARGS, judge_min_kappa=-0.6))
    problems += [f"min_kappa -0.6: {p}" for p in _vote_problems(low, HAND_VOTES_LOW)]
    w = low.weights_by_key()
    assert w[("vote_neg", "generation")]["is_within_bounds"] is True
    assert w[("vote_neg", "generation")]["weight"] == 0.0
    assert w[("hand_code", "generation")]["is_within_bounds"] is False
    assert not problems, "\n".join(problems)
    assert jr.ambiguities == [] and low.ambiguities == [], (jr.ambiguities, low.ambiguities)


def test_reference_krippendorff_package(judges_seed_dir):
    """Reference self-check: alpha_humans / alpha_with_judge against the krippendorff
    package on the voters x units reliability matrix of every row (also checked against the
    marts in test_krippendorff_cross_check)."""
    jr = jcompute(judges_seed_dir, **REF_KWARGS)
    problems = []
    for row in jr.rows:
        key = tuple(row[c] for c in J.JUDGE_KEY)
        ah, aj = package_alphas(jr, key)
        problems += value_differences(key, {"alpha_humans": ah, "alpha_with_judge": aj}, row, "package",
                                      "reference")
    fail_on(problems, "judges", "the reference's alphas against the krippendorff package")


@pytest.mark.parametrize("name", ["sample", "judges"])
def test_alpha_humans_interval_with_package(builds, name):
    """alpha_humans_ci_lower / _upper of every judge_agreement row of the mart against a
    jackknife computed here with the krippendorff package: alpha of the humans' votes without
    each record holding a unit with two or more votes, SE = sqrt((G'-1)/G' sum (a_g - mean)^2),
    alpha -/+ t_0.975(G'-1) SE clipped to [-1, 1]."""
    from scipy import stats

    b = _built(builds, name)
    jr = b.jr
    mart = {_key(r, J.JUDGE_KEY): r for r in b.mart[1]}
    problems, checked = [], 0
    for key, upairs in sorted(jr.pairs.items()):
        if key not in mart:
            continue
        judge, task, label = key[:3]
        units = [u for u, _, _ in upairs]
        alpha, _ = package_alphas(jr, key)
        pairable = sorted({u[0] for u in units if len(jr.agr.votes[task].get(u, {})) >= 2})
        reps = [package_alphas(jr, key, without=rec)[0] for rec in pairable]
        reps = [a for a in reps if a is not None]
        lower = upper = None
        if alpha is not None and len(reps) >= 2:
            g, mean = len(reps), sum(reps) / len(reps)
            se = math.sqrt((g - 1) / g * sum((a - mean) ** 2 for a in reps))
            t = float(stats.t.ppf(0.975, g - 1))
            lower, upper = max(-1.0, alpha - t * se), min(1.0, alpha + t * se)
            checked += 1
        problems += value_differences(key, {"alpha_humans_ci_lower": lower,
                                            "alpha_humans_ci_upper": upper}, mart[key],
                                      "package", "mart")
    assert checked > 0, f"[{name}] no judge_agreement row has a humans' alpha interval"
    fail_on(problems, name, "alpha_humans_ci against the krippendorff package")


def package_alphas(jr: J.JudgeReference, key: tuple, without=None) -> tuple:
    """krippendorff.alpha (nominal) over the units of the row (without the units of the record
    ``without``), without / with the judge's values as one more coder; None when the package
    finds no pairable unit or the expected disagreement is 0 (nan, or a domain of one value)."""
    import warnings

    import krippendorff
    import numpy as np

    judge, task, label = key[:3]
    kept = [(u, j) for u, j, _ in jr.pairs[key] if u[0] != without]
    units = [u for u, _ in kept]
    jvals = [j for _, j in kept]
    voters = sorted({a for u in units for a in jr.agr.votes[task].get(u, {})})
    matrix = [[jr.agr.votes[task].get(u, {}).get(a, {}).get(label, np.nan) for u in units]
              for a in voters]

    def alpha(data):
        if not data:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                v = krippendorff.alpha(reliability_data=np.array(data, dtype=float),
                                       level_of_measurement="nominal", value_domain=[0, 1])
        except ValueError:
            return None
        return None if math.isnan(v) else float(v)

    return alpha(matrix), alpha(matrix + [jvals])


# =========================================================================== new marts

@pytest.mark.parametrize("name", SCENARIOS)
def test_judge_weights(builds, name):
    b = _built(builds, name, ("judge_weights",))
    fail_on(differences(b.jr.weights, b.table("judge_weights")[1], J.WEIGHTS_KEY, J.WEIGHTS_VALUES),
            name, "judge_weights")


@pytest.mark.parametrize("name", SCENARIOS)
def test_judge_metric_values(builds, name):
    b = _built(builds, name, ("judge_metric_values",))
    fail_on(differences(b.jr.judge_metric_rows, b.table("judge_metric_values")[1], J.JMV_KEY,
                        J.JMV_VALUES), name, "judge_metric_values")


@pytest.mark.parametrize("name", SCENARIOS)
def test_metric_values_label_source(builds, name):
    """metric_values rows with slice_dimension label_source (human and judges)."""
    b = _built(builds, name, ("metric_values",))
    got = [r for r in b.table("metric_values")[1] if r.get("slice_dimension") == "label_source"]
    fail_on(differences(b.jr.label_source_rows, got, J.MV_KEY, J.MV_VALUES), name,
            "metric_values (label_source)")


@pytest.mark.parametrize("name", SCENARIOS)
def test_metric_values_human_rows_equal_overall(builds, name):
    """Within the mart: label_source/human rows are the overall rows."""
    b = _built(builds, name, ("metric_values",))
    rows = b.table("metric_values")[1]
    overall = [dict(r, slice_dimension="label_source", slice_value="human") for r in rows
               if r.get("slice_dimension") == "overall"]
    human = [r for r in rows if r.get("slice_dimension") == "label_source"
             and r.get("slice_value") == "human"]
    fail_on(differences(overall, human, J.MV_KEY, J.MV_VALUES), name, "metric_values (human vs overall)")


def test_hand_rows_in_marts(builds):
    """The hand-made expectations against the marts of the generated judges scenario."""
    b = _built(builds, "judges", JUDGE_MARTS)

    def keyed(mart, cols):
        return {_key(r, cols): r for r in b.table(mart)[1] if r.get("slice_dimension", "overall") == "overall"}

    problems = _check_table(keyed(MART, J.JUDGE_OVERALL_KEY), HAND_NEW_COLUMNS, NEW_COLUMNS, "mart")
    problems += _check_table(keyed("judge_weights", J.WEIGHTS_KEY), HAND_WEIGHTS,
                             HAND_WEIGHT_COLUMNS, "mart")
    problems += _check_table(keyed("judge_metric_values", J.JMV_KEY), HAND_JMV,
                             HAND_JMV_COLUMNS, "mart")
    assert not problems, "[judges] " + "\n  ".join(problems)


# =========================================================================== independent libraries

def _nan_none(v):
    v = float(v)
    return None if math.isnan(v) else v


def _with_mart_rows(b, problems: list[str]):
    """(key, reference row, mart row) of every row of the judge reference; a row the mart lacks is
    a problem."""
    mart = {_key(r, J.JUDGE_KEY): r for r in b.mart[1]}
    for row in b.jr.rows:
        key = tuple(row[c] for c in J.JUDGE_KEY)
        if key not in mart:
            problems.append(f"missing row {key}")
            continue
        yield key, row, mart[key]


@pytest.mark.parametrize("name", SCENARIOS)
def test_sklearn_cross_check(builds, name):
    """Every judge_agreement row of the mart against scikit-learn on the (judge, consensus)
    pairs of the reference: cohen_kappa_score (nan when p_e = 1 -> null), precision_score,
    recall_score (zero_division nan -> null) and f1_score where the contract defines f1 (when
    precision = recall = 0 the contract says null and sklearn 0)."""
    import warnings

    import numpy as np
    from sklearn.metrics import cohen_kappa_score, f1_score, precision_score, recall_score

    b = _built(builds, name)
    problems = []
    checked = Counter()
    cache: dict[tuple, dict] = {}
    for key, _row, got in _with_mart_rows(b, problems):
        # the measures do not depend on the order of the units: rows with the same pairs
        # share one sklearn computation (about 10 ms per call)
        pairs = tuple(sorted((j, c) for _, j, c in b.jr.pairs[key]))
        if pairs not in cache:
            y_judge, y_true = [j for j, _ in pairs], [c for _, c in pairs]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                cache[pairs] = {
                    "cohen_kappa": _nan_none(cohen_kappa_score(y_judge, y_true, labels=[0, 1])),
                    "precision": _nan_none(precision_score(y_true, y_judge, labels=[0, 1],
                                                           zero_division=np.nan)),
                    "recall": _nan_none(recall_score(y_true, y_judge, labels=[0, 1],
                                                     zero_division=np.nan)),
                    "f1": _nan_none(f1_score(y_true, y_judge, labels=[0, 1],
                                             zero_division=np.nan)),
                }
        sk = dict(cache[pairs])
        if sk["precision"] == 0 and sk["recall"] == 0:
            assert sk["f1"] == 0.0
            sk["f1"] = None                 # the contract's rule; sklearn says 0
        elif sk["precision"] is None or sk["recall"] is None:
            sk["f1"] = None                 # contract: null when P or R is null
        checked.update((c, v is None) for c, v in sk.items())
        problems += value_differences(key, sk, got, "sklearn", "mart")
    fail_on(problems, name, "judge_agreement against scikit-learn")
    assert checked[("cohen_kappa", False)] > 0, checked


@pytest.mark.parametrize("name", SCENARIOS)
def test_krippendorff_cross_check(builds, name):
    """alpha_humans and alpha_with_judge of every mart row against the krippendorff package
    (nominal) on the voters x units matrix of the row, without / with the judge's row."""
    b = _built(builds, name)
    problems = []
    n_defined = 0
    for key, _row, got in _with_mart_rows(b, problems):
        ah, aj = package_alphas(b.jr, key)
        n_defined += (ah is not None) + (aj is not None)
        problems += value_differences(key, {"alpha_humans": ah, "alpha_with_judge": aj}, got, "krippendorff", "mart")
    fail_on(problems, name, "judge_agreement alphas against the krippendorff package")
    assert n_defined > 0


# =========================================================================== judges change nothing human

POSITIONAL = {"annotation_row_id", "source_row"}     # a row's place in its seed file, not compared


def language_by_judges(jr: J.JudgeReference) -> dict[str, list[str]]:
    """family -> human records whose language (docs/rules.md, Consensus: the one non-empty language of the
    record's accepted rows in that family, judges' rows included) changes without the judges'
    rows."""
    out: dict[str, list[str]] = {}
    for task in R.TASKS:
        human_only = R.record_languages([r for r in jr.ref.rows[task]
                                         if r.annotator_id not in jr.judges])
        changed = sorted(rec for rec, info in jr.ref.records[task].items()
                         if info["language"] != human_only.get(rec, "unknown"))
        if changed:
            out[task] = changed
    return out


def human_mart_differences(with_j: dict, without: dict, judges: set[str],
                           language_families=()) -> list[str]:
    """Differences between the human marts (HUMAN_MARTS) of two builds, leaving out the label_source /
    judges rows of metric_values, the judges' rejected rows, and the language slice (metric_values,
    run_comparison, and the agreement marts' ``slice_dimension = 'language'`` rows) of the families
    in ``language_families`` (checked against the reference by the callers)."""
    problems = []
    for mart in HUMAN_MARTS:
        a, b = with_j.get(mart), without.get(mart)
        if a is None or b is None:
            problems.append(f"{mart}: not read ({a is None}, {b is None})")
            continue
        if a[0] != b[0]:
            problems.append(f"{mart}: columns differ {a[0]} vs {b[0]}")
            continue
        ra, rb = a[1], b[1]
        if mart in ("metric_values", "run_comparison"):
            def keep(r):
                return not (r.get("slice_dimension") == "label_source"
                            and r.get("slice_value") == "judges") and \
                    not (r.get("slice_dimension") == "language"
                         and r.get("family") in language_families)

            ra, rb = [r for r in ra if keep(r)], [r for r in rb if keep(r)]
        if mart in AGREEMENT_SLICED_MARTS:
            def keep_agreement(r):
                return not (r.get("slice_dimension") == "language" and r.get("task") in language_families)

            ra, rb = [r for r in ra if keep_agreement(r)], [r for r in rb if keep_agreement(r)]
        if mart == "rejected_annotations":
            ra = [r for r in ra if r.get("annotator_id") not in judges]
            rb = [r for r in rb if r.get("annotator_id") not in judges]
        # the position of a row in its seed file shifts when judge rows are removed
        ra = [{c: v for c, v in r.items() if c not in POSITIONAL} for r in ra]
        rb = [{c: v for c, v in r.items() if c not in POSITIONAL} for r in rb]
        # rows grouped by their non-float columns; the float columns compared to 1e-9
        floats = sorted({c for r in ra + rb for c, v in r.items() if isinstance(v, float)})

        def group(rows, floats=floats):
            out: dict[tuple, list] = defaultdict(list)
            for r in rows:
                out[tuple((c, repr(r.get(c))) for c in sorted(r) if c not in floats)].append(
                    tuple(r.get(c) for c in floats))
            return {k: sorted(v, key=lambda t: [(x is None, x if x is not None else 0)
                                                for x in t]) for k, v in out.items()}

        ga, gb = group(ra), group(rb)
        for k in sorted(set(ga) ^ set(gb), key=str):
            side = "with judges only" if k in ga else "without judges only"
            problems.append(f"{mart}: row {str(k)[:400]} ({side})")
        for k in sorted(set(ga) & set(gb), key=str):
            if len(ga[k]) != len(gb[k]) or not all(
                    same_value(x, y) for ta, tb in zip(ga[k], gb[k]) for x, y in zip(ta, tb)):
                problems.append(f"{mart}: {k} {floats}: {ga[k][:3]} vs {gb[k][:3]}")
    return problems


def test_reference_judges_do_not_change_human_metrics(tmp_path):
    """Reference-level version of the property on the project's sample seeds: removing the
    judge rows changes none of the human marts (if it did, the mart test below would expect
    the wrong thing, e.g. a rank conflict between a judge and a human row)."""
    have = {p.name for p in project_seed_csvs()}
    if not all(f in have for f in SEED_FILES + ["records.csv"]):
        pytest.skip("sample seeds incomplete")
    seeds = tmp_path / "with"
    import shutil

    shutil.copytree(PROJECT / "seeds", seeds)
    judges = G.judge_ids(seeds)
    if not judges:
        pytest.skip("no judge in the sample seeds")
    without = G.without_judges(seeds, tmp_path / "without")
    a, b = J.compute(seeds), J.compute(without)

    def marts(jr):
        out = {m: (sorted({c for r in rows for c in r}), rows)
               for m, rows in jr.ref.marts.items()}
        out.update({m: (sorted({c for r in rows for c in r}), rows)
                    for m, rows in jr.agr.marts.items()})
        out["metric_values"] = (out["metric_values"][0],
                                out["metric_values"][1] + jr.label_source_rows)
        return out

    ma, mb = marts(a), marts(b)
    names = [m for m in HUMAN_MARTS if m in ma]
    languages = language_by_judges(a)
    problems = [p for p in human_mart_differences(ma, mb, judges, set(languages))
                if p.split(":")[0] in names]
    assert not problems, "\n".join(problems[:40])
    assert not any(r.reasons & {"rank_conflict"} for t in R.TASKS for r in a.ref.rows[t]
                   if r.annotator_id in judges), "a judge row is in a rank conflict"


def test_judges_do_not_change_human_metrics(builds):
    """The sample seeds built as they are and without any row of an LLM / CODE annotator in
    the three exports: every mart of HUMAN_MARTS is identical (1e-9), except the
    label_source/judges rows of metric_values, the judges' own rejected rows and the language
    slices where judge rows give a record its language (metric_values' checked below)."""
    a = _built(builds, "sample", HUMAN_MARTS)
    b = _built(builds, "sample_nojudges", HUMAN_MARTS)
    judges = G.judge_ids(a.seed_dir)
    # docs/rules.md takes a record's language from all its accepted rows, judges' included: where
    # a judge row gives a human record its language, the language slice differs by design;
    # there each build's language rows are checked against the reference instead.
    languages = language_by_judges(a.jr)
    problems = human_mart_differences(a.marts, b.marts, judges, set(languages))
    for build in (a, b):
        want = [r for r in build.jr.ref.marts["metric_values"]
                if r["slice_dimension"] == "language" and r["family"] in languages]
        got = [r for r in build.table("metric_values")[1]
               if r.get("slice_dimension") == "language" and r.get("family") in languages]
        problems += [f"{build.name} language slice: {p}"
                     for p in differences(want, got, J.MV_KEY, J.MV_VALUES)]
        for mart, columns in AGREEMENT_SLICED_MARTS.items():
            key = [c for c in columns if c in AGREEMENT_KEYS]
            want = [r for r in build.jr.agr.marts[mart] if r["slice_dimension"] == "language"
                    and r["task"] in languages]
            got = [r for r in build.table(mart)[1] if r.get("slice_dimension") == "language"
                   and r.get("task") in languages]
            problems += [f"{build.name} {mart} language slice: {p}"
                         for p in differences(want, got, key, [c for c in columns if c not in key])]
    assert not problems, f"(language set by judge rows: {languages})\n  " + \
        "\n  ".join(problems[:40])
    # the builds did differ: the judges left traces in their own marts
    assert a.table(MART)[1], "no judge_agreement row in the sample"
    assert not b.table(MART)[1] and not b.table("judge_weights")[1]


# =========================================================================== coverage of the new cases

def test_generated_scenario_covers_the_new_cases(builds):
    b = _built(builds, "judges", JUDGE_MARTS)
    jr = b.jr
    w = jr.weights_by_key()
    gold = {k: r["gold_kappa"] for k, r in w.items()}
    # strong and weak within-bounds judges, in every family, with different weights
    for task in R.TASKS:
        good, weak = w[("judge_good", task)], w[("judge_weak", task)]
        assert good["is_within_bounds"] and weak["is_within_bounds"], (good, weak)
        assert good["weight"] > weak["weight"] > G.JUDGES_MIN_KAPPA, (good, weak)
        assert not w[("judge_zeros", task)]["is_within_bounds"]
    # positive kappa out of bounds, negative kappa (weight 0), null kappa (weight 0)
    assert 0 < gold[("hand_llm", "generation")] < G.JUDGES_MIN_KAPPA
    assert gold[("judge_contra", "generation")] < 0 and \
        w[("judge_contra", "generation")]["weight"] == 0
    assert gold[("judge_zeros", "generation")] is None
    # judge-estimated records in every family; retrieval ones with several ranked chunks,
    # rank gaps; unlabelled records left pending by a tie
    for task in R.TASKS:
        est = [r for r in jr.estimated[task].values() if r["resolved"]]
        assert len(est) >= 5, task
        assert any(not r["resolved"] for r in jr.estimated[task].values()) or \
            task == "grounding", task
    ret = [r for r in jr.estimated["retrieval"].values() if r["resolved"]]
    assert any(len(r["units"]) >= 3 for r in ret)
    assert any(max(u["rank"] for u in r["units"]) > len(r["units"]) for r in ret)
    # scores from several judges with unequal weights
    assert any(len(u["judges"]) >= 3 and u["resolved"]
               for u in jr.vote_units["retrieval"].values())
    # judges rows in metric_values for all three families
    fams = {r["family"] for r in jr.label_source_rows if r["slice_value"] == "judges"}
    assert fams == set(R.TASKS), fams
    # judge_metric_values: many compared records for the good judge, with differences
    jmv = jr.judge_metrics_by_key()
    # (in every run, and at least 20 over the runs)
    assert {run for (run, j, *_rest) in jmv if j == "judge_good"} == {"default", "v1", "v2"}
    over_runs = Counter()
    for (_run, j, t, m, k), row in jmv.items():
        if j == "judge_good":
            over_runs[(t, m, k)] += row["n_records"]
    assert min(over_runs.values()) >= 20, over_runs
    assert any(r["difference"] not in (None, 0.0) for r in jmv.values())
    # compared records where the judge also labelled a chunk no human labelled
    units = jr.ref.units["retrieval"]
    compared = set(jr.compared[("judge_good", "retrieval")])
    assert sum(1 for u in jr.judge_rows["retrieval"]["judge_good"]
               if u not in units and u[0] in compared) >= 5
    assert any(r["judge_value"] is None and r["judge_n_units"] == 0
               and r["metric"] == "conditional_fabrication_rate" for r in jmv.values())
    # judge rows repaired under constraint_policy: repair that count (post-repair values)
    counted = {(task, u, j) for (j, task, *_), prs in jr.pairs.items() for u, _, _ in prs}
    repaired = [(t, r.unit, r.annotator_id) for t in R.TASKS for r in jr.ref.rows[t]
                if r.annotator_id in jr.judges and r.status == "accepted" and r.was_repaired]
    assert len(set(repaired) & counted) >= 5, repaired
    # alpha_with_judge defined where alpha_humans is not (single-vote units made pairable)
    assert any(r["alpha_humans"] is None and r["alpha_with_judge"] is not None
               for r in jr.rows)
