"""Independent Python reference for the ADR-001 tiers and the agreement marts.

Written from docs/rules.md (sections "Inputs" -- the optional ``records``
seed --, "Agreement and tiers", "Consensus") and ADR-001 only, never from the dbt SQL.
Row validation, superseding and duplicates of the annotation seeds are *not* re-derived:
they come from the core of ``reference`` (``Reference.rows[task]`` with ``status``, post-repair
``labels``, ``unit`` and ``annotator_id``).

Entry point: ``compute(seed_dir, null_mode=..., constraint_policy=..., ...)`` returns an
:class:`AgreementReference` with

* ``records``: the valid rows of ``records.csv`` by record_uuid (rejected rows are absent);
  ``records_rejected``: the rejected rows with their reason;
* ``tiers[task][record_uuid]``: ``tier_a`` / ``tier_b`` of every record of that family and
  ``tier_reason`` the rule that decided it (explicit / task_type / uncertainty / adversarial /
  default / voters);
* ``votes[task][unit]``: {annotator_id: {label: 0/1}} (voters only);
* ``slices[task][record_uuid]``: the record's ``language`` (the core's record language) and
  ``task_type`` (its valid records row's, trimmed; ``unknown`` when it has none), the values
  of the agreement marts' slices (docs/rules.md, Agreement where it is tracked);
* ``marts["annotator_agreement"]`` and ``marts["annotator_pair_agreement"]``: expected rows,
  for the slice ``overall`` and every ``language`` and ``task_type`` value: each slice row is
  computed from scratch over the units of the slice's records only (its jackknife leaves out
  the slice's records);
* ``ambiguities``: records rows that the contract does not pin down (see below).

Statistics are computed exactly (``fractions.Fraction``) with the formulas as docs/rules.md
writes them and converted to float at the end.

Uncertainty (docs/rules.md, Agreement uncertainty): each interval is a direct leave-one-record-out
recomputation -- for every record g holding a unit of the row, the statistic is computed again
from scratch (``label_stats`` / ``pair_stats``) on the units of the other records, which it counts
as every unit's shape (or pair) less the record's -- then
SE = sqrt((G' - 1)/G' * sum (theta_-g - mean)^2) over the G' defined replicates, theta -/+
t_0.975(G' - 1) * SE clipped to [-1, 1] (t from ``scipy.stats.t``), and
p_alpha_below_target = Phi((target - alpha)/SE) (``scipy.stats.norm``).  For alpha and AC1 the
left-out records are those holding a unit with two or more votes; AC1 drops the record's
single-vote units with them.

Decisions where docs/rules.md is silent (reported in ``ambiguities`` when they matter)
---------------------------------------------------------------------------------
* ``records`` cells are loaded like the other seeds (``reference.read_csv``: empty, and under
  the agate loader the text ``null``, are NULL).  ``record_uuid`` is used as loaded (no
  trimming, as the core of ``reference`` does for the annotation ids); blank means missing -> rejected.
* ``task_type`` is matched exactly (no trimming, case-sensitive).  A value that would match
  only after trimming is an ambiguity.
* ``model_uncertainty``: blank is empty (matches no rule); otherwise it must be a plain
  decimal ``[+-]?(digits[.digits] | .digits | digits.)`` after trimming (like ``chunk_rank``
  and the booleans, which the contract trims); compared exactly (Decimal) with
  ``>= gold_uncertainty_threshold``.  Exponent notation (rejected here) is reported as an
  ambiguity.
* ``is_adversarial``: the boolean spellings after trimming and lower-casing; blank is false;
  anything else rejects the row.
* ``tier``: trimmed, then exactly ``tier_a``, ``tier_b`` or empty (case-sensitive: ``TIER_A``
  rejects the row, as the contract lower-cases only booleans).
* Several rows of one record_uuid "differ" when their loaded values of the five contract
  columns differ (extra columns are ignored); rows that differ only in spelling
  (e.g. ``true`` vs ``yes``) are reported as an ambiguity.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

import reference as R

TIERS = ("all", "tier_a", "tier_b")
RECORD_COLS = ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier"]
# the optional columns of the evaluation runs (docs/rules.md, Runs); rows that differ in them conflict too
RUN_COLS = ["run_id", "query_id"]
DEFAULT_GOLD_TASK_TYPES = ("factual_qa", "rag_synthesis")
DEFAULT_THRESHOLD = "0.65"
DEFAULT_ALPHA_TARGET = 0.75

OVERALL = ("overall", "overall")
SLICE_DIMENSIONS = ("language", "task_type")
AGREEMENT_COLUMNS = ["task", "label", "tier", "slice_dimension", "slice_value", "n_units", "n_annotators", "n_pairable_values",
                     "observed_agreement", "krippendorff_alpha", "gwet_ac1", "prevalence",
                     "alpha_target", "meets_target", "alpha_ci_lower", "alpha_ci_upper",
                     "ac1_ci_lower", "ac1_ci_upper", "p_alpha_below_target"]
PAIR_COLUMNS = ["task", "label", "annotator_a", "annotator_b", "slice_dimension", "slice_value",
                "n_shared_units",
                "observed_agreement", "cohen_kappa", "kappa_ci_lower", "kappa_ci_upper"]

_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)")


# --------------------------------------------------------------------------- records seed

def parse_decimal(value: str | None) -> tuple[str, Decimal | None, str | None]:
    """('empty'|'ok'|'invalid', value, ambiguity-or-None)."""
    if R.is_blank(value):
        return "empty", None, None
    v = value.strip()
    note = None
    if _DECIMAL.fullmatch(v):
        return "ok", Decimal(v), note
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+", v):
        return "invalid", None, f"model_uncertainty {value!r} in exponent notation (rejected here)"
    return "invalid", None, note


def check_records_row(raw: dict) -> tuple[list[str], dict, list[str]]:
    """Own reasons, parsed values, ambiguities of one records row."""
    reasons, notes = [], []
    parsed: dict = {}
    rid = raw.get("record_uuid")
    if R.is_blank(rid):
        reasons.append("missing:record_uuid")
    parsed["task_type"] = raw.get("task_type")
    kind, dec, note = parse_decimal(raw.get("model_uncertainty"))
    if note:
        notes.append(note)
    if kind == "invalid":
        reasons.append("invalid_decimal:model_uncertainty")
    parsed["model_uncertainty"] = dec
    adv = raw.get("is_adversarial")
    if R.is_blank(adv):
        parsed["is_adversarial"] = 0
    else:
        b = R.parse_bool(adv)
        if b is None:
            reasons.append("invalid_boolean:is_adversarial")
        parsed["is_adversarial"] = b
    tier = raw.get("tier")
    t = "" if tier is None else tier.strip()
    if t not in ("", "tier_a", "tier_b"):
        reasons.append("invalid_tier")
    parsed["tier"] = t or None
    for column in RUN_COLS:
        value = raw.get(column)
        parsed[column] = None if R.is_blank(value) else value.strip()
    return reasons, parsed, notes


def records_copies(rows: list[dict]) -> list[bool]:
    """Whether each row of the records file is an exact copy of an earlier one (docs/rules.md,
    Daily exports): equal in every column after trimming, an empty or blank value as empty. Such a
    row counts once: it is left out, neither superseded nor rejected."""
    seen: set[tuple] = set()
    copies = []
    for raw in rows:
        content = tuple(None if R.is_blank(raw.get(c)) else raw[c].strip() for c in RECORD_COLS + RUN_COLS)
        copies.append(content in seen)
        seen.add(content)
    return copies


def load_records(seed_dir: Path, null_mode: str):
    """(valid records by id, rejected rows [(line, raw, reasons)], ambiguities), over the distinct
    rows (records_copies)."""
    path = Path(seed_dir) / "records.csv"
    if not path.exists():
        return {}, [], []
    rows = R.read_csv(path, null_mode)
    ambiguities: list[str] = []
    checked = []
    for i, (raw, is_copy) in enumerate(zip(rows, records_copies(rows))):
        if is_copy:
            continue
        reasons, parsed, notes = check_records_row(raw)
        ambiguities += [f"records line {i + 1}: {n}" for n in notes]
        checked.append((i + 1, raw, reasons, parsed))
    by_id: dict[str, list] = defaultdict(list)
    for item in checked:
        rid = item[1].get("record_uuid")
        if not R.is_blank(rid):
            by_id[rid].append(item)
    valid, rejected = {}, []
    for line, raw, reasons, _parsed in checked:
        if R.is_blank(raw.get("record_uuid")):
            rejected.append((line, raw, reasons))
    for rid, items in by_id.items():
        distinct = {tuple(raw.get(c) for c in RECORD_COLS + RUN_COLS) for _, raw, _, _ in items}
        if len(distinct) > 1:
            norm = {tuple(p.get(c) for c in RECORD_COLS[1:] + RUN_COLS) for *_, p in items}
            if len(norm) == 1 and not any(r for _, _, r, _ in items):
                ambiguities.append(f"records {rid!r}: rows differ only in spelling {distinct}")
            for line, raw, reasons, _ in items:
                rejected.append((line, raw, sorted(set(reasons) | {"conflicting_duplicate"})))
            continue
        line, raw, reasons, parsed = items[0]
        if reasons:
            rejected.extend((ln, rw, rs) for ln, rw, rs, _ in items)
            continue
        valid[rid] = parsed
    return valid, rejected, ambiguities


def route(parsed: dict, gold_task_types, threshold: Decimal) -> tuple[str, str]:
    """(tier, reason) of a record with a valid records row."""
    if parsed["tier"]:
        return parsed["tier"], "explicit"
    if parsed["task_type"] is not None and parsed["task_type"] in gold_task_types:
        return "tier_b", "task_type"
    if parsed["model_uncertainty"] is not None and parsed["model_uncertainty"] >= threshold:
        return "tier_b", "uncertainty"
    if parsed["is_adversarial"] == 1:
        return "tier_b", "adversarial"
    return "tier_a", "default"


# --------------------------------------------------------------------------- statistics

def label_stats(units: list[list[int]]) -> dict | None:
    """The annotator_agreement measures over one tier of one (task, label).

    ``units``: the votes (0/1) of every unit of the tier with at least one vote.  None when no
    unit has two or more votes (no row).  Exact; the formulas of docs/rules.md literally, each
    sum over units taken once per distinct unit shape (its count of each value) times the
    number of units of that shape."""
    values = sorted({v for u in units for v in u} | {0, 1})
    return _label_stats_of_shapes(_shapes(units, values), values)


def _shapes(units: list[list[int]], values: list[int]) -> Counter:
    """How many units have each shape: the unit's count of each of ``values`` (n_uc)."""
    return Counter(tuple(u.count(c) for c in values) for u in units)


def _by_size(shapes: dict, term) -> list[tuple[int, int]]:
    """(m, sum of k * term(shape) over the shapes of m votes) for each unit size m: a sum over units
    of term / f(m_u) is the sum over m of these integers / f(m), exactly."""
    sums: dict[int, int] = defaultdict(int)
    for shape, k in shapes.items():
        sums[sum(shape)] += k * term(shape)
    return sorted(sums.items())


def _label_stats_of_shapes(shapes: Counter, values: list[int]) -> dict | None:
    """label_stats of the units whose shapes (over ``values``) ``shapes`` counts.  A value that no
    unit holds adds nothing to any sum (its n_c and pi_c are 0), so ``values`` may list more."""
    shapes = +shapes
    pairable = {s: k for s, k in shapes.items() if sum(s) >= 2}
    if not pairable:
        return None
    n_units = sum(pairable.values())
    n = sum(sum(s) * k for s, k in pairable.items())
    n_c = {c: sum(s[i] * k for s, k in pairable.items()) for i, c in enumerate(values)}
    # observed agreement: mean over units of sum_c n_uc (n_uc - 1) / (m_u (m_u - 1))
    p_a = sum(Fraction(t, m * (m - 1)) for m, t in _by_size(pairable, lambda s: sum(x * (x - 1) for x in s))) / n_units
    # alpha = 1 - (n - 1) * sum_u [sum_{c != k} n_uc n_uk / (m_u - 1)] / sum_{c != k} n_c n_k
    num = sum(Fraction(t, m - 1) for m, t in _by_size(
        pairable, lambda s: sum(x * y for i, x in enumerate(s) for j, y in enumerate(s) if i != j)))
    den = sum(n_c[c] * n_c[k] for c in values for k in values if c != k)
    alpha = None if den == 0 else 1 - (n - 1) * num / den
    # AC1: pi_c = mean of n_uc / m_u over every unit with >= 1 vote (single votes included)
    n_voted = sum(shapes.values())
    pi = {c: sum(Fraction(t, m) for m, t in _by_size(shapes, lambda s, i=i: s[i])) / n_voted
          for i, c in enumerate(values)}
    p_e = sum(pi[c] * (1 - pi[c]) for c in values)
    ac1 = (p_a - p_e) / (1 - p_e)
    return {"n_units": n_units, "n_pairable_values": n, "observed_agreement": p_a,
            "krippendorff_alpha": alpha, "gwet_ac1": ac1, "prevalence": Fraction(n_c[1], n),
            "p_e": p_e, "pi": pi}


def pair_stats(pairs: list[tuple[int, int]]) -> dict:
    """Cohen's kappa of two annotators over their shared units ((value_a, value_b) each)."""
    n = len(pairs)
    p_o = Fraction(sum(a == b for a, b in pairs), n)
    pa1 = Fraction(sum(a for a, _ in pairs), n)
    pb1 = Fraction(sum(b for _, b in pairs), n)
    p_e = pa1 * pb1 + (1 - pa1) * (1 - pb1)
    kappa = None if p_e == 1 else (p_o - p_e) / (1 - p_e)
    return {"n_shared_units": n, "observed_agreement": p_o, "cohen_kappa": kappa, "p_e": p_e}


def _f(x):
    return None if x is None else float(x)


# --------------------------------------------------------------------------- jackknife

def jackknife(theta, replicates: list) -> dict:
    """The record-clustered jackknife of a statistic ``theta`` from its leave-one-record-out
    ``replicates`` (one per left-out record, None when undefined): n (G'), se, lower, upper."""
    from scipy import stats

    values = [v for v in replicates if v is not None]
    g = len(values)
    if g == 0:
        se = None
    elif all(v == values[0] for v in values):
        se = 0.0
    else:
        mean = sum(values) / g
        se = math.sqrt(float(Fraction(g - 1, g) * sum((v - mean) ** 2 for v in values)))
    lower = upper = None
    if theta is not None and g >= 2:
        t = float(stats.t.ppf(0.975, g - 1))
        lower = max(-1.0, float(theta) - t * se)
        upper = min(1.0, float(theta) + t * se)
    return {"n": g, "se": se, "lower": lower, "upper": upper}


def probability_below(theta, se, target: float):
    """Phi((target - theta)/se); None when se is 0 or None (or theta is None)."""
    from scipy import stats

    if theta is None or not se:
        return None
    return float(stats.norm.cdf((target - float(theta)) / se))


def label_jackknife(units_by_record: dict) -> dict:
    """alpha and AC1 jackknife of one (task, label, tier): ``units_by_record`` maps each record
    to the vote lists of its units (at least one vote each)."""
    left_out = [rec for rec, units in units_by_record.items() if any(len(u) >= 2 for u in units)]
    # the units of the other records, as label_stats counts them: every unit's shape, less the record's
    values = sorted({v for units in units_by_record.values() for u in units for v in u} | {0, 1})
    shapes = {rec: _shapes(units, values) for rec, units in units_by_record.items()}
    every = sum(shapes.values(), Counter())
    reps = {rec: _label_stats_of_shapes(every - shapes[rec], values) for rec in left_out}
    return {"alpha": [None if r is None else r["krippendorff_alpha"] for r in reps.values()],
            "ac1": [None if r is None else r["gwet_ac1"] for r in reps.values()]}


def pair_jackknife(pairs_by_record: dict) -> list:
    """Kappa without each record's shared units, for one pair (records with a shared unit)."""
    counts = {rec: Counter(prs) for rec, prs in pairs_by_record.items()}
    every = sum(counts.values(), Counter())
    out = []
    for rec in pairs_by_record:
        rest = list((every - counts[rec]).elements())   # the other records' pairs (their order does not count)
        out.append(pair_stats(rest)["cohen_kappa"] if rest else None)
    return out


# --------------------------------------------------------------------------- main

@dataclass
class AgreementReference:
    ref: R.Reference
    records: dict
    records_rejected: list
    tiers: dict                     # task -> record_uuid -> tier
    tier_reason: dict               # task -> record_uuid -> rule
    votes: dict                     # task -> unit -> {annotator: {label: value}}
    marts: dict
    ambiguities: list = field(default_factory=list)
    slices: dict = field(default_factory=dict)   # task -> record_uuid -> {dimension: value}

    def in_slice(self, task: str, record_uuid: str, dimension: str = "overall",
                 value: str = "overall") -> bool:
        return dimension == "overall" or self.slices[task][record_uuid][dimension] == value

    def slice_values(self, task: str, dimension: str) -> list[str]:
        return sorted({s[dimension] for s in self.slices[task].values()})

    def unit_votes(self, task: str, label: str, tier: str = "all", dimension: str = "overall",
                   value: str = "overall") -> dict[tuple, dict]:
        """unit -> {annotator: value} for the units of ``tier`` and the slice with >= 1 vote."""
        return {u: {a: lab[label] for a, lab in vs.items()}
                for u, vs in self.votes[task].items()
                if (tier == "all" or self.tiers[task][u[0]] == tier)
                and self.in_slice(task, u[0], dimension, value)}


def compute(seed_dir, null_mode: str = "agate", constraint_policy: str = "reject",
            gold_task_types=DEFAULT_GOLD_TASK_TYPES, gold_uncertainty_threshold=DEFAULT_THRESHOLD,
            agreement_alpha_target: float = DEFAULT_ALPHA_TARGET,
            ref: R.Reference | None = None) -> AgreementReference:
    seed_dir = Path(seed_dir)
    if ref is None:
        ref = R.compute(seed_dir, null_mode=null_mode, constraint_policy=constraint_policy)
    threshold = Decimal(str(gold_uncertainty_threshold))
    records, rejected, ambiguities = load_records(seed_dir, null_mode)
    for rid, p in records.items():
        tt = p["task_type"]
        if tt is not None and tt not in gold_task_types and tt.strip() in gold_task_types:
            ambiguities.append(f"records {rid!r}: task_type {tt!r} matches only after trimming")

    def kind(a):
        return ref.annotators.get(a, {}).get("annotator_kind", "HUMAN")

    def role(a):
        return ref.annotators.get(a, {}).get("role", "annotator")

    def is_voter(a):
        return kind(a) == "HUMAN" and role(a) == "annotator"

    tiers, reasons, votes = {}, {}, {}
    for task, spec in R.TASKS.items():
        accepted = [r for r in ref.rows[task] if r.status == "accepted"]
        tvotes: dict[tuple, dict] = defaultdict(dict)
        voters_of_record: dict[str, set] = defaultdict(set)
        for r in accepted:
            if is_voter(r.annotator_id):
                assert r.annotator_id not in tvotes[r.unit], (task, r.unit, r.annotator_id)
                tvotes[r.unit][r.annotator_id] = {c: r.labels[c] for c in spec["labels"]}
                voters_of_record[r.record_uuid].add(r.annotator_id)
        votes[task] = dict(tvotes)
        # every record of the family: any accepted row (a unit needs a HUMAN row, but the tier
        # is defined for any record; only records with votes matter for the marts)
        t_tiers, t_reasons = {}, {}
        for rid in {r.record_uuid for r in accepted}:
            if rid in records:
                t_tiers[rid], t_reasons[rid] = route(records[rid], gold_task_types, threshold)
            else:
                many = len(voters_of_record.get(rid, ())) >= 2
                t_tiers[rid], t_reasons[rid] = ("tier_b" if many else "tier_a"), "voters"
        tiers[task], reasons[task] = t_tiers, t_reasons

    # the slices of every record of a family (docs/rules.md, Agreement where it is tracked)
    slices = {}
    for task in R.TASKS:
        slices[task] = {}
        for rid in tiers[task]:
            rec = ref.records[task].get(rid)
            task_type = (records[rid]["task_type"] or "").strip() if rid in records else ""
            slices[task][rid] = {"language": rec["language"] if rec else None,
                                 "task_type": task_type or "unknown"}

    def groups(task):
        """(dimension, value) of every slice of the family's records, overall first."""
        out = [OVERALL]
        for dim in SLICE_DIMENSIONS:
            out += [(dim, v) for v in sorted({s[dim] for s in slices[task].values() if s[dim] is not None})]
        return out

    def member(task, rid, tier, dim, value):
        return ((tier == "all" or tiers[task][rid] == tier)
                and (dim == "overall" or slices[task][rid][dim] == value))

    agreement, pairs = [], []
    for task, spec in R.TASKS.items():
        for label in spec["labels"]:
            for tier, (dim, value) in product(TIERS, groups(task)):
                units = [list(vs.values()) for u, vs in sorted(votes[task].items())
                         if member(task, u[0], tier, dim, value)]
                s = label_stats([[lab[label] for lab in u] for u in units])
                if s is None:
                    continue
                by_record: dict[str, list] = defaultdict(list)
                for u, vs in sorted(votes[task].items()):
                    if member(task, u[0], tier, dim, value):
                        by_record[u[0]].append([lab[label] for lab in vs.values()])
                reps = label_jackknife(by_record)
                jk_alpha = jackknife(s["krippendorff_alpha"], reps["alpha"])
                jk_ac1 = jackknife(s["gwet_ac1"], reps["ac1"])
                voters = {a for u, vs in votes[task].items() if len(vs) >= 2
                          and member(task, u[0], tier, dim, value) for a in vs}
                alpha = s["krippendorff_alpha"]
                agreement.append({
                    "task": task, "label": label, "tier": tier, "slice_dimension": dim,
                    "slice_value": value, "n_units": s["n_units"],
                    "n_annotators": len(voters), "n_pairable_values": s["n_pairable_values"],
                    "observed_agreement": _f(s["observed_agreement"]),
                    "krippendorff_alpha": _f(alpha), "gwet_ac1": _f(s["gwet_ac1"]),
                    "prevalence": _f(s["prevalence"]), "alpha_target": agreement_alpha_target,
                    "meets_target": None if alpha is None else
                    bool(alpha >= Fraction(str(agreement_alpha_target))),
                    "alpha_ci_lower": jk_alpha["lower"], "alpha_ci_upper": jk_alpha["upper"],
                    "ac1_ci_lower": jk_ac1["lower"], "ac1_ci_upper": jk_ac1["upper"],
                    "p_alpha_below_target": probability_below(alpha, jk_alpha["se"],
                                                              agreement_alpha_target),
                })
            for dim, value in groups(task):
                shared: dict[tuple, list] = defaultdict(list)
                shared_by_record: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
                for u, vs in votes[task].items():
                    if not member(task, u[0], "all", dim, value):
                        continue
                    for a, b in combinations(sorted(vs), 2):
                        shared[(a, b)].append((vs[a][label], vs[b][label]))
                        shared_by_record[(a, b)][u[0]].append((vs[a][label], vs[b][label]))
                for (a, b), prs in sorted(shared.items()):
                    p = pair_stats(prs)
                    jk = jackknife(p["cohen_kappa"], pair_jackknife(shared_by_record[(a, b)]))
                    pairs.append({"task": task, "label": label, "annotator_a": a, "annotator_b": b,
                                  "slice_dimension": dim, "slice_value": value,
                                  "n_shared_units": p["n_shared_units"],
                                  "observed_agreement": _f(p["observed_agreement"]),
                                  "cohen_kappa": _f(p["cohen_kappa"]),
                                  "kappa_ci_lower": jk["lower"], "kappa_ci_upper": jk["upper"]})
    marts = {"annotator_agreement": agreement, "annotator_pair_agreement": pairs}
    return AgreementReference(ref, records, rejected, tiers, reasons, votes, marts,
                              ambiguities + list(ref.ambiguities), slices)


if __name__ == "__main__":  # pragma: no cover - manual inspection helper
    import json
    import sys

    a = compute(sys.argv[1])
    for name, rows in a.marts.items():
        print(name)
        for row in rows:
            print("  ", json.dumps(row))
    for task in R.TASKS:
        print(task, Counter(a.tiers[task].values()), Counter(a.tier_reason[task].values()))
    print("records rejected:", len(a.records_rejected), "ambiguities:", a.ambiguities)
