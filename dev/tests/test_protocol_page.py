"""docs/protocol.md, the labeling lead's page, is true on the sample: every ``sql`` block of the
page runs on the sample's build and gives exactly the ``text`` block that follows it.

``python dev/tests/test_protocol_page.py ragmart.duckdb`` rewrites those blocks from a build of
the sample (after a change that moves the sample's numbers), in the format this test compares.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import duckdb
import pytest

PAGE = Path(__file__).resolve().parent.parent.parent / "docs" / "protocol.md"
SCENARIOS_USED = ["sample"]
BLOCK = re.compile(r"```sql\n(?P<sql>.*?)```\n\n(?:```text\n(?P<text>.*?)```|<!-- protocol-output -->)\n", re.S)


def cell(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def table(connection, sql: str) -> str:
    """The query's rows as the page shows them: a header of column names, then one line a row,
    each column left-aligned to its widest cell, two spaces between."""
    result = connection.execute(sql)
    header = [d[0] for d in result.description]
    rows = [[cell(v) for v in row] for row in result.fetchall()]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return "".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() + "\n" for r in [header, *rows])


def blocks(page: str) -> list[re.Match]:
    return list(BLOCK.finditer(page))


def rewrite(db_path: str) -> None:
    page = PAGE.read_text(encoding="utf-8")
    with duckdb.connect(db_path, read_only=True) as connection:
        page = BLOCK.sub(lambda m: f"```sql\n{m['sql']}```\n\n```text\n{table(connection, m['sql'])}```\n", page)
    PAGE.write_text(page, encoding="utf-8")


@pytest.fixture(scope="module")
def connection(builds):
    with duckdb.connect(str(builds.get("sample").check().db_path), read_only=True) as c:
        yield c


def test_every_query_of_the_page_gives_what_the_page_shows(connection):
    found = blocks(PAGE.read_text(encoding="utf-8"))
    assert len(found) >= 9, f"{PAGE.name}: {len(found)} query blocks"
    problems = []
    for m in found:
        assert m["text"] is not None, f"{PAGE.name}: a query without its output:\n{m['sql']}"
        got = table(connection, m["sql"])
        assert got.count("\n") > 1, f"{PAGE.name}: a query that gives no row on the sample:\n{m['sql']}"
        if got != m["text"]:
            problems.append(f"{m['sql']}page:\n{m['text']}sample:\n{got}")
    assert not problems, "\n".join(problems) + "\n(python dev/tests/test_protocol_page.py <db> rewrites them)"


if __name__ == "__main__":
    rewrite(sys.argv[1])
