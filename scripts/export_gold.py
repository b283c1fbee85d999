#!/usr/bin/env python3
"""Write ADR-001's gold set as JSON lines (used by `make export-gold`).

Reads the published DuckDB database ($RAGMART_DUCKDB_PATH, default ragmart.duckdb; a relative path
is relative to the project root, as in `make export`), opened READ-ONLY, and writes into the folder
(default target/gold of the project) one file per family, `<family>.jsonl` (retrieval, grounding,
generation): one JSON object per line for each row of the mart `<family>_training_pairs` whose
`tier` is `tier_b` (a pair with a unit in the gold tier), rows in (`text`, `text_pair`) byte order,
UTF-8:

    {"text": ..., "text_pair": ..., "labels": {"topically_relevant": 1, ...}, "split": "train",
     "language": "de", "n_annotators": 2, "run_ids": ["bot-v2"], "record_uuids": ["..."]}

A family without gold rows gets an empty file. The folder is written under a temporary name and
replaces the old one whole; an existing folder is replaced only when it holds nothing but these
files.

Usage:
    python scripts/export_gold.py                                  # target/gold of the project
    python scripts/export_gold.py --out gold --relative-to /home/me
    python scripts/export_gold.py --database /data/ragmart.duckdb --out /data/gold
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_marts import database_path, resolve  # noqa: E402 - the same conventions as `make export`

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))  # export_schema: the task spec's reader
from export_schema import LABELS, TASKS  # noqa: E402

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = "target/gold"
FAMILIES = TASKS
FILES = {f"{family}.jsonl" for family in FAMILIES}


class ExportError(Exception):
    """A problem with the database or the folder, reported as `error: ...`."""


def gold_rows(con, family: str) -> list[dict]:
    """The family's gold-tier rows as the JSON objects of its file, in (text, text_pair) byte order."""
    mart = f"{family}_training_pairs"
    if not con.execute("select 1 from information_schema.tables where table_name = ?", [mart]).fetchall():
        raise ExportError(f"the database has no mart {mart} (built by an older ragmart?); run 'make build'")
    cursor = con.execute(f"select * from {mart} where tier = 'tier_b'")
    columns = [d[0] for d in cursor.description]
    if "run_ids" not in columns:
        raise ExportError(f"the database's {mart} has a row per unit (built by an older ragmart); run 'make build'")
    rows = [dict(zip(columns, row)) for row in cursor.fetchall()]
    rows.sort(key=lambda row: (row["text"].encode("utf-8"), row["text_pair"].encode("utf-8")))
    return [{"text": row["text"], "text_pair": row["text_pair"],
             "labels": {label: row[label] for label in LABELS[family]},
             "split": row["split"], "language": row["language"], "n_annotators": row["n_annotators"],
             "run_ids": row["run_ids"].split(";"), "record_uuids": row["record_uuids"].split(";")}
            for row in rows]


def write(database: Path, out: Path) -> dict[str, int]:
    """Writes the folder; returns the gold rows per family."""
    import duckdb

    if not database.exists():
        raise ExportError(f"{database} does not exist; run 'make build' first")
    if out.exists() and (not out.is_dir() or not {p.name for p in out.iterdir()} <= FILES):
        raise ExportError(f"{out} exists and holds other files than {', '.join(sorted(FILES))}: not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".gold-", dir=out.parent))
    counts = {}
    try:
        with duckdb.connect(str(database), read_only=True) as con:
            for family in FAMILIES:
                rows = gold_rows(con, family)
                with open(work / f"{family}.jsonl", "w", encoding="utf-8", newline="\n") as fh:
                    for row in rows:
                        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                counts[family] = len(rows)
        if out.exists():
            shutil.rmtree(out)
        os.replace(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return counts


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="the DuckDB file (default: $RAGMART_DUCKDB_PATH or ragmart.duckdb)")
    parser.add_argument("--out", default="", help=f"the folder (default: {DEFAULT_OUT} of the project)")
    parser.add_argument("--relative-to", default=None, help="the folder a relative --out is relative to (default: cwd)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    database = Path(args.database).resolve() if args.database else database_path()
    out = resolve(args.out, PROJECT / DEFAULT_OUT, args.relative_to)
    try:
        counts = write(database, out)
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(", ".join(f"{family} {n:,}" for family, n in counts.items()) + " gold row(s)")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
