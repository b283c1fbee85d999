"""The HTML report (`make report`, scripts/report.py), checked as a reader sees it.

On the sample build (the session's `builds` fixture, conftest.py) the script writes the report into
a temp folder, and then:

* the report opens with the verdict, the first section: per compared pair of runs it names every
  measure of run_comparison (slice overall) significant after Holm, under better or worse as the
  test works it out itself from the sign of difference and its own list of the six measures where
  lower is better, each sentence with the numbers of the table beside it; the rejected rows per
  export; the headline metrics at one K; a link to every other section;

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
  significant after Holm (filled in the colour of its verdict otherwise), and the regression list as
  the losses (the candidate worse in the measure's direction), worst first per measure, with the
  query text and both runs' records;
* a headless Chromium opens the file: its screenshot is not blank, and the DOM it renders has every
  section heading; at 1400 px wide the verdict is the first section and ends within the first
  screen (900 px); at 1400 and 1920 px no two legends overlap, each within its chart (measured with
  getBoundingClientRect in a copy of the report with a measuring script: the report itself has
  none) (marked `browser`; skipped when `chromium` is not installed: `make test` installs it,
  Makefile target .venv/bin/.chromium-installed).
"""

from __future__ import annotations

import csv
import datetime
import html
import itertools
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
SECTIONS = ["Verdict", "Headline metrics", "Retrieval measures against K", "Slices", "Annotator agreement", "Pairwise kappas",
            "Labeling protocol", "Drift timeline", "Judge calibration", "Judge bias", "Judge-powered metrics", "Quarantine",
            "Run comparison"]
# The columns that identify a row of each mart, and the columns the report must show.
KEYS = {
    "metric_values": ("run_id", "family", "metric", "k", "slice_dimension", "slice_value"),
    "retrieval_metrics": ("run_id", "k"),
    "annotator_agreement": ("task", "label", "tier", "slice_dimension", "slice_value"),
    "annotator_pair_agreement": ("task", "label", "annotator_a", "annotator_b", "slice_dimension", "slice_value"),
    "labeling_protocol": ("task", "tier", "slice_dimension", "slice_value"),
    "labeling_drift": ("task", "week_start"),
    "judge_agreement": ("annotator_id", "task", "label", "tier", "slice_dimension", "slice_value"),
    "judge_weights": ("annotator_id", "task"),
    "judge_metric_values": ("run_id", "annotator_id", "family", "metric", "k"),
    "judge_powered_metric_values": ("run_id", "annotator_id", "family", "metric", "k", "slice_dimension", "slice_value"),
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
                          "labeling_cost", "min_krippendorff_alpha", "alpha_target", "n_gold_cases",
                          "gold_target_cases", "n_gold_cases_needed", "n_high_stakes_cases", "gold_target_high_stakes",
                          "n_high_stakes_cases_needed", "cost_per_case", "target_cost_per_case"),
    "labeling_drift": ("iso_week", "disagreement_rate", "drift_threshold", "is_drift_alert"),
    "judge_agreement": ("cohen_kappa", "kappa_ci_lower", "kappa_ci_upper", "f1"),
    "judge_weights": ("weight", "gold_kappa", "min_kappa", "is_within_bounds"),
    "judge_metric_values": ("judge_value", "human_value", "difference"),
    "judge_powered_metric_values": ("n_labeled", "n_unlabeled", "human_value", "human_ci_lower", "human_ci_upper",
                                    "judge_value", "judge_ci_lower", "judge_ci_upper", "ppi_value", "ppi_ci_lower",
                                    "ppi_ci_upper", "lambda", "effective_n"),
    "run_comparison": ("n_pairs", "baseline_value", "candidate_value", "difference", "difference_ci_lower",
                       "difference_ci_upper", "higher_is_better", "p_value", "p_value_holm", "is_significant",
                       "n_wins", "n_losses", "adjusted_ci_lower", "adjusted_ci_upper", "baseline_source"),
    "run_comparison_queries": ("query_text", "baseline_value", "candidate_value", "difference", "outcome",
                               "baseline_record_uuids", "candidate_record_uuids"),
}
# The compact tables of the verdict show fewer columns.
SHOWN_IN_VERDICT = {
    "run_comparison": ("metric", "k", "higher_is_better", "difference", "adjusted_ci_lower", "adjusted_ci_upper",
                       "p_value_holm"),
    "metric_values": ("metric", "k", "value", "ci_lower", "ci_upper"),
}
# The measures where a lower value is the better system (docs/rules.md, "Run comparison"), written
# out here so that the test does not take the direction from the report or the mart.
LOWER_IS_BETTER = {"misleading_context_rate", "unsupported_claim_rate", "contradiction_rate",
                   "conditional_fabrication_rate", "incompleteness_rate", "unsafe_content_rate"}
HEADLINE_K = 5          # the verdict's K for retrieval (the largest K when there is no 5)
REGRESSION_ROWS = 20    # the regression list's rows per measure, at most
SCREEN = (1400, 900)    # the first screen the verdict must fit in
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
    """The rows of `mart` that `where` selects: column = value, or for a list any of its values (None: null)."""
    sql, parameters, conditions = f'select * from "{mart}"', [], []
    for column, value in where.items():
        if isinstance(value, list):
            options = [v for v in value if v is not None]
            parts = ([f'cast("{column}" as varchar) in ({", ".join("?" * len(options))})'] if options else []) + \
                ([f'"{column}" is null'] if None in value else [])
            conditions.append("(" + " or ".join(parts) + ")")
            parameters += [str(v) for v in options]
        else:
            conditions.append(f'cast("{column}" as varchar) = ?')
            parameters.append(value)
    if conditions:
        sql += " where " + " and ".join(conditions)
    cursor = con.execute(sql, parameters)
    columns = [d[0] for d in cursor.description]
    return [dict(zip(columns, row)) for row in cursor.fetchall()]


def measure_groups(records: list[dict], columns: list[str]) -> list[tuple[tuple, list[dict]]]:
    """The records in runs of equal `columns` values, in the order shown."""
    return [(key, list(group)) for key, group in itertools.groupby(records, key=lambda r: tuple(r[c] for c in columns))]


def compare(table: Table, rows: list[dict]) -> None:
    """Every row of `rows` is shown once in `table`, with every shown column equal to the mart's; a
    table with data-order "abs(difference) desc" shows the rows of each value of its data-limit-per
    columns together, the largest abs(difference) first, and with data-limit only the first `limit`
    of each (none left out with a larger abs(difference) than one shown)."""
    name = f"table {table.attrs.get('id')} ({table.mart}, {table.where})"
    shown = table.records()
    assert shown, f"{name} is empty"
    limit = int(table.attrs["data-limit"]) if table.attrs.get("data-limit") else None
    per = [c for c in table.attrs.get("data-limit-per", "").split(",") if c]
    if table.attrs.get("data-order"):
        assert table.attrs["data-order"] == "abs(difference) desc", name
        groups = measure_groups(shown, per)
        assert len(groups) == len({key for key, _ in groups}), f"{name}: the rows of one {per} are not together"
        for key, members in groups:
            values = [abs(float(record["difference"])) for record in members]
            assert values == sorted(values, reverse=True), f"{name}: {key} is not sorted worst first"
    columns = set(shown[0])
    # the key columns the table shows or filters on (they must still tell the mart's rows apart)
    keys = tuple(k for k in KEYS[table.mart] if k in columns or k in table.where)
    unknown = columns - set(rows[0]) if rows else set()
    assert not unknown, f"{name} shows columns its mart has not: {unknown}"
    missing = set((SHOWN_IN_VERDICT if table.section == "verdict" else SHOWN)[table.mart]) - columns
    assert not missing, f"{name} does not show {missing}"
    expected = {tuple(key_text(row[k]) for k in keys): row for row in rows}
    assert len(expected) == len(rows), f"{name}: the key {keys} is not unique in the mart"
    seen = set()
    for record in shown:
        record = {**{k: str(v) for k, v in table.where.items() if not isinstance(v, list)}, **record}
        key = tuple(record[k] for k in keys)
        assert key in expected, f"{name} shows a row the mart has not: {key}"
        assert key not in seen, f"{name} shows the row {key} twice"
        seen.add(key)
        for column, text in record.items():
            assert shows(text, expected[key][column]), \
                f"{name}, row {key}, {column}: shows {text!r}, the mart holds {expected[key][column]!r}"
    if limit is None:
        assert seen == set(expected), f"{name} lacks the rows {sorted(set(expected) - seen)[:5]}"
        return
    assert per, f"{name}: data-limit without data-limit-per"
    by_group: dict[tuple, list] = {}
    for key, row in expected.items():
        by_group.setdefault(tuple(key_text(row[c]) for c in per), []).append(key)
    for group, members in by_group.items():
        kept = [key for key in members if key in seen]
        assert len(kept) == min(limit, len(members)), f"{name}, {group}: {len(kept)} rows shown of {len(members)}"
        smallest = min(abs(expected[key]["difference"]) for key in kept)
        assert all(abs(expected[key]["difference"]) <= smallest for key in members if key not in seen), \
            f"{name}, {group}: leaves out a row worse than {smallest}"


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


def headline_k(con) -> int | None:
    ks = {k for (k,) in con.execute("select distinct k from metric_values where k is not null").fetchall()}
    return HEADLINE_K if HEADLINE_K in ks else max(ks, default=None)


def verdict_tables(con) -> list[tuple[str, str]]:
    """The (mart, where) of the verdict's tables: the significant measures of each compared pair (slice
    overall; a pair with none has no table), and the headline metrics at the verdict's K."""
    out = [("run_comparison", json.dumps({"baseline_run_id": b, "candidate_run_id": c, "slice_dimension": "overall",
                                          "is_significant": "true"}, sort_keys=True)) for b, c in con.execute(
        "select distinct baseline_run_id, candidate_run_id from run_comparison"
        " where slice_dimension = 'overall' and is_significant").fetchall()]
    k = headline_k(con)
    where = {"slice_dimension": "overall"} | ({"k": [k, None]} if k is not None else {})
    return out + [("metric_values", json.dumps(where, sort_keys=True))]


def expected_verdicts(con) -> dict[tuple[str, str], dict[str, str]]:
    """Per compared pair, each measure (metric@k) significant after Holm, slice overall: `better` or
    `worse` for the candidate, from the sign of difference and LOWER_IS_BETTER (not from the mart's
    higher_is_better, which is checked against that list)."""
    out: dict[tuple[str, str], dict[str, str]] = {}
    for b, c, metric, k, difference, higher_is_better, significant in con.execute(
            "select baseline_run_id, candidate_run_id, metric, k, difference, higher_is_better, is_significant"
            " from run_comparison where slice_dimension = 'overall'").fetchall():
        assert higher_is_better == (metric not in LOWER_IS_BETTER), (metric, higher_is_better)
        measures = out.setdefault((b, c), {})
        if significant:
            lower_is_better = metric in LOWER_IS_BETTER
            measures[metric if k is None else f"{metric}@{k}"] = \
                "better" if (difference < 0 if lower_is_better else difference > 0) else "worse"
    return out


class VerdictParser(HTMLParser):
    """The verdict's sentences per compared pair, the rejected rows per export and the links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pairs: dict[tuple[str, str], list[dict]] = {}
        self.quarantine: list[dict] = []
        self.links: list[str] = []
        self._pair: tuple[str, str] | None = None
        self._item: dict | None = None
        self._in_quarantine = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "div" and attrs.get("class") == "verdict-pair":
            self._pair = (attrs["data-baseline"], attrs["data-candidate"])
            self.pairs[self._pair] = []
        elif tag == "ul" and attrs.get("class") == "quarantine":
            self._in_quarantine = True
        elif tag == "li":
            self._item = {"class": attrs.get("class"), "measure": attrs.get("data-measure"),
                          "task": attrs.get("data-task"), "text": ""}
        elif tag == "a":
            self.links.append(attrs.get("href", ""))

    def handle_endtag(self, tag):
        if tag == "li" and self._item is not None:
            if self._in_quarantine:
                self.quarantine.append(self._item)
            elif self._pair is not None:
                self.pairs[self._pair].append(self._item)
            self._item = None
        elif tag == "ul":
            self._in_quarantine = False

    def handle_data(self, data):
        if self._item is not None:
            self._item["text"] += data


def verdict_of(page: str) -> VerdictParser:
    parser = VerdictParser()
    parser.feed(section_html(page, "verdict"))
    parser.close()
    return parser


def check_verdict(page: str, con) -> dict[tuple[str, str], dict[str, str]]:
    """The verdict names every significant measure of every compared pair under better or worse as
    expected_verdicts says, and nothing else; each sentence's numbers are its row of the table beside
    it. Returns the expected verdicts."""
    expected = expected_verdicts(con)
    verdict = verdict_of(page)
    assert set(verdict.pairs) == set(expected)
    tables = {(t.where.get("baseline_run_id"), t.where.get("candidate_run_id")): t for t in parse(page).tables
              if t.section == "verdict" and t.mart == "run_comparison"}
    for pair, measures in expected.items():
        items = verdict.pairs[pair]
        named = {item["measure"]: item["class"] for item in items if item["measure"]}
        assert named == measures, f"{pair}: the verdict names {named}, the mart's significant measures are {measures}"
        baseline, candidate = pair
        if not measures:
            assert [item["class"] for item in items] == ["none"], items
            assert "No measure differs significantly after Holm" in items[0]["text"], items
            assert pair not in tables, "a table of significant measures where there is none"
            continue
        rows = {(r["metric"] if r["k"] == NULL else f"{r['metric']}@{r['k']}"): r for r in tables[pair].records()}
        assert set(rows) == set(measures)
        for verdict_kind in ("better", "worse"):
            if verdict_kind not in measures.values():   # said in so many words
                assert any(item["class"] == "none" and f"significantly {verdict_kind} on no measure" in item["text"]
                           for item in items), items
        for item in items:
            if not item["measure"]:
                continue
            row, metric = rows[item["measure"]], item["measure"].split("@")[0]
            sentence = (f"{candidate} is {item['class']} than {baseline} on {item['measure']}: "
                        f"{'+' if float(row['difference']) > 0 else ''}{row['difference']} "
                        f"[{row['adjusted_ci_lower']}, {row['adjusted_ci_upper']}] adjusted, p_holm {row['p_value_holm']}"
                        + (" (lower is better)" if metric in LOWER_IS_BETTER else ""))
            assert item["text"].replace("−", "-") == sentence, (item["text"], sentence)
    # each pair says its baseline and how it was chosen, and that the intervals beside the verdict
    # are adjusted for the m measures with a p-value of its slice overall (Holm's family)
    verdict_html = section_html(page, "verdict")
    for baseline, candidate, source, m in con.execute(
            "select baseline_run_id, candidate_run_id, any_value(baseline_source), count(p_value) from run_comparison"
            " where slice_dimension = 'overall' group by all").fetchall():
        block = verdict_html.split(f'data-baseline="{html.escape(baseline)}" data-candidate="{html.escape(candidate)}"')[1]
        block = block.split('class="verdict-pair"')[0]
        assert f'<p class="baseline" data-source="{source}">Baseline {html.escape(baseline)}: ' in block, block[:600]
        assert f"Intervals adjusted for the {m} measures of the comparison" in block, block[:1500]
    return expected


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
    # the agreement marts: their overall rows, the task types and languages of annotator_agreement
    # (tier all) and the task types of labeling_protocol
    sliced = {"annotator_agreement": [{"slice_dimension": "overall"},
                                      {"tier": "all", "slice_dimension": ["language", "task_type"]}],
              "annotator_pair_agreement": [{"slice_dimension": "overall"}],
              "labeling_protocol": [{"slice_dimension": "overall"}, {"slice_dimension": "task_type"}],
              "judge_agreement": [{"slice_dimension": "overall"}]}
    expected += [(mart, json.dumps(where, sort_keys=True)) for mart, wheres in sliced.items() for where in wheres]
    expected += [(mart, "{}") for mart in KEYS if mart not in ("metric_values", "run_comparison",
                                                                "run_comparison_queries", "judge_powered_metric_values",
                                                                *sliced)]
    expected += [("judge_powered_metric_values", json.dumps({"slice_dimension": "overall", "k": [HEADLINE_K, None]},
                                                            sort_keys=True))]
    expected += comparison_tables(con) + verdict_tables(con)
    assert shown == sorted(expected)
    # no table the test does not check (the quarantine's: test_quarantine_counts_equal_rejected_annotations)
    assert {t.attrs.get("id") for t in tables} - {t.attrs.get("id") for t in by_mart} == {
        "quarantine-by-task", "quarantine-by-reason", "verdict-quarantine", "quarantine-exports"}


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
    # the verdict: the share of each export rejected, in a sentence and in its table; the rows of
    # each input counted here from the seed files (an export's exact copies count once)
    # (and the exact copies left out and all-blank rows skipped; the records input has neither: a
    # repeated records row is superseded)
    n_rows, copies_expected = {}, {}
    for task, seed in (("retrieval", "retrieval_annotations"), ("grounding", "grounding_annotations"),
                       ("generation", "generation_annotations"), ("records", "records")):
        with open(PROJECT / "seeds" / f"{seed}.csv", newline="", encoding="utf-8-sig") as fh:
            rows = [tuple((v or "").strip() for v in row.values()) for row in csv.DictReader(fh)]
        n_rows[task] = len(rows) if task == "records" else len(set(rows))
        filled = [row for row in rows if any(row)]
        copies_expected[task] = (0, 0) if task == "records" else (len(filled) - len(set(filled)), len(rows) - len(filled))
    shown = {r["task"]: r for r in tables["verdict-quarantine"].records()}
    assert {t: (int(r["n_rows"]), int(r["n_rejected"])) for t, r in shown.items()} == {
        t: (n, by_task.get(t, 0)) for t, n in n_rows.items()}
    for task, r in shown.items():
        assert float(r["rejected_share"]) == pytest.approx(by_task.get(task, 0) / n_rows[task], abs=5e-4)
    sentences = verdict_of(report["html"]).quarantine
    assert {item["task"]: item["text"] for item in sentences} == {
        task: f"{task}: {by_task.get(task, 0):,} of {n:,} rows rejected ({100 * by_task.get(task, 0) / n:.1f} %)"
        for task, n in n_rows.items()}
    assert sentences[0]["text"].startswith("retrieval: 26 of 2,795 rows rejected (0.9 %)")
    exports = {r["task"]: int(r["n_rejected"]) for r in tables["quarantine-exports"].records()}
    assert exports == {t: by_task.get(t, 0) for t in n_rows}
    copies = {r["task"]: (int(r["n_repeated"]), int(r["n_blank"])) for r in tables["quarantine-exports"].records()}
    assert copies == copies_expected and sum(n for n, _ in copies.values()) > 0, copies


def test_sections_name_their_source(report):
    sections = report["parsed"].sections
    assert [s["title"] for s in sections] == SECTIONS
    for section in sections:
        assert section["source"].startswith("Source: "), section
    sources = {s["title"]: s["source"] for s in sections}
    assert sources["Verdict"] == "Source: run_comparison, metric_values, export_row_counts"
    assert sources["Headline metrics"] == "Source: metric_values"
    assert sources["Pairwise kappas"] == "Source: annotator_pair_agreement"
    assert sources["Quarantine"] == "Source: export_row_counts, rejected_annotations"
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
    assert points == con.execute("select count(krippendorff_alpha) + count(gwet_ac1) from annotator_agreement"
                                 " where slice_dimension = 'overall'").fetchone()[0]
    # the pair heat maps: a cell on each side of the diagonal per pair
    pairs = svgs(section_html(report["html"], "pair-kappas"))
    cells = sum(len(c.findall(".//rect[@class='cell']")) for c in pairs)
    assert cells == 2 * con.execute("select count(*) from annotator_pair_agreement"
                                    " where slice_dimension = 'overall'").fetchone()[0]


def test_agreement_shows_the_slices_below_target_first(report, con):
    """The agreement section opens with the task types and languages (tier all): every slice row
    that misses the alpha target comes before every other, the lowest alpha first, and the
    sentence above names each (task, slice) with a label below target, as the mart says."""
    html_part = section_html(report["html"], "agreement")
    tables = [t for t in parse(html_part).tables]
    assert tables[0].attrs["id"] == "agreement-slices", [t.attrs.get("id") for t in tables]
    shown = tables[0].records()
    misses = [r["meets_target"] == "false" for r in shown]
    assert any(misses) and not all(misses), "the sample has slices on both sides of the target"
    assert misses == sorted(misses, reverse=True), "a slice below target after one that is not"
    alphas = [float(r["krippendorff_alpha"]) for r in shown if r["meets_target"] == "false"]
    assert alphas == sorted(alphas)
    below = {(task, dim, value) for task, dim, value in con.execute(
        "select distinct task, slice_dimension, slice_value from annotator_agreement"
        " where tier = 'all' and slice_dimension <> 'overall' and not meets_target").fetchall()}
    sentence = html_part.split('class="note">', 1)[1].split("</p>", 1)[0]
    assert sentence.startswith("Below the alpha target (tier all): ")
    named = {tuple(part.split(" (")[0].replace(" · ", " ", 1).split(" ", 2))
             for part in html.unescape(sentence[len("Below the alpha target (tier all): "):-1]).split("; ")}
    assert named == below


def test_self_contained_and_small(report):
    page = report["html"]
    assert len(page.encode("utf-8")) < MAX_BYTES
    lowered = page.lower()
    for needle in ("<script", "<link", "<img", "<iframe", "<object", "<embed", "@import", "url(", "src=", "http:", "https:"):
        assert needle not in lowered, needle
    assert all(href.startswith("#") for href in re.findall(r'href="([^"]*)"', page))


def test_judge_powered_section_says_what_the_mart_holds(report, con):
    """The judge-powered section: per run, judge and family one sentence with n, N and the range of
    effective_n over the headline metrics (slice overall, retrieval at HEADLINE_K), each worked out
    here from the mart; the random-sample assumption in one sentence; a chart per run with the
    three series (humans, judge alone, judge-powered) for every headline row."""
    page = section_html(report["html"], "judge-powered")
    rows = con.execute(
        "select run_id, annotator_id, family, n_labeled, n_unlabeled, effective_n from judge_powered_metric_values"
        " where slice_dimension = 'overall' and (k is null or k = ?)", [HEADLINE_K]).fetchall()
    assert rows, "the sample has judge-powered rows"
    groups: dict[tuple, list] = {}
    for run, judge, family, n, big_n, worth in rows:
        groups.setdefault((run, judge, family), []).append((n, big_n, worth))
    assert {run for run, _, _ in groups} >= {"bot-v1", "bot-v2"}
    sentences = [html.unescape(m) for m in re.findall(r'<li class="worth">(.*?)</li>', page)]
    assert len(sentences) == len(groups), sentences
    for (run, judge, family), members in groups.items():
        n, big_n = {m[0] for m in members}, {m[1] for m in members}
        assert len(n) == 1 and len(big_n) == 1, (run, judge, family)
        start = f"{run}, {judge}, {family} (n = {n.pop()} human-labelled, N = {big_n.pop()} judge-only records): "
        sentence = next((t for t in sentences if t.startswith(start)), None)
        assert sentence is not None, (start, sentences)
        worth = sorted(round(w) for _, _, w in members if w is not None)
        if worth:
            span = str(worth[0]) if worth[0] == worth[-1] else f"{worth[0]} to {worth[-1]}"
            assert f"as narrow as {span} human labels alone would give (effective_n over {len(worth)} headline" \
                in sentence, sentence
    assumption = re.findall(r'<li class="assumption">(.*?)</li>', page)
    assert len(assumption) == 1 and "random share" in assumption[0] and "routed" in assumption[0]
    runs = sorted({run for run, _, _ in groups})
    charts = svgs(page)
    assert len(charts) == len(runs)
    for chart, run in zip(charts, runs):
        n_rows = sum(len(m) for (r, _, _), m in groups.items() if r == run)
        assert len([t for t in chart.iter() if t.tag.endswith("title")]) >= 3 * n_rows


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
    assert "The mart run_comparison lacks the columns baseline_run_id" in section_html(page, "verdict")
    assert "The mart run_comparison_queries is not in this database" in section_html(page, "runs")
    assert not [t for t in parsed.tables if t.mart == "run_comparison"]
    assert [s["title"] for s in parsed.sections] == SECTIONS


def test_run_comparison_section(sample_db, tmp_path):
    """The run comparison on a hand-made pair of tables of the marts' schema: its numbers are the
    sample's metric values of every run against the first run in byte order (so that measures of
    both directions are significant, better and worse), its regression list has more losses than
    the report shows, losses of a lower-is-better measure (a positive difference) and a hostile
    query text."""
    database = tmp_path / "runs.duckdb"
    hostile = '<script>alert("q")</script> & "quotes"'
    lower = ", ".join(f"'{m}'" for m in sorted(LOWER_IS_BETTER))
    with duckdb.connect(str(database)) as connection:
        connection.execute(f"attach '{sample_db}' as sample (read_only)")
        for mart in ("metric_values", "retrieval_metrics", "rejected_annotations"):
            connection.execute(f"create table {mart} as select * from sample.{mart}")
        runs = sorted((r for (r,) in connection.execute("select distinct run_id from metric_values").fetchall()),
                      key=lambda r: r.encode("utf-8"))
        assert len(runs) >= 2, "the sample has several runs"
        connection.execute(f"""
            create table run_comparison as
            with pairs as (
                select b.run_id as baseline_run_id, c.run_id as candidate_run_id, b.family, b.metric, b.k,
                       b.slice_dimension, b.slice_value, least(b.n_units, c.n_units) as n_pairs,
                       b.n_units - least(b.n_units, c.n_units) as n_baseline_only,
                       c.n_units - least(b.n_units, c.n_units) as n_candidate_only,
                       b.value as baseline_value, c.value as candidate_value, c.value - b.value as difference,
                       b.metric not in ({lower}) as higher_is_better
                from metric_values as b join metric_values as c
                    on b.family = c.family and b.metric = c.metric and b.k is not distinct from c.k
                    and b.slice_dimension = c.slice_dimension and b.slice_value = c.slice_value
                where b.run_id = ? and c.run_id <> ? and b.slice_dimension in ('overall', 'language')
            )
            select *, difference - 0.05 as difference_ci_lower, difference + 0.05 as difference_ci_upper,
                   cast(n_pairs / 3 as integer) as n_wins, n_pairs - 2 * cast(n_pairs / 3 as integer) as n_ties,
                   cast(n_pairs / 3 as integer) as n_losses, 0.5 / (1 + 1000 * abs(difference)) as p_value,
                   'permutation' as p_value_method, least(1, 3 / (1 + 1000 * abs(difference))) as p_value_holm,
                   3 / (1 + 1000 * abs(difference)) < 0.05 as is_significant,
                   difference - 0.08 as adjusted_ci_lower, difference + 0.08 as adjusted_ci_upper,
                   'smallest_run_id' as baseline_source
            from pairs""", [runs[0], runs[0]])
        rows = []
        for i in range(100):   # 90 losses, 30 per measure (more than the report lists), then 10 wins
            metric = ("mrr", "ndcg", "misleading_context_rate")[i % 3]
            size = round((i // 2 + 1) / 100, 2) if i < 90 else 0.1
            worse = i < 90
            # a loss is the candidate worse: lower where higher is better, higher where lower is better
            difference = size if (metric in LOWER_IS_BETTER) == worse else -size
            rows.append((runs[0], runs[1], "retrieval", metric, 5, f"q-{i:02d}",
                         hostile if i == 59 else f"question {i}?", f"b-{i}", f"c-{i};c-{i}x", 0.5,
                         0.5 + difference, difference, "loss" if worse else "win"))
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
        runs_tables = [t for t in parsed.tables if t.mart in ("run_comparison", "run_comparison_queries")
                       and t.section == "runs"]
        for table in runs_tables:
            compare(table, mart_rows(con, table.mart, table.where))
        assert sorted((t.mart, json.dumps(t.where, sort_keys=True)) for t in runs_tables) == sorted(comparison_tables(con))
        regression = next(t for t in runs_tables if t.mart == "run_comparison_queries")
        check_regression_list(regression)
        records = regression.records()
        assert len(records) == 3 * REGRESSION_ROWS and hostile in {r["query_text"] for r in records}
        assert any(float(r["difference"]) > 0 for r in records), "a loss of a lower-is-better measure"
        # the verdict: significant measures better and worse, of both directions, each in its place
        verdicts = check_verdict(page, con)
        assert {(kind, measure.split("@")[0] in LOWER_IS_BETTER) for measures in verdicts.values()
                for measure, kind in measures.items()} == {(kind, lower) for kind in ("better", "worse")
                                                           for lower in (False, True)}, verdicts
        for table in (t for t in parsed.tables if t.section == "verdict" and t.mart in KEYS):
            compare(table, mart_rows(con, table.mart, table.where))
        # the forest plot: one point per measure of the overall slice, hollow when not significant,
        # else in the colour of its verdict
        overall = con.execute("select count(difference), count(*) filter (where not is_significant),"
                              " count(*) filter (where is_significant) from run_comparison"
                              " where slice_dimension = 'overall'").fetchone()
    assert overall[1] and overall[2], "the hand-made comparison has significant and other measures"
    charts = svgs(section_html(page, "runs"))
    points = [c for chart in charts for c in chart.findall(".//circle[@class='point']")]
    assert len(points) == overall[0]
    assert sum(p.get("fill") == "#ffffff" for p in points) == overall[1]
    kinds = [kind for measures in verdicts.values() for kind in measures.values()]
    assert sum(p.get("fill") == "#0072B2" for p in points) == kinds.count("better")
    assert sum(p.get("fill") == "#D55E00" for p in points) == kinds.count("worse")
    tips = [m.find("title").text for chart in charts for m in chart.findall(".//g[@class='mark']")]
    assert any("p_value_holm" in tip and "difference" in tip and "n_losses" in tip and "(candidate worse)" in tip
               for tip in tips)
    # the other sections show every run side by side
    headline = next(t for t in parsed.tables if t.attrs.get("id", "").startswith("headline"))
    assert {r["run_id"] for r in headline.records()} == set(runs)


def check_regression_list(table: Table) -> None:
    """Losses only, each the candidate worse in its measure's direction (by LOWER_IS_BETTER), the rows
    of a measure together and worst first, each with its query text and both runs' records."""
    records = table.records()
    assert records and table.where.get("outcome") == "loss"
    assert {"query_text", "baseline_record_uuids", "candidate_record_uuids", "pairing_key"} <= set(records[0])
    for record in records:
        assert record["outcome"] == "loss", record
        difference = float(record["difference"])
        assert (difference > 0) if record["metric"] in LOWER_IS_BETTER else (difference < 0), record
        assert record["query_text"] and record["baseline_record_uuids"] and record["candidate_record_uuids"], record
    groups = measure_groups(records, ["family", "metric", "k"])
    assert len(groups) == len({key for key, _ in groups}), "the rows of a measure are not together"
    for key, members in groups:
        values = [abs(float(r["difference"])) for r in members]
        assert values == sorted(values, reverse=True), f"{key} is not worst first"
        assert len(members) <= REGRESSION_ROWS


def test_regression_list_is_the_losses_worst_first(report, con):
    """On the sample: per compared pair, the losses of run_comparison_queries (outcome = loss), at most
    REGRESSION_ROWS per measure, worst first, with the query text and both runs' records."""
    tables = [t for t in report["parsed"].tables if t.mart == "run_comparison_queries"]
    pairs = con.execute("select distinct baseline_run_id, candidate_run_id from run_comparison_queries"
                        " where outcome = 'loss'").fetchall()
    assert pairs, "the sample's bot-v2 has losses"
    assert sorted((t.where["baseline_run_id"], t.where["candidate_run_id"]) for t in tables) == sorted(pairs)
    for table in tables:
        assert table.section == "runs"
        check_regression_list(table)
        compare(table, mart_rows(con, table.mart, table.where))
        expected = sum(min(REGRESSION_ROWS, n) for (n,) in con.execute(
            "select count(*) from run_comparison_queries where baseline_run_id = ? and candidate_run_id = ?"
            " and outcome = 'loss' group by family, metric, k",
            [table.where["baseline_run_id"], table.where["candidate_run_id"]]).fetchall())
        assert len(table.records()) == expected


def test_verdict_opens_the_report(report, con):
    """The verdict is the first section, right after the title and intro; it names every significant
    measure of every compared pair under better or worse (on the sample: bot-v2's misleading context
    rate at K 5 and 10, better), the headline metrics at one K and a link to every other section."""
    page = report["html"]
    sections = report["parsed"].sections
    assert sections[0]["id"] == "verdict" and sections[0]["title"] == "Verdict"
    assert page.index('<section id="verdict">') == page.index("<section"), "a section before the verdict"
    assert "<nav" not in page[:page.index("<section")], "the links belong to the verdict"
    verdicts = check_verdict(page, con)
    sample = verdicts.get(("bot-v1", "bot-v2"))
    if sample is not None:   # the project's sample (docs/marts.md, "Evaluation runs")
        assert sample.get("misleading_context_rate@5") == "better" and sample.get("misleading_context_rate@10") == "better"
    # the headline metrics at the verdict's K: every metric of every run, retrieval at that K only
    k = headline_k(con)
    headline = next(t for t in report["parsed"].tables if t.attrs.get("id") == "verdict-metric_values")
    assert {r["k"] for r in headline.records()} == {str(k), NULL}
    assert {r["run_id"] for r in headline.records()} == {r for (r,) in con.execute(
        "select distinct run_id from metric_values").fetchall()}
    # a link to each section of the details, in their order
    assert verdict_of(page).links == [f"#{s['id']}" for s in sections[1:]]


def test_legend_wraps_within_its_width():
    """A legend too long for its chart wraps into lines, none wider than the chart leaves it."""
    import report as report_script

    items = [(f"series_name_number_{i}_at_k", "#000000") for i in range(7)]
    for width in (120, 300, 596):
        lines = report_script.legend_lines(items, width)
        assert [item for line in lines for item in line] == items
        for line in lines:
            used = sum(report_script.legend_width(name) for name, _ in line) - 10
            assert len(line) == 1 or used <= width, (width, line)
        parts, extra = report_script.legend(items, 10, 13, width)
        assert parts[0] == '<g class="legend">' and parts[-1] == "</g>"
        assert extra == (len(lines) - 1) * report_script.LEGEND_LINE
    assert report_script.legend([], 0, 13, 100) == ([], 0.0)


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


# The measuring script the browser tests add to a copy of the report (the report has no script): the
# boxes, in page coordinates, of the sections and of every legend with its chart.
MEASURE_SCRIPT = """<script>
(function () {
  function box(element) {
    var r = element.getBoundingClientRect();
    return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY};
  }
  var out = {width: innerWidth,
    sections: Array.from(document.querySelectorAll("body > section")).map(function (s) {
      return Object.assign({id: s.id}, box(s)); }),
    legends: Array.from(document.querySelectorAll("svg g.legend")).map(function (g) {
      return {legend: box(g), chart: box(g.ownerSVGElement), label: g.ownerSVGElement.getAttribute("aria-label")}; })};
  var pre = document.createElement("pre");
  pre.id = "measured";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def chromium_or_skip() -> str:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed: `make test` installs it (Makefile target .venv/bin/.chromium-installed)")
    return chromium


def measure(report: dict, folder: Path, width: int, height: int) -> dict:
    """The boxes MEASURE_SCRIPT finds in the report as Chromium lays it out in a window of that size."""
    chromium = chromium_or_skip()
    page = report["html"]
    assert "<script" not in page
    probe = folder / f"measure-{width}x{height}.html"
    probe.write_text(page.replace("</body>", MEASURE_SCRIPT + "</body>"), encoding="utf-8")
    dom = subprocess.run([chromium, *CHROMIUM_FLAGS, f"--user-data-dir={folder / f'profile-{width}'}",
                          f"--window-size={width},{height}", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom.stdout, flags=re.S)
    assert found, "the measuring script did not run"
    measured = json.loads(html.unescape(found.group(1)))
    assert measured["width"] == width, f"the window is {measured['width']} px wide, not {width}"
    return measured


def overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@browser
def test_chromium_verdict_fits_the_first_screen(report, tmp_path):
    """At 1400 px wide the verdict is the first section, and it starts and ends within the first 900 px."""
    width, height = SCREEN
    sections = measure(report, tmp_path, width, height)["sections"]
    assert [s["id"] for s in sections][:1] == ["verdict"]
    verdict = sections[0]
    assert 0 <= verdict["top"] < verdict["bottom"] <= height, f"the verdict spans {verdict['top']}-{verdict['bottom']} px"
    assert verdict["right"] <= width
    assert all(s["top"] >= verdict["bottom"] for s in sections[1:]), "a section before the verdict ends"


@browser
@pytest.mark.parametrize("width", [1400, 1920])
def test_chromium_legends_do_not_overlap(report, tmp_path, width):
    """No two legends of the report overlap, and each stays within its own chart (so it cannot run
    into the chart beside it)."""
    legends = measure(report, tmp_path, width, SCREEN[1])["legends"]
    assert len(legends) == report["html"].count('<g class="legend">') > 0
    for item in legends:
        legend, chart = item["legend"], item["chart"]
        assert legend["right"] > legend["left"], item
        assert chart["left"] - 1 <= legend["left"] and legend["right"] <= chart["right"] + 1 \
            and chart["top"] - 1 <= legend["top"], f"a legend outside its chart: {item}"
    clashes = [(a["label"], b["label"]) for a, b in itertools.combinations(legends, 2)
               if overlap(a["legend"], b["legend"])]
    assert not clashes, f"legends that overlap at {width} px: {clashes[:5]}"
