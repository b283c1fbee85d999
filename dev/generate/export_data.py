"""Writes export data in the shape export_schema.py describes: the one writer of ragmart's data sets.

Every data set the project writes goes through this module: the sample seeds
(make_sample_seeds.py), the large generated exports (generate_exports.py), the test suite's
scenarios (dev/tests/generate.py) and its hand-made edge cases
(dev/tests/fixtures/make_edge_cases.py). Each of them decides what to write (which records,
which annotators, which mistakes); this module says how a value, a row and a folder are written:

* cells: a label as one of the boolean spellings the exports use (``boolean``), an instant as one
  of their ISO 8601 styles (``timestamp``), and the deliberately bad cells (``BAD_CELLS``); and
  read back as docs/rules.md reads them (``read_boolean``, ``read_timestamp``, ``read_rank``), for
  the scripts that send the sample to a tool;
* labels: by name or in the spec's order (``named``, ``ordered``, ``labels_with``,
  ``relabelled``), the valid label vectors one flip away (``neighbours``), what an annotator calls
  a retrieved chunk they get wrong (``RETRIEVAL_CONFUSIONS``), the constraints a
  vector breaks (``broken_constraints``) and a vector that breaks exactly the ones named
  (``breaking``), all from the task spec's labels and logical constraints;
* rows: one export row by column name (``export_row``), whose label cells are spelt on the way;
* folders: the exports, annotators.csv and records.csv of one data set (``write_folder``);
* random data sets: their parameters (``Scenario``: voters, label prevalences and flips,
  adjudicators, judges, chunks, and how often a submission is re-submitted, duplicated or spoilt)
  and their rows (``scenario_exports``), with a constraint broken on purpose (``violated``).
"""

from __future__ import annotations

import csv
import random
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

# the modules this script imports from the project's other folders
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / folder) for folder in ("scripts/lib",)]
from export_schema import (  # scripts/lib/
    COLUMNS,
    CONSTRAINTS,
    FILES,
    LABELS,
    REQUIRED,
    TASKS,
    broken_reasons,
    labels_valid,
    made_valid,
    write_csv,
)

# --------------------------------------------------------------------------------------------- cells
# The spellings of a boolean label that every export may use (docs/rules.md, Booleans): name ->
# (true, false).
BOOLEANS = {
    "tf": ("true", "false"), "cap": ("True", "False"), "upper": ("TRUE", "FALSE"),
    "padded": (" true ", " false "), "padded_upper": (" TRUE ", " FALSE "),
    "odd_padding": (" TRUE ", " false"), "num": ("1", "0"), "yn": ("yes", "no"),
    "YN": ("Y", "N"), "y_n": ("y", "n"), "short": ("t", "f"), "short_upper": ("T", "F"),
}


def boolean(value: int | str | None, spelling: str = "tf") -> str:
    """A label's cell: 1 or 0 in a spelling of BOOLEANS, None as the empty cell, and a text as it
    is (a deliberately bad value such as ``maybe``)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return BOOLEANS[spelling][0 if value else 1]


_READ = {cell.strip().lower(): value for true, false in BOOLEANS.values() for value, cell in ((1, true), (0, false))}


def read_boolean(cell: str) -> int | None:
    """A label's cell read back as docs/rules.md reads it (a spelling of BOOLEANS in any case, padded
    or not): 1, 0, or None for anything else."""
    return _READ.get(cell.strip().lower())


# The ISO 8601 styles of created_at: name -> (separator of date and time, zone, fraction). The zone is
# "" (no zone: UTC), "Z", a fixed offset such as "+01:00", or "berlin" (+01:00, +02:00 in summer
# time). The fraction is 0 (none), 3 or 6 digits, or "trim" (the microseconds without trailing
# zeros, none when they are 0).
STYLES = {
    "z": ("T", "Z", 0), "naive": ("T", "", 0), "space": (" ", "", 0), "space_z": (" ", "Z", 0),
    "cet": ("T", "+01:00", 0), "berlin": ("T", "berlin", 0), "est": ("T", "-05:00", 0),
    "frac_z": ("T", "Z", 3), "space_frac": (" ", "", 6), "berlin_frac": ("T", "berlin", 3),
}


def _last_sunday(year: int, month: int) -> datetime:
    day = datetime(year, month + 1, 1, 1, tzinfo=UTC) - timedelta(days=1)  # the month's last day, 01:00 UTC
    return day - timedelta(days=(day.weekday() + 1) % 7)


def berlin_offset(instant: datetime) -> timedelta:
    """Berlin's offset from UTC at an instant: +02:00 from the last Sunday of March to the last
    Sunday of October (01:00 UTC), +01:00 otherwise."""
    summer = _last_sunday(instant.year, 3) <= instant < _last_sunday(instant.year, 10)
    return timedelta(hours=2 if summer else 1)


def _offset(zone: str) -> timedelta:
    sign = -1 if zone[0] == "-" else 1
    return sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))


def timestamp(instant: datetime, style: str | tuple) -> str:
    """A created_at cell: an aware instant in a style (a name of STYLES or such a tuple)."""
    separator, zone, fraction = STYLES[style] if isinstance(style, str) else style
    instant = instant.astimezone(UTC)
    if zone == "berlin":
        offset = berlin_offset(instant)
        zone = f"+{offset.seconds // 3600:02d}:00"
    else:
        offset = _offset(zone) if zone not in ("", "Z") else timedelta(0)
    local = instant.astimezone(timezone(offset))
    digits = {0: "", 3: f".{local.microsecond // 1000:03d}", 6: f".{local.microsecond:06d}",
              "trim": f".{local.microsecond:06d}".rstrip("0") if local.microsecond else ""}[fraction]
    return local.strftime(f"%Y-%m-%d{separator}%H:%M:%S") + digits + zone


# docs/rules.md, Inputs: a date, `T` or a space, hh:mm with optional seconds and fraction, and an
# optional zone (none: UTC).
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?")


def read_timestamp(cell: str) -> datetime | None:
    """A created_at cell read back as docs/rules.md reads it: the instant in UTC (to the microsecond;
    no zone is UTC; digits past the sixth of a fraction are cut), or None when it is not
    such a time (and for the few valid ones that fall before year 1 or after 9999 in UTC, which
    Python's datetime cannot hold)."""
    match = _TIMESTAMP.fullmatch(cell.strip())
    if not match:
        return None
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    try:
        value = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0),
                         int((fraction or "0")[:6].ljust(6, "0")), tzinfo=UTC)
    except ValueError:
        return None
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
        if hours > 23 or minutes > 59:
            return None
        offset = timedelta(hours=hours, minutes=minutes)
        try:
            value -= offset if zone[0] == "+" else -offset
        except OverflowError:   # an instant before year 1 or after 9999 in UTC: beyond Python's datetime
            return None
    return value


def read_rank(cell: str) -> int | None:
    """A chunk_rank cell read back as docs/rules.md reads it: a whole number from 1 (``3.0`` is 3,
    padding allowed), or None for anything else."""
    match = re.fullmatch(r"([0-9]+)(?:\.0+)?", cell.strip())
    return int(match.group(1)) if match and int(match.group(1)) > 0 else None


# Deliberately bad cells, none of them ambiguous under docs/rules.md and none a text that dbt's seed
# loader turns into NULL (such as "null" or "none").
BAD_CELLS = {
    "blank": ["", "", "   ", " "],
    "boolean": ["maybe", "2", "ja", "nein", "wahr", "x", "-1", "unklar", "true?", "10"],
    "rank": ["0", "00", "-1", "2.5", "abc", "1e3", "#3", "Rang 2"],
    "timestamp": ["2025-13-01T10:00:00", "2025-02-30T10:00:00", "2025-03-05T25:10:00",
                  "2025-03-05T10:61:00Z", "2025-03-05", "05.03.2025 10:15", "yesterday",
                  "2025/03/05 10:15:00"],
    "language": ["fr", "it", "de-DE", "english", "pl", "deutsch"],
}

# ------------------------------------------------------------------------------------------- records
# The task types of records.csv that the gold routing does not name (export_schema's GOLD_TASK_TYPES
# are the others): the chatbot's summaries, code and small talk.
TRIAGE_TASK_TYPES = ("summarization", "code_generation", "chitchat")

# -------------------------------------------------------------------------------------------- labels


def named(task: str, labels: Sequence) -> dict:
    """A task's labels, given in the order of the spec, by name."""
    return dict(zip(LABELS[task], labels, strict=True))


def ordered(task: str, labels: Mapping) -> tuple:
    """A task's labels by name, in the order of the spec."""
    return tuple(labels[label] for label in LABELS[task])


def labels_with(task: str, *ones: str) -> tuple:
    """A task's labels in the spec's order: 1 for the labels named, 0 for the others."""
    unknown = set(ones) - set(LABELS[task])
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not labels of {task}")
    return tuple(int(label in ones) for label in LABELS[task])


def relabelled(task: str, labels: Sequence, **changes: int) -> tuple:
    """A task's labels (in the spec's order) with the named ones changed."""
    unknown = set(changes) - set(LABELS[task])
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not labels of {task}")
    return ordered(task, named(task, labels) | changes)


def is_valid(task: str, labels: Sequence) -> bool:
    """Whether labels in the spec's order keep every logical constraint of the task."""
    return labels_valid(task, named(task, labels))


def broken_constraints(task: str, labels: Sequence) -> list[str]:
    """The reason codes (``violates:...``) of the logical constraints that labels in the spec's
    order break, sorted: the reasons a row with them is rejected for under ``constraint_policy:
    reject``."""
    return sorted(broken_reasons(task, named(task, labels)))


def breaking(task: str, labels: Sequence, reasons: Iterable[str]) -> tuple:
    """Labels in the spec's order that break exactly the constraints named by their reason codes
    and keep every other one: of all such vectors, the one with the fewest labels changed from
    ``labels`` (the smallest read as a binary number, when several are as near)."""
    wanted = sorted(set(reasons))
    unknown = set(wanted) - {reason for reason, *_ in CONSTRAINTS[task]}
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not reason codes of {task}'s constraints")
    n = len(LABELS[task])
    vectors = (tuple((code >> (n - 1 - i)) & 1 for i in range(n)) for code in range(2 ** n))
    matching = [v for v in vectors if broken_constraints(task, v) == wanted]
    if not matching:
        raise ValueError(f"no labels of {task} break exactly {wanted}")
    return min(matching, key=lambda v: sum(a != b for a, b in zip(v, labels, strict=True)))


def neighbours(task: str, one_way: Iterable[str] = ()) -> dict[tuple, list[tuple]]:
    """Every valid label vector of a task (in the spec's order) -> the valid vectors one flipped
    label away, in the order of the labels. A label of ``one_way`` only ever flips from 1 to 0 (an
    annotator may miss unsafe content, not invent it)."""
    labels = LABELS[task]
    n = len(labels)
    out = {}
    for code in range(2 ** n):
        vector = tuple((code >> (n - 1 - i)) & 1 for i in range(n))
        if not is_valid(task, vector):
            continue
        near = []
        for i, label in enumerate(labels):
            if label in one_way and vector[i] == 0:
                continue
            flipped = list(vector)
            flipped[i] = 1 - flipped[i]
            if is_valid(task, flipped):
                near.append(tuple(flipped))
        out[vector] = near
    return out


# The states of a retrieved chunk (its retrieval labels in the spec's order), and what an annotator
# who gets a chunk wrong calls it instead, in the order the data sets draw from: a sufficient chunk
# merely relevant; a relevant one irrelevant, sufficient or misleading; a misleading one harmless or
# irrelevant; an irrelevant one relevant or misleading; an irrelevant, misleading one harmless or
# relevant. Unlike ``neighbours``, a misleading relevant chunk may be judged wholly irrelevant.
CHUNK_STATES = {
    "sufficient": labels_with("retrieval", "topically_relevant", "evidence_sufficient"),
    "relevant": labels_with("retrieval", "topically_relevant"),
    "relevant_misleading": labels_with("retrieval", "topically_relevant", "misleading"),
    "irrelevant": labels_with("retrieval"),
    "irrelevant_misleading": labels_with("retrieval", "misleading"),
}
RETRIEVAL_CONFUSIONS = {
    CHUNK_STATES[state]: [CHUNK_STATES[other] for other in others]
    for state, others in {
        "sufficient": ["relevant"],
        "relevant": ["irrelevant", "sufficient", "relevant_misleading"],
        "relevant_misleading": ["relevant", "irrelevant"],
        "irrelevant": ["relevant", "irrelevant_misleading"],
        "irrelevant_misleading": ["irrelevant", "relevant_misleading"],
    }.items()
}


def flipped(task: str, truth: Mapping[str, int], rng, flip: float | Mapping[str, float]) -> dict:
    """A vote on a unit whose true labels are ``truth`` (by name): each label flipped with its
    probability (``flip``: one for every label, or one per label), drawn in the order of ``truth``,
    and every logical constraint of the task then set right."""
    return made_valid(task, {label: 1 - value if rng.random() < (flip[label] if isinstance(flip, Mapping) else flip)
                             else value for label, value in truth.items()})

# ---------------------------------------------------------------------------------------------- rows


def export_row(task: str, labels: Mapping | Sequence = (), spelling: str = "tf", /, **cells) -> dict:
    """One row of a task's export by column name: the column ``task`` filled in, the labels (by name,
    or in the spec's order) spelt by ``boolean``, and any other column given as its cell (a cell
    given wins, even ``task=``: a deliberately wrong task); a column not given is empty when
    written. A name that is not a column of the task stops it."""
    by_name = labels if isinstance(labels, Mapping) else (named(task, labels) if labels else {})
    row = {"task": task, **{label: boolean(value, spelling) for label, value in by_name.items()}, **cells}
    unknown = set(row) - set(COLUMNS[task])
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not columns of the {task} export")
    return row


# ------------------------------------------------------------------------------------------- folders
# records.csv as the project's tools write it: the routing columns and the two of the runs.
RECORDS_COLUMNS = [*COLUMNS["records"], "run_id", "query_id"]


def write_folder(out: Path | str, exports: Mapping[str, Iterable], annotators: Iterable,
                 records: Iterable | None = None, records_columns: Sequence[str] = RECORDS_COLUMNS,
                 check: bool = False) -> Path:
    """One data set in seeds layout: an export per task of the spec (an empty one, header only, for
    a task not given), annotators.csv and, when given, records.csv. A row is a mapping by column
    name or a sequence in the order of the columns. With ``check``, every file is read back and
    must hold exactly the rows written, without a carriage return."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tables = {**{task: (COLUMNS[task], exports.get(task, [])) for task in TASKS},
              "annotators": (COLUMNS["annotators"], annotators)}
    unknown = set(exports) - set(TASKS)
    if unknown:
        raise ValueError(f"{sorted(unknown)} are not tasks of the spec")
    if records is not None:
        tables["records"] = (list(records_columns), records)
    for name, (columns, rows) in tables.items():
        path = out / FILES[name]
        rows = list(rows)
        write_csv(path, columns, rows)
        if check:
            _check_round_trip(path, columns, rows)
    return out


def _check_round_trip(path: Path, columns: Sequence[str], rows: list) -> None:
    expected = [list(columns)] + [[row.get(c, "") if isinstance(row, Mapping) else row[i]
                                   for i, c in enumerate(columns)] for row in rows]
    with path.open(encoding="utf-8", newline="") as fh:
        back = list(csv.reader(fh))
    if back != [[("" if v is None else str(v)) for v in row] for row in expected]:
        raise RuntimeError(f"{path}: the file does not read back as the rows written")
    if b"\r" in path.read_bytes():
        raise RuntimeError(f"{path}: a carriage return was written")


# ----------------------------------------------------------------------------------------- scenarios
# What dbt's seed loader reads as NULL: an empty cell in seeds mode, a text (an invalid value) when the
# exports are read as files.
NULL_WORDS = ["null", "NULL", " Null "]

# The ways a scenario spoils one cell of a row (a kind drawn per spoilt row; twice as often a label).
SPOILS = ["missing", "boolean", "boolean", "timestamp", "language", "task", "constraint", "rank",
          "can_answer", "null"]


def violated(task: str, labels: Mapping[str, int], rng) -> dict:
    """Valid labels (by name) with one logical constraint of the task broken (``breaking``), drawn
    at random when the task has several, and the others kept."""
    constraints = CONSTRAINTS[task]
    reason = constraints[int(rng.random() * len(constraints))][0] if len(constraints) > 1 else constraints[0][0]
    return named(task, breaking(task, ordered(task, labels), [reason]))


# The (prevalence, flip per vote) of a label that a Scenario does not name (one added to the task spec),
# drawn after the labels it names.
NEW_LABEL = (0.3, 0.05)


@dataclass(frozen=True)
class Scenario:
    """The parameters of a random data set (``scenario_exports``): who labels a record, how its
    units' labels are drawn and voted, and how often a submission is re-submitted, duplicated or
    spoilt. Counts are drawn uniformly from their sequences."""

    labels: Mapping[str, Mapping[str, tuple[float, float]]]   # task -> label -> (prevalence, flip per vote);
    #                                                           a label of the spec not named: NEW_LABEL
    voters: Sequence[str]                   # the voters a record's voters are drawn from
    n_voters: Sequence[int]                 # how many voters a record has
    adjudicators: Sequence[str] = ()
    adjudicated: tuple[float, float] = (0.0, 0.0)   # P(a unit is adjudicated): voters disagree / agree
    adjudications: Sequence[int] = (1,)     # rows of an adjudicated unit
    judges: Sequence[str] = ()
    judged: float = 0.0                     # P(a judge labels a unit)
    judge_flip: float | None = None         # per label; None: the voters' flips
    chunks: Sequence[int] = (1,)            # retrieval: chunks of a record
    rank_gaps: float = 0.0                  # P(a record's chunk ranks leave gaps)
    rank_conflicts: float = 0.0             # P(a voter of the record ranks its first chunk one lower)
    skipped: float = 0.0                    # P(one of several voters leaves a chunk out)
    queries: int = 0                        # records ask one of this many queries (0: each its own)
    resubmitted: float = 0.06               # an older submission precedes the row
    duplicated: float = 0.02                # a same-instant copy (maybe with a bad language)
    conflicting: float = 0.02               # a same-instant row with other labels
    spoilt: float = 0.05                    # one bad cell (SPOILS)
    other_language: float = 0.03            # a row in the record's other language
    languages: Mapping[str, int] = field(default_factory=lambda: {"de": 45, "en": 45, "": 10})
    spellings: Sequence[str] = ("tf", "cap", "num", "yn", "y_n", "short_upper", "odd_padding")
    respelt: float = 0.2                    # P(a label not spelt "tf")
    styles: Sequence[tuple] = (("T", "Z", "trim"),) * 2 + (
        ("T", "", "trim"), ("T", "+02:00", "trim"), ("T", "-05:00", "trim"), ("T", "+00:00", "trim"),
        ("T", "+05:30", "trim"), (" ", "Z", "trim"))
    start: datetime = datetime(2025, 3, 1, tzinfo=UTC)
    days: int = 20                          # a record's first votes fall in these days after start


def scenario_exports(scenario: Scenario, records: Mapping[str, Sequence[str]], seed: int) -> dict:
    """The export rows (by column name) of a random data set: for each task, the records given, in
    their order, labelled as ``scenario`` says, drawn from ``random.Random(seed)``."""
    writer = _ScenarioWriter(scenario, random.Random(seed))
    return {task: writer.task_rows(task, ids) for task, ids in records.items()}


class _ScenarioWriter:
    def __init__(self, scenario: Scenario, rng: random.Random):
        self.s, self.r = scenario, rng

    def task_rows(self, task: str, record_ids: Sequence[str]) -> list[dict]:
        rows: list[dict] = []
        for i, rec in enumerate(record_ids):
            self.record(rows, task, i, rec)
        return rows

    def record(self, rows: list, task: str, i: int, rec: str) -> None:
        s, r = self.s, self.r
        lang = r.choices(list(s.languages), weights=list(s.languages.values()))[0]
        base = s.start + timedelta(minutes=r.randint(0, 60 * 24 * s.days))
        voters = r.sample(list(s.voters), r.choice(s.n_voters))
        query = i % s.queries if s.queries else rec
        if task != "retrieval":
            cells = {"query": f"question {query}?", "answer": f"answer {rec} [1]"}
            if task == "grounding":
                cells["context_set"] = f"ctx {rec} [SEP] ctx {rec}-2"
            self.unit(rows, task, rec, voters, lang, base, cells)
            return
        n = r.choice(s.chunks)
        ranks = sorted(r.sample(range(1, n + 4), n)) if r.random() < s.rank_gaps else range(1, n + 1)
        conflict = r.choice(voters) if r.random() < s.rank_conflicts else None
        for j, rank in enumerate(ranks):
            cid = f"{rec}-c{j}"
            cells = {"input_query": f"query {query}, please", "generated_search_query": f"q {query}",
                     "chunk": f"chunk text {cid}", "chunk_id": cid, "doc_id": f"D{i % 17}",
                     "chunk_rank": str(rank)}
            self.unit(rows, task, rec, voters, lang, base, cells,
                      conflict if j == 0 else None)

    def unit(self, rows, task, rec, voters, lang, base, cells, conflict=None) -> None:
        s, r = self.s, self.r
        spec = {**s.labels[task], **{label: NEW_LABEL for label in LABELS[task] if label not in s.labels[task]}}
        truth = made_valid(task, {label: int(r.random() < p) for label, (p, _) in spec.items()})
        flips = {label: flip for label, (_, flip) in spec.items()}
        votes = set()
        for ann in voters:
            if len(voters) > 1 and r.random() < s.skipped:
                continue
            vote = flipped(task, truth, r, flips)
            votes.add(ordered(task, vote))
            own = dict(cells)
            if task == "retrieval":
                rank = int(cells["chunk_rank"]) + (ann == conflict)
                own["chunk_rank"] = str(rank) if r.random() < 0.9 else f" {rank} "
                own["can_answer"] = r.choice(["true", "false", "", "yes"])
            self.submit(rows, task, rec, ann, self.instant(base), vote, self.language(lang), own)
        if s.adjudicators and r.random() < s.adjudicated[0 if len(votes) > 1 else 1]:
            for _ in range(r.choice(s.adjudications)):
                self.submit(rows, task, rec, r.choice(s.adjudicators),
                            self.instant(base + timedelta(days=2)), flipped(task, truth, r, flips),
                            lang, cells, spoil=False)
        if s.judges and r.random() < s.judged:
            flip = flips if s.judge_flip is None else s.judge_flip
            self.submit(rows, task, rec, r.choice(s.judges), self.instant(base + timedelta(days=1)),
                        flipped(task, truth, r, flip), self.language(lang), cells)

    # ------------------------------------------------------------------ cells
    def language(self, lang: str) -> str:
        if lang and self.r.random() < self.s.other_language:
            return "en" if lang == "de" else "de"
        return lang

    def instant(self, base: datetime) -> datetime:
        micro = self.r.choice([0, 0, 0, 500000, 123456])
        return base + timedelta(seconds=self.r.randint(0, 86400), microseconds=micro)

    def row(self, task, rec, ann, instant, labels, lang, cells) -> dict:
        r = self.r
        spelling = r.choice(self.s.spellings) if r.random() < self.s.respelt else "tf"
        return export_row(task, labels, spelling, record_uuid=rec, annotator_id=ann, language=lang,
                          notes=r.choice(["", "", "ok", "checked, twice", 'said "fine"']),
                          created_at=timestamp(instant, r.choice(self.s.styles)), **cells)

    # ------------------------------------------------------------------ submissions
    def submit(self, rows, task, rec, ann, instant, labels, lang, cells, spoil=True) -> None:
        """One submission and, at random, its history, its duplicate or a bad cell."""
        s, r = self.s, self.r
        row = self.row(task, rec, ann, instant, labels, lang, cells)
        fate = r.random()   # the fates take consecutive shares of [0, 1), in this order
        duplicated = s.resubmitted + s.duplicated
        conflicting = duplicated + s.conflicting
        if fate < s.resubmitted:
            older = instant - timedelta(minutes=r.randint(1, 900))
            old_labels = flipped(task, labels, r, 0.2)
            old = self.row(task, rec, ann, older, old_labels, lang, cells)
            if r.random() < 0.3:
                self.spoil(old, task, old_labels)
            rows += [old, row]
        elif fate < duplicated:
            copy = dict(row, notes="resubmitted")
            if r.random() < 0.5:
                copy["language"] = "fr"
            rows += r.sample([row, copy], 2)
        elif fate < conflicting:
            other = dict(labels)
            while ordered(task, other) == ordered(task, labels):
                other = flipped(task, labels, r, 1 / len(labels))
            rows += [row, self.row(task, rec, ann, instant, other, lang, cells)]
        else:
            if spoil and fate < conflicting + s.spoilt:
                self.spoil(row, task, labels)
            rows.append(row)

    def spoil(self, row: dict, task: str, values: Mapping[str, int]) -> None:
        """One bad cell of a row whose labels are ``values`` (a kind of SPOILS; a kind that does not
        apply to the task spoils the language)."""
        r = self.r
        kind = r.choice(SPOILS)
        labels = LABELS[task]
        if kind == "constraint" and CONSTRAINTS[task]:
            row.update({label: boolean(v) for label, v in violated(task, values, r).items()})
        elif kind in ("boolean", "constraint"):
            row[r.choice(labels)] = r.choice(BAD_CELLS["boolean"])
        elif kind == "missing":
            row[r.choice(REQUIRED[task])] = r.choice(BAD_CELLS["blank"])
        elif kind == "null":
            row[r.choice([*labels, "language", REQUIRED[task][4]])] = r.choice(NULL_WORDS)
        elif kind in ("timestamp", "language"):
            row["created_at" if kind == "timestamp" else "language"] = r.choice(BAD_CELLS[kind])
        elif kind == "task":
            row["task"] = r.choice([t for t in TASKS if t != task] + [task.capitalize()])
        elif kind == "rank" and task == "retrieval":
            row["chunk_rank"] = r.choice(BAD_CELLS["rank"])
        elif kind == "can_answer" and task == "retrieval":
            row["can_answer"] = r.choice(BAD_CELLS["boolean"])
        else:
            row["language"] = r.choice(BAD_CELLS["language"])
