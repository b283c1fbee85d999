"""The native 0005 rows and files that hold the same information as Label Studio's exports.

Written from docs/rules.md ("Label Studio") only, never from the adapter: each export is read
with the standard library (the delimiter by ``csv.Sniffer``), and every annotation that was not
skipped, and every prediction with its result, becomes one row of its family.

* Task data: the 0005 columns of the task's ``data`` (JSON) or the columns (JSON_MIN, CSV, TSV;
  ``_data_<key>`` is the data key ``<key>``, preferred to a column ``<key>``).
* Controls: the result items of a JSON annotation or prediction by ``from_name``; the columns of
  JSON_MIN and CSV by name. Names compare lower-cased, through ``label_names``. A label,
  ``can_answer`` or ``notes`` gets the control's text: one choice (one text) is itself, a list of
  several is Label Studio's own JSON of the value, e.g. ``{"choices":["Yes","No"]}``.
* annotator_id: the user's id (``completed_by``, or its ``id``; ``annotator`` in JSON_MIN and
  CSV), the prediction's model_version; created_at: ``updated_at``.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from export_schema import COLUMNS, FILES, LABELS, write_csv

FAMILIES = ("retrieval", "grounding", "generation")
META = ("id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time")


def _text(value):
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _control_text(results: list[dict]) -> str | None:
    """A control's text from its result items (docs/rules.md: one choice or one text is itself)."""
    values = []
    for result in results:
        value = {k: v for k, v in (result.get("value") or {}).items() if k != "type"}
        kind = (result.get("type") or "").lower()
        if kind == "choices" and len(value.get("choices") or []) == 1:
            values.append(value["choices"][0])
        elif kind == "textarea" and len(value.get("text") or []) == 1:
            values.append(value["text"][0])
        else:
            values.append(value)
    return _text(values[0] if len(values) == 1 else values)


def _row(family: str, data: dict[str, str | None], controls: dict[str, str | None], annotator, updated_at,
         label_names: dict[str, str]) -> dict:
    names = {tool.strip().lower(): label for tool, label in label_names.items()}
    by_column: dict[str, str | None] = {}
    for name, value in controls.items():
        column = names.get(name.strip().lower(), name.strip().lower())
        by_column.setdefault(column, value)
    control_columns = LABELS[family] + ["notes"] + (["can_answer"] if family == "retrieval" else [])
    row = {column: data.get(column) for column in COLUMNS[family] if column not in control_columns}
    row |= {column: by_column.get(column) for column in control_columns}
    row |= {"annotator_id": annotator, "task": family, "created_at": updated_at}
    return row


def _from_tasks(family, tasks, label_names):
    rows = []
    for task in tasks:
        data = {key.lower(): _text(value) for key, value in task["data"].items()}
        items = [(a, a["completed_by"]["id"] if isinstance(a["completed_by"], dict) else a["completed_by"])
                 for a in task["annotations"] if not a.get("was_cancelled")]
        items += [(p, p.get("model_version")) for p in task["predictions"] if isinstance(p, dict)]
        for item, annotator in items:
            by_name: dict[str, list[dict]] = {}
            for result in item["result"]:
                by_name.setdefault(result["from_name"], []).append(result)
            controls = {name: _control_text(found) for name, found in by_name.items()}
            rows.append(_row(family, data, controls, _text(annotator), item["updated_at"], label_names))
    return rows


def _from_flat(family, records, label_names):
    rows = []
    for record in records:
        if "annotation_id" in record and record["annotation_id"] in ("", None):
            continue  # a task without annotations (an export of all tasks)
        data = {key[len("_data_"):].lower(): _text(value) for key, value in record.items() if key.startswith("_data_")}
        columns = {key: _text(value) for key, value in record.items()
                   if not key.startswith("_data_") and key not in META}
        for key, value in columns.items():
            data.setdefault(key.lower(), value)
        rows.append(_row(family, data, columns, _text(record.get("annotator")), _text(record.get("updated_at")),
                         label_names))
    return rows


def native_rows(path: Path, label_names: dict[str, str] | None = None) -> tuple[str, list[dict]]:
    """The family of an export file (by its name) and its rows in the 0005 shape."""
    family = next(name for name in FAMILIES if path.name.lower().startswith(name))
    text = path.read_text(encoding="utf-8-sig")
    label_names = label_names or {}
    if text.lstrip().startswith("["):
        content = json.loads(text)
        if content and "annotations" in content[0]:
            return family, _from_tasks(family, content, label_names)
        return family, _from_flat(family, content, label_names)
    dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",\t;")
    records = list(csv.DictReader(text.splitlines(keepends=True), delimiter=dialect.delimiter))
    return family, _from_flat(family, records, label_names)


def native_files(folder: Path, out: Path, label_names: dict[str, str] | None = None) -> Path:
    """The native files of a folder of Label Studio exports (one per family) beside its annotators
    and records files."""
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(folder.iterdir()):
        if path.name.lower().startswith(FAMILIES):
            family, rows = native_rows(path, label_names)
            write_csv(out / FILES[family], COLUMNS[family], rows)
        elif path.name in (FILES["annotators"], FILES["records"]):
            shutil.copy(path, out / path.name)
    return out
