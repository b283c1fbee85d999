"""Every dbt build of the test suite, each built once per pytest session.

A *scenario* is a data set (a folder of seed CSVs, or of export files, made by a factory) built with given vars, an
optional time zone and with or without the data tests; the unit tests do not read the data, so one
scenario (``sample``) runs them.  ``BuildPool.get(name)`` returns the scenario's ``Build``; the
session's conftest starts every scenario that the collected test modules name in their
``SCENARIOS_USED`` as soon as collection ends, two at a time in each process (four when
pytest-xdist runs the modules in two processes), in the order they are first needed, so builds
run while other tests run, and a module waiting for its builds does not leave a core idle.

A build copies the project (without .venv, target, logs, .git, *.duckdb) to a temp dir, replaces
``seeds/*.csv`` by the data set's CSVs (a project seed the data set does not provide, e.g. the
optional ``records``, is kept with its header only, i.e. empty), runs ``dbt build`` in a
subprocess with ``RAGMART_DUCKDB_PATH=ragmart.duckdb`` relative to the build's folder, and reads
every public mart and every seed table back with the duckdb package.  A *files* scenario instead
reads its data set, a folder of export files, in files mode (``input_mode: files`` with
``input_path`` the folder; the seeds are not loaded).
"""

from __future__ import annotations

import csv
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import reference as R
import yaml
from export_schema import write_csv

from kit import dbt_process

PROJECT = Path(__file__).resolve().parents[3]
EDGE = PROJECT / "dev" / "tests" / "fixtures" / "edge_cases"
SEED_FILES = [f"{spec['seed']}.csv" for spec in R.TASKS.values()] + ["annotators.csv"]
PUBLIC_MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values",
                "rejected_annotations", "annotator_agreement", "annotator_pair_agreement",
                "annotator_quality", "labeling_protocol", "labeling_drift", "judge_agreement",
                "judge_weights", "judge_metric_values", "run_comparison", "run_comparison_queries",
                "export_row_counts", "retrieval_training_pairs", "grounding_training_pairs",
                "generation_training_pairs", "judge_powered_metric_values", "spot_check_queue",
                "adjudication_queue"]
SKIP_TOP = {".venv", ".venv-compat", ".venv-metricflow", "target", "logs", ".git", ".pytest_cache",
            ".ruff_cache", "dbt_packages_cache"}
BUILD_TIMEOUT = 1200


# --------------------------------------------------------------------------- the project copy

def _ignore(src, names):
    out = {n for n in names if n.endswith((".duckdb", ".duckdb.wal")) or n == "__pycache__"}
    if Path(src).resolve() == PROJECT:
        out |= {n for n in names if n in SKIP_TOP or n.startswith(".venv")}
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
                if header:
                    write_csv(existing, header, [])   # the input stays, empty
                else:
                    existing.write_text("", encoding="utf-8")
        for name in provided:
            shutil.copyfile(Path(seed_dir) / name, proj / "seeds" / name)
    return proj


def agate_seed_loader(project: Path) -> None:
    """Make dbt-duckdb load the seeds of a project copy through agate, as the other adapters do
    (a blank or ``null`` cell becomes null; dbt-duckdb's fast loader keeps it as text)."""
    path = project / "dbt_project.yml"
    text = path.read_text()
    anchor = "seeds:\n  ragmart:\n"
    assert anchor in text, f"no '{anchor}' in {path}"
    path.write_text(text.replace(anchor, anchor + "    +fast: false\n"))


def dbt_command() -> list[str]:
    dbt = Path(sys.executable).parent / "dbt"
    return [str(dbt)] if dbt.exists() else [sys.executable, "-m", "dbt.cli.main"]


# The folder where run_dbt keeps dbt's parse of each kind of run (set by the session's BuildPool):
# a project copy without a parse of its own starts from the last one made with the same vars,
# target and database, and dbt re-parses only the files that differ (dbt itself checks that the
# parse fits: other vars, profile or dbt version and it parses the whole project again).
PARSE_CACHES: list[Path] = []


def _parse_cache(project: Path, args: list[str], env: dict | None) -> Path | None:
    if not PARSE_CACHES:
        return None
    def after(flag: str) -> str | None:
        return args[args.index(flag) + 1] if flag in args[:-1] else None
    variables = after("--vars")
    if variables is not None:                             # dbt compares the vars, not how they are written
        try:
            variables = json.dumps(yaml.safe_load(variables), sort_keys=True)
        except yaml.YAMLError:
            pass
    key = repr((variables, after("--target"), (env or {}).get("RAGMART_DUCKDB_PATH")))
    return PARSE_CACHES[0] / f"run-parse-{hashlib.sha256(key.encode()).hexdigest()[:16]}.msgpack"


def run_dbt(project: Path, args: list[str], *, env: dict | None = None, log: Path | None = None,
            timeout: float = BUILD_TIMEOUT, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``dbt <args>`` on ``project`` (its own profiles/), in the folder above it (or ``cwd``), so that
    the relative database path of the environment lands beside the project copy (or in ``cwd``: the
    same relative path in another folder is another database with the same profile, whose parse
    dbt re-uses)."""
    arguments = ["--no-use-colors"] + args + \
        ["--project-dir", str(project), "--profiles-dir", str(project / "profiles")]
    environment = dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false", **(env or {}))
    parsed, cache = project / "target" / "partial_parse.msgpack", _parse_cache(project, args, env)
    if cache is not None and cache.exists() and not parsed.exists():
        parsed.parent.mkdir(exist_ok=True)
        shutil.copyfile(cache, parsed)
    if "TZ" in (env or {}):
        # a time zone of its own: a new process, so that nothing read the zone before it was set
        result = subprocess.run(dbt_command() + arguments, env=environment, cwd=cwd or project.parent,
                                capture_output=True, text=True, timeout=timeout)
    else:
        result = dbt_process.run(arguments, env=environment, cwd=cwd or project.parent, timeout=timeout)
    if cache is not None and parsed.exists():
        part = cache.with_name(f"{cache.name}.{os.getpid()}-{threading.get_ident()}")
        shutil.copyfile(parsed, part)
        os.replace(part, cache)
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
    tests: bool = False                    # run the data tests too
    unit_tests: bool = False               # and the unit tests (they do not read the data: one scenario runs them)
    ref_kwargs: tuple = ()                 # keyword arguments of reference.compute
    agate_seeds: bool = False              # load the seeds through agate, as dbt-postgres and dbt-spark do
    files: bool = False                    # the data set is a folder of export files, read in files mode
    generic_tests: bool = True             # with tests: False runs the singular tests (the guards) only
    select: tuple = ()                     # dbt build --select: the nodes a comparison needs (empty: all)
    exclude: tuple = ()                    # more of dbt build --exclude (selectors)

    @property
    def vars_dict(self) -> dict:
        return dict(self.vars)

    def build_vars(self, data_dir: Path | str | None) -> dict:
        """The vars of the build: a files scenario reads its data set's folder."""
        return self.vars_dict | ({"input_mode": "files", "input_path": str(data_dir)} if self.files else {})

    def excluded(self) -> list[str]:
        """What ``dbt build --exclude`` leaves out."""
        out = [] if self.tests else ["resource_type:test"]
        out += [] if self.tests and self.unit_tests else ["resource_type:unit_test"]
        out += ["test_type:generic"] if self.tests and not self.generic_tests else []
        return out + (["resource_type:seed"] if self.files else []) + list(self.exclude)


def scenario(name: str, data: str, vars: dict | None = None, *, tz: str | None = None,
             tests: bool = False, unit_tests: bool = False, ref_kwargs: dict | None = None,
             agate_seeds: bool = False, files: bool = False, generic_tests: bool = True,
             select: list[str] | None = None, exclude: list[str] | None = None) -> Scenario:
    def frozen(d):
        return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (d or {}).items()))
    sc = Scenario(name, data, frozen(vars), tz, tests, unit_tests, frozen(ref_kwargs), agate_seeds, files,
                  generic_tests, tuple(select or ()), tuple(exclude or ()))
    if SCENARIOS.setdefault(name, sc) != sc:
        raise ValueError(f"scenario {name} is defined twice, differently")
    return sc


# name -> factory(folder to write into) -> folder of seed CSVs or export files (None: the project's own seeds)
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
    seed_dir: Path                         # what dbt loaded (a copy, taken before the build); files: the folder read
    db_path: Path
    seconds: float = 0.0
    returncode: int | None = None          # dbt's exit code (1: a test failed or warned past its limit)
    node_results: list[dict] = field(default_factory=list)
    error: str | None = None
    output: str = ""
    marts: dict[str, tuple[list[str], list[dict]]] | None = None
    seed_tables: dict[str, tuple[list[str], list[tuple]]] | None = None
    null_mode: str | None = None
    loader_problem: str | None = None
    _ref: R.Reference | None = None
    _derived: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.scenario.name

    @property
    def vars(self) -> dict:
        """The vars dbt was given (a files scenario's input_mode and input_path included)."""
        return self.scenario.build_vars(self.seed_dir)

    @property
    def reference(self) -> R.Reference:
        if self.scenario.files:
            raise ValueError(f"[{self.name}] reads export files: the seed reference does not apply")
        if self._ref is None:
            kwargs = {k: list(v) if isinstance(v, tuple) else v for k, v in self.scenario.ref_kwargs}
            self._ref = R.compute(self.seed_dir, null_mode=self.null_mode or "agate", **kwargs)
        return self._ref

    def failed_nodes(self, kinds=("model", "seed", "snapshot")) -> list[dict]:
        return [r for r in self.node_results
                if r["resource_type"] in kinds and r["status"] not in ("success", "pass")]

    def derived(self, what: str, compute: Callable[[], object]):
        """``compute()`` once per build and ``what`` (e.g. a reference of this build's seeds)."""
        if what not in self._derived:
            self._derived[what] = compute()
        return self._derived[what]

    def copy(self, dst: Path) -> Path:
        """A copy of the built project (its parse cache included) and database in ``dst``: dbt run
        there with ``RAGMART_DUCKDB_PATH=ragmart.duckdb`` re-uses the parse and leaves this build alone."""
        shutil.copytree(self.project, dst / "project")
        shutil.copyfile(self.db_path, dst / self.db_path.name)
        return dst / "project"

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


def _parse_key(sc: Scenario) -> str:
    """What dbt's parse of a scenario's build depends on besides the project: its vars (a files
    scenario's folder is always the link ``input``) and the seed loader."""
    variables = sc.build_vars("input" if sc.files else None)
    return hashlib.sha256(repr((sorted(variables.items()), sc.agate_seeds)).encode()).hexdigest()[:16]


class BuildPool:
    """Builds scenarios in the background, once each per test session, also across pytest-xdist
    workers: a scenario's build folder lies in the session's shared temp folder, under a file
    lock; the process that takes the lock first builds it, the others read its result.

    Each process runs ``workers`` builder threads (two: with one per xdist worker, a module that
    waits for five builds, as test_real_exports.py does, left a core idle and pytest took 7:02
    instead of 5:27 here).
    A thread takes the first queued scenario whose lock it gets at once, so two processes never
    wait on the same build while another one is queued; ``get`` moves its scenario to the front."""

    def __init__(self, tmp_factory, workers: int | None = None):
        base = tmp_factory.getbasetemp()
        self.root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
        self.futures: dict[str, Future] = {}
        self.queue: list[str] = []
        self.data_dirs: dict[str, Path | None] = {}
        self.cv = threading.Condition()
        self.data_lock = threading.Lock()
        self.closed = False
        self.parsing: set[str] = set()                      # the parse keys of the builds running
        PARSE_CACHES[:] = [self.root]
        workers = workers or 2
        self.threads = [threading.Thread(target=self._work, name=f"dbt-build-{i}", daemon=True)
                        for i in range(workers)]
        for thread in self.threads:
            thread.start()

    # -- shared folders under file locks

    def _locked(self, name: str, blocking: bool):
        """An open lock file of ``name`` in the shared folder, locked; None if busy and not blocking."""
        handle = open(self.root / f"{name}.lock", "a")  # noqa: SIM115 - closed by _unlock
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            handle.close()
            return None
        return handle

    @staticmethod
    def _unlock(handle) -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()

    def data_dir(self, name: str) -> Path | None:
        """The folder of a data set (seed CSVs or export files), made once (None: the project's own seeds)."""
        with self.data_lock:
            if name not in self.data_dirs:
                handle = self._locked(f"data_{name}", blocking=True)
                try:
                    folder = self.root / f"data_{name}"
                    marker = folder / ".ragmart-data.json"
                    if not marker.exists():
                        shutil.rmtree(folder, ignore_errors=True)
                        folder.mkdir()
                        made = DATA_SETS[name](folder)
                        marker.write_text(json.dumps({"path": None if made is None else str(made)}))
                    path = json.loads(marker.read_text())["path"]
                    self.data_dirs[name] = None if path is None else Path(path)
                finally:
                    self._unlock(handle)
            return self.data_dirs[name]

    # -- the queue

    def start(self, names, front: bool = False) -> None:
        with self.cv:
            for name in (reversed(list(names)) if front else names):
                if name not in self.futures:
                    SCENARIOS[name]                          # KeyError for an unknown scenario
                    self.futures[name] = Future()
                    self.queue.append(name)
                if front and name in self.queue:
                    self.queue.remove(name)
                    self.queue.insert(0, name)
            self.cv.notify_all()

    def get(self, name: str) -> Build:
        self.start([name], front=True)
        return self.futures[name].result()

    def _work(self) -> None:
        while True:
            with self.cv:
                while not self.queue and not self.closed:
                    self.cv.wait()
                if self.closed:
                    return
                # a scenario whose parse another thread is making waits behind the others, so it
                # re-uses that parse (the first of a kind parses the whole project, the rest only
                # what differs) instead of making the same one beside it
                pending = sorted(self.queue, key=lambda name: _parse_key(SCENARIOS[name]) in self.parsing)
            for name in pending:
                handle = self._locked(f"build_{name}", blocking=False)
                if handle is None:
                    continue
                with self.cv:
                    taken = name in self.queue
                    if taken:
                        self.queue.remove(name)
                if taken:
                    key = _parse_key(SCENARIOS[name])
                    with self.cv:
                        self.parsing.add(key)
                    try:
                        self.futures[name].set_result(self._build(SCENARIOS[name]))
                    except BaseException as exc:  # noqa: BLE001 - re-raised by get()
                        self.futures[name].set_exception(exc)
                    finally:
                        with self.cv:
                            self.parsing.discard(key)
                self._unlock(handle)
                break
            else:
                time.sleep(0.5)                              # every queued build is busy elsewhere

    # -- one build

    def _build(self, sc: Scenario) -> Build:
        """Builds the scenario (the caller holds its lock), or reads the build another process made."""
        tmp = self.root / f"build_{sc.name}"
        marker = tmp / ".ragmart-build.json"
        proj = tmp / "project"
        data_dir = self.data_dir(sc.data)
        if sc.files and data_dir is None:
            raise ValueError(f"[{sc.name}] a files scenario needs a folder of export files from data set {sc.data}")
        build = Build(sc, proj, data_dir if sc.files else proj / "seeds", tmp / "ragmart.duckdb")
        if marker.exists():
            done = json.loads(marker.read_text())
            build.error, build.seconds, build.returncode = done["error"], done["seconds"], done["returncode"]
            build.output = (tmp / "dbt.log").read_text() if (tmp / "dbt.log").exists() else ""
        else:
            started = time.time()
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir()
            prepare_project(tmp, None if sc.files else data_dir)
            if sc.agate_seeds:
                agate_seed_loader(proj)
            # a files scenario reads its folder through the link `input` beside the project: every
            # files scenario with the same other vars then has the same vars, and so dbt's parse cache
            if sc.files:
                (tmp / "input").symlink_to(data_dir, target_is_directory=True)
            variables = sc.build_vars("input" if sc.files else None)
            # dbt re-parses only what differs (the seeds) from a build with the same vars and project
            parse_cache = self.root / f"parse-{_parse_key(sc)}.msgpack"
            if parse_cache.exists():
                (proj / "target").mkdir(exist_ok=True)
                shutil.copyfile(parse_cache, proj / "target" / "partial_parse.msgpack")
            args = ["build"] + (["--vars", json.dumps(variables)] if variables else []) + \
                (["--select", *sc.select, "--indirect-selection", "cautious"] if sc.select else []) + \
                (["--exclude", *sc.excluded()] if sc.excluded() else [])
            env = {"RAGMART_DUCKDB_PATH": build.db_path.name} | ({"TZ": sc.tz} if sc.tz else {})
            try:
                result = run_dbt(proj, args, env=env, log=tmp / "dbt.log")
                build.output = result.stdout + result.stderr
                build.returncode = result.returncode
                if result.returncode not in (0, 1):
                    build.error = f"dbt exited with {result.returncode}: {build.output[-3000:]}"
            except subprocess.TimeoutExpired:
                build.error = f"dbt build did not end within {BUILD_TIMEOUT} s (log {tmp / 'dbt.log'})"
            build.seconds = time.time() - started
            parsed = proj / "target" / "partial_parse.msgpack"
            if build.error is None and parsed.exists() and not parse_cache.exists():
                part = parse_cache.with_name(f"{parse_cache.name}.{os.getpid()}-{threading.get_ident()}")
                shutil.copyfile(parsed, part)
                os.replace(part, parse_cache)
            marker.write_text(json.dumps({"error": build.error, "seconds": build.seconds,
                                          "returncode": build.returncode}))
        build.node_results = read_run_results(proj)
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
        if sc.files:                                     # no seed was loaded
            return build
        build.null_mode, build.loader_problem = detect_null_mode(
            build.seed_dir, {m: t for m, t in build.seed_tables.items() if m != "records"})
        return build

    def finished(self) -> list[Build]:
        return [f.result() for f in self.futures.values()
                if f.done() and not f.cancelled() and f.exception() is None]

    def close(self) -> None:
        with self.cv:
            self.closed = True
            for name in self.queue:
                self.futures[name].cancel()
            self.queue.clear()
            self.cv.notify_all()
