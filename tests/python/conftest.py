"""Fixtures that build the dbt project on a given set of seeds and read the marts back.

Each scenario is built once per pytest session (lazily, on first use):

* ``sample``      the project's own seeds (skipped when /work/main/seeds has no CSVs yet);
* ``edge``        fixtures/edge_cases (hand-made, see fixtures/make_edge_cases.py);
* ``edge_repair`` the same with ``--vars '{constraint_policy: repair}'``;
* ``random``      generate.py output (fixed seed), with non-default ``retrieval_k_values``
                  and ``accepted_languages``;
* ``edge_tokyo``  fixtures/edge_cases built by a ``dbt`` subprocess with ``TZ=Asia/Tokyo``
                  (started in the background as soon as the first build is requested, so it
                  runs while the in-process builds run); seeds and models only, no data tests.

A build copies the project (without .venv, target, logs, .git, *.duckdb) to a temp dir,
replaces ``seeds/*.csv`` by the scenario's CSVs (a project seed the scenario does not provide,
e.g. the optional ``records``, is kept with its header only, i.e. empty), runs
``dbt build --project-dir <tmp> --profiles-dir <tmp>/profiles`` with
``RAGMART_DUCKDB_PATH=<tmp>/ragmart.duckdb`` and reads every mart with the duckdb package.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate
import reference as R

PROJECT = HERE.parent.parent
EDGE = HERE / "fixtures" / "edge_cases"
SEED_FILES = [f"{spec['seed']}.csv" for spec in R.TASKS.values()] + ["annotators.csv"]
RANDOM_K = [1, 2, 5, 20]
RANDOM_LANGUAGES = ["de", "en", "it"]
MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values",
         "rejected_annotations"]
SKIP_TOP = {".venv", "target", "logs", ".git", ".pytest_cache", "dbt_packages_cache"}


@dataclass
class Scenario:
    name: str
    vars: dict = field(default_factory=dict)
    tz: str | None = None
    ref_kwargs: dict = field(default_factory=dict)
    extra_args: list = field(default_factory=list)


SCENARIOS = {
    "sample": Scenario("sample"),
    # the hand-made edge cases reject far more than max_rejected_share of their rows, on purpose
    "edge": Scenario("edge", vars={"max_rejected_share": 1}),
    "edge_repair": Scenario("edge_repair", vars={"constraint_policy": "repair", "max_rejected_share": 1},
                            ref_kwargs={"constraint_policy": "repair"}),
    "random": Scenario("random", vars={"retrieval_k_values": RANDOM_K,
                                       "accepted_languages": RANDOM_LANGUAGES},
                       ref_kwargs={"k_values": RANDOM_K,
                                   "accepted_languages": RANDOM_LANGUAGES}),
    # models and seeds only: the data tests of the same rows run in ``edge``, and the point of
    # this build is that the marts do not depend on the machine's time zone
    "edge_tokyo": Scenario("edge_tokyo", tz="Asia/Tokyo", vars={"max_rejected_share": 1},
                           extra_args=["--exclude", "resource_type:test", "resource_type:unit_test"]),
}


def _ignore(src, names):
    src_path = Path(src).resolve()
    out = {n for n in names if n.endswith((".duckdb", ".duckdb.wal")) or n == "__pycache__"}
    if src_path == PROJECT:
        out |= {n for n in names if n in SKIP_TOP}
    return out


def project_seed_csvs() -> list[Path]:
    return sorted((PROJECT / "seeds").glob("*.csv"))


def prepare_project(dst: Path, seed_dir: Path | None) -> Path:
    proj = dst / "project"
    shutil.copytree(PROJECT, proj, ignore=_ignore)
    if seed_dir is not None:
        provided = {p.name for p in seed_dir.glob("*.csv")}
        for existing in (proj / "seeds").glob("*.csv"):
            if existing.name not in provided:
                with open(existing, newline="", encoding="utf-8-sig") as fh:
                    header = next(csv.reader(fh), None)
                with open(existing, "w", newline="", encoding="utf-8") as fh:
                    if header:
                        csv.writer(fh, lineterminator="\n").writerow(header)
        for name in provided:
            shutil.copyfile(seed_dir / name, proj / "seeds" / name)
    return proj


def dbt_args(proj: Path, sc: Scenario) -> list[str]:
    args = ["build", "--project-dir", str(proj), "--profiles-dir", str(proj / "profiles")]
    if sc.vars:
        args += ["--vars", json.dumps(sc.vars)]
    return args + list(sc.extra_args)

def same_value(a, b, tol: float = 1e-9) -> bool:
    """Equality of two mart or reference values: nulls only equal nulls, booleans, texts and dates
    compare exactly and by type, numbers to ``tol`` (absolute and relative); NaN never matches."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (str, date)) or isinstance(b, (str, date)):
        return type(a) is type(b) and a == b
    if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
        return False
    return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)



@dataclass
class Build:
    scenario: Scenario
    project: Path
    seed_dir: Path
    db_path: Path
    node_results: list[dict]          # unique_id, resource_type, status, message
    error: str | None
    marts: dict[str, tuple[list[str], list[dict]]] | None = None
    seed_tables: dict[str, tuple[list[str], list[tuple]]] | None = None
    null_mode: str | None = None
    loader_problem: str | None = None
    seconds: float | None = None
    _ref: R.Reference | None = None

    @property
    def reference(self) -> R.Reference:
        if self._ref is None:
            self._ref = R.compute(self.seed_dir, null_mode=self.null_mode or "agate",
                                  **self.scenario.ref_kwargs)
        return self._ref

    def failed_nodes(self, kinds=("model", "seed", "snapshot")) -> list[dict]:
        return [r for r in self.node_results
                if r["resource_type"] in kinds and r["status"] not in ("success", "pass")]


def read_run_results(proj: Path) -> list[dict]:
    path = proj / "target" / "run_results.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    out = []
    for r in data.get("results", []):
        uid = r["unique_id"]
        out.append({"unique_id": uid, "resource_type": uid.split(".")[0],
                    "status": r.get("status"), "message": r.get("message")})
    return out


def _py(v):
    if isinstance(v, Decimal):
        return float(v)
    return v


def read_database(db_path: Path) -> tuple[dict, dict]:
    import duckdb

    con = duckdb.connect(str(db_path), read_only=True)
    try:
        tables = con.execute(
            "select table_schema, table_name from information_schema.tables").fetchall()
        where: dict[str, list[str]] = {}
        for schema, name in tables:
            where.setdefault(name, []).append(schema)
        marts = {}
        for mart in MARTS:
            schemas = where.get(mart)
            if not schemas:
                continue
            schema = "main" if "main" in schemas else schemas[0]
            cur = con.execute(f'select * from "{schema}"."{mart}"')
            cols = [d[0] for d in cur.description]
            marts[mart] = (cols, [dict(zip(cols, map(_py, row))) for row in cur.fetchall()])
        seeds = {}
        for seed in [f[:-4] for f in SEED_FILES]:
            schemas = where.get(seed)
            if not schemas:
                continue
            schema = "main" if "main" in schemas else schemas[0]
            cur = con.execute(f'select * from "{schema}"."{seed}"')
            seeds[seed] = ([d[0] for d in cur.description], cur.fetchall())
        return marts, seeds
    finally:
        con.close()


def detect_null_mode(seed_dir: Path, seed_tables: dict) -> tuple[str | None, str | None]:
    """Which loader semantics ('agate' or 'copy', see reference.load_cell) turn the CSVs into
    the loaded seed tables?  Returns (mode, problem)."""
    from collections import Counter

    matching = []
    for mode in ("agate", "copy"):
        ok = True
        for seed, (cols, rows) in seed_tables.items():
            csv_rows = R.read_csv(seed_dir / f"{seed}.csv", mode)
            want = Counter(tuple(r.get(c) for c in cols) for r in csv_rows)
            got = Counter(tuple(v if v is None else str(v) for v in row) for row in rows)
            if want != got:
                ok = False
                break
        if ok:
            matching.append(mode)
    if not matching:
        return None, ("the loaded seed tables match neither loader model (agate / copy): "
                      "the seed loader changes values (e.g. trims them)")
    return matching[0], None


def release_duckdb() -> None:
    """dbt-duckdb keeps the database open in this process after an in-process invocation
    (class-level environment); close it so that the file can be read (and the next build
    gets a fresh environment)."""
    try:
        from dbt.adapters.duckdb.connections import DuckDBConnectionManager as M
    except ImportError:  # pragma: no cover
        return
    with M._LOCK:
        if M._ENV is not None:
            try:
                M._ENV.close()
            finally:
                M._ENV = None


class SubprocessBuild:
    """One ``dbt build`` subprocess of a scenario (``start``, then ``finish``).

    The database path is relative (``ragmart.duckdb`` in the build's own working directory),
    so every build has the same profile and a build can start from another build's
    ``partial_parse.msgpack`` (dbt re-parses what differs, here the seed files, and falls back
    to a full parse when the file does not fit)."""

    def __init__(self, name: str, tmp: Path, seed_dir: Path | None, marts: list[str],
                 vars: dict | None = None):
        self.name = name
        self.vars = dict(vars or {})                  # passed as --vars when not empty
        self.tmp = tmp
        self.project = prepare_project(tmp, seed_dir)
        self.seed_dir = self.project / "seeds"       # what dbt loads (a copy, taken now)
        self.db = tmp / "ragmart.duckdb"
        self.error = None
        self.mart_names = list(marts)
        self.marts: dict | None = None
        self.node_results: list = []
        self.null_mode = None
        self.loader_problem = None
        self.proc = None
        self.log = None

    @property
    def selection(self) -> list[str]:
        """Build only the marts read and their parents, without data or unit tests."""
        return ["--select"] + [f"+{m}" for m in self.mart_names] + \
            ["--exclude", "resource_type:test", "resource_type:unit_test"]

    @property
    def parse_cache(self) -> Path:
        return self.project / "target" / "partial_parse.msgpack"

    def start(self, parse_cache: Path | None = None) -> None:
        if parse_cache is not None and parse_cache.exists():
            self.parse_cache.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(parse_cache, self.parse_cache)
        env = dict(os.environ, RAGMART_DUCKDB_PATH=self.db.name)
        dbt = Path(sys.executable).parent / "dbt"
        cmd = ([str(dbt)] if dbt.exists() else [sys.executable, "-m", "dbt.cli.main"]) + \
            dbt_args(self.project, Scenario(self.name, vars=self.vars,
                                            extra_args=self.selection))
        self.log = open(self.tmp / "dbt_stdout.log", "w")  # noqa: SIM115 - closed in finish()
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     cwd=self.tmp)

    def wait_for_parse(self, timeout: float = 120) -> Path | None:
        """The parse cache once this build has written it (None if it never does)."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            size = self.parse_cache.stat().st_size if self.parse_cache.exists() else None
            if size and size == last:
                return self.parse_cache
            if self.proc.poll() is not None:
                return self.parse_cache if self.parse_cache.exists() else None
            last = size
            time.sleep(0.25)
        return None

    def finish(self) -> None:
        try:
            self.proc.wait(timeout=600)
        finally:
            self.log.close()
        if self.proc.returncode not in (0, 1):
            self.error = (f"dbt exited with {self.proc.returncode}: "
                          f"{(self.tmp / 'dbt_stdout.log').read_text()[-3000:]}")
        self.node_results = read_run_results(self.project)
        if not self.db.exists():
            self.error = self.error or f"no database at {self.db}"
            return
        import duckdb

        con = duckdb.connect(str(self.db), read_only=True)
        try:
            where: dict[str, list[str]] = {}
            for schema, name in con.execute(
                    "select table_schema, table_name from information_schema.tables").fetchall():
                where.setdefault(name, []).append(schema)

            def read(name):
                schemas = where.get(name)
                if not schemas:
                    return None
                schema = "main" if "main" in schemas else schemas[0]
                cur = con.execute(f'select * from "{schema}"."{name}"')
                return [d[0] for d in cur.description], cur.fetchall()

            self.marts = {}
            for m in self.mart_names:
                got = read(m)
                if got is not None:
                    cols, rows = got
                    self.marts[m] = (cols, [dict(zip(cols, map(_py, r))) for r in rows])
            seeds = {}
            for s in [f[:-4] for f in SEED_FILES] + ["records"]:
                got = read(s)
                if got is not None:
                    seeds[s] = got
        finally:
            con.close()
        self.null_mode, self.loader_problem = detect_null_mode(self.seed_dir, seeds)


class Builds:
    def __init__(self, tmp_factory):
        self.tmp_factory = tmp_factory
        self.cache: dict[str, Build] = {}
        self.procs: dict[str, tuple] = {}
        self.random_dir: Path | None = None

    def seed_dir(self, name: str) -> Path | None:
        if name == "sample":
            have = {p.name for p in project_seed_csvs()}
            missing = [f for f in SEED_FILES if f not in have]
            if missing:
                pytest.skip(f"the project's sample seeds are not there yet (missing {missing} "
                            f"in {PROJECT / 'seeds'})")
            return PROJECT / "seeds"
        if name == "random":
            if self.random_dir is None:
                self.random_dir = generate.generate(self.tmp_factory.mktemp("random_seeds"))
            return self.random_dir
        return EDGE

    def start_background(self) -> None:
        for name, sc in SCENARIOS.items():
            if sc.tz and name not in self.procs and name not in self.cache:
                tmp = self.tmp_factory.mktemp(f"build_{name}")
                proj = prepare_project(tmp, self.seed_dir(name))
                db = tmp / "ragmart.duckdb"
                env = dict(os.environ, TZ=sc.tz, RAGMART_DUCKDB_PATH=str(db))
                dbt = Path(sys.executable).parent / "dbt"
                cmd = [str(dbt) if dbt.exists() else sys.executable] + \
                    ([] if dbt.exists() else ["-m", "dbt.cli.main"]) + dbt_args(proj, sc)
                log = open(tmp / "dbt_stdout.log", "w")  # noqa: SIM115 - closed in get()
                proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        cwd=tmp)
                self.procs[name] = (proc, proj, db, tmp, log, time.time())

    def get(self, name: str) -> Build:
        if name in self.cache:
            return self.cache[name]
        sc = SCENARIOS[name]
        started = time.time()
        if sc.tz:
            if name not in self.procs:
                self.start_background()
            proc, proj, db, tmp, log, started = self.procs[name]
            try:
                proc.wait(timeout=900)
            finally:
                log.close()
            error = None if proc.returncode in (0, 1) else \
                f"dbt exited with {proc.returncode}: {(tmp / 'dbt_stdout.log').read_text()[-3000:]}"
            build = Build(sc, proj, proj / "seeds", db, read_run_results(proj), error)
        else:
            self.start_background()
            tmp = self.tmp_factory.mktemp(f"build_{name}")
            seed_dir = self.seed_dir(name)
            proj = prepare_project(tmp, seed_dir if name != "sample" else None)
            db = tmp / "ragmart.duckdb"
            from dbt.cli.main import dbtRunner

            os.environ["RAGMART_DUCKDB_PATH"] = str(db)
            try:
                res = dbtRunner().invoke(dbt_args(proj, sc))
                error = None if res.exception is None else \
                    f"{type(res.exception).__name__}: {res.exception}"
            finally:
                release_duckdb()
            build = Build(sc, proj, proj / "seeds", db, read_run_results(proj), error)
        build.seconds = time.time() - started
        self.cache[name] = build        # built once, even when reading fails below
        if build.db_path.exists():
            try:
                build.marts, build.seed_tables = read_database(build.db_path)
            except Exception as exc:  # noqa: BLE001 - reported by every test of the scenario
                build.error = f"reading {build.db_path} failed: {exc!r}"
                build.marts = None
            else:
                build.null_mode, build.loader_problem = detect_null_mode(build.seed_dir,
                                                                         build.seed_tables)
        return build

    def close(self):
        for proc, *_rest in self.procs.values():
            if proc.poll() is None:
                proc.kill()


@pytest.fixture(scope="session")
def builds(tmp_path_factory):
    b = Builds(tmp_path_factory)
    _BUILDS.append(b)
    yield b
    b.close()


@pytest.fixture(scope="session")
def random_seed_dir(tmp_path_factory):
    return generate.generate(tmp_path_factory.mktemp("random_for_ranx"))


_BUILDS: list = []


def pytest_terminal_summary(terminalreporter):
    for b in _BUILDS:
        for name, build in b.cache.items():
            terminalreporter.write_line(
                f"ragmart build {name}: {build.seconds or 0:.0f}s, error={build.error is not None}, "
                f"seed loader nulls={build.null_mode}, db={build.db_path}")
