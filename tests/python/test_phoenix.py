"""Arize Phoenix exports in (input_format: phoenix): the marts of the native files that hold the same information.

The fixtures in fixtures/phoenix were written by a real Phoenix through its own client and
GraphQL API (scripts/make_phoenix_fixtures.py regenerates them): its SQLite database (``db/``,
with a second project), and the frames a user exports with the client as Parquet and as pandas'
CSV (``parquet/``, ``csv/``), each beside the 0005 annotators file (the adjudicator's role,
which Phoenix cannot record) and records file (the runs).

* ``phoenix_db``: the database, every data test, every public mart filled; ``phoenix_native``:
  the native files that reference/phoenix.py derives from the same database, in plain Python from
  docs/rules.md, built up to the row statuses. The staged rows and row statuses are equal, so every
  public mart is (kit/adapters.py; the quarantine's file and row point into the database, checked apart).
* The edge copy: the database changed through SQL the way teams label differently:
  a label under another name (var ``label_names``), label texts of their own (``label_values``),
  Phoenix's hallucination evaluator's name and labels (``hallucination``: ``hallucinated`` /
  ``factual``, mapped for that label alone by a per-label ``label_values``),
  scores that need a threshold (``score_threshold``), an annotation with no identifier but its
  annotator in the metadata, one with neither (``missing:annotator_id``), and a document
  annotation on a position its span does not have (no chunk), and a name of no label (not read,
  named in the build log): built up to staging, its staged rows (every value parsed) equal those
  of the native files the reference derives from that copy with the same vars (everything after
  staging is shared).
* The frames (Parquet and CSV) built up to staging give the staged rows of the database.
* A database with two annotated projects stops the build naming them (unless
  ``phoenix_project``), and an identifier Phoenix records with two kinds stops it naming the id.
* The database without its annotators file (no roles): the build warns that no row adjudicates.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import duckdb
import pytest
from kit.adapters import NATIVE_SELECT, STAGED, public_mart_rows, reader_module, rows_equal, staged_rows
from kit.builds import PROJECT, PUBLIC_MARTS, data_set, prepare_project, read_run_results, run_dbt, scenario
from reference import phoenix as P

pytestmark = pytest.mark.slow

FIXTURES = PROJECT / "tests" / "python" / "fixtures" / "phoenix"
PROJECT_NAME = "ragmart-sample"
EDGE_VARS = {"label_names": {"relevance": "topically_relevant", "hallucination": "unsupported_claim_present"},
             "label_values": {"hilfreich": 1, "nicht hilfreich": 0,
                              "unsupported_claim_present": {"hallucinated": 1, "factual": 0}},
             "score_threshold": 0.5}


def _edge_database(folder: Path) -> Path:
    """The fixture database folder copied into `folder`, its annotations changed (module docstring)."""
    shutil.copytree(FIXTURES / "db", folder, dirs_exist_ok=True)
    con = sqlite3.connect(folder / "phoenix.db")
    with con:
        con.execute("update document_annotations set name = 'relevance' where name = 'topically_relevant'")
        con.execute("update span_annotations set label = case label when 'yes' then 'hilfreich'"
                    " when 'no' then 'nicht hilfreich' else label end where name = 'helpful' and annotator_kind = 'HUMAN'")
        con.execute("update span_annotations set score = case score when 1.0 then 0.9 when 0.0 then 0.2 else score end"
                    " where annotator_kind = 'CODE'")
        # Phoenix's hallucination evaluator: its name, and its labels on the human annotations
        con.execute("update span_annotations set name = 'hallucination', label = case label when 'yes' then 'hallucinated'"
                    " when 'no' then 'factual' else label end where name = 'unsupported_claim_present'")
        first, second = [row[0] for row in con.execute(
            "select id from span_annotations where annotator_kind = 'HUMAN' and name = 'support_present'"
            " order by id limit 2")]
        con.execute("update span_annotations set metadata = json_object('annotator_id', identifier), identifier = ''"
                    " where id = ?", (first,))
        con.execute("update span_annotations set metadata = '{}', identifier = '' where id = ?", (second,))
        con.execute("update document_annotations set document_position = 99 where id ="
                    " (select min(id) from document_annotations where annotator_kind = 'LLM')")
        # an annotation of a name no label has: not read, and named in the build log
        con.execute("update span_annotations set name = 'tone' where id ="
                    " (select min(id) from span_annotations where name = 'helpful' and annotator_kind = 'LLM')")
    con.close()
    return folder


def _native(database_folder: Path, out: Path, **kwargs) -> Path:
    return P.native_files(database_folder / "phoenix.db", out, project=PROJECT_NAME,
                          annotators_file=database_folder / "annotators.csv",
                          records_file=database_folder / "records.csv", **kwargs)


@data_set("phoenix_db")
def _db(out: Path) -> Path:
    shutil.copytree(FIXTURES / "db", out / "phoenix")
    return out / "phoenix"


@data_set("phoenix_native")
def _db_native(out: Path) -> Path:
    return _native(FIXTURES / "db", out / "native")


scenario("phoenix_db", "phoenix_db", {"input_format": "phoenix", "phoenix_project": PROJECT_NAME}, tests=True,
         files=True)
scenario("phoenix_native", "phoenix_native", tests=True, generic_tests=False, files=True, select=NATIVE_SELECT)
PAIRS = {"fixture": ("phoenix_db", "phoenix_native")}
SCENARIOS_USED = [name for pair in PAIRS.values() for name in pair]


@pytest.fixture(scope="module")
def built(builds):
    """Per case the Phoenix build's (marts, staged rows) and the native build's staged rows."""
    out = {}
    for case, (phoenix, native) in PAIRS.items():
        pair = []
        for name in (phoenix, native):
            build = builds.get(name).check()
            failed = [r for r in build.node_results if r["status"] in ("error", "fail")]
            assert not failed, f"[{name}] dbt nodes failed: {failed}"
            pair.append(build.derived("phoenix_staged", lambda build=build: staged_rows(build.db_path)))
        full = builds.get(phoenix)
        out[case] = (full.derived("phoenix_marts", lambda full=full: public_mart_rows(full.db_path)), *pair)
    out["db_build"] = builds.get("phoenix_db")
    return out


@pytest.mark.parametrize("case", list(PAIRS))
@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_phoenix_staged_rows_equal_the_native_files_of_the_same_information(built, case, staged):
    """The same staged rows and row statuses as the native files: so the same marts (kit/adapters.py)."""
    _marts, phoenix, native = built[case]
    assert phoenix[staged], f"{staged} is empty: the comparison would prove nothing"
    assert rows_equal(phoenix[staged], native[staged]), f"{staged} differs ({case})"


@pytest.mark.parametrize("case", list(PAIRS))
def test_phoenix_build_fills_every_public_mart(built, case):
    marts, _phoenix, _native = built[case]
    assert [mart for mart in PUBLIC_MARTS if not marts[mart] and mart != "labeling_drift"] == []


def test_the_fixture_covers_what_phoenix_holds(built):
    """Both runs, judges of both kinds, the adjudicator, invalid labels, trace annotations."""
    phoenix = built["fixture"][0]
    assert {row[0] for row in phoenix["run_comparison"]} == {"bot-v1"}
    assert {row[0] for row in phoenix["judge_weights"]} >= {"llm.judge-gpt4o", "code.citation-check"}
    reasons = {reason for row in phoenix["rejected_annotations"] for reason in row[5].split(";")}
    assert any(r.startswith("invalid_boolean:") for r in reasons), reasons
    with sqlite3.connect(FIXTURES / "db" / "phoenix.db") as con:
        assert con.execute("select count(*) from trace_annotations").fetchone()[0] > 0
        assert con.execute("select count(distinct identifier) from document_annotations").fetchone()[0] >= 3


def test_names_that_map_to_no_label_are_named_in_the_build_log(runs):
    output = runs["edge"][1]
    assert "Phoenix annotation names that map to no label are not read: tone (1 annotations)" in output, output[-3000:]
    # `relevance` maps to a label through the var label_names: it is read, so not listed
    assert output.split("are not read:")[1].split(". Map")[0].strip() == "tone (1 annotations)"


def test_edge_cases_give_the_staged_rows_of_the_native_files(runs):
    """The changed copy's staged rows (every value parsed: labels through label_names, label_values
    and score_threshold) equal those of the native files the reference derives from it."""
    phoenix, native = _staged(runs["edge"][0]), _staged(runs["edge_native"][0])
    for model in STAGED:
        assert phoenix[model], model
        assert rows_equal(phoenix[model], native[model]), f"{model} differs for the changed copy"
    retrieval, grounding = phoenix[STAGED[0]], phoenix[STAGED[1]]
    columns = _staged_columns(runs["edge"][0], STAGED[1])
    assert any(row[columns.index("annotator_id")] is None for row in grounding)  # no identifier, no metadata
    columns = _staged_columns(runs["edge"][0], STAGED[0])
    assert any(row[columns.index("chunk_id")] is None for row in retrieval)  # a position the span lacks


def test_rejected_rows_point_into_the_database(built):
    build = built["db_build"]
    with duckdb.connect(str(build.db_path), read_only=True) as con:
        rows = con.execute("select task, source_file, source_row from rejected_annotations where task <> 'records'"
                           ).fetchall()
    assert rows
    with sqlite3.connect(FIXTURES / "db" / "phoenix.db") as con:
        ids = {table: {i for (i,) in con.execute(f"select id from {table}")}
               for table in ("document_annotations", "span_annotations", "trace_annotations")}
    for task, source_file, source_row in rows:
        assert source_file == "phoenix.db"
        tables = ["document_annotations"] if task == "retrieval" else ["span_annotations", "trace_annotations"]
        assert any(source_row in ids[table] for table in tables), (task, source_row)


# --------------------------------------------------------------------------- frames and failures


def _staged_columns(database: Path, model: str) -> list[str]:
    """The staged model's columns but its row ids, files and created_at as written (its instant,
    created_at_utc, is compared)."""
    with duckdb.connect(str(database), read_only=True) as con:
        return [c for (c,) in con.execute(
            "select column_name from information_schema.columns where table_schema = 'staging' and table_name = ?"
            " order by ordinal_position",
            [model]).fetchall() if c not in ("annotation_row_id", "source_files", "n_listed_rows", "created_at")]


def _staged(database: Path) -> dict[str, list[tuple]]:
    out = {}
    for model in STAGED:
        columns = _staged_columns(database, model)
        with duckdb.connect(str(database), read_only=True) as con:
            out[model] = sorted(con.execute(f"select {', '.join(columns)} from staging.{model}").fetchall(), key=repr)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One project copy; dbt build up to staging on the frames, and the builds that must stop."""
    root = tmp_path_factory.mktemp("phoenix")
    project = prepare_project(root, None)
    out = {}

    def build(case, folder, variables, select, must_pass):
        # the folder through the link `input` and the database as the kit's builds name it: runs with
        # the same other vars (and the phoenix_db build) then share dbt's parse (kit.builds.run_dbt)
        link, database = root / "input", root / f"{case}.duckdb"
        link.unlink(missing_ok=True)
        link.symlink_to(folder, target_is_directory=True)
        args = ["build", "--exclude", "resource_type:seed", "resource_type:unit_test",
                "--vars", json.dumps({"input_mode": "files", "input_path": link.name, **variables})]
        result = run_dbt(project, args + (["--select", *select, "--indirect-selection", "cautious"] if select else []),
                         env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
        if (root / "ragmart.duckdb").exists():
            (root / "ragmart.duckdb").rename(database)
        text = result.stdout + result.stderr
        failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
        if must_pass:
            assert result.returncode == 0 and not failed, f"[{case}] dbt failed:\n{text[-4000:]}"
        else:
            assert result.returncode != 0, f"[{case}] the build should have failed"
        out[case] = (database, text)

    upto_staging = [f"+{model}" for model in STAGED]
    for shape in ("parquet", "csv"):
        build(shape, FIXTURES / shape, {"input_format": "phoenix"}, upto_staging, True)
    edge = _edge_database(root / "edge")
    build("edge", edge, {"input_format": "phoenix", "phoenix_project": PROJECT_NAME, **EDGE_VARS}, upto_staging, True)
    native = _native(edge, root / "edge_native", label_names=EDGE_VARS["label_names"],
                     score_threshold=EDGE_VARS["score_threshold"])
    build("edge_native", native, {"label_values": EDGE_VARS["label_values"]}, upto_staging, True)
    two_kinds = root / "two_kinds"
    shutil.copytree(FIXTURES / "db", two_kinds)
    with sqlite3.connect(two_kinds / "phoenix.db") as con:
        con.execute("update span_annotations set annotator_kind = 'LLM' where id ="
                    " (select min(id) from span_annotations where identifier = 'j.mueller')")
    build("two_kinds", two_kinds, {"input_format": "phoenix", "phoenix_project": PROJECT_NAME},
          ["+stg_annotation_exports__annotators"], False)
    no_roles = root / "no_roles"
    shutil.copytree(FIXTURES / "db", no_roles, ignore=shutil.ignore_patterns("annotators*"))
    build("no_roles", no_roles, {"input_format": "phoenix", "phoenix_project": PROJECT_NAME},
          [f"+{NO_ADJUDICATOR_TEST}"], True)
    return out


@pytest.mark.parametrize("shape", ["parquet", "csv"])
def test_frames_give_the_staged_rows_of_the_database(built, runs, shape):
    expected = _staged(built["db_build"].db_path)
    got = _staged(runs[shape][0])
    for model in STAGED:
        assert expected[model], model
        assert rows_equal(expected[model], got[model]), f"{model} differs for the {shape} frames"


def _reader():
    return reader_module("models/staging/phoenix/base_phoenix__export.py")


def test_several_annotated_projects_stop_the_build_naming_them():
    """The reader itself (a dbt build stops with its message; no build needed to see it)."""
    reader = _reader()
    with pytest.raises(reader.PhoenixExportError, match=r"2 projects hold annotations \(playground, ragmart-sample\);"
                                                        " set the var phoenix_project"):
        reader._read_database(str(FIXTURES / "db" / "phoenix.db"), None)
    with pytest.raises(reader.PhoenixExportError, match="no project named 'nope'"):
        reader._read_database(str(FIXTURES / "db" / "phoenix.db"), "nope")
    rows = reader._read_database(str(FIXTURES / "db" / "phoenix.db"), "playground")
    assert [r["name"] for r in rows if r["row_kind"] == "annotation"] == ["helpful"]


NO_ADJUDICATOR_TEST = "assert_tool_export_names_an_adjudicator"


def test_without_roles_the_build_warns_that_no_row_adjudicates(built, runs):
    """Phoenix records kinds, not roles: without an annotators file that lists an adjudicator, every
    HUMAN row votes, and the build says so; with the fixture's annotators file (an adjudicator) it
    does not."""
    warning = "no row adjudicates, so every HUMAN row votes in the consensus"
    assert warning in " ".join(runs["no_roles"][1].split())
    assert f"WARN 1 {NO_ADJUDICATOR_TEST}" in " ".join(runs["no_roles"][1].split())
    assert warning not in " ".join(built["db_build"].output.split())


def test_an_identifier_with_two_kinds_stops_the_build_naming_it(runs):
    text = runs["two_kinds"][1]
    assert "annotator_id j.mueller: annotator_id listed with different kinds or roles" in text
    assert "annotator_kind HUMAN, role annotator in phoenix.db" in text and "annotator_kind LLM" in text
