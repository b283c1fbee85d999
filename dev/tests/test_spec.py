"""The task spec (the vars ragmart_tasks and ragmart_measures of dbt_project.yml) and the YAML that
must agree with it: the enforced contracts of the marts with a column per label or measure, the
seeds' column types, the staging models' columns, the semantic layer, the rules page and the
counts of the pages.

The models read the spec themselves; these are the places dbt cannot derive from it (a contract
names its columns), read from the files without a build, so a label or a measure added to the spec
and forgotten in one of them is named here.
"""

from __future__ import annotations

import re

import pytest
import yaml
from export_schema import COLUMNS, LABELS, MEASURES, SPEC, TASKS
from kit.builds import PROJECT


def _models(path: str) -> dict[str, dict]:
    data = yaml.safe_load((PROJECT / path).read_text(encoding="utf-8"))
    return {m["name"]: m for m in data.get("models", [])}


def _columns(path: str, model: str) -> list[str]:
    return [c["name"] for c in _models(path)[model]["columns"]]


PROJECT_VARS = yaml.safe_load((PROJECT / "dbt_project.yml").read_text(encoding="utf-8"))


def test_the_spec_is_whole():
    for task, spec in SPEC.items():
        assert set(spec) == {"unit_columns", "labels", "required_texts", "optional_texts", "optional_booleans",
                             "constraints"}, task
        for constraint in spec["constraints"]:
            assert constraint["kind"] in ("implies", "excludes"), constraint
            assert {constraint["antecedent"], constraint["consequent"]} <= set(spec["labels"]), constraint
            assert constraint["reason"].startswith("violates:"), constraint
    names = [m["metric"] for m in MEASURES]
    assert len(names) == len(set(names))
    for measure in MEASURES:
        assert measure["family"] in TASKS, measure
        assert measure["interval"] in ("wilson", "wilson_at_k1", "mean"), measure
        assert isinstance(measure["higher_is_better"], bool), measure


def test_retrieval_metrics_has_a_column_per_retrieval_measure_in_spec_order():
    columns = _columns("models/marts/metrics/_metrics__models.yml", "retrieval_metrics")
    measures = [f"{m['metric']}_at_k" for m in MEASURES if m["family"] == "retrieval"]
    assert columns == ["run_id", "k", "n_queries", "n_pending_adjudication", *measures]


@pytest.mark.parametrize("family", ["grounding", "generation"])
def test_the_family_marts_have_a_column_per_measure(family):
    columns = _columns("models/marts/metrics/_metrics__models.yml", f"{family}_metrics")
    missing = [m["metric"] for m in MEASURES if m["family"] == family and m["metric"] not in columns]
    assert not missing, f"{family}_metrics has no column for {missing}"


def test_the_quarantine_contract_names_every_column_of_every_export():
    columns = _columns("models/marts/quarantine/_quarantine__models.yml", "rejected_annotations")
    missing = [c for task in (*TASKS, "records") for c in COLUMNS[task] if c not in columns]
    assert not missing, f"rejected_annotations' contract lacks {missing}"


@pytest.mark.parametrize("task", TASKS)
def test_the_training_view_contract_names_every_label(task):
    columns = _columns("models/marts/training/_training__models.yml", f"{task}_training_pairs")
    assert [c for c in columns if c in LABELS[task]] == LABELS[task]


@pytest.mark.parametrize("task", [*TASKS, "annotators", "records"])
def test_every_seed_column_loads_as_text(task):
    seed = f"{task}_annotations" if task in TASKS else task
    types = PROJECT_VARS["seeds"]["ragmart"][seed]["+column_types"]
    assert set(COLUMNS[task]) <= set(types), sorted(set(COLUMNS[task]) - set(types))
    assert set(types.values()) == {"{{ 'string' if target.type == 'spark' else 'varchar' }}"}


@pytest.mark.parametrize("task", TASKS)
def test_staging_documents_every_label_as_given_and_parsed(task):
    columns = _columns("models/staging/annotation_exports/_annotation_exports__models.yml",
                       "stg_annotation_exports__annotations")
    missing = [c for label in LABELS[task] for c in (label, f"{label}_raw") if c not in columns]
    assert not missing, missing


def test_the_semantic_layer_and_the_rules_name_every_measure():
    semantic = yaml.safe_load((PROJECT / "models/semantic/_semantic__semantic_models.yml").read_text())
    metrics = {m["name"] for m in semantic.get("metrics", [])}
    rules = (PROJECT / "docs" / "rules.md").read_text(encoding="utf-8")
    for measure in MEASURES:
        assert measure["metric"] in metrics, f"no semantic-layer metric {measure['metric']}"
        assert f"`{measure['metric']}`" in rules, f"docs/rules.md does not name {measure['metric']}"


# The pages' numbers of things the task spec has. A label, a measure or a constraint added as
# docs/extending.md says must not leave a page wrong, so a count of labels, measures (metrics),
# constraints or reason codes is not written out; the tasks (exports, families, and the training
# marts, one per task) are counted, and the count must be the spec's. docs/benchmarks.md is left
# out: its counts are of the measured commit. A number before such a word that counts nothing of
# the spec is listed in NOT_COUNTS with its page.
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                "sixteen seventeen eighteen nineteen twenty").split()
COUNTED = re.compile(
    r"(?<![\w.-])(?<!ADR )(?P<number>\d+|" + "|".join(NUMBER_WORDS) + r")(?:[ -][\w`'-]+){0,2}?[ -]"
    r"(?P<noun>measures|metrics|labels|implications|exclusions|constraints|reason codes|tasks|families|exports"
    r"|marts)\b", re.IGNORECASE)
PER_TASK = {"tasks", "families", "exports", "marts"}
NOT_COUNTS = {("docs/extending.md", "two labels"),      # a constraint is between two labels
              ("docs/reading.md", "0 for measures")}    # an interval would exclude 0 for measures ...
PAGES = [PROJECT / "README.md", *sorted(p for p in (PROJECT / "docs").glob("*.md") if p.name != "benchmarks.md")]


def test_the_pages_count_only_the_tasks_and_as_the_spec_has_them():
    problems = []
    for page in PAGES:
        text, name = page.read_text(encoding="utf-8"), page.relative_to(PROJECT).as_posix()
        for match in COUNTED.finditer(text):
            if (name, match.group(0)) in NOT_COUNTS:
                continue
            where = f"{name}, line {text.count(chr(10), 0, match.start()) + 1}: '{match.group(0)}'"
            number = match.group("number").lower()
            value = int(number) if number.isdigit() else NUMBER_WORDS.index(number)
            if match.group("noun").lower() not in PER_TASK:
                problems.append(f"{where} counts what a label, a measure or a constraint added to the task spec "
                                "changes: say it without the number")
            elif value != len(TASKS):
                problems.append(f"{where}: the task spec (ragmart_tasks of dbt_project.yml) has {len(TASKS)} tasks")
    assert not problems, "\n".join(problems)
