"""The fixture scripts of the tools (dev/fixtures/make_phoenix_fixtures.py, make_mlflow_fixtures.py,
make_label_studio_fixtures.py) stay runnable without their tools: they import in the project's venv
(a tool's packages are imported only where the tool runs), send the labels of the task spec, and
choose from today's sample exactly the records their committed fixtures hold, so that regenerating
the fixtures reproduces the rows the adapter tests expect. The MLflow fixtures hold the sample's
labels of those records (reference/mlflow.py), in the store and in its exports alike."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections import Counter
from pathlib import Path

import make_label_studio_fixtures
import make_mlflow_fixtures
import make_phoenix_fixtures
import pandas as pd
import pytest
from export_schema import FILES, LABELS, SPEC, TASKS
from fixture_sample import FAMILIES, SEEDS, chosen_sample
from reference import mlflow as mlflow_reference

FIXTURES = Path(__file__).parent / "fixtures"
SCRIPTS = {"phoenix": (make_phoenix_fixtures, "trace_id"), "label_studio": (make_label_studio_fixtures, "uuid"),
           "mlflow": (make_mlflow_fixtures, "uuid")}
MLFLOW = FIXTURES / "mlflow"


def test_the_families_are_the_task_spec():
    assert list(FAMILIES) == list(TASKS)
    for task in TASKS:
        file_name, labels = FAMILIES[task]
        assert file_name == FILES[task]
        assert list(labels) == LABELS[task] + list(SPEC[task]["optional_booleans"])


@pytest.mark.parametrize("tool", SCRIPTS)
def test_the_script_chooses_the_records_of_its_fixtures(tool, tmp_path):
    script, record_id = SCRIPTS[tool]
    out, _, chosen = chosen_sample(["--out", str(tmp_path)], script.__doc__, script.DEFAULT_OUT, script.RUNS,
                                   script.QUERIES, script.features, script.WANTED)
    assert out == tmp_path
    committed = json.loads((FIXTURES / tool / "manifest.json").read_text(encoding="utf-8"))["records"]
    if tool == "mlflow":  # the record ids are MLflow's; the side files are checked below
        assert [{"record_uuid": record.uuid, "run_id": record.run_id, "query_id": record.query_id} for record in chosen] \
            == [{"record_uuid": row["sample_record_uuid"], "run_id": row["run_id"], "query_id": row["query_id"]}
                for row in committed]
        return
    assert [{"record_uuid": getattr(record, record_id), "run_id": record.run_id, "query_id": record.query_id}
            for record in chosen] == committed
    for folder in {path.parent for path in (FIXTURES / tool).rglob("records.csv")}:
        lines = (folder / "records.csv").read_text(encoding="utf-8").splitlines()
        assert lines == ["record_uuid,run_id,query_id"] + [",".join(row.values()) for row in committed]


def mlflow_manifest() -> dict:
    return json.loads((MLFLOW / "manifest.json").read_text(encoding="utf-8"))


def test_the_mlflow_store_holds_the_sample_labels(tmp_path):
    """The native files of the SQLite store hold the seeds' last value of every label of the chosen
    records per record, annotator and unit; beyond them only the row of the feedback with an error."""
    manifest = mlflow_manifest()
    db = MLFLOW / "db"
    native = mlflow_reference.native_files(db / "mlflow.db", tmp_path, annotators_file=db / "annotators.csv",
                                           records_file=db / "records.csv")
    records = {row["record_uuid"]: row["sample_record_uuid"] for row in manifest["records"]}
    # the labels the store was sent (the seeds may have a label added since: docs/extending.md)
    with sqlite3.connect(f"file:{db / 'mlflow.db'}?mode=ro", uri=True) as con:
        sent = {name for (name,) in con.execute("select distinct name from assessments")}
    found = mlflow_reference.seed_differences(native, SEEDS, records, sent)
    first = manifest["records"][0]["sample_record_uuid"]
    assert found == {"differences": [], "seed_only": [],
                     "native_only": [("generation", first, make_mlflow_fixtures.ERROR_SOURCE, "")]}
    runs = {row["record_uuid"]: (row["run_id"], row["query_id"])
            for row in pd.read_csv(native / "records.csv", dtype=str).to_dict("records")}
    assert runs == {row["record_uuid"]: (row["run_id"], row["query_id"]) for row in manifest["records"]}


def test_the_mlflow_exports_hold_the_store():
    """traces.parquet and traces.jsonl.gz hold the store's traces of ragmart-sample with the same
    feedback (all and valid ones) and client_request_ids."""
    manifest = mlflow_manifest()
    experiment_id = manifest["experiments"][make_mlflow_fixtures.EXPERIMENT]
    with sqlite3.connect(f"file:{MLFLOW / 'db' / 'mlflow.db'}?mode=ro", uri=True) as con:
        store = {trace: (client or None, Counter())
                 for trace, client in con.execute("select request_id, client_request_id from trace_info"
                                                  " where experiment_id = ?", (experiment_id,))}
        for trace, kind, valid in con.execute("select trace_id, assessment_type, valid from assessments"):
            if trace in store:
                store[trace][1][(kind, bool(valid))] += 1

    def counted(info_assessments) -> Counter:
        return Counter(("feedback" if "feedback" in a else "expectation", bool(a.get("valid", True)))
                       for a in info_assessments)

    frame = pd.read_parquet(MLFLOW / "parquet" / "traces.parquet")
    assert {row.trace_id: (None if pd.isna(row.client_request_id) else row.client_request_id,
                           counted(json.loads(row.assessments))) for row in frame.itertuples()} == store
    with gzip.open(MLFLOW / "jsonl" / "traces.jsonl.gz", "rt", encoding="utf-8") as fh:
        lines = [json.loads(line)["info"] for line in fh]
    assert {info["trace_id"]: (info.get("client_request_id"), counted(info.get("assessments", []))) for info in lines} == store
    assert {info["trace_location"]["mlflow_experiment"]["experiment_id"] for info in lines} == {experiment_id}
