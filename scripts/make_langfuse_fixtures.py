#!/usr/bin/env python3
"""Write the Langfuse fixtures: blob-storage exports of a small project, from Langfuse's documentation.

No Langfuse server can run here (it needs ClickHouse, Redis and object storage), so this script
writes the files of Langfuse's scheduled blob-storage export itself, from Langfuse's documented
file organization and field reference:

- "Export to blob storage", https://langfuse.com/docs/api-and-data-platform/features/export-to-blob-storage
  (langfuse/langfuse-docs: content/docs/api-and-data-platform/features/export-to-blob-storage.mdx):
  the layout `{prefix}{project-id}/{observations_v2|scores|traces|observations}/{timestamp}.{parquet|json|
  jsonl|csv}[.gz]` and `manifests/{timestamp}.json`; a run is complete only when its manifest exists,
  written after every data file; `files[].key` holds each file's full object key; adjacent windows
  share an inclusive boundary, so records are deduplicated by id; `window.minTimestamp` and
  `maxTimestamp`, `exportSource`, `tables`; Parquet is never gzip-compressed.
- "Blob Storage Export Field Reference", https://langfuse.com/docs/api-and-data-platform/features/blob-storage-export-fields
  (content/docs/api-and-data-platform/features/blob-storage-export-fields.mdx): the fields of
  `observations_v2/` (enriched: trace context such as `release` on every observation;
  `parent_observation_id` an empty string for a root observation; `input`, `output` strings, plain
  text or JSON), `scores/` (`id`, `timestamp`, `project_id`, `environment`, `trace_id` (null for a
  session score), `observation_id`, `session_id`, `dataset_run_id`, `name`, `value`, `source`
  `API`/`ANNOTATION`/`EVAL`, `comment`, `data_type` `NUMERIC`/`BOOLEAN`/`CATEGORICAL`/`TEXT`,
  `string_value`, `created_at`, `updated_at`), legacy `traces/` and `observations/`
  (`parent_observation_id` null for a root); timestamps `YYYY-MM-DD HH:MM:SS.ffffff` in UTC; in
  CSV every value is text, null an empty field, objects and arrays JSON text, booleans true/false.
- "Export score metadata and provenance to blob storage", changelog of 2026-10-22,
  https://langfuse.com/changelog/2026-10-22-blob-storage-score-field-groups: the opt-in score
  field groups `score_provenance` (`author_user_id`, `config_id`, `queue_id`, `evaluator_id`,
  `evaluation_rule_id`, `execution_trace_id`) and `score_metadata` (`metadata`).

What the documents leave open is chosen here and listed in docs/rules.md ("Langfuse", what could
not be verified): the manifest's field names besides `files[].key` (`table`, `format`,
`compression`, `sizeBytes`, `rowCount`), the exact `{timestamp}` of the file names, the JSON
file type as one array of rows, the Parquet column types (DuckDB's from the JSON rows: timestamps
as TIMESTAMP, objects as structs), a BOOLEAN score's `string_value` (null here).

The records: queries of the project's sample (seeds/*.csv) answered in both runs (bot-v1, bot-v2),
chosen as the other fixture scripts choose them (scripts/fixture_sample.py): LLM and CODE judges,
both languages, the adjudicator, a value that is no boolean, a resubmission. Each record is a trace
(its id the record_uuid's 32 hex digits, its `release` the run) with a root observation (input the
query, output the answer, metadata.language) and RETRIEVER observations whose outputs list the
chunks in rank order. Each grounding and generation row is a set of scores of its annotator on the
trace, one per label with a value: HUMAN rows as ANNOTATION scores (CATEGORICAL, the sample's own
spelling, `author_user_id` and `metadata.annotator_id`), LLM rows as EVAL scores (NUMERIC 1/0,
`evaluator_id`), CODE rows as API scores (BOOLEAN, `metadata.annotator_id`); a value that is no
boolean is a CATEGORICAL score of that text; a resubmission updates the scores (same ids, a later
`updated_at`, a later window); notes are a TEXT score `notes`. Besides: a score name of no label
(`toxicity`), a session score, one label score on an observation instead of the trace, one
ANNOTATION score without provenance (its annotator from the metadata alone).

The scores are spread over three export windows (an hour apart) whose boundary scores are in both
adjacent windows, each window listed by its manifest; observations (traces) in the first window
and the root observations of two traces again in the second.

Written into --out (default tests/python/fixtures/langfuse), one folder per export shape, each
with `retrieval_annotations.csv` (the sample's retrieval rows of the records, native: Langfuse
cannot hold a label per chunk), `annotators.csv` (the sample's adjudicator: Langfuse has no roles)
and `records.csv` (record_uuid, task_type, query_id; no run: it comes from the release) beside the
project folder:
- enriched_jsonl: observations_v2/ and scores/ as JSONL; the root inputs JSON objects
  `{"question": ...}` (read with the var langfuse_input_path: question); plus a scores file of a
  run without manifest (an update that must not be read);
- enriched_parquet: the same as Parquet (inputs JSON strings);
- enriched_csv_gz: the same as gzip-compressed CSV;
- enriched_json: observations as JSON, scores as gzip-compressed JSON;
- legacy_csv: traces/, observations/ and scores/ as CSV, scores without the provenance columns
  (the export of a project without those field groups: EVAL scores are the one judge
  `langfuse-eval`), and Langfuse Cloud's DEPRECATION_NOTICE.txt.
Standard library and DuckDB (for Parquet) only: `python scripts/make_langfuse_fixtures.py`.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import hashlib
import io
import json
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

import duckdb
from export_data import read_boolean, read_timestamp  # scripts/, beside this file
from export_schema import COLUMNS, FILES, write_csv
from fixture_sample import SampleRecord, annotated_rows, chosen_sample, run

DEFAULT_OUT = "tests/python/fixtures/langfuse"
RUNS = ("bot-v1", "bot-v2")
QUERIES = 4  # two records each: 8 traces
PROJECT_ID = "cmragmartsample0000000001"
PREFIX = "langfuse-exports/"
ADJUDICATOR = "m.koenig"
WINDOW_START = dt.datetime(2026, 11, 20, 9, 0, 0)
SEP = " [SEP] "
SHAPES = {
    "enriched_jsonl": {"mode": "enriched", "observations": "jsonl", "scores": "jsonl", "input": "object"},
    "enriched_parquet": {"mode": "enriched", "observations": "parquet", "scores": "parquet"},
    "enriched_csv_gz": {"mode": "enriched", "observations": "csv.gz", "scores": "csv.gz"},
    "enriched_json": {"mode": "enriched", "observations": "json", "scores": "json.gz"},
    "legacy_csv": {"mode": "legacy", "observations": "csv", "scores": "csv", "provenance": False},
}
PROVENANCE = ("author_user_id", "config_id", "queue_id", "evaluator_id", "evaluation_rule_id", "execution_trace_id")


def features(record: SampleRecord, annotators: dict[str, dict[str, str]]) -> set[str]:
    found: set[str] = set()
    seen: set[tuple] = set()
    for family, labels, row, annotator_id, kind in annotated_rows(record, annotators):
        if family == "retrieval":
            continue
        found.add("kind:" + kind)
        if annotator_id == ADJUDICATOR:
            found.add("adjudicator")
        if row["language"].strip():
            found.add("language:" + row["language"].strip())
        if any(row[label].strip() and read_boolean(row[label]) is None for label in labels):
            found.add("invalid_value")
        if (family, annotator_id) in seen:
            found.add("resubmission")
        seen.add((family, annotator_id))
    return found


WANTED = {"kind:LLM", "kind:CODE", "kind:HUMAN", "language:de", "language:en", "adjudicator", "invalid_value",
          "resubmission"}


def _id(*parts: str) -> str:
    return str(uuid.UUID(hashlib.md5(":".join(parts).encode()).hexdigest()))


def _span_id(*parts: str) -> str:
    return hashlib.md5(":".join(parts).encode()).hexdigest()[:16]


def _time(value: dt.datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def _row_time(row: dict[str, str], fallback: dt.datetime) -> dt.datetime:
    parsed = read_timestamp(row["created_at"])
    if parsed is None:
        return fallback
    return parsed.astimezone(dt.UTC).replace(tzinfo=None)


# ------------------------------------------------------------------------------------ the content


def observations(records: list[SampleRecord], input_shape: str) -> tuple[list[dict], list[dict]]:
    """The traces (legacy) and the observations (one root, RETRIEVER children) of the records."""
    traces, spans = [], []
    for index, record in enumerate(records):
        trace_id = record.trace_id
        start = WINDOW_START + dt.timedelta(minutes=index)
        query, answer, language = record.query, record.answer, record.language
        trace_input = json.dumps({"question": query}, ensure_ascii=False) if input_shape == "object" else (
            query if index == 0 else json.dumps(query, ensure_ascii=False))  # the first: plain text, no JSON
        trace_output = answer if index == 1 else json.dumps(answer, ensure_ascii=False)
        metadata = {"language": language} if language else {}
        common = {"project_id": PROJECT_ID, "environment": "production", "created_at": _time(start),
                  "updated_at": _time(start + dt.timedelta(seconds=5))}
        traces.append({"id": trace_id, "timestamp": _time(start), "name": "rag-answer", **common,
                       "metadata": metadata, "user_id": None, "session_id": f"session-{index // 2}",
                       "release": record.run_id, "version": "2026.11", "public": False, "bookmarked": False,
                       "tags": ["ragmart"], "input": trace_input, "output": trace_output})
        root = _span_id(trace_id, "root")
        documents = record.documents()
        spans.append({"id": root, "trace_id": trace_id, "type": "CHAIN", "parent_observation_id": None,
                      "start_time": _time(start), "end_time": _time(start + dt.timedelta(seconds=4)),
                      "name": "rag-answer", "metadata": metadata, "level": "DEFAULT", "input": trace_input,
                      "output": trace_output, **common})
        # two retrievals: the first holds the first two chunks as LangChain documents, the second the
        # rest as strings (objects with `text` for the second record), written in reverse start order
        first, rest = documents[:2], documents[2:]
        items = [{"page_content": row["chunk"], "metadata": {"doc_id": row["doc_id"]}} for row in first]
        later = [({"text": row["chunk"]} if index == 1 else row["chunk"]) for row in rest]
        for number, output in reversed(list(enumerate([items, later], start=1))):
            if not output:
                continue
            spans.append({"id": _span_id(trace_id, f"retriever-{number}"), "trace_id": trace_id, "type": "RETRIEVER",
                          "parent_observation_id": root,
                          "start_time": _time(start + dt.timedelta(seconds=number)),
                          "end_time": _time(start + dt.timedelta(seconds=number, milliseconds=500)),
                          "name": "retrieve", "metadata": {}, "level": "DEFAULT",
                          "input": json.dumps(record.first("retrieval", "generated_search_query") or query,
                                              ensure_ascii=False),
                          "output": json.dumps(output, ensure_ascii=False), **common})
    return traces, spans


def scores(records: list[SampleRecord], annotators: dict) -> list[dict]:
    """Every score version (a resubmission: the same id again, later), in updated_at order."""
    versions: list[dict] = []
    notes_given: set[tuple] = set()
    without_provenance = True
    for index, record in enumerate(records):
        trace_id = record.trace_id
        fallback = WINDOW_START + dt.timedelta(minutes=10 + index)
        rows = sorted(((family, labels, row, annotator_id, kind)
                       for family, labels, row, annotator_id, kind in annotated_rows(record, annotators)
                       if family != "retrieval"), key=lambda item: _row_time(item[2], fallback))
        for number, (_, labels, row, annotator_id, kind) in enumerate(rows):
            at = _row_time(row, fallback + dt.timedelta(seconds=number))
            source = {"HUMAN": "ANNOTATION", "LLM": "EVAL", "CODE": "API"}[kind]
            for label in labels:
                cell = row[label].strip()
                if not cell:
                    continue
                value = read_boolean(cell)
                score = {"id": _id(trace_id, annotator_id, label), "timestamp": _time(at), "project_id": PROJECT_ID,
                         "environment": "production", "trace_id": trace_id, "observation_id": None,
                         "session_id": None, "dataset_run_id": None, "name": label, "source": source,
                         "comment": "judge reasoning" if kind == "LLM" else None,
                         "created_at": _time(at), "updated_at": _time(at), "metadata": {},
                         "author_user_id": None, "evaluator_id": None}
                if value is None:
                    score.update(data_type="CATEGORICAL", value=0, string_value=cell)
                elif kind == "HUMAN":
                    score.update(data_type="CATEGORICAL", value=0 if value else 1, string_value=cell)
                elif kind == "LLM":
                    score.update(data_type="NUMERIC", value=float(value), string_value=None)
                else:
                    score.update(data_type="BOOLEAN", value=value, string_value=None)
                if kind == "HUMAN":
                    score["metadata"] = {"annotator_id": annotator_id}
                    if without_provenance:  # one person's score from before the provenance fields
                        without_provenance = False
                    else:
                        score["author_user_id"] = annotator_id
                elif kind == "LLM":
                    score["evaluator_id"] = annotator_id
                else:
                    score["metadata"] = {"annotator_id": annotator_id}
                if index == 0 and label == labels[0]:  # one label score on the root observation
                    score["observation_id"] = _span_id(trace_id, "root")
                versions.append(score)
            if row["notes"].strip() and (trace_id, annotator_id) not in notes_given:
                notes_given.add((trace_id, annotator_id))
                versions.append({**versions[-1], "id": _id(trace_id, annotator_id, "notes"), "name": "notes",
                                 "data_type": "TEXT", "value": 0, "string_value": row["notes"].strip(),
                                 "observation_id": None,
                                 "updated_at": _time(at + dt.timedelta(seconds=1))})
        versions.append({**versions[-1], "id": _id(trace_id, "toxicity"), "name": "toxicity", "source": "EVAL",
                         "data_type": "NUMERIC", "value": 0.02, "string_value": None, "evaluator_id": "llm.toxicity",
                         "author_user_id": None, "metadata": {}, "observation_id": None})
    versions.append({**versions[-1], "id": _id("session"), "trace_id": None, "session_id": "session-0",
                     "name": "helpful", "source": "ANNOTATION", "data_type": "BOOLEAN", "value": 1,
                     "string_value": None, "author_user_id": ADJUDICATOR, "evaluator_id": None})
    return sorted(versions, key=lambda score: (score["updated_at"], score["id"]))


def windows(versions: list[dict], count: int = 3) -> list[list[dict]]:
    """The score versions in ``count`` windows of about equal size; each window's last score is
    also the first of the next (an inclusive boundary)."""
    size = -(-len(versions) // count)
    out = []
    for number in range(count):
        part = versions[number * size:(number + 1) * size]
        if number > 0 and out[-1]:
            part = [out[-1][-1], *part]
        out.append(part)
    return out


# ------------------------------------------------------------------------------------- the files


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def write_table(path: Path, rows: list[dict], file_type: str) -> int:
    """Write rows in a Langfuse file type; returns the row count."""
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = list(dict.fromkeys(key for row in rows for key in row))
    if file_type == "parquet":
        with tempfile.TemporaryDirectory() as work:
            source = Path(work) / "rows.jsonl"
            source.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
            with duckdb.connect() as con:
                con.execute(f"copy (select * from read_json('{source}', format = 'newline_delimited',"
                            f" sample_size = -1)) to '{path}' (format parquet)")
        return len(rows)
    if file_type.startswith("csv"):
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(row.get(column)) for column in columns])
        text = buffer.getvalue()
    elif file_type.startswith("jsonl"):
        text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    else:
        text = json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if file_type.endswith(".gz") else data)
    return len(rows)


def write_shape(folder: Path, shape: dict, records: list[SampleRecord], annotators: dict) -> None:
    project = folder / PROJECT_ID
    traces, spans = observations(records, shape.get("input", "string"))
    versions = scores(records, annotators)
    if not shape.get("provenance", True):
        versions = [{k: v for k, v in score.items() if k not in PROVENANCE} for score in versions]
    if shape["mode"] == "enriched":
        trace_context = {trace["id"]: trace for trace in traces}
        spans = [{**span, "parent_observation_id": span["parent_observation_id"] or "",
                  "user_id": trace_context[span["trace_id"]]["user_id"],
                  "session_id": trace_context[span["trace_id"]]["session_id"],
                  "trace_name": "rag-answer", "tags": ["ragmart"], "release": trace_context[span["trace_id"]]["release"],
                  "version": "", "bookmarked": False, "public": False} for span in spans]
        tables = {"observations_v2": [spans, [span for span in spans if not span["parent_observation_id"]][:2], []]}
        source = "OBSERVATIONS_V2"
    else:
        roots = [span for span in spans if span["parent_observation_id"] is None]
        tables = {"traces": [traces, traces[:2], []], "observations": [spans, roots[:2], []]}
        source = "LEGACY_TRACES_OBSERVATIONS"
    tables["scores"] = windows(versions)
    for number in range(3):
        start = WINDOW_START + dt.timedelta(hours=number)
        end = start + dt.timedelta(hours=1)
        stamp = end.strftime("%Y-%m-%dT%H-%M-%S.000Z")  # no colons: file names a Windows checkout can hold
        files = []
        for table, parts in tables.items():
            file_type = shape["scores"] if table == "scores" else shape["observations"]
            key = f"{table}/{stamp}.{file_type}"
            count = write_table(project / key, parts[number], file_type)
            files.append({"key": PREFIX + f"{PROJECT_ID}/{key}", "table": table, "format": file_type.split(".")[0],
                          "compression": "gzip" if file_type.endswith(".gz") else None,
                          "sizeBytes": (project / key).stat().st_size,
                          "rowCount": None if file_type == "parquet" else count})
        manifest = {"projectId": PROJECT_ID, "exportSource": source, "tables": list(tables),
                    "window": {"minTimestamp": start.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                               "maxTimestamp": end.strftime("%Y-%m-%dT%H:%M:%S.000Z")},
                    "files": files}
        (project / "manifests").mkdir(parents=True, exist_ok=True)
        (project / "manifests" / f"{stamp}.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if shape["scores"] == "jsonl":  # a fourth run whose manifest was never written: not read
        changed = dict(next(score for score in versions if score["data_type"] == "CATEGORICAL"))
        changed.update(string_value="no" if changed["string_value"] != "no" else "yes",
                       updated_at=_time(WINDOW_START + dt.timedelta(hours=4)))
        write_table(project / "scores" / "2026-11-20T13-00-00.000Z.jsonl", [changed], "jsonl")
    if shape["mode"] == "legacy":
        (project / "DEPRECATION_NOTICE.txt").write_text("The legacy export source is deprecated.\n", encoding="utf-8")
    write_side_files(folder, records, annotators)


def write_side_files(folder: Path, records: list[SampleRecord], annotators: dict) -> None:
    """The sample's retrieval rows of the records (record_uuid as the trace id), its adjudicator, and
    the records without a run."""
    rows = [{**row, "record_uuid": record.trace_id} for record in records for _, row in record.rows["retrieval"]]
    write_csv(folder / FILES["retrieval"], COLUMNS["retrieval"], rows)
    write_csv(folder / FILES["annotators"], COLUMNS["annotators"],
              [row for annotator_id, row in annotators.items() if row["role"].strip() == "adjudicator"])
    write_csv(folder / FILES["records"], ["record_uuid", "task_type", "query_id"],
              [[record.trace_id, record.task_type, record.query_id] for record in records])


def main(argv: list[str] | None = None) -> int:
    out, annotators, chosen = chosen_sample(argv, __doc__, DEFAULT_OUT, RUNS, QUERIES, features, WANTED)
    staging = Path(tempfile.mkdtemp(prefix="langfuse_fixtures_", dir=out.parent if out.parent.exists() else None))
    for name, shape in SHAPES.items():
        write_shape(staging / name, shape, chosen, annotators)
    (staging / "manifest.json").write_text(json.dumps({
        "written_by": "scripts/make_langfuse_fixtures.py (from Langfuse's documentation; no server)",
        "project_id": PROJECT_ID, "records": [record.uuid for record in chosen], "shapes": list(SHAPES),
    }, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    print(f"wrote {out}: {len(chosen)} traces, {len(SHAPES)} export shapes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    run(main)
