"""An independent Python computation of ``run_comparison`` and ``run_comparison_queries``
(docs/rules.md, Run comparison) from the per-record measures of ``reference.compute``.

A run's value for a pairing key is the mean of its resolved records' values with that key
(conditional fabrication: of its cited records); a pair is a key with a value in both runs.
The p-value is the paired sign-flip permutation test with the md5 signs of the rules (computed
here with hashlib and numpy) when n_pairs * B <= max_permutation_rows, else the normal
approximation (scipy); Holm's adjustment runs over the metrics of one comparison and slice.
The adjusted interval (Bonferroni over that Holm family) takes scipy's t quantile at
1 - alpha/(2m); ``baseline_source`` is how the pair's baseline was chosen.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict

import numpy as np

from reference import GENERATION_METRICS, GROUNDING_METRICS, RETRIEVAL_METRICS, t_quantile

TIE = 1e-12
# The measures where a lower value is the better system (the contract's list, written out here so
# that the reference does not take the direction from the project's spec).
LOWER_IS_BETTER = frozenset({"misleading_context_rate", "unsupported_claim_rate", "contradiction_rate",
                             "conditional_fabrication_rate", "incompleteness_rate", "unsafe_content_rate"})


def direction(metric: str) -> int:
    """+1 when a higher value is the better system, -1 when a lower one is."""
    return -1 if metric in LOWER_IS_BETTER else 1
RUN_COMPARISON_KEY = ["baseline_run_id", "candidate_run_id", "family", "metric", "k",
                      "slice_dimension", "slice_value"]
QUERIES_KEY = ["baseline_run_id", "candidate_run_id", "family", "metric", "k", "pairing_key"]


def record_measures(family: str, rec: dict, k_values) -> list[tuple[str, int | None, float | None]]:
    """(metric, k, value) of one resolved record; None where the record has no value
    (conditional fabrication of an answer that cites nothing)."""
    m = rec["measures"]
    if family == "retrieval":
        return [(metric, k, float(m[k][metric])) for k in k_values for metric in RETRIEVAL_METRICS]
    if family == "grounding":
        out = [(metric, None, float(m[label])) for metric, label in GROUNDING_METRICS.items()]
        cited = m["source_cited"] == 1
        out.append(("conditional_fabrication_rate", None, float(m["fabricated_source"]) if cited else None))
        return out
    return [(metric, None, float(m[label])) for metric, label in GENERATION_METRICS.items()]


def key_values(ref) -> dict[tuple, dict]:
    """(run, family, metric, k, key) -> value (mean or None), records behind it, texts, language."""
    k_values = ref.params["k_values"]
    acc: dict[tuple, dict] = {}
    for family, recs in ref.records.items():
        for rec_id, rec in recs.items():
            if not rec["resolved"]:
                continue
            text = ref.record_runs[family][rec_id]["query_text"]
            for metric, k, value in record_measures(family, rec, k_values):
                entry = acc.setdefault((rec["run_id"], family, metric, k, rec["pairing_key"]),
                                       {"values": [], "records": [], "texts": set(), "languages": set()})
                entry["texts"].add(text)
                entry["languages"].add(rec["language"] or "unknown")
                if value is not None:
                    entry["values"].append(value)
                    entry["records"].append(rec_id)
    out = {}
    for key, e in acc.items():
        out[key] = {"value": sum(e["values"]) / len(e["values"]) if e["values"] else None,
                    "records": ";".join(sorted(e["records"])) or None,
                    "text": min(e["texts"]),
                    "language": next(iter(e["languages"])) if len(e["languages"]) == 1 else "unknown"}
    return out


def comparisons(runs: list[str], baseline: str | None = None, pairs=()) -> list[tuple[str, str]]:
    if not runs:
        return []
    base = baseline if baseline is not None else min(runs)
    out = {(base, r) for r in runs if r != base}
    out |= {(a, b) for a, b in pairs}
    return sorted(out)


def signs(keys: list[str], n_permutations: int) -> np.ndarray:
    """keys x B matrix of the md5 signs: +1 when md5('<b>:<key>') starts with 0-7."""
    out = np.empty((len(keys), n_permutations), dtype=np.int8)
    for i, key in enumerate(keys):
        for b in range(1, n_permutations + 1):
            first = hashlib.md5(f"{b}:{key}".encode()).hexdigest()[0]
            out[i, b - 1] = 1 if first in "01234567" else -1
    return out


def normal_p(mean_d: float, sd: float | None, n: int) -> float | None:
    from scipy import stats

    if sd is None or n < 2:
        return None
    if sd == 0:
        return 0.0
    z = mean_d / (sd / math.sqrt(n))
    return float(min(1.0, 2 * stats.norm.cdf(-abs(z))))


def holm(p_values: list[float]) -> list[float]:
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    m = len(p_values)
    out = [0.0] * m
    running = 0.0
    for j, i in enumerate(order, start=1):
        running = max(running, min(1.0, (m - j + 1) * p_values[i]))
        out[i] = running
    return out


def compute(ref, baseline: str | None = None, pairs=(), n_permutations: int = 10000,
            max_permutation_rows: float = 100_000_000, alpha: float = 0.05) -> dict[str, list[dict]]:
    values = key_values(ref)
    by_run_measure: dict[tuple, dict[str, dict]] = defaultdict(dict)
    for (run, family, metric, k, key), v in values.items():
        by_run_measure[(run, family, metric, k)][key] = v
    measures = sorted({(f, m, k) for (_r, f, m, k) in by_run_measure}, key=lambda t: (t[0], t[1], t[2] or 0))
    sign_cache: dict[str, np.ndarray] = {}

    rows, queries = [], []
    from scipy import stats

    from_baseline = set(comparisons(ref.runs, baseline))
    source = "smallest_run_id" if baseline is None else "baseline_run_id"
    for base, cand in comparisons(ref.runs, baseline, pairs):
        for family, metric, k in measures:
            bvals = by_run_measure.get((base, family, metric, k), {})
            cvals = by_run_measure.get((cand, family, metric, k), {})
            keyed = []  # (key, language, b, c)
            for key in sorted(set(bvals) | set(cvals)):
                b, c = bvals.get(key), cvals.get(key)
                bv = b["value"] if b else None
                cv = c["value"] if c else None
                if bv is None and cv is None:
                    continue
                lang = (b or c)["language"]
                keyed.append((key, lang, bv, cv))
                if bv is not None and cv is not None:
                    d = cv - bv
                    texts = [x["text"] for x in (b, c)]
                    queries.append({"baseline_run_id": base, "candidate_run_id": cand, "family": family,
                                    "metric": metric, "k": k, "pairing_key": key, "query_text": min(texts),
                                    "baseline_record_uuids": b["records"], "candidate_record_uuids": c["records"],
                                    "baseline_value": bv, "candidate_value": cv, "difference": d,
                                    "outcome": outcome(direction(metric) * d)})
            slices = [("overall", "all", keyed)]
            for lang in sorted({x[1] for x in keyed}):
                slices.append(("language", lang, [x for x in keyed if x[1] == lang]))
            for dim, val, items in slices:
                paired = [(key, bv, cv) for key, _l, bv, cv in items if bv is not None and cv is not None]
                n = len(paired)
                if n == 0:
                    continue
                d = np.array([cv - bv for _k, bv, cv in paired])
                mean_d = float(d.sum() / n)
                sd = float(np.sqrt(((d - mean_d) ** 2).sum() / (n - 1))) if n >= 2 else None
                if n >= 2:
                    half = t_quantile(n - 1) * sd / math.sqrt(n)
                    lo, hi = mean_d - half, mean_d + half
                else:
                    lo = hi = None
                method = "permutation" if n * n_permutations <= max_permutation_rows else "normal"
                if np.all(np.abs(d) <= TIE):
                    p = 1.0
                elif method == "permutation":
                    keys = [key for key, _b, _c in paired]
                    for key in keys:
                        if key not in sign_cache:
                            sign_cache[key] = signs([key], n_permutations)[0]
                    s = np.stack([sign_cache[key] for key in keys])
                    t_obs = abs(float(d.sum()))
                    t_b = np.abs(d @ s)
                    p = (1 + int((t_b >= t_obs - TIE).sum())) / (n_permutations + 1)
                else:
                    p = normal_p(mean_d, sd, n)
                rows.append({"baseline_run_id": base, "candidate_run_id": cand, "family": family,
                             "metric": metric, "k": k, "slice_dimension": dim, "slice_value": val,
                             "n_pairs": n,
                             "n_baseline_only": sum(1 for _k, _l, bv, cv in items if bv is not None and cv is None),
                             "n_candidate_only": sum(1 for _k, _l, bv, cv in items if bv is None and cv is not None),
                             "baseline_value": sum(bv for _k, bv, _c in paired) / n,
                             "candidate_value": sum(cv for _k, _b, cv in paired) / n,
                             "difference": mean_d, "difference_ci_lower": lo, "difference_ci_upper": hi,
                             "higher_is_better": direction(metric) == 1,
                             "n_wins": int((direction(metric) * d > TIE).sum()),
                             "n_ties": int((np.abs(d) <= TIE).sum()),
                             "n_losses": int((direction(metric) * d < -TIE).sum()),
                             "p_value": p, "p_value_method": method, "_sd": sd,
                             "baseline_source": source if (base, cand) in from_baseline else "comparison_pairs"})
    families: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        r["p_value_holm"] = None
        if r["p_value"] is not None:
            families[(r["baseline_run_id"], r["candidate_run_id"], r["slice_dimension"], r["slice_value"])].append(r)
    for group in families.values():
        for r, adjusted in zip(group, holm([r["p_value"] for r in group]), strict=True):
            r["p_value_holm"] = adjusted
            r["_m"] = len(group)
    for r in rows:
        r["is_significant"] = r["p_value_holm"] is not None and r["p_value_holm"] < alpha
        sd, n = r.pop("_sd"), r["n_pairs"]
        if n >= 2:
            half = float(stats.t.isf(alpha / (2 * r.pop("_m")), n - 1)) * sd / math.sqrt(n)
            r["adjusted_ci_lower"], r["adjusted_ci_upper"] = r["difference"] - half, r["difference"] + half
        else:
            r.pop("_m", None)
            r["adjusted_ci_lower"] = r["adjusted_ci_upper"] = None
    return {"run_comparison": rows, "run_comparison_queries": queries}


def outcome(better_by: float) -> str:
    """`win` when the candidate is better by more than the tie tolerance (better_by is the difference
    times the measure's direction), `loss` when worse."""
    return "win" if better_by > TIE else "loss" if better_by < -TIE else "tie"
