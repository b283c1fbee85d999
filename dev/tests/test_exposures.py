"""The exposures (models/marts/_marts__exposures.yml) list exactly the marts their scripts read.

On the sample build's manifest and database:

* `html_report`: scripts/report.py renders the sample database while every mart it looks up is
  recorded; those names are the exposure's `depends_on`, and every one is a model of the project;
* `bi_export`: the marts scripts/export_marts.py takes from the manifest (every `access: public`
  model) are the exposure's `depends_on`;
* every public mart belongs to a group with an owner, and sits in the group's folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import export_marts
import pytest
import report

SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def sample(builds):
    """The sample build: `.project` (the project copy it was built in) and `.db_path` (its database)."""
    return builds.get("sample").check()


@pytest.fixture(scope="module")
def manifest(sample) -> dict:
    return json.loads((sample.project / "target" / "manifest.json").read_text(encoding="utf-8"))


def project_models(manifest: dict) -> dict[str, dict]:
    return {node["name"]: node for node in manifest["nodes"].values()
            if node["resource_type"] == "model" and node["package_name"] == "ragmart"}


def exposure_marts(manifest: dict, name: str) -> set[str]:
    exposure = manifest["exposures"][f"exposure.ragmart.{name}"]
    assert exposure["description"].strip() and exposure["owner"]["name"] and exposure["owner"]["email"]
    assert exposure["config"]["meta"]["command"].startswith("make ")
    return {manifest["nodes"][unique_id]["name"] for unique_id in exposure["depends_on"]["nodes"]}


class RecordingDatabase(report.Database):
    """report.Database that records the name of every mart the report looks up."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.looked_up: set[str] = set()

    def relation(self, name: str) -> str | None:
        self.looked_up.add(name)
        return super().relation(name)


def test_html_report_depends_on_exactly_the_marts_it_reads(sample, manifest):
    database = RecordingDatabase(sample.db_path)
    try:
        html = report.render(database)
    finally:
        database.close()
    assert "<h1>ragmart report</h1>" in html
    models = project_models(manifest)
    read = {name for name in database.looked_up if name in models}
    assert "metric_values" in read and "rejected_annotations" in read, database.looked_up
    assert exposure_marts(manifest, "html_report") == read
    assert database.looked_up == read, f"the report reads tables that are not models: {database.looked_up - read}"


def test_bi_export_depends_on_every_public_mart(sample, manifest):
    exported = {name for name, _, _ in export_marts.public_marts(sample.project / "target" / "manifest.json")}
    assert len(exported) >= 13
    assert exposure_marts(manifest, "bi_export") == exported


def test_every_public_mart_has_a_group_with_an_owner(manifest):
    groups = {group["name"]: group for group in manifest["groups"].values()}
    public = [node for node in project_models(manifest).values() if node.get("access") == "public"]
    assert public
    problems = []
    for node in public:
        group = groups.get(node.get("group") or "")
        if group is None:
            problems.append(f"{node['name']} belongs to no group")
        elif not (group["owner"].get("name") and group["owner"].get("email") and group["description"].strip()):
            problems.append(f"group {group['name']} of {node['name']} lacks an owner's name, email or a description")
        # the group is the folder: models/marts/<group>/<mart>.sql
        if node["original_file_path"].split("/")[:3] != ["models", "marts", node.get("group")]:
            problems.append(f"{node['name']} ({node['original_file_path']}) is not in models/marts/{node.get('group')}/")
    assert not problems, "\n".join(problems)
