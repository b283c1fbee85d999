#!/usr/bin/env python3
"""Write the Phoenix fixtures: a small Arize Phoenix database and its exports, made by a real Phoenix.

`make phoenix-fixtures` runs this script with .venv-phoenix (requirements-phoenix.txt: arize-phoenix,
its client and phoenix-otel, and asyncpg, Phoenix's PostgreSQL driver, pinned exactly) under
scripts/postgres.sh (a throwaway PostgreSQL on 127.0.0.1, its connection in the RAGMART_PG_* variables);
the project's normal test run does not need Phoenix, it reads the files this script leaves in
tests/python/fixtures/phoenix (the default of --out).

What it does:

1. Starts `phoenix serve` from this interpreter as a subprocess, with PHOENIX_WORKING_DIR set to a new
   temporary folder (so a new SQLite database), PHOENIX_HOST=127.0.0.1 and free loopback ports for HTTP
   (PHOENIX_PORT) and OTLP gRPC (PHOENIX_GRPC_PORT), telemetry, external resources and the MCP server
   off. Phoenix binds its gRPC server to `[::]` whatever PHOENIX_HOST says, so the subprocess patches
   grpc.aio's add_insecure_port to bind 127.0.0.1 instead, and the script checks that every socket the
   server listens on is a loopback one before it sends anything. The server is always stopped at the
   end (SIGINT, then SIGTERM/SIGKILL when it hangs).
2. Picks records of the project's sample (seeds/*.csv): queries answered in both runs (bot-v1 and
   bot-v2 of records.csv) whose two records have rows in all three export families and whose chunk
   ranks are 1..n; from those, in sorted query_id order, first each query that brings something not yet
   covered (LLM and CODE annotators, both languages, the adjudicator, an annotator missing from
   annotators.csv, a value that is not a boolean, a resubmission of a retrieval unit and one of a
   grounding or generation unit, a created_at that does not parse),
   then the queries with the fewest seed rows (ties in query_id order), to keep the fixtures small,
   until QUERIES queries (2 records each) are chosen; the records are listed by query_id, then run.
3. Sends one OpenTelemetry trace per record to the project `ragmart-sample` (OTLP over HTTP, through
   phoenix.otel.register): the trace id is the record_uuid's 32 hex digits (an IdGenerator of its own;
   span ids are derived from the trace id, times from a fixed clock), with OpenInference attributes: a
   CHAIN root span (input.value = the query, output.value = the answer, metadata = {"language": ...}
   when the record's rows name one), a RETRIEVER child (input.value = generated_search_query, one
   retrieval document per chunk ordered by chunk_rank, so position = rank - 1; each chunk once, from its
   first row) and an LLM child. A second project, `playground`, gets one trace and one annotation.
4. Sends the sample's labels of those records as annotations, all rows of the three families in
   created_at order (rows whose created_at does not parse first, then file order), so that a
   resubmission upserts and the last value wins as Phoenix keeps no history:
   - retrieval labels (topically_relevant, evidence_sufficient, misleading, can_answer) are document
     annotations on the RETRIEVER span at the chunk's position, through the GraphQL mutation
     `createDocumentAnnotations` (what the UI uses; it upserts on name, span, position and identifier):
     the REST endpoint /v1/document_annotations refuses a non-empty identifier;
   - grounding and generation labels are span annotations on the root span (client
     spans.log_span_annotations), except the generation labels of TRACE_ANNOTATOR, which are trace
     annotations (client traces.log_trace_annotations);
   - name = the label's column, identifier = annotator_id, annotator_kind = the annotator's kind in
     annotators.csv (HUMAN when not listed). HUMAN annotators send label "yes"/"no", LLM annotators
     label "true"/"false", score 1.0/0.0 and an explanation, CODE annotators a score alone. A value that
     is not boolean-like (docs/rules.md: true t 1 yes y / false f 0 no n) is sent as its (trimmed) text
     in `label`; an empty value is not sent. LLM and CODE annotations and trace annotations carry
     metadata {"annotator_id": ..., "source": "ragmart fixtures"}.
5. Does 1., 3. and 4. again with a second Phoenix whose database is the PostgreSQL server of the
   RAGMART_PG_* variables (PHOENIX_SQL_DATABASE_URL, and PHOENIX_SQL_DATABASE_SCHEMA=phoenix, a schema
   that must not exist yet): the same records, traces and annotations in the same order. It stops that
   Phoenix, dumps the schema with pg_dump (plain SQL, no owner and no privileges; the data of the tables
   ragmart reads, every other table empty; gzipped) and drops the schema.
6. Stops Phoenix and writes into --out:
   - db/phoenix.db: a copy of Phoenix's SQLite database (sqlite3 backup API), switched to rollback
     journal mode with 512-byte pages (SQLite's smallest) and VACUUMed, so it is small and opening it writes no -wal file;
   - parquet/ and csv/: the frames of project ragmart-sample as a user gets them: spans
     (client spans.get_spans_dataframe), span_annotations (client spans.get_span_annotations_dataframe
     of all its spans), document_annotations (GraphQL Span.documentEvaluations of every RETRIEVER span:
     span_id, document_position, name, label, score, explanation, annotator_kind, identifier, metadata,
     created_at, updated_at) and trace_annotations (REST /v1/projects/{project}/trace_annotations shaped
     as the client shapes span annotations: `result` flattened, `name` renamed annotation_name, indexed
     by trace_id), each written with pandas' defaults: df.to_parquet(path) and df.to_csv(path);
   - postgres/phoenix.sql.gz: the pg_dump of 5. (tests/python/test_phoenix.py restores it into the test kit's
     PostgreSQL and reads it where it is, as a production Phoenix's database);
   - in each of db/, postgres/, parquet/ and csv/: records.csv (record_uuid as the 32-hex trace id, run_id,
     query_id) and annotators.csv (the sample's adjudicator rows: Phoenix has no roles);
   - manifest.json: the versions used, the chosen records, counts and the generation date.

Everything but what Phoenix stamps itself (row ids, created_at/updated_at) and the manifest's date is
the same from one run to the next.

Usage (from the project root; `make phoenix-fixtures` does this):
    scripts/postgres.sh run .venv-phoenix/bin/python scripts/make_phoenix_fixtures.py [--out tests/python/fixtures/phoenix]
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from export_data import read_boolean, read_timestamp
from fixture_sample import (
    FAMILIES,
    FixtureError,
    LocalServer,
    SampleRecord,
    annotated_rows,
    chosen_sample,
    free_port,
    kind_of,
    publish,
    read_seed,
    run,
    version,
    write_side_files,
)

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = "tests/python/fixtures/phoenix"

PROJECT_NAME = "ragmart-sample"
PLAYGROUND_PROJECT = "playground"
RUNS = ("bot-v1", "bot-v2")
QUERIES = 12  # two records each: 24 traces
# The one HUMAN annotator whose generation labels go to Phoenix as trace annotations.
TRACE_ANNOTATOR = "k.oezdemir"
METADATA_SOURCE = "ragmart fixtures"
# The spans' clock: trace i starts at CLOCK_START + i * CLOCK_STEP.
CLOCK_START = dt.datetime(2025, 3, 1, 8, 0, tzinfo=dt.UTC)
CLOCK_STEP = dt.timedelta(minutes=5)

FRAMES = ("spans", "span_annotations", "document_annotations", "trace_annotations")
# The PostgreSQL run: Phoenix's schema, and the tables ragmart reads (their rows are dumped, the other
# tables' definitions alone).
PG_SCHEMA = "phoenix"
READ_TABLES = ("projects", "traces", "spans", "span_annotations", "document_annotations", "trace_annotations",
               "alembic_version")

# Run in the server's interpreter: Phoenix's gRPC server binds "[::]:<port>" whatever PHOENIX_HOST is;
# this makes it bind the loopback address, then starts `phoenix serve`.
SERVER_BOOTSTRAP = """
import sys
import grpc.aio

_make_server = grpc.aio.server


def _loopback_server(*args, **kwargs):
    server = _make_server(*args, **kwargs)
    add_insecure_port = server.add_insecure_port
    server.add_insecure_port = lambda address: add_insecure_port(address.replace("[::]", "127.0.0.1", 1))
    return server


grpc.aio.server = _loopback_server
from phoenix.server.main import main

sys.argv = ["phoenix", "serve"]
main()
"""


# --------------------------------------------------------------------------------------------- seeds


def features(record: SampleRecord, annotators: dict[str, dict[str, str]]) -> set[str]:
    found: set[str] = set()
    seen: set[tuple] = set()
    for family, labels, row, annotator_id, kind in annotated_rows(record, annotators):
        found.add("kind:" + kind)
        if annotator_id not in annotators:
            found.add("unlisted_annotator")
        elif annotators[annotator_id]["role"].strip().lower() == "adjudicator":
            found.add("adjudicator")
        if row["language"].strip():
            found.add("language:" + row["language"].strip())
        if read_timestamp(row["created_at"]) is None:
            found.add("invalid_created_at")
        if any(row[label].strip() and read_boolean(row[label]) is None for label in labels):
            found.add("invalid_value")
        unit = (family, annotator_id, row["chunk_id"] if family == "retrieval" else "")
        if unit in seen:
            found.add("resubmission:" + ("document" if family == "retrieval" else "span"))
        seen.add(unit)
    return found


# The features the chosen queries must show between them.
WANTED = {
    "kind:LLM", "kind:CODE", "kind:HUMAN", "language:de", "language:en", "adjudicator", "unlisted_annotator",
    "invalid_value", "invalid_created_at", "resubmission:document", "resubmission:span",
}


# -------------------------------------------------------------------------------------------- server


class PhoenixServer(LocalServer):
    """`phoenix serve` on loopback ports with its database in `working_dir`; a context manager."""

    name = "Phoenix"
    health_path = "/healthz"
    ready_timeout = 180.0

    def __init__(self, working_dir: Path, database: dict[str, str] | None = None) -> None:
        super().__init__(working_dir.parent / "phoenix-server.log")
        self.working_dir = working_dir
        self.database = database or {}  # PHOENIX_SQL_DATABASE_*; none: SQLite in working_dir
        self.grpc_port = free_port()
        while self.grpc_port == self.port:
            self.grpc_port = free_port()

    def ports(self) -> set[int]:
        return {self.port, self.grpc_port}

    def start(self) -> tuple[list[str], dict[str, str], None]:
        env = {key: value for key, value in os.environ.items() if not key.startswith(("PHOENIX_", "OTEL_"))}
        env.update(
            PHOENIX_WORKING_DIR=str(self.working_dir),
            PHOENIX_HOST="127.0.0.1",
            PHOENIX_PORT=str(self.port),
            PHOENIX_GRPC_PORT=str(self.grpc_port),
            PHOENIX_TELEMETRY_ENABLED="false",
            PHOENIX_ALLOW_EXTERNAL_RESOURCES="false",
            PHOENIX_ENABLE_MCP_SERVER="false",
            PHOENIX_ENABLE_AUTH="false",
            **self.database,
        )
        return [sys.executable, "-c", SERVER_BOOTSTRAP], env, None


def graphql(url: str, query: str, variables: dict | None = None) -> dict:
    import httpx

    response = httpx.post(f"{url}/graphql", json={"query": query, "variables": variables or {}}, timeout=60)
    response.raise_for_status()
    payload = response.json()
    if payload.get("errors"):
        raise FixtureError(f"GraphQL errors: {payload['errors']}")
    return payload["data"]


# ---------------------------------------------------------------------------------------------- traces


def make_id_generator():
    from opentelemetry.sdk.trace.id_generator import IdGenerator

    class RecordIdGenerator(IdGenerator):
        """The trace id set by `use` (a record's uuid); span ids derived from it, in order of creation."""

        def __init__(self) -> None:
            self.trace_id = 0
            self.count = 0

        def use(self, trace_hex: str) -> None:
            self.trace_id = int(trace_hex, 16)
            self.count = 0

        def generate_trace_id(self) -> int:
            return self.trace_id

        def generate_span_id(self) -> int:
            self.count += 1
            digest = hashlib.sha256(f"{self.trace_id:032x}/{self.count}".encode()).digest()
            return int.from_bytes(digest[:8], "big") or 1

    return RecordIdGenerator()


def nanos(moment: dt.datetime) -> int:
    return int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1_000


@dataclass
class Trace:
    record: SampleRecord
    root_span_id: str = ""
    retriever_span_id: str = ""
    llm_span_id: str = ""
    positions: dict[str, int] = field(default_factory=dict)  # chunk_id -> document position


def tracer_provider(server: PhoenixServer, project_name: str, id_generator):
    from phoenix.otel import register

    return register(
        endpoint=f"{server.url}/v1/traces", project_name=project_name, batch=False, set_global_tracer_provider=False,
        verbose=False, id_generator=id_generator,
    )


def span_hex(span) -> str:
    return f"{span.get_span_context().span_id:016x}"


def send_traces(server: PhoenixServer, records: list[SampleRecord]) -> list[Trace]:
    from opentelemetry.trace import Status, StatusCode, set_span_in_context

    id_generator = make_id_generator()
    provider = tracer_provider(server, PROJECT_NAME, id_generator)
    tracer = provider.get_tracer("ragmart.fixtures")
    traces = []
    for index, record in enumerate(records):
        trace = Trace(record)
        id_generator.use(record.trace_id)
        start = CLOCK_START + index * CLOCK_STEP
        documents = record.documents()
        trace.positions = {row["chunk_id"]: position for position, row in enumerate(documents)}
        root_attributes = {
            "openinference.span.kind": "CHAIN",
            "input.value": record.query,
            "input.mime_type": "text/plain",
            "output.value": record.answer,
            "output.mime_type": "text/plain",
        }
        if record.language:
            root_attributes["metadata"] = json.dumps({"language": record.language})
        root = tracer.start_span("rag_pipeline", attributes=root_attributes, start_time=nanos(start))
        context = set_span_in_context(root)
        retriever_attributes = {
            "openinference.span.kind": "RETRIEVER",
            "input.value": record.first("retrieval", "generated_search_query"),
            "input.mime_type": "text/plain",
        }
        for position, row in enumerate(documents):
            prefix = f"retrieval.documents.{position}.document"
            retriever_attributes[f"{prefix}.id"] = row["chunk_id"]
            retriever_attributes[f"{prefix}.content"] = row["chunk"]
            retriever_attributes[f"{prefix}.metadata"] = json.dumps({"doc_id": row["doc_id"]})
        retriever = tracer.start_span(
            "retrieve", context=context, attributes=retriever_attributes, start_time=nanos(start + dt.timedelta(milliseconds=100))
        )
        retriever.set_status(Status(StatusCode.OK))
        retriever.end(end_time=nanos(start + dt.timedelta(milliseconds=400)))
        llm = tracer.start_span(
            "generate",
            context=context,
            attributes={
                "openinference.span.kind": "LLM",
                "llm.model_name": record.run_id,
                "input.value": record.query,
                "input.mime_type": "text/plain",
                "output.value": record.answer,
                "output.mime_type": "text/plain",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": record.query,
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": record.answer,
            },
            start_time=nanos(start + dt.timedelta(milliseconds=500)),
        )
        llm.set_status(Status(StatusCode.OK))
        llm.end(end_time=nanos(start + dt.timedelta(milliseconds=2300)))
        root.set_status(Status(StatusCode.OK))
        root.end(end_time=nanos(start + dt.timedelta(milliseconds=2500)))
        trace.root_span_id, trace.retriever_span_id, trace.llm_span_id = span_hex(root), span_hex(retriever), span_hex(llm)
        traces.append(trace)
    provider.force_flush()
    provider.shutdown()
    return traces


def send_playground(server: PhoenixServer) -> str:
    """One trace in project `playground`; returns its span id."""
    from opentelemetry.trace import Status, StatusCode

    id_generator = make_id_generator()
    id_generator.use(uuid.uuid5(uuid.NAMESPACE_URL, "ragmart/phoenix-fixtures/playground").hex)
    provider = tracer_provider(server, PLAYGROUND_PROJECT, id_generator)
    start = CLOCK_START - dt.timedelta(hours=1)
    span = provider.get_tracer("ragmart.fixtures").start_span(
        "playground_chat",
        attributes={
            "openinference.span.kind": "LLM",
            "llm.model_name": "playground",
            "input.value": "Wie hoch ist der BAföG-Höchstsatz?",
            "output.value": "Der Förderungshöchstbetrag liegt bei 934 Euro.",
        },
        start_time=nanos(start),
    )
    span.set_status(Status(StatusCode.OK))
    span.end(end_time=nanos(start + dt.timedelta(seconds=1)))
    provider.force_flush()
    provider.shutdown()
    return span_hex(span)


def wait_for_spans(server: PhoenixServer, span_ids: list[str], timeout: float = 120.0) -> dict[str, str]:
    """Phoenix ingests spans from a queue: wait until each is in the database; their GraphQL node ids."""
    query = "query($spanId: String!) { getSpanByOtelId(spanId: $spanId) { id numDocuments } }"
    node_ids: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    for span_id in span_ids:
        while True:
            span = graphql(server.url, query, {"spanId": span_id})["getSpanByOtelId"]
            if span:
                node_ids[span_id] = span["id"]
                break
            if time.monotonic() > deadline:
                raise FixtureError(f"span {span_id} did not reach Phoenix within {timeout:.0f} s")
            time.sleep(0.25)
    return node_ids


# ----------------------------------------------------------------------------------------- annotations


def annotation_value(text: str, kind: str) -> dict | None:
    """label/score per the annotator's kind; a non-boolean value as its text in label; None if empty."""
    if not text.strip():
        return None
    parsed = read_boolean(text)
    if parsed is None:
        return {"label": text.strip()}
    if kind == "HUMAN":
        return {"label": "yes" if parsed else "no"}
    if kind == "LLM":
        return {"label": "true" if parsed else "false", "score": float(parsed)}
    return {"score": float(parsed)}


def explanation(row: dict[str, str], name: str, value: dict) -> str:
    note = row.get("notes", "").strip()
    return note or f"{row['annotator_id'].strip()} judged {name} = {value.get('label')}"


CREATE_DOCUMENT_ANNOTATIONS = """
mutation($input: [CreateDocumentAnnotationInput!]!) {
  createDocumentAnnotations(input: $input) { documentAnnotations { id } }
}
"""


def send_annotations(server: PhoenixServer, traces: list[Trace], node_ids: dict[str, str], annotators) -> dict[str, int]:
    from phoenix.client import Client

    client = Client(base_url=server.url)
    by_uuid = {trace.record.uuid: trace for trace in traces}
    rows = [
        (family, line, row, by_uuid[row["record_uuid"].strip()])
        for trace in traces
        for family in FAMILIES
        for line, row in trace.record.rows[family]
    ]
    family_order = list(FAMILIES)

    def order(item):
        family, line, row, _ = item
        moment = read_timestamp(row["created_at"])
        return (moment is not None, moment or dt.datetime.min.replace(tzinfo=dt.UTC), family_order.index(family), line)

    sent = {"document": 0, "span": 0, "trace": 0}
    for family, _, row, trace in sorted(rows, key=order):
        annotator_id = row["annotator_id"].strip()
        kind = kind_of(annotator_id, annotators)
        meta = {"annotator_id": annotator_id, "source": METADATA_SOURCE} if kind != "HUMAN" else {}
        values = []
        for name in FAMILIES[family][1]:
            value = annotation_value(row[name], kind)
            if value is None:
                continue
            if kind == "LLM":
                value["explanation"] = explanation(row, name, value)
            values.append((name, value))
        if not values:
            continue
        if family == "retrieval":
            position = trace.positions[row["chunk_id"]]
            annotations = [
                {
                    "spanId": node_ids[trace.retriever_span_id],
                    "documentPosition": position,
                    "name": name,
                    "annotatorKind": kind,
                    "label": value.get("label"),
                    "score": value.get("score"),
                    "explanation": value.get("explanation"),
                    "metadata": meta,
                    "source": "API",
                    "identifier": annotator_id,
                }
                for name, value in values
            ]
            graphql(server.url, CREATE_DOCUMENT_ANNOTATIONS, {"input": annotations})
            sent["document"] += len(annotations)
        elif family == "generation" and annotator_id == TRACE_ANNOTATOR:
            annotations = [
                {
                    "name": name,
                    "annotator_kind": kind,
                    "trace_id": trace.record.trace_id,
                    "result": value,
                    "metadata": {"annotator_id": annotator_id, "source": METADATA_SOURCE},
                    "identifier": annotator_id,
                }
                for name, value in values
            ]
            client.traces.log_trace_annotations(trace_annotations=annotations, sync=True)
            sent["trace"] += len(annotations)
        else:
            annotations = [
                {
                    "name": name,
                    "annotator_kind": kind,
                    "span_id": trace.root_span_id,
                    "result": value,
                    "identifier": annotator_id,
                    **({"metadata": meta} if meta else {}),
                }
                for name, value in values
            ]
            client.spans.log_span_annotations(span_annotations=annotations, sync=True)
            sent["span"] += len(annotations)
    return sent


# --------------------------------------------------------------------------------------------- frames


DOCUMENT_EVALUATIONS = """
query($spanId: String!) {
  getSpanByOtelId(spanId: $spanId) {
    spanId
    documentEvaluations {
      documentPosition name label score explanation annotatorKind identifier metadata createdAt updatedAt
    }
  }
}
"""


def frames(server: PhoenixServer, traces: list[Trace]) -> dict:
    import httpx
    import pandas as pd
    from phoenix.client import Client

    client = Client(base_url=server.url)
    spans = client.spans.get_spans_dataframe(project_identifier=PROJECT_NAME, limit=10_000)
    span_annotations = client.spans.get_span_annotations_dataframe(
        spans_dataframe=spans, project_identifier=PROJECT_NAME, limit=1000
    )
    documents = []
    for trace in traces:
        span = graphql(server.url, DOCUMENT_EVALUATIONS, {"spanId": trace.retriever_span_id})["getSpanByOtelId"]
        for evaluation in span["documentEvaluations"]:
            documents.append(
                {
                    "span_id": span["spanId"],
                    "document_position": evaluation["documentPosition"],
                    "name": evaluation["name"],
                    "label": evaluation["label"],
                    "score": evaluation["score"],
                    "explanation": evaluation["explanation"],
                    "annotator_kind": evaluation["annotatorKind"],
                    "identifier": evaluation["identifier"],
                    "metadata": evaluation["metadata"],
                    "created_at": evaluation["createdAt"],
                    "updated_at": evaluation["updatedAt"],
                }
            )
    document_annotations = pd.DataFrame(documents)
    # Trace annotations as the client shapes span annotations (its get_span_annotations_dataframe).
    data, cursor = [], None
    while True:
        params = {"trace_ids": [trace.record.trace_id for trace in traces], "limit": 1000}
        if cursor:
            params["cursor"] = cursor
        response = httpx.get(f"{server.url}/v1/projects/{PROJECT_NAME}/trace_annotations", params=params, timeout=60)
        response.raise_for_status()
        payload = response.json()
        data.extend(payload["data"])
        if not (cursor := payload.get("next_cursor")):
            break
    trace_annotations = pd.DataFrame(data)
    result = pd.json_normalize(trace_annotations["result"]).rename(columns=lambda column: f"result.{column}")
    trace_annotations = pd.concat([trace_annotations.drop(columns=["result"]), result], axis=1)
    trace_annotations = trace_annotations.rename(columns={"name": "annotation_name"}).set_index("trace_id")
    return {
        "spans": spans,
        "span_annotations": span_annotations,
        "document_annotations": document_annotations,
        "trace_annotations": trace_annotations,
    }


# --------------------------------------------------------------------------------------------- output


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy (backup API), in rollback-journal mode with 512-byte pages (SQLite's smallest), VACUUMed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
        dst.execute("PRAGMA page_size=512")
        dst.execute("VACUUM")
        dst.commit()
    finally:
        src.close()
        dst.close()


def database_counts(path: Path) -> dict:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        one = lambda sql: connection.execute(sql).fetchone()[0]  # noqa: E731
        return {
            "projects": one("SELECT count(*) FROM projects"),
            "traces": one("SELECT count(*) FROM traces"),
            "spans": one("SELECT count(*) FROM spans"),
            "spans_by_kind": dict(connection.execute("SELECT span_kind, count(*) FROM spans GROUP BY 1 ORDER BY 1")),
            "span_annotations": one("SELECT count(*) FROM span_annotations"),
            "document_annotations": one("SELECT count(*) FROM document_annotations"),
            "trace_annotations": one("SELECT count(*) FROM trace_annotations"),
        }


# ------------------------------------------------------------------------------------------ PostgreSQL


@dataclass
class Postgres:
    """The PostgreSQL server of the RAGMART_PG_* variables (scripts/postgres.sh)."""

    host: str
    port: str
    user: str
    password: str
    database: str

    @classmethod
    def from_environment(cls) -> Postgres:
        names = ("HOST", "PORT", "USER", "PASSWORD", "DATABASE")
        missing = [f"RAGMART_PG_{name}" for name in names if not os.environ.get(f"RAGMART_PG_{name}")]
        if missing:
            raise FixtureError(f"no PostgreSQL server for the second Phoenix ({', '.join(missing)} unset): run"
                               " the script through scripts/postgres.sh run, as make phoenix-fixtures does")
        return cls(*(os.environ[f"RAGMART_PG_{name}"] for name in names))

    def url(self) -> str:
        return f"postgresql://{self.user}:{self.password}@{self.host}:{self.port}/{self.database}"

    def tool(self, name: str) -> str:
        """psql or pg_dump: on PATH, else the newest of Debian's server folders."""
        found = shutil.which(name) or next(iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                                                        key=lambda path: int(path.parts[-3]), reverse=True)), None)
        if not found:
            raise FixtureError(f"{name} is not installed (Debian's postgresql-client)")
        return str(found)

    def run(self, name: str, *args: str) -> str:
        env = dict(os.environ, PGPASSWORD=self.password)
        command = [self.tool(name), "-h", self.host, "-p", self.port, "-U", self.user, "-d", self.database, *args]
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise FixtureError(f"{name} failed: {result.stderr.strip()}")
        return result.stdout

    def sql(self, query: str) -> str:
        return self.run("psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-c", query).strip()


def postgres_counts(pg: Postgres) -> dict:
    one = lambda table: int(pg.sql(f"select count(*) from {PG_SCHEMA}.{table}"))  # noqa: E731
    by_kind = pg.sql(f"select span_kind || '=' || count(*) from {PG_SCHEMA}.spans group by span_kind order by 1")
    return {
        "projects": one("projects"),
        "traces": one("traces"),
        "spans": one("spans"),
        "spans_by_kind": {kind: int(n) for kind, n in (line.split("=") for line in by_kind.splitlines())},
        "span_annotations": one("span_annotations"),
        "document_annotations": one("document_annotations"),
        "trace_annotations": one("trace_annotations"),
    }


def dump_postgres(pg: Postgres, target: Path) -> None:
    """Phoenix's schema as plain SQL, gzipped: every table's definition, the rows of READ_TABLES only."""
    tables = pg.sql(f"select table_name from information_schema.tables where table_schema = '{PG_SCHEMA}'"
                    " and table_type = 'BASE TABLE' order by 1").splitlines()
    skipped = [f"--exclude-table-data={PG_SCHEMA}.{table}" for table in tables if table not in READ_TABLES]
    target.parent.mkdir(parents=True, exist_ok=True)
    dump = pg.run("pg_dump", f"--schema={PG_SCHEMA}", "--no-owner", "--no-privileges", "--no-comments",
                  "--no-tablespaces", *skipped)
    # gzip (without a time stamp): small, and no `.sql` file that dbt would take for a data test
    target.write_bytes(gzip.compress(dump.encode("utf-8"), mtime=0))


# --------------------------------------------------------------------------------------------- main


def serve(server: PhoenixServer, chosen: list[SampleRecord], annotators, *, with_frames: bool):
    """Send the chosen records' traces and annotations (and the playground's) to a Phoenix; its frames."""
    with server:
        print(f"Phoenix {version('arize-phoenix')} up at {server.url} (gRPC {server.grpc_port})"
              f" on {'PostgreSQL' if server.database else 'SQLite'}", flush=True)
        traces = send_traces(server, chosen)
        playground_span = send_playground(server)
        span_ids = [s for t in traces for s in (t.root_span_id, t.retriever_span_id, t.llm_span_id)]
        node_ids = wait_for_spans(server, [*span_ids, playground_span])
        sent = send_annotations(server, traces, node_ids, annotators)
        from phoenix.client import Client

        Client(base_url=server.url).spans.add_span_annotation(
            span_id=playground_span, annotation_name="helpful", annotator_kind="HUMAN", label="yes",
            identifier="a.schaefer", sync=True,
        )
        print(f"sent {sent} annotations", flush=True)
        return sent, frames(server, traces) if with_frames else None


def main(argv: list[str] | None = None) -> int:
    out, annotators, chosen = chosen_sample(argv, __doc__, DEFAULT_OUT, RUNS, QUERIES, features, WANTED)
    adjudicators = [row for row in read_seed("annotators.csv") if row["role"].strip().lower() == "adjudicator"]
    pg = Postgres.from_environment()
    if pg.sql(f"select count(*) from information_schema.schemata where schema_name = '{PG_SCHEMA}'") != "0":
        raise FixtureError(f"the schema {PG_SCHEMA} exists in database {pg.database} on {pg.host}:{pg.port}: the"
                           " second Phoenix needs a new one; drop it first")

    with tempfile.TemporaryDirectory(prefix="ragmart-phoenix-") as temp:
        working_dir = Path(temp) / "phoenix"
        working_dir.mkdir()
        sent, exported = serve(PhoenixServer(working_dir), chosen, annotators, with_frames=True)

        staging = out.with_name(out.name + ".new")
        shutil.rmtree(staging, ignore_errors=True)
        copy_database(working_dir / "phoenix.db", staging / "db" / "phoenix.db")
        for name, frame in exported.items():
            (staging / "parquet").mkdir(parents=True, exist_ok=True)
            (staging / "csv").mkdir(parents=True, exist_ok=True)
            frame.to_parquet(staging / "parquet" / f"{name}.parquet")
            frame.to_csv(staging / "csv" / f"{name}.csv")

        pg_working_dir = Path(temp) / "phoenix-postgres"
        pg_working_dir.mkdir()
        database = {"PHOENIX_SQL_DATABASE_URL": pg.url(), "PHOENIX_SQL_DATABASE_SCHEMA": PG_SCHEMA}
        try:
            pg_sent, _ = serve(PhoenixServer(pg_working_dir, database), chosen, annotators, with_frames=False)
            if pg_sent != sent:
                raise FixtureError(f"the two Phoenix servers were sent different annotations: {sent} and {pg_sent}")
            dump_postgres(pg, staging / "postgres" / "phoenix.sql.gz")
            pg_counts = postgres_counts(pg)
            server_version = pg.sql("show server_version")
        finally:
            pg.sql(f"drop schema if exists {PG_SCHEMA} cascade")

        for folder in ("db", "postgres", "parquet", "csv"):
            write_side_files(staging / folder, [(record.trace_id, record.run_id, record.query_id) for record in chosen],
                             adjudicators)
        counts = database_counts(staging / "db" / "phoenix.db")
        if pg_counts != counts:
            raise FixtureError(f"the PostgreSQL database holds other counts than the SQLite one: {pg_counts}, {counts}")
        manifest = {
            "generated_on": dt.datetime.now(dt.UTC).date().isoformat(),
            "generator": "scripts/make_phoenix_fixtures.py",
            "versions": {
                package: version(package)
                for package in ("arize-phoenix", "arize-phoenix-client", "arize-phoenix-otel", "asyncpg", "pandas",
                                "pyarrow")
            } | {"postgresql": server_version},
            "projects": [PROJECT_NAME, PLAYGROUND_PROJECT],
            "records": [
                {"record_uuid": record.trace_id, "run_id": record.run_id, "query_id": record.query_id} for record in chosen
            ],
            "trace_annotator": TRACE_ANNOTATOR,
            "sent": {"document_annotations": sent["document"], "span_annotations": sent["span"] + 1,
                     "trace_annotations": sent["trace"]},
            "database": counts,
            "postgres": {"dump": "postgres/phoenix.sql.gz", "schema": PG_SCHEMA, "database": pg_counts},
            "frames": {name: len(frame) for name, frame in exported.items()},
        }
        publish(staging, out, manifest, counts)
    return 0


if __name__ == "__main__":
    run(main)
