"""Real exports in files mode: every shape gives the marts of the same rows as clean CSV, or a clear failure.

A small export is generated (dev/generate/generate_exports.py, fixed seed, 2 % bad rows) as plain CSV
files, three parts per export. From it this module builds (as the kit's scenarios ``real_*``, each
built once per session beside the others):

* ``seeds``: the same rows appended into the seed files (seeds mode);
* ``csv``: the generated CSV folder as it is (files mode), the clean-CSV reference;
* ``shapes``: the same rows in the shapes real tools write: an Excel-style file (byte-order mark,
  CRLF, semicolons), one with Excel's `sep=;` first line, Excel's "Unicode text" (UTF-16, tabs),
  a tab-separated .tsv file, a gzip-compressed CSV file, a pandas round trip (ranks written ``3.0``), shuffled
  and extra columns with the optional columns absent, Parquet written by pyarrow with native
  types (booleans, int64 and float64 labels, int64 ranks, zoned, zone-less and non-UTC
  timestamps in micro- and nanoseconds; the rows a native column cannot hold go to a CSV file beside it) and Parquet with
  text columns;
* ``latin1``: every file in latin-1 with semicolons, read with ``input_encoding: latin-1`` and
  ``csv_delimiter: ';'``;
* ``mixed``: the encodings and annotators files of a real team, under ``input_encoding: latin-1``:
  an adjudicator and a judge with non-ASCII ids (``m.könig``, ``llm.prüfer-gpt4o``), the
  retrieval and generation exports saved as latin-1 beside UTF-8 grounding exports, the
  annotators list in UTF-8 with an identical daily copy beside it, and the adjudicator's row in a
  latin-1 annotators file (with a row repeated from the UTF-8 list): each file is decoded on its
  own, identical annotators rows count once, so the marts are those of ``seeds`` with the two ids
  renamed;
* ``hostile``: the CSV folder under a path with a space, brackets and an apostrophe, with a
  ragged row (too few fields), a row with too many fields, an unterminated quote and a 5 MB cell;
  the bad records are quarantined as ``malformed_row`` with their file and row, the rest loads;
and runs five builds of its own that must fail with a message naming the cause: a file with a
duplicated column, a file whose header matches none of its records, a file named for an input in
a format the build cannot read (.xlsx), unusable annotator rows, and an export without
annotators whose ranks are nearly all invalid (too many rejected rows).

Every public mart of ``csv``, ``shapes``, ``latin1``, ``mixed`` and ``hostile`` is compared with ``seeds``
(floats to 1e-9). ``csv`` runs every data test; the other builds run the singular tests (the
guards), since their marts and row statuses must equal those of ``seeds``, which ``csv`` equals. The
quarantine's original values are text renderings of what each file held, so across shapes it is
compared by its keys and reasons; between ``seeds`` and ``csv`` in full.
"""

from __future__ import annotations

import csv
import functools
import gzip
import hashlib
import importlib.util
import io
import json
import math
import random
import shutil
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import reference as R
from export_schema import FILES, LABELS
from kit.builds import PROJECT, PUBLIC_MARTS, data_set, prepare_project, read_run_results, run_dbt, scenario

pytestmark = pytest.mark.slow                      # five builds of the kit and seven dbt runs of its own

GENERATOR = PROJECT / "dev" / "generate" / "generate_exports.py"
SEED_NAMES = FILES
QUARANTINE_KEY = "task, record_uuid, annotator_id, chunk_id, reasons"


# --------------------------------------------------------------------------- files


def _generate(out: Path) -> dict:
    subprocess.run([sys.executable, str(GENERATOR), "--records", "240", "--annotators", "3", "--chunks", "6",
                    "--seed", "11", "--bad-rate", "0.02", "--format", "csv", "--files", "3", "--runs", "2", "--out", str(out),
                    "--quiet"], check=True)
    return json.loads((out / "summary.json").read_text())


def _read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        return header, list(reader)


def _write_csv(path: Path, header: list[str], rows: list[list[str]], *, delimiter: str = ",",
               line_end: str = "\n", encoding: str = "utf-8", bom: bool = False) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=line_end)
    writer.writerow(header)
    writer.writerows(rows)
    data = buffer.getvalue().encode(encoding, errors="replace")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)


def _export_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix == ".csv" and p.name != "expected_status.csv")


def _append_parts(src: Path, dst: Path) -> None:
    """Write one seed file per input with the rows of all its CSV parts, in part order."""
    dst.mkdir(parents=True, exist_ok=True)
    for prefix, seed_name in SEED_NAMES.items():
        parts = sorted(src.glob(f"{prefix}*.csv"))
        assert parts, f"no {prefix}*.csv in {src}"
        header, rows = _read_rows(parts[0])
        for part in parts[1:]:
            rows += _read_rows(part)[1]
        _write_csv(dst / seed_name, header, rows)


def _boolean(value: str) -> bool | None:
    return {1: True, 0: False}.get(R.parse_bool(value))


def _instant(value: str) -> datetime | None:
    """The UTC instant of a created_at text (None when it does not parse or has more than microseconds)."""
    seconds = R.parse_timestamp(value)
    if seconds is None or (seconds * 1_000_000).denominator != 1:
        return None
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=int(seconds * 1_000_000))


def _write_native_parquet(path: Path, spill: Path, header: list[str], rows: list[list[str]], task: str, *,
                          label_type: str, zone: str | None, unit: str = "us") -> None:
    """Rows whose labels, rank and time a native column can hold go to a typed Parquet file; the rest to `spill` (CSV).

    label_type: bool, int64 or float64. zone: the time zone of created_at (None: zone-less UTC times).
    """
    position = {name: i for i, name in enumerate(header)}
    labels = LABELS[task] + (["can_answer"] if task == "retrieval" else [])
    native, rest = [], []
    for row in rows:
        values = {name: row[i] for name, i in position.items()}
        ok = all(_boolean(values[label]) is not None or (label == "can_answer" and not values[label].strip())
                 for label in labels)
        ok = ok and _instant(values["created_at"]) is not None
        if task == "retrieval":
            ok = ok and R.parse_rank(values["chunk_rank"]) is not None
        (native if ok else rest).append(values)
    assert native, "a typed file should hold rows"
    columns = {}
    for name in header:
        if name in labels:
            flags = [_boolean(v[name]) if v[name].strip() else None for v in native]
            if label_type == "bool":
                columns[name] = pa.array(flags, pa.bool_())
            else:
                columns[name] = pa.array([None if f is None else int(f) for f in flags],
                                         pa.int64() if label_type == "int64" else pa.float64())
        elif name == "chunk_rank":
            columns[name] = pa.array([R.parse_rank(v[name]) for v in native], pa.int64())
        elif name == "created_at":
            instants = [_instant(v[name]) for v in native]
            if zone is None:
                columns[name] = pa.array([t.replace(tzinfo=None) for t in instants], pa.timestamp(unit))
            else:
                columns[name] = pa.array([t.astimezone(ZoneInfo(zone)) for t in instants], pa.timestamp(unit, tz=zone))
        else:
            columns[name] = pa.array([v[name] for v in native], pa.string())
    pq.write_table(pa.table(columns), path)
    if rest:
        _write_csv(spill, header, [[v[name] for name in header] for v in rest])


def _write_shapes(src: Path, dst: Path) -> None:
    """The generated rows again, in the file shapes of real tools (see the module docstring)."""
    dst.mkdir(parents=True)
    header, rows = _read_rows(src / "annotators.csv")  # Excel's "Unicode text": UTF-16 with a mark, tabs
    _write_csv(dst / "annotators_unicode.txt", header, rows, delimiter="\t", line_end="\r\n", encoding="utf-16")
    header, rows = _read_rows(src / "records.csv")
    pq.write_table(pa.table({name: pa.array([r[i] for r in rows], pa.string()) for i, name in enumerate(header)}),
                   dst / "records.parquet")
    parts = {task: sorted(src.glob(f"{task}*.csv")) for task in LABELS}
    # retrieval: Excel (BOM, CRLF, semicolons); Parquet with booleans, int64 ranks and UTC times;
    # shuffled columns with an extra one and the optional texts absent, ranks as pandas writes them
    header, rows = _read_rows(parts["retrieval"][0])
    _write_csv(dst / "retrieval_1_excel.csv", header, rows, delimiter=";", line_end="\r\n", bom=True)
    header, rows = _read_rows(parts["retrieval"][1])
    _write_native_parquet(dst / "retrieval_2_native.parquet", dst / "retrieval_2_spill.csv", header, rows,
                          "retrieval", label_type="bool", zone="UTC")
    header, rows = _read_rows(parts["retrieval"][2])
    keep = [name for name in header if name not in ("notes", "doc_id", "generated_search_query")]
    random.Random(3).shuffle(keep)
    order = [header.index(name) for name in keep]
    shuffled = []
    for row in rows:
        values = [row[i] for i in order]
        rank = keep.index("chunk_rank")
        if values[rank].isdigit():
            values[rank] += ".0"
        shuffled.append(values + ["ignored"])
    _write_csv(dst / "retrieval_3_pandas.csv", keep + ["Exported By"], shuffled)
    # grounding: Parquet with int64 labels and zone-less times; tab-separated; CRLF
    header, rows = _read_rows(parts["grounding"][0])
    _write_native_parquet(dst / "grounding_1_native.parquet", dst / "grounding_1_spill.csv", header, rows,
                          "grounding", label_type="int64", zone=None)
    header, rows = _read_rows(parts["grounding"][1])
    _write_csv(dst / "grounding_2_tabs.tsv", header, rows, delimiter="\t")
    header, rows = _read_rows(parts["grounding"][2])  # Excel's `sep=;` first line names the delimiter
    _write_csv(dst / "grounding_3_sep.csv", header, rows, delimiter=";", line_end="\r\n")
    (dst / "grounding_3_sep.csv").write_bytes(b"sep=;\r\n" + (dst / "grounding_3_sep.csv").read_bytes())
    # generation: Parquet of text columns; plain CSV; Parquet with float64 labels and Berlin times
    header, rows = _read_rows(parts["generation"][0])
    pq.write_table(pa.table({name: pa.array([r[i] for r in rows], pa.string()) for i, name in enumerate(header)}),
                   dst / "generation_1_text.parquet")
    with open(parts["generation"][1], "rb") as plain, gzip.open(dst / "generation_2_plain.csv.gz", "wb") as packed:
        shutil.copyfileobj(plain, packed)
    header, rows = _read_rows(parts["generation"][2])
    _write_native_parquet(dst / "generation_3_native.parquet", dst / "generation_3_spill.csv", header, rows,
                          "generation", label_type="float64", zone="Europe/Berlin", unit="ns")


def _write_latin1(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True)
    for path in _export_files(src):
        header, rows = _read_rows(path)
        _write_csv(dst / path.name, header, rows, delimiter=";", encoding="latin-1")


# mixed: the ids the files give two annotators of the generated export
RENAMED = {"m.koenig": "m.könig", "llm.judge-gpt4o": "llm.prüfer-gpt4o"}
LATIN1_FAMILIES = ("retrieval", "generation")       # mixed: the exports saved as latin-1
# the columns of the training marts that hold texts of the exports (a latin-1 file holds `?` for
# every character latin-1 lacks)
TRAINING_TEXTS = {"retrieval_training_pairs": (0, 1), "grounding_training_pairs": (0, 1),
                  "generation_training_pairs": (0, 1)}


def _latin1_texts(mart: str, row: tuple) -> tuple:
    """A training mart's row as the latin-1 files give it."""
    row = list(row)
    for column in TRAINING_TEXTS.get(mart, ()):
        if row[column] is not None:
            row[column] = row[column].encode("latin-1", "replace").decode("latin-1")
    return tuple(row)


def _renamed_ids(header: list[str], rows: list[list[str]]) -> list[list[str]]:
    if "annotator_id" not in header:
        return rows
    column = header.index("annotator_id")
    return [row[:column] + [RENAMED.get(row[column], row[column])] + row[column + 1:] for row in rows]


def _write_mixed(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True)
    for path in _export_files(src):
        header, rows = _read_rows(path)
        rows = _renamed_ids(header, rows)
        if path.name.startswith("records"):
            _write_csv(dst / path.name, header, rows)
        elif path.name.startswith("annotators"):
            adjudicator = [row for row in rows if row[0] == RENAMED["m.koenig"]]
            others = [row for row in rows if row[0] != RENAMED["m.koenig"]]
            assert adjudicator and any(row[0] == RENAMED["llm.judge-gpt4o"] for row in others)
            _write_csv(dst / "annotators.csv", header, others)
            _write_csv(dst / "annotators_copy_2025-03-02.csv", header, others)
            _write_csv(dst / "annotators_adjudicators.csv", header, adjudicator + others[:1], encoding="latin-1")
        else:
            latin1 = path.name.startswith(LATIN1_FAMILIES)
            _write_csv(dst / path.name, header, rows, encoding="latin-1" if latin1 else "utf-8")


MALFORMED = {
    # file: (data row the bad record takes, its text)
    "retrieval_annotations_part001.csv": (5, "ragged,row,with,too,few,fields"),
    "retrieval_annotations_part002.csv": (7, "r,a,retrieval,de,2025-03-01T10:00:00,q,\"unterminated,quote,x,c,d,1,,1,0,0,"),
    "grounding_annotations_part001.csv": (3, "too,many" + ",x" * 20),
}
BIG_CELL = 5 * 1024 * 1024


def _insert_line(path: Path, data_row: int, line: str) -> None:
    """Put `line` where data row `data_row` of the file starts (the rows from there move down one)."""
    header, rows = _read_rows(path)
    before, after = io.StringIO(), io.StringIO()
    csv.writer(before, lineterminator="\n").writerows([header] + rows[: data_row - 1])
    csv.writer(after, lineterminator="\n").writerows(rows[data_row - 1:])
    path.write_text(before.getvalue() + line + "\n" + after.getvalue(), encoding="utf-8")


def _write_hostile(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True)
    for path in _export_files(src):
        shutil.copyfile(path, dst / path.name)
    header, rows = _read_rows(dst / "grounding_annotations_part002.csv")
    rows[0][header.index("notes")] = "x" * BIG_CELL
    _write_csv(dst / "grounding_annotations_part002.csv", header, rows)
    for name, (data_row, line) in MALFORMED.items():
        _insert_line(dst / name, data_row, line)


# --------------------------------------------------------------------------- builds
# The kit (kit/builds.py) builds each of these once per session, beside the other scenarios.
# Every data test runs on the clean CSV; the other builds must give the same marts and row
# statuses, compared below, and pass the guards (the singular tests).


def _export(out: Path) -> Path:
    """The generated export (the same rows each time: a fixed seed) in ``out/export``."""
    _generate(out / "export")
    return out / "export"


def _rewritten(write, folder: str, out: Path) -> Path:
    """The generated export written again by ``write`` into ``out/folder``."""
    write(_export(out), out / folder)
    return out / folder


data_set("real_csv")(_export)
for _name, _write, _folder in [("real_seeds", _append_parts, "seeds"), ("real_shapes", _write_shapes, "shapes"),
                               ("real_latin1", _write_latin1, "latin1"), ("real_mixed", _write_mixed, "mixed"),
                               ("real_hostile", _write_hostile, "a b [c] d'e")]:
    data_set(_name)(functools.partial(_rewritten, _write, _folder))

scenario("real_seeds", "real_seeds", tests=True, generic_tests=False)
scenario("real_csv", "real_csv", tests=True, files=True)
scenario("real_shapes", "real_shapes", tests=True, generic_tests=False, files=True)
scenario("real_latin1", "real_latin1", {"input_encoding": "latin-1", "csv_delimiter": ";"}, tests=True,
         generic_tests=False, files=True)
scenario("real_mixed", "real_mixed", {"input_encoding": "latin-1"}, tests=True, generic_tests=False, files=True)
scenario("real_hostile", "real_hostile", tests=True, generic_tests=False, files=True)
SHAPES = {"seeds": "real_seeds", "csv": "real_csv", "shapes": "real_shapes", "latin1": "real_latin1",
          "mixed": "real_mixed", "hostile": "real_hostile"}
SCENARIOS_USED = list(SHAPES.values())


def _run(tmp: Path, args: list[str], *, must_pass: bool = True) -> tuple[Path, str]:
    """``dbt <args>`` on the project copy in ``tmp``; the database and what dbt printed."""
    project, database = tmp / "project", tmp / "ragmart.duckdb"
    result = run_dbt(project, args, env={"RAGMART_DUCKDB_PATH": database.name}, log=tmp / "dbt.log")
    text = result.stdout + result.stderr
    if must_pass:
        assert result.returncode == 0, f"dbt failed:\n{text[-4000:]}"
        failed = [r for r in read_run_results(project) if r["status"] in ("error", "fail")]
        assert not failed, f"dbt nodes failed: {failed}"
    else:
        assert result.returncode != 0, "the build should have failed"
    return database, text


def _read(database: Path) -> dict[str, list[tuple]]:
    columns = {mart: "*" for mart in PUBLIC_MARTS} | {
        # annotation_row_id, source_file and source_row name the seed or the part: checked on their own below
        "rejected_annotations": "* exclude (annotation_row_id, source_file, source_row)"}
    with duckdb.connect(str(database), read_only=True) as con:
        return {mart: sorted(con.execute(f"select {columns[mart]} from {mart}").fetchall(), key=repr)
                for mart in PUBLIC_MARTS} | {
            "row_status": con.execute(
                "select task, annotation_status, count(*) from intermediate.int_annotations__row_status group by all order by all"
            ).fetchall(),
            "quarantine_keys": sorted(con.execute(f"select {QUARANTINE_KEY} from rejected_annotations").fetchall(),
                                      key=repr),
            "rejected_ids": con.execute(
                "select task, annotation_row_id, record_uuid, annotator_id, chunk_id, reasons, source_file, source_row"
                " from rejected_annotations").fetchall(),
            "malformed": sorted(con.execute(
                "select task, source_file, source_row, malformed_record from rejected_annotations"
                " where reasons = 'malformed_row'").fetchall()),
        }


@pytest.fixture(scope="module")
def exports(builds):
    """The generated export as CSV files, appended into seed files, and in every shape."""
    csv_dir = builds.data_dir("real_csv")
    return {"csv_dir": csv_dir, "summary": json.loads((csv_dir / "summary.json").read_text()),
            "seed_dir": builds.data_dir("real_seeds"), "shapes": builds.data_dir("real_shapes")}


@pytest.fixture(scope="module")
def built(builds):
    """What each build of SHAPES holds (_read), after checking that every node passed."""
    out = {}
    for shape, name in SHAPES.items():
        build = builds.get(name).check()
        assert build.returncode == 0, f"[{name}] dbt build exited with {build.returncode}:\n{build.output[-4000:]}"
        failed = [r for r in build.node_results if r["status"] in ("error", "fail")]
        assert not failed, f"[{name}] dbt nodes failed: {failed}"
        out[shape] = build.derived("real_exports", lambda build=build: _read(build.db_path))
    return out


# --------------------------------------------------------------------------- comparisons


def _equal(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b))
    return a == b


def _rows_equal(left: list[tuple], right: list[tuple]) -> bool:
    if len(left) != len(right):
        return False
    return all(len(x) == len(y) and all(_equal(u, v) for u, v in zip(x, y)) for x, y in zip(left, right))


def test_generated_exports_have_three_parts_and_bad_rows(exports):
    assert len(list(exports["csv_dir"].glob("retrieval*.csv"))) == 3
    expected = {task: summary["expected"] for task, summary in exports["summary"]["tasks"].items()}
    assert all(counts["rejected"] > 0 for counts in expected.values()), expected
    assert sum(counts["superseded"] for counts in expected.values()) > 0, expected


@pytest.mark.parametrize("mart", PUBLIC_MARTS + ["row_status"])
def test_clean_csv_files_equal_seeds_mode(built, mart):
    seeds, files = built["seeds"][mart], built["csv"][mart]
    # the generator makes no triage spot-checks, so labeling_drift may be empty, and the queues may
    # be (no triage record drawn, no tied label), in every mode alike
    assert seeds or mart in ("labeling_drift", "spot_check_queue", "adjudication_queue"), \
        f"{mart} is empty in seeds mode: the comparison would prove nothing"
    assert _rows_equal(seeds, files), f"{mart} differs between seeds mode and files mode"


@pytest.mark.parametrize("shape", ["shapes", "latin1", "hostile"])
@pytest.mark.parametrize("mart", [m for m in PUBLIC_MARTS if m != "rejected_annotations"])
def test_every_export_shape_gives_the_marts_of_clean_csv(built, shape, mart):
    expected = built["seeds"][mart]
    if shape == "hostile" and mart == "export_row_counts":
        # the hostile files hold three malformed records more, each a rejected row of its export
        extra = {"retrieval": 2, "grounding": 1}
        expected = sorted(((task, n + extra.get(task, 0), accepted, superseded, rejected + extra.get(task, 0),
                            (rejected + extra.get(task, 0)) / (n + extra.get(task, 0)), repeated, blank)
                           for task, n, accepted, superseded, rejected, _share, repeated, blank in expected), key=repr)
    if shape == "latin1" and mart == "run_comparison_queries":
        # the latin-1 files hold a `?` for every character latin-1 lacks, and query_text shows them
        column = 6  # run_comparison_queries: baseline_run_id, candidate_run_id, family, metric, k, pairing_key, query_text
        expected = sorted((row[:column] + (row[column].encode("latin-1", "replace").decode("latin-1"),) + row[column + 1:]
                           for row in expected), key=repr)
    if shape == "latin1" and mart in TRAINING_TEXTS:
        expected = sorted((_latin1_texts(mart, row) for row in expected), key=repr)
    assert _rows_equal(expected, built[shape][mart]), f"{mart} differs for the {shape} files"


def _latin1_text(text: str) -> str:
    """A text as a latin-1 file holds it: `?` for every character latin-1 lacks."""
    return text.encode("latin-1", "replace").decode("latin-1")


@pytest.mark.parametrize("mart", [m for m in PUBLIC_MARTS if m != "rejected_annotations"])
def test_mixed_encodings_and_annotators_files_give_the_marts_of_clean_csv(built, mart):
    """Each file decoded on its own and identical annotators rows counted once: the marts of
    ``seeds`` with the two annotators renamed (a latin-1 reading of the UTF-8 list, or a UTF-8
    reading of the latin-1 one, would make the judge or the adjudicator an unlisted human voter)."""
    def renamed(row: tuple) -> tuple:
        row = tuple(RENAMED.get(v, v) if isinstance(v, str) else v for v in row)
        if mart == "run_comparison_queries" and row[2] in LATIN1_FAMILIES:  # query_text of a latin-1 export
            row = row[:6] + (_latin1_text(row[6]),) + row[7:]
        if mart.split("_")[0] in LATIN1_FAMILIES:  # the texts of a latin-1 export
            row = _latin1_texts(mart, row)
        return row

    expected = sorted((renamed(row) for row in built["seeds"][mart]), key=repr)
    assert _rows_equal(expected, built["mixed"][mart]), f"{mart} differs for the mixed files"
    if mart == "judge_agreement":  # the renamed judge is read as the LLM judge it is
        assert RENAMED["llm.judge-gpt4o"] in {v for row in built["mixed"][mart] for v in row}


def test_mixed_encodings_quarantine_the_same_rows(built):
    renamed = sorted((tuple(RENAMED.get(v, v) if isinstance(v, str) else v for v in key)
                      for key in built["seeds"]["quarantine_keys"]), key=repr)
    assert built["mixed"]["quarantine_keys"] == renamed
    assert built["mixed"]["row_status"] == built["seeds"]["row_status"]


@pytest.mark.parametrize("shape", ["shapes", "latin1"])
def test_every_export_shape_quarantines_the_same_rows(built, shape):
    assert built[shape]["quarantine_keys"] == built["seeds"]["quarantine_keys"]
    assert built[shape]["row_status"] == built["seeds"]["row_status"]


def test_native_parquet_types_are_read_by_meaning(exports):
    """The typed files really are typed: the comparison above covers booleans, integers, floats and zoned times."""
    types = {p.name: {f.name: str(f.type) for f in pq.read_schema(p)} for p in exports["shapes"].glob("*.parquet")}
    assert types["retrieval_2_native.parquet"]["topically_relevant"] == "bool"
    assert types["retrieval_2_native.parquet"]["chunk_rank"] == "int64"
    assert types["retrieval_2_native.parquet"]["created_at"] == "timestamp[us, tz=UTC]"
    assert types["grounding_1_native.parquet"]["support_present"] == "int64"
    assert types["grounding_1_native.parquet"]["created_at"] == "timestamp[us]"
    assert types["generation_3_native.parquet"]["helpful"] == "double"
    assert types["generation_3_native.parquet"]["created_at"] == "timestamp[ns, tz=Europe/Berlin]"


def test_malformed_records_are_quarantined_with_file_and_row(built):
    want = sorted((name.split("_")[0], name, data_row, line) for name, (data_row, line) in MALFORMED.items())
    assert built["hostile"]["malformed"] == want
    seeds_status = Counter({(t, s): n for t, s, n in built["seeds"]["row_status"]})
    hostile_status = Counter({(t, s): n for t, s, n in built["hostile"]["row_status"]})
    assert hostile_status - seeds_status == Counter({("retrieval", "rejected"): 2, ("grounding", "rejected"): 1})
    assert Counter(built["hostile"]["quarantine_keys"]) - Counter(built["seeds"]["quarantine_keys"]) == Counter(
        {(task, None, None, None, "malformed_row"): n for task, n in [("retrieval", 2), ("grounding", 1)]})


def test_rejected_rows_name_their_file_and_row(exports, built):
    """source_file and source_row lead back to the generated file and row of every rejected row."""
    with open(exports["csv_dir"] / "expected_status.csv", newline="", encoding="utf-8") as fh:
        expected = list(csv.DictReader(fh))
    assert any(r["status"] == "rejected" for r in expected) and any(r["status"] == "superseded" for r in expected)

    def key(value):  # the quarantine shows ids trimmed, a blank id as null
        return value.strip() or None

    want = Counter((r["task"], key(r["record_uuid"]), key(r["annotator_id"]), key(r["chunk_id"]), r["reasons"],
                    r["file"], int(r["row_number_in_file"])) for r in expected if r["status"] == "rejected")
    got = Counter((row[0], *row[2:]) for row in built["csv"]["rejected_ids"])
    assert got == want
    want_superseded = Counter(r["task"] for r in expected if r["status"] == "superseded")
    got_superseded = Counter({task: n for task, status, n in built["csv"]["row_status"] if status == "superseded"})
    assert got_superseded == want_superseded


def test_seeds_mode_rows_are_the_rows_of_the_seed_files(exports, built):
    """In seeds mode source_file is the seed's file and source_row its data row."""
    rows = {}
    for task in LABELS:
        header, data = _read_rows(exports["seed_dir"] / SEED_NAMES[task])
        rows[task] = (header, data)
    checked = 0
    for task, _row_id, record_uuid, annotator_id, _chunk, _reasons, source_file, source_row in built["seeds"][
            "rejected_ids"]:
        if task == "records":
            continue
        header, data = rows[task]
        assert source_file == SEED_NAMES[task]
        row = data[source_row - 1]
        assert (row[header.index("record_uuid")].strip() or None) == record_uuid
        assert (row[header.index("annotator_id")].strip() or None) == annotator_id
        checked += 1
    assert checked > 10


def test_seeds_loaded_again_keep_their_rows_in_the_file(builds, built, tmp_path):
    """dbt seed empties and reloads an existing seed table; source_row must stay the row in the file."""
    builds.get(SHAPES["seeds"]).copy(tmp_path)
    database, _ = _run(tmp_path, ["seed"])
    _run(tmp_path, ["run", "--select", "+rejected_annotations"])
    again = _read(database)["rejected_ids"]
    assert again and sorted(again) == sorted(built["seeds"]["rejected_ids"])


def _row_id(task: str, source_file: str, source_row: int) -> int:
    """annotation_row_id as docs/rules.md gives it: the first 15 hexadecimal digits of the MD5 of
    `<input>/<file name>/<row>`."""
    return int(hashlib.md5(f"{task}/{source_file}/{source_row}".encode()).hexdigest()[:15], 16)


@pytest.mark.parametrize("mode", ["csv", "seeds"])
def test_row_ids_are_the_input_file_name_and_row(built, mode):
    """annotation_row_id depends on the row's input, file name and row alone, in both modes."""
    rows = built[mode]["rejected_ids"]
    assert {task for task, *_ in rows} >= {"retrieval", "grounding", "generation"}
    for task, row_id, *_rest, source_file, source_row in rows:
        assert row_id == _row_id(task, source_file, source_row), (task, source_file, source_row)


# --------------------------------------------------------------------------- failures


def _copy_of_exports(exports, folder: Path, leave_out: str | None = None) -> Path:
    """A new folder with the generated CSV export files (without the input `leave_out`)."""
    folder.mkdir()
    for path in _export_files(exports["csv_dir"]):
        if leave_out is None or not path.name.startswith(leave_out):
            shutil.copyfile(path, folder / path.name)
    return folder


# --------------------------------------------------------------------------- builds that must fail
# Each case writes a changed copy of the generated export; the module builds them one after the other.


def _duplicate_column(folder: Path) -> None:
    header, rows = _read_rows(folder / "grounding_annotations_part002.csv")
    _write_csv(folder / "grounding_annotations_part002.csv", header + ["Notes"], [r + ["x"] for r in rows])


def _missing_column(folder: Path) -> None:
    header, rows = _read_rows(folder / "retrieval_annotations_part002.csv")
    at = header.index("created_at")
    _write_csv(folder / "retrieval_annotations_part002.csv", header[:at] + header[at + 1:],
               [r[:at] + r[at + 1:] for r in rows])


def _header_mismatch(folder: Path) -> None:
    """A header with one name too many (a trailing delimiter, a forced wrong delimiter): not a few bad rows."""
    target = folder / "generation_annotations_part002.csv"
    lines = target.read_text(encoding="utf-8").split("\n", 1)
    target.write_text(lines[0] + ",\n" + lines[1], encoding="utf-8")


def _other_format(folder: Path) -> None:
    (folder / "retrieval_week2.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")


def _unusable_annotators(folder: Path) -> None:
    """An unknown kind or role, or an id listed twice, would move the consensus silently."""
    header, rows = _read_rows(folder / "annotators.csv")
    rows += [["gpt.judge", "AI", "annotator", "a judge of an unknown kind"], [rows[0][0], "HUMAN", "reviewer", "again"]]
    _write_csv(folder / "annotators.csv", header, rows)


def _conflicting_annotators(folder: Path) -> None:
    """Yesterday's copy of the list beside today's, where one judge became a CODE annotator: the
    identical rows count once, the judge has two kinds."""
    header, rows = _read_rows(folder / "annotators.csv")
    (folder / "annotators.csv").rename(folder / "annotators_2025-03-01.csv")
    changed = [row[:1] + ["CODE"] + row[2:] if row[0] == "llm.judge-gpt4o" else row for row in rows]
    assert changed != rows
    _write_csv(folder / "annotators_2025-03-02.csv", header, changed)


def _no_annotators_and_bad_ranks(folder: Path) -> None:
    (folder / "annotators.csv").rename(folder / "anotators.csv")       # a typo: not the annotators input
    for path in folder.glob("retrieval*.csv"):
        header, rows = _read_rows(path)
        for row in rows:
            row[header.index("chunk_rank")] = "first"
        _write_csv(path, header, rows)


FAILING = {  # case: (how the export is changed, what dbt selects; None: everything)
    "duplicate_column": (_duplicate_column, None),
    "missing_column": (_missing_column, ["+stg_native__retrieval"]),
    "header_mismatch": (_header_mismatch, None),
    "other_format": (_other_format, None),
    "unusable_annotators": (_unusable_annotators, ["+assert_annotators_are_valid"]),
    "conflicting_annotators": (_conflicting_annotators, ["+assert_annotators_are_valid"]),
    "no_annotators": (_no_annotators_and_bad_ranks, None),
}


@pytest.fixture(scope="module")
def failed(exports, tmp_path_factory):
    """What dbt printed for each case of FAILING (each build must fail).  The cases run one after
    the other on one copy of the project, each on the folder ``export`` beside it (a relative
    input_path), so the vars are the same and dbt parses the project once for all of them."""
    root = tmp_path_factory.mktemp("fails")
    prepare_project(root, None)
    variables = json.dumps({"input_mode": "files", "input_path": "export"})
    out = {}
    for case, (change, select) in FAILING.items():
        shutil.rmtree(root / "export", ignore_errors=True)
        (root / "ragmart.duckdb").unlink(missing_ok=True)
        change(_copy_of_exports(exports, root / "export"))
        args = ["build", "--vars", variables] + (["--select", *select] if select else
                                                 ["--exclude", "resource_type:unit_test", "resource_type:seed"])
        out[case] = _run(root, args, must_pass=False)[1]
    return out


def test_duplicate_column_stops_the_build_naming_file_and_column(failed):
    assert "grounding_annotations_part002.csv: the column 'notes' appears twice" in failed["duplicate_column"]


def test_a_missing_required_column_stops_the_build_naming_file_and_columns(failed):
    text = " ".join(failed["missing_column"].split())
    assert "the retrieval file retrieval_annotations_part002.csv lacks the required column(s) created_at" in text
    assert ("The columns of the retrieval input (docs/rules.md, Inputs): required record_uuid, annotator_id, task,"
            " created_at, input_query, chunk, chunk_id, chunk_rank, topically_relevant") in text, text[-3000:]
    assert "; optional language, generated_search_query" in text and "ADR" not in text


def test_a_file_that_does_not_match_its_header_stops_the_build(failed):
    assert "generation_annotations_part002.csv: not one of its records matches its header" in failed["header_mismatch"]


def test_a_file_named_for_an_input_in_another_format_stops_the_build(failed):
    assert "retrieval_week2.xlsx: its name makes it a retrieval file" in failed["other_format"]


def test_unusable_annotator_rows_stop_the_build(failed):
    text = failed["unusable_annotators"]
    assert "annotator id(s) of the annotators input cannot be used as they are" in text
    assert ("annotator_id gpt.judge: annotator_kind is not HUMAN, LLM or CODE"
            " (annotator_kind AI, role annotator in annotators.csv)") in text
    # the id listed twice, once as HUMAN annotator and once with role reviewer: named once, both listings
    first = next(line for line in text.splitlines() if "role reviewer in annotators.csv" in line).strip()
    assert "annotator_id listed with different kinds or roles" in first and "role is not annotator or adjudicator" in first
    assert first.count("annotator_kind HUMAN") == 2
    named = first.split(":")[0] + ":"
    assert {line.strip() for line in text.splitlines() if line.strip().startswith(named)} == {first}


def test_an_annotator_listed_with_two_kinds_stops_the_build_naming_both_files(failed):
    text = failed["conflicting_annotators"]
    assert ("annotator_id llm.judge-gpt4o: annotator_id listed with different kinds or roles (annotator_kind CODE,"
            " role annotator in annotators_2025-03-02.csv; annotator_kind LLM, role annotator in"
            " annotators_2025-03-01.csv)") in text
    # the other annotators are listed identically in both files: they count once and are not named
    assert "annotator_id a.schaefer" not in text and "1 annotator id(s)" in text


def test_missing_annotators_and_mass_rejection_fail_the_build(failed):
    text = failed["no_annotators"]
    assert "the annotators input is missing or empty" in text and "require_annotators: false" in text
    assert "max_rejected_share" in text and "invalid_rank" in text


# --------------------------------------------------------------------------- the CSV reader itself


def _export_files_model():
    """models/staging/native/base_native__export_files.py as a module (its functions, no dbt)."""
    path = PROJECT / "models" / "staging" / "native" / "base_native__export_files.py"
    spec = importlib.util.spec_from_file_location("base_native__export_files", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("keeps_order, header", [(True, "record_uuid,label"), (False, "record_uuid,label"),
                                                  (True, "record_uuid,rowid")])
def test_csv_rows_are_numbered_by_their_place_in_the_file(tmp_path, keeps_order, header):
    """A CSV file read in one pass is numbered by the rowid of its table; when DuckDB may reorder a
    scan (preserve_insertion_order off) or a column named rowid hides it, by `with ordinality`."""
    model = _export_files_model()
    path = tmp_path / "retrieval_annotations.csv"
    path.write_text(header + "\n" + "".join(f"r{n},{n % 2}\n" for n in range(1, 5001)), encoding="utf-8")
    session = duckdb.connect()
    session.execute(f"set preserve_insertion_order = {str(keeps_order).lower()}")
    scan = model._csv_scan(session, str(path), "retrieval", 7, "utf-8", None, str(tmp_path))
    assert ("with ordinality" in scan) == (not keeps_order or "rowid" in header)
    rows = session.execute(f"select ragmart_source_row, record_uuid, ragmart_file_index from ({scan})").fetchall()
    assert sorted(rows) == [(n, f"r{n}", 7) for n in range(1, 5001)]


@pytest.mark.parametrize("encoding", ["latin-1", "windows-1252"])
@pytest.mark.parametrize("malformed", [False, True])
def test_windows_1252_text_reads_as_written(tmp_path, encoding, malformed):
    """A file saved by a Windows program (Windows-1252) read under input_encoding latin-1 or
    windows-1252: its typographic quotes, dashes and the euro sign come out as written (not as
    latin-1's control characters), with and without a malformed record (DuckDB's latin-1 reader
    refuses such a file, which the record-by-record reader then reads)."""
    model = _export_files_model()
    texts = ["Was bedeutet „Bürgergeld“ genau?", "Zuschlag – 30 € im Monat… „ok“", "plain ASCII, 'quoted'"]
    lines = ["record_uuid;query"] + [f"r{n};{text}" for n, text in enumerate(texts, 1)]
    if malformed:
        lines.append('r9;"never closed')
    path = tmp_path / "generation_annotations.csv"
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))
    session = duckdb.connect()
    scan = model._csv_scan(session, str(path), "generation", 1, model.ENCODINGS[encoding], None, str(tmp_path))
    rows = session.execute(f"select ragmart_source_row, record_uuid, query, ragmart_malformed_record from ({scan})"
                           " order by 1").fetchall()
    expected = [(n, f"r{n}", text, None) for n, text in enumerate(texts, 1)]
    assert rows == expected + ([(4, None, None, 'r9;"never closed')] if malformed else []), rows
    # the five bytes Windows-1252 leaves undefined stay latin-1's characters
    assert model._decode(bytes([0x81, 0x84, 0x9D, 0x80]), "latin-1", "x.csv") == "\x81„\x9d€"
