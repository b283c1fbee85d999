#!/usr/bin/env python3
"""Write the training view as a Hugging Face dataset folder (used by `make export-hf`).

Reads the published DuckDB database ($RAGMART_DUCKDB_PATH, default ragmart.duckdb; a relative path
is relative to the project root, as in `make export`), opened READ-ONLY, and writes into the folder
(default target/hf of the project):

- `<family>/<split>.parquet` for each family (retrieval, grounding, generation) and each split
  (train, validation, test) that has rows, from the marts `<family>_training_pairs`;
- `README.md`, the dataset card: a YAML header that declares one config per family with its split
  files and its features (the labels as ClassLabel with the names `no` and `yes`, so 0 is `no`),
  and what the labels mean, how they were adjudicated, the tiers and the counts.

Then, offline:

    import datasets
    dataset = datasets.load_dataset("target/hf", "retrieval")   # a DatasetDict of the splits

The folder is written under a temporary name and renamed into place, so a reader never sees half a
dataset; an existing folder of that name is replaced only when it holds a dataset card.

Usage:
    python scripts/export_hf.py                                  # target/hf of the project
    python scripts/export_hf.py --out hf --relative-to /home/me
    python scripts/export_hf.py --database /data/ragmart.duckdb --out /data/hf
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_marts import database_path, resolve  # noqa: E402 - the same conventions as `make export`
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
    return lines


def write(database: Path, out: Path) -> dict[str, dict[str, int]]:
    import duckdb

    if not database.exists():
        raise ExportError(f"{database} does not exist; run 'make build' first")
    if out.exists() and not (out / "README.md").exists():
        raise ExportError(f"{out} exists and holds no dataset card: not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".hf-", dir=out.parent))
    counts: dict[str, dict[str, int]] = {}
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
                counts[family] = dict(con.execute(f"select split, count(*) from {mart} group by split").fetchall())
                (work / family).mkdir()
                header += [f"- config_name: {family}", "  data_files:"]
                info += [f"- config_name: {family}"] + _features(family, columns)
                for split in SPLITS:
                    if not counts[family].get(split):
                        continue
                    path = work / family / f"{split}.parquet"
                    con.execute(f"copy (select * from {mart} where split = ? order by record_uuid"
                                f"{', chunk_rank' if family == 'retrieval' else ''})"
                                f" to '{str(path).replace(chr(39), chr(39) * 2)}' (format parquet)", [split])
                    header += [f"  - split: {split}", f"    path: {family}/{split}.parquet"]
        card = "\n".join(header + info + ["---", "", _card_text(counts)])
        (work / "README.md").write_text(card, encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        os.replace(work, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return counts


def _card_text(counts: dict[str, dict[str, int]]) -> str:
    lines = [
        "# ragmart training pairs",
        "",
        "The adjudicated labels of a RAG chatbot evaluation, as `text` / `text_pair` pairs, one config per",
        "family. Written by ragmart (`make export-hf`) from its marts `retrieval_training_pairs`,",
        "`grounding_training_pairs` and `generation_training_pairs`.",
        "",
        "## How the labels were made",
        "",
        "Human annotators labelled every unit (a retrieved chunk of a query, or an answer); LLM and",
        "rule-based judges took no part. A label's value is the human consensus: an adjudicator's",
        "latest label when an adjudicator labelled the unit, else the annotators' unanimous or strict",
        "majority vote. Units with a tied label (waiting for adjudication) are left out, so every",
        "label here is resolved. Rows that broke the export's rules were rejected before the consensus.",
        "`tier` is the labeling tier of the record: `tier_b` (gold: factual and synthesis questions,",
        "uncertain or adversarial cases, dual-annotated) or `tier_a` (triage, single-annotated and",
        "spot-checked). `n_annotators` counts the human annotators behind the row.",
        "",
        "## Splits",
        "",
        "The split of a row comes from its query (the query id, else the query text): the first 8",
        "hexadecimal digits of its md5, as a fraction of 2^32, against the shares train 0.8,",
        "validation 0.1, test 0.1 (ragmart's var `training_split_shares`). Every row of one query is",
        "in one split, in every config and every evaluation run, and a query keeps its split when",
        "records are added.",
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
        lines += [""]
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
        counts = write(database, out)
    except ExportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for family in FAMILIES:
        print(f"{family}: " + ", ".join(f"{split} {n:,}" for split, n in sorted(counts[family].items())))
    print(f"wrote {out} (datasets.load_dataset('{out}', 'retrieval'))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
