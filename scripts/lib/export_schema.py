"""The shape of ragmart's inputs, for the project's Python tools and tests.

One place that knows the exports as docs/rules.md describes them: the files, their columns in the
order the project's tools write them, the labels, the required columns, the unit of a row, the
logical constraints between labels, the measures, and the one CSV writer of the files they write
(``write_csv``). The tasks and the measures come from the task spec, the vars ``ragmart_tasks`` and
``ragmart_measures`` of dbt_project.yml, which the SQL reads too: a label or a measure is declared
once. The writer of the project's data sets (export_data.py, which the sample maker, the export
generator and the test scenarios go through) and the tests import it; the formulas of the
independent checks stay their own.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import yaml

PROJECT_FILE = Path(__file__).resolve().parents[2] / "dbt_project.yml"


def load_vars(project_file: Path | str = PROJECT_FILE) -> dict:
    """The vars of a dbt_project.yml, as the project sets them by default."""
    return yaml.safe_load(Path(project_file).read_text(encoding="utf-8"))["vars"]


def load_spec(project_file: Path | str = PROJECT_FILE) -> tuple[dict, list[dict]]:
    """The task spec of a dbt_project.yml: (the tasks by name, the measures in order)."""
    project_vars = load_vars(project_file)
    return project_vars["ragmart_tasks"], project_vars["ragmart_measures"]


_VARS = load_vars()
SPEC, MEASURES = _VARS["ragmart_tasks"], _VARS["ragmart_measures"]

# The routing of a record to the gold tier (tier_b) under the default vars (docs/rules.md, Tiers): its
# task type is one of these, or its model_uncertainty is at least the threshold. The data sets the
# project writes place their gold records by them.
GOLD_TASK_TYPES = tuple(_VARS["gold_task_types"])
GOLD_UNCERTAINTY_THRESHOLD = float(_VARS["gold_uncertainty_threshold"])

TASKS = tuple(SPEC)

# The file of each input in seeds mode (files mode: any file whose name starts with the task).
FILES = {**{task: f"{task}_annotations.csv" for task in TASKS},
         "annotators": "annotators.csv", "records": "records.csv"}

LABELS = {task: list(spec["labels"]) for task, spec in SPEC.items()}

# Header order of the files the project's tools write (the project reads any order): the columns
# before the labels as listed here, the labels, then the notes.
_BEFORE_LABELS = {
    "retrieval": ["record_uuid", "annotator_id", "task", "language", "created_at", "input_query",
                  "generated_search_query", "chunk", "chunk_id", "doc_id", "chunk_rank", "can_answer"],
    "grounding": ["record_uuid", "annotator_id", "task", "language", "created_at", "query", "answer",
                  "context_set"],
    "generation": ["record_uuid", "annotator_id", "task", "language", "created_at", "query", "answer"],
}
COLUMNS = {
    **{task: [*_BEFORE_LABELS[task], *LABELS[task], "notes"] for task in TASKS},
    "annotators": ["annotator_id", "annotator_kind", "role", "display_name"],
    "records": ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier"],
}

# Columns that must not be empty (after trimming): `missing:<column>` otherwise.
REQUIRED = {
    task: ["record_uuid", "annotator_id", "task", "created_at", *spec["required_texts"],
           *(["chunk_id", "chunk_rank"] if task == "retrieval" else []), *spec["labels"]]
    for task, spec in SPEC.items()
}

# The columns that identify the unit a row labels.
UNITS = {task: list(spec["unit_columns"]) for task, spec in SPEC.items()}

# Logical constraints between labels: (reason code, antecedent, other label, kind). When the
# antecedent is 1, `implies` needs the other label to be 1 and `excludes` needs it to be 0.
CONSTRAINTS = {
    task: [(c["reason"], c["antecedent"], c["consequent"], c["kind"]) for c in spec["constraints"]]
    for task, spec in SPEC.items()
}

def broken_reasons(task: str, labels: Mapping[str, int]) -> list[str]:
    """The reason codes of the logical constraints of its task that a row's labels (by name, 0 or 1)
    break, in the spec's order."""
    return [reason for reason, antecedent, other, kind in CONSTRAINTS[task]
            if labels[antecedent] == 1 and labels[other] == (0 if kind == "implies" else 1)]


def labels_valid(task: str, labels: Mapping[str, int]) -> bool:
    """Whether a row's labels (by name, 0 or 1) keep every logical constraint of its task."""
    return not broken_reasons(task, labels)


def made_valid(task: str, labels: Mapping[str, int]) -> dict[str, int]:
    """The labels with every violated constraint set right: the consequent of an implication whose
    antecedent is 1 becomes 1, that of an exclusion 0."""
    out = dict(labels)
    for _, antecedent, other, kind in CONSTRAINTS[task]:
        if out[antecedent] == 1:
            out[other] = 1 if kind == "implies" else 0
    return out


# The measures whose lower value is the better system.
LOWER_IS_BETTER = tuple(m["metric"] for m in MEASURES if not m["higher_is_better"])


def _check_columns() -> None:
    """The header order above names exactly the spec's columns of each task."""
    for task, spec in SPEC.items():
        expected = {"record_uuid", "annotator_id", "task", "language", "created_at", *spec["required_texts"],
                    *spec["optional_texts"], *spec["optional_booleans"], *spec["labels"],
                    *(["chunk_id", "chunk_rank"] if task == "retrieval" else [])}
        if set(COLUMNS[task]) != expected or len(COLUMNS[task]) != len(expected):
            raise ValueError(f"export_schema: the header order of {task} does not name the columns of the "
                             f"task spec in dbt_project.yml: {sorted(set(COLUMNS[task]) ^ expected)}")


_check_columns()


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
