"""The native 0005 files that hold the same information as an MLflow 3 tracking store.

Written from the MLflow input rules (input_format: mlflow) only, never from the staging SQL: it reads
MLflow's SQLite store with Python's sqlite3 and writes `retrieval_annotations.csv`,
`grounding_annotations.csv`, `generation_annotations.csv`, `annotators.csv` and `records.csv`, so
that a native build of them gives the marts an MLflow build must give.

* The experiment: the one named (by name or id, as text); none named: the one experiment that holds
  feedback (several or none stop it).
* The record is the trace's client_request_id when it is not empty, else the trace id (`tr-...`).
  Its run: the records file's run_id when given, else the name of the logged model of the trace
  metadata `mlflow.modelId`, else the name of the run of `mlflow.sourceRun`; its language and
  query_id: the trace metadata keys `language` and `query_id` (the records file's query_id wins).
* A span's text: its mlflow.spanInputs / mlflow.spanOutputs JSON value: a string as it is, an object
  of one member whose value is a string that string, anything else the JSON text as stored. The root
  span has no parent (several: the smallest span_id).
* Documents: the list a RETRIEVER span outputs, {page_content, metadata, id}; chunk_index = position
  (chunk_rank = position + 1), chunk_id = id, doc_id = metadata.doc_id. context_set: every RETRIEVER
  span's page_content by span start, span_id, position, joined with ` [SEP] `.
* Assessments: valid feedback only (expectations and invalid, overridden feedback are not read). A
  label (the name through label_names, else the name; names of no label are skipped) of the retrieval
  family on a RETRIEVER span with a whole-number metadata chunk_index is a retrieval label of the unit
  (trace, span, chunk_index); a grounding or generation label with no span or on the root span one of
  the trace; anything else is skipped. Of several for one label, target, source_type and source_id,
  the latest last_update_time counts (then the larger assessment_id).
* The value: JSON true/false -> `true`/`false`; a number exactly 1 or 0 -> `1`/`0` (with a threshold
  any number: `1` at or above it, `0` below); another number its JSON text; a string as given; null,
  or an error instead of a value, empty; a list or an object its JSON text.
* The annotator: the trimmed source_id (empty: none); the kind: the annotators file when it lists the
  id, else HUMAN -> HUMAN, LLM_JUDGE -> LLM, CODE -> CODE (the written annotators.csv lists both,
  unlisted ids in role annotator).
* One row per unit and annotator: created_at = the latest last_update_time of its feedback (ISO 8601
  UTC with milliseconds and `Z`), notes = the first non-empty rationale in label order.

`seed_differences` compares such native files with the sample's seeds the MLflow fixtures were made
from (dev/fixtures/make_mlflow_fixtures.py): the label values per record, annotator and unit after the
last resubmission.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sqlite3
from collections import defaultdict
from pathlib import Path

from export_schema import COLUMNS, FILES, LABELS, write_csv

FAMILIES = {label: family for family, labels in LABELS.items() for label in labels} | {"can_answer": "retrieval"}
ORDER = {family: LABELS[family] + (["can_answer"] if family == "retrieval" else []) for family in LABELS}
KINDS = {"HUMAN": "HUMAN", "LLM_JUDGE": "LLM", "CODE": "CODE"}
SEP = " [SEP] "


def _json(text):
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _blank(value) -> bool:
    return value is None or not str(value).strip()


def _iso(milliseconds: int) -> str:
    moment = dt.datetime.fromtimestamp(milliseconds / 1000, dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _text(stored: str | None) -> str | None:
    """A span's input or output text from its JSON-encoded attribute."""
    if stored is None:
        return None
    value = _json(stored)
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), str):
        return next(iter(value.values()))
    return stored


def _whole(value) -> int | None:
    """chunk_index as a whole number: a JSON number or numeric text; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, (int, float)) and float(value).is_integer():
        return int(value)
    return None


def _value(stored: str | None, error: str | None, threshold: float | None) -> str | None:
    if not _blank(error):
        return None
    value = _json(stored)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if threshold is not None:
            return "1" if value >= threshold else "0"
        return ("1" if value == 1 else "0") if value in (0, 1) else stored.strip()
    if isinstance(value, str):
        return value
    return stored


def _experiment(con: sqlite3.Connection, experiment: str | None) -> str:
    if experiment is not None:
        found = con.execute("select experiment_id from experiments where cast(experiment_id as text) = ? or name = ?",
                            (str(experiment), str(experiment))).fetchall()
        if len(found) != 1:
            raise ValueError(f"no one experiment named {experiment!r}: {found}")
        return str(found[0][0])
    found = con.execute(
        "select distinct e.experiment_id, e.name from experiments e join trace_info t on t.experiment_id = e.experiment_id"
        " join assessments a on a.trace_id = t.request_id where a.assessment_type = 'feedback' order by 1").fetchall()
    if len(found) != 1:
        raise ValueError(f"not one experiment with feedback: {found}")
    return str(found[0][0])


def _read_csv(path: Path | None) -> list[dict[str, str]]:
    if path is None:
        return []
    with open(path, newline="", encoding="utf-8-sig") as fh:
        return list(csv.DictReader(fh))


def native_files(database: Path, out: Path, *, experiment: str | None = None, annotators_file: Path | None = None,
                 records_file: Path | None = None, label_names: dict | None = None,
                 score_threshold: float | None = None) -> Path:
    """Write the native files of one experiment of the MLflow SQLite store into `out`; returns `out`."""
    label_names = label_names or {}
    con = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    experiment_id = _experiment(con, experiment)

    traces = {}  # trace id -> record, metadata
    for trace_id, client_request_id in con.execute(
            "select request_id, client_request_id from trace_info where cast(experiment_id as text) = ?"
            " order by timestamp_ms, request_id", (experiment_id,)):
        traces[trace_id] = {"record": client_request_id if not _blank(client_request_id) else trace_id, "metadata": {}}
    for trace_id, key, value in con.execute("select request_id, key, value from trace_request_metadata"):
        if trace_id in traces:
            traces[trace_id]["metadata"][key] = value
    models = dict(con.execute("select model_id, name from logged_models"))
    runs = dict(con.execute("select run_uuid, name from runs"))

    spans, roots, documents, retrievers = {}, {}, {}, defaultdict(list)
    for trace_id, span_id, parent, kind, start, content in con.execute(
            "select trace_id, span_id, parent_span_id, type, start_time_unix_nano, content from spans"):
        if trace_id not in traces:
            continue
        attributes = (_json(content) or {}).get("attributes") or {}
        spans[span_id] = {"trace": trace_id, "kind": kind, "input": _text(attributes.get("mlflow.spanInputs")),
                          "output": _text(attributes.get("mlflow.spanOutputs"))}
        if _blank(parent) and (trace_id not in roots or span_id < roots[trace_id]):
            roots[trace_id] = span_id
        if kind == "RETRIEVER":
            items = _json(attributes.get("mlflow.spanOutputs"))
            for index, item in enumerate(items if isinstance(items, list) else []):
                item = item if isinstance(item, dict) else {}
                meta = item.get("metadata") if isinstance(item.get("metadata"), dict) else {}
                documents[(span_id, index)] = {"chunk": item.get("page_content"), "chunk_id": item.get("id"),
                                               "doc_id": meta.get("doc_id")}
                retrievers[trace_id].append((start, span_id, index, item.get("page_content")))
    context = {trace_id: SEP.join(str(text) for *_, text in sorted(items, key=lambda i: i[:3]) if text is not None)
               for trace_id, items in retrievers.items()}

    # (label, target, source_type, source_id) -> the latest valid feedback
    latest: dict[tuple, tuple] = {}
    for (assessment_id, trace_id, name, value, error, updated, source_type, source_id, span_id, rationale,
         metadata) in con.execute(
            "select assessment_id, trace_id, name, value, error, last_updated_timestamp, source_type, source_id,"
            " span_id, rationale, assessment_metadata from assessments where assessment_type = 'feedback' and valid"):
        if trace_id not in traces:
            continue
        label = label_names.get(name, name)
        family = FAMILIES.get(label)
        if family is None:
            continue
        if family == "retrieval":
            chunk_index = _whole((_json(metadata) or {}).get("chunk_index")) if isinstance(_json(metadata), dict) else None
            if _blank(span_id) or spans.get(span_id, {}).get("kind") != "RETRIEVER" or chunk_index is None:
                continue
            unit = (trace_id, span_id, chunk_index)
        else:
            if not _blank(span_id) and span_id != roots.get(trace_id):
                continue
            unit = (trace_id,)
        entry = (updated, assessment_id, family, unit, label, _value(value, error, score_threshold), rationale,
                 source_type, source_id)
        key = (label, unit, source_type, source_id)
        if key not in latest or entry[:2] > latest[key][:2]:
            latest[key] = entry
    con.close()

    # (family, unit, annotator) -> label -> entry; kinds of the annotators MLflow names
    rows: dict[tuple, dict] = defaultdict(dict)
    kinds: dict[str, set] = defaultdict(set)
    for entry in latest.values():
        _, _, family, unit, label, _, _, source_type, source_id = entry
        annotator = source_id.strip() if not _blank(source_id) else None
        if annotator is not None and source_type in KINDS:
            kinds[annotator].add(KINDS[source_type])
        previous = rows[(family, unit, annotator)].get(label)
        if previous is None or entry[:2] > previous[:2]:
            rows[(family, unit, annotator)][label] = entry

    records_input = {row["record_uuid"].strip(): row for row in _read_csv(records_file)}
    out.mkdir(parents=True, exist_ok=True)
    written = {family: [] for family in LABELS}
    for (family, unit, annotator), labels in sorted(rows.items(), key=lambda item: min(e[:2] for e in item[1].values())):
        trace_id = unit[0]
        root = spans.get(roots.get(trace_id), {})
        notes = next((labels[name][6] for name in ORDER[family] if name in labels and not _blank(labels[name][6])), None)
        row = {"record_uuid": traces[trace_id]["record"], "annotator_id": annotator, "task": family,
               "language": traces[trace_id]["metadata"].get("language"),
               "created_at": _iso(max(entry[0] for entry in labels.values())), "notes": notes,
               **{name: labels[name][5] for name in ORDER[family] if name in labels}}
        if family == "retrieval":
            span_id, chunk_index = unit[1], unit[2]
            document = documents.get((span_id, chunk_index), {})
            row |= {"input_query": root.get("input"), "generated_search_query": spans[span_id]["input"],
                    "chunk": document.get("chunk"), "chunk_id": document.get("chunk_id"),
                    "doc_id": document.get("doc_id"), "chunk_rank": str(chunk_index + 1)}
        else:
            row |= {"query": root.get("input"), "answer": root.get("output")}
            if family == "grounding":
                row["context_set"] = context.get(trace_id) or None
        written[family].append(row)
    for family, family_rows in written.items():
        write_csv(out / FILES[family], COLUMNS[family], family_rows)

    listed = _read_csv(annotators_file)
    ids = {row["annotator_id"].strip() for row in listed}
    listed += [{"annotator_id": annotator, "annotator_kind": kind, "role": "annotator", "display_name": ""}
               for annotator, found in sorted(kinds.items()) if annotator not in ids for kind in sorted(found)]
    write_csv(out / FILES["annotators"], COLUMNS["annotators"], listed)

    header = list(dict.fromkeys([*COLUMNS["records"], "run_id", "query_id",
                                 *(next(iter(records_input.values())).keys() if records_input else [])]))
    records = []
    for trace in traces.values():
        given = records_input.get(trace["record"], {})
        metadata = trace["metadata"]
        run = (given.get("run_id") or "").strip() or models.get(metadata.get("mlflow.modelId")) or \
            runs.get(metadata.get("mlflow.sourceRun"))
        query_id = (given.get("query_id") or "").strip() or metadata.get("query_id")
        records.append({**{column: given.get(column) for column in header}, "record_uuid": trace["record"],
                        "run_id": run, "query_id": query_id})
    seen = {row["record_uuid"] for row in records}
    records += [{column: row.get(column) for column in header} for key, row in records_input.items() if key not in seen]
    write_csv(out / FILES["records"], header, records)
    return out


# ------------------------------------------------------------------------------------------ the seeds


def seed_differences(native: Path, seeds: Path, records: dict[str, str], labels: set[str] | None = None
                     ) -> dict[str, list]:
    """Compare the native files in `native` with the seeds they were made from: `records` maps each
    native record id to the sample's record_uuid. Per (family, record, annotator, chunk_id) the seeds'
    value of each label is that of the last row (in created_at order, rows whose created_at does not
    parse first, then file order) that gives it; values compare as read (booleans as 1/0, anything else
    as its trimmed text). Returns {"differences": [...], "native_only": [...], "seed_only": [...]}:
    units or labels that differ, units only the native files hold, units only the seeds hold. `labels`:
    the labels compared (default: every label of the task spec), e.g. those the fixture was sent with
    when the seeds have a label added since."""
    from export_data import read_boolean, read_timestamp

    def read(cell) -> object:
        text = (cell or "").strip()
        parsed = read_boolean(text)
        return text if parsed is None else parsed

    def rows_of(folder: Path, family: str) -> list[dict[str, str]]:
        with open(folder / FILES[family], newline="", encoding="utf-8-sig") as fh:
            return list(csv.DictReader(fh))

    compared = labels
    wanted = set(records.values())
    expected: dict[tuple, dict] = {}
    ordered = []
    for family in LABELS:
        for line, row in enumerate(rows_of(seeds, family), start=2):
            if row["record_uuid"].strip() in wanted:
                moment = read_timestamp(row["created_at"])
                ordered.append(((moment is not None, moment or dt.datetime.min.replace(tzinfo=dt.UTC),
                                 list(LABELS).index(family), line), family, row))
    for _, family, row in sorted(ordered, key=lambda item: item[0]):
        unit = (family, row["record_uuid"].strip(), row["annotator_id"].strip(),
                row["chunk_id"].strip() if family == "retrieval" else "")
        labels = expected.setdefault(unit, {})
        for name in ORDER[family]:
            if (row.get(name) or "").strip() and (compared is None or name in compared):
                labels[name] = read(row[name])
    found: dict[tuple, dict] = {}
    for family in LABELS:
        for row in rows_of(native, family):
            unit = (family, records.get(row["record_uuid"], row["record_uuid"]), row["annotator_id"].strip(),
                    row["chunk_id"].strip() if family == "retrieval" else "")
            found[unit] = {name: read(row[name]) for name in ORDER[family]
                           if (row.get(name) or "").strip() and (compared is None or name in compared)}
    return {
        "differences": [(unit, expected[unit], found[unit]) for unit in sorted(set(expected) & set(found))
                        if expected[unit] != found[unit]],
        "native_only": sorted(set(found) - set(expected)),
        "seed_only": sorted(set(expected) - set(found)),
    }
