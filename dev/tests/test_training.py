"""The training view against an independent reference (reference/training.py), and its exports.

* the three marts, every row and value, on the sample, the edge cases and the generated two-run
  data (``random``: the same pair judged in several runs, pairs whose units disagree, one query
  text asked with and without a query_id) and the three-run ``query_groups`` data (chains of ids
  and texts, pairs of gold and triage units); the pairs left out are counted in the build log,
  apart for gold units that disagree and for the units of pairs without gold units;
* gold authority: pairs whose triage units disagree with their gold units are rows with the gold
  labels; pairs whose gold units disagree are not;
* the splits: every record's query group key against a union-find; no query id and no query text
  has rows in two splits (any family); one propagation pass too few fails the build; the split of
  a key is md5's alone;
* ``make export-hf`` (scripts/export_hf.py): the folder loads offline with the real ``datasets``
  library (its own venv, requirements-hf.txt) as a user loads it: one config per family, the
  splits with their rows, the labels as ClassLabel(["no", "yes"]) and ``labels`` as a list of
  floats; files named by their content; a second export of other rows into the same folder loads
  the new rows, with no cache flag;
* ``make export-gold`` (scripts/export_gold.py): every line against the reference's gold-tier rows
  and their units.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

import duckdb
import pytest
from export_schema import LABELS
from generate import QUERY_GROUP_CHAIN as T_CHAIN
from kit.builds import PROJECT, run_dbt
from kit.compare import assert_same_rows
from reference import agreement as A
from reference import training as T

SCENARIOS = ["sample", "edge", "random", "query_groups"]
SCENARIOS_USED = SCENARIOS
FAMILIES = ["retrieval", "grounding", "generation"]
KEY = ["text", "text_pair"]
VALUES = ["split", "language", "tier", "n_units", "n_annotators", "run_ids", "record_uuids"]


def _expected(build):
    def compute():
        agr = A.compute(build.seed_dir, null_mode=build.null_mode or "agate", ref=build.reference)
        return T.compute(build.reference, agr.tiers)
    return build.derived("training", compute)


def _bytes_order(rows):
    return sorted(rows, key=lambda row: (row["text"].encode("utf-8"), row["text_pair"].encode("utf-8")))


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("family", FAMILIES)
def test_training_pairs_equal_the_reference(builds, name, family):
    build = builds.get(name).check()
    expected = _expected(build)[family]["rows"]
    got = build.marts[f"{family}_training_pairs"][1]
    assert expected or name == "edge", f"[{name}] no resolved {family} unit: the comparison would prove nothing"
    assert_same_rows(name, f"{family}_training_pairs", KEY, VALUES + LABELS[family], expected, got)


@pytest.mark.parametrize("name", ["sample", "random"])
def test_the_data_has_what_the_rules_are_about(builds, name):
    """Repeats across runs, pairs whose units disagree, and pairs that merge records with and
    without a query_id: the comparison above proves the rules on them."""
    build = builds.get(name).check()
    rows = build.marts["retrieval_training_pairs"][1]
    assert any(row["n_units"] > 1 and ";" in row["run_ids"] for row in rows)
    assert _expected(build)["retrieval"]["n_conflicting"] > 0
    query_ids = {rec: info["query_id"] for rec, info in build.reference.record_runs["retrieval"].items()}
    mixed = [row for row in rows if len({query_ids.get(rec) is None for rec in row["record_uuids"].split(";")}) == 2]
    assert mixed, f"[{name}] no pair merges records with and without a query_id"


def test_the_query_groups_data_has_what_the_rules_are_about(builds):
    """Gold authority and query groups at work: kept pairs whose triage units disagree with the gold
    ones, pairs left out because their gold units disagree, groups that only a chain of several ids
    and texts makes, and a grounding pair of two query texts (a link of its own)."""
    build = builds.get("query_groups").check()
    expected = _expected(build)
    for family in FAMILIES:
        overruled = 0
        for row in expected[family]["rows"]:
            units = expected[family]["units"][(row["text"], row["text_pair"])]
            if {unit["tier"] for unit in units} == {"tier_a", "tier_b"}:
                values = {tuple(build.reference.units[family][
                    (unit["record_uuid"], unit["chunk_id"]) if family == "retrieval" else (unit["record_uuid"],)
                ]["labels"][label] for label in LABELS[family]) for unit in units}
                overruled += len(values) > 1
        assert overruled > 0, f"no {family} pair keeps its gold labels over disagreeing triage units"
        assert expected[family]["n_conflicting_gold"] > 0 and expected[family]["n_conflicting_triage"] > 0, family
    keys = T.query_keys(build.reference)
    groups = defaultdict(set)
    for family in FAMILIES:
        for rec, text in T._query_texts(build.reference, family).items():
            query_id = build.reference.record_runs[family].get(rec, {}).get("query_id")
            groups[keys[rec]] |= {("id", query_id)} if query_id else set()
            groups[keys[rec]].add(("text", text))
    assert max(len(members) for members in groups.values()) >= 3 * T_CHAIN, "no chain of ids and texts"
    texts = T._query_texts(build.reference, "grounding")
    assert any(len({texts[info["record_uuid"]] for _, info, _ in members}) > 1
               for members in T._pairs(build.reference, "grounding").values()), "no grounding pair asks two texts"


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_pairs_left_out_are_counted_in_the_build_log(builds, name):
    build = builds.get(name).check()
    expected = {family: _expected(build)[family]["n_conflicting"] for family in FAMILIES}
    with duckdb.connect(str(build.db_path), read_only=True) as con:
        got = {family: con.execute("select count(*) from intermediate.int_training__pairs"
                                   " where task = ? and has_conflicting_labels", [family]).fetchone()[0]
               for family in FAMILIES}
    assert got == expected
    gold = sum(_expected(build)[family]["n_conflicting_gold"] for family in FAMILIES)
    triage = sum(_expected(build)[family]["n_conflicting_triage"] for family in FAMILIES)
    line = (f"ragmart: {sum(expected.values()):,} training pairs left out, their units disagree on a label"
            " (int_training__pairs flags them): "
            + ", ".join(f"{family} {n:,}" for family, n in expected.items())
            + f" (gold units disagree in {gold:,}, triage units of pairs without gold units in {triage:,})")
    assert (line in build.output) == (sum(expected.values()) > 0), (line, build.output[-3000:])


@pytest.mark.parametrize("name", ["sample", "random", "query_groups"])
def test_every_record_has_its_query_groups_key(builds, name):
    """int_training__query_keys against the reference's union-find, record by record, settled."""
    build = builds.get(name).check()
    expected_pairs = {task: {pair: [info["record_uuid"] for _, info, _ in members]
                             for pair, members in T._pairs(build.reference, task).items()}
                      for task in FAMILIES}
    keys = T.query_keys(build.reference, expected_pairs)
    with duckdb.connect(str(build.db_path), read_only=True) as con:
        got = con.execute("select task, record_uuid, query_key, is_group_settled"
                          " from intermediate.int_training__query_keys").fetchall()
    assert got and all(settled for *_, settled in got)
    assert {(task, rec): key for task, rec, key, _ in got} == {
        (task, rec): keys[rec] for task in FAMILIES for rec in T._query_texts(build.reference, task)}


@pytest.mark.parametrize("name", ["sample", "random", "query_groups"])
def test_no_query_id_and_no_query_text_has_rows_in_two_splits(builds, name):
    """Every query id and every normalized query text of the records (their accepted HUMAN rows',
    from the seeds) has the rows of all three marts that its records take part in in one split.
    The sample's query asked in `default` without a query_id and in bot-v2 with one is among them."""
    build = builds.get(name).check()
    splits = defaultdict(set)
    for family in FAMILIES:
        texts = T._query_texts(build.reference, family)
        for row in build.marts[f"{family}_training_pairs"][1]:
            for rec in row["record_uuids"].split(";"):
                query_id = build.reference.record_runs[family].get(rec, {}).get("query_id")
                if query_id:
                    splits[("id", query_id)].add(row["split"])
                splits[("text", texts[rec])].add(row["split"])
    straddling = {query: found for query, found in splits.items() if len(found) > 1}
    assert not straddling, straddling
    assert len(splits) > 20 and len({split for found in splits.values() for split in found}) >= 2
    if name == "sample":
        assert ("text", "How much citizen's income does a single adult get?") in splits


@pytest.mark.slow
def test_one_pass_too_few_fails_the_build(builds, tmp_path):
    """The query groups of the query_groups data need several propagation passes: with one, a
    label would still change, and the data test on is_group_settled fails the build."""
    build = builds.get("query_groups").check()
    project = build.copy(tmp_path)
    variables = {**build.vars, "training_query_group_passes": 1}
    out = run_dbt(project, ["build", "--select", "int_training__query_keys", "--vars", json.dumps(variables)],
                  env={"RAGMART_DUCKDB_PATH": "ragmart.duckdb"})
    text = out.stdout + out.stderr
    assert out.returncode != 0 and "is_group_settled" in text, text[-3000:]


def test_the_split_follows_the_shares():
    """The reference's rule at its edges (all train, all test) and its shares on many keys."""
    keys = [f"query {i}" for i in range(2000)]
    assert {T.split_of(k, {"train": 1.0, "validation": 0.0, "test": 0.0}) for k in keys} == {"train"}
    assert {T.split_of(k, {"train": 0.0, "validation": 0.0, "test": 1.0}) for k in keys} == {"test"}
    shares = [T.split_of(f"query {i}") for i in range(20000)]
    assert abs(shares.count("train") / 20000 - 0.8) < 0.02 and abs(shares.count("test") / 20000 - 0.1) < 0.02


# --------------------------------------------------------------------------- make export-hf

HF_VENV = os.environ.get("RAGMART_HF_VENV", str(PROJECT / ".venv-hf"))
LOAD = """
import json, sys
import datasets
out = {}
for config in ("retrieval", "grounding", "generation"):
    d = datasets.load_dataset(sys.argv[1], config)
    out[config] = {split: {"features": {name: repr(feature) for name, feature in d[split].features.items()},
                           "rows": [dict(row) for row in d[split]]}
                   for split in d}
print(json.dumps(out))
"""


def _export(script: str, database, out) -> str:
    result = subprocess.run([sys.executable, str(PROJECT / "scripts" / script), "--database", str(database),
                             "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _load(folder, hf_home):
    """datasets.load_dataset of every config, as a user calls it (no cache flag), offline."""
    python = os.path.join(HF_VENV, "bin", "python")
    if not os.path.exists(python):
        pytest.skip(f"{python} is missing: make test sets up the venv of the datasets library (requirements-hf.txt)")
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(hf_home))
    result = subprocess.run([python, "-c", LOAD, str(folder)], capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _assert_loaded_equals_marts(build, loaded):
    for family in FAMILIES:
        rows = build.marts[f"{family}_training_pairs"][1]
        by_split = defaultdict(list)
        for row in rows:
            by_split[row["split"]].append(row)
        assert sorted(loaded[family]) == sorted(by_split), family
        for split, info in loaded[family].items():
            features = info["features"]
            for label in LABELS[family]:
                assert "ClassLabel" in features[label] and "'no', 'yes'" in features[label], (family, label, features)
            assert "string" in features["text"] and "string" in features["text_pair"]
            assert "float32" in features["labels"] and "List" in features["labels"], features["labels"]
            expected = [{**row, "labels": [float(row[label]) for label in LABELS[family]]}
                        for row in _bytes_order(by_split[split])]
            assert info["rows"] == expected, (build.name, family, split)


def _named_files(folder):
    """The data files the card names, relative to the folder."""
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "config_name: retrieval" in card
    return sorted(re.findall(r"^    path: (\S+)$", card, re.M))


def test_export_hf_loads_the_new_rows_after_a_second_export(builds, tmp_path):
    """Exports the sample, loads it; exports the generated data into the same folder and loads it
    again with the same cache: the second load returns the second export's rows."""
    sample, random = builds.get("sample").check(), builds.get("random").check()
    folder, hf_home = tmp_path / "dataset", tmp_path / "hf_home"
    for build in (sample, random):
        printed = _export("export_hf.py", build.db_path, folder)
        for family in FAMILIES:
            n = _expected(build)[family]["n_conflicting"]
            assert f"{family}: " in printed and f"; {n:,} pair(s) left out" in printed
            gold, triage = _expected(build)[family]["n_conflicting_gold"], _expected(build)[family]["n_conflicting_triage"]
            assert (f"Pairs left out because their units disagree on a label: {n:,} (gold units disagree in"
                    f" {gold:,}, the units of a pair without gold units in {triage:,}).") in \
                (folder / "README.md").read_text(encoding="utf-8")
        named = _named_files(folder)
        on_disk = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.parquet"))
        assert named == on_disk, "the folder holds exactly the files its card names"
        for path in named:
            digest = hashlib.sha256((folder / path).read_bytes()).hexdigest()[:8]
            assert re.fullmatch(rf"(retrieval|grounding|generation)/(train|validation|test)-{digest}\.parquet", path)
        _assert_loaded_equals_marts(build, _load(folder, hf_home))


# --------------------------------------------------------------------------- make export-gold

@pytest.mark.parametrize("name", ["sample", "random", "query_groups"])
def test_export_gold_writes_the_gold_rows_line_by_line(builds, tmp_path, name):
    """Every line against the reference's tier_b rows, its units (record, chunk in retrieval, tier)
    included, and against the mart."""
    build = builds.get(name).check()
    _export("export_gold.py", build.db_path, tmp_path / "gold")
    assert sorted(p.name for p in (tmp_path / "gold").iterdir()) == sorted(f"{f}.jsonl" for f in FAMILIES)
    for family in FAMILIES:
        expected = _expected(build)[family]
        gold = _bytes_order([row for row in expected["rows"] if row["tier"] == "tier_b"])
        assert gold, f"[{name}] no gold {family} pair"
        mart = _bytes_order([row for row in build.marts[f"{family}_training_pairs"][1] if row["tier"] == "tier_b"])
        assert [(row["text"], row["text_pair"]) for row in mart] == [(row["text"], row["text_pair"]) for row in gold]
        lines = (tmp_path / "gold" / f"{family}.jsonl").read_bytes().decode("utf-8").split("\n")
        assert lines[-1] == "" and len(lines) == len(gold) + 1
        for line, row in zip(lines, gold):
            assert json.loads(line) == {
                "text": row["text"], "text_pair": row["text_pair"],
                "labels": {label: row[label] for label in LABELS[family]},
                "split": row["split"], "language": row["language"], "n_annotators": row["n_annotators"],
                "run_ids": row["run_ids"].split(";"), "record_uuids": row["record_uuids"].split(";"),
                "units": expected["units"][(row["text"], row["text_pair"])]}, (name, family)


def test_the_readme_lists_the_export_commands():
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    assert "make export-hf" in readme and "make export-gold" in readme
