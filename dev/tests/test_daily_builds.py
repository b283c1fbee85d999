"""Daily builds (docs/inputs.md, "Daily builds"): a folder built into the same published database day
after day reads only the files it has not read, and each day's public marts equal those of a build
of the same folder from scratch.

One project copy and one sequence of folders of the project's sample (each export as daily
whole-history files: the first day holds the first half of its rows, every later day all rows so
far), each built with scripts/build.py into one published database, after the days before:

1. day 1: one file per export (every file read);
2. day 2: the day-2 exports (every row, five copies of their own rows, three blank rows): the day-1
   files are not read again, and their rows, all copies of day-2 rows, are left out;
3. day 3: day 2's retrieval file touched (same bytes, a new modification time) and a day-3
   re-export of every export with a fix (one label changed): nothing is read again but day 3's;
4. day 4 fails: a day-4 retrieval file with two columns of one name stops the build; the published
   database, its marts and what it read are those of day 3;
5. day 5: the day-4 file fixed, day 2's grounding file changed in place and the day-1 files removed:
   every file is read again, and the day-1 rows are gone.

Each day's marts (every public mart, export_row_counts and the quarantine included) equal a build of
the same folder from scratch: on days 2 and 3 plain `dbt build --full-refresh` into a database of its
own (dbt's tests left out there); on day 5 `make build-files FULL_REFRESH=1` over day 5's database,
which reads every file, and plain `dbt build --full-refresh` in place on a copy of it (a plain
`dbt build` after it reads no file and keeps the marts). The reader's plan (which files are read, and
why all are read again: a changed, a removed, an earlier-sorting file) is checked on its own too,
without dbt.

Langfuse's export windows (the enriched JSONL fixture) land over four days, built with plain dbt in
place up to the stacked staging: new windows, a file a manifest lists only later, a window changed in
place and a window gone; each day's staged relations equal a build from scratch of the same folder.
Phoenix's SQLite database (the committed fixture, first without its last traces) likewise over three
days: new traces, an annotation updated in place, a document annotation and a trace deleted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from export_schema import FILES, write_csv
from kit import dbt_process
from kit.adapters import public_mart_rows, reader_module, rows_equal
from kit.builds import BUILD_TIMEOUT, PROJECT, prepare_project

# five builds of the sample in files mode (one of them fails), one make, four plain dbt; seven Langfuse,
# five Phoenix and five MLflow runs
pytestmark = pytest.mark.slow

EXPORTS = ["retrieval", "grounding", "generation"]
DAYS = ["2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]
READER = "models/staging/native/base_native__export_files.py"


def _rows(task: str) -> tuple[list[str], list[list[str]]]:
    import csv
    with open(PROJECT / "seeds" / FILES[task], newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _fixed(header: list[str], rows: list[list[str]], task: str) -> list[list[str]]:
    """The rows with one label of the first row that has one flipped (a re-export with a fix)."""
    labels = {"retrieval": "topically_relevant", "grounding": "support_present", "generation": "helpful"}
    column = header.index(labels[task])
    out = [list(row) for row in rows]
    for row in out:
        if row[column].strip().lower() in ("true", "false"):
            row[column] = "false" if row[column].strip().lower() == "true" else "true"
            break
    return out


def _day_files(folder: Path, day: int) -> None:
    """Writes day `day`'s whole-history export of each family into `folder`."""
    for task in EXPORTS:
        header, rows = _rows(task)
        path = folder / f"{task}_{DAYS[day - 1]}.csv"
        if day == 1:
            write_csv(path, header, rows[: len(rows) // 2])
        elif day == 2:
            write_csv(path, header, rows + rows[:5])
            with open(path, "a", encoding="utf-8", newline="") as fh:
                fh.write("," * (len(header) - 1) + "\n,,\n   \n")
        else:
            write_csv(path, header, _fixed(header, rows, task))


def _side_files(folder: Path) -> None:
    for name in ("annotators", "records"):
        shutil.copyfile(PROJECT / "seeds" / FILES[name], folder / FILES[name])


class Daily:
    def __init__(self, tmp: Path):
        self.project = prepare_project(tmp, None)
        venv = PROJECT / ".venv" if (PROJECT / ".venv").exists() else Path(sys.prefix)
        (self.project / ".venv").symlink_to(venv.resolve())
        self.folder = tmp / "exports"
        self.folder.mkdir()
        self.database = tmp / "published" / "ragmart.duckdb"
        self.scratch = tmp / "scratch"

    def build(self, database: Path, *extra: str, dbt_args: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
        env.update(RAGMART_DUCKDB_PATH=str(database), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
        command = [str(self.project / ".venv" / "bin" / "python"), "scripts/build.py", "--input", str(self.folder),
                   *extra, *(["--", *dbt_args] if dbt_args else [])]
        return subprocess.run(command, cwd=self.project, env=env, capture_output=True, text=True)

    def dbt(self, database: Path, *extra: str) -> subprocess.CompletedProcess:
        """Plain `dbt build` of the folder in place into `database` (no publish; dbt's data and unit tests left out)."""
        variables = f'{{"input_mode": "files", "input_path": "{self.folder}"}}'
        return _dbt(self.project, database, ["build", "--exclude", "resource_type:seed", "--exclude-resource-type",
                                             "test", "unit_test", "--vars", variables, *extra])

    def day(self, name: str, tests: bool = False) -> tuple[subprocess.CompletedProcess, dict, dict]:
        """The folder built after the days before (with dbt's data tests when `tests`), and from scratch with
        plain dbt into a database of its own: (the build, its marts, scratch's)."""
        result = self.build(self.database, dbt_args=() if tests else ("--exclude-resource-type", "test"))
        assert result.returncode == 0, f"{name}: {result.stdout[-4000:]}{result.stderr[-2000:]}"
        scratch = self.scratch / name / "ragmart.duckdb"
        scratch.parent.mkdir(parents=True)
        fresh = self.dbt(scratch, "--full-refresh")
        assert fresh.returncode == 0, f"{name} from scratch: {fresh.stdout[-4000:]}{fresh.stderr[-2000:]}"
        _assert_no_temp_tables(name, self.database)
        return result, public_mart_rows(self.database), public_mart_rows(scratch)


def _dbt(project: Path, database: Path, args: list[str]) -> subprocess.CompletedProcess:
    """Plain `dbt <args>` of `project` into `database` (a `ragmart.duckdb`), run by the suite's dbt server
    process (the same command line as the `dbt` command, without importing dbt again: kit/dbt_process.py).
    It runs in the database's folder with the profile's default path, as scripts/build.py runs dbt, so that
    every run of a project sees one profile and re-uses dbt's partial parse (another database path is
    another profile to dbt, which then parses the whole project again)."""
    assert database.name == "ragmart.duckdb", database
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS", "PHOENIX_", "MLFLOW_"))}
    env.update(RAGMART_DUCKDB_PATH=database.name, DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    database.parent.mkdir(parents=True, exist_ok=True)
    return dbt_process.run([*args, "--project-dir", str(project), "--profiles-dir", str(project / "profiles")],
                           env=env, cwd=database.parent, timeout=BUILD_TIMEOUT)


def _assert_no_temp_tables(name: str, database: Path) -> None:
    """No table an incremental build wrote its new rows to (`<model>__dbt_tmp<time>`) is left in the database."""
    with duckdb.connect(str(database), read_only=True) as con:
        left = con.execute("select table_schema || '.' || table_name from information_schema.tables"
                           " where table_name like '%\\_\\_dbt\\_tmp%' escape '\\'").fetchall()
    assert not left, f"{name}: tables of dbt's incremental builds are left in {database.name}: {left}"


def _assert_same_marts(name: str, got: dict, want: dict) -> None:
    assert sorted(got) == sorted(want), name
    different = [mart for mart in want if not rows_equal(got[mart], want[mart])]
    assert not different, f"{name}: these marts differ from a build from scratch of the same folder: {different}"
    assert sum(len(rows) for rows in want.values()) > 0


def _read_files(output: str) -> list[str]:
    return sorted(line.split()[2] for line in output.splitlines() if line.startswith("ragmart: read "))


def _state(database: Path) -> list[tuple]:
    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute("select source_file, n_rows_read, n_left_out_when_read from staging.stg_native__files"
                           " order by source_file").fetchall()


@pytest.fixture(scope="module")
def daily(tmp_path_factory):
    return Daily(tmp_path_factory.mktemp("daily_builds"))


def test_a_folder_built_day_after_day_reads_each_file_once_and_gives_the_marts_from_scratch(daily):
    folder = daily.folder
    _side_files(folder)

    _day_files(folder, 1)
    first = daily.build(daily.database, dbt_args=("--exclude-resource-type", "test"))  # from scratch itself
    assert first.returncode == 0, first.stdout[-4000:] + first.stderr[-2000:]
    assert _read_files(first.stdout) == sorted([f"{t}_{DAYS[0]}.csv" for t in EXPORTS] + ["annotators.csv", "records.csv"])

    _day_files(folder, 2)
    second, got, want = daily.day("day 2", tests=True)  # dbt's data tests on the marts of a build in place
    _assert_same_marts("day 2", got, want)
    assert _read_files(second.stdout) == sorted(f"{t}_{DAYS[1]}.csv" for t in EXPORTS)
    assert "5 file(s) read at an earlier build and unchanged, not read again" in second.stdout
    assert "what the last build read: taken from" in second.stdout
    day_one = {row[0]: row for row in _state(daily.database) if DAYS[0] in row[0]}
    assert all(n_left_out == n_rows > 0 for _, n_rows, n_left_out in day_one.values()), day_one

    retrieval_two = folder / f"retrieval_{DAYS[1]}.csv"
    later = time.time() + 5
    os.utime(retrieval_two, (later, later))
    _day_files(folder, 3)
    third, got, want = daily.day("day 3")
    _assert_same_marts("day 3", got, want)
    assert _read_files(third.stdout) == sorted(f"{t}_{DAYS[2]}.csv" for t in EXPORTS)
    day_three_marts = got

    header, rows = _rows("retrieval")
    broken = folder / f"retrieval_{DAYS[3]}.csv"
    write_csv(broken, header + [header[0]], [row + [row[0]] for row in rows])
    before = daily.database.stat().st_mtime_ns
    failed = daily.build(daily.database)
    assert failed.returncode != 0 and "appears twice" in failed.stdout + failed.stderr
    assert daily.database.stat().st_mtime_ns == before
    _assert_same_marts("after the failed day 4", public_mart_rows(daily.database), day_three_marts)

    write_csv(broken, header, _fixed(header, rows, "retrieval"))
    grounding_two = folder / f"grounding_{DAYS[1]}.csv"
    grounding_two.write_text(grounding_two.read_text(encoding="utf-8").replace("\n", "\r\n", 1), encoding="utf-8")
    for task in EXPORTS:
        (folder / f"{task}_{DAYS[0]}.csv").unlink()
    fifth = daily.build(daily.database, dbt_args=("--exclude-resource-type", "test"))
    assert fifth.returncode == 0, fifth.stdout[-4000:] + fifth.stderr[-2000:]
    assert f"every file of input_path is read again: {EXPORTS[2]}_{DAYS[0]}.csv was read at an earlier build and" \
        " is no longer in the folder" in fifth.stdout
    assert _read_files(fifth.stdout) == sorted(p.name for p in folder.iterdir() if p.is_file())
    assert all(DAYS[0] not in row[0] for row in _state(daily.database))
    _assert_no_temp_tables("day 5", daily.database)
    day_five_marts = public_mart_rows(daily.database)

    # from scratch: make build-files FULL_REFRESH=1 over day 5's database reads every file again
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MAKE", "MFLAGS")) and k not in {"VARS", "INPUT", "RAGMART_VARS", "RAGMART_INPUT"}}
    env.update(RAGMART_DUCKDB_PATH=str(daily.database), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    refreshed = subprocess.run(["make", "-s", "-C", str(daily.project), "-o", ".venv/bin/.runtime-installed",
                                "build-files", f"INPUT={folder}", "FULL_REFRESH=1"],
                               env=env, capture_output=True, text=True)
    assert refreshed.returncode == 0, refreshed.stdout[-4000:] + refreshed.stderr[-2000:]
    assert "what the last build read" not in refreshed.stdout
    assert len(_read_files(refreshed.stdout)) == len([p for p in folder.iterdir() if p.is_file()])
    want = public_mart_rows(daily.database)
    _assert_same_marts("day 5", day_five_marts, want)

    # plain dbt in place, on a copy of the published database: `dbt build --full-refresh` reads every
    # file, and a second `dbt build` (incremental, in place) reads none and keeps the marts
    plain = daily.database.parent.parent / "plain" / "ragmart.duckdb"
    plain.parent.mkdir()
    shutil.copyfile(daily.database, plain)
    for extra in (["--full-refresh"], []):
        result = daily.dbt(plain, *extra)
        assert result.returncode == 0, f"dbt build {extra}: {result.stdout[-4000:]}{result.stderr[-2000:]}"
        read = _read_files(result.stdout)
        assert read == (sorted(p.name for p in folder.iterdir() if p.is_file()) if extra else []), (extra, read)
        _assert_no_temp_tables(f"dbt build {' '.join(extra)}", plain)
        _assert_same_marts(f"dbt build {' '.join(extra)}", public_mart_rows(plain), want)


def _file(path: Path, text: str) -> tuple:
    path.write_text(text, encoding="utf-8")
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def test_the_reader_reads_only_new_files_that_sort_after_the_files_read(tmp_path):
    reader = reader_module(READER)
    a = tmp_path / "retrieval_1.csv"
    b = tmp_path / "retrieval_2.csv"
    size_a, modified_a = _file(a, "x\n1\n")
    size_b, modified_b = _file(b, "x\n2\n")
    files = [("retrieval", str(a), size_a, modified_a), ("retrieval", str(b), size_b, modified_b)]
    stored = {"retrieval_1.csv": {"input": "retrieval", "bytes": size_a, "modified": modified_a,
                                  "digest": reader._file_digest(a), "rows": 1, "left_out": 0, "read_with": "s"}}

    assert reader._plan(files, None, "s")[0] == "all"
    mode, to_read, kept, _ = reader._plan(files, stored, "s")
    assert (mode, [f[1] for f in to_read], [f[1] for f in kept]) == ("new", [str(b)], [str(a)])
    assert reader._plan(files, stored, "other settings")[0] == "all"

    touched = dict(stored["retrieval_1.csv"], modified=modified_a - 10**9)
    assert reader._plan(files, {"retrieval_1.csv": touched}, "s")[0] == "new"
    changed = dict(touched, digest="0" * 64)
    mode, _, _, reason = reader._plan(files, {"retrieval_1.csv": changed}, "s")
    assert mode == "all" and "retrieval_1.csv changed" in reason
    grown = dict(stored["retrieval_1.csv"], bytes=size_a + 1)
    assert reader._plan(files, {"retrieval_1.csv": grown}, "s")[0] == "all"

    later_read = {"retrieval_2.csv": dict(stored["retrieval_1.csv"], bytes=size_b, modified=modified_b)}
    mode, _, _, reason = reader._plan(files, later_read, "s")
    assert mode == "all" and "retrieval_1.csv is new and sorts before retrieval_2.csv" in reason
    gone = dict(stored, **{"retrieval_0.csv": stored["retrieval_1.csv"]})
    mode, _, _, reason = reader._plan(files, gone, "s")
    assert mode == "all" and "retrieval_0.csv was read at an earlier build and is no longer" in reason


LANGFUSE = PROJECT / "dev" / "tests" / "fixtures" / "langfuse" / "enriched_jsonl"
LANGFUSE_PROJECT = "cmragmartsample0000000001"
LANGFUSE_VARS = {"input_mode": "files", "input_format": {"retrieval": "native", "grounding": "langfuse",
                                                         "generation": "langfuse"},
                 "max_rejected_share": 0.3, "langfuse_input_path": "question"}


def _staged(database: Path) -> dict[str, list[tuple]]:
    """Every staging relation but the readers' own tables (base_*: what was read, kept between builds), sorted."""
    with duckdb.connect(str(database), read_only=True) as con:
        names = [name for (name,) in con.execute(
            "select table_name from information_schema.tables where table_schema = 'staging'"
            " and table_name not like 'base%' order by table_name").fetchall()]
        return {name: sorted(con.execute(f"select * from staging.{name}").fetchall(), key=repr) for name in names}


def _dbt_run(daily: Daily, database: Path, variables: str, *extra: str) -> subprocess.CompletedProcess:
    """Plain `dbt run` of the folder up to the stacked staging, in place into `database`."""
    result = _dbt(daily.project, database, ["run", "--select", "+stg_annotation_exports__annotations", "--vars",
                                            variables, *extra])
    assert result.returncode == 0, f"{database} {extra}: {result.stdout[-4000:]}{result.stderr[-2000:]}"
    return result


def _staged_day(daily: Daily, tmp: Path, variables: str, name: str, tool_model: str) -> subprocess.CompletedProcess:
    """The folder run after the days before, and from scratch: their staged relations are equal (the tool's
    `tool_model` and the stacked annotations filled); the day's run. The first day's run, into an empty
    database, is itself one from scratch."""
    first = not daily.database.exists()
    result = _dbt_run(daily, daily.database, variables)
    _assert_no_temp_tables(name, daily.database)
    if first:
        return result
    scratch = tmp / "scratch" / name / "ragmart.duckdb"
    _dbt_run(daily, scratch, variables, "--full-refresh")
    got, want = _staged(daily.database), _staged(scratch)
    assert sorted(got) == sorted(want) and tool_model in got, name
    different = [relation for relation in want if not rows_equal(got[relation], want[relation])]
    assert not different, f"{name}: these staged relations differ from a build from scratch: {different}"
    assert got[tool_model] and got["stg_annotation_exports__annotations"]
    return result


def _store_days(tmp: Path, fixtures: Path, store: str, variables: dict, tool_model: str, counted: str):
    """(a Daily whose folder holds the annotators and records files of `fixtures`, the path of the store
    `store` in it, day): day(name) runs the folder after the days before and checks it against a run from
    scratch (_staged_day); it gives the counts the build log says of what it read and kept (`counted`: what
    it counts beside the spans), None when it read every row."""
    daily = Daily(tmp)
    for name in ("annotators.csv", "records.csv"):
        shutil.copyfile(fixtures / name, daily.folder / name)
    text = json.dumps({"input_mode": "files", "input_path": str(daily.folder), **variables})

    def day(name: str) -> tuple[int, int, int, int] | None:
        result = _staged_day(daily, tmp, text, name, tool_model)
        found = re.search(rf"(\d+) spans and (\d+) {counted} read; (\d+) spans and (\d+) {counted} read at an"
                          r" earlier build and unchanged", result.stdout)
        return tuple(int(n) for n in found.groups()) if found else None

    daily.database.parent.mkdir()
    return daily, daily.folder / store, day


def test_langfuse_windows_read_once_give_the_staged_rows_from_scratch(tmp_path):
    """Langfuse's export windows landing day after day, built with plain dbt in place up to the stacked
    staging: a window read before is not read again, a new window, one a manifest lists since, and one
    changed in place are read alone, a window gone takes its rows; each day's staged rows equal a build
    from scratch of the same folder."""
    daily = Daily(tmp_path)
    folder = daily.folder
    for name in ("retrieval_annotations.csv", "annotators.csv", "records.csv"):
        shutil.copyfile(LANGFUSE / name, folder / name)
    source, export = LANGFUSE / LANGFUSE_PROJECT, folder / LANGFUSE_PROJECT
    windows = ["2026-11-20T10-00-00.000Z", "2026-11-20T11-00-00.000Z", "2026-11-20T12-00-00.000Z"]
    variables = json.dumps({**LANGFUSE_VARS, "input_path": str(folder)})

    def land(*paths: str) -> None:
        for relative in paths:
            (export / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, export / relative)

    def day(name: str) -> list[str]:
        result = _staged_day(daily, tmp_path, variables, name, "stg_langfuse__scores")
        return sorted(line.split()[2] for line in result.stdout.splitlines() if "ragmart: read " in line
                      and line.split("ragmart: read ")[1].startswith(("scores/", "observations_v2/")))

    daily.database.parent.mkdir()
    land(f"observations_v2/{windows[0]}.jsonl", f"scores/{windows[0]}.jsonl", f"manifests/{windows[0]}.json")
    assert day("day 1") == sorted([f"observations_v2/{windows[0]}.jsonl", f"scores/{windows[0]}.jsonl"])

    # the second window, and a scores file of a run that did not complete (no manifest lists it yet)
    land(f"observations_v2/{windows[1]}.jsonl", f"scores/{windows[1]}.jsonl", f"manifests/{windows[1]}.json",
         "scores/2026-11-20T13-00-00.000Z.jsonl")
    assert day("day 2") == sorted([f"observations_v2/{windows[1]}.jsonl", f"scores/{windows[1]}.jsonl",
                                   "scores/2026-11-20T13-00-00.000Z.jsonl"])

    # the third window, and a manifest that lists the file of the run that did not complete
    land(f"observations_v2/{windows[2]}.jsonl", f"scores/{windows[2]}.jsonl", f"manifests/{windows[2]}.json")
    manifest = json.loads((source / "manifests" / f"{windows[2]}.json").read_text(encoding="utf-8"))
    manifest["files"] = [{"key": f"langfuse-exports/{LANGFUSE_PROJECT}/scores/2026-11-20T13-00-00.000Z.jsonl",
                          "table": "scores"}]
    (export / "manifests" / "2026-11-20T13-00-00.000Z.json").write_text(json.dumps(manifest), encoding="utf-8")
    third = day("day 3")
    assert third == sorted([f"observations_v2/{windows[2]}.jsonl", f"scores/{windows[2]}.jsonl",
                            "scores/2026-11-20T13-00-00.000Z.jsonl"])

    # a window changed in place (a score's comment edited) and the first observations window gone
    changed = export / "scores" / f"{windows[1]}.jsonl"
    changed.write_text(changed.read_text(encoding="utf-8").replace("judge reasoning", "judge reasoning, edited", 1),
                       encoding="utf-8")
    (export / "observations_v2" / f"{windows[0]}.jsonl").unlink()
    assert day("day 4") == [f"scores/{windows[1]}.jsonl"]
    with duckdb.connect(str(daily.database), read_only=True) as con:
        kinds = dict(con.execute("select row_kind, count(*) from staging.base_langfuse__export"
                                 f" where source_file = 'observations_v2/{windows[0]}.jsonl' group by all").fetchall())
    assert kinds == {"removed": 1}


def test_a_build_carries_the_readers_of_its_input_formats():
    import build  # scripts/build.py, on pytest's pythonpath

    assert build.state_tables({}) == ["base_native__export_files"]
    assert build.state_tables({"input_format": "phoenix"}) == ["base_native__export_files", "base_phoenix__export"]
    assert build.state_tables({"input_format": "mlflow"}) == ["base_native__export_files", "base_mlflow__export"]
    assert build.state_tables({"input_format": {"retrieval": "native", "grounding": "langfuse"}}) == [
        "base_native__export_files", "base_langfuse__export"]


PHOENIX = PROJECT / "dev" / "tests" / "fixtures" / "phoenix" / "db"


def _delete_traces(database: Path, where: str, trace: int) -> None:
    """Phoenix's database without the traces whose rowid is `where` `trace` (`>=`: as it was before they
    were written; `=`: that trace deleted), their spans and annotations with them."""
    import sqlite3

    with sqlite3.connect(database) as con:
        spans = f"select id from spans where trace_rowid {where} ?"
        for table in ("span_annotations", "document_annotations"):
            con.execute(f"delete from {table} where span_rowid in ({spans})", (trace,))
        con.execute(f"delete from trace_annotations where trace_rowid {where} ?", (trace,))
        con.execute(f"delete from spans where trace_rowid {where} ?", (trace,))
        con.execute(f"delete from traces where id {where} ?", (trace,))


def test_phoenix_database_rows_read_once_give_the_staged_rows_from_scratch(tmp_path):
    """Phoenix's SQLite database growing day after day (the committed fixture, first without its last
    traces), built with plain dbt in place up to the stacked staging: only the spans and annotations
    not read before, or updated since, are read; an annotation updated in place is read again, a trace
    deleted takes its rows; each day's staged relations equal a build from scratch of the same folder.
    The changes are written with SQLite as Phoenix writes them (its upsert keeps the row's id)."""
    import sqlite3

    daily, database, day = _store_days(tmp_path, PHOENIX, "phoenix.db", {"input_format": "phoenix", "phoenix_project":
                                       "ragmart-sample"}, "stg_phoenix__annotations", "annotations")
    shutil.copyfile(PHOENIX / "phoenix.db", database)
    _delete_traces(database, ">=", 20)
    assert day("day 1") is None                             # the first build reads every row

    with sqlite3.connect(PHOENIX / "phoenix.db") as con:
        project = "select t.id from traces t join projects p on t.project_rowid = p.id where p.name = 'ragmart-sample'"
        spans = con.execute(f"select count(*) from spans where trace_rowid in ({project})").fetchone()[0]
        later = con.execute(f"select count(*) from spans where trace_rowid >= 20 and trace_rowid in ({project})"
                            ).fetchone()[0]
        annotations = sum(con.execute(query.format(project=project)).fetchone()[0] for query in (
            "select count(*) from span_annotations a join spans s on a.span_rowid = s.id"
            " where s.trace_rowid in ({project})",
            "select count(*) from document_annotations a join spans s on a.span_rowid = s.id"
            " where s.trace_rowid in ({project})",
            "select count(*) from trace_annotations where trace_rowid in ({project})"))
        annotations_later = sum(con.execute(query.format(project=project)).fetchone()[0] for query in (
            "select count(*) from span_annotations a join spans s on a.span_rowid = s.id"
            " where s.trace_rowid >= 20 and s.trace_rowid in ({project})",
            "select count(*) from document_annotations a join spans s on a.span_rowid = s.id"
            " where s.trace_rowid >= 20 and s.trace_rowid in ({project})",
            "select count(*) from trace_annotations where trace_rowid >= 20 and trace_rowid in ({project})"))
    assert later > 0 and annotations_later > 0

    # the next day: the traces written since
    shutil.copyfile(PHOENIX / "phoenix.db", database)
    assert day("day 2") == (later, annotations_later, spans - later, annotations - annotations_later)

    # an annotation updated in place (a new label, a later updated_at), a document annotation deleted, and a
    # trace deleted with its spans and annotations (7; the annotations changed are on traces 5, 6 and 8)
    with sqlite3.connect(database) as con:
        annotation = con.execute("select a.id from span_annotations a join spans s on a.span_rowid = s.id"
                                 " where s.trace_rowid = 5 order by a.id limit 1").fetchone()[0]
        con.execute("update span_annotations set label = case when label = 'yes' then 'no' else 'yes' end,"
                    " updated_at = '2026-12-01 09:00:00' where id = ?", (annotation,))
        # and one updated within the second of its last write (SQLite keeps the time to the second)
        same_second = con.execute("select a.id from span_annotations a join spans s on a.span_rowid = s.id"
                                  " where s.trace_rowid = 8 order by a.id limit 1").fetchone()[0]
        con.execute("update span_annotations set label = case when label = 'yes' then 'no' else 'yes' end"
                    " where id = ?", (same_second,))
        con.execute("delete from document_annotations where id = (select min(a.id) from document_annotations a"
                    " join spans s on a.span_rowid = s.id where s.trace_rowid = 6)")
        gone_spans = con.execute("select count(*) from spans where trace_rowid = 7").fetchone()[0]
        gone_annotations = sum(con.execute(query).fetchone()[0] for query in (
            "select count(*) from span_annotations a join spans s on a.span_rowid = s.id where s.trace_rowid = 7",
            "select count(*) from document_annotations a join spans s on a.span_rowid = s.id where s.trace_rowid = 7",
            "select count(*) from trace_annotations where trace_rowid = 7"))
    _delete_traces(database, "=", 7)
    assert day("day 3") == (0, 2, spans - gone_spans, annotations - gone_annotations - 3)
    with duckdb.connect(str(daily.database), read_only=True) as con:
        removed = con.execute("select count(*) from staging.base_phoenix__export where row_kind = 'removed'").fetchone()[0]
    assert removed == gone_spans + gone_annotations + 1



MLFLOW = PROJECT / "dev" / "tests" / "fixtures" / "mlflow" / "db"
MLFLOW_TRACE_TABLES = ("assessments", "spans", "trace_request_metadata", "trace_tags", "trace_info")


def _mlflow_counts(con, traces: str, *params) -> tuple[int, int]:
    """(spans, assessments) of the traces of experiment 1 that `traces` (a condition on trace_info t) names."""
    where = f"t.experiment_id = 1 and {traces}"
    return tuple(con.execute(f"select count(*) from {table} x join trace_info t on x.trace_id = t.request_id where {where}",
                             params).fetchone()[0] for table in ("spans", "assessments"))


def _delete_mlflow_traces(database: Path, traces: str, *params) -> None:
    """MLflow's store without the traces that `traces` (a condition on trace_info t) names, their spans,
    assessments, metadata and tags with them."""
    import sqlite3

    with sqlite3.connect(database) as con:
        ids = [row[0] for row in con.execute(f"select request_id from trace_info t where {traces}", params)]
        for table in MLFLOW_TRACE_TABLES:
            column = "trace_id" if table in ("assessments", "spans") else "request_id"
            con.executemany(f"delete from {table} where {column} = ?", [(i,) for i in ids])


def test_mlflow_store_rows_read_once_give_the_staged_rows_from_scratch(tmp_path):
    """MLflow's SQLite store growing day after day (the committed fixture, first without its last traces),
    built with plain dbt in place up to the stacked staging: only the spans and assessments not read before,
    or updated since (a new value and last_updated_timestamp; an override's valid flag), are read; an
    assessment deleted and a trace deleted take their rows; each day's staged relations (the assessments'
    numbers by creation among them) equal a build from scratch of the same folder."""
    import sqlite3

    daily, database, day = _store_days(tmp_path, MLFLOW, "mlflow.db", {"input_format": "mlflow", "max_rejected_share":
                                       0.3}, "stg_mlflow__feedback", "assessments")
    with sqlite3.connect(MLFLOW / "mlflow.db") as con:
        times = [t for (t,) in con.execute("select timestamp_ms from trace_info where experiment_id = 1 order by 1")]
        later = times[-4]
        spans, assessments = _mlflow_counts(con, "1 = 1")
        spans_later, assessments_later = _mlflow_counts(con, "t.timestamp_ms >= ?", later)
    assert 0 < spans_later < spans and 0 < assessments_later < assessments

    shutil.copyfile(MLFLOW / "mlflow.db", database)
    _delete_mlflow_traces(database, "t.timestamp_ms >= ?", later)
    assert day("day 1") is None                             # the first build reads every row

    # the next day: the traces written since
    shutil.copyfile(MLFLOW / "mlflow.db", database)
    assert day("day 2") == (spans_later, assessments_later, spans - spans_later, assessments - assessments_later)

    # a feedback updated (a new value and time), one overridden (only its valid flag), one deleted, all on the
    # first trace; and the second trace deleted with its spans and assessments
    with sqlite3.connect(database) as con:
        first, second = [t for (t,) in con.execute(
            "select request_id from trace_info where experiment_id = 1 order by timestamp_ms limit 2")]
        (updated, value), (overridden, _), (deleted, _) = con.execute(
            "select assessment_id, value from assessments where trace_id = ? and assessment_type = 'feedback' and valid"
            " and value in ('true', 'false') order by assessment_id limit 3", (first,)).fetchall()
        con.execute("update assessments set value = case value when 'true' then 'false' else 'true' end,"
                    " last_updated_timestamp = last_updated_timestamp + 1000 where assessment_id = ?", (updated,))
        con.execute("update assessments set valid = 0 where assessment_id = ?", (overridden,))
        con.execute("delete from assessments where assessment_id = ?", (deleted,))
        gone_spans, gone_assessments = _mlflow_counts(con, "t.request_id = ?", second)
    _delete_mlflow_traces(database, "t.request_id = ?", second)
    assert day("day 3") == (0, 2, spans - gone_spans, assessments - gone_assessments - 3)
    with duckdb.connect(str(daily.database), read_only=True) as con:
        removed = con.execute("select count(*) from staging.base_mlflow__export where row_kind = 'removed'").fetchone()[0]
        feedback = dict(con.execute("select assessment_id, coalesce(not_read_because, value_text)"
                                    " from staging.stg_mlflow__feedback where assessment_id in (?, ?, ?)",
                                    [updated, overridden, deleted]).fetchall())
    assert removed == 1 + gone_spans + gone_assessments + 1
    assert feedback[overridden] == "overridden" and deleted not in feedback
    assert feedback[updated] == {"true": "false", "false": "true"}[value]
