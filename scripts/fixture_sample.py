"""What the fixture scripts share (scripts/make_phoenix_fixtures.py, scripts/make_label_studio_fixtures.py).

The project's sample seeds read as the scripts send them to a tool: the families and their labels
(from the task spec, export_schema.py), the sample's records and their rows, the records chosen; the
files written beside a tool's exports (records.csv, annotators.csv, through export_schema's writer);
the tool's server as a subprocess on loopback ports (LocalServer: started, awaited, checked to listen
on loopback only, stopped); the error the scripts report as `error: ...`. The cells are read by
export_data.py (booleans, ISO 8601 times, ranks). Standard library only besides PyYAML and psutil,
which both tools install: each script runs in the venv of its tool.
"""

from __future__ import annotations

import argparse
import csv
import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata as importlib_metadata
from pathlib import Path

from export_data import read_rank  # scripts/, beside this file
from export_schema import COLUMNS, FILES, LABELS, SPEC, TASKS, write_csv

PROJECT = Path(__file__).resolve().parent.parent
SEEDS = PROJECT / "seeds"

# The tasks of the task spec: the export of each and the labels the scripts send to a tool (the
# labels, then the optional booleans: can_answer of retrieval).
FAMILIES = {
    task: (FILES[task], (*LABELS[task], *SPEC[task]["optional_booleans"])) for task in TASKS
}


class FixtureError(Exception):
    """A problem with the seeds, the server or the outputs, reported as `error: ...`."""


def read_seed(name: str) -> list[dict[str, str]]:
    with open(SEEDS / name, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def kind_of(annotator_id: str, annotators: dict[str, dict[str, str]]) -> str:
    row = annotators.get(annotator_id.strip())
    return row["annotator_kind"].strip().upper() if row else "HUMAN"


# ------------------------------------------------------------------------ the sample's records


@dataclass
class SampleRecord:
    """A record of the sample (a row of records.csv) with its rows of each export, by line."""

    uuid: str  # as in the seeds, with dashes
    run_id: str
    query_id: str
    task_type: str
    rows: dict[str, list[tuple[int, dict[str, str]]]] = field(default_factory=lambda: defaultdict(list))

    @property
    def trace_id(self) -> str:
        """The uuid as 32 hex digits (a trace id of Phoenix's spans)."""
        return uuid.UUID(self.uuid).hex

    def first(self, family: str, column: str, rows=None) -> str:
        """The first non-blank value of a column among rows of a family ('' if none)."""
        rows = self.rows[family] if rows is None else rows
        return next((row[column] for _, row in rows if row[column].strip()), "")

    @property
    def query(self) -> str:
        return self.first("retrieval", "input_query") or self.first("grounding", "query") or self.first("generation", "query")

    @property
    def answer(self) -> str:
        return self.first("grounding", "answer") or self.first("generation", "answer")

    @property
    def language(self) -> str:
        for family in FAMILIES:
            if value := self.first(family, "language").strip():
                return value
        return ""

    def documents(self) -> list[dict[str, str]]:
        """Each chunk once (its first row), ordered by chunk_rank; [] when ranks are not 1..n."""
        chunks: dict[str, dict[str, str]] = {}
        for _, row in self.rows["retrieval"]:
            chunks.setdefault(row["chunk_id"].strip(), row)
        ranked = sorted(chunks.values(), key=lambda row: read_rank(row["chunk_rank"]) or 0)
        if [read_rank(row["chunk_rank"]) for row in ranked] != list(range(1, len(ranked) + 1)):
            return []
        return ranked


def annotated_rows(record: SampleRecord, annotators: dict[str, dict[str, str]]):
    """Each row of a record, family by family in line order: (family, the labels the scripts send,
    the row, its trimmed annotator_id, the annotator's kind)."""
    for family, (_, labels) in FAMILIES.items():
        for _, row in record.rows[family]:
            annotator_id = row["annotator_id"].strip()
            yield family, labels, row, annotator_id, kind_of(annotator_id, annotators)


def load_sample(runs: tuple[str, ...]) -> tuple[dict[str, SampleRecord], dict[str, dict[str, str]]]:
    """The sample's records of ``runs`` that records.csv lists once with a query_id, with their
    rows, and the annotators by id."""
    annotators = {row["annotator_id"].strip(): row for row in read_seed("annotators.csv")}
    listed = read_seed("records.csv")
    counts = defaultdict(int)
    for row in listed:
        counts[row["record_uuid"].strip()] += 1
    records = {
        row["record_uuid"].strip(): SampleRecord(
            row["record_uuid"].strip(), row["run_id"].strip(), row["query_id"].strip(), row["task_type"].strip()
        )
        for row in listed
        if counts[row["record_uuid"].strip()] == 1 and row["run_id"].strip() in runs and row["query_id"].strip()
    }
    for family, (file_name, _) in FAMILIES.items():
        for line, row in enumerate(read_seed(file_name), start=2):
            if (record := records.get(row["record_uuid"].strip())) is not None:
                record.rows[family].append((line, row))
    return records, annotators


def eligible(record: SampleRecord) -> bool:
    """A record a tool can show: rows of every family with annotator ids, chunks ranked 1..n, a
    query and an answer."""
    return (
        all(record.rows[family] for family in FAMILIES)
        and bool(record.documents())
        and all(row["annotator_id"].strip() for family in FAMILIES for _, row in record.rows[family])
        and bool(record.query and record.answer)
    )


def choose_records(records: dict[str, SampleRecord], runs: tuple[str, ...], queries: int,
                   features: Callable[[SampleRecord], set[str]], wanted: set[str]) -> list[SampleRecord]:
    """``queries`` queries with an eligible record in each of ``runs``: first, one at a time, the
    query adding the most of the ``wanted`` features (then the smallest), then the smallest; their
    records by query and run. Stops when the sample cannot cover ``wanted``."""
    by_query: dict[str, dict[str, SampleRecord]] = defaultdict(dict)
    for record in records.values():
        by_query[record.query_id][record.run_id] = record
    candidates = sorted(
        query_id for query_id, by_run in by_query.items()
        if set(by_run) == set(runs) and all(map(eligible, by_run.values()))
    )

    def size(query_id: str) -> int:
        return sum(len(record.rows[family]) for record in by_query[query_id].values() for family in FAMILIES)

    found = {query_id: set().union(*map(features, by_query[query_id].values())) & wanted for query_id in candidates}
    chosen: list[str] = []
    covered: set[str] = set()
    while wanted - covered and len(chosen) < queries:
        best = min(candidates, key=lambda query_id: (-len(found[query_id] - covered), size(query_id), query_id))
        if not found[best] - covered:
            break
        chosen.append(best)
        covered |= found[best]
    for query_id in sorted(candidates, key=lambda query_id: (size(query_id), query_id)):
        if len(chosen) >= queries:
            break
        if query_id not in chosen:
            chosen.append(query_id)
    if len(chosen) < queries or wanted - covered:
        raise FixtureError(f"the sample has too few eligible queries or lacks {sorted(wanted - covered)}")
    print(f"chose {len(chosen) * len(runs)} records of {len(chosen)} queries", flush=True)
    return [by_query[query_id][run] for query_id in sorted(chosen) for run in runs]


def chosen_sample(argv: list[str] | None, doc: str, default_out: str, runs: tuple[str, ...], queries: int,
                  features: Callable[[SampleRecord, dict], set[str]], wanted: set[str]):
    """What a fixture script starts from: its fixture folder (``out_folder``), the sample's
    annotators by id and the records it sends (``choose_records``, by ``features(record,
    annotators)``)."""
    out = out_folder(argv, doc.split("\n\n")[0], default_out)
    records, annotators = load_sample(runs)
    chosen = choose_records(records, runs, queries, lambda record: features(record, annotators), wanted)
    return out, annotators, chosen


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def is_loopback(ip: str) -> bool:
    """127.0.0.0/8, ::1 or an IPv4-mapped loopback address (gRPC binds 127.0.0.1 as ::ffff:127.0.0.1)."""
    address = ipaddress.ip_address(ip)
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


class LocalServer:
    """A tool's server as a subprocess on loopback ports; a context manager. A subclass gives the
    tool's `name`, `health_path` and `start()` (the command, its environment and folder); entering
    starts it, waits until `health_path` answers 200, and stops it unless every socket the server and
    its children listen on is a loopback one and its ports are among them (nothing is sent before);
    leaving stops it, and prints the end of its log when the work inside failed."""

    name = "the server"
    health_path = "/"
    ready_timeout = 300.0

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> tuple[list[str], dict[str, str], Path | None]:
        raise NotImplementedError

    def ports(self) -> set[int]:
        return {self.port}

    def __enter__(self):
        command, env, cwd = self.start()
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=cwd
            )
        try:
            self.wait_ready()
            self.check_loopback()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.stop()
        if exc_type is not None and (log := self.log_tail()):
            print(f"--- end of the {self.name} log ---\n{log}", file=sys.stderr)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise FixtureError(f"{self.name} exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}{self.health_path}", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.5)
        raise FixtureError(f"{self.name} did not answer within {self.ready_timeout:.0f} s:\n{self.log_tail()}")

    def check_loopback(self) -> None:
        import psutil

        parent = psutil.Process(self.process.pid)
        listening = [
            conn.laddr
            for process in (parent, *parent.children(recursive=True))
            for conn in process.net_connections(kind="inet")
            if conn.status == psutil.CONN_LISTEN
        ]
        if missing := self.ports() - {address.port for address in listening}:
            raise FixtureError(f"{self.name} does not listen on port(s) {sorted(missing)}: {listening}")
        if outside := [address for address in listening if not is_loopback(address.ip)]:
            raise FixtureError(f"{self.name} listens beyond the loopback interface: {outside}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        for send, wait in ((lambda: self.process.send_signal(signal.SIGINT), 30), (self.process.terminate, 10)):
            send()
            try:
                self.process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue
        self.process.kill()
        self.process.wait()


# ---------------------------------------------------------------------------- the fixture folder


def out_folder(argv: list[str] | None, description: str, default_out: str) -> Path:
    """The fixture folder of a fixture script's command line (--out; default: ``default_out`` of the project)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", default=None, help=f"the fixture folder (default: {default_out} of the project)")
    args = parser.parse_args(argv)
    return Path(os.path.abspath(args.out)) if args.out else PROJECT / default_out


def version(package: str) -> str:
    """The installed version of a package (the tool that wrote the fixtures)."""
    return importlib_metadata.version(package)


def publish(staging: Path, out: Path, manifest: dict, counts: dict) -> None:
    """Write the manifest into the finished ``staging`` folder, put it in the place of ``out``
    and say what was written."""
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    print(f"wrote {out} ({total / 1024:.0f} KiB): {json.dumps(counts)}")


def write_side_files(folder: Path, records: Iterable[Sequence[str]], annotators: Iterable) -> None:
    """records.csv (record_uuid, run_id, query_id) and annotators.csv (a sequence in the order of its
    columns or a mapping by column name) beside a tool's exports, written as the project writes its
    files."""
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(folder / FILES["records"], ["record_uuid", "run_id", "query_id"], records)
    write_csv(folder / FILES["annotators"], COLUMNS["annotators"], annotators)


def run(main: Callable[[], int]) -> None:
    """Run a fixture script's main, a FixtureError as `error: ...` and exit status 1."""
    try:
        sys.exit(main())
    except FixtureError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)

