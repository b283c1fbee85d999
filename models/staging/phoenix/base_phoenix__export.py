"""An Arize Phoenix export as read (input_format `phoenix`): every span, retrieved document and annotation.

The folder `input_path` holds either Phoenix's SQLite database (the one `*.db` file, as Phoenix
writes it in its working directory; read with Python's own sqlite3, so no DuckDB extension is
needed) or the frames a user exported with Phoenix's client, each `.parquet` or `.csv` as pandas
writes them: `spans*` (spans.get_spans_dataframe), `span_annotations*`
(spans.get_span_annotations_dataframe), `document_annotations*` (the fields of Phoenix's document
annotations with the span's id: it has no client reader for them) and optional
`trace_annotations*`. Struct columns may be Parquet structs, JSON text or Python-literal text
(pandas' CSV of a dict); pandas' CSV repeats the index `context.span_id` as a column, which is no
duplicate-column error here.

One row per span, per retrieved document of a span, and per annotation, every value as text
(`row_kind`: `span`, `document`, `annotation`), with where it came from: `source_file` (the
database or frame file) and `source_row` (the annotation's id in the database, or the 1-based data
row of the frame). The project: the var `phoenix_project`, else the one project of the database
that holds annotations; several stop the build, naming them (frames hold one project).
Annotation times become ISO 8601 UTC text. The staging models (stg_phoenix__*) turn these rows
into the 0005 rows of each family.
"""

import ast
import csv
import json
import os
import sqlite3
import tempfile

COLUMNS = [
    "row_kind", "source_file", "source_row", "table_index",
    "trace_id", "span_id", "parent_id", "span_kind", "input_value", "output_value", "language",
    "document_position", "document_id", "document_content", "document_doc_id",
    "annotation_target", "name", "label", "score", "explanation", "annotator_kind", "identifier",
    "metadata_annotator_id", "created_at", "updated_at",
]
# the place of each annotation table among the sources: with the row's id (or frame row) it numbers
# the staged rows uniquely across tables (stg_phoenix__*)
TABLE_INDEX = {"document": 1, "span": 2, "trace": 3}
FRAME_ENDINGS = (".parquet", ".csv")


class PhoenixExportError(Exception):
    """A Phoenix export that the build cannot read as it is."""


def _setting(value):
    if value is None or str(value).strip() in ("", "None", "none", "null"):
        return None
    return str(value)


def _structure(value):
    """A struct or list value from a Parquet struct, JSON text or Python-literal text; else None."""
    if value is None or isinstance(value, (dict, list)):
        return value
    text = str(value).strip()
    if not text:
        return None
    for parse in (json.loads, ast.literal_eval):
        try:
            return parse(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return None


def _text(value):
    if value is None:
        return None
    if isinstance(value, float):
        if value != value:  # NaN: pandas' missing value
            return None
        return repr(value)
    text = str(value)
    return text if text.strip() else None


def _iso_utc(value):
    """An annotation time as ISO 8601 UTC text: Phoenix's database stores `YYYY-MM-DD HH:MM:SS` in
    UTC; the frames hold ISO text with an offset."""
    text = _text(value)
    if text is None:
        return None
    text = text.strip().replace(" ", "T", 1)
    if text.endswith("+00:00"):
        text = text[:-6] + "Z"
    if not (text.endswith("Z") or "+" in text[10:] or "-" in text[10:]):
        text += "Z"
    return text


def _language(metadata):
    meta = _structure(metadata)
    if isinstance(meta, dict):
        return _text(meta.get("language"))
    return None


def _documents(documents):
    """(position, id, content, doc_id) of a RETRIEVER span's documents, in either shape: nested
    (`{"document": {"id": ...}}`, the database) or flattened (`{"document.id": ...}`, the frames)."""
    items = _structure(documents)
    if not isinstance(items, list):
        return []
    out = []
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        document = item.get("document") if isinstance(item.get("document"), dict) else {
            key.split(".", 1)[1]: value for key, value in item.items() if key.startswith("document.")}
        metadata = _structure(document.get("metadata"))
        doc_id = _text(metadata.get("doc_id")) if isinstance(metadata, dict) else None
        out.append((position, _text(document.get("id")), _text(document.get("content")), doc_id))
    return out


def _nested(attributes, *path):
    value = attributes
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _span_rows(source_file, source_row, trace_id, span_id, parent_id, span_kind, input_value, output_value,
               metadata, documents):
    rows = [{"row_kind": "span", "source_file": source_file, "source_row": source_row, "trace_id": trace_id,
             "span_id": span_id, "parent_id": _text(parent_id), "span_kind": _text(span_kind),
             "input_value": _text(input_value), "output_value": _text(output_value), "language": _language(metadata)}]
    for position, document_id, content, doc_id in _documents(documents):
        rows.append({"row_kind": "document", "source_file": source_file, "source_row": source_row,
                     "trace_id": trace_id, "span_id": span_id, "document_position": position,
                     "document_id": document_id, "document_content": content, "document_doc_id": doc_id})
    return rows


def _annotation_row(target, source_file, source_row, trace_id, span_id, position, name, label, score, explanation,
                    annotator_kind, identifier, metadata, created_at, updated_at):
    meta = _structure(metadata)
    return {"row_kind": "annotation", "source_file": source_file, "source_row": source_row,
            "table_index": TABLE_INDEX[target], "annotation_target": target, "trace_id": _text(trace_id),
            "span_id": _text(span_id), "document_position": position, "name": _text(name), "label": _text(label),
            "score": _text(score), "explanation": _text(explanation), "annotator_kind": _text(annotator_kind),
            "identifier": _text(identifier),
            "metadata_annotator_id": _text(meta.get("annotator_id")) if isinstance(meta, dict) else None,
            "created_at": _iso_utc(created_at), "updated_at": _iso_utc(updated_at)}


# --------------------------------------------------------------------------- the database


def _read_database(path, project):
    file_name = os.path.basename(path)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        con.execute("select count(*) from projects").fetchone()
    except sqlite3.Error as error:
        raise PhoenixExportError(f"{file_name}: not a Phoenix database that can be read ({error})") from None
    try:
        annotated = [name for (name,) in con.execute(
            """select name from projects where id in (
                   select t.project_rowid from traces t join spans s on s.trace_rowid = t.id
                       join span_annotations a on a.span_rowid = s.id
                   union select t.project_rowid from traces t join spans s on s.trace_rowid = t.id
                       join document_annotations a on a.span_rowid = s.id
                   union select t.project_rowid from traces t join trace_annotations a on a.trace_rowid = t.id)
               order by name""")]
        if project is None:
            if len(annotated) != 1:
                raise PhoenixExportError(
                    f"{file_name}: " + (f"{len(annotated)} projects hold annotations ({', '.join(annotated)}); set the"
                                        " var phoenix_project to the one to read" if annotated else
                                        "no project holds annotations: nothing to evaluate"))
            project = annotated[0]
        found = con.execute("select id from projects where name = ?", (project,)).fetchone()
        if found is None:
            names = [name for (name,) in con.execute("select name from projects order by name")]
            raise PhoenixExportError(f"{file_name}: no project named '{project}' (var phoenix_project); the"
                                     f" database has {', '.join(names) or 'none'}")
        project_id = found[0]
        rows = []
        for span_rowid, trace_id, span_id, parent_id, span_kind, attributes in con.execute(
                """select s.id, t.trace_id, s.span_id, s.parent_id, s.span_kind, s.attributes
                   from spans s join traces t on s.trace_rowid = t.id where t.project_rowid = ? order by s.id""",
                (project_id,)):
            attributes = _structure(attributes) or {}
            rows += _span_rows(file_name, span_rowid, trace_id, span_id, parent_id, span_kind,
                               _nested(attributes, "input", "value"), _nested(attributes, "output", "value"),
                               attributes.get("metadata"), _nested(attributes, "retrieval", "documents"))
        annotation_columns = ("a.id, a.name, a.label, a.score, a.explanation, a.annotator_kind, a.identifier,"
                              " a.metadata, a.created_at, a.updated_at")
        queries = {
            "document": f"""select t.trace_id, s.span_id, a.document_position, {annotation_columns}
                            from document_annotations a join spans s on a.span_rowid = s.id
                            join traces t on s.trace_rowid = t.id where t.project_rowid = ? order by a.id""",
            "span": f"""select t.trace_id, s.span_id, null, {annotation_columns}
                        from span_annotations a join spans s on a.span_rowid = s.id
                        join traces t on s.trace_rowid = t.id where t.project_rowid = ? order by a.id""",
            "trace": f"""select t.trace_id, null, null, {annotation_columns}
                         from trace_annotations a join traces t on a.trace_rowid = t.id
                         where t.project_rowid = ? order by a.id""",
        }
        for target, query in queries.items():
            for (trace_id, span_id, position, annotation_id, name, label, score, explanation, kind, identifier,
                 metadata, created_at, updated_at) in con.execute(query, (project_id,)):
                rows.append(_annotation_row(target, file_name, annotation_id, trace_id, span_id, position, name,
                                            label, score, explanation, kind, identifier, metadata, created_at,
                                            updated_at))
        return rows
    except sqlite3.Error as error:
        raise PhoenixExportError(f"{file_name}: the database cannot be read as Phoenix's ({error})") from None
    finally:
        con.close()


# --------------------------------------------------------------------------- the frames


def _frame_records(session, path):
    """The rows of a frame file as dicts by column name (struct values as Python objects for Parquet;
    text for CSV, where a repeated column name keeps its first value)."""
    file_name = os.path.basename(path)
    if path.lower().endswith(".parquet"):
        try:
            relation = session.sql(f"select * from read_parquet('{path.replace(chr(39), chr(39) * 2)}')")
            columns = relation.columns
            return [dict(zip(columns, row)) for row in relation.fetchall()]
        except Exception as error:  # noqa: BLE001
            raise PhoenixExportError(f"{file_name}: the file cannot be read as Parquet"
                                     f" ({str(error).splitlines()[0]})") from None
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        try:
            header = next(reader)
        except StopIteration:
            raise PhoenixExportError(f"{file_name}: the file is empty; a frame needs a header line") from None
        records = []
        for row in reader:
            record = {}
            for name, value in zip(header, row):
                record.setdefault(name, value)
            records.append(record)
        return records


def _first(record, *names):
    for name in names:
        if name in record and _text(record[name]) is not None:
            return record[name]
    return None


def _read_frames(session, folder, frames):
    rows = []
    for path in frames["spans"]:
        file_name = os.path.basename(path)
        for number, record in enumerate(_frame_records(session, path), start=1):
            span_id = _text(_first(record, "context.span_id", "span_id"))
            if span_id is None:
                raise PhoenixExportError(f"{file_name}: row {number} has no context.span_id; is this the client's"
                                         " spans frame?")
            rows += _span_rows(file_name, number, _text(_first(record, "context.trace_id", "trace_id")), span_id,
                               _first(record, "parent_id"), _first(record, "span_kind"),
                               _first(record, "attributes.input.value"), _first(record, "attributes.output.value"),
                               _first(record, "attributes.metadata"), _first(record, "attributes.retrieval.documents"))
    spans = {r["span_id"]: r["trace_id"] for r in rows if r["row_kind"] == "span"}
    for target, prefix in (("document", "document_annotations"), ("span", "span_annotations"),
                           ("trace", "trace_annotations")):
        for path in frames[prefix]:
            file_name = os.path.basename(path)
            for number, record in enumerate(_frame_records(session, path), start=1):
                span_id = _text(_first(record, "span_id", "context.span_id")) if target != "trace" else None
                trace_id = (_text(_first(record, "trace_id", "context.trace_id")) if target == "trace"
                            else spans.get(span_id))
                position = _text(_first(record, "document_position"))
                rows.append(_annotation_row(
                    target, file_name, number, trace_id, span_id,
                    None if position is None else int(float(position)),
                    _first(record, "annotation_name", "name"), _first(record, "result.label", "label"),
                    _first(record, "result.score", "score"), _first(record, "result.explanation", "explanation"),
                    _first(record, "annotator_kind"), _first(record, "identifier"), _first(record, "metadata"),
                    _first(record, "created_at"), _first(record, "updated_at")))
    return rows


def _find_export(folder):
    """The database file, or the frame files by kind."""
    if not os.path.isdir(folder):
        raise PhoenixExportError(f"input_path '{folder}' is not a folder (var input_path)")
    entries = sorted(e for e in os.listdir(folder) if not e.startswith(".") and os.path.isfile(os.path.join(folder, e)))
    databases = [e for e in entries if e.lower().endswith(".db")]
    if len(databases) > 1:
        raise PhoenixExportError(f"input_path '{folder}' holds several databases ({', '.join(databases)}); keep the"
                                 " one Phoenix database to read")
    if databases:
        return os.path.join(folder, databases[0]), None
    # longest prefix first: `span_annotations` before `spans`
    frames = {"document_annotations": [], "span_annotations": [], "trace_annotations": [], "spans": []}
    for entry in entries:
        lower = entry.lower()
        for prefix in frames:
            if lower.startswith(prefix):
                if not lower.endswith(FRAME_ENDINGS):
                    raise PhoenixExportError(f"{entry}: its name makes it a {prefix} frame, but ragmart reads frames"
                                             " as .parquet or .csv")
                frames[prefix].append(os.path.join(folder, entry))
                break
    if not frames["spans"] or not (frames["document_annotations"] or frames["span_annotations"]
                                   or frames["trace_annotations"]):
        raise PhoenixExportError(
            f"input_path '{folder}' holds no Phoenix database (*.db) and not the frames it needs: a spans* frame"
            " and at least one of document_annotations*, span_annotations*, trace_annotations* (.parquet or .csv)")
    return None, frames


def model(dbt, session):
    dbt.config(materialized="table")
    folder = _setting(dbt.config.get("input_path"))
    project = _setting(dbt.config.get("phoenix_project"))
    if folder is None:
        raise PhoenixExportError("input_format 'phoenix' needs the var input_path, the folder of the export")
    folder = os.path.abspath(folder)
    database, frames = _find_export(folder)
    rows = _read_database(database, project) if database else _read_frames(session, folder, frames)
    work_dir = tempfile.mkdtemp(prefix="ragmart_phoenix_")
    path = os.path.join(work_dir, "export.csv")
    try:
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(COLUMNS)
            for row in rows:
                writer.writerow(["" if row.get(c) is None else row[c] for c in COLUMNS])
        types = ", ".join(f"'{c}': '{'BIGINT' if c in ('source_row', 'table_index', 'document_position') else 'VARCHAR'}'"
                          for c in COLUMNS)
        session.execute(
            f"create or replace temp table ragmart_phoenix_export as select * from read_csv('{path}', header = true,"
            " auto_detect = false, columns = " + "{" + types + "}" + ", quote = '\"', escape = '\"',"
            " max_line_size = 67108864)"
        ).fetchall()
    finally:
        os.remove(path)
        os.rmdir(work_dir)
    return session.sql("select * from ragmart_phoenix_export")
