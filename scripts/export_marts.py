#!/usr/bin/env python3
"""Export every public mart of the published ragmart database as Parquet and CSV (used by `make export`).

Reads the published DuckDB database, $RAGMART_DUCKDB_PATH (default ragmart.duckdb; a relative path is
relative to the project root, as in scripts/build.py), opened READ-ONLY, so it never blocks or changes
the file, and writes each public mart as `<mart>.parquet` and `<mart>.csv` (UTF-8, a header line,
`"` quotes with `""` escapes, an empty field for null) into the export folder. Each file is written
under a temporary name and renamed into place, so a reader never sees half a file.

The CSV files are safe to open in a spreadsheet: a text cell that begins with `=`, `+`, `-`, `@`, a
tab or a carriage return (an annotator's note such as `=HYPERLINK(...)` would become a live formula)
starts with an apostrophe `'` there, as OWASP advises against CSV injection; numbers are written as
numbers, and the Parquet files keep every value as it is.

The public marts are the models with `access: public` in dbt's manifest (target/manifest.json of
the project, written by every `dbt build`, `make build` included), not a listing of models/marts/:
the manifest holds access as dbt resolved it from the YAML, config blocks and dbt_project.yml, and
the same list is what the engine comparison (dev/tests/engines) treats as public. Only the names
are taken from it (a manifest of a `--target postgres` run names another schema). A public mart
that is missing from the database (a database built before the mart existed) is an error.

Usage:
    python scripts/export_marts.py                          # into target/export of the project
    python scripts/export_marts.py --out exports --relative-to /home/me
    RAGMART_DUCKDB_PATH=/data/ragmart.duckdb python scripts/export_marts.py --out /data/bi
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = "ragmart.duckdb"
DEFAULT_OUT = "target/export"
DEFAULT_MANIFEST = "target/manifest.json"


class ExportError(Exception):
    """A problem with the database, the manifest or the export folder, reported as `error: ...`."""


def database_path(env: dict | None = None, project: Path = PROJECT) -> Path:
    """The published database: $RAGMART_DUCKDB_PATH (default ragmart.duckdb), relative to the project."""
    env = os.environ if env is None else env
    path = Path(env.get("RAGMART_DUCKDB_PATH") or DEFAULT_DATABASE).expanduser()
    if not path.is_absolute():
        path = project / path
    return Path(os.path.abspath(path))


def resolve(path: str | None, default: Path, relative_to: str | os.PathLike | None = None) -> Path:
    """`path` made absolute against `relative_to` (default: cwd); an empty or missing path is `default`."""
    if not path:
        return Path(os.path.abspath(default))
    folder = Path(path).expanduser()
    if not folder.is_absolute():
        folder = Path(relative_to if relative_to else os.getcwd()) / folder
    return Path(os.path.abspath(folder))


def public_marts(manifest_path: Path) -> list[tuple[str, str, str]]:
    """(name, schema, table) of every model of the project with access: public, sorted by name."""
    if not manifest_path.is_file():
        raise ExportError(f"no dbt manifest at {manifest_path}: run `make build` first (or pass --manifest)")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    project_name = manifest.get("metadata", {}).get("project_name")
    marts = sorted(
        (node["name"], node["schema"], node.get("alias") or node["name"])
        for node in manifest["nodes"].values()
        if node["resource_type"] == "model"
        and node.get("access") == "public"
        and (project_name is None or node["package_name"] == project_name)
    )
    if not marts:
        raise ExportError(f"the manifest {manifest_path} lists no public model")
    return marts


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# The first characters that make a spreadsheet read a text cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
APOSTROPHE = _literal("'")


def spreadsheet_safe_select(con, relation: str) -> str:
    """The select of a mart for its CSV file: each text column with an apostrophe before a value that
    a spreadsheet would read as a formula (FORMULA_STARTS), every other column as it is."""
    starts = ", ".join(_literal(start) for start in FORMULA_STARTS)
    columns = []
    for name, data_type, *_ in con.execute(f"describe select * from {relation}").fetchall():
        column = _quote(name)
        if data_type.upper() == "VARCHAR":
            columns.append(f"case when left({column}, 1) in ({starts}) then {APOSTROPHE} || {column}"
                           f" else {column} end as {column}")
        else:
            columns.append(column)
    return f"select {', '.join(columns)} from {relation}"


def export(database: Path, out: Path, marts: list[tuple[str, str, str]]) -> list[tuple[str, int]]:
    """Write <mart>.parquet and <mart>.csv for every mart into `out`; returns (mart, rows) per mart."""
    import duckdb

    if not database.is_file():
        raise ExportError(f"the database does not exist: {database} (run `make build` first, or set RAGMART_DUCKDB_PATH)")
    try:
        con = duckdb.connect(str(database), read_only=True)
    except duckdb.Error as error:
        raise ExportError(f"cannot open the database {database} read-only: {error}") from None
    try:
        schemas: dict[str, set[str]] = {}
        for schema, table in con.execute("select table_schema, table_name from information_schema.tables"
                                         " where table_catalog = current_database()").fetchall():
            schemas.setdefault(table, set()).add(schema)
        located, missing = [], []
        for name, schema, table in marts:
            found = schemas.get(table, set())
            if schema in found or len(found) == 1:
                # The manifest's schema is that of the target dbt last parsed (e.g. `ragmart` after a
                # `--target postgres` run); the DuckDB file's own schema wins when the table has one.
                located.append((name, schema if schema in found else next(iter(found)), table))
            else:
                missing.append(f"{schema}.{table}" + (f" (in {len(found)} schemas)" if found else ""))
        if missing:
            raise ExportError(f"public marts missing from {database}: {', '.join(missing)} (rebuild it with `make build`)")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, schema, table in located:
            relation = f"{_quote(schema)}.{_quote(table)}"
            for suffix, query, options in (
                    ("parquet", f"select * from {relation}", "format parquet"),
                    ("csv", spreadsheet_safe_select(con, relation), "format csv, header true")):
                target = out / f"{name}.{suffix}"
                partial = out / f".{name}.{suffix}.partial"
                con.execute(f"copy ({query}) to {_literal(str(partial))} ({options})")
                os.replace(partial, target)
            written.append((name, con.execute(f"select count(*) from {relation}").fetchall()[0][0]))
        return written
    finally:
        con.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="",
                        help=f"the export folder, created if missing (default: {DEFAULT_OUT} of the project; "
                        "a relative path is relative to --relative-to)")
    parser.add_argument("--relative-to", default="",
                        help="the folder a relative --out is taken from (default: the current folder; make passes the caller's)")
    parser.add_argument("--manifest", default="",
                        help=f"dbt's manifest that names the public marts (default: {DEFAULT_MANIFEST} of the project)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        out = resolve(args.out, PROJECT / DEFAULT_OUT, args.relative_to or None)
        manifest = resolve(args.manifest, PROJECT / DEFAULT_MANIFEST, args.relative_to or None)
        database = database_path()
        if not database.is_file():
            raise ExportError(f"the database does not exist: {database} (run `make build` first, or set RAGMART_DUCKDB_PATH)")
        written = export(database, out, public_marts(manifest))
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    width = max(len(name) for name, _ in written)
    for name, rows in written:
        print(f"{name:<{width}}  {rows:>7} rows")
    print(f"{len(written)} public marts of {database} written as .parquet and .csv to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
