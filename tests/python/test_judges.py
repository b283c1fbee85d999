"""The ``judge_agreement`` mart (CONTRACT.md, "Judges") against an independent reference
(judge_reference.py), plus cross-checks of both against the direct 2x2-table formulas and
cases worked out by hand.

Scenarios, built once for this module by two ``dbt build`` subprocesses (only
``judge_agreement`` and its parents, no data/unit tests); the second starts from the first's
partial-parse file, and the two then run in parallel (as in test_protocol.py):

* ``sample``  the project's own seeds (records.csv and the LLM judge ``llm.judge-gpt4o``
              included), copied at build time;
* ``judges``  judge_reference.generate_judges_scenario(): agreement_reference's generated
              scenario (1-4 voters, adjudications, ties, every routing rule, its noisy
              ``llm_judge`` / ``rule_judge``) plus an always-right LLM judge with role
              adjudicator, an always-1 CODE judge (p_e = 1), an always-0 LLM judge (tier_a
              only in generation), an always-wrong CODE adjudicator, superseded and rejected
              judge rows, judge rows without any human row, and hand-made records whose
              expected rows are written out below (HAND_EXPECTED).

Numbers are compared to 1e-9 (absolute and relative); nulls must match nulls; the set of
keys (annotator_id, task, label, tier) must be the same.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import conftest as C
import judge_reference as J
import pytest
import reference as R

TOL = 1e-9
SCENARIOS = ["sample", "judges"]
MART = "judge_agreement"


# =========================================================================== builds

class JudgeBuild(C.SubprocessBuild):
    """A dbt build subprocess of ``judge_agreement`` and its parents (see conftest.SubprocessBuild)."""

    def __init__(self, name: str, tmp: Path, seed_dir: Path | None):
        super().__init__(name, tmp, seed_dir, [MART])
        self._jr = None

    @property
    def mart(self) -> tuple[list[str], list[dict]] | None:
        return (self.marts or {}).get(MART)

    @property
    def jr(self) -> J.JudgeReference:
        if self._jr is None:
            self._jr = J.compute(self.seed_dir, null_mode=self.null_mode or "agate")
        return self._jr


@pytest.fixture(scope="module")
def judge_builds(tmp_path_factory):
    have = {p.name for p in C.project_seed_csvs()}
    builds: dict[str, JudgeBuild] = {}
    try:
        if all(f in have for f in C.SEED_FILES + ["records.csv"]):
            builds["sample"] = JudgeBuild("sample", tmp_path_factory.mktemp("judge_sample"),
                                          None)
            builds["sample"].start()
        gen_dir = J.generate_judges_scenario(tmp_path_factory.mktemp("judge_generated_seeds"))
        builds["judges"] = JudgeBuild("judges", tmp_path_factory.mktemp("judge_generated"),
                                      gen_dir)
        builds["judges"].start(builds["sample"].wait_for_parse() if "sample" in builds
                               else None)
        for b in builds.values():
            b.finish()
        yield builds
    finally:
        for b in builds.values():
            if b.proc is not None and b.proc.poll() is None:
                b.proc.kill()


def _built(builds, name) -> JudgeBuild:
    if name not in builds:
        pytest.skip(f"the project's sample seeds are incomplete in {C.PROJECT / 'seeds'}")
    b = builds[name]
    assert b.error is None, f"[{name}] {b.error}"
    failed = [r for r in b.node_results if r["resource_type"] in ("model", "seed")
              and r["status"] not in ("success", "pass")]
    assert not failed, f"[{name}] nodes did not succeed: " + "; ".join(
        f"{r['unique_id']} {r['status']}: {(r['message'] or '')[:300]}" for r in failed[:8])
    assert b.mart is not None, f"[{name}] mart {MART} not found in {b.db}"
    return b


# =========================================================================== comparison

def _same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return False
    return math.isclose(float(a), float(b), rel_tol=TOL, abs_tol=TOL)


def _diff(name, expected, got, limit=40):
    problems = []
    exp = {tuple(r[c] for c in J.JUDGE_KEY): r for r in expected}
    act: dict[tuple, dict] = {}
    for r in got:
        k = tuple(r.get(c) for c in J.JUDGE_KEY)
        if k in act:
            problems.append(f"duplicate row {k}")
        act[k] = r
    for k in sorted(set(exp) - set(act), key=str):
        problems.append(f"missing row {k}: expected { {c: exp[k][c] for c in J.JUDGE_VALUES} }")
    for k in sorted(set(act) - set(exp), key=str):
        problems.append(f"unexpected row {k}: got { {c: act[k].get(c) for c in J.JUDGE_VALUES} }")
    for k in sorted(set(exp) & set(act), key=str):
        for c in J.JUDGE_VALUES:
            if not _same(exp[k][c], act[k].get(c)):
                problems.append(f"{k} {c}: expected {exp[k][c]!r}, got {act[k].get(c)!r}")
    if problems:
        more = f"\n  ... and {len(problems) - limit} more" if len(problems) > limit else ""
        pytest.fail(f"[{name}] {MART}: {len(problems)} difference(s) with the reference:\n  "
                    + "\n  ".join(problems[:limit]) + more)


# =========================================================================== direct formulas

def direct_kappa(a: int, b: int, c: int, d: int):
    """Cohen's kappa from the 2x2 table (a = tp, b = fp, c = fn, d = tn):
    2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d)); None when the denominator is 0 (p_e = 1)."""
    den = (a + b) * (b + d) + (a + c) * (c + d)
    return None if den == 0 else 2 * (a * d - b * c) / den


def direct_measures(tp: int, fp: int, fn: int, tn: int) -> dict:
    """Floats straight from the counts (no shared code with judge_reference)."""
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
        assert _same(d[c], None if v is None else float(v)), (c, d[c], v)
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


# The hand-made records of generate_judges_scenario (judge_reference.HAND_*).  Generation,
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
        for c, v in zip(J.JUDGE_VALUES, HAND_EXPECTED[k]):
            if not _same(v, hand[k].get(c)):
                problems.append(f"{source} {k} {c}: by hand {v!r}, got {hand[k].get(c)!r}")
    return problems


def test_reference_by_hand(tmp_path):
    """The reference on the generated judges scenario reproduces the hand-made rows (no dbt),
    and the hand-made expectations agree with the direct formulas."""
    for k, v in HAND_EXPECTED.items():
        d = direct_measures(*v[1:5])
        for c in ("n_units", "accuracy", "cohen_kappa", "precision", "recall", "f1"):
            assert _same(d[c], v[J.JUDGE_VALUES.index(c)]), (k, c, d[c])
    jr = J.compute(J.generate_judges_scenario(tmp_path))
    problems = _check_hand(jr.by_key(), "reference")
    assert not problems, "\n".join(problems)


# =========================================================================== mart tests

@pytest.mark.parametrize("name", SCENARIOS)
def test_build_and_columns(judge_builds, name):
    b = _built(judge_builds, name)
    assert b.loader_problem is None, f"[{name}] {b.loader_problem}"
    missing = [c for c in J.JUDGE_COLUMNS if c not in b.mart[0]]
    assert not missing, f"[{name}] {MART} lacks {missing} (has {b.mart[0]})"


@pytest.mark.parametrize("name", SCENARIOS)
def test_reference_is_unambiguous(judge_builds, name):
    b = _built(judge_builds, name)
    assert b.jr.ambiguities == [], b.jr.ambiguities


@pytest.mark.parametrize("name", SCENARIOS)
def test_judge_agreement(judge_builds, name):
    b = _built(judge_builds, name)
    _diff(name, b.jr.rows, b.mart[1])


def test_judge_agreement_hand_rows(judge_builds):
    b = _built(judge_builds, "judges")
    rows = {tuple(r.get(c) for c in J.JUDGE_KEY): r for r in b.mart[1]}
    problems = _check_hand(rows, "mart")
    assert not problems, "[judges] " + "\n  ".join(problems)


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_direct(judge_builds, name):
    """Every reference row against the 2x2 table of its (judge, consensus) pairs, counted here
    again, and every mart row against the direct formulas applied to its own counts (and to
    the reference's pairs), kappa also against sklearn when it is installed."""
    b = _built(judge_builds, name)
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
            if not _same(sk, want["cohen_kappa"]):
                problems.append(f"sklearn {key}: {sk} vs 2x2 closed form {want['cohen_kappa']}")
        for source, got in (("reference", row), ("mart", mart.get(key))):
            if got is None:
                continue
            for c, v in want.items():
                if not _same(v, got.get(c)):
                    problems.append(f"{source} {key} {c}: direct {v!r}, got {got.get(c)!r}")
    for key, got in mart.items():
        counts = [got.get(c) for c in ("tp", "fp", "fn", "tn")]
        if any(v is None for v in counts):
            problems.append(f"mart {key}: null count {counts}")
            continue
        own = direct_measures(*(int(v) for v in counts))
        for c, v in own.items():
            if not _same(v, got.get(c)):
                problems.append(f"mart {key} {c}: from its own counts {v!r}, got {got.get(c)!r}")
    assert not problems, f"[{name}] " + "\n  ".join(problems[:40])


# =========================================================================== scenario coverage

def test_sample_has_judges(judge_builds):
    b = _built(judge_builds, "sample")
    judges = {k[0] for k in b.jr.by_key()}
    assert "llm.judge-gpt4o" in judges, judges
    assert {k[3] for k in b.jr.by_key()} == {"all", "tier_b"}


def test_generated_scenario_covers_the_cases(judge_builds):
    """The judges scenario really exercises what the comparisons are meant to cover."""
    b = _built(judge_builds, "judges")
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
