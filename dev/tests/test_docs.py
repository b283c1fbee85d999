"""Documentation completeness: every model, column, seed, macro (with its arguments) and var is documented.

Reads the manifest that the sample build wrote and the tables it created, so a column added to a
model without a YAML entry (or a YAML entry for a column that no longer exists) fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from kit import docs_checks
from kit.builds import PUBLIC_MARTS, run_dbt

PROJECT = Path(__file__).resolve().parent.parent.parent


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def sample_build(builds):
    return builds.get("sample").check()


def test_docs_generate_writes_the_catalog_of_every_public_mart(sample_build, tmp_path):
    """`dbt docs generate` works on the sample build (its manifest and catalog name every public mart)."""
    project = sample_build.copy(tmp_path)
    result = run_dbt(project, ["docs", "generate"], env={"RAGMART_DUCKDB_PATH": sample_build.db_path.name})
    target = project / "target"
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    catalog = json.loads((target / "catalog.json").read_text())
    documented = {node["metadata"]["name"] for node in catalog["nodes"].values()}
    missing = [mart for mart in PUBLIC_MARTS if mart not in documented]
    assert not missing, f"catalog.json lacks {missing}"
    assert (target / "index.html").exists()


@pytest.fixture(scope="module")
def manifest(sample_build):
    return json.loads((sample_build.project / "target" / "manifest.json").read_text())


@pytest.fixture(scope="module")
def table_columns(sample_build):
    return docs_checks.table_columns(sample_build.db_path)


def _nodes(manifest, resource_type):
    return docs_checks.project_nodes(manifest, resource_type)


def test_every_model_and_column_is_documented(manifest, table_columns):
    assert len(_nodes(manifest, "model")) >= 20, "the manifest should list the project's models"
    problems = docs_checks.undocumented_model_columns(manifest, table_columns)
    assert not problems, "\n".join(problems)


def test_every_seed_and_seed_column_is_documented(manifest, table_columns):
    seeds = _nodes(manifest, "seed")
    assert {s["name"] for s in seeds} >= {"retrieval_annotations", "grounding_annotations", "generation_annotations",
                                          "annotators", "records"}
    problems = docs_checks.undocumented_seed_columns(manifest, table_columns)
    assert not problems, "\n".join(problems)


def test_every_macro_and_argument_is_documented(manifest):
    assert len([m for m in manifest["macros"].values() if m["package_name"] == "ragmart"]) >= 50
    problems = docs_checks.undocumented_macros(manifest)
    assert not problems, "\n".join(problems)


def test_every_singular_test_is_described(manifest):
    singular = [n for n in _nodes(manifest, "test") if "generic" not in n["path"] and not n.get("test_metadata")]
    assert singular, "the project has singular tests"
    missing = [n["name"] for n in singular if not n["description"].strip()]
    assert not missing, f"singular tests without a description: {missing}"


def test_every_var_is_documented_in_the_project_file_and_the_rules():
    project = yaml.safe_load((PROJECT / "dbt_project.yml").read_text())
    readme = (PROJECT / "docs" / "rules.md").read_text()
    project_text = (PROJECT / "dbt_project.yml").read_text()
    problems = []
    for var in project["vars"]:
        if f"| `{var}` |" not in readme:
            problems.append(f"var {var} is not in the vars table of docs/rules.md")
        # a comment line right above the var in dbt_project.yml
        lines = project_text.splitlines()
        index = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{var}:"))
        if not lines[index - 1].strip().startswith("#"):
            problems.append(f"var {var} has no comment in dbt_project.yml")
    assert not problems, "\n".join(problems)


def test_public_marts_have_enforced_contracts(manifest):
    marts = [n for n in _nodes(manifest, "model") if n["path"].startswith("marts")]
    assert len(marts) >= 10
    problems = []
    for node in marts:
        if node.get("access") != "public":
            problems.append(f"{node['name']} is not access: public")
        if not node["config"].get("contract", {}).get("enforced"):
            problems.append(f"{node['name']} has no enforced contract")
        for column, spec in node["columns"].items():
            if not spec.get("data_type"):
                problems.append(f"{node['name']}.{column} has no data_type")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- the Markdown pages

PAGES = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (lower case, punctuation dropped, spaces to -)."""
    anchors, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"^#{1,6} (.*)", line)
        if match:
            anchors.add(re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-"))
    return anchors


def test_every_link_of_the_pages_resolves_inside_the_repository():
    problems = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            name = page.relative_to(PROJECT)
            if not file.exists() or PROJECT not in file.parents:
                problems.append(f"{name}: {target} is no file of the repository")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
                problems.append(f"{name}: {target} names no heading of {file.relative_to(PROJECT)}")
    assert not problems, "\n".join(problems)


def test_the_readme_is_short_and_the_pages_name_no_document_outside_the_repository():
    assert len((PROJECT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for outside in ("../shared", "shared/spec", "CONTRACT.md", "STYLE.md"):
            assert outside not in text, f"{page.relative_to(PROJECT)} names {outside}"
