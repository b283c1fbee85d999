"""Print the dataset-level metrics of a built ragmart DuckDB file as readable tables.

Every metric mart is computed per evaluation run (docs/marts.md, "Evaluation runs"): retrieval_metrics is
printed with its run_id, grounding_metrics and generation_metrics with one column per run (side by
side, in several tables when the runs do not fit the width). When the database has the mart
run_comparison with rows, each compared pair of runs follows: first the verdict (the measures on
which the candidate is significantly better or worse after Holm, in each measure's direction),
then a short table (slice overall: the difference candidate - baseline with its 95 % interval
adjusted for the measures of the comparison as the verdict is, Holm's adjusted p-value, the
verdict, and the queries on which the candidate is better and worse), and, from
run_comparison_queries, how many queries are worse in the candidate on at least one measure. Each
comparison says which run is its baseline and how it was chosen (run_comparison.baseline_source).

Every line fits 100 columns: a column name too long for that is printed under a short heading, and
a legend line below the table names the column behind each short heading.

Usage: python scripts/show_metrics.py [--database ragmart.duckdb]
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent / "lib"))  # export_schema: the task spec's reader
from export_schema import LOWER_IS_BETTER  # the task spec's directions

MARTS = ("retrieval_metrics", "grounding_metrics", "generation_metrics")
WIDTH = 100
# Short headings of retrieval_metrics' columns (the legend under the table spells them out).
SHORT_HEADINGS = {
    "n_queries": "queries",
    "n_pending_adjudication": "pending",
    "topical_precision_at_k": "topical_p",
    "sufficiency_hit_at_k": "suff_hit",
    "sufficiency_rate_at_k": "suff_rate",
    "misleading_context_rate_at_k": "misleading",
    "mrr_at_k": "mrr",
    "ndcg_at_k": "ndcg",
}
# Short headings of the comparison table (columns of run_comparison).
COMPARISON_HEADINGS = {
    "n_pairs": "pairs",
    "difference": "diff",
    "adjusted_ci_lower": "adj_lower",
    "adjusted_ci_upper": "adj_upper",
    "p_value_holm": "p_holm",
    "n_wins": "wins",
    "n_losses": "losses",
}
COMPARISON_COLUMNS = ("family", "metric", "k", "n_pairs", "difference", "adjusted_ci_lower",
                      "adjusted_ci_upper", "p_value_holm", "is_significant", "higher_is_better", "n_wins",
                      "n_losses", "baseline_source", "n_tests")
# printed: the measure (metric@k; the metric names tell the families apart), the numbers, the
# verdict (from is_significant and the direction) and the wins and losses
COMPARISON_SHOWN = ("measure", "n_pairs", "difference", "adjusted_ci_lower", "adjusted_ci_upper",
                    "p_value_holm", "verdict", "n_wins", "n_losses")
# How the baseline of a comparison was chosen (run_comparison.baseline_source), as a phrase.
BASELINE_SOURCES = {
    "baseline_run_id": "named by the var baseline_run_id",
    "smallest_run_id": "no baseline_run_id given, so the smallest run id in byte order: fine for reading,"
                       " not for a release decision",
    "comparison_pairs": "a pair of the var comparison_pairs",
}
# The rows of one comparison and slice with a p-value: Holm's family, and the m of the adjusted interval.
HOLM_FAMILY_SIZE = ("count(p_value) over (partition by baseline_run_id, candidate_run_id, slice_dimension,"
                    " slice_value)")
FAMILY_ORDER = ("retrieval", "grounding", "generation")


def _format(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def print_table(title: str, columns: list[str], rows: list[tuple], short: dict[str, str] | None = None) -> None:
    """Print `rows` under `columns`; a column named in `short` gets the short heading and a legend entry."""
    short = short or {}
    headings = [short.get(c, c) for c in columns]
    cells = [[_format(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headings)]
    print(f"\n{title}")
    # text columns left-aligned, numbers right-aligned
    left = [all(isinstance(row[i], (str, bool)) or row[i] is None for row in rows)
            and any(isinstance(row[i], (str, bool)) for row in rows) for i in range(len(columns))]

    def line(values: list[str]) -> str:
        return "  ".join(v.ljust(w) if lft else v.rjust(w) for v, w, lft in zip(values, widths, left)).rstrip()

    print(line(headings))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(line(row))
    legend = [f"{short[c]} = {c}" for c in columns if c in short and short[c] != c]
    if legend:
        # one entry never splits over two lines
        print(textwrap.fill("; ".join(entry.replace(" ", "\xa0") for entry in legend), width=WIDTH,
                            break_on_hyphens=False).replace("\xa0", " "))


def has_table(connection, name: str) -> bool:
    return bool(connection.execute(
        "select 1 from information_schema.tables where table_name = ? and table_catalog = current_database()",
        [name]).fetchall())


def run_columns(rows: list[tuple], columns: list[str]) -> list[list[int]]:
    """The rows (runs) of a one-row-per-run mart in groups whose side-by-side table fits WIDTH."""
    def width(value: object) -> int:
        return len(_format(value))

    label = max(len(c) for c in columns)
    groups, current, used = [], [], label
    for index, row in enumerate(rows):
        column = max(width(v) for v in row)
        if current and used + 2 + column > WIDTH:
            groups.append(current)
            current, used = [], label
        current.append(index)
        used += 2 + column
    return groups + ([current] if current else [])


def print_side_by_side(mart: str, columns: list[str], rows: list[tuple]) -> None:
    """A one-row-per-run mart with one column per run (its run_id as heading)."""
    names = columns[1:]
    for group in run_columns(rows, columns):
        runs = [str(rows[i][0]) for i in group]
        title = mart + (" (runs side by side)" if len(rows) > 1 else "")
        print_table(title, ["metric", *runs],
                    [(name, *[rows[i][j + 1] for i in group]) for j, name in enumerate(names)])


def verdict(difference: float | None, significant: bool, higher_is_better: bool) -> str:
    """`better` or `worse` for a significant difference (the candidate against the baseline, in the
    measure's direction), `-` otherwise."""
    if not significant or difference is None or difference == 0:
        return "-"
    return "better" if (difference > 0) == higher_is_better else "worse"


def verdict_sentence(candidate: str, baseline: str, measure: str, word: str, difference: float,
                     lower: float | None, upper: float | None, p_holm: float) -> str:
    """The verdict on one measure, with the interval adjusted as the verdict is (`adjusted_ci_*`):
    'bot-v2 is better than bot-v1 on ndcg@5: +0.061 [0.012, 0.110] adjusted, p_holm 0.010 (higher is
    better)'. The printed table, the report and the gate say it alike."""
    interval = "" if lower is None else f" [{lower:.3f}, {upper:.3f}] adjusted"
    direction = "higher" if (difference > 0) == (word == "better") else "lower"
    return (f"{candidate} is {word} than {baseline} on {measure}: {difference:+.3f}{interval},"
            f" p_holm {p_holm:.3f} ({direction} is better)")


def baseline_line(baseline: str, source: str | None) -> str:
    """Which run is the baseline and how it was chosen."""
    return f"baseline: {baseline} ({BASELINE_SOURCES.get(source, source or 'unknown')})"


def verdict_lines(candidate: str, baseline: str, members: list[tuple]) -> list[str]:
    """The sentences that open a comparison: the significant measures, better ones first."""
    lines = []
    for word in ("better", "worse"):
        for measure, _n, difference, lower, upper, p_holm, shown, *_ in members:
            if shown == word:
                lines.append(verdict_sentence(candidate, baseline, measure, word, difference, lower, upper, p_holm))
    if not lines:
        lines.append(f"{candidate} against {baseline}: no measure differs significantly after Holm")
    return lines


def print_comparison(connection) -> None:
    """Per (baseline, candidate) of run_comparison: the verdict, the overall rows, and the queries
    that are worse in the candidate (run_comparison_queries)."""
    if not has_table(connection, "run_comparison"):
        return
    columns = ", ".join(COMPARISON_COLUMNS).replace("n_tests", HOLM_FAMILY_SIZE + " as n_tests")
    relation = connection.sql(
        f"select * exclude (slice_dimension) from (select baseline_run_id, candidate_run_id, slice_dimension, {columns}"
        " from run_comparison) as comparison where slice_dimension = 'overall'")
    rows = relation.fetchall()
    if not rows:
        return
    order = {family: i for i, family in enumerate(FAMILY_ORDER)}
    rows.sort(key=lambda r: (r[0], r[1], order.get(r[2], len(order)), str(r[2]), str(r[3]),
                             r[4] is not None, r[4] or 0))
    queries = {}
    if has_table(connection, "run_comparison_queries"):
        queries = {(b, c): (lower, total) for b, c, lower, total in connection.sql(
            "select baseline_run_id, candidate_run_id,"
            " count(distinct case when outcome = 'loss' then pairing_key end), count(distinct pairing_key)"
            " from run_comparison_queries group by baseline_run_id, candidate_run_id").fetchall()}
    for pair in dict.fromkeys((r[0], r[1]) for r in rows):
        # (measure, n_pairs, difference, ci_lower, ci_upper, p_holm, verdict, n_wins, n_losses)
        members = [(f"{r[3]}@{r[4]}" if r[4] is not None else r[3], *r[5:10], verdict(r[6], r[10], r[11]),
                    r[12], r[13]) for r in rows if (r[0], r[1]) == pair]
        first = next(r for r in rows if (r[0], r[1]) == pair)
        source, n_tests = first[14], max(r[15] for r in rows if (r[0], r[1]) == pair)
        title = f"run_comparison: {pair[1]} against the baseline {pair[0]} (overall)"
        print(f"\nverdict: {pair[1]} against the baseline {pair[0]} (overall, significant after Holm)")
        print(textwrap.fill(baseline_line(pair[0], source), width=WIDTH, subsequent_indent="  ",
                            break_on_hyphens=False))
        for line in verdict_lines(pair[1], pair[0], members):
            print(textwrap.fill(line, width=WIDTH, subsequent_indent="  ", break_on_hyphens=False))
        print_table(title, list(COMPARISON_SHOWN), members, COMPARISON_HEADINGS)
        print(textwrap.fill(
            "diff = difference = candidate - baseline; adj_lower, adj_upper: its interval adjusted for the"
            f" {n_tests} measures of the comparison (Bonferroni, 95 % for all of them at once), as the verdict is"
            " adjusted (Holm; run_comparison.difference_ci_* is the unadjusted one); verdict: better or worse"
            " when significant after Holm; wins, losses: queries better, worse in the candidate. Lower is"
            " better for " + ", ".join(LOWER_IS_BETTER) + "; higher for the others.", width=WIDTH,
            break_on_hyphens=False))
        if pair in queries:
            worse, total = queries[pair]
            print(textwrap.fill(f"run_comparison_queries: {worse} of {total} queries are worse in {pair[1]} than in "
                                f"{pair[0]} on at least one measure (outcome = 'loss'; worst first: order by"
                                " abs(difference) desc)", width=WIDTH, break_on_hyphens=False))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database",
        default=os.environ.get("RAGMART_DUCKDB_PATH", "ragmart.duckdb"),
        help="DuckDB file written by dbt (default: $RAGMART_DUCKDB_PATH or ragmart.duckdb)",
    )
    args = parser.parse_args()
    if not os.path.exists(args.database):
        print(f"error: {args.database} does not exist; run 'make build' first", file=sys.stderr)
        return 2
    with duckdb.connect(args.database, read_only=True) as connection:
        for mart in MARTS:
            # runs in byte order (the order of the run comparison's baseline)
            relation = connection.sql(f"select * from {mart} order by run_id collate \"binary\""
                                      + (", k" if mart.startswith("retrieval") else ""))
            columns = relation.columns
            rows = relation.fetchall()
            if mart != "retrieval_metrics":
                print_side_by_side(mart, columns, rows)
            else:
                print_table(mart, columns, rows, SHORT_HEADINGS)
        print_comparison(connection)
        rejected = connection.sql(
            "select task, count(*) from rejected_annotations group by task order by task"
        ).fetchall()
        total = sum(n for _, n in rejected)
        print()
        print(textwrap.fill(f"rejected_annotations: {total} row(s) rejected" + (
            " (" + ", ".join(f"{t}: {n}" for t, n in rejected) + "); see the rejected_annotations mart"
            if rejected else ""), width=WIDTH, break_on_hyphens=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
