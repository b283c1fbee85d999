#!/usr/bin/env python3
"""The release gate of CI (`make gate`): fail when a candidate run is significantly worse than production.

Reads the published database ($RAGMART_DUCKDB_PATH, default ragmart.duckdb; read-only, so it never
blocks a build) after `make build` or `make build-files` has published it, and exits 1 when a row of
run_comparison with the production run as its baseline is significantly worse (is_significant, after
Holm) in the measure's direction, on a gated measure and slice. Each such row is printed as the
verdict sentence of the printed table (scripts/show_metrics.py), with its interval adjusted as the
verdict is; when none is, one line says what passed. docs/rules.md, "Release gate".

The gate must be told which run is production, with the var the build was given too:

    make build gate VARS='{baseline_run_id: prod}'
    make build-files INPUT=exports VARS='{baseline_run_id: prod}' && python scripts/gate.py --vars '{baseline_run_id: prod}'

Without baseline_run_id it fails when the database has more than one run: the default baseline of
run_comparison (the smallest run id) is fine for reading, not for a release decision. With it, the
published comparisons must have that baseline (the build was given it, or it is the smallest run id
the build took by default), else it fails saying to build with it.
Vars (the rest of VARS is the build's and ignored here): gate_metrics (default []: every measure; else
names such as ndcg, or ndcg@5 for one K), gate_slices (default [overall]; language adds the language
slices).

Usage: python scripts/gate.py [--database ragmart.duckdb] [--vars YAML]
Exit code: 0 passed; 1 a candidate is significantly worse (a regression); 2 the gate cannot decide as
called (bad vars, no database, no production run named, a baseline that is not a run of the database
or that the database was not built with). `make gate` runs this script, but make turns every failure
into its own exit code 2: a CI step that must tell a regression from a usage error calls the script.
The hint to build again names the command that built the database (<stem>.build.json beside it,
written by make build and make build-files).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
from pathlib import Path

import build  # scripts/, beside this file: the build's reading and check of the vars
import duckdb
import yaml
from build import BuildError, check_vars
from show_metrics import verdict_sentence

PROJECT = Path(__file__).resolve().parent.parent
SLICES = ("overall", "language")
# How the build chose the baseline of its comparisons (run_comparison.baseline_source).
BUILT_AS = {"baseline_run_id": "the build was given it too",
            "smallest_run_id": "the build took it by default, as the smallest run id"}


class GateError(Exception):
    """A usage error: exit code 2."""


def project_vars() -> dict:
    """The vars dbt_project.yml declares, with their defaults."""
    return yaml.safe_load((PROJECT / "dbt_project.yml").read_text(encoding="utf-8"))["vars"]


def parse_vars(text: str | None) -> dict:
    """The vars given as YAML text, read as make build reads them (build.parse_vars)."""
    try:
        return build.parse_vars(text)
    except BuildError as error:
        raise GateError(str(error)) from None


def as_list(name: str, value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise GateError(f"var {name} must be a list of names, got {value!r}")
    return [str(v).strip() for v in value]


def settings(variables: dict) -> tuple[str | None, list[str], list[str]]:
    """(baseline_run_id, gate_metrics, gate_slices) from the vars over dbt_project.yml's defaults."""
    declared = project_vars()
    try:
        check_vars(variables, declared)   # a misspelt gate_metric would otherwise gate every measure
    except BuildError as error:
        raise GateError(str(error)) from None
    merged = {name: variables.get(name, declared.get(name)) for name in ("baseline_run_id", "gate_metrics",
                                                                          "gate_slices")}
    baseline = merged["baseline_run_id"]
    baseline = None if baseline is None or not str(baseline).strip() else str(baseline).strip()
    metrics = as_list("gate_metrics", merged["gate_metrics"])
    slices = as_list("gate_slices", merged["gate_slices"]) or ["overall"]
    unknown = [s for s in slices if s not in SLICES]
    if unknown:
        raise GateError(f"var gate_slices: unknown slice {unknown[0]!r}; the slices are {', '.join(SLICES)}")
    return baseline, metrics, sorted(set(slices) | {"overall"}, key=SLICES.index)


def check_metrics(names: list[str], measures: set[tuple[str, int | None]]) -> None:
    """Every name of gate_metrics must be a measure of the database (a metric, or metric@k)."""
    known = {m for m, _k in measures} | {f"{m}@{k}" for m, k in measures if k is not None}
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1)
            raise GateError(f"var gate_metrics: no measure {name!r} in run_comparison"
                            + (f" (did you mean {close[0]!r}?)" if close else "")
                            + "; a name is a metric of metric_values, or metric@k for one K")


def gated(metric: str, k: int | None, names: list[str]) -> bool:
    return not names or metric in names or (k is not None and f"{metric}@{k}" in names)


def label(metric: str, k: int | None, dimension: str, value: str) -> str:
    measure = f"{metric}@{k}" if k is not None else metric
    return measure if dimension == "overall" else f"{measure} ({dimension} {value})"


def flow_vars(variables: dict) -> str:
    """Vars as YAML on one line in single quotes for a shell, a value YAML would quote in double quotes
    (a run id such as 1.10 stays text)."""
    parts = []
    for name, value in variables.items():
        text = yaml.safe_dump(value, default_flow_style=True, width=10**6).removesuffix("...\n").strip()
        parts.append(f"{name}: {json.dumps(value) if chr(39) in text else text}")
    return "'{" + ", ".join(parts) + "}'"


def build_again(database: Path, baseline: str) -> str:
    """The command that builds the database again with `baseline` as the production run, then gates: the one
    that built it (<stem>.build.json beside it, unless the database was written after it), else the two make
    commands."""
    vars_text = flow_vars({"baseline_run_id": baseline})
    record = database.with_name(f"{database.stem}.build.json")
    try:
        if record.stat().st_mtime < database.stat().st_mtime:   # the database was written since (by plain dbt)
            raise OSError
        built = json.loads(record.read_text(encoding="utf-8"))
        command, variables = str(built["command"]), dict(built.get("vars") or {})
    except (OSError, ValueError, KeyError, TypeError):
        return (f"make build-files INPUT=<your exports> VARS={vars_text} (make build for the sample),"
                f" then make gate VARS={vars_text}")
    variables["baseline_run_id"] = baseline
    return f"{command} VARS={flow_vars(variables)}, then make gate VARS={vars_text}"


def say(line: str, stream=sys.stdout) -> None:
    """One sentence, one line (not wrapped: a CI log greps it whole)."""
    print(line, file=stream, flush=True)


def gate(connection, baseline: str | None, names: list[str], slices: list[str], database: Path = Path("ragmart.duckdb")) -> int:
    """Prints the verdict; returns the exit code (0 passed, 1 a regression, 2 the gate cannot decide as called)."""
    runs = sorted({r for (r,) in connection.execute(
        "select run_id from grounding_metrics union select run_id from generation_metrics"
        " union select run_id from retrieval_metrics").fetchall()}, key=lambda r: r.encode("utf-8"))
    tables = {t for (t,) in connection.execute(
        "select table_name from information_schema.tables where table_catalog = current_database()").fetchall()}
    if "run_comparison" not in tables:
        say("gate failed: the database has no run_comparison mart; build it with this ragmart (make build)",
            sys.stderr)
        return 2
    if baseline is None:
        if len(runs) > 1:
            say(f"gate failed: baseline_run_id is not set, so the gate does not know which of the {len(runs)} runs"
                f" ({', '.join(runs)}) is production. Build and gate with it: {build_again(database, '<production run>')}."
                f" (The default baseline, the smallest run id, here {runs[0]}, is fine for reading, not for a release"
                " decision.)", sys.stderr)
            return 2
        say(f"gate passed: the database has {len(runs)} run ({', '.join(runs) or 'none'}), nothing to compare")
        return 0
    if baseline not in runs:
        say(f"gate failed: baseline_run_id {baseline!r} is not a run of the database (runs: {', '.join(runs)})",
            sys.stderr)
        return 2
    rows = connection.execute(
        "select candidate_run_id, family, metric, k, slice_dimension, slice_value, difference, adjusted_ci_lower,"
        " adjusted_ci_upper, p_value_holm, is_significant, higher_is_better, baseline_source from run_comparison"
        " where baseline_run_id = ?"
        " order by candidate_run_id, family, metric, k, slice_dimension, slice_value", [baseline]).fetchall()
    built_with = {r[12] for r in rows} - {"comparison_pairs"}
    if not built_with:
        published = sorted({b for (b,) in connection.execute(
            "select distinct baseline_run_id from run_comparison where baseline_source <> 'comparison_pairs'"
        ).fetchall()})
        say(f"gate failed: the published comparisons have the baseline {', '.join(published) or 'none'}, not"
            f" {baseline} (the build was given another baseline_run_id, or none). Build with it, then gate:"
            f" {build_again(database, baseline)}", sys.stderr)
        return 2
    check_metrics(names, {(r[2], r[3]) for r in rows})
    chosen = (f"the baseline {baseline} (production, named by baseline_run_id; "
              + " and ".join(BUILT_AS[source] for source in sorted(built_with)) + ")")
    checked = [r for r in rows if r[4] in slices and gated(r[2], r[3], names)]
    failures = [r for r in checked if r[10] and r[6] != 0 and (r[6] > 0) != r[11]]
    candidates = sorted({r[0] for r in checked}, key=lambda c: c.encode("utf-8"))
    missing = [r for r in runs if r != baseline and r not in {row[0] for row in rows}]
    n_measures = len({(r[2], r[3]) for r in checked})
    what = (f"{n_measures} measure{'s' if n_measures != 1 else ''}"
            + (f" of gate_metrics ({', '.join(names)})" if names else " (every measure)")
            + f", slices {' and '.join(slices)}, of {len(candidates)} candidate{'s' if len(candidates) != 1 else ''}"
            + f" ({', '.join(candidates) or 'none'})")
    if missing:
        what += f"; no query in common with {baseline}, so not compared: {', '.join(missing)}"
    for r in failures:
        say(verdict_sentence(r[0], baseline, label(r[2], r[3], r[4], r[5]), "worse", r[6], r[7], r[8], r[9]),
            sys.stderr)
    if failures:
        say(f"gate failed: {len(failures)} significant regression{'s' if len(failures) != 1 else ''} against {chosen}"
            f" after Holm (intervals adjusted for the measures of each comparison), on {what}", sys.stderr)
        return 1
    say(f"gate passed: no candidate is significantly worse than {chosen} after Holm, on {what}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default=os.environ.get("RAGMART_DUCKDB_PATH") or "ragmart.duckdb",
                        help="the published DuckDB file (default: $RAGMART_DUCKDB_PATH or ragmart.duckdb; a relative"
                        " path is relative to the project)")
    parser.add_argument("--vars", default="{}", metavar="YAML",
                        help="dbt vars as a YAML mapping: baseline_run_id, gate_metrics, gate_slices (default: {})")
    args = parser.parse_args(argv)
    database = Path(args.database).expanduser()
    database = database if database.is_absolute() else PROJECT / database
    try:
        baseline, names, slices = settings(parse_vars(args.vars))
        if not database.exists():
            raise GateError(f"{database} does not exist; run make build (or make build-files) first")
        with duckdb.connect(str(database), read_only=True) as connection:
            return gate(connection, baseline, names, slices, database)
    except GateError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
