"""The semantic layer (models/semantic) as a client sees it: MetricFlow's `mf` on the sample build.

In a copy of the sample build's project (its target/semantic_manifest.json included), with the
profile's RAGMART_DUCKDB_PATH pointing at a copy of the built database:

* `mf validate-configs` passes, its data-warehouse checks included (every dimension, measure and
  metric queried on DuckDB);
* `mf query` gives the numbers of the marts, read directly with DuckDB, to 1e-9: ndcg and mrr at
  every K overall, contradiction_rate and grounding_presence_rate on every slice, metric_value with
  its interval and n_units for ndcg at K = 5, krippendorff_alpha and gwet_ac1 per task, label and
  tier;
* a result row that would combine several mart rows is null, never a sum or mean of values that
  are already aggregates (the rule `semantic_one_row_rule` of models/semantic/_semantic__docs.md).

`mf` runs from .venv-metricflow (requirements-metricflow.txt; `make metricflow`, a prerequisite of
`make pytest`). The module is skipped, with the reason, only when that venv is missing.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pytest

PROJECT = Path(__file__).resolve().parent.parent.parent
METRICFLOW_VENV = Path(os.environ.get("RAGMART_METRICFLOW_VENV") or PROJECT / ".venv-metricflow")
MF = METRICFLOW_VENV / "bin" / "mf"
TOLERANCE = 1e-9
OVERALL = "{{ Dimension('metric_value__slice_dimension') }} = 'overall'"

SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def mf() -> Path:
    if not MF.exists():
        pytest.skip(f"no MetricFlow CLI: {MF} is missing (`make metricflow` installs it)")
    return MF


@pytest.fixture(scope="module")
def sample(builds):
    """The sample build: `.project` (the project copy it was built in) and `.db_path` (its database)."""
    return builds.get("sample").check()


@dataclass
class MfProject:
    mf: Path
    project: Path
    database: Path
    work: Path
    queries: itertools.count = field(default_factory=itertools.count)

    def run(self, *args: str) -> subprocess.CompletedProcess:
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update(DBT_PROJECT_DIR=str(self.project), DBT_PROFILES_DIR=str(self.project / "profiles"),
                   RAGMART_DUCKDB_PATH=str(self.database), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
        result = subprocess.run([str(self.mf), *args], cwd=self.project, env=env, capture_output=True, text=True,
                                timeout=600)
        output = result.stdout + result.stderr
        # mf reports an exception on a line "ERROR: ..." and still exits 0: both are checked.
        failed = result.returncode != 0 or re.search(r"^\s*ERROR:", output, re.MULTILINE)
        assert not failed, f"mf {' '.join(args)} failed:\n{output}"
        return result

    def query(self, metrics: list[str], group_by: list[str] = (), where: list[str] = ()) -> list[dict]:
        """The rows of `mf query` (its --csv file): numbers as floats, empty fields as None."""
        out = self.work / f"query_{next(self.queries)}.csv"
        args = ["query", "--metrics", ",".join(metrics), "--csv", str(out), "--quiet"]
        if group_by:
            args += ["--group-by", ",".join(group_by)]
        for condition in where:
            args += ["--where", condition]
        self.run(*args)
        with open(out, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        return [{key: _number(key, value, metrics) for key, value in row.items()} for row in rows]


def _number(key: str, value: str, metrics: list[str]):
    if value == "":
        return None
    if key in metrics or key.endswith("__cutoff_k"):
        return float(value)
    return value


@pytest.fixture(scope="module")
def semantic(mf, sample, tmp_path_factory) -> MfProject:
    """A copy of the built project (with its target/semantic_manifest.json) and of its database."""
    work = tmp_path_factory.mktemp("semantic_layer")
    project = work / "project"
    shutil.copytree(sample.project, project, ignore=shutil.ignore_patterns(
        "logs", "*.duckdb", "*.duckdb.wal", ".venv*", "__pycache__"))
    assert (project / "target" / "semantic_manifest.json").is_file(), "the sample build wrote no semantic manifest"
    database = work / "ragmart.duckdb"
    shutil.copyfile(sample.db_path, database)
    return MfProject(mf, project, database, work)


def mart_rows(database: Path, sql: str) -> list[dict]:
    with duckdb.connect(str(database), read_only=True) as con:
        cursor = con.execute(sql)
        columns = [d[0] for d in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


def same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(float(a), float(b), rel_tol=0, abs_tol=TOLERANCE)


def assert_rows_match(got: dict, expected: dict, pairs: dict[str, str], where: str) -> None:
    for mf_column, mart_column in pairs.items():
        assert same(got[mf_column], expected[mart_column]), (
            f"{where}: mf's {mf_column} = {got[mf_column]!r}, the mart's {mart_column} = {expected[mart_column]!r}")


def test_mf_validate_configs_passes(semantic):
    output = semantic.run("validate-configs", "--show-all").stdout
    for step in ("Successfully validated the semantics of built manifest",
                 "Successfully validated semantic models against data warehouse",
                 "Successfully validated dimensions against data warehouse",
                 "Successfully validated measures against data warehouse",
                 "Successfully validated metrics against data warehouse"):
        assert f"{step} (ERRORS: 0, FUTURE_ERRORS: 0, WARNINGS: 0)" in output, (
            f"`mf validate-configs` did not report, without errors or warnings: {step}\n{output}")


def test_ndcg_and_mrr_at_every_k_are_the_rows_of_metric_values(semantic, sample):
    got = semantic.query(["ndcg", "mrr"], group_by=["metric_value__run_id", "metric_value__cutoff_k"], where=[OVERALL])
    expected = {(row["run_id"], row["metric"], row["k"]): row for row in mart_rows(
        sample.db_path, "select run_id, metric, k, value from metric_values"
                        " where metric in ('ndcg', 'mrr') and slice_dimension = 'overall'")}
    keys = sorted({(run, k) for run, _, k in expected})
    assert sorted((row["metric_value__run_id"], int(row["metric_value__cutoff_k"])) for row in got) == keys, got
    assert 5 in {k for _, k in keys}, "the sample's retrieval_k_values hold 5"
    assert len({run for run, _ in keys}) > 1, "the sample has several runs"
    for row in got:
        run, k = row["metric_value__run_id"], int(row["metric_value__cutoff_k"])
        for metric in ("ndcg", "mrr"):
            assert_rows_match(row, expected[(run, metric, k)], {metric: "value"}, f"{metric} at K = {k} in run {run}")


def test_grounding_rates_on_every_slice_are_the_rows_of_metric_values(semantic, sample):
    metrics = ["contradiction_rate", "grounding_presence_rate"]
    dimensions = ["metric_value__run_id", "metric_value__slice_dimension", "metric_value__slice_value"]
    got = semantic.query(metrics, group_by=dimensions)
    expected = {(row["metric"], row["run_id"], row["slice_dimension"], row["slice_value"]): row for row in mart_rows(
        sample.db_path, "select metric, run_id, slice_dimension, slice_value, value from metric_values"
                        " where metric in ('contradiction_rate', 'grounding_presence_rate')")}
    slices = {key[1:] for key in expected}
    assert {tuple(row[d] for d in dimensions) for row in got} == slices
    assert {dimension for _, dimension, _ in slices} == {"overall", "language", "tier", "label_source"}
    for row in got:
        key = tuple(row[d] for d in dimensions)
        for metric in metrics:
            assert_rows_match(row, expected[(metric, *key)], {metric: "value"}, f"{metric} on {key}")


def test_one_row_or_null(semantic, sample):
    """ndcg at K = 5 of the first run by slice dimension: `overall` is one row and gives its value,
    interval and n_units (as does any dimension with one slice in that run); `language` and `tier`
    hold several rows each and give null."""
    (run,) = mart_rows(sample.db_path, "select min(run_id) as run_id from metric_values")[0].values()
    got = semantic.query(["metric_value", "metric_ci_lower", "metric_ci_upper", "metric_n_units", "ndcg"],
                         group_by=["metric_value__slice_dimension"],
                         where=["{{ Dimension('metric_value__metric') }} = 'ndcg'",
                                "{{ Dimension('metric_value__cutoff_k') }} = 5",
                                f"{{{{ Dimension('metric_value__run_id') }}}} = '{run}'"])
    rows = mart_rows(sample.db_path, f"select * from metric_values where metric = 'ndcg' and k = 5 and run_id = '{run}'")
    by_dimension = {row["metric_value__slice_dimension"]: row for row in got}
    assert set(by_dimension) == {row["slice_dimension"] for row in rows}
    (overall,) = [row for row in rows if row["slice_dimension"] == "overall"]
    assert_rows_match(by_dimension["overall"], overall,
                      {"metric_value": "value", "ndcg": "value", "metric_ci_lower": "ci_lower",
                       "metric_ci_upper": "ci_upper", "metric_n_units": "n_units"}, "ndcg at K = 5, overall")
    several = 0
    for dimension, row in by_dimension.items():
        members = [r for r in rows if r["slice_dimension"] == dimension]
        if len(members) == 1:   # e.g. overall, or label_source of a run without judge-only records
            assert_rows_match(row, members[0], {"metric_value": "value", "ndcg": "value", "metric_ci_lower": "ci_lower",
                                                "metric_ci_upper": "ci_upper", "metric_n_units": "n_units"},
                              f"ndcg at K = 5, {dimension}")
            continue
        several += 1
        assert all(row[metric] is None for metric in ("metric_value", "metric_ci_lower", "metric_ci_upper",
                                                      "metric_n_units", "ndcg")), (
            f"the slices of {dimension} combined into one row must give null, not {row}")
    assert several >= 2, "language and tier hold several slices"


def test_agreement_per_task_label_and_tier_is_annotator_agreement(semantic, sample):
    dimensions = ["label_agreement__task", "label_agreement__label", "label_agreement__tier",
                  "label_agreement__slice_dimension", "label_agreement__slice_value"]
    got = semantic.query(["krippendorff_alpha", "gwet_ac1", "observed_agreement"], group_by=dimensions)
    expected = {(row["task"], row["label"], row["tier"], row["slice_dimension"], row["slice_value"]): row
                for row in mart_rows(
        sample.db_path, "select task, label, tier, slice_dimension, slice_value, krippendorff_alpha, gwet_ac1,"
                        " observed_agreement from annotator_agreement")}
    assert {tuple(row[d] for d in dimensions) for row in got} == set(expected)
    assert any(row["krippendorff_alpha"] is None for row in expected.values()), \
        "the sample has a label whose alpha is null (every value equal)"
    for row in got:
        key = tuple(row[d] for d in dimensions)
        assert_rows_match(row, expected[key], {"krippendorff_alpha": "krippendorff_alpha", "gwet_ac1": "gwet_ac1",
                                               "observed_agreement": "observed_agreement"}, f"agreement of {key}")
