"""The native 0005 files that hold the same information as a Phoenix database.

Written from docs/rules.md ("Arize Phoenix") only, never from the staging SQL: it reads
Phoenix's SQLite database with Python's sqlite3 and writes `retrieval_annotations.csv`,
`grounding_annotations.csv`, `generation_annotations.csv`, `annotators.csv` and `records.csv`,
so that a native build of them gives the marts a Phoenix build must give.

* The record is the trace (its 32-digit id); retrieval rows come from document annotations (one
  row per trace, span, document and annotator; chunk = the span's document at that position, rank
  = position + 1), grounding and generation rows from span and trace annotations (one row per
  trace and annotator); a label's latest annotation (by update, then id) counts when an annotator
  gave it more than once in one unit.
* The annotator is the identifier, else the metadata's annotator_id; the kind: the annotators
  file when it lists the id, else Phoenix's kind (so the written annotators.csv lists both).
* The value: a non-empty label as given; else the score: 1 -> `1`, 0 -> `0`, or with a
  threshold `1` at or above it and `0` below; any other score as given (Python's repr of the
  float, as Phoenix gives it).
* created_at: the latest update of the row's annotations; notes: the first non-empty
  explanation in label order; language: the root span's metadata; context_set: the documents of
  the trace's spans in position order joined with ` [SEP] `.
"""

from __future__ import annotations

import csv
import json
import sqlite3
from collections import defaultdict
from pathlib import Path

from export_schema import COLUMNS, FILES, LABELS, write_csv

FAMILIES = {label: family for family, labels in LABELS.items() for label in labels} | {"can_answer": "retrieval"}


def _json(value):
    if value is None or isinstance(value, (dict, list)):
        return value
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return None


def _blank(value) -> bool:
    return value is None or not str(value).strip()


def _iso(stamp: str) -> str:
    return stamp.strip().replace(" ", "T", 1) + "Z"


def _value(label, score, threshold: float | None) -> str | None:
    if not _blank(label):
        return label
    if score is None:
        return None
    if threshold is not None:
        return "1" if score >= threshold else "0"
    return {1.0: "1", 0.0: "0"}.get(float(score), repr(float(score)))


def native_files(database: Path, out: Path, *, project: str, annotators_file: Path | None = None,
                 records_file: Path | None = None, label_names: dict | None = None,
                 score_threshold: float | None = None) -> Path:
    """Write the native files of `project` of the Phoenix database into `out`; returns `out`."""
    label_names = label_names or {}
    con = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    (project_id,) = con.execute("select id from projects where name = ?", (project,)).fetchone()
    spans, documents, roots = {}, {}, {}
    for trace, span, parent, kind, attributes in con.execute(
            "select t.trace_id, s.span_id, s.parent_id, s.span_kind, s.attributes from spans s"
            " join traces t on s.trace_rowid = t.id where t.project_rowid = ?", (project_id,)):
        attributes = _json(attributes) or {}
        metadata = _json(attributes.get("metadata"))
        spans[span] = {"trace": trace, "kind": kind, "input": (attributes.get("input") or {}).get("value"),
                       "output": (attributes.get("output") or {}).get("value"),
                       "language": metadata.get("language") if isinstance(metadata, dict) else None}
        for position, item in enumerate((attributes.get("retrieval") or {}).get("documents") or []):
            document = item["document"]
            meta = _json(document.get("metadata"))
            documents[(span, position)] = {"id": document.get("id"), "content": document.get("content"),
                                           "doc_id": meta.get("doc_id") if isinstance(meta, dict) else None}
        if parent is None and (trace not in roots or span < roots[trace]):
            roots[trace] = span
    context = {}
    for (span, _position), document in sorted(documents.items()):
        context.setdefault(spans[span]["trace"], []).append(document["content"])

    # (family, unit, annotator) -> label -> (updated_at, table, id, value, explanation, source row)
    rows: dict[tuple, dict] = defaultdict(dict)
    kinds: dict[str, set] = defaultdict(set)
    queries = {
        1: "select a.id, t.trace_id, s.span_id, a.document_position, a.name, a.label, a.score, a.explanation,"
           " a.annotator_kind, a.identifier, a.metadata, a.updated_at from document_annotations a join spans s"
           " on a.span_rowid = s.id join traces t on s.trace_rowid = t.id where t.project_rowid = ?",
        2: "select a.id, t.trace_id, s.span_id, null, a.name, a.label, a.score, a.explanation, a.annotator_kind,"
           " a.identifier, a.metadata, a.updated_at from span_annotations a join spans s on a.span_rowid = s.id"
           " join traces t on s.trace_rowid = t.id where t.project_rowid = ?",
        3: "select a.id, t.trace_id, null, null, a.name, a.label, a.score, a.explanation, a.annotator_kind,"
           " a.identifier, a.metadata, a.updated_at from trace_annotations a join traces t on a.trace_rowid = t.id"
           " where t.project_rowid = ?",
    }
    for table, query in queries.items():
        for (annotation, trace, span, position, name, label, score, explanation, kind, identifier, metadata,
             updated) in con.execute(query, (project_id,)):
            name = label_names.get(name.strip(), name.strip())
            family = FAMILIES.get(name)
            if family is None or (family == "retrieval") != (table == 1):
                continue
            meta = _json(metadata)
            annotator = identifier.strip() if not _blank(identifier) else (
                str(meta["annotator_id"]).strip() if isinstance(meta, dict) and not _blank(meta.get("annotator_id"))
                else None)
            if annotator is not None:
                kinds[annotator].add(kind.strip().upper())
            unit = (trace, span, position) if table == 1 else (trace,)
            entry = (_iso(updated), table, annotation, _value(label, score, score_threshold), explanation)
            previous = rows[(family, unit, annotator)].get(name)
            if previous is None or entry[:3] > previous[:3]:
                rows[(family, unit, annotator)][name] = entry
    con.close()

    out.mkdir(parents=True, exist_ok=True)
    written = {family: [] for family in LABELS}
    for (family, unit, annotator), labels in rows.items():
        trace = unit[0]
        root = spans.get(roots.get(trace), {})
        order = LABELS[family] + (["can_answer"] if family == "retrieval" else [])
        notes = next((labels[name][4] for name in order if name in labels and not _blank(labels[name][4])), None)
        row = {"record_uuid": trace, "annotator_id": annotator, "task": family, "language": root.get("language"),
               "created_at": max(entry[0] for entry in labels.values()), "notes": notes,
               **{name: labels[name][3] for name in order if name in labels}}
        if family == "retrieval":
            span, position = unit[1], unit[2]
            document = documents.get((span, position), {})
            row |= {"input_query": root.get("input"), "generated_search_query": spans.get(span, {}).get("input"),
                    "chunk": document.get("content"), "chunk_id": document.get("id"),
                    "doc_id": document.get("doc_id"), "chunk_rank": str(position + 1)}
        else:
            row |= {"query": root.get("input"), "answer": root.get("output")}
            if family == "grounding":
                row["context_set"] = " [SEP] ".join(context.get(trace, [])) or None
        written[family].append(row)
    for family, family_rows in written.items():
        write_csv(out / FILES[family], COLUMNS[family], family_rows)

    listed = []
    if annotators_file is not None:
        with open(annotators_file, newline="", encoding="utf-8-sig") as fh:
            listed = list(csv.DictReader(fh))
    ids = {r["annotator_id"].strip() for r in listed}
    listed += [{"annotator_id": annotator, "annotator_kind": kind, "role": "annotator", "display_name": ""}
               for annotator, found in sorted(kinds.items()) if annotator not in ids for kind in sorted(found)]
    write_csv(out / FILES["annotators"], COLUMNS["annotators"], listed)
    if records_file is not None:
        with open(records_file, newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            write_csv(out / FILES["records"], reader.fieldnames, list(reader))
    return out
