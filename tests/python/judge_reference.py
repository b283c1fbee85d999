"""Independent Python reference for the ``judge_agreement`` mart.

Written from /work/shared/spec/CONTRACT.md (sections "Judges", "Consensus", "Agreement and
tiers") only, never from the dbt SQL.  Row validation, superseding, duplicates and the human
consensus come from ``reference.py`` (``Reference.rows[task]`` with ``status`` and post-repair
``labels``; ``Reference.units[task][unit]["labels" / "method"]``); the tier of a record per
family comes from ``agreement_reference.py`` (``AgreementReference.tiers[task][record]``).

Contract, as read here
----------------------
* Judges: annotators of kind ``LLM`` or ``CODE`` in ``annotators.csv``, whatever their role
  (an id absent from ``annotators.csv`` is a ``HUMAN`` annotator, never a judge).  Judges take
  no part in the consensus (it uses ``HUMAN`` rows only) nor in the voter count of the tier rule.
* One row per (annotator_id, task, label, tier), tier ``all`` or ``tier_b``, over the units u
  such that the label has a resolved human consensus on u (each label on its own: a unit whose
  *other* label is tied still counts for this label) and the judge has an accepted row for u.
  ``tier_b`` keeps the units of records whose tier in that family is ``tier_b``.  No row for
  zero units.
* positive = 1; tp = judge 1 & consensus 1, fp = judge 1 & consensus 0, fn = judge 0 &
  consensus 1, tn = judge 0 & consensus 0.  accuracy = (tp + tn) / n.
* cohen_kappa = (p_o - p_e) / (1 - p_e), p_o = accuracy, p_e = pJ1 pC1 + pJ0 pC0 with the
  judge's and the consensus's marginals over those units; null when p_e = 1.
* precision = tp / (tp + fp), null when tp + fp = 0; recall = tp / (tp + fn), null when
  tp + fn = 0; f1 = 2 P R / (P + R), null when P or R is null or both are 0.

Decisions where CONTRACT.md is silent (reported in ``ambiguities`` when they matter)
---------------------------------------------------------------------------------
* The judge's value is the accepted row's post-repair label (under ``constraint_policy:
  repair`` a repaired judge row carries the repaired value, as votes do); under ``reject`` this
  is simply the parsed value.  A repaired judge row that counts is reported as an ambiguity.
* ``annotator_kind`` is compared after trimming, case-sensitively (``reference.py`` trims it);
  a kind that is ``llm``/``code`` only up to case is reported as an ambiguity.

Statistics are exact (``fractions.Fraction``) and converted to float at the end.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import agreement_reference as A
import generate as G
import reference as R

JUDGE_KINDS = ("LLM", "CODE")
JUDGE_TIERS = ("all", "tier_b")
JUDGE_KEY = ["annotator_id", "task", "label", "tier"]
JUDGE_VALUES = ["n_units", "tp", "fp", "fn", "tn", "accuracy", "cohen_kappa", "precision",
                "recall", "f1"]
JUDGE_COLUMNS = JUDGE_KEY + JUDGE_VALUES


def confusion_stats(pairs: list[tuple[int, int]]) -> dict | None:
    """The measures of one (judge, task, label, tier) from its (judge, consensus) pairs.

    None when there is no pair (no row).  Exact; CONTRACT.md's definitions literally."""
    n = len(pairs)
    if n == 0:
        return None
    tp = sum(1 for j, c in pairs if j == 1 and c == 1)
    fp = sum(1 for j, c in pairs if j == 1 and c == 0)
    fn = sum(1 for j, c in pairs if j == 0 and c == 1)
    tn = sum(1 for j, c in pairs if j == 0 and c == 0)
    assert tp + fp + fn + tn == n, pairs
    p_o = Fraction(tp + tn, n)
    p_j1 = Fraction(tp + fp, n)
    p_c1 = Fraction(tp + fn, n)
    p_e = p_j1 * p_c1 + (1 - p_j1) * (1 - p_c1)
    kappa = None if p_e == 1 else (p_o - p_e) / (1 - p_e)
    precision = None if tp + fp == 0 else Fraction(tp, tp + fp)
    recall = None if tp + fn == 0 else Fraction(tp, tp + fn)
    if precision is None or recall is None or (precision == 0 and recall == 0):
        f1 = None
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return {"n_units": n, "tp": tp, "fp": fp, "fn": fn, "tn": tn, "accuracy": p_o,
            "cohen_kappa": kappa, "precision": precision, "recall": recall, "f1": f1,
            "p_e": p_e}


def _f(x):
    return None if x is None else float(x)


@dataclass
class JudgeReference:
    agr: A.AgreementReference
    judges: dict                    # annotator_id -> (kind, role)
    # (judge, task, label, tier) -> [(unit, judge value, consensus value)]
    pairs: dict
    # task -> judge -> unit -> accepted Row (every accepted judge row, counted or not)
    judge_rows: dict
    rows: list                      # expected judge_agreement rows
    ambiguities: list = field(default_factory=list)

    @property
    def ref(self) -> R.Reference:
        return self.agr.ref

    def by_key(self) -> dict:
        return {tuple(r[c] for c in JUDGE_KEY): r for r in self.rows}


def compute(seed_dir, null_mode: str = "agate", constraint_policy: str = "reject",
            agr: A.AgreementReference | None = None, **agreement_kwargs) -> JudgeReference:
    if agr is None:
        agr = A.compute(Path(seed_dir), null_mode=null_mode, constraint_policy=constraint_policy,
                        **agreement_kwargs)
    ref = agr.ref
    ambiguities: list[str] = list(agr.ambiguities)

    judges = {}
    for aid, info in ref.annotators.items():
        kind = info.get("annotator_kind") or ""
        if kind in JUDGE_KINDS:
            judges[aid] = (kind, info.get("role"))
        elif kind.upper() in JUDGE_KINDS:
            ambiguities.append(f"annotator {aid!r}: kind {kind!r} is a judge kind only up to case")

    pairs: dict[tuple, list] = defaultdict(list)
    judge_rows: dict[str, dict] = {}
    for task, spec in R.TASKS.items():
        jrows: dict[str, dict] = defaultdict(dict)
        for r in ref.rows[task]:
            if r.status == "accepted" and r.annotator_id in judges:
                assert r.unit not in jrows[r.annotator_id], (task, r.unit, r.annotator_id)
                jrows[r.annotator_id][r.unit] = r
        judge_rows[task] = dict(jrows)
        units = ref.units[task]
        for judge, by_unit in sorted(jrows.items()):
            for unit, row in sorted(by_unit.items()):
                info = units.get(unit)
                if info is None:           # no accepted HUMAN row: not a unit
                    continue
                tier = agr.tiers[task][unit[0]]
                counted = False
                for label in spec["labels"]:
                    if info["method"][label] == "tied":
                        continue
                    value, truth = row.labels[label], info["labels"][label]
                    assert value in (0, 1) and truth in (0, 1), (task, unit, judge, label)
                    counted = True
                    for t in JUDGE_TIERS:
                        if t == "all" or tier == t:
                            pairs[(judge, task, label, t)].append((unit, value, truth))
                if counted and row.was_repaired:
                    ambiguities.append(f"{task} {unit} {judge}: a repaired judge row counts "
                                       "(repaired values used)")

    rows = []
    for key in sorted(pairs):
        s = confusion_stats([(j, c) for _, j, c in pairs[key]])
        if s is None:
            continue
        out = dict(zip(JUDGE_KEY, key))
        for c in ("n_units", "tp", "fp", "fn", "tn"):
            out[c] = s[c]
        for c in ("accuracy", "cohen_kappa", "precision", "recall", "f1"):
            out[c] = _f(s[c])
        rows.append(out)
    return JudgeReference(agr, judges, dict(pairs), judge_rows, rows, ambiguities)


# --------------------------------------------------------------------------- generated scenario

JUDGE_ANNOTATORS = [
    # (id, kind, role, display name)
    ("judge_oracle", "LLM", "adjudicator", "always right (LLM, role adjudicator)"),
    ("judge_ones", "CODE", "annotator", "always 1 (CODE)"),
    ("judge_zeros", "LLM", "annotator", "always 0 (LLM), generation on tier_a records only"),
    ("judge_contra", "CODE", "adjudicator", "always wrong (CODE, role adjudicator)"),
    ("hand_llm", "LLM", "annotator", "hand-made cases"),
    ("hand_code", "CODE", "adjudicator", "hand-made cases"),
]
JUDGE_STAMP = "2025-04-15T12:00:00Z"      # later than every row of generate_scenario

def _cols(task):
    return {"retrieval": G.RET_COLS, "grounding": G.GRD_COLS, "generation": G.GEN_COLS}[task]


def _read_rows(path: Path) -> list[dict]:
    import csv

    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def judge_row(task: str, unit: tuple, ann: str, when: str, labels: dict, rank=None) -> dict:
    """One annotation row (strings) for ``unit``; ``labels``: label -> 0/1 or a raw string."""
    row = {"record_uuid": unit[0], "annotator_id": ann, "task": task, "language": "",
           "created_at": when, "notes": "judge"}
    if task == "retrieval":
        row.update({"input_query": f"query {unit[0]}", "chunk": f"text {unit[1]}",
                    "chunk_id": unit[1], "chunk_rank": str(rank)})
    else:
        row.update({"query": f"question {unit[0]}?", "answer": f"answer {unit[0]}"})
        if task == "grounding":
            row["context_set"] = f"ctx {unit[0]}"
    for c, v in labels.items():
        row[c] = v if isinstance(v, str) else ("true" if v else "false")
    return row


def _valid(task: str, lab: dict) -> bool:
    if task == "retrieval":
        return not (lab["evidence_sufficient"] == 1 and lab["topically_relevant"] == 0) and \
            not (lab["evidence_sufficient"] == 1 and lab["misleading"] == 1)
    if task == "grounding":
        return not (lab["contradicted_claim_present"] == 1
                    and lab["unsupported_claim_present"] == 0) and \
            not (lab["fabricated_source"] == 1 and lab["source_cited"] == 0)
    return True


# The hand-made part: generation (and one grounding) records ``hand-r*`` with their own judges
# ``hand_llm`` (LLM, annotator) and ``hand_code`` (CODE, adjudicator).  Humans a1, a2 (voters)
# and adj1 (adjudicator) of generate_scenario.  Labels other than ``helpful`` are constant for
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


def generate_judges_scenario(out_dir, seed: int = 11) -> Path:
    """agreement_reference.generate_scenario() (its llm_judge / rule_judge rows included) plus
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
    * the hand-made records ``hand-r*`` (HAND_HUMANS, HAND_JUDGES, HAND_GROUNDING).

    The judge rows are built from the consensus of reference.py under both seed loaders
    (agate / copy), on the units where both agree."""
    import csv
    import random

    out = A.generate_scenario(out_dir)
    r = random.Random(seed)
    agrs = [A.compute(out, null_mode=m) for m in ("agate", "copy")]
    new = _hand_rows()
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
            if r.random() < 0.6 and _valid(task, truth):
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
    new["generation"].append(judge_row("generation", ("judge-only-record",), "judge_oracle",
                                       JUDGE_STAMP, {c: 1 for c in _GEN_BASE}))
    for task, spec in R.TASKS.items():
        path = out / f"{spec['seed']}.csv"
        G._write(path, _cols(task), _read_rows(path) + new[task])
    with open(out / "annotators.csv", "a", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows(JUDGE_ANNOTATORS)
    with open(out / "records.csv", "a", newline="", encoding="utf-8") as fh:
        csv.writer(fh, lineterminator="\n").writerows([row + ("",) for row in HAND_RECORDS])
    return out


if __name__ == "__main__":  # pragma: no cover - manual inspection helper
    import json
    import sys

    jr = compute(sys.argv[1])
    for row in jr.rows:
        print(json.dumps(row))
    print("judges:", jr.judges, "ambiguities:", jr.ambiguities)
