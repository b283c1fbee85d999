#!/usr/bin/env python3
"""Write ADR-001's gold set as JSON lines (used by `make export-gold`).

Reads the published DuckDB database ($RAGMART_DUCKDB_PATH, default ragmart.duckdb; a relative path
is relative to the project root, as in `make export`), opened READ-ONLY, and writes into the folder
(default target/gold of the project) one file per family, `<family>.jsonl` (retrieval, grounding,
generation): one JSON object per line for each row of the mart `<family>_training_pairs` whose
`tier` is `tier_b` (a pair with a unit in the gold tier), rows in (`text`, `text_pair`) byte order,
UTF-8:

    {"text": ..., "text_pair": ..., "labels": {"topically_relevant": 1, ...}, "split": "train",
     "language": "de", "n_annotators": 2, "run_ids": ["bot-v2"], "record_uuids": ["..."],
     "units": [{"record_uuid": "...", "chunk_id": "c1", "tier": "tier_b"}, ...]}

`units` lists every resolved unit of the pair (the intermediate table int_training__units), sorted
by record_uuid then chunk_id (bytes): its record, its `chunk_id` in retrieval (a unit there is a
chunk of a record), and its record's tier. The labels are those of the `tier_b` units (gold
authority: a pair with a gold unit takes its labels from its gold units alone); the `tier_a` units
are there for provenance, as in `record_uuids`.

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


def _by_bytes(text: str) -> bytes:
    return text.encode("utf-8")


def pair_units(con, family: str) -> dict[tuple[str, str], list[dict]]:
    """(text, text_pair) -> the pair's resolved units as the objects of `units`, sorted by record_uuid
    then chunk_id (bytes)."""
    table = "int_training__units"
    schemas = [row[0] for row in con.execute(
        "select table_schema from information_schema.tables where table_name = ?", [table]).fetchall()]
    if not schemas:
        raise ExportError(f"the database has no table {table} (built by an older ragmart?); run 'make build'")
    units: dict[tuple[str, str], list[dict]] = {}
    for text, text_pair, record_uuid, chunk_id, tier in con.execute(
            f'select text, text_pair, record_uuid, unit_chunk_key, tier from "{schemas[0]}"."{table}"'
            " where task = ?", [family]).fetchall():
        unit = {"record_uuid": record_uuid, **({"chunk_id": chunk_id} if family == "retrieval" else {}), "tier": tier}
        units.setdefault((text, text_pair), []).append(unit)
    for found in units.values():
        found.sort(key=lambda unit: (_by_bytes(unit["record_uuid"]), _by_bytes(unit.get("chunk_id", ""))))
    return units


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
    rows.sort(key=lambda row: (_by_bytes(row["text"]), _by_bytes(row["text_pair"])))
    units = pair_units(con, family)
    return [{"text": row["text"], "text_pair": row["text_pair"],
             "labels": {label: row[label] for label in LABELS[family]},
             "split": row["split"], "language": row["language"], "n_annotators": row["n_annotators"],
             "run_ids": row["run_ids"].split(";"), "record_uuids": row["record_uuids"].split(";"),
             "units": units[(row["text"], row["text_pair"])]}
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
