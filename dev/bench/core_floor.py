#!/usr/bin/env python3
"""The core-job floor: ragmart's core work on a files-mode export folder, by hand, in plain DuckDB SQL.

One Python process and one DuckDB connection (in memory, or the file given with --database),
with DuckDB's default settings (threads, memory limit); the session's time zone is set to UTC, so
that a zone-less `created_at` is read as UTC (docs/rules.md, Inputs). It reads a folder of CSV
files as dev/generate/generate_exports.py writes them (comma-separated UTF-8 with a header, `"` quotes
with `""` escapes, quoted fields over several lines): every `.csv` file whose name starts with
`retrieval`, `grounding`, `generation`, `annotators` or `records` (any case), the files of an input
in name order. Under the default vars (`constraint_policy: reject`, `accepted_languages: [de, en]`,
`retrieval_k_values: [1, 3, 5, 10]`) it does the core of docs/rules.md:

- every row check and reason code, superseding, conflicting duplicates, rejection and rank
  conflicts, and the accounting (rows = accepted + rejected + superseded, per input);
- the consensus per unit and label from the accepted rows of HUMAN annotators (an annotator id
  missing from the annotators file is a HUMAN annotator): adjudicated, single or unanimous,
  majority, tied; resolved units and records; the record language;
- every retrieval measure at every K, the grounding and generation rates and conditional
  fabrication: means over the resolved records, with the intervals of docs/rules.md (Intervals;
  macros/metrics/ragmart_intervals.sql as of this script): Wilson (z = 1.96) for every measure
  that is 0 or 1 per record at that K (sufficiency hit at every K; at K = 1 also topical precision,
  sufficiency rate, misleading context rate and MRR; every grounding and generation rate,
  conditional fabrication included), elsewhere mean +- t s / sqrt(n) with t = t_0.975(n - 1),
  Student's t quantile (the project's table for 1 to 100 degrees of freedom, its Cornish-Fisher
  expansion above, so the same doubles as ragmart_student_t_975), clipped to [0, 1] and null when
  n < 2; for the `overall` and `language` slices, and n_pending_adjudication;
- the quarantine: every rejected row (the records input's too) with its reasons, its file and data
  row, and its original values as given in the file.

It leaves out the rest of the build: agreement, tiers, judges, the `tier` and `label_source`
slices, the marts' contracts and every test; other CSV dialects, Parquet, and records that do not
parse (DuckDB's reader stops on one).

How it is kept fast (see docs/benchmarks.md; --timings prints each step's wall and CPU seconds):
- Each export is read once into a narrow table: the keys, the rank, the labels, the UTC instant,
  one bit per accepted language and a bit mask of the row's reason codes (the codes as text only
  for the rejected rows). The long texts are only checked for blanks; the quarantine reads its
  rows' original values from the file again.
- Parsing takes a fast path for the common exact values (booleans and ranks as usually written, a
  key or language without blanks around it, a `created_at` matching the pattern untrimmed, cast by
  DuckDB) and the rule itself (trim, lower-case, the full pattern) for the others; --self-test
  checks that both give the same result on edge values (and the t quantile against the project's
  table and the expansion).
- Superseding and duplicates compare only the rows of repeated submissions, found by grouping a
  hash of the submission key. The votes, the ranks and the languages come from one grouped pass
  over the accepted rows per (record, chunk, rank), the latest adjudication from the adjudicator
  rows alone, and the retrieval measures from one pass per record with every K side by side (the
  ideal DCG from the record's counts of grade-2 and grade-1 chunks); no window runs over all rows.
- No `with ordinality`: a table's rowid is the row's place in the file, since DuckDB keeps the
  order of a parallel CSV scan (preserve_insertion_order, the default). The second read, for the
  quarantine, is a parallel scan that keeps, in file order, the rows whose record_uuid hashes into
  a bitmap of the rejected rows' record_uuids; the k-th of them is the k-th such row of the first
  read. Both reads are checked to agree on every rejected row.

--check DATABASE compares the results with the tables of a ragmart DuckDB database built by dbt in
files mode on the same folder: retrieval_metrics, grounding_metrics, generation_metrics, the
`overall` and `language` rows of metric_values, rejected_annotations (task, ids, reasons, created_at
and task as given, every original value, and source_file and source_row when the database has
them) and the status counts of int_annotations__row_status; doubles to 1e-9, everything else
exactly. It prints the differences and exits with 1 when there is one.

Usage: python dev/bench/core_floor.py FOLDER [--check DATABASE] [--json FILE] [--timings] [--database FILE]
       python dev/bench/core_floor.py --self-test
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections import Counter
from pathlib import Path

import duckdb

# the modules this script imports from the project's other folders
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / folder) for folder in ("scripts/lib", "dev/generate")]
from export_schema import COLUMNS, CONSTRAINTS, LABELS  # scripts/lib/
from make_student_t_table import committed_table  # dev/generate/

K_VALUES = [1, 3, 5, 10]
ACCEPTED_LANGUAGES = ["de", "en"]
FILE_POSITION_BASE = 10**12
INPUTS = ["retrieval", "grounding", "generation", "annotators", "records"]
TASKS = ["retrieval", "grounding", "generation"]
TRUE_SPELLINGS = ["true", "t", "1", "yes", "y"]
FALSE_SPELLINGS = ["false", "f", "0", "no", "n"]
# exact spellings taken on the fast path; anything else is trimmed and lower-cased
FAST_TRUE = TRUE_SPELLINGS + ["TRUE", "True", "T", "YES", "Yes", "Y"]
FAST_FALSE = FALSE_SPELLINGS + ["FALSE", "False", "F", "NO", "No", "N"]
# docs/rules.md, Inputs: the created_at pattern (the groups of macros/validation/ragmart_parsing.sql)
TIMESTAMP_PATTERN = (r"^([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]((?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:[.][0-9]+)?)?)"
                     r"(?:Z|([+-])([01][0-9]|2[0-3])(?::?([0-5][0-9]))?)?$")

def _constraints(task: str) -> list[tuple[str, str, str, str]]:
    """(code without `violates:`, kind, antecedent, other label) of export_schema.CONSTRAINTS."""
    return [(code.removeprefix("violates:"), kind, antecedent, other)
            for code, antecedent, other, kind in CONSTRAINTS[task]]


SPEC = {
    "retrieval": {
        "labels": LABELS["retrieval"],
        "optional_booleans": ["can_answer"],
        "required_texts": ["input_query", "chunk"],
        "optional_texts": ["generated_search_query", "doc_id", "notes"],
        "constraints": _constraints("retrieval"),
    },
    "grounding": {
        "labels": LABELS["grounding"],
        "optional_booleans": [],
        "required_texts": ["query", "answer", "context_set"],
        "optional_texts": ["notes"],
        "constraints": _constraints("grounding"),
    },
    "generation": {
        "labels": LABELS["generation"],
        "optional_booleans": [],
        "required_texts": ["query", "answer"],
        "optional_texts": ["notes"],
        "constraints": _constraints("generation"),
    },
}
RECORDS_COLUMNS = COLUMNS["records"]
ANNOTATORS_COLUMNS = COLUMNS["annotators"]
# (metric, per-record column, interval) as in macros/spec/ragmart_metrics.sql: `wilson` at every K;
# `wilson_at_k1` Wilson at K = 1 (one chunk, so 0 or 1 per record), the t interval of the mean above
RETRIEVAL_METRICS = [("topical_precision", "tp", "wilson_at_k1"), ("sufficiency_hit", "hit", "wilson"),
                     ("sufficiency_rate", "sr", "wilson_at_k1"), ("misleading_context_rate", "mr", "wilson_at_k1"),
                     ("mrr", "rr", "wilson_at_k1"), ("ndcg", "ndcg", "mean")]
GROUNDING_METRICS = [("grounding_presence_rate", "support_present"),
                     ("unsupported_claim_rate", "unsupported_claim_present"),
                     ("contradiction_rate", "contradicted_claim_present"),
                     ("citation_presence_rate", "source_cited"),
                     ("conditional_fabrication_rate", "case when source_cited = 1 then fabricated_source end")]
GENERATION_METRICS = [("proper_action_rate", "proper_action"), ("on_topic_rate", "response_on_topic"),
                      ("helpfulness_rate", "helpful"), ("incompleteness_rate", "incomplete"),
                      ("unsafe_content_rate", "unsafe_content")]
WIDE_COLUMNS = {
    "retrieval_metrics": ["k", "n_queries", "n_pending_adjudication", "topical_precision_at_k", "sufficiency_hit_at_k",
                          "sufficiency_rate_at_k", "misleading_context_rate_at_k", "mrr_at_k", "ndcg_at_k"],
    "grounding_metrics": ["n_answers", "n_pending_adjudication", "grounding_presence_rate", "unsupported_claim_rate",
                          "contradiction_rate", "citation_presence_rate", "n_cited_answers",
                          "conditional_fabrication_rate"],
    "generation_metrics": ["n_answers", "n_pending_adjudication", "proper_action_rate", "on_topic_rate",
                           "helpfulness_rate", "incompleteness_rate", "unsafe_content_rate"],
}
METRIC_VALUE_COLUMNS = ["family", "metric", "k", "slice_dimension", "slice_value", "value", "n_units", "ci_lower",
                        "ci_upper"]

# t_0.975(df), the factor of the interval of a mean (docs/rules.md, Intervals), as
# macros/metrics/ragmart_student_t_quantile.sql computes it. df = 1 ... 100: the table of
# macros/metrics/ragmart_student_t_975_table.sql (scipy.stats.t.ppf(0.975, df), written by
# dev/generate/make_student_t_table.py), read from that file, so there is one copy of it.
STUDENT_T_975 = committed_table()
# df > 100: the Cornish-Fisher expansion t = z + g1/df + ... + g5/df^5 (Abramowitz & Stegun 26.7.5 with
# Fisher and Cornish's fifth term), z = the 0.975 quantile of the normal distribution; the same
# doubles as the macro's (computed the same way, written as the shortest decimal that reads back)
T_Z = 1.959963984540054
T_G = [
    (T_Z ** 3 + T_Z) / 4,
    (5 * T_Z ** 5 + 16 * T_Z ** 3 + 3 * T_Z) / 96,
    (3 * T_Z ** 7 + 19 * T_Z ** 5 + 17 * T_Z ** 3 - 15 * T_Z) / 384,
    (79 * T_Z ** 9 + 776 * T_Z ** 7 + 1482 * T_Z ** 5 - 1920 * T_Z ** 3 - 945 * T_Z) / 92160,
    (27 * T_Z ** 11 + 339 * T_Z ** 9 + 930 * T_Z ** 7 - 1782 * T_Z ** 5 - 765 * T_Z ** 3 + 17955 * T_Z) / 368640,
]


def export_columns(task: str) -> list[tuple[str, bool]]:
    """The columns of an export (ADR 0005) with whether each is required, in ragmart_export_columns' order."""
    spec = SPEC[task]
    columns = [("record_uuid", True), ("annotator_id", True), ("task", True), ("language", False), ("created_at", True)]
    columns += [(name, True) for name in spec["required_texts"]]
    if task == "retrieval":
        columns += [("chunk_id", True), ("chunk_rank", True)]
    columns += [(name, False) for name in spec["optional_texts"] + spec["optional_booleans"]]
    columns += [(name, True) for name in spec["labels"]]
    return columns


def original_columns() -> list[str]:
    """The original-value columns of rejected_annotations (ragmart_rejected_original_columns)."""
    names: list[str] = []
    for task in TASKS:
        for name, _ in export_columns(task):
            if name not in ("record_uuid", "annotator_id", "created_at", "chunk_id", "task") and name not in names:
                names.append(name)
    for name in RECORDS_COLUMNS[1:]:
        if name not in names:
            names.append(name)
    return names


# an accepted row's language as one bit (0 when empty), so that a record's languages are a bit_or
LANGUAGE_BIT = ("case language " + " ".join(f"when '{code}' then {1 << i}" for i, code in enumerate(ACCEPTED_LANGUAGES))
                + " else 0 end")
# the record language (docs/rules.md, Consensus) from the bit_or of its rows' language bits
LANGUAGE_OF_BITS = ("case {bits} " + " ".join(f"when {1 << i} then '{code}'" for i, code in enumerate(ACCEPTED_LANGUAGES))
                    + " else 'unknown' end")


def literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def double_literal(value: float) -> str:
    """A double as SQL: the shortest decimal that reads back as it, cast to double (ragmart_double_literal)."""
    text = repr(value)
    return f"cast({text if 'e' in text or 'E' in text else text + 'e0'} as double)"


def text_list(values: list[str]) -> str:
    return "(" + ", ".join(literal(v) for v in values) + ")"


# --------------------------------------------------------------------------------------------
# Parsing (docs/rules.md, Inputs), as DuckDB macros: a fast path for the common exact values,
# the rule itself (trim, lower-case, full pattern) for the rest.
# --------------------------------------------------------------------------------------------
BLANK_CHARS = "' ' || chr(9) || chr(10) || chr(13)"
FAST_BOOLEANS = "\n    ".join(f"when {literal(v)} then {1 if v in FAST_TRUE else 0}" for v in FAST_TRUE + FAST_FALSE)
FAST_RANKS = "\n    ".join(f"when '{rank}' then {rank}" for rank in range(1, 21))
T_TABLE = ",\n        ".join(", ".join(double_literal(v) for v in STUDENT_T_975[i:i + 4])
                            for i in range(0, len(STUDENT_T_975), 4))
T_EXPANSION = double_literal(T_G[4]) + " / df"
for g in reversed(T_G[:4]):
    T_EXPANSION = f"({double_literal(g)} + {T_EXPANSION}) / df"
T_EXPANSION = f"{double_literal(T_Z)} + {T_EXPANSION}"
MACROS = f"""
create or replace temp macro ragmart_trim(x) as trim(x, {BLANK_CHARS});
-- the trimmed text, null when empty or blank; a text whose first and last characters are '!' or
-- above (the blanks space, tab, line feed and carriage return are all below '!') is taken as it is
create or replace temp macro clean_text(x) as case
    when x >= '!' and x[-1] >= '!' then x
    else nullif(ragmart_trim(x), '')
end;
-- null, empty or blank (no character other than the four blanks); a text whose first byte is '!'
-- or above is not blank, and only the others are searched
create or replace temp macro is_blank(x) as case
    when x >= '!' then false
    when x is null then true
    else not regexp_matches(x, '[^ \\t\\n\\r]')
end;
-- a boolean as a code: 1 and 0 for the spellings of true and false, 2 when blank, 3 when invalid
create or replace temp macro boolean_code(x) as case x
    {FAST_BOOLEANS}
    else case
        when x is null then 2
        when lower(ragmart_trim(x)) in {text_list(TRUE_SPELLINGS)} then 1
        when lower(ragmart_trim(x)) in {text_list(FALSE_SPELLINGS)} then 0
        when ragmart_trim(x) = '' then 2
        else 3
    end
end;
create or replace temp macro parse_boolean(x) as case when boolean_code(x) < 2 then boolean_code(x) end;
-- digits with an optional fraction of zeros, at least 1: the common ranks as given, then digits
-- that cast back to themselves, then the rule itself
create or replace temp macro parse_rank(x) as case x
    {FAST_RANKS}
    else case
        when x >= '0' and cast(try_cast(x as bigint) as varchar) = x then nullif(cast(x as bigint), 0)
        when regexp_full_match(ragmart_trim(x), '[0-9]+([.]0+)?')
            then nullif(try_cast(regexp_extract(ragmart_trim(x), '^([0-9]+)', 1) as bigint), 0)
    end
end;
-- the UTC instant of a created_at (the session's time zone is UTC): the local date and time minus
-- the offset; the rule as staging computes it
create or replace temp macro timestamp_group(x, g) as regexp_extract(ragmart_trim(x), {literal(TIMESTAMP_PATTERN)}, g);
create or replace temp macro parse_timestamp_rule(x) as case
    when timestamp_group(x, 1) <> '' and timestamp_group(x, 1) not like '0000-%' then cast(
        try_cast(timestamp_group(x, 1) || ' ' || timestamp_group(x, 2) as timestamp)
        - to_minutes(coalesce(
            case timestamp_group(x, 3) when '-' then -1 else 1 end
            * (cast(nullif(timestamp_group(x, 4), '') as integer) * 60
               + coalesce(cast(nullif(timestamp_group(x, 5), '') as integer), 0)),
            0))
        as timestamptz)
end;
-- fast path: a text that matches the pattern untrimmed is read by DuckDB's own cast, which reads
-- every form of the pattern (Z, +hh:mm, +hhmm, +hh, no zone) as the same instant
create or replace temp macro parse_timestamp(x) as case
    when regexp_full_match(x, {literal(TIMESTAMP_PATTERN[1:-1])})
        then case when x not like '0000-%' then try_cast(x as timestamptz) end
    else parse_timestamp_rule(x)
end;
create or replace temp macro parse_decimal(x) as case
    when regexp_full_match(ragmart_trim(x), '[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)') then cast(ragmart_trim(x) as double)
end;
-- the latest value among adjudicator rows: 2 * epoch microseconds + label orders by time, then label
create or replace temp macro low_bit(v) as ((v % 2) + 2) % 2;
-- t_0.975(df) (ragmart_student_t_975): the table for df 1 ... 100, above it the expansion in Horner
-- form (the macro's order of operations, so the same double); null when df is null or below 1
create or replace temp macro student_t_975(df) as case
    when df >= 1 and df <= 100 then [
        {T_TABLE}
    ][df]
    when df > 100 then {T_EXPANSION}
end;
"""


class Floor:
    """The pipeline on one connection; each step is timed."""

    def __init__(self, folder: Path, database: str = ":memory:"):
        self.folder = folder
        self.con = duckdb.connect(database)
        self.con.execute("set TimeZone = 'UTC'")
        self.con.execute(MACROS)
        self.timings: list[tuple[str, float, float]] = []
        self.files = self.find_files()
        self.columns: dict[str, dict[str, str]] = {}

    # ---------------------------------------------------------------------------------------
    def run(self, sql: str, step: str | None = None):
        started = self.clock()
        result = self.con.execute(sql)
        if step:
            self.timed(step, started)
        return result

    @staticmethod
    def clock() -> tuple[float, float]:
        return time.perf_counter(), time.process_time()

    def timed(self, step: str, started: tuple[float, float]) -> None:
        """Record a step's wall seconds and CPU seconds (all of DuckDB's threads) since `started`."""
        wall, cpu = self.clock()
        self.timings.append((step, wall - started[0], cpu - started[1]))

    def find_files(self) -> dict[str, list[Path]]:
        if not self.folder.is_dir():
            sys.exit(f"core_floor: {self.folder} is not a folder")
        found: dict[str, list[Path]] = {name: [] for name in INPUTS}
        for entry in sorted(os.listdir(self.folder)):
            lower = entry.lower()
            path = self.folder / entry
            if not lower.endswith(".csv") or not path.is_file():
                continue
            for name in INPUTS:
                if lower.startswith(name):
                    found[name].append(path)
                    break
        for task in TASKS:
            if not found[task]:
                sys.exit(f"core_floor: no {task}*.csv file in {self.folder}")
        return found

    @staticmethod
    def reader(path: Path) -> str:
        return (f"read_csv({literal(str(path))}, header = true, all_varchar = true, quote = '\"', escape = '\"', "
                "delim = ',')")

    def file_columns(self, path: Path) -> dict[str, str]:
        """The file's columns: trimmed lower-case name -> name as in the file."""
        names = [row[0] for row in self.con.execute(f"describe select * from {self.reader(path)}").fetchall()]
        return {name.strip().lower(): name for name in names}

    def column(self, path: Path, name: str, required: bool) -> str:
        """The SQL of a column of a file, as given (empty as null), or null when an optional column is absent."""
        columns = self.columns.setdefault(str(path), self.file_columns(path))
        if name in columns:
            return f"nullif(cast(\"{columns[name]}\" as varchar), '')"
        if required:
            sys.exit(f"core_floor: {path.name} lacks the required column {name}")
        return "cast(null as varchar)"

    def file_index(self, path: Path) -> int:
        """File k of all files read (by input, then name): the floor's own numbering of its row ids."""
        ordered = [p for name in INPUTS for p in self.files[name]]
        return ordered.index(path) + 1

    # ---------------------------------------------------------------------------------------
    def annotators(self) -> None:
        scans = []
        for path in self.files["annotators"]:
            cols = {name: self.column(path, name, name != "display_name") for name in ANNOTATORS_COLUMNS}
            scans.append(f"select clean_text({cols['annotator_id']}) as annotator_id, "
                         f"upper(clean_text({cols['annotator_kind']})) as annotator_kind, "
                         f"lower(clean_text({cols['role']})) as annotator_role from {self.reader(path)}")
        body = " union all ".join(scans) or ("select cast(null as varchar) as annotator_id, cast(null as varchar) as "
                                             "annotator_kind, cast(null as varchar) as annotator_role where false")
        self.run(f"create or replace temp table annotators as {body}", "annotators: read")

    def checks(self, task: str) -> list[tuple[str, str]]:
        """(code, condition over read_export's parsed columns), sorted by code as ragmart_row_checks sorts them."""
        spec = SPEC[task]
        blank = {"created_at": "created_at_utc is null and is_blank(created_at_raw)",
                 "chunk_rank": "chunk_rank is null and is_blank(chunk_rank_raw)"}
        checks = []
        for name, required in export_columns(task):
            if not required:
                continue
            if name in spec["labels"]:
                condition = f"{name}_code = 2"
            elif name in spec["required_texts"]:
                condition = f"blank_{name}"
            else:
                condition = blank.get(name, f"{name} is null")
            checks.append((f"missing:{name}", condition))
        for name in spec["labels"] + spec["optional_booleans"]:
            checks.append((f"invalid_boolean:{name}", f"{name}_code = 3"))
        if task == "retrieval":
            checks.append(("invalid_rank", "chunk_rank is null and not is_blank(chunk_rank_raw)"))
        checks.append(("invalid_timestamp", "created_at_utc is null and not is_blank(created_at_raw)"))
        checks.append(("invalid_language", f"language not in {text_list(ACCEPTED_LANGUAGES)}"))
        checks.append(("wrong_task", f"task <> '{task}'"))
        for name, kind, antecedent, consequent in spec["constraints"]:
            checks.append((f"violates:{name}",
                           f"{antecedent}_code = 1 and {consequent}_code = {1 if kind == 'excludes' else 0}"))
        return sorted(checks)

    def read_export(self, task: str) -> None:
        """The narrow table <task>_rows: one row per row of the export's files, in file order.

        Its rowid is the row's place: the files are appended one after the other, and DuckDB keeps
        the order of a parallel CSV scan (preserve_insertion_order, the default); <task>_files holds
        the first rowid of each file. The quarantine checks that its second read agrees.
        """
        spec = SPEC[task]
        checks = self.checks(task)
        booleans = spec["labels"] + spec["optional_booleans"]
        mask = " + ".join(f"case when {condition} then {1 << bit} else 0 end" for bit, (_, condition) in enumerate(checks))
        # equal for two rows exactly when their parsed labels are (an invalid or missing label as 2)
        signature = " + ".join(f"least({label}_code, 2) * {3 ** i}" for i, label in enumerate(spec["labels"]))
        keys = self.submission_key(task)
        rank = ["chunk_rank"] if task == "retrieval" else []
        labels = [f"case when {label}_code < 2 then {label}_code end as {label}" for label in spec["labels"]]
        files = []
        started = self.clock()
        for number, path in enumerate(self.files[task]):
            col = {name: self.column(path, name, required) for name, required in export_columns(task)}
            parsed = [
                f"clean_text({col['record_uuid']}) as record_uuid",
                f"clean_text({col['annotator_id']}) as annotator_id",
                f"case {col['task']} when '{task}' then '{task}' else clean_text({col['task']}) end as task",
                "case " + col["language"] + " " + " ".join(f"when {literal(v)} then {literal(v)}" for v in ACCEPTED_LANGUAGES)
                + f" else clean_text({col['language']}) end as language",
                f"parse_timestamp({col['created_at']}) as created_at_utc",
                f"{col['created_at']} as created_at_raw",
            ]
            for name in spec["required_texts"]:
                parsed.append(f"is_blank({col[name]}) as blank_{name}")
            if task == "retrieval":
                parsed += [f"clean_text({col['chunk_id']}) as chunk_id", f"parse_rank({col['chunk_rank']}) as chunk_rank",
                           f"{col['chunk_rank']} as chunk_rank_raw"]
            for name in booleans:
                parsed.append(f"boolean_code({col[name]}) as {name}_code")
            select = f"""
                select {', '.join(keys + rank + labels)}, created_at_utc,
                    {LANGUAGE_BIT} as language_bit,
                    cast({mask} as integer) as reason_mask,
                    cast({signature} as integer) as label_signature
                from (select {', '.join(parsed)} from {self.reader(path)})"""
            first = 0 if number == 0 else self.con.execute(f"select count(*) from {task}_rows").fetchone()[0]
            if number == 0:
                self.con.execute(f"create or replace temp table {task}_rows as {select}")
            else:
                self.con.execute(f"insert into {task}_rows {select}")
            files.append(f"({self.file_index(path)}, {literal(path.name)}, {first})")
        self.con.execute(f"create or replace temp table {task}_files as select * from (values {', '.join(files)}) "
                         "as t(file_index, source_file, first_rowid)")
        self.timed(f"{task}: read, parse and check", started)

    @staticmethod
    def submission_key(task: str) -> list[str]:
        return ["record_uuid", "chunk_id", "annotator_id"] if task == "retrieval" else ["record_uuid", "annotator_id"]

    @staticmethod
    def unit_key(task: str) -> list[str]:
        return ["record_uuid", "chunk_id"] if task == "retrieval" else ["record_uuid"]

    def deduplicate(self, task: str) -> None:
        """<task>_dropped: the rows that superseding and duplicates take out (docs/rules.md, Row status 2-3)."""
        keys = self.submission_key(task)
        key = ", ".join(keys)
        not_null = " and ".join(f"{k} is not null" for k in keys + ["created_at_utc"])
        self.run(f"""
            create or replace temp table {task}_dropped as
            with repeated as (
                -- the submissions with more than one row, found by a hash of their key; a collision only
                -- adds a submission to compare, and the windows below partition by the key itself
                select hash({key}) as submission_hash
                from {task}_rows where {not_null}
                group by submission_hash having count(*) > 1
            ),
            compared as (
                select
                    r.rowid as rid,
                    case
                        when created_at_utc < max(created_at_utc) over submission then 'superseded'
                        when min(label_signature) over instant <> max(label_signature) over instant then 'conflicting'
                        when row_number() over (instant order by bit_count(reason_mask), r.rowid) > 1 then 'superseded'
                    end as outcome
                from {task}_rows as r
                where {not_null} and hash({key}) in (select submission_hash from repeated)
                window submission as (partition by {key}), instant as (partition by {key}, created_at_utc)
            )
            select rid, outcome from compared where outcome is not null
        """, f"{task}: superseding and duplicates")

    def unit_votes(self, task: str) -> None:
        """<task>_groups: one grouped pass over the accepted rows (before rank conflicts) per unit (and rank).

        The votes and the human rows are counted over every accepted row; the latest adjudication
        (<task>_adjudications) over the adjudicator rows only, a small share of the rows.
        """
        labels = SPEC[task]["labels"]
        group = ", ".join(self.unit_key(task) + (["chunk_rank"] if task == "retrieval" else []))
        accepted = f"r.reason_mask = 0 and r.rowid not in (select rid from {task}_dropped)"
        self.run(f"""
            create or replace temp table {task}_groups as
            select
                {group},
                sum(human) as n_human_rows,
                sum(vote) as n_votes,
                {', '.join(f"sum(vote * {label}) as n_positive_{label}" for label in labels)},
                bit_or(language_bit) as language_bits
            from (
                select
                    r.*,
                    case when coalesce(a.annotator_kind, 'HUMAN') = 'HUMAN' then 1 else 0 end as human,
                    case
                        when coalesce(a.annotator_kind, 'HUMAN') = 'HUMAN'
                            and coalesce(a.annotator_role, 'annotator') = 'annotator' then 1
                        else 0
                    end as vote
                from {task}_rows as r
                left join annotators as a on r.annotator_id = a.annotator_id
                where {accepted}
            )
            group by {group}
        """, f"{task}: one pass over accepted rows per unit")
        # the latest adjudicator row decides: 2 * epoch microseconds + label orders by time, then label,
        # so the maximum holds the highest value at the latest instant (and of 1 - label, the lowest)
        latest = []
        for label in labels:
            latest.append(f"max(2 * epoch_us(r.created_at_utc) + r.{label}) as max_latest_{label}")
            latest.append(f"max(2 * epoch_us(r.created_at_utc) + 1 - r.{label}) as min_latest_{label}")
        self.run(f"""
            create or replace temp table {task}_adjudications as
            select {group}, count(*) as n_adjudications, {', '.join(latest)}
            from {task}_rows as r
            inner join annotators as a on r.annotator_id = a.annotator_id
            where {accepted} and a.annotator_kind = 'HUMAN' and a.annotator_role = 'adjudicator'
            group by {group}
        """, f"{task}: latest adjudication per unit")

    def rank_conflicts(self) -> None:
        """Step 5: chunks with several ranks and ranks with several chunks among a record's accepted rows.

        retrieval_groups has one row per (record, chunk, rank); a hash of the pair finds the candidates
        (a collision only adds one), and the grouping by the pair itself decides.
        """
        for name, pair in (("chunk", "record_uuid, chunk_id"), ("rank", "record_uuid, chunk_rank")):
            self.run(f"""
                create or replace temp table retrieval_{name}_conflicts as
                select {pair} from retrieval_groups
                where hash({pair}) in (select hash({pair}) as h from retrieval_groups group by h having count(*) > 1)
                group by {pair} having count(*) > 1
            """, f"retrieval: rank conflicts ({name}s with several {'ranks' if name == 'chunk' else 'chunks'})")

    def consensus(self, task: str) -> str:
        """The SQL of the units of a task (one row per group left after rank conflicts) with consensus values."""
        labels = SPEC[task]["labels"]
        columns = []
        for label in labels:
            adjudicated_max = f"low_bit(max_latest_{label})"
            adjudicated_min = f"1 - low_bit(min_latest_{label})"
            method = f"""case
                when n_adjudications > 0 and {adjudicated_min} = {adjudicated_max} then 'adjudicated'
                when n_adjudications > 0 then 'tied'
                when n_votes = 1 then 'single'
                when n_positive_{label} = 0 or n_positive_{label} = n_votes then 'unanimous'
                when 2 * n_positive_{label} <> n_votes then 'majority'
                else 'tied' end"""
            value = f"""case
                when n_adjudications > 0 and {adjudicated_min} = {adjudicated_max} then {adjudicated_min}
                when n_adjudications > 0 or 2 * n_positive_{label} = n_votes then null
                when 2 * n_positive_{label} > n_votes then 1
                else 0 end"""
            columns.append(f"{value} as {label}")
            columns.append(f"({method}) <> 'tied' as resolved_{label}")
        resolved = " and ".join(f"resolved_{label}" for label in labels)
        group = self.unit_key(task) + (["chunk_rank"] if task == "retrieval" else [])
        source = f"""(select g.*, coalesce(j.n_adjudications, 0) as n_adjudications,
                         {', '.join(f'j.max_latest_{label}, j.min_latest_{label}' for label in labels)}
                     from {task}_groups as g left join {task}_adjudications as j using ({', '.join(group)}))"""
        if task == "retrieval":
            source += """
                anti join retrieval_chunk_conflicts using (record_uuid, chunk_id)
                anti join retrieval_rank_conflicts using (record_uuid, chunk_rank)"""
        return f"""
            select {', '.join(group)}, n_human_rows > 0 as is_unit, language_bits, {', '.join(labels)},
                {resolved} as is_resolved
            from (select *, {', '.join(columns)} from {source})
        """

    def retrieval_records(self) -> None:
        """One pass per record: resolved, language, and every measure at every K."""
        max_k = max(K_VALUES)
        # P(j) = sum over positions 1..j of 1 / log2(position + 1): the ideal DCG of a record from its
        # counts of grade-2 and grade-1 chunks
        prefix = ", ".join(f"{sum(1 / math.log2(p + 1) for p in range(1, j + 1))!r}" for j in range(max_k + 1))
        measures = []
        for k in K_VALUES:
            within = f"chunk_rank <= {k}"
            measures += [
                f"cast(sum(case when {within} then topically_relevant else 0 end) as double) / {k} as tp_{k}",
                f"max(case when {within} and evidence_sufficient = 1 then 1 else 0 end) as hit_{k}",
                f"cast(sum(case when {within} then evidence_sufficient else 0 end) as double) / {k} as sr_{k}",
                f"cast(sum(case when {within} then misleading else 0 end) as double) / {k} as mr_{k}",
                f"coalesce(max(case when {within} and topically_relevant = 1 then 1 / cast(chunk_rank as double) end), 0)"
                f" as rr_{k}",
                f"sum(case when {within} then gain / log2(chunk_rank + 1) else 0.0 end) as dcg_{k}",
            ]
        ndcg = []
        for k in K_VALUES:
            top = f"least(n_grade_2, {k})"
            both = f"least(n_grade_2 + n_grade_1, {k})"
            idcg = f"(3 * ideal[{top} + 1] + ideal[{both} + 1] - ideal[{top} + 1])"
            ndcg.append(f"case when {idcg} > 0 then least(dcg_{k} / {idcg}, 1.0) else 0.0 end as ndcg_{k}")
        self.run(f"create or replace temp table retrieval_units as {self.consensus('retrieval')}",
                 "retrieval: consensus per unit")
        self.run(f"""
            create or replace temp table retrieval_records as
            with languages as (
                select record_uuid, {LANGUAGE_OF_BITS.format(bits='bit_or(language_bits)')} as language
                from retrieval_units
                group by record_uuid
            ),
            measured as (
                select
                    record_uuid,
                    bool_and(is_resolved) as is_resolved,
                    count(*) filter (where evidence_sufficient = 1) as n_grade_2,
                    count(*) filter (where coalesce(evidence_sufficient, 0) <> 1 and topically_relevant = 1) as n_grade_1,
                    {', '.join(measures)}
                from (
                    select *,
                        case when evidence_sufficient = 1 then 3.0 when topically_relevant = 1 then 1.0 else 0.0 end as gain
                    from retrieval_units
                    where is_unit
                )
                group by record_uuid
            )
            select measured.*, languages.language, {', '.join(ndcg)}
            from measured
            inner join languages on measured.record_uuid = languages.record_uuid
            cross join (select [{prefix}] as ideal)
        """, "retrieval: records and measures")

    def answer_records(self, task: str) -> None:
        self.run(f"""
            create or replace temp table {task}_records as
            select * exclude (language_bits), {LANGUAGE_OF_BITS.format(bits='language_bits')} as language
            from ({self.consensus(task)})
            where is_unit
        """, f"{task}: consensus and records")

    def summary(self) -> None:
        """metric_values' overall and language rows: means, units and intervals (ragmart_metric_summary):
        Wilson where the measure is 0 or 1 per record at that K, else mean +- t_0.975(n - 1) s / sqrt(n), and
        Wilson too when every record has the same value (s = 0, n >= 2)."""

        def method(interval: str, k: int) -> str:
            return "wilson" if interval == "wilson" or (interval == "wilson_at_k1" and k == 1) else "mean"

        per_family = {
            "retrieval": [(m, k, f"{c}_{k}", method(i, k)) for k in K_VALUES for m, c, i in RETRIEVAL_METRICS],
            "grounding": [(m, None, c, "wilson") for m, c in GROUNDING_METRICS],
            "generation": [(m, None, c, "wilson") for m, c in GENERATION_METRICS],
        }
        selects = []
        for family, metrics in per_family.items():
            aggregates = []
            for i, (_, _, column, _) in enumerate(metrics):
                value = f"cast({column} as double)"
                aggregates += [f"avg({value}) as v{i}", f"count({value}) as n{i}", f"stddev_samp({value}) as s{i}"]
            self.run(f"""
                create or replace temp table {family}_summary as
                select grouping(language) = 1 as is_overall, language, {', '.join(aggregates)}
                from {family}_records
                where is_resolved
                group by grouping sets ((), (language))
            """, f"{family}: means")
            for i, (metric, k, _, interval) in enumerate(metrics):
                selects.append(f"""
                    select '{family}' as family, '{metric}' as metric, cast({k if k is not None else 'null'} as integer) as k,
                        case when is_overall then 'overall' else 'language' end as slice_dimension,
                        case when is_overall then 'all' else language end as slice_value,
                        '{interval}' as interval_method, v{i} as value, n{i} as n_units, s{i} as value_stddev
                    from {family}_summary""")
        z = 1.96
        zz = z * z
        wilson = {sign: f"""(value + {zz!r} / (2.0 * n_units) {sign} {z} * sqrt(value * (1 - value) / n_units
                             + {zz!r} / (4.0 * n_units * n_units))) / (1 + {zz!r} / n_units)""" for sign in "-+"}
        self.run(f"""
            create or replace temp table metric_values as
            select family, metric, k, slice_dimension, slice_value, value, n_units,
                case
                    when interval_method = 'wilson' or (n_units >= 2 and value_stddev = 0) then
                        case when n_units > 0 then greatest(0.0, least(value, {wilson['-']})) end
                    else case when n_units >= 2 then greatest(0.0, value - t_quantile * value_stddev / sqrt(n_units)) end
                end as ci_lower,
                case
                    when interval_method = 'wilson' or (n_units >= 2 and value_stddev = 0) then
                        case when n_units > 0 then least(1.0, greatest(value, {wilson['+']})) end
                    else case when n_units >= 2 then least(1.0, value + t_quantile * value_stddev / sqrt(n_units)) end
                end as ci_upper
            from (
                select *, student_t_975(n_units - 1) as t_quantile
                from ({' union all '.join(selects)})
            )
        """, "metric_values: intervals")

    # ---------------------------------------------------------------------------------------
    def records_input(self) -> None:
        """The records input's rows with their status (int_records__validated), for the quarantine."""
        checks = sorted([
            ("missing:record_uuid", "record_uuid is null"),
            ("invalid_decimal:model_uncertainty", "not is_blank(model_uncertainty_raw) and model_uncertainty is null"),
            ("invalid_boolean:is_adversarial", "not is_blank(is_adversarial_raw) and is_adversarial is null"),
            ("invalid_tier", "tier is not null and tier not in ('tier_a', 'tier_b')"),
        ])
        scans = []
        for path in self.files["records"]:
            col = {name: self.column(path, name, name == "record_uuid") for name in RECORDS_COLUMNS}
            scans.append(f"""
                select {self.file_index(path) * FILE_POSITION_BASE} + ordinality as rid, {literal(path.name)} as source_file,
                    ordinality as source_row, clean_text({col['record_uuid']}) as record_uuid, {col['task_type']} as task_type,
                    {col['model_uncertainty']} as model_uncertainty_raw,
                    parse_decimal({col['model_uncertainty']}) as model_uncertainty,
                    {col['is_adversarial']} as is_adversarial_raw, parse_boolean({col['is_adversarial']}) as is_adversarial,
                    {col['tier']} as tier_raw, clean_text({col['tier']}) as tier
                from {self.reader(path)} with ordinality""")
        if not scans:
            return
        reasons = "nullif(concat_ws(';', " + ", ".join(f"case when {c} then '{code}' end" for code, c in checks) + "), '')"
        count = " + ".join(f"case when {c} then 1 else 0 end" for _, c in checks)
        self.run(f"""
            create or replace temp table records_validated as
            with checked as (
                select *, {reasons} as row_reasons, {count} as n_row_reasons,
                    coalesce(task_type, '-') || '|' || coalesce(cast(model_uncertainty as varchar), '-') || '|'
                        || coalesce(cast(is_adversarial as varchar), '-') || '|' || coalesce(tier, '-') as signature
                from ({' union all '.join(scans)})
            ),
            compared as (
                select *,
                    min(signature) over (partition by record_uuid) as min_signature,
                    max(signature) over (partition by record_uuid) as max_signature,
                    row_number() over (partition by record_uuid order by n_row_reasons, rid) as position
                from checked
            )
            select *,
                case
                    when record_uuid is not null and min_signature <> max_signature then 'rejected'
                    when record_uuid is not null and position > 1 then 'superseded'
                    when n_row_reasons > 0 then 'rejected'
                    else 'accepted'
                end as status,
                case
                    when record_uuid is not null and min_signature <> max_signature
                        then concat_ws(';', 'conflicting_duplicate', row_reasons)
                    else row_reasons
                end as reasons
            from compared
        """, "records: read and validate")

    def quarantine(self) -> None:
        """rejected_annotations: every rejected row, its reasons and its original values as given."""
        originals = original_columns()
        parts = []
        for task in TASKS:
            checks = self.checks(task)
            codes = ", ".join(f"case when reason_mask & {1 << bit} <> 0 then '{code}' end"
                              for bit, (code, _) in enumerate(checks))
            reasons = f"""case
                when d.outcome = 'conflicting' then concat_ws(';', 'conflicting_duplicate', {codes})
                when r.reason_mask <> 0 then concat_ws(';', {codes})
                else 'rank_conflict' end"""
            chunk = "r.chunk_id" if task == "retrieval" else "cast(null as varchar)"
            rank_conflict = "false"
            joins = ""
            if task == "retrieval":
                joins = """
                    left join retrieval_chunk_conflicts as cc on r.record_uuid = cc.record_uuid and r.chunk_id = cc.chunk_id
                    left join retrieval_rank_conflicts as rc on r.record_uuid = rc.record_uuid and r.chunk_rank = rc.chunk_rank"""
                rank_conflict = "(cc.record_uuid is not null or rc.record_uuid is not null)"
            self.run(f"""
                create or replace temp table {task}_rejected as
                select r.rowid as rid, r.record_uuid, r.annotator_id, {chunk} as chunk_id, {reasons} as reasons
                from {task}_rows as r
                left join {task}_dropped as d on r.rowid = d.rid {joins}
                where d.outcome = 'conflicting'
                    or (d.rid is null and r.reason_mask <> 0)
                    or (d.rid is null and r.reason_mask = 0 and {rank_conflict})
            """, f"{task}: rejected rows")
            ranges = self.con.execute(f"""
                select first_rowid, lead(first_rowid) over (order by first_rowid) from {task}_files order by first_rowid
            """).fetchall()
            for number, (path, (first, following)) in enumerate(zip(self.files[task], ranges)):
                parts.append(self.original_values(task, number, path, first, following))
        if self.files["records"]:
            values = ", ".join(f"{name}_raw as {name}" if name in ("model_uncertainty", "is_adversarial", "tier")
                               else (name if name == "task_type" else f"cast(null as varchar) as {name}")
                               for name in originals)
            parts.append(f"""
                select 'records' as task, record_uuid, cast(null as varchar) as annotator_id, cast(null as varchar) as chunk_id,
                    cast(null as varchar) as created_at, reasons, source_file, source_row, rid as annotation_row_id,
                    cast(null as varchar) as task_as_given, {values}, true as is_same_row
                from records_validated where status = 'rejected'""")
        self.run(f"create or replace temp table rejected_annotations as {' union all '.join(parts)}",
                 "quarantine: rejected rows with their original values")
        # both reads must have seen the same rows in the same order
        moved = self.con.execute("select count(*) from rejected_annotations where not is_same_row").fetchone()[0]
        expected = sum(self.con.execute(f"select count(*) from {task}_rejected").fetchone()[0] for task in TASKS)
        found = self.con.execute("select count(*) from rejected_annotations where task <> 'records'").fetchone()[0]
        if moved or found != expected:
            sys.exit(f"core_floor: the second read of the files does not match the first ({moved} rows differ, "
                     f"{found} of {expected} rejected rows found); the row order of DuckDB's CSV scan is not the file's")
        self.con.execute("alter table rejected_annotations drop column is_same_row")

    def original_values(self, task: str, number: int, path: Path, first: int, following: int | None) -> str:
        """The SQL of the rejected rows of one file with their original values, from a second read of the file.

        The second read is a parallel scan that keeps, in file order, the rows whose record_uuid hashes
        to a bucket of a rejected row's record_uuid (or is missing), with all their columns. The same
        filter on the first read's table gives the same rows in the same order, by rowid, so the k-th
        row of one is the k-th of the other. The filter is a constant bitmap (a join would not keep
        the order), and the caller checks that both reads agree on every rejected row's ids.
        """
        originals = original_columns()
        col = {name: self.column(path, name, required) for name, required in export_columns(task)}
        values = ", ".join(f"{col[name] if name in col else 'cast(null as varchar)'} as {name}" for name in originals)
        in_file = f"rowid >= {first}" + (f" and rowid < {following}" if following is not None else "")
        name = f"{task}_{number}"
        buckets = 1 << 20
        bitmap = self.con.execute(f"""
            select cast(bitstring_agg(cast(hash(record_uuid) % {buckets} as integer), 0, {buckets - 1}) as varchar)
            from {task}_rejected where {in_file.replace('rowid', 'rid')} and record_uuid is not null
        """).fetchone()[0] or "0" * buckets

        def kept(expression: str) -> str:
            return (f"(get_bit(cast(? as bit), cast(hash({expression}) % {buckets} as integer)) = 1 "
                    f"or {expression} is null)")

        started = self.clock()
        self.con.execute(f"""
            create or replace temp table {name}_read_again as
            select
                clean_text({col['record_uuid']}) as record_uuid_as_read,
                clean_text({col['annotator_id']}) as annotator_id_as_read,
                {col['created_at']} as created_at,
                clean_text({col['task']}) as task_as_given,
                {values}
            from {self.reader(path)}
            where {kept(f"clean_text({col['record_uuid']})")}
        """, [bitmap])
        self.con.execute(f"""
            create or replace temp table {name}_positions as
            select rowid as rid, row_number() over (order by rowid) as position
            from {task}_rows
            where {in_file} and {kept('record_uuid')}
        """, [bitmap])
        self.timed(f"{task}: second read of {path.name}", started)
        counts = self.con.execute(f"select (select count(*) from {name}_positions), (select count(*) from {name}_read_again)")
        same_rows, read_again = counts.fetchone()
        if same_rows != read_again:
            sys.exit(f"core_floor: the second read of {path.name} found {read_again} rows where the first found {same_rows}")
        return f"""
            select '{task}' as task, x.record_uuid, x.annotator_id, x.chunk_id, f.created_at, x.reasons,
                {literal(path.name)} as source_file, x.rid - {first - 1} as source_row,
                {self.file_index(path) * FILE_POSITION_BASE} + x.rid - {first - 1} as annotation_row_id,
                f.task_as_given, {', '.join('f.' + c for c in originals)},
                x.record_uuid is not distinct from f.record_uuid_as_read
                    and x.annotator_id is not distinct from f.annotator_id_as_read as is_same_row
            from {task}_rejected as x
            inner join {name}_positions as p on x.rid = p.rid
            inner join {name}_read_again as f on f.rowid + 1 = p.position"""

    def accounting(self) -> dict:
        counts = {}
        for task in TASKS:
            rows, dropped, rejected = self.con.execute(f"""
                select (select count(*) from {task}_rows),
                    (select count(*) from {task}_dropped where outcome = 'superseded'),
                    (select count(*) from {task}_rejected)
            """).fetchone()
            counts[task] = {"rows": rows, "accepted": rows - dropped - rejected, "rejected": rejected, "superseded": dropped}
        if self.files["records"]:
            status = dict(self.con.execute("select status, count(*) from records_validated group by status").fetchall())
            counts["records"] = {"rows": sum(status.values()), **{s: status.get(s, 0) for s in
                                                                  ("accepted", "rejected", "superseded")}}
        return counts

    # ---------------------------------------------------------------------------------------
    def compute(self) -> dict:
        started = self.clock()
        self.annotators()
        for task in TASKS:
            self.read_export(task)
            self.deduplicate(task)
            self.unit_votes(task)
        self.rank_conflicts()
        self.retrieval_records()
        for task in ("grounding", "generation"):
            self.answer_records(task)
        self.summary()
        self.records_input()
        self.quarantine()
        results = self.results()
        self.timed("total", started)
        return results

    def fetch(self, sql: str) -> list[dict]:
        cursor = self.con.execute(sql)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def results(self) -> dict:
        started = self.clock()
        pivot = {}
        for family in ("retrieval", "grounding", "generation"):
            counts = self.con.execute(f"""
                select coalesce(sum(case when is_resolved then 1 else 0 end), 0),
                    coalesce(sum(case when is_resolved then 0 else 1 end), 0)
                from {family}_records""").fetchone()
            pivot[family] = counts
        overall = {(r["family"], r["metric"], r["k"]): r for r in
                   self.fetch("select * from metric_values where slice_dimension = 'overall'")}
        retrieval = []
        for k in K_VALUES:
            row = {"k": k, "n_queries": pivot["retrieval"][0], "n_pending_adjudication": pivot["retrieval"][1]}
            for metric, _, _ in RETRIEVAL_METRICS:
                name = f"{metric}_at_k" if metric != "mrr" else "mrr_at_k"
                row[name] = overall.get(("retrieval", metric, k), {}).get("value")
            retrieval.append(row)
        grounding = {"n_answers": pivot["grounding"][0], "n_pending_adjudication": pivot["grounding"][1]}
        for metric, _ in GROUNDING_METRICS:
            grounding[metric] = overall.get(("grounding", metric, None), {}).get("value")
        grounding["n_cited_answers"] = overall.get(("grounding", "conditional_fabrication_rate", None), {}).get("n_units") or 0
        generation = {"n_answers": pivot["generation"][0], "n_pending_adjudication": pivot["generation"][1]}
        for metric, _ in GENERATION_METRICS:
            generation[metric] = overall.get(("generation", metric, None), {}).get("value")
        results = {
            "retrieval_metrics": retrieval,
            "grounding_metrics": grounding,
            "generation_metrics": generation,
            "metric_values": self.fetch(f"select {', '.join(METRIC_VALUE_COLUMNS)} from metric_values "
                                        "order by family, metric, k, slice_dimension, slice_value"),
            "rejected_annotations": self.fetch("select * from rejected_annotations order by task, source_file, source_row"),
            "accounting": self.accounting(),
        }
        self.timed("results to Python", started)
        return results


# --------------------------------------------------------------------------------------------
# Self-test of the fast paths: each parse with its fast path equals the rule alone
# --------------------------------------------------------------------------------------------
SELF_TEST_VALUES = {
    "timestamp": ["2025-03-01T10:15:00", "2025-03-01 10:15", "2025-03-01T10:15:00.250", "2025-03-01T10:15:00Z",
                  "2025-03-01T10:15:00+01:00", "2025-03-01T10:15:00-05:00", "2025-03-01T10:15:00+0130",
                  "2025-03-01T10:15:00+01", "2025-03-01T10:15:00-0000", " 2025-03-01T10:15:00 ", "0000-01-01T00:00:00",
                  "2025-02-30T10:00:00", "2025-03-01T24:00:00", "2025-03-01T10:15:00.1234567+01:00",
                  "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+01:00", "2025-03-01", "2025-03-01T10:15:60",
                  "yesterday", "2025-03-01t10:15:00", "2025-03-01T10:15:00z", "2025-3-01T10:15:00",
                  "2025-03-01T10:15:00+1:00", "2025-03-01T10:15:00+01:0", "2025-03-01T10:15:00 +01:00",
                  "\t2025-03-01T10:15:00\n", "2025-03-01T10:15:00.", "+2025-03-01T10:15:00", "2024-02-29T23:59:59+23:59",
                  "2023-02-29T00:00:00", "2025-03-01T00:00:00+24:00", "2025-03-01T10:15:00Z ", "12025-03-01T10:15:00",
                  "2025-03-01T1:15:00", None, "", "   "],
    "rank": ["1", "01", "0", "00", "10", "20", "21", "3.0", "3.00", " 3", "3 ", "-3", "+3", "1e3", "2.5", "abc",
             "99999999999999999999", "9223372036854775807", "9223372036854775808", None, "", " ", "\t7\n", "3.", ".0"],
    "text": ["a", " a", "a ", "\ta", "a\n", "\r\n", "", None, "  ", "ä", " ä ", "\x0bA", "A\x0b", "!", " ! ", "x y",
             "\u00a0a", "a\u0301", "\u0301 "],
    "boolean": ["true", "t", "1", "yes", "y", "TRUE", "True", "T", "YES", "Yes", "Y", "tRuE", " true ", "false", "f", "0",
                "no", "n", "FALSE", "No", "N", " N\t", "maybe", "2", "", None, "ja", "yEs", "\u0130", "\n"],
}
SELF_TEST_RULES = {
    "timestamp": ("parse_timestamp(x)", "parse_timestamp_rule(x)"),
    "rank": ("parse_rank(x)", "case when regexp_full_match(ragmart_trim(x), '[0-9]+([.]0+)?') "
             "then nullif(try_cast(regexp_extract(ragmart_trim(x), '^([0-9]+)', 1) as bigint), 0) end"),
    "text": ("clean_text(x)", "nullif(ragmart_trim(x), '')"),
    "blank": ("is_blank(x)", "nullif(ragmart_trim(x), '') is null"),
    "boolean": ("boolean_code(x)", f"""case when lower(ragmart_trim(x)) in {text_list(TRUE_SPELLINGS)} then 1
        when lower(ragmart_trim(x)) in {text_list(FALSE_SPELLINGS)} then 0 when nullif(ragmart_trim(x), '') is null then 2
        else 3 end"""),
}


def self_test() -> list[str]:
    """Every fast path against the rule it shortcuts, on edge values, and the t quantile; the differences."""
    floor_con = duckdb.connect()
    floor_con.execute("set TimeZone = 'UTC'")
    floor_con.execute(MACROS)
    failures = []
    for name, (fast, rule) in SELF_TEST_RULES.items():
        values = SELF_TEST_VALUES["text" if name == "blank" else name]
        rows = floor_con.execute(f"select x, {fast}, {rule} from unnest(?) as t(x) where ({fast}) is distinct from ({rule})",
                                 [values]).fetchall()
        failures += [f"{name}: {x!r} gives {a!r} on the fast path, {b!r} by the rule" for x, a, b in rows]
    return failures + t_quantile_self_test(floor_con)


def t_quantile_self_test(floor_con: duckdb.DuckDBPyConnection) -> list[str]:
    """student_t_975 against its sources: the macro gives the n-th value of the project's table (read
    from macros/metrics/ragmart_student_t_975_table.sql) at df n, the expansion evaluated in Python above
    df 100 (the same double), and null below 1."""
    failures = []
    if len(STUDENT_T_975) != 100:
        failures.append(f"t quantile: the project's table holds {len(STUDENT_T_975)} values, not 100 (df 1 ... 100)")
    degrees = [None, -1, 0, *range(1, 1001), 5000, 65536, 10**6, 10**9]
    for df, t in floor_con.execute("select df, student_t_975(df) from unnest(?) as d(df)", [degrees]).fetchall():
        if df is None or df < 1:
            expected = None
        elif df <= 100:
            expected = STUDENT_T_975[df - 1]
        else:
            expected = T_Z + (T_G[0] + (T_G[1] + (T_G[2] + (T_G[3] + T_G[4] / df) / df) / df) / df) / df
        if t != expected:
            failures.append(f"t quantile: df {df!r} gives {t!r}, expected {expected!r}")
    return failures


# --------------------------------------------------------------------------------------------
# Comparison with a ragmart database
# --------------------------------------------------------------------------------------------
def same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is None and b is None
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def check(results: dict, database: str) -> list[str]:
    con = duckdb.connect(database, read_only=True)

    def fetch(sql: str) -> list[dict]:
        cursor = con.execute(sql)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    differences = []

    def compare_rows(mart: str, ours: list[dict], theirs: list[dict], key: list[str], columns: list[str]) -> None:
        mine = {tuple(r[c] for c in key): r for r in ours}
        built = {tuple(r[c] for c in key): r for r in theirs}
        for side, rows, keyed in (("the floor", ours, mine), ("the database", theirs, built)):
            if len(keyed) != len(rows):   # e.g. several runs, which the floor does not model: not compared
                differences.append(f"{mart}: {len(rows) - len(keyed)} row(s) in {side} repeat a key {key}")
        for k in sorted(set(mine) | set(built), key=repr):
            if k not in built:
                differences.append(f"{mart}: row {k} only in the floor")
            elif k not in mine:
                differences.append(f"{mart}: row {k} only in the database")
            else:
                for c in columns:
                    if not same(mine[k].get(c), built[k].get(c)):
                        differences.append(f"{mart}: row {k}: {c} is {mine[k].get(c)!r} in the floor, "
                                           f"{built[k].get(c)!r} in the database")

    columns = WIDE_COLUMNS["retrieval_metrics"]
    compare_rows("retrieval_metrics", results["retrieval_metrics"],
                 fetch(f"select {', '.join(columns)} from retrieval_metrics"), ["k"], columns)
    for mart in ("grounding_metrics", "generation_metrics"):
        columns = WIDE_COLUMNS[mart]
        compare_rows(mart, [results[mart]], fetch(f"select {', '.join(columns)} from {mart}"), [], columns)
    key = ["family", "metric", "k", "slice_dimension", "slice_value"]
    compare_rows("metric_values", results["metric_values"],
                 fetch(f"select {', '.join(METRIC_VALUE_COLUMNS)} from metric_values "
                       "where slice_dimension in ('overall', 'language')"),
                 key, ["value", "n_units", "ci_lower", "ci_upper"])

    # the quarantine as a multiset of rows (the row ids of the two numberings may differ)
    built_columns = {r[0] for r in con.execute("describe rejected_annotations").fetchall()}
    compared = ["task", "record_uuid", "annotator_id", "chunk_id", "reasons", "created_at", "task_as_given",
                *original_columns()]
    compared += [c for c in ("source_file", "source_row") if c in built_columns]
    missing = [c for c in compared if c not in built_columns]
    if missing:
        differences.append(f"rejected_annotations: the database lacks the columns {missing}")
        compared = [c for c in compared if c in built_columns]
    mine = Counter(tuple(r[c] for c in compared) for r in results["rejected_annotations"])
    built = Counter(tuple(r[c] for c in compared) for r in fetch(f"select {', '.join(compared)} from rejected_annotations"))
    for row, n in sorted((mine - built).items(), key=repr):
        differences.append(f"rejected_annotations: {n} x only in the floor: {dict(zip(compared, row))}")
    for row, n in sorted((built - mine).items(), key=repr):
        differences.append(f"rejected_annotations: {n} x only in the database: {dict(zip(compared, row))}")

    where = {name: schema for schema, name in con.execute(
        "select table_schema, table_name from information_schema.tables").fetchall()}
    if "int_annotations__row_status" in where:
        built_status = {(task, status): n for task, status, n in con.execute(
            f'select task, annotation_status, count(*) from "{where["int_annotations__row_status"]}".'
            "int_annotations__row_status group by all").fetchall()}
        for task, counts in results["accounting"].items():
            for status in ("accepted", "rejected", "superseded"):
                if counts[status] != built_status.get((task, status), 0):
                    differences.append(f"accounting: {task} {status} is {counts[status]} in the floor, "
                                       f"{built_status.get((task, status), 0)} in the database")
    return differences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("folder", type=Path, nargs="?", help="the export folder (files mode)")
    parser.add_argument("--check", metavar="DATABASE", help="compare with this ragmart DuckDB database (built by dbt)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write the results as JSON to FILE")
    parser.add_argument("--timings", action="store_true", help="print each step's wall and CPU seconds to stderr")
    parser.add_argument("--database", default=":memory:", metavar="FILE",
                        help="a DuckDB database file for the work tables (default: in memory)")
    parser.add_argument("--self-test", action="store_true",
                        help="check every fast path of the parsing against the rule it shortcuts, on edge values, "
                             "and the t quantile against its table and expansion, and exit")
    args = parser.parse_args()
    if args.self_test:
        failures = self_test()
        for line in failures:
            print(line)
        print(f"self-test: {len(failures)} difference(s) between the fast paths and the rules, or in the t quantile")
        return 1 if failures else 0
    if args.folder is None:
        parser.error("the export folder is required")

    floor = Floor(args.folder, args.database)
    results = floor.compute()
    if args.timings:
        print("    wall      cpu  step", file=sys.stderr)
        for step, wall, cpu in floor.timings:
            print(f"{wall:7.2f}s {cpu:7.2f}s  {step}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    accounting = results["accounting"]
    print("accounting: " + "; ".join(f"{t} {c['rows']:,} rows = {c['accepted']:,} accepted + {c['rejected']:,} rejected + "
                                     f"{c['superseded']:,} superseded" for t, c in accounting.items()))
    for row in results["retrieval_metrics"]:
        print(f"retrieval k={row['k']}: n_queries {row['n_queries']:,}, ndcg {row['ndcg_at_k']}, mrr {row['mrr_at_k']}")
    print(f"grounding: {results['grounding_metrics']}")
    print(f"generation: {results['generation_metrics']}")
    print(f"rejected_annotations: {len(results['rejected_annotations']):,} rows")
    if args.check:
        differences = check(results, args.check)
        for line in differences[:200]:
            print(line)
        if differences:
            print(f"check: {len(differences)} difference(s) with {args.check}")
            return 1
        print(f"check: the floor equals {args.check} (retrieval_metrics, grounding_metrics, generation_metrics, "
              "metric_values overall and language, rejected_annotations, row status counts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
