"""Measure daily builds of whole-history exports: each day's folder holds every day's export so far.

Teams that export their annotation tool's whole history every day and keep every day's file in one
folder (docs/rules.md, Daily exports: exact copies count once) make day d's build read d files, the
k-th holding the first k days' records: d(d+1)/2 days of rows for d days of distinct rows. This script
generates such a history, `--records-per-day` records a day (dev/generate/generate_exports.py with its
defaults, about 17.9 retrieval rows a record: 1,500 records are about 26,800 rows; its `--files`
splits one export into parts by ranges of records: part k is day k's new records), writes
day k's whole-history export (`retrieval_annotations_dayKK.csv`, `grounding_...`, `generation_...`
and `records_dayKK.csv`: the parts 1..k; one `annotators.csv`) and measures, for each day d of
`--days`:

- the whole-history folder: the day's export beside every earlier day's, as the folder holds them
  on day d;
- the newest file alone: day d's export by itself (the same distinct rows).

Each is the production build of `make build-files` (dev/bench/benchmark.py's run_dbt, in its own
process), read through one link, `input`, so that every build keeps dbt's partial parse (a warm-up
build parses first). Wall time, CPU time (user and system, with the children) and peak memory (max
RSS of the process and its children) are measured, never asserted; the table goes into its
section of docs/benchmarks.md, with the ratio of each day's whole-history build to the newest file
alone.

Usage: python dev/bench/daily.py [--records-per-day 1500] [--days 1 2 4 8] [--work DIR] [--out docs/benchmarks.md]
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


def build(day_folder: Path, work: Path) -> dict:
    link = work / "input"
    link.unlink(missing_ok=True)
    link.symlink_to(day_folder, target_is_directory=True)
    result = B.run_dbt(link, work)
    files = sorted(day_folder.glob("retrieval_annotations_day*.csv"))
    result["files"] = len(files)
    result["rows"] = sum(data_rows(path) for path in files)
    result["copies"] = result["rows"] - data_rows(files[-1])
    status = "ok" if result["exit"] == 0 else f"exit {result['exit']}"
    print(f"{day_folder.name:>14}: {result['rows']:,} retrieval rows in {result['files']} files, {result['seconds']:.1f} s,"
          f" {result['cpu_seconds']:.1f} s CPU, {result['peak_mib']:.0f} MiB, {status}", file=sys.stderr, flush=True)
    if result["exit"] != 0:
        print(result["output"], file=sys.stderr)
    return result


def section(results: list[tuple[int, dict, dict]], records_per_day: int) -> list[str]:
    lines = [DAILY_START, "", "## Daily builds of whole-history exports", "",
             f"Each day's export holds every record so far ({records_per_day:,} new records a day, "
             "`generate_exports.py --seed 7 --files <days>`, its other options as they default: part k = day k), and "
             "day d's folder holds the exports of days 1 to d: the build reads d(d+1)/2 days of rows. Beside it the "
             "newest file alone, the same distinct rows. Each is the production build of `make build-files` with "
             "dbt's partial parse (one link, `input`, for every folder); the published database carries nothing from "
             "one day to the next. Measured with `python dev/bench/daily.py` (part of `make bench`).", "",
             f"Machine: {B.machine()}.", "",
             "| day | files per family | rows read (retrieval) | of them copies | wall | CPU | peak memory "
             "| newest file alone: wall | CPU | peak memory | whole history / newest: wall | peak memory |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for day, whole, newest in results:
        lines.append(
            f"| {day} | {whole['files']} | {whole['rows']:,} | {whole['copies']:,} | {whole['seconds']:.1f} s "
            f"| {whole['cpu_seconds']:.1f} s | {whole['peak_mib'] / 1024:.2f} GiB | {newest['seconds']:.1f} s "
            f"| {newest['cpu_seconds']:.1f} s | {newest['peak_mib'] / 1024:.2f} GiB "
            f"| {whole['seconds'] / newest['seconds']:.2f}x | {whole['peak_mib'] / newest['peak_mib']:.2f}x |")
    loads = [f"{r['load'][0]:.1f}" for _, whole, newest in results for r in (whole, newest)]
    lines += ["", f"Load average (1 min) before each build, in order: {', '.join(loads)}.", "", DAILY_END]
    return lines


def with_daily_section(text: str, lines: list[str]) -> str:
    block = "\n".join(lines)
    if DAILY_START in text and DAILY_END in text:
        head, rest = text.split(DAILY_START, 1)
        return head + block + rest.split(DAILY_END, 1)[1]
    head, marker, notes = text.partition(B.NOTES_MARKER)
    return head.rstrip("\n") + "\n\n" + block + "\n\n" + marker + notes


def run(records_per_day: int, days: list[int], work: Path, out: Path) -> int:
    work = work / "daily"
    work.mkdir(parents=True, exist_ok=True)
    exports = history(records_per_day, max(days), work)
    print("warm-up build (dbt parses once) ...", file=sys.stderr, flush=True)
    build(folder(exports, work, 1, True), work)
    results = []
    for day in days:
        results.append((day, build(folder(exports, work, day, False), work), build(folder(exports, work, day, True), work)))
    text = out.read_text() if out.exists() else ""
    out.write_text(with_daily_section(text, section(results, records_per_day)))
    print(f"wrote {out}", file=sys.stderr)
    return 0 if all(r["exit"] == 0 for _, whole, newest in results for r in (whole, newest)) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--records-per-day", type=int, default=1500, help="new records a day (default 1500)")
    parser.add_argument("--days", type=int, nargs="+", default=[1, 2, 4, 8],
                        help="the days measured (default 1 2 4 8; the history is generated up to the last)")
    parser.add_argument("--work", type=Path, default=B.PROJECT / "target" / "bench", help="folder for data and databases")
    parser.add_argument("--out", type=Path, default=B.PROJECT / "docs" / "benchmarks.md", help="report to write")
    args = parser.parse_args()
    return run(args.records_per_day, sorted(set(args.days)), args.work, args.out)


if __name__ == "__main__":
    sys.exit(main())
