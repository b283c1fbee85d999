"""Independent Python reference for the judge marts: ``judge_agreement`` (with the columns
human_prevalence, judge_prevalence, alpha_humans, alpha_with_judge), ``judge_weights``,
``judge_metric_values`` and the ``metric_values`` rows with ``slice_dimension = 'label_source'``.
The weights, the weighted vote and the judge metric values follow docs/rules.md, "Judges" (see
"Judge weights, weighted vote and judge metric values" below).

Written from docs/rules.md (sections "Judges", "Consensus", "Agreement and
tiers") only, never from the dbt SQL.  Row validation, superseding, duplicates and the human
consensus come from the core of ``reference`` (``Reference.rows[task]`` with ``status`` and post-repair
``labels``; ``Reference.units[task][unit]["labels" / "method"]``); the tier of a record per
family comes from ``reference/agreement.py`` (``AgreementReference.tiers[task][record]``).

Contract, as read here
----------------------
* Judges: annotators of kind ``LLM`` or ``CODE`` in ``annotators.csv``, whatever their role
  (an id absent from ``annotators.csv`` is a ``HUMAN`` annotator, never a judge).  Judges take
  no part in the consensus (it uses ``HUMAN`` rows only) nor in the voter count of the tier rule.
* One row per (annotator_id, task, label, tier, slice_dimension, slice_value), tier ``all``
  or ``tier_b``, slices ``overall`` and the record's ``language`` and ``task_type``
  (``reference.agreement``'s slices), over the units u
  such that the label has a resolved human consensus on u (each label on its own: a unit whose
  *other* label is tied still counts for this label) and the judge has an accepted row for u.
  ``tier_b`` keeps the units of records whose tier in that family is ``tier_b``.  No row for
  zero units.
* positive = 1; tp = judge 1 & consensus 1, fp = judge 1 & consensus 0, fn = judge 0 &
  consensus 1, tn = judge 0 & consensus 0.  accuracy = (tp + tn) / n.
* cohen_kappa = (p_o - p_e) / (1 - p_e), p_o = accuracy, p_e = pJ1 pC1 + pJ0 pC0 with the
  judge's and the consensus's marginals over those units; null when p_e = 1.
  kappa_ci_lower / kappa_ci_upper: the record-clustered jackknife, kappa recomputed on the
  units of every other record for each record holding a compared unit
  (``reference.agreement.jackknife``).
* precision = tp / (tp + fp), null when tp + fp = 0; recall = tp / (tp + fn), null when
  tp + fn = 0; f1 = 2 P R / (P + R), null when P or R is null or both are 0.

Decisions where docs/rules.md is silent (reported in ``ambiguities`` when they matter)
---------------------------------------------------------------------------------
* The judge's value is the accepted row's post-repair label (under ``constraint_policy:
  repair`` a repaired judge row carries the repaired value, as votes do); under ``reject`` this
  is simply the parsed value.
* ``annotator_kind`` is compared after trimming, case-sensitively (the core of ``reference`` trims it);
  a kind that is ``llm``/``code`` only up to case is reported as an ambiguity.

Judge weights, weighted vote and judge metric values (docs/rules.md, "Judges")
-----------------------------------------------------------------------------
* alpha_humans / alpha_with_judge: ``reference.agreement.label_stats`` (the alpha of docs/rules.md)
  over the units U of the row with the voters' votes, without / with the judge's value as one
  more vote; units with fewer than 2 values drop out; null when none is pairable or the
  expected disagreement is 0.
* alpha_humans_ci_lower / _upper: the record-clustered jackknife of alpha_humans, one replicate
  per record holding a unit with two or more votes (``reference.agreement.jackknife``).
* judge_weights: gold_kappa = exact mean of the non-null tier_b kappas of the (judge, task);
  weight = max(gold_kappa, 0), 0 when null; is_within_kappa_bounds = gold_kappa >=
  judge_min_kappa compared exactly (Fraction of the var's decimal text); a gold_kappa within
  1e-9 of the threshold is reported in ``ambiguities`` (float SQL could decide either way).
  The alpha bound over the tier_b labels with both alphas: out of bounds when alpha_with_judge <
  alpha_humans_ci_lower (when defined) or (alpha_humans >= target and alpha_with_judge < target);
  within when at least one label is judged and none is out.  is_within_bounds follows the var
  judge_bound (``alpha`` or ``kappa``).
* Weighted vote: exact sums of the exact weights of the within-bounds judges; score 0 is a
  tie.  Unlabelled records: an accepted judge row and no accepted HUMAN row (any role) in the
  family; a record is estimated when all its units (chunks with an accepted judge row) are
  resolved.  Per-record measures as for the human consensus (the core of ``reference``).
* metric_values/label_source: ``human`` = the overall rows; ``judges`` = the same rule over
  the estimated records (no row when no record is estimated).
* judge_metric_values: compared records = human-resolved records where the judge has an
  accepted row on every human unit; the judge's per-record values use the human units' ranks
  (equal to the judge rows' ranks after the rank check) and the judge's labels; value, n_units
  and interval exactly as ``metric_values`` (``reference.slice_metric_values``).

Statistics are exact (``fractions.Fraction``) and converted to float at the end.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import reference as R
from reference import agreement as A

JUDGE_KINDS = ("LLM", "CODE")
JUDGE_TIERS = ("all", "tier_b")
JUDGE_KEY = ["annotator_id", "task", "label", "tier", "slice_dimension", "slice_value"]
JUDGE_OVERALL_KEY = JUDGE_KEY[:4]     # the key of the overall rows (slice overall)
JUDGE_VALUES = ["n_units", "tp", "fp", "fn", "tn", "accuracy", "cohen_kappa", "precision",
                "recall", "f1", "human_prevalence", "judge_prevalence", "alpha_humans",
                "alpha_with_judge", "alpha_humans_ci_lower", "alpha_humans_ci_upper",
                "kappa_ci_lower", "kappa_ci_upper"]
JUDGE_COLUMNS = JUDGE_KEY + JUDGE_VALUES
DEFAULT_MIN_KAPPA = 0.6
DEFAULT_JUDGE_BOUND = "alpha"

WEIGHTS_KEY = ["annotator_id", "task"]
WEIGHTS_VALUES = ["annotator_kind", "n_gold_units", "n_gold_labels", "gold_kappa", "weight",
                  "min_kappa", "is_within_kappa_bounds", "n_alpha_labels",
                  "n_alpha_labels_out_of_bounds", "min_alpha_margin", "is_within_alpha_bounds",
                  "bound", "is_within_bounds"]
WEIGHTS_COLUMNS = WEIGHTS_KEY + WEIGHTS_VALUES

JMV_KEY = ["run_id", "annotator_id", "family", "metric", "k"]
JMV_VALUES = ["annotator_kind", "n_records", "judge_value", "judge_n_units", "judge_ci_lower",
              "judge_ci_upper", "human_value", "human_n_units", "human_ci_lower",
              "human_ci_upper", "difference"]
JMV_COLUMNS = JMV_KEY + JMV_VALUES

MV_KEY = ["run_id", "family", "metric", "k", "slice_dimension", "slice_value"]
MV_VALUES = ["value", "n_units", "ci_lower", "ci_upper"]


def confusion_stats(pairs: list[tuple[int, int]]) -> dict | None:
    """The measures of one (judge, task, label, tier) from its (judge, consensus) pairs.

    None when there is no pair (no row).  Exact; the definitions of docs/rules.md literally."""
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
    # (judge, task, label, tier, slice_dimension, slice_value) -> [(unit, judge value, consensus value)]
    pairs: dict
    # task -> judge -> unit -> accepted Row (every accepted judge row, counted or not)
    judge_rows: dict
    rows: list                      # expected judge_agreement rows
    ambiguities: list = field(default_factory=list)
    min_kappa: float = DEFAULT_MIN_KAPPA
    judge_bound: str = DEFAULT_JUDGE_BOUND
    alpha_target: float = A.DEFAULT_ALPHA_TARGET
    k_values: tuple = R.DEFAULT_K_VALUES
    weights: list = field(default_factory=list)         # expected judge_weights rows
    # (judge, task) -> exact gold kappa / weight (Fraction or None) and is_within_bounds
    gold: dict = field(default_factory=dict)
    # task -> unit -> {"labels", "score", "method", "rank", "judges"} (judge-estimated units)
    vote_units: dict = field(default_factory=dict)
    # task -> record -> {"units": [...], "resolved": bool, "measures": ...} (unlabelled records)
    estimated: dict = field(default_factory=dict)
    label_source_rows: list = field(default_factory=list)   # metric_values, label_source
    judge_metric_rows: list = field(default_factory=list)   # judge_metric_values
    # (judge, family) -> [record_uuid] compared records of judge_metric_values
    compared: dict = field(default_factory=dict)
    # (judge, family) -> record_uuid -> the judge's per-record measures on a compared record
    compared_measures: dict = field(default_factory=dict)

    @property
    def ref(self) -> R.Reference:
        return self.agr.ref

    def by_key(self) -> dict:
        """The overall rows by (annotator_id, task, label, tier)."""
        return {tuple(r[c] for c in JUDGE_OVERALL_KEY): r for r in self.rows
                if r["slice_dimension"] == "overall"}

    def weights_by_key(self) -> dict:
        return {tuple(r[c] for c in WEIGHTS_KEY): r for r in self.weights}

    def judge_metrics_by_key(self) -> dict:
        return {tuple(r[c] for c in JMV_KEY): r for r in self.judge_metric_rows}


def kappa_replicates(unit_pairs: list) -> list:
    """Kappa of the judge against the consensus without each record's units, recomputed from
    the remaining (unit, judge, consensus) triples (docs/rules.md, Agreement uncertainty)."""
    records = sorted({unit[0] for unit, _, _ in unit_pairs})
    out = []
    for rec in records:
        rest = [(j, c) for unit, j, c in unit_pairs if unit[0] != rec]
        stats = confusion_stats(rest)
        out.append(None if stats is None else stats["cohen_kappa"])
    return out


def compute(seed_dir, null_mode: str = "agate", constraint_policy: str = "reject",
            agr: A.AgreementReference | None = None, judge_min_kappa=DEFAULT_MIN_KAPPA,
            judge_bound: str = DEFAULT_JUDGE_BOUND, k_values=R.DEFAULT_K_VALUES,
            **agreement_kwargs) -> JudgeReference:
    if agr is None:
        ref = R.compute(Path(seed_dir), null_mode=null_mode, constraint_policy=constraint_policy,
                        k_values=k_values)
        agr = A.compute(Path(seed_dir), null_mode=null_mode, constraint_policy=constraint_policy,
                        ref=ref, **agreement_kwargs)
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
                # the record's slices (docs/rules.md, Agreement where it is tracked)
                groups = [A.OVERALL] + [(dim, agr.slices[task][unit[0]][dim]) for dim in A.SLICE_DIMENSIONS]
                for label in spec["labels"]:
                    if info["method"][label] == "tied":
                        continue
                    value, truth = row.labels[label], info["labels"][label]
                    assert value in (0, 1) and truth in (0, 1), (task, unit, judge, label)
                    for t in JUDGE_TIERS:
                        if t == "all" or tier == t:
                            for group in groups:
                                pairs[(judge, task, label, t, *group)].append((unit, value, truth))

    rows = []
    exact: dict[tuple, dict] = {}
    for key in sorted(pairs):
        s = confusion_stats([(j, c) for _, j, c in pairs[key]])
        if s is None:
            continue
        judge, task, label = key[:3]
        s.update(alpha_columns(agr, task, label, pairs[key]))
        exact[key] = s
        out = dict(zip(JUDGE_KEY, key))
        for c in ("n_units", "tp", "fp", "fn", "tn"):
            out[c] = s[c]
        for c in ("accuracy", "cohen_kappa", "precision", "recall", "f1", "human_prevalence",
                  "judge_prevalence", "alpha_humans", "alpha_with_judge"):
            out[c] = _f(s[c])
        jk = A.jackknife(s["cohen_kappa"], kappa_replicates(pairs[key]))
        out["kappa_ci_lower"], out["kappa_ci_upper"] = jk["lower"], jk["upper"]
        ja = A.jackknife(s["alpha_humans"], alpha_replicates(agr, task, label, pairs[key]))
        out["alpha_humans_ci_lower"], out["alpha_humans_ci_upper"] = ja["lower"], ja["upper"]
        s["alpha_humans_ci_lower"] = ja["lower"]
        s["alpha_humans_se"] = ja["se"]
        rows.append(out)
    jr = JudgeReference(agr, judges, dict(pairs), judge_rows, rows, ambiguities,
                        min_kappa=judge_min_kappa, judge_bound=judge_bound,
                        alpha_target=agreement_kwargs.get("agreement_alpha_target",
                                                          A.DEFAULT_ALPHA_TARGET),
                        k_values=tuple(sorted(set(k_values))))
    _judge_weights(jr, exact)
    _weighted_vote(jr)
    _label_source_rows(jr)
    _judge_metric_values(jr)
    return jr


# --------------------------------------------------------------------------- new columns

def alpha_columns(agr: A.AgreementReference, task: str, label: str, upairs: list) -> dict:
    """human_prevalence, judge_prevalence, alpha_humans, alpha_with_judge of one
    judge_agreement row from its (unit, judge value, consensus value) triples (exact).

    Votes: reference.agreement's voters (accepted rows of HUMAN annotators of role
    ``annotator``, post-repair values).  Krippendorff's alpha with the formula of docs/rules.md
    (reference.agreement.label_stats); units with fewer than 2 values drop out; null when no
    unit is pairable or the expected disagreement is 0."""
    n = len(upairs)
    humans, with_judge = [], []
    for unit, j, _c in upairs:
        votes = [lab[label] for _a, lab in sorted(agr.votes[task].get(unit, {}).items())]
        if votes:
            humans.append(votes)
        with_judge.append(votes + [j])
    sh = A.label_stats(humans) if humans else None
    sj = A.label_stats(with_judge)
    return {"human_prevalence": Fraction(sum(c for _, _, c in upairs), n),
            "judge_prevalence": Fraction(sum(j for _, j, _ in upairs), n),
            "alpha_humans": None if sh is None else sh["krippendorff_alpha"],
            "alpha_with_judge": None if sj is None else sj["krippendorff_alpha"]}


def alpha_replicates(agr: A.AgreementReference, task: str, label: str, upairs: list) -> list:
    """The humans' alpha of one judge_agreement row without each record's units, for each
    record holding a unit with two or more votes (docs/rules.md, Agreement uncertainty)."""
    def votes(unit):
        return [lab[label] for _a, lab in sorted(agr.votes[task].get(unit, {}).items())]

    by_record: dict = {}
    for u, _, _ in upairs:
        if v := votes(u):
            by_record.setdefault(u[0], []).append(v)
    return A.label_jackknife(by_record)["alpha"]


# --------------------------------------------------------------------------- judge_weights

def judge_weight(gold_kappa):
    """The default ``ragmart_judge_weight``: kappa clipped at 0, 0 when null (exact)."""
    return Fraction(0) if gold_kappa is None else max(gold_kappa, Fraction(0))


def _judge_weights(jr: JudgeReference, exact: dict) -> None:
    min_kappa = Fraction(str(jr.min_kappa))
    for task, spec in R.TASKS.items():
        units = jr.ref.units[task]
        for judge, by_unit in sorted(jr.judge_rows[task].items()):
            if not by_unit:
                continue
            gold_units = {u for u in by_unit if u in units
                          and jr.agr.tiers[task].get(u[0]) == "tier_b"
                          and any(m != "tied" for m in units[u]["method"].values())}
            tier_b = [exact[(judge, task, label, "tier_b", *A.OVERALL)] for label in spec["labels"]
                      if (judge, task, label, "tier_b", *A.OVERALL) in exact]
            kappas = [s["cohen_kappa"] for s in tier_b if s["cohen_kappa"] is not None]
            gold = sum(kappas, Fraction(0)) / len(kappas) if kappas else None
            weight = judge_weight(gold)
            within_kappa = gold is not None and gold >= min_kappa
            alpha = _alpha_bound(jr, judge, task, tier_b)
            within = alpha["is_within_alpha_bounds"] if jr.judge_bound == "alpha" else within_kappa
            if gold is not None and abs(gold - min_kappa) < Fraction(1, 10 ** 9):
                jr.ambiguities.append(f"judge_weights {judge} {task}: gold_kappa {gold} is at "
                                      f"min_kappa {min_kappa} (float comparison is fragile)")
            jr.gold[(judge, task)] = {"gold_kappa": gold, "weight": weight,
                                      "is_within_bounds": within}
            jr.weights.append({
                "annotator_id": judge, "task": task, "annotator_kind": jr.judges[judge][0],
                "n_gold_units": len(gold_units), "n_gold_labels": len(tier_b),
                "gold_kappa": _f(gold), "weight": float(weight), "min_kappa": float(jr.min_kappa),
                "is_within_kappa_bounds": within_kappa, **alpha, "bound": jr.judge_bound,
                "is_within_bounds": within})


def _alpha_bound(jr: JudgeReference, judge: str, task: str, tier_b: list) -> dict:
    """The alpha bound of one (judge, task) over its tier_b labels: a label is judged when it
    has alpha_humans and alpha_with_judge; it is out of bounds when alpha_with_judge is below the
    humans' jackknife lower bound (when there is one) or below the alpha target while the
    humans' alpha meets it.  The lower bound is a float (t quantile, square root), so that
    comparison is in floats; a margin within 1e-9 is an ambiguity."""
    target = Fraction(str(jr.alpha_target))
    judged = out = 0
    margins = []
    for s in tier_b:
        ah, aj, lower = s["alpha_humans"], s["alpha_with_judge"], s["alpha_humans_ci_lower"]
        if ah is None or aj is None:
            continue
        judged += 1
        below_lower = False
        if lower is not None:
            margin = float(aj) - lower
            margins.append(margin)
            below_lower = margin < 0
            if s["alpha_humans_se"] == 0:
                # every replicate equal: the lower bound is alpha_humans itself, compared exactly
                below_lower = aj < max(ah, Fraction(-1))
            elif abs(margin) < 1e-9:
                jr.ambiguities.append(f"judge_weights {judge} {task}: alpha_with_judge {aj} is at "
                                      f"the humans' lower bound {lower}")
        if below_lower or (ah >= target and aj < target):
            out += 1
    return {"n_alpha_labels": judged, "n_alpha_labels_out_of_bounds": out,
            "min_alpha_margin": min(margins) if margins else None,
            "is_within_alpha_bounds": judged > 0 and out == 0}


# --------------------------------------------------------------------------- weighted vote

def _is_human(ref: R.Reference, annotator_id) -> bool:
    return ref.annotators.get(annotator_id, {}).get("annotator_kind", "HUMAN") not in JUDGE_KINDS


def _weighted_vote(jr: JudgeReference) -> None:
    """Judge-estimated units and records of the unlabelled records (docs/rules.md, "Judges")."""
    ref = jr.ref
    for task, spec in R.TASKS.items():
        accepted = [r for r in ref.rows[task] if r.status == "accepted"]
        human_records = {r.record_uuid for r in accepted if _is_human(ref, r.annotator_id)}
        by_unit: dict[tuple, list] = defaultdict(list)
        for r in accepted:
            if r.annotator_id in jr.judges and r.record_uuid not in human_records:
                by_unit[r.unit].append(r)
        vote_units: dict[tuple, dict] = {}
        recs: dict[str, dict] = {}
        for unit, urows in sorted(by_unit.items()):
            info: dict = {"record_uuid": unit[0], "labels": {}, "score": {}, "method": {},
                          "judges": sorted(r.annotator_id for r in urows)}
            if task == "retrieval":
                ranks = {r.rank for r in urows}
                assert len(ranks) == 1, (unit, ranks)
                info["chunk_id"] = unit[1]
                info["rank"] = ranks.pop()
            for label in spec["labels"]:
                score = Fraction(0)
                for r in urows:
                    g = jr.gold[(r.annotator_id, task)]
                    if g["is_within_bounds"]:
                        score += g["weight"] * (1 if r.labels[label] == 1 else -1)
                info["score"][label] = score
                if score > 0:
                    info["labels"][label], info["method"][label] = 1, "weighted"
                elif score < 0:
                    info["labels"][label], info["method"][label] = 0, "weighted"
                else:
                    info["labels"][label], info["method"][label] = None, "tied"
            info["resolved"] = all(m != "tied" for m in info["method"].values())
            vote_units[unit] = info
            rec = recs.setdefault(unit[0], {"units": [], "resolved": True})
            rec["units"].append(info)
            rec["resolved"] = rec["resolved"] and info["resolved"]
        for rec_id, rec in recs.items():
            rec["run_id"] = jr.ref.record_runs[task][rec_id]["run_id"]
            if not rec["resolved"]:
                continue
            if task == "retrieval":
                rec["measures"] = R.retrieval_record_measures(rec["units"], jr.k_values)
            else:
                rec["measures"] = dict(rec["units"][0]["labels"])
        jr.vote_units[task] = vote_units
        jr.estimated[task] = recs


def _label_source_rows(jr: JudgeReference) -> None:
    """metric_values rows with slice_dimension ``label_source``."""
    out = []
    for task in R.TASKS:
        human = R.by_run(r for r in jr.ref.records[task].values() if r["resolved"])
        for run_id, records in sorted(human.items()):
            out += R.slice_metric_values(task, "label_source", "human", records, jr.k_values, run_id)
        judged = R.by_run(r for r in jr.estimated[task].values() if r["resolved"])
        for run_id, records in sorted(judged.items()):
            out += R.slice_metric_values(task, "label_source", "judges", records, jr.k_values, run_id)
    jr.label_source_rows = out


# --------------------------------------------------------------------------- judge_metric_values

def _record_values(task: str, records: list[dict], k_values) -> dict[tuple, tuple]:
    """(metric, k) -> (value, n_units, ci_lower, ci_upper) as metric_values computes them,
    over per-record ``measures``."""
    out = {}
    for row in R.slice_metric_values(task, "x", "x", records, k_values):
        out[(row["metric"], row["k"])] = (row["value"], row["n_units"], row["ci_lower"],
                                          row["ci_upper"])
    return out


def _judge_metric_values(jr: JudgeReference) -> None:
    out = []
    for task in R.TASKS:
        for judge, by_unit in sorted(jr.judge_rows[task].items()):
            judged, human, ids, runs = [], [], [], []
            for rec_id, rec in sorted(jr.ref.records[task].items()):
                if not rec["resolved"]:
                    continue
                keys = [(u["record_uuid"], u["chunk_id"]) if task == "retrieval"
                        else (u["record_uuid"],) for u in rec["units"]]
                if not all(k in by_unit for k in keys):
                    continue
                ids.append(rec_id)
                runs.append(rec["run_id"])
                human.append(rec)
                if task == "retrieval":
                    units = [{"labels": by_unit[k].labels, "rank": u["rank"]}
                             for k, u in zip(keys, rec["units"])]
                    for k, u in zip(keys, rec["units"]):
                        assert by_unit[k].rank == u["rank"], (judge, k)
                    judged.append({"measures": R.retrieval_record_measures(units, jr.k_values)})
                else:
                    judged.append({"measures": dict(by_unit[keys[0]].labels)})
            if not ids:
                continue
            jr.compared[(judge, task)] = ids
            jr.compared_measures[(judge, task)] = {i: j["measures"] for i, j in zip(ids, judged)}
            for run_id in sorted(set(runs)):
                in_run = [i for i, run in enumerate(runs) if run == run_id]
                out += _judge_run_rows(jr, judge, task, run_id, [judged[i] for i in in_run],
                                       [human[i] for i in in_run])
    jr.judge_metric_rows = out


def _judge_run_rows(jr: JudgeReference, judge: str, task: str, run_id: str, judged: list[dict],
                    human: list[dict]) -> list[dict]:
    """The judge_metric_values rows of one judge, family and run (its compared records there)."""
    out = []
    jv = _record_values(task, judged, jr.k_values)
    hv = _record_values(task, human, jr.k_values)
    for (metric, k), (v, n, lo, hi) in jv.items():
        hv_, hn, hlo, hhi = hv[(metric, k)]
        out.append({"run_id": run_id, "annotator_id": judge, "family": task, "metric": metric, "k": k,
                    "annotator_kind": jr.judges[judge][0], "n_records": len(judged),
                    "judge_value": v, "judge_n_units": n, "judge_ci_lower": lo,
                    "judge_ci_upper": hi, "human_value": hv_, "human_n_units": hn,
                    "human_ci_lower": hlo, "human_ci_upper": hhi,
                    "difference": None if v is None or hv_ is None else v - hv_})
    return out


if __name__ == "__main__":  # pragma: no cover - manual inspection helper
    import json
    import sys

    jr = compute(sys.argv[1])
    for row in jr.rows:
        print(json.dumps(row))
    print("judges:", jr.judges, "ambiguities:", jr.ambiguities)
