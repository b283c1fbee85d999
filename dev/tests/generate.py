"""The test suite's generated data sets: random but reproducible annotation exports.

Generators write data and the outcome they were built for; the rules are applied by the
reference package (dev/tests/reference/), never here. The data sets:

* ``generate(out_dir, seed=...)`` (scenario ``random``), below;
* ``agreement_scenario(out_dir)``: 1-4 voters per unit, rare and perfect labels, every routing
  rule of records.csv (RECORD_CASES, BAD_RECORD_CASES), runs;
* ``agreement_slices_scenario(out_dir)``: agreement high overall and low in one task type and
  one language (docs/rules.md, Agreement where it is tracked);
* ``judges_scenario(out_dir)``: the agreement scenario plus judges of every kind and quality and
  hand-made cases (HAND_*, VOTE_*), built from the human consensus of the references;
* ``without_judges(seed_dir, out)``: a copy of seeds without the rows of LLM and CODE annotators;
* ``generation_row`` / ``write_generation_case``: the hand-made generation cases of the
  agreement and protocol tests.

Each is a set of parameters of the writer's random data sets (``export_data.Scenario``) plus the
cases that are data (records.csv rows, the judges' hand-made records).

``generate(out_dir, seed=...)`` writes retrieval/grounding/generation annotation CSVs and
annotators.csv: a few hundred records per family, 1-3 human annotators each, disagreements,
adjudications, LLM/CODE judge rows, an annotator missing from annotators.csv, timestamps in
mixed formats and offsets, older submissions (superseded), same-instant duplicates (agreeing
and conflicting), rank conflicts, and a few percent of bad cells (missing, invalid booleans
including the literal ``null``, invalid ranks, timestamps, languages, wrong task, constraint
violations).  records.csv puts the records in evaluation runs: ``v1``, ``v2`` (also padded
with spaces), an empty run_id (the default run) or no records row at all (default run), some
with a query_id; plus records rows that are rejected (no record_uuid; two rows of one record
with different runs) or name a record of no export (its run must not appear).

The generator avoids the situations the contract leaves open (see reference.ambiguities):
duplicated rows never carry unparseable labels, and agreeing duplicates copy rank and
language.

Usage: ``PYTHONPATH=scripts python dev/tests/generate.py OUT_DIR [SEED]``.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import reference as R
from export_data import (  # dev/generate/, on pytest's pythonpath
    Scenario,
    export_row,
    flipped,
    scenario_exports,
    violated,
    write_folder,
)
from export_schema import COLUMNS, LABELS, labels_valid, made_valid, write_csv
from reference import agreement as A
from reference import judges as J

ANNOTATORS = [
    ("a1", "HUMAN", "annotator", "Anna"), ("a2", "HUMAN", "annotator", "Ben"),
    ("a3", "HUMAN", "annotator", "Cem"), ("a4", "HUMAN", "annotator", "Dana"),
    ("a5", "HUMAN", "annotator", "Eli"),
    ("adj1", "HUMAN", "adjudicator", "Frida"), ("adj2", "HUMAN", "adjudicator", "Gus"),
    ("llm_judge", "LLM", "annotator", "LLM judge"),
    ("rule_judge", "CODE", "annotator", "rule judge"),
]
VOTERS = ["a1", "a2", "a3", "a4", "a5", "ext_guest"]   # ext_guest: not in annotators.csv

# The random scenario: label -> (prevalence of the truth, flip probability per vote).
RANDOM_LABELS = {
    "retrieval": {"topically_relevant": (0.5, 0.05), "evidence_sufficient": (0.25, 0.05),
                  "misleading": (0.15, 0.05)},
    "grounding": {"support_present": (0.7, 0.06), "unsupported_claim_present": (0.4, 0.06),
                  "contradicted_claim_present": (0.16, 0.06), "source_cited": (0.6, 0.06),
                  "fabricated_source": (0.18, 0.06)},
    "generation": {"proper_action": (0.8, 0.06), "response_on_topic": (0.85, 0.06),
                   "helpful": (0.7, 0.06), "incomplete": (0.3, 0.06), "unsafe_content": (0.1, 0.06)},
}
# 1-3 voters per record, adjudication mostly where they disagree, judges of both kinds, 1-8 chunks
# with rank gaps and conflicts, and records asking one of 70 queries per family, so that the runs
# share queries (pairs of the run comparison) and a run may hold several records of one query.
RANDOM = Scenario(labels=RANDOM_LABELS, voters=VOTERS, n_voters=[1, 2, 2, 3, 3],
                  adjudicators=["adj1", "adj2"], adjudicated=(0.5, 0.03), adjudications=[1, 1, 2],
                  judges=["llm_judge", "rule_judge"], judged=0.4, judge_flip=0.1,
                  chunks=range(1, 9), rank_gaps=0.3, rank_conflicts=0.04, queries=70)


def generation_row(rec: str, ann: str, when: str, helpful: str = "true", **labels) -> dict:
    """A generation export row of a hand-made case: proper_action, response_on_topic and helpful
    true, incomplete, unsafe_content (and any other label of the spec) false, unless given (as cells)."""
    return export_row("generation", {label: 0 for label in LABELS["generation"]}
                      | {"proper_action": 1, "response_on_topic": 1, "incomplete": 0, "unsafe_content": 0},
                      **{"record_uuid": rec, "annotator_id": ann, "language": "en", "created_at": when,
                         "query": "q", "answer": "a", "helpful": helpful, **labels})


def write_generation_case(out: Path, generation_rows: list[dict], records_rows: list) -> None:
    """A hand-made seed folder: the generation rows, empty retrieval and grounding exports, the
    annotators h1, h2 (HUMAN annotators), adj (HUMAN adjudicator) and llm (LLM), and records.csv
    rows (record_uuid, task_type, model_uncertainty, is_adversarial, tier)."""
    write_folder(out, {"generation": generation_rows},
                 [("h1", "HUMAN", "annotator", ""), ("h2", "HUMAN", "annotator", ""),
                  ("adj", "HUMAN", "adjudicator", ""), ("llm", "LLM", "annotator", "")],
                 records_rows, records_columns=COLUMNS["records"])


def records_rows(record_ids: list[str], seed: int) -> list[dict]:
    """The records.csv rows: runs and query ids for part of the records, and a few bad rows."""
    r = random.Random(seed)
    rows = []
    for rec in record_ids:
        if r.random() < 0.25:
            continue                                    # no records row: default run
        row = {"record_uuid": rec, "run_id": r.choice(["v1", "v1", "v2", "v2", " v2 ", ""])}
        if r.random() < 0.2:
            row["query_id"] = f"q-{r.randint(0, 40)}"
        rows.append(row)
    rows.append({"record_uuid": record_ids[3], "run_id": "v1"})          # a second row, other run:
    rows.append({"record_uuid": record_ids[3], "run_id": "v2"})          # both conflicting_duplicate
    rows.append({"record_uuid": "", "run_id": "v3", "query_id": "q-0"})  # missing:record_uuid
    rows.append({"record_uuid": "not-exported", "run_id": "v9"})          # no record: no run v9
    rows.append(dict(rows[0]))                                            # agreeing duplicate: kept once
    return rows


# Every RERUN_EVERY-th record of each family is asked again, in another run: a copy of all its
# rows under the record id `<id>-rerun` (the same query and chunks or answer: the training view's
# repeats across runs). One copy in three gets one unit's label flipped in all its rows (a pair
# whose units disagree); one in four has its query's first space doubled and a tab added (another
# text, the same normalized query); the copy carries a query_id where the original has none
# (`q-rerun-<n>`, some shared by two copies), and none where the original has one.
RERUN_EVERY = 10
RERUN_FLIPS = {"retrieval": "topically_relevant", "grounding": "support_present", "generation": "helpful"}
QUERY_COLUMNS = {"retrieval": "input_query", "grounding": "query", "generation": "query"}


def _flip(cell: str) -> str:
    value = R.parse_bool(cell)
    return cell if value is None else ("false" if value else "true")


def reruns(exports: dict, records: list[dict]) -> tuple[dict, list[dict]]:
    """The export rows and records.csv rows of the copies (RERUN_EVERY); the given ones unchanged."""
    given = {}
    for row in records:
        given.setdefault(row["record_uuid"], row)
    rows_out = {task: [] for task in exports}
    records_out = []
    for task, rows in exports.items():
        by_record: dict[str, list[dict]] = {}
        for row in rows:
            by_record.setdefault(row["record_uuid"], []).append(row)
        for n, rec in enumerate(list(by_record)[::RERUN_EVERY]):
            copies = [dict(row, record_uuid=f"{rec}-rerun") for row in by_record[rec]]
            if n % 3 == 1:
                label = RERUN_FLIPS[task]
                units = sorted({row.get("chunk_id", "") for row in copies})
                # retrieval: a chunk that no row calls evidence_sufficient, so relevance may flip
                units = [unit for unit in units if task != "retrieval" or all(
                    R.parse_bool(row["evidence_sufficient"]) == 0 for row in copies if row["chunk_id"] == unit)]
                for row in copies:
                    if units and row.get("chunk_id", "") == units[0]:
                        row[label] = _flip(row[label])
            if n % 4 == 2:
                for row in copies:
                    row[QUERY_COLUMNS[task]] = row[QUERY_COLUMNS[task]].replace(" ", "  \t", 1)
            original = given.get(rec, {})
            run = "v1" if (original.get("run_id") or "").strip() != "v1" else "v2"
            query_id = "" if original.get("query_id") else f"q-rerun-{n // 2}"
            rows_out[task] += copies
            records_out.append({"record_uuid": f"{rec}-rerun", "run_id": run, "query_id": query_id})
    return rows_out, records_out


def generate(out_dir, seed: int = 20250301, n_retrieval: int = 200, n_grounding: int = 250,
             n_generation: int = 250) -> Path:
    records = {"retrieval": [f"ret-{i:04d}" for i in range(n_retrieval)],
               "grounding": [f"grd-{i:04d}" for i in range(n_grounding)],
               "generation": [f"gen-{i:04d}" for i in range(n_generation)]}
    exports = scenario_exports(RANDOM, records, seed)
    rows = records_rows([rec for ids in records.values() for rec in ids], seed + 1)
    copies, copy_records = reruns(exports, rows)
    return write_folder(out_dir, {task: exports[task] + copies[task] for task in exports}, ANNOTATORS,
                        rows + copy_records)


# --------------------------------------------------------------------------- the query groups scenario

# The training view's query groups and gold authority. QUERY_GROUP_RECORDS records per family, each
# its own query (grounding's and generation's record i both ask "question i?": one text in two
# families), each asked again in runs v2 and v3:
# * chains: the original (run v1) carries query id q-<record>, its v2 copy the same text under a
#   second id, q-<record>-b (one text, two ids), its v3 copy the id q-<record>-b with the query of
#   the next record of its block of QUERY_GROUP_CHAIN (one id, two texts): a block is one group,
#   found only by following the chain; grounding's v3 copy keeps its answer and context set, so
#   one training pair asks two queries;
# * gold authority: the records rows give the tiers, and the v2 copy has one unit's label flipped
#   (in all its rows), by record i % 4: triage original, gold copy (the gold unit's label wins);
#   gold and gold (the gold units disagree: left out); triage and triage (left out); gold
#   original, triage copy (the gold label wins).
QUERY_GROUP_RECORDS = 48
QUERY_GROUP_CHAIN = 4
QUERY_GROUP_TIERS = [("tier_a", "tier_b"), ("tier_b", "tier_b"), ("tier_a", "tier_a"), ("tier_b", "tier_a")]


def _flip_one_unit(task: str, rows: list[dict]) -> None:
    """Flips RERUN_FLIPS's label of one unit in all its rows (retrieval: a chunk no row calls
    evidence_sufficient, so that relevance may flip)."""
    label = RERUN_FLIPS[task]
    units = sorted({row.get("chunk_id", "") for row in rows})
    units = [unit for unit in units if task != "retrieval" or all(
        R.parse_bool(row["evidence_sufficient"]) == 0 for row in rows if row["chunk_id"] == unit)]
    for row in rows:
        if units and row.get("chunk_id", "") == units[0]:
            row[label] = _flip(row[label])


def query_groups_scenario(out_dir, seed: int = 13) -> Path:
    n = QUERY_GROUP_RECORDS
    records = {task: [f"{task[:3]}-{i:04d}" for i in range(n)] for task in RERUN_FLIPS}
    exports = scenario_exports(RANDOM, records, seed)
    rows_out = {task: [] for task in exports}
    records_out = []
    for task, rows in exports.items():
        by_record: dict[str, list[dict]] = {}
        for row in rows:
            by_record.setdefault(row["record_uuid"], []).append(row)
        column = QUERY_COLUMNS[task]
        for i, rec in enumerate(records[task]):
            original = by_record.get(rec, [])
            following = records[task][i + 1] if (i + 1) % QUERY_GROUP_CHAIN and i + 1 < n else None
            next_query = by_record[following][0][column] if following in by_record else None
            tier, copy_tier = QUERY_GROUP_TIERS[i % 4]
            second = [dict(row, record_uuid=f"{rec}-v2") for row in original]
            _flip_one_unit(task, second)
            third = [dict(row, record_uuid=f"{rec}-v3", **({column: next_query} if next_query else {}))
                     for row in original]
            rows_out[task] += original + second + third
            records_out += [{"record_uuid": rec, "run_id": "v1", "query_id": f"q-{rec}", "tier": tier},
                            {"record_uuid": f"{rec}-v2", "run_id": "v2", "query_id": f"q-{rec}-b", "tier": copy_tier},
                            {"record_uuid": f"{rec}-v3", "run_id": "v3", "query_id": f"q-{rec}-b", "tier": "tier_a"}]
    return write_folder(out_dir, rows_out, ANNOTATORS, records_out)


# --------------------------------------------------------------------------- the agreement scenario

RECORD_CASES = [
    # (task_type, model_uncertainty, is_adversarial, tier) -> expected (tier, rule)
    (("factual_qa", "", "", ""), ("tier_b", "task_type")),
    (("rag_synthesis", "0.1", "false", ""), ("tier_b", "task_type")),
    (("summarization", "0.65", "", ""), ("tier_b", "uncertainty")),       # == threshold
    (("summarization", "0.650", "no", ""), ("tier_b", "uncertainty")),
    (("code_generation", "0.9", "0", ""), ("tier_b", "uncertainty")),
    (("", "1", "", ""), ("tier_b", "uncertainty")),
    (("summarization", "0.649", "", ""), ("tier_a", "default")),          # just below
    (("chitchat", " 0.8 ", "", ""), ("tier_b", "uncertainty")),           # trimmed
    (("code_generation", "0.3", "true", ""), ("tier_b", "adversarial")),
    (("summarization", "", " Yes ", ""), ("tier_b", "adversarial")),
    (("", "", "1", ""), ("tier_b", "adversarial")),
    (("Factual_QA", "0.2", "N", ""), ("tier_a", "default")),              # matched exactly
    (("summarization", "0.2", "false", ""), ("tier_a", "default")),
    (("", "", "", ""), ("tier_a", "default")),                            # in records, no rule
    (("factual_qa", "0.99", "true", "tier_a"), ("tier_a", "explicit")),   # explicit wins
    (("summarization", "0.1", "", " tier_a "), ("tier_a", "explicit")),
    (("summarization", "0.1", "", "tier_b"), ("tier_b", "explicit")),
    (("", "", "", " tier_b"), ("tier_b", "explicit")),
]
BAD_RECORD_CASES = [  # rejected rows: the record is treated as absent
    ("factual_qa", "abc", "", ""), ("factual_qa", "65%", "", ""), ("summarization", "0,7", "", ""),
    ("factual_qa", "0.9", "maybe", ""), ("summarization", "", "2", ""),
    ("factual_qa", "", "", "gold"), ("summarization", "", "", "TIER_A"),
    ("summarization", "", "", "tier_c"),
]


def _random_record_row(r: random.Random) -> tuple:
    return (r.choice(["factual_qa", "rag_synthesis", "summarization", "code_generation",
                      "summarization", "code_generation", "", "Factual_QA"]),
            r.choice(["", "", "0.1", "0.3", "0.5", "0.649", "0.65", "0.8", "1", "0"]),
            r.choice(["", "", "", "false", "0", "no", "true", "yes", "F"]),
            r.choice(["", "", "", "", "", "", "tier_a", "tier_b", " tier_b "]))


GEN_LABELS = {  # label -> (prevalence of the truth, flip probability per vote)
    "generation": {"proper_action": (0.8, 0.12), "response_on_topic": (0.6, 0.0),
                   "helpful": (0.7, 0.2), "incomplete": (0.3, 0.1),
                   "unsafe_content": (0.03, 0.01)},
    "grounding": {"support_present": (0.7, 0.0), "unsupported_claim_present": (0.4, 0.15),
                  "contradicted_claim_present": (0.15, 0.05), "source_cited": (0.6, 0.1),
                  "fabricated_source": (0.03, 0.01)},
    "retrieval": {"topically_relevant": (0.5, 0.15), "evidence_sufficient": (0.25, 0.1),
                  "misleading": (0.05, 0.01)},
}
PERFECT_LABELS = {("generation", "response_on_topic"), ("grounding", "support_present")}
RARE_LABELS = {("generation", "unsafe_content"), ("grounding", "fabricated_source"),
               ("retrieval", "misleading")}


# 1-4 voters per unit (a voter of several sometimes leaves a chunk out), adjudicators and judges
# on some units whatever the votes, 1-4 chunks per retrieval record.
AGREEMENT = Scenario(labels=GEN_LABELS, voters=VOTERS, n_voters=[1, 1, 2, 2, 2, 3, 3, 4],
                     adjudicators=["adj1", "adj2"], adjudicated=(0.2, 0.2),
                     judges=["llm_judge", "rule_judge"], judged=0.3, chunks=range(1, 5), skipped=0.15)


def agreement_scenario(out_dir, seed: int = 12, n_records: int = 320) -> Path:
    """Annotation seeds with 1-4 voters per unit, plus annotators.csv and records.csv.

    Record ids are shared by the three families (a record can be tier_b in one family and
    tier_a in another when it is absent from records.csv). The rows are re-submitted,
    duplicated and spoilt as the writer's scenarios are (export_data.Scenario), so the
    accepted votes are a subset of what was drawn; the perfect-agreement labels are drawn
    without noise, so every accepted vote equals the unit's truth.  records.csv also puts
    about two records in three of its rows into the evaluation runs ``v1`` and ``v2`` (by the
    record id, so that duplicates agree; the others, and the records without a row, are in the
    default run), so that the per-run marts are compared over several runs."""
    r = random.Random(seed)
    rec_ids = [f"rec-{i:04d}" for i in range(n_records)]
    records = {task: r.sample(rec_ids, int(n_records * share))
               for task, share in (("grounding", 0.85), ("generation", 0.85), ("retrieval", 0.45))}
    rows = scenario_exports(AGREEMENT, records, seed)

    # records.csv: the fixed cases first (each on several records), then random rows;
    # ~30 % of the records are absent; some rows are bad or duplicated.
    shuffled = list(rec_ids)
    r.shuffle(shuffled)
    rec_rows = []
    pos = 0
    for case, _ in RECORD_CASES:
        for _ in range(4):
            rec_rows.append((shuffled[pos],) + case)
            pos += 1
    for case in BAD_RECORD_CASES:
        for _ in range(2):
            rec_rows.append((shuffled[pos],) + case)
            pos += 1
    for _ in range(3):   # identical duplicates: count once
        row = (shuffled[pos],) + RECORD_CASES[0][0]
        rec_rows += [row, row]
        pos += 1
    for _ in range(3):   # differing duplicates: all rejected, the record is absent
        rec_rows += [(shuffled[pos], "summarization", "0.1", "", ""),
                     (shuffled[pos], "factual_qa", "0.1", "", "")]
        pos += 1
    rec_rows.append(("", "factual_qa", "0.9", "true", "tier_b"))      # missing record_uuid
    rec_rows.append(("   ", "summarization", "", "", ""))
    n_random = int(n_records * 0.7) - pos
    for _ in range(max(n_random, 0)):
        rec_rows.append((shuffled[pos],) + _random_record_row(r))
        pos += 1
    rec_rows.append(("rec-not-annotated", "factual_qa", "", "", ""))
    r.shuffle(rec_rows)
    return write_folder(out_dir, rows, ANNOTATORS,
                        [[*row, _run_of(row[0]), r.choice(["", "from routing export"])] for row in rec_rows],
                        records_columns=[*COLUMNS["records"], "run_id", "notes"])


# --------------------------------------------------------------------------- agreement by slice

# The slices scenario (docs/rules.md, Agreement where it is tracked): most records are labelled
# carefully (CLEAN_FLIP per vote, in English), the records of one task type (NOISY_TASK_TYPE)
# and those of one language (NOISY_LANGUAGE) carelessly (NOISY_FLIP), so that these two slices
# miss the alpha target while the pooled figure meets it. SLICE_LABELS are the labels built for
# it (prevalence near 1/2, so that alpha measures the noise rather than a rare label).
NOISY_TASK_TYPE = "code_generation"
NOISY_LANGUAGE = "de"
CLEAN_FLIP, NOISY_FLIP = 0.01, 0.2
SLICE_LABELS = {"retrieval": "topically_relevant", "grounding": "source_cited", "generation": "helpful"}
CLEAN_TASK_TYPES = ["factual_qa", "summarization", "rag_synthesis", " summarization ", "   ", None]


def _slice_scenario(flip: float, language: str) -> Scenario:
    # the other labels are always 0, so that no constraint of the spec repairs the built label
    labels = {task: {other: (0.5, flip) if other == label else (0.0, 0.0) for other in LABELS[task]}
              for task, label in SLICE_LABELS.items()}
    return Scenario(labels=labels, voters=VOTERS[:5], n_voters=[2, 2, 3], chunks=range(1, 4),
                    languages={language: 1}, other_language=0.0)


def agreement_slices_scenario(out_dir, seed: int = 5, n_clean: int = 200, n_noisy: int = 30) -> Path:
    """Seeds whose agreement is high overall and low in one task type and one language.

    Every family labels the same records: ``n_clean`` careful English records of the task types
    CLEAN_TASK_TYPES (cycled; ``None``: no records.csv row, a blank one: the task type
    ``unknown``), ``n_noisy`` careless English records of NOISY_TASK_TYPE and ``n_noisy``
    careless NOISY_LANGUAGE records of the clean task types."""
    groups = [("sc", n_clean, CLEAN_FLIP, "en", None), ("st", n_noisy, NOISY_FLIP, "en", NOISY_TASK_TYPE),
              ("sl", n_noisy, NOISY_FLIP, NOISY_LANGUAGE, None)]
    rows: dict[str, list] = {task: [] for task in SLICE_LABELS}
    records = []
    for i, (prefix, n, flip, language, task_type) in enumerate(groups):
        ids = [f"{prefix}-{k:04d}" for k in range(n)]
        for task, task_rows in scenario_exports(_slice_scenario(flip, language),
                                                {task: ids for task in SLICE_LABELS}, seed + i).items():
            rows[task] += task_rows
        for k, rec in enumerate(ids):
            kind = task_type or CLEAN_TASK_TYPES[k % len(CLEAN_TASK_TYPES)]
            if kind is not None:
                records.append((rec, kind, "", "", ""))
    return write_folder(out_dir, rows, ANNOTATORS, records, records_columns=COLUMNS["records"])


def _run_of(record_uuid: str) -> str:
    """The run of a generated record: v1, v2 or empty (the default run), from its id."""
    if not record_uuid.strip() or record_uuid == "rec-not-annotated":
        return ""
    return ["", "v1", "v2"][sum(map(ord, record_uuid)) % 3]


# --------------------------------------------------------------------------- the judges scenario

JUDGE_ANNOTATORS = [
    # (id, kind, role, display name)
    ("judge_oracle", "LLM", "adjudicator", "always right (LLM, role adjudicator)"),
    ("judge_ones", "CODE", "annotator", "always 1 (CODE)"),
    ("judge_zeros", "LLM", "annotator", "always 0 (LLM), generation on tier_a records only"),
    ("judge_contra", "CODE", "adjudicator", "always wrong (CODE, role adjudicator)"),
    ("hand_llm", "LLM", "annotator", "hand-made cases"),
    ("hand_code", "CODE", "adjudicator", "hand-made cases"),
    ("judge_good", "LLM", "annotator", "about 92 % right per label (LLM)"),
    ("judge_weak", "CODE", "annotator", "about 80 % right per label (CODE)"),
    ("vote_x", "LLM", "annotator", "weighted-vote hand cases, gold kappa 1/2"),
    ("vote_y", "CODE", "annotator", "weighted-vote hand cases, gold kappa 1/2"),
    ("vote_z", "LLM", "adjudicator", "weighted-vote hand cases, gold kappa 1"),
    ("vote_neg", "CODE", "annotator", "weighted-vote hand cases, gold kappa -1/2"),
]
JUDGES_MIN_KAPPA = 0.3     # var judge_min_kappa of the generated judges scenario
# dbt vars of the generated judges scenario (the reference gets the same values)
# The judges scenario's hand-made weights and votes are worked out for the kappa bound.
JUDGES_VARS = {"judge_min_kappa": JUDGES_MIN_KAPPA, "judge_bound": "kappa",
               "constraint_policy": "repair"}
JUDGE_STAMP = "2025-04-15T12:00:00Z"      # later than every row of agreement_scenario

def _read_rows(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def judge_row(task: str, unit: tuple, ann: str, when: str, labels: dict, rank=None) -> dict:
    """One annotation row (strings) for ``unit``; ``labels``: label -> 0/1 or a raw string."""
    if task == "retrieval":
        texts = {"input_query": f"query {unit[0]}", "chunk": f"text {unit[1]}", "chunk_id": unit[1],
                 "chunk_rank": str(rank)}
    else:
        texts = {"query": f"question {unit[0]}?", "answer": f"answer {unit[0]}",
                 **({"context_set": f"ctx {unit[0]}"} if task == "grounding" else {})}
    return export_row(task, {label: 0 for label in LABELS[task]} | labels, record_uuid=unit[0], annotator_id=ann,
                      language="", created_at=when, notes="judge", **texts)


# The hand-made part: generation (and one grounding) records ``hand-r*`` with their own judges
# ``hand_llm`` (LLM, annotator) and ``hand_code`` (CODE, adjudicator).  Humans a1, a2 (voters)
# and adj1 (adjudicator) of agreement_scenario.  Labels other than ``helpful`` are constant for
# the humans: proper_action 1, response_on_topic 1, incomplete 0, unsafe_content 0.
_GEN_BASE = {"proper_action": 1, "response_on_topic": 1, "helpful": 1, "incomplete": 0,
             "unsafe_content": 0}
HAND_HUMANS = [  # (record, annotator, when, helpful)
    ("hand-r1", "a1", "2025-03-10T10:00:00Z", 1), ("hand-r1", "a2", "2025-03-10T11:00:00Z", 1),
    ("hand-r2", "a1", "2025-03-10T10:00:00Z", 1), ("hand-r2", "a2", "2025-03-10T11:00:00Z", 0),
    ("hand-r3", "a1", "2025-03-10T10:00:00Z", 1), ("hand-r3", "a2", "2025-03-10T11:00:00Z", 0),
    ("hand-r3", "adj1", "2025-03-11T10:00:00Z", 0),
    ("hand-r4", "a1", "2025-03-10T10:00:00Z", 0),
    ("hand-r5", "a1", "2025-03-10T10:00:00Z", 1),
    ("hand-r7", "a1", "2025-03-10T10:00:00Z", 0),
    ("hand-r8", "a1", "2025-03-10T10:00:00Z", 1),
]
HAND_JUDGES = [  # (record, judge, when, {label: value} overriding _GEN_BASE)
    ("hand-r1", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 1, "response_on_topic": 0}),
    ("hand-r2", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 1}),
    ("hand-r3", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 1}),
    ("hand-r4", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 0, "incomplete": 1}),
    ("hand-r5", "hand_llm", "2025-03-09T10:00:00Z", {"helpful": 1}),        # superseded
    ("hand-r5", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 0}),
    ("hand-r6", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 1}),        # no human row
    ("hand-r7", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": 0}),
    ("hand-r8", "hand_llm", "2025-03-12T09:00:00Z", {"helpful": 1}),        # superseded by
    ("hand-r8", "hand_llm", "2025-03-12T10:00:00Z", {"helpful": "maybe"}),  # a rejected row
    ("hand-r1", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 0}),
    ("hand-r2", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 1}),       # would break the tie
    ("hand-r3", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 1}),       # would overrule adj1
    ("hand-r4", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 1}),
    ("hand-r5", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 0}),
    ("hand-r6", "hand_code", "2025-03-13T10:00:00Z", {"helpful": 0}),
]
HAND_GROUNDING = {  # hand-r4 in grounding: a1 alone (tier_a), hand_llm misses the support
    "a1": {"support_present": 1, "unsupported_claim_present": 0, "contradicted_claim_present": 0,
           "source_cited": 1, "fabricated_source": 0},
    "hand_llm": {"support_present": 0, "unsupported_claim_present": 0,
                 "contradicted_claim_present": 0, "source_cited": 1, "fabricated_source": 0},
}
HAND_RECORDS = [("hand-r7", "", "", "", "tier_b")]   # explicit tier; the others are absent

# Weighted vote, by hand (generation).  Gold records vote-g1..g4: explicit tier_b, one voter
# (a1) each, helpful consensus 1, 1, 0, 0 (other labels _GEN_BASE); the vote judges agree with
# _GEN_BASE on the other labels (p_e = 1: kappa null, left out of gold_kappa), so gold_kappa
# is the tier_b kappa of helpful:
#   vote_x   1 1 0 1: tp 2 fp 1 fn 0 tn 1, p_o 3/4, p_e 3/4*1/2 + 1/4*1/2 = 1/2 -> kappa 1/2
#   vote_y   1 0 0 0: tp 1 fp 0 fn 1 tn 2, p_o 3/4, p_e 1/4*1/2 + 3/4*1/2 = 1/2 -> kappa 1/2
#   vote_z   1 1 0 0: kappa 1
#   vote_neg 0 0 1 0: tp 0 fp 1 fn 2 tn 1, p_o 1/4, p_e 1/2 -> kappa -1/2 (weight 0)
# (every number dyadic: exact in floating point too).
VOTE_GOLD_TRUTH = {"vote-g1": 1, "vote-g2": 1, "vote-g3": 0, "vote-g4": 0}
VOTE_GOLD_JUDGES = {"vote_x": (1, 1, 0, 1), "vote_y": (1, 0, 0, 0), "vote_z": (1, 1, 0, 0),
                    "vote_neg": (0, 0, 1, 0)}
# Judge-only records vote-u*: (record, judge, when, {label: value} overriding _GEN_BASE)
VOTE_UNITS = [
    ("vote-u1", "vote_x", JUDGE_STAMP, {"helpful": 1}),      # 1/2 - 1/2 = 0: tied
    ("vote-u1", "vote_y", JUDGE_STAMP, {"helpful": 0}),
    ("vote-u2", "vote_x", JUDGE_STAMP, {"helpful": 1}),      # 1/2 - 1/2 - 1 < 0: 0
    ("vote-u2", "vote_y", JUDGE_STAMP, {"helpful": 0}),
    ("vote-u2", "vote_z", JUDGE_STAMP, {"helpful": 0}),
    ("vote-u3", "vote_x", JUDGE_STAMP, {"helpful": 1}),      # hand_llm (kappa 1/5) is out of
    ("vote-u3", "vote_y", JUDGE_STAMP, {"helpful": 0}),      # bounds: still tied
    ("vote-u3", "hand_llm", JUDGE_STAMP, {"helpful": 1}),
    ("vote-u4", "hand_code", JUDGE_STAMP, {"helpful": 1}),   # no within-bounds judge: all tied
    ("vote-u5", "vote_x", JUDGE_STAMP, {"helpful": 1}),      # hand_code (kappa -1) ignored: 1
    ("vote-u5", "hand_code", JUDGE_STAMP, {"helpful": 0}),
    ("vote-u6", "vote_z", JUDGE_STAMP, {"helpful": 0}),      # -1 + 1/2 + 1/2 = 0: tied
    ("vote-u6", "vote_x", JUDGE_STAMP, {"helpful": 1}),
    ("vote-u6", "vote_y", JUDGE_STAMP, {"helpful": 1}),
    ("vote-u7", "vote_x", JUDGE_STAMP, {"helpful": 1, "incomplete": 1}),  # helpful 1,
    ("vote-u7", "vote_y", JUDGE_STAMP, {"helpful": 1}),                   # incomplete tied
    ("vote-u8", "a1", "2025-03-10T10:00:00Z", {"helpful": "maybe"}),      # rejected human row
    ("vote-u8", "vote_y", JUDGE_STAMP, {"helpful": 0}),      # -1/2: 0
    ("vote-u9", "vote_neg", JUDGE_STAMP, {"helpful": 1}),    # out of bounds / weight 0: tied
    ("vote-u10", "vote_x", JUDGE_STAMP, {"helpful": 1}),     # vote_neg does not count:
    ("vote-u10", "vote_neg", JUDGE_STAMP, {"helpful": 0, "unsafe_content": 1}),  # helpful 1
    ("vote-u11", "vote_x", "2025-04-10T12:00:00Z", {"helpful": 0}),   # superseded
    ("vote-u11", "vote_x", JUDGE_STAMP, {"helpful": 1}),
    ("vote-u11", "vote_z", JUDGE_STAMP, {"helpful": 1, "unsafe_content": 1}),  # 1 - 1/2 > 0
]
VOTE_RECORDS = [(rec, "", "", "", "tier_b") for rec in VOTE_GOLD_TRUTH]


def _vote_rows() -> list[dict]:
    out = []
    for rec, helpful in VOTE_GOLD_TRUTH.items():
        out.append(judge_row("generation", (rec,), "a1", "2025-03-10T10:00:00Z",
                             dict(_GEN_BASE, helpful=helpful)))
    for judge, values in VOTE_GOLD_JUDGES.items():
        for rec, v in zip(VOTE_GOLD_TRUTH, values):
            out.append(judge_row("generation", (rec,), judge, JUDGE_STAMP,
                                 dict(_GEN_BASE, helpful=v)))
    for rec, ann, when, over in VOTE_UNITS:
        out.append(judge_row("generation", (rec,), ann, when, dict(_GEN_BASE, **over)))
    return out


JONLY_JUDGES = {  # judge -> (probability of a row on a unit of a judge-only record, flip)
    "judge_good": (0.8, 0.08), "judge_weak": (0.6, 0.25), "llm_judge": (0.4, 0.1),
    "judge_oracle": (0.25, 0.0), "judge_zeros": (0.3, None), "rule_judge": (0.3, 0.15),
}


def _judge_only_rows(r, task: str, n: int) -> list[dict]:
    """Records jonly-<task>-* labelled by judges only (retrieval: 1-5 ranked chunks, some
    rank gaps; a unit whose only judges are out of bounds stays tied)."""
    rows = []
    labels = R.TASKS[task]["labels"]
    for i in range(n):
        rec = f"jonly-{task[:3]}-{i:02d}"
        if task == "retrieval":
            n_chunks = r.randint(1, 5)
            ranks = sorted(r.sample(range(1, n_chunks + 3), n_chunks)) if r.random() < 0.3 \
                else list(range(1, n_chunks + 1))
            units = [((rec, f"{rec}-c{j}"), rk) for j, rk in enumerate(ranks)]
        else:
            units = [((rec,), None)]
        for unit, rank in units:
            truth = made_valid(task, {c: int(r.random() < 0.5) for c in labels})
            chosen = [j for j, (p, _) in JONLY_JUDGES.items() if r.random() < p]
            if not chosen:
                chosen = [r.choice(list(JONLY_JUDGES))]
            for j in chosen:
                flip = JONLY_JUDGES[j][1]
                lab = {c: 0 for c in labels} if flip is None else flipped(task, truth, r, flip)
                rows.append(judge_row(task, unit, j, JUDGE_STAMP, lab, rank))
    return rows


def _hand_rows() -> dict[str, list[dict]]:
    out = {"retrieval": [], "grounding": [], "generation": []}
    for rec, ann, when, helpful in HAND_HUMANS:
        out["generation"].append(judge_row("generation", (rec,), ann, when,
                                           dict(_GEN_BASE, helpful=helpful)))
    for rec, ann, when, over in HAND_JUDGES:
        out["generation"].append(judge_row("generation", (rec,), ann, when,
                                           dict(_GEN_BASE, **over)))
    out["grounding"].append(judge_row("grounding", ("hand-r4",), "a1", "2025-03-10T10:00:00Z",
                                      HAND_GROUNDING["a1"]))
    out["grounding"].append(judge_row("grounding", ("hand-r4",), "hand_llm",
                                      "2025-03-12T10:00:00Z", HAND_GROUNDING["hand_llm"]))
    return out


def judges_scenario(out_dir, seed: int = 11) -> Path:
    """agreement_scenario() (its llm_judge / rule_judge rows included) plus
    the judges of JUDGE_ANNOTATORS:

    * ``judge_oracle`` (LLM, role adjudicator): the human consensus on every resolved label of
      ~60 % of the units (0 on tied labels); a few units with an older wrong row (superseded)
      and a few whose latest row is invalid (the unit drops out);
    * ``judge_ones`` (CODE): all 1 on generation units whose proper_action consensus is 1 or
      tied (p_e = 1 for proper_action), on grounding units, and on retrieval units (rejected:
      sufficient and misleading);
    * ``judge_zeros`` (LLM): all 0; in generation only on records of tier_a (no tier_b row);
    * ``judge_contra`` (CODE, role adjudicator, latest of all rows): the opposite of the
      consensus on generation units (it would overrule the adjudicators if it counted as one);
    * a judge row on a record without any human row;
    * the hand-made records ``hand-r*`` (HAND_HUMANS, HAND_JUDGES, HAND_GROUNDING);
    * ``judge_good`` (LLM, ~8 % of the labels flipped; every unit of ~70 % of the records) and
      ``judge_weak`` (CODE, ~20 % flipped; ~half of the units; ~15 % of its retrieval and
      grounding rows break an implication: repaired under ``constraint_policy: repair``):
      within bounds at JUDGES_MIN_KAPPA (JUDGES_VARS: the vars the scenario is built with),
      different weights;
    * judge-only records ``jonly-ret-*`` (1-5 ranked chunks, some rank gaps) and ``jonly-gro-*``
      labelled by judges of every quality (_judge_only_rows), and in generation the hand-made
      weighted-vote cases ``vote-g*`` (gold records) / ``vote-u*`` (judge-only records;
      VOTE_GOLD_JUDGES, VOTE_UNITS): equal weights that tie, an out-of-bounds judge with a
      positive kappa, judges with negative kappa (weight 0).

    The judge rows are built from the consensus of the reference package's core under both seed loaders
    (agate / copy), on the units where both agree."""
    out = agreement_scenario(out_dir)
    r = random.Random(seed)
    r2 = random.Random(seed + 1000)     # the judges added later draw from their own stream
    agrs = [A.compute(out, null_mode=m) for m in ("agate", "copy")]
    new = _hand_rows()
    good_records: dict[tuple, bool] = {}
    for task, spec in R.TASKS.items():
        labels = spec["labels"]
        stable = []
        for unit, info in sorted(agrs[0].ref.units[task].items()):
            other = agrs[1].ref.units[task].get(unit)
            if other is None or other["labels"] != info["labels"] or \
                    other["method"] != info["method"] or other.get("rank") != info.get("rank"):
                continue
            tiers = {a.tiers[task][unit[0]] for a in agrs}
            stable.append((unit, info, tiers.pop() if len(tiers) == 1 else None))
        for i, (unit, info, tier) in enumerate(stable):
            rank = info.get("rank")
            truth = {c: (info["labels"][c] if info["method"][c] != "tied" else 0)
                     for c in labels}
            rows = new[task]
            if r.random() < 0.6 and labels_valid(task, truth):
                if i % 23 == 0:
                    wrong = {c: 1 - v for c, v in truth.items()}
                    rows.append(judge_row(task, unit, "judge_oracle", "2025-04-14T12:00:00Z",
                                          wrong, rank))
                rows.append(judge_row(task, unit, "judge_oracle", JUDGE_STAMP, truth, rank))
                if i % 29 == 0:
                    rows.append(judge_row(task, unit, "judge_oracle", "2025-04-16T12:00:00Z",
                                          dict(truth, **{labels[0]: "maybe"}), rank))
            ones = {c: 1 for c in labels}
            if task == "generation":
                if info["labels"]["proper_action"] != 0 and r.random() < 0.5:
                    rows.append(judge_row(task, unit, "judge_ones", JUDGE_STAMP, ones, rank))
            elif r.random() < (0.4 if task == "grounding" else 0.2):
                rows.append(judge_row(task, unit, "judge_ones", JUDGE_STAMP, ones, rank))
            zeros = {c: 0 for c in labels}
            if (tier == "tier_a" if task == "generation" else True) and r.random() < 0.4:
                rows.append(judge_row(task, unit, "judge_zeros", JUDGE_STAMP, zeros, rank))
            if task == "generation" and r.random() < 0.5:
                contra = {c: (1 - info["labels"][c] if info["method"][c] != "tied" else 1)
                          for c in labels}
                rows.append(judge_row(task, unit, "judge_contra", "2025-05-01T12:00:00Z",
                                      contra, rank))
            # judge_good: every unit of ~70 % of the records (compared records in
            # judge_metric_values); judge_weak: ~half of the units
            guess = {c: (v if v is not None else r2.randint(0, 1))
                     for c, v in info["labels"].items()}
            if good_records.setdefault((task, unit[0]), r2.random() < 0.7):
                rows.append(judge_row(task, unit, "judge_good", JUDGE_STAMP,
                                      flipped(task, guess, r2, 0.08), rank))
            if r2.random() < 0.5:
                weak = flipped(task, guess, r2, 0.2)
                if task != "generation" and r2.random() < 0.15:
                    weak = violated(task, weak, r2)     # repaired under constraint_policy
                rows.append(judge_row(task, unit, "judge_weak", JUDGE_STAMP, weak, rank))
    new["generation"].append(judge_row("generation", ("judge-only-record",), "judge_oracle",
                                       JUDGE_STAMP, {c: 1 for c in _GEN_BASE}))
    new["generation"] += _vote_rows()
    new["retrieval"] += _judge_only_rows(r2, "retrieval", 14)
    new["grounding"] += _judge_only_rows(r2, "grounding", 14)
    # judge_good also labels, on 12 of its human-labelled retrieval records, a chunk no human
    # labelled (rank 6, sufficient): not a unit of the record, so it must change neither the
    # record's compared status nor the judge's DCG / IDCG in judge_metric_values
    extra = sorted(rec for (task, rec), good in good_records.items()
                   if good and task == "retrieval")[:12]
    for rec in extra:
        new["retrieval"].append(judge_row(
            "retrieval", (rec, f"{rec}-judge-extra"), "judge_good", JUDGE_STAMP,
            {"topically_relevant": 1, "evidence_sufficient": 1, "misleading": 0}, 6))
    # the agreement scenario's folder again, with the judges' rows, annotators and hand-made records
    # added (run_id and notes empty: the hand-made records are in the default run)
    with open(out / "records.csv", newline="", encoding="utf-8") as fh:
        records_columns = next(csv.reader(fh))
    return write_folder(
        out, {task: _read_rows(out / f"{spec['seed']}.csv") + new[task] for task, spec in R.TASKS.items()},
        _read_rows(out / "annotators.csv") + JUDGE_ANNOTATORS,
        _read_rows(out / "records.csv") + [row + ("", "") for row in HAND_RECORDS + VOTE_RECORDS],
        records_columns=records_columns)


def judge_ids(seed_dir) -> set[str]:
    """annotator ids of kind LLM or CODE in annotators.csv (as loaded, kind trimmed)."""
    return {a["annotator_id"] for a in R.read_csv(Path(seed_dir) / "annotators.csv")
            if (a.get("annotator_kind") or "").strip() in J.JUDGE_KINDS}


def without_judges(seed_dir, out) -> Path:
    """A copy of the seed CSVs without the rows of LLM / CODE annotators in the three export
    CSVs (annotators.csv and records.csv unchanged)."""
    import shutil

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    judges = judge_ids(seed_dir)
    exports = {f"{spec['seed']}.csv" for spec in R.TASKS.values()}
    for path in Path(seed_dir).glob("*.csv"):
        if path.name not in exports:
            shutil.copyfile(path, out / path.name)
            continue
        with open(path, newline="", encoding="utf-8-sig") as fh:
            rows = list(csv.reader(fh))
        col = rows[0].index("annotator_id")
        kept = [rows[0]] + [row for row in rows[1:] if len(row) <= col or row[col] not in judges]
        assert len(kept) < len(rows), f"{path.name}: no judge row to remove"
        write_csv(out / path.name, kept[0], kept[1:])
    return out


if __name__ == "__main__":
    target = generate(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20250301)
    print(target)


# --------------------------------------------------------------------------- the judge-powered scenario

# Runs of the judge-powered scenario: (run id, n human-labelled records, N records only the judges
# label, families, label prevalences or None for random ones). n from 2 to hundreds, N from 1 to
# thousands; in `ppi-const` the humans see the same value of two generation labels on every record.
PPI_RUNS = [
    ("ppi-n2-N1", 2, 1, ("generation",), None),
    ("ppi-n3-N2", 3, 2, ("retrieval", "grounding"), None),
    ("ppi-n12-N1", 12, 1, ("retrieval", "generation"), None),
    ("ppi-n40-N400", 40, 400, ("retrieval", "grounding", "generation"), None),
    ("ppi-n250-N2500", 250, 2500, ("generation",), None),
    ("ppi-const", 25, 60, ("generation",), {"proper_action": 1.0, "unsafe_content": 0.0}),
]
PPI_HUMAN = "ppi_human"
PPI_JUDGES = [
    # (id, kind, how it labels a unit whose true labels it sees)
    ("ppi_biased", "LLM", "says 1 for a true 0 three times in ten, 0 for a true 1 once in twenty"),
    ("ppi_noisy", "LLM", "unbiased but noisy: flips a 1 one time in five and a 0 as often as keeps the mean"),
    ("ppi_useless", "CODE", "a fair coin per label, whatever the truth (lambda near 0)"),
    ("ppi_constant", "CODE", "always 0 (every value equal: lambda 0)"),
]
PPI_STAMPS = {"human": "2025-05-05T09:00:00Z", "judge": "2025-05-06T09:00:00Z"}


def _ppi_judge_labels(task: str, judge: str, truth: dict, prevalence: dict, r: random.Random) -> dict:
    """The labels a judge of PPI_JUDGES gives a unit of true labels ``truth`` (then made valid)."""
    out = {}
    for label, value in truth.items():
        if judge == "ppi_biased":
            out[label] = 1 - value if r.random() < (0.3 if value == 0 else 0.05) else value
        elif judge == "ppi_noisy":
            p = min(max(prevalence[label], 0.05), 0.95)
            out[label] = 1 - value if r.random() < (0.2 if value == 1 else min(1.0, 0.2 * p / (1 - p))) else value
        elif judge == "ppi_useless":
            out[label] = int(r.random() < 0.5)
        else:
            out[label] = 0
    return made_valid(task, out)


def judge_powered_scenario(out_dir, seed: int = 5) -> Path:
    """The judge-powered scenario: the runs of PPI_RUNS, each with n records labelled by one human
    (``ppi_human``, so every unit is resolved) and N records labelled by judges only, in records.csv
    with their run; the judges of PPI_JUDGES label each record (all its chunks) nine times in ten,
    ``ppi_noisy`` sometimes leaving one chunk of a retrieval record out (that record is then not
    compared when humans labelled it, and its judge value comes from the chunks it labelled when
    they did not). Languages `de`, `en` or none (`unknown`)."""
    r = random.Random(seed)
    exports: dict[str, list[dict]] = {task: [] for task in R.TASKS}
    records = []
    for run_id, n, big_n, families, fixed in PPI_RUNS:
        for task in families:
            labels = R.TASKS[task]["labels"]
            prevalence = {c: (fixed or {}).get(c, r.uniform(0.15, 0.85)) for c in labels}
            for i in range(n + big_n):
                labelled = i < n
                rec = f"{run_id}-{task[:3]}-{i:04d}-{'l' if labelled else 'u'}"
                records.append({"record_uuid": rec, "run_id": run_id})
                language = r.choice(["de", "en", "de", "en", ""])
                units = [((rec, f"{rec}-c{j}"), j + 1) for j in range(r.randint(1, 4))] \
                    if task == "retrieval" else [((rec,), None)]
                truths = [made_valid(task, {c: int(r.random() < prevalence[c]) for c in labels})
                          for _ in units]
                annotators = ([PPI_HUMAN] if labelled else []) + \
                    [j for j, _, _ in PPI_JUDGES if r.random() < 0.9]
                skipped = r.randrange(len(units)) if task == "retrieval" and len(units) > 1 \
                    and r.random() < 0.15 else None
                for ann in annotators:
                    for u, ((unit, rank), truth) in enumerate(zip(units, truths)):
                        if ann == "ppi_noisy" and u == skipped:
                            continue
                        lab = truth if ann == PPI_HUMAN else _ppi_judge_labels(task, ann, truth, prevalence, r)
                        row = judge_row(task, unit, ann, PPI_STAMPS["human" if ann == PPI_HUMAN else "judge"],
                                        lab, rank)
                        row["language"] = language
                        exports[task].append(row)
    annotators = [(PPI_HUMAN, "HUMAN", "annotator", "the one human")] + \
        [(j, kind, "annotator", what) for j, kind, what in PPI_JUDGES]
    return write_folder(out_dir, exports, annotators, records)


# --------------------------------------------------------------------------- the spot-check scenario

# Eight ISO weeks across a year's end (2025-W50 ... 2026-W05; the Mondays in UTC). Per week and
# family: (spot-checked records, of which disagreeing). Built for (each family's units of the
# generation and grounding records; drift_min_spot_checks 20, threshold 0.12): W50 1/30 below; W51
# triage votes but no spot-check at all; W52 and W01 every spot-check disagrees, but 5 a week are
# too few to alert; W02 8/20 above on exactly the minimum (the week before too few: no alert);
# W03 10/25 above two weeks running: the alert, and the reversal triggered from then on; W04 none
# disagrees (5 of its 25 second votes land in W05, the week of their latest vote); W05 10 + 5.
SPOT_WEEKS = ["2025-12-08", "2025-12-15", "2025-12-22", "2025-12-29", "2026-01-05", "2026-01-12",
              "2026-01-19", "2026-01-26"]
SPOT_PLAN = [(30, 1), (0, 0), (5, 5), (5, 5), (20, 8), (25, 10), (25, 0), (10, 0)]
SPOT_LATE = (6, 5)                        # week 6: its last 5 second votes come a week later
SPOT_RECORDS = {"generation": 300, "grounding": 300, "retrieval": 120}   # triage records a week
SPOT_DISAGREE = {"generation": "helpful", "grounding": "support_present", "retrieval": "misleading"}
SPOT_VOTERS = ["a1", "a2", "a3", "a4", "a5", "ext_guest"]      # ext_guest: not in annotators.csv
SPOT_ANNOTATORS = ANNOTATORS + [("adj_llm", "LLM", "adjudicator", "LLM in the adjudicator role")]
SPOT_EXPECTED_ALERTS = {"2026-W03"}         # generation and grounding, as built (docstring above)


def _stamp(instant, r: random.Random) -> str:
    """An ISO 8601 text of a UTC instant, in UTC or with a +02:00 / -05:00 offset."""
    zone = r.choice([UTC, UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-5))])
    text = instant.replace(tzinfo=UTC).astimezone(zone).isoformat()
    return text.replace("+00:00", "Z")


def _spot_truth(task: str, r: random.Random) -> dict:
    truth = made_valid(task, {c: int(r.random() < 0.5) for c in LABELS[task]})
    if task == "retrieval":                 # misleading may flip: the chunk is not sufficient
        truth["evidence_sufficient"] = 0
    return truth


def _spot_cells(task: str, rec: str, chunk: int | None, language: str) -> dict:
    if task == "retrieval":
        return {"input_query": f"query {rec}", "chunk": f"chunk {rec}-{chunk}", "chunk_id": f"{rec}-c{chunk}",
                "chunk_rank": str(chunk + 1), "language": language}
    cells = {"query": f"question {rec}?", "answer": f"answer {rec}", "language": language}
    return cells | ({"context_set": f"context {rec}"} if task == "grounding" else {})


def spot_check_scenario(out_dir, seed: int = 23) -> Path:
    """Triage records in eight ISO weeks (SPOT_WEEKS, SPOT_RECORDS a week and family), each first
    labelled by one voter at a random time of its week (UTC; written in UTC or with an offset), a
    few hundred a week so that the weekly spot-check draw can be counted; second votes on
    SPOT_PLAN's records (random ones, the disagreeing ones with SPOT_DISAGREE flipped), within
    hours of the first, or a week later (SPOT_LATE). About one single-voter record in ten is not in
    records.csv (triage by the fallback); the others are triage by default or explicitly, with task
    types (some padded) or none. Beside them, per family, 40 gold records (task type factual_qa)
    with two voters, half of them tied on one label: tied as is, adjudicated by adj1, adjudicated
    by adj1 and adj2 at one instant with different values (still tied), or four voters split 2-2;
    an LLM in the adjudicator role labels some of them (it never adjudicates)."""
    r = random.Random(seed)
    rows: dict[str, list[dict]] = {task: [] for task in R.TASKS}
    records: list[dict] = []

    def vote(task, rec, ann, when, labels_by_chunk, language):
        for chunk, labels in labels_by_chunk.items():
            rows[task].append(export_row(task, labels, **{"record_uuid": rec, "annotator_id": ann,
                                                          "created_at": when, **_spot_cells(task, rec, chunk, language)}))

    for task, n_records in SPOT_RECORDS.items():
        prefix = task[:3]
        for w, monday in enumerate(SPOT_WEEKS):
            start = datetime.fromisoformat(monday)
            n_checked, n_disagreeing = SPOT_PLAN[w]
            checked = set(r.sample(range(n_records), n_checked))
            disagreeing = set(r.sample(sorted(checked), n_disagreeing))
            late = set(sorted(checked)[-SPOT_LATE[1]:]) if w == SPOT_LATE[0] else set()
            for i in range(n_records):
                rec = f"spot-{prefix}-{w}-{i:03d}"
                # the first vote: somewhere in the week, away from its last 8 hours (the second follows)
                first_at = start + timedelta(seconds=r.randrange(0, 7 * 86400 - 8 * 3600))
                if i % 50 == 0:               # just after Monday 00:00 UTC (a Sunday where written -05:00)
                    first_at = start + timedelta(minutes=r.randrange(1, 120))
                language = r.choice(["de", "en", "en", ""])
                chunks = [0] if task != "retrieval" else list(range(r.choice([1, 1, 2])))
                truth = {chunk: _spot_truth(task, r) for chunk in chunks}
                first, second = r.sample(SPOT_VOTERS, 2)
                vote(task, rec, first, _stamp(first_at, r), truth, language)
                if i in checked:
                    other = {chunk: dict(labels) for chunk, labels in truth.items()}
                    if i in disagreeing:
                        label = SPOT_DISAGREE[task]
                        other[0][label] = 1 - other[0][label]
                    second_at = first_at + timedelta(hours=r.randrange(1, 8), minutes=r.randrange(60))
                    if i in late:
                        second_at = first_at + timedelta(days=7)
                    vote(task, rec, second, _stamp(second_at, r), other, language)
                if i not in checked and r.random() < 0.1:
                    continue                  # not in records.csv: triage by the fallback (one voter)
                records.append({"record_uuid": rec,
                                "task_type": r.choice(["summarization", " code_generation ", "", "chitchat"]),
                                "tier": r.choice(["", "", "tier_a"]), "run_id": r.choice(["v1", "v2"])})
        # the gold records: two voters, ties, adjudications
        for i in range(40):
            rec = f"gold-{prefix}-{i:02d}"
            at = datetime.fromisoformat(SPOT_WEEKS[i % 8]) + timedelta(hours=10 + i % 7)
            truth = {chunk: _spot_truth(task, r) for chunk in ([0] if task != "retrieval" else [0, 1])}
            tied = {chunk: dict(labels) for chunk, labels in truth.items()}
            if i % 2 == 0:
                tied[0][SPOT_DISAGREE[task]] = 1 - tied[0][SPOT_DISAGREE[task]]
            language = r.choice(["de", "en"])
            vote(task, rec, "a1", _stamp(at, r), truth, language)
            vote(task, rec, "a2", _stamp(at + timedelta(hours=1), r), tied, language)
            if i % 8 == 2:                    # adjudicated: resolved, not in the queue
                vote(task, rec, "adj1", _stamp(at + timedelta(days=1), r), truth, language)
            if i % 8 == 4:                    # two adjudicators at one instant disagree: still tied
                when = _stamp(at + timedelta(days=2), r)
                vote(task, rec, "adj1", when, truth, language)
                vote(task, rec, "adj2", when, tied, language)
            if i % 8 == 6:                    # four voters, two each way
                vote(task, rec, "a3", _stamp(at + timedelta(hours=2), r), truth, language)
                vote(task, rec, "a4", _stamp(at + timedelta(hours=3), r), tied, language)
            if i % 4 == 1:                    # an LLM in the adjudicator role does not adjudicate
                vote(task, rec, "adj_llm", _stamp(at + timedelta(days=3), r), truth, language)
            records.append({"record_uuid": rec, "task_type": "factual_qa", "run_id": "v1"})
    return write_folder(out_dir, rows, SPOT_ANNOTATORS, records)
