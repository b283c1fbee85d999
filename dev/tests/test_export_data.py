"""dev/generate/export_data.py, the one writer of the project's data sets: its cells read back as the
rules of docs/rules.md read them (the reference's parsers and Python's own time zones), its label
neighbours keep the spec's constraints, and its rows and folders name only the exports' columns."""

from __future__ import annotations

import csv
import functools
import itertools
import math
import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
import reference as R
from export_data import (
    BAD_CELLS,
    BOOLEANS,
    CHUNK_STATES,
    NULL_WORDS,
    RETRIEVAL_CONFUSIONS,
    STYLES,
    Scenario,
    berlin_offset,
    boolean,
    breaking,
    broken_constraints,
    export_row,
    flipped,
    is_valid,
    labels_with,
    named,
    neighbours,
    read_boolean,
    read_rank,
    read_timestamp,
    relabelled,
    scenario_exports,
    timestamp,
    violated,
    write_folder,
)
from export_schema import COLUMNS, CONSTRAINTS, FILES, LABELS, TASKS, labels_valid

# Berlin's summer time in the years of INSTANTS, from the published calendar: (start, end), 01:00 UTC
BERLIN_SUMMER = {2025: (datetime(2025, 3, 30, 1, tzinfo=UTC), datetime(2025, 10, 26, 1, tzinfo=UTC)),
                 2026: (datetime(2026, 3, 29, 1, tzinfo=UTC), datetime(2026, 10, 25, 1, tzinfo=UTC))}
# around both switches of Berlin's summer time in 2025 (30 March and 26 October, 01:00 UTC), midnight,
# and a random spread over two years
INSTANTS = [datetime(2025, 3, 30, 0, 59, 59, 999999, tzinfo=UTC), datetime(2025, 3, 30, 1, 0, tzinfo=UTC),
            datetime(2025, 10, 26, 0, 59, 59, tzinfo=UTC), datetime(2025, 10, 26, 1, 0, 0, 500000, tzinfo=UTC),
            datetime(2025, 12, 31, 23, 30, 0, 123456, tzinfo=UTC)]
_r = random.Random(5)
INSTANTS += [datetime(2025, 1, 1, tzinfo=UTC) + timedelta(seconds=_r.randrange(2 * 365 * 86400),
                                                          microseconds=_r.randrange(10 ** 6))
             for _ in range(200)]


def _epoch(instant: datetime) -> Fraction:
    return Fraction(int(instant.timestamp() // 1)) + Fraction(instant.microsecond, 10 ** 6)


@pytest.mark.parametrize("style", list(STYLES) + [("T", "+05:30", "trim"), (" ", "-03:00", 6)])
def test_every_timestamp_style_reads_back_as_the_instant(style):
    fraction = (STYLES[style] if isinstance(style, str) else style)[2]
    for instant in INSTANTS:
        cell = timestamp(instant, style)
        kept = {0: 0, 3: instant.microsecond // 1000 * 1000, 6: instant.microsecond,
                "trim": instant.microsecond}[fraction]
        expected = _epoch(instant.replace(microsecond=kept))
        assert R.parse_timestamp(cell) == expected, (style, instant, cell)
        assert _epoch(read_timestamp(cell)) == expected, (style, instant, cell)


# cells the readers must read as the reference does: times with and without zones, seconds and
# fractions, impossible dates and times, odd zones; ranks with padding, fractions and signs
TIME_CELLS = ["2025-03-01T10:15:00", " 2025-03-01 10:15:00 ", "2025-03-01T10:15", "2025-03-01T10:15:00.5Z",
              "2025-03-01T10:15:00.1234567+02:00", "2025-03-01T10:15:00-05:30", "2025-03-01T10:15:00+0200",
              "2025-03-01T10:15:00+02", "2025-03-01T10:15:00+02:3", "2025-03-01T10:15:00+2", "2025-02-29T10:00:00",
              "2024-02-29T10:00:00", "0000-03-01T10:15:00", "0001-01-01T00:00:00", "2025-03-01T10:60:00",
              "2025-03-01T24:00:00", "2025-03-01T10:15:00+25:00", "2025-03-01T10:15:00+02:75",
              "2025-03-01T10:15:00-23:59", "garbage", ""]
RANK_CELLS = ["1", " 02 ", "0", "-1", "1.5", "abc", "2.0", "3.00", "0.0", "2.", "2.01", "", "+3", "10"]


def test_the_readers_read_cells_as_the_rules_do():
    for cell in TIME_CELLS + BAD_CELLS["timestamp"]:
        expected = R.parse_timestamp(cell)   # exact; read_timestamp keeps microseconds, cuts the rest
        expected = None if expected is None else Fraction(math.floor(expected * 10 ** 6), 10 ** 6)
        got = read_timestamp(cell)
        assert (None if got is None else _epoch(got)) == expected, cell
    # valid under the rules, but before year 1 or after 9999 in UTC: beyond Python's datetime
    for cell in ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"]:
        assert R.parse_timestamp(cell) is not None and read_timestamp(cell) is None, cell
    for cell in RANK_CELLS + BAD_CELLS["rank"] + BAD_CELLS["blank"]:
        assert read_rank(cell) == R.parse_rank(cell), cell


def test_berlin_time_follows_the_calendar():
    for instant in INSTANTS:
        start, end = BERLIN_SUMMER[instant.year]
        hours = 2 if start <= instant < end else 1
        assert berlin_offset(instant) == timedelta(hours=hours), instant
        local = instant + timedelta(hours=hours)
        assert timestamp(instant, "berlin") == local.strftime("%Y-%m-%dT%H:%M:%S") + f"+0{hours}:00"


def test_every_boolean_spelling_reads_as_its_value():
    for name, (true, false) in BOOLEANS.items():
        assert (R.parse_bool(boolean(1, name)), R.parse_bool(boolean(0, name))) == (1, 0), name
        assert (true, false) == (boolean(1, name), boolean(0, name))
        assert (read_boolean(true), read_boolean(false)) == (1, 0), name
    assert boolean(None) == "" and boolean("maybe", "YN") == "maybe"
    assert all(read_boolean(v) is None for v in BAD_CELLS["boolean"] + BAD_CELLS["blank"] + NULL_WORDS)


def test_the_bad_cells_are_bad_under_the_rules():
    assert all(R.parse_bool(v) is None for v in BAD_CELLS["boolean"])
    assert all(R.parse_rank(v) is None for v in BAD_CELLS["rank"])
    assert all(R.parse_timestamp(v) is None for v in BAD_CELLS["timestamp"])
    assert all(R.is_blank(v) for v in BAD_CELLS["blank"])
    assert not set(BAD_CELLS["language"]) & {"de", "en"}


def test_retrieval_confusions_are_valid_other_states():
    # the chunk states are every valid vector of the labels they name (a label added to the spec: 0)
    stated = {label for state in CHUNK_STATES.values() for label, value in named("retrieval", state).items() if value}
    every = [v for v in itertools.product((0, 1), repeat=len(LABELS["retrieval"])) if is_valid("retrieval", v)
             and not any(value for label, value in named("retrieval", v).items() if label not in stated)]
    assert sorted(RETRIEVAL_CONFUSIONS) == sorted(every) == sorted(CHUNK_STATES.values())
    near = neighbours("retrieval")
    for state, others in RETRIEVAL_CONFUSIONS.items():
        assert others and len(set(others)) == len(others) and state not in others
        assert all(is_valid("retrieval", other) for other in others)
        # one flip apart, but for a misleading relevant chunk, which may also be judged irrelevant
        extra = {CHUNK_STATES["irrelevant"]} if state == CHUNK_STATES["relevant_misleading"] else set()
        assert set(others) - extra <= set(near[state]), state


@pytest.mark.parametrize("task", TASKS)
def test_neighbours_are_the_valid_vectors_one_flip_apart(task):
    n = len(LABELS[task])
    one_way = ("unsafe_content",) if "unsafe_content" in LABELS[task] else ()
    near = neighbours(task, one_way=one_way)
    every = [v for v in itertools.product((0, 1), repeat=n) if labels_valid(task, dict(zip(LABELS[task], v)))]
    assert sorted(near) == sorted(every)
    for vector, others in near.items():
        expected = []
        for i, label in enumerate(LABELS[task]):
            flipped = vector[:i] + (1 - vector[i],) + vector[i + 1:]
            if flipped in every and not (label in one_way and vector[i] == 0):
                expected.append(flipped)
        assert others == expected, vector


def test_labels_by_name_and_in_order():
    assert named("retrieval", labels_with("retrieval", "misleading")) == dict.fromkeys(LABELS["retrieval"], 0) | {
        "misleading": 1}
    sufficient, relevant = (labels_with("retrieval", "topically_relevant", "evidence_sufficient"),
                            labels_with("retrieval", "topically_relevant"))
    assert relabelled("retrieval", sufficient, evidence_sufficient=0) == relevant
    assert is_valid("retrieval", sufficient) and not is_valid("retrieval", labels_with("retrieval", "evidence_sufficient"))
    with pytest.raises(ValueError, match="not labels of retrieval"):
        labels_with("retrieval", "helpful")


def test_export_row_names_only_the_exports_columns():
    row = export_row("generation", labels_with("generation", "proper_action", "helpful"), "yn", record_uuid="r1",
                     answer="a")
    assert row["task"] == "generation" and row["proper_action"] == "yes" and row["response_on_topic"] == "no"
    assert export_row("grounding", {}, task="generation")["task"] == "generation"  # a deliberately wrong task
    with pytest.raises(ValueError, match="chunk_rank"):
        export_row("generation", chunk_rank="1")


def test_write_folder_writes_the_seeds_layout(tmp_path):
    rows = {"retrieval": [export_row("retrieval", labels_with("retrieval", "topically_relevant"), record_uuid="r1",
                                     chunk="a, \"quoted\" text")]}
    write_folder(tmp_path, rows, [("a1", "HUMAN", "annotator", "Anna")], [{"record_uuid": "r1", "run_id": "v1"}],
                 check=True)
    for name in (*TASKS, "annotators", "records"):
        with open(tmp_path / FILES[name], newline="", encoding="utf-8") as fh:
            header = next(csv.reader(fh))
        assert header == (COLUMNS[name] if name != "records" else [*COLUMNS["records"], "run_id", "query_id"])
    assert "records.csv" in {p.name for p in tmp_path.iterdir()}
    with pytest.raises(RuntimeError, match="carriage return"):
        write_folder(tmp_path / "cr", {"generation": [export_row("generation", answer="line\r\nbreak")]}, [],
                     check=True)
    with pytest.raises(ValueError, match="not tasks"):
        write_folder(tmp_path / "x", {"ranking": []}, [])


def test_flipped_votes_keep_the_constraints():
    truth = {"topically_relevant": 1, "evidence_sufficient": 0, "misleading": 0}
    rng = random.Random(3)
    assert flipped("retrieval", truth, rng, 0.0) == truth
    # every label flipped: (0, 1, 1), whose sufficiency then makes it relevant and not misleading
    assert flipped("retrieval", truth, rng, 1.0) == {"topically_relevant": 1, "evidence_sufficient": 1, "misleading": 0}
    only_misleading = {"topically_relevant": 0.0, "evidence_sufficient": 0.0, "misleading": 1.0}
    assert flipped("retrieval", truth, rng, only_misleading) == {**truth, "misleading": 1}
    votes = [flipped("grounding", dict.fromkeys(LABELS["grounding"], 0), rng, 0.5) for _ in range(500)]
    assert all(labels_valid("grounding", v) for v in votes)


def _rejected_for(task: str, labels) -> list[str]:
    """The constraint reason codes the references' row checks give a row with these labels."""
    row = R.Row(task=task, line=1, raw=export_row(task, labels))
    R.row_checks(row, task, ["de", "en"], "reject")
    return sorted(reason for reason in row.reasons if reason.startswith("violates:"))


@pytest.mark.parametrize("task", [t for t in TASKS if CONSTRAINTS[t]])
def test_violated_breaks_exactly_one_constraint(task):
    rng = random.Random(8)
    for vector in neighbours(task):
        labels = violated(task, dict(zip(LABELS[task], vector)), rng)
        assert len(_rejected_for(task, labels)) == 1, (vector, labels)


@pytest.mark.parametrize("task", [t for t in TASKS if CONSTRAINTS[t]])
def test_breaking_breaks_exactly_the_constraints_named(task):
    codes = [code for code, *_ in CONSTRAINTS[task]]
    broken = {vector: _rejected_for(task, vector) for vector in itertools.product((0, 1), repeat=len(LABELS[task]))}
    every = list(broken)

    def changes(vector, start):
        return sum(a != b for a, b in zip(vector, start))

    for start in every:
        for size in range(len(codes) + 1):
            for reasons in itertools.combinations(codes, size):
                labels = breaking(task, start, reasons)
                assert broken_constraints(task, labels) == broken[labels] == sorted(reasons), (start, reasons)
                fewest = min(changes(v, start) for v in every if broken[v] == sorted(reasons))
                assert changes(labels, start) == fewest, (start, reasons, labels)
    with pytest.raises(ValueError, match="not reason codes"):
        breaking(task, every[0], ["violates:nothing"])


def test_breaking_the_retrieval_constraints_by_hand():
    # from no label set: sufficient but not relevant; sufficient, relevant and misleading; both
    implies, excludes = "violates:sufficient_implies_relevant", "violates:sufficient_excludes_misleading"
    none, ones = labels_with("retrieval"), functools.partial(labels_with, "retrieval")
    assert breaking("retrieval", none, [implies]) == ones("evidence_sufficient")
    assert breaking("retrieval", none, [excludes]) == ones("topically_relevant", "evidence_sufficient", "misleading")
    assert breaking("retrieval", none, [implies, excludes]) == ones("evidence_sufficient", "misleading")
    assert broken_constraints("retrieval", ones("evidence_sufficient", "misleading")) == [excludes, implies]
    # as near as (relevant, sufficient), and smaller
    assert breaking("retrieval", ones("evidence_sufficient"), []) == none


CLEAN = {task: {label: (0.5, 0.1) for label in LABELS[task]} for task in TASKS}


def _statuses(folder) -> dict:
    ref = R.compute(folder, accepted_languages=["de", "en"])
    return {task: ref.counts(task) for task in TASKS}


def test_a_scenario_without_mistakes_is_accepted_whole(tmp_path):
    clean = Scenario(labels=CLEAN, voters=["a1", "a2", "a3"], n_voters=[1, 2, 3], adjudicators=["adj"],
                     adjudicated=(1.0, 0.0), judges=["llm"], judged=0.5, chunks=[1, 2, 5], rank_gaps=0.5,
                     resubmitted=0, duplicated=0, conflicting=0, spoilt=0)
    records = {task: [f"{task}-{i}" for i in range(60)] for task in TASKS}
    exports = scenario_exports(clean, records, seed=3)
    assert exports == scenario_exports(clean, records, seed=3)          # reproducible from the seed
    assert exports != scenario_exports(clean, records, seed=4)
    write_folder(tmp_path, exports, [(a, "HUMAN", "annotator", "") for a in ("a1", "a2", "a3", "adj")]
                 + [("llm", "LLM", "annotator", "")], check=True)
    for task, counts in _statuses(tmp_path).items():
        assert set(counts) == {"accepted"} and counts["accepted"] == len(exports[task]), (task, counts)
        assert {r["record_uuid"] for r in exports[task]} == set(records[task])
    ranks = {int(r["chunk_rank"]) for r in exports["retrieval"]}
    assert max(ranks) > 5                                               # rank gaps


def test_a_scenarios_mistakes_are_rejected_or_superseded(tmp_path):
    messy = Scenario(labels=CLEAN, voters=["a1", "a2"], n_voters=[2], chunks=[2],
                     resubmitted=0.2, duplicated=0.1, conflicting=0.1, spoilt=0.3)
    exports = scenario_exports(messy, {task: [f"r{i}" for i in range(150)] for task in TASKS}, seed=5)
    write_folder(tmp_path, exports, [("a1", "HUMAN", "annotator", ""), ("a2", "HUMAN", "annotator", "")])
    for task, counts in _statuses(tmp_path).items():
        assert counts["superseded"] > 0 and counts["rejected"] > 0 and counts["accepted"] > 0, (task, counts)
    cells = {v for rows in exports.values() for r in rows for v in r.values()}
    assert cells & set(NULL_WORDS) and cells & set(BAD_CELLS["boolean"])
