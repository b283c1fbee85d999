"""What the fixture scripts share (scripts/make_phoenix_fixtures.py, scripts/make_label_studio_fixtures.py).

The project's sample seeds read as the scripts send them to a tool: the families and their labels,
the value rules of docs/rules.md (booleans, ISO 8601 times, ranks) and the annotators' kinds; a free
loopback port for the tool's server; the error the scripts report as `error: ...`. Standard library
only: each script runs in the venv of its tool.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import socket
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

