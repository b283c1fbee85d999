"""ADR-001 tiers and the agreement marts (annotator_agreement, annotator_pair_agreement)
against an independent reference (reference/agreement.py), plus cross-checks of that
reference against the ``krippendorff`` package and direct formulas, and small cases worked
out by hand.

Scenarios, each built once for this module by a ``dbt build`` subprocess (both in parallel):

* ``sample``    the project's own seeds, records.csv included, copied at build time (the
                reference reads the copy that dbt loaded);
* ``generated`` generate.agreement_scenario(): 1-4 voters per unit, single-vote
                units, rare labels (~3 % positives), perfect-agreement labels, records.csv
                with every routing rule, explicit tiers, bad and duplicated rows, and
                records absent from it;
* ``slices``    generate.agreement_slices_scenario(): careful votes overall, careless ones in
                one task type and one language, padded and blank task types, records without
                a records row.

Every statistic is compared on every slice (overall, language, task_type) of every tier.

Numbers are compared to 1e-9 (absolute and relative); nulls must match nulls.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import generate as G
import numpy as np
import pytest
import reference as R
from kit.compare import assert_has_columns, assert_same_rows, fail_on, same_value, value_differences
from reference import agreement as A

TOL = 1e-9
SCENARIOS = ["sample", "generated", "slices"]
# the conftest scenario of each
BUILD_OF = {"sample": "sample", "generated": "agreement", "slices": "agreement_slices"}
SCENARIOS_USED = list(BUILD_OF.values())
AG_KEY = ["task", "label", "tier", "slice_dimension", "slice_value"]
PAIR_KEY = ["task", "label", "annotator_a", "annotator_b", "slice_dimension", "slice_value"]


# =========================================================================== hand-computed cases
#
# Notation: a unit's votes are listed as a tuple; m_u votes, n_uc of value c, n = sum m_u over
# the units with >= 2 votes, n_c the total count of c there.  For a binary label
#   p_a   = mean_u [n_u1(n_u1-1) + n_u0(n_u0-1)] / (m_u(m_u-1))
#   alpha = 1 - (n-1) * sum_u [2 n_u1 n_u0 / (m_u-1)] / (2 n_1 n_0)
#   AC1   = (p_a - p_e) / (1 - p_e),  p_e = 2 pi (1-pi),
#           pi = mean_u n_u1/m_u over the units with >= 1 vote
#   kappa = (p_o - p_e) / (1 - p_e),  p_e = pA1 pB1 + pA0 pB0

def stats(units):
    return A.label_stats([list(u) for u in units])


def pkg_alpha(matrix):
    import krippendorff

    return krippendorff.alpha(reliability_data=np.array(matrix, dtype=float),
                              level_of_measurement="nominal")


def test_hand_perfect_agreement():
    # units (1,1), (0,0): p_a = 1.  n = 4, n_1 = n_0 = 2, every unit has n_u1 n_u0 = 0 ->
    # numerator 0 -> alpha = 1 - 3*0/8 = 1.  pi = (1 + 0)/2 = 1/2, p_e = 2*1/2*1/2 = 1/2,
    # AC1 = (1 - 1/2)/(1 - 1/2) = 1.  prevalence = 2/4.
    s = stats([(1, 1), (0, 0)])
    assert s["observed_agreement"] == 1
    assert s["krippendorff_alpha"] == 1
    assert s["gwet_ac1"] == 1
    assert s["prevalence"] == Fraction(1, 2)
    assert (s["n_units"], s["n_pairable_values"]) == (2, 4)
    assert pkg_alpha([[1, 0], [1, 0]]) == pytest.approx(1.0, abs=TOL)
    # kappa of the two coders: p_o = 1, p_e = 1/2*1/2 + 1/2*1/2 = 1/2 -> kappa = 1
    assert A.pair_stats([(1, 1), (0, 0)])["cohen_kappa"] == 1


def test_hand_perfect_agreement_one_value_only():
    # units (1,1), (1,1): the denominator sum_{c!=k} n_c n_k = 2*4*0 = 0 -> alpha null;
    # pi = 1, p_e = 0 -> AC1 = (1 - 0)/1 = 1; kappa: p_e = 1*1 + 0*0 = 1 -> null.
    s = stats([(1, 1), (1, 1)])
    assert s["krippendorff_alpha"] is None
    assert s["gwet_ac1"] == 1
    assert A.pair_stats([(1, 1), (1, 1)])["cohen_kappa"] is None


def test_hand_systematic_disagreement():
    # 2 coders, 4 units (1,0), (1,0), (0,1), (0,1): every unit n_u1 = n_u0 = 1, m_u = 2.
    # p_a = mean(0, 0, 0, 0) = 0.
    # alpha: n = 8, n_1 = n_0 = 4, denominator = 2*4*4 = 32;
    #   numerator = 4 units * 2*1*1/(2-1) = 8;  alpha = 1 - 7 * 8/32 = 1 - 1.75 = -0.75.
    # AC1: pi = mean(1/2, 1/2, 1/2, 1/2) = 1/2, p_e = 1/2 -> AC1 = (0 - 1/2)/(1/2) = -1.
    # kappa: coder A = (1,1,0,0), B = (0,0,1,1): p_o = 0, p_e = 1/2*1/2 + 1/2*1/2 = 1/2 -> -1.
    s = stats([(1, 0), (1, 0), (0, 1), (0, 1)])
    assert s["observed_agreement"] == 0
    assert s["krippendorff_alpha"] == Fraction(-3, 4)
    assert s["gwet_ac1"] == -1
    assert s["prevalence"] == Fraction(1, 2)
    assert pkg_alpha([[1, 1, 0, 0], [0, 0, 1, 1]]) == pytest.approx(-0.75, abs=TOL)
    p = A.pair_stats([(1, 0), (1, 0), (0, 1), (0, 1)])
    assert (p["observed_agreement"], p["cohen_kappa"]) == (0, -1)


def test_hand_rare_label():
    # 10 units, 2 coders: 9 x (0,0) and 1 x (1,0).
    # p_a = 9/10.  alpha: n = 20, n_1 = 1, n_0 = 19, denominator = 2*1*19 = 38,
    #   numerator = 2*1*1/1 = 2 -> alpha = 1 - 19*2/38 = 0.
    # AC1: pi = (9*0 + 1/2)/10 = 1/20, p_e = 2 * 1/20 * 19/20 = 19/200,
    #   AC1 = (9/10 - 19/200)/(1 - 19/200) = (161/200)/(181/200) = 161/181 = 0.88950...
    # prevalence = 1/20.
    # kappa: A has one 1 (pA1 = 1/10), B none (pB1 = 0): p_o = 9/10,
    #   p_e = 1/10*0 + 9/10*1 = 9/10 -> kappa = 0.
    units = [(0, 0)] * 9 + [(1, 0)]
    s = stats(units)
    assert s["observed_agreement"] == Fraction(9, 10)
    assert s["krippendorff_alpha"] == 0
    assert s["gwet_ac1"] == Fraction(161, 181)
    assert float(s["gwet_ac1"]) == pytest.approx(0.8895027624309392, abs=TOL)
    assert s["prevalence"] == Fraction(1, 20)
    assert pkg_alpha([[0] * 9 + [1], [0] * 10]) == pytest.approx(0.0, abs=TOL)
    assert A.pair_stats(units)["cohen_kappa"] == 0


def test_hand_single_vote_units():
    # pairable units (1,1), (0,0), (1,0) and single-vote units (1), (1).
    # alpha and p_a only over the 3 pairable units: n = 6, n_1 = n_0 = 3,
    #   denominator = 2*3*3 = 18, numerator = 2*1*1/1 = 2 -> alpha = 1 - 5*2/18 = 4/9.
    #   p_a = (1 + 1 + 0)/3 = 2/3; n_units = 3, n_pairable_values = 6, prevalence = 3/6.
    # AC1's pi over all 5 units: (1 + 0 + 1/2 + 1 + 1)/5 = 7/10, p_e = 2 * 7/10 * 3/10 = 21/50,
    #   AC1 = (2/3 - 21/50)/(1 - 21/50) = (37/150)/(29/50) = 37/87 = 0.42529...
    #   (without the single-vote units pi = 1/2, p_e = 1/2, AC1 = 1/3).
    s = stats([(1, 1), (0, 0), (1, 0), (1,), (1,)])
    assert (s["n_units"], s["n_pairable_values"]) == (3, 6)
    assert s["observed_agreement"] == Fraction(2, 3)
    assert s["krippendorff_alpha"] == Fraction(4, 9)
    assert s["gwet_ac1"] == Fraction(37, 87)
    assert s["prevalence"] == Fraction(1, 2)
    assert stats([(1, 1), (0, 0), (1, 0)])["gwet_ac1"] == Fraction(1, 3)
    # the package, fed only the pairable units, agrees on alpha
    assert pkg_alpha([[1, 0, 1], [1, 0, 0]]) == pytest.approx(4 / 9, abs=TOL)
    # no unit with two votes -> no row
    assert stats([(1,), (0,)]) is None


def test_hand_three_annotators():
    # unit 1: A=1, B=1, C=0 (m=3, n_1=2, n_0=1); unit 2: A=0, B=0, C=0 (m=3, n_0=3).
    # p_a = mean(2*1/(3*2), 3*2/(3*2)) = mean(1/3, 1) = 2/3.
    # alpha: n = 6, n_1 = 2, n_0 = 4, denominator = 2*2*4 = 16;
    #   numerator = 2*2*1/(3-1) + 0 = 2 -> alpha = 1 - 5*2/16 = 3/8.
    # AC1: pi = (2/3 + 0)/2 = 1/3, p_e = 2 * 1/3 * 2/3 = 4/9 -> (2/3 - 4/9)/(5/9) = 2/5.
    # prevalence = 2/6 = 1/3.
    # pairs: A-B (1,1),(0,0): p_o = 1, p_e = 1/2 -> kappa 1;
    #        A-C (1,0),(0,0): p_o = 1/2, pA1 = 1/2, pC1 = 0 -> p_e = 1/2 -> kappa 0; B-C same.
    s = stats([(1, 1, 0), (0, 0, 0)])
    assert s["observed_agreement"] == Fraction(2, 3)
    assert s["krippendorff_alpha"] == Fraction(3, 8)
    assert s["gwet_ac1"] == Fraction(2, 5)
    assert s["prevalence"] == Fraction(1, 3)
    assert (s["n_units"], s["n_pairable_values"]) == (2, 6)
    assert pkg_alpha([[1, 0], [1, 0], [0, 0]]) == pytest.approx(0.375, abs=TOL)
    assert A.pair_stats([(1, 1), (0, 0)])["cohen_kappa"] == 1
    assert A.pair_stats([(1, 0), (0, 0)])["observed_agreement"] == Fraction(1, 2)
    assert A.pair_stats([(1, 0), (0, 0)])["cohen_kappa"] == 0


# =========================================================================== records seed & tiers

@pytest.mark.parametrize("text,kind,value", [
    ("0.65", "ok", Decimal("0.65")), ("1", "ok", Decimal(1)), ("0", "ok", Decimal(0)),
    ("0.650", "ok", Decimal("0.65")), ("", "empty", None), ("   ", "empty", None),
    (None, "empty", None), ("abc", "invalid", None), ("65%", "invalid", None),
    ("0,7", "invalid", None), (" 0.81 ", "ok", Decimal("0.81")), (".5", "ok", Decimal("0.5")),
])
def test_parse_decimal(text, kind, value):
    k, v, _ = A.parse_decimal(text)
    assert (k, v) == (kind, value)


def test_route():
    th = Decimal("0.65")
    gold = A.DEFAULT_GOLD_TASK_TYPES

    def rt(task_type=None, unc=None, adv=0, tier=None):
        return A.route({"task_type": task_type, "model_uncertainty": unc,
                        "is_adversarial": adv, "tier": tier}, gold, th)

    assert rt("factual_qa") == ("tier_b", "task_type")
    assert rt("Factual_QA") == ("tier_a", "default")           # matched exactly
    assert rt(unc=Decimal("0.65")) == ("tier_b", "uncertainty")  # at the threshold
    assert rt(unc=Decimal("0.6499")) == ("tier_a", "default")
    assert rt(adv=1) == ("tier_b", "adversarial")
    assert rt("factual_qa", Decimal(1), 1, "tier_a") == ("tier_a", "explicit")
    assert rt("summarization", tier="tier_b") == ("tier_b", "explicit")
    assert rt() == ("tier_a", "default")


@pytest.mark.parametrize("case,expected", G.RECORD_CASES)
def test_generated_record_cases_route_as_documented(case, expected):
    reasons, parsed, notes = A.check_records_row(dict(zip(A.RECORD_COLS, ("r",) + case)))
    assert (reasons, notes) == ([], [])
    assert A.route(parsed, A.DEFAULT_GOLD_TASK_TYPES, Decimal("0.65")) == expected


@pytest.mark.parametrize("case", G.BAD_RECORD_CASES)
def test_bad_record_rows_are_rejected(case):
    reasons, _, _ = A.check_records_row(dict(zip(A.RECORD_COLS, ("r",) + case)))
    assert reasons


def test_tiers_and_rows_by_hand(tmp_path):
    t = "2025-03-01T10:00:00Z"
    gen = [
        # r1: absent from records, two voters (h1 and guest, who is not in annotators.csv)
        G.generation_row("r1", "h1", t, "true"), G.generation_row("r1", "guest", t, "false"),
        # r2: absent, one voter + adjudicator + LLM judge -> tier_a (they do not vote)
        G.generation_row("r2", "h1", t, "true"), G.generation_row("r2", "adj", t, "false"),
        G.generation_row("r2", "llm", t, "false"),
        # r3: in records with no rule, two voters -> tier_a (the voter count is not looked at)
        G.generation_row("r3", "h1", t, "true"), G.generation_row("r3", "h2", t, "true"),
        # r4: records row rejected (model_uncertainty not a decimal) -> absent -> 2 voters -> b
        G.generation_row("r4", "h1", t, "false"), G.generation_row("r4", "h2", t, "false"),
        # r5: explicit tier_b on a single voter; h2's row is rejected (not a vote)
        G.generation_row("r5", "h1", t, "true"), G.generation_row("r5", "h2", t, "maybe"),
        # r6: two differing records rows -> both rejected -> absent -> 1 voter -> tier_a
        G.generation_row("r6", "h2", t, "true"),
        # r7: identical duplicate rows count once -> rag_synthesis -> tier_b
        G.generation_row("r7", "h1", t, "true"), G.generation_row("r7", "h2", t, "false"),
    ]
    recs = [("r3", "summarization", "0.2", "no", ""), ("r4", "factual_qa", "high", "", ""),
            ("r5", "", "", "", " tier_b "), ("r6", "summarization", "", "", ""),
            ("r6", "summarization", "", "", "tier_b"), ("r7", "rag_synthesis", "", "", ""),
            ("r7", "rag_synthesis", "", "", ""), ("", "factual_qa", "", "", "")]
    G.write_generation_case(tmp_path, gen, recs)
    a = A.compute(tmp_path)
    assert a.tiers["generation"] == {"r1": "tier_b", "r2": "tier_a", "r3": "tier_a",
                                     "r4": "tier_b", "r5": "tier_b", "r6": "tier_a",
                                     "r7": "tier_b"}
    assert set(a.records) == {"r3", "r5", "r7"}
    assert len(a.records_rejected) == 4        # r4, both r6 rows, the empty record_uuid
    rows = {(r["label"], r["tier"]): r for r in a.marts["annotator_agreement"]
            if r["slice_dimension"] == "overall"}
    # helpful, units with >= 2 votes: r1 (1,0) b, r3 (1,1) a, r4 (0,0) b, r7 (1,0) b
    # tier_b: 3 units, n = 6, n_1 = 2, n_0 = 4; numerator = 2 + 0 + 2 = 4, denominator 16
    #   alpha = 1 - 5*4/16 = -1/4; p_a = (0 + 1 + 0)/3 = 1/3;
    #   pi over b units with >= 1 vote (r1, r4, r5 (1), r7) = (1/2 + 0 + 1 + 1/2)/4 = 1/2
    #   -> p_e = 1/2, AC1 = (1/3 - 1/2)/(1/2) = -1/3; voters h1, guest, h2 -> 3
    b = rows[("helpful", "tier_b")]
    assert (b["n_units"], b["n_annotators"], b["n_pairable_values"]) == (3, 3, 6)
    assert b["krippendorff_alpha"] == pytest.approx(-0.25, abs=TOL)
    assert b["gwet_ac1"] == pytest.approx(-1 / 3, abs=TOL)
    assert b["meets_target"] is False
    # tier_a: only r3 (1,1) pairable: alpha null (one value), AC1: pi over r2 (1), r3, r6 (1)
    #   = 1 -> p_e = 0 -> AC1 = 1; meets_target null
    a_ = rows[("helpful", "tier_a")]
    assert (a_["n_units"], a_["n_annotators"], a_["krippendorff_alpha"], a_["gwet_ac1"],
            a_["meets_target"]) == (1, 2, None, 1.0, None)
    # all: 4 units, n = 8, n_1 = 4, n_0 = 4: alpha = 1 - 7*4/32 = 1/8
    assert rows[("helpful", "all")]["krippendorff_alpha"] == pytest.approx(0.125, abs=TOL)
    pairs = {(r["label"], r["annotator_a"], r["annotator_b"]): r
             for r in a.marts["annotator_pair_agreement"] if r["slice_dimension"] == "overall"}
    # helpful, h1-h2 share r3 (1,1), r4 (0,0), r7 (1,0): p_o = 2/3, pA1 = 2/3, pB1 = 1/3,
    #   p_e = 2/9 + 2/9 = 4/9 -> kappa = (2/3 - 4/9)/(5/9) = 2/5
    hh = pairs[("helpful", "h1", "h2")]
    assert (hh["n_shared_units"], hh["observed_agreement"]) == (3, pytest.approx(2 / 3))
    assert hh["cohen_kappa"] == pytest.approx(0.4, abs=TOL)
    assert ("helpful", "guest", "h1") in pairs and ("helpful", "adj", "h1") not in pairs


# =========================================================================== builds

def agr(b) -> A.AgreementReference:
    """The agreement reference of a build's seeds (as loaded)."""
    return b.derived("agreement", lambda: A.compute(b.seed_dir, null_mode=b.null_mode or "agate"))


def _built(builds, name):
    return builds.get(BUILD_OF[name]).check()


@pytest.mark.parametrize("name", SCENARIOS)
def test_build_and_columns(builds, name):
    b = _built(builds, name)
    assert b.loader_problem is None, f"[{name}] {b.loader_problem}"
    for mart, cols in (("annotator_agreement", A.AGREEMENT_COLUMNS),
                       ("annotator_pair_agreement", A.PAIR_COLUMNS)):
        assert_has_columns(name, mart, b.marts.get(mart), cols)


@pytest.mark.parametrize("name", SCENARIOS)
def test_reference_is_unambiguous(builds, name):
    b = _built(builds, name)
    assert agr(b).ambiguities == [], agr(b).ambiguities


@pytest.mark.parametrize("name", SCENARIOS)
def test_annotator_agreement(builds, name):
    b = _built(builds, name)
    assert_same_rows(name, "annotator_agreement", AG_KEY, A.AGREEMENT_COLUMNS[5:],
          agr(b).marts["annotator_agreement"], b.marts["annotator_agreement"][1])


@pytest.mark.parametrize("name", SCENARIOS)
def test_annotator_pair_agreement(builds, name):
    b = _built(builds, name)
    assert_same_rows(name, "annotator_pair_agreement", PAIR_KEY, A.PAIR_COLUMNS[6:],
          agr(b).marts["annotator_pair_agreement"], b.marts["annotator_pair_agreement"][1])


# =========================================================================== cross-checks

def _direct_label(unit_votes: dict) -> dict:
    """Direct (float, pairwise-enumeration) versions of p_a, AC1, prevalence for one tier."""
    units = [list(v.values()) for v in unit_votes.values()]
    pairable = [u for u in units if len(u) >= 2]
    p_a = sum(sum(u[i] == u[j] for i in range(len(u)) for j in range(len(u)) if i != j)
              / (len(u) * (len(u) - 1)) for u in pairable) / len(pairable)
    pi1 = sum(sum(u) / len(u) for u in units) / len(units)
    p_e = pi1 * (1 - pi1) + (1 - pi1) * pi1
    ones = sum(sum(u) for u in pairable)
    total = sum(len(u) for u in pairable)
    return {"observed_agreement": p_a, "gwet_ac1": (p_a - p_e) / (1 - p_e),
            "prevalence": ones / total, "n_units": len(pairable), "n_pairable_values": total,
            "n_annotators": len({a for v in unit_votes.values() if len(v) >= 2 for a in v})}


def _package_alpha(unit_votes: dict):
    """krippendorff.alpha on the coders x units matrix of the units with >= 2 votes."""
    import krippendorff

    pairable = [v for v in unit_votes.values() if len(v) >= 2]
    coders = sorted({a for v in pairable for a in v})
    mat = np.full((len(coders), len(pairable)), np.nan)
    for j, v in enumerate(pairable):
        for a, val in v.items():
            mat[coders.index(a), j] = val
    if len({val for v in pairable for val in v.values()}) < 2:
        return None          # one value only: the package refuses, the contract says null
    return float(krippendorff.alpha(reliability_data=mat, level_of_measurement="nominal"))


def _direct_kappa(pairs):
    """Closed form from the 2x2 table: 2(ad - bc) / ((a+b)(b+d) + (a+c)(c+d))."""
    a = sum(1 for x, y in pairs if x == 1 and y == 1)
    b = sum(1 for x, y in pairs if x == 1 and y == 0)
    c = sum(1 for x, y in pairs if x == 0 and y == 1)
    d = sum(1 for x, y in pairs if x == 0 and y == 0)
    den = (a + b) * (b + d) + (a + c) * (c + d)
    return None if den == 0 else 2 * (a * d - b * c) / den


def _mart_rows(b, mart, key):
    return {tuple(r[c] for c in key): r for r in b.marts[mart][1]}


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_agreement(builds, name):
    """Every (task, label, tier) of the reference, and its mart row (which must exist), against
    the krippendorff package (alpha) and the direct formulas (p_a, AC1, prevalence, counts)."""
    b = _built(builds, name)
    mart = _mart_rows(b, "annotator_agreement", AG_KEY)
    problems = []
    for row in agr(b).marts["annotator_agreement"]:
        key = tuple(row[c] for c in AG_KEY)
        uv = agr(b).unit_votes(row["task"], row["label"], row["tier"], row["slice_dimension"],
                               row["slice_value"])
        want = _direct_label(uv)
        want["krippendorff_alpha"] = _package_alpha(uv)
        problems += value_differences(("reference", key), want, row, "direct/package")
        problems += value_differences(("mart", key), want, mart.get(key), "direct/package")
    fail_on(problems, name, "annotator_agreement against the direct formulas")


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_pairs(builds, name):
    b = _built(builds, name)
    mart = _mart_rows(b, "annotator_pair_agreement", PAIR_KEY)
    try:
        from sklearn.metrics import cohen_kappa_score
    except ImportError:
        cohen_kappa_score = None
    problems = []
    for row in agr(b).marts["annotator_pair_agreement"]:
        key = tuple(row[c] for c in PAIR_KEY)
        uv = agr(b).unit_votes(row["task"], row["label"], "all", row["slice_dimension"],
                               row["slice_value"])
        pairs = [(v[row["annotator_a"]], v[row["annotator_b"]]) for v in uv.values()
                 if row["annotator_a"] in v and row["annotator_b"] in v]
        want = {"n_shared_units": len(pairs),
                "observed_agreement": sum(x == y for x, y in pairs) / len(pairs),
                "cohen_kappa": _direct_kappa(pairs)}
        if cohen_kappa_score is not None and want["cohen_kappa"] is not None:
            sk = float(cohen_kappa_score([x for x, _ in pairs], [y for _, y in pairs]))
            if not same_value(sk, want["cohen_kappa"]):
                problems.append(f"sklearn {key}: {sk} vs closed form {want['cohen_kappa']}")
        problems += value_differences(("reference", key), want, row, "direct")
        problems += value_differences(("mart", key), want, mart.get(key), "direct")
    fail_on(problems, name, "annotator_pair_agreement against the direct formulas")


def test_sklearn_kappa_on_hand_cases():
    sk = pytest.importorskip("sklearn.metrics")
    for pairs in ([(1, 0), (1, 0), (0, 1), (0, 1)], [(1, 1), (0, 0), (1, 0)],
                  [(0, 0)] * 9 + [(1, 0)]):
        got = sk.cohen_kappa_score([x for x, _ in pairs], [y for _, y in pairs])
        assert got == pytest.approx(float(A.pair_stats(pairs)["cohen_kappa"]), abs=TOL)


# =========================================================================== scenario coverage

def test_generated_scenario_covers_the_cases(builds):
    """The generated data really exercises what the comparisons are meant to cover."""
    b = builds.get("agreement").check()
    a = agr(b)
    sizes = Counter(len(v) for t in R.TASKS for v in a.votes[t].values())
    assert {1, 2, 3, 4} <= set(sizes), sizes
    rows = {tuple(r[c] for c in AG_KEY[:3]): r for r in a.marts["annotator_agreement"]
            if r["slice_dimension"] == "overall"}
    tiers = Counter(k[2] for k in rows)
    assert tiers["tier_a"] >= 10 and tiers["tier_b"] >= 10, tiers
    for task, label in G.RARE_LABELS:
        prev = rows[(task, label, "all")]["prevalence"]
        assert 0.01 <= prev <= 0.07, (task, label, prev)
    for task, label in G.PERFECT_LABELS:
        for tier in A.TIERS:
            r = rows[(task, label, tier)]
            assert r["krippendorff_alpha"] == 1.0 and r["gwet_ac1"] == 1.0, r
            assert r["observed_agreement"] == 1.0
    # every routing rule decides some record that has a unit with two votes, in some family
    decided = Counter()
    for t in R.TASKS:
        for u, v in a.votes[t].items():
            if len(v) >= 2:
                decided[(a.tier_reason[t][u[0]], a.tiers[t][u[0]])] += 1
    for rule_tier in [("explicit", "tier_a"), ("explicit", "tier_b"), ("task_type", "tier_b"),
                      ("uncertainty", "tier_b"), ("adversarial", "tier_b"),
                      ("default", "tier_a"), ("voters", "tier_b")]:
        assert decided[rule_tier] > 0, (rule_tier, decided)
    # absent records with a single voter land in tier_a (they have no pairable unit, but their
    # single votes enter AC1's pi of tier_a)
    assert any(a.tier_reason[t][rid] == "voters" and a.tiers[t][rid] == "tier_a"
               for t in R.TASKS for rid in a.tiers[t])
    # rejected records rows whose record has votes (treated as absent)
    rejected_ids = {raw.get("record_uuid") for _, raw, _ in a.records_rejected}
    assert any(rid in rejected_ids and a.tier_reason[t][rid] == "voters"
               for t in R.TASKS for rid in a.tiers[t])
    # a record absent from records.csv in tier_b for one family and tier_a for another
    why = a.tier_reason
    assert any(why["grounding"].get(rid) == "voters" == why["generation"].get(rid)
               and a.tiers["grounding"][rid] != a.tiers["generation"][rid]
               for rid in a.tiers["grounding"])


# =========================================================================== jackknife intervals
#
# Direct leave-one-record-out recomputations, independent of reference/agreement.py: alpha of
# the remaining units with the ``krippendorff`` package, AC1 and kappa by the direct formulas
# above (kappa also with scikit-learn on the sample), t from scipy.stats.t and Phi from
# scipy.stats.norm.

def _jackknife_bounds(theta, replicates):
    from scipy import stats

    values = [v for v in replicates if v is not None]
    g = len(values)
    if g == 0:
        se = None
    elif max(values) - min(values) == 0:
        se = 0.0
    else:
        mean = float(np.mean(values))
        se = float(np.sqrt((g - 1) / g * np.sum((np.array(values) - mean) ** 2)))
    if theta is None or g < 2:
        return se, None, None
    t = stats.t.ppf(0.975, g - 1)
    return se, max(-1.0, theta - t * se), min(1.0, theta + t * se)


def _by_record(unit_votes: dict) -> dict:
    out: dict = {}
    for unit, votes in unit_votes.items():
        out.setdefault(unit[0], {})[unit] = votes
    return out


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_alpha_and_ac1_jackknife(builds, name):
    """Every annotator_agreement row's alpha and AC1 intervals and p_alpha_below_target against
    a leave-one-record-out recomputation with the krippendorff package and the direct formulas."""
    from scipy import stats

    b = _built(builds, name)
    problems = []
    for got in b.marts["annotator_agreement"][1]:
        uv = agr(b).unit_votes(got["task"], got["label"], got["tier"], got["slice_dimension"],
                               got["slice_value"])
        records = _by_record(uv)
        left_out = [r for r, units in records.items() if any(len(v) >= 2 for v in units.values())]
        alphas, ac1s = [], []
        for rec in left_out:
            rest = {u: v for u, v in uv.items() if u[0] != rec}
            has_pairable = any(len(v) >= 2 for v in rest.values())
            alphas.append(_package_alpha(rest) if has_pairable else None)
            ac1s.append(_direct_label(rest)["gwet_ac1"] if has_pairable else None)
        alpha = _package_alpha(uv)
        ac1 = _direct_label(uv)["gwet_ac1"]
        se_alpha, lo, hi = _jackknife_bounds(alpha, alphas)
        _, ac1_lo, ac1_hi = _jackknife_bounds(ac1, ac1s)
        p = (None if alpha is None or not se_alpha else
             float(stats.norm.cdf((got["alpha_target"] - alpha) / se_alpha)))
        want = {"alpha_ci_lower": lo, "alpha_ci_upper": hi, "ac1_ci_lower": ac1_lo,
                "ac1_ci_upper": ac1_hi, "p_alpha_below_target": p}
        problems += value_differences(tuple(got[c] for c in AG_KEY), want, got, "leave-one-out", "mart")
    fail_on(problems, name, "annotator_agreement intervals against a leave-one-record-out recomputation")


@pytest.mark.parametrize("name", SCENARIOS)
def test_cross_check_pair_kappa_jackknife(builds, name):
    b = _built(builds, name)
    sk = None
    if name == "sample":
        sk = pytest.importorskip("sklearn.metrics").cohen_kappa_score
    problems = []
    for got in b.marts["annotator_pair_agreement"][1]:
        a_, b_ = got["annotator_a"], got["annotator_b"]
        uv = agr(b).unit_votes(got["task"], got["label"], "all", got["slice_dimension"],
                               got["slice_value"])
        shared = {u: (v[a_], v[b_]) for u, v in uv.items() if a_ in v and b_ in v}
        records = sorted({u[0] for u in shared})
        kappas = []
        for rec in records:
            rest = [p for u, p in shared.items() if u[0] != rec]
            k = _direct_kappa(rest) if rest else None
            if sk is not None and k is not None:
                k_sk = float(sk([x for x, _ in rest], [y for _, y in rest]))
                if not same_value(k_sk, k):
                    problems.append(f"sklearn and the closed form differ: {k_sk} {k}")
            kappas.append(k)
        _, lo, hi = _jackknife_bounds(_direct_kappa(list(shared.values())), kappas)
        problems += value_differences(tuple(got[c] for c in PAIR_KEY), {"kappa_ci_lower": lo, "kappa_ci_upper": hi},
                                      got, "leave-one-out", "mart")
    fail_on(problems, name, "annotator_pair_agreement intervals against a leave-one-record-out recomputation")


def test_jackknife_three_records_by_hand():
    """The three-record case of the dbt unit test agreement_jackknife_by_record, with the package:
    r1 (0,0,0), r2 (1,1,1), r3 (0,0) and (1,0); alpha 5/8, replicates 1/2, 0, 1, SE = sqrt(1/3);
    and a record whose removal leaves one value only (alpha undefined): no replicate."""
    units = {("r1", "c1"): {"a": 0, "b": 0, "c": 0}, ("r2", "c1"): {"a": 1, "b": 1, "c": 1},
             ("r3", "c1"): {"a": 0, "b": 0}, ("r3", "c2"): {"a": 1, "b": 0}}
    assert _package_alpha(units) == pytest.approx(5 / 8, abs=TOL)
    reps = [_package_alpha({u: v for u, v in units.items() if u[0] != rec})
            for rec in ("r1", "r2", "r3")]
    assert reps == pytest.approx([0.5, 0.0, 1.0], abs=TOL)
    se, lo, hi = _jackknife_bounds(5 / 8, reps)
    assert se == pytest.approx(math.sqrt(1 / 3), abs=TOL)
    assert (lo, hi) == (-1.0, 1.0)              # 5/8 -/+ 4.303 * 0.577, clipped
    jk = A.jackknife(Fraction(5, 8), [Fraction(1, 2), Fraction(0), Fraction(1)])
    assert (jk["n"], jk["se"]) == (3, pytest.approx(math.sqrt(1 / 3), abs=TOL))
    # r2 holds every 1: without it alpha is undefined (the package refuses one value)
    undefined = {("r1", "c1"): {"a": 0, "b": 0}, ("r2", "c1"): {"a": 1, "b": 1},
                 ("r3", "c1"): {"a": 0, "b": 0, "c": 0}}
    assert _package_alpha({u: v for u, v in undefined.items() if u[0] != "r2"}) is None
    jk = A.jackknife(Fraction(1), [Fraction(1), None, Fraction(1)])
    assert (jk["n"], jk["se"], jk["lower"], jk["upper"]) == (2, 0.0, 1.0, 1.0)
    assert A.probability_below(Fraction(1), jk["se"], 0.75) is None


# =========================================================================== slices

def test_slices_below_target_behind_a_pooled_figure_above_it(builds):
    """The slices scenario is built so that one task type and one language disagree: on each
    family's built label their slices miss the alpha target (and are probably below it) while
    the pooled figure meets it; the slices of a dimension partition the overall units."""
    b = builds.get(BUILD_OF["slices"]).check()
    rows = _mart_rows(b, "annotator_agreement", AG_KEY)
    for task, label in G.SLICE_LABELS.items():
        overall = rows[(task, label, "all", "overall", "overall")]
        assert overall["meets_target"] is True, overall
        for dim, value in (("task_type", G.NOISY_TASK_TYPE), ("language", G.NOISY_LANGUAGE)):
            row = rows[(task, label, "all", dim, value)]
            assert row["meets_target"] is False and row["p_alpha_below_target"] > 0.8, row
            assert row["krippendorff_alpha"] < overall["krippendorff_alpha"] - 0.2, row
        for dim in A.SLICE_DIMENSIONS:
            parts = [r for k, r in rows.items() if k[:3] == (task, label, "all") and k[3] == dim]
            assert sum(r["n_units"] for r in parts) == overall["n_units"], (task, label, dim)
            assert sum(r["n_pairable_values"] for r in parts) == overall["n_pairable_values"]
    values = {(k[3], k[4]) for k in rows}
    # trimmed (" summarization "), and blank or absent task types are unknown
    assert {("task_type", "summarization"), ("task_type", "unknown")} <= values, values
    assert not any(v != v.strip() for _, v in values), values


def test_overall_rows_are_the_rows_without_slices(builds):
    """The overall rows of the sample are the reference's rows computed with no slice at all
    (the statistics over every unit of the tier)."""
    b = builds.get(BUILD_OF["sample"]).check()
    a = agr(b)
    problems = []
    for got in b.marts["annotator_agreement"][1]:
        if got["slice_dimension"] != "overall":
            continue
        assert got["slice_value"] == "overall", got
        uv = a.unit_votes(got["task"], got["label"], got["tier"])
        want = _direct_label(uv)
        want["krippendorff_alpha"] = _package_alpha(uv)
        problems += value_differences(tuple(got[c] for c in AG_KEY), want, got, "no slice", "mart")
    fail_on(problems, "sample", "annotator_agreement overall rows against every unit of the tier")
