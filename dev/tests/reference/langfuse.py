"""The native 0005 rows and files that hold the same information as a Langfuse blob-storage export.

Written from docs/rules.md ("Langfuse") only, never from the adapter: the files are read with the
standard library (Parquet through the duckdb package, as rows), and each rule is applied in Python.

* Files: the project folder's data files that a manifest's ``files[].key`` names (every data file
  when there is no manifest). Per table, rows of one ``id`` count once: the latest ``updated_at``,
  then the file that sorts last (then the later row).
* Records: traces; scores with a trace whose name (through ``label_names``) is a label of
  grounding or generation; ``notes`` is a TEXT score of that name.
* Annotator by ``source``: ANNOTATION ``author_user_id`` or ``metadata.annotator_id``; EVAL
  ``evaluator_id`` or ``langfuse-eval``; API ``metadata.annotator_id`` or ``langfuse-api``.
  Kind: ANNOTATION HUMAN, EVAL LLM, API CODE (for ids the annotators file does not list).
* Value by ``data_type``: BOOLEAN/NUMERIC 1 or 0 (NUMERIC against a threshold when given),
  CATEGORICAL the ``string_value``; else the value as given.
* One row per (trace, annotator, family); created_at the latest label score's ``updated_at``;
  source_file/source_row its file (under the project folder) and row.
* Texts: the legacy trace's input and output, else the root observation's (no parent); a JSON
  string is that string, a dotted path picks a text inside JSON; the context set: RETRIEVER
  outputs by start time, their items (strings, or ``page_content``/``content``/``text``) joined
  with `` [SEP] ``. Language: the metadata's ``language``. Run: the trace's ``release``.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import json
import shutil
from pathlib import Path

import duckdb
from export_schema import COLUMNS, FILES, LABELS, write_csv

TABLES = ("observations", "observations_v2", "scores", "traces")
KINDS = {"ANNOTATION": "HUMAN", "EVAL": "LLM", "API": "CODE"}
FAMILIES = ("grounding", "generation")


def _text(value):
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value) if str(value) != "" else None


def _object(value) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str) and value.startswith("{"):
        return json.loads(value)
    return {}


def read_rows(path: Path) -> list[dict]:
    """The rows of one data file, in order."""
    name = path.name.lower()
    if name.endswith(".parquet"):
        with duckdb.connect() as con:
            cursor = con.execute("select * from read_parquet(?)", [str(path)])
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, values)) for values in cursor.fetchall()]
    data = path.read_bytes()
    text = (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")
    if ".csv" in name:
        return [{k: (v or None) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
    if ".jsonl" in name:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def project_folder(folder: Path) -> Path:
    return next(p for p in sorted(folder.iterdir()) if p.is_dir() and (p / "scores").is_dir())


def data_files(project: Path) -> list[str]:
    """The listed data files' paths under the project folder, by table and name."""
    listed = None
    for manifest in sorted((project / "manifests").glob("*.json")) if (project / "manifests").is_dir() else []:
        listed = listed or set()
        for entry in json.loads(manifest.read_text(encoding="utf-8"))["files"]:
            listed.add(entry["key"].split(project.name + "/", 1)[1])
    found = []
    for table in TABLES:
        if (project / table).is_dir():
            for path in sorted((project / table).iterdir(), key=lambda p: p.name.encode()):
                if listed is None or f"{table}/{path.name}" in listed:
                    found.append(f"{table}/{path.name}")
    return found


def current_rows(project: Path) -> dict[str, list[dict]]:
    """Per kind (score, observation, trace): one version of each id, with its file and row."""
    latest: dict[tuple, dict] = {}
    for order, relative in enumerate(data_files(project)):
        table = relative.split("/")[0]
        kind = {"scores": "score", "traces": "trace"}.get(table, "observation")
        for row_number, row in enumerate(read_rows(project / relative), start=1):
            row = {**row, "_file": relative, "_row": row_number,
                   "_order": (_text(row.get("updated_at")) or "", order, row_number)}
            key = (kind, _text(row["id"]))
            if key not in latest or row["_order"] > latest[key]["_order"]:
                latest[key] = row
    out: dict[str, list[dict]] = {"score": [], "observation": [], "trace": []}
    for (kind, _), row in latest.items():
        out[kind].append(row)
    return out


def _as_text(value, path: str | None):
    text = _text(value)
    if text is None or not isinstance(value, str):
        return text
    try:
        parsed = json.loads(value)
    except ValueError:
        return text
    if path:
        found = parsed
        for key in path.split("."):
            found = found.get(key) if isinstance(found, dict) else None
        if found is not None:
            return found if isinstance(found, str) else _text(found)
    return parsed if isinstance(parsed, str) else text


def _items(output) -> list[str]:
    parsed = json.loads(output) if isinstance(output, str) and output[:1] in "[{\"" else output
    items = parsed if isinstance(parsed, list) else [parsed]
    texts = []
    for item in items:
        if isinstance(item, dict):
            item = next((item[key] for key in ("page_content", "content", "text") if item.get(key) is not None), item)
        if _text(item) is not None:
            texts.append(item if isinstance(item, str) else _text(item))
    return texts


def traces(current: dict[str, list[dict]], input_path=None, output_path=None) -> dict[str, dict]:
    """Per trace: query, answer, language, context_set, run."""
    out: dict[str, dict] = {}
    roots = sorted((row for row in current["observation"] if not row.get("parent_observation_id")),
                   key=lambda row: (_text(row["start_time"]), _text(row["id"])))
    for row in list(current["trace"]) + roots:
        trace_id = _text(row.get("trace_id") or row["id"]) if "trace_id" in row else _text(row["id"])
        if trace_id in out:
            continue
        out[trace_id] = {"query": _as_text(row.get("input"), input_path),
                         "answer": _as_text(row.get("output"), output_path),
                         "language": _text(_object(row.get("metadata")).get("language")),
                         "run_id": _text(row.get("release")) or None, "context_set": None}
    retrievers = sorted((row for row in current["observation"] if row.get("type") == "RETRIEVER"),
                        key=lambda row: (_text(row["start_time"]), _text(row["id"])))
    contexts: dict[str, list[str]] = {}
    for row in retrievers:
        contexts.setdefault(_text(row["trace_id"]), []).extend(_items(row.get("output")))
    for trace_id, items in contexts.items():
        if trace_id in out and items:
            out[trace_id]["context_set"] = " [SEP] ".join(items)
    return out


def _annotator(score: dict) -> str | None:
    meta = _text(_object(score.get("metadata")).get("annotator_id"))
    source = score.get("source")
    if source == "ANNOTATION":
        return _text(score.get("author_user_id")) or meta
    if source == "EVAL":
        return _text(score.get("evaluator_id")) or "langfuse-eval"
    if source == "API":
        return meta or "langfuse-api"
    return None


def _value(score: dict, threshold=None):
    data_type, value = score.get("data_type"), _text(score.get("value"))
    number = float(value) if value not in (None, "") else None
    if data_type == "BOOLEAN" and number in (0.0, 1.0):
        return str(int(number))
    if data_type == "CATEGORICAL":
        return _text(score.get("string_value"))
    if data_type == "NUMERIC" and number is not None:
        if threshold is not None:
            return "1" if number >= threshold else "0"
        if number in (0.0, 1.0):
            return str(int(number))
    return _text(score.get("string_value")) or value


def native_rows(folder: Path, label_names=None, input_path=None, output_path=None, threshold=None) -> dict[str, list[dict]]:
    """The 0005 rows of grounding and generation, each with its source_file and source_row."""
    label_names = label_names or {}
    current = current_rows(project_folder(folder))
    trace_texts = traces(current, input_path, output_path)
    family_of = {label: family for family in FAMILIES for label in LABELS[family]}
    rows: dict[tuple, dict] = {}
    notes: dict[tuple, dict] = {}
    for score in current["score"]:
        trace_id = _text(score.get("trace_id"))
        if trace_id is None:
            continue
        label = label_names.get(_text(score["name"]).strip(), _text(score["name"]).strip())
        annotator = _annotator(score)
        order = (_text(score["updated_at"]), score["_order"][1:])
        if label == "notes":
            if (trace_id, annotator) not in notes or order > notes[(trace_id, annotator)]["order"]:
                notes[(trace_id, annotator)] = {"order": order, "text": _text(score.get("string_value"))}
            continue
        if label not in family_of:
            continue
        key = (family_of[label], trace_id, annotator)
        row = rows.setdefault(key, {"labels": {}, "latest": None})
        if label not in row["labels"] or order > row["labels"][label][0]:
            row["labels"][label] = (order, _value(score, threshold))
        if row["latest"] is None or order > row["latest"][0]:
            row["latest"] = (order, score)
    out: dict[str, list[dict]] = {family: [] for family in FAMILIES}
    for (family, trace_id, annotator), row in rows.items():
        texts = trace_texts.get(trace_id, {})
        latest = row["latest"][1]
        native = {"record_uuid": trace_id, "annotator_id": annotator, "task": family,
                  "language": texts.get("language"), "created_at": _text(latest["updated_at"]),
                  "query": texts.get("query"), "answer": texts.get("answer"),
                  "notes": notes.get((trace_id, annotator), {}).get("text"),
                  "source_file": latest["_file"], "source_row": latest["_row"]}
        if family == "grounding":
            native["context_set"] = texts.get("context_set")
        for label in LABELS[family]:
            native[label] = row["labels"].get(label, (None, None))[1]
        out[family].append(native)
    return out


def native_files(folder: Path, out: Path, **options) -> Path:
    """The native files of a folder holding a Langfuse export beside the native retrieval file, the
    annotators and the records: grounding and generation from the export, the annotators with the
    kinds Langfuse records for the ids the file does not list, the records with the trace's run."""
    out.mkdir(parents=True, exist_ok=True)
    rows = native_rows(folder, **options)
    for family in FAMILIES:
        write_csv(out / FILES[family], COLUMNS[family],
                  [{k: v for k, v in row.items() if k not in ("source_file", "source_row")} for row in rows[family]])
    shutil.copy(folder / FILES["retrieval"], out / FILES["retrieval"])
    with open(folder / FILES["annotators"], newline="", encoding="utf-8") as handle:
        annotators = list(csv.DictReader(handle))
    listed = {row["annotator_id"].strip() for row in annotators}
    current = current_rows(project_folder(folder))
    label_names = options.get("label_names") or {}
    recorded = {}
    for score in current["score"]:
        label = label_names.get(_text(score["name"]).strip(), _text(score["name"]).strip())
        annotator = _annotator(score)
        if _text(score.get("trace_id")) and label in LABELS["grounding"] + LABELS["generation"] and annotator \
                and annotator not in listed:
            recorded[annotator] = KINDS[score["source"]]
    annotators += [{"annotator_id": a, "annotator_kind": k, "role": "annotator", "display_name": ""}
                   for a, k in sorted(recorded.items())]
    write_csv(out / FILES["annotators"], COLUMNS["annotators"], annotators)
    trace_texts = traces(current, options.get("input_path"), options.get("output_path"))
    with open(folder / FILES["records"], newline="", encoding="utf-8") as handle:
        records = list(csv.DictReader(handle))
    in_records = {row["record_uuid"].strip() for row in records}
    is_record = {row["record_uuid"] for family in FAMILIES for row in rows[family]}
    for row in records:
        if not (row.get("run_id") or "").strip():
            row["run_id"] = (trace_texts.get(row["record_uuid"].strip()) or {}).get("run_id") or ""
    records += [{"record_uuid": trace_id, "run_id": trace_texts[trace_id]["run_id"]}
                for trace_id in sorted(is_record - in_records) if trace_texts.get(trace_id, {}).get("run_id")]
    header = list(dict.fromkeys(["record_uuid", *(key for row in records for key in row), "run_id"]))
    write_csv(out / FILES["records"], header, records)
    return out
