"""The production build runs the tests that guard a user's numbers; the tests of the SQL's own
invariants run in `make test` (docs/testing.md, "Tests in the production build").

- every data test of a staging or intermediate table is tagged `sql_invariant`, and no test of a
  mart, no singular guard under tests/ is;
- the production build (scripts/build.py, which `make build`, `make build-files` and the benchmark
  run) and the selector `production` of selectors.yml leave out exactly the `sql_invariant` tests
  and the unit tests;
- `make test`'s builds run the `sql_invariant` tests: the sample build of the suite passed them.
"""

from __future__ import annotations

import json

import pytest
import yaml
from build import dbt_command  # scripts/build.py, on pytest's pythonpath
from kit.builds import PROJECT

SCENARIOS_USED = ["sample"]
TAG = "sql_invariant"


@pytest.fixture(scope="module")
def sample_build(builds):
    return builds.get("sample").check()


@pytest.fixture(scope="module")
def manifest(sample_build):
    return json.loads((sample_build.project / "target" / "manifest.json").read_text())


@pytest.fixture(scope="module")
def tests_by_id(manifest):
    return {uid: n for uid, n in manifest["nodes"].items() if n["resource_type"] == "test"}


def _layer(node: dict) -> str:
    path = node["original_file_path"]
    return path.split("/")[1] if path.startswith("models/") else "tests"


def test_the_invariant_tests_are_those_of_staging_and_intermediate(tests_by_id):
    wrong = [uid for uid, node in tests_by_id.items()
             if (TAG in node["config"]["tags"]) != (_layer(node) in ("staging", "intermediate"))]
    assert not wrong, wrong
    layers = {_layer(node) for node in tests_by_id.values() if TAG not in node["config"]["tags"]}
    assert {"marts", "tests"} <= layers


def test_the_production_build_leaves_out_the_invariant_and_unit_tests():
    for files_mode in (False, True):
        command = dbt_command("dbt", {}, files_mode, [])
        excluded = command[command.index("--exclude") + 1:command.index("--exclude-resource-type")]
        assert excluded == [f"tag:{TAG}", *(["resource_type:seed"] if files_mode else [])], command
        assert command[command.index("--exclude-resource-type") + 1] == "unit_test"
    selector = yaml.safe_load((PROJECT / "selectors.yml").read_text())["selectors"][0]
    assert selector["name"] == "production"
    assert selector["definition"]["union"][1]["exclude"] == [
        {"method": "tag", "value": TAG}, {"method": "resource_type", "value": "unit_test"}]


def test_make_test_runs_the_invariant_tests(sample_build, tests_by_id):
    # those of the models the sample build built (not the staging of the other source systems)
    built = {r["unique_id"] for r in sample_build.node_results if r["unique_id"].startswith("model.")}
    invariant = {uid for uid, node in tests_by_id.items() if TAG in node["config"]["tags"]
                 and node["depends_on"]["nodes"] and set(node["depends_on"]["nodes"]) <= built}
    ran = {r["unique_id"]: r["status"] for r in sample_build.node_results if r["unique_id"] in invariant}
    assert ran and set(ran) == invariant, sorted(invariant - set(ran))[:5]
    assert set(ran.values()) == {"pass"}, {uid: s for uid, s in ran.items() if s != "pass"}
