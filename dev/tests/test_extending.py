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
from collections import defaultdict
from pathlib import Path

import duckdb
import pytest
import reference as R
from export_schema import write_csv
from kit import docs_checks
from kit.builds import PROJECT, prepare_project, run_dbt

pytestmark = pytest.mark.slow                      # a dbt build of its own on a copy of the project

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
        ["base_annotation_exports__generation", "stg_annotation_exports__generation"],
    "models/intermediate/generation/_generation__models.yml":
        ["int_generation__row_checks", "int_generation__annotations_validated", "int_generation__records"],
    "models/intermediate/annotations/_annotations__models.yml": ["int_annotations__accepted_rows"],
    "models/intermediate/training/_training__models.yml": ["int_training__generation_pairs"],
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


def generic(path: str) -> str:
    """The path as docs/extending.md writes it for any task: the task's name as `<task>`."""
    return path.replace("intermediate/generation/_generation__", "intermediate/<task>/_<task>__")


def documented_files(change: str) -> str:
    """The bullet of docs/extending.md that says what the change touches."""
    text = (PROJECT / "docs" / "extending.md").read_text(encoding="utf-8")
    start = {"label": "- **A label of an export**", "measure": "- **A retrieval measure**"}[change]
    assert start in text, f"docs/extending.md has no bullet {start!r}"
    bullet = text[text.index(start):]
    return bullet[:bullet.index("\n- **", 1)] if "\n- **" in bullet[1:] else bullet


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
            assert f"`{path}`" in bullet or f"`{generic(path)}`" in bullet, \
                f"docs/extending.md does not name {path} for a {change}"


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
