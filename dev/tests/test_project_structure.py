"""The project's layout follows its names, in the spirit of dbt-project-evaluator's structure and
naming rules: a model's folder is the one its name says, its YAML sits beside it, no folder holds a
single model, and the layers read downwards. Every model counts, the ones a build switches off too
(another input_format), read from the manifest the sample build wrote; the reading rules run again
on a parse with every source system's models enabled (ALL_TOOLS), where each model reads what it
reads in a build. Every parent of a model or singular test in a manifest is written in its file (a
`ref` in a branch of it, or a `-- depends_on:` line), so that a reader sees the lineage dbt shows.

An exception is allowed only when EXCEPTIONS names it and says why; an exception that no longer
applies fails too, so the list stays true."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from kit.builds import PROJECT, prepare_project, run_dbt

SCENARIOS_USED = ["sample"]

# model name -> why it may break the naming and folder rules
EXCEPTIONS = {
    "metricflow_time_spine": "MetricFlow looks the time spine up by this name; it is the semantic layer's "
                             "only model, in models/semantic/ beside the semantic models that need it",
}
# staging folder -> why its models may read the staged models of other source systems
READS_OTHER_SYSTEMS = {
    "annotation_exports": "the canonical relations validation reads: each unions the staged rows of the "
                          "format input_format names for its family, whatever the source system",
}
# (model, parent of another staging folder) -> why the read stays
CROSS_SYSTEM_READS = {
    ("stg_phoenix__annotators", "stg_native__annotators"): "Phoenix records annotator kinds, not roles: its "
        "annotators are the ids the 0005 annotators input does not list",
    ("stg_langfuse__annotators", "stg_native__annotators"): "likewise for the kinds Langfuse records",
    ("stg_langfuse__records", "stg_native__records"): "Langfuse adds the runs it records to the rows of the "
        "0005 records input",
    ("stg_mlflow__annotators", "stg_native__annotators"): "likewise for the kinds MLflow records (the feedback's "
        "source type)",
    ("stg_mlflow__records", "stg_native__records"): "MLflow adds the runs and query ids it records to the rows "
        "of the 0005 records input",
    ("stg_mlflow__records", "stg_langfuse__records"): "with Langfuse read for another family, MLflow adds its "
        "runs to the records Langfuse gave theirs",
}
# vars under which every source system's models are enabled, in two parses: each family read from
# another tool (MLflow's records read Langfuse's when both are read, else the native ones: both reads)
ALL_TOOLS = [{"input_mode": "files", "input_path": "input", "input_format": formats} for formats in (
    {"retrieval": "phoenix", "grounding": "mlflow", "generation": "label_studio"},
    {"retrieval": "mlflow", "grounding": "langfuse", "generation": "label_studio"})]
LAYER_PATTERNS = {
    "staging": re.compile(r"models/staging/(?P<folder>[a-z_]+)/(?:base|stg)_(?P=folder)__[a-z_]+\.(?:sql|py)"),
    "intermediate": re.compile(r"models/intermediate/(?P<folder>[a-z_]+)/int_(?P=folder)__[a-z_]+\.sql"),
    "marts": re.compile(r"models/marts/(?P<folder>[a-z_]+)/(?!base_|stg_|int_)[a-z_]+\.sql"),
}
LAYER_ORDER = {"staging": 0, "intermediate": 1, "marts": 2}


@pytest.fixture(scope="module")
def manifest(builds):
    build = builds.get("sample").check()
    return json.loads((build.project / "target" / "manifest.json").read_text())


def all_models(manifest: dict) -> dict[str, dict]:
    """Every model of a manifest, enabled or not, by unique id."""
    nodes = {uid: node for uid, node in manifest["nodes"].items() if node["resource_type"] == "model"}
    for uid, versions in manifest["disabled"].items():
        if uid.startswith("model.") and uid not in nodes:
            nodes[uid] = versions[0]
    return nodes


@pytest.fixture(scope="module")
def models(manifest):
    return all_models(manifest)


@pytest.fixture(scope="module")
def tools_manifest(tmp_path_factory):
    """The manifests of `dbt parse` with every source system's models enabled (ALL_TOOLS), merged: the
    nodes enabled in either (a node enabled in both with the parents of both), the others disabled."""
    root = tmp_path_factory.mktemp("all_tools")
    project = prepare_project(root, None)
    merged = None
    for variables in ALL_TOOLS:
        result = run_dbt(project, ["parse", "--vars", json.dumps(variables)],
                         env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
        assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
        manifest = json.loads((project / "target" / "manifest.json").read_text())
        if merged is None:
            merged = manifest
        else:
            for uid, node in manifest["nodes"].items():
                if uid in merged["nodes"] and "nodes" in node.get("depends_on", {}):
                    node["depends_on"]["nodes"] = sorted(set(node["depends_on"]["nodes"])
                                                         | set(merged["nodes"][uid]["depends_on"]["nodes"]))
                merged["nodes"][uid] = node
    merged["disabled"] = {uid: nodes for uid, nodes in merged["disabled"].items() if uid not in merged["nodes"]}
    return merged


def _layer(node):
    return node["original_file_path"].split("/")[1]


def _folder(node):
    return node["original_file_path"].rsplit("/", 1)[0]


# The rules, each a function of the models that returns what breaks it (one line each), so that
# test_extending.py holds the copy it extends to them too.

def folder_problems(models: dict) -> list[str]:
    """Models whose folder is not the one their name says."""
    return sorted(node["original_file_path"] for node in models.values()
                  if node["name"] not in EXCEPTIONS
                  and not (LAYER_PATTERNS.get(_layer(node)) and LAYER_PATTERNS[_layer(node)].fullmatch(
                      node["original_file_path"])))


def yaml_problems(models: dict) -> list[str]:
    """Models not described in a `_<folder>__*.yml` file of their own folder."""
    wrong = []
    for node in models.values():
        folder = _folder(node)
        yaml_path = (node.get("patch_path") or "").split("://", 1)[-1]
        name = folder.split("/")[-1]
        if yaml_path.rsplit("/", 1)[0] != folder or not yaml_path.rsplit("/", 1)[-1].startswith(f"_{name}__"):
            wrong.append(f"{node['name']}: {yaml_path or 'no YAML'}")
    return sorted(wrong)


def single_model_folders(models: dict) -> list[str]:
    per_folder = Counter(_folder(node) for node in models.values() if node["name"] not in EXCEPTIONS)
    return sorted(folder for folder, count in per_folder.items() if count == 1)


def reading_problems(models: dict) -> list[str]:
    """Reads against the layers' direction, and staging models reading another system's models."""
    wrong = []
    for node in models.values():
        layer, folder = _layer(node), _folder(node).split("/")[-1]
        for parent_id in node["depends_on"]["nodes"]:
            parent = models.get(parent_id)
            if parent is None:  # seeds and sources
                continue
            parent_layer = _layer(parent)
            if parent_layer in LAYER_ORDER and layer in LAYER_ORDER and LAYER_ORDER[parent_layer] > LAYER_ORDER[layer]:
                wrong.append(f"{node['name']} ({layer}) reads {parent['name']} ({parent_layer})")
            if layer == "staging" and parent_layer == "staging":
                parent_folder = _folder(parent).split("/")[-1]
                if (parent_folder != folder and folder not in READS_OTHER_SYSTEMS
                        and (node["name"], parent["name"]) not in CROSS_SYSTEM_READS):
                    wrong.append(f"{node['name']} reads {parent['name']} of another source system")
                if parent["name"].startswith("base_") and parent_folder != folder:
                    wrong.append(f"{node['name']} reads {parent['name']}, a base model of another folder")
    return sorted(wrong)


def unwritten_parents(manifest: dict) -> list[str]:
    """The parents of the manifest's models and singular tests whose name their file does not
    write in a ref (generic tests are written in the YAML of the model they test)."""
    wrong = []
    for node in manifest["nodes"].values():
        if node["resource_type"] not in ("model", "test") or node.get("test_metadata"):
            continue
        for parent_id in node["depends_on"]["nodes"]:
            name = parent_id.split(".")[-1]
            if parent_id.split(".")[0] in ("model", "seed", "snapshot") and not re.search(
                    rf"""ref\(\s*['"]{name}['"]\s*\)""", node.get("raw_code", "")):
                wrong.append(f"{node['original_file_path']} reads {name} without naming it")
    return sorted(wrong)


def test_every_model_sits_in_the_folder_its_name_says(models):
    wrong = folder_problems(models)
    assert not wrong, "models whose folder is not the one their name says:\n" + "\n".join(wrong)
    # the tools' models, disabled under the default vars, are held to the rules too
    names = {node["name"] for node in models.values()}
    assert {"stg_phoenix__annotations", "stg_label_studio__annotations", "stg_langfuse__annotations"} <= names, names


def test_each_mart_folder_is_its_group(models):
    wrong = [f"{node['name']}: group {node.get('group')}" for node in models.values()
             if _layer(node) == "marts" and node.get("group") != _folder(node).split("/")[-1]]
    assert not wrong, wrong


def test_each_model_is_described_in_a_yaml_file_of_its_own_folder(models):
    wrong = yaml_problems(models)
    assert not wrong, "\n".join(wrong)


def test_each_unit_test_sits_beside_its_model(manifest, models):
    folder_of = {node["name"]: _folder(node) for node in models.values()}
    wrong = [f"{test['name']} ({test['original_file_path']}) tests {test['model']}"
             for test in manifest["unit_tests"].values()
             if test["original_file_path"].rsplit("/", 1)[0] != folder_of[test["model"]]]
    assert not wrong, "\n".join(sorted(wrong))
    assert len(manifest["unit_tests"]) > 20


def test_no_staging_or_intermediate_folder_holds_a_single_model(models):
    single = single_model_folders(models)
    assert not single, single


def test_the_layers_read_downwards_and_staging_reads_its_own_system(models):
    wrong = reading_problems(models)
    assert not wrong, "\n".join(wrong)


def test_with_every_tool_enabled_the_layers_read_downwards(tools_manifest):
    models = all_models(tools_manifest)
    enabled = {uid: node for uid, node in models.items() if uid in tools_manifest["nodes"]}
    assert {"model.ragmart.stg_phoenix__annotations", "model.ragmart.stg_langfuse__annotations",
            "model.ragmart.stg_label_studio__annotations"} <= set(enabled)
    wrong = reading_problems(enabled) + folder_problems(models) + yaml_problems(models)
    assert not wrong, "\n".join(wrong)
    reads = {(node["name"], parent.split(".")[-1]) for node in enabled.values()
             for parent in node["depends_on"]["nodes"]}
    assert set(CROSS_SYSTEM_READS) <= reads, f"exceptions that no longer apply: {set(CROSS_SYSTEM_READS) - reads}"


def test_every_parent_is_written_in_the_file_that_reads_it(manifest, tools_manifest):
    wrong = unwritten_parents(manifest) + unwritten_parents(tools_manifest)
    assert not wrong, "\n".join(wrong)


def test_every_exception_still_applies(models):
    names = {node["name"]: node for node in models.values()}
    for name in EXCEPTIONS:
        assert name in names, f"{name} is listed as an exception but is no model any more"
        pattern = LAYER_PATTERNS.get(_layer(names[name]))
        assert pattern is None or not pattern.fullmatch(names[name]["original_file_path"]), \
            f"{name} follows the rules now: take it off EXCEPTIONS"
    folders = {_folder(node).split("/")[-1] for node in models.values() if _layer(node) == "staging"}
    assert set(READS_OTHER_SYSTEMS) <= folders


# staging folders of the canonical relations and the native exports, enabled under the default vars
DEFAULT_STAGING = {"annotation_exports", "native"}


def lint_problems(project: Path) -> list[str]:
    """A tool's staging folder is disabled under the default vars, which sqlfluff's dbt templater
    skips: `make lint` must lint it again with a `.sqlfluff-<tool>` file that enables it."""
    makefile = (project / "Makefile").read_text(encoding="utf-8")
    problems = []
    for folder in sorted(p.name for p in (project / "models" / "staging").iterdir() if p.is_dir()):
        if folder in DEFAULT_STAGING:
            continue
        config = f".sqlfluff-{folder.replace('_', '-')}"
        if not (project / config).is_file():
            problems.append(f"models/staging/{folder} has no {config}")
        if f"sqlfluff lint models/staging/{folder} --config {config}" not in makefile:
            problems.append(f"make lint does not lint models/staging/{folder} with {config}")
    return problems


def test_make_lint_lints_every_tool_folder_with_its_vars():
    assert not lint_problems(PROJECT), lint_problems(PROJECT)


def test_the_settings_are_read_through_one_reader():
    """Every setting (a var with a rule in ragmart_checked_setting) is read by ragmart_setting alone:
    a model, test or macro that called var() for one would skip its check and its default. A config
    in YAML (`enabled`, or a value handed to a Python model) cannot call a macro and is the exception."""
    reader = (PROJECT / "macros/spec/ragmart_settings.sql").read_text(encoding="utf-8")
    settings = re.findall(r"'([a-z_]+)': \{'kind'", reader)
    assert len(settings) >= 25, settings
    declared = yaml.safe_load((PROJECT / "dbt_project.yml").read_text(encoding="utf-8"))["vars"]
    assert not set(settings) - set(declared), "settings that dbt_project.yml does not declare"
    readers = []
    for path in sorted([*PROJECT.glob("models/**/*.sql"), *PROJECT.glob("macros/**/*.sql"),
                        *PROJECT.glob("tests/**/*.sql"), *PROJECT.glob("models/**/*.yml")]):
        if path.name == "ragmart_settings.sql":
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".yml":
            text = "\n".join(line for line in text.splitlines() if not re.match(r"\s+[a-z_]+: \"", line))
        readers += [f"{path.relative_to(PROJECT)}: var('{name}')" for name in settings
                    if re.search(r"var\(\s*['\"]" + name + r"['\"]", text)]
    assert not readers, "read ragmart_setting(name) instead:\n" + "\n".join(readers)
