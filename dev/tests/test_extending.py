"""docs/extending.md's claim, tried: a new label and a new retrieval measure, each added by
editing only the files that "Extending" lists for it, build, pass `make test`'s documentation
checks and give the right numbers.

On a copy of the project, in the way a user would follow the page:

- **a label**: `concise`, a sixth generation label. The task spec gets it (dbt_project.yml, with
  its seed column type), the enforced contracts of rejected_annotations and of
  generation_training_pairs get its column. The data (the generation seed of the copy) gets a
  `concise` column equal to `helpful` on every row but the first, where it is blank.
- **a measure**: Recall@K, the share of a record's topically relevant chunks ranked within K (0
  when it has none). The task spec gets it, its formula is a macro file of its own, the record
  scores compute it, the contract of retrieval_metrics gets `recall_at_k`.

Then `dbt build` (every model, data test and unit test), and:

- the blank row is rejected with `missing:concise`, and every other quarantined generation row
  keeps `concise` equal to `helpful` as given;
- every row of generation_training_pairs has `concise` equal to `helpful` (the same votes give the
  same consensus);
- metric_values' `recall` and retrieval_metrics' `recall_at_k` equal Recall@K computed here from
  the independent reference's chunk consensus (dev/tests/reference) per run and K;
- the copy passes the documentation checks of test_docs.py (every column of every table and seed
  described, the new macro and its arguments too);
- each change touched exactly as many files as docs/extending.md says, each named there.
"""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest
import reference as R
import test_project_structure as structure
from export_schema import COLUMNS, write_csv
from kit import docs_checks
from kit.builds import PROJECT, prepare_project, run_dbt

pytestmark = pytest.mark.slow                      # dbt builds of their own on copies of the project
SCENARIOS_USED = ["sample"]

RECALL_MACRO = """{#- Recall@K: the share of a record's relevant chunks ranked within K, 0 when it has none. -#}
{% macro ragmart_recall_at_k(label, rank, k) -%}
    coalesce(
        sum(case when {{ rank }} <= {{ k }} and {{ label }} = 1 then 1.0 else 0.0 end)
        / nullif(sum(case when {{ label }} = 1 then 1.0 else 0.0 end), 0),
        0.0
    )
{%- endmacro %}
"""

RECALL_MACRO_YAML = """

  # ragmart_recall_at_k.sql
  - name: ragmart_recall_at_k
    description: Returns SQL for Recall@K over a record's chunks, 0 when it has no relevant chunk.
    arguments:
      - name: label
        type: string
        description: SQL expression for the chunk's consensus label, 0 or 1.
      - name: rank
        type: string
        description: SQL expression for the chunk's rank.
      - name: k
        type: string
        description: SQL expression for K.
"""


class Edits:
    """Text replacements in the project copy, with the files each change touched."""

    def __init__(self, project: Path):
        self.project = project
        self.touched: dict[str, set[str]] = defaultdict(set)

    def replace(self, change: str, path: str, old: str, new: str) -> None:
        file = self.project / path
        text = file.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{path}: expected one {old!r}"
        file.write_text(text.replace(old, new), encoding="utf-8")
        self.touched[change].add(path)

    def create(self, change: str, path: str, text: str) -> None:
        (self.project / path).write_text(text, encoding="utf-8")
        self.touched[change].add(path)


# Where make test wants the new label's column described (test_docs.py): each file's models, each
# getting a copy of the task's last label's entry under the new name.
LABEL_COLUMN_ENTRIES = {
    "seeds/_seeds.yml": ["generation_annotations"],
    "models/staging/native/_native__models.yml": ["stg_native__generation"],
    "models/staging/annotation_exports/_annotation_exports__models.yml":
        ["base_annotation_exports__input_rows", "base_annotation_exports__annotations",
         "stg_annotation_exports__annotations"],
    "models/intermediate/records/_records__models.yml": ["int_records__consensus"],
    "models/intermediate/annotations/_annotations__models.yml":
        ["int_annotations__row_checks", "int_annotations__validated", "int_annotations__accepted_rows"],
    "models/intermediate/training/_training__models.yml": ["int_training__pairs"],
}


def copy_label_entries(edits: Edits, change: str, path: str, model: str, label: str, new: str) -> None:
    """In `model`'s block of the YAML file, each column entry of `label` (and `<label>_raw`) is
    followed by a copy of itself for `new`, as docs/extending.md tells a user to do."""
    file = edits.project / path
    text = file.read_text(encoding="utf-8")
    start = text.index(f"  - name: {model}\n")
    end = text.find("\n  - name: ", start + 1)
    end = len(text) if end < 0 else end + 1
    block = text[start:end]
    entries = list(re.finditer(rf"      - name: {label}(?:_raw)?\n(?:        .*\n)*", block))
    assert entries, f"{path}: {model} has no entry for {label}"
    for entry in reversed(entries):
        copy = entry.group(0).replace(label, new)
        block = block[:entry.end()] + copy + block[entry.end():]
    file.write_text(text[:start] + block + text[end:], encoding="utf-8")
    edits.touched[change].add(path)


def add_label(edits: Edits) -> None:
    edits.replace("label", "dbt_project.yml",
                  "labels: [proper_action, response_on_topic, helpful, incomplete, unsafe_content]",
                  "labels: [proper_action, response_on_topic, helpful, incomplete, unsafe_content, concise]")
    edits.replace("label", "dbt_project.yml",
                  "        unsafe_content: *text\n", "        unsafe_content: *text\n        concise: *text\n")
    edits.replace("label", "models/marts/quarantine/_quarantine__models.yml",
                  "      - name: task_type\n",
                  "      - name: concise\n"
                  "        data_type: \"{{ 'string' if target.type == 'spark' else 'varchar' }}\"\n"
                  "        description: Original value (generation).\n"
                  "      - name: task_type\n")
    training = "models/marts/training/_training__models.yml"
    text = (edits.project / training).read_text(encoding="utf-8")
    block = re.search(r"  - name: generation_training_pairs\n.*?      - name: n_annotators\n", text, re.S)
    assert block, training
    edits.replace("label", training, block.group(0), block.group(0).replace(
        "      - name: n_annotators\n",
        "      - name: concise\n"
        "        data_type: integer\n"
        "        description: The consensus value, 0 or 1.\n"
        "      - name: n_annotators\n"))
    edits.replace("label", "seeds/_seeds__docs.md",
                  "{% docs col_annotator_kind %}",
                  "{% docs col_concise %}Label: the answer says what it has to say in few words. Boolean,"
                  " required.{% enddocs %}\n{% docs col_annotator_kind %}")
    for path, models in LABEL_COLUMN_ENTRIES.items():
        for model in models:
            copy_label_entries(edits, "label", path, model, "unsafe_content", "concise")


def add_measure(edits: Edits) -> None:
    edits.replace("measure", "dbt_project.yml",
                  "    - {family: retrieval, metric: ndcg, column: ndcg, higher_is_better: true, interval: mean}\n",
                  "    - {family: retrieval, metric: ndcg, column: ndcg, higher_is_better: true, interval: mean}\n"
                  "    - {family: retrieval, metric: recall, column: recall, higher_is_better: true, interval: mean}\n")
    edits.create("measure", "macros/metrics/ragmart_recall_at_k.sql", RECALL_MACRO)
    macros = edits.project / "macros/metrics/_metrics__macros.yml"
    macros.write_text(macros.read_text(encoding="utf-8").rstrip("\n") + RECALL_MACRO_YAML, encoding="utf-8")
    edits.touched["measure"].add("macros/metrics/_metrics__macros.yml")
    scores = "macros/metrics/ragmart_metric_values.sql"
    edits.replace("measure", scores, "        scored.idcg,\n",
                  "        scored.idcg,\n        scored.recall,\n")
    edits.replace("measure", scores, "                as idcg\n",
                  "                as idcg,\n"
                  "            {{ ragmart_recall_at_k('ranked_chunks.topically_relevant', 'ranked_chunks.chunk_rank',"
                  " 'k_values.k') }}\n"
                  "                as recall\n")
    edits.replace("measure", "models/intermediate/retrieval/_retrieval__models.yml",
                  "        description: \"NDCG@K = DCG@K / IDCG@K, and 0 when IDCG@K = 0.\"\n",
                  "        description: \"NDCG@K = DCG@K / IDCG@K, and 0 when IDCG@K = 0.\"\n"
                  "      - name: recall\n"
                  "        description: \"Recall@K: the share of the record's relevant chunks ranked within K.\"\n")
    edits.replace("measure", "models/marts/metrics/_metrics__models.yml",
                  "  - name: grounding_metrics\n",
                  "      - name: recall_at_k\n"
                  "        data_type: \"{{ 'double precision' if target.type == 'postgres' else 'double' }}\"\n"
                  "        description: \"Recall@K.\"\n\n"
                  "  - name: grounding_metrics\n")


def add_label_to_data(project: Path) -> dict:
    """The generation seed gains `concise` = `helpful`, blank on the first row; returns that row."""
    path = project / "seeds" / "generation_annotations.csv"
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    header = list(rows[0]) + ["concise"]
    for i, row in enumerate(rows):
        row["concise"] = "" if i == 0 else row["helpful"]
    write_csv(path, header, rows)
    return rows[0]


WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def documented_files(change: str) -> str:
    """The bullet of docs/extending.md that says what the change touches."""
    text = (PROJECT / "docs" / "extending.md").read_text(encoding="utf-8")
    start = {"label": "- **A label of an export**", "measure": "- **A retrieval measure**",
             "source system": "- **A source system**"}[change]
    assert start in text, f"docs/extending.md has no bullet {start!r}"
    bullet = text[text.index(start):]
    ends = [i for i in (bullet.find("\n- **", 1), bullet.find("\n## ")) if i > 0]
    return bullet[:min(ends)] if ends else bullet


def recall_by_run_and_k(ref: R.Reference) -> dict[tuple[str, int], float]:
    values = defaultdict(list)
    for record in ref.records["retrieval"].values():
        if not record["resolved"]:
            continue
        relevant = [u for u in record["units"] if u["labels"]["topically_relevant"] == 1]
        for k in ref.params["k_values"]:
            recall = sum(u["rank"] <= k for u in relevant) / len(relevant) if relevant else 0.0
            values[(record["run_id"], k)].append(recall)
    return {key: sum(v) / len(v) for key, v in values.items()}


@pytest.fixture(scope="module")
def extended(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extending")
    project = prepare_project(folder, None)
    edits = Edits(project)
    add_label(edits)
    add_measure(edits)
    blank_row = add_label_to_data(project)
    result = run_dbt(project, ["build"], env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"}, log=folder / "build.log")
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    con = duckdb.connect(str(folder / "ragmart.duckdb"), read_only=True)
    yield edits, blank_row, con
    con.close()


def test_the_extended_project_passes_the_documentation_checks(extended):
    """What `make test` asks of the docs (test_docs.py), on the copy: every new column of every
    model and seed has its YAML entry, the new macro its description and arguments."""
    edits, _, con = extended
    manifest = json.loads((edits.project / "target" / "manifest.json").read_text())
    columns = docs_checks.table_columns(edits.project.parent / "ragmart.duckdb")
    problems = (docs_checks.undocumented_model_columns(manifest, columns)
                + docs_checks.undocumented_seed_columns(manifest, columns)
                + docs_checks.undocumented_macros(manifest))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("change", ["label", "measure"])
def test_each_change_touches_the_files_extending_lists_and_no_other(extended, change):
    edits, _, _ = extended
    touched = edits.touched[change]
    bullet = documented_files(change)
    count = re.search(r"\), (\w+) files:", bullet)
    assert count, f"docs/extending.md does not say how many files a {change} takes"
    assert len(touched) == WORDS.index(count.group(1)), (count.group(1), sorted(touched))
    for path in touched:
        if path == "macros/metrics/ragmart_recall_at_k.sql":
            assert "a file of its own in `macros/metrics/`" in bullet, bullet
        else:
            assert f"`{path}`" in bullet, f"docs/extending.md does not name {path} for a {change}"


def test_the_new_label_is_checked_and_kept_in_the_quarantine(extended):
    _, blank_row, con = extended
    rows = con.execute(
        "select record_uuid, annotator_id, reasons, helpful, concise from rejected_annotations"
        " where task = 'generation'").fetchall()
    blank = [r for r in rows if r[0] == blank_row["record_uuid"] and r[1] == blank_row["annotator_id"]]
    assert len(blank) == 1 and "missing:concise" in blank[0][2].split(";"), blank
    others = [r for r in rows if r not in blank]
    assert others, "the sample quarantines other generation rows"
    assert all(r[4] == r[3] for r in others), [r for r in others if r[4] != r[3]]


def test_the_new_label_reaches_the_training_view_with_its_consensus(extended):
    _, _, con = extended
    rows = con.execute("select helpful, concise from generation_training_pairs").fetchall()
    assert rows and all(concise == helpful for helpful, concise in rows)


def test_the_new_measure_equals_recall_computed_from_the_reference(extended):
    _, _, con = extended
    expected = recall_by_run_and_k(R.compute(PROJECT / "seeds"))
    got = dict(((run, k), value) for run, k, value in con.execute(
        "select run_id, k, value from metric_values where metric = 'recall' and slice_dimension = 'overall'"
    ).fetchall())
    wide = dict(((run, k), value) for run, k, value in con.execute(
        "select run_id, k, recall_at_k from retrieval_metrics").fetchall())
    assert set(got) == set(expected) == set(wide)
    for key, value in expected.items():
        assert math.isclose(got[key], value, abs_tol=1e-12), (key, got[key], value)
        assert math.isclose(wide[key], value, abs_tol=1e-12), (key, wide[key], value)


# --------------------------------------------------------------------------- a source system
# docs/extending.md's recipe for a source system, rehearsed with the smallest one: `toy`, a tool
# whose generation export is one CSV file (`toy/generation.csv` in the input folder) with its own
# column names (`toy_<column>`) and an item id. Built in files mode with the generation family
# read from it (`input_format: {generation: toy}`) and the other inputs native, up to the
# canonical staged rows, which must equal those of the same rows read natively (the sample).

def toy_base_sql() -> str:
    columns = ",\n".join(f"    toy_{column}" for column in COLUMNS["generation"])
    return ("{#- The toy tool's generation export as read: every column as text, one row per item. -#}\n"
            "select\n    item_id,\n"
            f"{columns}\n"
            "from read_csv('{{ var(\"input_path\") }}/toy/generation.csv', header = true, all_varchar = true)\n")


# the models' switch, as the other tools' YAML spells it: on when input_format reads generation from toy
ENABLED = ("\"{{ (var('input_format', 'native') if var('input_format', 'native') is string"
           " else var('input_format', 'native').get('generation', 'native')) == 'toy' }}\"")

TOY_YAML = """version: 2

models:
  - name: base_toy__export
    description: The toy tool's generation export as read, every column as text.
    config:
      enabled: ENABLED

  - name: stg_toy__generation
    description: The toy tool's generation export as generation rows in the 0005 shape of stg_native__generation.
    config:
      materialized: view
      enabled: ENABLED
    columns:
      - name: annotation_row_id
        description: The item's id.
      - name: source_file
        description: The export file.
      - name: source_row
        description: The item's id.
      - name: malformed_record
        description: Always null (the toy export has no unreadable records).
"""

TOY_SQLFLUFF = """# `make lint` lints models/staging/toy with these vars too: they enable its models.
[sqlfluff:templater:dbt:context]
input_mode = files
input_path = seeds

[sqlfluff:templater:dbt:context:input_format]
generation = toy
"""


def toy_staging_sql() -> str:
    renamed = ",\n".join(f"    toy_{column} as {column}" for column in COLUMNS["generation"])
    return ("{#- The toy tool's generation rows in the 0005 shape: renamed, with where each came from. -#}\n"
            "with\n\nsource as (\n\n    select * from {{ ref('base_toy__export') }}\n\n)\n\n"
            "select\n"
            "    cast(item_id as bigint) as annotation_row_id,\n"
            "    'toy/generation.csv' as source_file,\n"
            "    cast(item_id as bigint) as source_row,\n"
            "    cast(null as varchar) as malformed_record,\n"
            f"{renamed}\n"
            "from source\n")


def add_source_system(edits: Edits) -> None:
    change = "source system"
    (edits.project / "models/staging/toy").mkdir()
    edits.create(change, "models/staging/toy/base_toy__export.sql", toy_base_sql())
    edits.create(change, "models/staging/toy/stg_toy__generation.sql", toy_staging_sql())
    edits.create(change, "models/staging/toy/_toy__models.yml", TOY_YAML.replace("ENABLED", ENABLED))
    edits.replace(change, "macros/inputs/ragmart_inputs.sql",
                  "{%- set known = ['native', 'phoenix', 'label_studio', 'langfuse'] -%}",
                  "{%- set known = ['native', 'phoenix', 'label_studio', 'langfuse', 'toy'] -%}")
    edits.replace(change, "models/staging/annotation_exports/base_annotation_exports__input_rows.sql",
                  "    {%- else %}\n    select * from {{ ref('stg_native__generation') }}\n",
                  "    {%- elif ragmart_family_format('generation') == 'toy' %}\n"
                  "    select * from {{ ref('stg_toy__generation') }}\n"
                  "    {%- else %}\n    select * from {{ ref('stg_native__generation') }}\n")
    edits.create(change, ".sqlfluff-toy", TOY_SQLFLUFF)
    edits.replace(change, "Makefile",
                  "\t$(BIN)/sqlfluff lint models/staging/langfuse --config .sqlfluff-langfuse\n",
                  "\t$(BIN)/sqlfluff lint models/staging/langfuse --config .sqlfluff-langfuse\n"
                  "\t$(BIN)/sqlfluff lint models/staging/toy --config .sqlfluff-toy\n")


def write_toy_input(folder: Path) -> None:
    """The sample's inputs, native but for generation, which is in the toy tool's shape."""
    (folder / "toy").mkdir(parents=True)
    for name in ("retrieval_annotations.csv", "grounding_annotations.csv", "annotators.csv", "records.csv"):
        (folder / name).write_bytes((PROJECT / "seeds" / name).read_bytes())
    with open(PROJECT / "seeds" / "generation_annotations.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    header = ["item_id"] + [f"toy_{column}" for column in COLUMNS["generation"]]
    write_csv(folder / "toy" / "generation.csv", header,
              [{"item_id": str(i), **{f"toy_{c}": row[c] for c in COLUMNS["generation"]}}
               for i, row in enumerate(rows, start=1)])


@pytest.fixture(scope="module")
def toy_system(tmp_path_factory, builds):
    folder = tmp_path_factory.mktemp("source_system")
    project = prepare_project(folder, None)
    edits = Edits(project)
    add_source_system(edits)
    write_toy_input(folder / "input")
    variables = {"input_mode": "files", "input_path": str(folder / "input"), "input_format": {"generation": "toy"}}
    result = run_dbt(project, ["build", "--select", "+stg_annotation_exports__annotations", "--indirect-selection",
                               "cautious", "--vars", json.dumps(variables)],
                     env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"}, log=folder / "build.log")
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    return edits, folder / "ragmart.duckdb", builds.get("sample").check().db_path


def test_a_source_system_gives_the_canonical_rows_of_the_same_rows_read_natively(toy_system):
    _, toy_db, sample_db = toy_system
    con = duckdb.connect()
    con.execute(f"attach '{toy_db}' as toy (read_only)")
    con.execute(f"attach '{sample_db}' as sample (read_only)")
    columns = [c for (c,) in con.execute(
        "select column_name from duckdb_columns() where database_name = 'sample'"
        " and table_name = 'stg_annotation_exports__annotations' order by column_index").fetchall()
        if c not in ("annotation_row_id", "source_file", "source_row", "read_source_file")]
    listed = ", ".join(f'"{c}"' for c in columns)
    table = "staging.stg_annotation_exports__annotations"
    generation = "family = 'generation'"
    count = con.execute(f"select count(*) from toy.{table} where {generation}").fetchone()[0]
    assert count == con.execute(f"select count(*) from sample.{table} where {generation}").fetchone()[0] > 0
    for a, b in (("toy", "sample"), ("sample", "toy")):
        differing = con.execute(f"select count(*) from (select {listed} from {a}.{table} where {generation}"
                                f" except all select {listed} from {b}.{table} where {generation})").fetchone()[0]
        assert differing == 0, f"{differing} rows of {a} are not in {b}"


def test_a_source_system_keeps_the_structure_and_lint_rules(toy_system):
    edits, _, _ = toy_system
    manifest = json.loads((edits.project / "target" / "manifest.json").read_text())
    models = structure.all_models(manifest)
    assert "model.ragmart.stg_toy__generation" in models
    problems = (structure.folder_problems(models) + structure.yaml_problems(models)
                + structure.single_model_folders(models) + structure.reading_problems(models)
                + structure.lint_problems(edits.project))
    assert not problems, "\n".join(problems)


def test_a_source_system_passes_make_lint(toy_system):
    """The folder's line of `make lint`, run on the copy: sqlfluff with the folder's vars."""
    edits, _, _ = toy_system
    result = subprocess.run([str(Path(sys.executable).parent / "sqlfluff"), "lint", "models/staging/toy",
                             "--config", ".sqlfluff-toy"], cwd=edits.project, capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]


def test_a_source_system_touches_only_the_files_extending_names(toy_system):
    edits, _, _ = toy_system
    bullet = documented_files("source system")
    for path in edits.touched["source system"]:
        generic_path = path.replace("toy", "<tool>").replace("generation", "<family>")
        assert f"`{path}`" in bullet or f"`{generic_path}`" in bullet, \
            f"docs/extending.md does not name {generic_path} for a source system"
