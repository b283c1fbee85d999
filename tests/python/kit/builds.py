"""Every dbt build of the test suite, each built once per pytest session.

A *scenario* is a data set (a folder of seed CSVs made by a factory) built with given vars, an
optional time zone and with or without the data and unit tests.  ``BuildPool.get(name)`` returns
the scenario's ``Build``; the session's conftest starts every scenario that the collected test
modules name in their ``SCENARIOS_USED`` as soon as collection ends, two at a time, in the order
they are first needed, so builds run while other tests run.

A build copies the project (without .venv, target, logs, .git, *.duckdb) to a temp dir, replaces
``seeds/*.csv`` by the data set's CSVs (a project seed the data set does not provide, e.g. the
optional ``records``, is kept with its header only, i.e. empty), runs ``dbt build`` in a
subprocess with ``RAGMART_DUCKDB_PATH=ragmart.duckdb`` relative to the build's folder, and reads
every public mart and every seed table back with the duckdb package.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import reference as R

PROJECT = Path(__file__).resolve().parents[3]
EDGE = PROJECT / "tests" / "python" / "fixtures" / "edge_cases"
SEED_FILES = [f"{spec['seed']}.csv" for spec in R.TASKS.values()] + ["annotators.csv"]
PUBLIC_MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values",
                "rejected_annotations", "annotator_agreement", "annotator_pair_agreement",
                "annotator_quality", "labeling_protocol", "labeling_drift", "judge_agreement",
                "judge_weights", "judge_metric_values"]
SKIP_TOP = {".venv", ".venv-compat", ".venv-metricflow", "target", "logs", ".git", ".pytest_cache",
            ".ruff_cache", "dbt_packages_cache"}
NO_TESTS = ["--exclude", "resource_type:test", "resource_type:unit_test"]
BUILD_TIMEOUT = 1200


# --------------------------------------------------------------------------- the project copy

def _ignore(src, names):
    out = {n for n in names if n.endswith((".duckdb", ".duckdb.wal")) or n == "__pycache__"}
    if Path(src).resolve() == PROJECT:
        out |= {n for n in names if n in SKIP_TOP}
    return out


def project_seed_csvs() -> list[Path]:
    return sorted((PROJECT / "seeds").glob("*.csv"))


def prepare_project(dst: Path, seed_dir: Path | None) -> Path:
    """A copy of the project in ``dst/project`` whose seeds are the CSVs of ``seed_dir``."""
    proj = dst / "project"
    shutil.copytree(PROJECT, proj, ignore=_ignore)
    if seed_dir is not None:
        provided = {p.name for p in Path(seed_dir).glob("*.csv")}
        for existing in (proj / "seeds").glob("*.csv"):
            if existing.name not in provided:
                with open(existing, newline="", encoding="utf-8-sig") as fh:
                    header = next(csv.reader(fh), None)
                with open(existing, "w", newline="", encoding="utf-8") as fh:
                    if header:
                        csv.writer(fh, lineterminator="\n").writerow(header)
        for name in provided:
            shutil.copyfile(Path(seed_dir) / name, proj / "seeds" / name)
    return proj


def dbt_command() -> list[str]:
    dbt = Path(sys.executable).parent / "dbt"
    return [str(dbt)] if dbt.exists() else [sys.executable, "-m", "dbt.cli.main"]


def run_dbt(project: Path, args: list[str], *, env: dict | None = None, log: Path | None = None,
            timeout: float = BUILD_TIMEOUT) -> subprocess.CompletedProcess:
    """``dbt <args>`` on ``project`` (its own profiles/), in the folder above it, so that the
    relative database path of the environment lands beside the project copy."""
    command = dbt_command() + ["--no-use-colors"] + args + \
        ["--project-dir", str(project), "--profiles-dir", str(project / "profiles")]
    environment = dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false", **(env or {}))
    result = subprocess.run(command, env=environment, cwd=project.parent, capture_output=True,
                            text=True, timeout=timeout)
    if log is not None:
        log.write_text(result.stdout + result.stderr)
    return result


def read_run_results(project: Path) -> list[dict]:
    path = project / "target" / "run_results.json"
    if not path.exists():
        return []
    return [{"unique_id": r["unique_id"], "resource_type": r["unique_id"].split(".")[0],
             "status": r.get("status"), "message": r.get("message")}
            for r in json.loads(path.read_text()).get("results", [])]


def _py(v):
    return float(v) if isinstance(v, Decimal) else v


def read_tables(db_path: Path, names: list[str]) -> dict[str, tuple[list[str], list[tuple]]]:
    """The tables of ``names`` that exist (schema ``main`` first): columns and rows."""
    import duckdb

    with duckdb.connect(str(db_path), read_only=True) as con:
        where: dict[str, list[str]] = {}
        for schema, name in con.execute(
                "select table_schema, table_name from information_schema.tables").fetchall():
            where.setdefault(name, []).append(schema)
        out = {}
        for name in names:
            schemas = where.get(name)
            if schemas:
                schema = "main" if "main" in schemas else schemas[0]
                cur = con.execute(f'select * from "{schema}"."{name}"')
                out[name] = ([d[0] for d in cur.description], [tuple(map(_py, r)) for r in cur.fetchall()])
        return out


def detect_null_mode(seed_dir: Path, seed_tables: dict) -> tuple[str | None, str | None]:
    """Which loader semantics ('agate' or 'copy', see reference.load_cell) turn the CSVs into
    the loaded seed tables?  Returns (mode, problem)."""
    for mode in ("agate", "copy"):
        if all(Counter(tuple(r.get(c) for c in cols) for r in R.read_csv(seed_dir / f"{seed}.csv", mode))
               == Counter(tuple(v if v is None else str(v) for v in row) for row in rows)
               for seed, (cols, rows) in seed_tables.items()):
            return mode, None
    return None, ("the loaded seed tables match neither loader model (agate / copy): "
                  "the seed loader changes values (e.g. trims them)")


# --------------------------------------------------------------------------- scenarios

@dataclass(frozen=True)
class Scenario:
    name: str
    data: str                              # a data set name (DATA_SETS)
    vars: tuple = ()                       # sorted (name, value) pairs, passed as --vars
    tz: str | None = None
    tests: bool = False                    # run the data and unit tests too
    ref_kwargs: tuple = ()                 # keyword arguments of reference.compute

    @property
    def vars_dict(self) -> dict:
        return dict(self.vars)


def scenario(name: str, data: str, vars: dict | None = None, *, tz: str | None = None,
             tests: bool = False, ref_kwargs: dict | None = None) -> Scenario:
    def frozen(d):
        return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (d or {}).items()))
    sc = Scenario(name, data, frozen(vars), tz, tests, frozen(ref_kwargs))
    if SCENARIOS.setdefault(name, sc) != sc:
        raise ValueError(f"scenario {name} is defined twice, differently")
    return sc


# name -> factory(folder to write into) -> folder of seed CSVs (None: the project's own seeds)
DATA_SETS: dict[str, Callable[[Path], Path | None]] = {}
SCENARIOS: dict[str, Scenario] = {}


def data_set(name: str):
    def register(factory):
        DATA_SETS[name] = factory
        return factory
    return register


# --------------------------------------------------------------------------- builds

@dataclass
class Build:
    scenario: Scenario
    project: Path
    seed_dir: Path                         # what dbt loaded (a copy, taken before the build)
    db_path: Path
    seconds: float = 0.0
    node_results: list[dict] = field(default_factory=list)
    error: str | None = None
    output: str = ""
    marts: dict[str, tuple[list[str], list[dict]]] | None = None
    seed_tables: dict[str, tuple[list[str], list[tuple]]] | None = None
    null_mode: str | None = None
    loader_problem: str | None = None
    _ref: R.Reference | None = None

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def vars(self) -> dict:
        return self.scenario.vars_dict

    @property
    def reference(self) -> R.Reference:
        if self._ref is None:
            kwargs = {k: list(v) if isinstance(v, tuple) else v for k, v in self.scenario.ref_kwargs}
            self._ref = R.compute(self.seed_dir, null_mode=self.null_mode or "agate", **kwargs)
        return self._ref

    def failed_nodes(self, kinds=("model", "seed", "snapshot")) -> list[dict]:
        return [r for r in self.node_results
                if r["resource_type"] in kinds and r["status"] not in ("success", "pass")]

    def check(self) -> Build:
        """Fails the calling test unless dbt ran, every model and seed succeeded and the marts were read."""
        import pytest

        if self.error:
            pytest.fail(f"[{self.name}] {self.error}")
        failed = self.failed_nodes()
        if failed:
            causes = [r for r in self.node_results if r["status"] in ("error", "fail")]
            pytest.fail(f"[{self.name}] {len(failed)} models/seeds did not succeed ("
                        + ", ".join(f"{r['unique_id']} {r['status']}" for r in failed[:5])
                        + ", ...); failing or erroring nodes: " + "; ".join(
                            f"{r['unique_id']} {r['status']}: {(r['message'] or '')[:400]}" for r in causes))
        if self.marts is None:
            pytest.fail(f"[{self.name}] no database file at {self.db_path}")
        return self


class BuildPool:
    """Builds scenarios in the background (``workers`` dbt processes at a time), once each."""

    def __init__(self, tmp_factory, workers: int = 2):
        self.tmp_factory = tmp_factory
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="dbt-build")
        self.futures: dict[str, Future] = {}
        self.data_dirs: dict[str, Future] = {}
        self.lock = threading.Lock()

    def data_dir(self, name: str) -> Path | None:
        """The folder of a data set's seed CSVs, made once (None: the project's own seeds)."""
        with self.lock:
            fut = self.data_dirs.get(name)
            mine = fut is None
            if mine:
                fut = self.data_dirs[name] = Future()
                folder = self.tmp_factory.mktemp(f"data_{name}")
        if mine:
            try:
                fut.set_result(DATA_SETS[name](folder))
            except BaseException as exc:  # noqa: BLE001 - re-raised to every user
                fut.set_exception(exc)
        return fut.result()

    def mktemp(self, name: str) -> Path:
        with self.lock:
            return self.tmp_factory.mktemp(name)

    def start(self, names) -> None:
        for name in names:
            with self.lock:
                if name not in self.futures:
                    self.futures[name] = self.executor.submit(self._build, SCENARIOS[name])

    def get(self, name: str) -> Build:
        self.start([name])
        return self.futures[name].result()

    def _build(self, sc: Scenario) -> Build:
        started = time.time()
        tmp = self.mktemp(f"build_{sc.name}")
        data = self.data_dir(sc.data)
        proj = prepare_project(tmp, data)
        build = Build(sc, proj, proj / "seeds", tmp / "ragmart.duckdb")
        args = ["build"] + (["--vars", json.dumps(sc.vars_dict)] if sc.vars else []) + \
            ([] if sc.tests else NO_TESTS)
        env = {"RAGMART_DUCKDB_PATH": build.db_path.name} | ({"TZ": sc.tz} if sc.tz else {})
        try:
            result = run_dbt(proj, args, env=env, log=tmp / "dbt.log")
            build.output = result.stdout + result.stderr
            if result.returncode not in (0, 1):
                build.error = f"dbt exited with {result.returncode}: {build.output[-3000:]}"
        except subprocess.TimeoutExpired:
            build.error = f"dbt build did not end within {BUILD_TIMEOUT} s (log {tmp / 'dbt.log'})"
        build.node_results = read_run_results(proj)
        build.seconds = time.time() - started
        if not build.db_path.exists():
            build.error = build.error or f"no database at {build.db_path}"
            return build
        try:
            tables = read_tables(build.db_path, PUBLIC_MARTS + [f[:-4] for f in SEED_FILES] + ["records"])
        except Exception as exc:  # noqa: BLE001 - reported by every test of the scenario
            build.error = f"reading {build.db_path} failed: {exc!r}"
            return build
        build.marts = {m: (cols, [dict(zip(cols, row)) for row in rows])
                       for m, (cols, rows) in tables.items() if m in PUBLIC_MARTS}
        build.seed_tables = {m: t for m, t in tables.items() if m not in PUBLIC_MARTS}
        build.null_mode, build.loader_problem = detect_null_mode(
            build.seed_dir, {m: t for m, t in build.seed_tables.items() if m != "records"})
        return build

    def finished(self) -> list[Build]:
        return [f.result() for f in self.futures.values()
                if f.done() and not f.cancelled() and f.exception() is None]

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
