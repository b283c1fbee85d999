#!/usr/bin/env python3
"""Generate large, realistic annotation exports for ragmart (scale and robustness tests).

Writes synthetic exports of the "Publikationsbot" (a German/English RAG chatbot
about federal government publications) in the schemas of docs/rules.md
(Inputs), with the columns and order of scripts/lib/export_schema.py and the cells
of dev/generate/export_data.py, streaming block by block, so the size is limited by
disk, not memory.

Usage::

    python dev/generate/generate_exports.py --records 20000 --out /tmp/exports
    python dev/generate/generate_exports.py --records 575000 --annotators 2 --chunks 10 \\
        --files 8 --out /tmp/big          # about 10M retrieval rows, 4.5 GB of CSV
    python dev/generate/generate_exports.py --help

Files written to ``--out`` (files of the same names are replaced; stale
``*_annotations[_partNNN].csv|parquet`` files there are removed first):

    retrieval_annotations[_partNNN].csv|parquet   one row per (record, chunk, annotator)
    grounding_annotations[_partNNN].csv|parquet   one row per (record, annotator)
    generation_annotations[_partNNN].csv|parquet  one row per (record, annotator)
    annotators.csv         annotator_id, annotator_kind, role, display_name
    records.csv            record_uuid, task_type, model_uncertainty, is_adversarial, tier
                           (with --runs N > 1 also run_id, query_id)
    expected_status.csv    every row that is not accepted, with its expected status
    summary.json           parameters, row counts, expected status counts per task

With ``--files N`` (N > 1) each export is split into N parts (``_part001`` ...)
by ranges of records, so all rows of a record are in one part, and the parts
concatenated equal the single-file output.  CSV is UTF-8 with ``\\n`` line
endings, quoted only where needed (as csv.QUOTE_MINIMAL); texts contain
commas, double quotes, umlauts and, in about 1 % of them, a line break.
Parquet files hold the same values in the same order, every column VARCHAR
(an empty CSV cell is the empty string, never NULL); each part is written as
a temporary CSV and converted by DuckDB (``COPY (SELECT ... FROM read_csv(...,
all VARCHAR)) TO ... (FORMAT parquet)``) in a background thread.

Determinism: records are generated in blocks of 1000; block b draws from
``random.Random(f"{seed}|block|{b}")``, so the same arguments give
byte-identical CSV whatever ``--files`` and ``--jobs`` are.  With ``--jobs``
> 1, forked worker processes generate blocks in parallel and append them to
the files themselves, in block order.

Content:

* Records: a query, its rewritten search query, ``--chunks`` retrieved chunks
  of the query's topic (ranks 1..N, relevance falling with rank), an answer
  and a context set (the top 3 chunks joined by `` [SEP] ``); ``de`` or
  ``en``; about 5 % leave the optional ``language`` column empty.
* Annotators: ``--annotators`` HUMAN annotators, one HUMAN adjudicator
  (``m.koenig``) and one LLM judge (``llm.judge-gpt4o``).  A share
  ``--dual-rate`` of the records is dual-annotated (two different human
  annotators: the ADR-001 gold tier), the others single-annotated (triage).
  About 15 % of the dual-annotated units disagree on some label; about 85 %
  of those are adjudicated (adjudicator rows two to five days later), the rest
  stay tied.  The LLM judge labels every unit of about 30 % of the records
  (it never votes).  The labels of a record come from one of 512 label
  layouts precomputed per kind of record (single/dual, with/without judge).
* Labels: every label of the task spec (dbt_project.yml), in its order; a
  chunk's true labels from its relevance state, an answer's from
  ANSWER_TRUTH, and a label neither names (a label added to the spec) 1 in
  NEW_LABEL_SHARE of the chunks or answers.  Labels of good rows satisfy the
  ADR 0006 constraints; booleans in several
  accepted spellings (true/false, 1/0, yes/no, Y/N, t/f, TRUE, True, padded).
  About 3 % of the annotator sessions carry a note on one row.
* created_at: six weeks from Mon 2025-03-03 (adjudications up to a week
  later) in mixed ISO 8601 forms: ``Z``, no zone (UTC), ``+01:00``/``+02:00``
  (Berlin time, DST from 2025-03-30), ``-05:00``, fractional seconds (3 or 6
  digits), a space instead of ``T``.
* records.csv: one row per record.  The dual-annotated records are exactly
  those that ADR-001 routes to the gold tier under the default vars (gold
  task type, model_uncertainty >= 0.65, is_adversarial, or an explicit
  ``tier_b``); the others match no rule (about 3 % carry an explicit
  ``tier_a`` that wins over a gold task type).  With ``--runs N`` (N > 1)
  record i is in run ``r<i mod N + 1>`` and answers query ``q<i div N>``: the
  runs answer the same queries, each with its own labels (run comparison).

Deliberately bad rows (``--bad-rate``: the share of rows that end not
accepted): a record hosts at most one defect scenario per export; the kinds
come in shuffled rounds, so that every kind occurs and the expected status of
every row follows from the construction alone:

* row-level defects on one row that is alone for its (unit, annotator):
  ``missing:<column>`` (empty or blank), ``invalid_boolean:<label|can_answer>``,
  ``invalid_rank``, ``invalid_timestamp``, ``invalid_language``, ``wrong_task``,
  each ``violates:*`` code of docs/rules.md (and both codes of a task at once),
  and rows with two or three of these.  A label made missing or invalid never
  stands against an antecedent that is 1 (no doubt about the constraints);
* ``superseded``: an earlier submission of a row that is re-submitted later
  (sometimes with defects of its own, sometimes twice), and a same-instant
  copy with the same labels and one more reason;
* ``conflicting_duplicate``: two rows of one unit and annotator at the same
  instant (sometimes written in two forms) with different, valid labels;
* ``rank_conflict`` (retrieval): a row gives its chunk a rank no chunk of the
  record has (every row of that chunk is rejected), or a chunk claims the rank
  of another chunk (every row of both chunks).

Statuses follow docs/rules.md under the default ``constraint_policy: reject``;
summary.json also gives the counts under ``repair``.  The generator writes
the status it built each row for; it does not apply the row rules itself (the
test suite checks its statuses against the project's reference implementation
of the rules, dev/tests/reference/).  ``expected_status.csv``
lists each non-accepted row: task, file, row_number_in_file (1-based data
row, the header not counted), record_uuid, annotator_id, chunk_id (empty
outside retrieval), status, reasons (``;``-separated, sorted; empty for
superseded rows) and scenario (the defect kind that produced it).

Progress goes to stderr: a bar on a terminal, one line per 10 % otherwise,
nothing with ``--quiet``.

Its pace and memory are in docs/benchmarks.md ("The export generator").  The
blocks are written from precomputed byte tables; the rows of the records that
host a defect, and those of the first SELF_CHECK_RECORDS records, are written
by export_data (export_row, timestamp) and the fast lines are checked against
them.
"""

from __future__ import annotations

import argparse
import bisect
import calendar
import csv
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import time
from collections import Counter, deque
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

# the modules this script imports from the project's other folders
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / folder) for folder in ("scripts/lib",)]
from export_data import (
    BAD_CELLS,
    BOOLEANS,
    CHUNK_STATES,
    RETRIEVAL_CONFUSIONS,
    STYLES,
    TRIAGE_TASK_TYPES,
    boolean,
    breaking,
    broken_constraints,
    export_row,
    is_valid,
    labels_with,
    named,
    neighbours,
    ordered,
    read_boolean,
    timestamp,
)
from export_schema import (
    COLUMNS,
    CONSTRAINTS,
    GOLD_TASK_TYPES,
    GOLD_UNCERTAINTY_THRESHOLD,
    LABELS,
    REQUIRED,
    TASKS,
    made_valid,
    write_csv,
)

TEXT_COLUMNS = {
    "retrieval": ["input_query", "chunk"],
    "grounding": ["query", "answer", "context_set"],
    "generation": ["query", "answer"],
}
COL = {task: {c: i for i, c in enumerate(COLUMNS[task])} for task in TASKS}
IMPLICATION_CODES = {c for cs in CONSTRAINTS.values() for c, _, _, k in cs if k == "implies"}

# --------------------------------------------------------------------------
# Generation constants
# --------------------------------------------------------------------------
LLM_RATE = 0.30           # share of records the LLM judge labels (all units, all tasks)
DISAGREE_RATE = 0.15      # share of dual-annotated units where the two annotators differ
ADJUDICATE_RATE = 0.85    # share of disagreeing units the adjudicator decides
LLM_NOISE = 0.10          # share of the LLM judge's units that differ from the truth
NOTE_RATE = 0.03          # share of annotator rows with a note
NO_LANGUAGE_RATE = 0.05   # share of records with an empty language column
NEWLINE_RATE = 0.01       # share of texts with a line break
CHUNKS_PER_TOPIC = 101    # a prime: chunks of a record are picked with a stride
QUERIES_PER_TOPIC = 60
BLOCK = 1000              # records per block; each block has its own random stream
WRITE_BUFFER = 1 << 20
TEMPLATES = 512           # label layouts per kind of record (single/dual x with/without LLM)
SELF_CHECK_RECORDS = 100  # the fast lines of the first records are checked against rows()
WEEKS = 6
FIRST_DAY = calendar.timegm((2025, 3, 3, 0, 0, 0))      # Monday of ISO week 2025-W10
DST_START = calendar.timegm((2025, 3, 30, 1, 0, 0))     # Berlin: +01:00 before, +02:00 after
DAY_OFFSET = 14                                          # DATES[0] is FIRST_DAY - 14 days
DATES = [(datetime(2025, 3, 3, tzinfo=UTC) + timedelta(days=d - DAY_OFFSET)).strftime("%Y-%m-%d")
         for d in range(DAY_OFFSET + WEEKS * 7 + 30)]
HMS = [f"{h:02d}:{m:02d}:{s:02d}" for h in range(24) for m in range(60) for s in range(60)]
DATES_B = [d.encode() for d in DATES]
HMS_B = [t.encode() for t in HMS]
DAY_BASE = FIRST_DAY - DAY_OFFSET * 86400

# The timestamp styles and boolean spellings of these exports (names of export_data's STYLES and
# BOOLEANS), in the order the random choices draw from.
EXPORT_STYLES = {name: STYLES[name] for name in
                 ("z", "naive", "space", "space_z", "berlin", "est", "frac_z", "space_frac", "berlin_frac")}
HUMAN_STYLES = list(EXPORT_STYLES)
SPELLINGS = {name: BOOLEANS[name] for name in ("tf", "num", "yn", "YN", "short", "upper", "cap", "padded")}
HUMAN_SPELLINGS = ["yn", "YN", "upper", "cap", "padded", "num"]

HUMAN_NAMES = [
    ("a.schaefer", "Anna Schäfer"), ("j.mueller", "Jörg Müller"), ("k.oezdemir", "Kübra Özdemir"),
    ("l.weiss", "Lena Weiß"), ("t.grosse", "Tobias Große"), ("s.becker", "Sophie Becker"),
    ("m.yilmaz", "Mehmet Yılmaz"), ("c.hoffmann", "Clara Hoffmann"), ("f.krueger", "Fynn Krüger"),
    ("e.jaeger", "Emma Jäger"),
]
ADJUDICATOR = ("m.koenig", "HUMAN", "adjudicator", "Dr. Matthias König")
LLM_JUDGE = ("llm.judge-gpt4o", "LLM", "annotator", "GPT-4o judge (prompt v3, temperature 0)")

GOLD_AT = round(GOLD_UNCERTAINTY_THRESHOLD * 100)   # model_uncertainty is written in hundredths
if not 6 <= GOLD_AT <= 99:
    raise SystemExit(f"generate_exports.py: gold_uncertainty_threshold {GOLD_UNCERTAINTY_THRESHOLD} of dbt_project.yml"
                     " leaves no hundredth from 0.05 below it or none up to 0.99 above it")
NOT_ADVERSARIAL = ("false", "0", "no", "", "")

# The true labels of a record's answer (grounding, generation), drawn label by label in this
# order: the share of answers where the label is 1, or (another label drawn before it, {that
# label's value: the share}), where a value not named makes the label 0 without a draw.
ANSWER_TRUTH = {
    "grounding": [("support_present", 0.85), ("unsupported_claim_present", 0.25), ("source_cited", 0.7),
                  ("contradicted_claim_present", ("unsupported_claim_present", {1: 0.3})),
                  ("fabricated_source", ("source_cited", {1: 0.06}))],
    "generation": [("response_on_topic", 0.9), ("proper_action", 0.9),
                   ("helpful", ("response_on_topic", {1: 0.8, 0: 0.1})), ("incomplete", 0.25),
                   ("unsafe_content", 0.01)],
}
# A label of the task spec that ANSWER_TRUTH or the chunk states (export_data's CHUNK_STATES) do not
# name is 1 in this share of the answers or chunks, drawn after the others in the spec's order; the
# task's logical constraints are then set right. Annotators and the judge flip it as any other.
NEW_LABEL_SHARE = 0.3
DRAWN_LABELS = {"retrieval": {label for state in CHUNK_STATES.values()
                              for label, value in named("retrieval", state).items() if value},
                **{task: {label for label, _ in truth} for task, truth in ANSWER_TRUTH.items()}}
NEW_LABELS = {task: [label for label in LABELS[task] if label not in DRAWN_LABELS[task]] for task in TASKS}

# the retrieval label states (topically_relevant, evidence_sufficient, misleading) by short name
SUFF, REL, RELMIS, IRR, IRRMIS = (CHUNK_STATES[state] for state in (
    "sufficient", "relevant", "relevant_misleading", "irrelevant", "irrelevant_misleading"))
SUFFICIENT = LABELS["retrieval"].index("evidence_sufficient")


def with_new_labels(task: str, labels: dict, rand) -> tuple:
    """Labels by name (those drawn so far) with the task's NEW_LABELS drawn, in the spec's order
    and with its constraints set right."""
    for label in NEW_LABELS[task]:
        labels[label] = 1 if rand() < NEW_LABEL_SHARE else 0
    return ordered(task, made_valid(task, labels))


def answer_truth(task: str, rand) -> tuple:
    """The true labels of a record's answer in the spec's order (ANSWER_TRUTH, then NEW_LABELS)."""
    labels = {}
    for label, share in ANSWER_TRUTH[task]:
        if label not in LABELS[task]:
            continue
        if isinstance(share, tuple):
            given, shares = share
            share = shares.get(labels[given])
            if share is None:
                labels[label] = 0
                continue
        labels[label] = 1 if rand() < share else 0
    return with_new_labels(task, labels, rand)


def chunk_confusions() -> dict[tuple, list[tuple]]:
    """RETRIEVAL_CONFUSIONS for every chunk state with the values of the NEW_LABELS: a confusion
    keeps them (and then the constraints hold)."""
    new = NEW_LABELS["retrieval"]
    out = {}
    for code in range(2 ** len(new)):
        values = {label: (code >> i) & 1 for i, label in enumerate(new)}
        for state, others in RETRIEVAL_CONFUSIONS.items():
            key = ordered("retrieval", made_valid("retrieval", named("retrieval", state) | values))
            near = out.setdefault(key, [])
            for other in others:
                confused = ordered("retrieval", made_valid("retrieval", named("retrieval", other) | values))
                if confused != key and confused not in near:
                    near.append(confused)
    return out


FLIPS = {"retrieval": chunk_confusions(), "grounding": neighbours("grounding"),
         "generation": neighbours("generation", one_way=("unsafe_content",))}

KINDS = {
    "retrieval": ["missing", "invalid_boolean", "invalid_rank", "invalid_timestamp",
                  "invalid_language", "wrong_task", "violates_sufficient_implies_relevant",
                  "violates_sufficient_excludes_misleading", "violates_both", "several",
                  "conflicting_duplicate", "rank_conflict_two_ranks", "rank_conflict_shared_rank",
                  "resubmission", "duplicate_more_reasons"],
    "grounding": ["missing", "invalid_boolean", "invalid_timestamp", "invalid_language",
                  "wrong_task", "violates_contradicted_implies_unsupported",
                  "violates_fabricated_implies_cited", "violates_both", "several",
                  "conflicting_duplicate", "resubmission", "duplicate_more_reasons"],
    "generation": ["missing", "invalid_boolean", "invalid_timestamp", "invalid_language",
                   "wrong_task", "several", "conflicting_duplicate", "resubmission",
                   "duplicate_more_reasons"],
}
# An earlier submission that broke the task's first constraint (then re-submitted): retrieval from
# no label set, grounding from a supported, cited answer.
BROKEN_EARLIER = {
    task: breaking(task, labels_with(task, *ones), [CONSTRAINTS[task][0][0]])
    for task, ones in (("retrieval", ()), ("grounding", ("support_present", "source_cited")))
}
MANIFEST_COLUMNS = ["task", "file", "row_number_in_file", "record_uuid", "annotator_id",
                    "chunk_id", "status", "reasons", "scenario"]


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------
def esc(value: str) -> str:
    """One CSV field as csv.QUOTE_MINIMAL writes it."""
    if '"' in value or "," in value or "\n" in value or "\r" in value:
        return '"' + value.replace('"', '""') + '"'
    return value


def new_uuid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) & 3]}{h[17:20]}-{h[20:]}"


def frac_digits(epoch: int, digits: int) -> str:
    """Fraction digits of a timestamp, derived from the instant (cheaper than a random draw)."""
    if digits == 3:
        return f"{epoch * 7919 % 1000:03d}"
    return f"{epoch * 104729 % 1000000:06d}" if digits else ""


FRAC3_B = [b".%03d" % i for i in range(1000)]
ZONE_SUFFIX = {"Z": b"Z,", "": b","}
SEP_B = {"T": b"T", " ": b" "}


def fmt_ts(epoch: int, frac: str, style: tuple) -> str:
    """An instant (whole seconds since the epoch plus its fraction digits) as export_data writes it
    in a style; the blocks' fast path writes the same bytes from its tables."""
    micro = int(frac.ljust(6, "0")) if frac else 0
    return timestamp(datetime.fromtimestamp(epoch, UTC).replace(microsecond=micro), style)


# --------------------------------------------------------------------------
# Texts: small pools built once, picked by index (cheap and realistic enough)
# --------------------------------------------------------------------------
TOPICS = {
    "de": [("Grundfreibetrag", "BMF"), ("Elterngeld", "BMFSFJ"), ("Entfernungspauschale", "BMF"),
           ("Bürgergeld", "BMAS"), ("Mindestlohn", "BMAS"), ("Pflegegrad", "BMG"),
           ("BAföG", "BMBF"), ("Wohngeld", "BMWSB"), ("Kinderzuschlag", "BMFSFJ"),
           ("Deutschlandticket", "BMDV"), ("Kurzarbeitergeld", "BMAS"), ("Einbürgerung", "BMI"),
           ("Grundsteuer", "BMF"), ("Heizungsförderung", "BMWK"), ("Mutterschutz", "BMFSFJ"),
           ("Minijob", "BMAS"), ("Bio-Siegel", "BMEL"), ("Blaue Karte EU", "BMI"),
           ("Barrierefreiheitsstärkungsgesetz", "BMAS"), ("Führerscheinumtausch", "BMDV")],
    "en": [("basic tax allowance", "BMF"), ("parental allowance", "BMFSFJ"),
           ("commuter allowance", "BMF"), ("citizen's income (Bürgergeld)", "BMAS"),
           ("minimum wage", "BMAS"), ("care level", "BMG"), ("student aid (BAföG)", "BMBF"),
           ("housing benefit", "BMWSB"), ("child supplement", "BMFSFJ"),
           ("Deutschlandticket", "BMDV"), ("short-time work allowance", "BMAS"),
           ("naturalisation", "BMI"), ("EU Blue Card", "BMI"), ("heating subsidy", "BMWK"),
           ("maternity protection", "BMFSFJ"), ("mini-job", "BMAS"), ("organic label", "BMEL"),
           ("accessibility act", "BMAS"), ("property tax", "BMF"), ("driving licence exchange", "BMDV")],
}
QUERIES = {
    "de": ["Wie hoch ist der Anspruch beim Thema {t} im Jahr {y}?",
           "Welche Voraussetzungen gelten für {t}, wenn ich selbstständig bin?",
           "Gibt es zum Thema {t} eine Broschüre, z. B. als PDF oder in Leichter Sprache?",
           "Was ändert sich {y} beim {t}?",
           "Muss ich {t} beantragen, oder läuft das automatisch?",
           "Bekommen auch Studierende, Azubis oder Rentner {t}?",
           "Was bedeutet „{t}“ genau?",
           'Ich habe "{t}" im Flyer gelesen – gilt das auch für Grenzgänger?',
           "Wo steht, ab wann {t} gezahlt wird?"],
    "en": ["How much is the {t} in {y}?",
           "Who is eligible for the {t}, and how do I apply?",
           'Is there a brochure on "{t}" in plain language?',
           "What changes for the {t} in {y}?",
           "Do students, apprentices or pensioners get the {t}?",
           "Where does it say when the {t} is paid out?",
           "Does the {t} also apply to cross-border commuters?"],
}
SEARCH = {"de": ["{t} {y} Höhe Voraussetzungen", "{t} Antrag Frist {y}", "{t} Broschüre PDF"],
          "en": ["{t} {y} amount eligibility", "{t} application deadline {y}", "{t} brochure"]}
SENTENCES = {
    "de": ["Nach § {p} des Gesetzes beträgt der Betrag für {t} ab dem {d}. März {y} {a} Euro.",
           "Anspruch auf {t} hat, wer seinen Wohnsitz in Deutschland hat, erwerbstätig ist oder "
           "Kinder betreut.",
           "Hinweis: Die Angaben zu „{t}“ entsprechen dem Stand {d}.{m}.{y}; Änderungen vorbehalten.",
           'Die Broschüre "{t} – Fragen und Antworten" erklärt, wie die Leistung berechnet wird.',
           "Der Antrag auf {t} ist innerhalb von {n} Monaten bei der zuständigen Stelle zu stellen.",
           "Für {t} gelten Übergangsregelungen, die bis {y} schrittweise auslaufen.",
           "Beispiel: Bei einem Einkommen von {a} Euro ergibt sich ein Zuschlag von {n}0 Euro.",
           "Weitere Informationen, Formulare und Merkblätter gibt es bei den Bürgerämtern."],
    "en": ["Under section {p} of the act, the {t} amounts to EUR {a} from {d} March {y}.",
           "Anyone who lives in Germany, works or cares for children may claim the {t}.",
           'Note: the figures on "{t}" are as of {m}/{d}/{y}; subject to change.',
           "The brochure '{t}: questions and answers' explains how the benefit is calculated.",
           "Applications for the {t} must be filed within {n} months, in writing or online.",
           "Transitional rules for the {t} are phased out, step by step, until {y}.",
           "Example: with an income of EUR {a}, the supplement is EUR {n}0 per month."],
}
ANSWERS = {
    "de": ["{T}: {a} Euro ab dem {d}. März {y} (Quelle: {doc}).",
           "Ja, {t} gilt auch für Selbstständige, sofern die Voraussetzungen erfüllt sind [1].",
           "Dazu liegen mir keine gesicherten Informationen vor. Bitte wenden Sie sich an die "
           "zuständige Behörde.",
           "Laut Broschüre „{t}“ muss der Antrag innerhalb von {n} Monaten gestellt werden [2].",
           'Kurz gesagt: "{t}" wird monatlich gezahlt, rückwirkend für höchstens {n} Monate [1][3].'],
    "en": ["The {t} is EUR {a} from {d} March {y} (source: {doc}).",
           "Yes, the {t} also applies to self-employed people, if the conditions are met [1].",
           "I could not find reliable information on that. Please contact the responsible "
           "authority.",
           'According to the brochure "{t}", you must apply within {n} months [2].',
           "In short: the {t} is paid monthly, back-dated for at most {n} months [1][3]."],
}
NOTES = ["Chunk ist veraltet (Stand 2022).", 'Quelle "BMF-2022-0419" nicht mehr aktuell',
         "Tabelle abgeschnitten, Rest fehlt", "Teilweise relevant; Zahlen fehlen.",
         "unclear, asked the lead", "OCR-Fehler: „Grundfreibetraq“",
         "Zeile 2:\nBetrag fehlt", "answer cites [3], context has only 2 docs",
         "Fließtext ok, Überschrift falsch"]
ADJ_NOTES = ["Adjudiziert: Chunk belegt die Antwort nicht vollständig.",
             "Adjudicated after discussion, see guideline §3.2", "Entscheidung nach Leitfaden v2, "
             'Abschnitt "Relevanz"', ""]


class Pools:
    """Per language: query entries (query, search query, answer, topic; raw and CSV-escaped)
    and chunks (text, chunk_id, doc_id), CHUNKS_PER_TOPIC per topic."""

    def __init__(self, rng: random.Random):
        self.lang, self.bytes = {}, {}
        for lang in ("de", "en"):
            queries, chunks_by_topic = [], []
            chunk_raw, chunk_esc, chunk_id, doc_id = [], [], [], []
            for ti, (topic, ministry) in enumerate(TOPICS[lang]):
                ids = []
                for _ in range(CHUNKS_PER_TOPIC):
                    text = " ".join(self._fill(rng, s, topic, ministry)
                                    for s in rng.sample(SENTENCES[lang], rng.choice((1, 1, 1, 2))))
                    if rng.random() < NEWLINE_RATE:
                        text = text.replace(". ", ".\n", 1) if ". " in text else text + "\n(Tabelle)"
                    ids.append(len(chunk_raw))
                    chunk_raw.append(text)
                    chunk_esc.append(esc(text))
                    chunk_id.append(new_uuid(rng))
                    doc_id.append(f"{ministry}-{2019 + int(rng.random() * 7)}-{1 + int(rng.random() * 999):04d}")
                chunks_by_topic.append(ids)
                for _ in range(QUERIES_PER_TOPIC):
                    q = self._fill(rng, rng.choice(QUERIES[lang]), topic, ministry)
                    if rng.random() < NEWLINE_RATE:
                        q += "\nDanke!" if lang == "de" else "\nThanks!"
                    sq = self._fill(rng, rng.choice(SEARCH[lang]), topic, ministry)
                    a = self._fill(rng, rng.choice(ANSWERS[lang]), topic, ministry)
                    if rng.random() < NEWLINE_RATE:
                        a += "\n\nQuellen: [1] " + doc_id[ids[0]]
                    queries.append((q, esc(q), sq, esc(sq), a, esc(a), ti))
            self.lang[lang] = (queries, chunks_by_topic, chunk_raw, chunk_esc, chunk_id, doc_id)
            # bytes for the fast path: "query,search query," / "query,answer," and per chunk
            # "chunk,chunk_id,doc_id," plus the quote-doubled text and whether it needs quoting
            self.bytes[lang] = (
                [f"{q[1]},{q[3]},".encode() for q in queries],
                [f"{q[1]},{q[5]},".encode() for q in queries],
                [f"{chunk_esc[i]},{chunk_id[i]},{doc_id[i]},".encode() for i in range(len(chunk_raw))],
                [t.replace('"', '""').encode() for t in chunk_raw],
                [esc(t) != t for t in chunk_raw])
        self.notes = [(n, esc(n)) for n in NOTES]
        self.adj_notes = [(n, esc(n)) for n in ADJ_NOTES]
        self.notes_nl = [esc(n).encode() + b"\n" for n in NOTES]
        self.adj_notes_nl = [esc(n).encode() + b"\n" for n in ADJ_NOTES]

    @staticmethod
    def _fill(rng: random.Random, template: str, topic: str, ministry: str) -> str:
        r = rng.random
        return template.format(
            t=topic, T=topic[:1].upper() + topic[1:], y=2023 + int(r() * 4),
            p=1 + int(r() * 120), d=1 + int(r() * 28), m=1 + int(r() * 12),
            a=f"{1 + int(r() * 30)}.{int(r() * 1000):03d}", n=2 + int(r() * 11),
            doc=f"{ministry}-{2019 + int(r() * 7)}-{1 + int(r() * 999):04d}")


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------
class TaskOutput:
    """Bookkeeping of one export: its part files, the task's part of the manifest, and the
    expected status counts.  The rows themselves are appended by write_block()."""

    def __init__(self, task: str, out: Path, fmt: str, converter):
        self.task, self.out, self.fmt, self.converter = task, out, fmt, converter
        self.rows = 0            # rows in the current part
        self.total = 0
        self.files = []          # (file name, rows)
        self.name = ""
        self.counts = {"accepted": 0, "rejected": 0, "superseded": 0}
        self.repair_accepted = 0
        self.reasons = {}
        self.scenarios = {}
        self.manifest_path = out / f".expected_{task}.tmp.csv"
        self.manifest_fh = self.manifest_path.open("w", encoding="utf-8", newline="")
        self.manifest = csv.writer(self.manifest_fh, lineterminator="\n")

    def open(self, name: str):
        self.name = name
        self.rows = 0

    def add(self, n_rows: int, entries: list, scenarios: dict):
        """A written segment of rows; entries: (row index in the segment, record_uuid,
        annotator_id, chunk_id, status, reasons, scenario) of its rows that are not accepted."""
        first = self.rows + 1
        self.rows += n_rows
        self.total += n_rows
        for k, v in scenarios.items():
            self.scenarios[k] = self.scenarios.get(k, 0) + v
        for i, record_uuid, annotator_id, chunk_id, status, reasons, scenario in entries:
            self.manifest.writerow([self.task, self.name, first + i, record_uuid, annotator_id,
                                    chunk_id, status, reasons, scenario])
            self.counts[status] += 1
            if status == "rejected":
                codes = set(reasons.split(";"))
                if codes <= IMPLICATION_CODES:
                    self.repair_accepted += 1
                for code in codes:
                    self.reasons[code] = self.reasons.get(code, 0) + 1

    def close(self):
        self.files.append((self.name, self.rows))
        if self.fmt == "parquet":
            self.converter(self.out / f".{self.name}.tmp.csv", self.out / self.name, COLUMNS[self.task])

    def finish(self):
        self.manifest_fh.close()
        self.counts["accepted"] = self.total - self.counts["rejected"] - self.counts["superseded"]


def part_bounds(args) -> list:
    """First record of each output part, and the number of records at the end."""
    return [k * args.records // args.files for k in range(args.files + 1)]


def export_name(args, task: str, part: int) -> str:
    width = max(3, len(str(args.files)))
    suffix = f"_part{part + 1:0{width}d}" if args.files > 1 else ""
    return f"{task}_annotations{suffix}.{args.format}"


def write_block(args, result: dict) -> dict:
    """Append a block's rows (lists of lines) to their part files (a temporary CSV per part for
    Parquet) and to records.csv; blocks must come in order.  Returns the result without them."""
    bounds = part_bounds(args)
    segments = []
    for first, records_text, tasks, scenarios in result["segments"]:
        part = bisect.bisect_right(bounds, first) - 1
        new = first == bounds[part]
        for t in TASKS:
            name = export_name(args, t, part)
            path = args.out / (name if args.format == "csv" else f".{name}.tmp.csv")
            with path.open("wb" if new else "ab", buffering=WRITE_BUFFER) as fh:
                if new:
                    fh.write((",".join(COLUMNS[t]) + "\n").encode())
                fh.writelines(tasks[t][0])
        with (args.out / "records.csv").open("ab", buffering=WRITE_BUFFER) as fh:
            fh.writelines(records_text)
        segments.append((first, None, {t: (None, n, e) for t, (_, n, e) in tasks.items()}, scenarios))
    return {"segments": segments, "stats": result["stats"]}


def csv_to_parquet(src: Path, dst: Path, columns: list) -> None:
    """Convert one temporary CSV to Parquet (row order kept, all columns VARCHAR, empty cells
    as ''), then delete the CSV."""
    import duckdb

    def q(p: Path) -> str:
        return "'" + str(p).replace("'", "''") + "'"

    con = duckdb.connect()
    try:
        con.execute("SET threads = 2")
        con.execute("SET memory_limit = '512MB'")
        con.execute("SET preserve_insertion_order = true")
        types = ", ".join(f"'{c}': 'VARCHAR'" for c in columns)
        select = ", ".join(f"coalesce({c}, '') AS {c}" for c in columns)
        con.execute(
            f"COPY (SELECT {select} FROM read_csv({q(src)}, header = true, auto_detect = false, "
            f"columns = {{{types}}}, delim = ',', quote = '\"', escape = '\"', "
            f"strict_mode = true)) TO {q(dst)} (FORMAT parquet, COMPRESSION zstd)")
    finally:
        con.close()
    src.unlink()


class Progress:
    """Progress on stderr: a bar on a terminal, one line per 10 % otherwise."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.next_decile = 1

    def update(self, frac: float, rows: int, final: bool = False):
        if self.quiet:
            return
        now = time.monotonic()
        elapsed = now - self.start
        if self.tty:
            if not final and now - self.last < 0.2:
                return
            self.last = now
            bar = "#" * int(frac * 30)
            sys.stderr.write(f"\r[{bar:.<30}] {frac * 100:3.0f}% {fmt_count(rows)} rows "
                             f"{elapsed:.1f} s" + ("\n" if final else ""))
            sys.stderr.flush()
        else:
            if frac * 10 >= self.next_decile - 1e-9:
                self.next_decile = int(frac * 10 + 1e-9) + 1
                sys.stderr.write(f"{frac * 100:3.0f}% {fmt_count(rows)} retrieval rows "
                                 f"{elapsed:.1f} s\n")
                sys.stderr.flush()


def fmt_count(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1e6:.2f}M"
    if n >= 1000:
        return f"{n / 1e3:.1f}k"
    return str(n)


# --------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------
def new_stats() -> dict:
    return {"records": 0, "dual_annotated": 0, "routed_gold": 0, "explicit_tier_a": 0,
            "explicit_tier_b": 0, "llm_judged": 0, "language_empty": 0,
            "units": {t: 0 for t in TASKS}, "dual_units": {t: 0 for t in TASKS},
            "disagreeing_units": {t: 0 for t in TASKS}, "adjudicated_units": {t: 0 for t in TASKS}}


def add_stats(total: dict, part: dict) -> None:
    for k, v in part.items():
        if isinstance(v, dict):
            for t, n in v.items():
                total[k][t] += n
        else:
            total[k] += v


class Generator:
    """Generates blocks of BLOCK records.  Block b draws from random.Random(f"{seed}|block|{b}"),
    so a block's rows do not depend on the others (nor on --files or --jobs).

    The labels of a record come from one of TEMPLATES precomputed label layouts of its kind
    (single or dual, with or without the LLM judge): truth per unit, can_answer, the units where
    the annotators disagree, the adjudications and the LLM judge's labels.  Everything else
    (ids, texts, chunks, annotators, times, spellings, records.csv) is drawn per record."""

    def __init__(self, args):
        self.args = args
        setup = random.Random(f"{args.seed}|setup")
        self.pools = Pools(random.Random(f"{args.seed}|pools"))
        self.humans = []
        for i in range(args.annotators):
            base, name = HUMAN_NAMES[i % len(HUMAN_NAMES)]
            k = i // len(HUMAN_NAMES)
            ann = base + (str(k + 1) if k else "")
            styles = tuple(EXPORT_STYLES[s] for s in setup.sample(HUMAN_STYLES, setup.choice((1, 2, 3))))
            spellings = ("tf",) * 4 + (setup.choice(HUMAN_SPELLINGS),)
            self.humans.append((ann, styles, spellings, name + (f" ({k + 1})" if k else "")))
        self.adj = (ADJUDICATOR[0], (EXPORT_STYLES["berlin"], EXPORT_STYLES["z"]), ("short", "tf"))
        self.llm = (LLM_JUDGE[0], (EXPORT_STYLES["frac_z"],), ("num",))
        self.ann_task = {(ann, t): f"{ann},{t},".encode() for ann in
                         [h[0] for h in self.humans] + [ADJUDICATOR[0], LLM_JUDGE[0]] for t in TASKS}
        self.rank_s = [str(r) for r in range(1, args.chunks + 40)]
        # label vector -> CSV bytes "v1,v2,v3," per spelling
        self.joined = {sp: {} for sp in SPELLINGS}
        for sp in SPELLINGS:
            for task in TASKS:
                n = len(LABELS[task])
                for code in range(2 ** n):
                    lab = tuple((code >> (n - 1 - i)) & 1 for i in range(n))
                    self.joined[sp][lab] = (",".join(boolean(x, sp) for x in lab) + ",").encode()
        # "rank,can_answer," per rank and can_answer value
        self.rank_can = [{c: f"{r},{c},".encode() for c in ("", "true", "false")}
                         for r in self.rank_s]
        # relevance state by rank: cumulative thresholds for SUFF, REL, RELMIS, IRRMIS (else IRR)
        self.rank_cdf = []
        for r in range(1, args.chunks + 1):
            p_rel = 0.08 + 0.8 * 0.82 ** (r - 1)
            p_suff, p_mis = p_rel * 0.45, p_rel * 0.10
            self.rank_cdf.append((p_suff, p_rel - p_mis, p_rel, p_rel + (1 - p_rel) * 0.06))
        self.templates = {}
        self.note_p = {1: 1 - (1 - NOTE_RATE) ** 1}
        self.kinds = {t: [k for k in KINDS[t] if k != "rank_conflict_shared_rank" or args.chunks >= 2]
                      for t in TASKS}
        self.part_starts = {k * args.records // args.files for k in range(args.files)}

    # ---------------------------------------------------------------- label templates
    def template_list(self, dual: bool, llm: bool) -> list:
        key = (dual, llm)
        if key not in self.templates:
            rng = random.Random(f"{self.args.seed}|labels|{int(dual)}|{int(llm)}")
            self.templates[key] = [self.label_template(rng, dual, llm) for _ in range(TEMPLATES)]
        return self.templates[key]

    def label_template(self, rng: random.Random, dual: bool, llm: bool) -> dict:
        """Truth, can_answer and the label lists of every session of a record."""
        rand = rng.random
        truth, can = [], []
        for cdf in self.rank_cdf:
            u = rand()
            state = (SUFF if u < cdf[0] else REL if u < cdf[1] else RELMIS if u < cdf[2]
                     else IRRMIS if u < cdf[3] else IRR)
            w = rand()
            can.append("" if w < 0.1 else ("true" if (w < 0.92) == (state[SUFFICIENT] == 1) else "false"))
            truth.append(with_new_labels("retrieval", named("retrieval", state), rand)
                         if NEW_LABELS["retrieval"] else state)
        truths = {"retrieval": truth, **{t: [answer_truth(t, rand)] for t in ("grounding", "generation")}}
        tpl = {"can": can, "voters": {}, "adj": {}, "llm": {},
               "stats": {"units": {}, "dual_units": {}, "disagreeing_units": {},
                         "adjudicated_units": {}}}
        flips_first = rand() < 0.5
        for t in TASKS:
            units_a = list(enumerate(truths[t]))
            units_b = list(units_a)
            adj = []
            disagree = 0
            if dual:
                for u, tr in units_a:
                    if rand() < DISAGREE_RATE:
                        flips = FLIPS[t][tr]
                        flipped = (u, flips[int(rand() * len(flips))])
                        if flips_first:
                            units_a[u] = flipped
                        else:
                            units_b[u] = flipped
                        disagree += 1
                        if rand() < ADJUDICATE_RATE:
                            adj.append((u, tr))
            tpl["voters"][t] = [units_a, units_b] if dual else [units_a]
            tpl["adj"][t] = adj
            if llm:
                units = []
                for u, lab in enumerate(truths[t]):
                    if rand() < LLM_NOISE:
                        flips = FLIPS[t][lab]
                        lab = flips[int(rand() * len(flips))]
                    units.append((u, lab))
                tpl["llm"][t] = units
            s = tpl["stats"]
            s["units"][t] = len(units_a)
            s["dual_units"][t] = len(units_a) if dual else 0
            s["disagreeing_units"][t] = disagree
            s["adjudicated_units"][t] = len(adj)
        tpl["any_adj"] = any(tpl["adj"].values())
        tpl["n_rows"] = {t: sum(map(len, tpl["voters"][t])) + len(tpl["adj"][t])
                         + (len(tpl["llm"][t]) if llm else 0) for t in TASKS}
        return tpl

    # ---------------------------------------------------------------- blocks
    def block(self, b: int) -> dict:
        """Records [b*BLOCK, (b+1)*BLOCK), cut into segments at the starts of output parts:
        {"segments": [(first record, records.csv lines, {task: (lines, rows, entries)},
        {task: {scenario: count}})], "stats": ...}."""
        a = self.args
        lo, hi = b * BLOCK, min((b + 1) * BLOCK, a.records)
        self.rng = random.Random(f"{a.seed}|block|{b}")
        self.budget = {t: 0.5 for t in TASKS}
        self.queue = {t: [] for t in TASKS}
        self.stats = new_stats()
        self.used = Counter()   # label templates used, by id (their stats are added at the end)
        segments = []
        for i in range(lo, hi):
            if i == lo or i in self.part_starts:
                seg = (i, [], {t: [[], 0, []] for t in TASKS}, {t: {} for t in TASKS})
                segments.append(seg)
            self.record(i, seg)
        for (key, idx), count in sorted(self.used.items()):
            for name, per_task in self.templates[key][idx]["stats"].items():
                for t, n in per_task.items():
                    self.stats[name][t] += n * count
        # lists of lines, not joined: a big fresh allocation costs more than writelines()
        return {"segments": [(i, recs, {t: tuple(v) for t, v in tasks.items()}, scen)
                             for i, recs, tasks, scen in segments],
                "stats": self.stats}

    def record(self, i: int, seg) -> None:
        rec = self.plan()
        runs = self.args.runs
        seg[1].append(rec["records_row"] if runs == 1
                      else rec["records_row"][:-1] + f",r{i % runs + 1},q{i // runs}\n".encode())
        rate = self.args.bad_rate
        for task in TASKS:
            lines, n, entries = seg[2][task]
            self.budget[task] += rate * rec["n_rows"][task]
            kind = self.pick_kind(task, rec) if self.budget[task] >= 1.0 else None
            if kind is None:
                new = self.checked_lines(task, rec) if i < SELF_CHECK_RECORDS else self.lines(task, rec)
                lines += new
                seg[2][task][1] = n + len(new)
                continue
            new, raw_rows, expected = self.host(task, rec, kind)
            col_chunk = COL[task].get("chunk_id")
            for k, status, reasons in expected:
                v = raw_rows[k]
                entries.append((n + k, v[0], v[1], v[col_chunk] if task == "retrieval" else "",
                                status, reasons, kind))
            lines += [line.encode() for line in new]
            seg[2][task][1] = n + len(new)
            seg[3][task][kind] = seg[3][task].get(kind, 0) + 1
            self.budget[task] -= len(expected)

    def checked_lines(self, task: str, rec: dict) -> list:
        """lines() of a clean record, checked against rows() with the same random draws (lines()
        is the fast path that writes bytes directly)."""
        state = self.rng.getstate()
        raw_rows, _ = self.rows(task, rec)
        self.rng.setstate(state)
        new = self.lines(task, rec)
        if new != [(",".join(map(esc, v)) + "\n").encode() for v in raw_rows]:
            raise AssertionError(f"self-check failed: fast {task} rows of record {rec['uuid']}")
        return new

    # ---------------------------------------------------------------- planning
    def plan(self) -> dict:
        """One record: ids, texts, chunks, annotators and their sessions per task."""
        rng = self.rng
        rand = rng.random
        a = self.args
        uuid = new_uuid(rng)
        lang = "de" if rand() < 0.55 else "en"
        langv = "" if rand() < NO_LANGUAGE_RATE else lang
        queries, by_topic, chunk_raw, *_ = self.pools.lang[lang]
        qi = int(rand() * len(queries))
        C = a.chunks
        if C <= CHUNKS_PER_TOPIC:   # distinct chunks of the query's topic: a stride modulo a prime
            ids = by_topic[queries[qi][6]]
            s, step = int(rand() * CHUNKS_PER_TOPIC), 1 + int(rand() * (CHUNKS_PER_TOPIC - 1))
            chunks = [ids[(s + k * step) % CHUNKS_PER_TOPIC] for k in range(C)]
        else:
            chunks = rng.sample(range(len(chunk_raw)), C)
        humans = self.humans
        dual = a.annotators >= 2 and rand() < a.dual_rate
        llm = rand() < LLM_RATE
        idx = int(rand() * TEMPLATES)
        tpl = self.template_list(dual, llm)[idx]
        self.used[(dual, llm), idx] += 1
        first = int(rand() * len(humans))
        voters = [humans[first]]
        if dual:
            second = int(rand() * (len(humans) - 1))
            voters.append(humans[second + (second >= first)])
        day = int(rand() * (WEEKS * 7 - 5))
        # sessions per task: [annotator, style, spelling, start epoch, step, [(unit, labels)]]
        sessions = {t: [] for t in TASKS}
        end = 0
        for k, (ann, styles, spellings, _) in enumerate(voters):
            start = (FIRST_DAY + (day + (0 if k == 0 else int(rand() * 3))) * 86400 + 21600
                     + int(rand() * 32400))
            style = styles[int(rand() * len(styles))]
            spelling = spellings[int(rand() * len(spellings))]
            step = 15 + int(rand() * 90)
            gap = 60 + step * 7
            for t in TASKS:
                units = tpl["voters"][t][k]
                sessions[t].append([ann, style, spelling, start, step, units])
                start += len(units) * step + gap
            end = max(end, start)
        if tpl["any_adj"]:
            ann, styles, spellings = self.adj
            start = end + 2 * 86400 + int(rand() * 3 * 86400)
            style = styles[int(rand() * len(styles))]
            spelling = spellings[int(rand() * len(spellings))]
            step = 45 + int(rand() * 60)
            for t in TASKS:
                units = tpl["adj"][t]
                if units:
                    sessions[t].append([ann, style, spelling, start, step, units])
                    start += len(units) * step + 120
        if llm:
            ann, styles, spellings = self.llm
            start = FIRST_DAY + (day + int(rand() * 2)) * 86400 + 3600 + int(rand() * 3 * 3600)
            step = 2 + int(rand() * 3)
            for t in TASKS:
                units = tpl["llm"][t]
                sessions[t].append([ann, styles[0], spellings[0], start, step, units])
                start += len(units) * step + 30
        st = self.stats
        st["records"] += 1
        st["dual_annotated"] += dual
        st["llm_judged"] += llm
        st["language_empty"] += langv == ""
        return {"uuid": uuid, "lang": lang, "langv": langv, "qi": qi, "chunks": chunks,
                "can": tpl["can"], "sessions": sessions, "n_rows": tpl["n_rows"],
                "records_row": self.records_row(uuid, dual)}

    def records_row(self, uuid: str, gold: bool) -> bytes:
        """The records.csv row: routed to tier_b (ADR-001) exactly when gold."""
        rand = self.rng.random
        pick, unc = self.pick, self.uncertainty
        st = self.stats
        u = rand()
        tier = ""
        if gold:
            st["routed_gold"] += 1
            if u < 0.55:
                task_type = pick(GOLD_TASK_TYPES)
                uncertainty = "" if rand() < 0.15 else unc(5, 99)
                adv = pick(("false", "true", "", "0", "0"))
            elif u < 0.75:
                task_type = pick(TRIAGE_TASK_TYPES)
                uncertainty = f"{GOLD_AT / 100:.2f}" if rand() < 0.1 else unc(GOLD_AT, 99)
                adv = pick(NOT_ADVERSARIAL)
            elif u < 0.88:
                task_type = pick(TRIAGE_TASK_TYPES)
                uncertainty = "" if rand() < 0.3 else unc(5, GOLD_AT - 1)
                adv = pick(("true", "1", "yes", "TRUE", "y"))
            else:
                task_type = pick(TRIAGE_TASK_TYPES)
                uncertainty = unc(5, GOLD_AT - 1)
                adv = pick(NOT_ADVERSARIAL)
                tier = "tier_b" if rand() < 0.8 else " tier_b "
                st["explicit_tier_b"] += 1
        else:
            adv = pick(NOT_ADVERSARIAL)
            uncertainty = "" if rand() < 0.15 else unc(5, GOLD_AT - 1)
            if u < 0.97:
                task_type = pick(TRIAGE_TASK_TYPES)
            else:   # the explicit tier wins over the gold task type
                task_type = pick(GOLD_TASK_TYPES)
                tier = "tier_a"
                st["explicit_tier_a"] += 1
        return f"{uuid},{task_type},{uncertainty},{adv},{tier}\n".encode()

    def pick(self, options: tuple) -> str:
        return options[int(self.rng.random() * len(options))]

    def uncertainty(self, lo: int, hi: int) -> str:
        return f"{(lo + int(self.rng.random() * (hi - lo + 1))) / 100:.2f}"

    # ---------------------------------------------------------------- rows
    def session_note(self, n: int, is_adj: bool):
        """At most one note per annotator session (probability 1 - (1 - NOTE_RATE) ** n):
        (row index, note index) or None.  Adjudicator rows draw their note per row."""
        if is_adj:
            return None
        p = self.note_p.get(n)
        if p is None:
            p = self.note_p[n] = 1 - (1 - NOTE_RATE) ** n
        rand = self.rng.random
        if rand() < p:
            return (int(rand() * n) if n > 1 else 0), int(rand() * len(NOTES))
        return None

    def lines(self, task: str, rec: dict) -> list:
        """The CSV lines (bytes) of one task of a clean record: the fast path, with the same
        values and random draws as rows()."""
        rand = self.rng.random
        P = self.pools
        qa_sq, qa_ans, chunk_tail, chunk_inner, chunk_quoted = P.bytes[rec["lang"]]
        notes_nl, adj_notes_nl = P.notes_nl, P.adj_notes_nl
        n_adj = len(adj_notes_nl)
        chunks = rec["chunks"]
        if task == "retrieval":
            head = qa_sq[rec["qi"]]
            can, rank_can = rec["can"], self.rank_can
            static = [head + chunk_tail[ci] + rank_can[u][can[u]] for u, ci in enumerate(chunks)]
        elif task == "grounding":
            top = chunks[:3]
            ctx = b" [SEP] ".join([chunk_inner[ci] for ci in top])
            if any(chunk_quoted[ci] for ci in top):
                ctx = b'"' + ctx + b'"'
            static = [qa_ans[rec["qi"]] + ctx + b","]
        else:
            static = [qa_ans[rec["qi"]]]
        out = []
        join = b"".join
        note_p1 = self.note_p[1]
        uuid_b = rec["uuid"].encode() + b","
        langv_b = rec["langv"].encode() + b","
        for ann, style, spelling, e, step, units in rec["sessions"][task]:
            sep, zone, fd = style
            n = len(units)
            is_adj = ann == ADJUDICATOR[0]
            prefix = join((uuid_b, self.ann_task[ann, task], langv_b))
            joined = self.joined[spelling]
            if n == 1 and fd == 0 and zone != "berlin" and not is_adj:
                # grounding and generation: one row per session
                note = notes_nl[int(rand() * len(NOTES))] if rand() < note_p1 else b"\n"
                off, suffix = (-18000, b"-05:00,") if zone == "-05:00" else (0, ZONE_SUFFIX[zone])
                d, t = divmod(e + step + off - DAY_BASE, 86400)
                u, lab = units[0]
                out.append(join((prefix, DATES_B[d], SEP_B[sep], HMS_B[t], suffix, static[u],
                                 joined[lab], note)))
                continue
            note = self.session_note(n, is_adj)
            if zone == "berlin":
                off = 7200 if e + step >= DST_START else 3600
                suffix = b"+02:00," if off == 7200 else b"+01:00,"
                berlin_change = e + step < DST_START <= e + step * n
            else:
                off, suffix = (-18000, b"-05:00,") if zone == "-05:00" else (0, ZONE_SUFFIX[zone])
                berlin_change = False
            d, s = divmod(e + off - DAY_BASE, 86400)
            if berlin_change or s + step * n >= 86400:   # rare: a session across DST or midnight
                rows = []
                for k, (u, lab) in enumerate(units, 1):
                    t = e + step * k
                    if is_adj:
                        tail = adj_notes_nl[int(rand() * n_adj)]
                    else:
                        tail = notes_nl[note[1]] if note and note[0] == k - 1 else b"\n"
                    rows.append(join((prefix, fmt_ts(t, frac_digits(t, fd), style).encode(), b",",
                                      static[u], joined[lab], tail)))
                out += rows
                continue
            head = prefix + DATES_B[d] + SEP_B[sep]
            if fd == 0 and not is_adj:   # the common case: times sliced from the table
                rows = [join((head, hms, suffix, static[u], joined[lab], b"\n"))
                        for hms, (u, lab) in zip(HMS_B[s + step:s + step * n + 1:step], units)]
                if note:
                    k = note[0]
                    rows[k] = rows[k][:-1] + notes_nl[note[1]]
                out += rows
                continue
            if fd == 0:
                times = [head + hms + suffix for hms in HMS_B[s + step:s + step * n + 1:step]]
            elif fd == 3:
                times = [head + HMS_B[s + step * k] + FRAC3_B[(e + step * k) * 7919 % 1000] + suffix
                         for k in range(1, n + 1)]
            else:
                times = [head + HMS_B[s + step * k] + b".%06d" % ((e + step * k) * 104729 % 1000000)
                         + suffix for k in range(1, n + 1)]
            if is_adj:
                rows = [join((t, static[u], joined[lab], adj_notes_nl[int(rand() * n_adj)]))
                        for t, (u, lab) in zip(times, units)]
            else:
                rows = [join((t, static[u], joined[lab], b"\n")) for t, (u, lab) in zip(times, units)]
                if note:
                    k = note[0]
                    rows[k] = rows[k][:-1] + notes_nl[note[1]]
            out += rows
        return out

    def rows(self, task: str, rec: dict):
        """Rows of one task of a record as lists of raw values in the order of the export's columns,
        written by export_data, with per-row metadata (session index, unit, epoch, fraction digits,
        style, spelling); same draws as lines()."""
        rand = self.rng.random
        P = self.pools
        queries, _, chunk_raw, _, chunk_ids, doc_ids = P.lang[rec["lang"]]
        qe = queries[rec["qi"]]
        query, sq, answer = qe[0], qe[2], qe[4]
        notes, adj_notes = P.notes, P.adj_notes
        uuid, langv = rec["uuid"], rec["langv"]
        ctx = " [SEP] ".join(chunk_raw[ci] for ci in rec["chunks"][:3])
        out, meta = [], []
        for si, (ann, style, spelling, e, step, units) in enumerate(rec["sessions"][task]):
            fd = style[2]
            is_adj = ann == ADJUDICATOR[0]
            note = self.session_note(len(units), is_adj)
            for k, (u, lab) in enumerate(units):
                e += step
                frac = frac_digits(e, fd)
                if is_adj:
                    text = adj_notes[int(rand() * len(adj_notes))][0]
                else:
                    text = notes[note[1]][0] if note and note[0] == k else ""
                if task == "retrieval":
                    ci = rec["chunks"][u]
                    texts = {"input_query": query, "generated_search_query": sq, "chunk": chunk_raw[ci],
                             "chunk_id": chunk_ids[ci], "doc_id": doc_ids[ci], "chunk_rank": self.rank_s[u],
                             "can_answer": rec["can"][u]}
                else:
                    texts = {"query": query, "answer": answer, **({"context_set": ctx} if task == "grounding" else {})}
                row = export_row(task, lab, spelling, record_uuid=uuid, annotator_id=ann, language=langv,
                                 created_at=fmt_ts(e, frac, style), notes=text, **texts)
                out.append([row[column] for column in COLUMNS[task]])
                meta.append((si, u, e, frac, style, spelling))
        return out, meta

    # ---------------------------------------------------------------- defects
    def pick_kind(self, task: str, rec: dict) -> str | None:
        """The next defect kind of the task's shuffled round that this record can host."""
        q = self.queue[task]
        for attempt in range(2):
            for idx, kind in enumerate(q):
                if kind != "rank_conflict_two_ranks" or len(rec["sessions"][task]) >= 2:
                    return q.pop(idx)
            if attempt == 0:
                fresh = list(self.kinds[task])
                self.rng.shuffle(fresh)
                q += fresh
        return None

    def host(self, task: str, rec: dict, kind: str):
        """Build the record's rows of one task with one defect scenario.

        Returns (CSV lines, raw rows, [(row index, status, reasons)] of the rows that are not
        accepted)."""
        rng = self.rng
        rows, meta = self.rows(task, rec)
        c = COL[task]
        expected = {}  # id(row) -> (status, reasons)
        t = rng.randrange(len(rows))
        row = rows[t]
        _, _, epoch, frac, style, spelling = meta[t]
        true_s, false_s = SPELLINGS[spelling]

        def set_label(v, col, value):
            v[c[col]] = true_s if value else false_s

        def neutralize(v, col):
            # a label made missing or invalid never stands against an antecedent that is 1
            for _, a, b, _kind in CONSTRAINTS[task]:
                if b == col and read_boolean(v[c[a]]) == 1:
                    set_label(v, a, 0)

        def damage(v, what, col=None) -> str:
            if what == "missing":
                col = col or rng.choice(REQUIRED[task])
                v[c[col]] = rng.choice(BAD_CELLS["blank"])
                neutralize(v, col)
                return f"missing:{col}"
            if what == "invalid_boolean":
                col = col or rng.choice(LABELS[task] + (["can_answer"] if task == "retrieval"
                                                        else []))
                v[c[col]] = rng.choice(BAD_CELLS["boolean"])
                neutralize(v, col)
                return f"invalid_boolean:{col}"
            if what == "invalid_rank":
                v[c["chunk_rank"]] = rng.choice(BAD_CELLS["rank"])
                return "invalid_rank"
            if what == "invalid_timestamp":
                v[c["created_at"]] = rng.choice(BAD_CELLS["timestamp"])
                return "invalid_timestamp"
            if what == "invalid_language":
                v[c["language"]] = rng.choice(BAD_CELLS["language"])
                return "invalid_language"
            if what == "wrong_task":
                v[c["task"]] = rng.choice([x for x in TASKS if x != task])
                return "wrong_task"
            raise ValueError(what)

        def valid_labels():
            n = len(LABELS[task])
            while True:
                lab = tuple(rng.randint(0, 1) for _ in range(n))
                if is_valid(task, lab):
                    return lab

        def set_labels(v, lab):
            for col, x in zip(LABELS[task], lab):
                set_label(v, col, x)

        def parsed_labels(v):
            return tuple(read_boolean(v[c[x]]) for x in LABELS[task])

        def same_instant(v):
            """created_at of the same instant, half of the time written in another form."""
            if rng.random() < 0.5:
                return v[c["created_at"]]
            alts = [s for s in EXPORT_STYLES.values() if s[2] == style[2] and s != style]
            return fmt_ts(epoch, frac, rng.choice(alts)) if alts else v[c["created_at"]]

        if kind in ("missing", "invalid_boolean", "invalid_rank", "invalid_timestamp",
                    "invalid_language", "wrong_task"):
            expected[id(row)] = ("rejected", damage(row, kind))
        elif kind.startswith("violates_"):
            reasons = ([reason for reason, *_ in CONSTRAINTS[task]] if kind == "violates_both"
                       else ["violates:" + kind.removeprefix("violates_")])
            # retrieval breaks its constraints from no label set (one vector per kind), grounding
            # from a random valid vote, changing only the labels the constraints name
            start = labels_with(task) if task == "retrieval" else valid_labels()
            lab = breaking(task, start, reasons)
            set_labels(row, lab)
            expected[id(row)] = ("rejected", ";".join(broken_constraints(task, lab)))
        elif kind == "several":
            options = ["invalid_timestamp", "invalid_language", "wrong_task", "missing_text",
                       "invalid_label", "missing_label"]
            if task == "retrieval":
                options += ["invalid_rank", "invalid_boolean_can_answer"]
            chosen = rng.sample(options, rng.choice((2, 2, 3)))
            label_cols = rng.sample(LABELS[task], 2)
            codes = []
            for what in chosen:
                if what == "missing_text":
                    codes.append(damage(row, "missing", rng.choice(TEXT_COLUMNS[task])))
                elif what == "invalid_label":
                    codes.append(damage(row, "invalid_boolean", label_cols[0]))
                elif what == "missing_label":
                    codes.append(damage(row, "missing", label_cols[1]))
                elif what == "invalid_boolean_can_answer":
                    codes.append(damage(row, "invalid_boolean", "can_answer"))
                else:
                    codes.append(damage(row, what))
            expected[id(row)] = ("rejected", ";".join(sorted(codes)))
        elif kind == "conflicting_duplicate":
            twin = list(row)
            lab = parsed_labels(row)
            flips = FLIPS[task][lab]
            set_labels(twin, flips[rng.randrange(len(flips))])
            twin[c["created_at"]] = same_instant(row)
            rows.insert(t + 1 if rng.random() < 0.7 else t, twin)
            expected[id(row)] = expected[id(twin)] = ("rejected", "conflicting_duplicate")
        elif kind == "duplicate_more_reasons":
            twin = list(row)
            twin[c["created_at"]] = same_instant(row)
            if rng.random() < 0.3:   # the same labels in another spelling
                other_t, other_f = SPELLINGS[rng.choice(list(SPELLINGS))]
                for col in LABELS[task]:
                    twin[c[col]] = other_t if read_boolean(row[c[col]]) else other_f
            options = ["invalid_language", "wrong_task", "missing_text"]
            if task == "retrieval":
                options += ["invalid_rank", "invalid_boolean_can_answer"]
            what = rng.choice(options)
            if what == "missing_text":
                damage(twin, "missing", rng.choice(TEXT_COLUMNS[task]))
            elif what == "invalid_boolean_can_answer":
                damage(twin, "invalid_boolean", "can_answer")
            else:
                damage(twin, what)
            rows.insert(t + 1 if rng.random() < 0.5 else t, twin)
            expected[id(twin)] = ("superseded", "")
        elif kind == "resubmission":
            earlier = epoch
            for _ in range(1 if rng.random() < 0.75 else 2):
                old = list(row)
                earlier -= 60 + rng.randrange(3 * 86400)
                old_style = rng.choice(list(EXPORT_STYLES.values()))
                old_frac = ("".join(rng.choice("0123456789") for _ in range(old_style[2]))
                            if old_style[2] else "")
                old[c["created_at"]] = fmt_ts(earlier, old_frac, old_style)
                u = rng.random()
                if u < 0.4:
                    set_labels(old, FLIPS[task][parsed_labels(row)][0])
                elif u < 0.6:
                    damage(old, rng.choice(["invalid_boolean", "invalid_language"]))
                elif u < 0.7 and task != "generation":
                    set_labels(old, BROKEN_EARLIER[task])
                rows.insert(t if rng.random() < 0.7 else t + 1, old)
                expected[id(old)] = ("superseded", "")
        elif kind == "rank_conflict_two_ranks":
            # a unit labelled in at least two sessions; one row gives it a rank no chunk has
            counts = {}
            for _si, u, *_ in meta:
                counts[u] = counts.get(u, 0) + 1
            unit = rng.choice(sorted(u for u, n in counts.items() if n >= 2))
            idx = [i for i, m in enumerate(meta) if m[1] == unit]
            rows[rng.choice(idx)][c["chunk_rank"]] = str(self.args.chunks + 1 + rng.randrange(5))
            for i in idx:
                expected[id(rows[i])] = ("rejected", "rank_conflict")
        elif kind == "rank_conflict_shared_rank":
            x, y = rng.sample(range(self.args.chunks), 2)
            idx_y = [i for i, m in enumerate(meta) if m[1] == y]
            rows[rng.choice(idx_y)][c["chunk_rank"]] = self.rank_s[x]
            for i, m in enumerate(meta):
                if m[1] in (x, y):
                    expected[id(rows[i])] = ("rejected", "rank_conflict")
        else:
            raise ValueError(kind)

        entries = [(i, *expected[id(v)]) for i, v in enumerate(rows) if id(v) in expected]
        return [",".join(map(esc, v)) + "\n" for v in rows], rows, entries


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------
EPILOG = """\
examples:
  %(prog)s --records 2000 --out /tmp/exports
      about 2000 x 10 x 1.75 = 35k retrieval rows (13 MB), CSV, one file per export
  %(prog)s --records 575000 --annotators 2 --chunks 10 --files 8 --out /tmp/big
      about 10M retrieval rows in 8 parts (4.5 GB of CSV; 1 to 1.5 minutes with 2 jobs)
  %(prog)s --records 100000 --format parquet --bad-rate 0.01 --seed 7 --quiet --out /tmp/pq

Rows per record and task: one per unit and annotator session: the first annotator; a second
one on --dual-rate of the records; the adjudicator on about 85 %% of their disagreeing units;
the LLM judge on 30 %% of the records.  Retrieval has --chunks units per record, grounding and
generation one.  The file head (module docstring) describes the data, the defect scenarios and
the columns of expected_status.csv.
"""


def parse_args(argv=None):
    p = argparse.ArgumentParser(
        prog="generate_exports.py",
        description="Write large synthetic ragmart annotation exports (retrieval, grounding and\n"
                    "generation annotations, annotators.csv, records.csv) with a controlled share of\n"
                    "deliberately bad rows, an expected-status manifest (expected_status.csv) and\n"
                    "summary.json. Deterministic for a given --seed; streams with flat memory.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--records", type=int, default=1000,
                   help="number of query examples (records); each appears in all three exports "
                        "(default: 1000)")
    p.add_argument("--annotators", type=int, default=3,
                   help="number of HUMAN annotators (role annotator); one HUMAN adjudicator and "
                        "one LLM judge are always added (default: 3)")
    p.add_argument("--chunks", type=int, default=10,
                   help="retrieved chunks per record, ranks 1..N (default: 10, at most 300)")
    p.add_argument("--seed", type=int, default=20250301,
                   help="random seed; the same arguments give byte-identical CSV output "
                        "(default: 20250301)")
    p.add_argument("--format", choices=("csv", "parquet"), default="csv",
                   help="format of the three exports; annotators.csv, records.csv and the manifest "
                        "are always CSV (default: csv)")
    p.add_argument("--out", required=True, type=Path,
                   help="output directory (created if needed)")
    p.add_argument("--files", type=int, default=1,
                   help="split each export into N files <task>_annotations_partNNN.<ext> by "
                        "ranges of records (default: 1, no suffix)")
    p.add_argument("--bad-rate", type=float, default=0.002,
                   help="share of rows made deliberately bad (rejected or superseded), "
                        "0 <= F <= 0.2 (default: 0.002)")
    p.add_argument("--dual-rate", type=float, default=0.4,
                   help="share of records dual-annotated, i.e. routed to the gold tier by "
                        "records.csv; needs --annotators >= 2 when > 0 (default: 0.4)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="worker processes generating blocks of 1000 records in parallel; the "
                        "output does not depend on it (default: min(2, CPUs), here "
                        f"{min(2, os.cpu_count() or 1)})")
    p.add_argument("--runs", type=int, default=1,
                   help="evaluation runs: with N > 1, records.csv gains run_id and query_id, record i "
                        "is in run r<i mod N + 1> and answers query q<i div N>, so the runs answer "
                        "the same queries with their own labels (default: 1, no run columns)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress and no summary (errors only)")
    args = p.parse_args(argv)
    problems = []
    if args.records < 1:
        problems.append("--records must be >= 1")
    if args.annotators < 1:
        problems.append("--annotators must be >= 1")
    if not 1 <= args.chunks <= 300:
        problems.append("--chunks must be between 1 and 300")
    if not 1 <= args.files <= args.records:
        problems.append("--files must be between 1 and --records")
    if not 0 <= args.bad_rate <= 0.2:
        problems.append("--bad-rate must be between 0 and 0.2")
    if not 0 <= args.dual_rate <= 1:
        problems.append("--dual-rate must be between 0 and 1")
    if args.dual_rate > 0 and args.annotators < 2:
        problems.append("--dual-rate > 0 needs --annotators >= 2 (or pass --dual-rate 0)")
    if args.jobs < 1:
        problems.append("--jobs must be >= 1")
    if args.runs < 1:
        problems.append("--runs must be >= 1")
    if problems:
        p.error("; ".join(problems))
    return args


STALE = re.compile(r"^(\.)?(retrieval|grounding|generation)_annotations(_part\d+)?\.(csv|parquet)"
                   r"(\.tmp\.csv)?$|^\.expected_(retrieval|grounding|generation)\.tmp\.csv$")

# shared with the forked worker processes
_WORKER = None      # the Generator
_TURN = None        # number of the next block to be written
_FAILED = None      # set when a worker failed (the others then skip writing)
_COND = None


def _run_block(b: int) -> dict:
    """Generate block b in a worker, wait for its turn, append it to the files."""
    result, error = None, None
    try:
        result = _WORKER.block(b)
    except BaseException as exc:   # still take the turn, so the other workers do not wait forever
        error = exc
    with _COND:
        _COND.wait_for(lambda: _TURN.value == b)
    try:
        if error is None and not _FAILED.value:
            result = write_block(_WORKER.args, result)
    except BaseException as exc:
        error = exc
    finally:
        with _COND:
            if error is not None:
                _FAILED.value = 1
            _TURN.value = b + 1
            _COND.notify_all()
    if error is not None:
        raise error
    return result


def blocks_in_order(args, gen: Generator):
    """Generate and write all blocks in order; yield their results (without texts).  With
    --jobs > 1, forked worker processes (which inherit gen) generate blocks in parallel and
    append them to the files themselves, in turn; at most 2 * jobs blocks are in flight."""
    global _WORKER, _TURN, _FAILED, _COND
    n_blocks = (args.records + BLOCK - 1) // BLOCK
    if args.jobs <= 1 or n_blocks == 1:
        for b in range(n_blocks):
            yield write_block(args, gen.block(b))
        return
    for dual in (False, True) if args.dual_rate > 0 else (False,):
        for llm in (False, True):
            gen.template_list(dual, llm)   # built once, before the fork
    ctx = multiprocessing.get_context("fork")
    _WORKER, _TURN, _FAILED, _COND = gen, ctx.Value("q", 0), ctx.Value("b", 0), ctx.Condition()
    with ctx.Pool(args.jobs) as pool:
        pending = deque()
        nxt = 0
        while nxt < n_blocks and len(pending) < 2 * args.jobs:
            pending.append(pool.apply_async(_run_block, (nxt,)))
            nxt += 1
        while pending:
            result = pending.popleft().get()
            if nxt < n_blocks:
                pending.append(pool.apply_async(_run_block, (nxt,)))
                nxt += 1
            yield result


def write_annotators(path: Path, humans: list) -> None:
    write_csv(path, COLUMNS["annotators"],
              [[ann, "HUMAN", "annotator", name] for ann, _, _, name in humans] + [ADJUDICATOR, LLM_JUDGE])


def main(argv=None) -> int:
    args = parse_args(argv)
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    for f in out.iterdir():
        if f.is_file() and STALE.match(f.name):
            f.unlink()
    t0 = time.monotonic()
    bounds = part_bounds(args)
    progress = Progress(args.quiet)
    stats = new_stats()
    gen = Generator(args)
    humans = gen.humans
    write_annotators(out / "annotators.csv", humans)
    records_columns = COLUMNS["records"] + (["run_id", "query_id"] if args.runs > 1 else [])
    (out / "records.csv").write_text(",".join(records_columns) + "\n", encoding="utf-8")
    results = blocks_in_order(args, gen)
    converter = ThreadPoolExecutor(max_workers=1) if args.format == "parquet" else None
    futures = []

    def convert(src, dst, columns):
        futures.append(converter.submit(csv_to_parquet, src, dst, columns))

    outs = {t: TaskOutput(t, out, args.format, convert) for t in TASKS}
    try:
        part = -1
        for result in results:   # the first next() forks the workers (before any thread starts)
            for first, _, tasks, scenarios in result["segments"]:
                if first == bounds[part + 1]:
                    if part >= 0:
                        for t in TASKS:
                            outs[t].close()
                    part += 1
                    for t in TASKS:
                        outs[t].open(export_name(args, t, part))
                for t in TASKS:
                    outs[t].add(tasks[t][1], tasks[t][2], scenarios[t])
            add_stats(stats, result["stats"])
            progress.update(stats["records"] / args.records, outs["retrieval"].total)
        for t in TASKS:
            outs[t].close()
        gen_seconds = time.monotonic() - t0
        if futures and not args.quiet:
            sys.stderr.write(("\n" if progress.tty else "") + "converting to Parquet ...\n")
        for f in futures:
            f.result()
        progress.update(1.0, outs["retrieval"].total, final=True)
    finally:
        results.close()
        if converter:
            converter.shutdown(wait=True)
        for t in TASKS:
            if not outs[t].manifest_fh.closed:
                outs[t].finish()
    total_seconds = time.monotonic() - t0

    # the manifest in task order, then the summary
    with (out / "expected_status.csv").open("w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(MANIFEST_COLUMNS) + "\n")
        for t in TASKS:
            with outs[t].manifest_path.open(encoding="utf-8", newline="") as part_fh:
                shutil.copyfileobj(part_fh, fh)
            outs[t].manifest_path.unlink()
    summary = {
        "generator": "dev/generate/generate_exports.py",
        "parameters": {
            "records": args.records, "annotators": args.annotators, "chunks": args.chunks,
            "seed": args.seed, "format": args.format, "files": args.files,
            "bad_rate": args.bad_rate, "dual_rate": args.dual_rate,
            "llm_rate": LLM_RATE, "disagree_rate": DISAGREE_RATE,
            "adjudicate_rate": ADJUDICATE_RATE, "llm_noise": LLM_NOISE,
        },
        "annotators": {"annotator": [h[0] for h in humans], "adjudicator": [ADJUDICATOR[0]],
                       "llm_judge": [LLM_JUDGE[0]]},
        "records": {k: stats[k] for k in ("records", "dual_annotated", "routed_gold",
                                          "explicit_tier_a", "explicit_tier_b", "llm_judged",
                                          "language_empty")},
        "files": {"annotators": "annotators.csv", "records": "records.csv",
                  "expected_status": "expected_status.csv"},
        "tasks": {},
    }
    for t in TASKS:
        o = outs[t]
        bad = o.counts["rejected"] + o.counts["superseded"]
        summary["tasks"][t] = {
            "files": [{"file": n, "rows": r} for n, r in o.files],
            "rows": o.total,
            "expected": dict(o.counts),
            "expected_repair": {"accepted": o.counts["accepted"] + o.repair_accepted,
                                "rejected": o.counts["rejected"] - o.repair_accepted,
                                "superseded": o.counts["superseded"]},
            "bad_share": round(bad / o.total, 6) if o.total else 0.0,
            "reasons": dict(sorted(o.reasons.items())),
            "scenarios": dict(sorted(o.scenarios.items())),
            "planned_units": {"units": stats["units"][t], "dual_units": stats["dual_units"][t],
                              "disagreeing": stats["disagreeing_units"][t],
                              "adjudicated": stats["adjudicated_units"][t]},
        }
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
    if not args.quiet:
        ret = outs["retrieval"].total
        print(f"Wrote {args.files * 3} export file(s) ({args.format}), annotators.csv, records.csv, "
              f"expected_status.csv and summary.json to {out}")
        for t in TASKS:
            e = outs[t].counts
            print(f"  {t:<11}{outs[t].total:>12,} rows: {e['accepted']:,} accepted, "
                  f"{e['rejected']:,} rejected, {e['superseded']:,} superseded")
        print(f"  {ret / gen_seconds:,.0f} retrieval rows/s while generating ({gen_seconds:.1f} s), "
              f"{total_seconds:.1f} s in total, {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
