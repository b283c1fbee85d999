"""Benchmark ragmart's production `dbt build` in files mode against two hand-written floors and ranx.

For each size (retrieval rows; grounding and generation exports get one row per record and
annotator), the script generates an export with dev/generate/generate_exports.py (reused when it is
already there), then measures, each in its own process:

- floor query: one hand-written DuckDB query that computes MRR@10 and NDCG@10 straight from the CSV
  files (no validation, no consensus beyond "any annotator said so", no tests);
- core-job floor: dev/bench/core_floor.py, the core work of docs/rules.md by hand in plain DuckDB SQL
  in one process (every row check and reason code, superseding, duplicates, rank conflicts, the
  consensus, every measure with its interval for the overall and language slices, the quarantine
  with its original values; no agreement, tiers, judges, marts or tests). After the dbt build it
  runs again with --check on the build's database (not timed): the status column says whether its
  results equal the build's marts;
- dbt build: the production build of the whole project in files mode, as `make build-files` runs
  it (every model and the data tests that guard the numbers; the unit tests and the tests of the
  SQL's own invariants, tag sql_invariant, are left out: they test the SQL, not the data), with
  DuckDB's default memory limit (80 % of RAM) and, when --memory-limit is given, once more under
  that cap;
- ranx: MRR@10 and NDCG@10 with ranx on the same labels (skipped above --ranx-max-rows).

Before the sizes it measures the build's fixed cost: the same dbt build on a tiny export
(--fixed-cost-records records), which is what every build pays whatever its size (start-up, parsing,
and one query per model and data test): once cold (dbt parses the whole project, as after a fresh
clone or with other vars than the last build) and three times warm (dbt's partial parse), with
dbt's own time for the nodes and their count; beside it, interleaved round by round, `make build`
of the sample (scripts/build.py, seeds mode, publishing into the work folder) and dbt's own floor (a
dbt-duckdb project of one model built by the same dbt), with the ratios of both builds to the floor,
warm and cold. After each dbt build it lists the slowest nodes from dbt's
run_results.json, and adds up the node time of each part of the build (manifest.json: a model by
its folder or its mart's group, the data tests apart): the parts the core-job floor does too, and
the rest (agreement and protocol, judges, run comparison, data tests), with the ratio to the floor
that the build would have if only the floor's share of the work ran at the floor's speed.

It reports wall time, peak memory (max RSS of the process and its children), rows per second and
each step's ratio to both floors, and writes the table to docs/benchmarks.md. Timings are
measured, never asserted: this is a report, not a test.

Then it measures the run comparison (docs/rules.md, Run comparison): one dbt build in files mode
of an export whose records are in two runs answering the same queries (generate_exports.py
--records N --runs 2: N / 2 queries in each run; default 20,000 records, so 10,000 pairs per
measure), with the default vars (B = comparison_permutations = 10,000, so n_pairs · B = 1e8 =
max_permutation_rows: the permutation test, not the normal approximation). From the build's
run_results.json and manifest.json it adds up the node times of the run-comparison models
(int_runs__* and run_comparison*) with their data and unit tests, and of every other node of the
same build, and reports their ratio, the slowest comparison nodes, the build's wall time and peak
memory, the CPU time it got and the load average around it (the machine may be shared). After
the build (not timed) it reads run_comparison to report which p-value method its rows used.

Usage: python dev/bench/benchmark.py [--sizes 200000 2000000 10000000] [--memory-limit 3GB] [--work DIR]
       [--comparison-records 20000] [--only sizes|comparison] [--out docs/benchmarks.md]

--only comparison measures the run comparison alone (and rewrites only its section of the report);
--only sizes everything else (the run comparison's section is kept).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]

# the modules this script imports from the project's other folders
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / folder) for folder in ("scripts",)]
from build import dbt_command  # noqa: E402  scripts/: the production build's command

NOTES_MARKER = "<!-- notes: kept by dev/bench/benchmark.py -->"
COMPARISON_START = "<!-- run comparison: written by dev/bench/benchmark.py -->"
COMPARISON_END = "<!-- end of run comparison -->"
# the run-comparison models; a test is theirs when every model it depends on is one of them
COMPARISON_MODELS = ("int_runs__", "run_comparison")
PYTHON = sys.executable
DBT = str(Path(PYTHON).with_name("dbt"))

FLOOR_QUERY = """
with labels as (
    select
        record_uuid,
        chunk_id,
        try_cast(trim(chunk_rank) as integer) as chunk_rank,
        max(case when lower(trim(topically_relevant)) in ('true', 't', '1', 'yes', 'y') then 1 else 0 end) as relevant,
        max(case when lower(trim(evidence_sufficient)) in ('true', 't', '1', 'yes', 'y') then 1 else 0 end) as sufficient
    from read_csv({files}, header = true, all_varchar = true, quote = '"', escape = '"')
    where record_uuid is not null and chunk_id is not null
    group by all
),
graded as (
    select
        *,
        case when sufficient = 1 then 2 when relevant = 1 then 1 else 0 end as grade,
        row_number() over (partition by record_uuid order by sufficient + relevant desc) as ideal_rank
    from labels
    where chunk_rank >= 1
),
per_query as (
    select
        record_uuid,
        coalesce(max(case when chunk_rank <= 10 and relevant = 1 then 1.0 / chunk_rank end), 0) as rr,
        sum(case when chunk_rank <= 10 then (pow(2, grade) - 1) / log2(chunk_rank + 1) else 0 end) as dcg,
        sum(case when ideal_rank <= 10 then (pow(2, grade) - 1) / log2(ideal_rank + 1) else 0 end) as idcg
    from graded
    group by record_uuid
)
select avg(rr) as mrr_at_10, avg(case when idcg > 0 then dcg / idcg else 0 end) as ndcg_at_10, count(*) as n_queries
from per_query
"""

RANX_SCRIPT = r"""
import json, sys, duckdb
from ranx import Qrels, Run, evaluate
files = json.loads(sys.argv[1])
rows = duckdb.sql(f'''
    select record_uuid, chunk_id, min(try_cast(trim(chunk_rank) as integer)) as chunk_rank,
           max(case when lower(trim(evidence_sufficient)) in ('true','t','1','yes','y') then 2
                    when lower(trim(topically_relevant)) in ('true','t','1','yes','y') then 1 else 0 end) as grade
    from read_csv({files!r}, header = true, all_varchar = true, quote = '"', escape = '"')
    where record_uuid is not null and chunk_id is not null
    group by all having min(try_cast(trim(chunk_rank) as integer)) >= 1
''').fetchall()
qrels, run = {}, {}
for record, chunk, rank, grade in rows:
    run.setdefault(record, {})[chunk] = 1.0 / rank
    if grade > 0:
        qrels.setdefault(record, {})[chunk] = grade
run = {q: docs for q, docs in run.items() if q in qrels}
print(json.dumps(evaluate(Qrels(qrels), Run(run), ["ndcg_burges@10", "mrr@10"])))
"""


# Runs argv[2:] and writes its exit code and resource usage (with its descendants) as JSON to argv[1].
# Started from the bench, this small process forks the measured command: Linux counts the memory a
# process held before exec in its peak (ru_maxrss), so a command forked straight from the bench would
# report the bench's own peak (its generated data) whenever that is larger than the command's.
USAGE_PROBE = (
    "import json, os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    try:\n"
    "        os.execvp(sys.argv[2], sys.argv[2:])\n"
    "    finally:\n"
    "        os._exit(127)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "with open(sys.argv[1], 'w') as out:\n"
    "    json.dump({'exit': os.waitstatus_to_exitcode(status), 'maxrss_kib': usage.ru_maxrss,\n"
    "               'cpu_seconds': usage.ru_utime + usage.ru_stime}, out)\n"
)


def measure(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> dict:
    """Run cmd, return wall seconds, peak RSS (MiB) of it and its children, exit code and output tail."""
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as probe_dir:
        usage_file = Path(probe_dir) / "usage.json"
        started = time.perf_counter()
        with tempfile.TemporaryFile() as log:
            subprocess.run([sys.executable, "-c", USAGE_PROBE, str(usage_file), *cmd], env=env, cwd=cwd,
                           stdout=log, stderr=subprocess.STDOUT, check=False)
            wall = time.perf_counter() - started
            log.seek(0)
            output = log.read().decode(errors="replace")
        usage = json.loads(usage_file.read_text())
    code = usage["exit"]
    # the reader's lines of the files it read (base_native__export_files: "ragmart: read <file> (<n> rows...")
    read_lines = [line[line.index("ragmart: read "):] for line in output.splitlines() if "ragmart: read " in line]
    # ru_maxrss of wait4 covers the process and the descendants it waited for (KiB on Linux)
    return {"seconds": wall, "peak_mib": usage["maxrss_kib"] / 1024, "exit": code, "output": output[-4000:],
            "read_lines": read_lines, "cpu_seconds": usage["cpu_seconds"], "load": (load_before, *os.getloadavg())}


CORE_FLOOR = str(PROJECT / "dev" / "bench" / "core_floor.py")


def generate(rows: int, work: Path, annotators: int, chunks: int, name: str | None = None,
             runs: int = 1, records: int | None = None) -> Path:
    # every record dual-annotated (as in the reference case); the generator adds LLM-judge,
    # adjudicator and bad rows on top, so the actual row count is reported from its summary
    records = records or max(1, rows // (annotators * chunks))
    out = work / (name or f"exports_{rows}")
    summary = out / "summary.json"
    if summary.exists():
        return out
    print(f"generating {rows:,} retrieval rows into {out} ...", file=sys.stderr, flush=True)
    result = measure([PYTHON, str(PROJECT / "dev" / "generate" / "generate_exports.py"), "--records", str(records),
                      "--annotators", str(annotators), "--chunks", str(chunks), "--seed", "7", "--dual-rate", "1.0",
                      "--format", "csv", "--out", str(out), "--quiet", *(["--runs", str(runs)] if runs > 1 else [])])
    if result["exit"] != 0:
        sys.exit(f"generator failed:\n{result['output']}")
    return out


def retrieval_files(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.glob("retrieval*.csv"))


def count_rows(folder: Path) -> int:
    summary = json.loads((folder / "summary.json").read_text())
    tasks = summary.get("tasks", summary)
    retrieval = tasks.get("retrieval", {})
    return int(retrieval.get("rows", 0)) if isinstance(retrieval, dict) else int(retrieval)


def run_floor(folder: Path) -> dict:
    query = FLOOR_QUERY.format(files=json.dumps(retrieval_files(folder)).replace('"', "'"))
    code = f"import duckdb, json; print(json.dumps(duckdb.sql({query!r}).fetchall()))"
    return measure([PYTHON, "-c", code])


def run_core_floor(folder: Path) -> dict:
    return measure([PYTHON, CORE_FLOOR, str(folder)])


def check_core_floor(folder: Path, database: Path) -> str:
    """Whether the core-job floor's results equal the marts of a dbt build of the same folder (not timed)."""
    result = measure([PYTHON, CORE_FLOOR, str(folder), "--check", str(database)])
    lines = result["output"].strip().splitlines()
    if result["exit"] == 0:
        return "equal to the dbt build's marts"
    print(result["output"], file=sys.stderr)
    return lines[-1] if lines else f"check failed (exit {result['exit']})"


def dbt_database(folder: Path, work: Path) -> Path:
    return work / f"bench_{folder.name}.duckdb"


def run_dbt(folder: Path, work: Path, memory_limit: str | None = None, unit_tests: bool = False,
            extra: tuple[str, ...] = ()) -> dict:
    """One dbt build in files mode: the production build (no unit tests) unless unit_tests; extra: more dbt args."""
    database = dbt_database(folder, work)
    for suffix in ("", ".wal"):
        Path(str(database) + suffix).unlink(missing_ok=True)
    env = dict(os.environ, RAGMART_DUCKDB_PATH=str(database), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("RAGMART_DUCKDB_MEMORY_LIMIT", None)
    if memory_limit:
        env["RAGMART_DUCKDB_MEMORY_LIMIT"] = memory_limit
    target = work / "target"
    (target / "run_results.json").unlink(missing_ok=True)          # no figures of an earlier build
    # the production build as `make build-files` runs it (scripts/build.py), or with the unit tests
    command = dbt_command(DBT, {"input_mode": "files", "input_path": str(folder)}, True,
                          ["--target-path", str(target), "--log-path", str(work / "logs"), *extra])
    if unit_tests:
        command = [part for part in command if part not in ("--exclude-resource-type", "unit_test")]
    result = measure(command, env=env, cwd=PROJECT)
    if database.exists():
        result["database_mib"] = database.stat().st_size / 2**20
    result["nodes"] = slowest_nodes(target / "run_results.json")
    result["node_phase"], result["node_count"] = node_phase(target / "run_results.json")
    result["parts"] = node_parts(target)
    return result


def node_phase(run_results: Path) -> tuple[float | None, int]:
    """dbt's own time for running the nodes (run_results.json's elapsed_time: no start-up or parsing) and their count."""
    if not run_results.exists():
        return None, 0
    data = json.loads(run_results.read_text())
    return data.get("elapsed_time"), len(data["results"])


def dbt_floor_project(work: Path) -> Path:
    """dbt's own floor: a dbt-duckdb project of one model (`select 1`), built by the same dbt."""
    project = work / "dbt_floor"
    (project / "models").mkdir(parents=True, exist_ok=True)
    (project / "dbt_project.yml").write_text("name: floor\nversion: '1.0'\nprofile: floor\nmodel-paths: [models]\n")
    (project / "profiles.yml").write_text("floor:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n"
                                          "      path: floor.duckdb\n      threads: 2\n")
    (project / "models" / "one.sql").write_text("select 1 as x\n")
    return project


def run_dbt_floor(project: Path, cold: bool = False) -> dict:
    command = [DBT, "build", "--project-dir", str(project), "--profiles-dir", str(project),
               *(["--no-partial-parse"] if cold else [])]
    return measure(command, env=dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false"), cwd=project)


def run_make_build(work: Path, cold: bool = False) -> dict:
    """`make build` of the sample (scripts/build.py: seeds mode, publish) into a database of the work folder."""
    env = dict(os.environ, RAGMART_DUCKDB_PATH=str(work / "sample.duckdb"), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("RAGMART_DUCKDB_MEMORY_LIMIT", None)
    return measure([PYTHON, str(PROJECT / "scripts" / "build.py"), *(["--", "--no-partial-parse"] if cold else [])],
                   env=env, cwd=PROJECT)


def summary(runs: list[dict]) -> dict:
    """The median of warm runs (the first of `runs` is the cold one), with the cold time and the warm range."""
    cold, warm = runs[0], sorted(runs[1:], key=lambda run: run["seconds"])
    median = warm[len(warm) // 2]
    failed = next((run["exit"] for run in runs if run["exit"]), 0)    # a signal's code is negative
    return dict(median, cold_seconds=cold["seconds"], exit=failed, warm_runs=len(warm),
                warm_range=(warm[0]["seconds"], warm[-1]["seconds"]))


def fixed_cost(folder: Path, work: Path, warm_runs: int = 3) -> dict:
    """The tiny export's build, `make build` of the sample and dbt's floor (a one-model project), each once
    cold (--no-partial-parse: the whole project parsed) and warm_runs times warm, the three interleaved
    round by round so that a busy moment of the machine weighs on each alike."""
    floor_project = dbt_floor_project(work)
    runs = {"tiny": [run_dbt(folder, work, extra=("--no-partial-parse",))],
            "sample": [run_make_build(work, cold=True)], "floor": [run_dbt_floor(floor_project, cold=True)]}
    for _ in range(warm_runs):
        runs["floor"].append(run_dbt_floor(floor_project))
        runs["tiny"].append(run_dbt(folder, work))
        runs["sample"].append(run_make_build(work))
    return dict(summary(runs["tiny"]), sample=summary(runs["sample"]), floor=summary(runs["floor"]))


def node_name(unique_id: str) -> str:
    """A node's name as dbt prints it; a unit test as model::test, apart from its model."""
    parts = unique_id.split(".")
    return f"{parts[2]}::{parts[3]}" if parts[0] == "unit_test" else parts[2]


def slowest_nodes(run_results: Path, count: int = 8) -> list[tuple[str, float]]:
    """The slowest nodes of a dbt run (name, seconds), from its run_results.json."""
    if not run_results.exists():
        return []
    results = json.loads(run_results.read_text())["results"]
    timed = sorted(((node_name(r["unique_id"]), r["execution_time"]) for r in results), key=lambda n: -n[1])
    total = sum(seconds for _, seconds in timed)
    return [("all nodes (sum over dbt's threads)", total), *timed[:count]]


# The parts of a build, by the work they do; the first four are the work the core-job floor does too.
FLOOR_PARTS = ("reading and parsing", "row checks and statuses", "consensus, records and measures", "quarantine")
OTHER_PARTS = ("agreement and protocol", "judges", "run comparison", "training view", "data tests", "other")


# The intermediate models of the row checks and statuses, by name (each lives in its entity's folder).
VALIDATION_MODELS = ("int_annotations__row_checks", "int_annotations__row_status", "int_annotations__validated",
                     "int_records__validated")
# The record slices of the agreement marts (in the records folder, but no work of the core-job floor).
AGREEMENT_MODELS = ("int_records__slices",)
# The folders of the intermediate models of the consensus, the record grain and the measures.
MEASURE_FOLDERS = tuple(f"models/intermediate/{folder}/" for folder in
                        ("annotations", "records", "retrieval", "metrics", "runs"))


def part_of(node: dict) -> str:
    """Which part of the build a node of manifest.json belongs to: a model by its name (the run
    comparison, the row checks and statuses), its folder or its mart's group; a model none of them names is "other"."""
    path, name, group = node.get("original_file_path", ""), node.get("name", ""), node.get("group")
    if node.get("resource_type") == "test":
        return "data tests"
    if node.get("resource_type") != "model":
        return "other"
    if name.startswith(COMPARISON_MODELS):
        return "run comparison"
    if path.startswith("models/staging/"):
        return "reading and parsing"
    if name in VALIDATION_MODELS:
        return "row checks and statuses"
    if path.startswith("models/intermediate/agreement/") or group == "agreement" or name in AGREEMENT_MODELS:
        return "agreement and protocol"
    if path.startswith("models/intermediate/judges/") or group == "judges":
        return "judges"
    if group == "quarantine":
        return "quarantine"
    if path.startswith("models/intermediate/training/") or group == "training":
        return "training view"
    if path.startswith(MEASURE_FOLDERS) or group == "metrics":
        return "consensus, records and measures"
    return "other"


def node_parts(target: Path) -> dict[str, tuple[int, float]] | None:
    """Nodes and node time (summed over dbt's threads) of each part of a build, from its target folder."""
    run_results, manifest = target / "run_results.json", target / "manifest.json"
    if not run_results.exists() or not manifest.exists():
        return None
    nodes = json.loads(manifest.read_text()).get("nodes", {})
    parts = {part: (0, 0.0) for part in FLOOR_PARTS + OTHER_PARTS}
    for r in json.loads(run_results.read_text())["results"]:
        part = part_of(nodes.get(r["unique_id"], {}))
        count, seconds = parts[part]
        parts[part] = (count + 1, seconds + r["execution_time"])
    return parts


def is_comparison_model(unique_id: str) -> bool:
    parts = unique_id.split(".")
    return parts[0] == "model" and parts[2].startswith(COMPARISON_MODELS)


def comparison_split(target: Path) -> dict | None:
    """Node times of a dbt build split into the run comparison (its models and their tests) and the rest."""
    run_results, manifest = target / "run_results.json", target / "manifest.json"
    if not run_results.exists() or not manifest.exists():
        return None
    graph = json.loads(manifest.read_text())
    nodes = {**graph.get("nodes", {}), **graph.get("unit_tests", {})}

    def is_comparison(unique_id: str) -> bool:
        if is_comparison_model(unique_id):
            return True
        if unique_id.split(".")[0] not in ("test", "unit_test"):
            return False
        models = [n for n in nodes.get(unique_id, {}).get("depends_on", {}).get("nodes", []) if n.startswith("model.")]
        return bool(models) and all(is_comparison_model(n) for n in models)

    split: dict = {"models": 0.0, "tests": 0.0, "rest": 0.0, "n_comparison": 0, "n_rest": 0,
                   "comparison_nodes": [], "rest_nodes": []}
    for r in json.loads(run_results.read_text())["results"]:
        unique_id, seconds = r["unique_id"], r["execution_time"]
        if is_comparison(unique_id):
            split["models" if unique_id.startswith("model.") else "tests"] += seconds
            split["n_comparison"] += 1
            split["comparison_nodes"].append((node_name(unique_id), seconds))
        else:
            split["rest"] += seconds
            split["n_rest"] += 1
            split["rest_nodes"].append((node_name(unique_id), seconds))
    for key in ("comparison_nodes", "rest_nodes"):
        split[key].sort(key=lambda n: -n[1])
    split["comparison"] = split["models"] + split["tests"]
    split["ratio"] = split["comparison"] / split["rest"] if split["rest"] else None
    return split


def p_value_methods(database: Path) -> str:
    """Which p-value method run_comparison's rows used, with their pairs (read after the build, not timed)."""
    import duckdb

    try:
        with duckdb.connect(str(database), read_only=True) as con:
            rows = con.sql("select p_value_method, count(*), min(n_pairs), max(n_pairs) from run_comparison "
                           "group by p_value_method order by p_value_method").fetchall()
    except duckdb.Error as error:
        return f"run_comparison not readable ({error})"
    return "; ".join(f"{method}: {count} rows, {low:,} to {high:,} pairs" for method, count, low, high in rows) \
        or "run_comparison is empty"


def run_comparison_build(args: argparse.Namespace) -> dict:
    """The dbt build of a two-run export with the default vars, its node times split (see the module's doc)."""
    folder = generate(args.comparison_records * args.annotators * args.chunks, args.work, args.annotators, args.chunks,
                      name=f"exports_runs2_{args.comparison_records}", runs=2, records=args.comparison_records)
    rows = count_rows(folder)
    print(f"run comparison: dbt build on {args.comparison_records:,} records in 2 runs ({rows:,} retrieval rows) ...",
          file=sys.stderr, flush=True)
    result = run_dbt(folder, args.work, unit_tests=True)
    result.update(rows=rows, records=args.comparison_records, split=comparison_split(args.work / "target"),
                  methods=p_value_methods(dbt_database(folder, args.work)) if result["exit"] == 0 else "-")
    status = "ok" if result["exit"] == 0 else f"exit {result['exit']}"
    print(f"{'':>12}  {result['seconds']:.1f} s, {result['peak_mib']:.0f} MiB, {status}", file=sys.stderr)
    if result["exit"] != 0:
        print(result["output"], file=sys.stderr)
    if result["split"] and result["split"]["ratio"] is not None:
        split = result["split"]
        print(f"{'':>12}  run comparison {split['comparison']:.1f} s of node time, the rest {split['rest']:.1f} s: "
              f"ratio {split['ratio']:.2f}; {result['methods']}", file=sys.stderr)
    return result


def comparison_section(r: dict) -> list[str]:
    """The report's section on the run comparison's build."""
    queries = r["records"] // 2
    lines = [COMPARISON_START, "", "## Run comparison", "",
             f"One `dbt build` in files mode (every model and test) of an export of {r['records']:,} records in two runs "
             f"answering the same {queries:,} queries (`dev/generate/generate_exports.py --records {r['records']} --runs 2`, "
             f"the other arguments as above: {r['rows']:,} retrieval rows), default vars: B = comparison_permutations "
             f"= 10,000, so n_pairs · B ≤ {queries:,} · 10,000 = max_permutation_rows and every p-value comes from the "
             "sign-flip permutation test. Node times from the build's run_results.json, added up over dbt's threads: "
             "the run comparison is the models int_runs__* and run_comparison* with their data and unit tests; the "
             "rest is every other node of the same build. Measured with `python dev/bench/benchmark.py --only "
             "comparison` (part of `make bench`).", ""]
    status = "ok" if r["exit"] == 0 else f"failed (exit {r['exit']})"
    load_before, *load_after = r["load"]
    cpu_share = 100 * r["cpu_seconds"] / r["seconds"] if r["seconds"] else 0
    lines += [f"Machine: {machine()}.", "",
              f"Build: {r['seconds']:.1f} s wall, peak memory {r['peak_mib']:,.0f} MiB, {r['cpu_seconds']:.1f} s of CPU "
              f"({cpu_share:.0f} % of the wall time; 200 % is both cores); load average {load_before:.1f} (1 min) before, "
              f"{load_after[0]:.1f}, {load_after[1]:.1f} and {load_after[2]:.1f} (1, 5 and 15 min) after ({status}). "
              f"P-values: {r['methods']}.", ""]
    split = r.get("split")
    if not split:
        return lines + ["(no run_results.json)", "", COMPARISON_END]
    ratio = f"{split['ratio']:.2f}" if split["ratio"] is not None else "-"
    lines += ["| nodes | count | node time (s) |", "|---|---:|---:|",
              f"| run comparison: models | | {split['models']:.1f} |",
              f"| run comparison: their data and unit tests | | {split['tests']:.1f} |",
              f"| run comparison, all | {split['n_comparison']} | {split['comparison']:.1f} |",
              f"| the rest of the build | {split['n_rest']} | {split['rest']:.1f} |",
              f"| **ratio run comparison / rest** | | **{ratio}** |", "",
              "Slowest nodes of the run comparison, and of the rest (seconds):", "",
              "| part | node | seconds |", "|---|---|---:|"]
    lines += [f"| run comparison | {node} | {seconds:.1f} |" for node, seconds in split["comparison_nodes"][:6]]
    lines += [f"| rest | {node} | {seconds:.1f} |" for node, seconds in split["rest_nodes"][:4]]
    return lines + ["", COMPARISON_END]


def with_section(text: str, section: list[str]) -> str:
    """text with its run-comparison section replaced by section (added before the notes when it has none)."""
    block = "\n".join(section)
    if COMPARISON_START in text and COMPARISON_END in text:
        head, rest = text.split(COMPARISON_START, 1)
        return head + block + rest.split(COMPARISON_END, 1)[1]
    head, marker, notes = text.partition(NOTES_MARKER)
    return head.rstrip("\n") + "\n\n" + block + "\n\n" + marker + notes


def run_ranx(folder: Path) -> dict:
    return measure([PYTHON, "-c", RANX_SCRIPT, json.dumps(retrieval_files(folder))])


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import duckdb

    return (f"{os.cpu_count()} cores ({cpu}), {memory:.0f} GiB memory, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, DuckDB {duckdb.__version__}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200_000, 2_000_000, 10_000_000],
                        help="retrieval rows per run (default: 200000 2000000 10000000)")
    parser.add_argument("--annotators", type=int, default=2, help="votes per chunk (default 2)")
    parser.add_argument("--chunks", type=int, default=10, help="chunks per query (default 10)")
    parser.add_argument("--ranx-max-rows", type=int, default=10_000_000, help="skip ranx above this size")
    parser.add_argument("--memory-limit", help="also run each dbt build with DuckDB capped at this (e.g. 3GB)")
    parser.add_argument("--fixed-cost-records", type=int, default=100,
                        help="records of the tiny export that measures the build's fixed cost (0: skip)")
    parser.add_argument("--comparison-records", type=int, default=20_000,
                        help="records of the two-run export whose build measures the run comparison "
                             "(default 20000: 10,000 queries in each run; 0: skip)")
    parser.add_argument("--only", choices=["sizes", "comparison"],
                        help="measure only the sizes (with the fixed cost) or only the run comparison; "
                             "the other part's section of the report is kept")
    parser.add_argument("--work", type=Path, default=PROJECT / "target" / "bench", help="folder for data and databases")
    parser.add_argument("--out", type=Path, default=PROJECT / "docs" / "benchmarks.md", help="report to write")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)

    results = []
    fixed = None
    sizes = [] if args.only == "comparison" else args.sizes
    if args.fixed_cost_records and args.only != "comparison":
        folder = generate(args.fixed_cost_records * args.annotators * args.chunks, args.work, args.annotators,
                          args.chunks, name="exports_fixed_cost")
        print(f"fixed cost: dbt build on {count_rows(folder):,} retrieval rows ...", file=sys.stderr, flush=True)
        fixed = fixed_cost(folder, args.work)
        fixed.update(rows=count_rows(folder))
    dbt_step = "dbt build, files mode (production)"
    for size in sizes:
        folder = generate(size, args.work, args.annotators, args.chunks)
        rows = count_rows(folder) or size
        steps = [("floor query (MRR@10, NDCG@10)", run_floor), ("core-job floor (dev/bench/core_floor.py)", run_core_floor),
                 (dbt_step, lambda f: run_dbt(f, args.work))]
        if args.memory_limit:
            steps.append((f"{dbt_step}, DuckDB memory_limit {args.memory_limit}",
                          lambda f: run_dbt(f, args.work, args.memory_limit)))
        if size <= args.ranx_max_rows:
            steps.append(("ranx (ndcg_burges@10, mrr@10)", run_ranx))
        floors: dict[str, dict] = {}
        for name, step in steps:
            print(f"{size:>12,} rows: {name} ...", file=sys.stderr, flush=True)
            result = step(folder)
            if name.startswith(("floor", "core-job floor")):
                floors["core" if name.startswith("core") else "query"] = result
            result.update(size=size, rows=rows, step=name, ratio=result["seconds"] / floors["query"]["seconds"])
            status = "ok" if result["exit"] == 0 else f"exit {result['exit']}"
            print(f"{'':>12}  {result['seconds']:.1f} s, {result['peak_mib']:.0f} MiB, {status}", file=sys.stderr)
            if result["exit"] != 0:
                print(result["output"], file=sys.stderr)
            if name == dbt_step and result["exit"] == 0 and floors.get("core", {}).get("exit") == 0:
                print(f"{'':>12}  core-job floor --check against this build ...", file=sys.stderr, flush=True)
                floors["core"]["check"] = check_core_floor(folder, dbt_database(folder, args.work))
                print(f"{'':>12}  {floors['core']['check']}", file=sys.stderr)
            results.append(result)
        for result in results[-len(steps):]:
            core = floors.get("core")
            result["core_ratio"] = result["seconds"] / core["seconds"] if core and core["exit"] == 0 else None

    comparison = None
    if args.comparison_records and args.only != "sizes":
        comparison = run_comparison_build(args)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    previous = args.out.read_text() if args.out.exists() else ""
    if args.only == "comparison" and previous:
        # the sizes' table and the notes stay as they are
        text = with_section(previous, comparison_section(comparison)) if comparison else previous
    else:
        text = "\n".join(size_report(results, fixed)) + "\n\n" + NOTES_MARKER
        # hand-written notes below the marker survive a new run
        if NOTES_MARKER in previous:
            text += previous.split(NOTES_MARKER, 1)[1]
        if comparison:
            text = with_section(text, comparison_section(comparison))
        elif COMPARISON_START in previous and COMPARISON_END in previous:
            kept = previous.split(COMPARISON_START, 1)[1].split(COMPARISON_END, 1)[0]
            text = with_section(text, [COMPARISON_START + kept + COMPARISON_END])
    args.out.write_text(text)
    print(f"wrote {args.out}", file=sys.stderr)
    measured = results + ([comparison] if comparison else [])
    return 0 if all(r["exit"] == 0 for r in measured) else 1


def size_report(results: list[dict], fixed: dict | None) -> list[str]:
    """The report's table of the sizes, the fixed cost and the slowest nodes of each build."""
    lines = [
        "# Benchmarks",
        "",
        "Produced by `make bench` (`python dev/bench/benchmark.py`); each step runs in its own process on the same",
        "generated CSV export (`dev/generate/generate_exports.py --dual-rate 1.0`: every query labelled by 2 annotators,",
        "10 chunks per query, plus LLM-judge, adjudicator and bad rows; grounding and generation exports with one row",
        "per record and annotator). Peak memory is the maximum resident set size of",
        "the process and its children. Two floors, each measured in the same run: the floor query (MRR@10 and NDCG@10",
        "from the CSV in one query, no validation) and the core-job floor (`dev/bench/core_floor.py`: every row check,",
        "superseding, duplicates and rank conflicts, the consensus, every measure with its interval for the overall and",
        "language slices and the quarantine, by hand in plain DuckDB SQL in one process). The dbt build is the",
        "production build that `make build-files` runs: every model and the data tests that guard the numbers, without",
        "the unit tests and the tests of the SQL's own invariants (tag sql_invariant: they check the SQL whatever",
        "the data; `make test` runs them). The ratios are the step's",
        "wall time over each floor's. The core-job floor's status says whether its results equal the dbt build's marts",
        "(`dev/bench/core_floor.py --check`, run after the build and not timed).",
        "",
        f"Machine: {machine()}.",
        "",
        "| retrieval rows | step | wall time (s) | peak memory (MiB) | rows per second | ratio to floor query | "
        "ratio to core-job floor | status |",
        "|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        status = "ok" if r["exit"] == 0 else f"failed (exit {r['exit']})"
        if r.get("check"):
            status += f"; {r['check']}"
        core_ratio = f"{r['core_ratio']:.2f}" if r.get("core_ratio") is not None else "-"
        lines.append(f"| {r['rows']:,} | {r['step']} | {r['seconds']:.1f} | {r['peak_mib']:,.0f} | "
                     f"{r['rows'] / r['seconds']:,.0f} | {r['ratio']:.2f} | {core_ratio} | {status} |")
    if fixed:
        status = "ok" if fixed["exit"] == 0 else f"failed (exit {fixed['exit']})"
        per_node = (f"; dbt's node phase {fixed['node_phase']:.1f} s for {fixed['node_count']} nodes, "
                    f"{1000 * fixed['node_phase'] / fixed['node_count']:.0f} ms each" if fixed.get("node_phase") else "")
        lines += ["", f"Fixed cost: the same dbt build on a tiny export ({fixed['rows']:,} retrieval rows) took "
                  f"{fixed['seconds']:.1f} s warm (the median of {fixed['warm_runs']} builds with dbt's partial parse, "
                  f"{fixed['warm_range'][0]:.1f}-{fixed['warm_range'][1]:.1f} s{per_node}) and "
                  f"{fixed['cold_seconds']:.1f} s cold (the whole project parsed, as after a fresh clone or a change "
                  f"of vars), {fixed['peak_mib']:,.0f} MiB ({status}); every build pays it, whatever its size "
                  "(start-up, parsing, one query per model and data test)."]
        floor, sample = fixed.get("floor"), fixed.get("sample")
        if floor and sample:
            def ratios(run: dict) -> str:
                return (f"{run['seconds']:.1f} s warm ({run['seconds'] / floor['seconds']:.2f}x the floor), "
                        f"{run['cold_seconds']:.1f} s cold ({run['cold_seconds'] / floor['cold_seconds']:.2f}x)")
            lines += ["", f"dbt's own floor, a dbt-duckdb project of one model built by the same dbt in the same run: "
                      f"{floor['seconds']:.1f} s warm (median of {floor['warm_runs']}, "
                      f"{floor['warm_range'][0]:.1f}-{floor['warm_range'][1]:.1f} s), {floor['cold_seconds']:.1f} s cold. "
                      f"Against it: the tiny export's production build {ratios(fixed)}; `make build` of the sample "
                      f"(seeds, publish and the printed metrics included) {ratios(sample)}"
                      + ("" if sample["exit"] == 0 and floor["exit"] == 0 else " (a run failed)") + "."]
    lines += parts_report(results)
    timed = [r for r in results if r.get("nodes")]
    if timed:
        lines += ["", "Slowest nodes of each dbt build (seconds, from dbt's run_results.json):", "",
                  "| retrieval rows | step | node | seconds |", "|---:|---|---|---:|"]
        for r in timed:
            for node, seconds in r["nodes"]:
                lines.append(f"| {r['rows']:,} | {r['step']} | {node} | {seconds:.1f} |")
    return lines


def parts_report(results: list[dict]) -> list[str]:
    """Where each dbt build's node time goes, and what the build would take if the work the core-job floor
    also does ran at the floor's speed while the rest took its measured share of the wall time."""
    builds = [r for r in results if r.get("parts") and r.get("core_ratio") is not None and r["exit"] == 0]
    if not builds:
        return []
    lines = ["", "Where each dbt build's node time goes (seconds summed over dbt's threads, from run_results.json and "
             "manifest.json; a model by its name (the row checks and statuses), its folder or its mart's group, "
             "every data test under data tests). The "
             "first four parts are the work the core-job floor does too. The last column is what the build would "
             "take if those four ran exactly at the floor's speed and the other parts kept their share of the "
             "build's wall time: a bound on what a faster core alone can reach.", "",
             "| retrieval rows | step | " + " | ".join(FLOOR_PARTS + OTHER_PARTS) + " | floor's work, share | "
             "rest at its share of the wall time (s) | core-job floor + rest: ratio to the floor |",
             "|---:|---|" + "---:|" * (len(FLOOR_PARTS + OTHER_PARTS) + 3)]
    for r in builds:
        parts = r["parts"]
        total = sum(seconds for _, seconds in parts.values()) or 1.0
        floor_share = sum(parts[p][1] for p in FLOOR_PARTS) / total
        floor_seconds = r["seconds"] / r["core_ratio"]
        rest = (1 - floor_share) * r["seconds"]
        cells = " | ".join(f"{parts[p][1]:.1f} ({parts[p][0]})" for p in FLOOR_PARTS + OTHER_PARTS)
        lines.append(f"| {r['rows']:,} | {r['step']} | {cells} | {floor_share:.0%} | {rest:.1f} | "
                     f"{(floor_seconds + rest) / floor_seconds:.2f} |")
    lines += ["", "Each cell: node time (nodes)."]
    return lines


if __name__ == "__main__":
    sys.exit(main())
