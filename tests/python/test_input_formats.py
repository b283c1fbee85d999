"""Per-family input formats (var input_format as a mapping): each family read in its own format from one folder.

One folder holds Label Studio's snapshot export of retrieval beside the native files of grounding
and generation that reference/label_studio.py derives from the same fixture, with the annotators
and records files. Built up to staging with ``input_format: {retrieval: label_studio}`` (the
families left out are native): each family's staged rows are the rows its own format gives
(retrieval: the reference's rows of the Label Studio file; grounding and generation: the native
files' rows), the Label Studio reader reads only its family, and the native files reader only
the families mapped to native (Label Studio's grounding and generation exports, named like
native files, are not in the folder: a file named for a native family must be a native file).
The full build of a mixed folder is test_langfuse.py's (retrieval native, the answers from
Langfuse), compared with the native build mart by mart.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from kit.builds import PROJECT, prepare_project, read_run_results, run_dbt
from reference import label_studio as L

pytestmark = pytest.mark.slow

LABEL_STUDIO = PROJECT / "tests" / "python" / "fixtures" / "label_studio" / "snapshot"
FAMILIES = ("retrieval", "grounding", "generation")


def _mixed_folder(root: Path) -> Path:
    native = L.native_files(LABEL_STUDIO, root / "native")
    folder = root / "mixed"
    folder.mkdir()
    shutil.copy(LABEL_STUDIO / "retrieval_snapshot.json", folder / "retrieval_snapshot.json")
    for name in ("grounding_annotations.csv", "generation_annotations.csv", "annotators.csv", "records.csv"):
        shutil.copy(native / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    root = tmp_path_factory.mktemp("input_formats")
    project = prepare_project(root, None)
    folder = _mixed_folder(root)
    variables = {"input_mode": "files", "input_path": str(folder), "input_format": {"retrieval": "label_studio"}}
    select = [f"+stg_annotation_exports__{family}" for family in FAMILIES] + ["+stg_annotation_exports__annotators"]
    result = run_dbt(project, ["build", "--exclude", "resource_type:seed", "resource_type:unit_test",
                               "--vars", json.dumps(variables), "--select", *select,
                               "--indirect-selection", "cautious"],
                     env={"RAGMART_DUCKDB_PATH": "staged.duckdb"})
    text = result.stdout + result.stderr
    failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
    assert result.returncode == 0 and not failed, f"dbt failed:\n{text[-4000:]}"
    return folder, root / "staged.duckdb", text


def _rows(db_path: Path, relation: str) -> list[dict]:
    with duckdb.connect(str(db_path), read_only=True) as con:
        cursor = con.execute(f"select * exclude (annotation_row_id, source_row, malformed_record) from {relation}")
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values)) for values in cursor.fetchall()]


def _key(row: dict) -> str:
    return repr(sorted((k, None if v in ("", None) else v) for k, v in row.items()))


def test_retrieval_is_read_from_label_studio(staged):
    folder, db_path, _ = staged
    _, expected = L.native_rows(folder / "retrieval_snapshot.json")
    got = _rows(db_path, "staging.stg_label_studio__retrieval")
    assert expected and {row.pop("source_file") for row in got} == {"retrieval_snapshot.json"}
    assert sorted(map(_key, got)) == sorted(map(_key, expected))
    with duckdb.connect(str(db_path), read_only=True) as con:
        families = {row[0] for row in con.execute("select distinct family from staging.base_label_studio__export").fetchall()}
    assert families == {"retrieval"}


@pytest.mark.parametrize("family", ["grounding", "generation"])
def test_the_other_families_are_read_as_native_files(staged, family):
    folder, db_path, _ = staged
    with open(folder / f"{family}_annotations.csv", newline="", encoding="utf-8") as handle:
        expected = list(csv.DictReader(handle))
    got = _rows(db_path, f"staging.stg_native__{family}")
    assert expected and {row.pop("source_file") for row in got} == {f"{family}_annotations.csv"}
    assert sorted(map(_key, got)) == sorted(map(_key, expected))


def test_the_native_reader_reads_only_the_native_families(staged):
    _, db_path, _ = staged
    with duckdb.connect(str(db_path), read_only=True) as con:
        inputs = {row[0] for row in con.execute("select distinct ragmart_input from staging.base_export_files").fetchall()}
        staged_counts = {family: con.execute(f"select count(*) from staging.stg_annotation_exports__{family}").fetchone()[0]
                         for family in FAMILIES}
    assert inputs == {"grounding", "generation", "annotators", "records"}
    assert all(staged_counts.values()), staged_counts
