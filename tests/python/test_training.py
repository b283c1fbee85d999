"""The training view against an independent reference (reference/training.py), and its export.

* the three marts, every row and value, on the sample, the edge cases and the generated two-run
  data (``random``);
* the splits: every row of one pairing key in one split, in every family and run; the split of a
  key is md5's alone (stable when records are added);
* ``make export-hf`` (scripts/export_hf.py) on the sample build: the folder loads offline with
  the real ``datasets`` library (its own venv, requirements-hf.txt): one config per family, the
  splits with their row counts, the labels as ClassLabel(["no", "yes"]).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict

import pytest
from export_schema import LABELS
from kit.builds import PROJECT
from kit.compare import assert_same_rows
from reference import agreement as A
from reference import training as T

SCENARIOS = ["sample", "edge", "random"]
SCENARIOS_USED = SCENARIOS
FAMILIES = ["retrieval", "grounding", "generation"]
KEYS = {"retrieval": ["record_uuid", "chunk_id"], "grounding": ["record_uuid"], "generation": ["record_uuid"]}


def _expected(build):
    def compute():
        agr = A.compute(build.seed_dir, null_mode=build.null_mode or "agate", ref=build.reference)
        return T.compute(build.reference, agr.tiers)
    return build.derived("training", compute)


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("family", FAMILIES)
def test_training_pairs_equal_the_reference(builds, name, family):
    build = builds.get(name).check()
    expected = _expected(build)[family]
    got = build.marts[f"{family}_training_pairs"][1]
    assert expected or name == "edge", f"[{name}] no resolved {family} unit: the comparison would prove nothing"
    values = ["run_id", "language", "tier", "split", "text", "text_pair", "n_annotators"] + LABELS[family] + (
        ["chunk_rank"] if family == "retrieval" else [])
    assert_same_rows(name, f"{family}_training_pairs", KEYS[family], values, expected, got)


@pytest.mark.parametrize("name", ["sample", "random"])
def test_a_query_never_straddles_two_splits(builds, name):
    build = builds.get(name).check()
    splits = defaultdict(set)
    for family in FAMILIES:
        keys = {rec: info["pairing_key"] for rec, info in build.reference.records[family].items()}
        for row in build.marts[f"{family}_training_pairs"][1]:
            splits[keys[row["record_uuid"]]].add(row["split"])
    assert splits and all(len(found) == 1 for found in splits.values())
    assert {s for found in splits.values() for s in found} == {"train", "validation", "test"}


def test_the_split_follows_the_shares():
    """The reference's rule at its edges (all train, all test) and its shares on many keys."""
    keys = [f"query {i}" for i in range(2000)]
    assert {T.split_of(k, {"train": 1.0, "validation": 0.0, "test": 0.0}) for k in keys} == {"train"}
    assert {T.split_of(k, {"train": 0.0, "validation": 0.0, "test": 1.0}) for k in keys} == {"test"}
    shares = [T.split_of(f"query {i}") for i in range(20000)]
    assert abs(shares.count("train") / 20000 - 0.8) < 0.02 and abs(shares.count("test") / 20000 - 0.1) < 0.02


HF_VENV = os.environ.get("RAGMART_HF_VENV", str(PROJECT / ".venv-hf"))


@pytest.fixture(scope="module")
def hf_folder(builds, tmp_path_factory):
    build = builds.get("sample").check()
    out = tmp_path_factory.mktemp("hf") / "dataset"
    result = subprocess.run([sys.executable, str(PROJECT / "scripts" / "export_hf.py"), "--database",
                             str(build.db_path), "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return build, out


def test_export_hf_loads_with_datasets_offline(hf_folder):
    build, folder = hf_folder
    python = os.path.join(HF_VENV, "bin", "python")
    if not os.path.exists(python):
        pytest.skip(f"{python} is missing: make test sets up the venv of the datasets library (requirements-hf.txt)")
    script = """
import json, sys
import datasets
out = {}
for config in ("retrieval", "grounding", "generation"):
    d = datasets.load_dataset(sys.argv[1], config)
    out[config] = {split: {"rows": d[split].num_rows,
                           "features": {name: repr(feature) for name, feature in d[split].features.items()}}
                   for split in d}
print(json.dumps(out))
"""
    env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(folder.parent / "hf_home"))
    result = subprocess.run([python, "-c", script, str(folder)], capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = json.loads(result.stdout.strip().splitlines()[-1])
    for family in FAMILIES:
        rows = build.marts[f"{family}_training_pairs"][1]
        counts = defaultdict(int)
        for row in rows:
            counts[row["split"]] += 1
        assert {split: info["rows"] for split, info in loaded[family].items()} == dict(counts), family
        for info in loaded[family].values():
            features = info["features"]
            for label in LABELS[family]:
                assert "ClassLabel" in features[label] and "'no', 'yes'" in features[label], (family, label, features)
            assert "string" in features["text"] and "string" in features["text_pair"]
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\n") and "config_name: retrieval" in card
