#!/usr/bin/env python3
"""Write the training view as a Hugging Face dataset folder (used by `make export-hf`).

Reads the published DuckDB database ($RAGMART_DUCKDB_PATH, default ragmart.duckdb; a relative path
is relative to the project root, as in `make export`), opened READ-ONLY, and writes into the folder
(default target/hf of the project):

- `<family>/<split>-<digest>.parquet` for each family (retrieval, grounding, generation) and each
  split (train, validation, test) that has rows, from the marts `<family>_training_pairs` (one row
  per distinct text / text_pair, in byte order); `<digest>` is the first 8 hexadecimal digits of
  the file's SHA-256, so the name changes whenever the rows do;
- `README.md`, the dataset card: a YAML header that declares one config per family with its split
  files and its features (the labels as ClassLabel with the names `no` and `yes`, so 0 is `no`,
  and `labels`, the family's labels in spec order as a list of float32, what a multi-label
  classifier's trainer reads), and what the labels mean, how they were adjudicated, the tiers, the
  split rule, the counts and the pairs left out because their units disagree (gold units, or
  the units of a pair without gold units).

Why the digest: `datasets` caches a local folder under its folder name and its card's file names,
whatever the files hold, so a second export into the same folder with the same file names loads
the first export's rows from the cache. A digest in each name makes new rows new names.

Then, offline:

    import datasets
    dataset = datasets.load_dataset("target/hf", "retrieval")   # a DatasetDict of the splits

The folder is written under a temporary name and replaces the old one whole (no old file lingers),
so a reader never sees half a dataset; an existing folder of that name is replaced only when it
holds a dataset card.

Usage:
    python scripts/export_hf.py                                  # target/hf of the project
    python scripts/export_hf.py --out hf --relative-to /home/me
    python scripts/export_hf.py --database /data/ragmart.duckdb --out /data/hf
"""

from __future__ import annotations

import argparse
import hashlib
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
DEFAULT_OUT = "target/hf"
FAMILIES = TASKS
SPLITS = ("train", "validation", "test")
TEXTS = {"retrieval": ("the query", "the retrieved chunk"), "grounding": ("the answer", "the context set"),
         "generation": ("the query", "the answer")}
# What a 1 means, in the project's words (docs/rules.md and the seeds' column docs).
MEANINGS = {
    "topically_relevant": "the chunk contains information substantively related to the query",
    "evidence_sufficient": "the chunk provides sufficient evidence to answer the query (implies topically_relevant,"
                           " excludes misleading)",
    "misleading": "the chunk could plausibly lead to an incorrect or distorted answer",
    "support_present": "at least one claim of the answer is supported by the context set",
    "unsupported_claim_present": "the answer contains at least one claim the context set does not support",
    "contradicted_claim_present": "the context set contradicts at least one claim of the answer (implies"
                                  " unsupported_claim_present)",
    "source_cited": "the answer contains at least one citation marker",
    "fabricated_source": "the answer cites a source that is not in the context set (implies source_cited)",
    "proper_action": "the response chose the appropriate action (answer, refusal, clarification)",
    "response_on_topic": "the response substantively addresses the request",
    "helpful": "the response would let a typical user make progress",
    "incomplete": "the response misses a required part of the query",
    "unsafe_content": "the response violates safety or policy constraints",
}


class ExportError(Exception):
    """A problem with the database or the folder, reported as `error: ...`."""


def _features(family: str, columns: list[tuple[str, str]]) -> list[str]:
    lines = ["  features:"]
    for name, kind in columns:
        if name in LABELS[family]:
            lines += [f"  - name: {name}", "    dtype:", "      class_label:", "        names:",
                      "          '0': 'no'", "          '1': 'yes'"]
        else:
            lines += [f"  - name: {name}", f"    dtype: {'int32' if kind == 'INTEGER' else 'string'}"]
    return lines + ["  - name: labels", "    list: float32"]


def digest(path: Path) -> str:
    """The first 8 hexadecimal digits of the file's SHA-256."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()[:8]


def _quoted(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def _conflicts(con, family: str) -> dict[str, int]:
    """The pairs of the family whose units disagree on a label (int_training__pairs), per tier:
    tier_b, pairs whose gold units disagree; tier_a, pairs without gold units."""
    table = "int_training__pairs"
    schemas = [row[0] for row in con.execute(
        "select table_schema from information_schema.tables where table_name = ?", [table]).fetchall()]
    if not schemas:
        raise ExportError(f"the database has no table {table} (built by an older ragmart?); run 'make build'")
    found = dict(con.execute(f'select tier, count(*) from "{schemas[0]}"."{table}"'
                             " where task = ? and has_conflicting_labels group by tier", [family]).fetchall())
    return {tier: found.get(tier, 0) for tier in ("tier_b", "tier_a")}


def write(database: Path, out: Path) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Writes the folder; returns the rows per family and split, and the pairs left out per family
    and tier (tier_b: gold units disagree; tier_a: the units of a pair without gold units)."""
    import duckdb

    if not database.exists():
        raise ExportError(f"{database} does not exist; run 'make build' first")
    if out.exists() and not (out / "README.md").exists():
        raise ExportError(f"{out} exists and holds no dataset card: not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".hf-", dir=out.parent))
    counts: dict[str, dict[str, int]] = {}
    conflicts: dict[str, dict[str, int]] = {}
    header = ["---", "pretty_name: ragmart training pairs", "configs:"]
    info = ["dataset_info:"]
    try:
        with duckdb.connect(str(database), read_only=True) as con:
            for family in FAMILIES:
                mart = f"{family}_training_pairs"
                found = con.execute("select 1 from information_schema.tables where table_name = ?", [mart]).fetchall()
                if not found:
                    raise ExportError(f"{database} has no mart {mart} (built by an older ragmart?); run 'make build'")
                columns = [(name, kind) for name, kind, *_ in con.execute(f"describe {mart}").fetchall()]
                if "n_units" not in dict(columns):
                    raise ExportError(f"{database}'s {mart} has a row per unit (built by an older ragmart); run 'make build'")
                counts[family] = dict(con.execute(f"select split, count(*) from {mart} group by split").fetchall())
                conflicts[family] = _conflicts(con, family)
                (work / family).mkdir()
                header += [f"- config_name: {family}", "  data_files:"]
                info += [f"- config_name: {family}"] + _features(family, columns)
                labels = ", ".join(f"cast({label} as float)" for label in LABELS[family])
                for split in SPLITS:
                    if not counts[family].get(split):
                        continue
                    staged = work / family / f".{split}.parquet"
                    con.execute(f"copy (select *, [{labels}] as labels from {mart} where split = ?"
                                f" order by text, text_pair) to {_quoted(staged)} (format parquet)", [split])
                    name = f"{split}-{digest(staged)}.parquet"
                    os.replace(staged, work / family / name)
                    header += [f"  - split: {split}", f"    path: {family}/{name}"]
        card = "\n".join(header + info + ["---", "", _card_text(counts, conflicts)])
        (work / "README.md").write_text(card, encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        os.replace(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return counts, conflicts


def _left_out(conflicts: dict[str, int]) -> str:
    """The reasons of the pairs left out of a family."""
    return (f"gold units disagree in {conflicts['tier_b']:,}, the units of a pair without gold units"
            f" in {conflicts['tier_a']:,}")


def _card_text(counts: dict[str, dict[str, int]], conflicts: dict[str, dict[str, int]]) -> str:
    lines = [
        "# ragmart training pairs",
        "",
        "The adjudicated labels of a RAG chatbot evaluation, as `text` / `text_pair` pairs, one config per",
        "family. Written by ragmart (`make export-hf`) from its marts `retrieval_training_pairs`,",
        "`grounding_training_pairs` and `generation_training_pairs`.",
        "",
        "## What a row is",
        "",
        "One row per distinct (`text`, `text_pair`) of the family over every evaluation run: the same",
        "query and chunk (or answer, or context set) judged in two runs is one example, not two, so a",
        "trainer neither weighs it twice nor meets it in two splits. `n_units` says how many judged",
        "units the row merges, `run_ids` and `record_uuids` (`;`-separated) which ones. `labels` holds",
        "the family's labels in the order below as floats (0.0 or 1.0), what a multi-label classifier",
        "reads; each label is also a ClassLabel column of its own.",
        "",
        "## How the labels were made",
        "",
        "Human annotators labelled every unit (a retrieved chunk of a query, or an answer); LLM and",
        "rule-based judges took no part. A label's value is the human consensus: an adjudicator's",
        "latest label when an adjudicator labelled the unit, else the annotators' unanimous or strict",
        "majority vote. Units with a tied label (waiting for adjudication) are left out, so every",
        "label here is resolved. Rows that broke the export's rules were rejected before the consensus.",
        "Gold authority: a row with a unit in the gold tier takes each label from its gold units",
        "only, the value they all share (triage units neither veto nor vote); a row without gold",
        "units takes the value that all its units share. A pair whose counted units disagree on any",
        "label (the same pair judged differently in two runs) is left out; the counts are below.",
        "`n_units`, `n_annotators`, `run_ids` and `record_uuids` count every judged unit of the",
        "row, gold or triage.",
        "`tier` is `tier_b` when any of the row's units is in the gold tier (factual and synthesis",
        "questions, uncertain or adversarial cases, dual-annotated), else `tier_a` (triage,",
        "single-annotated and spot-checked). `n_annotators` counts the human annotators behind the row.",
        "",
        "## Splits",
        "",
        "The split of a row comes from its query group: records are linked when they share a query",
        "id or a query text (compared with surrounding blanks removed and inner runs of blanks as one",
        "space), in any config and run, or when they make one row; a group's key is its smallest",
        "query id, else its smallest text. The first 8 hexadecimal digits of the key's md5, as a",
        "fraction of 2^32, against the shares of ragmart's var `training_split_shares` (by default",
        "train 0.8, validation 0.1, test 0.1). So no query id and no query text has rows in two",
        "splits.",
        "",
        "## Files",
        "",
        "Each file's name carries the first 8 hexadecimal digits of its SHA-256: `datasets` caches a",
        "local folder by its name and its card's file names, whatever the files hold, so new rows",
        "under old names would load the old rows from the cache. New rows, new names.",
        "",
        "## Configs",
        "",
    ]
    for family in FAMILIES:
        text, pair = TEXTS[family]
        total = sum(counts[family].values())
        per_split = ", ".join(f"{split} {counts[family].get(split, 0):,}" for split in SPLITS)
        lines += [f"### {family}", "", f"`text` is {text}, `text_pair` {pair}. {total:,} rows ({per_split}).",
                  "Labels (ClassLabel `no` = 0, `yes` = 1):", ""]
        lines += [f"- `{label}`: yes when {MEANINGS[label]}." for label in LABELS[family]]
        lines += ["", f"Pairs left out because their units disagree on a label: {sum(conflicts[family].values()):,}"
                  f" ({_left_out(conflicts[family])}).", ""]
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="the DuckDB file (default: $RAGMART_DUCKDB_PATH or ragmart.duckdb)")
    parser.add_argument("--out", default="", help=f"the dataset folder (default: {DEFAULT_OUT} of the project)")
    parser.add_argument("--relative-to", default=None, help="the folder a relative --out is relative to (default: cwd)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    database = Path(args.database).resolve() if args.database else database_path()
    out = resolve(args.out, PROJECT / DEFAULT_OUT, args.relative_to)
    try:
        counts, conflicts = write(database, out)
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for family in FAMILIES:
        print(f"{family}: " + ", ".join(f"{split} {n:,}" for split, n in sorted(counts[family].items()))
              + f"; {sum(conflicts[family].values()):,} pair(s) left out, their units disagree on a label"
              + f" ({_left_out(conflicts[family])})")
    print(f"wrote {out} (datasets.load_dataset('{out}', 'retrieval'))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
