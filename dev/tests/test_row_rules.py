"""Each model's row rules are one ``expressions_are_true`` test, and a bad row fails it naming the rule.

- in the models' YAML, a model's generic data tests are its keys (``unique``,
  ``expect_compound_columns_to_be_unique``), ``relationships`` and one ``expressions_are_true``
  per config (a test with another severity, ``where`` or tags would be a second one);
- on a copy of the sample build, rows of nine tables of staging, intermediate models and marts
  are made to break one rule each (a value outside its set or range, a null in a column that may
  not hold one, an implication or exclusion, each with and without its condition), then the
  generic tests of those models run with ``--store-failures``: exactly their row-rules tests
  fail, and each reports exactly the broken expressions, as the YAML writes them, with the rows
  broken; a null where the rule let one pass before (a value set, a range, an expression) still
  passes.
"""

from __future__ import annotations

import json

import duckdb
import pytest
import yaml
from kit.builds import PROJECT, run_dbt

pytestmark = pytest.mark.slow                      # one `dbt test` of its own on a copy of the sample build

SCENARIOS_USED = ["sample"]
ROW_RULES = "expressions_are_true"
KEYS_AND_LINKS = {"unique", "expect_compound_columns_to_be_unique", "relationships"}

# (table, SQL after `set`, the rows to change, how many) -> the rows of that model's row-rules test
BREAKS = {
    "stg_annotation_exports__annotators": [
        ("staging.stg_annotation_exports__annotators", "annotator_kind = 'ROBOT'", "true", 1),
        # a null fails the column's not-null rule and passes its value set, as accepted_values let it
        ("staging.stg_annotation_exports__annotators", "annotator_role = null", "annotator_kind <> 'ROBOT'", 1),
    ],
    "stg_annotation_exports__records": [
        ("staging.stg_annotation_exports__records", "is_adversarial = 2", "record_uuid is not null", 1),
    ],
    "int_records__per_family": [
        ("intermediate.int_records__per_family", "tier = 'tier_c'", "true", 1),
        ("intermediate.int_records__per_family", "tier_source = null", "tier <> 'tier_c'", 1),
        ("intermediate.int_records__per_family", "has_human_labels = not has_human_labels",
         "tier <> 'tier_c' and tier_source is not null", 2),
    ],
    "int_retrieval__chunk_consensus": [
        # sufficient and not relevant, or relevant unknown (a null consequent fails, as in `implies`)
        ("intermediate.int_retrieval__chunk_consensus",
         "is_resolved = true, evidence_sufficient = 1, topically_relevant = 0, misleading = 0", "true", 1),
        ("intermediate.int_retrieval__chunk_consensus",
         "is_resolved = true, evidence_sufficient = 1, topically_relevant = null, misleading = 0",
         "evidence_sufficient <> 1 or topically_relevant <> 0", 1),
        # sufficient and misleading
        ("intermediate.int_retrieval__chunk_consensus",
         "is_resolved = true, evidence_sufficient = 1, topically_relevant = 1, misleading = 1",
         "evidence_sufficient <> 1", 1),
        # both on an unresolved unit: outside the rules' condition
        ("intermediate.int_retrieval__chunk_consensus",
         "is_resolved = false, evidence_sufficient = 1, topically_relevant = 0, misleading = 1",
         "evidence_sufficient <> 1", 1),
    ],
    "int_annotations__validated": [
        ("intermediate.int_annotations__validated", "misleading = null",
         "task = 'retrieval' and annotation_status = 'accepted'", 2),
        # not accepted: a label may be null
        ("intermediate.int_annotations__validated", "misleading = null",
         "task = 'retrieval' and annotation_status = 'rejected'", 1),
        # another task's rows hold no retrieval label, and their own labels are checked
        ("intermediate.int_annotations__validated", "helpful = null",
         "task = 'generation' and annotation_status = 'accepted'", 1),
    ],
    "metric_values": [
        ("main.metric_values", "slice_dimension = 'weekday'", "true", 1),
        # a null value passes the interval's rule, as it passed expressions_are_true before
        ("main.metric_values", "value = null", "slice_dimension <> 'weekday'", 1),
    ],
    "judge_weights": [
        ("main.judge_weights", "weight = 1.5", "true", 1),
        ("main.judge_weights", "gold_kappa = null", "is_within_kappa_bounds", 1),
        ("main.judge_weights", "n_alpha_labels_out_of_bounds = n_alpha_labels + 1", "not is_within_alpha_bounds", 1),
    ],
    "run_comparison": [
        ("main.run_comparison", "p_value_method = 'bootstrap'", "true", 1),
    ],
    "retrieval_training_pairs": [
        ("main.retrieval_training_pairs", "misleading = 2", "true", 1),
        ("main.retrieval_training_pairs", "split = 'holdout'", "misleading <> 2", 3),
    ],
}
EXPECTED = {
    "stg_annotation_exports__annotators": [("annotator_kind in ('HUMAN', 'LLM', 'CODE')", 1),
                                           ("annotator_role is not null", 1)],
    "stg_annotation_exports__records": [("is_adversarial in (0, 1)", 1)],
    "int_records__per_family": [("has_human_labels = (is_resolved is not null)", 2),
                                ("tier in ('tier_a', 'tier_b')", 1), ("tier_source is not null", 1)],
    "int_retrieval__chunk_consensus": [
        ("not (is_resolved and evidence_sufficient = 1 and misleading = 1)", 1),
        ("not (is_resolved and evidence_sufficient = 1) or coalesce(topically_relevant = 1, false)", 2)],
    "int_annotations__validated": [
        ("task <> 'retrieval' or annotation_status <> 'accepted' or misleading is not null", 2),
        ("task <> 'generation' or annotation_status <> 'accepted' or helpful is not null", 1)],
    "metric_values": [("slice_dimension in ('overall', 'language', 'tier', 'label_source')", 1)],
    "judge_weights": [("not is_within_kappa_bounds or coalesce(gold_kappa >= min_kappa, false)", 1),
                      ("n_alpha_labels_out_of_bounds between 0 and n_alpha_labels", 1),
                      ("weight between 0 and 1", 1)],
    "run_comparison": [("p_value_method in ('permutation', 'normal')", 1)],
    "retrieval_training_pairs": [("misleading in (0, 1)", 1), ("split in ('train', 'validation', 'test')", 3)],
}


@pytest.fixture(scope="module")
def sample(builds):
    return builds.get("sample").check()


def _yaml_tests() -> dict[str, list[tuple[str, str]]]:
    """Every model's generic data tests as its YAML declares them (the tools' staging models
    included, which the sample's build leaves disabled): (test, its config as JSON) by model."""
    tests: dict[str, list[tuple[str, str]]] = {}
    for path in sorted((PROJECT / "models").rglob("*.yml")):
        for model in (yaml.safe_load(path.read_text()) or {}).get("models", []):
            declared = list(model.get("data_tests", []))
            for column in model.get("columns", []):
                declared += column.get("data_tests", [])
            for entry in declared:
                name, spec = (entry, {}) if isinstance(entry, str) else next(iter(entry.items()))
                config = {k: v for k, v in (spec or {}).items() if k != "arguments"}
                tests.setdefault(model["name"], []).append((name, json.dumps(config, sort_keys=True)))
    return tests


def test_each_model_has_one_row_rules_test():
    tests = _yaml_tests()
    assert len(tests) > 50, sorted(tests)
    problems = []
    for model, found in sorted(tests.items()):
        other = sorted({name for name, _ in found} - KEYS_AND_LINKS - {ROW_RULES})
        if other:
            problems.append(f"{model}: {other} (a row rule belongs in its {ROW_RULES} test)")
        configs = [config for name, config in found if name == ROW_RULES]
        if len(configs) != len(set(configs)):
            problems.append(f"{model}: {len(configs)} {ROW_RULES} tests with the same config")
    assert not problems, "\n".join(problems)
    with_rules = {model for model, found in tests.items() if ROW_RULES in {name for name, _ in found}}
    assert {"metric_values", "export_row_counts", "judge_weights", "run_comparison", "retrieval_training_pairs",
            "stg_annotation_exports__annotators", "int_records__per_family", "stg_phoenix__traces",
            "stg_langfuse__traces"} <= with_rules


@pytest.fixture(scope="module")
def broken(sample, tmp_path_factory):
    """dbt's results and the stored failures of the row-rules tests of the models of BREAKS,
    after their tables were given the rows that break the rules."""
    root = tmp_path_factory.mktemp("row_rules")
    project = sample.copy(root)
    with duckdb.connect(str(root / sample.db_path.name)) as con:
        for changes in BREAKS.values():
            for table, assignment, where, n in changes:
                (changed,) = con.execute(
                    f"update {table} set {assignment} where rowid in "
                    f"(select rowid from {table} where {where} order by rowid limit {n})").fetchone()
                assert changed == n, (table, assignment, where, changed)
    selected = [f"test_type:generic,{model}" for model in BREAKS]
    out = run_dbt(project, ["test", "--store-failures", "--select", *selected],
                  env={"RAGMART_DUCKDB_PATH": sample.db_path.name})
    assert out.returncode == 1, out.stdout[-3000:] + out.stderr[-3000:]
    results = json.loads((project / "target" / "run_results.json").read_text())["results"]
    nodes = json.loads((project / "target" / "manifest.json").read_text())["nodes"]
    stored = {}
    with duckdb.connect(str(root / sample.db_path.name), read_only=True) as con:
        for r in results:
            node = nodes[r["unique_id"]]
            if r["status"] == "fail":
                rows = con.execute(f"select expression, n_failing_rows from {node['schema']}.{node['alias']}")
                stored[node["attached_node"].split(".")[-1]] = sorted(rows.fetchall())
    return results, nodes, stored, out.stdout


def test_only_the_row_rules_tests_fail(broken):
    results, nodes, _, _ = broken
    by_model: dict[str, list[tuple[str, str]]] = {}
    for r in results:
        node = nodes[r["unique_id"]]
        by_model.setdefault(node["attached_node"].split(".")[-1], []).append(
            (node["test_metadata"]["name"], r["status"]))
    assert set(by_model) == set(BREAKS)
    for model, found in by_model.items():
        assert [status for name, status in found if name == ROW_RULES] == ["fail"], (model, found)
        assert {status for name, status in found if name != ROW_RULES} <= {"pass"}, (model, found)


@pytest.mark.parametrize("model", list(BREAKS))
def test_a_broken_rule_is_named_with_its_rows(broken, model):
    _, _, stored, output = broken
    assert stored[model] == sorted(EXPECTED[model])
    # the build's log names the failing test by its model
    assert f"Failure in test {ROW_RULES}_{model}_" in output
