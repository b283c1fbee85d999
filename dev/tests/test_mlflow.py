"""MLflow 3 exports in (input_format: mlflow): the marts of the native files that hold the same information.

The fixtures in fixtures/mlflow were written by a real MLflow tracking server through its own client
(dev/fixtures/make_mlflow_fixtures.py regenerates them): its SQLite store (``db/``, with a second
experiment without feedback), the ``mlflow.search_traces()`` frame as Parquet (``parquet/``) and
``Trace.to_json()`` lines (``jsonl/``) beside the logged models and runs, each beside the 0005
annotators file (the adjudicator's role, which MLflow cannot record) and records file (the task
types; most runs come from MLflow), and ``postgres/mlflow.sql.gz``, a pg_dump of the store the same
calls wrote through an MLflow on PostgreSQL.

* ``mlflow_db``: the store, staging's data tests and the guards, every public mart filled;
  ``mlflow_native``: the native files that reference/mlflow.py derives from the same store, in plain
  Python from docs/rules.md, built up to the row statuses. The staged rows and row statuses are
  equal, so every public mart is (kit/adapters.py).
* The exports (Parquet and JSON lines) built up to staging give the staged rows of the store.
* An edge copy of the store changed through SQL the way MLflow's built-in judges answer: a label
  under a judge's name (``label_names``), ``yes``/``no`` of inverse polarity mapped per label
  (``label_values``), numbers against ``score_threshold``: its staged values equal the store's.
* Per family: retrieval and grounding from MLflow, generation from the native files of the same
  information, built up to staging, give the same staged rows.
* The reader alone: two experiments with feedback stop naming both (unless ``mlflow_experiment``),
  a wrong URI, a store of another layout, MLflow files beside the URI and neither stop with clear
  messages.
* The PostgreSQL store, read in place (MLFLOW_BACKEND_STORE_URI): the dump restored into the test
  kit's PostgreSQL (scripts/postgres.sh; skipped without it) in a database of its own, read by a
  read-only role whose password needs percent-encoding; given the SQLite fixture's times and ids it
  gives the staged rows and statuses of the native files, its rows point into the store by its
  masked name, a refused connection stops a second build, and the password is in no output, log,
  target file or table.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import urllib.parse
from pathlib import Path

import duckdb
import pytest
from kit.adapters import (
    NATIVE_SELECT,
    STAGED,
    STAGED_ORIGIN,
    TOOL_BUILD_EXCLUDE,
    assert_fills_every_public_mart,
    assert_staged_rows_equal,
    reader_module,
    rows_equal,
    staged_rows,
    tool_and_native,
)
from kit.builds import PROJECT, data_set, prepare_project, read_run_results, run_dbt, scenario
from reference import mlflow as M

pytestmark = pytest.mark.slow

FIXTURES = PROJECT / "dev" / "tests" / "fixtures" / "mlflow"
STORE = FIXTURES / "db" / "mlflow.db"
RECORDS = "stg_annotation_exports__records"
UP_TO_STAGING = [f"+{model}" for model in (*STAGED, RECORDS)]


def _native(folder: Path, out: Path, store: Path | None = None, **kwargs) -> Path:
    return M.native_files(store or folder / "mlflow.db", out, annotators_file=folder / "annotators.csv",
                          records_file=folder / "records.csv", **kwargs)


@data_set("mlflow_db")
def _db(out: Path) -> Path:
    shutil.copytree(FIXTURES / "db", out / "mlflow")
    return out / "mlflow"


@data_set("mlflow_native")
def _db_native(out: Path) -> Path:
    return _native(FIXTURES / "db", out / "native")


# the fixture rejects 3 of its 19 generation rows on purpose (a failed judge, values that are no
# booleans), over the default limit of 10 %
LIMIT = {"max_rejected_share": 0.3}
scenario("mlflow_db", "mlflow_db", {"input_format": "mlflow", **LIMIT}, tests=True, files=True,
         exclude=TOOL_BUILD_EXCLUDE)
scenario("mlflow_native", "mlflow_native", LIMIT, tests=True, generic_tests=False, files=True, select=NATIVE_SELECT)
SCENARIOS_USED = ["mlflow_db", "mlflow_native"]


@pytest.fixture(scope="module")
def built(builds):
    """The MLflow build's marts and staged rows, and the native build's staged rows (kit/adapters.py)."""
    return tool_and_native(builds, "mlflow_db", "mlflow_native") | {"native_build": builds.get("mlflow_native")}


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_mlflow_staged_rows_equal_the_native_files_of_the_same_information(built, staged):
    """The same staged rows and row statuses as the native files: so the same marts (kit/adapters.py)."""
    assert_staged_rows_equal(built["tool_staged"], built["native_staged"], staged)


def _records(database: Path) -> list[tuple]:
    """The staged records (the runs and query ids MLflow gives them among them) but where each came from."""
    with duckdb.connect(str(database), read_only=True) as con:
        return sorted(con.execute(f"select * exclude ({', '.join(STAGED_ORIGIN[:3])}) from staging.{RECORDS}"
                                  ).fetchall(), key=repr)


def test_mlflow_records_take_the_runs_and_query_ids_mlflow_records(built):
    """Runs from the logged model (bot-v1) and the source run (bot-v2) where records.csv gives none,
    query ids from the trace metadata: the records the native files list."""
    mlflow, native = _records(built["build"].db_path), _records(builds_native_path(built))
    assert mlflow and rows_equal(mlflow, native)
    assert {row for row in mlflow if None in row[-2:]} == set(), mlflow


def builds_native_path(built) -> Path:
    return built["native_build"].db_path


def test_mlflow_build_fills_every_public_mart(built):
    assert_fills_every_public_mart(built["marts"])


def test_the_fixture_covers_what_mlflow_holds(built):
    """Both runs from MLflow (a logged model, a source run), judges and code checks, the override, an
    expectation, a failed judge, retrieval feedback without chunk_index, root-span feedback."""
    assert {row[0] for row in built["marts"]["run_comparison"]} >= {"bot-v1"}
    with sqlite3.connect(STORE) as con:
        kinds = {k for (k,) in con.execute("select distinct source_type from assessments")}
        assert kinds == {"HUMAN", "LLM_JUDGE", "CODE"}, kinds
        assert con.execute("select count(*) from assessments where valid = 0").fetchone()[0] >= 1
        assert con.execute("select count(*) from assessments where assessment_type = 'expectation'").fetchone()[0] >= 1
        assert con.execute("select count(*) from assessments where error is not null").fetchone()[0] >= 1
        assert con.execute("select count(*) from trace_request_metadata where key = 'mlflow.modelId'").fetchone()[0]
        assert con.execute("select count(*) from trace_request_metadata where key = 'mlflow.sourceRun'").fetchone()[0]
        assert con.execute("select count(*) from trace_info where client_request_id is null").fetchone()[0] >= 1
    output = " ".join(built["build"].output.split())
    assert "expectations (reference values, not annotations) are not read" in output, output[-3000:]
    assert "retrieval feedback not on a RETRIEVER span with metadata.chunk_index are not read" in output


def test_rejected_rows_point_into_the_store(built):
    with duckdb.connect(str(built["build"].db_path), read_only=True) as con:
        rows = con.execute("select source_file, source_row from rejected_annotations where task <> 'records'"
                           ).fetchall()
    assert rows
    with sqlite3.connect(STORE) as con:
        n_assessments = con.execute("select count(*) from assessments a join trace_info t on a.trace_id ="
                                    " t.request_id join experiments e using (experiment_id)"
                                    " where e.name = 'ragmart-sample'").fetchone()[0]
    assert all(file == "mlflow.db" and 1 <= row <= n_assessments for file, row in rows), rows


# --------------------------------------------------------------------------- exports, edge cases, per family


def _staged(database: Path, families: tuple[str, ...] | None = None) -> dict[str, list[tuple]]:
    """The STAGED models' rows without the columns that say where a row came from (kit/adapters.py),
    sorted; only the rows of `families` when given (the annotators then left out)."""
    out = {}
    with duckdb.connect(str(database), read_only=True) as con:
        for model in STAGED if families is None else STAGED[:1]:
            columns = [c for (c,) in con.execute(
                "select column_name from information_schema.columns where table_schema = 'staging'"
                " and table_name = ? order by ordinal_position", [model]).fetchall() if c not in STAGED_ORIGIN]
            where = f" where family in ({', '.join(repr(f) for f in families)})" if families else ""
            out[model] = sorted(con.execute(f"select {', '.join(columns)} from staging.{model}{where}").fetchall(),
                                key=repr)
    return out


# MLflow's built-in judges, the way the edge copy renames the fixture's labels (docs/rules.md, MLflow)
EDGE_VARS = {"label_names": {"retrieval_relevance": "topically_relevant", "safety": "unsafe_content"},
             "label_values": {"unsafe_content": {"yes": 0, "no": 1}}, "score_threshold": 0.5}


def _edge_store(folder: Path) -> Path:
    """The store copied into `folder`: topically_relevant under the judge's name retrieval_relevance,
    unsafe_content as MLflow's safety judge answers it (yes = safe), and the numbers 1 and 0 of the
    code checks as 0.9 and 0.2 (score_threshold 0.5)."""
    shutil.copytree(FIXTURES / "db", folder, dirs_exist_ok=True)
    with sqlite3.connect(folder / "mlflow.db") as con:
        con.execute("update assessments set name = 'retrieval_relevance' where name = 'topically_relevant'")
        con.execute("update assessments set name = 'safety', value = case value when 'true' then '\"no\"'"
                    " when 'false' then '\"yes\"' when '1.0' then '0.0' when '0.0' then '1.0'"
                    " when '\"yes\"' then '\"no\"' when '\"no\"' then '\"yes\"' else value end"
                    " where name = 'unsafe_content'")
        con.execute("update assessments set value = case value when '1.0' then '0.9' when '0.0' then '0.2'"
                    " else value end where source_type = 'CODE' and name <> 'safety'")
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One project copy; dbt build up to staging on the exports, the edge copy and per family."""
    root = tmp_path_factory.mktemp("mlflow")
    project = prepare_project(root, None)
    out = {}

    def build(case, folder, variables, select=UP_TO_STAGING):
        link, database = root / "input", root / f"{case}.duckdb"
        link.unlink(missing_ok=True)
        link.symlink_to(folder, target_is_directory=True)
        args = ["build", "--exclude", "resource_type:seed", "resource_type:unit_test",
                "--vars", json.dumps({"input_mode": "files", "input_path": link.name, **LIMIT, **variables}),
                "--select", *select, "--indirect-selection", "cautious"]
        result = run_dbt(project, args, env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
        if (root / "ragmart.duckdb").exists():
            (root / "ragmart.duckdb").rename(database)
        text = result.stdout + result.stderr
        failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
        assert result.returncode == 0 and not failed, f"[{case}] dbt failed:\n{text[-4000:]}"
        out[case] = (database, text)

    build("parquet", FIXTURES / "parquet", {"input_format": "mlflow", "mlflow_experiment": _experiment_id()})
    # with the test whose log lists the spellings read beyond the boolean ones
    build("edge", _edge_store(root / "edge"), {"input_format": "mlflow", **EDGE_VARS},
          [*UP_TO_STAGING, "+stg_annotation_exports__files", "assert_exports_have_rows"])
    # per family: retrieval and grounding from the store, generation from the native files of the same store
    mixed = root / "mixed"
    shutil.copytree(FIXTURES / "db", mixed)
    native = _native(FIXTURES / "db", root / "mixed_native")
    shutil.copy(native / "generation_annotations.csv", mixed / "generation_annotations.csv")
    # the kind of a judge that only MLflow's generation feedback names, which the native files list
    shutil.copy(native / "annotators.csv", mixed / "annotators_generation.csv")
    build("mixed", mixed, {"input_format": {"retrieval": "mlflow", "grounding": "mlflow", "generation": "native"}})
    # MLflow beside Langfuse: each adds the runs it records to the records input
    with_langfuse = root / "with_langfuse"
    shutil.copytree(FIXTURES / "db", with_langfuse)
    langfuse = PROJECT / "dev" / "tests" / "fixtures" / "langfuse" / "enriched_jsonl"
    shutil.copytree(langfuse / LANGFUSE_PROJECT, with_langfuse / LANGFUSE_PROJECT)
    shutil.copy(langfuse / "records.csv", with_langfuse / "records_langfuse.csv")
    shutil.copy(langfuse / "annotators.csv", with_langfuse / "annotators_langfuse.csv")
    build("with_langfuse", with_langfuse,
          {"input_format": {"retrieval": "mlflow", "grounding": "langfuse", "generation": "mlflow"}})
    return out


LANGFUSE_PROJECT = "cmragmartsample0000000001"


def test_mlflow_beside_langfuse_keeps_the_runs_each_records(built, runs):
    """Retrieval and generation from MLflow, grounding from Langfuse: MLflow's records keep the runs and
    query ids MLflow gives them (as in the store's own build), and Langfuse's the runs of its traces."""
    both, alone = _records(runs["with_langfuse"][0]), _records(built["build"].db_path)
    assert alone and set(alone) <= set(both)
    langfuse_rows = [row for row in both if row not in alone]
    assert langfuse_rows and all(row[-2] is not None for row in langfuse_rows), langfuse_rows


def _experiment_id() -> str:
    with sqlite3.connect(STORE) as con:
        return str(con.execute("select experiment_id from experiments where name = 'ragmart-sample'").fetchone()[0])


def test_the_parquet_export_gives_the_staged_rows_of_the_store(built, runs):
    expected, got = _staged(built["build"].db_path), _staged(runs["parquet"][0])
    for model in STAGED:
        assert expected[model], model
        assert rows_equal(expected[model], got[model]), f"{model} differs for the Parquet export"
    assert rows_equal(_records(runs["parquet"][0]), _records(built["build"].db_path))


def _read_rows(folder: Path, experiment: str | None = None) -> list[str]:
    """The reader's rows of a folder (base_mlflow__export, no dbt) but where each came from (its place, and the
    store's creation time and read key), sorted."""
    rows = _reader().read_export(duckdb.connect(), str(folder), experiment)
    origin = ("source_file", "source_row", "created_time", "read_key")
    return sorted(repr({k: v for k, v in row.items() if k not in origin}) for row in rows)


@pytest.mark.parametrize("shape", ["parquet", "jsonl"])
def test_each_export_type_gives_the_reader_s_rows_of_the_store(shape):
    """The frame as Parquet and the Trace.to_json() lines hold what the store holds: the reader's rows
    (every trace, span, document and assessment, all staging reads) are equal but for their origin,
    so their staged rows are (the Parquet export's build above proves the same through dbt)."""
    store = _read_rows(FIXTURES / "db")
    assert len(store) > 500 and rows_equal(_read_rows(FIXTURES / shape, _experiment_id()), store)
    assert rows_equal(_read_rows(FIXTURES / shape), store)  # the one experiment with feedback


def _values(database: Path) -> list[tuple]:
    """Each staged row's parsed labels (the values, not the spellings), by record, annotator, chunk."""
    with duckdb.connect(str(database), read_only=True) as con:
        labels = [c for (c,) in con.execute(
            "select column_name from information_schema.columns where table_schema = 'staging'"
            f" and table_name = '{STAGED[0]}' and column_name in (select unnest(?))",
            [["topically_relevant", "evidence_sufficient", "misleading", "can_answer", "support_present",
              "unsupported_claim_present", "contradicted_claim_present", "source_cited", "fabricated_source",
              "proper_action", "response_on_topic", "helpful", "incomplete", "unsafe_content"]]).fetchall()]
        return sorted(con.execute(f"select family, record_uuid, annotator_id, chunk_id, {', '.join(labels)}"
                                  f" from staging.{STAGED[0]}").fetchall(), key=repr)


def test_built_in_judges_names_and_inverse_polarity_map_to_the_same_values(built, runs):
    """retrieval_relevance and safety (yes = safe) through label_names and a per-label label_values,
    numbers through score_threshold: every parsed value equals the unchanged store's."""
    edge, store = _values(runs["edge"][0]), _values(built["build"].db_path)
    assert edge and rows_equal(edge, store)
    with sqlite3.connect(runs["edge"][0].parent / "edge" / "mlflow.db") as con:
        assert con.execute("select count(*) from assessments where name = 'safety' and value = '\"yes\"'"
                           ).fetchone()[0] > 0
    assert "unsafe_content: yes → 0" in runs["edge"][1], runs["edge"][1][-3000:]


def test_families_read_in_different_formats_give_each_family_s_rows(built, runs):
    """Retrieval and grounding from MLflow, generation from native files: the same staged rows."""
    mixed, store = _staged(runs["mixed"][0]), _staged(built["build"].db_path)
    for model in STAGED:
        assert mixed[model] and rows_equal(mixed[model], store[model]), model
    assert _staged(runs["mixed"][0], ("generation",))[STAGED[0]]


# ------------------------------------------------- the reader's messages (the module alone, no dbt)


def _reader():
    return reader_module("models/staging/mlflow/base_mlflow__export.py")


PASSWORD = "Ml flow p@ss:w/rd?#%&=ß"


def _stops(*args, match: str) -> str:
    reader = _reader()
    with pytest.raises(reader.MlflowExportError, match=match) as error:
        list(reader.read_export(duckdb.connect(), *args))
    message = str(error.value)
    assert PASSWORD not in message and urllib.parse.quote(PASSWORD, safe="") not in message, message
    return message


def test_two_experiments_with_feedback_stop_the_build_naming_both(tmp_path):
    folder = tmp_path / "two"
    shutil.copytree(FIXTURES / "db", folder)
    with sqlite3.connect(folder / "mlflow.db") as con:
        (playground, trace), = con.execute(
            "select e.experiment_id, t.request_id from experiments e join trace_info t using (experiment_id)"
            " where e.name = 'playground' limit 1").fetchall()
        con.execute("insert into assessments (assessment_id, trace_id, name, assessment_type, value,"
                    " created_timestamp, last_updated_timestamp, source_type, source_id, valid, experiment_id)"
                    " values ('a-playground', ?, 'helpful', 'feedback', 'true', 0, 0, 'HUMAN', 'someone', 1, ?)",
                    (trace, playground))
    sample = _experiment_id()
    _stops(str(folder), None, match=rf"2 experiments hold feedback \((playground \(id {playground}\), ragmart-sample"
                                    rf" \(id {sample}\)|ragmart-sample \(id {sample}\), playground \(id {playground}\))\);"
                                    " set the var mlflow_experiment")
    rows = list(_reader().read_export(duckdb.connect(), str(folder), "playground"))
    assert [r["name"] for r in rows if r["row_kind"] == "assessment"] == ["helpful"]
    assert list(_reader().read_export(duckdb.connect(), str(folder), sample)) == \
        list(_reader().read_export(duckdb.connect(), str(FIXTURES / "db"), None))
    _stops(str(folder), "nope", match="no experiment named or numbered 'nope'")


@pytest.mark.parametrize(("url", "match"), [
    ("mysql://reader:{secret}@db:3306/mlflow", r"ragmart reads postgresql://"),
    ("sqlite://mlflow.db", r"a SQLite URI has three slashes"),
    ("postgresql://reader:{secret}@db:54x2/mlflow", r"\(postgresql://reader:\*\*\*@db:54x2/mlflow\): its port"),
    ("postgresql+psycopg2://reader:{secret}@127.0.0.1:{port}/mlflow", "was refused"),
])
def test_a_wrong_uri_or_a_refused_connection_stops_saying_so(url, match):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    message = _stops(None, None, url.format(secret=PASSWORD, port=port), match=match)
    if "refused" in match:
        assert message.startswith(f"cannot connect to MLflow's tracking store postgresql://reader:***@127.0.0.1:{port}"
                                  f"/mlflow: the connection to 127.0.0.1 port {port} was refused"), message


def test_a_store_of_another_layout_stops_naming_what_it_lacks(tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("create table runs (run_uuid text, name text)")
    _stops(None, None, f"sqlite:///{other}", match="lacks MLflow's table experiments")
    shutil.copy(STORE, tmp_path / "old.db")
    with sqlite3.connect(tmp_path / "old.db") as con:
        con.execute("alter table assessments drop column assessment_metadata")
    _stops(None, None, f"sqlite:///{tmp_path / 'old.db'}",
           match="the table assessments has no column assessment_metadata, which ragmart reads")
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    _stops(None, None, f"sqlite:///{empty}", match="holds none of MLflow's tables")


def test_mlflow_files_beside_the_uri_and_neither_stop_naming_what_to_do(monkeypatch):
    message = _stops(str(FIXTURES / "db"), None, f"sqlite:///{STORE}", match="two MLflow sources")
    assert "(mlflow.db)" in message, message
    _stops(None, None, None, match="set MLFLOW_BACKEND_STORE_URI to it")
    import build

    monkeypatch.delenv("MLFLOW_BACKEND_STORE_URI", raising=False)
    assert build.main(["--input", "", "--vars", "{input_format: mlflow}"]) == 2


def test_sqlite_uris_read_the_file_as_the_folder_does(monkeypatch):
    reader = _reader()
    expected = list(reader.read_export(duckdb.connect(), str(FIXTURES / "db"), None))
    absolute = list(reader.read_export(duckdb.connect(), None, None, f"sqlite:///{STORE}"))
    monkeypatch.chdir(FIXTURES)
    relative = list(reader.read_export(duckdb.connect(), None, None, "sqlite:///db/mlflow.db"))
    assert absolute == expected and relative == expected


# --------------------------------------------------------------------------- MLflow's PostgreSQL store

PG_DUMP = FIXTURES / "postgres" / "mlflow.sql.gz"


def _psql() -> str:
    found = shutil.which("psql") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))), None)
    assert found, "psql is not installed (Debian's postgresql-client; scripts/postgres.sh installs it)"
    return str(found)


PG_DUMP_SCHEMA = "mlflow_fixture"


@pytest.fixture(scope="module")
def mlflow_pg():
    """The dump restored into the test kit's PostgreSQL in a schema of its own (MLflow's tables live in
    the schema the store URI's search_path names), with the SQLite fixture's assessment ids and times
    (MLflow stamps its own: the only thing that tells the two stores of the same calls apart), read
    by a read-only role whose password needs percent-encoding."""
    if not os.environ.get("RAGMART_PG_HOST"):
        pytest.skip("no PostgreSQL (RAGMART_PG_*): make test runs pytest under scripts/postgres.sh")
    import psycopg2

    env = os.environ
    admin = {"host": env["RAGMART_PG_HOST"], "port": int(env["RAGMART_PG_PORT"]), "user": env["RAGMART_PG_USER"],
             "password": env["RAGMART_PG_PASSWORD"], "dbname": env["RAGMART_PG_DATABASE"]}
    schema, role = f"mlflow_fixture_{os.getpid()}", f"mlflow_reader_{os.getpid()}"

    def connect():
        connection = psycopg2.connect(**admin)
        connection.autocommit = True
        return connection

    with connect() as con, con.cursor() as cur:
        cur.execute(f"drop schema if exists {PG_DUMP_SCHEMA} cascade")
        cur.execute(f"drop schema if exists {schema} cascade")
    restore = subprocess.run(
        [_psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-1", "-o", "/dev/null", "-f", "-",
         "-c", f"alter schema {PG_DUMP_SCHEMA} rename to {schema}"],
        input=gzip.decompress(PG_DUMP.read_bytes()).decode("utf-8"), capture_output=True, text=True,
        env=dict(env, PGHOST=admin["host"], PGPORT=str(admin["port"]), PGUSER=admin["user"],
                 PGPASSWORD=admin["password"], PGDATABASE=admin["dbname"]))
    assert restore.returncode == 0, restore.stderr[-3000:]
    with sqlite3.connect(STORE) as lite, connect() as con, con.cursor() as cur:
        cur.execute(f"set search_path = {schema}")
        _take_sqlite_ids_and_times(lite, cur)
        cur.execute(f"drop role if exists {role}")
        cur.execute(f"create role {role} login password %s", (PASSWORD,))
        cur.execute(f"grant usage on schema {schema} to {role}")
        cur.execute(f"grant select on all tables in schema {schema} to {role}")
    location = f"{admin['host']}:{admin['port']}/{admin['dbname']}"
    url = (f"postgresql+psycopg2://{role}:{urllib.parse.quote(PASSWORD, safe='')}@{location}"
           f"?options=-csearch_path%3D{schema}")
    try:
        yield {"url": url, "masked": f"postgresql://{role}:***@{location}", "schema": schema}
    finally:
        with connect() as con, con.cursor() as cur:
            cur.execute(f"drop schema if exists {schema} cascade")
            cur.execute(f"drop role if exists {role}")


def _natural_keys(rows) -> dict:
    """{id: key} of (id, natural key...) rows in creation order: the key and its occurrence."""
    seen, out = {}, {}
    for object_id, *key in rows:
        key = tuple(key)
        seen[key] = seen.get(key, -1) + 1
        out[object_id] = (*key, seen[key])
    return out


def _take_sqlite_ids_and_times(lite, cur) -> None:
    """Give the restored store the SQLite fixture's assessment ids and times. The same calls wrote
    both stores, with the same trace and span ids (checked), so each assessment is known by its trace,
    span, name, source, value and validity (and its place among equal ones)."""
    traces = "select request_id, coalesce(client_request_id, '') from trace_info order by request_id"
    cur.execute(traces)
    assert cur.fetchall() == lite.execute(traces).fetchall()
    assessments = ("select assessment_id, trace_id, coalesce(span_id, ''), name, source_type, coalesce(source_id, ''),"
                   " value, cast(valid as integer) from assessments order by created_timestamp, assessment_id")
    lite_keys = {key: i for i, key in _natural_keys(lite.execute(assessments).fetchall()).items()}
    cur.execute(assessments)
    assessment_ids = {pg: lite_keys[key] for pg, key in _natural_keys(cur.fetchall()).items()}
    assert len(assessment_ids) == len(lite_keys) > 0
    times = {i: (created, updated) for i, created, updated in lite.execute(
        "select assessment_id, created_timestamp, last_updated_timestamp from assessments")}
    cur.executemany("update assessments set assessment_id = %s, created_timestamp = %s, last_updated_timestamp = %s"
                    " where assessment_id = %s",
                    [("tmp:" + lite_id, *times[lite_id], pg) for pg, lite_id in assessment_ids.items()])
    cur.execute("update assessments set assessment_id = substr(assessment_id, 5) where assessment_id like 'tmp:%'")


@pytest.fixture(scope="module")
def pg_build(mlflow_pg, tmp_path_factory):
    """Every model up to the row statuses and the quarantine built reading the restored store in place
    (the annotators and records files in the folder), then a build that stops at the base model on a
    refused connection, in the same project copy (one log)."""
    root = tmp_path_factory.mktemp("mlflow_pg")
    project = prepare_project(root, None)
    variables = {"input_mode": "files", "input_path": str(FIXTURES / "postgres"), "input_format": "mlflow", **LIMIT}
    env = {"RAGMART_DUCKDB_PATH": "pg.duckdb", "MLFLOW_BACKEND_STORE_URI": mlflow_pg["url"]}
    result = run_dbt(project, ["run", "--select", *NATIVE_SELECT, "+rejected_annotations",
                               "--vars", json.dumps(variables)], env=env)
    output = result.stdout + result.stderr
    failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
    assert result.returncode == 0 and not failed, f"dbt failed:\n{output[-4000:]}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    refused_url = f"postgresql://reader:{urllib.parse.quote(PASSWORD, safe='')}@127.0.0.1:{closed_port}/mlflow"
    refused_folder = root / "refused"     # the same database path in another folder: dbt re-uses the parse
    refused_folder.mkdir()
    refused = run_dbt(project, ["build", "--select", "+base_mlflow__export", "--vars", json.dumps(variables)],
                      env=env | {"MLFLOW_BACKEND_STORE_URI": refused_url}, cwd=refused_folder)
    assert refused.returncode != 0, "a refused connection should stop the build"
    return {"project": project, "database": root / "pg.duckdb", "output": output, "closed_port": closed_port,
            "refused": refused.stdout + refused.stderr, "databases": [root / "pg.duckdb", refused_folder / "pg.duckdb"]}


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_postgres_store_gives_the_staged_rows_of_the_native_files_of_the_same_information(pg_build, built, staged):
    postgres, native = staged_rows(pg_build["database"]), built["native_staged"]
    assert postgres[staged], f"{staged} is empty: the comparison would prove nothing"
    assert rows_equal(postgres[staged], native[staged]), f"{staged} differs"


def _read_again(store: str, url: str | None = None) -> None:
    """The reader on a store read before (its rows as an earlier build keeps them): with every row known it
    reads only the traces and counts the rest as kept; without a trace's spans and three assessments it
    reads those again, with the values of the first read."""
    reader = _reader()
    folder = None if url else store

    def read(known):
        counts = {}
        rows = list(reader.read_export(duckdb.connect(), folder, None, url, known, counts))
        return rows, counts

    first, counts = read(None)
    known = {row["read_key"]: (row.get("last_update_time"), row.get("is_valid")) for row in first
             if row["row_kind"] in ("span", "assessment")}
    spans = {key for key in known if key.startswith("spans:")}
    assessments = sorted(key for key in known if key.startswith("assessments:"))
    assert spans and assessments and counts["spans_read"] == len(spans)

    again, counts = read(known)
    assert {row["row_kind"] for row in again} == {"trace"} and rows_equal(
        sorted(map(repr, again)), sorted(repr(row) for row in first if row["row_kind"] == "trace"))
    assert (counts["spans_read"], counts["assessments_read"], counts["spans_kept"], counts["assessments_kept"]) == (
        0, 0, len(spans), len(assessments))

    trace = sorted(spans)[0].split(":")[1]
    forgotten = {key for key in spans if key.split(":")[1] == trace} | set(assessments[:2])
    changed = assessments[2]
    partly = {key: value for key, value in known.items() if key not in forgotten}
    partly[changed] = ("2001-01-01T00:00:00.000Z", partly[changed][1])
    again, counts = read(partly)
    expected = forgotten | {changed}
    assert counts["spans_read"] == len(forgotten & spans) and counts["assessments_read"] == 3
    assert rows_equal(sorted(repr(row) for row in again if row["row_kind"] != "trace"),
                      sorted(repr(row) for row in first if row["read_key"] in expected))


def test_the_store_read_again_reads_only_what_it_lacks_or_what_changed():
    _read_again(str(FIXTURES / "db"))


def test_the_postgres_store_read_again_reads_only_what_it_lacks_or_what_changed(mlflow_pg):
    _read_again(None, mlflow_pg["url"])


def test_postgres_rows_point_into_the_store_by_its_masked_name(mlflow_pg, pg_build, built):
    def origin(database):
        with duckdb.connect(str(database), read_only=True) as con:
            return sorted(con.execute("select task, source_file, source_row from rejected_annotations"
                                      " where task <> 'records'").fetchall())

    postgres, lite = origin(pg_build["database"]), origin(built["build"].db_path)
    assert postgres and [(t, r) for t, _, r in postgres] == [(t, r) for t, _, r in lite]
    assert {file for _, file, _ in postgres} == {mlflow_pg["masked"]}


def test_a_refused_connection_stops_the_build_naming_host_and_port(pg_build):
    text = " ".join(pg_build["refused"].split())
    port = pg_build["closed_port"]
    assert (f"cannot connect to MLflow's tracking store postgresql://reader:***@127.0.0.1:{port}/mlflow: the"
            f" connection to 127.0.0.1 port {port} was refused") in text, text[-3000:]


def test_the_password_appears_nowhere_in_output_log_files_or_marts(pg_build):
    forms = {PASSWORD, urllib.parse.quote(PASSWORD, safe=""), urllib.parse.quote_plus(PASSWORD),
             urllib.parse.quote(PASSWORD)}
    texts = {"build output": pg_build["output"], "refused build output": pg_build["refused"]}
    project = pg_build["project"]
    for folder in ("logs", "target"):
        for path in (project / folder).rglob("*"):
            if path.is_file():
                texts[str(path.relative_to(project))] = path.read_bytes().decode("utf-8", "replace")
    for database in pg_build["databases"]:
        if not database.exists():
            continue
        with duckdb.connect(str(database), read_only=True) as con:
            for schema, table in con.execute("select table_schema, table_name from information_schema.tables"
                                             ).fetchall():
                texts[f"{database.name}:{schema}.{table}"] = repr(
                    con.execute(f'select * from "{schema}"."{table}"').fetchall())
    assert "logs/dbt.log" in texts and len(texts) > 50
    leaks = [name for name, text in texts.items() for form in forms if form in text]
    assert not leaks, leaks


def test_the_reader_reads_one_read_only_snapshot(mlflow_pg):
    store = _reader()._open_url(mlflow_pg["url"] + "?application_name=check")
    try:
        assert store.name == mlflow_pg["masked"]
        assert list(store.rows("select current_setting('transaction_isolation'),"
                               " current_setting('transaction_read_only')")) == [("repeatable read", "on")]
    finally:
        store.close()
