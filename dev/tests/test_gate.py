"""The release gate (docs/rules.md, "Release gate"): scripts/gate.py (`make gate`), the dbt operation
ragmart_gate (plain dbt), and the CI recipe docs/ci/ragmart.yml.

* On the sample's session build (built without baseline_run_id, as `make build`): without a baseline
  the gate fails naming baseline_run_id; with bot-v1 (the build's baseline by default) it passes
  with one line saying what it checked; with bot-v2 it fails saying to build with it; bad
  gate_metrics and gate_slices are usage errors.
* The CI recipe's commands, run as written in a copy of the project with the sample's seeds as the
  export folder, its runs renamed to the release ids 1.2 (bot-v1) and 1.10 (bot-v2), and 1.10 as
  production (the one extra build of this module), so that a numeric-looking id stays the text it is
  from the workflow's env to the gate's verdict: the build publishes,
  the report says which run is the baseline and how it was chosen, the gate fails naming
  misleading_context_rate with the verdict sentences (every significant regression of the mart,
  whose direction is written out here) with exit code 1 (a usage error is 2), and the marts stay
  published. The dbt operation on that build fails alike, ending with the verdict.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml
from kit.builds import prepare_project

PROJECT = Path(__file__).resolve().parent.parent.parent
GATE = PROJECT / "scripts" / "gate.py"
RECIPE = PROJECT / "docs" / "ci" / "ragmart.yml"
SCENARIOS_USED = ["sample"]
LOWER_IS_BETTER = {"misleading_context_rate", "unsupported_claim_rate", "contradiction_rate",
                   "conditional_fabrication_rate", "incompleteness_rate", "unsafe_content_rate"}


def gate(database: Path, variables: str = "{}") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(GATE), "--database", str(database), "--vars", variables],
                          capture_output=True, text=True, timeout=120)


def regressions(database: Path, baseline: str, slices=("overall",)) -> set[str]:
    """The measures on which a candidate is significantly worse than `baseline`, from the mart."""
    with duckdb.connect(str(database), read_only=True) as con:
        rows = con.execute("select metric, k, slice_dimension, difference from run_comparison where baseline_run_id = ?"
                           " and is_significant", [baseline]).fetchall()
    return {f"{m}@{k}" if k is not None else m for m, k, dimension, d in rows
            if dimension in slices and d != 0 and (d > 0) == (m in LOWER_IS_BETTER)}


@pytest.fixture(scope="module")
def sample_db(builds) -> Path:
    return builds.get("sample").check().db_path


def test_without_a_baseline_the_gate_fails_naming_the_var(sample_db):
    result = gate(sample_db)
    assert result.returncode == 2, result.stdout + result.stderr   # called wrongly, not a regression
    assert "baseline_run_id is not set" in result.stderr and "bot-v1, bot-v2" in result.stderr, result.stderr
    # no record of how the database was built (a plain dbt build): both make commands
    assert ("make build-files INPUT=<your exports> VARS='{baseline_run_id: <production run>}' (make build for the"
            " sample), then make gate VARS='{baseline_run_id: <production run>}'") in result.stderr


def test_the_default_baseline_passes_with_one_line(sample_db):
    assert regressions(sample_db, "bot-v1") == set()
    result = gate(sample_db, "{baseline_run_id: bot-v1}")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gate passed: no candidate is significantly worse than the baseline"
                                                   " bot-v1 (production, named by baseline_run_id; the build took it"
                                                   " by default, as the smallest run id)"), lines
    with duckdb.connect(str(sample_db), read_only=True) as con:   # every measure at every K (34 today)
        (measures,) = con.execute("select count(*) from run_comparison where baseline_run_id = 'bot-v1'"
                                  " and slice_dimension = 'overall'").fetchone()
    assert f"on {measures} measures (every measure), slices overall, of 1 candidate (bot-v2)" in lines[0], lines


def test_another_baseline_than_the_build_s_fails_saying_to_build_with_it(sample_db):
    result = gate(sample_db, "{baseline_run_id: bot-v2}")
    assert result.returncode == 2
    assert ("have the baseline bot-v1, not bot-v2" in result.stderr
            and "make build-files INPUT=<your exports> VARS='{baseline_run_id: bot-v2}'" in result.stderr), result.stderr
    unknown = gate(sample_db, "{baseline_run_id: nightly}")
    assert unknown.returncode == 2 and "'nightly' is not a run" in unknown.stderr


@pytest.mark.parametrize("variables,message", [
    ("{baseline_run_id: bot-v1, gate_metrics: [ndgc]}", "no measure 'ndgc' in run_comparison (did you mean 'ndcg'?)"),
    ("{baseline_run_id: bot-v1, gate_slices: [tier]}", "gate_slices: unknown slice 'tier'"),
    ("[1, 2]", "--vars must be a YAML mapping"),
    ("{baseline_run_id: bot-v1, gate_metric: [ndcg]}", "unknown var 'gate_metric' (did you mean 'gate_metrics'?)"),
])
def test_usage_errors(sample_db, variables, message):
    result = gate(sample_db, variables)
    assert result.returncode == 2 and message in result.stderr, result.stderr


def test_gate_metrics_narrow_the_check(sample_db):
    result = gate(sample_db, "{baseline_run_id: bot-v1, gate_metrics: [ndcg@5, helpfulness_rate]}")
    assert result.returncode == 0 and "on 2 measures of gate_metrics (ndcg@5, helpfulness_rate)" in result.stdout


def _run(command: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)


@pytest.mark.slow
def test_the_ci_recipe_gates_a_regression_after_publishing(tmp_path):
    """The workflow's run steps as written, on the sample with 1.10 (bot-v2) as production: 1.2 (bot-v1) is
    worse on misleading context, so the gate fails after the marts are published and the report kept."""
    venv = PROJECT / ".venv"
    if shutil.which("make") is None or not (venv / "bin" / "dbt").exists():
        pytest.skip("needs make and the project's .venv")
    workflow = yaml.safe_load(RECIPE.read_text(encoding="utf-8"))
    steps = workflow["jobs"]["evaluate"]["steps"]
    runs = [step["run"] for step in steps if "run" in step]
    assert [step.get("uses", "").split("@")[0] for step in steps if "uses" in step] == [
        "actions/checkout", "actions/setup-python", "actions/upload-artifact"]
    assert [step["name"] for step in steps if "run" in step] == [
        "Build and publish the marts", "Write the report", "Gate the release"]
    artifact = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact"))
    assert artifact["with"]["path"] == "${{ env.RAGMART_REPORT }}"

    project = prepare_project(tmp_path, None)
    (project / ".venv").symlink_to(venv.resolve())
    exports = project / workflow["env"]["RAGMART_EXPORTS"]
    exports.mkdir()
    for seed in sorted((PROJECT / "seeds").glob("*.csv")):
        shutil.copy(seed, exports / seed.name)
    records = exports / "records.csv"
    records.write_text(records.read_text(encoding="utf-8").replace(",bot-v1,", ",1.2,").replace(",bot-v2,", ",1.10,"),
                       encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("MAKE", "MFLAGS")) and k not in {"VARS", "INPUT", "RAGMART_VARS", "RAGMART_INPUT"}}
    env.update(workflow["env"], RAGMART_PRODUCTION_RUN="1.10", PWD=str(project),
               RAGMART_DUCKDB_PATH=str(project / "ragmart.duckdb"))
    database = project / "ragmart.duckdb"

    built = _run(runs[0], project, env)
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert f"published {database}" in built.stdout
    assert "baseline: 1.10 (named by the var baseline_run_id)" in built.stdout   # the printed table
    reported = _run(runs[1], project, env)
    assert reported.returncode == 0, reported.stderr
    page = (project / workflow["env"]["RAGMART_REPORT"]).read_text(encoding="utf-8")
    assert '<p class="baseline" data-source="baseline_run_id">Baseline 1.10: named by the var baseline_run_id.' in page

    gated = _run(runs[2], project, env)
    assert gated.returncode == 1, gated.stdout + gated.stderr   # a regression: 1 (a usage error is 2)
    worse = regressions(database, "1.10")
    assert worse == {"misleading_context_rate@5", "misleading_context_rate@10"}
    said = [line for line in gated.stderr.splitlines() if line.startswith("1.2 is worse than 1.10 on ")]
    assert {line.split(" on ")[1].split(":")[0] for line in said} == worse, gated.stderr
    with duckdb.connect(str(database), read_only=True) as con:
        lower, upper = con.execute("select adjusted_ci_lower, adjusted_ci_upper from run_comparison where"
                                   " baseline_run_id = '1.10' and slice_dimension = 'overall' and"
                                   " metric = 'misleading_context_rate' and k = 5").fetchone()
    assert (f"1.2 is worse than 1.10 on misleading_context_rate@5: +0.068 [{lower:.3f}, {upper:.3f}] adjusted,"
            " p_holm 0.010 (lower is better)") in said
    assert "gate failed: 2 significant regressions against the baseline 1.10 (production, named by" \
           " baseline_run_id; the build was given it too)" in gated.stderr
    # a gate failure never withholds the marts: published, nothing kept as failed
    assert database.exists() and not (project / "ragmart.failed.duckdb").exists()
    # the language slices add the regressions of each language
    language = gate(database, "{baseline_run_id: 1.10, gate_slices: [language]}")   # unquoted: still 1.10
    assert language.returncode == 1
    assert "misleading_context_rate@10 (language de)" in language.stderr, language.stderr
    # another baseline: the hint builds again with the command and vars that built the database
    other = gate(database, "{baseline_run_id: '1.2'}")
    assert other.returncode == 2
    assert ("""make build-files INPUT=exports VARS='{baseline_run_id: "1.2"}', then make gate"""
            """ VARS='{baseline_run_id: "1.2"}'""") in other.stderr, other.stderr

    # plain dbt: the same check as an operation, on the same build
    operation = subprocess.run([str(venv / "bin" / "dbt"), "run-operation", "ragmart_gate", "--project-dir", ".",
                                "--profiles-dir", "profiles", "--vars", '{baseline_run_id: "1.10"}'],
                               cwd=project, env=env, capture_output=True, text=True, timeout=600)
    assert operation.returncode == 1, operation.stdout[-3000:]
    assert said[0] in operation.stdout and said[1] in operation.stdout, operation.stdout[-3000:]
    # it ends with the verdict, not with a compilation error
    assert "Compilation Error" not in operation.stdout, operation.stdout[-3000:]
    assert operation.stdout.rstrip().splitlines()[-1].strip().startswith("gate failed: 2 significant regression(s)"
                                                                         " against 1.10 after Holm"), operation.stdout[-3000:]
