"""scripts/show_metrics.py (printed at the end of `make build`) on the sample build: every line fits
100 columns, every run's metrics are printed (grounding and generation with one column per run),
and the run comparison's overall rows, each number equal to the mart's (the sample's, and a hand-made
table of run_comparison's schema), with the queries that have a loss; the verdict names every
significant measure as better or worse in its direction (the sample's: misleading context falls,
which is better)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb

PROJECT = Path(__file__).resolve().parent.parent.parent
SCRIPT = PROJECT / "scripts" / "show_metrics.py"
SCENARIOS_USED = ["sample"]


def show(database: Path) -> list[str]:
    result = subprocess.run([sys.executable, str(SCRIPT), "--database", str(database)], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= 100 for line in lines), [line for line in lines if len(line) > 100]
    return lines


def test_every_run_and_the_comparison(builds, tmp_path):
    sample = builds.get("sample").check().db_path
    lines = show(sample)
    with duckdb.connect(str(sample), read_only=True) as con:
        runs = [r for (r,) in con.execute("select run_id from grounding_metrics").fetchall()]
        rates = dict(con.execute("select run_id, citation_presence_rate from grounding_metrics").fetchall())
    assert len(runs) >= 2
    heading = next(line for line in lines if line.startswith("metric") and runs[0] in line)
    assert heading.split()[1:] == sorted(runs, key=lambda r: r.encode("utf-8"))
    citation = next(line for line in lines if line.startswith("citation_presence_rate"))
    assert citation.split()[1:] == [f"{rates[r]:.4f}" for r in heading.split()[1:]]
    with duckdb.connect(str(sample), read_only=True) as con:
        sample_rows = con.execute("select metric, k, n_pairs, difference, p_value_holm, is_significant from"
                                  " run_comparison where slice_dimension = 'overall' and candidate_run_id = 'bot-v2'"
                                  ).fetchall()
    start = lines.index("run_comparison: bot-v2 against the baseline bot-v1 (overall)")
    table = {line.split()[0]: line.split()[1:] for line in lines[start + 3:start + 3 + len(sample_rows)]}
    assert len(table) == len(sample_rows) >= 30
    lower_is_better = {"misleading_context_rate", "unsupported_claim_rate", "contradiction_rate",
                       "conditional_fabrication_rate", "incompleteness_rate", "unsafe_content_rate"}
    verdicts = {}
    for metric, k, n_pairs, difference, p_value_holm, significant in sample_rows:
        measure = f"{metric}@{k}" if k is not None else metric
        shown = table[measure]
        assert (shown[0], shown[1], shown[4]) == (str(n_pairs), f"{difference:.4f}", f"{p_value_holm:.4f}"), (metric, k)
        if significant:
            verdicts[measure] = "better" if (difference > 0) == (metric not in lower_is_better) else "worse"
        assert shown[5] == verdicts.get(measure, "-"), (measure, shown)
    assert verdicts == {"misleading_context_rate@5": "better", "misleading_context_rate@10": "better"}
    opening = lines[lines.index("verdict: bot-v2 against the baseline bot-v1 (overall, significant after Holm)") + 1:start]
    said = {line.split(" on ")[1].split(":")[0]: line.split()[2] for line in opening if line.startswith("bot-v2 is")}
    assert said == verdicts
    # the baseline and how it was chosen; the intervals beside the verdict are the adjusted ones
    assert opening[0].startswith("baseline: bot-v1 (no baseline_run_id given, so the smallest run id"), opening[0]
    with duckdb.connect(str(sample), read_only=True) as con:
        lower, upper = con.execute("select adjusted_ci_lower, adjusted_ci_upper from run_comparison where"
                                   " slice_dimension = 'overall' and candidate_run_id = 'bot-v2' and"
                                   " metric = 'misleading_context_rate' and k = 5").fetchone()
        (measures,) = con.execute("select count(*) from run_comparison where slice_dimension = 'overall'"
                                  " and candidate_run_id = 'bot-v2'").fetchone()   # every measure at every K
    text = " ".join(" ".join(opening).split())   # the sentences as one line, whatever the wrapping
    assert f"misleading_context_rate@5: -0.068 [{lower:.3f}, {upper:.3f}] adjusted, p_holm" in text
    assert (table["misleading_context_rate@5"][2], table["misleading_context_rate@5"][3]) == (f"{lower:.4f}",
                                                                                           f"{upper:.4f}")
    note = " ".join(" ".join(lines[lines.index(next(x for x in lines if x.startswith("diff = difference"))):][:3]).split())
    assert f"adjusted for the {measures} measures of the comparison" in note, note

    database = tmp_path / "runs.duckdb"
    with duckdb.connect(str(database)) as con:
        con.execute(f"attach '{sample}' as sample (read_only)")
        for mart in ("retrieval_metrics", "grounding_metrics", "generation_metrics", "rejected_annotations"):
            con.execute(f"create table {mart} as select * from sample.{mart}")
        con.execute("""create table run_comparison as
            select 'bot-v1' as baseline_run_id, 'bot-v2' as candidate_run_id, family, metric, k, slice_dimension,
                   slice_value, n_units as n_pairs, 0 as n_baseline_only, 0 as n_candidate_only,
                   value as baseline_value, value as candidate_value, (n_units % 7 - 3) / 100.0 as difference,
                   (n_units % 7 - 5) / 100.0 as difference_ci_lower, (n_units % 7 - 1) / 100.0 as difference_ci_upper,
                   n_units % 2 = 0 as higher_is_better,
                   1 as n_wins, 1 as n_ties, n_units % 5 as n_losses, 0.5 as p_value, 'normal' as p_value_method,
                   n_units / 1000.0 as p_value_holm, n_units < 50 or metric = 'ndcg' as is_significant,
                   (n_units % 7 - 6) / 100.0 as adjusted_ci_lower, (n_units % 7) / 100.0 as adjusted_ci_upper,
                   'baseline_run_id' as baseline_source
            from sample.metric_values where run_id = 'bot-v1' and slice_dimension in ('overall', 'language')""")
        con.execute("""create table run_comparison_queries as
            select 'bot-v1' as baseline_run_id, 'bot-v2' as candidate_run_id, 'retrieval' as family, 'ndcg' as metric,
                   5 as k, 'q-' || i as pairing_key, 'text' as query_text, 'a' as baseline_record_uuids,
                   'b' as candidate_record_uuids, 0.5 as baseline_value, 0.4 as candidate_value,
                   case when i < 3 then -0.1 else 0.1 end as difference,
                   case when i < 3 then 'loss' else 'win' end as outcome
            from range(5) as t(i)""")
        expected = con.execute("select metric, k, n_pairs, difference, adjusted_ci_lower, adjusted_ci_upper,"
                               " p_value_holm, case when not is_significant or difference = 0 then '-'"
                               " when (difference > 0) = higher_is_better then 'better' else 'worse' end,"
                               " n_wins, n_losses from run_comparison where slice_dimension = 'overall'").fetchall()
    lines = show(database)
    start = lines.index("run_comparison: bot-v2 against the baseline bot-v1 (overall)")
    table = {line.split()[0]: line.split()[1:] for line in lines[start + 3:start + 3 + len(expected)]}
    assert len(table) == len(expected)
    for metric, k, *numbers in expected:
        shown = table[f"{metric}@{k}" if k is not None else metric]
        want = [str(numbers[0]), *(f"{v:.4f}" for v in numbers[1:5]), numbers[5], str(numbers[6]), str(numbers[7])]
        assert shown == want, (metric, k, shown, want)
    assert {v for _m, _k, *numbers in expected for v in numbers[5:6]} == {"-", "better", "worse"}
    assert any("3 of 5 queries are worse in bot-v2 than in bot-v1" in line for line in lines)
    assert "baseline: bot-v1 (named by the var baseline_run_id)" in lines
