"""Print the dataset-level metrics of a built ragmart DuckDB file as readable tables.

Usage: python scripts/show_metrics.py [--database ragmart.duckdb]
"""

from __future__ import annotations

import argparse
import os
import sys

import duckdb

MARTS = ("retrieval_metrics", "grounding_metrics", "generation_metrics")


def _format(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def print_table(title: str, columns: list[str], rows: list[tuple]) -> None:
    cells = [[_format(v) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    print(f"\n{title}")
    # text columns left-aligned, numbers right-aligned
    left = [all(isinstance(row[i], str) for row in rows) for i in range(len(columns))]

    def line(values: list[str]) -> str:
        return "  ".join(v.ljust(w) if lft else v.rjust(w) for v, w, lft in zip(values, widths, left))

    print(line(list(columns)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print(line(row))


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
                print_table(mart, columns, rows)
        rejected = connection.sql(
            "select task, count(*) from rejected_annotations group by task order by task"
        ).fetchall()
        total = sum(n for _, n in rejected)
        print(f"\nrejected_annotations: {total} row(s) rejected" + (
            " (" + ", ".join(f"{t}: {n}" for t, n in rejected) + "); see the rejected_annotations mart"
            if rejected else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
