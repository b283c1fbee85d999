"""Independent Python reference for the ADR-001 tiers and the agreement marts.

Written from docs/rules.md (sections "Inputs" -- the optional ``records``
seed --, "Agreement and tiers", "Consensus") and ADR-001 only, never from the dbt SQL.
Row validation, superseding and duplicates of the annotation seeds are *not* re-derived:
they come from ``reference.py`` (``Reference.rows[task]`` with ``status``, post-repair
``labels``, ``unit`` and ``annotator_id``).

Entry point: ``compute(seed_dir, null_mode=..., constraint_policy=..., ...)`` returns an
:class:`AgreementReference` with

* ``records``: the valid rows of ``records.csv`` by record_uuid (rejected rows are absent);
  ``records_rejected``: the rejected rows with their reason;
* ``tiers[task][record_uuid]``: ``tier_a`` / ``tier_b`` of every record of that family and
  ``tier_reason`` the rule that decided it (explicit / task_type / uncertainty / adversarial /
  default / voters);
* ``votes[task][unit]``: {annotator_id: {label: 0/1}} (voters only);
* ``marts["annotator_agreement"]`` and ``marts["annotator_pair_agreement"]``: expected rows;
* ``ambiguities``: records rows that the contract does not pin down (see below).

Statistics are computed exactly (``fractions.Fraction``) with the formulas as docs/rules.md
writes them and converted to float at the end.

Uncertainty (docs/rules.md, Agreement uncertainty): each interval is a direct leave-one-record-out
recomputation -- for every record g holding a unit of the row, the statistic is computed again
from scratch (``label_stats`` / ``pair_stats``) on the units of the other records -- then
SE = sqrt((G' - 1)/G' * sum (theta_-g - mean)^2) over the G' defined replicates, theta -/+
t_0.975(G' - 1) * SE clipped to [-1, 1] (t from ``scipy.stats.t``), and
p_alpha_below_target = Phi((target - alpha)/SE) (``scipy.stats.norm``).  For alpha and AC1 the
left-out records are those holding a unit with two or more votes; AC1 drops the record's
single-vote units with them.

Decisions where docs/rules.md is silent (reported in ``ambiguities`` when they matter)
---------------------------------------------------------------------------------
* ``records`` cells are loaded like the other seeds (``reference.read_csv``: empty, and under
  the agate loader the text ``null``, are NULL).  ``record_uuid`` is used as loaded (no
  trimming, as ``reference.py`` does for the annotation ids); blank means missing -> rejected.
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

import csv
import math
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import reference as R

TIERS = ("all", "tier_a", "tier_b")
RECORD_COLS = ["record_uuid", "task_type", "model_uncertainty", "is_adversarial", "tier"]
# the optional columns of the evaluation runs (docs/rules.md, Runs); rows that differ in them conflict too
RUN_COLS = ["run_id", "query_id"]
DEFAULT_GOLD_TASK_TYPES = ("factual_qa", "rag_synthesis")
DEFAULT_THRESHOLD = "0.65"
DEFAULT_ALPHA_TARGET = 0.75

AGREEMENT_COLUMNS = ["task", "label", "tier", "n_units", "n_annotators", "n_pairable_values",
                     "observed_agreement", "krippendorff_alpha", "gwet_ac1", "prevalence",
                     "alpha_target", "meets_target", "alpha_ci_lower", "alpha_ci_upper",
                     "ac1_ci_lower", "ac1_ci_upper", "p_alpha_below_target"]
PAIR_COLUMNS = ["task", "label", "annotator_a", "annotator_b", "n_shared_units",
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


def load_records(seed_dir: Path, null_mode: str):
    """(valid records by id, rejected rows [(line, raw, reasons)], ambiguities)."""
    path = Path(seed_dir) / "records.csv"
    if not path.exists():
        return {}, [], []
    rows = R.read_csv(path, null_mode)
    ambiguities: list[str] = []
    checked = []
    for i, raw in enumerate(rows):
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
    shapes = Counter(tuple(u.count(c) for c in values) for u in units)      # n_uc per unit
    pairable = {s: k for s, k in shapes.items() if sum(s) >= 2}
    if not pairable:
        return None
    n_units = sum(pairable.values())
    n = sum(sum(s) * k for s, k in pairable.items())
    n_c = {c: sum(s[i] * k for s, k in pairable.items()) for i, c in enumerate(values)}
    # observed agreement: mean over units of sum_c n_uc (n_uc - 1) / (m_u (m_u - 1))
    p_a = sum(k * Fraction(sum(x * (x - 1) for x in s), sum(s) * (sum(s) - 1))
              for s, k in pairable.items()) / n_units
    # alpha = 1 - (n - 1) * sum_u [sum_{c != k} n_uc n_uk / (m_u - 1)] / sum_{c != k} n_c n_k
    num = sum(k * Fraction(sum(x * y for i, x in enumerate(s) for j, y in enumerate(s) if i != j), sum(s) - 1)
              for s, k in pairable.items())
    den = sum(n_c[c] * n_c[k] for c in values for k in values if c != k)
    alpha = None if den == 0 else 1 - (n - 1) * num / den
    # AC1: pi_c = mean of n_uc / m_u over every unit with >= 1 vote (single votes included)
    pi = {c: sum(k * Fraction(s[i], sum(s)) for s, k in shapes.items()) / len(units)
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
    rest = {rec: [u for other, units in units_by_record.items() if other != rec for u in units]
            for rec in left_out}
    reps = {rec: label_stats(units) for rec, units in rest.items()}
    return {"alpha": [None if r is None else r["krippendorff_alpha"] for r in reps.values()],
            "ac1": [None if r is None else r["gwet_ac1"] for r in reps.values()]}


def pair_jackknife(pairs_by_record: dict) -> list:
    """Kappa without each record's shared units, for one pair (records with a shared unit)."""
    out = []
    for rec in pairs_by_record:
        rest = [p for other, prs in pairs_by_record.items() if other != rec for p in prs]
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

    def unit_votes(self, task: str, label: str, tier: str = "all") -> dict[tuple, dict]:
        """unit -> {annotator: value} for the units of ``tier`` with >= 1 vote."""
        return {u: {a: lab[label] for a, lab in vs.items()}
                for u, vs in self.votes[task].items()
                if tier == "all" or self.tiers[task][u[0]] == tier}


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

    agreement, pairs = [], []
    for task, spec in R.TASKS.items():
        for label in spec["labels"]:
            for tier in TIERS:
                units = [list(vs.values()) for u, vs in sorted(votes[task].items())
                         if tier == "all" or tiers[task][u[0]] == tier]
                s = label_stats([[lab[label] for lab in u] for u in units])
                if s is None:
                    continue
                by_record: dict[str, list] = defaultdict(list)
                for u, vs in sorted(votes[task].items()):
                    if tier == "all" or tiers[task][u[0]] == tier:
                        by_record[u[0]].append([lab[label] for lab in vs.values()])
                reps = label_jackknife(by_record)
                jk_alpha = jackknife(s["krippendorff_alpha"], reps["alpha"])
                jk_ac1 = jackknife(s["gwet_ac1"], reps["ac1"])
                voters = {a for u, vs in votes[task].items() if len(vs) >= 2
                          and (tier == "all" or tiers[task][u[0]] == tier) for a in vs}
                alpha = s["krippendorff_alpha"]
                agreement.append({
                    "task": task, "label": label, "tier": tier, "n_units": s["n_units"],
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
            shared: dict[tuple, list] = defaultdict(list)
            shared_by_record: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
            for u, vs in votes[task].items():
                for a, b in combinations(sorted(vs), 2):
                    shared[(a, b)].append((vs[a][label], vs[b][label]))
                    shared_by_record[(a, b)][u[0]].append((vs[a][label], vs[b][label]))
            for (a, b), prs in sorted(shared.items()):
                p = pair_stats(prs)
                jk = jackknife(p["cohen_kappa"], pair_jackknife(shared_by_record[(a, b)]))
                pairs.append({"task": task, "label": label, "annotator_a": a, "annotator_b": b,
                              "n_shared_units": p["n_shared_units"],
                              "observed_agreement": _f(p["observed_agreement"]),
                              "cohen_kappa": _f(p["cohen_kappa"]),
                              "kappa_ci_lower": jk["lower"], "kappa_ci_upper": jk["upper"]})
    marts = {"annotator_agreement": agreement, "annotator_pair_agreement": pairs}
    return AgreementReference(ref, records, rejected, tiers, reasons, votes, marts,
                              ambiguities + list(ref.ambiguities))


# --------------------------------------------------------------------------- generated scenario

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
VOTERS = ["a1", "a2", "a3", "a4", "a5", "ext_guest"]


def generate_scenario(out_dir, seed: int = 7, n_records: int = 320) -> Path:
    """Annotation seeds with 1-4 voters per unit, plus annotators.csv and records.csv.

    Record ids are shared by the three families (a record can be tier_b in one family and
    tier_a in another when it is absent from records.csv).  Rows go through
    ``generate.Gen.emit`` (older submissions, same-instant duplicates, bad cells), so the
    accepted votes are a subset of what was drawn; the perfect-agreement labels are drawn
    without noise, so every accepted vote equals the unit's truth.  records.csv also puts
    about two records in three of its rows into the evaluation runs ``v1`` and ``v2`` (by the
    record id, so that duplicates agree; the others, and the records without a row, are in the
    default run), so that the per-run marts are compared over several runs."""
    import generate as G

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    g = G.Gen(seed)
    r = g.r
    rec_ids = [f"rec-{i:04d}" for i in range(n_records)]

    def draw(task):
        lab = [int(r.random() < p) for p, _ in GEN_LABELS[task].values()]
        return g.consistent(task, lab)

    def vote(task, truth):
        lab = list(truth)
        for i, (_, flip) in enumerate(GEN_LABELS[task].values()):
            if r.random() < flip:
                lab[i] = 1 - lab[i]
        fixed = g.consistent(task, lab)
        for i, name in enumerate(GEN_LABELS[task]):
            if (task, name) in PERFECT_LABELS:
                assert fixed[i] == truth[i]
        return fixed

    def n_voters():
        return r.choice([1, 1, 2, 2, 2, 3, 3, 4])

    rows = {"retrieval": [], "grounding": [], "generation": []}
    for task in ("grounding", "generation"):
        for rid in r.sample(rec_ids, int(n_records * 0.85)):
            truth = draw(task)
            base = G.BASE + timedelta(minutes=r.randint(0, 60 * 24 * 20))
            extra = {"query": f"question {rid}?", "answer": f"answer {rid}"}
            if task == "grounding":
                extra["context_set"] = f"ctx {rid}"
            lang = g.lang()
            for a in r.sample(VOTERS, n_voters()):
                g.emit(rows[task], task, rid, a, g.instant(base, 86400), vote(task, truth),
                       lang, extra)
            if r.random() < 0.2:
                g.emit(rows[task], task, rid, r.choice(["adj1", "adj2"]),
                       g.instant(base + timedelta(days=2), 86400), vote(task, truth), lang,
                       extra, allow_bad=False)
            if r.random() < 0.3:
                g.emit(rows[task], task, rid, r.choice(["llm_judge", "rule_judge"]),
                       g.instant(base + timedelta(days=1), 86400), vote(task, truth), lang,
                       extra, allow_bad=False)
    for rid in r.sample(rec_ids, int(n_records * 0.45)):
        lang = g.lang()
        base = G.BASE + timedelta(minutes=r.randint(0, 60 * 24 * 20))
        voters = r.sample(VOTERS, n_voters())
        for j in range(r.randint(1, 4)):
            cid, rank = f"{rid}-c{j}", j + 1
            truth = draw("retrieval")
            # a voter of the record sometimes skips a chunk (units with fewer votes)
            chunk_voters = [a for a in voters if len(voters) == 1 or r.random() < 0.85]
            extra = {"input_query": f"query {rid}", "chunk": f"text {cid}", "chunk_id": cid,
                     "chunk_rank": str(rank), "can_answer": ""}
            for a in chunk_voters:
                g.emit(rows["retrieval"], "retrieval", rid, a, g.instant(base, 86400),
                       vote("retrieval", truth), lang, extra)
            if r.random() < 0.25:
                g.emit(rows["retrieval"], "retrieval", rid, r.choice(["llm_judge", "adj1"]),
                       g.instant(base + timedelta(days=1), 86400), vote("retrieval", truth),
                       lang, extra, allow_bad=False)

    G._write(out / "retrieval_annotations.csv", G.RET_COLS, rows["retrieval"])
    G._write(out / "grounding_annotations.csv", G.GRD_COLS, rows["grounding"])
    G._write(out / "generation_annotations.csv", G.GEN_COLS, rows["generation"])
    with open(out / "annotators.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["annotator_id", "annotator_kind", "role", "display_name"])
        w.writerows(G.ANNOTATORS)

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
    with open(out / "records.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(RECORD_COLS + ["run_id", "notes"])
        for row in rec_rows:
            w.writerow(list(row) + [_run_of(row[0]), r.choice(["", "from routing export"])])
    return out


def _run_of(record_uuid: str) -> str:
    """The run of a generated record: v1, v2 or empty (the default run), from its id."""
    if not record_uuid.strip() or record_uuid == "rec-not-annotated":
        return ""
    return ["", "v1", "v2"][sum(map(ord, record_uuid)) % 3]


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
