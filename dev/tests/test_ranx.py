"""Cross-check of the reference's NDCG@K and MRR@K with ranx on the random data set.

Qrels are the reference's consensus labels of each resolved record's units (chunks):
grade w = 2 if evidence_sufficient, 1 if topically_relevant, else 0 for ``ndcg_burges@k``
(gain 2^w - 1, discount log2(position + 1), ideal ranking over all judged chunks of the
record, exactly the IDCG of docs/rules.md), and topically_relevant (0/1) for ``mrr@k``.

ranx ranks documents by score, so positions are positions in score order, not our
``chunk_rank`` values.  The run therefore lists one document per position 1..max rank: the
unit's chunk_id at its rank, and a dummy, never-judged document where no consensus chunk has
that rank (not retrieved, or all its rows rejected/superseded: "its rank then counts as not
relevant").  Scores are max_rank + 1 - rank, so there are no ties.

Queries without any relevant judged chunk: docs/rules.md says NDCG@K = 0 when IDCG@K = 0 and
RR@K = 0.  ranx 0.3.21 also scores such queries 0 (rather than dropping them or returning
NaN); the test asserts the reference gives exactly 0 for them and checks ranx's value too,
so that a future ranx that treats them differently is noticed here rather than silently
shifting the means.  Such records stay in the means (they count in n_queries).
"""

import math

import numpy as np
import pytest
import reference as R
from kit.builds import SCENARIOS

RANDOM_K = list(SCENARIOS["random"].vars_dict["retrieval_k_values"])

pytestmark = pytest.mark.filterwarnings("ignore::Warning")


@pytest.fixture(scope="module")
def ref(random_seed_dir):
    return R.compute(random_seed_dir, k_values=RANDOM_K)


def _grade(u):
    if u["labels"]["evidence_sufficient"] == 1:
        return 2
    return 1 if u["labels"]["topically_relevant"] == 1 else 0


@pytest.fixture(scope="module")
def ranx_inputs(ref):
    resolved = {rid: rec for rid, rec in ref.records["retrieval"].items() if rec["resolved"]}
    qrels_grade, qrels_topic, run = {}, {}, {}
    for rid, rec in resolved.items():
        units = rec["units"]
        qrels_grade[rid] = {u["chunk_id"]: _grade(u) for u in units}
        qrels_topic[rid] = {u["chunk_id"]: int(u["labels"]["topically_relevant"]) for u in units}
        by_rank = {u["rank"]: u["chunk_id"] for u in units}
        top = max(by_rank)
        run[rid] = {by_rank.get(r, f"__dummy_{rid}_{r}"): float(top + 1 - r)
                    for r in range(1, top + 1)}
    return resolved, qrels_grade, qrels_topic, run


def test_random_data_set_is_meaningful(ranx_inputs):
    resolved, qg, _qt, run = ranx_inputs
    assert len(resolved) > 100
    assert any(any(k.startswith("__dummy_") for k in docs) for docs in run.values())
    assert any(all(g == 0 for g in q.values()) for q in qg.values())
    assert any(sorted(q.values(), reverse=True) != [q[d] for d in sorted(
        q, key=lambda d: -run[rid][d])] for rid, q in qg.items())


@pytest.mark.parametrize("k", RANDOM_K)
def test_ndcg_and_mrr_match_ranx(ref, ranx_inputs, k):
    from ranx import Qrels, Run, evaluate

    resolved, qrels_grade, qrels_topic, run_dict = ranx_inputs
    ids = sorted(resolved)
    run = Run({rid: run_dict[rid] for rid in ids})
    evaluate(Qrels({rid: qrels_grade[rid] for rid in ids}), run, f"ndcg_burges@{k}")
    ndcg = {q: float(v) for q, v in run.scores[f"ndcg_burges@{k}"].items()}
    run2 = Run({rid: run_dict[rid] for rid in ids})
    evaluate(Qrels({rid: qrels_topic[rid] for rid in ids}), run2, f"mrr@{k}")
    mrr = {q: float(v) for q, v in run2.scores[f"mrr@{k}"].items()}
    assert set(ndcg) == set(mrr) == set(ids)

    bad = []
    for rid in ids:
        mine = resolved[rid]["measures"][k]
        no_rel_grade = all(v == 0 for v in qrels_grade[rid].values())
        no_rel_topic = all(v == 0 for v in qrels_topic[rid].values())
        if no_rel_grade:
            assert mine["ndcg"] == 0.0
        if no_rel_topic:
            assert mine["mrr"] == 0.0
        if not math.isclose(mine["ndcg"], ndcg[rid], abs_tol=1e-9):
            bad.append(f"{rid} ndcg@{k}: reference {mine['ndcg']}, ranx {ndcg[rid]}")
        if not math.isclose(mine["mrr"], mrr[rid], abs_tol=1e-9):
            bad.append(f"{rid} mrr@{k}: reference {mine['mrr']}, ranx {mrr[rid]}")
    assert not bad, "\n".join(bad[:20])

    for wide in (r for r in ref.marts["retrieval_metrics"] if r["k"] == k):   # one row per run
        in_run = [rid for rid in ids if resolved[rid]["run_id"] == wide["run_id"]]
        assert wide["n_queries"] == len(in_run)
        assert wide["ndcg_at_k"] == pytest.approx(float(np.mean([ndcg[r] for r in in_run])), abs=1e-9)
        assert wide["mrr_at_k"] == pytest.approx(float(np.mean([mrr[r] for r in in_run])), abs=1e-9)
