"""The shape of ragmart's inputs, for the project's Python tools and tests.

One place that knows the exports as docs/rules.md describes them: the files, their columns in the
order the project's tools write them, the labels, the required columns, the unit of a row, the
logical constraints between labels, and the one CSV writer of the files they write
(``write_csv``). The sample maker (make_sample_seeds.py), the export generator
(generate_exports.py) and the tests import it; the SQL has its own copy of these rules, so the
Python checks stay independent of it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

TASKS = ("retrieval", "grounding", "generation")

# The file of each input in seeds mode (files mode: any file whose name starts with the task).
FILES = {
    "retrieval": "retrieval_annotations.csv",
    "grounding": "grounding_annotations.csv",
    "generation": "generation_annotations.csv",
    "annotators": "annotators.csv",
    "records": "records.csv",
}

LABELS = {
    "retrieval": ["topically_relevant", "evidence_sufficient", "misleading"],
    "grounding": ["support_present", "unsupported_claim_present", "contradicted_claim_present",
                  "source_cited", "fabricated_source"],
    "generation": ["proper_action", "response_on_topic", "helpful", "incomplete", "unsafe_content"],
}

# Header order of the files the project's tools write (the project reads any order).
COLUMNS = {
    "retrieval": ["record_uuid", "annotator_id", "task", "language", "created_at", "input_query",
                  "generated_search_query", "chunk", "chunk_id", "doc_id", "chunk_rank", "can_answer",
                  *LABELS["retrieval"], "notes"],
    "grounding": ["record_uuid", "annotator_id", "task", "language", "created_at", "query", "answer",
                  "context_set", *LABELS["grounding"], "notes"],
    "generation": ["record_uuid", "annotator_id", "task", "language", "created_at", "query", "answer",
                   *LABELS["generation"], "notes"],
    "annotators": ["annotator_id", "annotator_kind", "role", "display_name"],
    "records": ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier"],
}

# Columns that must not be empty (after trimming): `missing:<column>` otherwise.
REQUIRED = {
    "retrieval": ["record_uuid", "annotator_id", "task", "created_at", "input_query", "chunk", "chunk_id",
                  "chunk_rank", *LABELS["retrieval"]],
    "grounding": ["record_uuid", "annotator_id", "task", "created_at", "query", "answer", "context_set",
                  *LABELS["grounding"]],
    "generation": ["record_uuid", "annotator_id", "task", "created_at", "query", "answer", *LABELS["generation"]],
}

# The columns that identify the unit a row labels.
UNITS = {"retrieval": ["record_uuid", "chunk_id"], "grounding": ["record_uuid"], "generation": ["record_uuid"]}

# Logical constraints between labels: (reason code, antecedent, other label, kind). When the
# antecedent is 1, `implies` needs the other label to be 1 and `excludes` needs it to be 0.
CONSTRAINTS = {
    "retrieval": [("violates:sufficient_implies_relevant", "evidence_sufficient", "topically_relevant", "implies"),
                  ("violates:sufficient_excludes_misleading", "evidence_sufficient", "misleading", "excludes")],
    "grounding": [("violates:contradicted_implies_unsupported", "contradicted_claim_present",
                   "unsupported_claim_present", "implies"),
                  ("violates:fabricated_implies_cited", "fabricated_source", "source_cited", "implies")],
    "generation": [],
}


def write_csv(path: Path | str, header: Sequence[str], rows: Iterable[Sequence | Mapping]) -> None:
    """A CSV file as the project's tools write the exports and seeds: UTF-8 without a byte-order mark,
    comma-separated, `"` quotes only where a value needs them, `\\n` line ends. A row is a sequence in
    the order of ``header`` or a mapping by column name (a column it lacks is empty; None is empty; a
    name that is not a column stops it, so that a misspelt column is not written empty)."""

    def values(row):
        if not isinstance(row, Mapping):
            return row
        unknown = set(row) - set(header)
        if unknown:
            raise ValueError(f"{path}: {sorted(unknown)} are not columns of {list(header)}")
        return [row.get(column, "") for column in header]

    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(values(row) for row in rows)
