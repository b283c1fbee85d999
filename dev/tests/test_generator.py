"""Tests of dev/generate/generate_exports.py, the generator of large synthetic annotation exports.

One small data set is generated per format into a temporary directory (3 parts per export,
several blocks of records so the worker processes are used, a high --bad-rate so every kind of
defect occurs) and checked from the outside:

* the files parse (csv module; duckdb read_parquet, every column VARCHAR), have the columns of
  ADR 0005 in the order of make_sample_seeds.py, and their row counts match summary.json;
* the same seed gives byte-identical CSV, whatever --jobs and --files (the parts concatenated
  equal the single-file output), and the Parquet files hold exactly the CSV values;
* every row of expected_status.csv is where it says it is, and the split export's manifest lists
  the same rows as the single-file export's;
* the statuses the generator built every row for agree, row by row, with the project's independent
  reference implementation of the rules (dev/tests/reference/), and its counts under constraint_policy
  repair with the reference's, for two sets of arguments; nothing is left ambiguous (the generator
  does not apply the rules itself);
* every reason code of docs/rules.md occurs; content details (languages, timestamp forms, LLM
  judge, adjudications, records.csv routing) are as documented.

No dbt run here; the test takes a few seconds.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from collections import Counter, defaultdict
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest
import reference as R
from export_schema import COLUMNS, TASKS
from reference import agreement as A

HERE = Path(__file__).resolve().parent
MANIFEST_FIELDS = ["task", "record_uuid", "annotator_id", "chunk_id", "status", "reasons", "scenario"]

SCRIPT = HERE.parent.parent / "dev" / "generate" / "generate_exports.py"
ARGS = ["--records", "1500", "--chunks", "4", "--annotators", "3", "--seed", "11",
        "--bad-rate", "0.05", "--dual-rate", "0.4"]


def instant(value: str):
    """created_at as an aware datetime (no zone = UTC), None when it is not ISO 8601 date+time."""
    v = value.strip()
    if not re.fullmatch(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", v):
        return None
    try:
        dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


# ------------------------------------------------------------------ fixtures

def load_generator():
    if "generate_exports" not in sys.modules:   # registered: worker processes pickle by name
        spec = importlib.util.spec_from_file_location("generate_exports", SCRIPT)
        module = importlib.util.module_from_spec(spec)
        sys.modules["generate_exports"] = module
        spec.loader.exec_module(module)
    return sys.modules["generate_exports"]


def read_csv(path: Path) -> tuple[list, list[dict]]:
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        return header, [dict(zip(header, r, strict=True)) for r in reader]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    gen = load_generator()
    root = tmp_path_factory.mktemp("generated")
    dirs = {"csv": root / "csv", "csv_jobs1": root / "csv_jobs1", "single": root / "single",
            "parquet": root / "parquet"}
    gen.main(ARGS + ["--files", "3", "--out", str(dirs["csv"]), "--jobs", "2"])
    gen.main(ARGS + ["--files", "3", "--out", str(dirs["csv_jobs1"]), "--jobs", "1", "--quiet"])
    gen.main(ARGS + ["--files", "1", "--out", str(dirs["single"]), "--jobs", "2", "--quiet"])
    gen.main(ARGS + ["--files", "3", "--out", str(dirs["parquet"]), "--format", "parquet", "--quiet"])
    return dirs


@pytest.fixture(scope="module")
def csv_rows(data):
    """file name -> list of rows (dicts) of the split CSV data set."""
    out = {}
    for path in sorted(data["csv"].glob("*_annotations_part*.csv")):
        header, rows = read_csv(path)
        out[path.name] = rows
    return out


def task_of(file_name: str) -> str:
    return file_name.split("_annotations")[0]


def manifest(directory: Path) -> list[dict]:
    return read_csv(directory / "expected_status.csv")[1]


def summary(directory: Path) -> dict:
    return json.loads((directory / "summary.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ tests

def test_help_documents_every_option(capsys):
    gen = load_generator()
    with pytest.raises(SystemExit) as exc:
        gen.main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for option in ("--records", "--annotators", "--chunks", "--seed", "--format", "--out", "--files",
                   "--bad-rate", "--dual-rate", "--quiet", "--jobs", "examples:"):
        assert option in text


def test_rejects_bad_arguments(tmp_path, capsys):
    gen = load_generator()
    for bad in (["--annotators", "1"], ["--files", "0"], ["--bad-rate", "0.5"], ["--records", "0"]):
        with pytest.raises(SystemExit) as exc:
            gen.main(bad + ["--out", str(tmp_path)])
        assert exc.value.code == 2
    assert "--dual-rate" in capsys.readouterr().err


def test_files_parse_and_counts_match_summary(data, csv_rows):
    s = summary(data["csv"])
    assert s["parameters"]["files"] == 3 and s["parameters"]["seed"] == 11
    names = {p.name for p in data["csv"].iterdir()}
    assert names == ({f"{t}_annotations_part00{k}.csv" for t in TASKS for k in (1, 2, 3)}
                     | {"annotators.csv", "records.csv", "expected_status.csv", "summary.json"})
    for t in TASKS:
        files = s["tasks"][t]["files"]
        assert [f["file"] for f in files] == [f"{t}_annotations_part00{k}.csv" for k in (1, 2, 3)]
        for f in files:
            header, rows = read_csv(data["csv"] / f["file"])
            assert header == COLUMNS[t]
            assert len(rows) == f["rows"] > 0
        e = s["tasks"][t]["expected"]
        assert sum(f["rows"] for f in files) == s["tasks"][t]["rows"] == sum(e.values())
        by_status = Counter(m["status"] for m in manifest(data["csv"]) if m["task"] == t)
        assert by_status == {"rejected": e["rejected"], "superseded": e["superseded"]}
        assert 0.03 < (e["rejected"] + e["superseded"]) / s["tasks"][t]["rows"] < 0.08
    header, records = read_csv(data["csv"] / "records.csv")
    assert header == ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier"]
    assert len(records) == len({r["record_uuid"] for r in records}) == 1500
    header, annotators = read_csv(data["csv"] / "annotators.csv")
    assert header == ["annotator_id", "annotator_kind", "role", "display_name"]
    kinds = Counter((a["annotator_kind"], a["role"]) for a in annotators)
    assert kinds == {("HUMAN", "annotator"): 3, ("HUMAN", "adjudicator"): 1, ("LLM", "annotator"): 1}


def test_same_seed_same_bytes_whatever_jobs_and_files(data):
    for path in data["csv"].iterdir():
        assert path.read_bytes() == (data["csv_jobs1"] / path.name).read_bytes(), path.name
    for t in TASKS:
        parts = sorted(data["csv"].glob(f"{t}_annotations_part*.csv"))
        joined = parts[0].read_bytes() + b"".join(p.read_bytes().split(b"\n", 1)[1] for p in parts[1:])
        assert joined == (data["single"] / f"{t}_annotations.csv").read_bytes()
    assert (data["csv"] / "records.csv").read_bytes() == (data["single"] / "records.csv").read_bytes()


def test_parquet_holds_the_csv_values(data, csv_rows):
    s = summary(data["parquet"])
    con = duckdb.connect()
    for t in TASKS:
        for f in s["tasks"][t]["files"]:
            path = data["parquet"] / f["file"]
            assert path.suffix == ".parquet"
            rel = con.sql(f"select * from read_parquet('{path}')")
            assert rel.columns == COLUMNS[t]
            assert set(map(str, rel.types)) == {"VARCHAR"}
            rows = rel.fetchall()
            assert len(rows) == f["rows"]
            expected = [tuple(r.values()) for r in csv_rows[f["file"].replace(".parquet", ".csv")]]
            assert rows == expected
    pq = [{**m, "file": m["file"].replace(".parquet", ".csv")} for m in manifest(data["parquet"])]
    assert pq == manifest(data["csv"])
    assert not list(data["parquet"].glob(".*"))   # no temporary files left


def test_manifest_rows_are_where_it_says(data, csv_rows):
    """Each manifest row names the file, row, record, annotator and chunk of a row of the split
    export, and lists what the single-file export's manifest lists for that row (whose statuses
    test_statuses_agree_with_reference_implementation checks row by row)."""
    single = {(m["task"], int(m["row_number_in_file"])): m for m in manifest(data["single"])}
    offset = {}   # first row of each part in the single file
    for t in TASKS:
        start = 0
        for f in summary(data["csv"])["tasks"][t]["files"]:
            offset[f["file"]], start = start, start + f["rows"]
    entries = manifest(data["csv"])
    assert len(entries) == len(single) > 0
    assert {(m["task"], offset[m["file"]] + int(m["row_number_in_file"])) for m in entries} == set(single)
    for m in entries:
        t, n = m["task"], int(m["row_number_in_file"])
        row = csv_rows[m["file"]][n - 1]
        assert task_of(m["file"]) == t
        assert (row["record_uuid"], row["annotator_id"]) == (m["record_uuid"], m["annotator_id"])
        assert m["chunk_id"] == (row["chunk_id"] if t == "retrieval" else "")
        codes = m["reasons"].split(";") if m["reasons"] else []
        assert codes == sorted(codes) and bool(codes) == (m["status"] == "rejected"), m
        twin = single[t, offset[m["file"]] + n]
        assert [twin[k] for k in MANIFEST_FIELDS] == [m[k] for k in MANIFEST_FIELDS], (m, twin)


@pytest.fixture(scope="module")
def other_arguments(tmp_path_factory):
    """A second export: two annotators, one and two chunks per record, every record dual-annotated."""
    out = {}
    for chunks in (1, 2):
        out[chunks] = tmp_path_factory.mktemp(f"generated_chunks{chunks}")
        load_generator().main(["--records", "600", "--chunks", str(chunks), "--annotators", "2", "--seed", "3",
                               "--bad-rate", "0.08", "--dual-rate", "1.0", "--runs", "2", "--out",
                               str(out[chunks]), "--jobs", "1", "--quiet"])
    return out


@pytest.mark.parametrize("export", ["single", "chunks1", "chunks2"])
def test_statuses_agree_with_reference_implementation(data, other_arguments, export):
    folder = data["single"] if export == "single" else other_arguments[int(export[-1])]
    entries = {(m["task"], int(m["row_number_in_file"])): (m["status"], m["reasons"])
               for m in manifest(folder)}
    assert entries
    s = summary(folder)
    for policy in ("reject", "repair"):
        ref = R.compute(folder, constraint_policy=policy)
        assert ref.ambiguities == []
        for t in TASKS:
            counts = dict(ref.counts(t))
            key = "expected" if policy == "reject" else "expected_repair"
            assert counts == {k: v for k, v in s["tasks"][t][key].items() if v}, (policy, t)
            if policy == "reject":
                for row in ref.rows[t]:
                    got = (row.status, row.reasons_text if row.status == "rejected" else "")
                    assert got == entries.get((t, row.line), ("accepted", "")), (t, row.line)


def test_every_reason_code_and_status_occurs(data):
    entries = manifest(data["csv"])
    codes = Counter(c for m in entries for c in m["reasons"].split(";") if c)
    prefixes = {c.split(":")[0] for c in codes}
    assert {"missing", "invalid_boolean"} <= prefixes
    assert {"invalid_rank", "invalid_timestamp", "invalid_language", "wrong_task",
            "conflicting_duplicate", "rank_conflict", "violates:sufficient_implies_relevant",
            "violates:sufficient_excludes_misleading", "violates:contradicted_implies_unsupported",
            "violates:fabricated_implies_cited", "invalid_boolean:can_answer"} <= set(codes)
    for t in TASKS:
        mine = [m for m in entries if m["task"] == t]
        assert {m["status"] for m in mine} == {"rejected", "superseded"}
        assert any(";" in m["reasons"] for m in mine)   # several reasons on one row
        assert {"missing", "invalid_boolean", "invalid_timestamp", "invalid_language", "wrong_task",
                "several", "conflicting_duplicate", "resubmission",
                "duplicate_more_reasons"} <= {m["scenario"] for m in mine}


def test_content_is_as_documented(data, csv_rows):
    s = summary(data["csv"])
    rows = {t: [r for name, rs in csv_rows.items() if task_of(name) == t for r in rs] for t in TASKS}
    _, recs = read_csv(data["csv"] / "records.csv")
    all_records = {r["record_uuid"] for r in recs}
    for t in TASKS:   # every record in every export, unless its only row lost its record_uuid
        records = {r["record_uuid"] for r in rows[t] if r["record_uuid"].strip()}
        lost = sum(m["task"] == t and "missing:record_uuid" in m["reasons"] for m in manifest(data["csv"]))
        assert records <= all_records and len(records) >= 1500 - lost
    assert {r["language"] for r in rows["retrieval"]} >= {"de", "en", ""}
    stamps = [r["created_at"] for r in rows["retrieval"]]
    for pattern in (r"Z$", r"\+01:00$", r"\+02:00$", r"-05:00$", r"\.\d{3}Z$", r"^\S+ \d\d:\d\d:\d\d$",
                    r"\.\d{6}$", r"T\d\d:\d\d:\d\d$"):
        assert any(re.search(pattern, x) for x in stamps), pattern
    days = {instant(x).date() for x in stamps if instant(x)}
    assert (max(days) - min(days)).days >= 35
    texts = [r["chunk"] for r in rows["retrieval"]] + [r["input_query"] for r in rows["retrieval"]]
    assert 0.001 < sum("\n" in x for x in texts) / len(texts) < 0.03
    assert any("ü" in x or "ä" in x for x in texts) and any('"' in x for x in texts)
    assert any("," in x for x in texts)
    kinds = Counter(r["annotator_id"] for r in rows["generation"])
    llm_records = {r["record_uuid"] for r in rows["generation"] if r["annotator_id"] == "llm.judge-gpt4o"}
    assert 0.25 < len(llm_records) / 1500 < 0.35
    assert kinds["m.koenig"] > 0
    # adjudications come after the votes of their unit
    votes = defaultdict(list)
    for r in rows["retrieval"]:
        if instant(r["created_at"]) and r["annotator_id"] not in ("llm.judge-gpt4o",):
            votes[(r["record_uuid"], r["chunk_id"])].append((r["annotator_id"], instant(r["created_at"])))
    for unit in votes.values():
        adj = [ts for a, ts in unit if a == "m.koenig"]
        if adj:
            assert min(adj) > max(ts for a, ts in unit if a != "m.koenig")
    # records.csv: gold routing (ADR-001 rules, default vars) exactly for the dual-annotated
    voters = defaultdict(set)
    for r in rows["generation"]:
        if r["annotator_id"] not in ("llm.judge-gpt4o", "m.koenig") and r["annotator_id"].strip():
            voters[r["record_uuid"]].add(r["annotator_id"])

    valid, rejected, _ = A.load_records(data["csv"], "agate")
    assert rejected == [] and len(valid) == 1500

    def gold(r):   # the ADR-001 routing of the reference, default vars
        return A.route(valid[r["record_uuid"]], A.DEFAULT_GOLD_TASK_TYPES,
                       Decimal(A.DEFAULT_THRESHOLD))[0] == "tier_b"

    n_gold = sum(gold(r) for r in recs)
    assert n_gold == s["records"]["routed_gold"] == s["records"]["dual_annotated"]
    assert 0.35 < n_gold / 1500 < 0.45
    # a second human voter appears only on gold records (a defect can remove one, never add one)
    assert all(gold(r) for r in recs if len(voters[r["record_uuid"]]) >= 2)


def test_progress_lines_when_not_a_terminal(tmp_path, capsys):
    gen = load_generator()
    gen.main(["--records", "50", "--chunks", "2", "--out", str(tmp_path), "--jobs", "1"])
    captured = capsys.readouterr()
    assert "100%" in captured.err and "retrieval rows" in captured.err
    assert "\r" not in captured.err
    assert "rows/s" in captured.out
    gen.main(["--records", "50", "--chunks", "2", "--out", str(tmp_path), "--quiet"])
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out == ""
