#!/usr/bin/env python3
"""Build the ragmart DuckDB database and publish it atomically (used by `make build` and `make build-files`).

The published database is $RAGMART_DUCKDB_PATH (default ragmart.duckdb; a relative path is relative
to the project root). One build at a time per database: a build first takes the lock <stem>.lock
beside it (an advisory lock the system drops when the process ends, so a crashed build leaves none);
a second build waits for it, saying which process holds it, for at most $RAGMART_LOCK_TIMEOUT seconds
(default 3600; 0: fail at once), before it touches any file. `dbt build` writes a NEW file in a folder
beside the published one that carries the build's process id, <stem>.building-<pid>/ragmart.duckdb:
dbt runs in that folder with the profile's default relative path, so its profile is the one plain
`dbt build` in the project sees, and the two share dbt's partial parse. Only when dbt
exits 0 (and the metrics of the new file print) is the new file moved over the published one with
os.replace: an atomic rename, so a reader that holds the published file open keeps reading its old
copy and is never blocked, and nothing opens the published file for writing. When the build fails,
the published file is left untouched and the new file is kept as <stem>.failed.duckdb. A build that
passed is not published while another process has the published file open for writing (e.g. a
`dbt build` run on it directly): it is kept as <stem>.unpublished.duckdb, and the message names that
process. A write-ahead log a crashed writer left beside the published file is removed as the new file
replaces it (DuckDB would refuse the pair). Beside the published file, <stem>.build.json says how it
was built (the make command and its vars), so that `make gate` can name the command to build again.
dbt's output passes through; while it says nothing for $RAGMART_QUIET_SECONDS (default 60), the
build says which nodes are still running and for how long.

Usage:
    python scripts/build.py                                  # seeds mode (make build)
    python scripts/build.py --vars '{constraint_policy: repair}'
    python scripts/build.py --input ../exports               # files mode (make build-files)
    python scripts/build.py --input exports --relative-to /home/me -- --threads 4
    PHOENIX_SQL_DATABASE_URL=postgresql://... python scripts/build.py --input '' --vars '{input_format: phoenix}'

With input_format phoenix and the environment variable PHOENIX_SQL_DATABASE_URL set (input_format mlflow:
MLFLOW_BACKEND_STORE_URI), --input may be empty (files mode reading the tool's database alone); a relative
`sqlite:///path.db` URL is made absolute against --relative-to, as --input is.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

try:
    import fcntl
except ImportError:  # not POSIX: os.replace itself refuses to replace a file another process has open
    fcntl = None

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = "ragmart.duckdb"


class BuildError(Exception):
    """A problem with the arguments or the files around the build, reported as `error: ...`."""


@dataclass(frozen=True)
class Databases:
    """The published database and the files beside it that a build writes."""

    published: Path
    building: Path
    failed: Path
    unpublished: Path
    lock: Path

    @property
    def built_with(self) -> Path:
        """The file beside the published database that says how it was built."""
        return self.published.with_name(f"{self.published.stem}.build.json")


# The vars whose values are run ids: text, as written (YAML alone would read 1.10 as the number 1.1).
RUN_ID_VARS = ("baseline_run_id", "default_run_id", "comparison_pairs")


def parse_vars(text: str | None) -> dict:
    """The dbt vars given as YAML (or JSON) text; empty text is no vars. Anything but a mapping is an error.
    The run ids of RUN_ID_VARS keep the text they were written with: `{baseline_run_id: 1.10}` is '1.10'."""
    if text is None or not text.strip():
        return {}
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise BuildError(f"--vars is not valid YAML: {text!r} ({error})") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BuildError(f"--vars must be a YAML mapping such as '{{constraint_policy: repair}}', got {text!r}")
    written = yaml.load(text, Loader=yaml.BaseLoader)  # noqa: S506 - BaseLoader builds only text, lists and maps
    for name in RUN_ID_VARS:
        if name in value and isinstance(written, dict) and name in written:
            value[name] = _as_written(value[name], written[name])
    return value


def _as_written(value, written):
    """A run id var's value with each number as the text it was written with (lists item by item)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and isinstance(written, str):
        return written
    if isinstance(value, list) and isinstance(written, list) and len(value) == len(written):
        return [_as_written(item, text) for item, text in zip(value, written)]
    return value


# The spellings of a switch (a var whose default is true or false) that its macros read.
SWITCH_VALUES = {"true", "false", "1", "0"}


def project_file(project: Path = PROJECT) -> dict:
    """dbt_project.yml as YAML: its vars (declared, with their defaults) and its seeds config."""
    return yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8"))


def check_vars(variables: dict, declared: dict) -> None:
    """Stops on a var that dbt_project.yml does not declare (dbt would ignore a misspelt name and build
    with the default) and on a value other than true or false for a var whose default is one of them."""
    problems = []
    for name, value in variables.items():
        if name not in declared:
            problem = f"unknown var {name!r}"
            close = difflib.get_close_matches(str(name), list(declared), n=1)
            if ":" in str(name):
                problem += " (YAML needs a space after the colon, as in '{constraint_policy: repair}')"
            elif close:
                problem += f" (did you mean {close[0]!r}?)"
            problems.append(problem)
        elif isinstance(declared[name], bool) and not isinstance(value, bool) \
                and str(value).strip().lower() not in SWITCH_VALUES:
            problems.append(f"var {name!r} must be true or false, got {value!r}")
    if problems:
        raise BuildError("; ".join(problems) + ". The project's vars are listed in docs/rules.md (Vars) and declared"
                         " in dbt_project.yml; a var read by models of your own must be declared there too")


def _sets_delimiter(config) -> bool:
    """Whether a part of dbt_project.yml's seeds config sets a delimiter."""
    if isinstance(config, dict):
        return any(key in ("delimiter", "+delimiter") or _sets_delimiter(value) for key, value in config.items())
    return False


def check_seeds(seeds: Path, seeds_config: dict | None = None) -> None:
    """Stops on a seed whose header line is split by ';' or a tab rather than ',' (outside quotes),
    unless the seeds config of dbt_project.yml sets a delimiter: dbt reads seeds as comma-separated
    by default and would fail on it with an unclear message, while files mode reads any of the three."""
    if _sets_delimiter(seeds_config):
        return
    for path in sorted(seeds.rglob("*.csv")):
        with open(path, encoding="utf-8-sig", errors="replace", newline="") as handle:
            header = handle.readline()
        unquoted = re.sub(r'"[^"]*"', "", header)   # a delimiter inside a quoted name does not count
        other = max((";", "\t"), key=unquoted.count)
        if unquoted.count(other) > unquoted.count(","):
            name = "a tab" if other == "\t" else f"'{other}'"
            raise BuildError(f"{path.relative_to(seeds.parent)} is separated by {name}, but seeds must be"
                             " comma-separated; save it as CSV with commas, or build from the folder of your"
                             " exports as they are: make build-files INPUT=folder (files mode reads ',', ';' and tabs)")


def resolve_input(path: str, relative_to: str | os.PathLike | None = None) -> Path:
    """The absolute path of the input folder; a relative path is taken relative to `relative_to` (default: cwd)."""
    if not path:
        raise BuildError("--input is empty; give the folder of the export files")
    folder = Path(path).expanduser()
    if not folder.is_absolute():
        folder = Path(relative_to if relative_to else os.getcwd()) / folder
    folder = Path(os.path.abspath(folder))
    if not folder.exists():
        raise BuildError(f"the input folder does not exist: {folder}")
    if not folder.is_dir():
        raise BuildError(f"the input is not a folder: {folder}")
    return folder


def check_input_folder(folder: Path, variables: dict) -> None:
    """Before dbt starts (files mode): lists the symbolic links under the folder that the build follows
    and stops on one whose target lies outside it (unless the var allow_outside_links is true), and
    stops when the folder holds nothing the input_format reads (with Phoenix's database named by
    PHOENIX_SQL_DATABASE_URL, or MLflow's by MLFLOW_BACKEND_STORE_URI, the folder may be empty). The
    readers check the same in plain dbt."""
    allow_outside = str(variables.get("allow_outside_links", False)).strip().lower() in ("true", "1")
    root = folder.resolve()
    for where, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for link in sorted(Path(where) / name for name in folders + files if not name.startswith(".")):
            if not link.is_symlink():
                continue
            target = link.resolve()
            if not target.is_relative_to(root) and not allow_outside:
                raise BuildError(f"{link.relative_to(folder)} in the input folder {folder} is a symbolic link to"
                                 f" {target}, outside the folder: copy the file into the folder, or let the build"
                                 " follow links out of it with VARS='{allow_outside_links: true}'")
            print(f"input folder: following the symbolic link {link.relative_to(folder)} -> {target}", flush=True)
    if tool_stores(variables):
        return
    # what each input_format reads: files named (any case) with one of the starts and one of the endings
    # (Langfuse: a project folder), and what the message says the folder should hold
    exports = ("retrieval", "grounding", "generation")
    frames = ("spans", "span_annotations", "document_annotations", "trace_annotations")
    reads = {
        "native": ([(exports, (".csv", ".tsv", ".txt", ".csv.gz", ".tsv.gz", ".txt.gz", ".parquet"))],
                   "retrieval*, grounding* and generation* files (.csv, .tsv, .txt, also .gz, or .parquet)"),
        "label_studio": ([(exports, (".json", ".csv", ".tsv", ".txt"))],
                         "Label Studio's exports named retrieval*, grounding* and generation* (.json, .csv, .tsv, .txt)"),
        "phoenix": ([("", (".db",)), (frames, (".parquet", ".csv"))],
                    "Phoenix's SQLite database (*.db) or its frames (spans* and span_annotations*,"
                    " document_annotations* or trace_annotations*; .parquet or .csv)"),
        "langfuse": ([], "Langfuse's export: a project folder (<project-id>/) with scores/ and observations_v2/"),
        "mlflow": ([("", (".db",)), ("traces", (".parquet", ".jsonl", ".jsonl.gz"))],
                   "MLflow's SQLite tracking store (*.db) or its exported traces (traces*.parquet, traces*.jsonl or"
                   " traces*.jsonl.gz)"),
    }

    def is_read(entry: Path, name: str) -> bool:
        if name == "langfuse":
            return entry.is_dir() and any((entry / table).is_dir() for table in
                                          ("scores", "observations_v2", "observations", "traces", "manifests"))
        lower = entry.name.lower()
        return entry.is_file() and any(lower.startswith(starts) and lower.endswith(endings)
                                       for starts, endings in reads[name][0])

    given = variables.get("input_format") or "native"
    formats = sorted({(given.get(name) or "native") for name in exports} if isinstance(given, dict) else {given})
    entries = [entry for entry in folder.iterdir() if not entry.name.startswith(".")]
    known = [name for name in formats if name in reads]
    if known and not any(is_read(entry, name) for name in known for entry in entries):
        expected = "; or ".join(reads[name][1] for name in known)
        raise BuildError(f"the input folder {folder} holds no file the build reads for input_format"
                         f" {', '.join(known)}: it expects {expected}. Give the folder that holds them (INPUT=folder)")


def build_vars(variables: dict, input_folder: Path | None, files_mode: bool | None = None) -> dict:
    """The vars for dbt: the given ones, plus input_mode files and input_path in files mode (files mode
    without a folder: a tool's database alone)."""
    merged = dict(variables)
    if input_folder is not None or files_mode:
        merged["input_mode"] = "files"
    if input_folder is not None:
        merged["input_path"] = str(input_folder)
    return merged


# The tools whose database a build reads in place, and the environment variable (the tool's own
# setting) that names it.
STORE_URLS = {"phoenix": "PHOENIX_SQL_DATABASE_URL", "mlflow": "MLFLOW_BACKEND_STORE_URI"}
PHOENIX_URL = STORE_URLS["phoenix"]


def tool_stores(variables: dict, env: dict | None = None) -> dict[str, str]:
    """{environment variable: URL} of the tools' databases the build reads in place: the tools the var
    input_format reads (for every family or some families of a mapping) whose variable is set."""
    env = os.environ if env is None else env
    formats = variables.get("input_format")
    read = set(formats.values()) if isinstance(formats, dict) else {formats}
    return {name: (env.get(name) or "").strip() for tool, name in STORE_URLS.items()
            if tool in read and (env.get(name) or "").strip()}


def phoenix_database(variables: dict, env: dict | None = None) -> str | None:
    """Phoenix's database URL when the build reads it (input_format phoenix and the variable set)."""
    return tool_stores(variables, env).get(PHOENIX_URL)


def absolute_sqlite_url(url: str, relative_to: str | os.PathLike | None = None) -> str:
    """A `sqlite:///relative.db` URL made absolute against `relative_to` (default: cwd); others as given."""
    scheme, separator, rest = url.partition("://")
    if not separator or scheme.lower().split("+")[0] != "sqlite" or not rest.startswith("/") \
            or rest.startswith("//"):
        return url
    return f"{scheme}:///" + os.path.abspath(Path(relative_to if relative_to else os.getcwd()) / rest[1:])


def databases(env: dict | None = None, project: Path = PROJECT) -> Databases:
    """The published database ($RAGMART_DUCKDB_PATH, relative to the project), the new file a build writes
    (in the folder <stem>.building-<pid> beside it, under the profile's default name), the files a failed
    and an unpublished build are kept as, and the lock."""
    env = os.environ if env is None else env
    published = Path(env.get("RAGMART_DUCKDB_PATH") or DEFAULT_DATABASE).expanduser()
    if not published.is_absolute():
        published = project / published
    published = Path(os.path.abspath(published))
    return Databases(
        published=published,
        building=published.with_name(f"{published.stem}.building-{os.getpid()}") / DEFAULT_DATABASE,
        failed=published.with_name(f"{published.stem}.failed{published.suffix}"),
        unpublished=published.with_name(f"{published.stem}.unpublished{published.suffix}"),
        lock=published.with_name(f"{published.stem}.lock"),
    )


def find_dbt() -> str:
    """The dbt beside this Python (the project's .venv when run as .venv/bin/python), else dbt on PATH."""
    beside = Path(sys.executable).parent / "dbt"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("dbt")
    if found:
        return found
    raise BuildError(f"no dbt executable beside {sys.executable} or on PATH; run `make build` to set up .venv")


def dbt_command(dbt: str, variables: dict, files_mode: bool, extra: list[str], project: Path = PROJECT) -> list[str]:
    """The argv of the dbt build (a list: no shell sees the vars or the paths)."""
    command = [dbt, "build", "--project-dir", str(project), "--profiles-dir", str(project / "profiles")]
    # the production build (the selector `production` of selectors.yml): every model and the data tests
    # that guard the numbers; the tests of the SQL's own invariants (tag sql_invariant) and the unit
    # tests prove the SQL and run in `make test`; files mode reads no seeds
    command += ["--exclude", "tag:sql_invariant", *(["resource_type:seed"] if files_mode else [])]
    command += ["--exclude-resource-type", "unit_test"]
    command += ["--vars", json.dumps(variables)]
    return command + list(extra)


def _remove(path: Path) -> None:
    """Remove a file or folder if it is there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _companions(database: Path) -> list[Path]:
    """DuckDB's write-ahead log and temp folder of a database file."""
    return [database.with_name(database.name + ".wal"), database.with_name(database.name + ".tmp")]


def _process(pid: int) -> str:
    """A process by its id and, where the system says, its command line."""
    try:
        command = " ".join(Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").replace("\0", " ").split())
    except OSError:
        command = ""
    return f"process {pid}" + (f" ({command[:200]})" if command else "")


def _writer(database: Path) -> str | None:
    """The process that has the database open for writing (DuckDB holds a POSIX write lock on it), or None."""
    if fcntl is None or not database.exists():
        return None
    with open(database, "rb") as handle:
        try:
            fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pass
        else:
            fcntl.lockf(handle, fcntl.LOCK_UN)
            return None
        try:   # struct flock of Linux: type, whence, start, len, pid (the holder of a lock in the way)
            asked = struct.pack("hhxxxxqqixxxx", fcntl.F_RDLCK, os.SEEK_SET, 0, 0, 0)
            pid = struct.unpack("hhxxxxqqixxxx", fcntl.fcntl(handle, fcntl.F_GETLK, asked))[4]
        except (OSError, struct.error):
            pid = 0
    return _process(pid) if pid > 0 else "another process"


def _fail(dbs: Databases, reason: str, code: int, unpublished: bool = False) -> int:
    """Keep the new file as <stem>.failed.duckdb (a build that passed but could not be published: as
    <stem>.unpublished.duckdb), say so, and return the exit code."""
    kept, keep_as = None, dbs.unpublished if unpublished else dbs.failed
    if dbs.building.exists():
        building_wal, _ = _companions(dbs.building)
        kept_wal, _ = _companions(keep_as)
        _remove(kept_wal)
        os.replace(dbs.building, keep_as)
        if building_wal.exists():
            os.replace(building_wal, kept_wal)
        kept = keep_as
    _remove(dbs.building.parent)
    kept_as = "the new database, which passed, is kept as" if unpublished else "the failed build's database is"
    where = f"{kept_as} {kept}" if kept else "the failed build wrote no database"
    published = (f"the published database {dbs.published} is unchanged" if dbs.published.exists()
                 else f"no database is published at {dbs.published} yet")
    print(f"error: {reason}; {published}; {where}", file=sys.stderr)
    return code or 1


def failure_summary(run_results: Path, since: float, most: int = 10) -> list[str]:
    """What failed in a dbt run, a line per node, from its run_results.json (written after ``since``,
    else nothing): the node and the cause: a ragmart message, or the last line of a Python model's
    error without its traceback, or dbt's own message."""
    try:
        if run_results.stat().st_mtime < since:
            return []
        results = json.loads(run_results.read_text(encoding="utf-8"))["results"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    lines = []
    for result in results if isinstance(results, list) else []:
        if not isinstance(result, dict) or result.get("status") not in ("error", "fail"):
            continue
        message = result.get("message")
        text = [line.strip() for line in (message if isinstance(message, str) else "").splitlines() if line.strip()]
        ours = [i for i, line in enumerate(text) if line.startswith("ragmart:") or "ragmart: " in line]
        if ours:   # the message and its continuation lines, not dbt's "> in macro ..." trail
            tail = text[ours[0]:ours[0] + 3]
            cause = " ".join(tail[:next((i for i, line in enumerate(tail) if line.startswith(">")), len(tail))])
        elif any(line.startswith("Traceback") for line in text):
            cause = re.sub(r"^[\w.]*(Error|Exception): ", "", text[-1])
        else:
            cause = " ".join(text[:2])
        lines.append(f"  {str(result.get('unique_id', '?')).split('.')[-1]}: {cause[:600]}")
    return lines[:most] + ([f"  ... and {len(lines) - most} more"] if len(lines) > most else [])


# dbt's log lines of a node starting and ending: "12:29:47  37 of 114 START sql table model schema.name ... [RUN]",
# "12:29:48  37 of 114 OK created sql table model schema.name ..."
_NODE_LINE = re.compile(r"\b(\d+) of \d+ (START|OK|PASS|WARN|ERROR|FAIL|SKIP)\b(?:.*? (?:model|test|seed|snapshot|unit_test)"
                        r" ([\w.]+))?")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_watched(command: list[str], cwd: Path, env: dict, quiet: float | None = None) -> int:
    """Run dbt with its output passed through, and when it has said nothing for `quiet` seconds
    ($RAGMART_QUIET_SECONDS, default 60), say which nodes are still running and since when (a model
    such as the run comparison's permutation test can take minutes on large data); dbt's exit code."""
    quiet = float(os.environ.get("RAGMART_QUIET_SECONDS") or 60) if quiet is None else quiet
    running: dict[str, tuple[str, float]] = {}
    last = [time.monotonic()]
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace", bufsize=1)

    def watch() -> None:
        while process.poll() is None:
            time.sleep(min(quiet, 5))
            now = time.monotonic()
            if running and now - last[0] >= quiet and process.poll() is None:
                nodes = ", ".join(f"{name} ({now - since:.0f} s)" for name, since in running.values())
                print(f"  ... still running: {nodes}", flush=True)
                last[0] = now

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        for line in process.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            last[0] = time.monotonic()
            match = _NODE_LINE.search(_ANSI.sub("", line))
            if match and match.group(2) == "START":
                running[match.group(1)] = ((match.group(3) or "?").split(".")[-1], last[0])
            elif match:
                running.pop(match.group(1), None)
    except BaseException:   # interrupted: dbt stops too before the build's files are moved
        process.kill()
        process.wait()
        raise
    return process.wait()


def take_lock(dbs: Databases, timeout: float | None = None):
    """The open lock file of the database, locked for this process: waits while another build holds it
    (saying which, once), at most `timeout` seconds ($RAGMART_LOCK_TIMEOUT, default 3600; 0: not at all)."""
    if timeout is None:
        given = os.environ.get("RAGMART_LOCK_TIMEOUT", "").strip() or "3600"
        try:
            timeout = float(given)
        except ValueError:
            raise BuildError(f"RAGMART_LOCK_TIMEOUT must be a number of seconds, got {given!r}") from None
    dbs.lock.parent.mkdir(parents=True, exist_ok=True)
    handle = open(dbs.lock, "a+", encoding="utf-8")
    if fcntl is None:
        return handle
    deadline, said = time.monotonic() + timeout, False
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            if time.monotonic() >= deadline:
                handle.close()
                raise BuildError(f"another build of {dbs.published} is running ({holder}); it holds {dbs.lock}."
                                 " Wait for it, set RAGMART_LOCK_TIMEOUT (seconds) to wait longer, or build another"
                                 " database with RAGMART_DUCKDB_PATH") from None
            if not said:
                print(f"waiting for the build of {dbs.published} that holds {dbs.lock} ({holder}); at most"
                      f" {timeout:.0f} s (RAGMART_LOCK_TIMEOUT)", file=sys.stderr, flush=True)
                said = True
            time.sleep(min(1.0, max(0.05, deadline - time.monotonic())))
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
    handle.flush()
    return handle


def publish(dbs: Databases, command: list[str], timeout: float | None = None, built_with: dict | None = None,
            keep_state: list[str] | None = None) -> int:
    """Under the database's lock, run dbt into the building file, print its metrics and move it over the
    published file (and write `built_with`, how it was built, beside it); the exit code. `keep_state`: the
    tables of what the last build read (STATE_TABLES), copied from the published file first."""
    try:
        lock = take_lock(dbs, timeout)
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    with lock:
        return _publish(dbs, command, built_with, keep_state)


def make_command(input_given: str | None, variables: dict) -> dict:
    """How a build was asked for, as the make command that gives it: `make build` (seeds) or `make build-files
    INPUT=...` (the folder as given), with its vars."""
    command = "make build" if input_given is None else f"make build-files INPUT={input_given}" if input_given \
        else "make build-files"
    return {"command": command, "vars": variables}


def parse_with_other_root(saved_parse: Path) -> str | None:
    """The project path a saved dbt parse names when it is not this project's (None when it is, or
    when there is no parse). dbt keeps the --project-dir of the run that parsed, as given, and
    re-uses the parse when only that path differs: after `dbt ... --project-dir .` a build here, run
    in the building database's folder, looks for the seeds relative to that folder."""
    if not saved_parse.exists():
        return None
    import msgpack  # dbt's own dependency; read only when a build failed

    try:
        nodes = msgpack.unpackb(saved_parse.read_bytes()).get("nodes", {})
    except Exception:  # noqa: BLE001 - an unreadable parse is dbt's to report
        return None
    roots = {node.get("root_path") for node in nodes.values() if isinstance(node, dict) and node.get("root_path")}
    other = sorted(root for root in roots if not Path(root).is_absolute() or Path(root).resolve() != PROJECT)
    return other[0] if other else None


def write_built_with(dbs: Databases, built_with: dict) -> None:
    """Write how the published database was built beside it (replaced atomically)."""
    new = dbs.built_with.with_name(dbs.built_with.name + f".{os.getpid()}")
    new.write_text(json.dumps(built_with, indent=2) + "\n", encoding="utf-8")
    os.replace(new, dbs.built_with)


def _publish(dbs: Databases, command: list[str], built_with: dict | None = None, keep_state: list[str] | None = None) -> int:
    # under the lock, any building folder but this process's is left by a build that ended
    stale_folders = dbs.published.parent.glob(f"{dbs.published.stem}.building-*")
    for stale in [*stale_folders, dbs.failed, *_companions(dbs.failed), dbs.unpublished, *_companions(dbs.unpublished)]:
        _remove(stale)
    dbs.building.parent.mkdir()
    if keep_state:
        carry_state(dbs, keep_state)
    # dbt runs in the building folder with the profile's default path (relative, so the new file lands
    # there): the profile dbt renders is then the one of a plain `dbt build`, and dbt keeps its parse
    env = dict(os.environ, RAGMART_DUCKDB_PATH=dbs.building.name)
    env.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    print(f"building {dbs.building} (published: {dbs.published})", flush=True)
    started = time.time()
    try:
        code = run_watched(command, cwd=dbs.building.parent, env=env)
    except KeyboardInterrupt:
        return _fail(dbs, "interrupted", 130)
    if code != 0:
        failures = failure_summary(PROJECT / "target" / "run_results.json", started)
        if failures:
            print("\nwhat failed (dbt's full messages are above and in logs/dbt.log):", *failures, sep="\n",
                  file=sys.stderr)
        saved_parse = PROJECT / "target" / "partial_parse.msgpack"
        other_root = parse_with_other_root(saved_parse)
        if other_root is not None:
            saved_parse.unlink()
            where = "relative to the folder of the build" if not Path(other_root).is_absolute() else "there"
            print(f"\ndbt's saved parse (target/partial_parse.msgpack) named the project {other_root!r}, not"
                  f" {PROJECT} (a dbt run given --project-dir {other_root}), so dbt looked for the seeds {where};"
                  " the saved parse is removed: build again", file=sys.stderr)
        return _fail(dbs, f"dbt build failed (exit code {code})", code)
    building_wal, building_tmp = _companions(dbs.building)
    if not dbs.building.exists():
        return _fail(dbs, "dbt build exited 0 but wrote no database", 1)
    if building_wal.exists():
        return _fail(dbs, f"dbt build left {building_wal} (the database was not closed cleanly)", 1)
    _remove(building_tmp)
    metrics = [sys.executable, str(PROJECT / "scripts" / "show_metrics.py"), "--database", str(dbs.building)]
    code = subprocess.run(metrics, cwd=PROJECT, env=env).returncode
    if code != 0:
        return _fail(dbs, f"the metrics of the new database could not be read (exit code {code})", code)
    writer = _writer(dbs.published)
    if writer:
        return _fail(dbs, f"{writer} has {dbs.published} open for writing, so the new database could not replace it;"
                     " close that process (or let it end) and build again", 1, unpublished=True)
    # a write-ahead log beside the published file belongs to the old file (left by a crashed writer);
    # DuckDB refuses to open the new file with it, so it goes first
    _remove(_companions(dbs.published)[0])
    os.replace(dbs.building, dbs.published)
    _remove(dbs.building.parent)
    if built_with is not None:
        write_built_with(dbs, built_with)
    print(f"\npublished {dbs.published}")
    return 0


# The tables that carry what a files-mode build read to the next build (the folder's reader and Langfuse's
# keep one row per file read, Phoenix's one per span and annotation), by the input_format whose build has
# them (None: every files-mode build), with the column that says the table keeps that state (a table of
# an earlier version of ragmart does not, and is not carried): copied from the published database into
# the new one before dbt runs.
STATE_TABLES = {"base_native__export_files": (None, "ragmart_file_state"),
                "base_langfuse__export": ("langfuse", "read_with"),
                "base_phoenix__export": ("phoenix", "read_key"),
                "base_mlflow__export": ("mlflow", "read_key")}


def state_tables(variables: dict) -> list[str]:
    """The STATE_TABLES of this build's input formats."""
    formats = variables.get("input_format") or "native"
    read = set(formats.values()) if isinstance(formats, dict) else {formats}
    return [name for name, (tool, _) in STATE_TABLES.items() if tool is None or tool in read]


def carry_state(dbs: Databases, tables: list[str]) -> None:
    """Copy `tables` (STATE_TABLES) from the published database into the new (building) one, so that dbt's incremental
    readers read only what they have not read; the published file is opened read-only and left as it is.
    When it cannot be read (another process writes it), the build reads every input, and says so."""
    if not dbs.published.exists():
        return
    import duckdb

    names = ", ".join(f"'{name}'" for name in tables)
    try:
        with duckdb.connect(str(dbs.building)) as con:
            con.execute(f"attach '{dbs.published}' as published (read_only)")
            markers = " or ".join(f"(table_name = '{name}' and column_name = '{STATE_TABLES[name][1]}')"
                                  for name in tables)
            found = con.execute(
                "select table_schema, table_name from information_schema.columns where table_catalog = 'published'"
                f" and table_name in ({names}) and ({markers})").fetchall()
            for schema, name in found:
                con.execute(f'create schema if not exists "{schema}"')
                con.execute(f'create table "{schema}"."{name}" as select * from published."{schema}"."{name}"')
            con.execute("detach published")
    except duckdb.Error as error:
        _remove(dbs.building)
        print(f"note: what the last build read could not be taken from {dbs.published}"
              f" ({str(error).splitlines()[0]}); every input file is read", flush=True)
        return
    if found:
        print(f"what the last build read: taken from {dbs.published} (FULL_REFRESH=1 reads every input again)",
              flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Arguments after -- go to `dbt build` as they are.\n"
        "Exit code: 0 published; dbt's code (or 1) when the build failed and the published database is\n"
        "unchanged; 2 for a usage error (bad --vars or a var the project does not declare, missing input\n"
        "folder or one with nothing to read or a link out of it, a seed that is not comma-separated, no dbt).",
    )
    parser.add_argument("--vars", default="{}", metavar="YAML",
                        help="dbt vars as a YAML mapping, e.g. '{constraint_policy: repair}' (default: {})")
    parser.add_argument("--input", metavar="PATH",
                        help="files mode: the folder of the export files (adds input_mode: files and input_path, "
                        "and excludes the seeds)")
    parser.add_argument("--relative-to", metavar="DIR",
                        help="the folder a relative --input is relative to (default: the current folder)")
    parser.add_argument("--full-refresh", action="store_true",
                        help="files mode: read every input file again (dbt build --full-refresh), instead of only the"
                        " files the published database has not read")
    parser.add_argument("dbt_args", nargs="*", metavar="-- DBT_ARG", help="extra arguments for dbt build")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        variables = parse_vars(args.vars)
        project = project_file()
        check_vars(variables, project["vars"])
        if args.input is None:
            check_seeds(PROJECT / "seeds", project.get("seeds"))
        database_alone = args.input is not None and not args.input.strip() and tool_stores(variables)
        if args.input is not None and not args.input.strip() and not database_alone:
            raise BuildError("--input is empty; give the folder of the export files (make build-files INPUT=folder),"
                             f" or, with VARS='{{input_format: phoenix}}', set {PHOENIX_URL} to Phoenix's database"
                             f" (with VARS='{{input_format: mlflow}}', {STORE_URLS['mlflow']} to MLflow's store)")
        folder = resolve_input(args.input, args.relative_to) if args.input and not database_alone else None
        for name in tool_stores(variables):
            os.environ[name] = absolute_sqlite_url(os.environ[name], args.relative_to)
        if folder is not None:
            check_input_folder(folder, variables)
        files_mode = args.input is not None
        dbt_args = [*args.dbt_args, "--full-refresh"] if args.full_refresh and "--full-refresh" not in args.dbt_args \
            else args.dbt_args
        command = dbt_command(find_dbt(), build_vars(variables, folder, files_mode), files_mode, dbt_args)
        dbs = databases()
    except BuildError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    keep_state = state_tables(variables) if files_mode and not args.full_refresh and "--full-refresh" not in args.dbt_args \
        else None
    return publish(dbs, command, built_with=make_command(args.input, variables), keep_state=keep_state)


if __name__ == "__main__":
    sys.exit(main())
