"""Independent plain-Python reference implementation of the ragmart public contract.

The package holds one module per concern: this core (inputs, row status, consensus, measures, the
metric marts and the quarantine), ``reference.agreement`` (votes, tiers, Krippendorff's alpha,
AC1, kappa and their jackknife), ``reference.protocol`` (the ADR-001 protocol marts),
``reference.judges`` (judges against the consensus, weights, judge-estimated metrics) and
``reference.comparison`` (the run comparison). Test modules import the core as ``import reference
as R`` and the others as ``from reference import agreement as A``.

Written from docs/rules.md (sections Inputs, Reason codes and row status, Consensus,
Measures, Marts) and ADRs 0002/0005/0006 only -- never from the dbt SQL -- so that the
marts can be checked against it.  Standard library only (pandas/numpy not needed).

Entry point: ``compute(seed_dir, k_values=..., accepted_languages=..., constraint_policy=...)``
returns a :class:`Reference` with

* ``rows[task]``: every seed row with its reasons, ``status`` (accepted / rejected /
  superseded), parsed and (under repair) repaired labels;
* ``marts``: the expected contents of ``retrieval_metrics``, ``grounding_metrics``,
  ``generation_metrics``, ``metric_values`` (slices ``overall`` and ``language``) and
  ``rejected_annotations`` (task, record_uuid, annotator_id, chunk_id, created_at, reasons);
* ``units`` / ``records``: consensus per unit and per-record measures (used by the ranx check);
* ``ambiguities``: situations where docs/rules.md does not pin down the result (fixtures are
  built so that this list is empty; tests assert it).

Decisions taken where docs/rules.md is silent
---------------------------------------------
* Seed loading.  Cells are read with the ``csv`` module as strings.  An empty field is
  NULL.  ``null_mode`` says how the dbt seed loader turns text into NULL:
  ``"agate"`` (dbt's agate loader: a cell whose stripped, lower-cased text is ``""`` or
  ``"null"`` is NULL) or ``"copy"`` (dbt-duckdb's default fast ``COPY`` loader: only the empty
  field is NULL; the text ``null`` stays text).  The tests detect which one is in effect by
  comparing the loaded seed tables to the CSV files.  A blank cell counts as empty/missing
  anyway, so the two modes only differ for the literal text ``null``.
* ``created_at`` accepts, after trimming, ``YYYY-MM-DD[T ]hh:mm[:ss[.fraction]]`` with an
  optional ``Z`` or ``+hh:mm``/``+hhmm``/``+hh`` (or ``-``) offset; the date must exist, hour 00-23, minute and
  second 00-59, offset hour 00-23 and offset minute 00-59; no zone means UTC.  Instants are
  compared exactly (fractions of seconds as rationals).  ``rejected_annotations.created_at``
  is the loaded cell as given (not trimmed).
* Ids (record_uuid, annotator_id, chunk_id) are used as loaded (no trimming) to form units;
  blank ids are missing.
* ``task`` is compared after trimming, case-sensitively; ``language`` values are compared
  after trimming, case-sensitively (``EN`` is not ``en``).
* Step 3: label comparison for ``conflicting_duplicate`` uses the parsed, pre-repair values
  of the task's binary labels; an unparseable (invalid or missing) value counts as its own
  distinct value (different from 0 and 1; two unparseable values in the same column are
  reported in ``ambiguities``).  Rows that agree keep the one with the fewest reasons; which
  one among equals does not matter for the marts (when it could matter for
  ``rejected_annotations``, rank or language, it is reported in ``ambiguities``).
* Step 5 compares ranks as integers and chunk_ids as loaded; it runs once (rows rejected by it
  do not trigger a second pass).
* Under ``repair`` a row that violates ``sufficient_excludes_misleading`` and an implication
  carries only ``violates:sufficient_excludes_misleading`` among the constraint codes (its
  other codes stay).  Rows rejected for other reasons are still repaired, which does not
  matter as they are rejected.
* Consensus uses only accepted rows of HUMAN annotators (ids absent from ``annotators.csv``
  are HUMAN ``annotator``).  The latest adjudicator row decides; if two adjudicator rows share
  the latest ``created_at`` and differ on a label, that label is ``tied``.
  Votes are one per annotator of role ``annotator`` (guaranteed by steps 2-3).
* A retrieval unit's rank is the (unique, thanks to step 5) rank of its accepted rows.
* A record's language per family: the one distinct non-empty (trimmed) ``language`` of its
  accepted rows (all annotator kinds) in that family, else ``unknown``.
* Runs (docs/rules.md, Runs): a record's run is the trimmed ``run_id`` of its valid row in
  ``records.csv`` (rows checked by ``reference.agreement.load_records``; a rejected row is
  absent), else ``default_run_id``; its pairing key per family the trimmed ``query_id``, else
  the smallest (code point order = UTF-8 byte order) trimmed query of its accepted rows in the
  family.  The metric marts have a row set per run: every run of a record with an accepted row
  in any family; with none at all, the default run alone.
* Wide marts with no resolved record give null measures (the rows still exist: one per K,
  one row for grounding/generation); ``metric_values`` has no row for a slice without a
  resolved record.  ``conditional_fabrication_rate`` in a slice with resolved records but
  no cited answer is a row with value null, ``n_units`` 0 and null interval.
* Wilson interval: centre (p + z^2/2n)/(1 + z^2/n), half-width
  z*sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n), z = 1.96, clipped to [0, 1], for the measures that
  are 0 or 1 per record at that K: sufficiency_hit at every K, at K = 1 also topical_precision,
  sufficiency_rate, misleading_context_rate and mrr, every grounding and generation rate.
  t interval for the others: mean -/+ t*s/sqrt(n) with the sample standard deviation and t the
  0.975 quantile of Student's t with n - 1 degrees of freedom (``scipy.stats.t.ppf``), clipped
  to [0, 1], null when n < 2; when the n >= 2 values are all equal (s = 0) the Wilson interval of
  that value with n instead (the contract: no interval of zero width).
"""

from __future__ import annotations

import calendar
import csv
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from export_schema import COLUMNS, CONSTRAINTS, FILES, LABELS, REQUIRED, UNITS  # scripts/lib/, on pytest's pythonpath

Z = 1.96
DEFAULT_K_VALUES = (1, 3, 5, 10)
DEFAULT_LANGUAGES = ("de", "en")

TRUE_SPELLINGS = {"true", "t", "1", "yes", "y"}
FALSE_SPELLINGS = {"false", "f", "0", "no", "n"}

# The export as scripts/lib/export_schema.py describes it (files, labels, required columns, units and
# the logical constraints between labels, here without the `violates:` of their reason codes).
TASKS: dict[str, dict[str, Any]] = {
    task: {
        "seed": FILES[task].removesuffix(".csv"),
        "required": REQUIRED[task],
        "labels": LABELS[task],
        "unit": UNITS[task],
        "constraints": [(code.removeprefix("violates:"), antecedent, other, kind)
                        for code, antecedent, other, kind in CONSTRAINTS[task]],
    }
    for task in ("retrieval", "grounding", "generation")
}

RETRIEVAL_METRICS = ["topical_precision", "sufficiency_hit", "sufficiency_rate",
                     "misleading_context_rate", "mrr", "ndcg"]
GROUNDING_METRICS = {  # metric -> label (0/1 per record)
    "grounding_presence_rate": "support_present",
    "unsupported_claim_rate": "unsupported_claim_present",
    "contradiction_rate": "contradicted_claim_present",
    "citation_presence_rate": "source_cited",
}
GENERATION_METRICS = {
    "proper_action_rate": "proper_action",
    "on_topic_rate": "response_on_topic",
    "helpfulness_rate": "helpful",
    "incompleteness_rate": "incomplete",
    "unsafe_content_rate": "unsafe_content",
}
# measures that are 0 or 1 per record by definition -> Wilson interval
WILSON_METRICS = ({"sufficiency_hit", "conditional_fabrication_rate"}
                  | set(GROUNDING_METRICS) | set(GENERATION_METRICS))
# retrieval measures that are 0 or 1 per record at K = 1 only (one chunk, denominator 1)
WILSON_AT_K1_METRICS = {"topical_precision", "sufficiency_rate", "misleading_context_rate", "mrr"}

DEFAULT_RUN_ID = "default"

MART_COLUMNS = {
    "retrieval_metrics": ["run_id", "k", "n_queries", "n_pending_adjudication", "topical_precision_at_k",
                          "sufficiency_hit_at_k", "sufficiency_rate_at_k",
                          "misleading_context_rate_at_k", "mrr_at_k", "ndcg_at_k"],
    "grounding_metrics": ["run_id", "n_answers", "n_pending_adjudication", "grounding_presence_rate",
                          "unsupported_claim_rate", "contradiction_rate",
                          "citation_presence_rate", "n_cited_answers",
                          "conditional_fabrication_rate"],
    "generation_metrics": ["run_id", "n_answers", "n_pending_adjudication", "proper_action_rate",
                           "on_topic_rate", "helpfulness_rate", "incompleteness_rate",
                           "unsafe_content_rate"],
    "metric_values": ["run_id", "family", "metric", "k", "slice_dimension", "slice_value", "value",
                      "n_units", "ci_lower", "ci_upper"],
    "rejected_annotations": ["task", "record_uuid", "annotator_id", "chunk_id", "created_at",
                             "reasons", "source_file", "source_row"],
}


# --------------------------------------------------------------------------- parsing helpers

def load_cell(value: str | None, null_mode: str) -> str | None:
    """What the dbt seed loader stores for one CSV cell."""
    if value is None or value == "":
        return None
    if null_mode == "agate" and value.strip().lower() in ("", "null"):
        return None
    if null_mode not in ("agate", "copy"):
        raise ValueError(f"unknown null_mode {null_mode!r}")
    return value


def read_csv(path: Path, null_mode: str = "agate") -> list[dict[str, str | None]]:
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        return [{k: load_cell(v, null_mode) for k, v in row.items() if k is not None}
                for row in reader]


def is_blank(value: str | None) -> bool:
    return value is None or value.strip() == ""


def parse_bool(value: str | None) -> int | None:
    if value is None:
        return None
    v = value.strip().lower()
    if v in TRUE_SPELLINGS:
        return 1
    if v in FALSE_SPELLINGS:
        return 0
    return None


def parse_rank(value: str | None) -> int | None:
    if value is None:
        return None
    v = value.strip()
    if not re.fullmatch(r"[0-9]+(\.0+)?", v):
        return None
    n = int(v.split(".")[0])
    return n if n >= 1 else None


_TS = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?"
)


def parse_timestamp(value: str | None) -> Fraction | None:
    """Instant in seconds since the epoch (UTC), exact; None when it does not parse."""
    if value is None:
        return None
    m = _TS.fullmatch(value.strip())
    if not m:
        return None
    y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
    s = int(m.group(6) or 0)
    frac = m.group(7)
    zone = m.group(8)
    if not (1 <= mo <= 12) or not (1 <= d <= calendar.monthrange(y, mo)[1]) or y < 1:
        return None
    if h > 23 or mi > 59 or s > 59:
        return None
    offset = 0
    if zone and zone != "Z":
        digits = zone[1:].replace(":", "")
        oh, om = int(digits[:2]), int(digits[2:] or 0)
        if oh > 23 or om > 59:
            return None
        offset = (oh * 3600 + om * 60) * (1 if zone[0] == "+" else -1)
    secs = calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) - offset
    result = Fraction(secs)
    if frac:
        result += Fraction(int(frac), 10 ** len(frac))
    return result


# --------------------------------------------------------------------------- statistics

def wilson(p: float | None, n: int) -> tuple[float | None, float | None]:
    if n == 0 or p is None:
        return None, None
    z2 = Z * Z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def t_quantile(df: int) -> float:
    """t_0.975(df), the 0.975 quantile of Student's t (scipy)."""
    from scipy import stats

    return float(stats.t.ppf(0.975, df))


def t_interval(values: list[float], quantile: float | None = None) -> tuple[float | None, float | None]:
    """mean -/+ t*s/sqrt(n), t = t_0.975(n - 1) unless ``quantile`` is given; for n >= 2 equal
    values (s = 0) the Wilson interval of that value with n."""
    n = len(values)
    if n < 2:
        return None, None
    if len(set(values)) == 1:
        return wilson(values[0], n)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    t = t_quantile(n - 1) if quantile is None else quantile
    half = t * math.sqrt(var) / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def uses_wilson(metric: str, k: int | None) -> bool:
    return metric in WILSON_METRICS or (k == 1 and metric in WILSON_AT_K1_METRICS)


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


# --------------------------------------------------------------------------- data classes

@dataclass
class Row:
    task: str
    line: int                      # 1-based data line in the CSV (header excluded)
    raw: dict[str, str | None]
    reasons: set[str] = field(default_factory=set)
    status: str | None = None
    instant: Fraction | None = None
    parsed: dict[str, int | None] = field(default_factory=dict)   # pre-repair labels
    labels: dict[str, int | None] = field(default_factory=dict)   # post-repair labels
    rank: int | None = None
    language: str = ""             # trimmed, "" when empty
    was_repaired: bool = False

    @property
    def record_uuid(self):
        return self.raw.get("record_uuid")

    @property
    def annotator_id(self):
        return self.raw.get("annotator_id")

    @property
    def chunk_id(self):
        return self.raw.get("chunk_id") if self.task == "retrieval" else None

    @property
    def created_at(self):
        return self.raw.get("created_at")

    @property
    def unit(self) -> tuple:
        return tuple(self.raw.get(c) for c in TASKS[self.task]["unit"])

    @property
    def reasons_text(self) -> str:
        return ";".join(sorted(self.reasons))


@dataclass
class Reference:
    params: dict
    rows: dict[str, list[Row]]
    annotators: dict[str, dict[str, str]]
    units: dict[str, dict[tuple, dict]]          # task -> unit key -> consensus info
    records: dict[str, dict[str, dict]]          # task -> record_uuid -> record info
    marts: dict[str, list[dict]]
    ambiguities: list[str]
    record_runs: dict[str, dict[str, dict]] = field(default_factory=dict)  # task -> record -> run info
    runs: list[str] = field(default_factory=list)  # the runs of the metric marts

    def counts(self, task: str) -> Counter:
        """The rows of the task by status: accepted, rejected, superseded for the distinct rows, and
        `repeated` (exact copies) and `blank` for the rows left out."""
        return Counter(r.status for r in self.rows[task])


# --------------------------------------------------------------------------- step 1: row checks

def row_checks(row: Row, task: str, accepted_languages, policy: str) -> None:
    spec = TASKS[task]
    raw = row.raw
    missing = set()
    for col in spec["required"]:
        if is_blank(raw.get(col)):
            missing.add(col)
            row.reasons.add(f"missing:{col}")
    for col in spec["labels"]:
        val = parse_bool(raw.get(col))
        row.parsed[col] = val
        if col not in missing and val is None:
            row.reasons.add(f"invalid_boolean:{col}")
    if task == "retrieval":
        ca = raw.get("can_answer")
        if not is_blank(ca) and parse_bool(ca) is None:
            row.reasons.add("invalid_boolean:can_answer")
        row.rank = parse_rank(raw.get("chunk_rank"))
        if "chunk_rank" not in missing and row.rank is None:
            row.reasons.add("invalid_rank")
    row.instant = parse_timestamp(raw.get("created_at"))
    if "created_at" not in missing and row.instant is None:
        row.reasons.add("invalid_timestamp")
    lang = raw.get("language")
    row.language = lang.strip() if lang is not None else ""
    if row.language and row.language not in accepted_languages:
        row.reasons.add("invalid_language")
    if "task" not in missing and raw.get("task").strip() != task:
        row.reasons.add("wrong_task")

    labels = dict(row.parsed)
    violated = []
    for code, a, b, kind in spec["constraints"]:
        va, vb = labels.get(a), labels.get(b)
        if va is None or vb is None:
            continue
        if kind == "implies" and va == 1 and vb == 0:
            violated.append((code, b, kind))
        if kind == "excludes" and va == 1 and vb == 1:
            violated.append((code, b, kind))
    if policy == "reject":
        for code, _, _ in violated:
            row.reasons.add(f"violates:{code}")
    elif policy == "repair":
        excludes = [v for v in violated if v[2] == "excludes"]
        if excludes:
            for code, _, _ in excludes:
                row.reasons.add(f"violates:{code}")
        else:
            for _code, consequent, _ in violated:
                labels[consequent] = 1
                row.was_repaired = True
    else:
        raise ValueError(f"constraint_policy must be reject or repair, not {policy!r}")
    row.labels = labels


# --------------------------------------------------------------------------- steps 2-5

def assign_status(rows: list[Row], task: str, ambiguities: list[str]) -> None:
    spec = TASKS[task]
    groups: dict[tuple, list[Row]] = defaultdict(list)
    for row in rows:
        if any(is_blank(v) for v in row.unit) or is_blank(row.annotator_id):
            continue
        if row.instant is None:
            continue
        groups[(row.unit, row.annotator_id)].append(row)

    for key, grp in groups.items():
        latest = max(r.instant for r in grp)
        for r in grp:
            if r.instant < latest:
                r.status = "superseded"
        top = [r for r in grp if r.instant == latest]
        if len(top) < 2:
            continue

        def vec(r):
            return tuple(r.parsed[c] if r.parsed[c] is not None else "UNPARSEABLE"
                         for c in spec["labels"])

        for c in spec["labels"]:
            if sum(r.parsed[c] is None for r in top) > 1:
                ambiguities.append(f"{task} {key}: several unparseable {c} at the latest instant")
        if len({vec(r) for r in top}) > 1:
            for r in top:
                r.reasons.add("conflicting_duplicate")
        else:
            fewest = min(len(r.reasons) for r in top)
            best = [r for r in top if len(r.reasons) == fewest]
            if len(best) > 1:
                sig = {(r.reasons_text if fewest else "", r.created_at if fewest else "",
                        r.rank, r.language) for r in best}
                if len(sig) > 1:
                    ambiguities.append(
                        f"{task} {key}: agreeing duplicates with equally few reasons differ "
                        f"(lines {[r.line for r in best]})")
            keep = min(best, key=lambda r: r.line)
            for r in top:
                if r is not keep:
                    r.status = "superseded"

    for row in rows:
        if row.status == "superseded":
            continue
        row.status = "rejected" if row.reasons else "accepted"

    if task == "retrieval":
        by_record: dict[str, list[Row]] = defaultdict(list)
        for row in rows:
            if row.status == "accepted":
                by_record[row.record_uuid].append(row)
        for rrows in by_record.values():
            ranks_of = defaultdict(set)
            chunks_of = defaultdict(set)
            for r in rrows:
                ranks_of[r.chunk_id].add(r.rank)
                chunks_of[r.rank].add(r.chunk_id)
            for r in rrows:
                if len(ranks_of[r.chunk_id]) > 1 or len(chunks_of[r.rank]) > 1:
                    r.reasons.add("rank_conflict")
                    r.status = "rejected"


# --------------------------------------------------------------------------- consensus

def consensus(rows: list[Row], task: str, annotators: dict) -> dict[tuple, dict]:
    spec = TASKS[task]

    def kind(a):
        return annotators.get(a, {}).get("annotator_kind", "HUMAN")

    def role(a):
        return annotators.get(a, {}).get("role", "annotator")

    by_unit: dict[tuple, list[Row]] = defaultdict(list)
    for r in rows:
        if r.status == "accepted" and kind(r.annotator_id) == "HUMAN":
            by_unit[r.unit].append(r)

    units = {}
    for unit, urows in by_unit.items():
        adj = [r for r in urows if role(r.annotator_id) == "adjudicator"]
        voters = [r for r in urows if role(r.annotator_id) == "annotator"]
        assert len({r.annotator_id for r in voters}) == len(voters)
        info: dict[str, Any] = {"record_uuid": unit[0], "labels": {}, "method": {}}
        if task == "retrieval":
            ranks = {r.rank for r in urows}
            assert len(ranks) == 1, (unit, ranks)
            info["chunk_id"] = unit[1]
            info["rank"] = ranks.pop()
        for c in spec["labels"]:
            if adj:
                latest = max(r.instant for r in adj)
                vals = {r.labels[c] for r in adj if r.instant == latest}
                if len(vals) == 1:
                    value, method = vals.pop(), "adjudicated"
                else:
                    value, method = None, "tied"
            else:
                counts = Counter(r.labels[c] for r in voters)
                n = len(voters)
                if len(counts) == 1:
                    value = next(iter(counts))
                    method = "single" if n == 1 else "unanimous"
                else:
                    (v1, c1), = counts.most_common(1)
                    if c1 * 2 > n:
                        value, method = v1, "majority"
                    else:
                        value, method = None, "tied"
            info["labels"][c] = value
            info["method"][c] = method
        info["resolved"] = all(m != "tied" for m in info["method"].values())
        units[unit] = info
    return units


def record_languages(rows: list[Row]) -> dict[str, str]:
    langs: dict[str, set] = defaultdict(set)
    for r in rows:
        if r.status == "accepted":
            langs[r.record_uuid]
            if r.language:
                langs[r.record_uuid].add(r.language)
    return {rec: (next(iter(v)) if len(v) == 1 else "unknown") for rec, v in langs.items()}


# --------------------------------------------------------------------------- measures

def retrieval_record_measures(units: list[dict], k_values) -> dict[int, dict[str, float]]:
    def grade(u):
        s, t = u["labels"]["evidence_sufficient"], u["labels"]["topically_relevant"]
        return 2 if s == 1 else (1 if t == 1 else 0)

    ideal = sorted((grade(u) for u in units), reverse=True)
    out = {}
    for k in k_values:
        top = [u for u in units if u["rank"] <= k]
        t = sum(u["labels"]["topically_relevant"] for u in top)
        s = sum(u["labels"]["evidence_sufficient"] for u in top)
        m = sum(u["labels"]["misleading"] for u in top)
        dcg = sum((2 ** grade(u) - 1) / math.log2(u["rank"] + 1) for u in top)
        idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal[:k]))
        rel_ranks = [u["rank"] for u in top if u["labels"]["topically_relevant"] == 1]
        out[k] = {
            "topical_precision": t / k,
            "sufficiency_hit": 1.0 if s >= 1 else 0.0,
            "sufficiency_rate": s / k,
            "misleading_context_rate": m / k,
            "mrr": 1 / min(rel_ranks) if rel_ranks else 0.0,
            "ndcg": dcg / idcg if idcg > 0 else 0.0,
        }
    return out


def record_runs(seed_dir: Path, rows: dict[str, list[Row]], null_mode: str,
                default_run_id: str) -> dict[str, dict[str, dict]]:
    """task -> record_uuid -> {run_id, query_id, query_text, pairing_key} for every record with
    an accepted row in the family (docs/rules.md, Runs)."""
    from reference import agreement as A

    valid, _rejected, _notes = A.load_records(seed_dir, null_mode)
    query_column = {"retrieval": "input_query", "grounding": "query", "generation": "query"}
    out: dict[str, dict[str, dict]] = {}
    for task, trows in rows.items():
        texts: dict[str, list[str]] = defaultdict(list)
        for r in trows:
            if r.status == "accepted":
                texts[r.record_uuid].append(r.raw[query_column[task]].strip())
        out[task] = {}
        for rec, record_texts in texts.items():
            given = valid.get(rec, {})
            query_text = min(record_texts)
            out[task][rec] = {"run_id": given.get("run_id") or default_run_id,
                              "query_id": given.get("query_id"), "query_text": query_text,
                              "pairing_key": given.get("query_id") or query_text}
    return out


def metric_row(family, metric, k, dim, value_key, values: list[float], wilson_n=None):
    if uses_wilson(metric, k):
        n = len(values) if wilson_n is None else wilson_n
        v = mean(values)
        lo, hi = wilson(v, n)
    else:
        n = len(values)
        v = mean(values)
        lo, hi = t_interval(values)
    return {"family": family, "metric": metric, "k": k, "slice_dimension": dim,
            "slice_value": value_key, "value": v, "n_units": n, "ci_lower": lo, "ci_upper": hi}


# --------------------------------------------------------------------------- daily exports

def read_rows(task: str, raw_rows: list[dict]) -> list[Row]:
    """The rows of one export file (docs/rules.md, Daily exports): a blank row (every column of the
    export empty or blank) has the status `blank`; of the rows equal in every column of the export
    after trimming, the first is read and the others (exact copies) have the status `repeated`.
    Neither takes part in the row status; the other rows have none yet."""
    rows: list[Row] = []
    seen: set[tuple] = set()
    for line, raw in enumerate(raw_rows, start=1):
        row = Row(task=task, line=line, raw=raw)
        content = tuple(None if is_blank(raw.get(c)) else raw[c].strip() for c in COLUMNS[task])
        if all(v is None for v in content):
            row.status = "blank"
        elif content in seen:
            row.status = "repeated"
        seen.add(content)
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- main

def compute(seed_dir, k_values=DEFAULT_K_VALUES, accepted_languages=DEFAULT_LANGUAGES,
            constraint_policy: str = "reject", null_mode: str = "agate",
            default_run_id: str = DEFAULT_RUN_ID) -> Reference:
    seed_dir = Path(seed_dir)
    k_values = sorted({int(k) for k in k_values})
    annotators = {}
    for a in read_csv(seed_dir / "annotators.csv", null_mode):
        aid = a.get("annotator_id")
        if aid is not None:
            annotators[aid] = {"annotator_kind": (a.get("annotator_kind") or "").strip(),
                               "role": (a.get("role") or "").strip()}

    ambiguities: list[str] = []
    rows: dict[str, list[Row]] = {}
    units: dict[str, dict] = {}
    records: dict[str, dict] = {}
    for task, spec in TASKS.items():
        all_rows = read_rows(task, read_csv(seed_dir / f"{spec['seed']}.csv", null_mode))
        trows = [r for r in all_rows if r.status is None]
        for r in trows:
            row_checks(r, task, accepted_languages, constraint_policy)
        assign_status(trows, task, ambiguities)
        rows[task] = all_rows
        units[task] = consensus(trows, task, annotators)
        langs = record_languages(trows)
        recs: dict[str, dict] = {}
        for info in units[task].values():
            rec = recs.setdefault(info["record_uuid"], {"units": [], "resolved": True})
            rec["units"].append(info)
            rec["resolved"] = rec["resolved"] and info["resolved"]
        for rec_id, rec in recs.items():
            rec["language"] = langs.get(rec_id, "unknown")
            if rec["resolved"] and task == "retrieval":
                rec["measures"] = retrieval_record_measures(rec["units"], k_values)
            elif rec["resolved"]:
                rec["measures"] = dict(rec["units"][0]["labels"])
        records[task] = recs

    runs_of_records = record_runs(seed_dir, rows, null_mode, default_run_id)
    for task, recs in records.items():
        for rec_id, rec in recs.items():
            rec["run_id"] = runs_of_records[task][rec_id]["run_id"]
            rec["pairing_key"] = runs_of_records[task][rec_id]["pairing_key"]
    runs = sorted({info["run_id"] for by_record in runs_of_records.values() for info in by_record.values()})
    marts = build_marts(rows, records, k_values, runs or [default_run_id])
    params = {"k_values": k_values, "accepted_languages": list(accepted_languages),
              "constraint_policy": constraint_policy, "null_mode": null_mode,
              "default_run_id": default_run_id}
    return Reference(params, rows, annotators, units, records, marts, ambiguities,
                     runs_of_records, runs or [default_run_id])


def slice_metric_values(family: str, dim: str, value_key: str, srecs: list[dict],
                        k_values, run_id: str | None = None) -> list[dict]:
    """The ``metric_values`` rows of one family for one slice (``srecs``: its resolved
    records, all of run ``run_id``), as for every slice dimension (overall, language, and the
    tier slice checked by test_protocol.py)."""
    out: list[dict] = []
    if family == "retrieval":
        for k in k_values:
            for m in RETRIEVAL_METRICS:
                out.append(metric_row("retrieval", m, k, dim, value_key,
                                      [r["measures"][k][m] for r in srecs]))
    elif family == "grounding":
        for m, label in GROUNDING_METRICS.items():
            out.append(metric_row("grounding", m, None, dim, value_key,
                                  [float(r["measures"][label]) for r in srecs]))
        scited = [float(r["measures"]["fabricated_source"]) for r in srecs
                  if r["measures"]["source_cited"] == 1]
        out.append(metric_row("grounding", "conditional_fabrication_rate", None, dim, value_key,
                              scited))
    else:
        for m, label in GENERATION_METRICS.items():
            out.append(metric_row("generation", m, None, dim, value_key,
                                  [float(r["measures"][label]) for r in srecs]))
    for row in out:
        row["run_id"] = run_id
    return out


def by_run(recs) -> dict[str, list[dict]]:
    """Records (dicts with run_id) grouped by run."""
    out: dict[str, list[dict]] = defaultdict(list)
    for r in recs:
        out[r["run_id"]].append(r)
    return out


def build_marts(rows, records, k_values, runs) -> dict[str, list[dict]]:
    marts: dict[str, list[dict]] = {}
    mv: list[dict] = []

    def slices(recs: list[dict]) -> list[tuple[str, str, list[dict]]]:
        resolved = [r for r in recs if r["resolved"]]
        out = []
        if resolved:
            out.append(("overall", "all", resolved))
        for lang in sorted({r["language"] for r in resolved}):
            out.append(("language", lang, [r for r in resolved if r["language"] == lang]))
        return out

    retrieval, grounding, generation = [], [], []
    for run_id in runs:
        # retrieval
        recs = [r for r in records["retrieval"].values() if r["run_id"] == run_id]
        resolved = [r for r in recs if r["resolved"]]
        n_pending = sum(1 for r in recs if not r["resolved"])
        for k in k_values:
            row = {"run_id": run_id, "k": k, "n_queries": len(resolved), "n_pending_adjudication": n_pending}
            for m in RETRIEVAL_METRICS:
                row[f"{m}_at_k"] = mean([r["measures"][k][m] for r in resolved])
            retrieval.append(row)
        for dim, val, srecs in slices(recs):
            mv += slice_metric_values("retrieval", dim, val, srecs, k_values, run_id)

        # grounding
        recs = [r for r in records["grounding"].values() if r["run_id"] == run_id]
        resolved = [r for r in recs if r["resolved"]]
        cited = [r for r in resolved if r["measures"]["source_cited"] == 1]
        row = {"run_id": run_id, "n_answers": len(resolved),
               "n_pending_adjudication": sum(1 for r in recs if not r["resolved"])}
        for m, label in GROUNDING_METRICS.items():
            row[m] = mean([float(r["measures"][label]) for r in resolved])
        row["n_cited_answers"] = len(cited)
        row["conditional_fabrication_rate"] = mean([float(r["measures"]["fabricated_source"])
                                                    for r in cited])
        grounding.append(row)
        for dim, val, srecs in slices(recs):
            mv += slice_metric_values("grounding", dim, val, srecs, k_values, run_id)

        # generation
        recs = [r for r in records["generation"].values() if r["run_id"] == run_id]
        resolved = [r for r in recs if r["resolved"]]
        row = {"run_id": run_id, "n_answers": len(resolved),
               "n_pending_adjudication": sum(1 for r in recs if not r["resolved"])}
        for m, label in GENERATION_METRICS.items():
            row[m] = mean([float(r["measures"][label]) for r in resolved])
        generation.append(row)
        for dim, val, srecs in slices(recs):
            mv += slice_metric_values("generation", dim, val, srecs, k_values, run_id)

    marts["retrieval_metrics"] = retrieval
    marts["grounding_metrics"] = grounding
    marts["generation_metrics"] = generation
    marts["metric_values"] = mv

    rej = []
    for task, trows in rows.items():
        for r in trows:
            if r.status == "rejected":
                rej.append({"task": task, "record_uuid": r.record_uuid,
                            "annotator_id": r.annotator_id, "chunk_id": r.chunk_id,
                            "created_at": r.created_at, "reasons": r.reasons_text,
                            "source_file": TASKS[task]["seed"] + ".csv", "source_row": r.line})
    marts["rejected_annotations"] = rej
    return marts


if __name__ == "__main__":  # pragma: no cover - manual inspection helper
    import json
    import sys

    ref = compute(sys.argv[1], constraint_policy=sys.argv[2] if len(sys.argv) > 2 else "reject")
    for name, content in ref.marts.items():
        print(name)
        for r in content:
            print("  ", json.dumps(r, default=str))
    for task in TASKS:
        print(task, dict(ref.counts(task)))
    print("ambiguities:", ref.ambiguities)
