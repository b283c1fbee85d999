"""dev/bench/benchmark.py sorts every node of the build into a part of the work (its table "Where each
dbt build's node time goes"): a model added in a new folder must not fall silently under "other"."""

from __future__ import annotations

import json

import benchmark
import pytest

SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def manifest_nodes(builds):
    build = builds.get("sample").check()
    return json.loads((build.project / "target" / "manifest.json").read_text())["nodes"]


def test_every_model_and_data_test_has_a_part_of_the_work(manifest_nodes):
    parts = {uid: benchmark.part_of(node) for uid, node in manifest_nodes.items()
             if node["resource_type"] in ("model", "test")}
    other = sorted(uid for uid, part in parts.items() if part == "other")
    assert other == ["model.ragmart.metricflow_time_spine"], other
    assert all(part == "data tests" for uid, part in parts.items() if uid.startswith("test."))


def test_the_parts_follow_the_folders_and_groups(manifest_nodes):
    part = {node["name"]: benchmark.part_of(node) for node in manifest_nodes.values()
            if node["resource_type"] == "model"}
    expected = {
        "base_annotation_exports__annotations": "reading and parsing",
        "stg_annotation_exports__annotations": "reading and parsing",
        "int_annotations__row_checks": "row checks and statuses", "int_annotations__row_status": "row checks and statuses",
        "int_annotations__validated": "row checks and statuses",
        "int_records__validated": "row checks and statuses",
        "int_annotations__label_consensus": "consensus, records and measures",
        "int_records__per_family": "consensus, records and measures",
        "retrieval_metrics": "consensus, records and measures", "metric_values": "consensus, records and measures",
        "rejected_annotations": "quarantine",
        "int_agreement__pair_agreement": "agreement and protocol", "annotator_quality": "agreement and protocol",
        "labeling_drift": "agreement and protocol",
        "int_judges__unit_labels": "judges", "judge_weights": "judges",
        "int_runs__permutation_counts": "run comparison", "int_metrics__runs": "consensus, records and measures",
        "run_comparison_queries": "run comparison",
        "retrieval_training_pairs": "training view",
        "export_row_counts": "quarantine", "stg_native__retrieval": "reading and parsing",
    }
    assert {name: part[name] for name in expected} == expected
