"""Compare every public mart of two ragmart DuckDB databases, row for row.

A change to the models between staging and the marts must leave the marts as they were. This
reads both databases read-only and, for each public mart (every table of the marts' schema,
``main``), checks that the columns (names, order,
types) are the same and that the rows are the same as multisets: ``EXCEPT ALL`` both ways, every
double rounded to ``--digits`` decimal places (12 by default, as the project's equality proofs
use). With folders instead of files, it compares each ``build_<scenario>/ragmart.duckdb`` found in
both (the builds that a pytest run with ``--basetemp`` leaves).

    .venv/bin/python dev/compare_marts.py before.duckdb after.duckdb
    .venv/bin/python dev/compare_marts.py /tmp/before_basetemp /tmp/after_basetemp

Exit code 0 when every mart of every pair is equal, 1 when any differs, 2 on a usage error. A pair
with no table of the schema in either database (a build up to staging) is counted apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import duckdb

FLOATING = {"DOUBLE", "FLOAT", "REAL"}


def _columns(con, catalog: str, schema: str, mart: str) -> list[tuple[str, str]] | None:
    rows = con.execute(
        "select column_name, data_type from information_schema.columns where table_catalog = ?"
        " and table_schema = ? and table_name = ? order by ordinal_position", [catalog, schema, mart]).fetchall()
    return rows or None


def _tables(con, catalog: str, schema: str) -> set[str]:
    return {row[0] for row in con.execute(
        "select table_name from information_schema.tables where table_catalog = ? and table_schema = ?",
        [catalog, schema]).fetchall()}


def compare(before: Path, after: Path, digits: int, schema: str = "main") -> tuple[int, list[str]]:
    """The number of tables compared and the differences between them (empty: equal)."""
    problems = []
    con = duckdb.connect()
    con.execute(f"attach '{before}' as before_db (read_only)")
    con.execute(f"attach '{after}' as after_db (read_only)")
    marts = sorted(_tables(con, "before_db", schema) | _tables(con, "after_db", schema))
    for mart in marts:
        left, right = _columns(con, "before_db", schema, mart), _columns(con, "after_db", schema, mart)
        if left is None or right is None:
            if left != right:
                problems.append(f"{mart}: in {'after only' if left is None else 'before only'}")
            continue
        if left != right:
            problems.append(f"{mart}: columns differ: {left} != {right}")
            continue
        select = ", ".join(f'round("{name}", {digits})' if kind in FLOATING else f'"{name}"'
                           for name, kind in left)
        relations = {db: f'{db}."{schema}"."{mart}"' for db in ("before_db", "after_db")}
        counts = {db: con.execute(f"select count(*) from {rel}").fetchone()[0] for db, rel in relations.items()}
        for one, other in (("before_db", "after_db"), ("after_db", "before_db")):
            extra = con.execute(f"select {select} from {relations[one]} except all"
                                f" select {select} from {relations[other]}").fetchall()
            if extra:
                problems.append(f"{mart}: {len(extra)} of {counts[one]} rows only in {one[:-3]}, e.g. {extra[:2]}")
    con.close()
    return len(marts), problems


def pairs(before: Path, after: Path) -> list[tuple[str, Path, Path]]:
    if before.is_file() and after.is_file():
        return [(after.name, before, after)]
    if before.is_dir() and after.is_dir():
        found = []
        for db in sorted(before.glob("build_*/ragmart.duckdb")):
            other = after / db.parent.name / db.name
            if other.exists():
                found.append((db.parent.name[len("build_"):], db, other))
        return found
    raise SystemExit(f"usage: {before} and {after} must both be database files or both folders")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--schema", default="main", help="the schema whose tables are compared (main: the marts)")
    parser.add_argument("--digits", type=int, default=12, help="decimal places doubles are rounded to (12)")
    args = parser.parse_args(argv)
    try:
        found = pairs(args.before, args.after)
    except SystemExit as exc:
        print(exc, file=sys.stderr)
        return 2
    if not found:
        print("no database found in both", file=sys.stderr)
        return 2
    failed = empty = 0
    for name, before, after in found:
        n_tables, problems = compare(before, after, args.digits, args.schema)
        failed += bool(problems)
        empty += not n_tables
        verdict = "DIFFERENT" if problems else "equal" if n_tables else "nothing to compare"
        print(f"{name}: {verdict} ({n_tables} tables of {args.schema})")
        for problem in problems:
            print(f"  {problem}")
    print(f"{len(found) - failed - empty} of {len(found)} equal, {failed} different,"
          f" {empty} with no table of {args.schema} in either")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
