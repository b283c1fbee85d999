"""ADR-001 protocol marts against an independent reference (reference/protocol.py):

* ``metric_values`` rows with ``slice_dimension = 'tier'``;
* ``labeling_protocol``, ``labeling_drift``, ``annotator_quality``;
* the work queues ``spot_check_queue`` (the weekly draw of triage records, counted against its
  inclusion probability) and ``adjudication_queue`` (against ``labeling_protocol.n_pending``).

Scenarios (conftest.py), shared with test_agreement.py:

* ``sample``    the project's own seeds (records.csv included);
* ``generated`` (scenario ``agreement``) generate.agreement_scenario(): 1-4 voters
                per unit, adjudications, every routing rule, records absent from records.csv,
                records whose only human rows are an adjudicator's, timestamps with offsets;
* ``spot_checks`` generate.spot_check_scenario(): hundreds of triage records a week over eight
                ISO weeks across a year's end, planned weekly spot-checks (none, too few, on the
                minimum, two weeks above the threshold), ties and adjudications (with data tests).

Numbers are compared to 1e-9 (absolute and relative); nulls must match nulls.
"""

from __future__ import annotations

import math
from datetime import date, datetime

import generate as G
import pytest
import reference as R
from kit.builds import PROJECT, SEED_FILES, project_seed_csvs
from kit.compare import assert_has_columns, assert_same_rows
from reference import protocol as P

TOL = 1e-9
SCENARIOS = ["sample", "generated", "slices", "spot_checks"]
MARTS = ["metric_values", "labeling_protocol", "labeling_drift", "annotator_quality",
         "spot_check_queue", "adjudication_queue"]


# =========================================================================== builds

# the conftest scenario of each
BUILD_OF = {"sample": "sample", "generated": "agreement", "slices": "agreement_slices",
            "spot_checks": "spot_checks"}
QUARTER = {"spot_check_rate_target": "0.25", "drift_min_spot_checks": "5"}   # vars of spot_checks_quarter
SCENARIOS_USED = list(BUILD_OF.values()) + ["spot_checks_quarter"]
def protocol_ref(b) -> P.ProtocolReference:
    """The protocol reference of a build's seeds (as loaded)."""
    return b.derived("protocol", lambda: P.compute(b.seed_dir, null_mode=b.null_mode or "agate"))


def _values(cols, key):
    return [c for c in cols if c not in key]


# =========================================================================== mart tests

@pytest.mark.parametrize("name", SCENARIOS)
def test_build_and_columns(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert b.loader_problem is None, f"[{name}] {b.loader_problem}"
    for mart, cols in (("metric_values", R.MART_COLUMNS["metric_values"]),
                       ("labeling_protocol", P.PROTOCOL_COLUMNS),
                       ("labeling_drift", P.DRIFT_COLUMNS),
                       ("annotator_quality", P.QUALITY_COLUMNS),
                       ("spot_check_queue", P.SPOT_CHECK_COLUMNS),
                       ("adjudication_queue", P.ADJUDICATION_COLUMNS)):
        assert_has_columns(name, mart, b.marts.get(mart), cols)


@pytest.mark.parametrize("name", SCENARIOS)
def test_reference_is_unambiguous(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert protocol_ref(b).agr.ambiguities == [], protocol_ref(b).agr.ambiguities
    # the only reading the data exercises: records without a voter (cost counts them single)
    others = [n for n in protocol_ref(b).notes if "without a voter" not in n]
    assert others == [], others


@pytest.mark.parametrize("name", SCENARIOS)
def test_metric_values_tier_slice(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    got = [r for r in b.marts["metric_values"][1] if r["slice_dimension"] == "tier"]
    assert_same_rows(name, "metric_values (slice_dimension = 'tier')", P.METRIC_VALUES_KEY,
          P.METRIC_VALUES_VALUES, protocol_ref(b).marts["metric_values_tier"], got)


@pytest.mark.parametrize("name", SCENARIOS)
def test_labeling_protocol(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    pr = protocol_ref(b)
    no_voter = {}
    for row in pr.marts["labeling_protocol"]:
        task, tier, dim, value = (row[c] for c in P.PROTOCOL_KEY)
        no_voter[(task, tier, dim, value)] = sum(
            1 for rid in pr.ref.records[task]
            if (tier == "all" or pr.agr.tiers[task][rid] == tier)
            and pr.agr.in_slice(task, rid, dim, value)
            and not any(u[0] == rid for u in pr.voter_rows[task]))

    def hint(key, col, got):
        if col != "labeling_cost" or not no_voter.get(key):
            return ""
        dual, n = got.get("n_dual_annotated") or 0, got.get("n_records") or 0
        alt = (n - dual - no_voter[key]) * 0.16 + dual * 0.40
        return (f" ({no_voter[key]} record(s) without a voter; counting them as not "
                f"single-annotated gives {alt:.6g})")

    assert_same_rows(name, "labeling_protocol", P.PROTOCOL_KEY,
          _values(P.PROTOCOL_COLUMNS, P.PROTOCOL_KEY), pr.marts["labeling_protocol"],
          b.marts["labeling_protocol"][1], hint=hint)


@pytest.mark.parametrize("name", SCENARIOS)
def test_labeling_drift(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert_same_rows(name, "labeling_drift", P.DRIFT_KEY, _values(P.DRIFT_COLUMNS, P.DRIFT_KEY),
          protocol_ref(b).marts["labeling_drift"], b.marts["labeling_drift"][1])


@pytest.mark.parametrize("name", SCENARIOS)
def test_annotator_quality(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert_same_rows(name, "annotator_quality", P.QUALITY_KEY, _values(P.QUALITY_COLUMNS, P.QUALITY_KEY),
          protocol_ref(b).marts["annotator_quality"], b.marts["annotator_quality"][1])


@pytest.mark.parametrize("name", SCENARIOS)
def test_spot_check_queue(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert_same_rows(name, "spot_check_queue", P.SPOT_CHECK_KEY,
          _values(P.SPOT_CHECK_COLUMNS, P.SPOT_CHECK_KEY), protocol_ref(b).marts["spot_check_queue"],
          b.marts["spot_check_queue"][1])


@pytest.mark.parametrize("name", SCENARIOS)
def test_adjudication_queue(builds, name):
    b = builds.get(BUILD_OF[name]).check()
    assert_same_rows(name, "adjudication_queue", P.ADJUDICATION_KEY,
          _values(P.ADJUDICATION_COLUMNS, P.ADJUDICATION_KEY), protocol_ref(b).marts["adjudication_queue"],
          b.marts["adjudication_queue"][1])


@pytest.mark.parametrize("name", SCENARIOS)
def test_adjudication_queue_holds_the_pending_records(builds, name):
    """The records of the queue, per family and tier, are labeling_protocol.n_pending (its rows
    of every record: slice `overall` where the mart has slices), and per family and run the
    metric marts' n_pending_adjudication."""
    b = builds.get(BUILD_OF[name]).check()
    queue = b.marts["adjudication_queue"][1]
    protocol = [r for r in b.marts["labeling_protocol"][1] if r.get("slice_dimension", "overall") == "overall"]
    assert protocol
    for row in protocol:
        pending = {(q["task"], q["record_uuid"]) for q in queue
                   if q["task"] == row["task"] and row["tier"] in ("all", q["tier"])}
        assert len(pending) == row["n_pending"], (name, row["task"], row["tier"])
    assert {q["task"] for q in queue} <= {r["task"] for r in protocol}
    # and per run, the n_pending_adjudication of the family's metric mart
    for task in R.TASKS:
        for row in b.marts[f"{task}_metrics"][1]:
            pending = {q["record_uuid"] for q in queue if q["task"] == task and q["run_id"] == row["run_id"]}
            assert len(pending) == row["n_pending_adjudication"], (name, task, row["run_id"])


def test_spot_check_draw_has_its_inclusion_probability(builds):
    """Counting the draw on hundreds of triage records a week: each family's weekly share drawn
    is within 4 binomial standard deviations of the inclusion probability (which is
    ceil(0.1 * 2^32) / 2^32), and so is the share over every week; the frame of each week is the
    generator's number of triage records; every drawn record's score is below the probability."""
    b = builds.get(BUILD_OF["spot_checks"]).check()
    queue = b.marts["spot_check_queue"][1]
    p = 429496730 / 2 ** 32
    assert {q["inclusion_probability"] for q in queue} == {p}
    assert all(0 <= q["selection_score"] < p for q in queue)
    weeks: dict[tuple, list] = {}
    for q in queue:
        weeks.setdefault((q["task"], q["iso_week"]), []).append(q)
    assert len(weeks) == len(R.TASKS) * len(G.SPOT_WEEKS)
    total_drawn = total_frame = 0
    for (task, week), drawn in weeks.items():
        frame = {q["n_week_records"] for q in drawn}
        assert len(frame) == 1, (task, week, frame)
        n = frame.pop()
        # the generator's triage records of the week, plus its gold records that week: not triage
        assert n == G.SPOT_RECORDS[task], (task, week, n)
        assert abs(len(drawn) - n * p) <= 4 * math.sqrt(n * p * (1 - p)), (task, week, len(drawn), n)
        total_drawn, total_frame = total_drawn + len(drawn), total_frame + n
    assert abs(total_drawn - total_frame * p) <= 4 * math.sqrt(total_frame * p * (1 - p)), \
        (total_drawn, total_frame)
    # some drawn records have their second vote already, most do not
    assert {q["has_second_vote"] for q in queue} == {True, False}


def test_other_share_and_minimum(builds):
    """The same data with spot_check_rate_target 0.25 and drift_min_spot_checks 5: the queue and
    the drift equal the reference's under those values; the probability is exactly 0.25 (a
    multiple of 2^-32) and the draws count as it says; every record drawn at 0.1 is drawn at 0.25
    too (h / 2^32 below 0.1 is below 0.25); with 5 the weeks of 5 spot-checks that all disagree
    alert (W01, after W52)."""
    b = builds.get("spot_checks_quarter").check()
    pr = b.derived("protocol_quarter", lambda: P.compute(b.seed_dir, null_mode=b.null_mode or "agate", **QUARTER))
    for mart, key, cols in (("spot_check_queue", P.SPOT_CHECK_KEY, P.SPOT_CHECK_COLUMNS),
                            ("labeling_drift", P.DRIFT_KEY, P.DRIFT_COLUMNS)):
        assert_same_rows("spot_checks_quarter", mart, key, _values(cols, key), pr.marts[mart], b.marts[mart][1])
    queue = b.marts["spot_check_queue"][1]
    assert {q["inclusion_probability"] for q in queue} == {0.25}
    n, drawn = sum(G.SPOT_RECORDS.values()) * len(G.SPOT_WEEKS), len(queue)
    assert abs(drawn - n * 0.25) <= 4 * math.sqrt(n * 0.25 * 0.75), (drawn, n)
    tenth = builds.get(BUILD_OF["spot_checks"]).check().marts["spot_check_queue"][1]
    assert {(q["task"], q["record_uuid"]) for q in tenth} < {(q["task"], q["record_uuid"]) for q in queue}
    drift = {(r["task"], r["iso_week"]): r for r in b.marts["labeling_drift"][1]}
    for task in ("generation", "grounding"):
        assert drift[(task, "2026-W01")]["is_drift_alert"] and not drift[(task, "2025-W52")]["is_drift_alert"]
        assert drift[(task, "2026-W01")]["min_spot_checks"] == 5


def test_spot_check_scenario_gives_the_weeks_it_was_built_for(builds):
    """labeling_drift on the planned weeks (generate.SPOT_PLAN): a week of triage votes without
    any spot-check has its row, weeks above the threshold on too few spot-checks do not alert,
    the alert comes in the second week above it on enough, and the reversal stays triggered."""
    b = builds.get(BUILD_OF["spot_checks"]).check()
    drift = {(r["task"], r["iso_week"]): r for r in b.marts["labeling_drift"][1]}
    weeks = [P.iso_week(R.parse_timestamp(f"{monday}T12:00:00Z"))[0] for monday in G.SPOT_WEEKS]
    assert weeks[0] == "2025-W50" and weeks[3] == "2026-W01"
    for task in ("generation", "grounding"):
        rows = [drift[(task, week)] for week in weeks]
        checked = [n for n, _ in G.SPOT_PLAN]
        checked[G.SPOT_LATE[0]] -= G.SPOT_LATE[1]
        checked[G.SPOT_LATE[0] + 1] += G.SPOT_LATE[1]
        assert [r["n_spot_checked_units"] for r in rows] == checked
        assert rows[1]["n_spot_checked_units"] == 0 and rows[1]["disagreement_rate"] is None
        assert rows[1]["n_triage_units"] == G.SPOT_RECORDS[task] and rows[1]["has_too_few_spot_checks"]
        assert rows[2]["disagreement_rate"] == rows[3]["disagreement_rate"] == 1.0
        assert not rows[2]["is_drift_alert"] and not rows[3]["is_drift_alert"]
        assert {r["iso_week"] for r in rows if r["is_drift_alert"]} == G.SPOT_EXPECTED_ALERTS
        assert [r["is_reversal_triggered"] for r in rows] == [False] * 5 + [True] * 3
        assert rows[4]["n_spot_checked_units"] == rows[4]["min_spot_checks"] == 20
    queue = b.marts["adjudication_queue"][1]
    assert {q["tier"] for q in queue} == {"tier_a", "tier_b"}
    assert any(q["n_adjudications"] == 2 for q in queue) and any(q["n_votes"] == 4 for q in queue)
    assert {q["eligible_adjudicators"] for q in queue} == {"adj1;adj2"}      # not adj_llm
    spot = b.marts["spot_check_queue"][1]
    assert all(q["first_annotator_id"] not in (q["eligible_second_labelers"] or "").split(";")
               for q in spot)
    assert any(q["first_annotator_id"] == "ext_guest" for q in spot)
    assert all("ext_guest" not in (q["eligible_second_labelers"] or "") for q in spot)
    assert {q["task_type"] for q in spot} == {"summarization", "code_generation", "chitchat", "unknown"}


def test_generated_scenario_covers_the_cases(builds):
    """The generated data exercises what the comparisons are meant to cover."""
    pr = protocol_ref(builds.get(BUILD_OF["generated"]).check())
    mv = {(r["family"], r["slice_value"]) for r in pr.marts["metric_values_tier"]}
    assert mv == {(t, tier) for t in R.TASKS for tier in P.TIER_SLICES}
    protocol = [r for r in pr.marts["labeling_protocol"] if r["slice_dimension"] == "overall"]
    assert {(r["task"], r["tier"]) for r in protocol} == \
        {(t, tier) for t in R.TASKS for tier in P.PROTOCOL_TIERS}
    for col in ("n_dual_annotated", "n_disagreeing", "n_adjudicated", "n_pending"):
        assert all(r[col] > 0 for r in protocol), col
    drift = pr.marts["labeling_drift"]
    # too few spot-checks a week for an alert at drift_min_spot_checks 20 (the spot_checks
    # scenario has the alerts), but rates on both sides of the threshold
    assert {r["is_above_threshold"] for r in drift} == {True, False}
    assert all(r["has_too_few_spot_checks"] and not r["is_drift_alert"] for r in drift)
    assert any(r["previous_week_disagreement_rate"] is None for r in drift)
    quality = pr.marts["annotator_quality"]
    assert any(r["annotator_id"] == "ext_guest" for r in quality)    # not in annotators.csv
    assert all(r["n_adjudicated_labels"] > 0 for r in quality)
    assert any(r["first_vote_at_utc"].microsecond for r in quality)
    # units whose latest vote is on another calendar day in UTC than as written (offsets)
    shifted = 0
    for task in R.TASKS:
        for rows in pr.voter_rows[task].values():
            last = max(rows.values(), key=lambda r: r.instant)
            written = date.fromisoformat(last.created_at.strip()[:10])
            shifted += written != P.utc_datetime(last.instant).date()
    assert shifted > 0


# =========================================================================== the reference

def test_reference_matches_readme_worked_example():
    """The worked example of docs/marts.md (sample data), recomputed by the reference."""
    have = {p.name for p in project_seed_csvs()}
    if not all(f in have for f in SEED_FILES + ["records.csv"]):
        pytest.skip("the project's sample seeds are incomplete")
    pr = P.compute(PROJECT / "seeds")
    rows = {r["tier"]: r for r in pr.marts["labeling_protocol"]
            if r["task"] == "retrieval" and r["slice_dimension"] == "overall"}
    readme = {  # n_records share n_dual n_adjudicated n_pending dual_rate min_alpha cost
        "all": (125, 1.0, 33, 10, 3, 0.264, 0.583, 27.92),
        "tier_a": (98, 0.784, 6, 2, 0, 0.061, 0.773, 17.12),
        "tier_b": (27, 0.216, 27, 8, 3, 1.0, 0.579, 10.8),
    }
    for tier, want in readme.items():
        r = rows[tier]
        got = (r["n_records"], round(r["share_of_records"], 3), r["n_dual_annotated"],
               r["n_adjudicated"], r["n_pending"], round(r["dual_annotation_rate"], 3),
               round(r["min_krippendorff_alpha"], 3), round(r["labeling_cost"], 2))
        assert got == want, (tier, got, want)
    drift = {r["iso_week"]: r for r in pr.marts["labeling_drift"] if r["task"] == "retrieval"}
    assert round(drift["2025-W13"]["disagreement_rate"], 2) == 0.33
    assert drift["2025-W14"]["disagreement_rate"] == pytest.approx(0.4)
    # 6 and 5 spot-checked units, below drift_min_spot_checks (20): above the threshold, no alert
    assert (drift["2025-W13"]["n_spot_checked_units"], drift["2025-W14"]["n_spot_checked_units"]) == (6, 5)
    assert drift["2025-W14"]["is_above_threshold"] and not drift["2025-W14"]["is_drift_alert"]
    assert not any(r["is_drift_alert"] or r["is_reversal_triggered"] for r in drift.values())
    # run bot-v2's week: 384 triage units, none spot-checked
    assert (drift["2025-W16"]["n_triage_units"], drift["2025-W16"]["n_spot_checked_units"]) == (384, 0)
    assert all(r["has_too_few_spot_checks"] for r in drift.values())
    # with a minimum of 5 the alert of W14 is back, and the reversal triggered from then on
    loose = {r["iso_week"]: r for r in P.compute(PROJECT / "seeds", drift_min_spot_checks=5).marts["labeling_drift"]
             if r["task"] == "retrieval"}
    assert [w for w, r in loose.items() if r["is_drift_alert"]] == ["2025-W14"]
    assert [w for w, r in loose.items() if r["is_reversal_triggered"]] == ["2025-W14", "2025-W15", "2025-W16"]
    # the queues: 3 retrieval records pending in the gold tier (the n_pending above), 5 of 57
    # triage records of run bot-v2's week drawn for a spot-check
    adjudication = [r for r in pr.marts["adjudication_queue"] if r["task"] == "retrieval"]
    assert len({r["record_uuid"] for r in adjudication}) == 3 and {r["tier"] for r in adjudication} == {"tier_b"}
    spot = [r for r in pr.marts["spot_check_queue"] if r["task"] == "retrieval" and r["iso_week"] == "2025-W16"]
    assert (len(spot), spot[0]["n_week_records"]) == (8, 57)
    ndcg = {r["slice_value"]: r for r in pr.marts["metric_values_tier"]
            if r["metric"] == "ndcg" and r["k"] == 5 and r["run_id"] == "bot-v1"}
    # run bot-v1, with t_0.975(n - 1) (19 gold and 36 triage records)
    assert ndcg["tier_b"]["n_units"] == 19 and ndcg["tier_a"]["n_units"] == 36
    assert tuple(round(ndcg["tier_b"][c], 3) for c in ("value", "ci_lower", "ci_upper")) == \
        (0.813, 0.702, 0.924)
    assert tuple(round(ndcg["tier_a"][c], 3) for c in ("value", "ci_lower", "ci_upper")) == \
        (0.809, 0.705, 0.914)
    # the gold tier meets the alpha target only with the probability shown: its weakest label
    # (misleading, alpha 0.579) misses it with probability 0.885, topically_relevant (0.767,
    # above the target) with 0.385
    assert round(rows["tier_b"]["max_p_alpha_below_target"], 3) == 0.885
    assert round(rows["tier_b"]["min_alpha_ci_lower"], 3) == 0.287
    agreement = {(r["label"], r["tier"]): r for r in pr.agr.marts["annotator_agreement"]
                 if r["task"] == "retrieval" and r["slice_dimension"] == "overall"}
    tr = agreement[("topically_relevant", "tier_b")]
    assert tr["meets_target"] is True and round(tr["p_alpha_below_target"], 3) == 0.385
    assert (round(tr["alpha_ci_lower"], 3), round(tr["alpha_ci_upper"], 3)) == (0.647, 0.887)


@pytest.mark.parametrize("stamp,week,monday", [
    ("2025-03-30T23:30:00-02:00", "2025-W14", date(2025, 3, 31)),   # Sunday local, Monday UTC
    ("2025-03-31T00:30:00+02:00", "2025-W13", date(2025, 3, 24)),   # Monday local, Sunday UTC
    ("2024-12-30T12:00:00Z", "2025-W01", date(2024, 12, 30)),       # ISO year != calendar year
    ("2021-01-03T12:00:00", "2020-W53", date(2020, 12, 28)),
    ("2025-03-03 00:00:00.5", "2025-W10", date(2025, 3, 3)),
])
def test_iso_week(stamp, week, monday):
    assert P.iso_week(R.parse_timestamp(stamp)) == (week, monday)


def test_utc_datetime():
    assert P.utc_datetime(R.parse_timestamp("2025-03-01T10:15:00.123456+01:00")) == \
        datetime(2025, 3, 1, 9, 15, 0, 123456)


def test_reference_by_hand(tmp_path):
    """A tiny generation export worked out by hand (no dbt)."""
    rows = [
        # r1 (tier_a explicit): h1, h2 agree; latest vote Mon 2025-03-03 (W10)
        G.generation_row("r1", "h1", "2025-03-02T10:00:00Z"), G.generation_row("r1", "h2", "2025-03-03T09:00:00Z"),
        # r2 (tier_a): disagree on helpful; latest vote Sunday 23:30 -02:00 = Mon 01:30 UTC (W11)
        G.generation_row("r2", "h1", "2025-03-09T10:00:00Z", "true"),
        G.generation_row("r2", "h2", "2025-03-09T23:30:00-02:00", "false"),
        # r3 (tier_a): disagree, adjudicated (helpful = false); votes in W11
        G.generation_row("r3", "h1", "2025-03-12T10:00:00Z", "true"),
        G.generation_row("r3", "h2", "2025-03-12T11:00:00Z", "false"),
        G.generation_row("r3", "adj", "2025-03-20T11:00:00Z", "false"),
        # r4 (tier_a): disagree, three weeks later (W14: previous week has no row)
        G.generation_row("r4", "h1", "2025-03-31T10:00:00Z", "true", incomplete="true"),
        G.generation_row("r4", "h2", "2025-03-31T11:00:00Z", "true", incomplete="false"),
        # r5 (absent from records, one voter -> tier_a), an LLM row does not count
        G.generation_row("r5", "h1", "2025-03-31T10:00:00Z"), G.generation_row("r5", "llm", "2025-03-31T10:00:00Z"),
        # r6 (tier_b by task type): h1, h2 tie on helpful -> pending
        G.generation_row("r6", "h1", "2025-03-05T10:00:00Z", "true"),
        G.generation_row("r6", "h2", "2025-03-05T10:00:00Z", "false"),
        # r7 (tier_b explicit): the adjudicator only -> no voter
        G.generation_row("r7", "adj", "2025-03-05T10:00:00Z"),
    ]
    G.write_generation_case(tmp_path, rows, [
        ("r1", "", "", "", "tier_a"), ("r2", "summarization", "0.1", "", ""), ("r3", "", "", "", "tier_a"),
        ("r4", "", "", "", ""), ("r6", "factual_qa", "", "", ""), ("r7", "", "", "", "tier_b")])
    pr = P.compute(tmp_path)
    assert pr.notes == ["labeling_protocol generation tier_b: 1 record(s) without a voter "
                        "counted as single-annotated in labeling_cost",
                        "labeling_protocol generation all: 1 record(s) without a voter "
                        "counted as single-annotated in labeling_cost"]
    prot = {r["tier"]: r for r in pr.marts["labeling_protocol"] if r["slice_dimension"] == "overall"}
    assert set(prot) == {"tier_a", "tier_b", "all"}
    a, b, al = prot["tier_a"], prot["tier_b"], prot["all"]
    # tier_a: r1-r5 (5 records), dual r1-r4, disagreeing r2-r4, adjudicated r3, pending r2
    # (helpful tied) and r4 (incomplete tied)
    assert (a["n_records"], a["n_dual_annotated"], a["n_disagreeing"], a["n_adjudicated"],
            a["n_pending"]) == (5, 4, 3, 1, 2)
    assert a["share_of_records"] == pytest.approx(5 / 7)
    assert a["dual_annotation_rate"] == pytest.approx(0.8)
    assert a["labeling_cost"] == pytest.approx(1 * 0.16 + 4 * 0.40)
    assert (a["target_share_of_records"], a["spot_check_rate_target"]) == (0.6, 0.1)
    # tier_b: r6 (dual, disagreeing, pending) and r7 (adjudicated, no voter)
    assert (b["n_records"], b["n_dual_annotated"], b["n_disagreeing"], b["n_adjudicated"],
            b["n_pending"], b["spot_check_rate_target"]) == (2, 1, 1, 1, 1, None)
    assert b["labeling_cost"] == pytest.approx(0.16 + 0.40)
    assert (al["n_records"], al["n_dual_annotated"], al["target_share_of_records"]) == (7, 5, 1.0)
    # alpha, helpful: tier_a units r1 (1,1) r2 (1,0) r3 (1,0) r4 (1,1): n = 8, n_1 = 6,
    # n_0 = 2 -> 1 - 7 * (2 + 2) / 24 = -1/6; incomplete: r4 (1,0), others (0,0):
    # n_1 = 1, n_0 = 7 -> 1 - 7 * 2 / 14 = 0; other labels all 1 or all 0 -> null
    assert a["n_labels_with_alpha"] == 2
    assert a["min_krippendorff_alpha"] == pytest.approx(-1 / 6)
    assert a["meets_alpha_target"] is False
    # tier_b: r6 (1,0) only -> helpful alpha 1 - 1 * 2 / 2 = 0
    assert (b["n_labels_with_alpha"], b["min_krippendorff_alpha"]) == (1, 0.0)
    # drift: W10 r1 (0/1), W11 r2 r3 (2/2), W14 r4 (1/1, previous week W13 absent)
    drift = [(r["iso_week"], r["n_spot_checked_units"], r["n_disagreeing_units"],
              r["previous_week_disagreement_rate"], r["is_above_threshold"], r["is_drift_alert"])
             for r in pr.marts["labeling_drift"]]
    assert drift == [("2025-W10", 1, 0, None, False, False),
                     ("2025-W11", 2, 2, 0.0, True, False),
                     ("2025-W14", 1, 1, None, True, False)]
    # W14 also holds r5 (one vote, not spot-checked). With a minimum of 1 nothing alerts either:
    # W11 is above the threshold, but W10 (rate 0) is not, and W13 has no row
    assert [r["n_triage_units"] for r in pr.marts["labeling_drift"]] == [1, 2, 2]
    one = P.compute(tmp_path, drift_min_spot_checks=1).marts["labeling_drift"]
    assert [r["is_drift_alert"] for r in one] == [False, False, False]
    # spot-check queue, everything drawn (share 1): r1 (first vote Sunday 2025-03-02: W09), r2
    # (h1 at 10:00Z before h2 at 01:30Z the next day: W10), r3 (W11), r4 and r5 (W14)
    every = {r["record_uuid"]: r for r in P.compute(tmp_path, spot_check_rate_target=1).marts["spot_check_queue"]}
    assert {rid: (r["iso_week"], r["first_annotator_id"], r["has_second_vote"], r["eligible_second_labelers"])
            for rid, r in every.items()} == {
        "r1": ("2025-W09", "h1", True, None), "r2": ("2025-W10", "h1", True, None),
        "r3": ("2025-W11", "h1", True, None), "r4": ("2025-W14", "h1", True, None),
        "r5": ("2025-W14", "h1", False, "h2")}
    assert {r["inclusion_probability"] for r in every.values()} == {1.0}
    assert every["r5"]["n_week_records"] == 2
    # md5('r5/2025-W14') = b2870162add... (md5sum): h = 0xb2870162, h / 2^32 = 0.697, not drawn at 0.1
    assert P.selection_hash("r5", "2025-W14") == 0xB2870162
    assert "r5" not in {r["record_uuid"] for r in pr.marts["spot_check_queue"]}
    # adjudication queue: r2 helpful and r4 incomplete (tier_a), r6 helpful (tier_b); r3 adjudicated
    queue = {(r["record_uuid"], r["label"]): r for r in pr.marts["adjudication_queue"]}
    assert set(queue) == {("r2", "helpful"), ("r4", "incomplete"), ("r6", "helpful")}
    assert {key: (r["tier"], r["n_votes"], r["n_positive_votes"], r["voter_ids"], r["eligible_adjudicators"])
            for key, r in queue.items()} == {
        ("r2", "helpful"): ("tier_a", 2, 1, "h1;h2", "adj"), ("r4", "incomplete"): ("tier_a", 2, 1, "h1;h2", "adj"),
        ("r6", "helpful"): ("tier_b", 2, 1, "h1;h2", "adj")}
    q = {r["annotator_id"]: r for r in pr.marts["annotator_quality"]}
    assert set(q) == {"h1", "h2"}
    h1 = q["h1"]
    # h1 votes on r1 r2 r3 r4 r5 r6: 6 units x 5 labels; ones: proper_action, on_topic on all
    # 6 (12), helpful on all 6 (6), incomplete on r4 (1) -> 19 / 30
    assert (h1["n_units"], h1["n_label_votes"]) == (6, 30)
    assert h1["positive_vote_rate"] == pytest.approx(19 / 30)
    # shared units r1 r2 r3 r4 r6, one other voter each: 25 comparisons; unequal: helpful on
    # r2 r3 r6, incomplete on r4 -> 21 / 25
    assert (h1["n_shared_units"], h1["n_pairwise_comparisons"]) == (5, 25)
    assert h1["pairwise_agreement"] == pytest.approx(21 / 25)
    # adjudicated: r3, 5 labels; h1 differs on helpful -> 4 / 5
    assert (h1["n_adjudicated_labels"], h1["adjudication_agreement"]) == (5, pytest.approx(0.8))
    assert q["h2"]["adjudication_agreement"] == 1.0
    assert h1["first_vote_at_utc"] == datetime(2025, 3, 2, 10, 0)
    assert h1["last_vote_at_utc"] == datetime(2025, 3, 31, 10, 0)
    assert q["h2"]["last_vote_at_utc"] == datetime(2025, 3, 31, 11, 0)
    # metric_values tier slice: tier_a resolved r1, r3, r5 (helpful 1, 0 adjudicated, 1);
    # tier_b resolved r7 only (the adjudicator's helpful = 1; r6 is tied)
    mv = {(r["metric"], r["slice_value"]): r for r in pr.marts["metric_values_tier"]}
    assert (mv[("helpfulness_rate", "tier_a")]["n_units"],
            mv[("helpfulness_rate", "tier_a")]["value"]) == (3, pytest.approx(2 / 3))
    assert (mv[("helpfulness_rate", "tier_b")]["n_units"],
            mv[("helpfulness_rate", "tier_b")]["value"]) == (1, 1.0)
    assert mv[("helpfulness_rate", "tier_a")]["ci_lower"] == \
        pytest.approx(R.wilson(2 / 3, 3)[0])


def test_plan_shared_out_to_the_task_types(builds):
    """The plan's targets on the slices scenario, worked out by hand: the task types are
    factual_qa and rag_synthesis (high-stakes, gold_task_types), summarization (also padded) and
    code_generation, and unknown (blank or no records row). High-stakes types share 400 (200
    each), the two others the remaining 600 (300 each), unknown nothing; 0.256 a case."""
    b = builds.get(BUILD_OF["slices"]).check()
    rows = {(r["task"], r["slice_value"]): r for r in b.marts["labeling_protocol"][1] if r["tier"] == "all"}
    want = {"overall": (1000, 400), "factual_qa": (200, 200), "rag_synthesis": (200, 200),
            "summarization": (300, None), "code_generation": (300, None), "unknown": (None, None)}
    for task in R.TASKS:
        assert {v for t, v in rows if t == task} == set(want), task
        for value, (cases, high) in want.items():
            r = rows[(task, value)]
            assert (r["gold_target_cases"], r["gold_target_high_stakes"]) == (cases, high), r
            assert r["n_gold_cases"] == r["n_records"] - r["n_pending"]
            if cases is not None:
                assert r["n_gold_cases_needed"] == max(cases - r["n_gold_cases"], 0)
            if value in ("factual_qa", "rag_synthesis"):
                assert r["n_high_stakes_cases"] == r["n_gold_cases"]
            elif value != "overall":
                assert r["n_high_stakes_cases"] == 0
            assert r["target_cost_per_case"] == pytest.approx(0.256, abs=1e-12)
            assert r["cost_per_case"] == pytest.approx(r["labeling_cost"] / r["n_records"], abs=1e-12)
        overall = rows[(task, "overall")]
        assert overall["n_high_stakes_cases"] == rows[(task, "factual_qa")]["n_gold_cases"] + \
            rows[(task, "rag_synthesis")]["n_gold_cases"]
    tier_rows = [r for r in b.marts["labeling_protocol"][1] if r["tier"] != "all"]
    assert tier_rows and all(r["gold_target_cases"] is None and r["n_gold_cases_needed"] is None
                             for r in tier_rows)


def test_reference_matches_the_slice_worked_example():
    """The worked example of docs/marts.md, "Agreement per task type and language" (sample data),
    recomputed by the reference: retrieval's topically_relevant per slice, and the plan's rows."""
    have = {p.name for p in project_seed_csvs()}
    if not all(f in have for f in SEED_FILES + ["records.csv"]):
        pytest.skip("the project's sample seeds are incomplete")
    pr = P.compute(PROJECT / "seeds")
    agreement = {(r["slice_dimension"], r["slice_value"]): r for r in pr.agr.marts["annotator_agreement"]
                 if r["task"] == "retrieval" and r["label"] == "topically_relevant" and r["tier"] == "all"}
    docs = {  # n_units alpha alpha_lo alpha_hi meets_target p_below
        ("overall", "overall"): (216, 0.786, 0.683, 0.889, True, 0.241),
        ("task_type", "chitchat"): (38, 0.624, 0.368, 0.88, False, 0.887),
        ("task_type", "summarization"): (16, 0.742, -0.345, 1.0, False, 0.513),
        ("language", "en"): (140, 0.761, 0.632, 0.89, True, 0.426),
        ("task_type", "factual_qa"): (40, 0.897, 0.608, 1.0, True, 0.078),
    }
    for key, want in docs.items():
        r = agreement[key]
        got = (r["n_units"], *(round(r[c], 3) for c in ("krippendorff_alpha", "alpha_ci_lower", "alpha_ci_upper")),
               r["meets_target"], round(r["p_alpha_below_target"], 3))
        assert got == want, (key, got, want)
    plan = {r["slice_value"]: r for r in pr.marts["labeling_protocol"]
            if r["task"] == "retrieval" and r["tier"] == "all"}
    docs_plan = {  # n_records n_gold_cases gold_target_cases needed high_needed cost_per_case min_alpha
        "overall": (125, 122, 1000.0, 878, 388, 0.223, 0.583),
        "chitchat": (18, 17, 200.0, 183, None, 0.253, 0.0),
        "code_generation": (16, 16, 200.0, 184, None, 0.22, 0.776),
        "factual_qa": (5, 4, 200.0, 196, 196, 0.4, 0.791),
        "rag_synthesis": (8, 8, 200.0, 192, 192, 0.4, 0.47),
        "summarization": (10, 10, 200.0, 190, None, 0.232, 0.0),
        "unknown": (68, 67, None, None, None, 0.181, 0.789),
    }
    assert set(plan) == set(docs_plan)
    for value, want in docs_plan.items():
        r = plan[value]
        got = (r["n_records"], r["n_gold_cases"], r["gold_target_cases"], r["n_gold_cases_needed"],
               r["n_high_stakes_cases_needed"], round(r["cost_per_case"], 3), round(r["min_krippendorff_alpha"], 3))
        assert got == want, (value, got, want)
