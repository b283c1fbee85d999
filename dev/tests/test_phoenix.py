"""Arize Phoenix exports in (input_format: phoenix): the marts of the native files that hold the same information.

The fixtures in fixtures/phoenix were written by a real Phoenix through its own client and
GraphQL API (dev/fixtures/make_phoenix_fixtures.py regenerates them): its SQLite database (``db/``,
with a second project), and the frames a user exports with the client as Parquet and as pandas'
CSV (``parquet/``, ``csv/``), each beside the 0005 annotators file (the adjudicator's role,
which Phoenix cannot record) and records file (the runs).

* ``phoenix_db``: the database, staging's data tests and the guards (kit/adapters.py), every public
  mart filled; ``phoenix_native``: the native files that reference/phoenix.py derives from the same
  database, in plain Python from docs/rules.md, built up to the row statuses. The staged rows and
  row statuses are equal, so every public mart is (kit/adapters.py; the quarantine's file and row
  point into the database, checked apart).
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
* Phoenix's PostgreSQL database, read in place (PHOENIX_SQL_DATABASE_URL): ``postgres/phoenix.sql.gz``
  (a pg_dump of what the same sends wrote through a Phoenix on PostgreSQL) restored into the test
  kit's PostgreSQL (scripts/postgres.sh; skipped without it) in a schema of its own, read by a
  read-only role whose password needs percent-encoding and whose sessions run in a time zone other
  than UTC. As Phoenix wrote them, the two databases differ only in Phoenix's own stamps (times to
  the microsecond, ids); given the SQLite fixture's times, one build up to the row statuses and
  the quarantine gives the staged rows and statuses of the native files above (so every public
  mart), and its rows point into the database by its masked name; a
  refused connection stops a second build at the base model; the password is in no output, log,
  target file or table. The other messages (a wrong URL, a schema
  without Phoenix's tables, a missing column or table, two annotated projects, Phoenix files beside
  the URL, neither, a wrong password) come from the reader module alone.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest
from kit.adapters import (
    NATIVE_SELECT,
    STAGED,
    TOOL_BUILD_EXCLUDE,
    assert_fills_every_public_mart,
    assert_staged_rows_equal,
    reader_module,
    rows_equal,
    staged_rows,
    tool_and_native,
)
from kit.builds import PROJECT, data_set, prepare_project, read_run_results, run_dbt, scenario
from reference import phoenix as P

pytestmark = pytest.mark.slow

FIXTURES = PROJECT / "dev" / "tests" / "fixtures" / "phoenix"
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
         files=True, exclude=TOOL_BUILD_EXCLUDE)
scenario("phoenix_native", "phoenix_native", tests=True, generic_tests=False, files=True, select=NATIVE_SELECT)
SCENARIOS_USED = ["phoenix_db", "phoenix_native"]


@pytest.fixture(scope="module")
def built(builds):
    """The Phoenix build's marts and staged rows, and the native build's staged rows (kit/adapters.py)."""
    out = tool_and_native(builds, "phoenix_db", "phoenix_native")
    out["db_build"] = out["build"]
    return out


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_phoenix_staged_rows_equal_the_native_files_of_the_same_information(built, staged):
    """The same staged rows and row statuses as the native files: so the same marts (kit/adapters.py)."""
    assert_staged_rows_equal(built["tool_staged"], built["native_staged"], staged)


def test_phoenix_build_fills_every_public_mart(built):
    assert_fills_every_public_mart(built["marts"])


def test_the_fixture_covers_what_phoenix_holds(built):
    """Both runs, judges of both kinds, the adjudicator, invalid labels, trace annotations."""
    phoenix = built["marts"]
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
    rows, columns = phoenix[STAGED[0]], _staged_columns(runs["edge"][0], STAGED[0])
    family, annotator, chunk = (columns.index(name) for name in ("family", "annotator_id", "chunk_id"))
    assert any(row[family] == "grounding" and row[annotator] is None for row in rows)  # no identifier, no metadata
    assert any(row[family] == "retrieval" and row[chunk] is None for row in rows)  # a position the span lacks


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
    """The staged model's columns but its row ids, files and rows and created_at as written (its
    instant, created_at_utc, is compared)."""
    with duckdb.connect(str(database), read_only=True) as con:
        return [c for (c,) in con.execute(
            "select column_name from information_schema.columns where table_schema = 'staging' and table_name = ?"
            " order by ordinal_position",
            [model]).fetchall() if c not in ("annotation_row_id", "source_file", "source_row", "source_files",
                                              "n_listed_rows", "created_at")]


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


# --------------------------------------------------------------------------- Phoenix's PostgreSQL database

PG_DUMP = FIXTURES / "postgres" / "phoenix.sql.gz"
PG_DUMP_SCHEMA = "phoenix"
# The read-only role's password: characters a URL must percent-encode, and one it need not.
PASSWORD = "Ph0enix p@ss:w/rd?#%&=ß"
TIME_ZONE = "America/St_Johns"  # the role's session time zone: not UTC, and not a whole hour off it
TABLES = ("document_annotations", "span_annotations", "trace_annotations")


def _psql() -> str:
    found = shutil.which("psql") or next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"))), None)
    assert found, "psql is not installed (Debian's postgresql-client; scripts/postgres.sh installs it)"
    return str(found)


@dataclass
class PhoenixPostgres:
    """The fixture's pg_dump restored into the test kit's PostgreSQL, in a schema of its own, and a
    read-only role whose sessions run in TIME_ZONE."""

    admin: dict
    schema: str
    role: str

    def url(self, scheme: str = "postgresql", query: str = "", password: str | None = None) -> str:
        secret = urllib.parse.quote(PASSWORD if password is None else password, safe="")
        return (f"{scheme}://{self.role}:{secret}@{self.admin['host']}:{self.admin['port']}/{self.admin['dbname']}"
                + (f"?{query}" if query else ""))

    def masked(self) -> str:
        return f"postgresql://{self.role}:***@{self.admin['host']}:{self.admin['port']}/{self.admin['dbname']}"

    def connect(self, **settings):
        import psycopg2

        connection = psycopg2.connect(**(self.admin | settings))
        connection.autocommit = True
        return connection


@pytest.fixture(scope="module")
def phoenix_pg():
    if not os.environ.get("RAGMART_PG_HOST"):
        pytest.skip("no PostgreSQL (RAGMART_PG_*): make test runs pytest under scripts/postgres.sh")
    import psycopg2

    env = os.environ
    admin = {"host": env["RAGMART_PG_HOST"], "port": int(env["RAGMART_PG_PORT"]), "user": env["RAGMART_PG_USER"],
             "password": env["RAGMART_PG_PASSWORD"], "dbname": env["RAGMART_PG_DATABASE"]}
    pg = PhoenixPostgres(admin, f"phoenix_fixture_{os.getpid()}", f"phoenix_reader_{os.getpid()}")
    with pg.connect() as con, con.cursor() as cur:
        cur.execute(f"drop schema if exists {PG_DUMP_SCHEMA} cascade")
        cur.execute(f"drop schema if exists {pg.schema} cascade")
    restore = subprocess.run(
        [_psql(), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-1", "-o", "/dev/null", "-f", "-",
         "-c", f"alter schema {PG_DUMP_SCHEMA} rename to {pg.schema}"],
        input=gzip.decompress(PG_DUMP.read_bytes()).decode("utf-8"), capture_output=True, text=True,
        env=dict(env, PGHOST=admin["host"], PGPORT=str(admin["port"]), PGUSER=admin["user"],
                 PGPASSWORD=admin["password"], PGDATABASE=admin["dbname"]))
    assert restore.returncode == 0, restore.stderr[-3000:]
    with pg.connect() as con, con.cursor() as cur:
        cur.execute(f"drop role if exists {pg.role}")
        try:
            cur.execute(f"create role {pg.role} login password %s", (PASSWORD,))
        except psycopg2.errors.InsufficientPrivilege:
            pytest.fail("the test kit's role cannot create roles: stop and start scripts/postgres.sh again (it now"
                        " grants CREATEROLE)")
        cur.execute(f"alter role {pg.role} set timezone = '{TIME_ZONE}'")
        cur.execute(f"grant usage on schema {pg.schema} to {pg.role}")
        cur.execute(f"grant select on all tables in schema {pg.schema} to {pg.role}")
    try:
        yield pg
    finally:
        with pg.connect() as con, con.cursor() as cur:
            cur.execute(f"drop schema if exists {pg.schema} cascade")
            cur.execute(f"drop role if exists {pg.role}")


def _rejected(database: Path, columns: str) -> list[tuple]:
    with duckdb.connect(str(database), read_only=True) as con:
        return sorted(con.execute(f"select {columns} from rejected_annotations where task <> 'records'").fetchall(),
                      key=repr)


# Each annotation with Phoenix's upsert key: its trace, span (none for a trace annotation), document
# position (-1 but for a document annotation), name and identifier. The span and trace ids are the
# same in both databases: the sends are.
KEYED = {
    "document_annotations": "select t.trace_id, s.span_id, a.document_position, a.name, a.identifier, {columns}"
                            " from {schema}document_annotations a join {schema}spans s on a.span_rowid = s.id"
                            " join {schema}traces t on s.trace_rowid = t.id",
    "span_annotations": "select t.trace_id, s.span_id, -1, a.name, a.identifier, {columns}"
                        " from {schema}span_annotations a join {schema}spans s on a.span_rowid = s.id"
                        " join {schema}traces t on s.trace_rowid = t.id",
    "trace_annotations": "select t.trace_id, '', -1, a.name, a.identifier, {columns}"
                         " from {schema}trace_annotations a join {schema}traces t on a.trace_rowid = t.id",
}


def _take_sqlite_times(pg: PhoenixPostgres) -> None:
    """Give every annotation of the restored database the times the SQLite fixture's Phoenix stamped
    on the same annotation, so that both databases hold the same content: Phoenix stamps its own
    times, the only thing that tells the two runs of the same sends apart."""
    with sqlite3.connect(FIXTURES / "db" / "phoenix.db") as lite, pg.connect() as con, con.cursor() as cur:
        for table, keyed in KEYED.items():
            times = lite.execute(keyed.format(schema="", columns="a.created_at, a.updated_at")).fetchall()
            cur.execute("create temporary table sqlite_times (trace_id text, span_id text, position int, name text,"
                        " identifier text, created_at text, updated_at text)")
            cur.executemany("insert into sqlite_times values (%s, %s, %s, %s, %s, %s, %s)", times)
            cur.execute(f"update {pg.schema}.{table} as target"
                        " set created_at = cast(sqlite_times.created_at || '+00' as timestamptz),"
                        "     updated_at = cast(sqlite_times.updated_at || '+00' as timestamptz)"
                        f" from ({keyed.format(schema=pg.schema + '.', columns='a.id')})"
                        " as keyed (trace_id, span_id, position, name, identifier, id)"
                        " inner join sqlite_times using (trace_id, span_id, position, name, identifier)"
                        " where target.id = keyed.id")
            assert cur.rowcount == len(times), (table, cur.rowcount, len(times))
            cur.execute("drop table sqlite_times")


@pytest.fixture(scope="module")
def pg_build(phoenix_pg, tmp_path_factory):
    """The reader's rows of the restored database as Phoenix wrote it (its own times, to the
    microsecond); then, with the SQLite fixture's times, every model built reading it in place (a
    non-default schema, the read-only role in a non-UTC session, Phoenix's asyncpg URL with a query
    parameter); then a build that stops at the base model on a refused connection, in the same project
    copy (one log)."""
    as_written = list(_reader().read_export(None, None, PROJECT_NAME, phoenix_pg.url(), phoenix_pg.schema))
    _take_sqlite_times(phoenix_pg)
    root = tmp_path_factory.mktemp("phoenix_pg")
    project = prepare_project(root, None)
    variables = {"input_mode": "files", "input_path": str(FIXTURES / "postgres"), "input_format": "phoenix",
                 "phoenix_project": PROJECT_NAME}
    env = {"RAGMART_DUCKDB_PATH": "pg.duckdb", "PHOENIX_SQL_DATABASE_SCHEMA": phoenix_pg.schema,
           "PHOENIX_SQL_DATABASE_URL": phoenix_pg.url("postgresql+asyncpg", "sslmode=disable")}
    # the models up to the row statuses (kit/adapters.py) and the quarantine (its rows name the
    # database): the data tests and the other marts of the same information ran on the SQLite
    # fixture's build
    result = run_dbt(project, ["run", "--select", *NATIVE_SELECT, "+rejected_annotations",
                               "--vars", json.dumps(variables)], env=env)
    output = result.stdout + result.stderr
    failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
    assert result.returncode == 0 and not failed, f"dbt failed:\n{output[-4000:]}"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    refused_url = f"postgresql://{phoenix_pg.role}:{urllib.parse.quote(PASSWORD, safe='')}@127.0.0.1:{closed_port}/db"
    refused_folder = root / "refused"     # the same database path in another folder: dbt re-uses the parse
    refused_folder.mkdir()
    refused = run_dbt(project, ["build", "--select", "+base_phoenix__export", "--vars", json.dumps(variables)],
                      env=env | {"PHOENIX_SQL_DATABASE_URL": refused_url}, cwd=refused_folder)
    assert refused.returncode != 0, "a refused connection should stop the build"
    return {"project": project, "database": root / "pg.duckdb", "output": output, "closed_port": closed_port,
            "refused": refused.stdout + refused.stderr, "databases": [root / "pg.duckdb", refused_folder / "pg.duckdb"],
            "as_written": as_written}


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_postgres_database_gives_the_staged_rows_of_the_native_files_of_the_same_information(pg_build, built,
                                                                                             staged):
    """The restored database, read in place with the SQLite fixture's times, gives the staged rows and
    row statuses of the native files the reference derives from the SQLite fixture, and so every
    public mart (kit/adapters.py)."""
    postgres, native = staged_rows(pg_build["database"]), built["native_staged"]
    assert postgres[staged], f"{staged} is empty: the comparison would prove nothing"
    assert rows_equal(postgres[staged], native[staged]), f"{staged} differs"


def test_postgres_holds_the_sqlite_fixture_s_information_but_phoenix_s_times(pg_build):
    """As Phoenix wrote them, the two databases differ only in what Phoenix stamps (times, ids): the
    reader's rows of both are equal without them, and the PostgreSQL times, stored to the microsecond
    and read in the role's non-UTC session, are the instants PostgreSQL itself gives in UTC."""
    def without_origin(rows):
        return sorted(repr({k: v for k, v in row.items() if k not in ("source_file", "source_row", "created_at",
                                                                      "updated_at")}) for row in rows)

    written = pg_build["as_written"]
    lite = _reader()._read_database(str(FIXTURES / "db" / "phoenix.db"), PROJECT_NAME)
    assert without_origin(written) == without_origin(lite)
    times = [(row["created_at"], row["updated_at"]) for row in written if row["row_kind"] == "annotation"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z", t) for pair in times for t in pair)
    assert sum("." in t for pair in times for t in pair) > len(times)  # microseconds, not whole seconds
    assert len(times) == 366 - 1 + 539 + 20  # the project's annotations (the playground holds one)


def test_postgres_rows_point_into_the_database_by_its_masked_name(phoenix_pg, pg_build):
    rows = _rejected(pg_build["database"], "task, source_file, source_row")
    assert rows
    with phoenix_pg.connect() as con, con.cursor() as cur:
        ids = {}
        for table in TABLES:
            cur.execute(f"select id from {phoenix_pg.schema}.{table}")
            ids[table] = {i for (i,) in cur.fetchall()}
    for task, source_file, source_row in rows:
        assert source_file == phoenix_pg.masked()
        tables = ["document_annotations"] if task == "retrieval" else ["span_annotations", "trace_annotations"]
        assert any(source_row in ids[table] for table in tables), (task, source_row)


def test_a_refused_connection_stops_the_build_naming_host_and_port(phoenix_pg, pg_build):
    text = " ".join(pg_build["refused"].split())
    masked = f"postgresql://{phoenix_pg.role}:***@127.0.0.1:{pg_build['closed_port']}/db"
    assert (f"cannot connect to Phoenix's database {masked}: the connection to 127.0.0.1 port"
            f" {pg_build['closed_port']} was refused") in text, text[-3000:]


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
        with duckdb.connect(str(database), read_only=True) as con:
            for schema, table in con.execute("select table_schema, table_name from information_schema.tables"
                                             ).fetchall():
                texts[f"{database.name}:{schema}.{table}"] = repr(
                    con.execute(f'select * from "{schema}"."{table}"').fetchall())
    assert "logs/dbt.log" in texts and len(texts) > 50
    leaks = [name for name, text in texts.items() for form in forms if form in text]
    assert not leaks, leaks


# ------------------------------------------------- the reader's messages (the module alone, no dbt)


def _stops(reader, *args, match: str) -> str:
    with pytest.raises(reader.PhoenixExportError, match=match) as error:
        list(reader.read_export(None, *args))
    message = str(error.value)
    assert PASSWORD not in message and urllib.parse.quote(PASSWORD, safe="") not in message, message
    return message


@pytest.mark.parametrize(("url", "match"), [
    ("mysql://reader:{secret}@db:3306/phoenix", r"it must begin with postgresql://"),
    ("sqlite://phoenix.db", r"a SQLite URL has three slashes"),
    ("postgresql://reader:{secret}@db:54x2/phoenix", r"is not a URL of Phoenix's database"
                                                      r" \(postgresql://reader:\*\*\*@db:54x2/phoenix\)"),
    ("postgresql://reader:{secret}@127.0.0.1:{port}/phoenix?sslmod=require", r'invalid connection option "sslmod"'),
])
def test_a_wrong_url_stops_the_build_saying_so(phoenix_pg, url, match):
    url = url.format(secret=urllib.parse.quote(PASSWORD, safe=""), port=phoenix_pg.admin["port"])
    _stops(_reader(), None, None, url, None, match=match)


def test_a_password_written_without_percent_encoding_is_masked_all_the_same():
    """`@`, `/`, `?`, `#` of a password as typed: the last `@` ends it (a refused connection here)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    message = _stops(_reader(), None, None, f"postgresql+asyncpg://reader:{PASSWORD}@127.0.0.1:{port}/phoenix", None,
                     match="was refused")
    assert message.startswith(f"cannot connect to Phoenix's database postgresql://reader:***@127.0.0.1:{port}/phoenix:"
                              f" the connection to 127.0.0.1 port {port} was refused"), message


def test_a_schema_without_phoenix_tables_stops_naming_the_schemas_that_have_them(phoenix_pg):
    message = _stops(_reader(), None, None, phoenix_pg.url(), "public", match="holds none of Phoenix's tables")
    assert message.startswith(f"{phoenix_pg.masked()} (schema public, PHOENIX_SQL_DATABASE_SCHEMA)"), message
    assert phoenix_pg.schema in message.split("schemas of that database with Phoenix's tables:")[1]


def test_a_table_without_a_column_the_adapter_reads_stops_naming_both(phoenix_pg):
    """A copy of the schema as views: spans without attributes, then without trace_annotations."""
    broken = f"{phoenix_pg.schema}_broken"
    with phoenix_pg.connect() as con, con.cursor() as cur:
        cur.execute(f"drop schema if exists {broken} cascade")
        cur.execute(f"create schema {broken}")
        for table in ("projects", "traces", *TABLES):
            cur.execute(f"create view {broken}.{table} as select * from {phoenix_pg.schema}.{table}")
        cur.execute(f"create view {broken}.spans as select id, trace_rowid, span_id, parent_id, span_kind"
                    f" from {phoenix_pg.schema}.spans")
        cur.execute(f"grant usage on schema {broken} to {phoenix_pg.role}")
        cur.execute(f"grant select on all tables in schema {broken} to {phoenix_pg.role}")
    try:
        reader = _reader()
        _stops(reader, None, None, phoenix_pg.url(), broken,
               match=rf"\(schema {broken}, PHOENIX_SQL_DATABASE_SCHEMA\): the table spans has no column attributes,"
                     " which ragmart reads")
        with phoenix_pg.connect() as con, con.cursor() as cur:
            cur.execute(f"drop view {broken}.trace_annotations")
        _stops(reader, None, None, phoenix_pg.url(), broken, match="lacks Phoenix's table trace_annotations")
    finally:
        with phoenix_pg.connect() as con, con.cursor() as cur:
            cur.execute(f"drop schema if exists {broken} cascade")


def test_two_annotated_projects_in_postgres_stop_naming_them(phoenix_pg):
    _stops(_reader(), None, None, phoenix_pg.url(), phoenix_pg.schema,
           match=re.escape(f"{phoenix_pg.masked()}: 2 projects hold annotations (playground, ragmart-sample);"))


def test_phoenix_files_beside_the_database_url_stop_naming_both(phoenix_pg):
    message = _stops(_reader(), str(FIXTURES / "db"), PROJECT_NAME, phoenix_pg.url(), phoenix_pg.schema,
                     match="two Phoenix sources")
    assert phoenix_pg.masked() in message and "(phoenix.db)" in message, message


def test_neither_a_folder_nor_a_database_url_stops_saying_to_set_one(monkeypatch):
    _stops(_reader(), None, PROJECT_NAME, None, None, match="set PHOENIX_SQL_DATABASE_URL to it")
    import build

    monkeypatch.delenv("PHOENIX_SQL_DATABASE_URL", raising=False)
    assert build.main(["--input", "", "--vars", "{input_format: phoenix}"]) == 2


def test_a_wrong_password_stops_without_showing_it(phoenix_pg):
    wrong = PASSWORD[::-1]
    message = _stops(_reader(), None, None, phoenix_pg.url(password=wrong), phoenix_pg.schema,
                     match="password authentication failed")
    assert wrong not in message and urllib.parse.quote(wrong, safe="") not in message, message


def test_the_reader_reads_one_read_only_snapshot_in_the_role_s_time_zone(phoenix_pg):
    """The password as a query parameter; the transaction REPEATABLE READ READ ONLY; the session in the
    role's time zone, not UTC (the marts above are right all the same)."""
    reader = _reader()
    url = (f"postgresql+psycopg://{phoenix_pg.role}@{phoenix_pg.admin['host']}:{phoenix_pg.admin['port']}"
           f"/{phoenix_pg.admin['dbname']}?password={urllib.parse.quote_plus(PASSWORD)}&application_name=check")
    database = reader._open_url(url, phoenix_pg.schema)
    try:
        assert database.name == phoenix_pg.masked()
        assert database.rows("select current_setting('transaction_isolation'), current_setting('transaction_read_only'),"
                             " current_setting('TimeZone'), (current_schemas(false))[1]") == \
            [("repeatable read", "on", TIME_ZONE, phoenix_pg.schema)]
    finally:
        database.close()


def _read_again(store: str | None, url: str | None = None, schema: str | None = None) -> None:
    """The reader on a database read before (its rows as an earlier build keeps them, by read key): with
    every row known it reads nothing and counts every span and annotation as kept; without a trace's
    spans and two annotations, and with a third's label changed, it reads those again, with the values
    of the first read."""
    reader = _reader()

    def read(known):
        counts = {}
        rows = list(reader.read_export(None, store, PROJECT_NAME, url, schema, known, counts))
        return [(reader._read_key(row, False), row) for row in rows], counts

    first, counts = read(None)
    known = {key: (row.get("updated_at"), row.get("span_id"), row.get("label"), row.get("score")) for key, row in first
             if row["row_kind"] in ("span", "annotation")}
    spans = {key for key in known if key.startswith("spans:")}
    annotations = sorted(key for key in known if not key.startswith("spans:"))
    assert spans and annotations and counts["spans_read"] == len(spans)

    again, counts = read(known)
    assert again == [] and (counts["spans_read"], counts["annotations_read"], counts["spans_kept"],
                            counts["annotations_kept"]) == (0, 0, len(spans), len(annotations))

    forgotten = set(sorted(spans)[:3]) | set(annotations[:2])
    changed = annotations[2]
    partly = {key: value for key, value in known.items() if key not in forgotten}
    partly[changed] = (*partly[changed][:2], "a label before", partly[changed][3])
    again, counts = read(partly)
    assert (counts["spans_read"], counts["annotations_read"]) == (3, 3)
    assert rows_equal(sorted(repr(pair) for pair in again),
                      sorted(repr(pair) for pair in first if pair[0] in forgotten | {changed}))


def test_the_database_read_again_reads_only_what_it_lacks_or_what_changed():
    _read_again(str(FIXTURES / "db"))


def test_the_postgres_database_read_again_reads_only_what_it_lacks_or_what_changed(phoenix_pg):
    _read_again(None, phoenix_pg.url(), phoenix_pg.schema)


def test_sqlite_urls_read_the_file_as_the_folder_does(tmp_path, monkeypatch):
    reader = _reader()
    expected = reader._read_database(str(FIXTURES / "db" / "phoenix.db"), PROJECT_NAME)
    absolute = list(reader.read_export(None, None, PROJECT_NAME, f"sqlite:///{FIXTURES / 'db' / 'phoenix.db'}"))
    monkeypatch.chdir(FIXTURES)
    relative = list(reader.read_export(None, None, PROJECT_NAME, "sqlite:///db/phoenix.db"))
    assert absolute == expected and relative == expected
    import build

    assert build.absolute_sqlite_url("sqlite:///db/phoenix.db", "/data") == "sqlite:////data/db/phoenix.db"
    assert build.absolute_sqlite_url("sqlite:////data/phoenix.db", "/elsewhere") == "sqlite:////data/phoenix.db"
