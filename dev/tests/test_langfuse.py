"""Langfuse's blob-storage export in (input_format per family: retrieval native, grounding and generation langfuse).

The fixtures in fixtures/langfuse were written by dev/fixtures/make_langfuse_fixtures.py from Langfuse's
documented file organization and field reference (no Langfuse server can run here): 8 traces of
the project's sample, their grounding and generation labels as scores of people (ANNOTATION), LLM
judges (EVAL) and a rule-based judge (API) over three overlapping export windows with manifests,
an updated score, a score name of no label, a session score, a label score on an observation, a
score without provenance fields; in five shapes (enriched JSONL, Parquet, gzip CSV, JSON with
gzip JSON scores; legacy CSV without provenance columns), each beside the native retrieval file,
the annotators (the adjudicator) and the records (no runs: they come from the traces' release).

* ``langfuse_jsonl``: the enriched JSONL export (with a scores file no manifest lists), built whole,
  every public mart filled; ``langfuse_jsonl_native``: the native files reference/langfuse.py
  derives from it in plain Python, built up to the row statuses. The staged rows and row statuses
  are equal, so every public mart is (kit/adapters.py; the quarantine's file and row point into
  the export).
* The Parquet and the legacy CSV shapes, built up to staging: the staged grounding and generation
  rows are the reference's rows of that shape, file and row included; the reader gives every
  other file type (JSON, gzip JSON, gzip CSV) the rows it gives JSONL. The legacy shape is staged
  with its retrieval from Label Studio's snapshot export instead (input_format per family, three
  formats in one folder): each reader reads only its families.
* The build log: the unlisted file is named, the ignored score names counted, the session score
  counted; the reader: two project folders stop the build naming both.
"""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb
import make_langfuse_fixtures
import pytest
from export_schema import COLUMNS
from kit.adapters import (
    NATIVE_SELECT,
    TOOL_BUILD_EXCLUDE,
    assert_fills_every_public_mart,
    assert_staged_rows_equal,
    reader_module,
    tool_and_native,
)
from kit.adapters import (
    STAGED as STAGED_MODELS,
)
from kit.builds import PROJECT, data_set, prepare_project, read_run_results, run_dbt, scenario
from reference import label_studio as L
from reference import langfuse as F

pytestmark = pytest.mark.slow

FIXTURES = PROJECT / "dev" / "tests" / "fixtures" / "langfuse"
PROJECT_ID = "cmragmartsample0000000001"
FORMATS = {"retrieval": "native", "grounding": "langfuse", "generation": "langfuse"}
SHAPES = ("enriched_jsonl", "enriched_parquet", "enriched_csv_gz", "enriched_json", "legacy_csv")
# built up to staging: Parquet (native types) and the legacy layout; the other enriched shapes go
# through the same SQL once read, and the reader gives every file type the same rows (below)
STAGED = ("enriched_parquet", "legacy_csv")
# the sample's rows of these records reject a few on purpose (a value that is no boolean, a missing label)
VARS = {"max_rejected_share": 0.3}
OPTIONS = {"enriched_jsonl": {"input_path": "question"}}
FAMILIES = ("grounding", "generation")
LABEL_STUDIO = PROJECT / "dev" / "tests" / "fixtures" / "label_studio" / "snapshot"
# the legacy shape is staged with retrieval from Label Studio: three formats in one folder
MIXED = {"retrieval": "label_studio", "grounding": "langfuse", "generation": "langfuse"}


def _vars(shape: str) -> dict:
    extra = {"langfuse_input_path": "question"} if shape == "enriched_jsonl" else {}
    return {"input_format": FORMATS, **VARS, **extra}


@data_set("langfuse_jsonl")
def _jsonl(out: Path) -> Path:
    shutil.copytree(FIXTURES / "enriched_jsonl", out / "langfuse")
    return out / "langfuse"


@data_set("langfuse_jsonl_native")
def _jsonl_native(out: Path) -> Path:
    return F.native_files(FIXTURES / "enriched_jsonl", out / "native", **OPTIONS["enriched_jsonl"])


scenario("langfuse_jsonl", "langfuse_jsonl", _vars("enriched_jsonl"), tests=True, files=True,
         exclude=TOOL_BUILD_EXCLUDE)
# up to the row statuses (kit/adapters.py), where max_rejected_share is not checked yet: no vars, so the
# build shares dbt's parse with the other files builds
scenario("langfuse_jsonl_native", "langfuse_jsonl_native", tests=True, generic_tests=False, files=True,
         select=NATIVE_SELECT)
SCENARIOS_USED = ["langfuse_jsonl", "langfuse_jsonl_native"]


@pytest.fixture(scope="module")
def built(builds):
    return tool_and_native(builds, "langfuse_jsonl", "langfuse_jsonl_native")


@pytest.mark.parametrize("staged_model", STAGED_MODELS + ["row_status"])
def test_langfuse_staged_rows_equal_the_native_files_of_the_same_information(built, staged_model):
    """The same staged rows and row statuses as the native files: so the same marts (kit/adapters.py)."""
    assert_staged_rows_equal(built["tool_staged"], built["native_staged"], staged_model)


def test_langfuse_build_fills_every_public_mart(built):
    assert_fills_every_public_mart(built["marts"])


def test_the_fixture_covers_what_langfuse_holds(built):
    """Both runs from the traces' release, judges of both kinds from the scores' source, rejections."""
    marts = built["marts"]
    assert {row[0] for row in marts["run_comparison"]} == {"bot-v1"}
    assert {row[1] for row in marts["run_comparison"]} == {"bot-v2"}
    judges = {row[0] for row in marts["judge_weights"]}
    assert {"llm.judge-gpt4o", "code.citation-check"} & judges, judges
    assert any(row[0] == "grounding" for row in marts["rejected_annotations"])


def test_the_build_log_names_what_is_not_read(built):
    output = built["build"].check().output
    assert ("Langfuse data files that no manifest lists are not read" in output
            and "scores/2026-11-20T13-00-00.000Z.jsonl" in output), output[-3000:]
    assert "Langfuse score names that map to no label are not read: toxicity (8 scores)" in output, output[-3000:]
    assert "1 Langfuse session score(s) without a trace are not rows" in output, output[-3000:]


def test_rejected_rows_point_into_the_export(built):
    with duckdb.connect(str(built["build"].db_path), read_only=True) as con:
        rows = con.execute("select task, source_file, source_row from rejected_annotations"
                           " where task in ('grounding', 'generation')").fetchall()
    assert rows
    expected = F.native_rows(FIXTURES / "enriched_jsonl", **OPTIONS["enriched_jsonl"])
    places = {(row["source_file"], row["source_row"]) for family in FAMILIES for row in expected[family]}
    assert {(file, row) for _, file, row in rows} <= places


# --------------------------------------------------------------------------- every shape, staged


def _staged_vars(root: Path, shape: str) -> dict:
    variables = {"input_mode": "files", "input_path": str(root / shape / "export"), **_vars(shape)}
    return variables | ({"input_format": MIXED} if shape == "legacy_csv" else {})


def _staged_build(root: Path, shape: str) -> tuple[Path, str]:
    project = prepare_project(root / shape, None)
    folder = root / shape / "export"
    shutil.copytree(FIXTURES / shape, folder)
    if shape == "legacy_csv":  # retrieval from Label Studio instead of the native file
        (folder / "retrieval_annotations.csv").unlink()
        shutil.copy(LABEL_STUDIO / "retrieval_snapshot.json", folder / "retrieval_snapshot.json")
    variables = _staged_vars(root, shape)
    select = ["+stg_langfuse__annotations", "+stg_langfuse__records", "+stg_annotation_exports__annotations"]
    result = run_dbt(project, ["build", "--exclude", "resource_type:seed", "resource_type:unit_test",
                               "--vars", json.dumps(variables), "--select", *select,
                               "--indirect-selection", "cautious"],
                     env={"RAGMART_DUCKDB_PATH": "staged.duckdb"})
    text = result.stdout + result.stderr
    failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
    assert result.returncode == 0 and not failed, f"[{shape}] dbt failed:\n{text[-4000:]}"
    return project.parent / "staged.duckdb", text


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """dbt build up to staging of the STAGED shapes, both at once."""
    root = tmp_path_factory.mktemp("langfuse")
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(zip(STAGED, pool.map(lambda shape: _staged_build(root, shape), STAGED)))
    results["root"] = root
    return results


def _key(row: dict) -> str:
    return repr(sorted((k, None if v in ("", None) else str(v)) for k, v in row.items()))


def _staged_rows(db_path: Path, family: str) -> list[dict]:
    """The family's rows of stg_langfuse__annotations but their row ids and family."""
    with duckdb.connect(str(db_path), read_only=True) as con:
        cursor = con.execute("select * exclude (family, annotation_row_id, malformed_record)"
                             " from staging.stg_langfuse__annotations where family = ?", [family])
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values)) for values in cursor.fetchall()]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("shape", STAGED)
def test_every_staged_shape_gives_the_reference_rows(staged, shape, family):
    db_path, _ = staged[shape]
    expected = F.native_rows(FIXTURES / shape, **OPTIONS.get(shape, {}))[family]
    got = _staged_rows(db_path, family)
    assert expected
    columns = set(expected[0])
    # another family's columns are null in the family's rows
    assert [(k, v) for row in got for k, v in row.items() if k not in columns and v is not None] == [], shape
    got = [{k: v for k, v in row.items() if k in columns} for row in got]
    assert sorted(map(_key, got)) == sorted(map(_key, expected)), shape


def test_the_runs_come_from_the_release(staged):
    db_path, _ = staged["legacy_csv"]
    with duckdb.connect(str(db_path), read_only=True) as con:
        runs = dict(con.execute("select record_uuid, run_id from staging.stg_langfuse__records").fetchall())
    assert set(runs.values()) == {"bot-v1", "bot-v2"} and len(runs) == 8


def test_without_provenance_every_evaluator_is_one_judge(staged):
    db_path, _ = staged["legacy_csv"]
    with duckdb.connect(str(db_path), read_only=True) as con:
        judges = {row[0] for row in con.execute(
            "select distinct annotator_id from staging.stg_langfuse__scores where score_source = 'EVAL'").fetchall()}
    assert judges == {"langfuse-eval"}


def test_each_format_reads_only_its_families(staged, built):
    """Legacy CSV staged with retrieval from Label Studio: its retrieval rows are the reference's,
    Label Studio's reader reads retrieval alone, the native reader only the annotators and records;
    in the full build (retrieval native) the native reader reads retrieval beside them."""
    db_path, _ = staged["legacy_csv"]
    _, expected = L.native_rows(LABEL_STUDIO / "retrieval_snapshot.json")
    with duckdb.connect(str(db_path), read_only=True) as con:
        cursor = con.execute(f"select {', '.join(COLUMNS['retrieval'])} from staging.stg_label_studio__annotations"
                             " where family = 'retrieval'")
        names = [d[0] for d in cursor.description]
        got = [dict(zip(names, values)) for values in cursor.fetchall()]
        tool_families = {row[0] for row in con.execute(
            "select distinct family from staging.base_label_studio__export").fetchall()}
        native_inputs = {row[0] for row in con.execute(
            "select distinct ragmart_input from staging.base_native__export_files where ragmart_input <> 'file'").fetchall()}
    assert expected and sorted(map(_key, got)) == sorted(map(_key, expected))
    assert tool_families == {"retrieval"}
    assert native_inputs == {"annotators", "records"}
    with duckdb.connect(str(built["build"].db_path), read_only=True) as con:
        native_inputs = {row[0] for row in con.execute(
            "select distinct ragmart_input from staging.base_native__export_files where ragmart_input <> 'file'").fetchall()}
    assert native_inputs == {"retrieval", "annotators", "records"}


def test_two_score_names_of_one_label_stop_the_build_naming_both(staged):
    """toxicity mapped to helpful beside the score named helpful: the staged legacy project again,
    its scores model alone."""
    root = staged["root"]
    variables = {**_staged_vars(root, "legacy_csv"), "label_names": {"toxicity": "helpful"}}
    result = run_dbt(root / "legacy_csv" / "project", ["run", "--select", "stg_langfuse__scores",
                                                       "--vars", json.dumps(variables)],
                     env={"RAGMART_DUCKDB_PATH": "staged.duckdb"})
    text = result.stdout + result.stderr
    assert result.returncode != 0, text[-3000:]
    assert "the Langfuse score names helpful and toxicity both map to the label helpful" in text, text[-3000:]


# --------------------------------------------------------------------------- the reader itself


def test_two_project_folders_stop_the_build_naming_both(tmp_path):
    reader = reader_module("models/staging/langfuse/base_langfuse__export.py")
    shutil.copytree(FIXTURES / "legacy_csv" / PROJECT_ID, tmp_path / PROJECT_ID)
    shutil.copytree(FIXTURES / "legacy_csv" / PROJECT_ID, tmp_path / "cmotherproject0000000002")
    with pytest.raises(reader.LangfuseExportError, match=f"{PROJECT_ID}.*cmotherproject0000000002"):
        reader._project_folder(str(tmp_path), None)
    assert reader._project_folder(str(tmp_path), PROJECT_ID).endswith(PROJECT_ID)


@pytest.mark.parametrize("shape", ["enriched_parquet", "enriched_csv_gz", "enriched_json"])
@pytest.mark.parametrize("table", ["scores", "observations_v2"])
def test_every_file_type_reads_the_same_rows(shape, table):
    """Parquet, JSON, gzip JSON, gzip CSV hold the same rows as JSONL: the reader's text of every
    field it reads is the same whatever the type, row by row and file by file (the JSONL shape
    alone has the unlisted file, and its inputs are JSON objects)."""
    reader = reader_module("models/staging/langfuse/base_langfuse__export.py")
    kind = "score" if table == "scores" else "observation"

    def rows(name):
        folder = FIXTURES / name / PROJECT_ID / table
        paths = sorted(folder.iterdir(), key=lambda path: path.name.encode())[:3]
        with duckdb.connect() as session:
            return [[{**reader._row(kind, record, None, None), "source_row": n}
                     for n, record in reader._records(session, str(path))] for path in paths]

    expected, got = rows("enriched_jsonl"), rows(shape)
    if kind == "observation":  # the JSONL shape's inputs are JSON objects, the others' JSON strings
        expected = [[{**row, "input_text": None} for row in part] for part in expected]
        got = [[{**row, "input_text": None} for row in part] for part in got]
    assert sum(map(len, expected)) > 0
    assert got == expected


def test_the_script_writes_the_committed_fixtures(tmp_path):
    """dev/fixtures/make_langfuse_fixtures.py is deterministic: run again, it writes the committed files
    byte for byte (so the fixtures are what the script and its cited documents say)."""
    out = tmp_path / "langfuse"
    assert make_langfuse_fixtures.main(["--out", str(out)]) == 0

    def files(folder: Path) -> dict[str, bytes]:
        return {str(path.relative_to(folder)): path.read_bytes() for path in folder.rglob("*") if path.is_file()}

    assert files(out) == files(FIXTURES)
