"""The daily workflow (docs/rules.md, "Daily exports"): whole-history re-exports, exact copies, blank
rows and empty exports give the marts of the same rows exported once, or a build that stops naming
the export and its files.

Three files-mode builds of the project's sample (the kit's scenarios ``daily_*``, guards only):

* ``daily_history``: each export as two daily files: the first day's file holds the first half of
  its rows, the second day's every row (the whole history, in the seed's order), then copies of
  five of its own rows and three blank rows (a full-width ``,,,,``, a shorter ``,,`` and a line of
  spaces). Built up to the row statuses, ``export_row_counts`` and the quarantine: the staged rows
  and row statuses equal those of the seeds-mode sample build, and so every public mart does
  (kit/adapters.py); ``export_row_counts`` and ``rejected_annotations`` are compared too, but for
  ``n_repeated`` and ``n_blank`` (counted here from the files) and the quarantine's file, which is
  the second day's (each rejected row once, at its place there);
* ``daily_empty``: the retrieval export a header alone: the build stops before any table is
  published, naming the export and its file;
* ``daily_allowed``: the retrieval export a header alone and the grounding export blank rows alone,
  with ``allow_empty_exports: [retrieval, grounding]``: the build (up to ``export_row_counts`` and
  ``generation_metrics``) passes, ``export_row_counts`` has their rows with 0 rows,
  ``generation_metrics`` equals the sample's; on a copy of it, the guard
  ``assert_exports_have_rows`` with only retrieval allowed stops naming grounding and its file.

Three more files-mode builds of the sample for the records input and the row ids (guards only):

* ``records_daily``: each export as one file of the second day, the records input as two daily
  files, the second day's holding the first day's rows (its first half) and the rest;
* ``records_once``: the same with the second day's records file alone: every public mart equals
  ``records_daily``'s, ``annotation_row_id`` and the quarantine's files included, but for the
  records' ``n_repeated`` (the first day's copies, counted here), and the build log names the
  records file that repeats a later one;
* ``records_daily_earlier``: ``records_daily`` with one more retrieval file whose name sorts
  first (an earlier day: copies of half the rows and two rows of its own, rejected), built up to
  the quarantine: the rejected rows of the other files keep their ``annotation_row_id`` (and every
  other column).

And one seeds-mode build, ``sample_spelled``: the sample with a tool's own label spellings
(``topically_relevant`` as ``relevant`` / ``unrelated``, ``unsupported_claim_present`` as Phoenix's
hallucination evaluator says it, ``hallucinated`` / ``factual``), read with a per-label
``label_values`` beside a flat entry that would invert relevance (``relevant: 0``, which the
per-label mapping overrides for its label): built up to the validated rows, every row has the
parsed labels, status and reasons of the sample's (so every metric mart is the sample's), and the
build log lists each spelling with its value and rows, counted here from the files.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import duckdb
import pytest
from export_schema import FILES, write_csv
from kit.adapters import NATIVE_SELECT, STAGED, staged_rows
from kit.builds import PROJECT, PUBLIC_MARTS, data_set, read_run_results, run_dbt, scenario

pytestmark = pytest.mark.slow                      # four builds of the kit (three partial) and one dbt test run

EXPORTS = ["retrieval", "grounding", "generation"]
DAYS = ("2026-11-26", "2026-11-27")
N_COPIES = 5
BLANK_LINES = 3


def _seed_rows(task: str) -> tuple[list[str], list[list[str]]]:
    with open(PROJECT / "seeds" / FILES[task], newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _side_files(out: Path) -> None:
    for name in ("annotators", "records"):
        (out / FILES[name]).write_bytes((PROJECT / "seeds" / FILES[name]).read_bytes())


def _blank_lines(n_columns: int) -> str:
    return "," * (n_columns - 1) + "\n" + ",," + "\n" + "   \n"


@data_set("daily_history")
def _history(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for task in EXPORTS:
        header, rows = _seed_rows(task)
        write_csv(out / f"{task}_{DAYS[0]}.csv", header, rows[: len(rows) // 2])
        later = out / f"{task}_{DAYS[1]}.csv"
        write_csv(later, header, rows + rows[:N_COPIES])
        with open(later, "a", encoding="utf-8", newline="") as fh:
            fh.write(_blank_lines(len(header)))
    _side_files(out)
    return out


@data_set("daily_empty")
def _empty(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for task in EXPORTS:
        header, rows = _seed_rows(task)
        write_csv(out / f"{task}_{DAYS[1]}.csv", header, [] if task == "retrieval" else rows)
    _side_files(out)
    return out


@data_set("daily_allowed")
def _allowed(out: Path) -> Path:
    _empty(out)
    header, _ = _seed_rows("grounding")
    path = out / f"grounding_{DAYS[1]}.csv"
    write_csv(path, header, [])
    with open(path, "a", encoding="utf-8", newline="") as fh:
        fh.write(_blank_lines(len(header)))
    return out


EARLIER = "2026-11-25"           # a day before DAYS: its file sorts first by name


def _one_day_exports(out: Path) -> None:
    """The sample's exports, each as one file of the second day, and its annotators file."""
    out.mkdir(parents=True, exist_ok=True)
    for task in EXPORTS:
        header, rows = _seed_rows(task)
        write_csv(out / f"{task}_{DAYS[1]}.csv", header, rows)
    (out / FILES["annotators"]).write_bytes((PROJECT / "seeds" / FILES["annotators"]).read_bytes())


@data_set("records_daily")
def _records_daily(out: Path) -> Path:
    _one_day_exports(out)
    header, rows = _seed_rows("records")
    write_csv(out / f"records_{DAYS[0]}.csv", header, rows[: len(rows) // 2])
    write_csv(out / f"records_{DAYS[1]}.csv", header, rows)
    return out


@data_set("records_once")
def _records_once(out: Path) -> Path:
    _one_day_exports(out)
    header, rows = _seed_rows("records")
    write_csv(out / f"records_{DAYS[1]}.csv", header, rows)
    return out


def _earlier_rows() -> tuple[list[str], list[list[str]]]:
    """The earlier retrieval file: copies of the first half of the rows, then two rows of records
    no other file has, in a language the vars do not accept (rejected as invalid_language)."""
    header, rows = _seed_rows("retrieval")
    own = []
    for n, row in enumerate(rows[:2], start=1):
        row = list(row)
        row[header.index("record_uuid")] = f"earlier-{n}"
        row[header.index("language")] = "xx"
        own.append(row)
    return header, rows[: len(rows) // 2] + own


@data_set("records_daily_earlier")
def _records_daily_earlier(out: Path) -> Path:
    _records_daily(out)
    header, rows = _earlier_rows()
    write_csv(out / f"retrieval_{EARLIER}.csv", header, rows)
    return out


SPELLINGS = {"topically_relevant": ("relevant", "unrelated"), "unsupported_claim_present": ("hallucinated", "factual")}
SPELLED_VARS = {"label_values": {"relevant": 0, **{label: {one: 1, zero: 0} for label, (one, zero) in SPELLINGS.items()}}}


def _spelled(value: str) -> str | None:
    """A boolean spelling's value (None for any other text)."""
    v = (value or "").strip().lower()
    return 1 if v in ("true", "t", "1", "yes", "y") else 0 if v in ("false", "f", "0", "no", "n") else None


@data_set("sample_spelled")
def _sample_spelled(out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for task in EXPORTS:
        header, rows = _seed_rows(task)
        for label, (one, zero) in SPELLINGS.items():
            if label in header:
                column = header.index(label)
                for row in rows:
                    value = _spelled(row[column])
                    row[column] = row[column] if value is None else (one if value == 1 else zero)
        write_csv(out / FILES[task], header, rows)
    _side_files(out)
    return out


scenario("daily_history", "daily_history", tests=True, generic_tests=False, files=True,
         select=NATIVE_SELECT + ["+export_row_counts", "+rejected_annotations"])
scenario("sample_spelled", "sample_spelled", SPELLED_VARS, tests=True, generic_tests=False,
         select=["+int_annotations__validated", "+stg_annotation_exports__files"])
scenario("daily_empty", "daily_empty", tests=True, generic_tests=False, files=True)
scenario("daily_allowed", "daily_allowed", {"allow_empty_exports": ["retrieval", "grounding"]}, tests=True,
         generic_tests=False, files=True, select=["+export_row_counts", "+generation_metrics"])
scenario("records_daily", "records_daily", tests=True, generic_tests=False, files=True)
scenario("records_once", "records_once", tests=True, generic_tests=False, files=True)
scenario("records_daily_earlier", "records_daily_earlier", tests=True, generic_tests=False, files=True,
         select=["+rejected_annotations"])
SCENARIOS_USED = ["sample", "daily_history", "daily_empty", "daily_allowed", "sample_spelled", "records_daily",
                  "records_once", "records_daily_earlier"]

# annotation_row_id and source_file name the seed in seeds mode, the daily file in files mode; checked on their own
SKIPPED_COLUMNS = {"rejected_annotations": ["annotation_row_id", "source_file"],
                   "export_row_counts": ["n_repeated", "n_blank"]}


def _read(database: Path, marts: list[str]) -> dict[str, list[tuple]]:
    with duckdb.connect(str(database), read_only=True) as con:
        out = {}
        for mart in marts:
            skipped = SKIPPED_COLUMNS.get(mart)
            columns = f"* exclude ({', '.join(skipped)})" if skipped else "*"
            out[mart] = sorted(con.execute(f"select {columns} from {mart}").fetchall(), key=repr)
        return out


def _same(left: list[tuple], right: list[tuple]) -> bool:
    def equal(a, b):
        if isinstance(a, float) and isinstance(b, float):
            return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
        return a == b
    return len(left) == len(right) and all(
        len(x) == len(y) and all(equal(u, v) for u, v in zip(x, y)) for x, y in zip(left, right))


def _passed(build):
    build.check()
    failed = [r for r in build.node_results if r["status"] in ("error", "fail")]
    assert build.returncode == 0 and not failed, f"[{build.name}] {failed}\n{build.output[-3000:]}"
    return build


@pytest.fixture(scope="module")
def sample(builds):
    return _passed(builds.get("sample"))


@pytest.mark.parametrize("staged", STAGED + ["row_status"])
def test_whole_history_exports_give_the_staged_rows_of_one_export(builds, sample, staged):
    history = _passed(builds.get("daily_history"))
    expected = sample.derived("staged_rows", lambda: staged_rows(sample.db_path))[staged]
    assert expected, f"{staged} is empty: the comparison would prove nothing"
    got = history.derived("staged_rows", lambda: staged_rows(history.db_path))[staged]
    assert _same(expected, got), f"{staged} differs with whole-history exports"


@pytest.mark.parametrize("mart", ["export_row_counts", "rejected_annotations"])
def test_whole_history_exports_give_the_accounting_of_one_export(builds, sample, mart):
    history = _passed(builds.get("daily_history"))
    expected = _read(sample.db_path, [mart])[mart]
    assert expected, f"{mart} is empty: the comparison would prove nothing"
    assert _same(expected, _read(history.db_path, [mart])[mart]), f"{mart} differs with whole-history exports"


def test_copies_and_blank_rows_are_counted_once_and_named_in_the_log(builds, sample):
    history = _passed(builds.get("daily_history"))
    with duckdb.connect(str(sample.db_path), read_only=True) as con:
        in_sample = {task: n for task, n in con.execute("select task, n_repeated from export_row_counts").fetchall()}
    with duckdb.connect(str(history.db_path), read_only=True) as con:
        counted = {task: (n_repeated, n_blank) for task, n_repeated, n_blank in con.execute(
            "select task, n_repeated, n_blank from export_row_counts").fetchall()}
        files = {(task, name) for task, name in con.execute(
            "select distinct task, source_file from rejected_annotations where task <> 'records'").fetchall()}
        rejected_rows = con.execute(
            "select count(*), count(distinct task || ':' || source_row) from rejected_annotations").fetchone()
    for task in EXPORTS:
        _, rows = _seed_rows(task)
        # the first day's rows, the copies at the end of the second day's file, and the sample's own
        assert counted[task] == (len(rows) // 2 + N_COPIES + in_sample[task], BLANK_LINES), task
        assert (task, f"{task}_{DAYS[1]}.csv") in files and (task, f"{task}_{DAYS[0]}.csv") not in files, task
    assert rejected_rows[0] == rejected_rows[1], "a rejected row appears twice in rejected_annotations"
    for task in EXPORTS:
        n_first = len(_seed_rows(task)[1]) // 2
        assert (f"ragmart: {task}_{DAYS[0]}.csv: {n_first:,} of {n_first:,} rows repeat later files"
                in history.output), task
        assert f"ragmart: {task}_{DAYS[1]}.csv: {BLANK_LINES} blank row(s) skipped" in history.output, task


def test_a_header_only_export_stops_the_build_naming_it(builds):
    empty = builds.get("daily_empty")
    assert empty.returncode not in (0, None)
    assert [r["unique_id"] for r in empty.node_results if r["status"] == "error"] == \
        ["model.ragmart.base_native__export_files"], empty.node_results
    message = " ".join(empty.output.split())
    assert f"the retrieval export holds no data row, only a header (retrieval: retrieval_{DAYS[1]}.csv)" in message
    assert "allow_empty_exports" in message
    # nothing past the reading of the files was built, so no mart was written
    built = {r["unique_id"].split(".")[-1] for r in empty.node_results if r["status"] == "success"}
    assert not built & set(PUBLIC_MARTS), built & set(PUBLIC_MARTS)


def test_allowed_empty_exports_publish_a_zero_row(builds, sample, tmp_path):
    allowed = _passed(builds.get("daily_allowed"))
    with duckdb.connect(str(allowed.db_path), read_only=True) as con:
        counts = {row[0]: row[1:] for row in con.execute(
            "select task, n_rows, n_accepted, n_rejected, rejected_share, n_repeated, n_blank from export_row_counts"
        ).fetchall()}
    assert counts["retrieval"] == (0, 0, 0, 0.0, 0, 0)
    assert counts["grounding"] == (0, 0, 0, 0.0, 0, BLANK_LINES)
    for mart in ("generation_metrics",):
        assert _same(_read(sample.db_path, [mart])[mart], _read(allowed.db_path, [mart])[mart]), mart

    # the guard on its own, with only retrieval allowed: grounding's blank rows are no data row
    project = allowed.copy(tmp_path)
    variables = allowed.vars | {"allow_empty_exports": ["retrieval"]}
    result = run_dbt(project, ["test", "--select", "assert_exports_have_rows", "--vars", json.dumps(variables)],
                     env={"RAGMART_DUCKDB_PATH": allowed.db_path.name})
    message = " ".join((result.stdout + result.stderr).split())
    assert result.returncode != 0
    assert f"an export holds no data row: grounding (grounding_{DAYS[1]}.csv)" in message, message[-2000:]
    assert [r["status"] for r in read_run_results(project)] == ["error"]



def _all_columns(database: Path, mart: str) -> list[dict]:
    with duckdb.connect(str(database), read_only=True) as con:
        cursor = con.execute(f"select * from {mart}")
        names = [d[0] for d in cursor.description]
        return sorted((dict(zip(names, row)) for row in cursor.fetchall()), key=repr)


def test_copies_of_the_records_input_count_once(builds):
    """A daily records file holding the day before's rows and new ones: each row counts once, the
    first day's rows are counted in n_repeated (counted here from the files), and every public mart
    is the one of the second day's file alone."""
    daily, once = _passed(builds.get("records_daily")), _passed(builds.get("records_once"))
    _, rows = _seed_rows("records")
    read = rows[: len(rows) // 2] + rows                 # the rows of both days' files
    distinct = {tuple(value.strip() or None for value in row) for row in read}
    n_copies = len(read) - len(distinct)
    assert n_copies >= len(rows) // 2 > 0
    counts = {row["task"]: row for row in _all_columns(daily.db_path, "export_row_counts")}
    assert (counts["records"]["n_rows"], counts["records"]["n_repeated"], counts["records"]["n_blank"]) == \
        (len(distinct), n_copies, 0)
    assert counts["records"]["n_accepted"] + counts["records"]["n_superseded"] + counts["records"]["n_rejected"] \
        == len(distinct)
    for mart in PUBLIC_MARTS:
        expected, got = _all_columns(once.db_path, mart), _all_columns(daily.db_path, mart)
        if mart == "export_row_counts":
            expected = [row | {"n_repeated": row["n_repeated"] + n_copies} if row["task"] == "records" else row
                        for row in expected]
        assert expected, f"{mart} is empty: the comparison would prove nothing"
        assert _same([tuple(r.values()) for r in expected], [tuple(r.values()) for r in got]), mart
    rejected_records = [r for r in _all_columns(daily.db_path, "rejected_annotations") if r["task"] == "records"]
    assert rejected_records and {r["source_file"] for r in rejected_records} == {f"records_{DAYS[1]}.csv"}
    n_first = len(rows) // 2
    assert (f"ragmart: records_{DAYS[0]}.csv: {n_first:,} of {n_first:,} rows repeat later files"
            in daily.output)


def test_a_file_added_keeps_the_row_ids_of_the_others(builds):
    """An earlier day's file added to the folder (its name sorts first): the rejected rows of the
    files already there keep their annotation_row_id, so two days' quarantines join on it."""
    before, after = _passed(builds.get("records_daily")), _passed(builds.get("records_daily_earlier"))
    old = _all_columns(before.db_path, "rejected_annotations")
    new = _all_columns(after.db_path, "rejected_annotations")
    added = f"retrieval_{EARLIER}.csv"
    assert {r["task"] for r in old} == {*EXPORTS, "records"}, "the comparison would prove little"
    assert sorted(r["source_row"] for r in new if r["source_file"] == added) == \
        [len(_earlier_rows()[1]) - 1, len(_earlier_rows()[1])]
    assert [r for r in new if r["source_file"] != added] == old
    by_place = {(r["task"], r["source_file"], r["source_row"]): r["annotation_row_id"] for r in new}
    assert all(by_place[(r["task"], r["source_file"], r["source_row"])] == r["annotation_row_id"] for r in old)


def _validated(database: Path, task: str) -> list[tuple]:
    """A family's validated rows (parsed labels, status, reasons) but their row ids, which name the
    seed's file in seeds mode."""
    with duckdb.connect(str(database), read_only=True) as con:
        return sorted(con.execute("select * exclude (annotation_row_id) from intermediate.int_annotations__validated"
                                  " where task = ?", [task]).fetchall(), key=repr)


@pytest.mark.parametrize("task", EXPORTS)
def test_per_label_spellings_give_the_rows_of_boolean_spellings(builds, sample, task):
    """Everything after validation reads the parsed labels, so the metric marts are the sample's."""
    spelled = _passed(builds.get("sample_spelled"))
    expected = _validated(sample.db_path, task)
    assert expected, f"{task}'s validated rows are empty: the comparison would prove nothing"
    assert _same(expected, _validated(spelled.db_path, task)), f"{task}'s validated rows differ with the tool's spellings"


def test_the_build_log_lists_each_spelling_with_its_value(builds):
    spelled = _passed(builds.get("sample_spelled"))
    log = " ".join(spelled.output.split())
    for task in EXPORTS:
        path = spelled.seed_dir / FILES[task]
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            seen, counts = set(), {}
            for row in reader:
                content = tuple((v or "").strip() for v in row.values())
                if content in seen or not any(content):
                    continue  # exact copies count once; blank rows are no rows
                seen.add(content)
                for label, (one, zero) in SPELLINGS.items():
                    value = (row.get(label) or "").strip().lower()
                    if value in (one, zero):
                        counts[(label, value)] = counts.get((label, value), 0) + 1
        for label, (one, _zero) in SPELLINGS.items():
            if (label, one) not in counts:
                continue
            parts = sorted(((value, 1 if value == one else 0, n) for (name, value), n in counts.items() if name == label),
                           key=lambda part: (-part[2], part[0]))
            line = f"{label}: " + ", ".join(f"{value} → {number} ({n:,} rows)" for value, number, n in parts)
            assert f"(var label_values): {line}" in log, line


def test_the_files_reader_stops_on_any_header_only_export():
    """The reader's check on its own (a build stops with its message, as daily_empty shows): each
    export whose every file holds a header alone is named with its files, unless allowed."""
    from kit.adapters import reader_module

    reader = reader_module("models/staging/native/base_native__export_files.py")
    found = {task: [f"/in/{task}_{day}.csv" for day in DAYS] for task in EXPORTS}
    for task in EXPORTS:
        empty = {name: ([Path(p).name for p in found[name]] if name == task else []) for name in EXPORTS}
        with pytest.raises(reader.ExportFileError) as stopped:
            reader._stop_on_empty_exports(found, empty, set())
        assert f"the {task} export holds no data row, only a header ({task}: {task}_{DAYS[0]}.csv," \
               f" {task}_{DAYS[1]}.csv)" in str(stopped.value)
        reader._stop_on_empty_exports(found, empty, {task})
        # one empty file beside one with rows is no empty export
        reader._stop_on_empty_exports(found, {**empty, task: empty[task][:1]}, set())
    with pytest.raises(reader.ExportFileError, match="the retrieval and generation exports hold no data row"):
        reader._stop_on_empty_exports(found, {name: [Path(p).name for p in found[name]] if name != "grounding" else []
                                              for name in EXPORTS}, set())
