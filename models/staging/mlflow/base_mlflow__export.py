"""An MLflow 3 export as read (input_format `mlflow`): every trace, span, retrieved document and assessment.

MLflow's tracking store where it runs: with the environment variable MLFLOW_BACKEND_STORE_URI set (the
`--backend-store-uri` of `mlflow server`: `postgresql://user:password@host:5432/db`, also
`postgresql+psycopg2://`, with query parameters such as `sslmode=require`, a percent-encoded password; or
`sqlite:///relative/path.db`, `sqlite:////absolute/path.db`), its tables are read in place in one
`REPEATABLE READ READ ONLY` transaction (a consistent snapshot; nothing is written). PostgreSQL is read
with psycopg2 (libpq), SQLite with Python's own sqlite3. The folder `input_path` is then optional and
holds only the annotators* and records* files: MLflow files in it as well stop the build, naming both.
The store is named `postgresql://user:***@host:port/db` in every message and in `source_file`; its
password appears nowhere.

Otherwise the folder `input_path` holds one of:
- the store's SQLite file (the one `*.db` file, as `mlflow server --backend-store-uri sqlite:///mlflow.db`
  writes it);
- the client's exports: the `mlflow.search_traces()` frame as Parquet (`traces*.parquet`; its `spans`,
  `assessments` and `trace_metadata` columns as Parquet lists/structs or as JSON text), or
  `Trace.to_json()` lines (`traces*.jsonl`, gzip allowed: `traces*.jsonl.gz`); beside them
  `logged_models*.parquet` (`mlflow.search_logged_models()`) and `runs*.parquet` (`mlflow.search_runs()`)
  name the logged models and runs of the traces (without them a trace's run is the id MLflow records).

The experiment: the var `mlflow_experiment` (a name or an id), else the one experiment that holds
feedback; several stop the build, naming them. One row per trace, span, retrieved document and
assessment, every value as text (`row_kind`: `trace`, `span`, `document`, `assessment`), with where it
came from: `source_file` (the store or export file) and `source_row` (an assessment's place among the
experiment's assessments in the store, ordered by creation; the frame's 1-based data row or the line
of an export). The staging models (stg_mlflow__*) turn these rows into the 0005 rows of each family.
"""

import base64
import csv
import datetime
import gzip
import hashlib
import json
import os
import sqlite3
import tempfile
import urllib.parse

COLUMNS = [
    "row_kind", "source_file", "source_row", "experiment_id", "trace_id",
    "record_id", "run_name", "language", "query_id",
    "span_id", "parent_span_id", "span_type", "span_start", "input_text", "output_text",
    "document_position", "document_id", "document_content", "document_doc_id",
    "assessment_id", "assessment_type", "name", "value_kind", "value_text", "has_error",
    "source_type", "source_id", "rationale", "is_valid", "last_update_time", "chunk_index",
]
INTEGER_COLUMNS = ("source_row", "document_position")
STORE_URI = "MLFLOW_BACKEND_STORE_URI"
EXPORT_PREFIXES = ("traces", "logged_models", "runs")
# The tables and columns this model reads: MLflow 3's layout.
MLFLOW_COLUMNS = {
    "experiments": ("experiment_id", "name"),
    "trace_info": ("request_id", "experiment_id", "client_request_id"),
    "trace_request_metadata": ("key", "value", "request_id"),
    "spans": ("trace_id", "span_id", "content"),
    "assessments": ("assessment_id", "trace_id", "name", "assessment_type", "value", "error",
                    "created_timestamp", "last_updated_timestamp", "source_type", "source_id", "span_id",
                    "rationale", "valid", "assessment_metadata"),
    "logged_models": ("model_id", "name"),
    "runs": ("run_uuid", "name"),
}


class MlflowExportError(Exception):
    """An MLflow export that the build cannot read as it is."""


def _setting(value):
    if value is None or str(value).strip() in ("", "None", "none", "null"):
        return None
    return str(value)


def _json(value):
    """A JSON value from JSON text (a list or dict from Parquet as it is); text that is no JSON as None."""
    if value is None or isinstance(value, (dict, list, bool, int, float)):
        return value
    try:
        return json.loads(value)
    except (ValueError, TypeError):
        return None


def _text(value):
    if value is None:
        return None
    if isinstance(value, float) and value != value:  # NaN: pandas' missing value
        return None
    text = str(value)
    return text if text.strip() else None


def _span_text(encoded):
    """A span's input or output as text: MLflow stores it as JSON text. A JSON string is that string; an
    object with one member whose value is a string is that string; anything else the JSON as stored."""
    if encoded is None:
        return None
    value = _json(encoded)
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        (only,) = value.values()
        if isinstance(only, str):
            return only
    return encoded if isinstance(encoded, str) else json.dumps(encoded, ensure_ascii=False)


def _hex_id(value):
    """A span id as 16 hexadecimal digits: MLflow's span JSON holds it in base64 (OpenTelemetry's JSON),
    its tables and assessments in hex."""
    text = _text(value)
    if text is None:
        return None
    if text.startswith("0x"):
        return text[2:]
    if len(text) == 16 and all(c in "0123456789abcdef" for c in text):
        return text
    try:
        return base64.b64decode(text, validate=True).hex()
    except ValueError:
        return text


def _iso_ms(milliseconds):
    instant = datetime.datetime.fromtimestamp(int(milliseconds) / 1000, datetime.UTC)
    return instant.strftime("%Y-%m-%dT%H:%M:%S.") + f"{instant.microsecond // 1000:03d}Z"


def _iso_text(value):
    """An export's time (ISO 8601, as MLflow's JSON writes it: `Z`, 0 to 9 fraction digits) in the store's
    form: UTC, milliseconds, `Z`."""
    text = _text(value)
    if text is None:
        return None
    try:
        instant = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return text
    if instant.tzinfo is not None:
        instant = instant.astimezone(datetime.UTC)
    return instant.strftime("%Y-%m-%dT%H:%M:%S.") + f"{instant.microsecond // 1000:03d}Z"


def _span_rows(source_file, source_row, trace_id, span):
    """The span row and one row per retrieved document of a span in MLflow's span JSON."""
    attributes = span.get("attributes") or {}
    span_id, span_type = _hex_id(span.get("span_id")), _json(attributes.get("mlflow.spanType"))
    rows = [{"row_kind": "span", "source_file": source_file, "source_row": source_row, "trace_id": trace_id,
             "span_id": span_id, "parent_span_id": _hex_id(span.get("parent_span_id")),
             "span_type": _text(span_type), "span_start": _text(span.get("start_time_unix_nano")),
             "input_text": _span_text(attributes.get("mlflow.spanInputs")),
             "output_text": _span_text(attributes.get("mlflow.spanOutputs"))}]
    if span_type == "RETRIEVER":
        documents = _json(attributes.get("mlflow.spanOutputs"))
        for position, document in enumerate(documents if isinstance(documents, list) else []):
            if not isinstance(document, dict):
                continue
            metadata = document.get("metadata") if isinstance(document.get("metadata"), dict) else {}
            rows.append({"row_kind": "document", "source_file": source_file, "source_row": source_row,
                         "trace_id": trace_id, "span_id": span_id, "document_position": position,
                         "document_id": _text(document.get("id")),
                         "document_content": _text(document.get("page_content")),
                         "document_doc_id": _text(metadata.get("doc_id"))})
    return rows


def _value(value):
    """(value_kind, value_text) of a feedback value: `boolean` (true/false), `number` (its JSON text),
    `string` (as given), `null`, or `other` (a list or object, its JSON text)."""
    if value is None:
        return "null", None
    if isinstance(value, bool):
        return "boolean", "true" if value else "false"
    if isinstance(value, (int, float)):
        return "number", json.dumps(value)
    if isinstance(value, str):
        return "string", value
    return "other", json.dumps(value, ensure_ascii=False, sort_keys=True)


def _assessment_row(source_file, source_row, trace_id, assessment_id, assessment_type, name, value, has_error,
                    source_type, source_id, span_id, rationale, valid, last_update_time, metadata):
    kind, text = _value(value)
    metadata = _json(metadata)
    chunk_index = metadata.get("chunk_index") if isinstance(metadata, dict) else None
    return {"row_kind": "assessment", "source_file": source_file, "source_row": source_row, "trace_id": trace_id,
            "assessment_id": _text(assessment_id), "assessment_type": _text(assessment_type), "name": _text(name),
            "value_kind": kind, "value_text": text, "has_error": "true" if has_error else "false",
            "source_type": _text(source_type), "source_id": _text(source_id), "span_id": _hex_id(span_id),
            "rationale": _text(rationale), "is_valid": "true" if valid else "false",
            "last_update_time": last_update_time,
            "chunk_index": None if chunk_index is None else _text(json.dumps(chunk_index).strip('"'))}


def _trace_row(source_file, source_row, experiment_id, trace_id, client_request_id, metadata, models, runs):
    metadata = metadata if isinstance(metadata, dict) else {}
    model_id, run_id = _text(metadata.get("mlflow.modelId")), _text(metadata.get("mlflow.sourceRun"))
    run_name = models.get(model_id, model_id) if model_id else (runs.get(run_id, run_id) if run_id else None)
    return {"row_kind": "trace", "source_file": source_file, "source_row": source_row,
            "experiment_id": _text(experiment_id), "trace_id": trace_id,
            "record_id": _text(client_request_id) or trace_id, "run_name": _text(run_name),
            "language": _text(metadata.get("language")), "query_id": _text(metadata.get("query_id"))}


def _choose(experiments, chosen, where):
    """The experiment id to read: `chosen` (the var mlflow_experiment, a name or an id), else the one
    experiment with feedback. `experiments`: {id: (name, has feedback)}."""
    if chosen is not None:
        for experiment_id, (name, _) in experiments.items():
            if chosen in (str(experiment_id), name):
                return str(experiment_id)
        known = ", ".join(f"{name} (id {i})" if name else f"id {i}" for i, (name, _) in sorted(experiments.items()))
        raise MlflowExportError(f"{where}: no experiment named or numbered '{chosen}' (var mlflow_experiment);"
                                f" it has {known or 'none'}")
    with_feedback = sorted((str(i), name) for i, (name, has) in experiments.items() if has)
    if len(with_feedback) == 1:
        return with_feedback[0][0]
    if not with_feedback:
        raise MlflowExportError(f"{where}: no experiment holds feedback: nothing to evaluate")
    named = ", ".join(f"{name} (id {i})" if name else f"id {i}" for i, name in with_feedback)
    raise MlflowExportError(f"{where}: {len(with_feedback)} experiments hold feedback ({named}); set the var"
                            " mlflow_experiment to the name or id of the one to read")


# --------------------------------------------------------------------------- the store


class Store:
    """An open tracking store in one read-only snapshot: its `name` for messages and source_file, a
    DB-API connection, its dialect (`sqlite` or `postgres`), the driver's `errors`, and `scrub`, which
    takes the URI's password out of a driver's message."""

    def __init__(self, name, connection, dialect, errors=(sqlite3.Error,), scrub=str):
        self.name, self.connection, self.dialect, self.errors, self.scrub = name, connection, dialect, errors, scrub

    def rows(self, query, *params):
        """The rows of `query` (parameters written `?`), one at a time (PostgreSQL: a server-side cursor)."""
        if self.dialect == "postgres":
            cursor = self.connection.cursor(name=f"ragmart_mlflow_{id(query)}")
            cursor.itersize = 2000
            query = query.replace("?", "%s")
        else:
            cursor = self.connection.cursor()
        try:
            cursor.execute(query, params)
            yield from cursor
        finally:
            cursor.close()

    def columns(self):
        found = {}
        if self.dialect == "postgres":
            for table, column in self.rows("select table_name, column_name from information_schema.columns"
                                           " where table_schema = current_schema()"):
                found.setdefault(table, set()).add(column)
        else:
            for table in MLFLOW_COLUMNS:
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
    name = name or os.path.basename(path)
    if not os.path.isfile(path):
        raise MlflowExportError(f"{name}: no such file (the SQLite store of {STORE_URI})")
    try:
        connection = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True)
        connection.execute("begin")
    except sqlite3.Error as error:
        raise MlflowExportError(f"{name}: not an MLflow store that can be read ({error})") from None
    return Store(name, connection, "sqlite")


def _url_parts(url):
    """(scheme, user, password as written or None, host:port, database, query) of a URI, not trusting it
    to be well formed: the last `@` ends the user's part, even when a password holds `@`, `/` or `?`."""
    scheme, separator, rest = url.strip().partition("://")
    if not separator:
        return None
    at = rest.rfind("@")
    user_info, location = (rest[:at], rest[at + 1:]) if at >= 0 else ("", rest)
    location, _, query = location.partition("?")
    user, has_password, password = user_info.partition(":")
    host_port, _, database = location.partition("/")
    return scheme.lower(), user, password if has_password else None, host_port, database, query


def _masked(url):
    """The store as messages name it: `postgresql://user:***@host:port/db` (no query: it may hold other
    secrets); a SQLite file by its URI."""
    parts = _url_parts(url)
    if parts is None:
        return f"{STORE_URI} (not shown: it is not a URI)"
    scheme, user, password, host_port, database, query = parts
    if scheme.split("+")[0] == "sqlite":
        return url.strip().partition("?")[0]
    credentials = urllib.parse.unquote(user) + (":***" if password is not None or "password=" in query else "")
    host, _, port = host_port.rpartition(":") if ":" in host_port.rstrip("]").split("]")[-1] else (host_port, "", "")
    return (f"postgresql://{credentials + '@' if credentials else ''}{host.strip('[]') or 'localhost'}:"
            f"{port or 5432}/{urllib.parse.unquote(database)}")


def _scrubber(url):
    """A function that removes the URI and its password (as written, decoded, re-encoded) from a text."""
    parts = _url_parts(url) or ("", "", None, "", "", "")
    secrets = {url.strip()}
    passwords = [parts[2]] + [v for k, v in urllib.parse.parse_qsl(parts[5], keep_blank_values=True) if k == "password"]
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


def _open_url(url):
    """The store of MLFLOW_BACKEND_STORE_URI, in one REPEATABLE READ READ ONLY transaction."""
    masked, scrub, parts = _masked(url), _scrubber(url), _url_parts(url)
    if parts is None or parts[0].split("+")[0] not in ("postgresql", "sqlite"):
        raise MlflowExportError(f"{STORE_URI} is not a URI of MLflow's tracking store ({masked}): ragmart reads"
                                " postgresql:// (also postgresql+psycopg2://) or sqlite:/// stores")
    scheme, user, password, host_port, database, query = parts
    if scheme.split("+")[0] == "sqlite":
        path = url.strip()[len(scheme) + 3:].partition("?")[0]
        if not path.startswith("/") or path == "/":
            raise MlflowExportError(f"{STORE_URI} is not a URI of MLflow's tracking store ({masked}): a SQLite URI"
                                    " has three slashes before a relative path (sqlite:///mlflow.db) and four before"
                                    " an absolute one (sqlite:////data/mlflow.db)")
        return _open_sqlite(os.path.abspath(urllib.parse.unquote(path[1:])))
    host, _, port = host_port.rpartition(":") if ":" in host_port.rstrip("]").split("]")[-1] else (host_port, "", "")
    host = host.strip("[]")
    if port and not port.isdigit():
        raise MlflowExportError(f"{STORE_URI} is not a URI of MLflow's tracking store ({masked}): its port"
                                f" '{scrub(port)}' is not a number")
    settings = {"connect_timeout": "10", "application_name": "ragmart"}
    settings.update(urllib.parse.parse_qsl(query, keep_blank_values=True))
    if password is not None:
        settings["password"] = urllib.parse.unquote(password)
    settings.update({key: value for key, value in (("user", urllib.parse.unquote(user)),
                                                   ("host", urllib.parse.unquote(host)), ("port", port),
                                                   ("dbname", urllib.parse.unquote(database))) if value})
    import psycopg2

    try:
        connection = psycopg2.connect(**settings)
    except psycopg2.ProgrammingError as error:  # an option libpq does not know
        raise MlflowExportError(f"{STORE_URI} is not a URI of MLflow's tracking store ({masked}):"
                                f" {scrub(str(error).strip())}") from None
    except psycopg2.OperationalError as error:
        reason, where = " ".join(scrub(str(error)).split()), f"{host or 'localhost'} port {port or 5432}"
        if "refused" in reason.lower():
            raise MlflowExportError(f"cannot connect to MLflow's tracking store {masked}: the connection to {where}"
                                    f" was refused; is PostgreSQL running there, and are the host and port of"
                                    f" {STORE_URI} right?") from None
        raise MlflowExportError(f"cannot connect to MLflow's tracking store {masked} ({where}): {reason}") from None
    # psycopg2 begins the transaction with the first statement: REPEATABLE READ READ ONLY; Store.close ends it
    connection.set_session(isolation_level="REPEATABLE READ", readonly=True)
    return Store(masked, connection, "postgres", (psycopg2.Error,), scrub)


def _check_layout(store):
    """Stops when the store lacks a table or a column this model reads."""
    found = store.columns()
    if not found:
        raise MlflowExportError(f"{store.name} holds none of MLflow's tables ({', '.join(MLFLOW_COLUMNS)}): is it"
                                " MLflow's tracking store?")
    for table, columns in MLFLOW_COLUMNS.items():
        if table not in found:
            raise MlflowExportError(f"{store.name} lacks MLflow's table {table}, which ragmart reads (MLflow 3's"
                                    " layout: a store of MLflow 2 or older has no assessments)")
        missing = [column for column in columns if column not in found[table]]
        if missing:
            raise MlflowExportError(f"{store.name}: the table {table} has no column{'s' if len(missing) > 1 else ''}"
                                    f" {', '.join(missing)}, which ragmart reads (MLflow 3's layout)")


# ids a query names at once (SQLite's oldest limit of parameters is 999)
ID_CHUNK = 900


def _batches(query, column, ids):
    """(query, ids) pairs that read the rows whose `column` is one of `ids`, ID_CHUNK at a time, in id order."""
    parts = [ids[start:start + ID_CHUNK] for start in range(0, len(ids), ID_CHUNK)]
    return [(query + f" and {column} in ({', '.join('?' * len(part))}) order by {column}", tuple(part))
            for part in parts]


def _store_rows(store, chosen, known=None, read=None):
    """The rows of the experiment of an open Store, one at a time (closes the store at the end), each with
    its `read_key`: `traces:<id>`, `spans:<trace id>:<span id>` (a span and its documents),
    `assessments:<id>`. `known`: {read key: (last_update_time, is_valid)} of the spans and assessments an
    earlier build read (None: read every row); then the traces (ids, metadata and run names: a run can be
    renamed) are read whole, the spans of the traces with a span not read before (MLflow writes a span once)
    and the assessments not read before or whose last_updated_timestamp or valid flag changed since.
    `read` (a dict, when given) gets `keys`, the read key of every trace, span and assessment of the
    experiment, read or not, and the counts `spans_read`, `spans_kept`, `assessments_read`,
    `assessments_kept`. The store numbers the traces in id order (source_row); an assessment's number, its
    place by creation, is given by stg_mlflow__feedback from `created_time`."""
    name = store.name
    read = {} if read is None else read
    read.update(keys=set(), spans_read=0, spans_kept=0, assessments_read=0, assessments_kept=0)
    in_experiment = " where cast(t.experiment_id as varchar(20)) = ?"  # the traces of the experiment read
    try:
        _check_layout(store)
        experiments = {str(i): (n, False) for i, n in store.rows("select experiment_id, name from experiments")}
        for (experiment_id,) in store.rows("select distinct t.experiment_id from assessments a join trace_info t"
                                           " on a.trace_id = t.request_id where a.assessment_type = 'feedback'"):
            experiments[str(experiment_id)] = (experiments.get(str(experiment_id), (None, False))[0], True)
        experiment_id = _choose(experiments, chosen, name)
        models = dict(store.rows("select model_id, name from logged_models"))
        runs = dict(store.rows("select run_uuid, name from runs"))
        metadata = {}
        for trace_id, key, value in store.rows(
                "select m.request_id, m.key, m.value from trace_request_metadata m join trace_info t"
                " on m.request_id = t.request_id" + in_experiment +
                " and m.key in ('mlflow.modelId', 'mlflow.sourceRun', 'language', 'query_id')", experiment_id):
            metadata.setdefault(trace_id, {})[key] = value
        for number, (trace_id, client_request_id) in enumerate(store.rows(
                "select t.request_id, t.client_request_id from trace_info t" + in_experiment + " order by t.request_id",
                experiment_id), start=1):
            read["keys"].add(f"traces:{trace_id}")
            yield {**_trace_row(name, number, experiment_id, trace_id, client_request_id, metadata.get(trace_id),
                                models, runs), "read_key": f"traces:{trace_id}"}
        span_query = ("select s.trace_id, s.span_id, s.content from spans s join trace_info t on s.trace_id ="
                      " t.request_id" + in_experiment)
        if known is None:
            batches = [(span_query + " order by s.trace_id, s.span_id", ())]
        else:  # the experiment's span ids first (no content): only the traces with a span not read before
            new = set()
            for trace_id, span_id in store.rows(
                    "select s.trace_id, s.span_id from spans s join trace_info t on s.trace_id = t.request_id"
                    + in_experiment, experiment_id):
                key = f"spans:{trace_id}:{span_id}"
                read["keys"].add(key)
                if key in known:
                    read["spans_kept"] += 1
                else:
                    new.add(trace_id)
            batches = _batches(span_query, "s.trace_id", sorted(new))
        for query, ids in batches:
            for trace_id, span_id, content in store.rows(query, experiment_id, *ids):
                key = f"spans:{trace_id}:{span_id}"
                if known is not None and key in known:
                    continue  # a span of the trace read before
                read["keys"].add(key)
                read["spans_read"] += 1
                for row in _span_rows(name, None, trace_id, _json(content) or {}):
                    yield {**row, "read_key": key}
        assessment_query = (
            "select a.trace_id, a.assessment_id, a.assessment_type, a.name, a.value, a.error, a.source_type,"
            " a.source_id, a.span_id, a.rationale, a.valid, a.last_updated_timestamp, a.assessment_metadata,"
            " a.created_timestamp from assessments a join trace_info t on a.trace_id = t.request_id" + in_experiment)
        if known is None:
            batches = [(assessment_query + " order by a.assessment_id", ())]
        else:  # likewise their ids, times and valid flags first: only new assessments and those changed since
            changed = []
            for assessment_id, updated, valid in store.rows(
                    "select a.assessment_id, a.last_updated_timestamp, a.valid from assessments a join trace_info t"
                    " on a.trace_id = t.request_id" + in_experiment, experiment_id):
                key = f"assessments:{assessment_id}"
                read["keys"].add(key)
                if known.get(key) == (_iso_ms(updated), "true" if valid else "false"):
                    read["assessments_kept"] += 1
                else:
                    changed.append(assessment_id)
            batches = _batches(assessment_query, "a.assessment_id", sorted(changed))
        for query, ids in batches:
            for row in store.rows(query, experiment_id, *ids):
                (trace_id, assessment_id, kind, label, value, error, source_type, source_id, span_id, rationale, valid,
                 updated, meta, created) = row
                read["keys"].add(f"assessments:{assessment_id}")
                read["assessments_read"] += 1
                yield {**_assessment_row(name, None, trace_id, assessment_id, kind, label, _json(value),
                                         _text(error) is not None, source_type, source_id, span_id, rationale,
                                         bool(valid), _iso_ms(updated), meta),
                       "created_time": created, "read_key": f"assessments:{assessment_id}"}
    except MlflowExportError:
        raise
    except store.errors as error:
        raise MlflowExportError(f"{name}: the store cannot be read as MLflow's"
                                f" ({store.scrub(str(error).strip())})") from None
    finally:
        store.close()


# --------------------------------------------------------------------------- the exports


def _parquet_records(session, path):
    name = os.path.basename(path)
    try:
        relation = session.sql(f"select * from read_parquet('{path.replace(chr(39), chr(39) * 2)}')")
        columns = relation.columns
        return [dict(zip(columns, row)) for row in relation.fetchall()]
    except Exception as error:  # noqa: BLE001
        raise MlflowExportError(f"{name}: the file cannot be read as Parquet ({str(error).splitlines()[0]})") from None


def _trace_documents(session, path):
    """(row number, trace as a dict of the frame's columns) of a traces* file."""
    name = os.path.basename(path)
    if path.lower().endswith(".parquet"):
        yield from enumerate(_parquet_records(session, path), start=1)
        return
    opener = gzip.open if path.lower().endswith(".gz") else open
    try:
        with opener(path, "rt", encoding="utf-8-sig") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    trace = json.loads(line)
                except ValueError as error:
                    raise MlflowExportError(f"{name}: line {number} is not JSON ({error}); a traces*.jsonl file"
                                            " holds one Trace.to_json() per line") from None
                info = trace.get("info") if isinstance(trace, dict) else None
                if not isinstance(info, dict):
                    raise MlflowExportError(f"{name}: line {number} is no trace of MLflow 3 (Trace.to_json() has"
                                            " an `info` object)")
                yield number, {**info, "spans": (trace.get("data") or {}).get("spans"), "trace": trace}
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise MlflowExportError(f"{name}: the file cannot be read ({error})") from None


def _names(session, paths, key, name_column):
    names = {}
    for path in paths:
        for record in _parquet_records(session, path):
            names[_text(record.get(key))] = _text(record.get(name_column))
    return names


def _export_rows(session, files, chosen):
    models = _names(session, files["logged_models"], "model_id", "name")
    runs = _names(session, files["runs"], "run_id", "tags.mlflow.runName")
    traces = []
    for path in files["traces"]:
        name = os.path.basename(path)
        for number, record in _trace_documents(session, path):
            trace_id = _text(record.get("trace_id"))
            if trace_id is None:
                raise MlflowExportError(f"{name}: row {number} has no trace_id; is this mlflow.search_traces()'s"
                                        " frame?")
            whole = _json(record.get("trace")) or {}
            location = record.get("trace_location") or (whole.get("info") or {}).get("trace_location") or {}
            experiment = _text((_json(location) or {}).get("mlflow_experiment", {}).get("experiment_id"))
            traces.append((name, number, trace_id, experiment, record))
    experiments = {}
    for _, _, _, experiment, record in traces:
        has = any(isinstance(a, dict) and "feedback" in a for a in (_json(record.get("assessments")) or []))
        experiments[experiment or ""] = (None, experiments.get(experiment or "", (None, False))[1] or has)
    if chosen is not None and "" in experiments and len(experiments) == 1:
        experiment_id = ""  # the frame names no experiment: it is the one exported
    else:
        experiment_id = _choose(experiments, chosen, "input_path's traces files")
    for name, number, trace_id, experiment, record in traces:
        if (experiment or "") != experiment_id:
            continue
        yield _trace_row(name, number, experiment, trace_id, record.get("client_request_id"),
                         _json(record.get("trace_metadata")), models, runs)
        for span in _json(record.get("spans")) or []:
            if isinstance(span, dict):
                yield from _span_rows(name, number, trace_id, span)
        for assessment in _json(record.get("assessments")) or []:
            if not isinstance(assessment, dict):
                continue
            kind = "feedback" if "feedback" in assessment else "expectation" if "expectation" in assessment else None
            body = assessment.get(kind) or {} if kind else {}
            source = assessment.get("source") or {}
            yield _assessment_row(name, number, trace_id, assessment.get("assessment_id"), kind,
                                  assessment.get("assessment_name") or assessment.get("name"), body.get("value"),
                                  bool(body.get("error")), source.get("source_type"), source.get("source_id"),
                                  assessment.get("span_id"), assessment.get("rationale"),
                                  assessment.get("valid", True) is not False,
                                  _iso_text(assessment.get("last_update_time")), assessment.get("metadata"))


def _mlflow_files(folder):
    return sorted(entry for entry in os.listdir(folder) if not entry.startswith(".")
                  and os.path.isfile(os.path.join(folder, entry))
                  and (entry.lower().endswith(".db") or entry.lower().startswith(EXPORT_PREFIXES)))


def _find_export(folder):
    """The store file, or the export files by kind."""
    if not os.path.isdir(folder):
        raise MlflowExportError(f"input_path '{folder}' is not a folder (var input_path)")
    entries = _mlflow_files(folder)
    databases = [e for e in entries if e.lower().endswith(".db")]
    if len(databases) > 1:
        raise MlflowExportError(f"input_path '{folder}' holds several databases ({', '.join(databases)}); keep the"
                                " one MLflow store to read")
    if databases:
        return os.path.join(folder, databases[0]), None
    files = {prefix: [] for prefix in EXPORT_PREFIXES}
    for entry in entries:
        lower = entry.lower()
        prefix = next(p for p in EXPORT_PREFIXES if lower.startswith(p))
        endings = (".parquet", ".jsonl", ".jsonl.gz") if prefix == "traces" else (".parquet",)
        if not lower.endswith(endings):
            raise MlflowExportError(f"{entry}: its name makes it a {prefix} file, but ragmart reads it as "
                                    + " or ".join(endings))
        files[prefix].append(os.path.join(folder, entry))
    if not files["traces"]:
        raise MlflowExportError(
            f"input_path '{folder}' holds no MLflow store (*.db) and no traces* file (mlflow.search_traces()'s frame"
            " as .parquet, or Trace.to_json() lines as .jsonl or .jsonl.gz)")
    return None, files


def read_export(session, folder, experiment, url=None, known=None, read=None):
    """Every row of the MLflow export, an iterable: the store of `url` (MLFLOW_BACKEND_STORE_URI) when set,
    else the folder's store or export files. `known` and `read`: a store's rows read at an earlier build,
    and what this one reads (_store_rows); export files are read whole."""
    if url is not None:
        if folder is not None:
            if not os.path.isdir(folder):
                raise MlflowExportError(f"input_path '{folder}' is not a folder (var input_path)")
            found = _mlflow_files(folder)
            if found:
                raise MlflowExportError(
                    f"two MLflow sources: {STORE_URI} names the tracking store {_masked(url)}, and input_path"
                    f" '{folder}' holds an MLflow export ({', '.join(found)}); read one: unset {STORE_URI} to read"
                    " the folder, or keep only the annotators* and records* files in it")
        return _store_rows(_open_url(url), experiment, known, read)
    if folder is None:
        raise MlflowExportError(
            f"input_format 'mlflow' needs MLflow's tracking store: set {STORE_URI} to it (the --backend-store-uri of"
            " mlflow server, e.g. postgresql://user:password@host:5432/mlflow), or give the folder of its SQLite"
            " file or exported traces (make build-files INPUT=folder; the var input_path)")
    database, files = _find_export(folder)
    return _store_rows(_open_sqlite(database), experiment, known, read) if database \
        else _export_rows(session, files, experiment)


def _code_digest():
    """A digest of this reader's code as dbt runs it (its file up to what dbt appends, with this build's
    values): rows kept from an earlier build were read by the same code only when it is equal, so a new
    version of ragmart reads every row again on its first build."""
    with open(__file__, "rb") as handle:
        return hashlib.sha256(handle.read().partition(b"\n# This part is user provided model code\n")[0]).hexdigest()


def _store_name(folder, url):
    """The name of the store the build reads (as in source_file), or None for export files."""
    if url is not None:
        return _masked(url)
    if folder is None or not os.path.isdir(folder):
        return None
    databases = [e for e in _mlflow_files(folder) if e.lower().endswith(".db")]
    return databases[0] if len(databases) == 1 else None


def _stored_rows(session, this, read_with):
    """{read key: (last_update_time, is_valid)} of the spans and assessments an earlier build read from the
    same store with the same reader and settings, or None (read every row)."""
    state = session.execute(f"select read_with from {this} where row_kind = 'state'").fetchall()
    if [row[0] for row in state] != [read_with]:
        return None
    return {key: tuple(values) for key, *values in session.execute(
        f"select read_key, last_update_time, is_valid from {this} where row_kind in ('span', 'assessment')"
    ).fetchall()}


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="delete+insert", unique_key="read_key",
               on_schema_change="append_new_columns")
    folder = _setting(dbt.config.get("input_path"))
    experiment = _setting(dbt.config.get("mlflow_experiment"))
    # MLflow's own setting, read from the environment (never a dbt var: the URI holds a password)
    url = _setting(os.environ.get(STORE_URI))
    folder = os.path.abspath(folder) if folder else None
    store_name = _store_name(folder, url)
    read_with = json.dumps({"source": store_name, "experiment": experiment, "reader": _code_digest()}, sort_keys=True)
    this = str(dbt.this) if dbt.is_incremental else None
    if this and "read_key" not in {row[0] for row in session.execute(f"describe {this}").fetchall()}:
        raise MlflowExportError(f"{this} was built by an earlier version of ragmart, which kept no read keys: build"
                                " it once from scratch (dbt build --full-refresh, or make build-files FULL_REFRESH=1)")
    known = _stored_rows(session, this, read_with) if this and store_name else None
    if this and store_name and known is None:
        print(f"ragmart: every row of MLflow's store {store_name} is read again: it was not read before into this"
              " database, or with another reader or mlflow_experiment", flush=True)
    read = {}
    rows = read_export(session, folder, experiment, url, known, read)
    columns = [*COLUMNS, "created_time", "read_key"]
    work_dir = tempfile.mkdtemp(prefix="ragmart_mlflow_")
    path = os.path.join(work_dir, "export.csv")
    file_keys = set()
    try:
        with open(path, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(columns)
            for row in rows:
                if store_name is None:  # export files are read whole: their rows are replaced by file
                    row = {**row, "read_key": f"file:{row['source_file']}"}
                    file_keys.add(row["read_key"])
                writer.writerow(["" if row.get(c) is None else row[c] for c in columns])
        types = ", ".join(f"'{c}': '{'BIGINT' if c in (*INTEGER_COLUMNS, 'created_time') else 'VARCHAR'}'"
                          for c in columns)
        session.execute(
            f"create or replace temp table ragmart_mlflow_export as select * from read_csv('{path}', header = true,"
            " auto_detect = false, columns = {" + types + "}, quote = '\"', escape = '\"',"
            " max_line_size = 67108864)"
        ).fetchall()
    finally:
        os.remove(path)
        os.rmdir(work_dir)
    if store_name and known is not None:
        print(f"ragmart: MLflow's store {store_name}: {read['spans_read']} spans and {read['assessments_read']}"
              f" assessments read; {read['spans_kept']} spans and {read['assessments_kept']} assessments read at an"
              " earlier build and unchanged, not read again", flush=True)
    parts = ["select * from ragmart_mlflow_export",
             "select 'state' as row_kind, 'state' as read_key, {} as read_with".format(
                 "'" + read_with.replace("'", "''") + "'")]
    if this:  # what an earlier build read that is no longer there: one `removed` row replaces its rows
        session.execute("create or replace temp table ragmart_mlflow_keys as select unnest(?::varchar[]) as read_key",
                        [sorted(read.get("keys", set()) | file_keys)])
        gone = session.execute(
            f"select count(distinct read_key) from {this} where row_kind not in ('state', 'removed')"
            " and read_key not in (select read_key from ragmart_mlflow_keys)").fetchall()[0][0]
        if gone:
            print(f"ragmart: {gone} traces, spans, assessments or export files read at an earlier build are no longer"
                  " in the export: their rows are removed", flush=True)
            parts.append(f"select distinct 'removed' as row_kind, read_key from {this}"
                         " where row_kind not in ('state', 'removed')"
                         " and read_key not in (select read_key from ragmart_mlflow_keys)")
    return session.sql(" union all by name ".join(parts))
