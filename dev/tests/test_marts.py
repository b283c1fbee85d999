"""The dbt marts against the independent reference package (dev/tests/reference/), value by value.

Scenarios (see conftest.py): sample, edge, edge_repair, random, edge_tokyo.  Numbers are
compared to 1e-9 (absolute and relative), nulls must match nulls, rejected_annotations rows
exactly (as a multiset of (task, record_uuid, annotator_id, chunk_id, created_at, reasons);
the one latitude: a blank, whitespace-only id equals a null id, as docs/rules.md does not say
how a missing id is shown).
"""

from __future__ import annotations

import csv
import math
from collections import Counter

import pytest
import reference as R
from kit.builds import PROJECT, PUBLIC_MARTS, SCENARIOS
from kit.compare import assert_has_columns, assert_same_rows
from reference.agreement import load_records, records_copies

MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values",
         "rejected_annotations"]
SCENARIOS_USED = ["sample", "edge", "edge_repair", "random", "edge_tokyo"]
SCENARIO_NAMES = SCENARIOS_USED
TOL = 1e-9
METRIC_KEY = ["run_id", "family", "metric", "k", "slice_dimension", "slice_value"]
METRIC_VALS = ["value", "n_units", "ci_lower", "ci_upper"]
REJ_COLS = R.MART_COLUMNS["rejected_annotations"]
NON_ANNOTATION_TASKS = {"records"}


def _built(builds, name):
    return builds.get(name).check()


# ------------------------------------------------------------------ build health

@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_build_succeeded_and_marts_exist(builds, name):
    b = _built(builds, name)
    for mart in MARTS:
        assert_has_columns(name, mart, b.marts.get(mart), R.MART_COLUMNS[mart])


def test_the_default_schema_holds_the_public_marts_only(builds):
    """What a BI tool (or `show tables`) sees first: the public marts; the seeds and staging tables,
    the intermediate tables and the time spine each in a schema of their own."""
    import duckdb

    with duckdb.connect(str(_built(builds, "sample").db_path), read_only=True) as con:
        tables = con.execute("select table_schema, table_name from information_schema.tables").fetchall()
        shown = {name for (name,) in con.execute("show tables").fetchall()}
    by_schema: dict[str, set[str]] = {}
    for schema, name in tables:
        by_schema.setdefault(schema, set()).add(name)
    assert shown == by_schema["main"] == set(PUBLIC_MARTS)
    assert set(by_schema) == {"main", "staging", "intermediate", "semantic"}, sorted(by_schema)
    seeds = {path.stem for path in (PROJECT / "seeds").glob("*.csv")}
    assert all(name.startswith(("stg_", "base_")) or name in seeds for name in by_schema["staging"]), \
        sorted(by_schema["staging"])
    assert all(name.startswith("int_") for name in by_schema["intermediate"]), sorted(by_schema["intermediate"])


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_seed_loader_is_understood(builds, name):
    b = _built(builds, name)
    assert b.loader_problem is None, f"[{name}] {b.loader_problem}"


@pytest.mark.parametrize("name", [n for n in SCENARIO_NAMES if SCENARIOS[n].tests])
def test_dbt_data_tests(builds, name):
    """The project's own data tests may warn (rejected rows) but not fail or error."""
    b = _built(builds, name)
    bad = [r for r in b.node_results
           if r["resource_type"] in ("test", "unit_test") and r["status"] in ("fail", "error")]
    assert not bad, f"[{name}] dbt tests failing: " + "; ".join(
        f"{r['unique_id']} {r['status']}: {(r['message'] or '')[:200]}" for r in bad)


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_reference_is_unambiguous(builds, name):
    b = _built(builds, name)
    assert b.reference.ambiguities == [], b.reference.ambiguities


# ------------------------------------------------------------------ value by value

@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_retrieval_metrics(builds, name):
    b = _built(builds, name)
    cols = R.MART_COLUMNS["retrieval_metrics"]
    assert_same_rows(name, "retrieval_metrics", ["run_id", "k"], cols[2:],
               b.reference.marts["retrieval_metrics"], b.marts["retrieval_metrics"][1])


@pytest.mark.parametrize("name", SCENARIO_NAMES)
@pytest.mark.parametrize("mart", ["grounding_metrics", "generation_metrics"])
def test_answer_metrics(builds, name, mart):
    b = _built(builds, name)
    got = b.marts[mart][1]
    assert len(got) == len(b.reference.runs), f"[{name}] {mart} has {len(got)} rows, expected one per run"
    assert_same_rows(name, mart, ["run_id"], R.MART_COLUMNS[mart][1:], b.reference.marts[mart], got)


@pytest.mark.parametrize("name", SCENARIO_NAMES)
@pytest.mark.parametrize("family", ["retrieval", "grounding", "generation"])
def test_metric_values(builds, name, family):
    b = _built(builds, name)
    got = [r for r in b.marts["metric_values"][1]
           if r["family"] == family and r["slice_dimension"] in ("overall", "language")]
    exp = [r for r in b.reference.marts["metric_values"] if r["family"] == family]
    assert_same_rows(name, f"metric_values[{family}]", METRIC_KEY, METRIC_VALS, exp, got)


def _rej_key(row):
    """docs/rules.md says created_at is "as given" but is silent on how a blank (whitespace
    only) id is shown; a blank id is missing, so blank and null ids compare equal here."""
    out = []
    for c in REJ_COLS:
        v = row.get(c)
        if c in ("record_uuid", "annotator_id", "chunk_id") and v is not None and not v.strip():
            v = None
        out.append(v)
    return tuple(out)


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_rejected_annotations(builds, name):
    b = _built(builds, name)
    exp = Counter(_rej_key(r) for r in b.reference.marts["rejected_annotations"])
    # Rows of other seeds (the optional `records` seed, task 'records') are an extension
    # outside the annotation reason codes of docs/rules.md; only annotation rows are compared.
    got = Counter(_rej_key(r) for r in b.marts["rejected_annotations"][1]
                  if r.get("task") not in NON_ANNOTATION_TASKS)
    missing = sorted(exp - got, key=str)
    extra = sorted(got - exp, key=str)
    if missing or extra:
        lines = [f"expected but absent: {m}" for m in missing[:30]]
        lines += [f"present but not expected: {e}" for e in extra[:30]]
        pytest.fail(f"[{name}] rejected_annotations differs ({len(missing)} missing, "
                    f"{len(extra)} extra; columns {REJ_COLS}):\n  " + "\n  ".join(lines))


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_rejected_annotations_keep_original_values(builds, name):
    """"plus the row's original values": every seed column that rejected_annotations
    carries under its own name holds the loaded cell as given."""
    b = _built(builds, name)
    cols_in_mart, mart_rows = b.marts["rejected_annotations"]
    problems = []
    for task, spec in R.TASKS.items():
        with open(b.seed_dir / f"{spec['seed']}.csv", newline="", encoding="utf-8-sig") as fh:
            header = next(csv.reader(fh))
        cols = [c for c in header if c in cols_in_mart and c not in REJ_COLS]
        if not cols:
            problems.append(f"{task}: no original value column found in rejected_annotations")
            continue
        exp = Counter((_rej_key(r.raw | {"task": task, "reasons": r.reasons_text, "chunk_id": r.chunk_id,
                                         "source_file": f"{spec['seed']}.csv", "source_row": r.line}),
                       tuple(r.raw.get(c) for c in cols))
                      for r in b.reference.rows[task] if r.status == "rejected")
        got = Counter((_rej_key(r), tuple(r.get(c) for c in cols))
                      for r in mart_rows if r.get("task") == task)
        for item in sorted(exp - got, key=str)[:5]:
            problems.append(f"{task}: expected {item} (columns {cols})")
        for item in sorted(got - exp, key=str)[:5]:
            problems.append(f"{task}: got {item} (columns {cols})")
    assert not problems, f"[{name}] original values differ:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", SCENARIO_NAMES)
def test_accounting(builds, name):
    b = _built(builds, name)
    ref = b.reference
    rejected_in_mart = Counter(r["task"] for r in b.marts["rejected_annotations"][1])
    row_counts = {r["task"]: r for r in b.marts["export_row_counts"][1]}
    for task, spec in R.TASKS.items():
        with open(b.seed_dir / f"{spec['seed']}.csv", newline="", encoding="utf-8-sig") as fh:
            n_csv = sum(1 for _ in csv.DictReader(fh))
        c = ref.counts(task)
        n_distinct = c["accepted"] + c["rejected"] + c["superseded"]
        assert n_distinct + c["repeated"] + c["blank"] == n_csv == len(ref.rows[task])
        assert rejected_in_mart.get(task, 0) == c["rejected"], \
            f"[{name}] {task}: {rejected_in_mart.get(task, 0)} rows in rejected_annotations, " \
            f"expected {c['rejected']} (accepted {c['accepted']}, superseded {c['superseded']})"
        counted = row_counts[task]
        assert (counted["n_rows"], counted["n_accepted"], counted["n_superseded"], counted["n_rejected"],
                counted["n_repeated"], counted["n_blank"]) == (
            n_distinct, c["accepted"], c["superseded"], c["rejected"], c["repeated"], c["blank"]), \
            (name, task, counted)
        assert counted["rejected_share"] == pytest.approx(c["rejected"] / n_distinct, abs=1e-12)
    valid_records, rejected_records, _ = load_records(b.seed_dir, b.null_mode or "agate")
    records_path = b.seed_dir / "records.csv"
    records_rows = R.read_csv(records_path, b.null_mode or "agate") if records_path.exists() else []
    if records_rows:
        counted = row_counts["records"]
        # exact copies of a records row count once, as the exports': left out and counted in n_repeated
        n_copies = sum(records_copies(records_rows))
        assert (counted["n_rows"], counted["n_repeated"], counted["n_blank"], counted["n_rejected"],
                counted["n_accepted"]) == (len(records_rows) - n_copies, n_copies, 0, len(rejected_records),
                                           len(valid_records)), (name, counted)
    else:
        assert "records" not in row_counts
    n_rec = {t: Counter(rec["run_id"] for rec in ref.records[t].values()) for t in R.TASKS}
    for row in b.marts["retrieval_metrics"][1]:
        assert row["n_queries"] + row["n_pending_adjudication"] == n_rec["retrieval"][row["run_id"]]
    for mart, task in (("grounding_metrics", "grounding"), ("generation_metrics", "generation")):
        rows = b.marts[mart][1]
        assert {row["run_id"] for row in rows} == set(ref.runs)
        for row in rows:
            assert row["n_answers"] + row["n_pending_adjudication"] == n_rec[task][row["run_id"]]


# ------------------------------------------------------------------ edge cases, literally

def test_edge_literal_values(builds):
    """A few hand-computed numbers (see test_reference.py for the derivations) read from the
    marts themselves, so that a wrong reference cannot hide a wrong mart."""
    b = _built(builds, "edge")
    log3 = math.log2(3)
    r01 = (3 / log3 + 0.5) / (3 + 3 / log3 + 0.5)       # NDCG@3 of record r01 = 0.443701
    ret = {r["k"]: r for r in b.marts["retrieval_metrics"][1]}
    assert ret[3]["n_queries"] == 11 and ret[3]["n_pending_adjudication"] == 2
    assert ret[3]["ndcg_at_k"] == pytest.approx((r01 + 3 / log3 + 4) / 11, abs=TOL)
    assert ret[3]["mrr_at_k"] == pytest.approx(6 / 11, abs=TOL)
    g = b.marts["grounding_metrics"][1][0]
    assert (g["n_answers"], g["n_cited_answers"]) == (6, 4)
    assert g["conditional_fabrication_rate"] == pytest.approx(0.25, abs=TOL)
    e = b.marts["generation_metrics"][1][0]
    assert e["proper_action_rate"] == pytest.approx(0.6, abs=TOL)
    de = [r for r in b.marts["metric_values"][1]
          if (r["family"], r["metric"], r["slice_dimension"], r["slice_value"])
          == ("grounding", "conditional_fabrication_rate", "language", "de")]
    assert len(de) == 1 and de[0]["value"] is None and de[0]["n_units"] == 0


def test_edge_repair_literal_values(builds):
    b = _built(builds, "edge_repair")
    log3 = math.log2(3)
    r01 = (3 / log3 + 0.5) / (3 + 3 / log3 + 0.5)
    ret = {r["k"]: r for r in b.marts["retrieval_metrics"][1]}
    assert ret[3]["ndcg_at_k"] == pytest.approx((r01 + 2 / log3 + 5) / 11, abs=TOL)
    g = b.marts["grounding_metrics"][1][0]
    assert (g["n_answers"], g["n_cited_answers"]) == (9, 6)
    assert g["conditional_fabrication_rate"] == pytest.approx(0.5, abs=TOL)


# ------------------------------------------------------------------ time zone

@pytest.mark.parametrize("mart", PUBLIC_MARTS)
def test_time_zone_does_not_matter(builds, mart):
    """The edge cases built with TZ=Asia/Tokyo give the very same marts as in this process."""
    utc = _built(builds, "edge")
    tokyo = _built(builds, "edge_tokyo")
    cols, rows = utc.marts[mart]
    tcols, trows = tokyo.marts[mart]
    assert cols == tcols

    def canon(rs):
        return sorted((tuple((c, round(v, 12) if isinstance(v, float) else v)
                             for c, v in r.items()) for r in rs), key=str)

    assert canon(rows) == canon(trows)


def test_time_zone_reaches_duckdb():
    """The TZ variable given to the edge_tokyo subprocess really changes DuckDB's zone."""
    import os
    import subprocess
    import sys

    code = ("import duckdb; print(duckdb.connect().execute("
            "\"select current_setting('TimeZone')\").fetchall()[0][0])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, TZ=SCENARIOS["edge_tokyo"].tz), check=True)
    assert out.stdout.strip() == "Asia/Tokyo"
