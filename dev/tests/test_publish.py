"""scripts/build.py, the publishing step of `make build` and `make build-files`.

The unit tests check the script's pure helpers without running dbt. The end-to-end test copies the
project to a temp dir and runs `make build-files` on a folder whose name holds a space, brackets and an
apostrophe (given relative to the caller's folder); while it runs, a second build that may not wait
stops at once naming it, and a third waits for it, then fails (its folder lacks an export) while a
reader holds the published database open: the published file must keep the first build's data, no
build touches another's files, and the failed build's database is kept as <stem>.failed.duckdb.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from kit.builds import prepare_project

PROJECT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location("ragmart_build_script", PROJECT / "scripts" / "build.py")
build = sys.modules.setdefault(_spec.name, importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(build)

ODD_NAME = "a b [c] d'e"
MARTS = ["retrieval_metrics", "grounding_metrics", "generation_metrics", "metric_values", "rejected_annotations"]


# --- helpers, no dbt ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("{}", {}),
    ("", {}),
    ("  ", {}),
    ("{constraint_policy: repair, retrieval_k_values: [1, 5]}", {"constraint_policy": "repair", "retrieval_k_values": [1, 5]}),
    ('{"fail_on_rejected": true}', {"fail_on_rejected": True}),
    # run ids stay as written: YAML alone reads 1.10 as 1.1 and 007 as 7
    ("{baseline_run_id: 1.10, max_rejected_share: 0.10}", {"baseline_run_id": "1.10", "max_rejected_share": 0.1}),
    ("{comparison_pairs: [[1.10, 1.2], [prod, 007]], default_run_id: 2}",
     {"comparison_pairs": [["1.10", "1.2"], ["prod", "007"]], "default_run_id": "2"}),
    ('{"baseline_run_id": 1.10}', {"baseline_run_id": "1.10"}),
    ("{baseline_run_id: null}", {"baseline_run_id": None}),
])
def test_parse_vars(text, expected):
    assert build.parse_vars(text) == expected


@pytest.mark.parametrize("text", ["[1, 2]", "3", "repair", "{a: [1"])
def test_parse_vars_rejects_non_mappings(text):
    with pytest.raises(build.BuildError, match="--vars"):
        build.parse_vars(text)


def test_main_rejects_non_mapping_vars(capsys):
    assert build.main(["--vars", "[1, 2]"]) == 2
    assert "--vars must be a YAML mapping" in capsys.readouterr().err


def test_check_vars_stops_on_undeclared_names_and_non_boolean_switches(capsys):
    declared = build.project_file()["vars"]
    build.check_vars({"constraint_policy": "repair", "fail_on_rejected": True, "retrieval_k_values": [1, 3]}, declared)
    # the spellings of a switch that its macros read
    build.check_vars({"fail_on_rejected": "True", "require_annotators": 0, "fail_on_unknown_annotators": "1"}, declared)
    with pytest.raises(build.BuildError, match=r"unknown var 'constraint_polcy' \(did you mean 'constraint_policy'\?\)"):
        build.check_vars({"constraint_polcy": "repair"}, declared)
    with pytest.raises(build.BuildError, match="YAML needs a space after the colon"):
        build.check_vars(build.parse_vars("{constraint_policy:repair}"), declared)
    with pytest.raises(build.BuildError, match="var 'fail_on_rejected' must be true or false, got 'y'"):
        build.check_vars({"fail_on_rejected": "y"}, declared)
    assert build.main(["--vars", "{max_rejected_shares: 0.5}"]) == 2
    assert "did you mean 'max_rejected_share'?" in capsys.readouterr().err


def test_a_failed_first_build_says_nothing_is_published(tmp_path, capsys):
    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "ragmart.duckdb")})
    assert build._fail(dbs, "dbt build failed (exit code 1)", 1) == 1
    err = capsys.readouterr().err
    assert f"no database is published at {dbs.published} yet" in err and "unchanged" not in err


def test_failure_summary_names_each_failed_node_and_its_cause(tmp_path):
    results = [
        {"unique_id": "model.ragmart.base_native__export_files", "status": "error", "message":
         "Runtime Error in model base_native__export_files\n  Python model failed:\n  Traceback (most recent call last):\n"
         "    File \"/tmp/x.py\", line 409, in model\n      raise ExportFileError(\n"
         "  base_native__export_files.ExportFileError: no retrieval* file in input_path '/data'\n  "},
        {"unique_id": "model.ragmart.stg_native__retrieval", "status": "error", "message":
         "Compilation Error in model stg_native__retrieval\n  ragmart: the retrieval file r.csv lacks the required"
         " column(s) created_at\n  \n  > in macro ragmart_export_select"},
        {"unique_id": "test.ragmart.assert_x", "status": "fail", "message": "Got 3 results, configured to fail if != 0"},
        {"unique_id": "model.ragmart.fine", "status": "success", "message": "OK"},
        {"unique_id": "test.ragmart.warned", "status": "warn", "message": "Got 1 result"},
    ]
    path = tmp_path / "run_results.json"
    path.write_text(json.dumps({"results": results}), encoding="utf-8")
    assert build.failure_summary(path, since=0) == [
        "  base_native__export_files: no retrieval* file in input_path '/data'",
        "  stg_native__retrieval: ragmart: the retrieval file r.csv lacks the required column(s) created_at",
        "  assert_x: Got 3 results, configured to fail if != 0",
    ]
    assert build.failure_summary(path, since=path.stat().st_mtime + 10) == []   # an earlier run's results
    assert build.failure_summary(tmp_path / "missing.json", since=0) == []
    assert build.failure_summary(path, since=0, most=1)[-1] == "  ... and 2 more"
    for odd in ([1, 2], {"results": None}, {"results": [1, {"status": "error", "message": ["x"]}]}):
        path.write_text(json.dumps(odd), encoding="utf-8")
        assert build.failure_summary(path, since=0) in ([], ["  ?: "]), odd


def test_check_seeds_stops_on_a_seed_split_by_semicolons_or_tabs(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "annotators.csv").write_text("\ufeffannotator_id,annotator_kind,role,display_name\na;b,HUMAN,annotator,x\n",
                                          encoding="utf-8")
    build.check_seeds(seeds)   # a BOM and a ';' inside a value are fine
    (seeds / "records.csv").write_text('record_uuid,"run;id;x;y"\n', encoding="utf-8")
    build.check_seeds(seeds)   # and inside a quoted name
    build.check_seeds(PROJECT / "seeds")
    (seeds / "grounding_annotations.csv").write_text("record_uuid;annotator_id;task\nr1;a;grounding\n", encoding="utf-8")
    with pytest.raises(build.BuildError, match=r"seeds/grounding_annotations.csv is separated by ';', but seeds must be"
                                               " comma-separated.*make build-files INPUT=folder"):
        build.check_seeds(seeds)
    (seeds / "grounding_annotations.csv").write_text("record_uuid\tannotator_id\ttask\n", encoding="utf-8")
    with pytest.raises(build.BuildError, match="is separated by a tab"):
        build.check_seeds(seeds)
    # a seeds config that sets the delimiter is dbt's to read
    build.check_seeds(seeds, {"ragmart": {"+delimiter": "\t"}})
    (seeds / "grounding_annotations.csv").unlink()
    (seeds / "more").mkdir()
    (seeds / "more" / "extra.csv").write_text("a;b;c\n", encoding="utf-8")
    with pytest.raises(build.BuildError, match="seeds/more/extra.csv is separated by ';'"):
        build.check_seeds(seeds)


def test_build_vars_adds_files_mode():
    given = {"constraint_policy": "repair", "input_mode": "seeds"}
    assert build.build_vars(given, None) == given
    merged = build.build_vars(given, Path("/data/x y"))
    assert merged == {"constraint_policy": "repair", "input_mode": "files", "input_path": "/data/x y"}
    assert given["input_mode"] == "seeds"  # the caller's dict is not changed


def test_resolve_input_relative_to_the_caller(tmp_path, monkeypatch):
    folder = tmp_path / "exports" / ODD_NAME
    folder.mkdir(parents=True)
    caller = tmp_path / "caller"
    caller.mkdir()
    assert build.resolve_input(f"../exports/{ODD_NAME}", caller) == folder
    assert build.resolve_input(str(folder), "/somewhere/else") == folder
    monkeypatch.chdir(tmp_path / "exports")
    assert build.resolve_input(ODD_NAME) == folder
    assert build.resolve_input(ODD_NAME, "") == folder


def test_resolve_input_errors_name_the_path(tmp_path):
    with pytest.raises(build.BuildError, match="does not exist: .*missing \\$x"):
        build.resolve_input("missing $x", tmp_path)
    (tmp_path / "file.csv").write_text("a\n")
    with pytest.raises(build.BuildError, match="not a folder: .*file.csv"):
        build.resolve_input("file.csv", tmp_path)


def test_databases_beside_the_published_file(tmp_path):
    dbs = build.databases({"RAGMART_DUCKDB_PATH": "out/r.duckdb"}, project=tmp_path)
    assert dbs.published == tmp_path / "out" / "r.duckdb"
    assert dbs.building == tmp_path / "out" / f"r.building-{os.getpid()}" / "ragmart.duckdb"
    assert dbs.lock == tmp_path / "out" / "r.lock"
    assert dbs.failed == tmp_path / "out" / "r.failed.duckdb"
    assert dbs.unpublished == tmp_path / "out" / "r.unpublished.duckdb"
    assert dbs.built_with == tmp_path / "out" / "r.build.json"
    assert build.databases({}, project=tmp_path).published == tmp_path / "ragmart.duckdb"
    assert build.databases({"RAGMART_DUCKDB_PATH": "/x/y.duckdb"}, project=tmp_path).failed == Path("/x/y.failed.duckdb")


def test_dbt_command_passes_the_vars_as_one_json_argument():
    variables = {"input_mode": "files", "input_path": "/d/a b [c] d'e \"q\" $HOME"}
    command = build.dbt_command("dbt", variables, True, ["--threads", "1"], project=Path("/p"))
    assert command[:6] == ["dbt", "build", "--project-dir", "/p", "--profiles-dir", "/p/profiles"]
    assert command[6:9] == ["--exclude", "tag:sql_invariant", "resource_type:seed"]
    assert command[9:11] == ["--exclude-resource-type", "unit_test"]
    assert json.loads(command[command.index("--vars") + 1]) == variables
    assert command[-2:] == ["--threads", "1"]
    seeds_mode = build.dbt_command("dbt", {}, False, [], project=Path("/p"))
    assert seeds_mode[6:8] == ["--exclude", "tag:sql_invariant"] and "unit_test" in seeds_mode


# --- end to end: make build-files, then a failing build under an open reader ---------------------

def _make_build_files(project: Path, caller: Path, input_path: str, database: Path, wait: bool = True,
                      lock_timeout: str | None = None):
    """`make build-files` of the project copy: its result, or with wait=False the running process."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MAKE", "MFLAGS")) and k not in {"VARS", "INPUT", "RAGMART_VARS", "RAGMART_INPUT",
                                                                  "RAGMART_LOCK_TIMEOUT"}}
    env.update(PWD=str(caller), RAGMART_DUCKDB_PATH=str(database), **({"RAGMART_LOCK_TIMEOUT": lock_timeout}
                                                                      if lock_timeout is not None else {}))
    # -o: never reinstall the (linked) virtualenv
    command = ["make", "-s", "-C", str(project), "-o", ".venv/bin/.runtime-installed", "build-files", f"INPUT={input_path}"]
    if not wait:
        return subprocess.Popen(command, cwd=caller, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return subprocess.run(command, cwd=caller, env=env, capture_output=True, text=True)


def _fingerprint(connection) -> tuple:
    return tuple(connection.execute(query).fetchall() for query in (
        "select * from retrieval_metrics order by k",
        "select count(*) from metric_values",
        "select count(*) from rejected_annotations",
    ))


@pytest.mark.slow
def test_make_build_files_publishes_atomically(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # the Makefile runs .venv/bin/python, and scripts/build.py the dbt beside it
    venv = PROJECT / ".venv" if (PROJECT / ".venv").exists() else Path(sys.prefix)
    if not (venv / "bin" / "dbt").exists():
        pytest.skip(f"no dbt in {venv}")
    project = prepare_project(tmp_path, None)
    (project / ".venv").symlink_to(venv.resolve())
    caller = tmp_path / "caller"
    caller.mkdir()
    exports = tmp_path / "exports" / ODD_NAME
    exports.mkdir(parents=True)
    for seed in sorted((PROJECT / "seeds").glob("*.csv")):
        shutil.copy(seed, exports / seed.name)
    lacking = tmp_path / "exports" / "without retrieval"   # the third build's folder: no retrieval export
    shutil.copytree(exports, lacking, ignore=shutil.ignore_patterns("retrieval*"))
    database = tmp_path / "db" / "ragmart.duckdb"
    failed = database.with_name("ragmart.failed.duckdb")

    first = _make_build_files(project, caller, f"../exports/{ODD_NAME}", database, wait=False)
    deadline = time.monotonic() + 600
    while not list(database.parent.glob("ragmart.building-*/ragmart.duckdb")) and first.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    building = list(database.parent.glob("ragmart.building-*"))
    assert len(building) == 1 and first.poll() is None, "the first build did not start dbt"
    time.sleep(2)
    # a second build 2 s into the first's dbt run, with no time to wait: stops at once, naming the first
    at_once = _make_build_files(project, caller, f"../exports/{ODD_NAME}", database, lock_timeout="0")
    assert at_once.returncode != 0 and "another build of" in at_once.stderr, at_once.stderr
    first_pid = building[0].name.rsplit("-", 1)[1]   # the folder and the lock name the first build's process
    assert f"is running (process {first_pid}, started" in at_once.stderr, at_once.stderr
    assert "building" not in at_once.stdout   # it never started dbt
    # a third one during the first's dbt run waits for it (then fails: its folder lacks the retrieval export)
    waiting = _make_build_files(project, caller, "../exports/without retrieval", database, wait=False)
    time.sleep(3)
    assert waiting.poll() is None and building[0].exists(), "the waiting build touched the first's folder"
    out, err = first.communicate(timeout=1800)
    assert first.returncode == 0, out[-4000:] + err[-4000:]
    assert "retrieval_metrics" in out and f"published {database}" in out
    assert json.loads(database.with_name("ragmart.build.json").read_text())["command"] == \
        f"make build-files INPUT=../exports/{ODD_NAME}"
    inode = database.stat().st_ino

    reader = duckdb.connect(str(database), read_only=True)
    try:
        tables = {row[0] for row in reader.execute("select table_name from information_schema.tables").fetchall()}
        assert set(MARTS) <= tables
        before = _fingerprint(reader)
        assert before[0] and before[1][0][0] > 0

        # the waiting build runs once the first is published, and fails
        second_out, second_err = waiting.communicate(timeout=1800)
        assert waiting.returncode != 0, second_out[-4000:]
        assert f"waiting for the build of {database}" in second_err, second_err[-4000:]
        assert f"the published database {database} is unchanged" in second_err
        assert f"the failed build's database is {failed}" in second_err
        assert failed.exists() and not list(database.parent.glob("ragmart.building-*"))
        assert database.stat().st_ino == inode
        assert _fingerprint(reader) == before
    finally:
        reader.close()
    with duckdb.connect(str(database), read_only=True) as fresh:
        assert _fingerprint(fresh) == before


def test_dbt_runs_with_the_profile_of_a_plain_dbt_build(tmp_path):
    """dbt runs in the building folder with the profile's own default database path, so the profile it
    renders is the one of a plain `dbt build` in the project and the two share dbt's partial parse."""
    profile = (PROJECT / "profiles" / "profiles.yml").read_text(encoding="utf-8")
    assert "env_var('RAGMART_DUCKDB_PATH', 'ragmart.duckdb')" in profile
    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "out" / "prod.duckdb")})
    seen = tmp_path / "seen.json"
    fake_dbt = [sys.executable, "-c",
                "import json, os, pathlib, sys; pathlib.Path(sys.argv[1]).write_text(json.dumps("
                "[os.getcwd(), os.environ['RAGMART_DUCKDB_PATH']])); sys.exit(3)", str(seen)]
    code = build.publish(dbs, fake_dbt)
    cwd, path = json.loads(seen.read_text())
    assert code == 3 and path == "ragmart.duckdb" and Path(cwd) == tmp_path / "out" / f"prod.building-{os.getpid()}"
    assert not Path(cwd).exists()   # a failed build leaves no folder behind


def _fake_dbt(seen: Path) -> list[str]:
    """A stand-in for dbt that notes that it ran and fails (so publish stops after it)."""
    return [sys.executable, "-c", "import pathlib, sys; pathlib.Path(sys.argv[1]).write_text('ran'); sys.exit(3)",
            str(seen)]


def _saved_parse(path: Path, *roots: str) -> Path:
    """A dbt saved parse (msgpack, as dbt writes it) whose seed nodes name the project `roots`."""
    import msgpack

    nodes = {f"seed.ragmart.s{i}": {"resource_type": "seed", "root_path": root} for i, root in enumerate(roots)}
    nodes["model.ragmart.m"] = {"resource_type": "model", "root_path": None}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msgpack.packb({"nodes": nodes, "macros": {}}))
    return path


def test_a_parse_saved_for_another_project_path_is_named_and_removed_when_the_build_fails(tmp_path, capsys,
                                                                                          monkeypatch):
    """A parse that dbt saved for a run given a relative --project-dir names the project `.`: a build
    here re-uses it and fails on every seed (looked for relative to the new file's folder). The failed
    build says so and removes it; a parse of this project's own path is kept."""
    project = tmp_path / "project"
    monkeypatch.setattr(build, "PROJECT", project)
    assert build.parse_with_other_root(project / "target" / "partial_parse.msgpack") is None      # no parse
    own = _saved_parse(project / "target" / "partial_parse.msgpack", str(project), str(project))
    assert build.parse_with_other_root(own) is None
    assert build.parse_with_other_root(_saved_parse(tmp_path / "other.msgpack", "/elsewhere/ragmart")) == \
        "/elsewhere/ragmart"

    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "prod.duckdb")})
    assert build.publish(dbs, _fake_dbt(tmp_path / "seen"), timeout=0) == 3
    assert own.exists() and "saved parse" not in capsys.readouterr().err      # the build's own parse stays

    relative = _saved_parse(project / "target" / "partial_parse.msgpack", ".", ".")
    assert build.parse_with_other_root(relative) == "."
    assert build.publish(dbs, _fake_dbt(tmp_path / "seen"), timeout=0) == 3
    err = capsys.readouterr().err
    assert "dbt's saved parse (target/partial_parse.msgpack) named the project '.'" in err
    assert "dbt looked for the seeds relative to the folder of the build" in err
    assert "the saved parse is removed: build again" in err and not relative.exists()

    moved = _saved_parse(project / "target" / "partial_parse.msgpack", "/elsewhere/ragmart")
    assert build.publish(dbs, _fake_dbt(tmp_path / "seen"), timeout=0) == 3
    err = capsys.readouterr().err
    assert "named the project '/elsewhere/ragmart'" in err and "dbt looked for the seeds there;" in err
    assert not moved.exists()


def test_a_second_build_fails_at_once_without_touching_the_first(tmp_path, capsys):
    """One build at a time per database: while another build holds the lock, a build with no time to
    wait stops before it touches any file, naming the holder; the holder's files stay as they were."""
    import fcntl

    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "prod.duckdb")})
    first_folder = tmp_path / "prod.building-999999"   # the running build's folder and its failed file
    first_folder.mkdir()
    (first_folder / "ragmart.duckdb").write_text("in progress")
    (tmp_path / "prod.failed.duckdb").write_text("kept")
    with open(dbs.lock, "a+", encoding="utf-8") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("process 999999, started 2026-12-02 06:00:00\n")
        held.flush()
        code = build.publish(dbs, _fake_dbt(tmp_path / "seen"), timeout=0)
    err = capsys.readouterr().err
    assert code == 2 and "another build of" in err and "process 999999" in err and "RAGMART_LOCK_TIMEOUT" in err
    assert not (tmp_path / "seen").exists()
    assert (first_folder / "ragmart.duckdb").read_text() == "in progress"
    assert (tmp_path / "prod.failed.duckdb").read_text() == "kept"


def test_a_second_build_waits_for_the_first(tmp_path, capsys):
    """With time to wait, the second build says for which build it waits, and runs once the lock is
    free; it then clears what earlier builds left (their building folders and failed file)."""
    import fcntl
    import threading

    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "prod.duckdb")})
    left = tmp_path / "prod.building-999998"
    left.mkdir()
    held = open(dbs.lock, "a+", encoding="utf-8")
    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    held.write("process 999998, started 2026-12-02 06:00:00\n")
    held.flush()
    release = threading.Timer(0.5, held.close)   # closing the file drops the lock
    release.start()
    code = build.publish(dbs, _fake_dbt(tmp_path / "seen"), timeout=30)
    release.join()
    err = capsys.readouterr().err
    assert "waiting for the build of" in err and "process 999998" in err
    assert code == 3 and (tmp_path / "seen").read_text() == "ran"
    assert not left.exists() and not dbs.building.parent.exists()
    assert f"process {os.getpid()}" in dbs.lock.read_text()


def test_a_build_that_cannot_replace_the_published_file_is_kept_as_unpublished(tmp_path, capsys, monkeypatch):
    """A build that passed while another process holds the published file for writing is kept as
    <stem>.unpublished.duckdb, and the message names that process; once it is gone, the next build is
    published, with <stem>.build.json beside it saying how it was built."""
    duckdb = pytest.importorskip("duckdb")
    scripts = tmp_path / "project" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / "show_metrics.py").write_text("import sys; sys.exit(0)\n")   # the metrics of the new file: none
    monkeypatch.setattr(build, "PROJECT", tmp_path / "project")
    dbs = build.databases({"RAGMART_DUCKDB_PATH": str(tmp_path / "prod.duckdb")})
    with duckdb.connect(str(dbs.published)) as first:
        first.execute("create table marts as select 'old' as built")
    fake_dbt = [sys.executable, "-c", "import duckdb; duckdb.connect('ragmart.duckdb').execute("
                "\"create table marts as select 'new' as built\").close()"]
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]);"
                               " print('open', flush=True); time.sleep(60)", str(dbs.published)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        code = build.publish(dbs, fake_dbt, timeout=0, built_with=build.make_command(None, {}))
    finally:
        holder.kill()
        holder.wait()
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"process {holder.pid} (" in err and f"has {dbs.published} open for writing" in err, err
    assert f"the new database, which passed, is kept as {dbs.unpublished}" in err, err
    assert not dbs.failed.exists() and not dbs.built_with.exists()
    with duckdb.connect(str(dbs.unpublished), read_only=True) as kept:
        assert kept.execute("select built from marts").fetchall() == [("new",)]
    with duckdb.connect(str(dbs.published), read_only=True) as published:
        assert published.execute("select built from marts").fetchall() == [("old",)]

    code = build.publish(dbs, fake_dbt, timeout=0, built_with=build.make_command("exports", {"baseline_run_id": "1.10"}))
    assert code == 0 and not dbs.unpublished.exists()
    assert json.loads(dbs.built_with.read_text()) == {"command": "make build-files INPUT=exports",
                                                      "vars": {"baseline_run_id": "1.10"}}
    with duckdb.connect(str(dbs.published), read_only=True) as published:
        assert published.execute("select built from marts").fetchall() == [("new",)]


def test_a_long_silent_node_is_named_in_the_log(capsys):
    """While dbt says nothing for a while, the build says which node is still running and for how long;
    dbt's own lines pass through unchanged."""
    fake_dbt = [sys.executable, "-c",
                "import time; print('12:00:00  1 of 2 START sql table model main.fast ... [RUN]', flush=True);"
                "print('12:00:00  2 of 2 START sql table model intermediate.int_runs__permutation_counts ... [RUN]',"
                " flush=True); print('12:00:00  1 of 2 OK created sql table model main.fast ... [OK in 0.1s]',"
                " flush=True); time.sleep(1.6)"]
    code = build.run_watched(fake_dbt, cwd=Path.cwd(), env=dict(os.environ), quiet=0.5)
    out = capsys.readouterr().out
    assert code == 0
    assert "2 of 2 START sql table model intermediate.int_runs__permutation_counts" in out
    still = [line for line in out.splitlines() if line.startswith("  ... still running: ")]
    assert still and all("int_runs__permutation_counts (" in line and "fast" not in line for line in still), out
