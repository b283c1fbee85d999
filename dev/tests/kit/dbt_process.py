"""dbt run in a child forked from a server process that has imported dbt once.

The suite runs dbt some thirty times; as a new ``dbt`` process each run spends about 3 s of CPU
importing dbt and its DuckDB adapter before it parses anything. Here multiprocessing's
forkserver imports them once per pytest process (``PRELOADED``) and forks a child per run, which
runs dbt's own command line (``cli.main``: the same options, output and exit codes as the
``dbt`` command) in the given folder with the given environment, its output in files that
``run`` reads back.
"""

from __future__ import annotations

import atexit
import gc
import multiprocessing
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback

PRELOADED = ["dbt.cli.main", "dbt.adapters.duckdb"]
_lock = threading.Lock()
_context = None


def _forkserver():
    global _context
    with _lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOADED)
            _context = context
    return _context


def _child(args: list[str], env: dict, cwd: str, out_path: str, err_path: str) -> None:
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    time.tzset()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
    code = 0
    try:
        from dbt.cli.main import cli
        cli.main(args=args, prog_name="dbt")
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    except BaseException:  # noqa: BLE001 - reported on stderr like an unhandled error of the dbt command
        traceback.print_exc()
        code = 2
    finally:
        # what the end of a dbt process does and a multiprocessing child skips: the exit handlers
        # (the DuckDB adapter's lets go of the database, which DuckDB then checkpoints and closes)
        atexit._run_exitfuncs()
        gc.collect()
        sys.stdout.flush()
        sys.stderr.flush()
    # multiprocessing ends the child with this code after its own clean-up (dbt's locks)
    sys.exit(code)


def run(args: list[str], *, env: dict, cwd, timeout: float) -> subprocess.CompletedProcess:
    """``dbt <args>`` in ``cwd`` with exactly the environment ``env``, as subprocess.run would."""
    with tempfile.TemporaryDirectory(prefix="ragmart_dbt_") as folder:
        out_path, err_path = os.path.join(folder, "stdout"), os.path.join(folder, "stderr")
        process = _forkserver().Process(target=_child, args=(args, env, str(cwd), out_path, err_path))
        process.start()
        process.join(timeout)
        if process.is_alive():
            process.kill()
            process.join()
            raise subprocess.TimeoutExpired(["dbt", *args], timeout)
        with open(out_path, encoding="utf-8", errors="replace") as out, \
                open(err_path, encoding="utf-8", errors="replace") as err:
            return subprocess.CompletedProcess(["dbt", *args], process.exitcode, out.read(), err.read())
