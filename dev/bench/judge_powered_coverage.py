#!/usr/bin/env python3
"""Coverage of the three 95 % intervals of judge_powered_metric_values, by simulation.

Many simulated runs with a known true rate p: each run has n + N records whose true label is 1
with probability p; humans label n of them, drawn at random (their label is the truth), and a judge
labels all n + N. Per run the three intervals of the mart are computed, with the formulas of
docs/rules.md (reference/judge_powered.py's ``estimate``, the same rules the SQL is tested against)
and, as a check, with ppi-python's ``ppi_mean_ci`` / ``classical_mean_ci``: the humans on their n
records, the judge alone on all n + N, and the judge-powered (PPI++) interval. The share of runs
whose interval holds p is the interval's coverage; a valid 95 % interval covers p in about 95 % of
the runs. This checks the statistics, not the SQL (dev/tests/test_judge_powered.py compares the
SQL with the same formulas and with ppi-python).

Judges: ``biased`` (a true 0 read as 1 three times in ten, a true 1 as 0 once in twenty: its mean
is off by about 0.3 (1 − p)), ``noisy`` (unbiased: flips a 1 one time in five and a 0 as often as
keeps the mean), ``useless`` (a fair coin).

Usage:
    .venv/bin/python dev/bench/judge_powered_coverage.py                 # 2,000 runs per judge
    .venv/bin/python dev/bench/judge_powered_coverage.py --runs 500 --n 50 --big-n 500 --p 0.3
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "dev" / "tests"), str(ROOT / "dev" / "generate"), str(ROOT / "scripts" / "lib")]
from reference import judge_powered as P  # noqa: E402 - the reference formulas

JUDGES = ("biased", "noisy", "useless")


def judge_labels(kind: str, truth: np.ndarray, p: float, rng: np.random.Generator) -> np.ndarray:
    u = rng.random(truth.shape)
    if kind == "biased":
        return np.where(truth == 1, u >= 0.05, u < 0.3).astype(float)
    if kind == "noisy":
        flip0 = 0.2 * p / (1 - p)
        return np.where(truth == 1, u >= 0.2, u < flip0).astype(float)
    return (u < 0.5).astype(float)


def simulate(kind: str, runs: int, n: int, big_n: int, p: float, seed: int, check_every: int = 0) -> dict:
    """Coverage of the humans', the judge's alone and the judge-powered interval over `runs` runs;
    every `check_every`-th run is also computed with ppi-python (must agree to 1e-9)."""
    from ppi_py import classical_mean_ci, ppi_mean_ci

    rng = np.random.default_rng(seed)
    covered = {"human": 0, "judge": 0, "ppi": 0}
    widths = {"human": [], "ppi": []}
    checked = 0
    for run in range(runs):
        truth = (rng.random(n + big_n) < p).astype(float)
        judged = judge_labels(kind, truth, p, rng)
        labelled = rng.permutation(n + big_n)[:n]           # a random share is labelled by humans
        mask = np.zeros(n + big_n, dtype=bool)
        mask[labelled] = True
        y, yhat, yhat_u = truth[mask], judged[mask], judged[~mask]
        est = P.estimate(list(y), list(yhat), list(yhat_u))
        for name in covered:
            covered[name] += est[f"{name}_ci_lower"] <= p <= est[f"{name}_ci_upper"]
        widths["human"].append(est["human_ci_upper"] - est["human_ci_lower"])
        widths["ppi"].append(est["ppi_ci_upper"] - est["ppi_ci_lower"])
        if check_every and run % check_every == 0 and min(judged) != max(judged):
            lower, upper = (min(1.0, max(0.0, float(np.ravel(v)[0]))) for v in ppi_mean_ci(y, yhat, yhat_u, alpha=0.05))
            h_lower, h_upper = (min(1.0, max(0.0, float(v))) for v in classical_mean_ci(y, alpha=0.05))
            for mine, theirs in ((est["ppi_ci_lower"], lower), (est["ppi_ci_upper"], upper),
                                 (est["human_ci_lower"], h_lower), (est["human_ci_upper"], h_upper)):
                assert abs(mine - theirs) <= 1e-9, (kind, run, mine, theirs)
            checked += 1
    return {"judge": kind, "runs": runs, "n": n, "N": big_n, "p": p, "checked_with_ppi_py": checked,
            **{f"coverage_{name}": covered[name] / runs for name in covered},
            "mean_width_human": float(np.mean(widths["human"])), "mean_width_ppi": float(np.mean(widths["ppi"]))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2000, help="simulated runs per judge (default 2000)")
    parser.add_argument("--n", type=int, default=50, help="human-labelled records per run (default 50)")
    parser.add_argument("--big-n", type=int, default=500, help="records only the judge labels (default 500)")
    parser.add_argument("--p", type=float, default=0.3, help="the true rate (default 0.3)")
    parser.add_argument("--seed", type=int, default=20251202)
    args = parser.parse_args(argv)
    print(f"{'judge':<9}{'runs':>6}{'n':>5}{'N':>6}{'p':>6}{'humans':>9}{'judge':>9}{'powered':>9}"
          f"{'width h':>9}{'width p':>9}")
    for i, kind in enumerate(JUDGES):
        r = simulate(kind, args.runs, args.n, args.big_n, args.p, args.seed + i, check_every=50)
        print(f"{kind:<9}{r['runs']:>6}{r['n']:>5}{r['N']:>6}{r['p']:>6}{r['coverage_human']:>9.3f}"
              f"{r['coverage_judge']:>9.3f}{r['coverage_ppi']:>9.3f}{r['mean_width_human']:>9.3f}"
              f"{r['mean_width_ppi']:>9.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
