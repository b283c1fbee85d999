"""BI-ready outputs (#15): an older DuckDB opens the database, and `scripts/export_marts.py` writes every public mart.

On the session's sample build (conftest.py):

* the file carries storage version v1.2.0 (profiles/profiles.yml, `config_options:
  storage_compatibility_version`), and the DuckDB of requirements-compat.txt (older than the one
  that wrote the file), run from its own venv (.venv-compat, installed by `make pytest`), opens it
  read-only and reads every public mart with the same columns and row counts;
* scripts/export_marts.py writes every public mart as `<mart>.parquet` and `<mart>.csv` into a
  folder given relative to --relative-to: the Parquet files hold exactly the database's rows (read
  with DuckDB), the CSV files the same header and values (read with the csv module); a missing
  database is a clear error.

The public marts are the models with `access: public` in the copy's manifest. The test is skipped,
with the reason, only when the compat venv is missing (`make .venv-compat/.compat-installed`).
"""

from __future__ import annotations

import csv
import datetime
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

PROJECT = Path(__file__).resolve().parent.parent.parent
COMPAT_VENV = Path(os.environ.get("RAGMART_COMPAT_VENV") or PROJECT / ".venv-compat")
COMPAT_PYTHON = COMPAT_VENV / "bin" / "python"
STORAGE_VERSION = "v1.2.0"

# Run by the compat venv's python: the DuckDB version, then per mart its columns and row count.
READ_WITH_OLD_DUCKDB = """
import json, sys
import duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
marts = {}
for name, schema, table in json.loads(sys.argv[2]):
    relation = '"' + schema + '"."' + table + '"'
    columns = [row[0] for row in con.execute("describe " + relation).fetchall()]
    rows = con.execute("select count(*) from " + relation).fetchall()[0][0]
    marts[name] = {"columns": columns, "rows": rows}
print(json.dumps({"version": duckdb.__version__, "marts": marts}))
"""


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.lstrip("v").split(".")[:3])


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def built(builds):
    """The session's sample build: (project copy, database, public marts)."""
    build = builds.get("sample").check()
    manifest = json.loads((build.project / "target" / "manifest.json").read_text(encoding="utf-8"))
    marts = sorted((node["name"], node["schema"], node.get("alias") or node["name"])
                   for node in manifest["nodes"].values()
                   if node["resource_type"] == "model" and node["package_name"] == "ragmart"
                   and node.get("access") == "public")
    assert len(marts) >= 13, f"expected the project's public marts, found {marts}"
    return build.project, build.db_path, marts


def _contents(database: Path, marts) -> dict:
    """Per mart: (column names, column types, rows) as DuckDB of .venv reads them, read-only."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        contents = {}
        for name, schema, table in marts:
            relation = f'"{schema}"."{table}"'
            described = con.execute(f"describe {relation}").fetchall()
            rows = con.execute(f"select * from {relation}").fetchall()
            contents[name] = ([row[0] for row in described], [row[1] for row in described], rows)
        return contents
    finally:
        con.close()


def test_database_has_the_compatible_storage_version(built):
    _, database, _ = built
    con = duckdb.connect()
    try:
        con.execute(f"attach '{database}' as built (read_only)")
        tags = con.execute("select tags from duckdb_databases() where database_name = 'built'").fetchall()[0][0]
    finally:
        con.close()
    assert tags.get("storage_version") == f"{STORAGE_VERSION}+", (
        f"{database.name} has storage version {tags.get('storage_version')}, not {STORAGE_VERSION}: "
        "check config_options.storage_compatibility_version in profiles/profiles.yml")


def test_mart_descriptions_are_database_comments(built):
    """Every public mart carries its description and its columns' as comments (persist_docs, marts only)."""
    project, database, marts = built
    manifest = json.loads((project / "target" / "manifest.json").read_text(encoding="utf-8"))
    described = {node["name"]: node for node in manifest["nodes"].values()
                 if node["resource_type"] == "model" and node["package_name"] == "ragmart"}
    con = duckdb.connect(str(database), read_only=True)
    try:
        tables = dict(((row[0], row[1]), row[2]) for row in con.execute(
            "select schema_name, table_name, comment from duckdb_tables()").fetchall())
        columns = dict(((row[0], row[1], row[2]), row[3]) for row in con.execute(
            "select schema_name, table_name, column_name, comment from duckdb_columns()").fetchall())
    finally:
        con.close()
    problems = []
    for name, schema, table in marts:
        node = described[name]
        if tables.get((schema, table)) != node["description"]:
            problems.append(f"{name}: the table comment is not its description")
        problems += [f"{name}.{column}: no comment" for column, spec in node["columns"].items()
                     if columns.get((schema, table, column)) != spec["description"]]
    assert not problems, problems
    internal = [(node["schema"], node.get("alias") or name) for name, node in described.items()
                if node.get("access") != "public" and node["config"]["materialized"] == "table"]
    assert internal and all(not tables.get(key) for key in internal), "only the marts carry comments"


@pytest.fixture
def compat_python() -> Path:
    """The compat venv's python; the test is skipped (before the build) when the venv is missing."""
    if not COMPAT_PYTHON.exists():
        pytest.skip(f"no older DuckDB to read with: {COMPAT_PYTHON} is missing (make {COMPAT_VENV.name}/.compat-installed)")
    return COMPAT_PYTHON


def test_older_duckdb_reads_every_public_mart(compat_python, built):
    _, database, marts = built
    result = subprocess.run([str(compat_python), "-c", READ_WITH_OLD_DUCKDB, str(database), json.dumps(marts)],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"the older DuckDB cannot read {database.name}:\n{result.stderr[-3000:]}"
    read = json.loads(result.stdout)
    assert _version(read["version"]) < _version(duckdb.__version__), (
        f"the compat venv's DuckDB {read['version']} is not older than {duckdb.__version__}")
    expected = {name: {"columns": columns, "rows": len(rows)}
                for name, (columns, _, rows) in _contents(database, marts).items()}
    assert read["marts"] == expected


def _same_cell(text: str, value, column_type: str) -> bool:
    """A CSV field (as the csv module reads it) against the database's value."""
    if value is None or value == "":
        return text == ""  # the csv module reads null and the empty string alike
    if column_type == "DOUBLE":
        return float(text) == value or (math.isnan(value) and math.isnan(float(text)))  # DuckDB writes round-trip digits
    if column_type == "BOOLEAN":
        return text == ("true" if value else "false")
    if isinstance(value, int):
        return int(text) == value
    if isinstance(value, datetime.datetime):
        return datetime.datetime.fromisoformat(text) == value
    if isinstance(value, datetime.date):
        return datetime.date.fromisoformat(text) == value
    if value[0] in "=+-@\t\r":
        return text == "'" + value  # a spreadsheet would read it as a formula (OWASP, CSV injection)
    return text == value


def test_export_csv_is_safe_in_a_spreadsheet(tmp_path):
    """Text that a spreadsheet would run as a formula gets an apostrophe in the CSV file, numbers and
    other text stay as they are, and the Parquet file keeps every value."""
    sys.path.insert(0, str(PROJECT / "scripts"))
    import export_marts

    database = tmp_path / "notes.duckdb"
    texts = ['=HYPERLINK("http://example.invalid","click")', "+1", "-2", "@SUM(A1)", "\tx", "\ry", "ok = fine", "", None]
    with duckdb.connect(str(database)) as con:
        con.execute("create table notes (position integer, note varchar, score double)")
        con.executemany("insert into notes values (?, ?, ?)", [(i, t, -1.5) for i, t in enumerate(texts)])
    out = tmp_path / "out"
    export_marts.export(database, out, [("notes", "main", "notes")])
    with open(out / "notes.csv", newline="", encoding="utf-8") as handle:
        records = list(csv.DictReader(handle))
    assert [r["note"] for r in records] == [
        "'=HYPERLINK(\"http://example.invalid\",\"click\")", "'+1", "'-2", "'@SUM(A1)", "'\tx", "'\ry", "ok = fine", "", ""]
    assert {r["score"] for r in records} == {"-1.5"}
    with duckdb.connect() as con:
        parquet = str(out / "notes.parquet").replace("'", "''")
        assert [r[0] for r in con.execute(f"select note from read_parquet('{parquet}') order by position").fetchall()] == texts


def test_export_writes_every_public_mart_as_parquet_and_csv(built, tmp_path):
    copy, database, marts = built
    caller = tmp_path / "caller"
    caller.mkdir()
    out_name = "bi export [1]"
    env = dict(os.environ, RAGMART_DUCKDB_PATH=str(database))
    result = subprocess.run([sys.executable, str(copy / "scripts" / "export_marts.py"), "--out", out_name,
                             "--relative-to", str(caller)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    out = caller / out_name
    names = [name for name, _, _ in marts]
    assert sorted(path.name for path in out.iterdir()) == sorted(f"{name}.{ext}" for name in names for ext in ("csv", "parquet"))

    contents = _contents(database, marts)
    con = duckdb.connect()
    try:
        con.execute(f"attach '{database}' as built (read_only)")
        for name, schema, table in marts:
            columns, types, rows = contents[name]
            parquet = str(out / f"{name}.parquet").replace("'", "''")
            assert [row[0] for row in con.execute(f"describe select * from read_parquet('{parquet}')").fetchall()] == columns
            for first, second in ((f"read_parquet('{parquet}')", f'built."{schema}"."{table}"'),
                                  (f'built."{schema}"."{table}"', f"read_parquet('{parquet}')")):
                extra = con.execute(f"select count(*) from (select * from {first} except all select * from {second})").fetchall()
                assert extra[0][0] == 0, f"{name}.parquet differs from the database ({first} has rows {second} lacks)"
            assert con.execute(f"select count(*) from read_parquet('{parquet}')").fetchall()[0][0] == len(rows)

            with open(out / f"{name}.csv", newline="", encoding="utf-8") as handle:
                header, *records = list(csv.reader(handle))
            assert header == columns, f"{name}.csv header"
            assert len(records) == len(rows), f"{name}.csv has {len(records)} rows, the database {len(rows)}"
            # DuckDB's COPY keeps the table's order, so row i of the file is row i of the scan.
            for index, (record, row) in enumerate(zip(records, rows)):
                bad = [(column, text, value) for column, column_type, text, value in zip(columns, types, record, row)
                       if not _same_cell(text, value, column_type)]
                assert not bad, f"{name}.csv row {index + 1}: {bad}"
    finally:
        con.close()
    assert len(marts) == len(result.stdout.strip().splitlines()) - 1


def test_export_without_database_is_a_clear_error(tmp_path):
    missing = tmp_path / "no such.duckdb"
    result = subprocess.run([sys.executable, str(PROJECT / "scripts" / "export_marts.py"), "--out", str(tmp_path / "out")],
                            env=dict(os.environ, RAGMART_DUCKDB_PATH=str(missing)), capture_output=True, text=True)
    assert result.returncode == 2
    assert f"error: the database does not exist: {missing}" in result.stderr
    assert not (tmp_path / "out").exists()
