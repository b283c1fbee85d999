"""A Langfuse blob-storage export as read (input_format `langfuse`): every score, observation and trace.

The folder `input_path` holds Langfuse's scheduled export as it lands in the bucket (Langfuse's
"Export to blob storage" and "Blob Storage Export Field Reference" pages): a folder per project,
`<project-id>/`, with `scores/` and either `observations_v2/` (enriched observations, the
recommended mode) or `traces/` + `observations/` (legacy), each holding one file per export window,
`{timestamp}.{parquet|json|jsonl|csv}[.gz]`, and `manifests/{timestamp}.json`, one per completed run,
whose `files[].key` lists every data file the run wrote (the full object key, with the bucket's
prefix). Only the data files a manifest lists are read: a file no manifest lists belongs to a run
that did not complete (Langfuse retries it under the same keys). A project folder without any
manifest is read whole. Other files (the other folders of the bucket, `DEPRECATION_NOTICE.txt`)
are not data files. The project: the var `langfuse_project` (a project id), else the one project
folder of `input_path`; several stop the build, naming them.

One row per data row of every table read (`row_kind` `score`, `observation` or `trace`), and one
row per data file of the project (`row_kind` `file`, with `is_listed`: whether a manifest lists
it; the data rows of an unlisted file are not read), every value as text: JSON and Parquet values
as their text (numbers as written, objects and arrays as compact JSON, timestamps as Langfuse
writes them in CSV, `YYYY-MM-DD HH:MM:SS.ffffff` in UTC), CSV cells as they are (an empty cell is
null). `source_file` is the file's path under the project folder (`scores/2026-11-20T10-00.jsonl`)
and `source_row` its 1-based data row (CSV), line (JSONL) or position (JSON, Parquet);
`file_index` numbers the files of the project by table and name. A CSV or JSON file whose content
is another format (a workbook, Parquet, gzip without .gz, other binary data) stops the build naming
the file and its real format.

The texts the staging models read are resolved here: `input_text` and `output_text` are the input
and output as a text (a value that is a JSON string is that string; other JSON stays as given
unless the var `langfuse_input_path` / `langfuse_output_path` names a dotted path to the text
inside it), `context_text` the items of a RETRIEVER observation's output joined with ` [SEP] `
(a JSON list's items: strings, or the objects' `page_content`, `content` or `text`; another output
is one item), `language` the `language` of the metadata, `metadata_annotator_id` the
`annotator_id` of a score's metadata. The staging models (stg_langfuse__*) keep one version of
each id and turn the scores into the 0005 rows of grounding and generation.
"""

import codecs
import csv
import datetime
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import tempfile

COLUMNS = [
    "row_kind", "table_name", "file_index", "source_file", "source_row", "is_listed",
    "id", "trace_id", "observation_id", "session_id", "updated_at", "timestamp",
    "name", "data_type", "value", "string_value", "source", "comment",
    "author_user_id", "evaluator_id", "metadata_annotator_id",
    "observation_type", "parent_observation_id", "start_time",
    "input_text", "output_text", "context_text", "language", "release", "version", "environment",
]
TABLES = {"scores": "score", "observations_v2": "observation", "observations": "observation", "traces": "trace"}
ENDINGS = (".parquet", ".json", ".jsonl", ".csv", ".json.gz", ".jsonl.gz", ".csv.gz")
SEPARATOR = " [SEP] "
ITEM_KEYS = ("page_content", "content", "text")


class LangfuseExportError(Exception):
    """A Langfuse export that the build cannot read as it is."""


def _setting(value):
    if value is None or str(value).strip() in ("", "None", "none", "null"):
        return None
    return str(value)


def _text(value):
    """A value as text: None and empty text as None, numbers as written, structures as compact JSON,
    times as Langfuse writes them in CSV."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return None
        return repr(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC).replace(tzinfo=None)
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    text = str(value)
    return text if text != "" else None


def _structure(value):
    """An object or array from a JSON or Parquet value or a JSON text; else None. A Parquet map
    may come as a dict, a list of key/value pairs or a key list and a value list."""
    if isinstance(value, dict):
        if set(value) == {"key", "value"} and isinstance(value["key"], list):  # a map as two lists
            return dict(zip(value["key"], value["value"]))
        return value
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, dict) and set(item) == {"key", "value"} for item in value):
            return {item["key"]: item["value"] for item in value}
        return list(value)
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return None


def _as_text(value, path=None):
    """An input or output as a text: a JSON string is that string; with a dotted path, the value
    at that path of the JSON (when present); other values as given."""
    text = _text(value)
    if text is None:
        return None
    parsed = value
    if isinstance(value, str):
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


def _context_text(value):
    """The items of a RETRIEVER observation's output joined with ` [SEP] `."""
    parsed = value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
    items = parsed if isinstance(parsed, list) else [parsed]
    texts = []
    for item in items:
        if isinstance(item, dict):
            item = next((item[key] for key in ITEM_KEYS if item.get(key) is not None), item)
        text = item if isinstance(item, str) else _text(item)
        if text is not None:
            texts.append(text)
    return SEPARATOR.join(texts) if texts else None


def _metadata(value, key):
    metadata = _structure(value)
    return _text(metadata.get(key)) if isinstance(metadata, dict) else None


def _open_text(path):
    raw = gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb")
    return io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")


def _check_content(path, name):
    """Stops on a CSV or JSON file (`name`: its path under the project folder) whose content is not
    what its name says, naming its real format: an Excel workbook or another ZIP archive, a Parquet
    file, gzip without .gz in its name (or .gz without gzip), or other binary data (a NUL byte in its
    first 64 KB, which text holds only as UTF-16, read by its byte-order mark)."""
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    named_gzip, is_gzip = name.lower().endswith(".gz"), head.startswith(b"\x1f\x8b")
    if named_gzip and is_gzip:
        try:
            with gzip.open(path, "rb") as handle:
                head = handle.read(1 << 16)
        except (OSError, EOFError) as error:
            raise LangfuseExportError(f"{name}: the file cannot be read as gzip ({error})") from None
    stem = re.sub(r"\.(csv|jsonl|json)(\.gz)?$", "", name, flags=re.IGNORECASE)
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"xl/" in head):
        problem = ("an Excel workbook (XLSX), not CSV or JSON: save it as CSV (File > Save as > CSV UTF-8), or put"
                   " the file Langfuse wrote in its place")
    elif head.startswith(b"PK\x03\x04"):
        problem = "a ZIP archive, not CSV or JSON: unpack it and put the files Langfuse wrote in its place"
    elif head.startswith(b"PAR1"):
        problem = f"a Parquet file, not CSV or JSON: rename it to {stem}.parquet"
    elif head.startswith(b"\x1f\x8b"):
        problem = f"gzip-compressed, but its name does not end in .gz: rename it to {name.split('/')[-1]}.gz"
    elif b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        problem = (f"binary data, not CSV or JSON text (a NUL byte at byte {head.index(0) + 1}): put the file"
                   " Langfuse wrote in its place")
    elif named_gzip and not is_gzip:
        problem = f"not gzip-compressed, though its name ends in .gz: rename it to {name.split('/')[-1][:-3]}"
    else:
        return
    raise LangfuseExportError(f"{name} is {problem}")


def _records(session, path):
    """(1-based row, record) of a data file in any of Langfuse's file types."""
    lower = path.lower()
    try:
        if lower.endswith(".parquet"):
            cursor = session.execute("select * from read_parquet(?)", [path])
            names = [d[0] for d in cursor.description]
            return [(n, dict(zip(names, values))) for n, values in enumerate(cursor.fetchall(), start=1)]
        with _open_text(path) as handle:
            if lower.endswith((".csv", ".csv.gz")):
                reader = csv.DictReader(handle)
                return [(n, {k: (v if v != "" else None) for k, v in row.items()})
                        for n, row in enumerate(reader, start=1)]
            if lower.endswith((".jsonl", ".jsonl.gz")):
                return [(n, json.loads(line)) for n, line in enumerate(handle, start=1) if line.strip()]
            content = json.load(handle)
    except (OSError, ValueError, UnicodeDecodeError, csv.Error) as error:
        raise LangfuseExportError(f"{path}: the file cannot be read as a Langfuse export file ({error})") from None
    if isinstance(content, dict):  # a JSON file of one object per line is JSONL; a single object is one row
        content = [content]
    if not isinstance(content, list):
        raise LangfuseExportError(f"{path}: a JSON export file holds an array of rows")
    return list(enumerate(content, start=1))


def _row(kind, record, input_path, output_path):
    get = record.get
    row = {
        "id": _text(get("id")), "trace_id": _text(get("trace_id")), "updated_at": _text(get("updated_at")),
        "timestamp": _text(get("timestamp")), "environment": _text(get("environment")),
    }
    if kind == "score":
        row.update({
            "observation_id": _text(get("observation_id")), "session_id": _text(get("session_id")),
            "name": _text(get("name")), "data_type": _text(get("data_type")), "value": _text(get("value")),
            "string_value": _text(get("string_value")), "source": _text(get("source")),
            "comment": _text(get("comment")), "author_user_id": _text(get("author_user_id")),
            "evaluator_id": _text(get("evaluator_id")),
            "metadata_annotator_id": _metadata(get("metadata"), "annotator_id"),
        })
    else:
        if kind == "trace":
            row["trace_id"] = row["id"]
        row.update({
            "observation_type": _text(get("type")), "parent_observation_id": _text(get("parent_observation_id")),
            "start_time": _text(get("start_time")),
            "input_text": _as_text(get("input"), input_path), "output_text": _as_text(get("output"), output_path),
            "context_text": _context_text(get("output")) if _text(get("type")) == "RETRIEVER" else None,
            "language": _metadata(get("metadata"), "language"), "release": _text(get("release")),
            "version": _text(get("version")),
        })
    return row


def _project_folder(folder, project):
    if not os.path.isdir(folder):
        raise LangfuseExportError(f"input_path '{folder}' is not a folder (var input_path)")
    projects = sorted(
        entry for entry in os.listdir(folder)
        if os.path.isdir(os.path.join(folder, entry)) and not entry.startswith(".")
        and any(os.path.isdir(os.path.join(folder, entry, table)) for table in (*TABLES, "manifests")))
    if project is not None:
        if project not in projects:
            raise LangfuseExportError(
                f"input_path '{folder}' has no Langfuse project folder '{project}' (var langfuse_project);"
                f" project folders: {', '.join(projects) or 'none'}")
        return os.path.join(folder, project)
    if not projects:
        raise LangfuseExportError(
            f"input_path '{folder}' holds no Langfuse export: a project folder (<project-id>/) with scores/"
            " and observations_v2/ (or traces/ and observations/), as Langfuse's blob-storage export writes it")
    if len(projects) > 1:
        raise LangfuseExportError(
            f"input_path '{folder}' holds the exports of several Langfuse projects: {', '.join(projects)}."
            " Name the one to read with the var langfuse_project, e.g. --vars '" + chr(123)
            + f"langfuse_project: {projects[0]}" + chr(125) + "'")
    return os.path.join(folder, projects[0])


def _listed_keys(project_folder):
    """The paths under the project folder that the manifests list; None without any manifest."""
    manifests = os.path.join(project_folder, "manifests")
    names = sorted(n for n in os.listdir(manifests) if n.lower().endswith(".json")) if os.path.isdir(manifests) else []
    if not names:
        return None
    project = os.path.basename(project_folder)
    listed = set()
    for name in names:
        try:
            with open(os.path.join(manifests, name), encoding="utf-8") as handle:
                manifest = json.load(handle)
        except (OSError, ValueError) as error:
            raise LangfuseExportError(f"manifests/{name}: the manifest cannot be read ({error})") from None
        for entry in manifest.get("files") or []:
            key = str(entry.get("key") or "") if isinstance(entry, dict) else ""
            # the key is the full object key, `{prefix}{project-id}/{table}/{file}`: its path under the project
            marker = project + "/"
            listed.add(key[key.rindex(marker) + len(marker):] if marker in key else key)
    return listed


STATE_COLUMNS = ["file_bytes", "file_modified", "file_digest", "read_with"]


def _code_digest():
    """A digest of this reader's code as dbt runs it (its file up to what dbt appends, with this build's
    values): rows kept from an earlier build were read by the same code only when it is equal, so a new
    version of ragmart reads every file again on its first build."""
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read().partition(b"\n# This part is user provided model code\n")[0]).hexdigest()


def _file_digest(path):
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _data_files(project_folder, listed):
    """The project's data files in reading order (by folder, then name): dicts of the file's folder
    (`table`), path under the project folder (`relative`), path, place (`index`), whether a manifest
    lists it, size and modification time."""
    files = []
    for table in sorted(TABLES):
        table_folder = os.path.join(project_folder, table)
        if not os.path.isdir(table_folder):
            continue
        for name in sorted(os.listdir(table_folder), key=lambda n: n.encode()):
            if not name.lower().endswith(ENDINGS):
                continue
            path = os.path.join(table_folder, name)
            relative = f"{table}/{name}"
            stat = os.stat(path)
            files.append({"table": table, "relative": relative, "path": path, "index": len(files) + 1,
                          "is_listed": listed is None or relative in listed, "bytes": stat.st_size,
                          "modified": stat.st_mtime_ns})
    return files


def _stored_files(session, this):
    """The files an earlier build read into this table (path: its state), or None when the table has no
    state to go on."""
    columns = {row[0] for row in session.execute(f"describe {this}").fetchall()}
    if not set(STATE_COLUMNS) <= columns:
        return None
    rows = session.execute(f"select source_file, is_listed, {', '.join(STATE_COLUMNS)} from {this}"
                           " where row_kind = 'file'").fetchall()
    return {row[0]: dict(zip(["is_listed", "bytes", "modified", "digest", "read_with"], row[1:])) for row in rows}


def _plan(files, stored, read_with):
    """(files to read, files kept as read before, why every file is read or None). A file is kept when an
    earlier build read it with the same settings and code, a manifest lists it as it did then, and its size
    and modification time (or, the time aside, its content digest) are unchanged; every other file is read
    (new, changed, or listed by a manifest since). Files are independent here (one version of each id is
    chosen in staging), so a changed file is read alone."""
    if stored is None:
        return files, [], "no file was read before into this database"
    if any(entry["read_with"] != read_with for entry in stored.values()):
        return files, [], "the settings that read the export, or ragmart's reader, changed since the last build"
    kept, to_read = [], []
    for entry in files:
        before = stored.get(entry["relative"])
        unchanged = before is not None and before["is_listed"] == entry["is_listed"] and before["bytes"] == entry["bytes"] \
            and (before["modified"] == entry["modified"] or before["digest"] == _file_digest(entry["path"]))
        (kept if unchanged else to_read).append(entry)
    return to_read, kept, None


def _write_rows(session, files, input_path, output_path, work_dir):
    """The data rows of the listed files among `files` into the temp table ragmart_langfuse_read."""
    path = os.path.join(work_dir, "export.csv")
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for entry in files:
            if not entry["is_listed"]:
                continue
            relative = entry["relative"]
            if not relative.lower().endswith(".parquet"):
                _check_content(entry["path"], relative)
            for source_row, record in _records(session, entry["path"]):
                if not isinstance(record, dict):
                    raise LangfuseExportError(f"{relative}: row {source_row} is not an object")
                row = _row(TABLES[entry["table"]], record, input_path, output_path)
                row.update(row_kind=TABLES[entry["table"]], table_name=entry["table"], source_file=relative,
                           source_row=source_row, is_listed="true")
                writer.writerow(["" if row.get(c) is None else row[c] for c in COLUMNS])
    types = ", ".join(f"'{c}': '{'BIGINT' if c in ('file_index', 'source_row') else 'VARCHAR'}'" for c in COLUMNS)
    session.execute(
        f"create or replace temp table ragmart_langfuse_read as select * from read_csv('{path}',"
        " header = true, auto_detect = false, columns = {" + types + "}, quote = '\"', escape = '\"',"
        " max_line_size = 67108864)"
    ).fetchall()
    os.remove(path)


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="delete+insert", unique_key="source_file",
               on_schema_change="append_new_columns")
    folder = _setting(dbt.config.get("input_path"))
    project = _setting(dbt.config.get("langfuse_project"))
    input_path = _setting(dbt.config.get("langfuse_input_path"))
    output_path = _setting(dbt.config.get("langfuse_output_path"))
    if folder is None:
        raise LangfuseExportError("input_format 'langfuse' needs the var input_path, the folder of the export")
    project_folder = _project_folder(os.path.abspath(folder), project)
    listed = _listed_keys(project_folder)
    files = _data_files(project_folder, listed)
    read_with = json.dumps({"project": os.path.basename(project_folder), "langfuse_input_path": input_path,
                            "langfuse_output_path": output_path, "reader": _code_digest()}, sort_keys=True)
    this = str(dbt.this) if dbt.is_incremental else None
    stored = _stored_files(session, this) if this else None
    to_read, kept, reason = _plan(files, stored, read_with)
    if this and reason:
        print(f"ragmart: every Langfuse data file is read again: {reason}", flush=True)
    if kept:
        names = [entry["relative"] for entry in kept]
        shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        print(f"ragmart: {len(kept)} Langfuse data file(s) read at an earlier build and unchanged, not read again:"
              f" {shown}", flush=True)
    work_dir = tempfile.mkdtemp(prefix="ragmart_langfuse_")
    try:
        _write_rows(session, to_read, input_path, output_path, work_dir)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    counts = dict(session.execute("select source_file, count(*) from ragmart_langfuse_read group by all").fetchall())
    for entry in to_read:
        print(f"ragmart: read {entry['relative']} ({counts.get(entry['relative'], 0)} rows"
              f"{'' if entry['is_listed'] else ', listed by no manifest: its rows are not read'})", flush=True)
    present = {entry["relative"] for entry in files}
    removed = sorted({row[0] for row in session.execute(
        f"select distinct source_file from {this} where row_kind <> 'removed'").fetchall()} - present) if this else []
    for name in removed:
        print(f"ragmart: {name}: read at an earlier build, no longer in the export: its rows are removed", flush=True)
    return _batch(session, this, files, to_read, kept, removed, listed is not None, read_with)


def _batch(session, this, files, to_read, kept, removed, has_manifest, read_with):
    """Every row of the export as this build leaves it (dbt's delete+insert replaces every file named
    in it): one `file` row per data file with its state, the rows of the files read, the rows of the
    files kept (from the table, with their place among today's files) and one `removed` row per file
    read at an earlier build and gone."""
    session.execute("create or replace temp table ragmart_langfuse_files (source_file varchar, table_name varchar,"
                    " file_index bigint, is_listed boolean, file_bytes bigint, file_modified bigint, file_digest varchar,"
                    " row_kind varchar)")
    digests = {entry["relative"]: _file_digest(entry["path"]) for entry in to_read}
    stored_digest = {}
    if kept:
        kept_names = ", ".join("'" + entry["relative"].replace("'", "''") + "'" for entry in kept)
        stored_digest = dict(session.execute(f"select source_file, file_digest from {this} where row_kind = 'file'"
                                             f" and source_file in ({kept_names})").fetchall())
    rows = [(entry["relative"], entry["table"], entry["index"], entry["is_listed"], entry["bytes"], entry["modified"],
             digests.get(entry["relative"]) or stored_digest.get(entry["relative"]), "file") for entry in files]
    rows += [(name, None, None, None, None, None, None, "removed") for name in removed]
    if rows:
        session.executemany("insert into ragmart_langfuse_files values (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    state = ", ".join(f"cast(null as {kind}) as {name}" for name, kind in
                      zip(STATE_COLUMNS, ("bigint", "bigint", "varchar", "varchar")))
    parts = [
        "select row_kind, table_name, file_index, source_file, is_listed, file_bytes, file_modified, file_digest,"
        " {} as read_with from ragmart_langfuse_files".format("'" + read_with.replace("'", "''") + "'"),
        f"select read_rows.* replace (files.file_index as file_index, true as is_listed), {state}"
        " from ragmart_langfuse_read as read_rows join ragmart_langfuse_files as files using (source_file)",
    ]
    if kept:
        kept_names = ", ".join("'" + entry["relative"].replace("'", "''") + "'" for entry in kept)
        parts.append(
            f"select stored.* exclude (has_manifest) replace (files.file_index as file_index) from {this} as stored"
            f" join ragmart_langfuse_files as files using (source_file)"
            f" where stored.row_kind not in ('file', 'removed') and stored.source_file in ({kept_names})")
    session.execute("create or replace temp table ragmart_langfuse_batch as " + " union all by name ".join(parts))
    return session.sql(f"select *, {'true' if has_manifest else 'false'} as has_manifest from ragmart_langfuse_batch")
