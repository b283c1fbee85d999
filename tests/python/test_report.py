"""The HTML report (`make report`, scripts/report.py), checked as a reader sees it.

On the sample build (the session's `builds` fixture, conftest.py) the script writes the report into
a temp folder, and then:

* every table of the report is parsed (html.parser) and each value compared, row by row, with its
  mart read from the database: every row of the mart (or of the slice the table says it shows) is
  there, once, with each column to the displayed precision (3 decimals, "–" for null); the tables
  together cover every mart the report promises; the quarantine's counts equal the rows of
  rejected_annotations counted by task and by reason code;
* every chart (inline SVG) parses as XML and has marks, each with a tooltip; the headline and
  agreement charts have one point per value of their marts;
* the file needs nothing from the network (no script, stylesheet, image or external link) and is
  under 2 MB;
* a database with hostile texts, missing marts, an empty mart and a run comparison of the wrong
  shape gives notes, not a crash, and shows every text escaped;
* the run comparison (until the marts run_comparison and run_comparison_queries are built, a
  hand-made pair of tables of their schema over the sample's runs): every row of run_comparison in
  a table, one point per measure in the forest plot of the overall slice, hollow exactly when not
  significant after Holm, and the regression list as the losses with the smallest differences;
* a headless Chromium opens the file: its screenshot is not blank, and the DOM it renders has every
  section heading (marked `browser`; skipped when `chromium` is not installed: `make test` installs
  it, Makefile target .venv/bin/.chromium-installed).
"""

from __future__ import annotations

import datetime
import json
import math
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest

PROJECT = Path(__file__).resolve().parent.parent.parent
SCRIPT = PROJECT / "scripts" / "report.py"
NULL = "–"
MAX_BYTES = 2 * 1024 * 1024
SECTIONS = ["Headline metrics", "Retrieval measures against K", "Slices", "Annotator agreement", "Pairwise kappas",
            "Labeling protocol", "Drift timeline", "Judge calibration", "Judge bias", "Quarantine", "Run comparison"]
# The columns that identify a row of each mart, and the columns the report must show.
KEYS = {
    "metric_values": ("run_id", "family", "metric", "k", "slice_dimension", "slice_value"),
    "retrieval_metrics": ("run_id", "k"),
    "annotator_agreement": ("task", "label", "tier"),
    "annotator_pair_agreement": ("task", "label", "annotator_a", "annotator_b"),
    "labeling_protocol": ("task", "tier"),
    "labeling_drift": ("task", "week_start"),
    "judge_agreement": ("annotator_id", "task", "label", "tier"),
    "judge_weights": ("annotator_id", "task"),
    "judge_metric_values": ("run_id", "annotator_id", "family", "metric", "k"),
    "run_comparison": ("baseline_run_id", "candidate_run_id", "family", "metric", "k", "slice_dimension", "slice_value"),
    "run_comparison_queries": ("baseline_run_id", "candidate_run_id", "family", "metric", "k", "pairing_key"),
}
SHOWN = {
    "metric_values": ("value", "ci_lower", "ci_upper", "n_units"),
    "retrieval_metrics": ("n_queries", "n_pending_adjudication", "ndcg_at_k", "mrr_at_k"),
    "annotator_agreement": ("krippendorff_alpha", "alpha_ci_lower", "alpha_ci_upper", "gwet_ac1", "ac1_ci_lower",
                            "ac1_ci_upper", "alpha_target", "meets_target", "p_alpha_below_target"),
    "annotator_pair_agreement": ("cohen_kappa", "kappa_ci_lower", "kappa_ci_upper", "n_shared_units"),
    "labeling_protocol": ("share_of_records", "target_share_of_records", "dual_annotation_rate", "spot_check_rate_target",
                          "labeling_cost", "min_krippendorff_alpha", "alpha_target"),
    "labeling_drift": ("iso_week", "disagreement_rate", "drift_threshold", "is_drift_alert"),
    "judge_agreement": ("cohen_kappa", "kappa_ci_lower", "kappa_ci_upper", "f1"),
    "judge_weights": ("weight", "gold_kappa", "min_kappa", "is_within_bounds"),
    "judge_metric_values": ("judge_value", "human_value", "difference"),
    "run_comparison": ("n_pairs", "baseline_value", "candidate_value", "difference", "difference_ci_lower",
                       "difference_ci_upper", "p_value", "p_value_holm", "is_significant", "n_losses"),
    "run_comparison_queries": ("query_text", "baseline_value", "candidate_value", "difference", "outcome",
                               "baseline_record_uuids", "candidate_record_uuids"),
}
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# the tests that need a Chromium (marker registered in pytest.ini)
browser = pytest.mark.browser


# ----------------------------------------------------------------------------- reading the HTML


@dataclass
class Table:
    attrs: dict
    caption: str = ""
    head: list[list[tuple[str, int]]] = field(default_factory=list)   # header rows: (text, colspan)
    rows: list[list[str]] = field(default_factory=list)
    section: str = ""

    @property
    def mart(self) -> str:
        return self.attrs.get("data-mart", "")

    @property
    def where(self) -> dict:
        return json.loads(self.attrs.get("data-where") or "{}")

    def records(self) -> list[dict]:
        """The body rows as {column: shown text}; a table with a group column (a header row over
        groups of columns) gives one record per row and group, with the group in that column."""
        names = [text for text, span in self.head[-1] for _ in range(span)]
        group_column = self.attrs.get("data-group-column")
        if not group_column:
            assert len(set(names)) == len(names), f"{self.attrs.get('id')}: a column shown twice: {names}"
            return [dict(zip(names, row, strict=True)) for row in self.rows]
        groups = [text for text, span in self.head[0] for _ in range(span)]
        out = []
        for row in self.rows:
            keys = {n: v for g, n, v in zip(groups, names, row, strict=True) if not g}
            by_group: dict[str, dict] = {}
            for g, n, v in zip(groups, names, row, strict=True):
                if g:
                    by_group.setdefault(g, {})[n] = v
            for group, values in by_group.items():
                if any(v != "" for v in values.values()):
                    out.append({**keys, group_column: group, **values})
        return out


class ReportParser(HTMLParser):
    """The tables, the section headings and ids, and the "Source:" lines of the report."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables: list[Table] = []
        self.sections: list[dict] = []
        self.tags: list[str] = []
        self._table: Table | None = None
        self._row: list | None = None
        self._cell: list[str] | None = None
        self._span = 1
        self._text: list[str] | None = None
        self._in_head = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if tag == "section":
            self.sections.append({"id": attrs.get("id"), "title": "", "source": ""})
        elif tag == "table":
            self._table = Table(attrs, section=self.sections[-1]["id"] if self.sections else "")
        elif tag == "thead":
            self._in_head = True
        elif tag == "tbody":
            self._in_head = False
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell, self._span = [], int(attrs.get("colspan", 1))
        elif tag in ("caption", "h2") or (tag == "p" and attrs.get("class") == "source" and self.sections):
            self._text = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell).strip()
            self._row.append((text, self._span) if self._in_head else text)
            self._cell = None
        elif tag == "tr" and self._row is not None:
            (self._table.head if self._in_head else self._table.rows).append(self._row)
            self._row = None
        elif tag == "table" and self._table is not None:
            self.tables.append(self._table)
            self._table = None
        elif self._text is not None and tag in ("caption", "h2", "p"):
            text = "".join(self._text).strip()
            if tag == "caption":
                self._table.caption = text
            elif tag == "h2":
                self.sections[-1]["title"] = text
            else:
                self.sections[-1]["source"] = text
            self._text = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._text is not None:
            self._text.append(data)


def parse(page: str) -> ReportParser:
    parser = ReportParser()
    parser.feed(page)
    parser.close()
    return parser


def svgs(page: str) -> list[ET.Element]:
    return [ET.fromstring(chunk) for chunk in re.findall(r"<svg\b.*?</svg>", page, flags=re.S)]


def section_html(page: str, anchor: str) -> str:
    found = re.search(rf'<section id="{re.escape(anchor)}">.*?</section>', page, flags=re.S)
    assert found, f"no section {anchor}"
    return found.group(0)


# ----------------------------------------------------------------------------- comparing values


def shows(text: str, value: object) -> bool:
    """Does the shown `text` stand for the database's `value` (3 decimals for floats, "–" for null)?"""
    if value is None or isinstance(value, float) and math.isnan(value):
        return text == NULL
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, int):
        return text == str(value)
    if isinstance(value, float):
        return bool(re.fullmatch(r"-?\d+\.\d{3}", text)) and abs(float(text) - value) <= 0.0005 + 1e-9
    if isinstance(value, (datetime.date, datetime.datetime)):
        return text == value.isoformat()
    return text == str(value)


def key_text(value: object) -> str:
    return NULL if value is None else value.isoformat() if isinstance(value, datetime.date) else str(value)


def mart_rows(con, mart: str, where: dict) -> list[dict]:
    sql = f'select * from "{mart}"'
    if where:
        sql += " where " + " and ".join(f'cast("{column}" as varchar) = ?' for column in where)
    cursor = con.execute(sql, list(where.values()))
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]


def compare(table: Table, rows: list[dict]) -> None:
    """Every row of `rows` is shown once in `table`, with every shown column equal to the mart's; a
    table with data-limit shows the `limit` rows with the smallest differences, in that order."""
    name = f"table {table.attrs.get('id')} ({table.mart}, {table.where})"
    shown = table.records()
    assert shown, f"{name} is empty"
    limit = int(table.attrs["data-limit"]) if table.attrs.get("data-limit") else None
    if limit is not None:
        assert table.attrs.get("data-order") == "difference", name
        assert len(shown) == min(limit, len(rows)), f"{name}: {len(shown)} rows shown of {len(rows)}, limit {limit}"
        values = [float(record["difference"]) for record in shown]
        assert values == sorted(values), f"{name} is not sorted by difference"
    columns = set(shown[0])
    # the key columns the table shows or filters on (they must still tell the mart's rows apart)
    keys = tuple(k for k in KEYS[table.mart] if k in columns or k in table.where)
    unknown = columns - set(rows[0]) if rows else set()
    assert not unknown, f"{name} shows columns its mart has not: {unknown}"
    missing = set(SHOWN[table.mart]) - columns
    assert not missing, f"{name} does not show {missing}"
    expected = {tuple(key_text(row[k]) for k in keys): row for row in rows}
    assert len(expected) == len(rows), f"{name}: the key {keys} is not unique in the mart"
    seen = set()
    for record in shown:
        record = {**{k: str(v) for k, v in table.where.items()}, **record}
        key = tuple(record[k] for k in keys)
        assert key in expected, f"{name} shows a row the mart has not: {key}"
        assert key not in seen, f"{name} shows the row {key} twice"
        seen.add(key)
        for column, text in record.items():
            assert shows(text, expected[key][column]), \
                f"{name}, row {key}, {column}: shows {text!r}, the mart holds {expected[key][column]!r}"
    if limit is None:
        assert seen == set(expected), f"{name} lacks the rows {sorted(set(expected) - seen)[:5]}"
    else:   # the rows left out have no smaller difference than any row shown
        largest = max(expected[key]["difference"] for key in seen)
        assert all(expected[key]["difference"] >= largest for key in set(expected) - seen), \
            f"{name} leaves out a row with a smaller difference than {largest}"


def comparison_tables(con) -> list[tuple[str, str]]:
    """The (mart, where) of the run comparison's tables the report must have for the database: one
    per compared pair and slice dimension of run_comparison, and the regression list per pair."""
    tables = {name for (name,) in con.execute("select table_name from information_schema.tables").fetchall()}
    out = []
    if "run_comparison" in tables:
        out += [("run_comparison", json.dumps({"baseline_run_id": b, "candidate_run_id": c, "slice_dimension": d},
                                              sort_keys=True)) for b, c, d in con.execute(
            "select distinct baseline_run_id, candidate_run_id, slice_dimension from run_comparison").fetchall()]
    if "run_comparison_queries" in tables:
        out += [("run_comparison_queries", json.dumps({"baseline_run_id": b, "candidate_run_id": c, "outcome": "loss"},
                                                      sort_keys=True)) for b, c in con.execute(
            "select distinct baseline_run_id, candidate_run_id from run_comparison_queries where outcome = 'loss'").fetchall()]
    return out


# ----------------------------------------------------------------------------- fixtures


def run_report(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


SCENARIOS_USED = ["sample"]


@pytest.fixture(scope="module")
def sample_db(builds) -> Path:
    """The sample's database (the session's full `dbt build` of the project's seeds)."""
    return builds.get("sample").check().db_path


@pytest.fixture(scope="module")
def report(sample_db, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "nested" / "report.html"
    result = run_report("--database", str(sample_db), "--out", str(out))
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    return {"path": out, "html": page, "parsed": parse(page), "stdout": result.stdout, "database": sample_db}


@pytest.fixture(scope="module")
def con(sample_db):
    connection = duckdb.connect(str(sample_db), read_only=True)
    yield connection
    connection.close()


# ----------------------------------------------------------------------------- tests


def test_help_and_errors(tmp_path):
    result = run_report("--help")
    assert result.returncode == 0 and "--database" in result.stdout and "--out" in result.stdout
    missing = run_report("--database", str(tmp_path / "none.duckdb"), "--out", str(tmp_path / "r.html"))
    assert missing.returncode == 2 and "error: the database does not exist" in missing.stderr
    assert not (tmp_path / "r.html").exists()


def test_relative_out_is_taken_from_relative_to(sample_db, tmp_path):
    result = run_report("--database", str(sample_db), "--out", "sub/r.html", "--relative-to", str(tmp_path), cwd=PROJECT)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sub" / "r.html").is_file()
    assert str(tmp_path / "sub" / "r.html") in result.stdout


def test_every_number_equals_its_mart(report, con):
    tables = report["parsed"].tables
    by_mart = [t for t in tables if t.mart in KEYS]
    for table in by_mart:
        compare(table, mart_rows(con, table.mart, table.where))
    # the tables together cover every mart and every slice
    shown = sorted((t.mart, json.dumps(t.where, sort_keys=True)) for t in by_mart)
    families = [f for (f,) in con.execute("select distinct family from metric_values"
                                          " where slice_dimension = 'overall'").fetchall()]
    dimensions = [d for (d,) in con.execute("select distinct slice_dimension from metric_values"
                                            " where slice_dimension <> 'overall'").fetchall()]
    expected = [("metric_values", json.dumps({"slice_dimension": "overall", "family": f}, sort_keys=True)) for f in families]
    expected += [("metric_values", json.dumps({"slice_dimension": d}, sort_keys=True)) for d in dimensions]
    expected += [(mart, "{}") for mart in KEYS if mart not in ("metric_values", "run_comparison",
                                                                "run_comparison_queries")]
    expected += comparison_tables(con)
    assert shown == sorted(expected)
    # no table the test does not check
    assert {t.attrs.get("id") for t in tables} - {t.attrs.get("id") for t in by_mart} == {"quarantine-by-task",
                                                                                         "quarantine-by-reason"}


def test_quarantine_counts_equal_rejected_annotations(report, con):
    tables = {t.attrs["id"]: t for t in report["parsed"].tables}
    by_task, by_reason = {}, {}
    for task, reasons in con.execute("select task, reasons from rejected_annotations").fetchall():
        by_task[task] = by_task.get(task, 0) + 1
        for code in reasons.split(";"):
            by_reason[(task, code)] = by_reason.get((task, code), 0) + 1
    assert by_task, "the sample has rejected rows"
    assert {r["task"]: int(r["n_rows"]) for r in tables["quarantine-by-task"].records()} == by_task
    shown = tables["quarantine-by-reason"].records()
    assert {(r["task"], r["reason"]): int(r["n_rows"]) for r in shown} == by_reason
    assert len(shown) == len(by_reason)


def test_sections_name_their_source(report):
    sections = report["parsed"].sections
    assert [s["title"] for s in sections] == SECTIONS
    for section in sections:
        assert section["source"].startswith("Source: "), section
    sources = {s["title"]: s["source"] for s in sections}
    assert sources["Headline metrics"] == "Source: metric_values"
    assert sources["Pairwise kappas"] == "Source: annotator_pair_agreement"
    assert sources["Quarantine"] == "Source: rejected_annotations"
    for table in report["parsed"].tables:
        assert table.mart in next(s["source"] for s in sections if s["id"] == table.section), table.attrs
    # without the run comparison's marts one sentence says so
    tables = {name for (name,) in duckdb.connect(str(report["database"]), read_only=True).execute(
        "select table_name from information_schema.tables").fetchall()}
    if not {"run_comparison", "run_comparison_queries"} & tables:
        assert "are not in this database: no run comparison to show." in section_html(report["html"], "runs")


def test_charts_parse_and_have_marks(report, con):
    charts = svgs(report["html"])
    assert len(charts) >= 20
    for chart in charts:
        marks = chart.findall(".//g[@class='mark']")
        assert marks, f"a chart without marks: {chart.get('aria-label')}"
        for item in marks:
            title = item.find("title")
            assert title is not None and title.text and title.text.strip(), chart.get("aria-label")
        shapes = [e for e in chart.iter() if e.tag in ("circle", "rect", "line", "polyline")]
        assert shapes, chart.get("aria-label")
    # one point per value: the headline metrics, and alpha and AC1 per task, label and tier
    headline = svgs(section_html(report["html"], "headline"))
    points = sum(len(c.findall(".//circle[@class='point']")) for c in headline)
    assert points == con.execute("select count(value) from metric_values where slice_dimension = 'overall'").fetchone()[0]
    agreement = svgs(section_html(report["html"], "agreement"))
    points = sum(len(c.findall(".//circle[@class='point']")) for c in agreement)
    assert points == con.execute("select count(krippendorff_alpha) + count(gwet_ac1) from annotator_agreement").fetchone()[0]
    # the pair heat maps: a cell on each side of the diagonal per pair
    pairs = svgs(section_html(report["html"], "pair-kappas"))
    cells = sum(len(c.findall(".//rect[@class='cell']")) for c in pairs)
    assert cells == 2 * con.execute("select count(*) from annotator_pair_agreement").fetchone()[0]


def test_self_contained_and_small(report):
    page = report["html"]
    assert len(page.encode("utf-8")) < MAX_BYTES
    lowered = page.lower()
    for needle in ("<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "url(", "src=", "http:", "https:"):
        assert needle not in lowered, needle
    assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', page))


def test_missing_empty_and_hostile_marts(sample_db, tmp_path):
    hostile = '<script>alert("x")</script> & ü'
    database = tmp_path / "hostile.duckdb"
    with duckdb.connect(str(database)) as connection:
        connection.execute(f"attach '{sample_db}' as sample (read_only)")
        connection.execute("create table metric_values as select * from sample.metric_values")
        connection.execute("update metric_values set slice_value = ? where slice_value = 'de'", [hostile])
        connection.execute("create table annotator_pair_agreement as select * from sample.annotator_pair_agreement")
        connection.execute("update annotator_pair_agreement set annotator_a = '<b>bold</b>' where annotator_a = 'a.schaefer'")
        connection.execute("create table rejected_annotations as select task, reasons from sample.rejected_annotations")
        connection.execute("update rejected_annotations set reasons = '<img src=x onerror=alert(1)>;wrong_task'"
                           " where reasons = 'wrong_task'")
        connection.execute("create table judge_weights as select * from sample.judge_weights where false")
        # a run comparison of another shape (an older ragmart): a note, nothing else
        connection.execute("create table run_comparison as select 1 as run_id, 'a<b' as run_name")
    out = tmp_path / "report.html"
    result = run_report("--database", str(database), "--out", str(out))
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    for raw in ("<script", "<b>", "<img", "a<b"):
        assert raw not in page
    parsed = parse(page)
    texts = {cell for t in parsed.tables for row in t.rows for cell in row} | {
        text for t in parsed.tables for row in t.head for text, _ in row}
    assert {hostile, "<b>bold</b>", "<img src=x onerror=alert(1)>"} <= texts
    for chart in svgs(page):   # still well-formed, the hostile texts included
        assert chart.findall(".//g[@class='mark']")
    assert "The mart annotator_agreement is not in this database" in section_html(page, "agreement")
    assert "The mart labeling_drift is not in this database" in section_html(page, "drift")
    assert "The mart judge_weights has no rows" in section_html(page, "judge-calibration")
    assert "The mart run_comparison lacks the columns baseline_run_id" in section_html(page, "runs")
    assert "The mart run_comparison_queries is not in this database" in section_html(page, "runs")
    assert not [t for t in parsed.tables if t.mart == "run_comparison"]
    assert [s["title"] for s in parsed.sections] == SECTIONS


def test_run_comparison_section(sample_db, tmp_path):
    """The run comparison on a hand-made pair of tables of the marts' schema (README, "Evaluation
    runs"; the marts themselves are built by another change): its numbers are the sample's metric
    values of every run against the first run in byte order, its regression list has more losses
    than the report shows and a hostile query text."""
    database = tmp_path / "runs.duckdb"
    hostile = '<script>alert("q")</script> & "quotes"'
    with duckdb.connect(str(database)) as connection:
        connection.execute(f"attach '{sample_db}' as sample (read_only)")
        for mart in ("metric_values", "retrieval_metrics", "rejected_annotations"):
            connection.execute(f"create table {mart} as select * from sample.{mart}")
        runs = sorted((r for (r,) in connection.execute("select distinct run_id from metric_values").fetchall()),
                      key=lambda r: r.encode("utf-8"))
        assert len(runs) >= 2, "the sample has several runs"
        connection.execute("""
            create table run_comparison as
            with pairs as (
                select b.run_id as baseline_run_id, c.run_id as candidate_run_id, b.family, b.metric, b.k,
                       b.slice_dimension, b.slice_value, least(b.n_units, c.n_units) as n_pairs,
                       b.n_units - least(b.n_units, c.n_units) as n_baseline_only,
                       c.n_units - least(b.n_units, c.n_units) as n_candidate_only,
                       b.value as baseline_value, c.value as candidate_value, c.value - b.value as difference
                from metric_values as b join metric_values as c
                    on b.family = c.family and b.metric = c.metric and b.k is not distinct from c.k
                    and b.slice_dimension = c.slice_dimension and b.slice_value = c.slice_value
                where b.run_id = ? and c.run_id <> ? and b.slice_dimension in ('overall', 'language')
            )
            select *, difference - 0.05 as difference_ci_lower, difference + 0.05 as difference_ci_upper,
                   cast(n_pairs / 3 as integer) as n_wins, n_pairs - 2 * cast(n_pairs / 3 as integer) as n_ties,
                   cast(n_pairs / 3 as integer) as n_losses, 0.5 / (1 + 1000 * abs(difference)) as p_value,
                   'permutation' as p_value_method, least(1, 3 / (1 + 1000 * abs(difference))) as p_value_holm,
                   3 / (1 + 1000 * abs(difference)) < 0.05 as is_significant
            from pairs""", [runs[0], runs[0]])
        rows = []
        for i in range(70):   # 60 losses (more than the report lists), 10 wins; ties of differences included
            difference = -round((i // 2 + 1) / 100, 2) if i < 60 else 0.1
            rows.append((runs[0], runs[1], "retrieval", "ndcg" if i % 3 else "mrr", 5, f"q-{i:02d}",
                         hostile if i == 59 else f"question {i}?", f"b-{i}", f"c-{i};c-{i}x", 0.9,
                         0.9 + difference, difference, "loss" if difference < 0 else "win"))
        connection.execute("create table run_comparison_queries (baseline_run_id varchar, candidate_run_id varchar,"
                           " family varchar, metric varchar, k integer, pairing_key varchar, query_text varchar,"
                           " baseline_record_uuids varchar, candidate_record_uuids varchar, baseline_value double,"
                           " candidate_value double, difference double, outcome varchar)")
        connection.executemany("insert into run_comparison_queries values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    out = tmp_path / "report.html"
    result = run_report("--database", str(database), "--out", str(out))
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page
    parsed = parse(page)
    with duckdb.connect(str(database), read_only=True) as con:
        runs_tables = [t for t in parsed.tables if t.mart in ("run_comparison", "run_comparison_queries")]
        for table in runs_tables:
            assert table.section == "runs"
            compare(table, mart_rows(con, table.mart, table.where))
        assert sorted((t.mart, json.dumps(t.where, sort_keys=True)) for t in runs_tables) == sorted(comparison_tables(con))
        regression = next(t for t in runs_tables if t.mart == "run_comparison_queries")
        assert len(regression.records()) == 50 and hostile in {r["query_text"] for r in regression.records()}
        # the forest plot: one point per measure of the overall slice, hollow when not significant
        overall = con.execute("select count(difference), count(*) filter (where not is_significant),"
                              " count(*) filter (where is_significant) from run_comparison"
                              " where slice_dimension = 'overall'").fetchone()
    assert overall[1] and overall[2], "the hand-made comparison has significant and other measures"
    charts = svgs(section_html(page, "runs"))
    points = [c for chart in charts for c in chart.findall(".//circle[@class='point']")]
    assert len(points) == overall[0]
    assert sum(p.get("fill") == "#ffffff" for p in points) == overall[1]
    tips = [m.find("title").text for chart in charts for m in chart.findall(".//g[@class='mark']")]
    assert any("p_value_holm" in tip and "difference" in tip for tip in tips)
    # the other sections show every run side by side
    headline = next(t for t in parsed.tables if t.attrs.get("id", "").startswith("headline"))
    assert {r["run_id"] for r in headline.records()} == set(runs)


@browser
def test_chromium_shows_the_report(report, tmp_path):
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed: `make test` installs it (Makefile target .venv/bin/.chromium-installed)")
    from PIL import Image

    uri = report["path"].as_uri()
    png = tmp_path / "report.png"
    shot = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile-shot'}",
                           f"--screenshot={png}", "--window-size=1280,6000", uri],
                          capture_output=True, text=True, timeout=180)
    assert shot.returncode == 0 and png.is_file(), shot.stderr[-2000:]
    with Image.open(png) as image:
        assert image.size == (1280, 6000)
        pixels = image.convert("RGB")
        colors = pixels.getcolors(maxcolors=1 << 24)
        assert len(colors) > 500, f"a nearly blank screenshot: {len(colors)} colours"
        white = max(count for count, color in colors if color == (255, 255, 255))
        assert white < 0.97 * 1280 * 6000, "the screenshot is nearly all white"
    dom = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile-dom'}", "--dump-dom", uri],
                         capture_output=True, text=True, timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = parse(dom.stdout)
    assert [s["title"] for s in rendered.sections] == SECTIONS
    assert len(re.findall(r"<svg\b", dom.stdout)) == len(svgs(report["html"]))
