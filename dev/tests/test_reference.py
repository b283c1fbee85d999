"""Self-tests of the core of the reference package: values computed by hand from fixtures/edge_cases
(see fixtures/make_edge_cases.py for the rows).  No dbt needed."""

import math
from pathlib import Path

import pytest
import reference as R

EDGE = Path(__file__).parent / "fixtures" / "edge_cases"
L3, L5, L7 = math.log2(3), math.log2(5), math.log2(7)


@pytest.fixture(scope="module")
def ref():
    return R.compute(EDGE)


@pytest.fixture(scope="module")
def ref_repair():
    return R.compute(EDGE, constraint_policy="repair")


def rec(ref, task, rec_id):
    return ref.records[task][rec_id]


def by_key(ref, family, metric, k=None, dim="overall", value="all"):
    rows = [r for r in ref.marts["metric_values"]
            if (r["family"], r["metric"], r["k"], r["slice_dimension"], r["slice_value"])
            == (family, metric, k, dim, value)]
    assert len(rows) == 1
    return rows[0]


# ------------------------------------------------------------------ parsing

@pytest.mark.parametrize("text,ok", [
    ("2025-03-01T10:15:00", True), ("2025-03-01 10:15:00", True), ("2025-03-01T10:15", True),
    ("2025-03-01T10:15:00.123456Z", True), ("2025-03-01T10:15:00+02:00", True),
    ("2025-03-01T10:15:00-05:30", True), ("2025-03-01", False), ("2025-03-01T24:00:00", False),
    ("2025-02-29T10:00:00", False), ("2024-02-29T10:00:00", True), ("garbage", False),
    ("2025-03-01T10:15:00+0200", True), ("2025-03-01T10:15:00+02", True), ("2025-03-01T10:15:00+02:3", False),
    ("2025-03-01T10:15:00+2", False), ("0000-03-01T10:15:00", False), ("0001-01-01T00:00:00", True),
    ("2025-03-01T10:60:00", False),
])
def test_timestamp_parsing(text, ok):
    assert (R.parse_timestamp(text) is not None) == ok


def test_timestamp_instants():
    p = R.parse_timestamp
    assert p("2025-03-01T12:00:00+02:00") == p("2025-03-01T10:00:00Z") == p("2025-03-01 10:00:00")
    assert p("2025-03-01T09:00:00-02:00") > p("2025-03-01T10:30:00Z")
    assert p("2025-03-01T10:00:00.5Z") - p("2025-03-01T10:00:00Z") == R.Fraction(1, 2)


@pytest.mark.parametrize("text,val", [
    ("true", 1), (" Yes ", 1), ("T", 1), ("1", 1), ("y", 1), ("FALSE", 0), ("n", 0), ("0", 0),
    ("f", 0), ("no", 0), ("maybe", None), ("", None), (None, None), ("2", None), ("ja", None),
])
def test_booleans(text, val):
    assert R.parse_bool(text) == val


@pytest.mark.parametrize("text,val", [("1", 1), (" 02 ", 2), ("0", None), ("-1", None),
                                      ("1.5", None), ("abc", None), ("2.0", 2), ("3.00", 3), ("0.0", None),
                                      ("2.", None), ("2.01", None), ("", None)])
def test_ranks(text, val):
    assert R.parse_rank(text) == val


def test_loader_modes():
    assert R.load_cell("", "copy") is None and R.load_cell("", "agate") is None
    assert R.load_cell(" NULL ", "agate") is None and R.load_cell(" NULL ", "copy") == " NULL "
    assert R.load_cell("  ", "agate") is None and R.load_cell("  ", "copy") == "  "


def test_wilson_and_t():
    lo, hi = R.wilson(0.25, 4)
    # centre (0.25 + 1.96^2/8)/(1 + 1.96^2/4), half 1.96*sqrt(0.25*0.75/4 + 1.96^2/64)/(1+0.9604)
    centre = (0.25 + 0.4802) / 1.9604
    half = 1.96 * math.sqrt(0.046875 + 0.060025) / 1.9604
    assert lo == pytest.approx(centre - half) and hi == pytest.approx(centre + half)
    assert R.wilson(None, 0) == (None, None)
    assert R.t_interval([0.5]) == (None, None)
    # equal values (s = 0): the Wilson interval of the value with n, never zero width
    assert R.t_interval([0.0] * 57) == R.wilson(0.0, 57) and R.wilson(0.0, 57)[1] > 0.06
    assert R.t_interval([0.25, 0.25]) == R.wilson(0.25, 2)
    lo, hi = R.t_interval([0.0, 1.0], 1.96)   # mean .5, s = .7071, half = 1.96*.7071/1.4142 = .98
    assert lo == pytest.approx(0.0) and hi == pytest.approx(1.0)
    lo, hi = R.t_interval([0.2, 0.4], 1.96)   # s = .141421, half = 1.96*.1 = .196
    assert lo == pytest.approx(0.104) and hi == pytest.approx(0.496)
    # with t_0.975(1) = tan(0.475 pi) = 12.7062...: half = 12.7062 * .1 = 1.27062, clipped
    assert R.t_quantile(1) == pytest.approx(math.tan(0.475 * math.pi), abs=1e-12)
    assert R.t_interval([0.2, 0.4]) == (0.0, 1.0)
    # n = 3: [0.5, 0.55, 0.6], s = 0.05, t_0.975(2) = 4.302652729749464 (closed form for df 2:
    # t = (2p - 1)/sqrt(2p(1 - p)), p = 0.975); half = 4.30265 * 0.05/sqrt(3) = 0.124207
    t2 = 0.95 / math.sqrt(2 * 0.975 * 0.025)
    assert R.t_quantile(2) == pytest.approx(t2, abs=1e-12)
    lo, hi = R.t_interval([0.5, 0.55, 0.6])
    assert lo == pytest.approx(0.55 - t2 * 0.05 / math.sqrt(3), abs=1e-12)
    assert hi == pytest.approx(0.55 + t2 * 0.05 / math.sqrt(3), abs=1e-12)


def test_wilson_at_k1():
    # Wilson for the measures that are 0 or 1 per record at that K, the t interval otherwise
    assert R.uses_wilson("sufficiency_hit", 5) and R.uses_wilson("helpfulness_rate", None)
    for metric in ("topical_precision", "sufficiency_rate", "misleading_context_rate", "mrr"):
        assert R.uses_wilson(metric, 1) and not R.uses_wilson(metric, 3)
    assert not R.uses_wilson("ndcg", 1)
    row = R.metric_row("retrieval", "mrr", 1, "overall", "all", [1.0, 0.0, 0.0, 1.0])
    assert (row["ci_lower"], row["ci_upper"]) == R.wilson(0.5, 4)


# ------------------------------------------------------------------ statuses and reasons

def test_accounting(ref):
    for task in R.TASKS:
        c = ref.counts(task)
        assert sum(c.values()) == len(ref.rows[task])
        assert set(c) <= {"accepted", "rejected", "superseded"}
    assert dict(ref.counts("retrieval")) == {"accepted": 47, "rejected": 42, "superseded": 6}
    assert dict(ref.counts("grounding")) == {"accepted": 15, "rejected": 10, "superseded": 1}
    assert dict(ref.counts("generation")) == {"accepted": 13, "rejected": 6, "superseded": 3}
    assert ref.ambiguities == []


def test_every_reason_code_occurs(ref, ref_repair):
    codes = {c for r in ref.marts["rejected_annotations"] for c in r["reasons"].split(";")}
    generic = {c.split(":")[0] + ":" if ":" in c and c.startswith(("missing", "invalid_boolean"))
               else c for c in codes}
    assert {"missing:", "invalid_boolean:", "invalid_rank", "invalid_timestamp",
            "invalid_language", "wrong_task", "violates:sufficient_implies_relevant",
            "violates:sufficient_excludes_misleading",
            "violates:contradicted_implies_unsupported", "violates:fabricated_implies_cited",
            "rank_conflict", "conflicting_duplicate"} <= generic
    assert "invalid_boolean:can_answer" in codes


def reasons_of(ref, task, record, annotator, chunk=None):
    return sorted(r["reasons"] for r in ref.marts["rejected_annotations"]
                  if (r["task"], r["record_uuid"], r["annotator_id"], r["chunk_id"])
                  == (task, record, annotator, chunk))


def test_specific_reasons(ref, ref_repair):
    assert reasons_of(ref, "retrieval", "rb17", "a1", "cb17") == [
        "invalid_rank;missing:chunk;missing:input_query"]
    assert reasons_of(ref, "retrieval", "r10", "a2", "c10c") == [
        "violates:sufficient_excludes_misleading;violates:sufficient_implies_relevant"]
    # under repair only the exclusion code remains, and c10a is repaired and accepted
    assert reasons_of(ref_repair, "retrieval", "r10", "a2", "c10c") == [
        "violates:sufficient_excludes_misleading"]
    assert reasons_of(ref_repair, "retrieval", "r10", "a1", "c10a") == []
    assert reasons_of(ref, "retrieval", "r09", "a2", "c09c") == ["rank_conflict"]
    assert reasons_of(ref, "retrieval", "r09", "llm1", "c09c") == ["rank_conflict"]
    assert reasons_of(ref, "retrieval", "r09", "a3", "c09a") == ["invalid_language"]
    assert reasons_of(ref, "retrieval", "r11", "a1", "c11a") == ["conflicting_duplicate"] * 2
    assert reasons_of(ref, "retrieval", "r11", "a1", "c11b") == []          # clean one kept
    assert reasons_of(ref, "retrieval", "r11", "a1", "c11c") == ["missing:chunk"]
    assert reasons_of(ref, "retrieval", "r01", "a1", "c01a") == []           # old 'fr' row
    assert reasons_of(ref, "retrieval", "r02", "a1", "c02c") == [
        "invalid_boolean:topically_relevant"]
    assert reasons_of(ref, "retrieval", "rb14", "a1", "cb14") == ["invalid_language"]  # 'EN'
    assert reasons_of(ref, "retrieval", "rb20", "a1", "cb20") == ["wrong_task"]        # case
    assert reasons_of(ref, "retrieval", "rb07", "a1", "cb07") == ["invalid_timestamp"]  # 24:00
    assert reasons_of(ref, "grounding", "g11", "a1") == [
        "conflicting_duplicate", "conflicting_duplicate;invalid_boolean:fabricated_source"]
    assert reasons_of(ref, "grounding", "g09", "a1") == [
        "violates:contradicted_implies_unsupported;violates:fabricated_implies_cited"]
    assert reasons_of(ref_repair, "grounding", "g09", "a1") == []
    assert reasons_of(ref, "retrieval", "r06", "a1", "c06c") == ["rank_conflict"]
    assert reasons_of(ref, "retrieval", "r06", "a2", "c06d") == ["rank_conflict"]
    assert reasons_of(ref, "retrieval", "rb21", "a1", "cb21") == ["invalid_rank"]      # '+1'
    assert reasons_of(ref, "retrieval", "rb22", "a1", "cb22") == ["invalid_rank"]      # '2.'
    assert reasons_of(ref, "retrieval", "rb23", "a1", "cb23") == ["invalid_rank"]      # '2.01'
    assert reasons_of(ref, "retrieval", "rb24", "a1", "cb24") == ["invalid_rank"]      # '0.0'
    assert reasons_of(ref, "retrieval", "rb25", "a1", "cb25") == ["invalid_timestamp"]  # +2
    assert reasons_of(ref, "retrieval", "rb26", "a1", "cb26") == ["invalid_timestamp"]  # year 0000
    assert reasons_of(ref, "retrieval", "rb27", "a1", "cb27") == ["invalid_timestamp"]  # +02:3
    assert reasons_of(ref, "retrieval", "rb03", "a1", None) == ["missing:chunk_id"] * 2
    assert reasons_of(ref, "retrieval", "r10", "a1", "c10d") == [
        "conflicting_duplicate", "conflicting_duplicate;violates:sufficient_implies_relevant"]
    assert reasons_of(ref_repair, "retrieval", "r10", "a1", "c10d") == [
        "conflicting_duplicate", "conflicting_duplicate"]
    # 10:00:00.5Z and 12:00:00.500+02:00 are the same instant
    assert reasons_of(ref, "grounding", "g16", "a1") == ["conflicting_duplicate"] * 2
    assert reasons_of(ref, "generation", "e02", "adj") == ["invalid_boolean:response_on_topic"]
    assert reasons_of(ref, "generation", "e07", "a1") == ["invalid_language"]
    assert reasons_of(ref, "generation", "e11", "a1") == ["missing:query"]       # blank
    # rows without a record_uuid / annotator / created_at still appear, with nulls
    assert reasons_of(ref, "retrieval", None, "a1", "cb01") == ["missing:record_uuid"]
    assert reasons_of(ref, "retrieval", "rb02", None, "cb02") == ["missing:annotator_id"]


def test_null_literal_depends_on_loader():
    agate = R.compute(EDGE, null_mode="agate")
    copy = R.compute(EDGE, null_mode="copy")
    assert reasons_of(agate, "retrieval", "rb19", "a1", "cb19") == ["missing:evidence_sufficient"]
    assert reasons_of(copy, "retrieval", "rb19", "a1", "cb19") == [
        "invalid_boolean:evidence_sufficient"]


def test_superseding_by_instant(ref):
    rows = {(r.record_uuid, r.annotator_id, r.chunk_id, r.created_at): r.status
            for r in ref.rows["retrieval"]}
    # 10:00 without zone (UTC) is later than 11:00+02:00 (09:00Z)
    assert rows[("r08", "ghost", "c08a", "2025-03-01T10:00:00")] == "accepted"
    assert rows[("r08", "ghost", "c08a", "2025-03-01T11:00:00+02:00")] == "superseded"
    # invalid timestamp: no part in superseding, rejected
    assert rows[("r07", "a3", "c07a", "yesterday")] == "rejected"
    assert rows[("r07", "a3", "c07a", "2025-03-01T09:00:00Z")] == "accepted"
    # the latest submission is rejected: the earlier valid one is still superseded
    assert rows[("r02", "a1", "c02c", "2025-03-01T09:00:00Z")] == "superseded"
    g = [(r.created_at, r.status) for r in ref.rows["generation"] if r.record_uuid == "e04"
         and r.annotator_id == "a1"]
    assert sorted(g) == [("2025-03-01T10:00:00", "accepted"),
                         ("2025-03-01T11:00:00+02:00", "superseded")]


# ------------------------------------------------------------------ consensus

def test_consensus_methods(ref):
    u = ref.units["retrieval"]
    assert u[("r04", "c04a")]["method"] == dict.fromkeys(R.TASKS["retrieval"]["labels"],
                                                         "adjudicated")
    assert {"topically_relevant": 0, "evidence_sufficient": 0,
            "misleading": 1}.items() <= u[("r04", "c04a")]["labels"].items()   # adj2 (11:00Z) beats adj (10:30Z)
    assert u[("r05", "c05a")]["method"]["evidence_sufficient"] == "tied"
    assert u[("r05", "c05a")]["method"]["topically_relevant"] == "adjudicated"
    assert u[("r06", "c06a")]["method"]["topically_relevant"] == "tied"
    assert u[("r07", "c07a")]["method"]["topically_relevant"] == "majority"
    assert u[("r07", "c07a")]["labels"]["misleading"] == 0
    assert u[("r08", "c08a")]["method"]["topically_relevant"] == "single"
    assert u[("r01", "c01a")]["method"]["topically_relevant"] == "unanimous"
    assert ("r02", "c02c") not in u and ("r09", "c09c") not in u and ("r10", "c10a") not in u
    assert u[("r09", "c09a")]["rank"] == 1
    assert not rec(ref, "retrieval", "r05")["resolved"]
    assert not rec(ref, "retrieval", "r06")["resolved"]
    assert rec(ref, "retrieval", "r03")["language"] == "unknown"     # empty language
    assert rec(ref, "retrieval", "r12")["language"] == "unknown"     # de (human) + en (CODE)
    assert rec(ref, "retrieval", "r13")["language"] == "en"          # ' en ' trimmed
    assert rec(ref, "retrieval", "r08")["language"] == "en"          # from the LLM row only
    assert ("r07", "c07b") not in u                                  # LLM-only chunk
    assert not rec(ref, "generation", "e02")["resolved"]             # adjudication rejected
    assert "rb01" not in ref.records["retrieval"]
    g = ref.units["grounding"]
    assert {"support_present": 1, "unsupported_claim_present": 1, "contradicted_claim_present": 0, "source_cited": 1,
            "fabricated_source": 0}.items() <= g[("g03",)]["labels"].items()
    assert g[("g02",)]["labels"]["contradicted_claim_present"] == 1    # 1, 0, 1 -> majority
    assert ("g15",) not in g                                           # LLM only
    e = ref.units["generation"]
    assert e[("e06",)]["labels"]["proper_action"] == 0                 # adjudicator overrides 3
    assert e[("e04",)]["method"]["proper_action"] == "unanimous"


# ------------------------------------------------------------------ measures by hand

def test_ndcg_by_hand(ref):
    m = rec(ref, "retrieval", "r01")["measures"]
    # r01 grades by rank: [0, 2, 1, 2]
    # DCG@3  = 0/log2(2) + 3/log2(3) + 1/log2(4)          = 1.892789 + 0.5 = 2.392789
    # IDCG@3 = grades sorted [2, 2, 1, 0]: 3/1 + 3/log2(3) + 1/2 = 5.392789
    # NDCG@3 = 2.392789 / 5.392789 = 0.443701
    assert m[3]["ndcg"] == pytest.approx((3 / L3 + 0.5) / (3 + 3 / L3 + 0.5), abs=1e-12)
    assert m[3]["ndcg"] == pytest.approx(0.443701, abs=1e-6)
    assert m[1]["ndcg"] == 0.0
    # DCG@5 adds rank 4 (grade 2): 3/log2(5); IDCG@5 adds the grade-0 chunk (0)
    assert m[5]["ndcg"] == pytest.approx((3 / L3 + 0.5 + 3 / L5) / (3 + 3 / L3 + 0.5))
    assert m[10]["ndcg"] == m[5]["ndcg"]
    assert (m[1]["mrr"], m[3]["mrr"]) == (0.0, 0.5)
    # denominators are K even with 4 chunks only
    assert m[10]["topical_precision"] == pytest.approx(3 / 10)
    assert m[5]["sufficiency_rate"] == pytest.approx(2 / 5)
    assert m[1]["misleading_context_rate"] == 1.0
    assert (m[1]["sufficiency_hit"], m[3]["sufficiency_hit"]) == (0.0, 1.0)


def test_no_relevant_and_beyond_k(ref):
    m2 = rec(ref, "retrieval", "r02")["measures"]
    assert all(m2[k]["ndcg"] == 0 and m2[k]["mrr"] == 0 for k in (1, 3, 5, 10))  # IDCG = 0
    m3 = rec(ref, "retrieval", "r03")["measures"]
    # ranks 4 (grade 0) and 6 (grade 2): nothing relevant within 5
    assert [m3[k]["ndcg"] for k in (1, 3, 5)] == [0.0, 0.0, 0.0]
    # NDCG@10 = (3/log2(7)) / (3/log2(2)) = 1/log2(7) = 0.356207
    assert m3[10]["ndcg"] == pytest.approx(1 / L7)
    assert m3[10]["mrr"] == pytest.approx(1 / 6)
    assert m3[10]["topical_precision"] == pytest.approx(0.1)


def test_retrieval_mart_by_hand(ref, ref_repair):
    row = {r["k"]: r for r in ref.marts["retrieval_metrics"]}
    # resolved: r01 r02 r03 r04 r07 r08 r09 r10 r11 r12 r13; pending: r05 r06
    assert (row[3]["n_queries"], row[3]["n_pending_adjudication"]) == (11, 2)
    # NDCG@3 per record: r01 .443701, r04 r10 r13 1/log2(3) (grade at rank 2 only),
    # r07 r08 r09 r11 1, r02 r03 r12 0  ->  (0.443701 + 3*0.630930 + 4) / 11 = 0.576045
    r01 = (3 / L3 + 0.5) / (3 + 3 / L3 + 0.5)
    assert row[3]["ndcg_at_k"] == pytest.approx((r01 + 3 / L3 + 4) / 11)
    assert row[3]["ndcg_at_k"] == pytest.approx(0.576045, abs=1e-6)
    # MRR@3: r01 .5, r04 .5, r10 .5, r13 .5, r07 r08 r09 r11 1 -> 6/11
    assert row[3]["mrr_at_k"] == pytest.approx(6 / 11)
    # repair: c10a becomes (1, 1, 0) at rank 1 -> r10 NDCG@3 = 1, RR@3 = 1
    rrow = {r["k"]: r for r in ref_repair.marts["retrieval_metrics"]}
    assert rrow[3]["ndcg_at_k"] == pytest.approx((r01 + 2 / L3 + 5) / 11)
    assert rrow[3]["mrr_at_k"] == pytest.approx(6.5 / 11)
    assert rrow[1]["sufficiency_hit_at_k"] == pytest.approx(2 / 11)   # r08 and r10


def test_grounding_and_generation_by_hand(ref, ref_repair):
    g = ref.marts["grounding_metrics"][0]
    # resolved g01 g02 g03 g05 g06 g10, pending g04
    assert g == pytest.approx({
        "run_id": "default", "n_answers": 6, "n_pending_adjudication": 1, "grounding_presence_rate": 5 / 6,
        "unsupported_claim_rate": 3 / 6, "contradiction_rate": 2 / 6,
        "citation_presence_rate": 4 / 6, "n_cited_answers": 4,
        "conditional_fabrication_rate": 1 / 4})
    # repair adds g07 (0,1,1,0,0), g08 (1,0,0,1,1), g09 (1,1,1,1,1)
    g = ref_repair.marts["grounding_metrics"][0]
    assert g == pytest.approx({
        "run_id": "default", "n_answers": 9, "n_pending_adjudication": 1, "grounding_presence_rate": 7 / 9,
        "unsupported_claim_rate": 5 / 9, "contradiction_rate": 4 / 9,
        "citation_presence_rate": 6 / 9, "n_cited_answers": 6,
        "conditional_fabrication_rate": 3 / 6})
    e = ref.marts["generation_metrics"][0]
    # resolved e01 (1,1,1,0,0) e03 (0,0,0,1,1) e04 (1,1,1,0,0) e06 (0,1,1,0,0) e07 (1,1,1,1,0)
    assert e == pytest.approx({
        "run_id": "default", "n_answers": 5, "n_pending_adjudication": 1, "proper_action_rate": 3 / 5,
        "on_topic_rate": 4 / 5, "helpfulness_rate": 4 / 5, "incompleteness_rate": 2 / 5,
        "unsafe_content_rate": 1 / 5})
    assert ref_repair.marts["generation_metrics"] == ref.marts["generation_metrics"]


def test_metric_values_by_hand(ref):
    # conditional fabrication, 'de' slice: resolved records but none cited
    r = by_key(ref, "grounding", "conditional_fabrication_rate", dim="language", value="de")
    assert (r["value"], r["n_units"], r["ci_lower"], r["ci_upper"]) == (None, 0, None, None)
    r = by_key(ref, "grounding", "conditional_fabrication_rate")
    assert r["n_units"] == 4 and r["value"] == 0.25
    centre = (0.25 + 1.96 ** 2 / 8) / (1 + 1.96 ** 2 / 4)
    half = 1.96 * math.sqrt(0.25 * 0.75 / 4 + 1.96 ** 2 / 64) / (1 + 1.96 ** 2 / 4)
    assert (r["ci_lower"], r["ci_upper"]) == pytest.approx((centre - half, centre + half))
    # a t-style interval: MRR@10, 'unknown' slice = r03 (1/6) and r12 (0)
    r = by_key(ref, "retrieval", "mrr", 10, "language", "unknown")
    assert r["n_units"] == 2 and r["value"] == pytest.approx(1 / 12)
    assert r["ci_lower"] == 0.0                                  # clipped
    # the sample sd of {1/6, 0} is s = sqrt(2) / 12; t_0.975(1) = tan(0.475 pi) = 12.706 instead of
    # 1.96: 1/12 + 12.706 * s/sqrt(2) =
    # 1/12 + 12.706/12 = 1.142 > 1, clipped (with 1.96 it would be 1/12 + 1.96 * s/sqrt(2) = 0.2467)
    assert r["ci_upper"] == 1.0
    # at K = 1 MRR is 0 or 1 per record, so its interval is Wilson's
    r = by_key(ref, "retrieval", "mrr", 1)
    assert (r["ci_lower"], r["ci_upper"]) == R.wilson(r["value"], r["n_units"])
    # sufficiency_hit is Wilson: p = 0 with n = 3 still has a positive upper bound
    r = by_key(ref, "retrieval", "sufficiency_hit", 1, "language", "de")
    assert r["value"] == 0.0 and r["ci_upper"] == pytest.approx(1.96 ** 2 / 3 / (1 + 1.96 ** 2 / 3))
    # the generation 'unknown' slice does not exist (no resolved record without language)
    assert not [x for x in ref.marts["metric_values"]
                if x["family"] == "generation" and x["slice_value"] == "unknown"]
    slices = {(x["family"], x["slice_value"]) for x in ref.marts["metric_values"]}
    assert slices == {("retrieval", "all"), ("retrieval", "de"), ("retrieval", "en"),
                      ("retrieval", "unknown"), ("grounding", "all"), ("grounding", "de"),
                      ("grounding", "en"), ("grounding", "unknown"), ("generation", "all"),
                      ("generation", "de"), ("generation", "en")}
    n = len(ref.marts["metric_values"])
    assert n == 4 * 6 * 4 + 4 * 5 + 3 * 5


def test_generated_data_has_no_ambiguity(tmp_path):
    import generate

    generate.generate(tmp_path)
    for policy in ("reject", "repair"):
        for mode in ("agate", "copy"):
            ref = R.compute(tmp_path, constraint_policy=policy, null_mode=mode)
            assert ref.ambiguities == []
            assert len(ref.runs) == 3                        # default, v1, v2
            assert sum(r["n_queries"] for r in ref.marts["retrieval_metrics"] if r["k"] == 1) > 100


def test_runs_by_hand(tmp_path):
    """The edge cases split into runs by a records file: r01 alone in v2, the pending r05 alone in
    v3 (a run with no resolved record), r07 with an empty run_id and every other record without
    a records row stay in the default run; a records row without record_uuid names no run."""
    import shutil

    for f in EDGE.glob("*.csv"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "records.csv").write_text(
        "record_uuid,task_type,model_uncertainty,is_adversarial,tier,run_id,query_id\n"
        "r01,,,,,v2,q-1\n"
        "r05,,,,, v3 ,\n"
        "r07,,,,,,\n"
        ",,,,,v4,q-9\n")
    ref = R.compute(tmp_path)
    assert ref.runs == ["default", "v2", "v3"]
    row = {(r["run_id"], r["k"]): r for r in ref.marts["retrieval_metrics"]}
    # default: the 11 resolved records of test_retrieval_mart_by_hand but r01; r06 pending
    assert (row["default", 3]["n_queries"], row["default", 3]["n_pending_adjudication"]) == (10, 1)
    assert row["default", 3]["ndcg_at_k"] == pytest.approx((3 / L3 + 4) / 10)
    assert row["default", 3]["mrr_at_k"] == pytest.approx(5.5 / 10)
    r01 = (3 / L3 + 0.5) / (3 + 3 / L3 + 0.5)
    assert (row["v2", 3]["n_queries"], row["v2", 3]["n_pending_adjudication"]) == (1, 0)
    assert row["v2", 3]["ndcg_at_k"] == pytest.approx(r01)
    assert (row["v3", 3]["n_queries"], row["v3", 3]["n_pending_adjudication"]) == (0, 1)
    assert row["v3", 3]["ndcg_at_k"] is None
    assert not [r for r in ref.marts["metric_values"] if r["run_id"] == "v3"]
    # the answer families have no record in v2 or v3: zero answers there
    g = {r["run_id"]: r for r in ref.marts["grounding_metrics"]}
    assert (g["v2"]["n_answers"], g["v3"]["n_answers"], g["v2"]["n_pending_adjudication"]) == (0, 0, 0)
    # every answer stays in the default run: the counts of test_grounding_and_generation_by_hand
    assert (g["default"]["n_answers"], g["default"]["n_pending_adjudication"]) == (6, 1)
    assert ref.record_runs["retrieval"]["r01"]["pairing_key"] == "q-1"
    assert ref.record_runs["retrieval"]["r02"]["pairing_key"] == ref.record_runs["retrieval"]["r02"]["query_text"]
