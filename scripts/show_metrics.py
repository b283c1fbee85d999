"""Print the dataset-level metrics of a built ragmart DuckDB file as readable tables.

Every line fits 100 columns: a column name too long for that is printed under a short heading, and
a legend line below the table names the column behind each short heading.

Usage: python scripts/show_metrics.py [--database ragmart.duckdb]
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap

import duckdb

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


def _format(value: object) -> str:
    if value is None:
        return "-"
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
    left = [all(isinstance(row[i], str) for row in rows) for i in range(len(columns))]

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
            relation = connection.sql(f"select * from {mart}" + (" order by k" if mart.startswith("retrieval") else ""))
            columns = relation.columns
            rows = relation.fetchall()
            if mart != "retrieval_metrics":
                # one row: print it vertically
                print_table(mart, ["metric", "value"], [(c, v) for c, v in zip(columns, rows[0])])
            else:
                print_table(mart, columns, rows, SHORT_HEADINGS)
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
