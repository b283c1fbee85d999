"""docs/extending.md's recipes, tried: a label of each task and a retrieval measure, each added by
editing only the files that "Extending" lists for it, build, pass the checks of `make test` that
need no build and its documentation checks, generate data, and give the right numbers.

On one copy of the project, in the way a user would follow the page (the three labels and the
measure at once, so one build and one generator run):

- **the labels**: `outdated` (retrieval), `hedged` (grounding) and `concise` (generation). The task
  spec gets them (dbt_project.yml, with their seed column types), the enforced contracts of
  rejected_annotations and of the training views their columns, the YAML their column entries;
  `hedged` takes each topic's `source_cited` and `concise` its `helpful` in sample_texts.yaml, and
  the sample maker, the edge-case maker and the Langfuse fixture maker rewrite their data.
- **a measure**: Recall@K, the share of a record's topically relevant chunks ranked within K (0
  when it has none). The task spec gets it, its formula is a macro file of its own, the record
  scores compute it, the contract of retrieval_metrics gets `recall_at_k`, the semantic layer a
  metric `recall` and docs/rules.md its definition.

Then, on the copy: test_spec.py, test_sample.py, test_reference.py, test_export_data.py and
test_fixture_scripts.py (what `make test` checks without a build); a row of each export alone in
its submission gets its new label blanked (the data, not the recipe); `dbt build` (every model,
data test and unit test); one run of the export generator. And:

- each blanked row is rejected with `missing:<label>`, and every other quarantined row keeps the
  new label as given;
- in each training view the new label is the one value that every accepted HUMAN row of the pair's
  records gives it (the sample maker never flips a label it was not written for);
- metric_values' `recall` and retrieval_metrics' `recall_at_k` equal Recall@K computed here from
  the independent reference's chunk consensus (dev/tests/reference) per run and K;
- the copy passes the documentation checks of test_docs.py (every column of every table and seed
  described, the new macro and its arguments too);
- the generator writes the new labels in the spec's place, with both values and with rows it
  rejects for them;
- the files each change altered are the files its list in docs/extending.md names, every one of
  them (but those the page says are not rehearsed here).
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import duckdb
import pytest
import reference as R
import test_project_structure as structure
from export_data import read_boolean
from export_schema import COLUMNS, LABELS, write_csv
from kit import docs_checks
from kit.builds import PROJECT, prepare_project, run_dbt

pytestmark = pytest.mark.slow                      # dbt builds of their own on copies of the project
SCENARIOS_USED = ["sample"]

# task -> (the new label, the task's last label whose entries it copies, its doc)
NEW_LABELS = {
    "retrieval": ("outdated", "misleading", "Label: the chunk's facts are out of date. Boolean, required."),
    "grounding": ("hedged", "fabricated_source",
                  "Label: the answer marks what the context does not settle. Boolean, required."),
    "generation": ("concise", "unsafe_content", "Label: the answer says what it has to say in few words. Boolean,"
                   " required."),
}
# the sample's value of the new label of grounding and generation: that of another label of the topic
SAMPLE_VALUE_OF = {"grounding": "source_cited", "generation": "helpful"}
# the files docs/extending.md names that this test does not write (it says so there)
NOT_REHEARSED = {"dev/tests/reference/__init__.py"}

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

RECALL_RULE = ("- `recall`: Recall@K = the record's relevant chunks with rank ≤ K / its relevant chunks, and 0\n"
               "  when it has none.\n")


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


def label_column_entries(task: str) -> dict[str, list[str]]:
    """Where make test wants a new label's column described (test_docs.py): each file's models, each
    getting a copy of the task's last label's entry under the new name."""
    consensus = ({"models/intermediate/retrieval/_retrieval__models.yml": ["int_retrieval__chunk_consensus"]}
                 if task == "retrieval" else
                 {"models/intermediate/records/_records__models.yml": ["int_records__consensus"]})
    return {
        "seeds/_seeds.yml": [f"{task}_annotations"],
        "models/staging/native/_native__models.yml": [f"stg_native__{task}"],
        "models/staging/annotation_exports/_annotation_exports__models.yml":
            ["base_annotation_exports__input_rows", "base_annotation_exports__annotations",
             "stg_annotation_exports__annotations"],
        "models/intermediate/annotations/_annotations__models.yml":
            ["int_annotations__row_checks", "int_annotations__validated", "int_annotations__accepted_rows"],
        "models/intermediate/training/_training__models.yml": ["int_training__units", "int_training__pairs"],
        **consensus,
    }


def copy_label_entries(project: Path, path: str, model: str, label: str, new: str) -> None:
    """In `model`'s block of the YAML file, each column entry of `label` (and `<label>_raw`) is
    followed by a copy of itself for `new`, as docs/extending.md tells a user to do."""
    file = project / path
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


def add_labels(project: Path) -> None:
    """Items 1 to 11 of the label recipe, for the three labels."""
    edits = Edits(project)
    text_type = "{{ 'string' if target.type == 'spark' else 'varchar' }}"
    for task, (new, last, doc) in NEW_LABELS.items():
        labels = ", ".join(LABELS[task])
        edits.replace("label", "dbt_project.yml", f"labels: [{labels}]", f"labels: [{labels}, {new}]")
        edits.replace("label", "dbt_project.yml", f"        {last}: *text\n", f"        {last}: *text\n        {new}: *text\n")
        edits.replace("label", "models/marts/quarantine/_quarantine__models.yml", "      - name: task_type\n",
                      f"      - name: {new}\n        data_type: \"{text_type}\"\n"
                      f"        description: Original value ({task}).\n      - name: task_type\n")
        training = "models/marts/training/_training__models.yml"
        yaml_text = (project / training).read_text(encoding="utf-8")
        block = re.search(rf"  - name: {task}_training_pairs\n.*?      - name: n_annotators\n", yaml_text, re.S)
        assert block, training
        edits.replace("label", training, block.group(0), block.group(0).replace(
            "      - name: n_annotators\n",
            f"      - name: {new}\n        data_type: integer\n        description: The consensus value, 0 or 1.\n"
            "      - name: n_annotators\n"))
        edits.replace("label", "seeds/_seeds__docs.md", "{% docs col_annotator_kind %}",
                      f"{{% docs col_{new} %}}{doc}{{% enddocs %}}\n{{% docs col_annotator_kind %}}")
        for path, models in label_column_entries(task).items():
            for model in models:
                copy_label_entries(project, path, model, last, new)
    texts = project / "dev" / "generate" / "sample_texts.yaml"
    text = texts.read_text(encoding="utf-8")
    for task, other in SAMPLE_VALUE_OF.items():
        def with_value(match, task=task, other=other):
            value = re.search(rf"\b{other}: ([01])\b", match.group(2)).group(1)
            return f"{match.group(1)}{{{match.group(2)}, {NEW_LABELS[task][0]}: {value}}}"
        text, n = re.subn(rf"^(  {task}: )\{{(.*)\}}$", with_value, text, flags=re.M)
        assert n > 0, f"sample_texts.yaml: no topic's {task} labels"
    texts.write_text(text, encoding="utf-8")


def add_measure(project: Path) -> None:
    edits = Edits(project)
    edits.replace("measure", "dbt_project.yml",
                  "    - {family: retrieval, metric: ndcg, column: ndcg, higher_is_better: true, interval: mean}\n",
                  "    - {family: retrieval, metric: ndcg, column: ndcg, higher_is_better: true, interval: mean}\n"
                  "    - {family: retrieval, metric: recall, column: recall, higher_is_better: true, interval: mean}\n")
    edits.create("measure", "macros/metrics/ragmart_recall_at_k.sql", RECALL_MACRO)
    macros = project / "macros/metrics/_metrics__macros.yml"
    macros.write_text(macros.read_text(encoding="utf-8").rstrip("\n") + RECALL_MACRO_YAML, encoding="utf-8")
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
    semantic = "models/semantic/_semantic__semantic_models.yml"
    text = (project / semantic).read_text(encoding="utf-8")
    ndcg = re.search(r"  - name: ndcg\n.*?(?=\n  - name: )", text, re.S).group(0)
    recall = (ndcg.replace("ndcg", "recall").replace("NDCG@K", "Recall@K")
              .replace("Mean over queries of DCG@K / IDCG@K (0 when IDCG@K = 0), grades 2 / 1 / 0.",
                       "Mean over queries of the share of their relevant chunks ranked within K (0 when none is)."))
    assert recall.count("Recall@K") == 1 and "DCG" not in recall, recall
    edits.replace("measure", semantic, ndcg + "\n", ndcg + "\n" + recall + "\n")
    edits.replace("measure", "docs/rules.md", "- NDCG@K = DCG@K / IDCG@K, and 0 when IDCG@K = 0.\n",
                  "- NDCG@K = DCG@K / IDCG@K, and 0 when IDCG@K = 0;\n" + RECALL_RULE)


def snapshot(project: Path) -> dict[str, str]:
    """The copy's files (not what a build or a test run leaves) by path, with their sha256."""
    skip = {"target", "logs", "__pycache__", ".pytest_cache"}
    return {path.relative_to(project).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in project.rglob("*")
            if path.is_file() and not skip & set(path.relative_to(project).parts) and ".duckdb" not in path.name}


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def run_script(project: Path, *args: str, env: dict | None = None) -> None:
    result = subprocess.run([sys.executable, *args], cwd=project, capture_output=True, text=True,
                            env=env, timeout=600)
    assert result.returncode == 0, f"{' '.join(args)}:\n{(result.stdout + result.stderr)[-3000:]}"


def blank_new_labels(project: Path) -> dict[str, dict]:
    """In each task's seed, the new label of the first judge's row (LLM or CODE) alone in its
    submission (unit and annotator) made blank, so that the human consensus stays as it is;
    returns that row per task."""
    with open(project / "seeds" / "annotators.csv", newline="", encoding="utf-8") as fh:
        judges = {row["annotator_id"] for row in csv.DictReader(fh) if row["annotator_kind"] in ("LLM", "CODE")}
    blanked = {}
    for task, (new, _, _) in NEW_LABELS.items():
        path = project / "seeds" / f"{task}_annotations.csv"
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        key = [*(["chunk_id"] if task == "retrieval" else []), "record_uuid", "annotator_id"]
        submissions = Counter(tuple(row[c] for c in key) for row in rows)
        row = next(row for row in rows if submissions[tuple(row[c] for c in key)] == 1
                   and read_boolean(row[new]) is not None and row["task"] == task and row["annotator_id"] in judges)
        blanked[task] = dict(row)
        row[new] = ""
        write_csv(path, list(rows[0]), rows)
    return blanked


@pytest.fixture(scope="module")
def extended(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extending")
    project = prepare_project(folder, None)
    start = snapshot(project)
    add_labels(project)
    run_script(project, "dev/generate/make_sample_seeds.py", "--quiet")
    run_script(project, "dev/tests/fixtures/make_edge_cases.py",
               env={**os.environ, "PYTHONPATH": "scripts/lib:dev/generate"})
    run_script(project, "dev/fixtures/make_langfuse_fixtures.py")
    labelled = snapshot(project)
    add_measure(project)
    touched = {"label": changed(start, labelled), "measure": changed(labelled, snapshot(project))}
    checks = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                             *(f"dev/tests/{module}" for module in ("test_spec.py", "test_sample.py", "test_reference.py",
                                                                     "test_export_data.py", "test_fixture_scripts.py"))],
                            cwd=project, capture_output=True, text=True, timeout=600)
    blanked = blank_new_labels(project)
    generated = folder / "generated"
    run_script(project, "dev/generate/generate_exports.py", "--records", "600", "--chunks", "4", "--bad-rate", "0.2",
               "--jobs", "1", "--quiet", "--out", str(generated))
    result = run_dbt(project, ["build"], env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"}, log=folder / "build.log")
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    con = duckdb.connect(str(folder / "ragmart.duckdb"), read_only=True)
    yield {"project": project, "touched": touched, "checks": checks, "blanked": blanked, "generated": generated,
           "con": con}
    con.close()


def test_the_extended_project_passes_the_checks_of_make_test_without_a_build(extended):
    checks = extended["checks"]
    assert checks.returncode == 0, (checks.stdout + checks.stderr)[-4000:]


def test_the_extended_project_passes_the_documentation_checks(extended):
    """What `make test` asks of the docs (test_docs.py), on the copy: every new column of every
    model and seed has its YAML entry, the new macro its description and arguments."""
    project = extended["project"]
    manifest = json.loads((project / "target" / "manifest.json").read_text())
    columns = docs_checks.table_columns(project.parent / "ragmart.duckdb")
    problems = (docs_checks.undocumented_model_columns(manifest, columns)
                + docs_checks.undocumented_seed_columns(manifest, columns)
                + docs_checks.undocumented_macros(manifest))
    assert not problems, "\n".join(problems)


def documented_files(change: str) -> str:
    """The bullet of docs/extending.md that says what the change touches."""
    text = (PROJECT / "docs" / "extending.md").read_text(encoding="utf-8")
    start = {"label": "- **A label of an export**", "measure": "- **A retrieval measure**",
             "source system": "- **A source system**"}[change]
    assert start in text, f"docs/extending.md has no bullet {start!r}"
    bullet = text[text.index(start):]
    ends = [i for i in (bullet.find("\n- **", 1), bullet.find("\n## ")) if i > 0]
    return bullet[:min(ends)] if ends else bullet


def listed_files(change: str) -> list[str]:
    """The files and folders (a path ending in /) that the numbered items of the change's bullet
    name in backquotes, <placeholders> kept."""
    items = re.split(r"\n\s+\d+\. ", documented_files(change))[1:]
    assert items, f"docs/extending.md numbers no file for a {change}"
    items[-1] = items[-1].split("\n\n")[0]
    spans = [span for item in items for span in re.findall(r"`([^`\s]+)`", item)]
    return [span for span in spans if re.fullmatch(r"[\w.<>/-]+(\.(yml|yaml|md|sql|csv|py)|/)", span)
            and ("/" in span or (PROJECT / span).is_file())]


def names(listed: str, path: str) -> bool:
    pattern = re.sub(r"<\w+>", "[^/]+", re.escape(listed).replace(r"\<", "<").replace(r"\>", ">"))
    return re.fullmatch(pattern + (".*" if listed.endswith("/") else ""), path) is not None


@pytest.mark.parametrize("change", ["label", "measure"])
def test_each_change_touches_the_files_extending_lists_all_of_them_and_no_other(extended, change):
    touched, listed = extended["touched"][change], listed_files(change)
    unlisted = sorted(path for path in touched if not any(names(entry, path) for entry in listed))
    assert not unlisted, f"docs/extending.md does not name {unlisted} for a {change}"
    untouched = [entry for entry in listed
                 if entry not in NOT_REHEARSED and not any(names(entry, path) for path in touched)]
    assert not untouched, f"docs/extending.md names {untouched} for a {change}, which it did not change"


def key(row: dict) -> tuple:
    """A row's record, annotator, created_at and chunk as given, blank (or null) as ''."""
    return tuple((row.get(column) or "").strip() for column in ("record_uuid", "annotator_id", "created_at", "chunk_id"))


def test_each_new_label_is_checked_and_kept_in_the_quarantine(extended):
    con = extended["con"]
    for task, (new, _, _) in NEW_LABELS.items():
        row = extended["blanked"][task]
        rows = [(*key(dict(zip(("record_uuid", "annotator_id", "created_at", "chunk_id"), r[:4]))), *r[4:])
                for r in con.execute("select record_uuid, annotator_id, created_at, chunk_id, reasons, "
                                     f"{new} from rejected_annotations where task = ?", [task]).fetchall()]
        blank = [r for r in rows if r[:4] == key(row)]
        assert len(blank) == 1 and f"missing:{new}" in blank[0][4].split(";"), (task, blank)
        with open(extended["project"] / "seeds" / f"{task}_annotations.csv", newline="", encoding="utf-8") as fh:
            given = defaultdict(set)
            for r in csv.DictReader(fh):
                given[key(r)].add(r[new] or None)
        others = [r for r in rows if r not in blank]
        assert others, f"the sample quarantines other {task} rows"
        assert all(r[5] in given[r[:4]] for r in others), [r for r in others if r[5] not in given[r[:4]]]


def test_each_new_label_reaches_the_training_view_with_its_consensus(extended):
    """The sample maker never flips a label it was not written for: all accepted HUMAN rows of a
    record give the new label one value, which the training pair of the record's texts carries."""
    con = extended["con"]
    for task, (new, _, _) in NEW_LABELS.items():
        votes = defaultdict(set)
        for record, value in con.execute(f"select record_uuid, {new} from intermediate.int_annotations__accepted_rows"
                                         " where task = ? and annotator_kind = 'HUMAN'", [task]).fetchall():
            votes[record].add(value)
        pairs = con.execute(f"select record_uuids, {new} from {task}_training_pairs").fetchall()
        assert pairs and {v for values in votes.values() for v in values} == ({0} if task == "retrieval" else {0, 1})
        for records, value in pairs:
            assert {v for record in records.split(";") for v in votes[record]} == {value}, (task, records, value)


def test_the_generator_writes_the_new_labels(extended):
    generated = extended["generated"]
    with open(generated / "expected_status.csv", newline="", encoding="utf-8") as fh:
        reasons = {reason for row in csv.DictReader(fh) for reason in row["reasons"].split(";")}
    for task, (new, last, _) in NEW_LABELS.items():
        with open(generated / f"{task}_annotations.csv", newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            values = Counter(read_boolean(row[new]) for row in reader)
        header = COLUMNS[task][:COLUMNS[task].index(last) + 1] + [new] + COLUMNS[task][COLUMNS[task].index(last) + 1:]
        assert reader.fieldnames == header
        assert values[1] > 0 and values[0] > values[1], (task, values)
        assert {f"missing:{new}", f"invalid_boolean:{new}"} & reasons, (task, sorted(reasons))


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


def test_the_new_measure_equals_recall_computed_from_the_reference(extended):
    con = extended["con"]
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
                  "{%- set known = ['native', 'phoenix', 'label_studio', 'langfuse', 'mlflow'] -%}",
                  "{%- set known = ['native', 'phoenix', 'label_studio', 'langfuse', 'mlflow', 'toy'] -%}")
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
