#!/usr/bin/env python3
"""Write one self-contained HTML report of the published ragmart database (used by `make report`).

Reads the published DuckDB database, $RAGMART_DUCKDB_PATH (default ragmart.duckdb; a relative path
is relative to the project root, as in scripts/build.py), opened READ-ONLY, and writes one HTML file
(default target/report.html of the project). It opens with the verdict, one screen (1400 px wide)
a lead can read and forward: per compared pair of runs the measures significantly better and worse
after Holm (run_comparison, slice overall, in each measure's direction: higher_is_better and the
sign of difference) as sentences, the share of each export that was rejected (export_row_counts),
each run's
headline metrics at one K with their intervals (metric_values), and a link to each section below.
Then a section per question the marts answer: the headline metrics with their 95 % intervals, the
retrieval measures against K, the slices side by side, annotator agreement against the alpha
target, the pairwise kappas, the labeling protocol and its drift alerts, the judges' calibration
and bias, the judge-powered metrics (humans alone, the judge alone and both, per run, judge and
headline metric, with how many human labels the judge is worth), the quarantine and the run
comparison (its regression list: the losses, the queries on
which the candidate is worse in the measure's direction, worst first per measure, with the query
text and both runs' records). Each section names the mart it reads ("Source: ..."); each chart and
each sentence has its numbers in a table beside it (the columns named as in the mart, values to 3
decimals, null as "–"), and each mark in its tooltip. Legends wrap within their chart, so none runs
into another. A mart that is missing or empty gives a one-line note in its section instead of a
crash.

The charts are hand-written inline SVG, not Altair / Vega-Lite: the file then holds no script at
all, needs no network and no JavaScript engine to show its charts (the report opens offline in any
browser, and prints), stays small (about 1 MB on the sample with its three runs, charts and tables together, where
Vega-Lite would add its JavaScript bundle of vega, vega-lite and vega-embed, several hundred kB, to
every file), and adds no dependency to the project's locks; the tests parse every chart with
xml.etree. Tooltips are SVG <title> elements (shown on hover).

Every text taken from the database (labels, annotator ids, reason codes, slice values) is
HTML-escaped, and control characters are replaced, so a label from a user's export can neither
break the page nor inject markup.

Usage:
    python scripts/report.py                                      # target/report.html of the project
    python scripts/report.py --out report.html --relative-to /home/me
    python scripts/report.py --database /data/ragmart.duckdb --out /tmp/ragmart.html
"""

from __future__ import annotations

import argparse
import datetime
import html
import json
import math
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from export_marts import database_path, resolve  # noqa: E402 - the same conventions as `make export`
from show_metrics import BASELINE_SOURCES  # noqa: E402 - the printed table's words for how the baseline was chosen

PROJECT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = "target/report.html"
NULL = "–"
FAMILY_ORDER = ("retrieval", "grounding", "generation")
SLICE_ORDER = ("language", "tier", "label_source")
# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#F0E442")
GREY = "#888888"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class ReportError(Exception):
    """A problem with the database or the output file, reported as `error: ...`."""


# ----------------------------------------------------------------------------- text and numbers


def esc(value: object) -> str:
    """Text for HTML and SVG: escaped (quotes included), control characters replaced."""
    return html.escape(_CONTROL.sub("\ufffd", str(value)), quote=True)


def fmt(value: object) -> str:
    """A value as the report shows it: floats to 3 decimals, null as "–", booleans as true / false."""
    if value is None:
        return NULL
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return NULL
        text = f"{value:.3f}"
        return "0.000" if text == "-0.000" else text
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    try:  # Decimal and other numbers
        return fmt(float(value)) if not isinstance(value, str) else value
    except (TypeError, ValueError):
        return str(value)


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def num(value: object) -> float | None:
    """A finite float, or None."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def metric_label(row: dict) -> str:
    return f"{row['metric']}@{row['k']}" if row.get("k") is not None else str(row["metric"])


def order_key(order: tuple[str, ...], value: object) -> tuple:
    """Sort the known values in `order` first, in that order, then the others by name."""
    text = "" if value is None else str(value)
    return (order.index(text) if text in order else len(order), text)


def runs_of(rows: list[dict]) -> list[str]:
    """The run_ids of the rows in byte order (the order in which the baseline is the first run); a
    mart without run_id (built before the runs) gives one unnamed run."""
    return sorted({str(r.get("run_id", "")) for r in rows}, key=lambda run: run.encode("utf-8"))


def run_series(runs: list[str]) -> list[tuple[str, str]]:
    return [(run or "value", PALETTE[i % len(PALETTE)]) for i, run in enumerate(runs)]


def family_sort(rows: list[dict], *columns: str) -> list[dict]:
    """Rows sorted by family (the project's order), then by the given columns (null first)."""
    def key(row):
        return (order_key(FAMILY_ORDER, row.get("family", row.get("task"))),
                *[(row[c] is not None, row[c] if row[c] is not None else 0) for c in columns])
    return sorted(rows, key=key)


# ----------------------------------------------------------------------------- reading the marts


@dataclass
class Mart:
    name: str
    columns: list[str]
    rows: list[dict]


class Database:
    """The marts of one DuckDB file, opened read-only; `read` gives a Mart or a one-line note."""

    def __init__(self, path: Path):
        import duckdb

        self.path = path
        try:
            self.con = duckdb.connect(str(path), read_only=True)
        except duckdb.Error as error:
            raise ReportError(f"cannot open the database {path} read-only: {error}") from None
        self.schemas: dict[str, list[str]] = {}
        for schema, table in self.con.execute("select table_schema, table_name from information_schema.tables"
                                              " where table_catalog = current_database()").fetchall():
            self.schemas.setdefault(table, []).append(schema)

    def close(self) -> None:
        self.con.close()

    def relation(self, name: str) -> str | None:
        schemas = self.schemas.get(name)
        if not schemas:
            return None
        schema = "main" if "main" in schemas else sorted(schemas)[0]
        return '"' + schema.replace('"', '""') + '"."' + name.replace('"', '""') + '"'

    def has(self, name: str) -> bool:
        return self.relation(name) is not None

    def query(self, sql: str) -> tuple[list[str], list[tuple]]:
        cursor = self.con.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()

    def read(self, name: str, needed: tuple[str, ...] = (), sql: str | None = None) -> Mart | str:
        """Every row of the mart (or of `sql`, which reads it as {relation}), or a note why not."""
        relation = self.relation(name)
        if relation is None:
            return f"The mart {name} is not in this database (built before it existed?): nothing to show."
        columns = [row[0] for row in self.con.execute(f"describe {relation}").fetchall()]
        lacking = [c for c in needed if c not in columns]
        if lacking:
            return f"The mart {name} lacks the columns {', '.join(lacking)} (built by an older ragmart?): nothing to show."
        columns, rows = self.query(sql.format(relation=relation) if sql else f"select * from {relation}")
        if not rows:
            return f"The mart {name} has no rows: nothing to show."
        return Mart(name, columns, [dict(zip(columns, row)) for row in rows])


# ----------------------------------------------------------------------------- SVG charts

CHAR_WIDTH = 6.4   # px per character of 11 px sans-serif text, for laying out labels


def _nice_step(span: float, count: int = 5) -> float:
    raw = span / max(count, 1) if span > 0 else 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 2.5, 5, 10):
        if raw <= multiple * magnitude:
            return multiple * magnitude
    return 10 * magnitude


def domain_of(values: list[float | None], base: tuple[float, float] = (0.0, 1.0)) -> tuple[float, float]:
    """[lo, hi] covering `base` and every value, widened to round numbers."""
    finite = [v for v in values if v is not None]
    lo, hi = min([base[0], *finite]), max([base[1], *finite])
    if hi <= lo:
        hi = lo + 1
    step = _nice_step(hi - lo)
    return math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step


def ticks(domain: tuple[float, float], count: int = 5, whole: bool = False) -> list[float]:
    """Round values across `domain` (whole numbers only when `whole`, e.g. for counts)."""
    lo, hi = domain
    step = _nice_step(hi - lo, count)
    step = max(step, 1) if whole else step
    first = math.ceil(lo / step - 1e-9)
    return [round(i * step, 10) for i in range(first, math.floor(hi / step + 1e-9) + 1)]


def tick_label(value: float) -> str:
    return f"{value:g}".replace("-", "−")


class Scale:
    def __init__(self, domain: tuple[float, float], start: float, end: float):
        self.lo, self.hi = domain
        self.start, self.end = start, end

    def __call__(self, value: float) -> float:
        value = min(max(value, self.lo), self.hi)
        return round(self.start + (value - self.lo) / (self.hi - self.lo) * (self.end - self.start), 2)


def svg(width: float, height: float, body: list[str], label: str) -> str:
    return (f'<svg class="chart" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'role="img" aria-label="{esc(label)}">' + "".join(body) + "</svg>")


def text(x: float, y: float, content: object, anchor: str = "start", cls: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"' + (f' class="{cls}"' if cls else "")
            + f">{esc(content)}</text>")


def mark(tooltip: str, *shapes: str) -> str:
    """One mark: its shapes with a tooltip (an SVG <title>, shown on hover)."""
    return f'<g class="mark"><title>{esc(tooltip)}</title>' + "".join(shapes) + "</g>"


LEGEND_LINE = 16        # px between the lines of a legend
LEGEND_CHAR_WIDTH = 7.0  # px per character of a legend's names: wider than CHAR_WIDTH, for wide fonts


def legend_width(name: str) -> float:
    """The width a legend item takes: its dot, its name and the gap to the next item."""
    return 24 + LEGEND_CHAR_WIDTH * len(name)


def legend_lines(items: list[tuple[str, str]], width: float) -> list[list[tuple[str, str]]]:
    """The items in lines of at most `width` px (an item wider than that alone on its line)."""
    lines: list[list[tuple[str, str]]] = []
    used = width
    for item in items:
        if not lines or used + legend_width(item[0]) - 10 > width:
            lines.append([])
            used = 0.0
        lines[-1].append(item)
        used += legend_width(item[0])
    return lines


def legend(items: list[tuple[str, str]], x: float, y: float, width: float) -> tuple[list[str], float]:
    """A legend of the series from (x, y), wrapped into lines that stay within `width` px so that it
    never runs into the chart beside it; returns its parts (one <g class="legend">, none without
    items) and the height it adds below its first line."""
    lines = legend_lines(items, width)
    if not lines:
        return [], 0.0
    out = ['<g class="legend">']
    for index, line in enumerate(lines):
        left, top = x, y + index * LEGEND_LINE
        for name, color in line:
            out.append(f'<circle cx="{left + 5:.1f}" cy="{top - 4:.1f}" r="4" fill="{color}"/>')
            out.append(text(left + 13, top, name))
            left += legend_width(name)
    out.append("</g>")
    return out, (len(lines) - 1) * LEGEND_LINE


def x_axis(scale: Scale, domain: tuple[float, float], top: float, bottom: float, whole: bool = False) -> list[str]:
    out = []
    for tick in ticks(domain, whole=whole):
        x = scale(tick)
        out.append(f'<line class="grid" x1="{x}" y1="{top:.1f}" x2="{x}" y2="{bottom:.1f}"/>')
        out.append(text(x, bottom + 13, tick_label(tick), "middle", "axis"))
    return out


@dataclass
class Point:
    value: float | None
    lower: float | None = None
    upper: float | None = None
    tooltip: str = ""
    hollow: bool = False
    color: str | None = None   # instead of its series' colour (e.g. a run comparison's verdict)


@dataclass
class Row:
    label: str
    points: list[Point | None]   # one per series; None: the series has no row here
    group: str = ""


def forest(rows: list[Row], series: list[tuple[str, str]], domain: tuple[float, float], label: str,
           references: list[tuple[float, str]] = (), width: int = 500,
           legend_items: list[tuple[str, str]] | None = None) -> str:
    """A forest plot: per row, a point with its interval for each series; `references` are vertical
    lines; the legend names the series (when there are several) or `legend_items`."""
    label_width = min(260, 12 + CHAR_WIDTH * max([len(r.label) for r in rows] + [4]))
    row_height = max(17, 8 + 6 * len(series))
    body: list[str] = []
    items = legend_items if legend_items is not None else [*series] if len(series) > 1 else []
    parts, extra = legend(items, label_width, 13, width - label_width - 4)
    body += parts
    top = 22 + extra
    y = top
    layout = []
    group = None
    for row in rows:
        if row.group and row.group != group:
            group = row.group
            layout.append(("group", row.group, y))
            y += 18
        layout.append(("row", row, y))
        y += row_height
    bottom = y + 4
    scale = Scale(domain, label_width, width - 14)
    body += x_axis(scale, domain, top - 4, bottom)
    for value, name in references:
        x = scale(value)
        body.append(mark(f"{name}: {fmt(value)}", f'<line class="reference" x1="{x}" y1="{top - 6}" x2="{x}" y2="{bottom}"/>'))
        if not items:
            body.append(text(x + 3, top - 8, f"{name} {fmt(value)}", "start", "axis"))
    for kind, item, y0 in layout:
        if kind == "group":
            body.append(text(4, y0 + 13, item, "start", "group"))
            continue
        body.append(text(label_width - 8, y0 + row_height / 2 + 4, item.label, "end"))
        for index, point in enumerate(item.points):
            if point is None:
                continue
            color = point.color or series[index][1]
            cy = round(y0 + (index + 1) * row_height / (len(series) + 1), 2)
            if point.value is None:
                body.append(mark(point.tooltip or "no value", text(label_width + 4, cy + 4, NULL, "start", "null")))
                continue
            shapes = []
            if point.lower is not None and point.upper is not None:
                shapes.append(f'<line class="ci" x1="{scale(point.lower)}" y1="{cy}" x2="{scale(point.upper)}" '
                              f'y2="{cy}" stroke="{color}"/>')
            fill = "#ffffff" if point.hollow else color
            shapes.append(f'<circle class="point" cx="{scale(point.value)}" cy="{cy}" r="3.6" fill="{fill}" stroke="{color}"/>')
            body.append(mark(point.tooltip, *shapes))
    return svg(width, bottom + 20, body, label)


def line_chart(x_labels: list[str], series: list[tuple[str, str, list[Point | None]]], domain: tuple[float, float],
               label: str, references: list[tuple[float, str]] = (), bands: list[tuple[int, str]] = (),
               x_title: str = "", width: int = 560, height: int = 250) -> str:
    """Lines over categorical x positions; `bands` shade an x position (e.g. an alert week)."""
    left = 44
    parts, extra = legend([(name, color) for name, color, _ in series], left, 13, width - left - 4)
    height += extra   # the plot keeps its height below a legend of several lines
    right, top, bottom = width - 16, 26 + extra, height - 34
    body: list[str] = [*parts]
    y_scale = Scale(domain, bottom, top)
    step = (right - left) / max(len(x_labels), 1)

    def x_of(index: int) -> float:
        return round(left + step * (index + 0.5), 2)

    for index, name in bands:
        body.append(mark(name, f'<rect class="band" x="{x_of(index) - step / 2:.2f}" y="{top}" width="{step:.2f}" '
                               f'height="{bottom - top}"/>'))
    for tick in ticks(domain, 4):
        y = y_scale(tick)
        body.append(f'<line class="grid" x1="{left}" y1="{y}" x2="{right}" y2="{y}"/>')
        body.append(text(left - 5, y + 4, tick_label(tick), "end", "axis"))
    for index, name in enumerate(x_labels):
        body.append(text(x_of(index), bottom + 14, name, "middle", "axis"))
    if x_title:
        body.append(text((left + right) / 2, bottom + 28, x_title, "middle", "axis"))
    for value, name in references:
        y = y_scale(value)
        body.append(mark(f"{name}: {fmt(value)}", f'<line class="reference" x1="{left}" y1="{y}" x2="{right}" y2="{y}"/>'))
        body.append(text(right, y - 4, f"{name} {fmt(value)}", "end", "axis"))
    for _name, color, points in series:
        segment: list[str] = []
        segments = []
        for index, point in enumerate(points):
            if point is None or point.value is None:
                if segment:
                    segments.append(segment)
                segment = []
                continue
            segment.append(f"{x_of(index)},{y_scale(point.value)}")
        if segment:
            segments.append(segment)
        for part in segments:
            if len(part) > 1:
                body.append(f'<polyline class="line" points="{" ".join(part)}" stroke="{color}"/>')
        for index, point in enumerate(points):
            if point is None or point.value is None:
                continue
            x, shapes = x_of(index), []
            if point.lower is not None and point.upper is not None:
                shapes.append(f'<line class="ci" x1="{x}" y1="{y_scale(point.lower)}" x2="{x}" '
                              f'y2="{y_scale(point.upper)}" stroke="{color}"/>')
            fill = "#ffffff" if point.hollow else color
            shapes.append(f'<circle class="point" cx="{x}" cy="{y_scale(point.value)}" r="3.6" fill="{fill}" stroke="{color}"/>')
            body.append(mark(point.tooltip, *shapes))
    return svg(width, height, body, label)


def bar_chart(bars: list[tuple[str, float | None, str, str]], domain: tuple[float, float], label: str,
              targets: list[float | None] | None = None, width: int = 420, whole: bool = False) -> str:
    """Horizontal bars (label, value, tooltip, colour), each with an optional target tick; `whole`: counts."""
    label_width = min(300, 12 + CHAR_WIDTH * max([len(b[0]) for b in bars] + [4]))
    row_height, top = 20, 10
    bottom = top + row_height * len(bars)
    scale = Scale(domain, label_width, width - 16)
    body = x_axis(scale, domain, top - 4, bottom, whole)
    for index, (name, value, tooltip, color) in enumerate(bars):
        y = top + index * row_height
        body.append(text(label_width - 8, y + 14, name, "end"))
        target = targets[index] if targets else None
        shapes = []
        if value is None:
            body.append(mark(tooltip, text(label_width + 4, y + 14, NULL, "start", "null")))
        else:
            x0, x1 = scale(max(domain[0], 0)), scale(value)
            shapes.append(f'<rect class="bar" x="{min(x0, x1)}" y="{y + 4}" width="{max(abs(x1 - x0), 1):.2f}" '
                          f'height="{row_height - 8}" fill="{color}"/>')
        if target is not None:
            xt = scale(target)
            shapes.append(f'<line class="target" x1="{xt}" y1="{y + 1}" x2="{xt}" y2="{y + row_height - 1}"/>')
        if shapes:
            body.append(mark(tooltip, *shapes))
    return svg(width, bottom + 20, body, label)


def diverging(value: float) -> str:
    """Colour of a value in [-1, 1]: red below 0, white at 0, blue above."""
    value = min(max(value, -1.0), 1.0)
    low, mid, high = (178, 24, 43), (247, 247, 247), (33, 102, 172)
    end, share = (high, value) if value >= 0 else (low, -value)
    return "#" + "".join(f"{round(m + (e - m) * share):02x}" for m, e in zip(mid, end))


def heatmap(names: list[str], cells: dict[tuple[int, int], tuple[float | None, str]], label: str) -> str:
    """A symmetric matrix of values in [-1, 1]; `cells` (i, j) -> (value, tooltip), i < j."""
    cell = 46
    label_width = min(220, 10 + CHAR_WIDTH * max([len(n) for n in names] + [4]))
    top = 16 + label_width * 0.72   # column labels are turned by 45 degrees
    body = []
    for j, name in enumerate(names):
        x = label_width + j * cell + cell / 2
        body.append(f'<text x="{x:.1f}" y="{top - 4:.1f}" transform="rotate(-45 {x:.1f} {top - 4:.1f})">{esc(name)}</text>')
    for i, name in enumerate(names):
        y = top + i * cell
        body.append(text(label_width - 6, y + cell / 2 + 4, name, "end"))
        for j in range(len(names)):
            x = label_width + j * cell
            if i == j:
                body.append(f'<rect class="diagonal" x="{x}" y="{y:.1f}" width="{cell}" height="{cell}"/>')
                continue
            found = cells.get((min(i, j), max(i, j)))
            if found is None:
                continue
            value, tooltip = found
            color = "#e8e8e8" if value is None else diverging(value)
            ink = "#ffffff" if value is not None and abs(value) > 0.6 else "#222222"
            body.append(mark(tooltip, f'<rect class="cell" x="{x}" y="{y:.1f}" width="{cell}" height="{cell}" fill="{color}"/>',
                             f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="middle" '
                             f'fill="{ink}">{esc(fmt(value))}</text>'))
    size = label_width + cell * len(names) + 10
    return svg(size, top + cell * len(names) + 8, body, label)


# ----------------------------------------------------------------------------- tables


def _cell(value: object) -> str:
    cls = ' class="num"' if value is None or is_number(value) else ""
    return f"<td{cls}>{esc(fmt(value))}</td>"


def _head(column: str, compact: bool) -> str:
    """A column heading; `compact`: it may wrap after each underscore (a narrow table)."""
    return "<wbr>".join(esc(part) for part in re.split(r"(?<=_)", column)) if compact else esc(column)


def table(table_id: str, source: str, columns: list[str], rows: list[dict], where: dict | None = None,
          caption: str = "", limit: int | None = None, limit_per: tuple[str, ...] = (), order: str = "",
          compact: bool = False) -> str:
    """An HTML table of mart rows under the mart's column names. data-mart and data-where say which
    rows of which mart it shows (`where`: column = value filters; a list value: any of its values,
    None for null); data-order, when set, the order of its rows (e.g. "abs(difference) desc"), and
    data-limit with data-limit-per that it shows only the first `limit` rows of each value of the
    `limit_per` columns in that order. `compact`: the headings may wrap after an underscore."""
    where = where or {}
    caption = caption or (source + (" where " + ", ".join(f"{k} = {v}" for k, v in where.items()) if where else ""))
    head = "".join(f"<th>{_head(c, compact)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(_cell(row.get(c)) for c in columns) + "</tr>" for row in rows)
    return (f'<div class="table-wrap"><table id="{esc(table_id)}" data-mart="{esc(source)}" '
            f'data-where="{esc(json.dumps(where, default=str))}"'
            + (f' data-order="{esc(order)}"' if order else "")
            + (f' data-limit="{limit}" data-limit-per="{esc(",".join(limit_per))}"' if limit is not None else "")
            + f"><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")


def wide_table(table_id: str, source: str, keys: list[str], group_column: str, groups: list[object],
               values: list[str], rows: list[dict], where: dict, caption: str = "", compact: bool = False) -> str:
    """Rows of `source` side by side: one line per value of `keys`, and for each value of
    `group_column` (a header over its columns) the `values` columns."""
    lines: dict[tuple, dict] = {}
    for row in rows:
        lines.setdefault(tuple(row[k] for k in keys), {})[row[group_column]] = row
    head1 = "".join("<th></th>" for _ in keys) + "".join(
        f'<th colspan="{len(values)}" class="group">{esc(fmt(g))}</th>' for g in groups)
    head2 = "".join(f"<th>{_head(c, compact)}</th>" for c in keys) + "".join(
        f"<th>{_head(c, compact)}</th>" for _ in groups for c in values)
    body = []
    for key, by_group in lines.items():
        cells = "".join(_cell(v) for v in key)
        for group in groups:
            row = by_group.get(group)
            cells += "".join(_cell(row[c]) if row else "<td></td>" for c in values)
        body.append(f"<tr>{cells}</tr>")
    caption = caption or (source + " where " + ", ".join(f"{k} = {v}" for k, v in where.items())
                          + f", one column group per {group_column}")
    return (f'<div class="table-wrap"><table id="{esc(table_id)}" data-mart="{esc(source)}" '
            f'data-where="{esc(json.dumps(where, default=str))}" data-group-column="{esc(group_column)}">'
            f"<caption>{esc(caption)}</caption><thead><tr>{head1}</tr><tr>{head2}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


# ----------------------------------------------------------------------------- sections


@dataclass
class Section:
    anchor: str
    title: str
    sources: list[str]
    intro: str = ""
    parts: list[str] = field(default_factory=list)

    def note(self, message: str) -> None:
        self.parts.append(f'<p class="note">{esc(message)}</p>')

    def read(self, db: Database, *args):
        """``db.read(*args)``, or None with its message as the section's note when it cannot be read."""
        mart = db.read(*args)
        if isinstance(mart, str):
            self.note(mart)
            return None
        return mart

    def figure(self, *items: str, caption: str = "") -> None:
        self.parts.append('<div class="figure">' + (f"<h3>{esc(caption)}</h3>" if caption else "")
                          + '<div class="row">' + "".join(items) + "</div></div>")

    def html(self) -> str:
        return (f'<section id="{self.anchor}"><h2>{esc(self.title)}</h2>'
                f'<p class="source">Source: {esc(", ".join(self.sources))}</p>'
                + (f'<p class="intro">{esc(self.intro)}</p>' if self.intro else "")
                + "".join(self.parts) + "</section>")


def interval_tooltip(title: str, row: dict, value: str, lower: str, upper: str, *extra: str) -> str:
    lines = [title, f"{value} {fmt(row.get(value))}  [{lower} {fmt(row.get(lower))}, {upper} {fmt(row.get(upper))}]"]
    lines += [f"{c} {fmt(row.get(c))}" for c in extra]
    return "\n".join(lines)


def families_of(rows: list[dict], column: str = "family") -> list[str]:
    return sorted({r[column] for r in rows}, key=lambda f: order_key(FAMILY_ORDER, f))


METRIC_COLUMNS = ("family", "metric", "k", "slice_dimension", "slice_value", "value", "ci_lower", "ci_upper", "n_units")


def headline_rows(db: Database) -> tuple[list[dict], bool] | str:
    """The headline metrics: the rows of metric_values of the slice overall, by family, metric and
    K, and whether the mart has run_id; or a note why there are none."""
    mart = db.read("metric_values", METRIC_COLUMNS)
    if isinstance(mart, str):
        return mart
    rows = family_sort([r for r in mart.rows if r["slice_dimension"] == "overall"], "metric", "k")
    if not rows:
        return "metric_values has no rows of the slice overall: nothing to show."
    return rows, "run_id" in mart.columns


HEADLINE_K = 5   # the K of the verdict's headline table (the largest K there is when the build has no 5)


def headline_k(rows: list[dict]) -> int | None:
    """The K at which the verdict shows the retrieval metrics: HEADLINE_K, or the largest K built."""
    ks = {r["k"] for r in rows if r["k"] is not None}
    return HEADLINE_K if HEADLINE_K in ks else max(ks, default=None)


def section_headline(db: Database) -> Section:
    section = Section("headline", "Headline metrics", ["metric_values"],
                      "Every metric over all resolved records (slice overall), with its 95 % interval; one colour "
                      "per evaluation run, side by side.")
    found = headline_rows(db)
    if isinstance(found, str):
        section.note(found)
        return section
    rows, has_runs = found
    runs = runs_of(rows)
    run_column = ["run_id"] if has_runs else []
    for family in families_of(rows):
        members = [r for r in rows if r["family"] == family]
        by_key: dict[tuple, dict] = {}
        for r in members:
            by_key.setdefault((r["metric"], r["k"]), {})[str(r.get("run_id", ""))] = r
        chart_rows = []
        for (metric, k), by_run in by_key.items():
            label = metric_label({"metric": metric, "k": k})
            chart_rows.append(Row(label, [None if run not in by_run else Point(
                num(by_run[run]["value"]), num(by_run[run]["ci_lower"]), num(by_run[run]["ci_upper"]),
                interval_tooltip(f"{family}: {label}" + (f", run {run}" if run else ""), by_run[run], "value",
                                 "ci_lower", "ci_upper", "n_units")) for run in runs]))
        domain = domain_of([num(r[c]) for r in members for c in ("value", "ci_lower", "ci_upper")])
        section.figure(forest(chart_rows, run_series(runs), domain, f"{family} metrics"),
                       table(f"headline-metric_values-{len(section.parts)}", "metric_values",
                             run_column + ["family", "metric", "k", "value", "ci_lower", "ci_upper", "n_units"],
                             sorted(members, key=lambda r: str(r.get("run_id", "")).encode("utf-8")),
                             {"slice_dimension": "overall", "family": family}), caption=family)
    return section


def section_retrieval_k(db: Database) -> Section:
    section = Section("retrieval-k", "Retrieval measures against K", ["retrieval_metrics", "metric_values"],
                      "Each retrieval measure at every cut-off K, with the 95 % interval of metric_values (slice overall); "
                      "one chart per evaluation run.")
    mart = section.read(db, "retrieval_metrics", ("k",), "select * from {relation} order by k")
    if mart is None:
        return section
    rows = sorted(mart.rows, key=lambda r: (str(r.get("run_id", "")).encode("utf-8"), r["k"]))
    measures = [c for c in mart.columns if c.endswith("_at_k")]
    intervals = {}
    values = db.read("metric_values", METRIC_COLUMNS)
    if isinstance(values, Mart):
        intervals = {(str(r.get("run_id", "")), r["metric"], r["k"]): r for r in values.rows
                     if r["family"] == "retrieval" and r["slice_dimension"] == "overall"}
    charts = []
    runs = runs_of(rows)
    for run in runs:   # one chart per run: the measures of several runs on one chart would be crowded
        members = [r for r in rows if str(r.get("run_id", "")) == run]
        series = []
        for index, measure in enumerate(measures):
            metric = measure.removesuffix("_at_k")
            points = []
            for row in members:
                interval = intervals.get((run, metric, row["k"]), {})
                lower, upper = num(interval.get("ci_lower")), num(interval.get("ci_upper"))
                tooltip = ((f"run {run}: " if run else "") + f"{measure} at k = {row['k']}: {fmt(row[measure])}\n"
                           f"95 % interval (metric_values): [{fmt(lower)}, {fmt(upper)}]\n"
                           f"n_queries {fmt(row.get('n_queries'))}")
                points.append(Point(num(row[measure]), lower, upper, tooltip))
            series.append((measure, PALETTE[index % len(PALETTE)], points))
        domain = domain_of([p.upper for _, _, pts in series for p in pts] + [p.lower for _, _, pts in series for p in pts]
                           + [p.value for _, _, pts in series for p in pts])
        chart = line_chart([str(r["k"]) for r in members], series, domain,
                           "retrieval measures against K" + (f", run {run}" if run else ""), x_title="K", width=640,
                           height=300)
        charts.append((f"<div><h3>run {esc(run)}</h3>" if len(runs) > 1 else "<div>") + chart + "</div>")
    section.figure(*charts)
    section.figure(table("retrieval_k-retrieval_metrics", "retrieval_metrics", mart.columns, rows))
    return section


def section_slices(db: Database) -> Section:
    section = Section("slices", "Slices", ["metric_values"],
                      "Every metric per slice (language, tier, label source, ...) next to the overall value (grey), "
                      "with 95 % intervals.")
    mart = section.read(db, "metric_values", METRIC_COLUMNS)
    if mart is None:
        return section
    overall = {(str(r.get("run_id", "")), r["family"], r["metric"], r["k"]): r for r in mart.rows
               if r["slice_dimension"] == "overall"}
    run_column = ["run_id"] if "run_id" in mart.columns else []
    dimensions = sorted({r["slice_dimension"] for r in mart.rows if r["slice_dimension"] != "overall"},
                        key=lambda d: order_key(SLICE_ORDER, d))
    if not dimensions:
        section.note("metric_values has no slice besides overall: nothing to show.")
        return section
    for dimension in dimensions:
        rows = family_sort([r for r in mart.rows if r["slice_dimension"] == dimension], "metric", "k")
        rows.sort(key=lambda r: str(r.get("run_id", "")).encode("utf-8"))
        slice_values = sorted({r["slice_value"] for r in rows}, key=lambda v: (v is None, str(v)))
        series = [("overall", GREY)] + [(str(v), PALETTE[i % len(PALETTE)]) for i, v in enumerate(slice_values)]
        runs = runs_of(rows)
        for run in runs:   # one figure per run: the slices of several runs on one chart would be crowded
            charts = []
            for family in families_of([r for r in rows if str(r.get("run_id", "")) == run]):
                charts.append(slice_chart(rows, overall, series, slice_values, dimension, run, family))
            section.figure(*charts, caption=f"by {dimension}" + (f", run {run}" if len(runs) > 1 else ""))
        section.figure(wide_table(f"slices-metric_values-{len(section.parts)}", "metric_values",
                                  run_column + ["family", "metric", "k"], "slice_value", slice_values,
                                  ["value", "ci_lower", "ci_upper", "n_units"], rows, {"slice_dimension": dimension}))
    return section


def slice_chart(rows: list[dict], overall: dict, series: list, slice_values: list, dimension: str, run: str,
                family: str) -> str:
    """The forest plot of one family's metrics by the values of one slice dimension, in one run."""
    members = [r for r in rows if r["family"] == family and str(r.get("run_id", "")) == run]
    by_key: dict[tuple, dict] = {}
    for r in members:
        by_key.setdefault((r["metric"], r["k"]), {})[r["slice_value"]] = r
    chart_rows, numbers = [], []
    in_run = f", run {run}" if run else ""
    for (metric, k), by_value in by_key.items():
        label = metric_label({"metric": metric, "k": k})
        base = overall.get((run, family, metric, k))
        points: list[Point | None] = [
            Point(num(base["value"]), num(base["ci_lower"]), num(base["ci_upper"]),
                  interval_tooltip(f"{family}: {label}, overall{in_run}", base, "value", "ci_lower", "ci_upper",
                                   "n_units"))
            if base else None]
        for value in slice_values:
            r = by_value.get(value)
            points.append(None if r is None else Point(
                num(r["value"]), num(r["ci_lower"]), num(r["ci_upper"]),
                interval_tooltip(f"{family}: {label}, {dimension} = {value}{in_run}", r, "value", "ci_lower",
                                 "ci_upper", "n_units")))
        numbers += [c for p in points if p for c in (p.value, p.lower, p.upper)]
        chart_rows.append(Row(label, points))
    return (f"<div><h3>{esc(family)}</h3>"
            + forest(chart_rows, series, domain_of(numbers), f"{family} metrics by {dimension}{in_run}") + "</div>")


AGREEMENT_COLUMNS = ("task", "label", "tier", "n_units", "krippendorff_alpha", "alpha_ci_lower", "alpha_ci_upper",
                     "gwet_ac1", "ac1_ci_lower", "ac1_ci_upper", "alpha_target", "meets_target", "p_alpha_below_target")
SLICE_AGREEMENT_COLUMNS = ("task", "slice_dimension", "slice_value", "label", "tier", *AGREEMENT_COLUMNS[3:])
AGREEMENT_SLICES = ["language", "task_type"]     # the slice dimensions of the agreement marts (overall aside)


def overall_rows(rows: list[dict]) -> list[dict]:
    """The rows of the slice `overall` (all rows of a mart built before the agreement slices)."""
    return [r for r in rows if r.get("slice_dimension", "overall") == "overall"]


def below_target_first(rows: list[dict]) -> list[dict]:
    """Slice rows with the ones that miss the alpha target first (the lowest alpha first), then
    those without an alpha, then the ones that meet it."""
    def key(r: dict) -> tuple:
        alpha = num(r["krippendorff_alpha"])
        rank = 0 if r["meets_target"] is False else 1 if r["meets_target"] is None else 2
        return (rank, alpha if alpha is not None else 2.0, order_key(FAMILY_ORDER, r["task"]),
                str(r["slice_dimension"]), str(r["slice_value"]), str(r["label"]))
    return sorted(rows, key=key)


def slices_below_target(rows: list[dict]) -> str:
    """A sentence naming the task types and languages (tier all) with a label below the alpha target."""
    missed: dict[tuple, list[str]] = {}
    labels: dict[tuple, int] = {}
    for r in rows:
        group = (r["task"], r["slice_dimension"], r["slice_value"])
        labels[group] = labels.get(group, 0) + (r["krippendorff_alpha"] is not None)
        if r["meets_target"] is False:
            missed.setdefault(group, []).append(str(r["label"]))
    if not missed:
        return "Every task type and language meets the alpha target on every label with an alpha (tier all)."
    parts = [f"{task} · {dimension} {value} ({len(names)} of {labels[(task, dimension, value)]} labels: "
             f"{', '.join(sorted(names))})" for (task, dimension, value), names in missed.items()]
    return "Below the alpha target (tier all): " + "; ".join(parts) + "."


def section_agreement(db: Database) -> Section:
    section = Section("agreement", "Annotator agreement", ["annotator_agreement"],
                      "The task types and languages below the alpha target first; then Krippendorff's alpha and "
                      "Gwet's AC1 per task, label and tier (overall) with their 95 % intervals, against the alpha "
                      "target (dashed); a hollow alpha point misses the target.")
    mart = section.read(db, "annotator_agreement", AGREEMENT_COLUMNS)
    if mart is None:
        return section
    slices = below_target_first([r for r in mart.rows if r.get("slice_dimension") in AGREEMENT_SLICES
                                 and r["tier"] == "all"])
    if slices:
        section.note(slices_below_target(slices))
        section.figure(table("agreement-slices", "annotator_agreement", list(SLICE_AGREEMENT_COLUMNS), slices,
                             {"tier": "all", "slice_dimension": AGREEMENT_SLICES},
                             caption="annotator_agreement per task type and language (tier all), below target first"))
    rows = family_sort(overall_rows(mart.rows), "label", "tier")
    charts = []
    for task in families_of(rows, "task"):
        members = [r for r in rows if r["task"] == task]
        chart_rows, numbers = [], []
        for r in members:
            title = f"{task}: {r['label']}, tier {r['tier']}"
            alpha = Point(num(r["krippendorff_alpha"]), num(r["alpha_ci_lower"]), num(r["alpha_ci_upper"]),
                          interval_tooltip(title, r, "krippendorff_alpha", "alpha_ci_lower", "alpha_ci_upper", "alpha_target",
                                           "meets_target", "p_alpha_below_target", "n_units"),
                          hollow=r["meets_target"] is False)
            ac1 = Point(num(r["gwet_ac1"]), num(r["ac1_ci_lower"]), num(r["ac1_ci_upper"]),
                        interval_tooltip(title, r, "gwet_ac1", "ac1_ci_lower", "ac1_ci_upper", "n_units"))
            numbers += [alpha.value, alpha.lower, alpha.upper, ac1.value, ac1.lower, ac1.upper]
            chart_rows.append(Row(f"{r['label']} · {r['tier']}", [alpha, ac1]))
        targets = sorted({num(r["alpha_target"]) for r in members} - {None})
        charts.append(f"<div><h3>{esc(task)}</h3>" + forest(
            chart_rows, [("krippendorff_alpha", PALETTE[0]), ("gwet_ac1", PALETTE[1])],
            domain_of(numbers + targets), f"{task} agreement", [(t, "alpha_target") for t in targets]) + "</div>")
    section.figure(*charts)
    section.figure(table("agreement-annotator_agreement", "annotator_agreement", list(AGREEMENT_COLUMNS), rows,
                         overall_where(mart)))
    return section


def overall_where(mart: Mart) -> dict:
    """The `where` of a table of a mart's overall rows (none for a mart built before the slices)."""
    return {"slice_dimension": "overall"} if "slice_dimension" in mart.columns else {}


PAIR_COLUMNS = ("task", "label", "annotator_a", "annotator_b", "n_shared_units", "observed_agreement", "cohen_kappa",
                "kappa_ci_lower", "kappa_ci_upper")


def section_pairs(db: Database) -> Section:
    section = Section("pair-kappas", "Pairwise kappas", ["annotator_pair_agreement"],
                      "Cohen's kappa of every pair of annotators per task and label (blue: agreement beyond chance, "
                      "red: below; grey: no kappa).")
    mart = section.read(db, "annotator_pair_agreement", PAIR_COLUMNS)
    if mart is None:
        return section
    rows = family_sort(overall_rows(mart.rows), "label", "annotator_a", "annotator_b")
    for task in families_of(rows, "task"):
        members = [r for r in rows if r["task"] == task]
        names = sorted({str(r[c]) for r in members for c in ("annotator_a", "annotator_b")})
        maps = []
        for label in sorted({r["label"] for r in members}):
            cells = {}
            for r in (r for r in members if r["label"] == label):
                i, j = names.index(str(r["annotator_a"])), names.index(str(r["annotator_b"]))
                if i == j:
                    continue
                cells[(min(i, j), max(i, j))] = (num(r["cohen_kappa"]), interval_tooltip(
                    f"{task}: {label}, {r['annotator_a']} × {r['annotator_b']}", r, "cohen_kappa", "kappa_ci_lower",
                    "kappa_ci_upper", "n_shared_units", "observed_agreement"))
            maps.append(f"<div><h3>{esc(label)}</h3>{heatmap(names, cells, f'{task} {label} pair kappas')}</div>")
        section.figure(*maps, caption=task)
    section.figure(table("pair_kappas-annotator_pair_agreement", "annotator_pair_agreement", list(PAIR_COLUMNS), rows,
                         overall_where(mart)))
    return section


PROTOCOL_COLUMNS = ("task", "tier", "n_records", "share_of_records", "target_share_of_records", "n_dual_annotated",
                    "dual_annotation_rate", "spot_check_rate_target", "n_disagreeing", "n_adjudicated", "n_pending",
                    "n_labels_with_alpha", "min_krippendorff_alpha", "min_alpha_ci_lower", "alpha_target",
                    "meets_alpha_target", "max_p_alpha_below_target", "labeling_cost")
# ADR-001's plan: the cases against the targets, on the tier `all` rows (null on the others)
PLAN_COLUMNS = ("n_gold_cases", "gold_target_cases", "n_gold_cases_needed", "n_high_stakes_cases",
                "gold_target_high_stakes", "n_high_stakes_cases_needed", "cost_per_case", "target_cost_per_case")


def section_protocol(db: Database) -> Section:
    section = Section("protocol", "Labeling protocol", ["labeling_protocol"],
                      "ADR-001 per family and tier: the share of records against the gold-share target, the "
                      "dual-annotation (spot-check) rate against its target, the weakest label's alpha against the "
                      "alpha target (targets as black ticks), and the labeling cost.")
    mart = section.read(db, "labeling_protocol", PROTOCOL_COLUMNS)
    if mart is None:
        return section
    rows = family_sort(overall_rows(mart.rows), "tier")
    tiers = sorted({r["tier"] for r in rows})
    colors = {t: PALETTE[i % len(PALETTE)] for i, t in enumerate(tiers)}
    names = [f"{r['task']} · {r['tier']}" for r in rows]

    def bars(value: str, target: str | None, title: str, domain: tuple[float, float] | None = None) -> str:
        tips = [f"{n}\n{value} {fmt(r[value])}" + (f"\n{target} {fmt(r[target])}" if target else "") for n, r in zip(names, rows)]
        numbers = [num(r[value]) for r in rows] + ([num(r[target]) for r in rows] if target else [])
        chart = bar_chart([(n, num(r[value]), tip, colors[r["tier"]]) for n, r, tip in zip(names, rows, tips)],
                          domain or domain_of(numbers), title, [num(r[target]) for r in rows] if target else None)
        return f"<div><h3>{esc(value)}</h3>{chart}</div>"

    section.figure(bars("share_of_records", "target_share_of_records", "share of records against the target"),
                   bars("dual_annotation_rate", "spot_check_rate_target", "dual-annotation rate against the spot-check target"),
                   bars("min_krippendorff_alpha", "alpha_target", "weakest alpha against the target"),
                   bars("labeling_cost", None, "labeling cost",
                        domain_of([num(r["labeling_cost"]) for r in rows], (0, 0))))
    plan = [c for c in PLAN_COLUMNS if c in mart.columns]
    section.figure(table("protocol-labeling_protocol", "labeling_protocol", list(PROTOCOL_COLUMNS) + plan, rows,
                         overall_where(mart)))
    by_type = family_sort([r for r in mart.rows if r.get("slice_dimension") == "task_type"], "slice_value", "tier")
    if by_type:
        section.note("Per task type (ADR-001 tracks alpha per task type): on each task type's tier all row, its "
                     "share of the plan's cases (gold_target_cases; the high-stakes task types share "
                     "gold_target_high_stakes) and how many more resolved cases it needs.")
        section.figure(table("protocol-task-types", "labeling_protocol",
                             ["task", "slice_value", *PROTOCOL_COLUMNS[1:], *plan], by_type,
                             {"slice_dimension": "task_type"}))
    return section


DRIFT_COLUMNS = ("task", "iso_week", "week_start", "n_spot_checked_units", "n_disagreeing_units", "disagreement_rate",
                 "previous_week_disagreement_rate", "drift_threshold", "is_above_threshold", "is_drift_alert",
                 "n_triage_units", "has_too_few_spot_checks", "is_reversal_triggered")


def section_drift(db: Database) -> Section:
    section = Section("drift", "Drift timeline", ["labeling_drift"],
                      "The weekly disagreement rate of the triage spot-checks against the drift threshold (dashed); "
                      "shaded weeks raise a drift alert (above the threshold two weeks running, each week on at "
                      "least drift_min_spot_checks spot-checked units), hollow points are above the threshold; a week "
                      "with triage votes but no spot-check has no point (has_too_few_spot_checks in the table).")
    mart = section.read(db, "labeling_drift", DRIFT_COLUMNS)
    if mart is None:
        return section
    rows = family_sort(mart.rows, "week_start")
    charts = []
    for task in families_of(rows, "task"):
        members = [r for r in rows if r["task"] == task]
        weeks = [str(r["iso_week"]) for r in members]
        points = [Point(num(r["disagreement_rate"]), tooltip="\n".join(
            [f"{task}: {r['iso_week']} (from {fmt(r['week_start'])})"]
            + [f"{c} {fmt(r[c])}" for c in DRIFT_COLUMNS[3:]]), hollow=bool(r["is_above_threshold"])) for r in members]
        thresholds = sorted({num(r["drift_threshold"]) for r in members} - {None})
        alerts = [(i, f"{task}: drift alert in {r['iso_week']}") for i, r in enumerate(members) if r["is_drift_alert"]]
        charts.append(f"<div><h3>{esc(task)}</h3>" + line_chart(
            weeks, [("disagreement_rate", PALETTE[0], points)], domain_of([p.value for p in points] + thresholds),
            f"{task} drift", [(t, "drift_threshold") for t in thresholds], alerts, "ISO week",
            width=max(360, 70 * len(weeks) + 60)) + "</div>")
    section.figure(*charts)
    section.figure(table("drift-labeling_drift", "labeling_drift", list(DRIFT_COLUMNS), rows))
    return section


JUDGE_COLUMNS = ("annotator_id", "task", "label", "tier", "n_units", "accuracy", "cohen_kappa", "kappa_ci_lower",
                 "kappa_ci_upper", "precision", "recall", "f1")
WEIGHT_COLUMNS = ("annotator_id", "annotator_kind", "task", "n_gold_units", "n_gold_labels", "gold_kappa", "weight",
                  "min_kappa", "is_within_kappa_bounds", "n_alpha_labels", "n_alpha_labels_out_of_bounds",
                  "min_alpha_margin", "is_within_alpha_bounds", "bound", "is_within_bounds")


def section_judges(db: Database) -> Section:
    section = Section("judge-calibration", "Judge calibration", ["judge_agreement", "judge_weights"],
                      "Each judge against the human consensus per task and label: Cohen's kappa with its 95 % interval "
                      "and F1, for all units and for the gold tier; then each judge's weight per task, and whether it is "
                      "within its agreement bound (by default the alpha bound: adding the judge as one more coder "
                      "keeps the gold tier's alpha at or above the humans' own lower bound; judges out of bounds, in "
                      "grey, do not vote).")
    weights = db.read("judge_weights", WEIGHT_COLUMNS)
    min_kappas = sorted({num(r["min_kappa"]) for r in weights.rows} - {None}) if isinstance(weights, Mart) else []
    mart = db.read("judge_agreement", JUDGE_COLUMNS)
    if isinstance(mart, str):
        section.note(mart)
    else:
        rows = family_sort(overall_rows(mart.rows), "label", "annotator_id", "tier")
        tiers = sorted({r["tier"] for r in rows})
        series = [(str(t), PALETTE[i % len(PALETTE)]) for i, t in enumerate(tiers)]
        for task in families_of(rows, "task"):
            members = [r for r in rows if r["task"] == task]
            by_key: dict[tuple, dict] = {}
            for r in members:
                by_key.setdefault((r["label"], r["annotator_id"]), {})[r["tier"]] = r

            def points(by_tier: dict, value: str, lower: str | None, upper: str | None, task: str = task) -> list:
                out = []
                for tier in tiers:
                    r = by_tier.get(tier)
                    if r is None:
                        out.append(None)
                        continue
                    title = f"{task}: {r['label']}, {r['annotator_id']}, tier {tier}"
                    tip = "\n".join([title] + [f"{c} {fmt(r[c])}" for c in JUDGE_COLUMNS[4:]])
                    out.append(Point(num(r[value]), num(r[lower]) if lower else None, num(r[upper]) if upper else None, tip))
                return out

            kappa_rows = [Row(f"{judge}", points(t, "cohen_kappa", "kappa_ci_lower", "kappa_ci_upper"), group=label)
                          for (label, judge), t in by_key.items()]
            f1_rows = [Row(f"{judge}", points(t, "f1", None, None), group=label) for (label, judge), t in by_key.items()]
            kappa_numbers = [num(r[c]) for r in members for c in ("cohen_kappa", "kappa_ci_lower", "kappa_ci_upper")]
            section.figure(
                "<div><h3>cohen_kappa</h3>" + forest(kappa_rows, series, domain_of(kappa_numbers + min_kappas),
                                                     f"{task} judge kappas", [(m, "min_kappa") for m in min_kappas],
                                                     width=520) + "</div>",
                "<div><h3>f1</h3>" + forest(f1_rows, series, domain_of([num(r["f1"]) for r in members]),
                                            f"{task} judge F1", width=420) + "</div>",
                caption=task)
        section.figure(table("judges-judge_agreement", "judge_agreement", list(JUDGE_COLUMNS), rows,
                             overall_where(mart)))
    if isinstance(weights, str):
        section.note(weights)
    else:
        rows = sorted(weights.rows, key=lambda r: (order_key(FAMILY_ORDER, r["task"]), str(r["annotator_id"])))
        bars = [(f"{r['task']} · {r['annotator_id']}", num(r["weight"]),
                 "\n".join([f"{r['task']}: {r['annotator_id']} ({r['annotator_kind']})"]
                           + [f"{c} {fmt(r[c])}" for c in WEIGHT_COLUMNS[3:]]),
                 PALETTE[0] if r["is_within_bounds"] else GREY) for r in rows]
        chart = bar_chart(bars, domain_of([b[1] for b in bars] + [num(r["min_kappa"]) for r in rows]),
                          "judge weights", [num(r["min_kappa"]) for r in rows], width=520)
        section.figure(f"<div><h3>weight (tick: min_kappa)</h3>{chart}</div>",
                       table("judges-judge_weights", "judge_weights", list(WEIGHT_COLUMNS), rows))
    return section


BIAS_COLUMNS = ("run_id", "annotator_id", "annotator_kind", "family", "metric", "k", "n_records", "judge_value", "judge_ci_lower",
                "judge_ci_upper", "judge_n_units", "human_value", "human_ci_lower", "human_ci_upper", "human_n_units",
                "difference")


def section_bias(db: Database) -> Section:
    section = Section("judge-bias", "Judge bias", ["judge_metric_values"],
                      "Each metric from a judge's labels (colour) against the same records' human value (grey), with "
                      "95 % intervals; difference = judge_value − human_value.")
    mart = section.read(db, "judge_metric_values", BIAS_COLUMNS[1:])
    if mart is None:
        return section
    rows = family_sort(mart.rows, "annotator_id", "metric", "k")
    rows.sort(key=lambda r: str(r.get("run_id", "")).encode("utf-8"))
    several_runs = len(runs_of(rows)) > 1
    charts = []
    for index, judge in enumerate(sorted({str(r["annotator_id"]) for r in rows})):
        members = [r for r in rows if str(r["annotator_id"]) == judge]
        chart_rows, numbers = [], []
        for r in members:
            in_run = f", run {r['run_id']}" if r.get("run_id") is not None else ""
            title = f"{judge}: {r['family']}, {metric_label(r)}{in_run}"
            extra = ("difference", "n_records")
            human = Point(num(r["human_value"]), num(r["human_ci_lower"]), num(r["human_ci_upper"]),
                          interval_tooltip(title, r, "human_value", "human_ci_lower", "human_ci_upper", "human_n_units", *extra))
            judged = Point(num(r["judge_value"]), num(r["judge_ci_lower"]), num(r["judge_ci_upper"]),
                           interval_tooltip(title, r, "judge_value", "judge_ci_lower", "judge_ci_upper", "judge_n_units", *extra))
            numbers += [human.value, human.lower, human.upper, judged.value, judged.lower, judged.upper]
            chart_rows.append(Row(metric_label(r) + (f" · {r['run_id']}" if several_runs else ""), [human, judged],
                                  group=str(r["family"])))
        charts.append(f"<div><h3>{esc(judge)}</h3>" + forest(
            chart_rows, [("human_value", GREY), ("judge_value", PALETTE[(index + 1) % len(PALETTE)])],
            domain_of(numbers), f"{judge} against the humans", width=480) + "</div>")
    section.figure(*charts)
    section.figure(table("bias-judge_metric_values", "judge_metric_values",
                         [c for c in BIAS_COLUMNS if c in mart.columns], rows))
    return section


POWERED_COLUMNS = ("run_id", "annotator_id", "annotator_kind", "family", "metric", "k", "n_labeled", "n_unlabeled",
                   "human_value", "human_ci_lower", "human_ci_upper", "judge_value", "judge_ci_lower", "judge_ci_upper",
                   "ppi_value", "ppi_ci_lower", "ppi_ci_upper", "lambda", "effective_n", "width_ratio")
RANDOM_SHARE = ("The judge-powered numbers assume that the humans labelled a random share of the run's records "
                "(of the slice): records routed to humans by rules, as ADR-001's gold routing by task type, "
                "uncertainty or flag routes them, are not a random share, and then only a slice by the routing "
                "variable, or a random spot-check sample, is an honest reading.")


def worth_sentence(run: object, judge: object, family: str, members: list[dict]) -> str:
    """How many human labels a judge is worth on one run's headline metrics of one family."""
    worth = sorted(round(num(r["effective_n"])) for r in members if r["effective_n"] is not None)
    n = sorted({int(r["n_labeled"]) for r in members})
    big_n = sorted({int(r["n_unlabeled"]) for r in members})
    counts = f"n = {'–'.join(map(str, (n[0], n[-1])) if n[0] != n[-1] else [str(n[0])])} human-labelled, " \
             f"N = {'–'.join(map(str, (big_n[0], big_n[-1])) if big_n[0] != big_n[-1] else [str(big_n[0])])} judge-only records"
    if not worth:
        return f"{run}, {judge}, {family} ({counts}): no effective_n (no spread in the judge-powered estimate)."
    span = str(worth[0]) if worth[0] == worth[-1] else f"{worth[0]} to {worth[-1]}"
    return (f"{run}, {judge}, {family} ({counts}): the judge-powered intervals are as narrow as {span} "
            f"human labels alone would give (effective_n over {len(worth)} headline "
            f"metric{'' if len(worth) == 1 else 's'}).")


def section_judge_powered(db: Database) -> Section:
    section = Section("judge-powered", "Judge-powered metrics", ["judge_powered_metric_values"],
                      "Per run, judge and headline metric (slice overall, retrieval at one K), three numbers with "
                      "their 95 % intervals: the humans on the n records they labelled (grey), the judge alone on "
                      "those and the N records of the run only judges labelled (orange: it keeps the judge's bias), "
                      "and the judge-powered estimate (blue: prediction-powered inference, PPI++, the judge's mean "
                      "corrected by its error on the humans' records). effective_n is how many human labels alone "
                      "would give the judge-powered width. " + RANDOM_SHARE)
    mart = section.read(db, "judge_powered_metric_values", POWERED_COLUMNS)
    if mart is None:
        return section
    overall = [r for r in mart.rows if r["slice_dimension"] == "overall"]
    k = headline_k(overall)
    rows = family_sort([r for r in overall if r["k"] is None or r["k"] == k], "annotator_id", "metric", "k")
    rows.sort(key=lambda r: str(r["run_id"]).encode("utf-8"))
    if not rows:
        section.note("judge_powered_metric_values has no rows of the slice overall: nothing to show.")
        return section
    sentences, charts = [], []
    series = [("human_value", GREY), ("judge_value", PALETTE[1]), ("ppi_value", PALETTE[0])]
    for run in runs_of(rows):
        in_run = [r for r in rows if r["run_id"] == run]
        chart_rows, numbers = [], []
        for judge in sorted({str(r["annotator_id"]) for r in in_run}):
            for family in families_of([r for r in in_run if str(r["annotator_id"]) == judge]):
                members = [r for r in in_run if str(r["annotator_id"]) == judge and r["family"] == family]
                sentences.append(worth_sentence(run, judge, family, members))
                for r in members:
                    title = f"{judge}: {family}, {metric_label(r)}, run {run}"
                    extra = ("n_labeled", "n_unlabeled", "lambda", "effective_n")
                    points = [Point(num(r[f"{name}_value"]), num(r[f"{name}_ci_lower"]), num(r[f"{name}_ci_upper"]),
                                    interval_tooltip(title, r, f"{name}_value", f"{name}_ci_lower", f"{name}_ci_upper",
                                                     *extra)) for name in ("human", "judge", "ppi")]
                    numbers += [p for point in points for p in (point.value, point.lower, point.upper)]
                    chart_rows.append(Row(f"{metric_label(r)} · {judge}", points, group=f"{judge}, {family}"))
        charts.append(f"<div><h3>{esc(run)}</h3>" + forest(chart_rows, series, domain_of(numbers),
                                                           f"judge-powered metrics of {run}", width=520) + "</div>")
    section.parts.append('<ul class="sentences">' + "".join(f'<li class="worth">{esc(t)}</li>' for t in sentences)
                         + f'<li class="assumption">{esc(RANDOM_SHARE)}</li></ul>')
    section.figure(*charts)
    where = {"slice_dimension": "overall", "k": [k, None]} if k is not None else {"slice_dimension": "overall"}
    section.figure(table("judge-powered-judge_powered_metric_values", "judge_powered_metric_values",
                         list(POWERED_COLUMNS), rows, where, compact=True))
    return section


QUARANTINE_SHARE_NOTE = ("The share of each export that was rejected is not shown: this database has no "
                         "export_row_counts mart (built by an older ragmart?), which holds the rows of each export.")
EXPORT_COUNT_COLUMNS = ("task", "n_rows", "n_accepted", "n_superseded", "n_rejected", "rejected_share")
# shown when the database has them (a database built before the daily-export rules has not)
EXPORT_COPY_COLUMNS = ("n_repeated", "n_blank")


@dataclass
class Quarantine:
    """The rejected rows of rejected_annotations per task, and per task and reason code."""
    by_task: list[dict]     # task, n_rows
    by_reason: list[dict]   # task, reason, n_rows


def quarantine_counts(db: Database) -> Quarantine | str:
    """The counts of the quarantine (a row with several reason codes counts under each), or a note."""
    mart = db.read("rejected_annotations", ("task", "reasons"),
                   "select task, reasons, count(*) as n_rows from {relation} group by task, reasons")
    if isinstance(mart, str):
        return mart
    by_task: dict[object, int] = {}
    by_reason: dict[tuple, int] = {}
    for r in mart.rows:
        by_task[r["task"]] = by_task.get(r["task"], 0) + r["n_rows"]
        for code in (r["reasons"] or "").split(";") if r["reasons"] else [None]:
            by_reason[(r["task"], code)] = by_reason.get((r["task"], code), 0) + r["n_rows"]
    tasks = sorted(by_task, key=lambda t: order_key(FAMILY_ORDER, t))
    return Quarantine([{"task": t, "n_rows": by_task[t]} for t in tasks],
                      [{"task": t, "reason": c, "n_rows": n} for (t, c), n in
                       sorted(by_reason.items(), key=lambda i: (order_key(FAMILY_ORDER, i[0][0]), -i[1], str(i[0][1])))])


def export_counts(db: Database) -> list[dict] | None:
    """The rows of export_row_counts (every input's rows, accepted, superseded, rejected and the rejected
    share), in family order; None when the database has no such mart (then no share is shown)."""
    mart = db.read("export_row_counts", EXPORT_COUNT_COLUMNS)
    if isinstance(mart, str):
        return None
    return sorted(mart.rows, key=lambda r: order_key(FAMILY_ORDER, r["task"]))


def share_sentence(row: dict) -> str:
    """`retrieval: 26 of 1,499 rows rejected (1.7 %)`."""
    return (f"{row['task']}: {row['n_rejected']:,} of {row['n_rows']:,} rows rejected"
            f" ({100 * row['rejected_share']:.1f} %)")


def section_quarantine(db: Database) -> Section:
    section = Section("quarantine", "Quarantine", ["export_row_counts", "rejected_annotations"],
                      "The rows of each export and the share rejected, then the rejected rows per reason code (a row "
                      "with several codes counts under each).")
    exports = export_counts(db)
    if exports is not None:
        copies = [c for c in EXPORT_COPY_COLUMNS if exports and c in exports[0]]
        section.figure(table("quarantine-exports", "export_row_counts", list(EXPORT_COUNT_COLUMNS) + copies, exports,
                             caption="export_row_counts: the rows of each input, how many were rejected, and the "
                                     "exact copies left out and blank rows skipped"))
    else:
        section.note(QUARANTINE_SHARE_NOTE)
    counts = quarantine_counts(db)
    if isinstance(counts, str):
        section.note(counts)
        return section
    shares = {r["task"]: r for r in exports or []}
    charts = []
    for task_row in counts.by_task:
        task = task_row["task"]
        members = [r for r in counts.by_reason if r["task"] == task]
        bars = [(fmt(r["reason"]), float(r["n_rows"]), f"{task}: {fmt(r['reason'])}\nn_rows {r['n_rows']}", PALETTE[5])
                for r in members]
        heading = share_sentence(shares[task]) if task in shares else f"{task}: {task_row['n_rows']} rows"
        charts.append(f"<div><h3>{esc(heading)}</h3>"
                      + bar_chart(bars, domain_of([b[1] for b in bars], (0, 1)), f"{task} rejected rows by reason",
                                  whole=True) + "</div>")
    section.figure(*charts)
    section.figure(table("quarantine-by-task", "rejected_annotations", ["task", "n_rows"], counts.by_task,
                         caption="rejected_annotations: rows per task"),
                   table("quarantine-by-reason", "rejected_annotations", ["task", "reason", "n_rows"], counts.by_reason,
                         caption="rejected_annotations: rows per task and reason code (reasons split at ;)"))
    return section


RUN_MARTS = ("run_comparison", "run_comparison_queries")
COMPARISON_KEY = ("baseline_run_id", "candidate_run_id", "family", "metric", "k", "slice_dimension", "slice_value")
COMPARISON_COLUMNS = (*COMPARISON_KEY, "n_pairs", "n_baseline_only", "n_candidate_only", "baseline_value",
                      "candidate_value", "difference", "difference_ci_lower", "difference_ci_upper", "higher_is_better",
                      "n_wins", "n_ties", "n_losses", "p_value", "p_value_method", "p_value_holm", "is_significant",
                      "adjusted_ci_lower", "adjusted_ci_upper", "baseline_source")
QUERY_COLUMNS = ("baseline_run_id", "candidate_run_id", "family", "metric", "k", "pairing_key", "query_text",
                 "baseline_value", "candidate_value", "difference", "outcome", "baseline_record_uuids",
                 "candidate_record_uuids")
# the regression list's columns: the measure and how much worse first, then the query and its records
REGRESSION_COLUMNS = ("family", "metric", "k", "difference", "baseline_value", "candidate_value", "outcome", "query_text",
                      "baseline_record_uuids", "candidate_record_uuids", "pairing_key")
MEASURE = ("family", "metric", "k")
REGRESSION_ROWS = 20   # the regression list: the worst losses of each measure of each compared pair of runs
# The colours of a significant difference in the run comparison's forest plot, by verdict.
VERDICT_COLORS = {"better": PALETTE[0], "worse": PALETTE[5]}


def pair_order(pair: tuple) -> tuple:
    return tuple(str(run).encode("utf-8") for run in pair)


def verdict_of(row: dict) -> str | None:
    """`better` or `worse`: the candidate's side of a row of run_comparison in the measure's direction
    (higher_is_better and the sign of difference); None without a difference or a direction."""
    difference, higher_is_better = num(row.get("difference")), row.get("higher_is_better")
    if difference is None or higher_is_better is None or difference == 0:
        return None
    return "better" if (difference > 0) == bool(higher_is_better) else "worse"


def signed(value: object) -> str:
    """A difference as a sentence shows it: 3 decimals as in the tables, with its sign (+ or −)."""
    shown = fmt(value)
    number = num(value)
    if number is not None and number > 0 and shown != "0.000":
        shown = "+" + shown
    return shown.replace("-", "−")


def direction_note(row: dict) -> str:
    return " (lower is better)" if row.get("higher_is_better") is False else ""


def verdict_sentence(row: dict, verdict: str) -> str:
    """E.g. "bot-v2 is better than bot-v1 on misleading_context_rate@5: −0.068 [−0.119, −0.017] adjusted,
    p_holm 0.010 (lower is better)": the numbers as the table beside it shows them, with the interval
    adjusted for the measures of the comparison, as the verdict is (scripts/show_metrics.py says it alike)."""
    interval = ("" if row["adjusted_ci_lower"] is None else
                f" [{fmt(row['adjusted_ci_lower']).replace('-', '−')}, {fmt(row['adjusted_ci_upper']).replace('-', '−')}]"
                " adjusted")
    return (f"{row['candidate_run_id']} is {verdict} than {row['baseline_run_id']} on {metric_label(row)}: "
            f"{signed(row['difference'])}{interval}, p_holm {fmt(row['p_value_holm'])}" + direction_note(row))


def comparison_tooltip(r: dict) -> str:
    verdict = verdict_of(r) if r["is_significant"] is True else None
    return "\n".join([
        f"{r['candidate_run_id']} − {r['baseline_run_id']}: {r['family']}, {metric_label(r)}",
        f"difference {fmt(r['difference'])}  [difference_ci_lower {fmt(r['difference_ci_lower'])}, "
        f"difference_ci_upper {fmt(r['difference_ci_upper'])}]; adjusted for the comparison's measures "
        f"[adjusted_ci_lower {fmt(r['adjusted_ci_lower'])}, adjusted_ci_upper {fmt(r['adjusted_ci_upper'])}]",
        f"higher_is_better {fmt(r['higher_is_better'])}"
        + (": a negative difference is an improvement" if r["higher_is_better"] is False else ""),
        f"baseline_value {fmt(r['baseline_value'])}, candidate_value {fmt(r['candidate_value'])}",
        f"p_value {fmt(r['p_value'])} ({fmt(r['p_value_method'])}), p_value_holm {fmt(r['p_value_holm'])}, "
        f"is_significant {fmt(r['is_significant'])}" + (f": the candidate is {verdict}" if verdict else ""),
        f"n_pairs {fmt(r['n_pairs'])}: n_wins {fmt(r['n_wins'])} (candidate better), n_ties {fmt(r['n_ties'])}, "
        f"n_losses {fmt(r['n_losses'])} (candidate worse)",
    ])


def regression_order(row: dict) -> tuple:
    """The regression list's order: per measure (family, metric, K), the worst loss first (the
    largest abs(difference)), then by pairing_key."""
    difference = num(row["difference"])
    return (order_key(FAMILY_ORDER, row["family"]), str(row["metric"]), row["k"] is not None, row["k"] or 0,
            -abs(difference) if difference is not None else 0.0, str(row["pairing_key"]).encode("utf-8"))


def section_runs(db: Database) -> Section:
    section = Section("runs", "Run comparison", list(RUN_MARTS),
                      "Each evaluation run against the baseline run, per measure over the queries both answered: the "
                      "difference candidate − baseline with its 95 % interval. The difference keeps its sign; for the "
                      "measures marked ↓ (higher_is_better false) a lower value is better, so a negative difference "
                      "is an improvement. Filled: significant after Holm's adjustment (blue: the candidate is better, "
                      "vermillion: worse, in the measure's direction); hollow grey: not significant; dashed: no difference. "
                      "n_wins and n_losses count the queries on which the candidate is better and worse in that "
                      "direction. Then the regression list: the losses (the queries on which the candidate is worse), "
                      "worst first per measure.")
    if not any(db.has(name) for name in RUN_MARTS):
        section.note("The marts run_comparison and run_comparison_queries are not in this database: no run comparison to show.")
        return section
    mart = db.read("run_comparison", COMPARISON_COLUMNS)
    if isinstance(mart, str):
        section.note(mart)
    else:
        pairs = sorted({(r["baseline_run_id"], r["candidate_run_id"]) for r in mart.rows}, key=pair_order)
        for baseline, candidate in pairs:
            rows = family_sort([r for r in mart.rows if (r["baseline_run_id"], r["candidate_run_id"]) == (baseline, candidate)],
                               "metric", "k", "slice_dimension", "slice_value")
            overall = [r for r in rows if r["slice_dimension"] == "overall"]
            if overall:
                chart_rows = []
                for r in overall:
                    significant = r["is_significant"] is True
                    point = Point(num(r["difference"]), num(r["difference_ci_lower"]), num(r["difference_ci_upper"]),
                                  comparison_tooltip(r), hollow=not significant,
                                  color=VERDICT_COLORS.get(verdict_of(r)) if significant else GREY)
                    label = metric_label(r) + (" ↓" if r["higher_is_better"] is False else "")
                    chart_rows.append(Row(label, [point], group=str(r["family"])))
                numbers = [num(r[c]) for r in overall for c in ("difference", "difference_ci_lower", "difference_ci_upper")]
                chart = forest(chart_rows, [("difference", PALETTE[0])], domain_of(numbers, (0.0, 0.0)),
                               f"{candidate} against {baseline}", [(0.0, "no difference")], width=560,
                               legend_items=[(f"{candidate} better (significant)", VERDICT_COLORS["better"]),
                                             (f"{candidate} worse (significant)", VERDICT_COLORS["worse"])])
                section.figure(chart, caption=f"{candidate} against the baseline {baseline} (slice overall; ↓: lower "
                                              "is better)")
            for dimension in sorted({r["slice_dimension"] for r in rows}, key=lambda d: (d != "overall", str(d))):
                where = {"baseline_run_id": baseline, "candidate_run_id": candidate, "slice_dimension": dimension}
                section.figure(table(f"runs-run_comparison-{len(section.parts)}", "run_comparison",
                                     list(COMPARISON_COLUMNS[2:]), [r for r in rows if r["slice_dimension"] == dimension],
                                     where))
    queries = db.read("run_comparison_queries", QUERY_COLUMNS,
                      "select * from {relation} where outcome = 'loss'")
    if isinstance(queries, str):
        section.note(queries.replace("has no rows", "has no loss (outcome = 'loss')"))
        return section
    pairs = sorted({(r["baseline_run_id"], r["candidate_run_id"]) for r in queries.rows}, key=pair_order)
    for baseline, candidate in pairs:
        losses = sorted((r for r in queries.rows if (r["baseline_run_id"], r["candidate_run_id"]) == (baseline, candidate)),
                        key=regression_order)
        shown, per_measure = [], {}
        for r in losses:
            measure = tuple(r[c] for c in MEASURE)
            per_measure[measure] = per_measure.get(measure, 0) + 1
            if per_measure[measure] <= REGRESSION_ROWS:
                shown.append(r)
        where = {"baseline_run_id": baseline, "candidate_run_id": candidate, "outcome": "loss"}
        section.figure(table(f"runs-run_comparison_queries-{len(section.parts)}", "run_comparison_queries",
                             list(REGRESSION_COLUMNS), shown, where, limit_per=MEASURE, order="abs(difference) desc",
                             caption=f"Regression list: the losses of {candidate} against {baseline}, the queries on "
                                     f"which {candidate} is worse in the measure's direction (run_comparison_queries "
                                     f"where outcome = loss), worst first per measure (by abs(difference)): "
                                     f"{len(shown)} of {len(losses)} losses in {len(per_measure)} measures, at most "
                                     f"{REGRESSION_ROWS} per measure", limit=REGRESSION_ROWS))
    return section


# ----------------------------------------------------------------------------- the verdict


# the columns of the verdict's table of significant measures (the metric names tell the families apart)
VERDICT_COLUMNS = ("metric", "k", "higher_is_better", "difference", "adjusted_ci_lower", "adjusted_ci_upper",
                   "p_value_holm")


def verdict_runs(db: Database) -> str:
    """The verdict on each compared pair of runs: the measures significantly better and worse after
    Holm (slice overall), as sentences, and their rows of run_comparison in a table."""
    if not db.has("run_comparison"):
        return '<p class="note">The mart run_comparison is not in this database: no run comparison to show.</p>'
    mart = db.read("run_comparison", COMPARISON_KEY + VERDICT_COLUMNS[2:] + ("is_significant", "p_value", "baseline_source"))
    if isinstance(mart, str):
        return f'<p class="note">{esc(mart)}</p>'
    overall = [r for r in mart.rows if r["slice_dimension"] == "overall"]
    if not overall:
        return '<p class="note">run_comparison has no rows of the slice overall: no verdict to show.</p>'
    out = []
    for index, (baseline, candidate) in enumerate(sorted({(r["baseline_run_id"], r["candidate_run_id"])
                                                          for r in overall}, key=pair_order)):
        rows = family_sort([r for r in overall if (r["baseline_run_id"], r["candidate_run_id"]) == (baseline, candidate)],
                           "metric", "k")
        significant = [r for r in rows if r["is_significant"] is True]
        items = []
        for verdict in ("better", "worse"):
            found = [r for r in significant if verdict_of(r) == verdict]
            items += [f'<li class="{verdict}" data-measure="{esc(metric_label(r))}">{esc(verdict_sentence(r, verdict))}</li>'
                      for r in found]
            if significant and not found:
                items.append(f'<li class="none">{esc(candidate)} is significantly {verdict} on no measure.</li>')
        items += [f'<li class="other" data-measure="{esc(metric_label(r))}">{esc(candidate)} differs from '
                  f'{esc(baseline)} on {esc(metric_label(r))} with no direction (is_significant, but difference or '
                  'higher_is_better is null or 0).</li>' for r in significant if verdict_of(r) is None]
        if not significant:
            items.append('<li class="none">No measure differs significantly after Holm (alpha: the var comparison_alpha; '
                         "is_significant is false on every measure of the slice overall).</li>")
        where = {"baseline_run_id": baseline, "candidate_run_id": candidate, "slice_dimension": "overall",
                 "is_significant": "true"}
        # Holm's family of the slice overall: its rows with a p-value, the m of the adjusted intervals
        m = sum(1 for r in rows if r["p_value"] is not None)
        source = rows[0]["baseline_source"]
        out.append(f'<div class="verdict-pair" data-baseline="{esc(baseline)}" data-candidate="{esc(candidate)}">'
                   f"<h3>{esc(candidate)} against the baseline {esc(baseline)}</h3>"
                   f'<p class="baseline" data-source="{esc(source)}">Baseline {esc(baseline)}: '
                   f"{esc(BASELINE_SOURCES.get(source, source))}.</p>"
                   f'<ul class="verdict">{"".join(items)}</ul>'
                   f'<p class="note adjusted">Intervals adjusted for the {m} measures of the comparison '
                   "(adjusted_ci_lower, adjusted_ci_upper: Bonferroni, 95 % for all of them at once), as the verdict "
                   "is adjusted (Holm); the run comparison below also shows the unadjusted ones.</p>"
                   + (table(f"verdict-run_comparison-{index}", "run_comparison", list(VERDICT_COLUMNS), significant, where,
                            caption=f"run_comparison: the measures of {candidate} against {baseline} significant after "
                                    "Holm (slice overall)", compact=True) if significant else "")
                   + "</div>")
    return "".join(out)


def verdict_headline(db: Database) -> str:
    """The headline metrics of each run at one K, with their intervals: the headline section's rows."""
    found = headline_rows(db)
    if isinstance(found, str):
        return f'<p class="note">{esc(found)}</p>'
    rows, _ = found
    k = headline_k(rows)
    members = [r for r in rows if r["k"] is None or r["k"] == k]
    runs = runs_of(members)
    where = {"slice_dimension": "overall", "k": [k, None]} if k is not None else {"slice_dimension": "overall"}
    return ("<div><h3>Headline metrics" + (f" (retrieval at K = {k})" if k is not None else "") + "</h3>"
            + wide_table("verdict-metric_values", "metric_values", ["metric", "k"], "run_id", runs,
                         ["value", "ci_lower", "ci_upper"], members, where,
                         caption="metric_values where slice_dimension = overall"
                                 + (f", k = {k} or null" if k is not None else "") + ", one column group per run_id",
                         compact=True)
            + "</div>")


def verdict_quarantine(db: Database) -> str:
    """The share of each export that was rejected (export_row_counts); from an older database without
    that mart, the rejected rows of each export (the quarantine section's counts)."""
    exports = export_counts(db)
    if exports is not None:
        items = "".join(f'<li data-task="{esc(r["task"])}">{esc(share_sentence(r))}</li>' for r in exports)
        return ('<div><h3>Quarantine</h3><div class="row">'
                + table("verdict-quarantine", "export_row_counts", ["task", "n_rows", "n_rejected", "rejected_share"],
                        exports, caption="export_row_counts: the rows of each input and the share rejected",
                        compact=True)
                + f'<div><ul class="quarantine">{items}</ul></div></div></div>')
    counts = quarantine_counts(db)
    if isinstance(counts, str):
        if "has no rows" in counts:
            return "<div><h3>Quarantine</h3><p>No row was rejected (rejected_annotations is empty).</p></div>"
        return f'<div><h3>Quarantine</h3><p class="note">{esc(counts)}</p></div>'
    items = "".join(f'<li data-task="{esc(r["task"])}">{esc(r["task"])}: {r["n_rows"]:,} rows rejected</li>'
                    for r in counts.by_task)
    return ('<div><h3>Quarantine</h3><div class="row">'
            + table("verdict-quarantine", "rejected_annotations", ["task", "n_rows"], counts.by_task,
                    caption="rejected_annotations: rows per task", compact=True)
            + f'<div><ul class="quarantine">{items}</ul><p class="note">{esc(QUARANTINE_SHARE_NOTE)}</p></div>'
            + "</div></div>")


def section_verdict(db: Database) -> Section:
    section = Section("verdict", "Verdict", ["run_comparison", "metric_values", "export_row_counts"]
                      + ([] if export_counts(db) is not None else ["rejected_annotations"]),
                      "The measures on which a run is significantly better or worse than the baseline (after Holm's "
                      "adjustment, in each measure's direction), the quarantine, and each run's headline metrics with "
                      "their 95 % intervals; the details follow below.")
    section.parts.append('<div class="row">'
                         f'<div class="column">{verdict_runs(db)}{verdict_quarantine(db)}</div>'
                         f"{verdict_headline(db)}</div>")
    return section


SECTIONS = (section_verdict, section_headline, section_retrieval_k, section_slices, section_agreement, section_pairs,
            section_protocol, section_drift, section_judges, section_bias, section_judge_powered, section_quarantine,
            section_runs)

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif;
       color: #222; margin: 0 auto; padding: 0 24px 48px; max-width: 1500px; }
h1 { margin: 20px 0 4px; } h2 { margin: 36px 0 2px; border-bottom: 2px solid #0072B2; }
h3 { font-size: 14px; margin: 10px 0 4px; }
nav { margin: 10px 0 0; } nav a { margin-right: 12px; white-space: nowrap; } nav span { margin-right: 8px; }
#verdict h2 { margin-top: 18px; } #verdict h3 { margin-top: 8px; } #verdict .row { gap: 10px 28px; }
#verdict .column { display: flex; flex-direction: column; align-items: flex-start; gap: 6px; flex: 1 1 440px;
                   max-width: 720px; }
#verdict .row > div:not(.column) { flex: 0 0 auto; } #verdict .row .row { flex-wrap: nowrap; gap: 18px; }
#verdict .row .row > div { flex: 0 1 auto; } #verdict .row .row > .table-wrap { flex: none; }
#verdict .table-wrap { max-height: none; } #verdict th { white-space: normal; vertical-align: bottom; }
#verdict table { font-size: 11.5px; } #verdict th, #verdict td { padding: 2px 4px; }
#verdict p.note { margin: 2px 0 4px; }
ul.verdict, ul.quarantine { margin: 2px 0 6px; padding-left: 22px; }
ul.verdict li.better { list-style: "▲  "; } ul.verdict li.better::marker { color: #0072B2; }
ul.verdict li.worse { list-style: "▼  "; } ul.verdict li.worse::marker { color: #D55E00; }
.source { color: #555; margin: 2px 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
.intro { margin: 4px 0 8px; max-width: 70em; } .note { font-style: italic; color: #7a4b00; }
.figure { margin: 10px 0 18px; } .row { display: flex; flex-wrap: wrap; gap: 18px 28px; align-items: flex-start; }
.table-wrap { max-height: 34em; overflow: auto; border: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 12px; }
caption { caption-side: top; text-align: left; color: #555; padding: 4px 6px; font-size: 12px; }
th, td { padding: 2px 7px; border-bottom: 1px solid #eee; text-align: left; white-space: nowrap; }
th { position: sticky; top: 0; background: #f4f6f8; font-weight: 600; }
th.group { text-align: center; border-left: 1px solid #ccc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
svg.chart { font-size: 11px; overflow: visible; }
svg .grid { stroke: #e4e4e4; } svg .axis { fill: #666; font-size: 10px; } svg .group { font-weight: 600; }
svg .reference { stroke: #222; stroke-dasharray: 4 3; } svg .target { stroke: #000; stroke-width: 2.5; }
svg .ci { stroke-width: 2; } svg .line { fill: none; stroke-width: 1.6; } svg .null { fill: #999; }
svg .band { fill: #D55E00; fill-opacity: 0.16; } svg .diagonal { fill: #f4f4f4; } svg .cell { stroke: #fff; }
svg .mark:hover { opacity: 0.7; }
"""


def render(db: Database) -> str:
    verdict, *details = [build(db) for build in SECTIONS]
    built = datetime.datetime.fromtimestamp(db.path.stat().st_mtime, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    # the verdict ends with a link to each section of the details below it
    verdict.parts.append('<nav><span>Details:</span> '
                         + " ".join(f'<a href="#{s.anchor}">{esc(s.title)}</a>' for s in details) + "</nav>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>ragmart report</title><style>{STYLE}</style></head><body>"
            f"<h1>ragmart report</h1><p class=\"source\">Database: {esc(db.path)} (written {built})</p>"
            f"<p>Values to 3 decimals, {NULL} for null; hover over a mark for its numbers. Intervals are 95 %.</p>"
            + "".join(s.html() for s in [verdict, *details]) + "</body></html>\n")


def write_report(database: Path, out: Path) -> int:
    """Write the report of `database` to `out` (via a temporary file renamed into place); returns its size."""
    if not database.is_file():
        raise ReportError(f"the database does not exist: {database} (run `make build` first, or set RAGMART_DUCKDB_PATH)")
    db = Database(database)
    try:
        page = render(db)
    finally:
        db.close()
    data = page.encode("utf-8")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        partial = out.with_name(f".{out.name}.partial")
        partial.write_bytes(data)
        os.replace(partial, out)
    except OSError as error:
        raise ReportError(f"cannot write {out}: {error}") from None
    return len(data)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="",
                        help="the DuckDB file to read, opened read-only (default: $RAGMART_DUCKDB_PATH or ragmart.duckdb "
                        "of the project; a relative path is relative to --relative-to)")
    parser.add_argument("--out", default="",
                        help=f"the HTML file to write (default: {DEFAULT_OUT} of the project; a relative path is "
                        "relative to --relative-to)")
    parser.add_argument("--relative-to", default="",
                        help="the folder a relative --out or --database is taken from (default: the current folder; "
                        "make passes the caller's)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.monotonic()
    try:
        out = resolve(args.out, PROJECT / DEFAULT_OUT, args.relative_to or None)
        database = resolve(args.database, database_path(), args.relative_to or None)
        size = write_report(database, out)
    except ReportError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"report of {database} written to {out} ({size / 1024:.0f} kB, {time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
