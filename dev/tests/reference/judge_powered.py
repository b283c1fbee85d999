"""Independent Python reference for ``judge_powered_metric_values`` (docs/rules.md, "Judge-powered
metrics"), written from that section only, never from the dbt SQL.

The record sets, per (run, judge, family) and slice (``overall``/``all`` and ``language``/<the
record's language in the family as in Measures>):

* L (labelled, n records): the judge's compared records of ``judge_metric_values``
  (``reference.judges``: human-resolved records on which the judge has an accepted row for every
  human unit), Y = the record's human consensus value (the core of ``reference``), Ŷ = the judge's
  value on the same units;
* U (unlabelled, N records): the run's records of the family with no accepted row of a ``HUMAN``
  annotator (any role) and an accepted row of the judge; Ŷ = the per-record measures of the
  judge's own accepted rows (retrieval: the chunks it labelled, at their ranks).

Metrics: every mean-over-records metric of ``metric_values`` (not conditional fabrication),
retrieval at every K.  A row exists when n ≥ 2 and N ≥ 1.  ``estimate`` gives the columns from
(Y, Ŷ, Ŷ_U) by the formulas of docs/rules.md in exact arithmetic; the tests also compare the mart
with the ``ppi_py`` package itself.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import reference as R
from reference import judges as J

Z = 1.959963984540054
KEY = ["run_id", "annotator_id", "family", "metric", "k", "slice_dimension", "slice_value"]
VALUES = ["annotator_kind", "n_labeled", "n_unlabeled", "human_value", "human_ci_lower",
          "human_ci_upper", "judge_value", "judge_ci_lower", "judge_ci_upper", "lambda", "ppi_value",
          "ppi_ci_lower", "ppi_ci_upper", "effective_n", "width_ratio"]
COLUMNS = KEY + VALUES


def metric_values(task: str, measures: dict, k_values) -> dict[tuple, float]:
    """(metric, k) -> the record's value of every mean-over-records metric of the family."""
    if task == "retrieval":
        return {(m, k): float(measures[k][m]) for k in k_values for m in R.RETRIEVAL_METRICS}
    names = R.GROUNDING_METRICS if task == "grounding" else R.GENERATION_METRICS
    return {(m, None): float(measures[label]) for m, label in names.items()}


def record_sets(jr: J.JudgeReference) -> dict[tuple, dict]:
    """KEY -> {"Y": [...], "Yhat": [...], "Yhat_unlabeled": [...]} (in record order) for every
    group of the mart, n ≥ 2 and N ≥ 1 or not."""
    ref = jr.ref
    out: dict[tuple, dict] = defaultdict(lambda: {"Y": [], "Yhat": [], "Yhat_unlabeled": []})

    def add(task, judge, run_id, language, values, human=None):
        for (metric, k), v in values.items():
            for dim, value in (("overall", "all"), ("language", language)):
                group = out[(run_id, judge, task, metric, k, dim, value)]
                if human is None:
                    group["Yhat_unlabeled"].append(v)
                else:
                    group["Y"].append(human[(metric, k)])
                    group["Yhat"].append(v)

    for task in R.TASKS:
        languages = R.record_languages(ref.rows[task])
        accepted = [r for r in ref.rows[task] if r.status == "accepted"]
        human_records = {r.record_uuid for r in accepted if J._is_human(ref, r.annotator_id)}
        for judge in sorted(jr.judges):
            for rec_id, judged in sorted(jr.compared_measures.get((judge, task), {}).items()):
                rec = ref.records[task][rec_id]
                add(task, judge, rec["run_id"], rec["language"], metric_values(task, judged, jr.k_values),
                    metric_values(task, rec["measures"], jr.k_values))
            by_record: dict[str, list] = defaultdict(list)
            for unit, row in jr.judge_rows[task].get(judge, {}).items():
                if unit[0] not in human_records:
                    by_record[unit[0]].append(row)
            for rec_id, rows in sorted(by_record.items()):
                if task == "retrieval":
                    measures = R.retrieval_record_measures(
                        [{"labels": row.labels, "rank": row.rank} for row in rows], jr.k_values)
                else:
                    (row,) = rows
                    measures = dict(row.labels)
                add(task, judge, ref.record_runs[task][rec_id]["run_id"], languages.get(rec_id, "unknown"),
                    metric_values(task, measures, jr.k_values))
    return dict(out)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def estimate(y: list[float], yhat: list[float], yhat_u: list[float]) -> dict:
    """The mart's values of one group from Y and Ŷ on L and Ŷ on U (docs/rules.md), in exact
    arithmetic (``Fraction``) up to the square roots, so that equal values have no spread."""
    y, yhat, yhat_u = ([Fraction(v) for v in values] for values in (y, yhat, yhat_u))
    n, big_n = len(y), len(yhat_u)
    ybar, fbar, ftilde = sum(y) / n, sum(yhat) / n, sum(yhat_u) / big_n
    both = yhat + yhat_u
    mean_both = sum(both) / (n + big_n)
    c_hat = sum((a - ybar) * (b - fbar) for a, b in zip(y, yhat)) / n
    v_hat = sum((b - mean_both) ** 2 for b in both) / (n + big_n - 1)
    lam = Fraction(0) if v_hat == 0 else min(Fraction(1), max(Fraction(0), c_hat / ((1 + Fraction(n, big_n)) * v_hat)))
    ppi = lam * ftilde + ybar - lam * fbar
    var_u = sum((lam * b - lam * ftilde) ** 2 for b in yhat_u) / big_n
    var_rect = sum(((a - ybar) - lam * (b - fbar)) ** 2 for a, b in zip(y, yhat)) / n
    se = math.sqrt(var_u / big_n + var_rect / n)
    var_y = sum((a - ybar) ** 2 for a in y) / n
    human_se = math.sqrt(var_y / n)
    judge_se = math.sqrt(sum((b - mean_both) ** 2 for b in both) / (n + big_n) / (n + big_n))
    return {"n_labeled": n, "n_unlabeled": big_n, "human_value": float(ybar),
            "human_ci_lower": _clip(float(ybar) - Z * human_se),
            "human_ci_upper": _clip(float(ybar) + Z * human_se),
            "judge_value": float(mean_both), "judge_ci_lower": _clip(float(mean_both) - Z * judge_se),
            "judge_ci_upper": _clip(float(mean_both) + Z * judge_se), "lambda": float(lam), "ppi_value": float(ppi),
            "ppi_ci_lower": _clip(float(ppi) - Z * se), "ppi_ci_upper": _clip(float(ppi) + Z * se),
            "effective_n": float(var_y) / se ** 2 if se > 0 else None,
            "width_ratio": se / human_se if human_se > 0 else None}


def compute(jr: J.JudgeReference) -> list[dict]:
    """The expected rows of judge_powered_metric_values."""
    rows = []
    for key, sets in sorted(record_sets(jr).items(), key=lambda kv: repr(kv[0])):
        if len(sets["Y"]) < 2 or not sets["Yhat_unlabeled"]:
            continue
        row = dict(zip(KEY, key))
        row["annotator_kind"] = jr.judges[key[1]][0]
        row.update(estimate(sets["Y"], sets["Yhat"], sets["Yhat_unlabeled"]))
        rows.append(row)
    return rows
