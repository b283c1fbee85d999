"""Independent Python reference for the ADR-001 protocol marts.

Written from docs/rules.md ("Consensus", "Marts", "Agreement and tiers"),
ADR-001, the README section "Agreement and the tiered labeling protocol" and the YAML
descriptions of ``metric_values``, ``labeling_protocol``, ``labeling_drift`` and
``annotator_quality`` -- never from the dbt SQL.  Validation, consensus and per-record measures
come from the core of ``reference``; tiers, votes and ``annotator_agreement`` from
``reference/agreement.py``.

Entry point: ``compute(seed_dir, null_mode=..., ...)`` returns a :class:`ProtocolReference`
whose ``marts`` hold the expected rows of

* ``metric_values_tier``: ``metric_values`` rows with ``slice_dimension = 'tier'``;
* ``labeling_protocol``, ``labeling_drift``, ``annotator_quality``;
* ``spot_check_queue`` and ``adjudication_queue``, ADR-001's work queues.

Readings taken where the documentation leaves room (``notes`` reports the cases where the
data makes them matter)
--------------------------------------------------------------------------------------------
* Records of a family = records with an accepted row of a HUMAN annotator (voter or
  adjudicator) in that family, i.e. records with a unit.  Their tier is the record's tier in
  that family (reference.agreement.tiers).
* ``labeling_protocol`` has a row for ``all`` and for each tier with at least one record of the
  family (a family without records has no row).  The single-annotated records of the cost are
  ``n_records - n_dual_annotated`` (records with fewer than two voters; a record whose only
  human rows are an adjudicator's would count as single -- reported in ``notes``).
* A record is dual-annotated when two or more distinct voters have votes on it (on any of its
  units); it disagrees when a unit with two or more votes has a label whose votes differ.
* ``labeling_drift``: a row per week with a unit of a tier_a record that has a vote; the unit's
  instant is the latest ``created_at`` (UTC instant) among its votes; its ISO week is that of the
  UTC date; ``iso_week`` is written ``YYYY-Www`` (two-digit week).  Spot-checked units: two or
  more votes.  Rates are compared with the threshold exactly (``Fraction``); ``notes`` reports a
  rate where float comparison would differ.  ``is_drift_alert`` needs the rate above the
  threshold on at least ``drift_min_spot_checks`` spot-checked units in the week and in the
  previous calendar week (false when that week has no row); ``is_reversal_triggered`` is an
  alert in this or an earlier week of the family.
* ``spot_check_queue``: the frame is the tier_a records with a voter; a record's week is the ISO
  week of the UTC date of its earliest vote (any unit), its first annotator that vote's voter
  (the smallest id in byte order on a tie); drawn when int(md5('<record>/<week>')[:8], 16) <
  ceil(share * 2^32), share = ``spot_check_rate_target`` read exactly as a decimal.  Eligible
  second labelers and adjudicators: the ids of annotators.csv (trimmed) of kind HUMAN and that
  role (kind upper-cased, role lower-cased after trimming), not among the record's (unit's)
  voters.  ``task_type``: the valid records row's, trimmed of spaces, tabs, CR and LF,
  ``unknown`` when empty or absent.
* ``adjudication_queue``: every (unit, label) whose consensus method is ``tied``.
* ``annotator_quality``: timestamps are naive UTC datetimes (microseconds; the seeds carry at
  most six fraction digits -- more is reported in ``notes``).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import reference as R
from reference import agreement as A

TIER_SLICES = ("tier_a", "tier_b")
PROTOCOL_TIERS = ("tier_a", "tier_b", "all")

DEFAULTS = {
    "gold_share_target": "0.40",
    "spot_check_rate_target": "0.10",
    "single_annotation_cost": "0.16",
    "dual_annotation_cost": "0.40",
    "drift_disagreement_threshold": "0.12",
    "drift_min_spot_checks": "20",
    "agreement_alpha_target": "0.75",
    "gold_target_cases": "1000",
    "gold_target_high_stakes": "400",
}

METRIC_VALUES_KEY = ["run_id", "family", "metric", "k", "slice_dimension", "slice_value"]
METRIC_VALUES_VALUES = ["value", "n_units", "ci_lower", "ci_upper"]
PROTOCOL_KEY = ["task", "tier", "slice_dimension", "slice_value"]
PROTOCOL_COLUMNS = ["task", "tier", "slice_dimension", "slice_value", "n_records", "share_of_records", "target_share_of_records",
                    "n_dual_annotated", "n_disagreeing", "n_adjudicated", "n_pending",
                    "dual_annotation_rate", "spot_check_rate_target", "n_labels_with_alpha",
                    "min_krippendorff_alpha", "alpha_target", "meets_alpha_target",
                    "labeling_cost", "min_alpha_ci_lower", "max_p_alpha_below_target",
                    "n_gold_cases", "gold_target_cases", "n_gold_cases_needed", "n_high_stakes_cases",
                    "gold_target_high_stakes", "n_high_stakes_cases_needed", "cost_per_case",
                    "target_cost_per_case"]
DRIFT_KEY = ["task", "week_start"]
DRIFT_COLUMNS = ["task", "iso_week", "week_start", "n_spot_checked_units",
                 "n_disagreeing_units", "disagreement_rate", "previous_week_disagreement_rate",
                 "drift_threshold", "is_above_threshold", "is_drift_alert", "n_triage_units",
                 "previous_week_n_spot_checked_units", "min_spot_checks",
                 "has_too_few_spot_checks", "is_reversal_triggered"]
SPOT_CHECK_KEY = ["task", "record_uuid"]
SPOT_CHECK_COLUMNS = ["task", "iso_week", "week_start", "record_uuid", "run_id", "language",
                      "task_type", "first_annotator_id", "first_vote_at_utc", "n_voters",
                      "has_second_vote", "eligible_second_labelers", "n_eligible_second_labelers",
                      "selection_score", "inclusion_probability", "n_week_records"]
ADJUDICATION_KEY = ["task", "record_uuid", "chunk_id", "label"]
ADJUDICATION_COLUMNS = ["task", "record_uuid", "chunk_id", "label", "run_id", "tier", "language",
                        "task_type", "n_votes", "n_positive_votes", "n_adjudications", "voter_ids",
                        "latest_vote_at_utc", "eligible_adjudicators", "n_eligible_adjudicators"]
QUALITY_KEY = ["task", "annotator_id"]
QUALITY_COLUMNS = ["task", "annotator_id", "n_units", "n_label_votes", "positive_vote_rate",
                   "n_shared_units", "n_pairwise_comparisons", "pairwise_agreement",
                   "n_adjudicated_labels", "adjudication_agreement", "first_vote_at_utc",
                   "last_vote_at_utc"]


def _f(x):
    return None if x is None else float(x)


def _ratio(num, den):
    return None if den == 0 else Fraction(num, den)


def utc_datetime(instant: Fraction) -> datetime:
    """Naive UTC datetime (microsecond precision, truncated) of an exact instant."""
    secs = math.floor(instant)
    micros = math.floor((instant - secs) * 1_000_000)
    return datetime(1970, 1, 1) + timedelta(seconds=secs, microseconds=micros)


def iso_week(instant: Fraction) -> tuple[str, object]:
    """(``YYYY-Www``, Monday) of the ISO week holding the UTC date of ``instant``."""
    d = datetime.fromtimestamp(math.floor(instant), UTC).date()
    year, week, weekday = d.isocalendar()
    return f"{year}-W{week:02d}", d - timedelta(days=weekday - 1)


@dataclass
class ProtocolReference:
    ref: R.Reference
    agr: A.AgreementReference
    voter_rows: dict                # task -> unit -> {annotator: accepted Row}
    marts: dict
    notes: list = field(default_factory=list)


def voter_rows(ref: R.Reference, agr: A.AgreementReference, task: str) -> dict:
    """unit -> {voter: the accepted row that is the vote} (the rows behind agr.votes)."""
    out: dict[tuple, dict] = defaultdict(dict)
    for r in ref.rows[task]:
        if r.status != "accepted":
            continue
        kind = ref.annotators.get(r.annotator_id, {}).get("annotator_kind", "HUMAN")
        role = ref.annotators.get(r.annotator_id, {}).get("role", "annotator")
        if kind == "HUMAN" and role == "annotator":
            assert r.annotator_id not in out[r.unit]
            out[r.unit][r.annotator_id] = r
    out = dict(out)
    # the same votes as reference.agreement
    assert {u: set(v) for u, v in out.items()} == \
        {u: set(v) for u, v in agr.votes[task].items()}, task
    return out


def _disagrees(votes: dict, labels) -> bool:
    """votes: {annotator: {label: value}} of one unit -> some label's votes differ."""
    return any(len({v[c] for v in votes.values()}) > 1 for c in labels)


def tier_metric_values(ref: R.Reference, agr: A.AgreementReference) -> list[dict]:
    out = []
    k_values = ref.params["k_values"]
    for task in R.TASKS:
        resolved = [(rid, rec) for rid, rec in ref.records[task].items() if rec["resolved"]]
        for run_id in ref.runs:
            for tier in TIER_SLICES:
                srecs = [rec for rid, rec in resolved if agr.tiers[task][rid] == tier and rec["run_id"] == run_id]
                if srecs:
                    out += R.slice_metric_values(task, "tier", tier, srecs, k_values, run_id)
    return out


def labeling_protocol(ref, agr, vrows, params, notes,
                      gold_task_types=A.DEFAULT_GOLD_TASK_TYPES) -> list[dict]:
    """Rows per task, slice (overall and each task type) and tier; the plan's columns per
    docs/rules.md, Agreement where it is tracked."""
    out = []
    alpha_target = Fraction(params["agreement_alpha_target"])
    single, dual = Fraction(params["single_annotation_cost"]), Fraction(params["dual_annotation_cost"])
    share = Fraction(params["gold_share_target"])
    target_cases, target_high = Fraction(params["gold_target_cases"]), Fraction(params["gold_target_high_stakes"])
    agreement = defaultdict(list)      # (task, tier, slice) -> agreement rows
    for row in agr.marts["annotator_agreement"]:
        agreement[(row["task"], row["tier"], row["slice_dimension"], row["slice_value"])].append(row)
    for task, spec in R.TASKS.items():
        labels = spec["labels"]
        units_of: dict[str, list] = defaultdict(list)
        for u in ref.units[task]:
            units_of[u[0]].append(u)
        recs: dict[str, dict] = {}
        for rid in ref.records[task]:
            units = units_of[rid]
            voters = {a for u in units for a in vrows[task].get(u, {})}
            methods = {m for u in units for m in ref.units[task][u]["method"].values()}
            task_type = agr.slices[task][rid]["task_type"]
            recs[rid] = {
                "tier": agr.tiers[task][rid],
                "task_type": task_type,
                "dual": len(voters) >= 2,
                "no_voter": not voters,
                "disagreeing": any(len(agr.votes[task].get(u, {})) >= 2
                                   and _disagrees(agr.votes[task][u], labels) for u in units),
                "adjudicated": "adjudicated" in methods,
                "pending": "tied" in methods,
                "high_stakes": task_type in gold_task_types,
            }
        if not recs:
            continue
        types = sorted({r["task_type"] for r in recs.values()})
        others = [t for t in types if t != "unknown" and t not in gold_task_types]
        for dim, value in [("overall", "overall")] + [("task_type", t) for t in types]:
            in_slice = [r for r in recs.values() if dim == "overall" or r["task_type"] == value]
            for tier in PROTOCOL_TIERS:
                sel = [r for r in in_slice if tier == "all" or r["tier"] == tier]
                n = len(sel)
                if n == 0:
                    if dim == "overall":
                        notes.append(f"labeling_protocol {task} {tier}: no record (no row expected)")
                    continue
                if any(r["no_voter"] for r in sel) and dim == "overall":
                    notes.append(f"labeling_protocol {task} {tier}: "
                                 f"{sum(r['no_voter'] for r in sel)} record(s) without a voter "
                                 f"counted as single-annotated in labeling_cost")
                dual_n = sum(r["dual"] for r in sel)
                rows = agreement.get((task, tier, dim, value), [])
                alphas = [r["krippendorff_alpha"] for r in rows if r["krippendorff_alpha"] is not None]
                target = {"tier_a": 1 - share, "tier_b": share, "all": Fraction(1)}[tier]
                cost = (n - dual_n) * single + dual_n * dual
                n_gold = sum(not r["pending"] for r in sel)
                n_high = sum(r["high_stakes"] and not r["pending"] for r in sel)
                # the plan's targets (tier all rows only): overall holds them, a task type its share
                goal = goal_high = None
                if tier == "all" and dim == "overall":
                    goal, goal_high = target_cases, target_high
                elif tier == "all" and value in gold_task_types:
                    goal = goal_high = target_high / len(gold_task_types)
                elif tier == "all" and value != "unknown":
                    goal = (target_cases - target_high) / len(others)
                out.append({
                    "task": task, "tier": tier, "slice_dimension": dim, "slice_value": value,
                    "n_records": n,
                    "share_of_records": _f(Fraction(n, len(in_slice))),
                    "target_share_of_records": _f(target),
                    "n_dual_annotated": dual_n,
                    "n_disagreeing": sum(r["disagreeing"] for r in sel),
                    "n_adjudicated": sum(r["adjudicated"] for r in sel),
                    "n_pending": sum(r["pending"] for r in sel),
                    "dual_annotation_rate": _f(Fraction(dual_n, n)),
                    "spot_check_rate_target": _f(Fraction(params["spot_check_rate_target"]))
                    if tier == "tier_a" else None,
                    "n_labels_with_alpha": len(alphas),
                    "min_krippendorff_alpha": min(alphas) if alphas else None,
                    "alpha_target": _f(alpha_target),
                    # alphas are floats of exact fractions; the exact comparison is
                    # annotator_agreement.meets_target of the reference
                    "meets_alpha_target": None if not alphas else all(
                        r["meets_target"] for r in rows if r["krippendorff_alpha"] is not None),
                    "labeling_cost": _f(cost),
                    # over the row's labels, from the reference's jackknife of annotator_agreement
                    "min_alpha_ci_lower": _extreme(min, rows, "alpha_ci_lower"),
                    "max_p_alpha_below_target": _extreme(max, rows, "p_alpha_below_target"),
                    "n_gold_cases": n_gold,
                    "gold_target_cases": _f(goal),
                    "n_gold_cases_needed": None if goal is None else max(math.ceil(goal - n_gold), 0),
                    "n_high_stakes_cases": n_high,
                    "gold_target_high_stakes": _f(goal_high),
                    "n_high_stakes_cases_needed":
                        None if goal_high is None else max(math.ceil(goal_high - n_high), 0),
                    "cost_per_case": _f(cost / n),
                    "target_cost_per_case": _f(dual * share + single * (1 - share)),
                })
    return out


def _extreme(pick, rows, column: str):
    """min or max of a column of annotator_agreement rows (the reference's), nulls left out;
    None when every one is null."""
    values = [row[column] for row in rows if row[column] is not None]
    return pick(values) if values else None


def labeling_drift(agr, vrows, params, notes) -> list[dict]:
    out = []
    threshold = Fraction(params["drift_disagreement_threshold"])
    min_checks = int(params["drift_min_spot_checks"])
    for task, spec in R.TASKS.items():
        weeks: dict[object, dict] = {}
        for unit, rows in vrows[task].items():
            if not rows or agr.tiers[task][unit[0]] != "tier_a":
                continue
            label, monday = iso_week(max(r.instant for r in rows.values()))
            w = weeks.setdefault(monday, {"iso_week": label, "units": 0, "n": 0, "d": 0})
            assert w["iso_week"] == label
            w["units"] += 1
            if len(rows) >= 2:
                w["n"] += 1
                w["d"] += _disagrees(agr.votes[task][unit], spec["labels"])
        triggered = False
        for monday, w in sorted(weeks.items()):
            rate = _ratio(w["d"], w["n"])
            prev = weeks.get(monday - timedelta(days=7))
            prev_n = 0 if prev is None else prev["n"]
            prev_rate = None if prev is None else _ratio(prev["d"], prev["n"])
            above = rate is not None and rate > threshold
            if rate is not None and above != (float(rate) > float(threshold)):
                notes.append(f"labeling_drift {task} {w['iso_week']}: rate {rate} is above the "
                             f"threshold exactly but not in floating point (or vice versa)")
            alert = bool(above and w["n"] >= min_checks and prev_rate is not None
                         and prev_rate > threshold and prev_n >= min_checks)
            triggered = triggered or alert
            out.append({
                "task": task, "iso_week": w["iso_week"], "week_start": monday,
                "n_spot_checked_units": w["n"], "n_disagreeing_units": w["d"],
                "disagreement_rate": _f(rate), "previous_week_disagreement_rate": _f(prev_rate),
                "drift_threshold": _f(threshold), "is_above_threshold": above,
                "is_drift_alert": alert, "n_triage_units": w["units"],
                "previous_week_n_spot_checked_units": prev_n, "min_spot_checks": min_checks,
                "has_too_few_spot_checks": w["n"] < min_checks,
                "is_reversal_triggered": triggered,
            })
    return out


def by_bytes(ids) -> list[str]:
    return sorted(ids, key=lambda text: text.encode("utf-8"))


def _joined(ids) -> str | None:
    return ";".join(by_bytes(ids)) or None


def listed_annotators(seed_dir: Path, null_mode: str, role: str) -> set[str]:
    """The ids of annotators.csv of kind HUMAN in ``role`` (trimmed; kind and role in any case)."""
    path = Path(seed_dir) / "annotators.csv"
    if not path.exists():
        return set()
    out = set()
    for a in R.read_csv(path, null_mode):
        aid = (a.get("annotator_id") or "").strip(" \t\r\n")
        if aid and (a.get("annotator_kind") or "").strip().upper() == "HUMAN" \
                and (a.get("role") or "").strip().lower() == role:
            out.add(aid)
    return out


def task_type_of(agr, record_uuid: str) -> str:
    given = agr.records.get(record_uuid, {}).get("task_type")
    return (given or "").strip(" \t\r\n") or "unknown"


def selection_cut(share: str) -> int:
    """The draws h (0 to 2^32 - 1) below this are drawn: ceil(share * 2^32)."""
    return math.ceil(Fraction(share) * 2 ** 32)


def selection_hash(record_uuid: str, week: str) -> int:
    return int(hashlib.md5(f"{record_uuid}/{week}".encode()).hexdigest()[:8], 16)


def spot_check_frame(ref, agr, vrows) -> dict[str, dict[str, dict]]:
    """task -> record -> {iso_week, week_start, first_annotator_id, first_vote, voters}: the
    triage records with a voter, drawn or not."""
    out: dict[str, dict[str, dict]] = {}
    for task in R.TASKS:
        first: dict[str, dict[str, Fraction]] = defaultdict(dict)   # record -> voter -> instant
        for unit, rows in vrows[task].items():
            for a, row in rows.items():
                seen = first[unit[0]].get(a)
                first[unit[0]][a] = row.instant if seen is None else min(seen, row.instant)
        out[task] = {}
        for rid, voters in first.items():
            if agr.tiers[task][rid] != "tier_a":
                continue
            instant, annotator = min((t, a.encode("utf-8")) for a, t in voters.items())
            week, monday = iso_week(instant)
            out[task][rid] = {"iso_week": week, "week_start": monday, "first_vote": instant,
                              "first_annotator_id": annotator.decode("utf-8"), "voters": set(voters)}
    return out


def spot_check_queue(ref, agr, vrows, labelers: set[str], params) -> list[dict]:
    cut = selection_cut(params["spot_check_rate_target"])
    out = []
    for task, frame in spot_check_frame(ref, agr, vrows).items():
        week_sizes = Counter(info["week_start"] for info in frame.values())
        for rid, info in frame.items():
            h = selection_hash(rid, info["iso_week"])
            if h >= cut:
                continue
            eligible = labelers - info["voters"]
            rec = ref.records[task][rid]
            out.append({
                "task": task, "iso_week": info["iso_week"], "week_start": info["week_start"],
                "record_uuid": rid, "run_id": rec["run_id"], "language": rec["language"],
                "task_type": task_type_of(agr, rid),
                "first_annotator_id": info["first_annotator_id"],
                "first_vote_at_utc": utc_datetime(info["first_vote"]),
                "n_voters": len(info["voters"]), "has_second_vote": len(info["voters"]) >= 2,
                "eligible_second_labelers": _joined(eligible),
                "n_eligible_second_labelers": len(eligible),
                "selection_score": h / 2 ** 32,
                "inclusion_probability": float(Fraction(cut, 2 ** 32)),
                "n_week_records": week_sizes[info["week_start"]],
            })
    return out


def adjudication_queue(ref, agr, vrows, adjudicators: set[str]) -> list[dict]:
    out = []
    for task, spec in R.TASKS.items():
        n_adjudications: Counter = Counter()
        for r in ref.rows[task]:
            info = ref.annotators.get(r.annotator_id, {})
            if r.status == "accepted" and info.get("annotator_kind", "HUMAN") == "HUMAN" \
                    and info.get("role", "annotator") == "adjudicator":
                n_adjudications[r.unit] += 1
        for unit, cons in ref.units[task].items():
            votes = agr.votes[task].get(unit, {})
            rows = vrows[task].get(unit, {})
            rec = ref.records[task][unit[0]]
            eligible = adjudicators - set(votes)
            for c in spec["labels"]:
                if cons["method"][c] != "tied":
                    continue
                out.append({
                    "task": task, "record_uuid": unit[0],
                    "chunk_id": unit[1] if task == "retrieval" else None, "label": c,
                    "run_id": rec["run_id"], "tier": agr.tiers[task][unit[0]],
                    "language": rec["language"], "task_type": task_type_of(agr, unit[0]),
                    "n_votes": len(votes), "n_positive_votes": sum(v[c] for v in votes.values()),
                    "n_adjudications": n_adjudications[unit],
                    "voter_ids": _joined(votes),
                    "latest_vote_at_utc": utc_datetime(max(r.instant for r in rows.values()))
                    if rows else None,
                    "eligible_adjudicators": _joined(eligible),
                    "n_eligible_adjudicators": len(eligible),
                })
    return out


def annotator_quality(ref, agr, vrows, notes) -> list[dict]:
    out = []
    for task, spec in R.TASKS.items():
        labels = spec["labels"]
        per: dict[str, dict] = defaultdict(lambda: {
            "units": 0, "ones": 0, "shared": 0, "pairs": 0, "pairs_equal": 0, "adj": 0,
            "adj_equal": 0, "instants": []})
        for unit, rows in vrows[task].items():
            votes = agr.votes[task][unit]
            cons = ref.units[task][unit]
            for a, row in rows.items():
                p = per[a]
                p["units"] += 1
                p["instants"].append(row.instant)
                p["ones"] += sum(votes[a][c] for c in labels)
                others = [b for b in votes if b != a]
                if others:
                    p["shared"] += 1
                for c in labels:
                    for b in others:
                        p["pairs"] += 1
                        p["pairs_equal"] += votes[a][c] == votes[b][c]
                    if cons["method"][c] == "adjudicated":
                        p["adj"] += 1
                        p["adj_equal"] += votes[a][c] == cons["labels"][c]
        for a, p in sorted(per.items()):
            for t in p["instants"]:
                if (t * 1_000_000).denominator != 1:
                    notes.append(f"annotator_quality {task} {a}: sub-microsecond timestamp")
            n_votes = p["units"] * len(labels)
            out.append({
                "task": task, "annotator_id": a, "n_units": p["units"],
                "n_label_votes": n_votes,
                "positive_vote_rate": _f(_ratio(p["ones"], n_votes)),
                "n_shared_units": p["shared"], "n_pairwise_comparisons": p["pairs"],
                "pairwise_agreement": _f(_ratio(p["pairs_equal"], p["pairs"])),
                "n_adjudicated_labels": p["adj"],
                "adjudication_agreement": _f(_ratio(p["adj_equal"], p["adj"])),
                "first_vote_at_utc": utc_datetime(min(p["instants"])),
                "last_vote_at_utc": utc_datetime(max(p["instants"])),
            })
    return out


def compute(seed_dir, null_mode: str = "agate", constraint_policy: str = "reject",
            ref: R.Reference | None = None, agr: A.AgreementReference | None = None,
            **params) -> ProtocolReference:
    """``params``: overrides of DEFAULTS (decimal strings)."""
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise TypeError(f"unknown parameters {sorted(unknown)}")
    p = {**DEFAULTS, **{k: str(v) for k, v in params.items()}}
    seed_dir = Path(seed_dir)
    if ref is None:
        ref = R.compute(seed_dir, null_mode=null_mode, constraint_policy=constraint_policy)
    if agr is None:
        agr = A.compute(seed_dir, null_mode=null_mode, ref=ref,
                        agreement_alpha_target=float(p["agreement_alpha_target"]))
    vrows = {task: voter_rows(ref, agr, task) for task in R.TASKS}
    notes: list[str] = []
    marts = {
        "metric_values_tier": tier_metric_values(ref, agr),
        "labeling_protocol": labeling_protocol(ref, agr, vrows, p, notes),
        "labeling_drift": labeling_drift(agr, vrows, p, notes),
        "annotator_quality": annotator_quality(ref, agr, vrows, notes),
        "spot_check_queue": spot_check_queue(
            ref, agr, vrows, listed_annotators(seed_dir, null_mode, "annotator"), p),
        "adjudication_queue": adjudication_queue(
            ref, agr, vrows, listed_annotators(seed_dir, null_mode, "adjudicator")),
    }
    return ProtocolReference(ref, agr, vrows, marts, notes)


if __name__ == "__main__":  # pragma: no cover - manual inspection helper
    import sys

    pr = compute(sys.argv[1])
    for name, rows in pr.marts.items():
        print(name)
        for row in rows:
            print("  ", {k: v for k, v in row.items()})
    print("notes:", pr.notes)
