"""A Label Studio export as read (input_format `label_studio`): every annotation and prediction with its fields.

The folder `input_path` holds one export per task family, named like the native files
(`retrieval*`, `grounding*`, `generation*`; any case; only the families the var input_format
reads as `label_studio`: with a mapping per family the others belong to other formats), in any
of Label Studio's export types; the
type is read from the content, not from the name (Label Studio names a TSV download `.csv`):

- JSON, a list of tasks (`data`, `annotations`, `predictions`): the UI's export, or the snapshot
  export (the SDK's), the only one whose predictions carry their results and model versions;
- JSON_MIN, a list of flat objects, one per annotation: the task data, one key per control, and
  `annotator`, `annotation_id`, `created_at`, `updated_at`, `lead_time`, `id`;
- CSV or TSV: the same as columns (the delimiter is the one of `,`, tab and `;` that the header line
  holds most outside quotes).

One row per field of each item (an annotation, a prediction, or a cancelled annotation, a
prediction without its result or a task without annotations, which have no fields), every value as text, with the item's
columns repeated: `family`, `file_index` (the file's place among the export files, by name),
`source_file`, `source_row` (the 1-based data row of a CSV/TSV file or object of a JSON_MIN file;
in a JSON file the item's position: tasks in order, each task's annotations, then its
predictions), `item_kind`, `task_id`, `annotator_id` (the user's id, a prediction's model
version), `updated_at`. `field_source` says where a field came from: `data` (the task data; in
CSV and JSON_MIN the columns Label Studio prefixed `_data_`), `control` (a JSON result, by its
`from_name`) or `column` (a CSV/JSON_MIN column that may be either); `item` marks the one row of
every item that holds no field. A control's value is written as Label Studio's own JSON_MIN and
CSV exports write it, so every export type gives the same text: a single choice or a single text is
itself; anything else (several choices, several results of one control) is its compact JSON. The
staging models (stg_label_studio__*) turn the fields into the 0005 rows of each family.

A CSV record with another number of fields than the header has no fields: its raw text is kept
(`malformed_record`) and the row is quarantined. A file that is not valid UTF-8 JSON or CSV (a
workbook, Parquet, gzip or other binary data is named as such), or a file named for a family in
another format, stops the build naming the file.
"""

import codecs
import csv
import io
import json
import os
import tempfile

FAMILIES = ("retrieval", "grounding", "generation")
ENDINGS = (".json", ".csv", ".tsv", ".txt")
COLUMNS = [
    "family", "file_index", "source_file", "source_row", "item_kind", "malformed_record", "task_id",
    "annotator_id", "updated_at", "field_source", "field_name", "field_value",
]
# the columns Label Studio's JSON_MIN and CSV exports add to the task data and the controls
ITEM_COLUMNS = {"id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "agreement", "history"}
DATA_PREFIX = "_data_"
DELIMITERS = (",", "\t", ";")


class LabelStudioExportError(Exception):
    """A Label Studio export that the build cannot read as it is."""


def _setting(value):
    if value is None or str(value).strip() in ("", "None", "none", "null"):
        return None
    return str(value)


def _compact(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value):
    """A value as text: strings as they are (empty: none), other scalars and structures as JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value if value != "" else None
    return _compact(value)


def _result_value(result):
    """One result item's value as Label Studio's JSON_MIN writes it: a single choice or text itself,
    else the value without its type (compact JSON)."""
    value = dict(result.get("value") or {})
    kind = str(result.get("type") or "").lower()
    if kind == "choices" and isinstance(value.get("choices"), list) and len(value["choices"]) == 1:
        return value["choices"][0]
    if kind == "textarea" and isinstance(value.get("text"), list) and len(value["text"]) == 1:
        return value["text"][0]
    value.pop("type", None)
    return value


def _controls(results):
    """{from_name: text} of an annotation's or prediction's results: one result is its value, several
    results of one control the list of their values."""
    values = {}
    for result in results or []:
        if isinstance(result, dict) and result.get("from_name"):
            values.setdefault(str(result["from_name"]), []).append(_result_value(result))
    return {name: _text(found[0] if len(found) == 1 else found) for name, found in values.items()}


def _user(completed_by):
    """The annotating user's id as text: completed_by is the id, or (snapshot) the user with its id."""
    if isinstance(completed_by, dict):
        completed_by = completed_by.get("id")
    return _text(completed_by)


class Items:
    """The rows of one file, item by item."""

    def __init__(self, family, file_index, source_file):
        self.base = {"family": family, "file_index": file_index, "source_file": source_file}
        self.rows = []

    def add(self, source_row, item_kind, fields=(), **item):
        head = {**self.base, "source_row": source_row, "item_kind": item_kind, **item}
        self.rows.append({**head, "field_source": "item"})
        for field_source, name, value in fields:
            self.rows.append({**head, "field_source": field_source, "field_name": name, "field_value": value})


def _tasks(items, tasks):
    """JSON (UI or snapshot): per task its annotations, then its predictions."""
    position = 0
    for task in tasks:
        if not isinstance(task, dict):
            continue
        task_id = _text(task.get("id"))
        data = [("data", str(key), _text(value)) for key, value in (task.get("data") or {}).items()]
        for annotation in task.get("annotations") or []:
            position += 1
            common = {"task_id": task_id, "annotator_id": _user(annotation.get("completed_by")),
                      "updated_at": _text(annotation.get("updated_at"))}
            if annotation.get("was_cancelled") or annotation.get("skipped"):
                items.add(position, "cancelled", **common)
                continue
            controls = [("control", name, value) for name, value in _controls(annotation.get("result")).items()]
            items.add(position, "annotation", data + controls, **common)
        for prediction in task.get("predictions") or []:
            position += 1
            if not isinstance(prediction, dict):  # the UI's JSON lists the predictions by id only
                items.add(position, "prediction_without_result", task_id=task_id)
                continue
            controls = [("control", name, value) for name, value in _controls(prediction.get("result")).items()]
            items.add(position, "prediction", data + controls, task_id=task_id,
                      annotator_id=_text(prediction.get("model_version")),
                      updated_at=_text(prediction.get("updated_at")))


def _flat(items, records):
    """JSON_MIN objects or CSV records (dicts of column -> text), one annotation each; a record with
    an empty `annotation_id` is a task nobody annotated (an export of all tasks), not an annotation."""
    for position, (record, malformed) in enumerate(records, start=1):
        if malformed is not None:
            items.add(position, "annotation", malformed_record=malformed)
            continue
        if "annotation_id" in record and _text(record["annotation_id"]) is None:
            items.add(position, "unannotated", task_id=_text(record.get("id")))
            continue
        fields = []
        for name, value in record.items():
            if name in ITEM_COLUMNS:
                continue
            if name.startswith(DATA_PREFIX):
                fields.append(("data", name[len(DATA_PREFIX):], _text(value)))
            else:
                fields.append(("column", name, _text(value)))
        items.add(position, "annotation", fields, task_id=_text(record.get("id")),
                  annotator_id=_user(record.get("annotator")), updated_at=_text(record.get("updated_at")))


def _delimiter(header):
    counts = {}
    for delimiter in DELIMITERS:
        count, quoted = 0, False
        for char in header:
            if char == '"':
                quoted = not quoted
            elif char == delimiter and not quoted:
                count += 1
        counts[delimiter] = count
    return max(DELIMITERS, key=lambda d: counts[d])


def _csv_records(text, file_name):
    header = text.split("\n", 1)[0]
    delimiter = _delimiter(header)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, quotechar='"', doublequote=True,
                        strict=False)
    try:
        names = next(reader)
    except StopIteration:
        return
    names = [name.strip() for name in names]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise LabelStudioExportError(f"{file_name}: the column '{duplicated[0]}' appears twice; the build cannot"
                                     " tell which holds the values")
    for fields in reader:
        if not fields:
            continue
        if len(fields) != len(names):
            yield None, delimiter.join(fields)
        else:
            yield dict(zip(names, fields)), None


def _check_content(path):
    """Stops on an export whose content is not the JSON or CSV text its name says, naming its real
    format: an Excel workbook or another ZIP archive, a Parquet or gzip file, or other binary data (a
    NUL byte in its first 64 KB, which text holds only as UTF-16, read by its byte-order mark)."""
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    again = "export it from Label Studio again as JSON, JSON_MIN, CSV or TSV"
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"xl/" in head):
        problem = "an Excel workbook (XLSX), not JSON or CSV: save it as CSV (File > Save as > CSV UTF-8), or " + again
    elif head.startswith(b"PK\x03\x04"):
        problem = "a ZIP archive, not JSON or CSV: unpack it and put the export it holds in the folder instead"
    elif head.startswith(b"PAR1"):
        problem = "a Parquet file, not JSON or CSV: " + again
    elif head.startswith(b"\x1f\x8b"):
        problem = "gzip-compressed: unpack it and put the unpacked file in the folder instead"
    elif b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        problem = f"binary data, not JSON or CSV text (a NUL byte at byte {head.index(0) + 1}): " + again
    else:
        return
    raise LabelStudioExportError(f"{name} is {problem}")


def _read_file(path, family, file_index):
    file_name = os.path.basename(path)
    items = Items(family, file_index, file_name)
    _check_content(path)
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            text = handle.read()
    except UnicodeDecodeError as error:
        raise LabelStudioExportError(f"{file_name}: not UTF-8 ({error}); Label Studio writes its exports in UTF-8:"
                                     " export it again") from None
    if text.lstrip()[:1] in ("[", "{"):
        try:
            content = json.loads(text)
        except json.JSONDecodeError as error:
            raise LabelStudioExportError(f"{file_name}: not valid JSON ({error})") from None
        if not isinstance(content, list):
            raise LabelStudioExportError(f"{file_name}: a Label Studio JSON export is a list of tasks (JSON) or of"
                                         " annotations (JSON_MIN); this file holds one object")
        if any(isinstance(task, dict) and ("annotations" in task or "predictions" in task) for task in content):
            _tasks(items, content)
        else:
            _flat(items, ((record, None) if isinstance(record, dict) else ({}, _compact(record))
                          for record in content))
    else:
        _flat(items, _csv_records(text, file_name))
    return items.rows


def label_studio_families(setting):
    """The families the var input_format (handed over as JSON) reads as `label_studio`: every
    family for `label_studio`, and for a mapping per family those it maps to it."""
    try:
        value = json.loads(setting) if setting else "native"
    except ValueError:
        value = setting
    if isinstance(value, dict):
        return tuple(name for name in FAMILIES if value.get(name) == "label_studio")
    return FAMILIES if value == "label_studio" else ()


def _find_files(folder, families=FAMILIES):
    if not os.path.isdir(folder):
        raise LabelStudioExportError(f"input_path '{folder}' is not a folder (var input_path)")
    found = []
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        lower = entry.lower()
        family = next((name for name in families if lower.startswith(name)), None)
        if entry.startswith(".") or family is None or not os.path.isfile(path):
            continue
        if not lower.endswith(ENDINGS):
            raise LabelStudioExportError(
                f"{entry}: its name makes it a {family} export, but ragmart reads Label Studio's JSON, JSON_MIN,"
                " CSV and TSV exports (.json, .csv, .tsv, .txt); move it out of the folder so that none of its"
                " rows is left out unnoticed")
        found.append((path, family))
    if not found:
        raise LabelStudioExportError(
            f"input_path '{folder}' holds no Label Studio export: name each export like its task family"
            f" ({', '.join(name + '*' for name in families)})")
    return found


def model(dbt, session):
    dbt.config(materialized="table")
    folder = _setting(dbt.config.get("input_path"))
    families = label_studio_families(dbt.config.get("input_format"))
    if folder is None:
        raise LabelStudioExportError("input_format 'label_studio' needs the var input_path, the folder of the exports")
    folder = os.path.abspath(folder)
    work_dir = tempfile.mkdtemp(prefix="ragmart_label_studio_")
    path = os.path.join(work_dir, "export.csv")
    try:
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(COLUMNS)
            for file_index, (file_path, family) in enumerate(_find_files(folder, families), start=1):
                for row in _read_file(file_path, family, file_index):
                    writer.writerow(["" if row.get(c) is None else row[c] for c in COLUMNS])
        types = ", ".join(f"'{c}': '{'BIGINT' if c in ('file_index', 'source_row') else 'VARCHAR'}'" for c in COLUMNS)
        session.execute(
            f"create or replace temp table ragmart_label_studio_export as select * from read_csv('{path}',"
            " header = true, auto_detect = false, columns = {" + types + "}, quote = '\"', escape = '\"',"
            " max_line_size = 67108864)"
        ).fetchall()
    finally:
        os.remove(path)
        os.rmdir(work_dir)
    return session.sql("select * from ragmart_label_studio_export")
