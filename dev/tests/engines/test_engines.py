"""The same project on PostgreSQL and Apache Spark gives the same marts as on DuckDB.

For each engine named in ``RAGMART_ENGINES`` (comma-separated: ``postgres``, ``spark``; the
Makefile's ``test-engines`` and ``test`` set it) and each data set below, the project is built
with ``dbt build --target <engine>`` on a copy of the project and compared with the DuckDB build
of the same data:

* every seed table, exactly: the inputs are the same on every engine (dbt-postgres and
  dbt-spark load seeds through agate, which reads a blank or ``null`` cell as null, while
  dbt-duckdb's fast loader keeps it as text; the DuckDB reference build therefore loads its
  seeds with ``fast: false``, dbt-duckdb's agate loader, so that all three start from the same
  tables);
* every public mart (``access: public`` in the manifest): the same columns in the same order,
  the same rows, text, integers, booleans, dates and timestamps equal, doubles equal to 1e-9
  (absolute or relative); ``rejected_annotations`` exactly, ``annotation_row_id`` included;
  ``run_comparison``'s permutation p-values exactly (EXACT_COLUMNS);
* every seed, model and data test ends with the same status (a test that fails or warns on
  DuckDB must fail or warn on the engine, and no other), and every unit test passes on the engine
  (the unit tests do not read the data: on DuckDB the ``sample`` build runs them, and
  dev/tests/test_marts.py requires them to pass; on each engine the build of one data set,
  ``unit_test_data_set``, runs them).

Data sets: ``sample`` (the project's seeds), ``edge`` (dev/tests/fixtures/edge_cases: bad
timestamps, offsets, impossible dates, blank values, every reason code), ``edge_repair`` (the
same with ``constraint_policy: repair``, Postgres only) and ``generated`` (a small export of
dev/generate/generate_exports.py in two runs, loaded as seeds: quotes, commas, line breaks and umlauts inside
texts, several boolean spellings, bad rows), ``slices`` (generate.agreement_slices_scenario: the
agreement marts' language and task type slices, Postgres only) and ``query_groups`` (the training
view's chained query ids and texts over three runs and its pairs of gold and triage units: the
query groups' passes, Postgres only).

Connection: Postgres from RAGMART_PG_* (scripts/postgres.sh start prints them), one schema per
data set; Spark in session mode with a warehouse and metastore in a temp dir per build.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pytest
from kit.builds import PROJECT, SEED_FILES, data_set, dbt_command, prepare_project, read_run_results, scenario

HERE = Path(__file__).resolve().parent

ENGINES = [e.strip() for e in os.environ.get("RAGMART_ENGINES", "").split(",") if e.strip()]
KNOWN_ENGINES = ("postgres", "spark")
GENERATOR = PROJECT / "dev" / "generate" / "generate_exports.py"
TOLERANCE = 1e-9
BUILD_TIMEOUT = 3600

# (engine, data set) pairs that are compared; Spark takes minutes per build, so it gets fewer.
# RAGMART_ENGINE_DATA_SETS (comma-separated) narrows the data sets, e.g. to sample,edge in CI.
DATA_SETS = {
    "postgres": ["sample", "edge", "edge_repair", "generated", "slices", "query_groups", "judge_powered",
                 "spot_checks"],
    "spark": ["sample", "edge", "generated"],
}
ONLY_DATA_SETS = [d.strip() for d in os.environ.get("RAGMART_ENGINE_DATA_SETS", "").split(",") if d.strip()]
# the hand-made edge cases reject far more than max_rejected_share of their rows, on purpose
VARS = {"edge": {"max_rejected_share": 1}, "edge_repair": {"constraint_policy": "repair", "max_rejected_share": 1},
        "query_groups": {"accepted_languages": ["de", "en", "it"]}}
SEEDS = {"retrieval_annotations", "grounding_annotations", "generation_annotations", "annotators", "records"}

# Wall-clock seconds of every build, printed when the module ends (report_timings).
TIMINGS: list[tuple[str, str, float, str]] = []


@dataclass
class Result:
    engine: str
    data_set: str
    project: Path
    seconds: float
    statuses: dict[str, str]
    marts: dict[str, tuple[list[str], list[tuple]]] = field(default_factory=dict)
    error: str | None = None


# ---------------------------------------------------------------------------------------------
# Comparison (also checked by test_comparison_catches_differences below)
# ---------------------------------------------------------------------------------------------

def without_source_row(columns: list[str], rows: list[tuple]) -> tuple[list[str], list[tuple]]:
    """A seed table without the column ragmart_source_row, which the project's seed loader adds on
    PostgreSQL and Spark only (DuckDB keeps the file's order itself); the quarantine's source_row,
    compared with DuckDB's below, shows that both give the same rows."""
    if "ragmart_source_row" not in [c.lower() for c in columns]:
        return columns, rows
    keep = [i for i, c in enumerate(columns) if c.lower() != "ragmart_source_row"]
    return [columns[i] for i in keep], [tuple(row[i] for i in keep) for row in rows]


def normalize(value):
    """A value as Python reads it from any engine: floats for doubles and decimals, naive UTC
    datetimes, dates; JSON-wrapped values from read_spark.py unwrapped."""
    if isinstance(value, dict):
        ((kind, text),) = value.items()
        if kind == "float":
            return float(text)
        if kind == "timestamp":
            return dt.datetime.fromisoformat(text)
        if kind == "date":
            return dt.date.fromisoformat(text)
        raise ValueError(f"unknown value {value!r}")
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.UTC).replace(tzinfo=None)
    return value


def _sort_key(row: tuple) -> tuple:
    """Rows sorted by their non-float values, then by their floats rounded well above 1e-9."""
    exact = tuple((v is None, type(v).__name__, str(v)) for v in row if not isinstance(v, float))
    rounded = tuple((v is None, round(v, 6) if isinstance(v, float) else 0) for v in row
                    if isinstance(v, float) or v is None)
    return exact + rounded


def _equal(a, b, exact: bool) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or isinstance(a, bool) \
                or isinstance(b, bool):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b if exact else math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return type(a) is type(b) and a == b


def run_comparison_exact(rows: list[dict]):
    """The columns of a run_comparison row that must be equal to the last bit on every engine.

    A permutation p-value is (1 + n_extreme) / (B + 1) with n_extreme counted over md5 signs that
    every engine computes alike, so an engine must give the same double; so is Holm's
    adjustment in a family (pair of runs and slice) whose p-values are all permutation ones: the
    running maximum of min(1, integer × p), exact in IEEE doubles. A family with a normal
    approximation (Φ, differing in the last bits between engines) keeps the 1e-9 tolerance.
    """
    def family(row: dict) -> tuple:
        return row["baseline_run_id"], row["candidate_run_id"], row["slice_dimension"], row["slice_value"]

    approximated = {family(row) for row in rows if row["p_value_method"] != "permutation"}

    def exact(row: dict) -> set[str]:
        if row["p_value_method"] != "permutation":
            return set()
        return {"p_value"} if family(row) in approximated else {"p_value", "p_value_holm"}

    return exact


# Marts with columns compared exactly in some rows: mart -> (DuckDB's rows as dicts -> (row -> columns)).
EXACT_COLUMNS = {"run_comparison": run_comparison_exact}


def compare_mart(name: str, reference: tuple[list[str], list[tuple]], other: tuple[list[str], list[tuple]],
                 engine: str, exact: bool = False, limit: int = 10) -> list[str]:
    """Differences between DuckDB's rows of a mart and an engine's, as readable lines."""
    ref_columns, ref_rows = reference
    columns, rows = other
    ref_columns = [c.lower() for c in ref_columns]
    columns = [c.lower() for c in columns]
    if ref_columns != columns:
        return [f"{name}: columns differ: duckdb {ref_columns} vs {engine} {columns}"]
    problems = []
    ref_sorted = sorted((tuple(map(normalize, r)) for r in ref_rows), key=_sort_key)
    got_sorted = sorted((tuple(map(normalize, r)) for r in rows), key=_sort_key)
    if len(ref_sorted) != len(got_sorted):
        problems.append(f"{name}: {len(ref_sorted)} rows on duckdb, {len(got_sorted)} on {engine}")
        ref_keys = {_sort_key(r) for r in ref_sorted}
        got_keys = {_sort_key(r) for r in got_sorted}
        for row in [r for r in ref_sorted if _sort_key(r) not in got_keys][:limit]:
            problems.append(f"{name}: only on duckdb: {dict(zip(columns, row))}")
        for row in [r for r in got_sorted if _sort_key(r) not in ref_keys][:limit]:
            problems.append(f"{name}: only on {engine}: {dict(zip(columns, row))}")
        return problems
    exact_in = EXACT_COLUMNS[name]([dict(zip(columns, r)) for r in ref_sorted]) if name in EXACT_COLUMNS else None
    for ref_row, row in zip(ref_sorted, got_sorted):
        exact_columns = exact_in(dict(zip(columns, ref_row))) if exact_in else set()
        for column, a, b in zip(columns, ref_row, row):
            if not _equal(a, b, exact or column in exact_columns):
                key = {c: v for c, v in zip(columns, ref_row) if not isinstance(v, float)}
                problems.append(f"{name}: row {key}: {column} is {a!r} on duckdb, {b!r} on {engine}")
                if len(problems) >= limit:
                    return problems + [f"{name}: (further differences not listed)"]
    return problems


def compare_statuses(reference: dict[str, str], other: dict[str, str], engine: str) -> list[str]:
    """The same status for every node of the DuckDB build; a unit test, which the DuckDB build
    leaves to the ``sample`` build, must pass."""
    problems = [f"{unique_id}: {status} on {engine}, unit tests must pass"
                for unique_id, status in sorted(other.items())
                if unique_id.startswith("unit_test.") and unique_id not in reference and status != "pass"]
    other = {k: v for k, v in other.items() if not (k.startswith("unit_test.") and k not in reference)}
    for unique_id, status in sorted(reference.items()):
        got = other.get(unique_id)
        if got != status:
            problems.append(f"{unique_id}: {status} on duckdb, {got or 'not run'} on {engine}")
    for unique_id in sorted(set(other) - set(reference)):
        problems.append(f"{unique_id}: not run on duckdb, {other[unique_id]} on {engine}")
    return problems


# ---------------------------------------------------------------------------------------------
# Builds
# ---------------------------------------------------------------------------------------------

def statuses_of(project: Path) -> dict[str, str]:
    return {r["unique_id"]: r["status"] for r in read_run_results(project)}


def public_marts(project: Path) -> dict[str, str]:
    """The public marts and the seeds of a built project, the tables compared across engines, each
    with the schema the build wrote it to (the marts in the target's schema, the seeds in the
    staging schema: macros/schemas/generate_schema_name.sql)."""
    manifest = json.loads((project / "target" / "manifest.json").read_text())
    nodes = [n for n in manifest["nodes"].values() if n["package_name"] == "ragmart"]
    marts = sorted((n["name"], n["schema"]) for n in nodes if n["resource_type"] == "model" and n.get("access") == "public")
    seeds = sorted((n["name"], n["schema"]) for n in nodes if n["resource_type"] == "seed")
    return dict(marts + seeds)


@data_set("engines_generated")
def generated_seeds(tmp: Path) -> Path:
    out = tmp / "export"
    subprocess.run([sys.executable, str(GENERATOR), "--records", "160", "--annotators", "3", "--chunks", "5",
                    "--seed", "29", "--bad-rate", "0.03", "--dual-rate", "0.5", "--runs", "2", "--out", str(out), "--quiet"],
                   check=True)
    seeds = tmp / "seeds"
    seeds.mkdir()
    for name in SEED_FILES + ["records.csv"]:
        shutil.copyfile(out / name, seeds / name)
    return seeds


DATA = {"sample": "sample", "edge": "edge", "edge_repair": "edge", "generated": "engines_generated",
        "slices": "agreement_slices", "query_groups": "query_groups", "judge_powered": "judge_powered",
        "spot_checks": "spot_checks"}
# The DuckDB build each engine is compared with: every data test, seeds through agate.
for _name, _data in DATA.items():
    scenario(f"duckdb_agate_{_name}", _data, VARS.get(_name), tests=True, agate_seeds=True)
pytestmark = pytest.mark.engines
SCENARIOS_USED = [f"duckdb_agate_{d}" for d in dict.fromkeys(d for e in ENGINES if e in DATA_SETS for d in DATA_SETS[e])
                  if not ONLY_DATA_SETS or d in ONLY_DATA_SETS]


def unit_test_data_set(engine: str) -> str:
    """The one data set whose build on ``engine`` runs the unit tests (they do not read the data):
    the edge cases when they are compared, else the first data set compared."""
    compared = [d for d in DATA_SETS[engine] if not ONLY_DATA_SETS or d in ONLY_DATA_SETS]
    return "edge" if "edge" in compared else (compared or DATA_SETS[engine])[0]


def run_build(engine: str, data_set: str, seeds: Path | None, tmp: Path, env: dict) -> tuple[Path, float, str | None]:
    project = prepare_project(tmp, seeds)
    args = ["build", "--project-dir", str(project), "--profiles-dir", str(project / "profiles"), "--target", engine]
    if data_set in VARS:
        args += ["--vars", json.dumps(VARS[data_set])]
    if data_set != unit_test_data_set(engine):
        args += ["--exclude", "resource_type:unit_test"]
    started = time.time()
    with open(tmp / "dbt.log", "w") as log:
        proc = subprocess.run(dbt_command() + args, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=tmp,
                              timeout=BUILD_TIMEOUT)
    seconds = time.time() - started
    TIMINGS.append((engine, data_set, seconds, str(tmp / "dbt.log")))
    error = None
    if proc.returncode not in (0, 1) or not (project / "target" / "run_results.json").exists():
        error = f"dbt build on {engine} exited with {proc.returncode}: {(tmp / 'dbt.log').read_text()[-3000:]}"
    return project, seconds, error


def read_duckdb(db_path: Path, marts: dict[str, str]) -> dict:
    import duckdb

    with duckdb.connect(str(db_path), read_only=True) as con:
        out = {}
        for mart, schema in marts.items():
            cur = con.execute(f'select * from "{schema}"."{mart}"')
            out[mart] = ([d[0] for d in cur.description], cur.fetchall())
        return out


def pg_env() -> dict:
    missing = [v for v in ("RAGMART_PG_HOST", "RAGMART_PG_PORT") if not os.environ.get(v)]
    if missing:
        pytest.fail(f"RAGMART_ENGINES names postgres but {missing} are not set: run "
                    "'eval \"$(scripts/postgres.sh start)\"' first (make test-engines does)")
    return {k: os.environ[k] for k in os.environ if k.startswith("RAGMART_PG_")}


def pg_connect():
    import psycopg2

    env = pg_env()
    return psycopg2.connect(host=env["RAGMART_PG_HOST"], port=int(env["RAGMART_PG_PORT"]),
                            user=env.get("RAGMART_PG_USER", "ragmart"), password=env.get("RAGMART_PG_PASSWORD", "ragmart"),
                            dbname=env.get("RAGMART_PG_DATABASE", "ragmart"))


def build_postgres(data_set: str, seeds: Path | None, tmp: Path) -> Result:
    schema = f"ragmart_test_{data_set}"
    with pg_connect() as con, con.cursor() as cur:
        # the marts' schema and those of the seeds, staging, intermediate and semantic models
        for name in (schema, f"{schema}_staging", f"{schema}_intermediate", f"{schema}_semantic"):
            cur.execute(f'drop schema if exists "{name}" cascade')
    env = dict(os.environ, **pg_env(), RAGMART_PG_SCHEMA=schema)
    project, seconds, error = run_build("postgres", data_set, seeds, tmp, env)
    result = Result("postgres", data_set, project, seconds, statuses_of(project), error=error)
    if error is None:
        con = pg_connect()
        try:
            with con.cursor() as cur:
                for mart, mart_schema in public_marts(project).items():
                    cur.execute(f'select * from "{mart_schema}"."{mart}"')
                    result.marts[mart] = without_source_row([d[0] for d in cur.description], cur.fetchall())
        finally:
            con.close()
    return result


def build_spark(data_set: str, seeds: Path | None, tmp: Path) -> Result:
    spark_dir = tmp / "spark"
    schema = f"ragmart_test_{data_set}"
    env = dict(os.environ, RAGMART_SPARK_DIR=str(spark_dir), RAGMART_SPARK_SCHEMA=schema, TZ="UTC",
               SPARK_LOCAL_IP="127.0.0.1")
    project, seconds, error = run_build("spark", data_set, seeds, tmp, env)
    result = Result("spark", data_set, project, seconds, statuses_of(project), error=error)
    if error is None:
        marts = public_marts(project)
        out = tmp / "marts.json"
        proc = subprocess.run([sys.executable, str(HERE / "read_spark.py"), "--spark-dir", str(spark_dir),
                               "--out", str(out), *(f"{mart_schema}.{mart}" for mart, mart_schema in marts.items())],
                              env=env, capture_output=True, text=True, timeout=900, cwd=tmp)
        if proc.returncode != 0:
            result.error = f"reading the Spark tables failed: {proc.stderr[-3000:]}"
        else:
            data = json.loads(out.read_text())
            result.marts = {m: without_source_row(d["columns"], [tuple(r) for r in d["rows"]]) for m, d in data.items()}
    return result


@pytest.fixture(scope="module", autouse=True)
def report_timings(request):
    """Print the wall-clock time of every build of this module when it ends."""
    yield
    lines = [f"ragmart engine build {engine} {data_set}: {seconds:.0f}s (log {log})"
             for engine, data_set, seconds, log in TIMINGS]
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None or not lines:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line)


@dataclass
class Reference:
    project: Path
    statuses: dict[str, str]
    marts: dict


@pytest.fixture(scope="module")
def references(builds):
    """The DuckDB build of each data set (the session's ``duckdb_agate_<data set>`` scenario) and its seeds."""
    def get(data_set: str) -> tuple[Reference, Path | None]:
        build = builds.get(f"duckdb_agate_{data_set}")
        assert build.error is None, build.error
        marts = public_marts(build.project)
        assert len(marts) >= 15, f"expected the project's public marts and seeds, found {marts}"
        reference = Reference(build.project, statuses_of(build.project), read_duckdb(build.db_path, marts))
        assert sum(len(rows) for _, rows in reference.marts.values()) > 0, "the DuckDB marts are empty"
        return reference, builds.data_dir(DATA[data_set])

    return get


CASES = [(engine, data_set) for engine in KNOWN_ENGINES for data_set in DATA_SETS[engine]]


@pytest.mark.parametrize(("engine", "data_set"), CASES, ids=[f"{e}-{d}" for e, d in CASES])
def test_engine_marts_equal_duckdb(engine, data_set, references, tmp_path_factory):
    if engine not in ENGINES:
        pytest.skip(f"{engine} is not in RAGMART_ENGINES (make test-engines runs every engine)")
    if ONLY_DATA_SETS and data_set not in ONLY_DATA_SETS:
        pytest.skip(f"{data_set} is not in RAGMART_ENGINE_DATA_SETS (make test-engines runs every data set)")
    if engine == "spark" and shutil.which("java") is None:
        pytest.fail("Spark needs Java 17 on the PATH (Debian: apt-get install -y openjdk-17-jre-headless)")
    reference, seeds = references(data_set)
    tmp = tmp_path_factory.mktemp(f"{engine}_{data_set}")
    result = build_postgres(data_set, seeds, tmp) if engine == "postgres" else build_spark(data_set, seeds, tmp)
    assert result.error is None, result.error
    problems = compare_statuses(reference.statuses, result.statuses, engine)
    for mart, rows in reference.marts.items():
        if mart not in result.marts:
            problems.append(f"{mart}: not built on {engine}")
            continue
        exact = mart == "rejected_annotations" or mart in SEEDS
        problems += compare_mart(mart, rows, result.marts[mart], engine, exact=exact)
    assert not problems, (f"{engine} differs from duckdb on the {data_set} data "
                          f"({len(problems)} differences; build log {tmp / 'dbt.log'}):\n" + "\n".join(problems))


@pytest.mark.parametrize("engine", KNOWN_ENGINES)
def test_files_mode_is_a_clear_compile_error(engine, tmp_path):
    """Files mode reads the export files with DuckDB; elsewhere it must stop with a message."""
    if engine not in ENGINES:
        pytest.skip(f"{engine} is not in RAGMART_ENGINES")
    env = dict(os.environ, **(pg_env() if engine == "postgres" else {}),
               RAGMART_SPARK_DIR=str(tmp_path / "spark"), SPARK_LOCAL_IP="127.0.0.1")
    project = prepare_project(tmp_path, None)
    proc = subprocess.run(dbt_command() + ["compile", "--project-dir", str(project), "--profiles-dir", str(project / "profiles"),
                                    "--target", engine, "--select", "stg_annotation_exports__annotations",
                                    "--vars", json.dumps({"input_mode": "files", "input_path": str(tmp_path)})],
                          env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert proc.returncode != 0, "files mode compiled on " + engine
    assert f"input_mode 'files' reads files with DuckDB; on {engine}" in proc.stdout, proc.stdout[-2000:]


# ---------------------------------------------------------------------------------------------
# The comparison itself can fail
# ---------------------------------------------------------------------------------------------

def test_comparison_catches_differences():
    reference = (["k", "name", "value", "at"], [
        (1, "a", 0.5, dt.datetime(2025, 3, 3, 8, 0)),
        (2, "b", None, dt.datetime(2025, 3, 4, 8, 0)),
        (3, "c", 1 / 3, None),
    ])
    same = (["K", "name", "value", "at"], [
        (3, "c", Decimal("0.333333333333333333"), None),
        (1, "a", 0.5 + 1e-12, dt.datetime(2025, 3, 3, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=1)))),
        (2, "b", None, {"timestamp": "2025-03-04T08:00:00"}),
    ])
    assert compare_mart("m", reference, same, "x") == []
    off_by_1e8 = (reference[0], [(1, "a", 0.5 + 1e-8, reference[1][0][3])] + reference[1][1:])
    assert any("value is 0.5 on duckdb" in p for p in compare_mart("m", reference, off_by_1e8, "x"))
    assert compare_mart("m", reference, (reference[0], reference[1][:2]), "x")[0] == "m: 3 rows on duckdb, 2 on x"
    renamed = (reference[0], [(1, "A", 0.5, reference[1][0][3])] + reference[1][1:])
    assert compare_mart("m", reference, renamed, "x")
    null_vs_zero = (reference[0], [reference[1][0], (2, "b", 0.0, reference[1][1][3]), reference[1][2]])
    assert compare_mart("m", reference, null_vs_zero, "x")
    shifted = (reference[0], [(1, "a", 0.5, dt.datetime(2025, 3, 3, 10, 0))] + reference[1][1:])
    assert compare_mart("m", reference, shifted, "x")
    assert compare_mart("m", reference, (["k", "name", "value"], []), "x")[0].startswith("m: columns differ")
    tiny = (reference[0], [(1, "a", 0.5 + 1e-12, reference[1][0][3])] + reference[1][1:])
    assert compare_mart("m", reference, tiny, "x", exact=True)
    assert compare_mart("m", reference, (reference[0], [(1, "a", 0.5, reference[1][0][3]), reference[1][1],
                                                       (3, 3, 1 / 3, None)]), "x")
    # run_comparison: a permutation p-value (and Holm's in an all-permutation family) exactly
    columns = ["baseline_run_id", "candidate_run_id", "metric", "slice_dimension", "slice_value", "p_value",
               "p_value_method", "p_value_holm"]
    runs = (columns, [("a", "b", "ndcg", "overall", "all", 5 / 10001, "permutation", 10 / 10001),
                      ("a", "b", "mrr", "overall", "all", 9 / 10001, "permutation", 10 / 10001),
                      ("a", "b", "ndcg", "language", "en", 0.25, "normal", 0.5),
                      ("a", "b", "mrr", "language", "en", 7 / 10001, "permutation", 14 / 10001)])
    assert compare_mart("run_comparison", runs, runs, "x") == []
    for i, column in [(0, 5), (0, 7), (1, 5), (3, 5)]:
        nudged = [list(r) for r in runs[1]]
        nudged[i][column] += 1e-15
        assert compare_mart("run_comparison", runs, (columns, [tuple(r) for r in nudged]), "x"), (i, column)
    for i, column in [(2, 5), (2, 7), (3, 7)]:
        nudged = [list(r) for r in runs[1]]
        nudged[i][column] += 1e-15
        assert compare_mart("run_comparison", runs, (columns, [tuple(r) for r in nudged]), "x") == [], (i, column)
    assert compare_statuses({"test.a": "pass", "test.b": "warn"}, {"test.a": "pass", "test.b": "pass"}, "x") == \
        ["test.b: warn on duckdb, pass on x"]
    assert compare_statuses({"test.a": "pass"}, {}, "x") == ["test.a: pass on duckdb, not run on x"]
    assert compare_statuses({}, {"unit_test.a": "pass", "unit_test.b": "fail"}, "x") == \
        ["unit_test.b: fail on x, unit tests must pass"]
