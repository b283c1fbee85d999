"""What the fixture scripts share (scripts/make_phoenix_fixtures.py, scripts/make_label_studio_fixtures.py).

The project's sample seeds read as the scripts send them to a tool: the families and their labels,
the value rules of docs/rules.md (booleans, ISO 8601 times, ranks) and the annotators' kinds; the
tool's server as a subprocess on loopback ports (LocalServer: started, awaited, checked to listen on
loopback only, stopped); the error the scripts report as `error: ...`. Standard library only (and
psutil, which both tools install): each script runs in the venv of its tool.
"""

from __future__ import annotations

import csv
import datetime as dt
import ipaddress
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SEEDS = PROJECT / "seeds"

RETRIEVAL_LABELS = ("topically_relevant", "evidence_sufficient", "misleading", "can_answer")
GROUNDING_LABELS = (
    "support_present",
    "unsupported_claim_present",
    "contradicted_claim_present",
    "source_cited",
    "fabricated_source",
)
GENERATION_LABELS = ("proper_action", "response_on_topic", "helpful", "incomplete", "unsafe_content")
FAMILIES = {
    "retrieval": ("retrieval_annotations.csv", RETRIEVAL_LABELS),
    "grounding": ("grounding_annotations.csv", GROUNDING_LABELS),
    "generation": ("generation_annotations.csv", GENERATION_LABELS),
}
TRUE_VALUES = {"true", "t", "1", "yes", "y"}
FALSE_VALUES = {"false", "f", "0", "no", "n"}

# docs/rules.md, Inputs: date, `T` or a space, hh:mm with optional seconds and fraction, optional zone.
TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?"
)


class FixtureError(Exception):
    """A problem with the seeds, the server or the outputs, reported as `error: ...`."""


def read_seed(name: str) -> list[dict[str, str]]:
    with open(SEEDS / name, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def parse_timestamp(text: str) -> dt.datetime | None:
    """created_at as docs/rules.md reads it (no zone: UTC), or None when it does not parse."""
    match = TIMESTAMP.fullmatch(text.strip())
    if not match:
        return None
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    try:
        value = dt.datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second or 0),
            int((fraction or "0")[:6].ljust(6, "0")), tzinfo=dt.UTC,
        )
    except ValueError:
        return None
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        offset = dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        value -= offset if zone[0] == "+" else -offset
    return value


def parse_boolean(text: str) -> int | None:
    value = text.strip().lower()
    return 1 if value in TRUE_VALUES else 0 if value in FALSE_VALUES else None


def parse_rank(text: str) -> int | None:
    match = re.fullmatch(r"([0-9]+)(?:\.0+)?", text.strip())
    return int(match.group(1)) if match and int(match.group(1)) > 0 else None


def kind_of(annotator_id: str, annotators: dict[str, dict[str, str]]) -> str:
    row = annotators.get(annotator_id.strip())
    return row["annotator_kind"].strip().upper() if row else "HUMAN"


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
    its children listen on is a loopback one and its ports are among them (nothing is sent before)."""

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

    def __exit__(self, *exc) -> None:
        self.stop()

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
