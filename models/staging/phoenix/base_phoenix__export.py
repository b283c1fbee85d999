"""An Arize Phoenix export as read (input_format `phoenix`): every span, retrieved document and annotation.

Phoenix's database where it runs: with the environment variable PHOENIX_SQL_DATABASE_URL set (Phoenix's
own setting: `postgresql://user:password@host:5432/db`, also `postgresql+asyncpg://` or
`postgresql+psycopg://`, with query parameters such as `sslmode=require`, a percent-encoded password;
or `sqlite:///relative/path.db`, `sqlite:////absolute/path.db`), its tables are read in place, from the
schema PHOENIX_SQL_DATABASE_SCHEMA (PostgreSQL; default `public`), in one `REPEATABLE READ READ ONLY`
transaction (a consistent snapshot; nothing is written), times as UTC instants whatever the session's
time zone. PostgreSQL is read with psycopg2 (libpq), SQLite with Python's own sqlite3; the rows are
written out as they come (PostgreSQL's in batches, a server-side cursor), so that a large Phoenix need
not fit in memory. The folder
`input_path` is then optional and holds only the annotators* and records* files: Phoenix files in it as
well stop the build, naming both. The database is named `postgresql://user:***@host:port/db` in every
message and in `source_file`; its password appears nowhere.

Otherwise the folder `input_path` holds either Phoenix's SQLite database (the one `*.db` file, as Phoenix
writes it in its working directory) or the frames a user exported with Phoenix's client, each `.parquet`
or `.csv` as pandas writes them: `spans*` (spans.get_spans_dataframe), `span_annotations*`
(spans.get_span_annotations_dataframe), `document_annotations*` (the fields of Phoenix's document
annotations with the span's id: it has no client reader for them) and optional
`trace_annotations*`. Struct columns may be Parquet structs, JSON text or Python-literal text
(pandas' CSV of a dict); pandas' CSV repeats the index `context.span_id` as a column, which is no
duplicate-column error here. A CSV frame whose content is another format (a workbook, Parquet,
gzip, other binary data) stops the build naming the file and its real format.

One row per span, per retrieved document of a span, and per annotation, every value as text
(`row_kind`: `span`, `document`, `annotation`), with where it came from: `source_file` (the
database or frame file) and `source_row` (the annotation's id in the database, or the 1-based data
row of the frame). The project: the var `phoenix_project`, else the one project of the database
that holds annotations; several stop the build, naming them (frames hold one project).
Annotation times become ISO 8601 UTC text. The staging models (stg_phoenix__*) turn these rows
into the 0005 rows of each family.
"""

import ast
import codecs
import csv
import datetime
import hashlib
import json
import os
import sqlite3
import tempfile
import urllib.parse

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
FRAME_PREFIXES = ("document_annotations", "span_annotations", "trace_annotations", "spans")
DATABASE_URL = "PHOENIX_SQL_DATABASE_URL"
DATABASE_SCHEMA = "PHOENIX_SQL_DATABASE_SCHEMA"
# The tables and columns this model reads: Phoenix 20's layout.
PHOENIX_COLUMNS = {
    "projects": ("id", "name"),
    "traces": ("id", "trace_id", "project_rowid"),
    "spans": ("id", "trace_rowid", "span_id", "parent_id", "span_kind", "attributes"),
    "document_annotations": ("id", "span_rowid", "document_position", "name", "label", "score", "explanation",
                             "annotator_kind", "identifier", "metadata", "created_at", "updated_at"),
    "span_annotations": ("id", "span_rowid", "name", "label", "score", "explanation", "annotator_kind",
                         "identifier", "metadata", "created_at", "updated_at"),
    "trace_annotations": ("id", "trace_rowid", "name", "label", "score", "explanation", "annotator_kind",
                          "identifier", "metadata", "created_at", "updated_at"),
}


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
    """An annotation time as ISO 8601 UTC text: Phoenix's SQLite database stores `YYYY-MM-DD HH:MM:SS`
    in UTC, its PostgreSQL database instants (a datetime in the session's time zone, here turned to
    UTC); the frames hold ISO text with an offset."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.UTC)
        fraction = f".{value.microsecond:06d}" if value.microsecond else ""
        return value.strftime("%Y-%m-%dT%H:%M:%S") + fraction + "Z"
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


class Database:
    """An open Phoenix database in one read-only snapshot: its `name` for messages and source_file,
    a DB-API connection, its SQL dialect (`sqlite` or `postgres`), the driver's `errors`, and `scrub`,
    which takes the URL's password out of a driver's message."""

    def __init__(self, name, connection, dialect, schema=None, errors=(sqlite3.Error,), scrub=str):
        self.name, self.connection, self.dialect, self.schema = name, connection, dialect, schema
        self.errors, self.scrub = errors, scrub

    def rows(self, query, *params):
        """The rows of `query`, whose parameters are written `?`."""
        cursor = self.connection.cursor()
        try:
            cursor.execute(query.replace("?", "%s") if self.dialect == "postgres" else query, params)
            return cursor.fetchall()
        finally:
            cursor.close()

    def stream(self, query, *params):
        """The rows of `query` one at a time: PostgreSQL sends them in batches (a server-side cursor),
        so that a large project need not fit in memory."""
        if self.dialect == "postgres":
            cursor = self.connection.cursor(name="ragmart_phoenix_rows")
            cursor.itersize = 2000
        else:
            cursor = self.connection.cursor()
        try:
            cursor.execute(query.replace("?", "%s") if self.dialect == "postgres" else query, params)
            yield from cursor
        finally:
            cursor.close()

    def columns(self):
        """The columns of each of Phoenix's tables that the database (schema) has, by table."""
        found = {}
        if self.dialect == "postgres":
            for table, column in self.rows("select table_name, column_name from information_schema.columns"
                                           " where table_schema = ?", self.schema):
                found.setdefault(table, set()).add(column)
        else:
            for table in PHOENIX_COLUMNS:
                columns = {row[1] for row in self.rows(f"pragma table_info({table})")}
                if columns:
                    found[table] = columns
        return found

    def close(self):
        try:
            self.connection.rollback()  # the snapshot only read: nothing to keep
        finally:
            self.connection.close()


def _open_sqlite(path, name=None):
    """Phoenix's SQLite file, opened read-only, in one transaction (a snapshot from its first read)."""
    name = name or os.path.basename(path)
    if not os.path.isfile(path):
        raise PhoenixExportError(f"{name}: no such file (the SQLite database of {DATABASE_URL})")
    try:
        connection = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True)
        connection.execute("begin")
    except sqlite3.Error as error:
        raise PhoenixExportError(f"{name}: not a Phoenix database that can be read ({error})") from None
    return Database(name, connection, "sqlite")


def _url_parts(url):
    """The pieces of a database URL without trusting it to be well formed: (scheme, user, password as
    written, host and port text, database, query text)."""
    scheme, separator, rest = url.strip().partition("://")
    if not separator:
        return None
    # the last `@` ends the user's part, even when a password holds `@`, `/` or `?` not percent-encoded
    at = rest.rfind("@")
    user_info, location = (rest[:at], rest[at + 1:]) if at >= 0 else ("", rest)
    location, _, query = location.partition("?")
    user, has_password, password = user_info.partition(":")
    host_port, _, database = location.partition("/")
    return scheme.lower(), user, password if has_password else None, host_port, database, query


def _host_and_port(host_port):
    """(host, port text) of `host:port`, `[ipv6]:port` or a host alone (port text empty)."""
    if host_port.endswith("]") or ":" not in host_port:
        return host_port.strip("[]"), ""
    host, _, port = host_port.rpartition(":")
    return host.strip("[]"), port


def _masked(url):
    """The database as messages name it: `postgresql://user:***@host:port/db` (Phoenix's masking, without
    the query, which may hold other secrets); a SQLite file by its path."""
    parts = _url_parts(url)
    if parts is None:
        return f"{DATABASE_URL} (not shown: it is not a URL)"
    scheme, user, password, host_port, database, query = parts
    if scheme.split("+")[0] == "sqlite":
        return url.strip().partition("?")[0]
    credentials = urllib.parse.unquote(user) + (":***" if password is not None or "password=" in query else "")
    host, port = _host_and_port(host_port)
    return (f"postgresql://{credentials + '@' if credentials else ''}{host or 'localhost'}:{port or 5432}"
            f"/{urllib.parse.unquote(database)}")


def _scrubber(url):
    """A function that removes the URL and its password (as written, decoded, re-encoded) from a text."""
    parts = _url_parts(url) or ("", "", None, "", "", "")
    secrets = {url.strip()}
    passwords = [parts[2]] + [value for key, value in urllib.parse.parse_qsl(parts[5], keep_blank_values=True)
                              if key == "password"]
    for password in filter(None, passwords):
        decoded = urllib.parse.unquote(password)
        secrets |= {password, decoded, urllib.parse.quote(decoded, safe=""), urllib.parse.quote_plus(decoded)}
    secrets = sorted(filter(None, secrets), key=len, reverse=True)

    def scrub(text):
        text = str(text)
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    return scrub


def _open_url(url, schema):
    """The database of PHOENIX_SQL_DATABASE_URL, in one REPEATABLE READ READ ONLY transaction."""
    masked, scrub = _masked(url), _scrubber(url)
    parts = _url_parts(url)
    accepted = ("postgresql:// (also postgresql+asyncpg://, postgresql+psycopg://) or sqlite:/// as Phoenix takes"
                " it")
    if parts is None or parts[0].split("+")[0] not in ("postgresql", "sqlite"):
        raise PhoenixExportError(f"{DATABASE_URL} is not a URL of Phoenix's database ({masked}): it must begin with"
                                 f" {accepted}")
    scheme, user, password, host_port, database, query = parts
    if scheme.split("+")[0] == "sqlite":
        path = url.strip()[len(scheme) + 3:].partition("?")[0]
        if not path.startswith("/") or path == "/":
            raise PhoenixExportError(
                f"{DATABASE_URL} is not a URL of Phoenix's database ({masked}): a SQLite URL has three slashes"
                " before a relative path (sqlite:///phoenix.db) and four before an absolute one"
                " (sqlite:////data/phoenix.db)")
        return _open_sqlite(os.path.abspath(urllib.parse.unquote(path[1:])))
    host, port = _host_and_port(host_port)
    if port and not port.isdigit():
        raise PhoenixExportError(f"{DATABASE_URL} is not a URL of Phoenix's database ({masked}): its port"
                                 f" '{scrub(port)}' is not a number")
    settings = {"connect_timeout": "10", "application_name": "ragmart"}
    settings.update(urllib.parse.parse_qsl(query, keep_blank_values=True))
    if "ssl" in settings:  # asyncpg's name of libpq's sslmode
        settings.setdefault("sslmode", settings.pop("ssl"))
    if password is not None:
        settings["password"] = urllib.parse.unquote(password)
    settings.update({key: value for key, value in (("user", urllib.parse.unquote(user)),
                                                   ("host", urllib.parse.unquote(host)), ("port", port),
                                                   ("dbname", urllib.parse.unquote(database))) if value})
    schema = schema or "public"
    import psycopg2

    try:
        connection = psycopg2.connect(**settings)
    except psycopg2.ProgrammingError as error:  # an option libpq does not know
        raise PhoenixExportError(f"{DATABASE_URL} is not a URL of Phoenix's database ({masked}):"
                                 f" {scrub(str(error).strip())}") from None
    except psycopg2.OperationalError as error:
        reason = " ".join(scrub(str(error)).split())
        where = f"{host or 'localhost'} port {port or 5432}"
        if "refused" in reason.lower():
            raise PhoenixExportError(f"cannot connect to Phoenix's database {masked}: the connection to {where} was"
                                     " refused; is PostgreSQL running there, and are the host and port of"
                                     f" {DATABASE_URL} right?") from None
        raise PhoenixExportError(f"cannot connect to Phoenix's database {masked} ({where}): {reason}") from None
    try:
        # psycopg2 begins the transaction with the first statement: BEGIN ISOLATION LEVEL REPEATABLE READ
        # READ ONLY; Database.close ends it
        connection.set_session(isolation_level="REPEATABLE READ", readonly=True)
        connection.cursor().execute("select set_config('search_path', %s, true)",
                                    (psycopg2.extensions.quote_ident(schema, connection),))
    except psycopg2.Error as error:
        connection.close()
        raise PhoenixExportError(f"Phoenix's database {masked}: {scrub(str(error).strip())}") from None
    return Database(masked, connection, "postgres", schema, (psycopg2.Error,), scrub)


def _check_layout(database):
    """Stops when the database (schema) lacks a table or a column this model reads."""
    found = database.columns()
    where = f"{database.name}" + (f" (schema {database.schema}, {DATABASE_SCHEMA})" if database.schema else "")
    if not found:
        hint = ""
        if database.dialect == "postgres":
            others = [name for (name,) in database.rows(
                "select table_schema from information_schema.tables where table_name = 'spans'"
                " intersect select table_schema from information_schema.tables where table_name = 'projects'"
                " order by 1")]
            hint = (f"; schemas of that database with Phoenix's tables: {', '.join(others)}" if others else
                    "; no schema of that database has them (is it Phoenix's database?)")
        raise PhoenixExportError(f"{where} holds none of Phoenix's tables ({', '.join(PHOENIX_COLUMNS)}){hint}")
    missing_tables = [table for table in PHOENIX_COLUMNS if table not in found]
    if missing_tables:
        raise PhoenixExportError(f"{where} lacks Phoenix's table{'s' if len(missing_tables) > 1 else ''}"
                                 f" {', '.join(missing_tables)}, which ragmart reads (Phoenix 20's layout)")
    for table, columns in PHOENIX_COLUMNS.items():
        missing = [column for column in columns if column not in found[table]]
        if missing:
            raise PhoenixExportError(f"{where}: the table {table} has no column{'s' if len(missing) > 1 else ''}"
                                     f" {', '.join(missing)}, which ragmart reads (Phoenix 20's layout)")


def _read_database(source, project):
    """The rows of `project` (None: the one project with annotations) of a Phoenix database, as a list:
    `source` is an open Database or the path of a SQLite file."""
    return list(_database_rows(_open_sqlite(source) if isinstance(source, str) else source, project))


# ids a query names at once (SQLite's oldest limit of parameters is 999)
ID_CHUNK = 900


def _batches(query, column, ids):
    """(query, ids) pairs that read the rows whose `column` is one of `ids`, ID_CHUNK at a time, in id order."""
    parts = [ids[start:start + ID_CHUNK] for start in range(0, len(ids), ID_CHUNK)]
    return [(query + f" and {column} in ({', '.join('?' * len(part))}) order by {column}", tuple(part))
            for part in parts]


def _database_rows(database, project, known=None, read=None):
    """The rows of `project` of an open Database, one at a time (closes the database at the end).
    `known`: {read key: (updated_at, span_id, label, score)} of the rows an earlier build read (None: read
    every row); then only the spans it lacks (or whose span id differs) and the annotations it lacks or
    whose `updated_at`, label or score differ are read.
    `read` (a dict, when given) gets `keys`, the read key of every span and annotation of the project,
    read or not, and the counts `spans_read`, `spans_kept`, `annotations_read`, `annotations_kept`."""
    file_name = database.name
    read = {} if read is None else read
    read.update(keys=set(), spans_read=0, spans_kept=0, annotations_read=0, annotations_kept=0)
    try:
        _check_layout(database)
        annotated = [name for (name,) in database.rows(
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
        found = database.rows("select id from projects where name = ?", project)
        if not found:
            names = [name for (name,) in database.rows("select name from projects order by name")]
            raise PhoenixExportError(f"{file_name}: no project named '{project}' (var phoenix_project); the"
                                     f" database has {', '.join(names) or 'none'}")
        project_id = found[0][0]
        span_query = """select s.id, t.trace_id, s.span_id, s.parent_id, s.span_kind, s.attributes
                        from spans s join traces t on s.trace_rowid = t.id where t.project_rowid = ?"""
        if known is None:
            batches = [(span_query + " order by s.id", ())]
        else:  # the project's span ids first (no attributes): only the spans not read before are read whole
            new = []
            for span_rowid, span_id in database.rows(
                    "select s.id, s.span_id from spans s join traces t on s.trace_rowid = t.id"
                    " where t.project_rowid = ? order by s.id", project_id):
                read["keys"].add(f"spans:{span_rowid}")
                before = known.get(f"spans:{span_rowid}")
                if before is not None and before[1] == span_id:
                    read["spans_kept"] += 1
                else:
                    new.append(span_rowid)
            batches = _batches(span_query, "s.id", new)
        for query, ids in batches:
            for span_rowid, trace_id, span_id, parent_id, span_kind, attributes in database.stream(
                    query, project_id, *ids):
                read["keys"].add(f"spans:{span_rowid}")
                read["spans_read"] += 1
                attributes = _structure(attributes) or {}
                yield from _span_rows(file_name, span_rowid, trace_id, span_id, parent_id, span_kind,
                                      _nested(attributes, "input", "value"), _nested(attributes, "output", "value"),
                                      attributes.get("metadata"), _nested(attributes, "retrieval", "documents"))
        annotation_columns = ("a.id, a.name, a.label, a.score, a.explanation, a.annotator_kind, a.identifier,"
                              " a.metadata, a.created_at, a.updated_at")
        sources = {
            "document": ("t.trace_id, s.span_id, a.document_position", "document_annotations a join spans s on"
                         " a.span_rowid = s.id join traces t on s.trace_rowid = t.id"),
            "span": ("t.trace_id, s.span_id, null", "span_annotations a join spans s on a.span_rowid = s.id"
                     " join traces t on s.trace_rowid = t.id"),
            "trace": ("t.trace_id, null, null", "trace_annotations a join traces t on a.trace_rowid = t.id"),
        }
        for target, (targets, tables) in sources.items():
            query = f"select {targets}, {annotation_columns} from {tables} where t.project_rowid = ?"
            if known is None:
                batches = [(query + " order by a.id", ())]
            else:  # likewise the ids and times first: only new annotations and those updated since are read
                changed = []
                for annotation_id, updated_at, label, score in database.rows(
                        f"select a.id, a.updated_at, a.label, a.score from {tables} where t.project_rowid = ?"
                        " order by a.id", project_id):
                    key = f"{target}_annotations:{annotation_id}"
                    read["keys"].add(key)
                    before = known.get(key)
                    # the time and the value: SQLite stores the time to the second, and a change within it
                    # keeps the time
                    if before is not None and (before[0], *before[2:]) == (_iso_utc(updated_at), _text(label), _text(score)):
                        read["annotations_kept"] += 1
                    else:
                        changed.append(annotation_id)
                batches = _batches(query, "a.id", changed)
            for query_text, ids in batches:
                for (trace_id, span_id, position, annotation_id, name, label, score, explanation, kind, identifier,
                     metadata, created_at, updated_at) in database.stream(query_text, project_id, *ids):
                    read["keys"].add(f"{target}_annotations:{annotation_id}")
                    read["annotations_read"] += 1
                    yield _annotation_row(target, file_name, annotation_id, trace_id, span_id, position, name, label,
                                          score, explanation, kind, identifier, metadata, created_at, updated_at)
    except PhoenixExportError:
        raise
    except database.errors as error:
        raise PhoenixExportError(f"{file_name}: the database cannot be read as Phoenix's"
                                 f" ({database.scrub(str(error).strip())})") from None
    finally:
        database.close()


# --------------------------------------------------------------------------- the frames


def _check_content(path):
    """Stops on a CSV frame whose content is not CSV text, naming its real format: an Excel workbook or
    another ZIP archive, a Parquet or gzip file, or other binary data (a NUL byte in its first 64 KB,
    which text holds only as UTF-16, read by its byte-order mark)."""
    name = os.path.basename(path)
    with open(path, "rb") as handle:
        head = handle.read(1 << 16)
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"xl/" in head):
        problem = ("an Excel workbook (XLSX), not CSV: save it as CSV (File > Save as > CSV UTF-8), or write the"
                   " frame again with pandas (to_parquet or to_csv)")
    elif head.startswith(b"PK\x03\x04"):
        problem = "a ZIP archive, not CSV: unpack it and put the frames it holds in the folder instead"
    elif head.startswith(b"PAR1"):
        problem = f"a Parquet file, not CSV: rename it to {name[:-4]}.parquet"
    elif head.startswith(b"\x1f\x8b"):
        problem = "gzip-compressed: unpack it and put the unpacked file in the folder instead"
    elif b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        problem = (f"binary data, not CSV text (a NUL byte at byte {head.index(0) + 1}): write the frame again with"
                   " pandas (to_parquet or to_csv)")
    else:
        return
    raise PhoenixExportError(f"{name} is {problem}")


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
    _check_content(path)
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


def _phoenix_files(folder):
    """The names of the folder's files that are Phoenix's: databases (*.db) and frames (by prefix)."""
    return sorted(entry for entry in os.listdir(folder) if not entry.startswith(".")
                  and os.path.isfile(os.path.join(folder, entry))
                  and (entry.lower().endswith(".db") or entry.lower().startswith(FRAME_PREFIXES)))


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
    frames = {prefix: [] for prefix in FRAME_PREFIXES}
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


def read_export(session, folder, project, url=None, schema=None, known=None, read=None):
    """Every row of the Phoenix export, an iterable (a database's rows are read as they are written out):
    the database of `url` (PHOENIX_SQL_DATABASE_URL) when set, else the folder's database or frames.
    `known` and `read`: a database's rows read at an earlier build, and what this one reads
    (_database_rows); frames are read whole."""
    if url is not None:
        masked = _masked(url)
        if folder is not None:
            if not os.path.isdir(folder):
                raise PhoenixExportError(f"input_path '{folder}' is not a folder (var input_path)")
            found = _phoenix_files(folder)
            if found:
                raise PhoenixExportError(
                    f"two Phoenix sources: {DATABASE_URL} names Phoenix's database {masked}, and input_path"
                    f" '{folder}' holds a Phoenix export ({', '.join(found)}); read one: unset {DATABASE_URL} to"
                    " read the folder, or keep only the annotators* and records* files in it")
        return _database_rows(_open_url(url, schema), project, known, read)
    if folder is None:
        raise PhoenixExportError(
            f"input_format 'phoenix' needs Phoenix's database: set {DATABASE_URL} to it (Phoenix's own setting, e.g."
            " postgresql://user:password@host:5432/phoenix, and PHOENIX_SQL_DATABASE_SCHEMA when it is not public),"
            " or give the folder of its SQLite file or exported frames (make build-files INPUT=folder; the var"
            " input_path)")
    database, frames = _find_export(folder)
    return _database_rows(_open_sqlite(database), project, known, read) if database \
        else _read_frames(session, folder, frames)


def _code_digest():
    """A digest of this reader's code as dbt runs it (its file up to what dbt appends, with this build's
    values): rows kept from an earlier build were read by the same code only when it is equal, so a new
    version of ragmart reads every row again on its first build."""
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read().partition(b"\n# This part is user provided model code\n")[0]).hexdigest()


def _database_name(folder, url):
    """The name of the database the build reads (as in source_file), or None for frames."""
    if url is not None:
        return _masked(url)
    if folder is None or not os.path.isdir(folder):
        return None
    databases = [e for e in os.listdir(folder) if e.lower().endswith(".db") and not e.startswith(".")]
    return databases[0] if len(databases) == 1 else None


def _read_key(row, frames):
    """The key dbt's delete+insert replaces a row by: a span with its documents (`spans:<id>`), an
    annotation (`span_annotations:<id>`, likewise `document_` and `trace_`), by the ids of Phoenix's
    tables; a frame's rows by their file (frames are read whole)."""
    if frames:
        return f"frame:{row['source_file']}"
    if row["row_kind"] == "annotation":
        return f"{row['annotation_target']}_annotations:{row['source_row']}"
    return f"spans:{row['source_row']}"


def _stored_rows(session, this, read_with):
    """{read key: (updated_at, span_id, label, score)} of the spans and annotations an earlier build read
    from the same database with the same reader, or None (read every row)."""
    state = session.execute(f"select read_with from {this} where row_kind = 'state'").fetchall()
    if [row[0] for row in state] != [read_with]:
        return None
    return {key: tuple(values) for key, *values in session.execute(
        f"select read_key, updated_at, span_id, label, score from {this} where row_kind in ('span', 'annotation')"
    ).fetchall()}


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="delete+insert", unique_key="read_key",
               on_schema_change="append_new_columns")
    folder = _setting(dbt.config.get("input_path"))
    project = _setting(dbt.config.get("phoenix_project"))
    # Phoenix's own settings, read from the environment (never a dbt var: the URL holds a password)
    url, schema = _setting(os.environ.get(DATABASE_URL)), _setting(os.environ.get(DATABASE_SCHEMA))
    folder = os.path.abspath(folder) if folder else None
    database_name = _database_name(folder, url)
    read_with = json.dumps({"source": database_name, "schema": schema, "reader": _code_digest()}, sort_keys=True)
    this = str(dbt.this) if dbt.is_incremental else None
    if this and "read_key" not in {row[0] for row in session.execute(f"describe {this}").fetchall()}:
        raise PhoenixExportError(f"{this} was built by an earlier version of ragmart, which kept no read keys: build"
                                 " it once from scratch (dbt build --full-refresh, or make build-files FULL_REFRESH=1)")
    known = _stored_rows(session, this, read_with) if this and database_name else None
    if this and database_name and known is None:
        print(f"ragmart: every row of Phoenix's database {database_name} is read again: it was not read before"
              " into this database, or with another reader", flush=True)
    read = {}
    rows = read_export(session, folder, project, url, schema, known, read)
    work_dir = tempfile.mkdtemp(prefix="ragmart_phoenix_")
    path = os.path.join(work_dir, "export.csv")
    frame_keys = set()
    try:
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow([*COLUMNS, "read_key"])
            for row in rows:
                key = _read_key(row, database_name is None)
                if database_name is None:
                    frame_keys.add(key)
                writer.writerow(["" if row.get(c) is None else row[c] for c in COLUMNS] + [key])
        types = ", ".join(f"'{c}': '{'BIGINT' if c in ('source_row', 'table_index', 'document_position') else 'VARCHAR'}'"
                          for c in [*COLUMNS, "read_key"])
        session.execute(
            f"create or replace temp table ragmart_phoenix_export as select * from read_csv('{path}', header = true,"
            " auto_detect = false, columns = " + "{" + types + "}" + ", quote = '\"', escape = '\"',"
            " max_line_size = 67108864)"
        ).fetchall()
    finally:
        os.remove(path)
        os.rmdir(work_dir)
    if database_name and known is not None:
        print(f"ragmart: Phoenix's database {database_name}: {read['spans_read']} spans and {read['annotations_read']}"
              f" annotations read; {read['spans_kept']} spans and {read['annotations_kept']} annotations read at an"
              " earlier build and unchanged, not read again", flush=True)
    parts = ["select * from ragmart_phoenix_export",
             "select 'state' as row_kind, 'state' as read_key, {} as read_with".format(
                 "'" + read_with.replace("'", "''") + "'")]
    if this:  # what an earlier build read that is no longer there: one `removed` row replaces its rows
        session.execute("create or replace temp table ragmart_phoenix_keys as select unnest(?::varchar[]) as read_key",
                        [sorted(read.get("keys", set()) | frame_keys)])
        gone = session.execute(
            f"select count(distinct read_key) from {this} where row_kind not in ('state', 'removed')"
            " and read_key not in (select read_key from ragmart_phoenix_keys)").fetchall()[0][0]
        if gone:
            print(f"ragmart: {gone} spans, annotations or frames read at an earlier build are no longer in the"
                  " export: their rows are removed", flush=True)
            parts.append(f"select distinct 'removed' as row_kind, read_key from {this}"
                         " where row_kind not in ('state', 'removed')"
                         " and read_key not in (select read_key from ragmart_phoenix_keys)")
    return session.sql(" union all by name ".join(parts))
