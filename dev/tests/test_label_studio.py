"""Label Studio exports in (input_format: label_studio): the rows and marts of the native files that hold the same information.

The fixtures in fixtures/label_studio were written by a real Label Studio through its own API
and exporters (dev/fixtures/make_label_studio_fixtures.py regenerates them): three projects (one per
family) with several annotators, predictions of the LLM and CODE judges, a resubmission, a skip,
a star, choices outside the boolean spellings, a multi-choice, unanswered controls and a data
key named like a control, exported as JSON (the UI's), the snapshot export (with predictions),
JSON_MIN, CSV and TSV (named .csv), each folder beside the 0005 annotators file (the users' ids
and the model versions with their kinds and roles) and records file.

* ``label_studio_snapshot``: the snapshot export, staging's data tests and the guards, every public
  mart filled; ``label_studio_native``: the native files reference/label_studio.py derives from it,
  in plain Python from docs/rules.md, built up to the row statuses. The staged rows and row statuses
  are equal, so every public mart is (kit/adapters.py; the quarantine's file and row point into the
  export, checked apart).
* Every export type, all in one folder (the type is read from the content, not from the name),
  built up to staging: each file's staged rows are the reference's rows of that file. The folder
  also holds a control under another name (var ``label_names``), a control and a column of no
  label (named in the build log), a task without annotations (not a row, counted in the build
  log), and an annotators file without one model version (named in the
  build log: it would count as a human annotator). The same annotations in several export types
  are exact copies: each counts once.
* The reader itself: the errors that name the file, and a CSV record that does not parse.
"""

from __future__ import annotations

import collections
import json
import shutil
from pathlib import Path

import duckdb
import pytest
from export_schema import COLUMNS
from kit.adapters import (
    NATIVE_SELECT,
    STAGED,
    TOOL_BUILD_EXCLUDE,
    assert_fills_every_public_mart,
    assert_staged_rows_equal,
    reader_module,
    tool_and_native,
)
from kit.builds import PROJECT, data_set, prepare_project, read_run_results, run_dbt, scenario
from reference import label_studio as L

pytestmark = pytest.mark.slow

FIXTURES = PROJECT / "dev" / "tests" / "fixtures" / "label_studio"
TYPES = {"json": "_export.json", "snapshot": "_snapshot.json", "json_min": "_export_min.json",
         "csv": "_export.csv", "tsv": "_export_tsv.csv"}
FAMILIES = ("retrieval", "grounding", "generation")
# the fixture rejects 2 of 17 generation rows: over the default limit of 10 %
VARS = {"max_rejected_share": 0.3}
LABEL_NAMES = {"Relevance": "topically_relevant"}
UNLISTED = "code.citation-check"


@data_set("label_studio_snapshot")
def _snapshot(out: Path) -> Path:
    shutil.copytree(FIXTURES / "snapshot", out / "label_studio")
    return out / "label_studio"


@data_set("label_studio_native")
def _snapshot_native(out: Path) -> Path:
    return L.native_files(FIXTURES / "snapshot", out / "native")


scenario("label_studio_snapshot", "label_studio_snapshot", {"input_format": "label_studio", **VARS}, tests=True,
         files=True, exclude=TOOL_BUILD_EXCLUDE)
# up to the row statuses (kit/adapters.py), where max_rejected_share is not checked yet: no vars, so the
# build shares dbt's parse with the other files builds
scenario("label_studio_native", "label_studio_native", tests=True, generic_tests=False, files=True,
         select=NATIVE_SELECT)
SCENARIOS_USED = ["label_studio_snapshot", "label_studio_native"]


@pytest.fixture(scope="module")
def built(builds):
    return tool_and_native(builds, "label_studio_snapshot", "label_studio_native")


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_label_studio_staged_rows_equal_the_native_files_of_the_same_information(built, staged):
    """The same staged rows and row statuses as the native files: so the same marts (kit/adapters.py)."""
    assert_staged_rows_equal(built["tool_staged"], built["native_staged"], staged)


def test_label_studio_build_fills_every_public_mart(built):
    assert_fills_every_public_mart(built["marts"])


def test_the_fixture_covers_what_label_studio_holds(built):
    """Both runs, judges of both kinds (predictions), the adjudicator, the rejections the issue names."""
    marts = built["marts"]
    assert {row[0] for row in marts["run_comparison"]} == {"bot-v1"}
    assert {row[0] for row in marts["judge_weights"]} >= {"llm.judge-gpt4o", "llm.judge-mini", UNLISTED}
    reasons = collections.Counter(reason for row in marts["rejected_annotations"] for reason in row[5].split(";"))
    assert reasons["missing:topically_relevant"] == 1, reasons  # an unanswered control
    # a multi-choice and choices outside the spellings (maybe, 2, unklar, ...)
    assert sum(n for reason, n in reasons.items() if reason.startswith("invalid_boolean:")) >= 6, reasons
    with duckdb.connect(str(built["build"].db_path), read_only=True) as con:
        multi = con.execute("select count(*) from rejected_annotations where support_present = ?",
                            ['{"choices":["Yes","No"]}']).fetchone()[0]
    assert multi == 1


def test_skips_are_counted_in_the_build_log(built):
    output = built["build"].check().output
    assert "ragmart: generation_snapshot.json: 1 skipped (cancelled) annotation(s), not read" in output, output[-3000:]


def test_rejected_rows_point_into_the_export(built):
    build = built["build"]
    with duckdb.connect(str(build.db_path), read_only=True) as con:
        rows = con.execute("select task, source_file, source_row, annotator_id from rejected_annotations"
                           " where task <> 'records'").fetchall()
    assert rows
    for task, source_file, source_row, annotator_id in rows:
        assert source_file == f"{task}_snapshot.json"
        tasks = json.loads((FIXTURES / "snapshot" / source_file).read_text(encoding="utf-8"))
        items = [item for t in tasks for item in t["annotations"] + t["predictions"]]
        item = items[source_row - 1]
        who = item["completed_by"]["id"] if "completed_by" in item else item["model_version"]
        assert str(who) == annotator_id, (source_file, source_row)


# --------------------------------------------------------------------------- every export type, staged



def _all_types(folder: Path) -> Path:
    """Every export type of every family in one folder, one control renamed, a control and a column
    of no label, a task without annotations, and the annotators file without one model version."""
    folder.mkdir(parents=True)
    for type_name, ending in TYPES.items():
        for family in FAMILIES:
            source = FIXTURES / type_name / f"{family}{ending}"
            shutil.copy(source, folder / f"{family}_{type_name}{ending}")
    path = folder / "retrieval_json_min_export_min.json"
    records = json.loads(path.read_text(encoding="utf-8"))
    for record in records:
        if "topically_relevant" in record:
            record["Relevance"] = record.pop("topically_relevant")
    path.write_text(json.dumps(records, ensure_ascii=False, indent=2), encoding="utf-8")
    path = folder / "generation_json_min_export_min.json"
    records = json.loads(path.read_text(encoding="utf-8"))
    for record in records:
        record["sentiment"] = "ok"
    # a task nobody annotated, as an export of all tasks writes it
    records.append({"record_uuid": records[0]["record_uuid"], "query": "q", "answer": "a", "id": 999,
                    "annotator": None, "annotation_id": None, "created_at": None, "updated_at": None,
                    "lead_time": None})
    path.write_text(json.dumps(records, ensure_ascii=False, indent=2), encoding="utf-8")
    path = folder / "generation_json_export.json"
    tasks = json.loads(path.read_text(encoding="utf-8"))
    first = next(a for t in tasks for a in t["annotations"] if not a["was_cancelled"])
    first["result"].append({"id": "x", "from_name": "tone", "to_name": "answer", "type": "choices",
                            "value": {"choices": ["Yes"]}})
    path.write_text(json.dumps(tasks, ensure_ascii=False, indent=2), encoding="utf-8")
    lines = (FIXTURES / "snapshot" / "annotators.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "annotators.csv").write_text("".join(line for line in lines if not line.startswith(UNLISTED)),
                                           encoding="utf-8")
    shutil.copy(FIXTURES / "snapshot" / "records.csv", folder / "records.csv")
    return folder


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """dbt build up to staging (and the unlisted-annotators check) on the folder of every type."""
    root = tmp_path_factory.mktemp("label_studio")
    project = prepare_project(root, None)
    folder = _all_types(root / "exports")
    variables = {"input_mode": "files", "input_path": str(folder), "input_format": "label_studio",
                 "label_names": LABEL_NAMES}
    select = ["+stg_label_studio__annotations", "+assert_export_annotators_are_listed", "+stg_annotation_exports__files"]
    result = run_dbt(project, ["build", "--exclude", "resource_type:seed", "resource_type:unit_test",
                               "--vars", json.dumps(variables), "--select", *select,
                               "--indirect-selection", "cautious"],
                     env={"RAGMART_DUCKDB_PATH": "staged.duckdb"})
    text = result.stdout + result.stderr
    failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
    assert result.returncode == 0 and not failed, f"dbt failed:\n{text[-4000:]}"
    with duckdb.connect(str(root / "staged.duckdb"), read_only=True) as con:
        rows = {}
        for family in FAMILIES:
            # the family's rows with the columns of its export, as the canonical input rows keep them
            cursor = con.execute(f"select source_file, {', '.join(COLUMNS[family])} from"
                                 " staging.stg_label_studio__annotations where family = ?", [family])
            names = [d[0] for d in cursor.description]
            for values in cursor.fetchall():
                row = dict(zip(names, values))
                rows.setdefault(row.pop("source_file"), []).append(row)
    return folder, rows, text


def _key(row: dict) -> str:
    return repr(sorted((k, v) for k, v in row.items()))


@pytest.mark.parametrize("type_name", list(TYPES))
@pytest.mark.parametrize("family", FAMILIES)
def test_every_export_type_gives_the_reference_rows(staged, type_name, family):
    folder, rows, _ = staged
    file_name = f"{family}_{type_name}{TYPES[type_name]}"
    _, expected = L.native_rows(folder / file_name, LABEL_NAMES)
    expected = [{k: (None if v in ("", None) else v) for k, v in row.items()} for row in expected]
    got = rows.get(file_name, [])
    assert expected, file_name
    assert sorted(map(_key, got)) == sorted(map(_key, expected)), file_name


def test_the_export_types_agree_on_the_human_rows(staged):
    """JSON, the snapshot, CSV and TSV hold the same annotations (JSON_MIN too, but for the notes it
    takes from the task data); only the snapshot holds the predictions."""
    _, rows, _ = staged
    for family in FAMILIES:
        def humans(type_name, drop=(), family=family):
            found = rows[f"{family}_{type_name}{TYPES[type_name]}"]
            return sorted(_key({k: v for k, v in row.items() if k not in drop}) for row in found
                          if row["annotator_id"].isdigit())
        assert humans("json") == humans("snapshot") == humans("csv") == humans("tsv"), family
        if family != "retrieval":  # the renamed control is read through label_names
            assert humans("json_min", ["notes"]) == humans("csv", ["notes"]), family
        judges = {row["annotator_id"] for row in rows[f"{family}_snapshot{TYPES['snapshot']}"]}
        assert judges - {str(n) for n in range(100)}, family
        assert all(row["annotator_id"].isdigit() for row in rows[f"{family}_json{TYPES['json']}"])


def test_the_same_annotations_in_several_exports_count_once(staged):
    """The folder holds each annotation in four or five export types: rows equal in every column of
    the export are exact copies, read once from the file that sorts last by name (docs/rules.md,
    Daily exports). Counted here from the reference's rows of each file, the last file first."""
    folder, _, _ = staged
    with duckdb.connect(str(folder.parent / "staged.duckdb"), read_only=True) as con:
        got = {name: n for name, n in con.execute(
            "select source_file, n_repeated from staging.stg_annotation_exports__files").fetchall()}
    for family in FAMILIES:
        seen, expected = set(), {}
        for path in sorted(folder.glob(f"{family}_*"), key=lambda p: p.name.encode(), reverse=True):
            _, rows = L.native_rows(path, LABEL_NAMES)
            expected[path.name] = 0
            for row in rows:
                content = tuple(None if row.get(c) in ("", None) else str(row[c]).strip() or None for c in COLUMNS[family])
                expected[path.name] += content in seen
                seen.add(content)
        assert sum(expected.values()) > 0, family
        assert {name: got.get(name) for name in expected} == expected, family


def test_the_build_log_names_what_is_not_read(staged):
    _, _, text = staged
    for family, n in (("retrieval", 16), ("grounding", 8), ("generation", 2)):
        assert f"ragmart: {family}_json_export.json lists its {n} prediction(s) by id only" in text, text[-3000:]
    assert "Label Studio controls that map to no label are not read: tone (1 results)" in text, text[-3000:]
    assert "Relevance" not in text.split("are not read:")[1].split(". Map")[0]
    n_records = len(json.loads((FIXTURES / "json_min" / "generation_export_min.json").read_text(encoding="utf-8")))
    assert ("columns of the Label Studio exports that are no 0005 column and map to no label are not read:"
            f" sentiment ({n_records} rows).") in text, text[-3000:]
    assert "ragmart: generation_json_min_export_min.json: 1 task(s) without annotations" in text, text[-3000:]
    assert "are not in the annotators input; their rows count as HUMAN annotators" in text, text[-3000:]
    assert f"{UNLISTED}: grounding 6 row(s)" in text, text[-3000:]


# --------------------------------------------------------------------------- the reader itself

def _reader():
    return reader_module("models/staging/label_studio/base_label_studio__export.py")


def test_files_the_reader_cannot_read_stop_it_naming_them(tmp_path):
    reader = _reader()
    (tmp_path / "retrieval_export.xlsx").write_bytes(b"PK")
    with pytest.raises(reader.LabelStudioExportError, match=r"retrieval_export\.xlsx: its name makes it a retrieval"):
        reader._find_files(str(tmp_path))
    (tmp_path / "retrieval_export.xlsx").unlink()
    with pytest.raises(reader.LabelStudioExportError, match="holds no Label Studio export"):
        reader._find_files(str(tmp_path))
    broken = tmp_path / "grounding.json"
    broken.write_text('[{"data": {}', encoding="utf-8")
    with pytest.raises(reader.LabelStudioExportError, match=r"grounding\.json: not valid JSON"):
        reader._read_file(str(broken), "grounding", 1)


def test_a_csv_record_that_does_not_parse_is_kept_as_malformed(tmp_path):
    reader = _reader()
    path = tmp_path / "generation.csv"
    path.write_text('"annotator","helpful","record_uuid","updated_at"\r\n"2","Yes","r1","2026-01-01T00:00:00Z"\r\n'
                    '"3","No"\r\n', encoding="utf-8")
    rows = reader._read_file(str(path), "generation", 1)
    items = {row["source_row"]: row for row in rows if row["field_source"] == "item"}
    assert items[1].get("malformed_record") is None and items[1]["annotator_id"] == "2"
    assert items[2]["malformed_record"] == '3,No'
    fields = {(row["field_name"], row["field_value"]) for row in rows if row["source_row"] == 1
              and row["field_source"] == "column"}
    assert ("helpful", "Yes") in fields and ("record_uuid", "r1") in fields
