"""Measure daily builds of whole-history exports: each day's folder holds every day's export so far.

Teams that export their annotation tool's whole history every day and keep every day's file in one
folder (docs/inputs.md, Daily exports: exact copies count once) give day d's folder d files, the
k-th holding the first k days' records: d(d+1)/2 days of rows for d days of distinct rows. This script
generates such a history, `--records-per-day` records a day (dev/generate/generate_exports.py with its
defaults, about 17.9 retrieval rows a record: 1,500 records are about 26,800 rows; its `--files`
splits one export into parts by ranges of records: part k is day k's new records), writes
day k's whole-history export (`retrieval_annotations_dayKK.csv`, `grounding_...`, `generation_...`
and `records_dayKK.csv`: the parts 1..k; one `annotators.csv`) and builds, as `make build-files` does
(scripts/build.py: the production build, published atomically):

- the daily sequence: day 1's folder, then day 2's, ... up to the last of `--days`, each into the same
  published database after the days before (each build reads only the files that database has not
  read: docs/inputs.md, "Daily builds: each file is read once");
- on each day of `--days`, the newest file alone (day d's export by itself, the same distinct rows)
  from scratch (`--full-refresh`, its own database), and, up to `--scratch-up-to`, the whole folder
  from scratch (`--full-refresh`: every file read, as every build did before the files were read once).

Every folder is read through one link, `input`, so that every build keeps dbt's partial parse (a
warm-up build parses first). Wall time, CPU time (user and system, with the children) and peak memory
(max RSS of the process and its children) are measured, never asserted, and `metric_values` of the
daily build is compared with the newest file alone's (EXCEPT ALL both ways); the table goes into its
section of docs/benchmarks.md, with the ratios of each day's daily build to the newest file alone.

Usage: python dev/bench/daily.py [--records-per-day 1500] [--days 1 2 4 8] [--scratch-up-to 8] [--work DIR]
       [--out docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchmark as B  # noqa: E402  dev/bench/benchmark.py: generate, run_dbt, machine, the report's markers

DAILY_START, DAILY_END = "<!-- daily:start -->", "<!-- daily:end -->"
TASKS = ("retrieval", "grounding", "generation")


def history(records_per_day: int, days: int, work: Path) -> Path:
    """The generated parts (one a day) and each day's whole-history export, in `work`/days; returns it."""
    records = records_per_day * days
    parts = work / f"exports_daily_{records_per_day}x{days}"
    if not (parts / "summary.json").exists():
        print(f"generating {days} days of {records_per_day:,} records into {parts} ...", file=sys.stderr, flush=True)
        result = B.measure([B.PYTHON, str(B.PROJECT / "dev" / "generate" / "generate_exports.py"), "--records",
                            str(records), "--seed", "7", "--format", "csv", "--files", str(days), "--out", str(parts),
                            "--quiet"])
        if result["exit"] != 0:
            sys.exit(f"generator failed:\n{result['output']}")
    exports = parts / "days"
    if (exports / f"retrieval_annotations_day{days:02d}.csv").exists():
        return exports
    exports.mkdir(exist_ok=True)
    # the day of each record: the part whose retrieval rows hold it
    day_of = {}
    for day in range(1, days + 1):
        with open(parts / f"retrieval_annotations_part{day:03d}.csv", newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                day_of.setdefault(row["record_uuid"], day)
    for task in TASKS:
        header, lines = None, []
        for day in range(1, days + 1):
            with open(parts / f"{task}_annotations_part{day:03d}.csv", encoding="utf-8") as handle:
                header, *rows = handle.readlines()
            lines += rows
            (exports / f"{task}_annotations_day{day:02d}.csv").write_text(header + "".join(lines), encoding="utf-8")
    with open(parts / "records.csv", newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        rows = list(reader)
    uuid = header.index("record_uuid")
    for day in range(1, days + 1):
        with open(exports / f"records_day{day:02d}.csv", "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(row for row in rows if day_of.get(row[uuid], days + 1) <= day)
    (exports / "annotators.csv").write_bytes((parts / "annotators.csv").read_bytes())
    return exports


def folder(exports: Path, work: Path, day: int, newest_only: bool) -> Path:
    """Day `day`'s folder (hard links to the exports): every day's export so far, or the newest alone."""
    out = work / f"day{day:02d}{'_newest' if newest_only else ''}"
    if not out.exists():
        out.mkdir()
        names = ["annotators.csv"] + [f"{kind}_day{k:02d}.csv" for k in ([day] if newest_only else range(1, day + 1))
                                      for kind in (*(f"{task}_annotations" for task in TASKS), "records")]
        for name in names:
            os.link(exports / name, out / name)
    return out


def data_rows(path: Path) -> int:
    with open(path, encoding="utf-8") as handle:
        return sum(1 for _ in handle) - 1


BUILD = str(B.PROJECT / "scripts" / "build.py")


def build(day_folder: Path, work: Path, database: Path, full_refresh: bool, label: str) -> dict:
    """`make build-files` of the folder (through the link `input`) into `database`: after the days before,
    or from scratch (`--full-refresh`, a new database)."""
    link = work / "input"
    link.unlink(missing_ok=True)
    link.symlink_to(day_folder, target_is_directory=True)
    if full_refresh:
        for suffix in ("", ".wal", ".build.json"):
            Path(str(database) + suffix).unlink(missing_ok=True)
    env = dict(os.environ, RAGMART_DUCKDB_PATH=str(database), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("RAGMART_DUCKDB_MEMORY_LIMIT", None)
    command = [B.PYTHON, BUILD, "--input", str(link), *(["--full-refresh"] if full_refresh else []),
               "--", "--target-path", str(work / "target"), "--log-path", str(work / "logs")]
    result = B.measure(command, env=env, cwd=B.PROJECT)
    files = sorted(day_folder.glob("retrieval_annotations_day*.csv"))
    result["files"] = len(files)
    result["rows"] = sum(data_rows(path) for path in files)
    result["copies"] = result["rows"] - data_rows(files[-1])
    # the retrieval rows the build read, from the reader's lines ("ragmart: read <file> (<n> rows")
    result["rows_read"] = sum(int(line.split("(", 1)[1].split(" ", 1)[0]) for line in result["read_lines"]
                              if " retrieval_annotations_" in line)
    status = "ok" if result["exit"] == 0 else f"exit {result['exit']}"
    print(f"{label:>22}: {result['rows']:,} retrieval rows in {result['files']} files, {result['rows_read']:,} read,"
          f" {result['seconds']:.1f} s, {result['cpu_seconds']:.1f} s CPU, {result['peak_mib']:.0f} MiB, {status}",
          file=sys.stderr, flush=True)
    if result["exit"] != 0:
        print(result["output"], file=sys.stderr)
    return result


def same_metric_values(left: Path, right: Path) -> bool:
    """metric_values of two published databases equal row for row (EXCEPT ALL both ways)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute(f"attach '{left}' as l (read_only)")
        con.execute(f"attach '{right}' as r (read_only)")
        differ = con.execute("select count(*) from ((select * from l.main.metric_values except all "
                             "select * from r.main.metric_values) union all (select * from r.main.metric_values "
                             "except all select * from l.main.metric_values))").fetchone()[0]
    return differ == 0


def gib(result: dict) -> str:
    return f"{result['peak_mib'] / 1024:.2f} GiB"


def section(results: list[dict], records_per_day: int, scratch_up_to: int) -> list[str]:
    lines = [DAILY_START, "", "## Daily builds of whole-history exports", "",
             f"Each day's export holds every record so far ({records_per_day:,} new records a day, "
             "`generate_exports.py --seed 7 --files <days>`, its other options as they default: part k = day k), and "
             "day d's folder holds the exports of days 1 to d: d(d+1)/2 days of rows. The daily build is "
             "`make build-files` of day d's folder into the published database of the days before, which reads only "
             "the files it has not read (docs/inputs.md); beside it, each from scratch (`FULL_REFRESH=1`, a new "
             "database): the newest file alone (the same distinct rows) and, up to day "
             f"{scratch_up_to}, the whole folder (every file read, as every build did before the files were read "
             "once). Every build is the production build of `make build-files` with dbt's partial parse (one link, "
             "`input`, for every folder); `metric_values` of the daily build equals the newest file alone's "
             "(EXCEPT ALL both ways) on every day marked yes. Measured with `python dev/bench/daily.py` (part of "
             "`make bench`).", "",
             f"Machine: {B.machine()}.", "",
             "| day | files per family | rows in the folder (retrieval) | of them copies | daily build: rows read "
             "| wall | CPU | peak memory | newest file alone: wall | CPU | peak memory "
             "| daily / newest: wall | peak memory | marts equal | whole folder from scratch: wall | CPU | peak memory |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|---:|---:|---:|"]
    for row in results:
        daily, newest, scratch = row["daily"], row["newest"], row.get("scratch")
        scratch_cells = (f"{scratch['seconds']:.1f} s | {scratch['cpu_seconds']:.1f} s | {gib(scratch)}"
                         if scratch else "not built | | ")
        lines.append(
            f"| {row['day']} | {daily['files']} | {daily['rows']:,} | {daily['copies']:,} | {daily['rows_read']:,} "
            f"| {daily['seconds']:.1f} s | {daily['cpu_seconds']:.1f} s | {gib(daily)} | {newest['seconds']:.1f} s "
            f"| {newest['cpu_seconds']:.1f} s | {gib(newest)} "
            f"| {daily['seconds'] / newest['seconds']:.2f}x | {daily['peak_mib'] / newest['peak_mib']:.2f}x "
            f"| {'yes' if row['equal'] else 'NO'} | {scratch_cells} |")
    loads = [f"{r['load'][0]:.1f}" for row in results for r in (row["daily"], row["newest"])]
    lines += ["", "Load average (1 min) before the daily build and the newest file's build of each day, in order: "
              f"{', '.join(loads)}.", "", DAILY_END]
    return lines


def with_daily_section(text: str, lines: list[str]) -> str:
    block = "\n".join(lines)
    if DAILY_START in text and DAILY_END in text:
        head, rest = text.split(DAILY_START, 1)
        return head + block + rest.split(DAILY_END, 1)[1]
    head, marker, notes = text.partition(B.NOTES_MARKER)
    return head.rstrip("\n") + "\n\n" + block + "\n\n" + marker + notes


def run(records_per_day: int, days: list[int], scratch_up_to: int, work: Path, out: Path) -> int:
    work = work / "daily"
    work.mkdir(parents=True, exist_ok=True)
    exports = history(records_per_day, max(days), work)
    published, newest_db, scratch_db = (work / f"{name}.duckdb" for name in ("daily", "newest", "scratch"))
    print("warm-up build (dbt parses once) ...", file=sys.stderr, flush=True)
    build(folder(exports, work, 1, True), work, newest_db, True, "warm-up")
    for suffix in ("", ".wal", ".build.json"):
        Path(str(published) + suffix).unlink(missing_ok=True)
    results, failed = [], False
    for day in range(1, max(days) + 1):
        daily = build(folder(exports, work, day, False), work, published, False, f"day {day}: daily")
        failed |= daily["exit"] != 0
        if day not in days:
            continue
        row = {"day": day, "daily": daily,
               "newest": build(folder(exports, work, day, True), work, newest_db, True, f"day {day}: newest alone")}
        if day <= scratch_up_to:
            row["scratch"] = build(folder(exports, work, day, False), work, scratch_db, True, f"day {day}: from scratch")
        failed |= any(row[key]["exit"] != 0 for key in ("newest", "scratch") if key in row)
        row["equal"] = not failed and same_metric_values(published, newest_db)
        results.append(row)
    text = out.read_text() if out.exists() else ""
    out.write_text(with_daily_section(text, section(results, records_per_day, scratch_up_to)))
    print(f"wrote {out}", file=sys.stderr)
    return 1 if failed or not all(row["equal"] for row in results) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--records-per-day", type=int, default=1500, help="new records a day (default 1500)")
    parser.add_argument("--days", type=int, nargs="+", default=[1, 2, 4, 8],
                        help="the days measured (default 1 2 4 8; the history is generated up to the last)")
    parser.add_argument("--scratch-up-to", type=int, default=8,
                        help="the last day whose whole folder is also built from scratch (default 8)")
    parser.add_argument("--work", type=Path, default=B.PROJECT / "target" / "bench", help="folder for data and databases")
    parser.add_argument("--out", type=Path, default=B.PROJECT / "docs" / "benchmarks.md", help="report to write")
    args = parser.parse_args()
    return run(args.records_per_day, sorted(set(args.days)), args.scratch_up_to, args.work, args.out)


if __name__ == "__main__":
    sys.exit(main())
